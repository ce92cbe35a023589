/* ncmc's own <pthread.h> (see frontend/c/ownhdr.go): glibc's, x86-64,
   with what glibc's includes of <sched.h> and <time.h> declare. */
#ifndef _PTHREAD_H
#define _PTHREAD_H 1
#include <_ncmc_features.h>
#define __ncmc_need_pthread_types
#include <_ncmc_types.h>
#include <time.h>

/* <sched.h> */
struct sched_param { int sched_priority; };
#define sched_priority sched_priority
#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2
extern int sched_setparam(pid_t, const struct sched_param *);
extern int sched_getparam(pid_t, struct sched_param *);
extern int sched_setscheduler(pid_t, int, const struct sched_param *);
extern int sched_getscheduler(pid_t);
extern int sched_yield(void);
extern int sched_get_priority_max(int);
extern int sched_get_priority_min(int);
extern int sched_rr_get_interval(pid_t, struct timespec *);

enum { PTHREAD_CREATE_JOINABLE, PTHREAD_CREATE_DETACHED };
#define PTHREAD_CREATE_JOINABLE PTHREAD_CREATE_JOINABLE
#define PTHREAD_CREATE_DETACHED PTHREAD_CREATE_DETACHED
enum {
	PTHREAD_MUTEX_TIMED_NP, PTHREAD_MUTEX_RECURSIVE_NP, PTHREAD_MUTEX_ERRORCHECK_NP, PTHREAD_MUTEX_ADAPTIVE_NP,
	PTHREAD_MUTEX_NORMAL = PTHREAD_MUTEX_TIMED_NP, PTHREAD_MUTEX_RECURSIVE = PTHREAD_MUTEX_RECURSIVE_NP,
	PTHREAD_MUTEX_ERRORCHECK = PTHREAD_MUTEX_ERRORCHECK_NP, PTHREAD_MUTEX_DEFAULT = PTHREAD_MUTEX_NORMAL
};
enum { PTHREAD_MUTEX_STALLED, PTHREAD_MUTEX_STALLED_NP = PTHREAD_MUTEX_STALLED, PTHREAD_MUTEX_ROBUST, PTHREAD_MUTEX_ROBUST_NP = PTHREAD_MUTEX_ROBUST };
enum { PTHREAD_PRIO_NONE, PTHREAD_PRIO_INHERIT, PTHREAD_PRIO_PROTECT };
#define PTHREAD_MUTEX_INITIALIZER { { 0 } }
enum {
	PTHREAD_RWLOCK_PREFER_READER_NP, PTHREAD_RWLOCK_PREFER_WRITER_NP, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
	PTHREAD_RWLOCK_DEFAULT_NP = PTHREAD_RWLOCK_PREFER_READER_NP
};
#define PTHREAD_RWLOCK_INITIALIZER { { 0 } }
enum { PTHREAD_INHERIT_SCHED, PTHREAD_EXPLICIT_SCHED };
#define PTHREAD_INHERIT_SCHED PTHREAD_INHERIT_SCHED
#define PTHREAD_EXPLICIT_SCHED PTHREAD_EXPLICIT_SCHED
enum { PTHREAD_SCOPE_SYSTEM, PTHREAD_SCOPE_PROCESS };
#define PTHREAD_SCOPE_SYSTEM PTHREAD_SCOPE_SYSTEM
#define PTHREAD_SCOPE_PROCESS PTHREAD_SCOPE_PROCESS
enum { PTHREAD_PROCESS_PRIVATE, PTHREAD_PROCESS_SHARED };
#define PTHREAD_PROCESS_PRIVATE PTHREAD_PROCESS_PRIVATE
#define PTHREAD_PROCESS_SHARED PTHREAD_PROCESS_SHARED
#define PTHREAD_COND_INITIALIZER { { 0 } }
enum { PTHREAD_CANCEL_ENABLE, PTHREAD_CANCEL_DISABLE };
#define PTHREAD_CANCEL_ENABLE PTHREAD_CANCEL_ENABLE
#define PTHREAD_CANCEL_DISABLE PTHREAD_CANCEL_DISABLE
enum { PTHREAD_CANCEL_DEFERRED, PTHREAD_CANCEL_ASYNCHRONOUS };
#define PTHREAD_CANCEL_DEFERRED PTHREAD_CANCEL_DEFERRED
#define PTHREAD_CANCEL_ASYNCHRONOUS PTHREAD_CANCEL_ASYNCHRONOUS
#define PTHREAD_CANCELED ((void *) -1)
#define PTHREAD_ONCE_INIT 0
#define PTHREAD_BARRIER_SERIAL_THREAD -1

