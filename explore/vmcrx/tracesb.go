package vmcrx

import (
	"ncmc/explore/vmcr"
	"ncmc/interp"
	"ncmc/seg"
)

// unresolved marks a source whose store was never committed (the run hit
// its step bound): no write of the trace.
var unresolved = vmcr.Ref{T: -3}

// sbBuild builds the trace of a run under a store-buffer model
// (traceOfSB): its tables, in the runner's scratch space sc.
type sbBuild struct {
	r   *vmcrRunner
	sc  *sbScratch
	x   *interp.Execution
	pid []int32 // trace thread of each program thread (-1: none)
	// bufsOf[t]: t's store buffers with a commit in the run.
	bufsOf [][]int32
	ts     [][]vmcr.Step // steps by trace thread
	// By program thread: evStep[t][i] is the step of t that made event i,
	// commitRef[t][i] the commit of store event (t, i), lastStore[t] t's
	// newest store to each location not yet drained.
	evStep    [][]int32
	commitRef [][]vmcr.Ref
	lastStore []storeSet
	// The After lists share afterBuf; order is the trace's order.
	afterBuf, order []vmcr.Ref
	// fixes are the sources and Own commits named by store events,
	// resolved at the end (a load may forward from a store committed
	// later).
	fixes []sbFix
	buf   []vmcr.Step // the array of every thread's steps
	store *runStore   // the arrays of a released trace (or new ones)
	// tsoBuf[t] (tso) is the trace thread of t's store buffer, if t
	// committed in the run.
	tsoBuf []int32
}

// layout sizes the tables for x's run: the trace threads' steps (with
// room for a pending acquire per program thread) in one array, reused
// from a released trace when one is free.
func (b *sbBuild) layout() {
	r, sc, x := b.r, b.sc, b.x
	tt := x.ThreadTable()
	nt := len(tt)
	b.pid = size(sc.pid, nt) // every entry set below
	sc.pid = b.pid
	for t, th := range tt {
		b.pid[t] = -1
		if th != nil {
			b.pid[t] = sc.progID(r.ths, int32(t))
		}
	}
	for len(sc.bufsOf) < nt {
		sc.bufsOf = append(sc.bufsOf, nil)
	}
	b.bufsOf = sc.bufsOf[:nt]
	for t := range b.bufsOf {
		b.bufsOf[t] = b.bufsOf[t][:0]
	}
	sc.stamp++
	if sc.stamp == 0 { // wrapped around
		clear(sc.inRun)
		sc.stamp = 1
	}
	// Steps per trace thread, to lay out one array for all of them:
	// counted by program thread first (program steps, commits), then
	// added up by trace thread.
	cnt := sc.cnt[:0]
	count := func(id int32, n int) {
		for int(id) >= len(cnt) {
			cnt = append(cnt, 0)
		}
		cnt[id] += n
	}
	progSteps := resize(sc.progSteps, nt)
	sc.progSteps = progSteps
	log := x.Log
	for k := range log {
		if a := log[k].Action; !a.Flush {
			progSteps[a.T]++
		}
	}
	for t, id := range b.pid {
		if id >= 0 {
			count(id, 1+progSteps[t]) // with room for a pending acquire
		}
	}
	b.tsoBuf = nil
	if r.pso {
		for k := range x.Commits {
			ev := x.Commits[k].Event
			count(b.bufID(ev.T, x.G.Event(ev).Loc), 1)
		}
	} else {
		// One buffer per thread: numbered (bufID) at the thread's first
		// commit, in the order of the commits, and its commits counted.
		commits := resize(sc.commits, nt)
		tsoBuf := size(sc.tsoBuf, nt) // read only where set
		sc.commits, sc.tsoBuf, b.tsoBuf = commits, tsoBuf, tsoBuf
		for k := range x.Commits {
			ev := x.Commits[k].Event
			if commits[ev.T] == 0 {
				tsoBuf[ev.T] = b.bufID(ev.T, x.G.Event(ev).Loc)
			}
			commits[ev.T]++
		}
		for t, n := range commits {
			if n > 0 {
				count(tsoBuf[t], n)
			}
		}
	}
	sc.cnt = cnt
	total := 0
	for _, n := range cnt {
		total += n
	}
	buf := b.store.steps[:0]
	if cap(buf) < total {
		buf = make([]vmcr.Step, 0, total)
	}
	b.buf = buf
	ts := size(sc.ts, len(cnt)) // every entry set below
	sc.ts = ts
	for id, n := range cnt {
		k := len(buf)
		buf = buf[:k+n]
		ts[id] = buf[k:k:len(buf)]
	}
	b.ts = ts
	b.evStep = size(sc.evStep, nt) // every entry set below
	b.commitRef = size(sc.commitRef, nt)
	sc.evStep, sc.commitRef = b.evStep, b.commitRef
	nev := 0
	for t := range tt {
		if t < len(x.G.Threads) {
			nev += len(x.G.Threads[t])
		}
	}
	ebuf := resize(sc.ebuf, nev)
	cbuf := size(sc.cbuf, nev) // every entry set below
	sc.ebuf, sc.cbuf = ebuf, cbuf
	for k := range cbuf {
		cbuf[k] = unresolved
	}
	for t := range tt {
		if t < len(x.G.Threads) {
			m := len(x.G.Threads[t])
			b.evStep[t], b.commitRef[t] = ebuf[:m:m], cbuf[:m:m]
			ebuf, cbuf = ebuf[m:], cbuf[m:]
		} else {
			b.evStep[t], b.commitRef[t] = nil, nil
		}
	}
	b.afterBuf, b.order = b.store.after[:0], b.store.order[:0]
	for len(sc.lastStore) < nt {
		sc.lastStore = append(sc.lastStore, storeSet{})
	}
	b.lastStore = sc.lastStore[:nt]
	for t := range b.lastStore {
		b.lastStore[t].reset()
	}
	b.fixes = sc.fixes[:0]
}

