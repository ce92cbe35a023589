package serve

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"ncmc/explore/trustx"
	"ncmc/frontend"
	"ncmc/frontend/diag"
	"ncmc/frontend/litmus"
	"ncmc/herd"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// Models are the memory models the page compares, weakest last.
var Models = []string{"sc", "tso", "pso", "ra", "rc11"}

// Request asks for the analysis of one program (the body of POST /api/run).
type Request struct {
	// Source is the text of a litmus test (herd's C, X86 or X86_64 format)
	// or of a CIR program.
	Source string `json:"source"`
	// Kind is "litmus" or "cir"; empty means litmus when Name ends in
	// .litmus or the text starts like a litmus test, else cir.
	Kind string `json:"kind,omitempty"`
	// Name is the file name used in error positions and in the command
	// line that reproduces the view (default input.litmus or input.cir).
	Name string `json:"name,omitempty"`
	// Model is the model whose executions are drawn and whose forbidden
	// outcomes are explained (default sc).
	Model string `json:"model,omitempty"`
}

// SourceError is one positioned error of the source.
type SourceError struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
	// Text renders it as file:line:col: msg.
	Text string `json:"text"`
}

// Cell is one entry of the outcomes × models table.
type Cell struct {
	Allowed bool `json:"allowed"`
	// Executions is the number of consistent executions with the outcome.
	Executions int `json:"executions"`
	// Racy counts those with a data race (ra, rc11).
	Racy int `json:"racy,omitempty"`
}

// Row is one outcome (a final state) of the table.
type Row struct {
	State string `json:"state"`
	// Satisfies says whether the litmus test's condition holds in it.
	Satisfies bool `json:"satisfies"`
	// Error is set for executions that end in an assertion failure or
	// another runtime error.
	Error string          `json:"error,omitempty"`
	Cells map[string]Cell `json:"cells"`
}

// ModelSummary sums up one model's column.
type ModelSummary struct {
	Model      string `json:"model"`
	Executions int    `json:"executions"`
	// Verdict is the litmus condition's verdict (allowed, forbidden,
	// always, not-always); for CIR programs "verified" or "violation".
	Verdict    string `json:"verdict"`
	DataRace   bool   `json:"data_race,omitempty"`
	Incomplete string `json:"incomplete,omitempty"`
}

// Picture is one drawn execution.
type Picture struct {
	Outcome string `json:"outcome"`
	// Caption says in words what the picture shows.
	Caption []string `json:"caption"`
	SVG     string   `json:"svg"`
	// Forbidden is set for the picture of an explanation (a would-be
	// execution the model forbids); its cycle is highlighted.
	Forbidden bool `json:"forbidden,omitempty"`
}

// Explanation says why the selected model forbids an outcome.
type Explanation struct {
	Outcome string `json:"outcome"`
	Model   string `json:"model"`
	// Axiom is the first axiom the example execution violates and Cycle
	// the violation in words (a cycle of events).
	Axiom string `json:"axiom,omitempty"`
	Cycle string `json:"cycle,omitempty"`
	// Candidates counts the would-be executions with the outcome found
	// (every one inconsistent), Weak names the weaker model they were
	// found under.
	Candidates int      `json:"candidates"`
	Weak       string   `json:"weak,omitempty"`
	Picture    *Picture `json:"picture,omitempty"`
	// Note is set when no would-be execution was found (values out of
	// thin air, or the search was cut short).
	Note string `json:"note,omitempty"`
}

// Response is the answer to a Request.
type Response struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Test is the litmus test's name.
	Test string `json:"test,omitempty"`
	// Condition is the litmus condition in herd's normal form.
	Condition string         `json:"condition,omitempty"`
	Errors    []SourceError  `json:"errors,omitempty"`
	Models    []string       `json:"models"`
	Summary   []ModelSummary `json:"summary"`
	Outcomes  []Row          `json:"outcomes"`
	// Model is the model of Executions and Explanations.
	Model      string    `json:"model"`
	Executions []Picture `json:"executions"`
	// Omitted counts executions not drawn (Limits.MaxPictures).
	Omitted      int           `json:"omitted,omitempty"`
	Explanations []Explanation `json:"explanations"`
	// Command reproduces the view from the command line.
	Command string `json:"command"`
	// Incomplete is set when a bound (time, executions) cut the analysis
	// short: the table is then only a lower bound.
	Incomplete string `json:"incomplete,omitempty"`
}

