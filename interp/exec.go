package interp

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"time"

	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// ThreadStatus is where a thread stands between two steps.
type ThreadStatus uint8

// Thread statuses.
const (
	Runnable    ThreadStatus = iota // at a visible instruction, maybe disabled (lock held, join pending)
	WaitingCond                     // in wait(): released the mutex, waiting for a signal
	Done                            // returned from its function
	Blocked                         // assume/await failed: blocked for good
	BoundHit                        // stopped at a loop or step bound
	Failed                          // hit an assertion failure or runtime error
)

// ChoiceKind says what a non-scheduling choice is about.
type ChoiceKind uint8

// Choice kinds.
const (
	ChooseNondet ChoiceKind = iota // a nondet(lo, hi) value: index = value - lo
	ChooseWaiter                   // which waiter signal() wakes: index into the waiters in wait order
	ChooseRF                       // graph exploration (ra, rc11): which consistent write a read reads from
	ChooseMO                       // graph exploration: which consistent modification-order position a write takes
)

// Chooser resolves the nondeterminism of one execution. Choose is called only
// when n >= 2, by thread t (the thread making the choice), and must return an
// index in [0, n).
type Chooser interface {
	Choose(t int32, kind ChoiceKind, n int) int
}

// Config are the per-execution bounds and the memory model.
type Config struct {
	Unroll   int // default loop bound (ILoopHead with Bound 0)
	MaxSteps int // visible steps per execution; 0 = unlimited
	// Deadline, if set, stops an execution that is still running then
	// (checked every 1024 visible steps) as a bound hit, so that one long
	// execution cannot outlive --timeout; the explorer then stops on its
	// own budget check.
	Deadline time.Time
	// Model is the memory model (nil: sc). Its Exec says how the
	// interpreter runs it: interleavings, store buffers (tso, pso) or
	// graph exploration (ra, rc11; relaxed.go).
	Model *memmodel.Model
	// MaxThreadSteps bounds the instructions (visible and invisible) one
	// thread may execute; a thread that exceeds it stops with "bound hit",
	// so spin loops cannot hang a run. 0 = unlimited.
	MaxThreadSteps int
	// MaxThreads bounds the threads one execution may have, main
	// included (0: DefaultMaxThreads). A spawn beyond it ends the
	// execution as a bound hit ("thread bound N hit"), so a program that
	// spawns threads forever cannot exhaust memory.
	MaxThreads int
	// Axiomatic, if set, makes the execution a graph exploration under this
	// model whatever Model says (see relaxed.go); graph-only models
	// (memmodel.GraphOnly: ra, rc11) always are.
	Axiomatic *seg.Model
	// ContinueAfterViolation lets the other threads run on after the first
	// assertion failure or runtime error (the failing thread stops; the
	// violation stays the execution's outcome). mcr uses it so that a
	// violating execution still shows the writes of the other threads.
	ContinueAfterViolation bool
	// Races says whether a data race under graph exploration is a violation
	// (the default) or only recorded.
	Races RaceMode
	// DetectRaces makes a data race a violation of kind "data-race" under
	// SC (scraces.go); graph exploration (ra, rc11) finds races anyway.
	DetectRaces bool
	// Leaks says which heap blocks still allocated at the end of a
	// complete execution are violations (memsafety.go): none (the
	// default), those no longer reachable (KindMemoryLeak, SV-COMP's
	// valid-memtrack), or any (also KindNotFreed, valid-memcleanup). Under
	// interleaving and store-buffer execution only.
	Leaks LeakMode
	// UnboundedLoops ignores the default loop bound: loops without an
	// explicit bound run until MaxSteps (or MaxThreadSteps) is hit. Meant
	// for the state cache, which cuts a run that comes back to a state.
	UnboundedLoops bool
	// Symmetry makes StateHash treat interchangeable threads as a multiset
	// and numbers thread handles from SymmetryHandleBase (symmetry.go);
	// only for programs SymmetryOK accepts.
	Symmetry bool
	// Semantic makes FinalState render objects by their abstraction
	// functions (Options.Semantic).
	Semantic bool
}

// Exec is how the interpreter runs the configuration's model.
func (c *Config) Exec() memmodel.Exec { return memmodel.ExecOf(c.Model) }

// Action is one schedulable step: a visible instruction of thread T, or (Flush)
// the write-back of thread T's oldest buffered store to Loc (TSO/PSO only).
type Action struct {
	T     int32
	Flush bool
	Loc   int64
}

func (a Action) String() string {
	if a.Flush {
		return fmt.Sprintf("flush(t%d,%#x)", a.T, a.Loc)
	}
	return fmt.Sprintf("t%d", a.T)
}

// StepInfo records one step of an execution.
type StepInfo struct {
	Action Action
	// Event is the step's main event (for a flush: the write made visible);
	// seg.Init if the step made none.
	Event seg.EventID
	// Atomic is the id (>= 1) of the atomic section the step ran in, 0 if none.
	Atomic int
	// Fence is set when the step emptied its thread's store buffer first
	// (TSO/PSO: RMWs, locks, sc fences and other synchronisation).
	Fence bool
	// RMW describes a read-modify-write or compare-and-swap step's operation
	// with the operands it had (nil for other steps), so that mcr can tell
	// what the step writes when it reads another value.
	RMW *RMWOp
}

// RMWOp is the operation of an RMW or CAS step with its operands.
type RMWOp struct {
	CAS  bool
	Kind ir.RMWKind // the RMW's operation (not CAS)
	Wrap ir.IntWrap // the width the RMW's result wraps at
	A    int64      // the RMW's operand; the CAS's expected value
	B    int64      // the CAS's desired value
}

// noteRMW records op on the step thread t is taking.
func (x *Execution) noteRMW(t *Thread, op *RMWOp) {
	if n := len(x.Log); n > 0 && x.Log[n-1].Action.T == t.num && !x.Log[n-1].Action.Flush {
		x.Log[n-1].RMW = op
	}
}

// WriteFor says whether the step writes, and what, when it reads old.
func (op *RMWOp) WriteFor(old int64) (bool, int64) {
	if op.CAS {
		return old == op.A, op.B
	}
	return true, op.Wrap.Apply(op.Kind.Apply(old, op.A))
}

// CommitRec records that buffered store Event became visible during step Step
// (a flush step, or a step that drained the buffer).
type CommitRec struct {
	Event seg.EventID
	Step  int
}

// ChoiceRec records one nondeterministic choice: thread T chose K of N
// alternatives of Kind during step Step (-1: before the first step).
type ChoiceRec struct {
	T    int32
	Kind ChoiceKind
	N, K int
	Step int
}

// bufEntry is a store waiting in a store buffer.
type bufEntry struct {
	loc int64
	val int64
	ev  seg.EventID
}

// Frame is one activation of a function on a thread's call stack.
type Frame struct {
	fn     *ir.Func
	pc     int
	locals []int64
	retDst int             // caller's destination local, -1 if none
	inv    *seg.Invocation // the invocation this frame is, if linearizable
}

// Thread is one thread of an execution: its call stack, status and
// per-thread state. Explorers read it through its accessor methods.
type Thread struct {
	num        int32
	name       string
	frames     []Frame
	status     ThreadStatus
	signaled   bool  // WaitingCond → woken, must re-lock (status back to Runnable)
	waitMutex  int64 // the mutex to re-lock after wait
	waitCond   int64
	condPhase  uint8 // the next phase of a step-wise wait, signal or broadcast (condsteps.go)
	condWho    int32 // the waiter a step-wise signal wakes
	condVal    int64 // the waiters a step-wise broadcast has still to wake
	spawnCount int
	allocCount int
	result     int64
	atomic     int // depth of atomic blocks
	sec        int // current atomic section id
	why        string
	buf        []bufEntry // pending stores (TSO/PSO), oldest first
	instrs     int        // instructions executed (for Config.MaxThreadSteps)
	wokenStep  int        // the step whose signal woke the thread (graph exploration)
	tls        []int64    // the thread's copies of Program.TLS (nil if there are none)
}

// TraceStep is one line of a counterexample story.
type TraceStep struct {
	Thread string `json:"thread"`
	Pos    ir.Pos `json:"-"`
	Line   int    `json:"line"`
	Source string `json:"source,omitempty"`
	What   string `json:"what"`
}

