package trust

import (
	"math/bits"

	"ncmc/ir"
)

// The psc axiom (RC11's "acyclic psc" over SC accesses and fences; RA's
// "sc-fences" over SC fences) relates SC events through happens-before,
// coherence and from-reads anywhere in the graph, so it is evaluated on the
// whole graph, with bit-set relations, and only when the graph holds two or
// more SC events. The definitions follow seg/models.go:
//
//	scb  = sb | sbl;hb;sbl | hbl | mo | fr      (sbl = sb \ loc, hbl = hb & loc)
//	pscb = ([SC] | [F&SC];hb?); scb; ([SC] | hb?;[F&SC])
//	pscf = [F&SC]; (hb | hb;eco;hb); [F&SC]
//
// Initial writes are left out: they have no incoming edges, so no cycle
// passes through them; reads of them are in fr with every write of their
// location.

type bitrel struct {
	n, w int
	b    []uint64
}

func newRel(n int) *bitrel {
	w := (n + 63) / 64
	return &bitrel{n: n, w: w, b: make([]uint64, n*w)}
}

func (r *bitrel) row(i int) []uint64 { return r.b[i*r.w : (i+1)*r.w] }
func (r *bitrel) add(i, j int)       { r.b[i*r.w+j/64] |= 1 << (j % 64) }
func (r *bitrel) has(i, j int) bool  { return r.b[i*r.w+j/64]&(1<<(j%64)) != 0 }
func (r *bitrel) each(i int, f func(j int)) {
	row := r.row(i)
	for k, x := range row {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			f(k*64 + b)
			x &^= 1 << b
		}
	}
}

// compose returns a;b.
func compose(a, b *bitrel) *bitrel {
	out := newRel(a.n)
	for i := 0; i < a.n; i++ {
		ro := out.row(i)
		a.each(i, func(j int) {
			for k, x := range b.row(j) {
				ro[k] |= x
			}
		})
	}
	return out
}

func union(rs ...*bitrel) *bitrel {
	out := newRel(rs[0].n)
	for _, r := range rs {
		for k, x := range r.b {
			out.b[k] |= x
		}
	}
	return out
}

// reflexive returns r ∪ id.
func reflexive(r *bitrel) *bitrel {
	out := union(r)
	for i := 0; i < r.n; i++ {
		out.add(i, i)
	}
	return out
}

// closure returns r+ (Warshall).
func closure(r *bitrel) *bitrel {
	out := union(r)
	for k := 0; k < r.n; k++ {
		rk := out.row(k)
		for i := 0; i < r.n; i++ {
			if out.has(i, k) {
				ri := out.row(i)
				for x := range ri {
					ri[x] |= rk[x]
				}
			}
		}
	}
	return out
}

// pscAcyclic evaluates the psc axiom on g (derived values computed).
func pscAcyclic(g *Graph) bool {
	for t := range g.ev {
		for i := range g.ev[t] {
			if l := &g.ev[t][i]; l.Kind == Fence && l.Order == ir.OrderSC {
				return pscAcyclicRel(g)
			}
		}
	}
	return pscAcyclicAccesses(g)
}

// pscAcyclicAccesses evaluates the psc axiom on a graph without SC fences,
// where psc is scb restricted to the SC accesses, pair by pair from the
// views instead of with relations over all events (quadratic in the SC
// accesses, not cubic in all events):
//
//   - sb, hbl (same location, hb), mo and fr directly;
//   - sbl;hb;sbl from a to b holds iff the first event po-after a that is
//     not an access to a's location is hb-before (or is) the last event
//     po-before b that is not an access to b's location: any witness pair
//     lies between those two in po, and sb ⊆ hb.
func pscAcyclicAccesses(g *Graph) bool {
	isMem := func(l *Label) bool { return l.Kind == Read || l.Kind == Write || l.Kind == RMW }
	var scs []Ref
	for t := range g.ev {
		for i := range g.ev[t] {
			if g.isSC(&g.ev[t][i]) {
				scs = append(scs, Ref{int32(t), int32(i)})
			}
		}
	}
	m := len(scs)
	if m < 2 {
		return true
	}
	type info struct {
		l            *Label
		first, last  Ref // first po-later / last po-earlier event off the location (T < 0: none)
		coPos, rfPos int // coherence position of the write part, of the write read (-1: init or none)
	}
	inf := make([]info, m)
	for k, r := range scs {
		l := g.Label(r)
		in := info{l: l, first: InitRef, last: InitRef, coPos: -1, rfPos: -1}
		th := g.ev[r.T]
		for i := int(r.I) + 1; i < len(th); i++ {
			if x := &th[i]; !isMem(x) || x.Loc != l.Loc {
				in.first = Ref{r.T, int32(i)}
				break
			}
		}
		for i := int(r.I) - 1; i >= 0; i-- {
			if x := &th[i]; !isMem(x) || x.Loc != l.Loc {
				in.last = Ref{r.T, int32(i)}
				break
			}
		}
		if l.isWrite() {
			in.coPos = g.coIndex(l.Loc, r)
		}
		if l.isRead() && !l.RF.IsInit() {
			in.rfPos = g.coIndex(l.Loc, l.RF)
		}
		inf[k] = in
	}
	hb := func(x, y Ref) bool { return x != y && g.der(y).hb.has(x) }
	edge := func(i, j int) bool {
		a, b := scs[i], scs[j]
		ia, ib := &inf[i], &inf[j]
		if a.T == b.T && a.I < b.I {
			return true // sb
		}
		same := ia.l.Loc == ib.l.Loc // both are accesses
		if same && hb(a, b) {
			return true // hbl
		}
		if same && ib.l.isWrite() && ib.coPos >= 0 {
			if ia.l.isWrite() && ia.coPos >= 0 && ia.coPos < ib.coPos {
				return true // mo
			}
			if ia.l.isRead() && ib.coPos > ia.rfPos {
				return true // fr
			}
		}
		if !ia.first.IsInit() && !ib.last.IsInit() && (ia.first == ib.last || hb(ia.first, ib.last)) {
			return true // sbl;hb;sbl
		}
		return false
	}
	state := make([]uint8, m)
	var dfs func(i int) bool
	dfs = func(i int) bool {
		state[i] = 1
		for j := 0; j < m; j++ {
			if j == i || !edge(i, j) {
				continue
			}
			if state[j] == 1 || (state[j] == 0 && !dfs(j)) {
				return false
			}
		}
		state[i] = 2
		return true
	}
	for i := 0; i < m; i++ {
		if state[i] == 0 && !dfs(i) {
			return false
		}
	}
	return true
}

