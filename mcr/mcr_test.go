package mcr_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/mcr"
)

// trace runs src once with the default schedule (first enabled action) and
// turns the execution into an mcr.Trace.
func trace(t *testing.T, src string) *mcr.Trace {
	t.Helper()
	prog, err := frontend.ParseCIR("t.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	x := interp.NewExecution(prog, interp.NewNames(prog), interp.Config{Unroll: 8}, nil, false)
	x.Run(func(en []interp.Action) interp.Action { return en[0] })
	tr := &mcr.Trace{G: x.G, Complete: x.Complete(), FrozenChoices: map[int32]int{}}
	for _, s := range x.Log {
		tr.Steps = append(tr.Steps, mcr.Step{T: s.Action.T, Event: s.Event, Atomic: s.Atomic, Fence: s.Fence})
	}
	return tr
}

const sb = `
global x: int; global y: int; global r1: int; global r2: int;
fn a() { x = 1; r1 = y; }
fn b() { y = 1; r2 = x; }
fn main() { let p = spawn a(); let q = spawn b(); join(p); join(q); }
`

// From the sequential first execution of SB (a runs first: r1 = 0, r2 = 1),
// the only new read value is b's read of x returning 0, and a's read of y
// returning 1; the final values of r1 and r2 can change too.
func TestSeedsSB(t *testing.T) {
	g := mcr.NewGenerator(mcr.Options{})
	defer g.Close()
	seeds, err := g.Seeds(context.Background(), trace(t, sb))
	if err != nil {
		t.Fatal(err)
	}
	var whys []string
	for _, s := range seeds {
		whys = append(whys, s.Why)
		if len(s.Steps) != len(s.Expect) {
			t.Errorf("seed %q: %d steps, %d expectations", s.Why, len(s.Steps), len(s.Expect))
		}
	}
	all := strings.Join(whys, "\n")
	for _, want := range []string{"R(na) y=0) reads 1", "R(na) x=1) reads 0"} {
		if !strings.Contains(all, want) {
			t.Errorf("no seed %q among:\n%s", want, all)
		}
	}
	if g.Stats.Queries == 0 || g.Stats.Sat == 0 {
		t.Errorf("stats %+v", g.Stats)
	}
	// Keys are deterministic: the same trace gives the same seeds.
	again, _ := g.Seeds(context.Background(), trace(t, sb))
	if len(again) != len(seeds) {
		t.Fatalf("%d seeds, then %d", len(seeds), len(again))
	}
	for i := range seeds {
		if seeds[i].Key() != again[i].Key() {
			t.Errorf("seed %d differs: %s vs %s", i, seeds[i].Key(), again[i].Key())
		}
	}
}

// A lock-protected increment by two threads: the second thread's read can
// only return the first's write, so the only read pivot is the lock order.
func TestSeedsLockedCounter(t *testing.T) {
	src := `
global c: int; global m: mutex;
fn inc() { lock(m); c = c + 1; unlock(m); }
fn main() { let p = spawn inc(); let q = spawn inc(); join(p); join(q); assert(c == 2); }
`
	g := mcr.NewGenerator(mcr.Options{})
	defer g.Close()
	seeds, err := g.Seeds(context.Background(), trace(t, src))
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	for _, s := range seeds {
		if strings.Contains(s.Why, "reads") {
			reads++
		}
	}
	// t0.2 reading 0 (it goes first) is the one new read value; t0.1 reading 1 is then implied.
	if reads == 0 {
		t.Errorf("no read pivot among %d seeds", len(seeds))
	}
}

// deadlineOnly has a deadline that has passed but does not report it yet
// (Err is nil, Done never closes): what a solver query sees when its
// timeout, shortened to the exploration's deadline, runs out a moment
// before the context's own timer fires.
type deadlineOnly struct{ context.Context }

func (deadlineOnly) Deadline() (time.Time, bool) { return time.Now().Add(-time.Millisecond), true }

// A deadline that runs out inside a solver query is an interruption
// (context.DeadlineExceeded), not a failure of the solver.
func TestSeedsDeadlineInsideQuery(t *testing.T) {
	g := mcr.NewGenerator(mcr.Options{})
	defer g.Close()
	_, err := g.Seeds(deadlineOnly{context.Background()}, trace(t, sb))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got error %v, want context.DeadlineExceeded", err)
	}
	if strings.Contains(err.Error(), "gave up") {
		t.Errorf("error %q reports a solver failure", err)
	}
	if g.Stats.Unknown != 0 {
		t.Errorf("%d unknown answers counted as solver failures", g.Stats.Unknown)
	}
}

// A pivot read inside an atomic section may keep the section open with its
// new value (here the adder's read of flag = 1, after which the section
// ended, reads 0 and goes on to p = p + 1) or end it; both are asked.
// Seeds of the first kind schedule nothing after the pivot; seeds of the
// second kind that do are marked LeavesAtomic, so the replay can drop them when the section
// stays open (the regression ncmc/testdata/regress/atomic-pivot-section.cir).
func TestSeedsAtomicPivotSection(t *testing.T) {
	src := `
global flag: int; global p: int;
fn adder() { atomic { if (flag == 0) { p = p + 1; } } }
fn stopper() { flag = 1; }
fn main() { let s = spawn stopper(); let a = spawn adder(); let b = spawn adder(); }
`
	tr := trace(t, src)
	g := mcr.NewGenerator(mcr.Options{})
	defer g.Close()
	seeds, err := g.Seeds(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, sd := range seeds {
		pivot := -1
		for i, ex := range sd.Expect {
			if ex.AnyWVal {
				pivot = i
			}
		}
		if pivot < 0 {
			continue
		}
		last := pivot == len(sd.Steps)-1
		switch {
		case strings.Contains(sd.Why, "(atomic section open)"):
			kinds["open"]++
			if !last || sd.Expect[pivot].LeavesAtomic {
				t.Errorf("seed %q (section open) schedules steps after the pivot or is marked: %+v", sd.Why, sd.Steps)
			}
		case strings.Contains(sd.Why, "(atomic section ends)"):
			kinds["ends"]++
			if sd.Expect[pivot].LeavesAtomic == last {
				t.Errorf("seed %q (section ends): pivot last %v, marked %v", sd.Why, last, sd.Expect[pivot].LeavesAtomic)
			}
		}
	}
	// Seeds of the second kind that equal one of the first are dropped as
	// duplicates; which ones differ depends on the solver's models.
	if kinds["open"] == 0 {
		t.Errorf("pivots in atomic sections: %v, want seeds with the section open", kinds)
	}
}
