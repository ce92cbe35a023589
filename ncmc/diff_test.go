package ncmc_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/commspec"
	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/smt"
)

// The differential harness: mcr must reach exactly the outcomes (final states
// and violations) and the verdict of the reference explorer.

var (
	stateDiffExtra = flag.Int("statediff.extra", 0, "TestStateCacheDifferential on this many further seeds per model instead of the default ones")
	diffN          = flag.Int("diff.n", 0, "generated programs per model in the mcr differential test (0: the default size)")
	diffSeed       = flag.Uint64("diff.seed", 1, "first seed of the mcr differential test")
	// Z3's models (and hence mcr's seeds) change with its random seed;
	// mcr must be complete whatever the models are.
	diffZ3Seed = flag.Int("diff.z3seed", -1, "Z3 random seed (smt.random_seed) for the mcr differential tests (-1: Z3's default)")
)

// setZ3Seed applies -diff.z3seed (a process-wide Z3 parameter, set before
// any solver runs).
func setZ3Seed(t *testing.T) {
	if *diffZ3Seed < 0 {
		return
	}
	for _, p := range []string{"smt.random_seed", "sat.random_seed"} {
		if err := smt.SetGlobalParam(p, fmt.Sprint(*diffZ3Seed)); err != nil {
			t.Fatal(err)
		}
	}
}

// outcomeKeys lists what explorers must agree on: the final states of
// complete executions and the violations found (explorertest.OutcomeKeys).
func outcomeKeys(r *ncmc.Result) []string { return explorertest.OutcomeKeys(r) }

// compare runs both explorers on prog and returns a description of any
// disagreement ("" if none), and whether the reference finished.
func compare(t *testing.T, prog *ir.Program, model string, workers int) (string, bool) {
	t.Helper()
	ctx := context.Background()
	got, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "mcr", Model: model, KeepGoing: true, Workers: workers})
	if err != nil {
		return "mcr error: " + err.Error(), true
	}
	if got.Explorer != "mcr" {
		return "", false // mcr fell back to the reference explorer: nothing to compare
	}
	// The stateful reference explorer is the oracle here (it is itself
	// checked against the plain one in TestStateCacheDifferential).
	ref, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: 200000, StateCache: true})
	if err != nil {
		return "reference error: " + err.Error(), true
	}
	if ref.Verdict == ncmc.Unknown && ref.Kind == "executions" {
		return "", false
	}
	var diffs []string
	if got.Verdict != ref.Verdict {
		diffs = append(diffs, fmt.Sprintf("verdict: mcr %s (%s), reference %s (%s)", got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	diffs = append(diffs, explorertest.Diff("mcr", outcomeKeys(ref), outcomeKeys(got))...)
	return strings.Join(diffs, "\n"), true
}

// diffChunk compares mcr with the reference on the generated programs of
// seeds [from, to) under model, as a parallel subtest.
func diffChunk(t *testing.T, model string, from, to uint64, atomic bool) {
	name := fmt.Sprintf("%s/%d-%d", model, from, to)
	if atomic {
		name += "/atomic"
	}
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		cfg := progen.Default()
		if atomic {
			cfg.Atomic = 2
		}
		checked, skipped := 0, 0
		for seed := from; seed < to; seed++ {
			src := progen.Generate(rand.New(rand.NewPCG(seed, 0x6d6372)), cfg)
			prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
			if err != nil {
				t.Fatalf("seed %d: generated program does not compile: %v\n%s", seed, err, src)
			}
			d, ok := compare(t, prog, model, 1)
			if !ok {
				skipped++
				continue
			}
			checked++
			if d != "" {
				t.Errorf("%s, seed %d: mcr disagrees with the reference explorer:\n%s\nprogram:\n%s", model, seed, d, src)
			}
		}
		t.Logf("%s: %d generated programs compared, %d skipped (reference over its execution bound, or mcr not applicable)", model, checked, skipped)
	})
}

// TestMCRDifferential: 1000 generated programs under SC (200 with -short,
// 2000 with -long), in parallel chunks.
func TestMCRDifferential(t *testing.T) {
	setZ3Seed(t)
	n := explorertest.Size(uint64(*diffN), 1000, 200, 2000)
	const chunks = 4
	for c := uint64(0); c < chunks; c++ {
		diffChunk(t, "sc", *diffSeed+c*n/chunks, *diffSeed+(c+1)*n/chunks, c == chunks-1)
	}
}

