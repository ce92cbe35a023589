package c

import (
	"errors"
	"strings"
	"testing"

	"ncmc/ncmc"
)

// TestThreadKeys gives pthread's and C11's thread-specific keys their
// meaning: every thread starts with NULL for every key, a thread sees only
// its own values, keys created by different threads differ, more than
// maxKeys keys are a bound hit (unknown, never a verdict).
func TestThreadKeys(t *testing.T) {
	all := []string{"sc", "tso", "rc11"}
	runSyncCases(t, []syncCase{
		{name: "own-values", models: all, want: ncmc.Verified, src: `
pthread_key_t k; int a, b;
void *f(void *arg) {
	assert(pthread_getspecific(k) == NULL);
	assert(pthread_setspecific(k, arg) == 0);
	assert(pthread_getspecific(k) == arg);
	return NULL;
}
int main(void) {
	pthread_key_create(&k, NULL);
	pthread_setspecific(k, &b);
	pthread_t t1, t2;
	pthread_create(&t1, NULL, f, &a); pthread_create(&t2, NULL, f, &b);
	pthread_join(t1, NULL); pthread_join(t2, NULL);
	assert(pthread_getspecific(k) == &b);
	pthread_key_delete(k);
	return 0;
}`},
		{name: "other-thread-value-buggy", models: all, want: ncmc.Violation, msg: "== &a", src: `
pthread_key_t k; int a, b;
void *f(void *arg) { pthread_setspecific(k, arg); return NULL; }
int main(void) {
	pthread_key_create(&k, NULL);
	pthread_t t; pthread_create(&t, NULL, f, &a); pthread_join(t, NULL);
	assert(pthread_getspecific(k) == &a);
	return 0;
}`},
		{name: "keys-created-by-threads-differ", models: all, want: ncmc.Verified, src: `
pthread_key_t k1, k2;
void *f(void *arg) { pthread_key_create((pthread_key_t *)arg, NULL); return NULL; }
int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, NULL, f, &k1); pthread_create(&t2, NULL, f, &k2);
	pthread_join(t1, NULL); pthread_join(t2, NULL);
	assert(k1 != k2);
	int x;
	pthread_setspecific(k1, &x);
	assert(pthread_getspecific(k2) == NULL && pthread_getspecific(k1) == &x);
	return 0;
}`},
		{name: "c11-tss", models: all, want: ncmc.Verified, src: `
#include <threads.h>
tss_t k1, k2; int a, b;
int f(void *arg) {
	assert(tss_get(k1) == NULL);
	assert(tss_set(k1, arg) == thrd_success);
	tss_set(k2, &b);
	assert(tss_get(k1) == arg && tss_get(k2) == &b);
	return 0;
}
int main(void) {
	assert(tss_create(&k1, NULL) == thrd_success);
	tss_create(&k2, NULL);
	thrd_t t; thrd_create(&t, f, &a); thrd_join(t, NULL);
	assert(tss_get(k1) == NULL);
	tss_delete(k1);
	return 0;
}`},
		{name: "c11-tss-buggy", models: all, want: ncmc.Violation, src: `
#include <threads.h>
tss_t k; int a;
int f(void *arg) { tss_set(k, arg); return 0; }
int main(void) {
	tss_create(&k, NULL);
	thrd_t t; thrd_create(&t, f, &a); thrd_join(t, NULL);
	assert(tss_get(k) == &a);
	return 0;
}`},
		{name: "too-many-keys", models: all, unroll: 20, want: ncmc.Unknown, msg: "bound", src: `
pthread_key_t k[9];
int main(void) { for (int i = 0; i < 9; i++) pthread_key_create(&k[i], NULL); return 0; }`},
	})
}

// TestThreadKeyDestructor: a key destructor is unsupported, with its
// position.
func TestThreadKeyDestructor(t *testing.T) {
	src := syncPrelude + `
pthread_key_t k;
void d(void *p) { free(p); }
int main(void) { pthread_key_create(&k, d); return 0; }
`
	_, err := Compile("t.c", []byte(src), Options{})
	var u *Unsupported
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "t.c:9:") || !strings.Contains(err.Error(), "destructor") {
		t.Fatalf("got %v, want unsupported: ... destructor at t.c:9", err)
	}
}
