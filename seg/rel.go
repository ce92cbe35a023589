package seg

import (
	"math/bits"
	"strings"
)

// This file holds the relation algebra: dense bit sets and bit matrices over
// the node numbers of a Space. Every operation returns a fresh value and
// leaves its operands alone, so values can be shared freely.

// Set is a set of node numbers 0..n-1 (a bit set).
type Set struct {
	n int
	b []uint64
}

// NewSet returns the empty set over n nodes.
func NewSet(n int) Set { return Set{n: n, b: make([]uint64, words(n))} }

func words(n int) int { return (n + 63) >> 6 }

// Len is the size of the universe the set lives in (not the number of members).
func (s Set) Len() int { return s.n }

// Add puts node i into s.
func (s Set) Add(i int) { s.b[i>>6] |= 1 << (uint(i) & 63) }

// Has reports whether node i is in s.
func (s Set) Has(i int) bool { return s.b[i>>6]&(1<<(uint(i)&63)) != 0 }

// Count is the number of members of s.
func (s Set) Count() int {
	c := 0
	for _, w := range s.b {
		c += bits.OnesCount64(w)
	}
	return c
}

// IsEmpty reports whether s has no members.
func (s Set) IsEmpty() bool {
	for _, w := range s.b {
		if w != 0 {
			return false
		}
	}
	return true
}

// Members lists the members of s in increasing order.
func (s Set) Members() []int {
	var out []int
	s.each(func(i int) { out = append(out, i) })
	return out
}

func (s Set) each(f func(i int)) { eachBit(s.b, f) }

func eachBit(ws []uint64, f func(i int)) {
	for wi, w := range ws {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			f(wi<<6 | t)
			w &= w - 1
		}
	}
}

// Union is s ∪ t.
func (s Set) Union(t Set) Set {
	r := NewSet(s.n)
	for i := range r.b {
		r.b[i] = s.b[i] | t.b[i]
	}
	return r
}

// Inter is s ∩ t.
func (s Set) Inter(t Set) Set {
	r := NewSet(s.n)
	for i := range r.b {
		r.b[i] = s.b[i] & t.b[i]
	}
	return r
}

// Diff is s \ t.
func (s Set) Diff(t Set) Set {
	r := NewSet(s.n)
	for i := range r.b {
		r.b[i] = s.b[i] &^ t.b[i]
	}
	return r
}

// Complement is the set of nodes not in s.
func (s Set) Complement() Set {
	r := NewSet(s.n)
	for i := range r.b {
		r.b[i] = ^s.b[i]
	}
	r.trim()
	return r
}

func (s Set) trim() {
	if s.n&63 != 0 && len(s.b) > 0 {
		s.b[len(s.b)-1] &= 1<<(uint(s.n)&63) - 1
	}
}

// Equal reports whether s and t have the same members.
func (s Set) Equal(t Set) bool {
	if s.n != t.n {
		return false
	}
	for i := range s.b {
		if s.b[i] != t.b[i] {
			return false
		}
	}
	return true
}

// Rel is a binary relation over node numbers 0..n-1, stored as a bit matrix
// (row i holds the successors of i). The zero Rel is the empty relation over
// zero nodes.
type Rel struct {
	n, w int
	b    []uint64
}

// NewRel returns the empty relation over n nodes.
func NewRel(n int) Rel {
	w := words(n)
	return Rel{n: n, w: w, b: make([]uint64, n*w)}
}

// Len is the number of nodes the relation is over.
func (r Rel) Len() int { return r.n }

func (r Rel) row(i int) []uint64 { return r.b[i*r.w : (i+1)*r.w] }

// Add puts the pair (i, j) into r.
func (r Rel) Add(i, j int) { r.b[i*r.w+j>>6] |= 1 << (uint(j) & 63) }

// Has reports whether (i, j) is in r.
func (r Rel) Has(i, j int) bool { return r.b[i*r.w+j>>6]&(1<<(uint(j)&63)) != 0 }

