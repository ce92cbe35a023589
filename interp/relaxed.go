package interp

import (
	"fmt"
	"maps"

	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/race"
	"ncmc/seg"
)

// Graph exploration under axiomatic memory models (RA, RC11, and any seg
// model for cross-checks and explanations).
//
// Under Config.Model RA or RC11 (or with Config.Axiomatic set) the
// interpreter does not read memory: it builds the execution graph one event
// at a time, GenMC-style, and asks the Chooser which write each read reads
// from (ChooseRF) and where each write goes in modification order
// (ChooseMO). The candidates are the writes to the location already in the
// graph (the initial write included) and the mo positions among them,
// keeping only those for which the partial graph is consistent under the
// model (seg.Model.Check). Since a read only reads from a write that is
// already in the graph, po ∪ rf stays acyclic: no out-of-thin-air values.
// Consistency of these models is preserved by taking (po ∪ rf)-prefixes, so
// pruning an inconsistent partial graph loses no consistent execution.
//
// Each consistent execution graph is built once: the explorer only follows
// the canonical schedule of a graph, in which every step is taken as soon
// as everything it depends on (its thread's previous step, the write it
// reads from, the spawn of its thread, the end of a joined thread, the
// signal that woke it, the previous operation on a condition variable) has
// been taken, lowest thread first. A step that a lower-numbered thread's
// ready step was passed over for is pruned (for reads, the rf candidates are
// restricted so that the read was not ready earlier). So the DFS over the
// choices visits every consistent graph exactly once, whatever the number
// of interleavings that produce it.
//
// Memory cells hold the value of the mo-latest write of each location, so
// the final state of a complete execution is as under SC. Mutexes keep
// their operational semantics: a lock reads the latest unlock, which is
// what RMW atomicity on the mutex's mo allows anyway.
//
// Data races (C11: conflicting accesses, at least one non-atomic, of
// different threads, unordered by happens-before) are found as soon as the
// second access is added: under RC11 with rc11's happens-before, under RA
// with RA's (po ∪ rf)+. By default a race is a violation of kind
// "data-race"; with Config.Races = RacesRecord they are only recorded
// (Execution.Races).

// RaceMode says what a data race does under RA/RC11.
type RaceMode uint8

// Race modes.
const (
	RacesFail   RaceMode = iota // a data race is a violation that ends the execution
	RacesRecord                 // data races are recorded in Execution.Races; the execution goes on
)

// Race is a data race of an execution (race.Race).
type Race = race.Race

// relaxed is the graph-exploration state of one execution.
type relaxed struct {
	x     *Execution
	model *seg.Model
	ra    bool // races with RA's happens-before
	// builtin is set for seg's built-in models, whose axioms a newly added
	// event that is a sink of po, rf, mo and fr cannot violate.
	builtin bool

	stepThread []int32             // thread of each step taken
	lastStep   map[int32]int       // last step of each thread (its spawn step before its first)
	evStep     map[seg.EventID]int // step that added each event
	condStep   map[int64]int       // last step that touched each condition variable
	nEvents    []int               // per thread, events before the current step
	nLive      int

	bound    int   // current step: rf sources must come from steps >= bound (-1: any)
	cond     int64 // current step's condition variable (0: none)
	handled  bool  // current step's access was checked by a choice
	pruned   bool
	memo     *checkMemo // shared by the executions of one exploration (nil: none)
	static   *staticInfo
	races    []Race
	seen     map[[2]seg.EventID]bool
	naLocs   map[int64]bool // locations with a non-atomic access
	tr       GraphDriver    // set: an explorer drives the execution (the trust glue, explore/trustx)
	locksRun bool           // locks are enabled while held: the driver runs them (SetLocksRun)
	heap     uint8          // ForkDriven: 0 not known yet, 1 the program does not allocate, 2 it does
}

// GraphModel returns the seg model a configuration explores graphs under,
// or nil for operational exploration.
func GraphModel(cfg Config) *seg.Model {
	if cfg.Axiomatic != nil {
		return cfg.Axiomatic
	}
	if cfg.Exec() == memmodel.GraphOnly {
		return cfg.Model.Axioms
	}
	return nil
}

