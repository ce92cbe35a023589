package main

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ncmc/memmodel"
	"ncmc/ncmc"
	"ncmc/svcomp"
)

// cEntryPrelude starts every program of TestCEntryPointsAgree: a failed
// check calls reach_error, which is a violation for ncmc verify, test and
// bench and the violation of SV-COMP's unreach-call.
const cEntryPrelude = `#include <pthread.h>
#include <stdatomic.h>
void reach_error(void) {}
#define CHECK(c) do { if (!(c)) reach_error(); } while (0)
`

// TestCEntryPointsAgree runs the same C programs through every command
// that reads C (verify, test, bench, an SV-COMP task read by
// svcomp.LoadModel, verify --property and, under sc, ncmc sweep) under
// every memory model and checks that they give verify's verdict, and that
// verify gives the expected one under sc and rc11. The programs use the
// constructs whose translation depends on the model
// (cfront.Options.ForModel): whole _Atomic structs (an atomic section
// under sc, tso and pso, a hidden lock under ra and rc11), atomic
// fetch-add and fetch-sub (narrow ones are compare-exchange loops),
// pthread_mutex_destroy, and loads whose values are unused (dropped under
// sc, tso and pso). ncmc test explores only the operational models (sc,
// tso, pso); there it must find every violation verify finds (its PCT
// runs are seeded, so the test is deterministic) and none where verify
// finds none.
func TestCEntryPointsAgree(t *testing.T) {
	type want struct{ sc, rc11 ncmc.Verdict }
	ok, bug := ncmc.Verified, ncmc.Violation
	cases := []struct {
		name string
		src  string
		want want
	}{
		{"atomic-struct", `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) {
	struct P v = { 1, 1 }; atomic_store(&s, v);
	struct P u = { 2, 2 }; s = u;
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = atomic_load(&s); CHECK(r.a == r.b);
	struct P e = { 1, 1 }, n = { 3, 3 };
	atomic_compare_exchange_strong(&s, &e, n);
	pthread_join(t, 0);
	struct P q = s; CHECK(q.a == q.b && q.a != 1);
	return 0;
}`, want{ok, ok}},
		// The writer's value can be seen: a check another thread falsifies.
		{"atomic-struct-bug", `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_store(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = atomic_load(&s); CHECK(r.a == 0);
	pthread_join(t, 0);
	return 0;
}`, want{bug, bug}},
		{"fetch-add", `
atomic_int c;
_Atomic short h = 5;
_Atomic unsigned char u;
void *w(void *arg) {
	atomic_fetch_add(&c, 1); atomic_fetch_sub(&h, 2); atomic_fetch_sub_explicit(&u, 1, memory_order_relaxed);
	return 0;
}
int main(void) {
	pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);
	int mine = atomic_fetch_add_explicit(&c, 1, memory_order_acq_rel);
	pthread_join(t1, 0); pthread_join(t2, 0);
	CHECK(mine >= 0 && mine <= 2);
	CHECK(atomic_load(&c) == 3 && h == 1 && u == 254);
	return 0;
}`, want{ok, ok}},
		// An increment as a load and a store loses an update.
		{"lost-update-bug", `
atomic_int c;
void *w(void *arg) { int v = atomic_load(&c); atomic_store(&c, v + 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	int v = atomic_load(&c); atomic_store(&c, v + 1);
	pthread_join(t, 0);
	CHECK(c == 2);
	return 0;
}`, want{bug, bug}},
		// Message passing through a release fetch-add: the acquire load
		// that sees it sees the data.
		{"fetch-add-release", `
atomic_int d, f;
void *w(void *arg) {
	atomic_store_explicit(&d, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&f, 1, memory_order_release);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&f, memory_order_acquire) == 1)
		CHECK(atomic_load_explicit(&d, memory_order_relaxed) == 1);
	return 0;
}`, want{ok, ok}},
		// The same with a relaxed fetch-add: rc11 lets the data be stale.
		{"fetch-add-relaxed-bug", `
atomic_int d, f;
void *w(void *arg) {
	atomic_store_explicit(&d, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&f, 1, memory_order_relaxed);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&f, memory_order_relaxed) == 1)
		CHECK(atomic_load_explicit(&d, memory_order_relaxed) == 1);
	return 0;
}`, want{ok, bug}},
		// A mutex and a load whose value is unused (dropped under sc, tso
		// and pso), then the mutex destroyed.
		{"mutex-dead-load", `
pthread_mutex_t m;
int x, y;
void *w(void *arg) { pthread_mutex_lock(&m); x++; y; pthread_mutex_unlock(&m); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, w, 0);
	pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	pthread_mutex_destroy(&m);
	CHECK(x == 2);
	return 0;
}`, want{ok, ok}},
	}
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks")
	props := filepath.Join(dir, "properties")
	for _, d := range []string{tasks, props} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prp := filepath.Join(props, "unreach-call.prp")
	if err := os.WriteFile(prp, []byte("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		expected := "true"
		if c.want.sc == bug {
			expected = "false"
		}
		writeTask(t, tasks, c.name, cEntryPrelude+c.src, "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: "+expected+"\n")
	}
	verdictOf := func(code int) ncmc.Verdict {
		switch code {
		case exitVerified:
			return ncmc.Verified
		case exitViolation:
			return ncmc.Violation
		}
		return ncmc.Unknown
	}
	for _, c := range cases {
		file := filepath.Join(tasks, c.name+".c")
		yml := filepath.Join(tasks, c.name+".yml")
		for _, m := range memmodel.All() {
			model := m.Name
			t.Run(c.name+"/"+model, func(t *testing.T) {
				code, stdout, stderr := runCLI(t, "verify", "-q", "--model", model, file)
				got := verdictOf(code)
				if w := map[string]ncmc.Verdict{"sc": c.want.sc, "rc11": c.want.rc11}[model]; w != "" && got != w {
					t.Fatalf("verify: %s, want %s\n%s%s", got, w, stdout, stderr)
				}
				if got == ncmc.Unknown {
					t.Fatalf("verify: exit %d\n%s%s", code, stdout, stderr)
				}

				// bench, with the default explorer of the model
				code, stdout, stderr = runCLI(t, "bench", "--model", model, "--explorers", "auto", file)
				if code != 0 || !strings.Contains(stdout, "| "+string(got)+" |") {
					t.Errorf("bench: exit %d, want verdict %s\n%s%s", code, got, stdout, stderr)
				}

				// test (operational models only)
				if m.Operational() {
					code, stdout, stderr = runCLI(t, "test", "-q", "--model", model, "--runs", "3000", file)
					if want := map[ncmc.Verdict]int{ncmc.Verified: exitUnknown, ncmc.Violation: exitViolation}[got]; code != want {
						t.Errorf("test: exit %d, want %d (verify: %s)\n%s%s", code, want, got, stdout, stderr)
					}
				}

				// the SV-COMP task, read as the sweep reads it and explored
				// under the model
				td, err := svcomp.ReadTask(yml)
				if err != nil {
					t.Fatal(err)
				}
				in, err := td.InputFile()
				if err != nil {
					t.Fatal(err)
				}
				prog, err := svcomp.LoadModel(in, td.Options.DataModel, svcomp.UnreachCall, model)
				if err != nil {
					t.Fatalf("svcomp.LoadModel: %v", err)
				}
				res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: model})
				if err != nil {
					t.Fatal(err)
				}
				answer, why := svcomp.AnswerFor(res, svcomp.UnreachCall)
				if want := map[ncmc.Verdict]svcomp.Answer{ncmc.Verified: svcomp.True, ncmc.Violation: svcomp.False}[got]; answer != want {
					t.Errorf("SV-COMP task under %s: %s (%s), want %s", model, answer, why, want)
				}

				// verify --property (under sc the sweep's stages)
				code, stdout, stderr = runCLI(t, "verify", "-q", "--model", model, "--property", prp, "--timeout", "60s", file)
				want := "VERDICT: TRUE"
				if got == ncmc.Violation {
					want = "VERDICT: FALSE(unreach-call)"
				}
				if !strings.Contains(stdout, want) {
					t.Errorf("verify --property: exit %d, want %s\n%s%s", code, want, stdout, stderr)
				}
			})
		}
	}

	// The sweep (sc) answers every task as its definition expects.
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "sweep", "-q", "--out", out, "--timeout", "60s", tasks)
	if code != 0 {
		t.Fatalf("sweep: exit %d\n%s%s", code, stdout, stderr)
	}
	f, err := os.Open(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != len(cases)+1 {
		t.Fatalf("results.csv: %v, %d rows", err, len(rows))
	}
	for _, r := range rows[1:] {
		if r[4] != "correct" {
			t.Errorf("sweep: %s: %s is %s", r[0], r[3], r[4])
		}
	}
}
