package seg

import (
	"fmt"
	"sort"

	"ncmc/ir"
)

// Node is a node of the relation universe of a graph (see Space): either an
// event, or the initial write of one location.
//
// Relations do not use the single pseudo event Init of the Graph: each
// location gets its own initial-write node, so that compositions such as
// rf⁻¹;mo never connect accesses of different locations through a shared
// initial event. For an event node Loc is 0; for an initial-write node ID is
// Init and Loc is the location.
type Node struct {
	ID  EventID
	Loc int64
}

// EventNode is the node of event id.
func EventNode(id EventID) Node { return Node{ID: id} }

// InitNode is the initial-write node of location loc.
func InitNode(loc int64) Node { return Node{ID: Init, Loc: loc} }

// IsInit reports whether n is an initial-write node.
func (n Node) IsInit() bool { return n.ID.IsInit() }

// Space numbers the nodes of a graph densely, so relations over the graph
// can be bit matrices: first one initial-write node per location (locations
// in increasing order), then the events thread by thread in program order.
// The locations are those of the memory events (reads, writes, RMWs, locks,
// unlocks) and the keys of Graph.MO.
//
// A Space caches the base relations and sets it has computed. It is a
// snapshot: build a new one after the graph changes. It is not safe for
// concurrent use.
type Space struct {
	g       *Graph
	nodes   []Node
	base    []int // base[t]: node number of event (t, 0)
	locs    []int64
	initIdx map[int64]int
	rels    map[string]Rel
	sets    map[string]Set
	mo      map[int64][]int // per location, node numbers in mo (see moNodes)
}

// NewSpace numbers the nodes of g.
func NewSpace(g *Graph) *Space {
	s := &Space{g: g, initIdx: map[int64]int{}, rels: map[string]Rel{}, sets: map[string]Set{}}
	locset := map[int64]bool{}
	for loc := range g.MO {
		locset[loc] = true
	}
	g.Events(func(e *Event) {
		if e.Kind.IsRead() || e.Kind.IsWrite() {
			locset[e.Loc] = true
		}
	})
	for loc := range locset {
		s.locs = append(s.locs, loc)
	}
	sort.Slice(s.locs, func(i, j int) bool { return s.locs[i] < s.locs[j] })
	for i, loc := range s.locs {
		s.initIdx[loc] = i
		s.nodes = append(s.nodes, InitNode(loc))
	}
	s.base = make([]int, len(g.Threads))
	for t, th := range g.Threads {
		s.base[t] = len(s.nodes)
		for i := range th {
			s.nodes = append(s.nodes, EventNode(EventID{T: int32(t), I: int32(i)}))
		}
	}
	return s
}

// Graph is the graph the space numbers.
func (s *Space) Graph() *Graph { return s.g }

// Len is the number of nodes.
func (s *Space) Len() int { return len(s.nodes) }

// Node returns node number i.
func (s *Space) Node(i int) Node { return s.nodes[i] }

// Locs lists the locations (in increasing order); the initial-write node of
// Locs()[k] is node k.
func (s *Space) Locs() []int64 { return s.locs }

// Index returns the number of node n, or -1 if n is not in the space.
func (s *Space) Index(n Node) int {
	if n.IsInit() {
		if i, ok := s.initIdx[n.Loc]; ok {
			return i
		}
		return -1
	}
	return s.EventIndex(n.ID)
}

// EventIndex returns the node number of event id, or -1 if there is no such event.
func (s *Space) EventIndex(id EventID) int {
	if id.IsInit() || int(id.T) >= len(s.base) || id.I < 0 || int(id.I) >= len(s.g.Threads[id.T]) {
		return -1
	}
	return s.base[id.T] + int(id.I)
}

// InitIndex returns the node number of loc's initial write, or -1.
func (s *Space) InitIndex(loc int64) int {
	if i, ok := s.initIdx[loc]; ok {
		return i
	}
	return -1
}

// Event returns the event of node i, or nil for an initial-write node.
func (s *Space) Event(i int) *Event {
	n := s.nodes[i]
	if n.IsInit() {
		return nil
	}
	return &s.g.Threads[n.ID.T][n.ID.I]
}

// source returns the node number of the write that read event e reads
// from (its location's initial-write node for Init), or -1.
func (s *Space) source(e *Event) int {
	if e.RF.IsInit() {
		return s.InitIndex(e.Loc)
	}
	return s.EventIndex(e.RF)
}

