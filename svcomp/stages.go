package svcomp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

// A Stage is one step of the staged strategy (Solve).
type Stage struct {
	// Name names the stage in logs and in disagreements.
	Name string
	// Doc says in one line what the stage does.
	Doc string
	// Beside: the stage runs in parallel with the stages after it; else
	// it is part of the main line, whose stages run one after another.
	Beside bool
	// Share is the part of the time limit the stage may use, counted from
	// the start (0: all of it).
	Share float64
	// May lists the answers the stage may give; others are ignored.
	May []Answer
	// Auto: only with the default explorer (Limits.Explorer "auto").
	Auto bool
	// Applies reports whether the stage applies to a program (nil: always).
	Applies func(*ir.Program) bool
	// When reports, for a main-line stage, whether it runs after the main
	// line's outcome so far (nil: always).
	When func(prev *Outcome) bool
	// Run runs the stage; nil means it established nothing new.
	Run func(ctx context.Context, r *StageRun) *Outcome
}

// may reports whether a is among the answers s may give.
func (s Stage) may(a Answer) bool {
	for _, m := range s.May {
		if m == a {
			return true
		}
	}
	return false
}

// Stages returns the staged strategy for p, in order (see Solve for how
// they run and how their answers are reconciled).
func Stages(p Property) []Stage {
	switch p {
	case UnreachCall:
		return []Stage{stageHunt, stageDPOR, stageCoverability, stageStateful, stageUnbounded, stageLastHunt}
	case NoDataRace:
		return []Stage{stageCoverability, stageStateful, stageUnbounded}
	case ValidMemSafety, ValidMemCleanup:
		// leaks are checked by the stateful reference explorer only
		return []Stage{stageStateful, stageUnbounded}
	}
	return nil
}

// The stages. For unreach-call a bug hunt (PCT) runs beside the
// exhaustive stages for the first tenth of the time: it finds shallow bugs
// in programs too big to explore (and stops the other stages when it
// does), while a program the exhaustive stages settle quickly is not kept
// waiting for it. What the exhaustive stages leave at the end is again for
// the bug hunt.
var (
	stageHunt = Stage{Name: "pct", Beside: true, Share: 0.1, May: []Answer{False},
		Doc: "a PCT bug hunt (randomised, loop bound at least 64): a run that calls the error function is a real execution",
		Run: runHunt}
	// It proves programs the stateful explorer cannot finish
	// (workstealqueue_mutex-2), and the stateful explorer those it cannot
	// (qw2004_variant, spin loops).
	stageDPOR = Stage{Name: "dpor", Beside: true, Auto: true, May: []Answer{True, False},
		Doc: "the ncmc explorer without specs (source-set DPOR for SC, checked against the reference explorer by TestDPORDifferential); stops at its first bound hit",
		Run: runDPOR}
	// For programs that spawn threads in a loop (unboundedly many): the
	// only stage that can show safety or race freedom for any number of
	// threads.
	stageCoverability = Stage{Name: "coverability", Beside: true, Auto: true, May: []Answer{True},
		Doc:     "the Karp-Miller construction over interchangeable threads (explore/coverability), which only ever answers true",
		Applies: func(p *ir.Program) bool { ok, _ := ncmc.CoverabilityApplies(p); return ok },
		Run:     runCoverability}
	stageStateful = Stage{Name: "stateful", May: []Answer{True, False},
		Doc: "the stateful reference explorer with thread symmetry; stops at its first bound hit (unless main spawns threads in a loop)",
		Run: runStateful}
	stageUnbounded = Stage{Name: "stateful-unbounded", May: []Answer{True, False},
		Doc:  "the stateful explorer again without the default loop bound: the state cache ends finite-state loops",
		When: afterBoundHit,
		Run:  runUnbounded}
	stageLastHunt = Stage{Name: "pct", May: []Answer{False},
		Doc:  "the bug hunt again for the time the exhaustive stages leave",
		When: func(prev *Outcome) bool { return prev.err == nil || errors.Is(prev.err, errTime) },
		Run:  runLastHunt}
)

// errTime: a stage had no time left.
var errTime = errors.New("time limit reached")

// job is one Solve: the program, the property and the options of the
// main line, shared by its stages.
type job struct {
	prog  *ir.Program
	p     Property
	lim   Limits
	start time.Time
	log   io.Writer
	base  ncmc.Options // the options the stages start from
	main  ncmc.Options // the main line's options, changed by its stages
}

