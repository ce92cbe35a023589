package c

import (
	"context"
	"strings"
	"testing"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

// TestAtomicPointerDecls checks which object an _Atomic in a pointer
// declaration makes atomic: a plain store to an atomic object is an sc
// store, to another object a non-atomic one; "_Atomic int *p" makes *p and
// p[i] atomic (TestAtomicPointee); "_Atomic int **p" (an atomic pointee two
// levels down, which cc's types do not record) is rejected.
func TestAtomicPointerDecls(t *testing.T) {
	cases := []struct {
		name  string
		decl  string
		order ir.Order // of the store p = 0 in main
		err   string   // substring of the error, if rejected
	}{
		{"atomic-int", "_Atomic int p;", ir.OrderSC, ""},
		{"atomic-specifier-pointer", "_Atomic(int *) p;", ir.OrderSC, ""},
		{"atomic-typedef-pointee", "atomic_int *p;", ir.OrderNA, ""},
		{"qualified-pointer", "int * _Atomic p;", ir.OrderSC, ""},
		{"qualified-inner-pointer", "int ** _Atomic p;", ir.OrderSC, ""},
		{"specifier-pointer-to-atomic-typedef", "_Atomic(atomic_int *) p;", ir.OrderSC, ""},
		{"plain-pointer", "int *p;", ir.OrderNA, ""},
		{"atomic-pointee", "_Atomic int *p;", ir.OrderNA, ""},
		{"atomic-pointee-parenthesized", "_Atomic(int) *p;", ir.OrderNA, ""},
		{"atomic-middle", "int * _Atomic * p;", 0, "_Atomic on the type a pointer to a pointer points to"},
		{"atomic-pointee-two-levels", "_Atomic int **p;", 0, "_Atomic on the type a pointer to a pointer points to"},
		{"struct-member", "struct s { int * _Atomic q; } v; int *p;", ir.OrderNA, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "#include <stdatomic.h>\n" + c.decl + "\nint main(void) { p = 0; return 0; }\n"
			prog, err := Compile("a.c", []byte(src), Options{})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st := find(prog.Main, ir.IStore)
			if st == nil {
				t.Fatalf("no store in main")
			}
			if st.Order != c.order {
				t.Fatalf("store order %v, want %v", st.Order, c.order)
			}
		})
	}
	// The member: a plain store to an atomic pointer member is sc.
	prog, err := Compile("a.c", []byte("struct s { int * _Atomic q; int *r; } v;\nint main(void) { v.q = 0; v.r = 0; return 0; }\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var orders []ir.Order
	for i := range prog.Main.Body {
		if in := &prog.Main.Body[i]; in.Op == ir.IStore {
			orders = append(orders, in.Order)
		}
	}
	if len(orders) != 2 || orders[0] != ir.OrderSC || orders[1] != ir.OrderNA {
		t.Fatalf("member store orders %v, want [sc na]", orders)
	}
}

// TestAtomicPointerVerdicts runs SharedPtr-like programs (GenMC's
// _Atomic(atomic_int *) p) with a correct and a buggy variant.
func TestAtomicPointerVerdicts(t *testing.T) {
	const prog = `#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>
atomic_int x = 3, y = 4;
_Atomic(atomic_int *) p;
void *one(void *a) { atomic_store_explicit(&p, &y, memory_order_release); return 0; }
void *two(void *a) { atomic_store_explicit(&p, &x, memory_order_release); return 0; }
int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, one, 0); pthread_create(&b, 0, two, 0);
	pthread_join(a, 0); pthread_join(b, 0);
	atomic_int *t = atomic_load_explicit(&p, memory_order_acquire);
	assert(COND);
	return 0;
}
`
	for _, c := range []struct {
		cond string
		want ncmc.Verdict
	}{{"t == &x || t == &y", ncmc.Verified}, {"t == &x", ncmc.Violation}} {
		for _, m := range allModels {
			p, err := Compile("t.c", []byte(strings.Replace(prog, "COND", c.cond, 1)), Options{}.ForModel(m, false))
			if err != nil {
				t.Fatal(err)
			}
			res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Unroll: 4, Timeout: 60 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.want {
				t.Errorf("%s under %s: verdict %v (%s), want %v", c.cond, m, res.Verdict, res.Reason, c.want)
			}
		}
	}
}

// TestAtomicPointee: accesses through a variable (global, local or
// parameter) declared "_Atomic int *p" are seq_cst, as through atomic_int *p.
func TestAtomicPointee(t *testing.T) {
	src := `#include <stdatomic.h>
atomic_int x, y[2];
_Atomic int *g = &x;
void f(_Atomic int *q) { *q = 1; q[1] = 2; }
int main(void) { _Atomic(int) *l = y; *g = 3; l[0] = 4; f(y); int *plain = (int *)y; *plain = 5; return 0; }
`
	prog, err := Compile("a.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var orders []ir.Order
	for _, f := range prog.Funcs {
		for i := range f.Body {
			if in := &f.Body[i]; in.Op == ir.IStore && in.A != nil && in.A.Kind == ir.EConst && in.A.Val >= 1 && in.A.Val <= 5 {
				for len(orders) < int(in.A.Val) {
					orders = append(orders, 99)
				}
				orders[in.A.Val-1] = in.Order
			}
		}
	}
	want := []ir.Order{ir.OrderSC, ir.OrderSC, ir.OrderSC, ir.OrderSC, ir.OrderNA}
	if len(orders) != len(want) {
		t.Fatalf("stores %v, want %v", orders, want)
	}
	for i := range want {
		if orders[i] != want[i] {
			t.Errorf("store of %d: order %v, want %v", i+1, orders[i], want[i])
		}
	}
}
