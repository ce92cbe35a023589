package ir

import "fmt"

// Validate checks the structural invariants that every front end promises
// the interpreter, and returns the first one a program breaks, or nil:
//
//   - main is one of the program's functions; every callee and spawned
//     function is too, called with as many arguments as it has parameters,
//     and a void function's result is not used;
//   - globals are laid out block after block, each with one initial value
//     per cell; record fields are laid out cell after cell and fill the
//     record; thread-local variables are scalars;
//   - every function has a result type, at most as many parameters as
//     locals, only scalar locals, a receiver local if it is a method (never
//     written), and a non-empty body ending in a return or a jump; every
//     instruction of a function that has a position has one too;
//   - every operand is there, typed and in range (locals, globals, TLS
//     slots, jump targets, destinations; index lengths and strides
//     positive), and operations with a result have a destination;
//   - a return carries a value exactly when the function has a result, and
//     a failed compare-and-swap does not release.
//
// The interpreter may assume them (Validate is the test suites' oracle for
// the front ends, e.g. under fuzzing).
func Validate(p *Program) error {
	if p == nil || p.Main == nil {
		return fmt.Errorf("no main")
	}
	funcs := make(map[*Func]bool, len(p.Funcs))
	for _, f := range p.Funcs {
		if f == nil {
			return fmt.Errorf("nil function")
		}
		funcs[f] = true
	}
	if !funcs[p.Main] {
		return fmt.Errorf("main is not among the program's functions")
	}
	for i, g := range p.Globals {
		if g.Type == nil {
			return fmt.Errorf("global %s: no type", g.Name)
		}
		if g.Block != i+1 {
			return fmt.Errorf("global %s: block %d, want %d", g.Name, g.Block, i+1)
		}
		if len(g.Init) != g.Type.Size() {
			return fmt.Errorf("global %s: %d initial cells, want %d", g.Name, len(g.Init), g.Type.Size())
		}
	}
	for _, r := range p.Records {
		off := 0
		for _, f := range r.Fields {
			if f.Type == nil {
				return fmt.Errorf("record %s field %s: no type", r.Name, f.Name)
			}
			if f.Offset != off {
				return fmt.Errorf("record %s field %s: offset %d, want %d", r.Name, f.Name, f.Offset, off)
			}
			off += f.Type.Size()
		}
		if off != r.Size {
			return fmt.Errorf("record %s: size %d, want %d", r.Name, r.Size, off)
		}
	}
	for _, v := range p.TLS {
		if v.Type == nil || !v.Type.IsScalar() {
			return fmt.Errorf("thread-local %s: not a scalar", v.Name)
		}
	}
	for _, f := range p.Funcs {
		v := validator{p: p, f: f, funcs: funcs}
		if err := v.fn(); err != nil {
			return fmt.Errorf("%s: %v", f.FullName(), err)
		}
	}
	return nil
}

// validator checks one function.
type validator struct {
	p     *Program
	f     *Func
	funcs map[*Func]bool
}

func (v *validator) fn() error {
	f := v.f
	n := len(f.Body)
	switch {
	case f.Result == nil:
		return fmt.Errorf("no result type")
	case n == 0:
		return fmt.Errorf("empty body")
	case f.Body[n-1].Op != IReturn && f.Body[n-1].Op != IJump:
		return fmt.Errorf("body ends with %s, not a return or jump", f.Body[n-1].Op)
	case f.NumParams < 0 || f.NumParams > len(f.Locals):
		return fmt.Errorf("%d parameters for %d locals", f.NumParams, len(f.Locals))
	case f.Recv != nil && (f.NumParams == 0 || f.Locals[0].Type == nil || f.Locals[0].Type.Kind != TPtr):
		return fmt.Errorf("method without receiver local")
	}
	for _, l := range f.Locals {
		if l.Type == nil || !l.Type.IsScalar() {
			return fmt.Errorf("local %s has non-scalar type %v", l.Name, l.Type)
		}
	}
	for i := range f.Body {
		in := &f.Body[i]
		if err := v.instr(in); err != nil {
			return fmt.Errorf("%d: %s: %v", i, InstrString(in, f, v.p), err)
		}
	}
	return nil
}

