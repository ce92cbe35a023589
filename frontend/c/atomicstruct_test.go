package c

import (
	"context"
	"strings"
	"testing"
	"time"

	"ncmc/ncmc"
)

// TestAtomicStructs gives whole _Atomic struct objects their C11 meaning
// under sc, tso and pso: atomic_load, atomic_store, atomic_exchange,
// atomic_compare_exchange_strong and plain assignment read or write the
// whole object in one indivisible step (no torn values), and a
// compare-exchange compares the whole object. Each case also runs on the
// reference explorer, which must agree. The buggy variants (the same
// programs without _Atomic, or with a check that another thread can
// falsify) fail.
func TestAtomicStructs(t *testing.T) {
	models := []string{"sc", "tso", "pso"}
	cases := []syncCase{
		{name: "no-tearing", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) {
	struct P v = { 1, 1 }; atomic_store(&s, v);
	struct P u = { 2, 2 }; s = u;
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = atomic_load(&s); assert(r.a == r.b);
	struct P q; q = s; assert(q.a == q.b);
	struct P i = s; assert(i.a == i.b);
	return 0;
}`},
		{name: "init-release-acquire", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) {
	struct P v = { 1, 1 }; atomic_init(&s, v);
	struct P u = { 2, 2 }; atomic_store_explicit(&s, u, memory_order_release);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = s; assert(r.a == r.b);
	struct P q = atomic_load_explicit(&s, memory_order_acquire); assert(q.a == q.b);
	return 0;
}`},
		{name: "plain-struct-tears", want: ncmc.Violation, msg: "r.a == r.b", src: `
struct P { int a; int b; };
struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; s = v; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r; r = s; assert(r.a == r.b);
	return 0;
}`},
		{name: "exchange", want: ncmc.Verified, src: `
struct P { int a; long long b; };
_Atomic struct P s = { 0, 0 };
int seen[2];
void *w(void *arg) { struct P v = { 1, 10 }; struct P o = atomic_exchange(&s, v); seen[0] = o.a; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P v = { 2, 20 }; struct P o = atomic_exchange(&s, v); seen[1] = o.a;
	assert(o.b == 10 * o.a);
	pthread_join(t, 0);
	struct P f = atomic_load(&s);
	assert(seen[0] != seen[1] && (f.a == 1 || f.a == 2) && f.b == 10 * f.a);
	return 0;
}`},
		{name: "exchange-buggy", want: ncmc.Violation, msg: "o.a == 0", src: `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_exchange(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P v = { 2, 2 }; struct P o = atomic_exchange(&s, v);
	assert(o.a == 0);
	return 0;
}`},
		{name: "compare-exchange-counter", unroll: 4, want: ncmc.Verified, src: `
struct C { int n; int version; };
_Atomic struct C c;
void inc(void) {
	struct C old = atomic_load(&c), nw;
	do { nw.n = old.n + 1; nw.version = old.version + 1; } while (!atomic_compare_exchange_strong(&c, &old, nw));
}
void *w(void *arg) { inc(); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	inc();
	pthread_join(t, 0);
	struct C f = c;
	assert(f.n == 2 && f.version == 2);
	return 0;
}`},
		{name: "compare-exchange-then-load-buggy", want: ncmc.Violation, msg: "z.a == 5", src: `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_store(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P e = { 0, 0 }, d = { 5, 5 };
	if (atomic_compare_exchange_strong(&s, &e, d)) { struct P z = atomic_load(&s); assert(z.a == 5); }
	else assert(e.a == 1 && e.b == 1);
	return 0;
}`},
		{name: "compare-exchange-whole-object", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P s = { 1, 2 };
int main(void) {
	struct P e = { 1, 3 }, d = { 7, 7 };
	assert(!atomic_compare_exchange_strong(&s, &e, d) && e.a == 1 && e.b == 2);
	assert(atomic_compare_exchange_strong(&s, &e, d));
	struct P r = atomic_load_explicit(&s, memory_order_acquire);
	assert(r.a == 7 && r.b == 7);
	return 0;
}`},
	}
	for _, c := range cases {
		for _, m := range models {
			c, m := c, m
			t.Run(c.name+"/"+m, func(t *testing.T) {
				p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{})
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				unroll := c.unroll
				if unroll == 0 {
					unroll = 2
				}
				for _, x := range explorersFor(m) {
					res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Explorer: x, Unroll: unroll, Timeout: 60 * time.Second})
					if err != nil {
						t.Fatalf("verify (%s): %v", x, err)
					}
					if res.Verdict != c.want || !strings.Contains(res.Reason, c.msg) {
						t.Errorf("%s explorer: got %s (%s), want %s (%s)", x, res.Verdict, res.Reason, c.want, c.msg)
					}
				}
			})
		}
	}
}

// TestAtomicStructsUnsupported: under ra and rc11 a whole-object atomic
// operation is reported with its position (the graph explorers have no
// atomic sections), as is one on a struct holding a mutex.
func TestAtomicStructsUnsupported(t *testing.T) {
	cases := []struct {
		name, src string
		opts      Options
		want      string
	}{
		{"rc11-load", "struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { struct P r = atomic_load(&s); return r.a; }", Options{NoAtomicSections: true},
			"t.c:3:31: unsupported: atomic operation on a whole struct P"},
		{"rc11-assign", "struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { struct P r = { 1, 2 }; s = r; return 0; }", Options{NoAtomicSections: true},
			"t.c:3:41: unsupported: atomic operation on a whole struct P"},
		{"by-value", "struct P { int a, b; };\n_Atomic struct P s;\nint f(struct P p) { return p.a; }\nint main(void) { return f(s); }", Options{},
			"t.c:4:27: unsupported: passing an _Atomic"},
		{"member", "struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { return s.a; }", Options{},
			"t.c:3:25: unsupported: member a of an atomic struct or union"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantUnsupported(t, syncPrelude+c.src, c.opts, strings.NewReplacer("t.c:3:", "t.c:8:", "t.c:4:", "t.c:9:").Replace(c.want))
		})
	}
}

// explorersFor lists the explorers TestAtomicStructs runs under model m:
// the default one, and under sc also the dpor explorer (the reference
// explorer, without partial-order reduction, takes minutes on these
// programs, whose struct temporaries are memory locals).
func explorersFor(m string) []string {
	if m == "sc" {
		return []string{"auto", "dpor"}
	}
	return []string{"auto"}
}

// TestBufferedStoreAfterReturn: under tso and pso a thread's store into
// its own local array, still in its store buffer when the function
// returns, reaches a dead stack cell: no violation (it was a false "use
// after return" before), while a store through a dangling pointer still
// is one.
func TestBufferedStoreAfterReturn(t *testing.T) {
	ok := syncPrelude + `int g;
void *w(void *arg) { int a[2]; a[0] = 1; a[1] = 2; g = a[0]; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return 0; }`
	bad := syncPrelude + `int *f(void) { int a[2]; a[0] = 1; return &a[0]; }
int main(void) { int *p = f(); *p = 3; return 0; }`
	for _, m := range []string{"tso", "pso"} {
		for _, x := range []string{"reference", "mcr"} {
			for _, c := range []struct {
				src  string
				want ncmc.Verdict
			}{{ok, ncmc.Verified}, {bad, ncmc.Violation}} {
				p, err := Compile("t.c", []byte(c.src), Options{})
				if err != nil {
					t.Fatal(err)
				}
				res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Explorer: x, Timeout: 60 * time.Second})
				if err != nil || res.Verdict != c.want {
					t.Errorf("%s/%s: got %v (%s, %v), want %s", m, x, res.Verdict, res.Reason, err, c.want)
				}
			}
		}
	}
}
