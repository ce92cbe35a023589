package cir

import (
	"fmt"

	"ncmc/ir"
)

// validate checks the structural invariants that lowering promises the
// interpreter: operands present and in range, jump targets inside the body,
// every instruction positioned, every body ending in a return or jump, the
// layout of globals and records consistent.
func validate(p *ir.Program) error {
	if p.Main == nil {
		return fmt.Errorf("no main")
	}
	for i, g := range p.Globals {
		if g.Block != i+1 {
			return fmt.Errorf("global %s: block %d, want %d", g.Name, g.Block, i+1)
		}
		if len(g.Init) != g.Type.Size() {
			return fmt.Errorf("global %s: %d init cells, want %d", g.Name, len(g.Init), g.Type.Size())
		}
	}
	for _, r := range p.Records {
		off := 0
		for _, f := range r.Fields {
			if f.Offset != off {
				return fmt.Errorf("record %s field %s: offset %d, want %d", r.Name, f.Name, f.Offset, off)
			}
			off += f.Type.Size()
		}
		if off != r.Size {
			return fmt.Errorf("record %s: size %d, want %d", r.Name, r.Size, off)
		}
	}
	for _, f := range p.Funcs {
		if err := validateFunc(p, f); err != nil {
			return fmt.Errorf("%s: %v", f.FullName(), err)
		}
	}
	return nil
}

