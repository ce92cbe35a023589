package seg

import (
	"fmt"
	"sort"
	"strings"
)

// Model is a memory model given declaratively, in the style of herd's .cat
// files: named relations built from the base relations of a graph (see
// BaseRel and BaseSet) and axioms saying which of them must be acyclic,
// irreflexive or empty. One engine evaluates every model, so adding a model
// is adding a definition (see ParseModel for the language and models.go for
// the built-in ones).
//
// A Model is immutable after ParseModel and safe for concurrent use.
type Model struct {
	// Name is the model's short name ("sc", "tso", …).
	Name string
	// Doc is a one-line description.
	Doc    string
	src    string
	lets   map[string]*expr // the final binding of every let name
	order  []string         // let names in definition order (with repeats if shadowed)
	axioms []*axiom
	shown  map[string]bool
	nexpr  int
}

// ParseModel compiles a model written in the language described in cat.go
// (a subset of herd's .cat). Errors carry line:column positions.
func ParseModel(name, doc, src string) (m *Model, err error) {
	toks, err := lexModel(src)
	if err != nil {
		return nil, fmt.Errorf("model %s: %v", name, err)
	}
	m = &Model{Name: name, Doc: doc, src: src, lets: map[string]*expr{}, shown: map[string]bool{}}
	p := &parser{toks: toks, scope: map[string]*expr{}}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*parseError)
			if !ok {
				panic(r)
			}
			m, err = nil, fmt.Errorf("model %s: %v", name, pe)
		}
	}()
	p.model(m)
	m.nexpr = p.nexpr
	return m, nil
}

// Source is the model's definition text.
func (m *Model) Source() string { return m.src }

// Axiom describes one axiom of a model.
type Axiom struct {
	// Name is the axiom's name (from "as NAME"), or its text if unnamed.
	Name string
	// Kind says whether Expr must be acyclic, irreflexive or empty.
	Kind AxiomKind
	// Expr is the relation expression, as the model language prints it.
	Expr string
	// Flag is set for flagged axioms: their violation does not make a graph
	// inconsistent; Flags reports them.
	Flag bool
}

// Axioms lists the model's axioms in the order Check evaluates them.
func (m *Model) Axioms() []Axiom {
	out := make([]Axiom, len(m.axioms))
	for i, a := range m.axioms {
		out[i] = Axiom{Name: a.name, Kind: a.kind, Expr: a.e.String(), Flag: a.flag}
	}
	return out
}

