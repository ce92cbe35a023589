package main

import (
	"fmt"
	"io"

	"ncmc/ncmc"
	"ncmc/seg"
)

// writeGraphDOT renders the result's execution graph (a minimal rendering
// until seg's herd-style DOT output lands).
func writeGraphDOT(w io.Writer, res *ncmc.Result) error {
	g := res.Graph
	fmt.Fprintln(w, "digraph execution {")
	fmt.Fprintln(w, "  node [shape=box, fontname=\"monospace\"];")
	for t, evs := range g.Threads {
		for i := range evs {
			e := &evs[i]
			fmt.Fprintf(w, "  e%d_%d [label=%q];\n", t, i, fmt.Sprintf("t%s: %s", g.Names[t], g.Label(e)))
			if i > 0 {
				fmt.Fprintf(w, "  e%d_%d -> e%d_%d [color=black];\n", t, i-1, t, i)
			}
			if e.Kind.IsRead() && !e.RF.IsInit() {
				fmt.Fprintf(w, "  e%d_%d -> e%d_%d [color=red, label=rf];\n", e.RF.T, e.RF.I, t, i)
			}
		}
	}
	_ = seg.Init
	fmt.Fprintln(w, "}")
	return nil
}
