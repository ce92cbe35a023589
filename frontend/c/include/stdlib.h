/* ncmc's own <stdlib.h> (see frontend/c/ownhdr.go): glibc's, x86-64. */
#ifndef _STDLIB_H
#define _STDLIB_H 1
#include <_ncmc_features.h>
#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#include <stddef.h>
/* what glibc's <stdlib.h> gets from <sys/types.h> */
#define __ncmc_need_time_t
#define __ncmc_need_clock_t
#define __ncmc_need_clockid_t
#define __ncmc_need_timer_t
#define __ncmc_need_pid_t
#define __ncmc_need_ssize_t
#define __ncmc_need_off_t
#define __ncmc_need_intn_t
#define __ncmc_need_sys_types
#define __ncmc_need_pthread_types
#include <_ncmc_types.h>

typedef struct { int quot; int rem; } div_t;
typedef struct { long int quot; long int rem; } ldiv_t;
__extension__ typedef struct { long long int quot; long long int rem; } lldiv_t;

#define RAND_MAX 2147483647
#define EXIT_FAILURE 1
#define EXIT_SUCCESS 0

extern double atof(const char *);
extern int atoi(const char *);
extern long int atol(const char *);
__extension__ extern long long int atoll(const char *);
extern double strtod(const char *__restrict, char **__restrict);
extern float strtof(const char *__restrict, char **__restrict);
extern long double strtold(const char *__restrict, char **__restrict);
extern long int strtol(const char *__restrict, char **__restrict, int);
extern unsigned long int strtoul(const char *__restrict, char **__restrict, int);
__extension__ extern long long int strtoll(const char *__restrict, char **__restrict, int);
__extension__ extern unsigned long long int strtoull(const char *__restrict, char **__restrict, int);
extern long int random(void);
extern void srandom(unsigned int);
extern int rand(void);
extern void srand(unsigned int);
extern int rand_r(unsigned int *);
extern double drand48(void);
extern long int lrand48(void);
extern long int mrand48(void);
extern void srand48(long int);
extern void *malloc(size_t);
extern void *calloc(size_t, size_t);
extern void *realloc(void *, size_t);
extern void free(void *);
extern void *reallocarray(void *, size_t, size_t);
extern void *alloca(size_t);
#define alloca(size) __builtin_alloca (size)
extern void *valloc(size_t);
extern int posix_memalign(void **, size_t, size_t);
extern void *aligned_alloc(size_t, size_t);
extern void abort(void);
extern int atexit(void (*)(void));
extern int at_quick_exit(void (*)(void));
extern void exit(int);
extern void quick_exit(int);
extern void _Exit(int);
extern char *getenv(const char *);
extern int setenv(const char *, const char *, int);
extern int unsetenv(const char *);
extern int system(const char *);
typedef int (*__compar_fn_t)(const void *, const void *);
extern void *bsearch(const void *, const void *, size_t, size_t, __compar_fn_t);
extern void qsort(void *, size_t, size_t, __compar_fn_t);
extern int abs(int);
extern long int labs(long int);
__extension__ extern long long int llabs(long long int);
extern div_t div(int, int);
extern ldiv_t ldiv(long int, long int);
__extension__ extern lldiv_t lldiv(long long int, long long int);
#endif
