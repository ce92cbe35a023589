package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Uninitialized locals.
//
// C leaves the value of a local declared without an initializer
// indeterminate until it is written; reading it is an error GenMC reports.
// A local in memory (an array, a struct, a variable whose address is
// taken) declared without an initializer is allocated with
// ir.AllocUninit: its cells hold interp.Uninit until written, and a read
// of one is an uninitialized-read violation, in exactly the executions
// where it happens. A register local is checked statically first
// (checkUninit, a must-be-assigned data-flow analysis over the lowered
// body): when some read may come before every assignment on some path,
// the function is lowered again with that local in uninitialized memory,
// so the violation is reported when, and only when, an execution reads it
// unassigned. Under Options.ZeroHeap (SV-COMP, which reads indeterminate
// locals as nondeterministic values) memory locals start zeroed and such a
// register read is unsupported instead.
//
// The object of a memory local is allocated once per call of its
// function, so a declaration in a loop body starts uninitialized in the
// first iteration only and later iterations see the previous one's value
// (as with LLVM's allocas, and GenMC).

// lowerFuncUninit lowers fi, and lowers it again with the register locals
// it may read unassigned in uninitialized memory.
func (tr *translator) lowerFuncUninit(fi *fnInfo) {
	nerr, napprox, nexits := tr.errs.Len(), len(tr.approx), len(fi.exits)
	l := tr.lowerFunc(fi)
	if len(l.uninitRead) == 0 || tr.errs.Len() != nerr {
		return
	}
	fi.uninitMem = map[*cc.Declarator]bool{}
	for d, lv := range l.locals {
		if !lv.mem && l.uninitRead[lv.slot] {
			fi.uninitMem[d] = true
		}
	}
	tr.approx, fi.exits = tr.approx[:napprox], fi.exits[:nexits]
	fi.f.Locals, fi.f.Body, fi.f.NumParams = nil, nil, 0
	tr.lowerFunc(fi)
}

// uninitAlloc makes the allocation of the memory local lv, declared
// without an initializer, start uninitialized when its cells are integers
// and pointers (synchronization objects keep their initial state) and
// Options.ZeroHeap is off.
func (l *fnl) uninitAlloc(lv *localVar) {
	if l.tr.opts.ZeroHeap {
		return
	}
	for _, c := range flatCells(&ir.Type{Kind: ir.TRecord, Record: lv.rec}, nil) {
		switch {
		case c.Kind == ir.TInt && c.Width > 0, c.Kind == ir.TBool, c.Kind == ir.TPtr:
		default:
			return
		}
	}
	l.entry[lv.hoist].Alloc = ir.AllocUninit
}

// checkUninit finds reads of register locals that were declared without
// an initializer and may not have been assigned on some path to the read:
// without Options.ZeroHeap it records them in l.uninitRead (the caller
// lowers the function again with them in memory), with it it reports them
// as unsupported.
func (l *fnl) checkUninit() {
	if len(l.checked) == 0 {
		return
	}
	body := l.f.Body
	n := len(body)
	slots := make([]int, 0, len(l.checked))
	index := map[int]int{}
	for s := range l.checked {
		index[s] = len(slots)
		slots = append(slots, s)
	}
	words := (len(slots) + 63) / 64
	full := make([]uint64, words)
	for i := range slots {
		full[i/64] |= 1 << (uint(i) % 64)
	}
	// in[i]: locals assigned on every path to instruction i.
	in := make([][]uint64, n)
	for i := range in {
		in[i] = append([]uint64(nil), full...)
	}
	for w := range in[0] {
		in[0][w] = 0
	}
	succs := func(i int) []int {
		ins := &body[i]
		switch ins.Op {
		case ir.IJump:
			return []int{ins.Target}
		case ir.IBranch:
			return []int{ins.Target, ins.Target2}
		case ir.IReturn, ir.IFail:
			return nil
		case ir.IAssume:
			if ins.A != nil && ins.A.Kind == ir.EConst && ins.A.Val == 0 {
				return nil
			}
		}
		if i+1 < n {
			return []int{i + 1}
		}
		return nil
	}
	def := func(i int, set []uint64) {
		ins := &body[i]
		for _, d := range []int{ins.Dst, ins.Dst2} {
			if j, ok := index[d]; ok && d >= 0 {
				set[j/64] |= 1 << (uint(j) % 64)
			}
		}
	}
	reach := make([]bool, n)
	reach[0] = true
	work := []int{0}
	out := make([]uint64, words)
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		copy(out, in[i])
		def(i, out)
		for _, s := range succs(i) {
			changed := !reach[s]
			reach[s] = true
			for w := range out {
				nv := in[s][w] & out[w]
				if nv != in[s][w] {
					in[s][w] = nv
					changed = true
				}
			}
			if changed {
				work = append(work, s)
			}
		}
	}
	reported := map[int]bool{}
	for i := 0; i < n; i++ {
		if !reach[i] {
			continue
		}
		ins := &body[i]
		var uses []*ir.Expr
		uses = append(uses, ins.Addr, ins.A, ins.B)
		uses = append(uses, ins.Args...)
		for _, u := range uses {
			visitLocals(u, func(slot int, pos ir.Pos) {
				j, ok := index[slot]
				if !ok || reported[slot] || in[i][j/64]&(1<<(uint(j)%64)) != 0 {
					return
				}
				reported[slot] = true
				if !l.tr.opts.ZeroHeap {
					l.uninitRead[slot] = true
					return
				}
				if !pos.IsValid() {
					pos = ins.Pos
				}
				l.tr.unsupported(pos, "the value of %s is read, but it may not have been assigned (C leaves it indeterminate)", l.f.Locals[slot].Name)
			})
		}
	}
}

func visitLocals(e *ir.Expr, f func(slot int, pos ir.Pos)) {
	if e == nil {
		return
	}
	if e.Kind == ir.ELocal {
		f(e.Local, e.Pos)
	}
	visitLocals(e.A, f)
	visitLocals(e.B, f)
}
