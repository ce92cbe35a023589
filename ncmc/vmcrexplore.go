package ncmc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"

	"ncmc/explore/vmcr"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// The glue between the interpreter and the value-optimal explorer of
// package explore/vmcr: a Runner that runs a witness and turns the
// execution into a vmcr.Trace, and exploreVMCR, which reports the
// explorer's executions to a collector.

// vmcrUnsupported says why the vmcr explorer cannot handle prog under
// opts, or "".
func vmcrUnsupported(prog *ir.Program, opts Options) string {
	if opts.Model != "sc" {
		return fmt.Sprintf("vmcr supports the sc model only (asked: %s)", opts.Model)
	}
	for _, f := range prog.Funcs {
		if f.Kind == ir.FuncLinearizable {
			return "vmcr does not support linearizable methods"
		}
		for i := range f.Body {
			switch f.Body[i].Op {
			case ir.IWait, ir.ISignal, ir.IBroadcast:
				return fmt.Sprintf("vmcr does not support condition variables yet (%s at %s)", f.Body[i].Op, f.Body[i].Pos)
			case ir.IAtomicBegin:
				return fmt.Sprintf("vmcr does not support atomic blocks yet (at %s)", f.Body[i].Pos)
			case ir.IFree:
				return fmt.Sprintf("vmcr does not support free (at %s)", f.Body[i].Pos)
			}
		}
	}
	return ""
}

// vmcrRunner runs witnesses on the interpreter.
type vmcrRunner struct {
	prog    *ir.Program
	names   *interp.Names
	cfg     interp.Config
	trylock map[ir.Pos]bool // positions of trylock instructions
}

// vmcrRun is the runner's payload of a trace: the execution and the
// witness it ran.
type vmcrRun struct {
	x *interp.Execution
	w *vmcr.Witness
}

// seqChooser hands out per-thread choice sequences (0 beyond them).
type seqChooser struct {
	seq  map[int32][]int
	used []int // per thread: choices made
}

func (c *seqChooser) Choose(t int32, kind interp.ChoiceKind, n int) int {
	for int(t) >= len(c.used) {
		c.used = append(c.used, 0)
	}
	i := c.used[t]
	c.used[t]++
	if ks := c.seq[t]; i < len(ks) && ks[i] < n {
		return ks[i]
	}
	return 0
}

