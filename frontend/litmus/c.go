package litmus

import (
	"strconv"
	"strings"

	"ncmc/ir"
)

// cfn parses and lowers one C thread.
type cfn struct {
	*fnb
	params map[string]bool
}

var memOrders = map[string]ir.Order{
	"memory_order_relaxed": ir.OrderRlx,
	"memory_order_consume": ir.OrderRlx, // rc11.cat gives consume no special meaning
	"memory_order_acquire": ir.OrderAcq,
	"memory_order_release": ir.OrderRel,
	"memory_order_acq_rel": ir.OrderAcqRel,
	"memory_order_seq_cst": ir.OrderSC,
}

// maxInstrs bounds the instructions of one thread: each while loop's body
// is parsed three times (two iterations and the exit test), so nested
// loops multiply.
const maxInstrs = 100_000

var fetchOps = map[string]ir.RMWKind{"add": ir.RMWAdd, "sub": ir.RMWSub, "and": ir.RMWAnd, "or": ir.RMWOr, "xor": ir.RMWXor}

func (p *parser) cProgram(start, end int) {
	p.setToks(p.lex(start, end, cComments))
	for p.peek().kind != tEOF {
		k := p.k
		p.guard(func() { p.cThread() })
		if p.k == k { // no progress: skip a token
			p.advance()
		}
	}
	p.t.Threads = len(p.fns)
}

func (p *parser) cThread() {
	start := p.k
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			// recover: skip to the next thread header
			if p.k == start {
				p.advance()
			}
			for p.peek().kind != tEOF {
				t := p.peek()
				if t.kind == tIdent && (t.text == "void" && reThread.MatchString(p.peekN(1).text) || reThread.MatchString(t.text) && p.peekN(1).text == "(") {
					break
				}
				p.advance()
			}
		}
	}()
	p.accept("void")
	tok := p.peek()
	if tok.kind != tIdent || !reThread.MatchString(tok.text) {
		p.fail(tok.off, "expected a thread function P%d, found %s", len(p.fns), describe(tok))
	}
	p.advance()
	n, err := strconv.Atoi(tok.text[1:])
	if err != nil || n != len(p.fns) {
		p.fail(tok.off, "threads must be P0, P1, … in order: expected P%d, found %s", len(p.fns), tok.text)
	}
	if n >= maxThreads {
		p.fail(tok.off, "too many threads (at most %d)", maxThreads)
	}
	c := &cfn{fnb: p.newFn(n), params: map[string]bool{}}
	c.f.Pos = p.pos(tok.off)
	p.fns = append(p.fns, c.fnb) // registered early so that later threads keep their numbers
	p.expect("(", "after the thread name")
	if !p.is(")") {
		if p.is("void") && p.peekN(1).text == ")" {
			p.advance()
		} else {
			for {
				c.param()
				if !p.accept(",") {
					break
				}
			}
		}
	}
	p.expect(")", "to close the parameter list")
	p.expect("{", "to start the body of "+tok.text)
	for !p.is("}") {
		if p.peek().kind == tEOF {
			p.fail(p.peek().off, "the body of %s is not closed: missing '}'", tok.text)
		}
		c.stmt()
	}
	c.endOff = p.advance().off
}

func (c *cfn) param() {
	p := c.p
	typed := false
	for {
		t := p.peek()
		if t.kind == tIdent && t.text == "struct" {
			p.advance()
			p.ident("a struct name")
			typed = true
			continue
		}
		if t.kind == tIdent && isTypeWord(t.text) {
			p.advance()
			typed = true
			continue
		}
		break
	}
	if !typed {
		p.fail(p.peek().off, "expected a parameter type such as atomic_int*, found %s", describe(p.peek()))
	}
	for p.accept("*") {
	}
	name := p.ident("a parameter name")
	if reserved[name.text] || isTypeWord(name.text) || reThread.MatchString(name.text) {
		p.fail(name.off, "%q cannot be the name of a location", name.text)
	}
	c.params[name.text] = true
	p.location(name.text)
}

