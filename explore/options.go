package explore

import (
	"errors"
	"time"

	"ncmc/commspec"
	"ncmc/explore/vmcr"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/mcr"
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
	// VMCRQueries, if set, receives every witness search of the vmcr
	// explorer that its native search decided, with its answer and, if
	// sat, its schedule (vmcr.Options.Queries: oracle tests).
	VMCRQueries func(q *vmcr.Query, sat bool, sched []int32)
	// VMCRMaxSearch bounds the states of one vmcr witness search (0:
	// vmcr's default); a search over it goes to Z3 (tests force Z3
	// fallbacks with a small bound).
	VMCRMaxSearch int
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
	// NoCheckpoints makes the trust explorer run every graph from the
	// start instead of resuming from saved interpreter states (tests use it
	// to check that checkpoints change nothing; docs/design.md).
	NoCheckpoints bool
	// Races makes a data race a violation (kind "data-race"; interp/scraces.go).
	// Under sc it needs the reference explorer, which is then used
	// whatever Explorer says; ra and rc11 report races anyway.
	Races bool
	// Leaks makes heap blocks left allocated at the end of a complete
	// execution violations (interp.Config.Leaks: SV-COMP's valid-memtrack
	// and valid-memcleanup). Under sc, tso and pso only; it needs the
	// stateful reference explorer, which is then used whatever Explorer
	// says.
	Leaks interp.LeakMode
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
	// NoFinalStates leaves the final values of the globals out of an
	// execution's class: the vmcr explorer then explores one execution per
	// read-value vector and choices (no virtual observer of the final
	// state), so the final states of the complete executions it explores
	// are a sample, not every reachable one, nor are the states at its
	// violations (Result.OutcomesPartial). The verdict is unaffected:
	// every assertion failure, runtime error and deadlock is found as
	// before, and with KeepGoing every distinct violation. Explorers
	// whose outcomes cover every final state anyway (mcr, reference,
	// stateful, dpor, ncmc, trust, graph, coverability) ignore it. The
	// CLI sets it for C programs unless --outcomes is given.
	NoFinalStates bool
	// Progress, if set, is called about every ProgressEvery with running statistics.
	Progress      func(Stats)
	ProgressEvery time.Duration
}

// DefaultUnroll is the loop bound used when Options.Unroll is 0.
const DefaultUnroll = 8

// DefaultMaxSteps is the per-execution step bound used when Options.MaxSteps is 0.
const DefaultMaxSteps = 100000

// Normalize fills in the defaults of the zero fields (Model "sc",
// Explorer "auto", Unroll, MaxSteps, ProgressEvery) and rejects negative
// bounds.
func (o *Options) Normalize() error {
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
	SMTQueries int   `json:"smt_queries,omitempty"`  // mcr, vmcr: feasibility queries (vmcr: witness searches) (native or Z3)
	Native     int   `json:"native,omitempty"`       // mcr, vmcr: queries decided by the native decider
	Z3Calls    int   `json:"z3_calls,omitempty"`     // mcr, vmcr: queries decided by Z3 (fallbacks, or all with Decider "z3")
	Fallbacks  int   `json:"z3_fallbacks,omitempty"` // mcr, vmcr: native unknown answers (vmcr: searches over their budget) passed to Z3
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
	// the vmcr explorer explores one execution of. It is 0 (not counted)
	// when the explorer did not explore every final state
	// (Result.OutcomesPartial).
	Values int `json:"values,omitempty"`
	// ReadChoices counts distinct (read-value vector, per-thread
	// nondeterministic choices) pairs of complete executions: the classes
	// the vmcr explorer explores one execution of with
	// Options.NoFinalStates (ReadValues when the program makes no
	// choices).
	ReadChoices int `json:"read_choices"`
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
	// OutcomesPartial is set when the explorer did not explore every
	// final state (Options.NoFinalStates, vmcr): Outcomes then lists the
	// violations only, with the states at them a sample, but every
	// distinct violation message is there (with KeepGoing) and the
	// verdict is the same as without it. Classes.Values is then 0 (not
	// counted).
	OutcomesPartial bool     `json:"outcomes_partial,omitempty"`
	Classes         *Classes `json:"classes,omitempty"`
	// LoopBounds lists the positions (file:line:col) of the loop heads
	// whose unroll bound some execution hit, when the verdict is Unknown
	// for a bound; OtherBounds is set when some execution hit another
	// bound (steps, threads, allocation size, time) or one the explorer
	// counted itself. ncmc's plan uses them to decide whether the loops
	// cut at the bound can matter (package beyond).
	LoopBounds  []string `json:"-"`
	OtherBounds bool     `json:"-"`
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
