package c

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// fnl lowers one function body.
type fnl struct {
	tr *translator
	fi *fnInfo
	f  *ir.Func
	ff *funcFacts

	body    []ir.Instr
	labels  []int        // label id -> instruction index (-1: unbound)
	targets map[int]bool // instruction indices labels are bound to
	breaks  []int        // innermost break target label
	conts   []int        // innermost continue target label
	cases   map[*cc.LabeledStatement]int
	// spinConts are the "if (c) continue;" statements lowered as spins.
	spinConts map[*cc.SelectionStatement]bool

	locals     map[*cc.Declarator]*localVar
	gotoLabels map[string]int
	hasGoto    bool
	loopDepth  int
	ntemp      int
	nloop      int
	firstTemp  int
	// checked are register locals declared without an initializer: reading
	// one before it is assigned is reported (C leaves its value indeterminate).
	checked map[int]bool
	// uninitRead are the checked slots some read may find unassigned
	// (checkUninit).
	uninitRead map[int]bool
	// entry is where hoisted allocations of memory locals go.
	entry []ir.Instr

	// cur is the block item being lowered and peek the one after it (for
	// narrowing nondet ranges by a following assumption).
	cur, peek *cc.BlockItem
	// topLevel: lowering a block item of main's outermost block;
	// threadsStarted: some earlier such item may have created a thread.
	topLevel       bool
	threadsStarted bool
	depth          int
}

// localVar is a C local variable or parameter.
type localVar struct {
	slot int  // register slot, or (mem) the slot holding the object's address
	mem  bool // lives in memory
	t    cc.Type
	rec  *ir.Record // mem: the record of its block
	// boolOnly: every read is a truth value, so a nondet value assigned to
	// it only matters through being zero or not.
	boolOnly bool
	atomic   bool
	hoist    int // mem: index of its IAlloc in entry
}

// signature sets the IR result type of fi's function. It runs for every
// translated function before any is lowered: a call lowered before the
// callee's body (a call of a function defined later, through a prototype,
// or mutual recursion) needs the callee's result type to keep the value.
func (tr *translator) signature(fi *fnInfo) {
	pos := tr.pos(fi.def.Declarator)
	res := fi.ftype.Result()
	switch {
	case res.Kind() == cc.Void:
		fi.f.Result = ir.Void
	case isScalarC(res):
		fi.f.Result = tr.scalarType(res, pos)
	default:
		tr.unsupported(pos, "function %s returns %s (only integers and pointers can be returned)", fi.name, res)
		fi.f.Result = ir.Int
	}
}

