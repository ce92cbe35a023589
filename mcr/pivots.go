package mcr

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"ncmc/seg"
	"ncmc/smt"
)

// Options configure seed generation.
type Options struct {
	QueryTimeout time.Duration // per SMT query (0: 10s)
	// Scoped, if set, is the NCMC thesis's rule for pivots of reads inside
	// linearizable invocations (thesis.go).
	Scoped ScopedRule
	// Decider selects how queries are decided: "" or "native" (the native
	// decider first, Z3 in a fresh context when it answers unknown) or
	// "z3" (every query to one incremental Z3 solver, as before the
	// native decider existed).
	Decider string
	// NativeBudget bounds the native decider's search nodes per query
	// (0: NativeDecider's default).
	NativeBudget int
	// Compare, if set, is called for every query with the native
	// decider's answer and Z3's (an incremental solver of its own); for
	// differential tests. It costs a Z3 call per query.
	Compare func(q *Query, native, z3 Answer)
}

// Stats count the work of seed generation.
type Stats struct {
	Queries int // feasibility queries asked
	Sat     int
	Unsat   int
	Unknown int
	// Native counts the queries the native decider answered (Sat or Unsat).
	Native int
	// Fallbacks counts the queries the native decider left unknown, passed
	// to Z3.
	Fallbacks int
	// Z3 counts the queries Z3 answered (fallbacks, or every query with
	// Options.Decider "z3").
	Z3         int
	SMTTime    time.Duration // in Z3
	NativeTime time.Duration // in the native decider
}

// Add adds the counts of t to s.
func (s *Stats) Add(t Stats) {
	s.Queries += t.Queries
	s.Sat += t.Sat
	s.Unsat += t.Unsat
	s.Unknown += t.Unknown
	s.Native += t.Native
	s.Fallbacks += t.Fallbacks
	s.Z3 += t.Z3
	s.SMTTime += t.SMTTime
	s.NativeTime += t.NativeTime
}

// Sub returns s minus t (the work done between two snapshots).
func (s Stats) Sub(t Stats) Stats {
	return Stats{Queries: s.Queries - t.Queries, Sat: s.Sat - t.Sat, Unsat: s.Unsat - t.Unsat,
		Unknown: s.Unknown - t.Unknown, Native: s.Native - t.Native, Fallbacks: s.Fallbacks - t.Fallbacks,
		Z3: s.Z3 - t.Z3, SMTTime: s.SMTTime - t.SMTTime, NativeTime: s.NativeTime - t.NativeTime}
}

// Generator produces seeds from traces. It keeps the assertion stack of the
// current pivot and asks its deciders; it is not safe for concurrent use:
// use one per worker.
type Generator struct {
	opts   Options
	native *NativeDecider // nil with Options.Decider "z3"
	z3     *Z3Decider
	cmp    *Z3Decider // Options.Compare's
	b      *smt.Builder
	stack  []smt.Formula
	marks  []int
	hint   []int64
	// last is the model of the last satisfiable query; lastNative says
	// whether the native decider found it.
	last       []int64
	lastNative bool
	Stats      Stats
}

// NewGenerator returns a generator with its own deciders.
func NewGenerator(opts Options) *Generator {
	if opts.QueryTimeout == 0 {
		opts.QueryTimeout = 10 * time.Second
	}
	g := &Generator{opts: opts, z3: &Z3Decider{Timeout: opts.QueryTimeout}}
	if opts.Decider != "z3" {
		g.native = &NativeDecider{Budget: opts.NativeBudget}
		// Fallbacks are rare: a fresh Z3 context each keeps every answer
		// independent of the worker's history (deterministic exploration).
		g.z3.Fresh = true
	}
	return g
}

// Close releases the solver.
func (g *Generator) Close() {
	g.z3.Close()
	if g.cmp != nil {
		g.cmp.Close()
	}
}

func (g *Generator) push() { g.marks = append(g.marks, len(g.stack)) }

func (g *Generator) pop() {
	n := g.marks[len(g.marks)-1]
	g.marks = g.marks[:len(g.marks)-1]
	clear(g.stack[n:])
	g.stack = g.stack[:n]
}

