package vmcr

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Options configure Explore.
type Options struct {
	// Observed are the locations whose final values are outcomes: a
	// virtual observer reads each of them after every thread has finished,
	// so executions that differ only in final values are told apart.
	Observed []int64
	// Leaf receives every explored execution (one per class); it returns
	// true to stop the exploration. With Summary set, the Trace it gets
	// (only Payload set) is valid only during the call.
	Leaf func(tr *Trace) bool
	// MaxSearch bounds the states of one witness search (0: 1,000,000).
	MaxSearch int
	// Workers is the number of goroutines that explore subtrees at once
	// (at most 1: this one). With more, Runner.Run and Summary must be
	// safe for concurrent use; Leaf is still called in the order of the
	// sequential search, one leaf at a time, so the result does not depend
	// on Workers.
	Workers int
	// Summary, if not nil, is called on every explored execution as soon
	// as it is found (on the goroutine that found it), and Leaf gets a
	// Trace with only Payload set to its result: a parallel exploration
	// holds the leaves that wait for earlier ones, and a summary is
	// smaller than a run.
	Summary func(tr *Trace) any
	// Fold, if not nil (and Summary is not), may merge the summary cur of a leaf into prev,
	// the summary of the leaf just before it in the sequential order when
	// that one waits to be handed over (a parallel exploration), and
	// report that it did: Leaf then never sees cur, and prev must stand
	// for both. Leaves that only count fold, so that a goroutine ahead of
	// the others holds few of them and does not have to wait.
	Fold func(prev, cur any) bool
	// Failures makes a class whose run has a failing thread (an assertion
	// failure or runtime error ends it) show every outcome its executions
	// can end in: an execution's outcome is its first failure and the
	// values of Observed right after it, and these differ between the
	// schedules of one class. Each further (failing step, values) pair
	// is one more leaf after the class's own (failure.go). Without it a
	// class shows one of them (enough for the verdict).
	Failures bool
	// Oracle, if not nil, decides the witness searches that exceed
	// MaxSearch (oracle.go): its Sat schedules are replayed and checked;
	// Unknown answers leave the search over its budget (ErrSearchBudget).
	Oracle Oracle
	// Queries, if not nil, receives every witness search the native
	// search decided, with its answer and, if sat, its schedule (tests
	// compare an oracle with the native search). q and sched are valid
	// only during the call. With Workers > 1 it must be safe for
	// concurrent use.
	Queries func(q *Query, sat bool, sched []int32)
	// maxBuffered overrides the bound of leaves a stream holds (tests).
	maxBuffered int
	// check (tests) makes the explorer recompute every result its
	// incremental bookkeeping derives from a parent node (partial traces,
	// candidates, deadEnd hints, skipped marks) from the start and fail
	// with an internal error where they differ; it counts the derived
	// results. Workers must be 1.
	check *incrCheck
	// Debug, if not nil, receives a line per node of the search tree.
	Debug func(format string, args ...any)
}

// Stats count the work of an exploration.
type Stats struct {
	Nodes        int // annotated partial traces visited
	Runs         int // interpreter runs
	Reused       int // children that reused their parent's run
	Leaves       int // executions reported (one per class)
	Discarded    int // leaves whose parked thread could move (no execution)
	Searches     int // witness searches
	SearchStates int // states visited by witness searches
	Infeasible   int // annotations without a witness
	Duplicates   int // leaves whose class an elder sibling subtree holds (not reported)
	FailLeaves   int // further leaves of classes with failures (Options.Failures): other first failures or values at them
	Barren       int // nodes with a frontier but no child
	Dead         int // nodes whose subtree deadEnd shows to hold no execution (not explored)
	Children     int // children made
	// Unmarked counts the marks (a run, a frame, a read) that a new write
	// at a blocked read's own step alone would have set (docs/vmcr.md,
	// "Blocked reads do not make backtrack points").
	Unmarked int
	// Fallbacks are the witness searches over MaxSearch passed to
	// Options.Oracle; OracleUnknown of them it did not decide, OracleBad
	// of them it answered with a schedule that failed replay (both end
	// the exploration with ErrSearchBudget). Searches - Fallbacks were
	// decided natively.
	Fallbacks     int
	OracleUnknown int
	OracleBad     int
}

// errStopped ends a witness search when the exploration was stopped
// meanwhile (Leaf, or an error before it); it is never reported.
var errStopped = errors.New("vmcr: exploration stopped")

// ErrSearchBudget is returned when one witness search exceeds MaxSearch.
var ErrSearchBudget = errors.New("vmcr: witness search budget exhausted")

// ann is the annotation of one decision of a thread.
type ann struct {
	val    int64
	good   []Ref // reads: the writes it may read from (all of value val)
	choice bool
	stuck  bool // lock acquire that never happens: the mutex stays held by a write of good
}

// node is an annotated trace.
type node struct {
	ann  [][]ann   // per thread, its first decisions
	annb []*annBuf // per thread, the sharing state of ann[t]'s array (nil: copy on append)
	obs  []ann     // the observer's reads, Observed[k] for obs[k]
	neg  *negAnn   // reads -> per-thread extent of the writes they may not read (nor Init)
	tr   *Trace    // a run consistent with ann
	wit  *Witness  // the witness tr was run from
	vc   *clocks   // causal clocks of tr's steps under ann (lazily)
	// from (nil: none) is the partial trace of n's parent when n reuses
	// its parent's run and adds the annotation of the parent's frontier
	// read of thread fromT (childPart); fromCands: n has the parent's
	// clocks and negative annotation, so the parent's candidates may
	// carry over.
	from      *part
	fromNeg   *negAnn // the parent's negative annotation
	fromT     int32
	fromCands bool
	// choice: some annotation is a choice (choices has something to find).
	choice bool
}

// front is a frontier decision.
type front struct {
	t      int
	k      int // decision index
	step   int
	n      int
	loc    int64
	lid    int32 // dense id of loc
	op     Op
	choice bool
	hasNeg bool
}

// part is the partial trace of a node: per thread the steps the
// annotation determines and the frontier.
type part struct {
	ext      []int // steps of each thread in the partial trace (frontier excluded)
	front    []front
	parked   map[int32]int
	complete bool // every thread finished normally with every decision annotated
	dead     bool
	cuts     bool // some thread's extent was cut (spawn, join, After) short of its frontier
	// hint is a write by which deadEnd found the node's subtree not dead
	// (deadHint); a child on the same run checks it first.
	hint deadHint
	// cands[t] (when have[t]) are the value groups of thread t's frontier
	// read under n's negative annotation (frontCands).
	cands [][]group
	have  []bool
}

// frontCands returns the value groups of frontier read f of node n (p is
// n's partial trace) under n's negative annotation of f, computed once
// per node: deadEnd and the branching on f both need them. (Later
// siblings' negative annotations name other reads, so they do not change
// f's.)
func (e *explorer) frontCands(n *node, p *part, f front) []group {
	if p.have == nil {
		nt := len(n.tr.Threads)
		p.cands, p.have = slab(&e.slabs.cands, nt), slab(&e.slabs.have, nt)
	}
	if !p.have[f.t] {
		p.cands[f.t] = e.candidates(n, p, f, n.neg.of(Ref{int32(f.t), int32(f.step)}))
		p.have[f.t] = true
	}
	return p.cands[f.t]
}

// negAnn is a list of negative annotations: read r may only read writes
// beyond the per-thread extents ext (and not Init). Lists share tails.
type negAnn struct {
	r    Ref
	ext  []int
	next *negAnn
}

// of returns the extents of read r's negative annotation (nil if none).
func (l *negAnn) of(r Ref) []int {
	for ; l != nil; l = l.next {
		if l.r == r {
			return l.ext
		}
	}
	return nil
}

// frame is a node on the search path, for backtrack points.
type frame struct {
	node  *node
	ext   []int
	reads []front
	newW  []bool       // a descendant wrote reads[i]'s location beyond ext in another thread
	open  atomic.Int32 // reads whose newW is false
	// mono: ext is at least the extents of the frame below it on the
	// path (markAll).
	mono bool
	// blk[u] (nil: none) is the step of thread u's frontier read when it
	// is blocked at this frame (a negative annotation and no candidate),
	// else -1; excl[i]: reads[i] satisfies condition C (no commit of its
	// thread's earlier stores beyond ext), so a new write found only at a
	// blocked read's own step does not count for it (docs/vmcr.md,
	// "Blocked reads do not make backtrack points").
	blk  []int32
	excl []bool
	mu   sync.Mutex // guards newW (subtrees on other goroutines mark it)
	// groups are the value groups of the reads branched on so far (set
	// before the subtrees of a read are added).
	groups [][]group
}

