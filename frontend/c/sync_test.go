package c

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

const syncPrelude = `#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
`

// syncCase is a program with its verdict under the models it runs under.
type syncCase struct {
	name   string
	src    string
	models []string // default: sc
	unroll int      // default 2: a spin loop must not need more
	want   ncmc.Verdict
	msg    string // substring of the reason
	// exact: the verdict holds under these models only (runSyncCases
	// runs the case under no other).
	exact bool
}

// allModels are the memory models, in memmodel's order.
var allModels = []string{"sc", "tso", "pso", "ra", "rc11"}

// runSyncCases compiles each case for each of its models as ncmc verify
// does (Options.ForModel) and checks the verdict. A case that wants
// Verified or Violation runs under every model (a correct program is
// correct under every model, and a bug of these tests is a bug under every
// model), unless exact; a violation's message is checked under the case's
// own models only (under ra and rc11 a data race may be the violation
// reported first).
func runSyncCases(t *testing.T, cases []syncCase) {
	t.Helper()
	runCases(t, cases, true)
}

// runSyncCasesExact is runSyncCases with exactly the models of each case.
func runSyncCasesExact(t *testing.T, cases []syncCase) {
	t.Helper()
	runCases(t, cases, false)
}

func runCases(t *testing.T, cases []syncCase, everyModel bool) {
	t.Helper()
	for _, c := range cases {
		models := c.models
		if len(models) == 0 {
			models = []string{"sc"}
		}
		own := map[string]bool{}
		for _, m := range models {
			own[m] = true
		}
		if everyModel && !c.exact && (c.want == ncmc.Verified || c.want == ncmc.Violation) {
			models = allModels
		}
		for _, m := range models {
			t.Run(c.name+"/"+m, func(t *testing.T) {
				p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{}.ForModel(m, false))
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				unroll := c.unroll
				if unroll == 0 {
					unroll = 2
				}
				opts := ncmc.Options{Model: m, Unroll: unroll, Timeout: 60 * time.Second}
				res, err := ncmc.Verify(context.Background(), p, opts)
				if err != nil {
					t.Fatalf("verify: %v", err)
				}
				msg := c.msg
				if !own[m] {
					msg = ""
				}
				if res.Verdict != c.want || !strings.Contains(res.Reason, msg) {
					t.Errorf("got %s (%s), want %s (%s)", res.Verdict, res.Reason, c.want, msg)
				}
			})
		}
	}
}

// TestBarriers gives pthread barriers their POSIX meaning: nobody leaves a
// round before every thread of it has arrived (with happens-before under
// rc11, so no data race), one thread of each round gets
// PTHREAD_BARRIER_SERIAL_THREAD, and the barrier is reusable.
func TestBarriers(t *testing.T) {
	both := []string{"sc", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "publish", models: both, want: ncmc.Verified, src: `
pthread_barrier_t b; int x;
void *w(void *a) { x = 42; pthread_barrier_wait(&b); return 0; }
void *r(void *a) { pthread_barrier_wait(&b); assert(x == 42); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, r, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	pthread_barrier_destroy(&b);
	return 0;
}`},
		{name: "publish-buggy", models: both, want: ncmc.Violation, src: `
pthread_barrier_t b; atomic_int x;
void *w(void *a) { pthread_barrier_wait(&b); x = 42; return 0; }
void *r(void *a) { pthread_barrier_wait(&b); assert(x == 42); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, r, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	return 0;
}`, msg: "assertion failed"},
		{name: "rounds", models: both, want: ncmc.Verified, src: `
pthread_barrier_t b; atomic_int count[3]; atomic_int serial[3];
void *f(void *a) {
	for (int i = 0; i < 3; i++) {
		count[i]++;
		if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) serial[i]++;
		assert(count[i] == 2);
	}
	return 0;
}
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	for (int i = 0; i < 3; i++) assert(serial[i] == 1);
	return 0;
}`},
		{name: "rounds-count-too-small", want: ncmc.Violation, src: `
pthread_barrier_t b; atomic_int count[2];
void *f(void *a) {
	for (int i = 0; i < 2; i++) { count[i]++; pthread_barrier_wait(&b); assert(count[i] == 2); }
	return 0;
}
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 1);
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	return 0;
}`, msg: "assertion failed"},
		{name: "more-threads-than-count", want: ncmc.Violation, src: `
pthread_barrier_t b; atomic_int passed, arrived;
void *f(void *a) { arrived++; pthread_barrier_wait(&b); passed++; assert(arrived >= 2 * ((passed + 1) / 2)); return 0; }
int main(void) {
	pthread_t t[3];
	pthread_barrier_init(&b, 0, 2);
	for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0);
	assert(passed != 2);   /* reachable: the first two pass together */
	return 0;
}`, msg: "passed != 2"},
		{name: "more-threads-than-count-third-waits", want: ncmc.Verified, src: `
pthread_barrier_t b; atomic_int passed;
void *f(void *a) { pthread_barrier_wait(&b); passed++; return 0; }
int main(void) {
	pthread_t t[3];
	pthread_barrier_init(&b, 0, 2);
	for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0);
	assert(passed != 3);   /* the third thread waits for a fourth */
	return 0;
}`},
	})
}

