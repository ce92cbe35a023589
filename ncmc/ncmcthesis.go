package ncmc

import (
	"context"

	"ncmc/commspec"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/mcr"
	"ncmc/seg"
)

// This file holds the NCMC thesis's exploration rule (Options.NCMCRule
// "thesis", docs/ncmc.md "The thesis's rule") and the construction of
// semantic execution graphs (seg.Semantic) from interpreter runs, which the
// collector uses to count SEG classes (Classes.SEG).

// verifyNCMCThesis explores prog with the mcr explorer and the thesis's
// scoped-read rule (Alg. 6, reading P of research notes mcr-and-ncmc.md
// §3.2): a pivot of a read inside a top-level scoped invocation top(r) to a
// write w (or the initial value) is kept only if
// E_P = SSH-predecessors(top(r)) ∩ PO-successors(top(w)) is non-empty (for
// the initial value, every node is a PO-successor of init), and then r must
// come before some e ∈ E_P. Reads outside invocations are pivoted as in
// plain MCR. The rule is incomplete: it misses behaviours (docs/ncmc.md).
func verifyNCMCThesis(ctx context.Context, t *Task) error {
	cfg := t.Config()
	cfg.ContinueAfterViolation = true
	if err := runMCR(ctx, t, cfg, true); err != nil {
		return err
	}
	t.Note("ncmc rule thesis: the NCMC thesis's scoped-read pruning rule, which is known to miss behaviours (docs/ncmc.md); a verified verdict is not a proof")
	return nil
}

// thesisRule implements mcr.ScopedRule with reading P of the thesis's
// Alg. 6 over the SEG of the execution being pivoted (x, tr).
type thesisRule struct {
	sb  *semBuilder
	x   *interp.Execution
	tr  *mcr.Trace
	sem *seg.Semantic
	// stepOf maps an event to the step that created it.
	stepOf map[seg.EventID]int
	err    error
}

// Pivot implements mcr.ScopedRule.
func (r *thesisRule) Pivot(tr *mcr.Trace, rd int, srcs []int) (bool, []int) {
	if tr != r.tr || r.err != nil {
		// Not the trace of the current execution (cannot happen) or the SEG
		// failed: no pruning, plain MCR.
		return false, nil
	}
	if r.sem == nil {
		order, stepOf := stepOrder(r.x.G, len(r.x.Log), func(i int) (int32, bool, seg.EventID) {
			s := r.x.Log[i]
			return s.Action.T, s.Action.Flush, s.Event
		})
		sem, err := r.sb.build(r.x, order)
		if err != nil {
			r.err = err
			return false, nil
		}
		r.sem, r.stepOf = sem, stepOf
	}
	s := r.sem
	topR, scoped := s.Top(tr.Steps[rd].Event)
	if !scoped {
		return false, nil
	}
	n := len(s.Nodes)
	cand := seg.NewSet(n) // PO-successors of top(w) over the sources
	for _, w := range srcs {
		if w < 0 {
			for j := 1; j < n; j++ {
				cand.Add(j)
			}
			continue
		}
		tw, ok := s.Node(tr.Steps[w].Event)
		if !ok {
			continue
		}
		cand = cand.Union(s.PO.Succ(tw))
	}
	var after []int
	seen := map[int]bool{}
	for _, e := range cand.Members() {
		if !s.SSH.Has(e, topR) {
			continue
		}
		if st, ok := r.repStep(e); ok && !seen[st] {
			seen[st] = true
			after = append(after, st)
		}
	}
	if len(after) == 0 {
		return true, nil
	}
	return false, after
}

// repStep is the step that stands for SEG node j in ordering constraints:
// for an event, the step that created it; for an invocation, the step of
// its first event after the begin marker (its first visible action), else
// the step of the begin marker.
func (r *thesisRule) repStep(j int) (int, bool) {
	nd := &r.sem.Nodes[j]
	if nd.Init {
		return 0, false
	}
	if nd.Inv != nil {
		th := r.x.G.Threads[nd.Ev.T]
		for i := int(nd.Ev.I) + 1; i < len(th); i++ {
			if top, ok := r.sem.Top(th[i].ID); !ok || top != j {
				break
			}
			if st, ok := r.stepOf[th[i].ID]; ok {
				return st, true
			}
		}
	}
	st, ok := r.stepOf[nd.Ev]
	return st, ok
}

// stepOrder lists the events of g in execution order from the steps of a
// run (n steps; step i is thread t's visible step whose first event is ev,
// or a flush) and maps every event to the step that created it. A step
// creates the events of its thread from its first event up to the next
// step of the thread; events before a thread's first step are put with it.
// Flushes create no events (the order is exact under SC).
func stepOrder(g *seg.Graph, n int, step func(i int) (t int32, flush bool, ev seg.EventID)) ([]seg.EventID, map[seg.EventID]int) {
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

// semBuilder builds SEGs of interpreter runs with the specs of Options.
type semBuilder struct {
	prog  *ir.Program
	specs map[string]*commspec.Spec
	cfg   interp.Config
}

func newSemBuilder(prog *ir.Program, o Options) *semBuilder {
	b := &semBuilder{prog: prog, specs: map[string]*commspec.Spec{}, cfg: interp.Config{Unroll: o.Unroll}}
	for _, s := range o.Specs {
		b.specs[s.Object] = s
	}
	return b
}

// build returns the SEG of x with events in execution order order.
// Invocations of object types with a spec are scoped; two invocations
// commute when their spec says so, with L1 states taken from x's memory just
// before each invocation's first data access (for a coarse-locked method:
// just after it acquired the lock), rebuilt from the graph.
func (b *semBuilder) build(x *interp.Execution, order []seg.EventID) (*seg.Semantic, error) {
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

// segKey returns the SEG key of a complete execution x under the specs of
// o (Classes.SEG).
func segKey(prog *ir.Program, o Options, x *interp.Execution) (string, error) {
	order, _ := stepOrder(x.G, len(x.Log), func(i int) (int32, bool, seg.EventID) {
		s := x.Log[i]
		return s.Action.T, s.Action.Flush, s.Event
	})
	sem, err := newSemBuilder(prog, o).build(x, order)
	if err != nil {
		return "", err
	}
	return sem.Key(), nil
}
