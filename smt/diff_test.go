package smt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// randFormula returns a random formula over vars with nested
// And/Or/Not/Implies up to the given depth.
func randFormula(r *rand.Rand, b *Builder, vars []Var, depth int) Formula {
	if depth == 0 || r.IntN(4) == 0 {
		switch r.IntN(30) {
		case 0:
			return True()
		case 1:
			return False()
		}
		x, y := vars[r.IntN(len(vars))], vars[r.IntN(len(vars))]
		if x == y && r.IntN(8) != 0 {
			// Lt(a, a) (= False) still happens now and then, on purpose.
			y = vars[(slices.Index(vars, x)+1)%len(vars)]
		}
		return b.Lt(x, y)
	}
	n := 2 + r.IntN(2)
	sub := func() Formula { return randFormula(r, b, vars, depth-1) }
	switch r.IntN(8) {
	case 0, 1:
		fs := make([]Formula, n)
		for i := range fs {
			fs[i] = sub()
		}
		return b.And(fs...)
	case 2, 3, 4, 5:
		fs := make([]Formula, n)
		for i := range fs {
			fs[i] = sub()
		}
		return b.Or(fs...)
	case 6:
		return b.Not(sub())
	default:
		return b.Implies(sub(), sub())
	}
}

// randQuery returns a conjunction of a few random formulas over 3..6 vars;
// the mix gives a good share of both sat and unsat instances.
func randQuery(r *rand.Rand, b *Builder) Formula {
	// 3..6 distinct variables among 12 ids.
	vars := make([]Var, 12)
	for i := range vars {
		vars[i] = Var(i)
	}
	r.Shuffle(len(vars), func(i, j int) { vars[i], vars[j] = vars[j], vars[i] })
	vars = vars[:3+r.IntN(4)]
	if r.IntN(2) == 0 {
		// Nested random structure.
		fs := make([]Formula, 1+r.IntN(5))
		for i := range fs {
			fs[i] = randFormula(r, b, vars, 1+r.IntN(3))
		}
		return b.And(fs...)
	}
	// Random clauses of 2..3 atoms (CNF over order atoms), near the
	// sat/unsat threshold.
	fs := make([]Formula, 2+r.IntN(8*len(vars)))
	for i := range fs {
		fs[i] = randFormula(r, b, vars, 0)
		for j := 1 + r.IntN(2); j > 0; j-- {
			fs[i] = b.Or(fs[i], randFormula(r, b, vars, 0))
		}
	}
	return b.And(fs...)
}

// checkAgainstBrute decides f with s (in a fresh scope) and with BruteForce
// and reports any disagreement or invalid model.
func checkAgainstBrute(s *Solver, f Formula) (Result, error) {
	_, want, err := BruteForce(f)
	if err != nil {
		return Unknown, err
	}
	s.Push()
	defer s.Pop()
	s.Assert(f)
	got, err := s.Check(context.Background())
	if err != nil {
		return got, fmt.Errorf("Check(%v): %v", f, err)
	}
	if (got == Sat) != want || got == Unknown {
		return got, fmt.Errorf("Check(%v) = %v, brute force sat = %v", f, got, want)
	}
	if got == Sat {
		if !Eval(f, func(v Var) int64 {
			x, ok := s.Value(v)
			if !ok {
				panic(fmt.Sprintf("no value for %d", v))
			}
			return x
		}) {
			return got, fmt.Errorf("model %v violates %v", s.Model(), f)
		}
		if !EvalOrder(f, s.Order(Vars(f))) {
			return got, fmt.Errorf("tie-broken order %v violates %v", s.Order(Vars(f)), f)
		}
	}
	return got, nil
}

// TestDifferentialRandom compares Z3 (and the fast path) with the
// brute-force reference on 3000 random formulas (1000 with -short).
func TestDifferentialRandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(1, 2))
	b := NewBuilder()
	z := New(Options{Builder: b, DisableFastPath: true})
	defer z.Close()
	f := New(Options{Builder: b})
	defer f.Close()
	counts := map[Result]int{}
	conj, hardUnsat := 0, 0
	for i := 0; i < n; i++ {
		q := randQuery(r, b)
		if isConjunctive(q.node()) {
			conj++
		}
		res, err := checkAgainstBrute(z, q)
		if err != nil {
			t.Fatalf("formula %d (z3): %v", i, err)
		}
		counts[res]++
		if res == Unsat && !q.IsFalse() {
			hardUnsat++
		}
		if _, err := checkAgainstBrute(f, q); err != nil {
			t.Fatalf("formula %d (fast path enabled): %v", i, err)
		}
		// Negation: sat(¬q) must agree too.
		if _, err := checkAgainstBrute(z, b.Not(q)); err != nil {
			t.Fatalf("formula %d negated: %v", i, err)
		}
	}
	t.Logf("%d formulas: %d sat, %d unsat (%d not simplified to False), %d purely conjunctive; z3 stats %+v",
		n, counts[Sat], counts[Unsat], hardUnsat, conj, z.Stats())
	if counts[Sat] < n/5 || counts[Unsat] < n/5 || hardUnsat < n/10 {
		t.Fatalf("unbalanced generator: %v", counts)
	}
	if st := f.Stats(); st.FastChecks < n/10 {
		t.Fatalf("fast path hardly used: %+v", st)
	}
}

