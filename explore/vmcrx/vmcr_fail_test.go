package vmcrx_test

import (
	"context"
	"testing"

	"ncmc/explore/explorertest"
	"ncmc/frontend"
	"ncmc/ncmc"
)

// TestVMCRFailureOutcomes: with --keep-going vmcr finds every outcome of
// an execution that fails (the first failure and the state right after
// it) or deadlocks (the final state), however many threads can fail in
// one value class: the outcomes of the reference explorer, whose counts
// are pinned here. Without --keep-going the verdict is the same and one
// violation is reported.
func TestVMCRFailureOutcomes(t *testing.T) {
	tests := []struct {
		file         string
		sc, tso, pso int // distinct outcomes (state and violation)
	}{
		{"fail-first-226.cir", 3, 4, 4},
		{"fail-three.cir", 5, 6, 6},
		{"fail-at-start.cir", 3, 3, 4},
		{"fail-in-lock.cir", 2, 4, 4},
		{"fail-main-after-joins.cir", 3, 3, 4},
		{"fail-deadlock.cir", 6, 6, 6},
		{"deadlock-states.cir", 4, 4, 4},
	}
	for _, tc := range tests {
		prog, err := frontend.LoadFile("testdata/regress/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []struct {
			model string
			want  int
		}{{"sc", tc.sc}, {"tso", tc.tso}, {"pso", tc.pso}} {
			t.Run(tc.file+"/"+m.model, func(t *testing.T) {
				ctx := context.Background()
				got, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "vmcr", Model: m.model, KeepGoing: true})
				if err != nil {
					t.Fatal(err)
				}
				ref, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "reference", Model: m.model, KeepGoing: true})
				if err != nil {
					t.Fatal(err)
				}
				gk, rk := explorertest.StrictKeys(got), explorertest.StrictKeys(ref)
				if len(rk) != m.want {
					t.Errorf("reference: %d outcomes, pinned %d: %q", len(rk), m.want, rk)
				}
				for _, d := range explorertest.Diff("vmcr", rk, gk) {
					t.Error(d)
				}
				one, err := ncmc.Verify(ctx, prog, ncmc.Options{Explorer: "vmcr", Model: m.model})
				if err != nil {
					t.Fatal(err)
				}
				if one.Verdict != ref.Verdict || one.Stats.Violations != 1 {
					t.Errorf("without --keep-going: %s with %d violations, reference %s", one.Verdict, one.Stats.Violations, ref.Verdict)
				}
			})
		}
	}
}
