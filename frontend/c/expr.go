package c

import (
	"math"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// scalarType maps a C scalar type (integer, pointer, pthread_t) to IR.
func (tr *translator) scalarType(t cc.Type, pos ir.Pos) *ir.Type {
	if t == nil {
		return ir.Int
	}
	if pthreadKind(t) == "pthread_t" {
		return ir.Thread
	}
	switch {
	case t.Kind() == cc.Void:
		return ir.Void
	case isPointer(t):
		return tr.ptrType(t)
	case isInteger(t):
		if t.Size() > 8 {
			tr.unsupported(pos, "128-bit integers")
			return ir.Int
		}
		return tr.intType(t)
	case isFloat(t):
		return floatType(floatWidth(t))
	case cc.IsFloatingPointType(t) || cc.IsComplexType(t):
		tr.unsupported(pos, "floating-point values of type %s (float, double and long double are supported)", t)
		return ir.Int
	}
	return tr.irType(t, pos)
}

// intInfo returns the width and signedness of a C integer type (bool: 1,
// unsigned).
func intInfo(t cc.Type) (int, bool) {
	if t.Kind() == cc.Bool {
		return 1, false
	}
	if et, ok := t.(*cc.EnumType); ok {
		t = et.UnderlyingType()
	}
	return int(t.Size()) * 8, cc.IsSignedInteger(t)
}

// fits reports whether every value of integer type from is a value of
// integer type to in the IR's representation (so no ECast is needed).
func fits(from, to cc.Type) bool {
	if from.Kind() == cc.Bool {
		return true
	}
	wf, sf := intInfo(from)
	wt, st := intInfo(to)
	if to.Kind() == cc.Bool {
		return false
	}
	return wt >= 64 || (sf == st && wt >= wf) || (!sf && st && wt > wf)
}

func isU64(t cc.Type) bool {
	if !isInteger(t) {
		return false
	}
	w, s := intInfo(t)
	return w == 64 && !s
}

// convert converts the value e of C type from to C type to.
func (l *fnl) convert(e *ir.Expr, from, to cc.Type, pos ir.Pos) *ir.Expr {
	if from == nil || to == nil || to.Kind() == cc.Void {
		return e
	}
	if isFloat(from) || isFloat(to) {
		return l.convertFloat(e, from, to, pos)
	}
	if cc.IsFloatingPointType(from) || cc.IsFloatingPointType(to) || cc.IsComplexType(from) || cc.IsComplexType(to) {
		l.tr.unsupported(pos, "floating-point values of type %s (float, double and long double are supported)", map[bool]cc.Type{true: from, false: to}[cc.IsFloatingPointType(from) || cc.IsComplexType(from)])
		return e
	}
	tt := l.tr.scalarType(to, pos)
	switch {
	case to.Kind() == cc.Bool:
		if from.Kind() == cc.Bool {
			return retype(e, ir.Bool)
		}
		return castTo(e, ir.Bool, pos)
	case isInteger(to):
		if isInteger(from) && !fits(from, to) {
			return castTo(e, tt, pos)
		}
		// Pointer-to-integer conversions keep the whole pointer value.
		return retype(e, tt)
	case isPointer(to):
		return retype(e, tt)
	}
	return e
}

// ---- lvalues ----

// lval is an object designated by an lvalue expression: a register local,
// or a memory location given by its address.
type lval struct {
	reg    int      // register slot, or -1
	tls    int      // 1 + the thread register (prog.TLS) of a thread-local variable, or 0
	addr   *ir.Expr // memory address (reg < 0)
	t      cc.Type  // object type
	atomic bool     // _Atomic object: plain accesses are sc
	konst  *int64   // const global: reads fold to this
}

func (lv lval) isReg() bool { return lv.reg >= 0 }

// globalFor returns the global a declarator refers to, or nil.
func (l *fnl) globalFor(d *cc.Declarator) *gvar {
	if gv, ok := l.tr.statics[d]; ok {
		return gv
	}
	if sd, ok := l.tr.staticDecls[d]; ok {
		return l.tr.staticLocal(sd.fi, d, sd.init)
	}
	if _, local := l.locals[d]; local {
		return nil
	}
	if d.Linkage() == cc.None && !d.IsExtern() && !d.IsStatic() {
		return nil // a block-scope object the lowering has not seen
	}
	return l.tr.globals[d.Name()]
}

// lvalue lowers an lvalue expression to the object it designates.
func (l *fnl) lvalue(n cc.ExpressionNode) lval {
	pos := l.tr.pos(n)
	bad := lval{reg: -1, addr: cnst(0, &ir.Type{Kind: ir.TPtr}, pos), t: l.tr.ast.Int}
	switch x := unparen(n).(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			d, ok := x.ResolvedTo().(*cc.Declarator)
			if !ok {
				l.tr.unsupported(pos, "%s is not an object", x.Token.SrcStr())
				return bad
			}
			if lv, ok := l.locals[d]; ok {
				if lv.mem {
					return lval{reg: -1, addr: l.memAddr(lv, pos), t: lv.t, atomic: lv.atomic}
				}
				return lval{reg: lv.slot, t: lv.t, atomic: lv.atomic}
			}
			if gv := l.globalFor(d); gv != nil {
				if gv.tlsSlot > 0 {
					return lval{reg: -1, tls: gv.tlsSlot, t: gv.ctype}
				}
				if gv.tls != nil {
					return lval{reg: -1, addr: l.tlsAddr(gv, pos), t: gv.ctype, atomic: gv.atomic}
				}
				return lval{reg: -1, addr: &ir.Expr{Kind: ir.EGlobalAddr, Global: gv.idx, Type: ptrOf(gv.g.Type), Pos: pos}, t: gv.ctype, atomic: gv.atomic, konst: gv.konst}
			}
			if d.Type() != nil && d.Type().Kind() == cc.Function {
				l.tr.unsupported(pos, "function %s used as a value (function pointers)", d.Name())
				return bad
			}
			if _, ext := l.tr.externs[d.Name()]; ext {
				l.tr.unsupported(pos, "%s is declared extern but not defined in the program", d.Name())
				return bad
			}
			if l == l.tr.cl && d.Linkage() == cc.None && !d.IsStatic() {
				// a local in an initializer tried as a constant
				// (constValue): not constant, which an instruction says
				l.emit(l.ins(ir.INop, pos))
				return bad
			}
			l.tr.unsupported(pos, "reference to %s", d.Name())
			return bad
		case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
			return lval{reg: -1, addr: l.stringAddr(x, pos), t: x.Type()}
		case cc.PrimaryExpressionStmt:
			if lv, ok := l.stmtExprLvalue(x.CompoundStatement, pos); ok {
				return lv
			}
			l.tr.unsupported(pos, "statement expression used as an lvalue")
			return bad
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex:
			return l.index(x)
		case cc.PostfixExpressionSelect:
			base := l.lvalue(x.PostfixExpression)
			if base.isReg() {
				l.tr.unsupported(pos, "member of a register value")
				return bad
			}
			f := x.Field()
			if f == nil {
				l.tr.unsupported(pos, "member access")
				return bad
			}
			if base.atomic && isRecordC(base.t) {
				l.tr.unsupported(pos, "member %s of an atomic struct or union (undefined in C: use atomic members)", f.Name())
				return bad
			}
			off := l.tr.fieldOffset(base.t, f, pos)
			return lval{reg: -1, addr: fieldAddr(base.addr, off, pos), t: f.Type(), atomic: l.tr.fieldAtomic(f)}
		case cc.PostfixExpressionPSelect:
			pt := x.PostfixExpression.Type()
			p := l.expr(x.PostfixExpression)
			f := x.Field()
			if f == nil || !isPointer(pt) {
				l.tr.unsupported(pos, "member access")
				return bad
			}
			if exprPointsToAtomic(x.PostfixExpression) && isRecordC(pt.(*cc.PointerType).Elem()) {
				l.tr.unsupported(pos, "member %s of an atomic struct or union (undefined in C: use atomic members)", f.Name())
				return bad
			}
			off := l.tr.fieldOffset(pt.(*cc.PointerType).Elem(), f, pos)
			return lval{reg: -1, addr: fieldAddr(p, off, pos), t: f.Type(), atomic: l.tr.fieldAtomic(f)}
		case cc.PostfixExpressionComplit:
			l.tr.unsupported(pos, "compound literals")
			return bad
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			pt := x.CastExpression.Type()
			p := l.expr(x.CastExpression)
			if !isPointer(pt) {
				l.tr.unsupported(pos, "dereference of %s", pt)
				return bad
			}
			et := l.pointee(pt, x.CastExpression)
			return lval{reg: -1, addr: p, t: et, atomic: typeAtomic(et) || exprPointsToAtomic(x.CastExpression)}
		}
	}
	l.tr.unsupported(pos, "expression used as an lvalue")
	return bad
}

