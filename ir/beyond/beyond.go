// Package beyond decides, from a program's code, whether what lies beyond
// the loop bounds a bounded exploration hit can lead to a violation. When
// it cannot, the bounded exploration found every violation the program
// has, and a bounded search that found none verifies the program.
//
// # The argument
//
// A bounded exploration stops a thread when a loop head runs once more
// than the unroll bound. Let H be the loop heads whose bound some explored
// execution hit, and call an instruction beyond when it can run after a
// head of H: it is reachable from one in the program's supergraph (the
// control flow of each function, a call to the callee's entry and from
// the callee's returns to the instruction after every call of it, a spawn
// to the new thread's function). Check proves that
//
//  1. no instruction beyond can fail: no assertion, no unconditional
//     failure, no expression that may raise a runtime error (ir.Expr.MayFail),
//     no memory access through a pointer (an invalid pointer, a use after
//     free, an uninitialised cell), no access to a global that may take
//     part in a data race (when races are violations: a global accessed
//     non-atomically somewhere by more than one thread, or one whose
//     address is taken), no free,
//     no allocation of a variable count, no nondeterministic choice but
//     from a constant range (an empty or huge one is an error), no call of
//     a recursive function (a too-deep stack is an error);
//  2. no instruction that is not beyond reads memory that an instruction
//     beyond writes: accesses that name a global (g, g.f, g[i]) touch that
//     global, every other access may touch any global whose address is
//     taken and any allocated block; a return beyond from a function with
//     locals in memory counts as a write of them all (they die, and a
//     later access to them is a use after return);
//  3. the program has no locks, condition variables or joins, so no
//     deadlock (which depends on a whole execution, not on a prefix of it)
//     can arise.
//
// Then take any execution of the unbounded program with a violation. The
// events of instructions that are not beyond form a prefix of it closed
// under program order and reads-from (2, and a thread's events before one
// that is not beyond are not beyond either), so by 1 the violating events
// and everything they depend on lie in that prefix, which runs no head of
// H. No other loop head runs more than the bound there either: the first
// event of the prefix that would is itself in a bounded prefix, which the
// exploration explored, so its loop would be in H. Under a memory model
// whose consistent executions are closed under such prefixes (sc, tso,
// pso, ra and rc11 all are), the bounded exploration explored an
// execution with that prefix and found the violation. (A deadlock is not
// in a prefix; 3 rules it out.)
//
// The check is conservative: it answers no whenever it is unsure, with
// the reason.
package beyond

import (
	"cmp"
	"fmt"
	"maps"

	"ncmc/ir"
)

// Check reports whether no violation of p can lie beyond the loop heads
// at the positions hits (ir.Pos.String of each head whose bound an
// exploration hit), so that a bounded exploration that hit only those
// bounds and found no violation verifies p; races says whether data races
// are violations (ra, rc11, --races). When it cannot show it, why says
// what stands in the way.
func Check(p *ir.Program, hits []string, races bool) (ok bool, why string) {
	if p == nil || p.Main == nil {
		return false, "no program"
	}
	if p.CondSteps != nil {
		return false, "the program uses condition variables"
	}
	a := &analysis{p: p, races: races, fidx: map[*ir.Func]int{}}
	a.funcs()
	if !a.spawns() {
		a.races = false // one thread: no data race
	}
	a.consts = make([]map[int]int, len(a.fs))
	a.set = make([][]map[int]bool, len(a.fs))
	for fi, f := range a.fs {
		a.consts[fi] = f.GlobalLocals()
	}
	if why := a.blocking(); why != "" {
		return false, why
	}
	heads, why := a.heads(hits)
	if why != "" {
		return false, why
	}
	a.recursion()
	a.escapes()
	a.reach(heads)
	if why := a.failBeyond(); why != "" {
		return false, why
	}
	if why := a.readBeyond(); why != "" {
		return false, why
	}
	return true, ""
}

// failBeyond says which instruction beyond may fail (1), "" if none.
func (a *analysis) failBeyond() string {
	for fi, f := range a.fs {
		for i := range f.Body {
			if a.beyond[fi][i] {
				if why := a.fails(fi, i); why != "" {
					return fmt.Sprintf("%s beyond the loop bound %s", why, at(&f.Body[i], f))
				}
			}
		}
	}
	return ""
}

