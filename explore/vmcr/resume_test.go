package vmcr

import (
	"context"
	"math/rand"
	"slices"
	"testing"
)

// TestResumable checks the schedule resumable gives a witness: it begins
// with the longest prefix of the base run's order that keeps the
// witness's conflict order.
func TestResumable(t *testing.T) {
	wx, wy := op{store: true, loc: 1, val: 1}, op{store: true, loc: 2, val: 1}
	rx, ry := op{loc: 1}, op{loc: 2}
	cases := []struct {
		name    string
		threads [][]op
		sched   []int32
		want    []int32
		same    int
	}{
		// base order: 0.0 0.1 1.0 1.1
		{"write before read moves", [][]op{{wx, ry}, {wy, rx}}, []int32{1, 0, 0, 1}, []int32{0, 1, 0, 1}, 1},
		{"already a prefix", [][]op{{wx, ry}, {wy, rx}}, []int32{0, 0}, []int32{0, 0}, 2},
		{"reads commute", [][]op{{rx}, {rx}}, []int32{1, 0}, []int32{0, 1}, 2},
		{"other locations commute", [][]op{{wx}, {wy}}, []int32{1, 0}, []int32{0, 1}, 2},
		{"conflict first", [][]op{{rx}, {wx}}, []int32{1, 0}, []int32{1, 0}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &toy{}
			for _, ops := range c.threads {
				p.threads = append(p.threads, straight(ops...))
			}
			e := &explorer{}
			base := runToy(t, p, &Witness{})
			w := &Witness{Sched: append([]int32(nil), c.sched...)}
			e.resumable(base, nil, w)
			if !slices.Equal(w.Sched, c.want) || w.Same != c.same {
				t.Fatalf("sched %v same %d, want %v same %d", w.Sched, w.Same, c.want, c.same)
			}
			if c.same > 0 && w.Base != base {
				t.Fatalf("base not set")
			}
		})
	}
}

// TestResumableSameRun runs random toy programs with random witnesses
// before and after resumable: the runs must agree step by step, and the
// new schedule must begin with the base run's order.
func TestResumableSameRun(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for k := 0; k < 3000; k++ {
		p := &toy{}
		nt := 2 + rng.Intn(2)
		lens := make([]int, nt)
		for i := 0; i < nt; i++ {
			var ops []op
			lens[i] = 1 + rng.Intn(4)
			for j := 0; j < lens[i]; j++ {
				ops = append(ops, op{store: rng.Intn(2) == 0, loc: int64(1 + rng.Intn(2)), val: int64(1 + rng.Intn(2))})
			}
			p.threads = append(p.threads, straight(ops...))
		}
		// The base: a random schedule of everything.
		base := runToy(t, p, &Witness{Sched: randomSched(rng, lens, false)})
		w := &Witness{Sched: randomSched(rng, lens, true)}
		orig := runToy(t, p, w)
		e := &explorer{}
		// The base run's witness, with a random snapshot point (0: the
		// end of its schedule), or none.
		var bw *Witness
		if rng.Intn(3) > 0 {
			bw = &Witness{Keep: rng.Intn(len(base.Order) + 1)}
			for _, r := range base.Order {
				bw.Sched = append(bw.Sched, r.T)
			}
		}
		full := &Witness{Sched: append([]int32(nil), w.Sched...)}
		(&explorer{}).rewrite(base, full)
		e.resumable(base, bw, w)
		// Without the base's snapshot point, resumable's shortcuts give
		// what the rewrite gives.
		if bw == nil && (!slices.Equal(w.Sched, full.Sched) || w.Same != full.Same) {
			t.Fatalf("program %d: resumable gives %v (same %d), the rewrite %v (same %d); base order %v", k, w.Sched, w.Same, full.Sched, full.Same, base.Order)
		}
		got := runToy(t, p, w)
		for u := range orig.Threads {
			if !slices.EqualFunc(orig.Threads[u].Steps, got.Threads[u].Steps, func(a, b Step) bool {
				return a.Op == b.Op && a.Loc == b.Loc && a.RVal == b.RVal && a.Src == b.Src && a.WVal == b.WVal
			}) {
				t.Fatalf("program %d thread %d: steps %v, after resumable %v (sched %v, base order %v)", k, u, orig.Threads[u].Steps, got.Threads[u].Steps, w.Sched, base.Order)
			}
		}
		for i := 0; i < w.Same; i++ {
			if w.Sched[i] != base.Order[i].T {
				t.Fatalf("program %d: schedule %v does not begin with the base order %v (%d steps)", k, w.Sched, base.Order, w.Same)
			}
		}
	}
}

// TestResumableShortcut checks that a witness whose schedule already
// shares with the base run's order a prefix that reaches the base run's
// snapshot point is kept as the search made it, and that one whose common
// prefix stops short of it is rewritten.
func TestResumableShortcut(t *testing.T) {
	wx, rx, ry := op{store: true, loc: 1, val: 1}, op{loc: 1}, op{loc: 2}
	// Base order (schedule 0 0 1): 0.0 (x = 1), 0.1 (read x), 1.0 (read y).
	p := &toy{threads: []func(int, []int64) *op{straight(wx, rx), straight(ry)}}
	base := runToy(t, p, &Witness{Sched: []int32{0, 0, 1}})
	cases := []struct {
		name string
		keep int // the base witness's Keep (0: the end of its schedule)
		want []int32
		same int
	}{
		// The search's schedule 0 1 0 shares one step with the base order.
		{"snapshot within the common prefix", 1, []int32{0, 1, 0}, 1},
		{"snapshot beyond it: rewritten", 2, []int32{0, 0, 1}, 3},
		{"snapshot at the end: rewritten", 0, []int32{0, 0, 1}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &explorer{}
			w := &Witness{Sched: []int32{0, 1, 0}}
			e.resumable(base, &Witness{Sched: []int32{0, 0, 1}, Keep: c.keep}, w)
			if !slices.Equal(w.Sched, c.want) || w.Same != c.same || w.Base != base {
				t.Fatalf("sched %v same %d, want %v same %d (base set: %v)", w.Sched, w.Same, c.want, c.same, w.Base == base)
			}
		})
	}
}

func runToy(t *testing.T, p *toy, w *Witness) *Trace {
	t.Helper()
	tr, err := p.Run(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	tr.prepare(&locIDs{}, &spareTables{})
	return tr
}

// randomSched interleaves the threads' steps at random: all of them, or
// (part) a random prefix of each thread.
func randomSched(rng *rand.Rand, lens []int, part bool) []int32 {
	left := append([]int(nil), lens...)
	if part {
		for i := range left {
			left[i] = rng.Intn(left[i] + 1)
		}
	}
	var s []int32
	for {
		var ready []int
		for i, n := range left {
			if n > 0 {
				ready = append(ready, i)
			}
		}
		if len(ready) == 0 {
			return s
		}
		i := ready[rng.Intn(len(ready))]
		s = append(s, int32(i))
		left[i]--
	}
}
