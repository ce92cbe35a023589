package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Pure IR expression constructors that fold constants with the
// interpreter's semantics (64-bit wrap-around arithmetic; division by zero
// and out-of-range shift counts are left to fail at run time).

func cnst(v int64, t *ir.Type, pos ir.Pos) *ir.Expr {
	return &ir.Expr{Kind: ir.EConst, Val: v, Type: t, Pos: pos}
}

func isConst(e *ir.Expr) bool { return e != nil && e.Kind == ir.EConst }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// castVal narrows v to the integer type t as ir.ECast does.
func castVal(v int64, t *ir.Type) int64 {
	if t == nil || t.Kind == ir.TBool {
		return b2i(v != 0)
	}
	w := t.Width
	if t.Kind != ir.TInt || w <= 0 || w >= 64 {
		return v
	}
	if t.Signed {
		s := 64 - uint(w)
		return v << s >> s
	}
	return int64(uint64(v) & (1<<uint(w) - 1))
}

// foldBin computes a op b; ok is false when the operation fails at run time.
func foldBin(op ir.Operator, a, b int64) (int64, bool) {
	switch op {
	case ir.OpAdd:
		return a + b, true
	case ir.OpSub:
		return a - b, true
	case ir.OpMul:
		return a * b, true
	case ir.OpDiv, ir.OpMod:
		if b == 0 {
			return 0, false
		}
		if b == -1 {
			if op == ir.OpDiv {
				return -a, true
			}
			return 0, true
		}
		if op == ir.OpDiv {
			return a / b, true
		}
		return a % b, true
	case ir.OpAnd:
		return a & b, true
	case ir.OpOr:
		return a | b, true
	case ir.OpXor:
		return a ^ b, true
	case ir.OpShl, ir.OpShr:
		if b < 0 || b > 63 {
			return 0, false
		}
		if op == ir.OpShl {
			return a << uint(b), true
		}
		return a >> uint(b), true
	case ir.OpEq:
		return b2i(a == b), true
	case ir.OpNe:
		return b2i(a != b), true
	case ir.OpLt:
		return b2i(a < b), true
	case ir.OpLe:
		return b2i(a <= b), true
	case ir.OpGt:
		return b2i(a > b), true
	case ir.OpGe:
		return b2i(a >= b), true
	case ir.OpLAnd:
		return b2i(a != 0 && b != 0), true
	case ir.OpLOr:
		return b2i(a != 0 || b != 0), true
	}
	return 0, false
}

func bin(op ir.Operator, a, b *ir.Expr, t *ir.Type, pos ir.Pos) *ir.Expr {
	if op.IsFloat() {
		// No algebraic simplification: x + 0.0 is not x for x = -0.0.
		if isConst(a) && isConst(b) {
			if v, ok := foldFloat(op, t, a.Val, b.Val); ok {
				return cnst(v, t, pos)
			}
		}
		return &ir.Expr{Kind: ir.EBinary, Op: op, A: a, B: b, Type: t, Pos: pos}
	}
	if isConst(a) && isConst(b) {
		if v, ok := foldBin(op, a.Val, b.Val); ok {
			return cnst(v, t, pos)
		}
	}
	// x + 0, x - 0, x * 1.
	if isConst(b) && ((b.Val == 0 && (op == ir.OpAdd || op == ir.OpSub || op == ir.OpOr || op == ir.OpXor)) || (b.Val == 1 && (op == ir.OpMul || op == ir.OpDiv))) {
		return retype(a, t)
	}
	return &ir.Expr{Kind: ir.EBinary, Op: op, A: a, B: b, Type: t, Pos: pos}
}

func un(op ir.Operator, a *ir.Expr, t *ir.Type, pos ir.Pos) *ir.Expr {
	if op.IsFloat() {
		if isConst(a) {
			if v, ok := foldFloat(op, t, a.Val, 0); ok {
				return cnst(v, t, pos)
			}
		}
		return &ir.Expr{Kind: ir.EUnary, Op: op, A: a, Type: t, Pos: pos}
	}
	if isConst(a) {
		switch op {
		case ir.OpNeg:
			return cnst(-a.Val, t, pos)
		case ir.OpNot:
			return cnst(b2i(a.Val == 0), t, pos)
		case ir.OpBitNot:
			return cnst(^a.Val, t, pos)
		}
	}
	if op == ir.OpNot && a.Kind == ir.EUnary && a.Op == ir.OpNot && a.A.Type != nil && a.A.Type.Kind == ir.TBool {
		return a.A // !!b for a bool b
	}
	return &ir.Expr{Kind: ir.EUnary, Op: op, A: a, Type: t, Pos: pos}
}

