package commspec

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// finish completes a spec whose parts all checked: mirrored conditions,
// the symmetry checks, the access points.
func (l *loader) finish() {
	s := l.s
	for _, c := range s.given {
		i, j := c.M1.Index, c.M2.Index
		switch {
		case i == j:
			if cx := asymmetry(c, c); cx != "" {
				l.errs.Errorf(c.Pos, "the condition of %s/%s must be symmetric (exchanging the two invocations must not change it), but %s", c.M1.Name, c.M2.Name, cx)
			}
		case s.conds[j][i] == nil:
			s.conds[j][i] = &Cond{M1: c.M2, M2: c.M1, Text: swapSuffixes(c.Text, c.root), Pos: c.Pos, KeyPos: c.KeyPos, Derived: true,
				root: mirror(c.root), useState: c.useState}
		case !s.conds[j][i].Derived && i < j:
			d := s.conds[j][i]
			if cx := asymmetry(c, d); cx != "" {
				l.errs.Errorf(d.Pos, "the conditions of %s/%s and %s/%s must agree (each is the other with the invocations exchanged), but %s",
					c.M1.Name, c.M2.Name, d.M1.Name, d.M2.Name, cx)
			}
		}
	}
	if l.errs.Len() == 0 {
		s.ap = compile(s)
	}
}

// swapSuffixes returns text with the suffixes 1 and 2 of the invocation
// variables and state functions of its tree root exchanged.
func swapSuffixes(text string, root *node) string {
	b := []byte(text)
	var walk func(n *node)
	walk = func(n *node) {
		if n.op == nVar || n.op == nState {
			if i := n.off + len(n.name) - 1; i >= 0 && i < len(b) {
				b[i] ^= '1' ^ '2'
			}
		}
		for _, a := range n.args {
			walk(a)
		}
	}
	walk(root)
	return string(b)
}

// asymmetry checks that c(a, b) == d(b, a) for all invocations a of c.M1 and
// b of c.M2 (d is a condition on (c.M2, c.M1); d == c for a symmetric
// condition). It first compares normal forms (sorted operands of commutative
// operators, > turned into <, ...); if they differ it searches for a
// counterexample over a small domain (exhaustively when the domain is small
// enough, else by deterministic sampling). It sets the Symmetry fields and
// returns a description of a counterexample, or "".
func asymmetry(c, d *Cond) string {
	if canon(c.root, false) == canon(d.root, true) {
		c.Symmetry, d.Symmetry = "syntactic", "syntactic"
		return ""
	}
	cx := boundedAsymmetry(c, d)
	if cx == "" {
		c.Symmetry, d.Symmetry = "bounded", "bounded"
	}
	return cx
}

// canon renders n in a normal form; swap exchanges the invocations.
func canon(n *node, swap bool) string {
	var b strings.Builder
	canonTo(&b, n, swap)
	return b.String()
}

var commutative = map[nodeOp]bool{nAnd: true, nOr: true, nAdd: true, nMul: true, nBitAnd: true, nBitOr: true, nBitXor: true, nMin: true, nMax: true, nEq: true, nNe: true}

func canonTo(b *strings.Builder, n *node, swap bool) {
	side := n.side
	if swap {
		side = 1 - side
	}
	switch n.op {
	case nConst:
		fmt.Fprintf(b, "%d", n.val)
		return
	case nVar:
		fmt.Fprintf(b, "v%d.%d", side, n.slot)
		return
	case nParam:
		fmt.Fprintf(b, "p%d", n.slot)
		return
	case nGt, nGe: // a > b is b < a
		op := nLt
		if n.op == nGe {
			op = nLe
		}
		canonTo(b, &node{op: op, typ: Bool, args: []*node{n.args[1], n.args[0]}}, swap)
		return
	case nNot:
		x := n.args[0]
		switch x.op {
		case nNot:
			canonTo(b, x.args[0], swap)
			return
		case nEq, nNe, nLt, nLe, nGt, nGe:
			neg := map[nodeOp]nodeOp{nEq: nNe, nNe: nEq, nLt: nGe, nLe: nGt, nGt: nLe, nGe: nLt}[x.op]
			canonTo(b, &node{op: neg, typ: Bool, args: x.args}, swap)
			return
		}
	}
	var parts []string
	if commutative[n.op] {
		var flat []*node
		var collect func(m *node)
		collect = func(m *node) {
			if m.op == n.op && n.op != nEq && n.op != nNe {
				for _, a := range m.args {
					collect(a)
				}
				return
			}
			flat = append(flat, m)
		}
		for _, a := range n.args {
			collect(a)
		}
		for _, a := range flat {
			parts = append(parts, canon(a, swap))
		}
		sort.Strings(parts)
		if n.op == nAnd || n.op == nOr || n.op == nMin || n.op == nMax || n.op == nBitAnd || n.op == nBitOr {
			parts = slices.Compact(parts) // idempotent operators
		}
	} else {
		for _, a := range n.args {
			parts = append(parts, canon(a, swap))
		}
	}
	name := opText[n.op]
	switch n.op {
	case nFunc:
		name = "f." + n.fn.Name
	case nState:
		name = fmt.Sprintf("s%d.%s", side, n.fn.Name)
	}
	b.WriteString(name)
	b.WriteByte('(')
	b.WriteString(strings.Join(parts, ","))
	b.WriteByte(')')
}

// Limits of the bounded symmetry search.
const (
	maxExhaustive = 50_000
	samples       = 30_000
)

