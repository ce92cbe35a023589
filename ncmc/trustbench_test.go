package ncmc

import (
	"context"
	"os"
	"testing"

	"ncmc/frontend"
)

// BenchmarkTrustFile explores the C or CIR file $TRUST_BENCH_FILE under
// $TRUST_BENCH_MODEL (default rc11) with the trust explorer (for pprof:
// go test ./ncmc -run XXX -bench TrustFile -cpuprofile cpu.out).
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
	for i := 0; i < b.N; i++ {
		res, err := Verify(context.Background(), p, Options{Model: model, Explorer: "trust", Unroll: 20, KeepGoing: true})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Stats.Executions), "execs")
	}
}
