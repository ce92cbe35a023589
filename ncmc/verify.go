// Package ncmc is the checker's entry point: Verify runs a plan of
// explorers (plan.go) chosen from one registry (explorers.go) on an
// ir.Program. The explorers live in their own packages below package
// explore (the contract: Options, Result, Task, Explorer); the test modes
// (PCT, random walks, CHESS, CB-DPOR, schedule replay) in package hunt.
// The types of both are re-exported here under their old names, so that a
// caller needs only this package.
package ncmc

import (
	"context"
	"errors"
	"time"

	"ncmc/explore"
	"ncmc/explore/coverability"
	"ncmc/ir"
	"ncmc/memmodel"
)

// The API of package explore, under the names callers of ncmc know.
type (
	// Options configure Verify (explore.Options).
	Options = explore.Options
	// Result is the answer of Verify (explore.Result).
	Result = explore.Result
	// Verdict is the answer of a verification run (explore.Verdict).
	Verdict = explore.Verdict
	// Stats are running counters of an exploration (explore.Stats).
	Stats = explore.Stats
	// Outcome is a distinct final result (explore.Outcome).
	Outcome = explore.Outcome
	// Classes counts distinct execution classes (explore.Classes).
	Classes = explore.Classes
	// Task is one exploration of a program (explore.Task).
	Task = explore.Task
	// Explorer decides which executions of a program to run (explore.Explorer).
	Explorer = explore.Explorer
	// Unsupported says why an explorer does not apply (explore.Unsupported).
	Unsupported = explore.Unsupported
)

// Verdicts.
const (
	Verified  = explore.Verified
	Violation = explore.Violation
	Unknown   = explore.Unknown
)

// Defaults of Options.
const (
	DefaultUnroll   = explore.DefaultUnroll
	DefaultMaxSteps = explore.DefaultMaxSteps
)

// AutoSpawnLoopTime is how long the auto explorer explores, bounded, a
// program whose main spawns threads in a loop (no bounded exploration can
// verify it) before the coverability explorer, or a third of
// Options.Timeout if that is longer.
const AutoSpawnLoopTime = 10 * time.Second

// AutoCoverabilityTime is how long the auto explorer tries the
// coverability explorer, when a bounded exploration of a program whose
// main spawns threads in a loop hit a bound and Options.Timeout is 0.
const AutoCoverabilityTime = 60 * time.Second

// AutoUnboundedTime is how long the auto explorer tries the stateful
// explorer without the default loop bound, when the exploration under sc,
// tso or pso stopped at that bound and Options.Timeout is 0.
const AutoUnboundedTime = 30 * time.Second

// AutoCondTime is the share of the stateful explorer, before vmcr, for a
// program with condition variables under sc, tso and pso (or a third of
// the timeout if that is longer).
const AutoCondTime = 10 * time.Second

// NewTask prepares the exploration of prog under opts (explore.NewTask).
func NewTask(prog *ir.Program, opts Options) (*Task, error) { return explore.NewTask(prog, opts) }

// Run checks that e applies to t and explores (explore.Run).
func Run(ctx context.Context, e Explorer, t *Task) (*Result, error) { return explore.Run(ctx, e, t) }

// Verify explores the executions of prog under opts and returns a verdict.
// It returns an error only for bad options; bounds, timeouts and
// cancellation of ctx give an Unknown verdict. Which explorers run is
// decided by plan (plan.go).
func Verify(ctx context.Context, prog *ir.Program, opts Options) (*Result, error) {
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
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	stages, err := plan(prog, &opts, model)
	if err != nil {
		return nil, err
	}
	return runPlan(ctx, prog, opts, model, stages)
}

// joinNotes joins the non-empty notes of a result with "; ".
func joinNotes(notes ...string) string { return explore.JoinNotes(notes...) }

// RaceFree is the Kind of a coverability result that proved the program
// free of data races but not verified (coverability.RaceFree).
const RaceFree = coverability.RaceFree

// CoverabilityApplies reports whether the coverability explorer applies to
// prog and is worth running, or says why not (coverability.Applies).
func CoverabilityApplies(prog *ir.Program) (bool, string) { return coverability.Applies(prog) }

// SpawnsInLoop reports whether main spawns on a cycle of its control flow
// (coverability.SpawnsInLoop).
func SpawnsInLoop(prog *ir.Program) bool { return coverability.SpawnsInLoop(prog) }