func (r *vmcrRunner) execute(w *vmcr.Witness, trace bool) (*interp.Execution, bool, error) {
	ch := &seqChooser{seq: w.Choices}
	x := interp.NewExecution(r.prog, r.names, r.cfg, ch, trace)
	x.CheckEnd()
	// taken counts the steps of each thread, for the parked ones.
	var taken []int
	take := func(t int32) {
		if len(w.Parked) == 0 {
			return
		}
		for int(t) >= len(taken) {
			taken = append(taken, 0)
		}
		taken[t]++
	}
	for i, t := range w.Sched {
		if x.Finished() || int(t) >= len(x.ThreadTable()) || x.Thread(t) == nil || !x.IsEnabled(x.Thread(t)) {
			return nil, false, fmt.Errorf("internal error: vmcr witness diverged at step %d (thread %d)", i, t)
		}
		x.Step(interp.Action{T: t})
		take(t)
	}
	parkedEnabled := false
	for !x.Finished() {
		moved := false
		for _, n := range x.Threads() {
			th := x.Thread(n)
			if !x.IsEnabled(th) {
				continue
			}
			if p, ok := w.Parked[n]; ok && takenOf(taken, n) >= p {
				parkedEnabled = true
				continue
			}
			x.Step(interp.Action{T: n})
			take(n)
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	return x, parkedEnabled, nil
}

func takenOf(taken []int, t int32) int {
	if int(t) < len(taken) {
		return taken[t]
	}
	return 0
}

// Run runs witness w and returns its trace.
func (r *vmcrRunner) Run(ctx context.Context, w *vmcr.Witness) (*vmcr.Trace, error) {
	x, parkedEnabled, err := r.execute(w, false)
	if err != nil {
		return nil, err
	}
	return r.traceOf(x, w, parkedEnabled), nil
}

func (r *vmcrRunner) traceOf(x *interp.Execution, w *vmcr.Witness, parkedEnabled bool) *vmcr.Trace {
	tr := &vmcr.Trace{Threads: make([]vmcr.Thread, len(x.ThreadTable())), InitVal: x.G.InitVal,
		ParkedEnabled: parkedEnabled, Payload: &vmcrRun{x: x, w: w}}
	// evStep[t][i]: the step of thread t that made its event i (-1: none).
	evStep := make([][]int32, len(x.ThreadTable()))
	for t := range x.ThreadTable() {
		if t < len(x.G.Threads) {
			evStep[t] = make([]int32, len(x.G.Threads[t]))
			for i := range evStep[t] {
				evStep[t][i] = -1
			}
		}
		tr.Threads[t].End = vmcr.EndAbsent
	}
	steps := make([]int32, len(x.ThreadTable())) // steps per thread so far
	tr.Order = make([]vmcr.Ref, len(x.Log))
	for k, l := range x.Log {
		t := l.Action.T
		tr.Order[k] = vmcr.Ref{T: t, I: steps[t]}
		if !l.Event.IsInit() {
			evStep[t][l.Event.I] = steps[t]
		}
		steps[t]++
	}
	src := func(id seg.EventID) vmcr.Ref {
		if id.IsInit() {
			return vmcr.Init
		}
		return vmcr.Ref{T: id.T, I: evStep[id.T][id.I]}
	}
	for t, th := range x.ThreadTable() {
		if th == nil {
			continue
		}
		vt := &tr.Threads[t]
		vt.Spawn = vmcr.Init
		if sp := x.G.SpawnedBy[t]; !sp.IsInit() {
			vt.Spawn = vmcr.Ref{T: sp.T, I: evStep[sp.T][sp.I]}
		}
		vt.Steps = make([]vmcr.Step, 0, steps[t]+1)
		switch th.Status() {
		case interp.Done:
			vt.End = vmcr.EndDone
		case interp.Blocked:
			vt.End = vmcr.EndBlocked
		case interp.Failed:
			vt.End = vmcr.EndFailed
		case interp.BoundHit:
			vt.End = vmcr.EndBound
		default:
			vt.End = vmcr.EndWaiting
		}
	}
	for k, l := range x.Log {
		t := l.Action.T
		st := vmcr.Step{}
		if !l.Event.IsInit() {
			e := x.G.Event(l.Event)
			st.Loc = e.Loc
			switch e.Kind {
			case seg.KRead:
				st.Op, st.RVal, st.Src = vmcr.OpRead, e.RVal, src(e.RF)
				if op := l.RMW; op != nil {
					st.Op = vmcr.OpRMW
					st.WriteFor = op.WriteFor
				} else if r.trylock[e.Pos] {
					st.Op = vmcr.OpRMW
					st.WriteFor = lockWrite(x.Handle(t))
				}
			case seg.KRMW:
				st.Op, st.RVal, st.Src, st.WVal, st.Wrote = vmcr.OpRMW, e.RVal, src(e.RF), e.WVal, true
				if op := l.RMW; op != nil {
					st.WriteFor = op.WriteFor
				}
			case seg.KWrite:
				st.Op, st.WVal, st.Wrote = vmcr.OpWrite, e.WVal, true
			case seg.KLock:
				st.Op, st.RVal, st.Src, st.WVal, st.Wrote = vmcr.OpLock, e.RVal, src(e.RF), e.WVal, true
				st.WriteFor = lockWrite(e.WVal)
				if r.trylock[e.Pos] {
					st.Op = vmcr.OpRMW
				}
			case seg.KUnlock:
				st.Op, st.WVal, st.Wrote = vmcr.OpUnlock, 0, true
			case seg.KSpawn:
				st.Op, st.Other = vmcr.OpSpawn, e.Other
			case seg.KJoin:
				st.Op, st.Other = vmcr.OpJoin, e.Other
			}
		}
		_ = k
		vt := &tr.Threads[t]
		vt.Steps = append(vt.Steps, st)
	}
	// A thread waiting for a lock at the end has a pending acquire.
	for _, n := range x.Threads() {
		th := x.Thread(n)
		if th.Status() != interp.Runnable || len(th.Frames()) == 0 {
			continue
		}
		fr := &th.Frames()[len(th.Frames())-1]
		in := &fr.Fn().Body[fr.PC()]
		if in.Op != ir.ILock {
			continue
		}
		addr, err := x.Eval(fr, in.Addr)
		if err != nil {
			continue
		}
		h := x.Handle(n)
		tr.Threads[n].Steps = append(tr.Threads[n].Steps, vmcr.Step{Op: vmcr.OpLock, Loc: addr, Pending: true, WriteFor: lockWrite(h)})
	}
	// Choices, attached to the step they precede.
	cnt := make([]int, len(x.ThreadTable()))
	logStep := 0
	for _, c := range x.Choices {
		for logStep <= c.Step && logStep < len(x.Log) {
			cnt[x.Log[logStep].Action.T]++
			logStep++
		}
		vt := &tr.Threads[c.T]
		slot := cnt[c.T]
		ch := vmcr.Choice{N: c.N, K: c.K}
		if slot < len(vt.Steps) {
			vt.Steps[slot].Pre = append(vt.Steps[slot].Pre, ch)
		} else {
			vt.Tail = append(vt.Tail, ch)
		}
	}
	return tr
}

func lockWrite(h int64) func(int64) (bool, int64) {
	return func(v int64) (bool, int64) { return v == 0, h }
}

// exploreVMCR is the vmcr exploration of prog (sc only).
func exploreVMCR(ctx context.Context, prog *ir.Program, opts Options) (*Result, error) {
	names := interp.NewNames(prog)
	col := newCollector(prog, names, opts)
	r := &vmcrRunner{prog: prog, names: names, trylock: map[ir.Pos]bool{},
		cfg: interp.Config{Unroll: opts.Unroll, MaxSteps: opts.MaxSteps, MaxThreads: opts.MaxThreads, Model: memmodel.SC(), ContinueAfterViolation: true}}
	if d, ok := ctx.Deadline(); ok {
		r.cfg.Deadline = d
	}
	for _, f := range prog.Funcs {
		for i := range f.Body {
			if f.Body[i].Op == ir.ITryLock {
				r.trylock[f.Body[i].Pos] = true
			}
		}
	}
	var cex, firstComplete *vmcr.Witness
	var seenComplete atomic.Bool
	stopped, stopKind := "", ""
	// The explorer's goroutines summarise each execution at once; the
	// summaries reach leaf in the order of the sequential search.
	summary := func(tr *vmcr.Trace) any {
		run := tr.Payload.(*vmcrRun)
		if opts.Debug != nil {
			opts.Debug("vmcr leaf: %s | %s | %s (complete %v)", run.x.G.Key(seg.KeyOpts{Kind: seg.KeyValues}), choiceKey(run.x), interp.FinalState(run.x), run.x.Complete())
		}
		l := &vmcrLeaf{sum: col.summarize(run.x)}
		run.x.Release() // nothing reads the execution after its summary
		// The witness is kept for a counterexample and, until the first
		// complete execution is known, for its graph.
		if l.sum.msg != "" || !seenComplete.Load() {
			l.w = run.w
		}
		return l
	}
	leaf := func(tr *vmcr.Trace) bool {
		l := tr.Payload.(*vmcrLeaf)
		if l.sum.complete && l.sum.msg == "" && firstComplete == nil {
			firstComplete = l.w
			seenComplete.Store(true)
		}
		if col.addSummary(l.sum, nil) && cex == nil {
			cex = l.w
			if !opts.KeepGoing {
				return true
			}
		}
		col.progress(0)
		if opts.MaxExecutions > 0 && col.stats.Executions >= opts.MaxExecutions {
			stopped, stopKind = fmt.Sprintf("execution bound %d hit", opts.MaxExecutions), "executions"
			return true
		}
		return false
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	vo := vmcr.Options{Observed: observedLocs(prog), Leaf: leaf, Summary: summary, Workers: workers}
	if opts.Debug != nil && os.Getenv("NCMC_VMCR_TREE") != "" {
		vo.Debug = opts.Debug
	}
	st, err := vmcr.Explore(ctx, r, vo)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		stopped, stopKind = budgetReason(ctx.Err(), opts), "time"
	case errors.Is(err, vmcr.ErrSearchBudget):
		stopped, stopKind = "vmcr witness search budget hit", "search"
	default:
		return nil, err
	}
	if opts.Debug != nil {
		opts.Debug("vmcr: %+v", st)
	}
	col.stats.Nodes = st.Nodes
	col.stats.Runs = st.Runs
	res := col.result("vmcr", stopped, stopKind)
	res.Workers = workers
	if cex != nil {
		x, _, err := r.execute(cex, true)
		if err != nil {
			return nil, err
		}
		res.Counterexample = x.Story()
		res.Graph = x.G
		_, _, res.ViolationPos = x.Violation()
	} else if firstComplete != nil {
		// The graph of the first complete execution (the summaries keep
		// no graph): run it again.
		x, _, err := r.execute(firstComplete, false)
		if err != nil {
			return nil, err
		}
		res.Graph = x.G
	}
	return res, nil
}

// vmcrLeaf is what the exploration keeps of an execution until its turn:
// the collector's summary and the witness (to run it again for the
// counterexample or the graph).
type vmcrLeaf struct {
	sum *execSummary
	w   *vmcr.Witness
}

// choiceKey renders the per-thread nondeterministic choices of x by thread
// name, for class counting.
func choiceKey(x *interp.Execution) string {
	if len(x.Choices) == 0 {
		return ""
	}
	per := map[string][]int{}
	var ts []string
	for _, c := range x.Choices {
		n := x.G.Names[c.T]
		if _, ok := per[n]; !ok {
			ts = append(ts, n)
		}
		per[n] = append(per[n], c.K)
	}
	sort.Strings(ts)
	var sb strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&sb, "%s%v", t, per[t])
	}
	return sb.String()
}
