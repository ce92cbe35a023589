package commspec

import (
	"fmt"
	"strings"
)

// scope resolves names of one expression: a condition (two invocations of
// methods m[0] and m[1]) or the body of a helper function (its parameters).
type scope struct {
	s        *Spec
	m        [2]*Method // conditions
	params   []Param    // helper functions
	inFunc   bool
	fnIndex  int             // helper functions: only Functions[:fnIndex] may be called
	later    map[string]bool // helper functions: the names of the functions declared below
	useState bool
	errf     func(off int, format string, args ...any)
}

var builtins = map[string]struct {
	op    nodeOp
	arity int
}{"min": {nMin, 2}, "max": {nMax, 2}, "abs": {nAbs, 1}}

var reserved = map[string]bool{"true": true, "false": true, "and": true, "or": true, "not": true}

// splitSuffix splits "v1" into ("v", 0) and "v2" into ("v", 1).
func splitSuffix(name string) (string, int, bool) {
	if len(name) < 2 {
		return "", 0, false
	}
	switch name[len(name)-1] {
	case '1':
		return name[:len(name)-1], 0, true
	case '2':
		return name[:len(name)-1], 1, true
	}
	return "", 0, false
}

// slot returns the index of argument or result name of m (len(Params) for
// the result), or -1.
func (m *Method) slot(name string) int {
	for i, p := range m.Params {
		if p.Name == name {
			return i
		}
	}
	if m.Result != nil && m.Result.Name == name {
		return len(m.Params)
	}
	return -1
}

func (m *Method) slotType(i int) Type {
	if i < len(m.Params) {
		return m.Params[i].Type
	}
	return m.Result.Type
}