func newRelaxed(x *Execution, m *seg.Model) *relaxed {
	// the step maps and static summaries are made on first use: a
	// GraphDriver (trust) never needs them
	return &relaxed{x: x, model: m, ra: m.Name == "ra", builtin: seg.LookupModel(m.Name) == m, bound: -1}
}

// Pruned reports whether the execution was abandoned by graph exploration:
// its partial graph became inconsistent, or it was not the canonical
// schedule of its graph. Explorers skip pruned executions.
func (x *Execution) Pruned() bool { return x.rx != nil && x.rx.pruned }

// Races returns the data races recorded (Config.Races = RacesRecord).
func (x *Execution) Races() []Race {
	if x.rx == nil {
		return nil
	}
	return x.rx.races
}

// GlobalCells returns the current memory cells of global i (index into
// Program.Globals): under graph exploration, the values of the mo-latest
// writes.
func (x *Execution) GlobalCells(i int) []int64 {
	if i < 0 || i+1 >= len(x.mem) {
		return nil
	}
	return x.mem[i+1]
}

func (r *relaxed) prune() {
	r.pruned = true
	r.x.finished = true
}

// thread's instruction about to run
func (r *relaxed) instr(t *Thread) (*Frame, *ir.Instr) {
	if len(t.frames) == 0 {
		return nil, nil
	}
	fr := &t.frames[len(t.frames)-1]
	if fr.pc >= len(fr.fn.Body) {
		return fr, nil
	}
	return fr, &fr.fn.Body[fr.pc]
}

func (r *relaxed) stepOf(id seg.EventID) int {
	if id.IsInit() {
		return -1
	}
	if s, ok := r.evStep[id]; ok {
		return s
	}
	return -1
}

// readiness decides whether thread tn may take step k in a canonical
// schedule. It returns ok = false if the step would be non-canonical
// whatever it reads; otherwise bound >= 0 means the step is canonical only
// if it reads from a write added at step bound or later.
func (r *relaxed) readiness(tn int32, k int) (bound int, ok bool) {
	x := r.x
	t := x.threads[tn]
	p := -1
	if s, ok := r.lastStep[tn]; ok {
		p = s
	}
	jmax := -1
	for j := k - 1; j > p; j-- {
		if r.stepThread[j] > tn {
			jmax = j
			break
		}
	}
	if jmax < 0 {
		return -1, true
	}
	q := p // the latest step this one depends on, besides what it reads
	dep := func(s int) {
		if s > q {
			q = s
		}
	}
	fr, in := r.instr(t)
	choice := false
	if in != nil {
		switch in.Op {
		case ir.ILoad, ir.IRMW, ir.ICAS:
			choice = true
		case ir.ILock, ir.ITryLock:
			if a, err := x.Eval(fr, in.Addr); err == nil {
				dep(r.stepOf(x.lastWrite(a)))
			}
		case ir.IWait:
			if a, err := x.Eval(fr, in.Addr); err == nil {
				if s, ok := r.condStep[a]; ok {
					dep(s)
				}
			}
			if t.signaled {
				dep(t.wokenStep)
				dep(r.stepOf(x.lastWrite(t.waitMutex)))
			}
		case ir.ISignal, ir.IBroadcast:
			if a, err := x.Eval(fr, in.Addr); err == nil {
				if s, ok := r.condStep[a]; ok {
					dep(s)
				}
			}
		case ir.IJoin:
			if h, err := x.Eval(fr, in.A); err == nil {
				if c := x.ThreadByHandle(h); c != nil {
					if s, ok := r.lastStep[c.num]; ok {
						dep(s)
					}
				}
			}
		}
	}
	if q >= jmax {
		return -1, true
	}
	if choice {
		return jmax, true
	}
	return -1, false
}

