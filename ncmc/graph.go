package ncmc

import (
	"context"
	"fmt"
	"strings"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// ---- exploration ----

func checkGraphProgram(prog *ir.Program) error {
	for _, f := range prog.Funcs {
		for i := range f.Body {
			if f.Body[i].Op == ir.IAtomicBegin {
				return fmt.Errorf("%s: atomic blocks are not supported under ra and rc11 (their interleaving semantics does not make memory accesses atomic)", f.Body[i].Pos)
			}
		}
	}
	return nil
}

// exploreGraphs is the reference explorer for ra and rc11: a DFS over
// schedules, rf and mo choices that visits each consistent graph once.
func exploreGraphs(ctx context.Context, t *Task) error {
	prog, opts, names := t.Prog, t.Opts, t.Names
	if err := checkGraphProgram(prog); err != nil {
		return err
	}
	cfg := t.Config()
	if t.Model.Exec != memmodel.GraphOnly {
		// an operational model explored as graphs under its axioms
		cfg.Axiomatic = t.Model.Axioms
	}
	var cex []explore.ChoicePoint
	err := graphRuns(prog, names, cfg, func() bool { return t.Budget(ctx) }, func(x *interp.Execution, ch *graphChooser) bool {
		if !x.Pruned() && t.Add(x) && cex == nil {
			cex = append([]explore.ChoicePoint(nil), ch.Path...)
			if !opts.KeepGoing {
				return false
			}
		}
		t.Progress(ch.Pending())
		return true
	})
	if err != nil {
		return err
	}
	if cex != nil {
		t.ReplayCounterexample(cfg, cex)
	}
	return nil
}

// EnumOptions configure Enumerate.
type EnumOptions struct {
	// Model is sc, tso, pso, ra or rc11.
	Model string
	// Operational explores sc, tso and pso with the interpreter's
	// interleavings and store buffers (every interleaving, so a graph may
	// come several times) instead of graph exploration under seg's model.
	Operational bool
	// Axiomatic, if set, explores graphs under this model instead (for
	// instance a weak model, to find the graphs a stronger one forbids).
	Axiomatic *seg.Model
	// Unroll, MaxSteps: as in Options (0: defaults).
	Unroll, MaxSteps int
	// MaxExecutions stops after this many visited executions (0: no limit).
	MaxExecutions int
	// Explorer picks the graph explorer under ra and rc11: "trust" (the
	// TruSt-style explorer, trustexplore.go) or "reference" (the DFS over
	// schedules); "" is the default, trust where it applies.
	Explorer string
}

// EnumStats count what Enumerate explored.
type EnumStats struct {
	Visited int // executions passed to visit
	Pruned  int // partial executions abandoned (inconsistent or non-canonical)
	Stopped string
}

// Enumerate explores every execution of prog and calls visit with each one
// that ended (complete, blocked, violating or stopped by a bound), with
// data races recorded rather than fatal. Under graph exploration (every
// model unless Operational) each consistent execution graph is visited
// exactly once. The Execution must not be kept after visit returns unless
// visit is done with it; its graph X.G may be kept. visit returns false to
// stop.
func Enumerate(ctx context.Context, prog *ir.Program, opts EnumOptions, visit func(*interp.Execution) bool) (EnumStats, error) {
	var st EnumStats
	model, err := memmodel.Lookup(opts.Model)
	if err != nil {
		return st, err
	}
	cfg := interp.Config{Unroll: opts.Unroll, MaxSteps: opts.MaxSteps, Model: model, Races: interp.RacesRecord, Axiomatic: opts.Axiomatic}
	if cfg.Unroll == 0 {
		cfg.Unroll = DefaultUnroll
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.Axiomatic == nil && !opts.Operational && model.Operational() {
		cfg.Axiomatic = model.Axioms
	}
	if opts.Operational && !model.Operational() {
		return st, fmt.Errorf("operational exploration exists only for %s", strings.Join(memmodel.Operational(), ", "))
	}
	if interp.GraphModel(cfg) != nil {
		if err := checkGraphProgram(prog); err != nil {
			return st, err
		}
	}
	names := interp.NewNames(prog)
	if useTrust(cfg, opts.Explorer, prog) {
		stopped, _, err := runTrust(ctx, prog, names, cfg, opts.Model, func(x *interp.Execution) bool {
			if opts.MaxExecutions > 0 && st.Visited >= opts.MaxExecutions {
				st.Stopped = fmt.Sprintf("execution bound %d hit", opts.MaxExecutions)
				return false
			}
			st.Visited++
			if !visit(x) {
				st.Stopped = "stopped by the caller"
				return false
			}
			return true
		}, nil)
		if st.Stopped == "" {
			st.Stopped = stopped
		}
		return st, err
	}
	budget := func() bool {
		if err := ctx.Err(); err != nil {
			st.Stopped = "cancelled: " + err.Error()
			return true
		}
		if opts.MaxExecutions > 0 && st.Visited >= opts.MaxExecutions {
			st.Stopped = fmt.Sprintf("execution bound %d hit", opts.MaxExecutions)
			return true
		}
		return false
	}
	err = graphRuns(prog, interp.NewNames(prog), cfg, budget, func(x *interp.Execution, _ *graphChooser) bool {
		if x.Pruned() {
			st.Pruned++
			return true
		}
		st.Visited++
		if !visit(x) {
			st.Stopped = "stopped by the caller"
			return false
		}
		return true
	})
	return st, err
}

// graphRuns is the one loop of graph exploration, shared by the graph
// explorer and Enumerate: a DFS over schedules and rf/mo choices that
// runs each consistent execution graph once. Before each execution it asks
// budget whether to stop; it passes every execution, pruned ones included
// (Execution.Pruned), to visit with the chooser (whose path reproduces
// it), and stops when visit returns false.
func graphRuns(prog *ir.Program, names *interp.Names, cfg interp.Config, budget func() bool, visit func(*interp.Execution, *graphChooser) bool) error {
	ch := newGraphChooser()
	for {
		if budget() {
			return nil
		}
		ch.start()
		x := interp.NewExecution(prog, names, cfg, ch, false)
		x.UseGraphCache(ch.cache)
		x.Run(ch.Schedule)
		if ch.Err != nil {
			return ch.Err
		}
		if !visit(x, ch) || !ch.advance() {
			return nil
		}
	}
}

// graphChooser is the DFS chooser of graph exploration, with the cache its
// executions share.
type graphChooser struct {
	explore.DFSChooser
	cache *interp.GraphCache
}

func newGraphChooser() *graphChooser {
	c := &graphChooser{}
	c.cache = interp.NewGraphCache(func() int { return c.Depth })
	return c
}

// start prepares the cache for a new execution.
func (c *graphChooser) start() { c.cache.Start() }

// advance moves the DFS to its next leaf and drops the memo entries the
// changed choice invalidates.
func (c *graphChooser) advance() bool {
	if !c.Next() {
		return false
	}
	c.cache.Invalidate(len(c.Path) - 1)
	return true
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
