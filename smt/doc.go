// Package smt is ncmc's interface to the Z3 SMT solver, specialised to the
// constraints of maximal causality reduction (MCR): Boolean combinations of
// ordering atoms O_a < O_b over integer "order variables", one per event
// (the logic QF_IDL). It is the only package of ncmc that imports Z3.
//
// # Formulas
//
// Formulas are immutable, hash-consed DAG nodes created by a [Builder]
// (a [Solver] embeds one, so s.Lt(a, b) works too). Identical sub-formulas
// built by the same Builder are the same node, which makes sharing cheap
// and lets the solver translate each distinct sub-formula to Z3 only once.
// Constructors simplify trivially: constants are folded, nested And/Or are
// flattened, arguments are sorted and deduplicated, Lt(a, a) is False, and an
// And (Or) containing both Lt(a, b) and Lt(b, a) is False (True).
//
// # Semantics: total orders
//
// Order variables stand for the positions of distinct events in a schedule,
// so formulas are interpreted over total orders of the variables: for a != b,
// exactly one of Lt(a, b) and Lt(b, a) holds. Consequently Not(Lt(a, b)) is
// built as Lt(b, a), and every formula is kept in negation normal form with
// only strict atoms. Such formulas are monotone in the atoms, which has two
// useful consequences:
//
//   - a formula is satisfiable over the integers (what Z3 decides) iff it is
//     satisfiable by a permutation of its variables (what a schedule needs);
//   - any integer model can be turned into a schedule by sorting the
//     variables by value and breaking ties arbitrarily (Solver.Order breaks
//     them by Var id); the resulting total order still satisfies the formula.
//
// [Eval] evaluates a formula under an integer valuation; [BruteForce] is a
// small pure-Go reference decider over permutations, meant for tests.
//
// # Solving
//
// A [Solver] owns one Z3 context and one Z3 solver and is not safe for
// concurrent use; create one per worker goroutine. Two Solvers never share
// state. Assertions live on a Push/Pop stack. Check answers Sat, Unsat or
// Unknown; it honours a per-query timeout (Options.Timeout, or
// CheckTimeout's argument) and the context's deadline, and cancelling the
// context interrupts Z3 (Check then returns ctx.Err()).
//
// When every active assertion is a conjunction of atoms, Check does not call
// Z3 at all: it decides the constraints with a topological sort (see
// [ConjunctiveOrder]) and the model is the position of each variable in the
// lexicographically smallest topological order.
//
// Z3 is synchronised lazily: the Z3 context is created, and assertions and
// pushes are sent to it, only when a Check actually needs Z3. The Z3 solver
// is pushed once right after creation, which switches Z3's combined solver
// to its incremental core (much faster for push/pop re-checks). Each
// distinct formula node is translated to a Z3 term once per Solver (the
// translation is memoised, so shared sub-formulas stay shared; Z3's own
// internaliser then gives every shared Boolean sub-term a single literal,
// i.e. Tseitin-style naming happens inside Z3). Z3 models are fetched
// lazily, on the first Value/Model/Order call after a satisfiable Check,
// because fetching one can cost more than the check.
//
// Robustness: every Z3 check runs under a timeout (Options.Timeout,
// default DefaultTimeout), optionally a deterministic resource limit
// (Options.ResourceLimit), and the context's deadline. Z3 4.8 reports all
// of these as "canceled"; Check classifies them (ErrTimeout,
// ErrResourceLimit, ctx.Err()). An interrupt that reaches Z3 while it is
// idle would make the next Z3 push fail; Check clears such stale
// interrupts. A Z3 context in which a check was interrupted or timed out
// is not trusted any more (Z3 4.8.12 was seen answering a later UNSAT
// check Sat after a storm of interrupts): it is discarded before its next
// use and rebuilt from the assertion stack (Stats.Z3Discards). If Z3
// raises an error during a Check, Check returns a *Z3Error and the Solver
// rebuilds its Z3 state in the same way on the next Check.
//
// # Build requirements
//
// The package uses cgo via github.com/aclements/go-z3 and links against the
// system Z3 library (-lz3). On Debian/Ubuntu install it with
//
//	apt-get install -y libz3-dev
//
// (tested with Debian 12's Z3 4.8.12). A C compiler is needed too
// (CGO_ENABLED=1, the default when gcc is installed). For a Z3 installed
// under a non-standard prefix, set CGO_CFLAGS=-I$PREFIX/include and
// CGO_LDFLAGS=-L$PREFIX/lib.
package smt
