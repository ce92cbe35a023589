// Package speccheck tests a commutativity specification (package commspec)
// against the CIR implementation of its object: it builds the object states
// reachable from the initial state by sequences of at most Depth method
// calls with arguments from a small domain, runs every pair of invocations
// in both orders from every such state, and reports each condition that
// says "commute" for a pair that does not: the results differ, one order
// fails or blocks, or the final states differ (in the value of an
// abstraction function, or in the result of a later call of a method). A
// sound spec passes for every bound; passing proves soundness only within
// the bound. This is `ncmc spec check`.
//
// Calls run sequentially on one thread with ncmc's interpreter
// (ncmc.SeqRunner), on a fresh heap instance of the object.
package speccheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"ncmc/commspec"
	"ncmc/interp"
	"ncmc/ir"
)

// Options bound the check. Zero values (Depth: negative values) take the
// spec's check: section, then the defaults.
type Options struct {
	// Depth is the length of the call sequences that build states; 0 checks
	// the initial state only; negative: check.depth, else 2.
	Depth int
	// Ints is the domain of int arguments (default: check.ints, else 0, 1, 2).
	// Arguments listed under check.args keep their own domains.
	Ints []int64
	// MaxStates caps the number of distinct states (default 5000); states
	// beyond it are not built, and the report says so.
	MaxStates int
	// Unroll is the bound of loops without @unroll (default 8).
	Unroll int
	// Compare chooses how final states are compared: "abstract" (the
	// abstraction functions), "observe" (one later call of every method with
	// every argument), or "both" (default).
	Compare string
	// Context bounds the check (nil: no bound). When it is done, the check
	// stops between two calls and Report.Stopped says why; the conditions
	// not yet refuted are then unknown, not sound.
	Context context.Context
}

// Report is the result of a check.
type Report struct {
	Spec    *commspec.Spec
	Depth   int
	Ints    []int64
	Compare string
	// Invocations lists the calls used (method and arguments), in order.
	Invocations []string
	// States is the number of distinct states checked; Truncated is set when
	// MaxStates stopped the construction.
	States    int
	Truncated bool
	// Stopped is set when Options.Context ended the check early (its error,
	// e.g. the time bound); the report is then incomplete.
	Stopped error
	// Pairs is the number of invocation pairs run in both orders; Differ how
	// many of them did not commute.
	Pairs, Differ int
	// Skipped lists methods and abstraction functions left out of the
	// search because their parameters cannot be enumerated (they are not
	// in the spec).
	Skipped []string
	// Inconclusive counts pair runs that hit a loop or step bound.
	Inconclusive int
	// Conds has one entry per condition of the spec, derived ones included,
	// in method order.
	Conds   []*CondReport
	Elapsed time.Duration
}

// CondReport is what the check found for one condition.
type CondReport struct {
	Cond *commspec.Cond
	// Held counts the labelled pairs on which the condition held; Missed
	// the labelled pairs that commuted although the condition said no (a
	// measure of how much finer the condition could be).
	Held, Missed int
	// EvalErrors counts evaluations that failed (a division by zero, a
	// shift out of range). The explorer takes such a condition as "do not
	// commute", which is sound, but a condition that fails is a mistake of
	// the spec: Report.Sound is false and Write reports it as an error.
	EvalErrors int
	// EvalError is the first evaluation error, with the labelled pair it
	// was evaluated on.
	EvalError string
	// Counterexample is the first violation found (at a shallowest state),
	// nil if the condition is sound within the bound.
	Counterexample *Counterexample
	// MissedExample is one pair counted in Missed.
	MissedExample string
}

// Counterexample is a concrete witness of an unsound condition.
type Counterexample struct {
	State    string   // the calls that build the state, after the init calls
	Abstract string   // the abstraction functions' values in that state
	Inv1     string   // the invocation the condition calls 1, with arguments
	Inv2     string   // the invocation the condition calls 2
	Labels   string   // the labels (with results) on which the condition held
	Order12  string   // what happens when Inv1 runs first
	Order21  string   // what happens when Inv2 runs first
	Init     string   // the init calls, if any
	Diffs    []string // what differs
}

// Sound reports whether no condition has a counterexample.
func (r *Report) Sound() bool {
	for _, c := range r.Conds {
		if c.Counterexample != nil {
			return false
		}
	}
	return true
}

