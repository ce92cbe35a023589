package trust

import (
	"ncmc/ir"
)

// Model is the memory model a graph is explored under.
type Model uint8

// Models.
const (
	RA   Model = iota // release/acquire (seg's ra)
	RC11              // repaired C11 (seg's rc11)
	TSO               // x86-TSO (seg's tso): memory orders ignored, seq_cst fences are MFENCE
)

// Stats count the work of an exploration.
type Stats struct {
	Restores int // graphs taken from the worklist
	// LockPruned counts the choices not explored that would make a lock
	// read a held mutex without being maximal (AddRead, tryRevisit).
	LockPruned int
	// AwaitPruned counts the choices not explored that would make a
	// spin-assume's load read a value failing it without being maximal
	// (AddAwaitRead).
	AwaitPruned int
	Forward     int // forward revisits pushed (other rf or co choices)
	Backward    int // backward revisits pushed (with those that make a lock wait)
	NotMax      int // backward revisits dropped by the maximality test
	PSCChecks   int // full psc evaluations (ghb searches under TSO)
	// MaxPending is the largest number of graphs the worklist held.
	MaxPending int
}

// Explorer is one exploration: the current graph and the revisits still
// to explore. The interpreter runs the program once per graph taken with
// Next: it replays the events the graph holds (Len, Event) and adds new
// ones (AddRead, AddWrite, CompleteRMW, AddOther) until the execution ends.
//
// The revisits are kept as GenMC keeps them: a stack of frames, each a
// graph with the revisits pushed while it was explored, as small items (an
// event's rank and the alternative choice). Items are taken last in, first
// out, which is in decreasing rank: taking an item cuts the frame's graph
// back to the events added up to the item's event (their derived views do
// not change, since an event's views depend only on events added before it)
// and applies the choice in place. Only a backward revisit copies: the
// restricted graph becomes a new frame.
type Explorer struct {
	model  Model
	g      *Graph
	ar     arena
	frames []*frame
	first  bool // the top frame's graph is to be explored as it is
	fresh  Ref
	// pending counts the items of all frames
	pending int
	// free holds graphs of finished frames, whose storage restrict reuses
	free []*Graph
	// buffers of AddRead's candidates and placeWrite's placements
	cbuf []Ref
	pbuf []int
	// accept: the value test of the load AddAwaitRead adds (nil otherwise)
	accept func(v int64) bool
	// cp is the checkpoint attached to the forward revisits pushed
	// while it is set (SetCheckpoint); resume is the one of the revisit
	// Next took
	cp, resume *checkpoint
	// Stats of the exploration so far.
	Stats Stats
	// InitVal returns the initial value of a location.
	initVal func(loc int64) int64
}

// frame is a graph and the revisits pushed while exploring it.
type frame struct {
	g     *Graph
	items []item
}

type itemKind uint8

const (
	itemRead itemKind = iota // read x reads from w
	itemCO                   // write x at coherence position p
	itemBack                 // write x at coherence position p revisits read r
	// itemWait: write x at coherence position p would make lock r read
	// a held mutex; r is deleted instead and its thread waits (tryRevisit)
	itemWait
)

// item is a revisit still to explore: rank is the rank of the event whose
// choice it changes (the write's for a backward revisit).
type item struct {
	kind   itemKind
	notMax bool // itemRead: the read is not maximal with this choice
	rank   int32
	p      int32
	x, w   Ref
	r      Ref
	cp     *checkpoint // forward revisits: the state to resume from (nil: none)
}

// checkpoint is an interpreter state that the forward revisits pushed
// while it was set can resume from (SetCheckpoint), with the number of
// pending revisits that hold it.
type checkpoint struct {
	v    any
	refs int32
}

// New returns an explorer whose first graph is the empty graph.
func New(m Model, initVal func(loc int64) int64) *Explorer {
	e := &Explorer{model: m, initVal: initVal, first: true, fresh: InitRef}
	e.frames = []*frame{{g: newGraph(m, &e.ar)}}
	return e
}

