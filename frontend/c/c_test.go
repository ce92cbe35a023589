package c

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"ncmc/frontend/diag"
	"ncmc/ir"
	"ncmc/ncmc"
)

// compile translates a C snippet (file name t.c) or fails the test.
func compile(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, err := Compile("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatalf("compile: %v\nsource:\n%s", err, src)
	}
	return p
}

// verify runs the reference explorer on src.
func verify(t *testing.T, src string, unroll int) *ncmc.Result {
	t.Helper()
	p := compile(t, src)
	res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", Unroll: unroll, Timeout: 60 * time.Second})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return res
}

const prelude = `#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
extern void abort(void);
void reach_error(void) {}
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
`

// TestVerdicts runs small C programs through the reference explorer.
func TestVerdicts(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want ncmc.Verdict
		msg  string // substring of the reason, for violations
	}{
		{"racy-counter", `
int counter;
void *inc(void *arg) { counter++; return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, inc, 0);
	pthread_create(&b, 0, inc, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 2);
	return 0;
}`, ncmc.Violation, "assertion failed: counter == 2"},
		{"mutex-counter", `
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *arg) { pthread_mutex_lock(&m); counter++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, inc, 0);
	pthread_create(&b, 0, inc, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 2);
	return 0;
}`, ncmc.Verified, ""},
		{"join-results", `
void *work(void *arg) { long n = (long)arg; return (void *)(n * 10); }
int main(void) {
	pthread_t t[3];
	for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, work, (void *)i);
	long sum = 0;
	for (int i = 0; i < 3; i++) { void *r; pthread_join(t[i], &r); sum += (long)r; }
	if (sum != 30) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"join-results-wrong", `
void *work(void *arg) { return (void *)7; }
int main(void) {
	pthread_t t; void *r;
	pthread_create(&t, 0, work, 0);
	pthread_join(t, &r);
	if ((long)r == 7) reach_error();
	return 0;
}`, ncmc.Violation, MsgReachError},
		{"struct-array-pointer", `
struct pt { int x, y; };
struct box { struct pt pts[3]; int n; pthread_mutex_t m; };
struct box g;
void *add(void *arg) {
	struct box *b = arg;
	pthread_mutex_lock(&b->m);
	b->pts[b->n].x = b->n + 1;
	b->pts[b->n].y = -(b->n + 1);
	b->n++;
	pthread_mutex_unlock(&b->m);
	return 0;
}
int main(void) {
	pthread_t a, c;
	pthread_create(&a, 0, add, &g);
	pthread_create(&c, 0, add, &g);
	pthread_join(a, 0); pthread_join(c, 0);
	struct pt *p = &g.pts[0];
	int sx = 0, sy = 0;
	for (int i = 0; i < g.n; i++, p++) { sx += p->x; sy += (*p).y; }
	if (g.n != 2 || sx != 3 || sy != -3 || g.pts[2].x != 0) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"heap-and-container-of", `
#include <stddef.h>
struct node { int val; struct node *next; };
struct wrap { int tag; struct node n; };
int main(void) {
	struct node *head = 0;
	for (int i = 0; i < 3; i++) {
		struct node *n = malloc(sizeof(struct node));
		n->val = i; n->next = head; head = n;
	}
	int s = 0;
	for (struct node *p = head; p; p = p->next) s = s * 10 + p->val;
	struct wrap *w = malloc(sizeof *w);
	w->tag = 42;
	struct node *inner = &w->n;
	struct wrap *back = (struct wrap *)((char *)inner - offsetof(struct wrap, n));
	int *arr = calloc(4, sizeof(int));
	arr[3] = 5;
	if (s != 210 || back->tag != 42 || arr[3] + arr[0] != 5 || &arr[3] - arr != 3) reach_error();
	free(arr);
	return 0;
}`, ncmc.Verified, ""},
		{"shared-stack-slot", `
int seen[2];
void *f(void *arg) { int *p = arg; seen[*p] = 1; return 0; }
int main(void) {
	pthread_t t[2];
	for (int i = 0; i < 2; i++) {
		int id = i;  /* one object: both threads may read the last value */
		pthread_create(&t[i], 0, f, &id);
	}
	pthread_join(t[0], 0); pthread_join(t[1], 0);
	if (seen[0] + seen[1] != 2) reach_error();
	return 0;
}`, ncmc.Violation, MsgReachError},
		{"condvar-handoff", `
int ready, data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *producer(void *arg) {
	pthread_mutex_lock(&m);
	data = 42; ready = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	return 0;
}
int main(void) {
	pthread_t p;
	pthread_create(&p, 0, producer, 0);
	pthread_mutex_lock(&m);
	while (!ready) pthread_cond_wait(&c, &m);
	if (data != 42) reach_error();
	pthread_mutex_unlock(&m);
	pthread_join(p, 0);
	return 0;
}`, ncmc.Verified, ""},
		{"trylock", `
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int in;
void *f(void *arg) {
	if (pthread_mutex_trylock(&m) == 0) { in++; if (in > 1) reach_error(); in--; pthread_mutex_unlock(&m); }
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, f, 0); pthread_create(&b, 0, f, 0);
	pthread_join(a, 0); pthread_join(b, 0);
	if (pthread_mutex_trylock(&m) != 0) reach_error();
	if (pthread_mutex_trylock(&m) == 0) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"verifier-atomic-lock", `
int lock, x;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lock == 0); lock = 1; }
void __VERIFIER_atomic_release(void) { lock = 0; }
void *f(void *arg) {
	__VERIFIER_atomic_acquire();
	x = x + 1; x = x - 1;
	if (x != 0) reach_error();
	__VERIFIER_atomic_release();
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, f, 0); pthread_create(&b, 0, f, 0);
	return 0;
}`, ncmc.Verified, ""},
		{"atomic-section-is-a-scheduling-point", `
