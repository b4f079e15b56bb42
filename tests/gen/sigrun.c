/*
 * sigrun: run a command and send it a signal after a given delay, for
 * tests/suite_signal.sh (a shell's `cmd & sleep; kill` is too coarse, and
 * a non-interactive shell starts background jobs with SIGINT ignored).
 *
 *   sigrun [-s INT|TERM] [-d MS] [-2 MS] -- COMMAND [ARG...]
 *
 * The child starts with SIGINT and SIGTERM at their defaults and nothing
 * blocked; after -d milliseconds (default 0) it gets the signal (default
 * INT), and with -2 the same signal again that many milliseconds later.
 * A child that has already exited is not signalled. A child that does
 * not yet catch the signal when the delay is over (its handler is
 * installed in main, after exec, the dynamic loader and the libraries'
 * constructors, which take over half a second on a loaded machine) gets
 * it as soon as it catches it: before that, any program dies of it, so
 * there is nothing of capplan's to test (Linux: SigCgt in
 * /proc/PID/status). Prints one line on standard output:
 *
 *   exit=N latency_ms=L signalled=0|1|2
 *
 * N is the exit status, or 128+SIGNAL when the child was killed; L is the
 * time from the first signal to the child's exit (0 when none was sent).
 * Exits 0 unless sigrun itself failed (2).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Waits up to ms for the child; returns 1 and fills *status when it
 * exited, 0 when it still runs. */
static int wait_for(pid_t pid, double ms, int *status)
{
    double end = now_ms() + ms;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 && errno != EINTR) {
            perror("sigrun: waitpid");
            exit(2);
        }
        double left = end - now_ms();
        if (left <= 0)
            return 0;
        double step = left < 1 ? left : 1;
        struct timespec ts = {0, (long)(step * 1e6)};
        nanosleep(&ts, NULL);
    }
}

/* Whether pid catches sig now (1), not yet (0), or this cannot be told
 * (-1: no /proc, e.g. not Linux; then the signal is sent as it is). */
static int catches(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int r = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "SigCgt:", 7)) {
            unsigned long long mask = strtoull(line + 7, NULL, 16);
            r = (int)((mask >> (sig - 1)) & 1);
            break;
        }
    fclose(f);
    return r;
}

int main(int argc, char **argv)
{
    int sig = SIGINT, opt;
    double delay = 0, second = -1;
    while ((opt = getopt(argc, argv, "s:d:2:")) != -1) {
        switch (opt) {
        case 's':
            if (!strcmp(optarg, "INT"))
                sig = SIGINT;
            else if (!strcmp(optarg, "TERM"))
                sig = SIGTERM;
            else {
                fprintf(stderr, "sigrun: -s INT or TERM\n");
                return 2;
            }
            break;
        case 'd':
            delay = atof(optarg);
            break;
        case '2':
            second = atof(optarg);
            break;
        default:
            fprintf(stderr, "usage: sigrun [-s INT|TERM] [-d MS] [-2 MS] -- COMMAND [ARG...]\n");
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "usage: sigrun [-s INT|TERM] [-d MS] [-2 MS] -- COMMAND [ARG...]\n");
        return 2;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("sigrun: fork");
        return 2;
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execvp(argv[optind], argv + optind);
        perror("sigrun: exec");
        _exit(127);
    }
    int status = 0, sent = 0, done = wait_for(pid, delay, &status);
    double t_sig = 0, t_start = now_ms();
    while (!done && catches(pid, sig) == 0 && now_ms() - t_start < 30e3)
        done = wait_for(pid, 1, &status);
    if (!done) {
        t_sig = now_ms();
        kill(pid, sig);
        sent = 1;
        if (second >= 0 && !(done = wait_for(pid, second, &status))) {
            kill(pid, sig);
            sent = 2;
        }
    }
    while (!done && waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("sigrun: waitpid");
            return 2;
        }
    double lat = sent ? now_ms() - t_sig : 0;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("exit=%d latency_ms=%.0f signalled=%d\n", code, lat, sent);
    return 0;
}
