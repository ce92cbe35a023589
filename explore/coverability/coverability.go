// Package coverability is the coverability explorer. It proves programs
// that create unboundedly many threads (main spawning in an endless loop,
// as in SV-COMP's pthread-ext tasks) free of violations, which no explorer of concrete executions can:
// their state space is infinite.
//
// It is the Karp–Miller construction over the stateful reference
// explorer. A state is split into a shared part (memory, the main thread,
// every thread something can tell from the others) and a multiset of the
// local states of anonymous threads (threads whose handle nothing holds,
// see interp/symmetry.go), each with a count. When a run reaches a state S' that
// has the same shared part as a state S earlier on the same run and at
// least as many anonymous threads in every local state (S ≤ S'), the steps
// from S to S' can be repeated for ever from S' (the system is monotone:
// an extra anonymous thread can only add behaviours, as nothing can wait
// for it or address it), so every local state whose count grew may hold
// arbitrarily many threads: its count becomes ω. An ω class is kept as one
// thread marked ω; scheduling it runs a fresh copy and leaves the ω thread
// where it is. Runs are cut at abstract states seen before. The
// construction terminates when the shared part and the local states are
// finite, and the states it reaches cover every reachable state, so
// finding no violation proves there is none. A violation it reaches is
// reported as unknown: its run stands for a family of executions, and no
// concrete counterexample is built.
//
// What makes the abstraction exact for the programs it accepts
// (unsupported): thread identity is unobservable (SymmetryOK)
// and no spawned thread's handle is ever read (every spawn's result is
// dead), so a thread's number, name and the spawner's count of children
// do not influence behaviour and are left out of the state. Locals that
// are dead at a thread's position are left out too (liveness).
package coverability

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"

	"ncmc/explore"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
)

// kmOmega is the count of an ω class.
const kmOmega = -1

// kmState is one abstract state: the hash of the shared part and the count
// of each anonymous local state.
type kmState struct {
	shared  [2]uint64
	classes map[[2]uint64]int
}

// leq reports whether s ≤ o (same shared part, every count of s at most
// that of o).
func (s *kmState) leq(o *kmState) bool {
	if s.shared != o.shared {
		return false
	}
	for c, n := range s.classes {
		m, ok := o.classes[c]
		if !ok {
			return false
		}
		if m == kmOmega {
			continue
		}
		if n == kmOmega || n > m {
			return false
		}
	}
	return true
}

// covered reports whether s ≤ some state of seen.
func covered(seen []*kmState, s *kmState) bool {
	for _, v := range seen {
		if s.leq(v) {
			return true
		}
	}
	return false
}

// liveness holds, for every function, the locals live before each
// instruction (bit sets).
type liveness map[*ir.Func][][]uint64

// exprLocals adds the locals e reads to set.
func exprLocals(e *ir.Expr, set []uint64) {
	if e == nil {
		return
	}
	if e.Kind == ir.ELocal {
		set[e.Local/64] |= 1 << (e.Local % 64)
	}
	exprLocals(e.A, set)
	exprLocals(e.B, set)
}

// funcLiveness computes the locals live before each instruction of f by
// the usual backward fixpoint.
func funcLiveness(f *ir.Func) [][]uint64 {
	n, words := len(f.Body), (len(f.Locals)+63)/64
	in := make([][]uint64, n)
	use := make([][]uint64, n)
	def := make([][]uint64, n)
	for i := range f.Body {
		in[i] = make([]uint64, words)
		use[i] = make([]uint64, words)
		def[i] = make([]uint64, words)
		ins := &f.Body[i]
		exprLocals(ins.Addr, use[i])
		exprLocals(ins.A, use[i])
		exprLocals(ins.B, use[i])
		for _, a := range ins.Args {
			exprLocals(a, use[i])
		}
		if ins.Op == ir.ILoopHead && ins.Dst >= 0 {
			use[i][ins.Dst/64] |= 1 << (ins.Dst % 64) // Dst = Dst + 1
		}
		if ins.Dst >= 0 {
			def[i][ins.Dst/64] |= 1 << (ins.Dst % 64)
		}
		if ins.Op == ir.ICAS && ins.Dst2 >= 0 {
			def[i][ins.Dst2/64] |= 1 << (ins.Dst2 % 64)
		}
	}
	succ := func(i int) []int {
		ins := &f.Body[i]
		switch ins.Op {
		case ir.IJump:
			return []int{ins.Target}
		case ir.IBranch:
			return []int{ins.Target, ins.Target2}
		case ir.IReturn, ir.IFail:
			return nil
		}
		if i+1 < n {
			return []int{i + 1}
		}
		return nil
	}
	out := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			clear(out)
			for _, s := range succ(i) {
				if s >= 0 && s < n {
					for w := range out {
						out[w] |= in[s][w]
					}
				}
			}
			for w := range out {
				v := use[i][w] | (out[w] &^ def[i][w])
				if v != in[i][w] {
					in[i][w] = v
					changed = true
				}
			}
		}
	}
	return in
}

