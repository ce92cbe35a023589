package mcr

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"

	"ncmc/seg"
	"ncmc/smt"
)

// sortedKeys returns the keys of m in increasing order: every iteration
// over a map in this package goes through it, so that formulas, variables and
// seeds (and hence exploration) are deterministic.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	return slices.Sorted(maps.Keys(m))
}

// lockPair is a critical section: lock step a, unlock step b (-1: never released).
type lockPair struct {
	a, b  int
	t     int32
	mutex int64
}

type section struct{ first, last int }

// secEnd says how the atomic section of a pivot read ends in the new
// execution. The trace shows where the section ended with the read's old
// value; with the new value the thread's control flow may differ, so a
// pivot read inside a section is asked twice: once with the section still
// open after the read (no step of another thread between the section's
// first step and the cutoff; such seeds are always replayable), once with
// the section ending with the read's step (other threads may run right
// after it; the seed is marked Expect.LeavesAtomic and checked at replay).
type secEnd uint8

const (
	secObserved secEnd = iota // not a pivot in a section: sections as observed
	secOpen                   // the pivot's section stays open after the pivot
	secAtPivot                // the pivot's section ends with the pivot's step
)

// pivotEnds lists the ways r's atomic section may end for pivots of read r.
func (a *analysis) pivotEnds(r int) []secEnd {
	if a.tr.Steps[r].Atomic > 0 {
		return []secEnd{secOpen, secAtPivot}
	}
	return []secEnd{secObserved}
}

// trace analysis shared by the pivots of one trace.
type analysis struct {
	tr *Trace
	b  *smt.Builder
	// o has one order variable per item: items 0..n-1 are the trace's steps,
	// items n.. are commits of buffered stores that happened inside another
	// step (a drain) or never (virtual commits).
	o      []smt.Var
	n      int
	virtW  []int           // virtual commit item n+k commits the store issued at step virtW[k]
	vis    map[int]int     // issue step of a data write -> item at which it becomes visible
	bufd   map[int32][]int // buffered stores (issue steps) of each thread, in program order
	drainT map[int]int     // virtual commit item -> the step that drained it (-1: never)
	ev     []*seg.Event
	thr    map[int32][]int // steps of each thread (thread steps only)
	posInT []int           // index of a step within its thread's list
	reads  []int           // data reads (KRead, KRMW on non-mutex locations)
	writes map[int64][]int // data writes by location
	pairs  []lockPair
	secs   map[int]*section
	spawn  map[int32]int // child thread -> spawn step
	valid  map[int]smt.Formula
	mutex  map[int64]bool
	// mi filters pivots by must-happen-before alone (SC; prefilter.go).
	mi *mhbIndex
	// terminal lists steps after which the execution stopped with a
	// violation: no seed may contain them (nothing can run after them).
	terminal []int
	// ctx is Seeds' context: building the formulas of a long trace's
	// queries is quadratic in its length (two threads of 5,000 statements:
	// minutes and gigabytes), so the loops over its reads check it.
	ctx context.Context
}

// interrupted is the panic of checkCtx, recovered by Generator.Seeds.
type interrupted struct{ err error }

// checkCtx panics with interrupted when a's context has ended; i counts
// the iterations of the caller's loop, which checks every 256th (0:
// always).
func (a *analysis) checkCtx(i int) {
	if i%256 == 0 && a.ctx != nil {
		if err := a.ctx.Err(); err != nil {
			panic(interrupted{err})
		}
	}
}

