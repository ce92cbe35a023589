package seg

import (
	"fmt"
	"strings"
	"testing"

	"ncmc/ir"
)

// vs parses "sc- tso+ ra+" into verdicts (+ allowed, - forbidden).
func vs(s string) verdicts {
	out := verdicts{}
	for _, f := range strings.Fields(s) {
		out[f[:len(f)-1]] = f[len(f)-1] == '+'
	}
	return out
}

// Classic litmus shapes built by hand, each in the execution that shows the
// interesting outcome, with the verdict per model. The expectations come
// from herd7 (bench/litmus/expected.csv) where it has a row, and from the
// model definitions (PSO; fence variants) otherwise.
func TestLitmusShapes(t *testing.T) {
	type tc struct {
		name  string
		build func() *Graph
		want  string
	}
	sb := func(ow, or ir.Order, fence ir.Order) func() *Graph {
		return func() *Graph {
			b := newGB(2)
			b.W(0, "x", 1, ow)
			if fence != na {
				b.F(0, fence)
			}
			b.R(0, "y", Init, or)
			b.W(1, "y", 1, ow)
			if fence != na {
				b.F(1, fence)
			}
			b.R(1, "x", Init, or)
			return b.g
		}
	}
	mp := func(ow1, ow2, or1, or2 ir.Order, relF, acqF ir.Order) func() *Graph {
		return func() *Graph {
			b := newGB(2)
			b.W(0, "x", 1, ow1)
			if relF != na {
				b.F(0, relF)
			}
			wy := b.W(0, "y", 1, ow2)
			b.R(1, "y", wy, or1)
			if acqF != na {
				b.F(1, acqF)
			}
			b.R(1, "x", Init, or2)
			return b.g
		}
	}
	lb := func(o ir.Order) func() *Graph {
		return func() *Graph {
			b := newGB(2)
			// T0: r0 = x (1, from T1's write); y = 1. T1: r0 = y (1); x = 1.
			b.Rv(0, "x", EventID{1, 1}, 1, o)
			b.W(0, "y", 1, o)
			b.Rv(1, "y", EventID{0, 1}, 1, o)
			b.W(1, "x", 1, o)
			return b.g
		}
	}
	iriw := func(ow, or ir.Order, fence ir.Order) func() *Graph {
		return func() *Graph {
			b := newGB(4)
			wx := b.W(0, "x", 1, ow)
			wy := b.W(1, "y", 1, ow)
			b.R(2, "x", wx, or)
			if fence != na {
				b.F(2, fence)
			}
			b.R(2, "y", Init, or)
			b.R(3, "y", wy, or)
			if fence != na {
				b.F(3, fence)
			}
			b.R(3, "x", Init, or)
			return b.g
		}
	}
	twoPlusTwoW := func(o ir.Order) func() *Graph {
		return func() *Graph {
			b := newGB(2)
			a := b.W(0, "x", 1, o)
			bb := b.W(0, "y", 2, o)
			c := b.W(1, "y", 1, o)
			d := b.W(1, "x", 2, o)
			b.mo("x", d, a) // final x = 1
			b.mo("y", bb, c)
			return b.g
		}
	}
	cases := []tc{
		{"SB+rlx", sb(rlx, rlx, na), "sc- tso+ pso+ ra+ rc11+"},
		{"SB+na", sb(na, na, na), "sc- tso+ pso+ ra+ rc11+"},
		{"SB+sc", sb(sc, sc, na), "sc- tso+ pso+ ra+ rc11-"},
		{"SB+rlx+scfences", sb(rlx, rlx, sc), "sc- tso- pso- ra- rc11-"},
		{"SB+rlx+acqrelfences", sb(rlx, rlx, ar), "sc- tso+ pso+ ra+ rc11+"},
		{"MP+rlx", mp(rlx, rlx, rlx, rlx, na, na), "sc- tso- pso+ ra- rc11+"},
		{"MP+ra", mp(rlx, rel, acq, rlx, na, na), "sc- tso- pso+ ra- rc11-"},
		{"MP+sc", mp(sc, sc, sc, sc, na, na), "sc- tso- pso+ ra- rc11-"},
		{"MP+rel+rlx", mp(rlx, rel, rlx, rlx, na, na), "sc- tso- ra- rc11+"},
		{"MP+rlx+acq", mp(rlx, rlx, acq, rlx, na, na), "sc- tso- ra- rc11+"},
		{"MP+relfence+acqfence", mp(rlx, rlx, rlx, rlx, rel, acq), "sc- tso- pso+ rc11-"},
		{"MP+relfence+rlx", mp(rlx, rlx, rlx, rlx, rel, na), "sc- tso- pso+ rc11+"},
		{"MP+scfences", mp(rlx, rlx, rlx, rlx, sc, sc), "sc- tso- pso- rc11-"},
		{"LB+rlx", lb(rlx), "sc- tso- pso- ra- rc11-"},
		{"IRIW+rlx", iriw(rlx, rlx, na), "sc- tso- pso- ra+ rc11+"},
		{"IRIW+ra", iriw(rel, acq, na), "sc- tso- pso- ra+ rc11+"},
		{"IRIW+sc", iriw(sc, sc, na), "sc- tso- pso- ra+ rc11-"},
		{"IRIW+rlx+scfences", iriw(rlx, rlx, sc), "sc- tso- pso- ra- rc11-"},
		{"IRIW+rlx+acqrelfences", iriw(rlx, rlx, ar), "sc- tso- pso- rc11+"},
		{"2+2W+rlx", twoPlusTwoW(rlx), "sc- tso- pso+ ra+ rc11+"},
		{"2+2W+sc", twoPlusTwoW(sc), "sc- tso- pso+ ra+ rc11-"},
		{"CoRR+rlx", func() *Graph {
			b := newGB(2)
			w := b.W(0, "x", 1, rlx)
			b.R(1, "x", w, rlx)
			b.R(1, "x", Init, rlx)
			return b.g
		}, "sc- tso- pso- ra- rc11-"},
		{"CoRR+rlx ok", func() *Graph {
			b := newGB(2)
			w := b.W(0, "x", 1, rlx)
			b.R(1, "x", Init, rlx)
			b.R(1, "x", w, rlx)
			return b.g
		}, "sc+ tso+ pso+ ra+ rc11+"},
		{"CoWR", func() *Graph {
			b := newGB(2)
			b.W(0, "x", 1, rlx)
			b.Rv(0, "x", EventID{1, 0}, 2, rlx)
			w2 := b.W(1, "x", 2, rlx)
			b.mo("x", w2, EventID{0, 0})
			return b.g
		}, "sc- tso- pso- ra- rc11-"},
		{"CoWW", func() *Graph {
			b := newGB(1)
			a := b.W(0, "x", 1, rlx)
			c := b.W(0, "x", 2, rlx)
			b.mo("x", c, a)
			return b.g
		}, "sc- tso- pso- ra- rc11-"},
		{"R+sc", func() *Graph {
			b := newGB(2)
			b.W(0, "x", 1, sc)
			wy1 := b.W(0, "y", 1, sc)
			wy2 := b.W(1, "y", 2, sc)
			b.R(1, "x", Init, sc)
			b.mo("y", wy1, wy2)
			return b.g
		}, "sc- tso+ pso+ ra+ rc11-"},
		{"S+ra", func() *Graph {
			b := newGB(2)
			wx2 := b.W(0, "x", 2, rlx)
			wy := b.W(0, "y", 1, rel)
			b.R(1, "y", wy, acq)
			wx1 := b.W(1, "x", 1, rlx)
			b.mo("x", wx1, wx2)
			return b.g
		}, "sc- tso- pso+ ra- rc11-"},
		{"WRC+rlx+rel+acq", func() *Graph {
			b := newGB(3)
			wx := b.W(0, "x", 1, rlx)
			b.R(1, "x", wx, rlx)
			wy := b.W(1, "y", 1, rel)
			b.R(2, "y", wy, acq)
			b.R(2, "x", Init, rlx)
			return b.g
		}, "sc- tso- pso- ra- rc11-"},
		{"WRC+rlx", func() *Graph {
			b := newGB(3)
			wx := b.W(0, "x", 1, rlx)
			b.R(1, "x", wx, rlx)
			wy := b.W(1, "y", 1, rlx)
			b.R(2, "y", wy, rlx)
			b.R(2, "x", Init, rlx)
			return b.g
		}, "sc- tso- pso- ra- rc11+"},
		{"ISA2+ra", func() *Graph {
			b := newGB(3)
			b.W(0, "x", 1, rlx)
			wy := b.W(0, "y", 1, rel)
			b.R(1, "y", wy, acq)
			wz := b.W(1, "z", 1, rel)
			b.R(2, "z", wz, acq)
			b.R(2, "x", Init, rlx)
			return b.g
		}, "sc- tso- pso+ ra- rc11-"},
		{"RWC+ra", func() *Graph {
			b := newGB(3)
			wx := b.W(0, "x", 1, rel)
			b.R(1, "x", wx, acq)
			b.R(1, "y", Init, acq)
			b.W(2, "y", 1, rel)
			b.R(2, "x", Init, acq)
			return b.g
		}, "sc- tso+ pso+ ra+ rc11+"},
		{"WWC+rlx", func() *Graph {
			b := newGB(3)
			wx2 := b.W(0, "x", 2, rlx)
			b.R(1, "x", wx2, rlx)
			wy := b.W(1, "y", 1, rlx)
			b.R(2, "y", wy, rlx)
			wx1 := b.W(2, "x", 1, rlx)
			b.mo("x", wx1, wx2)
			return b.g
		}, "sc- tso- pso- ra- rc11+"},
		{"SB+xchg-sc", func() *Graph {
			b := newGB(2)
			b.U(0, "x", Init, 1, sc)
			b.R(0, "y", Init, sc)
			b.U(1, "y", Init, 1, sc)
			b.R(1, "x", Init, sc)
			return b.g
		}, "sc- tso- pso- ra+ rc11-"},
		{"RMW atomicity (both fetch_add read 0)", func() *Graph {
			b := newGB(2)
			b.U(0, "x", Init, 1, rlx)
			b.U(1, "x", Init, 1, rlx)
			return b.g
		}, "sc- tso- pso- ra- rc11-"},
		{"RMW chain", func() *Graph {
			b := newGB(2)
			u0 := b.U(0, "x", Init, 1, rlx)
			b.U(1, "x", u0, 2, rlx)
			return b.g
		}, "sc+ tso+ pso+ ra+ rc11+"},
		{"MP via release sequence (rel W; rlx RMW; acq R)", func() *Graph {
			b := newGB(3)
			b.W(0, "x", 1, na)
			wy := b.W(0, "y", 1, rel)
			u := b.U(1, "y", wy, 2, rlx)
			b.R(2, "y", u, acq)
			b.R(2, "x", Init, na)
			return b.g
		}, "sc- tso- ra- rc11-"},
		{"MP via release sequence of same-thread write (PLDI17 rs)", func() *Graph {
			b := newGB(2)
			b.W(0, "x", 1, rlx)
			b.W(0, "y", 1, rel)
			wy2 := b.W(0, "y", 2, rlx)
			b.R(1, "y", wy2, acq)
			b.R(1, "x", Init, rlx)
			return b.g
		}, "sc- tso- ra- rc11-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkVerdicts(t, c.name, c.build(), vs(c.want)) })
	}
}

// Under TSO and PSO every visible operation but loads, stores and
// non-seq_cst fences is a full barrier (as the interpreter's store buffers
// drain): SB with such an operation between the write and the read is
// forbidden, with a plain event or a release fence it is allowed.
func TestTSOBarriers(t *testing.T) {
	sbWith := func(mid func(b *gb, t int)) *Graph {
		b := newGB(2)
		for th, xy := range [][2]string{{"x", "y"}, {"y", "x"}} {
			b.W(th, xy[0], 1, rlx)
			mid(b, th)
		}
		b.R(0, "y", Init, rlx)
		b.R(1, "x", Init, rlx)
		return b.g
	}
	cases := []struct {
		name string
		mid  func(b *gb, t int)
		want string
	}{
		{"nothing", func(*gb, int) {}, "tso+ pso+"},
		{"sc fence", func(b *gb, t int) { b.F(t, sc) }, "tso- pso-"},
		{"acq_rel fence", func(b *gb, t int) { b.F(t, ar) }, "tso+ pso+"},
		{"rmw", func(b *gb, t int) { b.U(t, fmt.Sprint("z", t), Init, 1, rlx) }, "tso- pso-"},
		{"lock", func(b *gb, t int) { b.L(t, fmt.Sprint("m", t), Init) }, "tso- pso-"},
		{"unlock", func(b *gb, t int) {
			m := fmt.Sprint("m", t)
			b.L(t, m, Init)
			b.Un(t, m)
		}, "tso- pso-"},
		{"failed trylock", func(b *gb, t int) {
			// thread t reads a mutex held by a lock of its own earlier
			// (a failed trylock is an acquire read of the mutex)
			m := fmt.Sprint("m", t)
			l := b.g.Append(Event{ID: EventID{T: int32(t)}, Kind: KLock, Loc: b.loc(m), RF: Init, WVal: 1})
			b.g.Append(Event{ID: EventID{T: int32(t)}, Kind: KRead, Loc: b.loc(m), RF: l, RVal: 1, Order: acq})
		}, "tso- pso-"},
		{"signal", func(b *gb, t int) {
			b.g.Append(Event{ID: EventID{T: int32(t)}, Kind: KSignal, Loc: b.loc("c")})
		}, "tso- pso-"},
		{"invocation begin", func(b *gb, t int) {
			b.g.Append(Event{ID: EventID{T: int32(t)}, Kind: KInvBegin, Inv: &Invocation{Type: "T", Method: "m"}})
		}, "tso+ pso+"},
	}
	for _, c := range cases {
		checkVerdicts(t, "SB+"+c.name, sbWith(c.mid), vs(c.want))
	}
	// spawn and join are barriers within the spawning thread too
	for _, kind := range []Kind{KSpawn, KJoin} {
		b := newGB(3)
		b.g.Append(Event{ID: EventID{T: 2}, Kind: KThreadEnd})
		b.W(0, "x", 1, rlx)
		b.g.Append(Event{ID: EventID{T: 0}, Kind: kind, Other: 2})
		b.R(0, "y", Init, rlx)
		b.W(1, "y", 1, rlx)
		b.F(1, sc)
		b.R(1, "x", Init, rlx)
		checkVerdicts(t, "SB+"+kind.String(), b.g, vs("sc- tso- pso-"))
	}
}

func TestLocksAndThreads(t *testing.T) {
	// Two critical sections that both take the lock from the initial state:
	// mutual exclusion is RMW atomicity on the mutex.
	t.Run("two locks from init", func(t *testing.T) {
		b := newGB(2)
		b.L(0, "m", Init)
		b.L(1, "m", Init)
		for _, mn := range ModelNames() {
			v := LookupModel(mn).Check(b.g)
			if v == nil || v.Axiom != "atomicity" {
				t.Errorf("%s: got %v, want an atomicity violation", mn, v)
			}
		}
	})
	// T0: lock; x = 1 (na); unlock.  T1: lock (after T0's unlock); r = x (na).
	cs := func(readInit bool) *Graph {
		b := newGB(2)
		b.L(0, "m", Init)
		wx := b.W(0, "x", 1, na)
		u := b.Un(0, "m")
		b.L(1, "m", u)
		if readInit {
			b.R(1, "x", Init, na)
		} else {
			b.R(1, "x", wx, na)
		}
		b.Un(1, "m")
		return b.g
	}
	t.Run("critical sections ordered", func(t *testing.T) {
		checkVerdicts(t, "cs reads 1", cs(false), vs("sc+ tso+ pso+ ra+ rc11+"))
		checkVerdicts(t, "cs reads stale 0", cs(true), vs("sc- tso- pso- ra- rc11-"))
		if r := Races(cs(false)); len(r) != 0 {
			t.Errorf("lock-protected accesses race: %v", r)
		}
	})
	t.Run("lock from lock is ill-formed", func(t *testing.T) {
		b := newGB(2)
		l := b.L(0, "m", Init)
		b.L(1, "m", l)
		v := LookupModel("sc").Check(b.g)
		if v == nil || v.Kind != WellFormed {
			t.Fatalf("got %v, want a well-formedness violation", v)
		}
	})
	// main: x = 1 (na); spawn t1; join t1; r = y (na).  t1: r = x; y = 2.
	spawn := func(childReadsInit, mainReadsInit bool) *Graph {
		g := New()
		g.AddThread(0, "0", -1, Init)
		x, y := ir.MakePtr(1, 0), ir.MakePtr(2, 0)
		wx := g.Append(Event{ID: EventID{T: 0}, Kind: KWrite, Loc: x, WVal: 1})
		sp := g.Append(Event{ID: EventID{T: 0}, Kind: KSpawn, Other: 1})
		g.AddThread(1, "0.0", 0, sp)
		src, val := wx, int64(1)
		if childReadsInit {
			src, val = Init, 0
		}
		g.Append(Event{ID: EventID{T: 1}, Kind: KRead, Loc: x, RF: src, RVal: val})
		wy := g.Append(Event{ID: EventID{T: 1}, Kind: KWrite, Loc: y, WVal: 2})
		g.Append(Event{ID: EventID{T: 1}, Kind: KThreadEnd})
		g.Append(Event{ID: EventID{T: 0}, Kind: KJoin, Other: 1})
		src, val = wy, 2
		if mainReadsInit {
			src, val = Init, 0
		}
		g.Append(Event{ID: EventID{T: 0}, Kind: KRead, Loc: y, RF: src, RVal: val})
		return g
	}
	t.Run("spawn and join order", func(t *testing.T) {
		checkVerdicts(t, "normal", spawn(false, false), vs("sc+ tso+ pso+ ra+ rc11+"))
		checkVerdicts(t, "child misses parent's write", spawn(true, false), vs("sc- tso- pso- ra- rc11-"))
		checkVerdicts(t, "parent misses child's write", spawn(false, true), vs("sc- tso- pso- ra- rc11-"))
		if r := Races(spawn(false, false)); len(r) != 0 {
			t.Errorf("spawn/join-ordered accesses race: %v", r)
		}
	})
}

func TestViolationString(t *testing.T) {
	b := newGB(2)
	b.W(0, "x", 1, rlx)
	b.R(0, "y", Init, rlx)
	b.W(1, "y", 1, rlx)
	b.R(1, "x", Init, rlx)
	v := LookupModel("sc").Check(b.g)
	if v == nil {
		t.Fatal("SB allowed under SC")
	}
	want := "cycle a: W(rlx) x=1 -po-> b: R(rlx) y=0 -fr-> c: W(rlx) y=1 -po-> d: R(rlx) x=0 -fr-> a"
	if !strings.Contains(v.String(), want) || v.Axiom != "sc" {
		t.Errorf("got %q\nwant it to contain %q", v, want)
	}
	if len(v.Steps) != 4 || len(v.Nodes) != 4 {
		t.Errorf("got %d steps, %d nodes; want 4, 4", len(v.Steps), len(v.Nodes))
	}

	// MP+ra under RC11: coherence, with hb unfolded into po and sw.
	b = newGB(2)
	b.W(0, "x", 1, rlx)
	wy := b.W(0, "y", 1, rel)
	b.R(1, "y", wy, acq)
	b.R(1, "x", Init, rlx)
	v = LookupModel("rc11").Check(b.g)
	if v == nil || v.Axiom != "coherence" {
		t.Fatalf("MP+ra under rc11: got %v, want coherence", v)
	}
	want = "cycle a: W(rlx) x=1 -po-> b: W(rel) y=1 -sw-> c: R(acq) y=1 -po-> d: R(rlx) x=0 -fr-> a"
	if !strings.Contains(v.String(), want) {
		t.Errorf("got %q\nwant it to contain %q", v, want)
	}

	// Atomicity: both RMWs read the initial value.
	b = newGB(2)
	b.U(0, "x", Init, 1, rlx)
	b.U(1, "x", Init, 1, rlx)
	v = LookupModel("rc11").Check(b.g)
	want = "cycle b: RMW(rlx) x=0->1 -fr-> a: RMW(rlx) x=0->1 -mo-> b"
	if v == nil || !strings.Contains(v.String(), want) {
		t.Errorf("got %v\nwant it to contain %q", v, want)
	}

	// LB under RC11: no-thin-air with po and rf edges.
	b = newGB(2)
	b.Rv(0, "x", EventID{1, 1}, 1, rlx)
	b.W(0, "y", 1, rlx)
	b.Rv(1, "y", EventID{0, 1}, 1, rlx)
	b.W(1, "x", 1, rlx)
	v = LookupModel("rc11").Check(b.g)
	want = "cycle a: R(rlx) x=1 -po-> b: W(rlx) y=1 -rf-> c: R(rlx) y=1 -po-> d: W(rlx) x=1 -rf-> a"
	if v == nil || v.Axiom != "no-thin-air" || !strings.Contains(v.String(), want) {
		t.Errorf("got %v\nwant no-thin-air with %q", v, want)
	}

	// SB+sc under RC11: psc.
	b = newGB(2)
	b.W(0, "x", 1, sc)
	b.R(0, "y", Init, sc)
	b.W(1, "y", 1, sc)
	b.R(1, "x", Init, sc)
	v = LookupModel("rc11").Check(b.g)
	if v == nil || v.Axiom != "sc" || len(v.Steps) != 4 {
		t.Errorf("SB+sc under rc11: got %v, want a 4-step psc cycle", v)
	}
}

func TestWellFormed(t *testing.T) {
	cases := []struct {
		name  string
		build func(b *gb)
		msg   string
	}{
		{"wrong value", func(b *gb) {
			w := b.W(0, "x", 1, rlx)
			r := b.R(1, "x", w, rlx)
			b.g.Event(r).RVal = 2
		}, "reads 2 from t0.0, which wrote 1"},
		{"wrong init value", func(b *gb) {
			r := b.R(1, "x", Init, rlx)
			b.g.Event(r).RVal = 3
		}, "reads 3 from the initial write of x"},
		{"missing source", func(b *gb) {
			b.Rv(1, "x", EventID{0, 7}, 0, rlx)
		}, "does not exist"},
		{"source not a write", func(b *gb) {
			r := b.R(0, "x", Init, rlx)
			r2 := b.R(1, "x", Init, rlx)
			b.g.Event(r2).RF = r
		}, "not a write"},
		{"mo lists a read", func(b *gb) {
			r := b.R(0, "x", Init, rlx)
			b.mo("x", r)
		}, "not a write to it"},
		{"write twice in mo", func(b *gb) {
			w := b.W(0, "x", 1, rlx)
			b.mo("x", w, w)
		}, "twice"},
	}
	for _, c := range cases {
		b := newGB(2)
		c.build(b)
		err := Validate(b.g)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.msg)
		}
		if v := LookupModel("rc11").Check(b.g); v == nil || v.Kind != WellFormed {
			t.Errorf("%s: Check got %v", c.name, v)
		}
	}
}

