package ncmc_test

import (
	"context"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/ncmc"
)

// The mcr explorer prints the same counts, outcomes and counterexample with
// any number of workers, every run (results are applied in seed order),
// with and without --keep-going, under sc, tso and pso.
func TestMCRDeterministic(t *testing.T) {
	n, workers := 30, []int{1, 2, 4, 4}
	if testing.Short() {
		n, workers = 4, []int{1, 4, 4}
	}
	progs := explorertest.Corpus(t, "../examples/*.cir", 7000, n)
	for _, pr := range progs {
		for _, model := range []string{"sc", "tso", "pso"} {
			for _, keep := range []bool{false, true} {
				var first string
				for _, w := range workers {
					res, err := ncmc.Verify(context.Background(), pr.Prog, ncmc.Options{Explorer: "mcr", Model: model, KeepGoing: keep, Workers: w, MaxExecutions: 300})
					if err != nil {
						t.Fatalf("%s %s: %v", pr.Name, model, err)
					}
					if res.Explorer != "mcr" {
						break
					}
					fp := explorertest.Fingerprint(res)
					if first == "" {
						first = fp
					} else if fp != first {
						t.Errorf("%s, %s, keep-going %v: %d workers differ from 1 worker:\n%s\nvs\n%s", pr.Name, model, keep, w, fp, first)
						break
					}
				}
			}
		}
	}
}
