package c

import (
	"context"
	"slices"
	"testing"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

// TestDropDeadLoads: loads of globals whose values are unused become no-ops
// with Options.DropDeadLoads (not under NoAtomicSections or NoDataRace, not
// through a pointer that may be invalid, not when the value is used), and
// the outcomes (final states, violations) of programs stay the same under
// sc and tso.
func TestDropDeadLoads(t *testing.T) {
	const prelude = "#include <stdatomic.h>\n#include <pthread.h>\n#include <assert.h>\n"
	loads := func(src string, opts Options) int {
		p, err := Compile("a.c", []byte(prelude+src), opts)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range p.Funcs {
			for i := range f.Body {
				if f.Body[i].Op == ir.ILoad {
					n++
				}
			}
		}
		return n
	}
	shapes := []struct {
		name string
		src  string
		kept int // loads left with DropDeadLoads
	}{
		{"atomic-load-unused", "atomic_int x; int main(void) { atomic_load(&x); atomic_load_explicit(&x, memory_order_acquire); return 0; }", 0},
		{"plain-read-unused", "int x; int a[3]; struct { int f, g; } s; int main(void) { x; a[2]; s.g; return 0; }", 0},
		{"value-used", "atomic_int x; int main(void) { int r = atomic_load(&x); return r; }", 1},
		{"through-pointer", "int main(void) { int *p = 0; *p; return 0; }", 1},
		{"variable-index", "int a[3]; int i = 5; int main(void) { a[i]; return 0; }", 2},
	}
	for _, c := range shapes {
		t.Run(c.name, func(t *testing.T) {
			all := loads(c.src, Options{})
			if got := loads(c.src, Options{DropDeadLoads: true}); got != c.kept {
				t.Errorf("%d loads left, want %d (of %d)", got, c.kept, all)
			}
			for _, o := range []Options{{DropDeadLoads: true, NoAtomicSections: true}, {DropDeadLoads: true, NoDataRace: true}} {
				if got := loads(c.src, o); got != all {
					t.Errorf("%+v: %d loads left, want all %d", o, got, all)
				}
			}
		})
	}
	progs := []string{
		// GenMC's big1 shape, smaller: readers that ignore what they read
		`atomic_int x, y; int r;
void *rd(void *a) { atomic_load(&x); atomic_load(&y); return 0; }
void *wr(void *a) { atomic_store(&x, 1); atomic_store(&y, 1); return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, rd, 0); pthread_create(&b, 0, wr, 0);
	pthread_join(a, 0); pthread_join(b, 0); r = atomic_load(&y); return 0; }`,
		// a dead load next to a used one, and a bug
		`atomic_int x; int y;
void *t(void *a) { atomic_store(&x, 1); y = 1; return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); y; atomic_load(&x); int v = y; assert(v == 0 || atomic_load(&x) == 1); assert(v == 0); return 0; }`,
		// store buffering with dead loads in between
		`int x, y, r1, r2;
void *t0(void *a) { x = 1; y; r1 = y; return 0; }
void *t1(void *a) { y = 1; x; r2 = x; return 0; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t0, 0); pthread_create(&b, 0, t1, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }`,
	}
	outcomes := func(src, model string, drop bool) []string {
		p, err := Compile("a.c", []byte(prelude+src), Options{DropDeadLoads: drop})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: model, Explorer: "reference", Unroll: 4, KeepGoing: true, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range res.Outcomes {
			out = append(out, o.State+" | "+o.Violation)
		}
		slices.Sort(out)
		return out
	}
	for i, src := range progs {
		for _, m := range []string{"sc", "tso"} {
			with, without := outcomes(src, m, true), outcomes(src, m, false)
			if !slices.Equal(with, without) {
				t.Errorf("program %d under %s: outcomes differ:\nwith:    %q\nwithout: %q", i, m, with, without)
			}
			if len(with) == 0 {
				t.Errorf("program %d under %s: no outcomes", i, m)
			}
		}
	}
}
