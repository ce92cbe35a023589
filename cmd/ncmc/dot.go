package main

import (
	"io"

	"ncmc/ncmc"
	"ncmc/seg"
)

// writeGraphDOT renders the result's execution graph in herd's style.
func writeGraphDOT(w io.Writer, res *ncmc.Result) error {
	title := "execution graph"
	if res.Verdict == ncmc.Violation {
		title = "counterexample: " + res.Reason
	}
	return res.Graph.WriteDOT(w, seg.DOTOpts{Rels: seg.DrawPO | seg.DrawRF | seg.DrawMO | seg.DrawFR, Title: title})
}
