/* Shared pieces of the command files; see cp_cli.h. */
#include "cp_cli.h"

#include "cp_alloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cp_cli_load(const char *cmd, char *const *paths, int n, cp_input **out)
{
    if (n == 0) {
        fprintf(stderr, "capplan %s: no input files (see 'capplan %s --help')\n", cmd, cmd);
        return 2;
    }
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan %s: out of memory\n", cmd);
        return 2;
    }
    cp_diags_init(d);
    int rc = cp_input_load((const char *const *)paths, n, out, d);
    if (rc != 0) {
        cp_diags_print(d, stderr);
        if (d->n == 0)
            fprintf(stderr, "capplan %s: cannot load the inputs\n", cmd);
    }
    cp_free(d);
    return rc == 0 ? 0 : 2;
}

bool cp_cli_double(const char *cmd, const char *opt, const char *s, double lo, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo) {
        fprintf(stderr, "capplan %s: %s needs a number >= %g, got '%s'\n", cmd, opt, lo, s);
        return false;
    }
    *out = v;
    return true;
}

bool cp_cli_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "capplan %s: %s needs an integer from %ld to %ld, got '%s'\n", cmd, opt,
                lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

bool cp_cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return false;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    }
    return false;
}
