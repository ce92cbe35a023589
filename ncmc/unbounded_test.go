package ncmc

import (
	"context"
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
		{"counter", `global x: int;
fn main() {
    while (x >= 0) {
        x = x + 1;
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