// A store still in a store buffer (not in MO) counts as mo-after every
// listed write.
func TestPendingWrites(t *testing.T) {
	b := newGB(2)
	w1 := b.W(1, "x", 1, rlx)
	p := b.g.AppendNoMO(Event{ID: EventID{T: 0}, Kind: KWrite, Loc: b.loc("x"), WVal: 2})
	b.R(0, "x", p, rlx) // reads its own buffered store
	b.mo("x", w1)
	if err := Validate(b.g); err != nil {
		t.Fatal(err)
	}
	sp := NewSpace(b.g)
	if mo := sp.MO(); !mo.Has(sp.EventIndex(w1), sp.EventIndex(p)) || !mo.Has(sp.InitIndex(b.loc("x")), sp.EventIndex(p)) {
		t.Errorf("pending write not mo-last: %v", mo)
	}
	checkVerdicts(t, "pending", b.g, vs("sc+ tso+ pso+ ra+ rc11+"))
}

func TestRaces(t *testing.T) {
	// MP with a non-atomic payload: no race when the flag is seen (hb), a
	// race when it is not.
	mp := func(seen bool) *Graph {
		b := newGB(2)
		b.W(0, "x", 1, na)
		wy := b.W(0, "y", 1, rel)
		if seen {
			b.R(1, "y", wy, acq)
			b.R(1, "x", EventID{0, 0}, na)
		} else {
			b.R(1, "y", Init, acq)
			b.R(1, "x", Init, na)
		}
		return b.g
	}
	if r := Races(mp(true)); len(r) != 0 {
		t.Errorf("MP+na+ra flag seen: got races %v", r)
	}
	r := Races(mp(false))
	if len(r) != 1 || r[0].A != (EventID{0, 0}) || r[0].B != (EventID{1, 1}) {
		t.Fatalf("MP+na+ra flag not seen: got %v, want one race a/d", r)
	}
	if s := r[0].String(); !strings.Contains(s, "a: W(na) x=1") || !strings.Contains(s, "d: R(na) x=0") {
		t.Errorf("race text %q", s)
	}
	// relaxed atomics never race; a relaxed write and a plain read do
	b := newGB(2)
	b.W(0, "x", 1, rlx)
	b.R(1, "x", Init, rlx)
	if r := Races(b.g); len(r) != 0 {
		t.Errorf("atomic accesses race: %v", r)
	}
	b = newGB(2)
	b.W(0, "x", 1, rlx)
	b.R(1, "x", Init, na)
	if r := Races(b.g); len(r) != 1 {
		t.Errorf("rlx write vs na read: got %v, want one race", r)
	}
	// same-thread conflicts never race
	b = newGB(1)
	b.W(0, "x", 1, na)
	b.R(0, "x", EventID{0, 0}, na)
	if r := Races(b.g); len(r) != 0 {
		t.Errorf("same-thread accesses race: %v", r)
	}
	// the rc11 model exposes the same thing as a flagged axiom
	if f := LookupModel("rc11").Flags(mp(false)); len(f) != 1 || f[0].Axiom != "data-race" {
		t.Errorf("Flags: got %v", f)
	}
}

