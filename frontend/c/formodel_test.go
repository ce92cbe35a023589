package c

import "testing"

// TestForModel pins the model-dependent options every command of ncmc
// translates C with (Options.ForModel).
func TestForModel(t *testing.T) {
	cases := []struct {
		model                  string
		keepDeadLoads          bool
		noAtomicSections, dead bool
		hardware               string
	}{
		{"sc", false, false, true, ""},
		{"tso", false, false, true, "tso"},
		{"pso", false, false, true, "pso"},
		{"sc", true, false, false, ""},
		{"ra", false, true, false, ""},
		{"rc11", false, true, false, ""},
		{"rc11", true, true, false, ""},
		{"nosuch", false, false, false, ""},
	}
	for _, c := range cases {
		// the options set before are replaced; the others are kept
		o := Options{NoAtomicSections: true, DropDeadLoads: true, Hardware: "pso", ZeroHeap: true, Defines: []string{"N=2"}}.ForModel(c.model, c.keepDeadLoads)
		if o.NoAtomicSections != c.noAtomicSections || o.DropDeadLoads != c.dead || o.Hardware != c.hardware || !o.ZeroHeap || len(o.Defines) != 1 {
			t.Errorf("ForModel(%q, %v) = %+v", c.model, c.keepDeadLoads, o)
		}
	}
}
