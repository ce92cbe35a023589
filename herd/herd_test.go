package herd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ncmc/explore/trustx"
	"ncmc/frontend/litmus"
	"ncmc/interp"
	"ncmc/seg"
)

func loadTest(t *testing.T, dir, rel string) *litmus.Test {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse(rel, src)
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

func benchTests(t *testing.T, dir string, sub ...string) []string {
	var out []string
	for _, s := range sub {
		filepath.WalkDir(filepath.Join(dir, s), func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".litmus") {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// TestEachGraphOnce: graph exploration visits every consistent execution
// graph exactly once (no two visits share a canonical key) under every
// model, on the C tests.
func TestEachGraphOnce(t *testing.T) {
	dir := benchDir(t)
	files := benchTests(t, dir, "c11-herd", "c11popl15")
	for _, rel := range files {
		if strings.Contains(rel, "fig6") {
			continue // 12564–19200 graphs: covered by the conformance test's counts
		}
		lt := loadTest(t, dir, rel)
		for _, m := range Models() {
			keys := map[string]bool{}
			_, err := trustx.Enumerate(context.Background(), lt.Prog, trustx.EnumOptions{Model: m}, func(x *interp.Execution) bool {
				k := x.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
				if keys[k] {
					t.Errorf("%s under %s: graph visited twice:\n%s", rel, m, k)
				}
				keys[k] = true
				if v := seg.LookupModel(m).Check(x.G); v != nil {
					t.Errorf("%s under %s: visited an inconsistent graph: %v", rel, m, v)
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// outcomeSet summarises a result as "state xN" lines.
func outcomeSet(r *Result) string {
	var l []string
	for _, o := range r.Outcomes {
		l = append(l, fmt.Sprintf("%s x%d %s", o.State, o.Executions, o.Error))
	}
	return strings.Join(l, "\n")
}

// TestOperationalMatchesAxiomatic cross-checks the interpreter's
// operational sc, tso and pso (interleavings, store buffers; graphs
// deduplicated) against graph exploration under seg's axiomatic models:
// the same outcomes with the same numbers of execution graphs.
func TestOperationalMatchesAxiomatic(t *testing.T) {
	dir := benchDir(t)
	files := benchTests(t, dir, "c11-herd", "c11popl15", "x86")
	n := 0
	var big []string
	budget := 2500 // operational executions (interleavings) per test and model
	if testing.Short() {
		budget = 1000
	}
	for _, rel := range files {
		if strings.Contains(rel, "fig6") {
			continue // too many interleavings for the operational explorer
		}
		if testing.Short() && (strings.Contains(rel, "BASIC_3_THREAD") || !inShortSample(rel)) {
			continue
		}
		lt := loadTest(t, dir, rel)
		for _, m := range []string{"sc", "tso", "pso"} {
			ax, err := Run(context.Background(), lt, Options{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			op, err := Run(context.Background(), lt, Options{Model: m, Operational: true, MaxExecutions: budget})
			if err != nil {
				t.Fatal(err)
			}
			if op.Incomplete != "" {
				big = append(big, rel+" "+m)
				continue
			}
			if a, o := outcomeSet(ax), outcomeSet(op); a != o {
				t.Errorf("%s under %s: graph exploration and store buffers disagree\naxiomatic:\n%s\noperational:\n%s", rel, m, a, o)
			}
			n++
		}
	}
	t.Logf("%d (test, model) pairs agree; %d not compared (more than %d interleavings): %s",
		n, len(big), budget, strings.Join(big, ", "))
}

func TestExplain(t *testing.T) {
	dir := benchDir(t)
	tests := []struct {
		file, model string
		axiom       string // first axiom named, or "thin-air"
		cycle       string // substring of the example
	}{
		{"c11-herd/SB+rlx.litmus", "sc", "sc", "a: W(rlx) x=1 -po-> b: R(rlx) y=0 -fr-> c: W(rlx) y=1 -po-> d: R(rlx) x=0 -fr-> a"},
		{"c11-herd/MP+ra.litmus", "ra", "coherence", "-rf-> c: R(acq) y=1 -po-> d: R(rlx) x=0 -fr-> a"},
		{"c11-herd/MP+ra.litmus", "rc11", "coherence", "-sw-> c: R(acq) y=1"},
		{"c11-herd/SB+sc.litmus", "rc11", "sc", "cycle"},
		{"c11-herd/CAS+CAS+rlx.litmus", "rc11", "atomicity", ""},
		{"c11-herd/CoRR2+rlx.litmus", "rc11", "coherence", ""},
		{"c11-herd/LB+rlx.litmus", "rc11", "thin-air", "no-thin-air"},
		{"x86/herd-catalogue-x86/MP.litmus", "tso", "tso", "-fr->"},
	}
	for _, tc := range tests {
		lt := loadTest(t, dir, tc.file)
		res, err := Run(context.Background(), lt, Options{Model: tc.model, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		ex := res.Explanation
		if res.Verdict != "forbidden" || ex == nil {
			t.Errorf("%s %s: verdict %s, explanation %v", tc.file, tc.model, res.Verdict, ex)
			continue
		}
		if tc.axiom == "thin-air" {
			if ex.ThinAir == "" || !strings.Contains(ex.ThinAir, tc.cycle) {
				t.Errorf("%s %s: want a thin-air explanation, got %s", tc.file, tc.model, ex)
			}
			continue
		}
		if len(ex.Axioms) == 0 || ex.Axioms[0].Axiom != tc.axiom || !strings.Contains(ex.Axioms[0].Example, tc.cycle) {
			t.Errorf("%s %s: want axiom %s with %q, got\n%s", tc.file, tc.model, tc.axiom, tc.cycle, ex)
		}
		if len(ex.Examples) != len(ex.Axioms) || ex.Examples[0].Violation == nil {
			t.Errorf("%s %s: examples %d for %d axioms", tc.file, tc.model, len(ex.Examples), len(ex.Axioms))
		}
	}
}

func TestRunDetails(t *testing.T) {
	dir := benchDir(t)
	lt := loadTest(t, dir, "c11-herd/SB+rlx.litmus")
	res, err := Run(context.Background(), lt, Options{Model: "tso", Graphs: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != "allowed" || res.Executions != 4 || res.Positive != 1 || res.Observation != "Sometimes" || !res.Passes {
		t.Errorf("SB under tso: %+v", res)
	}
	if len(res.Graphs) != 4 {
		t.Fatalf("%d graphs", len(res.Graphs))
	}
	var weak *Execution
	for i := range res.Graphs {
		g := res.Graphs[i].Graph
		if len(g.Threads) != 2 || g.Names[0] != "P0" || len(g.Threads[0]) != 2 || len(g.Threads[1]) != 2 {
			t.Errorf("display graph: %d threads %v", len(g.Threads), g.Names)
		}
		if res.Graphs[i].Outcome == "0:r0=0; 1:r0=0;" {
			weak = &res.Graphs[i]
		}
	}
	if weak == nil || weak.NotSC == nil || !strings.Contains(weak.Why, "a -po-> b and c -po-> d") {
		t.Errorf("the SB outcome under tso should be explained as store buffering: %+v", weak)
	}
	// races under rc11, with the letters of the pictures
	lt = loadTest(t, dir, "c11popl15/a3_reorder.litmus")
	res, err = Run(context.Background(), lt, Options{Model: "rc11"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.DataRace || len(res.Races) == 0 || !strings.Contains(res.Races[0], "between a: W(na) y=1 (thread P0) and c: R(rlx) y=") {
		t.Errorf("a3_reorder races: %v", res.Races)
	}
	// forall
	lt = loadTest(t, dir, "x86/litmus-tests-x86/CO/CoRR1.litmus")
	res, err = Run(context.Background(), lt, Options{Model: "tso"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != "always" || !res.Passes || res.Observation != "Always" {
		t.Errorf("CoRR1: %s %v %s", res.Verdict, res.Passes, res.Observation)
	}
}
