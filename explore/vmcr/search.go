package vmcr

import (
	"encoding/binary"
	"slices"
)

// wsearch looks for a witness of an annotation over the steps of a trace:
// a schedule in which every annotated read reads from one of its good
// writes. Steps that do not write are taken as soon as they are enabled
// (they cannot disable anything); the search branches only on writes, in
// the order of the trace, and remembers the states it has failed from.
// One wsearch is reused by all searches of an explorer (its buffers keep
// their capacity); tables per location are indexed by dense location id.
type wsearch struct {
	e         *explorer
	consAt    func(t, i int) (cons, bool)
	ann       *node // (nil: consAt) the annotation whose reads are constrained to their good writes
	tr        *Trace
	limit     []int
	need      []int
	finals    []final
	rel       []int32 // location ids that are part of the state key
	relMark   []bool
	pos       []int
	mem       []Ref // per location id: the current write
	trail     []undo
	sched     []int32
	failed    map[string]struct{}
	key       []byte
	states    int
	over      bool
	cancelled bool
	cs        [][]*cons // cs[t][i]: the constraint of read step (t, i) within the limit
	cbuf      []cons
	pend      []int32 // per location id: constrained reads not taken yet, plus finals
	creads    []cread // the constrained reads with a good set
	ocreads   []cread // the other constrained reads
	unsat     []int32 // guidedDFS: the creads the trace does not satisfy
	walked    int     // the length of guidedDFS's walk when its witness was found (0: none)
	walkPos   []int   // pos after that walk
	walkEnd   bool    // dfs starts at the guided walk's end: only the unsat reads may be hopeless
	pend0     []int32 // guidedDFS: pend before the walk
	crFrom    []int32 // creads of location id l: crIdx[crFrom[l]:crFrom[l+1]]
	crIdx     []int32
	solo      []int32  // per location id: the one thread that reads and writes it (within the limits, no final condition), else -1
	seen      []uint32 // per location id: stamp of the last hopelessSince that checked it
	stamp     uint32
	moves     []int
	// fail (>= 0): a failure search (failure.go). Thread fail's last step
	// ends the witness: it is taken only as a branch, never greedily, and
	// nothing is taken after it (the goal must hold right after it).
	fail  int
	failW bool // the failing step writes
	// guided: the witness will run; search first along the trace's own
	// order (guidedDFS).
	guided bool
}

type cread struct {
	t, i int
	lid  int32
	c    *cons
}

// newSearch returns the explorer's search, reset for tr.
func (e *explorer) newSearch(tr *Trace) *wsearch {
	s := e.ws
	if s == nil {
		s = &wsearch{e: e, failed: map[string]struct{}{}}
		e.ws = s
	}
	nt := len(tr.Threads)
	s.tr = tr
	s.consAt, s.ann = nil, nil
	s.walked = 0
	s.limit = resize(s.limit, nt)
	s.need = resize(s.need, nt)
	s.pos = resize(s.pos, nt)
	s.finals = s.finals[:0]
	s.rel = s.rel[:0]
	s.trail = s.trail[:0]
	s.sched = s.sched[:0]
	s.creads, s.ocreads = s.creads[:0], s.ocreads[:0]
	s.states, s.over, s.cancelled = 0, false, false
	s.fail, s.guided = -1, false
	clear(s.failed)
	if cap(s.mem) < tr.nloc {
		s.mem = make([]Ref, tr.nloc)
		s.pend = make([]int32, tr.nloc)
		s.relMark = make([]bool, tr.nloc)
		s.seen = make([]uint32, tr.nloc)
	}
	s.mem = s.mem[:tr.nloc]
	s.pend = s.pend[:tr.nloc]
	s.relMark = s.relMark[:tr.nloc]
	s.seen = s.seen[:tr.nloc]
	for k := range s.mem {
		s.mem[k] = Init
	}
	clear(s.pend)
	clear(s.relMark)
	return s
}

func resize(a []int, n int) []int {
	if cap(a) < n {
		return make([]int, n)
	}
	a = a[:n]
	clear(a)
	return a
}