func (tr *translator) lowerFunc(fi *fnInfo) *fnl {
	l := &fnl{tr: tr, fi: fi, f: fi.f, targets: map[int]bool{}, locals: map[*cc.Declarator]*localVar{},
		gotoLabels: map[string]int{}, checked: map[int]bool{}, uninitRead: map[int]bool{}, cases: map[*cc.LabeledStatement]int{},
		spinConts: map[*cc.SelectionStatement]bool{}}
	l.ff = fi.facts
	fd := fi.def
	pos := tr.pos(fd.Declarator)
	ft := fi.ftype
	if ft.IsVariadic() {
		tr.unsupported(pos, "variadic function %s", fi.name)
	}
	// The result type was set by signature, before any function was
	// lowered. Parameters:
	params := ft.Parameters()
	for i, p := range params {
		if p.Type().Kind() == cc.Void {
			continue
		}
		name := p.Name()
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		ppos := pos
		if p.Declarator != nil {
			ppos = tr.pos(p.Declarator)
		}
		pt := p.Type().Decay()
		if byValue(pt) {
			// A struct or union passed by value: the caller passes the
			// argument's address, the callee copies it (below).
			l.f.Locals = append(l.f.Locals, ir.Local{Name: name, Type: ptrOf(tr.irType(pt, ppos)), Pos: ppos})
			continue
		}
		if !isScalarC(pt) {
			tr.unsupported(ppos, "parameter %s of type %s", name, pt)
		}
		l.f.Locals = append(l.f.Locals, ir.Local{Name: name, Type: tr.scalarType(pt, ppos), Pos: ppos})
	}
	l.f.NumParams = len(l.f.Locals)
	argcOne := false
	if fi == tr.main && len(params) > 0 {
		// main's parameters come from the command line, which is not
		// modelled; under-approximated, the program runs without
		// arguments: argc = 1 (argv stays a null pointer).
		for i, p := range params {
			if p.Declarator == nil {
				continue
			}
			used := false
			walk(fd.CompoundStatement, func(n any) bool {
				if d := identDecl(asExpr(n)); d == p.Declarator {
					used = true
				}
				return !used
			})
			switch {
			case used && tr.opts.UnderApproximate && i == 0 && !l.ff.escaped[p.Declarator] && isInteger(p.Type()):
				argcOne = true
				tr.approx = append(tr.approx, fmt.Sprintf("%s: main runs with argc = 1 (no command-line arguments)", tr.pos(p.Declarator)))
			case used && tr.opts.UnderApproximate && i == 1 && !l.ff.escaped[p.Declarator]:
				tr.approx = append(tr.approx, fmt.Sprintf("%s: argv is a null pointer (reading it is a runtime error)", tr.pos(p.Declarator)))
			case used:
				tr.unsupported(tr.pos(p.Declarator), "main reads its parameter %s (command-line arguments are not modelled)", p.Name())
			}
		}
	}
	slot := 0
	var memParams, recParams []*cc.Parameter
	var memSlots, recSlots []int
	for _, p := range params {
		if p.Type().Kind() == cc.Void {
			continue
		}
		if d := p.Declarator; d != nil {
			lv := &localVar{slot: slot, t: p.Type().Decay()}
			lv.boolOnly = !l.ff.nonTruthUse[d]
			if byValue(lv.t) {
				recParams = append(recParams, p)
				recSlots = append(recSlots, slot)
			} else if l.ff.escaped[d] {
				memParams = append(memParams, p)
				memSlots = append(memSlots, slot)
			}
			l.locals[d] = lv
		}
		slot++
	}
	l.firstTemp = len(l.f.Locals)
	// Parameters whose address is taken live in memory: copy them there.
	for i, p := range memParams {
		lv := l.locals[p.Declarator]
		l.makeMem(p.Declarator, lv, tr.pos(p.Declarator))
		l.entry[lv.hoist].Args = []*ir.Expr{l.local(memSlots[i], pos)}
	}
	// Structs and unions passed by value: a local object of the callee,
	// a copy of the caller's argument.
	for i, p := range recParams {
		lv := l.locals[p.Declarator]
		ppos := tr.pos(p.Declarator)
		if hasSync(tr.irType(lv.t, ppos)) {
			tr.unsupported(ppos, "passing a struct that contains a mutex or condition variable by value")
			continue
		}
		l.makeMem(p.Declarator, lv, ppos)
		src := lval{reg: -1, addr: l.local(recSlots[i], ppos), t: lv.t}
		n := lv.rec.Size
		vals := make([]*ir.Expr, n)
		for c := 0; c < n; c++ {
			vals[c] = l.loadCell(src, c, ppos)
		}
		for c := 0; c < n; c++ {
			in := l.ins(ir.IStore, ppos)
			in.Addr, in.A = fieldAddr(l.memAddr(lv, ppos), c, ppos), vals[c]
			l.emit(in)
		}
	}
	if argcOne {
		l.assignLocal(0, cnst(1, l.f.Locals[0].Type, pos), pos)
	}
	if fi.atomic {
		l.atomicBegin(pos)
	}
	l.compound(fd.CompoundStatement)
	end := tr.tokPos(fd.CompoundStatement.Token2)
	if fi.atomic {
		l.emit(l.ins(ir.IAtomicEnd, end))
	}
	ret := l.ins(ir.IReturn, end)
	if l.f.Result.Kind != ir.TVoid {
		ret.A = cnst(0, l.f.Result, end)
	}
	l.emit(ret)
	for name, lab := range l.gotoLabels {
		if l.labels[lab] < 0 {
			tr.unsupported(pos, "goto to undefined label %s", name)
			l.labels[lab] = len(l.body) - 1
		}
	}
	// Prepend the hoisted allocations and patch jump targets.
	shift := len(l.entry)
	body := append(l.entry, l.body...)
	for i := shift; i < len(body); i++ {
		in := &body[i]
		switch in.Op {
		case ir.IJump:
			in.Target = l.labels[in.Target] + shift
		case ir.IBranch:
			in.Target = l.labels[in.Target] + shift
			in.Target2 = l.labels[in.Target2] + shift
		}
	}
	l.f.Body = body
	l.checkUninit()
	if tr.opts.DropDeadLoads && !tr.opts.NoAtomicSections && !tr.opts.NoDataRace {
		dropDeadLoads(l.f)
	}
	if !tr.opts.KeepSpinIterations {
		spinNoOps(l.f)
	}
	return l
}

