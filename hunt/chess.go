package hunt

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// chessPoint is one node of the preemption-bounded reference search: a
// scheduling point with the allowed alternatives, or a choice.
type chessPoint struct {
	choice bool
	kind   interp.ChoiceKind
	n      int   // enabled actions, or choice alternatives
	alts   []int // scheduling point: indices into the enabled actions within the bound
	i      int   // position in alts (scheduling) or the alternative (choice)
}

type chessSearch struct {
	path  []chessPoint
	depth int
	err   error
}

func (c *chessSearch) Choose(_ int32, kind interp.ChoiceKind, n int) int {
	if c.depth < len(c.path) {
		pt := &c.path[c.depth]
		if !pt.choice || pt.n != n || pt.kind != kind {
			if c.err == nil {
				c.err = fmt.Errorf("internal error: chess replay diverged at choice %d", c.depth)
			}
			return 0
		}
		c.depth++
		return pt.i
	}
	c.path = append(c.path, chessPoint{choice: true, kind: kind, n: n})
	c.depth++
	return 0
}

// exploreCHESS enumerates every interleaving with at most bound preemptions
// (bound < 0: all interleavings) and every choice, like CHESS's iterative
// context bounding at one bound: a preemption is a switch away from a thread
// that could still move. It is the reference explorer restricted by the
// bound, the oracle for CB-DPOR. visit is called for every finished
// execution and returns true to stop. SC only (store-buffer flushes would
// need their own preemption rule).
func exploreCHESS(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, bound int, rec *recorder, maxExec int, visit func(*interp.Execution) bool) boundStats {
	c := &chessSearch{}
	var st boundStats
	var chooser interp.Chooser = c
	if rec != nil {
		chooser = recChooser{inner: c, rec: rec}
	}
	for {
		if ctx.Err() != nil || (maxExec > 0 && st.executions >= maxExec) {
			return st
		}
		if rec != nil {
			rec.reset()
		}
		c.depth = 0
		x := interp.NewExecution(prog, names, cfg, chooser, false)
		x.CheckEnd()
		p, last := 0, int32(-1)
		for !x.Finished() && c.err == nil {
			en := x.Enabled()
			lastEn := last >= 0 && slices.ContainsFunc(en, func(a interp.Action) bool { return a.T == last })
			var idx int
			if c.depth < len(c.path) {
				pt := &c.path[c.depth]
				if pt.choice || pt.n != len(en) {
					c.err = fmt.Errorf("internal error: chess replay diverged at point %d", c.depth)
					break
				}
				idx = pt.alts[pt.i]
			} else {
				pt := chessPoint{n: len(en)}
				for j, a := range en {
					if a.Flush {
						c.err = fmt.Errorf("store-buffer flush under the chess explorer (sc only)")
						break
					}
					cost := 0
					if lastEn && a.T != last {
						cost = 1
					}
					if bound < 0 || p+cost <= bound {
						pt.alts = append(pt.alts, j)
					} else {
						st.cut = true
					}
				}
				if c.err != nil {
					break
				}
				c.path = append(c.path, pt)
				idx = pt.alts[0]
			}
			c.depth++
			a := en[idx]
			if lastEn && a.T != last {
				p++
			}
			if rec != nil {
				rec.step(a)
			}
			x.Step(a)
			last = a.T
		}
		if c.err != nil {
			st.err = c.err
			return st
		}
		st.executions++
		if visit(x) {
			return st
		}
		// Next leaf.
		more := false
		for len(c.path) > 0 {
			top := &c.path[len(c.path)-1]
			if top.choice && top.i+1 < top.n || !top.choice && top.i+1 < len(top.alts) {
				top.i++
				more = true
				break
			}
			c.path = c.path[:len(c.path)-1]
		}
		if !more {
			st.complete = true
			return st
		}
	}
}

