package cir

import (
	"fmt"
	"strconv"

	"ncmc/ir"
)

// Lowering turns the checked AST into instructions, following the contract
// documented in package ir:
//
//   - expressions in instructions are pure; every read of a shared location
//     is its own ILoad into a hidden temp local, every write its own IStore;
//   - evaluation is left to right; an operand whose pure evaluation may fail
//     (division, shift) is computed into a temp before later operands emit
//     instructions, so runtime errors happen in source order;
//   - && and || branch when the right operand emits instructions or may fail;
//   - loops reset a hidden counter before the loop and run ILoopHead at the
//     start of every iteration's body (not for constant range loops);
//   - every function body ends with an implicit return.
//
// Jump targets are label ids during lowering and patched to instruction
// indices at the end of each function.

// With consume, lowering drops each statement from the AST once it is
// lowered, so that the collector can reclaim a long function's tree while
// its instructions are being built (the tree takes about as much memory as
// the instructions); the AST is unusable afterwards.
func lower(f *File, prog *ir.Program, c *checker, consume bool) {
	lv := newLeaves(prog)
	for _, fd := range c.funcs {
		fl := &fnLower{c: c, prog: prog, decl: fd, f: fd.fn, firstTemp: len(fd.fn.Locals), targets: map[int]bool{}, consume: consume, leaves: lv}
		fl.function()
	}
}

type loopLabels struct{ brk, cont int }

type fnLower struct {
	c         *checker
	prog      *ir.Program
	decl      *FuncDecl
	f         *ir.Func
	body      []ir.Instr   // the instructions emitted last (a chunk of at most chunkLen)
	chunks    [][]ir.Instr // full chunks before body
	nchunked  int          // instructions in chunks
	nstmts    int          // statements in the function (countStmts)
	stmtsDone int          // statements lowered so far
	reserved  bool         // reserve has run
	labels    []int        // label id -> instruction index (-1: not yet bound)
	targets   map[int]bool // instruction indices that labels are bound to
	loops     []loopLabels
	firstTemp int // locals from here on are hidden temps
	ntemp     int
	nloop     int
	consume   bool // drop statements from the AST once lowered (see lower)
	leaves    *leaves
	locals    []*ir.Expr // the shared uses of this function's locals, by slot (see leaves)
}

func (l *fnLower) function() {
	d := l.decl
	for _, s := range d.Body.Stmts {
		l.nstmts += countStmts(s)
	}
	l.block(d.Body)
	end := d.Body.End
	ret := l.ins(ir.IReturn, end)
	if res := l.f.Result; res.Kind != ir.TVoid {
		ret.A = l.constOf(0, res)
	}
	l.emit(ret)
	body := l.body
	if n := len(body); len(l.chunks) == 0 && cap(body) > n+n/4+chunkLen {
		body = append([]ir.Instr(nil), body...) // reserved too much (reserve)
	}
	if len(l.chunks) > 0 {
		// One exact copy: growing a single slice by append would allocate
		// about five times its final size (it grows by a quarter at a time).
		body = make([]ir.Instr, 0, l.len())
		for _, c := range l.chunks {
			body = append(body, c...)
		}
		body = append(body, l.body...)
		l.chunks, l.body = nil, nil
	}
	for i := range body {
		in := &body[i]
		switch in.Op {
		case ir.IJump:
			in.Target = l.labels[in.Target]
		case ir.IBranch:
			in.Target = l.labels[in.Target]
			in.Target2 = l.labels[in.Target2]
		}
	}
	l.f.Body = body
	if n := len(l.f.Locals); cap(l.f.Locals) > n+n/4 {
		l.f.Locals = append([]ir.Local(nil), l.f.Locals...)
	}
}

// ---- emission helpers ----

// pos is p in the file being lowered.
func (l *fnLower) pos(p srcPos) ir.Pos { return l.c.pos(p) }

func (l *fnLower) ins(op ir.Op, pos srcPos) ir.Instr {
	return ir.Instr{Op: op, Pos: l.pos(pos), Dst: -1, Dst2: -1}
}

// chunkLen is the number of instructions of a full chunk of fnLower.body.
const chunkLen = 4096

// emit appends in to the function's instructions.
func (l *fnLower) emit(in ir.Instr) {
	if n := len(l.body); n == cap(l.body) && n >= chunkLen {
		if !l.reserve() {
			l.chunks = append(l.chunks, l.body)
			l.nchunked += n
			l.body = make([]ir.Instr, 0, chunkLen)
		}
	}
	l.body = append(l.body, in)
}

