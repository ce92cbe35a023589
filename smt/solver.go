package smt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aclements/go-z3/z3"
)

// Result is the outcome of a satisfiability check.
type Result int

// The possible results of Check.
const (
	Unknown Result = iota // the solver gave up (timeout, cancellation, incompleteness)
	Sat                   // the active assertions are satisfiable; a model is available
	Unsat                 // the active assertions are unsatisfiable
)

// String returns "unknown", "sat" or "unsat".
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Result(%d)", int(r))
}

// DefaultTimeout is the per-query timeout used when Options.Timeout is 0.
const DefaultTimeout = 10 * time.Second

// DefaultMaxCacheNodes is the translation-cache bound used when
// Options.MaxCacheNodes is 0.
const DefaultMaxCacheNodes = 1 << 20

// ErrTimeout is wrapped by the *UnknownError that Check returns when the
// solver's own per-query timeout expired. Test for it with errors.Is.
var ErrTimeout = errors.New("smt: solver timeout")

// ErrResourceLimit is wrapped by the *UnknownError that Check returns when
// Options.ResourceLimit was exceeded.
var ErrResourceLimit = errors.New("smt: solver resource limit exceeded")

// UnknownError is returned (with Result Unknown) when Z3 could not decide
// the query for a reason other than context cancellation.
type UnknownError struct {
	// Reason is a short description: "timeout" if the per-query timeout
	// expired, "rlimit" if Options.ResourceLimit was exceeded, otherwise
	// Z3's reason-unknown string (e.g. "incomplete").
	Reason string
	// Z3Reason is Z3's own reason-unknown string (Z3 4.8 reports
	// "canceled" for timeouts).
	Z3Reason string
	// Timeout is the per-query timeout that was in effect (0 if none).
	Timeout time.Duration
}

// Error describes the reason.
func (e *UnknownError) Error() string {
	switch e.Reason {
	case "timeout":
		return fmt.Sprintf("smt: unknown: timeout after %v", e.Timeout)
	case "rlimit":
		return "smt: unknown: resource limit exceeded"
	}
	return "smt: unknown: " + e.Reason
}

// Unwrap returns ErrTimeout for timeouts, ErrResourceLimit for exceeded
// resource limits, and nil otherwise.
func (e *UnknownError) Unwrap() error {
	switch e.Reason {
	case "timeout":
		return ErrTimeout
	case "rlimit":
		return ErrResourceLimit
	}
	return nil
}

// Options configure a Solver. The zero value is usable.
type Options struct {
	// Timeout bounds each Check that reaches Z3. 0 means DefaultTimeout;
	// a negative value means no timeout (not recommended: dense
	// disjunctive instances can run for minutes). CheckTimeout overrides
	// it per call, and a context deadline shortens it.
	Timeout time.Duration

	// DisableFastPath sends every Check to Z3, even when all active
	// assertions are conjunctions of atoms (for tests and benchmarks).
	DisableFastPath bool

	// ValidateModels re-evaluates every active assertion in Go under each
	// model Z3 returns; a violation makes Check return an error. It costs
	// one pass over the active formula DAG per satisfiable check.
	ValidateModels bool

	// MaxCacheNodes bounds the Formula→Z3 translation cache. When it is
	// exceeded the cache is cleared at the next Pop (or Reset). Cleared
	// translations stay alive in Z3 (so that Z3's models do not depend on
	// when Go's collector runs) until the next Reset or ResetWith after
	// more than MaxCacheNodes Z3 objects have been kept that way, which
	// replaces the Z3 context. 0 means DefaultMaxCacheNodes; negative
	// means unbounded (and the context is never replaced).
	MaxCacheNodes int

	// ResourceLimit, if non-zero, bounds the work of each Z3 check in
	// Z3's deterministic resource units (the "rlimit" parameter). Unlike
	// Timeout it gives machine-independent, reproducible Unknown results.
	// Exceeding it makes Check return an *UnknownError wrapping
	// ErrResourceLimit.
	ResourceLimit uint

	// Builder, if non-nil, is embedded in the Solver instead of a fresh
	// one.
	Builder *Builder
}

