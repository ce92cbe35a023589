// __VERIFIER_atomic_* functions as a spin lock (assume blocks inside the
// atomic section until the lock is free) guarding a counter.
extern void abort(void);
void reach_error() { abort(); }
extern void __VERIFIER_assume(int);
#include <pthread.h>

int lk = 0, count = 0, seen = 0;

void __VERIFIER_atomic_acquire(void) {
  __VERIFIER_assume(lk == 0);
  lk = 1;
}

void __VERIFIER_atomic_release(void) {
  __VERIFIER_assume(lk == 1);
  lk = 0;
}

void *thr(void *arg) {
  __VERIFIER_atomic_acquire();
  int t = count;
  count = t + 1;
  if (count == 2) {
    seen = seen + 1;
  }
  __VERIFIER_atomic_release();
  return 0;
}

int main(void) {
  pthread_t a, b, d;
  pthread_create(&a, 0, thr, 0);
  pthread_create(&b, 0, thr, 0);
  pthread_create(&d, 0, thr, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(d, 0);
  if (count != 3 || seen != 1) {
    reach_error();
  }
  return 0;
}
