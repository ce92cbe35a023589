package ncmc

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/commspec"
	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/memmodel"
)

func loadSpecProgram(t *testing.T, prog string, specs ...string) (*ir.Program, []*commspec.Spec) {
	t.Helper()
	p, err := frontend.LoadFile(prog)
	if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	var ss []*commspec.Spec
	for _, f := range specs {
		s, err := commspec.ParseFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ss = append(ss, s)
	}
	return p, ss
}

func ncmcOutcomes(res *Result) []string { return explorertest.StrictKeys(res) }

// TestNCMCMatchesReference compares the ncmc explorer (default mode) with
// the reference explorer, both with semantic outcomes, on the shipped
// object examples and their specs: same outcome sets, same verdicts.
func TestNCMCMatchesReference(t *testing.T) {
	cases := []struct {
		prog, spec string
		maxExec    int // executions the ncmc explorer may need at most (0: no check)
	}{
		{"n-counter-inc-3.cir", "counter.yaml", 1},
		{"counter-2inc-cf.cir", "counter.yaml", 3},
		{"counter-shb2.cir", "counter.yaml", 2},
		{"set-2add-cont.cir", "set.yaml", 2},
		{"set-2add-cont.cir", "set-coarse.yaml", 2},
		{"hashtable.cir", "hashtable.yaml", 4},
		{"hashtable.cir", "hashtable-coarse.yaml", 4},
		{"union-find.cir", "union-find.yaml", 0},
		{"union-find.cir", "union-find-coarse.yaml", 0},
	}
	for _, c := range cases {
		t.Run(c.prog+"+"+c.spec, func(t *testing.T) {
			prog, specs := loadSpecProgram(t, filepath.Join("..", "examples", c.prog), filepath.Join("..", "examples", c.spec))
			ctx := context.Background()
			got, err := Verify(ctx, prog, Options{Specs: specs, Semantic: true, KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			if got.Explorer != "ncmc" {
				t.Fatalf("explorer %q, want ncmc", got.Explorer)
			}
			want, err := Verify(ctx, prog, Options{Explorer: "reference", Semantic: true, KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := ncmcOutcomes(got), ncmcOutcomes(want); strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("outcomes differ:\nncmc:\n  %s\nreference:\n  %s", strings.Join(g, "\n  "), strings.Join(w, "\n  "))
			}
			if got.Verdict != want.Verdict {
				t.Errorf("verdict %s, reference %s", got.Verdict, want.Verdict)
			}
			if c.maxExec > 0 && got.Stats.Executions > c.maxExec {
				t.Errorf("%d executions, want at most %d", got.Stats.Executions, c.maxExec)
			}
			t.Logf("ncmc %d executions (%d pruned), reference %d", got.Stats.Executions, got.Stats.Pruned, want.Stats.Executions)
		})
	}
}

// TestNCMCCounterFamily: N-COUNTER-INC(N) needs exactly one execution for
// every N (all inc() invocations commute).
func TestNCMCCounterFamily(t *testing.T) {
	for n := 2; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			prog, specs := loadSpecProgram(t, filepath.Join("..", "benchmarks", "ncounter", fmt.Sprintf("n-counter-inc-%d.cir", n)),
				filepath.Join("..", "examples", "counter.yaml"))
			res, err := Verify(context.Background(), prog, Options{Specs: specs, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Verified || res.Stats.Executions != 1 {
				t.Errorf("%s with %d executions, want verified with 1 (%s)", res.Verdict, res.Stats.Executions, res.Reason)
			}
			if len(res.Outcomes) != 1 || res.Outcomes[0].State != fmt.Sprintf("c.value=%d", n) {
				t.Errorf("outcomes %v, want c.value=%d", res.Outcomes, n)
			}
		})
	}
}

// TestNCMCSetReachesBothResults: contains(1) returns true in some execution
// and false in another (the thesis's rule misses false, docs/ncmc.md).
func TestNCMCSetReachesBothResults(t *testing.T) {
	prog, specs := loadSpecProgram(t, "../examples/set-2add-cont.cir", "../examples/set.yaml")
	res, err := Verify(context.Background(), prog, Options{Specs: specs, KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range res.Outcomes {
		for _, f := range strings.Fields(o.State) {
			if strings.HasPrefix(f, "r=") {
				seen[f] = true
			}
		}
	}
	if !seen["r=true"] || !seen["r=false"] {
		t.Errorf("outcomes %v: want both r=true and r=false", res.Outcomes)
	}
}

// TestNCMCErrors: the ncmc explorer refuses other memory models and specs
// of object types the program does not have.
func TestNCMCErrors(t *testing.T) {
	prog, specs := loadSpecProgram(t, "../examples/n-counter-inc-3.cir", "../examples/counter.yaml")
	if _, err := Verify(context.Background(), prog, Options{Specs: specs, Model: "tso"}); err == nil || !strings.Contains(err.Error(), "sc") {
		t.Errorf("tso with specs: err = %v, want an sc-only error", err)
	}
	_, set := loadSpecProgram(t, "../examples/set-2add-cont.cir", "../examples/set.yaml")
	if _, err := Verify(context.Background(), prog, Options{Specs: set}); err == nil || !strings.Contains(err.Error(), "no object type Set") {
		t.Errorf("set spec on the counter program: err = %v", err)
	}
	if _, err := Verify(context.Background(), prog, Options{Specs: specs, NCMCRule: "bogus"}); err == nil {
		t.Error("unknown rule accepted")
	}
}

// TestNCMCNoSpecMatchesReference runs the ncmc explorer without specs
// (invocations are still atomic steps, but never commute) on every example
// and on client programs that exercise blocking, and compares outcome sets
// and verdicts with the reference explorer.
func TestNCMCNoSpecMatchesReference(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "*.cir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	progs := map[string]*ir.Program{}
	for _, f := range files {
		p, err := frontend.LoadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		progs[filepath.Base(f)] = p
	}
	inline := map[string]string{
		// a holds m and blocks for good; b's lock never runs in the first
		// run, yet b must be tried first (then a completes).
		"lock-then-block.cir": `
global m: mutex;
global flag: int;
global done: int;
fn a() { lock(m); let f = flag; assume(f == 1); done = 1; unlock(m); }
fn b() { lock(m); flag = 1; unlock(m); }
fn main() {
    let p = spawn a();
    let q = spawn b();
    join(p);
    join(q);
    assert(done == 0, "done");
}`,
		// w1 fails while holding mx; the states at the violation depend on
		// whether w2 ran its critical section first.
		"fail-under-lock.cir": `
global x0: int;
global mx: mutex;
global g0: int = -1;
fn w1() { x0 = 1; let r0 = x0; lock(mx); x0 = x0 + 1; assert(r0 != 1, "a1"); unlock(mx); }
fn w2() { let r0 = x0; lock(mx); x0 = x0 + 1; g0 = r0; unlock(mx); }
fn main() {
    let h1 = spawn w1();
    let h2 = spawn w2();
    join(h1);
    join(h2);
}`,
	}
	for name, src := range inline {
		p, err := frontend.ParseCIR(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		progs[name] = p
	}
	for name, prog := range progs {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			got, err := Verify(ctx, prog, Options{Explorer: "ncmc", KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			want, err := Verify(ctx, prog, Options{Explorer: "reference", StateCache: true, KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := ncmcOutcomes(got), ncmcOutcomes(want); strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("outcomes differ:\nncmc:\n  %s\nreference:\n  %s", strings.Join(g, "\n  "), strings.Join(w, "\n  "))
			}
			if got.Verdict != want.Verdict {
				t.Errorf("verdict %s, reference %s", got.Verdict, want.Verdict)
			}
		})
	}
}

// TestCloneExecIndependent: a copy of an execution taken in the middle of a
// run goes on exactly as the original does (same steps, same final state),
// and running the copy leaves the original untouched.
func TestCloneExecIndependent(t *testing.T) {
	for _, name := range []string{"hashtable.cir", "union-find.cir", "set-2add-cont.cir", "counter-shb2.cir"} {
		t.Run(name, func(t *testing.T) {
			prog, _ := loadSpecProgram(t, filepath.Join("..", "examples", name))
			names := interp.NewNames(prog)
			cfg := interp.Config{Model: memmodel.SC(), ContinueAfterViolation: true}
			// Round-robin over the enabled threads, k steps, then copy.
			step := func(x *interp.Execution, i int) bool {
				en := x.Enabled()
				if x.Finished() || len(en) == 0 {
					return false
				}
				x.Step(en[i%len(en)])
				return true
			}
			for k := 0; k < 12; k += 3 {
				orig := interp.NewExecution(prog, names, cfg, interp.FirstChoice{}, false)
				i := 0
				for ; i < k && step(orig, i); i++ {
				}
				before := orig.StateHash()
				cp := orig.Clone(interp.FirstChoice{})
				if cp == nil {
					t.Fatal("cloneExec returned nil")
				}
				if cp.StateHash() != before {
					t.Fatalf("k=%d: copy's state differs", k)
				}
				j := i
				for ; step(cp, j); j++ {
				}
				if orig.StateHash() != before {
					t.Fatalf("k=%d: running the copy changed the original", k)
				}
				for ; step(orig, i); i++ {
				}
				if i != j || orig.StateHash() != cp.StateHash() || orig.Steps() != cp.Steps() {
					t.Errorf("k=%d: original and copy end differently (%d vs %d steps)", k, i, j)
				}
				if len(orig.G.Threads) != len(cp.G.Threads) {
					t.Fatalf("k=%d: graphs differ", k)
				}
				for th := range orig.G.Threads {
					if len(orig.G.Threads[th]) != len(cp.G.Threads[th]) {
						t.Errorf("k=%d: thread %d has %d events, copy %d", k, th, len(orig.G.Threads[th]), len(cp.G.Threads[th]))
					}
				}
			}
		})
	}
}

// TestNCMCStateCache: with the state cache the ncmc explorer reaches the
// same outcomes and verdict as without it, on workloads whose states repeat
// (union-find: no heap) and do not (hashtable: heap blocks), and it does cut
// runs where states repeat.
func TestNCMCStateCache(t *testing.T) {
	cases := []struct {
		prog, spec string
		cuts       bool // runs must be cut at repeated states
	}{
		{"../benchmarks/ds/union-find-mixed-4.cir", "../examples/union-find.yaml", true},
		{"../benchmarks/ds/union-find-mixed-4.cir", "../examples/union-find-coarse.yaml", true},
		{"../benchmarks/ds/hashtable-mixed-4.cir", "../examples/hashtable.yaml", false},
		{"../benchmarks/ds/set-mixed-4.cir", "../examples/set.yaml", false},
		{"../examples/union-find.cir", "../examples/union-find.yaml", false},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.prog)+"/"+filepath.Base(c.spec), func(t *testing.T) {
			prog, specs := loadSpecProgram(t, c.prog, c.spec)
			plain, err := Verify(context.Background(), prog, Options{Specs: specs, KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			cached, err := Verify(context.Background(), prog, Options{Specs: specs, KeepGoing: true, StateCache: true})
			if err != nil {
				t.Fatal(err)
			}
			if cached.Verdict != plain.Verdict {
				t.Fatalf("verdict with cache %s, without %s", cached.Verdict, plain.Verdict)
			}
			if a, b := strings.Join(ncmcOutcomes(cached), "\n"), strings.Join(ncmcOutcomes(plain), "\n"); a != b {
				t.Fatalf("outcomes differ:\nwith cache:\n%s\nwithout:\n%s", a, b)
			}
			if c.cuts && (cached.Stats.Cached == 0 || cached.Stats.Executions >= plain.Stats.Executions) {
				t.Fatalf("the cache cut nothing: %d executions, %d cut (without: %d executions)", cached.Stats.Executions, cached.Stats.Cached, plain.Stats.Executions)
			}
			t.Logf("%d outcomes; executions %d without the cache, %d + %d cut with it", len(plain.Outcomes), plain.Stats.Executions, cached.Stats.Executions, cached.Stats.Cached)
		})
	}
}