// reserve is called once the first chunk is full: it estimates the
// function's instructions from the statements lowered so far and, for a
// function much longer than a chunk, moves the chunk into a slice of the
// estimated length (2% more), so that the function's body is usually
// allocated once and never copied (collecting chunks and copying them at
// the end holds the body twice: 200 MB more at the peak for a function of
// 600,000 statements). Past the estimate, chunks follow as before. The
// rate counts at most maxReserveRate instructions per statement, so that a
// dense start (one statement of thousands of loads) followed by light
// statements cannot reserve more than that per statement left.
func (l *fnLower) reserve() bool {
	if l.reserved || len(l.chunks) > 0 || l.stmtsDone == 0 {
		return false
	}
	l.reserved = true
	n := len(l.body)
	rate := min(float64(n)/float64(l.stmtsDone), maxReserveRate)
	est := n + int(rate*float64(l.nstmts-l.stmtsDone)*1.02) + 64
	if est < n+4*chunkLen {
		return false
	}
	body := make([]ir.Instr, n, est)
	copy(body, l.body)
	l.body = body
	// The locals likewise (a hidden temp per load): doubling would
	// allocate about three times their final size.
	if nl := len(l.f.Locals); nl > l.firstTemp {
		rate := min(float64(nl)/float64(l.stmtsDone), maxReserveRate)
		estL := nl + int(rate*float64(l.nstmts-l.stmtsDone)*1.02) + 64
		if estL > cap(l.f.Locals) {
			locals := make([]ir.Local, nl, estL)
			copy(locals, l.f.Locals)
			l.f.Locals = locals
		}
	}
	return true
}

// maxReserveRate bounds reserve's instructions (and locals) per statement.
const maxReserveRate = 4

// countStmts is the number of statements lowering visits in s (s and the
// statements nested in it), for reserve.
func countStmts(s Stmt) int {
	n := 1
	switch s := s.(type) {
	case *Block:
		for _, t := range s.Stmts {
			n += countStmts(t)
		}
	case *IfStmt:
		n += countStmts(s.Then) - 1
		if s.Else != nil {
			n += countStmts(s.Else)
		}
	case *WhileStmt:
		n += countStmts(s.Body) - 1
	case *ForStmt:
		if s.Init != nil {
			n += countStmts(s.Init)
		}
		if s.Post != nil {
			n += countStmts(s.Post)
		}
		n += countStmts(s.Body) - 1
	case *RangeStmt:
		n += countStmts(s.Body) - 1
	case *AtomicStmt:
		n += countStmts(s.Body) - 1
	}
	return n
}

// len is the number of instructions emitted so far.
func (l *fnLower) len() int { return l.nchunked + len(l.body) }

// last is the instruction emitted last (there must be one).
func (l *fnLower) last() *ir.Instr { return &l.body[len(l.body)-1] }

// addLocal appends a local to the function and returns its slot. The
// slice doubles when full (append grows a long slice by a quarter at a
// time, allocating about five times its final size in all): a long
// function has a hidden temp per load.
func (l *fnLower) addLocal(loc ir.Local) int {
	if n := len(l.f.Locals); n == cap(l.f.Locals) && n >= 256 {
		grown := make([]ir.Local, n, 2*n)
		copy(grown, l.f.Locals)
		l.f.Locals = grown
	}
	l.f.Locals = append(l.f.Locals, loc)
	return len(l.f.Locals) - 1
}

func (l *fnLower) newLabel() int {
	l.labels = append(l.labels, -1)
	return len(l.labels) - 1
}

func (l *fnLower) bind(lab int) {
	l.labels[lab] = l.len()
	l.targets[l.len()] = true
}

func (l *fnLower) jump(lab int, pos srcPos) {
	in := l.ins(ir.IJump, pos)
	in.Target = lab
	l.emit(in)
}

func (l *fnLower) branch(cond *ir.Expr, then, els int, pos srcPos) {
	in := l.ins(ir.IBranch, pos)
	in.A, in.Target, in.Target2 = cond, then, els
	l.emit(in)
}

// terminated reports whether control cannot fall through to the next
// instruction: the last one is a jump or return and no label points here.
func (l *fnLower) terminated() bool {
	n := l.len()
	if n == 0 || l.targets[n] {
		return false
	}
	op := l.last().Op
	return op == ir.IJump || op == ir.IReturn
}

