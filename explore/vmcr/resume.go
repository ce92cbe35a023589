package vmcr

import "slices"

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
//
// The search follows tr's order as far as it can, so w's schedule usually
// begins with the prefix a rewrite would find, and the rewrite's tables
// cost about 7% of an exploration's instructions. w is left as the search
// made it when the rewrite would find just the common prefix of w.Sched
// and tr.Order (the next step of tr's order is not w's, or conflicts with
// an earlier step of w), or when that prefix already reaches the point
// where tr's run keeps its snapshot (base is tr's witness: base.Keep, or
// the end of its schedule), so that no rewrite could let w resume later.
// On GenMC's synthetic benchmarks (sc, tso) the rewrite is left for 262
// of barrier5's 3,066 witnesses, 24 of hwqueue-ra's 48,844 and none of
// fib_bench's, lastzero's, casw's, indexer's and szymanski's.
func (e *explorer) resumable(tr *Trace, base, w *Witness) {
	n := len(w.Sched)
	if n == 0 || len(tr.Order) == 0 {
		return
	}
	lcp := 0
	for lcp < n && lcp < len(tr.Order) && w.Sched[lcp] == tr.Order[lcp].T {
		lcp++
	}
	// The rewrite (rewrite) takes tr's order step by step and stops at the
	// first step that is not w's or conflicts with an earlier step of w
	// it has not taken; it takes the common prefix, and stops right after
	// it when the next step of tr's order is not w's (its thread has no step
	// in the rest of w: w holds as many of its steps as the prefix) or
	// conflicts with a step of w before it.
	keep := lcp == n || lcp == len(tr.Order)
	if !keep {
		// The next step of tr's order is w's step at position p if its
		// thread has a step in the rest of w, and it is taken only if no
		// step of w before p conflicts with it.
		if p := slices.Index(w.Sched[lcp:], tr.Order[lcp].T); p < 0 {
			keep = true
		} else {
			keep = conflictsBefore(tr, w.Sched, lcp, lcp+p, tr.Order[lcp])
		}
	}
	if keep || base != nil && lcp >= snapAt(base) {
		if lcp > 0 {
			w.Base, w.Same = tr, lcp // w.Sched and so w.Keep stay as the search left them
		}
		return
	}
	e.rewrite(tr, w)
}

// rewrite is resumable's rewrite of w (see there): the longest prefix P of
// tr.Order such that P and then w's other steps in w's order is a
// linearisation of w's conflict order.
func (e *explorer) rewrite(tr *Trace, w *Witness) {
	n := len(w.Sched)
	if n == 0 || len(tr.Order) == 0 {
		return
	}
	sc := &e.res
	nt := len(tr.Threads)
	// wpos[t][i]: the position in w of step (t, i).
	cnt := grow32(&sc.cnt, nt)
	for _, t := range w.Sched {
		if int(t) >= nt {
			return
		}
		cnt[t]++
	}
	wbuf := grow32(&sc.wbuf, n)
	if cap(sc.wpos) < nt {
		sc.wpos = make([][]int32, nt)
	}
	wpos := sc.wpos[:nt]
	off := 0
	for t := range wpos {
		wpos[t] = wbuf[off : off : off+int(cnt[t])]
		off += int(cnt[t])
	}
	// The steps of w that may conflict with another thread's, by key: a
	// location id, spawns (nloc) or failing last steps (nloc+1). Steps of
	// one thread, and steps ordered by spawn, join or After, keep their
	// order in any prefix of tr.Order (a run), so only these are checked.
	nk := tr.nloc + 2
	failKey := int32(tr.nloc + 1)
	kcnt := grow32(&sc.kcnt, nk+1)
	keys := grow32(&sc.keys, n) // key of position p (-1: none)
	writes := growBool(&sc.writes, n)
	fails := growBool(&sc.fails, n) // also key failKey
	for p, t := range w.Sched {
		r := Ref{t, int32(len(wpos[t]))}
		wpos[t] = append(wpos[t], int32(p))
		st := tr.step(r)
		keys[p], writes[p] = conflictKey(tr, st)
		if keys[p] >= 0 {
			kcnt[keys[p]+1]++
		}
		if failingLast(tr, r) {
			fails[p] = true
			kcnt[failKey+1]++
		}
	}
	for k := 0; k < nk; k++ {
		kcnt[k+1] += kcnt[k]
	}
	// byKey[kcnt[k]:kcnt[k+1]]: the positions with key k, in w's order;
	// lo[k]: the first of them not taken.
	byKey := grow32(&sc.byKey, int(kcnt[nk]))
	lo := grow32(&sc.lo, nk)
	copy(lo, kcnt[:nk])
	for p, k := range keys {
		if k >= 0 {
			byKey[lo[k]] = int32(p)
			lo[k]++
		}
		if fails[p] {
			byKey[lo[failKey]] = int32(p)
			lo[failKey]++
		}
	}
	copy(lo, kcnt[:nk])
	taken := growBool(&sc.taken, n)
	// free reports whether no step of key k before position p in w is
	// still to be taken that conflicts with p (w: p writes).
	free := func(k, p int32, w bool) bool {
		for lo[k] < kcnt[k+1] && taken[byKey[lo[k]]] {
			lo[k]++
		}
		for j := lo[k]; j < kcnt[k+1] && byKey[j] < p; j++ {
			if q := byKey[j]; !taken[q] && (w || writes[q] || k == failKey) {
				return false
			}
		}
		return true
	}
	same := 0
	for _, r := range tr.Order {
		if int(r.I) >= len(wpos[r.T]) {
			break
		}
		p := wpos[r.T][r.I]
		if k := keys[p]; k >= 0 && !free(k, p, writes[p]) || fails[p] && !free(failKey, p, true) {
			break
		}
		taken[p] = true
		same++
	}
	if same == 0 {
		return
	}
	// The new schedule overwrites the old one (a copy of it is kept).
	old := append(sc.sched[:0], w.Sched...)
	sc.sched = old
	sched := w.Sched[:0]
	for _, r := range tr.Order[:same] {
		sched = append(sched, r.T)
	}
	for p, t := range old {
		if !taken[p] {
			sched = append(sched, t)
		}
	}
	w.Sched, w.Base, w.Same = sched, tr, same
	w.keepPoint()
}

