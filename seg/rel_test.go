package seg

import (
	"math/rand"
	"testing"
)

// naive relations as boolean matrices, to check the bit-matrix algebra.
type naive [][]bool

func toNaive(r Rel) naive {
	m := make(naive, r.Len())
	for i := range m {
		m[i] = make([]bool, r.Len())
		for j := range m[i] {
			m[i][j] = r.Has(i, j)
		}
	}
	return m
}

func randRel(rng *rand.Rand, n int, p float64) Rel {
	r := NewRel(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if rng.Float64() < p {
				r.Add(i, j)
			}
		}
	}
	return r
}

func randSet(rng *rand.Rand, n int) Set {
	s := NewSet(n)
	for i := 0; i < n; i++ {
		if rng.Intn(2) == 0 {
			s.Add(i)
		}
	}
	return s
}

func naiveClosure(a naive) naive {
	n := len(a)
	c := make(naive, n)
	for i := range c {
		c[i] = append([]bool{}, a[i]...)
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				c[i][j] = c[i][j] || c[i][k] && c[k][j]
			}
		}
	}
	return c
}

func eqNaive(t *testing.T, what string, got Rel, want func(i, j int) bool) {
	t.Helper()
	for i := 0; i < got.Len(); i++ {
		for j := 0; j < got.Len(); j++ {
			if got.Has(i, j) != want(i, j) {
				t.Fatalf("%s: pair (%d,%d): got %v", what, i, j, got.Has(i, j))
			}
		}
	}
}

func TestRelAlgebra(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{1, 2, 5, 63, 64, 65, 130} {
		for _, p := range []float64{0.02, 0.1, 0.5} {
			a, b := randRel(rng, n, p), randRel(rng, n, p)
			s, u := randSet(rng, n), randSet(rng, n)
			na, nb := toNaive(a), toNaive(b)
			eqNaive(t, "union", a.Union(b), func(i, j int) bool { return na[i][j] || nb[i][j] })
			eqNaive(t, "inter", a.Inter(b), func(i, j int) bool { return na[i][j] && nb[i][j] })
			eqNaive(t, "diff", a.Diff(b), func(i, j int) bool { return na[i][j] && !nb[i][j] })
			eqNaive(t, "complement", a.Complement(), func(i, j int) bool { return !na[i][j] })
			eqNaive(t, "inv", a.Inv(), func(i, j int) bool { return na[j][i] })
			eqNaive(t, "seq", a.Seq(b), func(i, j int) bool {
				for k := 0; k < n; k++ {
					if na[i][k] && nb[k][j] {
						return true
					}
				}
				return false
			})
			cl := naiveClosure(na)
			eqNaive(t, "plus", a.Plus(), func(i, j int) bool { return cl[i][j] })
			eqNaive(t, "star", a.Star(), func(i, j int) bool { return cl[i][j] || i == j })
			eqNaive(t, "opt", a.Opt(), func(i, j int) bool { return na[i][j] || i == j })
			eqNaive(t, "restrict", a.Restrict(s, u), func(i, j int) bool { return na[i][j] && s.Has(i) && u.Has(j) })
			eqNaive(t, "identity", Identity(s), func(i, j int) bool { return i == j && s.Has(i) })
			eqNaive(t, "cross", Cross(s, u), func(i, j int) bool { return s.Has(i) && u.Has(j) })
			if !s.Complement().Complement().Equal(s) || s.Complement().Count() != n-s.Count() {
				t.Fatal("set complement")
			}
			dom, ran := a.Domain(), a.Range()
			for i := 0; i < n; i++ {
				hasOut, hasIn := false, false
				for j := 0; j < n; j++ {
					hasOut = hasOut || na[i][j]
					hasIn = hasIn || na[j][i]
				}
				if dom.Has(i) != hasOut || ran.Has(i) != hasIn {
					t.Fatalf("domain/range of %d", i)
				}
			}

			// acyclicity agrees with the closure's diagonal, and cycles are real
			cyclic := false
			for i := 0; i < n; i++ {
				cyclic = cyclic || cl[i][i]
			}
			if a.Acyclic() == cyclic {
				t.Fatalf("n=%d p=%v: Acyclic()=%v, closure says cyclic=%v", n, p, a.Acyclic(), cyclic)
			}
			cyc := a.Cycle()
			if (cyc != nil) != cyclic {
				t.Fatalf("Cycle() = %v, cyclic = %v", cyc, cyclic)
			}
			for k := range cyc {
				if !a.Has(cyc[k], cyc[(k+1)%len(cyc)]) {
					t.Fatalf("cycle %v: no edge %d->%d", cyc, cyc[k], cyc[(k+1)%len(cyc)])
				}
				if cyc[k] < cyc[0] {
					t.Fatalf("cycle %v not rotated to its smallest node", cyc)
				}
			}
			// paths exist exactly when the closure says so, and are real
			for trial := 0; trial < 5; trial++ {
				from, to := rng.Intn(n), rng.Intn(n)
				path := a.Path(from, to)
				reach := cl[from][to]
				if (path != nil) != reach {
					t.Fatalf("Path(%d,%d) = %v, reachable %v", from, to, path, reach)
				}
				for k := 0; k+1 < len(path); k++ {
					if !a.Has(path[k], path[k+1]) {
						t.Fatalf("path %v: no edge", path)
					}
				}
				if path != nil && (path[0] != from || path[len(path)-1] != to) {
					t.Fatalf("path %v does not go from %d to %d", path, from, to)
				}
			}
		}
	}
}

func TestReduceTransitive(t *testing.T) {
	// the Hasse diagram of a total order 0<1<2<3 is the chain
	r := NewRel(4)
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			r.Add(i, j)
		}
	}
	red := r.ReduceTransitive()
	if red.Count() != 3 || !red.Has(0, 1) || !red.Has(1, 2) || !red.Has(2, 3) {
		t.Errorf("reduction = %v", red)
	}
	if red.String() != "{(0,1) (1,2) (2,3)}" {
		t.Errorf("String = %s", red.String())
	}
}
