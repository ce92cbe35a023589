package vmcrz3_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"ncmc/explore/vmcr"
	"ncmc/explore/vmcrz3"
)

// randQuery is a small random query: up to 3 threads of up to 3 steps
// over 2 locations, with spawns, After edges, joins, store forwarding,
// blocked steps, finals and sometimes a failing step.
func randQuery(rng *rand.Rand) *vmcr.Query {
	nt := 1 + rng.IntN(3)
	q := &vmcr.Query{Threads: make([]vmcr.QThread, nt), Fail: -1, Locs: 2}
	for t := range q.Threads {
		th := &q.Threads[t]
		th.Spawn = vmcr.Init
		th.Steps = make([]vmcr.QStep, rng.IntN(4))
		if t > 0 && rng.IntN(2) == 0 && len(q.Threads[0].Steps) > 0 {
			th.Spawn = vmcr.Ref{T: 0, I: int32(rng.IntN(len(q.Threads[0].Steps)))}
		}
		th.Need = rng.IntN(len(th.Steps) + 1)
		for i := range th.Steps {
			st := &th.Steps[i]
			st.Join = -1
			st.Loc = int32(rng.IntN(2))
			switch rng.IntN(4) {
			case 0:
				st.Write = true
			case 1:
				st.Read = true
			case 2:
				st.Read, st.Write = true, true // an RMW
			default:
				st.Loc = -1
			}
			st.Blocked = rng.IntN(12) == 0
		}
	}
	ref := func() vmcr.Ref {
		t := rng.IntN(nt)
		if n := len(q.Threads[t].Steps); n > 0 {
			return vmcr.Ref{T: int32(t), I: int32(rng.IntN(n))}
		}
		return vmcr.Init
	}
	writes := func(l int32) []vmcr.Ref {
		ws := []vmcr.Ref{vmcr.Init}
		for t := range q.Threads {
			for i, st := range q.Threads[t].Steps {
				if st.Write && st.Loc == l {
					ws = append(ws, vmcr.Ref{T: int32(t), I: int32(i)})
				}
			}
		}
		return ws
	}
	for t := range q.Threads {
		for i := range q.Threads[t].Steps {
			st := &q.Threads[t].Steps[i]
			if rng.IntN(4) == 0 {
				if a := ref(); a.T >= 0 && int(a.T) != t {
					st.After = []vmcr.Ref{a}
				}
			}
			if st.Loc < 0 && t == 0 && nt > 1 && rng.IntN(2) == 0 {
				st.Join = int32(1 + rng.IntN(nt-1))
			}
			if !st.Read {
				continue
			}
			ws := writes(st.Loc)
			for _, w := range ws {
				if rng.IntN(2) == 0 {
					st.Accept = append(st.Accept, w)
				}
			}
			if rng.IntN(5) == 0 && len(ws) > 1 {
				st.Own, st.HasOwn = ws[1+rng.IntN(len(ws)-1)], true
			}
		}
	}
	for l := int32(0); l < 2; l++ {
		if rng.IntN(3) == 0 {
			f := vmcr.QFinal{Loc: l}
			for _, w := range writes(l) {
				if rng.IntN(2) == 0 {
					f.Accept = append(f.Accept, w)
				}
			}
			q.Finals = append(q.Finals, f)
		}
	}
	if rng.IntN(4) == 0 {
		q.Fail = rng.IntN(nt)
		q.Threads[q.Fail].Need = len(q.Threads[q.Fail].Steps)
	}
	return q
}

// bruteForce reports whether some schedule of q's steps answers q
// (Query.Replay), trying every sequence of thread numbers.
func bruteForce(q *vmcr.Query) bool {
	pos := make([]int, len(q.Threads))
	var sched []int32
	var try func() bool
	try = func() bool {
		if q.Replay(sched) == nil {
			return true
		}
		for t := range q.Threads {
			if pos[t] < len(q.Threads[t].Steps) {
				pos[t]++
				sched = append(sched, int32(t))
				if try() {
					return true
				}
				sched = sched[:len(sched)-1]
				pos[t]--
			}
		}
		return false
	}
	return try()
}

// TestDecideBruteForce: on 600 random queries Z3's answer is the brute
// force's (every sequence replayed), and every Z3 schedule replays.
func TestDecideBruteForce(t *testing.T) {
	o := vmcrz3.New(vmcrz3.Options{DisableFastPath: true})
	defer o.Close()
	rng := rand.New(rand.NewPCG(17, 1))
	sat := 0
	for k := 0; k < 600; k++ {
		q := randQuery(rng)
		want := bruteForce(q)
		v, sched, err := o.Decide(context.Background(), q)
		if err != nil {
			t.Fatalf("query %d: %v", k, err)
		}
		if (v == vmcr.Sat) != want || v == vmcr.Unknown {
			t.Fatalf("query %d: Z3 %s, brute force sat=%v\n%s", k, v, want, dump(q))
		}
		if v == vmcr.Sat {
			sat++
			if err := q.Replay(sched); err != nil {
				t.Fatalf("query %d: Z3's schedule %v fails replay: %v\n%s", k, sched, err, dump(q))
			}
		}
	}
	if sat < 100 || sat > 500 {
		t.Errorf("%d of 600 random queries sat: the generator is lopsided", sat)
	}
	t.Logf("600 random queries, %d sat", sat)
}

func dump(q *vmcr.Query) string {
	s := fmt.Sprintf("fail %d, finals %+v\n", q.Fail, q.Finals)
	for t, th := range q.Threads {
		s += fmt.Sprintf("thread %d spawn %v need %d\n", t, th.Spawn, th.Need)
		for i, st := range th.Steps {
			s += fmt.Sprintf("  %d: %+v\n", i, st)
		}
	}
	return s
}

// TestDecideCancelled: a cancelled context ends Decide with its error.
func TestDecideCancelled(t *testing.T) {
	o := vmcrz3.New(vmcrz3.Options{})
	defer o.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := &vmcr.Query{Threads: []vmcr.QThread{{Spawn: vmcr.Init, Need: 1, Steps: []vmcr.QStep{{Loc: 0, Write: true, Join: -1}}}}, Fail: -1, Locs: 1}
	v, _, err := o.Decide(ctx, q)
	if v != vmcr.Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("Decide with a cancelled context: %s, %v", v, err)
	}
}
