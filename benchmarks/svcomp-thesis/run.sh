#!/bin/sh
# Runs the thesis's six SV-COMP programs (Table 4.3 of the NCMC thesis) in CIR with every
# explorer, and the original C tasks with the default explorer, and prints a Markdown table:
# verdict, executions and time per program and explorer. A verdict that differs from the
# SV-COMP expected one is marked WRONG; "unknown" means the time limit (TIMEOUT, default
# 60s) or a bound was hit first.
#
#   benchmarks/svcomp-thesis/run.sh [NCMC] > table.md        (NCMC defaults to bin/ncmc)
#
# Explorers: reference (every interleaving), auto (the default: the stateful reference
# explorer), mcr, ncmc with the program's spec (rule complete, the default; without and with
# --state-cache) and ncmc with
# --ncmc-rule thesis (the thesis's pruning rule, known to miss behaviours). sigma has no
# critical sections and no spec: the ncmc columns run without one (so they are auto).
set -u
NCMC=${1:-bin/ncmc}
TIMEOUT=${TIMEOUT:-60s}
DIR=$(dirname "$0")
C=${SVCOMP:-$DIR/../../../shared/bench/svcomp}
ERR=$(mktemp)
trap 'rm -f "$ERR"' EXIT

# prog LB expected(verified|violation)
PROGS="sigma:16:violation
workstealqueue_mutex-2:4:verified
fkp2013-1:50:violation
pthread-demo-datarace-1:20:verified
qw2004_variant:10:verified
ring_2w1r-1:8:verified"

cell() { # expected, then ncmc verify arguments; prints "verdict / executions / time"
	exp=$1
	shift
	out=$("$NCMC" verify --json --timeout "$TIMEOUT" "$@" 2>"$ERR")
	printf '%s' "$out" | python3 -c '
import json, sys
exp, err = sys.argv[1], open(sys.argv[2]).read().strip().splitlines()
try:
    d = json.loads(sys.stdin.read())
except ValueError:
    print("error: " + (err[-1] if err else "no output"))
    sys.exit()
v = d["verdict"]
mark = "" if v == "unknown" or v == exp else " **WRONG**"
t = d["time_ms"] / 1000
why = " (" + d.get("kind", "") + ")" if v == "unknown" else ""
print("%s%s%s / %d / %.2fs" % (v, why, mark, d["executions"], t))
' "$exp" "$ERR"
}

echo "| program | LB | expected | reference | auto | mcr | ncmc (spec) | ncmc (spec) --state-cache | ncmc --ncmc-rule thesis | C task, auto |"
echo "|---|---|---|---|---|---|---|---|---|---|"
echo "$PROGS" | while IFS=: read -r p lb exp; do
	f=$DIR/$p.cir
	spec=""
	[ -f "$DIR/$p.yaml" ] && spec="--spec $DIR/$p.yaml"
	ref=$(cell "$exp" --explorer reference --unroll "$lb" "$f")
	auto=$(cell "$exp" --explorer auto --unroll "$lb" "$f")
	mcr=$(cell "$exp" --explorer mcr --unroll "$lb" "$f")
	if [ -n "$spec" ]; then
		nc=$(cell "$exp" $spec --unroll "$lb" "$f")
		ncc=$(cell "$exp" $spec --state-cache --unroll "$lb" "$f")
		th=$(cell "$exp" $spec --ncmc-rule thesis --unroll "$lb" "$f")
	else
		nc="(no spec)"
		ncc="(no spec)"
		th="(no spec)"
	fi
	cres=$(cell "$exp" --unroll "$lb" --property "$C/properties/unreach-call.prp" "$C/thesis/$p.c")
	echo "| $p | $lb | $exp | $ref | $auto | $mcr | $nc | $ncc | $th | $cres |"
done
