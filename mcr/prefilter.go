package mcr

import (
	"slices"
	"sort"

	"ncmc/seg"
)

// mhbIndex answers, under SC, which writes a read can possibly read from
// given only the must-happen-before order (program order, spawn, join) that
// every query asserts: a pivot whose value no such write (or the initial
// value) can supply is UNSAT, and is not asked at all. With vector clocks
// over the threads and per-(location, thread) write lists this costs
// O(k log n) per candidate (k threads, n steps), so a trace whose reads
// have no alternative values (a single thread) costs time linear in its
// length instead of a query per (read, value written anywhere).
//
// A write w of value v is a possible source of read r unless r must
// precede w, or some write b of another value (of any value, for a
// same-value source pivot) must come between: w <mhb b <mhb r. The initial
// value is killed by any such b <mhb r.
type mhbIndex struct {
	a *analysis
	// relaxed: TSO or PSO. A write becomes visible at its commit, which
	// program order (or spawn, join) of issues orders only within a
	// thread: a read's own latest write to the location before it (a
	// buffered store, forwarded or committed before the read reads memory;
	// or an RMW) still hides its thread's earlier writes and the initial
	// value, but writes of other threads are never killed.
	relaxed bool
	k       int
	col     map[int32]int // thread -> column
	vc      []int32       // n*k: vc[i*k+c] = steps of thread column c that are mhb-before or equal to step i
	wr      map[int64][][]int
	// run[loc][c][p] = the first index of the run of equal values that
	// ends at p in wr[loc][c].
	run map[int64][][]int32
}

func newMHBIndex(a *analysis) *mhbIndex {
	x := &mhbIndex{a: a, col: map[int32]int{}, wr: map[int64][][]int{}, run: map[int64][][]int32{}}
	ts := sortedKeys(a.thr)
	for i, t := range ts {
		x.col[t] = i
	}
	k := len(ts)
	x.k = k
	x.vc = make([]int32, a.n*k)
	last := make([]int, k) // last step of each column so far (+1; 0: none)
	for i := 0; i < a.n; i++ {
		st := a.tr.Steps[i]
		if st.Flush {
			continue
		}
		c := x.col[st.T]
		row := x.vc[i*k : i*k+k]
		if p := last[c]; p > 0 {
			copy(row, x.vc[(p-1)*k:(p-1)*k+k])
		} else if s, ok := a.spawn[st.T]; ok && s < i {
			copy(row, x.vc[s*k:s*k+k])
		}
		row[c] = int32(a.posInT[i] + 1)
		if e := a.ev[i]; e != nil && e.Kind == seg.KJoin {
			if steps := a.thr[e.Other]; len(steps) > 0 && steps[len(steps)-1] < i {
				j := steps[len(steps)-1]
				for cc, v := range x.vc[j*k : j*k+k] {
					row[cc] = max(row[cc], v)
				}
			}
		}
		last[c] = i + 1
	}
	for _, loc := range sortedKeys(a.writes) {
		per := make([][]int, k)
		for _, w := range a.writes[loc] {
			c := x.col[a.tr.Steps[w].T]
			per[c] = append(per[c], w)
		}
		runs := make([][]int32, k)
		for c, ws := range per {
			runs[c] = make([]int32, len(ws))
			for p := range ws {
				if p > 0 && a.ev[ws[p]].WVal == a.ev[ws[p-1]].WVal {
					runs[c][p] = runs[c][p-1]
				} else {
					runs[c][p] = int32(p)
				}
			}
		}
		x.wr[loc], x.run[loc] = per, runs
	}
	return x
}

// list is thread column c's writes to loc, in program order.
func (x *mhbIndex) list(loc int64, c int) []int {
	if per := x.wr[loc]; per != nil {
		return per[c]
	}
	return nil
}

func (x *mhbIndex) runs(loc int64, c int) []int32 { return x.run[loc][c] }

// before reports i <mhb j (i != j).
func (x *mhbIndex) before(i, j int) bool {
	if i == j {
		return false
	}
	c := x.col[x.a.tr.Steps[i].T]
	return x.vc[j*x.k+c] > int32(x.a.posInT[i])
}

// lastBefore is the index in wr[loc][c] of the last write that must precede
// step r (r excluded), -1 if none.
func (x *mhbIndex) lastBefore(loc int64, c, r int) int {
	ws := x.list(loc, c)
	lim := x.vc[r*x.k+c] // steps of column c mhb-before or equal to r
	if x.col[x.a.tr.Steps[r].T] == c {
		lim = int32(x.a.posInT[r]) // strictly before r
	}
	return sort.Search(len(ws), func(p int) bool { return int32(x.a.posInT[ws[p]]) >= lim }) - 1
}

