/* capplan: argv → command → exit status, nothing else. */
#include "cp_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: capplan COMMAND [options] FILE...\n\ncommands:\n");
    for (const cp_command *c = cp_commands; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    fprintf(out, "\nOptions may come before, between or after the files; '--' ends them.\n"
                 "'capplan COMMAND --help' describes a command. The full reference, in the\n"
                 "source tree: man ./capplan.1 (commands) and man ./capplan.5 (file formats);\n"
                 "once installed: man capplan, man 5 capplan.\n");
}

/* A closed standard descriptor would be handed out by the next open():
 * a plan's temporary file could become "stderr" and receive diagnostics.
 * /dev/null is parked there read-only, so writing to a closed standard
 * output still fails (EBADF) and is reported. */
static void park_closed_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int nfd = open("/dev/null", O_RDONLY);
            if (nfd >= 0 && nfd != fd)
                close(nfd);
        }
}

/* Data goes to standard output; a command that succeeded must not exit 0
 * when it could not be written (a full disk, a closed descriptor). */
static int close_stdout(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (status == 0) {
            fprintf(stderr, "capplan: error: cannot write standard output: %s\n",
                    errno ? strerror(errno) : "write error");
            return 1;
        }
    }
    return status;
}

int main(int argc, char **argv)
{
    park_closed_std_fds();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return close_stdout(0);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("capplan %s\n", CP_VERSION);
        return close_stdout(0);
    }
    const cp_command *c = cp_command_find(argv[1]);
    if (!c) {
        const char *near = cp_command_suggest(argv[1]);
        if (near)
            fprintf(stderr, "capplan: '%s' is not a command (did you mean '%s'?); see 'capplan "
                            "--help'\n",
                    argv[1], near);
        else
            fprintf(stderr, "capplan: '%s' is not a command; see 'capplan --help'\n", argv[1]);
        return 2;
    }
    return close_stdout(c->run(argc - 1, argv + 1));
}
