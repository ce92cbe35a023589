package explorertest

import (
	"slices"
	"testing"

	"ncmc/explore"
)

func TestKeysAndDiff(t *testing.T) {
	r := &explore.Result{Outcomes: []explore.Outcome{
		{State: "x=1"},
		{State: "x=0", Violation: "deadlock: t1 waits for m"},
		{State: "x=2", Violation: "deadlock: t2 waits for m"},
		{State: "x=3", Violation: "assertion failed: final x"},
		{State: "x=4", Violation: "assertion failed: r == 1"},
	}}
	tests := []struct {
		name string
		keys Keys
		want []string
	}{
		{"outcome", OutcomeKeys, []string{"deadlock", "final: x=1", "violation: assertion failed: final x", "violation: assertion failed: r == 1"}},
		{"semantic", SemanticKeys, []string{"final: x=1", "violation: assertion failed: final x in state: x=3", "violation: assertion failed: r == 1", "violation: deadlock: t1 waits for m", "violation: deadlock: t2 waits for m"}},
		{"strict", StrictKeys, []string{"x=0 [deadlock: t1 waits for m]", "x=1 []", "x=2 [deadlock: t2 waits for m]", "x=3 [assertion failed: final x]", "x=4 [assertion failed: r == 1]"}},
	}
	for _, tc := range tests {
		if got := tc.keys(r); !slices.Equal(got, tc.want) {
			t.Errorf("%s keys: %q, want %q", tc.name, got, tc.want)
		}
	}
	d := Diff("dpor", []string{"a", "b", "c"}, []string{"b", "d", "c", "e"})
	want := []string{"dpor misses outcome: a", "dpor has extra outcome: d", "dpor has extra outcome: e"}
	if !slices.Equal(d, want) {
		t.Errorf("Diff: %q, want %q", d, want)
	}
	if d := Diff("dpor", []string{"a"}, []string{"a"}); len(d) != 0 {
		t.Errorf("Diff of equal keys: %q", d)
	}
}