// Next takes the next graph to explore as the current graph; false when
// the exploration is complete.
func (e *Explorer) Next() bool {
	for {
		if e.first {
			e.first = false
			e.resume = nil
			e.g = e.frames[len(e.frames)-1].g
			e.Stats.Restores++
			return true
		}
		n := len(e.frames)
		if n == 0 {
			return false
		}
		f := e.frames[n-1]
		if len(f.items) == 0 {
			e.frames[n-1] = nil
			e.frames = e.frames[:n-1]
			e.free = append(e.free, f.g)
			continue
		}
		it := f.items[len(f.items)-1]
		f.items[len(f.items)-1] = item{}
		f.items = f.items[:len(f.items)-1]
		e.pending--
		e.resume = nil
		if it.cp != nil {
			it.cp.refs--
			e.resume = it.cp
		}
		g := f.g
		e.g = g
		g.cut(it.rank)
		switch it.kind {
		case itemRead:
			l := g.Label(it.x)
			g.indexEvent(it.x, -1)
			e.setRF(l, it.w)
			l.NotMax = it.notMax
			g.indexEvent(it.x, 1)
			g.d[it.x.T][it.x.I] = derived{}
			g.ensureDerived(it.x)
			e.fresh = it.x // its races depend on what it reads
		case itemCO:
			l := g.Label(it.x)
			l.WNotMax = true
			e.moveCO(l.Loc, it.x, int(it.p))
			e.fresh = InitRef
		case itemBack, itemWait:
			l := g.Label(it.x)
			l.WNotMax = int(it.p) != len(g.co[l.Loc])-1
			e.moveCO(l.Loc, it.x, int(it.p))
			wait := it.kind == itemWait
			ng := e.restrict(it.r, it.x, int(it.p), wait)
			if ng == nil {
				continue
			}
			e.frames = append(e.frames, &frame{g: ng})
			e.g = ng
			e.fresh = it.r
			if wait {
				e.fresh = InitRef // no read changed
			}
		}
		e.Stats.Restores++
		return true
	}
}

// newGraph returns an empty graph, reusing a finished frame's storage.
func (e *Explorer) newGraph() *Graph {
	n := len(e.free)
	if n == 0 {
		return newGraph(e.model, &e.ar)
	}
	g := e.free[n-1]
	e.free = e.free[:n-1]
	return g
}

// moveCO moves write w of loc to coherence position p (among the others).
func (e *Explorer) moveCO(loc int64, w Ref, p int) {
	if i := e.g.coIndex(loc, w); i >= 0 {
		e.removeCO(loc, i)
	}
	e.insertCO(loc, w, p)
}

// Split takes from e the revisit that e would explore last and returns an
// explorer whose only work is that revisit (initVal: its initial values),
// or false if e has fewer than two revisits left. Exploring e to the end
// and then the returned explorer visits the same graphs in the same order
// as exploring e alone would: the revisit is the bottom item of the lowest
// frame that has items, explored after everything above it, and its
// explorer starts from a copy of that frame's graph (the revisit cuts it
// back to its event and applies its choice, as Next would).
func (e *Explorer) Split(initVal func(loc int64) int64) (*Explorer, bool) {
	if e.pending < 2 {
		return nil, false
	}
	for _, f := range e.frames {
		if len(f.items) == 0 {
			continue
		}
		it := f.items[0]
		copy(f.items, f.items[1:])
		f.items[len(f.items)-1] = item{}
		f.items = f.items[:len(f.items)-1]
		e.pending--
		if it.cp != nil {
			it.cp.refs-- // the other explorer replays the graph from the start
			it.cp = nil
		}
		n := &Explorer{model: e.model, initVal: initVal, fresh: InitRef, pending: 1}
		n.frames = []*frame{{g: f.g.copyTo(&n.ar), items: []item{it}}}
		return n, true
	}
	return nil, false
}

// MayBranch reports whether the next event of thread t, an access to loc,
// may have more than one reads-from choice (a read) or coherence
// placement (a write) in the current graph: only then does adding it push
// forward revisits (and is a checkpoint before it worth its copy). Both
// counts are the writes of loc at or after the lower bound that the
// thread's happens-before view sets (AddRead, placeWrite).
func (e *Explorer) MayBranch(t int32, loc int64) bool {
	g := e.g
	n := len(g.co[loc])
	if n == 0 {
		return false
	}
	var hb View
	if k := g.Len(t); k > 0 {
		hb = g.d[t][k-1].hb
	} else if s, ok := g.spawnOf(t); ok {
		hb = g.der(s).hb
	}
	return n-g.lowerBound(loc, hb, Ref{t, int32(g.Len(t))}) >= 2
}

