package ncmc

import (
	"context"
	"os"
	"strings"
	"testing"

	"ncmc/frontend"
)

// TestCondStages: under sc, tso and pso the auto plan explores a program
// with condition variables with the stateful explorer first (condStages),
// and --explorer vmcr still runs vmcr; both give the same verdict and
// outcomes.
func TestCondStages(t *testing.T) {
	src, err := os.ReadFile("../examples/prodcons-condvar.cir")
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.ParseCIR("prodcons-condvar.cir", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"sc", "tso", "pso"} {
		auto, err := Verify(context.Background(), p, Options{Model: model, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if auto.Explorer != "stateful" || !strings.Contains(auto.Note, "condition variables: the stateful explorer first") {
			t.Errorf("%s: auto ran %s, note %q; want the stateful explorer first", model, auto.Explorer, auto.Note)
		}
		v, err := Verify(context.Background(), p, Options{Model: model, Workers: 1, Explorer: "vmcr"})
		if err != nil {
			t.Fatal(err)
		}
		if v.Explorer != "vmcr" || v.Verdict != auto.Verdict || outcomeSet(v) != outcomeSet(auto) {
			t.Errorf("%s: vmcr %s %s %q; auto %s %q", model, v.Explorer, v.Verdict, outcomeSet(v), auto.Verdict, outcomeSet(auto))
		}
	}
}
