package seg

import (
	"testing"

	"ncmc/ir"
)

// A thread-name-level description of an execution, built into a Graph
// with a chosen thread numbering and a chosen global order of adding
// events, the way an interpreter following some schedule would.
type kEv struct {
	th    string
	kind  Kind
	loc   int64
	val   int64  // WVal for writes, RVal for reads
	rf    string // reads: source thread name ("" for init)
	rfIdx int
	child string // spawn/join: the other thread's name
}

type kThread struct {
	name, parent string
}

// buildKeyed adds threads in the order given by threads (numbering them
// 0, 1, …) and events in the order given by sched (indices into evs), and
// finally sets mo per location to the given name-level order.
func buildKeyed(threads []kThread, evs []kEv, sched []int, mo map[int64][][2]any) *Graph {
	g := New()
	num := map[string]int32{}
	for i, th := range threads {
		num[th.name] = int32(i)
	}
	for _, th := range threads {
		p := int32(-1)
		if th.parent != "" {
			p = num[th.parent]
		}
		g.AddThread(num[th.name], th.name, p, Init)
	}
	for _, k := range sched {
		e := evs[k]
		ev := Event{ID: EventID{T: num[e.th]}, Kind: e.kind, Loc: e.loc}
		switch e.kind {
		case KWrite:
			ev.WVal = e.val
		case KRead:
			ev.RVal = e.val
			ev.RF = Init
			if e.rf != "" {
				ev.RF = EventID{T: num[e.rf], I: int32(e.rfIdx)}
			}
		case KSpawn, KJoin:
			ev.Other = num[e.child]
		}
		g.Append(ev)
	}
	for loc, order := range mo {
		var ws []EventID
		for _, p := range order {
			ws = append(ws, EventID{T: num[p[0].(string)], I: int32(p[1].(int))})
		}
		g.MO[loc] = ws
	}
	return g
}

