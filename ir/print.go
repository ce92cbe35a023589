package ir

import (
	"fmt"
	"strings"
)

// ExprString renders e using the local names of f (f may be nil).
func ExprString(e *Expr, f *Func, p *Program) string {
	if e == nil {
		return "_"
	}
	switch e.Kind {
	case EConst:
		if e.Type != nil && e.Type.Kind == TFloat {
			return FormatFloat(e.Val, e.Type.Width)
		}
		return fmt.Sprint(e.Val)
	case ELocal:
		if f != nil && e.Local >= 0 && e.Local < len(f.Locals) {
			return "%" + f.Locals[e.Local].Name
		}
		return fmt.Sprintf("%%%d", e.Local)
	case EUnary:
		return e.Op.String() + "(" + ExprString(e.A, f, p) + ")"
	case EBinary:
		return "(" + ExprString(e.A, f, p) + " " + e.Op.String() + " " + ExprString(e.B, f, p) + ")"
	case EGlobalAddr:
		if p != nil && e.Global >= 0 && e.Global < len(p.Globals) {
			return "&" + p.Globals[e.Global].Name
		}
		return fmt.Sprintf("&global%d", e.Global)
	case EIndex:
		return fmt.Sprintf("%s[%s]", ExprString(e.A, f, p), ExprString(e.B, f, p))
	case EField:
		return fmt.Sprintf("%s+%d", ExprString(e.A, f, p), e.Offset)
	case ECast:
		return fmt.Sprintf("(%s)%s", e.Type, ExprString(e.A, f, p))
	}
	return "?"
}

// funcName is f's full name, or "?" for a missing function (an invalid
// instruction being reported).
func funcName(f *Func) string {
	if f == nil {
		return "?"
	}
	return f.FullName()
}

// InstrString renders one instruction of f.
func InstrString(in *Instr, f *Func, p *Program) string {
	x := func(e *Expr) string { return ExprString(e, f, p) }
	dst := func(d int) string {
		if d < 0 {
			return ""
		}
		if f != nil && d < len(f.Locals) {
			return "%" + f.Locals[d].Name + " = "
		}
		return fmt.Sprintf("%%%d = ", d)
	}
	args := func() string {
		s := make([]string, len(in.Args))
		for i, a := range in.Args {
			s[i] = x(a)
		}
		return strings.Join(s, ", ")
	}
	switch in.Op {
	case IAssign:
		return dst(in.Dst) + x(in.A)
	case ILoad:
		return fmt.Sprintf("%sload.%s %s", dst(in.Dst), in.Order, x(in.Addr))
	case IStore:
		return fmt.Sprintf("store.%s %s, %s", in.Order, x(in.Addr), x(in.A))
	case IRMW:
		if in.Wrap != 0 {
			return fmt.Sprintf("%s%s.%s.%s %s, %s", dst(in.Dst), in.RMW, in.Wrap, in.Order, x(in.Addr), x(in.A))
		}
		return fmt.Sprintf("%s%s.%s %s, %s", dst(in.Dst), in.RMW, in.Order, x(in.Addr), x(in.A))
	case ICAS:
		ok := ""
		if in.Dst2 >= 0 {
			ok = " -> " + strings.TrimSuffix(dst(in.Dst2), " = ")
		}
		return fmt.Sprintf("%scas.%s.%s %s, %s, %s%s", dst(in.Dst), in.Order, in.FailOrder, x(in.Addr), x(in.A), x(in.B), ok)
	case IFence:
		return "fence." + in.Order.String()
	case ILock, IUnlock, ISignal, IBroadcast, IFree:
		return in.Op.String() + " " + x(in.Addr)
	case ITryLock:
		return dst(in.Dst) + "trylock " + x(in.Addr)
	case IWait:
		return fmt.Sprintf("wait %s, %s", x(in.Addr), x(in.B))
	case ISpawn:
		return fmt.Sprintf("%sspawn %s(%s)", dst(in.Dst), funcName(in.Func), args())
	case IJoin:
		return dst(in.Dst) + "join " + x(in.A)
	case ICall:
		return fmt.Sprintf("%scall %s(%s)", dst(in.Dst), funcName(in.Func), args())
	case IReturn:
		if in.A == nil {
			return "return"
		}
		return "return " + x(in.A)
	case IJump:
		return fmt.Sprintf("jump %d", in.Target)
	case IBranch:
		return fmt.Sprintf("branch %s, %d, %d", x(in.A), in.Target, in.Target2)
	case IAssert:
		return fmt.Sprintf("assert %s %q", x(in.A), in.Msg)
	case IAssume:
		if in.Assume.Spin() {
			return "await " + x(in.A)
		}
		return "assume " + x(in.A)
	case INondet:
		return fmt.Sprintf("%snondet %s, %s", dst(in.Dst), x(in.A), x(in.B))
	case IAlloc:
		rec := "?"
		if in.Record != nil {
			rec = in.Record.Name
		}
		kind := ""
		switch in.Alloc {
		case AllocMalloc:
			kind = "malloc "
		case AllocCalloc:
			kind = "calloc "
		case AllocUninit:
			kind = "uninit "
		}
		if in.A != nil {
			rec += " * " + x(in.A)
		}
		return fmt.Sprintf("%salloc %s%s(%s)", dst(in.Dst), kind, rec, args())
	case ILoopHead:
		return fmt.Sprintf("loophead %s bound %d", strings.TrimSuffix(dst(in.Dst), " = "), in.Bound)
	case ISelf:
		return dst(in.Dst) + "self"
	case IFail:
		return fmt.Sprintf("fail %q", in.Msg)
	case ITLSLoad:
		return fmt.Sprintf("%stls_load %s", dst(in.Dst), tlsName(p, in.Slot))
	case ITLSStore:
		return fmt.Sprintf("tls_store %s, %s", tlsName(p, in.Slot), x(in.A))
	}
	return in.Op.String()
}

func tlsName(p *Program, slot int) string {
	if p != nil && slot >= 0 && slot < len(p.TLS) {
		return p.TLS[slot].Name
	}
	return fmt.Sprintf("tls%d", slot)
}

// String prints the whole program in a readable, stable form.
func (p *Program) String() string {
	var b strings.Builder
	for _, v := range p.TLS {
		fmt.Fprintf(&b, "thread_local %s: %s = %d\n", v.Name, v.Type, v.Init)
	}
	for _, g := range p.Globals {
		at := ""
		if g.Atomic {
			at = "atomic "
		}
		fmt.Fprintf(&b, "global %s%s: %s = %v   // block %d\n", at, g.Name, g.Type, g.Init, g.Block)
	}
	for _, r := range p.Records {
		kind := "record"
		if r.IsObject {
			kind = "object"
		}
		fmt.Fprintf(&b, "%s %s {", kind, r.Name)
		for _, fl := range r.Fields {
			fmt.Fprintf(&b, " %s: %s @%d;", fl.Name, fl.Type, fl.Offset)
		}
		b.WriteString(" }\n")
	}
	for _, f := range p.Funcs {
		fmt.Fprintf(&b, "%s %s(", f.Kind, f.FullName())
		for i := 0; i < f.NumParams; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", f.Locals[i].Name, f.Locals[i].Type)
		}
		fmt.Fprintf(&b, "): %s\n", f.Result)
		for i := range f.Body {
			fmt.Fprintf(&b, "  %3d  %-50s // %s\n", i, InstrString(&f.Body[i], f, p), f.Body[i].Pos)
		}
	}
	return b.String()
}