// addRel makes location id l part of the state key.
func (s *wsearch) addRel(l int32) {
	if !s.relMark[l] {
		s.relMark[l] = true
		s.rel = append(s.rel, l)
	}
}

// setup caches the constraints and counts the pending reads per location.
func (s *wsearch) setup() {
	nt := len(s.tr.Threads)
	if cap(s.cs) < nt {
		s.cs = make([][]*cons, nt)
	}
	s.cs = s.cs[:nt]
	total := 0
	for t := range s.tr.Threads {
		if s.ann != nil {
			total += len(s.ann.annOf(t))
		} else {
			total += min(s.limit[t], len(s.tr.Threads[t].Steps))
		}
	}
	if cap(s.cbuf) < total {
		s.cbuf = make([]cons, 0, total)
	}
	s.cbuf = s.cbuf[:0]
	for t := range s.tr.Threads {
		n := min(s.limit[t], len(s.tr.Threads[t].Steps))
		row := s.cs[t]
		if cap(row) < n {
			row = make([]*cons, n, max(n, 2*cap(row)))
		} else {
			row = row[:n]
			clear(row)
		}
		s.cs[t] = row
		if s.ann != nil {
			s.annCons(t, n)
			continue
		}
		for i := 0; i < n; i++ {
			st := &s.tr.Threads[t].Steps[i]
			if !st.Op.IsRead() {
				continue
			}
			c, ok := s.consAt(t, i)
			if !ok {
				continue
			}
			s.addCons(t, i, st.lid, c)
		}
	}
	for _, f := range s.finals {
		s.pend[f.lid]++
	}
	// The constrained reads by location.
	nl := len(s.mem)
	s.crFrom = resize32(s.crFrom, nl+1)
	for _, r := range s.creads {
		s.crFrom[r.lid+1]++
	}
	for l := 0; l < nl; l++ {
		s.crFrom[l+1] += s.crFrom[l]
	}
	s.crIdx = resize32(s.crIdx, len(s.creads))
	fill := s.solo[:0]
	fill = append(fill, s.crFrom[:nl]...)
	for k, r := range s.creads {
		s.crIdx[fill[r.lid]] = int32(k)
		fill[r.lid]++
	}
	// Locations only one thread reads and writes: the order of its writes
	// against other threads' steps does not matter. Threads claim the
	// locations they write or may write within their limits (the trace's
	// lowest such step per location and thread) and those their
	// constrained reads read.
	s.solo = resize32(fill, nl)
	for l := range s.solo {
		s.solo[l] = -1
	}
	const many = -2
	claim := func(l int32, t int) {
		switch s.solo[l] {
		case -1:
			s.solo[l] = int32(t)
		case int32(t), many:
		default:
			s.solo[l] = many
		}
	}
	mw := s.tr.minWr
	for l := 0; l < nl && l < s.tr.nloc; l++ {
		row := mw[l*nt : (l+1)*nt]
		for t, m := range row {
			if m >= 0 && int(m) < s.limit[t] {
				claim(int32(l), t)
			}
		}
	}
	for _, r := range s.creads {
		claim(r.lid, r.t)
	}
	for _, r := range s.ocreads {
		claim(r.lid, r.t)
	}
	for _, f := range s.finals {
		s.solo[f.lid] = many
	}
}

// annCons caches the constraints of thread t's annotated reads among its
// first n steps (s.ann's annotation): its first decisions, in program
// order.
func (s *wsearch) annCons(t, n int) {
	as := s.ann.annOf(t)
	dec := s.tr.dec[t]
	steps := s.tr.Threads[t].Steps
	for k := range as {
		d := &dec[k]
		if d.choice {
			continue
		}
		if d.step >= n {
			break
		}
		a := &as[k]
		if a.stuck {
			continue
		}
		s.addCons(t, d.step, steps[d.step].lid, cons{mode: mGood, val: a.val, good: a.good})
	}
}

