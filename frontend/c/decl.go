package c

import (
	"modernc.org/cc/v4"

	"ncmc/ir"
)

// declaration lowers a block-scope declaration.
func (l *fnl) declaration(decl *cc.Declaration) {
	if decl == nil {
		return
	}
	if decl.Case == cc.DeclarationAssert {
		return // checked by cc
	}
	var ids []*cc.InitDeclarator
	switch decl.Case {
	case cc.DeclarationDecl:
		for il := decl.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
			ids = append(ids, il.InitDeclarator)
		}
	case cc.DeclarationAuto:
		// __auto_type x = e;
		ids = append(ids, &cc.InitDeclarator{Declarator: decl.Declarator, Initializer: decl.Initializer})
	default:
		l.tr.unsupported(l.tr.pos(decl), "declaration form")
		return
	}
	for _, id := range ids {
		if id == nil || id.Declarator == nil {
			continue
		}
		d := id.Declarator
		pos := l.tr.pos(d)
		t := d.Type()
		if d.IsTypename() || t == nil || t.Kind() == cc.Function {
			continue
		}
		if d.IsExtern() {
			continue // refers to a global, resolved by name
		}
		if d.IsStatic() || d.IsThreadLocal() {
			// Created when first used (cc declares __func__ in every function).
			l.tr.staticDecls[d] = staticDecl{l.fi, id.Initializer}
			continue
		}
		if at, ok := t.(*cc.ArrayType); ok && at.IsIncomplete() && id.Initializer != nil {
			if it := id.Initializer.Type(); it != nil && it.Kind() == cc.Array {
				t = it
			}
		}
		inMem := l.ff.escaped[d] || l.fi.uninitMem[d]
		lv := &localVar{t: t, boolOnly: !l.ff.nonTruthUse[d] && !inMem}
		lv.atomic = l.tr.isAtomicDecl(d)
		if inMem || !isScalarC(t) || pthreadKind(t) != "" && pthreadKind(t) != "pthread_t" {
			l.locals[d] = lv
			l.makeMem(d, lv, pos)
			if id.Initializer != nil {
				l.initMem(lv, id.Initializer, pos)
			} else {
				l.uninitAlloc(lv)
			}
			continue
		}
		lv.slot = l.newLocal(d.Name(), l.tr.scalarType(t, pos), pos)
		l.locals[d] = lv
		if id.Initializer == nil {
			l.checked[lv.slot] = true
			continue
		}
		if id.Initializer.Case != cc.InitializerExpr {
			// int x = { 5 };
			il := id.Initializer.InitializerList
			if il == nil || il.Initializer == nil || il.Initializer.Case != cc.InitializerExpr || il.InitializerList != nil {
				l.tr.unsupported(pos, "initializer of scalar %s", d.Name())
				continue
			}
			id.Initializer = il.Initializer
		}
		e := id.Initializer.AssignmentExpression
		v := l.nondetInit(e, lv, t, d, decl)
		if v == nil {
			v = l.convert(l.expr(e), e.Type(), t, pos)
		}
		l.assignLocal(lv.slot, v, pos)
	}
}

// makeMem gives the local d a memory block, allocated once per activation
// of the function (at its entry, like a stack frame: every execution of the
// declaration, e.g. in a loop, uses the same object) and dead when the
// function returns (ir.AllocStack).
func (l *fnl) makeMem(d *cc.Declarator, lv *localVar, pos ir.Pos) {
	lv.mem = true
	t := l.tr.irType(lv.t, pos)
	rec := &ir.Record{Name: d.Name(), Fields: []*ir.Field{{Name: d.Name(), Type: t, Pos: pos}}, Size: t.Size(), Pos: pos}
	lv.rec = rec
	lv.slot = l.newLocal("&"+d.Name(), ir.PtrTo(rec), pos)
	in := l.ins(ir.IAlloc, pos)
	in.Dst, in.Record, in.Alloc = lv.slot, rec, ir.AllocStack
	lv.hoist = len(l.entry)
	l.entry = append(l.entry, in)
}