// filter drops the actions of threads whose next step cannot be canonical
// (unless that would leave nothing, in which case Step prunes). It also
// drops every thread above the lowest enabled thread whose next step reads
// nothing (a write, a fence, a spawn …): that step is ready now and stays
// ready, so taking a higher thread's step first would make it
// non-canonical.
func (r *relaxed) filter(en []Action) []Action {
	if r.tr != nil {
		return r.tr.Filter(en)
	}
	k := len(r.x.Log)
	var out []Action
	m := int32(-1)
	for _, a := range en {
		if a.Flush {
			out = append(out, a)
			continue
		}
		if _, ok := r.readiness(a.T, k); ok {
			out = append(out, a)
			if (m < 0 || a.T < m) && !r.mayWait(a.T) {
				m = a.T
			}
		}
	}
	if m >= 0 {
		kept := out[:0]
		for _, a := range out {
			if a.Flush || a.T <= m {
				kept = append(kept, a)
			}
		}
		out = kept
	}
	if len(out) == 0 {
		return en
	}
	return out
}

// mayWait reports whether thread tn's next step may canonically come later
// than now: it reads (load, RMW, CAS) a location that some other thread
// may still write, so it may read from a write not added yet; or it is a
// mutex or condition-variable operation, whose dependencies (the unlock a
// lock reads, the previous operation on the condition variable) other
// threads' steps may still change. Any other step (a write, a fence, a
// spawn, an unlock, a join of a finished thread) is ready now and stays
// ready with the same dependencies.
func (r *relaxed) mayWait(tn int32) bool {
	x := r.x
	fr, in := r.instr(x.threads[tn])
	if in == nil {
		return false
	}
	switch in.Op {
	case ir.ILoad, ir.IRMW, ir.ICAS:
	case ir.ILock, ir.ITryLock, ir.IWait, ir.ISignal, ir.IBroadcast:
		return true
	default:
		return false
	}
	addr, err := x.Eval(fr, in.Addr)
	if err != nil {
		return false
	}
	block := ir.PtrBlock(addr)
	if r.static == nil {
		r.static = &staticInfo{}
	}
	for _, n := range x.live {
		u := x.threads[n]
		if n == tn || u.status == Done || u.status == Blocked || u.status == Failed || u.status == BoundHit {
			continue
		}
		for i := range u.frames {
			f := &u.frames[i]
			if w := r.static.summary(f.fn); f.pc < len(w) && (w[f.pc].any || w[f.pc].blocks[block]) {
				return true
			}
		}
	}
	return false
}

// writeSum over-approximates the memory a piece of code may write: the
// blocks of the globals it writes, or any location (writes through
// pointers; heap blocks).
type writeSum struct {
	any    bool
	blocks map[int]bool
}

// staticInfo caches, per function and instruction, what the code from
// there on (callees and spawned threads included) may write.
type staticInfo struct {
	sums map[*ir.Func][]writeSum
}

func (s *staticInfo) summary(f *ir.Func) []writeSum {
	if s.sums == nil {
		s.sums = map[*ir.Func][]writeSum{}
	}
	if w, ok := s.sums[f]; ok {
		if w == nil { // recursion: being computed
			return []writeSum{}
		}
		return w
	}
	s.sums[f] = nil
	n := len(f.Body)
	w := make([]writeSum, n+1)
	own := make([]writeSum, n)
	for pc := range f.Body {
		in := &f.Body[pc]
		o := writeSum{blocks: map[int]bool{}}
		switch in.Op {
		case ir.IStore, ir.IRMW, ir.ICAS, ir.ILock, ir.IUnlock, ir.ITryLock, ir.IWait, ir.IFree:
			if b := staticBlock(in.Addr); b > 0 {
				o.blocks[b] = true
			} else {
				o.any = true
			}
		case ir.ICall, ir.ISpawn:
			cw := s.summary(in.Func)
			if len(cw) == 0 {
				o.any = true // recursion
			} else {
				o.any = cw[0].any
				for b := range cw[0].blocks {
					o.blocks[b] = true
				}
			}
		}
		own[pc] = o
		w[pc] = writeSum{any: o.any, blocks: map[int]bool{}}
		for b := range o.blocks {
			w[pc].blocks[b] = true
		}
	}
	w[n] = writeSum{blocks: map[int]bool{}}
	for changed := true; changed; {
		changed = false
		for pc := n - 1; pc >= 0; pc-- {
			in := &f.Body[pc]
			var succ []int
			switch in.Op {
			case ir.IJump:
				succ = []int{in.Target}
			case ir.IBranch:
				succ = []int{in.Target, in.Target2}
			case ir.IReturn, ir.IFail:
			default:
				succ = []int{pc + 1}
			}
			for _, q := range succ {
				if q < 0 || q > n {
					continue
				}
				if w[q].any && !w[pc].any {
					w[pc].any, changed = true, true
				}
				for b := range w[q].blocks {
					if !w[pc].blocks[b] {
						w[pc].blocks[b], changed = true, true
					}
				}
			}
		}
	}
	s.sums[f] = w
	return w
}

