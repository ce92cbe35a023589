// Package mcrx drives maximal causality reduction (package mcr) on the
// interpreter: the mcr explorer, which runs the seeds mcr's encoding
// generates (in parallel workers) and turns each execution into an
// mcr.Trace, and the ncmc-thesis explorer, mcr under the NCMC thesis's
// scoped-read rule (thesis.go).
package mcrx

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/mcr"
	"ncmc/memmodel"
	"ncmc/seg"
	"ncmc/smt"
)

// unsupported says why the mcr explorer cannot handle prog under opts, or "".
func unsupported(prog *ir.Program, opts explore.Options) string {
	if m, err := memmodel.Lookup(opts.Model); err != nil || !m.Operational() {
		return fmt.Sprintf("mcr supports the %s models (asked: %s)", strings.Join(memmodel.Operational(), ", "), opts.Model)
	}
	for _, f := range prog.Funcs {
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.IWait, ir.ISignal, ir.IBroadcast:
				return fmt.Sprintf("mcr does not support condition variables yet (%s at %s)", f.Body[i].Op, f.Body[i].Pos)
			case ir.ITryLock:
				return fmt.Sprintf("mcr does not support trylock yet (at %s)", f.Body[i].Pos)
			case ir.IFree:
				return fmt.Sprintf("mcr does not support free (at %s)", f.Body[i].Pos)
			}
		}
	}
	return ""
}

// seedChooser replays per-thread choices of a seed and takes the first
// alternative beyond them.
type seedChooser struct {
	choices map[int32][]int
	used    map[int32]int
}

func (c *seedChooser) Choose(t int32, kind interp.ChoiceKind, n int) int {
	i := c.used[t]
	c.used[t]++
	if ks := c.choices[t]; i < len(ks) && ks[i] < n {
		return ks[i]
	}
	return 0
}

// runSeed replays seed sd, checking every step, then runs the default
// scheduler (the first enabled thread in creation order) to the end. A seed
// that assumed its pivot's atomic section ends with the pivot
// (mcr.Expect.LeavesAtomic) while the section stays open is infeasible: the
// error is mcr.ErrSectionOpen (wrapped), and the seed is dropped.
func runSeed(prog *ir.Program, names *interp.Names, cfg interp.Config, sd *mcr.Seed, trace bool) (*interp.Execution, error) {
	ch := &seedChooser{choices: sd.Choices, used: map[int32]int{}}
	x := interp.NewExecution(prog, names, cfg, ch, trace)
	x.CheckEnd()
	for i, st := range sd.Steps {
		a := interp.Action{T: st.T, Flush: st.Flush, Loc: st.Loc}
		if x.Finished() {
			return nil, fmt.Errorf("internal error: mcr replay diverged: the execution ended before step %d of %d (%s); seed: %s", i, len(sd.Steps), a, sd.Why)
		}
		ok := false
		for _, b := range x.Enabled() {
			if b == a {
				ok = true
				break
			}
		}
		if !ok {
			return nil, fmt.Errorf("internal error: mcr replay diverged: step %d (%s) is not enabled; seed: %s", i, a, sd.Why)
		}
		x.Step(a)
		if err := checkExpect(x, i, sd.Expect[i]); err != nil {
			return nil, fmt.Errorf("internal error: mcr replay diverged at step %d (%s): %v; seed: %s", i, a, err, sd.Why)
		}
		if sd.Expect[i].LeavesAtomic && x.AtomicThread() == a.T {
			return nil, fmt.Errorf("step %d (%s): %w; seed: %s", i, a, mcr.ErrSectionOpen, sd.Why)
		}
	}
	for !x.Finished() {
		x.Step(x.Enabled()[0])
	}
	return x, nil
}

func checkExpect(x *interp.Execution, i int, ex mcr.Expect) error {
	id := x.Log[i].Event
	if id.IsInit() {
		if ex.HasEvent {
			return fmt.Errorf("no event, expected %s", ex.Kind)
		}
		return nil
	}
	e := x.G.Event(id)
	if !ex.HasEvent {
		return fmt.Errorf("unexpected event %s", x.G.Label(e))
	}
	kindOK := e.Kind == ex.Kind || (ex.AnyWVal && (e.Kind == seg.KRead || e.Kind == seg.KRMW) && (ex.Kind == seg.KRead || ex.Kind == seg.KRMW))
	if !kindOK || e.Loc != ex.Loc || e.RVal != ex.RVal || (!ex.AnyWVal && e.WVal != ex.WVal) {
		want := seg.Event{Kind: ex.Kind, Loc: ex.Loc, RVal: ex.RVal, WVal: ex.WVal, Order: e.Order}
		return fmt.Errorf("got %s, expected %s", x.G.Label(e), x.G.Label(&want))
	}
	return nil
}

