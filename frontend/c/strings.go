package c

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// String literals and the string functions.
//
// A narrow string literal is a read-only global array of char holding its
// bytes and the terminating NUL (one global per distinct literal, hidden
// from final states: ir.Global.Hidden); its value is the address of the
// first char. An array of char may be initialized from a literal (char
// buf[8] = "abc": the bytes, the NUL, zeros after). strlen, strcmp,
// strncmp, strcpy and strncpy are loops over the cells, one load or store
// per char, with the block's size as their loop bound (an access beyond the
// block is a runtime error, never a wrong value), as the C library's
// sequential code: another thread's writes to the same chars race with
// them. Wide literals (L"...") are unsupported.

// maxStringLoop bounds the loops of the string functions: no block has more
// cells (malloc and arrays are limited to 65536).
const maxStringLoop = 1 << 16

// literalBytes returns the bytes of narrow string literal e with its NUL.
func literalBytes(e cc.ExpressionNode) ([]byte, bool) {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionString {
		return nil, false
	}
	s, ok := p.Value().(cc.StringValue)
	if !ok {
		return nil, false
	}
	b := []byte(string(s))
	if len(b) == 0 || b[len(b)-1] != 0 {
		b = append(b, 0)
	}
	return b, true
}

// charVal is the value of byte c as a char of type t (signed or not).
func charVal(c byte, t *ir.Type) int64 {
	return castVal(int64(c), t)
}

// stringAddr returns the address of the global holding literal x.
func (l *fnl) stringAddr(x *cc.PrimaryExpression, pos ir.Pos) *ir.Expr {
	tr := l.tr
	b, ok := literalBytes(x)
	if !ok {
		tr.unsupported(pos, "wide string literals")
		return cnst(0, &ir.Type{Kind: ir.TPtr}, pos)
	}
	ct := tr.scalarType(tr.ast.Char, pos)
	if tr.strs == nil {
		tr.strs = map[string]int{}
	}
	idx, ok := tr.strs[string(b)]
	if !ok {
		g := &ir.Global{Name: fmt.Sprintf("string.%d", len(tr.strs)), Type: ir.ArrayOf(ct, len(b)), Pos: pos, Hidden: true}
		g.Init = make([]int64, len(b))
		for i, c := range b {
			g.Init[i] = charVal(c, ct)
		}
		idx = len(tr.prog.Globals)
		g.Block = idx + 1
		tr.prog.Globals = append(tr.prog.Globals, g)
		tr.strs[string(b)] = idx
	}
	return &ir.Expr{Kind: ir.EGlobalAddr, Global: idx, Type: &ir.Type{Kind: ir.TPtr}, Pos: pos}
}

// stringCells returns the char values with which literal e initializes an
// array of char of type t (its bytes, its NUL if it fits, zeros after), or
// false if t is not such an array or e not a narrow literal.
func (tr *translator) stringCells(t cc.Type, e cc.ExpressionNode, pos ir.Pos) ([]int64, bool) {
	at, ok := t.(*cc.ArrayType)
	if !ok || !isCharType(at.Elem()) {
		return nil, false
	}
	b, ok := literalBytes(e)
	if !ok {
		return nil, false
	}
	n := int(at.Len())
	if n < len(b)-1 {
		tr.unsupported(pos, "string literal longer than its array")
		return nil, false
	}
	ct := tr.scalarType(at.Elem(), pos)
	vals := make([]int64, n)
	for i := 0; i < n && i < len(b); i++ {
		vals[i] = charVal(b[i], ct)
	}
	return vals, true
}

func isCharType(t cc.Type) bool {
	switch t.Kind() {
	case cc.Char, cc.SChar, cc.UChar:
		return true
	}
	return false
}

