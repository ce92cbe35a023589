package c

import (
	"fmt"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Unions.
//
// Memory is a sequence of cells, one per scalar, so the members of a union
// all start at cell 0 and overlap cell by cell. A union is supported when
// its members agree on every cell they share: the cells at the same offset
// are integers of the same width (their signedness may differ), pointers,
// or the same synchronization type. Reading a member other than the one
// last written then means what it means in C on a little-endian machine
// with those layouts: the bits of the cell reinterpreted in the reader's
// type (a loaded integer is narrowed to the reader's type, so writing -1
// through an int member and reading the unsigned member gives UINT_MAX),
// and a member with fewer cells reads a prefix of a larger one. Members
// whose shared cells differ in width or kind (an int and a char[4], a long
// long and a struct of two ints, an int and a pointer) would need
// byte-level reinterpretation and make the union unsupported, with the
// position of the union and the two members named.
//
// The IR type of a union is a record with one field, of the type of its
// largest member (the first of the largest ones), so its cells are
// initialized (mutexes, threads) as that member's would be.

// unionRecord returns the IR record of a C union, reporting at pos a union
// whose members cannot share cells.
func (tr *translator) unionRecord(ut *cc.UnionType, pos ir.Pos) *ir.Record {
	key := unionKey(ut)
	if ri, ok := tr.records[key]; ok {
		return ri.rec
	}
	if ut.IsIncomplete() {
		tr.unsupported(pos, "incomplete union type %s", ut)
		return nil
	}
	tag := ut.Tag()
	name := tag.SrcStr()
	if name == "" {
		name = typedefName(ut)
	}
	if name == "" {
		tr.anonStructs++
		name = fmt.Sprintf("%d", tr.anonStructs)
	}
	r := &ir.Record{Name: "union." + name, Pos: tr.pos(tag)}
	ri := &recInfo{rec: r, offsets: map[any]int{}}
	tr.records[key] = ri
	tr.prog.Records = append(tr.prog.Records, r)
	type member struct {
		name  string
		t     *ir.Type
		cells []*ir.Type
	}
	var members []member
	var largest *member
	for i := 0; i < ut.NumFields(); i++ {
		f := ut.FieldByIndex(i)
		ft, fname, fpos, ok := tr.member(f, i, pos)
		if !ok {
			continue
		}
		ri.offsets[fieldKey(f)] = 0
		// Members of an anonymous struct or union member are reachable
		// by name.
		if f.Name() == "" {
			if sub := tr.records[recordKey(f.Type())]; sub != nil {
				for k, o := range sub.offsets {
					ri.offsets[k] = o
				}
			}
		}
		m := member{name: fname, t: ft, cells: flatCells(ft, nil)}
		for _, o := range members {
			for c := 0; c < len(o.cells) && c < len(m.cells); c++ {
				mixed, ok := cellsAgree(o.cells[c], m.cells[c])
				if !ok {
					tr.unsupported(fpos, "union %s: members %s and %s overlap at cell %d with different layouts (%s, %s): byte-level reinterpretation is not modelled", name, o.name, fname, c, o.cells[c], m.cells[c])
					break
				}
				if mixed {
					tr.punCast = true
				}
			}
		}
		members = append(members, m)
		if largest == nil || len(m.cells) > len(largest.cells) {
			largest = &members[len(members)-1]
		}
	}
	if largest == nil {
		tr.unsupported(pos, "empty union %s", ut)
		return r
	}
	r.Fields = []*ir.Field{{Name: largest.name, Type: largest.t, Offset: 0, Pos: r.Pos}}
	r.Size = largest.t.Size()
	return r
}

// unionKey identifies a union type across the copies cc makes of it.
func unionKey(ut *cc.UnionType) any {
	if ut.NumFields() > 0 {
		if f := ut.FieldByIndex(0); f != nil {
			return fieldKey(f)
		}
	}
	tag := ut.Tag()
	return fmt.Sprintf("empty union:%s:%v", tag.SrcStr(), tag.Position())
}

// recordKey is the key of tr.records for a struct or union type, or nil.
func recordKey(t cc.Type) any {
	switch x := t.(type) {
	case *cc.StructType:
		return structKey(x)
	case *cc.UnionType:
		return unionKey(x)
	}
	return nil
}

// isRecordC reports whether t is a struct or union type.
func isRecordC(t cc.Type) bool {
	return t != nil && (t.Kind() == cc.Struct || t.Kind() == cc.Union)
}

// flatCells appends the IR type of every cell of t to cells.
func flatCells(t *ir.Type, cells []*ir.Type) []*ir.Type {
	switch t.Kind {
	case ir.TVoid:
	case ir.TArray:
		for i := 0; i < t.Len; i++ {
			cells = flatCells(t.Elem, cells)
		}
	case ir.TRecord:
		for _, f := range t.Record.Fields {
			cells = flatCells(f.Type, cells)
		}
	default:
		cells = append(cells, t)
	}
	return cells
}

// cellsAgree reports whether two members of a union may share a cell of
// types a and b, and whether the cell is an integer of different
// signedness in the two (loads must then be narrowed to the reader's type).
func cellsAgree(a, b *ir.Type) (mixed, ok bool) {
	if a == b {
		return false, true
	}
	switch {
	case a.Kind == ir.TInt && b.Kind == ir.TInt:
		// Width 0 is ir.Int, the cell of a synchronization object
		// (semaphore, rwlock, barrier): only equal to itself.
		if a.Width == 0 || a.Width != b.Width {
			return false, false
		}
		return a.Signed != b.Signed, true
	case a.Kind == ir.TPtr && b.Kind == ir.TPtr:
		return false, true
	case a.Kind == b.Kind && a.Kind != ir.TInt && a.Kind != ir.TPtr:
		return false, true
	}
	return false, false
}

// scanUnions lays out, before any function is lowered, every union whose
// members the translated functions access, so that punCast is known when
// the first load is lowered.
func (tr *translator) scanUnions() {
	for _, fi := range tr.funcList {
		walk(fi.def, func(n any) bool {
			pe, ok := n.(*cc.PostfixExpression)
			if !ok || pe.PostfixExpression == nil {
				return true
			}
			bt := pe.PostfixExpression.Type()
			switch pe.Case {
			case cc.PostfixExpressionSelect:
			case cc.PostfixExpressionPSelect:
				if pt, ok := bt.(*cc.PointerType); ok {
					bt = pt.Elem()
				}
			default:
				return true
			}
			if ut, ok := bt.(*cc.UnionType); ok && pthreadKind(ut) == "" {
				tr.unionRecord(ut, tr.pos(pe))
			}
			return true
		})
	}
}