// addCons caches constraint c of read step (t, i) of location id lid.
func (s *wsearch) addCons(t, i int, lid int32, c cons) {
	s.cbuf = append(s.cbuf, c)
	cp := &s.cbuf[len(s.cbuf)-1]
	s.cs[t][i] = cp
	s.pend[lid]++
	if c.mode == mGood {
		s.creads = append(s.creads, cread{t: t, i: i, lid: lid, c: cp})
	} else {
		s.ocreads = append(s.ocreads, cread{t: t, i: i, lid: lid, c: cp})
	}
}

func resize32(a []int32, n int) []int32 {
	if cap(a) < n {
		return make([]int32, n)
	}
	a = a[:n]
	clear(a)
	return a
}

// hopelessSince reports whether some pending read of a location written
// by the trail from index from on (every location if from < 0) can no
// longer read from its good set. Only a write to its location changes
// that.
func (s *wsearch) hopelessSince(from int) bool {
	if from < 0 {
		return s.hopeless(s.creads)
	}
	s.stamp++
	if s.stamp == 0 { // wrapped around
		clear(s.seen)
		s.stamp = 1
	}
	for _, u := range s.trail[from:] {
		// A write, or a read that may write (taking a good write that
		// does not write kills it too); a plain read changes nothing.
		l := u.lid
		if !u.w {
			if !u.rw {
				continue
			}
			l = u.rlid
		}
		if s.seen[l] == s.stamp {
			continue // checked already
		}
		s.seen[l] = s.stamp
		for _, k := range s.crIdx[s.crFrom[l]:s.crFrom[l+1]] {
			if s.hopeless(s.creads[k : k+1]) {
				return true
			}
		}
	}
	return false
}

// hopeless reports whether some pending read of rs can no longer read
// from its good set: the current write is not in it and every write in it
// has run.
func (s *wsearch) hopeless(rs []cread) bool {
	for _, r := range rs {
		if s.pos[r.t] > r.i {
			continue
		}
		if inRefs(s.cur(&s.tr.Threads[r.t].Steps[r.i]), r.c.good) {
			continue
		}
		alive := false
		for _, g := range r.c.good {
			if g.T >= 0 && s.pos[g.T] <= int(g.I) && int(g.I) < s.limit[g.T] {
				alive = true
				break
			}
		}
		if !alive {
			return true
		}
	}
	return false
}

// final is a condition on the last write of a location at the end.
type final struct {
	loc     int64
	lid     int32
	good    []Ref // the last write is one of these (if not nil)
	byVal   bool  // the last value is val
	val     int64
	nonzero bool // the last value is not 0 (a mutex stays held)
}

type mode uint8

const (
	mGood  mode = iota + 1 // read from one of good
	mValue                 // read the value val from any write
	mNeg                   // read the value val from a write beyond the extents neg
)

// cons is what a read must read in a witness.
type cons struct {
	mode mode
	val  int64
	good []Ref
	neg  []int
}

type undo struct {
	t    int32
	lid  int32
	prev Ref
	w    bool
	r    bool // a constrained read
	rw   bool // a constrained read that may write (RMW, CAS, lock)
	rlid int32
}

// search returns a witness of c's annotation over tr's steps, each thread
// u taking at most limit[u] steps, or nil if there is none. With all, every
// thread must run to its end (the observer's reads).
func (e *explorer) search(c *node, tr *Trace, limit []int, all bool) (*Witness, error) {
	e.stats.Searches++
	nt := len(tr.Threads)
	s := e.newSearch(tr)
	copy(s.limit, limit)
	limit = s.limit
	s.ann = c
	var parked map[int32]int
	for t := 0; t < nt; t++ {
		if all {
			s.need[t] = limit[t]
		}
		// The thread's last annotated read decides what it needs: the
		// decisions are in program order, and only the last can be stuck
		// (its thread parks there: fullPart gives it no frontier).
		as := c.annOf(t)
		for k := len(as) - 1; k >= 0; k-- {
			a := &as[k]
			if a.choice {
				continue
			}
			st := tr.dec[t][k].step
			if a.stuck {
				step := &tr.Threads[t].Steps[st]
				s.need[t] = max(s.need[t], st)
				if limit[t] > st {
					limit[t] = st
				}
				if parked == nil {
					parked = map[int32]int{}
				}
				parked[int32(t)] = st
				s.finals = append(s.finals, final{loc: step.Loc, lid: step.lid, good: a.good})
			} else {
				s.need[t] = max(s.need[t], st+1)
			}
			break
		}
		if s.need[t] > limit[t] {
			return nil, nil
		}
	}
	for k, a := range c.obs {
		l := e.obsID[k]
		s.finals = append(s.finals, final{loc: e.opts.Observed[k], lid: l, good: a.good})
	}
	// The state key's locations: those of the constrained reads and final
	// conditions (run adds them after setup, as s.ann is set). Other
	// annotated reads' locations would add the same byte to every key.
	s.guided = true
	ok, err := s.run()
	if !ok || err != nil {
		return nil, err
	}
	// The schedule and (without final conditions, with which every write
	// may matter) the steps needed per thread share one array.
	n := len(s.sched)
	buf := make([]int32, n, n+nt)
	copy(buf, s.sched)
	w := &Witness{Sched: buf[:n:n], Choices: c.choices()}
	if len(parked) > 0 {
		w.Parked = parked
	}
	if len(s.finals) == 0 {
		w.need = buf[n : n+nt : n+nt]
		for t, k := range s.need {
			w.need[t] = int32(k)
		}
		s.keepPoint(w)
	}
	return w, nil
}

