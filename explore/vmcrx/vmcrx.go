// Package vmcrx drives the value-optimal explorer of package explore/vmcr
// on the interpreter: the vmcr explorer (--explorer vmcr, the default under
// sc, tso and pso).
package vmcrx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"ncmc/explore"
	"ncmc/explore/mcrx"
	"ncmc/explore/vmcr"
	"ncmc/explore/vmcrz3"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ir/seclock"
	"ncmc/memmodel"
	"ncmc/seg"
)

// The glue between the interpreter and the value-optimal explorer of
// package explore/vmcr: a Runner that runs a witness and turns the
// execution into a vmcr.Trace, and exploreVMCR, which reports the
// explorer's executions to the task.

// ModelUnsupported says why the vmcr explorer cannot explore under model
// m, or "".
func ModelUnsupported(m *memmodel.Model) string {
	switch memmodel.ExecOf(m) {
	case memmodel.Interleaving, memmodel.StoreBuffer, memmodel.StoreBufferPerLoc:
		return ""
	}
	return fmt.Sprintf("vmcr supports the sc, tso and pso models only (asked: %s)", m.Name)
}

// vmcrUnsupported says why the vmcr explorer cannot handle prog (any
// model it supports), or "".
func vmcrUnsupported(prog *ir.Program) string {
	for _, f := range prog.Funcs {
		if f.Kind == ir.FuncLinearizable {
			return "vmcr does not support linearizable methods"
		}
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.IFree:
				return fmt.Sprintf("vmcr does not support free (at %s)", f.Body[i].Pos)
			}
		}
	}
	return ""
}

// vmcrRunner runs witnesses on the interpreter.
type vmcrRunner struct {
	prog    *ir.Program
	names   *interp.Names
	cfg     interp.Config
	trylock map[ir.Pos]bool // positions of trylock instructions
	// sb: a store-buffer model (tso, pso); the trace's threads are then
	// numbered by ths (program threads and store buffers).
	sb  bool
	pso bool
	ths *vmcrThreads
	// stores holds the arrays of released traces (*runStore), sbs the
	// scratch tables of traceOfSB.
	stores, sbs sync.Pool
	// traces holds released traces (*vmcr.Trace), whose struct and
	// Threads array the next trace reuses.
	traces sync.Pool
	// dead holds executions made by Fork that are no longer used
	// (snapshots and resumed runs of released traces), for the next Fork
	// to reuse.
	deadMu sync.Mutex
	dead   []*interp.Execution
	// stats counts runs, resumed runs and schedule steps (--debug-mcr).
	stats runnerStats
}

// runnerStats counts what the runner did (printed with --debug-mcr).
type runnerStats struct {
	runs, resumed  atomic.Int64 // runs; runs resumed from a snapshot
	sched, skipped atomic.Int64 // witness schedule steps; those a resumed run skipped
	snaps          atomic.Int64 // snapshots kept
}

// maxDead bounds the executions vmcrRunner.dead keeps.
const maxDead = 64

// putDead keeps x, made by Fork and no longer used, for a later Fork.
func (r *vmcrRunner) putDead(x *interp.Execution) {
	r.deadMu.Lock()
	if len(r.dead) < maxDead {
		r.dead = append(r.dead, x)
	}
	r.deadMu.Unlock()
}

// getDead returns an execution kept by putDead, or nil.
func (r *vmcrRunner) getDead() *interp.Execution {
	r.deadMu.Lock()
	defer r.deadMu.Unlock()
	if n := len(r.dead); n > 0 {
		x := r.dead[n-1]
		r.dead = r.dead[:n-1]
		return x
	}
	return nil
}

// vmcrKey names a thread of a store-buffer trace: program thread T, or
// (Buf) T's store buffer (for Loc under pso).
type vmcrKey struct {
	T   int32
	Buf bool
	Loc int64
}

// vmcrThreads numbers the threads of store-buffer traces, the same way in
// every run of one exploration (first come, first numbered). Runs on
// several goroutines share it: numbering takes the lock, reading the
// table (keys) does not.
type vmcrThreads struct {
	mu  sync.Mutex
	idx map[vmcrKey]int32
	// tab is the table of keys by number, replaced (never changed) when a
	// number is added.
	tab atomic.Pointer[[]vmcrKey]
}

func (v *vmcrThreads) id(k vmcrKey) int32 {
	v.mu.Lock()
	defer v.mu.Unlock()
	if i, ok := v.idx[k]; ok {
		return i
	}
	var keys []vmcrKey
	if p := v.tab.Load(); p != nil {
		keys = *p
	}
	i := int32(len(keys))
	v.idx[k] = i
	// Readers see only the first len(keys) entries of the array: appending
	// in place past them changes nothing they read.
	keys = append(keys, k)
	v.tab.Store(&keys)
	return i
}

// keys returns the table of keys by number so far.
func (v *vmcrThreads) keys() []vmcrKey {
	if p := v.tab.Load(); p != nil {
		return *p
	}
	return nil
}