// Execution is one run of a program being built step by step. It owns its
// memory, threads and execution graph. The explorer drives it: Enabled lists
// the threads that can take a visible step, Step takes one.
type Execution struct {
	prog    *ir.Program
	names   *Names
	cfg     Config
	chooser Chooser

	mem     [][]int64      // by block id; a freed heap block is an empty, non-nil slice
	alloc   []ir.AllocKind // by block id: how the block was allocated (missing: AllocLocal)
	threads []*Thread      // by thread number (nil: not in this execution)
	live    []int32        // thread numbers in creation order
	atomicT int32          // thread inside an atomic block, or -1
	waiters map[int64][]int32

	// G is the execution graph built so far.
	G     *seg.Graph
	Trace []TraceStep
	// Log lists the steps taken, in order; Choices the choices made;
	// Commits when buffered stores became visible (TSO/PSO).
	Log     []StepInfo
	Commits []CommitRec
	Choices []ChoiceRec
	steps   int
	flushes int  // steps of Log that are flushes (Action.Flush)
	dropped bool // DropThreads took threads out of live
	nextSec int

	// Outcome of the run so far.
	violation string // non-empty: assertion failure / runtime error / deadlock
	violState string // FinalState at the first violation
	violTrace int    // len(Trace) at the first violation
	violKind  string // "assertion", "runtime-error", "deadlock", or a memory-safety kind (KindUseAfterFree, ...)
	violPos   ir.Pos
	boundHit  string
	// loopHits lists the loop heads (by position) whose unroll bound
	// stopped a thread; otherBound is set when any other bound (steps,
	// threads, allocation size, time) stopped a thread or the run.
	loopHits   []ir.Pos
	otherBound bool
	internal   string // non-empty: the interpreter's own error (Internal)
	finished   bool
	collecting bool     // record Trace
	rx         *relaxed // graph exploration state (ra, rc11, Config.Axiomatic), nil otherwise
	races      *raceState
	// RaceA and RaceB are the positions of the two accesses of the data
	// race that ended the execution (Config.DetectRaces).
	RaceA, RaceB ir.Pos
	// owner maps a heap block allocated inside a linearizable invocation
	// to the receiver of the innermost such invocation (the block is
	// internal to that object); nil until the first such allocation.
	owner   map[int]int64
	scratch []int64 // evalAll's values

	// spare holds the storage of a released execution that this one
	// reuses (Release, sizes.go).
	spare spare
	// fork holds the arrays of a copy made by ForkDriven (nil: not one)
	fork *forkStore
	// initShared: G.InitVal is shared with a Fork of this execution (or
	// the execution it is a Fork of); an allocation copies it first.
	initShared bool
}

// NewExecution starts an execution of prog: globals initialised and the main
// thread positioned at its first visible instruction.
func NewExecution(prog *ir.Program, names *Names, cfg Config, chooser Chooser, trace bool) *Execution {
	x := names.free.Swap(nil)
	if x != nil && x.prog == prog {
		x.reuse(cfg, chooser, trace)
	} else {
		x = &Execution{prog: prog, names: names, cfg: cfg, chooser: chooser, atomicT: -1,
			waiters: map[int64][]int32{}, collecting: trace}
		x.mem = make([][]int64, len(prog.Globals)+1)
		x.G = seg.New()
		x.G.LocName = names.LocName
		if n := int(names.hints.threads.Load()); n > 0 {
			x.threads, x.live = make([]*Thread, 0, n), make([]int32, 0, n)
			x.G.Threads, x.G.Names = make([][]seg.Event, 0, n), make([]string, 0, n)
			x.G.Parent, x.G.SpawnedBy = make([]int32, 0, n), make([]seg.EventID, 0, n)
		}
		ncells := 0
		for _, g := range prog.Globals {
			ncells += len(g.Init)
		}
		all := make([]int64, ncells) // one allocation for every global's cells
		for i, g := range prog.Globals {
			x.mem[i+1] = all[:len(g.Init):len(g.Init)]
			all = all[len(g.Init):]
		}
	}
	return x.start()
}

// start initialises the globals and positions the main thread at its
// first visible instruction.
func (x *Execution) start() *Execution {
	prog, cfg := x.prog, x.cfg
	for i, g := range prog.Globals {
		copy(x.mem[i+1], g.Init)
		for off, v := range g.Init {
			if v != 0 {
				x.G.InitVal[ir.MakePtr(i+1, off)] = v
			}
		}
	}
	if m := GraphModel(cfg); m != nil {
		x.rx = newRelaxed(x, m)
	}
	main := x.newThread("0", -1, seg.Init)
	if cfg.DetectRaces && x.rx == nil && cfg.Exec() == memmodel.Interleaving {
		x.races = newRaceState()
		x.raceThreadStart(main, nil)
	}
	x.pushFrame(main, prog.Main, nil, -1)
	x.advance(main)
	return x
}

func (x *Execution) newThread(name string, parent int32, spawn seg.EventID) *Thread {
	return x.newThreadAs(x.names.Thread(name), name, parent, spawn)
}

// newThreadAs adds thread num, called name (Names.Thread(name) == num).
func (x *Execution) newThreadAs(num int32, name string, parent int32, spawn seg.EventID) *Thread {
	var t *Thread
	if int(num) < len(x.spare.threads) && x.spare.threads[num] != nil {
		t = x.spare.threads[num] // a released execution's thread (Release)
		x.spare.threads[num] = nil
		*t = Thread{num: num, name: name, frames: t.frames[:0], tls: t.tls, buf: t.buf[:0]}
	} else {
		t = &Thread{num: num, name: name}
	}
	if n := len(x.prog.TLS); n > 0 {
		if cap(t.tls) < n {
			t.tls = make([]int64, n)
		}
		t.tls = t.tls[:n]
		for i, v := range x.prog.TLS {
			t.tls[i] = v.Init
		}
	}
	for int(num) >= len(x.threads) {
		x.threads = append(x.threads, nil)
	}
	x.threads[num] = t
	x.live = append(x.live, num)
	if int32(len(x.threads)) > x.names.hints.threads.Load() {
		raise(&x.names.hints.threads, len(x.threads))
	}
	x.G.AddThread(num, name, parent, spawn)
	if int(num) < len(x.spare.events) && x.spare.events[num] != nil {
		x.G.Threads[num] = x.spare.events[num][:0]
		x.spare.events[num] = nil
	}
	return t
}

func (x *Execution) pushFrame(t *Thread, f *ir.Func, args []int64, retDst int) {
	var locals []int64
	if n := len(t.frames); n < cap(t.frames) && cap(t.frames[:n+1][n].locals) >= len(f.Locals) {
		// the locals of a frame popped earlier (or of a released
		// execution): nothing refers to them any more
		locals = t.frames[:n+1][n].locals[:len(f.Locals)]
		clear(locals)
	} else {
		locals = make([]int64, len(f.Locals))
	}
	copy(locals, args)
	t.frames = append(t.frames, Frame{fn: f, locals: locals, retDst: retDst})
}

// Threads returns the numbers of the threads created so far, in creation order.
func (x *Execution) Threads() []int32 { return x.live }

// ThreadName returns the stable name of thread t.
func (x *Execution) ThreadName(t int32) string { return x.threads[t].name }

// Finished reports whether the execution is over (all threads done, a
// violation, or no thread can move).
func (x *Execution) Finished() bool { return x.finished }

// Violation returns the violation message and kind, empty if none.
func (x *Execution) Violation() (msg, kind string, pos ir.Pos) {
	return x.violation, x.violKind, x.violPos
}

// DefaultMaxThreads is the thread bound of an execution when
// Config.MaxThreads is 0.
const DefaultMaxThreads = 1000

func (c *Config) maxThreads() int {
	if c.MaxThreads > 0 {
		return c.MaxThreads
	}
	return DefaultMaxThreads
}

// BoundHit returns the bound that stopped some thread, empty if none.
func (x *Execution) BoundHit() string { return x.boundHit }

// setBound records a bound other than a loop's unroll bound.
func (x *Execution) setBound(reason string) {
	x.boundHit, x.otherBound = reason, true
}

// LoopBoundHits returns the positions of the loop heads whose unroll
// bound stopped a thread of x, and whether any other bound (steps,
// threads, allocation size, time) stopped a thread or the run too.
func (x *Execution) LoopBoundHits() (loops []ir.Pos, other bool) {
	return x.loopHits, x.otherBound
}

// Steps is the number of visible steps taken.
func (x *Execution) Steps() int { return x.steps }

// Blocked reports whether the execution ended with some thread blocked by a
// failed assume/await (and no violation): such executions are discarded.
func (x *Execution) Blocked() bool {
	if !x.finished || x.violation != "" || x.boundHit != "" || x.internal != "" {
		return false
	}
	for _, n := range x.live {
		if x.threads[n].status == Blocked {
			return true
		}
	}
	return false
}

