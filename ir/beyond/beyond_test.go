package beyond_test

import (
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ir/beyond"
)

// loopHeads returns the positions of the loop heads of p in the functions
// named (all functions when none is named).
func loopHeads(p *ir.Program, funcs ...string) []string {
	var hits []string
	for _, f := range p.Funcs {
		if len(funcs) > 0 && !strings.Contains(" "+strings.Join(funcs, " ")+" ", " "+f.Name+" ") {
			continue
		}
		for i := range f.Body {
			if f.Body[i].Op == ir.ILoopHead {
				hits = append(hits, f.Body[i].Pos.String())
			}
		}
	}
	return hits
}

// TestCheck: what Check accepts, and for what it refuses, the reason.
func TestCheck(t *testing.T) {
	cases := []struct {
		name, src string
		loops     string // the functions whose loops hit the bound ("": all)
		races     bool
		why       string // "" when Check must answer ok
	}{
		{"writes-nobody-reads", `atomic global x: int;
atomic global y: int;
fn t() { while (true) { y = y + 1; } }
fn main() { spawn t(); x = 1; assert(x == 1); }
`, "", true, ""},
		{"assertion-after", `atomic global y: int;
fn t() { let i = 0; while (i < 5) { i = i + 1; } assert(i == 5); }
fn main() { spawn t(); }
`, "", true, "an assertion beyond the loop bound at assertion-after.cir:2:50 (in t)"},
		{"read-before", `atomic global y: int;
fn t() { while (true) { y = y + 1; } }
fn main() { spawn t(); let a = y; assert(a < 9); }
`, "", true, "the load at read-before.cir:3:32 (in main) may read what the store at read-before.cir:2:25 (in t)"},
		// main's loop did not hit: its reads count as before the bound
		{"other-loop-reads", `atomic global y: int;
fn t() { while (true) { y = y + 1; } }
fn main() { spawn t(); let i = 0; while (i < 2) { i = i + y; } }
`, "t", true, "may read what the store"},
		{"racy", `global y: int;
fn t() { while (true) { y = 1; } }
fn main() { spawn t(); let a = y; }
`, "", true, "an access to y"},
		{"racy-without-races", `global y: int;
fn t() { while (true) { y = 1; } }
fn main() { spawn t(); }
`, "", false, ""},
		{"one-thread-no-race", `global y: int;
fn main() { while (true) { y = y + 1; } }
`, "", true, ""},
		{"pointer", `record Node { v: int; }
atomic global n: int;
fn t(p: *Node) { while (true) { p.v = 1; } }
fn main() { let p = new Node { v: 0 }; spawn t(p); }
`, "", false, "an expression that may fail"},
		{"recursion", `atomic global y: int;
fn r(n: int): int { if (n == 0) { return 0; } return r(n - 1); }
fn t() { while (true) { let v = r(3); } }
fn main() { spawn t(); }
`, "", false, "a call of the recursive r"},
		{"spawn-beyond", `atomic global y: int;
fn u() { assert(y == 0); }
fn t() { while (true) { spawn u(); } }
fn main() { spawn t(); }
`, "", false, "an assertion beyond the loop bound"},
		{"lock", `global m: mutex;
fn t() { while (true) { lock(m); unlock(m); } }
fn main() { spawn t(); }
`, "", false, "locks, condition variables or joins"},
		{"nondet-range", `atomic global y: int = 5;
fn t() { while (true) { let v = nondet(0, y); } }
fn main() { spawn t(); }
`, "", false, "a nondeterministic choice"},
		{"nondet-constant", `atomic global y: int = 5;
fn t() { while (true) { let v = nondet(0, 3); y = v; } }
fn main() { spawn t(); }
`, "", false, ""},
		{"division", `atomic global y: int = 5;
fn t() { let i = 0; while (true) { i = i + 1; y = 10 / i; } }
fn main() { spawn t(); }
`, "", false, "an expression that may fail"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := frontend.ParseCIR(c.name+".cir", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var hits []string
			if c.loops == "" {
				hits = loopHeads(p)
			} else {
				hits = loopHeads(p, strings.Fields(c.loops)...)
			}
			ok, why := beyond.Check(p, hits, c.races)
			switch {
			case c.why == "" && !ok:
				t.Errorf("refused: %s", why)
			case c.why != "" && ok:
				t.Errorf("accepted; want refused with %q", c.why)
			case c.why != "" && !strings.Contains(why, c.why):
				t.Errorf("refused: %s; want %q", why, c.why)
			}
		})
	}
	// A position that names no loop head is refused: the hits must be
	// this program's.
	p, err := frontend.ParseCIR("x.cir", []byte("fn main() { while (true) { } }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := beyond.Check(p, []string{"x.cir:9:9"}, false); ok || !strings.Contains(why, "no loop of the program is at x.cir:9:9") {
		t.Errorf("a foreign position: %v, %q", ok, why)
	}
	if ok, _ := beyond.Check(p, nil, false); ok {
		t.Errorf("no hits: accepted")
	}
}
