package trustx_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"ncmc/explore/explorertest"
	"ncmc/explore/trustx"
	"ncmc/interp"
	"ncmc/ncmc"
)

// lockIncN returns GenMC's synthetic test lockinc (tests/correct/synthetic/
// lockinc in genmc-0.10.3) with n threads in CIR: each thread increments
// an atomic counter with relaxed accesses inside a critical section; main
// joins them (GenMC's does not, which changes no count).
func lockIncN(n int, locs ...string) string {
	if len(locs) == 0 {
		locs = []string{"x"}
	}
	var b strings.Builder
	b.WriteString("global m: mutex;\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "atomic global %s: int;\n", l)
	}
	b.WriteString("fn w() { lock(m);")
	for i, l := range locs {
		fmt.Fprintf(&b, " let r%d = load(%s, rlx); store(%s, r%d + 1, rlx);", i, l, l, i)
	}
	b.WriteString(" unlock(m); }\nfn main() {")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " let h%d = spawn w();", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " join(h%d);", i)
	}
	b.WriteString(" }\n")
	return b.String()
}

// exchangeN: n threads each swap their number into a slot under a mutex
// and keep the number they took out: n! outcomes.
func exchangeN(n int) string {
	var b strings.Builder
	b.WriteString("global m: mutex;\natomic global slot: int;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "global got%d: int;\nfn t%d() { lock(m); got%d = load(slot, rlx); store(slot, %d, rlx); unlock(m); }\n", i, i, i, i)
	}
	writeSpawnJoinMain(&b, "t", n)
	return b.String()
}

// writeSpawnJoinMain writes a CIR main that spawns fn1 … fnN and joins
// them.
func writeSpawnJoinMain(b *strings.Builder, fn string, n int) {
	b.WriteString("\nfn main() {\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(b, "    let h%d = spawn %s%d();\n", i, fn, i)
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(b, "    join(h%d);\n", i)
	}
	b.WriteString("}\n")
}

