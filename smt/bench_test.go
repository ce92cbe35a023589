package smt

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time (user+system) used by the process so far.
// The benchmarks report it per op ("cpu-ms/op") next to wall time, because
// the shared build machine is often heavily loaded and wall time is noisy.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU starts measuring CPU time; call the result at the end of the
// benchmark.
func reportCPU(b *testing.B) func() {
	b.Helper()
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/float64(b.N)/1000, "cpu-ms/op")
	}
}

// orderInstance is a satisfiable set of ordering constraints over n
// variables with a hidden total order: m constraints, a fraction disj of
// which are disjunctions (a<b) ∨ (c<d) with at least one true disjunct,
// the rest atoms a<b consistent with the hidden order (the first n-1 form a
// chain through the hidden order, like program order).
type orderInstance struct {
	n     int
	atoms [][2]Var
	disj  [][4]Var
}

func newOrderInstance(seed uint64, n, m int, disj float64) *orderInstance {
	r := rand.New(rand.NewPCG(seed, 99))
	pos := r.Perm(n) // pos[v] = hidden position of v
	byPos := make([]Var, n)
	for v, p := range pos {
		byPos[p] = Var(v)
	}
	in := &orderInstance{n: n}
	lt := func() (Var, Var) {
		for {
			a, b := Var(r.IntN(n)), Var(r.IntN(n))
			if a == b {
				continue
			}
			if pos[a] > pos[b] {
				a, b = b, a
			}
			return a, b
		}
	}
	for i := 0; i < m; i++ {
		switch {
		case i < n-1 && i < m/2:
			in.atoms = append(in.atoms, [2]Var{byPos[i], byPos[i+1]})
		case r.Float64() < disj:
			a, b := lt()
			c, d := Var(r.IntN(n)), Var(r.IntN(n)) // arbitrary, maybe false
			if r.IntN(2) == 0 {
				a, b, c, d = c, d, a, b
			}
			in.disj = append(in.disj, [4]Var{a, b, c, d})
		default:
			a, b := lt()
			in.atoms = append(in.atoms, [2]Var{a, b})
		}
	}
	return in
}

func (in *orderInstance) formulas(b *Builder) []Formula {
	var fs []Formula
	for _, a := range in.atoms {
		fs = append(fs, b.Lt(a[0], a[1]))
	}
	for _, d := range in.disj {
		fs = append(fs, b.Or(b.Lt(d[0], d[1]), b.Lt(d[2], d[3])))
	}
	return fs
}

func benchSolve(b *testing.B, in *orderInstance, opts Options) {
	b.Helper()
	ctx := context.Background()
	var z3t time.Duration
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		s := New(opts)
		for _, f := range in.formulas(s.Builder) {
			s.Assert(f)
		}
		res, err := s.Check(ctx)
		if res != Sat || err != nil {
			b.Fatalf("Check = %v, %v", res, err)
		}
		if len(s.Order(s.ActiveVars())) != len(s.ActiveVars()) {
			b.Fatal("Order")
		}
		z3t += s.Stats().Z3Time
		s.Close()
	}
	b.ReportMetric(float64(z3t.Microseconds())/float64(b.N)/1000, "z3-ms/op")
}

// BenchmarkChain2000Disj: 2,000 orderings over 1,000 variables, half of
// them a program-order-like chain, 30% of the rest disjunctions. Includes
// building the formulas, creating the Solver, checking and extracting the
// schedule.
func BenchmarkChain2000Disj(b *testing.B) {
	benchSolve(b, newOrderInstance(1, 1000, 2000, 0.3), Options{})
}

// BenchmarkDense2000Disj50: the research note's workload n=500, m=2000,
// 50% disjunctions.
func BenchmarkDense2000Disj50(b *testing.B) {
	benchSolve(b, newOrderInstance(2, 500, 2000, 0.5), Options{})
}

// BenchmarkConjunctive2000: 2,000 atoms, no disjunctions: fast path versus
// Z3.
func BenchmarkConjunctive2000(b *testing.B) {
	in := newOrderInstance(3, 500, 2000, 0)
	b.Run("fastpath", func(b *testing.B) { benchSolve(b, in, Options{}) })
	b.Run("z3", func(b *testing.B) { benchSolve(b, in, Options{DisableFastPath: true}) })
}

// BenchmarkPushPopRecheck: a base of 1,500 constraints (30% disjunctive)
// is asserted and checked once; each op is Push, 10 new constraints, Check,
// Pop — the MCR per-query pattern. The "order" variant also turns the model
// into a schedule of all 500 variables (which fetches the Z3 model).
func BenchmarkPushPopRecheck(b *testing.B) {
	b.Run("check", func(b *testing.B) { benchPushPop(b, false) })
	b.Run("order", func(b *testing.B) { benchPushPop(b, true) })
}

