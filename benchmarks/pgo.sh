#!/bin/bash
# Regenerates cmd/ncmc/default.pgo, the CPU profile that Go's
# profile-guided optimisation uses for every build of ncmc (go build,
# go install, make build, make compare: the go command picks up
# default.pgo in the main package's directory).
#
# The profile is the merge of ncmc's own CPU profiles (verify --cpuprofile)
# on the workloads of `make compare`: GenMC's synthetic benchmarks under
# sc and tso (the vmcr explorer) and rc11 and ra (the trust explorer), plus
# the C front end and an SV-COMP task. Each is built without PGO so that
# the profile describes the plain code. Takes about 2 minutes on 2 idle cores.
#
#   benchmarks/pgo.sh            writes cmd/ncmc/default.pgo
#   OUT=file benchmarks/pgo.sh   writes file instead
set -eu
OUT=${OUT:-cmd/ncmc/default.pgo}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
go build -pgo=off -o "$work/ncmc" ./cmd/ncmc
tar xzf ../shared/anchors/genmc-0.10.3.tar.gz -C "$work" --wildcards '*/tests/correct/synthetic/*'
syn=$(echo "$work"/genmc-*/tests/correct/synthetic)
k=0
run() { # model file defines...
  local model=$1 file=$2; shift 2
  k=$((k + 1))
  "$work/ncmc" verify "$file" "$@" --model "$model" --unroll 1000 --cpuprofile "$work/p$k.prof" >/dev/null 2>&1 || true
}
for m in sc tso; do
  run $m "$syn/fib_bench/variants/fib_bench0.c" -DNUM=5
  run $m "$syn/lastzero/variants/lastzero0.c" -DN=15
  run $m "$syn/indexer/variants/indexer0.c" -DN=15
  run $m "$syn/casw/variants/casw0.c" -DN=5
  run $m "$syn/readers/variants/readers0.c" -DN=13
  run $m "$syn/szymanski/variants/szymanski0.c"
done
for m in rc11 ra; do
  run $m "$syn/fib_bench/variants/fib_bench0.c" -DNUM=5
  run $m "$syn/lastzero/variants/lastzero0.c" -DN=15
  run $m "$syn/casw/variants/casw0.c" -DN=5
  run $m "$syn/indexer/variants/indexer0.c" -DN=15
done
run sc examples/peterson.cir
ls "$work"/p*.prof >/dev/null
go tool pprof -proto "$work"/p*.prof > "$OUT.tmp" 2>/dev/null
mv "$OUT.tmp" "$OUT"
echo "wrote $OUT ($(wc -c < "$OUT") bytes, $k profiles)"
