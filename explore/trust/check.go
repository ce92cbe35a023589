package trust

// CheckGraph decides whether a complete graph is consistent under m the
// way the explorer does, event by event: it adds the events in an order
// compatible with (po ∪ rf ∪ spawn ∪ join) and checks each with the
// incremental tests the explorer applies to a new event (the coherence
// lower bound of reads and writes, RMW atomicity, psc when two or more SC
// events are present, the ghb search under TSO). ev lists each thread's events in program order
// (reads with RF, RMW events with HasW), co each location's coherence
// order. A cycle of po ∪ rf is inconsistent (RA: hb is irreflexive; RC11:
// no-thin-air; TSO: a ghb or uniproc cycle). The tests compare it with seg's .cat models.
func CheckGraph(m Model, ev [][]Label, co map[int64][]Ref) bool {
	// topological order of po ∪ rf ∪ spawn ∪ join
	type node struct{ t, i int }
	deps := func(t, i int) []Ref {
		var out []Ref
		if i > 0 {
			out = append(out, Ref{int32(t), int32(i - 1)})
		}
		l := &ev[t][i]
		if (l.Kind == Read || l.Kind == RMW) && !l.RF.IsInit() {
			out = append(out, l.RF)
		}
		if i == 0 {
			for pt := range ev {
				for pi := range ev[pt] {
					if p := &ev[pt][pi]; p.Kind == Spawn && int(p.Other) == t {
						out = append(out, Ref{int32(pt), int32(pi)})
					}
				}
			}
		}
		if l.Kind == Join && int(l.Other) < len(ev) && len(ev[l.Other]) > 0 {
			out = append(out, Ref{l.Other, int32(len(ev[l.Other]) - 1)})
		}
		return out
	}
	added := make([][]bool, len(ev))
	for t := range ev {
		added[t] = make([]bool, len(ev[t]))
	}
	total := 0
	for t := range ev {
		total += len(ev[t])
	}
	e := &Explorer{model: m}
	g := newGraph(m, &e.ar)
	e.g = g
	pos := map[Ref]int{} // final coherence positions
	for _, c := range co {
		for k, w := range c {
			pos[w] = k
		}
	}
	for n := 0; n < total; n++ {
		// the first event (in thread order) whose dependencies are in
		found := false
		for t := 0; t < len(ev) && !found; t++ {
			i := g.Len(int32(t))
			if i >= len(ev[t]) {
				continue
			}
			ok := true
			for _, d := range deps(t, i) {
				if !added[d.T][d.I] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			found = true
			if !e.checkAdd(int32(t), ev[t][i], pos) {
				return false
			}
			added[t][i] = true
		}
		if !found {
			return false // a cycle of po ∪ rf
		}
	}
	return true
}

// checkAdd adds l as the next event of thread t if the incremental checks
// allow it; pos gives the final coherence position of each write.
func (e *Explorer) checkAdd(t int32, l Label, pos map[Ref]int) bool {
	g := e.g
	g.ensureThread(t)
	r := Ref{t, int32(len(g.ev[t]))}
	l.Stamp, l.Rank = g.stamp, g.stamp
	g.stamp++
	g.ev[t] = append(g.ev[t], l)
	g.d[t] = append(g.d[t], derived{})
	if l.Kind == Spawn {
		g.noteSpawn(r, l.Other)
	}
	if l.isRead() {
		pre, _, _, _ := g.predViews(r)
		lb := g.lowerBound(l.Loc, pre, r)
		if g.coIndex(l.Loc, l.RF) < lb {
			return false
		}
		if l.Kind == RMW && g.rmwReader(l.RF, l.Loc, r) {
			return false
		}
	}
	g.ensureDerived(r)
	if l.isRead() {
		g.addReader(l.RF, l.Loc, r)
	}
	if l.isWrite() {
		// insert at the position the final order gives among the writes added
		co := g.co[l.Loc]
		p := 0
		for p < len(co) && pos[co[p]] < pos[r] {
			p++
		}
		if l.Kind == RMW {
			if p != g.coIndex(l.Loc, l.RF)+1 {
				return false // another write between the RMW and its source
			}
		} else {
			lb := g.lowerBound(l.Loc, g.der(r).hb, r)
			if p <= lb {
				return false
			}
			prev := InitRef
			if p > 0 {
				prev = co[p-1]
			}
			if p < len(co) && g.rmwReader(prev, l.Loc, r) {
				return false
			}
		}
		e.insertCO(l.Loc, r, p)
	}
	if g.isSC(&l) {
		g.nSC++
	}
	if g.nSC >= 2 && !pscAcyclic(g) {
		return false
	}
	if g.model == TSO && !tsoOK(g, r) {
		return false
	}
	return true
}
