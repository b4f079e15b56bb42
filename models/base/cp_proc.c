/*
 * A child process without a shell (cp_proc.h). posix_spawnp is fork and
 * exec in one call, with the child's set-up (descriptors, process group,
 * signals) declared beforehand, so nothing runs in the child between the
 * two that a multi-threaded parent would have to make async-signal-safe.
 * A program that cannot be started is an error code, not a child that
 * exits 127: it is looked up first (PATH, or the path's execute bit),
 * because POSIX lets posix_spawnp report a failed exec either way, and
 * glibc under valgrind reports it as the exit.
 *
 * The pipe is made close-on-exec at once (pipe2), so a program another
 * thread starts at the same moment does not inherit it. The wait is a
 * poll on the pipe in slices of CP_PROC_SLICE_MS, looking at the clock,
 * the stop flag and waitpid(pid, WNOHANG) between them: the end of the
 * child, not the end of its output, ends the wait.
 */
#define _GNU_SOURCE /* pipe2: glibc declares it for GNU only */
#include "cp_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CP_PROC_SLICE_MS 20

extern char **environ;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Appends what the pipe holds now; false at its end (or an error). */
static bool drain(int fd, cp_buf *out)
{
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK;
        if (n == 0)
            return false;
        if (!out)
            continue;
        if (out->len + (size_t)n > CP_PROC_OUT_MAX) {
            /* keep the newer half: how the program ended is at its end */
            size_t keep = out->len / 2;
            memmove(out->s, out->s + out->len - keep, keep);
            out->len = keep;
            out->s[keep] = '\0';
        }
        cp_buf_add(out, chunk, (size_t)n);
    }
}

/* waitpid without blocking: true when the child has ended (*status set). */
static bool ended(pid_t pid, int *status)
{
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return true;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) { /* not ours any more (someone reaped it): treat as gone */
            *status = 0;
            return true;
        }
        return false;
    }
}

/* SIGTERM to the child's process group, SIGKILL after the grace period. */
static void end_child(pid_t pid, int fd, cp_buf *out, int *status)
{
    kill(-pid, SIGTERM);
    double t = now() + CP_PROC_GRACE;
    while (now() < t) {
        if (ended(pid, status))
            return;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, CP_PROC_SLICE_MS) > 0)
            drain(fd, out);
    }
    kill(-pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
}

static int spawn(const char *const *argv, int wfd, pid_t *pid, cp_err *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot run '%s': %s", argv[0],
                          strerror(rc));
    if ((rc = posix_spawnattr_init(&at))) {
        posix_spawn_file_actions_destroy(&fa);
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot run '%s': %s", argv[0],
                          strerror(rc));
    }
    sigset_t none, def;
    sigemptyset(&none);
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGHUP);
    sigaddset(&def, SIGQUIT);
    if (!rc)
        rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc)
        rc = posix_spawn_file_actions_adddup2(&fa, wfd, 1);
    if (!rc)
        rc = posix_spawn_file_actions_adddup2(&fa, wfd, 2);
    if (!rc)
        rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                               POSIX_SPAWN_SETSIGDEF);
    if (!rc)
        rc = posix_spawnattr_setpgroup(&at, 0);
    if (!rc)
        rc = posix_spawnattr_setsigmask(&at, &none);
    if (!rc)
        rc = posix_spawnattr_setsigdefault(&at, &def);
    if (!rc)
        rc = posix_spawnp(pid, argv[0], &fa, &at, (char *const *)argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot run '%s': %s", argv[0],
                          strerror(rc));
    return CP_OK;
}

int cp_proc_run(const char *const *argv, double seconds, const volatile sig_atomic_t *stop,
                cp_buf *out, cp_proc_result *res, cp_err *err)
{
    if (strchr(argv[0], '/') ? access(argv[0], X_OK) != 0 : !cp_proc_find(argv[0], NULL, 0))
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot run '%s': %s", argv[0],
                          strerror(strchr(argv[0], '/') ? errno : ENOENT));
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot run '%s': %s", argv[0],
                          strerror(errno));
    double t0 = now();
    pid_t pid;
    int rc = spawn(argv, fds[1], &pid, err);
    close(fds[1]);
    if (rc) {
        close(fds[0]);
        return rc;
    }
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    int status = 0;
    cp_proc_end how = CP_PROC_EXITED;
    bool open = true;
    for (;;) {
        if (ended(pid, &status))
            break;
        if (stop && *stop) {
            how = CP_PROC_STOPPED;
            end_child(pid, fds[0], out, &status);
            break;
        }
        if (seconds > 0 && now() - t0 > seconds) {
            how = CP_PROC_TIMEOUT;
            end_child(pid, fds[0], out, &status);
            break;
        }
        if (open) {
            struct pollfd p = {fds[0], POLLIN, 0};
            if (poll(&p, 1, CP_PROC_SLICE_MS) > 0)
                open = drain(fds[0], out);
        } else {
            nanosleep(&(struct timespec){0, CP_PROC_SLICE_MS * 1000000L}, NULL);
        }
    }
    if (open)
        drain(fds[0], out);
    close(fds[0]);
    res->end = how;
    res->code = 0;
    if (how == CP_PROC_EXITED) {
        if (WIFSIGNALED(status)) {
            res->end = CP_PROC_SIGNALLED;
            res->code = WTERMSIG(status);
        } else {
            res->code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        }
    }
    res->seconds = now() - t0;
    return CP_OK;
}

bool cp_proc_find(const char *name, char *path, size_t size)
{
    const char *p = getenv("PATH");
    if (!p || !*name || strchr(name, '/'))
        return false;
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        char buf[4096];
        /* an empty entry is the current directory (POSIX) */
        int k = n ? snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name)
                  : snprintf(buf, sizeof buf, "%s", name);
        struct stat st;
        if (k > 0 && (size_t)k < sizeof buf && stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
            access(buf, X_OK) == 0) {
            if (path && size) {
                size_t l = (size_t)k < size - 1 ? (size_t)k : size - 1;
                memcpy(path, buf, l);
                path[l] = '\0';
            }
            return true;
        }
        p += n + (colon != NULL);
        if (!colon)
            break;
    }
    return false;
}
