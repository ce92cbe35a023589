package vmcr

import (
	"context"
	"errors"
	"fmt"

	"ncmc/feasibility"
)

// The feasibility decider. Every witness search (search.go) answers one
// question: is there a schedule of the given steps in which every
// constrained read reads one of the writes it accepts, each thread takes
// between Need and all of its steps, and the final conditions hold at the
// end? The native search decides it within Options.MaxSearch states; past
// that budget the question goes, as a Query, to Options.Oracle (package
// explore/vmcrz3 answers it with Z3). A Sat answer's schedule is replayed
// by the native search's own rules before it is used (and then run by the
// interpreter and checked like every witness); Unsat means infeasible;
// Unknown leaves the search over its budget (ErrSearchBudget).

// Verdict is an oracle's answer to a Query: Unknown (no answer: timeout,
// resource limit), Sat (a schedule exists and is returned) or Unsat (no
// schedule exists).
type Verdict = feasibility.Verdict

// Verdicts (package feasibility).
const (
	Unknown = feasibility.Unknown
	Sat     = feasibility.Sat
	Unsat   = feasibility.Unsat
)

// Oracle decides queries the native witness search gave up on.
// Decide must be safe for concurrent use (Options.Workers).
type Oracle interface {
	// Decide answers whether q has a schedule; with Sat it returns one
	// (thread numbers, one per step, as Query.Replay takes). It returns
	// ctx.Err() when ctx ends first.
	Decide(ctx context.Context, q *Query) (Verdict, []int32, error)
}

// Query is one witness search in a form that names nothing internal: the
// steps each thread may take and what they require, the reads' accepted
// writes, and the conditions at the end. A schedule is a sequence of
// thread numbers; the k-th occurrence of thread t takes t's step k-1.
// A step can be taken when
//
//   - it is not Blocked;
//   - its thread has been spawned: the thread's Spawn step (if Spawn.T >= 0)
//     was taken;
//   - every step of After was taken (a step beyond its thread's Steps is
//     never taken);
//   - for a join (Join >= 0), every step of thread Join was taken;
//   - for a constrained read (Read), the write it reads now is in Accept:
//     its Own write while Own has not been taken (HasOwn: store
//     forwarding), else the last taken writing step of Loc (Init if none).
//
// Taking a step with Write makes it the last write of Loc. A schedule
// answers the query when every thread t took at least Threads[t].Need
// steps, the last write of each Final's Loc is in its Accept, and, if
// Fail >= 0, the last step of thread Fail was taken and is the schedule's
// last step.
type Query struct {
	// Kind is what the search is for (statistics and tests; the rules
	// do not depend on it).
	Kind    QueryKind
	Threads []QThread
	Finals  []QFinal
	Fail    int
	// Locs is the number of location ids (Loc < Locs).
	Locs int
}

// QueryKind is what a witness search is for.
type QueryKind uint8

// Query kinds.
const (
	// QWitness: a child's witness (a read from a value group) or the
	// observer's final values; reads read their good writes.
	QWitness QueryKind = iota
	// QDedup: whether a leaf's class lies in an elder sibling subtree
	// (a read from a group, earlier reads beyond the partial trace, the
	// other reads their values). Told apart by those constraints: one
	// whose reads all have annotations counts as QWitness.
	QDedup
	// QFailure: a failure search (a failing step first, with given values
	// right after it).
	QFailure
)

// String returns "witness", "dedup" or "failure".
func (k QueryKind) String() string {
	switch k {
	case QDedup:
		return "dedup"
	case QFailure:
		return "failure"
	}
	return "witness"
}

// QThread is a thread of a Query.
type QThread struct {
	Spawn Ref // the step that spawns the thread (T < 0: none)
	Need  int // steps the schedule must take
	Steps []QStep
}

// QStep is a step of a Query.
type QStep struct {
	Loc     int32 // location id (-1: none)
	Write   bool  // taking the step writes Loc
	Blocked bool  // the step is never taken
	Read    bool  // a constrained read of Loc: it must read a write of Accept
	Accept  []Ref // reads: the writes it may read (Init: the initial value)
	Own     Ref   // reads with HasOwn: read while not taken (store forwarding)
	HasOwn  bool
	After   []Ref // steps that must be taken before (T < 0: ignored)
	Join    int32 // a join: every step of thread Join must be taken before (-1: none)
}

