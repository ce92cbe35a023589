package ncmc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ncmc/explore/coverability"
	"ncmc/explore/graph"
	"ncmc/explore/mcrx"
	"ncmc/explore/reference"
	"ncmc/explore/trustx"
	"ncmc/explore/vmcrx"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
)

// Verify's choice of explorers, as data: plan turns the options into
// stages, runPlan runs them. Every rule about which explorer runs when is
// in this file; what an explorer supports is its Check (explorers.go).

// autoDoc describes the auto plan for help texts.
const autoDoc = "vmcr under sc, tso and pso (mcr where vmcr does not apply or its witness search gives up); the stateful explorer, with a note, for programs neither vmcr nor mcr supports (free, for one) and for --races; graph exploration under ra/rc11 (trust, or graph for programs with condition variables, trylock, atomic blocks or nondeterminism); ncmc with --spec; under sc, when main spawns threads in a loop, the bounded exploration for 10s (or a third of --timeout) and, when it hits a bound, then the coverability explorer for the time left (60s without --timeout); under sc, tso and pso, for programs with condition variables, the stateful explorer first for 10s (or a third of --timeout), then vmcr for the time left when it did not finish; under sc, tso and pso, when the exploration stopped at the default loop bound, the stateful explorer without that bound (its state cache ends finite-state loops) for the time left (30s without --timeout)"

// stage is one exploration of a plan.
type stage struct {
	explorer Explorer
	// note says why this explorer runs (Result.Note).
	note string
	// fallback, if set, runs instead when the explorer's Check answers
	// *Unsupported; its note is then the reason plus how.
	fallback *stage
	// when decides whether the stage runs, given the result so far (every
	// stage after the first has one), and merge combines the results.
	when  func(ctx context.Context, prev *Result) bool
	merge func(prev, cur *Result, start time.Time) *Result
	// timeout bounds the stage when Options.Timeout is 0.
	timeout time.Duration
	// share, if set, bounds the stage even under Options.Timeout: to
	// share, or a third of the timeout if that is longer, so that the
	// stages after it get the rest.
	share time.Duration
	// adjust, if set, changes the options of this stage only.
	adjust func(*Options)
}

