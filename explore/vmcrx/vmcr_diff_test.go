package vmcrx_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ncmc"
)

// The vmcr differential harness: the value-optimal explorer must reach the
// outcomes and the verdict of the reference explorer, with exactly one
// complete execution per class (distinct read values, choices and final
// state of complete executions, counted by the plain reference explorer).

var (
	vmcrN    = flag.Int("vmcr.n", 0, "generated programs in the vmcr differential test (0: 400, 200 with -short, 2000 with -long)")
	vmcrSBN  = flag.Int("vmcr.sbn", 0, "generated programs per model in the vmcr differential test under tso and pso (0: 60, 30 with -short, 2000 with -long)")
	vmcrSeed = flag.Uint64("vmcr.seed", 1, "first seed of the vmcr differential test")
	vmcrAN   = flag.Int("vmcr.an", 0, "generated programs with atomic sections in the vmcr differential test (0: 100, 50 with -short, 1000 with -long)")
	vmcrCN   = flag.Int("vmcr.cn", 0, "generated programs with condition variables in the vmcr differential test (0: 100, 50 with -short, 1000 with -long)")
	vmcrFN   = flag.Int("vmcr.fn", 0, "generated programs per model in the vmcr failure differential test (0: 30, 10 with -short, 1000 with -long)")
)

// vmcrCompare runs vmcr and the reference explorer on prog under model
// ("" is sc): the disagreements in verdict and outcomes
// (explorertest.Pair's options and keys) and in the number of complete
// executions, which must be the number of classes of the plain reference
// explorer. Run.Skipped says why nothing was compared.
func vmcrCompare(prog *ir.Program, model string) explorertest.Run {
	return vmcrCompareWith(prog, model, ncmc.Options{})
}