// addRange adds (i, j) for every j in [lo, hi).
func (r Rel) addRange(i, lo, hi int) {
	row := r.row(i)
	for j := lo; j < hi; {
		if j&63 == 0 && hi-j >= 64 {
			row[j>>6] = ^uint64(0)
			j += 64
			continue
		}
		row[j>>6] |= 1 << (uint(j) & 63)
		j++
	}
}

// addRow ORs the set s into row i.
func (r Rel) addRow(i int, s Set) {
	row := r.row(i)
	for k := range row {
		row[k] |= s.b[k]
	}
}

// Succ returns the successors of i as a set.
func (r Rel) Succ(i int) Set {
	s := NewSet(r.n)
	copy(s.b, r.row(i))
	return s
}

// Count is the number of pairs in r.
func (r Rel) Count() int {
	c := 0
	for _, w := range r.b {
		c += bits.OnesCount64(w)
	}
	return c
}

// IsEmpty reports whether r has no pairs.
func (r Rel) IsEmpty() bool {
	for _, w := range r.b {
		if w != 0 {
			return false
		}
	}
	return true
}

// Pairs lists the pairs of r in row-major order.
func (r Rel) Pairs() [][2]int {
	var out [][2]int
	r.Each(func(i, j int) { out = append(out, [2]int{i, j}) })
	return out
}

// Each calls f for every pair of r in row-major order.
func (r Rel) Each(f func(i, j int)) {
	for i := 0; i < r.n; i++ {
		eachBit(r.row(i), func(j int) { f(i, j) })
	}
}

// Equal reports whether r and s hold the same pairs.
func (r Rel) Equal(s Rel) bool {
	if r.n != s.n {
		return false
	}
	for i := range r.b {
		if r.b[i] != s.b[i] {
			return false
		}
	}
	return true
}

func (r Rel) clone() Rel {
	c := Rel{n: r.n, w: r.w, b: make([]uint64, len(r.b))}
	copy(c.b, r.b)
	return c
}

// Union is r ∪ s.
func (r Rel) Union(s Rel) Rel {
	c := NewRel(r.n)
	for i := range c.b {
		c.b[i] = r.b[i] | s.b[i]
	}
	return c
}

// Inter is r ∩ s.
func (r Rel) Inter(s Rel) Rel {
	c := NewRel(r.n)
	for i := range c.b {
		c.b[i] = r.b[i] & s.b[i]
	}
	return c
}

// Diff is r \ s.
func (r Rel) Diff(s Rel) Rel {
	c := NewRel(r.n)
	for i := range c.b {
		c.b[i] = r.b[i] &^ s.b[i]
	}
	return c
}

// Complement is the set of pairs not in r.
func (r Rel) Complement() Rel {
	c := NewRel(r.n)
	for i := range c.b {
		c.b[i] = ^r.b[i]
	}
	if r.n&63 != 0 {
		mask := uint64(1)<<(uint(r.n)&63) - 1
		for i := 0; i < r.n; i++ {
			c.b[i*c.w+c.w-1] &= mask
		}
	}
	return c
}

// Seq is the composition r;s: pairs (i, k) with (i, j) in r and (j, k) in s for some j.
func (r Rel) Seq(s Rel) Rel {
	c := NewRel(r.n)
	mid := s.Domain() // only successors with successors of their own matter
	if mid.IsEmpty() {
		return c
	}
	W := r.w
	for i := 0; i < r.n; i++ {
		out, row := c.b[i*W:(i+1)*W], r.b[i*W:(i+1)*W]
		for wi, w := range row {
			w &= mid.b[wi]
			for w != 0 {
				j := wi<<6 | bits.TrailingZeros64(w)
				w &= w - 1
				in := s.b[j*W : (j+1)*W]
				for k, x := range in {
					out[k] |= x
				}
			}
		}
	}
	return c
}

// Inv is the inverse relation r⁻¹.
func (r Rel) Inv() Rel {
	c := NewRel(r.n)
	r.Each(func(i, j int) { c.Add(j, i) })
	return c
}

