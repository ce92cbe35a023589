package vmcr

import (
	"fmt"
	"slices"
)

// Failures (Options.Failures). An execution ends at its first failure: its
// outcome is the failure and the values of the observed locations right
// after the failing step (the interpreter lets the other threads run on,
// but the outcome is fixed there). A class (read values and choices) fixes
// every thread's steps, but not which failing step comes first nor what
// the other threads wrote before it. So a failure is handled like the end
// of an execution: the failing step is an observer that reads every
// observed location. For each failing thread f of a leaf's class (the
// leaf's own first failure, then every other whose failing step can come
// first) and each observed location in turn, the values it can hold right
// after f's failing step are branched on like the observer's final values
// (explorer.observe): the value the known run shows needs no search, the
// others a witness search over the leaf's steps in which every read reads
// its value (any write of it: all schedules of the class), no other
// failing step runs, f's failing step runs last and the locations fixed so
// far hold their values right after it. Each (f, values) found is one
// more leaf; classes without a failing thread cost nothing.
//
// Complete: an outcome (f, values) is reached by a schedule prefix ending
// at f's failing step; the run continued from it is an execution of some
// class, whose leaf has the same steps per thread, so the prefix is a
// schedule of those steps in which every read reads its value: the
// searches below find one for every (f, values) that has one.

// failures reports the further outcomes of leaf n's class (n is reported).
func (e *explorer) failures(n *node) {
	tr := n.tr
	pts := failPoints(tr)
	f0, v0, ok := e.failOutcome(tr, pts)
	if !ok {
		return
	}
	for _, f := range pts {
		if f == f0 {
			e.failStates(n, pts, f, nil, v0, nil)
		} else {
			w, vals, err := e.failSearch(n, pts, f, nil)
			if err != nil {
				e.fail(err)
				return
			}
			if w == nil {
				e.stats.Infeasible++
				continue
			}
			e.failStates(n, pts, f, nil, vals, w)
		}
		if e.stopped() {
			return
		}
	}
}

// failPoints returns the failing steps of tr, sorted: the step in which
// a thread that ended failed failed. That is its last step (the failure
// comes after the step's access, in the local code that follows it), or,
// for a thread that failed before its first step, its spawn step (its
// local code up to its first access runs as part of the spawn).
func failPoints(tr *Trace) []Ref {
	var pts []Ref
	for t := range tr.Threads {
		th := &tr.Threads[t]
		if th.End != EndFailed {
			continue
		}
		switch m := len(th.Steps); {
		case m > 0 && !th.Steps[m-1].Pending:
			pts = append(pts, Ref{int32(t), int32(m - 1)})
		case m == 0 && th.Spawn.T >= 0:
			pts = append(pts, th.Spawn)
		}
	}
	slices.SortFunc(pts, func(a, b Ref) int {
		if a.T != b.T {
			return int(a.T - b.T)
		}
		return int(a.I - b.I)
	})
	return slices.Compact(pts)
}

// failStates reports the outcomes of n's class whose first failure is at
// step f and whose first len(fixed) observed values are fixed: cur is one
// of them (all observed values), reached by witness w (nil: n's own run,
// reported).
func (e *explorer) failStates(n *node, pts []Ref, f Ref, fixed, cur []int64, w *Witness) {
	k := len(fixed)
	if k == len(cur) {
		if w != nil {
			e.failLeaf(n, f, cur, w)
		}
		return
	}
	for _, v := range e.failValues(n.tr, k, cur[k]) {
		fx := append(fixed[:k:k], v)
		if v == cur[k] {
			e.failStates(n, pts, f, fx, cur, w)
		} else {
			w2, vals, err := e.failSearch(n, pts, f, fx)
			if err != nil {
				e.fail(err)
				return
			}
			if w2 == nil {
				e.stats.Infeasible++
				continue
			}
			e.failStates(n, pts, f, fx, vals, w2)
		}
		if e.stopped() {
			return
		}
	}
}

// failValues returns the values observed location k may hold in a run
// of tr's steps (its initial value and the values written to it), sorted,
// with cur among them.
func (e *explorer) failValues(tr *Trace, k int, cur int64) []int64 {
	loc := e.opts.Observed[k]
	vs := []int64{cur, tr.initVal(loc)}
	for _, w := range tr.writesOf(e.obsID[k]) {
		vs = append(vs, tr.value(w, loc))
	}
	slices.Sort(vs)
	return slices.Compact(vs)
}

