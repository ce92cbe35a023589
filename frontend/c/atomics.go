package c

import (
	"math"
	"strings"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// C11 / GCC atomic builtins. <stdatomic.h> expands atomic_load_explicit and
// friends into the generic __atomic_* builtins, which pass values through
// pointers to temporaries; "&tmp" in those positions does not put tmp in
// memory (see outParams), the front end reads or writes tmp directly.

// memOrder maps a C memory order constant (__ATOMIC_RELAXED .. SEQ_CST) to IR;
// consume is treated as acquire.
func memOrder(v int64) (ir.Order, bool) {
	switch v {
	case 0:
		return ir.OrderRlx, true
	case 1, 2:
		return ir.OrderAcq, true
	case 3:
		return ir.OrderRel, true
	case 4:
		return ir.OrderAcqRel, true
	case 5:
		return ir.OrderSC, true
	}
	return 0, false
}

// failOrder maps the failure order of a compare-exchange to a legal one.
// A failed compare-exchange only reads, and C forbids release and acq_rel
// there; compilers accept them: clang keeps the order's load part
// (release becomes relaxed, acq_rel acquire), gcc warns and uses seq_cst.
// The front end takes clang's, the weaker: every behaviour of gcc's
// compilation is one of it, so a bug of either is found.
func failOrder(o ir.Order) ir.Order {
	switch o {
	case ir.OrderRel:
		return ir.OrderRlx
	case ir.OrderAcqRel:
		return ir.OrderAcq
	}
	return o
}

func (l *fnl) orderArg(e cc.ExpressionNode, pos ir.Pos) ir.Order {
	v, ok := l.tr.constInt(e)
	if !ok {
		l.tr.unsupported(pos, "memory order that is not a constant")
		return ir.OrderSC
	}
	o, ok := memOrder(v)
	if !ok {
		l.tr.unsupported(pos, "memory order %d", v)
		return ir.OrderSC
	}
	return o
}

// pointeeOf returns the type an atomic builtin's pointer argument points to.
func (l *fnl) pointeeOf(e cc.ExpressionNode, pos ir.Pos) cc.Type {
	t := e.Type()
	if !isPointer(t) {
		l.tr.unsupported(pos, "atomic operation on %s", t)
		return l.tr.ast.Int
	}
	et := t.(*cc.PointerType).Elem()
	if !isScalarC(et) {
		l.tr.unsupported(pos, "atomic operation on %s", et)
		return l.tr.ast.Int
	}
	return et
}

// readIn reads the value an in-parameter pointer points to ("&x" with x a
// register local reads x).
func (l *fnl) readIn(e cc.ExpressionNode, t cc.Type, pos ir.Pos) *ir.Expr {
	if u, ok := unparen(e).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		if d := identDecl(u.CastExpression); d != nil {
			if lv, ok := l.locals[d]; ok && !lv.mem {
				return l.local(lv.slot, pos)
			}
		}
	}
	return l.load(lval{reg: -1, addr: l.expr(e), t: t}, pos)
}

var rmwKinds = map[string]ir.RMWKind{"add": ir.RMWAdd, "sub": ir.RMWSub, "and": ir.RMWAnd, "or": ir.RMWOr, "xor": ir.RMWXor}

var rmwOps = map[ir.RMWKind]ir.Operator{ir.RMWAdd: ir.OpAdd, ir.RMWSub: ir.OpSub, ir.RMWAnd: ir.OpAnd, ir.RMWOr: ir.OpOr, ir.RMWXor: ir.OpXor}

// rmw performs an atomic read-modify-write of the t object at addr and
// returns the old value: one IRMW, whose result wraps at t's width
// (ir.IntWrap: add and sub on narrower integers would otherwise leave an
// out-of-range value in memory).
func (l *fnl) rmw(addr *ir.Expr, t cc.Type, kind ir.RMWKind, v *ir.Expr, order ir.Order, pos ir.Pos) *ir.Expr {
	it := l.tr.scalarType(t, pos)
	if isPointer(t) && kind != ir.RMWXchg {
		old, _ := l.pointerRMW(addr, t, kind, v, order, pos)
		return old
	}
	if isFloat(t) && kind != ir.RMWXchg {
		l.tr.unsupported(pos, "atomic %s on %s (C11 allows it on integers only; use a compound assignment or a compare-exchange loop)", kind, t)
		return cnst(0, it, pos)
	}
	in := l.ins(ir.IRMW, pos)
	in.Dst = l.temp(it, pos)
	in.Addr, in.A, in.RMW, in.Order = addr, v, kind, order
	if isInteger(t) && t.Kind() != cc.Bool {
		w, _ := intInfo(t)
		in.Wrap = ir.MakeWrap(w, cc.IsSignedInteger(t))
	}
	l.emit(in)
	return l.local(in.Dst, pos)
}

