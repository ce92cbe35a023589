package interp

import (
	"fmt"

	"ncmc/ir"
	"ncmc/seg"
)

// The violation kinds of the memory-safety errors (Execution.Violation).
const (
	// KindUseAfterFree: a load, store, read-modify-write or lock of a cell
	// of a heap block after the block was freed.
	KindUseAfterFree = "use-after-free"
	// KindUseAfterReturn: a load, store, read-modify-write or lock of a
	// cell of a local in memory (ir.AllocStack, ir.AllocUninit) after the
	// function it belongs to returned (C: the object's lifetime ended; a
	// thread's start function returning ends its locals too; the main
	// function's locals live while the program runs).
	KindUseAfterReturn = "use-after-return"
	// KindDoubleFree: free of a block already freed.
	KindDoubleFree = "double-free"
	// KindInvalidFree: free of a pointer that is not the start of a block
	// allocated by malloc or calloc (a global, a local, the middle of a
	// block, an invalid address).
	KindInvalidFree = "invalid-free"
	// KindUninitRead: a read of a cell of a malloc'd block (or of a
	// local declared without an initializer, ir.AllocUninit) that no write
	// has written before it (the read reads the block's initial,
	// indeterminate value), as GenMC's "uninitialized memory" error.
	KindUninitRead = "uninitialized-read"
	// KindDestroyedMutex: a lock or trylock of a mutex destroyed by
	// pthread_mutex_destroy (the mutex's cell holds DestroyedMutex).
	KindDestroyedMutex = "destroyed-mutex"
	// KindMemoryLeak: at the end of a complete execution, a malloc'd or
	// calloc'd block is neither freed nor reachable from a global through
	// pointers (SV-COMP's valid-memtrack; with Config.Leaks).
	KindMemoryLeak = "memory-leak"
	// KindNotFreed: at the end of a complete execution, a malloc'd or
	// calloc'd block reachable from a global is not freed (SV-COMP's
	// valid-memcleanup; with Config.Leaks = LeaksUnfreed).
	KindNotFreed = "memory-not-freed"
)

// LeakMode says which heap blocks left allocated at the end of a complete
// execution (every thread returned) are violations.
type LeakMode uint8

// Leak modes.
const (
	LeaksIgnored     LeakMode = iota // leaks are not checked (GenMC's semantics)
	LeaksUnreachable                 // an unfreed block no global reaches: KindMemoryLeak
	LeaksUnfreed                     // also an unfreed reachable block: KindNotFreed
)

// checkLeaks runs at the end of a complete execution without violation:
// the heap blocks reachable from the globals (through any cell holding a
// pointer into a live block, transitively) are tracked; the first
// unfreed malloc'd or calloc'd block that is not is a memory leak, and
// under LeaksUnfreed the first unfreed one that is, a block not freed.
func (x *Execution) checkLeaks() {
	if kind, msg := x.leaks(nil); kind != "" {
		x.violation, x.violKind = msg, kind
		x.violState = FinalState(x)
		x.note(nil, msg)
		x.violTrace = len(x.Trace)
	}
}

// exitLeaks runs when thread t ends the process (exit, abort: an IAssume
// with ir.MsgExit) at pos: the heap blocks reachable from the globals or
// from the locals of any thread's frames are tracked, and a leak found is
// t's violation (true).
func (x *Execution) exitLeaks(t *Thread, pos ir.Pos) bool {
	var roots []int64
	for _, n := range x.live {
		for _, fr := range x.threads[n].frames {
			roots = append(roots, fr.locals...)
		}
	}
	kind, msg := x.leaks(roots)
	if kind == "" {
		return false
	}
	x.fail(t, pos, kind, msg+" (the program ends here)")
	return true
}

