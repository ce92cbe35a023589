#!/usr/bin/env bash
# Side-by-side runs of ncmc's mcr explorer (and optionally an older ncmc
# binary, GenMC and Nidhugg --rf) on GenMC 0.10.3's synthetic tests and on
# examples/*.cir, one run each, printing Markdown table rows.
#
#   benchmarks/mcr-decider/compare.sh [ncmc]        # default: ./ncmc-bin built by `go build`
#
# Environment: OLD=<ncmc binary> adds columns for it (e.g. a build of main
# before the native decider); TIMEOUT (default 60s); MODEL (default sc);
# ANCHORS (default $HOME/.cache/ncmc-anchors): GenMC and Nidhugg columns when
# $ANCHORS/bin/genmc and nidhuggc exist; TARBALL (default
# ../shared/anchors/genmc-0.10.3.tar.gz). The tests are read from the tarball
# into a temporary directory, not copied into the project. ncmc has no -D
# flag: each test becomes a wrapper C file (#define lines plus the variant
# with its #include "../<test>.c" inlined; <genmc.h> replaced by a
# declaration of __VERIFIER_assume).
set -euo pipefail
NCMC=${1:-}
if [ -z "$NCMC" ]; then
	NCMC=$(mktemp -d)/ncmc
	go build -o "$NCMC" ./cmd/ncmc
fi
TIMEOUT=${TIMEOUT:-60s}
MODEL=${MODEL:-sc}
ANCHORS=${ANCHORS:-$HOME/.cache/ncmc-anchors}
TARBALL=${TARBALL:-../shared/anchors/genmc-0.10.3.tar.gz}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$TARBALL" -C "$work"
syn=$(echo "$work"/genmc-*/tests/correct/synthetic)
export PATH=$ANCHORS/bin:/usr/lib/llvm-16/bin:$PATH

# name  test  defines  genmc-flags
cases="lastzero_N10 lastzero -DN=10 -
lastzero_N15 lastzero -DN=15 -
casw_N4 casw -DN=4 -disable-ipr,-disable-sr
casw_N5 casw -DN=5 -disable-ipr,-disable-sr
readers_N8 readers -DN=8 -
readers_N13 readers -DN=13 -
fib_bench_NUM3 fib_bench -DNUM=3 -
fib_bench_NUM4 fib_bench -DNUM=4 -
fib_bench_NUM5 fib_bench -DNUM=5 -
indexer_N12 indexer -DN=12 -
indexer_N15 indexer -DN=15 -
szymanski szymanski - -"

wrap() { # test defines -> wrapper file
	local t=$1 defs=$2 out=$work/$3.c
	: >"$out"
	if [ "$defs" != - ]; then
		local d=${defs#-D}
		echo "#define ${d%%=*} ${d#*=}" >>"$out"
	fi
	python3 - "$syn/$t/variants/${t}0.c" "$syn/$t/$t.c" "$t" >>"$out" <<'PY'
import re, sys
var, inc, t = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
var = var.replace('#include "../%s.c"' % t, inc)
var = var.replace('#include <genmc.h>', 'extern void __VERIFIER_assume(int);')
sys.stdout.write(var)
PY
	echo "$out"
}

# ncmc_run binary file [flag] -> "executions queries native z3 wall cpu verdict"
ncmc_run() {
	local bin=$1 f=$2 extra=${3:-}
	/usr/bin/time -f "%e %U %S" -o "$work/time" "$bin" verify --json --workers 1 --unroll 20 --model "$MODEL" --timeout "$TIMEOUT" $extra "$f" >"$work/out.json" 2>/dev/null || true
	python3 - "$work/time" "$work/out.json" <<'PY'
import json, sys
t = open(sys.argv[1]).read().split()
try:
    d = json.load(open(sys.argv[2]))
except Exception:
    print("error - - - %s %.2f -" % (t[-3], float(t[-2]) + float(t[-1]))); sys.exit()
s = d.get("stats", {})
v = d["verdict"] + ("(" + d.get("kind", "") + ")" if d["verdict"] == "unknown" else "")
print(d["executions"], d.get("smt_queries", 0), s.get("native", 0), s.get("z3_calls", 0), t[-3], "%.2f" % (float(t[-2]) + float(t[-1])), v)
PY
}

anchor() { # tool file defines flags -> "count wall"
	local tool=$1 f=$2 defs=$3 flags=$4 out
	[ -x "$ANCHORS/bin/$tool" ] || { echo "- -"; return; }
	[ "$defs" = - ] && defs=
	[ "$flags" = - ] && flags= || flags=${flags//,/ }
	local s e
	s=$(date +%s.%N)
	if [ "$tool" = genmc ]; then
		out=$(cd "$(dirname "$f")" && timeout "${TIMEOUT%s}" genmc -"$MODEL" --disable-estimation $flags -- $defs "$(basename "$f")" 2>&1 || true)
		e=$(date +%s.%N)
		local n
		n=$(echo "$out" | sed -n 's/.*complete executions explored: *\([0-9]*\).*/\1/p' | head -1)
		echo "${n:-timeout} $(python3 -c "print('%.2f' % ($e-$s))")"
	else
		out=$(cd "$(dirname "$f")" && timeout "${TIMEOUT%s}" nidhuggc $defs -- --"$MODEL" --rf "$(basename "$f")" 2>&1 || true)
		e=$(date +%s.%N)
		local n
		n=$(echo "$out" | sed -n 's/.*Trace count: *\([0-9]*\).*/\1/p' | head -1)
		echo "${n:-timeout} $(python3 -c "print('%.2f' % ($e-$s))")"
	fi
}

echo "| program | ncmc executions | queries | native | Z3 calls | wall s | CPU s | verdict | old: executions | old: queries | old: wall s | old: CPU s | GenMC | GenMC wall s | Nidhugg --rf | Nidhugg wall s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
while read -r name t defs gflags; do
	f=$(wrap "$t" "$defs" "$name")
	read -r ex q nat z3 wall cpu verdict < <(ncmc_run "$NCMC" "$f")
	old="- - - -"
	if [ -n "${OLD:-}" ]; then
		read -r oex oq _ _ owall ocpu _ < <(ncmc_run "$OLD" "$f")
		old="$oex $oq $owall $ocpu"
	fi
	read -r oex oq owall ocpu <<<"$old"
	variant=$syn/$t/variants/${t}0.c
	read -r gc gw < <(anchor genmc "$variant" "$defs" "$gflags")
	read -r nc nw < <(anchor nidhuggc "$variant" "$defs" -)
	echo "| $name | $ex | $q | $nat | $z3 | $wall | $cpu | $verdict | $oex | $oq | $owall | $ocpu | ${gc:--} | ${gw:--} | ${nc:--} | ${nw:--} |"
done <<<"$cases"
for f in examples/*.cir; do
	read -r ex q nat z3 wall cpu verdict < <(ncmc_run "$NCMC" "$f" --keep-going)
	old="- - - -"
	if [ -n "${OLD:-}" ]; then
		read -r oex oq _ _ owall ocpu _ < <(ncmc_run "$OLD" "$f" --keep-going)
		old="$oex $oq $owall $ocpu"
	fi
	read -r oex oq owall ocpu <<<"$old"
	echo "| $(basename "$f") (keep-going) | $ex | $q | $nat | $z3 | $wall | $cpu | $verdict | $oex | $oq | $owall | $ocpu | - | - | - | - |"
done
