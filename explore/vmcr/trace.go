// Package vmcr is a value-optimal stateless explorer for sequential
// consistency in the style of RVF-SMC (Agarwal et al., CAV'21): every node
// of the search carries a value annotation (per thread, the values of its
// first reads and nondeterministic choices, each read with the set of
// writes it may read from), the node branches on one canonically chosen
// frontier read and groups that read's candidate writes by value, and
// negative annotations keep later siblings from repeating values an elder
// sibling offered. A witness schedule realises each annotation; the
// interpreter runs it (through a Runner) and the default scheduler finishes
// the execution. Only the current path of the search is kept: memory is
// polynomial in the length of an execution.
//
// The package knows nothing of the interpreter: a Runner runs a witness
// (a schedule of thread steps, the choices, the parked threads) and returns
// a Trace of steps with their thread, kind, location and values.
package vmcr

import (
	"context"
	"sync"
	"sync/atomic"
)

// Op is what a step does to shared memory.
type Op uint8

// Step kinds.
const (
	OpOther  Op = iota // no shared access (fence, atomic-begin, ...)
	OpRead             // a load
	OpWrite            // a store
	OpRMW              // a read that may write (RMW, CAS, trylock): WriteFor says what
	OpLock             // a blocking lock acquire: reads the mutex free (0), writes WriteFor(0)
	OpUnlock           // a lock release: writes 0
	OpSpawn            // creates thread Other
	OpJoin             // waits for thread Other to finish
)

// IsRead reports whether steps of kind o read memory (and so are decisions).
func (o Op) IsRead() bool { return o == OpRead || o == OpRMW || o == OpLock }

// Ref names a step: thread T and its index I in that thread. T = -1 is the
// initial write of every location.
type Ref struct {
	T int32
	I int32
}

// Init is the initial write.
var Init = Ref{T: -1}

// Choice is a nondeterministic choice: K of N alternatives.
type Choice struct{ N, K int }

// Step is one visible step of a thread. (Fields are ordered so that the
// struct has no padding.)
type Step struct {
	Loc  int64
	RVal int64 // the value read (reads)
	WVal int64 // the value written (when Wrote)
	// WriteFor says whether an OpRMW or OpLock step writes, and what, when
	// it reads v (nil for other steps).
	WriteFor func(v int64) (bool, int64)
	// Pre are the choices the thread made before this step (after its
	// previous step).
	Pre []Choice
	// After are steps of other threads that must precede this one (store
	// buffers: a commit follows its store; a draining step follows the
	// commits of its thread's earlier stores; a join follows the commits
	// of the joined thread).
	After []Ref
	Src   Ref   // the write read from (reads)
	Other int32 // OpSpawn, OpJoin: the other thread
	lid   int32 // dense id of Loc (set by prepare)
	// Own (when HasOwn) is, for a read under a store-buffer model, the
	// commit of its thread's newest earlier store to Loc. Until Own has
	// run the read reads Own's value whatever memory holds (store
	// forwarding); after, it reads memory.
	Own    Ref
	Op     Op
	Wrote  bool // the step wrote Loc in this run
	HasOwn bool
	// Pending: the step did not run; the thread waits for it at the end of
	// the run (a lock acquire whose mutex stays held, or a parked thread).
	Pending bool
}

// End is how a thread ended.
type End uint8

// Thread ends.
const (
	EndDone    End = iota // returned
	EndBlocked            // a failed assume or await
	EndFailed             // an assertion failure or runtime error
	EndBound              // a loop or step bound
	EndWaiting            // waits for a lock or a join at the end of the run
	EndAbsent             // not created in this run
)

// Thread is one thread of a trace.
type Thread struct {
	Steps []Step
	Tail  []Choice // choices made after the last step
	End   End
	Spawn Ref // the spawn step that created it (Init for main)
	// Buffer: the thread is a store buffer of thread Owner (its steps are
	// the commits of Owner's stores, in FIFO order). Its writes are never
	// read by Owner's earlier reads.
	Buffer bool
	Owner  int32
}

