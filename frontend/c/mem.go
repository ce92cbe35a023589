package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// memset and memcpy on whole elements.
//
// Memory is cells, not bytes, so these are translated when the byte count
// covers whole elements of the type the destination (and, for memcpy, the
// source) points to: memset(a, 0, sizeof a), memset(p, 0, n * sizeof *p),
// memcpy(d, s, sizeof(struct S)). The element type comes from the
// argument's static type (an array or a pointer to a non-void type);
// memset writes 0 to every cell (a nonzero byte only into char elements),
// memcpy loads every source cell and then stores them (so memmove, whose
// ranges may overlap, is the same). Other sizes, void pointers, objects
// holding mutexes or condition variables and more than maxMemCells cells
// are unsupported. Each cell access is an ordinary (non-atomic) load or
// store; an access beyond the object is a runtime error (out of bounds).

// maxMemCells bounds the cells one memset or memcpy may touch.
const maxMemCells = 4096

// memElem returns the element type an argument of memset/memcpy points to.
func (l *fnl) memElem(e cc.ExpressionNode) cc.Type {
	t := e.Type()
	if t == nil {
		return nil
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		return x.Elem()
	case *cc.PointerType:
		if l.designatesArray(e) {
			if at, ok := t.Undecay().(*cc.ArrayType); ok {
				return at.Elem()
			}
		}
		return x.Elem()
	}
	return nil
}

// memCells returns the number of cells n bytes of elements of type t span,
// or ok false (reported at pos) if they do not span whole elements.
func (l *fnl) memCells(name string, t cc.Type, n cc.ExpressionNode, pos ir.Pos) (int, bool) {
	if t == nil || t.Kind() == cc.Void || t.Kind() == cc.Function || t.Size() <= 0 {
		l.tr.unsupported(pos, "%s through a pointer to %v (the element type must be known)", name, t)
		return 0, false
	}
	bytes, ok := l.tr.constInt(n)
	if !ok || bytes < 0 || bytes%t.Size() != 0 {
		l.tr.unsupported(pos, "%s of a byte count that is not a constant number of whole %v elements", name, t)
		return 0, false
	}
	it := l.tr.irType(t, pos)
	if hasSync(it) || it.Kind == ir.TMutex || it.Kind == ir.TCond {
		l.tr.unsupported(pos, "%s on objects holding mutexes or condition variables", name)
		return 0, false
	}
	cells := int(bytes/t.Size()) * it.Size()
	if cells > maxMemCells {
		l.tr.unsupported(pos, "%s of %d cells (at most %d)", name, cells, maxMemCells)
		return 0, false
	}
	return cells, true
}

// memPtr evaluates a pointer argument into a local (it is used per cell).
func (l *fnl) memPtr(e cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	p := l.expr(e)
	if p.Kind == ir.ELocal || p.Kind == ir.EConst || p.Kind == ir.EGlobalAddr {
		return p
	}
	tmp := l.temp(p.Type, pos)
	l.assignLocal(tmp, p, pos)
	return l.local(tmp, pos)
}

// memset lowers memset(p, c, n) (see above); it returns p.
func (l *fnl) memset(args []cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	elem := l.memElem(args[0])
	cells, ok := l.memCells("memset", elem, args[2], pos)
	if !ok {
		return cnst(0, &ir.Type{Kind: ir.TPtr}, pos)
	}
	c, isConst := l.tr.constInt(args[1])
	byteElem := isInteger(elem) && elem.Size() == 1
	if !isConst || c&0xff != 0 && !byteElem {
		l.tr.unsupported(pos, "memset with a byte other than a constant 0 on elements wider than a char")
		return cnst(0, &ir.Type{Kind: ir.TPtr}, pos)
	}
	p := l.memPtr(args[0], pos)
	v := cnst(0, ir.Int, pos)
	if byteElem {
		v = l.narrow(cnst(c&0xff, ir.Int, pos), elem, pos)
	}
	for i := 0; i < cells; i++ {
		in := l.ins(ir.IStore, pos)
		in.Addr, in.A = fieldAddr(p, i, pos), v
		l.emit(in)
	}
	return p
}

// memcpy lowers memcpy(d, s, n) and memmove (see above); it returns d.
func (l *fnl) memcpy(name string, args []cc.ExpressionNode, pos ir.Pos) *ir.Expr {
	de, se := l.memElem(args[0]), l.memElem(args[1])
	if se != nil && se.Kind() != cc.Void && de != nil && de.Kind() == cc.Void {
		de = se
	}
	if de != nil && de.Kind() != cc.Void && (se == nil || se.Kind() == cc.Void) {
		se = de
	}
	cells, ok := l.memCells(name, de, args[2], pos)
	if !ok {
		return cnst(0, &ir.Type{Kind: ir.TPtr}, pos)
	}
	if se == nil || se.Size() != de.Size() || l.tr.irType(se, pos).Size() != l.tr.irType(de, pos).Size() {
		l.tr.unsupported(pos, "%s between different element types (%v and %v)", name, de, se)
		return cnst(0, &ir.Type{Kind: ir.TPtr}, pos)
	}
	d := l.memPtr(args[0], pos)
	s := l.memPtr(args[1], pos)
	vals := make([]*ir.Expr, cells)
	for i := range vals {
		tmp := l.temp(ir.Int, pos)
		in := l.ins(ir.ILoad, pos)
		in.Dst, in.Addr = tmp, fieldAddr(s, i, pos)
		l.emit(in)
		vals[i] = l.local(tmp, pos)
	}
	for i, v := range vals {
		in := l.ins(ir.IStore, pos)
		in.Addr, in.A = fieldAddr(d, i, pos), v
		l.emit(in)
	}
	return d
}