type explorer struct {
	ctx   context.Context
	run   Runner
	opts  Options
	stats Stats
	stack []*frame
	ws    *wsearch // reused by every witness search
	sh    *shared
	out   *stream // where this goroutine's leaves go
	token bool    // holds a worker token (parallel exploration)
	// sibDepth: sibling sets above this goroutine's current one (steal).
	sibDepth int
	// curs[k] is the read of frame stack[k] whose value group this
	// goroutine's path takes (the read being branched on there).
	curs []int
	// halted: this goroutine's search failed (fail); its subtree ends.
	halted bool
	obsID  []int32 // dense ids of opts.Observed
	spare  spareTables
	// deadBuf, deadFr, deadFr2 and deadIn hold deadEnd's tables.
	deadBuf         []int32
	deadFr, deadFr2 []front
	deadIn          []bool
	res             resScratch // resumable's tables
	notNew          []notNew   // markAll's table
	pscr            partScratch
	slabs           slabs
	candWS          []Ref      // candidates' table
	candSpans       []candSpan // candidates' table
}

// slabs hand out the small tables of partial traces from larger arrays
// (one allocation for many nodes; an array is freed once no node uses any
// part of it).
type slabs struct {
	parts  []part
	ints   []int
	fronts []front
	cands  [][]group
	have   []bool
	groups []group
	refs   []Ref
}

// slab returns n zero values taken from *buf (refilled when short).
func slab[T any](buf *[]T, n int) []T {
	if len(*buf) < n {
		*buf = make([]T, max(256, n))
	}
	s := (*buf)[:n:n]
	*buf = (*buf)[n:]
	return s
}

// partScratch holds computePart's temporary tables.
type partScratch struct {
	limit []int
	fr    []*front
	fbuf  []front
	cut   []bool
}

func (e *explorer) stopped() bool { return e.halted || e.sh.stopped.Load() }

// Explore explores the executions of the program r runs, one per class of
// per-thread decision values (values read and choices made) and final
// values of opts.Observed, reporting each to opts.Leaf.
func Explore(ctx context.Context, r Runner, opts Options) (Stats, error) {
	if opts.MaxSearch == 0 {
		opts.MaxSearch = 1000000
	}
	sh := &shared{leaf: opts.Leaf, maxBuffered: maxBuffered}
	if opts.Summary != nil {
		sh.fold = opts.Fold
	}
	if opts.maxBuffered > 0 {
		sh.maxBuffered = opts.maxBuffered
	}
	sh.drained = sync.NewCond(&sh.mu)
	root := &stream{}
	sh.cursor = []cursorAt{{s: root}}
	if opts.Workers > 1 {
		sh.tokens = make(chan struct{}, opts.Workers)
		sh.tokens <- struct{}{} // this goroutine's
	}
	e := &explorer{ctx: ctx, run: r, opts: opts, sh: sh, out: root, token: sh.tokens != nil}
	for _, l := range opts.Observed {
		e.obsID = append(e.obsID, sh.ids.id(l))
	}
	w := &Witness{}
	tr, err := e.runW(w)
	if err != nil {
		return e.stats, err
	}
	e.explore(&node{tr: tr, wit: w})
	e.done(tr)
	sh.close(root)
	return e.stats, sh.err
}

func (e *explorer) runW(w *Witness) (*Trace, error) {
	e.stats.Runs++
	tr, err := e.run.Run(e.ctx, w)
	w.Base = nil // the base may be released; w may be kept
	if err != nil {
		return nil, err
	}
	tr.prepare(&e.sh.ids, &e.spare)
	e.markAll(tr)
	return tr, nil
}

// markAll marks the frames on the path with run tr. The frames are
// visited from the root down. A frame whose extents are at least those
// of the frame above it (mono) sees a read that frame saw no new write
// for in the same light: beyond compares a run's writes with the
// extents, so larger extents find no more. notNew[t] remembers such a
// read of thread t (its step and location, +1; 0: none) down a chain of
// mono frames, so that the frames of a long chain of single children
// (the same frontier reads over and over) check each read once per run.
func (e *explorer) markAll(tr *Trace) {
	if len(e.stack) == 0 {
		return
	}
	nt := len(tr.Threads)
	if cap(e.notNew) < nt {
		e.notNew = make([]notNew, nt)
	}
	skip := e.notNew[:nt]
	clear(skip)
	for _, f := range e.stack {
		if !f.mono {
			clear(skip)
		}
		e.stats.Unmarked += f.mark(tr, skip)
	}
	if e.opts.check != nil {
		for _, f := range e.stack {
			for i, x := range f.reads {
				if f.newW[i] {
					continue
				}
				e.opts.check.skips++
				if nw, _ := f.newWrite(tr, i, x); nw {
					e.fail(fmt.Errorf("internal error: vmcr: a mark of t%d.%d was skipped", x.t, x.step))
				}
			}
		}
	}
}

// notNew names a read (step+1, location id) that a frame's mark found no
// new write for (markAll).
type notNew struct{ step, lid int32 }

