package c

import (
	"testing"

	"ncmc/ncmc"
)

// TestAtomicMinMax: gcc's __atomic_fetch_max/min, __atomic_max/min_fetch
// and __sync_fetch_and_(u)max/(u)min store the larger or smaller value,
// compared in the pointee's signedness (or as unsigned for umax/umin),
// atomically with respect to other threads, under sc (an atomic section)
// and rc11 (a compare-exchange loop); a buggy expectation fails. Such an
// RMW in an atomic section is atomic under tso and pso too (the relaxed
// narrow add once lost an increment there: its store stayed in the store
// buffer while the other thread's section read memory).
func TestAtomicMinMax(t *testing.T) {
	all := []string{"sc", "tso", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "sequential", models: all, want: ncmc.Verified, src: `
#include <stdint.h>
int main(void) {
	_Atomic(uint8_t) u = 150;
	atomic_fetch_add(&u, 150);                                  /* 44 */
	assert(__atomic_fetch_max((uint8_t *)&u, 200, __ATOMIC_SEQ_CST) == 44 && u == 200);
	_Atomic(int8_t) s = -100;
	assert(__atomic_min_fetch((int8_t *)&s, -50, __ATOMIC_RELAXED) == -100);
	assert(__atomic_max_fetch((int8_t *)&s, -50, __ATOMIC_RELAXED) == -50);
	int x = -1;
	__sync_fetch_and_umax(&x, 42); assert(x == -1);             /* 0xffffffff > 42 unsigned */
	__sync_fetch_and_max(&x, 42); assert(x == 42);
	__sync_fetch_and_umin(&x, -3); assert(x == 42);
	__sync_fetch_and_min(&x, -3); assert(x == -3);
	unsigned long long w = 1;
	__atomic_fetch_max(&w, 0xffffffffffffffffULL, __ATOMIC_SEQ_CST); assert(w == 0xffffffffffffffffULL);
	return 0;
}`},
		{name: "racing", models: all, want: ncmc.Verified, src: `
atomic_int m;
void *f(void *a) { __atomic_fetch_max((int *)&m, (int)(long)a, __ATOMIC_RELAXED); return 0; }
int main(void) {
	pthread_t t1, t2; pthread_create(&t1, 0, f, (void *)3); pthread_create(&t2, 0, f, (void *)5);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(m == 5);
	return 0;
}`},
		{name: "racing-buggy", models: all, want: ncmc.Violation, msg: "m == 3", src: `
atomic_int m;
void *f(void *a) { __atomic_fetch_max((int *)&m, (int)(long)a, __ATOMIC_RELAXED); return 0; }
int main(void) {
	pthread_t t1, t2; pthread_create(&t1, 0, f, (void *)3); pthread_create(&t2, 0, f, (void *)5);
	pthread_join(t1, 0);
	assert(m == 3);
	return 0;
}`},
		{name: "narrow-add-relaxed", models: []string{"sc", "tso", "pso"}, want: ncmc.Verified, src: `
atomic_int m; _Atomic(unsigned char) c;
void *f(void *a) { atomic_fetch_add_explicit(&m, 1, memory_order_relaxed); atomic_fetch_sub_explicit(&c, 1, memory_order_relaxed); return 0; }
int main(void) {
	pthread_t t1, t2; pthread_create(&t1, 0, f, 0); pthread_create(&t2, 0, f, 0);
	pthread_join(t1, 0); pthread_join(t2, 0);
	assert(m == 2 && c == 254);
	return 0;
}`},
	})
}
