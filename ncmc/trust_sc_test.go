package ncmc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"ncmc/explore/explorertest"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"ncmc/frontend"
	"ncmc/ir"
	"ncmc/ncmc/internal/progen"
)

// trustOutcomeSet lists a result's outcomes, sorted, without their
// counts: the final states of complete executions and the violations
// (without the state at the violation, which depends on the schedule that
// reached it).
func trustOutcomeSet(r *Result) string {
	seen := map[string]bool{}
	var out []string
	for _, o := range r.Outcomes {
		k := fmt.Sprintf("%q", o.State)
		if o.Violation != "" {
			k = fmt.Sprintf("violation %q", o.Violation)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	s := fmt.Sprintf("%s\n", r.Verdict)
	for _, o := range out {
		s += o + "\n"
	}
	return s
}

// TestTrustSCMatchesReference: the trust explorer under sc (rc11 with
// every access and fence seq_cst) finds the outcomes and violations of the
// reference explorer (every interleaving) on the examples it supports and
// on generated programs with assertions, assumes, awaits, mutexes and
// deadlocks.
func TestTrustSCMatchesReference(t *testing.T) {
	type prog struct {
		name string
		p    *ir.Program
	}
	var progs []prog
	files, _ := filepath.Glob("../examples/*.cir")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := frontend.ParseCIR(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if trustSupported(p) == "" {
			progs = append(progs, prog{filepath.Base(f), p})
		}
	}
	n := int(explorertest.Size(0, 60, 30, 240))
	if *trustN > 0 {
		n = *trustN
	}
	cfg := progen.Default()
	cfg.Nondet, cfg.Mutexes, cfg.Lock, cfg.Cond = 0, 1, 6, 0
	for i := range n {
		seed := uint64(i)
		rng := rand.New(rand.NewPCG(seed, 0x7363))
		var src string
		switch i % 3 {
		case 0:
			src = progen.Generate(rng, cfg)
		case 1:
			src = genAtomic(rng, i%2 == 1, true)
		default:
			src = genLockProgram(rng)
		}
		p, err := frontend.ParseCIR(fmt.Sprintf("gen%d.cir", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if trustSupported(p) == "" {
			progs = append(progs, prog{fmt.Sprintf("seed %d", seed), p})
		}
	}
	compared, violations := 0, 0
	for _, pr := range progs {
		o := Options{Model: "sc", KeepGoing: true, Timeout: 5 * time.Second, Workers: 1}
		o.Explorer = "reference"
		ref, err := Verify(context.Background(), pr.p, o)
		if err != nil {
			t.Fatalf("%s: %v", pr.name, err)
		}
		o.Explorer = "trust"
		tr, err := Verify(context.Background(), pr.p, o)
		if err != nil {
			t.Fatalf("%s: %v", pr.name, err)
		}
		if tr.Explorer != "trust" {
			t.Fatalf("%s: explored by %s", pr.name, tr.Explorer)
		}
		if ref.Stopped != "" || tr.Stopped != "" || ref.Stats.BoundHits > 0 || tr.Stats.BoundHits > 0 {
			continue // not both complete
		}
		compared++
		if tr.Stats.Violations > 0 {
			violations++
		}
		if a, b := trustOutcomeSet(tr), trustOutcomeSet(ref); a != b {
			t.Errorf("%s: trust under sc and the reference explorer disagree\ntrust:\n%s\nreference:\n%s", pr.name, a, b)
		}
	}
	t.Logf("%d programs compared, %d with violations", compared, violations)
	if compared < len(progs)*3/4 || violations == 0 {
		t.Errorf("too few: %d of %d compared, %d with violations", compared, len(progs), violations)
	}
}
