package explore

import (
	"slices"
	"testing"

	"ncmc/interp"
)

// The DFS chooser visits every leaf of a tree of choices once, in
// lexicographic order, and a replay of a recorded path makes its choices.
func TestDFSChooser(t *testing.T) {
	// A tree whose fan-out depends on the choices made so far: at depth d
	// the number of alternatives is 1 + (sum of earlier choices + d) % 3,
	// three levels deep.
	fan := func(prefix []int) int {
		s := len(prefix)
		for _, k := range prefix {
			s += k
		}
		return 1 + s%3
	}
	var want [][]int
	var walk func(prefix []int)
	walk = func(prefix []int) {
		if len(prefix) == 3 {
			want = append(want, slices.Clone(prefix))
			return
		}
		for k := range fan(prefix) {
			walk(append(prefix, k))
		}
	}
	walk(nil)

	var got [][]int
	var paths [][]ChoicePoint
	c := &DFSChooser{}
	for {
		var leaf []int
		for range 3 {
			leaf = append(leaf, c.Choose(0, interp.ChoiceKind(0), fan(leaf)))
		}
		if c.Err != nil {
			t.Fatal(c.Err)
		}
		got = append(got, leaf)
		paths = append(paths, slices.Clone(c.Path))
		if !c.Next() {
			break
		}
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("leaves %v, want %v", got, want)
	}
	for i, p := range paths {
		r := &ReplayChooser{Path: p}
		var leaf []int
		for range 3 {
			leaf = append(leaf, r.Choose(0, interp.ChoiceKind(0), fan(leaf)))
		}
		if !slices.Equal(leaf, want[i]) {
			t.Errorf("replay of leaf %d: %v, want %v", i, leaf, want[i])
		}
	}
}

// A replay that meets a different number of alternatives than recorded
// reports the divergence (an internal error, never a program violation).
func TestDFSChooserDivergence(t *testing.T) {
	c := &DFSChooser{Path: []ChoicePoint{{N: 2, K: 1, Kind: 1}}}
	c.Choose(0, interp.ChoiceKind(0), 3)
	if c.Err == nil {
		t.Fatal("no error for a replay that diverged")
	}
}
