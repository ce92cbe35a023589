package ir

import (
	"fmt"
	"math"
	"strconv"
)

// Floating-point values. A cell or local of type TFloat holds the IEEE 754
// bit pattern of its value: a float64 as its 64 bits, a float32 as its 32
// bits zero-extended. Equality of cells (compare-exchange, state hashing) is
// therefore equality of representations, as C's compare-exchange compares
// object representations; the arithmetic comparisons (OpFEq, ...) compare
// values. Go's float32 and float64 operations round each result to its
// format, so EvalFloat computes what C computes on x86-64 with SSE
// (FLT_EVAL_METHOD 0).

// FloatBits returns the representation of f in the format of width 32 or 64
// (f is rounded to float32 for width 32).
func FloatBits(f float64, width int) int64 {
	if width == 32 {
		return int64(math.Float32bits(float32(f)))
	}
	return int64(math.Float64bits(f))
}

// FloatValue returns the value represented by v in the format of width 32
// or 64.
func FloatValue(v int64, width int) float64 {
	if width == 32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(uint64(v))
}

// FormatFloat renders the float of width 32 or 64 represented by v in the
// shortest decimal form that reads back as the same value (inf, -inf, nan
// for the special values).
func FormatFloat(v int64, width int) string {
	f := FloatValue(v, width)
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, width)
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		s += ".0" // show that it is a float
	}
	return s
}

// IsFloat reports whether o is one of the floating-point operators
// (OpFNeg to OpFTrunc), which EvalFloat computes.
func (o Operator) IsFloat() bool { return o >= OpFNeg && o <= OpFTrunc }

// IsFloatCompare reports whether o is a floating-point comparison (OpFEq to
// OpFGe): its operands are float64 and its result 0 or 1.
func (o Operator) IsFloatCompare() bool { return o >= OpFEq && o <= OpFGe }

// floatWidth is the width of the floating format t (64 unless t is a
// 32-bit float).
func floatWidth(t *Type) int {
	if t != nil && t.Kind == TFloat && t.Width == 32 {
		return 32
	}
	return 64
}

// EvalFloat computes the floating-point operator op of an expression of type
// t on the operands a and b (b is ignored for the unary ones). The error is
// the runtime error of OpFToI on a value out of the range of t (a NaN
// included).
func EvalFloat(op Operator, t *Type, a, b int64) (int64, error) {
	w := floatWidth(t)
	switch op {
	case OpFNeg:
		if w == 32 {
			return int64(uint32(a) ^ 1<<31), nil
		}
		return a ^ math.MinInt64, nil
	case OpFAdd, OpFSub, OpFMul, OpFDiv:
		if w == 32 {
			r := floatArith(op, math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)))
			return int64(math.Float32bits(r)), nil
		}
		r := floatArith(op, math.Float64frombits(uint64(a)), math.Float64frombits(uint64(b)))
		return int64(math.Float64bits(r)), nil
	case OpFEq, OpFNe, OpFLt, OpFLe, OpFGt, OpFGe:
		x, y := math.Float64frombits(uint64(a)), math.Float64frombits(uint64(b))
		var r bool
		switch op {
		case OpFEq:
			r = x == y
		case OpFNe:
			r = x != y
		case OpFLt:
			r = x < y
		case OpFLe:
			r = x <= y
		case OpFGt:
			r = x > y
		default:
			r = x >= y
		}
		if r {
			return 1, nil
		}
		return 0, nil
	case OpIToF:
		if w == 32 {
			return int64(math.Float32bits(float32(a))), nil
		}
		return int64(math.Float64bits(float64(a))), nil
	case OpUToF:
		if w == 32 {
			return int64(math.Float32bits(float32(uint64(a)))), nil
		}
		return int64(math.Float64bits(float64(uint64(a)))), nil
	case OpFToI:
		return floatToInt(math.Float64frombits(uint64(a)), t)
	case OpFExt:
		return int64(math.Float64bits(float64(math.Float32frombits(uint32(a))))), nil
	case OpFTrunc:
		return int64(math.Float32bits(float32(math.Float64frombits(uint64(a))))), nil
	}
	return 0, fmt.Errorf("internal error: %s is not a floating-point operator", op)
}

// floatToInt truncates f toward zero and converts it to the integer type t
// (a width of 0 is int64), or fails when the result is not a value of t.
func floatToInt(f float64, t *Type) (int64, error) {
	w, signed := 64, true
	if t != nil && t.Kind == TInt && t.Width > 0 {
		w, signed = t.Width, t.Signed
	}
	if t != nil && t.Kind != TInt {
		return 0, fmt.Errorf("internal error: float converted to %s", t)
	}
	tr := math.Trunc(f)
	var ok bool
	if signed {
		lim := math.Ldexp(1, w-1)
		ok = tr >= -lim && tr < lim
	} else {
		ok = tr >= 0 && tr < math.Ldexp(1, w) // -0.5 truncates to -0, which is >= 0
	}
	if !ok {
		return 0, fmt.Errorf("conversion of %s to %s out of range (undefined behaviour)", strconv.FormatFloat(f, 'g', -1, 64), intTypeName(t))
	}
	if !signed && w == 64 {
		return int64(uint64(tr)), nil
	}
	return int64(tr), nil
}

// intTypeName names an integer type as C does in messages.
func intTypeName(t *Type) string {
	if t == nil || t.Width == 0 {
		return "int64"
	}
	if t.Signed {
		return fmt.Sprintf("int%d", t.Width)
	}
	return fmt.Sprintf("uint%d", t.Width)
}

// floatArith applies the binary float operator op (OpFAdd..OpFDiv) in the
// format F: the one operation is rounded to F, as C's arithmetic in that
// format under FLT_EVAL_METHOD 0.
func floatArith[F float32 | float64](op Operator, x, y F) F {
	switch op {
	case OpFAdd:
		return x + y
	case OpFSub:
		return x - y
	case OpFMul:
		return x * y
	}
	return x / y
}
