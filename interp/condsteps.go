package interp

import (
	"fmt"
	"math/bits"

	"ncmc/ir"
	"ncmc/seg"
)

// Step-wise condition variables (ir.Program.CondSteps).
//
// By default a wait releases its mutex and joins the condition's list of
// waiters in one step, and a signal wakes a waiter in one step, through
// state of the interpreter that no read of memory shows. The value-based
// explorer (explore/vmcr) sees only memory: for it CondSteps makes the
// same operations a few steps on shared memory, with the same outcomes.
//
//   - The condition variable's cell holds its waiter set: bit n for thread
//     number n (stable names: the same thread has the same number in every
//     run of an exploration). Threads numbered ir.CondGates or more cannot
//     wait (a bound, not an error: the execution ends as unknown).
//   - A hidden mutex L (the condition lock) serialises the operations on
//     waiter sets, and each thread n has a gate G[n], a hidden mutex cell
//     that starts closed (ir.CondClosed).
//   - wait(c, m) by thread n: lock L (after checking that n holds m);
//     c |= 1<<n (a read-modify-write); unlock L; unlock m; acquire G[n]
//     (the wake-up: blocks until a signal opens the gate, a deadlock if
//     none ever does; acquiring leaves the gate closed again); lock m.
//   - signal(c): lock L; read c (none: the signal is lost); choose one
//     waiter w of the set (ChooseWaiter, an index into the waiters in
//     thread-number order); remove w from c (an RMW: under L it reads
//     what the read did); open G[w] (writes 0); unlock L. broadcast
//     clears c and opens every waiter's gate.
//
// The steps on L and the gates make no counterexample notes, and none of
// the steps makes happens-before edges for the race detector but the
// unlock and the lock of m, as before.
// An execution of the step-wise semantics equals one of the default one
// with the same reads and outcome: L is never held while a thread blocks,
// the waiter set changes only under L, and a signal between a waiter's
// join and its unlock of m commutes with the unlock (it does not touch m).

// The phases of a step-wise wait (Thread.condPhase).
const (
	condCheck  uint8 = iota // check that the mutex is held; lock L
	condJoin                // c |= bit
	condLeave               // unlock L
	condUnlock              // unlock m
	condWake                // acquire the gate
	condRelock              // lock m
)

// The phases of a step-wise signal or broadcast.
const (
	sigLock  uint8 = iota // lock L
	sigRead               // read the waiter set, choose
	sigWrite              // write the new waiter set
	sigOpen               // open the chosen gate (a broadcast: one per waiter)
	sigLeave              // unlock L
)

// CondSteps returns p with step-wise condition variables (the hidden
// condition lock and gates added, Program.CondSteps set), or p itself if
// it has no wait, signal or broadcast or has them step-wise already.
func CondSteps(p *ir.Program) *ir.Program {
	if p.CondSteps != nil || !HasConds(p) {
		return p
	}
	q := *p
	n := len(p.Globals)
	gates := make([]int64, ir.CondGates)
	for i := range gates {
		gates[i] = ir.CondClosed
	}
	q.Globals = append(append([]*ir.Global(nil), p.Globals...),
		&ir.Global{Name: "condition lock", Type: ir.Mutex, Block: n + 1, Init: []int64{0}, Hidden: true},
		&ir.Global{Name: "condition gates", Type: ir.ArrayOf(ir.Mutex, ir.CondGates), Block: n + 2, Init: gates, Hidden: true})
	q.CondSteps = &ir.CondSteps{Lock: n, Gates: n + 1}
	return &q
}

// HasConds reports whether p waits on, signals or broadcasts a condition
// variable anywhere.
func HasConds(p *ir.Program) bool {
	for _, f := range p.Funcs {
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.IWait, ir.ISignal, ir.IBroadcast:
				return true
			}
		}
	}
	return false
}

// condLockAddr and condGate are the addresses of L and of thread n's gate.
func (x *Execution) condLockAddr() int64 { return ir.MakePtr(x.prog.CondSteps.Lock+1, 0) }
func (x *Execution) condGate(n int32) int64 {
	return ir.MakePtr(x.prog.CondSteps.Gates+1, int(n))
}

// condPending returns the mutex cell (L, a gate, or the wait's mutex)
// whose acquisition is the next phase of t's step-wise wait, signal or
// broadcast in, and false if that phase acquires none.
func (x *Execution) condPending(t *Thread, in *ir.Instr) (int64, bool) {
	if in.Op != ir.IWait {
		return x.condLockAddr(), t.condPhase == sigLock
	}
	switch t.condPhase {
	case condCheck:
		return x.condLockAddr(), true
	case condWake:
		return x.condGate(t.num), true
	case condRelock:
		return t.waitMutex, true
	}
	return 0, false
}

// condEnabled reports whether t, at the step-wise wait, signal or
// broadcast in, can take its next phase: the mutex it acquires, if any,
// is free.
func (x *Execution) condEnabled(t *Thread, in *ir.Instr) bool {
	addr, ok := x.condPending(t, in)
	if !ok {
		return true
	}
	v, known := x.peek(addr)
	return !known || v == 0
}

