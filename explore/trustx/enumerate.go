package trustx

import (
	"context"
	"fmt"
	"strings"

	"ncmc/explore"
	"ncmc/explore/graph"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// Enumerate is herd's entry point to graph exploration. It lives beside
// the trust glue (trustx.go), which it calls for ra and rc11.

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
	// Unroll, MaxSteps: as in explore.Options (0: defaults).
	Unroll, MaxSteps int
	// MaxExecutions stops after this many visited executions (0: no limit).
	MaxExecutions int
	// Explorer picks the graph explorer under ra and rc11: "trust" (the
	// TruSt-style explorer, trustx.go) or "reference" (the DFS over
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
		cfg.Unroll = explore.DefaultUnroll
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = explore.DefaultMaxSteps
	}
	if cfg.Axiomatic == nil && !opts.Operational && model.Operational() {
		cfg.Axiomatic = model.Axioms
	}
	if opts.Operational && !model.Operational() {
		return st, fmt.Errorf("operational exploration exists only for %s", strings.Join(memmodel.Operational(), ", "))
	}
	if interp.GraphModel(cfg) != nil {
		if err := graph.CheckProgram(prog); err != nil {
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
		}, nil, nil)
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
	err = graph.Runs(prog, interp.NewNames(prog), cfg, budget, func(x *interp.Execution, _ *graph.Chooser) bool {
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
