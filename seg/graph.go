// Package seg is the execution-graph core of ncmc: events and their labels,
// the base relations po (program order), rf (reads-from) and mo (modification
// order, also called co), the derived relations fr, sw and hb, consistency
// checks per memory model, canonical graph keys and DOT rendering.
//
// A Graph is built by the interpreter one event at a time; it does not run
// programs. Events are identified by (thread, index in program order); the
// initial writes of all locations share the pseudo event Init.
package seg

import (
	"fmt"

	"ncmc/ir"
)

// EventID names an event: thread number T (0 is main) and position I in that
// thread's program order. Init (T = -1) stands for the initial write of every
// location.
type EventID struct {
	T int32
	I int32
}

// Init is the pseudo event that writes every location's initial value.
var Init = EventID{T: -1, I: 0}

// IsInit reports whether id is the initial-write pseudo event.
func (id EventID) IsInit() bool { return id.T < 0 }

// String renders id as "t<thread>.<index>", or "init".
func (id EventID) String() string {
	if id.IsInit() {
		return "init"
	}
	return fmt.Sprintf("t%d.%d", id.T, id.I)
}

// Kind is an event kind.
type Kind uint8

// Event kinds.
const (
	KRead      Kind = iota // load: RVal from RF
	KWrite                 // store: WVal
	KRMW                   // successful RMW/CAS: reads RVal from RF, writes WVal, atomically
	KFence                 // fence with Order
	KLock                  // lock acquisition: reads the mutex from RF (an unlock or init), writes "held"
	KUnlock                // lock release: a write to the mutex location
	KSpawn                 // creates thread Other
	KJoin                  // waits for thread Other to finish
	KThreadEnd             // the last event of a finished thread (Ret holds its result)
	KInvBegin              // start of a linearizable method invocation Inv
	KInvEnd                // end of invocation Inv (Inv.Ret is known)
	KSignal                // condition-variable signal on Loc
	KBroadcast             // condition-variable broadcast on Loc
	KError                 // assertion failure or runtime error (Msg)
	KBlock                 // the thread blocked for good (assume/await failed; Msg)
)

var kindNames = [...]string{"R", "W", "RMW", "F", "L", "U", "spawn", "join", "end", "begin", "end-inv", "signal", "broadcast", "error", "block"}

// String is the short name of the kind ("R", "W", "RMW", …).
func (k Kind) String() string { return kindNames[k] }

// IsRead reports whether events of kind k read a memory location (and so have an rf source).
func (k Kind) IsRead() bool { return k == KRead || k == KRMW || k == KLock }

// IsWrite reports whether events of kind k write a memory location (and so sit in mo).
func (k Kind) IsWrite() bool { return k == KWrite || k == KRMW || k == KLock || k == KUnlock }

// Invocation is one call of a linearizable method.
type Invocation struct {
	Obj    int64  // receiver address
	Type   string // object type name
	Method string
	Args   []int64
	Ret    int64
	HasRet bool
	Begin  EventID
	End    EventID // zero until the invocation completes
	Done   bool
}

// Event is one node of an execution graph.
type Event struct {
	ID    EventID
	Kind  Kind
	Loc   int64 // location (encoded pointer) for accesses, locks, condition variables
	RVal  int64 // value read (IsRead kinds)
	WVal  int64 // value written (IsWrite kinds)
	Order ir.Order
	RF    EventID // the write read from (IsRead kinds); Init for the initial value
	Other int32   // KSpawn: child thread; KJoin: joined thread
	Inv   *Invocation
	Msg   string
	Pos   ir.Pos
}

// Graph is an execution graph under construction or complete.
type Graph struct {
	// Threads[t] lists thread t's events in program order.
	Threads [][]Event
	// Names[t] is the stable hierarchical name of thread t ("0", "0.1", ...).
	Names []string
	// Parent[t] is the spawning thread of t (-1 for main) and SpawnedBy[t] the spawn event.
	Parent    []int32
	SpawnedBy []EventID
	// MO maps a location to its writes in modification (coherence) order;
	// the initial write (Init) is implicitly first.
	MO map[int64][]EventID
	// InitVal gives the initial value of a location.
	InitVal map[int64]int64
	// LocName renders a location for people (e.g. "x", "a[2]", "c.count").
	LocName func(loc int64) string
}

// Clone returns an independent copy of g. Past events are immutable and
// shared: each thread's event slice is capped, so that appending to one
// graph never writes into the other's arrays; a caller that changes an
// event in place must copy that thread's slice first. Names, parents, mo
// and initial values are copied.
func (g *Graph) Clone() *Graph {
	c := *g
	c.Threads = make([][]Event, len(g.Threads))
	for t, evs := range g.Threads {
		c.Threads[t] = evs[:len(evs):len(evs)]
	}
	c.Names = append([]string(nil), g.Names...)
	c.Parent = append([]int32(nil), g.Parent...)
	c.SpawnedBy = append([]EventID(nil), g.SpawnedBy...)
	c.MO = make(map[int64][]EventID, len(g.MO))
	for k, v := range g.MO {
		c.MO[k] = v[:len(v):len(v)]
	}
	c.InitVal = make(map[int64]int64, len(g.InitVal))
	for k, v := range g.InitVal {
		c.InitVal[k] = v
	}
	return &c
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{MO: map[int64][]EventID{}, InitVal: map[int64]int64{}}
}