// Stats are cumulative counters of a Solver.
type Stats struct {
	Checks     int // calls to Check/CheckTimeout
	Sat        int // checks answered Sat
	Unsat      int // checks answered Unsat
	Unknown    int // checks answered Unknown (timeouts, cancellations, errors)
	FastChecks int // checks answered without Z3 (conjunctive fast path or an asserted False)
	Z3Checks   int // checks that called Z3

	SolveTime time.Duration // total wall time spent in Check, both paths
	Z3Time    time.Duration // wall time spent inside Z3's check (a part of SolveTime)
	SyncTime  time.Duration // wall time spent translating and sending assertions to Z3

	Asserts    int // calls to Assert (including trivially true formulas)
	Atoms      int // ordering atoms activated by Assert (each distinct atom counted once per scope that activates it)
	Z3Nodes    int // formula nodes translated to Z3 ASTs (translation-cache misses)
	CacheHits  int // translation-cache hits
	MaxDepth   int // largest Push depth reached
	Z3Asserted int // formulas sent to Z3 with assert
	Z3Models   int // models fetched from Z3 (lazily, see CheckTimeout)
	Z3Errors   int // Z3 errors recovered from (see Z3Error)
	Z3Discards int // Z3 contexts discarded after an interrupted or timed-out check (see checkZ3)
}

// frame is one level of the assertion stack.
type frame struct {
	asserts []*node // asserted formulas (True is dropped)
	sent    int     // asserts[:sent] have been sent to Z3
	pushed  bool    // a Z3 scope exists for this frame
	nonConj int     // asserts that are not conjunctions of atoms
	falses  int     // asserts that are False
	nodes   []*node // nodes first activated in this frame
	vars    []Var   // variables first activated in this frame
}

// model is the satisfying assignment found by the last Check.
type model struct {
	ok    bool
	vals  []int64 // by Var; valid where has
	has   []bool  // variables that have a value (active at Check time)
	z3    bool    // found by Z3: values are evaluated lazily
	known []bool  // Z3 path: vals[v] already evaluated
	zm    *z3.Model
}

// Solver checks ordering constraints with Z3 (and a conjunctive fast path).
// It embeds a Builder, so formulas can be built with s.Lt, s.And, ... .
// A Solver is not safe for concurrent use; use one per goroutine. Distinct
// Solvers share no state and may be used concurrently.
type Solver struct {
	*Builder
	opts Options

	zctx  *z3.Context // created lazily, on the first Check that needs Z3
	zs    *z3.Solver
	zheal *z3.Solver // an empty solver, checked to clear a stale interrupt

	consts   []z3.Int // Z3 constant for each Var
	hasConst []bool
	memo     map[*node]z3.Bool
	// kept holds every Z3 object made in the current Z3 context that is no
	// longer referenced otherwise (dropped translations, models, evaluated
	// values), so that Go's garbage collector never releases one while the
	// context is in use: Z3 recycles the ids of released ASTs, and its
	// models depend on those ids, so releases at the collector's whim made
	// models (and hence mcr's exploration) vary from run to run. The whole
	// context is dropped instead, at a deterministic point (see
	// ResetWith), once keptN exceeds Options.MaxCacheNodes.
	kept     []any
	keptN    int
	zTimeout uint // current Z3 "timeout" parameter in ms (0 = not set yet)
	// tainted marks a Z3 context in which a check was interrupted or
	// timed out: it is discarded before its next use (see checkZ3).
	tainted bool
	zPushed int // frames[:zPushed] have a Z3 scope

	frames    []*frame
	active    map[*node]struct{} // nodes of all active assertions
	varActive []bool
	nonConj   int
	falses    int

	model  model
	stats  Stats
	closed bool
}

