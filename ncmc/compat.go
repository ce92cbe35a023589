package ncmc

import (
	"ncmc/explore"
	"ncmc/explore/graph"
	"ncmc/explore/mcrx"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// The names the vmcr and trust glue (vmcrexplore.go, trustexplore.go)
// use from before the split into package explore. The two files are being
// changed beside the split; they move to explore/vmcr and explore/trust
// (and port to Task) after it, and this file goes with them.

// collector is explore.Collector under its old, unexported API.
type collector struct {
	c     *explore.Collector
	stats *Stats
}

func newCollector(prog *ir.Program, names *interp.Names, opts Options) *collector {
	c := explore.NewCollector(prog, names, opts)
	return &collector{c: c, stats: &c.Stats}
}

func (c *collector) add(x *interp.Execution) bool { return c.c.Add(x) }
func (c *collector) progress(queue int)           { c.c.Progress(queue) }
func (c *collector) result(explorer, stopped, stopKind string) *Result {
	return c.c.Result(explorer, stopped, stopKind)
}

// execSummary is explore.Summary with the fields the vmcr glue reads.
type execSummary struct {
	s        *explore.Summary
	msg      string
	complete bool
}

func (c *collector) summarize(x *interp.Execution) *execSummary {
	s := c.c.Summarize(x)
	return &execSummary{s: s, msg: s.Violation(), complete: s.Complete()}
}

func (c *collector) addSummary(s *execSummary, g *seg.Graph) bool { return c.c.AddSummary(s.s, g) }

func budgetReason(err error, opts Options) string { return explore.BudgetReason(err, opts) }

func checkGraphProgram(prog *ir.Program) error { return graph.CheckProgram(prog) }

// b2i is 1 for true, 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func observedLocs(prog *ir.Program) []int64 { return mcrx.ObservedLocs(prog) }
