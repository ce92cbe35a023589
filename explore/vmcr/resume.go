package vmcr

// resumable rewrites witness w, found by a witness search over the steps
// of run tr, so that its schedule begins with as long a prefix of tr's own
// schedule (tr.Order) as possible, and records that prefix (w.Base = tr,
// w.Same its length): a Runner may then resume from tr's state after it
// instead of running it again.
//
// The new schedule is the longest prefix P of tr.Order such that P
// followed by w's steps not in P, in w's order, is a linearisation of the
// conflict order of w's schedule: program order, spawn, join, After, and
// the order in w of every two accesses to one location of which one may
// write. Spawns count as conflicting with each other (threads are created
// in w's order, so the default scheduler's creation order is w's), and so
// do the failing last steps of threads (violations happen in w's order).
// Two linearisations of one conflict order run the same execution: every
// read reads the same write, every thread reaches the same state and
// makes the same choices. Every step of P is a step of w, and the steps of
// w behave as in tr (within its annotation), so P runs as it ran in tr.
func resumable(tr *Trace, w *Witness) {
	n := len(w.Sched)
	if n == 0 || len(tr.Order) == 0 {
		return
	}
	nt := len(tr.Threads)
	// wpos[t][i]: the position in w of step (t, i); refAt the inverse.
	cnt := make([]int32, nt)
	for _, t := range w.Sched {
		if int(t) >= nt {
			return
		}
		cnt[t]++
	}
	wbuf := make([]int32, n)
	wpos := make([][]int32, nt)
	off := 0
	for t := range wpos {
		wpos[t] = wbuf[off : off : off+int(cnt[t])]
		off += int(cnt[t])
	}
	refAt := make([]Ref, n)
	for p, t := range w.Sched {
		refAt[p] = Ref{t, int32(len(wpos[t]))}
		wpos[t] = append(wpos[t], int32(p))
	}
	taken := make([]bool, n)
	first := 0 // the first position of w not taken
	same := 0
	for _, r := range tr.Order {
		if int(r.I) >= len(wpos[r.T]) {
			break
		}
		p := int(wpos[r.T][r.I])
		st := tr.step(r)
		ok := true
		for q := first; q < p; q++ {
			if !taken[q] && conflicts(tr, st, r, tr.step(refAt[q]), refAt[q]) {
				ok = false
				break
			}
		}
		if !ok {
			break
		}
		taken[p] = true
		for first < n && taken[first] {
			first++
		}
		same++
	}
	if same == 0 {
		return
	}
	sched := make([]int32, 0, n)
	for _, r := range tr.Order[:same] {
		sched = append(sched, r.T)
	}
	for p, t := range w.Sched {
		if !taken[p] {
			sched = append(sched, t)
		}
	}
	w.Sched, w.Base, w.Same = sched, tr, same
}

// conflicts reports whether steps a (at ra) and b (at rb) of tr, of
// different threads, may not be swapped.
func conflicts(tr *Trace, a *Step, ra Ref, b *Step, rb Ref) bool {
	if ra.T == rb.T {
		return true
	}
	if a.Op == OpSpawn && b.Op == OpSpawn {
		return true
	}
	if failingLast(tr, ra) && failingLast(tr, rb) {
		return true
	}
	for _, x := range a.After {
		if x == rb {
			return true
		}
	}
	for _, x := range b.After {
		if x == ra {
			return true
		}
	}
	if (a.Op == OpJoin || a.Op == OpSpawn) && a.Other == rb.T || (b.Op == OpJoin || b.Op == OpSpawn) && b.Other == ra.T {
		return true
	}
	if !hasLoc(a.Op) || !hasLoc(b.Op) || a.Op == OpOther || b.Op == OpOther || a.Loc != b.Loc {
		return false
	}
	return mayWrite(a) || mayWrite(b)
}

// mayWrite reports whether step s writes its location or may write it
// (read-modify-writes, locks and unlocks).
func mayWrite(s *Step) bool {
	return s.Wrote || s.WriteFor != nil || s.Op == OpWrite || s.Op == OpUnlock || s.Op == OpLock || s.Op == OpRMW
}

// failingLast reports whether r is the last step of a thread that failed.
func failingLast(tr *Trace, r Ref) bool {
	th := &tr.Threads[r.T]
	return th.End == EndFailed && int(r.I) == len(th.Steps)-1
}