// New returns a Solver with its own Z3 context.
func New(opts Options) *Solver {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxCacheNodes == 0 {
		opts.MaxCacheNodes = DefaultMaxCacheNodes
	}
	b := opts.Builder
	if b == nil {
		b = NewBuilder()
	}
	opts.Builder = nil
	s := &Solver{
		Builder: b,
		opts:    opts,
		memo:    make(map[*node]z3.Bool),
	}
	s.resetFrames()
	return s
}

// ensureZ3 creates the Z3 context and solver if they do not exist yet.
func (s *Solver) ensureZ3() {
	if s.zs != nil {
		return
	}
	cfg := z3.NewContextConfig()
	cfg.SetBool("model", true)
	if s.opts.ResourceLimit > 0 {
		cfg.SetUint("rlimit", s.opts.ResourceLimit)
	}
	s.zctx = z3.NewContext(cfg)
	s.zs = z3.NewSolver(s.zctx)
	s.zTimeout = 0
	// Pushing once before asserting anything switches Z3's combined
	// solver to its incremental core, which is much faster for our
	// push/check/pop pattern. The first scope is never popped (ResetWith
	// pops back to it instead of resetting Z3, whose first push after a
	// reset is slow); the second is frame 0's.
	s.zs.Push()
	s.zs.Push()
}

// resetFrames empties the assertion stack. Z3 must be empty or absent.
func (s *Solver) resetFrames() {
	s.zPushed = 1 // frame 0 owns the initial Z3 scope (see ensureZ3)
	s.frames = []*frame{{pushed: true}}
	s.active = make(map[*node]struct{})
	s.varActive = s.varActive[:0]
	s.nonConj, s.falses = 0, 0
	s.model = model{}
}

func (s *Solver) mustOpen() {
	if s.closed {
		panic("smt: use of closed Solver")
	}
}

// Close releases the Solver's Z3 objects. (The underlying Z3 context is
// freed by the Go garbage collector once nothing refers to it.) The Solver
// must not be used afterwards; Close is idempotent.
func (s *Solver) Close() {
	if s.closed {
		return
	}
	s.closed = true
	s.zs = nil
	s.zheal = nil
	s.zctx = nil
	s.consts = nil
	s.memo = nil
	s.kept = nil
	s.model = model{}
	s.frames = nil
	s.active = nil
}

// Reset removes all assertions and scopes, clears the translation cache and
// the model, and replaces the embedded Builder by a fresh one (so formulas
// of the old Builder can be garbage collected). Statistics are kept.
func (s *Solver) Reset() { s.ResetWith(NewBuilder()) }

// ResetWith is like Reset but embeds b as the new Builder.
func (s *Solver) ResetWith(b *Builder) {
	s.mustOpen()
	s.keepMemo()
	s.Builder = b
	pushed := s.zPushed
	s.resetFrames()
	if s.discardTainted() {
		return
	}
	if s.zs != nil && s.opts.MaxCacheNodes > 0 && s.keptN > s.opts.MaxCacheNodes {
		// Start over with a fresh Z3 context (see kept). The old one is
		// released by the collector; its AST ids are its own.
		s.discardZ3()
		return
	}
	if s.zs != nil {
		// Reuse the Z3 context (creating one costs milliseconds) and pop
		// back to the permanent scope: cheaper than Reset, after which Z3's
		// first push rebuilds its incremental core.
		s.z3Safe(func() {
			for i := 0; i < pushed; i++ {
				s.zs.Pop()
			}
			s.zs.Push()
		})
	}
}

// Options returns the options in effect (with defaults filled in).
func (s *Solver) Options() Options { return s.opts }

// Stats returns a snapshot of the cumulative statistics.
func (s *Solver) Stats() Stats { return s.stats }

// Depth returns the number of Pushes not yet Popped.
func (s *Solver) Depth() int { return len(s.frames) - 1 }