// Complete reports whether every thread ran to its end without a violation.
func (x *Execution) Complete() bool {
	if !x.finished || x.violation != "" || x.boundHit != "" || x.internal != "" {
		return false
	}
	for _, n := range x.live {
		if x.threads[n].status != Done {
			return false
		}
	}
	return true
}

// enabled reports whether thread t can take a visible step now.
func (x *Execution) enabled(t *Thread) bool {
	if t.status != Runnable {
		return false
	}
	fr := &t.frames[len(t.frames)-1]
	in := &fr.fn.Body[fr.pc]
	switch in.Op {
	case ir.ILock:
		if x.rx != nil && x.rx.locksRun {
			return true // the graph driver runs the lock (and may block)
		}
		addr, err := x.Eval(fr, in.Addr)
		if err != nil {
			return true // the step reports the error
		}
		v, ok := x.peek(addr)
		return !ok || v == 0 || v == DestroyedMutex // the step reports the error
	case ir.IWait, ir.ISignal, ir.IBroadcast:
		if x.prog.CondSteps != nil {
			return x.condEnabled(t, in)
		}
		if in.Op == ir.IWait && t.signaled {
			v, ok := x.peek(t.waitMutex)
			return !ok || v == 0
		}
		return true
	case ir.IJoin:
		h, err := x.Eval(fr, in.A)
		if err != nil {
			return true
		}
		c := x.ThreadByHandle(h)
		return c == nil || (c.status == Done && len(c.buf) == 0)
	}
	return true
}

// ThreadByHandle returns the thread whose handle is h, or nil.
func (x *Execution) ThreadByHandle(h int64) *Thread {
	n := h - 1 - x.handleBase()
	if n < 0 || n >= int64(len(x.threads)) {
		return nil
	}
	return x.threads[n]
}

// Enabled returns the actions that can be taken now: the visible steps of
// enabled threads in creation order, then (TSO/PSO) the possible flushes.
// Inside an atomic block only its thread can move (while it can).
func (x *Execution) Enabled() []Action {
	if x.finished {
		return nil
	}
	if x.atomicT >= 0 {
		if t := x.threads[x.atomicT]; x.enabled(t) {
			return []Action{{T: t.num}}
		}
	}
	en := make([]Action, 0, len(x.live))
	for _, n := range x.live {
		if x.enabled(x.threads[n]) {
			en = append(en, Action{T: n})
		}
	}
	if x.cfg.Exec() != memmodel.Interleaving {
		for _, n := range x.live {
			t := x.threads[n]
			for i, b := range t.buf {
				if x.cfg.Exec() == memmodel.StoreBuffer {
					en = append(en, Action{T: n, Flush: true, Loc: b.loc})
					break
				}
				first := true
				for _, c := range t.buf[:i] {
					if c.loc == b.loc {
						first = false
						break
					}
				}
				if first {
					en = append(en, Action{T: n, Flush: true, Loc: b.loc})
				}
			}
		}
	}
	if x.rx != nil {
		en = x.rx.filter(en)
	}
	return en
}

// FirstFlush returns the first flush action of x.Enabled() (ok false if
// it has none) without building the list: the oldest buffered store of
// the first live thread with a non-empty store buffer.
func (x *Execution) FirstFlush() (a Action, ok bool) {
	if x.finished || x.cfg.Exec() == memmodel.Interleaving {
		return Action{}, false
	}
	if x.rx != nil { // a graph driver filters the actions
		for _, b := range x.Enabled() {
			if b.Flush {
				return b, true
			}
		}
		return Action{}, false
	}
	if x.atomicT >= 0 {
		if t := x.threads[x.atomicT]; x.enabled(t) {
			return Action{}, false
		}
	}
	for _, n := range x.live {
		if t := x.threads[n]; len(t.buf) > 0 {
			return Action{T: n, Flush: true, Loc: t.buf[0].loc}, true
		}
	}
	return Action{}, false
}

// anyEnabled is len(x.Enabled()) > 0 without building the list (checkEnd
// asks it after every step).
func (x *Execution) anyEnabled() bool {
	if x.finished {
		return false
	}
	if x.rx != nil && x.rx.tr == nil { // the trust explorer's filter keeps an action
		return len(x.Enabled()) > 0
	}
	for _, n := range x.live {
		t := x.threads[n]
		if x.enabled(t) || (len(t.buf) > 0 && x.cfg.Exec() != memmodel.Interleaving) {
			return true
		}
	}
	return false
}

// checkEndAfter is CheckEnd after a step of t: when t can still move,
// as it mostly can, the other threads need not be looked at (t is live
// unless DropThreads dropped threads).
func (x *Execution) checkEndAfter(t *Thread) {
	if !x.finished && !x.dropped && (x.rx == nil || x.rx.tr != nil) &&
		(x.enabled(t) || (len(t.buf) > 0 && x.cfg.Exec() != memmodel.Interleaving)) {
		return
	}
	x.CheckEnd()
}

// CheckEnd finishes the execution when no thread can move, classifying a deadlock.
func (x *Execution) CheckEnd() {
	if x.finished {
		return
	}
	if x.anyEnabled() {
		return
	}
	x.finished = true
	if x.boundHit != "" || x.violation != "" {
		return
	}
	var stuck []string
	for _, n := range x.live {
		t := x.threads[n]
		switch t.status {
		case Blocked:
			return // a failed assume: discarded, not a deadlock
		case Runnable, WaitingCond:
			stuck = append(stuck, fmt.Sprintf("t%s %s", t.name, x.blockedOn(t)))
		}
	}
	if len(stuck) > 0 {
		x.violation = "deadlock: " + strings.Join(stuck, "; ")
		x.violKind = "deadlock"
		x.note(nil, "deadlock: every live thread is blocked: "+strings.Join(stuck, "; "))
		return
	}
	if x.cfg.Leaks != LeaksIgnored && x.rx == nil {
		x.checkLeaks()
	}
}

// LockWait is a thread that, at the end of an execution, waits for a mutex.
type LockWait struct {
	T      int32
	Mutex  int64
	Handle int64 // the value the mutex cell takes when T acquires it
}

// LockWaits lists the threads that wait for a mutex at the end of an
// execution that did not complete (blocked, deadlocked or cut by a failed
// assume elsewhere), in thread order.
func (x *Execution) LockWaits() []LockWait {
	if !x.finished || x.boundHit != "" {
		return nil
	}
	var ws []LockWait
	for _, n := range x.live {
		if addr, ok := x.PendingLock(n); ok {
			ws = append(ws, LockWait{T: n, Mutex: addr, Handle: x.Handle(n)})
		}
	}
	return ws
}

// PendingLock returns the mutex cell whose acquisition is thread n's next
// step (a lock instruction, or a phase of a step-wise wait, signal or
// broadcast), and false if its next step is none.
func (x *Execution) PendingLock(n int32) (int64, bool) {
	t := x.threads[n]
	if t == nil || t.status != Runnable || len(t.frames) == 0 {
		return 0, false
	}
	fr := &t.frames[len(t.frames)-1]
	in := &fr.fn.Body[fr.pc]
	switch in.Op {
	case ir.ILock:
		addr, err := x.Eval(fr, in.Addr)
		return addr, err == nil
	case ir.IWait, ir.ISignal, ir.IBroadcast:
		if x.prog.CondSteps == nil {
			return t.waitMutex, in.Op == ir.IWait && t.signaled
		}
		return x.condPending(t, in)
	}
	return 0, false
}

func (x *Execution) blockedOn(t *Thread) string {
	fr := &t.frames[len(t.frames)-1]
	in := &fr.fn.Body[fr.pc]
	where := ""
	if in.Pos.IsValid() {
		where = fmt.Sprintf(" (line %d)", in.Pos.Line)
	}
	switch {
	case t.status == WaitingCond || x.prog.CondSteps != nil && in.Op == ir.IWait && t.condPhase == condWake:
		return "waits on condition " + x.names.LocName(t.waitCond) + where
	case x.prog.CondSteps != nil && (in.Op == ir.ISignal || in.Op == ir.IBroadcast || in.Op == ir.IWait && t.condPhase == condCheck):
		return "waits for the condition-variable lock" + where
	case in.Op == ir.IWait: // (step-wise: its last phase)
		return "waits to re-lock " + x.names.LocName(t.waitMutex) + where
	case in.Op == ir.ILock:
		addr, _ := x.Eval(fr, in.Addr)
		owner := ""
		if v, ok := x.peek(addr); ok && v != 0 {
			owner = " held by t" + x.names.ThreadName(int32(v-1-x.handleBase()))
		}
		return "waits for " + x.names.LocName(addr) + owner + where
	case in.Op == ir.IJoin:
		h, _ := x.Eval(fr, in.A)
		return "waits to join t" + x.names.ThreadName(int32(h-1-x.handleBase())) + where
	}
	return "is stuck" + where
}