func (v *vmcrThreads) key(i int32) (vmcrKey, bool) {
	keys := v.keys()
	if i < 0 || int(i) >= len(keys) {
		return vmcrKey{}, false
	}
	return keys[i], true
}

func (v *vmcrThreads) size() int { return len(v.keys()) }

// vmcrRun is the runner's payload of a trace: the execution and the
// witness it ran.
type vmcrRun struct {
	x        *interp.Execution
	r        *vmcrRunner
	w        *vmcr.Witness
	released bool
	store    *runStore // the arrays of the trace, or nil
	ch       seqChooser
	// leaf is the first summary of the run's trace (newLeaf), leafTaken
	// set once it is handed out.
	leaf      vmcrLeaf
	leafTaken atomic.Bool
	// snap (nil: none or not yet made) is a copy of the state after
	// w.Sched[:snapAt] (snapAt > 0: the state can be copied), which later
	// witnesses that begin with those steps resume from
	// (vmcr.Witness.Base). materialize makes it on first use (tried: it
	// did), under mu.
	mu     sync.Mutex
	snap   *interp.Execution
	snapAt int
	tried  bool
	// from (nil: none) is the run whose snapshot this run resumed from:
	// this run's schedule begins with from.w.Sched[:from.snapAt], so its snapshot and
	// those of its own from chain are states of this run too. The runs
	// on the chain are those of ancestors in the search: their traces
	// are released after this one.
	from *vmcrRun
}

// newLeaf returns an empty leaf for a summary of the run's trace: the
// run's own the first time (one allocation less per leaf), a new one
// after.
func (r *vmcrRun) newLeaf() *vmcrLeaf {
	if r.leafTaken.CompareAndSwap(false, true) {
		return &r.leaf
	}
	return new(vmcrLeaf)
}

// release hands the run's execution back to the interpreter for reuse, once.
func (r *vmcrRun) release() {
	if !r.released {
		r.released = true
		if r.x.Forked() {
			r.r.putDead(r.x)
		} else {
			r.x.Release()
		}
	}
}

// Release reuses the storage of tr's execution and steps
// (vmcr.Releaser): the explorer no longer reads tr.
func (r *vmcrRunner) Release(tr *vmcr.Trace) {
	run := tr.Payload.(*vmcrRun)
	run.release()
	run.mu.Lock()
	if run.snap != nil {
		r.drop(run.snap)
		run.snap = nil
	}
	run.tried = true
	run.mu.Unlock()
	if run.store != nil {
		r.stores.Put(run.store)
		run.store = nil
	}
	r.traces.Put(tr)
}

// runStore holds the arrays of a trace: its steps, its After lists
// (store buffers) and its order, handed from a released trace to a new
// one (vmcrRunner.stores).
type runStore struct {
	steps        []vmcr.Step
	after, order []vmcr.Ref
}

// getStore returns the arrays of a released trace, or empty ones.
func (r *vmcrRunner) getStore() *runStore {
	if s, ok := r.stores.Get().(*runStore); ok {
		return s
	}
	return &runStore{}
}

// newTrace returns a trace with n threads (zero), reusing a released
// trace's struct and Threads array when one is free.
func (r *vmcrRunner) newTrace(n int) *vmcr.Trace {
	tr, _ := r.traces.Get().(*vmcr.Trace)
	if tr == nil {
		return &vmcr.Trace{Threads: make([]vmcr.Thread, n)}
	}
	ths := tr.Threads
	if cap(ths) < n {
		ths = make([]vmcr.Thread, n)
	} else {
		ths = ths[:n]
		clear(ths)
	}
	*tr = vmcr.Trace{Threads: ths}
	return tr
}

// seqChooser hands out per-thread choice sequences (0 beyond them).
type seqChooser struct {
	seq  map[int32][]int
	used []int // per thread: choices made
}

func (c *seqChooser) Choose(t int32, kind interp.ChoiceKind, n int) int {
	for int(t) >= len(c.used) {
		c.used = append(c.used, 0)
	}
	i := c.used[t]
	c.used[t]++
	if ks := c.seq[t]; i < len(ks) && ks[i] < n {
		return ks[i]
	}
	return 0
}