// initMem initializes the memory local lv: constant initial values go into
// its allocation when the declaration runs at most once per activation;
// otherwise every cell is stored at the declaration.
func (l *fnl) initMem(lv *localVar, init *cc.Initializer, pos ir.Pos) {
	size := lv.rec.Size
	base := l.memAddr(lv, pos)
	if l.loopDepth == 0 && !l.fnHasGoto() {
		if vals, ok := l.tr.constCells(lv.t, init, size, pos, true); ok {
			args := make([]*ir.Expr, size)
			nonzero := false
			for i, v := range vals {
				args[i] = cnst(v, ir.Int, pos)
				nonzero = nonzero || v != 0
			}
			if nonzero {
				l.entry[lv.hoist].Args = args
			}
			return
		}
	}
	cells := make([]*ir.Expr, size)
	types := make([]cc.Type, size)
	l.initCells(lv.t, init, 0, cells, types, pos)
	for i := 0; i < size; i++ {
		v := cells[i]
		if v == nil {
			v = cnst(0, ir.Int, pos)
		}
		in := l.ins(ir.IStore, pos)
		in.Addr = fieldAddr(base, i, pos)
		in.A = v
		l.emit(in)
	}
}

// fnHasGoto reports whether the function contains a goto (a declaration
// could then run more than once per activation).
func (l *fnl) fnHasGoto() bool {
	has := false
	walk(l.fi.def.CompoundStatement, func(n any) bool {
		if j, ok := n.(*cc.JumpStatement); ok && (j.Case == cc.JumpStatementGoto || j.Case == cc.JumpStatementGotoExpr) {
			has = true
		}
		return !has
	})
	return has
}

// memAddr is the address of a memory local's object.
func (l *fnl) memAddr(lv *localVar, pos ir.Pos) *ir.Expr {
	return l.local(lv.slot, pos)
}

func fieldAddr(base *ir.Expr, off int, pos ir.Pos) *ir.Expr {
	if off == 0 && base.Kind != ir.EConst && base.Kind != ir.EGlobalAddr {
		return &ir.Expr{Kind: ir.EField, A: base, Offset: 0, Type: base.Type, Pos: pos}
	}
	return &ir.Expr{Kind: ir.EField, A: base, Offset: off, Type: base.Type, Pos: pos}
}

// ---- initializers ----

// initItem is one element of an initializer list.
type initItem struct {
	desig *cc.Designation
	init  *cc.Initializer
}

func listItems(il *cc.InitializerList) []initItem {
	var items []initItem
	for ; il != nil; il = il.InitializerList {
		items = append(items, initItem{il.Designation, il.Initializer})
	}
	return items
}

// initWalk visits the scalar initializations of an object of type t at cell
// offset base: leaf(off, expr, type) for each initialized scalar cell.
// Missing elements are left alone (the caller zero-fills). It follows C's
// rules for nested braces, brace elision and single-level designators.
func (tr *translator) initWalk(t cc.Type, init *cc.Initializer, base int, pos ir.Pos, leaf func(off int, e cc.ExpressionNode, t cc.Type)) {
	if init.Case == cc.InitializerExpr {
		e := init.AssignmentExpression
		if isScalarC(t) || pthreadKind(t) == "pthread_t" {
			leaf(base, e, t)
			return
		}
		if isRecordC(t) && isRecordC(e.Type()) {
			leaf(base, e, t) // struct copy
			return
		}
		if t.Kind() == cc.Array && isStringLit(e) {
			leaf(base, e, t) // char a[] = "...": the leaf expands it (stringCells)
			return
		}
		tr.unsupported(tr.pos(e), "initializer of %s", t)
		return
	}
	items := listItems(init.InitializerList)
	i := 0
	tr.initAgg(t, items, &i, base, true, pos, leaf)
	if i < len(items) {
		tr.unsupported(tr.pos(items[i].init), "excess elements in initializer")
	}
}

// subobject returns the type and cell offset of the k-th element or field
// of aggregate t, and the number of them.
func (tr *translator) subobject(t cc.Type, k int, pos ir.Pos) (cc.Type, int, int) {
	switch x := t.(type) {
	case *cc.ArrayType:
		n := int(x.Len())
		return x.Elem(), k * tr.cells(x.Elem(), pos), n
	case *cc.StructType:
		n := x.NumFields()
		if k >= n {
			return nil, 0, n
		}
		f := x.FieldByIndex(k)
		return f.Type(), tr.fieldOffset(x, f, pos), n
	case *cc.UnionType:
		n := x.NumFields()
		if k >= n {
			return nil, 0, n
		}
		return x.FieldByIndex(k).Type(), 0, n
	}
	return nil, 0, 0
}

