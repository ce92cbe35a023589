package cir

import (
	"fmt"
	"math"
	"strings"

	"ncmc/frontend/diag"
	"ncmc/ir"
)

// maxCells bounds the size of one global or record, so that a typo such as
// int[100000000] is an error rather than an out-of-memory crash.
const maxCells = 1 << 16

// maxTotalCells bounds the cells of all globals together.
const maxTotalCells = 1 << 20

type symKind uint8

const (
	symLocal symKind = iota
	symGlobal
	symFunc
	symRecord
)

// symbol is what a name refers to.
type symbol struct {
	kind     symKind
	name     string
	pos      srcPos
	typ      *ir.Type // locals and globals
	local    int      // symLocal: slot
	rangeVar bool     // symLocal: the variable of a range loop (read-only)
	global   *GlobalDecl
	index    int // symGlobal: index in Program.Globals
	fn       *FuncDecl
	rec      *RecordDecl
}

type scope struct {
	parent *scope
	syms   map[string]*symbol
}

func (s *scope) lookup(name string) *symbol {
	for ; s != nil; s = s.parent {
		if sym, ok := s.syms[name]; ok {
			return sym
		}
	}
	return nil
}

// tInvalid is the type of erroneous expressions; it suppresses follow-up errors.
var tInvalid = &ir.Type{Kind: ir.TVoid}

// tNull is the type of null.
var tNull = ir.PtrTo(nil)

// checker resolves names, checks types and the language's static rules, and
// builds the skeleton of the ir.Program (records, globals, function
// signatures and locals) that lowering then fills with instructions.
type checker struct {
	file *File
	errs *diag.Collector
	prog *ir.Program
	top  map[string]*symbol

	funcs   []*FuncDecl // all functions and methods, in Program.Funcs order
	recDecl map[*ir.Record]*RecordDecl

	// Per-function state.
	fn          *FuncDecl
	irf         *ir.Func
	sc          *scope
	loops       []int // atomic depth at entry of each enclosing loop
	atomicDepth int
	localNames  map[string]int
}

// pos is p in the file being checked.
func (c *checker) pos(p srcPos) ir.Pos { return p.in(c.file.Name) }

func (c *checker) errorf(pos srcPos, format string, args ...any) {
	c.errs.Errorf(c.pos(pos), format, args...)
}

// checkFile checks f and returns the checker and the program skeleton (nil
// if there were errors).
func checkFile(f *File, src []byte, errs *diag.Collector) (*checker, *ir.Program) {
	c := &checker{file: f, errs: errs, top: map[string]*symbol{}, recDecl: map[*ir.Record]*RecordDecl{},
		prog: &ir.Program{File: f.Name, Source: src}}
	before := errs.Len()
	c.collect()
	c.layoutRecords()
	c.declareFuncs()
	c.declareGlobals()
	for _, fd := range c.funcs {
		c.funcBody(fd)
	}
	if errs.Len() > before {
		return c, nil
	}
	return c, c.prog
}

// ---- declarations ----

func (c *checker) declareTop(name *Ident, sym *symbol) {
	if name.Name == "_" {
		return
	}
	if old, ok := c.top[name.Name]; ok {
		c.errorf(name.Pos, "%s redeclared (previous declaration at %s)", name.Name, c.pos(old.pos))
		return
	}
	c.top[name.Name] = sym
}

func (c *checker) collect() {
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *GlobalDecl:
			c.declareTop(d.Name, &symbol{kind: symGlobal, name: d.Name.Name, pos: d.Name.Pos, global: d})
		case *RecordDecl:
			d.rec = &ir.Record{Name: d.Name.Name, IsObject: d.IsObject, Pos: c.pos(d.Name.Pos)}
			c.recDecl[d.rec] = d
			c.prog.Records = append(c.prog.Records, d.rec)
			c.declareTop(d.Name, &symbol{kind: symRecord, name: d.Name.Name, pos: d.Name.Pos, rec: d})
		case *FuncDecl:
			c.declareTop(d.Name, &symbol{kind: symFunc, name: d.Name.Name, pos: d.Name.Pos, fn: d})
		}
	}
}

type typeCtx uint8

const (
	ctxGlobal typeCtx = iota
	ctxField
	ctxLocal  // let, parameters
	ctxResult // function results
)

// resolveType turns a written type into an ir.Type valid in context ctx.
func (c *checker) resolveType(t TypeExpr, ctx typeCtx) *ir.Type {
	switch t := t.(type) {
	case *NamedType:
		var typ *ir.Type
		switch t.Name {
		case "int":
			return ir.Int
		case "bool":
			return ir.Bool
		case "thread":
			return ir.Thread
		case "mutex":
			typ = ir.Mutex
		case "cond":
			typ = ir.Cond
		default:
			sym, ok := c.top[t.Name]
			if !ok {
				c.errorf(t.Pos, "undefined type %s", t.Name)
				return tInvalid
			}
			if sym.kind != symRecord {
				c.errorf(t.Pos, "%s is not a type", t.Name)
				return tInvalid
			}
			typ = &ir.Type{Kind: ir.TRecord, Record: sym.rec.rec}
			switch ctx {
			case ctxField:
				c.errorf(t.Pos, "a field cannot embed %s %s; use a pointer *%s", kindName(sym.rec), t.Name, t.Name)
				return tInvalid
			case ctxLocal, ctxResult:
				c.errorf(t.Pos, "%s values can only be global instances; use a pointer *%s", t.Name, t.Name)
				return tInvalid
			}
			return typ
		}
		if ctx == ctxLocal || ctx == ctxResult {
			c.errorf(t.Pos, "type %s is not allowed here: a %s is shared state (declare a global or a field)", t.Name, t.Name)
			return tInvalid
		}
		return typ
	case *PtrType:
		nt, ok := t.Elem.(*NamedType)
		if ok {
			if sym, found := c.top[nt.Name]; found && sym.kind == symRecord {
				return ir.PtrTo(sym.rec.rec)
			}
			if _, isBase := map[string]bool{"int": true, "bool": true, "thread": true, "mutex": true, "cond": true}[nt.Name]; !isBase {
				c.errorf(nt.Pos, "undefined type %s", nt.Name)
				return tInvalid
			}
		}
		c.errorf(t.Pos, "pointers can only point to records or objects (write *R for a record R)")
		return tInvalid
	case *ArrayType:
		if ctx == ctxLocal || ctx == ctxResult {
			c.errorf(t.Pos, "arrays are only allowed as globals and fields")
			return tInvalid
		}
		if _, nested := t.Elem.(*ArrayType); nested {
			c.errorf(t.Pos, "arrays of arrays are not supported")
			return tInvalid
		}
		elem := c.resolveType(t.Elem, ctxField)
		n := c.arrayLen(t)
		if elem == tInvalid || n < 0 {
			return tInvalid
		}
		if elem.Kind == ir.TRecord {
			c.errorf(t.Pos, "arrays of %s are not supported", elem)
			return tInvalid
		}
		return ir.ArrayOf(elem, n)
	}
	return tInvalid
}

func kindName(r *RecordDecl) string {
	if r.IsObject {
		return "object"
	}
	return "record"
}

