// Package race finds data races. Graph lists the races of an execution
// graph under a memory model that defines them (memmodel.Model.Race: ra
// and rc11): conflicting accesses of different threads, at least one
// non-atomic, that the model's happens-before does not order. It is the
// fast path of the model's own "flag empty dr as data-race" axiom.
//
// The vector-clock detector of the interpreter (sc, ncmc/scraces.go) and
// the coverability explorer's abstract check stay with the interpreter
// until it exports its hooks (docs/design.md, "Layout and seams").
package race

import (
	"fmt"
	"strings"

	"ncmc/ir"
	"ncmc/memmodel"
	"ncmc/seg"
)

// Race is a data race of an execution: two conflicting accesses, at least
// one non-atomic, that happens-before does not order.
type Race struct {
	A, B seg.EventID
	Loc  int64
	// Msg names both events and the missing synchronisation.
	Msg string
}

// Graph lists the data races of graph g under model ("ra" or
// "rc11"): pairs of accesses to one location by different threads, at
// least one a write and at least one non-atomic, that the model's
// happens-before does not order (rc11: C11's hb with release/acquire
// synchronisation; ra: (po ∪ rf)+). Messages name the events by their
// letters in g and the threads by g.Names.
//
// It is the fast path of the model's own race axiom (memmodel.Model.Race,
// the "flag empty dr" of ra.cat and rc11.cat); TestGraphRacesMatchModel
// checks that both find the same pairs. Models without a race axiom have
// no races here.
func Graph(g *seg.Graph, model string) []Race {
	mm, err := memmodel.Lookup(model)
	if err != nil || mm.Race == "" {
		return nil
	}
	sp, hb, err := mm.Axioms.Relation(g, "hb")
	if err != nil {
		return nil
	}
	var out []Race
	n := sp.Len()
	for i := len(sp.Locs()); i < n; i++ {
		a := sp.Event(i)
		for j := i + 1; j < n; j++ {
			b := sp.Event(j)
			if a.ID.T == b.ID.T || !IsAccess(a) || !IsAccess(b) || a.Loc != b.Loc {
				continue
			}
			if !a.Kind.IsWrite() && !b.Kind.IsWrite() {
				continue
			}
			if !IsNonAtomic(a) && !IsNonAtomic(b) {
				continue
			}
			if hb.Has(i, j) || hb.Has(j, i) {
				continue
			}
			out = append(out, Race{A: a.ID, B: b.ID, Loc: a.Loc, Msg: Msg(g, model, a, b)})
		}
	}
	return out
}

// IsAccess reports whether e reads or writes memory (a read, write or RMW;
// not a lock).
func IsAccess(e *seg.Event) bool {
	return e.Kind == seg.KRead || e.Kind == seg.KWrite || e.Kind == seg.KRMW
}

// IsNonAtomic reports whether e is a non-atomic read or write.
func IsNonAtomic(e *seg.Event) bool {
	return (e.Kind == seg.KRead || e.Kind == seg.KWrite) && e.Order == ir.OrderNA
}

// Msg describes the data race between a and b of g under model: both
// events (thread, position, access) and why nothing orders them.
func Msg(g *seg.Graph, model string, a, b *seg.Event) string {
	name := func(e *seg.Event) string {
		t := fmt.Sprintf("t%d", e.ID.T)
		if int(e.ID.T) < len(g.Names) && g.Names[e.ID.T] != "" {
			t = g.Names[e.ID.T]
			if !strings.HasPrefix(t, "P") {
				t = "t" + t
			}
		}
		return fmt.Sprintf("%s: %s (thread %s)", g.EventName(e.ID), g.Label(e), t)
	}
	why := "no release/acquire synchronisation orders them (a release write or fence in one thread whose write an acquire read, or a read followed by an acquire fence, of the other thread reads)"
	if model == "ra" {
		why = "no path of program-order and reads-from edges connects them"
	}
	return fmt.Sprintf("data race on %s between %s and %s: conflicting accesses, not both atomic, that do not happen before one another under %s: %s",
		g.Loc(a.Loc), name(a), name(b), model, why)
}