// leaks returns the kind and message of the first leak under Config.Leaks,
// with the globals and the values roots as the roots of reachability, or
// "" if there is none.
func (x *Execution) leaks(roots []int64) (kind, msg string) {
	reach := make([]bool, len(x.mem))
	var stack []int
	mark := func(v int64) {
		if v <= 0 {
			return
		}
		if nb := ir.PtrBlock(v); nb > 0 && nb < len(x.mem) && !reach[nb] && len(x.mem[nb]) > 0 {
			reach[nb] = true
			stack = append(stack, nb)
		}
	}
	for b := 1; b <= len(x.prog.Globals) && b < len(x.mem); b++ {
		reach[b] = true
		stack = append(stack, b)
	}
	for _, v := range roots {
		mark(v)
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range x.mem[b] {
			mark(v)
		}
	}
	unfreed := -1
	for b := range x.mem {
		if k := x.allocKind(b); (k != ir.AllocMalloc && k != ir.AllocCalloc) || len(x.mem[b]) == 0 {
			continue
		}
		if !reach[b] {
			return KindMemoryLeak, "memory leak: " + x.names.BlockName(b) + " is not freed and no longer reachable at the end of the program"
		}
		if unfreed < 0 {
			unfreed = b
		}
	}
	if unfreed >= 0 && x.cfg.Leaks == LeaksUnfreed {
		return KindNotFreed, "memory not freed: " + x.names.BlockName(unfreed) + " is still allocated at the end of the program"
	}
	return "", ""
}

// Uninit is the value of a cell of a block allocated with ir.AllocMalloc
// that has not been written: reading it is a KindUninitRead violation. It
// is a value no narrower-than-64-bit integer and no pointer can have, so
// only a 64-bit integer store of exactly this value would be mistaken for
// it. Explorers that tell executions apart by the values reads see (vmcr,
// mcr, the graph explorers) thus see an uninitialized read as a read of a
// value of its own.
const Uninit int64 = -0x3a5c_e1f0_d00d_beef

// DestroyedMutex is the value of a mutex cell after pthread_mutex_destroy
// (as in GenMC): locking it is a KindDestroyedMutex violation.
const DestroyedMutex = ir.DestroyedMutex

// DestroyedMutexError is the KindDestroyedMutex error of op (a lock or
// trylock) on the destroyed mutex named mutex.
func DestroyedMutexError(op ir.Op, mutex string) *RuntimeError {
	return &RuntimeError{kind: KindDestroyedMutex, msg: op.String() + " of destroyed mutex " + mutex}
}

// IsMemorySafetyKind reports whether kind is one of the memory-safety
// violation kinds.
func IsMemorySafetyKind(kind string) bool {
	switch kind {
	case KindUseAfterFree, KindUseAfterReturn, KindDoubleFree, KindInvalidFree, KindUninitRead, KindDestroyedMutex, KindMemoryLeak, KindNotFreed:
		return true
	}
	return false
}

// uninitCells marks cells[from:] of a block of records r (repeated)
// uninitialized, except the cells of mutexes and condition variables,
// which start in their initial state (pthread_mutex_init is a no-op under
// ra and rc11, and a mutex in malloc'd memory must still be usable).
func uninitCells(cells []int64, from int, r *ir.Record) {
	var sync []bool
	if r != nil && r.Size > 0 {
		sync = make([]bool, 0, r.Size)
		var walk func(t *ir.Type)
		walk = func(t *ir.Type) {
			switch t.Kind {
			case ir.TArray:
				for i := 0; i < t.Len; i++ {
					walk(t.Elem)
				}
			case ir.TRecord:
				for _, f := range t.Record.Fields {
					walk(f.Type)
				}
			case ir.TVoid:
			default:
				sync = append(sync, t.Kind == ir.TMutex || t.Kind == ir.TCond)
			}
		}
		for _, f := range r.Fields {
			walk(f.Type)
		}
	}
	for i := from; i < len(cells); i++ {
		if len(sync) > 0 && sync[i%len(sync)] {
			continue
		}
		cells[i] = Uninit
	}
}

// uninitRead reports thread t's read of the never-written cell addr.
func (x *Execution) uninitRead(t *Thread, pos ir.Pos, addr int64) {
	how := " was allocated by malloc"
	if x.allocKind(ir.PtrBlock(addr)) == ir.AllocUninit {
		how = " is a local variable declared without an initializer"
	}
	x.RuntimeError(t, pos, &RuntimeError{kind: KindUninitRead,
		msg: "uninitialized read: " + x.names.LocName(addr) + how + " and has not been written"})
}

