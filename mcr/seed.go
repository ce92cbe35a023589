package mcr

import (
	"sort"

	"ncmc/seg"
)

// seed computes the smallest prefix the model needs for the roots, plus the
// frozen prefix, ordered by the model. pivot (>= 0) is the read whose value
// changes to v; end says how its atomic section ends (secEnd).
func (a *analysis) seed(model []int64, roots []int, pivot int, v int64, end secEnd) Seed {
	n := len(a.o)
	in := make([]bool, n)
	var work []int
	add := func(i int) {
		if i >= 0 && !in[i] {
			in[i] = true
			work = append(work, i)
		}
	}
	for i := 0; i < a.tr.Frozen; i++ {
		add(i)
	}
	for _, r := range roots {
		add(r)
	}
	commitOf := func(it int) int { // the issue step an item commits, or -1
		if it >= a.n {
			return a.virtW[it-a.n]
		}
		if a.tr.Steps[it].Flush {
			for w, c := range a.vis {
				if c == it {
					return w
				}
			}
		}
		return -1
	}
	for {
		for len(work) > 0 {
			i := work[len(work)-1]
			work = work[:len(work)-1]
			if w := commitOf(i); w >= 0 {
				// A commit needs its store issued and the older stores of the
				// buffer (FIFO) committed first.
				add(w)
				t := a.tr.Steps[w].T
				for _, w2 := range a.bufd[t] {
					if w2 < w && (a.tr.Model == TSO || a.ev[w2].Loc == a.ev[w].Loc) {
						add(a.visItem(w2))
					}
				}
				continue
			}
			if i >= a.n {
				continue
			}
			st := a.tr.Steps[i]
			if p := a.posInT[i]; p > 0 {
				add(a.thr[st.T][p-1])
			} else if s, ok := a.spawn[st.T]; ok {
				add(s)
			}
			e := a.ev[i]
			if e == nil {
				continue
			}
			switch e.Kind {
			case seg.KJoin:
				if steps := a.thr[e.Other]; len(steps) > 0 {
					add(steps[len(steps)-1])
				}
				for _, w := range a.bufd[e.Other] {
					add(a.visItem(w))
				}
			case seg.KRead, seg.KRMW:
				if own := a.ownStore(i); own >= 0 && model[i] < model[a.visItem(own)] {
					continue // forwarded from the thread's own buffer
				}
				// The write this read reads from in the model.
				src := -1
				for _, w := range a.writes[e.Loc] {
					if w != i && model[a.visItem(w)] < model[i] && (src < 0 || model[a.visItem(w)] > model[a.visItem(src)]) {
						src = w
					}
				}
				if src >= 0 {
					add(src)
					add(a.visItem(src))
				}
			}
		}
		changed := false
		// Lock acquisitions follow the release of every earlier included section.
		for _, p := range a.pairs {
			if !in[p.a] || p.b < 0 || in[p.b] {
				continue
			}
			for _, q := range a.pairs {
				if q.t != p.t && q.mutex == p.mutex && in[q.a] && model[p.a] < model[q.a] {
					add(p.b)
					changed = true
					break
				}
			}
		}
		// An atomic section interleaved with later included steps is included whole.
		for _, k_ := range sortedKeys(a.secs) {
			s := a.secs[k_]
			if pivot >= 0 && a.tr.Steps[pivot].Atomic == k_ && end != secObserved {
				// The pivot's section: with its new value nothing of the
				// thread after the pivot is in the prefix, and the query
				// placed every other included step before the section or
				// (secAtPivot) after the pivot.
				continue
			}
			if in[s.last] {
				continue
			}
			t := a.tr.Steps[s.first].T
			touched := false
			for i := s.first; i <= s.last; i++ {
				if in[i] && a.tr.Steps[i].T == t {
					touched = true
					break
				}
			}
			if !touched {
				continue
			}
			for f := 0; f < len(a.o); f++ {
				if in[f] && (f >= a.n || a.tr.Steps[f].T != t || a.tr.Steps[f].Flush) && model[f] > model[s.first] {
					add(s.last)
					changed = true
					break
				}
			}
		}
		// Visible stores to one location keep their model order: a buffered
		// store issued in the prefix that the model commits before an
		// included commit to its location is committed explicitly.
		for _, k_ := range sortedKeys(a.writes) {
			ws := a.writes[k_]
			for _, w := range ws {
				c := a.visItem(w)
				if c == w || !in[w] || in[c] {
					continue
				}
				for _, w2 := range ws {
					c2 := a.visItem(w2)
					if w2 != w && in[c2] && model[c] < model[c2] {
						add(c)
						changed = true
						break
					}
				}
			}
		}
		if !changed && len(work) == 0 {
			break
		}
	}
	var idx []int
	for i := 0; i < n; i++ {
		if in[i] {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(x, y int) bool {
		if model[idx[x]] != model[idx[y]] {
			return model[idx[x]] < model[idx[y]]
		}
		return idx[x] < idx[y]
	})
	sd := Seed{Choices: map[int32][]int{}}
	pivotAt := -1
	for _, i := range idx {
		var st Step
		var e *seg.Event
		if w := commitOf(i); w >= 0 {
			if a.drainedInSection(i, model) {
				continue // the section's draining step commits it
			}
			we := a.ev[w]
			st = Step{T: a.tr.Steps[w].T, Flush: true, Loc: we.Loc, Event: we.ID}
			e = we
		} else {
			st = a.tr.Steps[i]
			e = a.ev[i]
		}
		sd.Steps = append(sd.Steps, st)
		ex := Expect{}
		if e != nil {
			ex = Expect{Kind: e.Kind, HasEvent: true, Loc: e.Loc, RVal: e.RVal, WVal: e.WVal}
			if i == pivot {
				ex.RVal = v
				ex.AnyWVal = true
				pivotAt = len(sd.Expect)
			}
		}
		sd.Expect = append(sd.Expect, ex)
	}
	if end == secAtPivot && pivotAt >= 0 && pivotAt+1 < len(sd.Steps) {
		sd.Expect[pivotAt].LeavesAtomic = true
	}
	for _, c := range a.tr.Choices {
		if c.Step < 0 || (c.Step < a.n && in[c.Step]) {
			sd.Choices[c.T] = append(sd.Choices[c.T], c.K)
		}
	}
	return sd
}

// drainedInSection reports whether commit item c (a store drained by a step
// of its thread's atomic section in the trace) lies inside that section in
// the model: no flush can run inside a section, so the draining step
// commits it, and the seed has no flush step for it (encode.go lets such a
// commit into the section).
func (a *analysis) drainedInSection(c int, model []int64) bool {
	d, ok := a.drainT[c]
	if !ok || d < 0 {
		return false
	}
	k := a.tr.Steps[d].Atomic
	if k == 0 {
		return false
	}
	s := a.secs[k]
	return s != nil && model[c] > model[s.first]
}