// castTo narrows a to the integer (or bool) type t.
func castTo(a *ir.Expr, t *ir.Type, pos ir.Pos) *ir.Expr {
	if isConst(a) {
		return cnst(castVal(a.Val, t), t, pos)
	}
	if a.Kind == ir.ECast && a.Type.Equal(t) {
		return a
	}
	return &ir.Expr{Kind: ir.ECast, A: a, Type: t, Pos: pos}
}

// retype returns e with IR type t (no conversion of the value).
func retype(e *ir.Expr, t *ir.Type) *ir.Expr {
	if e.Type == t || t == nil || e.Kind == ir.ECast {
		return e // an ECast's type is the width it narrows to
	}
	if (e.Kind == ir.EUnary || e.Kind == ir.EBinary) && e.Op.IsFloat() {
		return e // the type of a float operator is its format (ir.OpFToI's target)
	}
	c := *e
	c.Type = t
	return &c
}

// evalConst evaluates a pure expression that refers to no locals (global
// addresses included); ok is false otherwise or when it would fail.
func evalConst(e *ir.Expr) (int64, bool) {
	switch e.Kind {
	case ir.EConst:
		return e.Val, true
	case ir.EGlobalAddr:
		return ir.MakePtr(e.Global+1, 0), true
	case ir.EUnary:
		a, ok := evalConst(e.A)
		if !ok {
			return 0, false
		}
		if e.Op.IsFloat() {
			return foldFloat(e.Op, e.Type, a, 0)
		}
		switch e.Op {
		case ir.OpNeg:
			return -a, true
		case ir.OpNot:
			return b2i(a == 0), true
		case ir.OpBitNot:
			return ^a, true
		}
	case ir.EBinary:
		a, ok := evalConst(e.A)
		if !ok {
			return 0, false
		}
		b, ok := evalConst(e.B)
		if !ok {
			return 0, false
		}
		if e.Op.IsFloat() {
			return foldFloat(e.Op, e.Type, a, b)
		}
		return foldBin(e.Op, a, b)
	case ir.ECast:
		a, ok := evalConst(e.A)
		if !ok {
			return 0, false
		}
		return castVal(a, e.Type), true
	case ir.EField:
		a, ok := evalConst(e.A)
		if !ok || a == 0 {
			return 0, false
		}
		return a + int64(e.Offset), true
	case ir.EIndex:
		a, ok := evalConst(e.A)
		if !ok || a == 0 {
			return 0, false
		}
		i, ok := evalConst(e.B)
		if !ok || i < 0 || i >= int64(e.Len) {
			return 0, false
		}
		return a + i*int64(e.Stride), true
	}
	return 0, false
}

// constInt returns the value of an integer constant expression as cc
// computed it.
func (tr *translator) constInt(e cc.ExpressionNode) (int64, bool) {
	if e == nil {
		return 0, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

// constIntOrConstGlobal is constInt that also reads const-qualified globals
// with constant initializers (const int N = 16;).
func (tr *translator) constIntOrConstGlobal(e cc.ExpressionNode) (int64, bool) {
	if v, ok := tr.constInt(e); ok {
		return v, true
	}
	if d := identDecl(e); d != nil {
		if gv := tr.globals[d.Name()]; gv != nil && gv.konst != nil && (gv.decl == d || d.IsExtern() || tr.isFileScope(d)) {
			return *gv.konst, true
		}
	}
	return 0, false
}

// isFileScope reports whether d is a file-scope declarator.
func (tr *translator) isFileScope(d *cc.Declarator) bool {
	return d.Linkage() != cc.None
}

// constValue evaluates the initializer expression e of a global cell of
// type t: an integer constant expression or an address constant.
func (tr *translator) constValue(e cc.ExpressionNode, t cc.Type) (int64, bool) {
	l := tr.constLowerer()
	n := len(l.body)
	v := l.convert(l.expr(e), e.Type(), t, tr.pos(e))
	if len(l.body) != n {
		l.body = l.body[:n]
		return 0, false
	}
	return evalConst(v)
}

// constLowerer returns a lowerer for constant expressions outside any
// function: it has no locals, and emitting an instruction means the
// expression is not constant.
func (tr *translator) constLowerer() *fnl {
	if tr.cl == nil {
		f := &ir.Func{Name: "<const>", Result: ir.Void}
		tr.cl = &fnl{tr: tr, fi: &fnInfo{name: "<const>", f: f, calls: map[string]bool{}}, f: f,
			targets: map[int]bool{}, locals: map[*cc.Declarator]*localVar{}, gotoLabels: map[string]int{},
			checked: map[int]bool{}, cases: map[*cc.LabeledStatement]int{}, spinConts: map[*cc.SelectionStatement]bool{},
			ff: &funcFacts{escaped: map[*cc.Declarator]bool{}, nonTruthUse: map[*cc.Declarator]bool{}}}
	}
	return tr.cl
}
