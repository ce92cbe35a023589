// __VERIFIER_atomic_begin/end sections with a blocking assume inside and
// racy plain accesses outside; reach_error is reachable.
extern void abort(void);
void reach_error() { abort(); }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
#include <pthread.h>

int flag = 0, x = 0, y = 0;

void *waiter(void *arg) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(flag == 1);
  flag = 2;
  y = x;
  __VERIFIER_atomic_end();
  return 0;
}

void *setter(void *arg) {
  x = 1;
  __VERIFIER_atomic_begin();
  flag = 1;
  __VERIFIER_atomic_end();
  x = 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, setter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (y == 2) {
    reach_error();
  }
  return 0;
}
