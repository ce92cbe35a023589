// Package ir defines the intermediate representation shared by every front end
// (CIR, litmus, C) and every explorer of ncmc.
//
// An ir.Program is a set of shared globals laid out in memory blocks, record
// and object types, and functions whose bodies are flat instruction lists.
// Instructions are either invisible (they touch only the executing thread's
// locals: Assign, Jump, Branch, ...) or visible (they touch shared state and
// become events of the execution graph: Load, Store, RMW, Lock, Spawn, ...).
// Expressions are pure: they read locals and constants only, so every shared
// memory access is its own instruction with its own memory order.
//
// Values are int64. Booleans are 0/1. Floats (TFloat) are IEEE 754 bit
// patterns, computed on by the floating-point operators (float.go).
// Pointers are encoded by MakePtr as
// block<<32 | offset, with 0 the null pointer; block ids 1..len(Globals) are
// the globals (in order), larger ids are heap blocks named by the explorer.
// Thread handles are thread numbers + 1 (0 is "no thread").
package ir

import "fmt"

// Pos is a source position. Line and Col are 1-based; the zero Pos is unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a real source position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		if p.File != "" {
			return p.File
		}
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Order is a C11-style memory order of an access or fence.
type Order uint8

// Memory orders. OrderNA is a plain (non-atomic) access.
const (
	OrderNA Order = iota
	OrderRlx
	OrderAcq
	OrderRel
	OrderAcqRel
	OrderSC
)

var orderNames = [...]string{"na", "rlx", "acq", "rel", "acq_rel", "sc"}

func (o Order) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("order(%d)", o)
}

// ParseOrder maps a memory-order name (na, rlx, acq, rel, acq_rel, sc) to an Order.
func ParseOrder(s string) (Order, bool) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), true
		}
	}
	return 0, false
}

// IsAtomic reports whether o is an atomic order (anything but na).
func (o Order) IsAtomic() bool { return o != OrderNA }

// IsAcquire reports whether o has acquire semantics (acq, acq_rel, sc).
func (o Order) IsAcquire() bool { return o == OrderAcq || o == OrderAcqRel || o == OrderSC }

// IsRelease reports whether o has release semantics (rel, acq_rel, sc).
func (o Order) IsRelease() bool { return o == OrderRel || o == OrderAcqRel || o == OrderSC }

// TypeKind classifies types.
type TypeKind uint8

// Type kinds.
const (
	TVoid TypeKind = iota
	TInt
	TBool
	TMutex
	TCond
	TThread
	TPtr    // pointer to Record (Record nil: untyped pointer, e.g. null)
	TArray  // Len elements of Elem
	TRecord // an embedded record or object instance
	// TFloat is an IEEE 754 binary floating-point number of Width 32
	// (C float) or 64 (C double), held in a cell as its bit pattern
	// (FloatBits, FloatValue).
	TFloat
)

// Type is a CIR type. Types are compared structurally with Equal.
type Type struct {
	Kind   TypeKind
	Elem   *Type   // TArray
	Len    int     // TArray
	Record *Record // TPtr, TRecord
	// Width and Signed describe fixed-width integers (C front end); Width 0
	// means an unbounded-in-practice int64.
	Width  int
	Signed bool
}

// Predeclared scalar types.
var (
	Void   = &Type{Kind: TVoid}
	Int    = &Type{Kind: TInt}
	Bool   = &Type{Kind: TBool}
	Mutex  = &Type{Kind: TMutex}
	Cond   = &Type{Kind: TCond}
	Thread = &Type{Kind: TThread}
	// Float32 and Float64 are IEEE 754 single and double precision.
	Float32 = &Type{Kind: TFloat, Width: 32}
	Float64 = &Type{Kind: TFloat, Width: 64}
)

// PtrTo returns the pointer type to r.
func PtrTo(r *Record) *Type { return &Type{Kind: TPtr, Record: r} }

// ArrayOf returns the array type of n elems.
func ArrayOf(elem *Type, n int) *Type { return &Type{Kind: TArray, Elem: elem, Len: n} }

// Size is the number of memory cells a value of type t occupies.
func (t *Type) Size() int {
	switch t.Kind {
	case TVoid:
		return 0
	case TArray:
		return t.Len * t.Elem.Size()
	case TRecord:
		return t.Record.Size
	default:
		return 1
	}
}

// Equal reports structural type equality.
func (t *Type) Equal(u *Type) bool {
	if t == u {
		return true
	}
	if t == nil || u == nil || t.Kind != u.Kind {
		return false
	}
	switch t.Kind {
	case TArray:
		return t.Len == u.Len && t.Elem.Equal(u.Elem)
	case TPtr, TRecord:
		return t.Record == u.Record || t.Record == nil || u.Record == nil
	case TInt:
		return t.Width == u.Width && t.Signed == u.Signed
	case TFloat:
		return t.Width == u.Width
	}
	return true
}

// IsScalar reports whether t fits one cell and can be held in a local.
func (t *Type) IsScalar() bool {
	switch t.Kind {
	case TInt, TBool, TThread, TPtr, TFloat:
		return true
	}
	return false
}

