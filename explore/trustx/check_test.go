package trustx_test

import (
	"errors"
	"testing"

	"ncmc/explore"
	"ncmc/explore/trustx"
	"ncmc/memmodel"
	"ncmc/seg"
)

// The trust explorer implements ra, rc11 and sc only: a model explored
// only by graph search that is none of them (a new .cat file and registry
// entry) is not explored as rc11 but left to the graph explorer, which
// evaluates the model's own axioms. Before, every graph-only model passed
// Check, and trust explored it as rc11 (a graph-only copy of sc.cat gave
// violations on examples/sb.cir, dekker.cir and peterson.cir).
func TestTrustCheckModels(t *testing.T) {
	prog := compileCIR(t, "sb.cir", sbSrc)
	tests := []struct {
		model *memmodel.Model
		ok    bool
	}{
		{mustModel(t, "ra"), true},
		{mustModel(t, "rc11"), true},
		{mustModel(t, "sc"), true},
		{mustModel(t, "tso"), true},
		{mustModel(t, "pso"), false},
		{&memmodel.Model{Name: "gsc", Doc: "sc by graph search", Axioms: seg.LookupModel("sc"), Exec: memmodel.GraphOnly}, false},
	}
	for _, tc := range tests {
		task, err := explore.NewTask(prog, explore.Options{Model: "rc11"})
		if err != nil {
			t.Fatal(err)
		}
		task.Model = tc.model
		err = trustx.Explorer{}.Check(task)
		var u *explore.Unsupported
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: Check: %v, want nil", tc.model.Name, err)
		case !tc.ok && !errors.As(err, &u):
			t.Errorf("%s: Check: %v, want *explore.Unsupported", tc.model.Name, err)
		}
	}
}

func mustModel(t *testing.T, name string) *memmodel.Model {
	t.Helper()
	m, err := memmodel.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const sbSrc = `
global x: int; global y: int; global r1: int; global r2: int;
fn a() { x = 1; r1 = y; }
fn b() { y = 1; r2 = x; }
fn main() { let p = spawn a(); let q = spawn b(); join(p); join(q); }
`