// temp allocates a hidden temp local.
func (l *fnLower) temp(t *ir.Type, pos srcPos) int {
	l.ntemp++
	return l.addLocal(ir.Local{Name: strconv.Itoa(l.ntemp), Type: t, Pos: l.pos(pos)})
}

func (l *fnLower) isTemp(e *ir.Expr) bool {
	return e != nil && e.Kind == ir.ELocal && e.Local >= l.firstTemp
}

// leaves holds the leaf expressions (locals, constants, global addresses)
// that lowering shares between the instructions of a program: a leaf is a
// value that never changes after lowering (see the ir.Expr doc), so one
// node per (slot or value, type) serves every use, and a long function
// does not hold one 112-byte node per operand. Shared leaves carry no
// position (nothing reads the position of a leaf, which cannot fail).
type leaves struct {
	consts  map[constKey]*ir.Expr
	globals []*ir.Expr // by global index
}

type constKey struct {
	v int64
	t *ir.Type
}

func newLeaves(prog *ir.Program) *leaves {
	return &leaves{consts: map[constKey]*ir.Expr{}, globals: make([]*ir.Expr, len(prog.Globals))}
}

// local is a use of local slot with type t.
func (l *fnLower) local(slot int, t *ir.Type) *ir.Expr {
	if slot >= len(l.locals) {
		n := max(2*len(l.locals), slot+1, 16)
		grown := make([]*ir.Expr, n)
		copy(grown, l.locals)
		l.locals = grown
	}
	if e := l.locals[slot]; e != nil && e.Type == t {
		return e
	}
	e := &ir.Expr{Kind: ir.ELocal, Local: slot, Type: t}
	l.locals[slot] = e
	return e
}

// constOf is the constant v of type t.
func (l *fnLower) constOf(v int64, t *ir.Type) *ir.Expr {
	k := constKey{v, t}
	if e := l.leaves.consts[k]; e != nil {
		return e
	}
	e := &ir.Expr{Kind: ir.EConst, Val: v, Type: t}
	l.leaves.consts[k] = e
	return e
}

// globalAddr is the address of global index, of type t.
func (l *fnLower) globalAddr(index int, t *ir.Type) *ir.Expr {
	if e := l.leaves.globals[index]; e != nil && e.Type == t {
		return e
	}
	e := &ir.Expr{Kind: ir.EGlobalAddr, Global: index, Type: t}
	l.leaves.globals[index] = e
	return e
}

// assignLocal emits dst = v. When v is a hidden temp written by the
// instruction just emitted (and nothing jumps in between), that instruction
// writes dst directly and the temp is dropped.
func (l *fnLower) assignLocal(dst int, v *ir.Expr, pos srcPos) {
	if n := l.len(); l.isTemp(v) && n > 0 && !l.targets[n] && v.Local == len(l.f.Locals)-1 {
		last := l.last()
		retarget := false
		switch last.Op {
		case ir.ILoad, ir.IRMW, ir.ICall, ir.ITryLock, ir.ISpawn, ir.IJoin, ir.INondet, ir.ISelf, ir.IAlloc:
			if last.Dst == v.Local {
				last.Dst, retarget = dst, true
			}
		case ir.ICAS:
			if last.Dst2 == v.Local {
				last.Dst2, retarget = dst, true
			}
		}
		if retarget {
			l.f.Locals = l.f.Locals[:len(l.f.Locals)-1]
			l.ntemp--
			return
		}
	}
	in := l.ins(ir.IAssign, pos)
	in.Dst, in.A = dst, v
	l.emit(in)
}

// spill evaluates e into a fresh temp now (used when e may fail and later
// operands emit instructions).
func (l *fnLower) spill(e *ir.Expr, pos srcPos) *ir.Expr {
	t := l.temp(e.Type, pos)
	in := l.ins(ir.IAssign, pos)
	in.Dst, in.A = t, e
	l.emit(in)
	return l.local(t, e.Type)
}

// value makes sure that an operand v of an access to address addr fails
// before the access does: the interpreter evaluates an instruction's address
// before its operands, but the source evaluates the operands (the right-hand
// side) before the access checks the address (null pointer, index bounds).
func (l *fnLower) value(v, addr *ir.Expr, pos srcPos) *ir.Expr {
	if mayFailIR(v) && mayFailIR(addr) {
		return l.spill(v, pos)
	}
	return v
}

