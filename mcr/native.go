package mcr

import (
	"context"
	"slices"
	"time"

	"ncmc/smt"
)

// NativeDecider decides queries without an SMT solver, by saturation and a
// small search over the order graph of the query:
//
//   - the unit atoms of the assertions (program order, spawn and join,
//     store-buffer FIFO and fences, the frozen steps before the cutoff) form
//     a directed graph; its variables are split into chains (threads,
//     buffers) and every variable gets a vector clock over the chains, so
//     "a must precede b" is one comparison;
//   - closure: a disjunction of which every operand but one is false under
//     the graph forces that operand (the encoding's disjunctions are the
//     read-validity choices, so this forces reads-from sources and orders
//     interfering writes of other values, lock sections, atomic sections,
//     RMW/CAS rewrites, await predicates and store-buffer commits, exactly as
//     encode.go states them); a disjunction with every operand false is a
//     conflict (UNSAT);
//   - witness: a topological order of the graph that follows the observed
//     trace (Query.Hint) wherever the graph allows; if it satisfies every
//     assertion, it is the model;
//   - search: otherwise branch on the operands of a disjunction the witness
//     falsifies, close again, and recurse, within Budget nodes; past the
//     budget the answer is Unknown (ask Z3).
//
// Sat answers carry a witness that satisfies every assertion (checked by
// evaluation); Unsat answers come from conflicts of sound inferences over an
// exhaustive branching. Queries are independent: the answer depends on the
// query only, not on earlier queries.
type NativeDecider struct {
	// Budget bounds the search nodes per query (0: 256).
	Budget int

	// Scratch, reused across queries.
	nv        int       // variables
	k         int       // chains
	chain     []int32   // chain of each variable (-1: inactive)
	pos       []int32   // position of each variable in its chain
	clock     []int32   // nv*k: clock[v*k+c] = largest position in chain c that reaches v (-1: none)
	succ      [][]int32 // edges out of each variable
	trail     []trailEnt
	pending   []smt.Formula
	sat       []bool
	stamp     []uint32 // per formula node: memo validity (== epoch)
	memo      []int8   // per formula node: status
	epoch     uint32
	estamp    []uint32 // per formula node: witness evaluation memo validity
	evalv     []bool
	eepoch    uint32
	place     []int64 // witness position of each variable
	indeg     []int32
	budget    int
	hint      []int64
	tails     []int32
	off       []int32
	preds     []int32
	ready     []int32
	active    []int32
	ctx       context.Context
	cancelled bool
	// Stats
	Nodes int // search nodes over all queries
}

type trailEnt struct {
	kind uint8 // 0: clock entry idx had value old; 1: succ[idx] gained an edge; 2: sat[idx] was set
	idx  int32
	old  int32
}

// status values of a formula under the current graph.
const (
	stFalse int8 = -1
	stUndet int8 = 0
	stTrue  int8 = 1
)

