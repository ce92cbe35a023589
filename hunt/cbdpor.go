package hunt

import (
	"context"
	"fmt"
	"slices"

	"ncmc/interp"
	"ncmc/ir"
)

// CB-DPOR: preemption-bounded dynamic partial-order reduction with
// preemption-only sleep sets (J. van den Hooff, "Fast Bug Finding in
// Lock-Free Data Structures with CB-DPOR", MIT 2014, Fig. 3-2), read as in
// research/dpor-pct-ovpredict.md §1.3.2–1.3.3:
//
//   - A node of the search is a prefix π with a sleep set S and a preemption
//     count p. If the thread `last` that took π's final step can still move,
//     the node is a default node: it first explores `last` (no context switch);
//     afterwards, if some later step marked the node and p < bound, it
//     explores every other enabled thread not in S ∪ {last} with sleep set
//     S ∪ {last} and p+1 preemptions. Otherwise (the start, or last finished
//     or blocked) it is an implicit switch point: every enabled thread not in
//     S is explored, nothing is added to S and no preemption is charged. If
//     every enabled thread sleeps there, the branch is redundant.
//   - Running step e of thread T wakes the sleepers whose next step depends on
//     e, and marks, for every earlier step t of another thread that depends on
//     e and does not happen before T's latest step, the node just before t
//     (the node at which t was chosen). A node reads its mark once, when its
//     default continuation is done.
//
// Two additions to the thesis's rules, both found by the differential test
// against the preemption-bounded reference (the thesis's programs have no
// blocking and no atomic blocks):
//
//   - A sleeper also wakes when its next step conflicts with the pending step
//     of a thread that cannot move (blocked on a lock, a join or a condition
//     variable). Moving the sleeper's step back to its preemption point could
//     enable the blocked thread and so turn a free context switch (the blocked
//     thread giving way) into a preemption; preemption-only sleep sets are
//     sound only when that move costs nothing.
//   - A step that starts an atomic block (its own, or one at the start of a
//     thread it spawns) disables every other thread, so it counts as
//     dependent with every step for sleep sets, and a mark for a step inside
//     an atomic block goes to the node before the block.
//
// Steps are visible instructions; two steps depend on each other when they are
// of the same thread or access a common location and one of them writes (a
// lock, unlock, RMW, CAS or wait counts as a write of its mutex/location, a
// wait and a signal/broadcast as writes of the condition variable). Happens-
// before is the transitive closure of dependence plus spawn → child, child's
// end → join and signal → woken waiter, kept as vector clocks. A mark that
// falls on a step inside an atomic block moves to the node before the block,
// the last point where other threads could run (see above). Nondeterministic
// choices are explored exhaustively where they happen. SC only.
//
// Guarantee: at bound b, every class of executions with at most b
// preemptions is explored, unless an assertion failure or runtime error cut
// some execution short (the other threads' remaining steps, and the races
// they would reveal, never happen). So CB-DPOR reports a violation at bound b
// exactly when CHESS does; only past the first violation (KeepGoing) may it
// miss classes.
//
// The search re-executes the program from the start for every trace,
// replaying the recorded path (stateless, like the reference explorer).

// access is one memory access of a step's footprint.
type access struct {
	loc   int64
	write bool
}

// footprint is what the next step of a thread touches (at most two locations).
type footprint struct {
	a [2]access
	n int
}

func (f *footprint) add(loc int64, write bool) {
	if f.n < len(f.a) {
		f.a[f.n] = access{loc, write}
		f.n++
	}
}

// dependent reports whether steps with footprints f and g conflict.
func (f *footprint) dependent(g *footprint) bool {
	for i := 0; i < f.n; i++ {
		for j := 0; j < g.n; j++ {
			if f.a[i].loc == g.a[j].loc && (f.a[i].write || g.a[j].write) {
				return true
			}
		}
	}
	return false
}

