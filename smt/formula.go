package smt

import (
	"fmt"
	"slices"
	"strings"
)

// Var is an order variable: the (unknown) position of one event in a
// schedule. Vars are small non-negative integers. [Builder.NewVar] allocates
// fresh ones, but any non-negative int may be used directly (for example an
// event index); memory use of a Solver grows with the largest Var id, so keep
// ids dense.
type Var int

// Kind is the top-level operator of a Formula.
type Kind uint8

// The kinds of formula nodes. Because formulas are kept in negation normal
// form over total orders (see the package documentation) there is no Not
// node.
const (
	KindFalse Kind = iota // the constant false
	KindTrue              // the constant true
	KindLt                // an ordering atom O_a < O_b
	KindAnd               // a conjunction of two or more formulas
	KindOr                // a disjunction of two or more formulas
)

// String returns the name of the kind ("false", "true", "<", "and", "or").
func (k Kind) String() string {
	switch k {
	case KindFalse:
		return "false"
	case KindTrue:
		return "true"
	case KindLt:
		return "<"
	case KindAnd:
		return "and"
	case KindOr:
		return "or"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// node is one vertex of a formula DAG. All fields except neg are immutable
// after construction; neg caches the negation and is only written by the
// owning Builder.
type node struct {
	kind Kind
	id   uint32 // unique within the owning Builder; 0 and 1 for the constants
	a, b Var    // KindLt: a < b
	kids []*node
	neg  *node
	bld  *Builder // nil for the shared constants
}

// The two constants are shared by all Builders. They are never modified
// after package initialisation.
var (
	falseNode = &node{kind: KindFalse, id: 0}
	trueNode  = &node{kind: KindTrue, id: 1}
)

func init() {
	falseNode.neg = trueNode
	trueNode.neg = falseNode
}

// Formula is an immutable Boolean formula over ordering atoms. It is a
// handle to a hash-consed DAG node, so it is cheap to copy and compare:
// two Formulas built by the same Builder are == iff they are the same
// (simplified) formula. The zero Formula is equivalent to True.
type Formula struct {
	n *node
}

func (f Formula) node() *node {
	if f.n == nil {
		return trueNode
	}
	return f.n
}

// Kind returns the top-level operator of f.
func (f Formula) Kind() Kind { return f.node().kind }

// IsTrue reports whether f is the constant True.
func (f Formula) IsTrue() bool { return f.node() == trueNode }

// IsFalse reports whether f is the constant False.
func (f Formula) IsFalse() bool { return f.node() == falseNode }

// ID returns f's node number: unique among the formulas of f's Builder
// (0 and 1 are False and True), below the Builder's NumNodes()+2. Deciders
// use it to index per-node scratch arrays.
func (f Formula) ID() uint32 { return f.node().id }

// Atom returns the variables of an atom a < b. ok is false if f is not an
// atom.
func (f Formula) Atom() (a, b Var, ok bool) {
	n := f.node()
	if n.kind != KindLt {
		return 0, 0, false
	}
	return n.a, n.b, true
}

// Args returns the operands of an And or Or formula (a fresh slice), and
// nil for other kinds.
func (f Formula) Args() []Formula {
	n := f.node()
	if len(n.kids) == 0 {
		return nil
	}
	out := make([]Formula, len(n.kids))
	for i, k := range n.kids {
		out[i] = Formula{k}
	}
	return out
}

// NumArgs returns the number of operands of an And or Or formula (0 for
// other kinds).
func (f Formula) NumArgs() int { return len(f.node().kids) }

// Arg returns operand i of an And or Or formula, without allocating.
func (f Formula) Arg(i int) Formula { return Formula{f.node().kids[i]} }

// Size returns the number of distinct nodes in the DAG of f (shared
// sub-formulas counted once).
func (f Formula) Size() int {
	seen := make(map[*node]struct{})
	var walk func(n *node)
	walk = func(n *node) {
		if _, ok := seen[n]; ok {
			return
		}
		seen[n] = struct{}{}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(f.node())
	return len(seen)
}

// maxStringLen bounds Formula.String, since the tree form of a DAG can be
// exponentially larger than the DAG.
const maxStringLen = 1 << 16

// String renders f in SMT-LIB-like syntax, e.g. (or (< x y) (< z x)).
// Variables created with a name print as that name, others as o<id>.
// Very large formulas are truncated with "...".
func (f Formula) String() string {
	var sb strings.Builder
	var walk func(n *node)
	walk = func(n *node) {
		if sb.Len() > maxStringLen {
			return
		}
		switch n.kind {
		case KindFalse:
			sb.WriteString("false")
		case KindTrue:
			sb.WriteString("true")
		case KindLt:
			fmt.Fprintf(&sb, "(< %s %s)", n.bld.varName(n.a), n.bld.varName(n.b))
		default:
			sb.WriteString("(")
			sb.WriteString(n.kind.String())
			for _, k := range n.kids {
				sb.WriteString(" ")
				walk(k)
			}
			sb.WriteString(")")
		}
	}
	walk(f.node())
	if sb.Len() > maxStringLen {
		return sb.String()[:maxStringLen] + "..."
	}
	return sb.String()
}

// Builder creates hash-consed formulas. It is not safe for concurrent use.
// Formulas created by different Builders must not be combined with each
// other (the constructors panic if they are); the constants True and False
// are shared and may be used with any Builder. A Formula may be asserted in
// any Solver: Vars are identified by their integer value only.
type Builder struct {
	nextID  uint32
	lt      map[[2]Var]*node
	naryTab map[uint64][]*node // And/Or nodes by structural hash
	names   []string           // names of Vars created by NewVar, by id
	nvars   int                // 1 + the largest Var seen
	buf     []*node
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{
		nextID:  2,
		lt:      make(map[[2]Var]*node),
		naryTab: make(map[uint64][]*node),
	}
}

// NewVar returns a fresh order variable, larger than every Var this Builder
// has seen so far. The name is used when printing formulas; it need not be
// unique.
func (b *Builder) NewVar(name string) Var {
	v := Var(b.nvars)
	b.nvars++
	for len(b.names) < int(v) {
		b.names = append(b.names, "")
	}
	b.names = append(b.names, name)
	return v
}

// NumVars returns 1 + the largest Var created or used by this Builder
// (0 if none).
func (b *Builder) NumVars() int { return b.nvars }

// VarName returns the name given to v by NewVar, or "" if it has none.
func (b *Builder) VarName(v Var) string {
	if int(v) < len(b.names) {
		return b.names[v]
	}
	return ""
}

func (b *Builder) varName(v Var) string {
	if b != nil {
		if s := b.VarName(v); s != "" {
			return s
		}
	}
	return fmt.Sprintf("o%d", int(v))
}

// NumNodes returns the number of distinct non-constant formula nodes this
// Builder has created.
func (b *Builder) NumNodes() int { return int(b.nextID - 2) }

// True returns the constant true formula.
func (b *Builder) True() Formula { return Formula{trueNode} }

// False returns the constant false formula.
func (b *Builder) False() Formula { return Formula{falseNode} }

// True is the constant true formula (shared by all Builders).
func True() Formula { return Formula{trueNode} }

// False is the constant false formula (shared by all Builders).
func False() Formula { return Formula{falseNode} }

func (b *Builder) newNode(n *node) *node {
	n.id = b.nextID
	n.bld = b
	b.nextID++
	if b.nextID == 0 {
		panic("smt: too many formula nodes in one Builder")
	}
	return n
}

func (b *Builder) own(n *node) *node {
	if n.bld != b && n.bld != nil {
		panic("smt: combining formulas from different Builders")
	}
	return n
}

// Lt returns the atom O_x < O_y ("event x happens before event y").
// Lt(x, x) is False. It panics if x or y is negative.
func (b *Builder) Lt(x, y Var) Formula {
	if x < 0 || y < 0 {
		panic(fmt.Sprintf("smt: negative Var in Lt(%d, %d)", x, y))
	}
	if x == y {
		return Formula{falseNode}
	}
	if n, ok := b.lt[[2]Var{x, y}]; ok {
		return Formula{n}
	}
	if int(x) >= b.nvars {
		b.nvars = int(x) + 1
	}
	if int(y) >= b.nvars {
		b.nvars = int(y) + 1
	}
	n := b.newNode(&node{kind: KindLt, a: x, b: y})
	b.lt[[2]Var{x, y}] = n
	if m, ok := b.lt[[2]Var{y, x}]; ok {
		n.neg = m
		m.neg = n
	}
	return Formula{n}
}

// Gt returns the atom O_x > O_y, i.e. Lt(y, x).
func (b *Builder) Gt(x, y Var) Formula { return b.Lt(y, x) }

// Chain returns Lt(vs[0], vs[1]) ∧ Lt(vs[1], vs[2]) ∧ ... (True for fewer
// than two variables).
func (b *Builder) Chain(vs ...Var) Formula {
	if len(vs) < 2 {
		return Formula{trueNode}
	}
	fs := make([]Formula, 0, len(vs)-1)
	for i := 1; i < len(vs); i++ {
		fs = append(fs, b.Lt(vs[i-1], vs[i]))
	}
	return b.And(fs...)
}

// And returns the conjunction of fs (True if fs is empty).
func (b *Builder) And(fs ...Formula) Formula { return Formula{b.nary(KindAnd, fs)} }

// Or returns the disjunction of fs (False if fs is empty).
func (b *Builder) Or(fs ...Formula) Formula { return Formula{b.nary(KindOr, fs)} }

// Not returns the negation of f. Under the total-order semantics
// Not(Lt(a, b)) is Lt(b, a); negations of And/Or are pushed inwards
// (De Morgan), and the result is cached so that negating a DAG costs at most
// one new node per node.
func (b *Builder) Not(f Formula) Formula { return Formula{b.not(b.own(f.node()))} }

// Implies returns Or(Not(p), q).
func (b *Builder) Implies(p, q Formula) Formula { return b.Or(b.Not(p), q) }

// Iff returns (p ∧ q) ∨ (¬p ∧ ¬q).
func (b *Builder) Iff(p, q Formula) Formula {
	return b.Or(b.And(p, q), b.And(b.Not(p), b.Not(q)))
}

func (b *Builder) not(n *node) *node {
	if n.neg != nil {
		return n.neg
	}
	var r *node
	switch n.kind {
	case KindLt:
		r = b.Lt(n.b, n.a).n // sets both neg pointers
		return r
	case KindAnd, KindOr:
		fs := make([]Formula, len(n.kids))
		for i, k := range n.kids {
			fs[i] = Formula{b.not(k)}
		}
		if n.kind == KindAnd {
			r = b.nary(KindOr, fs)
		} else {
			r = b.nary(KindAnd, fs)
		}
	default:
		panic("smt: bad node kind")
	}
	n.neg = r
	if r.neg == nil && r.bld != nil {
		r.neg = n
	}
	return r
}

// nary builds a simplified And (kind == KindAnd) or Or node.
func (b *Builder) nary(kind Kind, fs []Formula) *node {
	unit, zero := trueNode, falseNode // neutral and absorbing elements
	if kind == KindOr {
		unit, zero = falseNode, trueNode
	}
	kids := b.buf[:0]
	for _, f := range fs {
		n := b.own(f.node())
		switch {
		case n == zero:
			b.buf = kids[:0]
			return zero
		case n == unit:
		case n.kind == kind:
			kids = append(kids, n.kids...)
		default:
			kids = append(kids, n)
		}
	}
	b.buf = kids[:0]
	if len(kids) == 0 {
		return unit
	}
	slices.SortFunc(kids, func(x, y *node) int { return int(x.id) - int(y.id) })
	kids = slices.Compact(kids)
	if len(kids) == 1 {
		return kids[0]
	}
	// Complementary atoms: x<y together with y<x.
	for _, k := range kids {
		if k.kind == KindLt && k.neg != nil && k.a < k.b {
			if _, found := slices.BinarySearchFunc(kids, k.neg.id, func(x *node, id uint32) int { return int(x.id) - int(id) }); found {
				return zero
			}
		}
	}
	h := uint64(kind) + 0x9e3779b97f4a7c15
	for _, k := range kids {
		h = (h ^ uint64(k.id)) * 0x100000001b3
	}
	for _, m := range b.naryTab[h] {
		if m.kind == kind && slices.Equal(m.kids, kids) {
			return m
		}
	}
	n := b.newNode(&node{kind: kind, kids: slices.Clone(kids)})
	b.naryTab[h] = append(b.naryTab[h], n)
	return n
}

// Eval evaluates f under the integer valuation val. For every variable v of
// f, val(v) is the value of O_v. Shared sub-formulas are evaluated once.
func Eval(f Formula, val func(Var) int64) bool {
	n := f.node()
	if len(n.kids) == 0 {
		return evalLeaf(n, val)
	}
	memo := make(map[*node]bool)
	return evalNode(n, val, memo)
}

func evalLeaf(n *node, val func(Var) int64) bool {
	switch n.kind {
	case KindTrue:
		return true
	case KindFalse:
		return false
	case KindLt:
		return val(n.a) < val(n.b)
	}
	panic("smt: evalLeaf on non-leaf")
}

func evalNode(n *node, val func(Var) int64, memo map[*node]bool) bool {
	if len(n.kids) == 0 {
		return evalLeaf(n, val)
	}
	if r, ok := memo[n]; ok {
		return r
	}
	r := n.kind == KindAnd
	for _, k := range n.kids {
		if evalNode(k, val, memo) != r {
			r = !r
			break
		}
	}
	memo[n] = r
	return r
}

// EvalOrder evaluates f under the total order given by order: the value of
// order[i] is i. Variables of f that are missing from order are placed after
// all listed ones, in increasing Var order.
func EvalOrder(f Formula, order []Var) bool {
	pos := make(map[Var]int64, len(order))
	for i, v := range order {
		pos[v] = int64(i)
	}
	rest := int64(len(order))
	for _, v := range Vars(f) {
		if _, ok := pos[v]; !ok {
			pos[v] = rest
			rest++
		}
	}
	return Eval(f, func(v Var) int64 { return pos[v] })
}

// Vars returns the distinct variables occurring in f, in increasing order.
func Vars(f Formula) []Var {
	seen := make(map[*node]struct{})
	vs := make(map[Var]struct{})
	var walk func(n *node)
	walk = func(n *node) {
		if _, ok := seen[n]; ok {
			return
		}
		seen[n] = struct{}{}
		if n.kind == KindLt {
			vs[n.a] = struct{}{}
			vs[n.b] = struct{}{}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(f.node())
	out := make([]Var, 0, len(vs))
	for v := range vs {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