// pointerRMW is an atomic fetch-add or fetch-sub on the pointer of type t
// at addr, with C11's meaning (as clang's, hence GenMC's): v counts
// elements of the pointee type, as in p + v. It is a compare-exchange
// loop (casLoop). It returns the old and the new pointer. Other
// operations on pointers are unsupported.
func (l *fnl) pointerRMW(addr *ir.Expr, t cc.Type, kind ir.RMWKind, v *ir.Expr, order ir.Order, pos ir.Pos) (old, nv *ir.Expr) {
	it := l.tr.scalarType(t, pos)
	elem := t.(*cc.PointerType).Elem()
	if (kind != ir.RMWAdd && kind != ir.RMWSub) || elem.Kind() == cc.Void || elem.Kind() == cc.Function || elem.Size() <= 0 {
		l.tr.unsupported(pos, "atomic %s on %s", kind, t)
		return cnst(0, it, pos), cnst(0, it, pos)
	}
	if v.Kind != ir.ELocal && v.Kind != ir.EConst {
		tmp := l.temp(v.Type, pos)
		l.assignLocal(tmp, v, pos)
		v = l.local(tmp, pos)
	}
	stride := l.tr.cells(elem, pos)
	return l.casLoop(addr, t, func(o, n int) {
		l.assignLocal(n, l.ptrAdd(l.local(o, pos), v, nil, stride, rmwOps[kind], pos), pos)
	}, order, pos)
}

// flagCell is the type of the object an atomic_flag operation's pointer
// argument p points to: atomic_flag is a struct of one _Bool (or unsigned
// char), whose only cell the operation reads and writes.
func (l *fnl) flagCell(p cc.ExpressionNode, pos ir.Pos) cc.Type {
	if pt, ok := p.Type().(*cc.PointerType); ok {
		if st, ok := pt.Elem().(*cc.StructType); ok && st.NumFields() == 1 && isInteger(st.FieldByIndex(0).Type()) {
			return st.FieldByIndex(0).Type()
		}
	}
	return l.pointeeOf(p, pos)
}

// atomicRMW is rmw on an lvalue with sc order (++/-- on _Atomic objects).
func (l *fnl) atomicRMW(lv lval, op ir.Operator, v *ir.Expr, pos ir.Pos) *ir.Expr {
	kind := ir.RMWAdd
	if op == ir.OpSub {
		kind = ir.RMWSub
	}
	return l.rmw(lv.addr, lv.t, kind, v, ir.OrderSC, pos)
}

// atomicCompound lowers x op= y on an _Atomic object: one sc RMW.
func (l *fnl) atomicCompound(lv lval, op ir.Operator, rhs cc.ExpressionNode, want bool, pos ir.Pos) *ir.Expr {
	if isFloat(lv.t) || isFloat(rhs.Type()) {
		if !isArith(lv.t) || !isArith(rhs.Type()) {
			l.tr.unsupported(pos, "compound assignment on an _Atomic %s", lv.t)
			return cnst(0, ir.Int, pos)
		}
		// rhs is evaluated once, before the loop.
		v := l.expr(rhs)
		if v.Kind != ir.ELocal && v.Kind != ir.EConst {
			tmp := l.temp(v.Type, pos)
			l.assignLocal(tmp, v, pos)
			v = l.local(tmp, pos)
		}
		ct := cc.UsualArithmeticConversions(lv.t, rhs.Type())
		if !isFloat(ct) {
			l.tr.unsupported(pos, "compound assignment %s= on an _Atomic %s", op, lv.t)
			return cnst(0, ir.Int, pos)
		}
		_, nv := l.floatRMW(lv.addr, lv.t, func(o *ir.Expr) *ir.Expr {
			a := l.convert(o, lv.t, ct, pos)
			b := l.convert(v, rhs.Type(), ct, pos)
			return l.convert(l.floatBin(op, a, b, ct, nil, pos), ct, lv.t, pos)
		}, ir.OrderSC, pos)
		return nv
	}
	var kind ir.RMWKind
	switch op {
	case ir.OpAdd:
		kind = ir.RMWAdd
	case ir.OpSub:
		kind = ir.RMWSub
	case ir.OpAnd:
		kind = ir.RMWAnd
	case ir.OpOr:
		kind = ir.RMWOr
	case ir.OpXor:
		kind = ir.RMWXor
	default:
		l.tr.unsupported(pos, "compound assignment %s= on an _Atomic object", op)
		return cnst(0, ir.Int, pos)
	}
	if !isInteger(lv.t) || !isInteger(rhs.Type()) {
		l.tr.unsupported(pos, "compound assignment on an _Atomic %s", lv.t)
		return cnst(0, ir.Int, pos)
	}
	// Modular arithmetic: converting y to x's type first gives the same result.
	v := l.convert(l.expr(rhs), rhs.Type(), lv.t, pos)
	old := l.rmw(lv.addr, lv.t, kind, v, ir.OrderSC, pos)
	if !want {
		return old
	}
	return l.narrow(bin(rmwOps[kind], old, v, old.Type, pos), lv.t, pos)
}