// staticBlock returns the global block an address expression always points
// into, or 0 if it depends on locals.
func staticBlock(e *ir.Expr) int {
	for e != nil {
		switch e.Kind {
		case ir.EGlobalAddr:
			return e.Global + 1
		case ir.EIndex, ir.EField:
			e = e.A
		default:
			return 0
		}
	}
	return 0
}

// candidates returns the indices i in [0, n) for which try(i) holds (the
// graph is consistent with the i-th alternative). Results are memoised
// across the executions of one exploration: while the choices made so far
// replay a previous execution, the same checks give the same answers.
func (r *relaxed) candidates(n int, try func(i int) bool) []int {
	m := r.memo
	if m != nil && m.n < len(m.entries) {
		e := m.entries[m.n]
		m.n++
		return e.ok
	}
	var ok []int
	for i := 0; i < n; i++ {
		if try(i) {
			ok = append(ok, i)
		}
	}
	if m != nil {
		m.entries = append(m.entries, memoEntry{depth: m.depth(), ok: ok})
		m.n++
	}
	return ok
}

// checkMemo remembers the candidate lists computed by the executions of
// one DFS, in the order they were computed, with the number of choices
// made before each (depth). When the DFS moves to its next leaf by changing
// choice c, the entries computed before choice c was made stay valid.
type checkMemo struct {
	entries []memoEntry
	n       int // entries used by the current execution
	depth   func() int
}

type memoEntry struct {
	depth int
	ok    []int
}

// GraphCache is what the executions of one graph-exploration DFS share:
// the memo of candidate lists and the static write summaries of the
// program's functions. The DFS explorer creates one per exploration and
// hands it to each execution with Execution.UseGraphCache.
type GraphCache struct {
	memo   checkMemo
	static staticInfo
}

// NewGraphCache returns an empty cache; depth reports the number of
// choices the DFS has made so far in the current execution.
func NewGraphCache(depth func() int) *GraphCache {
	c := &GraphCache{}
	c.memo.depth = depth
	return c
}

// Start prepares the cache for a new execution.
func (c *GraphCache) Start() { c.memo.n = 0 }

// Invalidate drops the memo entries computed after choice changed (an
// index into the DFS path), which the DFS has just changed.
func (c *GraphCache) Invalidate(changed int) {
	for i, e := range c.memo.entries {
		if e.depth > changed {
			c.memo.entries = c.memo.entries[:i]
			break
		}
	}
}

// UseGraphCache makes a graph-exploration execution use c (a no-op for
// operational executions). Call it before the first step.
func (x *Execution) UseGraphCache(c *GraphCache) {
	if x.rx != nil {
		x.rx.memo, x.rx.static = &c.memo, &c.static
	}
}

// GraphDriver takes over the choices of graph exploration for one
// execution (the trust explorer's glue, explore/trustx): the
// interpreter calls it around every step and for every memory access
// instead of choosing reads-from and modification order itself. Install
// it with Execution.SetGraphDriver.
type GraphDriver interface {
	// Begin is called before a thread takes a step.
	Begin()
	// End is called after thread t took a step.
	End(t int32)
	// Filter restricts the enabled actions to those the driver schedules.
	Filter(en []Action) []Action
	// Access runs the load, store, RMW or CAS in of thread t (innermost
	// frame fr) on address addr, whose memory cell is c; it returns false
	// if in is none of these, and the interpreter runs it.
	Access(t *Thread, fr *Frame, in *ir.Instr, addr int64, c *int64) bool
}

// SetGraphDriver makes d drive x's graph exploration; x must explore
// graphs (Config.Model ra or rc11, or Config.Axiomatic).
func (x *Execution) SetGraphDriver(d GraphDriver) { x.rx.tr = d }

