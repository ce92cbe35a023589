package mcr

import (
	"context"
	"time"

	"ncmc/feasibility"
	"ncmc/smt"
)

// Verdict is a decider's answer to a feasibility query (package
// feasibility). Unknown means the decider could not decide within its bounds
// (not an error: another decider may be asked).
type Verdict = feasibility.Verdict

// Verdicts.
const (
	Unknown = feasibility.Unknown
	Sat     = feasibility.Sat
	Unsat   = feasibility.Unsat
)

// Query is one feasibility question of MCR: is there a total order of the
// order variables (the trace's steps and commit items, cutoffs) that
// satisfies every formula of Assertions? The formulas are the encoding of
// encode.go (negation normal form over strict order atoms, see package smt),
// which is the specification every decider answers.
type Query struct {
	Builder    *smt.Builder
	Assertions []smt.Formula
	// Hint is the preferred position of each variable (indexed by Var,
	// smaller first): the observed trace's order. Variables beyond its
	// length, or with a negative hint, go as early as the constraints
	// allow (cutoffs: the smallest prefix). Hints only guide the witness.
	Hint []int64
}

// Answer is a decider's answer. For Sat, Model gives every variable of the
// query's Builder a position (indexed by Var) under which every assertion
// holds; distinct variables may share a position only if no assertion
// orders them.
type Answer struct {
	Verdict Verdict
	Model   []int64
	// Prefilter marks an Unsat answer given without a query, by the
	// must-happen-before prefilter (prefilter.go; reported to
	// Options.Compare only).
	Prefilter bool
}

// Decider decides feasibility queries. Implementations are not safe for
// concurrent use; use one per worker. An error means the query was
// interrupted (ctx) or the decider failed; the verdict is then Unknown.
type Decider interface {
	Decide(ctx context.Context, q *Query) (Answer, error)
}

// Z3Decider decides queries with Z3 (package smt): the reference
// implementation of the query's semantics. Incremental (the default), it
// keeps one solver and re-sends only the assertions that differ from the
// previous query's; Fresh, it answers every query in a new Z3 context, so
// that its answers (and models) do not depend on earlier queries.
type Z3Decider struct {
	Timeout time.Duration // per query (0: smt.DefaultTimeout)
	Fresh   bool
	s       *smt.Solver
	b       *smt.Builder
	cur     []smt.Formula
	// Checks counts the queries sent to Z3.
	Checks int
}

// Close releases the solver.
func (d *Z3Decider) Close() {
	if d.s != nil {
		d.s.Close()
		d.s = nil
	}
}

// Decide implements Decider.
func (d *Z3Decider) Decide(ctx context.Context, q *Query) (Answer, error) {
	d.Checks++
	if d.Fresh {
		s := smt.New(smt.Options{Timeout: d.Timeout, Builder: q.Builder})
		for _, f := range q.Assertions {
			s.Assert(f)
		}
		ans, err, abandoned := z3Bounded(ctx, s, q)
		if !abandoned {
			s.Close()
		}
		return ans, err
	}
	if d.s == nil {
		d.s = smt.New(smt.Options{Timeout: d.Timeout, Builder: q.Builder})
		d.b = q.Builder
	}
	if d.b != q.Builder {
		d.s.ResetWith(q.Builder)
		d.b, d.cur = q.Builder, d.cur[:0]
	}
	k := 0
	for k < len(d.cur) && k < len(q.Assertions) && d.cur[k] == q.Assertions[k] {
		k++
	}
	for len(d.cur) > k {
		d.s.Pop()
		d.cur = d.cur[:len(d.cur)-1]
	}
	for _, f := range q.Assertions[k:] {
		d.s.Push()
		d.s.Assert(f)
		d.cur = append(d.cur, f)
	}
	ans, err, abandoned := z3Bounded(ctx, d.s, q)
	if abandoned {
		// The solver still works for the abandoned call: start afresh.
		d.s, d.b, d.cur = nil, nil, nil
	}
	return ans, err
}

// z3Grace is how long a Z3 call may go on after its context is done before
// it is abandoned: Z3 polls its interrupt flag only now and then (not while
// it internalises a large formula), and the translation of the formula to
// Z3 terms does not look at the context at all.
const z3Grace = 300 * time.Millisecond

// z3Bounded runs z3Answer in its own goroutine and returns its answer, or
// ctx's error if ctx is done and the call has not returned z3Grace later,
// or a timeout error if it has not returned z3Grace after the solver's own
// per-query timeout (abandoned: the call runs on with s, which the caller
// must not use again; the garbage collector frees it afterwards).
func z3Bounded(ctx context.Context, s *smt.Solver, q *Query) (Answer, error, bool) {
	limit := s.Options().Timeout
	over := time.NewTimer(limit + z3Grace)
	defer over.Stop()
	type result struct {
		a   Answer
		err error
	}
	ch := make(chan result, 1)
	go func() {
		a, err := z3Answer(ctx, s, q)
		ch <- result{a, err}
	}()
	select {
	case r := <-ch:
		return r.a, r.err, false
	case <-over.C:
		return Answer{}, &smt.UnknownError{Reason: "timeout", Timeout: limit}, true
	case <-ctx.Done():
	}
	select {
	case r := <-ch:
		return r.a, r.err, false
	case <-time.After(z3Grace):
		return Answer{}, ctx.Err(), true
	}
}

func z3Answer(ctx context.Context, s *smt.Solver, q *Query) (Answer, error) {
	res, err := s.Check(ctx)
	if err != nil {
		return Answer{}, err
	}
	switch res {
	case smt.Unsat:
		return Answer{Verdict: Unsat}, nil
	case smt.Sat:
		m := make([]int64, q.Builder.NumVars())
		for i := range m {
			m[i] = int64(i) // unconstrained: any value is fine
		}
		for _, v := range s.ActiveVars() {
			if int(v) < len(m) {
				if val, ok := s.Value(v); ok {
					m[v] = val
				}
			}
		}
		return Answer{Verdict: Sat, Model: m}, nil
	}
	return Answer{}, nil
}