func (g *Generator) analyse(tr *Trace) (*analysis, error) {
	a := &analysis{tr: tr, b: smt.NewBuilder(), thr: map[int32][]int{}, writes: map[int64][]int{},
		secs: map[int]*section{}, spawn: map[int32]int{}, valid: map[int]smt.Formula{}, mutex: map[int64]bool{}}
	n := len(tr.Steps)
	a.o = make([]smt.Var, n)
	a.ev = make([]*seg.Event, n)
	a.posInT = make([]int, n)
	for i, st := range tr.Steps {
		a.o[i] = a.b.NewVar(fmt.Sprintf("O%d", i))
		if !st.Event.IsInit() {
			a.ev[i] = tr.G.Event(st.Event)
		}
		if st.Flush {
			continue // a commit item; see below
		}
		a.posInT[i] = len(a.thr[st.T])
		a.thr[st.T] = append(a.thr[st.T], i)
		if st.Atomic > 0 {
			s := a.secs[st.Atomic]
			if s == nil {
				s = &section{first: i}
				a.secs[st.Atomic] = s
			}
			s.last = i
		}
	}
	for i, e := range a.ev {
		if e == nil {
			continue
		}
		switch e.Kind {
		case seg.KLock, seg.KUnlock:
			a.mutex[e.Loc] = true
		case seg.KSignal, seg.KBroadcast:
			return nil, fmt.Errorf("mcr: condition variables are not supported")
		case seg.KSpawn:
			a.spawn[e.Other] = i
		}
	}
	a.n = n
	a.vis = map[int]int{}
	a.bufd = map[int32][]int{}
	a.drainT = map[int]int{}
	if tr.Model != SC {
		issue := map[seg.EventID]int{}
		for _, k_ := range sortedKeys(a.thr) {
			steps := a.thr[k_]
			for _, i := range steps {
				if e := a.ev[i]; e != nil && e.Kind == seg.KWrite {
					issue[e.ID] = i
					a.bufd[tr.Steps[i].T] = append(a.bufd[tr.Steps[i].T], i)
				}
			}
		}
		for _, c := range tr.Commits {
			w, ok := issue[c.Event]
			if !ok {
				continue
			}
			if c.Step >= 0 && tr.Steps[c.Step].Flush && tr.Steps[c.Step].Event == c.Event {
				a.vis[w] = c.Step
			} else {
				a.o = append(a.o, a.b.NewVar(fmt.Sprintf("C%d", w)))
				a.virtW = append(a.virtW, w)
				a.vis[w] = len(a.o) - 1
				a.drainT[len(a.o)-1] = c.Step
			}
		}
		for _, w := range slices.Sorted(maps.Values(issue)) {
			if _, ok := a.vis[w]; !ok { // never became visible
				a.o = append(a.o, a.b.NewVar(fmt.Sprintf("C%d", w)))
				a.virtW = append(a.virtW, w)
				a.vis[w] = len(a.o) - 1
				a.drainT[len(a.o)-1] = -1
			}
		}
		for i, st := range tr.Steps {
			if st.Flush {
				a.ev[i] = nil // the store's event belongs to its issue step
			}
		}
	}
	open := map[int64]int{} // mutex -> index into pairs of the open section, per thread below
	for _, t := range sortedKeys(a.thr) {
		steps := a.thr[t]
		for k := range open {
			delete(open, k)
		}
		for _, i := range steps {
			e := a.ev[i]
			if e == nil {
				continue
			}
			switch e.Kind {
			case seg.KLock:
				a.pairs = append(a.pairs, lockPair{a: i, b: -1, t: t, mutex: e.Loc})
				open[e.Loc] = len(a.pairs) - 1
			case seg.KUnlock:
				if p, ok := open[e.Loc]; ok {
					a.pairs[p].b = i
					delete(open, e.Loc)
				}
			}
		}
	}
	sort.Slice(a.pairs, func(i, j int) bool { return a.pairs[i].a < a.pairs[j].a })
	for _, t := range sortedKeys(a.thr) {
		steps := a.thr[t]
		if evs := tr.G.Threads[t]; len(steps) > 0 && len(evs) > 0 && evs[len(evs)-1].Kind == seg.KError {
			a.terminal = append(a.terminal, steps[len(steps)-1])
		}
	}
	for i, e := range a.ev {
		if e == nil {
			continue
		}
		switch e.Kind {
		case seg.KRead, seg.KRMW:
			if a.mutex[e.Loc] {
				return nil, fmt.Errorf("mcr: trylock is not supported")
			}
			a.reads = append(a.reads, i)
		}
		if e.Kind == seg.KWrite || e.Kind == seg.KRMW {
			a.writes[e.Loc] = append(a.writes[e.Loc], i)
		}
	}
	return a, nil
}

