package c

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"ncmc/ncmc"
)

// TestSpinNoOpsDifferential checks that discarding no-op loop iterations
// (spinNoOps) keeps the outcomes: for each program, the final states and
// violations of the executions that do not hit the loop bound are the same
// with the pass and without it (Options.KeepSpinIterations), under the
// reference explorer at the same --unroll. (An execution with a no-op
// iteration reaches what the same execution without it reaches; an
// execution of the transformed program is one of the original.)
func TestSpinNoOpsDifferential(t *testing.T) {
	loops := []string{
		`while (!atomic_load(&flag)) ;`,
		`for (;;) { int v = atomic_load(&flag); if (v) break; }`,
		`int r = 0; while (!atomic_compare_exchange_strong(&flag, &r, 2)) r = 0;`,
		`int n = 0; while (!atomic_load(&flag) && n < 2) n++; x = n;`,
		`while (!atomic_load(&flag)) { if (atomic_load(&y)) x = 5; }`,
		`int seen = 0; do { seen = atomic_load(&flag); } while (!seen); x = seen;`,
		`int k = 0; while (atomic_load(&flag) != 1) { k = atomic_load(&y); } x = k;`,
		`while (1) { int a = atomic_load(&y); int b = atomic_load(&flag); if (a != b) { x = a + 10 * b; break; } }`,
	}
	setters := []string{
		`atomic_store(&flag, 1);`,
		`atomic_store(&y, 1); atomic_store(&flag, 1);`,
		`atomic_store(&flag, 1); atomic_store(&y, 2); atomic_store(&flag, 0); atomic_store(&flag, 1);`,
	}
	for i, loop := range loops {
		for j, set := range setters {
			src := fmt.Sprintf(`#include <pthread.h>
#include <stdatomic.h>
atomic_int flag, y; int x;
void *setter(void *a) { %s return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, setter, 0);
	%s
	return 0;
}
`, set, loop)
			t.Run(fmt.Sprintf("loop%d-setter%d", i, j), func(t *testing.T) {
				var got [2]string
				var bounds [2]int
				for k, keep := range []bool{false, true} {
					p, err := Compile("t.c", []byte(src), Options{KeepSpinIterations: keep})
					if err != nil {
						t.Fatalf("compile: %v\n%s", err, src)
					}
					res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Explorer: "reference", Unroll: 4, KeepGoing: true, Timeout: 60 * time.Second})
					if err != nil {
						t.Fatal(err)
					}
					var outs []string
					for _, o := range res.Outcomes {
						outs = append(outs, o.State+" "+o.Violation)
					}
					sort.Strings(outs)
					got[k] = strings.Join(outs, "\n")
					bounds[k] = res.Stats.BoundHits
				}
				if got[0] == "" {
					t.Errorf("no outcome")
				}
				notWait := i == 4 // a store on a continuing path
				if bounds[0] > 0 && !notWait {
					t.Errorf("%d bound hits with the pass: a spin loop was not made a wait", bounds[0])
				}
				// Without the pass the spinning executions hit the bound.
				if bounds[0] == 0 && notWait {
					t.Errorf("a loop with a store became a wait")
				}
				if bounds[1] == 0 && i != 3 {
					t.Errorf("no bound hit without the pass: the program does not spin")
				}
				if got[0] != got[1] {
					t.Errorf("outcomes differ\nwith the pass:\n%s\nwithout:\n%s\nprogram:\n%s", got[0], got[1], src)
				}
			})
		}
	}
}
