// Package vmcrz3 decides the vmcr explorer's witness-search queries
// (vmcr.Query) with the Z3 SMT solver, through package smt: the second
// implementation of vmcr's feasibility decider, asked when the native
// search exceeds its budget (vmcr.Options.Oracle), and the oracle the
// native search is tested against (TestVMCROracle in explore/vmcrx).
//
// # Encoding
//
// Every step s a thread may take gets an order variable o(s), and one more
// variable E marks the end of the schedule: s is taken iff o(s) < E. All
// constraints are Boolean combinations of atoms a < b over these variables
// (smt's QF_IDL fragment; a model sorted by value is a schedule):
//
//   - program order: o(t,i) < o(t,i+1), so the taken steps of a thread are
//     a prefix; Need: o(t,Need-1) < E;
//   - a Blocked step is not taken: E < o(s);
//   - the first step of a spawned thread follows its spawn step, a step
//     follows its After steps, a join follows the last step of the joined
//     thread: taken(s) implies o(a) < o(s) (a step beyond a thread's steps
//     is never taken, so s is not either);
//   - a taken constrained read r reads a write of Accept. With Own (store
//     forwarding): if Own is not taken before r, r reads Own; else r reads
//     memory. It reads write w from memory iff o(w) < o(r) and no other
//     writing step v of r's location lies between (o(v) < o(w) or
//     o(r) < o(v)); it reads Init iff every writing step follows it;
//   - a Final holds iff some w of Accept is taken and every other writing
//     step of its location is before w or not taken (Init: none taken);
//   - with Fail, the failing step F is taken and every other step is
//     before F or not taken (o(s) < o(F) or E < o(s)).
package vmcrz3

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"ncmc/explore/vmcr"
	"ncmc/smt"
)

// DefaultTimeout bounds one Z3 check when Options.Timeout is 0.
const DefaultTimeout = 10 * time.Second

// Options configure an Oracle.
type Options struct {
	// Timeout bounds each Z3 check (0: DefaultTimeout); the context's
	// deadline and cancellation bound it too.
	Timeout time.Duration
	// DisableFastPath sends every query to Z3, even one whose constraints
	// are a conjunction of atoms (smt decides those by a topological
	// sort): tests compare the native search with Z3 itself.
	DisableFastPath bool
}

// Oracle is a vmcr.Oracle backed by Z3. It is safe for concurrent use:
// each Decide takes a solver (one Z3 context) from a pool.
type Oracle struct {
	opts Options
	mu   sync.Mutex
	free []*smt.Solver
	st   Stats
}

// Stats count an Oracle's answers.
type Stats struct {
	Queries, Sat, Unsat, Unknown int
}

// New returns an Oracle.
func New(opts Options) *Oracle {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Oracle{opts: opts}
}

// Close releases the pooled Z3 contexts.
func (o *Oracle) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, s := range o.free {
		s.Close()
	}
	o.free = nil
}

// Stats returns the answers so far.
func (o *Oracle) Stats() Stats {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.st
}

func (o *Oracle) get() *smt.Solver {
	o.mu.Lock()
	defer o.mu.Unlock()
	if n := len(o.free); n > 0 {
		s := o.free[n-1]
		o.free = o.free[:n-1]
		return s
	}
	return smt.New(smt.Options{Timeout: o.opts.Timeout, DisableFastPath: o.opts.DisableFastPath, ValidateModels: true})
}

func (o *Oracle) put(s *smt.Solver, v vmcr.Verdict) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.free = append(o.free, s)
	o.st.Queries++
	switch v {
	case vmcr.Sat:
		o.st.Sat++
	case vmcr.Unsat:
		o.st.Unsat++
	default:
		o.st.Unknown++
	}
}

// Decide answers q with Z3 (vmcr.Oracle). Z3's unknown answers (timeout,
// resource limit) are Unknown with a nil error; the end of ctx is
// ctx.Err().
func (o *Oracle) Decide(ctx context.Context, q *vmcr.Query) (vmcr.Verdict, []int32, error) {
	s := o.get()
	v := vmcr.Unknown
	defer func() { o.put(s, v) }()
	s.Reset()
	enc, err := Encode(ctx, s.Builder, q)
	if err != nil {
		return vmcr.Unknown, nil, err
	}
	s.Assert(enc.F)
	res, err := s.Check(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		return vmcr.Unknown, nil, ctx.Err()
	case res == smt.Unsat:
		v = vmcr.Unsat
		return v, nil, nil
	case res == smt.Sat:
		v = vmcr.Sat
		return v, enc.Schedule(s), nil
	}
	var ue *smt.UnknownError
	if err == nil || errors.As(err, &ue) {
		return vmcr.Unknown, nil, nil
	}
	return vmcr.Unknown, nil, err
}

// Encoding is a Query's formula and its variables.
type Encoding struct {
	F    smt.Formula
	Vars [][]smt.Var // Vars[t][i]: the order variable of step (t, i)
	End  smt.Var     // the end of the schedule
}

// Schedule returns the schedule of solver s's model of e.F: the taken
// steps (before End) by their values, as thread numbers.
func (e *Encoding) Schedule(s *smt.Solver) []int32 {
	all := []smt.Var{e.End}
	owner := map[smt.Var]int32{}
	for t, vs := range e.Vars {
		for _, v := range vs {
			all = append(all, v)
			owner[v] = int32(t)
		}
	}
	var sched []int32
	for _, v := range s.Order(all) {
		if v == e.End {
			break
		}
		sched = append(sched, owner[v])
	}
	return sched
}