// rvList lowers operands left to right.
func (l *fnLower) rvList(es []Expr) []*ir.Expr {
	out := make([]*ir.Expr, len(es))
	for i, e := range es {
		x := l.rv(e)
		if mayFailIR(x) && anyEmits(es[i+1:]) {
			x = l.spill(x, e.exprPos())
		}
		out[i] = x
	}
	return out
}

func anyEmits(es []Expr) bool {
	for _, e := range es {
		if emits(e) {
			return true
		}
	}
	return false
}

// mayFailIR reports whether evaluating the pure expression e can fail.
func mayFailIR(e *ir.Expr) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ir.EBinary:
		switch e.Op {
		case ir.OpDiv, ir.OpMod, ir.OpShl, ir.OpShr:
			if e.B.Kind != ir.EConst {
				return true
			}
		}
		return mayFailIR(e.A) || mayFailIR(e.B)
	case ir.EUnary, ir.ECast:
		return mayFailIR(e.A)
	case ir.EIndex, ir.EField:
		return true
	}
	return false
}

// ---- statements ----

func (l *fnLower) block(b *Block) {
	for i, s := range b.Stmts {
		l.stmt(s)
		if l.consume {
			b.Stmts[i] = nil
		}
	}
}

func (l *fnLower) stmt(s Stmt) {
	l.stmtsDone++
	switch s := s.(type) {
	case *Block:
		l.block(s)
	case *LetStmt:
		typ := l.f.Locals[s.local].Type
		if s.Init == nil {
			l.assignLocal(s.local, l.constOf(0, typ), s.Pos)
			return
		}
		l.assignLocal(s.local, l.rv(s.Init), s.Pos)
	case *AssignStmt:
		l.assign(s)
	case *ExprStmt:
		l.effect(unparen(s.X))
	case *IfStmt:
		l.ifStmt(s)
	case *WhileStmt:
		if s.spin {
			// while (c) {} == await(!c)
			c := l.rv(s.Cond)
			in := l.ins(ir.IAssume, s.Pos)
			if c.Kind == ir.EUnary && c.Op == ir.OpNot {
				in.A = c.A
			} else {
				in.A = &ir.Expr{Kind: ir.EUnary, Op: ir.OpNot, A: c, Type: ir.Bool, Pos: l.pos(s.Cond.exprPos())}
			}
			in.Assume = ir.AssumeSpin
			l.emit(in)
			return
		}
		l.loop(s.Pos, s.Cond, nil, s.Unroll, s.Body)
	case *ForStmt:
		if s.Init != nil {
			l.stmt(s.Init)
		}
		l.loop(s.Pos, s.Cond, s.Post, s.Unroll, s.Body)
	case *RangeStmt:
		l.rangeLoop(s)
	case *BranchStmt:
		ll := l.loops[len(l.loops)-1]
		if s.Break {
			l.jump(ll.brk, s.Pos)
		} else {
			l.jump(ll.cont, s.Pos)
		}
	case *ReturnStmt:
		in := l.ins(ir.IReturn, s.Pos)
		if s.Result != nil {
			in.A = l.rv(s.Result)
		}
		l.emit(in)
	case *AwaitStmt:
		in := l.ins(ir.IAssume, s.Pos)
		in.A = l.rv(s.Cond)
		in.Assume = ir.AssumeSpin
		l.emit(in)
	case *AssumeStmt:
		in := l.ins(ir.IAssume, s.Pos)
		in.A = l.rv(s.Cond)
		in.Assume = ir.AssumeUser
		l.emit(in)
	case *AssertStmt:
		in := l.ins(ir.IAssert, s.Pos)
		in.A = l.rv(s.Cond)
		in.Msg = s.Msg
		l.emit(in)
	case *AtomicStmt:
		l.emit(l.ins(ir.IAtomicBegin, s.Pos))
		l.block(s.Body)
		l.emit(l.ins(ir.IAtomicEnd, s.Body.End))
	}
}

func (l *fnLower) assign(s *AssignStmt) {
	if id, ok := unparen(s.LHS).(*Ident); ok && id.sym.kind == symLocal {
		l.assignLocal(id.sym.local, l.rv(s.RHS), s.Pos)
		return
	}
	addr := l.addr(s.LHS)
	v := l.value(l.rv(s.RHS), addr, s.RHS.exprPos())
	in := l.ins(ir.IStore, s.Pos)
	in.Addr, in.A, in.Order = addr, v, defaultOrder(s.LHS)
	l.emit(in)
}

