package smt

import (
	"errors"
	"slices"
)

// ErrNotConjunctive is returned by ConjunctiveOrder when a formula is not a
// conjunction of atoms.
var ErrNotConjunctive = errors.New("smt: formula is not a conjunction of ordering atoms")

// isConjunctive reports whether n is True, False, an atom, or an And of
// atoms.
func isConjunctive(n *node) bool {
	switch n.kind {
	case KindTrue, KindFalse, KindLt:
		return true
	case KindAnd:
		for _, k := range n.kids {
			if k.kind != KindLt {
				return false
			}
		}
		return true
	}
	return false
}

// ConjunctiveOrder decides a set of purely conjunctive ordering constraints
// without an SMT solver. Each formula must be True, False, an atom, or an
// And of atoms; otherwise it returns ErrNotConjunctive. If the conjunction
// of fs is satisfiable, sat is true and order lists every variable occurring
// in fs in the lexicographically smallest (by Var) order that satisfies all
// atoms; if the atoms contain a cycle (or some formula is False), sat is
// false. It runs in O(E log V) time for E atoms over V variables.
func ConjunctiveOrder(fs ...Formula) (order []Var, sat bool, err error) {
	var atoms [][2]Var
	for _, f := range fs {
		n := f.node()
		if !isConjunctive(n) {
			return nil, false, ErrNotConjunctive
		}
		switch n.kind {
		case KindFalse:
			return nil, false, nil
		case KindLt:
			atoms = append(atoms, [2]Var{n.a, n.b})
		case KindAnd:
			for _, k := range n.kids {
				atoms = append(atoms, [2]Var{k.a, k.b})
			}
		}
	}
	var vars []Var
	for _, a := range atoms {
		vars = append(vars, a[0], a[1])
	}
	slices.Sort(vars)
	vars = slices.Compact(vars)
	order, sat = topoOrder(vars, atoms)
	if !sat {
		return nil, false, nil
	}
	return order, true, nil
}

// topoOrder returns the lexicographically smallest topological order of
// vars under the edges a→b for each atom (a, b), or sat = false if the
// edges contain a cycle. vars must be sorted, distinct, and contain every
// endpoint of the atoms.
func topoOrder(vars []Var, atoms [][2]Var) (order []Var, sat bool) {
	n := len(vars)
	index := func(v Var) int32 {
		i, _ := slices.BinarySearch(vars, v)
		return int32(i)
	}
	// Compressed adjacency (CSR).
	start := make([]int32, n+1)
	from := make([]int32, len(atoms))
	to := make([]int32, len(atoms))
	indeg := make([]int32, n)
	for i, a := range atoms {
		x, y := index(a[0]), index(a[1])
		from[i], to[i] = x, y
		start[x+1]++
		indeg[y]++
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	adj := make([]int32, len(atoms))
	fill := slices.Clone(start[:n])
	for i := range atoms {
		adj[fill[from[i]]] = to[i]
		fill[from[i]]++
	}
	// Kahn's algorithm with a min-heap of ready variable indices (indices
	// are ordered like the Vars themselves).
	var h minHeap
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			h.push(int32(i))
		}
	}
	order = make([]Var, 0, n)
	for len(h) > 0 {
		x := h.pop()
		order = append(order, vars[x])
		for _, y := range adj[start[x]:start[x+1]] {
			indeg[y]--
			if indeg[y] == 0 {
				h.push(y)
			}
		}
	}
	if len(order) != n {
		return nil, false
	}
	return order, true
}

type minHeap []int32

func (h *minHeap) push(x int32) {
	*h = append(*h, x)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *minHeap) pop() int32 {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r] < s[l] {
			m = r
		}
		if s[i] <= s[m] {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
