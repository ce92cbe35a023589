package explore

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"ncmc/commspec"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// JoinNotes joins the non-empty notes of a result with "; ".
func JoinNotes(notes ...string) string {
	out := ""
	for _, n := range notes {
		switch {
		case n == "":
		case out == "":
			out = n
		default:
			out += "; " + n
		}
	}
	return out
}

// Collector accumulates outcomes, classes and the verdict over executions.
type Collector struct {
	prog     *ir.Program
	names    *interp.Names
	opts     Options
	start    time.Time
	Stats    Stats
	outcomes map[string]*Outcome
	order    []string
	rvKeys   map[string]struct{}
	rfKeys   map[string]struct{}
	segKeys  map[string]struct{}
	valKeys  map[string]struct{}
	rcKeys   map[string]struct{}

	violation string
	violKind  string
	internal  string // the first interpreter error (never a violation)
	boundHit  string
	// loopHits holds the positions of the loop heads whose bound some
	// execution hit; otherBound is set when an execution hit any other
	// bound (Result.LoopBounds, Result.OtherBounds).
	loopHits   map[string]struct{}
	otherBound bool
	firstGraph *seg.Graph
	lastReport time.Time
	finals     interp.FinalStates // final states, formatted once each
	// noStates: the final states of complete executions are not
	// outcomes (DropCompleteStates).
	noStates bool
}

// DropCompleteStates makes the collector keep no outcome for a complete
// execution without a violation: Result.Outcomes then lists the
// violations only. An explorer that does not explore every final state
// (Task.PartialOutcomes) calls it before the first execution: the states
// it would list are a sample, which no output shows, and complete
// executions that differ only in them can then be counted together
// (Summary.Fold).
func (c *Collector) DropCompleteStates() { c.noStates = true }

// NewCollector returns a collector for the executions of prog under opts.
func NewCollector(prog *ir.Program, names *interp.Names, opts Options) *Collector {
	return &Collector{prog: prog, names: names, opts: opts, start: time.Now(),
		outcomes: map[string]*Outcome{}, rvKeys: map[string]struct{}{}, rfKeys: map[string]struct{}{}, segKeys: map[string]struct{}{}, valKeys: map[string]struct{}{},
		rcKeys: map[string]struct{}{}, loopHits: map[string]struct{}{}}
}

// Add records a finished execution; it reports whether it was a violation.
func (c *Collector) Add(x *interp.Execution) bool {
	return c.AddSummary(c.Summarize(x), x.G)
}

// Summary is what the Collector needs of a finished execution, so
// that an explorer can keep it instead of the execution (vmcr's parallel
// exploration holds executions that wait for earlier ones).
type Summary struct {
	steps              int64
	msg, kind          string // the violation, if any
	internal, boundHit string
	blocked, complete  bool
	// loops lists the positions of the loop heads whose bound the
	// execution hit (sorted, joined by loopSep); otherBound is set when
	// it hit another bound too (interp.Execution.LoopBoundHits).
	loops            string
	otherBound       bool
	state            string // the outcome's state (violations and complete executions)
	rv, val, rf, seg string // class keys (with Options.Classes)
	rc               string // read values and choices (with Options.Classes)
	hasSeg           bool
}

// Violation is the violation of the execution, "" if none.
func (s *Summary) Violation() string { return s.msg }

// Complete reports whether every thread of the execution finished.
func (s *Summary) Complete() bool { return s.complete }

// PlainComplete reports whether the collector counts s as a complete
// execution: every thread finished, no violation, internal error, bound
// hit or block.
func (s *Summary) PlainComplete() bool {
	return s.complete && s.msg == "" && s.internal == "" && s.boundHit == "" && !s.blocked
}

// SummaryKey is what a Summary tells the collector apart from its steps
// (FoldKey).
type SummaryKey struct {
	msg, kind, internal, boundHit, state, loops string
	blocked, complete, otherBound               bool
}

// FoldKey returns the key of s, and false if s has class keys (Options.Classes)
// and does not fold. Two summaries with the same key differ only in their
// steps, and adding the later one does nothing that adding the earlier one
// has not done but count (the firsts it would record, violation, internal
// error, bound hit, outcome, are the earlier one's): so adding s, then the
// summaries in between, then Again(s) for b (after s.Fold(b)), counts what
// adding them in their order would, except where the caller stops in
// between (an execution bound, the first violation).
func (s *Summary) FoldKey() (SummaryKey, bool) {
	if s.rv != "" || s.rc != "" || s.hasSeg {
		return SummaryKey{}, false
	}
	return SummaryKey{msg: s.msg, kind: s.kind, internal: s.internal, boundHit: s.boundHit, state: s.state, loops: s.loops,
		blocked: s.blocked, complete: s.complete, otherBound: s.otherBound}, true
}