// Limits bound the work of one request.
type Limits struct {
	// MaxExecutions bounds the executions explored per model and per
	// explanation search.
	MaxExecutions int
	// MaxPictures bounds the executions drawn.
	MaxPictures int
	// MaxExplanations bounds the outcomes explained.
	MaxExplanations int
}

// DefaultLimits are the limits of a server without flags.
var DefaultLimits = Limits{MaxExecutions: 20000, MaxPictures: 40, MaxExplanations: 8}

// errBadRequest marks errors of the request itself (not of its source).
var errBadRequest = errors.New("bad request")

// Analyze runs the request: parses the source, explores it under every
// model of Models, draws the executions of the selected model and
// explains the outcomes it forbids. Source errors are returned in
// Response.Errors, not as an error.
func Analyze(ctx context.Context, req Request, lim Limits) (*Response, error) {
	if req.Model == "" {
		req.Model = "sc"
	}
	if !contains(Models, req.Model) {
		return nil, fmt.Errorf("%w: unknown model %q (want one of %s)", errBadRequest, req.Model, strings.Join(Models, ", "))
	}
	if req.Kind == "" {
		req.Kind = guessKind(req.Name, req.Source)
	}
	if req.Kind != "litmus" && req.Kind != "cir" {
		return nil, fmt.Errorf("%w: unknown kind %q (want litmus or cir)", errBadRequest, req.Kind)
	}
	if req.Name == "" {
		req.Name = "input." + req.Kind
	}
	resp := &Response{Kind: req.Kind, Name: req.Name, Models: Models, Model: req.Model,
		Outcomes: []Row{}, Executions: []Picture{}, Explanations: []Explanation{}, Summary: []ModelSummary{}}
	var err error
	if req.Kind == "litmus" {
		err = analyzeLitmus(ctx, req, lim, resp)
	} else {
		err = analyzeCIR(ctx, req, lim, resp)
	}
	if err != nil {
		return nil, err
	}
	if resp.Incomplete == "" && ctx.Err() != nil {
		resp.Incomplete = "time bound hit: " + ctx.Err().Error()
	}
	return resp, nil
}

func guessKind(name, src string) string {
	switch {
	case strings.HasSuffix(name, ".litmus"):
		return "litmus"
	case strings.HasSuffix(name, ".cir"):
		return "cir"
	}
	first := strings.Fields(src)
	if len(first) > 0 && (first[0] == "C" || first[0] == "X86" || first[0] == "X86_64") {
		return "litmus"
	}
	return "cir"
}

// sourceErrors turns a front end's error into positioned errors.
func sourceErrors(err error) []SourceError {
	var list diag.ErrorList
	if errors.As(err, &list) {
		out := make([]SourceError, 0, len(list))
		for _, e := range list {
			out = append(out, SourceError{Line: e.Pos.Line, Col: e.Pos.Col, Msg: e.Msg, Text: e.Pos.String() + ": " + e.Msg})
		}
		return out
	}
	return []SourceError{{Line: 1, Col: 1, Msg: err.Error(), Text: err.Error()}}
}

// table accumulates the outcomes × models table.
type table struct {
	rows map[string]*Row
}

func (tb *table) add(model, state, errMsg string, satisfies bool, o Cell) {
	k := state + "\x00" + errMsg
	r := tb.rows[k]
	if r == nil {
		r = &Row{State: state, Error: errMsg, Satisfies: satisfies, Cells: map[string]Cell{}}
		tb.rows[k] = r
	}
	r.Cells[model] = o
}

func (tb *table) sorted() []Row {
	keys := make([]string, 0, len(tb.rows))
	for k := range tb.rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Row, 0, len(keys))
	for _, k := range keys {
		r := tb.rows[k]
		for _, m := range Models {
			if _, ok := r.Cells[m]; !ok {
				r.Cells[m] = Cell{}
			}
		}
		out = append(out, *r)
	}
	return out
}