// Trace is one run of the program.
type Trace struct {
	Threads []Thread // by thread number
	// Order is the schedule that ran: each executed step in turn.
	Order []Ref
	// InitVal gives the initial value of a location (0 if absent).
	InitVal map[int64]int64
	// ParkedEnabled: the run stopped with a parked thread that could move
	// (its mutex was released), so it does not realise its annotation.
	ParkedEnabled bool
	// Payload is the runner's own record of the run (handed back to Leaf).
	Payload any

	dec   [][]decision // per thread: its decisions in program order
	rdec  [][]int32    // rdec[t][i]: decision index of read step (t, i), -1 if none
	tpos  [][]int32    // tpos[t][i]: index of step (t, i) in Order
	joins [][]int32    // per thread: its join steps
	deps  [][]int32    // per thread: its steps with After steps
	// dgroups[t] (nil: none; dgroups nil: for no thread) indexes a
	// thread with many deps by the thread of their After steps, for
	// part.depCut (depIndex).
	dgroups [][]depGroup
	wlist   []Ref        // the steps that wrote (not pending), by location id, thread, index
	wfrom   []int32      // wlist[wfrom[l]:wfrom[l+1]] wrote location id l
	nloc    int          // location ids below nloc index the tables below
	final   []Ref        // per location id: the last write (noRef: none)
	maxW    []int32      // [l*threads+t]: highest step index of t that wrote location id l (-1: none)
	maxM    []int32      // the same for steps that may write it when they read (RMW, CAS, lock), pending or not
	minWr   []int32      // [l*threads+t]: lowest step index of t that writes or may write location id l (wsearch.setup's solo; -1: none)
	ibuf    []int32      // the array of rdec and tpos
	dbuf    []decision   // the array of dec
	tabs    *traceTables // the arrays of the tables above, for reuse (spareTables)
}

// Witness is what a Runner runs: Sched lists the thread of each step to
// take first; then the default scheduler takes the first enabled thread in
// creation order, never moving a parked thread past its step Parked[t].
// Choices[t] are thread t's choices in order (0 beyond them).
type Witness struct {
	Sched   []int32
	Choices map[int32][]int
	Parked  map[int32]int
	// Base (nil: none) is a run whose schedule begins with Sched[:Same]
	// (Base.Order[:Same] are those steps) and whose state after them is
	// the state of this witness's run after them: a Runner may resume
	// from a copy of Base's state there instead of running them again.
	// Explore clears Base once the witness has run.
	Base *Trace
	Same int
	// Keep (0: all of Sched) is the length of the prefix of Sched after
	// which every step the annotation needs has run; the later steps
	// were taken only because they could be. A Runner that keeps a
	// snapshot keeps the state there: the witnesses of later nodes repeat
	// this run's schedule up to about where their new read needs another
	// write, which is more often past Keep than past the end of Sched.
	Keep int
	// need (nil: unknown) is, per thread, the number of its steps the
	// annotation needs (set by the witness search, for keepPoint).
	need []int32
}

// Runner runs witnesses.
type Runner interface {
	Run(ctx context.Context, w *Witness) (*Trace, error)
}

// Releaser is a Runner that can reuse the storage of a run: with
// Options.Summary set, Explore calls Release on every trace Run returned
// once nothing reads it any more (the subtree of the node it was run for
// is explored; leaves are handed over as summaries): the runner may reuse
// tr itself for a later run. Release may be called after Summary on the
// same trace.
type Releaser interface {
	Release(tr *Trace)
}

// decision is a read or choice of a thread.
type decision struct {
	choice bool
	step   int // the read's step; for a choice, the step it precedes (len(Steps) for the tail)
	n      int // choice: alternatives
}

// noRef marks a location that no step wrote (Trace.final).
var noRef = Ref{T: -2}

