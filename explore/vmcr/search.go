package vmcr

import (
	"encoding/binary"
	"sort"
)

// wsearch looks for a witness of an annotation over the steps of a trace:
// a schedule in which every annotated read reads from one of its good
// writes. Steps that do not write are taken as soon as they are enabled
// (they cannot disable anything); the search branches only on writes, in
// the order of the trace, and remembers the states it has failed from.
type wsearch struct {
	e         *explorer
	consAt    func(t, i int) *cons
	tr        *Trace
	limit     []int
	need      []int
	finals    []final
	rel       []int64
	pos       []int
	mem       map[int64]Ref
	trail     []undo
	sched     []int32
	failed    map[string]struct{}
	key       []byte
	states    int
	over      bool
	cancelled bool
	cs        [][]*cons     // cs[t][i]: the constraint of read step (t, i) within the limit
	pend      map[int64]int // per location: constrained reads not taken yet, plus finals
	creads    []cread       // the constrained reads with a good set
}

type cread struct {
	t, i int
	loc  int64
	c    *cons
}

// setup caches the constraints and counts the pending reads per location.
func (s *wsearch) setup() {
	s.cs = make([][]*cons, len(s.tr.Threads))
	s.pend = map[int64]int{}
	for t := range s.tr.Threads {
		n := min(s.limit[t], len(s.tr.Threads[t].Steps))
		s.cs[t] = make([]*cons, n)
		for i := 0; i < n; i++ {
			st := &s.tr.Threads[t].Steps[i]
			if !st.Op.IsRead() {
				continue
			}
			c := s.consAt(t, i)
			s.cs[t][i] = c
			if c != nil {
				s.pend[st.Loc]++
				if c.mode == mGood {
					s.creads = append(s.creads, cread{t: t, i: i, loc: st.Loc, c: c})
				}
			}
		}
	}
	for _, f := range s.finals {
		s.pend[f.loc]++
	}
}

