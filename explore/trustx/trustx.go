// Package trustx drives the TruSt-style graph explorer of package
// explore/trust on the interpreter: the trust explorer (--explorer trust,
// the default under ra and rc11), its parallel exploration (par.go) and
// Enumerate, herd's entry point to graph exploration (enumerate.go).
//
// Memory of the parallel exploration: each task (a part of the worklist a
// worker explores) holds its results until the caller's goroutine gets to
// them in the sequential order, folded by outcome (explore.Summary.FoldKey):
// at most one result per outcome, violation or kind of blocked or cut
// execution, plus its first complete graph and first counterexample,
// whatever the size of its subtree (TestTrustParallelFoldBound). Where
// that is not small (many outcomes; --classes and --max-executions, under
// which results do not fold) a task holding maxOutResults results makes
// its worker wait, or park it and take the task the caller waits for if
// that one is queued, unless it is that task (see par.go). A finished task
// drops its explorer.
package trustx

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"ncmc/explore"
	"ncmc/explore/graph"
	"ncmc/explore/trust"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/race"
	"ncmc/seg"
)

// Glue between the interpreter and the TruSt-style graph explorer of
// package explore/trust (--explorer trust under ra and rc11).
//
// The explorer holds the current execution graph and a worklist of graphs
// to explore. For each graph the interpreter runs the program from the
// start: first it replays the events the graph holds (a read returns the
// value of the write the graph says it reads from), scheduling the lowest
// enabled thread that has events left to replay; then it adds new events,
// always for the lowest enabled thread, asking the explorer what each new
// read reads (like GenMC's handleLoad) and announcing each new write, fence,
// spawn, join and thread end. The explorer pushes the alternatives (other
// writes to read from, other coherence placements, backward revisits) on
// its worklist. The interface to the interpreter is the relaxed hooks
// Begin, End, Filter and Access (interp.GraphDriver, interp/relaxed.go).

// trustGlue connects one Execution to the explorer.
type trustGlue struct {
	x       *interp.Execution
	ex      *trust.Explorer
	model   string        // "ra", "rc11", "tso" or "sc"
	seen    []int         // per thread, x.G events accounted for
	added   []seg.EventID // accesses of the current step
	pending []seg.EventID // accesses whose races are to be looked for
	fresh   trust.Ref
	err     error
	// lockBlocked: threads blocked by a lock that read a held mutex, with
	// the mutex and the lock's position
	lockBlocked []lockBlock
	// checkpoints: before each step that adds a new access, x is copied
	// (trustCheckpoint) for the forward revisits the access pushes
	checkpoints bool
	// shared: x shares arrays with a checkpoint (it was copied, or is a
	// copy) and may not be released; forked: x is a copy
	shared, forked bool
	// dead holds the copies that are no longer used, whose storage the
	// next copies reuse (shared by the executions of one exploration)
	dead *[]*interp.Execution
}

// trustCheckpoint is the state of an execution and its glue before a step
// that added a new access (Explorer.SetCheckpoint): the graphs of the
// forward revisits that the access pushed run on from it instead of
// replaying their events from the start.
type trustCheckpoint struct {
	x           *interp.Execution
	seen        []int
	lockBlocked []lockBlock
}

// checkpoint returns the current state, or nil if x cannot be copied or
// has a violation. A run from a checkpoint must find what a run of the
// same graph from the start finds: such a run does not look again for data
// races of the events it replays, so a copy made after one was found would
// report it again (other violations, assertions and runtime errors, recur
// in any run), and the races left to look for (pending) are not taken
// along.
func (tg *trustGlue) checkpoint() *trustCheckpoint {
	if tg.x.HasViolation() {
		return nil
	}
	y := tg.x.ForkDriven(tg.takeDead())
	if y == nil {
		return nil
	}
	tg.shared = true
	return &trustCheckpoint{x: y, seen: append([]int(nil), tg.seen...), lockBlocked: append([]lockBlock(nil), tg.lockBlocked...)}
}

// resume returns the glue of an execution that runs on from checkpoint
// cp (in place if last, else from a copy) on the explorer's current graph.
func resumeTrust(cp *trustCheckpoint, last bool, ex *trust.Explorer, model string, dead *[]*interp.Execution) (*interp.Execution, *trustGlue) {
	tg := &trustGlue{ex: ex, model: model, checkpoints: true, shared: true, forked: true, dead: dead}
	if last {
		tg.x, tg.seen, tg.lockBlocked = cp.x, cp.seen, cp.lockBlocked
	} else {
		tg.x = cp.x.ForkDriven(tg.takeDead())
		tg.seen = append([]int(nil), cp.seen...)
		tg.lockBlocked = append([]lockBlock(nil), cp.lockBlocked...)
	}
	tg.fresh = trust.InitRef
	if f, ok := ex.Fresh(); ok {
		tg.fresh = f
	}
	tg.x.SetGraphDriver(tg)
	return tg.x, tg
}

// release hands x back for reuse (by NewExecution, or if it is a copy, by
// the next copy) once the caller is done with it.
func (tg *trustGlue) release() {
	switch {
	case !tg.shared:
		tg.x.Release()
	case tg.forked && tg.dead != nil:
		*tg.dead = append(*tg.dead, tg.x)
	}
}

// takeDead returns a dead copy whose storage a new copy may reuse (nil:
// none).
func (tg *trustGlue) takeDead() *interp.Execution {
	if tg.dead == nil {
		return nil
	}
	d := *tg.dead
	if len(d) == 0 {
		return nil
	}
	x := d[len(d)-1]
	d[len(d)-1] = nil
	*tg.dead = d[:len(d)-1]
	return x
}

