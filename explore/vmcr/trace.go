// Package vmcr is a value-optimal stateless explorer for sequential
// consistency in the style of RVF-SMC (Agarwal et al., CAV'21): every node
// of the search carries a value annotation (per thread, the values of its
// first reads and nondeterministic choices, each read with the set of
// writes it may read from), the node branches on one canonically chosen
// frontier read and groups that read's candidate writes by value, and
// negative annotations keep later siblings from repeating values an elder
// sibling offered. A witness schedule realises each annotation; the
// interpreter runs it (through a Runner) and the default scheduler finishes
// the execution. Only the current path of the search is kept: memory is
// polynomial in the length of an execution.
//
// The package knows nothing of the interpreter: a Runner runs a witness
// (a schedule of thread steps, the choices, the parked threads) and returns
// a Trace of steps with their thread, kind, location and values.
package vmcr

import "context"

// Op is what a step does to shared memory.
type Op uint8

// Step kinds.
const (
	OpOther  Op = iota // no shared access (fence, atomic-begin, ...)
	OpRead             // a load
	OpWrite            // a store
	OpRMW              // a read that may write (RMW, CAS, trylock): WriteFor says what
	OpLock             // a blocking lock acquire: reads the mutex free (0), writes WriteFor(0)
	OpUnlock           // a lock release: writes 0
	OpSpawn            // creates thread Other
	OpJoin             // waits for thread Other to finish
)

// IsRead reports whether steps of kind o read memory (and so are decisions).
func (o Op) IsRead() bool { return o == OpRead || o == OpRMW || o == OpLock }

// Ref names a step: thread T and its index I in that thread. T = -1 is the
// initial write of every location.
type Ref struct {
	T int32
	I int32
}

// Init is the initial write.
var Init = Ref{T: -1}

// Choice is a nondeterministic choice: K of N alternatives.
type Choice struct{ N, K int }

// Step is one visible step of a thread.
type Step struct {
	Op    Op
	Loc   int64
	RVal  int64 // the value read (reads)
	WVal  int64 // the value written (when Wrote)
	Wrote bool  // the step wrote Loc in this run
	Src   Ref   // the write read from (reads)
	Other int32 // OpSpawn, OpJoin: the other thread
	// WriteFor says whether an OpRMW or OpLock step writes, and what, when
	// it reads v (nil for other steps).
	WriteFor func(v int64) (bool, int64)
	// Pre are the choices the thread made before this step (after its
	// previous step).
	Pre []Choice
	// Pending: the step did not run; the thread waits for it at the end of
	// the run (a lock acquire whose mutex stays held, or a parked thread).
	Pending bool
}

// End is how a thread ended.
type End uint8

// Thread ends.
const (
	EndDone    End = iota // returned
	EndBlocked            // a failed assume or await
	EndFailed             // an assertion failure or runtime error
	EndBound              // a loop or step bound
	EndWaiting            // waits for a lock or a join at the end of the run
	EndAbsent             // not created in this run
)

// Thread is one thread of a trace.
type Thread struct {
	Steps []Step
	Tail  []Choice // choices made after the last step
	End   End
	Spawn Ref // the spawn step that created it (Init for main)
}

// Trace is one run of the program.
type Trace struct {
	Threads []Thread // by thread number
	// Order is the schedule that ran: each executed step in turn.
	Order []Ref
	// InitVal gives the initial value of a location (0 if absent).
	InitVal map[int64]int64
	// ParkedEnabled: the run stopped with a parked thread that could move
	// (its mutex was released), so it does not realise its annotation.
	ParkedEnabled bool
	// Payload is the runner's own record of the run (handed back to Leaf).
	Payload any

	dec   [][]decision // per thread: its decisions in program order
	rdec  [][]int32    // rdec[t][i]: decision index of read step (t, i), -1 if none
	tpos  [][]int32    // tpos[t][i]: index of step (t, i) in Order
	final map[int64]Ref
	maxW  map[int64][]int32 // per location, per thread: highest step index that wrote it (-1: none)
	maxM  map[int64][]int32 // the same for steps that may write it when they read (RMW, CAS, lock), pending or not
}

// Witness is what a Runner runs: Sched lists the thread of each step to
// take first; then the default scheduler takes the first enabled thread in
// creation order, never moving a parked thread past its step Parked[t].
// Choices[t] are thread t's choices in order (0 beyond them).
type Witness struct {
	Sched   []int32
	Choices map[int32][]int
	Parked  map[int32]int
}

// Runner runs witnesses.
type Runner interface {
	Run(ctx context.Context, w *Witness) (*Trace, error)
}

// decision is a read or choice of a thread.
type decision struct {
	choice bool
	step   int // the read's step; for a choice, the step it precedes (len(Steps) for the tail)
	n      int // choice: alternatives
}

