package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, false)
	return code, out.String(), errb.String()
}

func TestVerifyExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.cir")
	os.WriteFile(bad, []byte("fn main() {\n  let x = ;\n}\n"), 0o644)
	loop := filepath.Join(dir, "loop.cir")
	os.WriteFile(loop, []byte("global x: int;\nfn main() {\n  while (x < 100) { x = x + 1; }\n}\n"), 0o644)
	counter := filepath.Join(dir, "counter.cir")
	os.WriteFile(counter, []byte("global x: int;\nfn main() {\n  while (x >= 0) { x = x + 1; assert(x != -5); }\n}\n"), 0o644)
	// t's local x dies when t returns, after a loop the bound cuts; u
	// reads it through p: a use after return that needs 5 iterations
	uar := filepath.Join(dir, "uar.c")
	os.WriteFile(uar, []byte(`#include <pthread.h>
#include <stdatomic.h>
int *_Atomic p;
atomic_int go;
void *t(void *a) { int x = 1; p = &x; while (atomic_fetch_add(&go, 1) < 5) ; return 0; }
void *u(void *a) { int *q = p; if (q) { int v = *q; } return 0; }
int main() { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, u, 0); return 0; }
`), 0o644)
	endless := filepath.Join(dir, "endless.cir")
	os.WriteFile(endless, []byte("atomic global x: int;\nfn main() {\n  while (true) { x = x + 1; }\n}\n"), 0o644)
	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  []string // substrings
		stderr  []string
		noPanic bool
	}{
		{"verified sb", []string{"verify", "../../examples/sb.cir"}, 0, []string{"VERIFIED", "outcomes"}, nil, true},
		{"verified sb reference", []string{"verify", "--explorer", "reference", "../../examples/sb.cir"}, 0, []string{"VERIFIED", "explorer reference"}, nil, true},
		{"assertion violation", []string{"verify", "../../examples/peterson-buggy.cir"}, 1, []string{"VIOLATION", "counterexample:", "assertion failed"}, nil, true},
		{"deadlock", []string{"verify", "../../examples/deadlock-abba.cir"}, 1, []string{"VIOLATION (deadlock", "waits for"}, nil, true},
		{"syntax error", []string{"verify", bad}, 2, nil, []string{"bad.cir:2:11:", "^"}, true},
		{"missing file", []string{"verify", filepath.Join(dir, "nope.cir")}, 2, nil, []string{"nope.cir"}, true},
		{"bad flag", []string{"verify", "--frobnicate", "../../examples/sb.cir"}, 2, nil, []string{"unknown flag"}, true},
		{"bad model", []string{"verify", "--model", "arm", "../../examples/sb.cir"}, 2, nil, []string{"--model"}, true},
		// The loop never comes back to a state seen before, so the stage
		// without the loop bound ends at the step bound and the bounded
		// answer stands; a loop of 100 iterations is verified by it.
		{"unroll bound", []string{"verify", "--unroll", "3", "--max-steps", "300", counter}, 3, []string{"UNKNOWN", "unroll bound 3", "without the default loop bound was tried too"}, nil, true},
		{"unroll bound, then unbounded", []string{"verify", "--unroll", "3", loop}, 0, []string{"VERIFIED", "hit the loop bound", "x=100"}, nil, true},
		// Nothing beyond the bound can fail (docs/beyond.md); the assertion
		// in counter's loop is why it stays unknown.
		{"unroll bound, nothing beyond can fail", []string{"verify", "--model", "rc11", "--unroll", "3", endless}, 0, []string{"VERIFIED", "no violation can lie beyond it", "endless.cir:3:3"}, nil, true},
		{"unroll bound, use after return beyond", []string{"verify", "--model", "rc11", "--unroll", "2", uar}, 3, []string{"UNKNOWN", "which ends the life of its locals in memory"}, nil, true},
		{"use after return within a larger bound", []string{"verify", "--model", "rc11", "--unroll", "8", uar}, 1, []string{"VIOLATION (use after return"}, nil, true},
		{"unroll bound, assertion beyond", []string{"verify", "--unroll", "3", "--max-steps", "300", counter}, 3, []string{"UNKNOWN", "not ruled out: an assertion beyond the loop bound at"}, nil, true},
		{"execution bound", []string{"verify", "--explorer", "reference", "--max-executions", "2", "../../examples/peterson.cir"}, 3, []string{"UNKNOWN", "execution bound 2"}, nil, true},
		{"tso violation", []string{"verify", "--model", "tso", "../../examples/sb.cir"}, 1, []string{"VIOLATION"}, nil, true},
		{"help", []string{"verify", "--help"}, 0, []string{"--unroll", "--max-executions", "--timeout", "--json", "--dot", "--explorer"}, nil, true},
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
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic:") {
				t.Errorf("stack trace on stderr:\n%s", errs)
			}
		})
	}
}

func TestVerifyJSON(t *testing.T) {
	code, out, errs := runCLI(t, "verify", "--json", "../../examples/peterson-buggy.cir")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"verdict", "reason", "executions", "blocked", "outcomes", "time_ms", "counterexample", "seeds", "smt_queries", "smt_ms", "replay_ms"} {
		if _, ok := v[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out)
		}
	}
	if v["verdict"] != "violation" {
		t.Errorf("verdict %v", v["verdict"])
	}
	steps, _ := v["counterexample"].([]any)
	if len(steps) == 0 {
		t.Fatalf("empty counterexample")
	}
	first, _ := steps[0].(map[string]any)
	if first["thread"] == nil || first["line"] == nil || first["what"] == nil {
		t.Errorf("counterexample step lacks thread/line/what: %v", first)
	}
}

func TestVerifyDOT(t *testing.T) {
	dot := filepath.Join(t.TempDir(), "g.dot")
	code, _, errs := runCLI(t, "verify", "--dot", dot, "../../examples/peterson-buggy.cir")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(dot)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"digraph", "color=red", "rf"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("DOT lacks %q", s)
		}
	}
}

func TestTotalMemory(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc/meminfo")
	}
	if m := totalMemory(); m < 64<<20 {
		t.Fatalf("totalMemory() = %d bytes", m)
	}
}
