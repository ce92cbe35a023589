package c

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"ncmc/explore/trustx"
	"ncmc/interp"
	"ncmc/ir"
	"ncmc/ncmc"
	"ncmc/seg"
)

// TestAtomicStructs gives whole _Atomic struct objects their C11 meaning
// under every model: atomic_load, atomic_store, atomic_exchange,
// atomic_compare_exchange_strong and plain assignment read or write the
// whole object in one indivisible step (no torn values), and a
// compare-exchange compares the whole object. Under sc, tso and pso each
// operation is an atomic section; under ra and rc11 it takes the object's
// lock (atomicstruct.go). Each case runs on the default explorer; under
// sc also on the dpor explorer, which must agree; under ra and rc11
// graphDiff enumerates its executions with the graph explorer (the
// reference there) and the trust explorer, which must give the same
// complete executions and violations. The buggy variants (the same
// programs without _Atomic, checks another thread can falsify, weak
// behaviours C11 allows) fail. A case with wantBy (msgBy) sets its verdict
// (violation message) per model.
func TestAtomicStructs(t *testing.T) {
	models := []string{"sc", "tso", "pso", "ra", "rc11"}
	cases := []struct {
		syncCase
		wantBy map[string]ncmc.Verdict
		msgBy  map[string]string
		// trustOnly: under ra and rc11 the default explorer only (no
		// graph explorer, no differential).
		trustOnly bool
	}{
		{syncCase: syncCase{name: "no-tearing", want: ncmc.Verified, src: `
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
}`}},
		{syncCase: syncCase{name: "init-release-acquire", want: ncmc.Verified, src: `
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
}`}},
		// Under ra and rc11 the race on s is reported first; the torn
		// read is among the violations (checked with races recorded).
		{syncCase: syncCase{name: "plain-struct-tears", want: ncmc.Violation, msg: "r.a == r.b", src: `
struct P { int a; int b; };
struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; s = v; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r; r = s; assert(r.a == r.b);
	return 0;
}`}, msgBy: map[string]string{"ra": "data race on s.", "rc11": "data race on s."}},
		// The object reached through a pointer known only at run time
		// (the thread's argument, a heap block) takes the same lock as
		// the global named directly (whose lock address is a constant).
		{syncCase: syncCase{name: "pointer-and-name-share-the-lock", want: ncmc.Verified, src: `
struct P { int a; int b; int c; };
_Atomic struct P s;
void *w(void *arg) {
	_Atomic struct P *p = arg;
	struct P v = { 1, 1, 1 }; atomic_store(p, v);
	struct P u = atomic_load(p); assert(u.a == u.b && u.b == u.c);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, (void *)&s);
	struct P v = { 2, 2, 2 }; s = v;
	struct P r = s; assert(r.a == r.b && r.b == r.c);
	return 0;
}`}},
		{syncCase: syncCase{name: "heap-and-array", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P arr[3];
_Atomic struct P *h;
void *w(void *arg) {
	struct P v = { 1, 1 };
	atomic_store(&arr[1], v); atomic_store(h, v);
	return 0;
}
int main(void) {
	h = malloc(sizeof *h);
	struct P z = { 0, 0 }; atomic_init(h, z);
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = atomic_load(&arr[1]); assert(r.a == r.b);
	struct P q = atomic_load(h); assert(q.a == q.b);
	pthread_join(t, 0);
	struct P f = arr[1], g = *h;
	assert(f.a == 1 && g.b == 1);
	free(h);
	return 0;
}`}},
		{syncCase: syncCase{name: "exchange", want: ncmc.Verified, src: `
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
}`}},
		{syncCase: syncCase{name: "exchange-buggy", want: ncmc.Violation, msg: "o.a == 0", src: `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_exchange(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P v = { 2, 2 }; struct P o = atomic_exchange(&s, v);
	assert(o.a == 0);
	return 0;
}`}},
		{syncCase: syncCase{name: "compare-exchange-counter", unroll: 4, want: ncmc.Verified, src: `
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
}`}},
		{syncCase: syncCase{name: "compare-exchange-then-load-buggy", want: ncmc.Violation, msg: "z.a == 5", src: `
struct P { int a; int b; };
_Atomic struct P s;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_store(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P e = { 0, 0 }, d = { 5, 5 };
	if (atomic_compare_exchange_strong(&s, &e, d)) { struct P z = atomic_load(&s); assert(z.a == 5); }
	else assert(e.a == 1 && e.b == 1);
	return 0;
}`}},
		{syncCase: syncCase{name: "compare-exchange-whole-object", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P s = { 1, 2 };
int main(void) {
	struct P e = { 1, 3 }, d = { 7, 7 };
	assert(!atomic_compare_exchange_strong(&s, &e, d) && e.a == 1 && e.b == 2);
	assert(atomic_compare_exchange_strong(&s, &e, d));
	struct P r = atomic_load_explicit(&s, memory_order_acquire);
	assert(r.a == 7 && r.b == 7);
	return 0;
}`}},
		{syncCase: syncCase{name: "union", want: ncmc.Verified, src: `
union U { struct { int a, b; } p; struct { int c, d; } q; };
_Atomic union U s;
void *w(void *arg) { union U v; v.p.a = 1; v.p.b = 1; atomic_store(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	union U r = atomic_load(&s); assert(r.q.c == r.q.d);
	union U e = { { 0, 0 } }, d = { { 2, 2 } };
	if (!atomic_compare_exchange_strong(&s, &e, d)) assert(e.p.a == 1 && e.q.d == 1);
	return 0;
}`}},
		{syncCase: syncCase{name: "union-buggy", want: ncmc.Violation, msg: "e.p.a == 0", src: `
union U { struct { int a, b; } p; struct { int c, d; } q; };
_Atomic union U s;
void *w(void *arg) { union U v; v.p.a = 1; v.p.b = 1; atomic_store(&s, v); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	union U e = { { 0, 0 } }, d = { { 2, 2 } };
	if (!atomic_compare_exchange_strong(&s, &e, d)) assert(e.p.a == 0);
	return 0;
}`}},
		// Message passing: the data written before a release store of
		// the struct is seen after an acquire load that reads it.
		{syncCase: syncCase{name: "message-passing", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P s;
int data;
void *w(void *arg) { data = 42; struct P v = { 1, 1 }; atomic_store_explicit(&s, v, memory_order_release); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = atomic_load_explicit(&s, memory_order_acquire);
	if (r.a == 1) assert(data == 42);
	return 0;
}`}},
		// Store buffering through two objects with seq_cst operations:
		// forbidden (under ra and rc11 each thread's second operation
		// comes after its first, and the lock of one of the objects
		// orders one thread's operation on it after the other's).
		{syncCase: syncCase{name: "store-buffering-seq-cst", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P x, y;
int r1 = -1, r2 = -1;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_store(&x, v); struct P r = atomic_load(&y); r1 = r.a; return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P v = { 1, 1 }; atomic_store(&y, v); struct P r = atomic_load(&x); r2 = r.a;
	pthread_join(t, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}`}},
		// The same with release stores and acquire loads, still
		// forbidden: under ra and rc11 the lock orders the two
		// operations on each object, and each thread's second operation
		// comes after its first, so one of the loads happens after the
		// other thread's store.
		{syncCase: syncCase{name: "store-buffering-release-acquire", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P x, y[2];
int r1 = -1, r2 = -1;
void *w(void *arg) {
	struct P v = { 1, 1 }; atomic_store_explicit(&x, v, memory_order_release);
	struct P r = atomic_load_explicit(&y[1], memory_order_acquire); r1 = r.a; return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P v = { 1, 1 }; atomic_store_explicit(&y[1], v, memory_order_release);
	struct P r = atomic_load_explicit(&x, memory_order_acquire); r2 = r.a;
	pthread_join(t, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}`}},
		// IRIW through two objects with release stores and acquire loads:
		// the readers agree on the order of the writes (the graph
		// explorer takes minutes on these four threads: trust only).
		{syncCase: syncCase{name: "iriw-release-acquire", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P x, y;
int r1 = -1, r2 = -1, r3 = -1, r4 = -1;
struct P one = { 1, 1 };
void *wx(void *a) { atomic_store_explicit(&x, one, memory_order_release); return 0; }
void *wy(void *a) { atomic_store_explicit(&y, one, memory_order_release); return 0; }
void *rd(void *a) {
	struct P r = atomic_load_explicit(&x, memory_order_acquire); r1 = r.a;
	r = atomic_load_explicit(&y, memory_order_acquire); r2 = r.a;
	return 0;
}
int main(void) {
	pthread_t t1, t2, t3;
	pthread_create(&t1, 0, wx, 0); pthread_create(&t2, 0, wy, 0); pthread_create(&t3, 0, rd, 0);
	struct P r = atomic_load_explicit(&y, memory_order_acquire); r3 = r.a;
	r = atomic_load_explicit(&x, memory_order_acquire); r4 = r.a;
	pthread_join(t1, 0); pthread_join(t2, 0); pthread_join(t3, 0);
	assert(!(r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0));
	return 0;
}`}, trustOnly: true},
		// Distinct objects have distinct locks (here two elements of an
		// array): an operation on a[1] does not synchronise with one on
		// a[0], so under rc11 the relaxed flag passes no message (were
		// the lock shared, the flag would force t's operation after w's,
		// and the lock would carry data = 42). Under ra every atomic
		// access is release/acquire, so the flag alone passes it; under
		// sc, tso and pso an atomic section drains the store buffers.
		{syncCase: syncCase{name: "distinct-objects-do-not-synchronise", want: ncmc.Verified, msg: "memory_order_relaxed) == 42", src: `
struct P { int a; int b; };
_Atomic struct P a[2];
atomic_int data, flag;
void *w(void *arg) {
	atomic_store_explicit(&data, 42, memory_order_relaxed);
	struct P v = { 1, 1 }; atomic_store_explicit(&a[0], v, memory_order_relaxed);
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&flag, memory_order_relaxed)) {
		struct P r = atomic_load_explicit(&a[1], memory_order_relaxed);
		assert(atomic_load_explicit(&data, memory_order_relaxed) == 42);
	}
	return 0;
}`}, wantBy: map[string]ncmc.Verdict{"rc11": ncmc.Violation}},
		// Against a scalar seq_cst access, a seq_cst whole-object
		// operation keeps C11's guarantees: store buffering and 2+2W
		// stay forbidden.
		{syncCase: syncCase{name: "store-buffering-with-a-scalar", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P x;
atomic_int y;
int r1 = -1, r2 = -1;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_store(&x, v); r1 = atomic_load(&y); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	atomic_store(&y, 1); struct P r = atomic_load(&x); r2 = r.a;
	pthread_join(t, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}`}},
		{syncCase: syncCase{name: "2+2w-with-a-scalar", want: ncmc.Verified, src: `
struct P { int a; int b; };
_Atomic struct P x;
atomic_int y;
void *w(void *arg) { struct P v = { 1, 1 }; atomic_store(&x, v); atomic_store(&y, 2); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	atomic_store(&y, 1); struct P v = { 2, 2 }; atomic_store(&x, v);
	pthread_join(t, 0);
	struct P r = atomic_load(&x);
	assert(!(r.a == 1 && atomic_load(&y) == 1));
	return 0;
}`}},
		// A seq_cst whole-object operation is no fence: under ra and
		// rc11 store buffering through relaxed accesses around
		// operations on two distinct objects is allowed, as C11 allows
		// it (libatomic's seq_cst fences on POWER and ARM would forbid
		// it; ncmc emits none). Under tso and pso the atomic section's
		// fence forbids it, as x86's locked instructions do.
		{syncCase: syncCase{name: "seq-cst-operation-is-no-fence", want: ncmc.Verified, msg: "r1 == 1 || r2 == 1", src: `
struct P { int a; int b; };
_Atomic struct P x, z;
atomic_int y, w;
int r1 = -1, r2 = -1;
void *t1(void *arg) {
	atomic_store_explicit(&y, 1, memory_order_relaxed);
	struct P v = { 1, 1 }; atomic_store(&x, v);
	r1 = atomic_load_explicit(&w, memory_order_relaxed);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, t1, 0);
	atomic_store_explicit(&w, 1, memory_order_relaxed);
	struct P v = { 1, 1 }; atomic_store(&z, v);
	r2 = atomic_load_explicit(&y, memory_order_relaxed);
	pthread_join(t, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}`}, wantBy: map[string]ncmc.Verdict{"ra": ncmc.Violation, "rc11": ncmc.Violation}},
		// Relaxed operations on a whole object are made atomic by the
		// lock, whose acquire and release also synchronise: the message
		// is passed although the orders are relaxed (libatomic's lock
		// does the same; C11's relaxed would allow the violation).
		{syncCase: syncCase{name: "relaxed-synchronises-through-the-lock", want: ncmc.Verified, src: `
struct P { int a; int b; int c; };
_Atomic struct P s;
int data;
void *w(void *arg) { data = 42; struct P v = { 1, 1, 1 }; atomic_store_explicit(&s, v, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	struct P r = atomic_load_explicit(&s, memory_order_relaxed);
	if (r.a == 1) assert(data == 42);
	return 0;
}`}},
	}
	for _, c := range cases {
		for _, m := range models {
			t.Run(c.name+"/"+m, func(t *testing.T) {
				p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{NoAtomicSections: m == "ra" || m == "rc11"})
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				unroll := c.unroll
				if unroll == 0 {
					unroll = 2
				}
				want, msg := c.want, c.msg
				if w, ok := c.wantBy[m]; ok {
					want = w
				}
				if w, ok := c.msgBy[m]; ok {
					msg = w
				}
				if want == ncmc.Verified {
					msg = ""
				}
				for _, x := range explorersFor(m) {
					res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Explorer: x, Unroll: unroll, Timeout: 60 * time.Second})
					if err != nil {
						t.Fatalf("verify (%s): %v", x, err)
					}
					t.Logf("%s: %s, %d executions (%d complete, %d blocked)", x, res.Verdict, res.Stats.Executions, res.Stats.Complete, res.Stats.Blocked)
					if res.Verdict != want || !strings.Contains(res.Reason, msg) {
						t.Errorf("%s explorer: got %s (%s), want %s (%s)", x, res.Verdict, res.Reason, want, msg)
					}
				}
				if (m == "ra" || m == "rc11") && !c.trustOnly {
					graphDiff(t, p, m, unroll, want, c.msg)
				}
			})
		}
	}
}

// TestAtomicStructsUnsupported: a whole-object atomic operation on a struct
// holding a mutex, passing an _Atomic struct by value and member access are
// reported with their positions; under ra and rc11 the whole-object
// operations compile (to the lock form).
func TestAtomicStructsUnsupported(t *testing.T) {
	cases := []struct {
		name, src string
		opts      Options
		want      string
	}{
		{"by-value", "struct P { int a, b; };\n_Atomic struct P s;\nint f(struct P p) { return p.a; }\nint main(void) { return f(s); }", Options{},
			"t.c:4:27: unsupported: passing an _Atomic"},
		{"member", "struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { return s.a; }", Options{},
			"t.c:3:25: unsupported: member a of an atomic struct or union"},
		{"member-rc11", "struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { return s.a; }", Options{NoAtomicSections: true},
			"t.c:3:25: unsupported: member a of an atomic struct or union"},
		{"mutex-inside", "struct P { pthread_mutex_t m; int b; };\n_Atomic struct P s;\nint main(void) { struct P r; atomic_store(&s, r); return 0; }", Options{NoAtomicSections: true},
			"t.c:3:30: unsupported: atomic operation on a struct P {"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantUnsupported(t, syncPrelude+c.src, c.opts, strings.NewReplacer("t.c:3:", "t.c:8:", "t.c:4:", "t.c:9:").Replace(c.want))
		})
	}
	for _, src := range []string{
		"struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { struct P r = atomic_load(&s); return r.a; }",
		"struct P { int a, b; };\n_Atomic struct P s;\nint main(void) { struct P r = { 1, 2 }; s = r; return 0; }",
	} {
		if _, err := Compile("t.c", []byte(syncPrelude+src), Options{NoAtomicSections: true}); err != nil {
			t.Errorf("under ra and rc11: %v", err)
		}
	}
}

// graphDiff enumerates the executions of p under model m (ra or rc11)
// with the graph explorer and with the trust explorer, data races recorded
// rather than fatal: the same complete outcomes with the same execution
// graphs, the same violation messages, no graph built twice by trust. When
// the program is buggy (want), some violation says msg.
func graphDiff(t *testing.T, p *ir.Program, m string, unroll int, want ncmc.Verdict, msg string) {
	t.Helper()
	var sums [2]string
	for i, x := range []string{"reference", "trust"} {
		graphs := map[string]map[string]bool{}
		violations := map[string]bool{}
		dup := 0
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		st, err := trustx.Enumerate(ctx, p, trustx.EnumOptions{Model: m, Explorer: x, Unroll: unroll}, func(e *interp.Execution) bool {
			v, _, _ := e.Violation()
			switch {
			case v != "":
				violations[v] = true
			case e.Complete():
				fs := interp.FinalState(e)
				if graphs[fs] == nil {
					graphs[fs] = map[string]bool{}
				}
				k := e.G.Key(seg.KeyOpts{Kind: seg.KeyFull})
				if graphs[fs][k] {
					dup++
				}
				graphs[fs][k] = true
			}
			return true
		})
		cancel()
		if err != nil || st.Stopped != "" {
			t.Fatalf("enumerate (%s): %v %s", x, err, st.Stopped)
		}
		if dup > 0 {
			t.Errorf("%s built %d graphs twice", x, dup)
		}
		var l []string
		for fs, ks := range graphs {
			l = append(l, fmt.Sprintf("%s x%d", fs, len(ks)))
		}
		found := false
		for v := range violations {
			l = append(l, "violation: "+v)
			found = found || strings.Contains(v, msg)
		}
		if want == ncmc.Violation && !found {
			t.Errorf("%s: no violation says %q", x, msg)
		}
		if want == ncmc.Verified && len(violations) > 0 {
			t.Errorf("%s: violations of a correct program: %v", x, violations)
		}
		sort.Strings(l)
		sums[i] = strings.Join(l, "\n")
	}
	if sums[0] != sums[1] {
		t.Errorf("graph and trust disagree\ngraph:\n%s\ntrust:\n%s", sums[0], sums[1])
	}
}

// explorersFor lists the explorers TestAtomicStructs runs under model m:
// the default one, and under sc also the dpor explorer (the reference
// explorer, without partial-order reduction, takes minutes on these
// programs, whose struct temporaries are memory locals). Under ra and rc11
// graphDiff runs the graph explorer.
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
