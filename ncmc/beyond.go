package ncmc

import (
	"fmt"
	"strings"
	"time"

	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ir/beyond"
	"ncmc/memmodel"
)

// beyondModels are the memory models whose consistent executions are
// closed under prefixes closed under program order and reads-from, which
// package beyond's argument needs.
var beyondModels = map[string]bool{"sc": true, "tso": true, "pso": true, "ra": true, "rc11": true}

// beyondExplorers are the explorers that explore every execution of the
// bounded program (or one of each class that reads the same values), so
// that a loop bound none of their executions hit cannot be hit.
var beyondExplorers = map[string]bool{"reference": true, "stateful": true, "mcr": true, "vmcr": true, "dpor": true, "graph": true, "trust": true}

// beyondBounds returns res turned into a Verified verdict when res is
// Unknown only because executions hit loop bounds and package beyond
// shows that no violation can lie beyond them; else nil, and when the
// check ran, the reason it failed (for a note).
func beyondBounds(prog *ir.Program, opts Options, model *memmodel.Model, res *Result, start time.Time) (*Result, string) {
	if res.Verdict != Unknown || res.Kind != "unroll" || res.Stopped != "" || res.OtherBounds || len(res.LoopBounds) == 0 ||
		len(opts.Specs) > 0 || opts.Semantic || opts.Leaks != interp.LeaksIgnored ||
		!beyondModels[model.Name] || !beyondExplorers[res.Explorer] {
		return nil, ""
	}
	ok, why := beyond.Check(prog, res.LoopBounds, model.Race != "" || opts.Races)
	if !ok {
		return nil, why
	}
	v := *res
	v.Verdict, v.Kind = Verified, ""
	v.Reason = "all executions explored up to the loop bound; no violation can lie beyond it"
	v.Note = joinNotes(fmt.Sprintf("%s hit the loop bound at %s; no instruction that can run after those loop heads can fail, none before them reads what they write, and the program has no locks or joins, so every violation would lie within the bound (docs/beyond.md); the outcomes are those of the executions that ended within the bound",
		res.Explorer, strings.Join(res.LoopBounds, ", ")), res.Note)
	v.Elapsed = time.Since(start)
	v.Stats.Elapsed = v.Elapsed
	return &v, ""
}