// ForkDriven returns a copy of x, an execution driven by a GraphDriver
// (SetGraphDriver), that runs on independently once given its own driver:
// the trust explorer keeps it as the state to resume other graphs from
// instead of running them from the start. Memory, threads, frames and the
// graph-exploration state are copied, and so are the graph's events and
// the step log; the thread tables and the other logs are shared as Clone
// shares them, so neither x nor the copy may be released (Release)
// afterwards. dead (nil: none) is an execution that
// ForkDriven returned before and that is no longer used: the copy reuses
// its storage. ForkDriven returns nil for executions that Clone does not
// copy (race detection, traces) and for executions without a driver.
func (x *Execution) ForkDriven(dead *Execution) *Execution {
	r := x.rx
	if r == nil || r.tr == nil || x.races != nil || x.collecting {
		return nil
	}
	var fs *forkStore
	var oldEv [][]seg.Event
	var oldLog []StepInfo
	if dead != nil && dead != x && dead.fork != nil {
		fs, oldEv, oldLog = dead.fork, dead.G.Threads, dead.Log
	} else {
		fs, dead = &forkStore{}, new(Execution)
	}
	y := dead
	*y = *x
	y.fork = fs
	invs := x.copyState(y, fs)
	y.alloc = append([]ir.AllocKind(nil), x.alloc...)
	// the graph: the events and the step log are copied into the dead
	// copy's arrays; thread tables and the initial values are shared
	// (capped: appends copy), the modification order is copied
	if fs.g == nil {
		fs.g = new(seg.Graph)
	}
	g := fs.g
	mo := g.MO
	*g = *x.G
	const room = 8
	ths := grab(oldEv, len(x.G.Threads)+2) // oldEv's table, or a new one
	for t, evs := range x.G.Threads {
		var buf []seg.Event
		if t < len(oldEv) {
			buf = oldEv[t] // read before ths[t] overwrites it
		}
		if cap(buf) < len(evs)+room {
			buf = make([]seg.Event, 0, 2*len(evs)+room)
		}
		buf = append(buf[:0], evs...)
		ths = append(ths, buf)
	}
	g.Threads = ths
	if cap(oldLog) < len(x.Log)+room {
		oldLog = make([]StepInfo, 0, 2*len(x.Log)+room)
	}
	y.Log = append(oldLog[:0], x.Log...)
	g.Names = g.Names[:len(g.Names):len(g.Names)]
	g.Parent = g.Parent[:len(g.Parent):len(g.Parent)]
	g.SpawnedBy = g.SpawnedBy[:len(g.SpawnedBy):len(g.SpawnedBy)]
	if r.heap == 0 { // whether the program allocates (and so writes InitVal)
		r.heap = 1
		for _, f := range x.prog.Funcs {
			for i := range f.Body {
				if f.Body[i].Op == ir.IAlloc {
					r.heap = 2
				}
			}
		}
	}
	if r.heap == 2 {
		g.InitVal = maps.Clone(x.G.InitVal)
	}
	if mo == nil {
		mo = make(map[int64][]seg.EventID, len(x.G.MO))
	}
	clear(mo)
	for k, v := range x.G.MO {
		mo[k] = v[:len(v):len(v)]
	}
	g.MO = mo
	y.G = cloneGraph(g, invs)
	y.spare, y.scratch = spare{}, nil
	if fs.rx == nil {
		fs.rx = new(relaxed)
	}
	c := fs.rx
	*c = *r
	c.x = y
	c.races = r.races[:len(r.races):len(r.races)]
	if r.seen != nil {
		c.seen = maps.Clone(r.seen)
	}
	if r.naLocs != nil {
		c.naLocs = maps.Clone(r.naLocs)
	}
	c.nEvents = nil
	y.rx = c
	return y
}

// SetLocksRun makes a lock enabled even while its mutex is held: the graph
// driver's Access runs it (GenMC's model of a lock: a compare-and-swap
// that blocks the thread when it reads a held mutex).
func (x *Execution) SetLocksRun() { x.rx.locksRun = true }

