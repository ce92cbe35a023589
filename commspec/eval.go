package commspec

import (
	"errors"
	"fmt"
)

// node is a checked, typed expression.
type node struct {
	op   nodeOp
	typ  Type
	val  int64 // nConst
	side int   // nVar, nState: 0 (suffix 1) or 1 (suffix 2)
	slot int   // nVar: argument index, or len(Params) for the result; nParam: parameter index
	name string
	fn   *Func // nFunc, nState
	args []*node
	off  int // offset in the source text (diagnostics)
}

type nodeOp uint8

const (
	nConst nodeOp = iota
	nVar
	nParam
	nNeg
	nNot
	nBitNot
	nAdd
	nSub
	nMul
	nDiv
	nMod
	nBitAnd
	nBitOr
	nBitXor
	nShl
	nShr
	nEq
	nNe
	nLt
	nLe
	nGt
	nGe
	nAnd
	nOr
	nMin
	nMax
	nAbs
	nFunc
	nState
)

var binOps = map[string]nodeOp{
	"+": nAdd, "-": nSub, "*": nMul, "/": nDiv, "%": nMod, "&": nBitAnd, "|": nBitOr, "^": nBitXor,
	"<<": nShl, ">>": nShr, "==": nEq, "!=": nNe, "<": nLt, "<=": nLe, ">": nGt, ">=": nGe,
	"&&": nAnd, "||": nOr,
}

var opText = map[nodeOp]string{
	nNeg: "-", nNot: "!", nBitNot: "~", nAdd: "+", nSub: "-", nMul: "*", nDiv: "/", nMod: "%",
	nBitAnd: "&", nBitOr: "|", nBitXor: "^", nShl: "<<", nShr: ">>", nEq: "==", nNe: "!=",
	nLt: "<", nLe: "<=", nGt: ">", nGe: ">=", nAnd: "&&", nOr: "||", nMin: "min", nMax: "max", nAbs: "abs",
}

// errNoState is returned when an L1 condition meets an invocation without state.
var errNoState = errors.New("the condition uses the abstract state (L1), but the invocation has no State")

// env is what an expression is evaluated against: the two invocations of a
// condition, or the arguments of a helper function.
type env struct {
	inv    [2]*Invocation
	params []int64
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *env) eval(n *node) (int64, error) {
	switch n.op {
	case nConst:
		return n.val, nil
	case nVar:
		v := e.inv[n.side]
		var x int64
		if n.slot < len(v.Args) {
			x = v.Args[n.slot]
		} else {
			x = v.Ret
		}
		if n.typ == Bool {
			x = b2i(x != 0)
		}
		return x, nil
	case nParam:
		return e.params[n.slot], nil
	case nAnd, nOr:
		a, err := e.eval(n.args[0])
		if err != nil {
			return 0, err
		}
		if (n.op == nAnd) == (a == 0) { // false && _, true || _
			return a, nil
		}
		return e.eval(n.args[1])
	case nNeg, nNot, nBitNot, nAbs:
		a, err := e.eval(n.args[0])
		if err != nil {
			return 0, err
		}
		switch n.op {
		case nNeg:
			return -a, nil
		case nNot:
			return b2i(a == 0), nil
		case nBitNot:
			return ^a, nil
		default:
			if a < 0 {
				return -a, nil
			}
			return a, nil
		}
	case nFunc, nState:
		args := make([]int64, len(n.args))
		for i, a := range n.args {
			v, err := e.eval(a)
			if err != nil {
				return 0, err
			}
			args[i] = v
		}
		var v int64
		if n.op == nFunc {
			inner := env{params: args}
			var err error
			if v, err = inner.eval(n.fn.body); err != nil {
				return 0, err
			}
		} else {
			st := e.inv[n.side].State
			if st == nil {
				return 0, errNoState
			}
			var err error
			if v, err = st.Eval(n.fn.Name, args); err != nil {
				return 0, fmt.Errorf("%s: %w", n.name, err)
			}
		}
		if n.typ == Bool {
			v = b2i(v != 0)
		}
		return v, nil
	}
	a, err := e.eval(n.args[0])
	if err != nil {
		return 0, err
	}
	b, err := e.eval(n.args[1])
	if err != nil {
		return 0, err
	}
	return binop(n.op, a, b)
}

// binop applies a binary operator with CIR's semantics: 64-bit wrap-around,
// division truncating toward zero, division by zero and shift counts outside
// [0, 63] are errors.
func binop(op nodeOp, a, b int64) (int64, error) {
	switch op {
	case nAdd:
		return a + b, nil
	case nSub:
		return a - b, nil
	case nMul:
		return a * b, nil
	case nDiv, nMod:
		if b == 0 {
			return 0, errors.New("division by zero")
		}
		if b == -1 {
			if op == nDiv {
				return -a, nil
			}
			return 0, nil
		}
		if op == nDiv {
			return a / b, nil
		}
		return a % b, nil
	case nBitAnd:
		return a & b, nil
	case nBitOr:
		return a | b, nil
	case nBitXor:
		return a ^ b, nil
	case nShl, nShr:
		if b < 0 || b > 63 {
			return 0, fmt.Errorf("shift count %d out of range [0, 63]", b)
		}
		if op == nShl {
			return a << uint(b), nil
		}
		return a >> uint(b), nil
	case nEq:
		return b2i(a == b), nil
	case nNe:
		return b2i(a != b), nil
	case nLt:
		return b2i(a < b), nil
	case nLe:
		return b2i(a <= b), nil
	case nGt:
		return b2i(a > b), nil
	case nGe:
		return b2i(a >= b), nil
	case nMin:
		return min(a, b), nil
	case nMax:
		return max(a, b), nil
	}
	return 0, fmt.Errorf("internal error: operator %d", op)
}
