package cir

import (
	"fmt"

	"ncmc/ir"
)

// astEval is a tree-walking interpreter of checked CIR ASTs (single-threaded:
// no spawn, join, wait). Comparing it with seqExec on the lowered program is
// a differential test of lowering: both must stop for the same reason with
// the same memory.
type astEval struct {
	c      *checker
	prog   *ir.Program
	mem    [][]int64
	unroll int
	steps  int
	depth  int
}

type astFrame struct {
	locals []int64
}

// control-flow signals
type (
	brkSig  struct{}
	contSig struct{}
	retSig  struct{ v int64 }
)

func newAstEval(c *checker, p *ir.Program, unroll int) *astEval {
	e := &astEval{c: c, prog: p, unroll: unroll, mem: make([][]int64, len(p.Globals)+1)}
	for i, g := range p.Globals {
		e.mem[i+1] = append([]int64(nil), g.Init...)
	}
	return e
}

func (e *astEval) stop(format string, args ...any) { panic(seqStop{fmt.Sprintf(format, args...)}) }

func (e *astEval) run() (out string) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(seqStop)
			if !ok {
				panic(r)
			}
			out = s.msg
		}
	}()
	var mainDecl *FuncDecl
	for _, fd := range e.c.funcs {
		if fd.fn == e.prog.Main {
			mainDecl = fd
		}
	}
	e.call(mainDecl, nil)
	return "ok"
}

func (e *astEval) call(d *FuncDecl, args []int64) (ret int64) {
	if e.depth++; e.depth > 200 {
		e.stop("call depth limit")
	}
	defer func() { e.depth-- }()
	fr := &astFrame{locals: make([]int64, len(d.fn.Locals))}
	copy(fr.locals, args)
	defer func() {
		if r := recover(); r != nil {
			if rs, ok := r.(retSig); ok {
				ret = rs.v
				return
			}
			panic(r)
		}
	}()
	e.block(fr, d.Body)
	return 0
}

func (e *astEval) tick() {
	if e.steps++; e.steps > 1e6 {
		e.stop("step limit")
	}
}

func (e *astEval) block(fr *astFrame, b *Block) {
	for _, s := range b.Stmts {
		e.stmt(fr, s)
	}
}

func (e *astEval) bound(u *Unroll) int {
	if u != nil {
		return u.bound
	}
	return e.unroll
}

// loopBody runs one iteration; it reports whether the loop must end (break).
func (e *astEval) loopBody(fr *astFrame, b *Block) (brk bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case brkSig:
				brk = true
			case contSig:
			default:
				panic(r)
			}
		}
	}()
	e.block(fr, b)
	return false
}