// bufID is the trace thread of t's store buffer for loc, noted as having
// a commit in the run.
func (b *sbBuild) bufID(t int32, loc int64) int32 {
	sc := b.sc
	id := sc.bufID(b.r.ths, b.r.pso, t, loc)
	for int(id) >= len(sc.inRun) {
		sc.inRun = append(sc.inRun, 0)
	}
	if sc.inRun[id] != sc.stamp {
		sc.inRun[id] = sc.stamp
		b.bufsOf[t] = append(b.bufsOf[t], id)
	}
	return id
}

// addCommit adds the commit of store event ev.
func (b *sbBuild) addCommit(ev seg.EventID) {
	e := b.x.G.Event(ev)
	var id int32
	if b.tsoBuf != nil {
		id = b.tsoBuf[ev.T]
	} else {
		id = b.bufID(ev.T, e.Loc)
	}
	for int(id) >= len(b.ts) {
		b.ts = append(b.ts, nil)
	}
	ts := b.ts
	ref := vmcr.Ref{T: id, I: int32(len(ts[id]))}
	if len(ts[id]) == cap(ts[id]) {
		ts[id] = append(ts[id], vmcr.Step{})
	} else {
		ts[id] = ts[id][:ref.I+1]
	}
	// Built in its slot (a Step is large: no copy).
	st := &ts[id][ref.I]
	*st = vmcr.Step{Op: vmcr.OpWrite, Loc: e.Loc, WVal: e.WVal, Wrote: true}
	k := len(b.afterBuf)
	b.afterBuf = append(b.afterBuf, vmcr.Ref{T: b.pid[ev.T], I: b.evStep[ev.T][ev.I]})
	st.After = b.afterBuf[k:len(b.afterBuf):len(b.afterBuf)]
	b.commitRef[ev.T][ev.I] = ref
	b.order = append(b.order, ref)
}

// lastCommits returns deps and the last commit of each of t's buffers.
func (b *sbBuild) lastCommits(deps []vmcr.Ref, t int32) []vmcr.Ref {
	k := len(b.afterBuf)
	b.afterBuf = append(b.afterBuf, deps...)
	for _, id := range b.bufsOf[t] {
		if n := len(b.ts[id]); n > 0 {
			b.afterBuf = append(b.afterBuf, vmcr.Ref{T: id, I: int32(n - 1)})
		}
	}
	if len(b.afterBuf) == k {
		return nil
	}
	return b.afterBuf[k:len(b.afterBuf):len(b.afterBuf)]
}