// nonConstant returns the first part of e that cannot be part of a
// constant expression (a call, an index, a field, ...), or nil. Names are
// left to the checker, which reports globals as "not a constant".
func nonConstant(e Expr) Expr {
	switch e := e.(type) {
	case *IntLit, *BoolLit, *NullLit, *Ident:
		return nil
	case *ParenExpr:
		return nonConstant(e.X)
	case *UnaryExpr:
		return nonConstant(e.X)
	case *BinaryExpr:
		if bad := nonConstant(e.X); bad != nil {
			return bad
		}
		return nonConstant(e.Y)
	}
	return e
}

// arrayLen evaluates the length of an array type; -1 after an error.
func (c *checker) arrayLen(t *ArrayType) int {
	typ := c.exprOutside(t.Len, "array size")
	if typ == tInvalid {
		return -1
	}
	v, ok := constValue(t.Len)
	switch {
	case !ok || typ.Kind != ir.TInt:
		c.errorf(t.Len.exprPos(), "array size must be an integer constant")
		return -1
	case v <= 0:
		c.errorf(t.Len.exprPos(), "array size must be positive, not %d", v)
		return -1
	case v > maxCells:
		c.errorf(t.Len.exprPos(), "array size %d is too large (at most %d)", v, maxCells)
		return -1
	}
	return int(v)
}

// exprOutside checks an expression outside any function (array sizes,
// global initializers), which must be a constant: what names it in the
// error for anything but literals and operators.
func (c *checker) exprOutside(e Expr, what string) *ir.Type {
	if bad := nonConstant(e); bad != nil {
		c.errorf(bad.exprPos(), "%s must be a constant", what)
		return tInvalid
	}
	saveFn, saveSc := c.fn, c.sc
	c.fn, c.sc = nil, nil
	t := c.expr(e)
	c.fn, c.sc = saveFn, saveSc
	return t
}

func (c *checker) layoutRecords() {
	for _, d := range c.file.Decls {
		rd, ok := d.(*RecordDecl)
		if !ok {
			continue
		}
		rd.fields = map[string]*FieldDecl{}
		off := 0
		for _, fd := range rd.Fields {
			typ := c.resolveType(fd.Type, ctxField)
			if prev, dup := rd.fields[fd.Name.Name]; dup {
				c.errorf(fd.Name.Pos, "duplicate field %s in %s (previous declaration at %s)", fd.Name.Name, rd.Name.Name, c.pos(prev.Name.Pos))
				continue
			}
			if typ == tInvalid {
				typ = ir.Int // keep going with a placeholder
			}
			if fd.Atomic && !typ.IsScalar() && !(typ.Kind == ir.TArray && typ.Elem.IsScalar()) {
				c.errorf(fd.Pos, "atomic field %s must have a scalar type (int, bool, thread, pointer) or be an array of them, not %s", fd.Name.Name, typ)
			}
			fd.f = &ir.Field{Name: fd.Name.Name, Type: typ, Offset: off, Pos: c.pos(fd.Name.Pos)}
			off += typ.Size()
			if off > maxCells {
				c.errorf(fd.Pos, "%s %s is too large (more than %d cells)", kindName(rd), rd.Name.Name, maxCells)
				off = maxCells
			}
			rd.fields[fd.Name.Name] = fd
			rd.rec.Fields = append(rd.rec.Fields, fd.f)
		}
		rd.rec.Size = off
	}
}

func (c *checker) declareGlobals() {
	total := 0
	for _, d := range c.file.Decls {
		gd, ok := d.(*GlobalDecl)
		if !ok {
			continue
		}
		sym := c.top[gd.Name.Name]
		typ := c.resolveType(gd.Type, ctxGlobal)
		if typ == tInvalid {
			typ = ir.Int
		}
		if gd.Atomic && typ.Kind == ir.TRecord {
			c.errorf(gd.Pos, "atomic global %s: an instance cannot be atomic (declare its fields atomic instead)", gd.Name.Name)
		} else if gd.Atomic && !typ.IsScalar() && !(typ.Kind == ir.TArray && typ.Elem.IsScalar()) {
			c.errorf(gd.Pos, "atomic global %s must have a scalar type or be an array of scalars, not %s", gd.Name.Name, typ)
		}
		g := &ir.Global{Name: gd.Name.Name, Type: typ, Block: len(c.prog.Globals) + 1,
			Init: make([]int64, typ.Size()), Atomic: gd.Atomic, Pos: c.pos(gd.Name.Pos)}
		total += typ.Size()
		if total > maxTotalCells {
			c.errorf(gd.Pos, "the globals are too large (more than %d cells in all)", maxTotalCells)
			total = 0
		}
		gd.g = g
		if sym != nil && sym.global == gd {
			sym.typ = typ
			sym.index = len(c.prog.Globals)
		}
		c.prog.Globals = append(c.prog.Globals, g)
		if gd.Init != nil {
			c.globalInit(gd, g)
		}
	}
}

func (c *checker) globalInit(gd *GlobalDecl, g *ir.Global) {
	typ := g.Type
	if l, ok := gd.Init.(*InitList); ok {
		if typ.Kind != ir.TArray {
			c.errorf(l.Pos, "a list initializer { ... } is only for arrays; %s has type %s", g.Name, typ)
			return
		}
		if len(l.Elems) > typ.Len {
			c.errorf(l.Elems[typ.Len].exprPos(), "too many initializers for %s: %s has %d elements", g.Name, typ, typ.Len)
			return
		}
		for i, e := range l.Elems {
			if v, ok := c.constInit(g.Name, typ.Elem, e); ok {
				g.Init[i] = v
			}
		}
		return
	}
	switch typ.Kind {
	case ir.TArray:
		c.errorf(gd.Init.exprPos(), "array %s must be initialized with a list { ... }", g.Name)
		return
	case ir.TRecord:
		c.errorf(gd.Init.exprPos(), "%s instance %s cannot have an initializer (its fields start at 0/false/null)", kindOf(typ), g.Name)
		return
	}
	if v, ok := c.constInit(g.Name, typ, gd.Init); ok && len(g.Init) > 0 {
		g.Init[0] = v
	}
}

// constInit evaluates one constant initializer of a cell of type typ.
func (c *checker) constInit(name string, typ *ir.Type, e Expr) (int64, bool) {
	switch typ.Kind {
	case ir.TMutex, ir.TCond, ir.TThread:
		c.errorf(e.exprPos(), "%s of type %s cannot have an initializer", name, typ)
		return 0, false
	}
	t := c.exprOutside(e, "initializer of global "+name)
	if t == tInvalid {
		return 0, false
	}
	if !assignable(t, typ) {
		c.errorf(e.exprPos(), "cannot initialize %s (type %s) with a value of type %s", name, typ, t)
		return 0, false
	}
	if typ.Kind == ir.TPtr {
		if _, ok := unparen(e).(*NullLit); ok {
			return 0, true
		}
	}
	v, ok := constValue(e)
	if !ok {
		c.errorf(e.exprPos(), "initializer of global %s must be a constant", name)
		return 0, false
	}
	return v, true
}

