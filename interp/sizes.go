package interp

import (
	"sync/atomic"

	"ncmc/seg"
)

// Replay-heavy explorers (vmcr, trust) run the program from the start for
// every execution, hundreds of thousands of times, and the executions of
// one exploration have about the same size. Growing each execution's
// slices one append at a time (events of every thread, the step log, the
// choices) was a large part of their cost. The sizes an exploration has
// needed so far are therefore kept with its Names (the one table every
// execution of an exploration shares), and a new execution allocates each
// slice once at that size. A finished execution raises the hints to the
// sizes it needed (noteSizes); hints only grow. Execution.Release goes
// further and hands a finished execution's storage to the next one.

// maxHintedThreads bounds the threads whose event counts are remembered;
// threads numbered beyond it grow their slices as before.
const maxHintedThreads = 64

// sizeHints are the sizes one exploration's executions have needed.
type sizeHints struct {
	threads atomic.Int32
	log     atomic.Int32
	choices atomic.Int32
	events  [maxHintedThreads]atomic.Int32
}

// raise makes h at least n.
func raise(h *atomic.Int32, n int) {
	for {
		old := h.Load()
		if int32(n) <= old || h.CompareAndSwap(old, int32(n)) {
			return
		}
	}
}

// grown returns the capacity a full slice of length n grows to: the
// hint h if that is more, else double.
func grown(h *atomic.Int32, n int) int {
	if c := int(h.Load()); c > n {
		return c
	}
	return max(2*n, 8)
}

// noteSizes raises the hints to the sizes this finished execution
// needed (with room for a step's reservation).
func (x *Execution) noteSizes() {
	h := &x.names.hints
	for t, evs := range x.G.Threads {
		if t >= maxHintedThreads {
			break
		}
		if n := int32(len(evs) + 4); n > h.events[t].Load() {
			raise(&h.events[t], int(n))
		}
	}
	if n := int32(len(x.Log)); n > h.log.Load() {
		raise(&h.log, int(n))
	}
	if n := int32(len(x.Choices)); n > h.choices.Load() {
		raise(&h.choices, int(n))
	}
}

// reserveEvent makes room for one more event of thread tn.
func (x *Execution) reserveEvent(tn int32) { x.reserveEvents(tn, 1) }

// reserveEvents makes room for n more events of thread tn (a step adds
// a few, some of them through a GraphDriver that appends to G itself).
func (x *Execution) reserveEvents(tn int32, n int) {
	if int(tn) >= len(x.G.Threads) {
		return
	}
	evs := x.G.Threads[tn]
	if len(evs)+n <= cap(evs) || int(tn) >= maxHintedThreads {
		return
	}
	c := max(grown(&x.names.hints.events[tn], len(evs)), len(evs)+n)
	ne := make([]seg.Event, len(evs), c)
	copy(ne, evs)
	x.G.Threads[tn] = ne
}

// reserveStep makes room for one more entry of the step log.
func (x *Execution) reserveStep() {
	if len(x.Log) < cap(x.Log) {
		return
	}
	c := grown(&x.names.hints.log, len(x.Log))
	nl := make([]StepInfo, len(x.Log), c)
	copy(nl, x.Log)
	x.Log = nl
}

// reserveChoice makes room for one more choice record.
func (x *Execution) reserveChoice() {
	if len(x.Choices) < cap(x.Choices) {
		return
	}
	c := grown(&x.names.hints.choices, len(x.Choices))
	nc := make([]ChoiceRec, len(x.Choices), c)
	copy(nc, x.Choices)
	x.Choices = nc
}

// spare is storage of a released execution waiting to be reused: its
// threads and event arrays by thread number.
type spare struct {
	threads []*Thread
	events  [][]seg.Event
}

// Release hands x's storage to the next NewExecution of the same
// exploration (the same Names), which then reuses it instead of
// allocating: the execution graph's event arrays, the step log, the
// threads with their frames and locals, the memory of the globals.
// Replay-heavy explorers call it when they are done with an execution.
// After Release neither x nor anything obtained from it (G and its
// events, Log, Choices, Commits, Trace, Races, threads, frames, memory
// cells) may be used any more, nor may a Clone of x that shares its
// graph's event arrays; strings obtained from it (FinalState,
// Violation, Story lines) stay valid. An explorer that keeps an
// execution's graph must copy it first (seg.Graph.Clone is not enough: it
// shares the event arrays).
func (x *Execution) Release() {
	if x.names != nil {
		x.names.free.Store(x)
	}
}

// reuse resets a released execution for a new run of the same program.
func (x *Execution) reuse(cfg Config, chooser Chooser, trace bool) {
	// the released execution's threads and event arrays become the
	// spares; the previous spares' backing arrays hold the new tables
	threads, events := x.spare.threads, x.spare.events
	x.spare = spare{threads: x.threads, events: x.G.Threads}
	clear(threads)
	clear(events)
	g := x.G
	g.Threads = events[:0]
	g.Names, g.Parent, g.SpawnedBy = g.Names[:0], g.Parent[:0], g.SpawnedBy[:0]
	// new maps rather than cleared ones: a caller may have kept the old
	// ones (the trust glue replaces MO, vmcr's traces share InitVal)
	g.MO, g.InitVal = map[int64][]seg.EventID{}, make(map[int64]int64, len(g.InitVal))
	clear(x.waiters)
	*x = Execution{
		prog: x.prog, names: x.names, cfg: cfg, chooser: chooser, atomicT: -1, collecting: trace,
		mem:     x.mem[:len(x.prog.Globals)+1],
		threads: threads[:0],
		live:    x.live[:0],
		waiters: x.waiters,
		G:       g,
		Log:     x.Log[:0],
		Commits: x.Commits[:0],
		Choices: x.Choices[:0],
		scratch: x.scratch,
		spare:   x.spare,
	}
}
