package vmcrx_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/explore/mcrx"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

// The vmcr differential harness without final states
// (Options.NoFinalStates, the default for C programs): vmcr has no
// observer of the final values, so it must explore exactly one complete
// execution per read-value vector and choices (Classes.ReadChoices of the
// plain reference explorer), reach the reference's verdict and, with
// --keep-going, every distinct violation; every outcome it reports is one
// of the reference's (state and violation), and the result says that its
// outcomes are partial whenever the program has globals.

var (
	vmcrRN  = flag.Int("vmcr.rn", 0, "generated programs in the vmcr differential test without final states under sc (0: 200, 100 with -short, 2000 with -long)")
	vmcrRSB = flag.Int("vmcr.rsbn", 0, "generated programs per model in the vmcr differential test without final states under tso and pso (0: 30, 15 with -short, 500 with -long)")
	vmcrRFN = flag.Int("vmcr.rfn", 0, "generated programs per model in the vmcr failure differential test without final states (0: 20, 10 with -short, 500 with -long)")
)

// violationKeys lists the distinct violation messages of r's outcomes.
func violationKeys(r *ncmc.Result) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range r.Outcomes {
		if o.Violation != "" && !seen[o.Violation] {
			seen[o.Violation] = true
			out = append(out, o.Violation)
		}
	}
	sort.Strings(out)
	return out
}

// vmcrCompareReads runs vmcr with Options.NoFinalStates and the plain
// reference explorer on prog under model, both with KeepGoing: the
// disagreements in verdict, violations and the number of complete
// executions, and every vmcr outcome that the reference lacks. Without
// KeepGoing vmcr must still reach the verdict (checked when the
// reference finds a violation: otherwise the two runs are the same).
func vmcrCompareReads(prog *ir.Program, model string) explorertest.Run {
	ctx := context.Background()
	budget := 100000
	if model == "tso" || model == "pso" {
		budget = 30000
	}
	cand := ncmc.Options{Explorer: "vmcr", Model: model, KeepGoing: true, NoFinalStates: true}
	got, err := ncmc.Verify(ctx, prog, cand)
	if err != nil {
		return explorertest.Run{Diffs: []string{"vmcr error: " + err.Error()}}
	}
	if got.Explorer != "vmcr" {
		return explorertest.Run{Skipped: "not explored by vmcr (" + got.Note + ")"}
	}
	ref, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: budget, Classes: true})
	if err != nil {
		return explorertest.Run{Diffs: []string{"reference error: " + err.Error()}}
	}
	if ref.Stopped != "" {
		return explorertest.Run{Skipped: "oracle over its bound (" + ref.Stopped + ")"}
	}
	run := explorertest.Run{Oracle: ref, Cand: got, OracleExec: ref.Stats.Executions, CandExec: got.Stats.Complete,
		OracleTime: ref.Elapsed, CandTime: got.Elapsed}
	if got.Verdict != ref.Verdict {
		run.Diffs = append(run.Diffs, fmt.Sprintf("verdict: vmcr %s (%s), reference %s (%s)", got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	if want := len(mcrx.ObservedLocs(prog)) > 0; got.OutcomesPartial != want {
		run.Diffs = append(run.Diffs, fmt.Sprintf("outcomes partial %v, want %v (the program has globals: %v)", got.OutcomesPartial, want, want))
	}
	if got.OutcomesPartial {
		// a sample of the outcomes, but every violation
		run.Diffs = append(run.Diffs, explorertest.Diff("vmcr", violationKeys(ref), violationKeys(got))...)
		in := map[string]bool{}
		for _, k := range explorertest.StrictKeys(ref) {
			in[k] = true
		}
		for _, k := range explorertest.StrictKeys(got) {
			if !in[k] {
				run.Diffs = append(run.Diffs, "vmcr has an outcome the reference does not: "+k)
			}
		}
	} else {
		run.Diffs = append(run.Diffs, explorertest.Diff("vmcr", explorertest.StrictKeys(ref), explorertest.StrictKeys(got))...)
	}
	if c := got.Stats.Complete; c != ref.Classes.ReadChoices {
		run.Diffs = append(run.Diffs, fmt.Sprintf("%d complete executions for %d classes of read values and choices", c, ref.Classes.ReadChoices))
	}
	if ref.Verdict == ncmc.Violation {
		cand.KeepGoing = false
		one, err := ncmc.Verify(ctx, prog, cand)
		switch {
		case err != nil:
			run.Diffs = append(run.Diffs, "vmcr without --keep-going: "+err.Error())
		case one.Verdict != ref.Verdict || one.Stats.Violations != 1:
			run.Diffs = append(run.Diffs, fmt.Sprintf("without --keep-going: vmcr %s with %d violations, reference %s", one.Verdict, one.Stats.Violations, ref.Verdict))
		}
	}
	return run
}

// vmcrDiffReads runs vmcrCompareReads on n generated programs under
// model (cfg as in vmcrDiffGen). The reference must have more classes
// with final states than without somewhere (wantFewer), so that the
// comparison shows the difference.
func vmcrDiffReads(t *testing.T, model string, n uint64, cfg func(seed uint64) progen.Config, wantFewer bool) {
	sum, cl := vmcrDiffRun(t, model, n, cfg, vmcrCompareReads)
	t.Logf("%s: %d complete executions of vmcr for %d classes of read values and choices (%d with final states)", model, sum.CandExec, cl.ReadChoices, cl.Values)
	if wantFewer && cl.ReadChoices >= cl.Values {
		t.Errorf("%s: the programs compared have %d classes with final states and %d without: nothing to tell them apart", model, cl.Values, cl.ReadChoices)
	}
}

// readsConfig is the default mix of generated programs under model, but
// on odd seeds main neither reads the globals after its joins nor runs
// statements of its own, so that final states no read observes, where
// the classes with and without final states differ, are common.
func readsConfig(model string) func(seed uint64) progen.Config {
	return func(seed uint64) progen.Config {
		cfg := progen.Default()
		if model != "sc" {
			cfg = explorertest.SBConfig(seed)
		}
		if seed%2 == 1 {
			cfg.FinalAssert, cfg.MainOps = false, 0
		}
		return cfg
	}
}

// TestVMCRDifferentialReads: 200 generated sc programs (100 with -short,
// 2000 with -long) explored without final states.
func TestVMCRDifferentialReads(t *testing.T) {
	vmcrDiffReads(t, "sc", explorertest.Size(uint64(*vmcrRN), 200, 100, 2000), readsConfig("sc"), true)
}

// TestVMCRDifferentialReadsSB: 30 generated programs per store-buffer
// model (15 with -short, 500 with -long) explored without final states
// (progen with explorertest.SBConfig's knobs).
func TestVMCRDifferentialReadsSB(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrRSB), 30, 15, 500)
	for _, m := range []string{"tso", "pso"} {
		t.Run(m, func(t *testing.T) { vmcrDiffReads(t, m, n, readsConfig(m), true) })
	}
}