func (s *Spec) constant(name string) *Constant {
	for _, c := range s.Constants {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (s *Spec) abstraction(name string) *Func {
	for _, f := range s.Abstractions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func (s *Spec) function(name string) (*Func, int) {
	for i, f := range s.Functions {
		if f.Name == name {
			return f, i
		}
	}
	return nil, -1
}

// resolve checks a and returns the typed node, or nil after reporting errors.
func (sc *scope) resolve(a *ast) *node {
	switch a.kind {
	case aInt:
		return &node{op: nConst, typ: Int, val: a.val, off: a.off}
	case aBool:
		return &node{op: nConst, typ: Bool, val: a.val, off: a.off}
	case aName:
		return sc.name(a)
	case aCall:
		return sc.call(a)
	case aUnary:
		x := sc.resolve(a.args[0])
		if x == nil {
			return nil
		}
		var op nodeOp
		want := Int
		switch a.op {
		case "!":
			op, want = nNot, Bool
		case "-":
			op = nNeg
		case "~":
			op = nBitNot
		}
		if x.typ != want {
			sc.errf(a.args[0].start(), "operand of %s must be %s, found %s", a.op, want, x.typ)
			return nil
		}
		return &node{op: op, typ: want, args: []*node{x}, off: a.off}
	case aBinary:
		x := sc.resolve(a.args[0])
		y := sc.resolve(a.args[1])
		if x == nil || y == nil {
			return nil
		}
		op := binOps[a.op]
		switch op {
		case nAnd, nOr:
			if !sc.want(a.args[0], x, Bool, a.op) || !sc.want(a.args[1], y, Bool, a.op) {
				return nil
			}
			return &node{op: op, typ: Bool, args: []*node{x, y}, off: a.off}
		case nEq, nNe:
			if x.typ != y.typ {
				sc.errf(a.off, "mismatched types %s and %s in %s", x.typ, y.typ, a.op)
				return nil
			}
			return &node{op: op, typ: Bool, args: []*node{x, y}, off: a.off}
		case nLt, nLe, nGt, nGe:
			if !sc.want(a.args[0], x, Int, a.op) || !sc.want(a.args[1], y, Int, a.op) {
				return nil
			}
			return &node{op: op, typ: Bool, args: []*node{x, y}, off: a.off}
		default:
			if !sc.want(a.args[0], x, Int, a.op) || !sc.want(a.args[1], y, Int, a.op) {
				return nil
			}
			return &node{op: op, typ: Int, args: []*node{x, y}, off: a.off}
		}
	}
	sc.errf(a.off, "internal error: unknown expression")
	return nil
}

func (sc *scope) want(a *ast, n *node, t Type, op string) bool {
	if n.typ != t {
		sc.errf(a.start(), "operand of %s must be %s, found %s", op, t, n.typ)
		return false
	}
	return true
}

func (sc *scope) name(a *ast) *node {
	s := sc.s
	if sc.inFunc {
		for i, p := range sc.params {
			if p.Name == a.name {
				return &node{op: nParam, typ: p.Type, slot: i, name: a.name, off: a.off}
			}
		}
	}
	if c := s.constant(a.name); c != nil {
		return &node{op: nConst, typ: c.Type, val: c.Value, name: a.name, off: a.off}
	}
	if sc.inFunc {
		sc.errf(a.off, "undefined: %s (a function body sees its parameters and the constants only)", a.name)
		return nil
	}
	if base, side, ok := splitSuffix(a.name); ok {
		m := sc.m[side]
		if i := m.slot(base); i >= 0 {
			return &node{op: nVar, typ: m.slotType(i), side: side, slot: i, name: a.name, off: a.off}
		}
		if s.abstraction(base) != nil {
			sc.errf(a.off, "%s is an abstraction function: call it, %s()", a.name, a.name)
			return nil
		}
		sc.errf(a.off, "undefined: %s (invocation %d is a call of %s, which has %s)", a.name, side+1, m.Name, m.describeNames())
		return nil
	}
	var hints []string
	for side, m := range sc.m {
		if m.slot(a.name) >= 0 {
			hints = append(hints, fmt.Sprintf("%s%d of %s", a.name, side+1, m.Name))
		}
	}
	if len(hints) > 0 {
		sc.errf(a.off, "%s needs the suffix 1 or 2 of its invocation: %s", a.name, strings.Join(hints, " or "))
		return nil
	}
	if s.abstraction(a.name) != nil {
		sc.errf(a.off, "%s is an abstraction function: call it on the state before invocation 1 or 2, %s1() or %s2()", a.name, a.name, a.name)
		return nil
	}
	sc.errf(a.off, "undefined: %s", a.name)
	return nil
}

// describeNames lists m's argument and result names.
func (m *Method) describeNames() string {
	var names []string
	for _, p := range m.Params {
		names = append(names, p.Name)
	}
	if m.Result != nil {
		names = append(names, m.Result.Name+" (result)")
	}
	if len(names) == 0 {
		return "no arguments and no result"
	}
	return strings.Join(names, ", ")
}

func (sc *scope) call(a *ast) *node {
	s := sc.s
	args := make([]*node, len(a.args))
	bad := false
	for i, x := range a.args {
		if args[i] = sc.resolve(x); args[i] == nil {
			bad = true
		}
	}
	checkArgs := func(what string, params []Param) bool {
		if len(args) != len(params) {
			sc.errf(a.off, "wrong number of arguments to %s: want %d, got %d", what, len(params), len(args))
			return false
		}
		if bad {
			return false
		}
		for i, p := range params {
			if args[i].typ != p.Type {
				sc.errf(a.args[i].start(), "argument %d of %s must be %s, found %s", i+1, what, p.Type, args[i].typ)
				return false
			}
		}
		return true
	}
	if b, ok := builtins[a.name]; ok {
		ps := []Param{{Type: Int}, {Type: Int}}[:b.arity]
		if !checkArgs(a.name, ps) {
			return nil
		}
		return &node{op: b.op, typ: Int, args: args, name: a.name, off: a.off}
	}
	if f, i := s.function(a.name); f != nil {
		if sc.inFunc && i >= sc.fnIndex {
			sc.errf(a.off, "%s is defined below this function (helper functions may only call functions defined above them)", a.name)
			return nil
		}
		if !checkArgs(a.name, f.Params) {
			return nil
		}
		return &node{op: nFunc, typ: f.Result, fn: f, args: args, name: a.name, off: a.off}
	}
	if base, side, ok := splitSuffix(a.name); ok {
		if f := s.abstraction(base); f != nil {
			if sc.inFunc {
				sc.errf(a.off, "abstraction function %s cannot be called in a helper function (pass its result as an argument)", base)
				return nil
			}
			if !checkArgs(a.name, f.Params) {
				return nil
			}
			sc.useState = true
			return &node{op: nState, typ: f.Result, fn: f, side: side, args: args, name: a.name, off: a.off}
		}
	}
	if sc.inFunc && sc.later[a.name] {
		sc.errf(a.off, "%s is defined below this function (helper functions may only call functions defined above them)", a.name)
		return nil
	}
	if s.abstraction(a.name) != nil {
		sc.errf(a.off, "%s is an abstraction function: say which state, %s1(...) (before invocation 1) or %s2(...) (before invocation 2)", a.name, a.name, a.name)
		return nil
	}
	sc.errf(a.off, "undefined function %s (builtins: min, max, abs; declare helpers under functions: and abstraction functions under abstraction:)", a.name)
	return nil
}

// mirror returns n with the roles of the two invocations exchanged.
func mirror(n *node) *node {
	if n == nil {
		return nil
	}
	c := *n
	if n.op == nVar || n.op == nState {
		c.side = 1 - n.side
	}
	if len(n.args) > 0 {
		c.args = make([]*node, len(n.args))
		for i, a := range n.args {
			c.args[i] = mirror(a)
		}
	}
	return &c
}
