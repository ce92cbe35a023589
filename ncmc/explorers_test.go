package ncmc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ncmc/commspec"
	"ncmc/frontend"
	"ncmc/ir"
)

// TestSpecOutcomesEveryExplorer: with --spec, outcomes render objects by
// their abstraction functions ("c.value=2") under every explorer that
// explores the program, not only ncmc and reference (mcr and graph
// exploration printed the raw fields, "c={count=2}").
func TestSpecOutcomesEveryExplorer(t *testing.T) {
	path := filepath.Join("..", "examples", "counter-2inc-cf.cir")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.ParseCIR(path, src)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := commspec.ParseFile(filepath.Join("..", "examples", "counter.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ explorer, model string }{
		{"auto", "sc"}, {"ncmc", "sc"}, {"reference", "sc"}, {"stateful", "sc"}, {"mcr", "sc"},
		{"graph", "sc"}, {"graph", "ra"}, {"graph", "rc11"}, {"mcr", "tso"}, {"vmcr", "tso"}, {"vmcr", "pso"},
	}
	for _, tc := range tests {
		t.Run(tc.explorer+"/"+tc.model, func(t *testing.T) {
			res, err := Verify(context.Background(), prog, Options{Explorer: tc.explorer, Model: tc.model,
				Specs: []*commspec.Spec{spec}, KeepGoing: true, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Outcomes) == 0 {
				t.Fatalf("no outcomes (%s: %s)", res.Verdict, res.Reason)
			}
			for _, o := range res.Outcomes {
				if !strings.Contains(o.State, "c.value=") || strings.Contains(o.State, "count=") {
					t.Errorf("%s explorer: outcome %q, want the object rendered by its abstraction function (c.value=…)", res.Explorer, o.State)
				}
			}
		})
	}
}

// TestExplorerRegistry: the explorers are listed once; an unknown name's
// error lists all of them; every name looks up; Result.Explorer names the
// algorithm that ran.
func TestExplorerRegistry(t *testing.T) {
	_, err := LookupExplorer("nope")
	if err == nil {
		t.Fatal("unknown explorer accepted")
	}
	seen := map[string]bool{}
	for _, e := range Explorers() {
		if seen[e.Name()] {
			t.Errorf("explorer %s listed twice", e.Name())
		}
		seen[e.Name()] = true
		if e.Doc() == "" {
			t.Errorf("explorer %s has no doc", e.Name())
		}
		if !strings.Contains(err.Error(), e.Name()) {
			t.Errorf("error %q does not list %s", err, e.Name())
		}
		if !strings.Contains(ExplorerHelp(), e.Name()+": ") {
			t.Errorf("help does not describe %s", e.Name())
		}
		if got, err := LookupExplorer(e.Name()); err != nil || got.Name() != e.Name() {
			t.Errorf("LookupExplorer(%s) = %v, %v", e.Name(), got, err)
		}
	}
	// and Verify rejects an unknown explorer with the same list
	p := compileCIR(t, "sb.cir", strings.ReplaceAll(sbAtomic, "ORDER", "sc"))
	if _, err := Verify(context.Background(), p, Options{Explorer: "nope"}); err == nil || !strings.Contains(err.Error(), strings.Join(ExplorerNames(), ", ")) {
		t.Errorf("Verify with an unknown explorer: %v", err)
	}
	ran := []struct {
		opts Options
		want string
	}{
		{Options{Explorer: "reference"}, "reference"},
		{Options{Explorer: "reference", StateCache: true}, "stateful"},
		{Options{Explorer: "stateful"}, "stateful"},
		{Options{Explorer: "ncmc"}, "dpor"},
		{Options{Explorer: "dpor"}, "dpor"},
		{Options{Explorer: "graph"}, "graph"},
		{Options{Model: "ra"}, "trust"},
		{Options{Model: "ra", Explorer: "trust"}, "trust"},
		{Options{Explorer: "vmcr"}, "vmcr"},
		{Options{Model: "ra", Explorer: "reference"}, "graph"},
		{Options{Explorer: "mcr", Workers: 1}, "mcr"},
		{Options{Workers: 1}, "vmcr"},
	}
	for _, r := range ran {
		res, err := Verify(context.Background(), p, r.opts)
		if err != nil {
			t.Errorf("%+v: %v", r.opts, err)
			continue
		}
		if res.Explorer != r.want {
			t.Errorf("explorer %q model %q state cache %v: Result.Explorer %q, want %q", r.opts.Explorer, r.opts.Model, r.opts.StateCache, res.Explorer, r.want)
		}
	}
}

// TestUnsupportedTyped: an explorer that does not apply says why with an
// *Unsupported, whose Program field tells a program construct from an
// option.
func TestUnsupportedTyped(t *testing.T) {
	p := compileCIR(t, "lw.cir", lostWakeup)
	tests := []struct {
		explorer, model string
		program         bool
		reason          string
	}{
		{"mcr", "sc", true, "condition variables"},
		{"mcr", "ra", false, "mcr supports the sc, tso, pso models"},
		{"coverability", "tso", false, "sc memory model only"},
		{"reference", "rc11", false, "supports the sc, tso, pso models"},
		{"vmcr", "ra", false, "vmcr supports the sc, tso and pso models only"},
	}
	for _, tc := range tests {
		o := Options{Model: tc.model, Explorer: tc.explorer}
		if err := o.Normalize(); err != nil {
			t.Fatal(err)
		}
		task, err := NewTask(p, o)
		if err != nil {
			t.Fatal(err)
		}
		e, err := LookupExplorer(tc.explorer)
		if err != nil {
			t.Fatal(err)
		}
		err = e.Check(task)
		u, ok := err.(*Unsupported)
		if !ok || u.Program != tc.program || !strings.Contains(u.Reason, tc.reason) || u.Explorer != tc.explorer {
			t.Errorf("%s under %s: Check = %#v, want *Unsupported{Program: %v, Reason: …%s…}", tc.explorer, tc.model, err, tc.program, tc.reason)
		}
	}
}

// TestInternalErrorIsUnknown: an instruction the interpreter does not know
// (a bug of ncmc, not of the program) gives unknown with kind "internal"
// under every explorer, never a violation (it was a runtime-error
// violation).
func TestInternalErrorIsUnknown(t *testing.T) {
	for _, explorer := range []string{"reference", "stateful", "mcr", "dpor", "graph"} {
		p := compileCIR(t, "bad.cir", "global x: int;\nfn w() { x = 1; }\nfn main() { spawn w(); x = 2; }\n")
		broken := false
		for _, f := range p.Funcs {
			for i := range f.Body {
				if f.Body[i].Op == ir.IStore && f.Name == "w" {
					f.Body[i].Op = ir.Op(250)
					broken = true
				}
			}
		}
		if !broken {
			t.Fatal("no store to break")
		}
		res, err := Verify(context.Background(), p, Options{Explorer: explorer, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", explorer, err)
		}
		if res.Verdict != Unknown || res.Kind != "internal" || !strings.Contains(res.Reason, "internal error") {
			t.Errorf("%s: %s %s %q, want unknown (internal error)", explorer, res.Verdict, res.Kind, res.Reason)
		}
	}
}
