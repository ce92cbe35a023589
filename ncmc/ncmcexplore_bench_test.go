package ncmc

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkNCMCMixed runs the ncmc explorer on small mixed data-structure
// workloads of benchmarks/ds (go test -bench NCMCMixed -cpuprofile ...).
func BenchmarkNCMCMixed(b *testing.B) {
	cases := []struct{ name, prog, spec string }{
		{"hashtable-4", "hashtable-mixed-4.cir", "hashtable.yaml"},
		{"union-find-4", "union-find-mixed-4.cir", "union-find.yaml"},
		{"union-find-coarse-4", "union-find-mixed-4.cir", "union-find-coarse.yaml"},
		{"set-4", "set-mixed-4.cir", "set.yaml"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			t := &testing.T{}
			prog, specs := loadSpecProgram(t, filepath.Join("..", "benchmarks", "ds", c.prog), filepath.Join("..", "examples", c.spec))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := Verify(context.Background(), prog, Options{Specs: specs, Semantic: true, KeepGoing: true})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Stats.Executions), "execs")
				b.ReportMetric(float64(res.Stats.Pruned), "pruned")
			}
		})
	}
}

// BenchmarkNCMCHashtable5 is hashtable-mixed-5 with the fine spec.
func BenchmarkNCMCHashtable5(b *testing.B) {
	prog, specs := loadSpecProgram(&testing.T{}, filepath.Join("..", "benchmarks", "ds", "hashtable-mixed-5.cir"), filepath.Join("..", "examples", "hashtable.yaml"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Verify(context.Background(), prog, Options{Specs: specs, Semantic: true, KeepGoing: true}); err != nil {
			b.Fatal(err)
		}
	}
}
