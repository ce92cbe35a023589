package ncmc

import (
	"context"
	"fmt"
	"time"

	"ncmc/ir"
	"ncmc/mcr"
	"ncmc/seg"
)

// mcrUnsupported says why the mcr explorer cannot handle prog under opts, or "".
func mcrUnsupported(prog *ir.Program, opts Options) string {
	if opts.Model != "sc" {
		return fmt.Sprintf("mcr supports only the sc model so far (asked: %s)", opts.Model)
	}
	for _, f := range prog.Funcs {
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.IWait, ir.ISignal, ir.IBroadcast:
				return fmt.Sprintf("mcr does not support condition variables yet (%s at %s)", f.Body[i].Op, f.Body[i].Pos)
			case ir.ITryLock:
				return fmt.Sprintf("mcr does not support trylock yet (at %s)", f.Body[i].Pos)
			}
		}
	}
	return ""
}

// seedChooser replays per-thread choices of a seed and takes the first
// alternative beyond them.
type seedChooser struct {
	choices map[int32][]int
	used    map[int32]int
}

func (c *seedChooser) Choose(t int32, kind ChoiceKind, n int) int {
	i := c.used[t]
	c.used[t]++
	if ks := c.choices[t]; i < len(ks) && ks[i] < n {
		return ks[i]
	}
	return 0
}

// runSeed replays seed sd, checking every step, then runs the default
// scheduler (the first enabled thread in creation order) to the end.
func runSeed(prog *ir.Program, names *Names, cfg Config, sd *mcr.Seed, trace bool) (*Execution, error) {
	ch := &seedChooser{choices: sd.Choices, used: map[int32]int{}}
	x := NewExecution(prog, names, cfg, ch, trace)
	x.checkEnd()
	for i, st := range sd.Steps {
		a := Action{T: st.T, Flush: st.Flush, Loc: st.Loc}
		if x.Finished() {
			return nil, fmt.Errorf("internal error: mcr replay diverged: the execution ended before step %d of %d (%s); seed: %s", i, len(sd.Steps), a, sd.Why)
		}
		ok := false
		for _, b := range x.Enabled() {
			if b == a {
				ok = true
				break
			}
		}
		if !ok {
			return nil, fmt.Errorf("internal error: mcr replay diverged: step %d (%s) is not enabled; seed: %s", i, a, sd.Why)
		}
		x.Step(a)
		if err := checkExpect(x, i, sd.Expect[i]); err != nil {
			return nil, fmt.Errorf("internal error: mcr replay diverged at step %d (%s): %v; seed: %s", i, a, err, sd.Why)
		}
	}
	for !x.Finished() {
		x.Step(x.Enabled()[0])
	}
	return x, nil
}

func checkExpect(x *Execution, i int, ex mcr.Expect) error {
	id := x.Log[i].Event
	if id.IsInit() {
		if ex.HasEvent {
			return fmt.Errorf("no event, expected %s", ex.Kind)
		}
		return nil
	}
	e := x.G.Event(id)
	if !ex.HasEvent {
		return fmt.Errorf("unexpected event %s", x.G.Label(e))
	}
	if e.Kind != ex.Kind || e.Loc != ex.Loc || e.RVal != ex.RVal || (!ex.AnyWVal && e.WVal != ex.WVal) {
		want := seg.Event{Kind: ex.Kind, Loc: ex.Loc, RVal: ex.RVal, WVal: ex.WVal, Order: e.Order}
		return fmt.Errorf("got %s, expected %s", x.G.Label(e), x.G.Label(&want))
	}
	return nil
}