func (tr *Trace) prepare() {
	n := len(tr.Threads)
	tr.dec = make([][]decision, n)
	tr.rdec = make([][]int32, n)
	tr.tpos = make([][]int32, n)
	tr.maxW = map[int64][]int32{}
	tr.maxM = map[int64][]int32{}
	note := func(m map[int64][]int32, loc int64, t, i int) {
		a := m[loc]
		if a == nil {
			a = make([]int32, n)
			for k := range a {
				a[k] = -1
			}
			m[loc] = a
		}
		a[t] = int32(i)
	}
	tr.final = map[int64]Ref{}
	for t := range tr.Threads {
		th := &tr.Threads[t]
		var ds []decision
		rd := make([]int32, len(th.Steps))
		for i := range th.Steps {
			s := &th.Steps[i]
			for _, c := range s.Pre {
				ds = append(ds, decision{choice: true, step: i, n: c.N})
			}
			rd[i] = -1
			if s.Op.IsRead() {
				rd[i] = int32(len(ds))
				ds = append(ds, decision{step: i})
			}
			if s.Wrote && !s.Pending {
				note(tr.maxW, s.Loc, t, i)
			}
			if s.Op == OpRMW || s.Op == OpLock {
				note(tr.maxM, s.Loc, t, i)
			}
		}
		for _, c := range th.Tail {
			ds = append(ds, decision{choice: true, step: len(th.Steps), n: c.N})
		}
		tr.dec[t] = ds
		tr.rdec[t] = rd
		tr.tpos[t] = make([]int32, len(th.Steps))
		for i := range tr.tpos[t] {
			tr.tpos[t][i] = 1 << 30
		}
	}
	for k, r := range tr.Order {
		tr.tpos[r.T][r.I] = int32(k)
		s := &tr.Threads[r.T].Steps[r.I]
		if s.Wrote {
			tr.final[s.Loc] = r
		}
	}
}

// choiceAt returns the choice of decision d of thread t.
func (tr *Trace) choiceAt(t int, k int) int {
	// Count the choices before decision k.
	c := 0
	for _, d := range tr.dec[t][:k] {
		if d.choice {
			c++
		}
	}
	th := &tr.Threads[t]
	for i := range th.Steps {
		for _, ch := range th.Steps[i].Pre {
			if c == 0 {
				return ch.K
			}
			c--
		}
	}
	for _, ch := range th.Tail {
		if c == 0 {
			return ch.K
		}
		c--
	}
	return -1
}

func (tr *Trace) initVal(loc int64) int64 { return tr.InitVal[loc] }

func (tr *Trace) step(r Ref) *Step { return &tr.Threads[r.T].Steps[r.I] }

// value is the value written by w at loc.
func (tr *Trace) value(w Ref, loc int64) int64 {
	if w.T < 0 {
		return tr.initVal(loc)
	}
	return tr.step(w).WVal
}

// clocks computes the causal clock of every step: for each thread u, how
// many of its steps precede the step by program order, spawn, join and the
// extra edges rf (a step's forced source), the step itself included for
// its own thread. Steps on a cycle get no further edges (a cycle cannot
// happen in a run).
func (tr *Trace) clocks(rf func(t, i int) (Ref, bool)) [][][]int32 {
	n := len(tr.Threads)
	vc := make([][][]int32, n)
	total := 0
	for t := range tr.Threads {
		vc[t] = make([][]int32, len(tr.Threads[t].Steps))
		total += len(tr.Threads[t].Steps)
	}
	buf := make([]int32, total*n)
	busy := make([][]bool, n)
	for t := range tr.Threads {
		busy[t] = make([]bool, len(tr.Threads[t].Steps))
	}
	var calc func(t, i int) []int32
	join := func(c, o []int32) {
		for u := range c {
			c[u] = max(c[u], o[u])
		}
	}
	calc = func(t, i int) []int32 {
		if c := vc[t][i]; c != nil {
			return c
		}
		if busy[t][i] {
			return make([]int32, n)
		}
		busy[t][i] = true
		c := buf[:n:n]
		buf = buf[n:]
		if i > 0 {
			copy(c, calc(t, i-1))
		} else if sp := tr.Threads[t].Spawn; sp.T >= 0 {
			copy(c, calc(int(sp.T), int(sp.I)))
		}
		st := &tr.Threads[t].Steps[i]
		if st.Op == OpJoin && !st.Pending {
			ch := int(st.Other)
			if ch >= 0 && ch < n && len(tr.Threads[ch].Steps) > 0 {
				join(c, calc(ch, len(tr.Threads[ch].Steps)-1))
			}
		}
		if rf != nil {
			if g, ok := rf(t, i); ok && g.T >= 0 {
				join(c, calc(int(g.T), int(g.I)))
			}
		}
		c[t] = int32(i + 1)
		busy[t][i] = false
		vc[t][i] = c
		return c
	}
	for t := range tr.Threads {
		for i := range tr.Threads[t].Steps {
			calc(t, i)
		}
	}
	return vc
}