func (e *astEval) stmt(fr *astFrame, s Stmt) {
	e.tick()
	switch s := s.(type) {
	case *Block:
		e.block(fr, s)
	case *LetStmt:
		var v int64
		if s.Init != nil {
			v = e.rv(fr, s.Init)
		}
		fr.locals[s.local] = v
	case *AssignStmt:
		if id, ok := unparen(s.LHS).(*Ident); ok && id.sym.kind == symLocal {
			fr.locals[id.sym.local] = e.rv(fr, s.RHS)
			return
		}
		a := e.addr(fr, s.LHS)
		v := e.rv(fr, s.RHS)
		*e.deref(a) = v
	case *ExprStmt:
		e.rv(fr, unparen(s.X))
	case *IfStmt:
		if e.rv(fr, s.Cond) != 0 {
			e.block(fr, s.Then)
		} else if s.Else != nil {
			e.stmt(fr, s.Else)
		}
	case *WhileStmt:
		if s.spin {
			if e.rv(fr, s.Cond) != 0 {
				e.stop("blocked: await")
			}
			return
		}
		for n := 1; e.rv(fr, s.Cond) != 0; n++ {
			if n > e.bound(s.Unroll) {
				e.stop("bound hit")
			}
			if e.loopBody(fr, s.Body) {
				break
			}
		}
	case *ForStmt:
		if s.Init != nil {
			e.stmt(fr, s.Init)
		}
		for n := 1; s.Cond == nil || e.rv(fr, s.Cond) != 0; n++ {
			if n > e.bound(s.Unroll) {
				e.stop("bound hit")
			}
			if e.loopBody(fr, s.Body) {
				break
			}
			if s.Post != nil {
				e.stmt(fr, s.Post)
			}
		}
	case *RangeStmt:
		lo := e.rv(fr, s.Lo)
		hi := e.rv(fr, s.Hi)
		fr.locals[s.local] = lo
		for n := 1; fr.locals[s.local] < hi; n++ {
			if !s.constant && n > e.bound(s.Unroll) {
				e.stop("bound hit")
			}
			if e.loopBody(fr, s.Body) {
				break
			}
			fr.locals[s.local]++
		}
	case *BranchStmt:
		if s.Break {
			panic(brkSig{})
		}
		panic(contSig{})
	case *ReturnStmt:
		var v int64
		if s.Result != nil {
			v = e.rv(fr, s.Result)
		}
		panic(retSig{v})
	case *AwaitStmt:
		if e.rv(fr, s.Cond) == 0 {
			e.stop("blocked: await")
		}
	case *AssumeStmt:
		if e.rv(fr, s.Cond) == 0 {
			e.stop("blocked: assume")
		}
	case *AssertStmt:
		if e.rv(fr, s.Cond) == 0 {
			e.stop("assertion failed: %s", s.Msg)
		}
	case *AtomicStmt:
		e.block(fr, s.Body)
	default:
		e.stop("astEval: unsupported statement %T", s)
	}
}

func (e *astEval) cell(a int64) *int64 {
	b, off := ir.PtrBlock(a), ir.PtrOffset(a)
	if a == 0 {
		e.stop("runtime error: null pointer dereference")
	}
	if b <= 0 || b >= len(e.mem) || off >= len(e.mem[b]) {
		e.stop("runtime error: bad address %#x", a)
	}
	return &e.mem[b][off]
}

// addr computes the address of a location. Like the lowered code, it
// evaluates the parts (pointer loads, index) now but reports a null base or
// an index out of bounds only when the location is accessed (deref).
func (e *astEval) addr(fr *astFrame, x Expr) addrVal {
	switch x := x.(type) {
	case *ParenExpr:
		return e.addr(fr, x.X)
	case *Ident:
		return addrVal{a: ir.MakePtr(x.sym.index+1, 0)}
	case *IndexExpr:
		arr := x.X.info().typ
		base := e.addr(fr, x.X)
		i := e.rv(fr, x.Index)
		if base.err == "" && (i < 0 || i >= int64(arr.Len)) {
			base.err = fmt.Sprintf("runtime error: index %d out of bounds [0, %d)", i, arr.Len)
		}
		return addrVal{a: base.a + i*int64(arr.Elem.Size()), err: base.err}
	case *FieldExpr:
		var base addrVal
		if x.X.info().typ.Kind == ir.TRecord {
			base = e.addr(fr, x.X)
		} else {
			base.a = e.rv(fr, x.X)
			if base.a == 0 {
				base.err = "runtime error: null pointer dereference"
			}
		}
		return addrVal{a: base.a + int64(x.field.f.Offset), err: base.err}
	}
	e.stop("astEval: no address for %T", x)
	return addrVal{}
}

type addrVal struct {
	a   int64
	err string
}

func (e *astEval) deref(a addrVal) *int64 {
	if a.err != "" {
		e.stop("%s", a.err)
	}
	return e.cell(a.a)
}