func TestRelationAPI(t *testing.T) {
	b := newGB(2)
	b.W(0, "x", 1, rlx)
	wy := b.W(0, "y", 1, rel)
	b.R(1, "y", wy, acq)
	b.R(1, "x", Init, rlx)
	m := LookupModel("rc11")
	sp, sw, err := m.Relation(b.g, "sw")
	if err != nil {
		t.Fatal(err)
	}
	if sw.Count() != 1 || !sw.Has(sp.EventIndex(wy), sp.EventIndex(EventID{1, 0})) {
		t.Errorf("sw = %v", sw)
	}
	_, hb, _ := m.Relation(b.g, "hb")
	if !hb.Has(sp.EventIndex(EventID{0, 0}), sp.EventIndex(EventID{1, 1})) {
		t.Errorf("hb misses a -> d: %v", hb)
	}
	if _, _, err := m.Relation(b.g, "po ; nosuch"); err == nil || !strings.Contains(err.Error(), "unknown name") {
		t.Errorf("bad expression: got %v", err)
	}
	if _, _, err := m.Relation(b.g, "W"); err == nil {
		t.Errorf("set accepted as relation")
	}
	// fr from a read of the initial value goes to every write of the location, not others
	fr := sp.FR()
	d := sp.EventIndex(EventID{1, 1})
	if !fr.Has(d, sp.EventIndex(EventID{0, 0})) || fr.Has(d, sp.EventIndex(wy)) {
		t.Errorf("fr = %v", fr)
	}
}