// hopeless reports whether some pending read can no longer read from its
// good set: the current write is not in it and every write in it has run.
func (s *wsearch) hopeless() bool {
	for _, r := range s.creads {
		if s.pos[r.t] > r.i {
			continue
		}
		cur := s.cur(r.loc)
		if inRefs(cur, r.c.good) {
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
	loc  int64
	prev Ref
	had  bool
	w    bool
	r    bool // a constrained read
	rloc int64
}

// search returns a witness of c's annotation over tr's steps, each thread
// u taking at most limit[u] steps, or nil if there is none. With all, every
// thread must run to its end (the observer's reads).
func (e *explorer) search(c *node, tr *Trace, limit []int, all bool) (*Witness, error) {
	e.stats.Searches++
	nt := len(tr.Threads)
	s := &wsearch{e: e, tr: tr, limit: limit, need: make([]int, nt), pos: make([]int, nt),
		mem: map[int64]Ref{}, failed: map[string]struct{}{}}
	s.consAt = func(t, i int) *cons {
		as := c.annOf(t)
		k := tr.rdec[t][i]
		if k < 0 || int(k) >= len(as) || as[k].stuck {
			return nil
		}
		return &cons{mode: mGood, val: as[k].val, good: as[k].good}
	}
	relSet := map[int64]bool{}
	parked := map[int32]int{}
	for t := 0; t < nt; t++ {
		if all {
			s.need[t] = limit[t]
		}
		as := c.annOf(t)
		for k, a := range as {
			if a.choice {
				continue
			}
			st := tr.dec[t][k].step
			loc := tr.Threads[t].Steps[st].Loc
			relSet[loc] = true
			if a.stuck {
				s.need[t] = max(s.need[t], st)
				if limit[t] > st {
					limit[t] = st
				}
				parked[int32(t)] = st
				s.finals = append(s.finals, final{loc: loc, good: a.good})
				continue
			}
			s.need[t] = max(s.need[t], st+1)
		}
		if s.need[t] > limit[t] {
			return nil, nil
		}
	}
	for k, a := range c.obs {
		l := e.opts.Observed[k]
		relSet[l] = true
		s.finals = append(s.finals, final{loc: l, good: a.good})
	}
	for l := range relSet {
		s.rel = append(s.rel, l)
	}
	sort.Slice(s.rel, func(i, j int) bool { return s.rel[i] < s.rel[j] })
	ok, err := s.run()
	if !ok || err != nil {
		return nil, err
	}
	w := &Witness{Sched: s.sched, Choices: c.choices()}
	if len(parked) > 0 {
		w.Parked = parked
	}
	return w, nil
}

func (s *wsearch) run() (bool, error) {
	s.setup()
	ok := s.dfs()
	s.e.stats.SearchStates += s.states
	if s.cancelled {
		return false, s.e.ctx.Err()
	}
	if s.over {
		return false, ErrSearchBudget
	}
	return ok, nil
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

func (s *wsearch) cur(loc int64) Ref {
	r, ok := s.mem[loc]
	if !ok {
		return Init
	}
	return r
}

// reads reports whether c admits reading the current write of loc.
func (s *wsearch) reads(c *cons, loc int64) bool {
	r := s.cur(loc)
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
		if c == nil || st.Pending && st.Op != OpLock || !s.reads(c, st.Loc) {
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
		u.r, u.rloc = true, s.tr.Threads[t].Steps[i].Loc
		s.pend[u.rloc]--
	}
	if writes {
		loc := s.tr.Threads[t].Steps[i].Loc
		u.loc = loc
		u.prev, u.had = s.mem[loc]
		s.mem[loc] = Ref{int32(t), int32(i)}
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
			s.pend[u.rloc]++
		}
		if u.w {
			if u.had {
				s.mem[u.loc] = u.prev
			} else {
				delete(s.mem, u.loc)
			}
		}
	}
}

func (s *wsearch) goal() bool {
	for t, n := range s.need {
		if s.pos[t] < n {
			return false
		}
	}
	for _, f := range s.finals {
		cur := s.cur(f.loc)
		if f.good != nil && !inRefs(cur, f.good) {
			return false
		}
		if f.byVal && s.wval(cur, f.loc) != f.val || f.nonzero && s.wval(cur, f.loc) == 0 {
			return false
		}
	}
	return true
}

func (s *wsearch) stateKey() string {
	b := s.key[:0]
	for _, p := range s.pos {
		b = binary.AppendUvarint(b, uint64(p))
	}
	for _, l := range s.rel {
		if s.pend[l] == 0 {
			b = append(b, 0xff)
			continue
		}
		r, ok := s.mem[l]
		if !ok {
			r = Init
		}
		b = binary.AppendVarint(b, int64(r.T))
		b = binary.AppendUvarint(b, uint64(r.I))
	}
	s.key = b
	return string(b)
}

func (s *wsearch) dfs() bool {
	s.states++
	if s.states > s.e.opts.MaxSearch {
		s.over = true
		return false
	}
	if s.states&4095 == 0 && s.e.ctx.Err() != nil {
		s.over, s.cancelled = true, true
		return false
	}
	mark := len(s.trail)
	// Take every enabled step that does not write, or writes a location
	// no pending read (other than itself) or final condition looks at.
	for progress := true; progress; {
		progress = false
		for t := range s.pos {
			for {
				ok, w := s.next(t)
				if !ok || w && !s.free(t) {
					break
				}
				s.do(t, w)
				progress = true
			}
		}
	}
	if s.goal() {
		return true
	}
	if s.hopeless() {
		s.undoTo(mark)
		return false
	}
	k := s.stateKey()
	if _, bad := s.failed[k]; bad {
		s.undoTo(mark)
		return false
	}
	var moves []int
	for t := range s.pos {
		if ok, w := s.next(t); ok && w {
			moves = append(moves, t)
		}
	}
	sort.Slice(moves, func(i, j int) bool {
		return s.tpos(moves[i]) < s.tpos(moves[j])
	})
	for _, t := range moves {
		m := len(s.trail)
		s.do(t, true)
		if s.dfs() {
			return true
		}
		if s.over {
			return false
		}
		s.undoTo(m)
	}
	s.failed[k] = struct{}{}
	s.undoTo(mark)
	return false
}

// free reports whether thread t's next step (a write) can be taken at once:
// no pending read or final condition but the step itself looks at its
// location.
func (s *wsearch) free(t int) bool {
	i := s.pos[t]
	st := &s.tr.Threads[t].Steps[i]
	p := s.pend[st.Loc]
	if i < len(s.cs[t]) && s.cs[t][i] != nil {
		p--
	}
	return p == 0
}

func (s *wsearch) tpos(t int) int32 {
	i := s.pos[t]
	if i < len(s.tr.tpos[t]) {
		return s.tr.tpos[t][i]
	}
	return 1 << 30
}