// locIDs numbers the locations densely across the traces of one
// exploration, so that per-location tables are slices. The goroutines of
// a parallel exploration share it: they read a snapshot without locking
// and copy it under the lock to add locations (rare: the locations of a
// program recur from run to run).
type locIDs struct {
	mu   sync.Mutex
	snap atomic.Pointer[map[int64]int32]
}

// id returns the id of loc, adding it.
func (l *locIDs) id(loc int64) int32 {
	if m := l.snap.Load(); m != nil {
		if id, ok := (*m)[loc]; ok {
			return id
		}
	}
	return l.add([]int64{loc})[loc]
}

// add adds the locations locs and returns the new snapshot.
func (l *locIDs) add(locs []int64) map[int64]int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.snap.Load()
	m := make(map[int64]int32)
	if old != nil {
		m = make(map[int64]int32, len(*old)+len(locs))
		for k, v := range *old {
			m[k] = v
		}
	}
	for _, loc := range locs {
		if _, ok := m[loc]; !ok {
			m[loc] = int32(len(m))
		}
	}
	l.snap.Store(&m)
	return m
}

// hasLoc reports whether steps of kind o have a location.
func hasLoc(o Op) bool { return o != OpOther && o != OpSpawn && o != OpJoin }

// prepare indexes tr: decisions, dense location ids of its steps, the
// last writes and the per-location maxima. One pass over the steps does
// it all when every location already has an id (nearly always: the
// locations of a program recur from run to run); a new location is added
// and the pass starts again.
func (tr *Trace) prepare(ids *locIDs, sp *spareTables) {
	n := len(tr.Threads)
	tb := sp.take()
	tr.tabs = tb
	tr.dec = grabN(tb.dec, n)
	tr.rdec = grabN(tb.rdec, n)
	tr.tpos = grabN(tb.tpos, n)
	tr.joins = grabN(tb.joins, n)
	tr.deps = grabN(tb.deps, n)
	tb.dec, tb.rdec, tb.tpos, tb.joins, tb.deps = tr.dec, tr.rdec, tr.tpos, tr.joins, tr.deps
	total := 0
	for t := range tr.Threads {
		total += len(tr.Threads[t].Steps)
	}
	var m map[int64]int32
	if p := ids.snap.Load(); p != nil {
		m = *p
	}
	for !tr.index(m, sp, tb, n, total) {
		// A step's location has no id yet: add every new one, then again.
		var missing []int64
		for t := range tr.Threads {
			for i := range tr.Threads[t].Steps {
				if s := &tr.Threads[t].Steps[i]; hasLoc(s.Op) {
					if _, ok := m[s.Loc]; !ok {
						missing = append(missing, s.Loc)
					}
				}
			}
		}
		m = ids.add(missing)
	}
}

