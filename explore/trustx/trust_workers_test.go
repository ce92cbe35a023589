package trustx_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/explore/trustx"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/seg"
)

// trustFingerprint is everything a trust run must reproduce exactly with
// any number of workers: verdict, counts, outcomes in their order with
// their execution counts, the counterexample, the graph reported and why
// the search stopped.
func trustFingerprint(r *ncmc.Result) string {
	s := r.Stats
	out := fmt.Sprintf("%s %s %q | exec %d complete %d blocked %d bound %d viol %d steps %d\n",
		r.Verdict, r.Reason, r.Stopped, s.Executions, s.Complete, s.Blocked, s.BoundHits, s.Violations, s.Steps)
	for _, o := range r.Outcomes {
		out += fmt.Sprintf("outcome %q %q x%d\n", o.State, o.Violation, o.Executions)
	}
	for _, c := range r.Counterexample {
		out += fmt.Sprintf("cex %s:%d %s\n", c.Thread, c.Line, c.What)
	}
	if r.Graph != nil {
		out += "graph " + r.Graph.Key(seg.KeyOpts{Kind: seg.KeyRF}) + "\n"
	}
	return out
}

// The trust explorer prints the same counts, outcomes (in the same order),
// counterexample and graph with any number of workers, and with one worker
// whether or not it resumes graphs from checkpoints, every run (results
// reach the collector in the order of the sequential exploration), with
// and without --keep-going and with an execution bound that cuts the
// search, on the examples it supports and on generated programs with
// assertions, data races, assumes, mutexes and deadlocks, under ra, rc11
// and tso.
func TestTrustWorkersDeterministic(t *testing.T) {
	progs := trustCorpus(t, int(explorertest.Size(0, 12, 8, 60)), 7000, 0x7477, func(i int, rng *rand.Rand, cfg progen.Config) string {
		switch i % 4 {
		case 0:
			return progen.Generate(rng, cfg)
		case 1:
			return genAtomic(rng, true, false) // data races on z
		case 2:
			return genAtomic(rng, i%8 == 2, true) // assumes and awaits
		}
		return genLockProgram(rng)
	})
	tested, split := 0, 0
	for _, pr := range progs {
		for _, model := range []string{"ra", "rc11", "tso"} {
			for _, o := range []ncmc.Options{
				{KeepGoing: true},
				{KeepGoing: false},
				{KeepGoing: true, MaxExecutions: 5},
			} {
				o.Explorer, o.Model = "trust", model
				var first string
				for k, w := range []int{1, 2, 4, 3, 2, 1} {
					o.Workers = w
					o.NoCheckpoints = k == 5 // every graph from the start
					res, err := ncmc.Verify(context.Background(), pr.p, o)
					if err != nil {
						t.Fatalf("%s: %v", pr.name, err)
					}
					if res.Explorer != "trust" {
						t.Fatalf("%s: explored by %s", pr.name, res.Explorer)
					}
					fp := trustFingerprint(res)
					if first == "" {
						first = fp
						tested++
						if res.Stats.Executions > 1 {
							split++
						}
					} else if fp != first {
						t.Errorf("%s, %s, keep-going %v, max %d: %d workers (checkpoints %v) differ from 1 worker:\n%s\nvs\n%s", pr.name, model, o.KeepGoing, o.MaxExecutions, w, !o.NoCheckpoints, fp, first)
						break
					}
				}
			}
		}
	}
	t.Logf("%d settings, %d with more than one execution", tested, split)
	if split < tested/2 {
		t.Errorf("only %d of %d settings had more than one execution", split, tested)
	}
}

// trustProg is a named program of a trust test corpus.
type trustProg struct {
	name string
	p    *ir.Program
}

// trustCorpus returns the examples the trust explorer supports and n
// generated programs (gen(i, rng, cfg) with seed base+i on PCG stream
// stream; cfg: progen's defaults with one mutex and no nondet or condvars)
// that it supports.
func trustCorpus(t *testing.T, n int, base, stream uint64, gen func(i int, rng *rand.Rand, cfg progen.Config) string) []trustProg {
	t.Helper()
	var progs []trustProg
	files, _ := filepath.Glob("../../examples/*.cir")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.ParseCIR(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if trustx.Supported(p) == "" {
			progs = append(progs, trustProg{filepath.Base(f), p})
		}
	}
	cfg := progen.Default()
	cfg.Nondet, cfg.Mutexes, cfg.Lock, cfg.Cond = 0, 1, 6, 0
	for i := range n {
		seed := base + uint64(i)
		src := gen(i, rand.New(rand.NewPCG(seed, stream)), cfg)
		p, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if trustx.Supported(p) == "" {
			progs = append(progs, trustProg{fmt.Sprintf("seed %d", seed), p})
		}
	}
	return progs
}