// readBeyond says which instruction that is not beyond may read what one
// beyond writes (2), "" if none.
func (a *analysis) readBeyond() string {
	// what beyond writes: globals by name (g: the first writer), any
	// escaped global, anything a pointer reaches (top)
	named := map[int]string{}
	escaped, top := "", ""
	for fi, f := range a.fs {
		for i := range f.Body {
			in := &f.Body[i]
			w, what := loc{}, ""
			switch {
			case !a.beyond[fi][i]:
				continue
			case writesMem(in.Op):
				w, what = a.loc(fi, in.Addr), in.Op.String()+" "+at(in, f)
			case in.Op == ir.IReturn && stackMemory(f):
				// the locals in memory of the frame die: a later
				// access to them through a pointer is a violation
				w, what = loc{-1}, "return "+at(in, f)+", which ends the life of its locals in memory,"
			default:
				continue
			}
			switch {
			case w.g < 0:
				top = cmp.Or(top, what)
			case a.escaped[w.g]:
				escaped = cmp.Or(escaped, what)
				fallthrough
			default:
				if _, ok := named[w.g]; !ok {
					named[w.g] = what
				}
			}
		}
	}
	for fi, f := range a.fs {
		for i := range f.Body {
			in := &f.Body[i]
			if a.beyond[fi][i] || !readsMem(in.Op) {
				continue
			}
			r, what := a.loc(fi, in.Addr), ""
			switch {
			case r.g < 0:
				what = cmp.Or(top, escaped)
			case a.escaped[r.g]:
				what = cmp.Or(named[r.g], top)
			default:
				what = named[r.g]
			}
			if what != "" {
				return fmt.Sprintf("the %s %s may read what the %s beyond the loop bound writes", in.Op, at(in, f), what)
			}
		}
	}
	return ""
}

// analysis holds what Check computes of one program.
type analysis struct {
	p     *ir.Program
	races bool
	fs    []*ir.Func // the functions main reaches by calls and spawns
	fidx  map[*ir.Func]int
	// callers[f] lists the call sites (function, index) of f
	callers [][]site
	beyond  [][]bool
	escaped []bool // a global whose address is taken
	racy    []bool // a global that may take part in a data race (escapes)
	rec     map[*ir.Func]bool
	// consts[f] holds f's locals that only ever hold an address of one
	// global (ir.Func.GlobalLocals); set[f][i] those of them assigned
	// on every path to instruction i (else they may still be null)
	consts []map[int]int
	set    [][]map[int]bool
}

type site struct{ f, i int }

// loc is what an access touches: one global, or (g < 0) anything a
// pointer may reach.
type loc struct{ g int }

// funcs collects the functions reachable from main.
func (a *analysis) funcs() {
	var add func(f *ir.Func)
	add = func(f *ir.Func) {
		if _, ok := a.fidx[f]; ok || f == nil {
			return
		}
		a.fidx[f] = len(a.fs)
		a.fs = append(a.fs, f)
		for i := range f.Body {
			if in := &f.Body[i]; in.Op == ir.ICall || in.Op == ir.ISpawn {
				add(in.Func)
			}
		}
	}
	add(a.p.Main)
	a.callers = make([][]site, len(a.fs))
	for fi, f := range a.fs {
		for i := range f.Body {
			if in := &f.Body[i]; in.Op == ir.ICall {
				c := a.fidx[in.Func]
				a.callers[c] = append(a.callers[c], site{fi, i})
			}
		}
	}
}

// spawns reports whether the program may start a thread.
func (a *analysis) spawns() bool {
	for _, f := range a.fs {
		for i := range f.Body {
			if f.Body[i].Op == ir.ISpawn {
				return true
			}
		}
	}
	return false
}

// blocking says where the program may wait for another thread (3).
func (a *analysis) blocking() string {
	for _, f := range a.fs {
		for i := range f.Body {
			switch in := &f.Body[i]; in.Op {
			case ir.ILock, ir.IUnlock, ir.ITryLock, ir.IWait, ir.ISignal, ir.IBroadcast, ir.IJoin:
				return fmt.Sprintf("the program uses locks, condition variables or joins (%s %s)", in.Op, at(in, f))
			}
		}
	}
	return ""
}

