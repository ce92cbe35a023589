// Package reference holds the reference explorer, the oracle of every
// faster explorer, and the stateful explorer (the reference explorer with
// a state cache).
//
// The reference explorer is the oracle of every faster explorer: it
// enumerates every interleaving of visible steps (and every nondeterministic
// choice) by depth-first search over the tree of choices, re-executing the
// program from the start for each leaf. It is slow and obviously correct:
// there is no reduction of any kind.
//
// With the state cache (Options.StateCache) it is the stateful explorer of
// the sweep's exhaustive stages: runs are cut at states seen before, and a
// run that backtracks resumes from a copy of the state at its deepest
// branching point (interp.Execution.Clone) instead of re-executing its path from the
// start. TestStateCacheDifferential compares it with the plain oracle.
package reference

import (
	"context"
	"strings"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/memmodel"
)

// refSnap is a copy of the state before the scheduling choice at depth
// depth of the DFS path (never run itself).
type refSnap struct {
	depth int
	x     *interp.Execution
	cells int // execSize of x
}

// snapDue reports whether the branching point at depth deserves a copy:
// every one on short paths, and on long ones (a spin loop or a spawning
// loop explored without a loop bound runs thousands of steps) one every
// 1/32 of the depth of the last copy, so that a path of length n keeps
// O(log n) copies and a backtracking run re-executes at most n/32 steps.
func snapDue(snaps []refSnap, depth int) bool {
	if len(snaps) == 0 {
		return true
	}
	last := snaps[len(snaps)-1].depth
	return depth-last >= max(1, last/32)
}

// exploreReference is the reference explorer (the oracle), and with
// Options.StateCache the stateful explorer.
func exploreReference(ctx context.Context, t *explore.Task) error {
	prog, opts, names := t.Prog, t.Opts, t.Names
	if opts.StateCache {
		t.Ran("stateful")
	}
	cfg := t.Config()
	cfg.DetectRaces, cfg.UnboundedLoops = opts.Races, opts.UnboundedLoops
	cfg.Symmetry = opts.StateCache && opts.Symmetry && !opts.Races && interp.SymmetryOK(prog)
	if opts.UnboundedLoops {
		// Loops that make no visible step would otherwise run for ever
		// inside one step.
		cfg.MaxThreadSteps = 20 * opts.MaxSteps
	}
	ch := &explore.DFSChooser{}
	var cex []explore.ChoicePoint
	var visited map[[2]uint64]bool
	if opts.StateCache {
		visited = map[[2]uint64]bool{}
	}
	// With the state cache the explorer is stateful anyway, and a run that
	// backtracks starts from a copy of the state at the deepest branching
	// point it keeps instead of re-executing the whole path (snaps: one
	// copy per scheduling choice with several alternatives on the current
	// path, deepest last). The plain explorer, the oracle, always
	// re-executes from the start.
	var snaps []refSnap
	snapshots := visited != nil
	var budget explore.SnapBudget
	for {
		if t.Budget(ctx) {
			break
		}
		// A copy taken before the choice at depth d stays valid while the
		// path keeps its first d choices.
		for len(snaps) > 0 && snaps[len(snaps)-1].depth >= len(ch.Path) {
			budget.Release(snaps[len(snaps)-1].cells)
			snaps = snaps[:len(snaps)-1]
		}
		var x *interp.Execution
		if len(snaps) > 0 {
			s := snaps[len(snaps)-1]
			x = s.x.Clone(ch)
			ch.Depth = s.depth
		} else {
			x = interp.NewExecution(prog, names, cfg, ch, false)
			x.CheckEnd()
		}
		pruned, interrupted := false, false
		for !x.Finished() {
			// A single run can be long (many threads, a large step
			// bound): look at the clock within it too.
			if (visited != nil || x.Steps()&255 == 255) && ctx.Err() != nil {
				interrupted = true
				break
			}
			if visited != nil && ch.Depth >= len(ch.Path) {
				h := x.StateHash()
				if visited[h] {
					pruned = true
					break
				}
				visited[h] = true
			}
			en := x.Enabled()
			if snapshots && len(en) > 1 && ch.Depth >= len(ch.Path) && snapDue(snaps, ch.Depth) {
				if size, ok := budget.Take(x); ok {
					if c := x.Clone(nil); c != nil {
						snaps = append(snaps, refSnap{depth: ch.Depth, x: c, cells: size})
					} else {
						budget.Release(size)
						snapshots = false // this execution cannot be copied (race detection)
					}
				}
			}
			x.Step(ch.Schedule(en))
		}
		if ch.Err != nil {
			return ch.Err
		}
		if interrupted {
			t.StopTime(ctx.Err())
			break
		}
		if pruned {
			t.Stats().Pruned++
			t.Progress(ch.Pending())
			if !ch.Next() {
				break
			}
			continue
		}
		if t.Add(x) && cex == nil {
			cex = append([]explore.ChoicePoint{}, ch.Path...) // non-nil: a path without choices is a counterexample too
			if !opts.KeepGoing {
				break
			}
		}
		t.Progress(ch.Pending())
		if !ch.Next() {
			break
		}
	}
	if cex != nil {
		t.ReplayCounterexample(cfg, cex)
	}
	return nil
}

// Explorer is the reference explorer: every interleaving, the oracle.
type Explorer struct{}

// Name implements explore.Explorer.
func (Explorer) Name() string { return "reference" }

// Doc implements explore.Explorer.
func (Explorer) Doc() string {
	return "enumerates every interleaving (sc, tso, pso); the oracle; with --state-cache it is the stateful explorer"
}

// Check implements explore.Explorer.
func (e Explorer) Check(t *explore.Task) error { return CheckOperational(e, t) }

// Explore implements explore.Explorer.
func (Explorer) Explore(ctx context.Context, t *explore.Task) error {
	return exploreReference(ctx, t)
}

// Stateful is the reference explorer with the state cache: runs that
// reach a state seen before are cut off (snapshots, symmetry).
type Stateful struct{}

// Name implements explore.Explorer.
func (Stateful) Name() string { return "stateful" }

// Doc implements explore.Explorer.
func (Stateful) Doc() string {
	return "the reference explorer with a state cache: runs that reach a state seen before are cut off (outcomes and verdict unchanged)"
}

// Check implements explore.Explorer.
func (e Stateful) Check(t *explore.Task) error { return CheckOperational(e, t) }

// Explore implements explore.Explorer.
func (Stateful) Explore(ctx context.Context, t *explore.Task) error {
	t.Opts.StateCache = true
	return exploreReference(ctx, t)
}

// CheckOperational is the Check of explorers of interleavings: the model
// is operational (sc, tso, pso), and race detection asks for sc.
func CheckOperational(e explore.Explorer, t *explore.Task) error {
	if !t.Model.Operational() {
		return explore.Unsupportedf(e, false, "%s explores interleavings: it supports the %s models, not %s", e.Name(), strings.Join(memmodel.Operational(), ", "), t.Model.Name)
	}
	if t.Opts.Races && t.Model.Exec != memmodel.Interleaving {
		return explore.Unsupportedf(e, false, "data-race detection is available under sc, ra and rc11 (not %s)", t.Model.Name)
	}
	return nil
}
