package interp

import (
	"fmt"
	"hash"
	"sort"

	"ncmc/ir"
)

// Data-race detection for the operational models (Config.DetectRaces).
//
// A data race is a pair of accesses to the same location by different
// threads, at least one a write and at least one non-atomic, that
// happens-before does not order. Happens-before is built with vector
// clocks during the execution from
//
//   - program order,
//   - spawn (everything before the spawn happens before the child) and
//     join (the child's whole run happens before the join),
//   - mutexes: an unlock happens before every later lock of the same mutex
//     (condition waits unlock and re-lock, so they are covered),
//   - atomic blocks (__VERIFIER_atomic_*): the end of a block happens
//     before the start of every later block, as if every block held one
//     global mutex (the SV-COMP reading of atomic sections),
//   - atomic accesses (Order != na): a release (or stronger) write
//     synchronises with the acquire (or stronger) reads that read from it
//     or from an RMW after it (release sequences through RMWs).
//
// An access is atomic when its order is not na or it runs inside an atomic
// block. Every execution of an exhaustive exploration is checked, so a race
// in some execution is found in that execution: the two racing accesses are
// then unordered there, so some interleaving runs them back to back.
//
// For each location the detector keeps, per thread, the latest access of
// each of the four kinds (read or write, atomic or not) with the thread's
// clock at the time: a later access of thread u is program-order after an
// earlier one of the same thread, so if the latest is ordered before the
// current access, the earlier ones are too.

// vclock is a vector clock indexed by thread number.
type vclock []uint32

func (v vclock) get(t int32) uint32 {
	if int(t) < len(v) {
		return v[t]
	}
	return 0
}

func (v *vclock) set(t int32, c uint32) {
	for int(t) >= len(*v) {
		*v = append(*v, 0)
	}
	(*v)[t] = c
}

// join makes v the pointwise maximum of v and w.
func (v *vclock) join(w vclock) {
	for t, c := range w {
		if c > v.get(int32(t)) {
			v.set(int32(t), c)
		}
	}
}

func (v vclock) clone() vclock { return append(vclock(nil), v...) }

// raceAccessRec is one recorded access: thread, its clock then, where.
type raceAccessRec struct {
	t     int32
	clock uint32
	write bool
	atom  bool
	pos   ir.Pos
}

// raceState is the detector's state for one execution.
type raceState struct {
	vc     map[int32]vclock // per thread
	final  map[int32]vclock // clock at the end of a finished thread
	locks  map[int64]vclock // per mutex: the clock of its last unlock
	atomic vclock           // clock of the last atomic block's end
	rel    map[int64]vclock // per location: the release clock readers acquire
	// accs holds per location up to four accesses per thread.
	accs map[int64][]raceAccessRec
}

func newRaceState() *raceState {
	return &raceState{vc: map[int32]vclock{}, final: map[int32]vclock{}, locks: map[int64]vclock{},
		rel: map[int64]vclock{}, accs: map[int64][]raceAccessRec{}}
}

// start gives thread t its first clock: parent's clock (nil for main) and
// its own component 1.
func (r *raceState) start(t int32, parent vclock) {
	v := parent.clone()
	v.set(t, v.get(t)+1)
	r.vc[t] = v
}

// tick advances t's own component after a release.
func (r *raceState) tick(t int32) {
	v := r.vc[t]
	v.set(t, v.get(t)+1)
	r.vc[t] = v
}

// release returns a copy of t's clock and advances t's own component.
func (r *raceState) release(t int32) vclock {
	c := r.vc[t].clone()
	r.tick(t)
	return c
}

func (r *raceState) acquire(t int32, c vclock) {
	v := r.vc[t]
	v.join(c)
	r.vc[t] = v
}

// check records an access of thread t to loc and returns the earlier access
// it races with, if any.
func (r *raceState) check(t int32, loc int64, write, atom bool, pos ir.Pos) (raceAccessRec, bool) {
	v := r.vc[t]
	list := r.accs[loc]
	for _, a := range list {
		if a.t == t || !(a.write || write) || (a.atom && atom) {
			continue
		}
		if a.clock > v.get(a.t) {
			return a, true
		}
	}
	cur := raceAccessRec{t: t, clock: v.get(t), write: write, atom: atom, pos: pos}
	for i := range list {
		if a := &list[i]; a.t == t && a.write == write && a.atom == atom {
			*a = cur
			return raceAccessRec{}, false
		}
	}
	r.accs[loc] = append(list, cur)
	return raceAccessRec{}, false
}

