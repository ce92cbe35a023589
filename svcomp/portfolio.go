package svcomp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
)

// Limits bound one check of a (program, property) pair.
type Limits struct {
	// Timeout is the time limit of the whole check (all stages); it must
	// be positive.
	Timeout time.Duration
	// Unroll is the default loop bound of the bounded stages.
	Unroll int
	// MaxSteps is the number of visible steps allowed per execution.
	MaxSteps int
	// Explorer is the explorer of the main line: "auto" or "" (the staged
	// strategy of Stages, with the stages marked Auto), "reference" or
	// "mcr" (that explorer in the main line, only the stages not marked
	// Auto beside it; no-data-race always uses the stateful reference
	// explorer).
	Explorer string
	// Model is the memory model: "" or "sc" (SV-COMP's tasks are
	// sequentially consistent) for the staged strategy; under another
	// (tso, pso, ra, rc11) the program is translated for that model
	// (LoadModel, exactly: no under-approximated retry) and checked by
	// the explorer of Explorer alone under it (CheckExplorer, as `ncmc
	// verify --property --model`).
	Model string
}

// staged reports whether lim asks for the staged strategy (sc).
func (lim Limits) staged() bool { return lim.Model == "" || lim.Model == "sc" }

// Input is the task Check answers.
type Input struct {
	File      string   // the program: C (.c, .i) or CIR
	DataModel string   // ILP32 or LP64 for C ("": ILP32)
	Property  Property // the property to check
	// Prog is the program if the caller translated it already with Load
	// (exactly, for Property), else nil: Check translates it.
	Prog *ir.Program
}

// Verdict is the answer of Check or Solve.
type Verdict struct {
	Property Property
	Answer   Answer
	Reason   string
	// Stage names the stage whose answer it is (see Stages); "" if no
	// stage ran.
	Stage string
	// Explorer names the exploration the answer came from, as the sweep's
	// results show it: e.g. "reference+state-cache+symmetry", "pct",
	// "ncmc" (the dpor stage), "coverability".
	Explorer string
	// Result is the result of the deciding stage (nil if none): for False,
	// the violating result with its counterexample.
	Result *ncmc.Result
	// Approx is non-nil when the program was under-approximated: what the
	// translation left out (an answer True is then withheld).
	Approx []string
}

// Check answers in.Property for the program of in within lim: it
// translates the program (Load; C constructs the exact translation
// rejects are retried under-approximated, which can answer False but
// never True) and runs the staged strategy (Solve). It writes what it
// does to log (nil: nowhere). An internal error (a panic of an explorer)
// is answered Unknown. Check gives the answers of `ncmc sweep` and `ncmc
// verify --property`, except for their memory bound. Under a memory model
// other than sc (Limits.Model) it translates the program for that model
// and checks it with one explorer instead (CheckExplorer).
func Check(ctx context.Context, in Input, lim Limits, log io.Writer) (v *Verdict) {
	if log == nil {
		log = io.Discard
	}
	v = &Verdict{Property: in.Property, Answer: Unknown}
	defer func() {
		if p := recover(); p != nil {
			v.Answer, v.Reason = Unknown, fmt.Sprintf("internal error: %v", p)
			fmt.Fprintln(log, v.Reason)
		}
	}()
	prog := in.Prog
	var under []string // what an under-approximated translation left out
	if prog == nil {
		start := time.Now()
		var p *ir.Program
		var err error
		var ltext strings.Builder // the translation's log, written when it finished in time
		p, err = frontend.Bounded(ctx, lim.Timeout, func() (*ir.Program, error) {
			p, u, err := load(in, lim, &ltext)
			under = u
			return p, err
		})
		if errors.Is(err, frontend.ErrTimeBound) {
			v.Reason = fmt.Sprintf("time bound %s hit in the front end (translating the program)", lim.Timeout)
			if ctx != nil && ctx.Err() != nil {
				v.Reason = "stopped in the front end (translating the program)"
			}
			fmt.Fprintln(log, v.Reason)
			return v
		}
		fmt.Fprint(log, ltext.String())
		if err != nil {
			fmt.Fprintln(log, err)
			var un *frontend.Unsupported
			if errors.As(err, &un) {
				v.Reason = un.Reason()
				return v
			}
			v.Reason = "cannot read the program: " + firstLine(err.Error())
			return v
		}
		prog = p
		if lim.Timeout > 0 {
			lim.Timeout = max(lim.Timeout-time.Since(start), time.Millisecond)
		}
	}
	if !in.Property.Supported() {
		v.Reason = fmt.Sprintf("property %s is not supported (only unreach-call and no-data-race)", in.Property)
		fmt.Fprintln(log, v.Reason)
		return v
	}
	if !lim.staged() {
		return checkModel(ctx, prog, in, lim, log)
	}
	v = Solve(ctx, prog, in.Property, lim, log)
	v.Approx = under
	if under != nil && v.Answer == True {
		first := ""
		if len(under) > 0 {
			first = firstLine(under[0])
		}
		v.Answer = Unknown
		v.Reason = fmt.Sprintf("input under-approximated (%s): no violation among the explored inputs", first)
		fmt.Fprintln(log, "answer true withheld: "+v.Reason)
	}
	return v
}

