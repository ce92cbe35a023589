package cir

import (
	"math"

	"ncmc/ir"
)

// The abstract syntax tree. Every node records the position of its first
// token; the checker annotates expressions with their types and resolved
// names (the unexported fields below), and lowering reads those annotations.

// File is a parsed CIR source file.
type File struct {
	Name  string
	Decls []Decl
}

// Decl is a top-level declaration: *GlobalDecl, *RecordDecl or *FuncDecl.
type Decl interface{ declPos() srcPos }

// GlobalDecl is `[atomic] global name: Type [= Init];`.
type GlobalDecl struct {
	Pos    srcPos
	Atomic bool
	Name   *Ident
	Type   TypeExpr
	Init   Expr // nil, an expression, or *InitList

	g *ir.Global
}

// RecordDecl is a record (IsObject false) or object declaration.
type RecordDecl struct {
	Pos      srcPos
	IsObject bool
	Name     *Ident
	Fields   []*FieldDecl
	Methods  []*FuncDecl

	rec    *ir.Record
	fields map[string]*FieldDecl
}

// FieldDecl is `[atomic] name: Type;` inside a record or object.
type FieldDecl struct {
	Pos    srcPos
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
	Pos     srcPos // the first token (fn, linearizable or abstraction)
	Kind    FuncKind
	Name    *Ident
	Params  []*Param
	Result  TypeExpr // nil: no result
	Body    *Block
	Recv    *RecordDecl // the enclosing object, nil for plain functions
	KindPos srcPos      // position of the linearizable/abstraction keyword

	fn *ir.Func
}

// Param is one parameter `name: Type`.
type Param struct {
	Pos  srcPos
	Name *Ident
	Type TypeExpr
}

func (d *GlobalDecl) declPos() srcPos { return d.Pos }
func (d *RecordDecl) declPos() srcPos { return d.Pos }
func (d *FuncDecl) declPos() srcPos   { return d.Pos }

// TypeExpr is a written type: *NamedType, *PtrType or *ArrayType.
type TypeExpr interface{ typePos() srcPos }

// NamedType is int, bool, mutex, cond, thread or a record/object name.
type NamedType struct {
	Pos  srcPos
	Name string
}

// PtrType is `*Elem`.
type PtrType struct {
	Pos  srcPos
	Elem TypeExpr
}

// ArrayType is `Elem[Len]`.
type ArrayType struct {
	Pos  srcPos
	Elem TypeExpr
	Len  Expr
}

func (t *NamedType) typePos() srcPos { return t.Pos }
func (t *PtrType) typePos() srcPos   { return t.Pos }
func (t *ArrayType) typePos() srcPos { return t.Pos }

// Stmt is a statement.
type Stmt interface{ stmtPos() srcPos }

// Block is `{ stmts }`.
type Block struct {
	Pos   srcPos
	Stmts []Stmt
	End   srcPos // the closing brace
}

// LetStmt is `let name [: Type] [= Init];`.
type LetStmt struct {
	Pos  srcPos
	Name *Ident
	Type TypeExpr // nil: inferred
	Init Expr     // nil: zero value

	local int // slot in the function's locals
}

// AssignStmt is `LHS = RHS;`.
type AssignStmt struct {
	Pos srcPos
	LHS Expr
	RHS Expr
}

// ExprStmt is an expression evaluated for its effects (a call).
type ExprStmt struct {
	Pos srcPos
	X   Expr
}

// IfStmt is `if (Cond) Then [else Else]`; Else is nil, *Block or *IfStmt.
type IfStmt struct {
	Pos  srcPos
	Cond Expr
	Then *Block
	Else Stmt
}

// Unroll is an `@unroll(N)` loop annotation.
type Unroll struct {
	Pos srcPos
	N   Expr

	bound int
}

// WhileStmt is `while (Cond) [@unroll(N)] Body`.
type WhileStmt struct {
	Pos    srcPos
	Cond   Expr
	Unroll *Unroll
	Body   *Block

	spin bool // an empty-bodied, effect-free spin loop: lowered as await(!Cond)
}

// ForStmt is `for (Init; Cond; Post) [@unroll(N)] Body`; each part may be nil.
type ForStmt struct {
	Pos    srcPos
	Init   Stmt // *LetStmt, *AssignStmt or *ExprStmt
	Cond   Expr
	Post   Stmt // *AssignStmt or *ExprStmt
	Unroll *Unroll
	Body   *Block
}

// RangeStmt is `for Var in Lo..Hi [@unroll(N)] Body`.
type RangeStmt struct {
	Pos    srcPos
	Var    *Ident
	Lo, Hi Expr
	Unroll *Unroll
	Body   *Block

	local    int  // slot of Var
	constant bool // Lo and Hi are constants: no loop-bound check
}

// BranchStmt is `break;` or `continue;`.
type BranchStmt struct {
	Pos   srcPos
	Break bool
}

// ReturnStmt is `return [Result];`.
type ReturnStmt struct {
	Pos    srcPos
	Result Expr
}

// AwaitStmt is `await (Cond);`.
type AwaitStmt struct {
	Pos  srcPos
	Cond Expr
}

// AssertStmt is `assert(Cond[, "Msg"]);`. Msg defaults to the source text of Cond.
type AssertStmt struct {
	Pos  srcPos
	Cond Expr
	Msg  string
}

// AssumeStmt is `assume(Cond);`.
type AssumeStmt struct {
	Pos  srcPos
	Cond Expr
}

