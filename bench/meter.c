/*
 * bench/meter: run a command, then report its wall time, CPU time and peak
 * memory.
 *
 *   meter [-o FILE] CMD [ARG...]
 *
 * Prints one line, `meter: wall_s=1.234 cpu_s=2.345 maxrss_kb=5678
 * status=0`, on stderr
 * or into FILE, and exits with the command's status (128 + signal when it
 * was killed, 127 when it could not be started).  Peak memory is the child's
 * ru_maxrss from wait4(2), so the bench needs no GNU time package.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *out = NULL;
    int i = 1;
    if (i + 1 < argc && !strcmp(argv[i], "-o")) {
        out = argv[i + 1];
        i += 2;
    }
    if (i < argc && !strcmp(argv[i], "--"))
        i++;
    if (i >= argc) {
        fprintf(stderr, "usage: meter [-o FILE] CMD [ARG...]\n");
        return 2;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "meter: fork: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        execvp(argv[i], argv + i);
        fprintf(stderr, "meter: %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }

    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &st, 0, &ru) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "meter: wait4: %s\n", strerror(errno));
            return 127;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    int status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 127;

    FILE *f = stderr;
    if (out && !(f = fopen(out, "w"))) {
        fprintf(stderr, "meter: %s: %s\n", out, strerror(errno));
        return 127;
    }
    /* ru_maxrss is in kilobytes on Linux */
    /* CPU seconds (user + system, the command and what it waited for):
     * on a shared machine the figure that load does not inflate */
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    fprintf(f, "meter: wall_s=%.3f cpu_s=%.3f maxrss_kb=%ld status=%d\n", wall, cpu, (long)ru.ru_maxrss,
            status);
    if (f != stderr && fclose(f) != 0) {
        fprintf(stderr, "meter: %s: write error\n", out);
        return 127;
    }
    return status;
}
