/*
 * export -o DIR: the exporter's files written as one set. Each file
 * alone is atomic (cp_write_file_atomic), but a set is not: a re-export
 * that failed half-way (a full disk) or was interrupted left a new
 * submit.sh beside old job scripts. So the files are written into a
 * folder beside DIR (DIR.tmp.XXXXXX, same file system), and only once
 * all are there does it take DIR's place:
 *
 *   - DIR absent: the folder is renamed to DIR;
 *   - DIR a folder: the two are exchanged in one rename (Linux's
 *     renameat2 RENAME_EXCHANGE); what the old DIR held that no export
 *     writes (Slurm's slurm-ID.out, the user's notes) is moved into the
 *     new DIR, and the old export's files are removed with the folder;
 *     where the exchange is not supported, each top-level entry is
 *     renamed into DIR instead, with signals blocked.
 *
 * A failure while writing removes the temporary folder and leaves DIR as
 * it was. A DIR given through a symbolic link is resolved first, so the
 * link stays and its target is replaced. docs/reliability.md, "Output
 * safety".
 */
#include "cp_export_dir.h"

#include "cp_atomic.h"
#include "cp_buf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/* The top-level names the exporters write (cp_export.h): the old export's
 * entries, removed when the new set takes DIR's place. */
static const char *const own_names[] = {"submit.sh", "jobs",     "launch.sh", "launch.md",
                                        "clusters",  "tasks",    "launch",    NULL};

/* Test hook: CP_EXPORT_FAIL_AFTER=N makes the N+1-th file's write fail,
 * as a full disk would (tests/suite_hostile.sh). */
static long fail_after(void)
{
    const char *s = getenv("CP_EXPORT_FAIL_AFTER");
    return s && *s ? strtol(s, NULL, 10) : -1;
}

static bool is_own(const char *name)
{
    for (int i = 0; own_names[i]; i++)
        if (!strcmp(name, own_names[i]))
            return true;
    return false;
}

/* Removes path: a file, or a folder of files and folders of files (what
 * an export writes; two levels at most). */
static void remove_tree(const char *path, int depth)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode) || depth > 2) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        cp_buf p;
        cp_buf_init(&p);
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            cp_buf_reset(&p);
            cp_buf_printf(&p, "%s/%s", path, e->d_name);
            if (cp_buf_ok(&p))
                remove_tree(p.s, depth + 1);
        }
        cp_buf_release(&p);
        closedir(d);
    }
    rmdir(path);
}

static int write_into(const char *dir, const cp_export *x)
{
    cp_buf path;
    cp_buf_init(&path);
    int status = 0;
    long fail = fail_after();
    for (int i = 0; i < x->n && !status; i++) {
        const cp_export_file *f = &x->files[i];
        const char *slash = strchr(f->name, '/');
        if (slash) {
            cp_buf_reset(&path);
            cp_buf_printf(&path, "%s/%.*s", dir, (int)(slash - f->name), f->name);
            if (cp_buf_ok(&path) && mkdir(path.s, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, "capplan export: cannot create '%s': %s\n", path.s, strerror(errno));
                status = 1;
                break;
            }
        }
        cp_buf_reset(&path);
        cp_buf_printf(&path, "%s/%s", dir, f->name);
        cp_err err;
        cp_err_init(&err);
        if (!cp_buf_ok(&path)) {
            fprintf(stderr, "capplan export: out of memory\n");
            status = 1;
        } else if (fail >= 0 && i >= fail) {
            fprintf(stderr, "capplan export: cannot write '%s': injected failure\n", path.s);
            status = 1;
        } else if (cp_write_file_atomic(path.s, f->text.s ? f->text.s : "", f->text.len, &err)) {
            cp_err_print(&err, stderr);
            status = 1;
        } else if (f->executable && chmod(path.s, 0755) != 0) {
            fprintf(stderr, "capplan export: cannot make '%s' executable: %s\n", path.s,
                    strerror(errno));
            status = 1;
        }
    }
    cp_buf_release(&path);
    return status;
}

/* After the exchange the old DIR is at `old`: what it held that no export
 * writes goes into the new DIR; the rest goes with `old`. */
