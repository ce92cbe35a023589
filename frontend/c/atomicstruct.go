package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Whole _Atomic struct and union objects. C11 makes a load, a store, an
// exchange, a compare-exchange and a plain assignment of an _Atomic struct
// one atomic operation on the whole object. ncmc's memory has a cell per
// scalar, so the front end lowers such an operation to accesses of every
// cell, made indivisible in one of two ways:
//
//   - Under sc, tso and pso: an atomic section (IAtomicBegin ... IAtomicEnd).
//     No other thread moves inside it, and a write ends with a seq_cst
//     fence inside it (writeCells), so that under tso and pso the stores
//     reach memory inside the section and no thread sees a torn object.
//     This is exact for these interleaving models (the operation is one
//     step of an interleaving, and seq_cst) and cheaper than the lock form:
//     no lock events, and no other thread's steps between the cell
//     accesses.
//   - Under ra and rc11 (Options.NoAtomicSections), whose graph explorers
//     have no atomic sections: as gcc's libatomic does for objects it cannot
//     access lock-free, a hidden lock protects the object (lockFor): ILock,
//     relaxed loads and stores of the cells, IUnlock. Every two operations
//     on one object are then ordered by happens-before (the lock's release
//     and acquire), so a read sees every cell of one write, and whatever the
//     memory orders the operations on an object are sequentially consistent
//     among themselves, with acquire-release synchronisation: a relaxed
//     operation synchronises as libatomic's lock makes it (C11's relaxed
//     would not). Against the program's other seq_cst accesses they keep
//     C11's seq_cst guarantees (store buffering, 2+2W, IRIW and R with a
//     whole-object operation and a scalar seq_cst access stay forbidden:
//     RC11's seq_cst order contains po;hb;po, and the lock gives the hb);
//     they are not fences, though: relaxed accesses of the thread around
//     them are not ordered by them, as C11 allows. libatomic adds seq_cst
//     fences around a seq_cst operation where the mutex is only
//     acquire-release (POWER, ARM) for its hardware mapping; here they
//     would only forbid what C11 allows (store buffering through relaxed
//     accesses around operations on two distinct objects), so none is
//     emitted.
//
// The locks are a hidden global table of atomicLockSlots mutexes
// ("atomic.locks"); the object at cell offset off of memory block b uses
// slot (b*atomicLockMul + off) mod atomicLockSlots (lockFor). Objects at
// offset 0 of blocks less than atomicLockSlots apart, and the elements of
// an array of fewer than atomicLockSlots/gcd(stride, atomicLockSlots) of
// them, get distinct locks; two objects that share a slot (as libatomic's
// objects in one 64-byte line do) only synchronise more, never lose
// atomicity.

// Lock table of whole-object atomic operations under ra and rc11 (lockFor).
const (
	atomicLockSlots = 64 // mutexes in the table (libatomic has 64 too)
	atomicLockMul   = 23 // odd: blocks less than atomicLockSlots apart get distinct slots
)

// lockTable returns the index (in prog.Globals) of the hidden lock table of
// whole-object atomic operations, adding it on first use.
func (tr *translator) lockTable(pos ir.Pos) int {
	if tr.atomicLocks == 0 {
		t := ir.ArrayOf(ir.Mutex, atomicLockSlots)
		g := &ir.Global{Name: "atomic.locks", Type: t, Init: make([]int64, t.Size()), Pos: pos, Hidden: true}
		tr.atomicLocks = len(tr.prog.Globals) + 1
		g.Block = tr.atomicLocks
		tr.prog.Globals = append(tr.prog.Globals, g)
	}
	return tr.atomicLocks - 1
}

// lockFor is the address of the lock-table mutex of the object at ptr
// (an encoded pointer: block << 32 | cell offset): slot
// (block*atomicLockMul + offset) mod atomicLockSlots. A global's slot is a
// constant (the same value the run-time computation gives).
func (l *fnl) lockFor(ptr *ir.Expr, pos ir.Pos) *ir.Expr {
	g := l.tr.lockTable(pos)
	table := &ir.Expr{Kind: ir.EGlobalAddr, Global: g, Type: ptrOf(ir.Mutex), Pos: pos}
	base, off := ptr, 0
	if base.Kind == ir.EField && base.A.Kind == ir.EGlobalAddr {
		base, off = base.A, base.Offset
	}
	if base.Kind == ir.EGlobalAddr {
		b := base.Global + 1 // its block, as the interpreter evaluates it
		return fieldAddr(table, lockSlot(ir.MakePtr(b, off)), pos)
	}
	p := retype(ptr, ir.Int)
	slot := bin(ir.OpAnd, bin(ir.OpAdd, bin(ir.OpMul, bin(ir.OpShr, p, cnst(32, ir.Int, pos), ir.Int, pos), cnst(atomicLockMul, ir.Int, pos), ir.Int, pos), p, ir.Int, pos), cnst(atomicLockSlots-1, ir.Int, pos), ir.Int, pos)
	return bin(ir.OpAdd, table, slot, table.Type, pos)
}