// fakeState is an arbitrary but fixed abstract state for the symmetry
// search: abstraction functions are uninterpreted; the value of a call is
// the domain value at (hash of the call + seed), so that the states with
// seeds 1..len(domain) give every call every value of the domain.
type fakeState struct {
	seed uint64
	dom  []int64
}

func (f fakeState) Eval(fn string, args []int64) (int64, error) {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(fn); i++ {
		h = (h ^ uint64(fn[i])) * 1099511628211
	}
	for _, a := range args {
		h = (h ^ uint64(a)) * 1099511628211
	}
	return f.dom[(h+f.seed)%uint64(len(f.dom))], nil
}

// constants collects the int literals of n and of the helper functions it
// calls (each function once).
func constants(n *node, out map[int64]bool, seen map[*Func]bool) {
	if n.op == nConst && n.typ == Int {
		out[n.val] = true
	}
	if n.op == nFunc && !seen[n.fn] {
		seen[n.fn] = true
		constants(n.fn.body, out, seen)
	}
	for _, a := range n.args {
		constants(a, out, seen)
	}
}

// boundedAsymmetry searches invocations a (of c.M1) and b (of c.M2) with
// c(a, b) != d(b, a); evaluation errors count as false (as in Commute).
func boundedAsymmetry(c, d *Cond) string {
	lits := map[int64]bool{}
	seen := map[*Func]bool{}
	constants(c.root, lits, seen)
	constants(d.root, lits, seen)
	dom := []int64{-1, 0, 1, 2}
	for k := range lits {
		dom = append(dom, k-1, k, k+1)
	}
	slices.Sort(dom)
	dom = slices.Compact(dom)
	// Variables: the arguments and result of a, then of b.
	var types []Type
	for _, m := range []*Method{c.M1, c.M2} {
		for _, p := range m.Params {
			types = append(types, p.Type)
		}
		if m.Result != nil {
			types = append(types, m.Result.Type)
		}
	}
	seeds := []uint64{0}
	if c.useState || d.useState {
		seeds = nil
		for i := range dom {
			seeds = append(seeds, uint64(i+1))
		}
	}
	total := float64(len(seeds) * len(seeds))
	for _, t := range types {
		if t == Bool {
			total *= 2
		} else {
			total *= float64(len(dom))
		}
	}
	vals := make([]int64, len(types))
	var sa, sb uint64
	try := func() string {
		a, b := build(c.M1, vals[:nvals(c.M1)]), build(c.M2, vals[nvals(c.M1):])
		if sa != 0 {
			a.State, b.State = fakeState{sa, dom}, fakeState{sb, dom}
		}
		x, err1 := c.Eval(a, b)
		y, err2 := d.Eval(b, a)
		x, y = x && err1 == nil, y && err2 == nil
		if x == y {
			return ""
		}
		st := ""
		if sa != 0 {
			st = " (with abstraction functions of arbitrary values)"
			if sa == sb {
				st = " (in one arbitrary abstract state)"
			}
		}
		return fmt.Sprintf("for %s and %s%s %s/%s gives %v and %s/%s with the invocations exchanged gives %v",
			a.labelOf(c.M1), b.labelOf(c.M2), st, c.M1.Name, c.M2.Name, x, d.M1.Name, d.M2.Name, y)
	}
	if total <= maxExhaustive {
		var rec func(i int) string
		rec = func(i int) string {
			if i == len(types) {
				for _, s1 := range seeds {
					for _, s2 := range seeds {
						sa, sb = s1, s2
						if cx := try(); cx != "" {
							return cx
						}
					}
				}
				return ""
			}
			if types[i] == Bool {
				for _, v := range []int64{0, 1} {
					vals[i] = v
					if cx := rec(i + 1); cx != "" {
						return cx
					}
				}
				return ""
			}
			for _, v := range dom {
				vals[i] = v
				if cx := rec(i + 1); cx != "" {
					return cx
				}
			}
			return ""
		}
		return rec(0)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < samples; k++ {
		for i, t := range types {
			if t == Bool {
				vals[i] = int64(r.IntN(2))
			} else {
				vals[i] = dom[r.IntN(len(dom))]
			}
		}
		sa, sb = seeds[r.IntN(len(seeds))], seeds[r.IntN(len(seeds))]
		if cx := try(); cx != "" {
			return cx
		}
	}
	return ""
}

func nvals(m *Method) int {
	if m.Result != nil {
		return len(m.Params) + 1
	}
	return len(m.Params)
}

// build makes an invocation of m from its argument values followed by its result.
func build(m *Method, vals []int64) Invocation {
	v := Invocation{Method: m.Name, Args: append([]int64(nil), vals[:len(m.Params)]...)}
	if m.Result != nil {
		v.Ret = vals[len(m.Params)]
	}
	return v
}

// labelOf renders v as m(x=1, y=2)\r=true.
func (v Invocation) labelOf(m *Method) string {
	var parts []string
	for i, p := range m.Params {
		parts = append(parts, p.Name+"="+fmtVal(v.Args[i], p.Type))
	}
	s := m.Name + "(" + strings.Join(parts, ", ") + ")"
	if m.Result != nil {
		s += "\\" + m.Result.Name + "=" + fmtVal(v.Ret, m.Result.Type)
	}
	return s
}

func fmtVal(v int64, t Type) string {
	if t == Bool {
		return fmt.Sprint(v != 0)
	}
	return fmt.Sprint(v)
}