func (a *analysis) lt(i, j int) smt.Formula { return a.b.Lt(a.o[i], a.o[j]) }

// visItem is the item at which data write w (an issue step) becomes visible:
// w itself under SC and for RMWs, its commit under TSO/PSO.
func (a *analysis) visItem(w int) int {
	if c, ok := a.vis[w]; ok {
		return c
	}
	return w
}

// ownStore is the latest buffered store of e's thread to e's location issued
// before e (-1 if none): a read returns it while it is still buffered.
func (a *analysis) ownStore(e int) int {
	if a.tr.Model == SC || a.ev[e].Kind != seg.KRead {
		return -1
	}
	t, loc := a.tr.Steps[e].T, a.ev[e].Loc
	own := -1
	for _, w := range a.bufd[t] {
		if w < e && a.ev[w].Loc == loc {
			own = w
		}
	}
	return own
}

// mhb is the conjunction of must-happen-before edges and the frozen prefix.
func (a *analysis) mhb() smt.Formula {
	var fs []smt.Formula
	for _, k_ := range sortedKeys(a.thr) {
		steps := a.thr[k_]
		for k := 1; k < len(steps); k++ {
			fs = append(fs, a.lt(steps[k-1], steps[k]))
		}
	}
	for _, child := range sortedKeys(a.spawn) {
		s := a.spawn[child]
		if steps := a.thr[child]; len(steps) > 0 {
			fs = append(fs, a.lt(s, steps[0]))
		}
	}
	for j, e := range a.ev {
		if e != nil && e.Kind == seg.KJoin {
			if steps := a.thr[e.Other]; len(steps) > 0 {
				fs = append(fs, a.lt(steps[len(steps)-1], j))
			}
			for _, w := range a.bufd[e.Other] { // join waits for an empty buffer
				fs = append(fs, a.lt(a.visItem(w), j))
			}
		}
	}
	for _, t := range sortedKeys(a.bufd) {
		ws := a.bufd[t]
		// FIFO (TSO: per thread, PSO: per location) as edges between
		// consecutive stores of a buffer, and a fence-like step after the
		// latest store of each buffer written since the previous one: the
		// transitive closure is the same as with every pair, in linear size.
		buffer := func(w int) int64 {
			if a.tr.Model == TSO {
				return 0
			}
			return a.ev[w].Loc
		}
		last := map[int64]int{}  // buffer -> latest store so far
		dirty := map[int64]int{} // buffers with a store since the last fence-like step
		next := 0
		for _, d := range a.thr[t] {
			for ; next < len(ws) && ws[next] <= d; next++ {
				w := ws[next]
				fs = append(fs, a.lt(w, a.visItem(w)))
				if p, ok := last[buffer(w)]; ok {
					fs = append(fs, a.lt(a.visItem(p), a.visItem(w)))
				}
				last[buffer(w)] = w
				dirty[buffer(w)] = w
			}
			if !a.tr.Steps[d].Fence || len(dirty) == 0 {
				continue
			}
			for _, b := range sortedKeys(dirty) {
				if w := dirty[b]; w < d {
					fs = append(fs, a.lt(a.visItem(w), d))
					delete(dirty, b)
				}
			}
		}
		for ; next < len(ws); next++ {
			w := ws[next]
			fs = append(fs, a.lt(w, a.visItem(w)))
			if p, ok := last[buffer(w)]; ok {
				fs = append(fs, a.lt(a.visItem(p), a.visItem(w)))
			}
			last[buffer(w)] = w
		}
	}
	for _, it := range sortedKeys(a.drainT) {
		d := a.drainT[it]
		if d >= 0 && !a.tr.Steps[d].Flush {
			fs = append(fs, a.lt(it, d))
		}
	}
	return a.b.And(fs...)
}

