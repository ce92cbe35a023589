package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Semaphores (sem_t) and spin locks (pthread_spinlock_t) are one cell,
// accessed seq_cst, like read-write locks (rwlock.go):
//
//	sem_init(s, pshared, n):  store(s, n)
//	sem_wait(s):              loop { v = load(s); if (v > 0 && cas(s, v, v-1)) break; }
//	sem_trywait(s):           loop { v = load(s); if (v <= 0) return -1 (errno EAGAIN, not modelled); if (cas(s, v, v-1)) return 0; }
//	sem_post(s):              fetch_add(s, 1)
//	sem_getvalue(s, &v):      v = load(s)
//	pthread_spin_init(l, p):  store(l, 0)
//	pthread_spin_lock(l):     loop { if (cas(l, 0, 1)) break; }
//	pthread_spin_trylock(l):  cas(l, 0, 1) ? 0 : EBUSY
//	pthread_spin_unlock(l):   store(l, 0)
//
// A failed iteration only reads, so spinNoOps makes it a wait: a thread
// that cannot proceed blocks (an execution in which it never can is
// blocked, not a deadlock). Destroy functions do nothing.

// semType is the IR type of a sem_t or pthread_spinlock_t.
var semType = ir.Int

// semSpin lowers the semaphore or spin-lock function name.
func (l *fnl) semSpin(name string, args []cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	rt := l.tr.scalarType(pe.Type(), pos)
	a := l.expr(args[0])
	cell := l.cell(a, pos)
	load, cas, store := cell.load, cell.cas, cell.store
	c := func(v int64) *ir.Expr { return cnst(v, ir.Int, pos) }
	res := l.temp(rt, pos)
	l.assignLocal(res, cnst(0, rt, pos), pos)
	end := l.newLabel()
	switch name {
	case "sem_init":
		l.exprVoid(args[1])
		store(retype(l.convert(l.expr(args[2]), args[2].Type(), l.tr.ast.Int, pos), ir.Int))
	case "pthread_spin_init":
		l.exprVoid(args[1])
		store(c(0))
	case "sem_wait", "sem_trywait":
		ctr := l.loopCounter(pos)
		head, try := l.newLabel(), l.newLabel()
		l.bind(head)
		l.loopHead(ctr, 0, pos)
		v := load()
		busy := head
		if name == "sem_trywait" {
			busy = l.newLabel()
		}
		l.branch(bin(ir.OpGt, v, c(0), ir.Bool, pos), try, busy, pos)
		l.bind(try)
		l.branch(cas(v, bin(ir.OpSub, v, c(1), ir.Int, pos)), end, head, pos)
		if busy != head {
			l.bind(busy)
			l.assignLocal(res, cnst(-1, rt, pos), pos)
		}
	case "sem_post":
		in := l.ins(ir.IRMW, pos)
		in.Dst = l.temp(ir.Int, pos)
		in.Addr, in.A, in.RMW, in.Order = cell.a, c(1), ir.RMWAdd, ir.OrderSC
		l.emit(in)
	case "sem_getvalue":
		l.writeOut(args[1], load(), pos)
	case "pthread_spin_lock":
		ctr := l.loopCounter(pos)
		head := l.newLabel()
		l.bind(head)
		l.loopHead(ctr, 0, pos)
		l.branch(cas(c(0), c(1)), end, head, pos)
	case "pthread_spin_trylock":
		ok := l.newLabel()
		l.assignLocal(res, cnst(ebusy, rt, pos), pos)
		l.branch(cas(c(0), c(1)), ok, end, pos)
		l.bind(ok)
		l.assignLocal(res, cnst(0, rt, pos), pos)
	case "pthread_spin_unlock":
		store(c(0))
	}
	l.bind(end)
	return l.local(res, pos)
}

// semSpinArgs is the number of arguments of each function semSpin lowers.
var semSpinArgs = map[string]int{
	"sem_init": 3, "sem_wait": 1, "sem_trywait": 1, "sem_post": 1, "sem_getvalue": 2,
	"pthread_spin_init": 2, "pthread_spin_lock": 1, "pthread_spin_trylock": 1, "pthread_spin_unlock": 1,
}