// TestSpinLoops: a loop whose failed iterations change nothing waits
// instead of iterating (no loop bound is hit at --unroll 2, however long
// the other threads take), while a loop whose iterations write memory or
// change a local the loop reads again keeps every iteration (its bugs are
// found).
func TestSpinLoops(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "flag-load-in-body", models: []string{"sc", "rc11"}, want: ncmc.Verified, src: `
atomic_int flag; int data;
void *w(void *a) { data = 1; data = 2; data = 3; atomic_store_explicit(&flag, 1, memory_order_release); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	for (;;) { int v = atomic_load_explicit(&flag, memory_order_acquire); if (v) break; }
	assert(data == 3);
	return 0;
}`},
		{name: "flag-load-in-body-buggy", models: []string{"sc", "rc11"}, want: ncmc.Violation, src: `
atomic_int flag; atomic_int data;
void *w(void *a) { atomic_store(&flag, 1); data = 3; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	for (;;) { int v = atomic_load(&flag); if (v) break; }
	assert(data == 3);
	return 0;
}`, msg: "assertion failed"},
		{name: "cas-lock", want: ncmc.Verified, src: `
atomic_int l; int x;
void *f(void *a) {
	int r = 0;
	while (!atomic_compare_exchange_strong(&l, &r, 1)) r = 0;
	x++; x++;
	l = 0;
	return 0;
}
int main(void) {
	pthread_t t[2];
	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, f, 0);
	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
	assert(x == 4);
	return 0;
}`},
		{name: "cas-lock-buggy", want: ncmc.Violation, src: `
atomic_int l; int x;
void *f(void *a) {
	int r = 0;
	while (!atomic_compare_exchange_strong(&l, &r, 1)) r = 0;
	l = 0;
	x++;
	return 0;
}
int main(void) {
	pthread_t t[2];
	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, f, 0);
	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
	assert(x == 2);
	return 0;
}`, msg: "assertion failed"},
		{name: "side-effect-rmw-not-a-wait", unroll: 4, want: ncmc.Violation, src: `
atomic_int flag, tries;
void *w(void *a) { atomic_store(&flag, 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	while (!atomic_load(&flag)) atomic_fetch_add(&tries, 1);
	assert(tries == 0);
	return 0;
}`, msg: "tries == 0"},
		{name: "side-effect-store-not-a-wait", unroll: 4, want: ncmc.Violation, src: `
atomic_int flag, x;
void *w(void *a) { assert(x == 0); atomic_store(&flag, 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	while (!atomic_load(&flag)) x = 1;
	return 0;
}`, msg: "x == 0"},
		{name: "local-counter-not-a-wait", unroll: 4, want: ncmc.Violation, src: `
atomic_int flag;
void *w(void *a) { atomic_store(&flag, 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	int n = 0;
	while (!atomic_load(&flag)) n++;
	assert(n == 0);
	return 0;
}`, msg: "n == 0"},
		{name: "bounded-retry-hits-bound", want: ncmc.Unknown, src: `
atomic_int flag;
int main(void) {
	int n = 0;
	/* never set: n grows, the bound is hit (the assertion keeps
	   ncmc from verifying the loop as harmless beyond the bound) */
	while (!atomic_load(&flag)) { n++; assert(n > 0); }
	return 0;
}`, msg: "bound"},
	})
}

