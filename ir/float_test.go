package ir

import (
	"math"
	"strings"
	"testing"
)

// TestEvalFloat checks the floating-point operators on values where
// rounding to the operation's format, the IEEE special values and the
// conversions' edge cases matter.
func TestEvalFloat(t *testing.T) {
	f32 := func(f float32) int64 { return int64(math.Float32bits(f)) }
	f64 := func(f float64) int64 { return int64(math.Float64bits(f)) }
	i32 := &Type{Kind: TInt, Width: 32, Signed: true}
	u8 := &Type{Kind: TInt, Width: 8}
	u64 := &Type{Kind: TInt, Width: 64}
	cases := []struct {
		name string
		op   Operator
		t    *Type
		a, b int64
		want int64
		err  string
	}{
		{"float-add-rounds-to-float", OpFAdd, Float32, f32(16777216), f32(1), f32(16777216), ""},
		{"double-add", OpFAdd, Float64, f64(16777216), f64(1), f64(16777217), ""},
		{"float-sum", OpFAdd, Float32, f32(0.1), f32(0.2), f32(0.3), ""},
		{"double-sum", OpFAdd, Float64, f64(0.1), f64(0.2), f64(0.30000000000000004), ""},
		{"div-by-zero-inf", OpFDiv, Float64, f64(1), f64(0), f64(math.Inf(1)), ""},
		{"neg-zero", OpFNeg, Float32, f32(0), 0, int64(1 << 31), ""},
		{"nan-ne", OpFNe, Int, f64(math.NaN()), f64(math.NaN()), 1, ""},
		{"nan-lt", OpFLt, Int, f64(math.NaN()), f64(1), 0, ""},
		{"zeros-equal", OpFEq, Int, f64(0), f64(math.Copysign(0, -1)), 1, ""},
		{"itof-float-rounds-once", OpIToF, Float32, 16777217, 0, f32(16777216), ""},
		{"utof-max", OpUToF, Float64, -1, 0, f64(18446744073709551616), ""},
		{"ftoi-truncates", OpFToI, i32, f64(-2.9), 0, -2, ""},
		{"ftoi-u64-big", OpFToI, u64, f64(1e19), 0, -8446744073709551616, ""},
		{"ftoi-minus-half-unsigned", OpFToI, u8, f64(-0.5), 0, 0, ""},
		{"ftoi-out-of-range", OpFToI, i32, f64(3e9), 0, 0, "out of range"},
		{"ftoi-negative-unsigned", OpFToI, u8, f64(-1), 0, 0, "out of range"},
		{"ftoi-nan", OpFToI, i32, f64(math.NaN()), 0, 0, "out of range"},
		{"fext-exact", OpFExt, Float64, f32(0.1), 0, f64(float64(float32(0.1))), ""},
		{"ftrunc-rounds", OpFTrunc, Float32, f64(0.1), 0, f32(0.1), ""},
		{"ftrunc-overflow", OpFTrunc, Float32, f64(1e39), 0, f32(float32(math.Inf(1))), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := EvalFloat(c.op, c.t, c.a, c.b)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %#x, %v; want error %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %#x, %v; want %#x", got, err, c.want)
			}
		})
	}
}
