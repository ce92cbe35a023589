package ncmc_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

// The differential harness of the ncmc explorer as a plain DPOR (issue 6):
// without commutativity specs, the ncmc explorer is a sleep-set + source-set
// DPOR over macro-steps for SC, and the sweep trusts its "verified" on
// SV-COMP tasks. On general generated shared-memory programs
// (internal/progen with its full feature mix: locks, nested locks,
// RMWs, CAS, atomic blocks, condition variables, nondet, awaits, branches
// and loops on values read, asserts) it must reach exactly the outcomes and
// the verdict of the plain reference explorer, which enumerates every
// interleaving.

var (
	dporDiffN    = flag.Int("dpordiff.n", 0, "generated programs in TestDPORDifferential (0: 600, 100 with -short, 12000 with -long or NCMC_LONG=1)")
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

// dporMaxExecutions bounds both explorers per program; programs over it are
// counted, not compared (nearly all of the reference's time would go to the
// few programs over a larger bound).
const dporMaxExecutions = 4000

// compareDPOR runs the ncmc explorer without specs (which is dpor) and the
// plain reference explorer on prog, each within maxExec executions, and
// compares verdicts and outcomes (OutcomeKeys: final states of complete
// executions, violations by message); then the same with the state cache.
func compareDPOR(prog *ir.Program, maxExec int) explorertest.Run {
	ctx := context.Background()
	opts := ncmc.Options{KeepGoing: true, MaxExecutions: maxExec, Timeout: time.Minute}
	ref, cand := opts, opts
	ref.Explorer, cand.Explorer = "reference", "ncmc"
	r := explorertest.Pair{Name: "dpor", Want: "dpor", Oracle: ref, Cand: cand, Keys: explorertest.OutcomeKeys}.Compare(ctx, ncmc.Verify, prog)
	if r.Skipped != "" || r.Cand == nil {
		return r
	}
	c := compareCached(ctx, prog, opts, r.Oracle, explorertest.OutcomeKeys)
	if c.Skipped != "" {
		r.Notes = append(r.Notes, "the run with the state cache not compared: "+c.Skipped)
	}
	r.Diffs = append(r.Diffs, c.Diffs...)
	return r
}

// TestDPORDifferential: 600 generated programs (100 with -short, 12000
// with -long or NCMC_LONG=1) in two parallel chunks; every disagreement
// fails.
func TestDPORDifferential(t *testing.T) {
	explorertest.Harness{
		Name:  "dpor",
		First: *dporDiffSeed,
		N:     explorertest.Size(uint64(*dporDiffN), 600, 100, 12000),
		Gen: func(seed uint64) (string, *ir.Program, error) {
			src := progen.Generate(rand.New(rand.NewPCG(seed, 0x64706f72)), dporConfig(seed))
			prog, err := frontend.ParseCIR(fmt.Sprintf("dpor-gen-%d.cir", seed), []byte(src))
			return src, prog, err
		},
		Compare: func(_ *testing.T, _ uint64, prog *ir.Program) explorertest.Run {
			return compareDPOR(prog, dporMaxExecutions)
		},
		MinCompared: 0.8,
	}.Run(t)
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
			t.Logf("dpor %d executions in %v; reference %d executions in %v", r.CandExec, r.CandTime, r.OracleExec, r.OracleTime)
			if r.Skipped != "" {
				t.Fatalf("not compared: %s", r.Skipped)
			}
			if len(r.Diffs) > 0 {
				t.Errorf("the ncmc explorer (no specs) disagrees with the plain reference explorer:\n%s", strings.Join(r.Diffs, "\n"))
			}
		})
	}
}
