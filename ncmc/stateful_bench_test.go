package ncmc

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	cfront "ncmc/frontend/c"
)

// BenchmarkStatefulSVCOMP measures the stateful reference explorer (state
// cache, thread symmetry, no loop bound) as the sweep's stages run it, on
// SV-COMP tasks of the bench beside the checkout that it verifies.
func BenchmarkStatefulSVCOMP(b *testing.B) {
	tasks := []struct {
		file      string
		unbounded bool
	}{
		{"thesis/qw2004_variant.c", false},
		{"more/read_write_lock-1.c", false},
		{"more/dekker.c", true},
		{"thesis/ring_2w1r-1.c", true},
	}
	for _, tk := range tasks {
		path := filepath.Join("..", "..", "shared", "bench", "svcomp", tk.file)
		src, err := os.ReadFile(path)
		if err != nil {
			b.Skipf("bench not found: %v", err)
		}
		b.Run(filepath.Base(tk.file), func(b *testing.B) {
			p, err := cfront.Compile(path, src, cfront.Options{})
			if err != nil {
				b.Fatal(err)
			}
			opts := Options{Explorer: "reference", StateCache: true, Symmetry: true, Unroll: 8, MaxSteps: 100000, UnboundedLoops: tk.unbounded}
			for b.Loop() {
				res, err := Verify(context.Background(), p, opts)
				if err != nil {
					b.Fatal(err)
				}
				if res.Verdict != Verified {
					b.Fatalf("%s: %s (%s), want verified", tk.file, res.Verdict, res.Reason)
				}
				b.ReportMetric(float64(res.Stats.Executions+res.Stats.Pruned), "runs")
			}
		})
	}
}
