// Package mcrbench holds the go test benchmarks of the mcr explorer: the
// thesis examples and the N-COUNTER-INC family, with time per execution.
//
//	go test ./benchmarks/mcrbench -run '^$' -bench . -benchtime 3x
package mcrbench

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

func load(b *testing.B, path string) *ir.Program {
	b.Helper()
	prog, err := frontend.LoadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return prog
}

// cpuTime is the CPU time (user and system) this process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// run reports, besides Go's ns/op (wall time): executions, wall and CPU
// time per execution (cpu-ns/exec: on a machine shared with other jobs the
// wall time says more about the load than about mcr) and Z3 time.
func run(b *testing.B, prog *ir.Program, opts ncmc.Options) {
	b.Helper()
	var last *ncmc.Result
	cpu0 := cpuTime(b)
	for i := 0; i < b.N; i++ {
		res, err := ncmc.Verify(context.Background(), prog, opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Verdict == ncmc.Unknown && !(opts.MaxExecutions > 0 && res.Kind == "executions") {
			b.Fatalf("unknown: %s", res.Reason)
		}
		last = res
	}
	b.ReportMetric(float64(last.Stats.Executions), "execs")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(last.Stats.Executions), "ns/exec")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N)/float64(last.Stats.Executions), "cpu-ns/exec")
	b.ReportMetric(last.Stats.SMTMS, "smt-ms")
}

// BenchmarkExamples runs mcr (one worker) on the thesis examples.
func BenchmarkExamples(b *testing.B) {
	for _, name := range []string{"sb", "mp", "peterson", "dekker", "counter-2inc-cf", "counter-shb2", "set-2add-cont", "hashtable", "union-find", "n-counter-inc-3"} {
		prog := load(b, filepath.Join("..", "..", "examples", name+".cir"))
		b.Run(name, func(b *testing.B) { run(b, prog, ncmc.Options{Explorer: "mcr", KeepGoing: true, Workers: 1}) })
	}
}

// BenchmarkNCounter runs mcr on N-COUNTER-INC for N = 2..8 (N! executions);
// -bench 'NCounter/N=[2-7]$' leaves out N = 8 (40,320 executions).
func BenchmarkNCounter(b *testing.B) {
	for n := 2; n <= 8; n++ {
		prog := load(b, fmt.Sprintf("../ncounter/n-counter-inc-%d.cir", n))
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { run(b, prog, ncmc.Options{Explorer: "mcr", Workers: 1}) })
	}
}

// BenchmarkNCounter8Sample is N-COUNTER-INC for N = 8 cut at 2,000 of its
// 40,320 executions (the whole run takes about half an hour of CPU): time
// per execution early in the exploration, where seeds have short frozen
// prefixes and many pivots (later ones have fewer).
func BenchmarkNCounter8Sample(b *testing.B) {
	prog := load(b, "../ncounter/n-counter-inc-8.cir")
	run(b, prog, ncmc.Options{Explorer: "mcr", Workers: 1, MaxExecutions: 2000})
}

// BenchmarkWorkers measures the parallel speed-up of mcr (1 and 2 workers)
// on programs with many executions.
func BenchmarkWorkers(b *testing.B) {
	for _, name := range []string{"../../examples/dekker.cir", "../../examples/peterson-buggy.cir", "../ncounter/n-counter-inc-6.cir"} {
		prog := load(b, name)
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", filepath.Base(name), w), func(b *testing.B) {
				run(b, prog, ncmc.Options{Explorer: "mcr", KeepGoing: true, Workers: w})
			})
		}
	}
}
