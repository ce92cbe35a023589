package c

import (
	"fmt"

	"modernc.org/cc/v4"

	"ncmc/ir"
)

// Type mapping. Every C scalar is one memory cell; the IR type of an integer
// records its width and signedness (ir.Type.Width/Signed), which ECast uses
// to wrap values around.

// typedefName returns the name of the typedef t was declared with, or "".
func typedefName(t cc.Type) string {
	if t == nil {
		return ""
	}
	if d := t.Typedef(); d != nil {
		return d.Name()
	}
	return ""
}

// pthreadKind classifies the pthread library types by their typedef names.
func pthreadKind(t cc.Type) string {
	switch n := typedefName(t); n {
	case "pthread_t", "pthread_mutex_t", "pthread_cond_t",
		"pthread_attr_t", "pthread_mutexattr_t", "pthread_condattr_t",
		"pthread_barrier_t", "pthread_barrierattr_t", "pthread_rwlock_t", "pthread_rwlockattr_t":
		return n
	case "thrd_t":
		return "pthread_t" // C11 threads are pthreads
	case "mtx_t":
		return "pthread_mutex_t"
	case "cnd_t":
		return "pthread_cond_t"
	case "sem_t", "pthread_spinlock_t", "pthread_once_t":
		return n
	}
	return ""
}

// isInteger reports whether t is an integer type (including _Bool and enums).
func isInteger(t cc.Type) bool { return cc.IsIntegerType(t) }

// isPointer reports whether t is a pointer type.
func isPointer(t cc.Type) bool { return t != nil && t.Kind() == cc.Ptr }

// isScalarC reports whether t is an integer, pointer or supported
// floating-point type.
func isScalarC(t cc.Type) bool { return isInteger(t) || isPointer(t) || isFloat(t) }

// floatWidth is the width of the IR float a C floating type is mapped to:
// 32 for float, 64 for double and long double (which is computed as a
// double: see doc.go); 0 for other types, including the floating types the
// front end does not support (_Float16, _Float128, _Decimal*, complex).
func floatWidth(t cc.Type) int {
	if t == nil {
		return 0
	}
	switch t.Kind() {
	case cc.Float, cc.Float32:
		return 32
	case cc.Double, cc.Float64, cc.Float32x, cc.LongDouble:
		return 64
	}
	return 0
}

// isFloat reports whether t is a supported floating type (float, double,
// long double).
func isFloat(t cc.Type) bool { return floatWidth(t) > 0 }

// isArith reports whether t is an integer or supported floating type.
func isArith(t cc.Type) bool { return isInteger(t) || isFloat(t) }

// floatType is the IR float type of width w (32 or 64).
func floatType(w int) *ir.Type {
	if w == 32 {
		return ir.Float32
	}
	return ir.Float64
}

// intType returns the IR integer type of the C integer type t.
func (tr *translator) intType(t cc.Type) *ir.Type {
	if t.Kind() == cc.Bool {
		return ir.Bool
	}
	if t.Kind() == cc.Enum {
		if et, ok := t.(*cc.EnumType); ok {
			t = et.UnderlyingType()
		}
	}
	w := int(t.Size()) * 8
	s := cc.IsSignedInteger(t)
	key := w*2 + map[bool]int{false: 0, true: 1}[s]
	if it, ok := tr.ints[key]; ok {
		return it
	}
	it := &ir.Type{Kind: ir.TInt, Width: w, Signed: s}
	tr.ints[key] = it
	return it
}

// irType maps a C object type to its IR type; an unsupported type is
// reported at pos and mapped to a plain int so translation can go on.
// vlaCapacity is the number of elements a variable-length array holds
// under Options.UnderApproximate.
const vlaCapacity = 64

