package explore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// Task is one exploration of a program: what every explorer needs and
// would otherwise set up by itself. Verify builds one per stage of its plan
// (plan.go); the explorer runs executions and reports them to the task
// (Add, Progress), asks it whether a budget ends the search (Budget), and
// hands it a counterexample; the task builds the Result.
type Task struct {
	Prog  *ir.Program
	Model *memmodel.Model
	// Opts are the normalized options of the stage.
	Opts  Options
	Names *interp.Names

	col      *Collector
	ran      string // the algorithm that ran, if not the explorer's name
	stopped  string
	stopKind string
	cex      *counterexample
	workers  int
	deadline time.Time // of Run's context: ends a long execution (Config.Deadline)
	note     string
	amend    []func(*Result)
	partial  bool // final states skipped (PartialOutcomes)
}

type counterexample struct {
	steps []interp.TraceStep
	graph *seg.Graph
	pos   ir.Pos
}

// NewTask prepares the exploration of prog under opts (defaults filled in
// as by Verify). Options.Timeout is not applied here: the caller's ctx
// carries the deadline (Verify derives it).
func NewTask(prog *ir.Program, opts Options) (*Task, error) {
	if err := opts.Normalize(); err != nil {
		return nil, err
	}
	if prog == nil || prog.Main == nil {
		return nil, errors.New("program has no main function")
	}
	model, err := memmodel.Lookup(opts.Model)
	if err != nil {
		return nil, err
	}
	names := interp.NewNames(prog)
	return &Task{Prog: prog, Model: model, Opts: opts, Names: names, col: NewCollector(prog, names, opts)}, nil
}

// Config is the interpreter configuration every explorer starts from: the
// bounds, the memory model and the rendering of outcomes (Semantic), so
// that no explorer maps Options to Config by itself and forgets a field.
// Explorers add what is theirs (race detection, unbounded loops, …).
func (t *Task) Config() interp.Config {
	return interp.Config{Unroll: t.Opts.Unroll, MaxSteps: t.Opts.MaxSteps, MaxThreads: t.Opts.MaxThreads, Model: t.Model, Semantic: t.Opts.Semantic, Deadline: t.deadline, Leaks: t.Opts.Leaks}
}

// Budget reports whether a budget ends the search before the next
// execution: ctx is done (the time bound, or cancellation) or
// Options.MaxExecutions executions ran. It records the reason (Stop).
func (t *Task) Budget(ctx context.Context) bool {
	if err := ctx.Err(); err != nil {
		t.StopTime(err)
		return true
	}
	if t.Opts.MaxExecutions > 0 && t.col.Stats.Executions >= t.Opts.MaxExecutions {
		t.Stop(fmt.Sprintf("execution bound %d hit", t.Opts.MaxExecutions), "executions")
		return true
	}
	return false
}

// Stop records that a budget ended the search early (Result.Stopped and,
// without a violation, the reason of an unknown verdict with kind kind).
// The first reason recorded stays.
func (t *Task) Stop(reason, kind string) {
	if t.stopped == "" {
		t.stopped, t.stopKind = reason, kind
	}
}

// StopTime records the end of the search by ctx's error err.
func (t *Task) StopTime(err error) { t.Stop(BudgetReason(err, t.Opts), "time") }

// Stopped reports whether Stop was called.
func (t *Task) Stopped() bool { return t.stopped != "" }

// Add records a finished execution; it reports whether it was a violation.
func (t *Task) Add(x *interp.Execution) bool { return t.col.Add(x) }

// Summarize returns x's summary (Collector.Summarize): an explorer that
// runs executions on several goroutines summarises them there and hands
// the summaries to AddSummary in its sequential order.
func (t *Task) Summarize(x *interp.Execution) *Summary { return t.col.Summarize(x) }

// AddSummary records a finished execution by its summary; g is its graph
// (nil: not kept). It reports whether it was a violation.
func (t *Task) AddSummary(s *Summary, g *seg.Graph) bool { return t.col.AddSummary(s, g) }

// HasFirstGraph reports whether the task has kept the graph of a complete
// execution (Result.Graph) already.
func (t *Task) HasFirstGraph() bool { return t.col.HasFirstGraph() }

// AddFolded records n further executions that Summary.Fold folded into
// s (their steps are counted in s already): what adding each would record.
func (t *Task) AddFolded(s *Summary, n int) {
	if n <= 0 {
		return
	}
	z := s.Again()
	for range n {
		t.col.AddSummary(z, nil)
	}
}

// BoundHit records that an execution not passed to Add hit a bound
// (Collector.BoundHit).
func (t *Task) BoundHit(reason string) { t.col.BoundHit(reason) }