// vmcrCompareWith is vmcrCompare with vmcr's options based on cand
// (Explorer, Model and KeepGoing are set).
func vmcrCompareWith(prog *ir.Program, model string, cand ncmc.Options) explorertest.Run {
	ctx := context.Background()
	cand.Explorer, cand.Model, cand.KeepGoing = "vmcr", model, true
	// The plain reference explorer counts classes exactly (the stateful
	// one cuts runs, and so classes).
	budget := 100000
	if model == "tso" || model == "pso" {
		budget = 30000 // the reference interleaves flushes: bigger programs are skipped sooner
	}
	// Strict outcomes: an execution's outcome is its first failure (or
	// deadlock) and the state right after it, and vmcr must find every
	// such pair (vmcr.Options.Failures), whichever of several failing
	// threads fails first.
	p := explorertest.Pair{Name: "vmcr", Keys: explorertest.StrictKeys,
		Cand:   cand,
		Oracle: ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: budget, Classes: true}}
	got, err := ncmc.Verify(ctx, prog, p.Cand)
	if err != nil {
		return explorertest.Run{Diffs: []string{"vmcr error: " + err.Error()}}
	}
	if got.Explorer != "vmcr" {
		return explorertest.Run{Skipped: "not explored by vmcr (" + got.Note + ")"}
	}
	ref, err := ncmc.Verify(ctx, prog, p.Oracle)
	if err != nil {
		return explorertest.Run{Diffs: []string{"reference error: " + err.Error()}}
	}
	if ref.Stopped != "" && interp.HasConds(prog) {
		// Condition variables, under tso and pso above all, put many
		// programs over the plain explorer's budget: the stateful one (the
		// same strict outcomes on the 85 such programs under tso and pso
		// where both finish) checks outcomes and verdict, not the count.
		return vmcrOutcomes(ctx, prog, p, got)
	}
	if ref.Stopped != "" {
		// over the reference's budget: its outcomes and classes are partial
		return explorertest.Run{Skipped: "oracle over its bound (" + ref.Stopped + ")"}
	}
	// compared even if vmcr stopped early (its search budget): then it
	// misses outcomes or the verdict
	run := explorertest.Run{Oracle: ref, Cand: got, OracleExec: ref.Stats.Executions, CandExec: got.Stats.Complete,
		OracleTime: ref.Elapsed, CandTime: got.Elapsed}
	if got.Verdict != ref.Verdict {
		run.Diffs = append(run.Diffs, fmt.Sprintf("verdict: vmcr %s (%s), reference %s (%s)", got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	run.Diffs = append(run.Diffs, explorertest.Diff("vmcr", p.Keys(ref), p.Keys(got))...)
	classes := ref.Classes.Values
	if interp.HasConds(prog) {
		// vmcr runs condition variables step-wise (interp.CondSteps): its
		// classes are those of that program, whose outcomes and verdict
		// must be the original's.
		// DPOR visits every Mazurkiewicz trace, so every class, in far
		// fewer runs than the plain reference explorer, which the steps
		// of the conditions' hidden lock and gates put over its budget.
		so := p.Oracle
		if model == "" || model == "sc" {
			so.Explorer = "dpor"
		}
		steps, err := ncmc.Verify(ctx, interp.CondSteps(prog), so)
		if err != nil {
			return explorertest.Run{Diffs: []string{"reference error (step-wise conditions): " + err.Error()}}
		}
		if steps.Stopped != "" {
			// the outcomes are compared, the count cannot be
			run.Oracle, run.OracleExec, run.CandExec = nil, 0, 0
			return run
		}
		if steps.Verdict != ref.Verdict {
			run.Diffs = append(run.Diffs, fmt.Sprintf("verdict: reference with step-wise conditions %s (%s), reference %s (%s)", steps.Verdict, steps.Reason, ref.Verdict, ref.Reason))
		}
		run.Diffs = append(run.Diffs, explorertest.Diff("step-wise conditions", p.Keys(ref), p.Keys(steps))...)
		run.Oracle, classes = steps, steps.Classes.Values
	}
	if got.Stats.Complete > classes {
		run.Diffs = append(run.Diffs, fmt.Sprintf("redundancy: %d complete executions for %d classes", got.Stats.Complete, classes))
	}
	if got.Stats.Complete < classes {
		run.Diffs = append(run.Diffs, fmt.Sprintf("missing classes: %d complete executions for %d classes", got.Stats.Complete, classes))
	}
	return run
}

// vmcrOutcomes compares vmcr's result got on prog with the stateful
// reference explorer's outcomes and verdict (p's keys and model), not its
// count (Run.CandExec stays 0).
func vmcrOutcomes(ctx context.Context, prog *ir.Program, p explorertest.Pair, got *ncmc.Result) explorertest.Run {
	o := p.Oracle
	o.Explorer, o.MaxExecutions, o.Classes = "stateful", 0, false
	st, err := ncmc.Verify(ctx, prog, o)
	if err != nil {
		return explorertest.Run{Diffs: []string{"stateful reference error: " + err.Error()}}
	}
	if st.Stopped != "" {
		return explorertest.Run{Skipped: "oracles over their bounds (" + st.Stopped + ")"}
	}
	run := explorertest.Run{Cand: got, CandTime: got.Elapsed, OracleTime: st.Elapsed}
	if got.Verdict != st.Verdict {
		run.Diffs = append(run.Diffs, fmt.Sprintf("verdict: vmcr %s (%s), stateful reference %s (%s)", got.Verdict, got.Reason, st.Verdict, st.Reason))
	}
	run.Diffs = append(run.Diffs, explorertest.Diff("vmcr", p.Keys(st), p.Keys(got))...)
	return run
}

// TestVMCRDifferential: 400 generated SC programs (200 with -short, 2000
// with -long or make test-long).
func TestVMCRDifferential(t *testing.T) {
	// the default run of make test stays under 15 minutes
	vmcrDiff(t, "sc", explorertest.Size(uint64(*vmcrN), 400, 200, 2000))
}

// TestVMCRDifferentialSB: 60 generated programs under tso and 60 under
// pso (30 with -short, 2000 each with -long or make test-long): the store-buffer
// commit scheme against the reference explorer, which interleaves flushes.
// Two of three programs come from explorertest.SBProgram (store buffering shapes),
// the third from progen with the knobs of explorertest.SBConfig.
func TestVMCRDifferentialSB(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrSBN), 60, 30, 2000)
	for _, m := range []string{"tso", "pso"} {
		t.Run(m, func(t *testing.T) { vmcrDiff(t, m, n) })
	}
}