// mayBranch reports whether the access in may have other reads-from or
// coherence choices than the first (trust.Explorer.MayBranch; an address
// that does not evaluate is left to the step to report).
func (tg *trustGlue) mayBranch(t int32, fr *interp.Frame, in *ir.Instr) bool {
	if in.Addr == nil {
		return true
	}
	a, err := tg.x.Eval(fr, in.Addr)
	return err != nil || tg.ex.MayBranch(t, a)
}

// isAccess reports whether op adds an access whose reads-from or coherence
// choices the explorer may push as forward revisits.
func isAccess(op ir.Op) bool {
	switch op {
	case ir.ILoad, ir.IStore, ir.IRMW, ir.ICAS, ir.ILock, ir.ITryLock, ir.IUnlock:
		return true
	}
	return false
}

// lockBlock is a thread blocked on a mutex (trustGlue.lock).
type lockBlock struct {
	t     int32
	mutex int64
	pos   ir.Pos
}

// Supported reports why prog cannot be explored by the trust explorer
// ("" if it can): condition variables, trylock and atomic blocks keep
// their operational semantics in the interpreter, which the explorer does
// not model (a trylock as a compare-and-swap may fail on a mutex freed
// meanwhile), and nondet choices are not events of its graphs. Assumes
// (await, __VERIFIER_assume, spin loops, abort) are supported: a failed one
// blocks its thread, the other threads run on, and later writes may still
// revisit the blocked thread's reads (TestTrustSzymanski,
// TestTrustAssumeDifferential). Mutexes are supported as GenMC models them
// (trustGlue.lock; TestTrustMutexDifferential).
func Supported(prog *ir.Program) string {
	for _, f := range prog.Funcs {
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.ITryLock, ir.IWait, ir.ISignal, ir.IBroadcast, ir.IAtomicBegin, ir.INondet, ir.IFree:
				return f.Body[i].Op.String()
			}
		}
	}
	return ""
}

func (tg *trustGlue) Begin() { tg.added = tg.added[:0] }

// filter schedules, while the graph has events left to replay, the
// enabled thread whose next event was added first (so that, as when the
// events were added, a thread runs only after what it depends on: a heap
// block is allocated before another thread uses the pointer it read), else
// the lowest enabled thread.
func (tg *trustGlue) Filter(en []interp.Action) []interp.Action {
	x := tg.x
	best, bestStamp := -1, int32(0)
	for i, a := range en {
		if n := len(x.G.Threads[a.T]); !a.Flush && n < tg.ex.Len(a.T) {
			if st := tg.ex.Event(a.T, n).Stamp; best < 0 || st < bestStamp {
				best, bestStamp = i, st
			}
		}
	}
	if best >= 0 {
		return en[best : best+1]
	}
	for i, a := range en {
		if a.Flush || !tg.waits(a.T) {
			return en[i : i+1]
		}
	}
	if len(en) > 1 {
		return en[:1] // only waiting threads: see run
	}
	return en
}

// waits reports whether thread n, which has no events left to replay, is
// at a lock of a mutex that is held in the current graph: it waits (is not
// scheduled while another thread can move) until an unlock frees the
// mutex, and its lock then takes the mutex. A backward revisit that would
// make a lock read a held mutex deletes the lock instead, and its thread
// waits (trust.Explorer's tryRevisit). So a lock reads a held mutex and
// blocks only when nothing else can move (run), at the end of an execution
// that is a deadlock or blocked: the executions in which a lock read a
// held mutex and the others ran on until an unlock revisited it are not
// explored (lockinc with 5 threads: 120 executions instead of 1305, the
// 120 complete ones; TestTrustLockPrograms).
//
// Likewise a thread whose next step is the load of a barrier's wait (a
// spin-assume right after the load, awaitCond) that the coherence-latest
// write would fail waits while another thread can move: a load that runs
// early, reads that write and blocks would only end a blocked execution
// (and be revisited by the write it awaits); run later, once the round is
// complete, it reads the completion at once (no blocked execution per
// waiter and round; TestBarrierExecutions in frontend/c).
func (tg *trustGlue) waits(n int32) bool {
	in, fr := tg.x.NextInstr(n)
	if in == nil {
		return false
	}
	switch in.Op {
	case ir.ILock:
		a, err := tg.x.Eval(fr, in.Addr)
		return err == nil && tg.ex.Latest(a) != 0
	case ir.ILoad:
		cond := awaitCond(tg.x, fr, in)
		if cond == nil {
			return false
		}
		a, err := tg.x.Eval(fr, in.Addr)
		return err == nil && !cond(tg.ex.Latest(a))
	}
	return false
}

// awaitCond returns, for a load that the frame's next instruction checks
// with a barrier's spin-assume (ir.AssumeBarrier: the wait of
// pthread_barrier_wait), whether a value of the load satisfies it; nil for
// any other load. The assume's condition is evaluated with the load's
// destination set to the value (and restored): it is side-effect free.
//
// Only barrier waits: their cell is accessed atomically only, so the
// blocked graphs left out (trust.Explorer.AddAwaitRead) hold no data race
// that the others do not. An await on a cell that non-atomic accesses
// also touch may race only in the graph where it reads an older value and
// blocks (a race of a read with the write it reads from does not count),
// so those graphs must be explored.
func awaitCond(x *interp.Execution, fr *interp.Frame, in *ir.Instr) func(int64) bool {
	body, pc := fr.Fn().Body, fr.PC()
	if pc+1 >= len(body) || in.Dst < 0 {
		return nil
	}
	next := &body[pc+1]
	if next.Op != ir.IAssume || next.Assume != ir.AssumeBarrier || next.A == nil {
		return nil
	}
	return func(v int64) bool {
		locals := fr.Locals()
		old := locals[in.Dst]
		locals[in.Dst] = v
		c, err := x.Eval(fr, next.A)
		locals[in.Dst] = old
		return err != nil || c != 0 // an error is the step's to report
	}
}