func (e *astEval) rv(fr *astFrame, x Expr) int64 {
	switch x := x.(type) {
	case *Ident:
		if x.sym.kind == symLocal {
			return fr.locals[x.sym.local]
		}
		return *e.deref(e.addr(fr, x))
	case *IntLit:
		return int64(x.Val)
	case *BoolLit:
		return b2i(x.Val)
	case *NullLit:
		return 0
	case *ThisExpr:
		return fr.locals[0]
	case *ParenExpr:
		return e.rv(fr, x.X)
	case *UnaryExpr:
		if v, ok := constValue(x); ok {
			return v
		}
		v := e.rv(fr, x.X)
		switch x.Op {
		case tMinus:
			return -v
		case tBang:
			return b2i(v == 0)
		}
		return ^v
	case *BinaryExpr:
		a := e.rv(fr, x.X)
		switch x.Op {
		case tAndAnd:
			if a == 0 {
				return 0
			}
			return b2i(e.rv(fr, x.Y) != 0)
		case tOrOr:
			if a != 0 {
				return 1
			}
			return b2i(e.rv(fr, x.Y) != 0)
		}
		b := e.rv(fr, x.Y)
		switch x.Op {
		case tSlash, tPercent:
			if b == 0 {
				e.stop("runtime error: division by zero")
			}
		case tShl, tShr:
			if b < 0 || b > 63 {
				e.stop("runtime error: shift count %d", b)
			}
		}
		v, _ := constBinary(x.Op, a, b)
		return v
	case *IndexExpr, *FieldExpr:
		return *e.deref(e.addr(fr, x))
	case *CallExpr:
		var args []int64
		var callee *FuncDecl
		switch f := x.Fun.(type) {
		case *Ident:
			callee = f.sym.fn
		case *FieldExpr:
			callee = f.method
			if f.X.info().typ.Kind == ir.TRecord {
				args = append(args, e.addr(fr, f.X).a)
			} else {
				args = append(args, e.rv(fr, f.X))
			}
		}
		for _, a := range x.Args {
			args = append(args, e.rv(fr, a))
		}
		return e.call(callee, args)
	case *NewExpr:
		cells := make([]int64, x.rec.rec.Size)
		for _, fi := range x.Inits {
			cells[fi.field.f.Offset] = e.rv(fr, fi.Value)
		}
		e.mem = append(e.mem, cells)
		return ir.MakePtr(len(e.mem)-1, 0)
	case *BuiltinCall:
		return e.builtin(fr, x)
	}
	e.stop("astEval: unsupported expression %T", x)
	return 0
}

func (e *astEval) builtin(fr *astFrame, x *BuiltinCall) int64 {
	switch x.Op {
	case kwLoad:
		return *e.deref(e.addr(fr, x.Args[0]))
	case kwStore:
		a := e.addr(fr, x.Args[0])
		*e.deref(a) = e.rv(fr, x.Args[1])
		return 0
	case kwFetchAdd, kwFetchSub, kwFetchAnd, kwFetchOr, kwFetchXor, kwExchange:
		a := e.addr(fr, x.Args[0])
		v := e.rv(fr, x.Args[1])
		c := e.deref(a)
		old := *c
		*c = rmwKinds[x.Op].Apply(old, v)
		return old
	case kwCas:
		a := e.addr(fr, x.Args[0])
		exp := e.rv(fr, x.Args[1])
		des := e.rv(fr, x.Args[2])
		c := e.deref(a)
		if *c == exp {
			*c = des
			return 1
		}
		return 0
	case kwNondet:
		lo := e.rv(fr, x.Args[0])
		e.rv(fr, x.Args[1])
		return lo
	case kwNondetBool:
		return 0
	case kwTid:
		return 1
	case kwFence:
		return 0
	case kwLock:
		c := e.deref(e.addr(fr, x.Args[0]))
		if *c != 0 {
			e.stop("blocked: lock held")
		}
		*c = 1
		return 0
	case kwUnlock:
		c := e.deref(e.addr(fr, x.Args[0]))
		if *c == 0 {
			e.stop("runtime error: unlock of a free mutex")
		}
		*c = 0
		return 0
	case kwTrylock:
		c := e.deref(e.addr(fr, x.Args[0]))
		ok := *c == 0
		*c = 1
		return b2i(ok)
	}
	e.stop("astEval: unsupported builtin %s", x.Op)
	return 0
}