// heads returns the loop heads at the positions hits; every position
// must name one.
func (a *analysis) heads(hits []string) ([]site, string) {
	if len(hits) == 0 {
		return nil, "no loop bound was hit"
	}
	want := map[string]bool{}
	for _, h := range hits {
		want[h] = false
	}
	var heads []site
	for fi, f := range a.fs {
		for i := range f.Body {
			in := &f.Body[i]
			if in.Op != ir.ILoopHead {
				continue
			}
			if _, ok := want[in.Pos.String()]; ok {
				want[in.Pos.String()] = true
				heads = append(heads, site{fi, i})
			}
		}
	}
	for _, h := range hits {
		if !want[h] {
			return nil, "no loop of the program is at " + h
		}
	}
	return heads, ""
}

// escapes marks the globals whose address is taken (used anywhere but as
// the global an access names, directly or through a local of
// GlobalLocals, or in an initial value), and the racy ones.
func (a *analysis) escapes() {
	n := len(a.p.Globals)
	a.escaped = make([]bool, n)
	a.racy = make([]bool, n)
	for fi, f := range a.fs {
		var expr func(e *ir.Expr)
		expr = func(e *ir.Expr) {
			if e == nil {
				return
			}
			switch e.Kind {
			case ir.EGlobalAddr:
				a.escaped[e.Global] = true
			case ir.ELocal:
				if g, ok := a.consts[fi][e.Local]; ok {
					a.escaped[g] = true
				}
			}
			expr(e.A)
			expr(e.B)
		}
		// addr walks an address: the global it names does not escape,
		// its indices may
		addr := func(e *ir.Expr) {
			for e != nil && (e.Kind == ir.EIndex || e.Kind == ir.EField) {
				expr(e.B)
				e = e.A
			}
			if a.loc(fi, e).g < 0 {
				expr(e)
			}
		}
		for i := range f.Body {
			in := &f.Body[i]
			_, toConst := a.consts[fi][in.Dst]
			switch {
			case accesses(in.Op):
				addr(in.Addr)
				expr(in.A)
			case in.Op == ir.IAssign && toConst:
				addr(in.A)
			default:
				expr(in.Addr)
				expr(in.A)
			}
			expr(in.B)
			for _, e := range in.Args {
				expr(e)
			}
		}
	}
	for _, g := range a.p.Globals {
		for _, v := range g.Init {
			if b := ir.PtrBlock(v); v != 0 && b >= 1 && b <= n {
				a.escaped[b-1] = true
			}
		}
	}
	copy(a.racy, a.escaped)
	plain := make([]bool, n)
	for fi, f := range a.fs {
		for i := range f.Body {
			in := &f.Body[i]
			if !accesses(in.Op) {
				continue
			}
			if g := a.loc(fi, in.Addr).g; g >= 0 && !in.Order.IsAtomic() && !a.p.Globals[g].Atomic {
				plain[g] = true
			}
		}
	}
	own := a.owners()
	for g := range n {
		// a global only one thread touches takes part in no race
		a.racy[g] = a.racy[g] || plain[g] && own[g] < 0
	}
}

// owners returns, for each global, the one thread that may touch it by
// its name (g, g.f, g[i], or a local of GlobalLocals), or -1 when two
// threads may, or a thread that may run more than once: one whose
// function is spawned at two places, or by another function than main,
// or by main at a spawn on a cycle of its control flow (or main is
// recursive). Main is thread 0, the thread of the k-th spawn of main's
// function is k. Escaped globals get -1. (It needs a.rec.)
func (a *analysis) owners() []int {
	n := len(a.p.Globals)
	own := make([]int, n)
	for g := range own {
		own[g] = -2 // no thread yet
	}
	main := a.fidx[a.p.Main]
	spawned := map[int]int{} // spawns of each function
	roots := []int{main}     // the function of each thread
	once := []bool{!a.rec[a.p.Main]}
	for fi, f := range a.fs {
		for i := range f.Body {
			if in := &f.Body[i]; in.Op == ir.ISpawn {
				roots = append(roots, a.fidx[in.Func])
				once = append(once, fi == main && !a.rec[a.p.Main] && !onCycle(f, i))
				spawned[a.fidx[in.Func]]++
			}
		}
	}
	for k, r := range roots {
		if k > 0 && spawned[r] > 1 {
			once[k] = false
		}
		for _, fi := range a.calls(r) {
			for i := range a.fs[fi].Body {
				in := &a.fs[fi].Body[i]
				if !accesses(in.Op) {
					continue
				}
				switch g := a.loc(fi, in.Addr).g; {
				case g < 0:
				case !once[k] || own[g] != -2 && own[g] != k:
					own[g] = -1
				default:
					own[g] = k
				}
			}
		}
	}
	for g := range own {
		if a.escaped[g] {
			own[g] = -1
		}
	}
	return own
}