func (tr *translator) initAgg(t cc.Type, items []initItem, i *int, base int, braced bool, pos ir.Pos, leaf func(int, cc.ExpressionNode, cc.Type)) {
	if pk := pthreadKind(t); pk == "pthread_mutex_t" || pk == "pthread_cond_t" || pk == "pthread_attr_t" || pk == "pthread_mutexattr_t" || pk == "pthread_condattr_t" || pk == "pthread_rwlock_t" {
		// PTHREAD_MUTEX_INITIALIZER and friends: the zero state.
		if braced {
			*i = len(items)
		} else {
			*i++
		}
		return
	}
	if t.Kind() != cc.Array && !isRecordC(t) {
		// Braces around a scalar: { 5 }.
		if *i < len(items) {
			it := items[*i]
			*i++
			if it.init.Case == cc.InitializerExpr {
				leaf(base, it.init.AssignmentExpression, t)
			} else {
				tr.initAgg(t, listItems(it.init.InitializerList), new(int), base, true, pos, leaf)
			}
		}
		return
	}
	_, _, n := tr.subobject(t, 0, pos)
	k := 0
	for *i < len(items) {
		it := items[*i]
		if it.desig != nil {
			if !braced {
				return
			}
			dl := it.desig.DesignatorList
			if dl == nil || dl.DesignatorList != nil {
				tr.unsupported(tr.pos(it.desig), "nested designators")
				*i++
				continue
			}
			dg := dl.Designator
			switch dg.Case {
			case cc.DesignatorIndex:
				v, ok := tr.constInt(dg.ConstantExpression)
				if !ok || v < 0 || int(v) >= n {
					tr.unsupported(tr.pos(dg), "array designator")
					*i++
					continue
				}
				k = int(v)
			case cc.DesignatorField, cc.DesignatorField2:
				name := dg.Token2.SrcStr()
				if dg.Case == cc.DesignatorField2 {
					name = dg.Token.SrcStr()
				}
				found := false
				if st, ok := t.(interface {
					NumFields() int
					FieldByIndex(int) *cc.Field
				}); ok && isRecordC(t) {
					for j := 0; j < st.NumFields(); j++ {
						if st.FieldByIndex(j).Name() == name {
							k, found = j, true
						}
					}
				}
				if !found {
					tr.unsupported(tr.pos(dg), "designator .%s", name)
					*i++
					continue
				}
			default:
				// [lo ... hi] = v (GNU): v, a constant, initializes
				// each element of the range.
				lo, ok1 := tr.constInt(dg.ConstantExpression)
				hi, ok2 := tr.constInt(dg.ConstantExpression2)
				et, _, _ := tr.subobject(t, 0, pos)
				konst := false
				if it.init.Case == cc.InitializerExpr && et != nil && isScalarC(et) {
					_, konst = tr.constInt(it.init.AssignmentExpression)
				}
				if !ok1 || !ok2 || lo < 0 || hi < lo || int(hi) >= n || t.Kind() != cc.Array || !konst {
					tr.unsupported(tr.pos(dg), "range designator (only [lo ... hi] = constant on an array of scalars)")
					*i++
					continue
				}
				for j := lo; j <= hi; j++ {
					_, so, _ := tr.subobject(t, int(j), pos)
					leaf(base+so, it.init.AssignmentExpression, et)
				}
				*i++
				k = int(hi) + 1
				continue
			}
		}
		if k >= n {
			if braced {
				tr.unsupported(tr.pos(it.init), "excess elements in initializer")
				*i = len(items)
			}
			return
		}
		st, so, _ := tr.subobject(t, k, pos)
		switch {
		case it.init.Case == cc.InitializerInitList:
			*i++
			sub := listItems(it.init.InitializerList)
			j := 0
			tr.initAgg(st, sub, &j, base+so, true, pos, leaf)
			if j < len(sub) {
				tr.unsupported(tr.pos(sub[j].init), "excess elements in initializer")
			}
		case isScalarC(st) || pthreadKind(st) == "pthread_t":
			*i++
			leaf(base+so, it.init.AssignmentExpression, st)
		case isRecordC(st) && isRecordC(it.init.AssignmentExpression.Type()):
			*i++
			leaf(base+so, it.init.AssignmentExpression, st)
		case st.Kind() == cc.Array && isStringLit(it.init.AssignmentExpression):
			*i++
			leaf(base+so, it.init.AssignmentExpression, st) // the leaf sees an array of char (stringCells)
		default:
			// Brace elision: the element's scalars come from the
			// following items.
			tr.initAgg(st, items, i, base+so, false, pos, leaf)
		}
		k++
		if t.Kind() == cc.Union {
			k = n // one member of a union is initialized (a designator may name another)
		}
	}
}