// Under TSO and PSO too: 500 generated programs each (100 with -short),
// and a fifth more with atomic sections (whose RMWs drain the thread's
// store buffer inside the section: mcr once kept those commits out of the
// section and answered verified on a program with a violation).
func TestMCRDifferentialRelaxed(t *testing.T) {
	setZ3Seed(t)
	n := explorertest.Size(uint64(*diffN), 500, 100, 500)
	base := *diffSeed + 50000
	for _, model := range []string{"tso", "pso"} {
		diffChunk(t, model, base, base+n/2, false)
		diffChunk(t, model, base+n/2, base+n, false)
		diffChunk(t, model, base+n, base+n+n/5, true)
	}
}

// Every program in testdata/regress (disagreements found earlier) and every
// example must agree too.
func TestMCRRegressionsAndExamples(t *testing.T) {
	setZ3Seed(t)
	files, _ := filepath.Glob("testdata/regress/*.cir")
	ex, _ := filepath.Glob("../examples/*.cir")
	files = append(files, ex...)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := frontend.ParseCIR(f, src)
			if err != nil {
				t.Fatal(err)
			}
			models := []string{"sc", "tso", "pso"}
			if strings.HasPrefix(f, "../examples/") {
				models = models[:1] // examples under tso/pso are benchmarks, not tests
			}
			// A "// models: sc tso" line restricts an expensive regression
			// test to the models where it was found.
			for _, line := range strings.Split(string(src), "\n") {
				if ms, ok := strings.CutPrefix(line, "// models:"); ok {
					models = strings.Fields(ms)
				}
			}
			for _, model := range models {
				if d, ok := compare(t, prog, model, 1); ok && d != "" {
					t.Errorf("%s: mcr disagrees with the reference explorer:\n%s", model, d)
				}
			}
		})
	}
}

// The stateful reference explorer reaches the same outcomes as the plain one
// (it is the oracle of the mcr differential tests).
func TestStateCacheDifferential(t *testing.T) {
	type part struct {
		model    string
		from, to int
	}
	// Parallel parts of about equal cost (SC programs are cheaper): 200
	// programs under sc and 50 each under tso and pso (300 and 100 each
	// with -long; a fifth of 80/30/30 with -short).
	parts := []part{{"sc", 0, 100}, {"sc", 100, 200}, {"tso", 0, 50}, {"pso", 0, 50}}
	if explorertest.Long() {
		parts = []part{{"sc", 0, 150}, {"sc", 150, 300}, {"tso", 0, 100}, {"pso", 0, 100}}
	}
	if testing.Short() {
		parts = []part{{"sc", 0, 40}, {"sc", 40, 80}, {"tso", 0, 30}, {"pso", 0, 30}}
	}
	if n := *stateDiffExtra; n > 0 {
		// Further seeds, in two parts per model.
		parts = nil
		for _, m := range []string{"sc", "tso", "pso"} {
			parts = append(parts, part{m, 300, 300 + n/2}, part{m, 300 + n/2, 300 + n})
		}
	}
	for _, p := range parts {
		t.Run(fmt.Sprintf("%s/%d-%d", p.model, p.from, p.to), func(t *testing.T) {
			t.Parallel()
			stateCacheDiff(t, p.model, p.from, p.to)
		})
	}
}

// stateCacheDiff compares the plain and the stateful reference explorer on
// the generated programs of seeds 1000+from .. 1000+to (a fifth with -short).
func stateCacheDiff(t *testing.T, model string, from, to int) {
	if testing.Short() {
		to = from + (to-from)/5
	}
	cfg := progen.Default()
	compared := 0
	for i := from; i < to; i++ {
		seed := uint64(1000 + i)
		src := progen.Generate(rand.New(rand.NewPCG(seed, 0x6d6372)), cfg)
		prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		plain, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: 100000})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Verdict == ncmc.Unknown {
			continue
		}
		cached, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, StateCache: true})
		if err != nil {
			t.Fatal(err)
		}
		compared++
		if a, b := strings.Join(outcomeKeys(plain), "\n"), strings.Join(outcomeKeys(cached), "\n"); a != b || plain.Verdict != cached.Verdict {
			t.Errorf("%s, seed %d: stateful reference disagrees:\nplain %s:\n%s\nstateful %s:\n%s\n%s", model, seed, plain.Verdict, a, cached.Verdict, b, src)
		}
	}
	t.Logf("%s: %d programs compared (plain reference within 100000 executions)", model, compared)
}

