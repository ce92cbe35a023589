// Package feasibility holds the answer type shared by ncmc's feasibility
// deciders: the native witness search and its oracle (explore/vmcr,
// explore/vmcrz3) and MCR's deciders (mcr). It imports nothing, so that
// packages that must stay free of Z3 can use it.
package feasibility

// Verdict is a decider's answer to a feasibility query.
type Verdict uint8

// Verdicts. Unknown means the decider could not decide within its bounds
// (a timeout, a resource limit): not an error, another decider may be
// asked.
const (
	Unknown Verdict = iota // no answer
	Sat                    // a schedule exists
	Unsat                  // no schedule exists
)

// String returns "sat", "unsat" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}
