package memmodel

import (
	"strings"
	"testing"

	"ncmc/seg"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		exec Exec
		race bool
	}{
		{"sc", Interleaving, false},
		{"tso", StoreBuffer, false},
		{"pso", StoreBufferPerLoc, false},
		{"ra", GraphOnly, true},
		{"rc11", GraphOnly, true},
	}
	for _, tc := range tests {
		m, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != tc.name || m.Exec != tc.exec || (m.Race != "") != tc.race || m.Doc == "" || m.ThinAir == "" {
			t.Errorf("%s: %+v", tc.name, m)
		}
		if m.Axioms != seg.LookupModel(tc.name) {
			t.Errorf("%s: axioms are not seg's model %s", tc.name, tc.name)
		}
		if m.Operational() != (tc.exec != GraphOnly) {
			t.Errorf("%s: Operational() = %v", tc.name, m.Operational())
		}
	}
	if got := strings.Join(Names(), ","); got != "sc,tso,pso,ra,rc11" {
		t.Errorf("Names() = %s", got)
	}
	if got := strings.Join(Operational(), ","); got != "sc,tso,pso" {
		t.Errorf("Operational() = %s", got)
	}
	_, err := Lookup("arm")
	if err == nil || !strings.Contains(err.Error(), "sc, tso, pso, ra, rc11") {
		t.Errorf("Lookup(arm) = %v, want an error listing the models", err)
	}
	if ExecOf(nil) != Interleaving || SC().Name != "sc" {
		t.Error("the default model is not sc")
	}
}

// TestEverySegModelRegistered: every model file in seg/models is a model
// here (a new .cat file needs its line in the table).
func TestEverySegModelRegistered(t *testing.T) {
	for _, name := range seg.ModelNames() {
		if _, err := Lookup(name); err != nil {
			t.Errorf("seg model %s is not registered in memmodel: %v", name, err)
		}
	}
	if len(seg.ModelNames()) != len(All()) {
		t.Errorf("seg has %d models, memmodel %d", len(seg.ModelNames()), len(All()))
	}
}