// Step takes action a, which must be one of Enabled(). A thread step runs one
// visible instruction and then the thread's invisible instructions up to its
// next visible one; a flush writes a buffered store to memory.
func (x *Execution) Step(a Action) {
	if x.rx != nil && !a.Flush && !x.rx.begin(a.T) {
		return // not a canonical schedule of its graph: pruned
	}
	t := x.threads[a.T]
	x.steps, x.flushes = x.steps+1, x.flushes+flushCount(a)
	x.reserveEvents(a.T, 4)
	info := StepInfo{Action: a, Event: seg.Init}
	wasAtomic := t.atomic > 0
	n := len(x.G.Threads[a.T])
	x.reserveStep()
	x.Log = append(x.Log, info)
	if a.Flush {
		info.Event = x.flushOne(t, a.Loc)
	} else {
		x.exec(t)
		if len(x.G.Threads[a.T]) > n {
			info.Event = seg.EventID{T: a.T, I: int32(n)}
		}
	}
	x.Log[len(x.Log)-1].Event = info.Event
	if wasAtomic || t.atomic > 0 {
		x.Log[len(x.Log)-1].Atomic = t.sec
	}
	if x.rx != nil && !a.Flush {
		x.rx.end(a.T, len(x.Log)-1)
	}
	if x.cfg.MaxSteps > 0 && x.steps >= x.cfg.MaxSteps && !x.finished {
		x.setBound(fmt.Sprintf("step bound %d hit", x.cfg.MaxSteps))
		x.finished = true
		return
	}
	if x.steps&1023 == 0 && !x.cfg.Deadline.IsZero() && !x.finished && time.Now().After(x.cfg.Deadline) {
		x.setBound("time bound hit during an execution")
		x.finished = true
		x.noteSizes()
		return
	}
	x.checkEndAfter(t)
	if x.finished {
		x.noteSizes()
	}
}

// Run drives the execution to its end with sched picking among enabled actions.
func (x *Execution) Run(sched func(enabled []Action) Action) {
	x.CheckEnd()
	for !x.finished {
		x.Step(sched(x.Enabled()))
	}
}

// flushOne writes t's oldest buffered store to loc (any location under TSO) to memory.
// The store leaves the buffer in place: the array is the thread's own
// (copies of the execution copy it), and keeps its room for later stores.
func (x *Execution) flushOne(t *Thread, loc int64) seg.EventID {
	for i, b := range t.buf {
		if x.cfg.Exec() == memmodel.StoreBuffer || b.loc == loc {
			t.buf = t.buf[:i+copy(t.buf[i:], t.buf[i+1:])]
			x.commit(t, b)
			return b.ev
		}
	}
	return seg.Init
}

// choose asks the chooser (when there is a choice) and records the choice.
func (x *Execution) choose(t *Thread, kind ChoiceKind, n int) int {
	k := 0
	if n > 1 {
		k = x.chooser.Choose(t.num, kind, n)
		x.reserveChoice()
		x.Choices = append(x.Choices, ChoiceRec{T: t.num, Kind: kind, N: n, K: k, Step: len(x.Log) - 1})
	}
	return k
}

// commit makes a buffered store visible: memory and modification order.
func (x *Execution) commit(t *Thread, b bufEntry) {
	if c, err := x.cell(b.loc); err == nil {
		*c = b.val
	} else if err.kind == KindUseAfterReturn {
		// A store into a local, issued while its function ran (a store
		// to a dead block is reported when it is issued), reaches memory
		// after the return: the stack cell is no longer an object, so
		// the write is lost, as it is on a real stack (no violation).
	} else if err.kind != "" {
		// a store buffered before the block was freed reaches memory after
		x.RuntimeError(t, x.G.Event(b.ev).Pos, err)
	}
	x.G.MO[b.loc] = append(x.G.MO[b.loc], b.ev)
	x.Commits = append(x.Commits, CommitRec{Event: b.ev, Step: len(x.Log) - 1})
	if x.collecting {
		x.noteAt(t, ir.Pos{}, fmt.Sprintf("store buffer flushes %s = %d", x.names.LocName(b.loc), b.val))
	}
}

// drain flushes all of t's buffered stores, oldest first (fences, RMWs, locks, spawn, join).
func (x *Execution) drain(t *Thread) {
	for len(t.buf) > 0 {
		b := t.buf[0]
		t.buf = t.buf[:copy(t.buf, t.buf[1:])] // in place, as in flushOne
		x.commit(t, b)
	}
}

// readLoc returns what t reads at loc: its own newest buffered store to loc
// (store forwarding) or memory, with the write read from.
func (x *Execution) readLoc(t *Thread, loc int64, c *int64) (int64, seg.EventID) {
	for i := len(t.buf) - 1; i >= 0; i-- {
		if t.buf[i].loc == loc {
			return t.buf[i].val, t.buf[i].ev
		}
	}
	return *c, x.lastWrite(loc)
}

// RuntimeError is an error of the program found while evaluating an
// expression (null pointer dereference, index out of bounds, …) or an
// internal error of the interpreter (internal set).
type RuntimeError struct {
	msg string
	// kind is the violation kind ("" for "runtime-error"): the memory-safety
	// errors have kinds of their own (KindUseAfterFree, ...).
	kind string
	// internal marks a bug of the interpreter, not of the program: it is
	// reported as an internal error (Execution.Internal), never as a
	// violation.
	internal bool
}

// Eval evaluates expression e on frame fr.
func (x *Execution) Eval(fr *Frame, e *ir.Expr) (int64, *RuntimeError) {
	switch e.Kind {
	case ir.EConst:
		return e.Val, nil
	case ir.ELocal:
		return fr.locals[e.Local], nil
	case ir.EGlobalAddr:
		return ir.MakePtr(e.Global+1, 0), nil
	case ir.EUnary:
		a, err := x.Eval(fr, e.A)
		if err != nil {
			return 0, err
		}
		if e.Op.IsFloat() {
			return floatOp(e, a, 0)
		}
		switch e.Op {
		case ir.OpNeg:
			return -a, nil
		case ir.OpNot:
			return b2i(a == 0), nil
		case ir.OpBitNot:
			return ^a, nil
		}
	case ir.EBinary:
		a, err := x.Eval(fr, e.A)
		if err != nil {
			return 0, err
		}
		b, err := x.Eval(fr, e.B)
		if err != nil {
			return 0, err
		}
		if e.Op.IsFloat() {
			return floatOp(e, a, b)
		}
		return binop(e.Op, a, b)
	case ir.EIndex:
		base, err := x.Eval(fr, e.A)
		if err != nil {
			return 0, err
		}
		i, err := x.Eval(fr, e.B)
		if err != nil {
			return 0, err
		}
		if base == 0 {
			return 0, &RuntimeError{msg: "null pointer dereference"}
		}
		if i < 0 || i >= int64(e.Len) {
			return 0, &RuntimeError{msg: fmt.Sprintf("array index %d out of bounds [0, %d)", i, e.Len)}
		}
		return base + i*int64(e.Stride), nil
	case ir.EField:
		base, err := x.Eval(fr, e.A)
		if err != nil {
			return 0, err
		}
		if base == 0 {
			return 0, &RuntimeError{msg: "null pointer dereference"}
		}
		return base + int64(e.Offset), nil
	case ir.ECast:
		a, err := x.Eval(fr, e.A)
		if err != nil {
			return 0, err
		}
		return castInt(a, e.Type), nil
	}
	return 0, &RuntimeError{msg: fmt.Sprintf("internal error: bad expression kind %d", e.Kind), internal: true}
}

// evalAll evaluates es in order; on a runtime error it fails thread t at
// pos and reports false.
//
// The values are in a buffer of x that the next evalAll overwrites: the
// caller uses them right away (copies them into locals or cells).
func (x *Execution) evalAll(t *Thread, fr *Frame, pos ir.Pos, es ...*ir.Expr) ([]int64, bool) {
	if cap(x.scratch) < len(es) {
		x.scratch = make([]int64, len(es))
	}
	vs := x.scratch[:len(es)]
	for i, e := range es {
		v, err := x.Eval(fr, e)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return nil, false
		}
		vs[i] = v
	}
	return vs, true
}

// floatOp computes the floating-point operator of e (ir.EvalFloat) on the
// operand values a and b: an out-of-range float-to-integer conversion is a
// runtime error of the program.
func floatOp(e *ir.Expr, a, b int64) (int64, *RuntimeError) {
	v, err := ir.EvalFloat(e.Op, e.Type, a, b)
	if err != nil {
		return 0, &RuntimeError{msg: err.Error()}
	}
	return v, nil
}