// pointee returns the type a pointer-typed expression points to. For a
// pointer obtained by decaying an array of arrays it is the inner array.
func (l *fnl) pointee(pt cc.Type, _ cc.ExpressionNode) cc.Type {
	return pt.(*cc.PointerType).Elem()
}

func ptrOf(t *ir.Type) *ir.Type {
	if t.Kind == ir.TRecord {
		return ir.PtrTo(t.Record)
	}
	return &ir.Type{Kind: ir.TPtr}
}

// fieldAtomic reports whether a struct member is declared _Atomic.
// typeAtomic reports whether t is an atomic type by its typedef (atomic_int
// and the other <stdatomic.h> names): the element of an array of them, or
// what a pointer to one points to, is an atomic object.
func typeAtomic(t cc.Type) bool {
	if t == nil {
		return false
	}
	td := t.Typedef()
	return td != nil && td.IsAtomic()
}

func (tr *translator) fieldAtomic(f *cc.Field) bool {
	if td := f.Type().Typedef(); td != nil && td.IsAtomic() {
		return true
	}
	if d := f.Declarator(); d != nil {
		atomic, pointee := atomicDeclarator(d)
		if pointee {
			tr.unsupported(tr.pos(d), "_Atomic on the type a pointer member points to (use a typedef such as atomic_int *, or atomic_load/atomic_store)")
		}
		return atomic
	}
	return false
}

// designatesArray reports whether n is an lvalue of array type (which
// decays to the address of its first element).
func (l *fnl) designatesArray(n cc.ExpressionNode) bool {
	n = unparen(n)
	if d := identDecl(n); d != nil {
		if lv, ok := l.locals[d]; ok {
			return lv.t.Kind() == cc.Array
		}
		if gv := l.globalFor(d); gv != nil {
			return gv.ctype.Kind() == cc.Array
		}
		return false
	}
	switch x := n.(type) {
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
		default:
			return false
		}
	case *cc.UnaryExpression:
		if x.Case != cc.UnaryExpressionDeref {
			return false
		}
	default:
		return false
	}
	t := n.Type()
	return t != nil && t.Kind() == cc.Ptr && t.Undecay().Kind() == cc.Array
}

// index lowers a[i] (or i[a]).
func (l *fnl) index(x *cc.PostfixExpression) lval {
	pos := l.tr.pos(x)
	base, idx := x.PostfixExpression, x.ExpressionList
	if isInteger(base.Type()) && isPointer(idx.Type()) {
		base, idx = idx, base
	}
	if l.designatesArray(base) {
		arr := l.lvalue(base)
		at, ok := arr.t.(*cc.ArrayType)
		if ok && !arr.isReg() {
			elem := at.Elem()
			i := l.expr(idx)
			n := int(at.Len())
			if at.IsVLA() {
				n = vlaCapacity // under-approximated (Options.UnderApproximate)
			}
			return lval{reg: -1, t: elem, atomic: arr.atomic || typeAtomic(elem), addr: &ir.Expr{Kind: ir.EIndex, A: arr.addr, B: i, Len: n,
				Stride: l.tr.cells(elem, pos), Type: &ir.Type{Kind: ir.TPtr}, Pos: pos}}
		}
	}
	pt := base.Type()
	if !isPointer(pt) {
		l.tr.unsupported(pos, "indexing %s", pt)
		return lval{reg: -1, addr: cnst(0, &ir.Type{Kind: ir.TPtr}, pos), t: l.tr.ast.Int}
	}
	p := l.expr(base)
	i := l.expr(idx)
	elem := pt.(*cc.PointerType).Elem()
	return lval{reg: -1, t: elem, atomic: typeAtomic(elem) || exprPointsToAtomic(base), addr: l.ptrAdd(p, i, idx.Type(), l.tr.cells(elem, pos), ir.OpAdd, pos)}
}

// ptrAdd computes p +/- i*stride.
func (l *fnl) ptrAdd(p, i *ir.Expr, it cc.Type, stride int, op ir.Operator, pos ir.Pos) *ir.Expr {
	pt := p.Type
	if pt == nil || pt.Kind != ir.TPtr {
		pt = &ir.Type{Kind: ir.TPtr}
	}
	off := bin(ir.OpMul, retype(i, ir.Int), cnst(int64(stride), ir.Int, pos), ir.Int, pos)
	return bin(op, p, off, pt, pos)
}

// load reads the object lv (one ILoad for a memory object).
func (l *fnl) load(lv lval, pos ir.Pos) *ir.Expr {
	t := l.tr.scalarType(lv.t, pos)
	if lv.konst != nil {
		return cnst(*lv.konst, t, pos)
	}
	if lv.isReg() {
		return l.local(lv.reg, pos)
	}
	if lv.tls > 0 {
		tmp := l.temp(t, pos)
		in := l.ins(ir.ITLSLoad, pos)
		in.Dst, in.Slot = tmp, lv.tls-1
		l.emit(in)
		return l.local(tmp, pos)
	}
	if !isScalarC(lv.t) && pthreadKind(lv.t) != "pthread_t" {
		l.tr.unsupported(pos, "value of type %s used as a whole", lv.t)
		return cnst(0, ir.Int, pos)
	}
	tmp := l.temp(t, pos)
	in := l.ins(ir.ILoad, pos)
	in.Dst, in.Addr = tmp, lv.addr
	if lv.atomic {
		in.Order = ir.OrderSC
	}
	l.emit(in)
	if l.tr.punCast && t.Kind == ir.TInt && t.Width > 0 && t.Width < 64 {
		// The cell may have been written through a union member of
		// the other signedness (union.go).
		return castTo(l.local(tmp, pos), t, pos)
	}
	return l.local(tmp, pos)
}