func (c *checker) declareFuncs() {
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *RecordDecl:
			methods := map[string]*FuncDecl{}
			for _, m := range d.Methods {
				if prev, dup := methods[m.Name.Name]; dup {
					c.errorf(m.Name.Pos, "duplicate method %s in %s (previous declaration at %s)", m.Name.Name, d.Name.Name, c.pos(prev.Name.Pos))
				} else if fd, clash := d.fields[m.Name.Name]; clash {
					c.errorf(m.Name.Pos, "method %s clashes with field %s of %s (declared at %s)", m.Name.Name, m.Name.Name, d.Name.Name, c.pos(fd.Name.Pos))
				}
				methods[m.Name.Name] = m
				c.declareFunc(m)
				d.rec.Methods = append(d.rec.Methods, m.fn)
			}
		case *FuncDecl:
			c.declareFunc(d)
			if d.Kind != FnPlain {
				what := "linearizable"
				if d.Kind == FnAbstraction {
					what = "abstraction"
				}
				c.errorf(d.KindPos, "%s functions must be methods of an object", what)
			}
			if d.Name.Name == "main" {
				c.prog.Main = d.fn
				if len(d.Params) > 0 {
					c.errorf(d.Params[0].Pos, "main must have no parameters")
				}
			}
		}
	}
	if c.prog.Main == nil {
		c.errorf(srcPos{1, 1}, "program has no main function (declare fn main() { ... })")
	}
}

func (c *checker) declareFunc(d *FuncDecl) {
	f := &ir.Func{Name: d.Name.Name, Pos: c.pos(d.Name.Pos), Result: ir.Void}
	d.fn = f
	c.funcs = append(c.funcs, d)
	c.prog.Funcs = append(c.prog.Funcs, f)
	c.localNames = map[string]int{}
	if d.Recv != nil {
		f.Recv = d.Recv.rec
		switch d.Kind {
		case FnLinearizable:
			f.Kind = ir.FuncLinearizable
		case FnAbstraction:
			f.Kind = ir.FuncAbstraction
		default:
			f.Kind = ir.FuncMethod
		}
		c.addLocal(f, "this", ir.PtrTo(d.Recv.rec), d.Name.Pos)
	}
	seen := map[string]*Param{}
	for _, p := range d.Params {
		typ := c.resolveType(p.Type, ctxLocal)
		if typ == tInvalid {
			typ = ir.Int
		}
		if prev, dup := seen[p.Name.Name]; dup && p.Name.Name != "_" {
			c.errorf(p.Name.Pos, "duplicate parameter %s (previous declaration at %s)", p.Name.Name, c.pos(prev.Name.Pos))
		}
		seen[p.Name.Name] = p
		c.addLocal(f, p.Name.Name, typ, p.Name.Pos)
	}
	f.NumParams = len(f.Locals)
	if d.Result != nil {
		if t := c.resolveType(d.Result, ctxResult); t != tInvalid {
			f.Result = t
		}
	}
	if d.Kind == FnAbstraction && f.Result.Kind == ir.TVoid && d.Result == nil {
		c.errorf(d.Name.Pos, "abstraction function %s must return a value", d.Name.Name)
	}
}

// addLocal appends a local slot to f, giving it a unique printable name.
func (c *checker) addLocal(f *ir.Func, name string, typ *ir.Type, pos srcPos) int {
	n := c.localNames[name]
	c.localNames[name] = n + 1
	if n > 0 {
		name = fmt.Sprintf("%s.%d", name, n+1)
	}
	f.Locals = append(f.Locals, ir.Local{Name: name, Type: typ, Pos: c.pos(pos)})
	return len(f.Locals) - 1
}

// ---- function bodies ----

func (c *checker) funcBody(d *FuncDecl) {
	c.fn, c.irf = d, d.fn
	c.loops, c.atomicDepth = nil, 0
	c.localNames = map[string]int{}
	for _, l := range c.irf.Locals {
		c.localNames[l.Name] = 1
	}
	c.sc = &scope{syms: map[string]*symbol{}}
	slot := 0
	if d.Recv != nil {
		slot = 1
	}
	for _, p := range d.Params {
		if p.Name.Name != "_" {
			c.sc.syms[p.Name.Name] = &symbol{kind: symLocal, name: p.Name.Name, pos: p.Name.Pos, typ: c.irf.Locals[slot].Type, local: slot}
		}
		slot++
	}
	if d.Body != nil {
		c.stmts(d.Body.Stmts)
	}
	c.fn, c.irf, c.sc = nil, nil, nil
}

func (c *checker) push() { c.sc = &scope{parent: c.sc, syms: map[string]*symbol{}} }
func (c *checker) pop()  { c.sc = c.sc.parent }

func (c *checker) declareLocal(name *Ident, typ *ir.Type) *symbol {
	slot := c.addLocal(c.irf, name.Name, typ, name.Pos)
	sym := &symbol{kind: symLocal, name: name.Name, pos: name.Pos, typ: typ, local: slot}
	if name.Name == "_" {
		return sym
	}
	if old, ok := c.sc.syms[name.Name]; ok {
		c.errorf(name.Pos, "%s redeclared in this block (previous declaration at %s)", name.Name, c.pos(old.pos))
		return sym
	}
	c.sc.syms[name.Name] = sym
	return sym
}

func (c *checker) stmts(ss []Stmt) {
	for _, s := range ss {
		c.stmt(s)
	}
}

func (c *checker) block(b *Block) {
	c.push()
	c.stmts(b.Stmts)
	c.pop()
}

func (c *checker) abstractionErr(pos srcPos, what string) bool {
	if c.fn != nil && c.fn.Kind == FnAbstraction {
		c.errorf(pos, "abstraction function %s must be pure: %s is not allowed", c.fn.Name.Name, what)
		return true
	}
	return false
}

func (c *checker) cond(e Expr, what string) {
	t := c.value(e)
	if t != tInvalid && t.Kind != ir.TBool {
		c.errorf(e.exprPos(), "%s condition must be bool, not %s", what, t)
	}
}

func (c *checker) unroll(u *Unroll) {
	if u == nil {
		return
	}
	t := c.expr(u.N)
	if t == tInvalid {
		return
	}
	v, ok := constValue(u.N)
	if !ok || t.Kind != ir.TInt || v <= 0 || v > math.MaxInt32 {
		c.errorf(u.N.exprPos(), "unroll bound must be a positive integer constant")
		return
	}
	u.bound = int(v)
}

