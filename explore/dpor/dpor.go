// Package dpor is the dpor explorer and, with commutativity
// specifications, the ncmc explorer (the default "complete" rule): a
// depth-first search over
// macro-steps with sleep sets (Godefroid 1996) under an independence
// relation that uses the commutativity specifications. docs/ncmc.md has the
// completeness argument; in short:
//
//   - A macro-step of thread t is one visible step, except that a call of a
//     linearizable method runs from its first visible instruction to its
//     return as one step (trusting the annotation, as the NCMC thesis does),
//     and so does an atomic block. A macro-step that cannot finish (the
//     thread blocks inside) ends where it blocks and is opaque (dependent
//     with every step), as is the rest of that invocation or block.
//   - Two macro-steps of different threads are independent at a state when
//     they touch no common cell with a write among them, except that cells
//     internal to an object (its fields, heap blocks allocated inside its
//     methods) are ignored between two invocations on that object, which
//     must instead commute by the spec. The spec's condition is evaluated on
//     the labels of an actual order of the two invocations from that state:
//     the new invocation as it ran, then the sleeping one as it runs right
//     after it (found by re-executing: a "peek"). Steps that made a
//     nondeterministic choice, failed, hit a bound, or ran while another
//     thread was stuck inside an atomic block are opaque.
//   - A sleeping step stays asleep across a step independent of it; a node
//     whose enabled threads all sleep is cut (Stats.Pruned).
package dpor

