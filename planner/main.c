/* capplan: argv → command → exit status, nothing else. */
#include "cp_cmd.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: capplan COMMAND [options] FILE...\n\ncommands:\n");
    for (const cp_command *c = cp_commands; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    fprintf(out, "\n'capplan COMMAND --help' describes a command; 'man capplan' the input format.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("capplan %s\n", CP_VERSION);
        return 0;
    }
    const cp_command *c = cp_command_find(argv[1]);
    if (!c) {
        fprintf(stderr, "capplan: '%s' is not a command; see 'capplan --help'\n", argv[1]);
        return 2;
    }
    return c->run(argc - 1, argv + 1);
}