func (c *cfn) isType() bool {
	t := c.p.peek()
	return t.kind == tIdent && (isTypeWord(t.text) || t.text == "struct")
}

func (c *cfn) skipType() {
	p := c.p
	for c.isType() {
		if p.advance().text == "struct" {
			p.ident("a struct name")
		}
	}
	for p.accept("*") {
	}
}

func (c *cfn) stmt() {
	p := c.p
	tok := p.peek()
	p.enter(tok.off)
	defer p.leave()
	if len(c.body) > maxInstrs {
		p.fail(tok.off, "the thread has more than %d instructions (while loops are unrolled twice)", maxInstrs)
	}
	pos := p.pos(tok.off)
	switch {
	case p.accept(";"):
	case p.is("{"):
		p.advance()
		for !p.is("}") {
			if p.peek().kind == tEOF {
				p.fail(tok.off, "block '{' is not closed")
			}
			c.stmt()
		}
		p.advance()
	case p.is("if"):
		p.advance()
		p.expect("(", "after 'if'")
		cond := c.expr()
		p.expect(")", "to close the condition of 'if'")
		then, els, end := c.newLabel(), c.newLabel(), c.newLabel()
		c.branch(cond, then, els, pos)
		c.bind(then)
		c.stmt()
		if p.accept("else") {
			c.jump(end, pos)
			c.bind(els)
			c.stmt()
		} else {
			c.bind(els)
		}
		c.bind(end)
	case p.is("while"):
		p.advance()
		c.while(pos)
	case tok.kind == tIdent && (tok.text == "for" || tok.text == "do" || tok.text == "return" || tok.text == "break" ||
		tok.text == "continue" || tok.text == "switch" || tok.text == "goto"):
		p.fail(tok.off, "'%s' is not supported in herd's C litmus dialect", tok.text)
	case c.isType():
		c.skipType()
		for {
			name := p.ident("a variable name")
			c.checkRegName(name)
			slot := c.reg(name.text, p.pos(name.off))
			if p.accept("=") {
				c.assign(slot, c.expr(), p.pos(name.off))
			}
			if !p.accept(",") {
				break
			}
			for p.accept("*") {
			}
		}
		p.expect(";", "after the declaration")
	case p.is("*") && p.peekN(1).kind == tIdent && p.peekN(2).text == "=":
		p.advance()
		name := p.advance()
		p.advance()
		addr := c.locName(name)
		if c.params[name.text] {
			c.useAtomic(name.text, name.off)
		}
		v := c.expr()
		c.store(addr, v, ir.OrderNA, pos)
		p.expect(";", "after the store")
	case tok.kind == tIdent && p.peekN(1).text == "=":
		p.advance()
		p.advance()
		if c.params[tok.text] {
			p.fail(tok.off, "%s is a shared location: write *%s = … (plain) or atomic_store_explicit(%s, …, …)", tok.text, tok.text, tok.text)
		}
		c.checkRegName(tok)
		slot := c.reg(tok.text, pos)
		c.assign(slot, c.expr(), pos)
		p.expect(";", "after the assignment")
	case tok.kind == tIdent && p.peekN(1).text == "(" && !strings.HasPrefix(tok.text, "atomic_load") && !strings.HasPrefix(tok.text, "atomic_exchange") && !strings.HasPrefix(tok.text, "atomic_fetch") && !strings.HasPrefix(tok.text, "atomic_compare"):
		p.advance()
		c.call(tok, false)
		p.expect(";", "after the call")
	default:
		c.expr()
		p.expect(";", "after the expression")
	}
}

func (c *cfn) checkRegName(name token) {
	if c.params[name.text] {
		c.p.fail(name.off, "%s is a parameter (a shared location) of this thread; choose another register name", name.text)
	}
	if reserved[name.text] || isTypeWord(name.text) || reThread.MatchString(name.text) || memOrders[name.text] != 0 || strings.HasPrefix(name.text, "atomic_") {
		c.p.fail(name.off, "%q cannot be a variable name", name.text)
	}
}

