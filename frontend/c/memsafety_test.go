package c

import (
	"context"
	"strings"
	"testing"
	"time"

	"ncmc/interp"
	"ncmc/ncmc"
)

// TestMemorySafety: each memory-safety error is a violation of its own
// kind, found in the executions where it happens and only there: a
// correct and a buggy variant per kind, under the models each applies to.
func TestMemorySafety(t *testing.T) {
	all := []string{"sc", "tso", "rc11"}
	cases := []struct {
		name   string
		src    string
		models []string
		kind   string // "" : verified; "unknown": a bound hit
		msg    string
	}{
		{name: "nondet-count", models: all, src: `
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int n = __VERIFIER_nondet_int(); assume_abort_if_not(n >= 1 && n <= 3);
	int *p = calloc(n, sizeof(int)); p[n-1] = 1; assert(p[0] == (n == 1));
	int *q = malloc(n * sizeof(int)); for (int i = 0; i < n; i++) q[i] = i; assert(q[n-1] == n-1);
	free(q); free(p);
	return 0;
}`},
		{name: "nondet-count-overflow", models: all, kind: "runtime-error", msg: "invalid memory address", src: `
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int n = __VERIFIER_nondet_int(); assume_abort_if_not(n >= 1 && n <= 3);
	int *p = malloc(sizeof(int) * n); p[0] = 0;
	if (n == 2) p[n] = 1;
	return 0;
}`},
		{name: "nondet-count-uninit", models: all, kind: interp.KindUninitRead, src: `
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int n = __VERIFIER_nondet_int(); assume_abort_if_not(n >= 1 && n <= 3);
	int *p = malloc(sizeof(int) * n); p[0] = 0;
	return p[n - 1];
}`},
		{name: "zero-count", models: all, kind: "unknown", msg: "allocation of 0 elements", src: `
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int n = __VERIFIER_nondet_int(); assume_abort_if_not(n >= 0 && n <= 1);
	int *p = malloc(sizeof(int) * n);
	return 0;
}`},
		{name: "free-then-no-use", models: all, src: `
int *p;
void *f(void *a) { *p = 2; return 0; }
int main(void) {
	p = malloc(sizeof(int)); *p = 1;
	pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0);
	free(p); free(0);
	return 0;
}`},
		{name: "use-after-free-racing", models: all, kind: interp.KindUseAfterFree, msg: "use after free", src: `
int *p;
void *f(void *a) { free(p); return 0; }
int main(void) {
	p = malloc(sizeof(int)); *p = 1;
	pthread_t t; pthread_create(&t, 0, f, 0);
	int v = *p;
	pthread_join(t, 0);
	return v;
}`},
		{name: "use-after-free-write-second-cell", models: all, kind: interp.KindUseAfterFree, src: `
int *p;
void *f(void *a) { p[1] = 3; return 0; }
int main(void) {
	p = malloc(2 * sizeof(int)); p[0] = p[1] = 0;
	pthread_t t; pthread_create(&t, 0, f, 0);
	free(p);
	pthread_join(t, 0);
	return 0;
}`},
		{name: "free-after-join", models: all, src: `
int *p;
void *f(void *a) { p[1] = 3; return 0; }
int main(void) {
	p = malloc(2 * sizeof(int)); p[0] = p[1] = 0;
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_join(t, 0);
	free(p);
	return 0;
}`},
		{name: "double-free", models: all, kind: interp.KindDoubleFree, msg: "double free", src: `
int main(void) { int *p = malloc(sizeof(int)); free(p); free(p); return 0; }`},
		{name: "double-free-racing", models: all, kind: interp.KindDoubleFree, src: `
int *p;
void *f(void *a) { free(p); return 0; }
int main(void) {
	p = malloc(sizeof(int));
	pthread_t t; pthread_create(&t, 0, f, 0);
	free(p);
	pthread_join(t, 0);
	return 0;
}`},
		{name: "free-once-of-two", models: all, src: `
int *p, *q;
void *f(void *a) { free(q); return 0; }
int main(void) {
	p = malloc(sizeof(int)); q = calloc(1, sizeof(int));
	pthread_t t; pthread_create(&t, 0, f, 0);
	free(p);
	pthread_join(t, 0);
	return 0;
}`},
		{name: "free-global", models: all, kind: interp.KindInvalidFree, msg: "not allocated by malloc", src: `
int g;
int main(void) { int *p = &g; free(p); return 0; }`},
		{name: "free-local", models: all, kind: interp.KindInvalidFree, src: `
int main(void) { int a[2]; int *p = a; free(p); return 0; }`},
		{name: "free-middle", models: all, kind: interp.KindInvalidFree, msg: "not the start", src: `
int main(void) { int *p = malloc(2 * sizeof(int)); free(p + 1); return 0; }`},
		{name: "uninit-read-after-join", models: all, src: `
int *p;
void *f(void *a) { *p = 5; return 0; }
int main(void) {
	p = malloc(sizeof(int));
	pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0);
	assert(*p == 5);
	return 0;
}`},
		{name: "uninit-read-racing", models: all, kind: interp.KindUninitRead, msg: "uninitialized read", src: `
int *p;
void *f(void *a) { *p = 5; return 0; }
int main(void) {
	p = malloc(sizeof(int));
	pthread_t t; pthread_create(&t, 0, f, 0);
	int v = *p;
	pthread_join(t, 0);
	return v;
}`},
		{name: "uninit-atomic-rmw", models: all, kind: interp.KindUninitRead, src: `
int main(void) { atomic_int *p = malloc(sizeof(atomic_int)); atomic_fetch_add(p, 1); return 0; }`},
		{name: "calloc-is-zero", models: all, src: `
int main(void) { int *p = calloc(3, sizeof(int)); assert(p[2] == 0); free(p); return 0; }`},
		{name: "destroyed-mutex", models: []string{"sc", "tso"}, kind: interp.KindDestroyedMutex, msg: "destroyed mutex", src: `
pthread_mutex_t m;
void *f(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_mutex_destroy(&m);
	pthread_join(t, 0);
	return 0;
}`},
		{name: "destroy-after-join-and-reinit", models: []string{"sc", "tso"}, src: `
pthread_mutex_t m;
void *f(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_join(t, 0);
	pthread_mutex_destroy(&m);
	pthread_mutex_init(&m, 0);
	pthread_mutex_lock(&m); pthread_mutex_unlock(&m);
	return 0;
}`},
	}
	for _, c := range cases {
		for _, m := range c.models {
			t.Run(c.name+"/"+m, func(t *testing.T) {
				p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{NoAtomicSections: m == "ra" || m == "rc11"})
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Unroll: 4, Timeout: 60 * time.Second})
				if err != nil {
					t.Fatalf("verify: %v", err)
				}
				if c.kind == "unknown" {
					if res.Verdict != ncmc.Unknown || !strings.Contains(res.Reason, c.msg) {
						t.Errorf("got %s (%s), want unknown (%s)", res.Verdict, res.Reason, c.msg)
					}
					return
				}
				if c.kind == "" {
					if res.Verdict != ncmc.Verified {
						t.Errorf("got %s (%s, kind %s), want verified", res.Verdict, res.Reason, res.Kind)
					}
					return
				}
				if res.Verdict != ncmc.Violation || res.Kind != c.kind || !strings.Contains(res.Reason, c.msg) {
					t.Errorf("got %s (%s, kind %s), want a %s violation (%s)", res.Verdict, res.Reason, res.Kind, c.kind, c.msg)
				}
				if len(res.Counterexample) == 0 {
					t.Errorf("no counterexample")
				}
			})
		}
	}
}