// compilerBarrier reports whether an asm statement has an empty template
// and no operands (asm(""), asm volatile("" ::: "memory")): a compiler
// barrier, which emits no instruction, so a no-op here (the memory model,
// not a compiler, decides which reorderings happen).
func compilerBarrier(as *cc.AsmStatement) bool {
	if as == nil || as.Asm == nil {
		return false
	}
	tmpl := strings.TrimSpace(as.Asm.Token3.SrcStr())
	if tmpl != `""` {
		return false
	}
	operands := false
	walk(as.Asm.AsmArgList, func(n any) bool {
		// clobbers ("memory") are bare string literals; an operand is
		// a constraint string applied to an expression, "=r"(x)
		if el, ok := n.(*cc.AsmExpressionList); ok && el.AssignmentExpression != nil && !isStringLit(el.AssignmentExpression) {
			operands = true
		}
		return !operands
	})
	return !operands
}

// byValue reports whether a parameter of type t is a struct or union
// passed by value (the pthread types are not: they are scalars here).
func byValue(t cc.Type) bool { return isRecordC(t) && pthreadKind(t) == "" }

// ---- emission helpers ----

func (l *fnl) ins(op ir.Op, pos ir.Pos) ir.Instr {
	return ir.Instr{Op: op, Pos: pos, Dst: -1, Dst2: -1}
}

// emit appends in to the body. Under Options.Hardware it adds the fences
// of the C11 mapping to that hardware model around atomic stores and
// strengthens release fences (see Options.Hardware).
func (l *fnl) emit(in ir.Instr) {
	var before, after bool
	switch hw := l.tr.opts.Hardware; {
	case hw == "tso" && in.Op == ir.IStore:
		after = in.Order == ir.OrderSC
	case hw == "pso" && in.Op == ir.IStore:
		before, after = in.Order.IsRelease(), in.Order == ir.OrderSC
	case hw == "pso" && in.Op == ir.IFence && in.Order.IsRelease():
		in.Order = ir.OrderSC
	}
	fence := l.ins(ir.IFence, in.Pos)
	fence.Order = ir.OrderSC
	if before {
		l.body = append(l.body, fence)
	}
	l.body = append(l.body, in)
	if after {
		l.body = append(l.body, fence)
	}
}

func (l *fnl) newLabel() int {
	l.labels = append(l.labels, -1)
	return len(l.labels) - 1
}

func (l *fnl) bind(lab int) {
	l.labels[lab] = len(l.body)
	l.targets[len(l.body)] = true
}

func (l *fnl) jump(lab int, pos ir.Pos) {
	in := l.ins(ir.IJump, pos)
	in.Target = lab
	l.emit(in)
}

func (l *fnl) branch(c *ir.Expr, then, els int, pos ir.Pos) {
	if c.Kind == ir.EConst {
		if c.Val != 0 {
			l.jump(then, pos)
		} else {
			l.jump(els, pos)
		}
		return
	}
	in := l.ins(ir.IBranch, pos)
	in.A, in.Target, in.Target2 = c, then, els
	l.emit(in)
}

// temp allocates a hidden temp local.
func (l *fnl) temp(t *ir.Type, pos ir.Pos) int {
	l.ntemp++
	l.f.Locals = append(l.f.Locals, ir.Local{Name: fmt.Sprint(l.ntemp), Type: t, Pos: pos})
	return len(l.f.Locals) - 1
}

func (l *fnl) newLocal(name string, t *ir.Type, pos ir.Pos) int {
	for _, lc := range l.f.Locals {
		if lc.Name == name {
			name = fmt.Sprintf("%s.%d", name, len(l.f.Locals))
			break
		}
	}
	l.f.Locals = append(l.f.Locals, ir.Local{Name: name, Type: t, Pos: pos})
	return len(l.f.Locals) - 1
}

func (l *fnl) local(slot int, pos ir.Pos) *ir.Expr {
	return &ir.Expr{Kind: ir.ELocal, Local: slot, Type: l.f.Locals[slot].Type, Pos: pos}
}

func (l *fnl) isTemp(e *ir.Expr) bool {
	return e != nil && e.Kind == ir.ELocal && e.Local >= l.firstTemp && isTempName(l.f.Locals[e.Local].Name)
}

func isTempName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// assignLocal emits dst = v; when v is the temp the last instruction just
// wrote, that instruction writes dst directly.
func (l *fnl) assignLocal(dst int, v *ir.Expr, pos ir.Pos) {
	if n := len(l.body); l.isTemp(v) && n > 0 && !l.targets[n] && v.Local == len(l.f.Locals)-1 {
		last := &l.body[n-1]
		switch last.Op {
		case ir.ILoad, ir.IRMW, ir.ICall, ir.ITryLock, ir.ISpawn, ir.IJoin, ir.INondet, ir.ISelf, ir.IAlloc, ir.IAssign:
			if last.Dst == v.Local && last.Dst2 != v.Local && l.f.Locals[dst].Type.Equal(l.f.Locals[v.Local].Type) {
				last.Dst = dst
				l.f.Locals = l.f.Locals[:len(l.f.Locals)-1]
				l.ntemp--
				return
			}
		}
	}
	in := l.ins(ir.IAssign, pos)
	in.Dst, in.A = dst, v
	l.emit(in)
}