// Push opens a new assertion scope.
func (s *Solver) Push() {
	s.mustOpen()
	s.model = model{}
	s.frames = append(s.frames, &frame{})
	if d := len(s.frames) - 1; d > s.stats.MaxDepth {
		s.stats.MaxDepth = d
	}
}

// Pop discards the assertions made since the matching Push. It panics if
// there is no open scope.
func (s *Solver) Pop() {
	s.mustOpen()
	if len(s.frames) <= 1 {
		panic("smt: Pop without matching Push")
	}
	s.model = model{}
	top := s.frames[len(s.frames)-1]
	if top.pushed {
		s.z3Safe(func() {
			s.zs.Pop()
			s.zPushed--
		})
	}
	for _, n := range top.nodes {
		delete(s.active, n)
	}
	for _, v := range top.vars {
		s.varActive[v] = false
	}
	s.nonConj -= top.nonConj
	s.falses -= top.falses
	s.frames[len(s.frames)-1] = nil
	s.frames = s.frames[:len(s.frames)-1]
	if s.opts.MaxCacheNodes > 0 && len(s.memo) > s.opts.MaxCacheNodes {
		s.keepMemo()
	}
}

// keepMemo empties the translation cache, keeping its Z3 terms alive (see
// kept).
func (s *Solver) keepMemo() {
	if s.zctx != nil && len(s.memo) > 0 {
		ts := make([]z3.Bool, 0, len(s.memo))
		for _, t := range s.memo {
			ts = append(ts, t)
		}
		s.kept = append(s.kept, ts)
		s.keptN += len(ts)
	}
	s.memo = make(map[*node]z3.Bool)
}

// keep holds x until the Z3 context is dropped (see kept).
func (s *Solver) keep(x any) {
	s.kept = append(s.kept, x)
	s.keptN++
}

// Assert adds f to the current scope. f may come from any Builder; variables
// are identified by their integer value.
func (s *Solver) Assert(f Formula) {
	s.mustOpen()
	s.model = model{}
	s.stats.Asserts++
	n := f.node()
	if n == trueNode {
		return
	}
	top := s.frames[len(s.frames)-1]
	top.asserts = append(top.asserts, n)
	switch {
	case n == falseNode:
		top.falses++
		s.falses++
	case !isConjunctive(n):
		top.nonConj++
		s.nonConj++
	}
	s.activate(top, n)
}

// activate marks n and its sub-formulas and variables as active.
func (s *Solver) activate(top *frame, n *node) {
	if _, ok := s.active[n]; ok {
		return
	}
	s.active[n] = struct{}{}
	top.nodes = append(top.nodes, n)
	if n.kind == KindLt {
		s.stats.Atoms++
		s.activateVar(top, n.a)
		s.activateVar(top, n.b)
		return
	}
	for _, k := range n.kids {
		s.activate(top, k)
	}
}

func (s *Solver) activateVar(top *frame, v Var) {
	if int(v) >= len(s.varActive) {
		s.varActive = append(s.varActive, make([]bool, int(v)+1-len(s.varActive))...)
	}
	if !s.varActive[v] {
		s.varActive[v] = true
		top.vars = append(top.vars, v)
	}
}

// Assertions returns the active assertions (outermost scope first), as
// given to Assert except that True is omitted.
func (s *Solver) Assertions() []Formula {
	var out []Formula
	for _, fr := range s.frames {
		for _, n := range fr.asserts {
			out = append(out, Formula{n})
		}
	}
	return out
}

// ActiveVars returns the variables that occur in active assertions, in
// increasing order.
func (s *Solver) ActiveVars() []Var {
	var out []Var
	for v, ok := range s.varActive {
		if ok {
			out = append(out, Var(v))
		}
	}
	return out
}

// Check decides the active assertions with the solver's default timeout
// (Options.Timeout). See CheckTimeout.
func (s *Solver) Check(ctx context.Context) (Result, error) {
	return s.CheckTimeout(ctx, s.opts.Timeout)
}