// SetCheckpoint attaches v (nil: nothing) to the forward revisits (other
// reads-from or coherence choices of a new event) pushed until the next
// call: an interpreter state taken before the step that adds the event,
// from which the graphs of those revisits can be run instead of from the
// start (Resume). Every event of that state was added before the new
// event, so the graph of the revisit, cut back to the new event, holds
// them all unchanged; the interpreter replays the rest of it from there.
func (e *Explorer) SetCheckpoint(v any) {
	if v == nil {
		e.cp = nil
		return
	}
	e.cp = &checkpoint{v: v}
}

// Resume returns the checkpoint of the revisit that Next took (nil: the
// graph is to be run from the start) and whether no other pending revisit
// holds it (then the caller may use it in place instead of copying it).
func (e *Explorer) Resume() (v any, last bool) {
	if e.resume == nil {
		return nil, false
	}
	return e.resume.v, e.resume.refs == 0
}

// Latest returns the value of the coherence-latest write of loc in the
// current graph (the initial value if there is none): for a mutex, whether
// it is held. A thread whose next lock would read a held mutex waits:
// the interpreter runs such a lock only when no other thread can move
// (then it reads the held mutex and blocks, and AddRead pushes its other
// choices, the writes of the mutex that other locks took), so that a lock
// normally takes the mutex, after the unlock that frees it.
func (e *Explorer) Latest(loc int64) int64 {
	co := e.g.co[loc]
	if len(co) == 0 {
		return e.initVal(loc)
	}
	return e.value(co[len(co)-1], loc)
}

// Pending is the number of revisits still to explore.
func (e *Explorer) Pending() int { return e.pending }

// Graph returns the current graph.
func (e *Explorer) Graph() *Graph { return e.g }

// Fresh returns the read that the current graph's backward revisit changed
// (its data races must be checked again), and false if there is none.
func (e *Explorer) Fresh() (Ref, bool) { return e.fresh, !e.fresh.IsInit() }

// Len is the number of events of thread t in the current graph: the
// interpreter replays them before it adds new ones.
func (e *Explorer) Len(t int32) int { return e.g.Len(t) }

// Event returns event i of thread t of the current graph.
func (e *Explorer) Event(t int32, i int) *Label { return &e.g.ev[t][i] }

func (e *Explorer) push(it item) {
	if (it.kind == itemRead || it.kind == itemCO) && e.cp != nil {
		it.cp = e.cp
		e.cp.refs++
	}
	f := e.frames[len(e.frames)-1]
	f.items = append(f.items, it)
	e.pending++
	if e.pending > e.Stats.MaxPending {
		e.Stats.MaxPending = e.pending
	}
}

func (e *Explorer) value(w Ref, loc int64) int64 {
	if w.IsInit() {
		return e.initVal(loc)
	}
	return e.g.Label(w).WVal
}

// appendEvent adds l at the end of thread t and returns its ref.
func (e *Explorer) appendEvent(t int32, l Label) Ref {
	g := e.g
	g.ensureThread(t)
	l.Stamp, l.Rank = g.stamp, g.stamp
	g.stamp++
	g.ev[t] = append(g.ev[t], l)
	g.d[t] = append(g.d[t], derived{})
	if (l.Kind == Read || l.Kind == Write) && l.Order == ir.OrderNA {
		g.naLocs[l.Loc]++
	}
	return Ref{t, int32(len(g.ev[t]) - 1)}
}

// setRF makes read r (label l) read from w, setting its value, and for an
// exclusive read its kind and order; it returns whether the read is a
// successful RMW.
func (e *Explorer) setRF(l *Label, w Ref) bool {
	l.RF = w
	l.RVal = e.value(w, l.Loc)
	if l.Excl == nil {
		return false
	}
	if l.Excl.CAS && l.RVal != l.Excl.Expected {
		l.Kind, l.Order = Read, l.Excl.FailOrder
		return false
	}
	l.Kind, l.Order, l.HasW = RMW, l.Excl.Order, false
	return true
}

