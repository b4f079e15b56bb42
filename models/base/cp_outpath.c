/*
 * Output paths (see cp_outpath.h): resolving the file a write lands on,
 * and comparing files by device and inode.
 *
 * Why follow links by hand instead of realpath(): realpath() fails on a
 * dangling link, and what we need is only the last component (rename
 * works through directory links; it is the final link that rename would
 * replace). Why stop at /proc: its links are "magic" (/proc/self/fd/1
 * reads as "pipe:[123]" or names a file the shell opened for us), so the
 * only correct write is to open the link itself.
 */
#include "cp_outpath.h"

#include "cp_alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

static bool is_stdout_name(const char *p)
{
    return !strcmp(p, "-") || !strcmp(p, "/dev/stdout") || !strcmp(p, "/dev/fd/1") ||
           !strcmp(p, "/proc/self/fd/1");
}

static bool is_proc(const char *p)
{
    return !strncmp(p, "/proc/", 6) || !strncmp(p, "/dev/fd/", 8);
}

/* The folder part of p ("." when there is none). */
static char *dir_of(const char *p)
{
    const char *slash = strrchr(p, '/');
    if (!slash)
        return cp_strdup(".");
    if (slash == p)
        return cp_strdup("/");
    return cp_strndup(p, (size_t)(slash - p));
}

/* The target of link p, as a path usable from the current folder. */
static char *follow(const char *p, off_t size_hint, int *e)
{
    size_t cap = size_hint > 0 ? (size_t)size_hint + 1 : 256;
    char *t = NULL;
    for (;;) {
        char *nt = cp_reallocarray(t, cap, 1);
        if (!nt) {
            cp_free(t);
            *e = ENOMEM;
            return NULL;
        }
        t = nt;
        ssize_t n = readlink(p, t, cap);
        if (n < 0) {
            *e = errno;
            cp_free(t);
            return NULL;
        }
        if ((size_t)n < cap) {
            t[n] = '\0';
            break;
        }
        cap *= 2; /* the link changed under us or had no size: retry */
    }
    if (t[0] == '/' || !strchr(p, '/'))
        return t;
    char *dir = dir_of(p);
    size_t dl = dir ? strlen(dir) : 0, tl = strlen(t);
    char *full = dir ? cp_malloc(dl + 1 + tl + 1) : NULL;
    if (full) {
        memcpy(full, dir, dl);
        full[dl] = '/';
        memcpy(full + dl + 1, t, tl + 1);
    } else {
        *e = ENOMEM;
    }
    cp_free(dir);
    cp_free(t);
    return full;
}

int cp_outpath_resolve(const char *path, char **out, cp_out_kind *kind, cp_err *err)
{
    if (!path)
        path = "-";
    char *p = cp_strdup(path);
    if (!p)
        return cp_err_nomem(err);
    cp_out_kind k = CP_OUT_REPLACE;
    for (int hops = 0;; hops++) {
        if (is_stdout_name(p)) {
            k = CP_OUT_STDOUT;
            break;
        }
        if (is_proc(p)) {
            k = CP_OUT_INPLACE;
            break;
        }
        struct stat st;
        if (lstat(p, &st) != 0) /* a new file, or one the write will report */
            break;
        if (!S_ISLNK(st.st_mode)) {
            k = S_ISREG(st.st_mode) ? CP_OUT_REPLACE : CP_OUT_INPLACE;
            break;
        }
        int e = 0;
        char *t = hops < MAX_LINKS ? follow(p, st.st_size, &e) : NULL;
        if (!t) {
            cp_free(p);
            if (e == ENOMEM)
                return cp_err_nomem(err);
            return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                              strerror(e ? e : ELOOP));
        }
        cp_free(p);
        p = t;
    }
    *out = p;
    *kind = k;
    return CP_OK;
}

bool cp_outpath_exists(const char *path)
{
    char *p = NULL;
    cp_out_kind k;
    if (cp_outpath_resolve(path, &p, &k, NULL) != CP_OK)
        return false;
    struct stat st;
    bool yes = k == CP_OUT_REPLACE && lstat(p, &st) == 0;
    cp_free(p);
    return yes;
}

void cp_fileset_init(cp_fileset *s)
{
    memset(s, 0, sizeof *s);
}

void cp_fileset_release(cp_fileset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        cp_free(s->v[i].path);
        cp_free(s->v[i].role);
        cp_free(s->v[i].leaf);
    }
    cp_free(s->v);
    cp_fileset_init(s);
}

static int add(cp_fileset *s, const cp_fileset_item *it, const char *path, const char *role,
               cp_err *err)
{
    if (CP_GROW(s->v, s->cap, s->n + 1) != 0)
        return cp_err_nomem(err);
    cp_fileset_item *d = &s->v[s->n];
    *d = *it;
    d->path = cp_strdup(path);
    d->role = cp_strdup(role);
    if (!d->path || !d->role) {
        cp_free(d->path);
        cp_free(d->role);
        return cp_err_nomem(err);
    }
    s->n++;
    return CP_OK;
}

int cp_fileset_input(cp_fileset *s, const char *path, const char *role, cp_err *err)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return CP_OK;
    cp_fileset_item it = {NULL, NULL, st.st_dev, st.st_ino, NULL, false};
    return add(s, &it, path, role, err);
}

static bool same(const cp_fileset_item *a, const cp_fileset_item *b)
{
    if (a->dev != b->dev || a->ino != b->ino)
        return false;
    if (!a->leaf || !b->leaf)
        return !a->leaf && !b->leaf;
    return strcmp(a->leaf, b->leaf) == 0;
}

int cp_fileset_output(cp_fileset *s, const char *path, const char *role, cp_err *err)
{
    if (path && !path[0])
        return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                          "%s needs a file name, got an empty one ('-' is standard output)", role);
    char *p = NULL;
    cp_out_kind k;
    int rc = cp_outpath_resolve(path, &p, &k, err);
    if (rc != CP_OK)
        return rc;
    cp_fileset_item it = {NULL, NULL, 0, 0, NULL, true};
    struct stat st;
    if (k != CP_OUT_REPLACE) {
        rc = CP_OK; /* stdout, devices: writing them twice harms nothing */
        goto out;
    }
    if (stat(p, &st) == 0) {
        it.dev = st.st_dev;
        it.ino = st.st_ino;
    } else {
        char *dir = dir_of(p);
        const char *slash = strrchr(p, '/');
        it.leaf = cp_strdup(slash ? slash + 1 : p);
        if (!dir || !it.leaf) {
            cp_free(dir);
            cp_free(it.leaf);
            rc = cp_err_nomem(err);
            goto out;
        }
        int sr = stat(dir, &st);
        cp_free(dir);
        if (sr != 0) { /* the write will say why it cannot create the file */
            cp_free(it.leaf);
            rc = CP_OK;
            goto out;
        }
        it.dev = st.st_dev;
        it.ino = st.st_ino;
    }
    for (size_t i = 0; i < s->n; i++) {
        const cp_fileset_item *o = &s->v[i];
        if (!same(o, &it))
            continue;
        if (o->output)
            rc = cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                            "%s '%s' and %s '%s' are the same file: each output needs its own",
                            role, path, o->role, o->path);
        else
            rc = cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                            "%s '%s' is the %s '%s': refusing to overwrite an input", role, path,
                            o->role, o->path);
        cp_free(it.leaf);
        goto out;
    }
    rc = add(s, &it, path, role, err);
    if (rc != CP_OK)
        cp_free(it.leaf);
out:
    cp_free(p);
    return rc;
}
