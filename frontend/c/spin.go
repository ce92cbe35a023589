package c

import (
	"fmt"

	"ncmc/ir"
)

// Spin loops with effect-free failed iterations.
//
// A loop iteration that goes back to the loop's head after only reading
// shared memory (loads, failed compare-exchanges, fences) and that leaves
// every register local the rest of the thread can read as it found it
// changed nothing: the thread is in the same state as before it, and its
// events were reads, which no other thread depends on. Removing such an
// iteration from an execution leaves an execution of the program that
// reaches the same states, so the executions in which some iteration is a
// no-op can be discarded without losing a reachable state (GenMC and
// Nidhugg turn such loops into waits, "spin-assume", for this reason).
// Discarding them is what makes a spin loop finite: a thread waiting for
// a flag no longer needs one iteration per interleaving step of the
// others, and the loop bound is not hit.
//
// spinNoOps instruments every loop of f (one with an ILoopHead) whose
// continuing paths (from the head back to it) contain nothing but
// assignments to locals, loads, compare-exchanges, fences, branches,
// assertions, assumptions, nondeterministic choices and loop heads (no
// store, read-modify-write, call, lock, spawn, join, allocation, atomic
// section or thread-local store). It records, when control enters the
// head, the locals written on those paths that are live at the head (the
// others cannot influence what follows) and clears a flag per
// compare-exchange; at each back edge, an iteration in which no
// compare-exchange succeeded and all recorded locals are unchanged ends
// with a failed spin-assume (the thread blocks and the execution is
// discarded as blocked). A loop with a possible write on a continuing path
// is left alone (TestSpinLoops). The loop's own iteration counter is not
// part of the state.
//
// The code is appended after the body: the loop's entry (the counter's
// reset just before the head) and each compare-exchange are replaced by a
// jump to a block that runs them and the bookkeeping, and back edges go to
// the check block, so no instruction moves.
func spinNoOps(f *ir.Func) {
	body := f.Body
	n := len(body)
	if n == 0 {
		return
	}
	succ := func(i int) []int {
		in := &body[i]
		switch in.Op {
		case ir.IJump:
			return []int{in.Target}
		case ir.IBranch:
			return []int{in.Target, in.Target2}
		case ir.IReturn, ir.IFail:
			return nil
		}
		if i+1 < n {
			return []int{i + 1}
		}
		return nil
	}
	preds := make([][]int, n)
	for i := 0; i < n; i++ {
		for _, s := range succ(i) {
			if s >= 0 && s < n {
				preds[s] = append(preds[s], i)
			}
		}
	}
	var live []bitset // computed on first need
	type loop struct {
		entry, head int
		ctr         int
		nodes       map[int]bool
		back        []int
	}
	var loops []loop
	for h := 0; h < n; h++ {
		if body[h].Op != ir.ILoopHead {
			continue
		}
		ctr := body[h].Dst
		e := -1
		for i := h - 1; i >= 0; i-- {
			in := &body[i]
			if in.Op == ir.IAssign && in.Dst == ctr && in.A != nil && in.A.Kind == ir.EConst && in.A.Val == 0 {
				e = i
				break
			}
		}
		if e < 0 || e+1 >= n {
			continue
		}
		t := e + 1
		var back []int
		for j := t; j < n; j++ {
			for _, s := range succ(j) {
				if s == t {
					back = append(back, j)
					break
				}
			}
		}
		if len(back) == 0 {
			continue
		}
		nodes := map[int]bool{t: true}
		work := append([]int(nil), back...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if nodes[x] {
				continue
			}
			nodes[x] = true
			work = append(work, preds[x]...)
		}
		if !nodes[h] || nodes[e] {
			continue
		}
		ok := true
		for x := range nodes {
			if !spinAllowed(body[x].Op) {
				ok = false
				break
			}
		}
		if ok {
			loops = append(loops, loop{entry: e, head: t, ctr: ctr, nodes: nodes, back: back})
		}
	}
	if len(loops) == 0 {
		return
	}
	live = liveness(f, succ)
	// Nested loops: only the innermost of loops sharing instructions is
	// instrumented (each compare-exchange and entry is rewritten once).
	for i := 1; i < len(loops); i++ {
		for j := i; j > 0 && len(loops[j].nodes) < len(loops[j-1].nodes); j-- {
			loops[j], loops[j-1] = loops[j-1], loops[j]
		}
	}
	claimed := map[int]bool{}
	for _, lp := range loops {
		overlap := claimed[lp.entry]
		for x := range lp.nodes {
			overlap = overlap || claimed[x]
		}
		if overlap {
			continue
		}
		for x := range lp.nodes {
			claimed[x] = true
		}
		claimed[lp.entry] = true
		pos := body[lp.head].Pos
		// The state: locals written on continuing paths, live at the head.
		written := map[int]bool{}
		var cases []int
		for x := range lp.nodes {
			in := &body[x]
			if in.Dst >= 0 && in.Op != ir.ILoopHead {
				written[in.Dst] = true
			}
			if in.Dst2 >= 0 {
				written[in.Dst2] = true
			}
			if in.Op == ir.ICAS {
				cases = append(cases, x)
			}
		}
		var state []int
		for v := 0; v < len(f.Locals); v++ {
			if written[v] && v != lp.ctr && live[lp.head].has(v) {
				state = append(state, v)
			}
		}
		sortInts(cases)
		newLocal := func(name string, t *ir.Type) int {
			f.Locals = append(f.Locals, ir.Local{Name: name, Type: t, Pos: pos})
			return len(f.Locals) - 1
		}
		loc := func(v int) *ir.Expr {
			return &ir.Expr{Kind: ir.ELocal, Local: v, Type: f.Locals[v].Type, Pos: pos}
		}
		id := len(f.Locals)
		saved := make([]int, len(state))
		for i, v := range state {
			saved[i] = newLocal(fmt.Sprintf("spin%d.%s", id, f.Locals[v].Name), f.Locals[v].Type)
		}
		flags := make([]int, len(cases))
		for i := range cases {
			flags[i] = newLocal(fmt.Sprintf("spin%d.cas%d", id, i), ir.Bool)
		}
		assign := func(dst int, a *ir.Expr) ir.Instr {
			return ir.Instr{Op: ir.IAssign, Pos: pos, Dst: dst, Dst2: -1, A: a}
		}
		jump := func(to int) ir.Instr {
			return ir.Instr{Op: ir.IJump, Pos: pos, Dst: -1, Dst2: -1, Target: to}
		}
		record := func() {
			for i, v := range state {
				body = append(body, assign(saved[i], loc(v)))
			}
			for _, fl := range flags {
				body = append(body, assign(fl, cnst(0, ir.Bool, pos)))
			}
		}
		// Entry: the counter's reset, then the record.
		entryBlock := len(body)
		body = append(body, body[lp.entry])
		record()
		body = append(body, jump(lp.head))
		body[lp.entry] = jump(entryBlock)
		body[lp.entry].Pos = pos
		// Compare-exchanges: the success flag.
		for i, x := range cases {
			blk := len(body)
			cas := body[x]
			if cas.Dst2 < 0 {
				cas.Dst2 = flags[i]
				body = append(body, cas)
			} else {
				body = append(body, cas, assign(flags[i], loc(cas.Dst2)))
			}
			body = append(body, jump(x+1))
			body[x] = jump(blk)
			body[x].Pos = cas.Pos
		}
		// Back edges: block if nothing changed, else record and go on.
		check := len(body)
		var changed *ir.Expr
		or := func(c *ir.Expr) {
			if changed == nil {
				changed = c
			} else {
				changed = bin(ir.OpLOr, changed, c, ir.Bool, pos)
			}
		}
		for _, fl := range flags {
			or(loc(fl))
		}
		for i, v := range state {
			or(bin(ir.OpNe, loc(v), loc(saved[i]), ir.Bool, pos))
		}
		if changed == nil {
			changed = cnst(0, ir.Bool, pos)
		}
		body = append(body, ir.Instr{Op: ir.IAssume, Pos: pos, Dst: -1, Dst2: -1, A: changed, Assume: ir.AssumeSpin})
		record()
		body = append(body, jump(lp.head))
		for _, j := range lp.back {
			in := &body[j]
			if in.Op == ir.IJump && in.Target == lp.head {
				in.Target = check
			}
			if in.Op == ir.IBranch {
				if in.Target == lp.head {
					in.Target = check
				}
				if in.Target2 == lp.head {
					in.Target2 = check
				}
			}
		}
	}
	f.Body = body
}