// Fold adds b to s when both have the same key (FoldKey), so that adding
// s and then Again(s) for b counts what adding both would; it reports
// whether it did.
func (s *Summary) Fold(b *Summary) bool {
	ks, ok := s.FoldKey()
	if kb, okb := b.FoldKey(); !ok || !okb || ks != kb {
		return false
	}
	s.steps += b.steps
	return true
}

// Again returns the summary of another execution like s whose steps are
// already counted in s (see Fold).
func (s *Summary) Again() *Summary {
	z := *s
	z.steps = 0
	return &z
}

// HasFirstGraph reports whether the collector has kept the graph of a
// complete execution (Result.Graph) already.
func (c *Collector) HasFirstGraph() bool { return c.firstGraph != nil }

// Summarize returns x's summary. It only reads c's options, so explorer
// goroutines may call it concurrently.
func (c *Collector) Summarize(x *interp.Execution) *Summary {
	s := &Summary{steps: int64(x.Steps()), internal: x.Internal(), boundHit: x.BoundHit(),
		blocked: x.Blocked(), complete: x.Complete()}
	if s.boundHit != "" {
		loops, other := x.LoopBoundHits()
		s.loops, s.otherBound = loopsKey(loops), other
	}
	s.msg, s.kind, _ = x.Violation()
	switch {
	case s.msg != "":
		s.state = c.finals.Of(x)
		if vs := x.ViolationState(); vs != "" {
			s.state = vs
		}
		return s
	case s.internal != "", s.boundHit != "", s.blocked:
	case s.complete && !c.noStates:
		s.state = c.finals.Of(x)
	}
	if c.opts.Classes && s.complete {
		s.rv = x.G.Key(seg.KeyOpts{Kind: seg.KeyValues})
		s.rc = s.rv + "|" + ChoiceKey(x)
		s.val = s.rc + "|" + c.finals.Of(x)
		s.rf = x.G.Key(seg.KeyOpts{Kind: seg.KeyRF})
		if len(c.opts.Specs) > 0 {
			if k, err := SegKey(c.prog, c.opts, x); err == nil { // semantic.go
				s.seg, s.hasSeg = k, true
			}
		}
	}
	return s
}

// AddSummary records a finished execution by its summary; g is its graph
// (nil: not kept). It reports whether it was a violation.
func (c *Collector) AddSummary(s *Summary, g *seg.Graph) bool {
	c.Stats.Executions++
	c.Stats.Steps += s.steps
	switch {
	case s.msg != "":
		c.Stats.Violations++
		if c.violation == "" {
			c.violation, c.violKind = s.msg, s.kind
		}
		c.addOutcome(s.state, s.msg)
		return true
	case s.internal != "":
		if c.internal == "" {
			c.internal = s.internal
		}
	case s.boundHit != "":
		c.Stats.BoundHits++
		if c.boundHit == "" {
			c.boundHit = s.boundHit
		}
		// (a bound hit without a loop is another bound, also should a
		// bound site of the interpreter not say so)
		c.otherBound = c.otherBound || s.otherBound || s.loops == ""
		if s.loops != "" {
			for _, l := range strings.Split(s.loops, loopSep) {
				c.loopHits[l] = struct{}{}
			}
		}
	case s.blocked:
		c.Stats.Blocked++
	case s.complete:
		c.Stats.Complete++
		if !c.noStates {
			c.addOutcome(s.state, "")
		}
		if c.firstGraph == nil {
			c.firstGraph = KeepGraph(g)
		}
	}
	if c.opts.Classes && s.complete {
		c.rvKeys[s.rv] = struct{}{}
		c.valKeys[s.val] = struct{}{}
		c.rcKeys[s.rc] = struct{}{}
		c.rfKeys[s.rf] = struct{}{}
		if s.hasSeg {
			c.segKeys[s.seg] = struct{}{}
		}
	}
	return false
}

// BoundHit records that an execution the collector did not see hit a
// bound (an explorer that counts its executions itself); the first reason
// recorded stays.
func (c *Collector) BoundHit(reason string) {
	if c.boundHit == "" {
		c.boundHit = reason
	}
	c.otherBound = true
}

// loopSep separates the positions of Summary.loops.
const loopSep = "\x00"

// loopsKey joins the positions of loop heads, sorted.
func loopsKey(loops []ir.Pos) string {
	s := make([]string, len(loops))
	for i, p := range loops {
		s[i] = p.String()
	}
	sort.Strings(s)
	return strings.Join(s, loopSep)
}

func (c *Collector) addOutcome(st, violation string) {
	key := st + "\x00" + violation
	o, ok := c.outcomes[key]
	if !ok {
		o = &Outcome{State: st, Violation: violation}
		c.outcomes[key] = o
		c.order = append(c.order, key)
	}
	o.Executions++
}

