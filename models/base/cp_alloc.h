/*
 * Every allocation of the library goes through these wrappers, so a test
 * build can fail the N-th allocation (cp_alloc_fail_after) and check that
 * each path returns CP_ERR_NOMEM without leaking (SQLite's approach).
 * They return NULL on failure; they never abort.
 */
#ifndef CP_ALLOC_H
#define CP_ALLOC_H

#include <stddef.h>

void *cp_malloc(size_t n);
void *cp_calloc(size_t count, size_t size);
/* Fails (returns NULL, old block untouched) when count*size overflows. */
void *cp_reallocarray(void *p, size_t count, size_t size);
char *cp_strdup(const char *s);
char *cp_strndup(const char *s, size_t n);
void cp_free(void *p);

/* Test hook: fail every allocation after `n` more succeed; -1 disables. */
void cp_alloc_fail_after(long n);
long cp_alloc_count(void);

/* Grow *items (of *cap elements of `size` bytes) to hold at least `need`.
 * Returns 0 on success, -1 on out of memory (nothing changed). */
int cp_grow(void **items, size_t *cap, size_t need, size_t size);
#define CP_GROW(arr, cap, need) cp_grow((void **)&(arr), &(cap), (need), sizeof *(arr))

#endif
