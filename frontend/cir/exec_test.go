package cir

import (
	"fmt"

	"ncmc/ir"
)

// seqExec is a tiny sequential reference interpreter for lowered programs,
// used to test that lowering preserves the meaning of single-threaded code
// (and of threads run one after the other: a spawned thread runs to
// completion when it is joined, or at the end of main). It follows the ir
// doc comments; it is not the checker's interpreter.
type seqExec struct {
	p        *ir.Program
	mem      [][]int64
	unroll   int
	threads  []*seqThread
	steps    int
	maxSteps int
	depth    int
	atomic   int
}

type seqThread struct {
	fn     *ir.Func
	args   []int64
	done   bool
	result int64
}

type seqStop struct{ msg string }

func newSeqExec(p *ir.Program, unroll int) *seqExec {
	x := &seqExec{p: p, unroll: unroll, mem: make([][]int64, len(p.Globals)+1), maxSteps: 1e6}
	for i, g := range p.Globals {
		x.mem[i+1] = append([]int64(nil), g.Init...)
	}
	return x
}

// run runs main (and any threads not joined) and returns "ok" or the reason
// the run stopped.
func (x *seqExec) run() (out string) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(seqStop)
			if !ok {
				panic(r)
			}
			out = s.msg
		}
	}()
	x.call(x.p.Main, nil)
	for i := 0; i < len(x.threads); i++ {
		x.finish(i)
	}
	return "ok"
}

func (x *seqExec) stop(format string, args ...any) {
	panic(seqStop{fmt.Sprintf(format, args...)})
}

func (x *seqExec) finish(i int) {
	t := x.threads[i]
	if !t.done {
		t.done = true
		t.result = x.call(t.fn, t.args)
	}
}

// global returns the cells of the global called name.
func (x *seqExec) global(name string) []int64 {
	g := x.p.GlobalByName(name)
	return x.mem[g.Block]
}

func (x *seqExec) cell(a int64) *int64 {
	b, off := ir.PtrBlock(a), ir.PtrOffset(a)
	if a == 0 {
		x.stop("runtime error: null pointer dereference")
	}
	if b <= 0 || b >= len(x.mem) || off >= len(x.mem[b]) {
		x.stop("runtime error: bad address %#x", a)
	}
	return &x.mem[b][off]
}

func (x *seqExec) eval(e *ir.Expr, locals []int64) int64 {
	switch e.Kind {
	case ir.EConst:
		return e.Val
	case ir.ELocal:
		return locals[e.Local]
	case ir.EGlobalAddr:
		return ir.MakePtr(e.Global+1, 0)
	case ir.EUnary:
		a := x.eval(e.A, locals)
		switch e.Op {
		case ir.OpNeg:
			return -a
		case ir.OpNot:
			return b2i(a == 0)
		case ir.OpBitNot:
			return ^a
		}
	case ir.EBinary:
		a := x.eval(e.A, locals)
		b := x.eval(e.B, locals)
		switch e.Op {
		case ir.OpDiv, ir.OpMod:
			if b == 0 {
				x.stop("runtime error: division by zero")
			}
		case ir.OpShl, ir.OpShr:
			if b < 0 || b > 63 {
				x.stop("runtime error: shift count %d", b)
			}
		}
		ops := map[ir.Operator]tokKind{ir.OpAdd: tPlus, ir.OpSub: tMinus, ir.OpMul: tStar, ir.OpDiv: tSlash,
			ir.OpMod: tPercent, ir.OpAnd: tAmp, ir.OpOr: tPipe, ir.OpXor: tCaret, ir.OpShl: tShl, ir.OpShr: tShr,
			ir.OpEq: tEq, ir.OpNe: tNe, ir.OpLt: tLt, ir.OpLe: tLe, ir.OpGt: tGt, ir.OpGe: tGe,
			ir.OpLAnd: tAndAnd, ir.OpLOr: tOrOr}
		v, _ := constBinary(ops[e.Op], a, b)
		return v
	case ir.EIndex:
		base := x.eval(e.A, locals)
		i := x.eval(e.B, locals)
		if base == 0 {
			x.stop("runtime error: null pointer dereference")
		}
		if i < 0 || i >= int64(e.Len) {
			x.stop("runtime error: index %d out of bounds [0, %d)", i, e.Len)
		}
		return base + i*int64(e.Stride)
	case ir.EField:
		base := x.eval(e.A, locals)
		if base == 0 {
			x.stop("runtime error: null pointer dereference")
		}
		return base + int64(e.Offset)
	}
	x.stop("bad expression kind %d", e.Kind)
	return 0
}