// TestNarrowRMWWithoutSections: with NoAtomicSections (ra and rc11) an
// atomic add on an integer narrower than 64 bits is a compare-exchange
// loop, atomic and wrapping around.
func TestNarrowRMWWithoutSections(t *testing.T) {
	both := []string{"sc", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "two-adds", models: both, want: ncmc.Verified, src: `
atomic_int x; _Atomic unsigned char c = 255;
void *f(void *a) { atomic_fetch_add_explicit(&x, 1, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(x == 2);
	assert(atomic_fetch_add(&c, 1) == 255 && c == 0);
	assert(atomic_fetch_sub(&c, 2) == 0 && c == 254);
	return 0;
}`},
		{name: "two-adds-buggy", models: both, want: ncmc.Violation, src: `
atomic_int x;
void *f(void *a) { atomic_fetch_add_explicit(&x, 1, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0);
	assert(x == 1);
	return 0;
}`, msg: "x == 1"},
	})
	p, err := Compile("t.c", []byte(syncPrelude+"atomic_int x;\nint main(void) { x++; return 0; }\n"), Options{NoAtomicSections: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := countOp(p.Main, ir.IAtomicBegin); n != 0 {
		t.Errorf("%d atomic sections with NoAtomicSections", n)
	}
}

// TestNarrowRMWNative: an atomic add or sub on an integer narrower than 64
// bits is one RMW whose result wraps at the type's width, under every
// model: threads that each add once give one execution per order of their
// RMWs and no blocked execution (a compare-exchange loop gave failed
// iterations as blocked executions), and the wrapped values are C's.
func TestNarrowRMWNative(t *testing.T) {
	src := syncPrelude + `
atomic_int x; _Atomic signed char sc = 127; _Atomic unsigned short us; _Atomic int big = 2147483647;
void *f(void *a) { atomic_fetch_add_explicit(&x, 1, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t[4];
	for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, f, 0);
	for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
	assert(x == 4);
	assert(atomic_fetch_add(&sc, 1) == 127 && sc == -128);
	assert(atomic_fetch_sub(&us, 1) == 0 && us == 65535);
	assert(atomic_fetch_add(&big, 1) == 2147483647 && big == -2147483647 - 1);
	sc -= 1; assert(sc == 127);
	return 0;
}`
	for _, m := range []string{"sc", "tso", "pso", "ra", "rc11"} {
		t.Run(m, func(t *testing.T) {
			p, err := Compile("t.c", []byte(src), Options{NoAtomicSections: m == "ra" || m == "rc11"})
			if err != nil {
				t.Fatal(err)
			}
			if n := countOp(p.Main, ir.ICAS) + countOp(p.Main, ir.IAtomicBegin); n != 0 {
				t.Errorf("main has %d compare-exchanges or atomic sections", n)
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Workers: 1, Timeout: 60 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			// 4! orders of the RMWs; the models differ only in the
			// reads of x at the end, which see the last RMW.
			if res.Verdict != ncmc.Verified || res.Stats.Blocked != 0 || res.Stats.Complete != 24 {
				t.Errorf("%s (%s): %d complete, %d blocked; want verified, 24 complete, 0 blocked", res.Verdict, res.Reason, res.Stats.Complete, res.Stats.Blocked)
			}
		})
	}
	bad := strings.Replace(src, "sc == -128", "sc == 128", 1)
	p, err := Compile("t.c", []byte(bad), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Workers: 1})
	if err != nil || res.Verdict != ncmc.Violation {
		t.Errorf("a signed char RMW that does not wrap: %v %v", res, err)
	}
}

// TestC11Threads maps <threads.h> onto the pthread model: thrd_create and
// thrd_join (with the int result), mtx_* as a mutex, cnd_* as a condition
// variable.
func TestC11Threads(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "join-result-and-mutex", want: ncmc.Verified, src: `
#include <threads.h>
mtx_t m; int x;
int f(void *a) { mtx_lock(&m); x += *(int *)a; mtx_unlock(&m); return *(int *)a + 1; }
int main(void) {
	thrd_t t1, t2; int one = 1, two = 2, r1, r2;
	mtx_init(&m, mtx_plain);
	thrd_create(&t1, f, &one); thrd_create(&t2, f, &two);
	thrd_join(t1, &r1); thrd_join(t2, &r2);
	assert(r1 == 2 && r2 == 3 && x == 3);
	assert(mtx_trylock(&m) == thrd_success && mtx_trylock(&m) == thrd_busy);
	mtx_destroy(&m);
	return 0;
}`},
		{name: "no-mutex-buggy", want: ncmc.Violation, src: `
#include <threads.h>
int x;
int f(void *a) { x++; return 0; }
int main(void) {
	thrd_t t1, t2;
	thrd_create(&t1, f, 0); thrd_create(&t2, f, 0);
	thrd_join(t1, 0); thrd_join(t2, 0);
	assert(x == 2);
	return 0;
}`, msg: "x == 2"},
		{name: "condvar", want: ncmc.Verified, src: `
#include <threads.h>
mtx_t m; cnd_t c; int ready, data;
int p(void *a) { mtx_lock(&m); data = 42; ready = 1; cnd_signal(&c); mtx_unlock(&m); return 0; }
int main(void) {
	thrd_t t;
	mtx_init(&m, mtx_plain); cnd_init(&c);
	thrd_create(&t, p, 0);
	mtx_lock(&m);
	while (!ready) cnd_wait(&c, &m);
	assert(data == 42);
	mtx_unlock(&m);
	thrd_join(t, 0);
	return 0;
}`},
		{name: "condvar-buggy", want: ncmc.Violation, src: `
#include <threads.h>
mtx_t m; cnd_t c; int ready, data;
int p(void *a) { mtx_lock(&m); ready = 1; cnd_signal(&c); mtx_unlock(&m); data = 42; return 0; }
int main(void) {
	thrd_t t;
	mtx_init(&m, mtx_plain); cnd_init(&c);
	thrd_create(&t, p, 0);
	mtx_lock(&m);
	while (!ready) cnd_wait(&c, &m);
	assert(data == 42);
	mtx_unlock(&m);
	return 0;
}`, msg: "data == 42"},
	})
}