func newLiveness(prog *ir.Program) liveness {
	l := liveness{}
	for _, f := range prog.Funcs {
		l[f] = funcLiveness(f)
	}
	if _, ok := l[prog.Main]; !ok && prog.Main != nil {
		l[prog.Main] = funcLiveness(prog.Main)
	}
	return l
}

// live reports whether local i of a frame of f positioned at pc is live.
func (l liveness) live(f *ir.Func, pc, i int) bool {
	in := l[f]
	if in == nil || pc < 0 || pc >= len(in) {
		return true
	}
	return in[pc][i/64]&(1<<(i%64)) != 0
}

// unsupported says why the coverability explorer cannot
// explore prog, or "".
func unsupported(prog *ir.Program) string {
	if !interp.SymmetryOK(prog) {
		return "the program can tell threads apart (thread handles of the running thread, heap allocation, condition variables, objects, or spawns outside main)"
	}
	// Liveness only of the functions that keep a spawned thread's handle.
	l := liveness{}
	for _, f := range prog.Funcs {
		for pc := range f.Body {
			in := &f.Body[pc]
			if in.Op != ir.ISpawn || in.Dst < 0 || pc+1 >= len(f.Body) {
				continue
			}
			if l[f] == nil {
				l[f] = funcLiveness(f)
			}
			if l.live(f, pc+1, in.Dst) {
				return fmt.Sprintf("%s: the handle of a spawned thread is used", in.Pos)
			}
		}
	}
	return ""
}

// kmRun is the abstract bookkeeping of one run.
type kmRun struct {
	x      *interp.Execution
	live   liveness
	omega  map[int32]bool // ω threads
	clones map[int32]int  // copies made of each ω thread
	path   []*kmState     // the abstract states of this run so far
	// classOf is the class of each anonymous thread in the last abstract
	// state computed.
	classOf map[int32][2]uint64
	h       [2]kmHash // the shared part's and a thread's, reused
}

// kmHash gathers the bytes of a part of a state and hashes them at once
// (128 bits: two 64-bit hashes under the exploration's two seeds).
type kmHash struct {
	buf   []byte
	seeds *[2]maphash.Seed
}

func (h *kmHash) put(v int64) { h.buf = binary.LittleEndian.AppendUint64(h.buf, uint64(v)) }

func (h *kmHash) str(s string) {
	h.put(int64(len(s)))
	h.buf = append(h.buf, s...)
}

func (h *kmHash) reset() { h.buf = h.buf[:0] }

func (h *kmHash) sum() [2]uint64 {
	return [2]uint64{maphash.Bytes(h.seeds[0], h.buf), maphash.Bytes(h.seeds[1], h.buf)}
}

// threadHash writes t's local state: everything the interpreter's state
// hash does but the spawn and allocation counts, with dead locals left out
// (interp.Thread.HashLocal).
func (k *kmRun) threadHash(h *kmHash, t *interp.Thread) {
	t.HashLocal(h.put, h.str, k.live.live)
}

