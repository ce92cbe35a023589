package trustx

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/interp"
	"ncmc/memmodel"
	"ncmc/seg"
)

// TestTrustParallelHeld: with a bound of one result per task, workers wait
// for the consumer nearly all the time; the results still come in the
// sequential order, none is lost, and the exploration ends (no deadlock
// between held workers, queued tasks and the consumer).
func TestTrustParallelHeld(t *testing.T) {
	cfg := progen.Default()
	cfg.Nondet, cfg.Mutexes, cfg.Lock, cfg.Cond = 0, 1, 6, 0
	held := 0
	for seed := range uint64(12) {
		src := progen.Generate(rand.New(rand.NewPCG(seed, 0x6865)), cfg)
		prog, err := frontend.ParseCIR(fmt.Sprintf("held%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if Supported(prog) != "" {
			continue
		}
		for _, model := range []string{"rc11", "tso"} {
			names := interp.NewNames(prog)
			m, err := memmodel.Lookup(model)
			if err != nil {
				t.Fatal(err)
			}
			icfg := interp.Config{Unroll: 4, MaxSteps: 100000, Model: m}
			if model == "tso" {
				icfg.Axiomatic = seg.LookupModel(model) // as exploreTrust does
			}
			key := func(x *interp.Execution) string { return x.G.Key(seg.KeyOpts{}) }
			var seq []string
			if _, _, err := runTrust(context.Background(), prog, names, icfg, model, func(x *interp.Execution) bool {
				seq = append(seq, key(x))
				return true
			}, nil, nil); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{2, 3} {
				var got []string
				summarize := func(x *interp.Execution) (any, bool, bool) { return key(x), false, true }
				if _, _, err := runTrustParallel(context.Background(), prog, names, icfg, model, trustParOpts{workers: workers, maxOut: 1, summarize: summarize, keepGraphs: true,
					consume: func(r trustResult) bool { got = append(got, r.s.(string)); return true }}); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, seq) {
					for i := range min(len(seq), len(got)) {
						if got[i] != seq[i] {
							t.Logf("%d:\n got %s\n seq %s", i, got[i], seq[i])
							break
						}
					}
					a, b := slices.Clone(got), slices.Clone(seq)
					slices.Sort(a)
					slices.Sort(b)
					t.Logf("same multiset: %v", slices.Equal(a, b))
					t.Errorf("seed %d, %s, %d workers held at 1 result: %d executions, sequential %d (or another order)\n%s", seed, model, workers, len(got), len(seq), src)
				}
				if len(seq) > 1 {
					held++
				}
			}
		}
	}
	if held < 10 {
		t.Errorf("only %d settings with more than one execution", held)
	}
}