// TestRWLocks: readers share a read-write lock, a writer excludes everyone,
// and the lock orders memory (rc11: no data race between a writer and a
// later reader).
func TestRWLocks(t *testing.T) {
	both := []string{"sc", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "writers-exclusive", models: both, want: ncmc.Verified, src: `
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER; int x, y;
void *w(void *a) { pthread_rwlock_wrlock(&l); x++; y++; pthread_rwlock_unlock(&l); return 0; }
void *r(void *a) { pthread_rwlock_rdlock(&l); assert(x == y); pthread_rwlock_unlock(&l); return 0; }
int main(void) {
	pthread_t t1, t2, t3;
	pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); pthread_create(&t3, 0, r, 0);
	pthread_join(t1, 0); pthread_join(t2, 0); pthread_join(t3, 0);
	assert(x == 2);
	return 0;
}`},
		{name: "reader-writes-buggy", want: ncmc.Violation, src: `
pthread_rwlock_t l; int x;
void *w(void *a) { pthread_rwlock_rdlock(&l); x++; pthread_rwlock_unlock(&l); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_rwlock_init(&l, 0);
	pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(x == 2);
	return 0;
}`, msg: "x == 2"},
		{name: "readers-share", want: ncmc.Verified, src: `
pthread_rwlock_t l;
int main(void) {
	assert(pthread_rwlock_rdlock(&l) == 0);
	assert(pthread_rwlock_tryrdlock(&l) == 0);
	assert(pthread_rwlock_trywrlock(&l) == EBUSY);
	pthread_rwlock_unlock(&l); pthread_rwlock_unlock(&l);
	assert(pthread_rwlock_trywrlock(&l) == 0);
	assert(pthread_rwlock_tryrdlock(&l) == EBUSY);
	pthread_rwlock_unlock(&l);
	assert(pthread_rwlock_tryrdlock(&l) == 0);
	return 0;
}`},
	})
}

