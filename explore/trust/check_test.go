package trust

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"ncmc/ir"
	"ncmc/seg"
)

var checkN = flag.Int("trust.graphs", 3000, "generated graphs per model in TestCheckGraphMatchesSeg")

// genGraph returns a random graph: 2 or 3 threads of reads, writes, RMWs
// and fences with random memory orders over two locations, and mutex
// operations (locks, unlocks, locks that read a held mutex) on a third,
// random reads-from (from any write of the location, so po ∪ rf may be
// cyclic) and random coherence orders.
func genGraph(rng *rand.Rand) ([][]Label, map[int64][]Ref) {
	orders := []ir.Order{ir.OrderNA, ir.OrderRlx, ir.OrderAcq, ir.OrderRel, ir.OrderAcqRel, ir.OrderSC}
	nt := 2 + rng.IntN(2)
	ev := make([][]Label, nt)
	// some graphs use few memory orders, so that shapes like SB with
	// seq_cst accesses (psc alone inconsistent) come up
	if rng.IntN(3) == 0 {
		k := 1 + rng.IntN(2)
		orders = orders[len(orders)-k:]
	}
	var writes [3][]Ref
	val := int64(1)
	// message-passing shapes: thread 0 writes a then b, thread 1 reads b
	// then a, with optional fences between; store-buffering shapes:
	// thread 0 writes a and reads b, thread 1 writes b and reads a, with
	// optionally a fence or an RMW between (TSO tells them apart)
	mp, sb := false, false
	switch rng.IntN(8) {
	case 0, 1:
		mp = true
	case 2, 3:
		sb = true
	}
	const mutex = 2 // the location of mutex operations
	for t := 0; t < nt; t++ {
		n := 1 + rng.IntN(4)
		var shape []int
		if sb && t < 2 {
			shape = []int{3, 0}
			switch rng.IntN(5) {
			case 0:
				shape = []int{3, 6, 0}
			case 1:
				shape = []int{3, 5, 0}
			case 2:
				shape = []int{3, 7, 0}
			}
			n = len(shape)
		}
		if mp && t < 2 {
			a, b := 3+rng.IntN(3), 3+rng.IntN(3) // write or RMW
			if t == 1 {
				a, b = 0, 0 // reads
			}
			shape = []int{a, 6, b}
			if rng.IntN(2) == 0 {
				shape = []int{a, b}
			}
			n = len(shape)
		}
		for i := 0; i < n; i++ {
			loc := int64(rng.IntN(2))
			if shape != nil {
				loc = 0 // first access: a for the writer, b for the reader
				if i > 0 {
					loc = 1
				}
				if t == 1 {
					loc = 1 - loc
				}
			}
			o := orders[rng.IntN(len(orders))]
			var l Label
			kind := rng.IntN(9)
			if shape != nil {
				kind = shape[i]
			}
			switch kind {
			case 0, 1, 2:
				if o == ir.OrderRel || o == ir.OrderAcqRel {
					o = ir.OrderAcq
				}
				l = Label{Kind: Read, Loc: loc, Order: o}
			case 3, 4:
				if o == ir.OrderAcq || o == ir.OrderAcqRel {
					o = ir.OrderRel
				}
				l = Label{Kind: Write, Loc: loc, Order: o, WVal: val}
				val++
			case 5:
				if o == ir.OrderNA {
					o = ir.OrderRlx
				}
				l = Label{Kind: RMW, Loc: loc, Order: o, WVal: val, HasW: true}
				val++
			case 6:
				if o == ir.OrderNA || o == ir.OrderRlx {
					o = ir.OrderSC
				}
				l = Label{Kind: Fence, Order: o}
			case 7: // lock or unlock
				if rng.IntN(2) == 0 {
					l = Label{Kind: RMW, Loc: mutex, Order: ir.OrderAcq, WVal: val, HasW: true,
						Excl: &Excl{CAS: true, Lock: true, FailOrder: ir.OrderAcq, Order: ir.OrderAcq}}
					val++
				} else {
					l = Label{Kind: Write, Loc: mutex, Order: ir.OrderRel, Unlock: true}
				}
			case 8: // a lock that reads a held mutex (a lock made it non-zero)
				l = Label{Kind: Read, Loc: mutex, Order: ir.OrderAcq,
					Excl: &Excl{CAS: true, Lock: true, FailOrder: ir.OrderAcq, Order: ir.OrderAcq}}
			}
			ev[t] = append(ev[t], l)
		}
	}
	// a failed lock needs a lock to read from: without one, the first
	// becomes a lock
	hasLock := false
	for t := range ev {
		for i := range ev[t] {
			if l := &ev[t][i]; l.Kind == RMW && l.Loc == mutex {
				hasLock = true
			}
		}
	}
	for t := range ev {
		for i := range ev[t] {
			if l := &ev[t][i]; !hasLock && l.Kind == Read && l.Loc == mutex {
				l.Kind, l.HasW, l.WVal = RMW, true, val
				val++
				hasLock = true
			}
		}
	}
	for t := range ev {
		for i := range ev[t] {
			if l := &ev[t][i]; l.isWrite() {
				writes[l.Loc] = append(writes[l.Loc], Ref{int32(t), int32(i)})
			}
		}
	}
	// nice graphs: no read of a po-later or po-overwritten write of its
	// own thread, coherence respecting program order; the others are
	// random
	nice := rng.IntN(4) > 0
	for t := range ev {
		for i := range ev[t] {
			l := &ev[t][i]
			if !l.isRead() {
				continue
			}
			var ws []Ref
			for _, w := range writes[l.Loc] {
				if nice && int(w.T) == t {
					if int(w.I) >= i {
						continue
					}
					// only the latest own write before the read
					latest := true
					for _, w2 := range writes[l.Loc] {
						if w2.T == w.T && w2.I > w.I && int(w2.I) < i {
							latest = false
						}
					}
					if !latest {
						continue
					}
				}
				if l.Loc == mutex {
					// a lock reads an unlock (or the initial write), a
					// failed lock a lock
					if wl := &ev[w.T][w.I]; wl.Unlock != (l.Kind == RMW) {
						continue
					}
				}
				if w != (Ref{int32(t), int32(i)}) {
					ws = append(ws, w)
				}
			}
			k := rng.IntN(len(ws) + 1)
			if l.Loc == mutex && l.Kind == Read && len(ws) > 0 {
				k = rng.IntN(len(ws)) // a failed lock reads a lock
			}
			if nice && rng.IntN(2) == 0 {
				k = len(ws) // the initial write
			}
			l.RF = InitRef
			if k < len(ws) {
				l.RF = ws[k]
				l.RVal = ev[l.RF.T][l.RF.I].WVal
			}
		}
	}
	co := map[int64][]Ref{}
	for loc := range writes {
		ws := append([]Ref(nil), writes[loc]...)
		rng.Shuffle(len(ws), func(a, b int) { ws[a], ws[b] = ws[b], ws[a] })
		if nice {
			// restore program order among each thread's writes
			byT := map[int32][]Ref{}
			for _, w := range writes[loc] {
				byT[w.T] = append(byT[w.T], w)
			}
			for k, w := range ws {
				ws[k] = byT[w.T][0]
				byT[w.T] = byT[w.T][1:]
			}
		}
		// RMWs usually right after their source, so that some graphs
		// are consistent
		if rng.IntN(4) > 0 {
			for k := 0; k < len(ws); k++ {
				w := ws[k]
				l := &ev[w.T][w.I]
				if l.Kind != RMW {
					continue
				}
				ws = append(ws[:k], ws[k+1:]...)
				at := 0
				if !l.RF.IsInit() {
					for j, x := range ws {
						if x == l.RF {
							at = j + 1
						}
					}
				}
				ws = append(ws[:at], append([]Ref{w}, ws[at:]...)...)
			}
		}
		if len(ws) > 0 {
			co[int64(loc)] = ws
		}
	}
	return ev, co
}

