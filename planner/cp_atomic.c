/* Atomic output files (see cp_atomic.h): temp file, fsync, rename. */
#include "cp_atomic.h"

#include "cp_alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int to_stdout(const char *data, size_t len, cp_err *err)
{
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write standard output: %s",
                          strerror(errno));
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
    size_t plen = strlen(path);
    char *tmp = cp_malloc(plen + sizeof ".tmp.XXXXXX");
    char *dir = dir_of(path);
    if (!tmp || !dir) {
        rc = cp_err_nomem(err);
        goto out;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot create '%s': %s", tmp,
                        strerror(errno));
        tmp[0] = '\0'; /* nothing to remove */
        goto out;
    }
    /* mkstemp makes the file 0600; outputs are ordinary files. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", tmp,
                        strerror(errno));
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write '%s': %s", tmp,
                        strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot rename '%s' to '%s': %s", tmp,
                        path, strerror(errno));
        goto out;
    }
    tmp[0] = '\0';
    /* Best effort: some file systems refuse fsync on a directory. */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
out:
    if (fd >= 0)
        close(fd);
    if (tmp && tmp[0])
        unlink(tmp);
    cp_free(tmp);
    cp_free(dir);
    return rc;
}