// abstract computes the abstract state of the execution, first folding
// every other thread of an ω thread's class into it.
func (k *kmRun) abstract() (*kmState, error) {
	x := k.x
	held := map[int64]bool{}
	x.HashMem(func(int64) {}, func(c int64) {
		if c > interp.SymmetryHandleBase {
			held[c] = true
		}
	})
	for _, n := range x.Threads() {
		t := x.Thread(n)
		for i := range t.Frames() {
			fr := &t.Frames()[i]
			for j, v := range fr.Locals() {
				if v > interp.SymmetryHandleBase && k.live.live(fr.Fn(), fr.PC(), j) {
					held[v] = true
				}
			}
		}
	}
	waiting := map[int32]bool{}
	for _, ws := range x.Waiters() {
		for _, w := range ws {
			waiting[w] = true
		}
	}
	h, th := &k.h[0], &k.h[1]
	h.reset()
	x.HashMem(h.put, nil)
	h.put(int64(x.AtomicThread()))
	classOf := map[int32][2]uint64{}
	omegaClass := map[[2]uint64]int32{}
	var anon []int32
	for _, n := range x.Threads() {
		t := x.Thread(n)
		if n != 0 && !held[x.Handle(n)] && !waiting[n] && x.AtomicThread() != n && t.Atomic() == 0 {
			th.reset()
			k.threadHash(th, t)
			c := th.sum()
			classOf[n] = c
			anon = append(anon, n)
			if k.omega[n] {
				omegaClass[c] = n
			}
			continue
		}
		if k.omega[n] {
			// An ω thread is anonymous when it is made one and never
			// moves (its copies do), and its handle is never read.
			return nil, fmt.Errorf("internal error: the ω thread t%s is no longer anonymous", t.Name())
		}
		h.put(int64(n))
		k.threadHash(h, t)
	}
	x.HashWaiters(h.put)
	s := &kmState{classes: map[[2]uint64]int{}, shared: h.sum()}
	drop := map[int32]bool{}
	for _, n := range anon {
		c := classOf[n]
		if w, ok := omegaClass[c]; ok {
			if w != n {
				drop[n] = true // subsumed by the ω thread of its class
			}
			s.classes[c] = kmOmega
			continue
		}
		s.classes[c]++
	}
	if len(drop) > 0 {
		k.remove(drop)
		for n := range drop {
			delete(classOf, n)
		}
	}
	k.classOf = classOf
	return s, nil
}

// remove takes threads out of the execution (they are anonymous and
// subsumed by an ω thread).
func (k *kmRun) remove(drop map[int32]bool) {
	x := k.x
	x.DropThreads(drop)
}

// accelerate compares s with the earlier states of the run and turns every
// count that grew since a smaller one into ω (marking one thread of the
// class ω and removing the others). It reports whether it changed s.
func (k *kmRun) accelerate(s *kmState) bool {
	grow := map[[2]uint64]bool{}
	for _, a := range k.path {
		if !a.leq(s) {
			continue
		}
		for c, n := range s.classes {
			if n == kmOmega {
				continue
			}
			if m, ok := a.classes[c]; !ok || m < n {
				grow[c] = true
			}
		}
	}
	if len(grow) == 0 {
		return false
	}
	x := k.x
	marked := map[[2]uint64]bool{}
	drop := map[int32]bool{}
	for _, n := range x.Threads() {
		c, ok := k.classOf[n]
		if !ok || !grow[c] {
			continue // not anonymous, or its count did not grow
		}
		if marked[c] {
			drop[n] = true
			continue
		}
		marked[c] = true
		k.omega[n] = true
	}
	k.remove(drop)
	return true
}

// deadlockSafe reports whether no state covered by the last abstract
// state (en are its enabled actions) is a deadlock. A covered state has the
// same shared part and a sub-multiset of the anonymous threads, and a
// thread's enabledness depends only on its own state and the shared part
// (memory, the atomic section's holder, the threads whose handles are
// held). So it is no deadlock if this state has a thread enabled that is
// not anonymous, or one blocked for good by a failed assume (the covered
// state has it too and is discarded), or no thread stuck at all (waiting
// for a mutex, a join or a signal: the covered state has none either).
// Deadlock is not monotone (an extra thread that can move makes a
// deadlocked state live), so covering states alone do not show it.
func (k *kmRun) deadlockSafe(en []interp.Action) bool {
	enabled := make(map[int32]bool, len(en))
	for _, a := range en {
		if _, anon := k.classOf[a.T]; !anon {
			return true
		}
		enabled[a.T] = true
	}
	for _, n := range k.x.Threads() {
		if _, anon := k.classOf[n]; !anon && k.x.Thread(n).Status() == interp.Blocked {
			return true
		}
	}
	for _, n := range k.x.Threads() {
		switch k.x.Thread(n).Status() {
		case interp.Runnable, interp.WaitingCond:
			if !enabled[n] {
				return false
			}
		}
	}
	return true
}