// traceOf turns an execution replayed from sd into an mcr.Trace.
func traceOf(x *interp.Execution, sd *mcr.Seed, final []int64) *mcr.Trace {
	tr := &mcr.Trace{G: x.G, Frozen: len(sd.Steps), FrozenChoices: map[int32]int{}, Complete: x.Complete(), FinalLocs: final, FrozenFinals: sd.Finals, Continues: x.Config().ContinueAfterViolation}
	for t, ks := range sd.Choices {
		tr.FrozenChoices[t] = len(ks)
	}
	tr.Steps = make([]mcr.Step, len(x.Log))
	for i, s := range x.Log {
		tr.Steps[i] = mcr.Step{T: s.Action.T, Flush: s.Action.Flush, Loc: s.Action.Loc, Event: s.Event, Atomic: s.Atomic, Fence: s.Fence}
		if s.RMW != nil && !s.Action.Flush {
			tr.Steps[i].WriteFor = s.RMW.WriteFor
			// A compare-and-swap that failed is a read that writes when it
			// reads another value.
			if e := x.G.Event(s.Event); e != nil && e.Kind == seg.KRead {
				tr.Steps[i].MayWrite = true
			}
		}
	}
	for _, w := range x.LockWaits() {
		tr.Waiting = append(tr.Waiting, mcr.Waiter{T: w.T, Mutex: w.Mutex,
			Lock: mcr.Expect{Kind: seg.KLock, HasEvent: true, Loc: w.Mutex, RVal: 0, WVal: w.Handle}})
	}
	switch x.Config().Exec() { // the one mapping from memmodel to mcr's model
	case memmodel.StoreBuffer:
		tr.Model = mcr.TSO
	case memmodel.StoreBufferPerLoc:
		tr.Model = mcr.PSO
	}
	for _, c := range x.Commits {
		tr.Commits = append(tr.Commits, mcr.Commit{Event: c.Event, Step: c.Step})
	}
	for _, c := range x.Choices {
		tr.Choices = append(tr.Choices, mcr.Choice{T: c.T, N: c.N, K: c.K, Step: c.Step})
	}
	return tr
}

// ObservedLocs lists the cells of globals that count in final outcomes.
func ObservedLocs(prog *ir.Program) []int64 {
	var locs []int64
	var walk func(block int, t *ir.Type, off int)
	walk = func(block int, t *ir.Type, off int) {
		switch t.Kind {
		case ir.TMutex, ir.TCond, ir.TVoid:
		case ir.TArray:
			for i := 0; i < t.Len; i++ {
				walk(block, t.Elem, off+i*t.Elem.Size())
			}
		case ir.TRecord:
			for _, f := range t.Record.Fields {
				walk(block, f.Type, off+f.Offset)
			}
		default:
			locs = append(locs, ir.MakePtr(block, off))
		}
	}
	for i, g := range prog.Globals {
		walk(i+1, g.Type, 0)
	}
	return locs
}

// mcrState is the work shared by the workers of one mcr exploration.
type mcrState struct {
	prog  *ir.Program
	names *interp.Names
	cfg   interp.Config
	opts  explore.Options
	final []int64
	// thesis: the generators apply the NCMC thesis's scoped-read rule
	// (thesisRule, thesis.go).
	thesis bool

	mu      sync.Mutex
	wake    *sync.Cond
	queue   []*mcr.Seed
	seen    map[string]bool
	active  int
	done    bool
	t       *explore.Task
	hooks   hooks
	cex     *mcr.Seed
	err     error
	stopped string
	stopKnd string
	replay  time.Duration
	gstats  mcr.Stats
	// Results are applied (outcomes counted, new seeds numbered and
	// queued) in seed order, whatever order the workers finish in, so that
	// counts, outcomes and counterexamples do not depend on --workers:
	// results holds the finished seeds not applied yet, applied is the
	// next seed number to apply.
	results     map[int]mcrResult
	applied     int
	nseeds      int // seeds numbered so far (the next seed's ID)
	nativeFails int
}

