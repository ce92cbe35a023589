package litmus

import (
	"fmt"

	"strings"

	"ncmc/ir"
)

// x86 programs are a table: a header row "P0 | P1 | … ;" and one row per
// instruction index, cells separated by '|', rows by ';'.

type x86Cell struct {
	toks []token
	off  int
}

func (p *parser) x86Program(start, end int) {
	toks := p.lex(start, end, ocamlComments)
	// split into rows and cells; "LOCK;" is a prefix, not a row end
	var rows [][]x86Cell
	var row []x86Cell
	cell := x86Cell{off: start}
	flushCell := func(off int) {
		row = append(row, cell)
		cell = x86Cell{off: off}
	}
	for i, t := range toks {
		if t.kind == tEOF {
			break
		}
		switch {
		case t.text == "|" && t.kind == tPunct:
			flushCell(t.off + 1)
		case t.text == ";" && t.kind == tPunct && !(len(cell.toks) > 0 && strings.EqualFold(cell.toks[len(cell.toks)-1].text, "lock") && i+1 < len(toks) && toks[i+1].kind == tIdent):
			flushCell(t.off + 1)
			rows = append(rows, row)
			row = nil
		default:
			if len(cell.toks) == 0 {
				cell.off = t.off
			}
			cell.toks = append(cell.toks, t)
		}
	}
	if len(cell.toks) > 0 || len(row) > 0 {
		flushCell(end)
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		p.fail(start, "missing program: expected a row of thread names such as \"P0 | P1 ;\"")
	}
	// header row
	for i, c := range rows[0] {
		if len(c.toks) != 1 || c.toks[0].kind != tIdent || c.toks[0].text != fmt.Sprintf("P%d", i) {
			p.fail(c.off, "expected the thread name P%d in the first row of the program", i)
		}
		if i >= maxThreads {
			p.fail(c.off, "too many threads (at most %d)", maxThreads)
		}
		b := p.newFn(i)
		b.f.Pos = p.pos(c.toks[0].off)
		p.fns = append(p.fns, b)
	}
	n := len(p.fns)
	p.t.Threads = n
	xs := make([]*x86fn, n)
	for i, b := range p.fns {
		xs[i] = &x86fn{fnb: b, labels: map[string]int{}, bound: map[string]bool{}}
	}
	for _, r := range rows[1:] {
		if len(r) > n {
			p.errAt(r[n].off, "this row has %d cells but the program has %d thread(s)", len(r), n)
			continue
		}
		for i, c := range r {
			if len(c.toks) == 0 {
				continue
			}
			x := xs[i]
			p.guard(func() { x.cell(c) })
		}
	}
	for _, x := range xs {
		x.endOff = end
		for name, id := range x.labels {
			if x.fnb.labels[id] < 0 {
				p.errAt(x.labelUse[name], "label %s is not defined in P%d", name, x.thread)
			}
		}
	}
}

type x86fn struct {
	*fnb
	labels   map[string]int // label name -> label id
	bound    map[string]bool
	labelUse map[string]int
	zf       int // local slot of the zero flag, -1 until used
	hasZF    bool
	loops    int
}

// operand of an x86 instruction
type x86Op struct {
	kind byte // 'm' memory, 'r' register, 'i' immediate
	name string
	val  int64
	off  int
}

func (x *x86fn) label(name string, off int) int {
	if id, ok := x.labels[name]; ok {
		return id
	}
	id := x.newLabel()
	x.labels[name] = id
	if x.labelUse == nil {
		x.labelUse = map[string]int{}
	}
	x.labelUse[name] = off
	return id
}

func (x *x86fn) zfSlot(pos ir.Pos) int {
	if !x.hasZF {
		x.zf = x.temp(pos)
		x.f.Locals[x.zf].Name = "ZF"
		x.hasZF = true
	}
	return x.zf
}

