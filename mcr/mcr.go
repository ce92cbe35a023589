// Package mcr implements maximal causality reduction (MCR) under sequential
// consistency (SC) and the store-buffer models TSO and PSO: from one
// observed execution it builds ordering constraints (must-happen-before,
// lock mutual exclusion, atomic sections, value-based read validity; under
// TSO and PSO every buffered store also has a commit item, the moment it
// reaches memory, ordered FIFO per thread (TSO) or per thread and location
// (PSO), before fences, RMWs, locks and joins, with reads forwarding from
// their own buffer), asks for reorderings in which one read returns a value
// it has not returned yet, and turns each model into a seed: a schedule
// prefix (with explicit flush steps under TSO and PSO) that the interpreter
// replays before continuing with its default scheduler.
//
// Files: trace.go is the contract with the explorer (Step, Trace, Seed,
// Expect, Commit, Choice, Waiter); encode.go turns a trace into ordering
// constraints; pivots.go asks the queries (Generator); seed.go turns a
// model into a seed.
//
// Pivots, each giving at most one seed:
//   - every read after the frozen prefix, for every other value written to
//     its location (or its initial value): "r reads v";
//   - in a complete execution, the final value of every observed location,
//     for every other value written to it ("the last write to x writes v"),
//     so that final states that no read observes are reached too;
//   - every pair of threads that each hold one lock while requesting the
//     other's ("deadlock"), so lock-order deadlocks are found although no
//     read distinguishes them;
//   - every nondeterministic choice (nondet values) after the frozen prefix,
//     for every other alternative (no solving needed).
//
// The encoding (see research/mcr-and-ncmc.md §1.3) is the maximal causal
// model with value-based validity: a read keeps its value if it reads from
// some write of the same value (or the initial value) with no write of a
// different value in between. Rather than the thesis's recursive Φ_rw, every
// read placed before the pivot must be valid ("O_r < O_e ∨ valid(e)"); this
// covers the feasibility of interfering writes placed before the chosen
// write, since their own reads are then constrained too. The prefix of a seed
// is the smallest set of events the model needs (the pivot, its program-order
// predecessors, the writes each included read reads from, the unlocks that
// included lock acquisitions must follow, spawns and joined threads), plus
// the frozen steps, ordered as in the model.
package mcr
