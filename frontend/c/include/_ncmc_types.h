/* ncmc's own C library headers: the types several glibc headers declare
   (x86-64: LP64, or the x32 ABI under ILP32). Like gcc's <stddef.h>, this
   file declares what the includer asks for with __ncmc_need_X, each type
   once (under glibc's own guard macro where it has one). */
#include <_ncmc_features.h>

#ifdef __ncmc_need_time_t
# undef __ncmc_need_time_t
# ifndef __time_t_defined
#  define __time_t_defined 1
#  ifdef __ILP32__
__extension__ typedef long long int time_t;
#  else
typedef long int time_t;
#  endif
# endif
#endif

#ifdef __ncmc_need_clock_t
# undef __ncmc_need_clock_t
# ifndef __clock_t_defined
#  define __clock_t_defined 1
#  ifdef __ILP32__
__extension__ typedef long long int clock_t;
#  else
typedef long int clock_t;
#  endif
# endif
#endif

#ifdef __ncmc_need_clockid_t
# undef __ncmc_need_clockid_t
# ifndef __clockid_t_defined
#  define __clockid_t_defined 1
typedef int clockid_t;
# endif
#endif

#ifdef __ncmc_need_timer_t
# undef __ncmc_need_timer_t
# ifndef __timer_t_defined
#  define __timer_t_defined 1
typedef void *timer_t;
# endif
#endif

#ifdef __ncmc_need_pid_t
# undef __ncmc_need_pid_t
# ifndef __pid_t_defined
#  define __pid_t_defined
typedef int pid_t;
# endif
#endif

#ifdef __ncmc_need_ssize_t
# undef __ncmc_need_ssize_t
# ifndef __ssize_t_defined
#  define __ssize_t_defined
#  ifdef __ILP32__
typedef int ssize_t;
#  else
typedef long int ssize_t;
#  endif
# endif
#endif

#ifdef __ncmc_need_off_t
# undef __ncmc_need_off_t
# ifndef __off_t_defined
#  define __off_t_defined
#  ifdef __ILP32__
__extension__ typedef long long int off_t;
#  else
typedef long int off_t;
#  endif
# endif
#endif

#ifdef __ncmc_need_intn_t
# undef __ncmc_need_intn_t
# ifndef _BITS_STDINT_INTN_H
#  define _BITS_STDINT_INTN_H 1
typedef signed char int8_t;
typedef signed short int int16_t;
typedef signed int int32_t;
#  ifdef __ILP32__
__extension__ typedef signed long long int int64_t;
#  else
typedef signed long int int64_t;
#  endif
# endif
#endif

/* The rest of <sys/types.h> that the front end declares. */
#ifdef __ncmc_need_sys_types
# undef __ncmc_need_sys_types
# ifndef _NCMC_SYS_TYPES
#  define _NCMC_SYS_TYPES 1
#  ifdef __ILP32__
__extension__ typedef long long int suseconds_t;
__extension__ typedef unsigned long long int u_int64_t;
#  else
typedef long int suseconds_t;
typedef unsigned long int u_int64_t;
#  endif
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef unsigned int id_t;
typedef int key_t;
typedef unsigned char u_int8_t;
typedef unsigned short int u_int16_t;
typedef unsigned int u_int32_t;
typedef unsigned char u_char;
typedef unsigned short int u_short;
typedef unsigned int u_int;
typedef unsigned long int u_long;
typedef unsigned long int ulong;
typedef unsigned short int ushort;
typedef unsigned int uint;
# endif
#endif

/* The pthread types: only their typedef names, sizes and alignments
   matter to the front end, which models them. */
#ifdef __ncmc_need_pthread_types
# undef __ncmc_need_pthread_types
# ifndef _BITS_PTHREADTYPES_COMMON_H
#  define _BITS_PTHREADTYPES_COMMON_H 1
#  ifdef __ILP32__
#   define __NCMC_SIZEOF_PTHREAD_MUTEX_T 32
#   define __NCMC_SIZEOF_PTHREAD_ATTR_T 32
#   define __NCMC_SIZEOF_PTHREAD_RWLOCK_T 44
#   define __NCMC_SIZEOF_PTHREAD_BARRIER_T 20
#  else
#   define __NCMC_SIZEOF_PTHREAD_MUTEX_T 40
#   define __NCMC_SIZEOF_PTHREAD_ATTR_T 56
#   define __NCMC_SIZEOF_PTHREAD_RWLOCK_T 56
#   define __NCMC_SIZEOF_PTHREAD_BARRIER_T 32
#  endif
typedef unsigned long int pthread_t;
typedef union { char __size[4]; int __align; } pthread_mutexattr_t;
typedef union { char __size[4]; int __align; } pthread_condattr_t;
typedef unsigned int pthread_key_t;
typedef int pthread_once_t;
union pthread_attr_t { char __size[__NCMC_SIZEOF_PTHREAD_ATTR_T]; long int __align; };
typedef union pthread_attr_t pthread_attr_t;
typedef union { char __size[__NCMC_SIZEOF_PTHREAD_MUTEX_T]; long int __align; } pthread_mutex_t;
typedef union { char __size[48]; __extension__ long long int __align; } pthread_cond_t;
typedef union { char __size[__NCMC_SIZEOF_PTHREAD_RWLOCK_T]; long int __align; } pthread_rwlock_t;
typedef union { char __size[8]; long int __align; } pthread_rwlockattr_t;
typedef volatile int pthread_spinlock_t;
typedef union { char __size[__NCMC_SIZEOF_PTHREAD_BARRIER_T]; long int __align; } pthread_barrier_t;
typedef union { char __size[4]; int __align; } pthread_barrierattr_t;
# endif
#endif
