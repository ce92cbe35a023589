package trustx

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"ncmc/explore"
	"ncmc/explore/trust"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// Parallel trust exploration (--workers): the worklist of one explorer is
// split between goroutines, results in the sequential order.
//
// A worker explores a task: an explorer with the graphs left to it. When a
// worker waits for work, a busy one gives away the revisit its explorer
// would explore last (trust.Explorer.Split) as a new task, a child of its
// own. In the sequential exploration that revisit's subtree comes after
// everything its explorer had left, and so after the subtrees of the
// children given away later: the sequential order of all executions is a
// task's own executions, then its children's subtrees from the last given
// away to the first. The caller's goroutine takes the workers' results in
// that order, so that whatever it does with them (the collector's counts,
// outcomes in the order first seen, the first counterexample, an
// execution bound, stopping at the first violation) is what one worker
// does (TestTrustWorkersDeterministic).
//
// Memory. Every task but the one the consumer takes results from (the
// front) holds its results until the consumer gets to it, and the subtree
// a task was given is often most of the exploration (big20 under rc11: 15
// million executions, a task held 1.7 million results, 2 GB). So a task
// folds each result into the earlier one it holds with the same fold key
// (for the collector: the same outcome, violation or block, which the
// collector counts the same wherever it comes; trustParOpts.key): a task
// holds at most one result per key, plus its first complete graph and
// first counterexample, whatever the size of its subtree
// (TestTrustParallelFoldBound). Where that is not small (many outcomes;
// --classes and --max-executions, under which results do not fold), a
// task other than the front holding maxOut results makes its worker wait
// (hold) until the consumer takes them, or, if the front is queued, park
// the task (back in the queue, explorer and results kept) and take the
// front: so the front always moves on, and no other task holds more than
// maxOut results and a batch. A finished task keeps its results only, not
// its explorer.

// trustResult is what a worker hands on of one execution.
type trustResult struct {
	s any // the caller's summary of the execution
	// more: how many executions after it the caller's merge folded into s
	// (they follow it in the sequential order, not necessarily right
	// after it: see trustParOpts.Key)
	more int
	// g: the graph of the task's first complete execution (nil for the
	// others, which cannot be the first complete one of the exploration)
	g *seg.Graph
	// cex: the graph to replay of the task's first violation (nil for the
	// others)
	cex *trust.Snapshot
	// key: the fold key of s once computed (nil: not yet, or s does not
	// fold); a result of a list with a key is the one later results with
	// that key fold into
	key any
}

// trustResults is a list of results, each later result folded into the
// earlier one with its key if there is one.
type trustResults struct {
	list []trustResult
	idx  map[any]int // the result of list a result with this key folds into
}

// add appends r, or folds it into the result with its key (o.key,
// o.merge): the last one if it folds there, which spares most results
// their key, else the one idx gives.
func (rs *trustResults) add(r trustResult, o *trustParOpts) {
	if o.key == nil || r.g != nil || r.cex != nil {
		rs.list = append(rs.list, r)
		return
	}
	if n := len(rs.list); n > 0 && rs.list[n-1].key != nil && o.merge(rs.list[n-1].s, r.s) {
		rs.list[n-1].more += r.more + 1
		return
	}
	if r.key == nil {
		k, ok := o.key(r.s)
		if !ok {
			rs.list = append(rs.list, r)
			return
		}
		r.key = k
	}
	if i, ok := rs.idx[r.key]; ok && o.merge(rs.list[i].s, r.s) {
		rs.list[i].more += r.more + 1
		return
	}
	if rs.idx == nil {
		rs.idx = map[any]int{}
	}
	rs.idx[r.key] = len(rs.list)
	rs.list = append(rs.list, r)
}

// take returns the results and empties rs (later results fold into later
// ones only).
func (rs *trustResults) take() []trustResult {
	l := rs.list
	rs.list = nil
	clear(rs.idx)
	return l
}

