package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeTask writes prog.c and its task definition into dir.
func writeTask(t *testing.T, dir, name, src, props string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	yml := "format_version: '2.0'\ninput_files: '" + name + ".c'\nproperties:\n" + props + "options:\n  language: C\n  data_model: ILP32\n"
	if err := os.WriteFile(filepath.Join(dir, name+".yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
}

const racy = `#include <pthread.h>
void reach_error(void) {}
int x;
void *f(void *a) { x++; return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	x++;
	pthread_join(t, 0);
	if (x != 2) reach_error();
	return 0;
}
`

func TestSweep(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	unreach := func(v string) string {
		return "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: " + v + "\n"
	}
	safe := strings.Replace(racy, "x++;\n\tpthread_join(t, 0);", "pthread_join(t, 0);\n\tx++;", 1)
	writeTask(t, dir, "racy", racy, unreach("false")+"  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\n")
	writeTask(t, dir, "safe", safe, unreach("true"))
	writeTask(t, dir, "complex", "int main(void) { _Complex double d = 1.5; return &d == 0; }\n", unreach("true"))
	code, stdout, stderr := runCLI(t, "sweep", "--out", out, "--timeout", "20s", dir)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "4 (task, property) pairs: 3 correct, 0 wrong, 1 unknown; score 4 of 6") {
		t.Errorf("totals:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 5 {
		t.Fatalf("results.csv: %v, %d rows", err, len(rows))
	}
	got := map[string]string{}
	for _, r := range rows[1:] {
		got[r[0]+" "+r[1]] = r[3] + " " + r[4] + " " + r[5]
		if _, err := os.Stat(filepath.Join(out, r[10])); err != nil {
			t.Errorf("no log for %s: %v", r[0], err)
		}
	}
	want := map[string]string{
		"racy unreach-call": "false correct 1", "racy no-data-race": "false correct 1",
		"safe unreach-call": "true correct 2", "complex unreach-call": "unknown unknown 0",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
	var js struct {
		Summary sweepSummary  `json:"summary"`
		Results []sweepResult `json:"results"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if err := json.Unmarshal(data, &js); err != nil || js.Summary.Score != 4 || len(js.Results) != 4 {
		t.Errorf("results.json: %v %+v", err, js.Summary)
	}
	if h, err := os.ReadFile(filepath.Join(out, "summary.html")); err != nil || !strings.Contains(string(h), "<svg") {
		t.Errorf("summary.html: %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(out, "logs", filepath.Base(dir)+"-racy.unreach-call.log"))
	if !strings.Contains(string(log), "counterexample:") {
		t.Errorf("the log of a violation should hold its counterexample:\n%s", log)
	}
	// The bug hunt runs beside the exhaustive stages and is stopped when
	// they answer: a program proved safe at once is not kept waiting for
	// the hunt's tenth of the time limit.
	log, _ = os.ReadFile(filepath.Join(out, "logs", filepath.Base(dir)+"-safe.unreach-call.log"))
	if !strings.Contains(string(log), "stage pct stopped: the other stages answered first") {
		t.Errorf("the bug hunt should have been stopped when the program was proved safe:\n%s", log)
	}

	// A wrong expectation is scored as a wrong answer, and the exit code says so.
	writeTask(t, dir, "lie", racy, unreach("true"))
	code, stdout, _ = runCLI(t, "sweep", "-q", "--out", out, filepath.Join(dir, "lie.yml"))
	if code != 1 || !strings.Contains(stdout, "0 correct, 1 wrong, 0 unknown; score -16 of 2") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

// TestSweepUnderApprox: a program with a nondet input too wide to
// enumerate is checked on a sample of inputs; a violation found there is
// answered false, but no violation never gives true.
func TestSweepUnderApprox(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	unreach := func(v string) string {
		return "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: " + v + "\n"
	}
	prog := func(cond string) string {
		return "void reach_error(void) {}\nextern unsigned int __VERIFIER_nondet_uint(void);\n" +
			"int main(void) {\n\tunsigned int x = __VERIFIER_nondet_uint();\n\tif (" + cond + ") reach_error();\n\treturn 0;\n}\n"
	}
	writeTask(t, dir, "small", prog("x == 2"), unreach("false"))
	writeTask(t, dir, "max", prog("x == 4294967295u"), unreach("false"))
	writeTask(t, dir, "missed", prog("x == 12345"), unreach("false"))
	writeTask(t, dir, "never", prog("x + 1 == x"), unreach("true"))
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "20s", dir)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "4 (task, property) pairs: 2 correct, 0 wrong, 2 unknown") {
		t.Errorf("totals:\n%s", stdout)
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	var js struct {
		Results []sweepResult `json:"results"`
	}
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatal(err)
	}
	for _, r := range js.Results {
		want := map[string]string{"small": "false", "max": "false", "missed": "unknown", "never": "unknown"}[r.Task]
		if r.Answer != want {
			t.Errorf("%s: answer %s (%s), want %s", r.Task, r.Answer, r.Reason, want)
		}
		if r.Answer == "unknown" && !strings.Contains(r.Reason, "under-approximated") {
			t.Errorf("%s: reason %q should say the input was under-approximated", r.Task, r.Reason)
		}
	}
}

// TestSweepNoDataRace: the no-data-race property on a race-free program
// with a spin loop that needs the unbounded-loop stage.
func TestSweepNoDataRace(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	src := `#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int flag, data;
void *f(void *a) {
	int v = 0;
	while (v == 0) {
		__VERIFIER_atomic_begin();
		v = flag;
		__VERIFIER_atomic_end();
	}
	data = 2;
	return 0;
}
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	data = 1;
	__VERIFIER_atomic_begin();
	flag = 1;
	__VERIFIER_atomic_end();
	pthread_join(t, 0);
	return data;
}
`
	racy := strings.Replace(src, "\tdata = 1;\n\t__VERIFIER_atomic_begin();\n\tflag = 1;", "\t__VERIFIER_atomic_begin();\n\tflag = 1;\n\t__VERIFIER_atomic_end();\n\tdata = 1;\n\t__VERIFIER_atomic_begin();", 1)
	prop := func(v string) string {
		return "  - property_file: ../properties/no-data-race.prp\n    expected_verdict: " + v + "\n"
	}
	writeTask(t, dir, "sync", src, prop("true"))
	writeTask(t, dir, "late", racy, prop("false"))
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "20s", dir)
	if code != 0 || !strings.Contains(stdout, "2 (task, property) pairs: 2 correct, 0 wrong, 0 unknown") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestSweepNoDataRaceAfterErrorCall: for no-data-race, calling the
// program's reach_error is no error: with the body {} the program goes
// on, here to a race; an error function without a body ends the program
// (SV-COMP declares it noreturn), and the race after it is unreachable.
// A read whose value only goes to printf races too.
func TestSweepNoDataRaceAfterErrorCall(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	src := `#include <pthread.h>
void reach_error() {}
#define assert(e) if (!(e)) reach_error()
int x, data;
void *f(void *a) {
	assert(x == 1);
	data = 1;
	return 0;
}
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	pthread_join(t, 0);
	data = 2;
	if (data == 2) {
		pthread_create(&t, 0, f, 0);
		data = 3;
		pthread_join(t, 0);
	}
	return 0;
}
`
	noreturn := strings.Replace(src, "void reach_error() {}", "extern void reach_error(void) __attribute__((__noreturn__));", 1)
	prop := func(v string) string {
		return "  - property_file: ../properties/no-data-race.prp\n    expected_verdict: " + v + "\n"
	}
	// The only racing read is an argument of printf.
	printfRead := `#include <pthread.h>
#include <stdio.h>
int *y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *f(void *a) {
	pthread_mutex_lock(&m);
	*y = 8;
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void) {
	int v = 0;
	y = &v;
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	printf("%d", *y);
	pthread_join(t, 0);
	return 0;
}
`
	writeTask(t, dir, "goes-on", src, prop("false"))
	writeTask(t, dir, "ends", noreturn, prop("true"))
	writeTask(t, dir, "printf-read", printfRead, prop("false"))
	// fprintf's stream (stderr, extern in the C library) is not read.
	writeTask(t, dir, "fprintf-read", strings.Replace(printfRead, `printf("%d", *y);`, `fprintf(stderr, "%d", *y);`, 1), prop("false"))
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "20s", dir)
	if code != 0 || !strings.Contains(stdout, "4 (task, property) pairs: 4 correct, 0 wrong, 0 unknown") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestSweepBugHunt: when the exhaustive stages run out of time, PCT hunts
// for the error call; the run it finds is a real execution (answer false).
func TestSweepBugHunt(t *testing.T) {
	if testing.Short() {
		t.Skip("takes the whole timeout")
	}
	dir, out := t.TempDir(), t.TempDir()
	// The error needs the checker thread to run after all ten
	// incrementers, which depth-first search reaches last (each
	// incrementer has its own argument, so thread symmetry does not
	// merge their states).
	src := `#include <pthread.h>
void reach_error(void) {}
volatile int x;
void *check(void *a) { if (x >= 10) reach_error(); return 0; }
void *inc(void *a) { int t = x; x = t + 1; return a; }
int main(void) {
	pthread_t c, t;
	pthread_create(&c, 0, check, 0);
	for (long i = 0; i < 10; i++)
		pthread_create(&t, 0, inc, (void *)i);
	return 0;
}
`
	writeTask(t, dir, "late", src, "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n")
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "8s", dir)
	if code != 0 || !strings.Contains(stdout, "1 correct, 0 wrong") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(out, "results.json"))
	var js struct {
		Results []sweepResult `json:"results"`
	}
	if err := json.Unmarshal(data, &js); err != nil || len(js.Results) != 1 {
		t.Fatal(err)
	}
	if r := js.Results[0]; r.Explorer != "pct" {
		t.Errorf("answer %s from %s, want it from the PCT stage", r.Answer, r.Explorer)
	}
}

// spawnerProg is a C program whose main creates threads for ever, each
// entering a critical section of a lock built from atomic functions: safe
// (no error call, no data race) for any number of threads.
const spawnerProg = `#include <pthread.h>
extern void __VERIFIER_assume(int);
void reach_error(void) {}
int x = 1, m = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(m == 1); m = 0; }
void *thr(void *arg) {
	__VERIFIER_atomic_acquire();
	x = 0;
	x = 1;
	if (x < 1) reach_error();
	__VERIFIER_atomic_release();
	return 0;
}
int main(void) {
	pthread_t t;
	while (1) pthread_create(&t, 0, thr, 0);
}
`

// TestSweepCoverabilityStage: a task whose main creates threads for ever
// is proved safe by the coverability stage (no bounded stage can), and
// the buggy variant is still answered false by the other stages.
func TestSweepCoverabilityStage(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	safe := spawnerProg
	buggy := strings.Replace(strings.Replace(safe, "\t__VERIFIER_atomic_acquire();\n", "", 1), "\t__VERIFIER_atomic_release();\n", "", 1)
	unreach := func(v string) string {
		return "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: " + v + "\n"
	}
	race := func(v string) string {
		return "  - property_file: ../properties/no-data-race.prp\n    expected_verdict: " + v + "\n"
	}
	writeTask(t, dir, "spin", safe, unreach("true")+race("true"))
	writeTask(t, dir, "spin-buggy", buggy, unreach("false")+race("false"))
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "20s", dir)
	if code != 0 || !strings.Contains(stdout, "4 (task, property) pairs: 4 correct, 0 wrong, 0 unknown; score 6 of 6") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, prop := range []string{"unreach-call", "no-data-race"} {
		log, _ := os.ReadFile(filepath.Join(out, "logs", filepath.Base(dir)+"-spin."+prop+".log"))
		if !strings.Contains(string(log), "answer from stage coverability: true") {
			t.Errorf("the safe task's %s should be answered by the coverability stage:\n%s", prop, log)
		}
	}
}

// TestSweepFrontEndTimeout: --timeout bounds a task's translation too. A C
// file that keeps the C parser busy for about a second (a chain of 3,000
// else-ifs) with a 100 ms bound is unknown, with the front end named, long
// before the parser would finish.
func TestSweepFrontEndTimeout(t *testing.T) {
	dir := t.TempDir()
	var chain strings.Builder
	chain.WriteString("void reach_error(void) {}\nint main(void) { int x = 0;\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&chain, "  if (x == %d) x = %d; else\n", i, i+1)
	}
	chain.WriteString("  x = 0;\n  if (x != 1) reach_error();\n  return 0; }\n")
	writeTask(t, dir, "chain", chain.String(), "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n")
	start := time.Now()
	code, stdout, stderr := runCLI(t, "sweep", "--timeout", "100ms", "--out", filepath.Join(t.TempDir(), "out"), dir)
	if code != 0 || !strings.Contains(stdout, "time bound 100ms hit in the front end") || !strings.Contains(stdout, "0 correct, 0 wrong, 1 unknown") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the sweep took %s with --timeout 100ms", took)
	}
}

// TestSweepModel: --model translates and checks each task under that
// memory model, and the results record it. Store buffering with relaxed
// atomics (r1 == 0 && r2 == 0 calls reach_error) is safe under sc and
// reaches the error under tso and rc11; a model ncmc does not know is bad
// input.
func TestSweepModel(t *testing.T) {
	const sb = `#include <pthread.h>
#include <stdatomic.h>
void reach_error(void) {}
atomic_int x, y;
int r1, r2;
void *f(void *a) { atomic_store_explicit(&x, 1, memory_order_relaxed); r1 = atomic_load_explicit(&y, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	r2 = atomic_load_explicit(&x, memory_order_relaxed);
	pthread_join(t, 0);
	if (r1 == 0 && r2 == 0) reach_error();
	return 0;
}
`
	dir := t.TempDir()
	writeTask(t, dir, "sb", sb, "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n")
	for _, c := range []struct {
		model, answer, category string
		code                    int
	}{
		{"sc", "true", "correct", 0},
		{"tso", "false", "wrong", 1},
		{"rc11", "false", "wrong", 1},
	} {
		t.Run(c.model, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"sweep", "-q", "--out", out, "--timeout", "30s", dir}
			if c.model != "sc" {
				args = append(args, "--model", c.model)
			}
			code, stdout, stderr := runCLI(t, args...)
			if code != c.code || !strings.Contains(stdout, "explorer auto, model "+c.model+")") {
				t.Fatalf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			f, err := os.Open(filepath.Join(out, "results.csv"))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil || len(rows) != 2 || rows[0][14] != "model" {
				t.Fatalf("results.csv: %v %q", err, rows)
			}
			if r := rows[1]; r[3] != c.answer || r[4] != c.category || r[14] != c.model {
				t.Errorf("results.csv row %q: want answer %s, %s, model %s", r, c.answer, c.category, c.model)
			}
			var js struct {
				Summary sweepSummary  `json:"summary"`
				Results []sweepResult `json:"results"`
			}
			data, _ := os.ReadFile(filepath.Join(out, "results.json"))
			if err := json.Unmarshal(data, &js); err != nil || js.Summary.Model != c.model || len(js.Results) != 1 || js.Results[0].Model != c.model {
				t.Errorf("results.json: %v %+v", err, js)
			}
			if h, _ := os.ReadFile(filepath.Join(out, "summary.html")); !strings.Contains(string(h), "memory model "+c.model) {
				t.Errorf("summary.html does not name the model %s", c.model)
			}
			log, _ := os.ReadFile(filepath.Join(out, "logs", filepath.Base(dir)+"-sb.unreach-call.log"))
			if !strings.Contains(string(log), "model "+c.model) {
				t.Errorf("the log does not name the model:\n%s", log)
			}
		})
	}
	code, _, stderr := runCLI(t, "sweep", "--model", "arm", "--out", t.TempDir(), dir)
	if code != exitBadInput || !strings.Contains(stderr, "--model") {
		t.Errorf("--model arm: exit %d, stderr %q", code, stderr)
	}
}
