package vmcr

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// prober is a toy thread that inserts vals into a table at locations
// 1..size by CAS from 0, starting at slot hs[k] for vals[k] and probing
// the next slot while the CAS fails (GenMC's indexer, at most size
// probes per value).
func prober(vals, hs []int64, size int64) func(int, []int64) *op {
	return func(_ int, read []int64) *op {
		k, h, probes := 0, hs[0], int64(0)
		for _, v := range read {
			if v == 0 || probes+1 == size {
				k++
				if k == len(vals) {
					return nil
				}
				h, probes = hs[k], 0
				continue
			}
			h, probes = (h+1)%size, probes+1
		}
		return &op{cas: true, loc: 1 + h, exp: 0, val: vals[k]}
	}
}

// bruteClasses counts the classes of a toy program by running every
// interleaving (states seen before are skipped): per thread the values it
// read, and the final values of the observed locations (ids 1..8).
func bruteClasses(threads []func(int, []int64) *op, observed []int64) int {
	n := len(threads)
	seen := map[string]bool{}
	visited := map[string]bool{} // states explored (their classes are found once)
	var rec func(reads [][]int64, steps []int, mem map[int64]int64)
	rec = func(reads [][]int64, steps []int, mem map[int64]int64) {
		state := fmt.Sprint(reads, steps)
		for l := int64(0); l <= 8; l++ {
			state += fmt.Sprintf(" %d", mem[l])
		}
		if visited[state] {
			return
		}
		visited[state] = true
		moved := false
		for t := 0; t < n; t++ {
			o := threads[t](steps[t], reads[t])
			if o == nil {
				continue
			}
			moved = true
			r2 := append([][]int64(nil), reads...)
			s2 := append([]int(nil), steps...)
			m2 := map[int64]int64{}
			for k, v := range mem {
				m2[k] = v
			}
			s2[t]++
			switch {
			case o.store:
				m2[o.loc] = o.val
			default:
				v := mem[o.loc]
				r2[t] = append(append([]int64(nil), reads[t]...), v)
				if o.cas && v == o.exp {
					m2[o.loc] = o.val
				}
			}
			rec(r2, s2, m2)
		}
		if !moved {
			key := fmt.Sprint(reads)
			for _, l := range observed {
				key += fmt.Sprintf(" %d", mem[l])
			}
			seen[key] = true
		}
	}
	rec(make([][]int64, n), make([]int, n), map[int64]int64{})
	return len(seen)
}

// TestBlockedMarksBruteForce explores random indexer-shaped toy programs
// (CAS inserts with linear probing into a small table, sometimes with a
// plain writer or reader of a slot) and compares the leaves with the
// classes of every interleaving: one leaf per class, none lost, none
// doubled, with one and with three workers (the same nodes and runs),
// and with Options.check (the marks skipped down a chain of frames are
// recomputed). The blocked-read rule (docs/vmcr.md, "Blocked reads do not
// make backtrack points") must withhold marks on some of them.
func TestBlockedMarksBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	unmarked, hit := 0, 0
	for k := 0; k < 300; k++ {
		size := int64(2 + rng.Intn(3))
		nt := 2 + rng.Intn(2)
		var threads []func(int, []int64) *op
		for i := 0; i < nt; i++ {
			ins := 1 + rng.Intn(2)
			var vals, hs []int64
			for j := 0; j < ins; j++ {
				vals = append(vals, 1+rng.Int63n(4))
				hs = append(hs, rng.Int63n(size))
			}
			threads = append(threads, prober(vals, hs, size))
		}
		switch rng.Intn(6) {
		case 0:
			threads = append(threads, straight(op{store: true, loc: 1 + rng.Int63n(size), val: 7}))
		case 1:
			threads = append(threads, straight(op{loc: 1 + rng.Int63n(size)}, op{loc: 1 + rng.Int63n(size)}))
		case 2:
			// a slot emptied again: CAS inserts can succeed after a
			// negative annotation
			l := 1 + rng.Int63n(size)
			threads = append(threads, straight(op{store: true, loc: l, val: 7}, op{store: true, loc: l, val: 0}))
		case 3:
			// a CAS that empties a slot holding a value
			l := 1 + rng.Int63n(size)
			threads = append(threads, straight(op{cas: true, loc: l, exp: 1 + rng.Int63n(4), val: 0}))
		}
		var observed []int64
		for l := int64(1); l <= size; l++ {
			observed = append(observed, l)
		}
		want := bruteClasses(threads, observed)
		var fp string
		for _, workers := range []int{1, 3} {
			keys := map[string]bool{}
			leaves := 0
			var ck *incrCheck
			if workers == 1 {
				ck = &incrCheck{}
			}
			st, err := Explore(context.Background(), &toy{threads: threads}, Options{Observed: observed, Workers: workers, check: ck,
				Leaf: func(tr *Trace) bool {
					leaves++
					var rs [][]int64
					for _, th := range tr.Threads {
						var vs []int64
						for _, s := range th.Steps {
							if s.Op.IsRead() {
								vs = append(vs, s.RVal)
							}
						}
						rs = append(rs, vs)
					}
					fin := map[int64]int64{}
					for _, r := range tr.Order {
						if s := tr.Threads[r.T].Steps[r.I]; s.Wrote {
							fin[s.Loc] = s.WVal
						}
					}
					key := fmt.Sprint(rs)
					for _, l := range observed {
						key += fmt.Sprintf(" %d", fin[l])
					}
					keys[key] = true
					return false
				}})
			if err != nil {
				t.Fatalf("program %d, %d workers: %v", k, workers, err)
			}
			if leaves != want || len(keys) != want {
				t.Fatalf("program %d, %d workers: %d leaves (%d classes among them), want %d classes (stats %+v)", k, workers, leaves, len(keys), want, st)
			}
			if f := fmt.Sprintf("nodes %d runs %d", st.Nodes, st.Runs); fp == "" {
				fp = f
			} else if f != fp {
				t.Fatalf("program %d: %s with %d workers, %s with one", k, f, workers, fp)
			}
			if workers == 1 {
				unmarked += st.Unmarked
				if st.Unmarked > 0 {
					hit++
				}
			}
		}
	}
	t.Logf("the blocked-read rule withheld %d marks on %d of 300 programs", unmarked, hit)
	if hit == 0 {
		t.Fatal("the blocked-read rule never withheld a mark")
	}
}