// run drives x to its end, scheduling as filter does without building the
// list of enabled actions.
func (tg *trustGlue) run() {
	x := tg.x
	x.CheckEnd()
	for !x.Finished() {
		best, bestStamp, first, firstWait := int32(-1), int32(0), int32(-1), int32(-1)
		for _, n := range x.Threads() {
			if !x.IsEnabled(x.Thread(n)) {
				continue
			}
			k := len(x.G.Threads[n])
			if first < 0 && k >= tg.ex.Len(n) {
				if !tg.waits(n) {
					first = n
				} else if firstWait < 0 {
					firstWait = n
				}
			}
			if k < tg.ex.Len(n) {
				if st := tg.ex.Event(n, k).Stamp; best < 0 || st < bestStamp {
					best, bestStamp = n, st
				}
			}
		}
		if best < 0 {
			best = first
			if best < 0 {
				// only threads waiting for held mutexes can move: their
				// locks read the held mutexes and block, so that the
				// explorer tries their other choices (taking the mutex
				// from a write another lock took, which makes that lock
				// wait); then the execution ends, a deadlock or blocked
				best = firstWait
			}
			if best < 0 {
				return // checkEnd finished the execution
			}
			if tg.checkpoints {
				if in, fr := x.NextInstr(best); in != nil && isAccess(in.Op) && tg.mayBranch(best, fr, in) {
					if cp := tg.checkpoint(); cp != nil {
						tg.ex.SetCheckpoint(cp)
						x.Step(interp.Action{T: best})
						tg.ex.SetCheckpoint(nil)
						continue
					}
				}
			}
		}
		x.Step(interp.Action{T: best})
	}
}

func (tg *trustGlue) replaying(t int32, i int32) bool { return int(i) < tg.ex.Len(t) }

func (tg *trustGlue) fail(msg string) {
	if tg.err == nil {
		tg.err = fmt.Errorf("internal error: trust explorer: %s", msg)
	}
	tg.x.Prune()
}

// setCell makes loc's memory cell hold the value of its coherence-latest write.
func (tg *trustGlue) setCell(c *int64, loc int64) {
	g := tg.ex.Graph()
	co := g.CO(loc)
	if len(co) == 0 {
		*c = tg.x.G.InitVal[loc]
		return
	}
	*c = g.Label(co[len(co)-1]).WVal
}

// access runs a load, store, RMW or CAS.
func (tg *trustGlue) Access(t *interp.Thread, fr *interp.Frame, in *ir.Instr, addr int64, c *int64) bool {
	x := tg.x
	g := x.G
	pos := in.Pos
	col := x.Collecting()
	loc := ""
	if col {
		loc = x.Names().LocName(addr)
	}
	switch in.Op {
	case ir.ILock, ir.ITryLock:
		tg.lock(t, fr, in, addr, c)
	case ir.IUnlock:
		tg.unlock(t, in, addr, c)
	case ir.ILoad:
		id := x.AddEvent(t, seg.Event{Kind: seg.KRead, Loc: addr, Order: in.Order, Pos: pos})
		e := g.Event(id)
		var lab trust.Label
		if tg.replaying(id.T, id.I) {
			lab = *tg.ex.Event(id.T, int(id.I))
			if lab.Kind != trust.Read || lab.Loc != addr {
				tg.fail(fmt.Sprintf("replay of %v: the graph has another event", id))
				return true
			}
		} else {
			var ok bool
			if cond := awaitCond(x, fr, in); cond != nil {
				lab, ok = tg.ex.AddAwaitRead(id.T, addr, tg.ord(in.Order), cond)
			} else {
				lab, ok = tg.ex.AddRead(id.T, addr, tg.ord(in.Order), nil)
			}
			if !ok {
				x.Prune()
				return true
			}
			tg.added = append(tg.added, id)
		}
		e.RVal = lab.RVal
		fr.Locals()[in.Dst] = e.RVal
		if col {
			x.NoteAt(t, pos, fmt.Sprintf("reads %s = %s", loc, x.FormatValue(t, e.RVal, interp.LocalType(fr, in.Dst))))
		}
	case ir.IStore:
		v, err := x.Eval(fr, in.A)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return true
		}
		id := g.AppendNoMO(seg.Event{ID: seg.EventID{T: t.Num()}, Kind: seg.KWrite, Loc: addr, WVal: v, Order: in.Order, Pos: pos})
		if tg.replaying(id.T, id.I) {
			if l := tg.ex.Event(id.T, int(id.I)); l.Kind != trust.Write || l.Loc != addr || l.WVal != v {
				tg.fail(fmt.Sprintf("replay of %v: the graph has another event", id))
				return true
			}
		} else {
			if !tg.ex.AddWrite(id.T, addr, tg.ord(in.Order), v) {
				x.Prune()
				return true
			}
			tg.added = append(tg.added, id)
		}
		tg.setCell(c, addr)
		if col {
			x.NoteAt(t, pos, fmt.Sprintf("writes %s = %s", loc, x.FormatValue(t, v, in.A.Type)))
		}
	case ir.IRMW, ir.ICAS:
		var arg, des int64
		var err *interp.RuntimeError
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
		id := x.AddEvent(t, seg.Event{Kind: seg.KRead, Loc: addr, Order: in.Order, Pos: pos})
		e := g.Event(id)
		var lab trust.Label
		if tg.replaying(id.T, id.I) {
			lab = *tg.ex.Event(id.T, int(id.I))
			if lab.Excl == nil || lab.Loc != addr {
				tg.fail(fmt.Sprintf("replay of %v: the graph has another event", id))
				return true
			}
		} else {
			var ok bool
			lab, ok = tg.ex.AddRead(id.T, addr, tg.ord(in.Order), &trust.Excl{CAS: in.Op == ir.ICAS, Expected: arg, FailOrder: tg.ord(in.FailOrder), Order: tg.ord(in.Order)})
			if !ok {
				x.Prune()
				return true
			}
			tg.added = append(tg.added, id)
		}
		old := lab.RVal
		e.RVal = old
		if lab.Kind == trust.RMW {
			e.Kind, e.Order = seg.KRMW, in.Order
			if in.Op == ir.ICAS {
				e.WVal = des
			} else {
				e.WVal = in.RMWResult(old, arg)
			}
			if !lab.HasW {
				if !tg.ex.CompleteRMW(id.T, int(id.I), e.WVal) {
					x.Prune()
					return true
				}
			} else if lab.WVal != e.WVal {
				tg.fail(fmt.Sprintf("replay of %v: the RMW writes another value", id))
				return true
			}
			tg.setCell(c, addr)
		} else {
			e.Kind, e.Order = seg.KRead, in.FailOrder
		}
		if in.Dst >= 0 {
			fr.Locals()[in.Dst] = old
		}
		if in.Dst2 >= 0 {
			fr.Locals()[in.Dst2] = b2i(e.Kind == seg.KRMW)
		}
		switch {
		case !col:
		case in.Op == ir.IRMW:
			x.NoteAt(t, pos, fmt.Sprintf("%s on %s: %s -> %s", in.RMW, loc, interp.FormatNumber(old, in.A.Type), interp.FormatNumber(e.WVal, in.A.Type)))
		case e.Kind == seg.KRMW:
			x.NoteAt(t, pos, fmt.Sprintf("cas on %s succeeds: %s -> %s", loc, interp.FormatNumber(old, in.B.Type), interp.FormatNumber(des, in.B.Type)))
		default:
			x.NoteAt(t, pos, fmt.Sprintf("cas on %s fails: reads %s, expected %s", loc, interp.FormatNumber(old, in.A.Type), interp.FormatNumber(arg, in.A.Type)))
		}
	default:
		return false
	}
	return true
}

