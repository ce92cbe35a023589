package ncmc

import (
	"context"
	"fmt"

	"ncmc/interp"
)

// The reference explorer is the oracle of every faster explorer: it
// enumerates every interleaving of visible steps (and every nondeterministic
// choice) by depth-first search over the tree of choices, re-executing the
// program from the start for each leaf. It is slow and obviously correct:
// there is no reduction of any kind.
//
// With the state cache (Options.StateCache) it is the stateful explorer of
// the sweep's exhaustive stages: runs are cut at states seen before, and a
// run that backtracks resumes from a copy of the state at its deepest
// branching point (cloneExec) instead of re-executing its path from the
// start. TestStateCacheDifferential compares it with the plain oracle.

// choicePoint is one node of the DFS path: n alternatives, k taken.
type choicePoint struct {
	n, k int
	kind int // 0: schedule, 1+: ChoiceKind+1 (sanity check on replay)
}

// dfsChooser replays the recorded path and extends it with first choices.
type dfsChooser struct {
	path  []choicePoint
	depth int
	err   error
}

func (c *dfsChooser) pick(kind, n int) int {
	if c.depth < len(c.path) {
		p := c.path[c.depth]
		if p.n != n || p.kind != kind {
			if c.err == nil {
				c.err = fmt.Errorf("internal error: replay diverged at choice %d (had %d alternatives of kind %d, now %d of kind %d)", c.depth, p.n, p.kind, n, kind)
			}
			if p.k >= n {
				p.k = n - 1
			}
		}
		c.depth++
		return p.k
	}
	c.path = append(c.path, choicePoint{n: n, kind: kind})
	c.depth++
	return 0
}

// Choose implements Chooser.
func (c *dfsChooser) Choose(_ int32, kind interp.ChoiceKind, n int) int {
	return c.pick(int(kind)+1, n)
}

func (c *dfsChooser) schedule(en []interp.Action) interp.Action {
	if len(en) == 1 {
		return en[0]
	}
	return en[c.pick(0, len(en))]
}

// next moves to the next unexplored leaf; false when the tree is exhausted.
func (c *dfsChooser) next() bool {
	c.depth = 0
	for len(c.path) > 0 {
		top := &c.path[len(c.path)-1]
		if top.k+1 < top.n {
			top.k++
			return true
		}
		c.path = c.path[:len(c.path)-1]
	}
	return false
}

func (c *dfsChooser) pending() int {
	q := 0
	for _, p := range c.path {
		q += p.n - 1 - p.k
	}
	return q
}

// replayChooser follows a recorded path exactly (for counterexamples).
type replayChooser struct {
	path  []choicePoint
	depth int
}

func (c *replayChooser) pick(n int) int {
	if c.depth < len(c.path) {
		k := c.path[c.depth].k
		c.depth++
		if k < n {
			return k
		}
	}
	return 0
}

func (c *replayChooser) Choose(_ int32, kind interp.ChoiceKind, n int) int { return c.pick(n) }

func (c *replayChooser) schedule(en []interp.Action) interp.Action {
	if len(en) == 1 {
		return en[0]
	}
	return en[c.pick(len(en))]
}

// refSnap is a copy of the state before the scheduling choice at depth
// depth of the DFS path (never run itself).
type refSnap struct {
	depth int
	x     *interp.Execution
	cells int // execSize of x
}

// maxSnapCells bounds the size of the state copies an explorer keeps on
// its DFS path (about 64 MB of cells); past it, deeper branching points
// are reached by re-execution from the deepest copy.
const maxSnapCells = 1 << 23

// snapBudget is the size of the state copies an explorer keeps on its DFS
// path, bounded by maxSnapCells (the stateful and the ncmc explorer).
type snapBudget struct{ cells int }

// take reserves room for a copy of x: its size (execSize) and whether it
// fits.
func (b *snapBudget) take(x *interp.Execution) (int, bool) {
	size := execSize(x)
	if b.cells+size > maxSnapCells {
		return 0, false
	}
	b.cells += size
	return size, true
}

// release returns the room of a copy of the given size.
func (b *snapBudget) release(size int) { b.cells -= size }

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

// execSize estimates what copying x costs, in cells (interp.Execution.Size).
func execSize(x *interp.Execution) int { return x.Size() }

// exploreReference is the reference explorer (the oracle), and with
// Options.StateCache the stateful explorer.
func exploreReference(ctx context.Context, t *Task) error {
	prog, opts, names, col := t.Prog, t.Opts, t.Names, t.col
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
	ch := &dfsChooser{}
	var cex []choicePoint
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
	var budget snapBudget
	for {
		if t.Budget(ctx) {
			break
		}
		// A copy taken before the choice at depth d stays valid while the
		// path keeps its first d choices.
		for len(snaps) > 0 && snaps[len(snaps)-1].depth >= len(ch.path) {
			budget.release(snaps[len(snaps)-1].cells)
			snaps = snaps[:len(snaps)-1]
		}
		var x *interp.Execution
		if len(snaps) > 0 {
			s := snaps[len(snaps)-1]
			x = s.x.Clone(ch)
			ch.depth = s.depth
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
			if visited != nil && ch.depth >= len(ch.path) {
				h := x.StateHash()
				if visited[h] {
					pruned = true
					break
				}
				visited[h] = true
			}
			en := x.Enabled()
			if snapshots && len(en) > 1 && ch.depth >= len(ch.path) && snapDue(snaps, ch.depth) {
				if size, ok := budget.take(x); ok {
					if c := x.Clone(nil); c != nil {
						snaps = append(snaps, refSnap{depth: ch.depth, x: c, cells: size})
					} else {
						budget.release(size)
						snapshots = false // this execution cannot be copied (race detection)
					}
				}
			}
			x.Step(ch.schedule(en))
		}
		if ch.err != nil {
			return ch.err
		}
		if interrupted {
			t.StopTime(ctx.Err())
			break
		}
		if pruned {
			col.stats.Pruned++
			col.progress(ch.pending())
			if !ch.next() {
				break
			}
			continue
		}
		if col.add(x) && cex == nil {
			cex = append([]choicePoint{}, ch.path...) // non-nil: a path without choices is a counterexample too
			if !opts.KeepGoing {
				break
			}
		}
		col.progress(ch.pending())
		if !ch.next() {
			break
		}
	}
	if cex != nil {
		t.replayCounterexample(cfg, cex)
	}
	return nil
}