// instr checks one instruction.
func (v *validator) instr(in *Instr) error {
	f, n := v.f, len(v.f.Body)
	if !in.Pos.IsValid() && f.Pos.IsValid() {
		return fmt.Errorf("no position")
	}
	var err error
	check := func(e error) {
		if err == nil {
			err = e
		}
	}
	val := func(e *Expr) { check(v.expr(e, "value")) }
	addr := func(e *Expr) { check(v.expr(e, "address")) }
	dst := func(d int, required bool) { check(v.dst(d, required)) }
	if in.Op != ICAS {
		dst(in.Dst2, false) // only a CAS has a second destination, but -1 is always allowed
		if in.Dst2 != -1 && err == nil {
			check(fmt.Errorf("second destination %d", in.Dst2))
		}
	}
	switch in.Op {
	case INop, IFence, IAtomicBegin, IAtomicEnd:
	case IAssign:
		dst(in.Dst, true)
		val(in.A)
	case ILoad:
		dst(in.Dst, true)
		addr(in.Addr)
	case IStore:
		addr(in.Addr)
		val(in.A)
	case IRMW:
		dst(in.Dst, true)
		addr(in.Addr)
		val(in.A)
		if w := in.Wrap.Width(); w != 0 && w != 8 && w != 16 && w != 32 {
			check(fmt.Errorf("RMW wraps at %d bits (want 8, 16 or 32)", w))
		}
	case ICAS:
		dst(in.Dst, true)
		dst(in.Dst2, false)
		addr(in.Addr)
		val(in.A)
		val(in.B)
		if in.FailOrder == OrderRel || in.FailOrder == OrderAcqRel {
			check(fmt.Errorf("failure order %s releases", in.FailOrder))
		}
	case ILock, IUnlock, ISignal, IBroadcast, IFree:
		addr(in.Addr)
	case ITryLock:
		dst(in.Dst, true)
		addr(in.Addr)
	case IWait:
		addr(in.Addr)
		addr(in.B)
	case ISpawn, ICall:
		dst(in.Dst, false)
		switch {
		case in.Func == nil:
			check(fmt.Errorf("no function"))
		case !v.funcs[in.Func]:
			check(fmt.Errorf("function %s is not among the program's functions", in.Func.FullName()))
		case len(in.Args) != in.Func.NumParams:
			check(fmt.Errorf("%d arguments for %d parameters", len(in.Args), in.Func.NumParams))
		case in.Op == ICall && in.Dst >= 0 && in.Func.Result != nil && in.Func.Result.Kind == TVoid:
			check(fmt.Errorf("result of a void call used"))
		}
		for _, a := range in.Args {
			val(a)
		}
	case IJoin:
		dst(in.Dst, false)
		val(in.A)
	case IReturn:
		if (in.A == nil) != (f.Result.Kind == TVoid) {
			check(fmt.Errorf("return value does not match the result type %s", f.Result))
		}
		if in.A != nil {
			val(in.A)
		}
	case IJump:
		if in.Target < 0 || in.Target >= n {
			check(fmt.Errorf("jump target %d out of range", in.Target))
		}
	case IBranch:
		val(in.A)
		if in.Target < 0 || in.Target >= n || in.Target2 < 0 || in.Target2 >= n {
			check(fmt.Errorf("branch targets %d, %d out of range", in.Target, in.Target2))
		}
	case IAssert, IAssume:
		val(in.A)
	case INondet:
		dst(in.Dst, true)
		val(in.A)
		val(in.B)
	case IAlloc:
		dst(in.Dst, true)
		if in.Record == nil || len(in.Args) > in.Record.Size {
			check(fmt.Errorf("allocation arguments do not fit the record"))
		}
		for _, a := range in.Args {
			val(a)
		}
		if in.A != nil {
			val(in.A)
		}
	case ILoopHead:
		dst(in.Dst, true)
		if in.Bound < 0 {
			check(fmt.Errorf("negative bound %d", in.Bound))
		}
	case ISelf:
		dst(in.Dst, true)
	case IFail:
	case ITLSLoad, ITLSStore:
		if in.Slot < 0 || in.Slot >= len(v.p.TLS) {
			check(fmt.Errorf("thread-local slot %d out of range", in.Slot))
		}
		if in.Op == ITLSLoad {
			dst(in.Dst, true)
		} else {
			val(in.A)
		}
	default:
		check(fmt.Errorf("unknown opcode %d", in.Op))
	}
	return err
}