// CheckTimeout decides the conjunction of the active assertions.
//
// If every active assertion is a conjunction of atoms, it is decided in Go
// by a topological sort (unless Options.DisableFastPath). Otherwise the
// assertions are sent to Z3 (incrementally: only what is new since the last
// Z3 check) and Z3 is run with the given timeout (timeout <= 0 means none);
// a deadline of ctx shortens it. Cancelling ctx interrupts Z3.
//
// Results:
//   - Sat, nil: a model is available through Value, Model and Order until
//     the next Assert, Push, Pop, Check or Reset (Z3 models are fetched
//     lazily, on the first Value, Model or Order call, because fetching
//     one can cost more than the check itself);
//   - Unsat, nil;
//   - Unknown, ctx.Err(): ctx was cancelled or its deadline passed;
//   - Unknown, *UnknownError: the timeout expired (errors.Is(err,
//     ErrTimeout)) or Z3 gave up for another reason;
//   - Unknown, *Z3Error: Z3 raised an error; the Solver discarded its Z3
//     context and rebuilds it on the next Check;
//   - Unknown, other error: a model failed Options.ValidateModels.
//
// A check that completes although ctx was cancelled meanwhile returns its
// (valid) result.
func (s *Solver) CheckTimeout(ctx context.Context, timeout time.Duration) (Result, error) {
	s.mustOpen()
	start := time.Now()
	s.model = model{}
	res, err := s.check(ctx, timeout)
	s.stats.Checks++
	s.stats.SolveTime += time.Since(start)
	switch res {
	case Sat:
		s.stats.Sat++
	case Unsat:
		s.stats.Unsat++
	default:
		s.stats.Unknown++
	}
	return res, err
}

func (s *Solver) check(ctx context.Context, timeout time.Duration) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Unknown, err
	}
	if !s.opts.DisableFastPath {
		if s.falses > 0 {
			s.stats.FastChecks++
			return Unsat, nil
		}
		if s.nonConj == 0 {
			s.stats.FastChecks++
			return s.checkFast(), nil
		}
	}
	return s.checkZ3(ctx, timeout)
}

// checkFast decides purely conjunctive assertions by a topological sort.
func (s *Solver) checkFast() Result {
	vars := s.ActiveVars()
	var atoms [][2]Var
	for _, fr := range s.frames {
		for _, n := range fr.nodes {
			if n.kind == KindLt {
				atoms = append(atoms, [2]Var{n.a, n.b})
			}
		}
	}
	order, ok := topoOrder(vars, atoms)
	if !ok {
		return Unsat
	}
	m := model{ok: true, vals: make([]int64, len(s.varActive)), has: slices.Clone(s.varActive)}
	for i, v := range order {
		m.vals[v] = int64(i)
	}
	s.model = m
	return Sat
}

// z3NoTimeout is Z3's "no timeout" value (UINT_MAX milliseconds).
const z3NoTimeout = math.MaxUint32

func (s *Solver) setZ3Timeout(ms uint) {
	if ms != s.zTimeout {
		s.zctx.Config().SetUint("timeout", ms)
		s.zTimeout = ms
	}
}

// Z3Error reports an error raised inside Z3 during a Check. The Solver
// recovers from it by discarding its Z3 context; the next Check rebuilds
// the Z3 state from the assertion stack.
type Z3Error struct {
	Msg string // Z3's error message
}

// Error returns the message.
func (e *Z3Error) Error() string { return "smt: Z3 error: " + e.Msg }

// dropZ3 discards the Z3 context and solver (after a Z3 error). Everything
// is re-sent to a fresh context by the next Check that needs Z3.
func (s *Solver) dropZ3() {
	s.discardZ3()
	s.stats.Z3Errors++
}

// discardTainted discards a tainted Z3 context (see tainted) and reports
// whether it did.
func (s *Solver) discardTainted() bool {
	if s.zs == nil || !s.tainted {
		return false
	}
	s.discardZ3()
	s.stats.Z3Discards++
	return true
}