// lock runs a lock or trylock as GenMC models it: a compare-and-swap of
// the mutex from 0 (free) to the thread's handle with acquire order, which
// the explorer treats as any other (a lock that takes the unlock another
// lock read makes that lock wait, trust.Explorer's tryRevisit). A lock
// runs while its mutex is held only when no other thread can move (run,
// waits): its compare-and-swap fails and blocks its thread, and if the
// mutex is still held when the execution ends the thread takes part in a
// deadlock (deadlocks). A trylock that fails returns 0.
func (tg *trustGlue) lock(t *interp.Thread, fr *interp.Frame, in *ir.Instr, addr int64, c *int64) {
	x := tg.x
	pos := in.Pos
	h := x.Handle(t.Num())
	id := x.AddEvent(t, seg.Event{Kind: seg.KLock, Loc: addr, Order: ir.OrderAcq, Pos: pos})
	e := x.G.Event(id)
	var lab trust.Label
	if tg.replaying(id.T, id.I) {
		lab = *tg.ex.Event(id.T, int(id.I))
		if lab.Excl == nil || lab.Loc != addr {
			tg.fail(fmt.Sprintf("replay of %v: the graph has another event", id))
			return
		}
	} else {
		var ok bool
		lab, ok = tg.ex.AddRead(id.T, addr, tg.ord(ir.OrderAcq), &trust.Excl{CAS: true, Lock: true, Expected: 0, FailOrder: tg.ord(ir.OrderAcq), Order: tg.ord(ir.OrderAcq)})
		if !ok {
			x.Prune()
			return
		}
		tg.added = append(tg.added, id)
	}
	e.RVal = lab.RVal
	name := x.Names().LocName(addr)
	if lab.Kind == trust.RMW {
		e.WVal = h
		if !lab.HasW {
			if !tg.ex.CompleteRMW(id.T, int(id.I), h) {
				x.Prune()
				return
			}
		} else if lab.WVal != h {
			tg.fail(fmt.Sprintf("replay of %v: the lock writes another value", id))
			return
		}
		*c = h
		if in.Op == ir.ITryLock {
			fr.Locals()[in.Dst] = 1
		}
		if x.Collecting() {
			x.NoteAt(t, pos, "locks "+name)
		}
		return
	}
	e.Kind = seg.KRead
	if lab.RVal == interp.DestroyedMutex {
		// the lock reads the store of pthread_mutex_destroy
		x.RuntimeError(t, pos, interp.DestroyedMutexError(in.Op, name))
		return
	}
	if in.Op == ir.ITryLock {
		fr.Locals()[in.Dst] = 0
		if x.Collecting() {
			x.NoteAt(t, pos, "trylock "+name+" fails (held)")
		}
		return
	}
	tg.lockBlocked = append(tg.lockBlocked, lockBlock{t: t.Num(), mutex: addr, pos: pos})
	x.Block(t, "lock of "+name+" reads a held mutex: the thread waits", pos)
}

