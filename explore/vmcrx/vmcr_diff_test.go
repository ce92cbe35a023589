package vmcrx_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

// The vmcr differential harness: the value-optimal explorer must reach the
// outcomes and the verdict of the reference explorer, with exactly one
// complete execution per class (distinct read values, choices and final
// state of complete executions, counted by the plain reference explorer).

var (
	vmcrN    = flag.Int("vmcr.n", 0, "generated programs in the vmcr differential test (0: 400, 200 with -short, 2000 with -long)")
	vmcrSBN  = flag.Int("vmcr.sbn", 0, "generated programs per model in the vmcr differential test under tso and pso (0: 60, 30 with -short, 2000 with -long)")
	vmcrSeed = flag.Uint64("vmcr.seed", 1, "first seed of the vmcr differential test")
)

// vmcrCompare runs vmcr and the reference explorer on prog under model
// ("" is sc): the disagreements in verdict and outcomes
// (explorertest.Pair's options and keys) and in the number of complete
// executions, which must be the number of classes of the plain reference
// explorer. Run.Skipped says why nothing was compared.
func vmcrCompare(prog *ir.Program, model string) explorertest.Run {
	ctx := context.Background()
	// The plain reference explorer counts classes exactly (the stateful
	// one cuts runs, and so classes).
	budget := 100000
	if model == "tso" || model == "pso" {
		budget = 30000 // the reference interleaves flushes: bigger programs are skipped sooner
	}
	p := explorertest.Pair{Name: "vmcr", Keys: explorertest.OutcomeKeys,
		Cand:   ncmc.Options{Explorer: "vmcr", Model: model, KeepGoing: true},
		Oracle: ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: budget, Classes: true}}
	got, err := ncmc.Verify(ctx, prog, p.Cand)
	if err != nil {
		return explorertest.Run{Diffs: []string{"vmcr error: " + err.Error()}}
	}
	if got.Explorer != "vmcr" {
		return explorertest.Run{Skipped: "not explored by vmcr (" + got.Note + ")"}
	}
	ref, err := ncmc.Verify(ctx, prog, p.Oracle)
	if err != nil {
		return explorertest.Run{Diffs: []string{"reference error: " + err.Error()}}
	}
	if ref.Stopped != "" {
		// over the reference's budget: its outcomes and classes are partial
		return explorertest.Run{Skipped: "oracle over its bound (" + ref.Stopped + ")"}
	}
	// compared even if vmcr stopped early (its search budget): then it
	// misses outcomes or the verdict
	run := explorertest.Run{Oracle: ref, Cand: got, OracleExec: ref.Stats.Executions, CandExec: got.Stats.Complete,
		OracleTime: ref.Elapsed, CandTime: got.Elapsed}
	if got.Verdict != ref.Verdict {
		run.Diffs = append(run.Diffs, fmt.Sprintf("verdict: vmcr %s (%s), reference %s (%s)", got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	run.Diffs = append(run.Diffs, explorertest.Diff("vmcr", p.Keys(ref), p.Keys(got))...)
	if got.Stats.Complete > ref.Classes.Values {
		run.Diffs = append(run.Diffs, fmt.Sprintf("redundancy: %d complete executions for %d classes", got.Stats.Complete, ref.Classes.Values))
	}
	if got.Stats.Complete < ref.Classes.Values {
		run.Diffs = append(run.Diffs, fmt.Sprintf("missing classes: %d complete executions for %d classes", got.Stats.Complete, ref.Classes.Values))
	}
	return run
}

// TestVMCRDifferential: 400 generated SC programs (200 with -short, 2000
// with -long or make test-long).
func TestVMCRDifferential(t *testing.T) {
	// the default run of make test stays under 15 minutes
	vmcrDiff(t, "sc", explorertest.Size(uint64(*vmcrN), 400, 200, 2000))
}

// TestVMCRDifferentialSB: 60 generated programs under tso and 60 under
// pso (30 with -short, 2000 each with -long or make test-long): the store-buffer
// commit scheme against the reference explorer, which interleaves flushes.
// Two of three programs come from vmcrSBProgram (store buffering shapes),
// the third from progen with the knobs of vmcrSBConfig.
func TestVMCRDifferentialSB(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrSBN), 60, 30, 2000)
	for _, m := range []string{"tso", "pso"} {
		t.Run(m, func(t *testing.T) { vmcrDiff(t, m, n) })
	}
}

// vmcrSBConfig returns the generator knobs under tso and pso: every other
// seed without RMWs, CAS and locks (which drain the store buffer), with
// more variables and statements, so that store buffering shows (stores
// followed by loads of other variables).
func vmcrSBConfig(seed uint64) progen.Config {
	cfg := progen.Default()
	if seed%2 == 0 {
		cfg.RMW, cfg.CAS, cfg.Lock, cfg.Mutexes = 0, 0, 0, 0
		cfg.MinVars, cfg.MaxVars = 2, 3
		cfg.MinOps, cfg.MaxOps = 2, 4
		cfg.Load, cfg.Store = 6, 6
	}
	return cfg
}