// loadCell reads cell i of the memory object lv.
func (l *fnl) loadCell(lv lval, i int, pos ir.Pos) *ir.Expr {
	tmp := l.temp(ir.Int, pos)
	in := l.ins(ir.ILoad, pos)
	in.Dst, in.Addr = tmp, fieldAddr(lv.addr, i, pos)
	l.emit(in)
	return l.local(tmp, pos)
}

// store writes v (already converted to lv's type) to lv.
func (l *fnl) store(lv lval, v *ir.Expr, pos ir.Pos) {
	if lv.isReg() {
		l.assignLocal(lv.reg, v, pos)
		return
	}
	if lv.tls > 0 {
		in := l.ins(ir.ITLSStore, pos)
		in.Slot, in.A = lv.tls-1, v
		l.emit(in)
		return
	}
	if !isScalarC(lv.t) && pthreadKind(lv.t) != "pthread_t" {
		l.tr.unsupported(pos, "assignment of a value of type %s", lv.t)
		return
	}
	in := l.ins(ir.IStore, pos)
	in.Addr, in.A = lv.addr, v
	if lv.atomic {
		in.Order = ir.OrderSC
	}
	l.emit(in)
}

// ---- rvalues ----

// exprVoid evaluates n for its side effects only.
func (l *fnl) exprVoid(n cc.ExpressionNode) {
	switch x := unparen(n).(type) {
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			l.assign(x, false)
			return
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionCall:
			l.call(x, false)
			return
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			l.incDec(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, false, false, l.tr.pos(x))
			return
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			l.incDec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, true, false, l.tr.pos(x))
			return
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			l.exprVoid(x.CastExpression)
			return
		}
	case *cc.ExpressionList:
		for el := x; el != nil; el = el.ExpressionList {
			l.exprVoid(el.AssignmentExpression)
		}
		return
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			l.conditional(x, false)
			return
		}
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionStmt {
			l.stmtExpr(x.CompoundStatement, false)
			return
		}
		if x.Case == cc.PrimaryExpressionExpr {
			l.exprVoid(x.ExpressionList)
			return
		}
		if x.Case == cc.PrimaryExpressionIdent || x.Case == cc.PrimaryExpressionInt || x.Case == cc.PrimaryExpressionChar {
			return
		}
	case *cc.LogicalAndExpression, *cc.LogicalOrExpression:
		end := l.newLabel()
		l.cond(n, end, end)
		l.bind(end)
		return
	}
	if t := n.Type(); t != nil && (t.Kind() == cc.Void || isRecordC(t)) {
		l.tr.unsupported(l.tr.pos(n), "expression of type %s", t)
		return
	}
	l.expr(n)
}

// expr lowers the rvalue n; the result is a pure IR expression of n's C type.
func (l *fnl) expr(n cc.ExpressionNode) *ir.Expr {
	pos := l.tr.pos(n)
	if n == nil {
		return cnst(0, ir.Int, pos)
	}
	n = unparen(n)
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		return l.primary(x)
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return l.expr(x.PrimaryExpression)
		case cc.PostfixExpressionCall:
			return l.call(x, true)
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			return l.incDec(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, false, true, pos)
		}
		return l.objectValue(n)
	case *cc.UnaryExpression:
		return l.unary(x)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return l.expr(x.UnaryExpression)
		}
		to := x.TypeName.Type()
		if to.Kind() == cc.Void {
			l.exprVoid(x.CastExpression)
			return cnst(0, ir.Int, pos)
		}
		if !isScalarC(to) {
			l.tr.unsupported(pos, "cast to %s", to)
			return cnst(0, ir.Int, pos)
		}
		return l.convert(l.expr(x.CastExpression), x.CastExpression.Type(), to, pos)
	case *cc.MultiplicativeExpression:
		switch x.Case {
		case cc.MultiplicativeExpressionMul:
			return l.arith(ir.OpMul, x.MultiplicativeExpression, x.CastExpression, x.Type(), pos)
		case cc.MultiplicativeExpressionDiv:
			return l.arith(ir.OpDiv, x.MultiplicativeExpression, x.CastExpression, x.Type(), pos)
		case cc.MultiplicativeExpressionMod:
			return l.arith(ir.OpMod, x.MultiplicativeExpression, x.CastExpression, x.Type(), pos)
		}
		return l.expr(x.CastExpression)
	case *cc.AdditiveExpression:
		switch x.Case {
		case cc.AdditiveExpressionAdd:
			return l.additive(ir.OpAdd, x.AdditiveExpression, x.MultiplicativeExpression, x.Type(), pos)
		case cc.AdditiveExpressionSub:
			return l.additive(ir.OpSub, x.AdditiveExpression, x.MultiplicativeExpression, x.Type(), pos)
		}
		return l.expr(x.MultiplicativeExpression)
	case *cc.ShiftExpression:
		switch x.Case {
		case cc.ShiftExpressionLsh:
			return l.shift(ir.OpShl, x.ShiftExpression, x.AdditiveExpression, x.Type(), pos)
		case cc.ShiftExpressionRsh:
			return l.shift(ir.OpShr, x.ShiftExpression, x.AdditiveExpression, x.Type(), pos)
		}
		return l.expr(x.AdditiveExpression)
	case *cc.RelationalExpression:
		ops := map[cc.RelationalExpressionCase]ir.Operator{cc.RelationalExpressionLt: ir.OpLt, cc.RelationalExpressionGt: ir.OpGt,
			cc.RelationalExpressionLeq: ir.OpLe, cc.RelationalExpressionGeq: ir.OpGe}
		if op, ok := ops[x.Case]; ok {
			return l.compare(op, x.RelationalExpression, x.ShiftExpression, x.Type(), pos)
		}
		return l.expr(x.ShiftExpression)
	case *cc.EqualityExpression:
		switch x.Case {
		case cc.EqualityExpressionEq:
			return l.compare(ir.OpEq, x.EqualityExpression, x.RelationalExpression, x.Type(), pos)
		case cc.EqualityExpressionNeq:
			return l.compare(ir.OpNe, x.EqualityExpression, x.RelationalExpression, x.Type(), pos)
		}
		return l.expr(x.RelationalExpression)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionAnd {
			return l.arith(ir.OpAnd, x.AndExpression, x.EqualityExpression, x.Type(), pos)
		}
		return l.expr(x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionXor {
			return l.arith(ir.OpXor, x.ExclusiveOrExpression, x.AndExpression, x.Type(), pos)
		}
		return l.expr(x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionOr {
			return l.arith(ir.OpOr, x.InclusiveOrExpression, x.ExclusiveOrExpression, x.Type(), pos)
		}
		return l.expr(x.ExclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			return l.logical(n, ir.OpLAnd, x.LogicalAndExpression, x.InclusiveOrExpression, x.Type(), pos)
		}
		return l.expr(x.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			return l.logical(n, ir.OpLOr, x.LogicalOrExpression, x.LogicalAndExpression, x.Type(), pos)
		}
		return l.expr(x.LogicalAndExpression)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			return l.conditional(x, true)
		}
		return l.expr(x.LogicalOrExpression)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return l.expr(x.ConditionalExpression)
		}
		return l.assign(x, true)
	case *cc.ExpressionList:
		var v *ir.Expr
		for el := x; el != nil; el = el.ExpressionList {
			if el.ExpressionList == nil {
				v = l.expr(el.AssignmentExpression)
			} else {
				l.exprVoid(el.AssignmentExpression)
			}
		}
		return v
	}
	l.tr.unsupported(pos, "expression %T", n)
	return cnst(0, ir.Int, pos)
}