func (tr *translator) irType(t cc.Type, pos ir.Pos) *ir.Type {
	if t == nil {
		tr.unsupported(pos, "value of unknown type")
		return ir.Int
	}
	switch k := pthreadKind(t); k {
	case "pthread_t":
		return ir.Thread
	case "pthread_mutex_t":
		return ir.Mutex
	case "pthread_cond_t":
		return ir.Cond
	case "pthread_barrier_t":
		return barrierType
	case "pthread_rwlock_t":
		return rwlockType
	case "sem_t", "pthread_spinlock_t", "pthread_once_t":
		return semType
	case "pthread_attr_t", "pthread_mutexattr_t", "pthread_condattr_t", "pthread_barrierattr_t", "pthread_rwlockattr_t":
		return tr.opaqueType()
	case "":
	default:
		tr.unsupported(pos, "objects of type %s", k[len("unsupported:"):])
		return ir.Int
	}
	switch t.Kind() {
	case cc.Void:
		return ir.Void
	case cc.Ptr:
		return tr.ptrType(t)
	case cc.Array:
		at := t.(*cc.ArrayType)
		if at.IsVLA() && tr.opts.UnderApproximate {
			// A fixed capacity: an access beyond it is a runtime error
			// (out of bounds), never a wrong value.
			tr.approx = append(tr.approx, fmt.Sprintf("%s: variable-length array of type %s gets a fixed capacity of %d elements", pos, t, vlaCapacity))
			return &ir.Type{Kind: ir.TArray, Elem: tr.irType(at.Elem(), pos), Len: vlaCapacity}
		}
		if at.IsVLA() {
			tr.unsupported(pos, "variable-length array of type %s", t)
			return ir.Int
		}
		if at.IsIncomplete() || at.Len() < 0 {
			tr.unsupported(pos, "array of unknown size (%s)", t)
			return ir.Int
		}
		n := at.Len()
		elem := tr.irType(at.Elem(), pos)
		if elem.Size() > 0 && n*int64(elem.Size()) > 1<<16 {
			tr.unsupported(pos, "array of %d elements of %s is too large (at most 65536 cells per object)", n, at.Elem())
			return ir.Int
		}
		return ir.ArrayOf(elem, int(n))
	case cc.Struct:
		r := tr.record(t.(*cc.StructType), pos)
		if r == nil {
			return ir.Int
		}
		return &ir.Type{Kind: ir.TRecord, Record: r}
	case cc.Union:
		r := tr.unionRecord(t.(*cc.UnionType), pos)
		if r == nil {
			return ir.Int
		}
		return &ir.Type{Kind: ir.TRecord, Record: r}
	case cc.Function:
		tr.unsupported(pos, "function used as an object")
		return ir.Int
	}
	if isInteger(t) {
		if t.Size() > 8 {
			tr.unsupported(pos, "128-bit integers")
			return ir.Int
		}
		return tr.intType(t)
	}
	if w := floatWidth(t); w > 0 {
		return floatType(w)
	}
	if cc.IsFloatingPointType(t) || cc.IsComplexType(t) {
		tr.unsupported(pos, "floating-point type %s (float, double and long double are supported)", t)
		return ir.Int
	}
	tr.unsupported(pos, "values of type %s", t)
	return ir.Int
}

// opaqueType is the one-cell type of pthread attribute objects, which the
// front end accepts but ignores.
func (tr *translator) opaqueType() *ir.Type { return tr.intType(tr.ast.Int) }

// ptrType is the IR type of a C pointer type: a pointer to the record of a
// struct pointee, else an untyped pointer.
func (tr *translator) ptrType(t cc.Type) *ir.Type {
	if pt, ok := t.(*cc.PointerType); ok {
		if st, ok := pt.Elem().(*cc.StructType); ok && pthreadKind(pt.Elem()) == "" {
			if r := tr.recordIfKnown(st); r != nil {
				return ir.PtrTo(r)
			}
		}
	}
	return &ir.Type{Kind: ir.TPtr}
}

// cells is the number of memory cells an object of C type t occupies (1 for
// void and functions, so that pointer arithmetic on them moves by one).
func (tr *translator) cells(t cc.Type, pos ir.Pos) int {
	switch t.Kind() {
	case cc.Void, cc.Function:
		return 1
	}
	return tr.irType(t, pos).Size()
}

// structKey identifies a struct type across the copies cc makes of it.
func structKey(st *cc.StructType) any {
	if st.NumFields() > 0 {
		if f := st.FieldByIndex(0); f != nil {
			if d := f.Declarator(); d != nil {
				return d
			}
			return f
		}
	}
	tag := st.Tag()
	return fmt.Sprintf("empty:%s:%v", tag.SrcStr(), tag.Position())
}

