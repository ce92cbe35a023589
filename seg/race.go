package seg

import "fmt"

// Race is a data race in the sense of C11/RC11: two accesses to the same
// location by different threads, at least one a write and at least one
// non-atomic, that happens-before does not order either way. A is the
// event of the lower-numbered thread.
type Race struct {
	A, B EventID
	Loc  int64
	text string
}

// String names both events and the location, e.g.
// "data race on x between a: W(na) x=1 and d: R(na) x=0".
func (r Race) String() string { return r.text }

// Races lists the data races of g under RC11's happens-before (the dr
// relation of the rc11 model: see models.go), each pair once, ordered by A
// then B. Locks, unlocks and RMWs are atomic and never race; initial
// writes never race. Races are meaningful for graphs consistent under
// RC11. Under RA, whose hb is (po | rf)+, the ra model flags its own dr
// (models/ra.cat); evaluate it with LookupModel("ra").Relation(g, "dr").
func Races(g *Graph) []Race {
	sp, dr, err := LookupModel("rc11").Relation(g, "dr")
	if err != nil {
		panic("seg: rc11 model has no dr: " + err.Error())
	}
	var out []Race
	dr.Each(func(i, j int) {
		if i >= j {
			return // dr is symmetric; report (i, j) once
		}
		a, b := sp.Node(i).ID, sp.Node(j).ID
		e := sp.Event(i)
		out = append(out, Race{A: a, B: b, Loc: e.Loc,
			text: fmt.Sprintf("data race on %s between %s and %s", g.Loc(e.Loc), sp.NodeLabel(i), sp.NodeLabel(j))})
	})
	return out
}