// step takes action a, running a fresh copy of an ω thread in its place.
func (k *kmRun) step(a interp.Action) {
	x := k.x
	if k.omega[a.T] && !a.Flush {
		t := x.Thread(a.T)
		k.clones[a.T]++
		name := fmt.Sprintf("%s*%d", t.Name(), k.clones[a.T])
		a.T = x.CopyThread(a.T, name)
	}
	x.Step(a)
}

// exploreCoverability is the coverability explorer (see above).
func exploreCoverability(ctx context.Context, t *explore.Task) error {
	prog, opts, names := t.Prog, t.Opts, t.Names
	if why := unsupported(prog); why != "" {
		t.Stop("the coverability explorer does not apply: "+why, "unsupported")
		return nil
	}
	// Loops are not unrolled: runs end at abstract states seen before,
	// which is what makes an endless spawning loop finite here. Loops that
	// never come back to a state run into the step bounds (unknown).
	cfg := t.Config()
	cfg.UnboundedLoops, cfg.Symmetry, cfg.MaxThreadSteps = true, true, 20*opts.MaxSteps
	live := newLiveness(prog)
	ch := &explore.DFSChooser{}
	visited := map[[2]uint64][]*kmState{} // by shared part
	// The hashes of abstract states: 128 bits under two seeds of this
	// exploration (states are compared by hash only).
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	var hbuf [2][]byte
	abstractViolation := ""
	// With opts.Races the question is whether a data race is reachable
	// (race): other violations end their runs and the exploration goes on.
	race, runtimeErr := "", false
	// deadlockFree stays true while no state covered by a state kept or by
	// the last state of a run can be a deadlock (deadlockSafe): then no
	// reachable state is one.
	deadlockFree := true
	for {
		if t.Budget(ctx) {
			break
		}
		x := interp.NewExecution(prog, names, cfg, ch, false)
		k := &kmRun{x: x, live: live, omega: map[int32]bool{}, clones: map[int32]int{},
			h: [2]kmHash{{buf: hbuf[0], seeds: &seeds}, {buf: hbuf[1], seeds: &seeds}}}
		x.CheckEnd()
		cur, err := k.abstract()
		pruned, interrupted := false, false
		for err == nil && !x.Finished() {
			if ctx.Err() != nil {
				interrupted = true
				break
			}
			if opts.Races && race == "" && ch.Depth >= len(ch.Path) {
				race = k.race() // states of the replayed prefix were checked before
			}
			if race != "" && !opts.KeepGoing {
				break
			}
			en := x.Enabled()
			if ch.Depth >= len(ch.Path) {
				// Cut the run at a state covered by one seen before: all
				// the seen state's successors are (or will be) explored,
				// and by monotonicity they cover this state's.
				if covered(visited[cur.shared], cur) {
					pruned = true
					break
				}
				visited[cur.shared] = append(visited[cur.shared], cur)
				t.Stats().States++
				if deadlockFree && !k.deadlockSafe(en) {
					deadlockFree = false
				}
			}
			k.path = append(k.path, cur)
			k.step(ch.Schedule(en))
			if x.Finished() {
				break
			}
			if cur, err = k.abstract(); err == nil && k.accelerate(cur) {
				cur, err = k.abstract()
			}
		}
		hbuf[0], hbuf[1] = k.h[0].buf, k.h[1].buf
		if err != nil {
			return err
		}
		if ch.Err != nil {
			return ch.Err
		}
		if interrupted {
			t.StopTime(ctx.Err())
			break
		}
		if race != "" && !opts.KeepGoing {
			break
		}
		if pruned {
			t.Stats().Pruned++
			t.Progress(ch.Pending())
			if !ch.Next() {
				break
			}
			continue
		}
		t.Stats().Executions++
		t.Stats().Steps += int64(x.Steps())
		if msg, kind, _ := x.Violation(); msg != "" {
			t.Stats().Violations++
			if abstractViolation == "" {
				abstractViolation = msg
			}
			runtimeErr = runtimeErr || kind == "runtime-error"
		} else if x.BoundHit() != "" {
			t.Stats().BoundHits++
			t.BoundHit(x.BoundHit())
		} else if x.Blocked() {
			t.Stats().Blocked++
			// The states this one covers lack some anonymous threads,
			// maybe the blocked ones: are they deadlocks?
			if deadlockFree {
				if _, err := k.abstract(); err != nil || !k.deadlockSafe(nil) {
					deadlockFree = false
				}
			}
		} else {
			t.Stats().Complete++
		}
		if abstractViolation != "" && !opts.KeepGoing && !opts.Races {
			break
		}
		t.Progress(ch.Pending())
		if !ch.Next() {
			break
		}
	}
	states := t.Stats().States
	t.Amend(func(res *explore.Result) {
		kmVerdict(res, opts, states, deadlockFree, race, abstractViolation, runtimeErr)
	})
	return nil
}

