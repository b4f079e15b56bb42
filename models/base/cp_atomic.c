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
 */
#include "cp_atomic.h"

#include "cp_alloc.h"

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

/* Devices and pipes (-o /dev/null, -o /dev/stderr, a fifo) are written in
 * place: renaming over them would replace the device with a file. */
static int to_special(const char *path, const char *data, size_t len, cp_err *err)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || write_all(fd, data, len) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                          strerror(e));
    }
    if (close(fd) != 0)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                          strerror(errno));
    commits++;
    return CP_OK;
}

int cp_write_file_atomic(const char *path, const char *data, size_t len, cp_err *err)
{
    if (!path || strcmp(path, "-") == 0)
        return to_stdout(data, len, err);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return to_special(path, data, len, err);

    int rc = CP_OK, fd = -1;
    sigset_t old;
    size_t plen = strlen(path);
    if (plen + sizeof TMP_SUFFIX > sizeof pending_path)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%.200s...': %s", path,
                          strerror(ENAMETOOLONG));
    char *tmp = cp_malloc(plen + sizeof TMP_SUFFIX);
    char *dir = dir_of(path);
    if (!tmp || !dir) {
        if (tmp)
            tmp[0] = '\0';
        rc = cp_err_nomem(err);
        goto out;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, TMP_SUFFIX, sizeof TMP_SUFFIX);
    block_signals(&old);
    fd = mkstemp(tmp);
    int e = errno;
    if (fd >= 0) {
        memcpy(pending_path, tmp, plen + sizeof TMP_SUFFIX);
        pending = 1;
    }
    restore_signals(&old);
    if (fd < 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(),
                        "cannot write '%s': cannot create a file in '%s': %s", path, dir,
                        strerror(e));
        tmp[0] = '\0'; /* nothing to remove */
        goto out;
    }
    /* mkstemp makes the file 0600; outputs are ordinary files. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                        strerror(errno));
        goto out;
    }
    int cr = close(fd);
    fd = -1;
    if (cr != 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", path,
                        strerror(errno));
        goto out;
    }
    block_signals(&old);
    if (rename(tmp, path) == 0) {
        pending = 0;
        commits++;
        tmp[0] = '\0';
    } else {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': cannot rename '%s': %s",
                        path, tmp, strerror(errno));
    }
    restore_signals(&old);
    if (rc)
        goto out;
    /* Best effort: some file systems refuse fsync on a directory. */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
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
    return rc;
}