// terminated reports whether control cannot fall through to the next
// instruction.
func (l *fnl) terminated() bool {
	n := len(l.body)
	if n == 0 || l.targets[n] {
		return false
	}
	switch l.body[n-1].Op {
	case ir.IJump, ir.IReturn, ir.IFail:
		return true
	}
	return false
}

// atomicBegin starts an atomic section. Entering the outermost section is a
// step of its own in the interpreter, so other threads may run between the
// thread's previous step and the section.
func (l *fnl) atomicBegin(pos ir.Pos) {
	l.emit(l.ins(ir.IAtomicBegin, pos))
}

// ---- statements ----

func (l *fnl) compound(cs *cc.CompoundStatement) {
	if cs == nil {
		return
	}
	var items []*cc.BlockItem
	for il := cs.BlockItemList; il != nil; il = il.BlockItemList {
		items = append(items, il.BlockItem)
	}
	top := l.depth == 0 && l.fi == l.tr.main
	saveCur, savePeek, saveTop := l.cur, l.peek, l.topLevel
	l.depth++
	for i, bi := range items {
		l.cur, l.peek, l.topLevel = bi, nil, top
		if i+1 < len(items) {
			l.peek = items[i+1]
		}
		l.blockItem(bi)
		if top && !l.threadsStarted && l.tr.maySpawn(bi) {
			l.threadsStarted = true
		}
	}
	l.depth--
	l.cur, l.peek, l.topLevel = saveCur, savePeek, saveTop
}

// peekAfter returns the block item after the current one when node is
// directly the current block item's declaration or expression statement.
func (l *fnl) peekAfter(node any) *cc.BlockItem {
	bi := l.cur
	if bi == nil || l.peek == nil {
		return nil
	}
	switch bi.Case {
	case cc.BlockItemDecl:
		if bi.Declaration == node {
			return l.peek
		}
	case cc.BlockItemStmt:
		if s := bi.Statement; s != nil && s.Case == cc.StatementExpr && s.ExpressionStatement.ExpressionList != nil {
			if unparen(s.ExpressionStatement.ExpressionList) == node {
				return l.peek
			}
		}
	}
	return nil
}

// maySpawn reports whether executing n may create a thread.
func (tr *translator) maySpawn(n any) bool {
	found := false
	walk(n, func(x any) bool {
		if pe, ok := x.(*cc.PostfixExpression); ok && pe.Case == cc.PostfixExpressionCall {
			name := calleeName(pe)
			if name == "" || (startArg(name) >= 0 && tr.funcs[name] == nil) || tr.mayCreateThreads(name) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (l *fnl) blockItem(bi *cc.BlockItem) {
	if bi == nil {
		return
	}
	switch bi.Case {
	case cc.BlockItemDecl:
		l.declaration(bi.Declaration)
	case cc.BlockItemStmt:
		l.stmt(bi.Statement)
	case cc.BlockItemLabel:
		// __label__ declarations: nothing to do.
	case cc.BlockItemFuncDef:
		l.tr.unsupported(l.tr.pos(bi.Declarator), "nested functions")
	}
}

func (l *fnl) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementLabeled:
		l.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		l.compound(s.CompoundStatement)
	case cc.StatementExpr:
		if e := s.ExpressionStatement.ExpressionList; e != nil {
			l.exprVoid(e)
		}
	case cc.StatementSelection:
		l.selection(s.SelectionStatement)
	case cc.StatementIteration:
		l.iteration(s.IterationStatement)
	case cc.StatementJump:
		l.jumpStmt(s.JumpStatement)
	case cc.StatementAsm:
		if !compilerBarrier(s.AsmStatement) {
			l.tr.unsupported(l.tr.pos(s.AsmStatement), "asm statements (other than the compiler barrier asm(\"\") / asm volatile(\"\" ::: \"memory\"))")
		}
	}
}

func (l *fnl) gotoLabel(name string) int {
	if lab, ok := l.gotoLabels[name]; ok {
		return lab
	}
	lab := l.newLabel()
	l.gotoLabels[name] = lab
	return lab
}

func (l *fnl) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		l.bind(l.gotoLabel(ls.Token.SrcStr()))
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementDefault, cc.LabeledStatementRange:
		lab, ok := l.cases[ls]
		if !ok {
			l.tr.unsupported(l.tr.pos(ls), "case label outside a switch")
		} else {
			l.bind(lab)
		}
	}
	l.stmt(ls.Statement)
}