// dst checks a destination local: required, or -1 for none.
func (v *validator) dst(d int, required bool) error {
	if d == -1 && !required {
		return nil
	}
	if d < 0 || d >= len(v.f.Locals) {
		return fmt.Errorf("destination %d out of range", d)
	}
	if v.f.Recv != nil && d == 0 {
		return fmt.Errorf("write to the receiver")
	}
	return nil
}

// expr checks an operand (what names its role in messages).
func (v *validator) expr(e *Expr, what string) error {
	if e == nil {
		return fmt.Errorf("missing %s operand", what)
	}
	if e.Type == nil {
		return fmt.Errorf("%s operand without type", what)
	}
	switch e.Kind {
	case EConst:
	case ELocal:
		if e.Local < 0 || e.Local >= len(v.f.Locals) {
			return fmt.Errorf("local %d out of range", e.Local)
		}
	case EUnary, ECast:
		if err := checkFloatOp(e); err != nil {
			return err
		}
		return v.expr(e.A, "value")
	case EBinary:
		if err := checkFloatOp(e); err != nil {
			return err
		}
		if err := v.expr(e.A, "value"); err != nil {
			return err
		}
		return v.expr(e.B, "value")
	case EGlobalAddr:
		if e.Global < 0 || e.Global >= len(v.p.Globals) {
			return fmt.Errorf("global %d out of range", e.Global)
		}
	case EIndex:
		if e.Len <= 0 || e.Stride <= 0 {
			return fmt.Errorf("index of length %d, stride %d", e.Len, e.Stride)
		}
		if err := v.expr(e.A, "address"); err != nil {
			return err
		}
		return v.expr(e.B, "value")
	case EField:
		if e.Offset < 0 {
			return fmt.Errorf("negative field offset %d", e.Offset)
		}
		return v.expr(e.A, "address")
	default:
		return fmt.Errorf("unknown expression kind %d", e.Kind)
	}
	return nil
}

// checkFloatOp checks the shape of an expression with a floating-point
// operator: unary or binary as the operator is, and of the type its
// description in instr.go asks for.
func checkFloatOp(e *Expr) error {
	if e.Kind == ECast || !e.Op.IsFloat() {
		return nil
	}
	unary := e.Op == OpFNeg || e.Op >= OpIToF
	if unary != (e.Kind == EUnary) {
		return fmt.Errorf("floating-point operator %s in a %s expression", e.Op, map[bool]string{true: "binary", false: "unary"}[e.Kind == EBinary])
	}
	switch {
	case e.Op.IsFloatCompare():
	case e.Op == OpFToI:
		if e.Type.Kind != TInt {
			return fmt.Errorf("%s to %s, not an integer type", e.Op, e.Type)
		}
	case e.Op == OpFExt || e.Op == OpFTrunc:
	default:
		if e.Type.Kind != TFloat || (e.Type.Width != 32 && e.Type.Width != 64) {
			return fmt.Errorf("floating-point operator %s of type %s", e.Op, e.Type)
		}
	}
	return nil
}
