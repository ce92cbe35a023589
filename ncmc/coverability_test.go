package ncmc

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/ir"
)

var (
	kmSeeds   = flag.Int("km.seeds", 0, "generated programs for TestCoverabilityDifferential, twice those of TestCoverabilityRaces (0: the defaults, 150 and 150; 12 and 30 with -short; 3000 and 1500 with -long)")
	kmOnly    = flag.Int("km.only", 0, "run TestCoverabilityDifferential on this seed only")
	kmTimeout = flag.Duration("km.timeout", 20*time.Second, "time limit of the coverability explorer per program in TestCoverabilityDifferential")
)

// kmStatements starts the worker function name in b and returns
// generators of a random global (g0, g1), local (r0, r1) and simple
// statement (a load, a store of a constant or of a local, an increment
// modulo 3).
func kmStatements(rng *rand.Rand, b *strings.Builder, name string) (g, r, simple func() string) {
	fmt.Fprintf(b, "fn %s() {\n    let r0 = 0;\n    let r1 = 0;\n", name)
	g = func() string { return fmt.Sprintf("g%d", rng.IntN(2)) }
	r = func() string { return fmt.Sprintf("r%d", rng.IntN(2)) }
	simple = func() string {
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprintf("%s = %s;", r(), g())
		case 1:
			return fmt.Sprintf("%s = %d;", g(), rng.IntN(3))
		case 2:
			return fmt.Sprintf("%s = (%s + 1) %% 3;", g(), r())
		}
		return fmt.Sprintf("%s = %s;", g(), r())
	}
	return g, r, simple
}