// Failing reports whether some condition failed to evaluate on some
// labelled pair (CondReport.EvalErrors).
func (r *Report) Failing() bool {
	for _, c := range r.Conds {
		if c.EvalErrors > 0 {
			return true
		}
	}
	return false
}

// inv is one invocation of the search: a method with argument values.
type inv struct {
	f    *ir.Func
	m    *commspec.Method // nil: a method the spec does not describe
	args []int64
}

func (v *inv) String() string {
	s := make([]string, len(v.args))
	for i, a := range v.args {
		s[i] = fmtIR(a, v.f.Locals[i+1].Type)
	}
	return v.f.Name + "(" + strings.Join(s, ", ") + ")"
}

func fmtIR(v int64, t *ir.Type) string {
	if t != nil && t.Kind == ir.TBool {
		return fmt.Sprint(v != 0)
	}
	return fmt.Sprint(v)
}

// state is one object state: a snapshot and what was computed about it.
type state struct {
	snap  *interp.SeqState
	key   string
	desc  string
	depth int
	abs   map[string]int64 // abstraction function values, by call text
	sig   *signature
}

// signature is what the comparison of final states looks at.
type signature struct {
	abs []string // the value of each abstraction call (checker.absCall)
	obs []string // the result of each invocation (checker.invs)
}

type checker struct {
	spec    *commspec.Spec
	prog    *ir.Program
	rec     *ir.Record
	opts    Options
	run     *interp.SeqRunner // calls
	absRun  *interp.SeqRunner // abstraction functions
	obj     int64
	invs    []*inv // every invocation (all linearizable methods)
	specInv []*inv // those of the spec's methods
	absCall []*inv // every abstraction call (abstraction fns × domains)
	states  map[string]*state
	rep     *Report
	byCond  map[*commspec.Cond]*CondReport
}

// Check runs the check. spec must have passed CheckProgram for prog. An
// error means the check could not run (the object type is missing, an init
// call fails, a method has parameters that are neither int nor bool).
func Check(spec *commspec.Spec, prog *ir.Program, opts Options) (*Report, error) {
	start := time.Now()
	rec := spec.Record(prog)
	if rec == nil {
		return nil, fmt.Errorf("%s has no object type %s", prog.File, spec.Object)
	}
	if opts.Depth < 0 {
		opts.Depth = spec.Check.Depth
		if opts.Depth < 0 {
			opts.Depth = 2
		}
	}
	if len(opts.Ints) == 0 {
		opts.Ints = spec.Check.Ints
		if len(opts.Ints) == 0 {
			opts.Ints = []int64{0, 1, 2}
		}
	}
	if opts.MaxStates <= 0 {
		opts.MaxStates = 5000
	}
	if opts.Compare == "" {
		opts.Compare = "both"
	}
	switch opts.Compare {
	case "both", "abstract", "observe":
	default:
		return nil, fmt.Errorf("unknown comparison %q (abstract, observe or both)", opts.Compare)
	}
	cfg := interp.Config{Unroll: opts.Unroll, MaxThreadSteps: 1_000_000}
	c := &checker{spec: spec, prog: prog, rec: rec, opts: opts,
		run: interp.NewSeqRunner(prog, nil, cfg), states: map[string]*state{},
		byCond: map[*commspec.Cond]*CondReport{}}
	c.absRun = interp.NewSeqRunner(prog, nil, cfg)
	c.rep = &Report{Spec: spec, Depth: opts.Depth, Ints: opts.Ints, Compare: opts.Compare}
	for _, cond := range spec.AllConds() {
		cr := &CondReport{Cond: cond}
		c.rep.Conds = append(c.rep.Conds, cr)
		c.byCond[cond] = cr
	}
	if err := c.setup(); err != nil {
		return nil, err
	}
	c.explore()
	c.rep.Elapsed = time.Since(start)
	return c.rep, nil
}