func (g *Generator) assert(f smt.Formula) {
	if !f.IsTrue() {
		g.stack = append(g.stack, f)
	}
}

// reset starts the queries of the trace of a: the must-happen-before
// constraints, and the observed order as the witnesses' hint (steps in
// trace order, a commit drained by a step just before it, commits that
// never happened last).
func (g *Generator) reset(a *analysis) {
	g.b = a.b
	g.stack, g.marks = g.stack[:0], g.marks[:0]
	g.hint = make([]int64, len(a.o))
	for i := range a.o {
		switch {
		case i < a.n:
			g.hint[a.o[i]] = int64(2*i + 1)
		case a.drainT[i] >= 0:
			g.hint[a.o[i]] = int64(2 * a.drainT[i])
		default:
			g.hint[a.o[i]] = int64(2*a.n + 2 + i)
		}
	}
	g.assert(a.mhb())
}

// Seeds returns the seeds of every pivot of tr. If ctx is cancelled or its
// deadline passes (also inside a solver query), the error is
// context.Canceled or context.DeadlineExceeded (errors.Is); other errors are
// failures of the solver (a query timeout of Options.QueryTimeout, Z3
// giving up or failing).
func (g *Generator) Seeds(ctx context.Context, tr *Trace) (_ []Seed, err error) {
	a, err := g.analyse(tr)
	if err != nil {
		return nil, err
	}
	a.ctx = ctx
	defer func() {
		if r := recover(); r != nil {
			in, ok := r.(interrupted)
			if !ok {
				panic(r)
			}
			err = in.err
		}
	}()
	a.mi = newMHBIndex(a)
	a.mi.relaxed = tr.Model != SC
	g.reset(a)
	var seeds []Seed
	seen := map[string]bool{}
	add := func(sd Seed) {
		k := sd.FrozenKey()
		sd.fkey = k
		if !seen[k] {
			seen[k] = true
			seeds = append(seeds, sd)
		}
	}

	// 1. Reads after the frozen prefix: each other value.
	for _, r := range a.reads {
		if r < tr.Frozen {
			continue
		}
		if err := ctx.Err(); err != nil {
			return seeds, err // building a large query checks ctx too (analysis.checkCtx)
		}
		for _, end := range a.pivotEnds(r) {
			if err := g.readPivots(ctx, a, r, end, add); err != nil {
				return seeds, err
			}
		}
	}

	// 2. Final values of observed locations.
	if tr.Complete {
		if err := g.finalPivots(ctx, a, add); err != nil {
			return seeds, err
		}
	}

	// 3. Lock-order deadlocks between two threads.
	if err := g.deadlockPivots(ctx, a, add); err != nil {
		return seeds, err
	}

	// 3b. Threads left waiting for a mutex that another thread never
	// released: they take it first.
	if err := g.waiterPivots(ctx, a, add); err != nil {
		return seeds, err
	}

	// 4. Nondeterministic choices: no solving, the observed order is a model.
	g.choicePivots(a, add)
	return seeds, nil
}

