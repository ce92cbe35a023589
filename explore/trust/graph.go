// Package trust explores the consistent execution graphs of a program under
// an axiomatic memory model (RA, RC11, or TSO for cross-checks) in the style of TruSt
// (Kokologiannakis, Marmanis, Gladstein, Vafeiadis, POPL 2022): events are
// added one at a time in a fixed order; a new read takes one write to read
// from and the other consistent writes become forward revisits; a new write
// takes each consistent coherence placement and may revisit earlier reads
// backwards, keeping a revisit only when the deleted part of the graph was
// added maximally, so that every consistent graph is reached exactly once and
// the explorer keeps no record of the graphs it visited.
//
// The package knows nothing about the interpreter. An interpreter drives it
// through Explorer (explorer.go): it asks what each new read reads
// (AddRead), announces new writes (AddWrite, CompleteRMW) and other events
// (AddOther), and replays the events a restored graph already holds
// (Len, Event). Consistency is checked per added event with views (vector
// clocks) of happens-before and program order plus reads-from, following the
// definitions of RA and RC11 in package seg (seg/models.go), and for TSO by
// a ghb search per choice that can close a cycle (tso.go); seg's models stay
// the specification: the tests compare CheckGraph with seg's Check.
package trust

import (
	"ncmc/ir"
)

// Kind is the kind of an event of a trust graph.
type Kind uint8

// Event kinds.
const (
	Other Kind = iota // no memory effect (thread end markers, errors, blocks …)
	Read              // a load, or the read of a failed compare-and-swap
	Write             // a store
	RMW               // a successful read-modify-write: reads RF and (once HasW) writes WVal
	Fence             // a fence with Order
	Spawn             // creates thread Other
	Join              // waits for the end of thread Other
	End               // the last event of a finished thread
)

// Ref names an event by thread and index in program order; InitRef is the
// initial write of every location.
type Ref struct{ T, I int32 }

// InitRef stands for the initial write of every location.
var InitRef = Ref{T: -1}

// IsInit reports whether r is the initial write.
func (r Ref) IsInit() bool { return r.T < 0 }

// Excl describes the instruction behind an exclusive read (an RMW or a
// compare-and-swap): a CAS succeeds only when it reads Expected; a failed
// CAS is a plain read with order FailOrder.
type Excl struct {
	CAS       bool
	Lock      bool // a mutex lock: under TSO a failed one is a locked read (a full fence)
	Expected  int64
	FailOrder ir.Order
	Order     ir.Order
}

// Label is one event of a graph.
type Label struct {
	Kind  Kind
	Order ir.Order
	Loc   int64
	RF    Ref   // Read, RMW: the write read from
	RVal  int64 // Read, RMW: the value read
	WVal  int64 // Write, RMW (HasW): the value written
	HasW  bool  // RMW: the write part was added (the interpreter computes its value)
	Excl  *Excl // Read, RMW coming from an RMW or CAS instruction
	Other int32 // Spawn: the child thread; Join: the joined thread
	Sub   uint8 // Other: the interpreter's own kind, for replay checks
	// Unlock: the write is a mutex unlock (AddUnlock), a locked
	// instruction under TSO
	Unlock bool
	// NotMax: the read (or an RMW's read part) was not added maximally:
	// when it was added (or revisited) it did not read the
	// coherence-latest write of its location
	NotMax bool
	// WNotMax: the write (or an RMW's write part) was not placed
	// coherence-last when it was added
	WNotMax bool
	// NoRev: the read is in the prefix of a write that revisited a read
	// backwards, and may not be revisited backwards itself
	NoRev bool
	// Rank orders events by when they were added (WRank: the write part
	// of an RMW, added after its read); a backward revisit keeps the
	// revisited read's rank. The maximality test of backward revisits
	// compares ranks.
	Rank, WRank int32
	// Stamp is the order in which a replay runs the events: the rank,
	// except that a read revisited backwards comes after the prefix of
	// the write it now reads (so that, for instance, a heap block is
	// allocated before the pointer to it is read).
	Stamp int32
}

func (l *Label) isRead() bool  { return l.Kind == Read || l.Kind == RMW }
func (l *Label) isWrite() bool { return l.Kind == Write || (l.Kind == RMW && l.HasW) }

// wrank is the rank of the write part of a write event.
func (l *Label) wrank() int32 {
	if l.Kind == RMW {
		return l.WRank
	}
	return l.Rank
}

// order is the memory order the model sees (an RMW is never non-atomic).
func (l *Label) order() ir.Order {
	if l.Kind == RMW && l.Order == ir.OrderNA {
		return ir.OrderRlx
	}
	return l.Order
}

