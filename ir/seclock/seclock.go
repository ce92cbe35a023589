// Package seclock rewrites a program's atomic sections (ir.IAtomicBegin …
// ir.IAtomicEnd) into critical sections of one hidden mutex, for explorers
// that model mutexes but not atomic sections (explore/vmcrx under sc).
//
// # The rewriting
//
//   - The outermost IAtomicBegin of a section locks the hidden mutex S and
//     its IAtomicEnd unlocks S; nested ones become no-ops.
//   - Every load, store, RMW and CAS outside a section that may touch a
//     cell some section touches is wrapped in lock(S) … unlock(S): three
//     visible steps instead of one. A section's cells are known when all
//     its accesses (and those of the functions it calls) name globals
//     (g, g.f, g[i]); an access outside sections to another global is
//     then left alone. Accesses to a function's own locals that never
//     leave it (private) are left alone too. Lower refuses a program in
//     which some other access outside sections would be wrapped only
//     because what it addresses, or what the sections touch, is not known
//     (pointers): explorers pay for every lock order, and wrapping every
//     access of a pointer-heavy program multiplies them.
//   - So is every visible instruction outside a section that may fail,
//     or after which the thread may fail before its next visible one (an
//     assertion, reach_error, an expression that may divide by zero,
//     shift out of range, index out of bounds or dereference null; a call
//     or return counts as may fail), and a spawn whose new thread may
//     fail so: a failure then never happens while a section is half
//     done, so the state reported at it is one the original program
//     has. (A lock or join cannot wait holding S: lock(S); unlock(S)
//     follows it instead.)
//   - An assume inside a section that fails unlocks S before it blocks (the
//     interpreter releases a section whose thread blocks for good).
//   - A function called inside a section is called through a copy whose
//     accesses are not wrapped and whose own sections are nested (no-ops).
//
// # Why it is exact under sc
//
// Under the interleaving model a thread inside a section runs alone while
// it can. After the rewriting, other threads may still take steps that do
// not touch shared memory (spawn, join, fences, locking other mutexes)
// while a section runs, but every memory access waits for S, so no access
// of another thread falls between two accesses of a section. Steps that
// touch no shared cell commute with the section's accesses, so every
// execution of the rewritten program has the same reads, values and final
// state as one of the original, and every execution of the original is one
// of the rewritten program (lock S where the section or the access
// starts). Locks of S always read the free mutex (0), so the read-value
// vectors of the two programs correspond one to one: the rewritten vector
// has a 0 for each lock of S, at places fixed by the thread's control
// flow.
//
// This holds only when no thread can wait inside a section: Lower refuses
// sections that may lock, unlock or try a mutex, wait on or signal a
// condition variable, join a thread or free memory (a thread waiting inside
// a section lets the others run in the interpreter, but would keep S here),
// and sections that do not end in the function that starts them. Under
// tso and pso the rewriting is not exact (a section also stops every store
// buffer from draining), and data-race detection would see the wrapping
// locks as synchronisation: callers use it under sc without race
// detection only.
package seclock

import (
	"fmt"

	"ncmc/ir"
)

// LockName is the name of the hidden mutex global that Lower adds.
const LockName = "atomic section"

// What a counterexample says of a section's start and end; the locks
// that Lower adds around other steps are not shown (ir.MsgQuiet).
const (
	MsgEnter = "enters an atomic section"
	MsgLeave = "leaves the atomic section"
)

// Has reports whether p has an atomic section.
func Has(p *ir.Program) bool {
	for _, f := range p.Funcs {
		for i := range f.Body {
			if f.Body[i].Op == ir.IAtomicBegin {
				return true
			}
		}
	}
	return false
}