// AddRead adds a read of loc by thread t (excl: the RMW or CAS it belongs
// to, nil for a load) and returns its label: what it reads, and for an
// exclusive read whether it is an RMW (the interpreter then computes the
// value written and calls CompleteRMW) or a failed CAS (Kind Read). The
// other writes it may read from become forward revisits. ok is false when
// no write keeps the graph consistent.
func (e *Explorer) AddRead(t int32, loc int64, order ir.Order, excl *Excl) (lab Label, ok bool) {
	g := e.g
	if excl != nil {
		order = excl.Order
	}
	r := e.appendEvent(t, Label{Kind: Read, Order: order, Loc: loc, Excl: excl})
	pre, _, _, _ := g.predViews(r)
	lb := g.lowerBound(loc, pre, r)
	co := g.co[loc]
	base := g.ev[t][r.I]
	cands := e.cbuf[:0]
	defer func() { e.cbuf = cands[:0] }()
	for i := len(co) - 1; i >= lb && i >= 0; i-- {
		cands = append(cands, co[i])
	}
	if lb < 0 {
		cands = append(cands, InitRef)
	}
	var chosen *Label
	for k, w := range cands {
		l := base
		// maximal: it reads the coherence-latest write
		l.NotMax = k > 0
		if e.setRF(&l, w) {
			if o, ok := g.rmwReaderRef(w, loc, r); ok {
				// atomicity: another RMW o reads w. The graph is
				// consistent only once this RMW's write revisits o, which
				// CompleteRMW does (if o is not in this RMW's prefix).
				_, porf, _, _ := g.predViews(r)
				if porf.has(o) {
					continue
				}
				e.Stats.Forward++
				e.push(item{kind: itemRead, rank: l.Rank, x: r, w: w, notMax: l.NotMax})
				continue
			}
		}
		if excl == nil && k > 0 && e.accept != nil && !e.accept(l.RVal) {
			e.Stats.AwaitPruned++ // see AddAwaitRead
			continue
		}
		if excl != nil && excl.Lock && l.Kind == Read && k > 0 {
			// a lock that reads a held mutex other than the
			// coherence-latest write is not maximal: no write revisits it
			// and no revisit deletes it, so its thread stays blocked in
			// every graph explored from this one, which are blocked
			// executions or deadlocks that the lock reading the
			// coherence-latest write reaches as well (the same final
			// state). Not explored.
			e.Stats.LockPruned++
			continue
		}
		g.ev[t][r.I] = l
		// reading the coherence-latest write keeps the graph consistent
		// (the read has no outgoing psc edge: nothing is after it in
		// po, hb or coherence), so only the other choices are checked
		if k > 0 && !e.extraOK(r) {
			continue
		}
		if chosen == nil {
			c := l
			chosen = &c
			continue
		}
		e.Stats.Forward++
		e.push(item{kind: itemRead, rank: l.Rank, x: r, w: w, notMax: l.NotMax})
	}
	if chosen == nil {
		g.ev[t][r.I] = base
		g.d[t][r.I] = derived{}
		g.ensureDerived(r)
		return base, false
	}
	g.ev[t][r.I] = *chosen
	g.d[t][r.I] = derived{}
	g.ensureDerived(r)
	g.addReader(chosen.RF, loc, r)
	if g.isSC(chosen) {
		g.nSC++
	}
	return *chosen, true
}

// AddAwaitRead is AddRead (a load) for a load whose value a spin-assume
// (an await) checks at once: the choices other than the coherence-latest
// write whose value ok rejects are not explored (Stats.AwaitPruned). Such
// a read is not maximal, so no write revisits it and no revisit deletes
// it: its thread stays blocked in every graph explored from there, and
// each of those ends blocked (discarded). The other threads' events of
// such a graph are explored with the read taking the coherence-latest
// write instead (which keeps the graph consistent, and after which the
// thread's own later events can be added last), so nothing they can reach
// is lost.
func (e *Explorer) AddAwaitRead(t int32, loc int64, order ir.Order, ok func(v int64) bool) (Label, bool) {
	e.accept = ok
	defer func() { e.accept = nil }()
	return e.AddRead(t, loc, order, nil)
}

