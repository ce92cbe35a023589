// pthread mutex lock/trylock/unlock: a thread whose trylock fails skips
// its update; reach_error is reachable only if both trylocks succeed.
#include <pthread.h>
extern void abort(void);
void reach_error() { abort(); }

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0, y = 0;

void *t1(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    x = x + 1;
    y = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m);
  x = x + 2;
  pthread_mutex_unlock(&m);
  if (pthread_mutex_trylock(&m) == 0) {
    x = x + 4;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x == 7 && y == 1) {
    reach_error();
  }
  return 0;
}
