package hunt

import (
	"context"
	"strings"
	"testing"
	"time"

	"ncmc/explore"
	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/ir"
)

func mustCIR(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, err := frontend.ParseCIR("t.cir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustLoad(t *testing.T, path string) *ir.Program {
	t.Helper()
	p, err := frontend.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The same seed gives the same runs; another seed gives other runs.
func TestTestSameSeedSameRuns(t *testing.T) {
	prog := mustLoad(t, "../examples/peterson-buggy.cir")
	for _, s := range []string{StrategyPCT, StrategyRandom} {
		run := func(seed uint64) *Result {
			r, err := Run(context.Background(), prog, Options{Strategy: s, Depth: 3, Runs: 400, Seed: seed, KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		a, b, c := run(7), run(7), run(8)
		if a.Hits == 0 || a.Schedule == nil {
			t.Fatalf("%s: no bug in 400 runs", s)
		}
		if a.Hits != b.Hits || a.FirstBugRun != b.FirstBugRun || a.Schedule.String() != b.Schedule.String() || a.Stats.Steps != b.Stats.Steps {
			t.Errorf("%s: seed 7 twice: hits %d/%d, first bug %d/%d", s, a.Hits, b.Hits, a.FirstBugRun, b.FirstBugRun)
		}
		if a.Stats.Steps == c.Stats.Steps && a.Hits == c.Hits && a.FirstBugRun == c.FirstBugRun {
			t.Errorf("%s: seeds 7 and 8 gave identical searches", s)
		}
	}
}

// A schedule prints, parses back to the same schedule, and replays exactly;
// any change to it is caught.
func TestScheduleReplay(t *testing.T) {
	prog := mustLoad(t, "../examples/peterson-buggy.cir")
	res, err := Run(context.Background(), prog, Options{Strategy: StrategyRandom, Seed: 1})
	if err != nil || res.Schedule == nil {
		t.Fatalf("no bug: %v", err)
	}
	text := res.Schedule.String()
	s, err := ParseSchedule(text)
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != text {
		t.Fatalf("round trip changed the schedule:\n%s\n%s", text, s)
	}
	rr, err := Replay(prog, s)
	if err != nil {
		t.Fatal(err)
	}
	if rr.Violation == "" || rr.Violation != res.Reason {
		t.Fatalf("replay: %q, search: %q", rr.Violation, res.Reason)
	}
	if len(rr.Trace) != len(res.Counterexample) {
		t.Fatalf("replay trace has %d lines, the search's %d", len(rr.Trace), len(res.Counterexample))
	}
	// Tampering: a wrong thread, a truncated or extended schedule, another result.
	mutate := func(f func(s *Schedule)) error {
		m, _ := ParseSchedule(text)
		f(m)
		_, err := Replay(prog, m)
		return err
	}
	for name, f := range map[string]func(*Schedule){
		"wrong thread": func(s *Schedule) {
			for i := range s.Steps {
				if s.Steps[i].Thread == "0.1" {
					s.Steps[i].Thread = "0.2"
					return
				}
			}
		},
		"unknown thread": func(s *Schedule) { s.Steps[0].Thread = "0.9" },
		"truncated":      func(s *Schedule) { s.Steps = s.Steps[:len(s.Steps)-1] },
		"extended":       func(s *Schedule) { s.Steps = append(s.Steps, SchedStep{Thread: "0"}) },
		"a choice":       func(s *Schedule) { s.Steps[1] = SchedStep{Thread: "0", Choice: true, K: 0, N: 2} },
		"other result":   func(s *Schedule) { s.Result = "complete: count=2" },
		"other unroll":   func(s *Schedule) { s.Unroll = 0; s.MaxSteps = 3 },
	} {
		if err := mutate(f); err == nil {
			t.Errorf("%s: the changed schedule replays without complaint", name)
		}
	}
	for _, bad := range []string{"x0", "t", "t0:flush=", "t0:nondet=2/2", "t0:nondet=1", "t0:spawn=1", "ta.b"} {
		if _, err := ParseSchedule(bad); err == nil {
			t.Errorf("ParseSchedule(%q) accepted", bad)
		}
	}
}

// Nondeterministic choices and store-buffer flushes are part of schedules.
func TestScheduleChoicesAndFlushes(t *testing.T) {
	prog := mustCIR(t, `
global x: int;
fn main() {
    let a = nondet(0, 3);
    let b = nondet(0, 3);
    x = a;
    assert(a + b != 5, "a + b == 5");
}
`)
	res, err := Run(context.Background(), prog, Options{Strategy: StrategyRandom, Seed: 2})
	if err != nil || res.Schedule == nil {
		t.Fatalf("nondet bug not found: %v", err)
	}
	if !strings.Contains(res.Schedule.String(), "t0:nondet=") {
		t.Fatalf("no nondet token in\n%s", res.Schedule)
	}
	if _, err := Replay(prog, res.Schedule); err != nil {
		t.Fatal(err)
	}
	sb := mustLoad(t, "../examples/sb.cir")
	for _, model := range []string{"tso", "pso"} {
		res, err := Run(context.Background(), sb, Options{Strategy: StrategyRandom, Model: model, Seed: 1, Runs: 5000})
		if err != nil || res.Schedule == nil {
			t.Fatalf("%s: store buffering not found: %v", model, err)
		}
		if !strings.Contains(res.Schedule.String(), ":flush=") || res.Schedule.Model != model {
			t.Fatalf("%s: no flush token in\n%s", model, res.Schedule)
		}
		if _, err := Replay(sb, res.Schedule); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		// PCT schedules store buffers as entities of their own.
		res, err = Run(context.Background(), sb, Options{Strategy: StrategyPCT, Model: model, Seed: 1, Runs: 5000})
		if err != nil || res.Schedule == nil {
			t.Fatalf("%s: PCT did not find store buffering: %v", model, err)
		}
		if res.PCT.Threads <= 3 {
			t.Errorf("%s: PCT saw %d entities, want threads plus store buffers", model, res.PCT.Threads)
		}
	}
	// Under SC the outcome is unreachable; cbdpor and chess refuse other models.
	res, err = Run(context.Background(), sb, Options{Strategy: StrategyCBDPOR, Preemptions: 5})
	if err != nil || res.Verdict != explore.Verified {
		t.Fatalf("cbdpor on sb.cir under sc: %v %+v", err, res)
	}
	if _, err := Run(context.Background(), sb, Options{Strategy: StrategyCBDPOR, Model: "tso"}); err == nil {
		t.Error("cbdpor accepted tso")
	}
}

// Spin loops never hang a run: the per-thread step budget stops the
// spinning thread with "bound hit", under every strategy.
func TestSpinLoopsHitTheStepBudget(t *testing.T) {
	spin := mustCIR(t, `
global flag: int;
fn spinner() {
    let n = 0;
    while (flag == 0) @unroll(100000000) {
        n = n + 1;
    }
}
fn main() {
    spawn spinner();
    flag = 1;
}
`)
	local := mustCIR(t, `
fn main() {
    let n = 0;
    while (true) @unroll(100000000) {
        n = n + 1;
    }
}
`)
	for _, s := range []string{StrategyPCT, StrategyRandom, StrategyCBDPOR, StrategyCHESS} {
		start := time.Now()
		res, err := Run(context.Background(), local, Options{Strategy: s, Runs: 3})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.BoundHits == 0 || !strings.Contains(res.Reason, "step bound 10000 of thread t0") {
			t.Errorf("%s: local loop: %s (%+v)", s, res.Reason, res.Stats)
		}
		res, err = Run(context.Background(), spin, Options{Strategy: s, Runs: 50, Seed: 1, Preemptions: 1})
		if err != nil {
			t.Fatal(err)
		}
		// PCT and the preemption-bounded searches let the spinner spin
		// (bound hit) in some runs and not in others; a random walk lets
		// main set the flag within a few steps.
		if res.Stats.BoundHits == 0 && s != StrategyRandom || res.Stats.Complete == 0 || res.Verdict != explore.Unknown {
			t.Errorf("%s: spin loop: %s %s (%+v)", s, res.Verdict, res.Reason, res.Stats)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: spin loops took %s", s, d)
		}
	}
}

// PCT's bookkeeping: n counts threads, k the longest run, the miss
// probability is (1-p)^m.
func TestPCTInfo(t *testing.T) {
	prog := mustLoad(t, "../examples/peterson.cir")
	res, err := Run(context.Background(), prog, Options{Strategy: StrategyPCT, Runs: 300, Seed: 3, Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := res.PCT
	if res.BugFound || p.Threads != 3 || p.PCTRuns != 299 || !p.Estimated {
		t.Fatalf("unexpected PCT info %+v (bug %v)", p, res.BugFound)
	}
	if res.Stats.Steps > int64(p.Steps)*int64(res.Stats.Executions) {
		t.Errorf("k = %d is below some run's length (%d steps in %d runs)", p.Steps, res.Stats.Steps, res.Stats.Executions)
	}
	want := 1 / float64(3*p.Steps*p.Steps)
	if d := p.PerRun - want; d > 1e-12 || d < -1e-12 {
		t.Errorf("per-run bound %g, want %g", p.PerRun, want)
	}
	if d := p.MissProb - missProb(want, 299); d > 1e-12 || d < -1e-12 {
		t.Errorf("miss probability %g", p.MissProb)
	}
	if !strings.Contains(res.Guarantee, "P(a depth-3 bug was missed)") {
		t.Errorf("guarantee: %s", res.Guarantee)
	}
	// A fixed k is used as given.
	res, err = Run(context.Background(), prog, Options{Strategy: StrategyPCT, Runs: 10, Steps: 100})
	if err != nil || res.PCT.Steps != 100 || res.PCT.PCTRuns != 10 || res.PCT.Estimated {
		t.Fatalf("fixed k: %v %+v", err, res.PCT)
	}
}

// Iterative deepening reports each bound; the first bug of cbdpor comes at
// the smallest bound that has one, with a witness within that bound.
func TestCBDPORIterativeDeepening(t *testing.T) {
	prog := mustLoad(t, "../examples/peterson-buggy.cir")
	for _, s := range []string{StrategyCBDPOR, StrategyCHESS} {
		res, err := Run(context.Background(), prog, Options{Strategy: s, Preemptions: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !res.BugFound || len(res.Bounds) == 0 {
			t.Fatalf("%s: %+v", s, res)
		}
		last := res.Bounds[len(res.Bounds)-1]
		if !last.BugFound {
			t.Fatalf("%s: bug not attributed to the last bound: %+v", s, res.Bounds)
		}
		for _, b := range res.Bounds[:len(res.Bounds)-1] {
			if !b.Complete || b.BugFound {
				t.Fatalf("%s: earlier bound not clean: %+v", s, res.Bounds)
			}
		}
		if got := preemptionsOf(t, prog, res.Schedule); got > last.Bound {
			t.Errorf("%s: the witness has %d preemptions, found at bound %d", s, got, last.Bound)
		}
	}
}

// preemptionsOf counts the preemptions of a schedule (switches away from a
// thread that could still move).
func preemptionsOf(t *testing.T, prog *ir.Program, s *Schedule) int {
	t.Helper()
	names := interp.NewNames(prog)
	r := &scheduleReplayer{s: s, names: names}
	x := interp.NewExecution(prog, names, interp.Config{Unroll: s.Unroll, MaxSteps: s.MaxSteps, MaxThreadSteps: s.MaxThreadSteps}, r, false)
	x.CheckEnd()
	last, n := int32(-1), 0
	for !x.Finished() && r.err == nil {
		en := x.Enabled()
		a, ok := r.pick(en)
		if !ok {
			break
		}
		for _, b := range en {
			if b.T == last && a.T != last {
				n++
			}
		}
		x.Step(a)
		last = a.T
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return n
}
