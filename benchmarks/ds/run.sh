#!/usr/bin/env bash
# Runs the NCMC data-structure benchmarks (benchmarks/ds/README.md) and prints
# a Markdown table. Usage: benchmarks/ds/run.sh [run flags], e.g.
#   benchmarks/ds/run.sh -timeout 300s -n 4-7
set -euo pipefail
cd "$(dirname "$0")/../.."
exec go run ./benchmarks/ds run "$@"
