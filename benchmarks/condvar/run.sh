#!/usr/bin/env bash
# Condition-variable programs side by side: ncmc's default (since the
# twentieth session the stateful explorer first, vmcr with step-wise
# condition variables after it when it does not finish in its share),
# optionally an older ncmc binary (OLD=path: the nineteenth session's ran
# vmcr, earlier ones the stateful explorer), and
# Nidhugg's source DPOR (--sc; its --rf refuses condition variables; GenMC
# 0.10.3 has no pthread_cond_t) where $ANCHORS/bin/nidhuggc exists.
# Prints a Markdown table: explorer, executions, wall seconds, peak MB.
# Usage: benchmarks/condvar/run.sh [LIMIT_SECONDS]
set -u
cd "$(dirname "$0")/../.."
limit=${1:-60}
ncmc=${NCMC:-bin/ncmc}
anchors=${ANCHORS:-$HOME/.cache/ncmc-anchors}
bench=../shared/bench/svcomp/more
runs=(
  "sc|$bench/sync01.c|"
  "sc|$bench/one_time_barrier_2t.c|"
  "sc|examples/prodcons-condvar.cir|"
  "tso|examples/prodcons-condvar.cir|"
  "pso|examples/prodcons-condvar.cir|"
  "sc|explore/vmcrx/testdata/regress/cond-choice.cir|"
  "sc|benchmarks/condvar/pc.c|-DN=1 -DP=1"
  "sc|benchmarks/condvar/pc.c|-DN=4 -DP=1"
  "sc|benchmarks/condvar/pc.c|-DN=1 -DP=2"
  "sc|benchmarks/condvar/pc.c|-DN=2 -DP=2"
)
# one TOOL CMD...: "explorer executions wall peakMB" (time-out: "- - >limit -")
measure() {
  local out t
  out=$( { /usr/bin/time -f "TIME %e %M" timeout "$limit" "$@" 2>&1; } 2>&1 )
  t=$(grep '^TIME' <<<"$out" | tail -1)
  if grep -q "status 124" <<<"$out" || [ -z "$t" ]; then
    echo "- | - | >$limit | -"
    return
  fi
  local wall mb
  wall=$(awk '{print $2}' <<<"$t"); mb=$(( $(awk '{print $3}' <<<"$t") / 1024 ))
  if [[ "$1" == *nidhugg* ]] && ! grep -q "Trace count" <<<"$out"; then
    echo "error: $(grep -m1 -o 'Error:.*' <<<"$out" | head -c 80) | - | $wall | $mb"
  elif grep -q "Trace count" <<<"$out"; then
    echo "nidhugg | $(grep -o 'Trace count: [0-9]*' <<<"$out" | grep -o '[0-9]*$') | $wall | $mb"
  else
    local ex n
    ex=$(grep -o 'explorer [a-z0-9-]*' <<<"$out" | head -1 | awk '{print $2}')
    n=$(grep -o '[0-9][0-9]* executions' <<<"$out" | head -1 | awk '{print $1}')
    echo "$ex | $n | $wall | $mb"
  fi
}
echo "| program | model | tool | explorer | executions | wall s | peak MB |"
echo "|---|---|---|---|---:|---:|---:|"
for r in "${runs[@]}"; do
  IFS='|' read -r model file defs <<<"$r"
  name="$(basename "$file") $defs"
  # shellcheck disable=SC2086
  echo "| $name | $model | ncmc | $(measure $ncmc verify --model "$model" "$file" $defs) |"
  if [ -n "${OLD:-}" ]; then
    # shellcheck disable=SC2086
    echo "| $name | $model | ncmc before | $(measure "$OLD" verify --model "$model" "$file" $defs) |"
  fi
  if [ "$model" = sc ] && [ "${file##*.}" = c ] && [ -x "$anchors/bin/nidhuggc" ]; then
    # shellcheck disable=SC2086
    echo "| $name | $model | Nidhugg --sc | $(measure "$anchors/bin/nidhuggc" $defs -- --sc "$file") |"
  fi
done