// plan returns the stages Verify runs for prog under opts (normalized;
// opts is updated where a rule changes the options of every stage).
func plan(prog *ir.Program, opts *Options, model *memmodel.Model) ([]stage, error) {
	name := opts.Explorer
	if len(opts.Specs) > 0 {
		opts.Semantic = true
		if name == AutoExplorer {
			name = "ncmc"
		}
	}
	if name == "ncmc" {
		switch opts.NCMCRule {
		case "", "complete":
		case "thesis":
			name = "ncmc-thesis" // --ncmc-rule thesis is the old name
		default:
			return nil, fmt.Errorf("ncmc rule %q is not available (available: complete, thesis)", opts.NCMCRule)
		}
	}
	one := func(n, note string) ([]stage, error) {
		e, err := LookupExplorer(n)
		if err != nil {
			return nil, err
		}
		return []stage{{explorer: e, note: note}}, nil
	}
	switch name {
	case "ncmc", "ncmc-thesis", "dpor":
		return one(name, "")
	}
	if opts.Leaks != interp.LeaksIgnored {
		// leak checking looks at the final memory of every complete
		// execution: the stateful reference explorer's interleavings
		if model.Exec == memmodel.GraphOnly {
			return nil, fmt.Errorf("memory-leak checking is available under sc, tso and pso (not %s)", opts.Model)
		}
		if name != "reference" && name != "stateful" {
			return one("stateful", "memory-leak checking runs on the stateful reference explorer")
		}
	}
	if model.Exec == memmodel.GraphOnly {
		var notes []string
		switch name {
		case AutoExplorer, "reference", "graph", "trust":
		case "mcr":
			notes = append(notes, fmt.Sprintf("%s; explored %s by graph exploration (each consistent execution graph once)", mcrx.Models(), model.Name))
		default:
			return one(name, "") // its Check says why not
		}
		if opts.StateCache {
			notes = append(notes, "--state-cache does not apply to graph exploration and was ignored")
		}
		if name == "reference" || name == "graph" {
			return one("graph", joinNotes(notes...))
		}
		// trust where it applies; otherwise the graph explorer, and the
		// result says why
		return []stage{{explorer: trustx.Explorer{}, note: joinNotes(notes...),
			fallback: &stage{explorer: graph.Explorer{}, note: "explored with the graph explorer instead"}}}, nil
	}
	note := ""
	if opts.Races && name != "reference" && name != "stateful" && name != "coverability" {
		if model.Exec != memmodel.Interleaving {
			return nil, fmt.Errorf("data-race detection is available under sc, ra and rc11 (not %s)", opts.Model)
		}
		name, note = "stateful", "data-race detection runs on the stateful reference explorer"
	}
	if opts.Races && model.Exec != memmodel.Interleaving {
		return nil, fmt.Errorf("data-race detection is available under sc, ra and rc11 (not %s)", opts.Model)
	}
	mcr := stage{explorer: mcrx.Explorer{}}
	switch name {
	case AutoExplorer:
		// mcr where it applies; otherwise the stateful explorer, and the
		// result says why
		mcr.fallback = &stage{explorer: reference.Stateful{}, note: "explored with the stateful reference explorer instead"}
		if opts.Races || vmcrx.ModelUnsupported(model) != "" {
			return []stage{mcr}, nil
		}
		// under sc, tso and pso: vmcr (one execution per value class)
		// where it applies, mcr where it does not or where its witness
		// search gave up
		first := stage{explorer: vmcrx.Explorer{}, fallback: &mcr}
		retry := stage{explorer: mcrx.Explorer{}, fallback: mcr.fallback,
			when: func(ctx context.Context, prev *Result) bool {
				return prev.Explorer == "vmcr" && prev.Verdict == Unknown && prev.Kind == "search" && ctx.Err() == nil
			},
			merge: func(prev, cur *Result, start time.Time) *Result {
				cur.Note = joinNotes("vmcr stopped: "+prev.Reason+"; explored with mcr instead", cur.Note)
				cur.Elapsed = time.Since(start)
				cur.Stats.Elapsed = cur.Elapsed
				return cur
			}}
		// main spawns threads in a loop and the coverability explorer
		// applies (its stages below)
		km := coverability.SpawnsInLoop(prog)
		if km {
			km, _ = coverability.Applies(prog)
		}
		if interp.HasConds(prog) && !km {
			return condStages(first, retry), nil
		}
		if model.Exec != memmodel.Interleaving {
			return []stage{first, retry, unboundedStage()}, nil // the coverability explorer is sc only
		}
		// main spawns threads in a loop, so no bounded exploration can
		// answer verified; the coverability explorer may. The bounded
		// exploration gets AutoSpawnLoopTime (or a third of the timeout)
		// to find a violation; without a timeout the coverability
		// explorer gets AutoCoverabilityTime (its state space can be too
		// big to finish, e.g. a 32-bit counter).
		if km {
			first.share = AutoSpawnLoopTime
			mcr.share = AutoSpawnLoopTime // first's fallback
		}
		return []stage{first, retry, {explorer: coverability.Explorer{}, timeout: AutoCoverabilityTime,
			when: func(ctx context.Context, prev *Result) bool {
				if prev.Verdict != Unknown || prev.Stats.BoundHits == 0 || ctx.Err() != nil {
					return false
				}
				ok, _ := coverability.Applies(prog)
				return ok
			},
			merge: func(res, km *Result, start time.Time) *Result {
				if km.Verdict == Verified {
					km.Note = fmt.Sprintf("%s hit a bound (%s); main spawns threads in a loop, so the coverability explorer (Karp–Miller over interchangeable threads) checked the program for any number of threads", res.Explorer, res.Reason)
					km.Elapsed = time.Since(start)
					km.Stats.Elapsed = km.Elapsed
					return km
				}
				res.Note = joinNotes(res.Note, fmt.Sprintf("main spawns threads in a loop; the coverability explorer was tried too: %s (%s)", km.Verdict, km.Reason))
				res.Elapsed = time.Since(start)
				res.Stats.Elapsed = res.Elapsed
				return res
			}}, unboundedStage()}, nil
	case "vmcr":
		return []stage{{explorer: vmcrx.Explorer{}, note: note,
			fallback: &stage{explorer: reference.Stateful{}, note: "explored with the stateful reference explorer instead"}}}, nil
	case "mcr":
		mcr.fallback = &stage{explorer: reference.Explorer{}, note: "explored with the reference explorer instead"}
		return []stage{mcr}, nil
	}
	return one(name, note)
}

