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
extern time_t time(time_t *__timer);
extern double difftime(time_t __time1, time_t __time0);
extern time_t mktime(struct tm *__tp);
extern size_t strftime(char *__restrict __s, size_t __maxsize, const char *__restrict __format, const struct tm *__restrict __tp);
extern struct tm *gmtime(const time_t *__timer);
extern struct tm *localtime(const time_t *__timer);
extern struct tm *gmtime_r(const time_t *__restrict __timer, struct tm *__restrict __tp);
extern struct tm *localtime_r(const time_t *__restrict __timer, struct tm *__restrict __tp);
extern char *asctime(const struct tm *__tp);
extern char *ctime(const time_t *__timer);
extern char *asctime_r(const struct tm *__restrict __tp, char *__restrict __buf);
extern char *ctime_r(const time_t *__restrict __timer, char *__restrict __buf);
extern char *tzname[2];
extern void tzset(void);
extern int daylight;
extern long int timezone;
extern time_t timegm(struct tm *__tp);
extern time_t timelocal(struct tm *__tp);
extern int dysize(int __year);
extern int nanosleep(const struct timespec *__requested_time, struct timespec *__remaining);
extern int clock_getres(clockid_t __clock_id, struct timespec *__res);
extern int clock_gettime(clockid_t __clock_id, struct timespec *__tp);
extern int clock_settime(clockid_t __clock_id, const struct timespec *__tp);
extern int clock_nanosleep(clockid_t __clock_id, int __flags, const struct timespec *__req, struct timespec *__rem);
extern int clock_getcpuclockid(pid_t __pid, clockid_t *__clock_id);
extern int timespec_get(struct timespec *__ts, int __base);
#endif
