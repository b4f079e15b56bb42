/* Shared pieces of the command files; see cp_cli.h. */
#include "cp_cli.h"

#include "cp_alloc.h"
#include "cp_yaml.h"

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

int cp_cli_outputs(const char *cmd, cp_fileset *fs, char *const *in, int n_in,
                   const char *const *extra_in, const char *const *outs)
{
    cp_err err;
    cp_err_init(&err);
    cp_fileset_init(fs);
    int rc = CP_OK;
    for (int i = 0; i < n_in && rc == CP_OK; i++)
        rc = cp_fileset_input(fs, in[i], "input", &err);
    for (int i = 0; extra_in && extra_in[i] && rc == CP_OK; i += 2)
        rc = cp_fileset_input(fs, extra_in[i + 1], extra_in[i], &err);
    for (int i = 0; outs && outs[i] && rc == CP_OK; i += 2)
        if (outs[i + 1])
            rc = cp_fileset_output(fs, outs[i + 1], outs[i], &err);
    if (rc == CP_OK)
        return 0;
    fprintf(stderr, "capplan %s: %s\n", cmd, err.msg);
    return rc == CP_ERR_NOMEM ? 1 : 2;
}

/* The first plain scalar under n that is a number but not a finite one. */
static const cp_node *non_finite(const cp_node *n)
{
    if (n->kind == CP_NODE_SCALAR) {
        double v;
        return !n->quoted && cp_scalar_number(n, &v) && !isfinite(v) ? n : NULL;
    }
    size_t k = n->kind == CP_NODE_MAP ? 2 * n->n : n->n;
    for (size_t i = 0; i < k; i++) {
        const cp_node *bad = non_finite(n->kids[i]);
        if (bad)
            return bad;
    }
    return NULL;
}

static bool only_comments(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && text[i] == ' ')
            i++;
        if (i < len && text[i] != '\n' && text[i] != '#')
            return false;
        while (i < len && text[i] != '\n')
            i++;
        i++;
    }
    return true;
}

int cp_cli_output_loads(const char *cmd, const char *text, size_t len)
{
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan %s: out of memory\n", cmd);
        return 1;
    }
    cp_diags_init(d);
    cp_node *root = NULL;
    int rc = 0;
    if (cp_yaml_load_string("output", text, len, &root, d) != CP_OK) {
        if (d->worst == CP_ERR_NOMEM) {
            fprintf(stderr, "capplan %s: out of memory\n", cmd);
            rc = 1;
        } else {
            if (!only_comments(text, len)) { /* comments alone: nothing to read back */
                fprintf(stderr, "capplan %s: internal error: the output does not read back:\n", cmd);
                cp_diags_print(d, stderr);
                rc = 2;
            }
        }
    } else {
        const cp_node *bad = non_finite(root);
        if (bad) {
            fprintf(stderr,
                    "capplan %s: output line %d: '%s' is not a finite number (an input value "
                    "is too large or too small for this model); nothing written\n",
                    cmd, bad->pos.line, bad->str);
            rc = 2;
        }
    }
    cp_node_free(root);
    cp_free(d);
    return rc;
}
