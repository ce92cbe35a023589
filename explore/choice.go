package explore

import (
	"fmt"

	"ncmc/interp"
)

// Choices shared by the explorers that search the tree of scheduling and
// nondeterministic choices depth first, and the bound on the state copies
// they keep.

// ChoicePoint is one node of a DFS path: N alternatives, K taken.
type ChoicePoint struct {
	N, K int
	Kind int // 0: schedule, 1+: ChoiceKind+1 (sanity check on replay)
}

// DFSChooser is the depth-first search over the tree of choices that
// the reference, graph and coverability explorers share: it replays the
// recorded Path (an error on divergence goes to Err) and extends it with first choices.
type DFSChooser struct {
	Path  []ChoicePoint
	Depth int
	Err   error
}

func (c *DFSChooser) pick(kind, n int) int {
	if c.Depth < len(c.Path) {
		p := c.Path[c.Depth]
		if p.N != n || p.Kind != kind {
			if c.Err == nil {
				c.Err = fmt.Errorf("internal error: replay diverged at choice %d (had %d alternatives of kind %d, now %d of kind %d)", c.Depth, p.N, p.Kind, n, kind)
			}
			if p.K >= n {
				p.K = n - 1
			}
		}
		c.Depth++
		return p.K
	}
	c.Path = append(c.Path, ChoicePoint{N: n, Kind: kind})
	c.Depth++
	return 0
}

// Choose implements Chooser.
func (c *DFSChooser) Choose(_ int32, kind interp.ChoiceKind, n int) int {
	return c.pick(int(kind)+1, n)
}

// Schedule picks the next action of en (the interpreter's scheduler).
func (c *DFSChooser) Schedule(en []interp.Action) interp.Action {
	if len(en) == 1 {
		return en[0]
	}
	return en[c.pick(0, len(en))]
}

// NextAlternative moves path to its next unexplored alternative: the
// deepest choice point with an alternative left takes it and the deeper
// ones are dropped. It reports false (path empty) when none is left.
func NextAlternative(path *[]ChoicePoint) bool {
	p := *path
	for len(p) > 0 {
		top := &p[len(p)-1]
		if top.K+1 < top.N {
			top.K++
			*path = p
			return true
		}
		p = p[:len(p)-1]
	}
	*path = p
	return false
}

// Next moves to the next unexplored leaf; false when the tree is exhausted.
func (c *DFSChooser) Next() bool {
	c.Depth = 0
	return NextAlternative(&c.Path)
}

// Pending is the number of alternatives left on the path.
func (c *DFSChooser) Pending() int {
	q := 0
	for _, p := range c.Path {
		q += p.N - 1 - p.K
	}
	return q
}

// ReplayChooser follows a recorded path exactly (for counterexamples).
type ReplayChooser struct {
	Path  []ChoicePoint
	Depth int
}

func (c *ReplayChooser) pick(n int) int {
	if c.Depth < len(c.Path) {
		k := c.Path[c.Depth].K
		c.Depth++
		if k < n {
			return k
		}
	}
	return 0
}

// Choose implements interp.Chooser.
func (c *ReplayChooser) Choose(_ int32, kind interp.ChoiceKind, n int) int { return c.pick(n) }

// Schedule picks the recorded action of en.
func (c *ReplayChooser) Schedule(en []interp.Action) interp.Action {
	if len(en) == 1 {
		return en[0]
	}
	return en[c.pick(len(en))]
}

// MaxSnapCells bounds the size of the state copies an explorer keeps on
// its DFS path (about 64 MB of cells); past it, deeper branching points
// are reached by re-execution from the deepest copy.
const MaxSnapCells = 1 << 23

// SnapBudget is the size of the state copies an explorer keeps on its DFS
// path, bounded by MaxSnapCells (the stateful and the ncmc explorer).
type SnapBudget struct{ cells int }

// Take reserves room for a copy of x: its size (interp.Execution.Size) and whether it
// fits.
func (b *SnapBudget) Take(x *interp.Execution) (int, bool) {
	size := x.Size()
	if b.cells+size > MaxSnapCells {
		return 0, false
	}
	b.cells += size
	return size, true
}

// Release returns the room of a copy of the given size.
func (b *SnapBudget) Release(size int) { b.cells -= size }