// extraOK evaluates, for read r that does not read the coherence-latest
// write, the model's axioms that the coherence lower bound does not
// cover: psc under RA and RC11 (pscOK), ghb under TSO (tsoOK).
func (e *Explorer) extraOK(r Ref) bool {
	if e.model == TSO {
		e.Stats.PSCChecks++
		return tsoOK(e.g, r)
	}
	return e.pscOK(r)
}

// pscOK evaluates the psc axiom after event r changed, when the graph has
// at least two events it constrains.
func (e *Explorer) pscOK(r Ref) bool {
	g := e.g
	n := g.nSC
	if l := g.Label(r); l != nil && g.isSC(l) {
		n++
	}
	if n < 2 {
		return true
	}
	// recompute r's derived values for the check
	g.d[r.T][r.I] = derived{}
	g.ensureDerived(r)
	l := g.Label(r)
	if l.isRead() {
		g.addReader(l.RF, l.Loc, r)
		defer g.removeReader(l.RF, l.Loc, r)
	}
	e.Stats.PSCChecks++
	return pscAcyclic(g)
}

// AddWrite adds a write of val to loc by thread t. Its coherence placements
// other than the last, and the backward revisits of earlier reads, become
// revisits on the worklist; the current graph continues with the write
// coherence-last. ok is false if no placement is consistent.
func (e *Explorer) AddWrite(t int32, loc int64, order ir.Order, val int64) bool {
	g := e.g
	w := e.appendEvent(t, Label{Kind: Write, Order: order, Loc: loc, WVal: val})
	g.ensureDerived(w)
	return e.placeWrite(w, -1)
}

// AddUnlock adds the unlock of the mutex at loc by thread t: a write of
// val that TSO treats as a locked instruction (a full fence); under RA and
// RC11 it is AddWrite.
func (e *Explorer) AddUnlock(t int32, loc int64, order ir.Order, val int64) bool {
	g := e.g
	w := e.appendEvent(t, Label{Kind: Write, Order: order, Loc: loc, WVal: val, Unlock: true})
	g.ensureDerived(w)
	return e.placeWrite(w, -1)
}

// CompleteRMW adds the write part (value val) of event i of thread t, an
// RMW whose read AddRead (or a replayed graph) gave.
func (e *Explorer) CompleteRMW(t int32, i int, val int64) bool {
	g := e.g
	r := Ref{t, int32(i)}
	l := g.Label(r)
	l.HasW, l.WVal, l.WRank = true, val, g.stamp
	g.stamp++
	g.der(r).msg = g.msgView(r)
	return e.placeWrite(r, g.coIndex(l.Loc, l.RF)+1)
}

// placeWrite explores the coherence placements of new write w (forced:
// the only position, for an RMW) and their backward revisits.
func (e *Explorer) placeWrite(w Ref, forced int) bool {
	g := e.g
	l := g.Label(w)
	loc := l.Loc
	places := e.pbuf[:0]
	defer func() { e.pbuf = places[:0] }()
	if forced >= 0 {
		places = append(places, forced)
	} else {
		lb := g.lowerBound(loc, g.der(w).hb, w)
		n := len(g.co[loc])
		for p := n; p > lb; p-- {
			prev := InitRef
			if p > 0 {
				prev = g.co[loc][p-1]
			}
			if p < n && g.rmwReader(prev, loc, w) {
				continue // would split an RMW from the write it reads
			}
			places = append(places, p)
		}
	}
	if g.isSC(l) {
		g.nSC++
	}
	if forced >= 0 {
		l.WNotMax = forced != len(g.co[loc])
		if o, ok := g.rmwReaderRef(l.RF, loc, w); ok {
			// w's read shares its write with RMW o: the only consistent
			// continuations are the backward revisits that delete o's
			// write part (o's own revisit among them)
			e.insertCO(loc, w, forced)
			e.backwardRevisits(w, forced, &o)
			e.removeCO(loc, forced)
			return false
		}
	}
	chosen := -1
	n := len(g.co[loc])
	for _, p := range places {
		l.WNotMax = p != n // maximal: placed coherence-last
		e.insertCO(loc, w, p)
		if p != n && (g.nSC >= 2 || g.model == TSO) { // coherence-last: no outgoing psc or ghb edge
			e.Stats.PSCChecks++
			if (g.model == TSO && !tsoOK(g, w)) || (g.model != TSO && !pscAcyclic(g)) {
				e.removeCO(loc, p)
				continue
			}
		}
		e.backwardRevisits(w, p, nil)
		if chosen < 0 {
			chosen = p
			e.removeCO(loc, p)
			continue
		}
		e.Stats.Forward++
		e.push(item{kind: itemCO, rank: l.wrank(), x: w, p: int32(p)})
		e.removeCO(loc, p)
	}
	if chosen < 0 {
		return false
	}
	l.WNotMax = chosen != n
	e.insertCO(loc, w, chosen)
	return true
}

