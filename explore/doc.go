// Package explore is the contract between package ncmc (Verify, its plan
// and the registry of explorers) and the explorers, each in its own
// package below it (explore/reference, explore/mcrx, explore/dpor,
// explore/graph, explore/coverability, explore/vmcrx, explore/trustx):
// Options and Result, the Explorer interface, and the Task an explorer
// reports its executions to. The Task owns what every explorer would
// otherwise repeat: the interpreter configuration derived from Options,
// the budget check, outcome collection (Collector), progress and the
// counterexample.
//
// Package ncmc re-exports these types under their old names (ncmc.Options,
// ncmc.Result, …), so callers of ncmc.Verify need not import this package.
package explore

import "fmt"

// Unsupportedf returns the *Unsupported of explorer e: the reason is
// format and args; program says the reason is the program, not the
// options.
func Unsupportedf(e Explorer, program bool, format string, args ...any) *Unsupported {
	return &Unsupported{Explorer: e.Name(), Reason: fmt.Sprintf(format, args...), Program: program}
}