// lockSlot is the lock-table slot of the object at encoded pointer p (the
// computation lockFor emits for a pointer known only at run time).
func lockSlot(p int64) int {
	return int(((p>>32)*atomicLockMul + p) & (atomicLockSlots - 1))
}

// whole runs body, the cell accesses of one whole-object atomic operation
// on the object at ptr, indivisibly: in an atomic section (sc, tso, pso),
// or under the object's lock (ra, rc11).
func (l *fnl) whole(ptr *ir.Expr, pos ir.Pos, body func()) {
	if !l.tr.opts.NoAtomicSections {
		l.emit(l.ins(ir.IAtomicBegin, pos))
		body()
		l.emit(l.ins(ir.IAtomicEnd, pos))
		return
	}
	lk := l.lockFor(ptr, pos)
	if lk.Kind == ir.EBinary {
		lk = l.stable(lk, pos) // computed once for the lock and the unlock
	}
	in := l.ins(ir.ILock, pos)
	in.Addr = lk
	l.emit(in)
	body()
	in = l.ins(ir.IUnlock, pos)
	in.Addr = lk
	l.emit(in)
}

// readCells loads the n cells of a whole-object operation with order o at
// addr: with order o in an atomic section, relaxed under the lock.
func (l *fnl) readCells(addr *ir.Expr, n int, o ir.Order, pos ir.Pos) []*ir.Expr {
	if l.tr.opts.NoAtomicSections {
		o = ir.OrderRlx
	}
	return l.loadCells(addr, n, o, pos)
}

// writeCells writes vals into the cells of a whole-object operation with
// order o at addr: relaxed stores under the lock; in an atomic section,
// stores with order o and then a seq_cst fence, so that under tso and pso
// the stores leave the store buffer inside the section: the object's new
// value reaches memory as a whole (buffered stores would reach it one cell
// at a time, and another thread could read a torn object).
func (l *fnl) writeCells(addr *ir.Expr, vals []*ir.Expr, o ir.Order, pos ir.Pos) {
	if l.tr.opts.NoAtomicSections {
		l.storeCells(addr, vals, ir.OrderRlx, pos)
		return
	}
	l.storeCells(addr, vals, o, pos)
	in := l.ins(ir.IFence, pos)
	in.Order = ir.OrderSC
	l.emit(in)
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
		l.whole(ptr, pos, func() { vals = l.readCells(ptr, n, o, pos) })
		l.storeCells(out, vals, ir.OrderNA, pos)
	case "__atomic_store":
		o := order(2)
		vals := l.loadCells(l.stable(l.expr(args[1]), pos), n, ir.OrderNA, pos)
		l.whole(ptr, pos, func() { l.writeCells(ptr, vals, o, pos) })
	case "__atomic_exchange":
		o := order(3)
		vals := l.loadCells(l.stable(l.expr(args[1]), pos), n, ir.OrderNA, pos)
		out := l.stable(l.expr(args[2]), pos)
		var old []*ir.Expr
		l.whole(ptr, pos, func() {
			old = l.readCells(ptr, n, o, pos)
			l.writeCells(ptr, vals, o, pos)
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
		l.whole(ptr, pos, func() {
			o := succ
			if fail.IsAcquire() && !succ.IsAcquire() {
				o = ir.OrderSC
			}
			old = l.readCells(ptr, n, o, pos)
			eq := cnst(1, ir.Bool, pos)
			for i := range old {
				eq = bin(ir.OpLAnd, eq, bin(ir.OpEq, old[i], want[i], ir.Bool, pos), ir.Bool, pos)
			}
			l.assignLocal(ok, eq, pos)
			yes, no := l.newLabel(), l.newLabel()
			l.branch(l.local(ok, pos), yes, no, pos)
			l.bind(yes)
			l.writeCells(ptr, des, succ, pos)
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