// discardZ3 forgets the Z3 context and solver; the next Check that needs
// Z3 builds new ones and re-sends the assertion stack.
func (s *Solver) discardZ3() {
	s.tainted = false
	s.zctx, s.zs, s.zheal = nil, nil, nil
	s.consts, s.hasConst = nil, nil
	s.memo = make(map[*node]z3.Bool)
	s.kept, s.keptN = nil, 0
	s.zTimeout = 0
	s.zPushed = 1
	for i, fr := range s.frames {
		fr.pushed = i == 0
		fr.sent = 0
	}
	s.model = model{}
}

// z3Safe runs f, which calls Z3. If Z3 raises an error, the Z3 state is
// dropped (to be rebuilt by the next Check that needs it).
func (s *Solver) z3Safe(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(string); !ok {
				panic(r)
			}
			s.dropZ3()
		}
	}()
	f()
}

// z3Guard converts a Z3 error (which the binding raises as a panic with a
// string value) into a *Z3Error, dropping the broken Z3 state. Other
// panics are re-raised.
func (s *Solver) z3Guard(res *Result, err *error) {
	r := recover()
	if r == nil {
		return
	}
	msg, ok := r.(string)
	if !ok {
		panic(r)
	}
	s.dropZ3()
	*res, *err = Unknown, &Z3Error{Msg: msg}
}