// keepPoint sets w.Keep (Witness.keepPoint) for the witness s found: a
// needed step in the guided walk's prefix is at its position in the
// trace's order; only the rest of the schedule is scanned.
func (s *wsearch) keepPoint(w *Witness) {
	if s.walked == 0 {
		w.keepPoint()
		return
	}
	keep, left := 0, 0
	for t, nd := range w.need {
		if nd == 0 {
			continue
		}
		if i := int(nd) - 1; i < s.walkPos[t] {
			keep = max(keep, int(s.tr.tpos[t][i])+1)
		} else {
			left++
		}
	}
	if left > 0 {
		var small [32]int32 // per thread: its steps in the schedule so far
		cnt := small[:0]
		for _, p := range s.walkPos {
			cnt = append(cnt, int32(p))
		}
		for p := s.walked; p < len(w.Sched) && left > 0; p++ {
			t := w.Sched[p]
			if uint(t) >= uint(len(cnt)) {
				continue
			}
			cnt[t]++
			if cnt[t] == w.need[t] {
				left--
				keep = max(keep, p+1)
			}
		}
		if left > 0 {
			keep = 0 // not every needed step is in the schedule
		}
	}
	w.Keep = keep
}

func (s *wsearch) run() (bool, error) {
	s.setup()
	if s.ann != nil { // (other searches set rel themselves)
		for _, r := range s.creads {
			s.addRel(r.lid)
		}
		for _, r := range s.ocreads {
			s.addRel(r.lid)
		}
		for _, f := range s.finals {
			s.addRel(f.lid)
		}
		slices.Sort(s.rel)
	}
	ok := s.guidedDFS() || !s.over && s.dfs(-1)
	s.e.stats.SearchStates += s.states
	if s.cancelled {
		if err := s.e.ctx.Err(); err != nil {
			return false, err
		}
		return false, errStopped
	}
	if s.over {
		return s.fallback()
	}
	if s.e.opts.Queries != nil {
		s.e.opts.Queries(s.query(), ok, s.sched)
	}
	return ok, nil
}

