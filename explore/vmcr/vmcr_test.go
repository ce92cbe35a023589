package vmcr

import (
	"context"
	"fmt"
	"sort"
	"testing"
)

// op is one instruction of a toy thread: a store of a constant, a load,
// or (cas) a compare-and-swap that writes val when loc holds exp.
type op struct {
	store bool
	loc   int64
	val   int64
	cas   bool
	exp   int64
}

// toy is a program of threads, each a function from its steps taken and
// the values it read to its next instruction (nil: it ends).
type toy struct {
	threads []func(steps int, read []int64) *op
}

// Run runs a witness on the toy program: the schedule, then the lowest
// thread that can move.
func (p *toy) Run(_ context.Context, w *Witness) (*Trace, error) {
	n := len(p.threads)
	tr := &Trace{Threads: make([]Thread, n), InitVal: map[int64]int64{}}
	mem := map[int64]Ref{}
	val := map[int64]int64{}
	reads := make([][]int64, n)
	step := func(t int) bool {
		o := p.threads[t](len(tr.Threads[t].Steps), reads[t])
		if o == nil {
			return false
		}
		r := Ref{int32(t), int32(len(tr.Threads[t].Steps))}
		st := Step{Loc: o.loc}
		switch {
		case o.store:
			st.Op, st.WVal, st.Wrote = OpWrite, o.val, true
			mem[o.loc], val[o.loc] = r, o.val
		case o.cas:
			src, ok := mem[o.loc]
			if !ok {
				src = Init
			}
			exp, nv := o.exp, o.val
			st.Op, st.RVal, st.Src = OpRMW, val[o.loc], src
			st.WriteFor = func(v int64) (bool, int64) { return v == exp, nv }
			reads[t] = append(reads[t], val[o.loc])
			if val[o.loc] == exp {
				st.Wrote, st.WVal = true, nv
				mem[o.loc], val[o.loc] = r, nv
			}
		default:
			src, ok := mem[o.loc]
			if !ok {
				src = Init
			}
			st.Op, st.RVal, st.Src = OpRead, val[o.loc], src
			reads[t] = append(reads[t], val[o.loc])
		}
		tr.Threads[t].Steps = append(tr.Threads[t].Steps, st)
		tr.Order = append(tr.Order, r)
		return true
	}
	for _, t := range w.Sched {
		if !step(int(t)) {
			return nil, fmt.Errorf("witness step of finished thread %d", t)
		}
	}
	for moved := true; moved; {
		moved = false
		for t := 0; t < n && !moved; t++ {
			moved = step(t)
		}
	}
	for t := range tr.Threads {
		tr.Threads[t].Spawn = Init
		tr.Threads[t].End = EndDone
	}
	return tr, nil
}

// straight is a straight-line toy thread.
func straight(ops ...op) func(int, []int64) *op {
	return func(steps int, _ []int64) *op {
		if steps < len(ops) {
			return &ops[steps]
		}
		return nil
	}
}

// Explore reports one leaf per class of values read and final values on
// small programs whose classes are counted by hand.
func TestExploreClasses(t *testing.T) {
	x, y := int64(1), int64(2)
	st := func(l, v int64) op { return op{store: true, loc: l, val: v} }
	ld := func(l int64) op { return op{loc: l} }
	tests := []struct {
		name    string
		threads []func(int, []int64) *op
		leaves  []string
	}{
		{"store buffering", []func(int, []int64) *op{
			straight(st(x, 1), ld(y)),
			straight(st(y, 1), ld(x)),
		}, []string{"[0] [1] x=1 y=1", "[1] [0] x=1 y=1", "[1] [1] x=1 y=1"}},
		{"two writers, final values", []func(int, []int64) *op{
			straight(st(x, 1)),
			straight(st(x, 2)),
		}, []string{"[] [] x=1 y=0", "[] [] x=2 y=0"}},
		{"equal values from two writers", []func(int, []int64) *op{
			straight(st(x, 1)),
			straight(st(x, 1)),
			straight(ld(x)),
		}, []string{"[] [] [0] x=1 y=0", "[] [] [1] x=1 y=0"}},
		{"a write only when a read saw 1", []func(int, []int64) *op{
			straight(st(x, 1)),
			func(steps int, read []int64) *op {
				switch {
				case steps == 0:
					return &op{loc: x}
				case steps == 1 && read[0] == 1:
					return &op{store: true, loc: y, val: 1}
				}
				return nil
			},
			straight(ld(y), ld(x)),
		}, []string{
			"[] [0] [0 0] x=1 y=0", "[] [0] [0 1] x=1 y=0",
			"[] [1] [0 0] x=1 y=1", "[] [1] [0 1] x=1 y=1", "[] [1] [1 1] x=1 y=1",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			leaf := func(tr *Trace) bool {
				s := ""
				for _, th := range tr.Threads {
					vs := []int64{}
					for _, st := range th.Steps {
						if st.Op == OpRead {
							vs = append(vs, st.RVal)
						}
					}
					s += fmt.Sprint(vs) + " "
				}
				fin := map[int64]int64{}
				for _, r := range tr.Order {
					if st := tr.Threads[r.T].Steps[r.I]; st.Wrote {
						fin[st.Loc] = st.WVal
					}
				}
				got = append(got, s+fmt.Sprintf("x=%d y=%d", fin[x], fin[y]))
				return false
			}
			stats, err := Explore(context.Background(), &toy{threads: tc.threads}, Options{Observed: []int64{x, y}, Leaf: leaf})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got)
			if fmt.Sprint(got) != fmt.Sprint(tc.leaves) {
				t.Errorf("leaves %q,\nwant %q (stats %+v)", got, tc.leaves, stats)
			}
		})
	}
}