// mcrResult is a worker's result for one seed.
type mcrResult struct {
	sd    *mcr.Seed
	x     *interp.Execution
	seeds []mcr.Seed
	err   error
	// gs is the seed generation's work; nativeFail marks a native seed
	// whose replay failed (its parent's seeds were asked to Z3).
	gs         mcr.Stats
	nativeFail bool
	// stop, if set, ends the exploration once this result is applied (a
	// time bound hit while generating its seeds).
	stop, stopKind string
}

// next hands out the next seed, or nil when the exploration is over.
func (st *mcrState) next(ctx context.Context) *mcr.Seed {
	st.mu.Lock()
	defer st.mu.Unlock()
	for {
		if st.done {
			return nil
		}
		if err := ctx.Err(); err != nil {
			st.stop(explore.BudgetReason(err, st.opts), "time")
			return nil
		}
		if st.opts.MaxExecutions > 0 && st.t.Stats().Executions+st.active+len(st.results) >= st.opts.MaxExecutions && len(st.queue) > 0 {
			if st.active+len(st.results) == 0 {
				st.stop(fmt.Sprintf("execution bound %d hit", st.opts.MaxExecutions), "executions")
				return nil
			}
			st.wake.Wait()
			continue
		}
		if len(st.queue) > 0 {
			sd := st.queue[0]
			st.queue = st.queue[1:]
			st.active++
			return sd
		}
		if st.active == 0 {
			st.done = true
			st.wake.Broadcast()
			return nil
		}
		st.wake.Wait()
	}
}

func (st *mcrState) stop(reason, kind string) {
	if st.stopped == "" && !st.done {
		st.stopped, st.stopKnd = reason, kind
	}
	st.done = true
	st.wake.Broadcast()
}

// finish records the execution of sd and the seeds it produced, and applies
// the finished results in seed order.
func (st *mcrState) finish(r mcrResult, replay time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.active--
	defer st.wake.Broadcast()
	st.replay += replay
	st.results[r.sd.ID] = r
	for !st.done {
		r, ok := st.results[st.applied]
		if !ok {
			break
		}
		delete(st.results, st.applied)
		st.applied++
		st.apply(r)
	}
	if st.done {
		clear(st.results)
	}
	st.t.Stats().SMTQueries = st.gstats.Queries
	st.t.Stats().SMTTime = st.gstats.SMTTime
}

// apply counts the execution of one seed and queues its new seeds.
func (st *mcrState) apply(r mcrResult) {
	// Only applied results count, so that counts do not depend on how far
	// other workers got past a stop.
	st.gstats.Add(r.gs)
	if r.nativeFail {
		st.nativeFails++
		// The failed seed was never explored: its pivot's seed from Z3
		// (likely with the same frozen key) must not count as seen.
		delete(st.seen, r.sd.FrozenKey())
	}
	if r.err != nil {
		if st.err == nil {
			st.err = r.err
		}
		st.done = true
		return
	}
	if r.x != nil && st.t.Add(r.x) && st.cex == nil {
		st.cex = r.sd
		if !st.opts.KeepGoing {
			st.done = true
			return
		}
	}
	if r.stop != "" {
		st.stop(r.stop, r.stopKind)
		return
	}
	for i := range r.seeds {
		k := r.seeds[i].FrozenKey()
		if !st.seen[k] {
			st.seen[k] = true
			r.seeds[i].ID = st.nseeds
			st.nseeds++
			r.seeds[i].Parent = r.sd.ID
			st.queue = append(st.queue, &r.seeds[i])
		}
	}
	st.t.Stats().Seeds = st.nseeds
	st.t.Progress(len(st.queue))
}

// interruption returns why seed generation that failed with err was
// interrupted: ctx's error, or the deadline or cancellation error of a
// solver query whose timeout ran out with ctx's deadline a moment before
// ctx reports it (mcr.Generator.Seeds). It returns nil if err is nil or a
// genuine failure of the solver.
func interruption(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if e := ctx.Err(); e != nil {
		return e
	}
	for _, e := range []error{context.DeadlineExceeded, context.Canceled} {
		if errors.Is(err, e) {
			return e
		}
	}
	return nil
}

// replaySeed runs seed sd (runSeed). An infeasible seed (mcr.ErrSectionOpen:
// its pivot's atomic section stays open) gives no execution and no error:
// the seed of the same pivot with the section open covers those executions.
func (st *mcrState) replaySeed(sd *mcr.Seed) (*interp.Execution, error) {
	x, err := runSeed(st.prog, st.names, st.cfg, sd, false)
	if errors.Is(err, mcr.ErrSectionOpen) {
		if st.opts.Debug != nil {
			st.opts.Debug("seed #%d (parent #%d) dropped: %v", sd.ID, sd.Parent, err)
		}
		return nil, nil
	}
	return x, err
}