// footprintOf returns what thread tn's next step (its visible instruction)
// accesses. Addresses are evaluated on the thread's current locals; an address
// that does not evaluate makes the step a runtime error, which touches nothing.
func footprintOf(x *interp.Execution, tn int32) footprint {
	var f footprint
	t := x.Thread(tn)
	if t == nil || len(t.Frames()) == 0 {
		return f
	}
	fr := &t.Frames()[len(t.Frames())-1]
	if fr.PC() >= len(fr.Fn().Body) {
		return f
	}
	in := &fr.Fn().Body[fr.PC()]
	addr := func(e *ir.Expr) (int64, bool) {
		if e == nil {
			return 0, false
		}
		v, err := x.Eval(fr, e)
		return v, err == nil
	}
	switch in.Op {
	case ir.ILoad:
		if a, ok := addr(in.Addr); ok {
			f.add(a, false)
		}
	case ir.IStore, ir.IRMW, ir.ICAS, ir.ILock, ir.ITryLock, ir.IUnlock, ir.ISignal, ir.IBroadcast:
		if a, ok := addr(in.Addr); ok {
			f.add(a, true)
		}
	case ir.IWait:
		if t.Signaled() {
			f.add(t.WaitMutex(), true)
			break
		}
		if c, ok := addr(in.Addr); ok {
			f.add(c, true)
		}
		if m, ok := addr(in.B); ok {
			f.add(m, true)
		}
	}
	return f
}

// blockedSteps returns the footprints of the pending steps of the threads
// that cannot move now (blocked on a lock or a re-lock after wait, or
// waiting on a condition variable) and the threads that blocked joins wait for.
func (c *cbdpor) blockedSteps(x *interp.Execution) ([]footprint, []int32) {
	var fps []footprint
	var joined []int32
	for _, n := range x.Threads() {
		th := x.Thread(n)
		if th.Status() == interp.WaitingCond || th.Status() == interp.Runnable && !x.IsEnabled(th) {
			op, in, fr := nextOp(x, n)
			if op == ir.IJoin {
				if h, err := x.Eval(fr, in.A); err == nil {
					if ct := x.ThreadByHandle(h); ct != nil {
						joined = append(joined, ct.Num())
					}
				}
				continue
			}
			fps = append(fps, footprintOf(x, n))
		}
	}
	return fps, joined
}

// mayEnterAtomic reports whether thread tn's next step may start an atomic
// block: its own code after the visible instruction (up to the next visible
// one) reaches an atomic_begin, possibly through a call or by returning into
// a caller, or the step spawns a thread whose code does so before its first
// visible instruction. It over-approximates (both branches of a branch count).
func (c *cbdpor) mayEnterAtomic(x *interp.Execution, tn int32) bool {
	if c.atomicFuncs == nil {
		c.atomicFuncs = atomicFuncs(c.prog)
	}
	if len(c.atomicFuncs) == 0 {
		return false
	}
	t := x.Thread(tn)
	if t == nil || len(t.Frames()) == 0 {
		return false
	}
	fr := &t.Frames()[len(t.Frames())-1]
	if fr.PC() >= len(fr.Fn().Body) {
		return len(t.Frames()) > 1
	}
	in := &fr.Fn().Body[fr.PC()]
	if in.Op == ir.IAtomicBegin {
		return true // entering an atomic block is a step of its own
	}
	if in.Op == ir.ISpawn && in.Func != nil && c.reachesAtomic(in.Func, 0, false) {
		return true
	}
	return c.reachesAtomic(fr.Fn(), fr.PC()+1, len(t.Frames()) > 1)
}

// reachesAtomic reports whether f's invisible code from pc on may reach an
// atomic_begin before a visible instruction; returning counts when the
// frame has a caller.
func (c *cbdpor) reachesAtomic(f *ir.Func, pc int, hasCaller bool) bool {
	seen := map[int]bool{}
	work := []int{pc}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[pc] {
			continue
		}
		seen[pc] = true
		if pc >= len(f.Body) {
			if hasCaller {
				return true
			}
			continue
		}
		in := &f.Body[pc]
		switch {
		case in.Op.IsVisible():
			continue
		case in.Op == ir.IAtomicBegin:
			return true
		case in.Op == ir.ICall:
			if c.atomicFuncs[in.Func] {
				return true
			}
			work = append(work, pc+1)
		case in.Op == ir.IReturn:
			if hasCaller {
				return true
			}
		case in.Op == ir.IJump:
			work = append(work, in.Target)
		case in.Op == ir.IBranch:
			work = append(work, in.Target, in.Target2)
		default:
			work = append(work, pc+1)
		}
	}
	return false
}

// atomicFuncs returns the functions that contain an atomic block or call
// (transitively) one that does.
func atomicFuncs(prog *ir.Program) map[*ir.Func]bool {
	m := map[*ir.Func]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range prog.Funcs {
			if m[f] {
				continue
			}
			for i := range f.Body {
				in := &f.Body[i]
				if in.Op == ir.IAtomicBegin || in.Op == ir.ICall && m[in.Func] {
					m[f] = true
					changed = true
					break
				}
			}
		}
	}
	return m
}