func TestParseModelErrors(t *testing.T) {
	cases := []struct{ src, msg string }{
		{"acyclic po | nosuch", "1:14: unknown name \"nosuch\""},
		{"acyclic W", "takes a relation"},
		{"let x = po ; W", "must be relations"},
		{"let x = po | W", "mix a set and a relation"},
		{"let x = po * rf", "must be sets"},
		{"let x = [po]", "takes a set"},
		{"acyclic (po | rf", "expected \")\""},
		{"frobnicate po", "expected a statement"},
		{"(* unterminated", "unterminated comment"},
		{"let = po", "expected a name"},
		{"acyclic po ^ rf", "expected ^-1"},
		{"show nosuch", "unknown relation"},
	}
	for _, c := range cases {
		_, err := ParseModel("t", "", c.src)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.msg)
		}
	}
	// precedence and printing
	m, err := ParseModel("t", "", "(* c (* nested *) *) let a = po | rf; mo \\ fr & loc\nacyclic a* ; [W | R] | (po; rf)+ as ax\nempty W & R")
	if err != nil {
		t.Fatal(err)
	}
	ax := m.Axioms()
	if len(ax) != 2 || ax[0].Name != "ax" || ax[0].Expr != "a*; [W | R] | (po; rf)+" || ax[1].Name != "empty W & R" {
		t.Errorf("axioms: %+v", ax)
	}
	if got := m.lets["a"].String(); got != "po | rf; mo \\ fr & loc" {
		t.Errorf("let a = %s", got)
	}
	// the parse tree groups as herd does: | < ; < \ < &
	a := m.lets["a"]
	if a.op != opUnion || a.args[1].op != opSeq || a.args[1].args[1].op != opDiff || a.args[1].args[1].args[1].op != opInter {
		t.Errorf("bad grouping of %s", a)
	}
}