func (l *fnl) primary(x *cc.PrimaryExpression) *ir.Expr {
	pos := l.tr.pos(x)
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		switch r := x.ResolvedTo().(type) {
		case *cc.Enumerator:
			if v, ok := l.tr.constInt(x); ok {
				return cnst(v, l.tr.scalarType(x.Type(), pos), pos)
			}
			l.tr.unsupported(pos, "enumerator %s", r.Token.SrcStr())
			return cnst(0, ir.Int, pos)
		}
		return l.objectValue(x)
	case cc.PrimaryExpressionInt, cc.PrimaryExpressionChar, cc.PrimaryExpressionLChar:
		v, ok := l.tr.constInt(x)
		if !ok {
			l.tr.unsupported(pos, "integer constant %s", x.Token.SrcStr())
		}
		return cnst(castVal(v, l.tr.scalarType(x.Type(), pos)), l.tr.scalarType(x.Type(), pos), pos)
	case cc.PrimaryExpressionFloat:
		return l.floatLiteral(x, pos)
	case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
		return l.stringAddr(x, pos)
	case cc.PrimaryExpressionExpr:
		return l.expr(x.ExpressionList)
	case cc.PrimaryExpressionStmt:
		return l.stmtExpr(x.CompoundStatement, true)
	case cc.PrimaryExpressionGeneric:
		if a := x.GenericSelection.Associated(); a != nil {
			return l.expr(a.AssignmentExpression)
		}
	}
	l.tr.unsupported(pos, "expression")
	return cnst(0, ir.Int, pos)
}

// objectValue is the value of an lvalue expression: a load, or the address
// of an array.
func (l *fnl) objectValue(n cc.ExpressionNode) *ir.Expr {
	pos := l.tr.pos(n)
	if l.designatesArray(n) {
		lv := l.lvalue(n)
		if lv.isReg() {
			l.tr.unsupported(pos, "array in a register")
			return cnst(0, ir.Int, pos)
		}
		return retype(lv.addr, l.tr.scalarType(n.Type(), pos))
	}
	if d := identDecl(n); d != nil && d.Type() != nil && d.Type().Kind() == cc.Function {
		return l.funcValue(d, pos)
	}
	if t := n.Type(); isRecordC(t) {
		l.tr.unsupported(pos, "struct or union value used as a whole (%s)", t)
		return cnst(0, ir.Int, pos)
	}
	return l.load(l.lvalue(n), pos)
}

func (l *fnl) unary(x *cc.UnaryExpression) *ir.Expr {
	pos := l.tr.pos(x)
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return l.expr(x.PostfixExpression)
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		return l.incDec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, true, true, pos)
	case cc.UnaryExpressionAddrof:
		return l.addrOf(x.CastExpression, x.Type(), pos)
	case cc.UnaryExpressionDeref:
		if t := x.CastExpression.Type(); isPointer(t) && t.(*cc.PointerType).Elem().Kind() == cc.Function || t != nil && t.Kind() == cc.Function {
			return l.expr(x.CastExpression) // *fp is the function fp points to
		}
		return l.objectValue(x)
	case cc.UnaryExpressionPlus:
		return l.convert(l.expr(x.CastExpression), x.CastExpression.Type(), x.Type(), pos)
	case cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
		rt := x.Type()
		v := l.convert(l.expr(x.CastExpression), x.CastExpression.Type(), rt, pos)
		it := l.tr.scalarType(rt, pos)
		if isFloat(rt) && x.Case == cc.UnaryExpressionMinus {
			return un(ir.OpFNeg, v, it, pos)
		}
		op := ir.OpNeg
		if x.Case == cc.UnaryExpressionCpl {
			op = ir.OpBitNot
		}
		return l.narrow(un(op, v, it, pos), rt, pos)
	case cc.UnaryExpressionNot:
		v := l.truth(x.CastExpression)
		return un(ir.OpNot, v, l.tr.scalarType(x.Type(), pos), pos)
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		v, ok := l.tr.constInt(x)
		if !ok {
			l.tr.unsupported(pos, "sizeof of a variable-length array")
		}
		return cnst(v, l.tr.scalarType(x.Type(), pos), pos)
	}
	l.tr.unsupported(pos, "operator %s", x.Token.SrcStr())
	return cnst(0, ir.Int, pos)
}

// narrow wraps the 64-bit result of an operation around to C type t.
func (l *fnl) narrow(e *ir.Expr, t cc.Type, pos ir.Pos) *ir.Expr {
	if !isInteger(t) {
		return e
	}
	w, _ := intInfo(t)
	if w >= 64 && t.Kind() != cc.Bool {
		return e
	}
	return castTo(e, l.tr.scalarType(t, pos), pos)
}

// addrOf lowers &n.
func (l *fnl) addrOf(n cc.ExpressionNode, rt cc.Type, pos ir.Pos) *ir.Expr {
	n = unparen(n)
	if d := identDecl(n); d != nil && d.Type() != nil && d.Type().Kind() == cc.Function {
		return l.funcValue(d, pos)
	}
	if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionDeref {
		return retype(l.expr(u.CastExpression), l.tr.scalarType(rt, pos)) // &*p == p
	}
	lv := l.lvalue(n)
	if lv.isReg() || lv.tls > 0 {
		l.tr.unsupported(pos, "address of a register local")
		return cnst(0, ir.Int, pos)
	}
	a := lv.addr
	// Addresses relative to a constant (null) base, as in offsetof:
	// &((T*)0)->m is the member's cell offset.
	if v, ok := evalAddrConst(a); ok {
		return cnst(v, l.tr.scalarType(rt, pos), pos)
	}
	if a.Kind == ir.EIndex {
		// &a[i] may point one past the end: no bounds check.
		a = bin(ir.OpAdd, a.A, bin(ir.OpMul, retype(a.B, ir.Int), cnst(int64(a.Stride), ir.Int, pos), ir.Int, pos), a.Type, pos)
	}
	return retype(a, l.tr.scalarType(rt, pos))
}

// evalAddrConst folds an address computed from a constant base (for
// offsetof) that is not a global's.
func evalAddrConst(a *ir.Expr) (int64, bool) {
	switch a.Kind {
	case ir.EConst:
		return a.Val, true
	case ir.EField:
		b, ok := evalAddrConst(a.A)
		if !ok {
			return 0, false
		}
		return b + int64(a.Offset), true
	case ir.EBinary:
		if a.Op != ir.OpAdd && a.Op != ir.OpSub {
			return 0, false
		}
		x, ok1 := evalAddrConst(a.A)
		y, ok2 := evalAddrConst(a.B)
		if !ok1 || !ok2 {
			return 0, false
		}
		v, _ := foldBin(a.Op, x, y)
		return v, true
	}
	return 0, false
}