// validFor is the formula "read step e returns v": it reads from the initial
// value or from some write of value v, with no write of another value between.
func (a *analysis) validFor(e int, v int64) smt.Formula {
	return a.validWith(e, v, a.writes[a.ev[e].Loc], func(w int) int64 { return a.ev[w].WVal })
}

// validWith is validFor over the writes ws of e's location, write w writing
// wval(w).
func (a *analysis) validWith(e int, v int64, ws []int, wval func(int) int64) smt.Formula {
	ev := a.ev[e]
	vis := func(w int) smt.Var { return a.o[a.visItem(w)] }
	oe := a.o[e]
	var alts []smt.Formula
	if a.tr.G.InitVal[ev.Loc] == v {
		var c []smt.Formula
		for _, w := range ws {
			if w != e && wval(w) != v {
				c = append(c, a.b.Lt(oe, vis(w)))
			}
		}
		alts = append(alts, a.b.And(c...))
	}
	for _, w := range ws {
		if w == e || wval(w) != v {
			continue
		}
		a.checkCtx(0) // the inner loop builds a formula per write of another value
		c := []smt.Formula{a.b.Lt(vis(w), oe)}
		for _, w2 := range ws {
			if w2 != e && w2 != w && wval(w2) != v {
				c = append(c, a.b.Or(a.b.Lt(vis(w2), vis(w)), a.b.Lt(oe, vis(w2))))
			}
		}
		alts = append(alts, a.b.And(c...))
	}
	mem := a.b.Or(alts...)
	own := a.ownStore(e)
	if own < 0 {
		return mem
	}
	// Store forwarding: while the thread's own latest store to the location
	// is buffered, the read returns it; once it is visible, memory.
	fwd := a.b.False()
	if wval(own) == v {
		fwd = a.b.Lt(oe, vis(own))
	}
	return a.b.Or(fwd, a.b.And(a.b.Lt(vis(own), oe), mem))
}

// rewrites reports whether pivot read r may write differently with a new
// value (an RMW, or a compare-and-swap that failed) and mcr knows how
// (Step.WriteFor).
func (a *analysis) rewrites(r int) bool {
	return a.tr.Steps[r].WriteFor != nil // set on RMW and compare-and-swap steps only
}

// afterPivot is, for a pivot "r reads v" of a read r that rewrites, the
// validity of the other reads of r's location in the prefix with r's new
// write: each lies after the cutoff c or keeps its value with r writing
// what it writes after reading v (or nothing, a compare-and-swap that now
// fails). prefixConstraints leaves these reads out.
func (a *analysis) afterPivot(c cutoff, r int, v int64) smt.Formula {
	loc := a.ev[r].Loc
	writes, nw := a.tr.Steps[r].WriteFor(v)
	ws := make([]int, 0, len(a.writes[loc])+1)
	for _, w := range a.writes[loc] {
		if w != r {
			ws = append(ws, w)
		}
	}
	if writes {
		ws = append(ws, r)
	}
	wval := func(w int) int64 {
		if w == r {
			return nw
		}
		return a.ev[w].WVal
	}
	var fs []smt.Formula
	for i, e := range a.reads {
		a.checkCtx(i)
		if e == r || a.ev[e].Loc != loc {
			continue
		}
		if e < a.tr.Frozen {
			fs = append(fs, a.validWith(e, a.ev[e].RVal, ws, wval))
			continue
		}
		fs = append(fs, a.b.Or(a.after(c, e), a.validWith(e, a.ev[e].RVal, ws, wval)))
	}
	return a.b.And(fs...)
}

func (a *analysis) validOld(e int) smt.Formula {
	if f, ok := a.valid[e]; ok {
		return f
	}
	f := a.validFor(e, a.ev[e].RVal)
	a.valid[e] = f
	return f
}

// cutoff expresses "step i is not in the prefix" for a pivot: either a step
// index (the prefix is what precedes it) or an extra variable.
type cutoff struct {
	v smt.Var
}