// TestMemFunctions: memset and memcpy on whole elements, racing like the
// stores and loads they are.
func TestMemFunctions(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "memset-memcpy", want: ncmc.Verified, src: `
#include <string.h>
struct s { int a; char b[3]; int *p; };
int arr[4] = {1, 2, 3, 4}; char cs[5]; struct s x = {7, {1, 2, 3}, arr}, y;
int main(void) {
	memset(arr, 0, sizeof arr);
	for (int i = 0; i < 4; i++) assert(arr[i] == 0);
	memset(cs, 'a', sizeof cs - 1);
	assert(cs[0] == 'a' && cs[3] == 'a' && cs[4] == 0);
	memcpy(&y, &x, sizeof(struct s));
	assert(y.a == 7 && y.b[2] == 3 && y.p == arr);
	int *q = malloc(3 * sizeof(int));
	memset(q, 0, 3 * sizeof *q);
	q[1] = 5;
	memmove(arr, q, 3 * sizeof(int));
	assert(arr[1] == 5 && arr[3] == 0);
	return 0;
}`},
		{name: "memset-races-buggy", want: ncmc.Violation, src: `
#include <string.h>
int a[2] = {1, 1};
void *f(void *x) { memset(a, 0, sizeof a); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, f, 0);
	assert(a[0] == a[1]);   /* may see the first cell cleared only */
	return 0;
}`, msg: "a[0] == a[1]"},
		{name: "memset-overflow", want: ncmc.Violation, src: `
#include <string.h>
int main(void) { int *p = malloc(2 * sizeof(int)); memset(p, 0, 3 * sizeof(int)); return 0; }`, msg: ""},
	})
	for _, src := range []string{
		"#include <string.h>\nint a[2];\nint main(void) { memset(a, 1, sizeof a); return 0; }\n",
		"#include <string.h>\nint a[2];\nint main(void) { memset(a, 0, 3); return 0; }\n",
		"#include <string.h>\nint a[2]; void *v;\nint main(void) { v = a; memset(v, 0, 8); return 0; }\n",
	} {
		_, err := Compile("t.c", []byte(src), Options{})
		var u *Unsupported
		if !errors.As(err, &u) {
			t.Errorf("want unsupported, got %v for\n%s", err, src)
		}
	}
}

