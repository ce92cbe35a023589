// Package hunt is bug-hunting ("test") mode, ncmc test. When a program is
// too big to explore completely, Run runs a search that finds bugs fast and says what it
// guarantees:
//
//   - pct: probabilistic concurrency testing (Burckhardt et al., ASPLOS'10).
//     Each run gives the schedulable entities random priorities and lowers the
//     running one at d-1 random steps; a run hits any bug of depth d with
//     probability at least 1/(n·k^(d-1)) for n entities and k steps.
//   - random: a random walk; every step picks an enabled action uniformly.
//   - cbdpor: preemption-bounded DPOR with preemption-only sleep sets (van den
//     Hooff 2014), by iterative deepening over the bound 0, 1, ..., b; each
//     completed bound covers every class CHESS covers at that bound.
//   - chess: the preemption-bounded exhaustive baseline (every interleaving
//     with at most b preemptions), by iterative deepening.
//
// A found bug comes with a Schedule that Replay reproduces step by step.
//
// Every search is a Strategy (one interface: name, doc, the options it
// accepts, the search), listed once by Strategies; the CLI's --strategy
// values and help come from there.
package hunt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/seg"
)

// Strategies accepted by Options.Strategy.
const (
	StrategyPCT    = "pct"
	StrategyRandom = "random"
	StrategyCBDPOR = "cbdpor"
	StrategyCHESS  = "chess"
)

// DefaultTestRuns is the number of runs of pct and random when Options.Runs is 0.
const DefaultTestRuns = 1000

// DefaultMaxThreadSteps is the per-thread instruction budget of test mode
// when Options.MaxThreadSteps is 0.
const DefaultMaxThreadSteps = 10000

// Options configure Run. The zero value is usable: pct, depth 2, 1000
// runs, seed 0, SC.
type Options struct {
	Strategy string // pct (default), random, cbdpor, chess
	Model    string // memory model: sc (default), tso, pso (cbdpor and chess: sc only)
	// Runs is the number of runs of pct and random (0: DefaultTestRuns); for
	// cbdpor and chess it caps the executions over all bounds (0: no cap).
	Runs int
	Seed uint64 // the same seed gives the same runs
	// Depth is the bug depth d PCT targets (0: 2): it uses d-1 priority change points.
	Depth int
	// Steps is PCT's k, a bound on the steps of a run; 0 estimates it from a
	// first run (and grows it when a later run is longer).
	Steps int
	// Preemptions is the largest preemption bound of cbdpor and chess, which
	// run bounds 0..Preemptions in turn (iterative deepening).
	Preemptions int
	Unroll      int // default loop bound (0: explore.DefaultUnroll)
	MaxSteps    int // visible steps per run (0: explore.DefaultMaxSteps)
	MaxThreads  int // threads per run, main included (0: interp.DefaultMaxThreads)
	// MaxThreadSteps is the per-thread instruction budget that turns a
	// spinning thread into a "bound hit" (0: DefaultMaxThreadSteps).
	MaxThreadSteps int
	Timeout        time.Duration // wall-clock limit (0: none)
	// KeepGoing continues after the first bug (to measure hit rates); the
	// first bug is still the one reported.
	KeepGoing bool
	// Progress, if set, is called about every ProgressEvery with running statistics.
	Progress      func(explore.Stats)
	ProgressEvery time.Duration
}

func (o *Options) normalize() error {
	if o.Strategy == "" {
		o.Strategy = StrategyPCT
	}
	if o.Model == "" {
		o.Model = "sc"
	}
	if o.Depth == 0 {
		o.Depth = 2
	}
	if o.Unroll == 0 {
		o.Unroll = explore.DefaultUnroll
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = explore.DefaultMaxSteps
	}
	if o.MaxThreadSteps == 0 {
		o.MaxThreadSteps = DefaultMaxThreadSteps
	}
	if o.ProgressEvery == 0 {
		o.ProgressEvery = 250 * time.Millisecond
	}
	s, err := LookupStrategy(o.Strategy)
	if err != nil {
		return err
	}
	if err := s.check(o); err != nil {
		return err
	}
	if o.Runs < 0 || o.Depth < 1 || o.Steps < 0 || o.Preemptions < 0 || o.Unroll < 0 || o.MaxSteps < 0 || o.MaxThreads < 0 || o.MaxThreadSteps < 0 || o.Timeout < 0 {
		return errors.New("bad test options: runs, steps, preemptions and bounds must not be negative; depth must be at least 1")
	}
	if _, err := explore.OperationalModel(o.Model); err != nil {
		return err
	}
	return nil
}