// lockPrograms are mutex programs the trust explorer runs: lockinc-like
// counters, exchanges, deadlocks with two and three mutexes, a thread that
// joins while it holds a mutex, a data race and a lost update next to a
// critical section, an assume inside a critical section, nested locks in
// one order, a mutex taken twice by a thread, an unlock of a mutex not
// held. (Trylock and condition variables go to the graph explorer:
// trustx.Supported.)
var lockPrograms = []struct {
	name string
	src  string
	// execs: the executions (complete, blocked, violating) the trust
	// explorer visits under ra and rc11 (0: not checked). For lockinc and
	// lock2inc these are GenMC 0.10.3's counts of complete executions
	// (genmc -rc11 / -ra --disable-estimation -disable-mm-detector
	// -- -DN=n lockinc0.c, 2026-11-27; GenMC reports no blocked ones):
	// N! each. Before locks waited for held mutexes trust visited 148
	// (N=4) and 1305 (N=5) executions of lockinc, most of them blocked.
	execs int
}{
	{"lockinc3", lockIncN(3), 6},
	{"lockinc4", lockIncN(4), 24},
	{"lockinc5", lockIncN(5), 120},
	{"lock2inc3", lockIncN(3, "x", "y"), 6},
	{"lock2inc4", lockIncN(4, "x", "y"), 24},
	{"exchange3", exchangeN(3), 6},
	{"exchange4", exchangeN(4), 24},
	{"abba", `
global a: mutex;
global b: mutex;
global x: int;
fn t1() { lock(a); lock(b); x = x + 1; unlock(b); unlock(a); }
fn t2() { lock(b); lock(a); x = x + 1; unlock(a); unlock(b); }
fn main() { let p = spawn t1(); let q = spawn t2(); join(p); join(q); assert(x == 2); }
`, 0},
	{"cycle3", `
global a: mutex;
global b: mutex;
global c: mutex;
atomic global x: int;
fn t1() { lock(a); store(x, 1, rlx); lock(b); unlock(b); unlock(a); }
fn t2() { lock(b); let r = load(x, rlx); lock(c); unlock(c); unlock(b); }
fn t3() { lock(c); store(x, 2, rel); lock(a); unlock(a); unlock(c); }
fn main() { let p = spawn t1(); let q = spawn t2(); let s = spawn t3(); join(p); join(q); join(s); }
`, 0},
	{"joinHeld", `
global m: mutex;
atomic global x: int;
fn t() { store(x, 1, rlx); lock(m); store(x, 2, rlx); unlock(m); }
fn main() { lock(m); let h = spawn t(); let r = load(x, rlx); join(h); unlock(m); }
`, 0},
	{"raceOutside", `
global m: mutex;
global x: int;
fn t1() { lock(m); x = 1; unlock(m); }
fn t2() { x = 2; }
fn t3() { lock(m); let r = x; unlock(m); }
fn main() { let p = spawn t1(); let q = spawn t2(); let s = spawn t3(); join(p); join(q); join(s); }
`, 0},
	{"lostUpdate", `
global m: mutex;
atomic global x: int;
fn t1() { lock(m); let r = load(x, rlx); store(x, r + 1, rlx); unlock(m); }
fn t2() { let r = load(x, rlx); store(x, r + 1, rlx); }
fn main() { let p = spawn t1(); let q = spawn t2(); let s = spawn t1(); join(p); join(q); join(s); assert(load(x, rlx) == 3); }
`, 0},
	{"assumeInside", `
global m: mutex;
atomic global y: int;
atomic global x: int;
fn t1() { lock(m); assume(load(y, acq) == 1); store(x, 1, rlx); unlock(m); }
fn t2() { store(y, 1, rel); lock(m); let r = load(x, rlx); unlock(m); }
fn t3() { lock(m); store(x, 3, rlx); unlock(m); }
fn main() { let p = spawn t1(); let q = spawn t2(); let s = spawn t3(); join(p); join(q); join(s); }
`, 0},
	{"nested", `
global a: mutex;
global b: mutex;
atomic global x: int;
fn t() { lock(a); let r = load(x, rlx); lock(b); store(x, r + 1, rlx); unlock(b); unlock(a); lock(b); store(x, 7, rlx); unlock(b); }
fn main() { let p = spawn t(); let q = spawn t(); let s = spawn t(); join(p); join(q); join(s); }
`, 0},
	{"twice", `
global m: mutex;
atomic global x: int;
fn t(v: int) { lock(m); let r = load(x, rlx); store(x, r + v, rlx); unlock(m); lock(m); store(x, v, rlx); unlock(m); }
fn main() { let p = spawn t(1); let q = spawn t(10); join(p); join(q); }
`, 0},
	{"unlockNotHeld", `
global m: mutex;
atomic global x: int;
fn t1() { lock(m); store(x, 1, rlx); unlock(m); }
fn t2() { let r = load(x, rlx); if (r == 1) { unlock(m); } }
fn main() { let p = spawn t1(); let q = spawn t2(); join(p); join(q); }
`, 0},
}