func (c *checker) loop(body func()) {
	c.loops = append(c.loops, c.atomicDepth)
	body()
	c.loops = c.loops[:len(c.loops)-1]
}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		c.block(s)
	case *LetStmt:
		var typ *ir.Type
		if s.Type != nil {
			typ = c.resolveType(s.Type, ctxLocal)
		}
		if s.Init != nil {
			vt := c.valueWant(s.Init, typ)
			switch {
			case typ == tInvalid || vt == tInvalid:
				typ = tInvalid
			case typ == nil:
				if vt.Kind == ir.TPtr && vt.Record == nil {
					c.errorf(s.Init.exprPos(), "cannot infer the type of %s from null; write let %s: *R = null", s.Name.Name, s.Name.Name)
					typ = tInvalid
				} else {
					typ = vt
				}
			case !assignable(vt, typ):
				c.errorf(s.Init.exprPos(), "cannot initialize %s (type %s) with a value of type %s", s.Name.Name, typ, vt)
			}
		} else if typ == nil {
			c.errorf(s.Name.Pos, "let %s needs a type or an initial value", s.Name.Name)
			typ = tInvalid
		}
		if typ == tInvalid {
			typ = ir.Int
		}
		s.local = c.declareLocal(s.Name, typ).local
	case *AssignStmt:
		c.assign(s)
	case *ExprStmt:
		switch x := unparen(s.X).(type) {
		case *CallExpr, *BuiltinCall, *SpawnExpr:
			c.exprStmt(x)
		default:
			if t := c.expr(s.X); t != tInvalid {
				c.errorf(s.X.exprPos(), "%s is not used (only calls can be statements)", describeExpr(s.X))
			}
		}
	case *IfStmt:
		c.cond(s.Cond, "if")
		c.block(s.Then)
		if s.Else != nil {
			c.stmt(s.Else)
		}
	case *WhileStmt:
		c.cond(s.Cond, "while")
		c.unroll(s.Unroll)
		c.loop(func() { c.block(s.Body) })
		s.spin = len(s.Body.Stmts) == 0 && s.Unroll == nil && sideEffectFree(s.Cond)
	case *ForStmt:
		c.push()
		if s.Init != nil {
			c.stmt(s.Init)
		}
		if s.Cond != nil {
			c.cond(s.Cond, "for")
		}
		if s.Post != nil {
			if _, isLet := s.Post.(*LetStmt); isLet {
				c.errorf(s.Post.stmtPos(), "the post statement of a for loop cannot declare variables")
			}
			c.stmt(s.Post)
		}
		c.unroll(s.Unroll)
		c.loop(func() { c.block(s.Body) })
		c.pop()
	case *RangeStmt:
		for _, e := range []Expr{s.Lo, s.Hi} {
			if t := c.value(e); t != tInvalid && t.Kind != ir.TInt {
				c.errorf(e.exprPos(), "range bound must be int, not %s", t)
			}
		}
		_, okLo := constValue(s.Lo)
		_, okHi := constValue(s.Hi)
		s.constant = okLo && okHi
		c.unroll(s.Unroll)
		c.push()
		sym := c.declareLocal(s.Var, ir.Int)
		sym.rangeVar = true
		s.local = sym.local
		c.loop(func() { c.block(s.Body) })
		c.pop()
	case *BranchStmt:
		what := "continue"
		if s.Break {
			what = "break"
		}
		if len(c.loops) == 0 {
			c.errorf(s.Pos, "%s is not inside a loop", what)
		} else if c.loops[len(c.loops)-1] < c.atomicDepth {
			c.errorf(s.Pos, "%s would leave an atomic block", what)
		}
	case *ReturnStmt:
		if c.atomicDepth > 0 {
			c.errorf(s.Pos, "return inside an atomic block (an atomic block must be left at its end)")
		}
		res := c.irf.Result
		if s.Result == nil {
			if res.Kind != ir.TVoid {
				c.errorf(s.Pos, "missing return value (%s returns %s)", c.fn.Name.Name, res)
			}
			return
		}
		if res.Kind == ir.TVoid {
			c.expr(s.Result)
			c.errorf(s.Result.exprPos(), "unexpected return value (%s has no result)", c.fn.Name.Name)
			return
		}
		if t := c.valueWant(s.Result, res); t != tInvalid && !assignable(t, res) {
			c.errorf(s.Result.exprPos(), "cannot return a value of type %s from %s (returns %s)", t, c.fn.Name.Name, res)
		}
	case *AwaitStmt:
		c.abstractionErr(s.Pos, "await")
		c.cond(s.Cond, "await")
		if !sideEffectFree(s.Cond) {
			c.errorf(s.Cond.exprPos(), "await condition must be free of side effects (only reads of shared memory; no calls, RMWs, nondet, ...)")
		}
	case *AssertStmt:
		c.cond(s.Cond, "assert")
	case *AssumeStmt:
		c.abstractionErr(s.Pos, "assume")
		c.cond(s.Cond, "assume")
	case *AtomicStmt:
		c.abstractionErr(s.Pos, "an atomic block")
		c.atomicDepth++
		c.block(s.Body)
		c.atomicDepth--
	}
}

func describeExpr(e Expr) string {
	switch e := unparen(e).(type) {
	case *Ident:
		return e.Name
	case *IntLit:
		return e.Text
	case *BinaryExpr:
		return "the " + e.Op.String() + " expression"
	case *UnaryExpr:
		return "the " + e.Op.String() + " expression"
	case *FieldExpr:
		switch unparen(e.X).(type) {
		case *Ident, *ThisExpr, *FieldExpr:
			return describeExpr(e.X) + "." + e.Name.Name
		}
		return "field " + e.Name.Name
	case *ThisExpr:
		return "this"
	case *IndexExpr:
		if inner := describeExpr(e.X); inner != "the expression" {
			return inner + "[...]"
		}
		return "the index expression"
	case *NewExpr:
		return "new " + e.Type.Name
	}
	return "the expression"
}

func unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// assign checks `LHS = RHS`.
func (c *checker) assign(s *AssignStmt) {
	lt := c.expr(s.LHS)
	target := c.lvalue(s.LHS, lt)
	rt := c.valueWant(s.RHS, lt)
	if lt == tInvalid || rt == tInvalid || !target {
		return
	}
	if !assignable(rt, lt) {
		c.errorf(s.RHS.exprPos(), "cannot assign a value of type %s to %s (type %s)", rt, describeExpr(s.LHS), lt)
	}
	if isShared(s.LHS) {
		c.abstractionErr(s.Pos, "writing shared memory")
	}
}

// lvalue reports whether e (of type t) can be assigned to, reporting why not.
func (c *checker) lvalue(e Expr, t *ir.Type) bool {
	if t == tInvalid {
		return false
	}
	x := unparen(e)
	switch x := x.(type) {
	case *Ident:
		if x.sym == nil {
			return false
		}
		switch x.sym.kind {
		case symLocal:
			if x.sym.rangeVar {
				c.errorf(x.Pos, "cannot assign to range variable %s", x.Name)
				return false
			}
			return true
		case symGlobal:
			return c.scalarTarget(e, t)
		}
		c.errorf(x.Pos, "cannot assign to %s", x.Name)
		return false
	case *IndexExpr, *FieldExpr:
		return c.scalarTarget(e, t)
	case *ThisExpr:
		c.errorf(x.Pos, "cannot assign to this")
		return false
	}
	c.errorf(e.exprPos(), "cannot assign to %s (not a variable, array element or field)", describeExpr(e))
	return false
}

func (c *checker) scalarTarget(e Expr, t *ir.Type) bool {
	if t.IsScalar() {
		return true
	}
	c.errorf(e.exprPos(), "cannot assign to %s of type %s (only int, bool, thread and pointer locations can be assigned)", describeExpr(e), t)
	return false
}

// isShared reports whether e (checked) denotes a shared memory location.
func isShared(e Expr) bool {
	switch x := unparen(e).(type) {
	case *Ident:
		return x.sym != nil && x.sym.kind == symGlobal
	case *IndexExpr:
		return true
	case *FieldExpr:
		return x.field != nil
	}
	return false
}

func assignable(v, t *ir.Type) bool {
	if v == tInvalid || t == tInvalid {
		return true
	}
	return t.IsScalar() && v.Equal(t)
}

// exprStmt checks a call used as a statement (its value, if any, is dropped).
func (c *checker) exprStmt(e Expr) {
	c.expr(e)
}

// value checks e where a value is needed (a scalar) and returns its type.
func (c *checker) value(e Expr) *ir.Type { return c.valueWant(e, nil) }

