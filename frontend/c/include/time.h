/* ncmc's own <time.h> (see frontend/c/ownhdr.go): glibc's, x86-64. */
#ifndef _TIME_H
#define _TIME_H 1
#include <_ncmc_features.h>
#define __need_size_t
#define __need_NULL
#include <stddef.h>
#define __ncmc_need_time_t
#define __ncmc_need_clock_t
#define __ncmc_need_clockid_t
#define __ncmc_need_timer_t
#define __ncmc_need_pid_t
#include <_ncmc_types.h>

#ifdef __ILP32__
__extension__ typedef long long int __ncmc_syscall_slong_t;
#else
typedef long int __ncmc_syscall_slong_t;
#endif
struct timespec { time_t tv_sec; __ncmc_syscall_slong_t tv_nsec; };
struct tm {
	int tm_sec; int tm_min; int tm_hour; int tm_mday; int tm_mon; int tm_year;
	int tm_wday; int tm_yday; int tm_isdst;
	long int tm_gmtoff;
	const char *tm_zone;
};
struct itimerspec { struct timespec it_interval; struct timespec it_value; };

#define CLOCKS_PER_SEC ((clock_t) 1000000)
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9
#define CLOCK_TAI 11
#define TIMER_ABSTIME 1
#define TIME_UTC 1

extern clock_t clock(void);
extern time_t time(time_t *);
extern double difftime(time_t, time_t);
extern time_t mktime(struct tm *);
extern size_t strftime(char *__restrict, size_t, const char *__restrict, const struct tm *__restrict);
extern struct tm *gmtime(const time_t *);
extern struct tm *localtime(const time_t *);
extern struct tm *gmtime_r(const time_t *__restrict, struct tm *__restrict);
extern struct tm *localtime_r(const time_t *__restrict, struct tm *__restrict);
extern char *asctime(const struct tm *);
extern char *ctime(const time_t *);
extern char *asctime_r(const struct tm *__restrict, char *__restrict);
extern char *ctime_r(const time_t *__restrict, char *__restrict);
extern char *tzname[2];
extern void tzset(void);
extern int daylight;
extern long int timezone;
extern time_t timegm(struct tm *);
extern time_t timelocal(struct tm *);
extern int dysize(int);
extern int nanosleep(const struct timespec *, struct timespec *);
extern int clock_getres(clockid_t, struct timespec *);
extern int clock_gettime(clockid_t, struct timespec *);
extern int clock_settime(clockid_t, const struct timespec *);
extern int clock_nanosleep(clockid_t, int, const struct timespec *, struct timespec *);
extern int clock_getcpuclockid(pid_t, clockid_t *);
extern int timespec_get(struct timespec *, int);
#endif