// Lets lists the names the model defines, in definition order.
func (m *Model) Lets() []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range m.order {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// Step is one edge of a violation's path: From is related to To by the
// relation named Rel ("po", "rf", "mo", "fr", "sw", …; "rf^-1" for an edge
// taken backwards).
type Step struct {
	From, To Node
	Rel      string
}

// Violation explains why a graph is inconsistent under a model (or, from
// Flags, why a flagged axiom fires): the axiom, and a path of base-relation
// edges that witnesses it. For acyclic and irreflexive axioms the path is a
// cycle (the last step returns to the first node); for empty axioms it is a
// path from the first to the second node of a pair in the relation (or a
// single node, with no steps, for a set). For a malformed graph Kind is
// WellFormed and Msg says what is wrong.
type Violation struct {
	Model string
	Axiom string
	Kind  AxiomKind
	// Expr is the axiom's relation as text.
	Expr string
	// Nodes lists the nodes of the witness in order (a cycle's first node
	// is not repeated at the end).
	Nodes []Node
	// Steps are the edges of the witness.
	Steps []Step
	// Msg is set for WellFormed violations.
	Msg string
	// labels renders nodes, fixed when the violation was found (the graph
	// may change afterwards).
	labels map[Node]string
	names  map[Node]string
}

// Label is the description of node n as it was when the violation was
// found ("a: W(rlx) x=1"), or "" if n is not part of the witness.
func (v *Violation) Label(n Node) string { return v.labels[n] }

// Name is the short name of node n ("a", "init x"), or "".
func (v *Violation) Name(n Node) string { return v.names[n] }

// String explains the violation in words, e.g.
//
//	sc: axiom sc violated (acyclic po | rf | mo | fr | …): cycle a: W(rlx) x=1 -po-> b: R(rlx) y=0 -fr-> c: W(rlx) y=1 -po-> d: R(rlx) x=0 -fr-> a
func (v *Violation) String() string {
	if v.Kind == WellFormed {
		return fmt.Sprintf("%s: ill-formed graph: %s", v.Model, v.Msg)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: axiom %s violated (%s %s): ", v.Model, v.Axiom, v.Kind, v.Expr)
	if len(v.Steps) == 0 {
		if len(v.Nodes) > 0 {
			sb.WriteString("node " + v.labels[v.Nodes[0]])
			if len(v.Nodes) > 1 {
				sb.WriteString(" with " + v.labels[v.Nodes[1]])
			}
		}
		return sb.String()
	}
	if v.Steps[0].From == v.Steps[len(v.Steps)-1].To {
		sb.WriteString("cycle ")
	} else {
		sb.WriteString("path ")
	}
	seen := map[Node]bool{}
	node := func(n Node) {
		if seen[n] {
			sb.WriteString(v.names[n])
		} else {
			seen[n] = true
			sb.WriteString(v.labels[n])
		}
	}
	node(v.Steps[0].From)
	for _, s := range v.Steps {
		sb.WriteString(" -" + s.Rel + "-> ")
		node(s.To)
	}
	return sb.String()
}

// evaluation state for one graph
type evalEnv struct {
	m    *Model
	sp   *Space
	vals []value
	have []bool
}

type value struct {
	set Set
	rel Rel
}

func (m *Model) env(sp *Space) *evalEnv {
	return &evalEnv{m: m, sp: sp, vals: make([]value, m.nexpr), have: make([]bool, m.nexpr)}
}

func (ev *evalEnv) eval(e *expr) value {
	if ev.have[e.id] {
		return ev.vals[e.id]
	}
	var v value
	arg := func(i int) value { return ev.eval(e.args[i]) }
	n := ev.sp.Len()
	switch e.op {
	case opName:
		switch {
		case e.def != nil:
			v = ev.eval(e.def)
		case e.isSet:
			v.set, _ = ev.sp.BaseSet(e.name)
		default:
			v.rel, _ = ev.sp.BaseRel(e.name)
		}
	case opZero:
		v.rel = NewRel(n)
	case opUnion:
		if e.isSet {
			v.set = arg(0).set.Union(arg(1).set)
		} else {
			v.rel = arg(0).rel.Union(arg(1).rel)
		}
	case opInter:
		if e.isSet {
			v.set = arg(0).set.Inter(arg(1).set)
		} else if l := arg(0).rel; l.IsEmpty() {
			v.rel = l // the right operand is not needed
		} else {
			v.rel = l.Inter(arg(1).rel)
		}
	case opDiff:
		if e.isSet {
			v.set = arg(0).set.Diff(arg(1).set)
		} else {
			v.rel = arg(0).rel.Diff(arg(1).rel)
		}
	case opSeq:
		v.rel = ev.seq(e)
	case opCross:
		v.rel = Cross(arg(0).set, arg(1).set)
	case opCompl:
		if e.isSet {
			v.set = arg(0).set.Complement()
		} else {
			v.rel = arg(0).rel.Complement()
		}
	case opPlus:
		v.rel = arg(0).rel.Plus()
	case opStar:
		v.rel = arg(0).rel.Star()
	case opOpt:
		v.rel = arg(0).rel.Opt()
	case opInv:
		v.rel = arg(0).rel.Inv()
	case opIdent:
		v.rel = Identity(arg(0).set)
	case opDomain:
		v.set = arg(0).rel.Domain()
	case opRange:
		v.set = arg(0).rel.Range()
	}
	ev.vals[e.id], ev.have[e.id] = v, true
	return v
}

// seq evaluates a;b, with shortcuts for identity operands [S] that turn the
// composition into a restriction.
// An empty left operand (or identity set) makes the right one irrelevant,
// so it is not evaluated: expressions are pure, and this skips, for
// instance, RC11's psc entirely for graphs without seq_cst events.
func (ev *evalEnv) seq(e *expr) Rel {
	a, b := e.args[0], e.args[1]
	n := ev.sp.Len()
	if a.op == opIdent {
		s := ev.eval(a.args[0]).set
		if s.IsEmpty() {
			return NewRel(n)
		}
		return ev.eval(b).rel.Restrict(s, NewSet(n).Complement())
	}
	l := ev.eval(a).rel
	if l.IsEmpty() {
		return NewRel(n)
	}
	if b.op == opIdent {
		return l.Restrict(NewSet(n).Complement(), ev.eval(b.args[0]).set)
	}
	return l.Seq(ev.eval(b).rel)
}

// step is an explanation edge over node numbers.
type step struct {
	from, to int
	label    string
}

// explain unfolds the pair (a, b) of relation e into a path of edges
// labelled with base relations (or shown let names).
func (ev *evalEnv) explain(e *expr, a, b int) []step {
	switch e.op {
	case opName:
		if e.def != nil {
			if ev.m.shown[e.name] {
				// name the most specific base relation when the pair
				// comes from one directly (spawn, join in sw)
				if n := ev.baseMember(e.def, a, b); n != "" {
					return []step{{a, b, n}}
				}
				return []step{{a, b, e.name}}
			}
			return ev.explain(e.def, a, b)
		}
		if a == b && (e.name == "id" || e.name == "rmw") {
			return nil
		}
		return []step{{a, b, e.name}}
	case opUnion:
		for _, x := range e.args {
			if ev.eval(x).rel.Has(a, b) {
				return ev.explain(x, a, b)
			}
		}
	case opInter:
		var best []step
		for i, x := range e.args {
			s := ev.explain(x, a, b)
			if i == 0 || len(s) > len(best) {
				best = s
			}
		}
		return best
	case opDiff:
		return ev.explain(e.args[0], a, b)
	case opSeq:
		l, r := ev.eval(e.args[0]).rel, ev.eval(e.args[1]).rel
		mid := -1
		for _, c := range []int{b, a} {
			if l.Has(a, c) && r.Has(c, b) {
				mid = c
				break
			}
		}
		if mid < 0 {
			eachBit(l.row(a), func(c int) {
				if mid < 0 && r.Has(c, b) {
					mid = c
				}
			})
		}
		if mid < 0 {
			break
		}
		return append(ev.explain(e.args[0], a, mid), ev.explain(e.args[1], mid, b)...)
	case opPlus, opStar:
		if a == b && e.op == opStar {
			return nil
		}
		base := ev.eval(e.args[0]).rel
		path := base.Path(a, b)
		var out []step
		for i := 0; i+1 < len(path); i++ {
			out = append(out, ev.explain(e.args[0], path[i], path[i+1])...)
		}
		return out
	case opOpt:
		if ev.eval(e.args[0]).rel.Has(a, b) && a != b {
			return ev.explain(e.args[0], a, b)
		}
		return nil
	case opInv:
		in := ev.explain(e.args[0], b, a)
		out := make([]step, len(in))
		for i, s := range in {
			l := s.label + "^-1"
			if strings.HasSuffix(s.label, "^-1") {
				l = strings.TrimSuffix(s.label, "^-1")
			}
			out[len(in)-1-i] = step{s.to, s.from, l}
		}
		return out
	case opIdent, opZero:
		return nil
	case opCross, opCompl:
		return []step{{a, b, e.String()}}
	}
	return []step{{a, b, e.String()}}
}

// baseMember returns the name of a base relation that is an operand of the
// top-level union e and contains (a, b), or "".
func (ev *evalEnv) baseMember(e *expr, a, b int) string {
	switch {
	case e.op == opUnion:
		for _, x := range e.args {
			if n := ev.baseMember(x, a, b); n != "" {
				return n
			}
		}
	case e.op == opName && e.def == nil && !e.isSet:
		if ev.eval(e).rel.Has(a, b) {
			return e.name
		}
	}
	return ""
}

// Check reports the first axiom of m that g violates, or nil if g is
// consistent under m. It first checks that g is well formed (see
// Validate). Flagged axioms are not checked (see Flags).
func (m *Model) Check(g *Graph) *Violation {
	if err := Validate(g); err != nil {
		return wfViolation(m, g, err)
	}
	ev := m.env(NewSpace(g))
	for _, a := range m.axioms {
		if a.flag {
			continue
		}
		if v := ev.checkAxiom(a); v != nil {
			return v
		}
	}
	return nil
}

// CheckAll reports every non-flagged axiom of m that g violates (one
// witness each), or nil if g is consistent.
func (m *Model) CheckAll(g *Graph) []*Violation {
	if err := Validate(g); err != nil {
		return []*Violation{wfViolation(m, g, err)}
	}
	ev := m.env(NewSpace(g))
	var out []*Violation
	for _, a := range m.axioms {
		if !a.flag {
			if v := ev.checkAxiom(a); v != nil {
				out = append(out, v)
			}
		}
	}
	return out
}

// Consistent reports whether g satisfies every non-flagged axiom of m.
func (m *Model) Consistent(g *Graph) bool { return m.Check(g) == nil }

// Flags evaluates the flagged axioms of m (such as RC11's data-race
// axiom) on g and reports those that fire. It does not check consistency;
// callers normally ask only for consistent graphs.
func (m *Model) Flags(g *Graph) []*Violation {
	if err := Validate(g); err != nil {
		return []*Violation{wfViolation(m, g, err)}
	}
	ev := m.env(NewSpace(g))
	var out []*Violation
	for _, a := range m.axioms {
		if a.flag {
			if v := ev.checkAxiom(a); v != nil {
				out = append(out, v)
			}
		}
	}
	return out
}

// Relation evaluates a relation expression (for instance a name the model
// defines, such as "hb" or "sw", or "po | rf") on g, in the scope of all
// of the model's definitions. It returns the space that numbers the nodes.
func (m *Model) Relation(g *Graph, src string) (*Space, Rel, error) {
	e, n, err := m.compileExpr(src)
	if err != nil {
		return nil, Rel{}, err
	}
	if e.isSet {
		return nil, Rel{}, fmt.Errorf("model %s: %q is a set, not a relation", m.Name, src)
	}
	sp := NewSpace(g)
	ev := &evalEnv{m: m, sp: sp, vals: make([]value, n), have: make([]bool, n)}
	return sp, ev.eval(e).rel, nil
}

// compileExpr parses src as an expression in the scope of the model's lets.
// The new nodes get memo slots after the model's own.
func (m *Model) compileExpr(src string) (e *expr, n int, err error) {
	toks, err := lexModel(src)
	if err != nil {
		return nil, 0, fmt.Errorf("model %s: %v", m.Name, err)
	}
	p := &parser{toks: toks, scope: m.lets, nexpr: m.nexpr}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*parseError)
			if !ok {
				panic(r)
			}
			e, err = nil, fmt.Errorf("model %s: expression %q: %v", m.Name, src, pe)
		}
	}()
	e = p.expr()
	if t := p.peek(); t.kind != tEOF {
		p.fail(t, "unexpected %s after the expression", describe(t))
	}
	return e, p.nexpr, nil
}

