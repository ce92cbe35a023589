package trustx_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/internal/progen"
	"ncmc/ir"
	"ncmc/ncmc"
)

var trustTSON = flag.Int("trust.tson", 0, "generated programs in TestTrustTSOMatchesReference (0: 60, 24 with -short, 1200 with -long)")

// trustTSOCompare runs the trust explorer, the reference explorer (every
// interleaving with store buffers, within a budget) and vmcr on prog under
// tso. It returns the disagreements of trust with each ("" if none),
// whether anything was compared, whether the reference explorer and vmcr
// were, and whether trust's
// final states differ from those under sc (vmcr's, or the reference
// explorer's).
func trustTSOCompare(prog *ir.Program) (diff string, ok, withRef, withVMCR, notSC bool, err error) {
	ctx := context.Background()
	tr, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "trust", Model: "tso", KeepGoing: true, Workers: 1})
	var un *ncmc.Unsupported
	if errors.As(err, &un) {
		return "", false, false, false, false, nil // a program trust does not model
	}
	if err != nil {
		return "", false, false, false, false, err
	}
	if tr.Explorer != "trust" {
		return "", false, false, false, false, nil // a program trust does not model
	}
	if tr.Stopped != "" || tr.Stats.BoundHits > 0 {
		return "", false, false, false, false, nil
	}
	got := explorertest.OutcomeKeys(tr)
	var diffs []string
	// The final states of complete executions must be the same, and so
	// must the verdict. A graph in which two threads fail is one
	// execution to trust, which reports the violation its schedule meets
	// first, while the reference explorer stops some interleavings at
	// the one and others at the other: trust's violations must be among
	// the other explorer's, and there must be some iff it finds some.
	compareWith := func(name string, r *ncmc.Result) {
		if r.Verdict != tr.Verdict {
			diffs = append(diffs, fmt.Sprintf("verdict: trust %s (%s), %s %s (%s)", tr.Verdict, tr.Reason, name, r.Verdict, r.Reason))
		}
		want := explorertest.OutcomeKeys(r)
		diffs = append(diffs, explorertest.Diff("trust", finalKeys(want), finalKeys(got))...)
		have := map[string]bool{}
		for _, k := range want {
			have[k] = true
		}
		for _, k := range got {
			if !have[k] {
				diffs = append(diffs, fmt.Sprintf("trust has outcome %q, %s does not", k, name))
			}
		}
	}
	// the reference interleaves flushes (and every thread-local step):
	// bigger programs are compared with vmcr only
	ref, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: "tso", KeepGoing: true, MaxExecutions: 5000})
	if err != nil {
		return "", false, false, false, false, err
	}
	withRef = ref.Stopped == "" && ref.Stats.BoundHits == 0
	if withRef {
		compareWith("reference", ref)
	}
	vm, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "vmcr", Model: "tso", KeepGoing: true})
	if err == nil && vm.Explorer == "vmcr" && vm.Stopped == "" && vm.Stats.BoundHits == 0 {
		withVMCR = true
		compareWith("vmcr", vm)
	}
	if !withRef && !withVMCR {
		return "", false, false, false, false, nil
	}
	// sc's outcomes: vmcr's, or the reference explorer's
	sc, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "vmcr", Model: "sc", KeepGoing: true})
	if err != nil || sc.Explorer != "vmcr" {
		sc, err = ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: "sc", KeepGoing: true, MaxExecutions: 100000})
	}
	if err == nil && sc.Stopped == "" && sc.Stats.BoundHits == 0 {
		notSC = strings.Join(finalKeys(explorertest.OutcomeKeys(sc)), "\n") != strings.Join(finalKeys(got), "\n")
	}
	return strings.Join(diffs, "\n"), true, withRef, withVMCR, notSC, nil
}