// nextOp returns the opcode of thread tn's next visible instruction.
func nextOp(x *interp.Execution, tn int32) (ir.Op, *ir.Instr, *interp.Frame) {
	in, fr := x.NextInstr(tn)
	if in == nil {
		return ir.INop, nil, nil
	}
	return in.Op, in, fr
}

// boundStats is the result of one bounded exploration (cbdpor or chess).
type boundStats struct {
	executions int  // finished executions visited
	redundant  int  // sleep-blocked branches (cbdpor)
	cut        bool // the preemption bound pruned some branch
	complete   bool // explored to the end (no budget, no stop)
	err        error
}

// cbNode is one entry of the CB-DPOR path: a scheduling node or a choice.
type cbNode struct {
	choice bool
	kind   interp.ChoiceKind // choice
	n, k   int               // choice: k of n

	en           []int32 // enabled threads at the node
	last         int32   // thread of the prefix's last step, -1 at the start
	sleep        []int32 // S
	p            int     // preemptions in the prefix
	implicit     bool    // implicit switch point (last cannot move)
	atomicLocked bool    // only an atomic block's thread can move here
	marked       bool
	phase        uint8   // default nodes: 0 default continuation, 1 preemption branches
	cur          int32   // thread explored now
	todo         []int32 // threads left to explore
	childSleep   []int32 // S handed to the child
	childP       int     // p handed to the child
}

// cbStep is one executed step of the current trace.
type cbStep struct {
	t    int32
	idx  int32 // index among t's steps (0-based)
	node int   // path index of the node the step was chosen at
	fp   footprint
	vc   []int32
}

type locRef struct {
	step  int
	write bool
}

// cbVariant selects deliberately different (broken) readings of CB-DPOR,
// for the negative controls of the differential test. The zero value is
// CB-DPOR.
type cbVariant struct {
	classicSleep  bool // classic sleep sets: explored siblings sleep (unsound under a bound)
	markAfter     bool // mark the node after the racing step (Fig. 3-2 taken literally)
	noBlockedWake bool // sleepers ignore blocked threads (the thesis's rule)
}

type cbdpor struct {
	prog    *ir.Program
	names   *interp.Names
	cfg     interp.Config
	bound   int // < 0: unbounded
	variant cbVariant

	path     []cbNode
	depth    int // next path entry to replay or create
	firstNew int // path entries at or after this index are explored for the first time
	err      error

	atomicFuncs map[*ir.Func]bool

	steps  []cbStep
	tclock [][]int32 // per thread number
	tcount []int32
	locs   map[int64][]locRef
}

// Choose implements Chooser: replay recorded choices, explore new ones from 0.
func (c *cbdpor) Choose(_ int32, kind interp.ChoiceKind, n int) int {
	if c.depth < len(c.path) {
		nd := &c.path[c.depth]
		if !nd.choice || nd.n != n || nd.kind != kind {
			c.fail("choice %d: replay found %d alternatives of kind %d", c.depth, n, kind)
			return 0
		}
		c.depth++
		return nd.k
	}
	c.path = append(c.path, cbNode{choice: true, kind: kind, n: n})
	c.depth++
	return 0
}

func (c *cbdpor) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("internal error: cbdpor replay diverged: "+format, args...)
	}
}

func clockOf(cs [][]int32, t int32) []int32 {
	if int(t) < len(cs) {
		return cs[t]
	}
	return nil
}

func setClock(cs *[][]int32, t int32, vc []int32) {
	for int(t) >= len(*cs) {
		*cs = append(*cs, nil)
	}
	(*cs)[t] = vc
}

// joinClock returns a ⊔ b (a is modified or reallocated).
func joinClock(a, b []int32) []int32 {
	if len(b) > len(a) {
		a = append(a, make([]int32, len(b)-len(a))...)
	}
	for i, v := range b {
		if v > a[i] {
			a[i] = v
		}
	}
	return a
}

func clockAt(vc []int32, t int32) int32 {
	if int(t) < len(vc) {
		return vc[t]
	}
	return 0
}

func without(en []int32, out []int32) []int32 {
	var r []int32
	for _, t := range en {
		if !slices.Contains(out, t) {
			r = append(r, t)
		}
	}
	return r
}