func (l *fnLower) ifStmt(s *IfStmt) {
	c := l.rv(s.Cond)
	then, els, end := l.newLabel(), l.newLabel(), l.newLabel()
	if s.Else == nil {
		els = end
	}
	l.branch(c, then, els, s.Pos)
	l.bind(then)
	l.block(s.Then)
	if s.Else != nil {
		if !l.terminated() {
			l.jump(end, s.Then.End)
		}
		l.bind(els)
		l.stmt(s.Else)
	}
	l.bind(end)
}

// counter starts a loop-bound counter, or returns -1 if none is needed.
func (l *fnLower) counter(pos srcPos) int {
	l.nloop++
	slot := l.addLocal(ir.Local{Name: fmt.Sprintf("loop.%d", l.nloop), Type: ir.Int, Pos: l.pos(pos)})
	in := l.ins(ir.IAssign, pos)
	in.Dst, in.A = slot, l.constOf(0, ir.Int)
	l.emit(in)
	return slot
}

func (l *fnLower) loopHead(slot int, u *Unroll, pos srcPos) {
	in := l.ins(ir.ILoopHead, pos)
	in.Dst = slot
	if u != nil {
		in.Bound = u.bound
	}
	l.emit(in)
}

// loop lowers a while or C-style for loop (cond nil: forever).
//
//	cnt = 0
//	head:  <cond>; branch c, body, exit
//	body:  loophead cnt; <body>
//	cont:  <post>; jump head
//	exit:
func (l *fnLower) loop(pos srcPos, cond Expr, post Stmt, u *Unroll, body *Block) {
	cnt := l.counter(pos)
	head, bodyL, cont, exit := l.newLabel(), l.newLabel(), l.newLabel(), l.newLabel()
	l.bind(head)
	if cond != nil {
		c := l.rv(cond)
		l.branch(c, bodyL, exit, pos)
	}
	l.bind(bodyL)
	l.loopHead(cnt, u, pos)
	l.loops = append(l.loops, loopLabels{brk: exit, cont: cont})
	l.block(body)
	l.loops = l.loops[:len(l.loops)-1]
	l.bind(cont)
	if post != nil {
		l.stmt(post)
	}
	l.jump(head, pos)
	l.bind(exit)
}

// rangeLoop lowers `for i in lo..hi`:
//
//	i = lo; hi' = hi; [cnt = 0]
//	head: branch i < hi', body, exit
//	body: [loophead cnt]; <body>
//	cont: i = i + 1; jump head
//	exit:
func (l *fnLower) rangeLoop(s *RangeStmt) {
	pos := s.Pos
	lohi := l.rvList([]Expr{s.Lo, s.Hi})
	l.assignLocal(s.local, lohi[0], pos)
	hi := lohi[1]
	if hi.Kind != ir.EConst && hi.Kind != ir.ELocal {
		hi = l.spill(hi, s.Hi.exprPos())
	} else if hi.Kind == ir.ELocal && !l.isTemp(hi) {
		// A user local could change in the body: snapshot it.
		hi = l.spill(hi, s.Hi.exprPos())
	}
	cnt := -1
	if !s.constant {
		cnt = l.counter(pos)
	}
	head, bodyL, cont, exit := l.newLabel(), l.newLabel(), l.newLabel(), l.newLabel()
	iv := l.local(s.local, ir.Int)
	l.bind(head)
	l.branch(&ir.Expr{Kind: ir.EBinary, Op: ir.OpLt, A: iv, B: hi, Type: ir.Bool, Pos: l.pos(pos)}, bodyL, exit, pos)
	l.bind(bodyL)
	if cnt >= 0 {
		l.loopHead(cnt, s.Unroll, pos)
	}
	l.loops = append(l.loops, loopLabels{brk: exit, cont: cont})
	l.block(s.Body)
	l.loops = l.loops[:len(l.loops)-1]
	l.bind(cont)
	inc := l.ins(ir.IAssign, pos)
	inc.Dst = s.local
	inc.A = &ir.Expr{Kind: ir.EBinary, Op: ir.OpAdd, A: iv, B: l.constOf(1, ir.Int), Type: ir.Int, Pos: l.pos(pos)}
	l.emit(inc)
	l.jump(head, pos)
	l.bind(exit)
}