// guidedDFS looks for a witness that begins with as long a prefix of the
// trace's own order (tr.Order) as the annotation allows: it takes the
// trace's steps in their order while each is enabled (a read reads a good
// write), is not a failing last step that waits, and leaves no pending
// read hopeless, then searches on from there. A Runner resumes a run from
// a copy of the trace's state (Witness.Base): the longer the common
// prefix, the fewer steps the run repeats. Without a witness from there it
// undoes everything and reports false: the plain search (dfs(-1)) then
// looks from the start, and the states found failed stay failed. Only for
// searches whose witness runs (guided), without final conditions (an
// observer's writes would need a look-ahead) or a failure search's goal.
func (s *wsearch) guidedDFS() bool {
	if !s.guided || s.fail >= 0 || len(s.finals) > 0 {
		return false
	}
	// Along the trace's order, a constrained read the trace satisfies (it
	// read a good write) cannot turn hopeless before its step: its
	// source has not run yet or is the current write (or its Own commit
	// that it forwards from). So the walk checks only the reads the trace
	// does not satisfy (unsat). Were that ever wrong, the search from the
	// walk's end would find the read hopeless at once, and the plain
	// search from the start would follow: witnesses stay exact.
	s.unsat = s.unsat[:0]
	for k := range s.creads {
		r := &s.creads[k]
		if st := &s.tr.Threads[r.t].Steps[r.i]; st.Pending || !inRefs(st.Src, r.c.good) {
			s.unsat = append(s.unsat, int32(k))
		}
	}
	// The walk keeps no trail: it is undone all at once (reset).
	s.pend0 = append(s.pend0[:0], s.pend...)
	for _, r := range s.tr.Order {
		t := int(r.T)
		i := s.pos[t]
		if i != int(r.I) {
			break
		}
		// Every step before this one in the order has been taken: its
		// thread has started and its After steps have run (next's other
		// tests).
		if i >= s.limit[t] {
			break
		}
		ok, w := s.enabled(t, i)
		if !ok || s.failing(t) {
			break
		}
		st := &s.tr.Threads[t].Steps[i]
		c := s.cs[t][i:]
		read := len(c) > 0 && c[0] != nil
		if w {
			prev := s.mem[st.lid]
			s.mem[st.lid] = r
			if s.killsUnsat(st.lid) {
				s.mem[st.lid] = prev
				break
			}
		} else if read && st.WriteFor != nil && s.killsUnsat(st.lid) {
			break
		}
		if read {
			s.pend[st.lid]--
		}
		s.pos[t]++
		s.sched = append(s.sched, int32(t))
	}
	s.walked = len(s.sched)
	s.walkPos = append(s.walkPos[:0], s.pos...)
	// At the walk's end only the unsat reads can be hopeless (see
	// above): the search from there checks only them first.
	s.walkEnd = true
	ok := s.dfs(-1)
	s.walkEnd = false
	if ok {
		return true
	}
	s.walked = 0
	// dfs undid its own steps unless it ran over its budget: undo them,
	// then the walk's.
	s.undoTo(0)
	clear(s.pos)
	for k := range s.mem {
		s.mem[k] = Init
	}
	copy(s.pend, s.pend0)
	s.sched = s.sched[:0]
	return false
}

// killsUnsat reports whether a read the trace does not satisfy (unsat)
// of location id l is hopeless now.
func (s *wsearch) killsUnsat(l int32) bool {
	for _, k := range s.unsat {
		if s.creads[k].lid == l && s.hopeless(s.creads[k:k+1]) {
			return true
		}
	}
	return false
}

// wval is the value write w stores (at loc for Init).
func (s *wsearch) wval(w Ref, loc int64) int64 {
	if w.T < 0 {
		return s.tr.initVal(loc)
	}
	st := &s.tr.Threads[w.T].Steps[w.I]
	if st.WriteFor != nil {
		if c := s.consOf(int(w.T), int(w.I)); c != nil {
			_, v := st.WriteFor(c.val)
			return v
		}
	}
	return st.WVal
}

// cur is the write read step st would read now: its Own commit while
// that has not run (store forwarding), else memory.
func (s *wsearch) cur(st *Step) Ref {
	if st.HasOwn && s.pos[st.Own.T] <= int(st.Own.I) {
		return st.Own
	}
	return s.mem[st.lid]
}

// reads reports whether c admits reading what read step st reads now.
func (s *wsearch) reads(c *cons, st *Step) bool { return s.accepts(c, s.cur(st), st.Loc) }

// accepts reports whether c admits reading write r of loc.
func (s *wsearch) accepts(c *cons, r Ref, loc int64) bool {
	switch c.mode {
	case mGood:
		return inRefs(r, c.good)
	case mValue:
		return s.wval(r, loc) == c.val
	case mNeg:
		if r.T < 0 || (int(r.T) < len(c.neg) && int(r.I) < c.neg[r.T]) {
			return false
		}
		return s.wval(r, loc) == c.val
	}
	return false
}