// View is a vector clock: View[t] events of thread t are before.
type View []int32

func (v View) has(r Ref) bool {
	return r.IsInit() || (int(r.T) < len(v) && v[r.T] > r.I)
}

// arena hands out views from large chunks, so that computing the views of
// a graph allocates little; a graph's views live until the next restore.
type arena struct {
	buf   []int32
	chunk int // size of the last chunk (they grow to 1<<14)
}

func (a *arena) alloc(n int) View {
	if cap(a.buf)-len(a.buf) < n {
		// small chunks first: a parallel exploration's small tasks
		// each have an arena
		a.chunk = min(max(2*a.chunk, 1<<9), 1<<14)
		a.buf = make([]int32, 0, max(a.chunk, n))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return View(a.buf[l : l+n : l+n])
}

// reset reuses the current chunk (the views handed out before are dead).
func (a *arena) reset() { a.buf = a.buf[:0] }

// join returns v ⊔ w, reusing v when w adds nothing; v is not modified.
func (a *arena) join(v, w View) View {
	if len(w) == 0 {
		return v
	}
	grow := false
	if len(w) > len(v) {
		grow = true
	} else {
		for i, x := range w {
			if x > v[i] {
				grow = true
				break
			}
		}
	}
	if !grow {
		return v
	}
	n := len(v)
	if len(w) > n {
		n = len(w)
	}
	out := a.alloc(n)
	copy(out, v)
	for i := len(v); i < n; i++ {
		out[i] = 0
	}
	for i, x := range w {
		if x > out[i] {
			out[i] = x
		}
	}
	return out
}

// with returns a copy of v with v[t] >= i+1.
func (a *arena) with(v View, t int32, i int32) View {
	n := len(v)
	if int(t) >= n {
		n = int(t) + 1
	}
	out := a.alloc(n)
	copy(out, v)
	for k := len(v); k < n; k++ {
		out[k] = 0
	}
	if out[t] < i+1 {
		out[t] = i + 1
	}
	return out
}

// derived is what the graph computes per event from the labels.
type derived struct {
	// hb: happens-before prefix, the event included; under TSO, which
	// has no happens-before, the (po ∪ spawn ∪ join)* prefix, which the
	// coherence lower bound uses (tso.go)
	hb   View
	porf View // (po ∪ rf ∪ spawn ∪ join)* prefix, the event included
	msg  View // writes: the view a synchronising read acquires
	relF View // RC11: hb view of the latest release fence po-before (or at) the event
	acq  View // RC11: views of the writes read by atomic reads so far in the thread
	done bool
}

// Graph is an execution graph: events per thread in program order,
// coherence order per location, and the derived views.
type Graph struct {
	ev    [][]Label
	co    map[int64][]Ref
	stamp int32 // next stamp
	d     [][]derived
	// readers of each write (init: by location)
	readers     map[Ref][]Ref
	initReaders map[int64][]Ref
	nSC         int // events the psc axiom looks at
	model       Model
	ar          *arena
	spawns      []Ref           // spawn event of each thread (T < 0: none, main)
	naLocs      map[int64]int32 // non-atomic accesses per location
	// scratch of the ghb search under TSO (tsoReaches): visit marks per
	// event and the stack
	seen  [][]uint32
	mark  uint32
	stack []Ref
}

func newGraph(m Model, ar *arena) *Graph {
	if ar == nil {
		ar = &arena{}
	}
	return &Graph{co: map[int64][]Ref{}, readers: map[Ref][]Ref{}, initReaders: map[int64][]Ref{}, model: m, ar: ar, naLocs: map[int64]int32{}}
}

// Label returns the event r (nil for the initial write or an unknown ref).
func (g *Graph) Label(r Ref) *Label {
	if r.IsInit() || int(r.T) >= len(g.ev) || int(r.I) >= len(g.ev[r.T]) {
		return nil
	}
	return &g.ev[r.T][r.I]
}

// Threads is the number of thread slots.
func (g *Graph) Threads() int { return len(g.ev) }

// Len is the number of events of thread t.
func (g *Graph) Len(t int32) int {
	if int(t) >= len(g.ev) {
		return 0
	}
	return len(g.ev[t])
}

// CO returns loc's coherence order (the initial write first, implicitly).
func (g *Graph) CO(loc int64) []Ref { return g.co[loc] }

// Locs calls f for every location with a write besides the initial one.
func (g *Graph) Locs(f func(loc int64, co []Ref)) {
	for l, c := range g.co {
		f(l, c)
	}
}

func (g *Graph) der(r Ref) *derived { return &g.d[r.T][r.I] }

func (g *Graph) ensureThread(t int32) {
	for int(t) >= len(g.ev) {
		g.ev = append(g.ev, nil)
		g.d = append(g.d, nil)
	}
}

// isSC reports whether l is an event psc constrains under the graph's model.
func (g *Graph) isSC(l *Label) bool {
	if l.Kind == Fence {
		return l.Order == ir.OrderSC
	}
	if g.model == TSO {
		return false // TSO has no psc: SC fences are in ghb (tso.go)
	}
	return g.model == RC11 && (l.Kind == Read || l.Kind == Write || l.Kind == RMW) && l.order() == ir.OrderSC
}

// spawnOf returns the spawn event of thread t.
func (g *Graph) spawnOf(t int32) (Ref, bool) {
	if int(t) < len(g.spawns) && !g.spawns[t].IsInit() {
		return g.spawns[t], true
	}
	return Ref{}, false
}

// noteSpawn records that event r spawns thread child.
func (g *Graph) noteSpawn(r Ref, child int32) {
	for int(child) >= len(g.spawns) {
		g.spawns = append(g.spawns, InitRef)
	}
	g.spawns[child] = r
}

// computeDerived computes the derived values of event r, whose
// dependencies (po predecessor, spawn, rf, joined thread's end) must be
// computed already (see ensureDerived).
func (g *Graph) computeDerived(r Ref, predHB, predPorf, predRelF, predAcq View) {
	l := g.Label(r)
	d := g.der(r)
	hb := g.ar.with(predHB, r.T, r.I)
	porf := g.ar.with(predPorf, r.T, r.I)
	relF, acq := predRelF, predAcq
	switch l.Kind {
	case Read, RMW:
		if !l.RF.IsInit() {
			wd := g.der(l.RF)
			porf = g.ar.join(porf, wd.porf)
			if g.model == RA {
				hb = g.ar.join(hb, wd.hb)
			} else if g.model == RC11 && l.order().IsAtomic() {
				if l.order().IsAcquire() {
					hb = g.ar.join(hb, wd.msg)
				}
				acq = g.ar.join(acq, wd.msg)
			}
		}
	case Fence:
		if g.model == RC11 {
			if l.Order.IsAcquire() {
				hb = g.ar.join(hb, acq)
			}
			if l.Order.IsRelease() {
				relF = hb
			}
		}
	case Join:
		if e, ok := g.threadEnd(l.Other); ok {
			ed := g.der(e)
			hb = g.ar.join(hb, ed.hb)
			porf = g.ar.join(porf, ed.porf)
		}
	}
	d.hb, d.porf, d.relF, d.acq, d.done = hb, porf, relF, acq, true
	if l.isWrite() {
		d.msg = g.msgView(r)
	}
}

// msgView is the view a write passes to the reads that synchronise with it.
func (g *Graph) msgView(r Ref) View {
	l := g.Label(r)
	d := g.der(r)
	switch g.model {
	case RA:
		return d.hb
	case TSO:
		return nil
	}
	var m View
	if !l.order().IsAtomic() {
		return nil
	}
	if l.order().IsRelease() {
		m = d.hb
	}
	m = g.ar.join(m, d.relF)
	// a release write to the location earlier in the thread heads a
	// release sequence that this write continues
	for i := r.I - 1; i >= 0; i-- {
		p := &g.ev[r.T][i]
		if p.isWrite() && p.Loc == l.Loc && p.order().IsRelease() {
			m = g.ar.join(m, g.d[r.T][i].hb)
			break
		}
	}
	if l.Kind == RMW && !l.RF.IsInit() {
		m = g.ar.join(m, g.der(l.RF).msg)
	}
	return m
}

func (g *Graph) threadEnd(t int32) (Ref, bool) {
	if int(t) >= len(g.ev) || len(g.ev[t]) == 0 {
		return Ref{}, false
	}
	n := int32(len(g.ev[t]) - 1)
	if g.ev[t][n].Kind != End {
		return Ref{}, false
	}
	return Ref{t, n}, true
}

// predViews returns the views event r starts from: its po predecessor's,
// or for a thread's first event its spawn's.
func (g *Graph) predViews(r Ref) (hb, porf, relF, acq View) {
	if r.I > 0 {
		p := &g.d[r.T][r.I-1]
		return p.hb, p.porf, p.relF, p.acq
	}
	if s, ok := g.spawnOf(r.T); ok {
		sd := g.der(s)
		return sd.hb, sd.porf, nil, nil
	}
	return nil, nil, nil, nil
}

// ensureDerived computes the derived values of r and of what it depends on.
func (g *Graph) ensureDerived(r Ref) {
	if r.IsInit() || g.d[r.T][r.I].done {
		return
	}
	// iterative over the po chain to keep the recursion shallow
	start := r.I
	for start > 0 && !g.d[r.T][start-1].done {
		start--
	}
	if start == 0 {
		if s, ok := g.spawnOf(r.T); ok {
			g.ensureDerived(s)
		}
	}
	for i := start; i <= r.I; i++ {
		e := Ref{r.T, i}
		l := g.Label(e)
		if l.isRead() && !l.RF.IsInit() {
			g.ensureDerived(l.RF)
		}
		if l.Kind == Join {
			if end, ok := g.threadEnd(l.Other); ok {
				g.ensureDerived(end)
			}
		}
		hb, porf, relF, acq := g.predViews(e)
		g.computeDerived(e, hb, porf, relF, acq)
	}
}

// rebuild computes every derived value and the indexes (of a graph made
// from labels and coherence orders only).
func (g *Graph) rebuild() {
	g.d = make([][]derived, len(g.ev))
	for t := range g.ev {
		g.d[t] = make([]derived, len(g.ev[t]), len(g.ev[t])+8)
	}
	g.index()
	for t := range g.ev {
		for i := range g.ev[t] {
			g.ensureDerived(Ref{int32(t), int32(i)})
		}
	}
}

// index recomputes what the graph keeps about its labels besides the
// derived views: readers of each write, spawn events, non-atomic
// accesses per location, the number of events psc constrains.
func (g *Graph) index() {
	for k, v := range g.readers {
		g.readers[k] = v[:0]
	}
	for k, v := range g.initReaders {
		g.initReaders[k] = v[:0]
	}
	clear(g.naLocs)
	g.nSC = 0
	g.spawns = g.spawns[:0]
	for t := range g.ev {
		for i := range g.ev[t] {
			g.indexEvent(Ref{int32(t), int32(i)}, 1)
		}
	}
}

// indexEvent adds event r to the indexes (d = 1) or removes it (d = -1).
func (g *Graph) indexEvent(r Ref, d int32) {
	l := &g.ev[r.T][r.I]
	switch l.Kind {
	case Spawn:
		if d > 0 {
			g.noteSpawn(r, l.Other)
		} else if int(l.Other) < len(g.spawns) {
			g.spawns[l.Other] = InitRef
		}
	case Read, Write:
		if l.Order == ir.OrderNA {
			g.naLocs[l.Loc] += d
		}
	}
	if l.isRead() {
		if d > 0 {
			g.addReader(l.RF, l.Loc, r)
		} else {
			g.removeReader(l.RF, l.Loc, r)
		}
	}
	if g.isSC(l) {
		g.nSC += int(d)
	}
}

// cut deletes the events added after rank s (and the write parts of RMWs
// added after it), restoring the graph the explorer had when it added the
// event of rank s; the remaining events keep their derived views, and
// the indexes lose the deleted events.
func (g *Graph) cut(s int32) {
	next := s
	for t := range g.ev {
		th := g.ev[t]
		k := len(th)
		for k > 0 && th[k-1].Rank > s {
			k--
			g.indexEvent(Ref{int32(t), int32(k)}, -1)
		}
		g.ev[t], g.d[t] = th[:k], g.d[t][:k]
		for i := range g.ev[t] {
			if st := th[i].Stamp; st > next {
				next = st
			}
		}
		if k > 0 {
			if l := &g.ev[t][k-1]; l.Kind == RMW && l.HasW && l.WRank > s {
				l.HasW, l.WVal, l.WRank, l.WNotMax = false, 0, 0, false
				g.d[t][k-1].msg = nil
			}
		}
	}
	g.stamp = next + 1
	for loc, co := range g.co {
		k := 0
		for _, w := range co {
			if l := g.Label(w); l != nil && l.isWrite() {
				co[k] = w
				k++
			}
		}
		g.co[loc] = co[:k]
	}
}

func (g *Graph) addReader(w Ref, loc int64, r Ref) {
	if w.IsInit() {
		g.initReaders[loc] = append(g.initReaders[loc], r)
	} else {
		g.readers[w] = append(g.readers[w], r)
	}
}

func (g *Graph) removeReader(w Ref, loc int64, r Ref) {
	var rs []Ref
	if w.IsInit() {
		rs = g.initReaders[loc]
	} else {
		rs = g.readers[w]
	}
	for i, x := range rs {
		if x == r {
			copy(rs[i:], rs[i+1:])
			rs = rs[:len(rs)-1]
			break
		}
	}
	if w.IsInit() {
		g.initReaders[loc] = rs
	} else {
		g.readers[w] = rs
	}
}

func (g *Graph) readersOf(w Ref, loc int64) []Ref {
	if w.IsInit() {
		return g.initReaders[loc]
	}
	return g.readers[w]
}

// coIndex is the position of w in loc's coherence order (-1: init or absent).
func (g *Graph) coIndex(loc int64, w Ref) int {
	if w.IsInit() {
		return -1
	}
	for i, x := range g.co[loc] {
		if x == w {
			return i
		}
	}
	return -1
}

// lowerBound returns the coherence position a new event with view v may
// not read from or be placed before: the co-latest write of loc that is
// before v, or read by a read before v (-1: the initial write). skip
// excludes a reader (the event itself).
func (g *Graph) lowerBound(loc int64, v View, skip Ref) int {
	co := g.co[loc]
	for i := len(co) - 1; i >= 0; i-- {
		w := co[i]
		if w == skip {
			continue
		}
		if v.has(w) {
			return i
		}
		for _, r := range g.readers[w] {
			if r != skip && v.has(r) {
				return i
			}
		}
	}
	return -1
}

// rmwReaderRef returns a successful RMW other than skip that reads w.
func (g *Graph) rmwReaderRef(w Ref, loc int64, skip Ref) (Ref, bool) {
	for _, r := range g.readersOf(w, loc) {
		if r != skip && g.Label(r).Kind == RMW {
			return r, true
		}
	}
	return Ref{}, false
}

// rmwReader returns a successful RMW (with its write part) reading w, if any.
func (g *Graph) rmwReader(w Ref, loc int64, skip Ref) bool {
	for _, r := range g.readersOf(w, loc) {
		if r == skip {
			continue
		}
		if l := g.Label(r); l.Kind == RMW {
			return true
		}
	}
	return false
}

// clone returns a deep copy of the labels and coherence orders.
func (g *Graph) snapshot() *snapshot {
	// one backing array for the labels and one for the coherence orders,
	// each thread and location with room to grow in place
	const room = 4
	s := &snapshot{ev: make([][]Label, len(g.ev)), co: make(map[int64][]Ref, len(g.co)), stamp: g.stamp, fresh: InitRef}
	n := 0
	for t := range g.ev {
		n += len(g.ev[t]) + room
	}
	labs := make([]Label, n)
	off := 0
	for t, th := range g.ev {
		copy(labs[off:], th)
		s.ev[t] = labs[off : off+len(th) : off+len(th)+room]
		off += len(th) + room
	}
	n = 0
	for _, c := range g.co {
		n += len(c) + room
	}
	refs := make([]Ref, n)
	off = 0
	for l, c := range g.co {
		copy(refs[off:], c)
		s.co[l] = refs[off : off+len(c) : off+len(c)+room]
		off += len(c) + room
	}
	return s
}

// snapshot is a graph to explore from: labels and coherence only.
type snapshot struct {
	ev    [][]Label
	co    map[int64][]Ref
	stamp int32
	fresh Ref // a revisited read whose data races are to be checked again (T < 0: none)
}

// copyTo returns a deep copy of g whose derived views live in arena ar:
// labels, derived values, coherence orders and the indexes (readers in
// the same order, so that the copy is explored exactly as g would be).
func (g *Graph) copyTo(ar *arena) *Graph {
	c := newGraph(g.model, ar)
	c.stamp, c.nSC = g.stamp, g.nSC
	c.ev = make([][]Label, len(g.ev))
	c.d = make([][]derived, len(g.d))
	view := func(v View) View {
		if v == nil {
			return nil
		}
		w := ar.alloc(len(v))
		copy(w, v)
		return w
	}
	for t := range g.ev {
		c.ev[t] = append(make([]Label, 0, len(g.ev[t])+8), g.ev[t]...)
		c.d[t] = make([]derived, len(g.d[t]), len(g.d[t])+8)
		for i, d := range g.d[t] {
			c.d[t][i] = derived{hb: view(d.hb), porf: view(d.porf), msg: view(d.msg), relF: view(d.relF), acq: view(d.acq), done: d.done}
		}
	}
	for l, co := range g.co {
		c.co[l] = append([]Ref(nil), co...)
	}
	for w, rs := range g.readers {
		c.readers[w] = append([]Ref(nil), rs...)
	}
	for l, rs := range g.initReaders {
		c.initReaders[l] = append([]Ref(nil), rs...)
	}
	for l, n := range g.naLocs {
		c.naLocs[l] = n
	}
	c.spawns = append([]Ref(nil), g.spawns...)
	return c
}