// cas emits a compare-and-swap of the t object at addr: expected is read
// from expPtr, and on failure the old value is written back to it. weak
// CAS may also fail spuriously. It returns the success flag.
func (l *fnl) cas(addr *ir.Expr, t cc.Type, expPtr cc.ExpressionNode, desired *ir.Expr, weak bool, succ, fail ir.Order, pos ir.Pos) *ir.Expr {
	it := l.tr.scalarType(t, pos)
	res := l.temp(ir.Bool, pos)
	end := l.newLabel()
	expected := l.readIn(expPtr, t, pos)
	if weak {
		spur, real := l.newLabel(), l.newLabel()
		sp := l.nondetValue(0, 1, ir.Bool, pos)
		l.branch(sp, spur, real, pos)
		l.bind(spur)
		old := l.temp(it, pos)
		ld := l.ins(ir.ILoad, pos)
		ld.Dst, ld.Addr, ld.Order = old, addr, fail
		l.emit(ld)
		l.writeOut(expPtr, l.local(old, pos), pos)
		l.assignLocal(res, cnst(0, ir.Bool, pos), pos)
		l.jump(end, pos)
		l.bind(real)
	}
	in := l.ins(ir.ICAS, pos)
	in.Dst = l.temp(it, pos)
	in.Dst2 = res
	in.Addr, in.A, in.B, in.Order, in.FailOrder = addr, expected, desired, succ, fail
	l.emit(in)
	old := l.local(in.Dst, pos)
	fl := l.newLabel()
	l.branch(l.local(res, pos), end, fl, pos)
	l.bind(fl)
	l.writeOut(expPtr, old, pos)
	l.bind(end)
	return l.local(res, pos)
}