// while unrolls the loop twice, as herd7 does by default; executions that
// would run a third iteration are discarded.
func (c *cfn) while(pos ir.Pos) {
	p := c.p
	kc := p.k
	end := c.newLabel()
	kend := kc
	for it := 0; it < 2; it++ {
		p.k = kc
		p.expect("(", "after 'while'")
		cond := c.expr()
		p.expect(")", "to close the condition of 'while'")
		body := c.newLabel()
		c.branch(cond, body, end, pos)
		c.bind(body)
		c.stmt()
		kend = p.k
	}
	p.k = kc
	p.expect("(", "after 'while'")
	cond := c.expr()
	p.expect(")", "to close the condition of 'while'")
	in := c.ins(ir.IAssume, pos)
	in.A = &ir.Expr{Kind: ir.EUnary, Op: ir.OpNot, A: cond, Type: ir.Int, Pos: pos}
	in.Assume = ir.AssumeUser
	c.emit(in)
	c.bind(end)
	p.k = kend
}

// ---- expressions (lowered as they are parsed, left to right) ----

var binLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"},
	{"==", "!=", "<", ">", "<=", ">="},
	{"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

var binOps = map[string]ir.Operator{"|": ir.OpOr, "^": ir.OpXor, "&": ir.OpAnd, "==": ir.OpEq, "!=": ir.OpNe,
	"<": ir.OpLt, ">": ir.OpGt, "<=": ir.OpLe, ">=": ir.OpGe, "<<": ir.OpShl, ">>": ir.OpShr,
	"+": ir.OpAdd, "-": ir.OpSub, "*": ir.OpMul, "/": ir.OpDiv, "%": ir.OpMod}

func (c *cfn) expr() *ir.Expr { return c.binary(0) }

func (c *cfn) binary(level int) *ir.Expr {
	if level == len(binLevels) {
		return c.unary()
	}
	p := c.p
	a := c.binary(level + 1)
	for {
		tok := p.peek()
		if tok.kind != tPunct || !contains(binLevels[level], tok.text) {
			return a
		}
		p.advance()
		pos := p.pos(tok.off)
		switch tok.text {
		case "&&", "||":
			// short circuit: the right operand's accesses happen only when needed
			r := c.temp(pos)
			c.assign(r, binExpr(ir.OpNe, a, constExpr(0, pos), pos), pos)
			right, end := c.newLabel(), c.newLabel()
			if tok.text == "&&" {
				c.branch(localExpr(r, pos), right, end, pos)
			} else {
				c.branch(localExpr(r, pos), end, right, pos)
			}
			c.bind(right)
			b := c.binary(level + 1)
			c.assign(r, binExpr(ir.OpNe, b, constExpr(0, pos), pos), pos)
			c.bind(end)
			a = localExpr(r, pos)
		default:
			b := c.binary(level + 1)
			if tok.text == "/" || tok.text == "%" || tok.text == "<<" || tok.text == ">>" {
				// may fail at run time: compute now so errors keep source order
				r := c.temp(pos)
				c.assign(r, binExpr(binOps[tok.text], a, b, pos), pos)
				a = localExpr(r, pos)
			} else {
				a = binExpr(binOps[tok.text], a, b, pos)
			}
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (c *cfn) unary() *ir.Expr {
	p := c.p
	tok := p.peek()
	p.enter(tok.off)
	defer p.leave()
	pos := p.pos(tok.off)
	switch {
	case p.is("-"):
		p.advance()
		if t := p.peek(); t.kind == tInt {
			p.advance()
			return constExpr(-t.val, pos)
		}
		return &ir.Expr{Kind: ir.EUnary, Op: ir.OpNeg, A: c.unary(), Type: ir.Int, Pos: pos}
	case p.is("!"):
		p.advance()
		return &ir.Expr{Kind: ir.EUnary, Op: ir.OpNot, A: c.unary(), Type: ir.Int, Pos: pos}
	case p.is("~"):
		p.advance()
		return &ir.Expr{Kind: ir.EUnary, Op: ir.OpBitNot, A: c.unary(), Type: ir.Int, Pos: pos}
	case p.is("*"):
		p.advance()
		name := p.ident("a location after '*'")
		addr := c.locName(name)
		if c.params[name.text] {
			c.useAtomic(name.text, name.off)
		}
		return c.load(addr, ir.OrderNA, pos)
	case p.is("&"):
		p.advance()
		name := p.ident("a location after '&'")
		return c.locName(name)
	case p.is("("):
		p.advance()
		if c.isType() {
			c.skipType()
			p.expect(")", "to close the cast")
			return c.unary() // casts only fix sizes: ignored
		}
		e := c.expr()
		p.expect(")", "to close the parenthesis")
		return e
	case tok.kind == tInt:
		p.advance()
		return constExpr(tok.val, pos)
	case tok.kind == tIdent:
		p.advance()
		if p.is("(") {
			e := c.call(tok, true)
			return e
		}
		if c.params[tok.text] {
			return c.globalAddr(tok.text, pos) // a location's name is its address
		}
		if s, ok := c.regs[tok.text]; ok {
			return localExpr(s, pos)
		}
		if reserved[tok.text] || isTypeWord(tok.text) {
			p.fail(tok.off, "unexpected '%s' in an expression", tok.text)
		}
		if _, ok := p.locIdx[tok.text]; ok {
			p.fail(tok.off, "%s is not a parameter of P%d: add it to the parameter list, e.g. atomic_int* %s", tok.text, c.thread, tok.text)
		}
		p.fail(tok.off, "undeclared variable %s", tok.text)
	}
	p.fail(tok.off, "expected an expression, found %s", describe(tok))
	return nil
}

// locName is the address of the location a name denotes: a parameter of the
// thread, or a register holding a pointer.
func (c *cfn) locName(name token) *ir.Expr {
	p := c.p
	pos := p.pos(name.off)
	if c.params[name.text] {
		return c.globalAddr(name.text, pos)
	}
	if s, ok := c.regs[name.text]; ok {
		return localExpr(s, pos)
	}
	if _, ok := p.locIdx[name.text]; ok {
		p.fail(name.off, "%s is not a parameter of P%d: add it to the parameter list, e.g. atomic_int* %s", name.text, c.thread, name.text)
	}
	p.fail(name.off, "unknown location %s (locations are the thread's parameters)", name.text)
	return nil
}

// locArg parses a location argument: NAME or &NAME.
func (c *cfn) locArg() (*ir.Expr, string) {
	p := c.p
	p.accept("&")
	name := p.ident("a location")
	e := c.locName(name)
	if c.params[name.text] {
		return e, name.text
	}
	return e, ""
}

func (c *cfn) order() ir.Order {
	p := c.p
	tok := p.peek()
	if o, ok := memOrders[tok.text]; ok && tok.kind == tIdent {
		p.advance()
		return o
	}
	p.fail(tok.off, "expected a memory order (memory_order_relaxed, _acquire, _release, _acq_rel, _seq_cst), found %s", describe(tok))
	return 0
}

// call lowers an atomic operation or a lock call; value says whether its
// result is used.
func (c *cfn) call(name token, value bool) *ir.Expr {
	p := c.p
	pos := p.pos(name.off)
	f := name.text
	p.expect("(", "after "+f)
	comma := func() { p.expect(",", "between the arguments of "+f) }
	close := func() { p.expect(")", "to close the arguments of "+f) }
	explicit := strings.HasSuffix(f, "_explicit")
	base := strings.TrimSuffix(f, "_explicit")
	noValue := func() *ir.Expr {
		if value {
			p.fail(name.off, "%s has no value", f)
		}
		return nil
	}
	switch {
	case base == "atomic_load":
		addr, loc := c.locArg()
		o := ir.OrderSC
		if explicit {
			comma()
			o = c.order()
		}
		close()
		c.useAtomic(loc, name.off)
		return c.load(addr, o, pos)
	case base == "atomic_store":
		addr, loc := c.locArg()
		comma()
		v := c.expr()
		o := ir.OrderSC
		if explicit {
			comma()
			o = c.order()
		}
		close()
		c.useAtomic(loc, name.off)
		c.store(addr, v, o, pos)
		return noValue()
	case base == "atomic_exchange" || strings.HasPrefix(base, "atomic_fetch_"):
		kind := ir.RMWXchg
		if base != "atomic_exchange" {
			k, ok := fetchOps[strings.TrimPrefix(base, "atomic_fetch_")]
			if !ok {
				p.fail(name.off, "unknown operation %s (fetch operations: add, sub, and, or, xor)", f)
			}
			kind = k
		}
		addr, loc := c.locArg()
		comma()
		v := c.expr()
		o := ir.OrderSC
		if explicit {
			comma()
			o = c.order()
		}
		close()
		c.useAtomic(loc, name.off)
		return c.rmw(kind, addr, v, o, pos)
	case base == "atomic_compare_exchange_strong" || base == "atomic_compare_exchange_weak":
		addr, loc := c.locArg()
		comma()
		expAddr, expLoc := c.locArg()
		comma()
		des := c.expr()
		os, of := ir.OrderSC, ir.OrderSC
		if explicit {
			comma()
			os = c.order()
			comma()
			of = c.order()
		}
		close()
		c.useAtomic(loc, name.off)
		c.useAtomic(expLoc, name.off)
		// herd: read *exp non-atomically; on failure write the value read back
		exp := c.load(expAddr, ir.OrderNA, pos)
		old, ok := c.cas(addr, exp, des, os, of, pos)
		fail, end := c.newLabel(), c.newLabel()
		c.branch(ok, end, fail, pos)
		c.bind(fail)
		c.store(expAddr, old, ir.OrderNA, pos)
		c.bind(end)
		return ok
	case f == "atomic_thread_fence":
		o := c.order()
		close()
		c.fence(o, pos) // a relaxed fence is an event without effect, as in herd
		return noValue()
	case f == "lock" || f == "mtx_lock" || f == "spin_lock" || f == "unlock" || f == "mtx_unlock" || f == "spin_unlock":
		addr, loc := c.locArg()
		close()
		if loc == "" {
			p.fail(name.off, "%s needs a mutex location that is a parameter of the thread", f)
		}
		c.useMutex(loc, name.off)
		op := ir.ILock
		if strings.Contains(f, "unlock") {
			op = ir.IUnlock
		}
		in := c.ins(op, pos)
		in.Addr = addr
		c.emit(in)
		return noValue()
	}
	p.fail(name.off, "unknown function %s (herd's C dialect has atomic_load_explicit, atomic_store_explicit, atomic_exchange_explicit, atomic_fetch_<op>_explicit, atomic_compare_exchange_strong_explicit, atomic_thread_fence, lock, unlock and their non-_explicit forms)", f)
	return nil
}

func (c *cfn) useAtomic(loc string, off int) {
	if loc == "" {
		return
	}
	p := c.p
	if p.mutexes[loc] {
		p.fail(off, "%s is used as a mutex (lock/unlock) and as a memory location", loc)
	}
	if p.atomics == nil {
		p.atomics = map[string]int{}
	}
	p.atomics[loc] = off
}

func (c *cfn) useMutex(loc string, off int) {
	p := c.p
	if _, ok := p.atomics[loc]; ok {
		p.fail(off, "%s is used as a mutex (lock/unlock) and as a memory location", loc)
	}
	if p.mutexes == nil {
		p.mutexes = map[string]bool{}
	}
	p.mutexes[loc] = true
}
