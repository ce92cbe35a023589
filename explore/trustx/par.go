package trustx

import (
	"context"
	"maps"
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

// trustResult is what a worker hands on of one execution.
type trustResult struct {
	s any // the caller's summary of the execution
	// more: how many executions after it the caller's merge folded into s
	// (they follow it in the sequential order)
	more int
	// g: the graph of the task's first complete execution (nil for the
	// others, which cannot be the first complete one of the exploration)
	g *seg.Graph
	// cex: the graph to replay of the task's first violation (nil for the
	// others)
	cex *trust.Snapshot
}

// trustTask is a part of the exploration that one worker explores.
type trustTask struct {
	r    *trustRunner
	out  []trustResult // results not yet taken by the consumer
	kids []*trustTask  // tasks split off, in the order split off
	done bool
	// firsts taken (trustResult.g, .cex)
	gotGraph, gotCex bool
}

// trustPar is the shared state of a parallel exploration.
type trustPar struct {
	mu    sync.Mutex
	cond  *sync.Cond
	queue []*trustTask // tasks no worker has taken yet
	busy  int          // workers exploring a task
	idle  atomic.Int32 // workers waiting for a task
	// held: workers waiting for the consumer to take their results;
	// workers: how many there are (at most workers-1 are ever held)
	held, workers int
	// maxOut: a task holding this many results not taken yet makes its
	// worker wait
	maxOut  int
	stopped atomic.Bool
	err     error
	stats   trust.Stats
}

// runTrustParallel explores prog's consistent graphs under model with
// workers goroutines. summarize turns an execution into the caller's
// summary and tells whether it has a violation and whether it is complete
// (in the workers); merge, if not nil, may fold the summary cur of the
// next execution into prev (it reports whether it did: then consume gets
// one result for both, with trustResult.more counting the folded ones),
// which keeps the results a worker holds for later small; consume gets the results in the order of the sequential
// exploration and returns false to stop. keepGraphs asks for every
// complete execution's reads-from and coherence (classes). It returns why
// it stopped as runTrust does. maxOut bounds the results a task holds
// before its worker waits (0: maxOutResults).
func runTrustParallel(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, model string, workers, maxOut int,
	summarize func(x *interp.Execution) (sum any, violation, complete bool), merge func(prev, cur any) bool, keepGraphs bool,
	consume func(r trustResult) bool, progress func(pending int)) (stopped string, st trust.Stats, err error) {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if maxOut <= 0 {
		maxOut = maxOutResults
	}
	p := &trustPar{workers: workers, maxOut: maxOut}
	p.cond = sync.NewCond(&p.mu)
	root := &trustTask{r: newTrustRunner(prog, names, cfg, model, nil)}
	p.queue = []*trustTask{root}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx, prog, names, cfg, model, summarize, merge, keepGraphs)
		}()
	}
	stop := func() {
		p.stopped.Store(true)
		cancel()
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
		wg.Wait()
	}
	// consume the tasks' results depth first: a task's own results, then
	// its children from the last split off
	stack := []*trustTask{root}
	n := 0
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		p.mu.Lock()
		for len(t.out) == 0 && !t.done && p.err == nil {
			p.cond.Wait()
		}
		if p.err != nil {
			p.mu.Unlock()
			break
		}
		batch := t.out
		t.out = nil
		if p.held > 0 {
			p.cond.Broadcast()
		}
		if len(batch) == 0 {
			stack = stack[:len(stack)-1]
			stack = append(stack, t.kids...)
			t.kids = nil
		}
		p.mu.Unlock()
		for _, r := range batch {
			if !consume(r) {
				stop()
				return "stopped by the caller", p.stats, nil
			}
			n++
			if progress != nil && n&255 == 0 {
				progress(p.pending())
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
func (p *trustPar) work(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, model string,
	summarize func(x *interp.Execution) (any, bool, bool), merge func(prev, cur any) bool, keepGraphs bool) {
	for {
		p.mu.Lock()
		var t *trustTask
		for {
			if p.stopped.Load() || p.err != nil || (len(p.queue) == 0 && p.busy == 0) {
				p.cond.Broadcast()
				p.mu.Unlock()
				return
			}
			if len(p.queue) > 0 {
				t = p.queue[0]
				p.queue = p.queue[1:]
				p.busy++
				break
			}
			p.idle.Add(1)
			p.cond.Wait()
			p.idle.Add(-1)
		}
		p.mu.Unlock()
		err := p.explore(ctx, t, prog, names, cfg, model, summarize, merge, keepGraphs)
		p.mu.Lock()
		t.done = true
		p.busy--
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
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

// maxOutResults bounds the results a task holds while the consumer takes
// an earlier task's: its worker then waits until half of them are taken, so
// that memory stays bounded (lastzero N=15 under rc11 held 330 MB with two
// workers before).
const maxOutResults = 1 << 12

// hold makes the worker of task t wait while t holds too many results not
// taken yet (p.mu held). At least one worker is never held: it explores on
// and takes queued tasks, so the consumer's current task, whether queued,
// explored or held (the consumer takes its results, which wakes its
// worker), always makes progress.
func (p *trustPar) hold(t *trustTask) {
	if len(t.out) < p.maxOut || p.held+1 >= p.workers {
		return
	}
	p.held++
	for len(t.out) >= (p.maxOut+1)/2 && !p.stopped.Load() && p.err == nil {
		p.cond.Wait()
	}
	p.held--
}

// explore runs task t to its end (or until the exploration stops),
// handing its results on in batches and splitting off work for idle
// workers.
func (p *trustPar) explore(ctx context.Context, t *trustTask, prog *ir.Program, names *interp.Names, cfg interp.Config, model string,
	summarize func(x *interp.Execution) (any, bool, bool), merge func(prev, cur any) bool, keepGraphs bool) error {
	const batch = 64
	var buf []trustResult
	flush := func() {
		p.mu.Lock()
		t.out = append(t.out, buf...)
		p.cond.Broadcast()
		p.hold(t)
		p.mu.Unlock()
		buf = buf[:0]
	}
	defer flush()
	graphs := func() bool { return keepGraphs || !t.gotGraph }
	for !p.stopped.Load() {
		x, err := t.r.next(ctx, graphs)
		if err != nil {
			return err
		}
		if x == nil {
			return nil
		}
		tg := x.GraphDriver().(*trustGlue)
		sum, violation, complete := summarize(x)
		res := trustResult{s: sum}
		if violation && !t.gotCex {
			res.cex, t.gotCex = tg.ex.Save(), true
		}
		if complete && !violation && !t.gotGraph {
			res.g, t.gotGraph = explore.KeepGraph(x.G), true
		}
		tg.release()
		if k := len(buf) - 1; k >= 0 && merge != nil && res.g == nil && res.cex == nil && buf[k].g == nil && buf[k].cex == nil && merge(buf[k].s, res.s) {
			buf[k].more++
		} else {
			buf = append(buf, res)
		}
		if len(buf) >= batch {
			flush()
		}
		if p.idle.Load() > 0 {
			kid := &trustTask{}
			if ex, ok := t.r.ex.Split(func(loc int64) int64 { return kid.r.init[loc] }); ok {
				kid.r = newTrustRunner(prog, names, cfg, model, ex)
				kid.r.init = maps.Clone(t.r.init)
				p.mu.Lock()
				t.kids = append(t.kids, kid)
				p.queue = append(p.queue, kid)
				p.cond.Broadcast()
				p.mu.Unlock()
			}
		}
	}
	return nil
}
