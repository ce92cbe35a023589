// Package ncmc is the checker: the explorers that decide which executions
// of an ir.Program the interpreter (package interp) runs, verdicts,
// counterexamples and statistics.
//
// The entry point is Verify.
package ncmc

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"ncmc/commspec"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/mcr"
	"ncmc/memmodel"
	"ncmc/seg"
)

// Verdict is the answer of a verification run.
type Verdict string

// Verdicts.
const (
	Verified  Verdict = "verified"  // every execution explored, no violation, no bound hit
	Violation Verdict = "violation" // an assertion failure, runtime error or deadlock was found
	Unknown   Verdict = "unknown"   // a bound was hit before a violation was found
)

// Options configure Verify. The zero value is usable: SC, the auto explorer (mcr),
// unroll 8, no execution limit, no timeout.
type Options struct {
	Model string // memory model; "sc" (default)
	// Explorer is "auto" (the default: a plan of explorers, plan.go) or
	// the name of one of Explorers().
	Explorer string
	// Specs are commutativity specifications, at most one per object type
	// of the program (package commspec). With specs the auto explorer is
	// ncmc, which treats every call of a linearizable method as one atomic
	// step and does not reorder invocations the spec says commute
	// (docs/ncmc.md), and Semantic is set.
	Specs []*commspec.Spec
	// NCMCRule selects the ncmc explorer's reduction: "" or "complete" (the
	// default: partial-order reduction with spec-based conditional
	// independence, semantically complete) or "thesis" (the NCMC thesis's
	// scoped-read pruning rule, known to miss behaviours; the same as
	// Explorer "ncmc-thesis").
	NCMCRule string
	// Semantic renders outcomes semantically: each object instance by the
	// values of its abstraction functions (its fields if it has none) and
	// heap records left out, so executions that differ only in the concrete
	// layout of objects have equal outcome strings. Set automatically when
	// Specs is non-empty; every explorer honours it.
	Semantic bool
	// QueryTimeout bounds each SMT query of the mcr explorer (0: 10s).
	QueryTimeout time.Duration
	// Decider is how the mcr explorer decides its queries: "" or "native"
	// (the native decider, Z3 when it answers unknown) or "z3" (Z3 only).
	Decider string
	// CompareDeciders, if set, receives every mcr query's native and Z3
	// answers (differential tests; costs a Z3 call per query).
	CompareDeciders func(q *mcr.Query, native, z3 mcr.Answer)
	// corruptNative, in tests, alters every native seed the mcr explorer
	// generates (to check that a native witness that fails replay is
	// recovered from).
	corruptNative func(*mcr.Seed)
	// nativeBudget, in tests, bounds the native decider's search (so that
	// it answers unknown and Z3 takes over more often).
	nativeBudget int
	// noCheckpoints, in tests, makes the trust explorer run every graph
	// from the start (no checkpoints to resume from)
	noCheckpoints bool
	// Debug, if set, receives a line per execution and per seed (for developers).
	Debug func(format string, args ...any)
	// Workers is the number of parallel workers (0: the number of CPUs):
	// mcr workers, each with its own Z3 context, and vmcr goroutines that
	// explore sibling subtrees (docs/vmcr.md).
	Workers       int
	Unroll        int // default loop bound; 0 means 8
	MaxExecutions int // stop after this many executions (0: no limit)
	MaxSteps      int // visible steps per execution (0: 100000)
	// MaxThreads bounds the threads of one execution, main included
	// (0: interp.DefaultMaxThreads); hitting it is a bound hit.
	MaxThreads int
	Timeout    time.Duration // wall-clock limit (0: none)
	// KeepGoing explores past the first violation, collecting every outcome.
	KeepGoing bool
	// StateCache makes the reference explorer stateful: a run that reaches a
	// state (memory, threads, buffers) seen before is cut off, since its
	// futures were explored already. Outcomes and verdicts are preserved;
	// execution and class counts then cover only the runs not cut off.
	StateCache bool
	// Races makes a data race a violation (kind "data-race"; interp/scraces.go).
	// Under sc it needs the reference explorer, which is then used
	// whatever Explorer says; ra and rc11 report races anyway.
	Races bool
	// UnboundedLoops drops the default loop bound (Unroll): loops run until
	// MaxSteps is hit. Only useful with StateCache, which cuts a run that
	// returns to a state seen before, so finite-state spin loops end.
	UnboundedLoops bool
	// Symmetry lets the state cache treat threads that nothing in the
	// state tells apart as interchangeable (interp/symmetry.go); ignored when the
	// program can observe thread identity, and with Races.
	Symmetry bool
	// Classes counts distinct classes of executions (read-value vectors, rf graphs).
	Classes bool
	// Progress, if set, is called about every ProgressEvery with running statistics.
	Progress      func(Stats)
	ProgressEvery time.Duration
}