// effect lowers an expression statement (a call whose value is dropped).
func (l *fnLower) effect(e Expr) {
	switch x := e.(type) {
	case *CallExpr:
		l.call(x, false)
	case *SpawnExpr:
		l.spawn(x, false)
	case *BuiltinCall:
		if x.Op == kwJoin {
			l.join(x, false)
			return
		}
		l.builtin(x)
	default:
		l.rv(e)
	}
}

// ---- expressions ----

// defaultOrder is the memory order of a plain access to location e: sc for
// atomic globals and fields (and their elements), na otherwise.
func defaultOrder(e Expr) ir.Order {
	if atomicLoc(e) {
		return ir.OrderSC
	}
	return ir.OrderNA
}

func atomicLoc(e Expr) bool {
	switch x := unparen(e).(type) {
	case *Ident:
		return x.sym != nil && x.sym.kind == symGlobal && x.sym.global.Atomic
	case *IndexExpr:
		return atomicLoc(x.X)
	case *FieldExpr:
		if x.field == nil {
			return false
		}
		return x.field.Atomic
	}
	return false
}

// addr lowers the address of the shared location e.
func (l *fnLower) addr(e Expr) *ir.Expr {
	pos := e.exprPos()
	switch x := e.(type) {
	case *ParenExpr:
		return l.addr(x.X)
	case *Ident:
		return l.globalAddr(x.sym.index, x.sym.typ)
	case *IndexExpr:
		arr := x.X.info().typ
		a := l.addr(x.X)
		i := l.rv(x.Index)
		if mayFailIR(i) {
			i = l.spill(i, x.Index.exprPos())
		}
		return &ir.Expr{Kind: ir.EIndex, A: a, B: i, Len: arr.Len, Stride: arr.Elem.Size(), Type: arr.Elem, Pos: l.pos(pos)}
	case *FieldExpr:
		var base *ir.Expr
		if t := x.X.info().typ; t.Kind == ir.TRecord {
			base = l.addr(x.X)
		} else {
			base = l.rv(x.X)
		}
		return &ir.Expr{Kind: ir.EField, A: base, Offset: x.field.f.Offset, Type: x.field.f.Type, Pos: l.pos(pos)}
	}
	panic(fmt.Sprintf("cir: internal error: address of %T at %s", e, l.pos(pos)))
}

// load emits a load of location e with order o into a temp.
func (l *fnLower) load(e Expr, o ir.Order) *ir.Expr {
	typ := e.info().typ
	a := l.addr(e)
	t := l.temp(typ, e.exprPos())
	in := l.ins(ir.ILoad, e.exprPos())
	in.Dst, in.Addr, in.Order = t, a, o
	l.emit(in)
	return l.local(t, typ)
}

var unOps = map[tokKind]ir.Operator{tMinus: ir.OpNeg, tBang: ir.OpNot, tTilde: ir.OpBitNot}

var binOps = map[tokKind]ir.Operator{
	tPlus: ir.OpAdd, tMinus: ir.OpSub, tStar: ir.OpMul, tSlash: ir.OpDiv, tPercent: ir.OpMod,
	tAmp: ir.OpAnd, tPipe: ir.OpOr, tCaret: ir.OpXor, tShl: ir.OpShl, tShr: ir.OpShr,
	tEq: ir.OpEq, tNe: ir.OpNe, tLt: ir.OpLt, tLe: ir.OpLe, tGt: ir.OpGt, tGe: ir.OpGe,
	tAndAnd: ir.OpLAnd, tOrOr: ir.OpLOr,
}

// rv lowers e as a value and returns a pure expression for it.
func (l *fnLower) rv(e Expr) *ir.Expr {
	pos := e.exprPos()
	typ := e.info().typ
	switch x := e.(type) {
	case *Ident:
		if x.sym.kind == symLocal {
			return l.local(x.sym.local, x.sym.typ)
		}
		return l.load(x, defaultOrder(x))
	case *IntLit:
		return l.constOf(int64(x.Val), ir.Int)
	case *BoolLit:
		return l.constOf(b2i(x.Val), ir.Bool)
	case *NullLit:
		return l.constOf(0, typ)
	case *ThisExpr:
		return l.local(0, typ)
	case *ParenExpr:
		return l.rv(x.X)
	case *UnaryExpr:
		if v, ok := constValue(x); ok {
			return l.constOf(v, typ)
		}
		return &ir.Expr{Kind: ir.EUnary, Op: unOps[x.Op], A: l.rv(x.X), Type: typ, Pos: l.pos(pos)}
	case *BinaryExpr:
		if v, ok := constValue(x); ok {
			return l.constOf(v, typ)
		}
		if (x.Op == tAndAnd || x.Op == tOrOr) && (emits(x.Y) || mayFail(x.Y)) {
			return l.shortCircuit(x)
		}
		ops := l.rvList([]Expr{x.X, x.Y})
		return &ir.Expr{Kind: ir.EBinary, Op: binOps[x.Op], A: ops[0], B: ops[1], Type: typ, Pos: l.pos(x.OpPos)}
	case *IndexExpr, *FieldExpr:
		return l.load(e, defaultOrder(e))
	case *CallExpr:
		return l.call(x, true)
	case *SpawnExpr:
		return l.spawn(x, true)
	case *BuiltinCall:
		if x.Op == kwJoin {
			return l.join(x, true)
		}
		return l.builtin(x)
	case *NewExpr:
		return l.newExpr(x)
	}
	panic(fmt.Sprintf("cir: internal error: value of %T at %s", e, l.pos(pos)))
}