// domain returns the values of parameter i (0-based, without the receiver) of f.
func (c *checker) domain(f *ir.Func, i int) ([]int64, error) {
	p := f.Locals[i+1]
	if d, ok := c.spec.Check.Args[f.Name+"."+p.Name]; ok {
		return d, nil
	}
	switch {
	case p.Type.Kind == ir.TBool:
		return []int64{0, 1}, nil
	case p.Type.Kind == ir.TInt:
		return c.opts.Ints, nil
	}
	return nil, fmt.Errorf("%s.%s: parameter %s has type %s; spec check can only enumerate int and bool arguments", c.rec.Name, f.Name, p.Name, p.Type)
}

// calls returns f applied to every tuple of its parameters' domains.
func (c *checker) calls(f *ir.Func) ([]*inv, error) {
	out := []*inv{{f: f, args: nil}}
	for i := 0; i < f.NumParams-1; i++ {
		d, err := c.domain(f, i)
		if err != nil {
			return nil, err
		}
		var next []*inv
		for _, v := range out {
			for _, x := range d {
				next = append(next, &inv{f: f, args: append(slices.Clone(v.args), x)})
			}
		}
		out = next
	}
	return out, nil
}

func (c *checker) setup() error {
	c.obj = c.run.Alloc(c.rec)
	for _, ic := range c.spec.Check.Init {
		f := c.rec.MethodByName(ic.Method)
		if f == nil {
			return fmt.Errorf("%s: init: %s has no method %s", ic.Pos, c.rec.Name, ic.Method)
		}
		if res := c.run.Call(f, append([]int64{c.obj}, ic.Args...)); !res.OK() {
			return fmt.Errorf("%s: init call %s fails: %s", ic.Pos, ic, res.Msg)
		}
	}
	for _, f := range c.rec.Methods {
		switch f.Kind {
		case ir.FuncLinearizable:
			m := c.spec.Method(f.Name)
			vs, err := c.calls(f)
			if err != nil {
				if m != nil {
					return err
				}
				c.rep.Skipped = append(c.rep.Skipped, err.Error())
				continue
			}
			for _, v := range vs {
				v.m = m
				c.invs = append(c.invs, v)
				c.rep.Invocations = append(c.rep.Invocations, v.String())
				if m != nil {
					c.specInv = append(c.specInv, v)
				}
			}
		case ir.FuncAbstraction:
			vs, err := c.calls(f)
			if err != nil {
				declared := false
				for _, a := range c.spec.Abstractions {
					declared = declared || a.Name == f.Name
				}
				if declared {
					return err
				}
				c.rep.Skipped = append(c.rep.Skipped, err.Error())
				continue
			}
			c.absCall = append(c.absCall, vs...)
		}
	}
	return nil
}

// initText renders the init calls.
func (c *checker) initText() string {
	var s []string
	for _, ic := range c.spec.Check.Init {
		s = append(s, ic.String())
	}
	return strings.Join(s, "; ")
}

// call runs v in the runner's current state.
func (c *checker) call(v *inv) interp.SeqResult {
	return c.run.Call(v.f, append([]int64{c.obj}, v.args...))
}

// intern returns the state for the runner's current memory.
func (c *checker) intern(desc string, depth int) (*state, bool) {
	snap := c.run.Snapshot()
	key := snap.Key()
	if st, ok := c.states[key]; ok {
		return st, false
	}
	st := &state{snap: snap, key: key, desc: desc, depth: depth, abs: map[string]int64{}}
	c.states[key] = st
	return st, true
}

// stopped reports whether the context ended the check, and records why.
func (c *checker) stopped() bool {
	if c.rep.Stopped != nil {
		return true
	}
	if c.opts.Context == nil {
		return false
	}
	if err := c.opts.Context.Err(); err != nil {
		c.rep.Stopped = err
		return true
	}
	return false
}

// explore builds the states breadth-first and checks every pair in each.
func (c *checker) explore() {
	init, _ := c.intern("", 0)
	level := []*state{init}
	var all []*state
	for d := 0; ; d++ {
		all = append(all, level...)
		if d == c.opts.Depth {
			break
		}
		var next []*state
		for _, st := range level {
			for _, v := range c.invs {
				if len(c.states) >= c.opts.MaxStates {
					c.rep.Truncated = true
					break
				}
				if c.stopped() {
					break
				}
				c.run.Restore(st.snap)
				if res := c.call(v); !res.OK() {
					continue // v is not enabled here (or fails): no new state
				}
				if ns, isNew := c.intern(seq(st.desc, v), d+1); isNew {
					next = append(next, ns)
				}
			}
		}
		level = next
	}
	c.rep.States = len(all)
	for _, st := range all {
		for i, a := range c.specInv {
			for _, b := range c.specInv[i:] {
				if c.stopped() {
					return
				}
				c.pair(st, a, b)
			}
		}
	}
}

