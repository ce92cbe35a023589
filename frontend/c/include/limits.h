/* ncmc's own <limits.h> (see frontend/c/ownhdr.go): gcc's and glibc's,
   x86-64, without most of the POSIX limits. */
#ifndef _LIBC_LIMITS_H_
#define _LIBC_LIMITS_H_ 1
#include <_ncmc_features.h>
#define MB_LEN_MAX 16
#define CHAR_BIT __CHAR_BIT__
#define SCHAR_MAX __SCHAR_MAX__
#define SCHAR_MIN (-SCHAR_MAX - 1)
#define UCHAR_MAX (SCHAR_MAX * 2 + 1)
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MAX __SHRT_MAX__
#define SHRT_MIN (-SHRT_MAX - 1)
#define USHRT_MAX (SHRT_MAX * 2 + 1)
#define INT_MAX __INT_MAX__
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (INT_MAX * 2U + 1U)
#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-LONG_MAX - 1L)
#define ULONG_MAX (LONG_MAX * 2UL + 1UL)
#define LLONG_MAX __LONG_LONG_MAX__
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX (LLONG_MAX * 2ULL + 1ULL)
#ifdef __ILP32__
# define SSIZE_MAX INT_MAX
#else
# define SSIZE_MAX LONG_MAX
#endif
#define PATH_MAX 4096
#define NAME_MAX 255
#define PIPE_BUF 4096
#define PTHREAD_KEYS_MAX 1024
#define PTHREAD_STACK_MIN 16384
#define SEM_VALUE_MAX (2147483647)
#endif
