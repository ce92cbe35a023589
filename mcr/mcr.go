// Package mcr implements maximal causality reduction (MCR) under sequential
// consistency: from one observed execution it builds ordering constraints
// (must-happen-before, lock mutual exclusion, value-based read validity),
// asks the SMT solver for reorderings in which one read returns a value it
// has not returned yet, and turns each model into a seed: a schedule prefix
// that the interpreter replays before continuing with its default scheduler.
//
// Pivots, each giving at most one seed:
//   - every read after the frozen prefix, for every other value written to
//     its location (or its initial value): "r reads v";
//   - in a complete execution, the final value of every observed location,
//     for every other value written to it ("the last write to x writes v"),
//     so that final states that no read observes are reached too;
//   - every pair of threads that each hold one lock while requesting the
//     other's ("deadlock"), so lock-order deadlocks are found although no
//     read distinguishes them;
//   - every nondeterministic choice (nondet values) after the frozen prefix,
//     for every other alternative (no solving needed).
//
// The encoding (see research/mcr-and-ncmc.md §1.3) is the maximal causal
// model with value-based validity: a read keeps its value if it reads from
// some write of the same value (or the initial value) with no write of a
// different value in between. Rather than the thesis's recursive Φ_rw, every
// read placed before the pivot must be valid ("O_r < O_e ∨ valid(e)"); this
// covers the feasibility of interfering writes placed before the chosen
// write, since their own reads are then constrained too. The prefix of a seed
// is the smallest set of events the model needs (the pivot, its program-order
// predecessors, the writes each included read reads from, the unlocks that
// included lock acquisitions must follow, spawns and joined threads), plus
// the frozen steps, ordered as in the model.
package mcr

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"ncmc/seg"
	"ncmc/smt"
)

// Step is one step of an observed execution: thread T's visible step, or
// (Flush) the write-back of a buffered store. Event is its main event in the
// graph (seg.Init if none); Atomic the id of its atomic section (0: none).
type Step struct {
	T      int32
	Flush  bool
	Loc    int64
	Event  seg.EventID
	Atomic int
	// Fence marks steps that empty their thread's store buffer first (TSO/PSO).
	Fence bool
	// MayWrite marks a read that writes when it reads another value (a
	// failed compare-and-swap).
	MayWrite bool
	// WriteFor, for an RMW or compare-and-swap step, says whether it writes
	// and what when it reads old (nil: unknown; then, as a pivot, no other
	// read of its location may fall between it and the cutoff).
	WriteFor func(old int64) (bool, int64)
}

// Model is the memory model of a trace.
type Model uint8

// Memory models MCR handles.
const (
	SC  Model = iota
	TSO       // one FIFO store buffer per thread
	PSO       // one FIFO store buffer per thread and location
)

// Commit records that buffered store Event became visible during step Step.
type Commit struct {
	Event seg.EventID
	Step  int
}

// Choice is a nondeterministic choice made by thread T during step Step
// (-1: before any step): K of N alternatives.
type Choice struct {
	T    int32
	N, K int
	Step int
}

// Trace is an observed execution.
type Trace struct {
	G       *seg.Graph
	Steps   []Step
	Choices []Choice
	// Frozen is the number of leading steps replayed from the seed. They stay
	// in every seed derived from this trace with their values, but not
	// necessarily in their order (a total order would lose behaviours: later
	// steps could never move before a frozen write); only reads after them are
	// pivoted, so every seed strictly extends its parent's set of fixed steps.
	Frozen int
	// FrozenChoices is the number of choices of each thread fixed by the seed.
	FrozenChoices map[int32]int
	// Complete reports that every thread finished: final values are pivots.
	Complete bool
	// FinalLocs are the locations whose final values are observed.
	FinalLocs []int64
	// FrozenFinals are final values fixed by the seed (from final-value
	// pivots): they are kept, and not pivoted again.
	FrozenFinals map[int64]int64
	// Model is the memory model the trace ran under: SC, or TSO/PSO with
	// store buffers (stores become visible at a flush step or when a fence-like
	// step drains the buffer, as listed in Commits).
	Model Model
	// Commits says when each buffered store became visible (TSO/PSO).
	Commits []Commit
	// Waiting lists the threads that wait for a mutex at the end of an
	// incomplete execution: their lock requests are not in Steps, so no
	// read pivot can let them take the mutex first (waiterPivots does).
	Waiting []Waiter
	// Continues reports that executions go on after a violation (the
	// failing thread stops, the others run on), so a step followed by a
	// failure may be part of a seed.
	Continues bool
}