// begin is called before thread tn takes a step; false means the step was
// pruned (and the execution is over).
func (r *relaxed) begin(tn int32) bool {
	if r.tr != nil {
		r.tr.Begin()
		return true
	}
	x := r.x
	k := len(x.Log)
	r.handled = false
	r.cond = 0
	bound, ok := r.readiness(tn, k)
	if !ok {
		r.prune()
		return false
	}
	r.bound = bound
	t := x.threads[tn]
	if fr, in := r.instr(t); in != nil && (in.Op == ir.IWait || in.Op == ir.ISignal || in.Op == ir.IBroadcast) {
		if a, err := x.Eval(fr, in.Addr); err == nil {
			r.cond = a
		}
	}
	r.nEvents = r.nEvents[:0]
	for _, th := range x.G.Threads {
		r.nEvents = append(r.nEvents, len(th))
	}
	r.nLive = len(x.live)
	return true
}

// end is called after thread tn's step k: it records which step added each
// event, checks steps whose events were not checked by a choice, and looks
// for data races.
func (r *relaxed) end(tn int32, k int) {
	if r.tr != nil {
		r.tr.End(tn)
		return
	}
	x := r.x
	if r.lastStep == nil {
		r.lastStep, r.evStep, r.condStep = map[int32]int{}, map[seg.EventID]int{}, map[int64]int{}
	}
	r.stepThread = append(r.stepThread, tn)
	r.lastStep[tn] = k
	for _, c := range x.live[r.nLive:] {
		r.lastStep[c] = k // a new thread's first step depends on its spawn
	}
	if r.cond != 0 {
		r.condStep[r.cond] = k
	}
	var added []seg.EventID
	for ti, th := range x.G.Threads {
		from := 0
		if ti < len(r.nEvents) {
			from = r.nEvents[ti]
		}
		for i := from; i < len(th); i++ {
			id := seg.EventID{T: int32(ti), I: int32(i)}
			r.evStep[id] = k
			added = append(added, id)
		}
	}
	if r.pruned {
		return
	}
	if !r.handled && len(added) > 0 {
		if ok := r.candidates(1, func(int) bool { return r.consistent() }); len(ok) == 0 {
			r.prune()
			return
		}
	}
	if x.cfg.Model == nil || x.cfg.Model.Race == "" {
		return // races are a C11 notion: only under models that define them (ra, rc11)
	}
	// a race needs a non-atomic access: look when one is added, or when an
	// access to a location with a non-atomic access is
	check := false
	for _, id := range added {
		if e := x.G.Event(id); isNA(e) {
			if r.naLocs == nil {
				r.naLocs = map[int64]bool{}
			}
			r.naLocs[e.Loc] = true
		}
	}
	for _, id := range added {
		if e := x.G.Event(id); isAccess(e) && r.naLocs[e.Loc] {
			check = true
		}
	}
	if check {
		r.findRaces(added)
	}
}

// isolated reports whether no event but w accesses loc.
func (r *relaxed) isolated(loc int64, w seg.EventID) bool {
	for _, th := range r.x.G.Threads {
		for i := range th {
			e := &th[i]
			if e.ID != w && (e.Kind.IsRead() || e.Kind.IsWrite()) && e.Loc == loc {
				return false
			}
		}
	}
	return true
}

// consistent checks the graph as it is now.
func (r *relaxed) consistent() bool { return r.model.Check(r.x.G) == nil }

// sources lists the writes a read of loc may read from, before the
// consistency check: the initial write and every write in loc's mo, those
// from steps before r.bound excluded.
func (r *relaxed) sources(loc int64) []seg.EventID {
	var out []seg.EventID
	if r.bound < 0 {
		out = append(out, seg.Init)
	}
	for _, w := range r.x.G.MO[loc] {
		if r.bound < 0 || r.stepOf(w) >= r.bound {
			out = append(out, w)
		}
	}
	return out
}

func moIndex(mo []seg.EventID, w seg.EventID) int {
	if w.IsInit() {
		return -1
	}
	for i, v := range mo {
		if v == w {
			return i
		}
	}
	return -1
}

func (r *relaxed) removeMO(loc int64, w seg.EventID) {
	mo := r.x.G.MO[loc]
	if i := moIndex(mo, w); i >= 0 {
		r.x.G.MO[loc] = append(mo[:i:i], mo[i+1:]...)
	}
}

