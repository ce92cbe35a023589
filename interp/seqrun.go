package interp

import (
	"encoding/binary"
	"fmt"
	"strings"

	"ncmc/ir"
	"ncmc/seg"
)

// SeqRunner runs calls of a program's functions and methods one at a time, to
// completion, on a single thread, with the interpreter of Execution (so a call
// behaves exactly as it does inside an exploration, minus the interleavings).
// It is what `ncmc spec check` uses to build object states by sequences of
// method calls and to run pairs of invocations in both orders, and what
// AbsState uses to evaluate abstraction functions.
//
// The runner's memory starts as the program's initial globals; main is never
// run. Events are not kept: the execution graph is reset after every call.
// A SeqRunner is not safe for concurrent use.
type SeqRunner struct {
	x *Execution
	t *Thread
}

// SeqResult is the outcome of one sequential call.
type SeqResult struct {
	// Status is Done for a call that returned, Failed for an assertion
	// failure or runtime error, Blocked for a failed assume/await, BoundHit
	// for a loop or step bound, and Runnable or WaitingCond for a call that
	// got stuck (it waits for a lock it cannot get, a join, or a signal no
	// other thread can send).
	Status ThreadStatus
	Ret    int64  // the result (Status == Done); 0 for functions without one
	Msg    string // what went wrong, for any other status
}

// OK reports whether the call returned normally.
func (r SeqResult) OK() bool { return r.Status == Done }

func (r SeqResult) String() string {
	if r.OK() {
		return fmt.Sprint(r.Ret)
	}
	return r.Msg
}

// seqMain is the empty main function of the runner's private copy of the program.
var seqMain = &ir.Func{Name: "__seq_main", Result: ir.Void, Body: []ir.Instr{{Op: ir.IReturn, Dst: -1, Dst2: -1}}}

// NewSeqRunner returns a runner over prog's initial memory. names may be nil
// (a fresh table is made); pass the exploration's Names to read the memory of
// its executions (see Execution.Memory). cfg gives the loop bound
// (Config.Unroll; 0 means 8) and the per-call instruction budget
// (Config.MaxThreadSteps; 0 means 1,000,000); the other fields of cfg are
// ignored (calls run under SC, and there is only one thread).
func NewSeqRunner(prog *ir.Program, names *Names, cfg Config) *SeqRunner {
	if names == nil {
		names = NewNames(prog)
	}
	// Only the bounds are taken from cfg: every other setting keeps its zero
	// value (sequential consistency, plain interpretation).
	cfg = Config{Unroll: cfg.Unroll, MaxThreadSteps: cfg.MaxThreadSteps}
	if cfg.Unroll <= 0 {
		cfg.Unroll = 8
	}
	if cfg.MaxThreadSteps <= 0 {
		cfg.MaxThreadSteps = 1_000_000
	}
	p := *prog
	p.Main = seqMain
	x := NewExecution(&p, names, cfg, FirstChoice{}, false)
	return &SeqRunner{x: x, t: x.threads[x.live[0]]}
}

// FirstChoice resolves nondeterminism inside sequential calls by always
// taking the first alternative (nondet(lo, hi) yields lo).
type FirstChoice struct{}

func (FirstChoice) Choose(int32, ChoiceKind, int) int { return 0 }

// Alloc allocates a fresh zeroed instance of rec on the heap, exactly as
// `new R { }` in the runner's thread would, and returns its address.
func (r *SeqRunner) Alloc(rec *ir.Record) int64 {
	x, t := r.x, r.t
	t.allocCount++
	b := x.names.HeapBlock(t.name, t.allocCount, rec)
	for b >= len(x.mem) {
		x.mem = append(x.mem, nil)
	}
	x.mem[b] = make([]int64, rec.Size)
	return ir.MakePtr(b, 0)
}

// Call runs f with args (for a method, args[0] is the receiver) to its end
// and returns its outcome. Linearizable methods are run like any other call
// (their invocation events are discarded with the rest of the graph).
func (r *SeqRunner) Call(f *ir.Func, args []int64) SeqResult {
	x, t := r.x, r.t
	if len(args) != f.NumParams {
		return SeqResult{Status: Failed, Msg: fmt.Sprintf("%s takes %d arguments, got %d", f.FullName(), f.NumParams, len(args))}
	}
	// Reset the thread and the per-call state of the execution.
	x.finished, x.violation, x.violKind, x.violPos, x.boundHit = false, "", "", ir.Pos{}, ""
	x.loopHits, x.otherBound = nil, false
	x.atomicT = -1
	x.waiters = map[int64][]int32{}
	x.G = seg.New()
	x.G.LocName = x.names.LocName
	x.G.AddThread(t.num, t.name, -1, seg.Init)
	t.frames = t.frames[:0]
	t.status, t.signaled, t.atomic, t.why, t.instrs, t.result = Runnable, false, 0, "", 0, 0
	t.buf = nil
	x.pushFrame(t, f, args, -1)
	x.advance(t)
	for t.status == Runnable && !x.finished {
		if !x.enabled(t) {
			return SeqResult{Status: Runnable, Msg: "stuck: " + x.blockedOn(t) + " (no other thread can help)"}
		}
		x.exec(t)
	}
	switch t.status {
	case Done:
		return SeqResult{Status: Done, Ret: t.result}
	case Failed:
		return SeqResult{Status: Failed, Msg: x.violation + at(x.violPos)}
	case Blocked:
		return SeqResult{Status: Blocked, Msg: t.why}
	case BoundHit:
		return SeqResult{Status: BoundHit, Msg: x.boundHit}
	case WaitingCond:
		return SeqResult{Status: WaitingCond, Msg: "stuck: " + x.blockedOn(t) + " (no other thread can signal)"}
	}
	return SeqResult{Status: t.status, Msg: "stuck"}
}