// TestFunctionPointers: calls through pointers to functions of the program
// (in locals, struct fields and arrays, passed as arguments, compared);
// a null or mistyped pointer is a runtime error.
func TestFunctionPointers(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "dispatch", want: ncmc.Verified, src: `
struct ops { int (*get)(int); void (*put)(int *, int); };
int twice(int x) { return 2 * x; }
int inc(int x) { return x + 1; }
void store(int *p, int v) { *p = v; }
int apply(int (*f)(int), int v) { return f(v); }
int main(void) {
	int (*fs[2])(int) = { twice, &inc };
	struct ops o = { twice, store };
	int r;
	o.put(&r, o.get(5));
	assert(r == 10);
	assert(fs[1](fs[0](3)) == 7 && (*fs[1])(0) == 1);
	assert(apply(inc, 41) == 42);
	int (*g)(int) = 0;
	assert(g == 0 && fs[0] == twice && fs[0] != fs[1]);
	return 0;
}`},
		{name: "threads-pick-a-function-buggy", want: ncmc.Violation, src: `
int one(void) { return 1; }
int two(void) { return 2; }
int (*volatile f)(void) = 0;
void *t(void *a) { f = two; return 0; }
int main(void) {
	pthread_t th;
	f = one;
	pthread_create(&th, 0, t, 0);
	assert(f() == 1);
	return 0;
}`, msg: "f() == 1"},
		{name: "global-table", want: ncmc.Verified, src: `
int twice(int x) { return 2 * x; }
static int neg(int x) { return -x; }
int (*tab[2])(int) = { twice, neg };
struct { void *(*start)(void *); } spec;
int main(void) { assert(tab[0](2) == 4 && tab[1](2) == -2 && spec.start == 0); return 0; }`},
		{name: "null-call", want: ncmc.Violation, src: `
int one(void) { return 1; }
int main(void) { int (*f)(void) = one; f = 0; return f(); }`, msg: "invalid function pointer"},
	})
}

// TestSemaphoresAndSpinLocks: a semaphore counts (sem_wait blocks at 0,
// sem_trywait fails), a spin lock excludes, both order memory under rc11.
func TestSemaphoresAndSpinLocks(t *testing.T) {
	both := []string{"sc", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "semaphore-handoff", models: both, want: ncmc.Verified, src: `
#include <semaphore.h>
sem_t s; int data;
void *p(void *a) { data = 42; sem_post(&s); return 0; }
int main(void) {
	pthread_t t; int v;
	sem_init(&s, 0, 0);
	pthread_create(&t, 0, p, 0);
	sem_wait(&s);
	assert(data == 42);
	sem_getvalue(&s, &v);
	assert(v == 0 && sem_trywait(&s) == -1);
	sem_post(&s); sem_post(&s);
	assert(sem_trywait(&s) == 0 && sem_trywait(&s) == 0 && sem_trywait(&s) == -1);
	sem_destroy(&s);
	return 0;
}`},
		{name: "semaphore-two-permits-buggy", want: ncmc.Violation, src: `
#include <semaphore.h>
sem_t s; atomic_int in;
void *f(void *a) { sem_wait(&s); in++; assert(in == 1); in--; sem_post(&s); return 0; }
int main(void) {
	pthread_t t1, t2;
	sem_init(&s, 0, 2);
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	return 0;
}`, msg: "in == 1"},
		{name: "spinlock", models: both, want: ncmc.Verified, src: `
pthread_spinlock_t l; int x;
void *f(void *a) { pthread_spin_lock(&l); x++; pthread_spin_unlock(&l); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_spin_init(&l, PTHREAD_PROCESS_PRIVATE);
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(x == 2);
	assert(pthread_spin_trylock(&l) == 0 && pthread_spin_trylock(&l) == EBUSY);
	return 0;
}`},
		{name: "spinlock-buggy", want: ncmc.Violation, src: `
pthread_spinlock_t l; int x;
void *f(void *a) { pthread_spin_lock(&l); pthread_spin_unlock(&l); x++; return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_spin_init(&l, 0);
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(x == 2);
	return 0;
}`, msg: "x == 2"},
	})
}

// TestPthreadOnce: the init routine runs once, and every caller returns
// after it has run.
func TestPthreadOnce(t *testing.T) {
	runSyncCases(t, []syncCase{
		{name: "once", models: []string{"sc", "rc11"}, want: ncmc.Verified, src: `
pthread_once_t once = PTHREAD_ONCE_INIT; int inits, ready;
void init(void) { inits++; ready = 1; }
void *f(void *a) { pthread_once(&once, init); assert(ready == 1); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(inits == 1);
	return 0;
}`},
		{name: "no-once-buggy", want: ncmc.Violation, src: `
int inits;
void init(void) { inits++; }
void *f(void *a) { init(); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(inits == 1);
	return 0;
}`, msg: "inits == 1"},
	})
}