// load translates the program of in (Load; C constructs the exact
// translation rejects are retried under-approximated), writing what it
// does to log; under lists what an under-approximated translation left out.
func load(in Input, lim Limits, log io.Writer) (prog *ir.Program, under []string, err error) {
	if !lim.staged() {
		prog, err = LoadModel(in.File, in.DataModel, in.Property, lim.Model)
		return prog, nil, err
	}
	prog, err = Load(in.File, in.DataModel, in.Property)
	if err == nil {
		return prog, nil, nil
	}
	var un *frontend.Unsupported
	if errors.As(err, &un) && IsC(in.File) {
		fmt.Fprintln(log, err)
	}
	ap, err2 := approx(in.File, in.DataModel, in.Property, err)
	if err2 != nil {
		return nil, nil, err
	}
	fmt.Fprintln(log, "\nunder-approximated translation:")
	for _, a := range ap.Approx {
		fmt.Fprintln(log, "  "+a)
	}
	fmt.Fprintln(log)
	return ap.Prog, ap.Approx, nil
}

// checkModel answers in.Property for prog under lim.Model (not sc) with
// the explorer of lim.Explorer alone (CheckExplorer).
func checkModel(ctx context.Context, prog *ir.Program, in Input, lim Limits, log io.Writer) *Verdict {
	v := &Verdict{Property: in.Property, Answer: Unknown, Stage: "explorer"}
	opts := ncmc.Options{Model: lim.Model, Explorer: lim.Explorer, Unroll: lim.Unroll, MaxSteps: lim.MaxSteps,
		Timeout: lim.Timeout, Workers: 1, NoFinalStates: IsC(in.File)}
	if opts.Explorer == "" {
		opts.Explorer = "auto"
	}
	fmt.Fprintf(log, "model %s: explorer %s alone (the staged strategy is sc's)\n", lim.Model, opts.Explorer)
	res, a, why, err := CheckExplorer(ctx, prog, opts, in.Property)
	if err != nil {
		v.Reason = firstLine(err.Error())
		fmt.Fprintln(log, v.Reason)
		return v
	}
	v.Answer, v.Reason, v.Result, v.Explorer = a, why, res, res.Explorer
	fmt.Fprintf(log, "%s: %s (%d executions, %s)\n", res.Explorer, res.Verdict, res.Stats.Executions, res.Reason)
	return v
}

// An Outcome is what one stage established.
type Outcome struct {
	Stage    string       // the stage's name
	Answer   Answer       // its answer
	Reason   string       // why
	Explorer string       // the exploration, as Verdict.Explorer
	Result   *ncmc.Result // its result, or nil
	err      error        // the checker error of a main-line stage, if any
	// boundStop: the first stateful stage stopped at its first bound hit.
	boundStop bool
}

