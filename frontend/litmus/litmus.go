// Package litmus reads litmus tests in herd7's formats — the C dialect
// (ARCH "C") and the two x86 dialects ("X86", Intel syntax, and "X86_64",
// AT&T syntax) — and lowers them to an ir.Program that ncmc explores like
// any other program.
//
// # Lowering
//
// Every shared location of the test (named in the init section, as a thread
// parameter, or in an x86 memory operand) is a global of the program,
// initialised from the init section (0 when not mentioned). Each thread Pi
// is a function "Pi"; main spawns P0, P1, … in order and ends. Registers (C
// local variables, x86 registers) are locals of their thread. A register
// that the final condition, the filter or the locations section mentions,
// say 1:r0, is also a global named "1:r0" that its thread writes, with a
// non-atomic store, at its very end: so the outcome of a test is the final
// state of the program. These stores touch locations nothing else accesses,
// so they add no reads-from or coherence choices, no data races and no
// constraint of any memory model.
//
// C accesses follow herd (bench/litmus/README.md §4.5): `*x` and `*x = e`
// are plain (non-atomic, ir.OrderNA) accesses, atomic_* operations carry
// their memory_order_* (memory_order_consume is read as relaxed, as
// rc11.cat does); atomic_compare_exchange_*(obj, exp, des, …) reads the
// expected value from location exp non-atomically, and on failure writes
// the value read back to exp non-atomically. `while` loops are unrolled
// twice, as herd does, and executions that would need a third iteration
// are discarded (an assume). The non-_explicit forms (atomic_load(x) …)
// are seq_cst, as in herd's c11.def macros.
//
// x86 accesses carry the orders of the C11-to-x86 mapping read backwards:
// a MOV load is acquire, a MOV store release, XCHG and LOCK-prefixed
// instructions are seq_cst RMWs, MFENCE a seq_cst fence; LFENCE and
// SFENCE create no event (they order nothing x86-TSO does not already
// order). The tso and sc models ignore these orders; they only matter if
// an x86 test is explored under ra or rc11.
//
// # Conditions
//
// The final condition (exists, ~exists, forall, final), the filter and the
// locations section are parsed into Prop trees that can be evaluated over
// final states (Prop.Eval), also with some values unknown (Prop.Eval3).
// Condition.String prints herd7's normal form, the form of the condition
// column of bench/litmus/expected.csv.
//
// # Errors
//
// Malformed input yields a diag.ErrorList of positioned errors
// (file:line:col: message); Parse never panics.
package litmus

import (
	"fmt"
	"sort"
	"strings"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// Test is a parsed and lowered litmus test.
type Test struct {
	File string
	// Arch is "C", "X86" or "X86_64".
	Arch string
	// Name is the test's name from its header (it need not match the file name).
	Name string
	// Doc is the optional doc string of the header.
	Doc string
	// Info lists the key=value lines before the init section, in order.
	Info [][2]string
	// Threads is the number of threads (P0 … Pn-1).
	Threads int
	// Locations lists the shared memory locations, in order of first mention.
	Locations []string
	// Init gives the initial value of shared locations and registers given
	// in the init section (missing ones start at 0).
	Init map[Loc]int64
	// Cond is the final condition. A test without one has Cond.Implicit set
	// and reads as forall (true), as herd does.
	Cond Condition
	// Filter, if not nil, restricts the executions considered (herd's filter).
	Filter *Prop
	// Extra lists the locations of the "locations [...]" section.
	Extra []Loc
	// Prog is the lowered program.
	Prog *ir.Program

	addr map[string]int64 // shared location name -> address
}

// Loc names something whose final value an outcome gives: a shared memory
// location (Thread -1) or register Name of thread Thread.
type Loc struct {
	Thread int
	Name   string
}

// IsReg reports whether l is a register.
func (l Loc) IsReg() bool { return l.Thread >= 0 }

// String renders l as herd writes it in states: "x" or "0:r0".
func (l Loc) String() string {
	if l.Thread < 0 {
		return l.Name
	}
	return fmt.Sprintf("%d:%s", l.Thread, l.Name)
}

// Global is the name of the program global that holds l's final value:
// the location's own name, or "1:r0" for register r0 of thread 1.
func (l Loc) Global() string { return l.String() }

// herd renders l in herd's normal form: "[x]" or "0:r0".
func (l Loc) herd() string {
	if l.Thread < 0 {
		return "[" + l.Name + "]"
	}
	return l.String()
}

// Observed lists the locations and registers an outcome of t shows: those
// of the condition, the filter and the locations section, in order of first
// mention; if there are none, every shared location.
func (t *Test) Observed() []Loc {
	var out []Loc
	seen := map[Loc]bool{}
	add := func(l Loc) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	t.Cond.Prop.Locs(add)
	if t.Filter != nil {
		t.Filter.Locs(add)
	}
	for _, l := range t.Extra {
		add(l)
	}
	if len(out) == 0 {
		for _, x := range t.Locations {
			add(Loc{Thread: -1, Name: x})
		}
	}
	return out
}

// Address returns the address (an ir pointer) of shared location name, as
// a value in a condition such as "p=x" denotes it.
func (t *Test) Address(name string) (int64, bool) {
	a, ok := t.addr[name]
	return a, ok
}

// Outcome renders the values of the observed locations the way herd prints
// a final state: "0:r0=0; 1:r0=1; x=2;".
func (t *Test) Outcome(val func(Loc) int64) string {
	var b strings.Builder
	for i, l := range t.Observed() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d;", l, val(l))
	}
	return b.String()
}

// Parse reads the litmus test src (file names it in positions and errors)
// and lowers it. Malformed input yields a diag.ErrorList.
func Parse(file string, src []byte) (t *Test, err error) {
	c := diag.NewCollector(file, src)
	defer func() {
		// Parse must never panic; a panic here is a bug, reported as an error
		// at the start of the file rather than crashing the checker.
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				c.Errorf(ir.Pos{File: file, Line: 1, Col: 1}, "internal error in the litmus front end: %v", r)
			}
			t, err = nil, c.Errors().Err()
			if err == nil {
				err = diag.ErrorList{&diag.Error{Pos: ir.Pos{File: file, Line: 1, Col: 1}, Msg: "malformed litmus test"}}
			}
		}
	}()
	p := newParser(file, src, c)
	t = p.parse()
	if errs := c.Errors(); len(errs) > 0 {
		return nil, errs
	}
	return t, nil
}

// sortedLocs returns the keys of m sorted (for deterministic output).
func sortedLocs(m map[Loc]int64) []Loc {
	out := make([]Loc, 0, len(m))
	for l := range m {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Thread != out[j].Thread {
			return out[i].Thread < out[j].Thread
		}
		return out[i].Name < out[j].Name
	})
	return out
}
