package cir

import "ncmc/ir"

// The abstract syntax tree. Every node records the position of its first
// token; the checker annotates expressions with their types and resolved
// names (the unexported fields below), and lowering reads those annotations.

// File is a parsed CIR source file.
type File struct {
	Name  string
	Decls []Decl
}

// Decl is a top-level declaration: *GlobalDecl, *RecordDecl or *FuncDecl.
type Decl interface{ declPos() ir.Pos }

// GlobalDecl is `[atomic] global name: Type [= Init];`.
type GlobalDecl struct {
	Pos    ir.Pos
	Atomic bool
	Name   *Ident
	Type   TypeExpr
	Init   Expr // nil, an expression, or *InitList

	g *ir.Global
}

// RecordDecl is a record (IsObject false) or object declaration.
type RecordDecl struct {
	Pos      ir.Pos
	IsObject bool
	Name     *Ident
	Fields   []*FieldDecl
	Methods  []*FuncDecl

	rec    *ir.Record
	fields map[string]*FieldDecl
}

// FieldDecl is `[atomic] name: Type;` inside a record or object.
type FieldDecl struct {
	Pos    ir.Pos
	Atomic bool
	Name   *Ident
	Type   TypeExpr

	f *ir.Field
}

// FuncKind is the declared flavour of a function.
type FuncKind uint8

// Function flavours.
const (
	FnPlain        FuncKind = iota // fn
	FnLinearizable                 // linearizable fn
	FnAbstraction                  // abstraction fn
)

// FuncDecl is a function or (inside an object) a method.
type FuncDecl struct {
	Pos     ir.Pos // the first token (fn, linearizable or abstraction)
	Kind    FuncKind
	Name    *Ident
	Params  []*Param
	Result  TypeExpr // nil: no result
	Body    *Block
	Recv    *RecordDecl // the enclosing object, nil for plain functions
	KindPos ir.Pos      // position of the linearizable/abstraction keyword

	fn *ir.Func
}

// Param is one parameter `name: Type`.
type Param struct {
	Pos  ir.Pos
	Name *Ident
	Type TypeExpr
}

func (d *GlobalDecl) declPos() ir.Pos { return d.Pos }
func (d *RecordDecl) declPos() ir.Pos { return d.Pos }
func (d *FuncDecl) declPos() ir.Pos   { return d.Pos }

// TypeExpr is a written type: *NamedType, *PtrType or *ArrayType.
type TypeExpr interface{ typePos() ir.Pos }

// NamedType is int, bool, mutex, cond, thread or a record/object name.
type NamedType struct {
	Pos  ir.Pos
	Name string
}

// PtrType is `*Elem`.
type PtrType struct {
	Pos  ir.Pos
	Elem TypeExpr
}

// ArrayType is `Elem[Len]`.
type ArrayType struct {
	Pos  ir.Pos
	Elem TypeExpr
	Len  Expr
}

func (t *NamedType) typePos() ir.Pos { return t.Pos }
func (t *PtrType) typePos() ir.Pos   { return t.Pos }
func (t *ArrayType) typePos() ir.Pos { return t.Pos }

// Stmt is a statement.
type Stmt interface{ stmtPos() ir.Pos }

// Block is `{ stmts }`.
type Block struct {
	Pos   ir.Pos
	Stmts []Stmt
	End   ir.Pos // the closing brace
}

// LetStmt is `let name [: Type] [= Init];`.
type LetStmt struct {
	Pos  ir.Pos
	Name *Ident
	Type TypeExpr // nil: inferred
	Init Expr     // nil: zero value

	local int // slot in the function's locals
}

// AssignStmt is `LHS = RHS;`.
type AssignStmt struct {
	Pos ir.Pos
	LHS Expr
	RHS Expr
}

// ExprStmt is an expression evaluated for its effects (a call).
type ExprStmt struct {
	Pos ir.Pos
	X   Expr
}

// IfStmt is `if (Cond) Then [else Else]`; Else is nil, *Block or *IfStmt.
type IfStmt struct {
	Pos  ir.Pos
	Cond Expr
	Then *Block
	Else Stmt
}

