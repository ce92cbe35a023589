package c

import (
	"ncmc/ir"
)

// checkUninit reports reads of register locals that were declared without
// an initializer and may not have been assigned on some path to the read:
// C leaves their value indeterminate, and a checker that silently used 0
// could miss behaviours. It is a must-be-assigned data-flow analysis over
// the lowered body.
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