// Lower returns p with its atomic sections rewritten as critical sections
// of a hidden mutex (the package comment says how and why), or p itself
// when it has none. It returns an error saying why when a section is not
// of a shape the rewriting keeps exact. p is not modified; the result
// shares p's globals, records and expressions.
func Lower(p *ir.Program) (*ir.Program, error) {
	if !Has(p) {
		return p, nil
	}
	l := &lowerer{p: p, depth: map[*ir.Func][]int{}, inner: map[*ir.Func]*ir.Func{}, privs: map[*ir.Func]map[int]bool{}, consts: map[*ir.Func]map[int]int{}}
	for _, f := range p.Funcs {
		d, err := depths(f)
		if err != nil {
			return nil, err
		}
		l.depth[f] = d
	}
	q := *p
	q.Globals = append(append([]*ir.Global(nil), p.Globals...), &ir.Global{
		Name: LockName, Type: ir.Mutex, Block: len(p.Globals) + 1, Init: []int64{0}, Hidden: true,
	})
	l.lock = &ir.Expr{Kind: ir.EGlobalAddr, Global: len(p.Globals), Type: ir.Mutex}
	l.footprint()
	l.sites = map[*ir.Func][]site{}
	for _, f := range p.Funcs {
		for i := range f.Body {
			if in := &f.Body[i]; in.Op == ir.ICall {
				l.sites[in.Func] = append(l.sites[in.Func], site{f, i})
			}
		}
	}
	l.out = make(map[*ir.Func]*ir.Func, len(p.Funcs))
	q.Funcs = make([]*ir.Func, 0, len(p.Funcs))
	for _, f := range p.Funcs {
		g := &ir.Func{}
		*g = *f
		l.out[f] = g
		q.Funcs = append(q.Funcs, g)
	}
	for _, f := range p.Funcs {
		body, err := l.rewrite(f, false)
		if err != nil {
			return nil, err
		}
		l.out[f].Body = body
	}
	// Copies made while rewriting (functions called inside sections),
	// rewritten in turn; each may ask for more.
	for k := 0; k < len(l.copies); k++ {
		c := l.copies[k]
		body, err := l.rewrite(c.orig, true)
		if err != nil {
			return nil, err
		}
		c.f.Body = body
		q.Funcs = append(q.Funcs, c.f)
	}
	q.Main = l.out[p.Main]
	if err := ir.Validate(&q); err != nil {
		return nil, fmt.Errorf("internal error: atomic sections as a lock: %v", err)
	}
	return &q, nil
}

type lowerer struct {
	p     *ir.Program
	depth map[*ir.Func][]int    // per instruction, the number of open sections before it
	out   map[*ir.Func]*ir.Func // the rewritten version of each function
	inner map[*ir.Func]*ir.Func // the copy of a function for calls inside sections
	// copies are the inner copies, in order of creation.
	copies []struct{ orig, f *ir.Func }
	lock   *ir.Expr // the hidden mutex's address
	// touched marks the globals some section may access; all: some
	// section accesses cells that are not known (a pointer).
	touched map[int]bool
	all     bool
	privs   map[*ir.Func]map[int]bool // privateLocals of each function
	consts  map[*ir.Func]map[int]int  // GlobalLocals of each function
	sites   map[*ir.Func][]site       // the calls of each function
}

// site is an instruction i of f.
type site struct {
	f *ir.Func
	i int
}

// private reports whether address a, in f, designates a cell of a local
// of f's frame that no other thread can reach: a block f allocates for a
// local (not malloc), held in a local slot that is used only as the base
// of addresses of f's loads, stores, RMWs and CASes (never copied, stored,
// passed, compared or returned).
func (l *lowerer) private(f *ir.Func, a *ir.Expr) bool {
	if f == nil {
		return false
	}
	a = ir.AddrBase(a)
	if a == nil || a.Kind != ir.ELocal {
		return false
	}
	pv, ok := l.privs[f]
	if !ok {
		pv = privateLocals(f)
		l.privs[f] = pv
	}
	return pv[a.Local]
}

// privateLocals returns the local slots of f that private accepts.
func privateLocals(f *ir.Func) map[int]bool {
	pv := map[int]bool{}
	for i := range f.Body {
		in := &f.Body[i]
		if in.Op == ir.IAlloc && in.Alloc != ir.AllocMalloc && in.Alloc != ir.AllocCalloc && in.Dst >= 0 {
			pv[in.Dst] = true
		}
	}
	if len(pv) == 0 {
		return pv
	}
	allocs := map[int]int{}
	// uses marks escaping slots: e is used as a value.
	var uses func(e *ir.Expr)
	uses = func(e *ir.Expr) {
		if e == nil {
			return
		}
		if e.Kind == ir.ELocal {
			delete(pv, e.Local)
		}
		uses(e.A)
		uses(e.B)
	}
	// addr: e is an address; its base may be a private slot.
	addr := func(e *ir.Expr) {
		for e != nil && (e.Kind == ir.EIndex || e.Kind == ir.EField) {
			uses(e.B) // an index
			e = e.A
		}
		if e != nil && e.Kind != ir.ELocal {
			uses(e)
		}
	}
	for i := range f.Body {
		in := &f.Body[i]
		if in.Op == ir.IAlloc {
			if in.Dst >= 0 {
				allocs[in.Dst]++
			}
			uses(in.A)
			for _, a := range in.Args {
				uses(a)
			}
			continue
		}
		if isAccess(in.Op) {
			addr(in.Addr)
		} else {
			uses(in.Addr)
		}
		uses(in.A)
		uses(in.B)
		for _, a := range in.Args {
			uses(a)
		}
		// a slot written by anything but its allocation
		if in.Dst >= 0 {
			delete(pv, in.Dst)
		}
		if in.Dst2 >= 0 {
			delete(pv, in.Dst2)
		}
	}
	for s, n := range allocs {
		if n > 1 {
			delete(pv, s)
		}
	}
	return pv
}

