package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/svcomp"
)

// portfolioTimeout is verify --property's time limit when --timeout is not
// given: SV-COMP's CPU time limit per task (900 s).
const portfolioTimeout = 900 * time.Second

// usePortfolio reports whether verify --property runs the sweep's staged
// strategy (the default explorer under sc, no specs, no execution budget):
// the answers of `ncmc verify --property` (which BenchExec runs) are then
// those of `ncmc sweep`.
func (v *verifyCmd) usePortfolio() bool {
	return v.Property != "" && v.Explorer == "auto" && v.Model == "sc" && len(v.Spec) == 0 && v.MaxExecutions == 0
}

// portfolio checks --property with the sweep's stages (svcomp.Check: a
// PCT bug hunt beside the stateful reference explorer with thread
// symmetry, its unbounded-loops stage, DPOR and, for programs that spawn
// in a loop, the coverability explorer; an under-approximated translation
// for C constructs the exact one rejects, which can answer false but never
// true), prints the deciding stage's result, the stages' log and the
// SV-COMP answer line, and writes --witness for a false answer. prog is the
// program verify translated for the property, or nil if the exact
// translation rejected it.
func (v *verifyCmd) portfolio(e *env, prog *ir.Program) int {
	if v.Unroll <= 0 || v.MaxSteps <= 0 || v.Timeout < 0 {
		fmt.Fprintln(e.stderr, "ncmc: --unroll and --max-steps must be positive; --timeout must not be negative")
		return exitBadInput
	}
	name, _, err := svcomp.ReadPropertyFile(v.Property)
	if err != nil {
		fmt.Fprintf(e.stdout, "%s: UNKNOWN (%v)\n", v.File, err)
		return v.printAnswer(e, svcomp.Unknown, err.Error())
	}
	timeout := v.Timeout
	if timeout == 0 {
		timeout = portfolioTimeout
	}
	s := &sweepCmd{Timeout: timeout, Unroll: v.Unroll, MaxSteps: v.MaxSteps, Explorer: "auto", Model: "sc"}
	task := strings.TrimSuffix(filepath.Base(v.File), filepath.Ext(v.File))
	u := &sweepUnit{res: sweepResult{Task: task, File: v.File, Property: string(name)}, dataModel: v.DataModel, prog: prog}
	var log strings.Builder
	t0 := time.Now()
	gctx, stopGuard := context.WithCancel(e.ctx)
	defer stopGuard()
	s.guard = newMemGuard(gctx, memoryLimit(v.MaxMemory))
	verdict := s.solve(e.ctx, u, &log)
	res := portfolioResult(verdict, time.Since(t0))
	if v.JSON {
		if code := v.printJSON(e, res, verdict.Answer, verdict.Reason); code != 0 {
			return code
		}
	} else {
		printText(e.stdout, v, res)
		if !v.Quiet {
			fmt.Fprintf(e.stdout, "\nhow it was checked (the stages of ncmc sweep, %s in all):\n", time.Since(t0).Round(time.Millisecond))
			for _, line := range stageLog(log.String()) {
				fmt.Fprintln(e.stdout, "  "+line)
			}
			fmt.Fprintln(e.stdout)
		}
	}
	if v.Dot != "" && res.Graph != nil {
		if err := writeDOT(v.Dot, res); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	}
	if v.Witness != "" {
		if verdict.Answer == svcomp.False {
			v.writeWitness(e, res)
		} else {
			fmt.Fprintf(e.stderr, "ncmc: no witness written to %s: the answer is %s\n", v.Witness, verdict.Answer)
		}
	}
	return v.printAnswer(e, verdict.Answer, verdict.Reason)
}

// portfolioResult is the result verify prints for a verdict of the
// sweep's stages: the deciding stage's result, its verdict and reason
// replaced by the property's answer unless it is false (then it is the
// violating result with its counterexample as found).
func portfolioResult(v *svcomp.Verdict, elapsed time.Duration) *ncmc.Result {
	var res ncmc.Result
	if v.Result != nil {
		res = *v.Result
	} else {
		res = ncmc.Result{Model: "sc", Elapsed: elapsed}
	}
	if res.Explorer == "" || v.Explorer != "" {
		res.Explorer = v.Explorer
	}
	if res.Explorer == "" {
		res.Explorer = "sweep stages"
	}
	switch v.Answer {
	case svcomp.False:
		if res.Verdict != ncmc.Violation {
			res.Verdict, res.Reason = ncmc.Violation, v.Reason
		}
		return &res
	case svcomp.True:
		res.Verdict = ncmc.Verified
	default:
		res.Verdict = ncmc.Unknown
	}
	res.Reason, res.Counterexample, res.ViolationPos = v.Reason, nil, ir.Pos{}
	return &res
}

// stageLog is the sweep's log of one task without the counterexamples it
// contains (verify prints the counterexample once, above it).
func stageLog(log string) []string {
	var out []string
	skip := false
	for _, line := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		switch {
		case line == "counterexample:":
			skip = true
			out = append(out, "counterexample: (above)")
		case skip && strings.TrimSpace(line) == "":
			skip = false
			out = append(out, line)
		case !skip:
			out = append(out, line)
		case !strings.HasPrefix(line, "  "):
			// The counterexample ends at a line that is not a step.
			skip = false
			out = append(out, line)
		}
	}
	return out
}