// access runs a load, store, RMW or CAS under graph exploration. It
// reports whether it handled the instruction.
func (r *relaxed) access(t *Thread, fr *Frame, in *ir.Instr, addr int64, c *int64) bool {
	if r.tr != nil {
		return r.tr.Access(t, fr, in, addr, c)
	}
	x := r.x
	g := x.G
	pos := in.Pos
	loc := x.names.LocName(addr)
	switch in.Op {
	case ir.ILoad:
		r.handled = true
		id := x.event(t, seg.Event{Kind: seg.KRead, Loc: addr, Order: in.Order, Pos: pos})
		e := g.Event(id)
		src := r.sources(addr)
		ok := r.candidates(len(src), func(i int) bool {
			e.RF, e.RVal = src[i], g.WriteValue(src[i], addr)
			return r.consistent()
		})
		if len(ok) == 0 {
			r.prune()
			return true
		}
		w := src[ok[x.choose(t, ChooseRF, len(ok))]]
		e.RF, e.RVal = w, g.WriteValue(w, addr)
		fr.locals[in.Dst] = e.RVal
		x.noteAt(t, pos, fmt.Sprintf("reads %s = %s (from %s)", loc, x.val(t, e.RVal, LocalType(fr, in.Dst)), r.describe(w, addr)))
	case ir.IStore:
		v, err := x.Eval(fr, in.A)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return true
		}
		r.handled = true
		id := g.AppendNoMO(seg.Event{ID: seg.EventID{T: t.num}, Kind: seg.KWrite, Loc: addr, WVal: v, Order: in.Order, Pos: pos})
		n := len(g.MO[addr])
		var ok []int
		if n == 0 && r.builtin && r.isolated(addr, id) {
			// the only access to its location (e.g. a litmus test's final
			// register store): a sink of po, rf, mo and fr, it cannot close
			// a cycle of any built-in model, so there is nothing to check
			ok = []int{0}
		} else {
			ok = r.candidates(n+1, func(p int) bool {
				g.InsertMO(addr, id, p)
				defer r.removeMO(addr, id)
				return r.consistent()
			})
		}
		if len(ok) == 0 {
			r.prune()
			return true
		}
		p := ok[x.choose(t, ChooseMO, len(ok))]
		g.InsertMO(addr, id, p)
		if p == n {
			*c = v
		}
		x.noteAt(t, pos, fmt.Sprintf("writes %s = %s%s", loc, x.val(t, v, in.A.Type), r.moNote(addr, id)))
	case ir.IRMW, ir.ICAS:
		var arg, des int64
		var err *RuntimeError
		if arg, err = x.Eval(fr, in.A); err != nil {
			x.RuntimeError(t, pos, err)
			return true
		}
		if in.Op == ir.ICAS {
			if des, err = x.Eval(fr, in.B); err != nil {
				x.RuntimeError(t, pos, err)
				return true
			}
		}
		r.handled = true
		id := x.event(t, seg.Event{Kind: seg.KRead, Loc: addr, Order: in.Order, Pos: pos})
		e := g.Event(id)
		// set makes the event read from w (an RMW placed right after w in
		// mo, or, for a failed CAS, a plain read)
		set := func(w seg.EventID) {
			r.removeMO(addr, id)
			old := g.WriteValue(w, addr)
			e.RF, e.RVal = w, old
			if in.Op == ir.ICAS && old != arg {
				e.Kind, e.Order, e.WVal = seg.KRead, in.FailOrder, 0
				return
			}
			e.Kind, e.Order = seg.KRMW, in.Order
			if in.Op == ir.ICAS {
				e.WVal = des
			} else {
				e.WVal = in.RMWResult(old, arg)
			}
			g.InsertMO(addr, id, moIndex(g.MO[addr], w)+1)
		}
		src := r.sources(addr)
		ok := r.candidates(len(src), func(i int) bool {
			set(src[i])
			return r.consistent()
		})
		if len(ok) == 0 {
			r.removeMO(addr, id)
			r.prune()
			return true
		}
		w := src[ok[x.choose(t, ChooseRF, len(ok))]]
		set(w)
		old := e.RVal
		if e.Kind == seg.KRMW {
			if mo := g.MO[addr]; mo[len(mo)-1] == id {
				*c = e.WVal
			}
		}
		if in.Dst >= 0 {
			fr.locals[in.Dst] = old
		}
		if in.Dst2 >= 0 {
			fr.locals[in.Dst2] = b2i(e.Kind == seg.KRMW)
		}
		switch {
		case in.Op == ir.IRMW:
			x.noteAt(t, pos, fmt.Sprintf("%s on %s: %s -> %s (reads from %s)", in.RMW, loc, FormatNumber(old, in.A.Type), FormatNumber(e.WVal, in.A.Type), r.describe(w, addr)))
		case e.Kind == seg.KRMW:
			x.noteAt(t, pos, fmt.Sprintf("cas on %s succeeds: %s -> %s (reads from %s)", loc, FormatNumber(old, in.B.Type), FormatNumber(des, in.B.Type), r.describe(w, addr)))
		default:
			x.noteAt(t, pos, fmt.Sprintf("cas on %s fails: reads %s (from %s), expected %s", loc, FormatNumber(old, in.A.Type), r.describe(w, addr), FormatNumber(arg, in.A.Type)))
		}
	default:
		return false
	}
	return true
}