func (a *analysis) after(c cutoff, i int) smt.Formula { return a.b.Lt(c.v, a.o[i]) }

// prefixConstraints: every step before the cutoff keeps its reads' values,
// lock sections exclude each other and atomic sections are not interleaved.
// skip is a read exempt from validity (the pivot), -1 if none; end says how
// the pivot's atomic section ends (secEnd).
func (a *analysis) prefixConstraints(c cutoff, skip int, end secEnd) smt.Formula {
	var fs []smt.Formula
	// The frozen steps (the parent's seed) stay in the prefix, in any order
	// that keeps their values.
	for _, k_ := range sortedKeys(a.thr) {
		steps := a.thr[k_]
		last := -1
		for _, i := range steps {
			if i < a.tr.Frozen {
				last = i
			}
		}
		if last >= 0 {
			fs = append(fs, a.b.Lt(a.o[last], c.v))
		}
	}
	for i := 0; i < a.tr.Frozen && i < a.n; i++ {
		if a.tr.Steps[i].Flush {
			fs = append(fs, a.b.Lt(a.o[i], c.v))
		}
	}
	if !a.tr.Continues {
		for _, e := range a.terminal {
			if e != skip {
				fs = append(fs, a.after(c, e))
			}
		}
	}
	for i, e := range a.reads {
		a.checkCtx(i)
		if e == skip {
			continue
		}
		if skip >= 0 && a.rewrites(skip) && a.ev[e].Loc == a.ev[skip].Loc {
			continue // afterPivot: validity with the pivot's new write
		}
		if e < a.tr.Frozen {
			fs = append(fs, a.validOld(e))
			continue
		}
		fs = append(fs, a.b.Or(a.after(c, e), a.validOld(e)))
	}
	for i, p := range a.pairs {
		for _, q := range a.pairs[i+1:] {
			if p.t == q.t || p.mutex != q.mutex {
				continue
			}
			alts := []smt.Formula{a.after(c, p.a), a.after(c, q.a)}
			if p.b >= 0 {
				alts = append(alts, a.lt(p.b, q.a))
			}
			if q.b >= 0 {
				alts = append(alts, a.lt(q.b, p.a))
			}
			fs = append(fs, a.b.Or(alts...))
		}
	}
	for _, k_ := range sortedKeys(a.secs) {
		s := a.secs[k_]
		t := a.tr.Steps[s.first].T
		// outside: step (or commit item) f of another thread lies outside
		// the section, or is not in the prefix.
		outside := func(f int) smt.Formula {
			alts := []smt.Formula{a.lt(f, s.first), a.after(c, f), a.after(c, s.first)}
			switch {
			case skip < 0 || a.tr.Steps[skip].Atomic != k_ || end == secObserved:
				alts = append(alts, a.lt(s.last, f))
			case end == secAtPivot:
				alts = append(alts, a.lt(skip, f))
			}
			// secOpen: the section is still open at the cutoff.
			return a.b.Or(alts...)
		}
		for f, st := range a.tr.Steps {
			if st.T == t && !st.Flush {
				continue
			}
			fs = append(fs, outside(f))
		}
		for f := a.n; f < len(a.o); f++ { // commits of buffered stores are flushes too
			if d := a.drainT[f]; d >= 0 && a.tr.Steps[d].T == t && a.tr.Steps[d].Atomic == k_ {
				// A store of the section's thread drained by one of the
				// section's own steps (a fence, an RMW) commits inside
				// the section; placed anywhere in it before that step it
				// is observed alike (no other thread runs there, and the
				// thread's own loads forward it).
				continue
			}
			fs = append(fs, outside(f))
		}
	}
	return a.b.And(fs...)
}