// calls returns function fi and the functions it may call (not spawn),
// transitively.
func (a *analysis) calls(fi int) []int {
	seen := map[int]bool{fi: true}
	out := []int{fi}
	for k := 0; k < len(out); k++ {
		for i := range a.fs[out[k]].Body {
			if in := &a.fs[out[k]].Body[i]; in.Op == ir.ICall {
				if c := a.fidx[in.Func]; !seen[c] {
					seen[c] = true
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// onCycle reports whether instruction i of f lies on a cycle of f's
// control flow (calls and spawns continue at the next instruction).
func onCycle(f *ir.Func, i int) bool {
	seen := make([]bool, len(f.Body))
	work := append([]int(nil), f.Body[i].Next(i)...)
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		if k >= len(f.Body) || seen[k] {
			continue
		}
		if k == i {
			return true
		}
		seen[k] = true
		work = append(work, f.Body[k].Next(k)...)
	}
	return false
}

// reach marks the instructions reachable from heads in the supergraph.
func (a *analysis) reach(heads []site) {
	a.beyond = make([][]bool, len(a.fs))
	for fi, f := range a.fs {
		a.beyond[fi] = make([]bool, len(f.Body))
	}
	work := append([]site(nil), heads...)
	push := func(s site) {
		if s.i < len(a.fs[s.f].Body) && !a.beyond[s.f][s.i] {
			work = append(work, s)
		}
	}
	returned := make([]bool, len(a.fs))
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if a.beyond[s.f][s.i] {
			continue
		}
		a.beyond[s.f][s.i] = true
		in := &a.fs[s.f].Body[s.i]
		switch in.Op {
		case ir.ICall:
			push(site{a.fidx[in.Func], 0})
		case ir.ISpawn:
			push(site{a.fidx[in.Func], 0})
			push(site{s.f, s.i + 1})
		case ir.IReturn:
			if !returned[s.f] {
				returned[s.f] = true
				for _, c := range a.callers[s.f] {
					push(site{c.f, c.i + 1})
				}
			}
		default:
			for _, n := range in.Next(s.i) {
				push(site{s.f, n})
			}
		}
	}
}

// recursion marks the functions that may call themselves: a call of
// them stands in a function they call (calls).
func (a *analysis) recursion() {
	a.rec = map[*ir.Func]bool{}
	for fi, f := range a.fs {
		reached := map[int]bool{}
		for _, c := range a.calls(fi) {
			reached[c] = true
		}
		for _, c := range a.callers[fi] {
			if reached[c.f] {
				a.rec[f] = true
				break
			}
		}
	}
}

// fails says how instruction i of function fi may fail (1), "" if it
// cannot.
func (a *analysis) fails(fi, i int) string {
	in := &a.fs[fi].Body[i]
	nonNull := func(rec *ir.Expr) bool { return a.nonNull(fi, i, rec) }
	for _, e := range append([]*ir.Expr{in.Addr, in.A, in.B}, in.Args...) {
		if e.MayFail(nonNull) {
			return "an expression that may fail"
		}
	}
	switch in.Op {
	case ir.IAssert:
		if in.A == nil || in.A.Kind != ir.EConst || in.A.Val == 0 {
			return "an assertion"
		}
	case ir.IFail:
		return "a failure (" + in.Msg + ")"
	case ir.IFree:
		return "a free"
	case ir.INondet:
		// an empty range, or one too large to enumerate, is an error
		if in.A == nil || in.B == nil || in.A.Kind != ir.EConst || in.B.Kind != ir.EConst ||
			in.B.Val < in.A.Val || in.B.Val-in.A.Val >= 1<<20 {
			return "a nondeterministic choice of a range that is not a constant one"
		}
	case ir.IAlloc:
		if in.A != nil {
			return "an allocation of a variable count"
		}
	case ir.ICall:
		if a.rec[in.Func] {
			return "a call of the recursive " + in.Func.FullName()
		}
	case ir.ILoad, ir.IStore, ir.IRMW, ir.ICAS:
		g := a.loc(fi, in.Addr).g
		if g < 0 || !a.nonNull(fi, i, in.Addr) {
			return "an access through a pointer"
		}
		if a.races && a.racy[g] {
			return "an access to " + a.p.Globals[g].Name + " (accessed non-atomically or through pointers: a data race is possible)"
		}
	}
	return ""
}

// loc returns what the address e, in function fi, may touch.
func (a *analysis) loc(fi int, e *ir.Expr) loc {
	switch e = ir.AddrBase(e); {
	case e == nil:
	case e.Kind == ir.EGlobalAddr:
		return loc{e.Global}
	case e.Kind == ir.ELocal:
		if g, ok := a.consts[fi][e.Local]; ok {
			return loc{g}
		}
	}
	return loc{-1}
}

// nonNull reports whether the address e, at instruction i of function
// fi, names a cell of a global: a global's address, or a local of
// GlobalLocals assigned on every path to i.
func (a *analysis) nonNull(fi, i int, e *ir.Expr) bool {
	switch e = ir.AddrBase(e); {
	case e == nil:
	case e.Kind == ir.EGlobalAddr:
		return true
	case e.Kind == ir.ELocal:
		_, ok := a.consts[fi][e.Local]
		return ok && a.assigned(fi)[i][e.Local]
	}
	return false
}

// assigned returns, for each instruction of function fi, the locals of
// consts[fi] that every path from the function's entry assigns before it.
func (a *analysis) assigned(fi int) []map[int]bool {
	if a.set[fi] != nil {
		return a.set[fi]
	}
	f := a.fs[fi]
	in := make([]map[int]bool, len(f.Body))
	in[0] = map[int]bool{}
	work := []int{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		out := in[i]
		if d := f.Body[i].Dst; f.Body[i].Op == ir.IAssign {
			if _, ok := a.consts[fi][d]; ok && !out[d] {
				out = maps.Clone(out)
				out[d] = true
			}
		}
		next := f.Body[i].Next(i)
		if f.Body[i].Op == ir.ICall || f.Body[i].Op == ir.ISpawn {
			next = []int{i + 1}
		}
		for _, n := range next {
			if n >= len(f.Body) {
				continue
			}
			switch {
			case in[n] == nil:
				in[n] = out
			default:
				meet := map[int]bool{}
				for d := range in[n] {
					if out[d] {
						meet[d] = true
					}
				}
				if len(meet) == len(in[n]) {
					continue
				}
				in[n] = meet
			}
			work = append(work, n)
		}
	}
	for i := range in {
		if in[i] == nil { // unreachable
			in[i] = map[int]bool{}
		}
	}
	a.set[fi] = in
	return in
}

// stackMemory reports whether f allocates locals in memory that die when
// it returns (ir.AllocStack, ir.AllocUninit).
func stackMemory(f *ir.Func) bool {
	for i := range f.Body {
		if in := &f.Body[i]; in.Op == ir.IAlloc && (in.Alloc == ir.AllocStack || in.Alloc == ir.AllocUninit) {
			return true
		}
	}
	return false
}

func accesses(op ir.Op) bool {
	return op == ir.ILoad || op == ir.IStore || op == ir.IRMW || op == ir.ICAS || op == ir.IFree
}

func readsMem(op ir.Op) bool { return op == ir.ILoad || op == ir.IRMW || op == ir.ICAS }

func writesMem(op ir.Op) bool {
	return op == ir.IStore || op == ir.IRMW || op == ir.ICAS || op == ir.IFree
}

// at names in's position and function.
func at(in *ir.Instr, f *ir.Func) string {
	return fmt.Sprintf("at %s (in %s)", in.Pos, f.FullName())
}
