#!/bin/bash
# GenMC's regression suite as a yardstick of the C front end (issue 19).
#
# Runs `ncmc verify` on every variant (tests/*/*/<test>/variants/*.c) of the
# GenMC source tree or tarball given (default: the anchors' tarball, which
# holds tests/correct/synthetic only; a full GenMC checkout also has
# tests/correct/<group> and tests/wrong/<group>), with the -D flags of the
# first line of the test's argument file, as GenMC's driver does, and
# compares the verdict with GenMC's: a program under tests/correct must
# verify, one under tests/wrong must give a violation.
#
# Models: each program runs under rc11 (GenMC's default model and the first
# of its test driver's models; ncmc has no imm) and, when the test has an sc
# argument or expected file, under sc too; MODELS="sc" or MODELS="rc11" runs
# one. The argument line is the model's (args.<model>.mo.in) when there is one.
# Each run is bounded by CPU time: $CPU seconds (default 60; ulimit -t, so
# the bound does not depend on the machine's load), and gets a wall-clock
# --timeout $TIMEOUT (default 600s) and --unroll: GenMC's -unroll=N from the
# argument line if it has one, else $UNROLL (default 64). The time printed
# is the run's CPU time (user + sys).
# One line per program, then the totals:
#   agree        the verdict is GenMC's
#   bounded      GenMC runs the test with -unroll=N (its "no errors" is for
#                the unrolled program) and ncmc, with --unroll N, found no
#                violation and hit the loop bound (unknown)
#   unsupported  the front end rejected a construct (exit 3, "unsupported")
#   bound        time-out or loop/step bound hit (exit 3 otherwise)
#   bad-input    exit 2 (not valid C for ncmc's parser)
#   WRONG        the opposite verdict: a bug to fix
#
#   benchmarks/genmc-suite.sh [tarball-or-dir]      NCMC=bin/ncmc by default
#   GROUPS_ONLY=1 ...   only the totals and the grouped unsupported reasons
#   FILTER=regex ...    only the programs whose path (e.g. correct/synthetic/big1/...) matches
set -u
SRC=${1:-../shared/anchors/genmc-0.10.3.tar.gz}
TIMEOUT=${TIMEOUT:-600s}
CPU=${CPU:-60}
MODELS=${MODELS:-rc11 sc}
UNROLL=${UNROLL:-64}
NCMC=${NCMC:-$(pwd)/bin/ncmc}
[ -x "$NCMC" ] || { echo "build ncmc first (make build) or set NCMC" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [ -d "$SRC" ]; then
  root=$SRC
else
  tar xzf "$SRC" -C "$work" || exit 2
  root=$(echo "$work"/genmc-*)
fi
agree=0; bounded=0; unsup=0; bound=0; bad=0; wrong=0; total=0
reasons=$work/reasons
: > "$reasons"
for v in $(find "$root"/tests -path '*/variants/*.c' | sort); do
  test=$(dirname "$(dirname "$v")")
  rel=${v#$root/tests/}
  [ -z "${FILTER:-}" ] || echo "$rel" | grep -Eq "$FILTER" || continue
  case $rel in wrong/*) want=violation ;; *) want=verified ;; esac
  for model in $MODELS; do
  if [ $model = sc ] && ! ls "$test"/args.sc.* >/dev/null 2>&1 && ! ls "$test"/expected.sc.* >/dev/null 2>&1; then continue; fi
  args=""
  for f in args.$model.mo.in args.$model.in args.sc.mo.in args.rc11.mo.in args.rc11.wb.in args.imm.mo.in args.imm.wb.in args.wrc11.in; do
    if [ -f "$test/$f" ]; then
      args=$(head -n 1 "$test/$f"); break
    fi
  done
  defs=""; unroll=$UNROLL; gunroll=""
  case $args in *"|"*) for w in ${args#*|}; do case $w in -D*) defs="$defs $w" ;; esac; done ;; esac
  for w in ${args%%|*}; do case $w in -unroll=*) gunroll=${w#-unroll=}; unroll=$gunroll ;; esac; done
  out=$(cd "$(dirname "$v")" && ulimit -t "$CPU" && /usr/bin/time -f 'CPU %U %S' -o "$work/cpu" "$NCMC" verify --model $model --timeout "$TIMEOUT" --unroll "$unroll" "$(basename "$v")" $defs 2>&1)
  rc=$?
  secs=$(awk '/^CPU/ {print $2 + $3}' "$work/cpu" 2>/dev/null)
  [ -n "$secs" ] || secs=$CPU
  total=$((total + 1))
  case $rc in
    0) got=verified ;;
    1) got=violation ;;
    2) got=bad-input ;;
    *) if echo "$out" | head -n 1 | grep -q 'unsupported'; then got=unsupported; else got=bound; fi ;;
  esac
  [ -n "$out" ] || out="(killed at the CPU bound of $CPU s)"
  if [ $got = $want ]; then
    agree=$((agree + 1)); class=agree
  elif [ $got = bound ] && [ $want = verified ] && [ -n "$gunroll" ] && echo "$out" | head -n 1 | grep -q 'loop unroll bound'; then
    bounded=$((bounded + 1)); class=bounded
  else
    case $got in
      unsupported) unsup=$((unsup + 1)); class=unsupported
        echo "$out" | tail -n +2 | grep -o 'unsupported: .*' | sed -e 's/ (and [0-9]* more)//' -e 's/[^ ]*\.c:[0-9]*:[0-9]*: //' | sort -u >> "$reasons" ;;
      bound) bound=$((bound + 1)); class=bound ;;
      bad-input) bad=$((bad + 1)); class=bad-input ;;
      *) wrong=$((wrong + 1)); class=WRONG ;;
    esac
  fi
  [ -n "${GROUPS_ONLY:-}" ] || printf '%-11s %-60s %-4s %6.2fs %s\n' $class "$rel" $model "$secs" "$(echo "$out" | head -n 1 | cut -c1-160)"
  done
done
echo "programs $total: agree $agree, bounded $bounded, unsupported $unsup, bound $bound, bad-input $bad, WRONG $wrong (models $MODELS, CPU bound $CPU s, timeout $TIMEOUT, unroll GenMC's or $UNROLL)"
echo "unsupported constructs (programs):"
sort "$reasons" | uniq -c | sort -rn | head -30