// Unroll is an `@unroll(N)` loop annotation.
type Unroll struct {
	Pos ir.Pos
	N   Expr

	bound int
}

// WhileStmt is `while (Cond) [@unroll(N)] Body`.
type WhileStmt struct {
	Pos    ir.Pos
	Cond   Expr
	Unroll *Unroll
	Body   *Block

	spin bool // an empty-bodied, effect-free spin loop: lowered as await(!Cond)
}

// ForStmt is `for (Init; Cond; Post) [@unroll(N)] Body`; each part may be nil.
type ForStmt struct {
	Pos    ir.Pos
	Init   Stmt // *LetStmt, *AssignStmt or *ExprStmt
	Cond   Expr
	Post   Stmt // *AssignStmt or *ExprStmt
	Unroll *Unroll
	Body   *Block
}

// RangeStmt is `for Var in Lo..Hi [@unroll(N)] Body`.
type RangeStmt struct {
	Pos    ir.Pos
	Var    *Ident
	Lo, Hi Expr
	Unroll *Unroll
	Body   *Block

	local    int  // slot of Var
	constant bool // Lo and Hi are constants: no loop-bound check
}

// BranchStmt is `break;` or `continue;`.
type BranchStmt struct {
	Pos   ir.Pos
	Break bool
}

// ReturnStmt is `return [Result];`.
type ReturnStmt struct {
	Pos    ir.Pos
	Result Expr
}

// AwaitStmt is `await (Cond);`.
type AwaitStmt struct {
	Pos  ir.Pos
	Cond Expr
}

// AssertStmt is `assert(Cond[, "Msg"]);`. Msg defaults to the source text of Cond.
type AssertStmt struct {
	Pos  ir.Pos
	Cond Expr
	Msg  string
}

// AssumeStmt is `assume(Cond);`.
type AssumeStmt struct {
	Pos  ir.Pos
	Cond Expr
}

// AtomicStmt is `atomic Body`.
type AtomicStmt struct {
	Pos  ir.Pos
	Body *Block
}

func (s *Block) stmtPos() ir.Pos      { return s.Pos }
func (s *LetStmt) stmtPos() ir.Pos    { return s.Pos }
func (s *AssignStmt) stmtPos() ir.Pos { return s.Pos }
func (s *ExprStmt) stmtPos() ir.Pos   { return s.Pos }
func (s *IfStmt) stmtPos() ir.Pos     { return s.Pos }
func (s *WhileStmt) stmtPos() ir.Pos  { return s.Pos }
func (s *ForStmt) stmtPos() ir.Pos    { return s.Pos }
func (s *RangeStmt) stmtPos() ir.Pos  { return s.Pos }
func (s *BranchStmt) stmtPos() ir.Pos { return s.Pos }
func (s *ReturnStmt) stmtPos() ir.Pos { return s.Pos }
func (s *AwaitStmt) stmtPos() ir.Pos  { return s.Pos }
func (s *AssertStmt) stmtPos() ir.Pos { return s.Pos }
func (s *AssumeStmt) stmtPos() ir.Pos { return s.Pos }
func (s *AtomicStmt) stmtPos() ir.Pos { return s.Pos }

// Expr is an expression.
type Expr interface {
	exprPos() ir.Pos
	info() *exprInfo
}

// exprInfo is what the checker learns about an expression.
type exprInfo struct {
	typ *ir.Type
	// sym is what an identifier refers to.
	sym *symbol
	// cval is the value of a constant expression (isConst).
	cval    int64
	isConst bool
}

func (x *exprInfo) info() *exprInfo { return x }

// Ident is a name.
type Ident struct {
	exprInfo
	Pos  ir.Pos
	Name string
}

// IntLit is an integer literal. Val holds the unsigned value; literals
// above MaxInt64 are only valid as the operand of unary minus (-9223372036854775808)
// or in hexadecimal (two's complement).
type IntLit struct {
	exprInfo
	Pos  ir.Pos
	Val  uint64
	Text string
}

