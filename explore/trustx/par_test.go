package trustx

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ncmc/explore"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/interp"
	"ncmc/memmodel"
	"ncmc/seg"
)

// TestTrustParallelHeld: with a bound of one result per task, workers wait
// for the consumer (or park their tasks) nearly all the time; the results
// still come in the sequential order, none is lost, the exploration ends
// (no deadlock between held workers, queued tasks and the consumer), and
// no task but the one the consumer takes from holds more than the bound
// and a batch.
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
				var ps parStats
				summarize := func(x *interp.Execution) (any, bool, bool) { return key(x), false, true }
				if _, _, err := runTrustParallel(context.Background(), prog, names, icfg, model, trustParOpts{workers: workers, maxOut: 1, summarize: summarize, keepGraphs: true,
					consume: func(r trustResult) bool { got = append(got, r.s.(string)); return true }, stats: func(s parStats) { ps = s }}); err != nil {
					t.Fatal(err)
				}
				if ps.maxOther > parBatch {
					t.Errorf("seed %d, %s, %d workers: a task other than the front held %d results, more than maxOut 1 - 1 + a batch of %d", seed, model, workers, ps.maxOther, parBatch)
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

// foldBoundProg has 2859 executions under rc11 and 4 outcomes (the final
// x and y), which come in no particular order: a scaled-down big2 of
// GenMC's synthetic tests, on which the tasks of a parallel exploration
// held 1.7 million results before they folded them.
const foldBoundProg = `
atomic global x: int;
atomic global y: int;

fn r1() {
    let a = load(x, acq);
    let b = load(y, acq);
    let c = load(x, acq);
}

fn r2() {
    let a = load(y, acq);
    let b = load(x, acq);
}

fn w1() {
    store(x, 1, rel);
    store(y, 1, rel);
    store(x, 2, rel);
}

fn w2() {
    store(x, 3, rel);
    store(y, 3, rel);
    store(y, 4, rel);
}

fn main() {
    let a = spawn r1();
    let b = spawn r2();
    let c = spawn w1();
    let d = spawn w2();
}
`

// TestTrustParallelFoldBound: a task of a parallel exploration holds at
// most one result per fold key, besides its first complete graph and its
// first counterexample, however many executions its subtree has: with the
// consumer taking nothing until every task is done (so that each task
// holds all its results, whatever the schedule), no task held more than
// the keys the sequential exploration saw plus 2 (without folding, 6
// settings of 6 held more), and the collector counts, outcome by outcome
// and step by step, what it counts sequentially.
func TestTrustParallelFoldBound(t *testing.T) {
	prog, err := frontend.ParseCIR("foldbound.cir", []byte(foldBoundProg))
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"rc11", "ra"} {
		names := interp.NewNames(prog)
		m, err := memmodel.Lookup(model)
		if err != nil {
			t.Fatal(err)
		}
		icfg := interp.Config{Unroll: 4, MaxSteps: 100000, Model: m}
		eopts := explore.Options{Model: model}
		fingerprint := func(c *explore.Collector) string {
			r := c.Result("trust", "", "")
			return fmt.Sprintf("%+v %v", r.Outcomes, []int64{int64(r.Stats.Executions), int64(r.Stats.Complete), r.Stats.Steps})
		}
		seq := explore.NewCollector(prog, names, eopts)
		keys := map[explore.SummaryKey]bool{}
		if _, _, err := runTrust(context.Background(), prog, names, icfg, model, func(x *interp.Execution) bool {
			s := seq.Summarize(x)
			k, ok := s.FoldKey()
			if !ok {
				t.Fatalf("%s: a summary without class keys does not fold", model)
			}
			keys[k] = true
			seq.AddSummary(s, x.G)
			x.GraphDriver().(*trustGlue).release()
			return true
		}, nil, nil); err != nil {
			t.Fatal(err)
		}
		if n := seq.Stats.Executions; n < 1000 || len(keys) > 8 {
			t.Fatalf("%s: %d executions, %d keys: the program does not test the bound", model, n, len(keys))
		}
		want := fingerprint(seq)
		for _, workers := range []int{2, 3, 4} {
			col := explore.NewCollector(prog, names, eopts)
			var ps parStats
			o := trustParOpts{workers: workers, maxOut: 1 << 30, late: true,
				summarize: func(x *interp.Execution) (any, bool, bool) {
					s := col.Summarize(x)
					return s, s.Violation() != "", s.PlainComplete()
				},
				key:   func(s any) (any, bool) { return s.(*explore.Summary).FoldKey() },
				merge: func(prev, cur any) bool { return prev.(*explore.Summary).Fold(cur.(*explore.Summary)) },
				consume: func(r trustResult) bool {
					s := r.s.(*explore.Summary)
					col.AddSummary(s, r.g)
					z := s.Again()
					for range r.more {
						col.AddSummary(z, nil)
					}
					return true
				},
				stats: func(s parStats) { ps = s },
			}
			if _, _, err := runTrustParallel(context.Background(), prog, names, icfg, model, o); err != nil {
				t.Fatal(err)
			}
			if got := fingerprint(col); got != want {
				t.Errorf("%s, %d workers: collected\n%s\nsequentially\n%s", model, workers, got, want)
			}
			if ps.maxHeld > len(keys)+2 {
				t.Errorf("%s, %d workers: a task held %d results, more than the %d keys + 2 (%d tasks)", model, workers, ps.maxHeld, len(keys), ps.tasks)
			}
			t.Logf("%s, %d workers: %d executions, %d keys, %d tasks (at most %d not consumed), at most %d results held by a task, %d by all", model, workers, seq.Stats.Executions, len(keys), ps.tasks, ps.maxAlive, ps.maxHeld, ps.maxTotal)
		}
	}
}
