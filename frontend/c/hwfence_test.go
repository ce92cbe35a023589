package c

import (
	"strings"
	"testing"

	"ncmc/ir"
	"ncmc/ncmc"
)

// TestHardwareFences: under tso and pso, which ignore the orders of
// accesses, C11 atomics keep their meaning through the fences of the
// usual mappings (Options.Hardware): store buffering with seq_cst
// atomics is forbidden under tso and pso as under sc and rc11 (the ra
// model, release/acquire only, allows it), message passing through a
// release store and an acquire load works under pso; with relaxed
// accesses, which get no fences, both weak behaviours stay (store
// buffering under tso and pso, message passing under pso).
func TestHardwareFences(t *testing.T) {
	sb := `
atomic_int x, y; int r1, r2;
void *t1(void *a) { atomic_store_explicit(&x, 1, ORD); r1 = atomic_load_explicit(&y, LORD); return 0; }
void *t2(void *a) { atomic_store_explicit(&y, 1, ORD); r2 = atomic_load_explicit(&x, LORD); return 0; }
int main(void) {
	pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0); pthread_join(b, 0);
	assert(r1 == 1 || r2 == 1);
	return 0;
}`
	mp := `
atomic_int d, f;
void *w(void *a) { atomic_store_explicit(&d, 1, memory_order_relaxed); atomic_store_explicit(&f, 1, ORD); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&f, LORD) == 1) assert(atomic_load_explicit(&d, memory_order_relaxed) == 1);
	return 0;
}`
	fenced := `
atomic_int d, f;
void *w(void *a) {
	atomic_store_explicit(&d, 1, memory_order_relaxed);
	atomic_thread_fence(FENCE);
	atomic_store_explicit(&f, 1, memory_order_relaxed);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (atomic_load_explicit(&f, memory_order_relaxed) == 1) {
		atomic_thread_fence(memory_order_acquire);
		assert(atomic_load_explicit(&d, memory_order_relaxed) == 1);
	}
	return 0;
}`
	sub := func(src string, kv ...string) string { return strings.NewReplacer(kv...).Replace(src) }
	ok, bug := ncmc.Verified, ncmc.Violation
	cases := []struct {
		name string
		src  string
		want map[string]ncmc.Verdict
	}{
		{"sb-seq_cst", sub(sb, "LORD", "memory_order_seq_cst", "ORD", "memory_order_seq_cst"),
			map[string]ncmc.Verdict{"sc": ok, "tso": ok, "pso": ok, "ra": bug, "rc11": ok}},
		{"sb-release-acquire", sub(sb, "LORD", "memory_order_acquire", "ORD", "memory_order_release"),
			map[string]ncmc.Verdict{"sc": ok, "tso": bug, "pso": bug, "ra": bug, "rc11": bug}},
		{"sb-relaxed", sub(sb, "LORD", "memory_order_relaxed", "ORD", "memory_order_relaxed"),
			map[string]ncmc.Verdict{"sc": ok, "tso": bug, "pso": bug, "ra": bug, "rc11": bug}},
		{"mp-release-acquire", sub(mp, "LORD", "memory_order_acquire", "ORD", "memory_order_release"),
			map[string]ncmc.Verdict{"sc": ok, "tso": ok, "pso": ok, "ra": ok, "rc11": ok}},
		{"mp-relaxed", sub(mp, "LORD", "memory_order_relaxed", "ORD", "memory_order_relaxed"),
			map[string]ncmc.Verdict{"sc": ok, "tso": ok, "pso": bug, "ra": ok, "rc11": bug}},
		{"mp-release-fence", sub(fenced, "FENCE", "memory_order_release"),
			map[string]ncmc.Verdict{"sc": ok, "tso": ok, "pso": ok, "ra": ok, "rc11": ok}},
		{"mp-acquire-fence-only", sub(fenced, "FENCE", "memory_order_acquire"),
			map[string]ncmc.Verdict{"sc": ok, "tso": ok, "pso": bug, "ra": ok, "rc11": bug}},
	}
	for _, c := range cases {
		var cs []syncCase
		for _, m := range allModels {
			cs = append(cs, syncCase{name: c.name, models: []string{m}, want: c.want[m], src: c.src})
		}
		runSyncCasesExact(t, cs)
	}
	// Without Hardware no fence is added.
	p, err := Compile("t.c", []byte(syncPrelude+sub(sb, "LORD", "memory_order_seq_cst", "ORD", "memory_order_seq_cst")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == ir.IFence {
				t.Errorf("%s: a fence without Options.Hardware", f.Name)
			}
		}
	}
}