// global returns the global whose cells address a, in f, designates (g,
// g.f, g[i], or a local of f that only ever holds one such address), or
// false when a is not known to address one global.
func (l *lowerer) global(f *ir.Func, a *ir.Expr) (int, bool) {
	switch a = ir.AddrBase(a); {
	case a == nil:
	case a.Kind == ir.EGlobalAddr:
		return a.Global, true
	case a.Kind == ir.ELocal && f != nil:
		cs, ok := l.consts[f]
		if !ok {
			cs = f.GlobalLocals()
			l.consts[f] = cs
		}
		g, ok := cs[a.Local]
		return g, ok
	}
	return 0, false
}

func isAccess(op ir.Op) bool {
	return op == ir.ILoad || op == ir.IStore || op == ir.IRMW || op == ir.ICAS
}

// blocks reports whether instructions with opcode op may wait.
func blocks(op ir.Op) bool { return op == ir.ILock || op == ir.IJoin || op == ir.IWait }

// tailFails reports whether the instructions that run from index i of f
// up to the thread's next visible instruction (the rest of a step) may
// stop the thread with a violation. Calls are followed into their callee;
// a return continues in every caller (retFails).
func (l *lowerer) tailFails(f *ir.Func, i int) bool {
	fails, returns := l.tail(f, i, map[*ir.Func]bool{f: true})
	return fails || returns && l.retFails(f, map[*ir.Func]bool{})
}

// tail reports whether the invisible instructions of f from index i may
// fail, and whether they may return; stack holds the functions being
// followed (a recursive call counts as may fail).
func (l *lowerer) tail(f *ir.Func, i int, stack map[*ir.Func]bool) (fails, returns bool) {
	seen := map[int]bool{}
	work := []int{i}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		if k >= len(f.Body) || seen[k] {
			continue
		}
		seen[k] = true
		in := &f.Body[k]
		switch {
		case in.Op.IsVisible() || in.Op == ir.IAtomicBegin:
		case l.mayFail(f, in):
			return true, returns
		case in.Op == ir.IReturn:
			returns = true
		case in.Op == ir.ICall:
			if stack[in.Func] {
				return true, returns
			}
			stack[in.Func] = true
			cf, cr := l.tail(in.Func, 0, stack)
			delete(stack, in.Func)
			if cf {
				return true, returns
			}
			if cr {
				work = append(work, k+1)
			}
		default:
			work = append(work, in.Next(k)...)
		}
	}
	return false, returns
}

// retFails reports whether the callers of f may fail after f returns,
// before their next visible instruction (stack: functions being followed;
// a recursive return counts as may fail).
func (l *lowerer) retFails(f *ir.Func, stack map[*ir.Func]bool) bool {
	if stack[f] {
		return true
	}
	stack[f] = true
	defer delete(stack, f)
	for _, c := range l.sites[f] {
		fails, returns := l.tail(c.f, c.i+1, map[*ir.Func]bool{c.f: true})
		if fails || returns && l.retFails(c.f, stack) {
			return true
		}
	}
	return false
}

// mayFail reports whether in may stop its thread with a violation: an
// assertion, an unconditional failure, or an expression that may raise a
// runtime error.
func (l *lowerer) mayFail(f *ir.Func, in *ir.Instr) bool {
	if in.Op == ir.IAssert || in.Op == ir.IFail {
		return true
	}
	if l.exprMayFail(f, in.Addr) || l.exprMayFail(f, in.A) || l.exprMayFail(f, in.B) {
		return true
	}
	for _, a := range in.Args {
		if l.exprMayFail(f, a) {
			return true
		}
	}
	return false
}