// tsoShapeProgram returns a program of store-buffering shapes whose final
// state shows what each worker read: 2 workers (sometimes 3) that store to
// one or two variables, then maybe run a barrier (a seq_cst fence, a
// fetch_add, a lock and unlock of a mutex, which all drain the store
// buffer under TSO) and load one or two variables, and write what they
// read to their own output variable.
func tsoShapeProgram(rng *rand.Rand) string {
	var b strings.Builder
	nv, nw, maxOps := 2, 2, 2
	if rng.IntN(4) == 0 {
		nv, nw, maxOps = 3, 3, 1
	}
	for v := 0; v < nv; v++ {
		fmt.Fprintf(&b, "global v%d: int;\n", v)
	}
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "global o%d: int;\n", w)
	}
	b.WriteString("global m: mutex;\n")
	for w := 1; w <= nw; w++ {
		fmt.Fprintf(&b, "\nfn w%d() {\n    let r0 = 0;\n    let r1 = 0;\n", w)
		// worker w stores to v(w-1) first and loads v(w) first: store
		// buffering between neighbours
		for k := 0; k < 1+rng.IntN(maxOps); k++ {
			v := (w - 1) % nv
			if k > 0 {
				v = rng.IntN(nv)
			}
			fmt.Fprintf(&b, "    v%d = %d;\n", v, w)
		}
		switch rng.IntN(6) {
		case 0:
			b.WriteString("    fence(sc);\n")
		case 1:
			fmt.Fprintf(&b, "    r1 = fetch_add(v%d, 1);\n", rng.IntN(nv))
		case 2:
			b.WriteString("    lock(m);\n    unlock(m);\n")
		}
		for k := 0; k < 1+rng.IntN(maxOps); k++ {
			v := w % nv
			if k > 0 {
				v = rng.IntN(nv)
			}
			fmt.Fprintf(&b, "    r%d = v%d;\n", k, v)
		}
		fmt.Fprintf(&b, "    o%d = r0 * 10 + r1;\n}\n", w)
	}
	writeSpawnJoinMain(&b, "w", nw)
	return b.String()
}

// finalKeys keeps the final states among outcome keys.
func finalKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "final: ") {
			out = append(out, k)
		}
	}
	return out
}

// TestTrustTSOMatchesReference: the trust explorer under tso (the
// axiomatic model seg/models/tso.cat, checked incrementally) finds the
// verdict, outcomes and violations of the reference explorer (every
// interleaving with store buffers), and of vmcr where it applies
// (trustTSOCompare: violations as a subset, see there), on the
// examples trust models and on generated programs: store-buffering shapes
// (explorertest.SBProgram, tsoShapeProgram), progen programs with the store-buffer knobs
// (explorertest.SBConfig) and progen programs with mutexes. Some programs must have
// outcomes that sc does not allow, so that the comparison covers what TSO
// relaxes.
func TestTrustTSOMatchesReference(t *testing.T) {
	type prog struct {
		name, src string
		p         *ir.Program
	}
	var progs []prog
	files, _ := filepath.Glob("../examples/*.cir")
	for _, f := range files {
		p, err := frontend.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{name: filepath.Base(f), p: p})
	}
	n := explorertest.Size(uint64(*trustTSON), 60, 24, 1200)
	for seed := uint64(1); seed <= n; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0x74736f))
		var src string
		switch seed % 6 {
		case 0:
			src = explorertest.SBProgram(rng)
		case 3, 4, 5:
			src = tsoShapeProgram(rng)
		case 1:
			cfg := explorertest.SBConfig(seed / 3)
			cfg.Nondet, cfg.Cond = 0, 0
			src = progen.Generate(rng, cfg)
		default:
			cfg := progen.Default()
			cfg.Nondet, cfg.Mutexes, cfg.Lock, cfg.Cond = 0, 1, 6, 0
			src = progen.Generate(rng, cfg)
		}
		p, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		progs = append(progs, prog{name: fmt.Sprintf("seed %d", seed), src: src, p: p})
	}
	compared, vmcr, ref, notSC, violations := 0, 0, 0, 0, 0
	for _, pr := range progs {
		d, ok, withRef, withVMCR, nsc, err := trustTSOCompare(pr.p)
		if err != nil {
			t.Fatalf("%s: %v", pr.name, err)
		}
		if !ok {
			continue
		}
		compared++
		if withVMCR {
			vmcr++
		}
		if withRef {
			ref++
		}
		if nsc {
			notSC++
		}
		if d != "" {
			t.Errorf("%s: trust under tso disagrees:\n%s\n%s", pr.name, d, pr.src)
		}
		if res, err := ncmc.Verify(context.Background(), pr.p, ncmc.Options{Explorer: "trust", Model: "tso", Workers: 1}); err == nil && res.Verdict == ncmc.Violation {
			violations++
		}
	}
	t.Logf("%d of %d programs compared (%d with the reference explorer, %d with vmcr): %d with a violation, %d with final states other than under sc", compared, len(progs), ref, vmcr, violations, notSC)
	if compared < len(progs)/2 || violations == 0 || notSC == 0 {
		t.Errorf("too few: %d of %d compared, %d with a violation, %d with outcomes other than under sc", compared, len(progs), violations, notSC)
	}
}