func at(p ir.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return " at " + p.String()
}

// SeqState is a saved state of a SeqRunner: its memory and allocation count.
type SeqState struct {
	mem   [][]int64
	alloc int
}

// Snapshot saves the runner's state (a deep copy of its memory).
func (r *SeqRunner) Snapshot() *SeqState {
	return &SeqState{mem: CopyMem(r.x.mem), alloc: r.t.allocCount}
}

// Restore puts the runner back into state s (s stays valid and can be
// restored again).
func (r *SeqRunner) Restore(s *SeqState) {
	r.x.mem = CopyMem(s.mem)
	r.t.allocCount = s.alloc
}

// Key returns a string that is equal for two states exactly when their
// memories (every cell of every block) and allocation counts are equal: two
// states with equal keys behave identically under every call sequence.
func (s *SeqState) Key() string {
	var b strings.Builder
	var buf [binary.MaxVarintLen64]byte
	b.Write(buf[:binary.PutVarint(buf[:], int64(s.alloc))])
	for i, blk := range s.mem {
		if blk == nil {
			continue
		}
		b.Write(buf[:binary.PutVarint(buf[:], int64(i))])
		b.Write(buf[:binary.PutVarint(buf[:], int64(len(blk)))])
		for _, v := range blk {
			b.Write(buf[:binary.PutVarint(buf[:], v)])
		}
	}
	return b.String()
}

// CopyMem returns a deep copy of memory cells by block.
func CopyMem(mem [][]int64) [][]int64 {
	out := make([][]int64, len(mem))
	for i, blk := range mem {
		if blk != nil {
			out[i] = append(make([]int64, 0, len(blk)), blk...) // a freed block stays empty, not nil
		}
	}
	return out
}

// Load returns the value of the memory cell at loc in the runner's current
// state; ok is false for an invalid address.
func (r *SeqRunner) Load(loc int64) (v int64, ok bool) { return r.x.peek(loc) }

// Memory is a frozen copy of an execution's memory (committed stores only:
// under TSO/PSO, stores still in store buffers are not in it).
type Memory struct {
	prog  *ir.Program
	names *Names
	mem   [][]int64
}

// Memory returns a copy of x's current memory. An explorer takes one at the
// point where it wants an object's abstract state (e.g. just before an
// invocation's first event) and evaluates abstraction functions on it later
// with NewAbsState.
func (x *Execution) Memory() *Memory {
	return &Memory{prog: x.prog, names: x.names, mem: CopyMem(x.mem)}
}

// AbsState is the abstract state of one object in a Memory: it evaluates the
// object's abstraction functions (CIR `abstraction fn`) there, by running
// them with a SeqRunner over the memory. Abstraction functions are pure (the
// front end checks it), so evaluation never changes the memory. Results are
// cached per (function, arguments). Eval has the signature of
// commspec.State, so an *AbsState can be used as an invocation's state in
// commutativity conditions of logic L1.
type AbsState struct {
	m     *Memory
	obj   int64
	rec   *ir.Record
	cfg   Config
	run   *SeqRunner
	cache map[string]int64
}

// NewAbsState returns the abstract state of the object of type rec at
// address obj in memory m. cfg bounds the evaluation (Unroll: loops without
// @unroll; MaxThreadSteps: instructions per call); zero values get defaults.
func NewAbsState(m *Memory, obj int64, rec *ir.Record, cfg Config) *AbsState {
	return &AbsState{m: m, obj: obj, rec: rec, cfg: cfg, cache: map[string]int64{}}
}

// Eval runs the abstraction function fn of the object with args (without the
// receiver) and returns its result (booleans as 0/1). It fails if fn is not
// an abstraction function of the object, has another number of parameters,
// or does not return normally (a runtime error, a failed assertion, a bound).
func (s *AbsState) Eval(fn string, args []int64) (int64, error) {
	f := s.rec.MethodByName(fn)
	if f == nil || f.Kind != ir.FuncAbstraction {
		return 0, fmt.Errorf("%s has no abstraction function %s", s.rec.Name, fn)
	}
	if len(args) != f.NumParams-1 {
		return 0, fmt.Errorf("abstraction function %s.%s takes %d arguments, got %d", s.rec.Name, fn, f.NumParams-1, len(args))
	}
	key := fn + "(" + joinInts(args) + ")"
	if v, ok := s.cache[key]; ok {
		return v, nil
	}
	if s.run == nil {
		s.run = NewSeqRunner(s.m.prog, s.m.names, s.cfg)
		s.run.x.mem = s.m.mem // shared: abstraction functions only read
	}
	res := s.run.Call(f, append([]int64{s.obj}, args...))
	if !res.OK() {
		return 0, fmt.Errorf("%s.%s(%s): %s", s.rec.Name, fn, joinInts(args), res.Msg)
	}
	s.cache[key] = res.Ret
	return res.Ret, nil
}