// exprMayFail reports whether evaluating e may raise a runtime error
// (division or remainder, a shift, an index, a field of a pointer, a
// floating-point operator).
func (l *lowerer) exprMayFail(f *ir.Func, e *ir.Expr) bool {
	// a field is null unless the record is a global's or a private
	// local's (or in one)
	return e.MayFail(func(rec *ir.Expr) bool {
		_, ok := l.global(f, rec)
		return ok || l.private(f, rec)
	})
}

// footprint sets touched and all: the cells of the accesses inside
// sections and in the functions called there (transitively).
func (l *lowerer) footprint() {
	l.touched = map[int]bool{}
	called := map[*ir.Func]bool{}
	var work []*ir.Func
	var cur *ir.Func
	note := func(in *ir.Instr) {
		switch {
		case isAccess(in.Op) && l.private(cur, in.Addr):
		case isAccess(in.Op):
			if g, ok := l.global(cur, in.Addr); ok {
				l.touched[g] = true
			} else {
				l.all = true
			}
		case in.Op == ir.ICall && !called[in.Func]:
			called[in.Func] = true
			work = append(work, in.Func)
		}
	}
	for _, f := range l.p.Funcs {
		cur = f
		for i := range f.Body {
			if l.depth[f][i] > 0 {
				note(&f.Body[i])
			}
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		cur = f
		for i := range f.Body {
			note(&f.Body[i])
		}
	}
}

// waits reports whether an access outside sections to address a, in f,
// must wait for the hidden mutex, and whether only because what it
// addresses, or what the sections touch, is not known (Lower refuses
// those). A private local's cells need no waiting.
func (l *lowerer) waits(f *ir.Func, a *ir.Expr) (wait, unknown bool) {
	if l.private(f, a) {
		return false, false
	}
	g, ok := l.global(f, a)
	if !ok || l.all {
		return true, true
	}
	return l.touched[g], false
}

// depths returns, for each instruction of f, how many atomic sections are
// open before it when f is entered outside one, or an error when that
// differs between paths, a section ends that was not begun, or one is
// open at a return.
func depths(f *ir.Func) ([]int, error) {
	d := make([]int, len(f.Body))
	for i := range d {
		d[i] = -1
	}
	if len(f.Body) == 0 {
		return d, nil
	}
	d[0] = 0
	work := []int{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		in := &f.Body[i]
		n := d[i]
		switch in.Op {
		case ir.IAtomicBegin:
			n++
		case ir.IAtomicEnd:
			if n == 0 {
				return nil, fmt.Errorf("%s: an atomic section ends that did not begin in %s", in.Pos, f.FullName())
			}
			n--
		}
		if in.Op == ir.IReturn && n > 0 {
			return nil, fmt.Errorf("%s: %s returns inside an atomic section", in.Pos, f.FullName())
		}
		for _, j := range in.Next(i) {
			if j >= len(f.Body) {
				continue
			}
			switch {
			case d[j] < 0:
				d[j] = n
				work = append(work, j)
			case d[j] != n:
				return nil, fmt.Errorf("%s: atomic sections of %s begin or end on some paths only", f.Body[j].Pos, f.FullName())
			}
		}
	}
	return d, nil
}

// innerOf returns the copy of f for calls inside sections, made on first
// use.
func (l *lowerer) innerOf(f *ir.Func) *ir.Func {
	if c, ok := l.inner[f]; ok {
		return c
	}
	c := &ir.Func{}
	*c = *f
	l.inner[f] = c
	l.copies = append(l.copies, struct{ orig, f *ir.Func }{f, c})
	return c
}

// rewrite returns the rewritten body of f; inside: f is the copy for calls
// inside sections (every instruction runs inside one).
func (l *lowerer) rewrite(f *ir.Func, inside bool) ([]ir.Instr, error) {
	depth := l.depth[f]
	body := make([]ir.Instr, 0, len(f.Body)+len(f.Body)/2)
	at := make([]int, len(f.Body)+1) // old index -> new index
	type fix struct{ at, fail int }  // a failing assume's branch: its target to patch
	var fixes []fix
	var tails [][2]int // jumps to the copies of rests of steps (restCopy), with the old index where each rest starts
	lockIns := func(op ir.Op, pos ir.Pos) ir.Instr {
		return ir.Instr{Op: op, Addr: l.lock, Pos: pos, Dst: -1, Dst2: -1, Msg: ir.MsgQuiet}
	}
	for i := range f.Body {
		at[i] = len(body)
		in := f.Body[i]
		in2 := depth[i] > 0 || inside
		orig := in.Func
		if in.Op == ir.ISpawn { // the new thread runs outside sections
			in.Func = l.out[in.Func]
		}
		if depth[i] < 0 { // unreachable: kept for the jumps, without sections
			switch in.Op {
			case ir.ICall:
				in.Func = l.out[in.Func]
			case ir.IAtomicBegin, ir.IAtomicEnd:
				in = ir.Instr{Op: ir.INop, Pos: in.Pos, Dst: -1, Dst2: -1}
			}
			body = append(body, in)
			continue
		}
		if in2 {
			switch in.Op {
			case ir.ILock, ir.IUnlock, ir.ITryLock, ir.IWait, ir.ISignal, ir.IBroadcast, ir.IJoin, ir.IFree:
				return nil, fmt.Errorf("%s: %s inside an atomic section", in.Pos, in.Op)
			}
		}
		var wait, unknown bool // an access outside sections (waits)
		if !in2 && isAccess(in.Op) {
			wait, unknown = l.waits(f, in.Addr)
		}
		switch {
		case in.Op == ir.IAtomicBegin:
			if in2 {
				in = ir.Instr{Op: ir.INop, Pos: in.Pos, Dst: -1, Dst2: -1}
			} else {
				in = lockIns(ir.ILock, in.Pos)
				in.Msg = MsgEnter
			}
			body = append(body, in)
		case in.Op == ir.IAtomicEnd:
			if inside || depth[i] > 1 {
				in = ir.Instr{Op: ir.INop, Pos: in.Pos, Dst: -1, Dst2: -1}
			} else {
				in = lockIns(ir.IUnlock, in.Pos)
				in.Msg = MsgLeave
			}
			body = append(body, in)
		case in.Op == ir.ICall && in2:
			in.Func = l.innerOf(in.Func)
			body = append(body, in)
		case in.Op == ir.ICall:
			in.Func = l.out[in.Func]
			body = append(body, in)
		case in.Op == ir.IAssume && in2:
			// if A goto next; unlock; assume A (fails: blocks for good)
			br := ir.Instr{Op: ir.IBranch, A: in.A, Pos: in.Pos, Dst: -1, Dst2: -1}
			fixes = append(fixes, fix{at: len(body), fail: len(body) + 1})
			leave := lockIns(ir.IUnlock, in.Pos)
			leave.Msg = MsgLeave
			body = append(body, br, leave, in)
		case !in2 && in.Op.IsVisible() && blocks(in.Op):
			// A thread must not wait holding the hidden mutex.
			if l.mayFail(f, &in) || l.tailFails(f, i+1) {
				return nil, fmt.Errorf("%s: a %s that may fail, or after which the thread may fail at once, in a program with atomic sections", in.Pos, in.Op)
			}
			body = append(body, in)
		case !in2 && in.Op.IsVisible() && l.tailFails(f, i+1):
			// The rest of the step runs holding the mutex too: a copy
			// of it that unlocks wherever it ends.
			tails = append(tails, [2]int{len(body) + 2, i + 1})
			body = append(body, lockIns(ir.ILock, in.Pos), in, ir.Instr{Op: ir.IJump, Target: i + 1, Pos: in.Pos, Dst: -1, Dst2: -1})
		case !in2 && isAccess(in.Op) && unknown:
			return nil, fmt.Errorf("%s: an access outside atomic sections that may touch a section's cells, which are known only at run time (pointers): every such access would wait for the sections, multiplying the lock orders to explore", in.Pos)
		case !in2 && in.Op.IsVisible() && (wait || l.mayFail(f, &in) ||
			in.Op == ir.ISpawn && l.tailFails(orig, 0)):
			body = append(body, lockIns(ir.ILock, in.Pos), in, lockIns(ir.IUnlock, in.Pos))
		default:
			body = append(body, in)
		}
	}
	at[len(f.Body)] = len(body)
	for k := range body {
		in := &body[k]
		switch in.Op {
		case ir.IJump:
			in.Target = at[in.Target]
		case ir.IBranch:
			in.Target, in.Target2 = at[in.Target], at[in.Target2]
		}
	}
	// The failing assumes' branches were remapped above as if their
	// targets were old indices: set them now.
	for _, x := range fixes {
		body[x.at].Target, body[x.at].Target2 = x.fail+2, x.fail
	}
	// The copies of the rests of steps.
	for _, t := range tails {
		var err error
		body, err = l.restCopy(f, body, at, t[1], t[0])
		if err != nil {
			return nil, err
		}
	}
	return body, nil
}

// restCopy appends to body a copy of the invisible instructions of f that
// run from old index start up to the thread's next visible instruction,
// run while holding the hidden mutex: every way out of them (a visible
// instruction, a section's start, a call, a return, a failing assume)
// first unlocks it and then goes on at the rewritten instruction (at maps
// old indices to body's). Body[from], a jump, is pointed at the copy. A
// way out after which the thread may still fail within the step (a call
// whose callee may fail at once, a return whose caller may) is refused:
// the failure would not be at the state of the original step.
func (l *lowerer) restCopy(f *ir.Func, body []ir.Instr, at []int, start, from int) ([]ir.Instr, error) {
	// the region, in the order of a search from start
	copyAt := map[int]int{}
	var region []int
	exit := func(k int) bool {
		if k >= len(f.Body) {
			return true
		}
		switch op := f.Body[k].Op; {
		case op.IsVisible(), op == ir.IAtomicBegin, op == ir.ICall, op == ir.IReturn:
			return true
		}
		return false
	}
	work := []int{start}
	for len(work) > 0 {
		k := work[0]
		work = work[1:]
		if _, ok := copyAt[k]; ok || exit(k) {
			continue
		}
		copyAt[k] = -1
		region = append(region, k)
		work = append(work, f.Body[k].Next(k)...)
	}
	// Each copied instruction takes two slots (itself and a jump to its
	// successor); the ways out follow.
	base := len(body)
	for n, k := range region {
		copyAt[k] = base + 2*n
	}
	stubs := map[int]int{}
	var out []ir.Instr
	var err error
	stub := func(k int) int {
		if s, ok := stubs[k]; ok {
			return s
		}
		if k < len(f.Body) {
			switch in := &f.Body[k]; in.Op {
			case ir.ICall:
				if fails, returns := l.tail(f, k, map[*ir.Func]bool{f: true}); fails || returns && l.retFails(f, map[*ir.Func]bool{}) {
					err = fmt.Errorf("%s: a call after which the thread may fail in the same step, in a program with atomic sections", in.Pos)
				}
			case ir.IReturn:
				if l.retFails(f, map[*ir.Func]bool{}) {
					err = fmt.Errorf("%s: a return after which the caller may fail in the same step, in a program with atomic sections", in.Pos)
				}
			}
		}
		s := base + 2*len(region) + len(out)
		stubs[k] = s
		pos := f.Pos
		if k < len(f.Body) {
			pos = f.Body[k].Pos
		}
		out = append(out, ir.Instr{Op: ir.IUnlock, Addr: l.lock, Pos: pos, Dst: -1, Dst2: -1, Msg: ir.MsgQuiet},
			ir.Instr{Op: ir.IJump, Target: at[k], Pos: pos, Dst: -1, Dst2: -1})
		return s
	}
	next := func(k int) int {
		if c, ok := copyAt[k]; ok {
			return c
		}
		return stub(k)
	}
	for _, k := range region {
		in := f.Body[k]
		jump := ir.Instr{Op: ir.INop, Pos: in.Pos, Dst: -1, Dst2: -1}
		switch in.Op {
		case ir.IJump:
			in.Target = next(in.Target)
		case ir.IBranch:
			in.Target, in.Target2 = next(in.Target), next(in.Target2)
		case ir.IFail:
		case ir.IAssume:
			// a failing assume blocks for good: unlock first
			in = ir.Instr{Op: ir.IBranch, A: in.A, Target: next(k + 1), Target2: stub(k), Pos: in.Pos, Dst: -1, Dst2: -1}
		default:
			jump = ir.Instr{Op: ir.IJump, Target: next(k + 1), Pos: in.Pos, Dst: -1, Dst2: -1}
		}
		body = append(body, in, jump)
	}
	body[from].Target = next(start)
	if err != nil {
		return nil, err
	}
	return append(body, out...), nil
}