func benchPushPop(b *testing.B, order bool) {
	in := newOrderInstance(4, 500, 2000, 0.3)
	s := New(Options{})
	defer s.Close()
	fs := in.formulas(s.Builder)
	r := rand.New(rand.NewPCG(5, 5))
	r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
	base, extra := fs[:1500], fs[1500:]
	for _, f := range base {
		s.Assert(f)
	}
	ctx := context.Background()
	if res, err := s.Check(ctx); res != Sat || err != nil {
		b.Fatalf("base: %v %v", res, err)
	}
	vars := s.ActiveVars()
	st0 := s.Stats()
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		s.Push()
		for j := 0; j < 10; j++ {
			s.Assert(extra[(i*10+j)%len(extra)])
		}
		if res, err := s.Check(ctx); res != Sat || err != nil {
			b.Fatalf("Check = %v, %v", res, err)
		}
		if order && len(s.Order(vars)) != len(vars) {
			b.Fatal("Order")
		}
		s.Pop()
	}
	st := s.Stats()
	b.ReportMetric(float64((st.Z3Time-st0.Z3Time).Microseconds())/float64(b.N)/1000, "z3-ms/op")
}

// BenchmarkFreshRecheck is the non-incremental baseline for
// BenchmarkPushPopRecheck: a fresh Solver per query with the base and the
// 10 new constraints.
func BenchmarkFreshRecheck(b *testing.B) {
	in := newOrderInstance(4, 500, 2000, 0.3)
	ctx := context.Background()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		s := New(Options{})
		fs := in.formulas(s.Builder)
		r := rand.New(rand.NewPCG(5, 5))
		r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
		for _, f := range fs[:1500] {
			s.Assert(f)
		}
		for j := 0; j < 10; j++ {
			s.Assert(fs[1500+(i*10+j)%500])
		}
		if res, err := s.Check(ctx); res != Sat || err != nil {
			b.Fatalf("Check = %v, %v", res, err)
		}
		s.Close()
	}
}

// mcrInstance builds an MCR-shaped constraint system from a random
// sequentially consistent execution: program order chains, lock mutual
// exclusion, and for each read a read-from disjunction with Φ_rw-style
// interference constraints ("another write is before w or after r").
func mcrInstance(b *Builder, seed uint64, threads, events, locs int) []Formula {
	r := rand.New(rand.NewPCG(seed, 7))
	type ev struct {
		v     Var
		write bool
		loc   int
	}
	var fs []Formula
	var trace []ev // in execution order
	last := make([]Var, threads)
	count := make([]int, threads)
	for i := range last {
		last[i] = -1
	}
	total := threads * events
	for len(trace) < total {
		t := r.IntN(threads)
		if count[t] == events {
			continue
		}
		count[t]++
		e := ev{v: b.NewVar(""), write: r.IntN(3) == 0, loc: r.IntN(locs)}
		if last[t] >= 0 {
			fs = append(fs, b.Lt(last[t], e.v))
		}
		last[t] = e.v
		trace = append(trace, e)
	}
	// Reads: the read-from choice among all writes to the location that
	// precede it in the trace (a stand-in for "writes of the same value").
	for i, e := range trace {
		if e.write {
			continue
		}
		var writes []Var
		for _, w := range trace {
			if w.write && w.loc == e.loc {
				writes = append(writes, w.v)
			}
		}
		var choices []Formula
		for j := i - 1; j >= 0 && len(choices) < 3; j-- {
			w := trace[j]
			if !w.write || w.loc != e.loc {
				continue
			}
			parts := []Formula{b.Lt(w.v, e.v)}
			for _, w2 := range writes {
				if w2 != w.v {
					parts = append(parts, b.Or(b.Lt(w2, w.v), b.Lt(e.v, w2)))
				}
			}
			choices = append(choices, b.And(parts...))
		}
		if len(choices) == 0 {
			// Initial value: before all writes.
			var parts []Formula
			for _, w2 := range writes {
				parts = append(parts, b.Lt(e.v, w2))
			}
			choices = append(choices, b.And(parts...))
		}
		fs = append(fs, b.Or(choices...))
	}
	return fs
}

// BenchmarkMCRShaped: 4 threads × 60 events over 6 locations (≈ 160 reads
// with read-from disjunctions).
func BenchmarkMCRShaped(b *testing.B) {
	ctx := context.Background()
	var z3t time.Duration
	nodes := 0
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		s := New(Options{})
		for _, f := range mcrInstance(s.Builder, 1, 4, 60, 6) {
			s.Assert(f)
		}
		res, err := s.Check(ctx)
		if res != Sat || err != nil {
			b.Fatalf("Check = %v, %v", res, err)
		}
		z3t += s.Stats().Z3Time
		nodes = s.Stats().Z3Nodes
		s.Close()
	}
	b.ReportMetric(float64(z3t.Microseconds())/float64(b.N)/1000, "z3-ms/op")
	b.ReportMetric(float64(nodes), "z3-nodes")
}

// BenchmarkBuild measures formula construction alone: 2,000 atoms and 600
// disjunctions, hash-consed.
func BenchmarkBuild(b *testing.B) {
	in := newOrderInstance(1, 1000, 2000, 0.3)
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		bld := NewBuilder()
		in.formulas(bld)
	}
}

// BenchmarkBruteForce6 measures the reference decider on random 6-variable
// formulas.
func BenchmarkBruteForce6(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	bld := NewBuilder()
	vars := []Var{0, 1, 2, 3, 4, 5}
	fs := make([]Formula, 100)
	for i := range fs {
		fs[i] = randFormula(r, bld, vars, 4)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := BruteForce(fs[i%len(fs)]); err != nil {
			b.Fatal(err)
		}
	}
}
