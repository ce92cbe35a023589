package commspec

import (
	"fmt"
	"strings"
)

// Access points (the thesis's §2.3, Def. 2.3.1): a representation ⟨X, η, C⟩
// of a spec in which two invocations commute iff no point one touches
// conflicts with a point the other touches. compile builds one per spec:
//
// For every unordered pair of methods {m1, m2} whose condition has the form
//
//	k1 != k2 || ... || j1 != j2 || R
//
// where each key disjunct compares an expression over invocation 1 only with
// one over invocation 2 only, and R is a boolean combination of atoms each
// of which mentions one invocation only (and at most 12 atoms in all), there
// is a channel. An invocation of m1 touches one point of the channel: its key
// (the values of its key expressions) and its class (the truth values of its
// atoms); likewise for m2. Two points of the channel conflict iff their keys
// are equal and the precomputed table says that R is false for their
// classes. Pairs without condition get a keyless channel whose points always
// conflict; pairs whose condition is `true` get no channel. Other conditions
// are evaluated directly. See docs/commspec.md §7.

// MaxKey is the largest number of key disjuncts a compiled condition may have.
const MaxKey = 4

// maxAtoms bounds the class atoms of one channel (the table has 2^atoms entries).
const maxAtoms = 12

// Key is the key of an access point: the values of its key expressions.
type Key struct {
	N int
	V [MaxKey]int64
}

// Point is one access point: a channel (one per compiled method pair), the
// side the invocation plays in it (0: the pair's first method, 1: its
// second; for a pair of equal methods every point has both sides), its
// class and its key. A Wild point (its key or class could not be evaluated)
// conflicts with every point of its channel.
type Point struct {
	Chan  int
	Side  int
	Class uint32
	Key   Key
	Wild  bool
}

func (p Point) String() string {
	if p.Wild {
		return fmt.Sprintf("ch%d/%d:*", p.Chan, p.Side)
	}
	return fmt.Sprintf("ch%d/%d:c%d@%v", p.Chan, p.Side, p.Class, p.Key.V[:p.Key.N])
}

type channel struct {
	id    int
	m     [2]*Method
	same  bool
	cond  *Cond      // nil: the pair has no condition (always conflicts)
	keys  [][2]*node // key components: keys[k][side]
	atoms [2][]*node // atoms over each side
	table []bool     // conflict iff table[c0<<len(atoms[1]) | c1]
}

// pairMode values of AccessPoints.mode.
const (
	modeNever  = -1 // the condition is `true`: no channel, never conflict
	modeDirect = -2 // evaluated directly
)

// AccessPoints is the compiled access-point representation of a spec.
type AccessPoints struct {
	spec     *Spec
	chans    []*channel
	mode     [][]int      // [i][j]: channel id, modeNever or modeDirect (symmetric)
	byMethod [][]*channel // channels each method touches
}

// AccessPoints returns the spec's compiled access points.
func (s *Spec) AccessPoints() *AccessPoints { return s.ap }

func compile(s *Spec) *AccessPoints {
	n := len(s.Methods)
	ap := &AccessPoints{spec: s, mode: make([][]int, n), byMethod: make([][]*channel, n)}
	for i := range ap.mode {
		ap.mode[i] = make([]int, n)
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			c := s.conds[i][j]
			ch := compilePair(s.Methods[i], s.Methods[j], c)
			mode := modeDirect
			switch {
			case ch == nil && c != nil && isTrue(c.root):
				mode = modeNever
			case ch != nil:
				ch.id = len(ap.chans)
				ap.chans = append(ap.chans, ch)
				mode = ch.id
				ap.byMethod[i] = append(ap.byMethod[i], ch)
				if j != i {
					ap.byMethod[j] = append(ap.byMethod[j], ch)
				}
			}
			ap.mode[i][j], ap.mode[j][i] = mode, mode
		}
	}
	return ap
}

func isTrue(n *node) bool { return n.op == nConst && n.val != 0 }

// sides returns a bit set of the invocations n mentions (1: inv 1, 2: inv 2).
func sides(n *node) int {
	s := 0
	if n.op == nVar || n.op == nState {
		s |= 1 << n.side
	}
	for _, a := range n.args {
		s |= sides(a)
	}
	return s
}

func disjuncts(n *node, out []*node) []*node {
	if n.op == nOr {
		return disjuncts(n.args[1], disjuncts(n.args[0], out))
	}
	return append(out, n)
}

