package seg

import (
	"fmt"
	"testing"

	"ncmc/ir"
)

// Short names for memory orders in tests.
const (
	na  = ir.OrderNA
	rlx = ir.OrderRlx
	acq = ir.OrderAcq
	rel = ir.OrderRel
	ar  = ir.OrderAcqRel
	sc  = ir.OrderSC
)

// gb builds graphs by hand for tests. Locations are named by strings and
// mapped to the globals x → block 1, y → block 2, … in order of first use.
type gb struct {
	g    *Graph
	locs map[string]int64
	name map[int64]string
}

func newGB(threads int) *gb {
	b := &gb{g: New(), locs: map[string]int64{}, name: map[int64]string{}}
	for t := 0; t < threads; t++ {
		b.g.AddThread(int32(t), fmt.Sprint(t), -1, Init)
	}
	b.g.LocName = func(l int64) string {
		if n, ok := b.name[l]; ok {
			return n
		}
		return fmt.Sprintf("[%d:%d]", ir.PtrBlock(l), ir.PtrOffset(l))
	}
	return b
}

func (b *gb) loc(x string) int64 {
	if l, ok := b.locs[x]; ok {
		return l
	}
	l := ir.MakePtr(len(b.locs)+1, 0)
	b.locs[x] = l
	b.name[l] = x
	return l
}

func (b *gb) ev(t int, e Event) EventID {
	e.ID.T = int32(t)
	return b.g.Append(e)
}

// W appends a write (at the end of x's mo).
func (b *gb) W(t int, x string, v int64, o ir.Order) EventID {
	return b.ev(t, Event{Kind: KWrite, Loc: b.loc(x), WVal: v, Order: o})
}

// R appends a read of x from w; the value is the one w wrote.
func (b *gb) R(t int, x string, w EventID, o ir.Order) EventID {
	l := b.loc(x)
	return b.Rv(t, x, w, b.g.WriteValue(w, l), o)
}

// Rv appends a read of value v of x from w (w may not exist yet).
func (b *gb) Rv(t int, x string, w EventID, v int64, o ir.Order) EventID {
	return b.ev(t, Event{Kind: KRead, Loc: b.loc(x), RVal: v, RF: w, Order: o})
}

// U appends an RMW of x that reads from w and writes v (at the end of mo).
func (b *gb) U(t int, x string, w EventID, v int64, o ir.Order) EventID {
	l := b.loc(x)
	return b.ev(t, Event{Kind: KRMW, Loc: l, RVal: b.g.WriteValue(w, l), RF: w, WVal: v, Order: o})
}

// F appends a fence.
func (b *gb) F(t int, o ir.Order) EventID { return b.ev(t, Event{Kind: KFence, Order: o}) }

// L appends a lock of mutex m that reads from w (Init or an unlock).
func (b *gb) L(t int, m string, w EventID) EventID {
	return b.ev(t, Event{Kind: KLock, Loc: b.loc(m), RF: w, WVal: 1})
}

// Un appends an unlock of mutex m.
func (b *gb) Un(t int, m string) EventID {
	return b.ev(t, Event{Kind: KUnlock, Loc: b.loc(m)})
}

// mo sets x's modification order.
func (b *gb) mo(x string, ws ...EventID) { b.g.MO[b.loc(x)] = ws }

// allowed maps model names to the expected verdict for a graph.
type verdicts map[string]bool

func checkVerdicts(t *testing.T, name string, g *Graph, want verdicts) {
	t.Helper()
	for _, mn := range ModelNames() {
		w, ok := want[mn]
		if !ok {
			continue
		}
		v := LookupModel(mn).Check(g)
		if got := v == nil; got != w {
			if v != nil {
				t.Errorf("%s under %s: got forbidden (%v), want allowed", name, mn, v)
			} else {
				t.Errorf("%s under %s: got allowed, want forbidden", name, mn)
			}
		}
	}
}