// classKey identifies the class of a finished execution for comparing
// explorers: a violation (other than a deadlock) by its kind, message and
// line; any other execution by how it ended, each thread's events with their
// values and reads-from sources, and the modification order of every
// location. Executions that differ only in the order of independent steps
// have the same key. Locations are rendered by name, so keys are comparable
// across explorations.
func classKey(x *interp.Execution) string {
	msg, kind, pos := x.Violation()
	if msg != "" && kind != "deadlock" {
		return "violation|" + kind + "|" + msg + "|" + strconv.Itoa(pos.Line)
	}
	b := make([]byte, 0, 256)
	switch {
	case msg != "":
		b = append(b, "deadlock|"...)
	case x.BoundHit() != "":
		b = append(b, "bound|"...)
	case x.Blocked():
		b = append(b, "blocked|"...)
	default:
		b = append(b, "complete|"...)
	}
	g := x.G
	locName := map[int64]string{}
	loc := func(b []byte, l int64) []byte {
		n, ok := locName[l]
		if !ok {
			n = x.Names().LocName(l)
			locName[l] = n
		}
		return append(b, n...)
	}
	ev := func(b []byte, id seg.EventID) []byte {
		if id.IsInit() {
			return append(b, "init"...)
		}
		b = append(b, g.Names[id.T]...)
		b = append(b, '.')
		return strconv.AppendInt(b, int64(id.I), 10)
	}
	for t, evs := range g.Threads {
		if len(evs) == 0 {
			continue
		}
		b = append(b, g.Names[t]...)
		b = append(b, ':')
		for i := range evs {
			e := &evs[i]
			b = append(b, e.Kind.String()...)
			if e.Kind.IsRead() || e.Kind.IsWrite() || e.Kind == seg.KSignal || e.Kind == seg.KBroadcast {
				b = append(b, '@')
				b = loc(b, e.Loc)
			}
			if e.Kind.IsRead() {
				b = append(b, '=')
				b = strconv.AppendInt(b, e.RVal, 10)
				b = append(b, '<')
				b = ev(b, e.RF)
			}
			if e.Kind.IsWrite() {
				b = append(b, ":="...)
				b = strconv.AppendInt(b, e.WVal, 10)
			}
			b = append(b, ',')
		}
		b = append(b, ';')
	}
	var locs []string
	for l, ws := range g.MO {
		s := loc(nil, l)
		s = append(s, ':')
		for _, w := range ws {
			s = ev(s, w)
			s = append(s, ',')
		}
		locs = append(locs, string(s))
	}
	sort.Strings(locs)
	b = append(b, "|mo:"...)
	for _, s := range locs {
		b = append(b, s...)
		b = append(b, ';')
	}
	return string(b)
}

// runBounded runs cbdpor or chess by iterative deepening over the bound.
func (h *hunt) runBounded(ctx context.Context, explore func(context.Context, *ir.Program, *interp.Names, interp.Config, int, *recorder, int, func(*interp.Execution) bool) boundStats, name string) {
	done := -1 // the largest completed bound
	exhaustive := false
	for b := 0; b <= h.opts.Preemptions; b++ {
		if h.budget(ctx) {
			break
		}
		t0 := time.Now()
		bi := BoundInfo{Bound: b}
		maxExec := 0
		if h.opts.Runs > 0 {
			maxExec = h.opts.Runs - h.col.Stats.Executions
			if maxExec <= 0 {
				h.stopped, h.stopKind = fmt.Sprintf("execution bound %d hit", h.opts.Runs), "executions"
				break
			}
		}
		classes := map[string]struct{}{}
		bugBefore := h.cex != nil
		st := explore(ctx, h.prog, h.names, h.cfg, b, &h.rec, maxExec, func(x *interp.Execution) bool {
			classes[classKey(x)] = struct{}{}
			origin := fmt.Sprintf("%s bound=%d execution=%d", h.opts.Strategy, b, h.col.Stats.Executions+1)
			stop := h.finish(x, origin)
			h.col.Progress(0)
			return stop
		})
		bi.Executions, bi.Redundant, bi.Cut, bi.Complete = st.executions, st.redundant, st.cut, st.complete
		bi.Classes = len(classes)
		bi.BugFound = h.cex != nil && !bugBefore
		bi.Elapsed = time.Since(t0).Microseconds()
		h.bounds = append(h.bounds, bi)
		if st.err != nil {
			h.stopped, h.stopKind = st.err.Error(), "internal"
			break
		}
		if !st.complete {
			if h.stopped == "" {
				if ctx.Err() != nil {
					h.budget(ctx)
				} else if h.cex == nil || h.opts.KeepGoing {
					h.stopped, h.stopKind = fmt.Sprintf("execution bound %d hit", h.opts.Runs), "executions"
				}
			}
			break
		}
		done = b
		if !st.cut {
			exhaustive = true
			break
		}
		if h.cex != nil && !h.opts.KeepGoing {
			break
		}
	}
	switch {
	case exhaustive:
		h.verified = true
		h.guar = fmt.Sprintf("%s explored every class of executions: the preemption bound %d cut no branch", name, done)
	case done >= 0:
		h.guar = fmt.Sprintf("%s explored every class of executions with at most %d preemption(s)", name, done)
	default:
		h.guar = fmt.Sprintf("%s did not complete preemption bound 0: no coverage guarantee", name)
	}
}