// nodeLoc returns the location of node i and whether it is a memory node
// (an initial write or a memory event).
func (s *Space) nodeLoc(i int) (int64, bool) {
	n := s.nodes[i]
	if n.IsInit() {
		return n.Loc, true
	}
	e := s.Event(i)
	if e.Kind.IsRead() || e.Kind.IsWrite() {
		return e.Loc, true
	}
	return 0, false
}

// EffectiveOrder is the memory order the consistency models see for e, and
// false for events that have none (everything but accesses, locks and
// fences). Locks count as acquire accesses and unlocks as release accesses
// (seq_cst if the event says so, whatever else its Order field holds), and
// an RMW never counts as non-atomic (a plain order is read as relaxed).
func EffectiveOrder(e *Event) (ir.Order, bool) {
	switch e.Kind {
	case KRead, KWrite, KFence:
		return e.Order, true
	case KRMW:
		if e.Order == ir.OrderNA {
			return ir.OrderRlx, true
		}
		return e.Order, true
	case KLock:
		if e.Order == ir.OrderSC {
			return ir.OrderSC, true
		}
		return ir.OrderAcq, true
	case KUnlock:
		if e.Order == ir.OrderSC {
			return ir.OrderSC, true
		}
		return ir.OrderRel, true
	}
	return 0, false
}

// baseSetNames lists the names of the base sets a model may use (see BaseSet).
var baseSetNames = []string{"_", "IW", "M", "R", "W", "F", "RMW", "L", "U", "SPAWN", "JOIN", "SIG", "NA", "RLX", "ACQ", "REL", "ACQ_REL", "SC", "A"}

// baseRelNames lists the names of the base relations (see BaseRel).
var baseRelNames = []string{"po", "rf", "mo", "co", "fr", "rmw", "loc", "int", "ext", "id", "spawn", "join"}

// BaseSetNames returns the names BaseSet understands.
func BaseSetNames() []string { return append([]string(nil), baseSetNames...) }

// BaseRelNames returns the names BaseRel understands.
func BaseRelNames() []string { return append([]string(nil), baseRelNames...) }

// BaseSet returns a base set of nodes by name (false if the name is unknown):
//
//	_        every node
//	IW       the initial writes (one per location)
//	M        memory nodes: R ∪ W
//	R        reads: KRead, KRMW, KLock events
//	W        writes: KWrite, KRMW, KLock, KUnlock events and IW
//	F        fences
//	RMW      KRMW and KLock events (one node each; they are in R and W)
//	L, U     KLock and KUnlock events
//	SPAWN    KSpawn events
//	JOIN     KJoin events
//	SIG      KSignal and KBroadcast events
//	NA, RLX, ACQ, REL, ACQ_REL, SC
//	         events whose EffectiveOrder is exactly that order (accesses,
//	         locks, unlocks, fences; initial writes are in none of them)
//	A        atomic accesses: M \ NA \ IW
func (s *Space) BaseSet(name string) (Set, bool) {
	if v, ok := s.sets[name]; ok {
		return v, true
	}
	n := len(s.nodes)
	out := NewSet(n)
	nInit := len(s.locs)
	evs := func(f func(e *Event) bool) {
		for i := nInit; i < n; i++ {
			if f(s.Event(i)) {
				out.Add(i)
			}
		}
	}
	inits := func() {
		for i := 0; i < nInit; i++ {
			out.Add(i)
		}
	}
	ord := func(o ir.Order) func(e *Event) bool {
		return func(e *Event) bool {
			eo, ok := EffectiveOrder(e)
			return ok && eo == o
		}
	}
	switch name {
	case "_":
		inits()
		evs(func(*Event) bool { return true })
	case "IW":
		inits()
	case "M":
		inits()
		evs(func(e *Event) bool { return e.Kind.IsRead() || e.Kind.IsWrite() })
	case "R":
		evs(func(e *Event) bool { return e.Kind.IsRead() })
	case "W":
		inits()
		evs(func(e *Event) bool { return e.Kind.IsWrite() })
	case "F":
		evs(func(e *Event) bool { return e.Kind == KFence })
	case "RMW":
		evs(func(e *Event) bool { return e.Kind == KRMW || e.Kind == KLock })
	case "L":
		evs(func(e *Event) bool { return e.Kind == KLock })
	case "U":
		evs(func(e *Event) bool { return e.Kind == KUnlock })
	case "SPAWN":
		evs(func(e *Event) bool { return e.Kind == KSpawn })
	case "JOIN":
		evs(func(e *Event) bool { return e.Kind == KJoin })
	case "SIG":
		evs(func(e *Event) bool { return e.Kind == KSignal || e.Kind == KBroadcast })
	case "NA":
		evs(ord(ir.OrderNA))
	case "RLX":
		evs(ord(ir.OrderRlx))
	case "ACQ":
		evs(ord(ir.OrderAcq))
	case "REL":
		evs(ord(ir.OrderRel))
	case "ACQ_REL":
		evs(ord(ir.OrderAcqRel))
	case "SC":
		evs(ord(ir.OrderSC))
	case "A":
		evs(func(e *Event) bool {
			eo, _ := EffectiveOrder(e)
			return (e.Kind.IsRead() || e.Kind.IsWrite()) && eo != ir.OrderNA
		})
	default:
		return Set{}, false
	}
	s.sets[name] = out
	return out, true
}

