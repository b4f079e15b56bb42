/*
 * Positioned messages (cp_msg.h). The sort is a bottom-up merge sort
 * over whole records: stable without a sequence number per record, and
 * O(n log n) for the plans of thousands of jobs whose every entry may
 * carry a message.
 */
#include "cp_msg.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

char *cp_msg_vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int len = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = len >= 0 ? cp_malloc((size_t)len + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)len + 1, fmt, ap);
    return s;
}

static bool before(const char *a, const char *b, size_t pos_off)
{
    cp_pos x, y;
    memcpy(&x, a + pos_off, sizeof x);
    memcpy(&y, b + pos_off, sizeof y);
    return x.line < y.line || (x.line == y.line && x.col < y.col);
}

int cp_msg_sort(void *items, size_t n, size_t size, size_t pos_off)
{
    if (n < 2)
        return CP_OK;
    char *tmp = cp_reallocarray(NULL, n, size);
    if (!tmp)
        return CP_ERR_NOMEM;
    char *src = items, *dst = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            /* the right run goes first only when strictly before: stable */
            while (i < mid && j < hi)
                if (before(src + j * size, src + i * size, pos_off))
                    memcpy(dst + k++ * size, src + j++ * size, size);
                else
                    memcpy(dst + k++ * size, src + i++ * size, size);
            memcpy(dst + k * size, src + i * size, (mid - i) * size);
            k += mid - i;
            memcpy(dst + k * size, src + j * size, (hi - j) * size);
        }
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != items)
        memcpy(items, src, n * size);
    cp_free(tmp);
    return CP_OK;
}
