package interp

import (
	"ncmc/ir"
	"ncmc/seg"
)

// The accessors explorers use to look into an execution between steps.
// They return the interpreter's own values (slices included): explorers
// read them and must not modify them unless a comment says otherwise.

// Thread returns thread n, or nil if the execution has no thread n.
func (x *Execution) Thread(n int32) *Thread {
	if n < 0 || int(n) >= len(x.threads) {
		return nil
	}
	return x.threads[n]
}

// ThreadTable returns the threads indexed by thread number (nil: no such
// thread in this execution).
func (x *Execution) ThreadTable() []*Thread { return x.threads }

// IsEnabled reports whether thread t can take its next visible step now.
func (x *Execution) IsEnabled(t *Thread) bool { return x.enabled(t) }

// AtomicThread returns the thread inside an atomic block, or -1.
func (x *Execution) AtomicThread() int32 { return x.atomicT }

// Names returns the names the execution uses for threads and heap blocks.
func (x *Execution) Names() *Names { return x.names }

// Config returns the configuration the execution runs under (read only).
func (x *Execution) Config() *Config { return &x.cfg }

// Program returns the program the execution runs.
func (x *Execution) Program() *ir.Program { return x.prog }

// Peek returns the value of memory location loc, false if loc is not a
// valid location.
func (x *Execution) Peek(loc int64) (int64, bool) { return x.peek(loc) }

// Cells returns the memory cells by block id (block 0 is unused, block
// i+1 is Program.Globals[i]).
func (x *Execution) Cells() [][]int64 { return x.mem }

// Waiters returns the threads waiting on each condition variable, in wait
// order.
func (x *Execution) Waiters() map[int64][]int32 { return x.waiters }

// Owner returns the receiver of the linearizable invocation that allocated
// heap block b, if b was allocated inside one.
func (x *Execution) Owner(b int) (int64, bool) {
	o, ok := x.owner[b]
	return o, ok
}

// HasViolation reports whether the execution has violated a property.
func (x *Execution) HasViolation() bool { return x.violation != "" }

// ViolationTraceLen returns len(Trace) at the first violation.
func (x *Execution) ViolationTraceLen() int { return x.violTrace }

// Collecting reports whether the execution records its Trace.
func (x *Execution) Collecting() bool { return x.collecting }

// NextInstr returns thread tn's next visible instruction and the frame it
// runs in, or nil, nil if the thread has none.
func (x *Execution) NextInstr(tn int32) (*ir.Instr, *Frame) {
	t := x.Thread(tn)
	if t == nil || len(t.frames) == 0 {
		return nil, nil
	}
	fr := &t.frames[len(t.frames)-1]
	if fr.pc >= len(fr.fn.Body) {
		return nil, nil
	}
	return &fr.fn.Body[fr.pc], fr
}

// Size estimates what copying x costs, in cells: memory, locals, and a
// few per thread.
func (x *Execution) Size() int {
	n := 0
	for _, b := range x.mem {
		n += len(b)
	}
	for _, t := range x.threads {
		if t == nil {
			continue
		}
		n += 16
		for _, f := range t.frames {
			n += 4 + len(f.locals)
		}
	}
	return n
}

// AddEvent appends event e of thread t to the execution graph.
func (x *Execution) AddEvent(t *Thread, e seg.Event) seg.EventID { return x.event(t, e) }

// NoteAt adds a line about thread t at pos to the trace (if collecting).
func (x *Execution) NoteAt(t *Thread, pos ir.Pos, what string) { x.noteAt(t, pos, what) }

// FormatValue renders v of type typ as seen by thread t.
func (x *Execution) FormatValue(t *Thread, v int64, typ *ir.Type) string { return x.val(t, v, typ) }

// ReportViolation makes msg, of kind, at pos the execution's violation
// unless it already has one; the execution goes on (the caller decides
// whether to stop it).
func (x *Execution) ReportViolation(kind, msg string, pos ir.Pos) {
	if x.violation != "" {
		return
	}
	x.violation, x.violKind, x.violPos = msg, kind, pos
	x.violState, x.violTrace = FinalState(x), len(x.Trace)
	x.note(nil, msg)
}

// Prune abandons a graph-exploration execution (Pruned then reports true).
func (x *Execution) Prune() { x.rx.prune() }

// RecordRace records data race rc once (Config.Races = RacesRecord).
func (x *Execution) RecordRace(rc Race) {
	r := x.rx
	key := [2]seg.EventID{rc.A, rc.B}
	if r.seen == nil {
		r.seen = map[[2]seg.EventID]bool{}
	}
	if !r.seen[key] {
		r.seen[key] = true
		r.races = append(r.races, rc)
	}
}

// ClearRaces forgets the recorded data races.
func (x *Execution) ClearRaces() { x.rx.races, x.rx.seen = nil, nil }

// GraphDriver returns the driver installed by SetGraphDriver, or nil.
func (x *Execution) GraphDriver() GraphDriver {
	if x.rx == nil {
		return nil
	}
	return x.rx.tr
}

// DropThreads takes the threads in drop out of the execution: they no
// longer take steps nor count as live (the coverability explorer drops
// anonymous threads an ω thread subsumes).
func (x *Execution) DropThreads(drop map[int32]bool) {
	live := x.live[:0]
	for _, n := range x.live {
		if !drop[n] {
			live = append(live, n)
		}
	}
	x.live = live
	x.dropped = true
}