// BaseRel returns a base relation by name (false if the name is unknown):
//
//	po     program order: (a, b) for events a before b in one thread
//	       (transitive; no edges across threads, none from initial writes)
//	rf     reads-from: from the write a read event reads (an initial-write
//	       node for Init) to the read
//	mo     modification (coherence) order, transitive, per location, with
//	       the location's initial write first, then Graph.MO, then writes
//	       MO does not list yet (pending stores); co is the same relation
//	fr     from-reads: (rf⁻¹;mo) \ id, from a read to every write mo-after
//	       the write it reads from; the identity is removed because an RMW
//	       is one node that is mo-after its own source
//	rmw    the identity on RMW nodes ([RMW]): an RMW is a single node, so
//	       herd's rmw relation from its read to its write part collapses to
//	       a loop; formulas such as (rf;rmw)* and rmw & (fr;mo) keep their
//	       herd meaning with it
//	loc    pairs of memory nodes with the same location (identity included)
//	int    pairs of events of the same thread (identity included; an
//	       initial write is only int-related to itself)
//	ext    the complement of int
//	id     the identity on all nodes
//	spawn  from a KSpawn event to the first event of the thread it creates
//	join   from the last event of a thread to each KJoin event that joins it
func (s *Space) BaseRel(name string) (Rel, bool) {
	if name == "co" {
		name = "mo"
	}
	if v, ok := s.rels[name]; ok {
		return v, true
	}
	n := len(s.nodes)
	r := NewRel(n)
	g := s.g
	switch name {
	case "po":
		for t, th := range g.Threads {
			b := s.base[t]
			for i := range th {
				r.addRange(b+i, b+i+1, b+len(th))
			}
		}
	case "rf":
		for i := len(s.locs); i < n; i++ {
			e := s.Event(i)
			if e.Kind.IsRead() {
				if w := s.source(e); w >= 0 {
					r.Add(w, i)
				}
			}
		}
	case "mo":
		for _, loc := range s.locs {
			seq := s.moNodes(loc)
			for a := range seq {
				for b := a + 1; b < len(seq); b++ {
					r.Add(seq[a], seq[b])
				}
			}
		}
	case "fr":
		pos := map[int]int{}
		seqs := map[int64][]int{}
		for _, loc := range s.locs {
			seq := s.moNodes(loc)
			seqs[loc] = seq
			for k, v := range seq {
				pos[v] = k
			}
		}
		for i := len(s.locs); i < n; i++ {
			e := s.Event(i)
			if !e.Kind.IsRead() {
				continue
			}
			w := s.source(e)
			p, ok := pos[w]
			if w < 0 || !ok {
				continue
			}
			for _, v := range seqs[e.Loc][p+1:] {
				if v != i {
					r.Add(i, v)
				}
			}
		}
	case "rmw":
		for i := len(s.locs); i < n; i++ {
			if k := s.Event(i).Kind; k == KRMW || k == KLock {
				r.Add(i, i)
			}
		}
	case "loc":
		groups := map[int64]Set{}
		for i := 0; i < n; i++ {
			if loc, ok := s.nodeLoc(i); ok {
				gs, ok := groups[loc]
				if !ok {
					gs = NewSet(n)
					groups[loc] = gs
				}
				gs.Add(i)
			}
		}
		for _, gs := range groups {
			gs.each(func(i int) { r.addRow(i, gs) })
		}
	case "int":
		for i := 0; i < len(s.locs); i++ {
			r.Add(i, i)
		}
		for t, th := range g.Threads {
			b := s.base[t]
			for i := range th {
				r.addRange(b+i, b, b+len(th))
			}
		}
	case "ext":
		in, _ := s.BaseRel("int")
		r = in.Complement()
	case "id":
		for i := 0; i < n; i++ {
			r.Add(i, i)
		}
	case "spawn":
		for i := len(s.locs); i < n; i++ {
			e := s.Event(i)
			if e.Kind == KSpawn && int(e.Other) >= 0 && int(e.Other) < len(g.Threads) && len(g.Threads[e.Other]) > 0 {
				r.Add(i, s.base[e.Other])
			}
		}
	case "join":
		for i := len(s.locs); i < n; i++ {
			e := s.Event(i)
			if e.Kind == KJoin && int(e.Other) >= 0 && int(e.Other) < len(g.Threads) {
				if th := g.Threads[e.Other]; len(th) > 0 {
					r.Add(s.base[e.Other]+len(th)-1, i)
				}
			}
		}
	default:
		return Rel{}, false
	}
	s.rels[name] = r
	return r, true
}