// firstAfter is the index in wr[loc][c] of the first write that step w must
// precede (w excluded; w = -1: the initial value, index 0).
func (x *mhbIndex) firstAfter(loc int64, c, w int) int {
	ws := x.list(loc, c)
	if w < 0 {
		return 0
	}
	return sort.Search(len(ws), func(p int) bool { return x.before(w, ws[p]) })
}

// killed reports whether a write of a value other than v (of any value if
// any) must come between source w (-1: initial value) and read r.
func (x *mhbIndex) killed(loc int64, w, r int, v int64, any bool) bool {
	if x.relaxed {
		c := x.col[x.a.tr.Steps[r].T]
		e := x.lastBefore(loc, c, r)
		if e < 0 {
			return false
		}
		own := x.list(loc, c)[e]
		if w == own {
			return false
		}
		// sources offers no other write of r's thread before r.
		return w < 0 && (any || x.a.ev[own].WVal != v)
	}
	for c := range x.k {
		e := x.lastBefore(loc, c, r)
		if e < 0 {
			continue
		}
		s := x.firstAfter(loc, c, w)
		if s > e {
			continue
		}
		ws := x.list(loc, c)
		if any || x.a.ev[ws[e]].WVal != v || int(x.runs(loc, c)[e]) > s {
			return true
		}
	}
	return false
}

// sources lists the writes r might read from by must-happen-before alone,
// before other kills: per thread, its last write that must precede r and
// the writes not ordered with r; -1 (the initial value) first.
func (x *mhbIndex) sources(r int) []int {
	loc := x.a.ev[r].Loc
	srcs := []int{-1}
	rc := x.col[x.a.tr.Steps[r].T]
	for c := range x.k {
		ws := x.list(loc, c)
		e := x.lastBefore(loc, c, r)
		if x.relaxed && c != rc {
			e = -1 // no kills across threads: every write not after r
		} else if e >= 0 {
			srcs = append(srcs, ws[e])
		}
		for p := e + 1; p < len(ws); p++ {
			if ws[p] == r || x.before(r, ws[p]) {
				break // r must precede this write and every later one of the thread
			}
			srcs = append(srcs, ws[p])
		}
	}
	slices.Sort(srcs)
	return srcs
}

func (x *mhbIndex) val(w int, loc int64) int64 {
	if w < 0 {
		return x.a.tr.G.InitVal[loc]
	}
	return x.a.ev[w].WVal
}

// candidateValues are the values other than its own that read r may
// return: the initial value first, then in the order of their sources in
// the trace.
func (x *mhbIndex) candidateValues(r int) []int64 {
	ev := x.a.ev[r]
	seen := map[int64]bool{ev.RVal: true}
	var vals []int64
	for _, w := range x.sources(r) {
		v := x.val(w, ev.Loc)
		if seen[v] || x.killed(ev.Loc, w, r, v, false) {
			continue
		}
		seen[v] = true
		vals = append(vals, v)
	}
	return vals
}

// sameValueSources are the other sources of r's value that r may read
// from (-1: the initial value).
func (x *mhbIndex) sameValueSources(r int) []int {
	ev := x.a.ev[r]
	var srcs []int
	for _, w := range x.sources(r) {
		if w < 0 && ev.RF.IsInit() || w >= 0 && x.a.ev[w].ID == ev.RF || x.val(w, ev.Loc) != ev.RVal {
			continue
		}
		if !x.killed(ev.Loc, w, r, ev.RVal, true) {
			srcs = append(srcs, w)
		}
	}
	return srcs
}

// finalValues are the values that may be the last written to loc: those
// of writes after which no write of another value must come.
func (x *mhbIndex) finalValues(loc int64) map[int64]bool {
	ok := map[int64]bool{}
	for _, w := range x.a.writes[loc] {
		v := x.a.ev[w].WVal
		if ok[v] {
			continue
		}
		later := false
		for c := range x.k {
			if x.relaxed && c != x.col[x.a.tr.Steps[w].T] {
				continue // commits of other threads are not ordered by issue order
			}
			ws := x.list(loc, c)
			s := x.firstAfter(loc, c, w)
			if s < len(ws) && (x.a.ev[ws[len(ws)-1]].WVal != v || int(x.runs(loc, c)[len(ws)-1]) > s) {
				later = true
				break
			}
		}
		if !later {
			ok[v] = true
		}
	}
	return ok
}
