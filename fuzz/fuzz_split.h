/*
 * The layout of the harnesses that take several input files (fuzz_load,
 * fuzz_roundtrip, fuzz_export): the bytes are up to `max` files separated
 * by a line "--8<--" (tests/suite_fuzzregress.sh splits load/ inputs the
 * same way). A header, not a harness: FUZZERS is fuzz/fuzz_*.c.
 */
#ifndef CP_FUZZ_SPLIT_H
#define CP_FUZZ_SPLIT_H

#include <stddef.h>
#include <string.h>

/* Cuts the NUL-terminated `text` of `size` bytes into part[i], len[i]
 * (each file keeps the newline before its cut); returns how many. */
static int fuzz_split(const char *text, size_t size, int max, const char **part, size_t *len)
{
    int n = 0;
    const char *p = text, *end = text + size;
    while (n < max) {
        const char *cut = n + 1 < max ? strstr(p, "\n--8<--\n") : NULL;
        if (cut && cut >= end)
            cut = NULL;
        part[n] = p;
        len[n] = cut ? (size_t)(cut - p) + 1 : (size_t)(end - p);
        n++;
        if (!cut)
            break;
        p = cut + 8;
    }
    return n;
}

#endif