// src is the source of the read at for event id: a store event's commit
// is resolved at the end.
func (b *sbBuild) src(at vmcr.Ref, id seg.EventID) vmcr.Ref {
	if id.IsInit() {
		return vmcr.Init
	}
	if b.x.G.Threads[id.T][id.I].Kind == seg.KWrite {
		b.fixes = append(b.fixes, sbFix{at: at, ev: id})
		return unresolved
	}
	return vmcr.Ref{T: b.pid[id.T], I: b.evStep[id.T][id.I]}
}

// steps builds the steps of the run's log and commits.
func (b *sbBuild) steps() {
	r, x := b.r, b.x
	nt := len(b.pid)
	// The tables in locals (b's fields are written back around the calls
	// that use them).
	pid, evStep, ts, evs := b.pid, b.evStep, b.ts, x.G.Threads
	log, commits := x.Log, x.Commits
	order := b.order
	hasTry := len(r.trylock) > 0
	ci := 0
	next := -1 // the step of the next commit (-1: none)
	if len(commits) > 0 {
		next = commits[0].Step
	}
	for k := range log {
		l := &log[k]
		if k == next {
			b.order = order
			for ci < len(commits) && commits[ci].Step == k {
				b.addCommit(commits[ci].Event)
				ci++
			}
			order, ts = b.order, b.ts
			next = -1
			if ci < len(commits) {
				next = commits[ci].Step
			}
		}
		if l.Action.Flush {
			continue
		}
		t := l.Action.T
		me := pid[t]
		// The step is built in its slot (a Step is large: no copy).
		tm := ts[me]
		i := len(tm)
		tm = tm[:i+1]
		ts[me] = tm
		st := &tm[i]
		*st = vmcr.Step{}
		at := vmcr.Ref{T: me, I: int32(i)}
		if l.Fence {
			st.After = b.lastCommits(nil, t)
			b.lastStore[t].reset()
		}
		order = append(order, at)
		ev := l.Event
		if ev.IsInit() {
			continue
		}
		e := &evs[ev.T][ev.I]
		evStep[t][ev.I] = at.I
		st.Loc = e.Loc
		switch e.Kind {
		case seg.KRead:
			st.Op, st.RVal = vmcr.OpRead, e.RVal
			if op := l.RMW; op != nil {
				st.Op = vmcr.OpRMW
				st.WriteFor = op.WriteFor
			} else if hasTry && r.trylock[e.Pos] {
				st.Op = vmcr.OpRMW
				st.WriteFor = lockWrite(x.Handle(t))
			}
			// The source (b.src, by hand).
			switch rf := e.RF; {
			case rf.IsInit():
				st.Src = vmcr.Init
			case evs[rf.T][rf.I].Kind == seg.KWrite:
				b.fixes = append(b.fixes, sbFix{at: at, ev: rf})
				st.Src = unresolved
			default:
				st.Src = vmcr.Ref{T: pid[rf.T], I: evStep[rf.T][rf.I]}
			}
			if st.Op == vmcr.OpRead {
				if i, ok := b.lastStore[t].get(e.Loc); ok {
					st.HasOwn = true
					st.Own = unresolved
					b.fixes = append(b.fixes, sbFix{at: at, own: true, ev: seg.EventID{T: t, I: i}})
				}
			}
		case seg.KRMW:
			st.Op, st.RVal, st.WVal, st.Wrote = vmcr.OpRMW, e.RVal, e.WVal, true
			st.Src = b.src(at, e.RF)
			if op := l.RMW; op != nil {
				st.WriteFor = op.WriteFor
			}
		case seg.KWrite:
			// A buffered store: its commit writes.
			st.Op, st.Loc = vmcr.OpOther, 0
			b.lastStore[t].set(e.Loc, ev.I)
		case seg.KLock:
			st.Op, st.RVal, st.WVal, st.Wrote = vmcr.OpLock, e.RVal, e.WVal, true
			st.Src = b.src(at, e.RF)
			st.WriteFor = lockWrite(e.WVal)
			if hasTry && r.trylock[e.Pos] {
				st.Op = vmcr.OpRMW
			}
		case seg.KUnlock:
			st.Op, st.WVal, st.Wrote = vmcr.OpUnlock, 0, true
		case seg.KSpawn:
			st.Op, st.Other = vmcr.OpSpawn, pidOf(pid, e.Other)
		case seg.KJoin:
			st.Op, st.Other = vmcr.OpJoin, pidOf(pid, e.Other)
			if e.Other >= 0 && int(e.Other) < nt {
				st.After = b.lastCommits(st.After, e.Other)
			}
		}
	}
	b.order = order
	// Sources and Own commits named by store events.
	commitRef := b.commitRef
	for _, f := range b.fixes {
		ref := commitRef[f.ev.T][f.ev.I]
		st := &ts[f.at.T][f.at.I]
		if f.own {
			st.Own = ref
			if ref == unresolved {
				st.HasOwn = false
			}
		} else {
			st.Src = ref
		}
	}
}