// TestVMCRDifferentialReadsFailures: programs dense in assertions and
// deadlocks (failConfig), 20 per model (10 with -short, 500 with -long),
// explored without final states: the verdict and every distinct
// violation with one failure search per failing step (no observed values
// to branch on).
func TestVMCRDifferentialReadsFailures(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrRFN), 20, 10, 500)
	for _, m := range []string{"sc", "tso", "pso"} {
		t.Run(m, func(t *testing.T) { vmcrDiffReads(t, m, n, failConfig, false) })
	}
}

// TestVMCRExamplesReads: every example and regression program, without
// final states, under sc, tso and pso.
func TestVMCRExamplesReads(t *testing.T) {
	files, _ := filepath.Glob("../../ncmc/testdata/regress/*.cir")
	own, _ := filepath.Glob("testdata/regress/*.cir")
	ex, _ := filepath.Glob("../../examples/*.cir")
	files = append(append(files, own...), ex...)
	for _, model := range []string{"sc", "tso", "pso"} {
		t.Run(model, func(t *testing.T) {
			for _, f := range files {
				t.Run(filepath.Base(f), func(t *testing.T) {
					prog, err := frontend.LoadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					if r := vmcrCompareReads(prog, model); len(r.Diffs) > 0 {
						t.Errorf("vmcr without final states disagrees with the reference explorer:\n%s", strings.Join(r.Diffs, "\n"))
					}
				})
			}
		})
	}
}
