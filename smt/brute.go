package smt

import "fmt"

// MaxBruteForceVars is the largest number of variables BruteForce accepts.
const MaxBruteForceVars = 10

// BruteForce is a tiny pure-Go reference decider, meant for tests of small
// formulas. It searches the permutations of the variables of f (placing one
// variable after another and pruning with a three-valued evaluation of the
// partial order), so it decides satisfiability under the total-order
// semantics, which coincides with integer satisfiability (see the package
// documentation). If f is satisfiable, model maps each variable of f to its
// position 0..n-1 in a satisfying order. It returns an error if f has more
// than MaxBruteForceVars variables.
func BruteForce(f Formula) (model map[Var]int64, sat bool, err error) {
	vars := Vars(f)
	if len(vars) > MaxBruteForceVars {
		return nil, false, fmt.Errorf("smt: BruteForce: %d variables (max %d)", len(vars), MaxBruteForceVars)
	}
	p := compile(f, vars)
	pos := make([]int, len(vars))
	for i := range pos {
		pos[i] = -1
	}
	val := make([]uint8, len(p.ops))
	var search func(depth int) bool
	search = func(depth int) bool {
		switch p.eval(pos, val) {
		case triTrue:
			return true
		case triFalse:
			return false
		}
		if depth == len(vars) {
			panic("smt: BruteForce: formula undetermined under a total order")
		}
		for i := range vars {
			if pos[i] >= 0 {
				continue
			}
			pos[i] = depth
			if search(depth + 1) {
				return true
			}
			pos[i] = -1
		}
		return false
	}
	if !search(0) {
		return nil, false, nil
	}
	// Complete the order: unplaced variables are unconstrained; append
	// them in Var order.
	model = make(map[Var]int64, len(vars))
	next := 0
	for i := range vars {
		if pos[i] >= next {
			next = pos[i] + 1
		}
	}
	for i, v := range vars {
		if pos[i] < 0 {
			pos[i] = next
			next++
		}
		model[v] = int64(pos[i])
	}
	return model, true, nil
}

const (
	triFalse uint8 = iota
	triTrue
	triUnknown
)

type progOp struct {
	kind Kind
	a, b int   // KindLt: variable indices
	kids []int // KindAnd/KindOr: indices of earlier ops
}

// prog is a formula DAG flattened into children-first order.
type prog struct {
	ops []progOp
}

func compile(f Formula, vars []Var) *prog {
	vidx := make(map[Var]int, len(vars))
	for i, v := range vars {
		vidx[v] = i
	}
	p := &prog{}
	idx := make(map[*node]int)
	var walk func(n *node) int
	walk = func(n *node) int {
		if i, ok := idx[n]; ok {
			return i
		}
		op := progOp{kind: n.kind}
		if n.kind == KindLt {
			op.a, op.b = vidx[n.a], vidx[n.b]
		}
		for _, k := range n.kids {
			op.kids = append(op.kids, walk(k))
		}
		idx[n] = len(p.ops)
		p.ops = append(p.ops, op)
		return len(p.ops) - 1
	}
	walk(f.node())
	return p
}

// eval evaluates the program three-valuedly under a partial order: pos[i]
// is the position of variable i, or -1 if it is not placed yet (it will be
// placed after all placed variables). It returns the value of the root.
func (p *prog) eval(pos []int, val []uint8) uint8 {
	for i, op := range p.ops {
		var r uint8
		switch op.kind {
		case KindFalse:
			r = triFalse
		case KindTrue:
			r = triTrue
		case KindLt:
			pa, pb := pos[op.a], pos[op.b]
			switch {
			case pa >= 0 && pb >= 0:
				r = triFalse
				if pa < pb {
					r = triTrue
				}
			case pa >= 0:
				r = triTrue
			case pb >= 0:
				r = triFalse
			default:
				r = triUnknown
			}
		case KindAnd:
			r = triTrue
			for _, k := range op.kids {
				if v := val[k]; v == triFalse {
					r = triFalse
					break
				} else if v == triUnknown {
					r = triUnknown
				}
			}
		case KindOr:
			r = triFalse
			for _, k := range op.kids {
				if v := val[k]; v == triTrue {
					r = triTrue
					break
				} else if v == triUnknown {
					r = triUnknown
				}
			}
		}
		val[i] = r
	}
	return val[len(p.ops)-1]
}
