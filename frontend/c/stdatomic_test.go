package c

import (
	"strings"
	"testing"

	"ncmc/ncmc"
)

// TestStdatomicEveryType gives every operation of stdatomic.h its C11
// meaning on every atomic type: two threads update one object with
// fetch-add and fetch-sub (atomic read-modify-writes: no update is lost,
// whatever the width, and unsigned values wrap around) and another with
// fetch-or, fetch-and and fetch-xor on disjoint bits (they commute), then
// main checks the results and the returned old values of
// atomic_init, store, load, exchange, compare-exchange strong and weak
// (success and failure, which writes the current value back to expected)
// and the _explicit forms. atomic_bool, pointers (fetch-add scales by the
// pointee's size) and atomic_flag have their own cases. The buggy variants
// replace an RMW by a load and a store (a lost update) or check a wrong
// old value. The integer types run under sc, and under rc11 once per base
// type; int, unsigned char and unsigned long long and the other cases
// under every model.
func TestStdatomicEveryType(t *testing.T) {
	types := []struct{ atomic, base string }{
		{"atomic_char", "char"}, {"atomic_schar", "signed char"}, {"atomic_uchar", "unsigned char"},
		{"atomic_short", "short"}, {"atomic_ushort", "unsigned short"},
		{"atomic_int", "int"}, {"atomic_uint", "unsigned int"},
		{"atomic_long", "long"}, {"atomic_ulong", "unsigned long"},
		{"atomic_llong", "long long"}, {"atomic_ullong", "unsigned long long"},
		{"atomic_char16_t", "unsigned short"}, {"atomic_char32_t", "unsigned int"}, {"atomic_wchar_t", "int"},
		{"atomic_int_least8_t", "signed char"}, {"atomic_uint_fast16_t", "unsigned int"},
		{"atomic_intptr_t", "long"}, {"atomic_uintptr_t", "unsigned long"},
		{"atomic_size_t", "unsigned long"}, {"atomic_ptrdiff_t", "long"},
		{"atomic_intmax_t", "long long"}, {"atomic_uintmax_t", "unsigned long long"},
		{"_Atomic unsigned char", "unsigned char"}, {"_Atomic(short)", "short"},
	}
	const ints = `
#include <stdint.h>
typedef BASE B;
AT v, b;
void *adder(void *a) {
	ADD; atomic_fetch_or(&b, 1); atomic_fetch_xor_explicit(&b, 4, memory_order_release);
	atomic_fetch_add_explicit(&v, 1, memory_order_relaxed);
	return 0;
}
int main(void) {
	atomic_init(&v, 1);
	atomic_store(&b, 2);
	pthread_t t;
	pthread_create(&t, 0, adder, 0);
	atomic_fetch_sub(&v, 2); atomic_fetch_and(&b, (B)~2); atomic_fetch_xor(&b, 8);
	atomic_fetch_sub_explicit(&v, 2, memory_order_acq_rel);
	pthread_join(t, 0);
	assert(atomic_load(&v) == (B)((B)1 + 3 + 1 - 4));  /* 1 - ... wraps around for unsigned types */
	assert(atomic_load_explicit(&b, memory_order_acquire) == (B)(1 | 4 | 8));
	assert(atomic_exchange(&b, (B)100) == (B)13);
	assert(atomic_exchange_explicit(&b, (B)7, memory_order_seq_cst) == (B)100);
	B e = 5;
	assert(!atomic_compare_exchange_strong(&b, &e, (B)9) && e == (B)7 && b == (B)7);
	assert(atomic_compare_exchange_strong_explicit(&b, &e, (B)9, memory_order_acq_rel, memory_order_acquire) && b == (B)9);
	e = 9;
	while (!atomic_compare_exchange_weak(&b, &e, (B)11)) ;
	e = 11;
	while (!atomic_compare_exchange_weak_explicit(&b, &e, (B)12, memory_order_release, memory_order_relaxed)) ;
	assert(OLD == (B)12 && b == (B)13);
	assert(atomic_fetch_sub(&b, (B)13) == (B)13 && atomic_fetch_sub(&b, 1) == 0 && b == (B)-1);
	assert(atomic_fetch_and_explicit(&b, (B)0x3c, memory_order_relaxed) == (B)-1 && atomic_fetch_or(&b, (B)0x41) == (B)0x3c && b == (B)0x7d);
	assert(atomic_fetch_xor(&b, (B)0x7f) == (B)0x7d && b == (B)2);
	assert(atomic_is_lock_free(&b) || 1);
	return 0;
}`
	fill := func(ty struct{ atomic, base string }, add, old string) string {
		return strings.NewReplacer("BASE", ty.base, "AT", ty.atomic, "ADD", add, "OLD", old).Replace(ints)
	}
	const add = "atomic_fetch_add(&v, 3)"
	const lost = "atomic_store(&v, atomic_load(&v) + 3)"
	const old = "atomic_fetch_add(&b, 1)"
	var cases []syncCase
	rc11Base := map[string]bool{} // base types run under rc11 already
	for _, ty := range types {
		name := strings.NewReplacer(" ", "-", "(", "-", ")", "").Replace(ty.atomic)
		// Under rc11 once per base type (a typedef's spelling changes
		// nothing the rc11 lowering sees; the front end's typedef
		// resolution is the same under every model and sc checks it).
		models := []string{"sc"}
		if !rc11Base[ty.base] {
			rc11Base[ty.base] = true
			models = append(models, "rc11")
		}
		if ty.atomic == "atomic_int" || ty.atomic == "atomic_uchar" || ty.atomic == "atomic_ullong" {
			models = allModels
		}
		cases = append(cases,
			syncCase{name: name, models: models, want: ncmc.Verified, src: fill(ty, add, old)},
			syncCase{name: name + "-lost-update", models: models, want: ncmc.Violation, msg: "atomic_load(&v) ==", src: fill(ty, lost, old)})
	}
	// A wrong old value (fetch-add returns the value before the add).
	cases = append(cases, syncCase{name: "atomic_int-wrong-old", models: allModels, want: ncmc.Violation, msg: "(B)13 && b == (B)13", src: strings.Replace(fill(types[5], add, "atomic_add_fetch_is_not_c11"), "assert(atomic_add_fetch_is_not_c11 == (B)12", "assert(atomic_fetch_add(&b, 1) == (B)13 /* OLD */", 1)})
	cases = append(cases,
		syncCase{name: "atomic_bool", models: allModels, want: ncmc.Verified, src: `
atomic_bool f = ATOMIC_VAR_INIT(0);
_Atomic _Bool g;
void *w(void *a) { atomic_store_explicit(&f, 1, memory_order_release); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	_Bool e = 0;
	int won = atomic_compare_exchange_strong(&f, &e, 1);
	pthread_join(t, 0);
	assert(atomic_load(&f) == 1 && (won || e == 1));
	assert(atomic_exchange(&g, 1) == 0 && atomic_exchange(&g, 0) == 1 && !g);
	return 0;
}`},
		syncCase{name: "atomic_bool-buggy", models: allModels, want: ncmc.Violation, msg: "won", src: `
atomic_bool f;
void *w(void *a) { atomic_store(&f, 1); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	_Bool e = 0;
	int won = atomic_compare_exchange_strong(&f, &e, 1);
	assert(won);
	return 0;
}`},
		syncCase{name: "atomic-pointer", models: allModels, want: ncmc.Verified, src: `
int arr[8];
_Atomic(int *) p = arr;
int *_Atomic q;
void *w(void *a) { atomic_fetch_add(&p, 2); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	int *o = atomic_fetch_add_explicit(&p, 3, memory_order_acq_rel);
	pthread_join(t, 0);
	assert(o == arr || o == arr + 2);
	assert(atomic_load(&p) == arr + 5);
	assert(atomic_fetch_sub(&p, 1) == arr + 5 && p == arr + 4);
	int *e = arr + 4;
	assert(atomic_compare_exchange_strong(&p, &e, arr) && p == arr);
	atomic_store(&q, &arr[1]); assert(atomic_exchange(&q, 0) == &arr[1] && q == 0);
	return 0;
}`},
		syncCase{name: "atomic-pointer-buggy", models: allModels, want: ncmc.Violation, msg: "o == arr", src: `
int arr[8];
_Atomic(int *) p = arr;
void *w(void *a) { atomic_fetch_add(&p, 2); return 0; }
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	int *o = atomic_fetch_add(&p, 3);
	assert(o == arr);
	return 0;
}`},
		// A test-and-set spin lock: under ra and rc11 a failed
		// test-and-set is a read-modify-write event the graph keeps, so
		// the spin loop runs into the loop bound there (docs/c.md); a
		// try-lock runs under every model.
		syncCase{name: "atomic_flag-spin", models: []string{"sc", "tso", "pso"}, want: ncmc.Verified, src: `
atomic_flag l = ATOMIC_FLAG_INIT;
int x;
void *w(void *a) {
	while (atomic_flag_test_and_set_explicit(&l, memory_order_acquire)) ;
	x++;
	atomic_flag_clear_explicit(&l, memory_order_release);
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	while (atomic_flag_test_and_set(&l)) ;
	x++;
	atomic_flag_clear(&l);
	pthread_join(t, 0);
	assert(x == 2 && !atomic_flag_test_and_set(&l));
	return 0;
}`},
		syncCase{name: "atomic_flag-trylock", models: allModels, want: ncmc.Verified, src: `
atomic_flag l = ATOMIC_FLAG_INIT;
int x, in;
void *w(void *a) {
	if (!atomic_flag_test_and_set_explicit(&l, memory_order_acquire)) {
		x++; in++;
		atomic_flag_clear_explicit(&l, memory_order_release);
	}
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (!atomic_flag_test_and_set(&l)) { x++; in++; atomic_flag_clear(&l); }
	pthread_join(t, 0);
	assert(x == in && x >= 1 && !atomic_flag_test_and_set(&l));
	return 0;
}`},
		syncCase{name: "atomic_flag-buggy", models: allModels, want: ncmc.Violation, msg: "x == 2", src: `
atomic_flag l = ATOMIC_FLAG_INIT;
int x;
void *w(void *a) {
	if (!atomic_flag_test_and_set(&l)) { x++; atomic_flag_clear(&l); }
	return 0;
}
int main(void) {
	pthread_t t; pthread_create(&t, 0, w, 0);
	if (!atomic_flag_test_and_set(&l)) { x++; atomic_flag_clear(&l); }
	pthread_join(t, 0);
	assert(x == 2);
	return 0;
}`},
	)
	runSyncCasesExact(t, cases)
}