func (ev *evalEnv) checkAxiom(a *axiom) *Violation {
	v := ev.eval(a.e)
	var steps []step
	var nodes []int
	if a.e.isSet {
		if v.set.IsEmpty() {
			return nil
		}
		nodes = v.set.Members()[:1]
	} else {
		switch a.kind {
		case Acyclic:
			cyc := v.rel.Cycle()
			if cyc == nil {
				return nil
			}
			for i := range cyc {
				steps = append(steps, ev.explain(a.e, cyc[i], cyc[(i+1)%len(cyc)])...)
			}
			nodes = cyc
		case Irreflexive:
			x := v.rel.Reflexive()
			if x < 0 {
				return nil
			}
			steps = ev.explain(a.e, x, x)
			nodes = []int{x}
		case Empty:
			if v.rel.IsEmpty() {
				return nil
			}
			p := v.rel.Pairs()[0]
			steps = ev.explain(a.e, p[0], p[1])
			nodes = []int{p[0], p[1]}
			if p[0] == p[1] {
				nodes = nodes[:1]
			}
		}
		if len(steps) > 0 && a.kind != Empty {
			// start the cycle at its lowest-numbered node ("a" before "b")
			m := 0
			for i, s := range steps {
				if s.from < steps[m].from {
					m = i
				}
			}
			steps = append(append([]step{}, steps[m:]...), steps[:m]...)
		}
		if len(steps) > 0 {
			nodes = nodes[:0:0]
			for _, s := range steps {
				nodes = append(nodes, s.from)
			}
			if a.kind == Empty {
				nodes = append(nodes, steps[len(steps)-1].to)
			}
		}
	}
	return ev.violation(a, nodes, steps)
}