// TestDifferentialConjunctive compares the topological-sort fast path with
// Z3 on random purely conjunctive sets over up to 30 variables.
func TestDifferentialConjunctive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder()
	z := New(Options{Builder: b, DisableFastPath: true, ValidateModels: true})
	defer z.Close()
	f := New(Options{Builder: b, ValidateModels: true})
	defer f.Close()
	counts := map[Result]int{}
	for i := 0; i < 500; i++ {
		nv := 2 + r.IntN(29)
		na := r.IntN(2 * nv)
		var atoms []Formula
		for j := 0; j < na; j++ {
			atoms = append(atoms, b.Lt(Var(r.IntN(nv)), Var(r.IntN(nv))))
		}
		q := b.And(atoms...)
		z.Push()
		f.Push()
		z.Assert(q)
		f.Assert(q)
		rz, err1 := z.Check(context.Background())
		rf, err2 := f.Check(context.Background())
		if err1 != nil || err2 != nil || rz != rf {
			t.Fatalf("case %d: z3 %v %v, fast %v %v; %v", i, rz, err1, rf, err2, q)
		}
		counts[rz]++
		if rf == Sat {
			vs := Vars(q)
			order, sat, err := ConjunctiveOrder(q)
			if err != nil || !sat {
				t.Fatalf("ConjunctiveOrder: %v %v", sat, err)
			}
			if got := f.Order(vs); fmt.Sprint(got) != fmt.Sprint(order) {
				t.Fatalf("fast-path Order %v != ConjunctiveOrder %v", got, order)
			}
			if !EvalOrder(q, z.Order(vs)) || !EvalOrder(q, order) {
				t.Fatalf("order violates %v", q)
			}
		}
		z.Pop()
		f.Pop()
	}
	t.Logf("conjunctive: %v", counts)
	if counts[Sat] < 50 || counts[Unsat] < 50 {
		t.Fatalf("unbalanced: %v", counts)
	}
	if st := f.Stats(); st.Z3Checks != 0 {
		t.Fatalf("fast solver called Z3: %+v", st)
	}
}

// TestRandomIncremental drives one Solver through random sequences of
// Push, Pop, Assert and Check and compares every answer with the brute-force
// decision of the conjunction of the active assertions.
func TestRandomIncremental(t *testing.T) {
	for _, fast := range []bool{false, true} {
		r := rand.New(rand.NewPCG(5, 6))
		s := New(Options{DisableFastPath: !fast, ValidateModels: true})
		vars := []Var{0, 1, 2, 3, 4, 5}
		var stack [][]Formula = [][]Formula{nil}
		checks := 0
		for step := 0; step < 3000; step++ {
			switch op := r.IntN(10); {
			case op < 2 || len(stack) == 1:
				s.Push()
				stack = append(stack, nil)
			case op < 4 && len(stack) > 1:
				s.Pop()
				stack = stack[:len(stack)-1]
			case op < 7:
				var f Formula
				if r.IntN(2) == 0 {
					f = s.Lt(vars[r.IntN(6)], vars[r.IntN(6)])
				} else {
					f = randFormula(r, s.Builder, vars, 1+r.IntN(2))
				}
				s.Assert(f)
				stack[len(stack)-1] = append(stack[len(stack)-1], f)
			default:
				var all []Formula
				for _, fr := range stack {
					all = append(all, fr...)
				}
				q := s.And(all...)
				_, want, err := BruteForce(q)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Check(context.Background())
				if err != nil || (got == Sat) != want {
					t.Fatalf("fast=%v step %d: Check = %v %v, want sat=%v for %v", fast, step, got, err, want, q)
				}
				if got == Sat && !EvalOrder(q, s.Order(s.ActiveVars())) {
					t.Fatalf("order violates %v", q)
				}
				checks++
				// Keep instances from becoming permanently unsat.
				if !want && len(stack) > 1 && r.IntN(4) != 0 {
					s.Pop()
					stack = stack[:len(stack)-1]
				}
			}
			if s.Depth() != len(stack)-1 {
				t.Fatalf("Depth %d != %d", s.Depth(), len(stack)-1)
			}
		}
		t.Logf("fast=%v: %d checks, stats %+v", fast, checks, s.Stats())
		s.Close()
	}
}

// TestConcurrentSolvers runs two Solvers in two goroutines; they must not
// interfere with each other.
func TestConcurrentSolvers(t *testing.T) {
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(10+g), 7))
			s := New(Options{DisableFastPath: true, ValidateModels: true})
			defer s.Close()
			for i := 0; i < 400; i++ {
				if _, err := checkAgainstBrute(s, randQuery(r, s.Builder)); err != nil {
					errs[g] = fmt.Errorf("goroutine %d formula %d: %v", g, i, err)
					return
				}
				if i%100 == 99 {
					s.Reset()
				}
			}
		}(g)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