// trustTask is a part of the exploration that one worker explores.
type trustTask struct {
	r    *trustRunner // nil once the task is done
	out  trustResults // results not yet taken by the consumer
	kids []*trustTask // tasks split off, in the order split off
	done bool
	// queued: in the queue (new, or parked: see hold)
	queued bool
	// firsts taken (trustResult.g, .cex)
	gotGraph, gotCex bool
}

// trustParOpts is what a parallel exploration hands on and how.
type trustParOpts struct {
	// workers: the goroutines exploring
	workers int
	// maxOut: a task holding this many results not taken yet makes its
	// worker wait (0: maxOutResults)
	maxOut int
	// summarize turns an execution into the caller's summary and tells
	// whether it has a violation and whether it is complete (in the
	// workers)
	summarize func(x *interp.Execution) (sum any, violation, complete bool)
	// key, if not nil, returns a summary's fold key (false: it does not
	// fold): a task folds a result into the earlier result it holds with
	// the same key (merge(prev, cur) adds cur to prev if they have the
	// same key and reports whether it did, and trustResult.more counts the
	// folded ones), so the consumer gets it before the results in
	// between. The caller makes sure that this changes nothing: what it
	// does with a result of a key must not depend on whether the results
	// in between came before (for the collector: counts, and firsts the
	// earlier result already set).
	key   func(sum any) (any, bool)
	merge func(prev, cur any) bool
	// firstViolation: the consumer stops at the first violation (a task
	// ends at its first one: nothing after it would be taken; and no
	// result folds over it)
	firstViolation bool
	// keepGraphs asks for every complete execution's reads-from and
	// coherence (classes)
	keepGraphs bool
	// consume gets the results in the order of the sequential
	// exploration and returns false to stop
	consume func(r trustResult) bool
	// progress, if not nil, gets the pending revisits now and then
	progress func(pending int)
	// stats, if not nil, gets the bookkeeping of the exploration at its
	// end (tests)
	stats func(parStats)
	// late: the consumer takes nothing until every task is done, so that
	// each holds all its results (tests: the worst case for memory; needs
	// a maxOut no task reaches)
	late bool
}

// parStats is the bookkeeping of a parallel exploration (the bounds its
// tests check).
type parStats struct {
	// tasks: how many there were; maxHeld: the most results a task held
	// (after folding); maxAlive: the most tasks not consumed yet;
	// maxTotal: the most results all tasks held; maxOther: the most
	// results a task other than the front held
	tasks, maxHeld, maxAlive, maxTotal, maxOther int
	// alive, total: now
	alive, total int
}

// trustPar is the shared state of a parallel exploration.
type trustPar struct {
	mu    sync.Mutex
	cond  *sync.Cond
	queue []*trustTask // tasks no worker has taken yet
	busy  int          // workers exploring a task
	idle  atomic.Int32 // workers waiting for a task
	// front: the task the consumer takes results from
	front *trustTask
	// held: workers waiting for the consumer to take their results;
	// workers: how many there are
	held, workers int
	// maxOut: a task holding this many results not taken yet makes its
	// worker wait
	maxOut  int
	stopped atomic.Bool
	err     error
	stats   trust.Stats
	ps      parStats
}