// execute runs witness w. With keep, it may resume from a snapshot
// (vmcr.Witness.Base) and returns the run it resumed from (nil: none) and
// a snapshot of the state after w.Sched (nil: none), for later witnesses
// to resume from.
func (r *vmcrRunner) execute(w *vmcr.Witness, ch *seqChooser, trace, keep bool) (*interp.Execution, resumed, bool, error) {
	if r.sb {
		return r.executeSB(w, ch, trace, keep)
	}
	r.chooser(w, ch)
	x, res, from := r.start(w, ch, trace, keep)
	r.count(w, from, keep)
	// taken counts the steps of each thread, for the parked ones.
	var taken []int
	take := func(t int32) {
		if len(w.Parked) == 0 {
			return
		}
		for int(t) >= len(taken) {
			taken = append(taken, 0)
		}
		taken[t]++
	}
	for _, t := range w.Sched[:from] {
		take(t)
	}
	at := snapPoint(w, from, keep)
	for i := from; i < len(w.Sched); i++ {
		if i == at {
			res.mark(r, x, at)
		}
		t, err := r.schedStep(x, w, i, nil)
		if err != nil {
			return nil, resumed{}, false, err
		}
		take(t)
	}
	if at == len(w.Sched) {
		res.mark(r, x, at)
	}
	parkedEnabled := false
	for !x.Finished() {
		moved := false
		for _, n := range x.Threads() {
			th := x.Thread(n)
			if !x.IsEnabled(th) {
				continue
			}
			if p, ok := w.Parked[n]; ok && takenOf(taken, n) >= p {
				parkedEnabled = true
				continue
			}
			x.Step(interp.Action{T: n})
			take(n)
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	return x, res, parkedEnabled, nil
}

// chooser makes c the chooser of a run of w and returns, under a
// store-buffer model, w's parked threads by program thread (w.Parked
// otherwise).
func (r *vmcrRunner) chooser(w *vmcr.Witness, c *seqChooser) map[int32]int {
	if !r.sb {
		*c = seqChooser{seq: w.Choices}
		return w.Parked
	}
	keys := r.ths.keys()
	var seq map[int32][]int
	for i, ks := range w.Choices {
		if i >= 0 && int(i) < len(keys) && !keys[i].Buf {
			if seq == nil {
				seq = map[int32][]int{}
			}
			seq[keys[i].T] = ks
		}
	}
	var parked map[int32]int
	for i, p := range w.Parked {
		if i >= 0 && int(i) < len(keys) && !keys[i].Buf {
			if parked == nil {
				parked = map[int32]int{}
			}
			parked[keys[i].T] = p
		}
	}
	*c = seqChooser{seq: seq}
	return parked
}

// schedStep takes step i of w's schedule in x and returns the program
// thread that moved (-1: a store buffer's flush). Under a store-buffer
// model keys is the table of trace threads (vmcrThreads.keys).
func (r *vmcrRunner) schedStep(x *interp.Execution, w *vmcr.Witness, i int, keys []vmcrKey) (int32, error) {
	ti := w.Sched[i]
	if !r.sb {
		if x.Finished() || int(ti) >= len(x.ThreadTable()) || x.Thread(ti) == nil || !x.IsEnabled(x.Thread(ti)) {
			return 0, fmt.Errorf("internal error: vmcr witness diverged at step %d (thread %d)", i, ti)
		}
		x.Step(interp.Action{T: ti})
		return ti, nil
	}
	ok := ti >= 0 && int(ti) < len(keys)
	var k vmcrKey
	if ok {
		k = keys[ti]
	}
	if !ok || x.Finished() || int(k.T) >= len(x.ThreadTable()) || x.Thread(k.T) == nil {
		return 0, fmt.Errorf("internal error: vmcr witness diverged at step %d (thread %d)", i, ti)
	}
	if k.Buf {
		n := len(x.Log)
		x.Step(interp.Action{T: k.T, Flush: true, Loc: k.Loc})
		if len(x.Log) == n || x.Log[n].Event.IsInit() {
			return 0, fmt.Errorf("internal error: vmcr witness diverged at step %d (empty store buffer %d)", i, ti)
		}
		return -1, nil
	}
	if !x.IsEnabled(x.Thread(k.T)) {
		return 0, fmt.Errorf("internal error: vmcr witness diverged at step %d (thread %d)", i, ti)
	}
	x.Step(interp.Action{T: k.T})
	return k.T, nil
}

// mark notes that the run's state after at schedule steps (x now) can be
// copied for later witnesses, if it can (snapOK).
func (res *resumed) mark(r *vmcrRunner, x *interp.Execution, at int) {
	if r.snapOK(x) {
		res.at = at
	}
}

// materialize returns run's snapshot (nil: none), making it on first use:
// a copy of the state after run.snapAt steps of its schedule, from the
// snapshot run resumed from (or from the start) and the schedule steps in
// between. Most runs' snapshots are never used (leaves, nodes whose
// children all reuse the run), so they are made only when a later witness
// resumes from them.
func (r *vmcrRunner) materialize(run *vmcrRun) *interp.Execution {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.snap != nil || run.snapAt == 0 || run.tried {
		return run.snap
	}
	run.tried = true
	ch := new(seqChooser)
	r.chooser(run.w, ch)
	var x *interp.Execution
	start := 0
	if run.from != nil {
		if snap := run.from.snapshot(); snap != nil {
			if x = r.resumeFrom(run.from, snap, ch); x != nil {
				start = run.from.snapAt
			}
		}
	}
	if x == nil {
		x = interp.NewExecution(r.prog, r.names, r.cfg, ch, false)
		x.CheckEnd()
	}
	var keys []vmcrKey
	if r.sb {
		keys = r.ths.keys()
	}
	for i := start; i < run.snapAt; i++ {
		if _, err := r.schedStep(x, run.w, i, keys); err != nil {
			r.drop(x)
			return nil
		}
	}
	if x.Finished() || !r.snapOK(x) {
		r.drop(x)
		return nil
	}
	r.stats.snaps.Add(1)
	run.snap = x
	return x
}

// snapshot returns run's snapshot if it has been made (nil otherwise).
func (run *vmcrRun) snapshot() *interp.Execution {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.snap
}

// drop hands x, no longer used, back for reuse.
func (r *vmcrRunner) drop(x *interp.Execution) {
	if x.Forked() {
		r.putDead(x)
	} else {
		x.Release()
	}
}

// count counts a run of w that resumed after from schedule steps.
func (r *vmcrRunner) count(w *vmcr.Witness, from int, keep bool) {
	if !keep {
		return
	}
	r.stats.runs.Add(1)
	r.stats.sched.Add(int64(len(w.Sched)))
	if from > 0 {
		r.stats.resumed.Add(1)
		r.stats.skipped.Add(int64(from))
	}
}

// resumed is what execute tells Run about snapshots: the run it resumed
// from, and at > 0 when its state after at schedule steps can be copied
// (vmcrRunner.materialize).
type resumed struct {
	from *vmcrRun
	at   int
}

// snapPoint is the number of w's schedule steps after which a run of w
// that resumed after from steps keeps a snapshot (-1: none): w.Keep, the
// end of the steps its annotation needs, which later witnesses repeat
// more often than the whole schedule; the end of the schedule when the
// run resumed past w.Keep; none when it resumed at the end (the snapshot
// it resumed from is that state).
func snapPoint(w *vmcr.Witness, from int, keep bool) int {
	if !keep || len(w.Sched) == 0 {
		return -1
	}
	at := w.Keep
	if at <= 0 || at > len(w.Sched) || at < from {
		at = len(w.Sched)
	}
	if at <= from {
		return -1
	}
	return at
}

// start returns the execution to run w's schedule in: resumed from a
// snapshot (when keep and one applies; from is the schedule steps it has
// taken) or new.
func (r *vmcrRunner) start(w *vmcr.Witness, ch *seqChooser, trace, keep bool) (x *interp.Execution, res resumed, from int) {
	if keep {
		x, res.from, from = r.resume(w, ch)
	}
	if x == nil {
		x = interp.NewExecution(r.prog, r.names, r.cfg, ch, trace)
		x.CheckEnd()
	}
	return x, res, from
}

// resume returns a copy of the state after w.Sched[:k], the run it is a
// snapshot of, and k, when w.Base's run or a run on its from chain kept a
// snapshot of its state after the first k steps of its own witness's
// schedule (vmcrRun.snapAt), which are w.Sched[:k] with k <= w.Same, and the choices made there are those ch
// makes; ch is then set to go on from there. Otherwise it returns nil.
func (r *vmcrRunner) resume(w *vmcr.Witness, ch *seqChooser) (*interp.Execution, *vmcrRun, int) {
	if w.Base == nil {
		return nil, nil, 0
	}
	run, ok := w.Base.Payload.(*vmcrRun)
	if !ok {
		return nil, nil, 0
	}
	for ; run != nil; run = run.from {
		k := run.snapAt
		if k == 0 || k > w.Same || k > len(w.Sched) || !slices.Equal(w.Sched[:k], run.w.Sched[:k]) {
			continue
		}
		snap := r.materialize(run)
		if snap == nil {
			continue
		}
		if x := r.resumeFrom(run, snap, ch); x != nil {
			return x, run, k
		}
		return nil, nil, 0
	}
	return nil, nil, 0
}

// resumeFrom returns a copy of run's snapshot snap that goes on with ch,
// if the choices made before the snapshot are those ch makes (nil
// otherwise).
func (r *vmcrRunner) resumeFrom(run *vmcrRun, snap *interp.Execution, ch *seqChooser) *interp.Execution {
	var used []int
	for _, c := range snap.Choices {
		for int(c.T) >= len(used) {
			used = append(used, 0)
		}
		i := used[c.T]
		used[c.T]++
		want := 0
		if ks := ch.seq[c.T]; i < len(ks) && ks[i] < c.N {
			want = ks[i]
		}
		if c.K != want {
			return nil
		}
	}
	ch.used = used
	return snap.Fork(ch, r.getDead())
}

// snapOK reports whether a copy of x, the state after some steps of a
// witness's schedule, can serve later witnesses. Under a store-buffer
// model every commit so far must have been a flush of the schedule, so
// that the steps of the trace before the copy are the schedule's.
func (r *vmcrRunner) snapOK(x *interp.Execution) bool {
	if x.Finished() {
		return false
	}
	if r.sb && x.FlushSteps() != len(x.Commits) {
		return false
	}
	return true
}

func takenOf(taken []int, t int32) int {
	if int(t) < len(taken) {
		return taken[t]
	}
	return 0
}

// Run runs witness w and returns its trace.
func (r *vmcrRunner) Run(ctx context.Context, w *vmcr.Witness) (*vmcr.Trace, error) {
	run := &vmcrRun{r: r, w: w}
	x, res, parkedEnabled, err := r.execute(w, &run.ch, false, true)
	if err != nil {
		return nil, err
	}
	run.x = x
	tr := r.traceOf(x, run, parkedEnabled)
	run.snapAt, run.from = res.at, res.from
	return tr, nil
}

// traceOf returns the trace of run, whose execution x ran its witness.
func (r *vmcrRunner) traceOf(x *interp.Execution, run *vmcrRun, parkedEnabled bool) *vmcr.Trace {
	if r.sb {
		return r.traceOfSB(x, run, parkedEnabled)
	}
	tr := r.newTrace(len(x.ThreadTable()))
	tr.InitVal, tr.ParkedEnabled, tr.Payload = x.G.InitVal, parkedEnabled, run
	store := r.getStore()
	run.store = store
	sc, _ := r.sbs.Get().(*sbScratch)
	if sc == nil {
		sc = &sbScratch{}
	}
	defer r.sbs.Put(sc)
	// evStep[t][i]: the step of thread t that made its event i (-1: none).
	nt := len(x.ThreadTable())
	evStep := resize(sc.evStep, nt)
	sc.evStep = evStep
	nev := 0
	for t := range x.ThreadTable() {
		if t < len(x.G.Threads) {
			nev += len(x.G.Threads[t])
		}
	}
	ebuf := resize(sc.ebuf, nev)
	sc.ebuf = ebuf
	for t := range x.ThreadTable() {
		if t < len(x.G.Threads) {
			m := len(x.G.Threads[t])
			evStep[t], ebuf = ebuf[:m:m], ebuf[m:]
			for i := range evStep[t] {
				evStep[t][i] = -1
			}
		}
		tr.Threads[t].End = vmcr.EndAbsent
	}
	steps := resize(sc.pid, nt) // steps per thread so far
	sc.pid = steps
	// The order's array is reused from a released trace when one is free.
	if cap(store.order) < len(x.Log) {
		store.order = make([]vmcr.Ref, len(x.Log))
	}
	tr.Order = store.order[:len(x.Log)]
	for k := range x.Log {
		l := &x.Log[k]
		t := l.Action.T
		tr.Order[k] = vmcr.Ref{T: t, I: steps[t]}
		if !l.Event.IsInit() {
			evStep[t][l.Event.I] = steps[t]
		}
		steps[t]++
	}
	src := func(id seg.EventID) vmcr.Ref {
		if id.IsInit() {
			return vmcr.Init
		}
		return vmcr.Ref{T: id.T, I: evStep[id.T][id.I]}
	}
	for t, th := range x.ThreadTable() {
		if th == nil {
			continue
		}
		vt := &tr.Threads[t]
		vt.Spawn = vmcr.Init
		if sp := x.G.SpawnedBy[t]; !sp.IsInit() {
			vt.Spawn = vmcr.Ref{T: sp.T, I: evStep[sp.T][sp.I]}
		}
		vt.End = endOf(th.Status())
	}
	// One array for every thread's steps (each with room for a pending
	// acquire), reused from a released trace when one is free.
	total := 0
	for t, th := range x.ThreadTable() {
		if th != nil {
			total += int(steps[t]) + 1
		}
	}
	buf := store.steps[:0]
	if cap(buf) < total {
		buf = make([]vmcr.Step, 0, total)
	}
	store.steps = buf
	for t, th := range x.ThreadTable() {
		if th != nil {
			k := len(buf)
			buf = buf[:k+int(steps[t])+1]
			tr.Threads[t].Steps = buf[k:k:len(buf)]
		}
	}
	for li := range x.Log {
		l := &x.Log[li]
		t := l.Action.T
		// The step is built in its slot (a Step is large: no copy).
		vt := &tr.Threads[t]
		ns := len(vt.Steps)
		vt.Steps = vt.Steps[:ns+1]
		st := &vt.Steps[ns]
		*st = vmcr.Step{}
		if !l.Event.IsInit() {
			e := x.G.Event(l.Event)
			st.Loc = e.Loc
			switch e.Kind {
			case seg.KRead:
				st.Op, st.RVal, st.Src = vmcr.OpRead, e.RVal, src(e.RF)
				if op := l.RMW; op != nil {
					st.Op = vmcr.OpRMW
					st.WriteFor = op.WriteFor
				} else if len(r.trylock) > 0 && r.trylock[e.Pos] {
					st.Op = vmcr.OpRMW
					st.WriteFor = lockWrite(x.Handle(t))
				}
			case seg.KRMW:
				st.Op, st.RVal, st.Src, st.WVal, st.Wrote = vmcr.OpRMW, e.RVal, src(e.RF), e.WVal, true
				if op := l.RMW; op != nil {
					st.WriteFor = op.WriteFor
				}
			case seg.KWrite:
				st.Op, st.WVal, st.Wrote = vmcr.OpWrite, e.WVal, true
			case seg.KLock:
				st.Op, st.RVal, st.Src, st.WVal, st.Wrote = vmcr.OpLock, e.RVal, src(e.RF), e.WVal, true
				st.WriteFor = lockWrite(e.WVal)
				if len(r.trylock) > 0 && r.trylock[e.Pos] {
					st.Op = vmcr.OpRMW
				}
			case seg.KUnlock:
				st.Op, st.WVal, st.Wrote = vmcr.OpUnlock, 0, true
			case seg.KSpawn:
				st.Op, st.Other = vmcr.OpSpawn, e.Other
			case seg.KJoin:
				st.Op, st.Other = vmcr.OpJoin, e.Other
			}
		}
	}
	// A thread waiting for a lock at the end has a pending acquire.
	pendingLocks(x, func(n int32, addr int64) {
		tr.Threads[n].Steps = append(tr.Threads[n].Steps, vmcr.Step{Op: vmcr.OpLock, Loc: addr, Pending: true, WriteFor: lockWrite(x.Handle(n))})
	})
	// Choices, attached to the step they precede.
	cnt := make([]int, len(x.ThreadTable()))
	logStep := 0
	for _, c := range x.Choices {
		for logStep <= c.Step && logStep < len(x.Log) {
			cnt[x.Log[logStep].Action.T]++
			logStep++
		}
		attachChoice(&tr.Threads[c.T], cnt[c.T], vmcr.Choice{N: c.N, K: c.K})
	}
	return tr
}

func lockWrite(h int64) func(int64) (bool, int64) {
	return func(v int64) (bool, int64) { return v == 0, h }
}

// exploreVMCR is the vmcr exploration of prog (sc, tso, pso).
func exploreVMCR(ctx context.Context, t *explore.Task) error {
	if seclock.Has(t.Prog) {
		// Atomic sections as critical sections of a hidden mutex (sc:
		// Check made sure the rewriting applies).
		p, err := seclock.Lower(t.Prog)
		if err != nil {
			return err
		}
		t.Reprogram(p)
	}
	if interp.HasConds(t.Prog) {
		// Condition variables as steps on memory.
		t.Reprogram(interp.CondSteps(t.Prog))
	}
	prog, names, opts, model := t.Prog, t.Names, t.Opts, t.Model
	r := &vmcrRunner{prog: prog, names: names, trylock: map[ir.Pos]bool{}, cfg: t.Config()}
	r.cfg.ContinueAfterViolation = true
	switch model.Exec {
	case memmodel.StoreBuffer:
		r.sb, r.ths = true, &vmcrThreads{idx: map[vmcrKey]int32{}}
	case memmodel.StoreBufferPerLoc:
		r.sb, r.pso, r.ths = true, true, &vmcrThreads{idx: map[vmcrKey]int32{}}
	}
	for _, f := range prog.Funcs {
		for i := range f.Body {
			if f.Body[i].Op == ir.ITryLock {
				r.trylock[f.Body[i].Pos] = true
			}
		}
	}
	var cex, firstComplete *vmcr.Witness
	var seenComplete atomic.Bool
	stopped, stopKind := "", ""
	// The explorer's goroutines summarise each execution at once; the
	// summaries reach leaf in the order of the sequential search.
	summary := func(tr *vmcr.Trace) any {
		run := tr.Payload.(*vmcrRun)
		if opts.Debug != nil {
			opts.Debug("vmcr leaf: %s | %s | %s (complete %v)", run.x.G.Key(seg.KeyOpts{Kind: seg.KeyValues}), explore.ChoiceKey(run.x), interp.FinalState(run.x), run.x.Complete())
		}
		l := run.newLeaf()
		l.sum = t.Summarize(run.x)
		run.release() // nothing reads the execution after its summary
		// The witness is kept for a counterexample and, until the first
		// complete execution is known, for its graph.
		if l.sum.Violation() != "" || !seenComplete.Load() {
			l.w = run.w
		}
		return l
	}
	leaf := func(tr *vmcr.Trace) bool {
		l := tr.Payload.(*vmcrLeaf)
		if l.sum.Complete() && l.sum.Violation() == "" && firstComplete == nil {
			firstComplete = l.w
			seenComplete.Store(true)
		}
		if t.AddSummary(l.sum, nil) && cex == nil {
			cex = l.w
			if !opts.KeepGoing {
				return true
			}
		}
		t.AddFolded(l.sum, l.more) // executions folded into l (vo.Fold)
		t.Progress(0)
		if opts.MaxExecutions > 0 && t.Stats().Executions >= opts.MaxExecutions {
			stopped, stopKind = fmt.Sprintf("execution bound %d hit", opts.MaxExecutions), "executions"
			return true
		}
		return false
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	// Witness searches over their budget go to Z3 (explore/vmcrz3).
	oracle := vmcrz3.New(vmcrz3.Options{Timeout: opts.QueryTimeout})
	defer oracle.Close()
	// The observer reads every global at the end, unless final states
	// are no outcomes (Options.NoFinalStates): then one execution per
	// read-value vector and choices, and the outcomes are a sample.
	observed := mcrx.ObservedLocs(prog)
	if opts.NoFinalStates && len(observed) > 0 {
		observed = nil
		t.PartialOutcomes()
	}
	vo := vmcr.Options{Observed: observed, Leaf: leaf, Summary: summary, Workers: workers, Failures: opts.KeepGoing,
		Oracle: oracle, Queries: opts.VMCRQueries, MaxSearch: opts.VMCRMaxSearch}
	// Executions that the collector counts alike (the same key,
	// explore.Summary.FoldKey: the same violation or none, the same final
	// state, no class keys; with NoFinalStates every complete execution
	// without a violation) wait as one leaf for their turn
	// (vmcr.Options.Fold): the first of them is added, then the others by
	// Again, which is what adding each would do. Without --keep-going the
	// first violation stops the exploration there, as it would without
	// folding. Not with an execution bound, which may stop between them.
	if opts.MaxExecutions == 0 && !opts.Classes {
		vo.Fold = func(prev, cur any) bool {
			p := prev.(*vmcrLeaf)
			if !p.sum.Fold(cur.(*vmcrLeaf).sum) {
				return false
			}
			p.more++
			return true
		}
	}
	if opts.Debug != nil && os.Getenv("NCMC_VMCR_TREE") != "" {
		vo.Debug = opts.Debug
	}
	st, err := vmcr.Explore(ctx, r, vo)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		stopped, stopKind = explore.BudgetReason(ctx.Err(), opts), "time"
	case errors.Is(err, vmcr.ErrSearchBudget):
		stopped, stopKind = "vmcr witness search budget hit", "search"
	default:
		return err
	}
	if opts.Debug != nil {
		opts.Debug("vmcr: %+v", st)
		rs := &r.stats
		opts.Debug("vmcr runner: %d runs, %d resumed from a snapshot, %d snapshots; witness schedule steps %d, of them skipped by resuming %d",
			rs.runs.Load(), rs.resumed.Load(), rs.snaps.Load(), rs.sched.Load(), rs.skipped.Load())
	}
	t.Stats().Nodes = st.Nodes
	t.Stats().Runs = st.Runs
	t.Stats().SMTQueries = st.Searches
	t.Stats().Native = st.Searches - st.Fallbacks
	t.Stats().Fallbacks = st.Fallbacks
	t.Stats().Z3Calls = st.Fallbacks - st.OracleUnknown - st.OracleBad
	if stopped != "" {
		t.Stop(stopped, stopKind)
	}
	t.Workers(workers)
	if cex != nil {
		x, _, _, err := r.execute(cex, new(seqChooser), true, false)
		if err != nil {
			return err
		}
		t.Counterexample(x, x.Story())
	} else if firstComplete != nil {
		// The graph of the first complete execution (the summaries keep
		// no graph): run it again.
		x, _, _, err := r.execute(firstComplete, new(seqChooser), false, false)
		if err != nil {
			return err
		}
		t.Amend(func(res *explore.Result) { res.Graph = x.G })
	}
	return nil
}

// vmcrLeaf is what the exploration keeps of an execution until its turn:
// the collector's summary and the witness (to run it again for the
// counterexample or the graph).
type vmcrLeaf struct {
	sum  *explore.Summary
	w    *vmcr.Witness
	more int // further executions folded into this one (their steps in sum)
}

// Store-buffer models (tso, pso). A buffered store is a step of its
// thread that writes nothing; its commit (a flush, or part of a step that
// drains the buffer) is a write step of a store-buffer thread (one per
// program thread under tso, one per thread and location under pso) that
// follows the store (Step.After). A load's source is the commit of the
// store it read; a load with an earlier own store to its location names
// that store's commit as Own (it forwards while Own has not run). A step
// that drains the buffer (RMW, CAS, lock, unlock, sc fence, spawn, join)
// follows the commits of its thread's earlier stores; a join also follows
// the joined thread's commits.

// executeSB runs witness w under a store-buffer model: Sched names trace
// threads (program threads and store buffers, numbered by r.ths); a store
// buffer's step is a flush. The default scheduler then flushes every
// buffered store at once, so the rest of the run is sequentially
// consistent.
func (r *vmcrRunner) executeSB(w *vmcr.Witness, ch *seqChooser, trace, keep bool) (*interp.Execution, resumed, bool, error) {
	parked := r.chooser(w, ch)
	x, res, from := r.start(w, ch, trace, keep)
	r.count(w, from, keep)
	var taken []int // program steps per thread
	take := func(t int32) {
		if parked == nil || t < 0 {
			return
		}
		for int(t) >= len(taken) {
			taken = append(taken, 0)
		}
		taken[t]++
	}
	keys := r.ths.keys()
	if parked != nil {
		for _, ti := range w.Sched[:from] {
			if int(ti) < len(keys) && !keys[ti].Buf {
				take(keys[ti].T)
			}
		}
	}
	at := snapPoint(w, from, keep)
	for i := from; i < len(w.Sched); i++ {
		if i == at {
			res.mark(r, x, at)
		}
		t, err := r.schedStep(x, w, i, keys)
		if err != nil {
			return nil, resumed{}, false, err
		}
		take(t)
	}
	if at == len(w.Sched) {
		res.mark(r, x, at)
	}
	// flushAll flushes every buffered store, oldest first per buffer.
	flushAll := func() bool {
		moved := false
		for !x.Finished() {
			fl, ok := x.FirstFlush()
			if !ok {
				break
			}
			x.Step(fl)
			moved = true
		}
		return moved
	}
	parkedEnabled := false
	flushAll()
	for !x.Finished() {
		moved := false
		for _, n := range x.Threads() {
			th := x.Thread(n)
			if !x.IsEnabled(th) {
				continue
			}
			if p, ok := parked[n]; ok && takenOf(taken, n) >= p {
				parkedEnabled = true
				continue
			}
			k := len(x.Log)
			x.Step(interp.Action{T: n})
			take(n)
			moved = true
			// A store is flushed at once.
			if k < len(x.Log) && !x.Finished() {
				if ev := x.Log[k].Event; !ev.IsInit() {
					if e := x.G.Event(ev); e.Kind == seg.KWrite {
						x.Step(interp.Action{T: n, Flush: true, Loc: e.Loc})
					}
				}
			}
			break
		}
		if !moved && !flushAll() {
			break
		}
	}
	return x, res, parkedEnabled, nil
}

// pidOf maps program thread t to its trace thread (-1 if none).
func pidOf(pid []int32, t int32) int32 {
	if t < 0 || int(t) >= len(pid) {
		return -1
	}
	return pid[t]
}

// pendingLocks calls f for every thread n of x that waits at a lock at the
// end of the run, with the lock's address.
func pendingLocks(x *interp.Execution, f func(n int32, addr int64)) {
	for _, n := range x.Threads() {
		if addr, ok := x.PendingLock(n); ok {
			f(n, addr)
		}
	}
}

// endOf is how a thread with interpreter status st ends in a vmcr trace.
func endOf(st interp.ThreadStatus) vmcr.End {
	switch st {
	case interp.Done:
		return vmcr.EndDone
	case interp.Blocked:
		return vmcr.EndBlocked
	case interp.Failed:
		return vmcr.EndFailed
	case interp.BoundHit:
		return vmcr.EndBound
	}
	return vmcr.EndWaiting
}

// attachChoice attaches ch to the step slot of vt it precedes (to the
// thread's tail if no step follows it).
func attachChoice(vt *vmcr.Thread, slot int, ch vmcr.Choice) {
	if slot < len(vt.Steps) {
		vt.Steps[slot].Pre = append(vt.Steps[slot].Pre, ch)
	} else {
		vt.Tail = append(vt.Tail, ch)
	}
}

// Explorer is value-annotated MCR (explore/vmcr): one execution per value
// class, RVF-SMC style.
type Explorer struct{}

// Name is "vmcr".
func (Explorer) Name() string { return "vmcr" }

// Doc describes the explorer for help texts.
func (Explorer) Doc() string {
	return "sc, tso, pso: value-annotated maximal causality reduction (one frontier read per node, value groups, negative annotations; store buffers as commit threads; atomic sections as a hidden mutex under sc; condition variables as steps on memory; docs/vmcr.md); what it does not model (atomic sections under tso and pso, linearizable methods, free) goes to mcr or the stateful explorer"
}

// Check rejects data-race detection, models other than sc, tso and pso,
// and programs with constructs vmcr does not model.
func (e Explorer) Check(t *explore.Task) error {
	if t.Opts.Races {
		return explore.Unsupportedf(e, false, "data-race detection is not available with the vmcr explorer")
	}
	if why := ModelUnsupported(t.Model); why != "" {
		return explore.Unsupportedf(e, false, "%s", why)
	}
	if why := vmcrUnsupported(t.Prog); why != "" {
		return explore.Unsupportedf(e, true, "%s", why)
	}
	if why := sectionsUnsupported(t); why != "" {
		return explore.Unsupportedf(e, true, "%s", why)
	}
	return nil
}

// sectionsUnsupported says why vmcr cannot explore t's atomic sections, or
// "". vmcr explores them under sc as critical sections of a hidden mutex
// (ir/seclock), which is exact only under sc and for sections in which no
// thread waits.
func sectionsUnsupported(t *explore.Task) string {
	if !seclock.Has(t.Prog) {
		return ""
	}
	if memmodel.ExecOf(t.Model) != memmodel.Interleaving {
		return "vmcr explores atomic sections under sc only"
	}
	if _, err := seclock.Lower(t.Prog); err != nil {
		return "vmcr cannot explore this atomic section: " + err.Error()
	}
	return ""
}

// Explore runs the vmcr exploration of t.
func (Explorer) Explore(ctx context.Context, t *explore.Task) error { return exploreVMCR(ctx, t) }