// allocKind returns how block b was allocated in this execution.
func (x *Execution) allocKind(b int) ir.AllocKind {
	if b >= 0 && b < len(x.alloc) {
		return x.alloc[b]
	}
	return ir.AllocLocal
}

// free runs IFree in for thread t on frame fr; false when the step ended
// with a violation (or an error evaluating the pointer).
func (x *Execution) free(t *Thread, fr *Frame, in *ir.Instr) bool {
	pos := in.Pos
	p, err := x.Eval(fr, in.Addr)
	if err != nil {
		x.RuntimeError(t, pos, err)
		return false
	}
	if p == 0 {
		// free(NULL) does nothing; the step still has an event
		x.event(t, seg.Event{Kind: seg.KFence, Order: ir.OrderRlx, Msg: "free(NULL)", Pos: pos})
		x.noteAt(t, pos, "free(NULL): nothing")
		return true
	}
	b, off := ir.PtrBlock(p), ir.PtrOffset(p)
	bad := func(kind, msg string) bool {
		x.RuntimeError(t, pos, &RuntimeError{kind: kind, msg: msg})
		return false
	}
	switch {
	case b <= 0 || b >= len(x.mem) || x.mem[b] == nil:
		return bad(KindInvalidFree, fmt.Sprintf("invalid free: %#x is not a pointer to an allocated block", p))
	case isStack(x.allocKind(b)):
		return bad(KindInvalidFree, "invalid free: "+x.names.LocName(p)+" was not allocated by malloc or calloc")
	case len(x.mem[b]) == 0:
		return bad(KindDoubleFree, "double free: "+x.names.BlockName(b)+" was already freed")
	case off != 0:
		return bad(KindInvalidFree, "invalid free: "+x.names.LocName(p)+" is not the start of its block")
	}
	n := len(x.mem[b])
	if x.rx != nil {
		// graph exploration: the free is a no-op event; later accesses
		// find the block freed
		x.event(t, seg.Event{Kind: seg.KFence, Order: ir.OrderRlx, Msg: "free", Pos: pos})
	} else {
		// a write of every cell, so that the free conflicts with every
		// access to the block (DPOR, race detection)
		for i := 0; i < n; i++ {
			loc := ir.MakePtr(b, i)
			x.event(t, seg.Event{Kind: seg.KWrite, Loc: loc, Order: ir.OrderNA, Msg: "free", Pos: pos})
			if x.raceAccess(t, loc, false, true, ir.OrderNA, pos) {
				return false
			}
		}
	}
	x.mem[b] = x.mem[b][:0:0]
	if x.mem[b] == nil {
		x.mem[b] = []int64{}
	}
	if x.collecting {
		x.noteAt(t, pos, "frees "+x.names.BlockName(b))
	}
	return true
}

// isStack reports whether blocks of kind k are locals (not freeable).
func isStack(k ir.AllocKind) bool {
	return k == ir.AllocLocal || k == ir.AllocUninit || k == ir.AllocStack
}

// freeStack ends the lifetime of the locals in memory of the returning
// frame fr: the blocks its entry allocated (a front end hoists them to the
// start of the body) with ir.AllocStack or ir.AllocUninit. A later access
// to one is a KindUseAfterReturn violation (cell). The end of a lifetime is
// no event: an access by another thread can find the block dead only when
// it runs after the return in the explored order (the owner's later events
// or its end, or a join, order it).
func (x *Execution) freeStack(fr *Frame) {
	for i := range fr.fn.Body {
		in := &fr.fn.Body[i]
		if in.Op != ir.IAlloc {
			break
		}
		if in.Alloc != ir.AllocStack && in.Alloc != ir.AllocUninit || in.Dst < 0 || in.Dst >= len(fr.locals) {
			continue
		}
		b := ir.PtrBlock(fr.locals[in.Dst])
		if b <= 0 || b >= len(x.mem) || len(x.mem[b]) == 0 || x.allocKind(b) != in.Alloc {
			continue
		}
		x.mem[b] = []int64{}
	}
}
