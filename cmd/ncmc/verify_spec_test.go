package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifySpec covers `ncmc verify --spec`: the ncmc explorer, its
// outcomes and its errors.
func TestVerifySpec(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("object: Counter\nmethods:\n  inc: {}\ncommute:\n  inc/inc: true +\n"), 0o644)
	counter := "../../examples/n-counter-inc-3.cir"
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"n-counter", []string{"verify", counter, "--spec", "../../examples/counter.yaml"}, 0,
			[]string{"VERIFIED", "explorer ncmc: 1 executions", "c.value=3"}, nil},
		{"set both results", []string{"verify", "../../examples/set-2add-cont.cir", "--spec", "../../examples/set.yaml", "--keep-going"}, 0,
			[]string{"r=true", "r=false", "s.bits=6"}, nil},
		{"explicit explorer", []string{"verify", counter, "--explorer", "ncmc", "--spec", "../../examples/counter.yaml", "--ncmc-rule", "complete"}, 0,
			[]string{"explorer ncmc"}, nil},
		{"bad spec", []string{"verify", counter, "--spec", bad}, 2, nil, []string{"bad.yaml:5:", "^"}},
		{"spec of another object", []string{"verify", counter, "--spec", "../../examples/set.yaml"}, 2, nil, []string{"set.yaml:", "no object type Set"}},
		{"missing spec", []string{"verify", counter, "--spec", filepath.Join(dir, "nope.yaml")}, 2, nil, []string{"nope.yaml"}},
		{"tso", []string{"verify", counter, "--spec", "../../examples/counter.yaml", "--model", "tso"}, 2, nil, []string{"only the sc memory model"}},
		{"bad rule", []string{"verify", counter, "--spec", "../../examples/counter.yaml", "--ncmc-rule", "magic"}, 2, nil, []string{"--ncmc-rule"}},
		{"help", []string{"verify", "--help"}, 0, []string{"--spec", "--ncmc-rule"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errs)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errs)
				}
			}
			if strings.Contains(errs, "panic:") {
				t.Errorf("panic:\n%s", errs)
			}
		})
	}
}
