package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"ncmc/frontend"
	cfront "ncmc/frontend/c"
	"ncmc/hunt"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ncmc"
)

type testCmd struct {
	File        string        `arg:"" help:"Program to test (.cir)." type:"path"`
	Strategy    string        `help:"Search: ${strategies_help}." default:"pct" enum:"${strategies}"`
	Runs        int           `help:"Runs of pct and random (0: 1000); for cbdpor and chess the most executions over all bounds (0: no limit)." default:"0"`
	Seed        uint64        `help:"Random seed of pct and random: the same seed gives the same runs." default:"0"`
	Depth       int           `help:"PCT: the bug depth d to target (d-1 priority change points)." default:"2"`
	Steps       int           `help:"PCT: k, the most steps of a run (0: estimate from a first run)." default:"0"`
	Preemptions int           `help:"cbdpor/chess: the largest preemption bound (iterative deepening from 0)." default:"2"`
	Model       string        `help:"Memory model: ${operational_help} (cbdpor and chess: sc only)." default:"sc" enum:"${operational}"`
	Unroll      int           `help:"Default loop bound: a loop whose body runs more often stops the run with 'bound hit'." default:"8"`
	MaxSteps    int           `name:"max-steps" help:"Visible steps allowed per run before it counts as a bound hit." default:"100000"`
	MaxThreads  int           `name:"max-threads" help:"Threads one run may have, main included; a spawn beyond it is a bound hit." default:"1000"`
	ThreadSteps int           `name:"thread-steps" help:"Instructions one thread may execute per run before it stops with 'bound hit' (keeps spin loops from hanging a run)." default:"10000"`
	Timeout     time.Duration `help:"Wall-clock limit, e.g. 30s (0: none)." default:"0"`
	KeepGoing   bool          `name:"keep-going" help:"Go on after the first bug (counts how many runs hit a bug)."`
	Replay      string        `help:"Replay this schedule file (as printed with a found bug) on FILE, checking every step, instead of searching." type:"path"`
	Save        string        `name:"save-schedule" help:"Write the schedule of the first bug to this file." type:"path"`
	JSON        bool          `name:"json" help:"Print one JSON object instead of text."`
	Quiet       bool          `short:"q" help:"Print only the verdict line."`
}

// jsonTest is the --json output of ncmc test.
type jsonTest struct {
	File string `json:"file"`
	*hunt.Result
	TimeMS           float64 `json:"time_ms"`
	TimeToFirstBugMS float64 `json:"time_to_first_bug_ms,omitempty"`
	Location         string  `json:"location,omitempty"`
	Schedule         string  `json:"schedule,omitempty"`
}

