package seg

import (
	"fmt"
	"math/rand"
	"testing"

	"ncmc/ir"
)

// scRandomGraph builds the graph of a random sequentially consistent run of
// threads×perThread events over locs locations with random memory orders
// (reads from the latest write, mo = execution order). It is consistent
// under every model.
func scRandomGraph(seed int64, threads, perThread, locs int) *Graph {
	rng := rand.New(rand.NewSource(seed))
	g := New()
	for t := 0; t < threads; t++ {
		g.AddThread(int32(t), fmt.Sprint(t), -1, Init)
	}
	last := map[int64]EventID{}
	val := map[int64]int64{}
	orders := []ir.Order{ir.OrderNA, ir.OrderRlx, ir.OrderAcq, ir.OrderRel, ir.OrderAcqRel, ir.OrderSC}
	left := make([]int, threads)
	for i := range left {
		left[i] = perThread
	}
	for n := threads * perThread; n > 0; n-- {
		t := rng.Intn(threads)
		for left[t] == 0 {
			t = (t + 1) % threads
		}
		left[t]--
		loc := ir.MakePtr(1+rng.Intn(locs), 0)
		o := orders[1+rng.Intn(len(orders)-1)] // atomics, so the graph has no races
		src, ok := last[loc]
		if !ok {
			src = Init
		}
		e := Event{ID: EventID{T: int32(t)}, Loc: loc, Order: o, RF: src, RVal: val[loc]}
		switch k := rng.Intn(10); {
		case k < 4:
			e.Kind = KRead
		case k < 8:
			e.Kind = KWrite
			e.WVal = int64(n)
		case k < 9:
			e.Kind = KRMW
			e.WVal = int64(n)
		default:
			e.Kind = KFence
			e.Loc = 0
		}
		id := g.Append(e)
		if e.Kind.IsWrite() {
			last[loc], val[loc] = id, e.WVal
		}
	}
	return g
}

func TestRandomSCGraphsConsistent(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		g := scRandomGraph(seed, 4, 15, 3)
		for _, mn := range ModelNames() {
			if v := LookupModel(mn).Check(g); v != nil {
				t.Fatalf("seed %d: SC run inconsistent under %s: %v", seed, mn, v)
			}
		}
		if r := Races(g); len(r) != 0 {
			t.Fatalf("seed %d: races in an all-atomic graph: %v", seed, r)
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	for _, size := range []struct{ threads, per int }{{4, 10}, {4, 75}, {8, 50}} {
		g := scRandomGraph(1, size.threads, size.per, 8)
		for _, mn := range ModelNames() {
			m := LookupModel(mn)
			b.Run(fmt.Sprintf("%s/%dev", mn, g.NumEvents()), func(b *testing.B) {
				for b.Loop() {
					if v := m.Check(g); v != nil {
						b.Fatal(v)
					}
				}
			})
		}
	}
}

func BenchmarkRaces(b *testing.B) {
	g := scRandomGraph(1, 4, 75, 8)
	for b.Loop() {
		Races(g)
	}
}

func BenchmarkKey(b *testing.B) {
	g := scRandomGraph(1, 4, 75, 8)
	for b.Loop() {
		g.Key(KeyOpts{})
	}
}