// valueWant is value where the context expects type want (nil: unknown);
// it lets join(t) take the type of the thread function's result.
func (c *checker) valueWant(e Expr, want *ir.Type) *ir.Type {
	var t *ir.Type
	if b, ok := unparen(e).(*BuiltinCall); ok && b.Op == kwJoin && want != nil && want.IsScalar() {
		t = c.expr(e)
		if t != tInvalid {
			setType(e, want)
			t = want
		}
	} else {
		t = c.expr(e)
	}
	if t == tInvalid || t.IsScalar() {
		return t
	}
	switch t.Kind {
	case ir.TVoid:
		c.errorf(e.exprPos(), "%s has no value", describeCall(e))
	case ir.TMutex:
		c.errorf(e.exprPos(), "cannot use mutex %s as a value (use lock, unlock or trylock)", describeExpr(e))
	case ir.TCond:
		c.errorf(e.exprPos(), "cannot use condition variable %s as a value (use wait, signal or broadcast)", describeExpr(e))
	case ir.TArray:
		c.errorf(e.exprPos(), "cannot use array %s as a value (index it)", describeExpr(e))
	case ir.TRecord:
		c.errorf(e.exprPos(), "cannot use %s %s as a value (access its fields or call its methods)", strings.ToLower(kindOf(t)), describeExpr(e))
	default:
		c.errorf(e.exprPos(), "cannot use %s as a value", describeExpr(e))
	}
	return tInvalid
}

func kindOf(t *ir.Type) string {
	if t.Record != nil && t.Record.IsObject {
		return "object"
	}
	return "record"
}

func describeCall(e Expr) string {
	switch x := unparen(e).(type) {
	case *CallExpr:
		switch f := x.Fun.(type) {
		case *Ident:
			return f.Name + "(...)"
		case *FieldExpr:
			return f.Name.Name + "(...)"
		}
	case *BuiltinCall:
		return x.Op.String() + "(...)"
	}
	return describeExpr(e)
}

func setType(e Expr, t *ir.Type) {
	for {
		e.info().typ = t
		p, ok := e.(*ParenExpr)
		if !ok {
			return
		}
		e = p.X
	}
}

// expr checks e and records and returns its type (tInvalid after an error).
// It does not require a value: callers that need one use value.
func (c *checker) expr(e Expr) *ir.Type {
	t := c.expr1(e)
	if t == nil {
		t = tInvalid
	}
	x := e.info()
	x.typ = t
	if t != tInvalid {
		x.cval, x.isConst = fold(e)
	}
	return t
}

func (c *checker) expr1(e Expr) *ir.Type {
	switch e := e.(type) {
	case *Ident:
		return c.ident(e)
	case *IntLit:
		if e.Val > math.MaxInt64 && !isHexLit(e) {
			c.errorf(e.Pos, "integer literal %s overflows int (max %d)", e.Text, int64(math.MaxInt64))
			return tInvalid
		}
		return ir.Int
	case *BoolLit:
		return ir.Bool
	case *NullLit:
		return tNull
	case *ThisExpr:
		if c.fn == nil || c.fn.Recv == nil {
			c.errorf(e.Pos, "this can only be used inside methods")
			return tInvalid
		}
		return ir.PtrTo(c.fn.Recv.rec)
	case *ParenExpr:
		return c.expr(e.X)
	case *UnaryExpr:
		if lit, ok := e.X.(*IntLit); ok && e.Op == tMinus && lit.Val == 1<<63 && !isHexLit(lit) {
			lit.typ = ir.Int // -9223372036854775808 (fold reads the literal directly)
			return ir.Int
		}
		t := c.value(e.X)
		if t == tInvalid {
			return tInvalid
		}
		want := ir.Int
		if e.Op == tBang {
			want = ir.Bool
		}
		if t.Kind != want.Kind {
			c.errorf(e.Pos, "invalid operation: operator %s needs %s, not %s", e.Op, want, t)
			return tInvalid
		}
		return want
	case *BinaryExpr:
		return c.binary(e)
	case *IndexExpr:
		xt := c.expr(e.X)
		it := c.value(e.Index)
		if xt == tInvalid || it == tInvalid {
			return tInvalid
		}
		if xt.Kind != ir.TArray {
			c.errorf(e.LPos, "cannot index %s of type %s", describeExpr(e.X), xt)
			return tInvalid
		}
		if it.Kind != ir.TInt {
			c.errorf(e.Index.exprPos(), "array index must be int, not %s", it)
			return tInvalid
		}
		if v, ok := constValue(e.Index); ok && (v < 0 || v >= int64(xt.Len)) {
			c.errorf(e.Index.exprPos(), "index %d out of range for %s of type %s", v, describeExpr(e.X), xt)
			return tInvalid
		}
		return xt.Elem
	case *FieldExpr:
		return c.field(e, false)
	case *CallExpr:
		return c.call(e)
	case *BuiltinCall:
		return c.builtin(e)
	case *SpawnExpr:
		c.abstractionErr(e.Pos, "spawn")
		if fe, ok := e.Call.Fun.(*FieldExpr); ok {
			c.errorf(e.Pos, "cannot spawn method %s: spawn a function that calls it", fe.Name.Name)
			c.expr(e.Call)
			return tInvalid
		}
		if t := c.expr(e.Call); t == tInvalid {
			return tInvalid
		}
		return ir.Thread
	case *NewExpr:
		return c.newExpr(e)
	case *InitList:
		c.errorf(e.Pos, "a list { ... } can only initialize a global array")
		return tInvalid
	}
	return tInvalid
}

func isHexLit(l *IntLit) bool {
	return len(l.Text) > 1 && (l.Text[1] == 'x' || l.Text[1] == 'X')
}

func (c *checker) ident(e *Ident) *ir.Type {
	var sym *symbol
	if c.sc != nil {
		sym = c.sc.lookup(e.Name)
	}
	if sym == nil {
		sym = c.top[e.Name]
	}
	if sym == nil {
		hint := ""
		if c.fn != nil && c.fn.Recv != nil {
			if _, ok := c.fn.Recv.fields[e.Name]; ok {
				hint = fmt.Sprintf(" (fields are accessed through this: this.%s)", e.Name)
			}
			for _, m := range c.fn.Recv.Methods {
				if m.Name.Name == e.Name {
					hint = fmt.Sprintf(" (methods are called through this: this.%s(...))", e.Name)
				}
			}
		}
		c.errorf(e.Pos, "undefined: %s%s", e.Name, hint)
		return tInvalid
	}
	e.sym = sym
	switch sym.kind {
	case symLocal, symGlobal:
		if sym.kind == symGlobal && c.fn == nil {
			c.errorf(e.Pos, "global %s is not a constant", e.Name)
			return tInvalid
		}
		if sym.typ == nil {
			c.errorf(e.Pos, "%s cannot be used here", e.Name)
			return tInvalid
		}
		return sym.typ
	case symFunc:
		c.errorf(e.Pos, "function %s must be called", e.Name)
	case symRecord:
		c.errorf(e.Pos, "%s is a type, not a value", e.Name)
	}
	return tInvalid
}

