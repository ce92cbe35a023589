package seg

import (
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"ncmc/ir"
)

// KeyKind selects what a canonical graph key covers.
type KeyKind uint8

// Key kinds, from finest to coarsest.
const (
	// KeyFull covers every event label, rf and mo: two graphs have the same
	// full key iff they are the same execution graph (the notion of herd's
	// execution count).
	KeyFull KeyKind = iota
	// KeyRF covers event labels and rf but not mo.
	KeyRF
	// KeyValues covers only the values each thread read, in program order
	// (the read-value vector).
	KeyValues
)

// KeyOpts configures Graph.Key.
type KeyOpts struct {
	Kind KeyKind
}

// Key returns a canonical text key of g: equal for equal execution graphs,
// whatever order the events were added in and however threads were
// numbered. Threads are identified by their stable names (Graph.Names,
// sorted as strings; a thread without a name is called "#n" after its
// number) and events by thread name and index, so rf sources read
// "0.1:3". Per thread the key lists the event labels in program order
// (kind, memory order, location, values, rf source, the names of spawned
// and joined threads, invocation details, messages); KeyFull adds mo per
// location (initial write implicit). Locations appear as block:offset, so
// keys are canonical only if the explorer names heap blocks
// deterministically.
func (g *Graph) Key(opts KeyOpts) string {
	order := make([]int, len(g.Threads))
	for i := range order {
		order[i] = i
	}
	name := func(t int) string {
		if t >= 0 && t < len(g.Names) && g.Names[t] != "" {
			return g.Names[t]
		}
		return "#" + strconv.Itoa(t)
	}
	sort.Slice(order, func(i, j int) bool { return name(order[i]) < name(order[j]) })
	ref := func(id EventID) string {
		if id.IsInit() {
			return "init"
		}
		return name(int(id.T)) + ":" + strconv.Itoa(int(id.I))
	}
	var sb strings.Builder
	for _, t := range order {
		th := g.Threads[t]
		if len(th) == 0 && (t >= len(g.Names) || g.Names[t] == "") {
			continue
		}
		sb.WriteString(name(t))
		sb.WriteByte('[')
		first := true
		for i := range th {
			e := &th[i]
			if opts.Kind == KeyValues {
				if !e.Kind.IsRead() {
					continue
				}
				if !first {
					sb.WriteByte(',')
				}
				first = false
				sb.WriteString(strconv.FormatInt(e.RVal, 10))
				continue
			}
			if !first {
				sb.WriteByte(',')
			}
			first = false
			writeKeyLabel(&sb, e, name)
			if e.Kind.IsRead() {
				sb.WriteByte('<')
				sb.WriteString(ref(e.RF))
			}
		}
		sb.WriteString("]")
	}
	if opts.Kind == KeyFull {
		locs := make([]int64, 0, len(g.MO))
		for l, ws := range g.MO {
			if len(ws) > 0 {
				locs = append(locs, l)
			}
		}
		sort.Slice(locs, func(i, j int) bool { return locs[i] < locs[j] })
		sb.WriteString("|mo")
		for _, l := range locs {
			sb.WriteByte(' ')
			writeLoc(&sb, l)
			sb.WriteByte(':')
			for i, w := range g.MO[l] {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(ref(w))
			}
		}
	}
	return sb.String()
}

// KeyHash is a 64-bit FNV-1a hash of Key(opts), for maps that count
// classes without keeping the keys.
func (g *Graph) KeyHash(opts KeyOpts) uint64 {
	h := fnv.New64a()
	h.Write([]byte(g.Key(opts)))
	return h.Sum64()
}

func writeLoc(sb *strings.Builder, l int64) {
	sb.WriteString(strconv.Itoa(ir.PtrBlock(l)))
	sb.WriteByte(':')
	sb.WriteString(strconv.Itoa(ir.PtrOffset(l)))
}

func writeKeyLabel(sb *strings.Builder, e *Event, name func(int) string) {
	acc := func(k string) {
		sb.WriteString(k)
		sb.WriteByte('(')
		sb.WriteString(e.Order.String())
		sb.WriteString(")@")
		writeLoc(sb, e.Loc)
	}
	val := func(v int64) { sb.WriteString(strconv.FormatInt(v, 10)) }
	switch e.Kind {
	case KRead:
		acc("R")
		sb.WriteByte('=')
		val(e.RVal)
	case KWrite:
		acc("W")
		sb.WriteByte('=')
		val(e.WVal)
	case KRMW:
		acc("U")
		sb.WriteByte('=')
		val(e.RVal)
		sb.WriteByte('>')
		val(e.WVal)
	case KLock, KUnlock, KSignal, KBroadcast:
		acc(e.Kind.String())
	case KFence:
		sb.WriteString("F(" + e.Order.String() + ")")
	case KSpawn, KJoin:
		sb.WriteString(e.Kind.String() + " " + name(int(e.Other)))
	case KInvBegin, KInvEnd:
		sb.WriteString(e.Kind.String())
		if inv := e.Inv; inv != nil {
			sb.WriteString(" " + strconv.Quote(inv.Type+"."+inv.Method) + "@" + strconv.FormatInt(inv.Obj, 10) + "(")
			for i, a := range inv.Args {
				if i > 0 {
					sb.WriteByte(' ')
				}
				val(a)
			}
			sb.WriteByte(')')
			if e.Kind == KInvEnd && inv.HasRet {
				sb.WriteByte('=')
				val(inv.Ret)
			}
		}
	case KError, KBlock:
		sb.WriteString(e.Kind.String() + " " + strconv.Quote(e.Msg))
	default:
		sb.WriteString(e.Kind.String())
	}
}
