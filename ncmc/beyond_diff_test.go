package ncmc

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
)

var beyondN = flag.Int("beyond.n", 0, "generated programs per model in TestBeyondDifferential (0: 200, 40 with -short, 1500 with -long)")

// TestBeyondDifferential checks package beyond against exploration with a
// larger bound. Each generated program has loops that run at most 4
// times, so exploring it with --unroll 5 hits no bound and gives its true
// verdict; whenever --unroll 2 gives Verified by package beyond, the true
// verdict must be Verified too. The programs have assertions on values
// that loops produce, loops whose trip counts depend on shared values,
// plain (racy under ra and rc11) and atomic globals, and checks before,
// inside and after loops, so that many violations need more iterations
// than 2.
func TestBeyondDifferential(t *testing.T) {
	n := *beyondN
	if n == 0 {
		n = 200
		switch {
		case explorertest.Long():
			n = 1500
		case testing.Short():
			n = 40
		}
	}
	for _, model := range []string{"sc", "tso", "ra", "rc11"} {
		t.Run(model, func(t *testing.T) {
			var upgraded, truthKnown, deepViolations, hidden int
			for seed := range n {
				src := genBeyondProgram(rand.New(rand.NewPCG(uint64(seed), 0xbe70d)))
				name := fmt.Sprintf("beyond-%d.cir", seed)
				p, err := frontend.ParseCIR(name, []byte(src))
				if err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, src)
				}
				ctx := context.Background()
				// one bounded exploration (no stage without the bound after it)
				explorer := "vmcr"
				if model == "ra" || model == "rc11" {
					explorer = "trust"
				}
				res, err := Verify(ctx, p, Options{Model: model, Explorer: explorer, Unroll: 2, MaxSteps: 400, Workers: 1, Timeout: 20 * time.Second})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				byBeyond := res.Verdict == Verified && strings.Contains(res.Reason, beyondNote)
				// The truth: every loop ends within 4 iterations, so
				// --unroll 5 hits no loop bound.
				truth, err := Verify(ctx, p, Options{Model: model, Explorer: explorer, Unroll: 5, MaxSteps: 400, Workers: 1, Timeout: 60 * time.Second})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if truth.Stats.BoundHits > 0 || truth.Stopped != "" || strings.Contains(truth.Reason, beyondNote) {
					continue
				}
				truthKnown++
				if byBeyond {
					upgraded++
				}
				if truth.Verdict == Violation {
					if res.Verdict != Violation {
						deepViolations++
					}
					if byBeyond {
						hidden++
						t.Errorf("seed %d: verified at --unroll 2 (%s), but --unroll 5 finds %q\n%s", seed, res.Note, truth.Reason, src)
					}
				}
			}
			t.Logf("%s: %d programs, true verdict known for %d; package beyond verified %d at --unroll 2; %d violations need more than 2 iterations; %d hidden",
				model, n, truthKnown, upgraded, deepViolations, hidden)
			if upgraded == 0 || deepViolations == 0 {
				t.Errorf("the generator should give both programs package beyond verifies (%d) and violations beyond --unroll 2 (%d)", upgraded, deepViolations)
			}
		})
	}
}

// genBeyondProgram returns a CIR program of two threads and main. Each
// thread runs a few loads, stores, fetch_adds and assertions, then, mostly,
// a loop of 3 or 4 iterations (so --unroll 2 cuts it): a counter, or
// fetch_adds until one returns enough (a1 grows unless a store makes it
// smaller: then --unroll 5 may hit its bound and the program is skipped).
// The loops write a1 and p0 mostly, which the other threads' checks read
// sometimes, and now and then an assertion sits in a loop or after it.
func genBeyondProgram(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("atomic global a0: int;\natomic global a1: int;\nglobal p0: int;\n")
	vars := []string{"a0", "a1", "p0"}
	asserts := 0
	simple := func(in string, loop bool) {
		v := vars[rng.IntN(len(vars))]
		w := v
		if loop {
			w = []string{"a1", "p0"}[rng.IntN(2)]
		}
		r := fmt.Sprintf("r%d", rng.IntN(2))
		switch k := rng.IntN(10); {
		case k < 3:
			fmt.Fprintf(&b, "%s%s = %s;\n", in, r, v)
		case k < 5:
			fmt.Fprintf(&b, "%s%s = %s + %d;\n", in, w, r, rng.IntN(2))
		case k < 7:
			fmt.Fprintf(&b, "%s%s = fetch_add(%s, 1);\n", in, r, []string{"a0", "a1"}[rng.IntN(2)])
		case k < 9 && !loop || k < 8:
			asserts++
			fmt.Fprintf(&b, "%sassert(%s != %d, \"a%d\");\n", in, r, 2+rng.IntN(3), asserts)
		default:
			fmt.Fprintf(&b, "%sif (%s == %d) {\n%s    %s = %s;\n%s}\n", in, r, rng.IntN(3), in, r, v, in)
		}
	}
	body := func(in string) {
		for range 1 + rng.IntN(2) {
			simple(in, true)
		}
	}
	for th := range 2 {
		fmt.Fprintf(&b, "fn t%d() {\n    let r0 = 0;\n    let r1 = 0;\n", th)
		for range 1 + rng.IntN(3) {
			simple("    ", false)
		}
		if rng.IntN(5) > 0 {
			r := fmt.Sprintf("r%d", rng.IntN(2))
			if rng.IntN(3) == 0 {
				fmt.Fprintf(&b, "    while (%s < %d) {\n        %s = fetch_add(a1, 1);\n", r, 3+rng.IntN(2), r)
			} else {
				fmt.Fprintf(&b, "    let i = 0;\n    while (i < %d) {\n        i = i + 1;\n", 3+rng.IntN(2))
			}
			body("        ")
			b.WriteString("    }\n")
			if rng.IntN(4) == 0 {
				simple("    ", false)
			}
		}
		b.WriteString("}\n")
	}
	b.WriteString("fn main() {\n    let r0 = 0;\n    let r1 = 0;\n    spawn t0();\n    spawn t1();\n")
	for range 1 + rng.IntN(2) {
		simple("    ", false)
	}
	b.WriteString("}\n")
	return b.String()
}