// Plus is the transitive closure r⁺ (Warshall's algorithm on bit rows).
func (r Rel) Plus() Rel {
	c := r.clone()
	W := c.w
	// only nodes with both a predecessor and a successor can be the middle
	// of a path; others are skipped
	mid := r.Domain().Inter(r.Range())
	for kw, word := range mid.b {
		for word != 0 {
			k := kw<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			rk := c.b[k*W : (k+1)*W]
			kb := uint64(1) << (uint(k) & 63)
			for i := 0; i < c.n; i++ {
				if c.b[i*W+kw]&kb != 0 {
					ri := c.b[i*W : (i+1)*W]
					for x, v := range rk {
						ri[x] |= v
					}
				}
			}
		}
	}
	return c
}

// Star is the reflexive-transitive closure r*.
func (r Rel) Star() Rel { return r.Plus().Opt() }

// Opt is the reflexive closure r? = r ∪ id.
func (r Rel) Opt() Rel {
	c := r.clone()
	for i := 0; i < c.n; i++ {
		c.Add(i, i)
	}
	return c
}

// Restrict keeps the pairs (i, j) of r with i in dom and j in ran ([dom];r;[ran]).
func (r Rel) Restrict(dom, ran Set) Rel {
	c := NewRel(r.n)
	for i := 0; i < r.n; i++ {
		if !dom.Has(i) {
			continue
		}
		out, in := c.row(i), r.row(i)
		for k := range out {
			out[k] = in[k] & ran.b[k]
		}
	}
	return c
}

// Domain is the set of nodes with a successor in r.
func (r Rel) Domain() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		for _, w := range r.row(i) {
			if w != 0 {
				s.Add(i)
				break
			}
		}
	}
	return s
}

// Range is the set of nodes with a predecessor in r.
func (r Rel) Range() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		row := r.row(i)
		for k := range s.b {
			s.b[k] |= row[k]
		}
	}
	return s
}

// Identity returns [s]: the pairs (i, i) for i in s.
func Identity(s Set) Rel {
	c := NewRel(s.n)
	s.each(func(i int) { c.Add(i, i) })
	return c
}

// Cross returns the cartesian product s × t.
func Cross(s, t Set) Rel {
	c := NewRel(s.n)
	s.each(func(i int) { c.addRow(i, t) })
	return c
}

// Reflexive returns a node i with (i, i) in r, or -1 if r is irreflexive.
func (r Rel) Reflexive() int {
	for i := 0; i < r.n; i++ {
		if r.Has(i, i) {
			return i
		}
	}
	return -1
}

// Acyclic reports whether r has no cycle (self loops included). It runs a
// depth-first search that handles successors a word of the bit matrix at a
// time, so it costs O(n²/64) however dense r is.
func (r Rel) Acyclic() bool {
	n := r.n
	white := NewSet(n).Complement()
	grey := NewSet(n)
	type frame struct{ v, k int } // k: next word of v's row to scan
	var stack []frame
	for root := 0; root < n; root++ {
		if !white.Has(root) {
			continue
		}
		white.b[root>>6] &^= 1 << (uint(root) & 63)
		grey.Add(root)
		stack = append(stack[:0], frame{v: root})
		if r.hitsSet(root, grey) {
			return false
		}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			row := r.row(f.v)
			next := -1
			for f.k < len(row) {
				if w := row[f.k] & white.b[f.k]; w != 0 {
					next = f.k<<6 | bits.TrailingZeros64(w)
					break
				}
				f.k++
			}
			if next < 0 {
				grey.b[f.v>>6] &^= 1 << (uint(f.v) & 63)
				stack = stack[:len(stack)-1]
				continue
			}
			white.b[next>>6] &^= 1 << (uint(next) & 63)
			grey.Add(next)
			if r.hitsSet(next, grey) {
				return false
			}
			stack = append(stack, frame{v: next})
		}
	}
	return true
}

// hitsSet reports whether row i of r meets s.
func (r Rel) hitsSet(i int, s Set) bool {
	row := r.row(i)
	for k := range row {
		if row[k]&s.b[k] != 0 {
			return true
		}
	}
	return false
}