// spinAllowed reports whether an instruction may be on a continuing path of
// a loop whose no-op iterations are discarded: it writes no shared state
// (a compare-exchange is tracked: a successful one is a change).
func spinAllowed(op ir.Op) bool {
	switch op {
	case ir.INop, ir.IAssign, ir.ILoad, ir.ICAS, ir.IFence, ir.IJump, ir.IBranch, ir.IAssert, ir.IAssume,
		ir.INondet, ir.ILoopHead, ir.ISelf, ir.IFail, ir.ITLSLoad:
		return true
	}
	return false
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(uint(i)%64)) != 0 }
func (b bitset) add(i int)      { b[i/64] |= 1 << (uint(i) % 64) }

// liveness returns, for each instruction of f, the locals live before it
// (read on some path before being written).
func liveness(f *ir.Func, succ func(int) []int) []bitset {
	body := f.Body
	n := len(body)
	words := (len(f.Locals) + 63) / 64
	use := make([]bitset, n)
	def := make([]bitset, n)
	for i := range body {
		use[i], def[i] = make(bitset, words), make(bitset, words)
		in := &body[i]
		var walk func(e *ir.Expr)
		walk = func(e *ir.Expr) {
			if e == nil {
				return
			}
			if e.Kind == ir.ELocal && e.Local >= 0 && e.Local < len(f.Locals) {
				use[i].add(e.Local)
			}
			walk(e.A)
			walk(e.B)
		}
		walk(in.Addr)
		walk(in.A)
		walk(in.B)
		for _, a := range in.Args {
			walk(a)
		}
		if in.Op == ir.ILoopHead && in.Dst >= 0 {
			use[i].add(in.Dst)
		}
		if in.Dst >= 0 && in.Dst < len(f.Locals) && in.Op != ir.ILoopHead {
			def[i].add(in.Dst)
		}
		if in.Dst2 >= 0 && in.Dst2 < len(f.Locals) {
			def[i].add(in.Dst2)
		}
	}
	live := make([]bitset, n)
	for i := range live {
		live[i] = make(bitset, words)
	}
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			for w := 0; w < words; w++ {
				var out uint64
				for _, s := range succ(i) {
					if s >= 0 && s < n {
						out |= live[s][w]
					}
				}
				v := use[i][w] | out&^def[i][w]
				if v != live[i][w] {
					live[i][w] = v
					changed = true
				}
			}
		}
	}
	return live
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