// Progress calls Options.Progress with the running statistics, at most
// every Options.ProgressEvery; queue is the pending work.
func (c *Collector) Progress(queue int) {
	if c.opts.Progress == nil {
		return
	}
	now := time.Now()
	if now.Sub(c.lastReport) < c.opts.ProgressEvery {
		return
	}
	c.lastReport = now
	s := c.Stats
	s.Queue = queue
	s.Elapsed = now.Sub(c.start)
	c.opts.Progress(s)
}

// Result builds the Result; stopped is non-empty when a budget ended the search.
func (c *Collector) Result(explorer, stopped, stopKind string) *Result {
	r := &Result{Model: c.opts.Model, Explorer: explorer, Stats: c.Stats, Stopped: stopped}
	r.Elapsed = time.Since(c.start)
	r.Stats.Elapsed = r.Elapsed
	r.Stats.SMTMS = float64(r.Stats.SMTTime.Microseconds()) / 1000
	r.Stats.ReplayMS = float64(r.Stats.ReplayTime.Microseconds()) / 1000
	keys := append([]string(nil), c.order...)
	sort.Strings(keys)
	for _, k := range keys {
		r.Outcomes = append(r.Outcomes, *c.outcomes[k])
	}
	if r.Outcomes == nil {
		r.Outcomes = []Outcome{}
	}
	if c.opts.Classes {
		r.Classes = &Classes{ReadValues: len(c.rvKeys), RF: len(c.rfKeys), SEG: len(c.segKeys), Values: len(c.valKeys), ReadChoices: len(c.rcKeys)}
	}
	switch {
	case c.violation != "":
		r.Verdict, r.Reason, r.Kind = Violation, c.violation, c.violKind
	case c.internal != "":
		r.Verdict, r.Reason, r.Kind = Unknown, c.internal, "internal"
	case stopped != "":
		r.Verdict, r.Reason, r.Kind = Unknown, stopped, stopKind
	case c.boundHit != "":
		r.Verdict, r.Reason = Unknown, "bound hit: "+c.boundHit
		r.OtherBounds = c.otherBound
		for l := range c.loopHits {
			r.LoopBounds = append(r.LoopBounds, l)
		}
		sort.Strings(r.LoopBounds)
		r.Kind = "unroll"
		if strings.HasPrefix(c.boundHit, "step") {
			r.Kind = "steps"
		}
	default:
		r.Verdict, r.Reason = Verified, "all executions explored"
		if c.Stats.Complete == 0 {
			r.Reason = "all executions explored (none completes: every execution is blocked)"
		}
	}
	r.Graph = c.firstGraph
	return r
}

// OperationalModel looks up a model the interpreter runs operationally
// (memmodel.Model.Operational: sc, tso, pso).
func OperationalModel(name string) (*memmodel.Model, error) {
	m, err := memmodel.Lookup(name)
	if err != nil || !m.Operational() {
		return nil, fmt.Errorf("memory model %q is not supported (supported: %s)", name, strings.Join(memmodel.Operational(), ", "))
	}
	return m, nil
}

// CheckSpecs checks every spec against prog (the object type exists, the
// methods match) and that no object type has two specs.
func CheckSpecs(prog *ir.Program, specs []*commspec.Spec) error {
	seen := map[string]string{}
	for _, s := range specs {
		if s == nil {
			return errors.New("nil commutativity specification")
		}
		if err := s.CheckProgram(prog); err != nil {
			return err
		}
		if f, ok := seen[s.Object]; ok {
			return fmt.Errorf("%s: object type %s already has a specification (%s)", s.ObjectPos, s.Object, f)
		}
		seen[s.Object] = s.File
	}
	return nil
}

// KeepGraph returns a copy of g that shares no event array with it (nil
// for nil): an explorer may hand the execution's storage back for reuse
// (interp.Execution.Release) once the Collector has seen it.
func KeepGraph(g *seg.Graph) *seg.Graph {
	if g == nil {
		return nil
	}
	c := g.Clone()
	for t, evs := range c.Threads {
		c.Threads[t] = append([]seg.Event(nil), evs...)
	}
	return c
}

// ChoiceKey renders the per-thread nondeterministic choices of x by thread
// name, for class counting (Classes.Values).
func ChoiceKey(x *interp.Execution) string {
	if len(x.Choices) == 0 {
		return ""
	}
	per := map[string][]int{}
	var ts []string
	for _, c := range x.Choices {
		n := x.G.Names[c.T]
		if _, ok := per[n]; !ok {
			ts = append(ts, n)
		}
		per[n] = append(per[n], c.K)
	}
	sort.Strings(ts)
	var sb strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&sb, "%s%v", t, per[t])
	}
	return sb.String()
}
