package seg

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// This file is the semantic layer of NCMC (thesis chapter 4, research notes
// mcr-and-ncmc.md §3.1): a semantic execution graph (SEG) abstracts the
// events inside linearizable method invocations into one node per
// invocation, keeps the client's ("unscoped") events, and orders
// non-commuting invocations of one object by the non-commutativity relation
// NC. Two executions are SC-equivalent when their SEG keys are equal.
// docs/ncmc.md, section "Semantic execution graphs", lists the decisions
// taken on the gaps of the thesis (G4–G7, G11–G13).

// SemanticOpts configure NewSemantic.
type SemanticOpts struct {
	// Order lists every event of the graph once, in execution order (for an
	// interpreter run under SC: the order the events were created in). It
	// gives the linearization order of invocations (their completion order,
	// Alg. 5 of the thesis) and the points where abstract states are taken.
	Order []EventID
	// Scoped reports whether an invocation's events are hidden behind it
	// (its object has a commutativity specification). nil: every
	// linearizable invocation is scoped. Events of an invocation that is not
	// scoped are unscoped events of the client (gap G12).
	Scoped func(inv *Invocation) bool
	// Commute reports whether u and v, two invocations of one object with u
	// linearized before v, commute. nil: no two invocations commute.
	Commute func(u, v *Invocation) bool
}

// SemNode is a node of a SEG: the init node, an unscoped event, or a
// top-level scoped invocation.
type SemNode struct {
	Init bool
	// Inv is the invocation of an invocation node (nil otherwise).
	Inv *Invocation
	// Ev is the event of an event node, or the first event (KInvBegin) of
	// an invocation node.
	Ev EventID
	// T is the node's thread (-1 for init) and Idx its position among the
	// thread's nodes.
	T   int32
	Idx int
}

// Semantic is the semantic execution graph of one execution graph.
type Semantic struct {
	G *Graph
	// Nodes are the SEG's nodes; node 0 is init, then every thread's nodes
	// in program order, threads in number order.
	Nodes []SemNode
	// Invs lists the invocation nodes in linearization (completion) order;
	// invocations that never completed come last, in order of their start.
	Invs []int
	// PO is program order over the nodes, including spawn and join edges
	// and init before every node; transitive.
	PO Rel
	// RF, WO and RB are reads-from, write order and read-before restricted
	// to unscoped events (init included as the initial write).
	RF, WO, RB Rel
	// NC orders non-commuting invocations of one object by linearization
	// order (direct edges, not closed); init is NC-before every invocation.
	NC Rel
	// SSH = (PO ∪ RF ∪ RB ∪ WO ∪ NC)⁺ ; [I]: SSH.Has(e, v) says node e
	// precedes invocation node v.
	SSH Rel

	top    map[EventID]int // scoped event -> its invocation node
	nodeOf map[EventID]int // unscoped event -> its node
}

// ErrIncompleteOrder is returned by NewSemantic when Order does not list
// every event exactly once.
var ErrIncompleteOrder = errors.New("seg: the execution order does not list every event exactly once")