// shortCircuit lowers X && Y / X || Y with a branch around Y.
func (l *fnLower) shortCircuit(x *BinaryExpr) *ir.Expr {
	pos := x.OpPos
	a := l.rv(x.X)
	var t int
	if l.isTemp(a) {
		t = a.Local // a hidden temp has this one use: reuse it for the result
	} else {
		t = l.temp(ir.Bool, pos)
		in := l.ins(ir.IAssign, pos)
		in.Dst, in.A = t, a
		l.emit(in)
	}
	rhs, end := l.newLabel(), l.newLabel()
	tv := l.local(t, ir.Bool)
	if x.Op == tAndAnd {
		l.branch(tv, rhs, end, pos)
	} else {
		l.branch(tv, end, rhs, pos)
	}
	l.bind(rhs)
	b := l.rv(x.Y)
	in := l.ins(ir.IAssign, pos)
	in.Dst, in.A = t, b
	l.emit(in)
	l.bind(end)
	return l.local(t, ir.Bool)
}

// call lowers a function or method call; with value it returns the result.
func (l *fnLower) call(x *CallExpr, value bool) *ir.Expr {
	pos := x.exprPos()
	var callee *FuncDecl
	var args []*ir.Expr
	switch f := x.Fun.(type) {
	case *Ident:
		callee = f.sym.fn
	case *FieldExpr:
		callee = f.method
		var recv *ir.Expr
		if t := f.X.info().typ; t.Kind == ir.TRecord {
			recv = l.addr(f.X)
		} else {
			recv = l.rv(f.X)
		}
		args = append(args, recv)
	}
	args = append(args, l.rvList(x.Args)...)
	in := l.ins(ir.ICall, pos)
	in.Func, in.Args = callee.fn, args
	if !value || callee.fn.Result.Kind == ir.TVoid {
		l.emit(in)
		return nil
	}
	t := l.temp(callee.fn.Result, pos)
	in.Dst = t
	l.emit(in)
	return l.local(t, callee.fn.Result)
}

func (l *fnLower) spawn(x *SpawnExpr, value bool) *ir.Expr {
	callee := x.Call.Fun.(*Ident).sym.fn
	in := l.ins(ir.ISpawn, x.Pos)
	in.Func, in.Args = callee.fn, l.rvList(x.Call.Args)
	if !value {
		l.emit(in)
		return nil
	}
	t := l.temp(ir.Thread, x.Pos)
	in.Dst = t
	l.emit(in)
	return l.local(t, ir.Thread)
}

func (l *fnLower) join(x *BuiltinCall, value bool) *ir.Expr {
	in := l.ins(ir.IJoin, x.Pos)
	in.A = l.rv(x.Args[0])
	if !value {
		l.emit(in)
		return nil
	}
	typ := x.typ
	t := l.temp(typ, x.Pos)
	in.Dst = t
	l.emit(in)
	return l.local(t, typ)
}

func (l *fnLower) newExpr(x *NewExpr) *ir.Expr {
	rec := x.rec.rec
	vals := make([]Expr, len(x.Inits))
	for i, fi := range x.Inits {
		vals[i] = fi.Value
	}
	lowered := l.rvList(vals)
	args := make([]*ir.Expr, rec.Size)
	for i := range args {
		args[i] = l.constOf(0, ir.Int)
	}
	for _, fd := range x.rec.Fields {
		if fd.f.Type.Kind == ir.TBool || fd.f.Type.Kind == ir.TPtr || fd.f.Type.Kind == ir.TThread {
			args[fd.f.Offset] = l.constOf(0, fd.f.Type)
		}
	}
	for i, fi := range x.Inits {
		args[fi.field.f.Offset] = lowered[i]
	}
	typ := ir.PtrTo(rec)
	t := l.temp(typ, x.Pos)
	in := l.ins(ir.IAlloc, x.Pos)
	in.Dst, in.Record, in.Args = t, rec, args
	l.emit(in)
	return l.local(t, typ)
}