// unlock runs an unlock: a release store of 0 to the mutex, which the
// thread must hold.
func (tg *trustGlue) unlock(t *interp.Thread, in *ir.Instr, addr int64, c *int64) {
	x := tg.x
	pos := in.Pos
	name := x.Names().LocName(addr)
	if *c != x.Handle(t.Num()) {
		x.RuntimeError(t, pos, interp.NewRuntimeError("unlock of mutex "+name+" not held by this thread"))
		return
	}
	id := x.AddEvent(t, seg.Event{Kind: seg.KUnlock, Loc: addr, WVal: 0, Order: ir.OrderRel, Pos: pos})
	if tg.replaying(id.T, id.I) {
		if l := tg.ex.Event(id.T, int(id.I)); l.Kind != trust.Write || l.Loc != addr || l.WVal != 0 {
			tg.fail(fmt.Sprintf("replay of %v: the graph has another event", id))
			return
		}
	} else {
		if !tg.ex.AddUnlock(id.T, addr, tg.ord(ir.OrderRel), 0) {
			x.Prune()
			return
		}
		tg.added = append(tg.added, id)
	}
	*c = 0
	if x.Collecting() {
		x.NoteAt(t, pos, "unlocks "+name)
	}
}

// deadlocks classifies an execution that ended with threads blocked by
// locks (trustGlue.lock): if one of their mutexes is free at the end, an
// unlock revisits that lock in another graph, and this one is discarded
// as blocked; else, unless a thread is blocked by an assume, every live
// thread is done or stuck, and the execution is a deadlock, reported as
// the interpreter reports one (the stuck threads in thread order).
func (tg *trustGlue) deadlocks() {
	x := tg.x
	if len(tg.lockBlocked) == 0 || x.Pruned() || x.HasViolation() || x.BoundHit() != "" {
		return
	}
	waits := map[int32]lockBlock{}
	for _, b := range tg.lockBlocked {
		if v, ok := x.Peek(b.mutex); !ok || v == 0 {
			return
		}
		waits[b.t] = b
	}
	var stuck []string
	for _, n := range x.Threads() {
		t := x.Thread(n)
		where := func(p ir.Pos) string {
			if p.IsValid() {
				return fmt.Sprintf(" (line %d)", p.Line)
			}
			return ""
		}
		waitsFor := func(m int64, p ir.Pos) string {
			owner := ""
			if v, ok := x.Peek(m); ok && v != 0 {
				if o := x.ThreadByHandle(v); o != nil {
					owner = " held by t" + o.Name()
				}
			}
			return fmt.Sprintf("t%s waits for %s%s%s", t.Name(), x.Names().LocName(m), owner, where(p))
		}
		switch t.Status() {
		case interp.Blocked:
			b, ok := waits[n]
			if !ok {
				return // a failed assume: discarded
			}
			stuck = append(stuck, waitsFor(b.mutex, b.pos))
		case interp.Runnable:
			in, fr := x.NextInstr(n)
			if in == nil {
				stuck = append(stuck, "t"+t.Name()+" is stuck")
				continue
			}
			switch in.Op {
			case ir.ILock:
				m, _ := x.Eval(fr, in.Addr)
				stuck = append(stuck, waitsFor(m, in.Pos))
			case ir.IJoin:
				h, _ := x.Eval(fr, in.A)
				name := "?"
				if o := x.ThreadByHandle(h); o != nil {
					name = o.Name()
				}
				stuck = append(stuck, fmt.Sprintf("t%s waits to join t%s%s", t.Name(), name, where(in.Pos)))
			default:
				stuck = append(stuck, "t"+t.Name()+" is stuck"+where(in.Pos))
			}
		}
	}
	if len(stuck) > 0 {
		msg := "deadlock: " + strings.Join(stuck, "; ")
		x.ReportViolation("deadlock", msg, ir.Pos{})
	}
}

// end accounts for the events the step added besides accesses (fences,
// spawns, joins, thread ends …) and looks for data races of the new
// accesses.
func (tg *trustGlue) End(tn int32) {
	x := tg.x
	if x.Pruned() || !tg.sync(tn) {
		return
	}
	if x.Config().Races == interp.RacesRecord {
		tg.added = tg.added[:0]
		return // finish lists the races of the whole graph
	}
	tg.pending = append(tg.pending, tg.added...)
	tg.added = tg.added[:0]
	if len(tg.pending) == 0 {
		return
	}
	for t, th := range x.G.Threads {
		if len(th) < tg.ex.Len(int32(t)) {
			return // replaying: the other events of races may not be in x.G yet
		}
	}
	pending := tg.pending
	tg.pending = tg.pending[:0]
	for _, id := range pending {
		for _, b := range tg.ex.Races(trust.Ref(id)) {
			if tg.race(id, seg.EventID(b)) {
				return
			}
		}
	}
}