import (
	"context"

	"ncmc/commspec"
	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// stepInfo describes one macro-step as it runs from a given state.
type stepInfo struct {
	t      int32
	opaque bool
	inv    *seg.Invocation // the invocation the step is (complete), nil for a plain step
	rec    *ir.Record      // inv's object type
	spec   *commspec.Spec  // inv's spec, nil if none
	pre    *interp.Memory  // memory before the step (L1 specs only)
	acc    map[int64]bool  // cells touched → written
	locks  []int64         // mutexes the step acquired
	holds  []int64         // mutexes the step acquired and still holds at its end
	intern map[int64]bool  // cells of acc internal to inv's object
}

// thread-lifecycle pseudo cells (negative: never a real address).
func endCell(t int32) int64 { return -2 - int64(t) }

// ncNode is one node of the DFS path: the state after the steps of the
// nodes before it.
type ncNode struct {
	sleep []*stepInfo // asleep on arrival (infos accurate at this state)
	done  []*stepInfo // steps explored from here, in order
	cur   int32       // thread of the step being explored
	ch    []explore.ChoicePoint
	info  *stepInfo // cur's step as it ran last
	en    []int32   // threads enabled here
	tried map[int32]bool
	// bt is the backtrack set (dpor): the threads to explore from here;
	// nil means every enabled thread.
	bt map[int32]bool
	// snap is the state here (before cur's step), never run itself: a
	// run that backtracks to this node or a deeper one starts from a copy
	// of it. Taken only where another thread may be explored (and only if
	// the execution can be copied); a node without one is reached by
	// running the steps from the nearest node above that has one (or from
	// the start).
	snap *ncSnap
	// before is the set of earlier nodes whose steps happen before this
	// node's step (dpor; a bit set over node indices, computed by races).
	before []uint64
}

// ncSnap is a copy of a run's state.
type ncSnap struct {
	x       *interp.Execution
	partial map[int32]bool
	cells   int // execSize of x
}

// snapshot copies r's state (nil if the execution cannot be copied).
func (r *ncRun) snapshot() *ncSnap {
	x := r.x.Clone(nil)
	if x == nil {
		return nil
	}
	return &ncSnap{x: x, partial: copyBoolMap(r.partial)}
}

// restore starts a run from a copy of snapshot s.
func (e *ncExplorer) restore(s *ncSnap) (*ncRun, *switchChooser) {
	sc := &switchChooser{cur: interp.FirstChoice{}}
	return &ncRun{e: e, x: s.x.Clone(sc), partial: copyBoolMap(s.partial)}, sc
}

// copyRun starts a run from a copy of run r's current state (nil if it
// cannot be copied).
func (e *ncExplorer) copyRun(r *ncRun) (*ncRun, *switchChooser) {
	sc := &switchChooser{cur: interp.FirstChoice{}}
	x := r.x.Clone(sc)
	if x == nil {
		return nil, nil
	}
	return &ncRun{e: e, x: x, partial: copyBoolMap(r.partial)}, sc
}

// resume re-executes the DFS path up to and including its last node's
// step, starting from the deepest snapshot on it (from the start if none).
func (e *ncExplorer) resume(path []*ncNode) (*ncRun, *switchChooser) {
	j := len(path) - 1
	for j >= 0 && path[j].snap == nil {
		j--
	}
	if j < 0 {
		return e.replay(path, false)
	}
	r, sc := e.restore(path[j].snap)
	for _, nd := range path[j:] {
		nd.info = r.macro(nd.cur, sc, &nd.ch)
	}
	return r, sc
}

func copyBoolMap(m map[int32]bool) map[int32]bool {
	c := make(map[int32]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// ncRun is one (re-)execution along the DFS path.
type ncRun struct {
	e       *ncExplorer
	x       *interp.Execution
	partial map[int32]bool // thread stopped inside an invocation or atomic block
}

type ncExplorer struct {
	prog  *ir.Program
	names *interp.Names
	cfg   interp.Config
	specs map[string]*commspec.Spec
	peeks int
	// dpor restricts the threads explored at a node to a source set built
	// from the races of the runs seen (Abdulla et al. 2014); off when a
	// spec uses the abstract state (L1), see docs/ncmc.md.
	dpor bool
	// cache (Options.StateCache; dpor is then off) maps each state the
	// search reached to the threads asleep there when it was explored,
	// intersected over the visits (Godefroid 1996, sleep sets with state
	// caching): a later visit explores only the threads asleep every time
	// before and awake now.
	cache map[[2]uint64][]int32
	// budget bounds the state copies on the DFS path (ncNode.snap).
	budget explore.SnapBudget
	// ctx is the exploration's context, also looked at inside long runs
	// and in the race analysis after them.
	ctx context.Context
	// root holds the choices made before the first step: the interpreter
	// runs main's invisible prefix (local computation, nondeterministic
	// choices) when it creates an execution. They are backtracked when the
	// DFS path is exhausted (a single-threaded program is explored there
	// entirely).
	root []explore.ChoicePoint
}

// stepChooser replays a node's recorded choices and extends them.
type stepChooser struct {
	ch    *[]explore.ChoicePoint
	depth int
}

func (c *stepChooser) Choose(_ int32, kind interp.ChoiceKind, n int) int {
	ps := *c.ch
	if c.depth < len(ps) {
		k := ps[c.depth].K
		c.depth++
		if k >= n {
			k = n - 1
		}
		return k
	}
	*c.ch = append(ps, explore.ChoicePoint{N: n, Kind: int(kind) + 1})
	c.depth++
	return 0
}

// switchChooser forwards to the chooser of the step being run.
type switchChooser struct{ cur interp.Chooser }

func (s *switchChooser) Choose(t int32, kind interp.ChoiceKind, n int) int {
	return s.cur.Choose(t, kind, n)
}

func (e *ncExplorer) newRun(trace bool) (*ncRun, *switchChooser) {
	sc := &switchChooser{cur: &stepChooser{ch: &e.root}}
	x := interp.NewExecution(e.prog, e.names, e.cfg, sc, trace)
	x.CheckEnd()
	sc.cur = interp.FirstChoice{}
	return &ncRun{e: e, x: x, partial: map[int32]bool{}}, sc
}

// enabledThreads lists the threads with an enabled step (SC: no flushes).
func (r *ncRun) enabledThreads() []int32 {
	var ts []int32
	for _, a := range r.x.Enabled() {
		if !a.Flush {
			ts = append(ts, a.T)
		}
	}
	return ts
}

func (r *ncRun) canStep(t int32) bool {
	if r.x.Finished() {
		return false
	}
	for _, a := range r.x.Enabled() {
		if a.T == t && !a.Flush {
			return true
		}
	}
	return false
}

// macro runs thread t's next macro-step with chooser ch and describes it.
func (r *ncRun) macro(t int32, sc *switchChooser, ch *[]explore.ChoicePoint) *stepInfo {
	x := r.x
	th := x.Thread(t)
	info := &stepInfo{t: t, acc: map[int64]bool{}}
	sc.cur = &stepChooser{ch: ch}
	nChoices := len(x.Choices)
	resumed := r.partial[t]
	inv := interp.OutermostInv(th)
	if x.AtomicThread() >= 0 && x.AtomicThread() != t {
		info.opaque = true
	}
	if inv != nil && !resumed {
		if s := r.e.specs[inv.Type]; s != nil {
			info.spec = s
			if s.UsesState() {
				info.pre = x.Memory()
			}
		}
		info.rec = r.e.prog.RecordByName(inv.Type)
	}
	startEv := len(x.G.Threads[t])
	for {
		x.Step(interp.Action{T: t})
		if th.Status() == interp.WaitingCond {
			info.acc[th.WaitCond()] = true
		}
		more := (inv != nil && !inv.Done) || th.Atomic() > 0
		if !more {
			break
		}
		if !r.canStep(t) {
			break
		}
	}
	for _, ev := range x.G.Threads[t][startEv:] {
		switch ev.Kind {
		case seg.KRead:
			if _, ok := info.acc[ev.Loc]; !ok {
				info.acc[ev.Loc] = false
			}
		case seg.KWrite, seg.KRMW, seg.KLock, seg.KUnlock, seg.KSignal, seg.KBroadcast:
			info.acc[ev.Loc] = true
			if ev.Kind == seg.KLock {
				info.locks = append(info.locks, ev.Loc)
			}
		case seg.KJoin:
			if _, ok := info.acc[endCell(ev.Other)]; !ok {
				info.acc[endCell(ev.Other)] = false
			}
		case seg.KThreadEnd:
			info.acc[endCell(t)] = true
		case seg.KError, seg.KBlock:
			info.opaque = true
		}
	}
	for _, m := range info.locks {
		if v, ok := x.Peek(m); ok && v == int64(t)+1 && !hasInt(info.holds, m) {
			info.holds = append(info.holds, m)
		}
	}
	stuck := (inv != nil && !inv.Done) || th.Atomic() > 0
	r.partial[t] = stuck && th.Status() != interp.Done
	if stuck || resumed || len(x.Choices) > nChoices || x.HasViolation() || x.BoundHit() != "" ||
		th.Status() == interp.Failed || th.Status() == interp.BoundHit || x.AtomicThread() >= 0 {
		info.opaque = true
	}
	if inv != nil && inv.Done && !resumed && !info.opaque {
		info.inv = inv
		if info.rec != nil {
			info.intern = map[int64]bool{}
			for c := range info.acc {
				if c > 0 && r.internal(c, inv.Obj, info.rec) {
					info.intern[c] = true
				}
			}
		}
	}
	sc.cur = interp.FirstChoice{}
	return info
}

// internal reports whether cell c belongs to the object of type rec at obj:
// one of its fields, or a heap block allocated inside one of its methods.
func (r *ncRun) internal(c, obj int64, rec *ir.Record) bool {
	cb, co := ir.PtrBlock(c), ir.PtrOffset(c)
	ob, oo := ir.PtrBlock(obj), ir.PtrOffset(obj)
	if cb == ob && co >= oo && co < oo+rec.Size {
		return true
	}
	o, ok := r.x.Owner(cb)
	return ok && o == obj
}

// replay re-executes the DFS path up to and including node i's step.
func (e *ncExplorer) replay(path []*ncNode, trace bool) (*ncRun, *switchChooser) {
	r, sc := e.newRun(trace)
	for _, nd := range path {
		nd.info = r.macro(nd.cur, sc, &nd.ch)
	}
	return r, sc
}

// independent decides whether sleeping step a (accurate at state s) and step
// b (run from s; path ends with b's node) are independent at s. For two
// invocations on one object it peeks at a run right after b: a copy of
// live (the run right after b) if it can be copied, else path re-executed.
// The result is a as it runs after b, to stay asleep with (nil: dependent).
func (e *ncExplorer) independent(path []*ncNode, live *ncRun, a, b *stepInfo) *stepInfo {
	dep, same := cellDependent(a, b)
	if dep {
		return nil
	}
	if !same {
		return a
	}
	if a.spec == nil || b.spec == nil {
		return nil
	}
	// Peek: the state after b, then a's step.
	e.peeks++
	r, sc := e.copyRun(live)
	if r == nil {
		r, sc = e.replay(path, false)
	}
	if r.x.Finished() || !r.canStep(a.t) {
		return nil
	}
	var ch []explore.ChoicePoint
	var post *interp.Memory
	if a.spec.UsesState() {
		post = r.x.Memory()
	}
	a2 := r.macro(a.t, sc, &ch)
	if a2.opaque || a2.inv == nil || a2.inv.Obj != a.inv.Obj || a2.inv.Method != a.inv.Method {
		return nil
	}
	if !sameExternal(a, a2) {
		return nil
	}
	// The labels of the order b; a from s.
	lb := commspec.FromSeg(b.inv, nil)
	la := commspec.FromSeg(a2.inv, nil)
	if b.pre != nil {
		lb.State = interp.NewAbsState(b.pre, b.inv.Obj, b.rec, e.cfg)
	}
	if post != nil {
		la.State = interp.NewAbsState(post, a2.inv.Obj, a2.rec, e.cfg)
	}
	if !b.spec.Commute(lb, la) {
		return nil
	}
	return a2
}

// sameExternal reports whether a and a2 touch the same cells outside their
// object in the same way.
func sameExternal(a, a2 *stepInfo) bool {
	n := 0
	for c, w := range a.acc {
		if a.intern[c] {
			continue
		}
		n++
		if w2, ok := a2.acc[c]; !ok || w2 != w || a2.intern[c] {
			return false
		}
	}
	for c := range a2.acc {
		if !a2.intern[c] {
			n--
		}
	}
	return n == 0
}

// exploreNCMC is the dpor explorer, and with specs the ncmc explorer.
func exploreNCMC(ctx context.Context, t *explore.Task) error {
	prog, opts, names := t.Prog, t.Opts, t.Names
	if len(opts.Specs) == 0 {
		t.Ran("dpor")
	}
	cfg := t.Config()
	// Runs go on after a violation (the failing thread stops) so that
	// the other threads' later steps, and their races, are seen; the
	// outcome is the state at the first violation.
	cfg.ContinueAfterViolation = true
	e := &ncExplorer{prog: prog, names: names, specs: map[string]*commspec.Spec{}, ctx: ctx, cfg: cfg}
	e.dpor = true
	for _, s := range opts.Specs {
		e.specs[s.Object] = s
		if s.UsesState() {
			e.dpor = false
		}
	}
	if opts.StateCache {
		// Source sets rest on every run being explored to its end;
		// a cut at a cached state breaks that, sleep sets alone do not.
		e.dpor = false
		e.cache = map[[2]uint64][]int32{}
	}
	var path []*ncNode
	var cex []*ncNode
	for {
		if t.Budget(ctx) {
			break
		}
		// Only the deepest node's step changed (backtrack); the steps
		// before it run as before. from is the first node whose step is
		// new in this run.
		r, sc := e.resume(path)
		from := 0
		if n := len(path); n > 0 {
			from = n - 1
		}
		pruned, cached, interrupted := false, false, false
		for !r.x.Finished() {
			if len(path)&255 == 255 && ctx.Err() != nil {
				// A single run can be long (many threads, no loop bound).
				interrupted = true
				break
			}
			en := r.enabledThreads()
			var key [2]uint64
			useCache := e.cache != nil && !r.x.HasViolation() && r.x.BoundHit() == ""
			if useCache {
				key = r.x.StateHash()
				if old, seen := e.cache[key]; seen && len(old) == 0 {
					// Explored before with nothing asleep: every
					// thread was explored from here.
					pruned, cached = true, true
					break
				}
			}
			var sleep []*stepInfo
			if n := len(path); n > 0 {
				parent := path[n-1]
				cands := append(append([]*stepInfo(nil), parent.sleep...), parent.done...)
				for _, a := range cands {
					// a2 is a as it runs after the parent's step.
					if a2 := e.independent(path, r, a, parent.info); a2 != nil {
						sleep = append(sleep, a2)
					}
				}
			}
			nd := &ncNode{sleep: sleep, en: en, tried: map[int32]bool{}}
			if useCache && !e.lookup(key, nd) {
				pruned, cached = true, true
				break
			}
			next := int32(-1)
			awake := 0
			for _, t := range en {
				if !asleep(sleep, t) && !nd.tried[t] {
					if next < 0 {
						next = t
					}
					awake++
				}
			}
			if awake > 1 {
				// The copies on the path are bounded (explore.MaxSnapCells, as the
				// stateful explorer's): a node without one is reached by
				// re-execution from a shallower one.
				if size, ok := e.budget.Take(r.x); ok {
					if nd.snap = r.snapshot(); nd.snap != nil {
						nd.snap.cells = size
					} else {
						e.budget.Release(size)
					}
				}
			}
			if next < 0 {
				pruned = true
				break
			}
			nd.cur = next
			nd.tried[next] = true
			if e.dpor {
				nd.bt = map[int32]bool{next: true}
			}
			path = append(path, nd)
			nd.info = r.macro(next, sc, &nd.ch)
		}
		if interrupted {
			t.StopTime(ctx.Err())
			break
		}
		if e.dpor {
			e.races(path, from)
			e.pendingLocks(r, path)
			if n := len(path); !pruned && n > 0 && (r.x.HasViolation() || r.x.BoundHit() != "") {
				// The last step ended the run while other threads could
				// still move: it disables them, so each of them must also
				// be tried first there (the state at a violation depends
				// on what ran before it).
				for _, t := range path[n-1].en {
					path[n-1].bt[t] = true
				}
			}
		}
		if cached {
			t.Stats().Cached++
		} else if pruned {
			t.Stats().Pruned++
		} else if t.Add(r.x) && cex == nil {
			cex = clonePath(path)
			if !opts.KeepGoing {
				break
			}
		}
		t.Progress(len(path))
		if !e.backtrack(&path) {
			break
		}
	}
	if e.cache == nil && !e.dpor {
		for _, s := range opts.Specs {
			if s.UsesState() {
				t.Note("the %s spec uses the abstract state (logic L1): sleep sets only, no source sets (docs/ncmc.md §4); --state-cache cuts runs at states seen before", s.Object)
				break
			}
		}
	}
	if cex != nil {
		r, _ := e.replay(cex, true)
		t.Counterexample(r.x, r.x.Story())
	}
	return nil
}

// lookup consults the state cache at new node nd (state key): on a first
// visit it records the threads asleep; on a later one it marks as tried the
// awake threads explored at an earlier visit (awake every time before) and
// keeps, as what is asleep, the threads asleep at every visit. It reports
// whether a thread is left to explore. States after a violation or a bound
// hit are neither cached nor looked up (their outcome is the state of the
// violation, not of the end).
func (e *ncExplorer) lookup(key [2]uint64, nd *ncNode) bool {
	old, seen := e.cache[key]
	var now, both []int32
	for _, a := range nd.sleep {
		now = append(now, a.t)
	}
	if !seen {
		e.cache[key] = now
		return true
	}
	left := false
	for _, t := range nd.en {
		switch {
		case asleep(nd.sleep, t):
		case hasInt32(old, t):
			left = true // asleep before, awake now: explore it
		default:
			nd.tried[t] = true // explored at an earlier visit
		}
	}
	for _, t := range old {
		if hasInt32(now, t) {
			both = append(both, t)
		}
	}
	e.cache[key] = both
	return left
}

func asleep(sleep []*stepInfo, t int32) bool {
	for _, s := range sleep {
		if s.t == t {
			return true
		}
	}
	return false
}

func clonePath(path []*ncNode) []*ncNode {
	out := make([]*ncNode, len(path))
	for i, nd := range path {
		c := *nd
		c.ch = append([]explore.ChoicePoint(nil), nd.ch...)
		out[i] = &c
	}
	return out
}

// backtrack moves to the next unexplored alternative: another choice inside
// the deepest step that has one, else another enabled, awake, untried thread
// at the deepest node that has one. It reports false when the search is over.
func (e *ncExplorer) backtrack(path *[]*ncNode) bool {
	for len(*path) > 0 {
		p := *path
		top := p[len(p)-1]
		// Another alternative of a choice inside the current step.
		if explore.NextAlternative(&top.ch) {
			return true
		}
		top.done = append(top.done, top.info)
		next := int32(-1)
		for _, t := range top.en {
			if !top.tried[t] && !asleep(top.sleep, t) && (top.bt == nil || top.bt[t]) {
				next = t
				break
			}
		}
		if next >= 0 {
			top.cur = next
			top.tried[next] = true
			top.ch = nil
			top.info = nil
			return true
		}
		if top.snap != nil {
			e.budget.Release(top.snap.cells)
			top.snap = nil
		}
		*path = p[:len(p)-1]
	}
	// Another alternative of a choice made before the first step.
	return explore.NextAlternative(&e.root)
}

// cellDependent is the part of the dependence of steps a and b that does
// not need the spec: same thread, an opaque step, or a common cell with a
// write (cells internal to the object of two invocations on it aside). same
// reports that a and b are invocations on one object.
func cellDependent(a, b *stepInfo) (dep, same bool) {
	if a.opaque || b.opaque || a.t == b.t {
		return true, false
	}
	same = a.inv != nil && b.inv != nil && a.inv.Obj == b.inv.Obj
	for c, wa := range a.acc {
		wb, ok := b.acc[c]
		if !ok || (!wa && !wb) {
			continue
		}
		if same && a.intern[c] && b.intern[c] {
			continue
		}
		return true, same
	}
	return false, same
}

// dependent is the dependence of two steps of one run, i before j, used for
// its happens-before order: same thread, an opaque step, a common cell with
// a write (cells internal to the object of two invocations on it aside), or
// two invocations on one object whose labels (method, arguments, result)
// the spec does not say commute. Only used with L2 specs (ncExplorer.dpor),
// where a label does not depend on where the invocation runs.
func (e *ncExplorer) dependent(a, b *stepInfo) bool {
	dep, same := cellDependent(a, b)
	if dep {
		return true
	}
	if !same {
		return false
	}
	if a.spec == nil || b.spec == nil {
		return true
	}
	return !a.spec.Commute(commspec.FromSeg(a.inv, nil), commspec.FromSeg(b.inv, nil))
}

// races adds backtrack points for the races of the run along path (source
// sets): for steps i before k of different threads with i happening before k
// directly (dependent, and no step between them ordered after i and before
// k), the run must also be explored from node i with a thread that starts
// v = (the steps between i and k not after i), k. If no such initial thread
// of v is in node i's backtrack set, one is added.
//
// The steps of the nodes before from are those of the previous run, whose
// races were handled then: a race (i, k) with k < from has the same v, and
// backtrack sets only grow, so only races with k >= from are looked at, and
// the happens-before sets of the earlier nodes are kept on the nodes.
func (e *ncExplorer) races(path []*ncNode, from int) {
	n := len(path)
	// before[k]: the steps that happen before step k.
	before := make([][]uint64, n)
	dep := func(i, k int) bool { return e.dependent(path[i].info, path[k].info) }
	has := func(set []uint64, i int) bool { return set[i/64]&(1<<(uint(i)%64)) != 0 }
	for k := 0; k < n; k++ {
		if k&63 == 63 && e.ctx.Err() != nil {
			return // the exploration ends (a long run): no more races needed
		}
		if k < from && path[k].before != nil {
			before[k] = path[k].before
			continue
		}
		before[k] = make([]uint64, k/64+1)
		for i := k - 1; i >= 0; i-- {
			if has(before[k], i) || !dep(i, k) {
				continue
			}
			before[k][i/64] |= 1 << (uint(i) % 64)
			for w := range before[i] {
				before[k][w] |= before[i][w]
			}
		}
		path[k].before = before[k]
	}
	addRace := raceAdder(path, before, has)
	for k := from; k < n; k++ {
		if k&63 == 63 && e.ctx.Err() != nil {
			return
		}
		for i := k - 1; i >= 0; i-- {
			if path[i].info.t == path[k].info.t || !has(before[k], i) || !dep(i, k) {
				continue
			}
			// i must happen before k directly: no j between them with
			// i → j → k.
			direct := true
			for j := i + 1; j < k; j++ {
				if has(before[j], i) && has(before[k], j) {
					direct = false
					break
				}
			}
			if direct {
				addRace(i, k)
			}
		}
		// A step that acquires a mutex races with the last step of
		// another thread that acquired it and kept it held, even though
		// that thread's unlock orders them: the unlock and the second
		// acquisition are never both enabled, so that pair cannot be
		// reversed, the two acquisitions can (cf. co-enabledness in
		// Flanagan and Godefroid 2005). Acquisitions released within the
		// same step (e.g. inside an invocation) are ordinary conflicts.
		for _, m := range path[k].info.locks {
			for i := k - 1; i >= 0; i-- {
				if hasInt(path[i].info.locks, m) {
					if path[i].info.t != path[k].info.t && hasInt(path[i].info.holds, m) {
						addRace(i, k)
					}
					break
				}
			}
		}
	}
}

func hasInt(s []int64, m int64) bool {
	for _, l := range s {
		if l == m {
			return true
		}
	}
	return false
}

// raceAdder returns the function that makes sure the run can be
// explored from node i with a thread that starts v = (the steps after i
// not ordered after i), k.
func raceAdder(path []*ncNode, before [][]uint64, has func([]uint64, int) bool) func(i, k int) {
	return func(i, k int) {
		// v: the steps after i not ordered after it, then k.
		var v []int
		for j := i + 1; j < k; j++ {
			if !has(before[j], i) {
				v = append(v, j)
			}
		}
		v = append(v, k)
		nd := path[i]
		initial := map[int32]bool{}
		seen := map[int32]bool{}
		for _, j := range v {
			t := path[j].info.t
			if seen[t] {
				continue
			}
			seen[t] = true
			first := true
			for _, h := range v {
				if h >= j {
					break
				}
				if has(before[j], h) {
					first = false
					break
				}
			}
			if first {
				initial[t] = true
			}
		}
		for t := range initial {
			if nd.bt[t] {
				return
			}
		}
		added := false
		for _, t := range nd.en {
			if initial[t] {
				nd.bt[t] = true
				added = true
				break
			}
		}
		if !added {
			for _, t := range nd.en {
				nd.bt[t] = true
			}
		}
	}
}

// pendingLocks handles the threads that the run leaves waiting for a mutex:
// their acquisition never ran, so it appears in no race, yet it races with
// the last step that acquired the mutex and kept it (Flanagan and Godefroid
// 2005 look at every thread's next step, enabled or not). Each such thread
// is added to the backtrack set of that step's node (every enabled thread
// there if it was not enabled).
func (e *ncExplorer) pendingLocks(r *ncRun, path []*ncNode) {
	x := r.x
	for _, n := range x.Threads() {
		th := x.Thread(n)
		if th.Status() != interp.Runnable || len(th.Frames()) == 0 || x.IsEnabled(th) {
			continue
		}
		m, ok := x.PendingLock(n)
		if !ok {
			continue
		}
		for i := len(path) - 1; i >= 0; i-- {
			if !hasInt(path[i].info.locks, m) {
				continue
			}
			if path[i].info.t != n && hasInt(path[i].info.holds, m) {
				nd := path[i]
				if hasInt32(nd.en, n) {
					nd.bt[n] = true
				} else {
					for _, t := range nd.en {
						nd.bt[t] = true
					}
				}
			}
			break
		}
	}
}

func hasInt32(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Explorer is the DPOR explorer: "dpor", or with Specs "ncmc", the same
// algorithm with commutativity specifications (docs/ncmc.md).
type Explorer struct {
	// Specs names the explorer "ncmc": the one the auto plan runs with
	// --spec.
	Specs bool
}

// Name implements explore.Explorer.
func (e Explorer) Name() string {
	if e.Specs {
		return "ncmc"
	}
	return "dpor"
}

// Doc implements explore.Explorer.
func (e Explorer) Doc() string {
	if e.Specs {
		return "with --spec: invocations of linearizable methods as atomic steps, commuting ones not reordered (docs/ncmc.md); dpor without specs; sc"
	}
	return "sleep sets and source sets (optimal-style DPOR) over interleavings; sc"
}

// Check implements explore.Explorer.
func (e Explorer) Check(t *explore.Task) error {
	if t.Opts.Races {
		return explore.Unsupportedf(e, false, "data-race detection is not available with the %s explorer", e.Name())
	}
	if t.Model.Exec != memmodel.Interleaving {
		return explore.Unsupportedf(e, false, "the %s explorer (--spec) supports only the sc memory model, not %s", e.Name(), t.Model.Name)
	}
	return explore.CheckSpecs(t.Prog, t.Opts.Specs)
}

// Explore implements explore.Explorer.
func (Explorer) Explore(ctx context.Context, t *explore.Task) error { return exploreNCMC(ctx, t) }
