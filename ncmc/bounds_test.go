package ncmc_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

// straightLine is a program whose main runs n assignments x = y + c over
// three globals (seeded); with two, a second thread runs as many.
func straightLine(t *testing.T, n int, two bool, seed uint64) *ir.Program {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("global x: int; global y: int; global z: int;\n")
	body := func(n, off int) {
		for i := range n {
			fmt.Fprintf(&b, "    %c = %c + %d;\n", "xyz"[rng.IntN(3)], "xyz"[rng.IntN(3)], (i+off)%5)
		}
	}
	if two {
		b.WriteString("fn t() {\n")
		body(n/2, 1)
		b.WriteString("}\nfn main() {\n    let p = spawn t();\n")
		body(n/2, 2)
		b.WriteString("    join(p);\n}\n")
	} else {
		b.WriteString("fn main() {\n")
		body(n, 0)
		b.WriteString("}\n")
	}
	p, err := frontend.ParseCIR("straight.cir", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A single thread has no alternative read values: mcr must not ask a query
// per (read, value written anywhere) (a 40-iteration loop took 1,679 Z3
// queries and 16 s for its one execution), and a long execution costs time
// linear in its steps (10,000 statements: under 1 s on an idle machine;
// the bound here leaves room for a loaded one).
func TestMCRSingleThreadLinear(t *testing.T) {
	loop, err := frontend.ParseCIR("loop.cir", []byte(`
global x: int; global y: int;
fn main() { for i in 0..40 { x = x + 1; y = y + x; } }
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		p     *ir.Program
		limit time.Duration
	}{
		{"loop 40", loop, 2 * time.Second},
		{"200 statements", straightLine(t, 200, false, 1), 2 * time.Second},
		{"10000 statements", straightLine(t, 10000, false, 2), 5 * time.Second},
	}
	for _, tc := range tests {
		for _, model := range []string{"sc", "tso"} {
			t0 := time.Now()
			res, err := ncmc.Verify(context.Background(), tc.p, ncmc.Options{Explorer: "mcr", Model: model, Workers: 1, MaxSteps: 100000})
			el := time.Since(t0)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, model, err)
			}
			if res.Verdict != ncmc.Verified || res.Stats.Executions != 1 {
				t.Errorf("%s %s: %s, %d executions; want verified, 1", tc.name, model, res.Verdict, res.Stats.Executions)
			}
			if model == "sc" && res.Stats.SMTQueries != 0 {
				t.Errorf("%s: %d queries for a single thread, want 0", tc.name, res.Stats.SMTQueries)
			}
			if model == "sc" && el > tc.limit {
				t.Errorf("%s: %v, want under %v", tc.name, el, tc.limit)
			}
			t.Logf("%s %s: %d queries, %v", tc.name, model, res.Stats.SMTQueries, el)
		}
	}
}

// --timeout interrupts a Z3 call that ignores its interrupt flag (two
// threads of 100 straight-line statements under tso, where the first
// query's Z3 call ran 10 s under --timeout 2s): the exploration returns
// within about a second of the bound.
func TestMCRTimeoutInterruptsZ3(t *testing.T) {
	p := straightLine(t, 200, true, 1)
	const bound = 2 * time.Second
	t0 := time.Now()
	res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "mcr", Model: "tso", Decider: "z3", Workers: 1, Timeout: bound})
	el := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict == ncmc.Unknown && el > bound+1500*time.Millisecond {
		t.Errorf("returned after %v with a %v bound", el, bound)
	}
	t.Logf("%s (%s) after %v", res.Verdict, res.Reason, el)
}