// failOutcome returns the outcome of run tr with failing steps pts: the
// failing step that comes first and the observed values right after it;
// ok is false if no thread failed.
func (e *explorer) failOutcome(tr *Trace, pts []Ref) (f Ref, vals []int64, ok bool) {
	const none = 1 << 30
	best := int32(none)
	for _, r := range pts {
		if p := tr.tpos[r.T][r.I]; p < best {
			best, f = p, r
		}
	}
	if best == none {
		return f, nil, false
	}
	// lastW[k]: the last write of Observed[k] up to the failing step.
	lastW := make([]Ref, len(e.obsID))
	for k := range lastW {
		lastW[k] = Init
	}
	at := make(map[int32]int, len(e.obsID))
	for k, l := range e.obsID {
		at[l] = k
	}
	for _, r := range tr.Order[:best+1] {
		if st := tr.step(r); st.Wrote && !st.Pending && hasLoc(st.Op) {
			if k, ok := at[st.lid]; ok {
				lastW[k] = r
			}
		}
	}
	vals = make([]int64, len(lastW))
	for k, w := range lastW {
		vals[k] = tr.value(w, e.opts.Observed[k])
	}
	return f, vals, true
}

// failSearch returns a witness over n's run's steps in which every read
// reads the value it reads in that run, no failing step of pts but f
// runs, f runs last, and the observed locations hold the values fixed
// right after it; and all observed values then. It returns a nil witness
// if there is none.
func (e *explorer) failSearch(n *node, pts []Ref, f Ref, fixed []int64) (*Witness, []int64, error) {
	e.stats.Searches++
	tr := n.tr
	s := e.newSearch(tr)
	s.consAt = func(t, i int) (cons, bool) {
		st := &tr.Threads[t].Steps[i]
		if st.Pending || !st.Op.IsRead() {
			return cons{}, false
		}
		return cons{mode: mValue, val: st.RVal}, true
	}
	for t := range tr.Threads {
		th := &tr.Threads[t]
		if th.End == EndAbsent {
			continue
		}
		m := len(th.Steps)
		if m > 0 && th.Steps[m-1].Pending {
			m--
		}
		for _, p := range pts {
			if int(p.T) == t && p != f {
				m = min(m, int(p.I)) // that failure would come first
			}
		}
		if t == int(f.T) {
			m = min(m, int(f.I)+1)
		}
		s.limit[t] = m
		for i := 0; i < m; i++ {
			if th.Steps[i].Op.IsRead() {
				s.addRel(th.Steps[i].lid)
			}
		}
	}
	ft := int(f.T)
	if s.limit[ft] != int(f.I)+1 {
		return nil, nil, nil // an earlier failure of its thread comes first
	}
	s.need[ft] = s.limit[ft]
	s.fail, s.failW = ft, tr.step(f).Wrote
	for k, v := range fixed {
		l := e.obsID[k]
		s.addRel(l)
		s.finals = append(s.finals, final{loc: e.opts.Observed[k], lid: l, byVal: true, val: v})
	}
	slices.Sort(s.rel)
	ok, err := s.run()
	if !ok || err != nil {
		return nil, nil, err
	}
	vals := make([]int64, len(e.obsID))
	for k, l := range e.obsID {
		vals[k] = s.wval(s.mem[l], e.opts.Observed[k])
	}
	// The schedule ends with ft's failing step.
	end := len(s.sched)
	for end > 0 && s.sched[end-1] != int32(ft) {
		end--
	}
	w := &Witness{Sched: append([]int32(nil), s.sched[:end]...), Choices: n.choices()}
	return w, vals, nil
}

// failLeaf runs witness w, checks that its first failure is at step f
// with observed values vals, and reports it.
func (e *explorer) failLeaf(n *node, f Ref, vals []int64, w *Witness) {
	ct, err := e.runW(w)
	if err != nil {
		e.fail(err)
		return
	}
	defer e.done(ct)
	got, gv, ok := e.failOutcome(ct, failPoints(ct))
	if !ok || got != f || !slices.Equal(gv, vals) {
		e.fail(fmt.Errorf("internal error: vmcr: a failure witness of step %v with values %v ran to the failure at %v (%v) with values %v", f, vals, got, ok, gv))
		return
	}
	e.stats.FailLeaves++
	e.emit(ct)
}

// deadlocked reports whether run tr ends in a deadlock: some thread waits
// for a mutex or a join for good, and none failed, blocked or hit a
// bound. Its outcome is the deadlock and the final values, which differ
// between the schedules of a class as those of a complete execution do:
// with Options.Failures the observer branches on them too.
func deadlocked(tr *Trace) bool {
	waits := false
	for t := range tr.Threads {
		switch tr.Threads[t].End {
		case EndWaiting:
			waits = true
		case EndFailed, EndBlocked, EndBound:
			return false
		}
	}
	return waits
}