func analyzeLitmus(ctx context.Context, req Request, lim Limits, resp *Response) error {
	t, err := litmus.Parse(req.Name, []byte(req.Source))
	if err != nil {
		resp.Errors = sourceErrors(err)
		return nil
	}
	resp.Test, resp.Condition = t.Name, t.Cond.String()
	resp.Command = fmt.Sprintf("ncmc litmus --model %s --explain --graphs graphs %s", req.Model, shellQuote(req.Name))
	tb := &table{rows: map[string]*Row{}}
	var sel *herd.Result
	for _, m := range Models {
		res, err := herd.Run(ctx, t, herd.Options{Model: m, Graphs: m == req.Model, MaxExecutions: lim.MaxExecutions})
		if err != nil {
			return err
		}
		if m == req.Model {
			sel = res
		}
		resp.Summary = append(resp.Summary, ModelSummary{Model: m, Executions: res.Executions, Verdict: res.Verdict,
			DataRace: res.DataRace, Incomplete: res.Incomplete})
		if res.Incomplete != "" && resp.Incomplete == "" {
			resp.Incomplete = m + ": " + res.Incomplete
		}
		for _, o := range res.Outcomes {
			tb.add(m, o.State, o.Error, o.Satisfies, Cell{Allowed: true, Executions: o.Executions, Racy: o.Racy})
		}
	}
	resp.Outcomes = tb.sorted()
	sw, swModel := swFor(req.Model)
	// x86 events as herd draws them, except under ra and rc11 where the
	// orders of the C11 mapping matter
	hw := strings.HasPrefix(t.Arch, "X86") && !sw

	// the selected model's executions: those that satisfy the condition
	// first, then those sc forbids, then the others
	sat := map[string]bool{}
	for _, o := range sel.Outcomes {
		sat[o.State] = sat[o.State] || o.Satisfies
	}
	rank := func(x herd.Execution) int {
		switch {
		case sat[x.Outcome]:
			return 0
		case x.NotSC != nil:
			return 1
		}
		return 2
	}
	graphs := append([]herd.Execution(nil), sel.Graphs...)
	sort.SliceStable(graphs, func(i, j int) bool { return rank(graphs[i]) < rank(graphs[j]) })
	for i, x := range graphs {
		if i >= lim.MaxPictures {
			resp.Omitted = len(graphs) - i
			break
		}
		caption := []string{fmt.Sprintf("execution %d of %d under %s: outcome %s", i+1, len(graphs), req.Model, x.Outcome)}
		if sat[x.Outcome] {
			caption[0] += " (satisfies the condition)"
		}
		caption = append(caption, whyLines(req.Model, x.NotSC, x.Why)...)
		if len(x.Races) > 0 {
			caption = append(caption, fmt.Sprintf("%d data race(s): %s", len(x.Races), x.Races[0]))
		}
		opts := DrawOpts{Title: caption, SW: sw, SWModel: swModel, Hardware: hw}
		if x.Why != "" {
			opts.Highlight = x.NotSC
			opts.HighlightNote = fmt.Sprintf("a cycle that sc forbids and %s allows: %s", req.Model, cycleWords(x.NotSC))
			opts.Relaxed, opts.RelaxedNote = relaxedSteps(req.Model, x.Graph, x.NotSC)
		}
		svg, err := Draw(x.Graph, opts)
		if err != nil {
			return err
		}
		resp.Executions = append(resp.Executions, Picture{Outcome: x.Outcome, Caption: caption, SVG: svg})
	}

	// the outcomes the selected model forbids
	outcome := func(x *interp.Execution) (string, bool) {
		if !x.Complete() {
			return "", false
		}
		val := herd.Values(t, x)
		if t.Filter != nil && !t.Filter.Eval(val) {
			return "", false
		}
		return t.Outcome(val), true
	}
	display := func(g *seg.Graph) *seg.Graph { return herd.DisplayGraph(t, g) }
	// rows that end in an error are not explained (herd has no such rows)
	rowKey := func(r Row) (string, bool) { return r.State, r.Error == "" }
	if err := explainRows(ctx, t.Prog, req.Model, lim, resp, rowKey, outcome, display, sw, swModel, hw); err != nil {
		return err
	}
	// a condition no model reaches (each exploring completely): herd's
	// explanation of the condition
	anySat := false
	for _, r := range resp.Outcomes {
		anySat = anySat || r.Satisfies
	}
	if !anySat && t.Cond.Quant != litmus.Forall && resp.Incomplete == "" && ctx.Err() == nil {
		ex, err := herd.Explain(ctx, t, req.Model, lim.MaxExecutions)
		if err != nil {
			return err
		}
		e := Explanation{Outcome: "the condition " + t.Cond.String(), Model: req.Model, Candidates: ex.Candidates, Weak: ex.Weak}
		if len(ex.Examples) > 0 {
			x := ex.Examples[0]
			e.Axiom, e.Cycle = x.Violation.Axiom, x.Violation.String()
			p, err := forbiddenPicture(x.Graph, x.Outcome, x.Violation, req.Model, sw, swModel, hw)
			if err != nil {
				return err
			}
			e.Picture = p
		} else {
			e.Note = ex.String()
		}
		resp.Explanations = append(resp.Explanations, e)
	}
	return nil
}