func (e *Explorer) insertCO(loc int64, w Ref, p int) {
	co := append(e.g.co[loc], Ref{})
	copy(co[p+1:], co[p:])
	co[p] = w
	e.g.co[loc] = co
}

func (e *Explorer) removeCO(loc int64, p int) {
	co := e.g.co[loc]
	e.g.co[loc] = append(co[:p], co[p+1:]...)
}

// wrk is the rank of write w's write part (-1 for the initial write).
func (g *Graph) wrk(w Ref) int32 {
	if w.IsInit() {
		return -1
	}
	return g.Label(w).wrank()
}

// backwardRevisits pushes, for new write w at coherence position p, the
// revisits of the earlier reads of its location that w may be read by:
// reads outside w's prefix that were added maximally and are not in the
// prefix of a write that revisited backwards before. With conflict (w is
// an RMW whose read took the write RMW *conflict reads), only reads added
// no later than the conflicting RMW qualify: the others keep it, and with
// it the graph's atomicity violation.
func (e *Explorer) backwardRevisits(w Ref, p int, conflict *Ref) {
	g := e.g
	wl := g.Label(w)
	loc := wl.Loc
	wd := g.der(w)
	visit := func(r Ref) {
		if r == w || wd.porf.has(r) {
			return
		}
		l := g.Label(r)
		if l.NotMax || l.NoRev {
			return
		}
		if conflict != nil && l.Rank > g.Label(*conflict).Rank {
			return
		}
		e.tryRevisit(r, w, p)
	}
	for _, r := range g.initReaders[loc] {
		visit(r)
	}
	for _, x := range g.co[loc] {
		for _, r := range g.readers[x] {
			visit(r)
		}
	}
}