// traceOf turns an execution replayed from sd into an mcr.Trace.
func traceOf(x *Execution, sd *mcr.Seed, final []int64) *mcr.Trace {
	tr := &mcr.Trace{G: x.G, Frozen: len(sd.Steps), FrozenChoices: map[int32]int{}, Complete: x.Complete(), FinalLocs: final}
	for t, ks := range sd.Choices {
		tr.FrozenChoices[t] = len(ks)
	}
	tr.Steps = make([]mcr.Step, len(x.Log))
	for i, s := range x.Log {
		tr.Steps[i] = mcr.Step{T: s.Action.T, Flush: s.Action.Flush, Loc: s.Action.Loc, Event: s.Event, Atomic: s.Atomic}
	}
	for _, c := range x.Choices {
		tr.Choices = append(tr.Choices, mcr.Choice{T: c.T, N: c.N, K: c.K, Step: c.Step})
	}
	return tr
}

// observedLocs lists the cells of globals that count in final outcomes.
func observedLocs(prog *ir.Program) []int64 {
	var locs []int64
	var walk func(block int, t *ir.Type, off int)
	walk = func(block int, t *ir.Type, off int) {
		switch t.Kind {
		case ir.TMutex, ir.TCond, ir.TVoid:
		case ir.TArray:
			for i := 0; i < t.Len; i++ {
				walk(block, t.Elem, off+i*t.Elem.Size())
			}
		case ir.TRecord:
			for _, f := range t.Record.Fields {
				walk(block, f.Type, off+f.Offset)
			}
		default:
			locs = append(locs, ir.MakePtr(block, off))
		}
	}
	for i, g := range prog.Globals {
		walk(i+1, g.Type, 0)
	}
	return locs
}

func exploreMCR(ctx context.Context, prog *ir.Program, opts Options) (*Result, error) {
	names := NewNames(prog)
	col := newCollector(prog, names, opts)
	cfg := Config{Unroll: opts.Unroll, MaxSteps: opts.MaxSteps, Model: SC}
	gen := mcr.NewGenerator(mcr.Options{QueryTimeout: opts.QueryTimeout})
	defer gen.Close()
	final := observedLocs(prog)
	queue := []*mcr.Seed{{Choices: map[int32][]int{}, Why: "initial execution"}}
	seen := map[string]bool{queue[0].Key(): true}
	var cex *mcr.Seed
	stopped, stopKind := "", ""
	var replay time.Duration
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			stopped, stopKind = budgetReason(err, opts), "time"
			break
		}
		if opts.MaxExecutions > 0 && col.stats.Executions >= opts.MaxExecutions {
			stopped, stopKind = fmt.Sprintf("execution bound %d hit", opts.MaxExecutions), "executions"
			break
		}
		sd := queue[0]
		queue = queue[1:]
		t0 := time.Now()
		x, err := runSeed(prog, names, cfg, sd, false)
		replay += time.Since(t0)
		if err != nil {
			return nil, err
		}
		if col.add(x) && cex == nil {
			cex = sd
			if !opts.KeepGoing {
				break
			}
		}
		seeds, err := gen.Seeds(ctx, traceOf(x, sd, final))
		if err != nil {
			if ctx.Err() != nil {
				stopped, stopKind = budgetReason(ctx.Err(), opts), "time"
				break
			}
			return nil, err
		}
		for i := range seeds {
			k := seeds[i].Key()
			if !seen[k] {
				seen[k] = true
				queue = append(queue, &seeds[i])
			}
		}
		col.stats.Seeds = len(seen)
		col.stats.SMTQueries = gen.Stats.Queries
		col.stats.SMTTime = gen.Stats.SMTTime
		col.progress(len(queue))
	}
	col.stats.Seeds = len(seen)
	col.stats.SMTQueries = gen.Stats.Queries
	col.stats.SMTTime = gen.Stats.SMTTime
	col.stats.ReplayTime = replay
	res := col.result("mcr", stopped, stopKind)
	if cex != nil {
		x, err := runSeed(prog, names, cfg, cex, true)
		if err != nil {
			return nil, err
		}
		res.Counterexample = x.Trace
		res.Graph = x.G
		_, _, res.ViolationPos = x.Violation()
	}
	return res, nil
}