// atomicBuiltin lowers the __atomic_* and __sync_* builtins.
func (l *fnl) atomicBuiltin(name string, pe *cc.PostfixExpression, args []cc.ExpressionNode, want bool, pos ir.Pos) (*ir.Expr, bool) {
	rt := pe.Type()
	need := func(n int) bool {
		if len(args) != n {
			l.tr.unsupported(pos, "%s called with %d arguments (expected %d)", name, len(args), n)
			return false
		}
		return true
	}
	zero := func() *ir.Expr { return cnst(0, l.tr.scalarType(rt, pos), pos) }
	load := func(p cc.ExpressionNode, o ir.Order) *ir.Expr {
		t := l.pointeeOf(p, pos)
		if o == ir.OrderRel || o == ir.OrderAcqRel {
			l.tr.unsupported(pos, "atomic load with memory order %s", o)
		}
		tmp := l.temp(l.tr.scalarType(t, pos), pos)
		in := l.ins(ir.ILoad, pos)
		in.Dst, in.Addr, in.Order = tmp, l.expr(p), o
		l.emit(in)
		return l.local(tmp, pos)
	}
	store := func(p cc.ExpressionNode, v *ir.Expr, o ir.Order) {
		if o == ir.OrderAcq || o == ir.OrderAcqRel {
			l.tr.unsupported(pos, "atomic store with memory order %s", o)
		}
		in := l.ins(ir.IStore, pos)
		in.Addr, in.A, in.Order = l.expr(p), v, o
		l.emit(in)
	}
	switch name {
	case "__atomic_load", "__atomic_store", "__atomic_exchange", "__atomic_compare_exchange":
		if n := map[string]int{"__atomic_load": 3, "__atomic_store": 3, "__atomic_exchange": 4, "__atomic_compare_exchange": 6}[name]; len(args) == n {
			if pt, ok := args[0].Type().(*cc.PointerType); ok && isRecordC(pt.Elem()) {
				return retype(l.atomicStructBuiltin(name, pt.Elem(), args, pos), l.tr.scalarType(rt, pos)), true
			}
		}
	}
	switch name {
	case "__atomic_load_n":
		if !need(2) {
			return zero(), true
		}
		return load(args[0], l.orderArg(args[1], pos)), true
	case "__atomic_load":
		if !need(3) {
			return zero(), true
		}
		v := load(args[0], l.orderArg(args[2], pos))
		l.writeOut(args[1], v, pos)
		return zero(), true
	case "__atomic_store_n":
		if !need(3) {
			return zero(), true
		}
		t := l.pointeeOf(args[0], pos)
		v := l.convert(l.expr(args[1]), args[1].Type(), t, pos)
		store(args[0], v, l.orderArg(args[2], pos))
		return zero(), true
	case "__atomic_store":
		if !need(3) {
			return zero(), true
		}
		t := l.pointeeOf(args[0], pos)
		v := l.readIn(args[1], t, pos)
		store(args[0], v, l.orderArg(args[2], pos))
		return zero(), true
	case "__atomic_exchange_n", "__sync_lock_test_and_set":
		n := 3
		if name == "__sync_lock_test_and_set" {
			n = 2
		}
		if !need(n) {
			return zero(), true
		}
		o := ir.OrderAcq
		if n == 3 {
			o = l.orderArg(args[2], pos)
		}
		t := l.pointeeOf(args[0], pos)
		v := l.convert(l.expr(args[1]), args[1].Type(), t, pos)
		return l.rmw(l.expr(args[0]), t, ir.RMWXchg, v, o, pos), true
	case "__atomic_exchange":
		if !need(4) {
			return zero(), true
		}
		t := l.pointeeOf(args[0], pos)
		v := l.readIn(args[1], t, pos)
		old := l.rmw(l.expr(args[0]), t, ir.RMWXchg, v, l.orderArg(args[3], pos), pos)
		l.writeOut(args[2], old, pos)
		return zero(), true
	case "__atomic_compare_exchange_n", "__atomic_compare_exchange":
		if !need(6) {
			return zero(), true
		}
		t := l.pointeeOf(args[0], pos)
		addr := l.expr(args[0])
		var des *ir.Expr
		if name == "__atomic_compare_exchange" {
			des = l.readIn(args[2], t, pos)
		} else {
			des = l.convert(l.expr(args[2]), args[2].Type(), t, pos)
		}
		weak, ok := l.tr.constInt(args[3])
		if !ok {
			l.tr.unsupported(pos, "weak flag that is not a constant")
		}
		s, f := l.orderArg(args[4], pos), failOrder(l.orderArg(args[5], pos))
		return retype(l.cas(addr, t, args[1], des, weak != 0, s, f, pos), l.tr.scalarType(rt, pos)), true
	case "__sync_val_compare_and_swap", "__sync_bool_compare_and_swap":
		if !need(3) {
			return zero(), true
		}
		t := l.pointeeOf(args[0], pos)
		addr := l.expr(args[0])
		exp := l.convert(l.expr(args[1]), args[1].Type(), t, pos)
		des := l.convert(l.expr(args[2]), args[2].Type(), t, pos)
		in := l.ins(ir.ICAS, pos)
		in.Dst = l.temp(l.tr.scalarType(t, pos), pos)
		in.Dst2 = l.temp(ir.Bool, pos)
		in.Addr, in.A, in.B, in.Order, in.FailOrder = addr, exp, des, ir.OrderSC, ir.OrderSC
		l.emit(in)
		if name == "__sync_val_compare_and_swap" {
			return l.local(in.Dst, pos), true
		}
		return retype(l.local(in.Dst2, pos), l.tr.scalarType(rt, pos)), true
	case "__sync_lock_release":
		if !need(1) {
			return zero(), true
		}
		t := l.pointeeOf(args[0], pos)
		store(args[0], cnst(0, l.tr.scalarType(t, pos), pos), ir.OrderRel)
		return zero(), true
	case "__sync_synchronize":
		in := l.ins(ir.IFence, pos)
		in.Order = ir.OrderSC
		l.emit(in)
		return zero(), true
	case "__atomic_thread_fence":
		if !need(1) {
			return zero(), true
		}
		if o := l.orderArg(args[0], pos); o != ir.OrderRlx {
			in := l.ins(ir.IFence, pos)
			in.Order = o
			l.emit(in)
		}
		return zero(), true
	case "__atomic_signal_fence":
		return zero(), true
	case "__atomic_test_and_set":
		if !need(2) {
			return zero(), true
		}
		t := l.flagCell(args[0], pos)
		old := l.rmw(l.expr(args[0]), t, ir.RMWXchg, cnst(1, l.tr.scalarType(t, pos), pos), l.orderArg(args[1], pos), pos)
		return bin(ir.OpNe, old, cnst(0, old.Type, pos), l.tr.scalarType(rt, pos), pos), true
	case "__atomic_clear":
		if !need(2) {
			return zero(), true
		}
		t := l.flagCell(args[0], pos)
		store(args[0], cnst(0, l.tr.scalarType(t, pos), pos), l.orderArg(args[1], pos))
		return zero(), true
	case "__atomic_is_lock_free", "__atomic_always_lock_free":
		for _, a := range args {
			l.exprVoid(a)
		}
		return cnst(1, l.tr.scalarType(rt, pos), pos), true
	}
	// __atomic_fetch_OP, __atomic_OP_fetch, __sync_fetch_and_OP, __sync_OP_and_fetch.
	var op string
	var fetchFirst, sync bool
	switch {
	case strings.HasPrefix(name, "__atomic_fetch_"):
		op, fetchFirst = strings.TrimPrefix(name, "__atomic_fetch_"), true
	case strings.HasPrefix(name, "__atomic_") && strings.HasSuffix(name, "_fetch"):
		op = strings.TrimSuffix(strings.TrimPrefix(name, "__atomic_"), "_fetch")
	case strings.HasPrefix(name, "__sync_fetch_and_"):
		op, fetchFirst, sync = strings.TrimPrefix(name, "__sync_fetch_and_"), true, true
	case strings.HasPrefix(name, "__sync_") && strings.HasSuffix(name, "_and_fetch"):
		op, sync = strings.TrimSuffix(strings.TrimPrefix(name, "__sync_"), "_and_fetch"), true
	default:
		if strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__c11_atomic_") {
			l.tr.unsupported(pos, "atomic builtin %s", name)
			return zero(), true
		}
		return nil, false
	}
	// operands: the arity check, the order (seq_cst for __sync) and the
	// pointee type of a read-modify-write builtin.
	operands := func() (ir.Order, cc.Type, bool) {
		n := 3
		if sync {
			n = 2
		}
		if !need(n) {
			return ir.OrderSC, nil, false
		}
		o := ir.OrderSC
		if !sync {
			o = l.orderArg(args[2], pos)
		}
		return o, l.pointeeOf(args[0], pos), true
	}
	switch op {
	case "max", "min", "umax", "umin":
		o, t, ok := operands()
		if !ok {
			return zero(), true
		}
		if !isInteger(t) {
			l.tr.unsupported(pos, "atomic builtin %s on %s", name, t)
			return zero(), true
		}
		v := l.convert(l.expr(args[1]), args[1].Type(), t, pos)
		old, nv := l.minMax(l.expr(args[0]), t, op, v, o, pos)
		if fetchFirst {
			return old, true
		}
		return nv, true
	}
	kind, ok := rmwKinds[op]
	if !ok {
		l.tr.unsupported(pos, "atomic builtin %s", name)
		return zero(), true
	}
	o, t, ok := operands()
	if !ok {
		return zero(), true
	}
	if isPointer(t) {
		// gcc's builtins add bytes to a pointer, C11's atomic_fetch_add
		// (which gcc's stdatomic.h expands to __atomic_fetch_add) adds
		// elements: they agree on pointers to 1-byte objects only. The
		// __atomic_ builtins get C11's meaning (clang's, GenMC's).
		if sync && t.(*cc.PointerType).Elem().Size() != 1 {
			l.tr.unsupported(pos, "%s on %s (gcc adds bytes to the pointer, not elements)", name, t)
			return zero(), true
		}
		old, nv := l.pointerRMW(l.expr(args[0]), t, kind, l.expr(args[1]), o, pos)
		if fetchFirst {
			return old, true
		}
		return nv, true
	}
	v := l.convert(l.expr(args[1]), args[1].Type(), t, pos)
	old := l.rmw(l.expr(args[0]), t, kind, v, o, pos)
	if fetchFirst {
		return old, true
	}
	r := bin(rmwOps[kind], old, v, old.Type, pos)
	if kind == ir.RMWAdd || kind == ir.RMWSub {
		r = l.narrow(r, t, pos)
	}
	return r, true
}

