package serve

import (
	"context"

	"ncmc/explore/trustx"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// weakModels are explored, in order, to find the would-be executions a
// model forbids: first per-location coherence and RMW atomicity only
// (which every model of Models includes), then no axiom at all. Graph
// exploration keeps po ∪ rf acyclic in both. herd.Explain does the same
// for a litmus test's condition; the page explains every outcome of its
// table, of litmus tests and CIR programs alike.
var weakModels = func() []*seg.Model {
	coherent, err := seg.ParseModel("coherent", "RMW atomicity and per-location coherence only", `
let com = rf | mo | fr
empty rmw & (fr; mo) as atomicity
acyclic (po & loc) | com as coherence
`)
	if err != nil {
		panic(err) // a constant text: a bug, not user input
	}
	anything, err := seg.ParseModel("anything", "no axiom: every reads-from and coherence choice", `
empty 0 as nothing
`)
	if err != nil {
		panic(err)
	}
	return []*seg.Model{coherent, anything}
}()

// found is the first would-be execution found for an outcome.
type found struct {
	g          *seg.Graph
	v          *seg.Violation
	candidates int
	weak       string
	// plausible says another model of Models allows the execution.
	plausible bool
}

// explain looks, under the weak models, for executions of prog whose
// outcome (a key that outcome computes; false: not a candidate) is one of
// targets and checks each (its display graph) against
// model: the violation of the first execution found per outcome that
// another model allows (else of the first one found) is its explanation.
// budget bounds the executions explored per weak model.
func explain(ctx context.Context, prog *ir.Program, model string, budget int, targets []string,
	outcome func(*interp.Execution) (string, bool), display func(*seg.Graph) *seg.Graph) (map[string]*found, error) {
	m := seg.LookupModel(model)
	want := map[string]bool{}
	for _, s := range targets {
		want[s] = true
	}
	out := map[string]*found{}
	for _, weak := range weakModels {
		if len(out) == len(want) || ctx.Err() != nil {
			break
		}
		_, err := trustx.Enumerate(ctx, prog, trustx.EnumOptions{Model: model, Axiomatic: weak, MaxExecutions: budget},
			func(x *interp.Execution) bool {
				s, ok := outcome(x)
				if !ok || !want[s] {
					return true
				}
				f := out[s]
				if f != nil && f.weak != weak.Name {
					return true // found under a stronger weak model already
				}
				if f != nil && f.plausible {
					f.candidates++
					return true
				}
				g := display(x.G)
				v := m.Check(g)
				if v == nil {
					return true
				}
				if f == nil {
					f = &found{weak: weak.Name}
					out[s] = f
				}
				f.candidates++
				// prefer an execution that another model allows: the
				// picture then shows what that model does and this one
				// forbids
				plausible := false
				for _, o := range Models {
					if o != model && seg.LookupModel(o).Check(g) == nil {
						plausible = true
						break
					}
				}
				if f.g == nil || plausible {
					f.g, f.v, f.plausible = g, v, plausible
				}
				return true
			})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