// tryRevisit pushes the graph in which read r reads from w (at coherence
// position p), the events added after r that are not in w's
// (po ∪ rf)-prefix deleted, if that graph is consistent and the revisit is
// a maximal extension, so that no other exploration path builds the same
// graph: r and every deleted event were added maximally (a read took the
// coherence-latest write, a write was placed coherence-last), none of them
// reads from or is a write coherence-before a kept write other than w, no
// deleted read was revisited by a deleted write, and the coherence
// successor of w (unless w is an RMW) is kept.
func (e *Explorer) tryRevisit(r, w Ref, p int) {
	g := e.g
	rl := g.Label(r)
	sr := rl.Rank
	wl := g.Label(w)
	loc := wl.Loc
	keepAll := g.der(w).porf
	// deletedEv: the whole event goes; deletedW: (also) its write part
	deletedEv := func(x Ref, l *Label) bool { return !keepAll.has(x) && l.Rank > sr }
	deletedW := func(x Ref, l *Label) bool {
		return !keepAll.has(x) && l.isWrite() && l.wrank() > sr
	}
	keptW := func(x Ref) bool { return x.IsInit() || !deletedW(x, g.Label(x)) }
	// coBeforeKept: a kept write other than w is coherence-after write x
	coBeforeKept := func(x Ref, loc int64) bool {
		co := g.co[loc]
		i := 0
		if !x.IsInit() {
			i = g.coIndex(loc, x) + 1
		}
		for ; i < len(co); i++ {
			if y := co[i]; y != w && keptW(y) {
				return true
			}
		}
		return false
	}
	if wl.Kind != RMW && p+1 < len(g.co[loc]) && !keptW(g.co[loc][p+1]) {
		e.Stats.NotMax++
		return
	}
	for t := range g.ev {
		for i := range g.ev[t] {
			x := Ref{int32(t), int32(i)}
			l := &g.ev[t][i]
			readPart := l.isRead() && (x == r || deletedEv(x, l))
			writePart := x != r && deletedW(x, l)
			if readPart {
				if l.NotMax || coBeforeKept(l.RF, l.Loc) {
					e.Stats.NotMax++
					return
				}
				if !keptW(l.RF) && g.wrk(l.RF) > l.Rank {
					e.Stats.NotMax++ // revisited by a deleted write
					return
				}
			}
			if writePart && (l.WNotMax || coBeforeKept(x, l.Loc)) {
				e.Stats.NotMax++
				return
			}
		}
	}
	// consistency of r reading w in the restricted graph
	nl := *rl
	rmw := e.setRF(&nl, w)
	if rl.Excl != nil && rl.Excl.Lock && !rmw {
		// the lock would read a held mutex and block its thread. The
		// revisit deletes the lock instead (itemWait): its thread waits
		// for the mutex, as a thread whose lock comes while the mutex is
		// held does (the interpreter does not run such a lock while other
		// threads can move, see Latest), and runs its lock again once an
		// unlock frees the mutex, reading that unlock. So the graph in
		// which the lock reads the held mutex, and the executions after
		// it that only wait for the unlock to revisit the lock, are not
		// explored. The maximality test above is the one of the revisit
		// of r by w. If a kept write is coherence-after w, the lock would
		// not read the coherence-latest write: never maximal, its thread
		// blocked in every graph after this one (see AddRead); not
		// explored.
		if coBeforeKept(w, loc) {
			e.Stats.LockPruned++
			return
		}
		e.push(item{kind: itemWait, rank: wl.wrank(), x: w, r: r, p: int32(p)})
		return
	}
	if rmw && g.rmwReader(w, loc, r) {
		return
	}
	hb, _, _, _ := g.predViews(r)
	if lb := g.lowerBound(loc, hb, r); p < lb {
		return
	}
	e.push(item{kind: itemBack, rank: wl.wrank(), x: w, r: r, p: int32(p)})
}

// restrict returns the graph of the backward revisit of read r by write w
// at coherence position p (which the current graph has): the events added
// after r that are not in w's (po ∪ rf)-prefix deleted, r reading w, or
// with wait, r deleted too (a lock whose thread waits for the mutex w
// holds). It returns nil if the graph violates psc.
func (e *Explorer) restrict(r, w Ref, p int, wait bool) *Graph {
	g := e.g
	rl := g.Label(r)
	sr := rl.Rank
	loc := g.Label(w).Loc
	keepAll := g.der(w).porf
	// the graph of a finished frame lends its storage
	ng := e.newGraph()
	oev, od := ng.ev, ng.d
	ng.ev, ng.d = oev[:0], od[:0]
	const room = 8
	for t := range g.ev {
		th := g.ev[t]
		n := 0
		for n < len(th) && (th[n].Rank <= sr || keepAll.has(Ref{int32(t), int32(n)})) {
			n++
		}
		if wait && int32(t) == r.T {
			n = int(r.I) // r's po-successors are not in w's prefix either
		}
		var evt []Label
		var dt []derived
		if t < len(oev) {
			evt, dt = oev[t][:0], od[t][:0]
		}
		if cap(evt) < n {
			evt, dt = make([]Label, 0, n+room), make([]derived, 0, n+room)
		}
		evt, dt = append(evt, th[:n]...), append(dt, g.d[t][:n]...)
		ng.ev, ng.d = append(ng.ev, evt), append(ng.d, dt)
		for i := range evt {
			x := Ref{int32(t), int32(i)}
			l := &evt[i]
			kept := keepAll.has(x)
			if l.Kind == RMW && l.HasW && !kept && l.WRank > sr {
				l.HasW, l.WVal, l.WRank, l.WNotMax = false, 0, 0, false
				dt[i].msg = nil
			}
			if kept {
				l.NoRev = true // the prefix of w is not revisited again
			}
		}
	}
	for l, co := range ng.co {
		ng.co[l] = co[:0]
	}
	for l, co := range g.co {
		kept := ng.co[l]
		for _, x := range co {
			if lx := ng.Label(x); lx != nil && lx.isWrite() {
				kept = append(kept, x)
			}
		}
		ng.co[l] = kept
	}
	if wait {
		// a (po ∪ rf)-closed part of the current graph, consistent
		ng.stamp = g.stamp
		ng.index()
		e.Stats.Backward++
		return ng
	}
	// r is replayed after w's prefix; it was added maximally if w is
	// coherence-latest in the restricted graph
	nl := ng.Label(r)
	e.setRF(nl, w)
	kc := ng.co[loc]
	nl.Stamp, nl.NotMax = g.stamp, len(kc) == 0 || kc[len(kc)-1] != w
	ng.stamp = g.stamp + 1
	ng.index()
	ng.d[r.T][r.I] = derived{}
	ng.ensureDerived(r)
	if nl.NotMax && (ng.nSC >= 2 || ng.model == TSO) { // r reads the coherence-latest write: no outgoing psc or ghb edge
		e.Stats.PSCChecks++
		if (ng.model == TSO && !tsoOK(ng, r)) || (ng.model != TSO && !pscAcyclic(ng)) {
			e.free = append(e.free, ng)
			return nil
		}
	}
	e.Stats.Backward++
	return ng
}