func newJob(prog *ir.Program, p Property, lim Limits, log io.Writer) *job {
	j := &job{prog: prog, p: p, lim: lim, start: time.Now(), log: log}
	opts := ncmc.Options{Unroll: lim.Unroll, MaxSteps: lim.MaxSteps, Workers: 1, Races: p == NoDataRace, Leaks: p.Leaks()}
	switch lim.Explorer {
	case "auto", "":
		// The sweep's own choice, independent of verify's default: the
		// stateful reference explorer is complete and cuts finite-state
		// spin loops; thread symmetry merges states that differ only by
		// which of several identical threads is where (programs that
		// cannot observe thread identity only).
		opts.Explorer, opts.StateCache, opts.Symmetry = "reference", true, true
	default:
		opts.Explorer = lim.Explorer
	}
	if opts.Races && opts.Explorer == "mcr" {
		opts.Explorer, opts.StateCache = "reference", true
		fmt.Fprintln(log, "data races are checked with the stateful reference explorer (mcr does not detect them)")
	}
	j.base, j.main = opts, opts
	return j
}

// applies reports whether st runs for this job.
func (j *job) applies(st Stage) bool {
	if st.Auto && j.lim.Explorer != "auto" && j.lim.Explorer != "" {
		return false
	}
	return st.Applies == nil || st.Applies(j.prog)
}

// end is the deadline of st.
func (j *job) end(st Stage) time.Time {
	if st.Share > 0 && st.Share < 1 {
		return j.start.Add(time.Duration(float64(j.lim.Timeout) * st.Share))
	}
	return j.start.Add(j.lim.Timeout)
}

// A StageRun is what a stage's Run works with.
type StageRun struct {
	job *job
	// End is the stage's deadline.
	End time.Time
	// Log receives the stage's log.
	Log io.Writer
	// Prev is the main line's outcome so far (nil for a Beside stage).
	Prev *Outcome
}

// Program is the program being checked.
func (r *StageRun) Program() *ir.Program { return r.job.prog }

// Property is the property being checked.
func (r *StageRun) Property() Property { return r.job.p }

// runHunt is stage pct beside the others.
func runHunt(ctx context.Context, r *StageRun) *Outcome {
	if res := r.bugHunt(ctx); res != nil {
		return &Outcome{Stage: "pct", Answer: False, Reason: res.Reason, Explorer: "pct", Result: res}
	}
	return nil
}

// runLastHunt is stage pct after the exhaustive stages (the main line
// reaches it only while it has no answer).
func runLastHunt(ctx context.Context, r *StageRun) *Outcome { return runHunt(ctx, r) }

// bugHunt runs PCT (randomised bug finding, ncmc.Test) until r.End, with
// a loop bound of at least 64, and returns a violating result if a run
// violates the property (a real execution: the answer false is sound), or
// nil.
func (r *StageRun) bugHunt(ctx context.Context) *ncmc.Result {
	j, log := r.job, r.Log
	topts := ncmc.TestOptions{Strategy: ncmc.StrategyPCT, Runs: 1 << 30, Unroll: max(j.lim.Unroll, 64), MaxSteps: j.lim.MaxSteps}
	for _, keep := range []bool{false, true} {
		topts.Timeout, topts.KeepGoing = time.Until(r.End), keep
		if topts.Timeout <= 0 {
			return nil
		}
		fmt.Fprintf(log, "\nstage pct: bug hunt with PCT (unroll %d, keep going %v), %s left\n", topts.Unroll, keep, topts.Timeout.Round(time.Millisecond))
		if ctx.Err() != nil {
			fmt.Fprintln(log, "pct: stopped before it started")
			return nil
		}
		tr, err := ncmc.Test(ctx, j.prog, topts)
		if err != nil {
			fmt.Fprintln(log, err)
			return nil
		}
		fmt.Fprintf(log, "pct: %d runs, %s\n", tr.Stats.Executions, tr.Reason)
		if !tr.BugFound {
			return nil
		}
		if j.p.Violates(tr.Kind, tr.Reason) {
			res := huntResult(tr, tr.Reason)
			res.Kind, res.Counterexample, res.ViolationPos, res.Graph = tr.Kind, tr.Counterexample, tr.ViolationPos, tr.Graph
			if len(tr.Counterexample) > 0 {
				fmt.Fprintln(log, "\ncounterexample:")
				WriteTrace(log, tr.Counterexample)
			}
			return res
		}
		for _, o := range tr.Outcomes {
			if j.p.Violates("", o.Violation) {
				fmt.Fprintf(log, "pct: a run calls the error function: %s\n", o.Violation)
				return huntResult(tr, o.Violation)
			}
		}
	}
	return nil
}

// huntResult is the violating result of a bug hunt, as an explorer's.
func huntResult(tr *ncmc.TestResult, reason string) *ncmc.Result {
	return &ncmc.Result{Verdict: ncmc.Violation, Reason: reason, Model: "sc", Explorer: "pct", Stats: tr.Stats, Elapsed: tr.Stats.Elapsed}
}