// QFinal is a condition on the last write of Loc at the end of a schedule.
type QFinal struct {
	Loc    int32
	Accept []Ref
}

// Replay checks that sched answers q (Query's rules), independently of
// the search that built q.
func (q *Query) Replay(sched []int32) error {
	pos := make([]int, len(q.Threads))
	mem := make([]Ref, q.Locs)
	for l := range mem {
		mem[l] = Init
	}
	taken := func(r Ref) bool { return r.T >= 0 && int(r.T) < len(pos) && pos[r.T] > int(r.I) }
	failed := false
	for k, t32 := range sched {
		t := int(t32)
		if t < 0 || t >= len(q.Threads) {
			return fmt.Errorf("step %d: no thread %d", k, t)
		}
		if failed {
			return fmt.Errorf("step %d (thread %d) after the failing step", k, t)
		}
		th := &q.Threads[t]
		i := pos[t]
		if i >= len(th.Steps) {
			return fmt.Errorf("step %d: thread %d has no step %d", k, t, i)
		}
		st := &th.Steps[i]
		switch {
		case st.Blocked:
			return fmt.Errorf("step %d: (%d,%d) is blocked", k, t, i)
		case th.Spawn.T >= 0 && !taken(th.Spawn):
			return fmt.Errorf("step %d: thread %d is not spawned", k, t)
		case st.Join >= 0 && (int(st.Join) >= len(q.Threads) || pos[st.Join] != len(q.Threads[st.Join].Steps)):
			return fmt.Errorf("step %d: (%d,%d) joins thread %d before its end", k, t, i, st.Join)
		}
		for _, a := range st.After {
			if a.T >= 0 && !taken(a) {
				return fmt.Errorf("step %d: (%d,%d) before %v", k, t, i, a)
			}
		}
		if st.Read {
			cur := mem[st.Loc]
			if st.HasOwn && !taken(st.Own) {
				cur = st.Own
			}
			if !inRefs(cur, st.Accept) {
				return fmt.Errorf("step %d: (%d,%d) reads %v, not one of %v", k, t, i, cur, st.Accept)
			}
		}
		if st.Write {
			mem[st.Loc] = Ref{int32(t), int32(i)}
		}
		pos[t]++
		failed = t == q.Fail && pos[t] == len(th.Steps)
	}
	for t := range q.Threads {
		if pos[t] < q.Threads[t].Need {
			return fmt.Errorf("thread %d took %d steps, needs %d", t, pos[t], q.Threads[t].Need)
		}
	}
	for _, f := range q.Finals {
		if !inRefs(mem[f.Loc], f.Accept) {
			return fmt.Errorf("location %d ends with %v, not one of %v", f.Loc, mem[f.Loc], f.Accept)
		}
	}
	if q.Fail >= 0 && !failed {
		return fmt.Errorf("the schedule does not end with thread %d's failing step", q.Fail)
	}
	return nil
}