// AddOther adds an event without reads-from or coherence choices: a fence,
// a spawn (other: the child), a join (other: the joined thread), a thread's
// end, or anything else the interpreter records (Kind Other, sub: its own
// kind). It returns true: such an event, the last one added, keeps the graph
// consistent.
func (e *Explorer) AddOther(t int32, k Kind, order ir.Order, other int32, sub uint8) bool {
	g := e.g
	if k == Spawn {
		g.ensureThread(other)
	}
	r := e.appendEvent(t, Label{Kind: k, Order: order, Other: other, Sub: sub})
	if k == Spawn {
		g.noteSpawn(r, other)
	}
	g.ensureDerived(r)
	// the new event has no outgoing psc edge (nothing is after it), so
	// the graph stays consistent
	if l := g.Label(r); g.isSC(l) {
		g.nSC++
	}
	return true
}

// Races returns the accesses of other threads that race with access r
// (same location, one of them a write, one non-atomic, unordered by the
// model's happens-before), in thread order.
func (e *Explorer) Races(r Ref) []Ref {
	g := e.g
	l := g.Label(r)
	if l == nil || !(l.isRead() || l.Kind == Write) || g.model == TSO {
		return nil // TSO has no data races
	}
	na := func(x *Label) bool { return (x.Kind == Read || x.Kind == Write) && x.Order == ir.OrderNA }
	if !na(l) && g.naLocs[l.Loc] == 0 {
		return nil // no non-atomic access to the location
	}
	var out []Ref
	d := g.der(r)
	for t := range g.ev {
		if int32(t) == r.T {
			continue
		}
		for i := range g.ev[t] {
			x := &g.ev[t][i]
			if x.Loc != l.Loc || !(x.isRead() || x.Kind == Write) {
				continue
			}
			if !(x.isWrite() || x.Kind == Write) && !(l.isWrite() || l.Kind == Write) {
				continue
			}
			if !na(x) && !na(l) {
				continue
			}
			a := Ref{int32(t), int32(i)}
			if d.hb.has(a) || g.d[t][i].hb.has(r) {
				continue
			}
			out = append(out, a)
		}
	}
	return out
}

// Snapshot is a saved graph (for instance a counterexample to replay).
type Snapshot struct{ s *snapshot }

// Save returns a copy of the current graph.
func (e *Explorer) Save() *Snapshot {
	s := e.g.snapshot()
	s.fresh = InitRef
	return &Snapshot{s}
}

// Replay returns an explorer whose only graph is a copy of s: running the
// program on it replays the saved graph.
func Replay(m Model, s *Snapshot, initVal func(loc int64) int64) *Explorer {
	e := &Explorer{model: m, initVal: initVal, first: true, fresh: InitRef}
	g := newGraph(m, &e.ar)
	g.ev, g.stamp = make([][]Label, len(s.s.ev)), s.s.stamp
	for t := range s.s.ev {
		g.ev[t] = append([]Label(nil), s.s.ev[t]...)
	}
	for l, co := range s.s.co {
		g.co[l] = append([]Ref(nil), co...)
	}
	g.rebuild()
	e.frames = []*frame{{g: g}}
	return e
}
