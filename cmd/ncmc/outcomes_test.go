package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// lastWriter: three threads race on a compare-exchange (the first one
// wins, the others read its id) and then store their id to last, which
// nothing reads. Its read-value vectors are the 3 winners; with final
// states (flag, last) there are 9 classes.
const lastWriter = `#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
atomic_int last;

void *worker(void *arg)
{
	int id = (int)(long)arg;
	int expected = 0;
	atomic_compare_exchange_strong(&flag, &expected, id);
	atomic_store(&last, id);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	return 0;
}
`

// lastWriterCIR is lastWriter in CIR.
const lastWriterCIR = `global flag: int;
global last: int;
fn worker(id: int) { let e = cas(flag, 0, id); last = id; }
fn main() { spawn worker(1); spawn worker(2); spawn worker(3); }
`

// bothFail: store buffering with an assertion in each thread (every
// execution fails one of them) and a store to z nothing reads.
const bothFail = `#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y, z;

void *left(void *arg)
{
	atomic_store(&x, 1);
	atomic_store(&z, 1);
	int r = atomic_load(&y);
	assert(r == 0);
	return NULL;
}

void *right(void *arg)
{
	atomic_store(&y, 1);
	atomic_store(&z, 2);
	int s = atomic_load(&x);
	assert(s == 0);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, left, NULL);
	pthread_create(&b, NULL, right, NULL);
	return 0;
}
`

var executionsRE = regexp.MustCompile(`explorer (\w+): (\d+) executions`)

// executionsOf returns the explorer and the executions of verify's text
// output.
func executionsOf(t *testing.T, out string) (string, int) {
	t.Helper()
	m := executionsRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no execution count in:\n%s", out)
	}
	n, _ := strconv.Atoi(m[2])
	return m[1], n
}

