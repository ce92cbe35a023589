package mcrx

import (
	"context"
	"fmt"

	"ncmc/explore"
	"ncmc/explore/dpor"
	"ncmc/interp"
	"ncmc/mcr"
	"ncmc/seg"
)

// This file holds the NCMC thesis's exploration rule (Options.NCMCRule
// "thesis", docs/ncmc.md "The thesis's rule"); the semantic execution
// graphs it pivots over are built by explore.SemBuilder.

// verifyNCMCThesis explores prog with the mcr explorer and the thesis's
// scoped-read rule (Alg. 6, reading P of research notes mcr-and-ncmc.md
// §3.2): a pivot of a read inside a top-level scoped invocation top(r) to a
// write w (or the initial value) is kept only if
// E_P = SSH-predecessors(top(r)) ∩ PO-successors(top(w)) is non-empty (for
// the initial value, every node is a PO-successor of init), and then r must
// come before some e ∈ E_P. Reads outside invocations are pivoted as in
// plain MCR. The rule is incomplete: it misses behaviours (docs/ncmc.md).
func verifyNCMCThesis(ctx context.Context, t *explore.Task) error {
	cfg := t.Config()
	cfg.ContinueAfterViolation = true
	if err := runMCR(ctx, t, cfg, true, hooks{}); err != nil {
		return err
	}
	t.Note("ncmc rule thesis: the NCMC thesis's scoped-read pruning rule, which is known to miss behaviours (docs/ncmc.md); a verified verdict is not a proof")
	return nil
}

// thesisRule implements mcr.ScopedRule with reading P of the thesis's
// Alg. 6 over the SEG of the execution being pivoted (x, tr).
type thesisRule struct {
	sb  *explore.SemBuilder
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
		order, stepOf := explore.StepOrder(r.x.G, len(r.x.Log), func(i int) (int32, bool, seg.EventID) {
			s := r.x.Log[i]
			return s.Action.T, s.Action.Flush, s.Event
		})
		sem, err := r.sb.Build(r.x, order)
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

// Thesis is the ncmc-thesis explorer: mcr under the NCMC thesis's
// scoped-read rule.
type Thesis struct{}

// Name implements explore.Explorer.
func (Thesis) Name() string { return "ncmc-thesis" }

// Doc implements explore.Explorer.
func (Thesis) Doc() string {
	return "with --spec: mcr under the NCMC thesis's scoped-read pruning (known to miss behaviours); sc"
}

// Check implements explore.Explorer: what the ncmc explorer accepts, and
// what mcr supports.
func (Thesis) Check(t *explore.Task) error {
	if err := (dpor.Explorer{Specs: true}).Check(t); err != nil {
		return err
	}
	if why := unsupported(t.Prog, t.Opts); why != "" {
		return fmt.Errorf("ncmc rule thesis runs on mcr: %s", why)
	}
	return nil
}

// Explore implements explore.Explorer.
func (Thesis) Explore(ctx context.Context, t *explore.Task) error { return verifyNCMCThesis(ctx, t) }