func toSeg(ev [][]Label, co map[int64][]Ref) *seg.Graph {
	g := seg.New()
	for t := range ev {
		g.AddThread(int32(t), fmt.Sprint(t), -1, seg.Init)
		for _, l := range ev[t] {
			e := seg.Event{ID: seg.EventID{T: int32(t)}, Loc: l.Loc, Order: l.Order, RVal: l.RVal, WVal: l.WVal, RF: seg.EventID(l.RF)}
			if l.RF.IsInit() {
				e.RF = seg.Init
			}
			switch {
			case l.Kind == RMW && l.Excl != nil && l.Excl.Lock:
				e.Kind = seg.KLock
			case l.Kind == Write && l.Unlock:
				e.Kind = seg.KUnlock
			case l.Kind == Read:
				e.Kind = seg.KRead
			case l.Kind == Write:
				e.Kind = seg.KWrite
			case l.Kind == RMW:
				e.Kind = seg.KRMW
			case l.Kind == Fence:
				e.Kind, e.Loc = seg.KFence, 0
			}
			g.AppendNoMO(e)
		}
	}
	for loc, ws := range co {
		for _, w := range ws {
			g.MO[loc] = append(g.MO[loc], seg.EventID(w))
		}
	}
	return g
}

// TestCheckGraphMatchesSeg: the explorer's incremental consistency checks
// decide exactly as seg's ra, rc11, tso and sc models on generated graphs
// (-trust.graphs per model, 2000 with -short); sc is what the explorer
// makes of it, rc11 with every access and fence seq_cst. Each model must
// find some graphs consistent and, but sc, to show that the graphs
// exercise what it relaxes, decide some graphs otherwise than sc.
func TestCheckGraphMatchesSeg(t *testing.T) {
	n := *checkN
	if testing.Short() {
		n = 2000
	}
	sc := seg.LookupModel("sc")
	for _, tc := range []struct {
		name string
		m    Model
	}{{"ra", RA}, {"rc11", RC11}, {"tso", TSO}, {"sc", RC11}} {
		t.Run(tc.name, func(t *testing.T) {
			sm := seg.LookupModel(tc.name)
			cons, diffs, notSC := 0, 0, 0
			for seed := 0; seed < n; seed++ {
				ev, co := genGraph(rand.New(rand.NewPCG(uint64(seed), 0x636b)))
				sg := toSeg(ev, co)
				want := sm.Check(sg) == nil
				if tc.name == "sc" {
					for t := range ev {
						for i := range ev[t] {
							if l := &ev[t][i]; l.Kind != Fence || l.Order != ir.OrderNA {
								l.Order = ir.OrderSC
							}
						}
					}
				}
				got := CheckGraph(tc.m, ev, co)
				if want {
					cons++
				}
				if want != (sc.Check(sg) == nil) {
					notSC++
				}
				if got != want {
					diffs++
					if diffs <= 5 {
						v := sm.Check(sg)
						t.Errorf("seed %d: incremental says %v, seg says %v (%v)\n%s", seed, got, want, v, sg.Key(seg.KeyOpts{Kind: seg.KeyFull}))
					}
				}
			}
			t.Logf("%d graphs, %d consistent, %d decided otherwise than by sc, %d differences", n, cons, notSC, diffs)
			if cons < n/10 || (tc.name != "sc" && notSC < n/50) {
				t.Errorf("too little variety: %d of %d generated graphs are consistent, %d decided otherwise than by sc", cons, n, notSC)
			}
		})
	}
}