// seq appends call v to the call sequence desc.
func seq(desc string, v *inv) string {
	if desc == "" {
		return v.String()
	}
	return desc + "; " + v.String()
}

// run2 runs x then y from st; it returns their results and the states after
// x and after both (nil if a call did not return).
func (c *checker) run2(st *state, x, y *inv) (rx, ry interp.SeqResult, mid, end *state) {
	c.run.Restore(st.snap)
	rx = c.call(x)
	if !rx.OK() {
		return rx, interp.SeqResult{Status: interp.Blocked, Msg: "not run"}, nil, nil
	}
	mid, _ = c.intern(seq(st.desc, x), st.depth+1)
	c.run.Restore(mid.snap)
	ry = c.call(y)
	if !ry.OK() {
		return rx, ry, mid, nil
	}
	end, _ = c.intern(seq(seq(st.desc, x), y), st.depth+2)
	return rx, ry, mid, end
}

func bound(r interp.SeqResult) bool { return r.Status == interp.BoundHit }

// pair runs a and b in both orders from st and checks the conditions.
func (c *checker) pair(st *state, a, b *inv) {
	c.rep.Pairs++
	ra1, rb1, midA, endAB := c.run2(st, a, b) // order a; b
	rb2, ra2, midB, endBA := c.run2(st, b, a) // order b; a
	if bound(ra1) || bound(rb1) || bound(ra2) || bound(rb2) {
		c.rep.Inconclusive++
		return
	}
	var diffs []diff
	same := func(r1, r2 interp.SeqResult) bool {
		return r1.Status == r2.Status && r1.Ret == r2.Ret && (r1.OK() || r1.Msg == r2.Msg)
	}
	if !same(ra1, ra2) {
		diffs = append(diffs, diff{kind: diffRetA, aFirst: c.res(a, ra1), bFirst: c.res(a, ra2)})
	}
	if !same(rb1, rb2) {
		diffs = append(diffs, diff{kind: diffRetB, aFirst: c.res(b, rb1), bFirst: c.res(b, rb2)})
	}
	if len(diffs) == 0 && endAB != nil && endBA != nil && endAB.key != endBA.key {
		diffs = c.compare(endAB, endBA)
	}
	if len(diffs) > 0 {
		c.rep.Differ++
	}
	// The labelled pairs: order a; b gives a (state st) and b (state midA);
	// order b; a gives b (state st) and a (state midB). A label exists only
	// if both calls returned in that order.
	type labels struct {
		la, lb commspec.Invocation
		desc   string
	}
	var ls []labels
	if ra1.OK() && rb1.OK() {
		ls = append(ls, labels{c.label(a, ra1, st), c.label(b, rb1, midA), "run in which inv %d goes first"})
	}
	if ra2.OK() && rb2.OK() {
		ls = append(ls, labels{c.label(a, ra2, midB), c.label(b, rb2, st), "run in which inv %d goes second"})
	}
	for _, l := range ls {
		for _, o := range [][2]*inv{{a, b}, {b, a}} {
			x, y := o[0], o[1]
			lx, ly := l.la, l.lb
			if x != a {
				lx, ly = l.lb, l.la
			}
			cond := c.spec.Cond(x.m.Name, y.m.Name)
			if cond == nil {
				continue
			}
			cr := c.byCond[cond]
			holds, err := cond.Eval(lx, ly)
			if err != nil {
				if cr.EvalErrors == 0 {
					cr.EvalError = fmt.Sprintf("%v, on %s and %s", err, c.labelText(x, lx), c.labelText(y, ly))
				}
				cr.EvalErrors++
				holds = false
			}
			switch {
			case holds && len(diffs) > 0:
				cr.Held++
				if cr.Counterexample == nil {
					// The run in which inv a goes first is "inv 1 first" iff x is a.
					aIs := 1
					if x != a {
						aIs = 2
					}
					cx := &Counterexample{
						State:    st.desc,
						Init:     c.initText(),
						Abstract: c.absText(st),
						Inv1:     x.String(),
						Inv2:     y.String(),
						Labels:   fmt.Sprintf("%s and %s (the results of the %s)", c.labelText(x, lx), c.labelText(y, ly), fmt.Sprintf(l.desc, aIs)),
					}
					first, second := c.orderText(1, x, y, x == a, ra1, rb1, ra2, rb2, endAB, endBA), c.orderText(2, y, x, y == a, ra1, rb1, ra2, rb2, endAB, endBA)
					cx.Order12, cx.Order21 = first, second
					for _, d := range diffs {
						cx.Diffs = append(cx.Diffs, d.render(aIs, a, b))
					}
					cr.Counterexample = cx
				}
			case holds:
				cr.Held++
			case len(diffs) == 0:
				cr.Missed++
				if cr.MissedExample == "" {
					where := "the initial state"
					if st.desc != "" {
						where = "the state after " + st.desc
					}
					cr.MissedExample = fmt.Sprintf("%s and %s commute in %s", c.labelText(x, lx), c.labelText(y, ly), where)
				}
			}
		}
	}
}