// truth lowers n for its truth value (non-zero is true).
func (l *fnl) truth(n cc.ExpressionNode) *ir.Expr {
	if v := l.nondetTruth(n); v != nil {
		return v
	}
	if w := floatWidth(n.Type()); w > 0 {
		return floatTruth(l.expr(n), w, ir.Bool, l.tr.pos(n))
	}
	return l.expr(n)
}

// arith lowers a binary arithmetic or bitwise operator in the common type rt.
func (l *fnl) arith(op ir.Operator, a, b cc.ExpressionNode, rt cc.Type, pos ir.Pos) *ir.Expr {
	if isFloat(rt) {
		av := l.convert(l.expr(a), a.Type(), rt, pos)
		bv := l.convert(l.expr(b), b.Type(), rt, pos)
		return l.floatBin(op, av, bv, rt, nil, pos)
	}
	if !isInteger(rt) {
		l.tr.unsupported(pos, "arithmetic on %s", rt)
		return cnst(0, ir.Int, pos)
	}
	av := l.convert(l.expr(a), a.Type(), rt, pos)
	bv := l.convert(l.expr(b), b.Type(), rt, pos)
	it := l.tr.scalarType(rt, pos)
	if isU64(rt) && (op == ir.OpDiv || op == ir.OpMod) {
		return udiv64(av, bv, op == ir.OpMod, it, pos)
	}
	r := bin(op, av, bv, it, pos)
	switch op {
	case ir.OpAnd, ir.OpOr, ir.OpXor:
		return r // canonical operands give a canonical result
	}
	return l.narrow(r, rt, pos)
}

// additive lowers + and -, including pointer arithmetic.
func (l *fnl) additive(op ir.Operator, a, b cc.ExpressionNode, rt cc.Type, pos ir.Pos) *ir.Expr {
	at, bt := a.Type(), b.Type()
	switch {
	case isPointer(at) && isPointer(bt):
		// p - q: the number of elements between them.
		pv, qv := l.expr(a), l.expr(b)
		stride := l.tr.cells(at.(*cc.PointerType).Elem(), pos)
		d := bin(ir.OpSub, retype(pv, ir.Int), retype(qv, ir.Int), ir.Int, pos)
		if stride != 1 {
			d = bin(ir.OpDiv, d, cnst(int64(stride), ir.Int, pos), ir.Int, pos)
		}
		return l.narrow(retype(d, l.tr.scalarType(rt, pos)), rt, pos)
	case isPointer(at) || isPointer(bt):
		p, i, it := a, b, bt
		if isPointer(bt) {
			p, i, it = b, a, at
		}
		l.checkByteArith(p, i, pos)
		pt := p.Type().(*cc.PointerType)
		pv := l.expr(p)
		iv := l.expr(i)
		return retype(l.ptrAdd(pv, iv, it, l.tr.cells(pt.Elem(), pos), op, pos), l.tr.scalarType(rt, pos))
	}
	return l.arith(op, a, b, rt, pos)
}

// checkByteArith rejects arithmetic on a pointer cast to a character (or
// void) pointer from a pointer to something else, unless the offset is an
// offsetof: memory is made of cells, not bytes.
func (l *fnl) checkByteArith(p, i cc.ExpressionNode, pos ir.Pos) {
	c, ok := unparen(p).(*cc.CastExpression)
	if !ok || c.Case != cc.CastExpressionCast {
		return
	}
	to, from := c.TypeName.Type(), c.CastExpression.Type()
	if !isPointer(to) || !isPointer(from) {
		return
	}
	te, fe := to.(*cc.PointerType).Elem(), from.(*cc.PointerType).Elem()
	if te.Kind() != cc.Void && te.Size() != 1 || fe.Kind() == cc.Void || fe.Size() == 1 {
		return
	}
	if isOffsetof(i) {
		return
	}
	l.tr.unsupported(pos, "byte-wise pointer arithmetic (memory is modelled as one cell per scalar)")
}

