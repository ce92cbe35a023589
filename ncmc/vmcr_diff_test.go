package ncmc_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"ncmc/explore/explorertest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/ncmc/internal/progen"
)

// The vmcr differential harness: the value-optimal explorer must reach the
// outcomes and the verdict of the reference explorer, with exactly one
// complete execution per class (distinct read values, choices and final
// state of complete executions, counted by the plain reference explorer).

var (
	vmcrN    = flag.Int("vmcr.n", 0, "generated programs in the vmcr differential test (0: 400, 200 with -short, 2000 with -long)")
	vmcrSBN  = flag.Int("vmcr.sbn", 0, "generated programs per model in the vmcr differential test under tso and pso (0: 100, 50 with -short, 2000 with -long)")
	vmcrSeed = flag.Uint64("vmcr.seed", 1, "first seed of the vmcr differential test")
)

// vmcrCompare runs vmcr and the reference explorer on prog under model
// ("" is sc). It returns the disagreements ("" if none), the complete
// executions of vmcr, the classes, and whether the comparison was made.
func vmcrCompare(prog *ir.Program, model string) (diff string, complete, classes int, ok bool) {
	ctx := context.Background()
	got, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "vmcr", Model: model, KeepGoing: true})
	if err != nil {
		return "vmcr error: " + err.Error(), 0, 0, true
	}
	if got.Explorer != "vmcr" {
		return "", 0, 0, false
	}
	// The plain reference explorer counts classes exactly (the stateful
	// one cuts runs, and so classes).
	budget := 100000
	if model == "tso" || model == "pso" {
		budget = 30000 // the reference interleaves flushes: bigger programs are skipped sooner
	}
	ref, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: model, KeepGoing: true, MaxExecutions: budget, Classes: true})
	if err != nil {
		return "reference error: " + err.Error(), 0, 0, true
	}
	if ref.Stopped != "" {
		return "", 0, 0, false // over the reference's budget: its outcomes and classes are partial
	}
	var diffs []string
	if got.Verdict != ref.Verdict {
		diffs = append(diffs, fmt.Sprintf("verdict: vmcr %s (%s), reference %s (%s)", got.Verdict, got.Reason, ref.Verdict, ref.Reason))
	}
	diffs = append(diffs, explorerKeyDiffs("vmcr", outcomeKeys(ref), outcomeKeys(got))...)
	if got.Stats.Complete > ref.Classes.Values {
		diffs = append(diffs, fmt.Sprintf("redundancy: %d complete executions for %d classes", got.Stats.Complete, ref.Classes.Values))
	}
	if got.Stats.Complete < ref.Classes.Values {
		diffs = append(diffs, fmt.Sprintf("missing classes: %d complete executions for %d classes", got.Stats.Complete, ref.Classes.Values))
	}
	return strings.Join(diffs, "\n"), got.Stats.Complete, ref.Classes.Values, true
}

// TestVMCRDifferential: 400 generated SC programs (200 with -short, 2000
// with -long or make test-long).
func TestVMCRDifferential(t *testing.T) {
	// the default run of make test stays under 15 minutes
	vmcrDiff(t, "sc", explorertest.Size(uint64(*vmcrN), 400, 200, 2000))
}

// TestVMCRDifferentialSB: 100 generated programs under tso and 100 under
// pso (50 with -short, 2000 each with -long or make test-long): the store-buffer
// commit scheme against the reference explorer, which interleaves flushes.
// Two of three programs come from vmcrSBProgram (store buffering shapes),
// the third from progen with the knobs of vmcrSBConfig.
func TestVMCRDifferentialSB(t *testing.T) {
	n := explorertest.Size(uint64(*vmcrSBN), 100, 50, 2000)
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
// programs under model.
func vmcrDiff(t *testing.T, model string, n uint64) {
	const chunks = 4
	for c := uint64(0); c < chunks; c++ {
		from, to := *vmcrSeed+c*n/chunks, *vmcrSeed+(c+1)*n/chunks
		t.Run(fmt.Sprintf("%d-%d", from, to), func(t *testing.T) {
			t.Parallel()
			checked, skipped, execs, classes := 0, 0, 0, 0
			for seed := from; seed < to; seed++ {
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
				if err != nil {
					t.Fatalf("seed %d: generated program does not compile: %v\n%s", seed, err, src)
				}
				d, ex, cl, ok := vmcrCompare(prog, model)
				if !ok {
					skipped++
					continue
				}
				checked++
				execs += ex
				classes += cl
				if d != "" {
					t.Errorf("seed %d (%s): vmcr disagrees with the reference explorer:\n%s\nprogram:\n%s", seed, model, d, src)
				}
			}
			t.Logf("%s: %d generated programs compared, %d skipped; %d complete executions for %d classes", model, checked, skipped, execs, classes)
		})
	}
}

// Every example and regression program agrees too, under sc, tso and pso.
func TestVMCRExamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/regress/*.cir")
	ex, _ := filepath.Glob("../examples/*.cir")
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
			if d, _, _, ok := vmcrCompare(prog, model); ok && d != "" {
				t.Errorf("vmcr disagrees with the reference explorer:\n%s", d)
			}
		})
	}
}
