/* ncmc's own <assert.h> (see frontend/c/ownhdr.go): glibc's assert macro,
   which the front end translates through __assert_fail. */
#include <_ncmc_features.h>
#ifdef _ASSERT_H
# undef _ASSERT_H
# undef assert
#endif
#define _ASSERT_H 1
#ifdef NDEBUG
# define assert(expr) ((void) (0))
#else
#ifndef _ASSERT_H_DECLS
#define _ASSERT_H_DECLS
extern void __assert_fail(const char *__assertion, const char *__file, unsigned int __line, const char *__function);
extern void __assert_perror_fail(int __errnum, const char *__file, unsigned int __line, const char *__function);
extern void __assert(const char *__assertion, const char *__file, int __line);
#endif
# define assert(expr) ((void) sizeof ((expr) ? 1 : 0), __extension__ ({ if (expr) ; else __assert_fail (#expr, __FILE__, __LINE__, __extension__ __PRETTY_FUNCTION__); }))
#endif
#undef static_assert
#define static_assert _Static_assert