// BoolLit is true or false.
type BoolLit struct {
	exprInfo
	Pos ir.Pos
	Val bool
}

// NullLit is null.
type NullLit struct {
	exprInfo
	Pos ir.Pos
}

// ThisExpr is this (the receiver inside methods).
type ThisExpr struct {
	exprInfo
	Pos ir.Pos
}

// UnaryExpr is `Op X` for ! - ~.
type UnaryExpr struct {
	exprInfo
	Pos ir.Pos
	Op  tokKind
	X   Expr
}

// BinaryExpr is `X Op Y`.
type BinaryExpr struct {
	exprInfo
	X     Expr
	Op    tokKind
	OpPos ir.Pos
	Y     Expr
}

// ParenExpr is `(X)`, kept so that positions and assert messages stay faithful.
type ParenExpr struct {
	exprInfo
	Pos ir.Pos
	X   Expr
}

// IndexExpr is `X[Index]`.
type IndexExpr struct {
	exprInfo
	X     Expr
	Index Expr
	LPos  ir.Pos // the '['
}

// FieldExpr is `X.Name`: a field of a global object/record instance, of the
// record a pointer points to, or (as a call's Fun) a method.
type FieldExpr struct {
	exprInfo
	X    Expr
	Name *Ident

	field  *FieldDecl // the field selected (nil for method values)
	method *FuncDecl  // the method selected by a method call
}

// CallExpr is a function call `Fun(Args)` or a method call `X.m(Args)`.
type CallExpr struct {
	exprInfo
	Fun    Expr // *Ident or *FieldExpr (anything else is an error)
	Args   []Expr
	LParen ir.Pos
}

// BuiltinCall is a call of a builtin (lock, load, cas, nondet, join, ...).
// Memory-order arguments are parsed as identifiers and checked by name.
type BuiltinCall struct {
	exprInfo
	Pos  ir.Pos
	Op   tokKind
	Args []Expr

	orders [2]ir.Order // resolved memory orders
}

// SpawnExpr is `spawn f(args)`.
type SpawnExpr struct {
	exprInfo
	Pos  ir.Pos
	Call *CallExpr
}

// NewExpr is `new R { f: v, ... }`.
type NewExpr struct {
	exprInfo
	Pos   ir.Pos
	Type  *Ident
	Inits []*FieldInit

	rec *RecordDecl
}

// FieldInit is one `name: value` of a NewExpr.
type FieldInit struct {
	Pos   ir.Pos
	Name  *Ident
	Value Expr

	field *FieldDecl
}

// InitList is `{ e, ... }`, the initializer of a global array.
type InitList struct {
	exprInfo
	Pos   ir.Pos
	Elems []Expr
}

func (x *Ident) exprPos() ir.Pos       { return x.Pos }
func (x *IntLit) exprPos() ir.Pos      { return x.Pos }
func (x *BoolLit) exprPos() ir.Pos     { return x.Pos }
func (x *NullLit) exprPos() ir.Pos     { return x.Pos }
func (x *ThisExpr) exprPos() ir.Pos    { return x.Pos }
func (x *UnaryExpr) exprPos() ir.Pos   { return x.Pos }
func (x *BinaryExpr) exprPos() ir.Pos  { return x.X.exprPos() }
func (x *ParenExpr) exprPos() ir.Pos   { return x.Pos }
func (x *IndexExpr) exprPos() ir.Pos   { return x.X.exprPos() }
func (x *FieldExpr) exprPos() ir.Pos   { return x.X.exprPos() }
func (x *CallExpr) exprPos() ir.Pos    { return x.Fun.exprPos() }
func (x *BuiltinCall) exprPos() ir.Pos { return x.Pos }
func (x *SpawnExpr) exprPos() ir.Pos   { return x.Pos }
func (x *NewExpr) exprPos() ir.Pos     { return x.Pos }
func (x *InitList) exprPos() ir.Pos    { return x.Pos }