// exploreCBDPOR runs CB-DPOR at the given preemption bound (< 0: unbounded),
// calling visit for every finished execution; visit returns true to stop.
// rec (optional) records each execution's steps and choices; maxExec > 0
// caps the executions.
func exploreCBDPOR(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, bound int, rec *recorder, maxExec int, visit func(*interp.Execution) bool) boundStats {
	return exploreCBDPORVariant(ctx, prog, names, cfg, bound, rec, maxExec, visit, cbVariant{})
}

func exploreCBDPORVariant(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, bound int, rec *recorder, maxExec int, visit func(*interp.Execution) bool, v cbVariant) boundStats {
	c := &cbdpor{prog: prog, names: names, cfg: cfg, bound: bound, variant: v, locs: map[int64][]locRef{}}
	var st boundStats
	var chooser interp.Chooser = c
	if rec != nil {
		chooser = recChooser{inner: c, rec: rec}
	}
	for {
		if ctx.Err() != nil || (maxExec > 0 && st.executions >= maxExec) {
			return st
		}
		if rec != nil {
			rec.reset()
		}
		x, blocked := c.run(chooser, rec)
		if c.err != nil {
			st.err = c.err
			return st
		}
		if blocked {
			st.redundant++
		} else {
			st.executions++
			if visit(x) {
				return st
			}
		}
		if !c.backtrack(&st) {
			st.complete = true
			return st
		}
	}
}

// run executes one trace along the path, extending it with new nodes; it
// reports blocked when the trace ended at a sleep-blocked implicit node.
func (c *cbdpor) run(chooser interp.Chooser, rec *recorder) (*interp.Execution, bool) {
	c.depth = 0
	c.steps = c.steps[:0]
	c.tclock = c.tclock[:0]
	c.tcount = c.tcount[:0]
	clear(c.locs)
	x := interp.NewExecution(c.prog, c.names, c.cfg, chooser, false)
	x.CheckEnd()
	var sleep []int32
	p := 0
	last := int32(-1)
	for !x.Finished() && c.err == nil {
		acts := x.Enabled()
		en := make([]int32, 0, len(acts))
		for _, a := range acts {
			if a.Flush {
				c.fail("store-buffer flush under CB-DPOR (sc only)")
				return x, false
			}
			en = append(en, a.T)
		}
		var nd *cbNode
		if c.depth < len(c.path) {
			nd = &c.path[c.depth]
			if nd.choice || !slices.Equal(nd.en, en) {
				c.fail("node %d: enabled threads %v, recorded %v", c.depth, en, nd.en)
				return x, false
			}
		} else {
			n := cbNode{en: en, last: last, sleep: sleep, p: p, childSleep: sleep, childP: p}
			n.atomicLocked = x.AtomicThread() >= 0 && len(en) == 1 && en[0] == x.AtomicThread()
			if last >= 0 && slices.Contains(en, last) {
				n.cur = last
			} else {
				n.implicit = true
				cands := without(en, sleep)
				if len(cands) == 0 {
					return x, true // every enabled thread sleeps: redundant
				}
				n.cur, n.todo = cands[0], cands[1:]
			}
			c.path = append(c.path, n)
			nd = &c.path[len(c.path)-1]
		}
		nodeIdx := c.depth
		c.depth++
		t := nd.cur
		fp := footprintOf(x, t)
		childSleep, childP := nd.childSleep, nd.childP
		atomicBefore := x.AtomicThread()
		c.step(x, t, fp, nodeIdx, nodeIdx >= c.firstNew)
		if rec != nil {
			rec.step(interp.Action{T: t})
		}
		// The child's sleep set: the sleepers whose next step is independent
		// of this one. A step that starts an atomic block (its own, or a
		// spawned thread's) disables every other thread, so it is dependent
		// with every step; sleepers are unchanged by the step, so their
		// footprints can be read after it.
		//
		// A sleeper also wakes when its next step conflicts with the pending
		// step of a thread that cannot move now (blocked on a lock, a join or
		// a condition variable): the sleeper's step could enable that thread,
		// and a blocked thread gives a free context switch, so moving the
		// sleeper's step back to where it was preempted could cost a
		// preemption (found by the differential test: an unlock that a
		// blocked lock waits for).
		entered := x.AtomicThread() >= 0 && x.AtomicThread() != atomicBefore
		var next []int32
		var blocked []footprint
		var joined []int32
		if len(childSleep) > 0 && !c.variant.noBlockedWake {
			blocked, joined = c.blockedSteps(x)
		}
		for _, u := range childSleep {
			if u == t || entered || c.mayEnterAtomic(x, u) || slices.Contains(joined, u) {
				continue
			}
			ufp := footprintOf(x, u)
			if ufp.dependent(&fp) || slices.ContainsFunc(blocked, func(b footprint) bool { return ufp.dependent(&b) }) {
				continue
			}
			next = append(next, u)
		}
		sleep, p, last = next, childP, t
	}
	return x, false
}