// runStateful is the first stage of the main line: the stateful reference
// explorer (or Limits.Explorer). It stops at its first bound hit: from
// then on it cannot answer true, and stage stateful-unbounded explores all
// it would and more with the time left (ring_2w1r-1 spent 44 of its 54 s
// here after the first hit; the unbounded stage needs about 55 s to verify
// it). Not when main spawns threads in a loop: the bounded exploration is
// then the way to find a bug with a few threads (an endless spawning loop
// makes the unbounded stage's state space infinite), and the coverability
// stage the way to prove there is none.
func runStateful(ctx context.Context, r *StageRun) *Outcome {
	j := r.job
	opts := &j.main
	runCtx := ctx
	boundStop := false
	cancel := func() {}
	if opts.Explorer == "reference" && opts.StateCache && !ncmc.SpawnsInLoop(j.prog) {
		runCtx, cancel = context.WithCancel(ctx)
		opts.ProgressEvery = time.Nanosecond // after every execution
		opts.Progress = func(st ncmc.Stats) {
			if st.BoundHits > 0 && !boundStop {
				boundStop = true
				cancel()
			}
		}
	}
	res, err := r.verify(runCtx, "1")
	cancel()
	opts.Progress, opts.ProgressEvery = nil, 0
	if boundStop && err == nil && res.Verdict == ncmc.Unknown {
		fmt.Fprintln(r.Log, "stage 1 stopped at its first bound hit")
	}
	out := r.finish("stateful", res, err)
	out.boundStop = boundStop
	return out
}

// afterBoundHit: stage stateful-unbounded runs when the first stage hit a
// loop bound (and was not cut short by a budget other than its own stop).
func afterBoundHit(prev *Outcome) bool {
	res := prev.Result
	return prev.Stage == "stateful" && prev.err == nil && res != nil &&
		(res.Stopped == "" || prev.boundStop) && res.Stats.BoundHits > 0
}

// runUnbounded explores again without the default loop bound; the state
// cache cuts runs that come back to a state seen before, so finite-state
// loops end without unrolling.
func runUnbounded(ctx context.Context, r *StageRun) *Outcome {
	opts := &r.job.main
	if opts.Explorer != "reference" || !opts.StateCache {
		return nil
	}
	opts.UnboundedLoops, opts.KeepGoing = true, false
	fmt.Fprintf(r.Log, "\nloop bound hit (%s): exploring again with unbounded loops\n", r.Prev.Result.Reason)
	res, err := r.verify(ctx, "2")
	if err != nil {
		fmt.Fprintln(r.Log, err)
		res = r.Prev.Result
	}
	return r.finish("stateful-unbounded", res, nil)
}

// verify runs the main line's explorer for one stage until r.End. An mcr
// that fails gives way to the stateful reference explorer; a first
// violation of another kind than the property's (a failed assert(), a
// deadlock, a runtime error) makes it explore on, collecting every
// outcome.
func (r *StageRun) verify(ctx context.Context, stage string) (*ncmc.Result, error) {
	j, log := r.job, r.Log
	opts := &j.main
	opts.Timeout = time.Until(r.End)
	if opts.Timeout <= 0 {
		return nil, errTime
	}
	fmt.Fprintf(log, "stage %s: explorer %s (state cache %v, symmetry %v), unroll %s, max-steps %d, races %v, keep going %v, %s left\n",
		stage, opts.Explorer, opts.StateCache, opts.Symmetry, unrollText(*opts), opts.MaxSteps, opts.Races, opts.KeepGoing, opts.Timeout.Round(time.Millisecond))
	res, err := ncmc.Verify(ctx, j.prog, *opts)
	if err != nil && opts.Explorer == "mcr" {
		fmt.Fprintf(log, "mcr failed (%v): using the stateful reference explorer\n", err)
		opts.Explorer, opts.StateCache, opts.Timeout = "reference", true, time.Until(r.End)
		if opts.Timeout <= 0 {
			return nil, errTime
		}
		res, err = ncmc.Verify(ctx, j.prog, *opts)
	}
	if err == nil && res.Verdict == ncmc.Violation && !j.p.Violates(res.Kind, res.Reason) {
		fmt.Fprintf(log, "first violation: %s; exploring on\n", res.Reason)
		opts.KeepGoing, opts.Timeout = true, time.Until(r.End)
		if opts.Timeout > 0 {
			res, err = ncmc.Verify(ctx, j.prog, *opts)
		}
	}
	if err == nil {
		logResult(log, res)
	}
	return res, err
}

