package ncmc

import (
	"context"
	"strings"
	"testing"
	"time"

	"ncmc/frontend"
)

// beyondNote is what a verdict that package beyond upgraded says.
const beyondNote = "no violation can lie beyond it"

// TestBeyondBounds: a bounded exploration that hit only loop bounds and
// found no violation verifies the program when nothing the cut loops do
// can lead to a violation (package beyond), and stays unknown otherwise.
// Each unknown case's violation is real: a larger bound finds it (deep),
// which is what the check must not hide.
func TestBeyondBounds(t *testing.T) {
	cases := []struct {
		name, src string
		models    string // the models of the case ("" all)
		verified  bool   // at --unroll 2
		deep      bool   // a violation at --unroll 6
	}{
		{"writer-loop", `atomic global x: int;
atomic global y: int;
fn t() { let i = 0; while (i < 10) { y = i; i = i + 1; } }
fn main() { let h = spawn t(); x = 1; let a = x; assert(a == 1, "x"); }
`, "", true, false},
		{"checks-before-loop", `atomic global x: int;
atomic global y: int;
fn t() { x = 1; while (1 == 1) { let v = y; y = v + 1; } }
fn u() { let a = x; assert(a == 0 || a == 1, "range"); while (1 == 1) { y = 7; } }
fn main() { spawn t(); spawn u(); }
`, "", true, false},
		{"assume-loops", `atomic global l1: int = 1;
atomic global l2: int;
fn t1() { while (1 == 1) { assume(load(l1, rlx) == 1); store(l1, 0, rlx); fence(sc); store(l2, 1, rlx); } }
fn t2() { while (1 == 1) { assume(load(l2, rlx) == 1); store(l2, 0, rlx); fence(sc); store(l1, 1, rlx); } }
fn main() { spawn t1(); spawn t2(); }
`, "", true, false},
		// Plain accesses beyond the bound are no violation under sc, tso
		// and pso (races are not checked there).
		{"plain-beyond", `global z: int;
fn t() { let i = 0; while (i < 3) { i = i + 1; } z = 1; }
fn main() { spawn t(); z = 2; }
`, "sc tso pso", true, false},
		// ... but a data race under ra and rc11.
		{"race-beyond", `global z: int;
fn t() { let i = 0; while (i < 3) { i = i + 1; } z = 1; }
fn main() { spawn t(); z = 2; }
`, "ra rc11", false, true},
		{"reads-loop-value", `atomic global y: int;
fn t() { let i = 0; while (i < 10) { i = i + 1; y = i; } }
fn main() { spawn t(); let a = y; assert(a < 4, "deep"); }
`, "", false, true},
		{"assert-after-loop", `atomic global y: int;
fn t() { let i = 0; while (i < 5) { i = i + 1; y = i; } assert(i != 5, "after"); }
fn main() { spawn t(); }
`, "", false, true},
		{"assert-after-call", `atomic global y: int;
fn count(): int { let i = 0; while (i < 5) { i = i + 1; y = i; } return i; }
fn main() { let n = count(); assert(n != 5, "after the call"); }
`, "", false, true},
		{"spawn-beyond", `atomic global y: int;
fn u(n: int) { assert(n != 4, "spawned late"); }
fn t() { let i = 0; while (i < 5) { i = i + 1; spawn u(i); } }
fn main() { spawn t(); }
`, "", false, true},
		// A loop that did not hit the bound runs longer when the cut loop
		// runs longer: its reads of what the cut loop writes are refused.
		{"loop-feeds-loop", `atomic global y: int;
fn t() { let i = 0; while (i < 10) { i = i + 1; y = i; } }
fn u() { let j = 0; while (j < y) { j = j + 1; } assert(j < 4, "fed"); }
fn main() { spawn t(); spawn u(); }
`, "", false, true},
		{"division-beyond", `atomic global y: int = 5;
fn t() { let i = 0; while (i < 5) { i = i + 1; let v = 10 / (5 - i); y = v; } }
fn main() { spawn t(); }
`, "", false, true},
		// Locks: a deadlock is not a prefix of an execution (it needs 10
		// iterations here).
		{"lock", `atomic global y: int;
global m: mutex;
fn t() { let i = 0; while (i < 10) { i = i + 1; y = i; } lock(m); }
fn main() { lock(m); spawn t(); }
`, "", false, false},
	}
	for _, c := range cases {
		models := c.models
		if models == "" {
			models = "sc tso pso ra rc11"
		}
		for _, model := range strings.Fields(models) {
			t.Run(c.name+"/"+model, func(t *testing.T) {
				p, err := frontend.ParseCIR(c.name+".cir", []byte(c.src))
				if err != nil {
					t.Fatal(err)
				}
				// one bounded exploration: no stage without the loop bound
				res, err := Verify(context.Background(), p, Options{Model: model, Explorer: boundedExplorer(model), Unroll: 2, Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				got := res.Verdict == Verified && strings.Contains(res.Reason, beyondNote)
				switch {
				case got != c.verified:
					t.Errorf("unroll 2: %s (%s), note %q; want verified by package beyond: %v", res.Verdict, res.Reason, res.Note, c.verified)
				case !c.verified && res.Verdict == Verified:
					t.Errorf("unroll 2: %s (%s), note %q; want not verified", res.Verdict, res.Reason, res.Note)
				}
				deep, err := Verify(context.Background(), p, Options{Model: model, Explorer: boundedExplorer(model), Unroll: 6, Workers: 1, Timeout: 20 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if (deep.Verdict == Violation) != c.deep {
					t.Errorf("unroll 6: %s (%s); want a violation: %v", deep.Verdict, deep.Reason, c.deep)
				}
			})
		}
	}
}

// boundedExplorer is the explorer of the auto plan's bounded exploration
// under model.
func boundedExplorer(model string) string {
	if model == "ra" || model == "rc11" {
		return "trust"
	}
	return "vmcr"
}

// TestBeyondAuto: under sc, tso and pso the auto plan first explores again
// without the loop bound (all outcomes, violations that need many
// iterations) and checks what lies beyond the bound only when that does
// not finish; under ra and rc11 it checks right after the bounded
// exploration.
func TestBeyondAuto(t *testing.T) {
	endless := `atomic global x: int;
atomic global y: int;
fn t() { x = 1; while (1 == 1) { let v = y; y = v + 1; } }
fn main() { spawn t(); let a = x; assert(a == 0 || a == 1, "range"); }
`
	cycle := `atomic global y: int;
fn t() { while (1 == 1) { y = 1 - y; } }
fn main() { spawn t(); }
`
	for _, c := range []struct{ name, src, model, reason, note string }{
		{"endless", endless, "sc", beyondNote, "the stateful explorer without the default loop bound was tried too: unknown"},
		{"endless", endless, "rc11", beyondNote, "trust hit the loop bound"},
		{"cycle", cycle, "sc", "all executions explored", "explored again without the default loop bound"},
		{"cycle", cycle, "ra", beyondNote, "trust hit the loop bound"},
	} {
		t.Run(c.name+"/"+c.model, func(t *testing.T) {
			p, err := frontend.ParseCIR(c.name+".cir", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), p, Options{Model: c.model, Unroll: 2, MaxSteps: 300, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Verified || !strings.Contains(res.Reason, c.reason) || !strings.Contains(res.Note, c.note) {
				t.Errorf("%s (%s), note %q; want verified (%s), note with %q", res.Verdict, res.Reason, res.Note, c.reason, c.note)
			}
		})
	}
}
