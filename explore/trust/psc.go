package trust

import "math/bits"

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