func (l *fnl) selection(ss *cc.SelectionStatement) {
	pos := l.tr.pos(ss)
	switch ss.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		if l.spinConts[ss] {
			// "if (c) continue;" at the start of a loop body whose iteration
			// would only have read: wait until !c instead.
			l.spin(ss.ExpressionList, pos)
			return
		}
		then, els, end := l.newLabel(), l.newLabel(), l.newLabel()
		l.cond(ss.ExpressionList, then, els)
		l.bind(then)
		l.stmt(ss.Statement)
		if ss.Case == cc.SelectionStatementIfElse {
			if !l.terminated() {
				l.jump(end, pos)
			}
			l.bind(els)
			l.stmt(ss.Statement2)
		} else {
			l.bind(els)
		}
		l.bind(end)
	case cc.SelectionStatementSwitch:
		l.switchStmt(ss)
	}
}

func (l *fnl) switchStmt(ss *cc.SelectionStatement) {
	pos := l.tr.pos(ss)
	ct := cc.IntegerPromotion(ss.ExpressionList.Type())
	v := l.convert(l.expr(ss.ExpressionList), ss.ExpressionList.Type(), ct, pos)
	if v.Kind != ir.ELocal && v.Kind != ir.EConst {
		tmp := l.temp(v.Type, pos)
		l.assignLocal(tmp, v, pos)
		v = l.local(tmp, pos)
	}
	end := l.newLabel()
	def := -1
	for _, ls := range ss.LabeledStatements() {
		lab := l.newLabel()
		l.cases[ls] = lab
		lpos := l.tr.pos(ls)
		switch ls.Case {
		case cc.LabeledStatementDefault:
			def = lab
		case cc.LabeledStatementCaseLabel:
			c, ok := l.tr.constInt(ls.ConstantExpression)
			if !ok {
				l.tr.unsupported(lpos, "case label that is not an integer constant")
				continue
			}
			next := l.newLabel()
			cv := l.convert(cnst(c, l.tr.scalarType(ls.ConstantExpression.Type(), lpos), lpos), ls.ConstantExpression.Type(), ct, lpos)
			l.branch(bin(ir.OpEq, v, cv, ir.Bool, lpos), lab, next, lpos)
			l.bind(next)
		case cc.LabeledStatementRange:
			lo, ok1 := l.tr.constInt(ls.ConstantExpression)
			hi, ok2 := l.tr.constInt(ls.ConstantExpression2)
			if !ok1 || !ok2 {
				l.tr.unsupported(lpos, "case range that is not constant")
				continue
			}
			next := l.newLabel()
			c := bin(ir.OpLAnd, bin(ir.OpGe, v, cnst(lo, v.Type, lpos), ir.Bool, lpos), bin(ir.OpLe, v, cnst(hi, v.Type, lpos), ir.Bool, lpos), ir.Bool, lpos)
			l.branch(c, lab, next, lpos)
			l.bind(next)
		}
	}
	if def >= 0 {
		l.jump(def, pos)
	} else {
		l.jump(end, pos)
	}
	l.breaks = append(l.breaks, end)
	l.stmt(ss.Statement)
	l.breaks = l.breaks[:len(l.breaks)-1]
	l.bind(end)
}

// isEmptyStmt reports whether s does nothing (";" or "{}").
func isEmptyStmt(s *cc.Statement) bool {
	if s == nil {
		return true
	}
	switch s.Case {
	case cc.StatementExpr:
		return s.ExpressionStatement.ExpressionList == nil
	case cc.StatementCompound:
		for il := s.CompoundStatement.BlockItemList; il != nil; il = il.BlockItemList {
			bi := il.BlockItem
			if bi.Case != cc.BlockItemStmt || !isEmptyStmt(bi.Statement) {
				return false
			}
		}
		return true
	}
	return false
}

// readOnly reports whether evaluating e only reads (no calls, assignments,
// increments or statement expressions).
func readOnly(e cc.ExpressionNode) bool { return readOnlyWith(e, nil) }

