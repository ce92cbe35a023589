package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Whole _Atomic struct and union objects. C11 makes a load, a store, an
// exchange, a compare-exchange and a plain assignment of an _Atomic struct
// one atomic operation on the whole object (gcc calls libatomic, which
// takes a lock for sizes it cannot access lock-free). ncmc's memory has a
// cell per scalar, so such an operation is an atomic section (IAtomicBegin
// ... IAtomicEnd) that accesses every cell, between two seq_cst fences: no
// other thread moves inside it, and under tso and pso the fences flush the
// thread's stores before and inside it, so no thread sees a torn object
// (the trailing fence is inside the section) and the operation is
// seq_cst, as libatomic's lock makes it. The graph explorers of ra and
// rc11 do not support atomic sections: there the operation is reported as
// unsupported under that model, with its position.

// atomicSection runs body as the atomic section of a whole-object atomic
// operation on an object of C type t; it is unsupported under ra and rc11.
func (l *fnl) atomicSection(t cc.Type, pos ir.Pos, body func()) {
	if l.tr.opts.NoAtomicSections {
		l.tr.unsupported(pos, "atomic operation on a whole %s under ra and rc11 (ncmc makes it an atomic section, which the ra and rc11 explorers do not support; it is supported under sc, tso and pso)", t)
		return
	}
	l.emit(l.ins(ir.IAtomicBegin, pos))
	body()
	l.emit(l.ins(ir.IAtomicEnd, pos))
}

// xchgCells writes vals into the cells at addr inside an atomic section:
// each is an exchange (an IRMW, whose old value is dropped) rather than a
// store, so that under tso and pso it drains the thread's store buffer and
// writes memory at once: the object's new value is visible as a whole when
// the section ends (buffered stores would reach memory one cell at a time,
// and another thread could read a torn object).
func (l *fnl) xchgCells(addr *ir.Expr, vals []*ir.Expr, o ir.Order, pos ir.Pos) {
	for i, v := range vals {
		in := l.ins(ir.IRMW, pos)
		in.Dst = l.temp(ir.Int, pos)
		in.Addr, in.A, in.RMW, in.Order = fieldAddr(addr, i, pos), v, ir.RMWXchg, o
		l.emit(in)
	}
}

// stable returns e, or a local holding its value when e is not a constant
// or a local (so that it is evaluated once).
func (l *fnl) stable(e *ir.Expr, pos ir.Pos) *ir.Expr {
	if e.Kind == ir.ELocal || e.Kind == ir.EConst || e.Kind == ir.EGlobalAddr {
		return e
	}
	tmp := l.temp(e.Type, pos)
	l.assignLocal(tmp, e, pos)
	return l.local(tmp, pos)
}

// loadCells loads the n cells at addr with order o.
func (l *fnl) loadCells(addr *ir.Expr, n int, o ir.Order, pos ir.Pos) []*ir.Expr {
	vals := make([]*ir.Expr, n)
	for i := range vals {
		tmp := l.temp(ir.Int, pos)
		in := l.ins(ir.ILoad, pos)
		in.Dst, in.Addr, in.Order = tmp, fieldAddr(addr, i, pos), o
		l.emit(in)
		vals[i] = l.local(tmp, pos)
	}
	return vals
}

// storeCells stores vals into the cells at addr with order o.
func (l *fnl) storeCells(addr *ir.Expr, vals []*ir.Expr, o ir.Order, pos ir.Pos) {
	for i, v := range vals {
		in := l.ins(ir.IStore, pos)
		in.Addr, in.A, in.Order = fieldAddr(addr, i, pos), v, o
		l.emit(in)
	}
}