// traceOfSB is traceOf under a store-buffer model.
func (r *vmcrRunner) traceOfSB(x *interp.Execution, run *vmcrRun, parkedEnabled bool) *vmcr.Trace {
	sc, _ := r.sbs.Get().(*sbScratch)
	if sc == nil {
		sc = &sbScratch{}
	}
	defer r.sbs.Put(sc)
	b := &sbBuild{r: r, sc: sc, x: x, store: r.getStore()}
	b.layout()
	b.steps()
	sc.fixes = b.fixes
	tt := x.ThreadTable()
	nt := len(tt)
	pid := b.pid
	run.store = b.store
	n := r.ths.size()
	for len(b.ts) < n {
		b.ts = append(b.ts, nil)
	}
	ts := b.ts
	tr := r.newTrace(n)
	tr.InitVal, tr.Order, tr.ParkedEnabled, tr.Payload = x.G.InitVal, b.order, parkedEnabled, run
	for i := range tr.Threads {
		tr.Threads[i].End = vmcr.EndAbsent
	}
	for t, th := range tt {
		if th == nil {
			continue
		}
		vt := &tr.Threads[pid[t]]
		vt.Steps = ts[pid[t]]
		vt.Spawn = vmcr.Init
		if sp := x.G.SpawnedBy[t]; !sp.IsInit() {
			vt.Spawn = vmcr.Ref{T: pid[sp.T], I: b.evStep[sp.T][sp.I]}
		}
		vt.End = endOf(th.Status())
		for _, id := range b.bufsOf[t] {
			tr.Threads[id] = vmcr.Thread{Steps: ts[id], End: vmcr.EndDone, Spawn: vmcr.Init, Buffer: true, Owner: pid[t]}
		}
	}
	// A thread waiting for a lock at the end has a pending acquire (a
	// draining step).
	pendingLocks(x, func(n int32, addr int64) {
		vt := &tr.Threads[pid[n]]
		vt.Steps = append(vt.Steps, vmcr.Step{Op: vmcr.OpLock, Loc: addr, Pending: true, WriteFor: lockWrite(x.Handle(n)), After: b.lastCommits(nil, n)})
	})
	b.store.steps, b.store.after, b.store.order = b.buf[:0], b.afterBuf[:0], b.order[:0]
	// Choices, attached to the program step they precede.
	var ccnt []int
	if len(x.Choices) > 0 {
		ccnt = make([]int, nt)
	}
	logStep := 0
	for _, c := range x.Choices {
		for logStep <= c.Step && logStep < len(x.Log) {
			if a := x.Log[logStep].Action; !a.Flush {
				ccnt[a.T]++
			}
			logStep++
		}
		attachChoice(&tr.Threads[pid[c.T]], ccnt[c.T], vmcr.Choice{N: c.N, K: c.K})
	}
	return tr
}