int x, y;
void *u(void *arg) { if (x == 1) y = 1; return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, u, 0);
	x = 1;
	int r;
	__VERIFIER_atomic_begin();
	r = y;
	__VERIFIER_atomic_end();
	if (r == 1) reach_error();  /* u runs between x = 1 and the section */
	return 0;
}`, ncmc.Violation, MsgReachError},
		{"stdatomic", `
#include <stdatomic.h>
atomic_int n;
_Atomic int flag;
int data;
void *w(void *arg) {
	atomic_fetch_add(&n, 1);
	data = 5;
	atomic_store_explicit(&flag, 1, memory_order_release);
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);
	int expected = 0;
	while (!atomic_compare_exchange_strong(&n, &expected, expected + 10)) {}
	if (atomic_load_explicit(&flag, memory_order_acquire) && data != 5) reach_error();
	pthread_join(a, 0); pthread_join(b, 0);
	if (n < 10 || n > 12) reach_error();
	n++;
	if (n < 11) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"nondet-narrowed", `
int main(void) {
	unsigned n = __VERIFIER_nondet_uint();
	if (!(n >= 3 && n < 6)) abort();
	int c = __VERIFIER_nondet_int();
	if (c) { if (n == 5) reach_error(); }
	return 0;
}`, ncmc.Violation, MsgReachError},
		{"nondet-char-full-range", `
int main(void) {
	char c = __VERIFIER_nondet_char();
	if (c == -128) reach_error();
	return 0;
}`, ncmc.Violation, MsgReachError},
		{"exit-in-thread", `
int x;
void *f(void *arg) { x = 1; exit(0); }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	if (x == 1) reach_error();  /* f may be slow to exit */
	return 0;
}`, ncmc.Violation, MsgReachError},
		{"assume-blocks", `
int main(void) {
	int x = __VERIFIER_nondet_bool();
	__VERIFIER_assume(x == 0);
	if (x) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"switch-goto-ternary", `
int f(int k) {
	int r = 0;
	switch (k) {
	case 0: r = 10; break;
	case 1:
	case 2: r = 20;
	default: r += 1;
	}
	return k > 5 ? -r : r;
}
int main(void) {
	int i = 0;
again:
	if (f(i) != (i == 0 ? 10 : i <= 2 ? 21 : 1)) goto bad;
	if (++i < 4) goto again;
	if (f(7) != -1) goto bad;
	return 0;
bad:
	reach_error();
	return 1;
}`, ncmc.Verified, ""},
		{"atomic-register-local", `
#include <stdatomic.h>
int main(void) {
	_Atomic int a = 1;
	atomic_int b = 2;
	a++; a += 2; b -= 1; ++b;
	if (a != 4 || b != 2) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"spin-continue", `
int flag, got;
void *producer(void *arg) { for (int i = 1; i <= 3; i++) { while (flag) ; got = i; flag = 1; } return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, producer, 0);
	int sum = 0, n = 0;
	while (n < 3) {
		if (!flag) continue;
		sum += got; n++; flag = 0;
	}
	pthread_join(t, 0);
	if (sum != 6) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"thread-local", `
__thread int mine = 5;
int r[3];
void *f(void *arg) {
	long k = (long)arg;
	int *p = &mine;
	*p += k;
	r[k] = mine;
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, f, (void *)1); pthread_create(&b, 0, f, (void *)2);
	pthread_join(a, 0); pthread_join(b, 0);
	if (r[1] != 6 || r[2] != 7 || mine != 5) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"thread-local-register", `
__thread int mine = 5;
__thread _Bool flag;
int r[3];
void *f(void *arg) {
	long k = (long)arg;
	mine += k;
	mine++;
	flag = !flag;
	r[k] = mine * flag;
	return 0;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, f, (void *)1); pthread_create(&b, 0, f, (void *)2);
	pthread_join(a, 0); pthread_join(b, 0);
	if (r[1] != 7 || r[2] != 8 || mine != 5 || flag) reach_error();
	return 0;
}`, ncmc.Verified, ""},
		{"thread-local-register-bug", `
__thread int mine;
int r;
void *f(void *arg) { mine++; r = mine; return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, f, 0); pthread_create(&b, 0, f, 0);
	pthread_join(a, 0); pthread_join(b, 0);
	if (r == 1) reach_error();
	return 0;
}`, ncmc.Violation, "reach_error"},
		{"deadlock", `
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *f(void *arg) { pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, f, 0);
	pthread_mutex_lock(&a); pthread_mutex_lock(&b);
	pthread_mutex_unlock(&b); pthread_mutex_unlock(&a);
	pthread_join(t, 0);
	return 0;
}`, ncmc.Violation, "deadlock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := verify(t, prelude+c.src, 8)
			if res.Verdict != c.want || !strings.Contains(res.Reason, c.msg) {
				t.Errorf("got %s (%s), want %s (%s)", res.Verdict, res.Reason, c.want, c.msg)
			}
		})
	}
}

