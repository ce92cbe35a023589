package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// POSIX barriers (pthread_barrier_t) are lowered onto atomic
// read-modify-writes and a spin-assume (await), which every explorer and
// memory model supports.
//
// A barrier is three cells: the state, rounds<<32 | arrivals (the number
// of rounds started and the number of arrivals in the current one), the
// count it was initialized with, and the number of completed rounds.
// pthread_barrier_wait is
//
//	old = fetch_add(&state, 1)                       // seq_cst
//	n   = (old >> 32) * total + (old & 0xffffffff)    // arrival number, over all rounds
//	if n % total == total - 1 {                        // the last of round n / total
//		fetch_add(&state, (1 << 32) - total)          // next round: arrivals -= total, rounds++
//		fetch_add(&done, 1)
//		return PTHREAD_BARRIER_SERIAL_THREAD
//	}
//	await(load(&done) > n / total)                     // seq_cst load, spin-assume (AssumeBarrier)
//	return 0
//
// The arrival numbers are the order of the fetch_adds on the state, so
// round r is arrivals r*total .. r*total + total-1 and it completes with
// its last arrival; a completed round >= r implies every arrival of round
// r has happened, and r+1 completions imply a completed round >= r. So a
// waiter leaves exactly when its round is complete, also when more
// threads than the count use the barrier at once (a thread arriving
// before the reset simply belongs to a later round) and across any number
// of rounds. The waiters read a cell of their own (done), written once
// per round, so an explorer sees few values for their awaits. Every
// access is seq_cst, so under ra and rc11 a waiter synchronizes with the
// completer of its round, which read (through the release sequence of
// the fetch_adds) every arrival of it, as POSIX requires.
//
// The await is an ir.AssumeBarrier: the done cell has only these atomic
// accesses, so the trust explorer may run a waiter's load once the round
// is complete and leave out the loads of older values (explore/trustx).
//
// A round that never completes (fewer threads than the count) leaves its
// waiters blocked by the spin-assume: the execution is discarded as
// blocked, not reported as a deadlock (see doc.go).

// barrierType is the IR type of a pthread_barrier_t: state, count, done.
var barrierType = ir.ArrayOf(ir.Int, 3)

// barrierRoundShift is the bit position of the round number in the state.
const barrierRoundShift = 32

// barrierInit lowers pthread_barrier_init(b, attr, count): the count is
// stored and the state reset; it returns 0, or EINVAL (22) for a count of
// 0 (the barrier is then never complete).
func (l *fnl) barrierInit(args []cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	b := l.expr(args[0])
	l.exprVoid(args[1]) // attributes: only process-shared, which changes nothing here
	n := l.convert(l.expr(args[2]), args[2].Type(), l.tr.ast.Int, pos)
	n = retype(n, ir.Int)
	st := l.ins(ir.IStore, pos)
	st.Addr, st.A, st.Order = fieldAddr(b, 1, pos), n, ir.OrderSC
	l.emit(st)
	for _, cell := range []int{0, 2} {
		st = l.ins(ir.IStore, pos)
		st.Addr, st.A, st.Order = fieldAddr(b, cell, pos), cnst(0, ir.Int, pos), ir.OrderSC
		l.emit(st)
	}
	rt := l.tr.scalarType(pe.Type(), pos)
	return bin(ir.OpMul, bin(ir.OpEq, n, cnst(0, ir.Int, pos), ir.Int, pos), cnst(22, ir.Int, pos), rt, pos)
}

// barrierWait lowers pthread_barrier_wait(b) (see above); it returns
// PTHREAD_BARRIER_SERIAL_THREAD (-1) in the thread that completes the
// round and 0 in the others.
func (l *fnl) barrierWait(arg cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	b := l.expr(arg)
	if b.Kind != ir.ELocal && b.Kind != ir.EConst && b.Kind != ir.EGlobalAddr {
		tmp := l.temp(b.Type, pos)
		l.assignLocal(tmp, b, pos)
		b = l.local(tmp, pos)
	}
	total := l.temp(ir.Int, pos)
	ld := l.ins(ir.ILoad, pos)
	ld.Dst, ld.Addr, ld.Order = total, fieldAddr(b, 1, pos), ir.OrderSC
	l.emit(ld)
	old := l.temp(ir.Int, pos)
	in := l.ins(ir.IRMW, pos)
	in.Dst, in.Addr, in.A, in.RMW, in.Order = old, fieldAddr(b, 0, pos), cnst(1, ir.Int, pos), ir.RMWAdd, ir.OrderSC
	l.emit(in)
	c := func(v int64) *ir.Expr { return cnst(v, ir.Int, pos) }
	o, t := l.local(old, pos), l.local(total, pos)
	round := bin(ir.OpShr, o, c(barrierRoundShift), ir.Int, pos)
	count := bin(ir.OpAnd, o, c(1<<barrierRoundShift-1), ir.Int, pos)
	n := l.temp(ir.Int, pos)
	l.assignLocal(n, bin(ir.OpAdd, bin(ir.OpMul, round, t, ir.Int, pos), count, ir.Int, pos), pos)
	nv := l.local(n, pos)
	// A count of 0 (EINVAL at init) never completes: its waiters block.
	valid, invalid := l.newLabel(), l.newLabel()
	l.branch(bin(ir.OpGt, t, c(0), ir.Bool, pos), valid, invalid, pos)
	l.bind(invalid)
	l.emit(l.assumeFalse(pos, ir.AssumeSpin))
	l.bind(valid)
	rt := l.tr.scalarType(pe.Type(), pos)
	res := l.temp(rt, pos)
	last, wait, end := l.newLabel(), l.newLabel(), l.newLabel()
	l.branch(bin(ir.OpEq, bin(ir.OpMod, nv, t, ir.Int, pos), bin(ir.OpSub, t, c(1), ir.Int, pos), ir.Bool, pos), last, wait, pos)
	l.bind(last)
	reset := l.ins(ir.IRMW, pos)
	reset.Dst = l.temp(ir.Int, pos)
	reset.Addr, reset.A, reset.RMW, reset.Order = fieldAddr(b, 0, pos), bin(ir.OpSub, c(1<<barrierRoundShift), t, ir.Int, pos), ir.RMWAdd, ir.OrderSC
	l.emit(reset)
	done := l.ins(ir.IRMW, pos)
	done.Dst = l.temp(ir.Int, pos)
	done.Addr, done.A, done.RMW, done.Order = fieldAddr(b, 2, pos), c(1), ir.RMWAdd, ir.OrderSC
	l.emit(done)
	l.assignLocal(res, cnst(-1, rt, pos), pos)
	l.jump(end, pos)
	l.bind(wait)
	cur := l.temp(ir.Int, pos)
	ld = l.ins(ir.ILoad, pos)
	ld.Dst, ld.Addr, ld.Order = cur, fieldAddr(b, 2, pos), ir.OrderSC
	l.emit(ld)
	aw := l.ins(ir.IAssume, pos)
	aw.A = bin(ir.OpGt, l.local(cur, pos), bin(ir.OpDiv, nv, t, ir.Int, pos), ir.Bool, pos)
	aw.Assume = ir.AssumeBarrier
	l.emit(aw)
	l.assignLocal(res, cnst(0, rt, pos), pos)
	l.bind(end)
	return l.local(res, pos)
}
