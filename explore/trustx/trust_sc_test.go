package trustx_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"ncmc/explore/explorertest"
	"ncmc/internal/progen"
	"ncmc/ncmc"
)

// trustOutcomeSet lists a result's outcomes, sorted, without their
// counts: the final states of complete executions and the violations
// (without the state at the violation, which depends on the schedule that
// reached it).
func trustOutcomeSet(r *ncmc.Result) string {
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
	n := int(explorertest.Size(0, 60, 30, 240))
	if *trustN > 0 {
		n = *trustN
	}
	progs := trustCorpus(t, n, 0, 0x7363, func(i int, rng *rand.Rand, cfg progen.Config) string {
		switch i % 3 {
		case 0:
			return progen.Generate(rng, cfg)
		case 1:
			return genAtomic(rng, i%2 == 1, true)
		}
		return genLockProgram(rng)
	})
	compared, violations := 0, 0
	for _, pr := range progs {
		o := ncmc.Options{Model: "sc", KeepGoing: true, Timeout: 5 * time.Second, Workers: 1}
		o.Explorer = "reference"
		ref, err := ncmc.Verify(context.Background(), pr.p, o)
		if err != nil {
			t.Fatalf("%s: %v", pr.name, err)
		}
		o.Explorer = "trust"
		tr, err := ncmc.Verify(context.Background(), pr.p, o)
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
