/* Whole-file reading with one size limit; see cp_file.h. */
#include "cp_file.h"

#include "cp_alloc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define MIB (1024L * 1024)
/* The first buffer for a file of unknown size; it doubles from there. */
#define FIRST_CAP 65536

static int too_large(cp_err *err, cp_pos p, size_t max, long long size, bool known)
{
    if (known)
        return cp_err_set(err, CP_ERR_INPUT, p, "file is larger than %ld MiB (%lld bytes)",
                          (long)(max / MIB), size);
    return cp_err_set(err, CP_ERR_INPUT, p, "file is larger than %ld MiB (more than %zu bytes)",
                      (long)(max / MIB), max);
}

int cp_file_read(const char *path, const char *kind, char **text, size_t *len, cp_err *err)
{
    return cp_file_read_max(path, kind, (size_t)CP_FILE_MAX_BYTES, text, len, err);
}

int cp_file_read_max(const char *path, const char *kind, size_t max, char **text, size_t *len,
                     cp_err *err)
{
    cp_pos p = {path, 0, 0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return cp_err_set(err, CP_ERR_INPUT, p, "cannot open: %s", strerror(errno));
    int rc = CP_OK;
    char *buf = NULL;
    struct stat st;
    bool have_st = fstat(fileno(f), &st) == 0;
    if (have_st && S_ISDIR(st.st_mode)) {
        rc = kind ? cp_err_set(err, CP_ERR_INPUT, p, "is a directory, not a %s file", kind)
                  : cp_err_set(err, CP_ERR_INPUT, p, "is a directory");
        goto out;
    }
    bool regular = have_st && S_ISREG(st.st_mode);
    if (regular && (unsigned long long)st.st_size > max) {
        rc = too_large(err, p, max, (long long)st.st_size, true);
        goto out;
    }
    /* `cap` bytes of room for the contents, plus one for the NUL. A
     * regular file's size is only a first guess (it may grow while we
     * read): room for one byte more lets fread see the end without a
     * reallocation. Reading stops at max + 1 bytes: one past the limit
     * is enough to know. */
    size_t cap = regular ? (size_t)st.st_size + 1 : FIRST_CAP, n = 0;
    if (cap > max + 1)
        cap = max + 1;
    if (!(buf = cp_malloc(cap + 1))) {
        rc = cp_err_set(err, CP_ERR_NOMEM, p, "out of memory");
        goto out;
    }
    for (;;) {
        if (n == cap) {
            if (n > max) {
                rc = too_large(err, p, max, 0, false);
                goto out;
            }
            size_t nc = cap > (max + 1) / 2 ? max + 1 : cap * 2;
            char *nb = cp_reallocarray(buf, nc + 1, 1);
            if (!nb) {
                rc = cp_err_set(err, CP_ERR_NOMEM, p, "out of memory");
                goto out;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                rc = cp_err_set(err, CP_ERR_INPUT, p, "cannot read: %s", strerror(errno));
                goto out;
            }
            break;
        }
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    buf = NULL;
out:
    cp_free(buf);
    fclose(f);
    return rc;
}