// runTrustParallel explores prog's consistent graphs under model with
// o.workers goroutines, handing the results to o.consume in the order of
// the sequential exploration. It returns why it stopped as runTrust does.
func runTrustParallel(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, model string, o trustParOpts) (stopped string, st trust.Stats, err error) {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	maxOut := o.maxOut
	if maxOut <= 0 {
		maxOut = maxOutResults
	}
	if o.merge == nil {
		o.key = nil
	}
	p := &trustPar{workers: o.workers, maxOut: maxOut}
	p.cond = sync.NewCond(&p.mu)
	root := &trustTask{r: newTrustRunner(prog, names, cfg, model, nil)}
	p.queue = []*trustTask{root}
	root.queued = true
	p.ps.tasks, p.ps.alive, p.ps.maxAlive = 1, 1, 1
	var wg sync.WaitGroup
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx, prog, names, cfg, model, &o)
		}()
	}
	stop := func() {
		p.stopped.Store(true)
		cancel()
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
		wg.Wait()
		if o.stats != nil {
			o.stats(p.ps)
		}
	}
	// consume the tasks' results depth first: a task's own results, then
	// its children from the last split off
	stack := []*trustTask{root}
	root = nil
	if o.late {
		p.mu.Lock()
		for (p.busy > 0 || len(p.queue) > 0) && p.err == nil {
			p.cond.Wait()
		}
		p.mu.Unlock()
	}
	n := 0
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		p.mu.Lock()
		if p.front != t {
			p.front = t // a worker held on t goes on; one held elsewhere may take it (hold)
			p.cond.Broadcast()
		}
		for len(t.out.list) == 0 && !t.done && p.err == nil {
			p.cond.Wait()
		}
		if p.err != nil {
			p.mu.Unlock()
			break
		}
		batch := t.out.take()
		p.ps.total -= len(batch)
		if p.held > 0 || t.queued {
			p.cond.Broadcast()
		}
		if len(batch) == 0 {
			stack[len(stack)-1] = nil
			p.ps.alive--
			stack = stack[:len(stack)-1]
			stack = append(stack, t.kids...)
			t.kids = nil
		}
		p.mu.Unlock()
		for _, r := range batch {
			if !o.consume(r) {
				stop()
				return "stopped by the caller", p.stats, nil
			}
			n++
			if o.progress != nil && n&255 == 0 {
				o.progress(p.pending())
			}
		}
	}
	stop()
	if p.err != nil {
		return "", p.stats, p.err
	}
	if e := parent.Err(); e != nil {
		return "cancelled: " + e.Error(), p.stats, nil
	}
	return "", p.stats, nil
}

// pending is the number of revisits left in the queued tasks (the busy
// workers' are not counted).
func (p *trustPar) pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, t := range p.queue {
		n += t.r.ex.Pending() + 1
	}
	return n
}

