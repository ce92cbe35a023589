package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Function pointers.
//
// The value of a function of the program used other than in a call
// (f, &f, stored, compared, passed) is a pointer into a block of its own
// that no object has: block funcPtrBlock + its index among the translated
// functions, offset 0. A call through a pointer compares the pointer with
// every function of the program that is used as a value and whose
// parameters and result match the call's function type (number of
// parameters, integer or pointer for each, void or not for the result)
// and calls the one it equals; a pointer that equals none (null, or a
// function of another type, whose call C leaves undefined) is a runtime
// error of the execution ("call through an invalid function pointer").
// Functions not defined in the program (library functions) cannot be
// used as values. A thread's start routine must still be named directly.

// funcPtrBlock is the first block number of function pointers: far above
// any global or heap block.
const funcPtrBlock = 1 << 30

// funcValue is the pointer value of the function d designates.
func (l *fnl) funcValue(d *cc.Declarator, pos ir.Pos) *ir.Expr {
	fi := l.tr.funcs[d.Name()]
	if fi == nil || !fi.addrTaken {
		l.tr.unsupported(pos, "function %s used as a value (only functions defined in the program can be pointed to)", d.Name())
		return cnst(0, &ir.Type{Kind: ir.TPtr}, pos)
	}
	return cnst(ir.MakePtr(funcPtrBlock+fi.id, 0), &ir.Type{Kind: ir.TPtr}, pos)
}

// callsPointer reports whether a call's callee is an object of pointer
// type (fp(x), s->op(x)) rather than a function designator.
func (l *fnl) callsPointer(pe *cc.PostfixExpression) bool {
	fn := unparen(pe.PostfixExpression)
	if d := identDecl(fn); d != nil {
		return d.Type() != nil && d.Type().Kind() == cc.Ptr
	}
	return false
}

// calleeType returns the function type a call's callee has (through one
// pointer), or nil.
func calleeType(pe *cc.PostfixExpression) *cc.FunctionType {
	t := pe.PostfixExpression.Type()
	if t != nil && t.Kind() == cc.Ptr {
		t = t.(*cc.PointerType).Elem()
	}
	ft, _ := t.(*cc.FunctionType)
	return ft
}

// scalarParams returns the parameter types of ft without a void one.
func scalarParams(ft *cc.FunctionType) []cc.Type {
	var ps []cc.Type
	for _, p := range ft.Parameters() {
		if p.Type().Kind() != cc.Void {
			ps = append(ps, p.Type().Decay())
		}
	}
	return ps
}

// matches reports whether a function of type have may be called through a
// pointer of function type want.
func matches(want, have *cc.FunctionType) bool {
	wp, hp := scalarParams(want), scalarParams(have)
	if len(wp) != len(hp) || want.IsVariadic() || have.IsVariadic() {
		return false
	}
	for i := range wp {
		if isPointer(wp[i]) != isPointer(hp[i]) || isInteger(wp[i]) != isInteger(hp[i]) || floatWidth(wp[i]) != floatWidth(hp[i]) {
			return false
		}
	}
	wv, hv := want.Result().Kind() == cc.Void, have.Result().Kind() == cc.Void
	return wv == hv && (wv || isPointer(want.Result()) == isPointer(have.Result()) && floatWidth(want.Result()) == floatWidth(have.Result()))
}

// indirectCall lowers a call through a function pointer (see above).
func (l *fnl) indirectCall(pe *cc.PostfixExpression, want bool) *ir.Expr {
	pos := l.tr.pos(pe)
	rt := l.tr.scalarType(pe.Type(), pos)
	ft := calleeType(pe)
	if ft == nil {
		l.tr.unsupported(pos, "call of an expression that is not a function or a function pointer")
		return cnst(0, rt, pos)
	}
	callee := pe.PostfixExpression
	if u, ok := unparen(callee).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionDeref {
		callee = u.CastExpression
	}
	fp := l.expr(callee)
	if fp.Kind != ir.ELocal && fp.Kind != ir.EConst {
		tmp := l.temp(&ir.Type{Kind: ir.TPtr}, pos)
		l.assignLocal(tmp, fp, pos)
		fp = l.local(tmp, pos)
	}
	args := callArgs(pe)
	ptypes := scalarParams(ft)
	if len(args) != len(ptypes) {
		l.tr.unsupported(pos, "call through a function pointer with %d arguments (its type has %d parameters)", len(args), len(ptypes))
		return cnst(0, rt, pos)
	}
	vals := make([]*ir.Expr, len(args))
	for i, a := range args {
		if t := a.Type(); t != nil && !isScalarC(t) && !l.designatesArray(a) && t.Kind() != cc.Function {
			l.tr.unsupported(l.tr.pos(a), "passing a %s by value", t)
			return cnst(0, rt, pos)
		}
		v := l.convert(l.expr(a), a.Type(), ptypes[i], l.tr.pos(a))
		tmp := l.temp(l.tr.scalarType(ptypes[i], pos), pos)
		l.assignLocal(tmp, v, pos)
		vals[i] = l.local(tmp, pos)
	}
	res := -1
	if want && ft.Result().Kind() != cc.Void {
		res = l.temp(rt, pos)
	}
	end := l.newLabel()
	for _, fi := range l.tr.funcList {
		if !fi.addrTaken || !matches(ft, fi.ftype) {
			continue
		}
		this, next := l.newLabel(), l.newLabel()
		l.branch(bin(ir.OpEq, fp, cnst(ir.MakePtr(funcPtrBlock+fi.id, 0), &ir.Type{Kind: ir.TPtr}, pos), ir.Bool, pos), this, next, pos)
		l.bind(this)
		l.fi.calls[fi.name] = true
		in := l.ins(ir.ICall, pos)
		in.Func = fi.f
		hp := scalarParams(fi.ftype)
		for i, v := range vals {
			in.Args = append(in.Args, l.convert(v, ptypes[i], hp[i], pos))
		}
		if res >= 0 && fi.f.Result != nil && fi.f.Result.Kind != ir.TVoid {
			in.Dst = l.temp(fi.f.Result, pos)
			l.emit(in)
			l.assignLocal(res, l.convert(l.local(in.Dst, pos), fi.ftype.Result(), pe.Type(), pos), pos)
		} else {
			l.emit(in)
		}
		l.jump(end, pos)
		l.bind(next)
	}
	l.fail("call through an invalid function pointer", pos)
	l.bind(end)
	if res < 0 {
		return cnst(0, rt, pos)
	}
	return l.local(res, pos)
}