extern int pthread_create(pthread_t *__restrict, const pthread_attr_t *__restrict, void *(*)(void *), void *__restrict);
extern void pthread_exit(void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_detach(pthread_t);
extern pthread_t pthread_self(void);
extern int pthread_equal(pthread_t, pthread_t);
extern int pthread_attr_init(pthread_attr_t *);
extern int pthread_attr_destroy(pthread_attr_t *);
extern int pthread_attr_getdetachstate(const pthread_attr_t *, int *);
extern int pthread_attr_setdetachstate(pthread_attr_t *, int);
extern int pthread_attr_getguardsize(const pthread_attr_t *, size_t *);
extern int pthread_attr_setguardsize(pthread_attr_t *, size_t);
extern int pthread_attr_getschedparam(const pthread_attr_t *__restrict, struct sched_param *__restrict);
extern int pthread_attr_setschedparam(pthread_attr_t *__restrict, const struct sched_param *__restrict);
extern int pthread_attr_getschedpolicy(const pthread_attr_t *__restrict, int *__restrict);
extern int pthread_attr_setschedpolicy(pthread_attr_t *, int);
extern int pthread_attr_getinheritsched(const pthread_attr_t *__restrict, int *__restrict);
extern int pthread_attr_setinheritsched(pthread_attr_t *, int);
extern int pthread_attr_getscope(const pthread_attr_t *__restrict, int *__restrict);
extern int pthread_attr_setscope(pthread_attr_t *, int);
extern int pthread_attr_getstackaddr(const pthread_attr_t *__restrict, void **__restrict);
extern int pthread_attr_setstackaddr(pthread_attr_t *, void *);
extern int pthread_attr_getstacksize(const pthread_attr_t *__restrict, size_t *__restrict);
extern int pthread_attr_setstacksize(pthread_attr_t *, size_t);
extern int pthread_attr_getstack(const pthread_attr_t *__restrict, void **__restrict, size_t *__restrict);
extern int pthread_attr_setstack(pthread_attr_t *, void *, size_t);
extern int pthread_setschedparam(pthread_t, int, const struct sched_param *);
extern int pthread_getschedparam(pthread_t, int *__restrict, struct sched_param *__restrict);
extern int pthread_setschedprio(pthread_t, int);
extern int pthread_once(pthread_once_t *, void (*)(void));
extern int pthread_setcancelstate(int, int *);
extern int pthread_setcanceltype(int, int *);
extern int pthread_cancel(pthread_t);
extern void pthread_testcancel(void);
extern int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
extern int pthread_mutex_destroy(pthread_mutex_t *);
extern int pthread_mutex_trylock(pthread_mutex_t *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_timedlock(pthread_mutex_t *__restrict, const struct timespec *__restrict);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int pthread_mutex_getprioceiling(const pthread_mutex_t *__restrict, int *__restrict);
extern int pthread_mutex_setprioceiling(pthread_mutex_t *__restrict, int, int *__restrict);
extern int pthread_mutex_consistent(pthread_mutex_t *);
extern int pthread_mutexattr_init(pthread_mutexattr_t *);
extern int pthread_mutexattr_destroy(pthread_mutexattr_t *);
extern int pthread_mutexattr_getpshared(const pthread_mutexattr_t *__restrict, int *__restrict);
extern int pthread_mutexattr_setpshared(pthread_mutexattr_t *, int);
extern int pthread_mutexattr_gettype(const pthread_mutexattr_t *__restrict, int *__restrict);
extern int pthread_mutexattr_settype(pthread_mutexattr_t *, int);
extern int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *__restrict, int *__restrict);
extern int pthread_mutexattr_setprotocol(pthread_mutexattr_t *, int);
extern int pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *__restrict, int *__restrict);
extern int pthread_mutexattr_setprioceiling(pthread_mutexattr_t *, int);
extern int pthread_mutexattr_getrobust(const pthread_mutexattr_t *, int *);
extern int pthread_mutexattr_setrobust(pthread_mutexattr_t *, int);
extern int pthread_rwlock_init(pthread_rwlock_t *__restrict, const pthread_rwlockattr_t *__restrict);
extern int pthread_rwlock_destroy(pthread_rwlock_t *);
extern int pthread_rwlock_rdlock(pthread_rwlock_t *);
extern int pthread_rwlock_tryrdlock(pthread_rwlock_t *);
extern int pthread_rwlock_timedrdlock(pthread_rwlock_t *__restrict, const struct timespec *__restrict);
extern int pthread_rwlock_wrlock(pthread_rwlock_t *);
extern int pthread_rwlock_trywrlock(pthread_rwlock_t *);
extern int pthread_rwlock_timedwrlock(pthread_rwlock_t *__restrict, const struct timespec *__restrict);
extern int pthread_rwlock_unlock(pthread_rwlock_t *);
extern int pthread_rwlockattr_init(pthread_rwlockattr_t *);
extern int pthread_rwlockattr_destroy(pthread_rwlockattr_t *);
extern int pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *__restrict, int *__restrict);
extern int pthread_rwlockattr_setpshared(pthread_rwlockattr_t *, int);
extern int pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *__restrict, int *__restrict);
extern int pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *, int);
extern int pthread_cond_init(pthread_cond_t *__restrict, const pthread_condattr_t *__restrict);
extern int pthread_cond_destroy(pthread_cond_t *);
extern int pthread_cond_signal(pthread_cond_t *);
extern int pthread_cond_broadcast(pthread_cond_t *);
extern int pthread_cond_wait(pthread_cond_t *__restrict, pthread_mutex_t *__restrict);
extern int pthread_cond_timedwait(pthread_cond_t *__restrict, pthread_mutex_t *__restrict, const struct timespec *__restrict);
extern int pthread_condattr_init(pthread_condattr_t *);
extern int pthread_condattr_destroy(pthread_condattr_t *);
extern int pthread_condattr_getpshared(const pthread_condattr_t *__restrict, int *__restrict);
extern int pthread_condattr_setpshared(pthread_condattr_t *, int);
extern int pthread_condattr_getclock(const pthread_condattr_t *__restrict, clockid_t *__restrict);
extern int pthread_condattr_setclock(pthread_condattr_t *, clockid_t);
extern int pthread_spin_init(pthread_spinlock_t *, int);
extern int pthread_spin_destroy(pthread_spinlock_t *);
extern int pthread_spin_lock(pthread_spinlock_t *);
extern int pthread_spin_trylock(pthread_spinlock_t *);
extern int pthread_spin_unlock(pthread_spinlock_t *);
extern int pthread_barrier_init(pthread_barrier_t *__restrict, const pthread_barrierattr_t *__restrict, unsigned int);
extern int pthread_barrier_destroy(pthread_barrier_t *);
extern int pthread_barrier_wait(pthread_barrier_t *);
extern int pthread_barrierattr_init(pthread_barrierattr_t *);
extern int pthread_barrierattr_destroy(pthread_barrierattr_t *);
extern int pthread_barrierattr_getpshared(const pthread_barrierattr_t *__restrict, int *__restrict);
extern int pthread_barrierattr_setpshared(pthread_barrierattr_t *, int);
extern int pthread_key_create(pthread_key_t *, void (*)(void *));
extern int pthread_key_delete(pthread_key_t);
extern void *pthread_getspecific(pthread_key_t);
extern int pthread_setspecific(pthread_key_t, const void *);
extern int pthread_getcpuclockid(pthread_t, clockid_t *);
extern int pthread_atfork(void (*)(void), void (*)(void), void (*)(void));
#endif
