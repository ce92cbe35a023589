package vmcrx_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

// vmcrFingerprint is everything a vmcr run must reproduce exactly with any
// number of workers: verdict, counts (executions, nodes, interpreter
// runs), outcomes with their execution counts, the counterexample and
// why the search stopped. The work done (nodes, runs) is the same too
// unless the search stopped early (stopped): then other workers may have
// gone on a little.
func vmcrFingerprint(r *ncmc.Result, stopped bool) string {
	s := r.Stats
	out := fmt.Sprintf("%s %s %q | exec %d complete %d blocked %d bound %d viol %d steps %d\n",
		r.Verdict, r.Reason, r.Stopped, s.Executions, s.Complete, s.Blocked, s.BoundHits, s.Violations, s.Steps)
	if !stopped {
		out += fmt.Sprintf("nodes %d runs %d\n", s.Nodes, s.Runs)
	}
	for _, o := range r.Outcomes {
		out += fmt.Sprintf("outcome %q %q x%d\n", o.State, o.Violation, o.Executions)
	}
	for _, c := range r.Counterexample {
		out += fmt.Sprintf("cex %s:%d %s\n", c.Thread, c.Line, c.What)
	}
	if r.Graph != nil {
		out += fmt.Sprintf("graph %d threads\n", len(r.Graph.Threads))
	}
	return out
}

// The vmcr explorer prints the same counts, outcomes and counterexample
// with any number of workers, every run (leaves reach the collector in the
// order of the sequential search), with and without --keep-going and with
// an execution bound that cuts the search; under sc and tso (store-buffer
// programs: flushes are steps of their own threads), and with condition
// variables.
func TestVMCRWorkersDeterministic(t *testing.T) {
	type prog struct {
		name  string
		p     *ir.Program
		model string
	}
	var progs []prog
	for _, c := range explorertest.Corpus(t, "../../examples/*.cir", 0, 0) {
		progs = append(progs, prog{c.Name, c.Prog, "sc"}, prog{c.Name, c.Prog, "tso"})
	}
	// Failing threads: the further leaves of failures (Options.Failures).
	for _, c := range explorertest.Corpus(t, "testdata/regress/*.cir", 0, 0) {
		progs = append(progs, prog{c.Name, c.Prog, "sc"}, prog{c.Name, c.Prog, "pso"})
	}
	n := explorertest.Size(0, 40, 10, 40)
	for _, c := range explorertest.Corpus(t, "", 9000, int(n)) {
		progs = append(progs, prog{c.Name, c.Prog, "sc"})
	}
	for i := range n {
		seed := 9000 + i
		src := explorertest.SBProgram(rand.New(rand.NewPCG(seed, 0x74736f)))
		p, err := frontend.ParseCIR(fmt.Sprintf("gensb%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{fmt.Sprintf("sb seed %d", seed), p, "tso"})
	}
	// gen adds n/4 programs of kind made from seeds base, base+1, ...:
	// every other one under sc, the others under model.
	gen := func(kind string, base, key uint64, model string, text func(rng *rand.Rand) string) {
		for i := range n / 4 {
			seed := base + i
			p, err := frontend.ParseCIR(fmt.Sprintf("%s%d.cir", kind, seed), []byte(text(rand.New(rand.NewPCG(seed, key)))))
			if err != nil {
				t.Fatal(err)
			}
			m := "sc"
			if i%2 == 1 {
				m = model
			}
			progs = append(progs, prog{fmt.Sprintf("%s seed %d", kind, seed), p, m})
		}
	}
	// Indexer-shaped CAS tables: blocked reads withhold backtrack marks
	// (docs/vmcr.md), which subtrees on other goroutines set.
	gen("cas", 9100, 0x636173, "tso", func(rng *rand.Rand) string { return casTable(rng, true) })
	// Waiters and signallers: condition variables run step-wise.
	gen("cond", 9200, 0x636f6e, "pso", func(rng *rand.Rand) string { return condProgram(rng, 4) })
	tested := 0
	for _, pr := range progs {
		for _, o := range []ncmc.Options{
			{KeepGoing: true},
			{KeepGoing: false},
			{KeepGoing: true, MaxExecutions: 5},
		} {
			o.Explorer, o.Model = "vmcr", pr.model
			var first string
			for _, w := range []int{1, 2, 4, 3, 2} {
				o.Workers = w
				res, err := ncmc.Verify(context.Background(), pr.p, o)
				if err != nil {
					t.Fatalf("%s: %v", pr.name, err)
				}
				if res.Explorer != "vmcr" {
					break
				}
				fp := vmcrFingerprint(res, res.Stopped != "" || !o.KeepGoing && res.Stats.Violations > 0)
				if first == "" {
					first = fp
					tested++
				} else if fp != first {
					t.Errorf("%s (%s), keep-going %v, max %d: %d workers differ from 1 worker:\n%s\nvs\n%s", pr.name, pr.model, o.KeepGoing, o.MaxExecutions, w, fp, first)
					break
				}
			}
		}
	}
	t.Logf("%d programs, %d settings ran vmcr", len(progs), tested)
	if tested < len(progs) {
		t.Errorf("only %d settings ran vmcr", tested)
	}
}

// TestVMCRWorkersBudgetOrdered: an error of a subtree the sequential search
// does not reach (it stops at --max-executions first) must not end a
// parallel search either. Forty threads incrementing one counter: the
// first three executions come at once, but a later subtree's witness
// search runs into its budget; with four workers that subtree was often
// explored early and its error ended vmcr (mcr then took the rest of the
// time bound).
func TestVMCRWorkersBudgetOrdered(t *testing.T) {
	const src = `global x: int;
fn w() { x = x + 1; }
fn main() {
    let i = 0;
    while (i < 40) {
        spawn w();
        i = i + 1;
    }
}
`
	prog, err := frontend.ParseCIR("rmw40.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for run := 0; run < 4; run++ {
		for _, workers := range []int{1, 4} {
			res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: "sc", Unroll: 100, MaxExecutions: 3,
				Workers: workers, Timeout: 30e9})
			if err != nil {
				t.Fatal(err)
			}
			if res.Explorer != "vmcr" || res.Stats.Executions != 3 {
				t.Fatalf("workers %d, run %d: explorer %s, %d executions (%s; %s)", workers, run, res.Explorer, res.Stats.Executions, res.Reason, res.Note)
			}
			if got := vmcrFingerprint(res, true); want == "" {
				want = got
			} else if got != want {
				t.Fatalf("workers %d, run %d:\n%s\nwant\n%s", workers, run, got, want)
			}
		}
	}
}