// A parallel exploration reports the leaves of the sequential one in the
// same order, with any number of workers, also when streams fill up and
// their goroutines wait, and stops at the same leaf.
func TestExploreWorkersOrder(t *testing.T) {
	x, y, z := int64(1), int64(2), int64(3)
	st := func(l, v int64) op { return op{store: true, loc: l, val: v} }
	ld := func(l int64) op { return op{loc: l} }
	threads := []func(int, []int64) *op{
		straight(st(x, 1), ld(y), st(z, 1), ld(x)),
		straight(st(y, 1), ld(x), st(z, 2), ld(y)),
		straight(ld(x), ld(y), ld(z), st(x, 2)),
		straight(st(y, 2), ld(z), ld(x)),
	}
	key := func(tr *Trace) string {
		s := ""
		for _, th := range tr.Threads {
			for _, st := range th.Steps {
				if st.Op == OpRead {
					s += fmt.Sprint(st.RVal)
				}
			}
			s += "|"
		}
		return s
	}
	run := func(workers, buf, stopAt int) ([]string, Stats) {
		var got []string
		leaf := func(tr *Trace) bool {
			got = append(got, tr.Payload.(string))
			return stopAt > 0 && len(got) == stopAt
		}
		stats, err := Explore(context.Background(), &toy{threads: threads}, Options{Observed: []int64{x, y, z}, Leaf: leaf,
			Summary: func(tr *Trace) any { return key(tr) }, Workers: workers, maxBuffered: buf})
		if err != nil {
			t.Fatal(err)
		}
		return got, stats
	}
	want, wantStats := run(1, 0, 0)
	testFoldOrder(t, threads, []int64{x, y, z}, key, want)
	if len(want) < 50 {
		t.Fatalf("only %d leaves: the test needs a bigger program", len(want))
	}
	for _, stopAt := range []int{0, 17} {
		for _, w := range []int{2, 4} {
			for _, buf := range []int{1, 5, 0} {
				for rep := 0; rep < 2; rep++ {
					got, stats := run(w, buf, stopAt)
					exp := want
					if stopAt > 0 {
						exp = want[:stopAt]
					}
					if fmt.Sprint(got) != fmt.Sprint(exp) {
						t.Fatalf("%d workers, buffer %d, stop at %d: leaves\n%q,\nwant\n%q", w, buf, stopAt, got, exp)
					}
					if stopAt == 0 && stats != wantStats {
						t.Fatalf("%d workers, buffer %d: stats %+v, want %+v", w, buf, stats, wantStats)
					}
				}
			}
		}
	}
}

// testFoldOrder checks Options.Fold on the program of
// TestExploreWorkersOrder: leaves whose key starts with an even digit fold
// into a waiting leaf before them that folds too; the keys Leaf sees,
// each folded leaf's in order, are the sequential search's (want), and
// with several workers some leaves fold.
func testFoldOrder(t *testing.T, threads []func(int, []int64) *op, observed []int64, key func(*Trace) string, want []string) {
	t.Helper()
	type folded struct{ keys []string }
	even := func(k string) bool { return (k[0]-'0')%2 == 0 }
	for _, w := range []int{1, 2, 4} {
		for _, buf := range []int{1, 5, 0} {
			var got []string
			folds, leaves := 0, 0
			opts := Options{Observed: observed, Workers: w, maxBuffered: buf,
				Summary: func(tr *Trace) any { return &folded{keys: []string{key(tr)}} },
				Leaf: func(tr *Trace) bool {
					leaves++
					got = append(got, tr.Payload.(*folded).keys...)
					return false
				},
				Fold: func(prev, cur any) bool {
					p, c := prev.(*folded), cur.(*folded)
					if !even(p.keys[0]) || !even(c.keys[0]) {
						return false
					}
					p.keys = append(p.keys, c.keys...)
					folds++
					return true
				}}
			if _, err := Explore(context.Background(), &toy{threads: threads}, opts); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("fold, %d workers, buffer %d: leaves\n%q,\nwant\n%q", w, buf, got, want)
			}
			if leaves+folds != len(want) {
				t.Fatalf("fold, %d workers, buffer %d: %d leaves and %d folds for %d executions", w, buf, leaves, folds, len(want))
			}
			if w == 1 && folds > 0 {
				t.Fatalf("fold, one worker: %d folds (every leaf is handed over at once)", folds)
			}
			t.Logf("%d workers, buffer %d: %d folds", w, buf, folds)
		}
	}
}