// pscAcyclicRel evaluates the psc axiom with relations over all events.
func pscAcyclicRel(g *Graph) bool {
	base := make([]int, len(g.ev)+1)
	for t := range g.ev {
		base[t+1] = base[t] + len(g.ev[t])
	}
	n := base[len(g.ev)]
	ref := make([]Ref, n)
	for t := range g.ev {
		for i := range g.ev[t] {
			ref[base[t]+i] = Ref{int32(t), int32(i)}
		}
	}
	id := func(r Ref) int { return base[r.T] + int(r.I) }
	lab := func(i int) *Label { return g.Label(ref[i]) }
	isMem := func(l *Label) bool { return l.Kind == Read || l.Kind == Write || l.Kind == RMW }
	hb, sb, sbl, hbl, mo, fr, rf := newRel(n), newRel(n), newRel(n), newRel(n), newRel(n), newRel(n), newRel(n)
	for j := 0; j < n; j++ {
		rj := ref[j]
		lj := lab(j)
		v := g.der(rj).hb
		for t := range g.ev {
			m := 0
			if t < len(v) {
				m = int(v[t])
			}
			if m > len(g.ev[t]) {
				m = len(g.ev[t])
			}
			for i := 0; i < m; i++ {
				x := base[t] + i
				if x == j {
					continue
				}
				hb.add(x, j)
				li := lab(x)
				if isMem(li) && isMem(lj) && li.Loc == lj.Loc {
					hbl.add(x, j)
				}
			}
		}
		for i := 0; i < int(rj.I); i++ {
			x := base[rj.T] + i
			sb.add(x, j)
			li := lab(x)
			if !(isMem(li) && isMem(lj) && li.Loc == lj.Loc) {
				sbl.add(x, j)
			}
		}
	}
	for loc, co := range g.co {
		for a := range co {
			for b := a + 1; b < len(co); b++ {
				mo.add(id(co[a]), id(co[b]))
			}
		}
		pos := map[Ref]int{}
		for k, x := range co {
			pos[x] = k
		}
		for j := 0; j < n; j++ {
			l := lab(j)
			if !l.isRead() || l.Loc != loc {
				continue
			}
			from := 0
			if !l.RF.IsInit() {
				from = pos[l.RF] + 1
				rf.add(id(l.RF), j)
			}
			for _, x := range co[from:] {
				if id(x) != j {
					fr.add(j, id(x))
				}
			}
		}
	}
	for j := 0; j < n; j++ {
		if l := lab(j); l.isRead() && !l.RF.IsInit() && len(g.co[l.Loc]) == 0 {
			rf.add(id(l.RF), j)
		}
	}
	scb := union(sb, compose(compose(sbl, hb), sbl), hbl, mo, fr)
	hbq := reflexive(hb)
	var scs []int
	isF := make([]bool, n)
	for i := 0; i < n; i++ {
		if l := lab(i); g.isSC(l) {
			scs = append(scs, i)
			isF[i] = l.Kind == Fence
		}
	}
	// left: [SC] | [F&SC];hb?   right: [SC] | hb?;[F&SC]
	left := newRel(n)
	right := newRel(n)
	for _, a := range scs {
		left.add(a, a)
		right.add(a, a)
		if isF[a] {
			hbq.each(a, func(x int) { left.add(a, x) })
			for y := 0; y < n; y++ {
				if hbq.has(y, a) {
					right.add(y, a)
				}
			}
		}
	}
	pscb := compose(compose(left, scb), right)
	eco := closure(union(rf, mo, fr))
	hbeco := compose(compose(hb, eco), hb)
	psc := newRel(n)
	for _, a := range scs {
		for _, b := range scs {
			if pscb.has(a, b) {
				psc.add(a, b)
			}
			if isF[a] && isF[b] && (hb.has(a, b) || hbeco.has(a, b)) {
				psc.add(a, b)
			}
		}
	}
	// acyclicity over the SC events
	state := make([]uint8, n)
	var dfs func(i int) bool
	dfs = func(i int) bool {
		state[i] = 1
		ok := true
		psc.each(i, func(j int) {
			if !ok {
				return
			}
			if state[j] == 1 || (state[j] == 0 && !dfs(j)) {
				ok = false
			}
		})
		state[i] = 2
		return ok
	}
	for _, a := range scs {
		if state[a] == 0 && !dfs(a) {
			return false
		}
	}
	return true
}