// readOnlyWith is readOnly, but calls for which pure returns true are
// allowed.
func readOnlyWith(e cc.ExpressionNode, pure func(*cc.PostfixExpression) bool) bool {
	ok := true
	walk(e, func(n any) bool {
		switch x := n.(type) {
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond {
				ok = false
			}
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionCall:
				ok = pure != nil && pure(x)
			case cc.PostfixExpressionInc, cc.PostfixExpressionDec, cc.PostfixExpressionComplit:
				ok = false
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
				ok = false
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionStmt {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// spinPure reports whether evaluating e only reads shared memory and
// changes nothing: readOnly, with calls of functions of the program that
// only read (see pureFunc) allowed.
func (tr *translator) spinPure(e cc.ExpressionNode) bool {
	return readOnlyWith(e, func(pe *cc.PostfixExpression) bool { return tr.pureFunc(calleeName(pe)) })
}

// pureFunc reports whether calling the program's function name only reads
// shared memory: it writes only its own register locals, takes no
// addresses and calls only such functions (no builtins, no error or
// SV-COMP functions).
func (tr *translator) pureFunc(name string) bool {
	if v, ok := tr.pure[name]; ok {
		return v
	}
	fi := tr.funcs[name]
	if fi == nil || fi.atomic || fi.ftype.IsVariadic() || name == "reach_error" || strings.HasPrefix(name, "__VERIFIER_") || fi.facts == nil {
		return false
	}
	tr.pure[name] = false // recursion is not pure
	plain := func(d *cc.Declarator) bool {
		return d != nil && d.Linkage() == cc.None && !d.IsStatic() && !d.IsExtern() && !fi.facts.escaped[d] && isScalarC(d.Type())
	}
	ok := true
	walk(fi.def.CompoundStatement, func(n any) bool {
		switch x := n.(type) {
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond && !plain(identDecl(x.UnaryExpression)) {
				ok = false
			}
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionCall:
				ok = tr.pureFunc(calleeName(x))
			case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
				ok = plain(identDecl(x.PostfixExpression))
			case cc.PostfixExpressionComplit:
				ok = false
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
				ok = plain(identDecl(x.UnaryExpression))
			case cc.UnaryExpressionAddrof:
				ok = false
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionStmt {
				ok = false
			}
		case *cc.Declarator:
			if x.IsStatic() || x.IsThreadLocal() || !x.IsTypename() && x.Type() != nil && !isScalarC(x.Type()) && x.Type().Kind() != cc.Function {
				ok = false
			}
		case *cc.AsmStatement:
			ok = false
		}
		return ok
	})
	tr.pure[name] = ok
	return ok
}

// spinContinue returns the "if (c) continue;" that starts a loop body, or
// nil: an iteration that takes it (after a condition that only reads)
// changes nothing and can be replaced by waiting until !c.
func spinContinue(body *cc.Statement) *cc.SelectionStatement {
	if body == nil || body.Case != cc.StatementCompound {
		return nil
	}
	bl := body.CompoundStatement.BlockItemList
	if bl == nil || bl.BlockItem.Case != cc.BlockItemStmt {
		return nil
	}
	s := bl.BlockItem.Statement
	if s.Case != cc.StatementSelection || s.SelectionStatement.Case != cc.SelectionStatementIf {
		return nil
	}
	then := s.SelectionStatement.Statement
	if then.Case == cc.StatementCompound {
		il := then.CompoundStatement.BlockItemList
		if il == nil || il.BlockItemList != nil || il.BlockItem.Case != cc.BlockItemStmt {
			return nil
		}
		then = il.BlockItem.Statement
	}
	if then.Case != cc.StatementJump || then.JumpStatement.Case != cc.JumpStatementContinue {
		return nil
	}
	return s.SelectionStatement
}

// spin lowers an empty-bodied loop "while (c);" whose condition only reads
// as await(!c): the condition's loads, then a spin-assume.
func (l *fnl) spin(c cc.ExpressionNode, pos ir.Pos) {
	v := l.truth(c)
	in := l.ins(ir.IAssume, pos)
	in.A = un(ir.OpNot, v, ir.Bool, pos)
	in.Assume = ir.AssumeSpin
	l.emit(in)
}

func (l *fnl) iteration(is *cc.IterationStatement) {
	pos := l.tr.pos(is)
	switch is.Case {
	case cc.IterationStatementWhile:
		if isEmptyStmt(is.Statement) && l.tr.spinPure(is.ExpressionList) {
			l.spin(is.ExpressionList, pos)
			return
		}
		l.markSpinContinue(is.Statement, is.ExpressionList)
		head, body, end := l.newLabel(), l.newLabel(), l.newLabel()
		ctr := l.loopCounter(pos)
		l.bind(head)
		l.cond(is.ExpressionList, body, end)
		l.bind(body)
		l.loopHead(ctr, 0, pos)
		l.loopBody(is.Statement, end, head)
		if !l.terminated() {
			l.jump(head, pos)
		}
		l.bind(end)
	case cc.IterationStatementDo:
		if isEmptyStmt(is.Statement) && l.tr.spinPure(is.ExpressionList) {
			l.spin(is.ExpressionList, pos)
			return
		}
		// No spin continue here: a continue goes to the condition, which may
		// end the loop without running the rest of the body.
		body, cont, end := l.newLabel(), l.newLabel(), l.newLabel()
		ctr := l.loopCounter(pos)
		l.bind(body)
		l.loopHead(ctr, 0, pos)
		l.loopBody(is.Statement, end, cont)
		l.bind(cont)
		l.cond(is.ExpressionList, body, end)
		l.bind(end)
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		var cond, post cc.ExpressionNode
		if is.Case == cc.IterationStatementFor {
			if is.ExpressionList != nil {
				l.exprVoid(is.ExpressionList)
			}
			cond, post = is.ExpressionList2, is.ExpressionList3
		} else {
			l.declaration(is.Declaration)
			cond, post = is.ExpressionList, is.ExpressionList2
		}
		if post == nil && isEmptyStmt(is.Statement) && (cond == nil || l.tr.spinPure(cond)) {
			if cond == nil {
				l.emit(l.assumeFalse(pos, ir.AssumeSpin))
			} else {
				l.spin(cond, pos)
			}
			return
		}
		if post == nil {
			l.markSpinContinue(is.Statement, cond)
		}
		bound := l.countedLoop(is, cond, post)
		head, body, cont, end := l.newLabel(), l.newLabel(), l.newLabel(), l.newLabel()
		ctr := l.loopCounter(pos)
		l.bind(head)
		if cond != nil {
			l.cond(cond, body, end)
		}
		l.bind(body)
		l.loopHead(ctr, bound, pos)
		l.loopBody(is.Statement, end, cont)
		l.bind(cont)
		if post != nil {
			l.exprVoid(post)
		}
		l.jump(head, pos)
		l.bind(end)
	}
}

// markSpinContinue records the spin continue of a loop body, if it has one
// and the loop condition (nil: none) only reads.
func (l *fnl) markSpinContinue(body *cc.Statement, cond cc.ExpressionNode) {
	ss := spinContinue(body)
	if ss == nil || cond != nil && !l.tr.spinPure(cond) || !l.tr.spinPure(ss.ExpressionList) {
		return
	}
	l.spinConts[ss] = true
}

func (l *fnl) assumeFalse(pos ir.Pos, k ir.AssumeKind) ir.Instr {
	in := l.ins(ir.IAssume, pos)
	in.A = cnst(0, ir.Bool, pos)
	in.Assume = k
	return in
}

func (l *fnl) loopCounter(pos ir.Pos) int {
	l.nloop++
	slot := l.newLocal(fmt.Sprintf("loop.%d", l.nloop), ir.Int, pos)
	in := l.ins(ir.IAssign, pos)
	in.Dst, in.A = slot, cnst(0, ir.Int, pos)
	l.emit(in)
	return slot
}

func (l *fnl) loopHead(ctr, bound int, pos ir.Pos) {
	in := l.ins(ir.ILoopHead, pos)
	in.Dst, in.Bound = ctr, bound
	l.emit(in)
}

func (l *fnl) loopBody(s *cc.Statement, brk, cont int) {
	l.breaks = append(l.breaks, brk)
	l.conts = append(l.conts, cont)
	l.loopDepth++
	l.stmt(s)
	l.loopDepth--
	l.breaks = l.breaks[:len(l.breaks)-1]
	l.conts = l.conts[:len(l.conts)-1]
}

func (l *fnl) jumpStmt(js *cc.JumpStatement) {
	pos := l.tr.pos(js)
	switch js.Case {
	case cc.JumpStatementGoto:
		l.hasGoto = true
		lab := l.gotoLabel(js.Token2.SrcStr())
		if l.labels[lab] >= 0 {
			// A backward goto closes a loop: bound it like one (the
			// counter counts the jumps of one activation).
			l.nloop++
			ctr := l.newLocal(fmt.Sprintf("loop.%d", l.nloop), ir.Int, pos)
			l.loopHead(ctr, 0, pos)
		}
		l.jump(lab, pos)
	case cc.JumpStatementGotoExpr:
		l.tr.unsupported(pos, "computed goto")
	case cc.JumpStatementContinue:
		if len(l.conts) == 0 {
			l.tr.unsupported(pos, "continue outside a loop")
			return
		}
		l.jump(l.conts[len(l.conts)-1], pos)
	case cc.JumpStatementBreak:
		if len(l.breaks) == 0 {
			l.tr.unsupported(pos, "break outside a loop or switch")
			return
		}
		l.jump(l.breaks[len(l.breaks)-1], pos)
	case cc.JumpStatementReturn:
		var v *ir.Expr
		if js.ExpressionList != nil {
			if l.f.Result.Kind == ir.TVoid {
				l.exprVoid(js.ExpressionList)
			} else {
				v = l.convert(l.expr(js.ExpressionList), js.ExpressionList.Type(), l.fi.ftype.Result(), pos)
			}
		} else if l.f.Result.Kind != ir.TVoid {
			v = cnst(0, l.f.Result, pos)
		}
		l.ret(v, pos)
	}
}

// ret returns v (nil: no value), ending the atomic section of an atomic
// function first.
func (l *fnl) ret(v *ir.Expr, pos ir.Pos) {
	if l.fi.atomic {
		l.emit(l.ins(ir.IAtomicEnd, pos))
	}
	in := l.ins(ir.IReturn, pos)
	in.A = v
	l.emit(in)
}

// countedLoop returns the trip count of "for (i = a; i < b; i++) body"
// when a and b are constants, i is a register local that the body does not
// write, and no label inside the body can be jumped to; else 0 (the global
// bound). The loop then never hits its bound.
func (l *fnl) countedLoop(is *cc.IterationStatement, cond, post cc.ExpressionNode) int {
	if cond == nil || post == nil {
		return 0
	}
	var iv *cc.Declarator
	var lo int64
	if is.Case == cc.IterationStatementFor {
		a, ok := unparen(is.ExpressionList).(*cc.AssignmentExpression)
		if !ok || a.Case != cc.AssignmentExpressionAssign {
			return 0
		}
		iv = identDecl(a.UnaryExpression)
		v, ok := l.tr.constInt(a.AssignmentExpression)
		if !ok {
			return 0
		}
		lo = v
	} else {
		d := is.Declaration
		if d == nil || d.InitDeclaratorList == nil || d.InitDeclaratorList.InitDeclaratorList != nil {
			return 0
		}
		id := d.InitDeclaratorList.InitDeclarator
		if id == nil || id.Initializer == nil || id.Initializer.Case != cc.InitializerExpr {
			return 0
		}
		iv = id.Declarator
		v, ok := l.tr.constInt(id.Initializer.AssignmentExpression)
		if !ok {
			return 0
		}
		lo = v
	}
	if iv == nil || !isInteger(iv.Type()) || iv.Type().Size() < 4 {
		return 0
	}
	lv := l.locals[iv]
	if lv == nil || lv.mem {
		return 0
	}
	// cond: i < hi or i <= hi.
	r, ok := unparen(cond).(*cc.RelationalExpression)
	if !ok || identDecl(r.RelationalExpression) != iv {
		return 0
	}
	hi, ok := l.tr.constIntOrConstGlobal(r.ShiftExpression)
	if !ok {
		return 0
	}
	switch r.Case {
	case cc.RelationalExpressionLt:
	case cc.RelationalExpressionLeq:
		hi++
	default:
		return 0
	}
	// post: i++, ++i, i += 1.
	if !isIncrementOf(post, iv) {
		return 0
	}
	// The body must not write i or contain labels.
	clean := true
	walk(is.Statement, func(n any) bool {
		switch x := n.(type) {
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond && identDecl(x.UnaryExpression) == iv {
				clean = false
			}
		case *cc.PostfixExpression:
			if (x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec) && identDecl(x.PostfixExpression) == iv {
				clean = false
			}
		case *cc.UnaryExpression:
			if (x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec || x.Case == cc.UnaryExpressionAddrof) && identDecl(x.UnaryExpression) == iv {
				clean = false
			}
			if x.Case == cc.UnaryExpressionAddrof && identDecl(x.CastExpression) == iv {
				clean = false
			}
		case *cc.LabeledStatement:
			clean = false
		}
		return clean
	})
	if !clean {
		return 0
	}
	n := hi - lo
	if n < 1 {
		n = 1
	}
	if n > 100000 {
		return 0
	}
	return int(n)
}

func isIncrementOf(e cc.ExpressionNode, d *cc.Declarator) bool {
	switch x := unparen(e).(type) {
	case *cc.PostfixExpression:
		return x.Case == cc.PostfixExpressionInc && identDecl(x.PostfixExpression) == d
	case *cc.UnaryExpression:
		return x.Case == cc.UnaryExpressionInc && identDecl(x.UnaryExpression) == d
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionAdd && identDecl(x.UnaryExpression) == d {
			if v, ok := x.AssignmentExpression.Value().(cc.Int64Value); ok && v == 1 {
				return true
			}
		}
	}
	return false
}