// minMax is the atomic read-modify-write that stores the larger (max,
// umax) or smaller (min, umin) of the integer of type t at addr and v, as
// gcc's __atomic_fetch_max and __sync_fetch_and_umax: compared as unsigned
// for umax, umin and unsigned types, else as signed. It returns the old and
// the new value. It is a compare-exchange loop whose failed iterations
// spinNoOps discards.
func (l *fnl) minMax(addr *ir.Expr, t cc.Type, op string, v *ir.Expr, order ir.Order, pos ir.Pos) (old, nv *ir.Expr) {
	w, _ := intInfo(t)
	unsigned := op[0] == 'u' || !cc.IsSignedInteger(t)
	if addr.Kind != ir.ELocal && addr.Kind != ir.EConst && addr.Kind != ir.EGlobalAddr {
		tmp := l.temp(addr.Type, pos)
		l.assignLocal(tmp, addr, pos)
		addr = l.local(tmp, pos)
	}
	if v.Kind != ir.ELocal && v.Kind != ir.EConst {
		tmp := l.temp(v.Type, pos)
		l.assignLocal(tmp, v, pos)
		v = l.local(tmp, pos)
	}
	key := func(e *ir.Expr) *ir.Expr {
		switch {
		case !unsigned:
			return retype(e, ir.Int)
		case w < 64:
			return bin(ir.OpAnd, retype(e, ir.Int), cnst(int64(uint64(1)<<uint(w)-1), ir.Int, pos), ir.Int, pos)
		}
		return bin(ir.OpXor, retype(e, ir.Int), cnst(math.MinInt64, ir.Int, pos), ir.Int, pos)
	}
	cmp := ir.OpGt // v replaces the old value when v > old (max)
	if strings.HasSuffix(op, "min") {
		cmp = ir.OpLt
	}
	return l.casLoop(addr, t, func(o, n int) {
		l.assignLocal(n, l.local(o, pos), pos)
		take, keep := l.newLabel(), l.newLabel()
		l.branch(bin(cmp, key(v), key(l.local(o, pos)), ir.Bool, pos), take, keep, pos)
		l.bind(take)
		l.assignLocal(n, v, pos)
		l.bind(keep)
	}, order, pos)
}

