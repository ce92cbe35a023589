package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// POSIX read-write locks (pthread_rwlock_t) are one cell: 0 when free, the
// number of readers when read-locked, -1 when write-locked. Every access
// is seq_cst (so a lock synchronizes with the unlock before it under ra
// and rc11):
//
//	rdlock:    loop { v = load(l); if (v >= 0 && cas(l, v, v+1)) break; }
//	wrlock:    loop { if (cas(l, 0, -1)) break; }
//	tryrdlock: loop { v = load(l); if (v < 0) return EBUSY; if (cas(l, v, v+1)) return 0; }
//	trywrlock: cas(l, 0, -1) ? 0 : EBUSY
//	unlock:    if (load(l) < 0) store(l, 0); else fetch_add(l, -1);
//
// A failed iteration of these loops only reads, so spinNoOps turns it into
// a wait: a thread that cannot take the lock blocks until it can (an
// execution in which it never can is blocked, not reported as a
// deadlock). Writers do not take precedence over readers (POSIX leaves
// that to the implementation).

// rwlockType is the IR type of a pthread_rwlock_t.
var rwlockType = ir.Int

// ebusy is EBUSY on Linux.
const ebusy = 16

// rwlock lowers the rwlock function name applied to the lock at args[0].
func (l *fnl) rwlock(name string, args []cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	rt := l.tr.scalarType(pe.Type(), pos)
	a := l.expr(args[0])
	for _, x := range args[1:] {
		l.exprVoid(x)
	}
	cell := l.cell(a, pos)
	load, cas, store := cell.load, cell.cas, cell.store
	c := func(v int64) *ir.Expr { return cnst(v, ir.Int, pos) }
	res := l.temp(rt, pos)
	l.assignLocal(res, cnst(0, rt, pos), pos)
	end := l.newLabel()
	switch name {
	case "pthread_rwlock_init":
		store(c(0))
	case "pthread_rwlock_rdlock", "pthread_rwlock_tryrdlock":
		ctr := l.loopCounter(pos)
		head, try := l.newLabel(), l.newLabel()
		l.bind(head)
		l.loopHead(ctr, 0, pos)
		v := load()
		busy := head
		if name == "pthread_rwlock_tryrdlock" {
			busy = l.newLabel()
		}
		l.branch(bin(ir.OpGe, v, c(0), ir.Bool, pos), try, busy, pos)
		l.bind(try)
		l.branch(cas(v, bin(ir.OpAdd, v, c(1), ir.Int, pos)), end, head, pos)
		if busy != head {
			l.bind(busy)
			l.assignLocal(res, cnst(ebusy, rt, pos), pos)
		}
	case "pthread_rwlock_wrlock":
		ctr := l.loopCounter(pos)
		head := l.newLabel()
		l.bind(head)
		l.loopHead(ctr, 0, pos)
		l.branch(cas(c(0), c(-1)), end, head, pos)
	case "pthread_rwlock_trywrlock":
		ok := l.newLabel()
		l.assignLocal(res, cnst(ebusy, rt, pos), pos)
		l.branch(cas(c(0), c(-1)), ok, end, pos)
		l.bind(ok)
		l.assignLocal(res, cnst(0, rt, pos), pos)
	case "pthread_rwlock_unlock":
		w, r := l.newLabel(), l.newLabel()
		l.branch(bin(ir.OpLt, load(), c(0), ir.Bool, pos), w, r, pos)
		l.bind(w)
		store(c(0))
		l.jump(end, pos)
		l.bind(r)
		in := l.ins(ir.IRMW, pos)
		in.Dst = l.temp(ir.Int, pos)
		in.Addr, in.A, in.RMW, in.Order = cell.a, c(-1), ir.RMWAdd, ir.OrderSC
		l.emit(in)
	}
	l.bind(end)
	return l.local(res, pos)
}