func (o *Options) config() interp.Config {
	model, _ := explore.OperationalModel(o.Model)
	return interp.Config{Unroll: o.Unroll, MaxSteps: o.MaxSteps, MaxThreads: o.MaxThreads, Model: model, MaxThreadSteps: o.MaxThreadSteps}
}

// PCTInfo describes the guarantee of a PCT search.
type PCTInfo struct {
	Threads int `json:"n"` // schedulable entities seen (threads; under TSO/PSO also store buffers)
	Steps   int `json:"k"` // k: the most steps any run took (the bound used for change points)
	Depth   int `json:"d"`
	// PerRun is the per-run probability bound 1/(n·k^(d-1)) of hitting a given depth-d bug.
	PerRun float64 `json:"per_run_bound"`
	// PCTRuns counts the runs that used d-1 change points (all but the
	// calibration run when k was estimated).
	PCTRuns int `json:"pct_runs"`
	// MissProb bounds the probability that PCTRuns runs all missed a given
	// depth-d bug: (1 - PerRun)^PCTRuns.
	MissProb float64 `json:"miss_probability"`
	// Estimated says k was estimated from a first run; Grown counts the runs
	// that were longer than the k in use (k grew to match them).
	Estimated bool `json:"k_estimated"`
	Grown     int  `json:"k_grown"`
}

// BoundInfo describes one completed (or interrupted) preemption bound of cbdpor or chess.
type BoundInfo struct {
	Bound      int   `json:"bound"`
	Executions int   `json:"executions"`    // executions run at this bound
	Redundant  int   `json:"sleep_blocked"` // cbdpor: branches cut because every candidate slept
	Complete   bool  `json:"complete"`      // the bound was explored to the end
	Cut        bool  `json:"bound_limited"` // the bound stopped some branch (false: exhaustive)
	Classes    int   `json:"classes"`       // distinct classes (rf + mo) seen at this bound
	BugFound   bool  `json:"bug,omitempty"` // the bug was found at this bound
	Elapsed    int64 `json:"time_us"`
}

// Result is the answer of Run.
type Result struct {
	Strategy string `json:"strategy"`
	Model    string `json:"model"`
	Seed     uint64 `json:"seed"`
	// BugFound reports a violation (assertion, runtime error, deadlock).
	BugFound bool `json:"bug_found"`
	// Reason is the violation, or what the search established / why it stopped.
	Reason string `json:"reason"`
	Kind   string `json:"kind,omitempty"`
	// explore.Verdict is explore.Violation, explore.Verified (cbdpor/chess exploration that no bound
	// limited, without bound hits), or explore.Unknown.
	Verdict explore.Verdict `json:"verdict"`
	// Guarantee states what the search guarantees, in one sentence.
	Guarantee string        `json:"guarantee"`
	Stats     explore.Stats `json:"stats"`
	// FirstBugRun is the 1-based run (execution) that found the first bug; 0 if none.
	FirstBugRun    int           `json:"first_bug_run,omitempty"`
	TimeToFirstBug time.Duration `json:"-"`
	// Hits counts violating runs (more than one only with KeepGoing).
	Hits           int                `json:"hits"`
	Counterexample []interp.TraceStep `json:"counterexample,omitempty"`
	ViolationPos   ir.Pos             `json:"-"`
	// Schedule reproduces the first bug with Replay.
	Schedule *Schedule         `json:"-"`
	Graph    *seg.Graph        `json:"-"`
	PCT      *PCTInfo          `json:"pct,omitempty"`
	Bounds   []BoundInfo       `json:"bounds,omitempty"`
	Outcomes []explore.Outcome `json:"outcomes"`
	Elapsed  time.Duration     `json:"-"`
}