// Waiter is thread T waiting, at the end of a trace, to acquire Mutex;
// Lock is the event its acquisition makes.
type Waiter struct {
	T     int32
	Mutex int64
	Lock  Expect
}

// Expect is what a replayed step must produce.
type Expect struct {
	Kind     seg.Kind
	HasEvent bool
	Loc      int64
	RVal     int64
	WVal     int64
	// AnyWVal marks the pivot read: its written value (RMW) follows from the
	// new read value, and a CAS may now succeed (RMW) or fail (read).
	AnyWVal bool
	// LeavesAtomic marks a pivot read inside an atomic section after which
	// the seed schedules other steps: the seed assumes that, with the new
	// value, the thread leaves the section within this step (the query
	// "the section ends with the pivot"). Whether it does depends on the
	// program's control flow, which the trace does not show; if the thread
	// is still inside the section after the step, the seed is infeasible
	// (ErrSectionOpen), and the seed of the query "the section stays open"
	// covers those executions.
	LeavesAtomic bool
}

// ErrSectionOpen is what a replay reports for a seed whose pivot was
// marked Expect.LeavesAtomic when the pivot's thread stays inside its
// atomic section: the seed is infeasible and is dropped, not a divergence.
var ErrSectionOpen = errors.New("mcr: the pivot's atomic section stays open: seed infeasible")

// Seed is a schedule prefix to replay, with per-thread choices.
type Seed struct {
	Steps   []Step
	Expect  []Expect
	Choices map[int32][]int
	// Finals are the final values this seed fixes (final-value pivots only).
	Finals map[int64]int64
	// Why says which pivot produced the seed (the read and its new value, a
	// final value, a deadlock or a choice); ID and Parent number the seed and
	// the seed whose execution produced it (set by the explorer), for provenance.
	Why        string
	ID, Parent int
}

// Key identifies a seed (identical seeds give identical executions).
func (s *Seed) Key() string {
	var b strings.Builder
	for _, st := range s.Steps {
		if st.Flush {
			fmt.Fprintf(&b, "f%d:%d,", st.T, st.Loc)
		} else {
			fmt.Fprintf(&b, "%d,", st.T)
		}
	}
	ts := make([]int, 0, len(s.Choices))
	for t := range s.Choices {
		ts = append(ts, int(t))
	}
	sort.Ints(ts)
	for _, t := range ts {
		fmt.Fprintf(&b, "|%d:%v", t, s.Choices[int32(t)])
	}
	if len(s.Finals) > 0 {
		locs := make([]int64, 0, len(s.Finals))
		for l := range s.Finals {
			locs = append(locs, l)
		}
		sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
		for _, l := range locs {
			fmt.Fprintf(&b, "|F%d=%d", l, s.Finals[l])
		}
	}
	return b.String()
}