// orderText describes the run in which x (inv n) goes first.
func (c *checker) orderText(n int, x, y *inv, xIsA bool, ra1, rb1, ra2, rb2 interp.SeqResult, endAB, endBA *state) string {
	rx, ry, end := ra1, rb1, endAB
	if !xIsA {
		rx, ry, end = rb2, ra2, endBA
	}
	s := fmt.Sprintf("inv %d first: %s returns %s, then %s returns %s", n, x, c.res(x, rx), y, c.res(y, ry))
	if end != nil {
		if abs := c.absText(end); abs != "" {
			s += "; then " + abs
		}
	}
	return s
}

func (c *checker) res(v *inv, r interp.SeqResult) string {
	if !r.OK() {
		if r.Msg == "not run" {
			return "nothing (not run: the first call did not return)"
		}
		return "nothing (" + r.Msg + ")"
	}
	if v.f.Result == nil || v.f.Result.Kind == ir.TVoid {
		return "(no result)"
	}
	return fmtIR(r.Ret, v.f.Result)
}

func (c *checker) label(v *inv, r interp.SeqResult, pre *state) commspec.Invocation {
	return commspec.Invocation{Method: v.f.Name, Args: v.args, Ret: r.Ret, State: &absState{c: c, st: pre}}
}

func (c *checker) labelText(v *inv, l commspec.Invocation) string {
	m := v.m
	var parts []string
	for i, p := range m.Params {
		parts = append(parts, p.Name+"="+fmtSpec(l.Args[i], p.Type))
	}
	s := m.Name + "(" + strings.Join(parts, ", ") + ")"
	if m.Result != nil {
		s += "\\" + m.Result.Name + "=" + fmtSpec(l.Ret, m.Result.Type)
	}
	return s
}

func fmtSpec(v int64, t commspec.Type) string {
	if t == commspec.Bool {
		return fmt.Sprint(v != 0)
	}
	return fmt.Sprint(v)
}

// absState evaluates abstraction functions in a state of the search; it
// implements commspec.State.
type absState struct {
	c  *checker
	st *state
}

func (s *absState) Eval(fn string, args []int64) (int64, error) {
	f := s.c.rec.MethodByName(fn)
	if f == nil || f.Kind != ir.FuncAbstraction {
		return 0, fmt.Errorf("%s has no abstraction function %s", s.c.rec.Name, fn)
	}
	return s.c.abs(s.st, &inv{f: f, args: args})
}

// abs returns the value of abstraction call v in st (cached).
func (c *checker) abs(st *state, v *inv) (int64, error) {
	k := v.String()
	if x, ok := st.abs[k]; ok {
		return x, nil
	}
	c.absRun.Restore(st.snap)
	res := c.absRun.Call(v.f, append([]int64{c.obj}, v.args...))
	if !res.OK() {
		return 0, fmt.Errorf("%s: %s", k, res.Msg)
	}
	st.abs[k] = res.Ret
	return res.Ret, nil
}