// Encode returns q's formula over fresh variables of b (the package
// documentation describes it). It checks ctx now and then, since large
// queries take a while.
func Encode(ctx context.Context, b *smt.Builder, q *vmcr.Query) (*Encoding, error) {
	e := &Encoding{Vars: make([][]smt.Var, len(q.Threads)), End: b.NewVar("end")}
	for t := range q.Threads {
		e.Vars[t] = make([]smt.Var, len(q.Threads[t].Steps))
		for i := range e.Vars[t] {
			e.Vars[t][i] = b.NewVar(fmt.Sprintf("t%d.%d", t, i))
		}
	}
	end := e.End
	// v(r): the variable of step r, ok false if r is no step of q.
	v := func(r vmcr.Ref) (smt.Var, bool) {
		if r.T < 0 || int(r.T) >= len(e.Vars) || r.I < 0 || int(r.I) >= len(e.Vars[r.T]) {
			return 0, false
		}
		return e.Vars[r.T][r.I], true
	}
	notTaken := func(x smt.Var) smt.Formula { return b.Lt(end, x) }
	// before(a, x): x not taken, or a taken before it.
	before := func(a vmcr.Ref, x smt.Var) smt.Formula {
		va, ok := v(a)
		if !ok {
			return notTaken(x)
		}
		return b.Or(notTaken(x), b.Lt(va, x))
	}
	// writers[l]: the writing steps of location l.
	writers := make([][]vmcr.Ref, q.Locs)
	for t := range q.Threads {
		for i, st := range q.Threads[t].Steps {
			if st.Write && !st.Blocked {
				writers[st.Loc] = append(writers[st.Loc], vmcr.Ref{T: int32(t), I: int32(i)})
			}
		}
	}
	var fs []smt.Formula
	add := func(f smt.Formula) { fs = append(fs, f) }
	for t := range q.Threads {
		th := &q.Threads[t]
		vs := e.Vars[t]
		if th.Need > len(vs) {
			return &Encoding{F: b.False(), Vars: e.Vars, End: end}, nil
		}
		if th.Need > 0 {
			add(b.Lt(vs[th.Need-1], end))
		}
		for i := 1; i < len(vs); i++ {
			add(b.Lt(vs[i-1], vs[i]))
		}
		if len(vs) > 0 && th.Spawn.T >= 0 {
			add(before(th.Spawn, vs[0]))
		}
		for i := range th.Steps {
			if i&255 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			st := &th.Steps[i]
			x := vs[i]
			if st.Blocked {
				add(notTaken(x))
				continue
			}
			for _, a := range st.After {
				if a.T >= 0 {
					add(before(a, x))
				}
			}
			if st.Join >= 0 {
				if int(st.Join) >= len(q.Threads) {
					add(notTaken(x))
				} else if n := len(q.Threads[st.Join].Steps); n > 0 {
					add(before(vmcr.Ref{T: st.Join, I: int32(n - 1)}, x))
				}
			}
			if st.Read {
				add(b.Or(notTaken(x), readsOne(b, v, writers[st.Loc], vmcr.Ref{T: int32(t), I: int32(i)}, st)))
			}
		}
	}
	for _, f := range q.Finals {
		var alts []smt.Formula
		for _, w := range f.Accept {
			alts = append(alts, lastBefore(b, v, writers[f.Loc], w, end, w)) // w last at the end
		}
		add(b.Or(alts...))
	}
	if q.Fail >= 0 {
		if q.Fail >= len(e.Vars) || len(e.Vars[q.Fail]) == 0 {
			return &Encoding{F: b.False(), Vars: e.Vars, End: end}, nil
		}
		vs := e.Vars[q.Fail]
		f := vs[len(vs)-1]
		add(b.Lt(f, end))
		for t := range e.Vars {
			for _, x := range e.Vars[t] {
				if x != f {
					add(b.Or(b.Lt(x, f), notTaken(x)))
				}
			}
		}
	}
	e.F = b.And(fs...)
	return e, nil
}

// readsOne is the condition that taken read r (step st) reads one of its
// accepted writes; ws are the writing steps of its location.
func readsOne(b *smt.Builder, v func(vmcr.Ref) (smt.Var, bool), ws []vmcr.Ref, r vmcr.Ref, st *vmcr.QStep) smt.Formula {
	x, _ := v(r)
	var mem []smt.Formula // reads Accept[k] from memory
	for _, w := range st.Accept {
		mem = append(mem, lastBefore(b, v, ws, r, x, w))
	}
	fromMem := b.Or(mem...)
	if !st.HasOwn {
		return fromMem
	}
	// Own taken before r: r reads memory; else r reads Own.
	ownBefore := b.False()
	if vo, ok := v(st.Own); ok {
		ownBefore = b.Lt(vo, x)
	}
	if slices.Contains(st.Accept, st.Own) {
		return b.Or(b.Not(ownBefore), b.And(ownBefore, fromMem))
	}
	return b.And(ownBefore, fromMem)
}

// lastBefore is the condition that w is the last writing step of ws
// before x (r's variable, or the end of the schedule) (w Init: no writing
// step is before x); r itself is not counted.
func lastBefore(b *smt.Builder, v func(vmcr.Ref) (smt.Var, bool), ws []vmcr.Ref, r vmcr.Ref, x smt.Var, w vmcr.Ref) smt.Formula {
	var cs []smt.Formula
	vw, ok := v(w)
	if w.T >= 0 {
		if !ok || !slices.Contains(ws, w) {
			return b.False()
		}
		cs = append(cs, b.Lt(vw, x))
	}
	for _, u := range ws {
		if u == w || u == r {
			continue
		}
		vu, _ := v(u)
		if w.T >= 0 {
			cs = append(cs, b.Or(b.Lt(vu, vw), b.Lt(x, vu)))
		} else {
			cs = append(cs, b.Lt(x, vu))
		}
	}
	return b.And(cs...)
}