// pivotPrefix is the prefix of the pivot query of read r: r and every
// frozen step come before a cutoff, and so does every step the prefix needs,
// with its value; nothing of r's thread after r does. Frozen steps may come
// after r: requiring them before r (as JMCR's appended prefixes do) loses the
// executions in which r reads a value that a frozen write overwrites (seed
// 1635 of the differential test). With its new value r may write something
// else (an RMW, or a CAS that now succeeds or fails), so no other read of its
// location may fall between r and the cutoff (their validity assumes the old
// write) unless mcr knows what r writes with each value (Step.WriteFor):
// then the validity of those reads is asked per value, with r's new write
// (afterPivot; seeds 3583 and 5998 of the differential test). end says how
// r's atomic section ends (secEnd). The cutoff is returned for afterPivot.
func (a *analysis) pivotPrefix(r int, end secEnd) (smt.Formula, cutoff) {
	c := cutoff{a.b.NewVar(fmt.Sprintf("CUT%d", r))}
	fs := []smt.Formula{a.b.Lt(a.o[r], c.v)}
	st := a.tr.Steps[r]
	if p := a.posInT[r]; p+1 < len(a.thr[st.T]) {
		fs = append(fs, a.after(c, a.thr[st.T][p+1]))
	}
	if (a.ev[r].Kind == seg.KRMW || st.MayWrite) && !a.rewrites(r) {
		for _, e := range a.reads {
			if e != r && a.ev[e].Loc == a.ev[r].Loc {
				fs = append(fs, a.b.Or(a.lt(e, r), a.after(c, e)))
			}
		}
	}
	fs = append(fs, a.prefixConstraints(c, r, end))
	return a.b.And(fs...), c
}

// readsFrom is the formula "r reads from w" (w = -1: the initial value): from
// memory, with no other write becoming visible in between and the thread's
// own latest store to the location already visible; or, under TSO/PSO, from
// the thread's own buffer when w is that store and it is not yet visible.
func (a *analysis) readsFrom(r, w int) smt.Formula {
	vis := func(x int) smt.Var { return a.o[a.visItem(x)] }
	or := a.o[r]
	ws := a.writes[a.ev[r].Loc]
	var c []smt.Formula
	if w >= 0 {
		c = append(c, a.b.Lt(vis(w), or))
	}
	for _, w2 := range ws {
		if w2 == r || w2 == w {
			continue
		}
		if w < 0 {
			c = append(c, a.b.Lt(or, vis(w2)))
		} else {
			c = append(c, a.b.Or(a.b.Lt(vis(w2), vis(w)), a.b.Lt(or, vis(w2))))
		}
	}
	mem := a.b.And(c...)
	own := a.ownStore(r)
	if own < 0 {
		return mem
	}
	mem = a.b.And(mem, a.b.Lt(vis(own), or))
	if own == w {
		return a.b.Or(a.b.Lt(or, vis(own)), mem)
	}
	return mem
}

// finalIs is the formula "the last write to loc writes v" (every write of
// another value precedes some write of v); with no write of v it holds only
// if v is the initial value and nothing else is written.
func (a *analysis) finalIs(loc int64, v int64) smt.Formula {
	ws := a.writes[loc]
	var alts []smt.Formula
	other := false
	for _, w := range ws {
		if a.ev[w].WVal != v {
			other = true
		}
	}
	if !other && (len(ws) > 0 || a.tr.G.InitVal[loc] == v) {
		return a.b.True()
	}
	for _, w1 := range ws {
		if a.ev[w1].WVal != v {
			continue
		}
		var c []smt.Formula
		for _, w2 := range ws {
			if a.ev[w2].WVal != v {
				c = append(c, a.lt(a.visItem(w2), a.visItem(w1)))
			}
		}
		alts = append(alts, a.b.And(c...))
	}
	return a.b.Or(alts...)
}

// visStep orders writes by when they became visible in the trace: their
// step, their flush step, or (drained) just before the draining step, in the
// order of the commits; stores that never became visible come last.
func (a *analysis) visStep(w int) float64 {
	c := a.visItem(w)
	if c < a.n {
		return float64(c)
	}
	if d := a.drainT[c]; d >= 0 {
		return float64(d) - 0.5 + float64(c-a.n)*1e-6
	}
	return float64(a.n) + float64(c)
}
