/*
 * Atomic output files (see cp_atomic.h): temp file, fsync, rename.
 *
 * A signal handler that wants to quit at once calls
 * cp_write_file_abandon(): it removes the temporary file of the write in
 * progress, so that an interrupted run leaves the target either as it
 * was or complete, and never a stray FILE.tmp.XXXXXX. The two steps that
 * change what is on disk (creating the temporary file and renaming it)
 * run with SIGINT, SIGTERM and SIGHUP blocked, so the handler never sees
 * a file that exists but is not recorded yet, nor a rename done but not
 * counted.
 *
 * Where the file system supports it (Linux's O_TMPFILE), the data is
 * written to an unnamed file in the target's folder and only gets a name
 * at the end (linkat), so even SIGKILL, which no handler sees, leaves no
 * stray file: a new target is linked into place directly, an existing one
 * through a temporary name that is renamed at once (both with signals
 * blocked). Elsewhere mkstemp's named file is the fallback.
 *
 * The target is the file a path resolves to (cp_outpath.h): a symbolic
 * link is followed and the file it names replaced, so the link stays a
 * link; an existing file keeps its permission bits (and, when we may,
 * its owner and group), a new one gets 0666 less the umask.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* O_TMPFILE and linkat's AT_SYMLINK_FOLLOW on /proc/self/fd */
#endif
#include "cp_atomic.h"

#include "cp_alloc.h"
#include "cp_outpath.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TMP_SUFFIX ".tmp.XXXXXX"

/* The temporary file of the write in progress (one at a time: the
 * program is single-threaded), and how many writes have finished. */
static char pending_path[4096 + sizeof TMP_SUFFIX];
static volatile sig_atomic_t pending;
static volatile sig_atomic_t commits;

long cp_write_file_abandon(void)
{
    if (pending) {
        unlink(pending_path);
        pending = 0;
    }
    return commits;
}

static void block_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigprocmask(SIG_BLOCK, &s, old);
}

static void restore_signals(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Standard output: the whole buffer, flushed, with the reason when the
 * stream fails (a full device, a closed descriptor, a pipe whose reader
 * left while SIGPIPE is ignored). */
static int to_stdout(const char *data, size_t len, cp_err *err)
{
    errno = 0;
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0 || ferror(stdout))
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write standard output: %s",
                          errno ? strerror(errno) : "write error");
    commits++;
    return CP_OK;
}

/* The directory part of path ("." when there is none), for the temp file
 * and for syncing the rename. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return cp_strdup(".");
    if (slash == path)
        return cp_strdup("/");
    return cp_strndup(path, (size_t)(slash - path));
}

/* Devices and pipes (-o /dev/null, -o /dev/stderr, a fifo) and /proc's
 * links are written in place: renaming over them would replace the
 * device with a file. */
static int to_special(const char *shown, const char *path, const char *data, size_t len,
                      cp_err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0 || write_all(fd, data, len) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", shown,
                          strerror(e));
    }
    if (close(fd) != 0)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", shown,
                          strerror(errno));
    commits++;
    return CP_OK;
}

/* An unnamed file in dir (O_TMPFILE), or -1 when the system or the file
 * system has none (the caller falls back to mkstemp). */
static int open_unnamed(const char *dir)
{
#ifdef O_TMPFILE
    return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
    (void)dir;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

/* Gives the unnamed file fd the name `to`: through /proc/self/fd (no
 * privilege needed), else AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH). */
static int link_unnamed(int fd, const char *to)
{
#ifdef O_TMPFILE
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno == EEXIST)
        return -1;
    return linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH);
#else
    (void)fd;
    (void)to;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

/* The suffix letters of a temporary name made without mkstemp. */
static void fill_suffix(char *x, unsigned long seed)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int i = 0; i < 6; i++) {
        x[i] = set[seed % (sizeof set - 1)];
        seed /= sizeof set - 1;
    }
}

/* Gives the finished unnamed file its place: linked as `path` when there
 * is none, else linked as a temporary name (tmp holds the template) and
 * renamed over path. Runs with signals blocked by the caller. */