// TestTrustLockPrograms compares, on lockPrograms, the trust explorer
// (locks wait for held mutexes) with the reference explorers: under ra and
// rc11 the graph explorer (operational mutexes): the same complete
// outcomes with the same graphs, each built once, the same violations
// (deadlocks, assertions, data races, runtime errors), and where the table
// says so the number of executions trust visits (GenMC's); under tso and
// sc the reference explorer (every interleaving; vmcr where that takes
// long): the same verdict and outcomes.
func TestTrustLockPrograms(t *testing.T) {
	for _, pr := range lockPrograms {
		p := compileCIR(t, pr.name+".cir", pr.src)
		if why := trustx.Supported(p); why != "" {
			t.Fatalf("%s: trust does not model %s", pr.name, why)
		}
		for _, model := range []string{"ra", "rc11"} {
			t.Run(pr.name+"/"+model, func(t *testing.T) {
				ref, ok1 := summarise(t, p, trustx.EnumOptions{Model: model, Explorer: "reference"}, 60*time.Second)
				tr, ok2 := summariseBlocked(t, p, trustx.EnumOptions{Model: model, Explorer: "trust"}, 60*time.Second)
				if !ok1 || !ok2 {
					t.Fatal("exploration did not finish")
				}
				if tr.dup > 0 || tr.dupBlocked > 0 {
					t.Errorf("trust built %d complete and %d blocked graphs twice", tr.dup, tr.dupBlocked)
				}
				if a, b := tr.String(), ref.String(); a != b {
					t.Errorf("trust and graph disagree\ntrust:\n%s\ngraph:\n%s", a, b)
				}
				n := tr.nComplete + tr.nBlocked + tr.nViolating
				if pr.execs > 0 && (n != pr.execs || tr.nBlocked != 0) {
					t.Errorf("trust visited %d executions (%d complete, %d blocked), want %d complete and none blocked", n, tr.nComplete, tr.nBlocked, pr.execs)
				}
				t.Logf("trust: %d complete, %d blocked, %d violating; %d outcomes, %d violations", tr.nComplete, tr.nBlocked, tr.nViolating, len(tr.graphs), len(tr.violations))
			})
		}
		for _, model := range []string{"tso", "sc"} {
			t.Run(pr.name+"/"+model, func(t *testing.T) {
				ctx := context.Background()
				tr, err := ncmc.Verify(ctx, p, ncmc.Options{Explorer: "trust", Model: model, KeepGoing: true, Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				if tr.Explorer != "trust" || tr.Stopped != "" {
					t.Fatalf("explorer %s, stopped %q", tr.Explorer, tr.Stopped)
				}
				// the reference explorer (every interleaving, store
				// buffers) where it finishes soon, else vmcr
				ref, err := ncmc.Verify(ctx, p, ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: 20000})
				if err != nil {
					t.Fatal(err)
				}
				if ref.Stopped != "" {
					if ref, err = ncmc.Verify(ctx, p, ncmc.Options{Explorer: "vmcr", Model: model, KeepGoing: true, Workers: 1}); err != nil {
						t.Fatal(err)
					}
				}
				if ref.Stopped != "" {
					t.Fatalf("%s stopped: %s", ref.Explorer, ref.Stopped)
				}
				if tr.Verdict != ref.Verdict {
					t.Errorf("verdict: trust %s (%s), %s %s (%s)", tr.Verdict, tr.Reason, ref.Explorer, ref.Verdict, ref.Reason)
				}
				a, b := explorertest.OutcomeKeys(tr), explorertest.OutcomeKeys(ref)
				if !slices.Equal(a, b) {
					t.Errorf("outcomes differ\ntrust:\n%s\n%s:\n%s", strings.Join(a, "\n"), ref.Explorer, strings.Join(b, "\n"))
				}
			})
		}
	}
}

// TestTrustLockWaits checks that under ra and rc11 the trust explorer
// visits no blocked execution of lockinc and of the exchanges (a lock
// never reads a held mutex while another thread can move), and that a
// deadlock is still found with its blocked locks.
func TestTrustLockWaits(t *testing.T) {
	for _, model := range []string{"ra", "rc11"} {
		for _, n := range []int{2, 3, 4} {
			p := compileCIR(t, "ex.cir", exchangeN(n))
			blocked, total := 0, 0
			_, err := trustx.Enumerate(context.Background(), p, trustx.EnumOptions{Model: model, Explorer: "trust"}, func(x *interp.Execution) bool {
				total++
				if x.Blocked() {
					blocked++
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			for i := 2; i <= n; i++ {
				want *= i
			}
			if blocked != 0 || total != want {
				t.Errorf("%s exchange%d: %d executions, %d blocked; want %d, none blocked", model, n, total, blocked, want)
			}
		}
	}
}
