/* ncmc's own C library headers: common part (see frontend/c/ownhdr.go).
   glibc's <features.h> defaults of an x86-64 glibc 2.36 host. A feature test
   macro defined by the program changes what glibc declares: the front end
   then uses the system headers (the #error makes it fall back). */
#ifndef _FEATURES_H
#if defined _GNU_SOURCE || defined _POSIX_C_SOURCE || defined _POSIX_SOURCE || defined _XOPEN_SOURCE \
	|| defined _XOPEN_SOURCE_EXTENDED || defined _DEFAULT_SOURCE || defined _BSD_SOURCE || defined _SVID_SOURCE \
	|| defined _ISOC99_SOURCE || defined _ISOC11_SOURCE || defined _ISOC2X_SOURCE || defined _LARGEFILE64_SOURCE \
	|| defined _FILE_OFFSET_BITS || defined _TIME_BITS || defined _REENTRANT || defined _THREAD_SAFE \
	|| defined _FORTIFY_SOURCE || defined _DYNAMIC_STACK_SIZE_SOURCE || defined __STRICT_ANSI__ || defined _ATFILE_SOURCE
#error "ncmc-own-headers: feature test macro (the system headers are used)"
#endif
#define _FEATURES_H 1
#define _DEFAULT_SOURCE 1
#define _ATFILE_SOURCE 1
#define _POSIX_SOURCE 1
#define _POSIX_C_SOURCE 200809L
#define __USE_ISOC11 1
#define __USE_ISOC99 1
#define __USE_ISOC95 1
#define __USE_POSIX_IMPLICITLY 1
#define __USE_POSIX 1
#define __USE_POSIX2 1
#define __USE_POSIX199309 1
#define __USE_POSIX199506 1
#define __USE_XOPEN2K 1
#define __USE_XOPEN2K8 1
#define __USE_MISC 1
#define __USE_ATFILE 1
#define __USE_FORTIFY_LEVEL 0
#define __GNU_LIBRARY__ 6
#define __GLIBC__ 2
#define __GLIBC_MINOR__ 36
#define __GLIBC_PREREQ(maj, min) ((__GLIBC__ << 16) + __GLIBC_MINOR__ >= ((maj) << 16) + (min))
#endif