// TestOutcomesFlag: a C program is explored one execution per read-value
// vector by default (vmcr without final states) and lists no outcomes;
// --outcomes explores the final states and lists them all, as the
// reference explorer does, and CIR input lists them by default. The
// verdict is the same either way, and with --keep-going so is every
// distinct violation.
func TestOutcomesFlag(t *testing.T) {
	dir := t.TempDir()
	last := filepath.Join(dir, "last.c")
	fail := filepath.Join(dir, "fail.c")
	cir := filepath.Join(dir, "last.cir")
	if err := os.WriteFile(last, []byte(lastWriter), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cir, []byte(lastWriterCIR), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fail, []byte(bothFail), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		code       int
		explorer   string
		executions int      // -1: not checked
		want, not  []string // substrings of stdout that must and must not be there
	}{
		{"C default", []string{last, "--classes"}, 0, "vmcr", 3,
			[]string{"classes: 3 read-value vectors, 3 reads-from graphs (final states not explored: --outcomes)", "outcomes: not listed: final states were not explored"},
			[]string{"outcomes (", "flag=", "with final states"}},
		{"C --outcomes", []string{last, "--classes", "--outcomes"}, 0, "vmcr", 9,
			[]string{"3 read-value vectors, 3 reads-from graphs, 9 read values with final states", "outcomes (9 distinct):", "flag=2 last=3   x1"},
			[]string{"not listed"}},
		{"C under tso", []string{last, "--model", "tso"}, 0, "vmcr", 3, []string{"outcomes: not listed"}, []string{"outcomes ("}},
		{"C under tso --outcomes", []string{last, "--model", "tso", "--outcomes"}, 0, "vmcr", 9, []string{"outcomes (9 distinct):"}, nil},
		// explorers that explore every final state anyway list them
		{"C reference", []string{last, "--explorer", "reference"}, 0, "reference", -1, []string{"outcomes (9 distinct):"}, []string{"not listed"}},
		{"C mcr", []string{last, "--explorer", "mcr"}, 0, "mcr", -1, []string{"outcomes (9 distinct):"}, []string{"not listed"}},
		{"C rc11", []string{last, "--model", "rc11"}, 0, "trust", -1, []string{"outcomes (9 distinct):"}, []string{"not listed"}},
		{"C quiet", []string{last, "-q"}, 0, "", -1, []string{"VERIFIED"}, []string{"not listed", "outcomes"}},
		{"CIR default", []string{cir}, 0, "vmcr", 9, []string{"outcomes (9 distinct):", "flag=2 last=3   x1"}, []string{"not listed"}},
		{"CIR --outcomes", []string{cir, "--outcomes"}, 0, "vmcr", 9, []string{"outcomes (9 distinct):"}, []string{"not listed"}},
		{"C violation", []string{fail}, 1, "vmcr", 1,
			[]string{"VIOLATION (assertion failed", "counterexample:", "outcomes: not listed"},
			[]string{"violations (", "outcomes ("}},
		{"C violations --keep-going", []string{fail, "--keep-going"}, 1, "vmcr", 4,
			[]string{"violations (2 distinct):\n  [assertion failed: r == 0] x2\n  [assertion failed: s == 0] x2\n"},
			[]string{"outcomes (", "z="}},
		{"C violations --keep-going --outcomes", []string{fail, "--keep-going", "--outcomes"}, 1, "vmcr", 8,
			[]string{"outcomes (4 distinct):", "x=1 y=1 z=2   [assertion failed: r == 0]"},
			[]string{"violations (", "not listed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"verify"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errs)
			}
			if tc.explorer != "" {
				ex, n := executionsOf(t, out)
				if ex != tc.explorer || tc.executions >= 0 && n != tc.executions {
					t.Errorf("explorer %s with %d executions, want %s with %d\n%s", ex, n, tc.explorer, tc.executions, out)
				}
			}
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(out, s) {
					t.Errorf("stdout has %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestOutcomesJSON: --json of a C program without --outcomes has no
// outcome list (null, outcomes_partial) and no count of classes with
// final states, but the distinct violations with --keep-going; with
// --outcomes the list is there.
func TestOutcomesJSON(t *testing.T) {
	dir := t.TempDir()
	last := filepath.Join(dir, "last.c")
	fail := filepath.Join(dir, "fail.c")
	os.WriteFile(last, []byte(lastWriter), 0o644)
	os.WriteFile(fail, []byte(bothFail), 0o644)
	type result struct {
		Complete        int               `json:"complete"`
		Outcomes        []json.RawMessage `json:"outcomes"`
		OutcomesPartial bool              `json:"outcomes_partial"`
		Violations      []struct {
			Violation  string `json:"violation"`
			Executions int    `json:"executions"`
		} `json:"violations"`
		Classes map[string]int `json:"classes"`
	}
	decode := func(t *testing.T, args ...string) (result, string) {
		t.Helper()
		_, out, errs := runCLI(t, append([]string{"verify", "--json"}, args...)...)
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
		}
		return r, out
	}
	r, out := decode(t, last, "--classes")
	if !strings.Contains(out, `"outcomes":null`) || !r.OutcomesPartial || r.Complete != 3 {
		t.Errorf("default: want outcomes null, outcomes_partial and 3 complete:\n%s", out)
	}
	if _, ok := r.Classes["values"]; ok || r.Classes["read_values"] != 3 || r.Classes["read_choices"] != 3 {
		t.Errorf("default: classes %v, want 3 read values and choices and no values", r.Classes)
	}
	r, out = decode(t, last, "--classes", "--outcomes")
	if len(r.Outcomes) != 9 || r.OutcomesPartial || r.Complete != 9 || r.Classes["values"] != 9 {
		t.Errorf("--outcomes: want 9 outcomes, 9 complete, 9 classes with final states:\n%s", out)
	}
	r, out = decode(t, fail, "--keep-going")
	if !r.OutcomesPartial || r.Outcomes != nil || len(r.Violations) != 2 || r.Violations[0].Violation != "assertion failed: r == 0" || r.Violations[1].Violation != "assertion failed: s == 0" {
		t.Errorf("--keep-going: want the 2 violations and no outcomes:\n%s", out)
	}
	r, out = decode(t, "../../examples/sb.cir")
	if r.OutcomesPartial || len(r.Outcomes) != 3 {
		t.Errorf("CIR: want 3 outcomes:\n%s", out)
	}
}