// TestIntegers checks C's integer semantics: every expression must be true,
// and its negation must be reachable, so both branches are exercised.
func TestIntegers(t *testing.T) {
	exprs := []string{
		// wrap-around of unsigned types
		"(unsigned char)(uc + 1) == 0", "({ unsigned char c = uc; c++; c; }) == 0", "({ unsigned char c = uc; c += 2; c; }) == 1",
		"({ unsigned short s = 65535; s++; s; }) == 0", "({ unsigned short s = 0; s--; s; }) == 65535",
		"0u - 1 == 4294967295u", "({ unsigned u = 0; u--; u; }) == 4294967295u", "(unsigned)-1 / 2 == 2147483647u",
		"({ unsigned u = 4000000000u; u * 2; }) == 3705032704u",
		// signed types (conversions wrap as gcc does)
		"(signed char)(sc + 1) == -128", "({ signed char c = sc; c++; c; }) == -128", "(short)40000 == -25536",
		"({ int i = 2147483647; i + 1; }) == -2147483647 - 1",
		// usual arithmetic conversions and promotions
		"-1 < 1u == 0", "(unsigned char)200 + (unsigned char)100 == 300", "(signed char)-1 < (unsigned char)1",
		"-1L < 1u == 0", "-1LL < 1u", "sizeof(long) == 4", "sizeof(int *) == 4", "sizeof(long long) == 8",
		// 64-bit
		"({ unsigned long long x = 0; x - 1; }) > 1ULL", "({ unsigned long long x = 18446744073709551615ULL; x >> 63; }) == 1",
		"({ long long x = -8; x >> 1; }) == -4", "9223372036854775807LL + 0 > 0",
		// division, shifts, bitwise
		"-7 / 2 == -3", "-7 % 2 == -1", "7u % 3u == 1", "(1u << 31) == 2147483648u", "(uc >> 4) == 15", "(~0u >> 28) == 15",
		"(5 & 3) == 1", "(5 | 3) == 7", "(5 ^ 3) == 6", "(~uc & 0xff) == 0", "!0 == 1", "!5 == 0",
		// _Bool
		"(_Bool)256 == 1", "({ _Bool b = 0; b--; b; }) == 1", "({ _Bool b = 2; b + b; }) == 2",
	}
	for i, e := range exprs {
		if testing.Short() && i%3 != 0 {
			continue // -short: a third of the expressions, both ways
		}
		for _, neg := range []bool{false, true} {
			cond := "!(" + e + ")"
			want := ncmc.Verified
			if neg {
				cond = "(" + e + ")"
				want = ncmc.Violation
			}
			src := fmt.Sprintf("%s\nunsigned char uc = 255; signed char sc = 127;\nint main(void) { if (%s) reach_error(); return 0; }\n", prelude, cond)
			res := verify(t, src, 2)
			if res.Verdict != want {
				t.Errorf("%s: got %s (%s), want %s", cond, res.Verdict, res.Reason, want)
			}
		}
	}
}

