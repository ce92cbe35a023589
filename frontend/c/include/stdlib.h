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

extern double atof(const char *__nptr);
extern int atoi(const char *__nptr);
extern long int atol(const char *__nptr);
__extension__ extern long long int atoll(const char *__nptr);
extern double strtod(const char *__restrict __nptr, char **__restrict __endptr);
extern float strtof(const char *__restrict __nptr, char **__restrict __endptr);
extern long double strtold(const char *__restrict __nptr, char **__restrict __endptr);
extern long int strtol(const char *__restrict __nptr, char **__restrict __endptr, int __base);
extern unsigned long int strtoul(const char *__restrict __nptr, char **__restrict __endptr, int __base);
__extension__ extern long long int strtoll(const char *__restrict __nptr, char **__restrict __endptr, int __base);
__extension__ extern unsigned long long int strtoull(const char *__restrict __nptr, char **__restrict __endptr, int __base);
extern long int random(void);
extern void srandom(unsigned int __seed);
extern int rand(void);
extern void srand(unsigned int __seed);
extern int rand_r(unsigned int *__seed);
extern double drand48(void);
extern long int lrand48(void);
extern long int mrand48(void);
extern void srand48(long int __seedval);
extern void *malloc(size_t __size);
extern void *calloc(size_t __nmemb, size_t __size);
extern void *realloc(void *__ptr, size_t __size);
extern void free(void *__ptr);
extern void *reallocarray(void *__ptr, size_t __nmemb, size_t __size);
extern void *alloca(size_t __size);
#define alloca(size) __builtin_alloca (size)
extern void *valloc(size_t __size);
extern int posix_memalign(void **__memptr, size_t __alignment, size_t __size);
extern void *aligned_alloc(size_t __alignment, size_t __size);
extern void abort(void);
extern int atexit(void (*__func)(void));
extern int at_quick_exit(void (*__func)(void));
extern void exit(int __status);
extern void quick_exit(int __status);
extern void _Exit(int __status);
extern char *getenv(const char *__name);
extern int setenv(const char *__name, const char *__value, int __replace);
extern int unsetenv(const char *__name);
extern int system(const char *__command);
typedef int (*__compar_fn_t)(const void *, const void *);
extern void *bsearch(const void *__key, const void *__base, size_t __nmemb, size_t __size, __compar_fn_t __compar);
extern void qsort(void *__base, size_t __nmemb, size_t __size, __compar_fn_t __compar);
extern int abs(int __x);
extern long int labs(long int __x);
__extension__ extern long long int llabs(long long int __x);
extern div_t div(int __numer, int __denom);
extern ldiv_t ldiv(long int __numer, long int __denom);
__extension__ extern lldiv_t lldiv(long long int __numer, long long int __denom);
#endif
