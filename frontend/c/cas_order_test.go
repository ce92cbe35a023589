package c

import (
	"context"
	"strings"
	"testing"
	"time"

	"ncmc/ir"
	"ncmc/ncmc"
)

// TestCASFailureOrders checks the failure orders of compare-exchange: the
// legal ones are kept, release becomes relaxed and acq_rel acquire (the
// order's load part, as clang compiles them; see failOrder), and under
// rc11 a failed compare-exchange with an acquire failure order
// synchronizes with the release store it reads, a relaxed one does not.
func TestCASFailureOrders(t *testing.T) {
	orders := []struct {
		c    string
		want ir.Order
	}{
		{"memory_order_relaxed", ir.OrderRlx},
		{"memory_order_consume", ir.OrderAcq},
		{"memory_order_acquire", ir.OrderAcq},
		{"memory_order_release", ir.OrderRlx},
		{"memory_order_acq_rel", ir.OrderAcq},
		{"memory_order_seq_cst", ir.OrderSC},
	}
	for _, o := range orders {
		t.Run(o.c, func(t *testing.T) {
			src := "#include <stdatomic.h>\natomic_int x;\nint main(void) { int e = 1; atomic_compare_exchange_strong_explicit(&x, &e, 2, memory_order_seq_cst, " + o.c + "); return 0; }\n"
			p := compile(t, src)
			in := find(p.Main, ir.ICAS)
			if in == nil {
				t.Fatalf("no ICAS:\n%s", p)
			}
			if in.FailOrder != o.want || in.Order != ir.OrderSC {
				t.Fatalf("orders %v/%v, want %v/%v", in.Order, in.FailOrder, ir.OrderSC, o.want)
			}
		})
	}
	const mp = `#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>
atomic_int flag;
int data;
void *writer(void *a) { data = 42; atomic_store_explicit(&flag, 1, memory_order_release); return 0; }
int main(void) {
	pthread_t w;
	pthread_create(&w, 0, writer, 0);
	int e = 2;
	if (!atomic_compare_exchange_strong_explicit(&flag, &e, 3, memory_order_acq_rel, FAIL) && e == 1)
		assert(data == 42);
	pthread_join(w, 0);
	return 0;
}
`
	for _, c := range []struct {
		fail string
		want ncmc.Verdict
	}{
		{"memory_order_acq_rel", ncmc.Verified},  // acquire: the failed CAS synchronizes
		{"memory_order_acquire", ncmc.Verified},  //
		{"memory_order_release", ncmc.Violation}, // relaxed: data may be stale (a race)
		{"memory_order_relaxed", ncmc.Violation},
	} {
		// The failure order matters under rc11 only: sc, tso and pso
		// (the writer's release store fenced under pso) and ra (every
		// access release/acquire) order the data before the flag anyway.
		for _, m := range allModels {
			want := ncmc.Verified
			if m == "rc11" {
				want = c.want
			}
			t.Run(m+"-"+c.fail, func(t *testing.T) {
				p, err := Compile("t.c", []byte(strings.Replace(mp, "FAIL", c.fail, 1)), Options{}.ForModel(m, false))
				if err != nil {
					t.Fatal(err)
				}
				res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Unroll: 4, Timeout: 60 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != want {
					t.Fatalf("verdict %v (%s), want %v", res.Verdict, res.Reason, want)
				}
			})
		}
	}
}