// index is prepare's pass over the steps with the location ids m. It
// reports false, with the tables unfinished, at a location without an id.
func (tr *Trace) index(m map[int64]int32, sp *spareTables, tb *traceTables, n, total int) bool {
	tr.nloc = len(m)
	nl := tr.nloc
	tr.maxW = sp.int32s(&tb.maxW, 3*nl*n)
	fill32(tr.maxW, -1)
	tr.minWr = tr.maxW[2*nl*n:]
	tr.maxM = tr.maxW[nl*n : 2*nl*n]
	tr.maxW = tr.maxW[:nl*n]
	tr.wfrom = sp.int32s(&tb.wfrom, nl+1)
	clear(tr.wfrom)
	tr.final = sp.refs(&tb.final, nl)
	for k := range tr.final {
		tr.final[k] = noRef
	}
	ibuf := sp.int32s(&tb.ibuf, 2*total)
	tr.ibuf = ibuf
	// The decisions of every thread share one array (grown as needed:
	// the threads' slices of an outgrown array stay valid), and so do
	// their joins and deps. wtmp lists the steps that wrote, in order.
	dall, jb, db, wtmp := tb.dbuf[:0], tb.jbuf[:0], tb.dbuf2[:0], tb.wtmp[:0]
	defer func() { tb.dbuf, tb.jbuf, tb.dbuf2, tb.wtmp = dall[:0], jb[:0], db[:0], wtmp[:0] }()
	for t := range tr.Threads {
		th := &tr.Threads[t]
		ms := len(th.Steps)
		d0, j0, p0 := len(dall), len(jb), len(db)
		rd := ibuf[:ms:ms]
		tp := ibuf[ms : 2*ms : 2*ms]
		ibuf = ibuf[2*ms:]
		for i := range th.Steps {
			s := &th.Steps[i]
			for _, c := range s.Pre {
				dall = append(dall, decision{choice: true, step: i, n: c.N})
			}
			rd[i] = -1
			tp[i] = 1 << 30
			if s.Op == OpJoin {
				jb = append(jb, int32(i))
			}
			if len(s.After) > 0 {
				db = append(db, int32(i))
			}
			if !hasLoc(s.Op) {
				continue
			}
			if c := &sp.lids[lidSlot(s.Loc)]; c.ok && c.loc == s.Loc {
				s.lid = c.id
			} else {
				id, ok := m[s.Loc]
				if !ok {
					return false
				}
				*c = lidCache{loc: s.Loc, id: id, ok: true}
				s.lid = id
			}
			if s.Op.IsRead() {
				rd[i] = int32(len(dall) - d0)
				dall = append(dall, decision{step: i})
			}
			k := int(s.lid)*n + t
			if s.Wrote && !s.Pending {
				tr.maxW[k] = int32(i)
				tr.wfrom[s.lid+1]++
				wtmp = append(wtmp, Ref{int32(t), int32(i)})
			}
			if s.Op == OpRMW || s.Op == OpLock {
				tr.maxM[k] = int32(i)
			}
			if (s.Op == OpWrite || s.Op == OpUnlock || s.Wrote || s.WriteFor != nil) && tr.minWr[k] < 0 {
				tr.minWr[k] = int32(i)
			}
		}
		for _, c := range th.Tail {
			dall = append(dall, decision{choice: true, step: ms, n: c.N})
		}
		tr.joins[t], tr.deps[t] = nil, nil
		if len(jb) > j0 {
			tr.joins[t] = jb[j0:len(jb):len(jb)]
		}
		if len(db) > p0 {
			tr.deps[t] = db[p0:len(db):len(db)]
		}
		tr.dec[t] = dall[d0:len(dall):len(dall)]
		tr.rdec[t] = rd
		tr.tpos[t] = tp
	}
	tr.dbuf = dall
	tr.depIndex()
	for l := 0; l < nl; l++ {
		tr.wfrom[l+1] += tr.wfrom[l]
	}
	tr.wlist = sp.refs(&tb.wlist, int(tr.wfrom[nl]))
	fill := append(tb.fill[:0], tr.wfrom[:nl]...)
	tb.fill = fill
	for _, r := range wtmp {
		l := tr.Threads[r.T].Steps[r.I].lid
		tr.wlist[fill[l]] = r
		fill[l]++
	}
	for k, r := range tr.Order {
		tr.tpos[r.T][r.I] = int32(k)
	}
	// The last write of a location in the order is the last of some
	// thread's writes of it (maxW; the steps that wrote are in the order).
	for l := 0; l < nl; l++ {
		best := int32(-1)
		for t, i := range tr.maxW[l*n : l*n+n] {
			if i >= 0 && tr.tpos[t][i] > best && tr.tpos[t][i] < 1<<30 {
				best = tr.tpos[t][i]
				tr.final[l] = Ref{int32(t), i}
			}
		}
	}
	return true
}

// depGroup lists the After steps of one thread u (all in u) of a thread's
// steps, in program order of those steps: ents[k] is step ents[k].i's
// After step (u, ents[k].a).
type depGroup struct {
	u    int32
	ents []depEnt
}