// Solve runs the stages of Stages(p) on prog within lim and reconciles
// their answers. The rule, written once:
//
//   - stages run in the order listed; a stage marked Beside runs in
//     parallel with everything after it, the others (the main line) run
//     one after another until one answers, each only if its When allows;
//   - a Beside stage that answers stops the main line and the stages
//     started after it; an answer of the main line stops the Beside
//     stages still running;
//   - answers outside a stage's May are ignored;
//   - then the answers are reconciled, from the last Beside stage started
//     to the first, with the main line's answer (reconcile): an answer
//     beside none stands; two equal answers stand; two different answers
//     (the explorers disagree: one of them has a bug) give Unknown.
//
// A panic of a beside stage is logged and counts as no answer; one of the
// main line reaches the caller (Check turns it into Unknown).
func Solve(ctx context.Context, prog *ir.Program, p Property, lim Limits, log io.Writer) *Verdict {
	if log == nil {
		log = io.Discard
	}
	return newJob(prog, p, lim, log).solve(ctx, Stages(p))
}

// solve runs stages for j (Solve).
func (j *job) solve(ctx context.Context, stages []Stage) *Verdict {
	log := j.log
	type beside struct {
		st     Stage
		log    strings.Builder // the stage's own log, appended to the task's when it is done
		done   chan struct{}
		out    *Outcome
		cancel context.CancelFunc
	}
	var side []*beside
	inner := ctx
	for _, st := range stages {
		if !st.Beside || !j.applies(st) {
			continue
		}
		b := &beside{st: st, done: make(chan struct{})}
		var sctx context.Context
		sctx, b.cancel = context.WithCancel(inner)
		var stop context.CancelFunc
		inner, stop = context.WithCancel(inner)
		defer stop()
		side = append(side, b)
		go func() {
			defer close(b.done)
			defer b.cancel()
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(&b.log, "%s: internal error: %v\n", b.st.Name, p)
					b.out = nil
				}
			}()
			out := b.st.Run(sctx, &StageRun{job: j, End: j.end(b.st), Log: &b.log})
			if out != nil && out.Answer.Definite() && b.st.may(out.Answer) {
				b.out = out
				stop() // it answered: stop the main line and the stages started after it
			}
		}()
	}
	cur := j.mainLine(inner, stages)
	for i := len(side) - 1; i >= 0; i-- {
		b := side[i]
		stopped := false
		select {
		case <-b.done:
		default:
			if cur.Answer.Definite() {
				b.cancel()
				stopped = true
			}
		}
		<-b.done
		fmt.Fprintf(log, "\n%s", b.log.String())
		if stopped {
			fmt.Fprintf(log, "stage %s stopped: the other stages answered first\n", b.st.Name)
		}
		cur = reconcile(cur, b.out, log)
	}
	return &Verdict{Property: j.p, Answer: cur.Answer, Reason: cur.Reason, Stage: cur.Stage, Explorer: cur.Explorer, Result: cur.Result}
}

// mainLine runs the stages not marked Beside in order until one answers.
func (j *job) mainLine(ctx context.Context, stages []Stage) *Outcome {
	cur := &Outcome{Answer: Unknown, Reason: "no stage ran"}
	for _, st := range stages {
		if st.Beside || !j.applies(st) || (st.When != nil && !st.When(cur)) {
			continue
		}
		out := st.Run(ctx, &StageRun{job: j, End: j.end(st), Log: j.log, Prev: cur})
		if out == nil {
			continue
		}
		if out.Answer.Definite() && !st.may(out.Answer) {
			fmt.Fprintf(j.log, "stage %s answered %s, which it may not: ignored\n", st.Name, out.Answer)
			continue
		}
		cur = out
		if cur.Answer.Definite() {
			break
		}
	}
	return cur
}

// reconcile is the one rule for the answers of two stages: cur, the
// answer so far, and next, a stage's answer (nil or Unknown: none). An
// answer beside none stands; equal answers keep cur; different definite
// answers mean that one explorer is wrong: Unknown, saying which disagree.
func reconcile(cur, next *Outcome, log io.Writer) *Outcome {
	switch {
	case next == nil || !next.Answer.Definite():
		return cur
	case !cur.Answer.Definite():
		fmt.Fprintf(log, "answer from stage %s: %s\n", next.Stage, next.Answer)
		return next
	case cur.Answer == next.Answer:
		return cur
	}
	why := fmt.Sprintf("the explorers disagree: %s %s (%s), %s %s (%s)", cur.Stage, cur.Answer, cur.Reason, next.Stage, next.Answer, next.Reason)
	fmt.Fprintln(log, why)
	out := *cur
	out.Answer, out.Reason = Unknown, why
	return &out
}