// isOffsetof reports whether e is an offsetof expression: &((T*)0)->m,
// possibly cast.
func isOffsetof(e cc.ExpressionNode) bool {
	found := false
	walk(e, func(n any) bool {
		if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
			if p, ok := unparen(u.CastExpression).(*cc.PostfixExpression); ok && p.Case == cc.PostfixExpressionPSelect {
				if c, ok := unparen(p.PostfixExpression).(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast {
					if v, ok := c.CastExpression.Value().(cc.Int64Value); ok && v == 0 {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// shift lowers << and >>; the result has the promoted type of the left operand.
func (l *fnl) shift(op ir.Operator, a, b cc.ExpressionNode, rt cc.Type, pos ir.Pos) *ir.Expr {
	av := l.convert(l.expr(a), a.Type(), rt, pos)
	bv := l.expr(b)
	it := l.tr.scalarType(rt, pos)
	if op == ir.OpShr && isU64(rt) {
		// Logical shift of a 64-bit value: (a >> b) & ^(-2 << (63 - b)).
		sh := bin(ir.OpShr, av, bv, it, pos)
		mask := un(ir.OpBitNot, bin(ir.OpShl, cnst(-2, ir.Int, pos), bin(ir.OpSub, cnst(63, ir.Int, pos), retype(bv, ir.Int), ir.Int, pos), ir.Int, pos), ir.Int, pos)
		return bin(ir.OpAnd, sh, mask, it, pos)
	}
	r := bin(op, av, bv, it, pos)
	if op == ir.OpShr {
		return r
	}
	return l.narrow(r, rt, pos)
}

// compare lowers a relational or equality operator.
func (l *fnl) compare(op ir.Operator, a, b cc.ExpressionNode, rt cc.Type, pos ir.Pos) *ir.Expr {
	at, bt := a.Type(), b.Type()
	it := l.tr.scalarType(rt, pos)
	if isPointer(at) || isPointer(bt) {
		av, bv := l.expr(a), l.expr(b)
		return bin(op, retype(av, ir.Int), retype(bv, ir.Int), it, pos)
	}
	if isArith(at) && isArith(bt) && (isFloat(at) || isFloat(bt)) {
		ct := cc.UsualArithmeticConversions(at, bt)
		av := l.convert(l.expr(a), at, ct, pos)
		bv := l.convert(l.expr(b), bt, ct, pos)
		return l.floatBin(op, av, bv, ct, it, pos)
	}
	if !isInteger(at) || !isInteger(bt) {
		l.tr.unsupported(pos, "comparison of %s and %s", at, bt)
		return cnst(0, it, pos)
	}
	ct := cc.UsualArithmeticConversions(at, bt)
	av := l.convert(l.expr(a), at, ct, pos)
	bv := l.convert(l.expr(b), bt, ct, pos)
	if isU64(ct) && op != ir.OpEq && op != ir.OpNe {
		flip := cnst(math.MinInt64, ir.Int, pos)
		av = bin(ir.OpXor, av, flip, ir.Int, pos)
		bv = bin(ir.OpXor, bv, flip, ir.Int, pos)
	}
	return bin(op, av, bv, it, pos)
}

// isSimple reports whether n can be evaluated as a pure IR expression that
// cannot fail (no loads, calls, side effects, division or shifts by
// non-constants).
func (l *fnl) isSimple(n cc.ExpressionNode) bool {
	switch x := unparen(n).(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionInt, cc.PrimaryExpressionChar:
			return true
		case cc.PrimaryExpressionIdent:
			switch r := x.ResolvedTo().(type) {
			case *cc.Enumerator:
				return true
			case *cc.Declarator:
				if lv, ok := l.locals[r]; ok {
					return !lv.mem
				}
				if gv := l.globalFor(r); gv != nil {
					return gv.konst != nil
				}
			}
		}
		return false
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPlus, cc.UnaryExpressionMinus, cc.UnaryExpressionCpl, cc.UnaryExpressionNot:
			return l.isSimple(x.CastExpression)
		case cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofType:
			return true
		}
		return false
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return l.isSimple(x.UnaryExpression)
		}
		if isFloat(x.CastExpression.Type()) && isInteger(x.Type()) && x.Type().Kind() != cc.Bool {
			return false // an out-of-range conversion fails
		}
		return isScalarC(x.Type()) && l.isSimple(x.CastExpression)
	case *cc.MultiplicativeExpression:
		if x.Case == cc.MultiplicativeExpressionCast {
			return l.isSimple(x.CastExpression)
		}
		if x.Case != cc.MultiplicativeExpressionMul {
			if v, ok := l.tr.constInt(x.CastExpression); !ok || v == 0 {
				return false
			}
		}
		return l.isSimple(x.MultiplicativeExpression) && l.isSimple(x.CastExpression)
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return l.isSimple(x.MultiplicativeExpression)
		}
		return l.isSimple(x.AdditiveExpression) && l.isSimple(x.MultiplicativeExpression)
	case *cc.ShiftExpression:
		if x.Case == cc.ShiftExpressionAdd {
			return l.isSimple(x.AdditiveExpression)
		}
		v, ok := l.tr.constInt(x.AdditiveExpression)
		return ok && v >= 0 && v < 64 && l.isSimple(x.ShiftExpression)
	case *cc.RelationalExpression:
		if x.Case == cc.RelationalExpressionShift {
			return l.isSimple(x.ShiftExpression)
		}
		return l.isSimple(x.RelationalExpression) && l.isSimple(x.ShiftExpression)
	case *cc.EqualityExpression:
		if x.Case == cc.EqualityExpressionRel {
			return l.isSimple(x.RelationalExpression)
		}
		return l.isSimple(x.EqualityExpression) && l.isSimple(x.RelationalExpression)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionEq {
			return l.isSimple(x.EqualityExpression)
		}
		return l.isSimple(x.AndExpression) && l.isSimple(x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionAnd {
			return l.isSimple(x.AndExpression)
		}
		return l.isSimple(x.ExclusiveOrExpression) && l.isSimple(x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionXor {
			return l.isSimple(x.ExclusiveOrExpression)
		}
		return l.isSimple(x.InclusiveOrExpression) && l.isSimple(x.ExclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionOr {
			return l.isSimple(x.InclusiveOrExpression)
		}
		return l.isSimple(x.LogicalAndExpression) && l.isSimple(x.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLAnd {
			return l.isSimple(x.LogicalAndExpression)
		}
		return l.isSimple(x.LogicalOrExpression) && l.isSimple(x.LogicalAndExpression)
	}
	return false
}

// logical lowers && and || in a value context.
func (l *fnl) logical(n cc.ExpressionNode, op ir.Operator, a, b cc.ExpressionNode, rt cc.Type, pos ir.Pos) *ir.Expr {
	it := l.tr.scalarType(rt, pos)
	if l.isSimple(b) {
		av := l.truth(a)
		bv := l.truth(b)
		return bin(op, av, bv, it, pos)
	}
	tmp := l.temp(it, pos)
	t, f, end := l.newLabel(), l.newLabel(), l.newLabel()
	l.cond(n, t, f)
	l.bind(t)
	l.assignLocal(tmp, cnst(1, it, pos), pos)
	l.jump(end, pos)
	l.bind(f)
	l.assignLocal(tmp, cnst(0, it, pos), pos)
	l.bind(end)
	return l.local(tmp, pos)
}

// cond lowers n as a condition: jump to t if it is non-zero, else to f.
func (l *fnl) cond(n cc.ExpressionNode, t, f int) {
	pos := l.tr.pos(n)
	n = unparen(n)
	switch x := n.(type) {
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			l.cond(x.CastExpression, f, t)
			return
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			mid := l.newLabel()
			l.cond(x.LogicalAndExpression, mid, f)
			l.bind(mid)
			l.cond(x.InclusiveOrExpression, t, f)
			return
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			mid := l.newLabel()
			l.cond(x.LogicalOrExpression, t, mid)
			l.bind(mid)
			l.cond(x.LogicalAndExpression, t, f)
			return
		}
	}
	l.branch(l.truth(n), t, f, pos)
}

// conditional lowers c ? a : b.
func (l *fnl) conditional(x *cc.ConditionalExpression, want bool) *ir.Expr {
	pos := l.tr.pos(x)
	rt := x.Type()
	t, f, end := l.newLabel(), l.newLabel(), l.newLabel()
	if !want || rt.Kind() == cc.Void {
		l.cond(x.LogicalOrExpression, t, f)
		l.bind(t)
		if x.ExpressionList != nil {
			l.exprVoid(x.ExpressionList)
		}
		l.jump(end, pos)
		l.bind(f)
		l.exprVoid(x.ConditionalExpression)
		l.bind(end)
		return cnst(0, ir.Int, pos)
	}
	if !isScalarC(rt) {
		l.tr.unsupported(pos, "conditional expression of type %s", rt)
		return cnst(0, ir.Int, pos)
	}
	it := l.tr.scalarType(rt, pos)
	tmp := l.temp(it, pos)
	if x.ExpressionList == nil {
		// GNU a ?: b.
		l.tr.unsupported(pos, "the ?: operator without a middle operand")
		return cnst(0, it, pos)
	}
	l.cond(x.LogicalOrExpression, t, f)
	l.bind(t)
	l.assignLocal(tmp, l.convert(l.expr(x.ExpressionList), x.ExpressionList.Type(), rt, pos), pos)
	l.jump(end, pos)
	l.bind(f)
	l.assignLocal(tmp, l.convert(l.expr(x.ConditionalExpression), x.ConditionalExpression.Type(), rt, pos), pos)
	l.bind(end)
	return l.local(tmp, pos)
}

// stmtExpr lowers a GNU statement expression ({ ...; e; }).
func (l *fnl) stmtExpr(cs *cc.CompoundStatement, want bool) *ir.Expr {
	pos := l.tr.pos(cs)
	var items []*cc.BlockItem
	for il := cs.BlockItemList; il != nil; il = il.BlockItemList {
		items = append(items, il.BlockItem)
	}
	var v *ir.Expr
	for i, bi := range items {
		if i == len(items)-1 && want && bi.Case == cc.BlockItemStmt && bi.Statement.Case == cc.StatementExpr && bi.Statement.ExpressionStatement.ExpressionList != nil {
			e := bi.Statement.ExpressionStatement.ExpressionList
			if t := e.Type(); t != nil && t.Kind() != cc.Void {
				v = l.expr(e)
				if !isConst(v) {
					tmp := l.temp(v.Type, pos)
					l.assignLocal(tmp, v, pos)
					v = l.local(tmp, pos)
				}
				continue
			}
		}
		l.blockItem(bi)
	}
	if v == nil {
		v = cnst(0, ir.Int, pos)
	}
	return v
}

// assign lowers an assignment or compound assignment.
func (l *fnl) assign(x *cc.AssignmentExpression, want bool) *ir.Expr {
	pos := l.tr.pos(x)
	lhs, rhs := x.UnaryExpression, x.AssignmentExpression
	lt := lhs.Type()
	if x.Case == cc.AssignmentExpressionAssign && isRecordC(lt) {
		l.structCopy(lhs, rhs, pos)
		if want {
			l.tr.unsupported(pos, "value of a struct assignment")
		}
		return cnst(0, ir.Int, pos)
	}
	lv := l.lvalue(lhs)
	lt = lv.t
	if x.Case == cc.AssignmentExpressionAssign {
		v := l.nondetAssign(x, rhs, lhs, lv)
		if v == nil {
			v = l.convert(l.expr(rhs), rhs.Type(), lt, pos)
		}
		if lv.isReg() {
			l.store(lv, v, pos)
			return l.local(lv.reg, pos)
		}
		if want && !isConst(v) && v.Kind != ir.ELocal {
			tmp := l.temp(v.Type, pos)
			l.assignLocal(tmp, v, pos)
			v = l.local(tmp, pos)
		}
		l.store(lv, v, pos)
		return v
	}
	ops := map[cc.AssignmentExpressionCase]ir.Operator{
		cc.AssignmentExpressionMul: ir.OpMul, cc.AssignmentExpressionDiv: ir.OpDiv, cc.AssignmentExpressionMod: ir.OpMod,
		cc.AssignmentExpressionAdd: ir.OpAdd, cc.AssignmentExpressionSub: ir.OpSub, cc.AssignmentExpressionLsh: ir.OpShl,
		cc.AssignmentExpressionRsh: ir.OpShr, cc.AssignmentExpressionAnd: ir.OpAnd, cc.AssignmentExpressionXor: ir.OpXor,
		cc.AssignmentExpressionOr: ir.OpOr}
	op := ops[x.Case]
	if lv.atomic && !lv.isReg() {
		return l.atomicCompound(lv, op, rhs, want, pos)
	}
	old := l.load(lv, pos)
	nv := l.combine(op, old, lt, rhs, pos)
	if lv.isReg() {
		l.store(lv, nv, pos)
		return l.local(lv.reg, pos)
	}
	if want && !isConst(nv) && nv.Kind != ir.ELocal {
		tmp := l.temp(nv.Type, pos)
		l.assignLocal(tmp, nv, pos)
		nv = l.local(tmp, pos)
	}
	l.store(lv, nv, pos)
	return nv
}

// combine computes old op rhs for a compound assignment to an object of
// type lt, converted back to lt.
func (l *fnl) combine(op ir.Operator, old *ir.Expr, lt cc.Type, rhs cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	rt := rhs.Type()
	if isPointer(lt) {
		if op != ir.OpAdd && op != ir.OpSub {
			l.tr.unsupported(pos, "compound assignment on a pointer")
			return old
		}
		iv := l.expr(rhs)
		return l.ptrAdd(old, iv, rt, l.tr.cells(lt.(*cc.PointerType).Elem(), pos), op, pos)
	}
	if isArith(lt) && isArith(rt) && (isFloat(lt) || isFloat(rt)) {
		ct := cc.UsualArithmeticConversions(lt, rt)
		if !isFloat(ct) {
			l.tr.unsupported(pos, "compound assignment on %s", lt)
			return old
		}
		a := l.convert(old, lt, ct, pos)
		b := l.convert(l.expr(rhs), rt, ct, pos)
		return l.convert(l.floatBin(op, a, b, ct, nil, pos), ct, lt, pos)
	}
	if !isInteger(lt) || !isInteger(rt) {
		l.tr.unsupported(pos, "compound assignment on %s", lt)
		return old
	}
	var ct cc.Type
	if op == ir.OpShl || op == ir.OpShr {
		ct = cc.IntegerPromotion(lt)
	} else {
		ct = cc.UsualArithmeticConversions(lt, rt)
	}
	a := l.convert(old, lt, ct, pos)
	it := l.tr.scalarType(ct, pos)
	var r *ir.Expr
	if op == ir.OpShl || op == ir.OpShr {
		b := l.expr(rhs)
		if op == ir.OpShr && isU64(ct) {
			sh := bin(ir.OpShr, a, b, it, pos)
			mask := un(ir.OpBitNot, bin(ir.OpShl, cnst(-2, ir.Int, pos), bin(ir.OpSub, cnst(63, ir.Int, pos), retype(b, ir.Int), ir.Int, pos), ir.Int, pos), ir.Int, pos)
			r = bin(ir.OpAnd, sh, mask, it, pos)
		} else {
			r = bin(op, a, b, it, pos)
		}
	} else {
		b := l.convert(l.expr(rhs), rt, ct, pos)
		if isU64(ct) && (op == ir.OpDiv || op == ir.OpMod) {
			r = udiv64(a, b, op == ir.OpMod, it, pos)
		} else {
			r = bin(op, a, b, it, pos)
		}
	}
	r = l.narrow(r, ct, pos)
	return l.convert(r, ct, lt, pos)
}

// incDec lowers ++ and -- (pre or post).
func (l *fnl) incDec(n cc.ExpressionNode, inc, pre, want bool, pos ir.Pos) *ir.Expr {
	lv := l.lvalue(n)
	lt := lv.t
	op := ir.OpAdd
	if !inc {
		op = ir.OpSub
	}
	if lv.atomic && !lv.isReg() && isFloat(lt) {
		old, nv := l.floatRMW(lv.addr, lt, func(o *ir.Expr) *ir.Expr { return floatIncDec(op, o, lt, pos) }, ir.OrderSC, pos)
		if pre {
			return nv
		}
		return old
	}
	if lv.atomic && !lv.isReg() && isInteger(lt) {
		old := l.atomicRMW(lv, op, cnst(1, l.tr.scalarType(lt, pos), pos), pos)
		if pre {
			return l.narrow(bin(op, old, cnst(1, old.Type, pos), old.Type, pos), lt, pos)
		}
		return old
	}
	old := l.load(lv, pos)
	if want && !pre && lv.isReg() {
		tmp := l.temp(old.Type, pos)
		l.assignLocal(tmp, old, pos)
		old = l.local(tmp, pos)
	}
	var nv *ir.Expr
	switch {
	case isPointer(lt):
		nv = l.ptrAdd(old, cnst(1, ir.Int, pos), nil, l.tr.cells(lt.(*cc.PointerType).Elem(), pos), op, pos)
	case lt.Kind() == cc.Bool:
		nv = castTo(bin(op, old, cnst(1, ir.Int, pos), ir.Int, pos), ir.Bool, pos)
	case isFloat(lt):
		nv = floatIncDec(op, old, lt, pos)
	case isInteger(lt):
		ct := cc.IntegerPromotion(lt)
		nv = l.convert(l.narrow(bin(op, l.convert(old, lt, ct, pos), cnst(1, ir.Int, pos), l.tr.scalarType(ct, pos), pos), ct, pos), ct, lt, pos)
	default:
		l.tr.unsupported(pos, "++/-- on %s", lt)
		return old
	}
	if !lv.isReg() && want && pre && !isConst(nv) {
		tmp := l.temp(nv.Type, pos)
		l.assignLocal(tmp, nv, pos)
		nv = l.local(tmp, pos)
	}
	l.store(lv, nv, pos)
	if pre {
		if lv.isReg() {
			return l.local(lv.reg, pos)
		}
		return nv
	}
	return old
}

// structCopy lowers s = t for structs: every cell is copied.
func (l *fnl) structCopy(lhs, rhs cc.ExpressionNode, pos ir.Pos) {
	dst := l.lvalue(lhs)
	src := l.lvalue(rhs)
	if dst.isReg() || src.isReg() {
		l.tr.unsupported(pos, "struct assignment")
		return
	}
	t := l.tr.irType(dst.t, pos)
	if hasSync(t) {
		l.tr.unsupported(pos, "copying a struct that contains a mutex or condition variable")
		return
	}
	n := t.Size()
	if dst.atomic || src.atomic {
		// An _Atomic struct read or written as a whole: one atomic
		// operation (atomicstruct.go).
		// Both _Atomic (s = t): an atomic load of t, then an atomic
		// store to s; one atomic section under sc, tso and pso, two
		// operations under their two locks under ra and rc11.
		var vals []*ir.Expr
		if !src.atomic {
			vals = l.loadCells(src.addr, n, ir.OrderNA, pos)
		}
		if l.tr.opts.NoAtomicSections {
			if src.atomic {
				l.whole(src.addr, pos, func() { vals = l.readCells(src.addr, n, ir.OrderSC, pos) })
			}
			if dst.atomic {
				l.whole(dst.addr, pos, func() { l.writeCells(dst.addr, vals, ir.OrderSC, pos) })
			}
		} else {
			l.whole(dst.addr, pos, func() {
				if src.atomic {
					vals = l.readCells(src.addr, n, ir.OrderSC, pos)
				}
				if dst.atomic {
					l.writeCells(dst.addr, vals, ir.OrderSC, pos)
				}
			})
		}
		if !dst.atomic {
			l.storeCells(dst.addr, vals, ir.OrderNA, pos)
		}
		return
	}
	vals := make([]*ir.Expr, n)
	for i := 0; i < n; i++ {
		vals[i] = l.loadCell(src, i, pos)
	}
	for i := 0; i < n; i++ {
		in := l.ins(ir.IStore, pos)
		in.Addr, in.A = fieldAddr(dst.addr, i, pos), vals[i]
		l.emit(in)
	}
}

func hasSync(t *ir.Type) bool {
	switch t.Kind {
	case ir.TMutex, ir.TCond:
		return true
	case ir.TArray:
		return hasSync(t.Elem)
	case ir.TRecord:
		for _, f := range t.Record.Fields {
			if hasSync(f.Type) {
				return true
			}
		}
	}
	return false
}

// udiv64 is the unsigned 64-bit quotient (or remainder) of a and b, built
// from the IR's signed operations (Hacker's Delight, divlu): for b >= 2^63
// the quotient is a >= b; for a < 2^63 it is the signed quotient; otherwise
// q = ((a >> 1) / b) << 1 (logical shift) is the quotient or one less. The
// cases are combined arithmetically (c*x + (1-c)*y), so the expression stays
// pure; b == 0 still fails as a division by zero.
func udiv64(a, b *ir.Expr, mod bool, t *ir.Type, pos ir.Pos) *ir.Expr {
	i := ir.Int
	c := func(v int64) *ir.Expr { return cnst(v, i, pos) }
	flip := func(x *ir.Expr) *ir.Expr { return bin(ir.OpXor, x, c(math.MinInt64), i, pos) }
	geu := func(x, y *ir.Expr) *ir.Expr { return bin(ir.OpGe, flip(x), flip(y), i, pos) }
	sel := func(cond, x, y *ir.Expr) *ir.Expr { // cond ? x : y, cond in {0, 1}
		return bin(ir.OpAdd, y, bin(ir.OpMul, cond, bin(ir.OpSub, x, y, i, pos), i, pos), i, pos)
	}
	half := bin(ir.OpAnd, bin(ir.OpShr, a, c(1), i, pos), c(math.MaxInt64), i, pos)
	qh := bin(ir.OpShl, bin(ir.OpDiv, half, b, i, pos), c(1), i, pos)
	rh := bin(ir.OpSub, a, bin(ir.OpMul, qh, b, i, pos), i, pos)
	qbig := bin(ir.OpAdd, qh, geu(rh, b), i, pos)
	qpos := sel(bin(ir.OpLt, a, c(0), i, pos), qbig, bin(ir.OpDiv, a, b, i, pos))
	q := sel(bin(ir.OpLt, b, c(0), i, pos), geu(a, b), qpos)
	if mod {
		return retype(bin(ir.OpSub, a, bin(ir.OpMul, q, b, i, pos), i, pos), t)
	}
	return retype(q, t)
}

// tlsAddr returns the address of the calling thread's copy of the
// thread-local variable gv, allocating it (with its initial value) on the
// thread's first access.
func (l *fnl) tlsAddr(gv *gvar, pos ir.Pos) *ir.Expr {
	self := l.temp(ir.Thread, pos)
	in := l.ins(ir.ISelf, pos)
	in.Dst = self
	l.emit(in)
	pt := ir.PtrTo(gv.tls)
	slot := &ir.Expr{Kind: ir.EIndex, A: &ir.Expr{Kind: ir.EGlobalAddr, Global: gv.idx, Type: ptrOf(gv.g.Type), Pos: pos},
		B: l.local(self, pos), Len: tlsThreads, Stride: 1, Type: &ir.Type{Kind: ir.TPtr}, Pos: pos}
	p := l.temp(pt, pos)
	ld := l.ins(ir.ILoad, pos)
	ld.Dst, ld.Addr = p, slot
	l.emit(ld)
	have, alloc := l.newLabel(), l.newLabel()
	l.branch(l.local(p, pos), have, alloc, pos)
	l.bind(alloc)
	al := l.ins(ir.IAlloc, pos)
	al.Dst, al.Record = p, gv.tls
	for _, v := range gv.tlsInit {
		al.Args = append(al.Args, cnst(v, ir.Int, pos))
	}
	l.emit(al)
	st := l.ins(ir.IStore, pos)
	st.Addr, st.A = slot, l.local(p, pos)
	l.emit(st)
	l.bind(have)
	return fieldAddr(l.local(p, pos), 0, pos)
}
