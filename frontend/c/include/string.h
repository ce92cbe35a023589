/* ncmc's own <string.h> (see frontend/c/ownhdr.go): glibc's, x86-64,
   without the locale_t functions. */
#ifndef _STRING_H
#define _STRING_H 1
#include <_ncmc_features.h>
#define __need_size_t
#define __need_NULL
#include <stddef.h>

extern void *memcpy(void *__restrict, const void *__restrict, size_t);
extern void *memmove(void *, const void *, size_t);
extern void *memccpy(void *__restrict, const void *__restrict, int, size_t);
extern void *memset(void *, int, size_t);
extern int memcmp(const void *, const void *, size_t);
extern void *memchr(const void *, int, size_t);
extern char *strcpy(char *__restrict, const char *__restrict);
extern char *strncpy(char *__restrict, const char *__restrict, size_t);
extern char *strcat(char *__restrict, const char *__restrict);
extern char *strncat(char *__restrict, const char *__restrict, size_t);
extern int strcmp(const char *, const char *);
extern int strncmp(const char *, const char *, size_t);
extern int strcoll(const char *, const char *);
extern size_t strxfrm(char *__restrict, const char *__restrict, size_t);
extern char *strdup(const char *);
extern char *strndup(const char *, size_t);
extern char *strchr(const char *, int);
extern char *strrchr(const char *, int);
extern size_t strcspn(const char *, const char *);
extern size_t strspn(const char *, const char *);
extern char *strpbrk(const char *, const char *);
extern char *strstr(const char *, const char *);
extern char *strtok(char *__restrict, const char *__restrict);
extern char *strtok_r(char *__restrict, const char *__restrict, char **__restrict);
extern size_t strlen(const char *);
extern size_t strnlen(const char *, size_t);
extern char *strerror(int);
extern int bcmp(const void *, const void *, size_t);
extern void bcopy(const void *, void *, size_t);
extern void bzero(void *, size_t);
extern char *index(const char *, int);
extern char *rindex(const char *, int);
extern int ffs(int);
extern int ffsl(long int);
__extension__ extern int ffsll(long long int);
extern int strcasecmp(const char *, const char *);
extern int strncasecmp(const char *, const char *, size_t);
extern void explicit_bzero(void *, size_t);
extern char *strsep(char **__restrict, const char *__restrict);
extern char *strsignal(int);
extern char *stpcpy(char *__restrict, const char *__restrict);
extern char *stpncpy(char *__restrict, const char *__restrict, size_t);
#endif
