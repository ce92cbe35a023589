package c

import (
	"context"
	"testing"
	"time"

	"ncmc/ncmc"
)

// TestBarrierExecutions: under ra and rc11 the trust explorer runs the
// load of a barrier's wait only once its round is complete
// (ir.AssumeBarrier, explore/trustx), so a barrier adds no blocked
// executions, and it explores the graph explorer's complete executions
// with the same verdict (the graph explorer explores every blocked graph:
// it is the reference here). Buggy programs are still found by both.
func TestBarrierExecutions(t *testing.T) {
	cases := []struct {
		name     string
		src      string
		bug      bool
		complete int // trust's complete executions under rc11 (0: not pinned)
	}{
		// GenMC's barrier1 with N=3: one complete execution per order of
		// the three arrivals (who returns PTHREAD_BARRIER_SERIAL_THREAD).
		{"three-arrive", `
pthread_barrier_t b;
void *f(void *a) { pthread_barrier_wait(&b); return 0; }
int main(void) {
	pthread_t t[3];
	pthread_barrier_init(&b, 0, 3);
	for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0);
	return 0;
}`, false, 6},
		{"publish", `
pthread_barrier_t b; atomic_int x;
void *w(void *a) { x = 42; pthread_barrier_wait(&b); return 0; }
void *r(void *a) { pthread_barrier_wait(&b); assert(x == 42); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, r, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	return 0;
}`, false, 2},
		{"publish-buggy", `
pthread_barrier_t b; atomic_int x;
void *w(void *a) { pthread_barrier_wait(&b); x = 42; return 0; }
void *r(void *a) { pthread_barrier_wait(&b); assert(x == 42); return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, r, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	return 0;
}`, true, 0},
		{"serial-rounds", `
pthread_barrier_t b; atomic_int count[2]; atomic_int serial[2];
void *f(void *a) {
	for (int i = 0; i < 2; i++) {
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
	for (int i = 0; i < 2; i++) assert(serial[i] == 1);
	return 0;
}`, false, 0},
		{"serial-is-thread-1-buggy", `
pthread_barrier_t b; atomic_int who;
void *f(void *a) { if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) who = (int)(long)a; return 0; }
int main(void) {
	pthread_t t1, t2;
	pthread_barrier_init(&b, 0, 2);
	pthread_create(&t1, 0, f, (void *)1); pthread_create(&t2, 0, f, (void *)2);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(who == 1);   /* either thread may be the serial one */
	return 0;
}`, true, 0},
		{"more-threads-than-count", `
pthread_barrier_t b; atomic_int passed, arrived;
void *f(void *a) { arrived++; pthread_barrier_wait(&b); passed++; return 0; }
int main(void) {
	pthread_t t[3];
	pthread_barrier_init(&b, 0, 2);
	for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0);
	assert(passed != 2);   /* reachable: the first two pass together */
	return 0;
}`, true, 0},
	}
	for _, c := range cases {
		for _, m := range []string{"ra", "rc11"} {
			t.Run(c.name+"/"+m, func(t *testing.T) {
				p, err := Compile("t.c", []byte(syncPrelude+c.src), Options{}.ForModel(m, false))
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				run := func(explorer string) *ncmc.Result {
					res, err := ncmc.Verify(context.Background(), p, ncmc.Options{Model: m, Explorer: explorer, Unroll: 4, Workers: 1, Timeout: time.Minute})
					if err != nil {
						t.Fatalf("verify (%s): %v", explorer, err)
					}
					return res
				}
				tr, gr := run("trust"), run("graph")
				want := ncmc.Verified
				if c.bug {
					want = ncmc.Violation
				}
				if tr.Explorer != "trust" || tr.Verdict != want || gr.Verdict != want {
					t.Fatalf("trust: %s %s (%s), graph: %s (%s); want %s", tr.Explorer, tr.Verdict, tr.Reason, gr.Verdict, gr.Reason, want)
				}
				if c.bug {
					return
				}
				if tr.Stats.Complete != gr.Stats.Complete || tr.Stats.Blocked != 0 {
					t.Errorf("trust: %d complete, %d blocked; graph: %d complete, %d blocked; want the same complete executions and none blocked",
						tr.Stats.Complete, tr.Stats.Blocked, gr.Stats.Complete, gr.Stats.Blocked)
				}
				if c.complete > 0 && m == "rc11" && tr.Stats.Complete != c.complete {
					t.Errorf("trust: %d complete executions, want %d", tr.Stats.Complete, c.complete)
				}
			})
		}
	}
}