// query describes s's search (after setup) as a Query.
func (s *wsearch) query() *Query {
	tr := s.tr
	q := &Query{Threads: make([]QThread, len(tr.Threads)), Fail: s.fail, Locs: len(s.mem)}
	if s.fail >= 0 {
		q.Kind = QFailure
	}
	writers := make([][]Ref, len(s.mem))
	for t := range tr.Threads {
		th := &tr.Threads[t]
		n := min(s.limit[t], len(th.Steps))
		qt := &q.Threads[t]
		qt.Spawn, qt.Need = th.Spawn, s.need[t]
		qt.Steps = make([]QStep, n)
		for i := 0; i < n; i++ {
			st := &th.Steps[i]
			qs := &qt.Steps[i]
			qs.Loc, qs.Join, qs.After = -1, -1, st.After
			if hasLoc(st.Op) {
				qs.Loc = st.lid
			}
			// What next and do make of the step, apart from the state.
			switch st.Op {
			case OpJoin:
				c := int(st.Other)
				if c < 0 || c >= len(tr.Threads) || tr.Threads[c].End != EndDone || s.limit[c] != len(tr.Threads[c].Steps) {
					qs.Blocked = true
				} else {
					qs.Join = int32(c)
				}
			case OpRead, OpRMW, OpLock:
				c := s.cs[t][i]
				if c == nil || st.Pending && st.Op != OpLock {
					qs.Blocked = true
					break
				}
				qs.Read, qs.Own, qs.HasOwn = true, st.Own, st.HasOwn
				if c.mode != mGood && q.Kind == QWitness {
					q.Kind = QDedup // only realizable's constraints name values
				}
				qs.Write = st.Wrote
				if st.WriteFor != nil {
					qs.Write, _ = st.WriteFor(c.val)
				}
			case OpWrite, OpUnlock:
				qs.Write = true
			default:
				qs.Blocked = st.Pending
			}
			if t == s.fail && i == n-1 && !qs.Blocked {
				qs.Write = s.failW // as dfs takes the failing step
			}
			if qs.Write && qs.Loc >= 0 && !qs.Blocked {
				writers[qs.Loc] = append(writers[qs.Loc], Ref{int32(t), int32(i)})
			}
		}
	}
	// The writes each read accepts: Init, the writing steps of its
	// location, and its Own write, as the search's reads admits them.
	for t := range q.Threads {
		for i := range q.Threads[t].Steps {
			qs := &q.Threads[t].Steps[i]
			if !qs.Read {
				continue
			}
			st := &tr.Threads[t].Steps[i]
			c := s.cs[t][i]
			self := Ref{int32(t), int32(i)}
			try := func(r Ref) {
				if r != self && !inRefs(r, qs.Accept) && s.accepts(c, r, st.Loc) {
					qs.Accept = append(qs.Accept, r)
				}
			}
			try(Init)
			for _, w := range writers[st.lid] {
				try(w)
			}
			if st.HasOwn {
				try(st.Own)
			}
		}
	}
	for k := range s.finals {
		f := &s.finals[k]
		qf := QFinal{Loc: f.lid}
		for _, r := range append([]Ref{Init}, writers[f.lid]...) {
			if s.finalOK(f, r) {
				qf.Accept = append(qf.Accept, r)
			}
		}
		q.Finals = append(q.Finals, qf)
	}
	return q
}

// replay takes the steps of sched by the search's own rules (next, do,
// goal), so that s.sched and s.mem are those of a witness found by dfs.
func (s *wsearch) replay(sched []int32) error {
	s.undoTo(0)
	for k, t32 := range sched {
		t := int(t32)
		if t < 0 || t >= len(s.pos) {
			return fmt.Errorf("step %d: no thread %d", k, t)
		}
		if s.fail >= 0 && s.pos[s.fail] >= s.limit[s.fail] {
			return fmt.Errorf("step %d (thread %d) after the failing step", k, t)
		}
		ok, w := s.next(t)
		if !ok {
			return fmt.Errorf("step %d: thread %d cannot take its step %d", k, t, s.pos[t])
		}
		if t == s.fail && s.pos[t] == s.limit[t]-1 {
			w = s.failW
		}
		s.do(t, w)
	}
	if !s.goal() {
		return errors.New("the goal does not hold at the end")
	}
	return nil
}

// fallback asks Options.Oracle a search that exceeded its budget.
func (s *wsearch) fallback() (bool, error) {
	e := s.e
	if e.opts.Oracle == nil {
		return false, ErrSearchBudget
	}
	e.stats.Fallbacks++
	v, sched, err := e.opts.Oracle.Decide(e.ctx, s.query())
	if err != nil {
		if cerr := e.ctx.Err(); cerr != nil {
			return false, cerr
		}
		e.stats.OracleUnknown++
		return false, fmt.Errorf("%w (oracle: %v)", ErrSearchBudget, err)
	}
	switch v {
	case Unsat:
		return false, nil
	case Sat:
		if err := s.replay(sched); err != nil {
			e.stats.OracleBad++
			return false, fmt.Errorf("%w (the oracle's schedule fails replay: %v)", ErrSearchBudget, err)
		}
		return true, nil
	}
	e.stats.OracleUnknown++
	return false, ErrSearchBudget
}