// kmVerdict turns the verdict of the collector into the coverability
// explorer's: a verified run proves safety for any number of threads, a
// violation it reaches is abstract (unknown).
func kmVerdict(res *explore.Result, opts explore.Options, states int, deadlockFree bool, race, abstractViolation string, runtimeErr bool) {
	if res.Verdict == explore.Verified {
		res.Reason = fmt.Sprintf("every reachable state is covered (%d abstract states)", states)
		if !deadlockFree {
			res.Verdict, res.Kind = explore.Unknown, "deadlock-unchecked"
			res.Reason = fmt.Sprintf("no assertion failure or runtime error is reachable (%d abstract states), but the coverability explorer cannot rule out a deadlock in this program (a deadlock is not preserved by adding threads, so covering states do not show it)", states)
		}
	}
	switch {
	case race != "":
		res.Verdict, res.Kind = explore.Unknown, "abstract-race"
		res.Reason = "the coverability explorer reached a " + race + ", in a run that stands for many executions; no concrete counterexample is built"
	case opts.Races && (abstractViolation != "" || res.Verdict != explore.Verified) && res.Stopped == "" && res.Stats.BoundHits == 0 && !runtimeErr:
		// Every reachable state is covered and none has a race; other
		// violations only end executions.
		res.Verdict, res.Kind = explore.Unknown, RaceFree
		res.Reason = fmt.Sprintf("no data race is reachable for any number of threads (%d abstract states)", states)
		if abstractViolation != "" {
			res.Reason += "; a violation is reachable (" + abstractViolation + "), which the coverability explorer does not report as a counterexample"
		}
	case abstractViolation != "":
		res.Verdict, res.Kind = explore.Unknown, "abstract-violation"
		res.Reason = "the coverability explorer reached a violation (" + abstractViolation + ") in a run that stands for many executions; no concrete counterexample is built"
	}
}

// RaceFree is the Kind of an unknown result of the coverability explorer
// with race detection (Options.Races) that proved no data race reachable
// while some other violation (an assertion failure, a deadlock that could
// not be ruled out) is: the program is free of data races, but not
// verified.
const RaceFree = "race-free"