// absText renders the abstraction functions' values in st.
func (c *checker) absText(st *state) string {
	var parts []string
	for _, v := range c.absCall {
		x, err := c.abs(st, v)
		if err != nil {
			parts = append(parts, v.String()+" fails")
			continue
		}
		parts = append(parts, v.String()+" = "+fmtIR(x, v.f.Result))
	}
	return strings.Join(parts, ", ")
}

// sign computes (once) the signature of st.
func (c *checker) sign(st *state) *signature {
	if st.sig != nil {
		return st.sig
	}
	sig := &signature{}
	if c.opts.Compare != "observe" {
		for _, v := range c.absCall {
			x, err := c.abs(st, v)
			s := fmtIR(x, v.f.Result)
			if err != nil {
				s = "nothing (" + err.Error() + ")"
			}
			sig.abs = append(sig.abs, s)
		}
	}
	if c.opts.Compare != "abstract" {
		for _, v := range c.invs {
			c.run.Restore(st.snap)
			sig.obs = append(sig.obs, c.res(v, c.call(v)))
		}
	}
	st.sig = sig
	return sig
}

// diff is one difference between the two orders of a pair (a, b).
type diff struct {
	kind           int
	what           string // diffAbs, diffObs: the abstraction call or the observing call
	aFirst, bFirst string // the values when a runs first and when b runs first
}

const (
	diffRetA = iota // a's result
	diffRetB        // b's result
	diffAbs         // an abstraction function of the final state
	diffObs         // the result of a later call
)

// render describes d for a counterexample in which a is inv aIs.
func (d diff) render(aIs int, a, b *inv) string {
	whenA := fmt.Sprintf("when inv %d goes first", aIs)
	whenB := fmt.Sprintf("when inv %d goes first", 3-aIs)
	switch d.kind {
	case diffRetA:
		return fmt.Sprintf("inv %d %s returns %s %s but %s %s", aIs, a, d.aFirst, whenA, d.bFirst, whenB)
	case diffRetB:
		return fmt.Sprintf("inv %d %s returns %s %s but %s %s", 3-aIs, b, d.aFirst, whenA, d.bFirst, whenB)
	case diffAbs:
		return fmt.Sprintf("the final abstract state: %s = %s %s but %s %s", d.what, d.aFirst, whenA, d.bFirst, whenB)
	}
	return fmt.Sprintf("a later call tells the final states apart: %s returns %s %s but %s %s", d.what, d.aFirst, whenA, d.bFirst, whenB)
}

// compare lists how the final states x (a first) and y (b first) differ.
func (c *checker) compare(x, y *state) []diff {
	sx, sy := c.sign(x), c.sign(y)
	var diffs []diff
	for i := range sx.abs {
		if sx.abs[i] != sy.abs[i] {
			diffs = append(diffs, diff{kind: diffAbs, what: c.absCall[i].String(), aFirst: sx.abs[i], bFirst: sy.abs[i]})
		}
	}
	for i := range sx.obs {
		if sx.obs[i] != sy.obs[i] {
			diffs = append(diffs, diff{kind: diffObs, what: c.invs[i].String(), aFirst: sx.obs[i], bFirst: sy.obs[i]})
			break // one observation is enough
		}
	}
	return diffs
}