// sync accounts for the events thread ti added in this step (and those of
// the threads it spawned): a step adds events only to its own thread and
// to the threads it creates. It returns false if the execution was pruned.
func (tg *trustGlue) sync(ti int32) bool {
	x := tg.x
	for len(tg.seen) <= int(ti) {
		tg.seen = append(tg.seen, 0)
	}
	th := x.G.Threads[ti]
	for i := tg.seen[ti]; i < len(th); i++ {
		id := seg.EventID{T: ti, I: int32(i)}
		if id == seg.EventID(tg.fresh) && !tg.fresh.IsInit() {
			tg.added = append(tg.added, id)
		}
		e := &th[i]
		if tg.replaying(id.T, id.I) {
			if e.Kind == seg.KSpawn && !tg.sync(e.Other) {
				return false
			}
			continue
		}
		var ok bool
		switch e.Kind {
		case seg.KFence:
			ok = tg.ex.AddOther(id.T, trust.Fence, tg.ord(e.Order), 0, uint8(e.Kind))
		case seg.KSpawn:
			ok = tg.ex.AddOther(id.T, trust.Spawn, 0, e.Other, uint8(e.Kind))
		case seg.KJoin:
			ok = tg.ex.AddOther(id.T, trust.Join, 0, e.Other, uint8(e.Kind))
		case seg.KThreadEnd:
			ok = tg.ex.AddOther(id.T, trust.End, 0, 0, uint8(e.Kind))
		case seg.KRead, seg.KWrite, seg.KRMW, seg.KLock, seg.KUnlock:
			tg.fail(fmt.Sprintf("access %v outside the access hook", id))
			return false
		default:
			ok = tg.ex.AddOther(id.T, trust.Other, 0, 0, uint8(e.Kind))
		}
		if !ok {
			x.Prune()
			return false
		}
		if e.Kind == seg.KSpawn {
			if c := x.G.Threads[e.Other]; len(c) == 0 && cap(c) == 0 {
				// room for the events the graph already has
				x.G.Threads[e.Other] = make([]seg.Event, 0, tg.ex.Len(e.Other)+4)
			}
			if !tg.sync(e.Other) {
				return false
			}
		}
	}
	tg.seen[ti] = len(th)
	return true
}

// race records or reports the data race of events id and b; true if it
// ended the execution.
func (tg *trustGlue) race(id, b seg.EventID) bool {
	x := tg.x
	{
		a, bb := id, b
		if bb.T < a.T || (bb.T == a.T && bb.I < a.I) {
			a, bb = bb, a
		}
		ea, eb := x.G.Event(a), x.G.Event(bb)
		rc := interp.Race{A: a, B: bb, Loc: ea.Loc, Msg: race.Msg(x.G, tg.model, ea, eb)}
		if x.Config().Races == interp.RacesRecord {
			x.RecordRace(rc)
			return false
		}
		// the other threads run on (as after an assertion failure, see
		// runTrust): their later writes may revisit earlier reads
		x.ReportViolation("data-race", rc.Msg, x.G.Event(id).Pos)
		return true
	}
}

// finish, when races are recorded, lists the data races of the whole
// graph (a graph restored from the worklist replays events whose races an
// earlier execution found) and, if graph is set, gives x.G the reads-from
// and coherence of the explored graph (finishGraph).
func (tg *trustGlue) finish(graph bool) {
	x := tg.x
	g := tg.ex.Graph()
	if x.Config().Races == interp.RacesRecord && !tg.x.Pruned() {
		x.ClearRaces()
		for t := range x.G.Threads {
			for i := range x.G.Threads[t] {
				id := seg.EventID{T: int32(t), I: int32(i)}
				if int(id.I) >= g.Len(id.T) {
					break
				}
				for _, b := range tg.ex.Races(trust.Ref(id)) {
					if b.T > id.T && x.G.Event(seg.EventID(b)) != nil {
						tg.race(id, seg.EventID(b))
					}
				}
			}
		}
	}
	if graph {
		tg.finishGraph()
	}
}

// finishGraph gives x.G the reads-from and coherence of the explored graph.
func (tg *trustGlue) finishGraph() {
	x := tg.x
	g := tg.ex.Graph()
	for t := range x.G.Threads {
		if t >= g.Threads() {
			break
		}
		for i := range x.G.Threads[t] {
			if i >= g.Len(int32(t)) {
				break
			}
			e := &x.G.Threads[t][i]
			if l := g.Label(trust.Ref{T: int32(t), I: int32(i)}); e.Kind.IsRead() && (l.Kind == trust.Read || l.Kind == trust.RMW) {
				e.RF = seg.EventID(l.RF)
				if l.RF.IsInit() {
					e.RF = seg.Init
				}
			}
		}
	}
	// one backing array for the coherence orders of all locations
	n, locs := 0, 0
	g.Locs(func(loc int64, co []trust.Ref) {
		if len(co) > 0 {
			n += len(co)
			locs++
		}
	})
	x.G.MO = make(map[int64][]seg.EventID, locs)
	all := make([]seg.EventID, n)
	g.Locs(func(loc int64, co []trust.Ref) {
		if len(co) == 0 {
			return
		}
		mo := all[:len(co):len(co)]
		all = all[len(co):]
		for i, w := range co {
			mo[i] = seg.EventID(w)
		}
		x.G.MO[loc] = mo
	})
}

// trustModel is the explorer's model for ra, rc11, tso and sc: sc is rc11
// with every access and fence seq_cst (trustGlue.ord), which is SC (RC11
// makes programs whose accesses are all seq_cst sequentially consistent).
func trustModel(model string) trust.Model {
	switch model {
	case "ra":
		return trust.RA
	case "tso":
		return trust.TSO
	}
	return trust.RC11
}

// Models reports whether the trust explorer implements the memory model
// called name: ra, rc11, tso and sc (trustModel). Any other model, even one
// explored only by graph search, goes to the graph explorer, which
// evaluates the model's own axioms.
func Models(name string) bool {
	return name == "ra" || name == "rc11" || name == "tso" || name == "sc"
}

// ord is the memory order the explorer sees for an access or fence of
// order o: seq_cst under sc, o otherwise.
func (tg *trustGlue) ord(o ir.Order) ir.Order {
	if tg.model == "sc" {
		return ir.OrderSC
	}
	return o
}