// kmGen writes a random worker body over globals g0, g1 (values 0..2) and
// locals r0, r1: loads, stores, atomic blocks, awaits and one assertion.
func kmGen(rng *rand.Rand, name string) string {
	var b strings.Builder
	g, r, simple := kmStatements(rng, &b, name)
	n := 2 + rng.IntN(4)
	assertAt := rng.IntN(n + 1)
	for i := 0; i <= n; i++ {
		if i == assertAt {
			fmt.Fprintf(&b, "    assert(%s != %d || %s != %d, \"bad\");\n", g(), rng.IntN(3), r(), rng.IntN(3))
		}
		if i == n {
			break
		}
		switch rng.IntN(7) {
		case 0:
			fmt.Fprintf(&b, "    atomic { %s %s }\n", simple(), simple())
		case 1:
			fmt.Fprintf(&b, "    await(%s != %d);\n", g(), rng.IntN(3))
		case 2:
			// A critical section on the mutex; sometimes the unlock is
			// missing, which can deadlock the threads that come after.
			unlock := " unlock(m);"
			if rng.IntN(3) == 0 {
				unlock = ""
			}
			fmt.Fprintf(&b, "    lock(m); %s%s\n", simple(), unlock)
		default:
			fmt.Fprintf(&b, "    %s\n", simple())
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// kmPrograms returns a program whose main spawns workers in an endless
// loop, and the same program with the loop replaced by k rounds for each
// k of ks (with two kinds of workers, up to two rounds: the finite
// programs are explored by the reference explorer).
func kmPrograms(rng *rand.Rand) (string, []string, []int, bool) {
	workers, ks := []string{"w0"}, []int{1, 2, 3}
	if rng.IntN(3) == 0 {
		workers, ks = append(workers, "w1"), []int{1, 2}
	}
	head := "global g0: int;\nglobal g1: int;\nglobal m: mutex;\n"
	if rng.IntN(2) == 0 {
		head = fmt.Sprintf("global g0: int = %d;\nglobal g1: int = %d;\nglobal m: mutex;\n", rng.IntN(3), rng.IntN(3))
	}
	for _, w := range workers {
		head += kmGen(rng, w)
	}
	round := ""
	for _, w := range workers {
		round += fmt.Sprintf("spawn %s(); ", w)
	}
	// main spawns for ever, or as long as it likes (then it can stop, and
	// the threads left can deadlock).
	cond := "true"
	if rng.IntN(2) == 0 {
		cond = "nondet_bool()"
	}
	inf := head + "fn main() {\n    while (" + cond + ") { " + round + "}\n}\n"
	var fin []string
	for _, k := range ks {
		fin = append(fin, head+"fn main() {\n    "+strings.Repeat(round, k)+"\n}\n")
	}
	return inf, fin, ks, cond != "true"
}

func kmParse(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, err := frontend.ParseCIR("gen.cir", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return p
}

// TestCoverabilityDifferential checks the coverability explorer against
// the stateful reference explorer on generated programs:
//   - with k rounds of spawns (a finite program, where no count can grow
//     and the explorer is the symmetric state cache with dead locals left
//     out), both must agree on violation or not, for k = 1..3 (1..2 with
//     two kinds of workers);
//   - with endless spawning, "verified" must not be answered when some
//     finite number of rounds has a violation (soundness), and a violation
//     found with few rounds must be reached (the acceleration covers it).
func TestCoverabilityDifferential(t *testing.T) {
	n := int(explorertest.Size(uint64(*kmSeeds), 150, 12, 3000))
	verified, violation, unchecked, unknown, walks, finiteUnchecked := 0, 0, 0, 0, 0, 0
	for seed := 1; seed <= n; seed++ {
		if *kmOnly > 0 && seed != *kmOnly {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		inf, fin, ks, canStop := kmPrograms(rng)
		// finiteViolation: some finite number of rounds has an assertion
		// failure; finiteDeadlock: a deadlock (which the explorer need not
		// reach: it may only say it cannot rule one out).
		finiteViolation, finiteDeadlock := false, false
		for i, src := range fin {
			p := kmParse(t, src)
			ref, err := Verify(context.Background(), p, Options{Explorer: "reference", StateCache: true, Symmetry: true, Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			km, err := Verify(context.Background(), p, Options{Explorer: "coverability", Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			refDeadlock := ref.Verdict == Violation && ref.Kind == "deadlock"
			refViol := ref.Verdict == Violation && !refDeadlock
			kmViol := km.Verdict == Unknown && km.Kind == "abstract-violation"
			kmNoDeadlock := km.Verdict == Unknown && km.Kind == "deadlock-unchecked"
			if ref.Verdict == Unknown || (km.Verdict != Verified && !kmViol && !kmNoDeadlock) {
				t.Fatalf("seed %d, k=%d: unexpected unknown: reference %s (%s), coverability %s (%s)\n%s", seed, ks[i], ref.Verdict, ref.Reason, km.Verdict, km.Reason, src)
			}
			switch {
			case refViol && !kmViol,
				refDeadlock && !kmViol && !kmNoDeadlock,
				ref.Verdict == Verified && kmViol:
				// No count grows with finitely many spawns, so the
				// explorer's runs are concrete: a violation it reaches is
				// real, and it must reach every assertion failure.
				t.Fatalf("seed %d, k=%d: reference %s (%s), coverability %s (%s)\n%s", seed, ks[i], ref.Verdict, ref.Reason, km.Verdict, km.Reason, src)
			}
			if kmNoDeadlock {
				finiteUnchecked++
			}
			finiteViolation = finiteViolation || refViol
			// A deadlock of k rounds is one of the endless program only if
			// its main can stop spawning (else main can always move).
			finiteDeadlock = finiteDeadlock || refDeadlock && canStop
		}
		ctx, cancel := context.WithTimeout(context.Background(), *kmTimeout)
		km, err := Verify(ctx, kmParse(t, inf), Options{Explorer: "coverability"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case km.Verdict == Verified:
			verified++
			if finiteViolation || finiteDeadlock {
				t.Fatalf("seed %d: coverability verified the endless program, but a finite number of rounds has a violation\n%s", seed, inf)
			}
			// Random walks with up to 16 rounds of spawns must not find a
			// violation either (a violation needing more threads than the
			// finite programs above have).
			tr, err := Test(context.Background(), kmParse(t, inf), TestOptions{Strategy: StrategyRandom, Runs: 300, Seed: uint64(seed), Unroll: 16, MaxSteps: 200})
			if err != nil {
				t.Fatal(err)
			}
			if tr.BugFound {
				t.Fatalf("seed %d: coverability verified the endless program, but a random walk finds %s\n%s", seed, tr.Reason, inf)
			}
			walks++
		case km.Kind == "abstract-violation":
			violation++
		case km.Kind == "deadlock-unchecked":
			unchecked++
			t.Logf("seed %d: deadlock freedom not established (a deadlock with 1-3 rounds: %v)", seed, finiteDeadlock)
			if finiteViolation {
				t.Errorf("seed %d: an assertion failure with few rounds, but coverability says %s (%s)\n%s", seed, km.Verdict, km.Reason, inf)
			}
		default:
			unknown++
			t.Logf("seed %d: %s (%s), %d runs, %d cut", seed, km.Verdict, km.Reason, km.Stats.Executions, km.Stats.Pruned)
			if finiteViolation {
				t.Errorf("seed %d: a violation with few rounds, but coverability says %s (%s)\n%s", seed, km.Verdict, km.Reason, inf)
			}
		}
	}
	t.Logf("%d programs with endless spawning: %d verified (each also random-walked 300 times without a violation: %d), %d violations reached, %d deadlock freedom not established, %d unknown; %d finite programs with deadlock freedom not established", n, verified, walks, violation, unchecked, unknown, finiteUnchecked)
	if *kmOnly == 0 && (verified == 0 || violation == 0 || unchecked == 0) {
		t.Errorf("the generator should give both safe and unsafe programs")
	}
}

// TestCoverability: the explorer proves endless-spawning programs safe,
// reaches violations that need several threads, and declines programs
// whose threads it cannot treat as interchangeable.
func TestCoverability(t *testing.T) {
	tests := []struct {
		name, src string
		verdict   Verdict
		kind      string
		reason    string
	}{
		{"mutex-spawner", `global x: int = 1;
global m: int;
fn w() {
    atomic { await(m == 0); m = 1; }
    x = 0;
    x = 1;
    assert(x >= 1, "bad");
    atomic { m = 0; }
}
fn main() {
    while (true) { spawn w(); }
}
`, Verified, "", "abstract states"},
		{"no-mutex", `global x: int = 1;
fn w() {
    x = 0;
    x = 1;
    assert(x >= 1, "bad");
}
fn main() {
    while (true) { spawn w(); }
}
`, Unknown, "abstract-violation", "assertion failed: bad"},
		{"needs-three", `global inside: int;
global slots: int = 2;
fn w() {
    atomic { await(slots > 0); slots = slots - 1; }
    atomic { inside = inside + 1; }
    assert(inside <= 1, "two inside");
    atomic { inside = inside - 1; }
    atomic { slots = slots + 1; }
}
fn main() {
    while (true) { spawn w(); }
}
`, Unknown, "abstract-violation", "two inside"},
		{"handle-used", `global x: int;
fn w() { x = 1; }
fn main() {
    while (true) { let t = spawn w(); join(t); }
}
`, Unknown, "unsupported", "handle of a spawned thread is used"},
		{"mutex-main-stops", `global m: mutex;
global x: int;
fn w() { lock(m); x = 1; unlock(m); }
fn main() { while (nondet_bool()) { spawn w(); } }
`, Verified, "", "abstract states"},
		{"deadlock-reached", `global m: mutex;
fn w() { lock(m); }
fn main() { while (nondet_bool()) { spawn w(); } }
`, Unknown, "abstract-violation", "deadlock"},
		// A real deadlock (two threads, main stopped) that the explorer
		// does not reach: the run that would is cut at a covering state,
		// which has one more thread that can move.
		{"deadlock-covered", `global g0: int;
global m: mutex;
fn w() {
    g0 = 0;
    lock(m);
    let r = g0;
}
fn main() {
    while (nondet_bool()) { spawn w(); }
}
`, Unknown, "deadlock-unchecked", "cannot rule out a deadlock"},
		{"counter", `global x: int;
fn w() { x = x + 1; }
fn main() {
    while (true) { spawn w(); }
}
`, Unknown, "time", "time bound"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Verify(context.Background(), kmParse(t, tc.src), Options{Explorer: "coverability", Timeout: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.verdict || res.Kind != tc.kind || !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("got %s/%s (%s), want %s/%s (%q)", res.Verdict, res.Kind, res.Reason, tc.verdict, tc.kind, tc.reason)
			}
		})
	}
}

// TestCoverabilityAuto: the auto explorer hands a program whose main
// spawns in a loop to the coverability explorer after the bounded
// exploration hits a bound, and keeps the bounded result (with a note)
// when the coverability explorer cannot verify.
func TestCoverabilityAuto(t *testing.T) {
	safe := `global x: int = 1;
global m: int;
fn w() {
    atomic { await(m == 0); m = 1; }
    x = 0;
    x = 1;
    assert(x >= 1, "bad");
    atomic { m = 0; }
}
fn main() {
    while (true) { spawn w(); }
}
`
	res, err := Verify(context.Background(), kmParse(t, safe), Options{Unroll: 2, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Verified || res.Explorer != "coverability" || !strings.Contains(res.Note, "hit a bound") {
		t.Errorf("safe: got %s by %s (%s), note %q; want verified by coverability", res.Verdict, res.Explorer, res.Reason, res.Note)
	}
	counter := `global x: int;
fn w() { x = x + 1; assert(x != -1, "wrapped"); }
fn main() {
    while (true) { spawn w(); }
}
`
	res, err = Verify(context.Background(), kmParse(t, counter), Options{Unroll: 2, Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Unknown || res.Explorer == "coverability" || !strings.Contains(res.Note, "coverability explorer was tried too") {
		t.Errorf("counter: got %s by %s (%s), note %q; want unknown by the bounded explorer with a note", res.Verdict, res.Explorer, res.Reason, res.Note)
	}
	// A program without a spawning loop is not handed over.
	res, err = Verify(context.Background(), kmParse(t, "global x: int;\nfn main() { while (true) { x = x + 1; assert(x != -1, \"wrapped\"); } }\n"), Options{Unroll: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Unknown || strings.Contains(res.Note, "coverability") {
		t.Errorf("no spawn loop: got %s (%s), note %q", res.Verdict, res.Reason, res.Note)
	}
}

// kmGenRace is kmGen for the data-race tests: most accesses are in atomic
// blocks or critical sections, so that both racy and race-free programs
// come out.
func kmGenRace(rng *rand.Rand, name string) string {
	var b strings.Builder
	g, _, simple := kmStatements(rng, &b, name)
	n := 2 + rng.IntN(4)
	for i := 0; i < n; i++ {
		switch k := rng.IntN(20); {
		case k < 8:
			fmt.Fprintf(&b, "    atomic { %s %s }\n", simple(), simple())
		case k < 10:
			fmt.Fprintf(&b, "    atomic { await(%s != %d); }\n", g(), rng.IntN(3))
		case k < 18:
			fmt.Fprintf(&b, "    lock(m); %s %s unlock(m);\n", simple(), simple())
		default:
			fmt.Fprintf(&b, "    %s\n", simple())
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// TestCoverabilityRaces checks the coverability explorer's data-race
// detection (Options.Races) against the stateful reference explorer's
// (vector clocks, scraces.go) on generated programs: with k rounds of
// spawns both must agree on whether a race is reachable; with endless
// spawning, "no race" (verified or race-free) must not be answered when
// some finite number of rounds has a race, and such a race must be found.
func TestCoverabilityRaces(t *testing.T) {
	n := int(explorertest.Size(uint64(*kmSeeds), 300, 60, 3000)) / 2
	free, racy, other := 0, 0, 0
	for seed := 1; seed <= n; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		workers, ks := []string{"w0"}, []int{1, 2, 3}
		if rng.IntN(3) == 0 {
			workers, ks = append(workers, "w1"), []int{1, 2}
		}
		head := "global g0: int;\nglobal g1: int;\nglobal m: mutex;\n"
		round := ""
		for _, w := range workers {
			head += kmGenRace(rng, w)
			round += fmt.Sprintf("spawn %s(); ", w)
		}
		// main itself may race with its workers.
		mainAccess := ""
		if rng.IntN(4) == 0 {
			mainAccess = "g0 = 1; "
		}
		inf := head + "fn main() {\n    while (true) { " + mainAccess + round + "}\n}\n"
		finiteRace := false
		for _, k := range ks {
			src := head + "fn main() {\n    " + strings.Repeat(mainAccess+round, k) + "\n}\n"
			p := kmParse(t, src)
			ref, err := Verify(context.Background(), p, Options{Explorer: "reference", StateCache: true, Races: true, Timeout: 20 * time.Second})
			if err == nil && ref.Verdict == Violation && !strings.HasPrefix(ref.Reason, "data race") {
				// Another violation first (a deadlock): look further.
				ref, err = Verify(context.Background(), p, Options{Explorer: "reference", StateCache: true, Races: true, KeepGoing: true, Timeout: 20 * time.Second})
			}
			if err != nil {
				t.Fatal(err)
			}
			km, err := Verify(context.Background(), p, Options{Explorer: "coverability", Races: true, Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			refRace := strings.HasPrefix(ref.Reason, "data race")
			for _, o := range ref.Outcomes {
				refRace = refRace || strings.HasPrefix(o.Violation, "data race")
			}
			kmRace := km.Kind == "abstract-race"
			kmFree := km.Verdict == Verified || km.Kind == RaceFree
			if (ref.Stopped != "" && !refRace) || (!kmRace && !kmFree) || refRace != kmRace {
				t.Fatalf("seed %d, k=%d: reference race %v (%s; %s), coverability %s/%s (%s)\n%s", seed, k, refRace, ref.Verdict, ref.Reason, km.Verdict, km.Kind, km.Reason, src)
			}
			finiteRace = finiteRace || refRace
		}
		ctx, cancel := context.WithTimeout(context.Background(), *kmTimeout)
		km, err := Verify(ctx, kmParse(t, inf), Options{Explorer: "coverability", Races: true})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case km.Verdict == Verified || km.Kind == RaceFree:
			free++
			if finiteRace {
				t.Fatalf("seed %d: coverability found no race in the endless program, but a finite number of rounds has one\n%s", seed, inf)
			}
		case km.Kind == "abstract-race":
			racy++
		default:
			other++
			t.Logf("seed %d: %s/%s (%s)", seed, km.Verdict, km.Kind, km.Reason)
			if finiteRace {
				t.Errorf("seed %d: a race with few rounds, but coverability says %s (%s)\n%s", seed, km.Verdict, km.Reason, inf)
			}
		}
	}
	t.Logf("%d programs with endless spawning: %d race-free, %d with a race, %d other", n, free, racy, other)
	if free == 0 || racy == 0 {
		t.Errorf("the generator should give both racy and race-free programs")
	}
}
