// Package commspec reads, checks and evaluates commutativity specifications
// of concurrent objects: for every pair of linearizable methods of an object
// type, a condition on two invocations (their arguments, results and, in
// logic L1, the object's abstract state before each of them) under which the
// two invocations commute. The format (YAML) and the condition language are
// documented in docs/commspec.md.
//
// A Spec is obtained with Parse or ParseFile, which report every error of the
// file as "file:line:col: message" (a diag.ErrorList), and is checked against
// the object type of a CIR program with CheckProgram. Explorers ask
// Spec.Commute(a, b) for two invocations, or use the compiled access points
// (Spec.AccessPoints, Index) for constant-time conflict checks. `ncmc spec
// check` (package commspec/speccheck) tests a spec's soundness against an
// implementation.
package commspec

import (
	"fmt"
	"strings"

	"ncmc/ir"
	"ncmc/seg"
)

// Type is the type of a value in a specification.
type Type uint8

// Value types. Booleans are represented as 0 (false) and 1 (true).
const (
	Int Type = iota + 1
	Bool
)

func (t Type) String() string {
	switch t {
	case Int:
		return "int"
	case Bool:
		return "bool"
	}
	return "?"
}

// Param is a named, typed argument or result.
type Param struct {
	Name string
	Type Type
	Pos  ir.Pos
}

// Method is one linearizable method of the object, as the spec declares it.
type Method struct {
	Name   string
	Index  int // in Spec.Methods
	Params []Param
	Result *Param // nil for a method without result
	Pos    ir.Pos
}

// Func is a function a condition can call: an abstraction function of the
// object (Def empty: it is computed by the CIR `abstraction fn` of the same
// name) or a helper function defined in the spec (Def is its body).
type Func struct {
	Name   string
	Params []Param
	Result Type
	Def    string // helper functions only
	Pos    ir.Pos
	body   *node
	cost   int // nodes evaluated by one call, helper calls expanded
}

// Constant is a named constant of the spec (e.g. `nil: 0`).
type Constant struct {
	Name  string
	Type  Type
	Value int64
	Pos   ir.Pos
}

// Cond is the commutativity condition of an ordered pair of methods (M1, M2):
// it is evaluated on an invocation of M1 (suffix 1 in the condition) and an
// invocation of M2 (suffix 2).
type Cond struct {
	M1, M2 *Method
	// Text is the condition as written (for a derived condition, the text of
	// the mirrored one with the suffixes 1 and 2 of its variables and state
	// functions exchanged).
	Text string
	// Pos is the position of the condition text; KeyPos that of its "m1/m2" key.
	Pos, KeyPos ir.Pos
	// Derived marks a condition that the file does not give for (M1, M2)
	// but gives for (M2, M1): it is that condition with the roles of the two
	// invocations exchanged.
	Derived bool
	// Symmetry says how the required symmetry was established: for M1 == M2
	// that the condition is symmetric, for a pair given in both orders that
	// the two agree. "syntactic": equal after normalisation; "bounded": no
	// asymmetry found by exhaustive or sampled evaluation over a small domain
	// (docs/commspec.md §6); "" if nothing had to be checked.
	Symmetry string
	root     *node
	useState bool
}

// UsesState reports whether the condition calls abstraction functions (logic
// L1). Conditions that do not are in logic L2 and ignore Invocation.State.
func (c *Cond) UsesState() bool { return c.useState }

// Logic returns "L1" or "L2".
func (c *Cond) Logic() string {
	if c.useState {
		return "L1"
	}
	return "L2"
}

// Name is "m1/m2".
func (c *Cond) Name() string { return c.M1.Name + "/" + c.M2.Name }

func (c *Cond) String() string { return c.Name() + ": " + c.Source() }

// Source returns the condition's text with white space collapsed.
func (c *Cond) Source() string { return strings.Join(strings.Fields(c.Text), " ") }

// State is the abstract state of an object just before an invocation. Eval
// runs the object's abstraction function fn with args there and returns its
// result (booleans as 0/1). ncmc.AbsState implements it on a copy of an
// execution's memory.
type State interface {
	Eval(fn string, args []int64) (int64, error)
}

// Invocation is what a condition sees of one invocation: the method, its
// arguments (without the receiver), its result (ignored for methods without
// one) and, for conditions in logic L1, the abstract state of the object just
// before it (nil if unknown: an L1 condition then fails to evaluate, and
// Commute answers "do not commute").
type Invocation struct {
	Method string
	Args   []int64
	Ret    int64
	State  State
}

func (v Invocation) String() string {
	s := make([]string, len(v.Args))
	for i, a := range v.Args {
		s[i] = fmt.Sprint(a)
	}
	return fmt.Sprintf("%s(%s)\\%d", v.Method, strings.Join(s, ", "), v.Ret)
}

// FromSeg converts an invocation recorded by the interpreter (a KInvBegin /
// KInvEnd event's Inv) to an Invocation with abstract state st (may be nil).
func FromSeg(inv *seg.Invocation, st State) Invocation {
	return Invocation{Method: inv.Method, Args: inv.Args, Ret: inv.Ret, State: st}
}