static int place_unnamed(int fd, const char *path, char *tmp, size_t plen, bool exists)
{
    if (!exists) {
        if (link_unnamed(fd, path) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    static unsigned long counter;
    for (int tries = 0; tries < 100; tries++) {
        unsigned long seed = (unsigned long)getpid() * 2654435761UL + ++counter * 40503UL +
                             (unsigned long)tries * 977UL;
        fill_suffix(tmp + plen + sizeof TMP_SUFFIX - 7, seed);
        if (link_unnamed(fd, tmp) == 0) {
            memcpy(pending_path, tmp, plen + sizeof TMP_SUFFIX);
            pending = 1;
            if (rename(tmp, path) == 0)
                return 0;
            int e = errno;
            unlink(tmp);
            pending = 0;
            errno = e;
            return -1;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* The temporary file for target, in its folder dir: an unnamed one where
 * the system has them (tmp[0] is then '\0': no name to remove until
 * place_unnamed gives one), else mkstemp's file named by the template tmp,
 * recorded for cp_write_file_abandon with signals blocked. -1 with errno
 * set when neither can be made. */
static int open_temp(const char *dir, char *tmp, size_t plen, bool *unnamed)
{
    int fd = open_unnamed(dir);
    if (fd >= 0) {
        *unnamed = true;
        tmp[0] = '\0';
        return fd;
    }
    sigset_t old;
    block_signals(&old);
    fd = mkstemp(tmp);
    int e = errno;
    if (fd >= 0) {
        memcpy(pending_path, tmp, plen + sizeof TMP_SUFFIX);
        pending = 1;
    }
    restore_signals(&old);
    errno = e;
    return fd;
}

/* The temporary file is 0600; the result keeps the mode (and, when we
 * may, the owner) of the file it replaces, or is an ordinary new file. */
static void set_mode(int fd, bool exists, const struct stat *st)
{
    if (exists) {
        if (st->st_uid != geteuid() || st->st_gid != getegid())
            (void)fchown(fd, st->st_uid, st->st_gid);
        (void)fchmod(fd, st->st_mode & 07777);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask);
    }
}

/* Puts the finished temporary file in target's place, with signals
 * blocked so that a handler sees the write either pending or counted: 0,
 * or -1 with errno set. Once placed, or once unnamed, tmp names nothing
 * left to remove (tmp[0] is '\0'). */
static int put_in_place(int fd, const char *target, char *tmp, size_t plen, bool unnamed,
                        bool exists)
{
    sigset_t old;
    block_signals(&old);
    int placed;
    if (unnamed) {
        memcpy(tmp, target, plen);
        memcpy(tmp + plen, TMP_SUFFIX, sizeof TMP_SUFFIX);
        placed = place_unnamed(fd, target, tmp, plen, exists);
        tmp[0] = '\0'; /* place_unnamed removed any name it made */
    } else {
        placed = rename(tmp, target);
    }
    int e = errno;
    if (placed == 0) {
        pending = 0;
        commits++;
        tmp[0] = '\0';
    }
    restore_signals(&old);
    errno = e;
    return placed;
}

/* Best effort: some file systems refuse fsync on a directory. */
static void sync_dir(const char *dir)
{
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
}

int cp_write_file_atomic(const char *path, const char *data, size_t len, cp_err *err)
{
    if (path && !path[0])
        return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                          "an empty output file name ('-' is standard output)");
    char *target = NULL;
    cp_out_kind kind;
    int rc = cp_outpath_resolve(path, &target, &kind, err);
    if (rc != CP_OK)
        return rc;
    if (kind == CP_OUT_STDOUT) {
        cp_free(target);
        return to_stdout(data, len, err);
    }
    struct stat st;
    bool exists = stat(target, &st) == 0;
    if (kind == CP_OUT_INPLACE || (exists && !S_ISREG(st.st_mode))) {
        rc = to_special(path, target, data, len, err);
        cp_free(target);
        return rc;
    }

    int fd = -1;
    bool unnamed = false;
    sigset_t old;
    size_t plen = strlen(target);
    char *tmp = NULL, *dir = NULL;
    if (plen + sizeof TMP_SUFFIX > sizeof pending_path) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%.200s...': %s", path,
                        strerror(ENAMETOOLONG));
        goto out;
    }
    tmp = cp_malloc(plen + sizeof TMP_SUFFIX);
    dir = dir_of(target);
    if (!tmp || !dir) {
        if (tmp)
            tmp[0] = '\0';
        rc = cp_err_nomem(err);
        goto out;
    }
    memcpy(tmp, target, plen);
    memcpy(tmp + plen, TMP_SUFFIX, sizeof TMP_SUFFIX);
    fd = open_temp(dir, tmp, plen, &unnamed);
    if (fd < 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(),
                        "cannot write '%s': cannot create a file in '%s': %s", path, dir,
                        strerror(errno));
        tmp[0] = '\0'; /* nothing to remove */
        goto out;
    }
    set_mode(fd, exists, &st);
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                        strerror(errno));
        goto out;
    }
    if (!unnamed) { /* a named file can be closed first: close reports late write errors */
        int cr = close(fd);
        fd = -1;
        if (cr != 0) {
            rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                            strerror(errno));
            goto out;
        }
    }
    if (put_in_place(fd, target, tmp, plen, unnamed, exists) != 0) {
        int e = errno;
        if (unnamed)
            rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                            strerror(e));
        else
            rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(),
                            "cannot write '%s': cannot rename '%s': %s", path, tmp, strerror(e));
        goto out;
    }
    if (fd >= 0) { /* unnamed: its data was fsync'ed before it got a name */
        (void)close(fd);
        fd = -1;
    }
    sync_dir(dir);
out:
    if (fd >= 0)
        close(fd);
    if (tmp && tmp[0]) {
        block_signals(&old);
        unlink(tmp);
        pending = 0;
        restore_signals(&old);
    }
    cp_free(tmp);
    cp_free(dir);
    cp_free(target);
    return rc;
}
