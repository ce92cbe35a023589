package ncmc_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

// mcrFingerprint is everything an mcr run must reproduce exactly: verdict,
// counts (executions, seeds, queries and how they were decided),
// outcomes with their execution counts, and the counterexample.
func mcrFingerprint(r *ncmc.Result) string {
	s := r.Stats
	out := fmt.Sprintf("%s %s | exec %d complete %d blocked %d bound %d viol %d steps %d | seeds %d queries %d native %d z3 %d fallbacks %d\n",
		r.Verdict, r.Reason, s.Executions, s.Complete, s.Blocked, s.BoundHits, s.Violations, s.Steps, s.Seeds, s.SMTQueries, s.Native, s.Z3Calls, s.Fallbacks)
	for _, o := range r.Outcomes {
		out += fmt.Sprintf("outcome %q %q x%d\n", o.State, o.Violation, o.Executions)
	}
	for _, c := range r.Counterexample {
		out += fmt.Sprintf("cex %s:%d %s\n", c.Thread, c.Line, c.What)
	}
	return out
}

// The mcr explorer prints the same counts, outcomes and counterexample with
// any number of workers, every run (results are applied in seed order),
// with and without --keep-going, under sc, tso and pso.
func TestMCRDeterministic(t *testing.T) {
	type prog struct {
		name string
		p    *ir.Program
	}
	var progs []prog
	files, _ := filepath.Glob("../examples/*.cir")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.ParseCIR(f, src)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{filepath.Base(f), p})
	}
	n := 30
	if testing.Short() {
		n = 8
	}
	for i := range n {
		seed := uint64(7000 + i)
		src := progen.Generate(rand.New(rand.NewPCG(seed, 0x6d6372)), progen.Default())
		p, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{fmt.Sprintf("seed %d", seed), p})
	}
	for _, pr := range progs {
		for _, model := range []string{"sc", "tso", "pso"} {
			for _, keep := range []bool{false, true} {
				var first string
				for _, w := range []int{1, 2, 4, 4} {
					res, err := ncmc.Verify(context.Background(), pr.p, ncmc.Options{Explorer: "mcr", Model: model, KeepGoing: keep, Workers: w, MaxExecutions: 300})
					if err != nil {
						t.Fatalf("%s %s: %v", pr.name, model, err)
					}
					if res.Explorer != "mcr" {
						break
					}
					fp := mcrFingerprint(res)
					if first == "" {
						first = fp
					} else if fp != first {
						t.Errorf("%s, %s, keep-going %v: %d workers differ from 1 worker:\n%s\nvs\n%s", pr.name, model, keep, w, fp, first)
						break
					}
				}
			}
		}
	}
}
