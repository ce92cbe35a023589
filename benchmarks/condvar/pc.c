/* pc.c -- P producers and P consumers pass N items each through a one-slot
 * buffer guarded by m, with the condition variables nonempty and nonfull;
 * main checks the sum. For condition-variable runs side by side (docs/vmcr.md
 * "Condition variables under sc"): ncmc verify pc.c -DN=2 -DP=2 */
#include <pthread.h>
#include <assert.h>
#ifndef N
#define N 2
#endif
#ifndef P
#define P 2
#endif
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER, nonfull = PTHREAD_COND_INITIALIZER;
int buf, full, sum;
void *producer(void *arg) {
  for (int i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    while (full) pthread_cond_wait(&nonfull, &m);
    buf = i + 1; full = 1;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&m);
  }
  return 0;
}
void *consumer(void *arg) {
  for (int i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    while (!full) pthread_cond_wait(&nonempty, &m);
    sum += buf; full = 0;
    pthread_cond_signal(&nonfull);
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main() {
  pthread_mutex_init(&m, 0); pthread_cond_init(&nonempty, 0); pthread_cond_init(&nonfull, 0);
  pthread_t p[P], c[P];
  for (int i = 0; i < P; i++) { pthread_create(&p[i], 0, producer, 0); pthread_create(&c[i], 0, consumer, 0); }
  for (int i = 0; i < P; i++) { pthread_join(p[i], 0); pthread_join(c[i], 0); }
  assert(sum == P * N * (N + 1) / 2);
  return 0;
}