// hash writes the detector state into h in a canonical form (it is part
// of the program state for the state cache: two runs may only be merged
// when their happens-before histories agree as well).
//
// Clock values matter only through comparisons between values of the same
// thread component, so each component's values are replaced by their rank
// among the values of that component present anywhere in the state (0
// stays 0). A thread's own component is the largest of its component, and
// new values come from incrementing it and from joins (maxima), which
// commute with an order-preserving renaming: states with equal ranked
// forms have the same races in their futures. Without the renaming, a
// spin loop that synchronises (an atomic block, a lock) would advance the
// clocks on every iteration and never come back to a state seen before.
func (r *raceState) hash(h hash.Hash, put func(int64)) {
	vals := map[int32]map[uint32]bool{}
	note := func(t int32, c uint32) {
		m := vals[t]
		if m == nil {
			m = map[uint32]bool{0: true}
			vals[t] = m
		}
		m[c] = true
	}
	noteClock := func(v vclock) {
		for t, c := range v {
			note(int32(t), c)
		}
	}
	for _, v := range r.vc {
		noteClock(v)
	}
	for _, v := range r.final {
		noteClock(v)
	}
	for _, v := range r.locks {
		noteClock(v)
	}
	for _, v := range r.rel {
		noteClock(v)
	}
	noteClock(r.atomic)
	for _, as := range r.accs {
		for _, a := range as {
			note(a.t, a.clock)
		}
	}
	rank := map[int32]map[uint32]int64{}
	for t, m := range vals {
		cs := make([]uint32, 0, len(m))
		for c := range m {
			cs = append(cs, c)
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
		rk := make(map[uint32]int64, len(cs))
		for i, c := range cs {
			rk[c] = int64(i)
		}
		rank[t] = rk
	}
	rankOf := func(t int32, c uint32) int64 {
		if c == 0 {
			return 0
		}
		return rank[t][c]
	}
	putClock := func(v vclock) {
		n := len(v)
		for n > 0 && v[n-1] == 0 {
			n--
		}
		put(int64(n))
		for t, c := range v[:n] {
			put(rankOf(int32(t), c))
		}
	}
	putMap := func(m map[int32]vclock) {
		ks := make([]int, 0, len(m))
		for k := range m {
			ks = append(ks, int(k))
		}
		sort.Ints(ks)
		put(int64(len(ks)))
		for _, k := range ks {
			put(int64(k))
			putClock(m[int32(k)])
		}
	}
	putLocMap := func(m map[int64]vclock) {
		ks := make([]int64, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
		put(int64(len(ks)))
		for _, k := range ks {
			put(k)
			putClock(m[k])
		}
	}
	h.Write([]byte{0xfd})
	putMap(r.vc)
	putMap(r.final)
	putLocMap(r.locks)
	putLocMap(r.rel)
	putClock(r.atomic)
	locs := make([]int64, 0, len(r.accs))
	for k := range r.accs {
		locs = append(locs, k)
	}
	sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
	h.Write([]byte{0xfe})
	for _, l := range locs {
		as := append([]raceAccessRec(nil), r.accs[l]...)
		sort.Slice(as, func(i, j int) bool {
			a, b := as[i], as[j]
			if a.t != b.t {
				return a.t < b.t
			}
			if a.write != b.write {
				return b.write
			}
			return b.atom && !a.atom
		})
		put(l)
		put(int64(len(as)))
		for _, a := range as {
			put(int64(a.t))
			put(rankOf(a.t, a.clock))
			put(b2i(a.write))
			put(b2i(a.atom))
			put(int64(a.pos.Line))
			put(int64(a.pos.Col))
		}
	}
}

// Hooks called by the interpreter (exec.go). Each is a no-op unless
// Config.DetectRaces is set.

func (x *Execution) raceThreadStart(child, parent *Thread) {
	if x.races == nil {
		return
	}
	if parent == nil {
		x.races.start(child.num, nil)
		return
	}
	x.races.start(child.num, x.races.release(parent.num))
}

func (x *Execution) raceThreadEnd(t *Thread) {
	if x.races == nil {
		return
	}
	x.races.final[t.num] = x.races.vc[t.num].clone()
}

func (x *Execution) raceJoin(t, child *Thread) {
	if x.races == nil {
		return
	}
	if c, ok := x.races.final[child.num]; ok {
		x.races.acquire(t.num, c)
	}
}

func (x *Execution) raceLock(t *Thread, addr int64) {
	if x.races == nil {
		return
	}
	if c, ok := x.races.locks[addr]; ok {
		x.races.acquire(t.num, c)
	}
}

func (x *Execution) raceUnlock(t *Thread, addr int64) {
	if x.races == nil {
		return
	}
	x.races.locks[addr] = x.races.release(t.num)
}

func (x *Execution) raceAtomicBegin(t *Thread) {
	if x.races == nil {
		return
	}
	x.races.acquire(t.num, x.races.atomic)
}

func (x *Execution) raceAtomicEnd(t *Thread) {
	if x.races == nil {
		return
	}
	x.races.atomic = x.races.release(t.num)
}

// raceAccess checks one memory access and fails the execution with a
// "data-race" violation when it races with an earlier one. read and write
// say what the access does (an RMW does both); order is its memory order;
// rmw marks read-modify-writes (they continue release sequences).
func (x *Execution) raceAccess(t *Thread, addr int64, read, write bool, order ir.Order, pos ir.Pos) bool {
	r := x.races
	if r == nil {
		return false
	}
	atom := order.IsAtomic() || t.atomic > 0
	if read && order.IsAcquire() {
		if c, ok := r.rel[addr]; ok {
			r.acquire(t.num, c)
		}
	}
	for _, w := range []bool{false, true} {
		if (w && !write) || (!w && !read) {
			continue
		}
		if a, bad := r.check(t.num, addr, w, atom, pos); bad {
			x.reportRace(t, addr, a, w, atom, pos)
			return true
		}
	}
	if write {
		switch {
		case order.IsRelease():
			c := r.vc[t.num].clone()
			if read { // an RMW continues the release sequence
				if old, ok := r.rel[addr]; ok {
					c.join(old)
				}
			}
			r.rel[addr] = c
			r.tick(t.num)
		case read && order.IsAtomic():
			// A relaxed or acquire RMW keeps the release sequence.
		default:
			delete(r.rel, addr)
		}
	}
	return false
}

func (x *Execution) reportRace(t *Thread, addr int64, a raceAccessRec, write, atom bool, pos ir.Pos) {
	kind := func(w, at bool) string {
		s := "read"
		if w {
			s = "write"
		}
		if at {
			s = "atomic " + s
		}
		return s
	}
	msg := fmt.Sprintf("data race on %s between the %s by t%s at %s and the %s by t%s at %s",
		x.names.LocName(addr), kind(a.write, a.atom), x.names.ThreadName(a.t), a.pos,
		kind(write, atom), t.name, pos)
	x.RaceA, x.RaceB = a.pos, pos
	x.fail(t, pos, "data-race", msg)
}
