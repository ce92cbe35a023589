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
	all := allModels
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
		{name: "uninit-local-register-correct", models: all, src: `
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) {
	int c = __VERIFIER_nondet_bool(), x;
	if (c) x = 1;
	if (c) assert(x == 1);   /* only read where assigned: no violation */
	int y; for (int i = 0; i < 2; i++) { if (i == 0) y = 7; assert(y == 7); }
	return 0;
}`},
		{name: "uninit-local-register-buggy", models: all, kind: interp.KindUninitRead, msg: "x is a local variable declared without an initializer", src: `
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) {
	int c = __VERIFIER_nondet_bool(), x;
	if (c) x = 1;
	return x;   /* unassigned when c == 0 */
}`},
		{name: "uninit-local-thread-buggy", models: all, kind: interp.KindUninitRead, src: `
atomic_int g;
void *f(void *a) { int v; if (g) v = 1; return (void *)(long)v; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); g = 1; pthread_join(t, 0); return 0; }`},
		{name: "uninit-local-array-correct", models: all, src: `
int main(void) { int a[3]; struct { int k; int *p; } s; for (int i = 0; i < 3; i++) a[i] = i; s.k = a[2]; s.p = &a[0]; assert(*s.p == 0 && s.k == 2); return 0; }`},
		{name: "uninit-local-array-buggy", models: all, kind: interp.KindUninitRead, msg: "local variable", src: `
int main(void) { int a[3]; a[0] = a[1] = 0; return a[0] + a[2]; }`},
		{name: "uninit-local-address-taken-buggy", models: all, kind: interp.KindUninitRead, src: `
int *shared;
void *f(void *a) { *shared = 1; return 0; }
int main(void) { int v; shared = &v; pthread_t t; pthread_create(&t, 0, f, 0); int r = v; pthread_join(t, 0); return r; }`},
		{name: "uninit-local-mutex-ok", models: all, src: `
int main(void) { pthread_mutex_t m; pthread_mutex_init(&m, 0); pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }`},
		{name: "malloc-mutex", models: all, src: `
typedef struct { int n; pthread_mutex_t m; pthread_cond_t c; } lock;
lock *l;
void *f(void *a) { pthread_mutex_lock(&l->m); l->n = 1; pthread_cond_signal(&l->c); pthread_mutex_unlock(&l->m); return 0; }
int main(void) {
	l = malloc(sizeof(lock)); l->n = 0;
	pthread_mutex_init(&l->m, NULL); pthread_cond_init(&l->c, NULL);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_mutex_lock(&l->m); while (l->n == 0) pthread_cond_wait(&l->c, &l->m); pthread_mutex_unlock(&l->m);
	pthread_join(t, 0);
	return 0;
}`},
		// stack-freed (GenMC's tests/wrong/memory/stack-freed): a local
		// in memory dies when its function returns.
		{name: "stack-freed-thread-local-after-join", models: all, kind: interp.KindUseAfterReturn, msg: "use after return: access to x", src: `
int *p;
void *f(void *a) { int x = 42; p = &x; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); return *p; }`},
		{name: "stack-freed-returned-address", models: all, kind: interp.KindUseAfterReturn, src: `
int *g(void) { int x = 1; return &x; }
int main(void) { int *q = g(); return *q; }`},
		{name: "stack-freed-write", models: all, kind: interp.KindUseAfterReturn, src: `
int *q;
void g(void) { int a[2] = {1, 2}; q = &a[1]; }
int main(void) { g(); *q = 3; return 0; }`},
		{name: "stack-freed-uninit-local", models: all, kind: interp.KindUseAfterReturn, src: `
int *q;
void g(void) { int x; q = &x; }
int main(void) { g(); *q = 3; return 0; }`},
		{name: "stack-freed-racing", models: all, kind: interp.KindUseAfterReturn, src: `
_Atomic(int *) p;
void *f(void *a) { int x = 42; atomic_store(&p, &x); return 0; }
void *h(void *a) { int *q = atomic_load(&p); if (q) return (void *)(long)*q; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, f, 0); pthread_create(&u, 0, h, 0); return 0; }`},
		{name: "stack-freed-free-of-dead-local", models: all, kind: interp.KindInvalidFree, src: `
int *g(void) { int x = 1; return &x; }
int main(void) { free(g()); return 0; }`},
		{name: "stack-main-locals-to-threads", models: all, src: `
void *f(void *a) { int *q = a; *q += 1; return 0; }
int main(void) {
	int x = 1, y = 5; pthread_t t, u;
	pthread_create(&t, 0, f, &x); pthread_create(&u, 0, f, &y);
	pthread_join(t, 0);
	assert(x == 2);
	return 0;
}`},
		{name: "stack-callee-local-to-thread-joined", models: all, src: `
void *f(void *a) { int *q = a; *q += 1; return 0; }
int g(void) { int x = 1; pthread_t t; pthread_create(&t, 0, f, &x); pthread_join(t, 0); return x; }
int main(void) { assert(g() == 2); assert(g() == 2); return 0; }`},
		{name: "stack-recursion", models: all, src: `
int sum(int n) { int x = n; int *p = &x; if (n > 0) *p += sum(n - 1); return *p; }
int main(void) { assert(sum(3) == 6); return 0; }`},
		{name: "stack-copy-out-before-return", models: all, src: `
int g(int *out) { int a[3] = {1, 2, 3}; int *p = a; *out = p[2]; return p[0]; }
int main(void) { int v; int r = g(&v); assert(r == 1 && v == 3); return 0; }`},
		{name: "calloc-is-zero", models: all, src: `
int main(void) { int *p = calloc(3, sizeof(int)); assert(p[2] == 0); free(p); return 0; }`},
		{name: "destroyed-mutex", models: all, kind: interp.KindDestroyedMutex, msg: "destroyed mutex", src: `
pthread_mutex_t m;
void *f(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_mutex_destroy(&m);
	pthread_join(t, 0);
	return 0;
}`},
		{name: "destroy-after-join-and-reinit", models: all, src: `
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
				p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{}.ForModel(m, false))
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

// TestUninitLocalZeroHeap: under Options.ZeroHeap (SV-COMP, where an
// indeterminate local is a nondeterministic value) a register local that
// may be read unassigned stays unsupported, with its position, and a
// memory local starts zeroed.
func TestUninitLocalZeroHeap(t *testing.T) {
	wantUnsupported(t, "int main(void) { int x; return x; }\n", Options{ZeroHeap: true}, "t.c:1:32: unsupported: the value of x is read, but it may not have been assigned")
	for _, c := range []struct {
		zero bool
		want ncmc.Verdict
	}{{true, ncmc.Verified}, {false, ncmc.Violation}} {
		p, err := Compile("t.c", []byte(syncPrelude+"int main(void) { int a[2]; a[0] = 1; assert(a[1] == 0); return 0; }\n"), Options{ZeroHeap: c.zero})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: "sc", Unroll: 2, Timeout: time.Minute})
		if err != nil || res.Verdict != c.want {
			t.Errorf("ZeroHeap %v: got %v %v, want %s", c.zero, res.Verdict, err, c.want)
		}
	}
}

// TestDestroyedMutexGraph: under ra and rc11 pthread_mutex_destroy (and
// mtx_destroy) is a release store of -1 into the mutex, and a lock or
// trylock that reads it is a destroyed-mutex violation, on both graph
// explorers (trust, and graph, which also takes trylock): whichever of the
// destroy and the lock the explorer adds first (the destroy in main before
// the other thread's lock, or main's lock before the destroy of another
// thread, which then revisits the lock). A destroy ordered after every
// lock (by join, or by a flag read after the locking thread set it, also
// a relaxed one: the lock cannot read a write that is after its own
// thread's flag write in po and rf) is no violation, and neither is a
// mutex initialized again after its destroy. (Not covered: a lock that
// races with a destroy that its thread follows at once by an init; see
// docs/c.md.)
func TestDestroyedMutexGraph(t *testing.T) {
	const locker = `pthread_mutex_t m; atomic_int flag;
void *f(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }
`
	cases := []struct {
		name string
		src  string
		bug  bool
	}{
		{"destroy-in-main-racing", locker + `
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_mutex_destroy(&m);
	pthread_join(t, 0);
	return 0;
}`, true},
		{"destroy-in-thread-racing", `pthread_mutex_t m;
