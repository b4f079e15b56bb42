/* The "did you mean" rule; see cp_suggest.h. */
#include "cp_suggest.h"

#include <string.h>

/* Longer words are never near anything: a fixed table, no allocation. */
#define MAX_LEN 40

int cp_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAX_LEN || lb > MAX_LEN)
        return 99;
    int d[MAX_LEN + 1][MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            int m = sub < del ? sub : del;
            d[i][j] = m < ins ? m : ins;
        }
    return d[la][lb];
}

const char *cp_suggest(const char *word, const char *const *cands)
{
    const char *best = NULL;
    int best_d = 3; /* at most two edits */
    for (const char *const *p = cands; *p; p++) {
        int dd = cp_edit_distance(*p, word);
        if (dd > 0 && dd < best_d) {
            best_d = dd;
            best = *p;
        }
    }
    size_t len = strlen(word);
    for (const char *const *p = cands; !best && len >= 4 && *p; p++)
        if (!strncmp(*p, word, len) && strlen(*p) > len)
            best = *p;
    return best;
}