// DefaultUnroll is the loop bound used when Options.Unroll is 0.
const DefaultUnroll = 8

// AutoCoverabilityTime is how long the auto explorer tries the
// coverability explorer, when a bounded exploration of a program whose
// main spawns threads in a loop hit a bound and Options.Timeout is 0.
const AutoCoverabilityTime = 60 * time.Second

// DefaultMaxSteps is the per-execution step bound used when Options.MaxSteps is 0.
const DefaultMaxSteps = 100000

func (o *Options) normalize() error {
	if o.Model == "" {
		o.Model = "sc"
	}
	if o.Explorer == "" {
		o.Explorer = "auto"
	}
	if o.Unroll == 0 {
		o.Unroll = DefaultUnroll
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Unroll < 0 || o.MaxSteps < 0 || o.MaxThreads < 0 || o.MaxExecutions < 0 || o.Timeout < 0 {
		return errors.New("bounds must not be negative")
	}
	if o.ProgressEvery == 0 {
		o.ProgressEvery = 250 * time.Millisecond
	}
	return nil
}

// Stats are running counters of an exploration.
type Stats struct {
	Executions int   `json:"executions"`             // executions run (complete, blocked, bound-hit and violating)
	Complete   int   `json:"complete"`               // executions in which every thread finished
	Blocked    int   `json:"blocked"`                // executions discarded by a failed assume/await
	BoundHits  int   `json:"bound_hits"`             // executions stopped by a loop or step bound
	Violations int   `json:"violations"`             // violating executions seen
	Pruned     int   `json:"pruned,omitempty"`       // runs cut off at a state seen before (reference explorer with StateCache), or by sleep sets (ncmc explorer)
	Cached     int   `json:"cached,omitempty"`       // ncmc explorer with StateCache: runs cut off at a state seen before
	States     int   `json:"states,omitempty"`       // coverability explorer: abstract states kept (runs cut at a covered state count in Pruned)
	Steps      int64 `json:"steps"`                  // visible steps over all executions
	Queue      int   `json:"queue"`                  // pending work (choice points left on the DFS stack, or seeds)
	Seeds      int   `json:"seeds,omitempty"`        // mcr: distinct seeds generated (incl. the initial one)
	SMTQueries int   `json:"smt_queries,omitempty"`  // mcr: feasibility queries (native or Z3)
	Native     int   `json:"native,omitempty"`       // mcr: queries decided by the native decider
	Z3Calls    int   `json:"z3_calls,omitempty"`     // mcr: queries decided by Z3 (fallbacks, or all with Decider "z3")
	Fallbacks  int   `json:"z3_fallbacks,omitempty"` // mcr: native unknown answers passed to Z3
	Nodes      int   `json:"nodes,omitempty"`        // vmcr: annotated partial traces visited
	Runs       int   `json:"runs,omitempty"`         // vmcr: interpreter runs (one per node at most)
	// NativeReplayFailures counts seeds from native witnesses whose replay
	// failed (a decider bug): their parent's seeds were asked to Z3 again.
	NativeReplayFailures int           `json:"native_replay_failures,omitempty"`
	SMTTime              time.Duration `json:"-"`
	ReplayTime           time.Duration `json:"-"`
	Elapsed              time.Duration `json:"-"`
	SMTMS                float64       `json:"smt_ms,omitempty"`
	ReplayMS             float64       `json:"replay_ms,omitempty"`
}

// Outcome is a distinct final result of complete (or violating) executions.
type Outcome struct {
	// State lists the final values of the globals, e.g. "x=1 y=0 a=[1,2]".
	State string `json:"state"`
	// Violation is empty for a complete execution, else what went wrong.
	Violation string `json:"violation,omitempty"`
	// Executions is how many explored executions ended in this outcome.
	Executions int `json:"executions"`
}

// Classes counts distinct execution classes seen (with Options.Classes).
type Classes struct {
	ReadValues int `json:"read_values"` // distinct vectors of values read, per thread
	RF         int `json:"rf"`          // distinct reads-from graphs
	// SEG counts distinct semantic execution graphs (with Options.Specs;
	// seg.Semantic): the classes of NCMC's SC-equivalence.
	SEG int `json:"seg,omitempty"`
	// Values counts distinct (read-value vector, per-thread nondeterministic
	// choices, final state) triples of complete executions: the classes
	// the vmcr explorer explores one execution of.
	Values int `json:"values"`
}

// Result is the answer of Verify.
type Result struct {
	Verdict Verdict `json:"verdict"`
	// Reason says why: the violation, the bound that was hit, or "all executions explored".
	Reason string `json:"reason"`
	// Kind classifies the reason: assertion, runtime-error, deadlock, unroll, steps,
	// executions, time, internal (a bug of ncmc, not of the program), or
	// empty for verified.
	Kind     string `json:"kind,omitempty"`
	Model    string `json:"model"`
	Explorer string `json:"explorer"`
	// Workers is how many parallel workers explored (mcr).
	Workers int `json:"workers,omitempty"`
	// Note explains a fallback (e.g. to the reference explorer).
	Note string `json:"note,omitempty"`
	// Stopped names the budget (time, executions) that ended the search
	// early, also when a violation was found first; empty if the search
	// ran to its end.
	Stopped  string    `json:"stopped,omitempty"`
	Stats    Stats     `json:"stats"`
	Outcomes []Outcome `json:"outcomes"`
	Classes  *Classes  `json:"classes,omitempty"`
	// Counterexample tells the violating execution step by step.
	Counterexample []interp.TraceStep `json:"counterexample,omitempty"`
	// ViolationPos is where the violation happened (assertion or error site).
	ViolationPos ir.Pos `json:"-"`
	// Graph is the execution graph of the counterexample, or of the first
	// complete execution when there is none.
	Graph   *seg.Graph    `json:"-"`
	Elapsed time.Duration `json:"-"`
}

// Verify explores the executions of prog under opts and returns a verdict.
// It returns an error only for bad options; bounds, timeouts and
// cancellation of ctx give an Unknown verdict. Which explorers run is
// decided by plan (plan.go).
func Verify(ctx context.Context, prog *ir.Program, opts Options) (*Result, error) {
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	if prog == nil || prog.Main == nil {
		return nil, errors.New("program has no main function")
	}
	model, err := memmodel.Lookup(opts.Model)
	if err != nil {
		return nil, err
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	stages, err := plan(prog, &opts, model)
	if err != nil {
		return nil, err
	}
	return runPlan(ctx, prog, opts, stages)
}

// joinNotes joins the non-empty notes of a result with "; ".
func joinNotes(notes ...string) string {
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

// collector accumulates outcomes, classes and the verdict over executions.
type collector struct {
	prog     *ir.Program
	names    *interp.Names
	opts     Options
	start    time.Time
	stats    Stats
	outcomes map[string]*Outcome
	order    []string
	rvKeys   map[string]struct{}
	rfKeys   map[string]struct{}
	segKeys  map[string]struct{}
	valKeys  map[string]struct{}

	violation  string
	violKind   string
	internal   string // the first interpreter error (never a violation)
	boundHit   string
	firstGraph *seg.Graph
	lastReport time.Time
	finals     interp.FinalStates // final states, formatted once each
}

func newCollector(prog *ir.Program, names *interp.Names, opts Options) *collector {
	return &collector{prog: prog, names: names, opts: opts, start: time.Now(),
		outcomes: map[string]*Outcome{}, rvKeys: map[string]struct{}{}, rfKeys: map[string]struct{}{}, segKeys: map[string]struct{}{}, valKeys: map[string]struct{}{}}
}

// add records a finished execution; it reports whether it was a violation.
func (c *collector) add(x *interp.Execution) bool {
	return c.addSummary(c.summarize(x), x.G)
}

// execSummary is what the collector needs of a finished execution, so
// that an explorer can keep it instead of the execution (vmcr's parallel
// exploration holds executions that wait for earlier ones).
type execSummary struct {
	steps              int64
	msg, kind          string // the violation, if any
	internal, boundHit string
	blocked, complete  bool
	state              string // the outcome's state (violations and complete executions)
	rv, val, rf, seg   string // class keys (with Options.Classes)
	hasSeg             bool
}

// summarize returns x's summary. It only reads c's options, so explorer
// goroutines may call it concurrently.
func (c *collector) summarize(x *interp.Execution) *execSummary {
	s := &execSummary{steps: int64(x.Steps()), internal: x.Internal(), boundHit: x.BoundHit(),
		blocked: x.Blocked(), complete: x.Complete()}
	s.msg, s.kind, _ = x.Violation()
	switch {
	case s.msg != "":
		s.state = c.finals.Of(x)
		if vs := x.ViolationState(); vs != "" {
			s.state = vs
		}
		return s
	case s.internal != "", s.boundHit != "", s.blocked:
	case s.complete:
		s.state = c.finals.Of(x)
	}
	if c.opts.Classes && s.complete {
		s.rv = x.G.Key(seg.KeyOpts{Kind: seg.KeyValues})
		s.val = s.rv + "|" + choiceKey(x) + "|" + c.finals.Of(x)
		s.rf = x.G.Key(seg.KeyOpts{Kind: seg.KeyRF})
		if len(c.opts.Specs) > 0 {
			if k, err := segKey(c.prog, c.opts, x); err == nil { // ncmcthesis.go
				s.seg, s.hasSeg = k, true
			}
		}
	}
	return s
}

// addSummary records a finished execution by its summary; g is its graph
// (nil: not kept). It reports whether it was a violation.
func (c *collector) addSummary(s *execSummary, g *seg.Graph) bool {
	c.stats.Executions++
	c.stats.Steps += s.steps
	switch {
	case s.msg != "":
		c.stats.Violations++
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
		c.stats.BoundHits++
		if c.boundHit == "" {
			c.boundHit = s.boundHit
		}
	case s.blocked:
		c.stats.Blocked++
	case s.complete:
		c.stats.Complete++
		c.addOutcome(s.state, "")
		if c.firstGraph == nil {
			c.firstGraph = keepGraph(g)
		}
	}
	if c.opts.Classes && s.complete {
		c.rvKeys[s.rv] = struct{}{}
		c.valKeys[s.val] = struct{}{}
		c.rfKeys[s.rf] = struct{}{}
		if s.hasSeg {
			c.segKeys[s.seg] = struct{}{}
		}
	}
	return false
}

func (c *collector) addOutcome(st, violation string) {
	key := st + "\x00" + violation
	o, ok := c.outcomes[key]
	if !ok {
		o = &Outcome{State: st, Violation: violation}
		c.outcomes[key] = o
		c.order = append(c.order, key)
	}
	o.Executions++
}

func (c *collector) progress(queue int) {
	if c.opts.Progress == nil {
		return
	}
	now := time.Now()
	if now.Sub(c.lastReport) < c.opts.ProgressEvery {
		return
	}
	c.lastReport = now
	s := c.stats
	s.Queue = queue
	s.Elapsed = now.Sub(c.start)
	c.opts.Progress(s)
}

// result builds the Result; stopped is non-empty when a budget ended the search.
func (c *collector) result(explorer, stopped, stopKind string) *Result {
	r := &Result{Model: c.opts.Model, Explorer: explorer, Stats: c.stats, Stopped: stopped}
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
		r.Classes = &Classes{ReadValues: len(c.rvKeys), RF: len(c.rfKeys), SEG: len(c.segKeys), Values: len(c.valKeys)}
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
		r.Kind = "unroll"
		if strings.HasPrefix(c.boundHit, "step") {
			r.Kind = "steps"
		}
	default:
		r.Verdict, r.Reason = Verified, "all executions explored"
		if c.stats.Complete == 0 {
			r.Reason = "all executions explored (none completes: every execution is blocked)"
		}
	}
	r.Graph = c.firstGraph
	return r
}

// operationalModel looks up a model the interpreter runs operationally
// (memmodel.Model.Operational: sc, tso, pso).
func operationalModel(name string) (*memmodel.Model, error) {
	m, err := memmodel.Lookup(name)
	if err != nil || !m.Operational() {
		return nil, fmt.Errorf("memory model %q is not supported (supported: %s)", name, strings.Join(memmodel.Operational(), ", "))
	}
	return m, nil
}

// checkSpecs checks every spec against prog (the object type exists, the
// methods match) and that no object type has two specs.
func checkSpecs(prog *ir.Program, specs []*commspec.Spec) error {
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

// keepGraph returns a copy of g that shares no event array with it (nil
// for nil): an explorer may hand the execution's storage back for reuse
// (interp.Execution.Release) once the collector has seen it.
func keepGraph(g *seg.Graph) *seg.Graph {
	if g == nil {
		return nil
	}
	c := g.Clone()
	for t, evs := range c.Threads {
		c.Threads[t] = append([]seg.Event(nil), evs...)
	}
	return c
}