// FormatNumber renders a compare-exchange operand in a counterexample: a
// float as its value, anything else as the number the cell holds.
func FormatNumber(v int64, t *ir.Type) string {
	if t != nil && t.Kind == ir.TFloat {
		return ir.FormatFloat(v, t.Width)
	}
	return fmt.Sprint(v)
}

func castInt(a int64, t *ir.Type) int64 {
	if t == nil || t.Kind == ir.TBool {
		return b2i(a != 0)
	}
	w := t.Width
	if w <= 0 || w >= 64 {
		return a
	}
	if t.Signed {
		s := 64 - uint(w)
		return a << s >> s
	}
	return int64(uint64(a) & (1<<uint(w) - 1))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func binop(op ir.Operator, a, b int64) (int64, *RuntimeError) {
	switch op {
	case ir.OpAdd:
		return a + b, nil
	case ir.OpSub:
		return a - b, nil
	case ir.OpMul:
		return a * b, nil
	case ir.OpDiv, ir.OpMod:
		if b == 0 {
			return 0, &RuntimeError{msg: "division by zero"}
		}
		if b == -1 { // avoid the MinInt64 / -1 trap; wrap like two's complement
			if op == ir.OpDiv {
				return -a, nil
			}
			return 0, nil
		}
		if op == ir.OpDiv {
			return a / b, nil
		}
		return a % b, nil
	case ir.OpAnd:
		return a & b, nil
	case ir.OpOr:
		return a | b, nil
	case ir.OpXor:
		return a ^ b, nil
	case ir.OpShl, ir.OpShr:
		if b < 0 || b > 63 {
			return 0, &RuntimeError{msg: fmt.Sprintf("shift count %d out of range [0, 63]", b)}
		}
		if op == ir.OpShl {
			return a << uint(b), nil
		}
		return a >> uint(b), nil
	case ir.OpEq:
		return b2i(a == b), nil
	case ir.OpNe:
		return b2i(a != b), nil
	case ir.OpLt:
		return b2i(a < b), nil
	case ir.OpLe:
		return b2i(a <= b), nil
	case ir.OpGt:
		return b2i(a > b), nil
	case ir.OpGe:
		return b2i(a >= b), nil
	case ir.OpLAnd:
		return b2i(a != 0 && b != 0), nil
	case ir.OpLOr:
		return b2i(a != 0 || b != 0), nil
	}
	return 0, &RuntimeError{msg: fmt.Sprintf("internal error: bad operator %d", op), internal: true}
}

// cell returns the memory cell at loc, or an error for an invalid address.
func (x *Execution) cell(loc int64) (*int64, *RuntimeError) {
	b, off := ir.PtrBlock(loc), ir.PtrOffset(loc)
	if loc == 0 {
		return nil, &RuntimeError{msg: "null pointer dereference"}
	}
	if b <= 0 || b >= len(x.mem) || x.mem[b] == nil || off >= len(x.mem[b]) {
		if b > 0 && b < len(x.mem) && x.mem[b] != nil && len(x.mem[b]) == 0 {
			if k := x.allocKind(b); k == ir.AllocStack || k == ir.AllocUninit {
				return nil, &RuntimeError{kind: KindUseAfterReturn, msg: "use after return: access to " + x.names.BlockName(b) + ", a local of a function that has returned"}
			}
			return nil, &RuntimeError{kind: KindUseAfterFree, msg: "use after free: access to " + x.names.BlockName(b) + " after it was freed"}
		}
		return nil, &RuntimeError{msg: fmt.Sprintf("invalid memory address %#x", loc)}
	}
	return &x.mem[b][off], nil
}

func (x *Execution) peek(loc int64) (int64, bool) {
	c, err := x.cell(loc)
	if err != nil {
		return 0, false
	}
	return *c, true
}

// fail records a violation in thread t and ends the execution.
func (x *Execution) fail(t *Thread, pos ir.Pos, kind, msg string) {
	t.status = Failed
	x.reserveEvent(t.num)
	x.G.Append(seg.Event{ID: seg.EventID{T: t.num}, Kind: seg.KError, Msg: msg, Pos: pos})
	x.note(t, msg)
	if x.violation != "" {
		return // a later failure after Config.ContinueAfterViolation
	}
	x.violation = msg
	x.violKind = kind
	x.violPos = pos
	x.violState = FinalState(x)
	x.violTrace = len(x.Trace)
	if x.cfg.ContinueAfterViolation {
		x.releaseAtomic(t)
		return
	}
	x.finished = true
}

// Story returns the trace steps up to the first violation (all of them if none).
func (x *Execution) Story() []TraceStep {
	if x.violation != "" && x.violTrace <= len(x.Trace) && x.violTrace > 0 {
		return x.Trace[:x.violTrace]
	}
	return x.Trace
}

// ViolationState is the final-state rendering of the globals at the moment
// of the first violation.
func (x *Execution) ViolationState() string { return x.violState }

func (x *Execution) note(t *Thread, what string) {
	if !x.collecting {
		return
	}
	st := TraceStep{What: what}
	if t != nil {
		st.Thread = "t" + t.name
		if len(t.frames) > 0 {
			fr := &t.frames[len(t.frames)-1]
			if fr.pc < len(fr.fn.Body) {
				st.Pos = fr.fn.Body[fr.pc].Pos
			}
		}
	}
	x.addTrace(st)
}

func (x *Execution) noteAt(t *Thread, pos ir.Pos, what string) {
	if !x.collecting {
		return
	}
	x.addTrace(TraceStep{Thread: "t" + t.name, Pos: pos, What: what})
}

func (x *Execution) addTrace(st TraceStep) {
	st.Line = st.Pos.Line
	if st.Pos.IsValid() && st.Pos.File == x.prog.File {
		st.Source = sourceLine(x.prog.Source, st.Pos.Line)
	}
	x.Trace = append(x.Trace, st)
}

func sourceLine(src []byte, line int) string {
	if line <= 0 {
		return ""
	}
	lines := strings.SplitN(string(src), "\n", line+1)
	if line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

// RuntimeError makes err, met by thread t at pos, the thread's failure
// (an internal error if err is one).
func (x *Execution) RuntimeError(t *Thread, pos ir.Pos, err *RuntimeError) {
	if err.internal {
		t.status = Failed
		if x.internal == "" {
			x.internal = fmt.Sprintf("%s: %s", pos, err.msg)
		}
		x.finished = true
		return
	}
	if err.kind != "" {
		x.fail(t, pos, err.kind, err.msg)
		return
	}
	x.fail(t, pos, "runtime-error", "runtime error: "+err.msg)
}

// flushCount is 1 for a flush, 0 otherwise.
func flushCount(a Action) int {
	if a.Flush {
		return 1
	}
	return 0
}

// FlushSteps is the number of steps of Log that are flushes (Action.Flush).
func (x *Execution) FlushSteps() int { return x.flushes }

// Internal returns the interpreter's own error that ended the execution
// ("internal error: …", a bug of ncmc, not of the program), empty if none.
func (x *Execution) Internal() string { return x.internal }

func (x *Execution) event(t *Thread, e seg.Event) seg.EventID {
	e.ID.T = t.num
	x.reserveEvent(t.num)
	return x.G.Append(e)
}

// lastWrite returns the mo-latest write to loc (SC: the write a read reads from).
func (x *Execution) lastWrite(loc int64) seg.EventID {
	mo := x.G.MO[loc]
	if len(mo) == 0 {
		return seg.Init
	}
	return mo[len(mo)-1]
}

func (x *Execution) val(t *Thread, v int64, typ *ir.Type) string {
	return x.names.FormatValue(v, typ)
}

// exec runs the visible instruction at t's pc, then advances t.
func (x *Execution) exec(t *Thread) {
	fr := &t.frames[len(t.frames)-1]
	in := &fr.fn.Body[fr.pc]
	pos := in.Pos
	addr := int64(0)
	if in.Addr != nil && in.Op != ir.IFree { // free evaluates its pointer itself
		a, err := x.Eval(fr, in.Addr)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
		addr = a
	}
	var c *int64
	if in.Addr != nil && in.Op != ir.IFree {
		var err *RuntimeError
		c, err = x.cell(addr)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
	}
	loc := func() string { return x.names.LocName(addr) }
	destroyed := func() bool {
		if (in.Op == ir.ILock || in.Op == ir.ITryLock) && *c == DestroyedMutex {
			x.RuntimeError(t, pos, DestroyedMutexError(in.Op, loc()))
			return true
		}
		return false
	}
	// Under graph exploration the cell holds the mo-latest write, which a
	// lock reads; the trust explorer's cells may hold a write the lock
	// does not read (a replayed graph's), so its lock checks the value it
	// reads itself (DestroyedMutexError).
	if x.rx != nil && x.rx.tr == nil && destroyed() {
		return
	}
	if x.rx != nil && x.rx.access(t, fr, in, addr, c) {
		if in.Op != ir.IStore && !x.finished && t.status == Runnable {
			if evs := x.G.Threads[t.num]; len(evs) > 0 && evs[len(evs)-1].Loc == addr && evs[len(evs)-1].Kind.IsRead() && evs[len(evs)-1].RVal == Uninit {
				x.uninitRead(t, pos, addr)
				return
			}
		}
		if !x.finished {
			fr.pc++
			x.advance(t)
		}
		return
	}
	if in.Op != ir.ILoad && in.Op != ir.IStore && !(in.Op == ir.IFence && in.Order != ir.OrderSC) {
		// RMWs, locks and other synchronisation act as full fences.
		if n := len(x.Log); n > 0 && x.Log[n-1].Action.T == t.num {
			x.Log[n-1].Fence = true
		}
		if len(t.buf) > 0 {
			x.drain(t)
		}
		if destroyed() {
			return
		}
	}
	switch in.Op {
	case ir.ILoad:
		v, rf := x.readLoc(t, addr, c)
		x.event(t, seg.Event{Kind: seg.KRead, Loc: addr, RVal: v, Order: in.Order, RF: rf, Pos: pos})
		if v == Uninit {
			x.uninitRead(t, pos, addr)
			return
		}
		fr.locals[in.Dst] = v
		if x.collecting {
			x.noteAt(t, pos, fmt.Sprintf("reads %s = %s", loc(), x.val(t, v, LocalType(fr, in.Dst))))
		}
		if x.raceAccess(t, addr, true, false, in.Order, pos) {
			return
		}
	case ir.IStore:
		v, err := x.Eval(fr, in.A)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
		if x.cfg.Exec() == memmodel.Interleaving {
			*c = v
			x.event(t, seg.Event{Kind: seg.KWrite, Loc: addr, WVal: v, Order: in.Order, Pos: pos})
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("writes %s = %s", loc(), x.val(t, v, in.A.Type)))
			}
			if x.raceAccess(t, addr, false, true, in.Order, pos) {
				return
			}
		} else {
			x.reserveEvent(t.num)
			id := x.G.AppendNoMO(seg.Event{ID: seg.EventID{T: t.num}, Kind: seg.KWrite, Loc: addr, WVal: v, Order: in.Order, Pos: pos})
			t.buf = append(t.buf, bufEntry{loc: addr, val: v, ev: id})
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("writes %s = %s (into its store buffer)", loc(), x.val(t, v, in.A.Type)))
			}
		}
	case ir.IRMW:
		v, err := x.Eval(fr, in.A)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
		old := *c
		if old == Uninit {
			x.uninitRead(t, pos, addr)
			return
		}
		nv := in.RMWResult(old, v)
		*c = nv
		x.noteRMW(t, &RMWOp{Kind: in.RMW, Wrap: in.Wrap, A: v})
		x.event(t, seg.Event{Kind: seg.KRMW, Loc: addr, RVal: old, WVal: nv, Order: in.Order, RF: x.lastWrite(addr), Pos: pos})
		if in.Dst >= 0 {
			fr.locals[in.Dst] = old
		}
		if x.collecting {
			x.noteAt(t, pos, fmt.Sprintf("%s on %s: %s -> %s", in.RMW, loc(), FormatNumber(old, in.A.Type), FormatNumber(nv, in.A.Type)))
		}
		if x.raceAccess(t, addr, true, true, in.Order, pos) {
			return
		}
	case ir.ICAS:
		vs, ok := x.evalAll(t, fr, pos, in.A, in.B)
		if !ok {
			return
		}
		exp, des := vs[0], vs[1]
		old := *c
		if old == Uninit {
			x.uninitRead(t, pos, addr)
			return
		}
		rf := x.lastWrite(addr)
		x.noteRMW(t, &RMWOp{CAS: true, A: exp, B: des})
		if old == exp {
			*c = des
			x.event(t, seg.Event{Kind: seg.KRMW, Loc: addr, RVal: old, WVal: des, Order: in.Order, RF: rf, Pos: pos})
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("cas on %s succeeds: %s -> %s", loc(), FormatNumber(old, in.B.Type), FormatNumber(des, in.B.Type)))
			}
			if x.raceAccess(t, addr, true, true, in.Order, pos) {
				return
			}
		} else {
			x.event(t, seg.Event{Kind: seg.KRead, Loc: addr, RVal: old, Order: in.FailOrder, RF: rf, Pos: pos})
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("cas on %s fails: reads %s, expected %s", loc(), FormatNumber(old, in.A.Type), FormatNumber(exp, in.A.Type)))
			}
			if x.raceAccess(t, addr, true, false, in.FailOrder, pos) {
				return
			}
		}
		if in.Dst >= 0 {
			fr.locals[in.Dst] = old
		}
		if in.Dst2 >= 0 {
			fr.locals[in.Dst2] = b2i(old == exp)
		}
	case ir.IFence:
		x.event(t, seg.Event{Kind: seg.KFence, Order: in.Order, Pos: pos})
		x.noteAt(t, pos, "fence "+in.Order.String())
	case ir.ILock:
		x.lock(t, addr, c, pos, in.Msg)
	case ir.ITryLock:
		if *c == 0 {
			x.lock(t, addr, c, pos, "")
			fr.locals[in.Dst] = 1
		} else {
			x.event(t, seg.Event{Kind: seg.KRead, Loc: addr, RVal: *c, Order: ir.OrderAcq, RF: x.lastWrite(addr), Pos: pos})
			fr.locals[in.Dst] = 0
			x.noteAt(t, pos, "trylock "+loc()+" fails (held)")
		}
	case ir.IUnlock:
		if *c != x.Handle(t.num) {
			x.RuntimeError(t, pos, &RuntimeError{msg: "unlock of mutex " + loc() + " not held by this thread"})
			return
		}
		x.unlock(t, addr, c, pos, in.Msg)
	case ir.IWait:
		if x.prog.CondSteps != nil {
			if !x.condStep(t, fr, in, addr, c, pos) {
				return
			}
			break
		}
		if t.signaled {
			// Re-acquire the mutex after being woken; the wait completes.
			mc, err := x.cell(t.waitMutex)
			if err != nil {
				x.RuntimeError(t, pos, err)
				return
			}
			t.signaled = false
			x.lock(t, t.waitMutex, mc, pos, "")
			break
		}
		maddr, err := x.Eval(fr, in.B)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
		mc, err := x.cell(maddr)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
		if *mc != x.Handle(t.num) {
			x.RuntimeError(t, pos, &RuntimeError{msg: "wait on " + loc() + " without holding mutex " + x.names.LocName(maddr)})
			return
		}
		x.unlock(t, maddr, mc, pos, "")
		t.status = WaitingCond
		t.waitMutex, t.waitCond = maddr, addr
		x.waiters[addr] = append(x.waiters[addr], t.num)
		x.noteAt(t, pos, "waits on "+loc())
		return // pc stays at the wait until re-locked
	case ir.ISignal, ir.IBroadcast:
		if x.prog.CondSteps != nil {
			if !x.condStep(t, fr, in, addr, c, pos) {
				return
			}
			break
		}
		ws := x.waiters[addr]
		kind := seg.KSignal
		if in.Op == ir.IBroadcast {
			kind = seg.KBroadcast
		}
		x.event(t, seg.Event{Kind: kind, Loc: addr, Pos: pos})
		switch {
		case len(ws) == 0:
			x.noteAt(t, pos, in.Op.String()+" "+loc()+" (no waiter)")
		case in.Op == ir.IBroadcast:
			for _, w := range ws {
				x.wake(x.threads[w])
			}
			delete(x.waiters, addr)
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("broadcast %s wakes %d waiter(s)", loc(), len(ws)))
			}
		default:
			i := x.choose(t, ChooseWaiter, len(ws))
			w := ws[i]
			x.waiters[addr] = append(ws[:i:i], ws[i+1:]...)
			x.wake(x.threads[w])
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("signal %s wakes t%s", loc(), x.threads[w].name))
			}
		}
	case ir.ISpawn:
		args, ok := x.evalAll(t, fr, pos, in.Args...)
		if !ok {
			return
		}
		if max := x.cfg.maxThreads(); len(x.live) >= max {
			x.setBound(fmt.Sprintf("thread bound %d hit (--max-threads)", max))
			x.finished = true
			return
		}
		t.spawnCount++
		name, child := x.names.child(t.num, t.name, t.spawnCount)
		sp := x.event(t, seg.Event{Kind: seg.KSpawn, Other: child, Pos: pos})
		ct := x.newThreadAs(child, name, t.num, sp)
		x.raceThreadStart(ct, t)
		x.pushFrame(ct, in.Func, args, -1)
		if in.Dst >= 0 {
			fr.locals[in.Dst] = x.Handle(ct.num)
		}
		if x.collecting {
			x.noteAt(t, pos, fmt.Sprintf("spawns t%s running %s", name, in.Func.FullName()))
		}
		fr.pc++
		x.advance(ct)
		x.advance(t)
		return
	case ir.IJoin:
		h, err := x.Eval(fr, in.A)
		if err != nil {
			x.RuntimeError(t, pos, err)
			return
		}
		ct := x.ThreadByHandle(h)
		if ct == nil {
			x.RuntimeError(t, pos, &RuntimeError{msg: fmt.Sprintf("join of an invalid thread handle %d", h)})
			return
		}
		x.event(t, seg.Event{Kind: seg.KJoin, Other: ct.num, Pos: pos})
		x.raceJoin(t, ct)
		if in.Dst >= 0 {
			fr.locals[in.Dst] = ct.result
		}
		x.noteAt(t, pos, "joins t"+ct.name)
	case ir.IFree:
		if !x.free(t, fr, in) {
			return
		}
	case ir.IAtomicBegin:
		// Entering an atomic block is a step of its own: other threads may
		// run between the thread's previous step and the block. (If another
		// thread is inside a block, this thread is only enabled when that
		// one cannot move; its atomicity is then released.)
		x.nextSec++
		t.sec = x.nextSec
		t.atomic = 1
		x.atomicT = t.num
		x.raceAtomicBegin(t)
	default:
		x.RuntimeError(t, pos, &RuntimeError{msg: "internal error: " + in.Op.String() + " is not a visible instruction", internal: true})
		return
	}
	if x.finished {
		return
	}
	fr = &t.frames[len(t.frames)-1]
	fr.pc++
	x.advance(t)
}