// Parallel mcr gives the same verdict and outcomes as one worker.
func TestMCRWorkers(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 8
	}
	cfg := progen.Default()
	files, _ := filepath.Glob("../examples/*.cir")
	var progs []*ir.Program
	var names []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.ParseCIR(f, src)
		if err != nil {
			t.Fatal(err)
		}
		progs, names = append(progs, p), append(names, f)
	}
	for i := 0; i < n; i++ {
		seed := uint64(9000 + i)
		src := progen.Generate(rand.New(rand.NewPCG(seed, 0x6d6372)), cfg)
		p, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		progs, names = append(progs, p), append(names, fmt.Sprintf("seed %d", seed))
	}
	for i, p := range progs {
		var keys [2]string
		var verdicts [2]ncmc.Verdict
		for k, w := range []int{1, 2} {
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "mcr", KeepGoing: true, Workers: w})
			if err != nil {
				t.Fatalf("%s, %d workers: %v", names[i], w, err)
			}
			keys[k], verdicts[k] = strings.Join(outcomeKeys(res), "\n"), res.Verdict
		}
		if keys[0] != keys[1] || verdicts[0] != verdicts[1] {
			t.Errorf("%s: 1 worker: %s\n%s\n2 workers: %s\n%s", names[i], verdicts[0], keys[0], verdicts[1], keys[1])
		}
	}
}

// deadlineOnly has a deadline that has passed but does not report it yet
// (Err is nil, Done never closes): what a solver query sees when its
// timeout, shortened to the exploration's deadline, runs out a moment
// before the context's own timer fires.
type deadlineOnly struct{ context.Context }

func (deadlineOnly) Deadline() (time.Time, bool) { return time.Now().Add(-time.Millisecond), true }

// A time bound that runs out inside an SMT query ends the exploration with
// verdict unknown ("time bound ... hit"), under plain mcr and under the
// thesis rule, never with the error "solver gave up: context deadline
// exceeded". deadlineOnly makes the first query that reaches Z3 hit the
// deadline before the context reports it (the race that produced the error).
func TestMCRDeadlineInsideQuery(t *testing.T) {
	load := func(path string) *ir.Program {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := frontend.ParseCIR(path, src)
		if err != nil {
			t.Fatal(err)
		}
		return prog
	}
	spec, err := commspec.ParseFile(filepath.Join("..", "examples", "counter.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		prog string
		opts ncmc.Options
	}{
		{"mcr sc", "../examples/dekker.cir", ncmc.Options{Explorer: "mcr", Model: "sc"}},
		{"mcr tso", "testdata/regress/atomic-pivot-section.cir", ncmc.Options{Explorer: "mcr", Model: "tso"}},
		{"mcr, 2 workers", "../examples/peterson.cir", ncmc.Options{Explorer: "mcr", Workers: 2}},
		{"thesis rule", "../examples/counter-shb2.cir", ncmc.Options{Explorer: "ncmc", NCMCRule: "thesis", Specs: []*commspec.Spec{spec}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Timeout = time.Hour
			if opts.Workers == 0 {
				opts.Workers = 1
			}
			res, err := ncmc.Verify(deadlineOnly{context.Background()}, load(tc.prog), opts)
			if err != nil {
				t.Fatalf("error %v, want verdict unknown", err)
			}
			if res.Verdict != ncmc.Unknown || res.Kind != "time" || res.Reason != "time bound 1h0m0s hit" {
				t.Errorf("verdict %s, kind %q, reason %q; want unknown, time, time bound 1h0m0s hit", res.Verdict, res.Kind, res.Reason)
			}
			if res.Stats.Executions == 0 || res.Stats.SMTQueries == 0 {
				t.Errorf("stats %+v: want the execution and the query that ran", res.Stats)
			}
		})
	}
}

// The same with real time bounds: short timeouts on a program with many
// executions end in unknown (or verified, if the exploration finished
// first), never in an error.
func TestMCRShortTimeouts(t *testing.T) {
	path := filepath.Join("..", "examples", "hashtable.cir")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.ParseCIR(path, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 70 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond} {
		for _, w := range []int{1, 2} {
			res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Explorer: "mcr", Timeout: d, Workers: w})
			if err != nil {
				t.Fatalf("timeout %v, %d workers: error %v", d, w, err)
			}
			if res.Verdict == ncmc.Unknown && res.Kind != "time" || res.Verdict == ncmc.Violation {
				t.Errorf("timeout %v, %d workers: verdict %s (%s)", d, w, res.Verdict, res.Reason)
			}
		}
	}
}