// moNodes returns loc's modification order as node numbers: the initial
// write, the writes of Graph.MO[loc], then the pending writes (writes to
// loc that MO does not list, such as stores still in a store buffer), in
// thread and program order.
func (s *Space) moNodes(loc int64) []int {
	if s.mo == nil {
		s.buildMO()
	}
	return s.mo[loc]
}

func (s *Space) buildMO() {
	s.mo = map[int64][]int{}
	listed := NewSet(len(s.nodes))
	for _, loc := range s.locs {
		seq := []int{s.initIdx[loc]}
		for _, w := range s.g.MO[loc] {
			if i := s.EventIndex(w); i >= 0 && !listed.Has(i) {
				listed.Add(i)
				seq = append(seq, i)
			}
		}
		s.mo[loc] = seq
	}
	for i := len(s.locs); i < len(s.nodes); i++ {
		if e := s.Event(i); e.Kind.IsWrite() && !listed.Has(i) {
			s.mo[e.Loc] = append(s.mo[e.Loc], i)
		}
	}
}

// PO is the base relation po (see BaseRel).
func (s *Space) PO() Rel { r, _ := s.BaseRel("po"); return r }

// RF is the base relation rf (see BaseRel).
func (s *Space) RF() Rel { r, _ := s.BaseRel("rf"); return r }

// MO is the base relation mo (see BaseRel).
func (s *Space) MO() Rel { r, _ := s.BaseRel("mo"); return r }

// FR is the base relation fr (see BaseRel).
func (s *Space) FR() Rel { r, _ := s.BaseRel("fr"); return r }

// NodeName is the short name of node i: the event's letter (see
// Graph.EventName) or "init" plus the location for an initial write.
func (s *Space) NodeName(i int) string {
	n := s.nodes[i]
	if n.IsInit() {
		return "init " + s.g.Loc(n.Loc)
	}
	return s.g.EventName(n.ID)
}

// NodeLabel describes node i the way pictures and explanations show it:
// "a: W(rlx) x=1" for an event, "init x=0" for an initial write.
func (s *Space) NodeLabel(i int) string {
	n := s.nodes[i]
	if n.IsInit() {
		return fmt.Sprintf("init %s=%d", s.g.Loc(n.Loc), s.g.InitVal[n.Loc])
	}
	return s.g.EventName(n.ID) + ": " + s.g.Label(s.Event(i))
}

// EventName is the letter that names event id in pictures and explanations:
// events are lettered a, b, …, z, aa, ab, … thread by thread (thread 0
// first) in program order, as herd does. Init is named "init".
func (g *Graph) EventName(id EventID) string {
	if id.IsInit() {
		return "init"
	}
	k := int(id.I)
	for t := 0; t < int(id.T) && t < len(g.Threads); t++ {
		k += len(g.Threads[t])
	}
	return letters(k)
}

// letters is the bijective base-26 numeral of k: a, b, …, z, aa, ab, ….
func letters(k int) string {
	var b []byte
	k++
	for k > 0 {
		k--
		b = append(b, byte('a'+k%26))
		k /= 26
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