// depEnt is an entry of a depGroup.
type depEnt struct{ i, a int32 }

// manyDeps is the number of deps from which a thread gets dgroups.
const manyDeps = 64

// depIndex sets tr.dgroups for the threads with at least manyDeps steps
// with After steps when, for every thread u, the After steps in u of the
// thread's steps grow with the steps (a store buffer's commits follow
// their stores in order; drains and joins follow the commits made so
// far): then the first step cut by the extents is found by a binary
// search per thread u instead of a scan (depCut), and a long run of
// commits costs logarithmic time per partial trace, not linear.
func (tr *Trace) depIndex() {
	tr.dgroups = nil
	for t := range tr.Threads {
		ds := tr.deps[t]
		if len(ds) < manyDeps {
			continue
		}
		var gs []depGroup
		ok := true
		for _, i := range ds {
			for _, a := range tr.Threads[t].Steps[i].After {
				if a.T < 0 {
					continue
				}
				k := 0
				for k < len(gs) && gs[k].u != a.T {
					k++
				}
				if k == len(gs) {
					gs = append(gs, depGroup{u: a.T})
				}
				g := &gs[k]
				if n := len(g.ents); n > 0 && g.ents[n-1].a > a.I {
					ok = false
				}
				g.ents = append(g.ents, depEnt{i: i, a: a.I})
			}
		}
		if !ok {
			continue
		}
		if tr.dgroups == nil {
			tr.dgroups = make([][]depGroup, len(tr.Threads))
		}
		tr.dgroups[t] = gs
	}
}

// spareTables holds the index tables of traces nothing reads any more
// (Explore's done), for the next prepares of the same explorer to reuse,
// and a cache of location ids (ids never change once given).
type spareTables struct {
	free []*traceTables
	lids [512]lidCache
	// clk holds the clock arrays of traces nothing reads any more
	// (clockArray); state is Trace.clocks' table.
	clk   [][]int32
	state []uint8
}

// maxSpareClocks bounds the clock arrays spareTables keeps.
const maxSpareClocks = 256

// clockArray returns an array of n int32 (contents undefined) for clocks
// of tr: a spare one if it is large enough. tr's index tables record it,
// and recycle makes it spare again.
func (sp *spareTables) clockArray(tr *Trace, n int) []int32 {
	var b []int32
	if k := len(sp.clk); k > 0 && cap(sp.clk[k-1]) >= n {
		b = sp.clk[k-1][:n]
		sp.clk[k-1] = nil
		sp.clk = sp.clk[:k-1]
	} else {
		b = make([]int32, n, n+n/4)
	}
	if tr.tabs != nil {
		tr.tabs.clk = append(tr.tabs.clk, b)
	}
	return b
}

// maxSpare bounds the table sets spareTables keeps.
const maxSpare = 64

// traceTables holds the arrays of one trace's index tables (Trace.tabs):
// prepare takes a set, recycle hands it back.
type traceTables struct {
	maxW, wfrom, ibuf []int32
	jbuf, dbuf2, fill []int32
	wtmp              []Ref     // prepare's list of the steps that wrote
	clk               [][]int32 // the arrays of the trace's clocks (spareTables.clockArray)
	final, wlist      []Ref
	dbuf              []decision
	dec               [][]decision
	rdec, tpos        [][]int32
	joins, deps       [][]int32
}

// take returns a set of spare tables (empty if none is kept).
func (sp *spareTables) take() *traceTables {
	if n := len(sp.free); n > 0 {
		tb := sp.free[n-1]
		sp.free[n-1] = nil
		sp.free = sp.free[:n-1]
		return tb
	}
	return &traceTables{}
}

// grabN returns a of length n, cleared (reallocated if too small).
func grabN[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	a = a[:n]
	clear(a)
	return a
}

