package svcomp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	cfront "ncmc/frontend/c"
	"ncmc/interp"
	"ncmc/ncmc"
)

// TestMemSafetyProperties answers valid-memsafety and valid-memcleanup on
// small tasks, a correct and a buggy variant for each subproperty: the
// SV-COMP verdict names the violated subproperty (FALSE(valid-free),
// FALSE(valid-deref), FALSE(valid-memtrack), FALSE(valid-memcleanup)). A
// block still reachable from a global at the end is tracked (memtrack
// holds) but not cleaned up (memcleanup fails); exit() ends the program
// with its locals still pointing to their blocks.
func TestMemSafetyProperties(t *testing.T) {
	const pre = "#include <stdlib.h>\n#include <pthread.h>\nextern _Bool __VERIFIER_nondet_bool(void);\n"
	cases := []struct {
		name, src string
		p         Property
		want      string // the SV-COMP verdict line
	}{
		{"all-freed", `
int *g;
void *f(void *a) { int *q = malloc(sizeof(int)); *q = 1; free(q); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, f, 0);
	g = malloc(2 * sizeof(int)); g[1] = 3; free(g); g = 0;
	pthread_join(t, 0);
	return 0;
}`, ValidMemSafety, "TRUE"},
		{"all-freed", `
int main(void) { int *p = malloc(sizeof(int)); *p = 0; free(p); return 0; }`, ValidMemCleanup, "TRUE"},
		{"double-free", `
int *g;
void *f(void *a) { free(g); return 0; }
int main(void) { g = malloc(sizeof(int)); pthread_t t; pthread_create(&t, 0, f, 0); free(g); pthread_join(t, 0); return 0; }`, ValidMemSafety, "FALSE(valid-free)"},
		{"free-of-global", `
int x;
int main(void) { int *p = &x; if (__VERIFIER_nondet_bool()) p = malloc(sizeof(int)); free(p); return 0; }`, ValidMemSafety, "FALSE(valid-free)"},
		{"use-after-free", `
int *g;
void *f(void *a) { free(g); return 0; }
int main(void) { g = malloc(sizeof(int)); *g = 1; pthread_t t; pthread_create(&t, 0, f, 0); int v = *g; pthread_join(t, 0); return v; }`, ValidMemSafety, "FALSE(valid-deref)"},
		{"use-after-return", `
int *g;
void *f(void *a) { int x = 1; g = &x; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return *g; }`, ValidMemSafety, "FALSE(valid-deref)"},
		{"out-of-bounds", `
int main(void) { int *p = malloc(2 * sizeof(int)); p[0] = 0; int i = __VERIFIER_nondet_bool() ? 1 : 2; p[i] = 1; free(p); return 0; }`, ValidMemSafety, "FALSE(valid-deref)"},
		{"null-deref", `
int *g;
int main(void) { if (__VERIFIER_nondet_bool()) g = malloc(sizeof(int)); *g = 1; free(g); return 0; }`, ValidMemSafety, "FALSE(valid-deref)"},
		{"lost-pointer", `
int main(void) { int *p = malloc(sizeof(int)); *p = 1; if (__VERIFIER_nondet_bool()) free(p); return 0; }`, ValidMemSafety, "FALSE(valid-memtrack)"},
		{"lost-in-thread", `
void *f(void *a) { malloc(sizeof(int)); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }`, ValidMemSafety, "FALSE(valid-memtrack)"},
		{"reachable-from-global", `
struct node { struct node *next; int v; };
struct node *head;
int main(void) { head = malloc(sizeof *head); head->next = malloc(sizeof *head); head->next->next = 0; return 0; }`, ValidMemSafety, "TRUE"},
		{"reachable-from-global", `
struct node { struct node *next; int v; };
struct node *head;
int main(void) { head = malloc(sizeof *head); head->next = malloc(sizeof *head); head->next->next = 0; return 0; }`, ValidMemCleanup, "FALSE(valid-memcleanup)"},
		{"lost-list-tail", `
struct node { struct node *next; int v; };
struct node *head;
int main(void) { head = malloc(sizeof *head); head->next = malloc(sizeof *head); head->next->next = 0; free(head); head = 0; return 0; }`, ValidMemSafety, "FALSE(valid-memtrack)"},
		{"exit-with-local", `
int main(void) { int *p = malloc(sizeof(int)); *p = 1; if (*p) exit(0); free(p); return 0; }`, ValidMemSafety, "TRUE"},
		{"exit-with-local", `
int main(void) { int *p = malloc(sizeof(int)); *p = 1; if (*p) exit(0); free(p); return 0; }`, ValidMemCleanup, "FALSE(valid-memcleanup)"},
		{"exit-after-loss", `
int main(void) { int *p = malloc(sizeof(int)); p = 0; exit(0); }`, ValidMemSafety, "FALSE(valid-memtrack)"},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name+"/"+string(c.p), func(t *testing.T) {
			file := filepath.Join(dir, "t"+strconv.Itoa(i)+".c")
			if err := os.WriteFile(file, []byte(pre+c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			v := Check(context.Background(), Input{File: file, Property: c.p}, Limits{Timeout: time.Minute, Unroll: 4}, nil)
			if got := v.Answer.VerdictFor(c.p, v.Reason); got != c.want {
				t.Errorf("got %s (%s), want %s", got, v.Reason, c.want)
			}
		})
	}
}

// TestLeaksExplorer: leak checking runs on the stateful reference
// explorer whatever explorer is asked for under sc and tso (the result's
// note says so), and is refused under rc11, where no explorer checks it.
func TestLeaksExplorer(t *testing.T) {
	src := "#include <stdlib.h>\nint main(void) { int *p = malloc(sizeof(int)); *p = 1; return 0; }\n"
	prog, err := cfront.Compile("t.c", []byte(src), cfront.Options{ZeroHeap: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ model, explorer string }{{"sc", "vmcr"}, {"sc", "mcr"}, {"tso", "auto"}, {"sc", "reference"}} {
		res, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: c.model, Explorer: c.explorer, Leaks: interp.LeaksUnreachable, Timeout: time.Minute})
		if err != nil || res.Verdict != ncmc.Violation || res.Kind != interp.KindMemoryLeak {
			t.Errorf("%s/%s: got %v %v, want a memory-leak violation", c.model, c.explorer, res, err)
		}
	}
	if _, err := ncmc.Verify(context.Background(), prog, ncmc.Options{Model: "rc11", Leaks: interp.LeaksUnfreed, Timeout: time.Minute}); err == nil {
		t.Errorf("rc11: leak checking accepted, want an error")
	}
}
