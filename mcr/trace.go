package mcr

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"ncmc/seg"
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
	// Native reports that the seed's order comes from a witness of the
	// native decider (NativeDecider) rather than from Z3. Replay validates
	// it like every seed; an explorer treats a failed replay of a native
	// seed as a decider bug to recover from (ask Z3), not as a divergence.
	Native bool
	// From is the seed whose execution produced this one, set by an
	// explorer for native seeds until they replay, so that a failed replay
	// can ask Z3 for the parent's seeds again.
	From *Seed
	// fkey caches FrozenKey, set when Generator.Seeds returns the seed.
	fkey string
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

// FrozenKey identifies what a seed fixes, not the order it gives it (it is
// computed once for the seeds Generator.Seeds returns, which must not be
// altered afterwards): the steps of each thread with the values they read and write (Expect), the
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
	if s.fkey != "" {
		return s.fkey
	}
	type group struct {
		t     int32
		flush bool
		loc   int64
	}
	// Built with strconv rather than fmt: keys are computed for every seed
	// (the same text as "%d/%v/%d/%d/%d/%v/%v" per step).
	per := map[group][]byte{}
	for i, st := range s.Steps {
		if st.Flush {
			g := group{st.T, true, st.Loc}
			per[g] = append(per[g], 'f')
			continue
		}
		e := s.Expect[i]
		g := group{t: st.T}
		buf := per[g]
		if len(buf) > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(e.Kind), 10)
		buf = append(buf, '/')
		buf = strconv.AppendBool(buf, e.HasEvent)
		buf = append(buf, '/')
		buf = strconv.AppendInt(buf, e.Loc, 10)
		buf = append(buf, '/')
		buf = strconv.AppendInt(buf, e.RVal, 10)
		buf = append(buf, '/')
		buf = strconv.AppendInt(buf, e.WVal, 10)
		buf = append(buf, '/')
		buf = strconv.AppendBool(buf, e.AnyWVal)
		buf = append(buf, '/')
		buf = strconv.AppendBool(buf, e.LeavesAtomic)
		per[g] = buf
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
			b.WriteString(strconv.Itoa(int(g.t)))
			b.WriteByte('=')
			b.Write(per[g])
			b.WriteByte(';')
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