// CopyThread adds a thread named name whose local state (status, frames,
// locals, thread-local storage, atomic depth) is a copy of thread t's, with
// t's parent and spawn event, and returns its number.
func (x *Execution) CopyThread(tn int32, name string) int32 {
	t := x.threads[tn]
	c := x.newThread(name, x.G.Parent[tn], x.G.SpawnedBy[tn])
	c.status, c.signaled, c.waitMutex, c.waitCond = t.status, t.signaled, t.waitMutex, t.waitCond
	c.condPhase, c.condWho, c.condVal = t.condPhase, t.condWho, t.condVal
	c.result, c.atomic, c.sec = t.result, t.atomic, t.sec
	c.tls = append([]int64(nil), t.tls...)
	c.frames = make([]Frame, len(t.frames))
	for i, fr := range t.frames {
		fr.locals = append([]int64(nil), fr.locals...)
		c.frames[i] = fr
	}
	return c.num
}

// Num returns the thread's number.
func (t *Thread) Num() int32 { return t.num }

// Name returns the thread's stable name.
func (t *Thread) Name() string { return t.name }

// Status returns where the thread stands.
func (t *Thread) Status() ThreadStatus { return t.status }

// Signaled reports whether a waiting thread was woken and must re-lock.
func (t *Thread) Signaled() bool { return t.signaled }

// Atomic returns the depth of atomic blocks the thread is in.
func (t *Thread) Atomic() int { return t.atomic }

// Frames returns the thread's call stack, outermost first.
func (t *Thread) Frames() []Frame { return t.frames }

// HashLocal writes t's local state with put and str: everything the state
// hash covers but the spawn and allocation counts, with the locals live
// reports dead written as 0. The innermost frames' destination locals of a
// pending call count as dead.
func (t *Thread) HashLocal(put func(int64), str func(string), live func(fn *ir.Func, pc, local int) bool) {
	t.writeState(put, str, live)
}

// writeState writes t's state but the spawn and allocation counts. With
// live nil every local is written; otherwise locals live reports dead, and
// the destination locals of a pending call, are written as 0.
func (t *Thread) writeState(put func(int64), str func(string), live func(fn *ir.Func, pc, local int) bool) {
	put(int64(t.status))
	put(b2i(t.signaled))
	put(t.waitMutex)
	put(t.waitCond)
	if t.condPhase != 0 {
		put(int64(t.condPhase))
		put(int64(t.condWho))
		put(t.condVal)
	}
	put(int64(t.atomic))
	put(t.result)
	put(int64(len(t.frames)))
	for i := range t.frames {
		skip := -1
		if live != nil && i+1 < len(t.frames) {
			skip = t.frames[i+1].retDst
		}
		fr := &t.frames[i]
		str(fr.fn.FullName())
		put(int64(fr.pc))
		put(int64(fr.retDst))
		put(b2i(fr.inv != nil))
		for j, v := range fr.locals {
			if live != nil && (j == skip || !live(fr.fn, fr.pc, j)) {
				put(0)
				continue
			}
			put(v)
		}
	}
	put(int64(len(t.buf)))
	for _, e := range t.buf {
		put(e.loc)
		put(e.val)
	}
	for _, v := range t.tls {
		put(v)
	}
}

// Fn returns the function the frame runs.
func (f *Frame) Fn() *ir.Func { return f.fn }

// PC returns the index of the frame's current instruction in Fn().Body.
func (f *Frame) PC() int { return f.pc }

// RetDst returns the caller's destination local, -1 if none.
func (f *Frame) RetDst() int { return f.retDst }

// Locals returns the frame's locals; explorers that run an instruction
// for the interpreter (GraphDriver.Access) write its results there.
func (f *Frame) Locals() []int64 { return f.locals }

// Invocation returns the linearizable invocation the frame is, or nil.
func (f *Frame) Invocation() *seg.Invocation { return f.inv }

// Store writes v to location loc of the memory copy (nothing if loc is
// not in it).
func (m *Memory) Store(loc, v int64) {
	b, off := ir.PtrBlock(loc), ir.PtrOffset(loc)
	if b > 0 && b < len(m.mem) && off < len(m.mem[b]) {
		m.mem[b][off] = v
	}
}

// WaitMutex returns the mutex a waiting thread re-locks after wait.
func (t *Thread) WaitMutex() int64 { return t.waitMutex }

// WaitCond returns the condition variable a waiting thread waits on.
func (t *Thread) WaitCond() int64 { return t.waitCond }

// Block blocks thread t for good with reason why (shown in the trace): a
// graph driver's lock whose compare-and-swap read a held mutex, as a failed
// assume blocks a thread.
func (x *Execution) Block(t *Thread, why string, pos ir.Pos) {
	t.status = Blocked
	t.why = why
	x.event(t, seg.Event{Kind: seg.KBlock, Msg: why, Pos: pos})
	x.noteAt(t, pos, why)
}

// NewRuntimeError returns a runtime error of the program with message msg
// (for Execution.RuntimeError).
func NewRuntimeError(msg string) *RuntimeError { return &RuntimeError{msg: msg} }