// sbFix is a source or Own commit named by a store event, resolved at the
// end of traceOfSB (a load may forward from a store committed later).
type sbFix struct {
	at  vmcr.Ref
	own bool
	ev  seg.EventID
}

// sbScratch holds traceOfSB's tables between calls.
type sbScratch struct {
	pid    []int32
	bufsOf [][]int32
	// The trace numbers of program threads and store buffers (numbers
	// never change), cached here to spare vmcrThreads' lock: prog[t] and
	// (tso) buf[t] are t's and its buffer's plus 1 (0: not yet looked up),
	// psoBuf those of (t, loc)'s buffer under pso.
	prog, buf []int32
	psoBuf    map[[2]int64]int32
	// inRun[id] == stamp: buffer id has a commit in the current run.
	inRun     []uint32
	stamp     uint32
	cnt       []int
	progSteps []int // by program thread: steps (layout)
	commits   []int // by program thread: commits (layout, tso)
	tsoBuf    []int32
	ts        [][]vmcr.Step
	evStep    [][]int32
	commitRef [][]vmcr.Ref
	ebuf      []int32
	cbuf      []vmcr.Ref
	lastStore []storeSet
	fixes     []sbFix
}

// progID is the trace number of program thread t.
func (sc *sbScratch) progID(ths *vmcrThreads, t int32) int32 {
	for int(t) >= len(sc.prog) {
		sc.prog = append(sc.prog, 0)
	}
	if sc.prog[t] == 0 {
		sc.prog[t] = ths.id(vmcrKey{T: t}) + 1
	}
	return sc.prog[t] - 1
}

// bufID is the trace number of thread t's store buffer (for loc under
// pso).
func (sc *sbScratch) bufID(ths *vmcrThreads, pso bool, t int32, loc int64) int32 {
	if pso {
		k := [2]int64{int64(t), loc}
		id, ok := sc.psoBuf[k]
		if !ok {
			if sc.psoBuf == nil {
				sc.psoBuf = map[[2]int64]int32{}
			}
			id = ths.id(vmcrKey{T: t, Buf: true, Loc: loc})
			sc.psoBuf[k] = id
		}
		return id
	}
	for int(t) >= len(sc.buf) {
		sc.buf = append(sc.buf, 0)
	}
	if sc.buf[t] == 0 {
		sc.buf[t] = ths.id(vmcrKey{T: t, Buf: true}) + 1
	}
	return sc.buf[t] - 1
}

// size returns a of length n, its contents left as they are
// (reallocated if too small): for tables whose every entry is set.
func size[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	return a[:n]
}

// resize returns a of length n, cleared (reallocated if too small).
func resize[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	a = a[:n]
	clear(a)
	return a
}

// storeSet maps a location to a thread's newest store to it not yet
// drained (its event index): a short list, and a map once the list is
// long (most threads store to few locations between draining steps).
type storeSet struct {
	small []storeEntry
	big   map[int64]int32
}

type storeEntry struct {
	loc int64
	i   int32
}

// maxSmallStores is the length of storeSet's list beyond which it uses
// its map.
const maxSmallStores = 16

func (s *storeSet) reset() {
	s.small = s.small[:0]
	if s.big != nil {
		clear(s.big)
	}
}

func (s *storeSet) get(loc int64) (int32, bool) {
	if len(s.big) > 0 {
		i, ok := s.big[loc]
		return i, ok
	}
	for _, e := range s.small {
		if e.loc == loc {
			return e.i, true
		}
	}
	return 0, false
}

func (s *storeSet) set(loc int64, i int32) {
	if len(s.big) > 0 {
		s.big[loc] = i
		return
	}
	for k := range s.small {
		if s.small[k].loc == loc {
			s.small[k].i = i
			return
		}
	}
	if len(s.small) < maxSmallStores {
		s.small = append(s.small, storeEntry{loc, i})
		return
	}
	if s.big == nil {
		s.big = make(map[int64]int32, 2*maxSmallStores)
	}
	for _, e := range s.small {
		s.big[e.loc] = e.i
	}
	s.big[loc] = i
	s.small = s.small[:0]
}