var rmwKinds = map[tokKind]ir.RMWKind{
	kwFetchAdd: ir.RMWAdd, kwFetchSub: ir.RMWSub, kwFetchAnd: ir.RMWAnd,
	kwFetchOr: ir.RMWOr, kwFetchXor: ir.RMWXor, kwExchange: ir.RMWXchg,
}

// builtin lowers a builtin call (other than join); it returns its value, or
// nil for builtins without one.
func (l *fnLower) builtin(x *BuiltinCall) *ir.Expr {
	pos := x.Pos
	switch x.Op {
	case kwLock, kwUnlock, kwSignal, kwBroadcast:
		op := map[tokKind]ir.Op{kwLock: ir.ILock, kwUnlock: ir.IUnlock, kwSignal: ir.ISignal, kwBroadcast: ir.IBroadcast}[x.Op]
		in := l.ins(op, pos)
		in.Addr = l.addr(x.Args[0])
		l.emit(in)
		return nil
	case kwTrylock:
		in := l.ins(ir.ITryLock, pos)
		in.Addr = l.addr(x.Args[0])
		in.Dst = l.temp(ir.Bool, pos)
		l.emit(in)
		return l.local(in.Dst, ir.Bool)
	case kwWait:
		in := l.ins(ir.IWait, pos)
		in.Addr = l.addr(x.Args[0])
		in.B = l.addr(x.Args[1])
		l.emit(in)
		return nil
	case kwFence:
		in := l.ins(ir.IFence, pos)
		in.Order = x.orders[0]
		l.emit(in)
		return nil
	case kwLoad:
		v := l.load(x.Args[0], x.orders[0])
		l.last().Pos = l.pos(pos)
		return v
	case kwStore:
		in := l.ins(ir.IStore, pos)
		in.Addr = l.addr(x.Args[0])
		in.A = l.value(l.rv(x.Args[1]), in.Addr, pos)
		in.Order = x.orders[0]
		l.emit(in)
		return nil
	case kwFetchAdd, kwFetchSub, kwFetchAnd, kwFetchOr, kwFetchXor, kwExchange:
		typ := x.typ
		in := l.ins(ir.IRMW, pos)
		in.Addr = l.addr(x.Args[0])
		in.A = l.value(l.rv(x.Args[1]), in.Addr, pos)
		in.RMW, in.Order = rmwKinds[x.Op], x.orders[0]
		in.Dst = l.temp(typ, pos)
		l.emit(in)
		return l.local(in.Dst, typ)
	case kwCas:
		typ := x.Args[0].info().typ
		in := l.ins(ir.ICAS, pos)
		in.Addr = l.addr(x.Args[0])
		ed := l.rvList(x.Args[1:3])
		in.A, in.B = l.value(ed[0], in.Addr, pos), l.value(ed[1], in.Addr, pos)
		in.Order, in.FailOrder = x.orders[0], x.orders[1]
		in.Dst = l.temp(typ, pos)
		in.Dst2 = l.temp(ir.Bool, pos)
		l.emit(in)
		return l.local(in.Dst2, ir.Bool)
	case kwNondet:
		lohi := l.rvList(x.Args)
		in := l.ins(ir.INondet, pos)
		in.A, in.B = lohi[0], lohi[1]
		in.Dst = l.temp(ir.Int, pos)
		l.emit(in)
		return l.local(in.Dst, ir.Int)
	case kwNondetBool:
		in := l.ins(ir.INondet, pos)
		in.A, in.B = l.constOf(0, ir.Int), l.constOf(1, ir.Int)
		in.Dst = l.temp(ir.Bool, pos)
		l.emit(in)
		return l.local(in.Dst, ir.Bool)
	case kwTid:
		in := l.ins(ir.ISelf, pos)
		in.Dst = l.temp(ir.Thread, pos)
		l.emit(in)
		return l.local(in.Dst, ir.Thread)
	}
	panic(fmt.Sprintf("cir: internal error: builtin %s at %s", x.Op, l.pos(pos)))
}