func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	switch t.Kind {
	case TVoid:
		return "void"
	case TInt:
		if t.Width != 0 {
			if t.Signed {
				return fmt.Sprintf("i%d", t.Width)
			}
			return fmt.Sprintf("u%d", t.Width)
		}
		return "int"
	case TBool:
		return "bool"
	case TFloat:
		return fmt.Sprintf("f%d", t.Width)
	case TMutex:
		return "mutex"
	case TCond:
		return "cond"
	case TThread:
		return "thread"
	case TPtr:
		if t.Record == nil {
			return "*null"
		}
		return "*" + t.Record.Name
	case TArray:
		return fmt.Sprintf("%s[%d]", t.Elem, t.Len)
	case TRecord:
		return t.Record.Name
	}
	return "?"
}

// Record is a record type (heap records such as list nodes) or an object type
// (a record with methods). Fields are laid out consecutively in cells.
type Record struct {
	Name     string
	Fields   []*Field
	Size     int     // cells
	Methods  []*Func // IsObject only
	IsObject bool
	Pos      Pos
}

// Field is one field of a record.
type Field struct {
	Name   string
	Type   *Type
	Offset int // first cell, relative to the record start
	Pos    Pos
}

// FieldByName returns the field called name, or nil.
func (r *Record) FieldByName(name string) *Field {
	for _, f := range r.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// MethodByName returns the method called name, or nil.
func (r *Record) MethodByName(name string) *Func {
	for _, m := range r.Methods {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Global is a shared variable: one memory block of Type.Size() cells.
type Global struct {
	Name  string
	Type  *Type
	Block int     // block id (1-based index in Program.Globals)
	Init  []int64 // initial value of each cell (len == Type.Size())
	// Atomic marks globals declared atomic: plain accesses to them default to sc.
	Atomic bool
	// Hidden marks storage the front end adds (a C string literal's chars):
	// not shown in final states.
	Hidden bool
	Pos    Pos
}

// FuncKind says what role a function plays.
type FuncKind uint8

// Function kinds.
const (
	FuncPlain        FuncKind = iota
	FuncMethod                // a method of an object type (receiver is local 0)
	FuncLinearizable          // a linearizable method: its calls are invocations
	FuncAbstraction           // a pure abstraction function of an object (for L1 specs)
)

func (k FuncKind) String() string {
	return [...]string{"fn", "method", "linearizable", "abstraction"}[k]
}

// Local is a thread-local variable slot of a function frame.
type Local struct {
	Name string
	Type *Type
	Pos  Pos
}

// Func is a function or method. Locals[0:NumParams] are the parameters (for
// methods, Locals[0] is the receiver `this`, counted in NumParams).
type Func struct {
	Name      string
	Kind      FuncKind
	Recv      *Record // methods only
	NumParams int
	Locals    []Local
	Result    *Type // Void if none
	Body      []Instr
	Pos       Pos
}

// FullName is Name for plain functions and Record.Name for methods.
func (f *Func) FullName() string {
	if f.Recv != nil {
		return f.Recv.Name + "." + f.Name
	}
	return f.Name
}

// Program is a whole lowered program.
type Program struct {
	File    string
	Source  []byte // the main source file, for counterexamples
	Globals []*Global
	Records []*Record
	Funcs   []*Func // all functions and methods
	Main    *Func
	// TLS lists the scalar thread-local variables whose address is never
	// taken (C's __thread): every thread starts with its own copy holding
	// Init, read and written by ITLSLoad and ITLSStore.
	TLS []*TLSVar
	// CondSteps, when set, makes the interpreter run every wait, signal
	// and broadcast as several steps on shared memory (see CondSteps).
	CondSteps *CondSteps
}

// CondSteps says where the hidden storage of step-wise condition variables
// lives (Program.CondSteps; interp.CondSteps adds it): Lock and Gates are
// indices into Program.Globals of a mutex that serialises the operations
// on waiter sets and of an array of CondGates gates, one per thread number.
type CondSteps struct{ Lock, Gates int }

// CondGates is the number of gates of CondSteps: threads numbered from
// CondGates on cannot wait on a step-wise condition variable.
const CondGates = 63

// CondClosed is the value of a closed gate of CondSteps (neither free nor a
// thread's handle nor DestroyedMutex).
const CondClosed int64 = -2

// TLSVar is a scalar thread-local variable (Program.TLS).
type TLSVar struct {
	Name string
	Type *Type
	Init int64
	Pos  Pos
}

// GlobalByName returns the global called name, or nil.
func (p *Program) GlobalByName(name string) *Global {
	for _, g := range p.Globals {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// FuncByName returns the plain function called name, or nil.
func (p *Program) FuncByName(name string) *Func {
	for _, f := range p.Funcs {
		if f.Recv == nil && f.Name == name {
			return f
		}
	}
	return nil
}

// RecordByName returns the record or object type called name, or nil.
func (p *Program) RecordByName(name string) *Record {
	for _, r := range p.Records {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// MakePtr encodes the address of cell off of block b.
func MakePtr(block int, off int) int64 { return int64(block)<<32 | int64(uint32(off)) }

// PtrBlock returns the block of an encoded pointer.
func PtrBlock(p int64) int { return int(p >> 32) }

// PtrOffset returns the cell offset of an encoded pointer.
func PtrOffset(p int64) int { return int(uint32(p)) }