func (tr *translator) recordIfKnown(st *cc.StructType) *ir.Record {
	if st.IsIncomplete() {
		return nil
	}
	return tr.record(st, ir.Pos{})
}

// record returns the IR record of a C struct, laying out its fields cell by
// cell (bit-fields and flexible array members are unsupported).
func (tr *translator) record(st *cc.StructType, pos ir.Pos) *ir.Record {
	key := structKey(st)
	if ri, ok := tr.records[key]; ok {
		return ri.rec
	}
	if st.IsIncomplete() {
		tr.unsupported(pos, "incomplete struct type %s", st)
		return nil
	}
	tag := st.Tag()
	name := tag.SrcStr()
	if name == "" {
		name = typedefName(st)
	}
	if name == "" {
		tr.anonStructs++
		name = fmt.Sprintf("struct.%d", tr.anonStructs)
	}
	r := &ir.Record{Name: name, Pos: tr.pos(tag)}
	ri := &recInfo{rec: r, offsets: map[any]int{}}
	tr.records[key] = ri
	tr.prog.Records = append(tr.prog.Records, r)
	off := 0
	for i := 0; i < st.NumFields(); i++ {
		f := st.FieldByIndex(i)
		ft, fname, fpos, ok := tr.member(f, i, pos)
		if !ok {
			continue
		}
		r.Fields = append(r.Fields, &ir.Field{Name: fname, Type: ft, Offset: off, Pos: fpos})
		ri.offsets[fieldKey(f)] = off
		// Members of an anonymous struct member are reachable by name.
		if f.Name() == "" {
			if ari := tr.records[recordKey(f.Type())]; ari != nil {
				for k, o := range ari.offsets {
					ri.offsets[k] = off + o
				}
			}
		}
		off += ft.Size()
	}
	r.Size = off
	if off > 1<<16 {
		tr.unsupported(pos, "struct %s is too large (%d cells; at most 65536)", name, off)
	}
	return r
}

func fieldKey(f *cc.Field) any {
	if d := f.Declarator(); d != nil {
		return d
	}
	return f
}

// fieldOffset returns the cell offset of field f in struct or union st.
func (tr *translator) fieldOffset(st cc.Type, f *cc.Field, pos ir.Pos) int {
	var ri *recInfo
	switch s := st.(type) {
	case *cc.StructType:
		if tr.record(s, pos) == nil {
			return 0
		}
		ri = tr.records[structKey(s)]
	case *cc.UnionType:
		if tr.unionRecord(s, pos) == nil {
			return 0
		}
		ri = tr.records[unionKey(s)]
	default:
		tr.unsupported(pos, "member access on %s", st)
		return 0
	}
	if off, ok := ri.offsets[fieldKey(f)]; ok {
		return off
	}
	// Fall back to the name (cc may hand out copies of fields).
	if ut, ok := st.(*cc.UnionType); ok {
		for i := 0; i < ut.NumFields(); i++ {
			if uf := ut.FieldByIndex(i); uf != nil && uf.Name() != "" && uf.Name() == f.Name() {
				return 0
			}
		}
	}
	for _, rf := range ri.rec.Fields {
		if rf.Name == f.Name() {
			return rf.Offset
		}
	}
	tr.unsupported(pos, "member %s of %s", f.Name(), st)
	return 0
}

// member translates field i of a struct or union type declared at pos: its
// type, its name (_i when anonymous) and its position; ok is false for a
// missing field and for the ones the front end does not support
// (bit-fields, flexible array members: reported).
func (tr *translator) member(f *cc.Field, i int, pos ir.Pos) (ft *ir.Type, fname string, fpos ir.Pos, ok bool) {
	if f == nil {
		return nil, "", pos, false
	}
	fpos = pos
	if d := f.Declarator(); d != nil {
		fpos = tr.pos(d)
	}
	if f.IsBitfield() {
		tr.unsupported(fpos, "bit-field %s", f.Name())
		return nil, "", fpos, false
	}
	if f.IsFlexibleArrayMember() {
		tr.unsupported(fpos, "flexible array member %s", f.Name())
		return nil, "", fpos, false
	}
	fname = f.Name()
	if fname == "" {
		fname = fmt.Sprintf("_%d", i)
	}
	return tr.irType(f.Type(), fpos), fname, fpos, true
}