// TestVMCRDifferentialFailures: generated programs dense in assertions
// (several threads that can fail in one value class, failures in loops
// and lock sections, deadlocks), 30 per model under sc, tso and pso (10
// with -short, 1000 with -long): every first failure and the state right
// after it (Options.Failures) against the reference explorer.
func TestVMCRDifferentialFailures(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrFN), 30, 10, 1000)
	for _, m := range []string{"sc", "tso", "pso"} {
		t.Run(m, func(t *testing.T) { vmcrDiffGen(t, m, n, failConfig) })
	}
}

// TestVMCRDifferentialSections: generated sc programs with atomic
// sections (vmcr explores them as critical sections of a hidden mutex,
// ir/seclock), 100 plain and 30 dense in assertions (50 and 15 with
// -short, 1000 and 300 with -long): outcomes, verdict and one complete
// execution per class against the reference explorer, which runs the
// sections as such.
func TestVMCRDifferentialSections(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrAN), 100, 50, 1000)
	t.Run("plain", func(t *testing.T) { vmcrDiffGen(t, "sc", n, sectionConfig) })
	t.Run("failures", func(t *testing.T) {
		vmcrDiffGen(t, "sc", max(n*3/10, 1), func(seed uint64) progen.Config {
			cfg := failConfig(seed)
			cfg.Atomic = 3
			return cfg
		})
	})
}

// TestVMCRDifferentialConds: generated programs with condition variables
// (vmcr runs them step-wise, interp.CondSteps): 100 from progen and 100 of
// condProgram's waiters and signallers under sc, 50 small ones of
// condProgram under tso and 50 under pso, 30 from progen dense in
// assertions (half as many with -short, ten times as many with -long).
// Outcomes and verdict are compared with the reference explorer on the
// program as written, the complete executions with the classes of the
// step-wise program (vmcrCompareWith).
func TestVMCRDifferentialConds(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrCN), 100, 50, 1000)
	t.Run("plain", func(t *testing.T) { vmcrDiffGen(t, "sc", n, condConfig) })
	t.Run("shapes", func(t *testing.T) { vmcrDiffGen(t, "sc", n, condShapes) })
	for _, m := range []string{"tso", "pso"} {
		t.Run("shapes-"+m, func(t *testing.T) { vmcrDiffGen(t, m, max(n/2, 1), condShapesSB) })
	}
	t.Run("failures", func(t *testing.T) {
		vmcrDiffGen(t, "sc", max(n*3/10, 1), func(seed uint64) progen.Config {
			cfg := failConfig(seed)
			cfg.Conds, cfg.Cond = 1+int(seed%2), 3
			return cfg
		})
	})
}

// condShapes selects condProgram (waiters, signallers and tokens) instead
// of progen (vmcrDiffRun reads Conds = -k as condProgram with at most k
// threads); condShapesSB its small programs (the reference explorer
// interleaves flushes too).
func condShapes(uint64) progen.Config   { return progen.Config{Conds: -4} }
func condShapesSB(uint64) progen.Config { return progen.Config{Conds: -3} }

// condConfig: the default mix with condition variables.
func condConfig(seed uint64) progen.Config {
	cfg := progen.Default()
	cfg.Conds, cfg.Cond = 1+int(seed%2), 3
	return cfg
}

// sectionConfig: the default mix with atomic sections, and without locks
// in every other program (sections and accesses then meet only through
// the hidden mutex).
func sectionConfig(seed uint64) progen.Config {
	cfg := progen.Default()
	cfg.Atomic = 3
	if seed%2 == 0 {
		cfg.Lock = 0
	}
	return cfg
}