func (st *mcrState) worker(ctx context.Context) {
	gen, rule := st.generator(st.opts.Decider)
	defer gen.Close()
	for {
		sd := st.next(ctx)
		if sd == nil {
			return
		}
		before := gen.Stats
		t0 := time.Now()
		x, err := st.replaySeed(sd)
		replay := time.Since(t0)
		var seeds []mcr.Seed
		var zs mcr.Stats
		nativeFail := false
		stop, stopKind := "", ""
		if err != nil && sd.Native && sd.From != nil && interruption(ctx, err) == nil {
			// A native witness that does not replay: a decider bug,
			// counted; the parent's seeds are asked to Z3 instead.
			if st.opts.Debug != nil {
				st.opts.Debug("seed #%d (native) failed to replay: %v", sd.ID, err)
			}
			nativeFail = true
			x = nil
			seeds, zs, err = st.z3Seeds(ctx, sd.From)
		}
		sd.From = nil
		if err == nil && x != nil && !(violated(x) && !st.opts.KeepGoing) {
			tr := traceOf(x, sd, st.final)
			if rule != nil {
				rule.x, rule.tr, rule.sem, rule.err = x, tr, nil, nil
			}
			seeds, err = gen.Seeds(ctx, tr)
			if err == nil && rule != nil && rule.err != nil {
				err = rule.err
			}
			for i := range seeds {
				if seeds[i].Native {
					seeds[i].From = sd
					if st.hooks.corruptNative != nil {
						st.hooks.corruptNative(&seeds[i])
					}
				}
			}
			if cause := interruption(ctx, err); cause != nil {
				// Interrupted: this execution's seeds are lost, so the
				// exploration is incomplete.
				// The stop takes effect when the result is applied,
				// after its execution and queries are counted.
				err = nil
				seeds = nil
				stop, stopKind = explore.BudgetReason(cause, st.opts), "time"
			} else if errors.Is(err, smt.ErrTimeout) {
				// A query ran out of its own time bound (QueryTimeout):
				// a bound hit like the others, so the answer is unknown.
				err = nil
				seeds = nil
				stop, stopKind = fmt.Sprintf("SMT query time bound %s hit", queryTimeout(st.opts)), "smt"
			}
		}
		if st.opts.Debug != nil && x != nil {
			var sched []string
			for _, l := range x.Log {
				e := x.G.Event(l.Event)
				lab := "-"
				if e != nil {
					lab = x.G.Label(e)
				}
				sched = append(sched, fmt.Sprintf("t%s:%s", x.ThreadName(l.Action.T), lab))
			}
			st.opts.Debug("execution from seed #%d (parent #%d: %s) (%d frozen): %s", sd.ID, sd.Parent, sd.Why, len(sd.Steps), strings.Join(sched, "; "))
			for _, s := range seeds {
				st.opts.Debug("  new seed: %s (%d steps)", s.Why, len(s.Steps))
			}
		}
		gs := gen.Stats.Sub(before)
		gs.Add(zs)
		st.finish(mcrResult{sd: sd, x: x, seeds: seeds, err: err, gs: gs, nativeFail: nativeFail, stop: stop, stopKind: stopKind}, replay)
	}
}

// generator returns a seed generator using decider (Options.Decider), with
// the NCMC thesis's rule if the exploration uses it.
func (st *mcrState) generator(decider string) (*mcr.Generator, *thesisRule) {
	gopts := mcr.Options{QueryTimeout: st.opts.QueryTimeout, Decider: decider, Compare: st.opts.CompareDeciders, NativeBudget: st.hooks.nativeBudget}
	var rule *thesisRule
	if st.thesis {
		rule = &thesisRule{sb: explore.NewSemBuilder(st.prog, st.opts)}
		gopts.Scoped = rule
	}
	return mcr.NewGenerator(gopts), rule
}