// compilePair returns the channel of the pair (m1, m2) with condition c (nil:
// none), or nil if c is `true` or has no compilable form.
func compilePair(m1, m2 *Method, c *Cond) *channel {
	ch := &channel{m: [2]*Method{m1, m2}, same: m1 == m2, cond: c}
	if c == nil {
		ch.table = []bool{true}
		return ch
	}
	if isTrue(c.root) {
		return nil
	}
	var rest []*node
	for _, d := range disjuncts(c.root, nil) {
		if d.op == nNe && len(ch.keys) < MaxKey {
			x, y := d.args[0], d.args[1]
			sx, sy := sides(x), sides(y)
			if sx == 2 && sy == 1 {
				x, y, sx, sy = y, x, sy, sx
			}
			if sx == 1 && sy == 2 {
				if ch.same && canon(x, false) != canon(y, true) {
					return nil // the two sides' keys differ: not a keyed channel
				}
				ch.keys = append(ch.keys, [2]*node{x, y})
				continue
			}
		}
		rest = append(rest, d)
	}
	// The class formula R is the disjunction of the rest; collect its atoms.
	idx := [2]map[string]int{{}, {}}
	var ok = true
	var collect func(n *node)
	collect = func(n *node) {
		switch {
		case !ok:
		case n.op == nAnd || n.op == nOr || n.op == nNot:
			for _, a := range n.args {
				collect(a)
			}
		case (n.op == nEq || n.op == nNe) && n.args[0].typ == Bool:
			collect(n.args[0])
			collect(n.args[1])
		case n.op == nConst:
		default:
			s := sides(n)
			if s == 3 {
				ok = false
				return
			}
			side := 0
			if s == 2 {
				side = 1
			}
			k := canon(n, false)
			if _, seen := idx[side][k]; !seen {
				idx[side][k] = len(ch.atoms[side])
				ch.atoms[side] = append(ch.atoms[side], n)
			}
		}
	}
	for _, d := range rest {
		collect(d)
	}
	if !ok || len(ch.atoms[0])+len(ch.atoms[1]) > maxAtoms {
		return nil
	}
	n0, n1 := len(ch.atoms[0]), len(ch.atoms[1])
	ch.table = make([]bool, 1<<(n0+n1))
	for c0 := 0; c0 < 1<<n0; c0++ {
		for c1 := 0; c1 < 1<<n1; c1++ {
			r := false
			for _, d := range rest {
				if evalClass(d, idx, c0, c1) {
					r = true
					break
				}
			}
			ch.table[c0<<n1|c1] = !r
		}
	}
	return ch
}

// evalClass evaluates a class formula given the truth values of its atoms.
func evalClass(n *node, idx [2]map[string]int, c0, c1 int) bool {
	switch {
	case n.op == nAnd:
		return evalClass(n.args[0], idx, c0, c1) && evalClass(n.args[1], idx, c0, c1)
	case n.op == nOr:
		return evalClass(n.args[0], idx, c0, c1) || evalClass(n.args[1], idx, c0, c1)
	case n.op == nNot:
		return !evalClass(n.args[0], idx, c0, c1)
	case (n.op == nEq || n.op == nNe) && n.args[0].typ == Bool:
		eq := evalClass(n.args[0], idx, c0, c1) == evalClass(n.args[1], idx, c0, c1)
		return eq == (n.op == nEq)
	case n.op == nConst:
		return n.val != 0
	}
	k := canon(n, false)
	if i, ok := idx[0][k]; ok && sides(n) != 2 {
		return c0>>i&1 == 1
	}
	return c1>>idx[1][k]&1 == 1
}

// Compiled reports whether the pair (m1, m2) is decided by access points
// (or never conflicts because its condition is `true`) rather than by
// direct evaluation. Unknown methods are not compiled.
func (ap *AccessPoints) Compiled(m1, m2 string) bool {
	i, ok1 := ap.spec.methodIdx[m1]
	j, ok2 := ap.spec.methodIdx[m2]
	return ok1 && ok2 && ap.mode[i][j] != modeDirect
}

// Points returns η(v): the access points v touches, one per channel of its
// method. It fails for a method the spec does not know or a wrong number of
// arguments. Evaluation errors inside a key or class make the point Wild.
func (ap *AccessPoints) Points(v Invocation) ([]Point, error) {
	i, ok := ap.spec.methodIdx[v.Method]
	if !ok {
		return nil, fmt.Errorf("method %s is not in the spec of %s", v.Method, ap.spec.Object)
	}
	if err := arity(ap.spec.Methods[i], v); err != nil {
		return nil, err
	}
	m := ap.spec.Methods[i]
	out := make([]Point, 0, len(ap.byMethod[i]))
	for _, ch := range ap.byMethod[i] {
		out = append(out, ch.point(m, v))
	}
	return out, nil
}