static void keep_foreign(const char *old, const char *dir)
{
    DIR *d = opendir(old);
    if (!d)
        return;
    struct dirent *e;
    cp_buf a, b;
    cp_buf_init(&a);
    cp_buf_init(&b);
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || is_own(e->d_name))
            continue;
        cp_buf_reset(&a);
        cp_buf_reset(&b);
        cp_buf_printf(&a, "%s/%s", old, e->d_name);
        cp_buf_printf(&b, "%s/%s", dir, e->d_name);
        if (cp_buf_ok(&a) && cp_buf_ok(&b) && rename(a.s, b.s) != 0)
            fprintf(stderr, "capplan export: warning: '%s' stays in '%s': %s\n", e->d_name, old,
                    strerror(errno));
    }
    cp_buf_release(&a);
    cp_buf_release(&b);
    closedir(d);
}

/* Without an exchange: each of the new set's top-level entries renamed
 * into DIR (a folder of the old set removed first). */
static int move_each(const char *tmp, const char *dir)
{
    DIR *d = opendir(tmp);
    if (!d) {
        fprintf(stderr, "capplan export: cannot read '%s': %s\n", tmp, strerror(errno));
        return 1;
    }
    int status = 0;
    struct dirent *e;
    cp_buf a, b;
    cp_buf_init(&a);
    cp_buf_init(&b);
    while (!status && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        cp_buf_reset(&a);
        cp_buf_reset(&b);
        cp_buf_printf(&a, "%s/%s", tmp, e->d_name);
        cp_buf_printf(&b, "%s/%s", dir, e->d_name);
        if (!cp_buf_ok(&a) || !cp_buf_ok(&b)) {
            status = 1;
            break;
        }
        struct stat st;
        if (lstat(b.s, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(b.s, 0);
        if (rename(a.s, b.s) != 0) {
            fprintf(stderr, "capplan export: cannot move '%s' to '%s': %s\n", a.s, b.s,
                    strerror(errno));
            status = 1;
        }
    }
    cp_buf_release(&a);
    cp_buf_release(&b);
    closedir(d);
    return status;
}

/* Puts the complete set at `tmp` in DIR's place; 0 or 1. */
static int swap_in(const char *tmp, const char *dir)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    int status = 0;
    struct stat st;
    if (lstat(dir, &st) != 0 && errno == ENOENT) {
        if (rename(tmp, dir) != 0) {
            fprintf(stderr, "capplan export: cannot rename '%s' to '%s': %s\n", tmp, dir,
                    strerror(errno));
            status = 1;
        }
    } else if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
        chmod(dir, st.st_mode & 07777); /* the folder keeps its mode */
        keep_foreign(tmp, dir);
        remove_tree(tmp, 0);
    } else {
        status = move_each(tmp, dir);
        if (!status)
            remove_tree(tmp, 0);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return status;
}

int cp_export_write_dir(const char *dir_arg, const cp_export *x)
{
    /* DIR through a link: its target is what is replaced */
    char real[PATH_MAX];
    struct stat st;
    const char *dir = dir_arg;
    if (lstat(dir_arg, &st) == 0 && S_ISLNK(st.st_mode) && realpath(dir_arg, real))
        dir = real;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "capplan export: error: '%s' is not a folder\n", dir_arg);
        return 1;
    }
    cp_buf tmp;
    cp_buf_init(&tmp);
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    cp_buf_printf(&tmp, "%.*s.tmp.XXXXXX", (int)len, dir);
    if (!cp_buf_ok(&tmp)) {
        fprintf(stderr, "capplan export: out of memory\n");
        cp_buf_release(&tmp);
        return 1;
    }
    if (!mkdtemp(tmp.s)) {
        fprintf(stderr, "capplan export: cannot create a folder beside '%s': %s\n", dir_arg,
                strerror(errno));
        cp_buf_release(&tmp);
        return 1;
    }
    /* mkdtemp's 0700 would become DIR's mode: a folder's usual one instead */
    mode_t um = umask(0);
    umask(um);
    chmod(tmp.s, 0777 & ~um);
    int status = write_into(tmp.s, x);
    if (!status)
        status = swap_in(tmp.s, dir);
    if (status)
        remove_tree(tmp.s, 0);
    cp_buf_release(&tmp);
    return status;
}
