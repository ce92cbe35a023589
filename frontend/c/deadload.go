package c

import "ncmc/ir"

// dropDeadLoads turns each load of f whose result no instruction of f
// reads, from an address that cannot fail (a global, a constant member or
// in-bounds constant index of one), into a no-op (Options.DropDeadLoads).
// Under an interleaving model (sc, tso, pso) such a load changes no state
// and no later behaviour: every value a thread can compute, every final
// state and every violation stays reachable, and none is added; only
// executions that differ in what the dead load read are merged (GenMC's
// big1 and big2 load values they never use: 1.8 million executions under
// sc). It is not done under ra and rc11, where an acquire load orders what
// follows it, nor when data races are reported (a dead read can race).
func dropDeadLoads(f *ir.Func) {
	used := make([]bool, len(f.Locals))
	for i := range f.Body {
		in := &f.Body[i]
		for _, e := range append([]*ir.Expr{in.Addr, in.A, in.B}, in.Args...) {
			visitLocals(e, func(slot int, _ ir.Pos) {
				if slot >= 0 && slot < len(used) {
					used[slot] = true
				}
			})
		}
		if in.Op == ir.IWait || in.Op == ir.ILoopHead {
			if in.Dst >= 0 && in.Dst < len(used) {
				used[in.Dst] = true // read by the interpreter itself
			}
		}
	}
	target := make([]bool, len(f.Body))
	for i := range f.Body {
		switch in := &f.Body[i]; in.Op {
		case ir.IJump:
			target[in.Target] = true
		case ir.IBranch:
			target[in.Target], target[in.Target2] = true, true
		}
	}
	for i := range f.Body {
		in := &f.Body[i]
		if in.Op != ir.ILoad || in.Dst < 0 || in.Dst >= len(used) || used[in.Dst] {
			continue
		}
		safe := safeAddr(in.Addr)
		if !safe && in.Addr != nil && in.Addr.Kind == ir.ELocal && i > 0 && !target[i] {
			// the pointer was just assigned (atomic_load's macro:
			// __atomic_load_ptr = &x; load it)
			prev := &f.Body[i-1]
			safe = prev.Op == ir.IAssign && prev.Dst == in.Addr.Local && safeAddr(prev.A)
		}
		if !safe {
			continue
		}
		*in = ir.Instr{Op: ir.INop, Pos: in.Pos, Dst: -1, Dst2: -1}
	}
}

// safeAddr reports whether evaluating address e cannot fail and gives a
// cell of a global.
func safeAddr(e *ir.Expr) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ir.EGlobalAddr:
		return true
	case ir.EField:
		return safeAddr(e.A)
	case ir.EIndex:
		return e.B != nil && e.B.Kind == ir.EConst && e.B.Val >= 0 && e.B.Val < int64(e.Len) && safeAddr(e.A)
	}
	return false
}