// casLoop is an atomic read-modify-write of the t object at addr as a
// compare-exchange loop: a relaxed load of the old value into local o,
// body (which sets local n, the new value, from o), then a compare-exchange
// of o with n (order on success, relaxed on failure), repeated while it
// fails. A failed iteration changes nothing the next one reads, so
// spinNoOps discards it. It returns the old and the new value.
func (l *fnl) casLoop(addr *ir.Expr, t cc.Type, body func(o, n int), order ir.Order, pos ir.Pos) (old, nv *ir.Expr) {
	it := l.tr.scalarType(t, pos)
	if addr.Kind != ir.ELocal && addr.Kind != ir.EConst && addr.Kind != ir.EGlobalAddr {
		tmp := l.temp(addr.Type, pos)
		l.assignLocal(tmp, addr, pos)
		addr = l.local(tmp, pos)
	}
	ctr := l.loopCounter(pos)
	head, done := l.newLabel(), l.newLabel()
	l.bind(head)
	l.loopHead(ctr, 0, pos)
	o := l.temp(it, pos)
	ld := l.ins(ir.ILoad, pos)
	ld.Dst, ld.Addr, ld.Order = o, addr, ir.OrderRlx
	l.emit(ld)
	n := l.temp(it, pos)
	body(o, n)
	cas := l.ins(ir.ICAS, pos)
	cas.Dst = l.temp(it, pos)
	cas.Dst2 = l.temp(ir.Bool, pos)
	cas.Addr, cas.A, cas.B = addr, l.local(o, pos), l.local(n, pos)
	cas.Order, cas.FailOrder = order, ir.OrderRlx
	l.emit(cas)
	l.branch(l.local(cas.Dst2, pos), done, head, pos)
	l.bind(done)
	return l.local(o, pos), l.local(n, pos)
}