// condStages is the auto plan under sc, tso and pso for a program with
// condition variables: the stateful explorer first, for AutoCondTime (or
// a third of the timeout), as its state cache merges the many schedules
// of waits, signals and critical sections that reach the same state
// (vmcr explores each class of the step-wise program: pc.c with two
// producers and two consumers of two items, 16 stateful executions in
// 3 s against 77,712 vmcr classes in 41 s); then, when it did not
// finish, vmcr (first, with retry) for the time left; then the
// unbounded stage.
func condStages(first, retry stage) []stage {
	stateful := stage{explorer: reference.Stateful{}, share: AutoCondTime,
		note: "condition variables: the stateful explorer first"}
	first.when = func(ctx context.Context, prev *Result) bool {
		return prev.Explorer == "stateful" && prev.Verdict == Unknown && prev.Kind == "time" && ctx.Err() == nil
	}
	first.merge = func(prev, cur *Result, start time.Time) *Result {
		cur.Note = joinNotes(fmt.Sprintf("condition variables: the stateful explorer did not finish in its share (%s, %d executions); explored with vmcr instead", prev.Stats.Elapsed.Round(time.Millisecond), prev.Stats.Executions), cur.Note)
		cur.Elapsed = time.Since(start)
		cur.Stats.Elapsed = cur.Elapsed
		return cur
	}
	return []stage{stateful, first, retry, unboundedStage()}
}

// unboundedStage is the auto plan's last stage under sc, tso and pso: when
// the exploration stopped at the default loop bound (and nothing else),
// the stateful reference explorer explores again without that bound. Its
// state cache cuts every run that comes back to a state seen before (the
// loop counters are not part of the state then), so a loop that only
// cycles through finitely many states ends, and the answer covers every
// reachable state: verified, or a violation with its counterexample.
// Loops with an explicit bound keep it. Without a timeout it gets
// AutoUnboundedTime; when it does not finish (time, --max-steps: the loop
// keeps making new states), the first result stands, with a note.
func unboundedStage() stage {
	return stage{explorer: reference.Stateful{}, timeout: AutoUnboundedTime,
		adjust: func(o *Options) { o.StateCache, o.UnboundedLoops = true, true },
		when: func(ctx context.Context, prev *Result) bool {
			return prev.Verdict == Unknown && prev.Kind == "unroll" && ctx.Err() == nil
		},
		merge: func(res, un *Result, start time.Time) *Result {
			if un.Verdict != Unknown {
				un.Note = joinNotes(fmt.Sprintf("%s hit the loop bound (%s); explored again without the default loop bound by the stateful explorer, whose state cache cut every run that came back to a state seen before, so every reachable state was covered", res.Explorer, res.Reason), un.Note)
				un.Elapsed = time.Since(start)
				un.Stats.Elapsed = un.Elapsed
				return un
			}
			res.Note = joinNotes(res.Note, fmt.Sprintf("the stateful explorer without the default loop bound was tried too: %s (%s)", un.Verdict, un.Reason))
			res.Elapsed = time.Since(start)
			res.Stats.Elapsed = res.Elapsed
			return res
		}}
}

// runPlan runs the stages of a plan.
func runPlan(ctx context.Context, prog *ir.Program, opts Options, model *memmodel.Model, stages []stage) (*Result, error) {
	start := time.Now()
	var res *Result
	for i, s := range stages {
		if i > 0 && !s.when(ctx, res) {
			continue
		}
		o := opts
		sctx := ctx
		var d time.Duration // the stage's own time bound (0: none)
		if s.share > 0 {
			d = max(s.share, opts.Timeout/3)
			if opts.Timeout > 0 {
				d = min(d, opts.Timeout)
			}
		} else if s.timeout > 0 && o.Timeout == 0 {
			d = s.timeout
		}
		if d > 0 {
			var cancel context.CancelFunc
			sctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
			o.Timeout = d
		}
		if s.adjust != nil {
			s.adjust(&o)
		}
		r, err := runStage(sctx, prog, o, s)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			res = r
		} else {
			res = s.merge(res, r, start)
		}
	}
	// Last, as the later stages explore further (without the loop bound
	// under sc, tso and pso: all outcomes, and violations that need many
	// iterations): whether what lies beyond the bounds can fail at all.
	v, why := beyondBounds(prog, opts, model, res, start)
	if v != nil {
		return v, nil
	}
	if why != "" {
		res.Note = joinNotes(res.Note, "a violation beyond the loop bound is not ruled out: "+why)
	}
	return res, nil
}

// runStage runs one stage, or its fallback when the explorer does not
// apply.
func runStage(ctx context.Context, prog *ir.Program, opts Options, s stage) (*Result, error) {
	t, err := NewTask(prog, opts)
	if err != nil {
		return nil, err
	}
	var u *Unsupported
	if err := s.explorer.Check(t); s.fallback != nil && errors.As(err, &u) {
		f := *s.fallback
		f.note = joinNotes(s.note, u.Reason+"; "+f.note)
		return runStage(ctx, prog, opts, f)
	}
	res, err := Run(ctx, s.explorer, t)
	if err != nil {
		return nil, err
	}
	if s.note != "" {
		res.Note = joinNotes(s.note, res.Note)
	}
	return res, nil
}