// pthreadOnce lowers pthread_once(o, init) (o is a pthread_once_t, an int
// that PTHREAD_ONCE_INIT sets to 0): the first caller moves it from 0 to 1
// with a compare-exchange, calls init and stores 2; the others await 2, so
// that every caller returns after init has run (seq_cst accesses: under ra
// and rc11 they synchronize with its end). init must be a function of the
// program named directly.
func (l *fnl) pthreadOnce(args []cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	rt := l.tr.scalarType(pe.Type(), pos)
	fi := l.tr.funcs[startRoutine(args[1])]
	if fi == nil || len(scalarParams(fi.ftype)) != 0 {
		l.tr.unsupported(pos, "pthread_once whose init routine is not a function of the program without parameters named directly")
		return cnst(0, rt, pos)
	}
	a := l.memPtr(args[0], pos)
	c := func(v int64) *ir.Expr { return cnst(v, ir.Int, pos) }
	cas := l.ins(ir.ICAS, pos)
	cas.Dst, cas.Dst2 = l.temp(ir.Int, pos), l.temp(ir.Bool, pos)
	cas.Addr, cas.A, cas.B, cas.Order, cas.FailOrder = a, c(0), c(1), ir.OrderSC, ir.OrderSC
	l.emit(cas)
	first, other, end := l.newLabel(), l.newLabel(), l.newLabel()
	l.branch(l.local(cas.Dst2, pos), first, other, pos)
	l.bind(first)
	l.fi.calls[fi.name] = true
	call := l.ins(ir.ICall, pos)
	call.Func = fi.f
	l.emit(call)
	st := l.ins(ir.IStore, pos)
	st.Addr, st.A, st.Order = a, c(2), ir.OrderSC
	l.emit(st)
	l.jump(end, pos)
	l.bind(other)
	v := l.temp(ir.Int, pos)
	ld := l.ins(ir.ILoad, pos)
	ld.Dst, ld.Addr, ld.Order = v, a, ir.OrderSC
	l.emit(ld)
	aw := l.ins(ir.IAssume, pos)
	aw.A = bin(ir.OpEq, l.local(v, pos), c(2), ir.Bool, pos)
	aw.Assume = ir.AssumeSpin
	l.emit(aw)
	l.bind(end)
	return cnst(0, rt, pos)
}

// cellOps emits the seq_cst accesses of a one-cell synchronisation object
// (a read-write lock, a semaphore, a spin lock) at address a.
type cellOps struct {
	l   *fnl
	a   *ir.Expr
	pos ir.Pos
}

// cell returns the accesses to the object at a, first copying a into a
// temporary unless it is a local, a constant or a global's address (so
// that it is evaluated once).
func (l *fnl) cell(a *ir.Expr, pos ir.Pos) cellOps {
	if a.Kind != ir.ELocal && a.Kind != ir.EConst && a.Kind != ir.EGlobalAddr {
		tmp := l.temp(a.Type, pos)
		l.assignLocal(tmp, a, pos)
		a = l.local(tmp, pos)
	}
	return cellOps{l, a, pos}
}

// load emits a load of the cell and returns its value.
func (o cellOps) load() *ir.Expr {
	l := o.l
	v := l.temp(ir.Int, o.pos)
	in := l.ins(ir.ILoad, o.pos)
	in.Dst, in.Addr, in.Order = v, o.a, ir.OrderSC
	l.emit(in)
	return l.local(v, o.pos)
}

// cas emits a compare-and-swap of the cell from old to nw and returns
// whether it succeeded.
func (o cellOps) cas(old, nw *ir.Expr) *ir.Expr {
	l := o.l
	in := l.ins(ir.ICAS, o.pos)
	in.Dst, in.Dst2 = l.temp(ir.Int, o.pos), l.temp(ir.Bool, o.pos)
	in.Addr, in.A, in.B, in.Order, in.FailOrder = o.a, old, nw, ir.OrderSC, ir.OrderSC
	l.emit(in)
	return l.local(in.Dst2, o.pos)
}

// store emits a store of v into the cell.
func (o cellOps) store(v *ir.Expr) {
	in := o.l.ins(ir.IStore, o.pos)
	in.Addr, in.A, in.Order = o.a, v, ir.OrderSC
	o.l.emit(in)
}