// lidCache is an entry of spareTables' location id cache.
type lidCache struct {
	loc int64
	id  int32
	ok  bool
}

// lidSlot is the cache slot of location loc.
func lidSlot(loc int64) int {
	u := uint64(loc)
	return int((u ^ u>>9 ^ u>>32) & 511)
}

// fill32 sets every element of b to v (by doubling copies).
func fill32(b []int32, v int32) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for k := 1; k < len(b); k *= 2 {
		copy(b[k:], b[:k])
	}
}

// decisions returns a slice of n decisions (contents undefined), taken
// from *p if it is large enough (*p is then emptied).
func (sp *spareTables) decisions(p *[]decision, n int) []decision {
	if cap(*p) >= n {
		b := (*p)[:n]
		*p = nil
		return b
	}
	return make([]decision, n)
}

// int32s returns a slice of n int32 (contents undefined), taken from *p
// if it is large enough (*p is then emptied).
func (sp *spareTables) int32s(p *[]int32, n int) []int32 {
	if cap(*p) >= n {
		b := (*p)[:n]
		*p = nil
		return b
	}
	return make([]int32, n)
}

// refs is int32s for Refs.
func (sp *spareTables) refs(p *[]Ref, n int) []Ref {
	if cap(*p) >= n {
		b := (*p)[:n]
		*p = nil
		return b
	}
	return make([]Ref, n)
}

// recycle keeps tr's index tables for reuse; tr must not be read again.
func (sp *spareTables) recycle(tr *Trace) {
	tb := tr.tabs
	if tb == nil {
		return
	}
	tb.maxW = tr.maxW[:0:cap(tr.maxW)]
	tb.wfrom, tb.ibuf, tb.final, tb.wlist, tb.dbuf = tr.wfrom, tr.ibuf, tr.final, tr.wlist, tr.dbuf
	tr.tabs = nil
	tr.dbuf, tr.dec = nil, nil
	tr.maxW, tr.maxM, tr.minWr, tr.wfrom, tr.ibuf, tr.final, tr.wlist = nil, nil, nil, nil, nil, nil, nil
	tr.rdec, tr.tpos, tr.joins, tr.deps, tr.dgroups = nil, nil, nil, nil, nil
	for k, b := range tb.clk {
		if len(sp.clk) < maxSpareClocks {
			sp.clk = append(sp.clk, b)
		}
		tb.clk[k] = nil
	}
	tb.clk = tb.clk[:0]
	if len(sp.free) < maxSpare {
		sp.free = append(sp.free, tb)
	}
}

// writesOf returns the steps that wrote location id l, by thread and index.
func (tr *Trace) writesOf(l int32) []Ref {
	if int(l) >= tr.nloc {
		return nil
	}
	return tr.wlist[tr.wfrom[l]:tr.wfrom[l+1]]
}

// maxWOf returns, per thread, the highest step index that wrote location
// id l (-1: none).
func (tr *Trace) maxWOf(l int32) []int32 {
	n := len(tr.Threads)
	if int(l) >= tr.nloc {
		return nil
	}
	return tr.maxW[int(l)*n : int(l)*n+n]
}

// maxMOf is maxWOf for the steps that may write l when they read.
func (tr *Trace) maxMOf(l int32) []int32 {
	n := len(tr.Threads)
	if int(l) >= tr.nloc {
		return nil
	}
	return tr.maxM[int(l)*n : int(l)*n+n]
}

// finalOf returns the last write of location id l, or noRef.
func (tr *Trace) finalOf(l int32) Ref {
	if int(l) >= tr.nloc {
		return noRef
	}
	return tr.final[l]
}

// finalOrInit returns the last write of location id l, Init if none.
func (tr *Trace) finalOrInit(l int32) Ref {
	if f := tr.finalOf(l); f != noRef {
		return f
	}
	return Init
}