func TestModelsRegistry(t *testing.T) {
	names := ModelNames()
	if strings.Join(names, ",") != "pso,ra,rc11,sc,tso" {
		t.Errorf("ModelNames = %v", names)
	}
	ms := Models()
	delete(ms, "sc")
	if LookupModel("sc") == nil || len(Models()) != 5 {
		t.Error("Models() is not a copy")
	}
	for _, n := range names {
		m := LookupModel(n)
		if m.Name != n || m.Doc == "" || len(m.Axioms()) == 0 || m.Source() == "" {
			t.Errorf("model %s incomplete", n)
		}
	}
}

// Models are shared and immutable: concurrent Checks must not interfere.
func TestConcurrentCheck(t *testing.T) {
	done := make(chan bool)
	for w := 0; w < 4; w++ {
		go func(w int) {
			ok := true
			for i := 0; i < 20; i++ {
				g := scRandomGraph(int64(w*100+i), 3, 8, 2)
				for _, mn := range ModelNames() {
					if LookupModel(mn).Check(g) != nil {
						ok = false
					}
				}
				if LookupModel("sc").Check(sbGraph()) == nil {
					ok = false
				}
			}
			done <- ok
		}(w)
	}
	for w := 0; w < 4; w++ {
		if !<-done {
			t.Error("wrong verdict under concurrency")
		}
	}
}