func (ev *evalEnv) violation(a *axiom, nodes []int, steps []step) *Violation {
	sp := ev.sp
	out := &Violation{Model: ev.m.Name, Axiom: a.name, Kind: a.kind, Expr: a.e.String(),
		labels: map[Node]string{}, names: map[Node]string{}}
	add := func(i int) Node {
		n := sp.Node(i)
		if _, ok := out.labels[n]; !ok {
			out.labels[n] = sp.NodeLabel(i)
			out.names[n] = sp.NodeName(i)
		}
		return n
	}
	seen := map[int]bool{}
	for _, i := range nodes {
		n := add(i)
		if !seen[i] {
			seen[i] = true
			out.Nodes = append(out.Nodes, n)
		}
	}
	for _, s := range steps {
		out.Steps = append(out.Steps, Step{From: add(s.from), To: add(s.to), Rel: s.label})
	}
	return out
}

func wfViolation(m *Model, g *Graph, err error) *Violation {
	v := &Violation{Model: m.Name, Axiom: "well-formed", Kind: WellFormed, Msg: err.Error(),
		labels: map[Node]string{}, names: map[Node]string{}}
	if we, ok := err.(*WFError); ok {
		n := EventNode(we.Event)
		v.Nodes = []Node{n}
		if e := g.Event(we.Event); e != nil {
			v.labels[n] = g.EventName(we.Event) + ": " + g.Label(e)
			v.names[n] = g.EventName(we.Event)
		}
	}
	return v
}