// Write prints the report: one line per condition, then the
// counterexamples and (if verbose) the conditions that could be finer.
func (r *Report) Write(w io.Writer, verbose bool) {
	s := r.Spec
	ints := make([]string, len(r.Ints))
	for i, v := range r.Ints {
		ints[i] = fmt.Sprint(v)
	}
	var over []string
	for k, d := range s.Check.Args {
		vs := make([]string, len(d))
		for i, v := range d {
			vs[i] = fmt.Sprint(v)
		}
		over = append(over, fmt.Sprintf("; %s in {%s}", k, strings.Join(vs, ", ")))
	}
	slices.Sort(over)
	fmt.Fprintf(w, "%s: %s: %d states (call sequences of length <= %d, int arguments in {%s}%s), %d invocations, %d pairs run in both orders (%d do not commute), %s\n",
		s.File, s.Object, r.States, r.Depth, strings.Join(ints, ", "), strings.Join(over, ""), len(r.Invocations), r.Pairs, r.Differ, r.Elapsed.Round(time.Millisecond))
	if r.Truncated {
		fmt.Fprintf(w, "note: the state limit was reached; deeper states were not built\n")
	}
	if r.Stopped != nil {
		fmt.Fprintf(w, "note: stopped early (%s): conditions without a counterexample are unknown, not sound\n", r.StopReason())
	}
	for _, sk := range r.Skipped {
		fmt.Fprintf(w, "note: not used: %s\n", sk)
	}
	if r.Inconclusive > 0 {
		fmt.Fprintf(w, "note: %d pair runs hit a loop or step bound and were skipped\n", r.Inconclusive)
	}
	bad := 0
	for _, cr := range r.Conds {
		c := cr.Cond
		verdict := "sound"
		switch {
		case cr.Counterexample != nil:
			verdict = "UNSOUND"
			bad++
		case cr.EvalErrors > 0:
			verdict = "ERROR"
		case r.Stopped != nil:
			verdict = "unknown"
		}
		derived := ""
		if c.Derived {
			derived = " (derived from " + c.M2.Name + "/" + c.M1.Name + ")"
		}
		fmt.Fprintf(w, "  %-8s %s [%s]%s: %s  (held %d, missed %d", verdict, c.Name(), c.Logic(), derived, c.Source(), cr.Held, cr.Missed)
		if cr.EvalErrors > 0 {
			fmt.Fprintf(w, ", %d evaluation errors", cr.EvalErrors)
		}
		fmt.Fprintln(w, ")")
	}
	for _, cr := range r.Conds {
		cx := cr.Counterexample
		if cx == nil {
			continue
		}
		c := cr.Cond
		fmt.Fprintf(w, "\n%s: the condition of %s is unsound: %s\n", c.Pos, c.Name(), c.Source())
		switch {
		case cx.State == "" && cx.Init == "":
			fmt.Fprintf(w, "  state:  the initial state")
		case cx.State == "":
			fmt.Fprintf(w, "  state:  after %s", cx.Init)
		case cx.Init == "":
			fmt.Fprintf(w, "  state:  after %s", cx.State)
		default:
			fmt.Fprintf(w, "  state:  after %s; %s", cx.Init, cx.State)
		}
		if cx.Abstract != "" {
			fmt.Fprintf(w, " (%s)", cx.Abstract)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  inv 1:  %s\n  inv 2:  %s\n", cx.Inv1, cx.Inv2)
		fmt.Fprintf(w, "  holds:  for %s\n", cx.Labels)
		fmt.Fprintf(w, "  run:    %s\n  run:    %s\n", cx.Order12, cx.Order21)
		for _, d := range cx.Diffs {
			fmt.Fprintf(w, "  differ: %s\n", d)
		}
	}
	failing := 0
	for _, cr := range r.Conds {
		if cr.EvalErrors > 0 {
			failing++
			fmt.Fprintf(w, "\n%s: the condition of %s cannot be evaluated: %s (%d failed evaluations)\n", cr.Cond.Pos, cr.Cond.Name(), cr.EvalError, cr.EvalErrors)
		}
	}
	if verbose {
		for _, cr := range r.Conds {
			if cr.Missed > 0 && cr.Counterexample == nil {
				fmt.Fprintf(w, "\nnote: %s could be finer: %d labelled pairs commute although it says no, e.g. %s\n", cr.Cond.Name(), cr.Missed, cr.MissedExample)
			}
		}
	}
	switch {
	case bad > 0 && failing > 0:
		fmt.Fprintf(w, "\n%d unsound condition(s), %d that cannot be evaluated\n", bad, failing)
	case bad > 0:
		fmt.Fprintf(w, "\n%d unsound condition(s)\n", bad)
	case failing > 0:
		fmt.Fprintf(w, "\n%d condition(s) cannot be evaluated\n", failing)
	case r.Stopped != nil:
		fmt.Fprintf(w, "unknown: %s before every pair was run\n", r.StopReason())
	default:
		fmt.Fprintf(w, "all conditions sound within the bound\n")
	}
}

// StopReason says in words why the check stopped early ("" if it did not).
func (r *Report) StopReason() string {
	switch {
	case r.Stopped == nil:
		return ""
	case errors.Is(r.Stopped, context.DeadlineExceeded):
		return "the time bound was hit"
	case errors.Is(r.Stopped, context.Canceled):
		return "the check was cancelled"
	}
	return r.Stopped.Error()
}