// NewSemantic builds the SEG of g.
func NewSemantic(g *Graph, o SemanticOpts) (*Semantic, error) {
	pos := make(map[EventID]int, len(o.Order))
	for i, id := range o.Order {
		if _, dup := pos[id]; dup || g.Event(id) == nil {
			return nil, ErrIncompleteOrder
		}
		pos[id] = i
	}
	if len(pos) != g.NumEvents() {
		return nil, ErrIncompleteOrder
	}
	s := &Semantic{G: g, top: map[EventID]int{}, nodeOf: map[EventID]int{}}
	s.Nodes = append(s.Nodes, SemNode{Init: true, Ev: Init, T: -1})
	firstNode := make([]int, len(g.Threads)) // first node of each thread (-1: none)
	lastNode := make([]int, len(g.Threads))
	for t := range g.Threads {
		firstNode[t], lastNode[t] = -1, -1
		depth := 0  // nesting depth inside the current top-level scoped invocation
		cur := -1   // its node
		var idx int // node index within the thread
		for i := range g.Threads[t] {
			e := &g.Threads[t][i]
			if cur >= 0 {
				s.top[e.ID] = cur
				switch e.Kind {
				case KInvBegin:
					depth++
				case KInvEnd:
					depth--
					if depth == 0 {
						cur = -1
					}
				}
				continue
			}
			n := len(s.Nodes)
			if e.Kind == KInvBegin && e.Inv != nil && (o.Scoped == nil || o.Scoped(e.Inv)) {
				s.Nodes = append(s.Nodes, SemNode{Inv: e.Inv, Ev: e.ID, T: int32(t), Idx: idx})
				s.top[e.ID] = n
				cur, depth = n, 1
			} else {
				s.Nodes = append(s.Nodes, SemNode{Ev: e.ID, T: int32(t), Idx: idx})
				s.nodeOf[e.ID] = n
			}
			idx++
			if firstNode[t] < 0 {
				firstNode[t] = n
			}
			lastNode[t] = n
		}
	}
	n := len(s.Nodes)
	s.PO, s.RF, s.WO, s.RB, s.NC = NewRel(n), NewRel(n), NewRel(n), NewRel(n), NewRel(n)

	// Program order, spawn and join.
	for i := 1; i < n; i++ {
		s.PO.Add(0, i)
		if i+1 < n && s.Nodes[i+1].T == s.Nodes[i].T {
			s.PO.Add(i, i+1)
		}
	}
	for t := range g.Threads {
		if firstNode[t] < 0 {
			continue
		}
		if t < len(g.SpawnedBy) && !g.SpawnedBy[t].IsInit() {
			if sp, ok := s.node(g.SpawnedBy[t]); ok {
				s.PO.Add(sp, firstNode[t])
			}
		}
		for i := range g.Threads[t] {
			e := &g.Threads[t][i]
			if e.Kind == KJoin && int(e.Other) < len(lastNode) && lastNode[e.Other] >= 0 {
				if j, ok := s.node(e.ID); ok {
					s.PO.Add(lastNode[e.Other], j)
				}
			}
		}
	}
	s.PO = s.PO.Plus()

	// Unscoped rf, wo and rb; init is the initial write of every location.
	wo := map[int64][]int{}
	for _, loc := range sortedLocs(g.MO) {
		for _, w := range g.MO[loc] {
			if j, ok := s.nodeOf[w]; ok {
				wo[loc] = append(wo[loc], j)
			}
		}
		ws := wo[loc]
		for a := range ws {
			s.WO.Add(0, ws[a])
			for b := a + 1; b < len(ws); b++ {
				s.WO.Add(ws[a], ws[b])
			}
		}
	}
	for j := 1; j < n; j++ {
		nd := &s.Nodes[j]
		if nd.Inv != nil {
			continue
		}
		e := g.Event(nd.Ev)
		if !e.Kind.IsRead() {
			continue
		}
		src := -1
		if e.RF.IsInit() {
			src = 0
		} else if w, ok := s.nodeOf[e.RF]; ok {
			src = w
		}
		if src < 0 {
			continue // reads from a scoped write: not in the SEG's rf (gap G18)
		}
		s.RF.Add(src, j)
		for _, w := range wo[e.Loc] {
			if w != j && (src == 0 || s.WO.Has(src, w)) {
				s.RB.Add(j, w)
			}
		}
	}

	// Linearization order: completion order; incomplete invocations last.
	type lin struct {
		node, at int
		done     bool
	}
	var lins []lin
	for j := 1; j < n; j++ {
		if inv := s.Nodes[j].Inv; inv != nil {
			if inv.Done {
				lins = append(lins, lin{j, pos[inv.End], true})
			} else {
				lins = append(lins, lin{j, pos[inv.Begin], false})
			}
		}
	}
	sort.SliceStable(lins, func(a, b int) bool {
		if lins[a].done != lins[b].done {
			return lins[a].done
		}
		return lins[a].at < lins[b].at
	})
	for _, l := range lins {
		s.Invs = append(s.Invs, l.node)
	}
	for b, v := range s.Invs {
		s.NC.Add(0, v)
		iv := s.Nodes[v].Inv
		for _, u := range s.Invs[:b] {
			iu := s.Nodes[u].Inv
			if iu.Obj != iv.Obj {
				continue
			}
			if o.Commute == nil || !o.Commute(iu, iv) {
				s.NC.Add(u, v)
			}
		}
	}

	all := s.PO.Union(s.RF).Union(s.RB).Union(s.WO).Union(s.NC).Plus()
	s.SSH = NewRel(n)
	for _, v := range s.Invs {
		for e := 0; e < n; e++ {
			if all.Has(e, v) {
				s.SSH.Add(e, v)
			}
		}
	}
	return s, nil
}

func sortedLocs(m map[int64][]EventID) []int64 {
	locs := make([]int64, 0, len(m))
	for l := range m {
		locs = append(locs, l)
	}
	sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
	return locs
}

// node returns the SEG node of event id: its own node if unscoped, else its
// top-level invocation's node.
func (s *Semantic) node(id EventID) (int, bool) {
	if id.IsInit() {
		return 0, true
	}
	if j, ok := s.nodeOf[id]; ok {
		return j, true
	}
	j, ok := s.top[id]
	return j, ok
}

// Node returns the SEG node of event id (Init: node 0): its own node if it
// is unscoped, else the node of top(id).
func (s *Semantic) Node(id EventID) (int, bool) { return s.node(id) }

