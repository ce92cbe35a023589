// pthread_exit in the middle of a thread (the rest does not run) and a
// thread that returns early; unreachable error.
extern void abort(void);
void reach_error() { abort(); }
#include <pthread.h>

int a = 0, b = 0;

void *t1(void *arg) {
  a = 1;
  pthread_exit(0);
  a = 5;
  return 0;
}

void *t2(void *arg) {
  if (a == 0) {
    return 0;
  }
  b = a;
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t1, 0);
  pthread_create(&y, 0, t2, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  if (a == 5 || b == 5) {
    reach_error();
  }
  return 0;
}
