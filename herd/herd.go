// Package herd runs litmus tests the way herd7 does: it explores every
// consistent execution of a test (frontend/litmus) under a memory model
// (ncmc's graph exploration, trustx.Enumerate), groups the executions by
// outcome, decides the final condition, and can explain why a forbidden
// outcome is forbidden (which axiom of the model, and a cycle of events)
// and draw each execution graph.
//
// Executions are counted as herd counts them: distinct execution graphs
// (events, reads-from and coherence order). Under graph exploration every
// consistent graph is built exactly once; under operational exploration
// (sc, tso and pso with the interpreter's store buffers) the graphs of all
// interleavings are deduplicated by their canonical keys.
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

// Options configure Run.
type Options struct {
	// Model is sc, tso, pso, ra or rc11.
	Model string
	// Operational explores sc, tso and pso with the interpreter's
	// interleavings and store buffers instead of graph exploration.
	Operational bool
	// Explain explains a forbidden condition (Result.Explanation).
	Explain bool
	// Graphs keeps the (display) graph of every execution (Result.Graphs).
	Graphs bool
	// MaxExecutions bounds the executions explored (0: no limit); hitting it
	// is reported in Result.Incomplete.
	MaxExecutions int
	// ExplainBudget bounds the executions explored to find would-be
	// executions for an explanation (0: 200000).
	ExplainBudget int
}

// Outcome is one final state reachable under the model.
type Outcome struct {
	// State lists the observed locations and registers, herd-style:
	// "0:r0=0; 1:r0=1;".
	State string `json:"state"`
	// Executions is the number of consistent execution graphs that end in it.
	Executions int `json:"executions"`
	// Satisfies says whether the condition's proposition holds in it.
	Satisfies bool `json:"satisfies"`
	// Racy counts the executions among them that have a data race (ra, rc11).
	Racy int `json:"racy,omitempty"`
	// Error is set for executions that ended in a runtime error.
	Error string `json:"error,omitempty"`
}

// Execution is one consistent execution, for pictures.
type Execution struct {
	Outcome string
	// Graph is the display graph: the test's threads P0, P1, … with their
	// memory events only (see DisplayGraph).
	Graph *seg.Graph
	// Races lists its data races.
	Races []string
	// NotSC, for an execution that is not sequentially consistent, is the
	// cycle SC forbids, and Why says why the model allows it anyway.
	NotSC *seg.Violation
	Why   string
}

// Result is the answer for one test under one model.
type Result struct {
	Test      string `json:"test"`
	File      string `json:"file"`
	Model     string `json:"model"`
	Condition string `json:"condition"`
	// Verdict: for exists and ~exists conditions, "allowed" if some
	// consistent execution satisfies the proposition, "forbidden" if none
	// does (whatever the quantifier); for forall conditions "always" or
	// "not-always". This is the convention of bench/litmus/expected.csv.
	Verdict string `json:"verdict"`
	// Observation is herd's summary: Never, Sometimes or Always (the
	// proposition holds in no, some or every execution).
	Observation string `json:"observation"`
	// Passes says whether the test's own condition holds: exists P and P
	// allowed, ~exists P and P forbidden, forall P and always.
	Passes bool `json:"passes"`
	// Executions is the number of consistent execution graphs (after the
	// filter); Positive of them satisfy the proposition, Negative do not.
	Executions int       `json:"executions"`
	Positive   int       `json:"positive"`
	Negative   int       `json:"negative"`
	Outcomes   []Outcome `json:"outcomes"`
	// Filtered counts executions removed by the test's filter.
	Filtered int `json:"filtered,omitempty"`
	// Blocked counts executions discarded because a loop needed more than
	// herd's two unrollings.
	Blocked int `json:"blocked,omitempty"`
	// DataRace reports whether some consistent execution has a data race
	// (ra, rc11); Races lists distinct descriptions of races (at most 8).
	DataRace bool     `json:"data_race"`
	Races    []string `json:"races,omitempty"`
	// Incomplete is set when a bound stopped the exploration early: the
	// verdict is then only a lower bound.
	Incomplete  string       `json:"incomplete,omitempty"`
	Explanation *Explanation `json:"explanation,omitempty"`
	// Graphs holds every execution (with Options.Graphs), in exploration order.
	Graphs []Execution `json:"-"`
}