// LocalType returns the type of local i of frame fr.
func LocalType(fr *Frame, i int) *ir.Type {
	if i >= 0 && i < len(fr.fn.Locals) {
		return fr.fn.Locals[i].Type
	}
	return nil
}

// lock acquires the mutex at addr, whose cell is c; the counterexample
// note is msg (an ILock's Msg: "" says "locks <mutex>", ir.MsgQuiet says
// nothing).
func (x *Execution) lock(t *Thread, addr int64, c *int64, pos ir.Pos, msg string) {
	x.acquire(t, addr, c, pos)
	x.raceLock(t, addr)
	if x.collecting {
		x.lockNote(t, pos, msg, "locks ", addr)
	}
}

// unlock releases the mutex at addr (msg as for lock).
func (x *Execution) unlock(t *Thread, addr int64, c *int64, pos ir.Pos, msg string) {
	x.release(t, addr, c, pos)
	x.raceUnlock(t, addr)
	if x.collecting {
		x.lockNote(t, pos, msg, "unlocks ", addr)
	}
}

// acquire takes the mutex at addr (cell c) for t: the lock event only
// (lock adds the race detector's edge and the note).
func (x *Execution) acquire(t *Thread, addr int64, c *int64, pos ir.Pos) {
	rf := x.lastWrite(addr)
	old := *c
	*c = x.Handle(t.num)
	x.event(t, seg.Event{Kind: seg.KLock, Loc: addr, RVal: old, WVal: *c, Order: ir.OrderAcq, RF: rf, Pos: pos})
}