// Cycle returns a cycle of r as the list of its nodes [v0, v1, ..., vk-1]
// (with (vi, vi+1) and (vk-1, v0) in r), or nil if r is acyclic. The cycle
// returned is a shortest one through the lowest-numbered node of the first
// cyclic strongly connected component found, rotated to start at its
// lowest-numbered node, so the answer is deterministic.
func (r Rel) Cycle() []int {
	if i := r.Reflexive(); i >= 0 {
		return []int{i}
	}
	if r.Acyclic() {
		return nil
	}
	comp := r.cyclicComponent()
	if comp.IsEmpty() {
		return nil
	}
	var best []int
	tries := 0
	comp.each(func(v int) {
		if tries >= 32 || (best != nil && len(best) == 2) {
			return
		}
		tries++
		if c := r.shortestCycleThrough(v, comp); c != nil && (best == nil || len(c) < len(best)) {
			best = c
		}
	})
	// rotate to start at the smallest node
	m := 0
	for i := range best {
		if best[i] < best[m] {
			m = i
		}
	}
	return append(append([]int{}, best[m:]...), best[:m]...)
}

// cyclicComponent returns the members of a strongly connected component of r
// with more than one node (self loops are handled by the caller), or the
// empty set. It runs an iterative Tarjan.
func (r Rel) cyclicComponent() Set {
	n := r.n
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	type frame struct {
		v   int
		pos int // next successor candidate to look at
	}
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{v: root}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			w := r.nextSucc(v, f.pos)
			if w >= 0 {
				f.pos = w + 1
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				if low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				comp := NewSet(n)
				size := 0
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp.Add(w)
					size++
					if w == v {
						break
					}
				}
				if size > 1 {
					return comp
				}
			}
		}
	}
	return NewSet(n)
}

// nextSucc returns the smallest successor j >= from of i, or -1.
func (r Rel) nextSucc(i, from int) int {
	if from >= r.n {
		return -1
	}
	row := r.row(i)
	k := from >> 6
	w := row[k] &^ (1<<(uint(from)&63) - 1)
	for {
		if w != 0 {
			return k<<6 | bits.TrailingZeros64(w)
		}
		k++
		if k >= len(row) {
			return -1
		}
		w = row[k]
	}
}

// shortestCycleThrough finds a shortest cycle through v inside comp by BFS.
func (r Rel) shortestCycleThrough(v int, comp Set) []int {
	parent := make([]int, r.n)
	seen := NewSet(r.n)
	queue := []int{v}
	seen.Add(v)
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if r.Has(u, v) {
			var path []int
			for x := u; x != v; x = parent[x] {
				path = append(path, x)
			}
			path = append(path, v)
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		row := r.row(u)
		for k := range row {
			w := row[k] & comp.b[k] &^ seen.b[k]
			for w != 0 {
				t := bits.TrailingZeros64(w)
				w &= w - 1
				x := k<<6 | t
				seen.Add(x)
				parent[x] = u
				queue = append(queue, x)
			}
		}
	}
	return nil
}

// Path returns a shortest path [from, ..., to] of r-edges (at least one
// edge, so from == to asks for a cycle through from), or nil if none exists.
func (r Rel) Path(from, to int) []int {
	parent := make([]int, r.n)
	seen := NewSet(r.n)
	seen.Add(from)
	parent[from] = -1
	queue := []int{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if r.Has(u, to) {
			path := []int{to}
			for x := u; x >= 0; x = parent[x] {
				path = append(path, x)
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		eachBit(r.row(u), func(x int) {
			if !seen.Has(x) {
				seen.Add(x)
				parent[x] = u
				queue = append(queue, x)
			}
		})
	}
	return nil
}

// ReduceTransitive returns the pairs of r that are not implied by two or
// more r-steps: r \ (r;r⁺). For a strict partial order this is its Hasse
// diagram.
func (r Rel) ReduceTransitive() Rel {
	return r.Diff(r.Seq(r.Plus()))
}

// String renders r as a list of pairs, e.g. "{(0,1) (1,2)}".
func (r Rel) String() string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	r.Each(func(i, j int) {
		if !first {
			sb.WriteByte(' ')
		}
		first = false
		sb.WriteString("(" + itoa(i) + "," + itoa(j) + ")")
	})
	sb.WriteByte('}')
	return sb.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		b[p] = '-'
	}
	return string(b[p:])
}
