package vmcr

import (
	"context"
	"math/rand"
	"testing"
)

// TestIncrementalBookkeeping explores random toy programs with
// Options.check: every partial trace derived from a parent's, every
// candidate list carried over, every deadEnd hint and every skipped mark
// is compared with its computation from the start. The threads branch on
// the values they read (each nonzero value read skips an instruction), so
// that rests differ between runs.
func TestIncrementalBookkeeping(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var total incrCheck
	for k := 0; k < 150; k++ {
		p := &toy{}
		nt := 2 + rng.Intn(3)
		for i := 0; i < nt; i++ {
			var ops []op
			for j := 2 + rng.Intn(5); j > 0; j-- {
				ops = append(ops, op{store: rng.Intn(2) == 0, loc: int64(1 + rng.Intn(3)), val: int64(rng.Intn(3))})
			}
			p.threads = append(p.threads, skipping(ops))
		}
		ck := &incrCheck{}
		leaves := 0
		_, err := Explore(context.Background(), p, Options{Observed: []int64{1, 2, 3}, Workers: 1, check: ck,
			Leaf: func(*Trace) bool { leaves++; return false }})
		if err != nil {
			t.Fatalf("program %d: %v", k, err)
		}
		if leaves == 0 {
			t.Fatalf("program %d: no leaf", k)
		}
		total.parts += ck.parts
		total.cands += ck.cands
		total.hints += ck.hints
		total.skips += ck.skips
	}
	t.Logf("checked: %+v", total)
	if total.parts == 0 || total.cands == 0 || total.hints == 0 || total.skips == 0 {
		t.Fatalf("some incremental results were never checked: %+v", total)
	}
}

// skipping is a toy thread that runs ops in order, skipping one
// instruction after each nonzero value it reads.
func skipping(ops []op) func(int, []int64) *op {
	return func(steps int, read []int64) *op {
		i := steps
		for _, v := range read {
			if v != 0 {
				i++
			}
		}
		if i < len(ops) {
			return &ops[i]
		}
		return nil
	}
}
