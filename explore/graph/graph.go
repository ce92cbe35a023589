// Package graph is the graph explorer: a depth-first search over
// schedules and reads-from and modification-order choices that builds each
// consistent execution graph once, checked against the model's axioms
// (interp/relaxed.go). It is the explorer of ra and rc11 where the trust
// explorer does not apply, and explores any model with axioms.
package graph

import (
	"context"
	"fmt"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
)

// CheckProgram rejects programs graph exploration does not model (atomic
// blocks).
func CheckProgram(prog *ir.Program) error {
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
func exploreGraphs(ctx context.Context, t *explore.Task) error {
	prog, opts, names := t.Prog, t.Opts, t.Names
	if err := CheckProgram(prog); err != nil {
		return err
	}
	cfg := t.Config()
	if t.Model.Exec != memmodel.GraphOnly {
		// an operational model explored as graphs under its axioms
		cfg.Axiomatic = t.Model.Axioms
	}
	var cex []explore.ChoicePoint
	err := Runs(prog, names, cfg, func() bool { return t.Budget(ctx) }, func(x *interp.Execution, ch *Chooser) bool {
		if !x.Pruned() && t.Add(x) && cex == nil {
			cex = append([]explore.ChoicePoint{}, ch.Path...) // non-nil: a path without choices is a counterexample too
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

// Runs is the one loop of graph exploration, shared by the graph
// explorer and trustx.Enumerate: a DFS over schedules and rf/mo choices that
// runs each consistent execution graph once. Before each execution it asks
// budget whether to stop; it passes every execution, pruned ones included
// (Execution.Pruned), to visit with the chooser (whose path reproduces
// it), and stops when visit returns false.
func Runs(prog *ir.Program, names *interp.Names, cfg interp.Config, budget func() bool, visit func(*interp.Execution, *Chooser) bool) error {
	ch := newChooser()
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

// Chooser is the DFS chooser of graph exploration, with the cache its
// executions share.
type Chooser struct {
	explore.DFSChooser
	cache *interp.GraphCache
}

func newChooser() *Chooser {
	c := &Chooser{}
	c.cache = interp.NewGraphCache(func() int { return c.Depth })
	return c
}

// start prepares the cache for a new execution.
func (c *Chooser) start() { c.cache.Start() }

// advance moves the DFS to its next leaf and drops the memo entries the
// changed choice invalidates.
func (c *Chooser) advance() bool {
	if !c.Next() {
		return false
	}
	c.cache.Invalidate(len(c.Path) - 1)
	return true
}

// Explorer is the graph explorer.
type Explorer struct{}

// Name implements explore.Explorer.
func (Explorer) Name() string { return "graph" }

// Doc implements explore.Explorer.
func (Explorer) Doc() string {
	return "builds each consistent execution graph once, rf and mo choices checked against the model's axioms (every model; the explorer of ra and rc11)"
}

// Check implements explore.Explorer.
func (e Explorer) Check(t *explore.Task) error {
	if t.Opts.Races && t.Model.Race == "" {
		return explore.Unsupportedf(e, false, "the %s model defines no data races for graph exploration; use the reference explorer", t.Model.Name)
	}
	return CheckProgram(t.Prog)
}

// Explore implements explore.Explorer.
func (Explorer) Explore(ctx context.Context, t *explore.Task) error { return exploreGraphs(ctx, t) }