// CheckConfig holds the optional `check:` section, used by `ncmc spec check`.
type CheckConfig struct {
	// Depth is the length of the call sequences that build object states
	// (-1: not given; 0: the initial state only).
	Depth int
	// Ints is the domain of int arguments (nil: not given).
	Ints []int64
	// Args gives the domain of single arguments, by "method.arg" or, for an
	// argument of an abstraction function, "fn.arg".
	Args map[string][]int64
	// Init lists the calls that set up a fresh instance before any state is
	// built (e.g. a non-linearizable init method).
	Init []InitCall
	Pos  ir.Pos
}

// InitCall is one call of the check section's init list.
type InitCall struct {
	Method string
	Args   []int64
	Pos    ir.Pos
}

func (c InitCall) String() string {
	s := make([]string, len(c.Args))
	for i, a := range c.Args {
		s[i] = fmt.Sprint(a)
	}
	return c.Method + "(" + strings.Join(s, ", ") + ")"
}

// Spec is a checked commutativity specification of one object type. Its
// fields describe the file and must not be modified; a Spec (and its
// AccessPoints) is read-only after Parse and safe for concurrent use. An
// Index is not: use one per execution.
type Spec struct {
	File         string
	Object       string
	ObjectPos    ir.Pos
	Doc          string
	Methods      []*Method
	Abstractions []*Func
	Functions    []*Func
	Constants    []*Constant
	Check        CheckConfig

	methodIdx map[string]int
	conds     [][]*Cond // [i][j]: condition of (Methods[i], Methods[j]); nil: do not commute
	given     []*Cond   // conditions as written, in file order
	ap        *AccessPoints
	src       []byte
}

// Method returns the method called name, or nil.
func (s *Spec) Method(name string) *Method {
	if i, ok := s.methodIdx[name]; ok {
		return s.Methods[i]
	}
	return nil
}

// Cond returns the condition of the ordered pair (m1, m2), or nil if the
// spec gives none (the methods then never commute) or a method is unknown.
func (s *Spec) Cond(m1, m2 string) *Cond {
	i, ok1 := s.methodIdx[m1]
	j, ok2 := s.methodIdx[m2]
	if !ok1 || !ok2 {
		return nil
	}
	return s.conds[i][j]
}

// Conds returns the conditions as written in the file, in file order
// (without the derived mirror images).
func (s *Spec) Conds() []*Cond { return s.given }

// AllConds returns the condition of every ordered pair of methods that has
// one, derived ones included, in method order.
func (s *Spec) AllConds() []*Cond {
	var out []*Cond
	for _, row := range s.conds {
		for _, c := range row {
			if c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// UsesState reports whether some condition is in logic L1.
func (s *Spec) UsesState() bool {
	for _, c := range s.given {
		if c.useState {
			return true
		}
	}
	return false
}

// Eval evaluates the condition of (a.Method, b.Method) on a and b: true means
// the spec says they commute. A pair without condition is false (no error).
// It fails for an unknown method, a wrong number of arguments, a run-time
// error inside the condition (division by zero, a shift out of range) or a
// failing state evaluation (L1; including a nil State).
func (s *Spec) Eval(a, b Invocation) (bool, error) {
	i, ok := s.methodIdx[a.Method]
	if !ok {
		return false, fmt.Errorf("%s: method %s is not in the spec of %s", s.File, a.Method, s.Object)
	}
	j, ok := s.methodIdx[b.Method]
	if !ok {
		return false, fmt.Errorf("%s: method %s is not in the spec of %s", s.File, b.Method, s.Object)
	}
	c := s.conds[i][j]
	if c == nil {
		return false, nil
	}
	return c.Eval(a, b)
}

// Commute reports whether the spec says a and b commute. Any evaluation
// error (see Eval) counts as "do not commute", which is the safe answer for
// an explorer: it only costs reduction.
func (s *Spec) Commute(a, b Invocation) bool {
	ok, err := s.Eval(a, b)
	return ok && err == nil
}

// Eval evaluates c on an invocation a of c.M1 and b of c.M2.
func (c *Cond) Eval(a, b Invocation) (bool, error) {
	if a.Method != c.M1.Name || b.Method != c.M2.Name {
		return false, fmt.Errorf("condition %s applied to %s and %s", c.Name(), a.Method, b.Method)
	}
	if err := arity(c.M1, a); err != nil {
		return false, err
	}
	if err := arity(c.M2, b); err != nil {
		return false, err
	}
	e := env{inv: [2]*Invocation{&a, &b}}
	v, err := e.eval(c.root)
	return v != 0, err
}

func arity(m *Method, v Invocation) error {
	if len(v.Args) != len(m.Params) {
		return fmt.Errorf("%s takes %d arguments, the invocation has %d", m.Name, len(m.Params), len(v.Args))
	}
	return nil
}