// runTrust explores prog's consistent graphs under model (ra or rc11),
// calling visit with every execution that ended and was not pruned, and
// save, when visit asks for it, the graph to replay as a counterexample.
// It stops when visit returns false or ctx ends (the reason is returned).
// The executions visit gets have the reads-from and coherence of their
// graphs in x.G if graphs is nil or returns true (else only their events).
func runTrust(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, model string,
	visit func(x *interp.Execution) bool, progress func(pending int), graphs func() bool) (stopped string, st trust.Stats, err error) {
	return runTrustCk(ctx, prog, names, cfg, model, visit, progress, graphs, true)
}

// runTrustCk is runTrust, with checkpoints or without.
func runTrustCk(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, model string,
	visit func(x *interp.Execution) bool, progress func(pending int), graphs func() bool, checkpoints bool) (stopped string, st trust.Stats, err error) {
	r := newTrustRunner(prog, names, cfg, model, nil)
	r.noCheckpoints = !checkpoints
	for {
		x, err := r.next(ctx, graphs)
		if e := ctx.Err(); e != nil && err == nil && x == nil {
			return "cancelled: " + e.Error(), r.ex.Stats, nil
		}
		if err != nil || x == nil {
			return "", r.ex.Stats, err
		}
		if !visit(x) {
			return "stopped by the caller", r.ex.Stats, nil
		}
		if progress != nil {
			progress(r.ex.Pending())
		}
	}
}

// trustRunner runs the program on the graphs of one explorer.
type trustRunner struct {
	prog  *ir.Program
	names *interp.Names
	cfg   interp.Config
	model string
	ex    *trust.Explorer
	// init: the initial values of the execution running, or of the last
	// one (a map that no other execution writes, see interp's reuse)
	init map[int64]int64
	dead []*interp.Execution
	// noCheckpoints: every graph runs from the start
	noCheckpoints bool
}

// newTrustRunner returns a runner of ex (nil: a new exploration) whose
// initial values come from its current execution.
func newTrustRunner(prog *ir.Program, names *interp.Names, cfg interp.Config, model string, ex *trust.Explorer) *trustRunner {
	// after a violation the other threads run on: the writes they add
	// backward-revisit the reads before the violation, whose other
	// graphs may not violate (TruSt explores a graph's alternatives only
	// through the events added after it)
	cfg.ContinueAfterViolation = true
	r := &trustRunner{prog: prog, names: names, cfg: cfg, model: model}
	if ex == nil {
		ex = trust.New(trustModel(model), r.initVal)
	}
	r.ex = ex
	return r
}

func (r *trustRunner) initVal(loc int64) int64 { return r.init[loc] }

// next runs the program on the explorer's next graphs until an execution
// ends without being pruned and returns it (nil when the exploration is
// complete or ctx ends); its graph's reads-from and coherence are in x.G
// if graphs is nil or returns true. The caller hands the execution back
// (release) when it is done with it.
func (r *trustRunner) next(ctx context.Context, graphs func() bool) (*interp.Execution, error) {
	ex := r.ex
	for ctx.Err() == nil && ex.Next() {
		var x *interp.Execution
		var tg *trustGlue
		if cp, last := ex.Resume(); cp != nil {
			x, tg = resumeTrust(cp.(*trustCheckpoint), last, ex, r.model, &r.dead)
		} else {
			x, tg = newTrustExecution(r.prog, r.names, r.cfg, ex, r.model, false)
			tg.checkpoints, tg.dead = !r.noCheckpoints, &r.dead
		}
		r.init = x.G.InitVal
		tg.run()
		if tg.err != nil {
			return nil, tg.err
		}
		tg.deadlocks()
		tg.finish(graphs == nil || graphs())
		if x.Pruned() {
			tg.release()
			continue
		}
		return x, nil
	}
	return nil, nil
}

func newTrustExecution(prog *ir.Program, names *interp.Names, cfg interp.Config, ex *trust.Explorer, model string, trace bool) (*interp.Execution, *trustGlue) {
	x := interp.NewExecution(prog, names, cfg, nil, trace)
	if len(x.G.Threads) > 0 && len(x.G.Threads[0]) == 0 && cap(x.G.Threads[0]) < ex.Len(0)+4 {
		x.G.Threads[0] = make([]seg.Event, 0, ex.Len(0)+4)
	}
	if g := ex.Graph(); g != nil {
		n := 16
		for t := 0; t < g.Threads(); t++ {
			n += g.Len(int32(t))
		}
		if cap(x.Log) < n {
			x.Log = make([]interp.StepInfo, 0, n) // about one step per event
		}
	}
	tg := &trustGlue{x: x, ex: ex, model: model}
	tg.fresh = trust.InitRef
	if f, ok := ex.Fresh(); ok {
		tg.fresh = f
	}
	x.SetGraphDriver(tg)
	x.SetLocksRun()
	return x, tg
}