func (x *x86fn) cell(c x86Cell) {
	p := x.p
	p.setToks(append(append([]token(nil), c.toks...), token{kind: tEOF, off: c.off}))
	// label
	if p.peek().kind == tIdent && p.peekN(1).text == ":" {
		name := p.advance()
		p.advance()
		id := x.label(name.text, name.off)
		if x.bound[name.text] {
			p.fail(name.off, "label %s is defined twice", name.text)
		}
		x.bound[name.text] = true
		x.bind(id)
		if p.peek().kind == tEOF {
			return
		}
	}
	att := p.t.Arch == "X86_64"
	mn := p.ident("an instruction")
	pos := p.pos(mn.off)
	op := strings.ToLower(mn.text)
	locked := false
	if op == "lock" {
		locked = true
		p.accept(";")
		mn = p.ident("an instruction after LOCK")
		op = strings.ToLower(mn.text)
	}
	// size suffixes: movl, movq, MOVB, addl …
	for _, base := range []string{"cmpxchg", "xchg", "xadd", "mov", "add", "sub", "xor", "and", "inc", "dec", "cmp", "or"} {
		if strings.HasPrefix(op, base) {
			rest := op[len(base):]
			if rest == "" || len(rest) == 1 && strings.Contains("bwlqt", rest) {
				op = base
			}
			break
		}
	}
	var ops []x86Op
	if p.peek().kind != tEOF {
		for {
			ops = append(ops, x.operand(att))
			if !p.accept(",") {
				break
			}
		}
	}
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.off, "unexpected %s after the operands of %s", describe(t), mn.text)
	}
	if att && len(ops) == 2 {
		ops[0], ops[1] = ops[1], ops[0] // AT&T: source first; normalise to destination first
	}
	need := func(n int) {
		if len(ops) != n {
			p.fail(mn.off, "%s takes %d operand(s), found %d", mn.text, n, len(ops))
		}
	}
	if locked && op != "add" && op != "sub" && op != "xor" && op != "and" && op != "or" && op != "inc" && op != "dec" && op != "xadd" && op != "cmpxchg" && op != "xchg" {
		p.fail(mn.off, "LOCK cannot prefix %s", mn.text)
	}
	switch op {
	case "mfence":
		need(0)
		x.fence(ir.OrderSC, pos)
	case "lfence", "sfence":
		need(0) // no event: they order nothing x86-TSO does not already order
	case "mov":
		need(2)
		dst, src := ops[0], ops[1]
		switch {
		case dst.kind == 'm' && src.kind == 'm':
			p.fail(mn.off, "MOV cannot move from memory to memory")
		case dst.kind == 'm':
			x.store(x.globalAddr(dst.name, pos), x.value(src, pos), ir.OrderRel, pos)
		case dst.kind == 'r':
			var v *ir.Expr
			if src.kind == 'm' {
				v = x.load(x.globalAddr(src.name, pos), ir.OrderAcq, pos)
			} else {
				v = x.value(src, pos)
			}
			x.assign(x.reg(dst.name, pos), v, pos)
		default:
			p.fail(dst.off, "MOV needs a register or memory destination")
		}
	case "xchg":
		need(2)
		a, b := ops[0], ops[1]
		if a.kind == 'm' {
			a, b = b, a
		}
		switch {
		case a.kind == 'r' && b.kind == 'm':
			old := x.rmw(ir.RMWXchg, x.globalAddr(b.name, pos), x.value(a, pos), ir.OrderSC, pos)
			x.assign(x.reg(a.name, pos), old, pos)
		case a.kind == 'r' && b.kind == 'r':
			t := x.temp(pos)
			x.assign(t, x.value(a, pos), pos)
			x.assign(x.reg(a.name, pos), x.value(b, pos), pos)
			x.assign(x.reg(b.name, pos), localExpr(t, pos), pos)
		default:
			p.fail(mn.off, "XCHG needs a register and a register or memory operand")
		}
	case "add", "sub", "xor", "and", "or", "inc", "dec":
		var dst, src x86Op
		if op == "inc" || op == "dec" {
			need(1)
			dst, src = ops[0], x86Op{kind: 'i', val: 1}
		} else {
			need(2)
			dst, src = ops[0], ops[1]
		}
		kind, bop := ir.RMWAdd, ir.OpAdd
		switch op {
		case "sub", "dec":
			kind, bop = ir.RMWSub, ir.OpSub
		case "xor":
			kind, bop = ir.RMWXor, ir.OpXor
		case "and":
			kind, bop = ir.RMWAnd, ir.OpAnd
		case "or":
			kind, bop = ir.RMWOr, ir.OpOr
		}
		switch {
		case src.kind == 'm':
			p.fail(src.off, "%s with a memory source operand is not supported", mn.text)
		case dst.kind == 'm' && locked:
			old := x.rmw(kind, x.globalAddr(dst.name, pos), x.value(src, pos), ir.OrderSC, pos)
			x.assign(x.zfSlot(pos), binExpr(ir.OpEq, binExpr(bop, old, x.value(src, pos), pos), constExpr(0, pos), pos), pos)
		case dst.kind == 'm':
			// not locked: a read and a separate write
			addr := x.globalAddr(dst.name, pos)
			old := x.load(addr, ir.OrderAcq, pos)
			nv := x.temp(pos)
			x.assign(nv, binExpr(bop, old, x.value(src, pos), pos), pos)
			x.store(addr, localExpr(nv, pos), ir.OrderRel, pos)
			x.assign(x.zfSlot(pos), binExpr(ir.OpEq, localExpr(nv, pos), constExpr(0, pos), pos), pos)
		case dst.kind == 'r':
			if locked {
				p.fail(mn.off, "LOCK needs a memory destination")
			}
			r := x.reg(dst.name, pos)
			x.assign(r, binExpr(bop, localExpr(r, pos), x.value(src, pos), pos), pos)
			x.assign(x.zfSlot(pos), binExpr(ir.OpEq, localExpr(r, pos), constExpr(0, pos), pos), pos)
		default:
			p.fail(dst.off, "%s needs a register or memory destination", mn.text)
		}
	case "xadd":
		need(2)
		dst, src := ops[0], ops[1]
		if dst.kind != 'm' || src.kind != 'r' || !locked {
			p.fail(mn.off, "only LOCK XADD with a memory destination and a register source is supported")
		}
		old := x.rmw(ir.RMWAdd, x.globalAddr(dst.name, pos), x.value(src, pos), ir.OrderSC, pos)
		x.assign(x.reg(src.name, pos), old, pos)
	case "cmpxchg":
		need(2)
		dst, src := ops[0], ops[1]
		if dst.kind != 'm' || src.kind != 'r' || !locked {
			p.fail(mn.off, "only LOCK CMPXCHG with a memory destination and a register source is supported")
		}
		acc := "EAX"
		if att {
			acc = "rax"
		}
		a := x.reg(acc, pos)
		old, ok := x.cas(x.globalAddr(dst.name, pos), localExpr(a, pos), x.value(src, pos), ir.OrderSC, ir.OrderSC, pos)
		x.assign(a, old, pos) // on success old == EAX, so this is the x86 semantics
		x.assign(x.zfSlot(pos), ok, pos)
	case "cmp":
		need(2)
		a, b := ops[0], ops[1]
		if a.kind == 'm' || b.kind == 'm' {
			p.fail(mn.off, "CMP with a memory operand is not supported")
		}
		x.assign(x.zfSlot(pos), binExpr(ir.OpEq, x.value(a, pos), x.value(b, pos), pos), pos)
	case "jmp", "je", "jne", "jz", "jnz":
		need(1)
		if ops[0].kind != 'l' {
			p.fail(ops[0].off, "%s needs a label", mn.text)
		}
		name := ops[0].name
		id := x.label(name, ops[0].off)
		if x.bound[name] {
			// a backward jump: a loop, unrolled twice as herd does
			x.loops++
			cnt := x.temp(pos)
			x.f.Locals[cnt].Name = fmt.Sprintf("loop%d", x.loops)
			// the counter starts at 0 (locals are zero-initialised)
			x.assign(cnt, binExpr(ir.OpAdd, localExpr(cnt, pos), constExpr(1, pos), pos), pos)
			in := x.ins(ir.IAssume, pos)
			in.A = binExpr(ir.OpLe, localExpr(cnt, pos), constExpr(2, pos), pos)
			x.emit(in)
		}
		switch op {
		case "jmp":
			x.jump(id, pos)
		default:
			next := x.newLabel()
			zf := localExpr(x.zfSlot(pos), pos)
			if op == "je" || op == "jz" {
				x.branch(zf, id, next, pos)
			} else {
				x.branch(zf, next, id, pos)
			}
			x.bind(next)
		}
	default:
		p.fail(mn.off, "unsupported instruction %s (supported: MOV, MFENCE, LFENCE, SFENCE, XCHG, ADD, SUB, XOR, AND, OR, INC, DEC, LOCK XADD, LOCK CMPXCHG, CMP, JMP, JE, JNE)", mn.text)
	}
}