// Reprogram makes the task explore p instead of t.Prog: a program with the
// same executions that an explorer models better (vmcr explores atomic
// sections as a hidden mutex, ir/seclock). p must keep t.Prog's globals
// as its first globals and its positions, so that outcomes and
// counterexamples read the same. Call it before anything is reported.
func (t *Task) Reprogram(p *ir.Program) {
	t.Prog = p
	t.Names = interp.NewNames(p)
	t.col = NewCollector(p, t.Names, t.Opts)
}

// Progress reports running statistics (Options.Progress, at most every
// Options.ProgressEvery); queue is the pending work.
func (t *Task) Progress(queue int) { t.col.Progress(queue) }

// Stats are the task's counters; explorers add their own (Pruned, Seeds,
// SMTQueries, …).
func (t *Task) Stats() *Stats { return &t.col.Stats }

// Counterexample records the violating execution x (recorded with
// tracing on) as the counterexample: its story, graph and violation site.
func (t *Task) Counterexample(x *interp.Execution, story []interp.TraceStep) {
	_, _, pos := x.Violation()
	t.cex = &counterexample{steps: story, graph: x.G, pos: pos}
}

// Ran names the algorithm that ran when it is not the explorer's name
// (the reference explorer with a state cache is "stateful").
func (t *Task) Ran(name string) { t.ran = name }

// Note adds a note to the result.
func (t *Task) Note(format string, args ...any) {
	t.note = JoinNotes(t.note, fmt.Sprintf(format, args...))
}

// Workers records how many parallel workers explored.
func (t *Task) Workers(n int) { t.workers = n }

// PartialOutcomes records that the explorer did not explore every final
// state (Options.NoFinalStates): the result says so
// (Result.OutcomesPartial), does not count the classes with final
// states (Classes.Values) and lists no outcome of a complete execution
// without a violation (Collector.DropCompleteStates). Call it before the
// first execution is added.
func (t *Task) PartialOutcomes() {
	t.partial = true
	t.col.DropCompleteStates()
}

// Amend registers f to change the Result once it is built (an explorer
// whose verdicts differ from the collector's, like coverability's).
func (t *Task) Amend(f func(*Result)) { t.amend = append(t.amend, f) }

// result builds the Result of the task explored by explorer e.
func (t *Task) result(name string) *Result {
	if t.ran != "" {
		name = t.ran
	}
	res := t.col.Result(name, t.stopped, t.stopKind)
	res.Note = JoinNotes(res.Note, t.note)
	res.Workers = t.workers
	if t.cex != nil {
		res.Counterexample, res.Graph, res.ViolationPos = t.cex.steps, t.cex.graph, t.cex.pos
	}
	if t.partial {
		res.OutcomesPartial = true
		if res.Classes != nil {
			res.Classes.Values = 0
		}
	}
	for _, f := range t.amend {
		f(res)
	}
	return res
}

// ReplayCounterexample replays the choice path of a violating execution
// with tracing on and records it as the counterexample.
func (t *Task) ReplayCounterexample(cfg interp.Config, path []ChoicePoint) {
	rc := &ReplayChooser{Path: path}
	x := interp.NewExecution(t.Prog, t.Names, cfg, rc, true)
	x.Run(rc.Schedule)
	t.Counterexample(x, x.Trace)
}

// BudgetReason says why ctx's error err ended a search under opts: the
// time bound, or cancellation.
func BudgetReason(err error, opts Options) string {
	if err == context.DeadlineExceeded && opts.Timeout > 0 {
		return fmt.Sprintf("time bound %s hit", opts.Timeout)
	}
	return "exploration cancelled: " + err.Error()
}

// Unsupported says why an explorer does not apply to a task (Explorer.Check).
type Unsupported struct {
	Explorer string
	Reason   string
	// Program is set when the reason is the program (a construct the
	// explorer does not handle), not the options (the memory model, race
	// detection).
	Program bool
}

func (u *Unsupported) Error() string { return u.Reason }

// An Explorer decides which executions of a program to run.
type Explorer interface {
	// Name is the --explorer value and, unless the task says otherwise
	// (Task.Ran), Result.Explorer.
	Name() string
	// Doc is one line for help texts.
	Doc() string
	// Check says why the explorer does not apply to t: nil, or an
	// *Unsupported.
	Check(t *Task) error
	// Explore runs executions of t.Prog and reports them to t. It returns
	// an error only for a failure of the explorer itself.
	Explore(ctx context.Context, t *Task) error
}

// Run checks that e applies to t and explores; the result names the
// algorithm that ran.
func Run(ctx context.Context, e Explorer, t *Task) (*Result, error) {
	if err := e.Check(t); err != nil {
		return nil, err
	}
	if d, ok := ctx.Deadline(); ok {
		t.deadline = d
	}
	if err := e.Explore(ctx, t); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil && !t.Stopped() {
		// The context ended while the explorer ran: part of its search
		// may have been cut short (a helper that returns at the end of
		// the context without recording it), so the result cannot claim
		// that every execution was explored.
		t.StopTime(err)
	}
	return t.result(e.Name()), nil
}
