package c

import (
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Floating point. float is an IR float of width 32, double and long double
// of width 64 (ir.Float32, ir.Float64): a cell holds the value's IEEE 754
// bit pattern, and every operation is one IR operator rounded to its format
// (ir.EvalFloat), as gcc computes on x86-64 (FLT_EVAL_METHOD 0, SSE). The
// usual arithmetic conversions come from cc (float op double is a double
// operation); comparisons compare doubles (converting a float to double is
// exact, so the result is the same); the truth of a float (if, !, &&, a
// conversion to _Bool) is f != 0, so -0.0 is false and a NaN true.

// fconst is the constant f of IR float type width w (rounded to it).
func fconst(f float64, w int, pos ir.Pos) *ir.Expr {
	return cnst(ir.FloatBits(f, w), floatType(w), pos)
}

// floatLiteral is the value of a floating constant, read from its
// spelling so that it is rounded once, to its own type (1.1f is the float
// nearest to 1.1, not the float nearest to the double nearest to 1.1).
func (l *fnl) floatLiteral(x *cc.PrimaryExpression, pos ir.Pos) *ir.Expr {
	w := floatWidth(x.Type())
	if w == 0 {
		l.tr.unsupported(pos, "floating constant of type %s", x.Type())
		return cnst(0, ir.Int, pos)
	}
	s := x.Token.SrcStr()
	s = strings.TrimRight(s, "fFlL")
	if strings.HasSuffix(s, "df") || strings.HasSuffix(s, "dd") || strings.HasSuffix(s, "dl") {
		l.tr.unsupported(pos, "decimal floating constant %s", x.Token.SrcStr())
		return fconst(0, w, pos)
	}
	f, err := strconv.ParseFloat(s, w)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			l.tr.unsupported(pos, "floating constant %s", x.Token.SrcStr())
			return fconst(0, w, pos)
		}
		// Out of range: ParseFloat gives ±Inf or ±0, as C's rounding.
	}
	return fconst(f, w, pos)
}

// toDouble converts the float of width w represented by e to a double.
func toDouble(e *ir.Expr, w int, pos ir.Pos) *ir.Expr {
	if w == 64 {
		return retype(e, ir.Float64)
	}
	return un(ir.OpFExt, e, ir.Float64, pos)
}

// floatTruth is e != 0 for the float e of width w: the truth value of a
// float in C (-0.0 is false, a NaN true).
func floatTruth(e *ir.Expr, w int, t *ir.Type, pos ir.Pos) *ir.Expr {
	return bin(ir.OpFNe, toDouble(e, w, pos), fconst(0, 64, pos), t, pos)
}

// convertFloat converts e of C type from to C type to, one of them a
// supported floating type: float to float rounds (or extends), an integer
// to a float rounds to nearest even, a float to an integer truncates toward
// zero (out of range is a runtime error: undefined in C), a float to _Bool
// is f != 0.
func (l *fnl) convertFloat(e *ir.Expr, from, to cc.Type, pos ir.Pos) *ir.Expr {
	fw, tw := floatWidth(from), floatWidth(to)
	switch {
	case fw > 0 && tw > 0:
		switch {
		case fw == tw:
			return retype(e, floatType(tw))
		case fw == 32:
			return un(ir.OpFExt, e, ir.Float64, pos)
		default:
			return un(ir.OpFTrunc, e, ir.Float32, pos)
		}
	case fw > 0 && to.Kind() == cc.Bool:
		return floatTruth(e, fw, ir.Bool, pos)
	case fw > 0 && isInteger(to):
		return un(ir.OpFToI, toDouble(e, fw, pos), l.tr.scalarType(to, pos), pos)
	case tw > 0 && isInteger(from):
		if isU64(from) {
			return un(ir.OpUToF, e, floatType(tw), pos)
		}
		return un(ir.OpIToF, e, floatType(tw), pos)
	}
	l.tr.unsupported(pos, "conversion from %s to %s", from, to)
	return cnst(0, l.tr.scalarType(to, pos), pos)
}

// floatOps maps the integer arithmetic operators to their floating
// counterparts.
var floatOps = map[ir.Operator]ir.Operator{
	ir.OpAdd: ir.OpFAdd, ir.OpSub: ir.OpFSub, ir.OpMul: ir.OpFMul, ir.OpDiv: ir.OpFDiv,
	ir.OpEq: ir.OpFEq, ir.OpNe: ir.OpFNe, ir.OpLt: ir.OpFLt, ir.OpLe: ir.OpFLe, ir.OpGt: ir.OpFGt, ir.OpGe: ir.OpFGe,
}

// floatBin computes av op bv, both already of the floating C type ct, in
// ct (arithmetic) or as doubles (comparisons, result of IR type it).
func (l *fnl) floatBin(op ir.Operator, av, bv *ir.Expr, ct cc.Type, it *ir.Type, pos ir.Pos) *ir.Expr {
	fop, ok := floatOps[op]
	if !ok {
		l.tr.unsupported(pos, "operator %s on %s", op, ct)
		return cnst(0, it, pos)
	}
	w := floatWidth(ct)
	if fop.IsFloatCompare() {
		return bin(fop, toDouble(av, w, pos), toDouble(bv, w, pos), it, pos)
	}
	return bin(fop, av, bv, floatType(w), pos)
}

// floatIncDec is old ± 1 for the float old of C type t.
func floatIncDec(op ir.Operator, old *ir.Expr, t cc.Type, pos ir.Pos) *ir.Expr {
	w := floatWidth(t)
	fop := ir.OpFAdd
	if op == ir.OpSub {
		fop = ir.OpFSub
	}
	return bin(fop, old, fconst(1, w, pos), floatType(w), pos)
}

// foldFloat computes the floating operator op on constants as the
// interpreter does; ok is false when it fails (an out-of-range
// conversion, left to fail at run time).
func foldFloat(op ir.Operator, t *ir.Type, a, b int64) (int64, bool) {
	v, err := ir.EvalFloat(op, t, a, b)
	return v, err == nil
}

// floatRMW is an atomic read-modify-write of the float of C type t at
// addr (x op= v and ++/-- on an _Atomic float or double, which C11 makes
// one seq_cst read-modify-write): as gcc compiles it, a compare-exchange
// loop (a relaxed load of the old value, then a compare-exchange of its
// representation with f(old); the IR's RMW operations are integer ones),
// whose failed iterations spinNoOps discards. It returns the old and the
// new value.
func (l *fnl) floatRMW(addr *ir.Expr, t cc.Type, f func(old *ir.Expr) *ir.Expr, order ir.Order, pos ir.Pos) (old, nv *ir.Expr) {
	return l.casLoop(addr, t, func(o, n int) { l.assignLocal(n, f(l.local(o, pos)), pos) }, order, pos)
}