// AddThread registers thread t (numbers are dense and given in creation order
// by the caller) with its stable name and parent.
func (g *Graph) AddThread(t int32, name string, parent int32, spawn EventID) {
	for int(t) >= len(g.Threads) {
		g.Threads = append(g.Threads, nil)
		g.Names = append(g.Names, "")
		g.Parent = append(g.Parent, -1)
		g.SpawnedBy = append(g.SpawnedBy, Init)
	}
	g.Names[t] = name
	g.Parent[t] = parent
	g.SpawnedBy[t] = spawn
}

// Append adds e at the end of thread e.ID.T's program order, assigning e.ID.I,
// and returns its id. Writes are appended at the end of their location's mo;
// callers that choose another mo position use InsertMO instead.
func (g *Graph) Append(e Event) EventID {
	t := e.ID.T
	e.ID.I = int32(len(g.Threads[t]))
	g.Threads[t] = append(g.Threads[t], e)
	if e.Kind.IsWrite() {
		g.MO[e.Loc] = append(g.MO[e.Loc], e.ID)
	}
	return e.ID
}

// AppendNoMO is Append without touching mo (for explorers that place writes in mo themselves).
func (g *Graph) AppendNoMO(e Event) EventID {
	t := e.ID.T
	e.ID.I = int32(len(g.Threads[t]))
	g.Threads[t] = append(g.Threads[t], e)
	return e.ID
}

// InsertMO places write w at position pos of loc's modification order.
func (g *Graph) InsertMO(loc int64, w EventID, pos int) {
	mo := g.MO[loc]
	mo = append(mo, EventID{})
	copy(mo[pos+1:], mo[pos:])
	mo[pos] = w
	g.MO[loc] = mo
}

// Event returns the event with id (nil for Init or an unknown id).
func (g *Graph) Event(id EventID) *Event {
	if id.IsInit() || int(id.T) >= len(g.Threads) || int(id.I) >= len(g.Threads[id.T]) {
		return nil
	}
	return &g.Threads[id.T][id.I]
}

// NumEvents is the number of events, Init excluded.
func (g *Graph) NumEvents() int {
	n := 0
	for _, th := range g.Threads {
		n += len(th)
	}
	return n
}

// Events calls f for every event, thread by thread in program order.
func (g *Graph) Events(f func(e *Event)) {
	for t := range g.Threads {
		for i := range g.Threads[t] {
			f(&g.Threads[t][i])
		}
	}
}

// WriteValue returns the value written by w at loc (the initial value for Init).
func (g *Graph) WriteValue(w EventID, loc int64) int64 {
	if w.IsInit() {
		return g.InitVal[loc]
	}
	return g.Event(w).WVal
}

// Loc renders a location using LocName when set.
func (g *Graph) Loc(loc int64) string {
	if g.LocName != nil {
		return g.LocName(loc)
	}
	return fmt.Sprintf("[%d:%d]", ir.PtrBlock(loc), ir.PtrOffset(loc))
}

// Label renders an event the way herd does, e.g. "W(rlx) x=1" or "R(sc) y=0".
func (g *Graph) Label(e *Event) string {
	switch e.Kind {
	case KRead:
		return fmt.Sprintf("R(%s) %s=%d", e.Order, g.Loc(e.Loc), e.RVal)
	case KWrite:
		return fmt.Sprintf("W(%s) %s=%d", e.Order, g.Loc(e.Loc), e.WVal)
	case KRMW:
		return fmt.Sprintf("RMW(%s) %s=%d->%d", e.Order, g.Loc(e.Loc), e.RVal, e.WVal)
	case KFence:
		return fmt.Sprintf("F(%s)", e.Order)
	case KLock:
		return "L " + g.Loc(e.Loc)
	case KUnlock:
		return "U " + g.Loc(e.Loc)
	case KSpawn:
		return fmt.Sprintf("spawn t%d", e.Other)
	case KJoin:
		return fmt.Sprintf("join t%d", e.Other)
	case KThreadEnd:
		return "end"
	case KInvBegin, KInvEnd:
		inv := e.Inv
		s := fmt.Sprintf("%s.%s%v", inv.Type, inv.Method, inv.Args)
		if e.Kind == KInvEnd && inv.HasRet {
			s += fmt.Sprintf("=%d", inv.Ret)
		}
		if e.Kind == KInvBegin {
			return "begin " + s
		}
		return "end " + s
	case KSignal:
		return "signal " + g.Loc(e.Loc)
	case KBroadcast:
		return "broadcast " + g.Loc(e.Loc)
	case KError:
		return "error: " + e.Msg
	case KBlock:
		return "blocked: " + e.Msg
	}
	return e.Kind.String()
}