// step runs thread t's next step, keeping clocks and (when mark is set)
// marking the nodes before earlier racing steps.
func (c *cbdpor) step(x *interp.Execution, t int32, fp footprint, nodeIdx int, mark bool) {
	tc := clockOf(c.tclock, t)
	vc := append([]int32(nil), tc...)
	for i := 0; i < fp.n; i++ {
		acc := fp.a[i]
		for _, r := range c.locs[acc.loc] {
			if !acc.write && !r.write {
				continue
			}
			s := &c.steps[r.step]
			vc = joinClock(vc, s.vc)
			if s.t == t || !mark {
				continue
			}
			if clockAt(tc, s.t) >= s.idx+1 {
				continue // s happens before t's latest step: cannot be reordered
			}
			c.path[c.markTarget(r.step)].marked = true
		}
	}
	op, in, fr := nextOp(x, t)
	var joined int32 = -1
	if op == ir.IJoin && in != nil {
		if h, err := x.Eval(fr, in.A); err == nil {
			if ct := x.ThreadByHandle(h); ct != nil {
				joined = ct.Num()
			}
		}
	}
	var waiting []int32
	if op == ir.ISignal || op == ir.IBroadcast {
		for _, n := range x.Threads() {
			if x.Thread(n).Status() == interp.WaitingCond {
				waiting = append(waiting, n)
			}
		}
	}
	if joined >= 0 {
		vc = joinClock(vc, clockOf(c.tclock, joined))
	}
	for int(t) >= len(c.tcount) {
		c.tcount = append(c.tcount, 0)
	}
	idx := c.tcount[t]
	if int(t) >= len(vc) {
		vc = append(vc, make([]int32, int(t)+1-len(vc))...)
	}
	vc[t] = idx + 1
	nlive := len(x.Threads())
	x.Step(interp.Action{T: t})
	c.tcount[t]++
	setClock(&c.tclock, t, vc)
	si := len(c.steps)
	c.steps = append(c.steps, cbStep{t: t, idx: idx, node: nodeIdx, fp: fp, vc: vc})
	for i := 0; i < fp.n; i++ {
		c.locs[fp.a[i].loc] = append(c.locs[fp.a[i].loc], locRef{step: si, write: fp.a[i].write})
	}
	for _, n := range x.Threads()[nlive:] {
		setClock(&c.tclock, n, append([]int32(nil), vc...))
	}
	for _, w := range waiting {
		if wt := x.Thread(w); wt.Status() == interp.Runnable && wt.Signaled() {
			setClock(&c.tclock, w, joinClock(append([]int32(nil), clockOf(c.tclock, w)...), vc))
		}
	}
}

// markTarget returns the node to mark for a race with step s: the node s was
// chosen at, or, inside an atomic block, the node before the block.
func (c *cbdpor) markTarget(s int) int {
	if c.variant.markAfter && s+1 < len(c.steps) {
		s++
	}
	for s > 0 && c.path[c.steps[s].node].atomicLocked {
		s--
	}
	return c.steps[s].node
}

// backtrack moves the path to the next branch; false when the search is over.
func (c *cbdpor) backtrack(st *boundStats) bool {
	for len(c.path) > 0 {
		top := &c.path[len(c.path)-1]
		switch {
		case top.choice:
			if top.k+1 < top.n {
				top.k++
				c.firstNew = len(c.path)
				return true
			}
		case top.implicit || top.phase == 1:
			if len(top.todo) > 0 {
				if c.variant.classicSleep {
					top.childSleep = append(slices.Clone(top.childSleep), top.cur)
				}
				top.cur, top.todo = top.todo[0], top.todo[1:]
				c.firstNew = len(c.path) - 1
				return true
			}
		default:
			top.phase = 1
			if top.marked {
				if c.bound >= 0 && top.p >= c.bound {
					st.cut = true
					break
				}
				s1 := append(append([]int32(nil), top.sleep...), top.last)
				cands := without(top.en, s1)
				if len(cands) > 0 {
					top.childSleep, top.childP = s1, top.p+1
					top.cur, top.todo = cands[0], cands[1:]
					c.firstNew = len(c.path) - 1
					return true
				}
			}
		}
		c.path = c.path[:len(c.path)-1]
	}
	return false
}