// release frees the mutex at addr (cell c): the unlock event only.
func (x *Execution) release(t *Thread, addr int64, c *int64, pos ir.Pos) {
	*c = 0
	x.event(t, seg.Event{Kind: seg.KUnlock, Loc: addr, WVal: 0, Order: ir.OrderRel, Pos: pos})
}

// lockNote notes a lock or unlock: msg if set (none for ir.MsgQuiet),
// else verb and the mutex.
func (x *Execution) lockNote(t *Thread, pos ir.Pos, msg, verb string, addr int64) {
	switch msg {
	case ir.MsgQuiet:
	case "":
		x.noteAt(t, pos, verb+x.names.LocName(addr))
	default:
		x.noteAt(t, pos, msg)
	}
}

func (x *Execution) wake(w *Thread) {
	w.status = Runnable
	w.signaled = true
	w.wokenStep = len(x.Log) - 1
}

// advance runs t's invisible instructions until it reaches a visible one, ends,
// blocks or fails.
func (x *Execution) advance(t *Thread) {
	for !x.finished && t.status == Runnable {
		if x.cfg.MaxThreadSteps > 0 {
			if t.instrs++; t.instrs > x.cfg.MaxThreadSteps {
				x.threadBoundHit(t)
				return
			}
		}
		fr := &t.frames[len(t.frames)-1]
		if fr.pc >= len(fr.fn.Body) {
			x.ret(t, 0)
			continue
		}
		in := &fr.fn.Body[fr.pc]
		if in.Op.IsVisible() {
			return
		}
		// in.Pos: where errors are reported (not copied for every instruction)
		switch in.Op {
		case ir.INop:
		case ir.IAssign:
			v, err := x.Eval(fr, in.A)
			if err != nil {
				x.RuntimeError(t, in.Pos, err)
				return
			}
			fr.locals[in.Dst] = v
		case ir.ITLSLoad:
			fr.locals[in.Dst] = t.tls[in.Slot]
		case ir.ITLSStore:
			v, err := x.Eval(fr, in.A)
			if err != nil {
				x.RuntimeError(t, in.Pos, err)
				return
			}
			t.tls[in.Slot] = v
		case ir.IJump:
			fr.pc = in.Target
			continue
		case ir.IBranch:
			v, err := x.Eval(fr, in.A)
			if err != nil {
				x.RuntimeError(t, in.Pos, err)
				return
			}
			if v != 0 {
				fr.pc = in.Target
			} else {
				fr.pc = in.Target2
			}
			continue
		case ir.IAssert:
			v, err := x.Eval(fr, in.A)
			if err != nil {
				x.RuntimeError(t, in.Pos, err)
				return
			}
			if v == 0 {
				x.fail(t, in.Pos, "assertion", "assertion failed: "+in.Msg)
				return
			}
		case ir.IFail:
			x.fail(t, in.Pos, "assertion", in.Msg)
			return
		case ir.IAssume:
			v, err := x.Eval(fr, in.A)
			if err != nil {
				x.RuntimeError(t, in.Pos, err)
				return
			}
			if v == 0 {
				if in.Msg == ir.MsgExit && x.cfg.Leaks != LeaksIgnored && x.rx == nil && x.exitLeaks(t, in.Pos) {
					return
				}
				t.status = Blocked
				what := "assume fails: the thread blocks for good"
				if in.Assume.Spin() {
					what = "await condition is false: the thread blocks (spin-assume)"
				}
				t.why = what
				x.event(t, seg.Event{Kind: seg.KBlock, Msg: what, Pos: in.Pos})
				x.noteAt(t, in.Pos, what)
				x.releaseAtomic(t)
				return
			}
		case ir.INondet:
			vs, ok := x.evalAll(t, fr, in.Pos, in.A, in.B)
			if !ok {
				return
			}
			lo, hi := vs[0], vs[1]
			if hi < lo {
				x.RuntimeError(t, in.Pos, &RuntimeError{msg: fmt.Sprintf("nondet range [%d, %d] is empty", lo, hi)})
				return
			}
			if hi-lo >= 1<<20 {
				x.RuntimeError(t, in.Pos, &RuntimeError{msg: fmt.Sprintf("nondet range [%d, %d] is too large to enumerate", lo, hi)})
				return
			}
			v := lo + int64(x.choose(t, ChooseNondet, int(hi-lo+1)))
			fr.locals[in.Dst] = v
			if x.collecting {
				x.noteAt(t, in.Pos, fmt.Sprintf("chooses nondet value %d", v))
			}
		case ir.IAtomicBegin:
			if t.atomic == 0 {
				return // entering the outermost block is a step (see exec)
			}
			t.atomic++
		case ir.IAtomicEnd:
			t.atomic--
			if t.atomic <= 0 {
				t.atomic = 0
				x.atomicT = -1
				x.raceAtomicEnd(t)
			}
		case ir.IAlloc:
			t.allocCount++
			b := x.names.HeapBlock(t.name, t.allocCount, in.Record)
			for b >= len(x.mem) {
				x.mem = append(x.mem, nil)
			}
			size := in.Record.Size
			if in.A != nil {
				n, err := x.Eval(fr, in.A)
				if err != nil {
					x.RuntimeError(t, in.Pos, err)
					return
				}
				if n < 1 || n > int64(1<<16/max(size, 1)) {
					t.status = BoundHit
					x.setBound(fmt.Sprintf("allocation of %d elements at %s (ncmc allocates 1 to %d)", n, in.Pos, 1<<16/max(size, 1)))
					x.noteAt(t, in.Pos, x.boundHit)
					x.releaseAtomic(t)
					return
				}
				size *= int(n)
			}
			cells := make([]int64, size)
			inits := in.Args
			if len(inits) > len(cells) {
				inits = inits[:len(cells)]
			}
			vs, ok := x.evalAll(t, fr, in.Pos, inits...)
			if !ok {
				return
			}
			copy(cells, vs)
			if in.Alloc == ir.AllocMalloc || in.Alloc == ir.AllocUninit {
				uninitCells(cells, len(vs), in.Record)
			}
			x.mem[b] = cells
			if in.Alloc != ir.AllocLocal || b < len(x.alloc) {
				for b >= len(x.alloc) {
					x.alloc = append(x.alloc, ir.AllocLocal)
				}
				x.alloc[b] = in.Alloc
			}
			if inv := innermostInv(t); inv != nil {
				if x.owner == nil {
					x.owner = map[int]int64{}
				}
				x.owner[b] = inv.Obj
			}
			if x.initShared { // Fork: copy on write
				x.G.InitVal, x.initShared = maps.Clone(x.G.InitVal), false
			}
			for off, v := range cells {
				if v != 0 {
					x.G.InitVal[ir.MakePtr(b, off)] = v
				} else {
					delete(x.G.InitVal, ir.MakePtr(b, off))
				}
			}
			fr.locals[in.Dst] = ir.MakePtr(b, 0)
		case ir.ILoopHead:
			fr.locals[in.Dst]++
			bound := in.Bound
			if bound == 0 {
				bound = x.cfg.Unroll
				if x.cfg.UnboundedLoops {
					fr.locals[in.Dst] = 0 // not counted: no bound, and not part of the state
					bound = 1
				}
			}
			if fr.locals[in.Dst] > int64(bound) {
				t.status = BoundHit
				x.boundHit = fmt.Sprintf("loop unroll bound %d hit at %s", bound, in.Pos)
				if !slices.Contains(x.loopHits, in.Pos) {
					// a fresh array: a clone may share the old one
					x.loopHits = append(x.loopHits[:len(x.loopHits):len(x.loopHits)], in.Pos)
				}
				x.noteAt(t, in.Pos, x.boundHit)
				x.releaseAtomic(t)
				return
			}
		case ir.ISelf:
			fr.locals[in.Dst] = x.Handle(t.num)
		case ir.ICall:
			args, ok := x.evalAll(t, fr, in.Pos, in.Args...)
			if !ok {
				return
			}
			if len(t.frames) > 10000 {
				x.RuntimeError(t, in.Pos, &RuntimeError{msg: "call stack too deep (10000 frames)"})
				return
			}
			fr.pc++
			x.pushFrame(t, in.Func, args, in.Dst)
			if in.Func.Kind == ir.FuncLinearizable {
				inv := &seg.Invocation{Method: in.Func.Name, Type: in.Func.FullName()}
				if in.Func.Recv != nil {
					inv.Type = in.Func.Recv.Name
				}
				if len(args) > 0 {
					inv.Obj = args[0]
					inv.Args = append([]int64(nil), args[1:]...)
				}
				inv.Begin = x.event(t, seg.Event{Kind: seg.KInvBegin, Loc: inv.Obj, Inv: inv, Pos: in.Pos})
				t.frames[len(t.frames)-1].inv = inv
				if x.collecting {
					x.noteAt(t, in.Pos, fmt.Sprintf("calls %s.%s(%s)", x.names.LocName(inv.Obj), inv.Method, joinInts(inv.Args)))
				}
			}
			continue
		case ir.IReturn:
			v := int64(0)
			if in.A != nil {
				var err *RuntimeError
				v, err = x.Eval(fr, in.A)
				if err != nil {
					x.RuntimeError(t, in.Pos, err)
					return
				}
			}
			x.ret(t, v)
			continue
		default:
			x.RuntimeError(t, in.Pos, &RuntimeError{msg: "internal error: unknown instruction " + opName(in.Op), internal: true})
			return
		}
		fr.pc++
	}
}