// instrs lists the opcodes of f's body.
func ops(f *ir.Func) []ir.Op {
	var o []ir.Op
	for _, in := range f.Body {
		o = append(o, in.Op)
	}
	return o
}

func countOp(f *ir.Func, op ir.Op) int {
	n := 0
	for _, in := range f.Body {
		if in.Op == op {
			n++
		}
	}
	return n
}

func find(f *ir.Func, op ir.Op) *ir.Instr {
	for i := range f.Body {
		if f.Body[i].Op == op {
			return &f.Body[i]
		}
	}
	return nil
}

// TestLowering checks the shape of the IR for characteristic constructs.
func TestLowering(t *testing.T) {
	t.Run("thread-local-registers", func(t *testing.T) {
		// A thread-local integer whose address is never taken is a thread
		// register; one whose address is taken stays a per-thread block.
		p := compile(t, prelude+"__thread int a = 3; __thread int b;\nint main(void) { a++; int *q = &b; *q = a; return b; }")
		if len(p.TLS) != 1 || p.TLS[0].Name != "a" || p.TLS[0].Init != 3 {
			t.Fatalf("want one thread register a = 3, got %v:\n%s", p.TLS, p)
		}
		if countOp(p.Main, ir.ITLSLoad) != 2 || countOp(p.Main, ir.ITLSStore) != 1 || p.GlobalByName("a.tls") != nil || p.GlobalByName("b.tls") == nil {
			t.Errorf("a should be read and written as a register, b through its table:\n%s", p)
		}
	})
	t.Run("globals-are-loads-and-stores", func(t *testing.T) {
		p := compile(t, prelude+"int x; _Atomic int y;\nint main(void) { int r = 0; r = r + 1; x = x + r; y = 3; return y; }")
		m := p.Main
		if countOp(m, ir.ILoad) != 2 || countOp(m, ir.IStore) != 2 {
			t.Fatalf("want 2 loads and 2 stores:\n%s", p)
		}
		for _, in := range m.Body {
			if in.Op != ir.ILoad && in.Op != ir.IStore {
				continue
			}
			g := p.Globals[in.Addr.Global].Name
			if (g == "x") != (in.Order == ir.OrderNA) || (g == "y") != (in.Order == ir.OrderSC) {
				t.Errorf("%s of %s has order %s", in.Op, g, in.Order)
			}
		}
	})
	t.Run("address-taken-locals-live-in-memory", func(t *testing.T) {
		p := compile(t, prelude+"void set(int *p) { *p = 7; }\nvoid *f(void *a) { return a; }\nint main(void) { int a = 1, b = 2; set(&a); pthread_t t; void *r; pthread_create(&t, 0, f, 0); pthread_join(t, &r); return a + b; }")
		m := p.Main
		if m.Body[0].Op != ir.IAlloc || m.Body[0].Record.Name != "a" || countOp(m, ir.IAlloc) != 1 {
			t.Fatalf("want one hoisted allocation of a:\n%s", p)
		}
		if len(m.Body[0].Args) != 1 || m.Body[0].Args[0].Val != 1 {
			t.Errorf("a's initial value should be in its allocation: %v", m.Body[0].Args)
		}
		// b, t and r stay registers: the only memory accesses are a's.
		if countOp(m, ir.ILoad) != 1 || countOp(m, ir.IStore) != 0 {
			t.Errorf("b, t, r should be registers:\n%s", p)
		}
		if sp := find(m, ir.ISpawn); sp == nil || m.Locals[sp.Dst].Name != "t" {
			t.Errorf("spawn should write t directly:\n%s", p)
		}
	})
	t.Run("loops", func(t *testing.T) {
		p := compile(t, prelude+"int x;\nint main(void) { for (int i = 0; i < 5; i++) x++; while (x < 100) x++; while (x != 0); return 0; }")
		var bounds []int
		for _, in := range p.Main.Body {
			if in.Op == ir.ILoopHead {
				bounds = append(bounds, in.Bound)
			}
		}
		if fmt.Sprint(bounds) != "[5 0]" {
			t.Errorf("loop bounds %v, want [5 0] (counted loop, then the global bound)", bounds)
		}
		if a := find(p.Main, ir.IAssume); a == nil || a.Assume != ir.AssumeSpin {
			t.Errorf("the empty loop should be a spin-assume:\n%s", p)
		}
	})
	t.Run("verifier-atomic-function", func(t *testing.T) {
		p := compile(t, prelude+"int m;\nvoid __VERIFIER_atomic_acq(void) { __VERIFIER_assume(m == 0); m = 1; }\nint main(void) { __VERIFIER_atomic_acq(); return 0; }")
		f := p.FuncByName("__VERIFIER_atomic_acq")
		o := ops(f)
		if o[0] != ir.IAtomicBegin || countOp(f, ir.IAtomicEnd) != 1 || o[len(o)-2] != ir.IAtomicEnd {
			t.Errorf("atomic function not wrapped in a section: %v\n%s", o, p)
		}
	})
	t.Run("error-functions", func(t *testing.T) {
		p := compile(t, prelude+"extern void __VERIFIER_error(void);\nint main(void) { if (__VERIFIER_nondet_int()) reach_error(); __VERIFIER_error(); return 0; }")
		var msgs []string
		for _, in := range p.Main.Body {
			if in.Op == ir.IFail {
				msgs = append(msgs, in.Msg)
			}
		}
		if fmt.Sprint(msgs) != fmt.Sprint([]string{MsgReachError, MsgVerifierError}) || !IsErrorCall(msgs[0]) || !IsErrorCall(msgs[1]) {
			t.Errorf("fails: %q", msgs)
		}
		if nd := find(p.Main, ir.INondet); nd == nil || nd.A.Val != 0 || nd.B.Val != 1 {
			t.Errorf("a nondet used as a condition should range over {0, 1}:\n%s", p)
		}
	})
	t.Run("nondet-narrowing", func(t *testing.T) {
		for src, want := range map[string]string{
			"unsigned n = __VERIFIER_nondet_uint(); if (!(n >= 5 && n <= 10)) abort(); return n;": "[5 10]",
			"int n; n = __VERIFIER_nondet_int(); __VERIFIER_assume(n > -3 && 4 > n); return n;":   "[-2 3]",
			"int n = __VERIFIER_nondet_int(); if (n < 0 || n >= 8) abort(); return n;":            "[0 7]",
			"char c = __VERIFIER_nondet_char(); return c;":                                        "[-128 127]",
			"int b = __VERIFIER_nondet_int(); if (b) return 1; return 0;":                         "[0 1]",
		} {
			p := compile(t, prelude+"int main(void) { "+src+" }")
			nd := find(p.Main, ir.INondet)
			if nd == nil || fmt.Sprint([]int64{nd.A.Val, nd.B.Val}) != want {
				t.Errorf("%s: want nondet %s:\n%s", src, want, p)
			}
		}
	})
	t.Run("wrap-around-casts", func(t *testing.T) {
		p := compile(t, prelude+"unsigned char c; short s;\nint main(void) { c = c + 1; s = s * 3; return 0; }")
		var casts []string
		for _, in := range p.Main.Body {
			if in.Op == ir.IStore && in.A.Kind == ir.ECast {
				casts = append(casts, in.A.Type.String())
			}
		}
		if fmt.Sprint(casts) != "[u8 i16]" {
			t.Errorf("stores should narrow to u8 and i16, got %v:\n%s", casts, p)
		}
	})
}

