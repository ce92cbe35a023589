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
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
extern void __assert_perror_fail(int, const char *, unsigned int, const char *);
extern void __assert(const char *, const char *, int);
#endif
# define assert(expr) ((void) sizeof ((expr) ? 1 : 0), __extension__ ({ if (expr) ; else __assert_fail (#expr, __FILE__, __LINE__, __extension__ __PRETTY_FUNCTION__); }))
#endif
#undef static_assert
#define static_assert _Static_assert