// work takes tasks from the queue until the exploration is over.
func (p *trustPar) work(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, model string, o *trustParOpts) {
	for {
		p.mu.Lock()
		var t *trustTask
		for {
			if p.stopped.Load() || p.err != nil || (len(p.queue) == 0 && p.busy == 0) {
				p.cond.Broadcast()
				p.mu.Unlock()
				return
			}
			if t = p.take(); t != nil {
				p.busy++
				break
			}
			p.idle.Add(1)
			p.cond.Wait()
			p.idle.Add(-1)
		}
		p.mu.Unlock()
		parked, err := p.explore(ctx, t, prog, names, cfg, model, o)
		p.mu.Lock()
		p.busy--
		if parked && err == nil {
			t.queued = true
			p.queue = append(p.queue, t)
			p.cond.Broadcast()
			p.mu.Unlock()
			continue
		}
		t.done = true
		if err != nil && p.err == nil {
			p.err = err
		}
		s := t.r.ex.Stats
		p.stats.Restores += s.Restores
		p.stats.Forward += s.Forward
		p.stats.Backward += s.Backward
		p.stats.NotMax += s.NotMax
		p.stats.PSCChecks += s.PSCChecks
		p.stats.MaxPending = max(p.stats.MaxPending, s.MaxPending)
		t.r = nil // its explorer, graphs and executions
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

// parBatch is how many executions a worker explores before it hands their
// results on.
const parBatch = 64

// maxOutResults bounds the results a task holds while the consumer takes
// an earlier task's: its worker then waits until half of them are taken
// (or parks it), so that memory stays bounded (lastzero N=15 under rc11,
// 16,384 outcomes, held 330 MB with two workers before).
const maxOutResults = 1 << 12

// hold makes the worker of task t wait while t holds too many results not
// taken yet (p.mu held), unless t is the task the consumer takes results
// from (the front), which is never held. It returns true if the worker is
// to park t (put it back in the queue, its results and explorer kept) and
// take the front, which is queued: the front always moves on, so a held
// worker always gets to go on, while no task but the front holds more
// than maxOut results (and a batch).
func (p *trustPar) hold(t *trustTask) (park bool) {
	if len(t.out.list) < p.maxOut || t == p.front {
		return false
	}
	p.held++
	defer func() { p.held-- }()
	for len(t.out.list) >= (p.maxOut+1)/2 && t != p.front && !p.stopped.Load() && p.err == nil {
		if f := p.front; f != nil && f.queued {
			return true
		}
		p.cond.Wait()
	}
	return false
}

// take removes from the queue and returns the task a worker is to explore
// next (p.mu held): the front if it is queued, else the first task that
// holds fewer than half of maxOut results (a parked task waits for the
// consumer), nil if there is none.
func (p *trustPar) take() *trustTask {
	i := -1
	if f := p.front; f != nil && f.queued {
		i = slices.Index(p.queue, f)
	} else {
		i = slices.IndexFunc(p.queue, func(t *trustTask) bool { return len(t.out.list) < (p.maxOut+1)/2 })
	}
	if i < 0 {
		return nil
	}
	t := p.queue[i]
	p.queue = slices.Delete(p.queue, i, i+1)
	t.queued = false
	return t
}

// explore runs task t to its end (or until the exploration stops),
// handing its results on in batches and splitting off work for idle
// workers; it returns true if the worker is to park t (hold).
func (p *trustPar) explore(ctx context.Context, t *trustTask, prog *ir.Program, names *interp.Names, cfg interp.Config, model string, o *trustParOpts) (parked bool, err error) {
	const batch = parBatch
	var buf trustResults
	n := 0
	// flush hands the results on; at the end of the task (last) it does
	// not hold: a finished task waits for nothing
	flush := func(last bool) (park bool) {
		p.mu.Lock()
		k := len(t.out.list)
		for _, r := range buf.take() {
			t.out.add(r, o)
		}
		p.ps.total += len(t.out.list) - k
		p.ps.maxHeld = max(p.ps.maxHeld, len(t.out.list))
		p.ps.maxTotal = max(p.ps.maxTotal, p.ps.total)
		if t != p.front {
			p.ps.maxOther = max(p.ps.maxOther, len(t.out.list))
		}
		p.cond.Broadcast()
		if !last {
			park = p.hold(t)
		}
		p.mu.Unlock()
		n = 0
		return park
	}
	defer func() {
		if !parked {
			flush(true)
		}
	}()
	graphs := func() bool { return o.keepGraphs || !t.gotGraph }
	for !p.stopped.Load() {
		x, err := t.r.next(ctx, graphs)
		if err != nil {
			return false, err
		}
		if x == nil {
			return false, nil
		}
		tg := x.GraphDriver().(*trustGlue)
		sum, violation, complete := o.summarize(x)
		res := trustResult{s: sum}
		if violation && !t.gotCex {
			res.cex, t.gotCex = tg.ex.Save(), true
		}
		if complete && !violation && !t.gotGraph {
			res.g, t.gotGraph = explore.KeepGraph(x.G), true
		}
		tg.release()
		buf.add(res, o)
		if violation && o.firstViolation {
			return false, nil // the consumer stops here (if it gets here)
		}
		if n++; n >= batch && flush(false) {
			return true, nil
		}
		if p.idle.Load() > 0 {
			kid := &trustTask{}
			if ex, ok := t.r.ex.Split(func(loc int64) int64 { return kid.r.init[loc] }); ok {
				kid.r = newTrustRunner(prog, names, cfg, model, ex)
				kid.r.init = maps.Clone(t.r.init)
				p.mu.Lock()
				t.kids = append(t.kids, kid)
				p.queue = append(p.queue, kid)
				kid.queued = true
				p.ps.tasks++
				p.ps.alive++
				p.ps.maxAlive = max(p.ps.maxAlive, p.ps.alive)
				p.cond.Broadcast()
				p.mu.Unlock()
			}
		}
	}
	return false, nil
}