// FrozenKey identifies what a seed fixes, not the order it gives it: the
// steps of each thread with the values they read and write (Expect), the
// number of store-buffer flushes of each thread and location, the choices
// and the final values. Seeds with equal frozen keys fix the same steps with
// the same values. Exploring one of them is enough: a seed's descendants
// pivot only reads after its frozen steps, and every query lets the frozen
// steps take any order that keeps their values (prefixConstraints), so the
// order of a seed is not something its descendants have to cover. Different
// schedules of the same frozen set were the main source of redundant
// executions (a generated program with four threads writing one location:
// 7,588 executions for 150 read-value classes under SC, 733 with this key;
// the differential tests check that no outcome is lost).
func (s *Seed) FrozenKey() string {
	type group struct {
		t     int32
		flush bool
		loc   int64
	}
	per := map[group][]string{}
	for i, st := range s.Steps {
		if st.Flush {
			g := group{st.T, true, st.Loc}
			per[g] = append(per[g], "f")
			continue
		}
		e := s.Expect[i]
		g := group{t: st.T}
		per[g] = append(per[g], fmt.Sprintf("%d/%v/%d/%d/%d/%v/%v", e.Kind, e.HasEvent, e.Loc, e.RVal, e.WVal, e.AnyWVal, e.LeavesAtomic))
	}
	gs := make([]group, 0, len(per))
	for g := range per {
		gs = append(gs, g)
	}
	slices.SortFunc(gs, func(a, b group) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		if a.flush != b.flush {
			if a.flush {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.loc, b.loc)
	})
	var b strings.Builder
	for _, g := range gs {
		if g.flush {
			fmt.Fprintf(&b, "f%d:%d=%d;", g.t, g.loc, len(per[g]))
		} else {
			fmt.Fprintf(&b, "%d=%s;", g.t, strings.Join(per[g], ","))
		}
	}
	for _, t := range sortedKeys(s.Choices) {
		fmt.Fprintf(&b, "|%d:%v", t, s.Choices[t])
	}
	for _, l := range sortedKeys(s.Finals) {
		fmt.Fprintf(&b, "|F%d=%d", l, s.Finals[l])
	}
	return b.String()
}

// Options configure seed generation.
type Options struct {
	QueryTimeout time.Duration // per SMT query (0: 10s)
	// Scoped, if set, is the NCMC thesis's rule for pivots of reads inside
	// linearizable invocations (thesis.go).
	Scoped ScopedRule
}

// Stats count the work of seed generation.
type Stats struct {
	Queries int
	Sat     int
	Unsat   int
	Unknown int
	SMTTime time.Duration
}

// Generator produces seeds from traces. It owns one SMT solver and is not
// safe for concurrent use: use one per worker.
type Generator struct {
	opts   Options
	solver *smt.Solver
	Stats  Stats
}

// NewGenerator returns a generator with its own solver.
func NewGenerator(opts Options) *Generator {
	if opts.QueryTimeout == 0 {
		opts.QueryTimeout = 10 * time.Second
	}
	return &Generator{opts: opts, solver: smt.New(smt.Options{Timeout: opts.QueryTimeout})}
}