// choiceAt returns the choice of decision d of thread t.
func (tr *Trace) choiceAt(t int, k int) int {
	// Count the choices before decision k.
	c := 0
	for _, d := range tr.dec[t][:k] {
		if d.choice {
			c++
		}
	}
	th := &tr.Threads[t]
	for i := range th.Steps {
		for _, ch := range th.Steps[i].Pre {
			if c == 0 {
				return ch.K
			}
			c--
		}
	}
	for _, ch := range th.Tail {
		if c == 0 {
			return ch.K
		}
		c--
	}
	return -1
}

func (tr *Trace) initVal(loc int64) int64 { return tr.InitVal[loc] }

func (tr *Trace) step(r Ref) *Step { return &tr.Threads[r.T].Steps[r.I] }

// value is the value written by w at loc.
func (tr *Trace) value(w Ref, loc int64) int64 {
	if w.T < 0 {
		return tr.initVal(loc)
	}
	return tr.step(w).WVal
}

// clocks are the causal clocks of the steps of a trace: for each step
// and each thread u, how many of u's steps precede the step by program
// order, spawn, join and the reads-from edges of the forced sources, the
// step itself included for its own thread.
type clocks struct {
	n   int   // threads
	off []int // first row of each thread (in the order of all steps)
	// rows[t] holds the rows of thread t's steps, n per step. Clocks made
	// by withEdge share the rows of the threads the edge does not change.
	rows [][]int32
}

func (c *clocks) row(t, i int) []int32 {
	k := i * c.n
	return c.rows[t][k : k+c.n : k+c.n]
}

// at returns the clock of step r for thread u.
func (c *clocks) at(r Ref, u int) int32 { return c.rows[r.T][int(r.I)*c.n+u] }

// clocks computes the causal clocks of tr's steps with the extra edges of
// the annotated reads: rf(t, i) is the good set of read (t, i), nil if it
// is not annotated (see rfEdges). The forced sources are the steps'
// sources in the run, so the order of the run is a topological order;
// steps on a cycle (not expected) get no further edges.
// Its arrays come from sp (clockArray).
func (tr *Trace) clocks(sp *spareTables, rf func(t, i int) []Ref) *clocks {
	n := len(tr.Threads)
	// The struct, offsets and row headers in one allocation each kind.
	cb := &struct {
		c    clocks
		off  [8]int
		rows [8][]int32
	}{}
	c := &cb.c
	c.n = n
	if n+1 <= len(cb.off) {
		c.off, c.rows = cb.off[:n+1], cb.rows[:n]
	} else {
		c.off, c.rows = make([]int, n+1), make([][]int32, n)
	}
	total := 0
	for t := range tr.Threads {
		c.off[t] = total
		total += len(tr.Threads[t].Steps)
	}
	c.off[n] = total
	buf := sp.clockArray(tr, total*n)
	clear(buf)
	for t := range c.rows {
		c.rows[t] = buf[c.off[t]*n : c.off[t+1]*n : c.off[t+1]*n]
	}
	if cap(sp.state) < total {
		sp.state = make([]uint8, total, 2*total)
	}
	b := clockBuilder{tr: tr, c: c, rf: rf, state: sp.state[:total]}
	clear(b.state)
	// In the order of the run every dependency comes first, so calc
	// recurses one level at most; the pending steps (not in Order) last.
	for _, r := range tr.Order {
		b.calc(int(r.T), int(r.I))
	}
	for t := range tr.Threads {
		st := b.state[c.off[t]:c.off[t+1]]
		for i := range st {
			if st[i] == 0 {
				b.calc(t, i)
			}
		}
	}
	return c
}

// clockBuilder computes the clocks of a trace (Trace.clocks).
type clockBuilder struct {
	tr    *Trace
	c     *clocks
	rf    func(t, i int) []Ref
	state []uint8 // per step: 0 to do, 1 busy (on a cycle), 2 done
}

