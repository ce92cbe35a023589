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
	// KindDoubleFree: free of a block already freed.
	KindDoubleFree = "double-free"
	// KindInvalidFree: free of a pointer that is not the start of a block
	// allocated by malloc or calloc (a global, a local, the middle of a
	// block, an invalid address).
	KindInvalidFree = "invalid-free"
	// KindUninitRead: a read of a cell of a malloc'd block that no write
	// has written before it (the read reads the block's initial,
	// indeterminate value), as GenMC's "uninitialized memory" error.
	KindUninitRead = "uninitialized-read"
	// KindDestroyedMutex: a lock or trylock of a mutex destroyed by
	// pthread_mutex_destroy (the mutex's cell holds DestroyedMutex).
	KindDestroyedMutex = "destroyed-mutex"
)

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

// IsMemorySafetyKind reports whether kind is one of the memory-safety
// violation kinds.
func IsMemorySafetyKind(kind string) bool {
	switch kind {
	case KindUseAfterFree, KindDoubleFree, KindInvalidFree, KindUninitRead, KindDestroyedMutex:
		return true
	}
	return false
}

// uninitRead reports thread t's read of the never-written cell addr.
func (x *Execution) uninitRead(t *Thread, pos ir.Pos, addr int64) {
	x.RuntimeError(t, pos, &RuntimeError{kind: KindUninitRead,
		msg: "uninitialized read: " + x.names.LocName(addr) + " was allocated by malloc and has not been written"})
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
	case len(x.mem[b]) == 0:
		return bad(KindDoubleFree, "double free: "+x.names.BlockName(b)+" was already freed")
	case x.allocKind(b) == ir.AllocLocal:
		return bad(KindInvalidFree, "invalid free: "+x.names.LocName(p)+" was not allocated by malloc or calloc")
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
