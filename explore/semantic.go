package explore

import (
	"ncmc/commspec"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// Semantic execution graphs (seg.Semantic) of interpreter runs: the
// collector counts their classes (Classes.SEG) and the ncmc-thesis rule
// (explore/mcrx) pivots over them.

// StepOrder lists the events of g in execution order from the steps of a
// run (n steps; step i is thread t's visible step whose first event is ev,
// or a flush) and maps every event to the step that created it. A step
// creates the events of its thread from its first event up to the next
// step of the thread; events before a thread's first step are put with it.
// Flushes create no events (the order is exact under SC).
func StepOrder(g *seg.Graph, n int, step func(i int) (t int32, flush bool, ev seg.EventID)) ([]seg.EventID, map[seg.EventID]int) {
	next := make([]int32, len(g.Threads)) // next event index per thread not yet placed
	var order []seg.EventID
	stepOf := map[seg.EventID]int{}
	// The events of step i run up to the first event of the thread's next
	// step: find, per step, the end of its range.
	end := make([]int32, n)
	lastStep := make([]int, len(g.Threads))
	for i := range lastStep {
		lastStep[i] = -1
	}
	for i := 0; i < n; i++ {
		t, flush, ev := step(i)
		end[i] = -1
		if flush || ev.IsInit() || int(t) >= len(g.Threads) {
			continue
		}
		if p := lastStep[t]; p >= 0 {
			end[p] = ev.I
		}
		lastStep[t] = i
	}
	for t, p := range lastStep {
		if p >= 0 {
			end[p] = int32(len(g.Threads[t]))
		}
	}
	for i := 0; i < n; i++ {
		t, flush, ev := step(i)
		if flush || ev.IsInit() || int(t) >= len(g.Threads) {
			continue
		}
		for ; next[t] < end[i]; next[t]++ {
			id := seg.EventID{T: t, I: next[t]}
			order = append(order, id)
			stepOf[id] = i
		}
	}
	for t := range g.Threads {
		for ; int(next[t]) < len(g.Threads[t]); next[t]++ {
			order = append(order, seg.EventID{T: int32(t), I: next[t]})
		}
	}
	return order, stepOf
}

// SemBuilder builds SEGs of interpreter runs with the specs of Options.
type SemBuilder struct {
	prog  *ir.Program
	specs map[string]*commspec.Spec
	cfg   interp.Config
}

// NewSemBuilder returns a builder for the SEGs of prog's runs under the
// specs of o.
func NewSemBuilder(prog *ir.Program, o Options) *SemBuilder {
	b := &SemBuilder{prog: prog, specs: map[string]*commspec.Spec{}, cfg: interp.Config{Unroll: o.Unroll}}
	for _, s := range o.Specs {
		b.specs[s.Object] = s
	}
	return b
}

// Build returns the SEG of x with events in execution order order.
// Invocations of object types with a spec are scoped; two invocations
// commute when their spec says so, with L1 states taken from x's memory just
// before each invocation's first data access (for a coarse-locked method:
// just after it acquired the lock), rebuilt from the graph.
func (b *SemBuilder) Build(x *interp.Execution, order []seg.EventID) (*seg.Semantic, error) {
	g := x.G
	var pos map[seg.EventID]int
	states := map[*seg.Invocation]commspec.State{}
	stateOf := func(inv *seg.Invocation) commspec.State {
		if st, ok := states[inv]; ok {
			return st
		}
		if pos == nil {
			pos = make(map[seg.EventID]int, len(order))
			for i, id := range order {
				pos[id] = i
			}
		}
		p := pos[inv.Begin]
		th := g.Threads[inv.Begin.T]
		for i := int(inv.Begin.I) + 1; i < len(th); i++ {
			if k := th[i].Kind; k == seg.KRead || k == seg.KWrite || k == seg.KRMW {
				p = pos[th[i].ID]
				break
			}
			if th[i].Kind == seg.KInvEnd && th[i].Inv == inv {
				break
			}
		}
		var st commspec.State
		if rec := b.prog.RecordByName(inv.Type); rec != nil {
			st = interp.NewAbsState(memoryAt(x, pos, p), inv.Obj, rec, b.cfg)
		}
		states[inv] = st
		return st
	}
	return seg.NewSemantic(g, seg.SemanticOpts{
		Order:  order,
		Scoped: func(inv *seg.Invocation) bool { return b.specs[inv.Type] != nil },
		Commute: func(u, v *seg.Invocation) bool {
			sp := b.specs[u.Type]
			if sp == nil || u.Type != v.Type {
				return false
			}
			var su, sv commspec.State
			if sp.UsesState() {
				su, sv = stateOf(u), stateOf(v)
			}
			return sp.Commute(commspec.FromSeg(u, su), commspec.FromSeg(v, sv))
		},
	})
}

// memoryAt rebuilds x's memory just before the event at position p of the
// execution order (pos): every written location holds the value of its last
// write before p (its initial value if none). Blocks allocated later hold
// their final contents, but nothing reachable at p points to them.
func memoryAt(x *interp.Execution, pos map[seg.EventID]int, p int) *interp.Memory {
	mem := x.Memory()
	for loc, ws := range x.G.MO {
		v := x.G.InitVal[loc]
		for _, w := range ws {
			if q, ok := pos[w]; ok && q < p {
				v = x.G.WriteValue(w, loc)
			}
		}
		mem.Store(loc, v)
	}
	return mem
}

// SegKey returns the SEG key of a complete execution x under the specs of
// o (Classes.SEG).
func SegKey(prog *ir.Program, o Options, x *interp.Execution) (string, error) {
	order, _ := StepOrder(x.G, len(x.Log), func(i int) (int32, bool, seg.EventID) {
		s := x.Log[i]
		return s.Action.T, s.Action.Flush, s.Event
	})
	sem, err := NewSemBuilder(prog, o).Build(x, order)
	if err != nil {
		return "", err
	}
	return sem.Key(), nil
}