// Models lists the models Run accepts (memmodel.Names).
func Models() []string { return memmodel.Names() }

// Run explores test t under opts.Model.
func Run(ctx context.Context, t *litmus.Test, opts Options) (*Result, error) {
	res := &Result{Test: t.Name, File: t.File, Model: opts.Model, Condition: t.Cond.String(), Outcomes: []Outcome{}}
	outcomes := map[string]*Outcome{}
	seen := map[string]bool{} // operational: graph keys already counted
	raceSeen := map[string]bool{}
	stats, err := trustx.Enumerate(ctx, t.Prog, trustx.EnumOptions{Model: opts.Model, Operational: opts.Operational,
		MaxExecutions: opts.MaxExecutions}, func(x *interp.Execution) bool {
		if x.Blocked() {
			res.Blocked++
			return true
		}
		if opts.Operational {
			k := x.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
			if seen[k] {
				return true
			}
			seen[k] = true
		}
		val := Values(t, x)
		if t.Filter != nil && !t.Filter.Eval(val) {
			res.Filtered++
			return true
		}
		state := t.Outcome(val)
		msg, _, _ := x.Violation()
		if msg == "" && !x.Complete() {
			msg = "stopped: " + x.BoundHit()
		}
		key := state + "\x00" + msg
		o := outcomes[key]
		if o == nil {
			o = &Outcome{State: state, Error: msg, Satisfies: msg == "" && t.Cond.Prop.Eval(val)}
			outcomes[key] = o
		}
		o.Executions++
		res.Executions++
		if o.Satisfies {
			res.Positive++
		} else {
			res.Negative++
		}
		var races []string
		var dg *seg.Graph
		if len(x.Races()) > 0 || opts.Graphs {
			dg = DisplayGraph(t, x.G)
		}
		if len(x.Races()) > 0 {
			// describe them with the letters of the pictures
			for _, r := range interp.GraphRaces(dg, opts.Model) {
				races = append(races, r.Msg)
			}
		}
		if len(races) > 0 {
			o.Racy++
			res.DataRace = true
			for _, r := range races {
				if !raceSeen[r] && len(res.Races) < 8 {
					raceSeen[r] = true
					res.Races = append(res.Races, r)
				}
			}
		}
		if opts.Graphs {
			ex := Execution{Outcome: state, Graph: dg, Races: races}
			ex.NotSC, ex.Why = WhyNotSC(opts.Model, dg)
			res.Graphs = append(res.Graphs, ex)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	res.Incomplete = stats.Stopped
	keys := make([]string, 0, len(outcomes))
	for k := range outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		res.Outcomes = append(res.Outcomes, *outcomes[k])
	}
	switch {
	case res.Positive == 0:
		res.Observation = "Never"
	case res.Negative == 0:
		res.Observation = "Always"
	default:
		res.Observation = "Sometimes"
	}
	switch t.Cond.Quant {
	case litmus.Forall:
		res.Verdict = "not-always"
		if res.Negative == 0 {
			res.Verdict = "always"
		}
		res.Passes = res.Negative == 0
	default:
		res.Verdict = "forbidden"
		if res.Positive > 0 {
			res.Verdict = "allowed"
		}
		res.Passes = (res.Positive > 0) == (t.Cond.Quant == litmus.Exists)
	}
	if opts.Explain && res.Positive == 0 && t.Cond.Quant != litmus.Forall {
		ex, err := Explain(ctx, t, opts.Model, opts.ExplainBudget)
		if err != nil {
			return nil, err
		}
		res.Explanation = ex
	}
	return res, nil
}

// Values returns the final value of each location and register of t in
// execution x.
func Values(t *litmus.Test, x *interp.Execution) func(litmus.Loc) int64 {
	idx := map[string]int{}
	for i, g := range t.Prog.Globals {
		idx[g.Name] = i
	}
	return func(l litmus.Loc) int64 {
		if i, ok := idx[l.Global()]; ok {
			if c := x.GlobalCells(i); len(c) > 0 {
				return c[0]
			}
		}
		return t.Init[l]
	}
}

// DisplayGraph returns the graph of an execution of t as herd draws it:
// threads named P0, P1, …, only memory accesses, fences, locks and unlocks
// (no thread creation, no thread ends, no stores of the final register
// values).
func DisplayGraph(t *litmus.Test, g *seg.Graph) *seg.Graph {
	regLoc := map[int64]bool{}
	for i, gl := range t.Prog.Globals {
		if strings.Contains(gl.Name, ":") {
			regLoc[int64(i+1)<<32] = true
		}
	}
	keep := func(e *seg.Event) bool {
		switch e.Kind {
		case seg.KRead, seg.KWrite, seg.KRMW, seg.KFence, seg.KLock, seg.KUnlock:
			return !regLoc[e.Loc] || e.Kind == seg.KFence
		}
		return false
	}
	out := seg.New()
	out.LocName = g.LocName
	for k, v := range g.InitVal {
		if !regLoc[k] {
			out.InitVal[k] = v
		}
	}
	remap := map[seg.EventID]seg.EventID{}
	// thread k+1 of the interpreter (named "0.<k+1>") is Pk
	byName := map[string]int{}
	for i, n := range g.Names {
		byName[n] = i
	}
	for p := 0; p < t.Threads; p++ {
		out.AddThread(int32(p), fmt.Sprintf("P%d", p), -1, seg.Init)
		ti, ok := byName[fmt.Sprintf("0.%d", p+1)]
		if !ok {
			continue
		}
		for _, e := range g.Threads[ti] {
			if !keep(&e) {
				continue
			}
			old := e.ID
			e.ID = seg.EventID{T: int32(p)}
			e.ID = out.AppendNoMO(e)
			remap[old] = e.ID
		}
	}
	for p := range out.Threads {
		for i := range out.Threads[p] {
			e := &out.Threads[p][i]
			if e.Kind.IsRead() && !e.RF.IsInit() {
				e.RF = remap[e.RF]
			}
		}
	}
	for loc, mo := range g.MO {
		if regLoc[loc] {
			continue
		}
		var l []seg.EventID
		for _, w := range mo {
			if n, ok := remap[w]; ok {
				l = append(l, n)
			}
		}
		out.MO[loc] = l
	}
	return out
}

// WhyNotSC checks display graph g against SC. For a graph SC forbids it
// returns the violation (a cycle) and says why model allows it: for tso
// and pso, which program-order edges of the cycle the model does not keep.
func WhyNotSC(model string, g *seg.Graph) (*seg.Violation, string) {
	v := seg.LookupModel("sc").Check(g)
	if v == nil || model == "sc" {
		return v, ""
	}
	var relaxed []string
	switch model {
	case "tso", "pso":
		sp, ghb, err := seg.LookupModel(model).Relation(g, "ghb")
		if err == nil {
			for _, st := range v.Steps {
				if st.Rel == "po" && !ghb.Has(sp.Index(st.From), sp.Index(st.To)) {
					relaxed = append(relaxed, v.Name(st.From)+" -po-> "+v.Name(st.To))
				}
			}
		}
		what := "a write followed by a read of another location:\nthe write may wait in the store buffer until after the read"
		if model == "pso" {
			what = "a write followed by an access to another location:\nthe write may wait in its location's store buffer until after it"
		}
		if len(relaxed) > 0 {
			return v, fmt.Sprintf("but %s does not keep %s, %s", model, strings.Join(relaxed, " and "), what)
		}
		return v, model + " allows it"
	case "ra":
		return v, "but ra orders only happens-before (po and rf) and each location's coherence:\nthere is no single order of all writes"
	case "rc11":
		// reads-from edges of the cycle that do not synchronise
		if sp, hb, err := seg.LookupModel("rc11").Relation(g, "hb"); err == nil {
			for _, st := range v.Steps {
				if st.Rel == "rf" && !st.From.IsInit() && st.From.ID.T != st.To.ID.T && !hb.Has(sp.Index(st.From), sp.Index(st.To)) {
					relaxed = append(relaxed, v.Name(st.From)+" -rf-> "+v.Name(st.To))
				}
			}
		}
		if len(relaxed) > 0 {
			return v, fmt.Sprintf("but under rc11 %s does not synchronise (that needs a release write or fence\nbefore the write and an acquire read, or a read and an acquire fence, after it)", strings.Join(relaxed, " and "))
		}
		return v, "but rc11 orders only happens-before (po and release/acquire synchronisation),\neach location's coherence and seq_cst events among themselves"
	}
	return v, model + " allows it"
}