func (ch *channel) point(m *Method, v Invocation) Point {
	side := 0
	if !ch.same && m != ch.m[0] {
		side = 1
	}
	p := Point{Chan: ch.id, Side: side}
	var e env
	e.inv[side] = &v
	for _, k := range ch.keys {
		x, err := e.eval(k[side])
		if err != nil {
			p.Wild = true
			return p
		}
		p.Key.V[p.Key.N] = x
		p.Key.N++
	}
	class := func(side int) (uint32, bool) {
		var e env
		e.inv[side] = &v
		var c uint32
		for i, a := range ch.atoms[side] {
			x, err := e.eval(a)
			if err != nil {
				return 0, false
			}
			if x != 0 {
				c |= 1 << i
			}
		}
		return c, true
	}
	if ch.same {
		c0, ok0 := class(0)
		c1, ok1 := class(1)
		p.Class = c0 | c1<<len(ch.atoms[0])
		p.Wild = !ok0 || !ok1
		return p
	}
	c, ok := class(side)
	p.Class, p.Wild = c, !ok
	return p
}

// Conflict reports whether points p and q conflict (the relation C).
// Points of different channels never conflict.
func (ap *AccessPoints) Conflict(p, q Point) bool {
	if p.Chan != q.Chan {
		return false
	}
	ch := ap.chans[p.Chan]
	if !ch.same && p.Side == q.Side {
		return false // two invocations of the same method meet in another channel
	}
	if p.Wild || q.Wild {
		return true
	}
	if p.Key != q.Key {
		return false
	}
	n0, n1 := len(ch.atoms[0]), len(ch.atoms[1])
	if ch.same {
		lo, hi := uint32(1)<<n0-1, p.Class>>n0
		return ch.table[(p.Class&lo)<<n1|q.Class>>n0] || ch.table[(q.Class&lo)<<n1|hi]
	}
	if p.Side == 1 {
		p, q = q, p
	}
	return ch.table[p.Class<<n1|q.Class]
}

// Commute decides whether a and b commute using the access points when their
// pair is compiled and the condition otherwise; it agrees with Spec.Commute
// except that an evaluation error inside a key or class (a Wild point) makes
// it answer "do not commute" even where the condition's short-circuit
// evaluation would not have reached the failing part.
func (ap *AccessPoints) Commute(a, b Invocation) bool {
	s := ap.spec
	i, ok1 := s.methodIdx[a.Method]
	j, ok2 := s.methodIdx[b.Method]
	if !ok1 || !ok2 || arity(s.Methods[i], a) != nil || arity(s.Methods[j], b) != nil {
		return false
	}
	switch mode := ap.mode[i][j]; mode {
	case modeNever:
		return true
	case modeDirect:
		return s.Commute(a, b)
	default:
		ch := ap.chans[mode]
		return !ap.Conflict(ch.point(s.Methods[i], a), ch.point(s.Methods[j], b))
	}
}

// Describe renders the compiled representation for people: one line per
// method pair.
func (ap *AccessPoints) Describe() string {
	var b strings.Builder
	s := ap.spec
	for i, m1 := range s.Methods {
		for j := i; j < len(s.Methods); j++ {
			m2 := s.Methods[j]
			fmt.Fprintf(&b, "%s/%s: ", m1.Name, m2.Name)
			switch mode := ap.mode[i][j]; mode {
			case modeNever:
				b.WriteString("always commute (no access point)\n")
			case modeDirect:
				b.WriteString("evaluated directly\n")
			default:
				ch := ap.chans[mode]
				if ch.cond == nil {
					fmt.Fprintf(&b, "channel %d, keyless, always conflict (no condition)\n", ch.id)
					continue
				}
				keys := "keyless"
				if len(ch.keys) > 0 {
					var ks []string
					for _, k := range ch.keys {
						ks = append(ks, show(k[0])+"="+show(k[1]))
					}
					keys = "key " + strings.Join(ks, ", ")
				}
				conf := 0
				for _, t := range ch.table {
					if t {
						conf++
					}
				}
				fmt.Fprintf(&b, "channel %d, %s, %d+%d class atoms, %d of %d class pairs conflict\n",
					ch.id, keys, len(ch.atoms[0]), len(ch.atoms[1]), conf, len(ch.table))
			}
		}
	}
	return b.String()
}