// operand parses one operand: [x] / (x) memory, EAX / %eax register,
// $1 / 1 immediate, or a label name (for jumps).
func (x *x86fn) operand(att bool) x86Op {
	p := x.p
	t := p.peek()
	switch {
	case t.text == "[" || t.text == "(" && att:
		closer := "]"
		if t.text == "(" {
			closer = ")"
		}
		p.advance()
		n := p.peek()
		if n.text == "%" || n.kind == tIdent && x.isReg(n.text, att) || n.kind == tInt {
			p.fail(n.off, "indirect and absolute memory operands are not supported: write the location name, e.g. %s", map[bool]string{true: "(x)", false: "[x]"}[att])
		}
		name := p.ident("a location name")
		p.expect(closer, "after the location name")
		if reserved[name.text] || reThread.MatchString(name.text) {
			p.fail(name.off, "%q cannot be the name of a location", name.text)
		}
		p.location(name.text)
		return x86Op{kind: 'm', name: name.text, off: t.off}
	case t.text == "$":
		p.advance()
		if n := p.peek(); n.kind == tIdent {
			p.fail(n.off, "addresses as immediates are not supported")
		}
		return x86Op{kind: 'i', val: p.signedInt(), off: t.off}
	case t.kind == tInt || t.text == "-":
		return x86Op{kind: 'i', val: p.signedInt(), off: t.off}
	case t.text == "%" && att:
		p.advance()
		r := p.ident("a register name after '%'")
		return x86Op{kind: 'r', name: p.regName(r.text), off: t.off}
	case t.kind == tIdent:
		p.advance()
		if x.isReg(t.text, att) {
			return x86Op{kind: 'r', name: p.regName(t.text), off: t.off}
		}
		return x86Op{kind: 'l', name: t.text, off: t.off} // a label (checked by the jump)
	}
	p.fail(t.off, "expected an operand, found %s", describe(t))
	return x86Op{}
}

func (x *x86fn) isReg(s string, att bool) bool {
	if att {
		return false // AT&T registers are written %name
	}
	return intelRegs[strings.ToUpper(s)]
}

// value is the pure value of a register or immediate operand.
func (x *x86fn) value(o x86Op, pos ir.Pos) *ir.Expr {
	switch o.kind {
	case 'i':
		return constExpr(o.val, pos)
	case 'r':
		return localExpr(x.reg(o.name, pos), pos)
	}
	x.p.fail(o.off, "expected a register or an immediate value here")
	return nil
}