// Top returns the node of top(id), the top-level scoped invocation that
// contains event id, and false if id is unscoped (or unknown).
func (s *Semantic) Top(id EventID) (int, bool) {
	j, ok := s.top[id]
	return j, ok
}

// IsScoped reports whether event id lies inside a scoped invocation.
func (s *Semantic) IsScoped(id EventID) bool {
	_, ok := s.top[id]
	return ok
}

// Key returns the SEG key: equal keys mean SC-equivalent executions. It
// covers, per thread (by stable name) in program order, the unscoped events
// with their values and the invocation labels (type, object, method,
// arguments, result; no abstract state), the unscoped reads' rf sources
// (a read from a scoped write shows only its value), NC edges and the write
// order of unscoped writes. It leaves out the events inside invocations and
// the invocation order IO (gap G5).
func (s *Semantic) Key() string {
	g := s.G
	name := func(t int) string {
		if t >= 0 && t < len(g.Names) && g.Names[t] != "" {
			return g.Names[t]
		}
		return "#" + strconv.Itoa(t)
	}
	ref := func(j int) string {
		if j == 0 {
			return "init"
		}
		nd := &s.Nodes[j]
		return name(int(nd.T)) + ":" + strconv.Itoa(nd.Idx)
	}
	byThread := map[int32][]int{}
	for j := 1; j < len(s.Nodes); j++ {
		byThread[s.Nodes[j].T] = append(byThread[s.Nodes[j].T], j)
	}
	ts := make([]int, 0, len(byThread))
	for t := range byThread {
		ts = append(ts, int(t))
	}
	sort.Slice(ts, func(a, b int) bool { return name(ts[a]) < name(ts[b]) })
	var sb strings.Builder
	for _, t := range ts {
		sb.WriteString(name(t))
		sb.WriteByte('[')
		for k, j := range byThread[int32(t)] {
			if k > 0 {
				sb.WriteByte(',')
			}
			nd := &s.Nodes[j]
			if inv := nd.Inv; inv != nil {
				sb.WriteString("I " + strconv.Quote(inv.Type+"."+inv.Method) + "@" + strconv.FormatInt(inv.Obj, 10) + "(")
				for i, a := range inv.Args {
					if i > 0 {
						sb.WriteByte(' ')
					}
					sb.WriteString(strconv.FormatInt(a, 10))
				}
				sb.WriteByte(')')
				if inv.Done && inv.HasRet {
					sb.WriteString("=" + strconv.FormatInt(inv.Ret, 10))
				}
				if !inv.Done {
					sb.WriteString("…")
				}
				continue
			}
			e := g.Event(nd.Ev)
			writeKeyLabel(&sb, e, name)
			if e.Kind.IsRead() {
				sb.WriteByte('<')
				src := -1
				for w := 0; w < len(s.Nodes); w++ {
					if s.RF.Has(w, j) {
						src = w
						break
					}
				}
				if src < 0 {
					sb.WriteString("scoped")
				} else {
					sb.WriteString(ref(src))
				}
			}
		}
		sb.WriteByte(']')
	}
	sb.WriteString("|nc")
	var nc []string
	s.NC.Each(func(u, v int) {
		if u != 0 {
			nc = append(nc, ref(u)+">"+ref(v))
		}
	})
	sort.Strings(nc)
	for _, p := range nc {
		sb.WriteString(" " + p)
	}
	sb.WriteString("|wo")
	for _, loc := range sortedLocs(g.MO) {
		var ws []string
		for _, w := range g.MO[loc] {
			if j, ok := s.nodeOf[w]; ok {
				ws = append(ws, ref(j))
			}
		}
		if len(ws) > 0 {
			sb.WriteByte(' ')
			writeLoc(&sb, loc)
			sb.WriteString(":" + strings.Join(ws, ","))
		}
	}
	return sb.String()
}

// String renders the SEG for people: nodes, NC edges and SSH predecessors.
func (s *Semantic) String() string {
	var sb strings.Builder
	for j := range s.Nodes {
		fmt.Fprintf(&sb, "%d: %s\n", j, s.Label(j))
	}
	s.NC.Each(func(u, v int) { fmt.Fprintf(&sb, "nc %d -> %d\n", u, v) })
	return sb.String()
}

// Label renders node j.
func (s *Semantic) Label(j int) string {
	nd := &s.Nodes[j]
	switch {
	case nd.Init:
		return "init"
	case nd.Inv != nil:
		inv := nd.Inv
		l := fmt.Sprintf("t%d %s.%s%v", nd.T, inv.Type, inv.Method, inv.Args)
		if inv.HasRet {
			l += "=" + strconv.FormatInt(inv.Ret, 10)
		}
		return l
	}
	return fmt.Sprintf("t%d %s", nd.T, s.G.Label(s.G.Event(nd.Ev)))
}