// z3Seeds replays parent and asks Z3 alone for the seeds of its execution
// (the recovery from a native witness that failed to replay).
func (st *mcrState) z3Seeds(ctx context.Context, parent *mcr.Seed) ([]mcr.Seed, mcr.Stats, error) {
	x, err := st.replaySeed(parent)
	if err != nil || x == nil {
		return nil, mcr.Stats{}, err
	}
	gen, rule := st.generator("z3")
	defer gen.Close()
	tr := traceOf(x, parent, st.final)
	if rule != nil {
		rule.x, rule.tr = x, tr
	}
	seeds, err := gen.Seeds(ctx, tr)
	if err == nil && rule != nil && rule.err != nil {
		err = rule.err
	}
	return seeds, gen.Stats, err
}

// hooks are what tests change in the mcr explorer.
type hooks struct {
	// corruptNative alters every native seed the explorer generates (to
	// check that a native witness that fails replay is recovered from).
	corruptNative func(*mcr.Seed)
	// nativeBudget bounds the native decider's search (so that it answers
	// unknown and Z3 takes over more often).
	nativeBudget int
}

func exploreMCR(ctx context.Context, t *explore.Task, h hooks) error {
	cfg := t.Config()
	cfg.ContinueAfterViolation = true
	return runMCR(ctx, t, cfg, false, h)
}

// runMCR is the mcr exploration of t with interpreter configuration cfg;
// with thesis, under the NCMC thesis's scoped-read rule.
func runMCR(ctx context.Context, t *explore.Task, cfg interp.Config, thesis bool, h hooks) error {
	prog, opts, names := t.Prog, t.Opts, t.Names
	st := &mcrState{prog: prog, names: names, opts: opts, final: ObservedLocs(prog),
		cfg: cfg, thesis: thesis, t: t, hooks: h, seen: map[string]bool{}, results: map[int]mcrResult{}}
	st.wake = sync.NewCond(&st.mu)
	first := &mcr.Seed{Choices: map[int32][]int{}, Why: "initial execution"}
	st.queue = []*mcr.Seed{first}
	st.seen[first.FrozenKey()] = true
	st.nseeds = 1
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.worker(ctx)
		}()
	}
	wg.Wait()
	if st.err != nil {
		return st.err
	}
	if st.stopped == "" && ctx.Err() != nil && len(st.queue) > 0 {
		st.stopped, st.stopKnd = explore.BudgetReason(ctx.Err(), opts), "time"
	}
	st.t.Stats().Seeds = st.nseeds
	st.t.Stats().SMTQueries = st.gstats.Queries
	st.t.Stats().SMTTime = st.gstats.SMTTime
	st.t.Stats().Native = st.gstats.Native
	st.t.Stats().Z3Calls = st.gstats.Z3
	st.t.Stats().Fallbacks = st.gstats.Fallbacks
	st.t.Stats().NativeReplayFailures = st.nativeFails
	st.t.Stats().ReplayTime = st.replay
	t.Stop(st.stopped, st.stopKnd)
	t.Workers(workers)
	if st.cex != nil {
		x, err := runSeed(prog, names, st.cfg, st.cex, true)
		if err != nil {
			return err
		}
		t.Counterexample(x, x.Story())
	}
	return nil
}

func violated(x *interp.Execution) bool {
	msg, _, _ := x.Violation()
	return msg != ""
}

// queryTimeout is the per-query SMT time bound the mcr explorer uses.
func queryTimeout(o explore.Options) time.Duration {
	if o.QueryTimeout > 0 {
		return o.QueryTimeout
	}
	return 10 * time.Second
}

// Explorer is the mcr explorer.
type Explorer struct{ hooks hooks }

// Name implements explore.Explorer.
func (Explorer) Name() string { return "mcr" }

// Doc implements explore.Explorer.
func (Explorer) Doc() string {
	return "maximal causality reduction with Z3 (sc, tso, pso); programs it does not support (condition variables, trylock) are explored by the reference explorer, with a note"
}

// Check implements explore.Explorer.
func (e Explorer) Check(t *explore.Task) error {
	if !t.Model.Operational() {
		return explore.Unsupportedf(e, false, "%s", Models())
	}
	if t.Opts.Races {
		return explore.Unsupportedf(e, false, "data-race detection is not available with the mcr explorer")
	}
	if why := unsupported(t.Prog, t.Opts); why != "" {
		return explore.Unsupportedf(e, true, "%s", why)
	}
	return nil
}

// Explore implements explore.Explorer.
func (e Explorer) Explore(ctx context.Context, t *explore.Task) error {
	return exploreMCR(ctx, t, e.hooks)
}

// Models says which models mcr supports.
func Models() string {
	return fmt.Sprintf("mcr supports the %s models", strings.Join(memmodel.Operational(), ", "))
}