// Close releases the solver.
func (g *Generator) Close() { g.solver.Close() }

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
	// terminal lists steps after which the execution stopped with a
	// violation: no seed may contain them (nothing can run after them).
	terminal []int
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
		for k, w := range ws {
			fs = append(fs, a.lt(w, a.visItem(w)))
			for _, w2 := range ws[k+1:] { // FIFO: TSO per thread, PSO per location
				if a.tr.Model == TSO || a.ev[w2].Loc == a.ev[w].Loc {
					fs = append(fs, a.lt(a.visItem(w), a.visItem(w2)))
				}
			}
		}
		for _, d := range a.thr[t] { // fence-like steps empty the buffer first
			if !a.tr.Steps[d].Fence {
				continue
			}
			for _, w := range ws {
				if w < d {
					fs = append(fs, a.lt(a.visItem(w), d))
				}
			}
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
	for _, e := range a.reads {
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
	for _, e := range a.reads {
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

// Seeds returns the seeds of every pivot of tr. If ctx is cancelled or its
// deadline passes (also inside a solver query), the error is
// context.Canceled or context.DeadlineExceeded (errors.Is); other errors are
// failures of the solver (a query timeout of Options.QueryTimeout, Z3
// giving up or failing).
func (g *Generator) Seeds(ctx context.Context, tr *Trace) ([]Seed, error) {
	a, err := g.analyse(tr)
	if err != nil {
		return nil, err
	}
	s := g.solver
	s.ResetWith(a.b)
	s.Assert(a.mhb())
	var seeds []Seed
	seen := map[string]bool{}
	add := func(sd Seed) {
		k := sd.FrozenKey()
		if !seen[k] {
			seen[k] = true
			seeds = append(seeds, sd)
		}
	}

	// 1. Reads after the frozen prefix: each other value.
	for _, r := range a.reads {
		if r < tr.Frozen {
			continue
		}
		for _, end := range a.pivotEnds(r) {
			if err := g.readPivots(ctx, a, r, end, add); err != nil {
				return seeds, err
			}
		}
	}

	// 2. Final values of observed locations.
	if tr.Complete {
		if err := g.finalPivots(ctx, a, add); err != nil {
			return seeds, err
		}
	}

	// 3. Lock-order deadlocks between two threads.
	if err := g.deadlockPivots(ctx, a, add); err != nil {
		return seeds, err
	}

	// 3b. Threads left waiting for a mutex that another thread never
	// released: they take it first.
	if err := g.waiterPivots(ctx, a, add); err != nil {
		return seeds, err
	}

	// 4. Nondeterministic choices: no solving, the observed order is a model.
	g.choicePivots(a, add)
	return seeds, nil
}

// readPivots adds the seeds of the pivots of read r (each other value, and
// the same value from another source), with r's atomic section ending as
// end says.
func (g *Generator) readPivots(ctx context.Context, a *analysis, r int, end secEnd, add func(Seed)) error {
	vals := a.candidateValues(r)
	srcs := a.sameValueSources(r)
	if len(vals)+len(srcs) == 0 {
		return nil
	}
	s := g.solver
	s.Push()
	defer s.Pop()
	pf, c := a.pivotPrefix(r, end)
	s.Assert(pf)
	why := func(v int64) string {
		w := fmt.Sprintf("step %d (%s) reads %d", r, a.tr.G.Label(a.ev[r]), v)
		switch end {
		case secOpen:
			w += " (atomic section open)"
		case secAtPivot:
			w += " (atomic section ends)"
		}
		return w
	}
	for k := range len(vals) + len(srcs) {
		var v int64
		var f smt.Formula
		if k < len(vals) {
			v = vals[k]
			f = a.validFor(r, v)
		} else {
			// The same value from another write (or the initial value): the
			// value-based pivots alone cannot move r before (or after) a
			// write it read from in this execution.
			v = a.ev[r].RVal
			f = a.readsFrom(r, srcs[k-len(vals)])
		}
		nv := a.b.True() // the other reads of r's location, with r's new write
		if a.rewrites(r) {
			nv = a.afterPivot(c, r, v)
			f = a.b.And(f, nv)
		}
		if g.opts.Scoped != nil {
			sf, ok := g.scopedRule(a, r, k, vals, srcs)
			if !ok {
				continue
			}
			f = a.b.And(f, sf)
		}
		ok, err := g.valuePivot(ctx, a, r, v, f, end, why(v), add)
		if err != nil {
			return err
		}
		if k < len(vals) && ok && g.opts.Scoped == nil {
			if err := g.sourcePivots(ctx, a, r, vals[k], nv, end, why(vals[k]), add); err != nil {
				return err
			}
		}
	}
	return nil
}

// valuePivot solves the pivot "r reads v" given by formula f (on top of the
// asserted pivot prefix) and adds its seeds: the minimal one and, if it
// freezes more, the one that keeps the observed order before r. It reports
// whether the pivot is satisfiable.
func (g *Generator) valuePivot(ctx context.Context, a *analysis, r int, v int64, f smt.Formula, end secEnd, why string, add func(Seed)) (bool, error) {
	s := g.solver
	s.Push()
	defer s.Pop()
	s.Assert(f)
	ok, err := g.check(ctx)
	if err != nil || !ok {
		return false, err
	}
	sd := a.seed(g.model(a), []int{r}, r, v, end)
	sd.Why = why
	add(sd)
	// Also a seed that keeps as much of the observed order before r as
	// possible: the minimal seed leaves unrelated steps to the default
	// scheduler, which may run them later than every interleaving with
	// r = v that needs them early.
	if !a.mayKeepMore(sd, r) {
		return true, nil
	}
	pref, err := g.preferObserved(ctx, a, r)
	if err != nil {
		return true, err
	}
	if pref != nil {
		keep := a.seed(pref, append([]int{r}, a.observedBefore(pref, r)...), r, v, end)
		keep.Why = why + " (observed order kept)"
		if a.material(sd, keep) {
			add(keep)
		}
	}
	return true, nil
}

// sourcePivots adds, for a satisfiable pivot "r reads v", one seed per
// source of v (the initial value, or a write of v) that r can read from:
// the value-based query lets the model pick the source, and the seed then
// freezes that source and whatever it needs, which other executions with
// r = v may not contain (seed 1635 under other Z3 random seeds). nv (true if
// r does not rewrite) is the validity of the other reads with r's new write (afterPivot). Not with
// Options.Scoped (the thesis rule decides about pivots itself).
func (g *Generator) sourcePivots(ctx context.Context, a *analysis, r int, v int64, nv smt.Formula, end secEnd, why string, add func(Seed)) error {
	s := g.solver
	loc := a.ev[r].Loc
	var ws []int
	if a.tr.G.InitVal[loc] == v {
		ws = append(ws, -1)
	}
	for _, w := range a.writes[loc] {
		if w != r && a.ev[w].WVal == v {
			ws = append(ws, w)
		}
	}
	if len(ws) < 2 {
		return nil
	}
	for _, w := range ws {
		s.Push()
		s.Assert(a.readsFrom(r, w))
		s.Assert(nv)
		ok, err := g.check(ctx)
		if err != nil {
			s.Pop()
			return err
		}
		if ok {
			sd := a.seed(g.model(a), []int{r}, r, v, end)
			sd.Why = fmt.Sprintf("%s from %s", why, a.srcName(w))
			add(sd)
		}
		s.Pop()
	}
	return nil
}

func (a *analysis) srcName(w int) string {
	if w < 0 {
		return "the initial value"
	}
	return fmt.Sprintf("step %d", w)
}

// preferObserved extends the satisfiable pivot query of read r (asserted on
// the solver) with, thread by thread, the longest program-order prefix of the
// steps the thread took before r in the observed execution that can still
// precede r, and returns the final model (nil if the query is not satisfiable).
func (g *Generator) preferObserved(ctx context.Context, a *analysis, r int) ([]int64, error) {
	s := g.solver
	s.Push()
	defer s.Pop()
	ts := make([]int32, 0, len(a.thr))
	for _, t := range sortedKeys(a.thr) {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	rt := a.tr.Steps[r].T
	for _, t := range ts {
		if t == rt {
			continue
		}
		var cand []int
		for _, i := range a.thr[t] {
			if i < r {
				cand = append(cand, i)
			}
		}
		// Binary search for the longest prefix cand[:k] that can precede r.
		lo, hi := 0, len(cand)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			s.Push()
			s.Assert(a.lt(cand[mid-1], r))
			ok, err := g.check(ctx)
			s.Pop()
			if err != nil {
				return nil, err
			}
			if ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if lo > 0 {
			s.Assert(a.lt(cand[lo-1], r))
		}
	}
	ok, err := g.check(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return g.model(a), nil
}

// mayKeepMore reports whether some other thread took, before r in the
// observed execution, a memory access or lock operation that the minimal
// seed min leaves out: only then can keeping the observed order matter.
func (a *analysis) mayKeepMore(min Seed, r int) bool {
	in := map[seg.EventID]bool{}
	for _, st := range min.Steps {
		if !st.Flush {
			in[st.Event] = true
		}
	}
	rt := a.tr.Steps[r].T
	for i := 0; i < r; i++ {
		st := a.tr.Steps[i]
		if st.T == rt || st.Flush || in[st.Event] || a.ev[i] == nil {
			continue
		}
		switch a.ev[i].Kind {
		case seg.KRead, seg.KWrite, seg.KRMW, seg.KLock, seg.KUnlock:
			return true
		}
	}
	return false
}

// material reports whether seed keep freezes some memory access or lock
// operation that seed min does not: otherwise both lead to the same
// execution, up to steps (spawns, joins, fences) that no pivot depends on.
func (a *analysis) material(min, keep Seed) bool {
	type key struct {
		t  int32
		id seg.EventID
		fl bool
	}
	in := map[key]bool{}
	for _, st := range min.Steps {
		in[key{st.T, st.Event, st.Flush}] = true
	}
	for i, st := range keep.Steps {
		if in[key{st.T, st.Event, st.Flush}] {
			continue
		}
		if st.Flush {
			return true
		}
		switch keep.Expect[i].Kind {
		case seg.KRead, seg.KWrite, seg.KRMW, seg.KLock, seg.KUnlock:
			if keep.Expect[i].HasEvent {
				return true
			}
		}
	}
	return false
}

// observedBefore lists the steps that precede r in the model.
func (a *analysis) observedBefore(model []int64, r int) []int {
	var roots []int
	for i := 0; i < a.n; i++ {
		if model[i] < model[r] {
			roots = append(roots, i)
		}
	}
	return roots
}

// sameValueSources lists the other sources of r's value: the writes of the
// same value other than the one r read from, and -1 for the initial value if
// r did not read it.
func (a *analysis) sameValueSources(r int) []int {
	ev := a.ev[r]
	var srcs []int
	if !ev.RF.IsInit() && a.tr.G.InitVal[ev.Loc] == ev.RVal {
		srcs = append(srcs, -1)
	}
	for _, w := range a.writes[ev.Loc] {
		if w != r && a.ev[w].WVal == ev.RVal && a.ev[w].ID != ev.RF {
			srcs = append(srcs, w)
		}
	}
	return srcs
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

func (a *analysis) candidateValues(r int) []int64 {
	ev := a.ev[r]
	seen := map[int64]bool{ev.RVal: true}
	var vals []int64
	if iv := a.tr.G.InitVal[ev.Loc]; !seen[iv] {
		seen[iv] = true
		vals = append(vals, iv)
	}
	for _, w := range a.writes[ev.Loc] {
		if v := a.ev[w].WVal; w != r && !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return vals
}

func (g *Generator) check(ctx context.Context) (bool, error) {
	t0 := time.Now()
	res, err := g.solver.Check(ctx)
	g.Stats.SMTTime += time.Since(t0)
	g.Stats.Queries++
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			// The solver's timeout was shortened to ctx's deadline and
			// expired a moment before ctx itself reports it: an
			// interruption, not a failure of the solver.
			return false, err
		}
		g.Stats.Unknown++
		return false, fmt.Errorf("mcr: solver gave up: %w", err)
	}
	switch res {
	case smt.Sat:
		g.Stats.Sat++
		return true, nil
	case smt.Unsat:
		g.Stats.Unsat++
		return false, nil
	}
	g.Stats.Unknown++
	return false, fmt.Errorf("mcr: solver answered unknown")
}

// model returns the position of every step in the solver's model.
func (g *Generator) model(a *analysis) []int64 {
	m := make([]int64, len(a.o))
	for i, v := range a.o { // steps and commit items
		val, ok := g.solver.Value(v)
		if !ok {
			val = int64(i) // unconstrained: any value is fine
		}
		m[i] = val
	}
	return m
}

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

func (g *Generator) finalPivots(ctx context.Context, a *analysis, add func(Seed)) error {
	s := g.solver
	n := len(a.o)
	var pinned []smt.Formula
	for _, loc := range sortedKeys(a.tr.FrozenFinals) {
		v := a.tr.FrozenFinals[loc]
		pinned = append(pinned, a.finalIs(loc, v))
	}
	for _, loc := range a.tr.FinalLocs {
		if _, ok := a.tr.FrozenFinals[loc]; ok {
			continue
		}
		ws := a.writes[loc]
		if len(ws) == 0 {
			continue
		}
		last := ws[0]
		for _, w := range ws {
			if a.visStep(w) > a.visStep(last) {
				last = w
			}
		}
		final := a.ev[last].WVal
		seen := map[int64]bool{final: true}
		for _, w := range ws {
			v := a.ev[w].WVal
			if seen[v] {
				continue
			}
			seen[v] = true
			s.Push()
			// Everything is in the prefix: a cutoff after every step.
			end := a.b.NewVar("END")
			var after []smt.Formula
			for i := 0; i < n; i++ {
				after = append(after, a.b.Lt(a.o[i], end))
			}
			s.Assert(a.b.And(after...))
			s.Assert(a.prefixConstraints(cutoff{end}, -1, secObserved))
			s.Assert(a.b.And(pinned...))
			s.Assert(a.finalIs(loc, v))
			ok, err := g.check(ctx)
			if err != nil {
				s.Pop()
				return err
			}
			if ok {
				all := make([]int, n)
				for i := range all {
					all[i] = i
				}
				sd := a.seed(g.model(a), all, -1, 0, secObserved)
				sd.Finals = map[int64]int64{loc: v}
				for _, l := range sortedKeys(a.tr.FrozenFinals) {
					fv := a.tr.FrozenFinals[l]
					sd.Finals[l] = fv
				}
				sd.Why = fmt.Sprintf("final value of %s is %d", a.tr.G.Loc(loc), v)
				add(sd)
			}
			s.Pop()
		}
	}
	return nil
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

// holdRequest: thread t holds mutex held (pair p) and requests mutex want at step req.
type holdRequest struct {
	t         int32
	lock      int
	held      int64
	req       int
	want      int64
	beforeReq int
}

func (g *Generator) deadlockPivots(ctx context.Context, a *analysis, add func(Seed)) error {
	var hrs []holdRequest
	for _, p := range a.pairs {
		steps := a.thr[p.t]
		for k := a.posInT[p.a] + 1; k < len(steps); k++ {
			i := steps[k]
			if p.b >= 0 && i >= p.b {
				break
			}
			if e := a.ev[i]; e != nil && e.Kind == seg.KLock && e.Loc != p.mutex && i >= a.tr.Frozen {
				hrs = append(hrs, holdRequest{t: p.t, lock: p.a, held: p.mutex, req: i, want: e.Loc, beforeReq: steps[k-1]})
			}
		}
	}
	for x, h1 := range hrs {
		for _, h2 := range hrs[x+1:] {
			if h1.t == h2.t || h1.held != h2.want || h2.held != h1.want {
				continue
			}
			c := cutoff{a.b.NewVar("CUT")}
			fs := []smt.Formula{a.b.Lt(a.o[h1.beforeReq], c.v), a.b.Lt(a.o[h2.beforeReq], c.v),
				a.after(c, h1.req), a.after(c, h2.req)}
			err := g.solvePrefix(ctx, a, c, fs, func() {
				sd := a.seed(g.model(a), []int{h1.beforeReq, h2.beforeReq}, -1, 0, secObserved)
				sd.Why = fmt.Sprintf("deadlock: t%d holds %s and requests %s, t%d the reverse", h1.t, a.tr.G.Loc(h1.held), a.tr.G.Loc(h1.want), h2.t)
				add(sd)
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// waiterPivots: in an execution that ends with thread W waiting for mutex m
// held by a thread H that never releases it (H blocked for good: a failed
// await, a deadlock), W's request is not a step of the trace, so no read
// pivot lets W acquire m before H (seed 5998 of the differential test:
// H's section awaits a value that only W's section writes). For each such
// W and H, if H's acquisition is not frozen, a seed runs W's observed steps
// with H's acquisition after the cutoff and every other section on m in the
// prefix closed, then W's acquisition.
// solvePrefix asks whether fs and the prefix constraints of cutoff c are
// satisfiable and, if so, calls found while the model is available.
func (g *Generator) solvePrefix(ctx context.Context, a *analysis, c cutoff, fs []smt.Formula, found func()) error {
	s := g.solver
	s.Push()
	defer s.Pop()
	s.Assert(a.b.And(fs...))
	s.Assert(a.prefixConstraints(c, -1, secObserved))
	ok, err := g.check(ctx)
	if err == nil && ok {
		found()
	}
	return err
}

func (g *Generator) waiterPivots(ctx context.Context, a *analysis, add func(Seed)) error {
	for _, w := range a.tr.Waiting {
		for _, h := range a.pairs {
			if h.mutex != w.Mutex || h.b >= 0 || h.t == w.T || h.a < a.tr.Frozen {
				continue
			}
			c := cutoff{a.b.NewVar("CUTW")}
			fs := []smt.Formula{a.after(c, h.a)}
			var roots []int
			if steps := a.thr[w.T]; len(steps) > 0 {
				last := steps[len(steps)-1]
				fs = append(fs, a.b.Lt(a.o[last], c.v))
				roots = append(roots, last)
			} else if sp, ok := a.spawn[w.T]; ok {
				fs = append(fs, a.b.Lt(a.o[sp], c.v))
				roots = append(roots, sp)
			}
			for _, q := range a.pairs {
				if q.mutex != w.Mutex || q.a == h.a {
					continue
				}
				alts := []smt.Formula{a.after(c, q.a)}
				if q.b >= 0 {
					alts = append(alts, a.b.Lt(a.o[q.b], c.v))
				}
				fs = append(fs, a.b.Or(alts...))
			}
			err := g.solvePrefix(ctx, a, c, fs, func() {
				model := g.model(a)
				// Every section on m before the cutoff is closed in the
				// seed, so that W can acquire m after it.
				if cut, ok := g.solver.Value(c.v); ok {
					for _, q := range a.pairs {
						if q.mutex == w.Mutex && q.b >= 0 && model[q.b] < cut {
							roots = append(roots, q.b)
						}
					}
				}
				sd := a.seed(model, roots, -1, 0, secObserved)
				sd.Steps = append(sd.Steps, Step{T: w.T})
				sd.Expect = append(sd.Expect, w.Lock)
				sd.Why = fmt.Sprintf("t%d acquires %s before t%d", w.T, a.tr.G.Loc(w.Mutex), h.t)
				add(sd)
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *Generator) choicePivots(a *analysis, add func(Seed)) {
	// The observed order is a model: steps at 2i+1, commits inside a step
	// just before it, commits that never happened last.
	identity := make([]int64, len(a.o))
	for i := range identity {
		if i < a.n {
			identity[i] = int64(2*i + 1)
		} else if d := a.drainT[i]; d >= 0 {
			identity[i] = int64(2 * d)
		} else {
			identity[i] = int64(2*a.n + 2 + i)
		}
	}
	count := map[int32]int{}
	for _, c := range a.tr.Choices {
		idx := count[c.T]
		count[c.T]++
		if idx < a.tr.FrozenChoices[c.T] {
			continue
		}
		var roots []int
		if c.Step >= 0 {
			roots = append(roots, c.Step)
		}
		base := a.seed(identity, roots, -1, 0, secObserved)
		for k := 0; k < c.N; k++ {
			if k == c.K {
				continue
			}
			sd := base
			sd.Choices = map[int32][]int{}
			for t, ks := range base.Choices {
				sd.Choices[t] = append([]int(nil), ks...)
			}
			ks := sd.Choices[c.T]
			if idx < len(ks) {
				ks = ks[:idx]
			}
			for len(ks) < idx {
				ks = append(ks, 0) // cannot happen: earlier choices of the thread are included
			}
			sd.Choices[c.T] = append(ks, k)
			sd.Why = fmt.Sprintf("choice %d of t%d is %d", idx, c.T, k)
			add(sd)
		}
	}
}
