package mcr

import "ncmc/smt"

// ScopedRule is the NCMC thesis's pruning rule for reads inside linearizable
// invocations (Alg. 6, GENSEEDEXEC, research notes mcr-and-ncmc.md §3.2).
// When Options.Scoped is set, the generator asks it about every pivot of a
// read to a new value (or to the same value from another source) before
// solving; final-value, deadlock and choice pivots are not affected.
type ScopedRule interface {
	// Pivot is asked about a pivot that makes read step r of tr read from
	// one of srcs (step indices of writes to r's location; -1 is the
	// initial value). For a read outside every invocation it returns
	// (false, nil): plain MCR. Otherwise skip drops the pivot (the thesis's
	// E = ∅), and a non-empty after adds the constraint that r precedes at
	// least one of those steps (Φ^nc of reading P, without Φ_rw of the
	// steps placed after r, which a seed prefix cannot enforce).
	Pivot(tr *Trace, r int, srcs []int) (skip bool, after []int)
}

// scopedRule applies Options.Scoped to pivot k of read r (k indexes the
// values vals, then the same-value sources srcs, as in Seeds). ok false
// means the pivot is dropped; f is the extra constraint (true: none).
func (g *Generator) scopedRule(a *analysis, r, k int, vals []int64, srcs []int) (f smt.Formula, ok bool) {
	var ws []int
	if k < len(vals) {
		v := vals[k]
		loc := a.ev[r].Loc
		if a.tr.G.InitVal[loc] == v {
			ws = append(ws, -1)
		}
		for _, w := range a.writes[loc] {
			if w != r && a.ev[w].WVal == v {
				ws = append(ws, w)
			}
		}
	} else {
		ws = []int{srcs[k-len(vals)]}
	}
	skip, after := g.opts.Scoped.Pivot(a.tr, r, ws)
	if skip {
		return a.b.True(), false
	}
	if len(after) == 0 {
		return a.b.True(), true
	}
	fs := make([]smt.Formula, len(after))
	for i, e := range after {
		fs[i] = a.lt(r, e)
	}
	return a.b.Or(fs...), true
}