// axiomWords says in plain words what the axioms of the built-in models
// demand (lines separated by \n).
var axiomWords = map[string]string{
	"sc/sc":          "sc runs all events in one order that respects po, rf, co and fr;\na cycle of these edges means no such order exists",
	"tso/tso":        "tso keeps po except from a write to a later read (the write may wait in the store buffer);\nthe kept po edges, fences, rf between threads, co and fr must not form a cycle",
	"pso/pso":        "pso keeps po only from a read to what follows it and between writes to the same location;\nthe kept po edges, fences, rf between threads, co and fr must not form a cycle",
	"ra/coherence":   "happens-before (po, and rf: every write is release, every read acquire)\nmust not be contradicted by co, rf or fr: a read cannot miss a write that happens before it",
	"rc11/coherence": "happens-before (po, and sw from a release write to an acquire read of it)\nmust not be contradicted by co, rf or fr: a read cannot miss a write that happens before it",
}

// cycleWords writes the witness of v with short names: "a -po-> b -fr-> c".
func cycleWords(v *seg.Violation) string {
	if len(v.Steps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(v.Name(v.Steps[0].From))
	for _, s := range v.Steps {
		b.WriteString(" -" + baseRel(s.Rel) + "-> " + v.Name(s.To))
	}
	return b.String()
}

// relaxedSteps returns the steps of v, a cycle sc forbids in g, that model
// does not keep, and a note that says why: under tso and pso the po
// edges not in the model's global happens-before (ghb), under rc11 the
// rf edges between threads that do not synchronise (not in hb). herd's
// WhyNotSC says the same in words.
func relaxedSteps(model string, g *seg.Graph, v *seg.Violation) ([]seg.Step, string) {
	var rel, what string
	switch model {
	case "tso", "pso":
		rel, what = "ghb", "po edge "+model+" does not keep: its write may wait in a store buffer until after the later access"
	case "rc11":
		rel, what = "hb", "rf edge that does not synchronise under rc11 (not release/acquire)"
	default:
		return nil, ""
	}
	m := seg.LookupModel(model)
	if m == nil {
		return nil, ""
	}
	sp, r, err := m.Relation(g, rel)
	if err != nil {
		return nil, "" // a model without that relation: nothing to mark
	}
	var out []seg.Step
	for _, st := range v.Steps {
		b := baseRel(st.Rel)
		a, c := sp.Index(st.From), sp.Index(st.To)
		if a < 0 || c < 0 || r.Has(a, c) {
			continue
		}
		if model == "rc11" && (b != "rf" || st.From.IsInit() || st.From.ID.T == st.To.ID.T) {
			continue
		}
		if model != "rc11" && b != "po" {
			continue
		}
		out = append(out, st)
	}
	if len(out) == 0 {
		return nil, ""
	}
	return out, "dashed: " + what
}

// whyLines says why a non-SC execution is allowed.
func whyLines(model string, notSC *seg.Violation, why string) []string {
	switch {
	case notSC != nil && why != "":
		return append([]string{"not sequentially consistent: the highlighted cycle is forbidden under sc,"}, strings.Split(why, "\n")...)
	case notSC == nil && model != "sc":
		return []string{"sequentially consistent: also allowed under sc"}
	}
	return nil
}

func forbiddenPicture(g *seg.Graph, outcome string, v *seg.Violation, model string, sw bool, swModel *seg.Model, hw bool) (*Picture, error) {
	caption := []string{fmt.Sprintf("FORBIDDEN under %s: outcome %s", model, outcome),
		fmt.Sprintf("this would-be execution violates axiom %s (%s %s):", v.Axiom, v.Kind, v.Expr),
		"the highlighted edges form the cycle " + cycleWords(v)}
	if s := axiomWords[model+"/"+v.Axiom]; s != "" {
		caption = append(caption, strings.Split(s, "\n")...)
	}
	svg, err := Draw(g, DrawOpts{Title: caption, SW: sw, SWModel: swModel, Highlight: v, Hardware: hw})
	if err != nil {
		return nil, err
	}
	return &Picture{Outcome: outcome, Caption: caption, SVG: svg, Forbidden: true}, nil
}

// explainRows explains the rows of the table that the selected model
// forbids (and that end normally).
//
// rowKey gives the key of a row that can be explained, outcome the key
// of an execution (false for one that is not a candidate).
func explainRows(ctx context.Context, prog *ir.Program, model string, lim Limits, resp *Response,
	rowKey func(Row) (string, bool), outcome func(*interp.Execution) (string, bool), display func(*seg.Graph) *seg.Graph, sw bool, swModel *seg.Model, hw bool) error {
	for _, sm := range resp.Summary {
		if sm.Model == model && sm.Incomplete != "" || ctx.Err() != nil {
			// an outcome not reached may be reachable: nothing to explain
			return nil
		}
	}
	var targets []string
	for _, r := range resp.Outcomes {
		if !r.Cells[model].Allowed {
			if k, ok := rowKey(r); ok {
				targets = append(targets, k)
			}
		}
	}
	if len(targets) > lim.MaxExplanations {
		targets = targets[:lim.MaxExplanations]
	}
	if len(targets) == 0 {
		return nil
	}
	found, err := explain(ctx, prog, model, lim.MaxExecutions, targets, outcome, display)
	if err != nil {
		return err
	}
	for _, k := range targets {
		f := found[k]
		s, msg, _ := strings.Cut(k, "\x00")
		if msg != "" {
			s += " [" + msg + "]"
		}
		e := Explanation{Outcome: s, Model: model}
		if f == nil {
			e.Note = "no would-be execution with this outcome was found within the bounds"
			resp.Explanations = append(resp.Explanations, e)
			continue
		}
		e.Candidates, e.Weak = f.candidates, f.weak
		e.Axiom, e.Cycle = f.v.Axiom, f.v.String()
		p, err := forbiddenPicture(f.g, s, f.v, model, sw, swModel, hw)
		if err != nil {
			return err
		}
		e.Picture = p
		resp.Explanations = append(resp.Explanations, e)
	}
	return nil
}

func analyzeCIR(ctx context.Context, req Request, lim Limits, resp *Response) error {
	prog, err := frontend.ParseCIR(req.Name, []byte(req.Source))
	if err != nil {
		resp.Errors = sourceErrors(err)
		return nil
	}
	resp.Command = fmt.Sprintf("ncmc verify --model %s %s", req.Model, shellQuote(req.Name))
	tb := &table{rows: map[string]*Row{}}
	// an outcome is the final state and the error message, if any
	outcome := func(x *interp.Execution) (string, bool) {
		msg, _, _ := x.Violation()
		if msg == "" && !x.Complete() {
			return "", false
		}
		return cirState(prog, x) + "\x00" + msg, true
	}
	rowKey := func(r Row) (string, bool) {
		return r.State + "\x00" + r.Error, !strings.HasPrefix(r.Error, "stopped: ")
	}
	sw, swModel := swFor(req.Model)
	type pic struct {
		g     *seg.Graph
		state string
		msg   string
	}
	var pics []pic // the first lim.MaxPictures executions of the selected model
	nPics := 0
	for _, m := range Models {
		cells := map[string]*Cell{}
		sum := ModelSummary{Model: m, Verdict: "verified"}
		seen := map[string]bool{}
		st, err := trustx.Enumerate(ctx, prog, trustx.EnumOptions{Model: m, MaxExecutions: lim.MaxExecutions}, func(x *interp.Execution) bool {
			if x.Blocked() {
				return true
			}
			// operational exploration is not used: every graph comes once,
			// but keep the count honest should that change
			k := x.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
			if seen[k] {
				return true
			}
			seen[k] = true
			state := cirState(prog, x)
			msg, _, _ := x.Violation()
			if msg == "" && !x.Complete() {
				msg = "stopped: " + x.BoundHit()
			}
			if msg != "" {
				sum.Verdict = "violation"
			}
			key := state + "\x00" + msg
			c := cells[key]
			if c == nil {
				c = &Cell{Allowed: true}
				cells[key] = c
			}
			c.Executions++
			if len(x.Races()) > 0 {
				c.Racy++
				sum.DataRace = true
			}
			sum.Executions++
			if m == req.Model {
				nPics++
				if len(pics) < lim.MaxPictures {
					pics = append(pics, pic{g: x.G, state: state, msg: msg})
				}
			}
			return true
		})
		if err != nil {
			return err
		}
		sum.Incomplete = st.Stopped
		if st.Stopped != "" && resp.Incomplete == "" {
			resp.Incomplete = m + ": " + st.Stopped
		}
		resp.Summary = append(resp.Summary, sum)
		for k, c := range cells {
			state, msg, _ := strings.Cut(k, "\x00")
			tb.add(m, state, msg, false, *c)
		}
	}
	resp.Outcomes = tb.sorted()
	resp.Omitted = nPics - len(pics)
	for i, p := range pics {
		caption := []string{fmt.Sprintf("execution %d of %d under %s: final state %s", i+1, nPics, req.Model, p.state)}
		if p.msg != "" {
			caption = append(caption, "ends in an error: "+p.msg)
		}
		notSC, why := herd.WhyNotSC(req.Model, p.g)
		caption = append(caption, whyLines(req.Model, notSC, why)...)
		opts := DrawOpts{Title: caption, SW: sw, SWModel: swModel}
		if why != "" {
			opts.Highlight = notSC
			opts.HighlightNote = fmt.Sprintf("a cycle that sc forbids and %s allows: %s", req.Model, cycleWords(notSC))
			opts.Relaxed, opts.RelaxedNote = relaxedSteps(req.Model, p.g, notSC)
		}
		svg, err := Draw(p.g, opts)
		if err != nil {
			return err
		}
		resp.Executions = append(resp.Executions, Picture{Outcome: p.state, Caption: caption, SVG: svg})
	}
	return explainRows(ctx, prog, req.Model, lim, resp, rowKey, outcome, func(g *seg.Graph) *seg.Graph { return g }, sw, swModel, false)
}

// cirState renders the final values of a CIR program's globals:
// "x=1; y=0; a={1,2};".
func cirState(prog *ir.Program, x *interp.Execution) string {
	var b strings.Builder
	for i, g := range prog.Globals {
		cells := x.GlobalCells(i)
		if i > 0 {
			b.WriteByte(' ')
		}
		switch len(cells) {
		case 0:
			fmt.Fprintf(&b, "%s=?;", g.Name)
		case 1:
			fmt.Fprintf(&b, "%s=%d;", g.Name, cells[0])
		default:
			vs := make([]string, len(cells))
			for j, c := range cells {
				vs[j] = fmt.Sprint(c)
			}
			fmt.Fprintf(&b, "%s={%s};", g.Name, strings.Join(vs, ","))
		}
	}
	return b.String()
}

// swFor says whether pictures under model show sw, and which model
// defines it.
func swFor(model string) (bool, *seg.Model) {
	switch model {
	case "ra", "rc11":
		if m := seg.LookupModel(model); m != nil && contains(m.Lets(), "sw") {
			return true, m
		}
		if model == "ra" {
			return true, raDisplay
		}
	}
	return false, nil
}

// raDisplay supplies sw under ra, for a seg whose ra model does not
// define it: every access is release/acquire, so every reads-from edge
// between threads from a write other than an initial one synchronises.
var raDisplay = func() *seg.Model {
	m, err := seg.ParseModel("ra", "release/acquire (for pictures)", `
let sync = spawn | join
let sw = [W \ IW]; (rf & ext) | sync
empty 0 as nothing
`)
	if err != nil {
		panic(err) // a constant text: a bug, not user input
	}
	return m
}()

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+./=:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
