/* ncmc's own <string.h> (see frontend/c/ownhdr.go): glibc's, x86-64,
   without the locale_t functions. */
#ifndef _STRING_H
#define _STRING_H 1
#include <_ncmc_features.h>
#define __need_size_t
#define __need_NULL
#include <stddef.h>

extern void *memcpy(void *__restrict __dest, const void *__restrict __src, size_t __n);
extern void *memmove(void *__dest, const void *__src, size_t __n);
extern void *memccpy(void *__restrict __dest, const void *__restrict __src, int __c, size_t __n);
extern void *memset(void *__s, int __c, size_t __n);
extern int memcmp(const void *__s1, const void *__s2, size_t __n);
extern void *memchr(const void *__s, int __c, size_t __n);
extern char *strcpy(char *__restrict __dest, const char *__restrict __src);
extern char *strncpy(char *__restrict __dest, const char *__restrict __src, size_t __n);
extern char *strcat(char *__restrict __dest, const char *__restrict __src);
extern char *strncat(char *__restrict __dest, const char *__restrict __src, size_t __n);
extern int strcmp(const char *__s1, const char *__s2);
extern int strncmp(const char *__s1, const char *__s2, size_t __n);
extern int strcoll(const char *__s1, const char *__s2);
extern size_t strxfrm(char *__restrict __dest, const char *__restrict __src, size_t __n);
extern char *strdup(const char *__s);
extern char *strndup(const char *__string, size_t __n);
extern char *strchr(const char *__s, int __c);
extern char *strrchr(const char *__s, int __c);
extern size_t strcspn(const char *__s, const char *__reject);
extern size_t strspn(const char *__s, const char *__accept);
extern char *strpbrk(const char *__s, const char *__accept);
extern char *strstr(const char *__haystack, const char *__needle);
extern char *strtok(char *__restrict __s, const char *__restrict __delim);
extern char *strtok_r(char *__restrict __s, const char *__restrict __delim, char **__restrict __save_ptr);
extern size_t strlen(const char *__s);
extern size_t strnlen(const char *__string, size_t __maxlen);
extern char *strerror(int __errnum);
extern int bcmp(const void *__s1, const void *__s2, size_t __n);
extern void bcopy(const void *__src, void *__dest, size_t __n);
extern void bzero(void *__s, size_t __n);
extern char *index(const char *__s, int __c);
extern char *rindex(const char *__s, int __c);
extern int ffs(int __i);
extern int ffsl(long int __l);
__extension__ extern int ffsll(long long int __ll);
extern int strcasecmp(const char *__s1, const char *__s2);
extern int strncasecmp(const char *__s1, const char *__s2, size_t __n);
extern void explicit_bzero(void *__s, size_t __n);
extern char *strsep(char **__restrict __stringp, const char *__restrict __delim);
extern char *strsignal(int __sig);
extern char *stpcpy(char *__restrict __dest, const char *__restrict __src);
extern char *stpncpy(char *__restrict __dest, const char *__restrict __src, size_t __n);
#endif