func isStringLit(e cc.ExpressionNode) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	return ok && (p.Case == cc.PrimaryExpressionString || p.Case == cc.PrimaryExpressionLString)
}

// initCells evaluates the initializer of an object of type t at run time:
// cells[off] receives the value of each initialized scalar cell.
func (l *fnl) initCells(t cc.Type, init *cc.Initializer, base int, cells []*ir.Expr, types []cc.Type, pos ir.Pos) {
	l.tr.initWalk(t, init, base, pos, func(off int, e cc.ExpressionNode, et cc.Type) {
		if et.Kind() == cc.Array {
			vals, ok := l.tr.stringCells(et, e, l.tr.pos(e))
			if !ok {
				l.tr.unsupported(l.tr.pos(e), "initializer of %s", et)
				return
			}
			elem := et.(*cc.ArrayType).Elem()
			ct := l.tr.scalarType(elem, pos)
			for i, v := range vals {
				if off+i < len(cells) {
					cells[off+i], types[off+i] = cnst(v, ct, pos), elem
				}
			}
			return
		}
		if isRecordC(et) {
			// Struct copy: load every cell of the source.
			src := l.lvalue(e)
			n := l.tr.cells(et, pos)
			if src.atomic && !src.isReg() {
				// Reading a whole _Atomic struct: one atomic operation
				// (atomicstruct.go).
				var vals []*ir.Expr
				l.whole(src.addr, l.tr.pos(e), func() { vals = l.readCells(src.addr, n, ir.OrderSC, pos) })
				for i := 0; i < len(vals) && off+i < len(cells); i++ {
					cells[off+i] = vals[i]
				}
				return
			}
			for i := 0; i < n && off+i < len(cells); i++ {
				cells[off+i] = l.loadCell(src, i, pos)
			}
			return
		}
		if off < len(cells) {
			cells[off] = l.convert(l.expr(e), e.Type(), et, l.tr.pos(e))
			types[off] = et
		}
	})
}

// constCells evaluates a constant initializer of an object of type t with
// size cells. With quiet, a non-constant element makes it return false
// instead of reporting it.
func (tr *translator) constCells(t cc.Type, init *cc.Initializer, size int, pos ir.Pos, quiet bool) ([]int64, bool) {
	vals := make([]int64, size)
	ok := true
	tr.initWalk(t, init, 0, pos, func(off int, e cc.ExpressionNode, et cc.Type) {
		if !ok {
			return
		}
		if et.Kind() == cc.Array {
			sv, good := tr.stringCells(et, e, tr.pos(e))
			if !good {
				ok = false
				if !quiet {
					tr.unsupported(tr.pos(e), "initializer of %s", et)
				}
				return
			}
			for i, v := range sv {
				if off+i < size {
					vals[off+i] = v
				}
			}
			return
		}
		if isRecordC(et) {
			// A struct copied from an object: not a constant (initCells
			// copies it at run time).
			ok = false
			if !quiet {
				tr.unsupported(tr.pos(e), "initializer that is not a constant")
			}
			return
		}
		v, good := tr.constValue(e, et)
		if !good {
			ok = false
			if !quiet {
				tr.unsupported(tr.pos(e), "initializer that is not a constant")
			}
			return
		}
		if off < size {
			vals[off] = v
		}
	})
	return vals, ok
}

// initGlobal computes the initial cells of a global.
func (tr *translator) initGlobal(gv *gvar) {
	if gv.tlsSlot > 0 {
		if gv.init != nil {
			if vals, ok := tr.constCells(gv.ctype, gv.init, 1, tr.pos(gv.decl), false); ok {
				tr.prog.TLS[gv.tlsSlot-1].Init = vals[0]
			}
		}
		return
	}
	g := gv.g
	size := g.Type.Size()
	g.Init = make([]int64, size)
	if gv.init == nil {
		return
	}
	pos := tr.pos(gv.decl)
	if gv.tls != nil {
		if vals, ok := tr.constCells(gv.ctype, gv.init, gv.tls.Size, pos, false); ok {
			gv.tlsInit = vals
		}
		return
	}
	if vals, ok := tr.constCells(gv.ctype, gv.init, size, pos, false); ok {
		g.Init = vals
		if size == 1 && gv.decl.IsConst() && !gv.decl.IsVolatile() && isInteger(gv.ctype) && !gv.atomic {
			v := vals[0]
			gv.konst = &v
		}
	}
}