// WFError is the error Validate returns: what is wrong and the event
// concerned (Init if none in particular).
type WFError struct {
	Event EventID
	Msg   string
}

// Error describes the problem, naming the event.
func (e *WFError) Error() string {
	if e.Event.IsInit() {
		return e.Msg
	}
	return fmt.Sprintf("event %s: %s", e.Event, e.Msg)
}

// Validate checks that g is a well-formed execution graph, independently of
// any memory model: every event sits at its own (thread, index); every read
// (KRead, KRMW, KLock) reads from Init or from an existing write to its
// location, a KLock only from Init, a KUnlock or a KWrite of 0 (the
// unlocked state, stored by a front end that initializes a mutex again,
// as the C front end's pthread_mutex_init after a destroy); a KRead or KRMW that reads
// a KWrite, KRMW or Init sees the value written (InitVal, missing entries
// meaning 0); and MO lists, for every location, only writes to it, each at
// most once. A write that is not in MO yet (a store still in a TSO/PSO
// store buffer when the execution stopped) is not an error: relations
// treat it as following every write in MO (see Space). It returns a
// *WFError.
func Validate(g *Graph) error {
	for t, th := range g.Threads {
		for i := range th {
			e := &th[i]
			if e.ID.T != int32(t) || e.ID.I != int32(i) {
				return &WFError{EventID{int32(t), int32(i)}, fmt.Sprintf("has ID %s", e.ID)}
			}
			if !e.Kind.IsRead() {
				continue
			}
			if e.RF.IsInit() {
				if (e.Kind == KRead || e.Kind == KRMW) && e.RVal != g.InitVal[e.Loc] {
					return &WFError{e.ID, fmt.Sprintf("reads %d from the initial write of %s, which wrote %d", e.RVal, g.Loc(e.Loc), g.InitVal[e.Loc])}
				}
				continue
			}
			w := g.Event(e.RF)
			switch {
			case w == nil:
				return &WFError{e.ID, fmt.Sprintf("reads from %s, which does not exist", e.RF)}
			case !w.Kind.IsWrite():
				return &WFError{e.ID, fmt.Sprintf("reads from %s, which is not a write", e.RF)}
			case w.Loc != e.Loc:
				return &WFError{e.ID, fmt.Sprintf("reads %s from %s, which writes %s", g.Loc(e.Loc), e.RF, g.Loc(w.Loc))}
			case e.Kind == KLock && w.Kind != KUnlock && (w.Kind != KWrite || w.WVal != 0):
				return &WFError{e.ID, fmt.Sprintf("lock reads from %s, which is not an unlock or a store of 0", e.RF)}
			case (e.Kind == KRead || e.Kind == KRMW) && (w.Kind == KWrite || w.Kind == KRMW) && e.RVal != w.WVal:
				return &WFError{e.ID, fmt.Sprintf("reads %d from %s, which wrote %d", e.RVal, e.RF, w.WVal)}
			}
		}
	}
	inMO := map[EventID]bool{}
	locs := make([]int64, 0, len(g.MO))
	for loc := range g.MO {
		locs = append(locs, loc)
	}
	sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
	for _, loc := range locs {
		for _, w := range g.MO[loc] {
			e := g.Event(w)
			switch {
			case e == nil:
				return &WFError{Init, fmt.Sprintf("mo of %s lists %s, which does not exist", g.Loc(loc), w)}
			case !e.Kind.IsWrite() || e.Loc != loc:
				return &WFError{w, fmt.Sprintf("is in the mo of %s but is not a write to it", g.Loc(loc))}
			case inMO[w]:
				return &WFError{w, fmt.Sprintf("appears twice in the mo of %s", g.Loc(loc))}
			}
			inMO[w] = true
		}
	}
	return nil
}