// finish is the outcome of a main-line stage's result (or error).
func (r *StageRun) finish(stage string, res *ncmc.Result, err error) *Outcome {
	j := r.job
	out := &Outcome{Stage: stage, Explorer: explorerText(j.main), err: err, Answer: Unknown}
	switch {
	case errors.Is(err, errTime):
		out.Reason = fmt.Sprintf("time bound %s hit", j.lim.Timeout)
	case err != nil:
		fmt.Fprintln(r.Log, err)
		out.Reason = "checker error: " + err.Error()
	default:
		out.Result = res
		out.Answer, out.Reason = AnswerFor(res, j.p)
		if out.Answer == Unknown && strings.HasPrefix(out.Reason, "time bound") {
			out.Reason = fmt.Sprintf("time bound %s hit", j.lim.Timeout)
		}
	}
	return out
}

// runDPOR is stage dpor: the ncmc explorer without specs (plain DPOR for
// SC: no state cache, no symmetry). Its result answers the property if a
// violating execution calls the error function (a real execution: false
// is sound), or if every execution was explored with no bound hit and no
// budget stop (true). It stops its search at the first loop or step bound
// hit, after which it could only answer false, which the bug hunts and the
// stateful explorer find as well.
func runDPOR(ctx context.Context, r *StageRun) *Outcome {
	res := r.dpor(ctx)
	if res == nil {
		return nil
	}
	a, why := AnswerFor(res, r.job.p)
	return &Outcome{Stage: "dpor", Answer: a, Reason: why, Explorer: "ncmc", Result: res}
}

// dpor is the search of stage dpor: its answering result, or nil.
func (r *StageRun) dpor(ctx context.Context) *ncmc.Result {
	j, log := r.job, r.Log
	opts := j.base
	opts.Explorer, opts.StateCache, opts.Symmetry, opts.UnboundedLoops, opts.Races = "ncmc", false, false, false, false
	for _, keep := range []bool{false, true} {
		opts.KeepGoing, opts.Timeout = keep, time.Until(r.End)
		if opts.Timeout <= 0 {
			return nil
		}
		dctx, cancel := context.WithCancel(ctx)
		boundHit := false
		opts.ProgressEvery = time.Nanosecond // after every execution (0 means the default, 250 ms)
		opts.Progress = func(st ncmc.Stats) {
			if st.BoundHits > 0 && !boundHit {
				boundHit = true
				cancel()
			}
		}
		fmt.Fprintf(log, "stage dpor (beside the stateful stages): explorer ncmc (no specs: DPOR), unroll %s, max-steps %d, keep going %v, stops at the first bound hit, %s left\n",
			unrollText(opts), opts.MaxSteps, keep, opts.Timeout.Round(time.Millisecond))
		res, err := ncmc.Verify(dctx, j.prog, opts)
		cancel()
		if err != nil {
			fmt.Fprintln(log, err)
			return nil
		}
		logResult(log, res)
		a, _ := AnswerFor(res, UnreachCall)
		switch {
		case a == False:
			return res
		case a == True && !boundHit && res.Stopped == "" && res.Stats.BoundHits == 0:
			return res
		case boundHit:
			fmt.Fprintln(log, "dpor: a bound was hit: no answer true possible, stage over")
			return nil
		case res.Verdict == ncmc.Violation && res.Stopped == "" && !keep:
			// Another kind of violation came first: explore on.
			fmt.Fprintf(log, "first violation: %s; exploring on\n", res.Reason)
			continue
		}
		return nil
	}
	return nil
}

// runCoverability is stage coverability. Its result answers only when it
// is verified (every reachable state covered, no violation), or, with race
// detection (no-data-race), when no data race is reachable.
func runCoverability(ctx context.Context, r *StageRun) *Outcome {
	j, log := r.job, r.Log
	opts := j.base
	// base.Races (no-data-race): the stage answers whether a data race is
	// reachable; other violations do not matter then.
	opts.Explorer, opts.StateCache, opts.Symmetry, opts.UnboundedLoops, opts.KeepGoing = "coverability", false, false, true, false
	opts.Timeout = time.Until(r.End)
	if opts.Timeout <= 0 {
		return nil
	}
	fmt.Fprintf(log, "stage coverability (beside the stateful stages; main spawns threads in a loop): Karp-Miller over interchangeable threads, races %v, max-steps %d, %s left\n",
		opts.Races, opts.MaxSteps, opts.Timeout.Round(time.Millisecond))
	res, err := ncmc.Verify(ctx, j.prog, opts)
	if err != nil {
		fmt.Fprintln(log, err)
		return nil
	}
	logResult(log, res)
	if res.Verdict == ncmc.Verified || opts.Races && res.Kind == ncmc.RaceFree {
		return &Outcome{Stage: "coverability", Answer: True, Reason: res.Reason, Explorer: "coverability", Result: res}
	}
	return nil
}