// field checks X.Name; inCall says whether it is the callee of a call.
func (c *checker) field(e *FieldExpr, inCall bool) *ir.Type {
	xt := c.expr(e.X)
	if xt == tInvalid {
		return tInvalid
	}
	var rd *RecordDecl
	switch {
	case xt.Kind == ir.TRecord:
	case xt.Kind == ir.TPtr && xt.Record != nil:
	case xt.Kind == ir.TPtr:
		c.errorf(e.Name.Pos, "cannot access field %s of null", e.Name.Name)
		return tInvalid
	default:
		c.errorf(e.Name.Pos, "%s of type %s has no fields or methods", describeExpr(e.X), xt)
		return tInvalid
	}
	rd = c.recDecl[xt.Record]
	if fd, ok := rd.fields[e.Name.Name]; ok {
		if inCall {
			c.errorf(e.Name.Pos, "%s is a field of %s, not a method", e.Name.Name, rd.Name.Name)
			return tInvalid
		}
		e.field = fd
		return fd.f.Type
	}
	for _, m := range rd.Methods {
		if m.Name.Name == e.Name.Name {
			if !inCall {
				c.errorf(e.Name.Pos, "method %s must be called", e.Name.Name)
				return tInvalid
			}
			e.method = m
			return m.fn.Result
		}
	}
	if inCall {
		if !rd.IsObject {
			c.errorf(e.Name.Pos, "record %s has no methods", rd.Name.Name)
		} else {
			c.errorf(e.Name.Pos, "%s has no method %s", rd.Name.Name, e.Name.Name)
		}
	} else {
		c.errorf(e.Name.Pos, "%s has no field %s", rd.Name.Name, e.Name.Name)
	}
	return tInvalid
}

func (c *checker) call(e *CallExpr) *ir.Type {
	var callee *FuncDecl
	switch f := e.Fun.(type) {
	case *Ident:
		sym := c.top[f.Name]
		if c.sc != nil {
			if s := c.sc.lookup(f.Name); s != nil {
				sym = s
			}
		}
		switch {
		case sym == nil:
			c.ident(f) // reports undefined
		case sym.kind != symFunc:
			c.errorf(f.Pos, "cannot call %s: it is not a function", f.Name)
		default:
			f.sym = sym
			callee = sym.fn
		}
	case *FieldExpr:
		if t := c.field(f, true); t != tInvalid {
			callee = f.method
		}
	default:
		c.expr(e.Fun)
		c.errorf(e.Fun.exprPos(), "cannot call %s: only functions and methods can be called", describeExpr(e.Fun))
	}
	if callee == nil {
		for _, a := range e.Args {
			c.expr(a)
		}
		return tInvalid
	}
	if c.fn != nil && c.fn.Kind == FnAbstraction && callee.Kind != FnAbstraction {
		c.errorf(e.Fun.exprPos(), "abstraction function %s must be pure: it may only call abstraction functions, not %s", c.fn.Name.Name, callee.Name.Name)
	}
	c.args(callee.Name.Name, e.LParen, e.Args, callee.Params, callee.fn)
	return callee.fn.Result
}

func (c *checker) args(name string, pos srcPos, args []Expr, params []*Param, f *ir.Func) {
	first := f.NumParams - len(params)
	for i, a := range args {
		if i < len(params) {
			pt := f.Locals[first+i].Type
			if t := c.valueWant(a, pt); !assignable(t, pt) {
				c.errorf(a.exprPos(), "cannot use a value of type %s as argument %d of %s (want %s)", t, i+1, name, pt)
			}
		} else {
			c.expr(a)
		}
	}
	if len(args) != len(params) {
		c.errorf(pos, "wrong number of arguments in call to %s: have %d, want %d", name, len(args), len(params))
	}
}

func (c *checker) newExpr(e *NewExpr) *ir.Type {
	c.abstractionErr(e.Pos, "new")
	sym := c.top[e.Type.Name]
	if sym == nil || sym.kind != symRecord {
		if sym == nil {
			c.errorf(e.Type.Pos, "undefined type %s", e.Type.Name)
		} else {
			c.errorf(e.Type.Pos, "%s is not a record or object type", e.Type.Name)
		}
		for _, fi := range e.Inits {
			c.expr(fi.Value)
		}
		return tInvalid
	}
	rd := sym.rec
	e.rec = rd
	seen := map[string]*FieldInit{}
	for _, fi := range e.Inits {
		fd, ok := rd.fields[fi.Name.Name]
		if !ok {
			c.errorf(fi.Name.Pos, "%s has no field %s", rd.Name.Name, fi.Name.Name)
			c.expr(fi.Value)
			continue
		}
		if prev, dup := seen[fi.Name.Name]; dup {
			c.errorf(fi.Name.Pos, "field %s initialized twice (also at %s)", fi.Name.Name, c.pos(prev.Name.Pos))
		}
		seen[fi.Name.Name] = fi
		fi.field = fd
		ft := fd.f.Type
		if !ft.IsScalar() {
			c.errorf(fi.Name.Pos, "field %s of type %s cannot be initialized (it starts at zero)", fi.Name.Name, ft)
			c.expr(fi.Value)
			continue
		}
		if t := c.valueWant(fi.Value, ft); !assignable(t, ft) {
			c.errorf(fi.Value.exprPos(), "cannot initialize field %s (type %s) with a value of type %s", fi.Name.Name, ft, t)
		}
	}
	return ir.PtrTo(rd.rec)
}

func (c *checker) binary(e *BinaryExpr) *ir.Type {
	xt := c.value(e.X)
	yt := c.value(e.Y)
	if xt == tInvalid || yt == tInvalid {
		return tInvalid
	}
	switch e.Op {
	case tAndAnd, tOrOr:
		if xt.Kind != ir.TBool || yt.Kind != ir.TBool {
			c.errorf(e.OpPos, "invalid operation: operator %s needs bool operands, not %s and %s", e.Op, xt, yt)
			return tInvalid
		}
		return ir.Bool
	case tEq, tNe:
		if !xt.Equal(yt) {
			c.errorf(e.OpPos, "invalid operation: mismatched types %s and %s in %s comparison", xt, yt, e.Op)
			return tInvalid
		}
		return ir.Bool
	case tLt, tLe, tGt, tGe:
		if xt.Kind != ir.TInt || yt.Kind != ir.TInt {
			c.errorf(e.OpPos, "invalid operation: operator %s needs int operands, not %s and %s", e.Op, xt, yt)
			return tInvalid
		}
		return ir.Bool
	}
	// Arithmetic, bitwise and shift operators.
	if xt.Kind != ir.TInt || yt.Kind != ir.TInt {
		c.errorf(e.OpPos, "invalid operation: operator %s needs int operands, not %s and %s", e.Op, xt, yt)
		return tInvalid
	}
	if v, ok := constValue(e.Y); ok {
		switch e.Op {
		case tSlash, tPercent:
			if v == 0 {
				c.errorf(e.Y.exprPos(), "division by zero")
				return tInvalid
			}
		case tShl, tShr:
			if v < 0 || v > 63 {
				c.errorf(e.Y.exprPos(), "shift count %d out of range [0, 63]", v)
				return tInvalid
			}
		}
	}
	return ir.Int
}

// ---- builtins ----

// orderSet is a set of allowed memory orders.
type orderSet uint8

func orders(os ...ir.Order) orderSet {
	var s orderSet
	for _, o := range os {
		s |= 1 << o
	}
	return s
}

func (s orderSet) has(o ir.Order) bool { return s&(1<<o) != 0 }