// failConfig: progen knobs for programs in which several threads fail.
func failConfig(seed uint64) progen.Config {
	cfg := progen.Default()
	cfg.MinWorkers, cfg.MaxWorkers = 2, 3
	cfg.MinOps, cfg.MaxOps = 2, 4
	cfg.Assert, cfg.Lock, cfg.Loop = 5, 2, 2
	if seed%2 == 0 {
		cfg.RMW, cfg.CAS, cfg.Await, cfg.Nondet = 0, 0, 0, 0
	}
	return cfg
}

// vmcrDiff compares vmcr with the reference explorer on n generated
// programs under model (explorertest.Harness).
func vmcrDiff(t *testing.T, model string, n uint64) { vmcrDiffGen(t, model, n, nil) }

// vmcrDiffGen is vmcrDiff with programs from progen with the knobs cfg
// gives for a seed (nil: the default mix).
func vmcrDiffGen(t *testing.T, model string, n uint64, cfg func(seed uint64) progen.Config) {
	sum, cl := vmcrDiffRun(t, model, n, cfg, vmcrCompare)
	t.Logf("%s: %d complete executions of vmcr for %d classes", model, sum.CandExec, cl.Values)
}

// vmcrDiffRun is vmcrDiffGen with the comparison cmp of one program: the
// harness's totals and the reference's classes summed over the programs
// compared.
func vmcrDiffRun(t *testing.T, model string, n uint64, cfg func(seed uint64) progen.Config,
	cmp func(prog *ir.Program, model string) explorertest.Run) (explorertest.Summary, ncmc.Classes) {
	var mu sync.Mutex
	var classes ncmc.Classes
	outcomesOnly := 0 // compared in outcomes and verdict only
	defer func() {
		if outcomesOnly > 0 {
			t.Logf("%s: %d of the programs compared in outcomes and verdict only (the step-wise program over the budget of the class count, or the program itself over the plain reference explorer's: against the stateful one)", model, outcomesOnly)
		}
	}()
	h := explorertest.Harness{Name: "vmcr", First: *vmcrSeed, N: n, Chunks: 4,
		Gen: func(seed uint64) (string, *ir.Program, error) {
			rng := rand.New(rand.NewPCG(seed, 0x6d6372))
			var src string
			switch {
			case cfg != nil && cfg(seed).Conds < 0:
				src = condProgram(rng, -cfg(seed).Conds) // condShapes
			case cfg != nil:
				src = progen.Generate(rng, cfg(seed))
			case model == "sc":
				src = progen.Generate(rng, progen.Default())
			case seed%3 != 0:
				src = explorertest.SBProgram(rng)
			default:
				src = progen.Generate(rng, explorertest.SBConfig(seed))
			}
			prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
			return src, prog, err
		},
		Compare: func(t *testing.T, seed uint64, prog *ir.Program) explorertest.Run {
			r := cmp(prog, model)
			if r.Oracle == nil && r.Cand != nil && r.Skipped == "" {
				mu.Lock()
				outcomesOnly++
				mu.Unlock()
			}
			if r.Oracle != nil && r.Skipped == "" {
				c := r.Oracle.Classes
				mu.Lock()
				classes.Values += c.Values
				classes.ReadChoices += c.ReadChoices
				classes.ReadValues += c.ReadValues
				mu.Unlock()
			}
			return r
		}}
	return h.Run(t), classes
}

// Every example and regression program agrees too, under sc, tso and pso.
func TestVMCRExamples(t *testing.T) {
	files, _ := filepath.Glob("../../ncmc/testdata/regress/*.cir")
	own, _ := filepath.Glob("testdata/regress/*.cir")
	ex, _ := filepath.Glob("../../examples/*.cir")
	files = append(append(files, own...), ex...)
	for _, model := range []string{"sc", "tso", "pso"} {
		t.Run(model, func(t *testing.T) { vmcrExamples(t, files, model) })
	}
}

func vmcrExamples(t *testing.T, files []string, model string) {
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := frontend.ParseCIR(f, src)
			if err != nil {
				t.Fatal(err)
			}
			if r := vmcrCompare(prog, model); len(r.Diffs) > 0 {
				t.Errorf("vmcr disagrees with the reference explorer:\n%s", strings.Join(r.Diffs, "\n"))
			}
		})
	}
}