// atomicStructBuiltin lowers the generic __atomic_load, __atomic_store,
// __atomic_exchange and __atomic_compare_exchange (what <stdatomic.h>'s
// atomic_load and friends expand to) on a struct or union of type t.
func (l *fnl) atomicStructBuiltin(name string, t cc.Type, args []cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	n := l.tr.cells(t, pos)
	if hasSync(l.tr.irType(t, pos)) {
		l.tr.unsupported(pos, "atomic operation on a %s that contains a mutex or condition variable", t)
		return cnst(0, ir.Bool, pos)
	}
	order := func(i int) ir.Order {
		o := l.orderArg(args[i], pos)
		if o == ir.OrderNA {
			o = ir.OrderSC
		}
		return o
	}
	ptr := l.stable(l.expr(args[0]), pos)
	switch name {
	case "__atomic_load":
		o := order(2)
		out := l.stable(l.expr(args[1]), pos)
		var vals []*ir.Expr
		l.atomicSection(t, pos, func() { vals = l.loadCells(ptr, n, o, pos) })
		l.storeCells(out, vals, ir.OrderNA, pos)
	case "__atomic_store":
		o := order(2)
		vals := l.loadCells(l.stable(l.expr(args[1]), pos), n, ir.OrderNA, pos)
		l.atomicSection(t, pos, func() { l.xchgCells(ptr, vals, o, pos) })
	case "__atomic_exchange":
		o := order(3)
		vals := l.loadCells(l.stable(l.expr(args[1]), pos), n, ir.OrderNA, pos)
		out := l.stable(l.expr(args[2]), pos)
		var old []*ir.Expr
		l.atomicSection(t, pos, func() {
			old = l.loadCells(ptr, n, o, pos)
			l.xchgCells(ptr, vals, o, pos)
		})
		l.storeCells(out, old, ir.OrderNA, pos)
	case "__atomic_compare_exchange":
		// Compares the representations, cell by cell (C11: as if by
		// memcmp); on failure the object's value is written to *expected.
		// A weak compare-exchange fails only when the values differ here
		// (a spurious failure is allowed, not required).
		succ, fail := order(4), failOrder(order(5))
		exp := l.stable(l.expr(args[1]), pos)
		want := l.loadCells(exp, n, ir.OrderNA, pos)
		des := l.loadCells(l.stable(l.expr(args[2]), pos), n, ir.OrderNA, pos)
		ok := l.temp(ir.Bool, pos)
		var old []*ir.Expr
		l.atomicSection(t, pos, func() {
			o := succ
			if fail.IsAcquire() && !succ.IsAcquire() {
				o = ir.OrderSC
			}
			old = l.loadCells(ptr, n, o, pos)
			eq := cnst(1, ir.Bool, pos)
			for i := range old {
				eq = bin(ir.OpLAnd, eq, bin(ir.OpEq, old[i], want[i], ir.Bool, pos), ir.Bool, pos)
			}
			l.assignLocal(ok, eq, pos)
			yes, no := l.newLabel(), l.newLabel()
			l.branch(l.local(ok, pos), yes, no, pos)
			l.bind(yes)
			l.xchgCells(ptr, des, succ, pos)
			l.bind(no)
		})
		done, failed := l.newLabel(), l.newLabel()
		l.branch(l.local(ok, pos), done, failed, pos)
		l.bind(failed)
		l.storeCells(exp, old, ir.OrderNA, pos)
		l.bind(done)
		return l.local(ok, pos)
	}
	return cnst(0, ir.Bool, pos)
}

// stmtExprLvalue is the object a GNU statement expression whose last
// statement is an expression designating a struct or union (the value of
// <stdatomic.h>'s atomic_load and atomic_exchange on an _Atomic struct)
// designates: the other statements run first.
func (l *fnl) stmtExprLvalue(cs *cc.CompoundStatement, pos ir.Pos) (lval, bool) {
	var items []*cc.BlockItem
	for il := cs.BlockItemList; il != nil; il = il.BlockItemList {
		items = append(items, il.BlockItem)
	}
	if len(items) == 0 {
		return lval{}, false
	}
	last := items[len(items)-1]
	if last.Case != cc.BlockItemStmt || last.Statement.Case != cc.StatementExpr || last.Statement.ExpressionStatement.ExpressionList == nil {
		return lval{}, false
	}
	e := last.Statement.ExpressionStatement.ExpressionList
	if !isRecordC(e.Type()) {
		return lval{}, false
	}
	for _, bi := range items[:len(items)-1] {
		l.blockItem(bi)
	}
	return l.lvalue(e), true
}