void *d(void *a) { pthread_mutex_destroy(&m); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, d, 0);
	pthread_mutex_lock(&m); pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	return 0;
}`, true},
		{"lock-loop-racing", `pthread_mutex_t m; int x;
void *f(void *a) { for (int i = 0; i < 2; i++) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); } return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m);
	pthread_mutex_destroy(&m);
	pthread_join(t, 0);
	return 0;
}`, true},
		{"trylock-racing", `pthread_mutex_t m;
void *f(void *a) { if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_mutex_destroy(&m);
	pthread_join(t, 0);
	return 0;
}`, true},
		{"mtx-racing", `#include <threads.h>
mtx_t m;
int f(void *a) { mtx_lock(&m); mtx_unlock(&m); return 0; }
int main(void) {
	mtx_init(&m, mtx_plain);
	thrd_t t; thrd_create(&t, f, 0);
	mtx_destroy(&m);
	thrd_join(t, 0);
	return 0;
}`, true},
		{"destroy-after-join", locker + `
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_mutex_lock(&m); pthread_mutex_unlock(&m);
	pthread_join(t1, 0); pthread_join(t2, 0);
	pthread_mutex_destroy(&m);
	return 0;
}`, false},
		{"destroy-after-flag", `pthread_mutex_t m; atomic_int flag;
void *f(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); atomic_store_explicit(&flag, 1, memory_order_relaxed); return 0; }
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	if (atomic_load_explicit(&flag, memory_order_relaxed) == 1)
		pthread_mutex_destroy(&m);
	return 0;
}`, false},
		{"reinit-after-join", locker + `
int main(void) {
	pthread_mutex_init(&m, 0);
	pthread_t t; pthread_create(&t, 0, f, 0);
	pthread_join(t, 0);
	pthread_mutex_destroy(&m);
	pthread_mutex_init(&m, 0);
	pthread_create(&t, 0, f, 0);
	pthread_mutex_lock(&m); pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	pthread_mutex_destroy(&m);
	return 0;
}`, false},
	}
	for _, c := range cases {
		for _, m := range []string{"ra", "rc11"} {
			for _, e := range []string{"trust", "graph"} {
				t.Run(c.name+"/"+m+"/"+e, func(t *testing.T) {
					p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{}.ForModel(m, false))
					if err != nil {
						t.Fatalf("compile: %v", err)
					}
					res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Explorer: e, Unroll: 4, Timeout: 60 * time.Second})
					if err != nil {
						t.Fatalf("verify: %v", err)
					}
					if !c.bug {
						if res.Verdict != ncmc.Verified {
							t.Errorf("got %s (%s, kind %s), want verified", res.Verdict, res.Reason, res.Kind)
						}
						return
					}
					if res.Verdict != ncmc.Violation || res.Kind != interp.KindDestroyedMutex || !strings.Contains(res.Reason, "of destroyed mutex m") {
						t.Errorf("got %s (%s, kind %s), want a destroyed-mutex violation", res.Verdict, res.Reason, res.Kind)
					}
					if len(res.Counterexample) == 0 {
						t.Errorf("no counterexample")
					}
				})
			}
		}
	}
}