// readPivots adds the seeds of the pivots of read r (each other value, and
// the same value from another source), with r's atomic section ending as
// end says.
func (g *Generator) readPivots(ctx context.Context, a *analysis, r int, end secEnd, add func(Seed)) error {
	var vals []int64
	var srcs []int
	var dropped []smt.Formula // pivots the prefilter drops, checked with Options.Compare
	if a.mi != nil {
		vals, srcs = a.mi.candidateValues(r), a.mi.sameValueSources(r)
		if g.opts.Compare != nil {
			for _, v := range a.candidateValues(r) {
				if !slices.Contains(vals, v) {
					dropped = append(dropped, a.validFor(r, v))
				}
			}
			for _, w := range a.sameValueSources(r) {
				if !slices.Contains(srcs, w) {
					dropped = append(dropped, a.readsFrom(r, w))
				}
			}
		}
	} else {
		vals, srcs = a.candidateValues(r), a.sameValueSources(r)
	}
	if len(vals)+len(srcs)+len(dropped) == 0 {
		return nil
	}
	g.push()
	defer g.pop()
	pf, c := a.pivotPrefix(r, end)
	g.assert(pf)
	for _, f := range dropped {
		if err := g.checkDropped(ctx, f); err != nil {
			return err
		}
	}
	why := func(v int64) string {
		w := fmt.Sprintf("step %d (%s) reads %d", r, a.tr.G.Label(a.ev[r]), v)
		switch end {
		case secOpen:
			w += " (atomic section open)"
		case secAtPivot:
			w += " (atomic section ends)"
		}
		return w
	}
	for k := range len(vals) + len(srcs) {
		var v int64
		var f smt.Formula
		if k < len(vals) {
			v = vals[k]
			f = a.validFor(r, v)
		} else {
			// The same value from another write (or the initial value): the
			// value-based pivots alone cannot move r before (or after) a
			// write it read from in this execution.
			v = a.ev[r].RVal
			f = a.readsFrom(r, srcs[k-len(vals)])
		}
		nv := a.b.True() // the other reads of r's location, with r's new write
		if a.rewrites(r) {
			nv = a.afterPivot(c, r, v)
			f = a.b.And(f, nv)
		}
		if g.opts.Scoped != nil {
			sf, ok := g.scopedRule(a, r, k, vals, srcs)
			if !ok {
				continue
			}
			f = a.b.And(f, sf)
		}
		ok, err := g.valuePivot(ctx, a, r, v, f, end, why(v), add)
		if err != nil {
			return err
		}
		if k < len(vals) && ok && g.opts.Scoped == nil {
			if err := g.sourcePivots(ctx, a, r, vals[k], nv, end, why(vals[k]), add); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDropped asks Z3 a pivot query f that the prefilter answered UNSAT
// without asking, and reports both answers to Options.Compare.
func (g *Generator) checkDropped(ctx context.Context, f smt.Formula) error {
	g.push()
	defer g.pop()
	g.assert(f)
	q := &Query{Builder: g.b, Assertions: g.stack, Hint: g.hint}
	if g.cmp == nil {
		g.cmp = &Z3Decider{Timeout: g.opts.QueryTimeout}
	}
	za, err := g.cmp.Decide(ctx, q)
	if err != nil {
		return err
	}
	g.opts.Compare(q, Answer{Verdict: Unsat, Prefilter: true}, za)
	return nil
}

// valuePivot solves the pivot "r reads v" given by formula f (on top of the
// asserted pivot prefix) and adds its seeds: the minimal one and, if it
// freezes more, the one that keeps the observed order before r. It reports
// whether the pivot is satisfiable.
func (g *Generator) valuePivot(ctx context.Context, a *analysis, r int, v int64, f smt.Formula, end secEnd, why string, add func(Seed)) (bool, error) {
	g.push()
	defer g.pop()
	g.assert(f)
	ok, err := g.check(ctx)
	if err != nil || !ok {
		return false, err
	}
	sd := a.seed(g.model(a), []int{r}, r, v, end)
	sd.Native = g.lastNative
	sd.Why = why
	add(sd)
	// Also a seed that keeps as much of the observed order before r as
	// possible: the minimal seed leaves unrelated steps to the default
	// scheduler, which may run them later than every interleaving with
	// r = v that needs them early.
	if !a.mayKeepMore(sd, r) {
		return true, nil
	}
	pref, err := g.preferObserved(ctx, a, r)
	if err != nil {
		return true, err
	}
	if pref != nil {
		keep := a.seed(pref, append([]int{r}, a.observedBefore(pref, r)...), r, v, end)
		keep.Native = g.lastNative
		keep.Why = why + " (observed order kept)"
		if a.material(sd, keep) {
			add(keep)
		}
	}
	return true, nil
}

// sourcePivots adds, for a satisfiable pivot "r reads v", one seed per
// source of v (the initial value, or a write of v) that r can read from:
// the value-based query lets the model pick the source, and the seed then
// freezes that source and whatever it needs, which other executions with
// r = v may not contain (seed 1635 under other Z3 random seeds). nv (true if
// r does not rewrite) is the validity of the other reads with r's new write (afterPivot). Not with
// Options.Scoped (the thesis rule decides about pivots itself).
func (g *Generator) sourcePivots(ctx context.Context, a *analysis, r int, v int64, nv smt.Formula, end secEnd, why string, add func(Seed)) error {
	loc := a.ev[r].Loc
	var ws []int
	if a.tr.G.InitVal[loc] == v {
		ws = append(ws, -1)
	}
	for _, w := range a.writes[loc] {
		if w != r && a.ev[w].WVal == v {
			ws = append(ws, w)
		}
	}
	if len(ws) < 2 {
		return nil
	}
	for _, w := range ws {
		g.push()
		g.assert(a.readsFrom(r, w))
		g.assert(nv)
		ok, err := g.check(ctx)
		if err != nil {
			g.pop()
			return err
		}
		if ok {
			sd := a.seed(g.model(a), []int{r}, r, v, end)
			sd.Native = g.lastNative
			sd.Native = g.lastNative
			sd.Why = fmt.Sprintf("%s from %s", why, a.srcName(w))
			add(sd)
		}
		g.pop()
	}
	return nil
}

func (a *analysis) srcName(w int) string {
	if w < 0 {
		return "the initial value"
	}
	return fmt.Sprintf("step %d", w)
}

// preferObserved extends the satisfiable pivot query of read r (asserted,
// its model the last one found) with, thread by thread, the longest
// program-order prefix of the steps the thread took before r in the
// observed execution that can still precede r, and returns a model of the
// extended query (nil if the query is not satisfiable). A prefix that a
// model at hand already places before r is feasible without asking; the
// search then asks the next longer prefix first (a witness that follows the
// observed order usually places every feasible step), then halves.
func (g *Generator) preferObserved(ctx context.Context, a *analysis, r int) ([]int64, error) {
	if g.last == nil {
		return nil, nil
	}
	model, native := slices.Clone(g.last), g.lastNative
	g.push()
	defer g.pop()
	rt := a.tr.Steps[r].T
	for _, t := range sortedKeys(a.thr) {
		if t == rt {
			continue
		}
		var cand []int
		for _, i := range a.thr[t] {
			if i < r {
				cand = append(cand, i)
			}
		}
		// placed is the longest prefix of cand that model puts before r.
		placed := func(from int) int {
			k := from
			for k < len(cand) && model[a.o[cand[k]]] < model[a.o[r]] {
				k++
			}
			return k
		}
		lo, hi := placed(0), len(cand)
		next := true // ask lo+1 first
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if next {
				mid = lo + 1
				next = false
			}
			g.push()
			g.assert(a.lt(cand[mid-1], r))
			ok, err := g.check(ctx)
			g.pop()
			if err != nil {
				return nil, err
			}
			if ok {
				model, native = slices.Clone(g.last), g.lastNative
				lo = placed(mid)
			} else {
				hi = mid - 1
			}
		}
		if lo > 0 {
			g.assert(a.lt(cand[lo-1], r))
		}
	}
	// model satisfies every assertion: the pivot query's, and each
	// thread's prefix (placed by model itself or by the check that found it).
	g.lastNative = native
	m := make([]int64, len(a.o))
	for i, v := range a.o {
		m[i] = model[v]
	}
	return m, nil
}

// mayKeepMore reports whether some other thread took, before r in the
// observed execution, a memory access or lock operation that the minimal
// seed min leaves out: only then can keeping the observed order matter.
func (a *analysis) mayKeepMore(min Seed, r int) bool {
	in := map[seg.EventID]bool{}
	for _, st := range min.Steps {
		if !st.Flush {
			in[st.Event] = true
		}
	}
	rt := a.tr.Steps[r].T
	for i := 0; i < r; i++ {
		st := a.tr.Steps[i]
		if st.T == rt || st.Flush || in[st.Event] || a.ev[i] == nil {
			continue
		}
		switch a.ev[i].Kind {
		case seg.KRead, seg.KWrite, seg.KRMW, seg.KLock, seg.KUnlock:
			return true
		}
	}
	return false
}

// material reports whether seed keep freezes some memory access or lock
// operation that seed min does not: otherwise both lead to the same
// execution, up to steps (spawns, joins, fences) that no pivot depends on.
func (a *analysis) material(min, keep Seed) bool {
	type key struct {
		t  int32
		id seg.EventID
		fl bool
	}
	in := map[key]bool{}
	for _, st := range min.Steps {
		in[key{st.T, st.Event, st.Flush}] = true
	}
	for i, st := range keep.Steps {
		if in[key{st.T, st.Event, st.Flush}] {
			continue
		}
		if st.Flush {
			return true
		}
		switch keep.Expect[i].Kind {
		case seg.KRead, seg.KWrite, seg.KRMW, seg.KLock, seg.KUnlock:
			if keep.Expect[i].HasEvent {
				return true
			}
		}
	}
	return false
}

// observedBefore lists the steps that precede r in the model.
func (a *analysis) observedBefore(model []int64, r int) []int {
	var roots []int
	for i := 0; i < a.n; i++ {
		if model[i] < model[r] {
			roots = append(roots, i)
		}
	}
	return roots
}

// sameValueSources lists the other sources of r's value: the writes of the
// same value other than the one r read from, and -1 for the initial value if
// r did not read it.
func (a *analysis) sameValueSources(r int) []int {
	ev := a.ev[r]
	var srcs []int
	if !ev.RF.IsInit() && a.tr.G.InitVal[ev.Loc] == ev.RVal {
		srcs = append(srcs, -1)
	}
	for _, w := range a.writes[ev.Loc] {
		if w != r && a.ev[w].WVal == ev.RVal && a.ev[w].ID != ev.RF {
			srcs = append(srcs, w)
		}
	}
	return srcs
}

func (a *analysis) candidateValues(r int) []int64 {
	ev := a.ev[r]
	seen := map[int64]bool{ev.RVal: true}
	var vals []int64
	if iv := a.tr.G.InitVal[ev.Loc]; !seen[iv] {
		seen[iv] = true
		vals = append(vals, iv)
	}
	for _, w := range a.writes[ev.Loc] {
		if v := a.ev[w].WVal; w != r && !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return vals
}

func (g *Generator) check(ctx context.Context) (bool, error) {
	q := &Query{Builder: g.b, Assertions: g.stack, Hint: g.hint}
	g.Stats.Queries++
	g.last, g.lastNative = nil, false
	var ans Answer
	if g.native != nil {
		t0 := time.Now()
		var err error
		ans, err = g.native.Decide(ctx, q)
		g.Stats.NativeTime += time.Since(t0)
		if err != nil {
			return false, err // interrupted
		}
		if g.opts.Compare != nil {
			if g.cmp == nil {
				g.cmp = &Z3Decider{Timeout: g.opts.QueryTimeout}
			}
			za, err := g.cmp.Decide(ctx, q)
			if err != nil {
				return false, err
			}
			g.opts.Compare(q, ans, za)
		}
		if ans.Verdict != Unknown {
			g.Stats.Native++
			g.lastNative = true
		} else {
			g.Stats.Fallbacks++
		}
	}
	if ans.Verdict == Unknown {
		t0 := time.Now()
		var err error
		ans, err = g.z3.Decide(ctx, q)
		g.Stats.SMTTime += time.Since(t0)
		g.Stats.Z3++
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				// The solver's timeout was shortened to ctx's deadline and
				// expired a moment before ctx itself reports it: an
				// interruption, not a failure of the solver.
				return false, err
			}
			g.Stats.Unknown++
			return false, fmt.Errorf("mcr: solver gave up: %w", err)
		}
	}
	switch ans.Verdict {
	case Sat:
		g.Stats.Sat++
		g.last = ans.Model
		return true, nil
	case Unsat:
		g.Stats.Unsat++
		return false, nil
	}
	g.Stats.Unknown++
	return false, fmt.Errorf("mcr: solver answered unknown")
}

// model returns the position of every step and commit item in the model of
// the last satisfiable query.
func (g *Generator) model(a *analysis) []int64 {
	m := make([]int64, len(a.o))
	for i, v := range a.o {
		m[i] = g.last[v]
	}
	return m
}

// value is v's position in the model of the last satisfiable query.
func (g *Generator) value(v smt.Var) int64 { return g.last[v] }

func (g *Generator) finalPivots(ctx context.Context, a *analysis, add func(Seed)) error {
	n := len(a.o)
	var pinned []smt.Formula
	for _, loc := range sortedKeys(a.tr.FrozenFinals) {
		v := a.tr.FrozenFinals[loc]
		pinned = append(pinned, a.finalIs(loc, v))
	}
	for _, loc := range a.tr.FinalLocs {
		if _, ok := a.tr.FrozenFinals[loc]; ok {
			continue
		}
		ws := a.writes[loc]
		if len(ws) == 0 {
			continue
		}
		last := ws[0]
		for _, w := range ws {
			if a.visStep(w) > a.visStep(last) {
				last = w
			}
		}
		final := a.ev[last].WVal
		seen := map[int64]bool{final: true}
		var possible map[int64]bool
		if a.mi != nil {
			possible = a.mi.finalValues(loc)
		}
		for _, w := range ws {
			v := a.ev[w].WVal
			if seen[v] {
				continue
			}
			seen[v] = true
			if possible != nil && !possible[v] {
				continue // a write of another value must follow every write of v
			}
			g.push()
			// Everything is in the prefix: a cutoff after every step.
			end := a.b.NewVar("END")
			var after []smt.Formula
			for i := 0; i < n; i++ {
				after = append(after, a.b.Lt(a.o[i], end))
			}
			g.assert(a.b.And(after...))
			g.assert(a.prefixConstraints(cutoff{end}, -1, secObserved))
			g.assert(a.b.And(pinned...))
			g.assert(a.finalIs(loc, v))
			ok, err := g.check(ctx)
			if err != nil {
				g.pop()
				return err
			}
			if ok {
				all := make([]int, n)
				for i := range all {
					all[i] = i
				}
				sd := a.seed(g.model(a), all, -1, 0, secObserved)
				sd.Native = g.lastNative
				sd.Finals = map[int64]int64{loc: v}
				for _, l := range sortedKeys(a.tr.FrozenFinals) {
					fv := a.tr.FrozenFinals[l]
					sd.Finals[l] = fv
				}
				sd.Why = fmt.Sprintf("final value of %s is %d", a.tr.G.Loc(loc), v)
				add(sd)
			}
			g.pop()
		}
	}
	return nil
}

// holdRequest: thread t holds mutex held (pair p) and requests mutex want at step req.
type holdRequest struct {
	t         int32
	lock      int
	held      int64
	req       int
	want      int64
	beforeReq int
}

func (g *Generator) deadlockPivots(ctx context.Context, a *analysis, add func(Seed)) error {
	var hrs []holdRequest
	for _, p := range a.pairs {
		steps := a.thr[p.t]
		for k := a.posInT[p.a] + 1; k < len(steps); k++ {
			i := steps[k]
			if p.b >= 0 && i >= p.b {
				break
			}
			if e := a.ev[i]; e != nil && e.Kind == seg.KLock && e.Loc != p.mutex && i >= a.tr.Frozen {
				hrs = append(hrs, holdRequest{t: p.t, lock: p.a, held: p.mutex, req: i, want: e.Loc, beforeReq: steps[k-1]})
			}
		}
	}
	for x, h1 := range hrs {
		for _, h2 := range hrs[x+1:] {
			if h1.t == h2.t || h1.held != h2.want || h2.held != h1.want {
				continue
			}
			c := cutoff{a.b.NewVar("CUT")}
			fs := []smt.Formula{a.b.Lt(a.o[h1.beforeReq], c.v), a.b.Lt(a.o[h2.beforeReq], c.v),
				a.after(c, h1.req), a.after(c, h2.req)}
			err := g.solvePrefix(ctx, a, c, fs, func() {
				sd := a.seed(g.model(a), []int{h1.beforeReq, h2.beforeReq}, -1, 0, secObserved)
				sd.Native = g.lastNative
				sd.Why = fmt.Sprintf("deadlock: t%d holds %s and requests %s, t%d the reverse", h1.t, a.tr.G.Loc(h1.held), a.tr.G.Loc(h1.want), h2.t)
				add(sd)
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// solvePrefix asks whether fs and the prefix constraints of cutoff c are
// satisfiable and, if so, calls found while the model is available.
func (g *Generator) solvePrefix(ctx context.Context, a *analysis, c cutoff, fs []smt.Formula, found func()) error {
	g.push()
	defer g.pop()
	g.assert(a.b.And(fs...))
	g.assert(a.prefixConstraints(c, -1, secObserved))
	ok, err := g.check(ctx)
	if err == nil && ok {
		found()
	}
	return err
}

// waiterPivots: in an execution that ends with thread W waiting for mutex m
// held by a thread H that never releases it (H blocked for good: a failed
// await, a deadlock), W's request is not a step of the trace, so no read
// pivot lets W acquire m before H (seed 5998 of the differential test:
// H's section awaits a value that only W's section writes). For each such
// W and H, if H's acquisition is not frozen, a seed runs W's observed steps
// with H's acquisition after the cutoff and every other section on m in the
// prefix closed, then W's acquisition.
func (g *Generator) waiterPivots(ctx context.Context, a *analysis, add func(Seed)) error {
	for _, w := range a.tr.Waiting {
		for _, h := range a.pairs {
			if h.mutex != w.Mutex || h.b >= 0 || h.t == w.T || h.a < a.tr.Frozen {
				continue
			}
			c := cutoff{a.b.NewVar("CUTW")}
			fs := []smt.Formula{a.after(c, h.a)}
			var roots []int
			if steps := a.thr[w.T]; len(steps) > 0 {
				last := steps[len(steps)-1]
				fs = append(fs, a.b.Lt(a.o[last], c.v))
				roots = append(roots, last)
			} else if sp, ok := a.spawn[w.T]; ok {
				fs = append(fs, a.b.Lt(a.o[sp], c.v))
				roots = append(roots, sp)
			}
			for _, q := range a.pairs {
				if q.mutex != w.Mutex || q.a == h.a {
					continue
				}
				alts := []smt.Formula{a.after(c, q.a)}
				if q.b >= 0 {
					alts = append(alts, a.b.Lt(a.o[q.b], c.v))
				}
				fs = append(fs, a.b.Or(alts...))
			}
			err := g.solvePrefix(ctx, a, c, fs, func() {
				model := g.model(a)
				// Every section on m before the cutoff is closed in the
				// seed, so that W can acquire m after it.
				cut := g.value(c.v)
				for _, q := range a.pairs {
					if q.mutex == w.Mutex && q.b >= 0 && model[q.b] < cut {
						roots = append(roots, q.b)
					}
				}
				sd := a.seed(model, roots, -1, 0, secObserved)
				sd.Native = g.lastNative
				sd.Steps = append(sd.Steps, Step{T: w.T})
				sd.Expect = append(sd.Expect, w.Lock)
				sd.Why = fmt.Sprintf("t%d acquires %s before t%d", w.T, a.tr.G.Loc(w.Mutex), h.t)
				add(sd)
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *Generator) choicePivots(a *analysis, add func(Seed)) {
	// The observed order is a model: steps at 2i+1, commits inside a step
	// just before it, commits that never happened last.
	identity := make([]int64, len(a.o))
	for i := range identity {
		if i < a.n {
			identity[i] = int64(2*i + 1)
		} else if d := a.drainT[i]; d >= 0 {
			identity[i] = int64(2 * d)
		} else {
			identity[i] = int64(2*a.n + 2 + i)
		}
	}
	count := map[int32]int{}
	for _, c := range a.tr.Choices {
		idx := count[c.T]
		count[c.T]++
		if idx < a.tr.FrozenChoices[c.T] {
			continue
		}
		var roots []int
		if c.Step >= 0 {
			roots = append(roots, c.Step)
		}
		base := a.seed(identity, roots, -1, 0, secObserved)
		for k := 0; k < c.N; k++ {
			if k == c.K {
				continue
			}
			sd := base
			sd.Choices = map[int32][]int{}
			for t, ks := range base.Choices {
				sd.Choices[t] = append([]int(nil), ks...)
			}
			ks := sd.Choices[c.T]
			if idx < len(ks) {
				ks = ks[:idx]
			}
			for len(ks) < idx {
				ks = append(ks, 0) // cannot happen: earlier choices of the thread are included
			}
			sd.Choices[c.T] = append(ks, k)
			sd.Why = fmt.Sprintf("choice %d of t%d is %d", idx, c.T, k)
			add(sd)
		}
	}
}