func joinInts(vs []int64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// threadBoundHit stops t at its per-thread step budget (Config.MaxThreadSteps).
func (x *Execution) threadBoundHit(t *Thread) {
	t.status = BoundHit
	var pos ir.Pos
	if fr := &t.frames[len(t.frames)-1]; fr.pc < len(fr.fn.Body) {
		pos = fr.fn.Body[fr.pc].Pos
	}
	x.setBound(fmt.Sprintf("step bound %d of thread t%s hit at %s (a spin loop or a long-running loop?)", x.cfg.MaxThreadSteps, t.name, pos))
	x.noteAt(t, pos, x.boundHit)
	x.releaseAtomic(t)
}

func (x *Execution) releaseAtomic(t *Thread) {
	if x.atomicT == t.num {
		x.atomicT = -1
		t.atomic = 0
		x.raceAtomicEnd(t)
	}
}

// ret pops t's top frame returning v.
func (x *Execution) ret(t *Thread, v int64) {
	fr := t.frames[len(t.frames)-1]
	t.frames = t.frames[:len(t.frames)-1]
	if len(t.frames) > 0 || fr.fn != x.prog.Main {
		x.freeStack(&fr)
	}
	if fr.inv != nil {
		fr.inv.Ret = v
		fr.inv.HasRet = fr.fn.Result != nil && fr.fn.Result.Kind != ir.TVoid
		fr.inv.Done = true
		pos := fr.fn.Pos
		if fr.pc < len(fr.fn.Body) {
			pos = fr.fn.Body[fr.pc].Pos
		}
		fr.inv.End = x.event(t, seg.Event{Kind: seg.KInvEnd, Loc: fr.inv.Obj, Inv: fr.inv, Pos: pos})
		if fr.inv.HasRet {
			if x.collecting {
				x.noteAt(t, pos, fmt.Sprintf("%s.%s returns %d", x.names.LocName(fr.inv.Obj), fr.inv.Method, v))
			}
		}
	}
	if len(t.frames) == 0 {
		t.status = Done
		t.result = v
		x.event(t, seg.Event{Kind: seg.KThreadEnd, WVal: v})
		x.releaseAtomic(t)
		x.raceThreadEnd(t)
		return
	}
	if fr.retDst >= 0 {
		t.frames[len(t.frames)-1].locals[fr.retDst] = v
	}
}

// StateHash returns a 128-bit hash of everything the rest of the execution
// depends on: memory, every thread's frames, locals, status and store
// buffer, condition-variable waiters and the atomic-block owner. Two
// executions of one exploration with equal hashes have the same futures
// (the graph built so far and the step count are not part of the state).
func (x *Execution) StateHash() [2]uint64 {
	if x.cfg.Symmetry && x.races == nil {
		return x.symmetricHash()
	}
	h := fnv.New128a()
	var buf [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	x.HashMem(put, nil)
	put(int64(x.atomicT))
	for _, n := range x.live {
		put(int64(n))
		threadHash(h, x.threads[n])
	}
	x.HashWaiters(put)
	if x.races != nil {
		x.races.hash(h, put)
	}
	var sum [16]byte
	h.Sum(sum[:0])
	return [2]uint64{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:])}
}

// innermostInv returns the invocation of t's innermost unfinished
// linearizable frame, or nil.
func innermostInv(t *Thread) *seg.Invocation {
	for i := len(t.frames) - 1; i >= 0; i-- {
		if inv := t.frames[i].inv; inv != nil && !inv.Done {
			return inv
		}
	}
	return nil
}

// OutermostInv returns the invocation of t's outermost unfinished
// linearizable frame (its top-level invocation), or nil.
func OutermostInv(t *Thread) *seg.Invocation {
	for i := range t.frames {
		if inv := t.frames[i].inv; inv != nil && !inv.Done {
			return inv
		}
	}
	return nil
}

// opName names an opcode, also one outside the known range (an interpreter
// bug reported as an internal error must not panic itself).
func opName(o ir.Op) string {
	if o <= ir.ITLSStore {
		return o.String()
	}
	return fmt.Sprintf("#%d", int(o))
}
