package interp

import (
	"encoding/binary"
	"hash/fnv"
	"sort"

	"ncmc/ir"
)

// Thread symmetry for the state cache (Config.Symmetry).
//
// Many programs start several threads running the same code (N
// incrementers, N readers). Two states that differ only by which of these
// threads is where have the same futures up to a renaming of threads, and
// error reachability does not depend on thread names, so the state cache
// may treat them as one state. symmetricHash hashes a state with the
// threads that are anonymous (below) as a multiset.
//
// A thread is anonymous in a state when nothing in the state can tell it
// from another thread: its handle value appears in no memory cell and no
// local of any thread (so nobody can join it, own a mutex as it, or
// compare its handle), it is not inside an atomic block and it waits on no
// condition variable. Under Config.Symmetry handles are numbered from
// SymmetryHandleBase, so that small data values do not look like handles
// (a coincidental equal value only makes the check more conservative).
// The program must also not observe thread identity in any other way
// (SymmetryOK): no handle of the running thread (ISelf, also behind
// thread-local storage), no heap allocation (block names derive from
// thread names), no objects, no condition variables, and spawns only in
// main's own body (the names of grandchildren derive from their parents'
// names). Data-race detection keeps per-thread clocks, so it turns
// symmetry off.

// SymmetryHandleBase offsets thread handles under Config.Symmetry. It fits
// a 32-bit pthread_t.
const SymmetryHandleBase = 1 << 20

// handleBase is the offset of thread handles in this execution.
func (x *Execution) handleBase() int64 {
	if x.cfg.Symmetry {
		return SymmetryHandleBase
	}
	return 0
}

// Handle is the handle value of thread n (also what a mutex holds while n
// owns it).
func (x *Execution) Handle(n int32) int64 { return int64(n) + 1 + x.handleBase() }

// SymmetryOK reports whether prog's threads can be treated symmetrically.
func SymmetryOK(prog *ir.Program) bool {
	for _, f := range prog.Funcs {
		if f.Kind == ir.FuncLinearizable {
			return false
		}
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.ISelf, ir.IAlloc, ir.IWait, ir.ISignal, ir.IBroadcast:
				return false
			case ir.ISpawn:
				if f != prog.Main {
					return false
				}
			}
		}
	}
	for _, r := range prog.Records {
		if len(r.Methods) > 0 {
			return false
		}
	}
	return true
}

// symmetricHash is StateHash with the anonymous threads hashed as a
// sorted multiset of per-thread hashes that leave out the thread's number
// and name.
func (x *Execution) symmetricHash() [2]uint64 {
	h := fnv.New128a()
	var buf [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	// Every value held anywhere (memory and locals) that could be a
	// handle.
	held := map[int64]bool{}
	x.HashMem(put, func(c int64) {
		if c > SymmetryHandleBase {
			held[c] = true
		}
	})
	for _, n := range x.live {
		for i := range x.threads[n].frames {
			for _, v := range x.threads[n].frames[i].locals {
				if v > SymmetryHandleBase {
					held[v] = true
				}
			}
		}
	}
	waiting := map[int32]bool{}
	for _, ws := range x.waiters {
		for _, w := range ws {
			waiting[w] = true
		}
	}
	put(int64(x.atomicT))
	var anon [][2]uint64
	for _, n := range x.live {
		t := x.threads[n]
		if !held[x.Handle(n)] && !waiting[n] && x.atomicT != n && t.atomic == 0 {
			th := fnv.New128a()
			threadHash(th, t)
			var sum [16]byte
			th.Sum(sum[:0])
			anon = append(anon, [2]uint64{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])})
			continue
		}
		put(int64(n))
		threadHash(h, t)
	}
	sort.Slice(anon, func(i, j int) bool {
		if anon[i][0] != anon[j][0] {
			return anon[i][0] < anon[j][0]
		}
		return anon[i][1] < anon[j][1]
	})
	put(-1)
	put(int64(len(anon)))
	for _, a := range anon {
		put(int64(a[0]))
		put(int64(a[1]))
	}
	x.HashWaiters(put)
	var sum [16]byte
	h.Sum(sum[:0])
	return [2]uint64{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])}
}

// threadHash writes everything of t but its number and name.
// HashMem hashes memory (block by block) into put and shows each cell
// value to seen (if not nil).
func (x *Execution) HashMem(put func(int64), seen func(int64)) {
	put(int64(len(x.mem)))
	for b, cells := range x.mem {
		if cells == nil {
			continue
		}
		put(int64(b))
		put(int64(len(cells)))
		put(int64(x.allocKind(b)))
		for _, c := range cells {
			put(c)
			if seen != nil {
				seen(c)
			}
		}
	}
}

// HashWaiters hashes the condition variables' waiting threads, in
// condition order.
func (x *Execution) HashWaiters(put func(int64)) {
	conds := make([]int64, 0, len(x.waiters))
	for c := range x.waiters {
		conds = append(conds, c)
	}
	sort.Slice(conds, func(i, j int) bool { return conds[i] < conds[j] })
	for _, c := range conds {
		put(c)
		for _, w := range x.waiters[c] {
			put(int64(w))
		}
	}
}

func threadHash(h interface{ Write([]byte) (int, error) }, t *Thread) {
	var buf [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	put(int64(t.spawnCount))
	put(int64(t.allocCount))
	t.writeState(put, func(s string) { h.Write([]byte(s)) }, nil)
}
