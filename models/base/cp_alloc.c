/* Allocation wrappers with a fail-the-N-th hook for tests; see cp_alloc.h. */
#include "cp_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Thread-local so parallel scenario runs do not share the test counter. */
static _Thread_local long fail_after = -1;
static _Thread_local long count;

void cp_alloc_fail_after(long n)
{
    fail_after = n;
    count = 0;
}

long cp_alloc_count(void)
{
    return count;
}

static int should_fail(void)
{
    count++;
    if (fail_after < 0)
        return 0;
    if (fail_after == 0)
        return 1;
    fail_after--;
    return 0;
}

void *cp_malloc(size_t n)
{
    if (should_fail())
        return NULL;
    return malloc(n ? n : 1);
}

void *cp_calloc(size_t c, size_t s)
{
    if (should_fail())
        return NULL;
    return calloc(c ? c : 1, s ? s : 1);
}

void *cp_reallocarray(void *p, size_t c, size_t s)
{
    if (s && c > SIZE_MAX / s)
        return NULL;
    if (should_fail())
        return NULL;
    size_t n = c * s;
    return realloc(p, n ? n : 1);
}

char *cp_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = cp_malloc(len + 1);
    if (!d)
        return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *cp_strdup(const char *s)
{
    return cp_strndup(s, SIZE_MAX);
}

void cp_free(void *p)
{
    free(p);
}

int cp_grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 8;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    void *p = cp_reallocarray(*items, nc, size);
    if (!p)
        return -1;
    *items = p;
    *cap = nc;
    return 0;
}