// race returns a data race in the current state, or "": two threads (an ω
// thread counts as two copies) whose next instructions access the same
// location, at least one writes, and not both are atomic (an access is
// atomic when its order is not na or its thread is inside an atomic
// block). Such a pair is a race of the happens-before definition that
// interp/scraces.go checks: both accesses can run next, or, if one thread is
// inside an atomic block, the other's access can run before that block
// began (it was already next then, and no thread but the holder moves
// inside a block). Conversely, the racing accesses of an execution with a
// race can be brought next to each other, so a reachable state has such a
// pair; the state covering it has the pair too (same shared part and
// named threads, at least as many anonymous threads in each local state).
func (k *kmRun) race() string {
	x := k.x
	type access struct {
		t             int32
		loc           int64
		write, atomic bool
		pos           ir.Pos
	}
	var accs []access
	for _, n := range x.Threads() {
		t := x.Thread(n)
		if t.Status() != interp.Runnable || len(t.Frames()) == 0 {
			continue
		}
		fr := &t.Frames()[len(t.Frames())-1]
		if fr.PC() >= len(fr.Fn().Body) {
			continue
		}
		in := &fr.Fn().Body[fr.PC()]
		write := false
		switch in.Op {
		case ir.ILoad:
		case ir.IStore, ir.IRMW, ir.ICAS:
			write = true
		default:
			continue
		}
		addr, err := x.Eval(fr, in.Addr)
		if err != nil {
			continue // the step is a runtime error, no access
		}
		accs = append(accs, access{n, addr, write, in.Order.IsAtomic() || t.Atomic() > 0, in.Pos})
	}
	what := func(a access) string {
		w := "read"
		if a.write {
			w = "write"
		}
		if a.atomic {
			w = "atomic " + w
		}
		return fmt.Sprintf("%s by t%s at %s", w, x.Thread(a.t).Name(), a.pos)
	}
	for i, a := range accs {
		if k.omega[a.t] && a.write && !a.atomic {
			return fmt.Sprintf("data race on %s between the %s and the same write by another copy of that thread", x.Names().LocName(a.loc), what(a))
		}
		for _, b := range accs[i+1:] {
			if a.loc == b.loc && (a.write || b.write) && !(a.atomic && b.atomic) {
				return fmt.Sprintf("data race on %s between the %s and the %s", x.Names().LocName(a.loc), what(a), what(b))
			}
		}
	}
	return ""
}

// Applies reports whether the coverability explorer applies to
// prog and is worth running: its threads are interchangeable, no spawned
// handle is used, and main spawns inside a loop (unboundedly many threads;
// with a bounded number the stateful reference explorer does the same
// work). Otherwise it says why not.
func Applies(prog *ir.Program) (bool, string) {
	// The control-flow check is linear; unsupported computes liveness.
	if !SpawnsInLoop(prog) {
		return false, "main spawns no thread inside a loop"
	}
	if why := unsupported(prog); why != "" {
		return false, why
	}
	return true, ""
}

// SpawnsInLoop reports whether main has a spawn on a cycle of its control
// flow (a loop that may create any number of threads).
func SpawnsInLoop(prog *ir.Program) bool {
	f := prog.Main
	if f == nil {
		return false
	}
	succ := func(i int) []int {
		in := &f.Body[i]
		switch in.Op {
		case ir.IJump:
			return []int{in.Target}
		case ir.IBranch:
			return []int{in.Target, in.Target2}
		case ir.IReturn, ir.IFail:
			return nil
		}
		return []int{i + 1}
	}
	for pc := range f.Body {
		if f.Body[pc].Op != ir.ISpawn {
			continue
		}
		// Is pc on a cycle?
		seen := map[int]bool{}
		stack := succ(pc)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if i == pc {
				return true
			}
			if i < 0 || i >= len(f.Body) || seen[i] {
				continue
			}
			seen[i] = true
			stack = append(stack, succ(i)...)
		}
	}
	return false
}

// Explorer is the coverability explorer.
type Explorer struct{}

// Name implements explore.Explorer.
func (Explorer) Name() string { return "coverability" }

// Doc implements explore.Explorer.
func (Explorer) Doc() string {
	return "sc, programs whose threads are interchangeable and whose spawned handles are never used (e.g. main spawning in an endless loop): the Karp-Miller construction, which can prove programs with unboundedly many threads safe; it never answers violation"
}

// Check implements explore.Explorer.
func (e Explorer) Check(t *explore.Task) error {
	if t.Model.Exec != memmodel.Interleaving {
		return explore.Unsupportedf(e, false, "the coverability explorer supports the sc memory model only")
	}
	return nil
}

// Explore implements explore.Explorer.
func (Explorer) Explore(ctx context.Context, t *explore.Task) error {
	return exploreCoverability(ctx, t)
}