// calc computes the clock of step (t, i) after those it depends on.
func (b *clockBuilder) calc(t, i int) []int32 {
	tr, c := b.tr, b.c
	n := c.n
	k := c.off[t] + i
	row := c.row(t, i)
	if b.state[k] != 0 {
		return row
	}
	b.state[k] = 1
	if i > 0 {
		copy(row, b.get(t, i-1))
	} else if sp := tr.Threads[t].Spawn; sp.T >= 0 {
		copy(row, b.get(int(sp.T), int(sp.I)))
	}
	st := &tr.Threads[t].Steps[i]
	if st.Op == OpJoin && !st.Pending {
		ch := int(st.Other)
		if ch >= 0 && ch < n && len(tr.Threads[ch].Steps) > 0 {
			joinClock(row, b.get(ch, len(tr.Threads[ch].Steps)-1))
		}
	}
	for _, a := range st.After {
		if a.T >= 0 && int(a.T) < n && int(a.I) < len(tr.Threads[a.T].Steps) {
			joinClock(row, b.get(int(a.T), int(a.I)))
		}
	}
	if b.rf != nil && st.Op.IsRead() { // only reads have reads-from edges
		e1, e2 := tr.rfEdges(st, b.rf(t, i))
		for _, g := range [2]Ref{e1, e2} {
			if g.T >= 0 && int(g.I) < len(tr.Threads[g.T].Steps) {
				joinClock(row, b.get(int(g.T), int(g.I)))
			}
		}
	}
	row[t] = int32(i + 1)
	b.state[k] = 2
	return row
}

// get returns the clock of step (t, i), computing it if need be.
func (b *clockBuilder) get(t, i int) []int32 {
	if b.state[b.c.off[t]+i] == 2 {
		return b.c.row(t, i)
	}
	return b.calc(t, i)
}

// rfEdges returns the causal edges (up to two; T < 0: none) into read
// step st annotated with the good writes good: the one good write when
// there is only one, unless it is the read's Own commit (the read may
// precede it and forward); and Own when the read may not read it (the
// read follows Own's commit then).
func (tr *Trace) rfEdges(st *Step, good []Ref) (Ref, Ref) {
	e1, e2 := Init, Init
	if good == nil {
		return e1, e2
	}
	if len(good) == 1 && !(st.HasOwn && good[0] == st.Own) {
		e1 = good[0]
	}
	if st.HasOwn && !inRefs(st.Own, good) {
		e2 = st.Own
	}
	return e1, e2
}

func joinClock(c, o []int32) {
	for u := range c {
		c[u] = max(c[u], o[u])
	}
}

// withEdge returns the clocks c with the extra edge w -> x (w does not
// follow x): every step at or after x learns w's clock.
// Its new rows come from sp (clockArray for tr, c's trace).
func (c *clocks) withEdge(sp *spareTables, tr *Trace, w, x Ref) *clocks {
	db := &struct {
		d    clocks
		rows [8][]int32
	}{}
	d := &db.d
	d.n, d.off = c.n, c.off
	if len(c.rows) <= len(db.rows) {
		d.rows = db.rows[:len(c.rows)]
	} else {
		d.rows = make([][]int32, len(c.rows))
	}
	wr := c.row(int(w.T), int(w.I))
	xt := int(x.T)
	for u := 0; u < c.n; u++ {
		m := c.off[u+1] - c.off[u]
		// Rows of a thread grow along program order: find the first
		// step of u at or after x.
		lo, hi := 0, m
		for lo < hi {
			h := (lo + hi) / 2
			if c.at(Ref{int32(u), int32(h)}, xt) > x.I {
				hi = h
			} else {
				lo = h + 1
			}
		}
		if lo == m {
			d.rows[u] = c.rows[u] // no step of u follows x: shared
			continue
		}
		d.rows[u] = sp.clockArray(tr, len(c.rows[u]))
		copy(d.rows[u], c.rows[u])
		for i := lo; i < m; i++ {
			joinClock(d.row(u, i), wr)
		}
	}
	return d
}
