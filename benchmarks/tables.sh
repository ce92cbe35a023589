#!/usr/bin/env bash
# Regenerates the measurement tables of benchmarks/RESULTS.md (prints Markdown).
# Usage: benchmarks/tables.sh [path/to/ncmc]   (default: bin/ncmc, built by `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
ncmc=${1:-bin/ncmc}
echo "### SC: reference explorer (plain DFS over all interleavings) and mcr (1 worker)"
echo
"$ncmc" bench --explorers reference,mcr --workers 1 --timeout 10m examples/*.cir || true
echo
echo "### SC: stateful reference explorer (--state-cache)"
echo
"$ncmc" bench --explorers reference --state-cache --timeout 10m examples/*.cir || true
for m in tso pso; do
  echo
  echo "### ${m^^}: stateful reference explorer and mcr (1 worker)"
  echo
  "$ncmc" bench --model "$m" --explorers reference,mcr --state-cache --workers 1 --timeout 10m \
    examples/sb.cir examples/mp.cir examples/peterson.cir examples/dekker.cir examples/n-counter-inc-3.cir || true
done