// Decide implements Decider.
func (d *NativeDecider) Decide(ctx context.Context, q *Query) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return Answer{}, context.DeadlineExceeded // passed, not reported by ctx yet
	}
	d.ctx, d.cancelled = ctx, false
	d.budget = d.Budget
	if d.budget <= 0 {
		d.budget = 256
	}
	d.hint = q.Hint
	nv := q.Builder.NumVars()
	d.nv = nv
	nn := q.Builder.NumNodes() + 2
	if len(d.stamp) < nn {
		d.stamp = make([]uint32, nn+nn/2)
		d.memo = make([]int8, len(d.stamp))
		d.estamp = make([]uint32, len(d.stamp))
		d.evalv = make([]bool, len(d.stamp))
		d.epoch, d.eepoch = 0, 0
	}
	d.chain = resize(d.chain, nv)
	d.pos = resize(d.pos, nv)
	for i := range d.chain {
		d.chain[i] = -1
	}
	if cap(d.succ) < nv {
		d.succ = make([][]int32, nv)
	}
	d.succ = d.succ[:nv]
	for i := range d.succ {
		d.succ[i] = d.succ[i][:0]
	}
	d.trail = d.trail[:0]
	d.pending = d.pending[:0]
	d.sat = d.sat[:0]

	// Split the assertions into unit atoms (edges) and disjunctions.
	d.epoch++
	var units [][2]int32
	var walk func(f smt.Formula) bool
	walk = func(f smt.Formula) bool {
		id := f.ID()
		if d.stamp[id] == d.epoch {
			return true
		}
		d.stamp[id] = d.epoch
		switch f.Kind() {
		case smt.KindFalse:
			return false
		case smt.KindLt:
			a, b, _ := f.Atom()
			units = append(units, [2]int32{int32(a), int32(b)})
		case smt.KindAnd:
			for i := range f.NumArgs() {
				if !walk(f.Arg(i)) {
					return false
				}
			}
		case smt.KindOr:
			d.pending = append(d.pending, f)
			d.sat = append(d.sat, false)
		}
		return true
	}
	for _, f := range q.Assertions {
		if !walk(f) {
			return Answer{Verdict: Unsat}, nil
		}
	}
	// Active variables: those of the atoms of every pending formula too.
	active := d.active[:0]
	defer func() { d.active = active[:0] }()
	d.epoch++
	mark := func(v int32) {
		if d.chain[v] == -1 {
			d.chain[v] = -2
			active = append(active, v)
		}
	}
	for _, u := range units {
		mark(u[0])
		mark(u[1])
	}
	var vars func(f smt.Formula)
	vars = func(f smt.Formula) {
		id := f.ID()
		if d.stamp[id] == d.epoch {
			return
		}
		d.stamp[id] = d.epoch
		switch f.Kind() {
		case smt.KindLt:
			a, b, _ := f.Atom()
			mark(int32(a))
			mark(int32(b))
		case smt.KindAnd, smt.KindOr:
			for i := range f.NumArgs() {
				vars(f.Arg(i))
			}
		}
	}
	for _, f := range d.pending {
		vars(f)
	}
	// Chains: active variables in hint order; a variable continues the
	// chain of a unit predecessor that ends a chain.
	slices.SortFunc(active, func(x, y int32) int {
		if hx, hy := d.hintOf(x), d.hintOf(y); hx != hy {
			if hx < hy {
				return -1
			}
			return 1
		}
		return int(x - y)
	})
	for _, u := range units {
		d.succ[u[0]] = append(d.succ[u[0]], u[1])
	}
	// Predecessors by unit atoms, in compressed rows (off[v]..off[v+1]).
	d.off = resize(d.off, nv+1)
	clear(d.off)
	for _, u := range units {
		d.off[u[1]+1]++
	}
	for v := range nv {
		d.off[v+1] += d.off[v]
	}
	d.preds = resize(d.preds, len(units))
	fill := resize(d.indeg[:0], nv)
	copy(fill, d.off[:nv])
	for _, u := range units {
		d.preds[fill[u[1]]] = u[0]
		fill[u[1]]++
	}
	d.indeg = fill
	d.tails = d.tails[:0]
	for _, v := range active {
		c := int32(-1)
		for _, p := range d.preds[d.off[v]:d.off[v+1]] {
			if pc := d.chain[p]; pc >= 0 && d.tails[pc] == p {
				c = pc
				break
			}
		}
		if c < 0 {
			c = int32(len(d.tails))
			d.tails = append(d.tails, v)
			d.pos[v] = 0
		} else {
			d.pos[v] = d.pos[d.tails[c]] + 1
			d.tails[c] = v
		}
		d.chain[v] = c
	}
	k := len(d.tails)
	d.k = k
	d.clock = resize(d.clock, nv*k)
	for _, v := range active {
		row := d.clock[int(v)*k : int(v)*k+k]
		for c := range row {
			row[c] = -1
		}
	}
	// Initial clocks: a topological order of the unit graph.
	d.indeg = resize(d.indeg, nv)
	for i := range d.indeg {
		d.indeg[i] = 0
	}
	for _, u := range units {
		d.indeg[u[1]]++
	}
	queue := make([]int32, 0, len(active))
	for _, v := range active {
		d.clock[int(v)*k+int(d.chain[v])] = d.pos[v]
		if d.indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	done := 0
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		done++
		cv := d.clock[int(v)*k : int(v)*k+k]
		for _, w := range d.succ[v] {
			cw := d.clock[int(w)*k : int(w)*k+k]
			for c := range cw {
				if cv[c] > cw[c] {
					cw[c] = cv[c]
				}
			}
			d.indeg[w]--
			if d.indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	if done < len(active) {
		return Answer{Verdict: Unsat}, nil // a cycle of unit atoms
	}
	switch d.search() {
	case Sat:
		m := make([]int64, nv)
		copy(m, d.place)
		return Answer{Verdict: Sat, Model: m}, nil
	case Unsat:
		return Answer{Verdict: Unsat}, nil
	}
	if d.cancelled {
		return Answer{}, ctx.Err()
	}
	return Answer{}, nil
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (d *NativeDecider) hintOf(v int32) int64 {
	if int(v) < len(d.hint) {
		return d.hint[v]
	}
	return -1
}

// reach reports whether a precedes or equals b in every order of the graph.
func (d *NativeDecider) reach(a, b int32) bool {
	if a == b {
		return true
	}
	ca := d.chain[a]
	if ca < 0 || d.chain[b] < 0 {
		return false
	}
	return d.clock[int(b)*d.k+int(ca)] >= d.pos[a]
}

// addEdge adds a < b; false on a cycle.
func (d *NativeDecider) addEdge(a, b int32) bool {
	if d.reach(b, a) {
		return false
	}
	if d.reach(a, b) {
		return true
	}
	d.succ[a] = append(d.succ[a], b)
	d.trail = append(d.trail, trailEnt{kind: 1, idx: a})
	k := d.k
	ca := d.clock[int(a)*k : int(a)*k+k]
	work := []int32{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		cx := d.clock[int(x)*k : int(x)*k+k]
		changed := false
		for c := range cx {
			if ca[c] > cx[c] {
				d.trail = append(d.trail, trailEnt{kind: 0, idx: int32(int(x)*k + c), old: cx[c]})
				cx[c] = ca[c]
				changed = true
			}
		}
		if changed {
			work = append(work, d.succ[x]...)
		}
	}
	return true
}

// status of f under the graph (memoised per epoch; a stale entry is still
// sound: True and False never change as edges are added).
func (d *NativeDecider) status(f smt.Formula) int8 {
	switch f.Kind() {
	case smt.KindTrue:
		return stTrue
	case smt.KindFalse:
		return stFalse
	case smt.KindLt:
		a, b, _ := f.Atom()
		if d.reach(int32(a), int32(b)) {
			return stTrue
		}
		if d.reach(int32(b), int32(a)) {
			return stFalse
		}
		return stUndet
	}
	id := f.ID()
	if d.stamp[id] == d.epoch {
		return d.memo[id]
	}
	var s int8
	if f.Kind() == smt.KindAnd {
		s = stTrue
		for i := range f.NumArgs() {
			switch d.status(f.Arg(i)) {
			case stFalse:
				s = stFalse
			case stUndet:
				s = stUndet
			}
			if s == stFalse {
				break
			}
		}
	} else {
		s = stFalse
		for i := range f.NumArgs() {
			switch d.status(f.Arg(i)) {
			case stTrue:
				s = stTrue
			case stUndet:
				s = stUndet
			}
			if s == stTrue {
				break
			}
		}
	}
	d.stamp[id] = d.epoch
	d.memo[id] = s
	return s
}

// assert makes f hold: edges for atoms, operands of conjunctions, pending
// disjunctions. False on a conflict.
func (d *NativeDecider) assert(f smt.Formula) bool {
	switch f.Kind() {
	case smt.KindTrue:
		return true
	case smt.KindFalse:
		return false
	case smt.KindLt:
		a, b, _ := f.Atom()
		return d.addEdge(int32(a), int32(b))
	case smt.KindAnd:
		for i := range f.NumArgs() {
			if !d.assert(f.Arg(i)) {
				return false
			}
		}
		return true
	}
	d.pending = append(d.pending, f)
	d.sat = append(d.sat, false)
	return true
}

func (d *NativeDecider) setSat(i int) {
	d.sat[i] = true
	d.trail = append(d.trail, trailEnt{kind: 2, idx: int32(i)})
}

// propagate closes the graph under the pending disjunctions: one operand
// left forces it; none left is a conflict.
func (d *NativeDecider) propagate() bool {
	for {
		changed := false
		d.epoch++
		for i := 0; i < len(d.pending); i++ {
			if d.sat[i] {
				continue
			}
			f := d.pending[i]
			open, last, isTrue := 0, -1, false
			for j := range f.NumArgs() {
				s := d.status(f.Arg(j))
				if s == stTrue {
					isTrue = true
					break
				}
				if s == stUndet {
					open++
					last = j
					if open > 1 {
						break
					}
				}
			}
			switch {
			case isTrue:
				d.setSat(i)
			case open == 0:
				return false
			case open == 1:
				d.setSat(i)
				if !d.assert(f.Arg(last)) {
					return false
				}
				changed = true
			}
		}
		if !changed {
			return true
		}
	}
}

type mark struct{ trail, pending int }

func (d *NativeDecider) mark() mark { return mark{len(d.trail), len(d.pending)} }

func (d *NativeDecider) undo(m mark) {
	for i := len(d.trail) - 1; i >= m.trail; i-- {
		t := d.trail[i]
		switch t.kind {
		case 0:
			d.clock[t.idx] = t.old
		case 1:
			d.succ[t.idx] = d.succ[t.idx][:len(d.succ[t.idx])-1]
		case 2:
			d.sat[t.idx] = false
		}
	}
	d.trail = d.trail[:m.trail]
	d.pending = d.pending[:m.pending]
	d.sat = d.sat[:m.pending]
	d.epoch++
}

// search closes, builds a witness, and branches on a disjunction the
// witness falsifies.
func (d *NativeDecider) search() Verdict {
	if !d.propagate() {
		return Unsat
	}
	d.witness()
	d.eepoch++
	br := -1
	for i, f := range d.pending {
		if !d.sat[i] && !d.eval(f) {
			br = i
			break
		}
	}
	if br < 0 {
		return Sat
	}
	d.Nodes++
	d.budget--
	if d.budget < 0 {
		return Unknown
	}
	if d.Nodes%64 == 0 && d.ctx.Err() != nil {
		d.cancelled = true
		return Unknown
	}
	f := d.pending[br]
	unknown := false
	for j := range f.NumArgs() {
		kid := f.Arg(j)
		if d.status(kid) == stFalse {
			continue
		}
		m := d.mark()
		d.setSat(br)
		if d.assert(kid) {
			switch d.search() {
			case Sat:
				return Sat
			case Unknown:
				unknown = true
			}
		}
		d.undo(m)
		if d.cancelled {
			return Unknown
		}
	}
	if unknown {
		return Unknown
	}
	return Unsat
}

// eval evaluates f under the witness positions (memoised per eepoch).
func (d *NativeDecider) eval(f smt.Formula) bool {
	switch f.Kind() {
	case smt.KindTrue:
		return true
	case smt.KindFalse:
		return false
	case smt.KindLt:
		a, b, _ := f.Atom()
		return d.place[a] < d.place[b]
	}
	id := f.ID()
	if d.estamp[id] == d.eepoch {
		return d.evalv[id]
	}
	var v bool
	if f.Kind() == smt.KindAnd {
		v = true
		for i := range f.NumArgs() {
			if !d.eval(f.Arg(i)) {
				v = false
				break
			}
		}
	} else {
		for i := range f.NumArgs() {
			if d.eval(f.Arg(i)) {
				v = true
				break
			}
		}
	}
	d.estamp[id] = d.eepoch
	d.evalv[id] = v
	return v
}

// witness places every variable: a topological order of the graph that
// takes, among the variables whose predecessors are placed, the one with
// the smallest hint (then the smallest Var).
func (d *NativeDecider) witness() {
	nv := d.nv
	d.place = resize(d.place, nv)
	d.indeg = resize(d.indeg, nv)
	for i := range d.indeg {
		d.indeg[i] = 0
	}
	for v := range nv {
		for _, w := range d.succ[v] {
			d.indeg[w]++
		}
	}
	// A binary heap of ready variables by (hint, Var).
	h := d.ready[:0]
	less := func(x, y int32) bool {
		if hx, hy := d.hintOf(x), d.hintOf(y); hx != hy {
			return hx < hy
		}
		return x < y
	}
	push := func(v int32) {
		h = append(h, v)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !less(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
	}
	pop := func() int32 {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for i := 0; ; {
			l, m := 2*i+1, i
			if l < len(h) && less(h[l], h[m]) {
				m = l
			}
			if l+1 < len(h) && less(h[l+1], h[m]) {
				m = l + 1
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
		return top
	}
	for v := range nv {
		if d.indeg[v] == 0 {
			push(int32(v))
		}
	}
	n := int64(0)
	for len(h) > 0 {
		v := pop()
		d.place[v] = n
		n++
		for _, w := range d.succ[v] {
			d.indeg[w]--
			if d.indeg[w] == 0 {
				push(w)
			}
		}
	}
	d.ready = h[:0]
}