// mark sets the newW flags of f's reads that run tr shows a new write
// for. skip (nil: none) names per thread a read that needs no check, and
// mark adds the reads it finds no new write for. It returns how many
// reads only a blocked read's own step showed a new write for.
func (f *frame) mark(tr *Trace, skip []notNew) (unmarked int) {
	if f.open.Load() == 0 {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.reads {
		if f.newW[i] {
			continue
		}
		if x.t < len(skip) && skip[x.t] == (notNew{int32(x.step) + 1, x.lid}) {
			continue
		}
		nw, ex := f.newWrite(tr, i, x)
		f.newW[i] = nw
		switch {
		case nw:
			f.open.Add(-1)
		case ex:
			unmarked++
		case x.t < len(skip):
			// Recorded only when no blocked step was excluded: a frame
			// below with larger extents may block other reads.
			skip[x.t] = notNew{int32(x.step) + 1, x.lid}
		}
	}
	return unmarked
}

// newWrite reports whether run tr shows a write new to frame f for its
// read i (x): one of x's location beyond the partial trace, or, for a read
// that writes (RMW, CAS, lock), any later modification of the location
// beyond it (it changes what a later RMW of another thread reads, and so
// whether and what that RMW writes). excluded: a blocked read's own step
// was not counted (frame.excl, "Blocked reads do not make backtrack
// points" in docs/vmcr.md).
func (f *frame) newWrite(tr *Trace, i int, x front) (found, excluded bool) {
	var blk []int32
	if f.excl != nil && f.excl[i] {
		blk = f.blk
	}
	found, excluded = f.beyond(tr, x, tr.maxWOf(x.lid), blk)
	if !found && (x.op == OpRMW || x.op == OpLock) {
		var ex bool
		found, ex = f.beyond(tr, x, tr.maxMOf(x.lid), blk)
		excluded = excluded || ex
	}
	return found, excluded
}

// geq reports whether extents a are at least b for every thread (a
// missing thread has extent 0).
func geq(a, b []int) bool {
	for u, v := range b {
		if v > 0 && (u >= len(a) || a[u] < v) {
			return false
		}
	}
	return true
}

// beyond reports whether m (per thread, a step index or -1) names a step
// of a thread other than x's (or x's store buffers) beyond f's partial
// trace. A step that is the blocked frontier read of its thread (blk[u],
// nil: none) does not count; excluded reports whether one was skipped.
func (f *frame) beyond(tr *Trace, x front, m []int32, blk []int32) (found, excluded bool) {
	for u, idx := range m {
		if u == x.t || idx < 0 {
			continue
		}
		if th := &tr.Threads[u]; th.Buffer && int(th.Owner) == x.t {
			continue
		}
		lim := 0
		if u < len(f.ext) {
			lim = f.ext[u]
		}
		if int(idx) >= lim {
			if u < len(blk) && blk[u] == idx {
				excluded = true
				continue
			}
			return true, excluded
		}
	}
	return false, excluded
}

// fail ends the exploration with err. The end of the context ends it at
// once. Any other error (a witness search over its budget, an internal
// error) ends this goroutine's part of the search and takes its place
// among the leaves: the exploration fails when the leaves before it have
// been handed over, unless Leaf stops it first. So with parallel workers
// an error in a subtree the sequential search would not reach (it stopped
// earlier: --max-executions) does not count, as without them.
func (e *explorer) fail(err error) {
	if e.ctx.Err() != nil {
		e.sh.fail(err)
		return
	}
	e.halted = true
	e.sh.emitErr(e.out, err)
}

// annOf returns thread t's annotations (nil beyond the slice).
func (n *node) annOf(t int) []ann {
	if t < len(n.ann) {
		return n.ann[t]
	}
	return nil
}

// clocks returns the causal clocks of n's run with the reads-from edges
// of the reads annotated with a single good write.
// (sp: the explorer's spare tables, for Trace.clocks.)
func (n *node) clocks(sp *spareTables) *clocks {
	if n.vc == nil {
		tr := n.tr
		n.vc = tr.clocks(sp, func(t, i int) []Ref {
			as := n.annOf(t)
			k := tr.rdec[t][i]
			if k < 0 || int(k) >= len(as) || as[k].stuck {
				return nil
			}
			return as[k].good
		})
	}
	return n.vc
}

// with returns a copy of n whose thread t has annotation a appended. The
// first child to append to a thread's annotations extends its parent's
// array in place (a chain of single children costs linear time and
// memory); later siblings copy.
func (n *node) with(t int, a ann) *node {
	size := max(len(n.ann), t+1)
	var c *node
	if size <= 4 { // the node and its tables in one allocation
		nb := &struct {
			n    node
			ann  [4][]ann
			annb [4]*annBuf
		}{}
		c = &nb.n
		c.ann, c.annb = nb.ann[:size:size], nb.annb[:size:size]
	} else {
		c = &node{ann: make([][]ann, size), annb: make([]*annBuf, size)}
	}
	c.obs, c.neg, c.choice = n.obs, n.neg, n.choice || a.choice
	copy(c.ann, n.ann)
	copy(c.annb, n.annb)
	old := c.ann[t]
	if b := c.annb[t]; b != nil && len(old) < cap(old) && b.claimed.CompareAndSwap(int32(len(old)), int32(len(old)+1)) {
		c.ann[t] = append(old, a)
		return c
	}
	ns := make([]ann, len(old)+1, max(4, 2*(len(old)+1)))
	copy(ns, old)
	ns[len(old)] = a
	b := &annBuf{}
	b.claimed.Store(int32(len(ns)))
	c.ann[t], c.annb[t] = ns, b
	return c
}

// annBuf is shared by the annotation slices on one array: how much of the
// array some node uses.
type annBuf struct{ claimed atomic.Int32 }

// computePart derives the partial trace of n from its run.
func (e *explorer) computePart(n *node) *part {
	if p := e.childPart(n); p != nil {
		if e.opts.check != nil {
			e.checkPart(n, p)
		}
		return p
	}
	return e.fullPart(n)
}

// incrCheck counts the results of the incremental bookkeeping that
// Options.check verified.
type incrCheck struct {
	parts, cands, hints, skips int
}

// checkPart compares the partial trace childPart derived for n, and the
// candidates it carried over, with those computed from the start.
func (e *explorer) checkPart(n *node, p *part) {
	q := e.fullPart(n)
	e.opts.check.parts++
	if fmt.Sprint(q.ext, q.front, q.cuts, q.complete, q.dead, q.parked) != fmt.Sprint(p.ext, p.front, p.cuts, p.complete, p.dead, p.parked) {
		e.fail(fmt.Errorf("internal error: vmcr: derived partial trace %v %v, computed %v %v", p.ext, p.front, q.ext, q.front))
		return
	}
	for _, f := range p.front {
		if f.t >= len(p.have) || !p.have[f.t] {
			continue
		}
		e.opts.check.cands++
		got, want := fmt.Sprint(p.cands[f.t]), fmt.Sprint(e.candidates(n, q, f, n.neg.of(Ref{int32(f.t), int32(f.step)})))
		if got != want {
			e.fail(fmt.Errorf("internal error: vmcr: carried candidates of t%d.%d %s, computed %s", f.t, f.step, got, want))
			return
		}
	}
}

// fullPart derives the partial trace of n from its run.
func (e *explorer) fullPart(n *node) *part {
	tr := n.tr
	nt := len(tr.Threads)
	p := &slab(&e.slabs.parts, 1)[0]
	p.ext = slab(&e.slabs.ints, nt)
	// Scratch tables, used only here.
	sc := &e.pscr
	if cap(sc.limit) < nt {
		sc.limit, sc.fr, sc.fbuf, sc.cut = make([]int, nt), make([]*front, nt), make([]front, nt), make([]bool, nt)
	}
	limit := sc.limit[:nt] // before join cuts
	fr := sc.fr[:nt]
	fbuf := sc.fbuf[:nt]
	clear(limit)
	clear(fr)
	for t := 0; t < nt; t++ {
		th := &tr.Threads[t]
		if th.End == EndAbsent {
			continue
		}
		as := n.annOf(t)
		ds := tr.dec[t]
		if len(as) > len(ds) {
			e.fail(fmt.Errorf("internal error: vmcr: thread %d has %d annotations but %d decisions", t, len(as), len(ds)))
			p.dead = true
			return p
		}
		if k := len(as); k > 0 && as[k-1].stuck {
			if p.parked == nil {
				p.parked = map[int32]int{}
			}
			p.parked[int32(t)] = ds[k-1].step
			limit[t] = ds[k-1].step
			continue
		}
		if k := len(as); k < len(ds) {
			d := ds[k]
			limit[t] = d.step
			f := &fbuf[t]
			*f = front{t: t, k: k, step: d.step, choice: d.choice, n: d.n}
			if !d.choice {
				s := &th.Steps[d.step]
				f.op, f.loc, f.lid = s.Op, s.Loc, s.lid
				f.hasNeg = n.neg.of(Ref{int32(t), int32(d.step)}) != nil
			}
			fr[t] = f
			continue
		}
		limit[t] = len(th.Steps)
		if limit[t] > 0 && th.Steps[limit[t]-1].Pending {
			e.fail(fmt.Errorf("internal error: vmcr: pending step of thread %d without a decision", t))
			p.dead = true
			return p
		}
	}
	copy(p.ext, limit)
	cut := sc.cut[:nt]
	clear(cut)
	for changed := true; changed; {
		changed = false
		for t := 0; t < nt; t++ {
			th := &tr.Threads[t]
			if th.End == EndAbsent || p.ext[t] == 0 {
				continue
			}
			if sp := th.Spawn; sp.T >= 0 && int(sp.I) >= p.ext[sp.T] {
				p.ext[t], cut[t], changed = 0, true, true
				continue
			}
			if i, ok := p.depCut(tr, t); ok {
				p.ext[t], cut[t], changed = i, true, true
				continue
			}
			for _, i := range tr.joins[t] {
				if int(i) >= p.ext[t] {
					break
				}
				s := &th.Steps[i]
				c := int(s.Other)
				if !p.finished(tr, c, fr, cut) {
					p.ext[t], cut[t], changed = int(i), true, true
					break
				}
			}
		}
	}
	// A thread spawned after its parent's frontier has not started.
	for t := 0; t < nt; t++ {
		th := &tr.Threads[t]
		if th.End == EndAbsent {
			continue
		}
		if sp := th.Spawn; sp.T >= 0 && int(sp.I) >= p.ext[sp.T] {
			p.ext[t], cut[t] = 0, true
		}
		p.cuts = p.cuts || cut[t]
	}
	p.complete = true
	nf := 0
	for t := 0; t < nt; t++ {
		if tr.Threads[t].End != EndAbsent && fr[t] != nil && !cut[t] {
			nf++
		}
	}
	p.front = slab(&e.slabs.fronts, nf)[:0]
	for t := 0; t < nt; t++ {
		th := &tr.Threads[t]
		if th.End == EndAbsent {
			continue
		}
		if fr[t] != nil && !cut[t] {
			p.front = append(p.front, *fr[t])
		}
		if fr[t] != nil || cut[t] || th.End != EndDone || p.ext[t] != len(th.Steps) {
			p.complete = false
		}
		if _, ok := p.parked[int32(t)]; ok {
			p.complete = false
		}
	}
	// A parked thread needs a holder that keeps its mutex.
	for t, i := range p.parked {
		a := n.ann[t][len(n.ann[t])-1]
		s := &tr.Threads[t].Steps[i]
		if !e.holdable(tr, p.ext, a.good, s.Loc) {
			p.dead = true
		}
	}
	return p
}

// childPart derives the partial trace of n from its parent's (n.from)
// when n reuses its parent's run and annotates the parent's frontier read
// x = n.fromX with a write group (not stuck), x's thread has a further
// decision, and neither partial trace cuts a thread short: then only x's
// thread moves, from x to its next decision, and when the steps it passes
// hold no spawn, join or After step, no other thread's extent changes
// (cuts only come from a step beyond some extent; none was cut before,
// and extents only grow). It returns nil when that does not hold
// (computePart computes the partial trace from the start).
//
// The parent's candidates of another thread's frontier read y carry over
// when n has the parent's clocks and negative annotation (fromCands), x
// reads another location than y, the steps x's thread passes write no
// value to y's location (candidates takes y's writes from the partial
// trace: only x's thread adds steps), and y is no lock acquire (holdable
// looks at unlocks in the extents). The candidates of y depend on the
// writes of its location in the partial trace, the clocks, y's negative
// annotation and the writes annotated reads of its location consume: none
// of these changed.
func (e *explorer) childPart(n *node) *part {
	pp := n.from
	n.from = nil
	if pp == nil || pp.dead || pp.cuts || pp.parked != nil {
		return nil
	}
	var x front // the parent's frontier read of thread fromT
	if i := slices.IndexFunc(pp.front, func(f front) bool { return f.t == int(n.fromT) }); i >= 0 {
		x = pp.front[i]
	} else {
		return nil
	}
	if x.choice {
		return nil
	}
	tr := n.tr
	nt := len(tr.Threads)
	if len(pp.ext) != nt {
		return nil
	}
	as := n.annOf(x.t)
	k := len(as)
	if k != x.k+1 || as[k-1].stuck || as[k-1].choice {
		return nil
	}
	ds := tr.dec[x.t]
	if k >= len(ds) {
		return nil
	}
	d := ds[k]
	th := &tr.Threads[x.t]
	for i := x.step; i < d.step; i++ {
		st := &th.Steps[i]
		if st.Op == OpSpawn || st.Op == OpJoin || len(st.After) > 0 || st.Pending {
			return nil
		}
	}
	p := &slab(&e.slabs.parts, 1)[0]
	p.ext, p.front = slab(&e.slabs.ints, nt), slab(&e.slabs.fronts, len(pp.front))
	copy(p.ext, pp.ext)
	p.ext[x.t] = d.step
	copy(p.front, pp.front)
	j := -1
	for i := range p.front {
		if p.front[i].t == x.t {
			j = i
			break
		}
	}
	if j < 0 {
		return nil
	}
	f := front{t: x.t, k: k, step: d.step, choice: d.choice, n: d.n}
	if !d.choice {
		s := &th.Steps[d.step]
		f.op, f.loc, f.lid = s.Op, s.Loc, s.lid
		f.hasNeg = n.neg.of(Ref{int32(x.t), int32(d.step)}) != nil
	}
	p.front[j] = f
	p.hint = pp.hint
	if n.neg != n.fromNeg {
		// A later sibling: its negative annotation names more reads.
		for i := range p.front {
			if y := &p.front[i]; !y.choice && i != j {
				y.hasNeg = n.neg.of(Ref{int32(y.t), int32(y.step)}) != nil
			}
		}
	}
	if !n.fromCands || pp.have == nil {
		return p
	}
	for _, y := range p.front {
		if y.t == x.t || !pp.have[y.t] || y.choice || y.op == OpLock || y.lid == x.lid {
			continue
		}
		moved := false
		for i := x.step; i < d.step; i++ {
			if st := &th.Steps[i]; st.Wrote && st.lid == y.lid && hasLoc(st.Op) {
				moved = true
				break
			}
		}
		if moved {
			continue
		}
		if p.have == nil {
			p.cands, p.have = slab(&e.slabs.cands, nt), slab(&e.slabs.have, nt)
		}
		p.cands[y.t], p.have[y.t] = pp.cands[y.t], true
	}
	return p
}

// depCut returns the first step of thread t within its extent whose After
// steps are not all in the partial trace.
func (p *part) depCut(tr *Trace, t int) (int, bool) {
	if tr.dgroups != nil && tr.dgroups[t] != nil {
		return p.depCutGroups(tr.dgroups[t], t)
	}
	for _, i := range tr.deps[t] {
		if int(i) >= p.ext[t] {
			break
		}
		for _, a := range tr.Threads[t].Steps[i].After {
			if a.T >= 0 && int(a.I) >= p.ext[a.T] {
				return int(i), true
			}
		}
	}
	return 0, false
}

// depCutGroups is depCut for a thread with dgroups gs: the first step,
// per thread u, whose After step in u is beyond u's extent (they grow
// with the steps: Trace.depIndex), found by binary search.
func (p *part) depCutGroups(gs []depGroup, t int) (int, bool) {
	best := p.ext[t]
	for _, g := range gs {
		e := int32(p.ext[g.u])
		k := sort.Search(len(g.ents), func(j int) bool { return g.ents[j].a >= e })
		if k < len(g.ents) && int(g.ents[k].i) < best {
			best = int(g.ents[k].i)
		}
	}
	return best, best < p.ext[t]
}

// finished reports whether thread c lies wholly in the partial trace.
func (p *part) finished(tr *Trace, c int, fr []*front, cut []bool) bool {
	if c < 0 || c >= len(tr.Threads) {
		return false
	}
	th := &tr.Threads[c]
	return th.End == EndDone && fr[c] == nil && !cut[c] && p.ext[c] == len(th.Steps) && p.parked[int32(c)] == 0 && !p.isParked(c)
}

func (p *part) isParked(c int) bool { _, ok := p.parked[int32(c)]; return ok }

// holdable reports whether some write of good (lock acquisitions of mutex
// loc, or its initial value when that is not free: a closed gate of a
// step-wise condition variable) is not released by its thread within the
// extents ext.
func (e *explorer) holdable(tr *Trace, ext []int, good []Ref, loc int64) bool {
	for _, g := range good {
		if g.T < 0 {
			return true
		}
		released := false
		steps := tr.Threads[g.T].Steps
		for i := int(g.I) + 1; i < ext[g.T] && i < len(steps); i++ {
			if steps[i].Loc == loc && steps[i].Op == OpUnlock {
				released = true
				break
			}
		}
		if !released {
			return true
		}
	}
	return false
}

func (e *explorer) explore(n *node) {
	for n != nil {
		n = e.exploreNode(n)
	}
}

// exploreNode explores node n. When n's only frontier read has a single
// value group that n's run already reads, it returns that child instead
// of exploring it (explore goes on with it): a long run of such nodes
// (one thread's straight-line code) costs no stack.
func (e *explorer) exploreNode(n *node) *node {
	if e.stopped() {
		return nil
	}
	if err := e.ctx.Err(); err != nil {
		e.fail(err)
		return nil
	}
	e.stats.Nodes++
	p := e.computePart(n)
	if p.dead {
		return nil
	}
	tr := n.tr
	if len(p.front) == 0 {
		if p.complete || e.opts.Failures && deadlocked(tr) {
			e.observe(n, p)
			return nil
		}
		e.leaf(n)
		return nil
	}
	if e.deadEnd(n, p) {
		e.stats.Dead++
		return nil
	}
	// A choice is branched on alone: its alternatives partition the classes.
	for _, f := range p.front {
		if !f.choice {
			continue
		}
		w := e.prefixWitness(n, p)
		sib := siblings{e: e}
		for k := 0; k < f.n; k++ {
			c := n.with(f.t, ann{choice: true, val: int64(k)})
			sib.add(-1, func(e *explorer) {
				if tr.choiceAt(f.t, f.k) == k {
					c.tr, c.wit = tr, n.wit
					e.stats.Reused++
				} else {
					cw := &Witness{Sched: w.Sched, Choices: c.choices(), Parked: c.parkedMap(tr)}
					ct, err := e.runW(cw)
					if err != nil {
						e.fail(err)
						return
					}
					c.tr, c.wit = ct, cw
					defer e.done(ct)
					if !e.validate(c) {
						return
					}
				}
				e.explore(c)
			})
		}
		sib.run()
		return nil
	}
	// One read with one value group: its one child, without a frame (a
	// frame with one read stays off the path).
	if len(p.front) == 1 {
		x := p.front[0]
		if gs := e.frontCands(n, p, x); len(gs) == 1 {
			if e.opts.Debug != nil {
				e.debugNode(p.front)
				e.opts.Debug("vmcr %*s read t%d.%d groups %v", len(e.stack), "", x.t, x.step, gs)
			}
			g := gs[0]
			c := n.with(x.t, ann{val: g.val, good: g.ws, stuck: g.stuck})
			c.neg = n.neg
			e.stats.Children++
			if e.reuse(n, p, c, x, g) {
				return c
			}
			e.realize(n, p, c, x, g)
			return nil
		}
	}
	reads := append([]front(nil), p.front...)
	rank := func(f front) int {
		switch {
		case f.hasNeg:
			return 2
		case f.op == OpLock:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(reads, func(a, b front) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return a.t - b.t
	})
	fr := &frame{node: n, ext: p.ext, reads: reads, newW: make([]bool, len(reads)), groups: make([][]group, len(reads))}
	// A read that may only read writes beyond an ancestor's partial trace
	// may have no candidate here; its later writes can only come from the
	// other frontier reads, so they are always tried.
	// The last read's mark decides nothing: no read follows it.
	for i, x := range reads {
		fr.newW[i] = x.hasNeg || i == len(reads)-1
		if !fr.newW[i] {
			fr.open.Add(1)
		}
	}
	// A frame with one read neither needs marks nor offers earlier
	// siblings to duplicate: it stays off the path.
	if len(reads) > 1 {
		e.blocked(n, p, fr)
		fr.mark(tr, nil)
		if k := len(e.stack); k > 0 {
			fr.mono = geq(fr.ext, e.stack[k-1].ext)
		}
		e.stack, e.curs = append(e.stack, fr), append(e.curs, 0)
		defer func() { e.stack, e.curs = e.stack[:len(e.stack)-1], e.curs[:len(e.curs)-1] }()
	}
	neg := n.neg
	before := e.stats.Children
	defer func() {
		if e.stats.Children == before {
			e.stats.Barren++
			if e.opts.Debug != nil {
				e.opts.Debug("vmcr %*s barren", len(e.stack), "")
			}
		}
	}()
	if e.opts.Debug != nil {
		e.debugNode(reads)
	}
	// The reads' value groups are subtrees of one sibling set, read by
	// read. Read i is branched on only if every read before it has a mark
	// (frame.newW), which runs in the subtrees of the reads before it may
	// set: when the marks are there already, its subtrees are added at
	// once (marks never go back, so the sequential search would branch on
	// it too) and other goroutines may take them while the earlier reads'
	// subtrees are explored; otherwise the earlier subtrees are waited for
	// first.
	sib := siblings{e: e}
	if e.sh.tokens != nil {
		n.clocks(&e.spare) // other goroutines read n.vc (reuse) while reads are added
	}
	addRead := func(i int) {
		x := reads[i]
		cur := i // the read branched on at fr (not on the path with one read)
		if len(reads) == 1 {
			cur = -1
		}
		if sib.pooled && (p.have == nil || !p.have[x.t]) {
			// Subtrees on other goroutines may read p's candidates
			// (childPart): compute them without caching.
			fr.groups[i] = e.candidates(n, p, x, n.neg.of(Ref{int32(x.t), int32(x.step)}))
		} else {
			fr.groups[i] = e.frontCands(n, p, x)
		}
		if e.opts.Debug != nil {
			e.opts.Debug("vmcr %*s read t%d.%d groups %v", len(e.stack), "", x.t, x.step, fr.groups[i])
		}
		for _, g := range fr.groups[i] {
			c := n.with(x.t, ann{val: g.val, good: g.ws, stuck: g.stuck})
			c.neg = neg
			sib.add(cur, func(e *explorer) { e.child(n, p, c, x, g) })
		}
		// Later siblings let x read only writes not in this partial trace.
		if i < len(reads)-1 {
			neg = &negAnn{r: Ref{int32(x.t), int32(x.step)}, ext: p.ext, next: neg}
		}
	}
	marked := func(i int) bool {
		fr.mu.Lock()
		defer fr.mu.Unlock()
		return !slices.Contains(fr.newW[:i], false)
	}
	addRead(0)
	for next := 1; ; {
		for next < len(reads) && marked(next) {
			addRead(next)
			next++
		}
		sib.runPending()
		if next == len(reads) || e.stopped() {
			break
		}
		sib.waitStolen()
		if !marked(next) {
			break
		}
	}
	sib.finish()
	return nil
}

// debugNode prints a node's frontier reads (Options.Debug).
func (e *explorer) debugNode(reads []front) {
	var sb []string
	for _, x := range reads {
		sb = append(sb, fmt.Sprintf("t%d.%d@%x%s", x.t, x.step, x.loc, map[bool]string{true: "N"}[x.hasNeg]))
	}
	e.opts.Debug("vmcr %*s node %v", len(e.stack), "", sb)
}

// blocked fills fr.blk with the frontier reads of node n (p is its
// partial trace) that are blocked: a negative annotation and no
// candidate (lock acquires excluded), and fr.excl with the reads that
// satisfy condition C: no commit of an earlier store of its thread to its
// location lies beyond the partial trace (its Own commit, if any, is in
// it; always under sc). See docs/vmcr.md, "Blocked reads do not make
// backtrack points".
func (e *explorer) blocked(n *node, p *part, fr *frame) {
	tr := n.tr
	for _, y := range fr.reads {
		if !y.hasNeg || y.choice || y.op == OpLock || y.step != p.ext[y.t] {
			continue
		}
		if len(e.frontCands(n, p, y)) > 0 {
			continue
		}
		if fr.blk == nil {
			fr.blk = make([]int32, len(tr.Threads))
			for u := range fr.blk {
				fr.blk[u] = -1
			}
		}
		fr.blk[y.t] = int32(y.step)
	}
	if fr.blk == nil {
		return
	}
	fr.excl = make([]bool, len(fr.reads))
	for i, x := range fr.reads {
		st := &tr.Threads[x.t].Steps[x.step]
		if st.HasOwn && int(st.Own.I) >= p.ext[st.Own.T] {
			continue
		}
		fr.excl[i] = true
	}
}

// child realises annotation c (n plus x's group g) and explores it.
func (e *explorer) child(n *node, p *part, c *node, x front, g group) {
	e.stats.Children++
	if e.reuse(n, p, c, x, g) {
		e.explore(c)
		return
	}
	e.realize(n, p, c, x, g)
}

// reuse gives child c of n (x reads from group g; p is n's partial
// trace) n's run when that run already reads so, and reports whether it
// did.
func (e *explorer) reuse(n *node, p *part, c *node, x front, g group) bool {
	tr := n.tr
	s := &tr.Threads[x.t].Steps[x.step]
	if g.stuck || s.Pending || !inRefs(s.Src, g.ws) {
		return false
	}
	c.tr, c.wit = tr, n.wit
	e.stats.Reused++
	// The same run: the clocks change only by a new forced source
	// that does not precede x already.
	if n.vc != nil {
		xr := Ref{int32(x.t), int32(x.step)}
		c.vc = n.vc
		e1, e2 := tr.rfEdges(s, g.ws)
		for _, w := range [2]Ref{e1, e2} {
			if w.T >= 0 && c.vc.at(xr, int(w.T)) <= w.I {
				c.vc = c.vc.withEdge(&e.spare, tr, w, xr)
			}
		}
	}
	c.from, c.fromT, c.fromNeg = p, int32(x.t), n.neg
	c.fromCands = c.vc == n.vc && c.neg == n.neg
	return true
}

// realize finds a run for child c of n (x reads from group g), other than
// n's, and explores it.
func (e *explorer) realize(n *node, p *part, c *node, x front, g group) {
	tr := n.tr
	s := &tr.Threads[x.t].Steps[x.step]
	if g.stuck && s.Pending && !tr.ParkedEnabled {
		if f := tr.finalOf(x.lid); f != noRef && inRefs(f, g.ws) {
			c.tr, c.wit = tr, n.wit
			e.stats.Reused++
			e.explore(c)
			return
		}
	}
	limit := append([]int(nil), p.ext...)
	if g.stuck {
		limit[x.t] = x.step
	} else {
		limit[x.t] = x.step + 1
	}
	w, err := e.search(c, tr, limit, false)
	if err != nil {
		e.fail(err)
		return
	}
	if w == nil {
		e.stats.Infeasible++
		return
	}
	e.resumable(tr, n.wit, w)
	ct, err := e.runW(w)
	if err != nil {
		e.fail(err)
		return
	}
	defer e.done(ct)
	c.tr, c.wit = ct, w
	if !e.validate(c) {
		return
	}
	e.explore(c)
}

// done reuses the storage of run tr, its index tables here and the rest
// in the runner (Releaser), once nothing reads tr: leaves go out as
// summaries.
func (e *explorer) done(tr *Trace) {
	if e.opts.Summary == nil {
		return
	}
	e.spare.recycle(tr)
	if r, ok := e.run.(Releaser); ok {
		r.Release(tr) // last: the runner may reuse tr itself
	}
}

// candSpan is candidates' range of one thread's writes: all[k:end] are
// the thread's writes of the location, all[k+a:k+b] those within the
// extents.
type candSpan struct{ k, end, a, b int }

type group struct {
	val   int64
	ws    []Ref
	stuck bool
}

// candidates groups by value the writes frontier read x may read: writes
// of the partial trace to x's location (other threads' writes, and x's
// thread's last one before x, or Init), without those neg forbids.
func (e *explorer) candidates(n *node, p *part, x front, neg []int) []group {
	tr := n.tr
	ws := e.candWS[:0] // scratch: the groups get their own arrays
	spans := e.candSpans[:0]
	defer func() { e.candWS, e.candSpans = ws[:0], spans[:0] }()
	own := -1
	// all is sorted by thread, then index: each thread's writes are
	// looked up by binary search, so a long thread costs logarithmic time
	// per read, not linear. spans: per other thread, its writes x may
	// read by the extents (all[k+a:k+b]), before the causal filter.
	all := tr.writesOf(x.lid)
	some := false
	for k := 0; k < len(all); {
		end := threadEnd(all, k)
		u, run := int(all[k].T), all[k:end]
		if u == x.t {
			if j := below(run, x.step); j > 0 {
				own = int(run[j-1].I)
			}
			k = end
			continue
		}
		lo := 0
		if neg != nil && u < len(neg) {
			lo = neg[u]
		}
		a, b := below(run, lo), below(run, p.ext[u])
		spans = append(spans, candSpan{k: k, end: end, a: a, b: b})
		some = some || b > a
		k = end
	}
	if !some && neg != nil {
		// A read under a negative annotation with no write beyond it
		// (deadEnd asks this of every such read): no clocks needed.
		return nil
	}
	// Drop the writes that cannot be read for causal reasons alone
	// (program order, spawn, join): writes after x, and writes overwritten
	// by another write before x.
	vc := n.clocks(&e.spare)
	vx := vc.row(x.t, x.step)
	var lastBuf [8]Ref
	last := lastBuf[:0] // per thread: its latest write to loc before x
	if xs := &tr.Threads[x.t].Steps[x.step]; xs.HasOwn {
		// The read reads its Own commit or a write after it: writes
		// before Own are overwritten for it.
		var vb [16]int32
		vx = append(vb[:0], vx...)
		vx[xs.Own.T] = max(vx[xs.Own.T], xs.Own.I+1)
	}
	for k := 0; k < len(all); {
		end := threadEnd(all, k)
		u, run := int(all[k].T), all[k:end]
		k = end
		lim := int(vx[u])
		if u == x.t {
			lim = x.step
		}
		if j := below(run, lim); j > 0 {
			last = append(last, run[j-1])
		}
	}
	// A thread's writes before its latest one before x are overwritten
	// for x (the filter below drops them): they are not even listed, so
	// that a long thread of writes costs logarithmic time per read.
	for _, sp := range spans {
		run := all[sp.k:sp.end]
		a := sp.a
		if j := below(run, int(vx[run[0].T])); j-1 > a {
			a = j - 1
		}
		if a < sp.b {
			ws = append(ws, run[a:sp.b]...)
		}
	}
	if neg == nil {
		if own >= 0 {
			ws = append(ws, Ref{int32(x.t), int32(own)})
		} else {
			ws = append(ws, Init)
		}
	}
	// Two reads that write (RMW, CAS, lock) cannot read the same write:
	// the writes an annotated one must read are consumed. Only reads up to
	// a thread's last annotated one carry annotations.
	var consumed []Ref
	xs := &tr.Threads[x.t].Steps[x.step]
	if xs.WriteFor != nil {
		for k := 0; k < len(all); {
			end := threadEnd(all, k)
			u, run := int(all[k].T), all[k:end]
			k = end
			as := n.annOf(u)
			if len(as) == 0 {
				continue
			}
			run = run[:below(run, tr.dec[u][len(as)-1].step+1)]
			for _, w := range run {
				st := &tr.Threads[w.T].Steps[w.I]
				if !st.Op.IsRead() {
					continue
				}
				d := tr.rdec[w.T][w.I]
				if d < 0 || int(d) >= len(as) {
					continue
				}
				if a := as[d]; !a.choice && !a.stuck && len(a.good) == 1 {
					consumed = append(consumed, a.good[0])
				}
			}
		}
	}
	kept := ws[:0]
	for _, w := range ws {
		if w.T >= 0 && vc.at(w, x.t) > int32(x.step) {
			continue // after x
		}
		if inRefs(w, consumed) {
			if wr, _ := xs.WriteFor(tr.value(w, x.loc)); wr {
				continue
			}
		}
		dead := false
		for _, b := range last {
			if b != w && (w.T < 0 || vc.at(b, int(w.T)) > w.I) {
				dead = true
				break
			}
		}
		if !dead {
			kept = append(kept, w)
		}
	}
	ws = kept
	var gs []group
	if x.op == OpLock {
		var free, held []Ref
		for _, w := range ws {
			if tr.value(w, x.loc) == 0 {
				free = append(free, w)
			} else {
				held = append(held, w)
			}
		}
		if len(free) > 0 {
			gs = append(gs, group{val: 0, ws: free})
		}
		if len(held) > 0 && e.holdable(tr, p.ext, held, x.loc) {
			gs = append(gs, group{val: 1, ws: held, stuck: true})
		}
		return gs
	}
	// The groups by value, in one array of groups and one of writes
	// (slabs): first the sizes, then the writes.
	var vb [8]int64
	vals := vb[:0]
	for _, w := range ws {
		if v := tr.value(w, x.loc); !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return nil
	}
	gs = slab(&e.slabs.groups, len(vals))
	for i, v := range vals {
		gs[i].val = v
	}
	refs := slab(&e.slabs.refs, len(ws))
	for i := range gs {
		k := 0
		for _, w := range ws {
			if tr.value(w, x.loc) == gs[i].val {
				refs[k] = w
				k++
			}
		}
		gs[i].ws, refs = refs[:k:k], refs[k:]
	}
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && gs[j].val < gs[j-1].val; j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
	return gs
}

// threadEnd returns the end of the run of writes of thread all[k].T that
// starts at k (all is sorted by thread, then index).
func threadEnd(all []Ref, k int) int {
	t := all[k].T
	return k + sort.Search(len(all)-k, func(j int) bool { return all[k+j].T != t })
}

// below returns how many writes of run (one thread's, by index) come
// before step i.
func below(run []Ref, i int) int {
	return sort.Search(len(run), func(j int) bool { return int(run[j].I) >= i })
}

func inRefs(r Ref, rs []Ref) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// choices lists the annotated choices of every thread.
func (n *node) choices() map[int32][]int {
	var m map[int32][]int // nil without choices
	if !n.choice {
		return nil
	}
	for t, as := range n.ann {
		for _, a := range as {
			if a.choice {
				if m == nil {
					m = map[int32][]int{}
				}
				m[int32(t)] = append(m[int32(t)], int(a.val))
			}
		}
	}
	return m
}

// parkedMap lists the threads whose last annotation is a stuck lock, with
// the step they stop before (steps are those of tr, which agrees with n up
// to the annotations).
func (n *node) parkedMap(tr *Trace) map[int32]int {
	var m map[int32]int
	for t, as := range n.ann {
		if k := len(as); k > 0 && as[k-1].stuck {
			if m == nil {
				m = map[int32]int{}
			}
			m[int32(t)] = tr.dec[t][k-1].step
		}
	}
	return m
}

// prefixWitness is the schedule of n's run restricted to its partial
// trace: a witness of n's annotation.
func (e *explorer) prefixWitness(n *node, p *part) *Witness {
	var s []int32
	for _, r := range n.tr.Order {
		if int(r.I) < p.ext[r.T] {
			s = append(s, r.T)
		}
	}
	return &Witness{Sched: s}
}

// observe annotates the observer's reads of the final values (all threads
// have finished): locations with one possible final value need no branch.
func (e *explorer) observe(n *node, p *part) {
	tr := n.tr
	nobs := len(e.opts.Observed)
	// n.obs is shared with siblings: extend a copy.
	obs := make([]ann, len(n.obs), nobs)
	copy(obs, n.obs)
	var ws []Ref
	for len(obs) < nobs {
		l := e.obsID[len(obs)]
		ws = ws[:0]
		for u, i := range tr.maxWOf(l) {
			if i >= 0 {
				ws = append(ws, Ref{int32(u), i})
			}
		}
		if len(ws) == 0 {
			obs = append(obs, ann{val: tr.initVal(e.opts.Observed[len(obs)]), good: []Ref{Init}})
			continue
		}
		loc := e.opts.Observed[len(obs)]
		v0 := tr.value(ws[0], loc)
		one := true
		for _, w := range ws[1:] {
			if tr.value(w, loc) != v0 {
				one = false
				break
			}
		}
		if one {
			obs = append(obs, ann{val: v0, good: append([]Ref(nil), ws...)})
			continue
		}
		var gs []group
		for _, w := range ws {
			v := tr.value(w, loc)
			i := 0
			for i < len(gs) && gs[i].val != v {
				i++
			}
			if i == len(gs) {
				gs = append(gs, group{val: v})
			}
			gs[i].ws = append(gs[i].ws, w)
		}
		slices.SortFunc(gs, func(a, b group) int { return cmp.Compare(a.val, b.val) })
		f := tr.finalOrInit(l)
		for _, g := range gs {
			c := &node{ann: n.ann, neg: n.neg, choice: n.choice}
			c.obs = append(obs[:len(obs):len(obs)], ann{val: g.val, good: g.ws})
			if inRefs(f, g.ws) {
				c.tr, c.wit = tr, n.wit
				e.stats.Reused++
			} else {
				w, err := e.search(c, tr, append([]int(nil), p.ext...), true)
				if err != nil {
					e.fail(err)
					return
				}
				if w == nil {
					e.stats.Infeasible++
					continue
				}
				e.resumable(tr, n.wit, w)
				ct, err := e.runW(w)
				if err != nil {
					e.fail(err)
					return
				}
				c.tr, c.wit = ct, w
				if !e.validate(c) {
					return
				}
			}
			e.stats.Nodes++
			e.observe(c, p)
			if c.tr != tr {
				e.done(c.tr)
			}
			if e.stopped() {
				return
			}
		}
		return
	}
	if len(obs) != len(n.obs) {
		n = &node{ann: n.ann, neg: n.neg, tr: tr, wit: n.wit, obs: obs, choice: n.choice}
	}
	e.leaf(n)
}

func (e *explorer) leaf(n *node) {
	if n.tr.ParkedEnabled {
		e.stats.Discarded++
		return
	}
	dup, err := e.duplicate(n)
	if err != nil {
		e.fail(err)
		return
	}
	if dup {
		e.stats.Duplicates++
		return
	}
	e.stats.Leaves++
	e.emit(n.tr)
	if e.opts.Failures {
		e.failures(n)
	}
}

// emit hands the run tr of a leaf over (as its summary with
// Options.Summary).
func (e *explorer) emit(tr *Trace) {
	if e.opts.Summary != nil {
		e.sh.emit(e.out, e.opts.Summary(tr))
		return
	}
	e.sh.emit(e.out, tr)
}

// validate checks that c's run agrees with c's annotation.
func (e *explorer) validate(c *node) bool {
	tr := c.tr
	for t, as := range c.ann {
		if len(as) == 0 {
			continue
		}
		if t >= len(tr.Threads) || len(tr.dec[t]) < len(as) {
			e.fail(fmt.Errorf("internal error: vmcr: the run of a witness lacks decisions of thread %d", t))
			return false
		}
		for k, a := range as {
			d := tr.dec[t][k]
			if d.choice != a.choice {
				e.fail(fmt.Errorf("internal error: vmcr: thread %d decision %d changed kind", t, k))
				return false
			}
			if a.choice {
				if tr.choiceAt(t, k) != int(a.val) {
					e.fail(fmt.Errorf("internal error: vmcr: thread %d choice %d is %d, annotated %d", t, k, tr.choiceAt(t, k), a.val))
					return false
				}
				continue
			}
			s := &tr.Threads[t].Steps[d.step]
			if a.stuck {
				if !s.Pending || k != len(as)-1 {
					e.fail(fmt.Errorf("internal error: vmcr: thread %d step %d should be parked", t, d.step))
					return false
				}
				continue
			}
			if s.Pending || s.RVal != a.val || !inRefs(s.Src, a.good) {
				e.fail(fmt.Errorf("internal error: vmcr: thread %d step %d read %d from %v, annotated %d from %v", t, d.step, s.RVal, s.Src, a.val, a.good))
				return false
			}
		}
	}
	for k, a := range c.obs {
		l := e.opts.Observed[k]
		f := tr.finalOrInit(e.obsID[k])
		if !inRefs(f, a.good) {
			e.fail(fmt.Errorf("internal error: vmcr: final write of location %#x is %v, annotated %v", l, f, a.good))
			return false
		}
	}
	return true
}

// duplicate reports whether the class of leaf n lies in a subtree explored
// before: at an ancestor that branched on its frontier reads x_1..x_i, the
// leaf lies in x_i's subtree (x_1..x_{i-1} read writes beyond the
// ancestor's partial trace), and x_j (j < i) had a value group of the
// leaf's value; if the leaf's class has a schedule in which x_j reads from
// that group (and x_1..x_{j-1} from beyond the partial trace), x_j's
// subtree holds it.
func (e *explorer) duplicate(n *node) (bool, error) {
	tr := n.tr
	for k, f := range e.stack {
		for j := 0; j < e.curs[k]; j++ {
			x := f.reads[j]
			st := &tr.Threads[x.t].Steps[x.step]
			for _, g := range f.groups[j] {
				if g.stuck != st.Pending || !g.stuck && g.val != st.RVal {
					continue
				}
				ok, err := e.realizable(n, f, j, g)
				if err != nil || ok {
					return ok, err
				}
			}
		}
	}
	return false, nil
}

// realizable reports whether leaf n's class has a schedule that agrees
// with frame f's annotation, in which f's read j reads from group g and
// f's reads before j read writes beyond f's partial trace.
func (e *explorer) realizable(n *node, f *frame, j int, g group) (bool, error) {
	e.stats.Searches++
	tr := n.tr
	nt := len(tr.Threads)
	s := e.newSearch(tr)
	s.consAt = func(t, i int) (cons, bool) {
		st := &tr.Threads[t].Steps[i]
		if st.Pending || !st.Op.IsRead() {
			return cons{}, false
		}
		for k := 0; k <= j; k++ {
			if x := f.reads[k]; x.t == t && x.step == i {
				if k == j {
					return cons{mode: mGood, val: g.val, good: g.ws}, true
				}
				return cons{mode: mNeg, val: st.RVal, neg: f.ext}, true
			}
		}
		as := f.node.annOf(t)
		if d := tr.rdec[t][i]; d >= 0 && int(d) < len(as) {
			return cons{mode: mGood, val: as[d].val, good: as[d].good}, true
		}
		return cons{mode: mValue, val: st.RVal}, true
	}
	complete := true
	for t := 0; t < nt; t++ {
		th := &tr.Threads[t]
		if th.End == EndAbsent {
			continue
		}
		if th.End != EndDone {
			complete = false
		}
		m := len(th.Steps)
		if m > 0 && th.Steps[m-1].Pending {
			m--
			st := &th.Steps[m]
			s.addRel(st.lid)
			fin := final{loc: st.Loc, lid: st.lid, nonzero: true}
			if x := f.reads[j]; x.t == t && x.step == m {
				fin.good = g.ws
			} else if as := f.node.annOf(t); len(as) > 0 && as[len(as)-1].stuck && tr.dec[t][len(as)-1].step == m {
				fin.good = as[len(as)-1].good
			}
			s.finals = append(s.finals, fin)
		}
		s.limit[t], s.need[t] = m, m
		for i := 0; i < m; i++ {
			if th.Steps[i].Op.IsRead() {
				s.addRel(th.Steps[i].lid)
			}
		}
	}
	if complete || e.opts.Failures && deadlocked(tr) {
		for k, l := range e.opts.Observed {
			v := tr.initVal(l)
			if w := tr.finalOf(e.obsID[k]); w != noRef {
				v = tr.value(w, l)
			}
			s.addRel(e.obsID[k])
			s.finals = append(s.finals, final{loc: l, lid: e.obsID[k], byVal: true, val: v})
		}
	}
	slices.Sort(s.rel)
	return s.run()
}

// deadHint names a step wi of active thread wt's rest that writes (or
// may write) the location of thread zt's blocked frontier read beyond
// that read's negative annotation: while this holds, deadEnd is false.
// Along a chain of children that reuse one run most nodes fail deadEnd
// for the same write; the hint finds it without scanning the rests.
type deadHint struct {
	ok         bool
	zt, wt, wi int
}

// holds reports whether the hint still shows node n's subtree not dead:
// thread zt's frontier read is blocked, thread wt's is active, and step
// wi of wt (a step of the same run: the hint comes from a node with run
// tr) lies in wt's rest beyond zt's negative annotation and writes or may
// write zt's location. deadEnd's check of the blocked reads fails then.
func (h deadHint) holds(tr *Trace, n *node, blocked, active []front) bool {
	if !h.ok {
		return false
	}
	var z, f *front
	for i := range blocked {
		if blocked[i].t == h.zt {
			z = &blocked[i]
		}
	}
	for i := range active {
		if active[i].t == h.wt {
			f = &active[i]
		}
	}
	if z == nil || f == nil || h.wi < f.step {
		return false
	}
	if ext := n.neg.of(Ref{int32(z.t), int32(z.step)}); h.wt < len(ext) && h.wi < ext[h.wt] {
		return false
	}
	st := &tr.Threads[h.wt].Steps[h.wi]
	return st.lid == z.lid && (st.Wrote || st.WriteFor != nil) && hasLoc(st.Op)
}

// deadEnd reports whether node n's subtree holds no execution and no run
// other than n's own, so that exploring it changes nothing: some frontier
// reads with negative annotations have no candidate write (blocked), and
// the other threads with a frontier read (active) can only go on as in n's
// run, never writing a blocked read's location.
//
// The active threads' rests (from their frontier on, in n's run) must be
// independent: no active thread writes (or may write, by an RMW) a location
// another active thread reads in its rest or a blocked read reads. Every
// read in an active thread's rest must have a single candidate value group
// (computed in n; a descendant's candidates are a subset: its partial trace
// adds only steps of the active threads' rests, which by independence
// offer no other thread's read a write, and more annotations add causal
// edges and consumed writes), of the value it read in n's run, containing
// the write it read. Then every child in n's subtree reuses n's run (the
// write read stays a candidate: n's run is a linearisation of every causal
// edge) or has no candidate (an active read negated by a sibling, or a
// blocked read), the active threads' steps are those of n's run, the
// blocked reads gain no candidate and the frontier never empties: no leaf,
// no run, no backtrack mark. Threads without a frontier read must lie
// wholly in the partial trace; choices, locks, spawns, joins, pending steps
// and store-buffer dependencies in an active rest make the check give up.

func (e *explorer) deadEnd(n *node, p *part) bool {
	if p.parked != nil {
		return false
	}
	anyNeg := false
	for _, f := range p.front {
		if f.choice || f.op == OpLock {
			return false
		}
		anyNeg = anyNeg || f.hasNeg
	}
	if !anyNeg {
		return false
	}
	tr := n.tr
	blocked, active := e.deadFr[:0], e.deadFr2[:0]
	defer func() { e.deadFr, e.deadFr2 = blocked[:0], active[:0] }()
	for _, f := range p.front {
		if f.hasNeg && len(e.frontCands(n, p, f)) == 0 {
			blocked = append(blocked, f)
		} else {
			active = append(active, f)
		}
	}
	if len(blocked) == 0 {
		return false
	}
	if len(active) == 0 {
		return true // every frontier read is blocked: no child at all
	}
	if p.hint.holds(tr, n, blocked, active) {
		if e.opts.check != nil {
			e.opts.check.hints++
			h := p.hint
			p.hint = deadHint{}
			if e.deadEnd(n, p) {
				e.fail(fmt.Errorf("internal error: vmcr: deadEnd hint %+v holds for a dead subtree", h))
			}
			p.hint = h
		}
		return false
	}
	if cap(e.deadIn) < len(tr.Threads) {
		e.deadIn = make([]bool, len(tr.Threads))
	}
	inFront := e.deadIn[:len(tr.Threads)]
	clear(inFront)
	for _, f := range p.front {
		inFront[f.t] = true
	}
	for t := range tr.Threads {
		th := &tr.Threads[t]
		if th.End != EndAbsent && !inFront[t] && p.ext[t] != len(th.Steps) {
			return false
		}
	}
	// writer[l]: the active thread whose rest writes location id l (-2:
	// several, -1: none); reader likewise for reads.
	if cap(e.deadBuf) < 2*tr.nloc {
		e.deadBuf = make([]int32, 2*tr.nloc)
	}
	writer := e.deadBuf[:tr.nloc]
	reader := e.deadBuf[tr.nloc : 2*tr.nloc]
	for l := range writer {
		writer[l], reader[l] = -1, -1
	}
	note := func(m []int32, l int32, t int) {
		switch m[l] {
		case -1:
			m[l] = int32(t)
		case int32(t), -2:
		default:
			m[l] = -2
		}
	}
	for _, f := range active {
		th := &tr.Threads[f.t]
		if len(th.Tail) > 0 {
			return false
		}
		for i := f.step; i < len(th.Steps); i++ {
			st := &th.Steps[i]
			if st.Pending || len(st.Pre) > 0 || len(st.After) > 0 || st.HasOwn {
				return false
			}
			switch st.Op {
			case OpSpawn, OpJoin, OpLock, OpUnlock:
				return false
			}
			if st.Op.IsRead() {
				note(reader, st.lid, f.t)
			}
			if st.Wrote || st.WriteFor != nil {
				note(writer, st.lid, f.t)
			}
		}
	}
	// A blocked read may read no write of an active rest: none beyond its
	// negative annotation's extents (the writes within them stay forbidden:
	// a descendant's negative annotation only grows them).
	for _, z := range blocked {
		if writer[z.lid] == -1 {
			continue
		}
		ext := n.neg.of(Ref{int32(z.t), int32(z.step)})
		for _, f := range active {
			th := &tr.Threads[f.t]
			lo := f.step
			if f.t < len(ext) {
				lo = max(lo, ext[f.t])
			}
			for i := lo; i < len(th.Steps); i++ {
				if st := &th.Steps[i]; st.lid == z.lid && (st.Wrote || st.WriteFor != nil) && hasLoc(st.Op) {
					p.hint = deadHint{ok: true, zt: z.t, wt: f.t, wi: i}
					return false
				}
			}
		}
	}
	for l := range writer {
		if w := writer[l]; w != -1 && reader[l] != -1 && (w == -2 || reader[l] != w) {
			return false
		}
	}
	for _, f := range active {
		th := &tr.Threads[f.t]
		for i := f.step; i < len(th.Steps); i++ {
			st := &th.Steps[i]
			if !st.Op.IsRead() {
				continue
			}
			var gs []group
			if i == f.step {
				gs = e.frontCands(n, p, f)
			} else {
				x := front{t: f.t, step: i, op: st.Op, loc: st.Loc, lid: st.lid}
				gs = e.candidates(n, p, x, nil)
			}
			if len(gs) != 1 || gs[0].stuck || gs[0].val != st.RVal || !inRefs(st.Src, gs[0].ws) {
				return false
			}
		}
	}
	return true
}