func (x *seqExec) call(f *ir.Func, args []int64) int64 {
	if x.depth++; x.depth > 200 {
		x.stop("call depth limit")
	}
	defer func() { x.depth-- }()
	locals := make([]int64, len(f.Locals))
	copy(locals, args)
	pc := 0
	for {
		if x.steps++; x.steps > x.maxSteps {
			x.stop("step limit")
		}
		in := &f.Body[pc]
		pc++
		ev := func(e *ir.Expr) int64 { return x.eval(e, locals) }
		switch in.Op {
		case ir.INop, ir.IFence:
		case ir.IAssign:
			locals[in.Dst] = ev(in.A)
		case ir.ILoad:
			locals[in.Dst] = *x.cell(ev(in.Addr))
		case ir.IStore:
			a, v := ev(in.Addr), ev(in.A)
			*x.cell(a) = v
		case ir.IRMW:
			a, v := ev(in.Addr), ev(in.A)
			c := x.cell(a)
			old := *c
			*c = in.RMW.Apply(old, v)
			if in.Dst >= 0 {
				locals[in.Dst] = old
			}
		case ir.ICAS:
			a, exp, des := ev(in.Addr), ev(in.A), ev(in.B)
			c := x.cell(a)
			old := *c
			ok := old == exp
			if ok {
				*c = des
			}
			locals[in.Dst] = old
			if in.Dst2 >= 0 {
				locals[in.Dst2] = b2i(ok)
			}
		case ir.ILock:
			c := x.cell(ev(in.Addr))
			if *c != 0 {
				x.stop("blocked: lock held")
			}
			*c = 1
		case ir.IUnlock:
			c := x.cell(ev(in.Addr))
			if *c == 0 {
				x.stop("runtime error: unlock of a free mutex")
			}
			*c = 0
		case ir.ITryLock:
			c := x.cell(ev(in.Addr))
			locals[in.Dst] = b2i(*c == 0)
			*c = 1
		case ir.IWait:
			x.stop("blocked: wait")
		case ir.ISignal, ir.IBroadcast:
			x.cell(ev(in.Addr))
		case ir.ISpawn:
			a := make([]int64, len(in.Args))
			for i, e := range in.Args {
				a[i] = ev(e)
			}
			x.threads = append(x.threads, &seqThread{fn: in.Func, args: a})
			if in.Dst >= 0 {
				locals[in.Dst] = int64(len(x.threads)) + 1 // thread number + 1; main is thread 0
			}
		case ir.IJoin:
			h := ev(in.A)
			i := int(h) - 2
			if i < 0 || i >= len(x.threads) {
				x.stop("runtime error: join of bad handle %d", h)
			}
			x.finish(i)
			if in.Dst >= 0 {
				locals[in.Dst] = x.threads[i].result
			}
		case ir.ICall:
			a := make([]int64, len(in.Args))
			for i, e := range in.Args {
				a[i] = ev(e)
			}
			r := x.call(in.Func, a)
			if in.Dst >= 0 {
				locals[in.Dst] = r
			}
		case ir.IReturn:
			if in.A == nil {
				return 0
			}
			return ev(in.A)
		case ir.IJump:
			pc = in.Target
		case ir.IBranch:
			if ev(in.A) != 0 {
				pc = in.Target
			} else {
				pc = in.Target2
			}
		case ir.IAssert:
			if ev(in.A) == 0 {
				x.stop("assertion failed: %s", in.Msg)
			}
		case ir.IAssume:
			if ev(in.A) == 0 {
				if in.Assume == ir.AssumeSpin {
					x.stop("blocked: await")
				}
				x.stop("blocked: assume")
			}
		case ir.INondet:
			locals[in.Dst] = ev(in.A) // the lowest value
		case ir.IAtomicBegin:
			x.atomic++
		case ir.IAtomicEnd:
			x.atomic--
		case ir.IAlloc:
			cells := make([]int64, in.Record.Size)
			for i, e := range in.Args {
				cells[i] = ev(e)
			}
			if len(x.mem) > 1e5 {
				x.stop("heap limit")
			}
			x.mem = append(x.mem, cells)
			locals[in.Dst] = ir.MakePtr(len(x.mem)-1, 0)
		case ir.ILoopHead:
			locals[in.Dst]++
			bound := in.Bound
			if bound == 0 {
				bound = x.unroll
			}
			if locals[in.Dst] > int64(bound) {
				x.stop("bound hit")
			}
		case ir.ISelf:
			locals[in.Dst] = 1
		default:
			x.stop("unexpected op %s", in.Op)
		}
	}
}
