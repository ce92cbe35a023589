package ncmc_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

// The differential harness of the ncmc explorer as a plain DPOR (issue 6):
// without commutativity specs, the ncmc explorer is a sleep-set + source-set
// DPOR over macro-steps for SC, and the sweep trusts its "verified" on
// SV-COMP tasks. On general generated shared-memory programs
// (ncmc/internal/progen with its full feature mix: locks, nested locks,
// RMWs, CAS, atomic blocks, condition variables, nondet, awaits, branches
// and loops on values read, asserts) it must reach exactly the outcomes and
// the verdict of the plain reference explorer, which enumerates every
// interleaving.

var (
	dporDiffN    = flag.Int("dpordiff.n", 0, "generated programs in TestDPORDifferential (0: 1200, 100 with -short, 12000 with -long or NCMC_LONG=1)")
	dporDiffSeed = flag.Uint64("dpordiff.seed", 1, "first seed of TestDPORDifferential")
)

// dporConfig returns the generator knobs for seed: four variants in turn,
// so that every feature is exercised without making programs too large for
// the plain reference explorer.
func dporConfig(seed uint64) progen.Config {
	cfg := progen.Default()
	cfg.Atomic = 2
	switch seed % 4 {
	case 1: // condition variables (wait loops, signal, broadcast)
		cfg.Conds, cfg.Cond = 1, 3
	case 2: // two mutexes: nested locks and deadlocks
		cfg.Mutexes, cfg.Lock = 2, 4
	case 3: // everything, more branches and loops on values read
		cfg.Mutexes, cfg.Conds, cfg.Cond = 2, 1, 2
		cfg.If, cfg.Loop, cfg.Nondet, cfg.Await = 3, 2, 2, 2
	}
	return cfg
}

// dporRun is one comparison of the ncmc explorer (no specs) with the plain
// reference explorer.
type dporRun struct {
	diff, skipped     string
	cacheSkipped      string // why the run with the state cache was not compared
	dporExec, refExec int
	dporTime, refTime time.Duration
}

// dporMaxExecutions bounds both explorers per program; programs over it are
// counted, not compared (nearly all of the reference's time would go to the
// few programs over a larger bound).
const dporMaxExecutions = 4000

// compareDPOR runs the ncmc explorer without specs and the plain reference
// explorer on prog, each within maxExec executions, and compares verdicts and outcomes (outcomeKeys: final
// states of complete executions, violations by message).
func compareDPOR(prog *ir.Program, maxExec int) dporRun {
	ctx := context.Background()
	ref, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", KeepGoing: true, MaxExecutions: maxExec, Timeout: time.Minute})
	if err != nil {
		return dporRun{diff: "reference error: " + err.Error()}
	}
	// A search stopped by the execution or time bound has not seen every
	// outcome, whatever its verdict (a violation found before the bound
	// keeps the verdict "violation").
	if ref.Stopped != "" {
		return dporRun{skipped: "reference over its bound (" + ref.Stopped + ")"}
	}
	got, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "ncmc", KeepGoing: true, MaxExecutions: maxExec, Timeout: time.Minute})
	if err != nil {
		return dporRun{diff: "ncmc error: " + err.Error()}
	}
	run := dporRun{dporExec: got.Stats.Executions, refExec: ref.Stats.Executions, dporTime: got.Elapsed, refTime: ref.Elapsed}
	if got.Stopped != "" {
		run.skipped = "ncmc over its bound (" + got.Stopped + ")"
		return run
	}
	var diffs []string
	if got.Explorer != "dpor" { // the ncmc explorer without specs is dpor
		diffs = append(diffs, fmt.Sprintf("explored by %q, not dpor (%s)", got.Explorer, got.Note))
	}
	if got.Verdict != ref.Verdict {
		diffs = append(diffs, fmt.Sprintf("verdict: ncmc %s (%s), reference %s (%s)", got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	diffs = append(diffs, keyDiffs(outcomeKeys(ref), outcomeKeys(got))...)
	_, skip, cdiffs, err := compareCached(ctx, prog, ncmc.Options{KeepGoing: true, MaxExecutions: maxExec, Timeout: time.Minute}, ref, outcomeKeys)
	if err != nil {
		return dporRun{diff: err.Error()}
	}
	run.cacheSkipped = skip
	diffs = append(diffs, cdiffs...)
	run.diff = strings.Join(diffs, "\n")
	return run
}

// TestDPORDifferential: 1200 generated programs (300 with -short, 12000
// with -long or NCMC_LONG=1) in two parallel chunks; every disagreement
// fails.
func TestDPORDifferential(t *testing.T) {
	n := harnessSize(uint64(*dporDiffN), 1200, 100, 12000)
	var (
		mu                                  sync.Mutex
		programs, compared, skipped, differ int
		dporExec, refExec                   int
		dporTime, refTime                   time.Duration
	)
	start := time.Now()
	inChunks(t, *dporDiffSeed, n, 2, func(t *testing.T, seed uint64) {
		src := progen.Generate(rand.New(rand.NewPCG(seed, 0x64706f72)), dporConfig(seed))
		prog, err := frontend.ParseCIR(fmt.Sprintf("dpor-gen-%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: generated program does not compile: %v\n%s", seed, err, src)
		}
		r := compareDPOR(prog, dporMaxExecutions)
		mu.Lock()
		programs++
		if r.skipped != "" {
			skipped++
		} else {
			compared++
			dporExec += r.dporExec
			refExec += r.refExec
			dporTime += r.dporTime
			refTime += r.refTime
			if r.diff != "" {
				differ++
			}
		}
		mu.Unlock()
		if r.skipped != "" {
			t.Logf("seed %d skipped: %s", seed, r.skipped)
		}
		if r.cacheSkipped != "" {
			t.Logf("seed %d: the run with the state cache not compared: %s", seed, r.cacheSkipped)
		}
		if r.diff != "" {
			t.Errorf("seed %d: the ncmc explorer (no specs) disagrees with the plain reference explorer:\n%s\nprogram:\n%s", seed, r.diff, src)
		}
	})
	t.Logf("%d generated programs, %d compared (%d skipped), %d with disagreements; executions: ncmc %d, reference %d; explorer time: ncmc %v, reference %v; wall %v",
		programs, compared, skipped, differ, dporExec, refExec,
		dporTime.Round(time.Millisecond), refTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	if compared < programs*8/10 {
		t.Errorf("only %d of %d programs compared", compared, programs)
	}
}

// Every disagreement found by TestDPORDifferential, and small programs
// with the constructs the C front-end produces for SV-COMP tasks, are kept in
// testdata/regress-dpor (CIR and C); each must agree too.
func TestDPORRegressions(t *testing.T) {
	files, _ := filepath.Glob("testdata/regress-dpor/*.cir")
	cs, _ := filepath.Glob("testdata/regress-dpor/*.c")
	files = append(files, cs...)
	if len(files) == 0 {
		t.Fatal("no programs in testdata/regress-dpor")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			prog, err := frontend.LoadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := compareDPOR(prog, 100000)
			t.Logf("ncmc %d executions in %v; reference %d executions in %v", r.dporExec, r.dporTime, r.refExec, r.refTime)
			if r.skipped != "" {
				t.Fatalf("not compared: %s", r.skipped)
			}
			if r.diff != "" {
				t.Errorf("the ncmc explorer (no specs) disagrees with the plain reference explorer:\n%s", r.diff)
			}
		})
	}
}