// show renders a node roughly as written.
func show(n *node) string {
	switch n.op {
	case nConst:
		if n.name != "" {
			return n.name
		}
		if n.typ == Bool {
			return fmt.Sprint(n.val != 0)
		}
		return fmt.Sprint(n.val)
	case nVar:
		return n.name
	case nParam:
		return n.name
	case nNeg, nNot, nBitNot:
		return opText[n.op] + show(n.args[0])
	case nFunc, nState, nMin, nMax, nAbs:
		var as []string
		for _, a := range n.args {
			as = append(as, show(a))
		}
		name := n.name
		if name == "" {
			name = opText[n.op]
		}
		return name + "(" + strings.Join(as, ", ") + ")"
	}
	return "(" + show(n.args[0]) + " " + opText[n.op] + " " + show(n.args[1]) + ")"
}

// Index is the set of invocations of one object seen so far in an
// execution, organised by access points so that the invocations that do not
// commute with a new one are found without evaluating the spec against
// every earlier invocation: a compiled pair costs one hash probe per channel
// plus one table lookup per invocation found at the same key; pairs that
// are evaluated directly are checked against every earlier invocation of the
// partner method.
type Index struct {
	ap       *AccessPoints
	buckets  map[bucketKey][]entry
	perChan  [][]entry // all entries of each channel (for Wild points)
	byMethod [][]entry // all invocations of each method (direct pairs)
	unknown  []int     // invocations of methods the spec does not know
	all      []int     // every id
	invs     map[int]Invocation
}

type bucketKey struct {
	ch  int
	key Key
}

type entry struct {
	id int
	p  Point
}

// NewIndex returns an empty index for the spec's invocations.
func (s *Spec) NewIndex() *Index {
	ap := s.ap
	return &Index{ap: ap, buckets: map[bucketKey][]entry{}, perChan: make([][]entry, len(ap.chans)),
		byMethod: make([][]entry, len(s.Methods)), invs: map[int]Invocation{}}
}

// Add records invocation v under id (ids are the caller's, e.g. event or
// invocation numbers; they must be distinct).
func (ix *Index) Add(id int, v Invocation) {
	s := ix.ap.spec
	ix.all = append(ix.all, id)
	ix.invs[id] = v
	i, ok := s.methodIdx[v.Method]
	if !ok || arity(s.Methods[i], v) != nil {
		ix.unknown = append(ix.unknown, id)
		return
	}
	ix.byMethod[i] = append(ix.byMethod[i], entry{id: id})
	for _, ch := range ix.ap.byMethod[i] {
		p := ch.point(s.Methods[i], v)
		e := entry{id: id, p: p}
		ix.perChan[ch.id] = append(ix.perChan[ch.id], e)
		if !p.Wild {
			k := bucketKey{ch.id, p.Key}
			ix.buckets[k] = append(ix.buckets[k], e)
		}
	}
}

// Conflicts calls yield with the id of every recorded invocation u that does
// not commute with v, as Spec.Commute(u, v) decides (up to the Wild-point
// caveat of AccessPoints.Commute), each id once, in no particular order.
// An invocation of a method the spec does not know conflicts with all.
func (ix *Index) Conflicts(v Invocation, yield func(id int)) {
	s := ix.ap.spec
	i, ok := s.methodIdx[v.Method]
	if !ok || arity(s.Methods[i], v) != nil {
		for _, id := range ix.all {
			yield(id)
		}
		return
	}
	for _, id := range ix.unknown {
		yield(id)
	}
	for _, ch := range ix.ap.byMethod[i] {
		p := ch.point(s.Methods[i], v)
		list := ix.perChan[ch.id]
		if !p.Wild {
			list = ix.buckets[bucketKey{ch.id, p.Key}]
			for _, e := range ix.perChan[ch.id] {
				if e.p.Wild && (ch.same || e.p.Side != p.Side) {
					yield(e.id)
				}
			}
		}
		for _, e := range list {
			if !ch.same && e.p.Side == p.Side {
				continue
			}
			if ix.ap.Conflict(e.p, p) {
				yield(e.id)
			}
		}
	}
	for j := range s.Methods {
		if ix.ap.mode[i][j] != modeDirect {
			continue
		}
		for _, e := range ix.byMethod[j] {
			u := ix.invs[e.id]
			if !s.Commute(u, v) {
				yield(e.id)
			}
		}
	}
}
