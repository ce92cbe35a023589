// Package interp is ncmc's interpreter: it runs an ir.Program one
// execution at a time, one visible step after another, while building the
// execution's graph (package seg).
//
// An explorer drives an Execution: Enabled lists the actions that can be
// taken, Step takes one, and a Chooser resolves the other nondeterminism
// (nondet values, which waiter a signal wakes, and under graph exploration
// which write a read reads from and where a write goes in coherence). A
// GraphDriver can take over graph exploration's choices altogether (the
// trust explorer). Clone, StateHash and the accessors let explorers copy
// and compare states; FinalState renders an outcome.
//
// The package knows nothing about explorers, verdicts or options: Config
// holds the per-execution bounds and the memory model, and an error of the
// interpreter itself is reported by Execution.Internal, never as a
// violation of the program.
package interp