func validateFunc(p *ir.Program, f *ir.Func) error {
	n := len(f.Body)
	if n == 0 {
		return fmt.Errorf("empty body")
	}
	if last := f.Body[n-1].Op; last != ir.IReturn && last != ir.IJump {
		return fmt.Errorf("body ends with %s", last)
	}
	if f.NumParams > len(f.Locals) {
		return fmt.Errorf("NumParams %d > %d locals", f.NumParams, len(f.Locals))
	}
	if f.Recv != nil && (f.NumParams == 0 || f.Locals[0].Type.Kind != ir.TPtr) {
		return fmt.Errorf("method without receiver local")
	}
	for _, l := range f.Locals {
		if l.Type == nil || !l.Type.IsScalar() {
			return fmt.Errorf("local %s has non-scalar type %v", l.Name, l.Type)
		}
	}
	var expr func(e *ir.Expr, addr bool) error
	expr = func(e *ir.Expr, addr bool) error {
		if e == nil {
			return fmt.Errorf("nil expression")
		}
		if e.Type == nil {
			return fmt.Errorf("expression without type")
		}
		switch e.Kind {
		case ir.EConst:
		case ir.ELocal:
			if e.Local < 0 || e.Local >= len(f.Locals) {
				return fmt.Errorf("local %d out of range", e.Local)
			}
		case ir.EUnary:
			return expr(e.A, false)
		case ir.EBinary:
			if err := expr(e.A, false); err != nil {
				return err
			}
			return expr(e.B, false)
		case ir.EGlobalAddr:
			if e.Global < 0 || e.Global >= len(p.Globals) {
				return fmt.Errorf("global %d out of range", e.Global)
			}
		case ir.EIndex:
			if e.Len <= 0 || e.Stride <= 0 {
				return fmt.Errorf("bad index len %d stride %d", e.Len, e.Stride)
			}
			if err := expr(e.A, true); err != nil {
				return err
			}
			return expr(e.B, false)
		case ir.EField:
			if e.Offset < 0 {
				return fmt.Errorf("negative field offset")
			}
			return expr(e.A, true)
		default:
			return fmt.Errorf("unexpected expression kind %d", e.Kind)
		}
		return nil
	}
	dst := func(d int, required bool) error {
		if d == -1 && !required {
			return nil
		}
		if d < 0 || d >= len(f.Locals) {
			return fmt.Errorf("dst %d out of range", d)
		}
		if d < f.NumParams && f.Recv != nil && d == 0 {
			return fmt.Errorf("write to the receiver")
		}
		return nil
	}
	for i := range f.Body {
		in := &f.Body[i]
		if !in.Pos.IsValid() {
			return fmt.Errorf("%d: %s without position", i, in.Op)
		}
		var errs []error
		add := func(err error) {
			if err != nil {
				errs = append(errs, err)
			}
		}
		switch in.Op {
		case ir.IAssign:
			add(dst(in.Dst, true))
			add(expr(in.A, false))
		case ir.ILoad:
			add(dst(in.Dst, true))
			add(expr(in.Addr, true))
		case ir.IStore:
			add(expr(in.Addr, true))
			add(expr(in.A, false))
		case ir.IRMW:
			add(dst(in.Dst, true))
			add(expr(in.Addr, true))
			add(expr(in.A, false))
		case ir.ICAS:
			add(dst(in.Dst, true))
			add(dst(in.Dst2, false))
			add(expr(in.Addr, true))
			add(expr(in.A, false))
			add(expr(in.B, false))
			if in.FailOrder == ir.OrderRel || in.FailOrder == ir.OrderAcqRel || in.FailOrder == ir.OrderNA {
				add(fmt.Errorf("bad fail order %s", in.FailOrder))
			}
		case ir.IFence:
		case ir.ILock, ir.IUnlock, ir.ISignal, ir.IBroadcast:
			add(expr(in.Addr, true))
		case ir.ITryLock:
			add(dst(in.Dst, true))
			add(expr(in.Addr, true))
		case ir.IWait:
			add(expr(in.Addr, true))
			add(expr(in.B, true))
		case ir.ISpawn, ir.ICall:
			add(dst(in.Dst, false))
			if in.Func == nil {
				add(fmt.Errorf("no func"))
				break
			}
			if len(in.Args) != in.Func.NumParams {
				add(fmt.Errorf("%d args for %d params", len(in.Args), in.Func.NumParams))
			}
			for _, a := range in.Args {
				add(expr(a, false))
			}
			if in.Dst >= 0 && in.Op == ir.ICall && in.Func.Result.Kind == ir.TVoid {
				add(fmt.Errorf("result of void call used"))
			}
		case ir.IJoin:
			add(dst(in.Dst, false))
			add(expr(in.A, false))
		case ir.IReturn:
			if (in.A == nil) != (f.Result.Kind == ir.TVoid) {
				add(fmt.Errorf("return value does not match result %s", f.Result))
			}
			if in.A != nil {
				add(expr(in.A, false))
			}
		case ir.IJump:
			if in.Target < 0 || in.Target >= n {
				add(fmt.Errorf("jump target %d out of range", in.Target))
			}
		case ir.IBranch:
			add(expr(in.A, false))
			if in.Target < 0 || in.Target >= n || in.Target2 < 0 || in.Target2 >= n {
				add(fmt.Errorf("branch targets %d, %d out of range", in.Target, in.Target2))
			}
		case ir.IAssert, ir.IAssume:
			add(expr(in.A, false))
		case ir.INondet:
			add(dst(in.Dst, true))
			add(expr(in.A, false))
			add(expr(in.B, false))
		case ir.IAtomicBegin, ir.IAtomicEnd:
		case ir.IAlloc:
			add(dst(in.Dst, true))
			if in.Record == nil || len(in.Args) != in.Record.Size {
				add(fmt.Errorf("alloc args do not match the record"))
			}
			for _, a := range in.Args {
				add(expr(a, false))
			}
		case ir.ILoopHead, ir.ISelf:
			add(dst(in.Dst, true))
			if in.Bound < 0 {
				add(fmt.Errorf("negative bound"))
			}
		default:
			add(fmt.Errorf("unexpected op %s", in.Op))
		}
		if len(errs) > 0 {
			return fmt.Errorf("%d: %s: %v", i, ir.InstrString(in, f, p), errs[0])
		}
	}
	return nil
}