// describe names write w for traces: "the initial value" or "t0.1's write, event b".
func (r *relaxed) describe(w seg.EventID, loc int64) string {
	if !r.x.collecting {
		return ""
	}
	if w.IsInit() {
		return "the initial value"
	}
	// events are named by thread and source line: their letters shift as
	// lower-numbered threads add events
	if e := r.x.G.Event(w); e != nil && e.Pos.IsValid() {
		return fmt.Sprintf("t%s's write at line %d", r.x.threads[w.T].name, e.Pos.Line)
	}
	return fmt.Sprintf("t%s's write #%d", r.x.threads[w.T].name, w.I+1)
}

func (r *relaxed) moNote(loc int64, w seg.EventID) string {
	if !r.x.collecting {
		return ""
	}
	mo := r.x.G.MO[loc]
	i := moIndex(mo, w)
	if i == len(mo)-1 {
		return ""
	}
	return fmt.Sprintf(" (placed before %s in modification order)", r.describe(mo[i+1], loc))
}

// findRaces looks for data races involving the events just added.
func (r *relaxed) findRaces(added []seg.EventID) {
	x := r.x
	isNew := map[seg.EventID]bool{}
	for _, id := range added {
		isNew[id] = true
	}
	for _, rc := range r.races2() {
		if !isNew[rc.A] && !isNew[rc.B] {
			continue
		}
		if r.seen == nil {
			r.seen = map[[2]seg.EventID]bool{}
		}
		key := [2]seg.EventID{rc.A, rc.B}
		if r.seen[key] {
			continue
		}
		r.seen[key] = true
		if x.cfg.Races == RacesRecord {
			r.races = append(r.races, rc)
			continue
		}
		later := rc.B
		if !isNew[later] {
			later = rc.A
		}
		pos := ir.Pos{}
		if e := x.G.Event(later); e != nil {
			pos = e.Pos
		}
		x.violation, x.violKind, x.violPos = rc.Msg, "data-race", pos
		x.finished = true
		x.note(nil, rc.Msg)
		return
	}
}

// races2 computes the data races of the current graph: under RA with
// RA's happens-before, under another model whose own axioms are explored
// with that model's, else (RC11, or axioms that are not the program's
// model's) with RC11's.
func (r *relaxed) races2() []Race {
	model := "rc11"
	if m := r.x.cfg.Model; r.ra {
		model = "ra"
	} else if m != nil && m.Race != "" && m.Axioms == r.model {
		model = m.Name
	}
	return GraphRaces(r.x.G, model)
}

// GraphRaces lists the data races of graph g under model (race.Graph).
func GraphRaces(g *seg.Graph, model string) []Race { return race.Graph(g, model) }

func isAccess(e *seg.Event) bool { return race.IsAccess(e) }

func isNA(e *seg.Event) bool { return race.IsNonAtomic(e) }

// ThreadNames maps the thread numbers of x to their stable names.
func (x *Execution) ThreadNames() map[int32]string {
	out := map[int32]string{}
	for _, n := range x.live {
		out[n] = x.threads[n].name
	}
	return out
}
