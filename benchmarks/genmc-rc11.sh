#!/bin/bash
# Side by side under rc11: GenMC 0.10.3 and ncmc's trust explorer on GenMC's
# synthetic tests at the parameters of issue 20. Needs the anchors
# (../shared/anchors/README.md): $ANCHORS/bin/genmc and the GenMC tarball.
# Prints a Markdown table: executions, wall and CPU (user + sys) per tool.
#   benchmarks/genmc-rc11.sh [path/to/genmc-0.10.3.tar.gz]
set -u
TARBALL=${1:-../shared/anchors/genmc-0.10.3.tar.gz}
ANCHORS=${ANCHORS:-$HOME/.cache/ncmc-anchors}
export PATH=$ANCHORS/bin:/usr/lib/llvm-16/bin:$PATH
NCMC=${NCMC:-$(pwd)/bin/ncmc}
[ -x "$NCMC" ] || { echo "build ncmc first (make build) or set NCMC" >&2; exit 2; }
command -v genmc >/dev/null || echo "genmc not found: its columns stay empty" >&2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar xzf "$TARBALL" -C "$work"
S=$(echo "$work"/genmc-*/tests/correct/synthetic)
echo "| program | GenMC executions | GenMC wall / CPU | ncmc executions | ncmc wall / CPU |"
echo "|---|---|---|---|---|"
for p in "casw N 4" "casw N 5" "readers N 8" "readers N 13" "fib_bench NUM 3" "fib_bench NUM 4" "fib_bench NUM 5" "lastzero N 10" "lastzero N 15" "indexer N 12"; do
  set -- $p
  d=$S/$1/variants; base=$d/${1}0.c
  printf '#define %s %s\n#include "%s0.c"\n' $2 $3 $1 > $d/w_$3.c
  extra=""; [ $1 = casw ] && extra="-disable-ipr -disable-sr"
  gn=""; gt=""
  if command -v genmc >/dev/null; then
    g=$( { /usr/bin/time -f "TIME %e %U %S" timeout 300 genmc -rc11 --disable-estimation $extra -- -D$2=$3 $base; } 2>&1 )
    gn=$(echo "$g" | grep -o 'complete executions explored: [0-9]*' | grep -o '[0-9]*$')
    gt=$(echo "$g" | grep TIME | awk '{printf "%.2f s / %.2f s", $2, $3+$4}')
  fi
  n=$( { /usr/bin/time -f "TIME %e %U %S" timeout 300 "$NCMC" verify --model rc11 --explorer trust --unroll 20 --keep-going $d/w_$3.c; } 2>&1 )
  nn=$(echo "$n" | grep -o 'trust: [0-9]* executions' | grep -o '[0-9]*')
  nt=$(echo "$n" | grep TIME | awk '{printf "%.2f s / %.2f s", $2, $3+$4}')
  echo "| $1 $2=$3 | $gn | $gt | $nn | $nt |"
done
