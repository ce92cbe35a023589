package ncmc

import (
	"context"
	"strings"
	"testing"

	"ncmc/frontend"
)

// TestUnboundedLoops: without the default loop bound the state cache ends
// finite-state loops (a spin loop that reads an unchanged flag returns to a
// state seen before), and a loop that never returns to a seen state ends
// with the step bound: unknown, never verified.
func TestUnboundedLoops(t *testing.T) {
	cases := []struct {
		name, src string
		want      Verdict
		kind      string
	}{
		{"spin", `global flag: int;
fn t() {
    flag = 1;
}
fn main() {
    let h = spawn t();
    let f = 0;
    while (f == 0) {
        f = flag;
    }
    join(h);
    assert(flag == 1);
}
`, Verified, ""},
		{"spin-bug", `global flag: int;
global y: int;
fn t() {
    flag = 1;
    y = 1;
}
fn main() {
    let h = spawn t();
    let f = 0;
    while (f == 0) {
        f = flag;
    }
    assert(y == 1);
    join(h);
}
`, Violation, "assertion"},
		// (The assertions keep package beyond from verifying these
		// loops at the bound: they are about the unbounded stage.)
		{"counter", `global x: int;
fn main() {
    while (x >= 0) {
        x = x + 1;
        assert(x != -5, "wrapped");
    }
}
`, Unknown, "steps"},
		{"local-counter", `global x: int;
fn main() {
    let i = 0;
    while (i >= 0) {
        i = i + 1;
    }
    x = 1;
    assert(i < 0, "ended");
}
`, Unknown, "steps"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := frontend.ParseCIR(c.name+".cir", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			// With the default bound, the loops are cut: not verified.
			res, err := Verify(context.Background(), p, Options{Explorer: "reference", StateCache: true, Unroll: 2, MaxSteps: 500})
			if err != nil {
				t.Fatal(err)
			}
			if c.want != Violation && res.Verdict != Unknown {
				t.Errorf("unroll 2: %s (%s), want unknown", res.Verdict, res.Reason)
			}
			res, err = Verify(context.Background(), p, Options{Explorer: "reference", StateCache: true, UnboundedLoops: true, MaxSteps: 500})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.want || res.Kind != c.kind {
				t.Errorf("unbounded loops: %s/%s (%s), want %s/%s", res.Verdict, res.Kind, res.Reason, c.want, c.kind)
			}
		})
	}
}

// TestAutoUnboundedStage: the auto plan under sc, tso and pso explores
// again without the default loop bound when the bounded exploration
// stopped there, and keeps the bounded answer (unknown) when that does not
// finish or another bound stopped it.
func TestAutoUnboundedStage(t *testing.T) {
	cases := []struct {
		name, src string
		want      Verdict
		kind      string
		note      string
	}{
		{"spin", `global flag: int;
fn t() { flag = 1; }
fn main() {
    let h = spawn t();
    let f = 0;
    while (f == 0) { f = flag; }
    join(h);
    assert(flag == 1);
}
`, Verified, "", "explored again without the default loop bound"},
		// The violation needs 28 iterations: only the unbounded stage sees it.
		{"deep-bug", `global x: int;
fn t() { x = 0; }
fn main() {
    let h = spawn t();
    let i = 0;
    while (1 == 1) {
        i = (i + 1) % 16;
        if (i == 12) { let v = x; assert(v == 0, "deep"); x = 1; }
    }
}
`, Violation, "assertion", "explored again without the default loop bound"},
		// A loop that never comes back to a state seen before: the step
		// bound ends the unbounded stage, and the bounded answer stands.
		{"counter", `global x: int;
fn main() {
    while (x >= 0) { x = x + 1; assert(x != -5, "wrapped"); }
}
`, Unknown, "unroll", "without the default loop bound was tried too: unknown"},
		// An explicit loop bound is kept.
		{"explicit", `global flag: int;
fn t() { flag = 1; }
fn main() {
    let h = spawn t();
    let f = 0;
    while (f == 0) @unroll(2) { f = flag; }
    join(h);
}
`, Unknown, "unroll", "tried too: unknown"},
	}
	for _, c := range cases {
		for _, model := range []string{"sc", "tso", "pso"} {
			t.Run(c.name+"/"+model, func(t *testing.T) {
				p, err := frontend.ParseCIR(c.name+".cir", []byte(c.src))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Verify(context.Background(), p, Options{Model: model, Unroll: 2, MaxSteps: 150, Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != c.want || res.Kind != c.kind || !strings.Contains(res.Note, c.note) {
					t.Errorf("%s/%s (%s), note %q; want %s/%s, note with %q", res.Verdict, res.Kind, res.Reason, res.Note, c.want, c.kind, c.note)
				}
			})
		}
	}
}
