package trustx_test

import (
	"context"
	"os"
	"testing"

	"ncmc/explore/trustx"
	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/memmodel"
	"ncmc/ncmc"
)

// BenchmarkTrustFile explores the C or CIR file $TRUST_BENCH_FILE under
// $TRUST_BENCH_MODEL (default rc11) with the trust explorer (for pprof:
// go test ./explore/trustx -run XXX -bench TrustFile -cpuprofile cpu.out).
func BenchmarkTrustFile(b *testing.B) {
	f := os.Getenv("TRUST_BENCH_FILE")
	if f == "" {
		b.Skip("TRUST_BENCH_FILE not set")
	}
	model := os.Getenv("TRUST_BENCH_MODEL")
	if model == "" {
		model = "rc11"
	}
	p, err := frontend.LoadFile(f)
	if err != nil {
		b.Fatal(err)
	}
	names := interp.NewNames(p)
	m, err := memmodel.Lookup(model)
	if err != nil {
		b.Fatal(err)
	}
	cfg := interp.Config{Unroll: 20, MaxSteps: ncmc.DefaultMaxSteps, Model: m}
	for i := 0; i < b.N; i++ {
		execs := 0
		_, st, err := trustx.RunTrust(context.Background(), p, names, cfg, model, func(*interp.Execution) bool { execs++; return true }, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(execs), "execs")
		b.ReportMetric(float64(st.MaxPending), "max-pending")
	}
}