// stringCall lowers strlen, strcmp, strncmp, strcpy and strncpy.
func (l *fnl) stringCall(name string, args []cc.ExpressionNode, pe *cc.PostfixExpression, pos ir.Pos) *ir.Expr {
	rt := l.tr.scalarType(pe.Type(), pos)
	want := map[string]int{"strlen": 1, "strcmp": 2, "strcpy": 2, "strncmp": 3, "strncpy": 3}[name]
	if len(args) != want {
		l.tr.unsupported(pos, "%s called with %d arguments (expected %d)", name, len(args), want)
		return cnst(0, rt, pos)
	}
	for _, a := range args[:min(2, len(args))] {
		if pt := a.Type(); pt == nil || !isPointer(pt) || !isCharType(pt.(*cc.PointerType).Elem()) {
			l.tr.unsupported(pos, "%s on %s (only char strings are modelled)", name, pt)
			return cnst(0, rt, pos)
		}
	}
	ptr := &ir.Type{Kind: ir.TPtr}
	hold := func(e *ir.Expr) int {
		s := l.temp(ptr, pos)
		in := l.ins(ir.IAssign, pos)
		in.Dst, in.A = s, e
		l.emit(in)
		return s
	}
	s := hold(l.expr(args[0]))
	var t int
	if want >= 2 {
		t = hold(l.expr(args[1]))
	}
	limit := -1
	if want == 3 {
		limit = l.temp(ir.Int, pos)
		in := l.ins(ir.IAssign, pos)
		in.Dst, in.A = limit, retype(l.convert(l.expr(args[2]), args[2].Type(), l.tr.ast.LongLong, pos), ir.Int)
		l.emit(in)
	}
	ct := l.tr.scalarType(l.tr.ast.Char, pos)
	i := l.temp(ir.Int, pos)
	set := func(dst int, v *ir.Expr) {
		in := l.ins(ir.IAssign, pos)
		in.Dst, in.A = dst, v
		l.emit(in)
	}
	at := func(p, i int) *ir.Expr {
		return bin(ir.OpAdd, l.local(p, pos), l.local(i, pos), ptr, pos)
	}
	load := func(p int) *ir.Expr {
		d := l.temp(ct, pos)
		in := l.ins(ir.ILoad, pos)
		in.Dst, in.Addr = d, at(p, i)
		l.emit(in)
		return l.local(d, pos)
	}
	res := l.temp(rt, pos)
	ended := l.temp(ir.Bool, pos)
	set(ended, cnst(0, ir.Bool, pos))
	set(i, cnst(0, ir.Int, pos))
	set(res, cnst(0, rt, pos))
	head, done := l.newLabel(), l.newLabel()
	ctr := l.loopCounter(pos)
	l.bind(head)
	if limit >= 0 {
		// strncmp, strncpy: at most n chars
		body := l.newLabel()
		l.branch(bin(ir.OpLt, l.local(i, pos), l.local(limit, pos), ir.Bool, pos), body, done, pos)
		l.bind(body)
	}
	l.loopHead(ctr, maxStringLoop, pos)
	switch name {
	case "strlen":
		c := load(s)
		next := l.newLabel()
		l.branch(bin(ir.OpEq, c, cnst(0, ct, pos), ir.Bool, pos), done, next, pos)
		l.bind(next)
		set(i, bin(ir.OpAdd, l.local(i, pos), cnst(1, ir.Int, pos), ir.Int, pos))
		set(res, retype(l.local(i, pos), rt))
	case "strcmp", "strncmp":
		a := load(s)
		b := load(t)
		// compared as unsigned char, as the C library does
		ua := retype(bin(ir.OpAnd, a, cnst(0xff, ir.Int, pos), ir.Int, pos), ir.Int)
		ub := retype(bin(ir.OpAnd, b, cnst(0xff, ir.Int, pos), ir.Int, pos), ir.Int)
		set(res, retype(bin(ir.OpSub, ua, ub, ir.Int, pos), rt))
		diff, same := l.newLabel(), l.newLabel()
		l.branch(bin(ir.OpNe, l.local(res, pos), cnst(0, rt, pos), ir.Bool, pos), done, diff, pos)
		l.bind(diff)
		l.branch(bin(ir.OpEq, a, cnst(0, ct, pos), ir.Bool, pos), done, same, pos)
		l.bind(same)
		set(i, bin(ir.OpAdd, l.local(i, pos), cnst(1, ir.Int, pos), ir.Int, pos))
	case "strcpy", "strncpy":
		// strncpy pads with NULs up to n once the source has ended: it
		// reads no char of the source after its NUL
		c := l.temp(ct, pos)
		set(c, cnst(0, ct, pos))
		rd, wr := l.newLabel(), l.newLabel()
		if name == "strncpy" {
			l.branch(l.local(ended, pos), wr, rd, pos)
		} else {
			l.jump(rd, pos)
		}
		l.bind(rd)
		set(c, load(t))
		l.bind(wr)
		st := l.ins(ir.IStore, pos)
		st.Addr, st.A = at(s, i), l.local(c, pos)
		l.emit(st)
		next := l.newLabel()
		isNul := bin(ir.OpEq, l.local(c, pos), cnst(0, ct, pos), ir.Bool, pos)
		if name == "strcpy" {
			l.branch(isNul, done, next, pos)
		} else {
			set(ended, isNul)
		}
		l.bind(next)
		set(i, bin(ir.OpAdd, l.local(i, pos), cnst(1, ir.Int, pos), ir.Int, pos))
	}
	l.jump(head, pos)
	l.bind(done)
	if strings.HasSuffix(name, "cpy") {
		return l.local(s, pos) // the destination
	}
	return l.local(res, pos)
}