func (s *Solver) checkZ3(ctx context.Context, timeout time.Duration) (res Result, err error) {
	defer s.z3Guard(&res, &err)
	t0 := time.Now()
	s.discardTainted()
	s.ensureZ3()
	s.sync()
	s.stats.SyncTime += time.Since(t0)
	s.stats.Z3Checks++

	// Effective timeout: the smaller of timeout and ctx's deadline.
	eff, fromCtx := timeout, false
	if eff < 0 {
		eff = 0
	}
	if dl, ok := ctx.Deadline(); ok {
		rem := time.Until(dl)
		if rem <= 0 {
			return Unknown, context.DeadlineExceeded
		}
		if eff == 0 || rem < eff {
			eff, fromCtx = rem, true
		}
	}
	if eff > 0 {
		ms := (eff + time.Millisecond - 1) / time.Millisecond
		if ms >= z3NoTimeout {
			ms = z3NoTimeout - 1
		}
		s.setZ3Timeout(uint(ms))
	} else {
		s.setZ3Timeout(z3NoTimeout)
	}

	// Interrupt Z3 if ctx is cancelled while it runs.
	//
	// Z3 (4.8) quirks: an interrupt that arrives just before the check
	// starts is forgotten when the check starts, so the callback repeats
	// it until the check returns; and an interrupt that arrives while Z3
	// is idle is sticky: the next Push fails with "push canceled" until
	// some check runs in the context. So after any interrupt we wait for
	// the callback to finish and then run a trivial check on an empty
	// auxiliary solver, which clears the flag.
	var interrupted atomic.Bool
	done := make(chan struct{})
	checkDone := make(chan struct{})
	zctx := s.zctx
	stop := context.AfterFunc(ctx, func() {
		defer close(done)
		interrupted.Store(true)
		for {
			zctx.Interrupt()
			select {
			case <-checkDone:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	t1 := time.Now()
	sat, err := s.zs.Check()
	elapsed := time.Since(t1)
	close(checkDone)
	s.stats.Z3Time += elapsed
	if !stop() {
		<-done
	}
	if interrupted.Load() {
		s.healInterrupt()
	}
	if interrupted.Load() || err != nil {
		// Z3 4.8.12 is not to be trusted after an interrupted (or timed
		// out: Z3 cancels itself the same way) check: after a storm of
		// interrupted checks, popped back to the base scope, an UNSAT
		// formula was answered Sat in about 1 run in 5
		// (TestCancelStress). The context is discarded before its next
		// use; this check's own answer, if it has one, and its model
		// stay valid until then.
		s.tainted = true
	}

	if err != nil {
		var ue *z3.ErrSatUnknown
		if !errors.As(err, &ue) {
			return Unknown, err
		}
		if interrupted.Load() && ctx.Err() != nil {
			return Unknown, ctx.Err()
		}
		// Z3 4.8 reports timeouts, interrupts and exceeded resource
		// limits all as "canceled". Interrupts are ours (handled above);
		// the timeout timer cannot fire before eff has elapsed.
		canceled := ue.Reason == "canceled" || ue.Reason == "timeout"
		if strings.Contains(ue.Reason, "resource limit") || strings.Contains(ue.Reason, "rlimit") ||
			(canceled && s.opts.ResourceLimit > 0 && (eff == 0 || elapsed < eff)) {
			return Unknown, &UnknownError{Reason: "rlimit", Z3Reason: ue.Reason, Timeout: eff}
		}
		if canceled {
			if fromCtx {
				if err := ctx.Err(); err != nil {
					return Unknown, err
				}
				return Unknown, context.DeadlineExceeded
			}
			if eff > 0 {
				return Unknown, &UnknownError{Reason: "timeout", Z3Reason: ue.Reason, Timeout: eff}
			}
		}
		return Unknown, &UnknownError{Reason: ue.Reason, Z3Reason: ue.Reason, Timeout: eff}
	}
	if !sat {
		return Unsat, nil
	}
	// Fetching a Z3 model is expensive (often more than the check), so
	// it is done on the first Value call.
	s.model = model{
		ok:    true,
		vals:  make([]int64, len(s.varActive)),
		has:   slices.Clone(s.varActive),
		z3:    true,
		known: make([]bool, len(s.varActive)),
	}
	if s.opts.ValidateModels {
		if err := s.validate(); err != nil {
			s.model = model{}
			return Unknown, err
		}
	}
	return Sat, nil
}

// healInterrupt clears a pending Z3 interrupt (see checkZ3).
func (s *Solver) healInterrupt() {
	if s.zheal == nil {
		s.zheal = z3.NewSolver(s.zctx)
	}
	s.zheal.Check()
}

// validate checks every active assertion under the current model.
func (s *Solver) validate() error {
	var missing []Var
	val := func(v Var) int64 {
		x, ok := s.Value(v)
		if !ok {
			missing = append(missing, v)
		}
		return x
	}
	memo := make(map[*node]bool)
	for _, fr := range s.frames {
		for _, n := range fr.asserts {
			ok := evalNode(n, val, memo)
			if len(missing) > 0 {
				return fmt.Errorf("smt: no model value for active variables %v", missing)
			}
			if !ok {
				return fmt.Errorf("smt: Z3 model violates assertion %v", Formula{n})
			}
		}
	}
	return nil
}

// sync brings the Z3 solver up to date with the assertion stack. Only the
// top-most frame that already has a Z3 scope can have unsent assertions;
// frames above it get new Z3 scopes.
func (s *Solver) sync() {
	for i := s.zPushed - 1; i < len(s.frames); i++ {
		fr := s.frames[i]
		if !fr.pushed {
			s.zs.Push()
			fr.pushed = true
			s.zPushed++
		}
		for ; fr.sent < len(fr.asserts); fr.sent++ {
			s.zs.Assert(s.translate(fr.asserts[fr.sent]))
			s.stats.Z3Asserted++
		}
	}
}

// z3Var returns the Z3 integer constant of v.
func (s *Solver) z3Var(v Var) z3.Int {
	if int(v) >= len(s.consts) {
		n := int(v) + 1 - len(s.consts)
		s.consts = append(s.consts, make([]z3.Int, n)...)
		s.hasConst = append(s.hasConst, make([]bool, n)...)
	}
	if !s.hasConst[v] {
		s.consts[v] = s.zctx.IntConst(fmt.Sprintf("o%d", int(v)))
		s.hasConst[v] = true
	}
	return s.consts[v]
}

// translate converts a formula DAG to a Z3 term, memoising every node.
func (s *Solver) translate(n *node) z3.Bool {
	if t, ok := s.memo[n]; ok {
		s.stats.CacheHits++
		return t
	}
	var t z3.Bool
	switch n.kind {
	case KindTrue:
		t = s.zctx.FromBool(true)
	case KindFalse:
		t = s.zctx.FromBool(false)
	case KindLt:
		t = s.z3Var(n.a).LT(s.z3Var(n.b))
	case KindAnd, KindOr:
		args := make([]z3.Bool, len(n.kids))
		for i, k := range n.kids {
			args[i] = s.translate(k)
		}
		if n.kind == KindAnd {
			t = args[0].And(args[1:]...)
		} else {
			t = args[0].Or(args[1:]...)
		}
	}
	s.memo[n] = t
	s.stats.Z3Nodes++
	return t
}

// HasModel reports whether a model is available: the last Check returned
// Sat and no Assert, Push, Pop or Reset happened since.
func (s *Solver) HasModel() bool { return s.model.ok }

// Value returns the model value of v after a satisfiable Check. ok is false
// if there is no model or v did not occur in the assertions active at that
// Check. Values are only meaningful relative to each other; distinct
// variables may share a value if the formula does not order them.
func (s *Solver) Value(v Var) (val int64, ok bool) {
	m := &s.model
	if !m.ok || v < 0 || int(v) >= len(m.has) || !m.has[v] {
		return 0, false
	}
	if m.z3 && !m.known[v] {
		if m.zm == nil {
			m.zm = s.zs.Model()
			s.keep(m.zm)
			s.stats.Z3Models++
		}
		x := m.zm.Eval(s.z3Var(v), true)
		s.keep(x)
		if x == nil {
			panic(fmt.Sprintf("smt: Z3 cannot evaluate variable %d", v))
		}
		i, isLit, fits := x.(z3.Int).AsInt64()
		if !isLit || !fits {
			panic(fmt.Sprintf("smt: Z3 model value of variable %d is not a 64-bit literal: %v", v, x))
		}
		m.vals[v] = i
		m.known[v] = true
	}
	return m.vals[v], true
}

// Model returns the values of all variables that occurred in the assertions
// active at the last satisfiable Check, or nil if there is no model.
func (s *Solver) Model() map[Var]int64 {
	if !s.model.ok {
		return nil
	}
	out := make(map[Var]int64)
	for v, ok := range s.model.has {
		if ok {
			out[Var(v)], _ = s.Value(Var(v))
		}
	}
	return out
}

// Order returns vars sorted by model value, ties broken by Var id. Variables
// without a model value (those not in the active assertions) are
// unconstrained and are placed at the end, in Var order. The input slice is
// not modified. The resulting total order satisfies every active assertion
// (see the package documentation). Order panics if there is no model.
func (s *Solver) Order(vars []Var) []Var {
	if !s.model.ok {
		panic("smt: Order called without a model (last Check was not Sat)")
	}
	type kv struct {
		v   Var
		val int64
		has bool
	}
	tmp := make([]kv, len(vars))
	for i, v := range vars {
		val, ok := s.Value(v)
		tmp[i] = kv{v, val, ok}
	}
	slices.SortStableFunc(tmp, func(x, y kv) int {
		switch {
		case x.has != y.has:
			if x.has {
				return -1
			}
			return 1
		case x.has && x.val != y.val:
			if x.val < y.val {
				return -1
			}
			return 1
		case x.v != y.v:
			if x.v < y.v {
				return -1
			}
			return 1
		}
		return 0
	})
	out := make([]Var, len(vars))
	for i, e := range tmp {
		out[i] = e.v
	}
	return out
}

// String returns Z3's rendering of the assertions currently sent to Z3
// (for debugging; lazily synchronised assertions may be missing).
func (s *Solver) String() string {
	s.mustOpen()
	if s.zs == nil {
		return ""
	}
	return s.zs.String()
}
