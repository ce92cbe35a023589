package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ncmc/svcomp"
)

// TestVerifyPropertyJSON: verify --property --json carries the SV-COMP
// answer in its one JSON object (and prints no answer line beside it),
// with the staged strategy and with an explicit explorer.
func TestVerifyPropertyJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prp := write("unreach-call.prp", svcomp.UnreachCallSpec+"\n")
	race := write("no-data-race.prp", "CHECK( init(main()), LTL(G ! data-race) )\n")
	unsafe, safe := write("unsafe.c", witnessProg), write("safe.c", witnessSafe)
	tests := []struct {
		name    string
		args    []string
		code    int
		answer  string
		verdict string
	}{
		{"stages false", []string{"--property", prp, unsafe}, exitViolation, "false", "FALSE(unreach-call)"},
		{"stages true", []string{"--property", prp, safe}, exitVerified, "true", "TRUE"},
		{"stages race", []string{"--property", race, unsafe}, exitViolation, "false", "FALSE(no-data-race)"},
		{"explorer true", []string{"--explorer", "reference", "--property", prp, safe}, exitVerified, "true", "TRUE"},
		{"explorer unknown", []string{"--explorer", "reference", "--max-executions", "1", "--property", prp, safe}, exitUnknown, "unknown", "UNKNOWN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"verify", "--json", "--timeout", "20s"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, out, errs)
			}
			var v struct {
				Verdict string `json:"verdict"`
				SVCOMP  *struct {
					Property, Answer, Verdict, Reason string
				} `json:"svcomp"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("not one JSON object: %v\n%s", err, out)
			}
			if v.SVCOMP == nil || v.SVCOMP.Answer != tc.answer || v.SVCOMP.Verdict != tc.verdict || v.SVCOMP.Reason == "" {
				t.Errorf("svcomp %+v, want answer %s, verdict %s\n%s", v.SVCOMP, tc.answer, tc.verdict, out)
			}
		})
	}
	// Without --property there is no SV-COMP answer.
	if _, out, _ := runCLI(t, "verify", "--json", unsafe); strings.Contains(out, `"svcomp"`) {
		t.Errorf("svcomp answer without --property:\n%s", out)
	}
}

// TestLibraryMatchesCLI: a Go caller of svcomp.Check gets the answer that
// ncmc verify --property prints, on tasks of the SV-COMP bench (one
// answered by each kind of stage: pct, dpor, the stateful explorer,
// coverability, and a data race).
func TestLibraryMatchesCLI(t *testing.T) {
	bench := "../../../shared/bench/svcomp"
	tasks := []string{"thesis/sigma", "more/fib_bench-2", "more/triangular-2", "more/14_spin2003", "more/04-mutex_01-simple_rc", "more/lazy01"}
	if testing.Short() {
		tasks = tasks[:2]
	}
	for _, task := range tasks {
		yml := filepath.Join(bench, task+".yml")
		td, err := svcomp.ReadTask(yml)
		if err != nil {
			t.Skipf("no SV-COMP bench: %v", err)
		}
		file, err := td.InputFile()
		if err != nil {
			t.Fatal(err)
		}
		for _, pd := range td.Properties {
			t.Run(task+"/"+pd.Name(), func(t *testing.T) {
				prp := filepath.Join(filepath.Dir(yml), pd.PropertyFile)
				code, out, errs := runCLI(t, "verify", "--json", "--timeout", "20s", "--data-model", td.Options.DataModel, "--property", prp, file)
				var v struct {
					SVCOMP struct{ Answer svcomp.Answer } `json:"svcomp"`
				}
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Fatalf("exit %d: %v\n%s%s", code, err, out, errs)
				}
				p, _, err := svcomp.ReadPropertyFile(prp)
				if err != nil {
					t.Fatal(err)
				}
				lim := svcomp.Limits{Timeout: 20 * time.Second, Unroll: 8, MaxSteps: 100000, Explorer: "auto"}
				got := svcomp.Check(context.Background(), svcomp.Input{File: file, DataModel: td.Options.DataModel, Property: p}, lim, nil)
				if got.Answer != v.SVCOMP.Answer {
					t.Errorf("library %s (%s), CLI %s", got.Answer, got.Reason, v.SVCOMP.Answer)
				}
				if want := pd.Expected(); got.Answer != want {
					t.Errorf("answer %s (%s), the task expects %s", got.Answer, got.Reason, want)
				}
			})
		}
	}
}
