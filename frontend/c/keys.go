package c

import (
	"fmt"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Thread-specific keys: pthread_key_create, pthread_setspecific,
// pthread_getspecific, pthread_key_delete and C11's tss_create, tss_set,
// tss_get, tss_delete.
//
// A key is an integer: the number of keys created before it, taken from a
// hidden counter by a seq_cst read-modify-write (so two threads creating
// keys get different ones). Each thread has maxKeys thread registers
// (ir.Program.TLS, no memory and no scheduling point), one per key, which
// start as NULL in every thread; setspecific and getspecific select the
// register of the key's number. Creating more than maxKeys keys in one
// execution is a bound hit (unknown), and a key destructor is unsupported
// (its calls at thread exit are not modelled). Deleting a key does nothing
// (a deleted key may not be used again): pthread_key_delete and
// tss_delete are no-ops (noOps).

// maxKeys is the number of thread-specific keys one execution may create.
const maxKeys = 8

// keyNames are the key functions, by name, with their argument counts.
var keyNames = map[string]int{
	"pthread_key_create": 2, "pthread_setspecific": 2, "pthread_getspecific": 1,
	"tss_create": 2, "tss_set": 2, "tss_get": 1,
}

// keyState returns the TLS slots of the keys and the hidden counter
// global, creating them on first use.
func (tr *translator) keyState(pos ir.Pos) (slots []int, counter int) {
	if tr.keySlots == nil {
		pt := &ir.Type{Kind: ir.TPtr}
		for i := 0; i < maxKeys; i++ {
			tr.keySlots = append(tr.keySlots, len(tr.prog.TLS))
			tr.prog.TLS = append(tr.prog.TLS, &ir.TLSVar{Name: fmt.Sprintf("key.%d", i), Type: pt, Pos: pos})
		}
		g := &ir.Global{Name: "key.next", Type: ir.Int, Init: []int64{0}, Pos: pos, Hidden: true}
		tr.keyCounter = len(tr.prog.Globals)
		g.Block = tr.keyCounter + 1
		tr.prog.Globals = append(tr.prog.Globals, g)
	}
	return tr.keySlots, tr.keyCounter
}

// threadKey lowers a call of a key function (keyNames) with its arguments
// already counted.
func (l *fnl) threadKey(name string, args []cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	rt := l.tr.scalarType(pe.Type(), pos)
	slots, counter := l.tr.keyState(pos)
	switch name {
	case "pthread_key_create", "tss_create":
		if !isNullPtrConst(args[1]) {
			l.tr.unsupported(l.tr.pos(args[1]), "%s with a destructor (calls at thread exit are not modelled)", name)
			return cnst(0, rt, pos)
		}
		in := l.ins(ir.IRMW, pos)
		in.Dst = l.temp(ir.Int, pos)
		in.Addr = &ir.Expr{Kind: ir.EGlobalAddr, Global: counter, Type: ptrOf(ir.Int), Pos: pos}
		in.A, in.RMW, in.Order = cnst(1, ir.Int, pos), ir.RMWAdd, ir.OrderSC
		l.emit(in)
		// more than maxKeys keys: a bound hit (the loop head counts
		// from the key's number)
		ctr := l.newLocal(fmt.Sprintf("key.bound.%d", len(l.f.Locals)), ir.Int, pos)
		l.assignLocal(ctr, l.local(in.Dst, pos), pos)
		lh := l.ins(ir.ILoopHead, pos)
		lh.Dst, lh.Bound = ctr, maxKeys
		l.emit(lh)
		var kt cc.Type
		if pt, ok := args[0].Type().(*cc.PointerType); ok {
			kt = pt.Elem()
		}
		if kt == nil || !isInteger(kt) {
			l.tr.unsupported(pos, "%s of a key that is not an integer", name)
			return cnst(0, rt, pos)
		}
		l.writeOut(args[0], l.convert(l.local(in.Dst, pos), l.tr.ast.LongLong, kt, pos), pos)
		return cnst(0, rt, pos)
	}
	key := l.temp(ir.Int, pos)
	l.assignLocal(key, retype(l.expr(args[0]), ir.Int), pos)
	var v *ir.Expr
	set := name == "pthread_setspecific" || name == "tss_set"
	if set {
		tmp := l.temp(&ir.Type{Kind: ir.TPtr}, pos)
		l.assignLocal(tmp, retype(l.expr(args[1]), &ir.Type{Kind: ir.TPtr}), pos)
		v = l.local(tmp, pos)
	}
	res := l.temp(rt, pos)
	if set {
		l.assignLocal(res, cnst(22, rt, pos), pos) // EINVAL (tss_set: thrd_error) for a key never created
	} else {
		l.assignLocal(res, cnst(0, rt, pos), pos) // NULL
	}
	end := l.newLabel()
	for i, s := range slots {
		this, next := l.newLabel(), l.newLabel()
		l.branch(bin(ir.OpEq, l.local(key, pos), cnst(int64(i), ir.Int, pos), ir.Bool, pos), this, next, pos)
		l.bind(this)
		if set {
			st := l.ins(ir.ITLSStore, pos)
			st.Slot, st.A = s, v
			l.emit(st)
			l.assignLocal(res, cnst(0, rt, pos), pos)
		} else {
			ld := l.ins(ir.ITLSLoad, pos)
			ld.Dst, ld.Slot = res, s
			l.emit(ld)
		}
		l.jump(end, pos)
		l.bind(next)
	}
	if name == "tss_set" {
		l.assignLocal(res, cnst(2, rt, pos), pos) // thrd_error
	}
	l.bind(end)
	return l.local(res, pos)
}
