// pthread condition variables: a consumer waits for two items; the
// producers signal (one) and broadcast (the other).
#include <pthread.h>
extern void abort(void);
void reach_error() { abort(); }

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items = 0, order = 0;

void *prod1(void *arg) {
  pthread_mutex_lock(&m);
  items = items + 1;
  order = order * 2 + 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

void *prod2(void *arg) {
  pthread_mutex_lock(&m);
  items = items + 1;
  order = order * 2;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

void *cons(void *arg) {
  pthread_mutex_lock(&m);
  while (items < 2) {
    pthread_cond_wait(&c, &m);
  }
  if (order == 2) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b, d;
  pthread_create(&d, 0, cons, 0);
  pthread_create(&a, 0, prod1, 0);
  pthread_create(&b, 0, prod2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(d, 0);
  return 0;
}
