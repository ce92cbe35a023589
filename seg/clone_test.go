package seg

import "testing"

// TestGraphClone: a clone shares past events but appending events, mo
// positions or threads to either graph leaves the other unchanged.
func TestGraphClone(t *testing.T) {
	g := New()
	g.AddThread(0, "0", -1, Init)
	w := g.Append(Event{ID: EventID{T: 0}, Kind: KWrite, Loc: 1, WVal: 1})
	g.InitVal[1] = 0
	c := g.Clone()
	c.Append(Event{ID: EventID{T: 0}, Kind: KWrite, Loc: 1, WVal: 2})
	c.AddThread(1, "0.1", 0, w)
	c.Append(Event{ID: EventID{T: 1}, Kind: KWrite, Loc: 2, WVal: 3})
	c.InitVal[2] = 5
	g.Append(Event{ID: EventID{T: 0}, Kind: KRead, Loc: 1, RVal: 1, RF: w})
	if len(g.Threads) != 1 || len(g.Threads[0]) != 2 || g.Threads[0][1].Kind != KRead {
		t.Errorf("original changed by the clone: %v", g.Threads)
	}
	if len(c.Threads) != 2 || len(c.Threads[0]) != 2 || c.Threads[0][1].Kind != KWrite || c.Threads[0][1].WVal != 2 {
		t.Errorf("clone changed by the original: %v", c.Threads)
	}
	if len(g.MO[1]) != 1 || len(c.MO[1]) != 2 || len(g.MO[2]) != 0 || len(c.MO[2]) != 1 {
		t.Errorf("mo shared: original %v, clone %v", g.MO, c.MO)
	}
	if _, ok := g.InitVal[2]; ok || len(g.Names) != 1 || len(g.Parent) != 1 || len(g.SpawnedBy) != 1 {
		t.Errorf("maps or thread tables shared: %v %v", g.InitVal, g.Names)
	}
}
