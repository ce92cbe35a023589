#!/bin/bash
# Counts the instructions ncmc binaries execute on one program: a measure
# of small CPU changes that the machine's load does not move.
#
# Wall and CPU times on a shared VM drift by tens of percent within
# minutes, so a change of a few percent cannot be seen in them (see
# benchmarks/RESULTS.md). Valgrind's cachegrind counts the instructions a
# run executes instead. With the collector off (GOGC=off: no GC cycle whose
# timing depends on the machine) and one processor (GOMAXPROCS=1, one
# worker), two runs of the same binary give the same count to 0.1%. An
# instruction count is not a time: a change that adds cache misses can
# cost time while saving instructions, so ICOUNT_CACHE=1 also simulates
# the caches and prints the level-1 instruction and data misses, and
# whatever a change saves here is confirmed by `make compare` on the
# idle machine.
#
#   benchmarks/icount.sh BIN... -- VERIFY-ARGS...
#   e.g. benchmarks/icount.sh /tmp/old /tmp/new -- fib_bench0.c -DNUM=4 --model tso --unroll 1000
#
# Takes about 25 s per binary on fib_bench NUM=4 (about 50x the run's own
# time; 60 s with ICOUNT_CACHE=1). The run must fit in memory without a
# collector: keep it to a few seconds of CPU.
set -u
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do bins+=("$1"); shift; done
[ $# -gt 0 ] && shift
if [ ${#bins[@]} -eq 0 ] || [ $# -eq 0 ]; then
  echo "usage: $0 BIN... -- VERIFY-ARGS..." >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
sim=--cache-sim=no
[ -n "${ICOUNT_CACHE:-}" ] && sim=--cache-sim=yes
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for b in "${bins[@]}"; do
  GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind $sim --cachegrind-out-file="$work/out" \
    "$b" verify --workers 1 "$@" >"$work/stdout" 2>"$work/log"
  rc=$?
  num() { grep "$1" "$work/log" | head -n 1 | awk '{print $4}' | tr -d ,; }
  line="$b: $(num 'I   refs') instructions"
  [ -n "${ICOUNT_CACHE:-}" ] && line="$line, $(num 'I1  misses') I1 misses, $(num 'D1  misses') D1 misses"
  echo "$line (exit $rc; $(cat "$work/stdout" "$work/log" | grep -o "[0-9][0-9,]* executions" | head -n 1))"
done