// TestPSCAccessesMatchesRelations compares the pairwise psc evaluation of
// graphs without SC fences with the evaluation over relations of all
// events, on generated graphs (SC fences dropped) under rc11.
func TestPSCAccessesMatchesRelations(t *testing.T) {
	n := *checkN
	if testing.Short() {
		n = 500
	}
	compared, acyclic := 0, 0
	for seed := 0; seed < n; seed++ {
		ev, co := genGraph(rand.New(rand.NewPCG(uint64(seed), 0x7073)))
		for t := range ev {
			for i := range ev[t] {
				if l := &ev[t][i]; l.Kind == Fence && l.Order == ir.OrderSC {
					l.Order = ir.OrderAcqRel
				}
			}
		}
		g := newGraph(RC11, nil)
		g.ev, g.co = ev, co
		if !poRfAcyclic(g) {
			continue
		}
		g.rebuild()
		compared++
		a, b := pscAcyclicAccesses(g), pscAcyclicRel(g)
		if a {
			acyclic++
		}
		if a != b {
			t.Errorf("seed %d: pairwise psc says acyclic=%v, relations say %v", seed, a, b)
		}
	}
	t.Logf("%d graphs compared, %d with acyclic psc", compared, acyclic)
	if acyclic == 0 || acyclic == compared {
		t.Errorf("no variety: %d of %d acyclic", acyclic, compared)
	}
}

// poRfAcyclic reports whether po ∪ rf (∪ spawn, join) of g is acyclic,
// which computing derived views needs.
func poRfAcyclic(g *Graph) bool {
	done := make([][]bool, len(g.ev))
	for t := range g.ev {
		done[t] = make([]bool, len(g.ev[t]))
	}
	next := make([]int, len(g.ev))
	for progress := true; progress; {
		progress = false
		for t := range g.ev {
			for next[t] < len(g.ev[t]) {
				l := &g.ev[t][next[t]]
				if l.isRead() && !l.RF.IsInit() && !done[l.RF.T][l.RF.I] {
					break
				}
				if l.Kind == Join && int(l.Other) < len(g.ev) && next[l.Other] < len(g.ev[l.Other]) {
					break
				}
				done[t][next[t]] = true
				next[t]++
				progress = true
			}
		}
	}
	for t := range g.ev {
		if next[t] < len(g.ev[t]) {
			return false
		}
	}
	return true
}
