/* ncmc's own <stdio.h> (see frontend/c/ownhdr.go): glibc's, x86-64. FILE
   is incomplete here (glibc's struct _IO_FILE is not modelled: a program
   that needs its members gets the system header). */
#ifndef _STDIO_H
#define _STDIO_H 1
#include <_ncmc_features.h>
#define __need_size_t
#define __need_NULL
#include <stddef.h>
#define __need___va_list
#include <stdarg.h>
#define __ncmc_need_ssize_t
#define __ncmc_need_off_t
#include <_ncmc_types.h>

typedef struct _IO_FILE FILE;
typedef __gnuc_va_list va_list;

#define EOF (-1)
#define BUFSIZ 8192
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
#define P_tmpdir "/tmp"
#define L_tmpnam 20
#define TMP_MAX 238328
#define L_ctermid 9
#define FILENAME_MAX 4096
#define FOPEN_MAX 16

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

extern int remove(const char *);
extern int rename(const char *, const char *);
extern int fclose(FILE *);
extern FILE *tmpfile(void);
extern int fflush(FILE *);
extern FILE *fopen(const char *__restrict, const char *__restrict);
extern FILE *freopen(const char *__restrict, const char *__restrict, FILE *__restrict);
extern FILE *fdopen(int, const char *);
extern void setbuf(FILE *__restrict, char *__restrict);
extern int setvbuf(FILE *__restrict, char *__restrict, int, size_t);
extern int fprintf(FILE *__restrict, const char *__restrict, ...);
extern int printf(const char *__restrict, ...);
extern int sprintf(char *__restrict, const char *__restrict, ...);
extern int vfprintf(FILE *__restrict, const char *__restrict, __gnuc_va_list);
extern int vprintf(const char *__restrict, __gnuc_va_list);
extern int vsprintf(char *__restrict, const char *__restrict, __gnuc_va_list);
extern int snprintf(char *__restrict, size_t, const char *__restrict, ...);
extern int vsnprintf(char *__restrict, size_t, const char *__restrict, __gnuc_va_list);
extern int dprintf(int, const char *__restrict, ...);
extern int fscanf(FILE *__restrict, const char *__restrict, ...);
extern int scanf(const char *__restrict, ...);
extern int sscanf(const char *__restrict, const char *__restrict, ...);
extern int fgetc(FILE *);
extern int getc(FILE *);
extern int getchar(void);
extern int fputc(int, FILE *);
extern int putc(int, FILE *);
extern int putchar(int);
extern char *fgets(char *__restrict, int, FILE *__restrict);
extern ssize_t getline(char **__restrict, size_t *__restrict, FILE *__restrict);
extern int fputs(const char *__restrict, FILE *__restrict);
extern int puts(const char *);
extern int ungetc(int, FILE *);
extern size_t fread(void *__restrict, size_t, size_t, FILE *__restrict);
extern size_t fwrite(const void *__restrict, size_t, size_t, FILE *__restrict);
extern int fseek(FILE *, long int, int);
extern long int ftell(FILE *);
extern void rewind(FILE *);
extern void clearerr(FILE *);
extern int feof(FILE *);
extern int ferror(FILE *);
extern void perror(const char *);
extern int fileno(FILE *);
#endif