// condStep runs the next phase of t's step-wise wait, signal or broadcast
// in (the condition variable at addr, its cell c) and reports whether the
// operation is complete.
func (x *Execution) condStep(t *Thread, fr *Frame, in *ir.Instr, addr int64, c *int64, pos ir.Pos) bool {
	if in.Op == ir.IWait {
		return x.condWait(t, fr, in, addr, c, pos)
	}
	loc := func() string { return x.names.LocName(addr) }
	switch t.condPhase {
	case sigLock:
		x.condAcquire(t, x.condLockAddr(), pos)
	case sigRead:
		v := *c
		x.event(t, seg.Event{Kind: seg.KRead, Loc: addr, RVal: v, Order: ir.OrderSC, RF: x.lastWrite(addr), Pos: pos})
		if v == 0 {
			x.noteAt(t, pos, in.Op.String()+" "+loc()+" (no waiter)")
			t.condPhase = sigLeave
			return false
		}
		if in.Op == ir.IBroadcast {
			t.condVal = v
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("broadcast %s wakes %d waiter(s)", loc(), bits.OnesCount64(uint64(v))))
			}
			break
		}
		k := x.choose(t, ChooseWaiter, bits.OnesCount64(uint64(v)))
		w := uint64(v)
		for ; k > 0; k-- {
			w &= w - 1 // drop the lowest waiter
		}
		t.condWho = int32(bits.TrailingZeros64(w))
		if x.collecting {
			x.noteAt(t, pos, fmt.Sprintf("signal %s wakes t%s", loc(), x.threads[t.condWho].name))
		}
	case sigWrite:
		// An RMW, not a store: under tso and pso it goes to memory at
		// once. Under L the set is the one read in sigRead.
		op := &RMWOp{Kind: ir.RMWXchg}
		if in.Op == ir.ISignal {
			op = &RMWOp{Kind: ir.RMWAnd, A: ^(int64(1) << t.condWho)}
		}
		x.condRMW(t, addr, c, op, pos)
	case sigOpen:
		w := t.condWho
		if in.Op == ir.IBroadcast {
			w = int32(bits.TrailingZeros64(uint64(t.condVal)))
			t.condVal &^= 1 << w
		}
		x.condRelease(t, x.condGate(w), pos)
		if t.condVal != 0 {
			return false // a broadcast: the next waiter's gate
		}
	case sigLeave:
		x.condRelease(t, x.condLockAddr(), pos)
		t.condPhase, t.condWho, t.condVal = 0, 0, 0
		return true
	}
	t.condPhase++
	return false
}

// condWait runs the next phase of t's step-wise wait in (see condStep).
func (x *Execution) condWait(t *Thread, fr *Frame, in *ir.Instr, addr int64, c *int64, pos ir.Pos) bool {
	switch t.condPhase {
	case condCheck:
		maddr, err := x.Eval(fr, in.B)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return false
		}
		mc, err := x.cell(maddr)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return false
		}
		if *mc != x.Handle(t.num) {
			x.RuntimeError(t, pos, &RuntimeError{msg: "wait on " + x.names.LocName(addr) + " without holding mutex " + x.names.LocName(maddr)})
			return false
		}
		if t.num >= ir.CondGates {
			x.setBound(fmt.Sprintf("thread t%s waits on a condition variable: only threads numbered below %d can (step-wise condition variables)", t.name, ir.CondGates))
			x.finished = true
			return false
		}
		t.waitMutex, t.waitCond = maddr, addr
		x.condAcquire(t, x.condLockAddr(), pos)
	case condJoin:
		x.condRMW(t, addr, c, &RMWOp{Kind: ir.RMWOr, A: int64(1) << t.num}, pos)
	case condLeave:
		x.condRelease(t, x.condLockAddr(), pos)
	case condUnlock, condRelock:
		mc, err := x.cell(t.waitMutex)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return false
		}
		if t.condPhase == condUnlock {
			x.unlock(t, t.waitMutex, mc, pos, "")
			x.noteAt(t, pos, "waits on "+x.names.LocName(addr))
			break
		}
		x.lock(t, t.waitMutex, mc, pos, "")
		t.condPhase = 0
		return true
	case condWake:
		x.condAcquire(t, x.condGate(t.num), pos)
	}
	t.condPhase++
	return false
}

// condRMW applies op to the waiter set at addr (cell c) as an RMW step.
func (x *Execution) condRMW(t *Thread, addr int64, c *int64, op *RMWOp, pos ir.Pos) {
	old := *c
	_, *c = op.WriteFor(old)
	x.event(t, seg.Event{Kind: seg.KRMW, Loc: addr, RVal: old, WVal: *c, Order: ir.OrderSC, RF: x.lastWrite(addr), Pos: pos})
	x.noteRMW(t, op)
}

// condAcquire takes the hidden mutex cell at addr (L or a gate): no race
// detector edge, no note.
func (x *Execution) condAcquire(t *Thread, addr int64, pos ir.Pos) {
	c, _ := x.cell(addr)
	x.acquire(t, addr, c, pos)
}

// condRelease writes 0 to the hidden mutex cell at addr (unlocks L, opens
// a gate).
func (x *Execution) condRelease(t *Thread, addr int64, pos ir.Pos) {
	c, _ := x.cell(addr)
	x.release(t, addr, c, pos)
}