func (c *testCmd) run(e *env) int {
	if !checkFlags(e.stderr, positive("--unroll", c.Unroll), positive("--max-steps", c.MaxSteps), positive("--max-threads", c.MaxThreads),
		positive("--thread-steps", c.ThreadSteps), positive("--depth", c.Depth), nonNegative("--runs", c.Runs),
		nonNegative("--steps", c.Steps), nonNegative("--preemptions", c.Preemptions), nonNegativeDuration("--timeout", c.Timeout)) {
		return exitBadInput
	}
	start := time.Now()
	prog, err := withFrontEndGC(func() (*ir.Program, error) {
		return frontend.Bounded(nil, c.Timeout, func() (*ir.Program, error) {
			return frontend.LoadFileWith(c.File, cfront.Options{}.ForModel(c.Model, false))
		})
	})
	if err == frontend.ErrTimeBound {
		reason := fmt.Sprintf("time bound %s hit in the front end (translating the program)", c.Timeout)
		if c.JSON {
			json.NewEncoder(e.stdout).Encode(map[string]any{"file": c.File, "verdict": ncmc.Unknown, "reason": reason, "runs": 0})
		} else {
			fmt.Fprintf(e.stdout, "%s: UNKNOWN (%s)\n", c.File, reason)
		}
		return exitUnknown
	}
	if err != nil {
		fmt.Fprintln(e.stderr, strings.TrimRight(err.Error(), "\n"))
		return exitBadInput
	}
	if c.Timeout > 0 {
		c.Timeout = max(c.Timeout-time.Since(start), time.Millisecond)
	}
	if c.Replay != "" {
		return c.replay(e, prog)
	}
	opts := hunt.Options{Strategy: c.Strategy, Model: c.Model, Runs: c.Runs, Seed: c.Seed,
		Depth: c.Depth, Steps: c.Steps, Preemptions: c.Preemptions, Unroll: c.Unroll,
		MaxSteps: c.MaxSteps, MaxThreads: c.MaxThreads, MaxThreadSteps: c.ThreadSteps, Timeout: c.Timeout, KeepGoing: c.KeepGoing}
	progress := e.stderrTerm && !c.JSON && !c.Quiet
	if progress {
		opts.Progress = func(s ncmc.Stats) {
			fmt.Fprintf(e.stderr, "\r\033[K%s: %s: %d runs, %d bugs, %s", c.File, c.Strategy, s.Executions, s.Violations, s.Elapsed.Round(100*time.Millisecond))
		}
	}
	res, err := hunt.Run(e.ctx, prog, opts)
	if progress {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	if c.Save != "" && res.Schedule != nil {
		if err := os.WriteFile(c.Save, []byte(res.Schedule.String()), 0o644); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	}
	if c.JSON {
		out := jsonTest{File: c.File, Result: res, TimeMS: ms(res.Elapsed)}
		if res.BugFound {
			out.TimeToFirstBugMS = ms(res.TimeToFirstBug)
			out.Schedule = res.Schedule.String()
		}
		if res.ViolationPos.IsValid() {
			out.Location = res.ViolationPos.String()
		}
		if err := json.NewEncoder(e.stdout).Encode(out); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	} else {
		c.printText(e.stdout, res)
	}
	switch res.Verdict {
	case ncmc.Violation:
		return exitViolation
	case ncmc.Verified:
		return exitVerified
	}
	return exitUnknown
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (c *testCmd) printText(w io.Writer, res *hunt.Result) {
	switch res.Verdict {
	case ncmc.Violation:
		fmt.Fprintf(w, "%s: BUG FOUND (%s)\n", c.File, res.Reason)
	case ncmc.Verified:
		fmt.Fprintf(w, "%s: VERIFIED (%s)\n", c.File, res.Guarantee)
	default:
		fmt.Fprintf(w, "%s: NO BUG FOUND (%s)\n", c.File, res.Reason)
	}
	if c.Quiet {
		return
	}
	if res.ViolationPos.IsValid() {
		fmt.Fprintf(w, "  at %s\n", res.ViolationPos)
	}
	s := res.Stats
	seed := ""
	if res.Strategy == hunt.StrategyPCT || res.Strategy == hunt.StrategyRandom {
		seed = fmt.Sprintf(", seed %d", res.Seed)
	}
	fmt.Fprintf(w, "strategy %s%s, model %s: %d runs (%d complete, %d blocked, %d bound hits, %d buggy) in %s\n",
		res.Strategy, seed, res.Model, s.Executions, s.Complete, s.Blocked, s.BoundHits, s.Violations, res.Elapsed.Round(time.Microsecond))
	if res.BugFound {
		fmt.Fprintf(w, "first bug: run %d, after %s\n", res.FirstBugRun, res.TimeToFirstBug.Round(time.Microsecond))
	}
	if p := res.PCT; p != nil {
		fmt.Fprintf(w, "PCT: n = %d threads, k = %d steps", p.Threads, p.Steps)
		if p.Estimated {
			fmt.Fprint(w, " (estimated from a first run")
			if p.Grown > 0 {
				fmt.Fprintf(w, "; %d run(s) were longer than the k they used", p.Grown)
			}
			fmt.Fprint(w, ")")
		}
		fmt.Fprintf(w, ", depth d = %d: per-run bound 1/(n·k^(d-1)) = %.4g\n", p.Depth, p.PerRun)
		if !res.BugFound {
			fmt.Fprintf(w, "PCT: P(missing a depth-%d bug) after %d PCT runs <= %.4g\n", p.Depth, p.PCTRuns, p.MissProb)
		}
	}
	for _, b := range res.Bounds {
		state := "complete"
		switch {
		case b.BugFound && !b.Complete:
			state = "stopped at the bug"
		case !b.Complete:
			state = "interrupted"
		case !b.Cut:
			state = "complete, the bound cut nothing (exhaustive)"
		}
		extra := ""
		if b.Redundant > 0 {
			extra = fmt.Sprintf(" (+%d sleep-blocked)", b.Redundant)
		}
		fmt.Fprintf(w, "  bound %d: %d executions%s, %d classes, %s, %s\n", b.Bound, b.Executions, extra, b.Classes,
			(time.Duration(b.Elapsed) * time.Microsecond).Round(time.Microsecond), state)
	}
	fmt.Fprintf(w, "guarantee: %s\n", res.Guarantee)
	if len(res.Counterexample) > 0 {
		fmt.Fprintln(w, "\ncounterexample:")
		printTrace(w, res.Counterexample)
	}
	if res.Schedule != nil {
		if c.Save != "" {
			fmt.Fprintf(w, "\nschedule written to %s (replay: ncmc test %s --replay %s)\n", c.Save, c.File, c.Save)
		} else {
			fmt.Fprintf(w, "\nschedule (save it to a file and replay: ncmc test %s --replay FILE):\n", c.File)
			fmt.Fprint(w, res.Schedule.String())
		}
	}
}

func (c *testCmd) replay(e *env, p *ir.Program) int {
	text, err := os.ReadFile(c.Replay)
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
		return exitBadInput
	}
	s, err := hunt.ParseSchedule(string(text))
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %s: %v\n", c.Replay, err)
		return exitBadInput
	}
	res, err := hunt.Replay(p, s)
	if err != nil {
		fmt.Fprintf(e.stderr, "ncmc: %s: %v\n", c.Replay, err)
		return exitBadInput
	}
	if c.JSON {
		out := struct {
			File     string             `json:"file"`
			Schedule string             `json:"schedule"`
			Result   string             `json:"result"`
			Steps    int                `json:"steps"`
			Trace    []interp.TraceStep `json:"counterexample"`
		}{c.File, c.Replay, res.Result, res.Steps, res.Trace}
		if err := json.NewEncoder(e.stdout).Encode(out); err != nil {
			fmt.Fprintf(e.stderr, "ncmc: %v\n", err)
			return exitBadInput
		}
	} else {
		fmt.Fprintf(e.stdout, "%s: replayed %s exactly (%d tokens, %d steps): %s\n", c.File, c.Replay, len(s.Steps), res.Steps, res.Result)
		if !c.Quiet {
			printTrace(e.stdout, res.Trace)
		}
	}
	switch {
	case res.Violation != "":
		return exitViolation
	case res.BoundHit != "" || strings.HasPrefix(res.Result, "blocked"):
		return exitUnknown
	}
	return exitVerified
}