func TestKeyCanonical(t *testing.T) {
	x, y := ir.MakePtr(1, 0), ir.MakePtr(2, 0)
	evs := []kEv{
		{th: "0", kind: KSpawn, child: "0.0"},                           // 0: 0:0
		{th: "0", kind: KSpawn, child: "0.1"},                           // 1: 0:1
		{th: "0.0", kind: KSpawn, child: "0.0.0"},                       // 2: 0.0:0
		{th: "0.0", kind: KWrite, loc: x, val: 1},                       // 3: 0.0:1
		{th: "0.1", kind: KWrite, loc: x, val: 2},                       // 4: 0.1:0
		{th: "0.1", kind: KRead, loc: y, val: 0},                        // 5: 0.1:1 reads init
		{th: "0.0.0", kind: KRead, loc: x, val: 1, rf: "0.0", rfIdx: 1}, // 6: 0.0.0:0
		{th: "0.0.0", kind: KWrite, loc: y, val: 5},                     // 7: 0.0.0:1
		{th: "0", kind: KJoin, child: "0.1"},                            // 8: 0:2
	}
	mo := map[int64][][2]any{x: {{"0.1", 0}, {"0.0", 1}}, y: {{"0.0.0", 1}}}
	// schedule A: main spawns both children first
	thA := []kThread{{"0", ""}, {"0.0", "0"}, {"0.1", "0"}, {"0.0.0", "0.0"}}
	gA := buildKeyed(thA, evs, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, mo)
	// schedule B: 0.0 spawns its child before main spawns 0.1, so thread
	// numbers differ, and events arrive in another interleaving
	thB := []kThread{{"0", ""}, {"0.0", "0"}, {"0.0.0", "0.0"}, {"0.1", "0"}}
	gB := buildKeyed(thB, evs, []int{0, 2, 3, 6, 1, 7, 4, 5, 8}, mo)
	for _, k := range []KeyKind{KeyFull, KeyRF, KeyValues} {
		a, b := gA.Key(KeyOpts{Kind: k}), gB.Key(KeyOpts{Kind: k})
		if a != b {
			t.Errorf("kind %d: keys differ:\n%s\n%s", k, a, b)
		}
		if gA.KeyHash(KeyOpts{Kind: k}) != gB.KeyHash(KeyOpts{Kind: k}) {
			t.Errorf("kind %d: hashes differ", k)
		}
	}
	for _, g := range []*Graph{gA, gB} {
		if v := LookupModel("sc").Check(g); v != nil {
			t.Fatalf("test graph inconsistent: %v", v)
		}
	}
	want := "0[spawn 0.0,spawn 0.1,join 0.1]0.0[spawn 0.0.0,W(na)@1:0=1]0.0.0[R(na)@1:0=1<0.0:1,W(na)@2:0=5]0.1[W(na)@1:0=2,R(na)@2:0=0<init]|mo 1:0:0.1:0,0.0:1 2:0:0.0.0:1"
	if got := gA.Key(KeyOpts{}); got != want {
		t.Errorf("full key\n got %s\nwant %s", got, want)
	}

	// A different rf with the same values: 0.0.0 reads x=1 … from a new
	// write of value 1 by 0.1 instead. Only the value key stays equal.
	evs2 := append([]kEv{}, evs...)
	evs2 = append(evs2, kEv{th: "0.1", kind: KWrite, loc: x, val: 1}) // 9: 0.1:2
	evs2[6].rf, evs2[6].rfIdx = "0.1", 2
	mo2 := map[int64][][2]any{x: {{"0.1", 0}, {"0.0", 1}, {"0.1", 2}}, y: {{"0.0.0", 1}}}
	mo1 := map[int64][][2]any{x: {{"0.1", 0}, {"0.0", 1}, {"0.1", 2}}, y: {{"0.0.0", 1}}}
	evs1 := append(append([]kEv{}, evs...), kEv{th: "0.1", kind: KWrite, loc: x, val: 1})
	sched := []int{0, 1, 2, 3, 4, 5, 9, 6, 7, 8}
	g1 := buildKeyed(thA, evs1, sched, mo1)
	g2 := buildKeyed(thA, evs2, sched, mo2)
	if g1.Key(KeyOpts{Kind: KeyValues}) != g2.Key(KeyOpts{Kind: KeyValues}) {
		t.Error("value keys differ for equal read values")
	}
	if g1.Key(KeyOpts{Kind: KeyRF}) == g2.Key(KeyOpts{Kind: KeyRF}) {
		t.Error("rf keys equal for different rf")
	}
	if g1.Key(KeyOpts{}) == g2.Key(KeyOpts{}) {
		t.Error("full keys equal for different rf")
	}
	// Same rf, different mo: only the full key changes.
	g3 := buildKeyed(thA, evs1, sched, map[int64][][2]any{x: {{"0.0", 1}, {"0.1", 0}, {"0.1", 2}}, y: {{"0.0.0", 1}}})
	if g1.Key(KeyOpts{Kind: KeyRF}) != g3.Key(KeyOpts{Kind: KeyRF}) {
		t.Error("rf keys differ for equal rf")
	}
	if g1.Key(KeyOpts{}) == g3.Key(KeyOpts{}) {
		t.Error("full keys equal for different mo")
	}
	// Different values read: the value key changes too.
	evs4 := append([]kEv{}, evs...)
	evs4[6].rf, evs4[6].val = "", 0
	g4 := buildKeyed(thA, evs4, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, mo)
	if gA.Key(KeyOpts{Kind: KeyValues}) == g4.Key(KeyOpts{Kind: KeyValues}) {
		t.Error("value keys equal for different values")
	}
}

// The keys of the enumerated executions of a litmus test are pairwise
// distinct, and there are as many full keys as graphs.
func TestKeyDistinctOnLitmus(t *testing.T) {
	p := herdTests["IRIW+ra"]
	seen := map[string]bool{}
	rfKeys := map[string]bool{}
	n := 0
	m, _ := ParseModel("all", "", "")
	countWith(t, p, m, func(g *Graph) {
		n++
		seen[g.Key(KeyOpts{})] = true
		rfKeys[g.Key(KeyOpts{Kind: KeyRF})] = true
	})
	if len(seen) != n {
		t.Errorf("%d graphs, %d distinct full keys", n, len(seen))
	}
	// IRIW: each of 4 reads from init or the one write: 16 rf choices; mo is trivial
	if n != 16 || len(rfKeys) != 16 {
		t.Errorf("got %d graphs, %d rf keys; want 16, 16", n, len(rfKeys))
	}
}
