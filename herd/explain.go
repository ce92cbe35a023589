package herd

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"ncmc/explore/trustx"
	"ncmc/frontend/litmus"
	"ncmc/interp"
	"ncmc/memmodel"
	"ncmc/seg"
)

// Explanation says why no consistent execution satisfies a condition.
//
// To find the executions the model forbids, the test is explored again
// under weaker models (graph exploration keeps po ∪ rf acyclic in every
// case): first "coherent" (RMW atomicity and per-location coherence,
// which every supported model includes), then, if no execution of it
// satisfies the condition, "anything" (no axiom at all: every rf and mo
// choice). Each would-be execution that satisfies the condition (and the
// filter) is checked against the model, which names the first axiom it
// violates and a witnessing cycle.
type Explanation struct {
	// Candidates is the number of would-be execution graphs found (every
	// one is inconsistent under the model).
	Candidates int `json:"candidates"`
	// Weak names the weaker model the candidates were found under.
	Weak string `json:"weak,omitempty"`
	// Axioms lists, per violated axiom, how many candidates violate it
	// first, with one example.
	Axioms []AxiomCount `json:"axioms,omitempty"`
	// ThinAir is set when no candidate exists without a cycle in po ∪ rf:
	// the outcome needs values out of thin air.
	ThinAir string `json:"thin_air,omitempty"`
	// Incomplete is set when the search budget ran out.
	Incomplete string `json:"incomplete,omitempty"`
	// Examples holds the example graphs (display graphs) with their
	// violations, in the order of Axioms.
	Examples []Example `json:"-"`
}

// AxiomCount is one violated axiom of an explanation.
type AxiomCount struct {
	Axiom string `json:"axiom"`
	Count int    `json:"count"`
	// Example is the violation of one candidate, in words: the axiom, its
	// relation and a cycle of events.
	Example string `json:"example"`
	Outcome string `json:"outcome"`
}

// Example is a would-be execution and the reason it is inconsistent.
type Example struct {
	Outcome   string
	Graph     *seg.Graph
	Violation *seg.Violation
}

var weakModels = func() []*seg.Model {
	coherent, err := seg.ParseModel("coherent", "RMW atomicity and per-location coherence only", `
let com = rf | mo | fr
empty rmw & (fr; mo) as atomicity
acyclic (po & loc) | com as coherence
`)
	if err != nil {
		panic(err)
	}
	anything, err := seg.ParseModel("anything", "no axiom: every reads-from and coherence choice", `
empty 0 as nothing
`)
	if err != nil {
		panic(err)
	}
	return []*seg.Model{coherent, anything}
}()

// Explain finds the would-be executions of t that satisfy its condition
// and says which axiom of model forbids each. budget bounds the executions
// explored per weak model (0: 200000).
func Explain(ctx context.Context, t *litmus.Test, model string, budget int) (*Explanation, error) {
	mm, err := memmodel.Lookup(model)
	if err != nil {
		return nil, fmt.Errorf("unknown model %q", model)
	}
	m := mm.Axioms
	if budget <= 0 {
		budget = 200000
	}
	ex := &Explanation{}
	byAxiom := map[string]*AxiomCount{}
	for _, weak := range weakModels {
		var stopped string
		st, err := trustx.Enumerate(ctx, t.Prog, trustx.EnumOptions{Model: model, Axiomatic: weak, MaxExecutions: budget},
			func(x *interp.Execution) bool {
				if !x.Complete() {
					return true
				}
				val := Values(t, x)
				if t.Filter != nil && !t.Filter.Eval(val) || !t.Cond.Prop.Eval(val) {
					return true
				}
				g := DisplayGraph(t, x.G)
				v := m.Check(g)
				if v == nil {
					// consistent under the model after all: cannot happen when
					// the model's own exploration found no such execution
					stopped = "internal error: a would-be execution is consistent under " + model
					return false
				}
				ex.Candidates++
				ac := byAxiom[v.Axiom]
				if ac == nil {
					ac = &AxiomCount{Axiom: v.Axiom, Example: v.String(), Outcome: t.Outcome(val)}
					byAxiom[v.Axiom] = ac
					ex.Examples = append(ex.Examples, Example{Outcome: ac.Outcome, Graph: g, Violation: v})
				}
				ac.Count++
				return true
			})
		if err != nil {
			return nil, err
		}
		if stopped == "" && st.Stopped != "" {
			stopped = fmt.Sprintf("explored %d executions under %q (%s)", st.Visited, weak.Name, st.Stopped)
		}
		if strings.HasPrefix(stopped, "internal error") {
			return nil, fmt.Errorf("%s", stopped)
		}
		if ex.Candidates > 0 {
			ex.Weak = weak.Name
			ex.Incomplete = stopped
			break
		}
		if stopped != "" {
			ex.Incomplete = stopped
		}
	}
	// order axioms as the model checks them
	for _, a := range m.Axioms() {
		if ac := byAxiom[a.Name]; ac != nil {
			ex.Axioms = append(ex.Axioms, *ac)
		}
	}
	if len(ex.Axioms) != len(byAxiom) {
		var extra []string
		for k := range byAxiom {
			extra = append(extra, k)
		}
		sort.Strings(extra)
		for _, k := range extra {
			found := false
			for _, a := range ex.Axioms {
				found = found || a.Axiom == k
			}
			if !found {
				ex.Axioms = append(ex.Axioms, *byAxiom[k])
			}
		}
	}
	// examples in the order of Axioms
	sort.SliceStable(ex.Examples, func(i, j int) bool {
		return axiomRank(ex.Axioms, ex.Examples[i].Violation.Axiom) < axiomRank(ex.Axioms, ex.Examples[j].Violation.Axiom)
	})
	if ex.Candidates == 0 && ex.Incomplete == "" {
		ex.ThinAir = "no execution graph without a cycle in po ∪ rf satisfies the condition: the values it needs would come out of thin air; " + mm.ThinAir
	}
	return ex, nil
}

func axiomRank(l []AxiomCount, name string) int {
	for i, a := range l {
		if a.Axiom == name {
			return i
		}
	}
	return len(l)
}

// String explains in words.
func (ex *Explanation) String() string {
	var b strings.Builder
	if ex.Candidates == 0 {
		if ex.ThinAir != "" {
			b.WriteString(ex.ThinAir)
		} else {
			b.WriteString("no would-be execution found")
			if ex.Incomplete != "" {
				b.WriteString(" (" + ex.Incomplete + ")")
			}
		}
		return b.String()
	}
	s := "s satisfy"
	if ex.Candidates == 1 {
		s = " satisfies"
	}
	fmt.Fprintf(&b, "%d execution graph%s the condition but %s inconsistent:", ex.Candidates, s, map[bool]string{true: "it is", false: "each is"}[ex.Candidates == 1])
	for _, a := range ex.Axioms {
		fmt.Fprintf(&b, "\n  %d violate%s axiom %s, e.g. (outcome %s)\n    %s", a.Count, map[bool]string{true: "s", false: ""}[a.Count == 1], a.Axiom, a.Outcome, a.Example)
	}
	if ex.Incomplete != "" {
		b.WriteString("\n  (search incomplete: " + ex.Incomplete + ")")
	}
	return b.String()
}