// conflictsBefore reports whether step r of tr, at position p of
// schedule sched, conflicts with a step at a position in [from, p) (their
// conflict as resumable defines it: one location, one of them may write;
// two spawns; two failing last steps).
func conflictsBefore(tr *Trace, sched []int32, from, p int, r Ref) bool {
	var small [32]int32 // per thread: its steps before the position
	cnt := small[:0]
	if len(tr.Threads) > len(small) {
		cnt = make([]int32, len(tr.Threads))
	} else {
		cnt = small[:len(tr.Threads)]
	}
	for _, t := range sched[:from] {
		cnt[t]++
	}
	kr, wr := conflictKey(tr, tr.step(r))
	fr := failingLast(tr, r)
	for q := from; q < p; q++ {
		u := sched[q]
		s := Ref{u, cnt[u]}
		cnt[u]++
		if int(s.I) >= len(tr.Threads[u].Steps) {
			continue
		}
		if kq, wq := conflictKey(tr, tr.step(s)); kq >= 0 && kq == kr && (wr || wq) || fr && failingLast(tr, s) {
			return true
		}
	}
	return false
}

// conflictKey is the key of step st of tr for resumable's conflicts (-1:
// none): its location id, or for spawns one key after every location;
// writes says whether it may write.
func conflictKey(tr *Trace, st *Step) (key int32, writes bool) {
	switch {
	case st.Op == OpSpawn:
		return int32(tr.nloc), true
	case hasLoc(st.Op) && st.Op != OpOther:
		return st.lid, mayWrite(st)
	}
	return -1, false
}

// snapAt is where the run of witness w keeps its snapshot (when it
// resumed no later): w.Keep, or the end of its schedule.
func snapAt(w *Witness) int {
	if w.Keep <= 0 || w.Keep > len(w.Sched) {
		return len(w.Sched)
	}
	return w.Keep
}

// keepPoint sets w.Keep: the length of the shortest prefix of w.Sched that
// holds the steps the annotation needs (w.need).
func (w *Witness) keepPoint() {
	if w.need == nil {
		return
	}
	left := 0 // needed steps not yet seen
	for _, n := range w.need {
		left += int(n)
	}
	if left == 0 {
		w.Keep = 0
		return
	}
	var small [32]int32 // per thread: steps seen (on the stack for few threads)
	cnt := small[:0]
	if len(w.need) > len(small) {
		cnt = make([]int32, len(w.need))
	} else {
		cnt = small[:len(w.need)]
	}
	need := w.need[:len(cnt)]
	for p, t := range w.Sched {
		if uint(t) >= uint(len(cnt)) {
			continue
		}
		if cnt[t] < need[t] {
			left--
			if left == 0 {
				w.Keep = p + 1
				return
			}
		}
		cnt[t]++
	}
	w.Keep = 0
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

// resScratch holds resumable's tables between calls.
type resScratch struct {
	cnt, wbuf, kcnt, keys, byKey, lo []int32
	sched                            []int32
	wpos                             [][]int32
	writes, fails, taken             []bool
}

// grow32 returns (*p)[:n] cleared, reallocating *p if it is too small.
func grow32(p *[]int32, n int) []int32 {
	if cap(*p) < n {
		*p = make([]int32, n)
	}
	b := (*p)[:n]
	clear(b)
	return b
}

// growBool is grow32 for bools.
func growBool(p *[]bool, n int) []bool {
	if cap(*p) < n {
		*p = make([]bool, n)
	}
	b := (*p)[:n]
	clear(b)
	return b
}