// AtomicStmt is `atomic Body`.
type AtomicStmt struct {
	Pos  srcPos
	Body *Block
}

func (s *Block) stmtPos() srcPos      { return s.Pos }
func (s *LetStmt) stmtPos() srcPos    { return s.Pos }
func (s *AssignStmt) stmtPos() srcPos { return s.Pos }
func (s *ExprStmt) stmtPos() srcPos   { return s.Pos }
func (s *IfStmt) stmtPos() srcPos     { return s.Pos }
func (s *WhileStmt) stmtPos() srcPos  { return s.Pos }
func (s *ForStmt) stmtPos() srcPos    { return s.Pos }
func (s *RangeStmt) stmtPos() srcPos  { return s.Pos }
func (s *BranchStmt) stmtPos() srcPos { return s.Pos }
func (s *ReturnStmt) stmtPos() srcPos { return s.Pos }
func (s *AwaitStmt) stmtPos() srcPos  { return s.Pos }
func (s *AssertStmt) stmtPos() srcPos { return s.Pos }
func (s *AssumeStmt) stmtPos() srcPos { return s.Pos }
func (s *AtomicStmt) stmtPos() srcPos { return s.Pos }

// Expr is an expression.
type Expr interface {
	exprPos() srcPos
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
	Pos  srcPos
	Name string
}

// IntLit is an integer literal. Val holds the unsigned value; literals
// above MaxInt64 are only valid as the operand of unary minus (-9223372036854775808)
// or in hexadecimal (two's complement).
type IntLit struct {
	exprInfo
	Pos  srcPos
	Val  uint64
	Text string
}

// BoolLit is true or false.
type BoolLit struct {
	exprInfo
	Pos srcPos
	Val bool
}

// NullLit is null.
type NullLit struct {
	exprInfo
	Pos srcPos
}

// ThisExpr is this (the receiver inside methods).
type ThisExpr struct {
	exprInfo
	Pos srcPos
}

// UnaryExpr is `Op X` for ! - ~.
type UnaryExpr struct {
	exprInfo
	Pos srcPos
	Op  tokKind
	X   Expr
}

// BinaryExpr is `X Op Y`.
type BinaryExpr struct {
	exprInfo
	X     Expr
	Op    tokKind
	OpPos srcPos
	Y     Expr
}

// ParenExpr is `(X)`, kept so that positions and assert messages stay faithful.
type ParenExpr struct {
	exprInfo
	Pos srcPos
	X   Expr
}

// IndexExpr is `X[Index]`.
type IndexExpr struct {
	exprInfo
	X     Expr
	Index Expr
	LPos  srcPos // the '['
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
	LParen srcPos
}

// BuiltinCall is a call of a builtin (lock, load, cas, nondet, join, ...).
// Memory-order arguments are parsed as identifiers and checked by name.
type BuiltinCall struct {
	exprInfo
	Pos  srcPos
	Op   tokKind
	Args []Expr

	orders [2]ir.Order // resolved memory orders
}

// SpawnExpr is `spawn f(args)`.
type SpawnExpr struct {
	exprInfo
	Pos  srcPos
	Call *CallExpr
}

// NewExpr is `new R { f: v, ... }`.
type NewExpr struct {
	exprInfo
	Pos   srcPos
	Type  *Ident
	Inits []*FieldInit

	rec *RecordDecl
}

// FieldInit is one `name: value` of a NewExpr.
type FieldInit struct {
	Pos   srcPos
	Name  *Ident
	Value Expr

	field *FieldDecl
}

// InitList is `{ e, ... }`, the initializer of a global array.
type InitList struct {
	exprInfo
	Pos   srcPos
	Elems []Expr
}

func (x *Ident) exprPos() srcPos       { return x.Pos }
func (x *IntLit) exprPos() srcPos      { return x.Pos }
func (x *BoolLit) exprPos() srcPos     { return x.Pos }
func (x *NullLit) exprPos() srcPos     { return x.Pos }
func (x *ThisExpr) exprPos() srcPos    { return x.Pos }
func (x *UnaryExpr) exprPos() srcPos   { return x.Pos }
func (x *BinaryExpr) exprPos() srcPos  { return x.X.exprPos() }
func (x *ParenExpr) exprPos() srcPos   { return x.Pos }
func (x *IndexExpr) exprPos() srcPos   { return x.X.exprPos() }
func (x *FieldExpr) exprPos() srcPos   { return x.X.exprPos() }
func (x *CallExpr) exprPos() srcPos    { return x.Fun.exprPos() }
func (x *BuiltinCall) exprPos() srcPos { return x.Pos }
func (x *SpawnExpr) exprPos() srcPos   { return x.Pos }
func (x *NewExpr) exprPos() srcPos     { return x.Pos }
func (x *InitList) exprPos() srcPos    { return x.Pos }

// srcPos is a position in the file being compiled: line and column,
// 1-based (0: unknown). The tree holds these 8 bytes, not an ir.Pos (32
// bytes, with the file name) per node; in makes the ir.Pos.
type srcPos struct{ line, col int32 }

// in is p in file.
func (p srcPos) in(file string) ir.Pos {
	return ir.Pos{File: file, Line: int(p.line), Col: int(p.col)}
}

// mkPos is the position of line and column (numbers past the range of
// int32, in a file of more than 2 GB, stay at its maximum).
func mkPos(line, col int) srcPos {
	return srcPos{int32(min(line, math.MaxInt32)), int32(min(col, math.MaxInt32))}
}