// vmcrSBProgram returns a program of store-buffering shapes (SB, MP, LB,
// IRIW and their mixes): 2-3 workers of 2-4 loads, stores, occasional
// fences, fetch_adds and branches on values read, a main that may store
// before spawning and may assert on the final state.
func vmcrSBProgram(rng *rand.Rand) string {
	var b strings.Builder
	nv := 2 + rng.IntN(2)
	for v := 0; v < nv; v++ {
		fmt.Fprintf(&b, "global v%d: int;\n", v)
	}
	nw, maxOps := 2, 4 // small enough for the reference explorer, which interleaves flushes
	if rng.IntN(4) == 0 {
		nw, maxOps = 3, 2
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "\nfn w%d() {\n    let r0 = 0;\n    let r1 = 0;\n", w)
		ops := 2 + rng.IntN(maxOps-1)
		for k := 0; k < ops; k++ {
			v, r := rng.IntN(nv), rng.IntN(2)
			// Stores first, loads last: store-load (tso) and store-store
			// (pso) reorderings show.
			x := rng.IntN(20)
			switch {
			case k < (ops+1)/2 && x < 15, k >= (ops+1)/2 && x < 2:
				fmt.Fprintf(&b, "    v%d = %d;\n", v, 1+rng.IntN(2))
			case x < 15:
				fmt.Fprintf(&b, "    r%d = v%d;\n", r, v)
			case x < 16:
				b.WriteString("    fence(sc);\n")
			case x < 17:
				fmt.Fprintf(&b, "    r%d = fetch_add(v%d, 1);\n", r, v)
			case x < 18:
				fmt.Fprintf(&b, "    v%d = r%d + 1;\n", v, r)
			default:
				fmt.Fprintf(&b, "    if (r%d == %d) {\n        v%d = %d;\n    }\n", r, rng.IntN(2), v, 1+rng.IntN(2))
			}
		}
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "    assert(r0 != %d || r1 != %d, \"a%d\");\n", rng.IntN(2), rng.IntN(2), w)
		}
		b.WriteString("}\n")
	}
	b.WriteString("\nfn main() {\n")
	if rng.IntN(3) == 0 {
		fmt.Fprintf(&b, "    v%d = 2;\n", rng.IntN(nv))
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "    let h%d = spawn w%d();\n", w, w)
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "    join(h%d);\n", w)
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "    let f0 = v0;\n    let f1 = v1;\n    assert(f0 + f1 != %d, \"final\");\n", 2+rng.IntN(3))
	}
	b.WriteString("}\n")
	return b.String()
}

// vmcrDiff compares vmcr with the reference explorer on n generated
// programs under model (explorertest.Harness).
func vmcrDiff(t *testing.T, model string, n uint64) {
	var mu sync.Mutex
	classes := 0
	h := explorertest.Harness{Name: "vmcr", First: *vmcrSeed, N: n, Chunks: 4,
		Gen: func(seed uint64) (string, *ir.Program, error) {
			rng := rand.New(rand.NewPCG(seed, 0x6d6372))
			var src string
			switch {
			case model == "sc":
				src = progen.Generate(rng, progen.Default())
			case seed%3 != 0:
				src = vmcrSBProgram(rng)
			default:
				src = progen.Generate(rng, vmcrSBConfig(seed))
			}
			prog, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
			return src, prog, err
		},
		Compare: func(t *testing.T, seed uint64, prog *ir.Program) explorertest.Run {
			r := vmcrCompare(prog, model)
			if r.Oracle != nil && r.Skipped == "" {
				mu.Lock()
				classes += r.Oracle.Classes.Values
				mu.Unlock()
			}
			return r
		}}
	sum := h.Run(t)
	t.Logf("%s: %d complete executions of vmcr for %d classes", model, sum.CandExec, classes)
}

// Every example and regression program agrees too, under sc, tso and pso.
func TestVMCRExamples(t *testing.T) {
	files, _ := filepath.Glob("../../ncmc/testdata/regress/*.cir")
	ex, _ := filepath.Glob("../../examples/*.cir")
	files = append(files, ex...)
	for _, model := range []string{"sc", "tso", "pso"} {
		t.Run(model, func(t *testing.T) { vmcrExamples(t, files, model) })
	}
}

func vmcrExamples(t *testing.T, files []string, model string) {
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
			if r := vmcrCompare(prog, model); len(r.Diffs) > 0 {
				t.Errorf("vmcr disagrees with the reference explorer:\n%s", strings.Join(r.Diffs, "\n"))
			}
		})
	}
}