// Run searches prog for bugs with the strategy of opts. It returns an error
// only for bad options; budgets and cancellation end the search early.
func Run(ctx context.Context, prog *ir.Program, opts Options) (*Result, error) {
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	if prog == nil || prog.Main == nil {
		return nil, errors.New("program has no main function")
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	h := newHunt(prog, opts)
	s, _ := LookupStrategy(opts.Strategy) // checked by normalize
	s.hunt(ctx, h)
	return h.result(), nil
}

// Strategy is a search of Run (bug-hunting mode). Strategies are listed
// once, by Strategies; the CLI's --strategy values and help come from
// there.
type Strategy interface {
	// Name is the Options.Strategy value.
	Name() string
	// Doc is one line for help texts.
	Doc() string
	// check says why the strategy does not apply to o (nil if it does)
	// and fills in its defaults.
	check(o *Options) error
	// hunt runs the search, reporting executions to h.
	hunt(ctx context.Context, h *hunt)
}

// Strategies returns the strategies of Run, in the order help texts list
// them.
func Strategies() []Strategy {
	return []Strategy{
		randomized{name: StrategyPCT, doc: "random priorities with d-1 change points; per-run guarantee 1/(n·k^(d-1))", pct: true},
		randomized{name: StrategyRandom, doc: "random walk"},
		bounded{name: StrategyCBDPOR, title: "CB-DPOR", doc: "preemption-bounded DPOR, bounds 0..--preemptions in turn", explore: exploreCBDPOR},
		bounded{name: StrategyCHESS, title: "CHESS", doc: "every interleaving within the preemption bound; the baseline", explore: exploreCHESS},
	}
}

// StrategyNames lists the names of Strategies, in order.
func StrategyNames() []string {
	var out []string
	for _, s := range Strategies() {
		out = append(out, s.Name())
	}
	return out
}

// StrategyHelp describes every strategy, "name (doc)", joined by ", ".
func StrategyHelp() string {
	var parts []string
	for _, s := range Strategies() {
		parts = append(parts, s.Name()+" ("+s.Doc()+")")
	}
	return strings.Join(parts, ", ")
}

// LookupStrategy returns the strategy called name; the error lists the
// strategies there are.
func LookupStrategy(name string) (Strategy, error) {
	for _, s := range Strategies() {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown strategy %q (available: %s)", name, strings.Join(StrategyNames(), ", "))
}

// randomized are the strategies of independent random runs: pct and the
// random walk.
type randomized struct {
	name, doc string
	pct       bool
}

func (s randomized) Name() string { return s.name }
func (s randomized) Doc() string  { return s.doc }
func (s randomized) check(o *Options) error {
	if o.Runs == 0 {
		o.Runs = DefaultTestRuns
	}
	return nil
}
func (s randomized) hunt(ctx context.Context, h *hunt) { h.runRandomized(ctx, s.pct) }

// bounded are the preemption-bounded searches by iterative deepening:
// cbdpor and chess.
type bounded struct {
	name, title, doc string
	explore          func(ctx context.Context, prog *ir.Program, names *interp.Names, cfg interp.Config, bound int, rec *recorder, maxExec int, visit func(*interp.Execution) bool) boundStats
}

func (s bounded) Name() string { return s.name }
func (s bounded) Doc() string  { return s.doc }
func (s bounded) check(o *Options) error {
	if o.Model != "sc" {
		return fmt.Errorf("strategy %s supports only the sc memory model (got %q)", o.Strategy, o.Model)
	}
	return nil
}
func (s bounded) hunt(ctx context.Context, h *hunt) { h.runBounded(ctx, s.explore, s.title) }

// hunt is the shared state of one Run call.
type hunt struct {
	prog  *ir.Program
	names *interp.Names
	opts  Options
	cfg   interp.Config
	col   *explore.Collector
	start time.Time

	rec      recorder
	stopped  string // why the search ended early, "" if it ran to its end
	stopKind string

	firstRun  int
	firstTime time.Duration
	hits      int
	cex       *Schedule
	cexTrace  []interp.TraceStep
	cexPos    ir.Pos
	cexGraph  *seg.Graph

	pct      *PCTInfo
	bounds   []BoundInfo
	verified bool   // a bounded search was exhaustive
	guar     string // the guarantee sentence
}

func newHunt(prog *ir.Program, opts Options) *hunt {
	names := interp.NewNames(prog)
	vopts := explore.Options{Model: opts.Model, Progress: opts.Progress, ProgressEvery: opts.ProgressEvery}
	return &hunt{prog: prog, names: names, opts: opts, cfg: opts.config(),
		col: explore.NewCollector(prog, names, vopts), start: time.Now()}
}

// finish records a finished execution x whose steps are in h.rec; it reports
// whether the search should stop (a bug without KeepGoing).
func (h *hunt) finish(x *interp.Execution, origin string) bool {
	if !h.col.Add(x) {
		return false
	}
	h.hits++
	if h.cex == nil {
		h.firstRun = h.col.Stats.Executions
		h.firstTime = time.Since(h.start)
		h.cex = h.rec.schedule(h, x, origin)
		_, _, h.cexPos = x.Violation()
	}
	return !h.opts.KeepGoing
}

// budget reports whether a budget ends the search now.
func (h *hunt) budget(ctx context.Context) bool {
	if err := ctx.Err(); err != nil {
		h.stopped, h.stopKind = explore.BudgetReason(err, explore.Options{Timeout: h.opts.Timeout}), "time"
		return true
	}
	return false
}

func (h *hunt) result() *Result {
	r := &Result{Strategy: h.opts.Strategy, Model: h.opts.Model, Seed: h.opts.Seed,
		Stats: h.col.Stats, Hits: h.hits, PCT: h.pct, Bounds: h.bounds}
	r.Elapsed = time.Since(h.start)
	r.Stats.Elapsed = r.Elapsed
	vr := h.col.Result(h.opts.Strategy, h.stopped, h.stopKind)
	r.Outcomes = vr.Outcomes
	r.Graph = vr.Graph
	r.Reason, r.Kind = vr.Reason, vr.Kind
	switch {
	case h.cex != nil:
		r.BugFound = true
		r.Verdict = explore.Violation
		r.FirstBugRun = h.firstRun
		r.TimeToFirstBug = h.firstTime
		r.Schedule = h.cex
		r.ViolationPos = h.cexPos
		// Replaying the schedule gives the story of the bug (and checks that
		// the schedule reproduces it).
		if rr, err := Replay(h.prog, h.cex); err == nil {
			r.Counterexample = rr.Trace
			r.Graph = rr.Graph
		} else {
			r.Reason += " (internal error: the schedule does not replay: " + err.Error() + ")"
		}
	case h.verified && vr.Verdict == explore.Verified:
		r.Verdict = explore.Verified
	default:
		r.Verdict = explore.Unknown
		if vr.Verdict == explore.Verified {
			// A non-exhaustive search that saw no bug and no bound.
			r.Reason = "no bug found"
			r.Kind = ""
			if h.stopped != "" {
				r.Reason = "no bug found; " + h.stopped
				r.Kind = h.stopKind
			}
		} else if vr.Verdict == explore.Unknown && h.stopped == "" {
			r.Reason = "no bug found; " + vr.Reason
		}
	}
	r.Guarantee = h.guar
	return r
}

// recorder keeps the steps and choices of the current execution, so that a
// bug can be turned into a Schedule.
type recorder struct {
	items []recItem
}

type recItem struct {
	choice bool
	a      interp.Action // a step (choice false)
	t      int32         // the choosing thread (choice true)
	kind   interp.ChoiceKind
	k, n   int
}

func (r *recorder) reset()               { r.items = r.items[:0] }
func (r *recorder) step(a interp.Action) { r.items = append(r.items, recItem{a: a}) }
func (r *recorder) choose(t int32, kind interp.ChoiceKind, k, n int) {
	r.items = append(r.items, recItem{choice: true, t: t, kind: kind, k: k, n: n})
}

// schedule turns the recorded items into a Schedule.
func (r *recorder) schedule(h *hunt, x *interp.Execution, origin string) *Schedule {
	s := &Schedule{Program: h.prog.File, Model: h.opts.Model, Unroll: h.cfg.Unroll,
		MaxSteps: h.cfg.MaxSteps, MaxThreadSteps: h.cfg.MaxThreadSteps, Origin: origin,
		Result: outcomeLine(x)}
	for _, it := range r.items {
		if it.choice {
			s.Steps = append(s.Steps, SchedStep{Thread: h.names.ThreadName(it.t), Choice: true, Kind: it.kind, K: it.k, N: it.n})
			continue
		}
		st := SchedStep{Thread: h.names.ThreadName(it.a.T)}
		if it.a.Flush {
			st.Flush, st.Loc = true, h.names.LocName(it.a.Loc)
		}
		s.Steps = append(s.Steps, st)
	}
	return s
}

// recChooser records the choices another chooser makes.
type recChooser struct {
	inner interp.Chooser
	rec   *recorder
}

func (c recChooser) Choose(t int32, kind interp.ChoiceKind, n int) int {
	k := c.inner.Choose(t, kind, n)
	c.rec.choose(t, kind, k, n)
	return k
}

// randChooser resolves choices uniformly at random.
type randChooser struct{ rng *rand.Rand }

func (c *randChooser) Choose(_ int32, _ interp.ChoiceKind, n int) int { return c.rng.IntN(n) }

// runSched is a randomized scheduler: one run at a time.
type runSched interface {
	// begin starts run number run (0-based) with its own random source.
	begin(run int, rng *rand.Rand)
	// pick chooses among the enabled actions of x (len(en) >= 1).
	pick(x *interp.Execution, en []interp.Action) interp.Action
	// end is told how many steps the run took.
	end(steps int)
}

// runRandomized runs pct or random walks.
func (h *hunt) runRandomized(ctx context.Context, pct bool) {
	var s runSched
	var p *pctSched
	if pct {
		p = newPCT(h.opts.Depth, h.opts.Steps, h.cfg.Exec())
		s = p
	} else {
		s = randomWalk{rng: new(*rand.Rand)}
	}
	for run := 0; run < h.opts.Runs; run++ {
		if h.budget(ctx) {
			break
		}
		rng := rand.New(rand.NewPCG(h.opts.Seed, uint64(run)))
		s.begin(run, rng)
		h.rec.reset()
		ch := recChooser{inner: &randChooser{rng: rng}, rec: &h.rec}
		x := interp.NewExecution(h.prog, h.names, h.cfg, ch, false)
		x.Run(func(en []interp.Action) interp.Action {
			a := en[0]
			if len(en) > 1 {
				a = s.pick(x, en)
			} else if p != nil {
				p.pick(x, en) // PCT counts forced steps (and their change points) too
			}
			h.rec.step(a)
			return a
		})
		s.end(x.Steps())
		origin := fmt.Sprintf("%s seed=%d run=%d", h.opts.Strategy, h.opts.Seed, run+1)
		if p != nil {
			origin += fmt.Sprintf(" depth=%d k=%d", p.d, p.kUsed)
		}
		stop := h.finish(x, origin)
		h.col.Progress(h.opts.Runs - run - 1)
		if stop {
			break
		}
	}
	if p != nil {
		h.pct = p.info(h.col.Stats.Executions)
		h.guar = pctGuarantee(h.pct, h.cex != nil)
	} else {
		h.guar = fmt.Sprintf("random walk: %d runs; a random walk gives no depth-based guarantee", h.col.Stats.Executions)
	}
}

func pctGuarantee(pi *PCTInfo, found bool) string {
	bound := fmt.Sprintf("each PCT run hits any given bug of depth %d with probability >= 1/(n·k^(d-1)) = 1/(%d·%d^%d) = %.3g",
		pi.Depth, pi.Threads, pi.Steps, pi.Depth-1, pi.PerRun)
	if found {
		return bound
	}
	return fmt.Sprintf("%s; after %d PCT runs without a bug, P(a depth-%d bug was missed) <= %.3g (assuming no run is longer than k = %d steps)",
		bound, pi.PCTRuns, pi.Depth, pi.MissProb, pi.Steps)
}

// outcomeLine summarises how an execution ended, for Schedule.Result.
func outcomeLine(x *interp.Execution) string {
	if msg, _, pos := x.Violation(); msg != "" {
		if pos.IsValid() {
			return fmt.Sprintf("violation at line %d: %s", pos.Line, msg)
		}
		return "violation: " + msg
	}
	switch {
	case x.BoundHit() != "":
		return "bound hit: " + x.BoundHit()
	case x.Blocked():
		return "blocked: " + interp.FinalState(x)
	case x.Complete():
		return "complete: " + interp.FinalState(x)
	}
	return "unfinished"
}

// missProb returns (1-p)^m without underflow trouble.
func missProb(p float64, m int) float64 {
	if p >= 1 {
		if m > 0 {
			return 0
		}
		return 1
	}
	return math.Exp(float64(m) * math.Log1p(-p))
}

// joinNames renders enabled actions for error messages.
func actionNames(names *interp.Names, en []interp.Action) string {
	var s []string
	for _, a := range en {
		s = append(s, SchedStep{Thread: names.ThreadName(a.T), Flush: a.Flush, Loc: flushLoc(names, a)}.String())
	}
	return strings.Join(s, " ")
}

func flushLoc(names *interp.Names, a interp.Action) string {
	if !a.Flush {
		return ""
	}
	return names.LocName(a.Loc)
}