// String lists the orders of s for error messages ("na, rlx or sc").
func (s orderSet) String() string {
	var names []string
	for o := ir.OrderNA; o <= ir.OrderSC; o++ {
		if s.has(o) {
			names = append(names, o.String())
		}
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

var (
	loadOrders  = orders(ir.OrderNA, ir.OrderRlx, ir.OrderAcq, ir.OrderSC)
	storeOrders = orders(ir.OrderNA, ir.OrderRlx, ir.OrderRel, ir.OrderSC)
	rmwOrders   = orders(ir.OrderRlx, ir.OrderAcq, ir.OrderRel, ir.OrderAcqRel, ir.OrderSC)
	failOrders  = orders(ir.OrderRlx, ir.OrderAcq, ir.OrderSC)
	fenceOrders = orders(ir.OrderAcq, ir.OrderRel, ir.OrderAcqRel, ir.OrderSC)
)

// order resolves a memory-order argument.
func (c *checker) order(b *BuiltinCall, e Expr, allowed orderSet) (ir.Order, bool) {
	id, ok := e.(*Ident)
	if !ok {
		c.errorf(e.exprPos(), "%s: expected a memory order (na, rlx, acq, rel, acq_rel or sc)", b.Op)
		return 0, false
	}
	o, ok := ir.ParseOrder(id.Name)
	if !ok {
		c.errorf(id.Pos, "unknown memory order %s (want na, rlx, acq, rel, acq_rel or sc)", id.Name)
		return 0, false
	}
	if !allowed.has(o) {
		c.errorf(id.Pos, "invalid memory order %s for %s (want %s)", id.Name, b.Op, allowed)
		return 0, false
	}
	return o, true
}

// location checks that e is a shared location whose type is accepted by ok
// (described by what) and returns its type.
func (c *checker) location(b *BuiltinCall, e Expr, what string, ok func(*ir.Type) bool) *ir.Type {
	t := c.expr(e)
	if t == tInvalid {
		return tInvalid
	}
	if !isShared(e) {
		if id, isID := unparen(e).(*Ident); isID && id.sym != nil && id.sym.kind == symLocal {
			c.errorf(e.exprPos(), "%s needs a shared location (a global, array element or field); %s is a local variable", b.Op, id.Name)
		} else {
			c.errorf(e.exprPos(), "%s needs a shared location (a global, array element or field), not %s", b.Op, describeExpr(e))
		}
		return tInvalid
	}
	if !ok(t) {
		c.errorf(e.exprPos(), "%s needs %s, not %s of type %s", b.Op, what, describeExpr(e), t)
		return tInvalid
	}
	return t
}

func isMutex(t *ir.Type) bool  { return t.Kind == ir.TMutex }
func isCond(t *ir.Type) bool   { return t.Kind == ir.TCond }
func isIntLoc(t *ir.Type) bool { return t.Kind == ir.TInt }
func isCASLoc(t *ir.Type) bool {
	return t.Kind == ir.TInt || t.Kind == ir.TBool || t.Kind == ir.TPtr
}

// arity checks the number of arguments of b: between lo and hi.
func (c *checker) arity(b *BuiltinCall, lo, hi int) bool {
	n := len(b.Args)
	if n >= lo && n <= hi {
		return true
	}
	want := fmt.Sprint(lo)
	if hi > lo {
		want = fmt.Sprintf("%d to %d", lo, hi)
	}
	s := "s"
	if lo == 1 && hi == 1 {
		s = ""
	}
	c.errorf(b.Pos, "%s takes %s argument%s, got %d", b.Op, want, s, n)
	for _, a := range b.Args {
		if _, isID := a.(*Ident); !isID {
			c.expr(a)
		}
	}
	return false
}

func (c *checker) builtin(b *BuiltinCall) *ir.Type {
	abstractionOK := false
	defer func() {
		if !abstractionOK {
			c.abstractionErr(b.Pos, b.Op.String())
		}
	}()
	switch b.Op {
	case kwLock, kwUnlock, kwTrylock:
		if !c.arity(b, 1, 1) {
			return tInvalid
		}
		if c.location(b, b.Args[0], "a mutex", isMutex) == tInvalid {
			return tInvalid
		}
		if b.Op == kwTrylock {
			return ir.Bool
		}
		return ir.Void
	case kwWait:
		if !c.arity(b, 2, 2) {
			return tInvalid
		}
		t1 := c.location(b, b.Args[0], "a condition variable", isCond)
		t2 := c.location(b, b.Args[1], "a mutex", isMutex)
		if t1 == tInvalid || t2 == tInvalid {
			return tInvalid
		}
		return ir.Void
	case kwSignal, kwBroadcast:
		if !c.arity(b, 1, 1) {
			return tInvalid
		}
		if c.location(b, b.Args[0], "a condition variable", isCond) == tInvalid {
			return tInvalid
		}
		return ir.Void
	case kwFence:
		if !c.arity(b, 1, 1) {
			return tInvalid
		}
		o, ok := c.order(b, b.Args[0], fenceOrders)
		if !ok {
			return tInvalid
		}
		b.orders[0] = o
		return ir.Void
	case kwJoin:
		if !c.arity(b, 1, 1) {
			return tInvalid
		}
		t := c.value(b.Args[0])
		if t == tInvalid {
			return tInvalid
		}
		if t.Kind != ir.TThread {
			c.errorf(b.Args[0].exprPos(), "join needs a thread handle, not %s", t)
			return tInvalid
		}
		return ir.Int
	case kwLoad:
		abstractionOK = true
		if !c.arity(b, 1, 2) {
			return tInvalid
		}
		t := c.location(b, b.Args[0], "an int, bool, thread or pointer location", (*ir.Type).IsScalar)
		b.orders[0] = ir.OrderSC
		if len(b.Args) == 2 {
			o, ok := c.order(b, b.Args[1], loadOrders)
			if !ok {
				return tInvalid
			}
			b.orders[0] = o
		}
		return t
	case kwStore:
		if !c.arity(b, 2, 3) {
			return tInvalid
		}
		t := c.location(b, b.Args[0], "an int, bool, thread or pointer location", (*ir.Type).IsScalar)
		vt := c.valueWant(b.Args[1], t)
		b.orders[0] = ir.OrderSC
		if len(b.Args) == 3 {
			o, ok := c.order(b, b.Args[2], storeOrders)
			if !ok {
				return tInvalid
			}
			b.orders[0] = o
		}
		if t == tInvalid || vt == tInvalid {
			return tInvalid
		}
		if !assignable(vt, t) {
			c.errorf(b.Args[1].exprPos(), "cannot store a value of type %s to %s (type %s)", vt, describeExpr(b.Args[0]), t)
			return tInvalid
		}
		return ir.Void
	case kwFetchAdd, kwFetchSub, kwFetchAnd, kwFetchOr, kwFetchXor, kwExchange:
		if !c.arity(b, 2, 3) {
			return tInvalid
		}
		var t *ir.Type
		if b.Op == kwExchange {
			t = c.location(b, b.Args[0], "an int, bool or pointer location", isCASLoc)
		} else {
			t = c.location(b, b.Args[0], "an int location", isIntLoc)
		}
		vt := c.valueWant(b.Args[1], t)
		b.orders[0] = ir.OrderSC
		if len(b.Args) == 3 {
			o, ok := c.order(b, b.Args[2], rmwOrders)
			if !ok {
				return tInvalid
			}
			b.orders[0] = o
		}
		if t == tInvalid || vt == tInvalid {
			return tInvalid
		}
		if !assignable(vt, t) {
			c.errorf(b.Args[1].exprPos(), "%s: cannot use a value of type %s with %s (type %s)", b.Op, vt, describeExpr(b.Args[0]), t)
			return tInvalid
		}
		return t
	case kwCas:
		if !c.arity(b, 3, 5) {
			return tInvalid
		}
		t := c.location(b, b.Args[0], "an int, bool or pointer location", isCASLoc)
		et := c.valueWant(b.Args[1], t)
		dt := c.valueWant(b.Args[2], t)
		b.orders[0], b.orders[1] = ir.OrderSC, ir.OrderSC
		if len(b.Args) >= 4 {
			o, ok := c.order(b, b.Args[3], rmwOrders)
			if !ok {
				return tInvalid
			}
			b.orders[0], b.orders[1] = o, failOrderFor(o)
		}
		if len(b.Args) == 5 {
			o, ok := c.order(b, b.Args[4], failOrders)
			if !ok {
				return tInvalid
			}
			b.orders[1] = o
		}
		if t == tInvalid || et == tInvalid || dt == tInvalid {
			return tInvalid
		}
		for i, vt := range []*ir.Type{et, dt} {
			if !assignable(vt, t) {
				c.errorf(b.Args[1+i].exprPos(), "cas: cannot use a value of type %s with %s (type %s)", vt, describeExpr(b.Args[0]), t)
				return tInvalid
			}
		}
		return ir.Bool
	case kwNondet:
		if !c.arity(b, 2, 2) {
			return tInvalid
		}
		lt, ht := c.value(b.Args[0]), c.value(b.Args[1])
		if lt == tInvalid || ht == tInvalid {
			return tInvalid
		}
		if lt.Kind != ir.TInt || ht.Kind != ir.TInt {
			c.errorf(b.Pos, "nondet bounds must be int, not %s and %s", lt, ht)
			return tInvalid
		}
		lo, ok1 := constValue(b.Args[0])
		hi, ok2 := constValue(b.Args[1])
		if ok1 && ok2 && lo > hi {
			c.errorf(b.Pos, "nondet(%d, %d): empty range (lo > hi)", lo, hi)
			return tInvalid
		}
		return ir.Int
	case kwNondetBool, kwTid:
		if !c.arity(b, 0, 0) {
			return tInvalid
		}
		if b.Op == kwTid {
			return ir.Thread
		}
		return ir.Bool
	}
	return tInvalid
}

// failOrderFor is the default failure order of a cas with success order o.
func failOrderFor(o ir.Order) ir.Order {
	switch o {
	case ir.OrderAcqRel:
		return ir.OrderAcq
	case ir.OrderRel:
		return ir.OrderRlx
	}
	return o
}

// ---- constants and effects ----

// constValue returns the value of a checked constant expression (literals
// and operators on them); ok is false if e is not constant or its evaluation
// fails (division by zero, shift out of range).
func constValue(e Expr) (int64, bool) {
	x := e.info()
	return x.cval, x.isConst
}

// fold computes the constant value of e from its operands' (already
// computed) constant values.
func fold(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *IntLit:
		return int64(e.Val), true
	case *BoolLit:
		return b2i(e.Val), true
	case *ParenExpr:
		return constValue(e.X)
	case *UnaryExpr:
		v, ok := constValue(e.X)
		if lit, isLit := e.X.(*IntLit); isLit {
			v, ok = int64(lit.Val), true
		}
		if !ok {
			return 0, false
		}
		switch e.Op {
		case tMinus:
			return -v, true
		case tBang:
			return b2i(v == 0), true
		case tTilde:
			return ^v, true
		}
	case *BinaryExpr:
		a, ok := constValue(e.X)
		if !ok {
			return 0, false
		}
		b, ok := constValue(e.Y)
		if !ok {
			return 0, false
		}
		return constBinary(e.Op, a, b)
	}
	return 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func constBinary(op tokKind, a, b int64) (int64, bool) {
	switch op {
	case tPlus:
		return a + b, true
	case tMinus:
		return a - b, true
	case tStar:
		return a * b, true
	case tSlash, tPercent:
		if b == 0 {
			return 0, false
		}
		if b == -1 {
			if op == tSlash {
				return -a, true
			}
			return 0, true
		}
		if op == tSlash {
			return a / b, true
		}
		return a % b, true
	case tAmp:
		return a & b, true
	case tPipe:
		return a | b, true
	case tCaret:
		return a ^ b, true
	case tShl, tShr:
		if b < 0 || b > 63 {
			return 0, false
		}
		if op == tShl {
			return a << uint(b), true
		}
		return a >> uint(b), true
	case tEq:
		return b2i(a == b), true
	case tNe:
		return b2i(a != b), true
	case tLt:
		return b2i(a < b), true
	case tLe:
		return b2i(a <= b), true
	case tGt:
		return b2i(a > b), true
	case tGe:
		return b2i(a >= b), true
	case tAndAnd:
		return b2i(a != 0 && b != 0), true
	case tOrOr:
		return b2i(a != 0 || b != 0), true
	}
	return 0, false
}

// emits reports whether lowering the (checked) expression e emits
// instructions: shared reads, calls, builtins, spawn, new.
func emits(e Expr) bool {
	switch e := e.(type) {
	case *Ident:
		return e.sym != nil && e.sym.kind == symGlobal
	case *ParenExpr:
		return emits(e.X)
	case *UnaryExpr:
		return emits(e.X)
	case *BinaryExpr:
		return emits(e.X) || emits(e.Y)
	case *IntLit, *BoolLit, *NullLit, *ThisExpr:
		return false
	}
	return true
}

// mayFail reports whether evaluating the pure parts of e can raise a runtime
// error (division or shift with a non-constant right operand).
func mayFail(e Expr) bool {
	switch e := e.(type) {
	case *ParenExpr:
		return mayFail(e.X)
	case *UnaryExpr:
		return mayFail(e.X)
	case *BinaryExpr:
		switch e.Op {
		case tSlash, tPercent, tShl, tShr:
			if _, ok := constValue(e.Y); !ok {
				return true
			}
		}
		return mayFail(e.X) || mayFail(e.Y)
	case *IndexExpr:
		return true
	case *FieldExpr:
		return true
	}
	return false
}

// sideEffectFree reports whether e only reads (locals, shared locations,
// load(...)) and computes: the condition of a spin loop or await.
func sideEffectFree(e Expr) bool {
	switch e := e.(type) {
	case *Ident, *IntLit, *BoolLit, *NullLit, *ThisExpr:
		return true
	case *ParenExpr:
		return sideEffectFree(e.X)
	case *UnaryExpr:
		return sideEffectFree(e.X)
	case *BinaryExpr:
		return sideEffectFree(e.X) && sideEffectFree(e.Y)
	case *IndexExpr:
		return sideEffectFree(e.X) && sideEffectFree(e.Index)
	case *FieldExpr:
		return sideEffectFree(e.X)
	case *BuiltinCall:
		if e.Op == kwLoad && len(e.Args) > 0 {
			return sideEffectFree(e.Args[0])
		}
	}
	return false
}