// TestErrors checks the two kinds of errors: invalid C is a diag.ErrorList,
// valid C the front end cannot translate is an *Unsupported.
func TestErrors(t *testing.T) {
	_, err := Compile("bad.c", []byte("int main(void) { int x = ; return 0; }\n"), Options{})
	var el diag.ErrorList
	if !errors.As(err, &el) || len(el) == 0 || el[0].Pos.Line != 1 || el[0].Pos.File != "bad.c" {
		t.Errorf("syntax error: got %T %v", err, err)
	}
	_, err = Compile("bad.c", []byte("int main(void) { return undefined_var; }\n"), Options{})
	if !errors.As(err, &el) {
		t.Errorf("type error: got %T %v", err, err)
	}
	for src, want := range map[string]string{
		"_Complex double d; int main(void) { return &d == 0; }":                                                                                                         "floating-point",
		"int abs(int); int main(void) { int (*p)(int) = abs; return p(1); }":                                                                                            "used as a value",
		"extern int __VERIFIER_nondet_int(void); int main(void) { return __VERIFIER_nondet_int(); }":                                                                    "unbounded nondeterministic input",
		"#include <stdio.h>\nint main(void) { return printf(\"hi\"); }":                                                                                                 "use of the result of printf",
		"union u { int a; char b; } v; int main(void) { v.a = 1; return 0; }":                                                                                           "union u: members a and b overlap",
		"int main(int argc, char **argv) { return argc; }":                                                                                                              "command-line arguments",
		"#include <pthread.h>\nint main(void) { pthread_mutexattr_t a; pthread_mutexattr_init(&a); pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE); return 0; }": "only default mutexes",
	} {
		_, err := Compile("u.c", []byte(src), Options{})
		var u *Unsupported
		if !errors.As(err, &u) {
			t.Errorf("%s: got %T %v, want *Unsupported", src, err, err)
			continue
		}
		if !strings.Contains(u.Error(), want) || !strings.HasPrefix(u.Errs[0].Msg, "unsupported: ") || u.Errs[0].Pos.Line == 0 {
			t.Errorf("%s: got %v, want a positioned %q", src, u, want)
		}
	}
}