func (s *wsearch) started(t int) bool {
	sp := s.tr.Threads[t].Spawn
	return sp.T < 0 || s.pos[sp.T] > int(sp.I)
}

// next reports whether thread t's next step can be taken, and whether it writes.
func (s *wsearch) next(t int) (ok, writes bool) {
	i := s.pos[t]
	if i >= s.limit[t] || !s.started(t) {
		return false, false
	}
	st := &s.tr.Threads[t].Steps[i]
	for _, a := range st.After {
		if a.T >= 0 && s.pos[a.T] <= int(a.I) {
			return false, false
		}
	}
	return s.enabled(t, i)
}

// enabled is next for step i of thread t (its next step, within its limit)
// once its thread has started and its After steps have run.
func (s *wsearch) enabled(t, i int) (ok, writes bool) {
	st := &s.tr.Threads[t].Steps[i]
	switch st.Op {
	case OpJoin:
		c := int(st.Other)
		if c < 0 || c >= len(s.tr.Threads) {
			return false, false
		}
		ct := &s.tr.Threads[c]
		return ct.End == EndDone && s.pos[c] == len(ct.Steps) && s.limit[c] == len(ct.Steps), false
	case OpRead, OpRMW, OpLock:
		c := s.cs[t][i]
		if c == nil || st.Pending && st.Op != OpLock || !s.reads(c, st) {
			return false, false
		}
		if st.WriteFor != nil {
			w, _ := st.WriteFor(c.val)
			return true, w
		}
		return true, st.Wrote
	case OpWrite, OpUnlock:
		return true, true
	}
	return !st.Pending, false
}

func (s *wsearch) consOf(t, i int) *cons {
	if i < len(s.cs[t]) {
		return s.cs[t][i]
	}
	return nil
}

func (s *wsearch) do(t int, writes bool) {
	i := s.pos[t]
	u := undo{t: int32(t), w: writes}
	if i < len(s.cs[t]) && s.cs[t][i] != nil {
		st := &s.tr.Threads[t].Steps[i]
		u.r, u.rw, u.rlid = true, st.WriteFor != nil, st.lid
		s.pend[u.rlid]--
	}
	if writes {
		lid := s.tr.Threads[t].Steps[i].lid
		u.lid = lid
		u.prev = s.mem[lid]
		s.mem[lid] = Ref{int32(t), int32(i)}
	}
	s.trail = append(s.trail, u)
	s.pos[t]++
	s.sched = append(s.sched, int32(t))
}

func (s *wsearch) undoTo(n int) {
	for len(s.trail) > n {
		u := s.trail[len(s.trail)-1]
		s.trail = s.trail[:len(s.trail)-1]
		s.pos[u.t]--
		s.sched = s.sched[:len(s.sched)-1]
		if u.r {
			s.pend[u.rlid]++
		}
		if u.w {
			s.mem[u.lid] = u.prev
		}
	}
}

func (s *wsearch) goal() bool {
	for t, n := range s.need {
		if s.pos[t] < n {
			return false
		}
	}
	for k := range s.finals {
		if f := &s.finals[k]; !s.finalOK(f, s.mem[f.lid]) {
			return false
		}
	}
	return true
}

// finalOK reports whether f holds when w is the last write of its location.
func (s *wsearch) finalOK(f *final, w Ref) bool {
	if f.good != nil && !inRefs(w, f.good) {
		return false
	}
	return !(f.byVal && s.wval(w, f.loc) != f.val || f.nonzero && s.wval(w, f.loc) == 0)
}

func (s *wsearch) stateKey() []byte {
	b := s.key[:0]
	for _, p := range s.pos {
		b = binary.AppendUvarint(b, uint64(p))
	}
	for _, l := range s.rel {
		if s.pend[l] == 0 {
			b = append(b, 0xff)
			continue
		}
		r := s.mem[l]
		b = binary.AppendVarint(b, int64(r.T))
		b = binary.AppendUvarint(b, uint64(r.I))
	}
	s.key = b
	return b
}