// exploreTrust is the trust exploration of t (ra, rc11, and sc as rc11
// with every access seq_cst).
func exploreTrust(ctx context.Context, t *explore.Task) error {
	prog, names, opts := t.Prog, t.Names, t.Opts
	if err := graph.CheckProgram(prog); err != nil {
		return err
	}
	var err error
	cfg := t.Config()
	if opts.Model == "sc" || opts.Model == "tso" {
		cfg.Axiomatic = seg.LookupModel(opts.Model) // graph exploration, driven by trust
	}
	var cex *trust.Snapshot
	stopKind := ""
	visit := func(x *interp.Execution) bool {
		defer x.GraphDriver().(*trustGlue).release() // the collector keeps nothing of x (keepGraph)
		if opts.MaxExecutions > 0 && t.Stats().Executions >= opts.MaxExecutions {
			stopKind = "executions"
			return false
		}
		if t.Add(x) && cex == nil {
			cex = x.GraphDriver().(*trustGlue).ex.Save()
			if !opts.KeepGoing {
				return false
			}
		}
		return true
	}
	// the collector looks at a graph's reads-from and coherence for the
	// first complete execution (Result.Graph when there is no
	// counterexample) and for classes only
	graphs := func() bool { return opts.Classes || !t.HasFirstGraph() }
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var stopped string
	if workers == 1 {
		stopped, _, err = runTrustCk(ctx, prog, names, cfg, opts.Model, visit, func(p int) { t.Progress(p) }, graphs, !opts.NoCheckpoints)
	} else {
		consume := func(r trustResult) bool {
			if opts.MaxExecutions > 0 && t.Stats().Executions >= opts.MaxExecutions {
				stopKind = "executions"
				return false
			}
			s := r.s.(*explore.Summary)
			if t.AddSummary(s, r.g) && cex == nil {
				cex = r.cex
				if !opts.KeepGoing {
					return false
				}
			}
			t.AddFolded(s, r.more) // executions with s's key (Summary.FoldKey)
			return true
		}
		// executions the collector counts the same wherever they come
		// (Summary.FoldKey) fold into one result (not with an execution
		// bound, which may stop between them, nor with classes)
		o := trustParOpts{workers: workers, summarize: func(x *interp.Execution) (any, bool, bool) {
			s := t.Summarize(x)
			return s, s.Violation() != "", s.PlainComplete()
		}, firstViolation: !opts.KeepGoing, keepGraphs: opts.Classes, consume: consume, progress: func(p int) { t.Progress(p) }}
		if opts.MaxExecutions == 0 && !opts.Classes {
			o.key = func(s any) (any, bool) { return s.(*explore.Summary).FoldKey() }
			o.merge = func(prev, cur any) bool { return prev.(*explore.Summary).Fold(cur.(*explore.Summary)) }
		}
		stopped, _, err = runTrustParallel(ctx, prog, names, cfg, opts.Model, o)
	}
	if err != nil {
		return err
	}
	switch {
	case stopKind == "executions":
		stopped = fmt.Sprintf("execution bound %d hit", opts.MaxExecutions)
	case strings.HasPrefix(stopped, "cancelled"):
		stopped, stopKind = explore.BudgetReason(ctx.Err(), opts), "time"
	case stopped == "stopped by the caller":
		stopped = "" // the first violation ends a run without --keep-going
	}
	if stopped != "" {
		t.Stop(stopped, stopKind)
	}
	t.Workers(workers)
	if cex != nil {
		var x *interp.Execution
		ex := trust.Replay(trustModel(opts.Model), cex, func(loc int64) int64 { return x.G.InitVal[loc] })
		ex.Next()
		var tg *trustGlue
		ccfg := cfg
		ccfg.ContinueAfterViolation = true // as runTrust explored it
		x, tg = newTrustExecution(prog, names, ccfg, ex, opts.Model, true)
		tg.run()
		tg.deadlocks()
		if tg.err == nil {
			tg.finish(true)
			story := x.Trace
			if x.ViolationTraceLen() > 0 && x.ViolationTraceLen() <= len(x.Trace) {
				story = x.Trace[:x.ViolationTraceLen()] // up to the violation
			}
			t.Counterexample(x, story)
		}
	}
	return nil
}

// useTrust reports whether Enumerate explores with the trust explorer:
// for the models trust implements (Models) and the programs it models,
// unless the reference explorer is asked for. Under ra and rc11 the
// interpreter runs the model's graphs itself (no Axiomatic); under sc and
// tso trust explores the graphs of the model's own axioms (not of another
// Axiomatic model a caller asks for), with incremental checks instead of
// the graph explorer's check of every prefix.
func useTrust(cfg interp.Config, explorer string, prog *ir.Program) bool {
	if !Models(cfg.Model.Name) || explorer == "reference" || Supported(prog) != "" {
		return false
	}
	if memmodel.ExecOf(cfg.Model) == memmodel.GraphOnly {
		return cfg.Axiomatic == nil
	}
	return cfg.Axiomatic != nil && cfg.Axiomatic == seg.LookupModel(cfg.Model.Name)
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Explorer is the TruSt-style graph explorer of ra and rc11
// (explore/trust): each consistent execution graph once, consistency
// checked incrementally per added event.
type Explorer struct{}

// Name is "trust".
func (Explorer) Name() string { return "trust" }

// Doc describes the explorer for help texts.
func (Explorer) Doc() string {
	return "ra, rc11 (and tso, and sc as rc11 with every access seq_cst, for cross-checks): TruSt-style graph exploration (forward and backward revisits, each consistent graph once, incremental consistency); programs with condition variables, trylock, atomic blocks or nondeterminism go to graph"
}

// Check rejects models other than ra, rc11, tso and sc and the programs whose
// constructs the explorer does not model (Supported).
func (e Explorer) Check(t *explore.Task) error {
	if !Models(t.Model.Name) {
		return explore.Unsupportedf(e, false, "the trust explorer supports the ra, rc11, tso and sc models, not %s", t.Model.Name)
	}
	if op := Supported(t.Prog); op != "" {
		return explore.Unsupportedf(e, true, "the trust explorer does not model %s", op)
	}
	return graph.CheckProgram(t.Prog)
}

// Explore runs the trust exploration of t.
func (Explorer) Explore(ctx context.Context, t *explore.Task) error { return exploreTrust(ctx, t) }