func (s *wsearch) dfs(from int) bool {
	s.states++
	if s.states > s.e.opts.MaxSearch {
		s.over = true
		return false
	}
	if s.states&4095 == 0 && (s.e.ctx.Err() != nil || s.e.stopped()) {
		s.over, s.cancelled = true, true
		return false
	}
	mark := len(s.trail)
	// Take every enabled step that does not write, or writes a location
	// no pending read (other than itself) or final condition looks at.
	s.greedy(false)
	if s.goal() {
		return true
	}
	if s.fail >= 0 && s.pos[s.fail] >= s.limit[s.fail] {
		// The failing step ran and the state right after it is not the
		// one asked for.
		s.undoTo(mark)
		return false
	}
	if s.walkEnd && from < 0 {
		s.walkEnd = false
		for _, k := range s.unsat {
			if s.hopeless(s.creads[k : k+1]) {
				s.undoTo(mark)
				return false
			}
		}
	} else if s.hopelessSince(from) {
		s.undoTo(mark)
		return false
	}
	if len(s.failed) > 0 { // (no key to build while no state failed)
		if _, bad := s.failed[string(s.stateKey())]; bad {
			s.undoTo(mark)
			return false
		}
	}
	m0 := len(s.moves)
	for t := range s.pos {
		if ok, w := s.next(t); ok && (w || t == s.fail) {
			s.moves = append(s.moves, t)
		}
	}
	moves := s.moves[m0:]
	if len(moves) == 0 {
		// Only a failing step not needed yet may be left: take it now.
		m := len(s.trail)
		if s.greedy(true) {
			if s.dfs(m) {
				return true
			}
			if s.over {
				return false
			}
			s.undoTo(m)
		}
	}
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && s.tpos(moves[j]) < s.tpos(moves[j-1]); j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
	defer func() { s.moves = s.moves[:m0] }()
	for k := range moves {
		t := s.moves[m0+k]
		m := len(s.trail)
		s.do(t, t != s.fail || s.pos[t] < s.limit[t]-1 || s.failW)
		if s.dfs(m) {
			return true
		}
		if s.over {
			return false
		}
		s.undoTo(m)
	}
	s.failed[string(s.stateKey())] = struct{}{}
	s.undoTo(mark)
	return false
}

// greedy takes every enabled step that does not write, or writes a
// location no pending read (other than itself) or final condition looks
// at. A thread's failing last step (an assertion failure or runtime error
// ends it) waits, unless an annotation needs it or fail is set: taken
// early, it would fail before other threads' failures that may come first
// (the first violation is the execution's outcome). In a failure search
// the failing step of thread s.fail is never taken here, and nothing is
// once it ran. It reports progress.
func (s *wsearch) greedy(fail bool) bool {
	if s.fail >= 0 && s.pos[s.fail] >= s.limit[s.fail] {
		return false // a failure search's failing step ran: nothing follows it
	}
	any := false
	for progress := true; progress; {
		progress = false
		for t := range s.pos {
			for {
				ok, w := s.next(t)
				if !ok || w && !s.free(t) || !fail && !w && s.failing(t) || t == s.fail && s.pos[t] == s.limit[t]-1 {
					break
				}
				s.do(t, w)
				progress, any = true, true
			}
		}
	}
	return any
}

// failing reports whether thread t's next step is its failing last step
// and no annotation needs it.
func (s *wsearch) failing(t int) bool {
	th := &s.tr.Threads[t]
	i := s.pos[t]
	return th.End == EndFailed && i == len(th.Steps)-1 && i >= s.need[t]
}

// free reports whether thread t's next step (a write) can be taken at once:
// no pending read or final condition but the step itself looks at its
// location.
func (s *wsearch) free(t int) bool {
	i := s.pos[t]
	st := &s.tr.Threads[t].Steps[i]
	p := s.pend[st.lid]
	if i < len(s.cs[t]) && s.cs[t][i] != nil {
		p--
	}
	return p == 0 || s.solo[st.lid] == int32(t)
}

func (s *wsearch) tpos(t int) int32 {
	i := s.pos[t]
	if i < len(s.tr.tpos[t]) {
		return s.tr.tpos[t][i]
	}
	return 1 << 30
}
