/* Shared pieces of the command files; see cp_cli.h. */
#include "cp_cli.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
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
    if (d->n > 0)
        cp_diags_print(d, stderr);
    if (rc != 0 && d->n == 0)
        fprintf(stderr, "capplan %s: cannot load the inputs\n", cmd);
    cp_free(d);
    return rc == 0 ? 0 : 2;
}

void cp_cli_diags_print(const char *cmd, cp_diags *d)
{
    for (int i = 0; i < d->n; i++)
        if (!d->items[i].file[0])
            snprintf(d->items[i].file, sizeof d->items[i].file, "capplan %s", cmd);
    cp_diags_print(d, stderr);
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

int cp_cli_args_init(cp_cli_args *a, const char *cmd, int argc, char **argv,
                     const char *shortopts, const struct option *longopts)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->longopts = longopts;
    /* "-": operands in order; ":": a missing value is ':', not '?' */
    snprintf(a->shortopts, sizeof a->shortopts, "-:%s", shortopts);
    a->operands = cp_calloc((size_t)argc + 1, sizeof *a->operands);
    if (!a->operands) {
        fprintf(stderr, "capplan %s: out of memory\n", cmd);
        return 1;
    }
    optind = 0; /* glibc: start over (tests and fuzzers run commands again) */
    opterr = 0;
    return 0;
}

int cp_cli_args_std(cp_cli_args *a, const char *cmd, int argc, char **argv,
                    const char *shortopts, const struct option *longopts, const char *help,
                    cp_cli_usage_fn *usage)
{
    char shorts[sizeof a->shortopts];
    snprintf(shorts, sizeof shorts, "%shq", shortopts);
    if (cp_cli_args_init(a, cmd, argc, argv, shorts, longopts))
        return 1;
    size_t n = 0;
    while (longopts && longopts[n].name)
        n++;
    a->own_longopts = cp_calloc(n + 3, sizeof *a->own_longopts);
    if (!a->own_longopts) {
        fprintf(stderr, "capplan %s: out of memory\n", cmd);
        cp_cli_args_release(a);
        return 1;
    }
    if (n)
        memcpy(a->own_longopts, longopts, n * sizeof *longopts);
    a->own_longopts[n] = (struct option){"help", no_argument, NULL, 'h'};
    a->own_longopts[n + 1] = (struct option){"quiet", no_argument, NULL, 'q'};
    a->longopts = a->own_longopts;
    a->help = help;
    a->usage = usage;
    return 0;
}

int cp_cli_next(cp_cli_args *a)
{
    if (a->helped)
        return -1;
    for (;;) {
        int c = -1;
        if (!a->rest) {
            c = getopt_long(a->argc, a->argv, a->shortopts, a->longopts, NULL);
            if (c == -1)
                a->rest = true; /* the end, or "--": the rest are operands */
        }
        if (c == -1) {
            if (optind >= a->argc)
                return a->last = -1;
            optarg = a->argv[optind++];
            c = 1;
        }
        if (a->own_longopts && c == 'h') {
            if (a->help)
                fputs(a->help, stdout);
            else
                a->usage(stdout);
            a->helped = true;
            return a->last = -1;
        }
        if (a->own_longopts && c == 'q') {
            a->quiet = true;
            continue;
        }
        /* "-o --": getopt takes "--" as -o's value, and would write a
         * file named "--" (and read what follows as options); the user
         * meant the end of the options, or forgot the value. One rule
         * for every option of every command: refused, like a missing
         * value. "-o./--" or "--leases=--" say what they mean. */
        if (c != 1 && c != '?' && c != ':' && optarg && !strcmp(optarg, "--") && optind >= 2 &&
            a->argv[optind - 1] == optarg) {
            a->dashdash_opt = a->argv[optind - 2];
            return a->last = ':';
        }
        if (c != 1)
            return a->last = c;
        a->operands[a->n_operands++] = optarg;
    }
}

int cp_cli_bad_option(const cp_cli_args *a)
{
    /* the word getopt stopped at: "-x" of a cluster, or the long option
     * as written (up to its '=') */
    char shown[80];
    if (a->dashdash_opt) {
        fprintf(stderr,
                "capplan %s: option '%.60s' needs a value, got '--' (the end of the options); "
                "a file of that name is ./--\n",
                a->cmd, a->dashdash_opt);
        fprintf(stderr, "capplan %s: see 'capplan %s --help'\n", a->cmd, a->cmd);
        return 2;
    }
    const char *w = optind > 0 && optind <= a->argc ? a->argv[optind - 1] : "";
    if (optopt > 0 && optopt < 256 && strncmp(w, "--", 2))
        snprintf(shown, sizeof shown, "-%c", optopt);
    else
        snprintf(shown, sizeof shown, "%.*s", (int)strcspn(w, "="), w);
    /* a long option's prefix that names several ("--f" for --format and
     * --force) and one given a value it does not take are '?' too */
    int matches = 0;
    size_t len = strlen(shown);
    for (const struct option *o = a->longopts; o && o->name && len > 2 && !strncmp(w, "--", 2); o++)
        matches += !strncmp(o->name, shown + 2, len - 2);
    if (a->last == ':')
        fprintf(stderr, "capplan %s: option '%s' needs a value\n", a->cmd, shown);
    else if (optopt != 0 && !strncmp(w, "--", 2) && strchr(w, '='))
        fprintf(stderr, "capplan %s: option '%s' takes no value\n", a->cmd, shown);
    else if (matches > 1)
        fprintf(stderr, "capplan %s: option '%s' is ambiguous (%d options start so)\n", a->cmd,
                shown, matches);
    else
        fprintf(stderr, "capplan %s: unknown option '%s'\n", a->cmd, shown);
    fprintf(stderr, "capplan %s: see 'capplan %s --help'\n", a->cmd, a->cmd);
    return 2;
}

void cp_cli_args_release(cp_cli_args *a)
{
    cp_free(a->operands);
    a->operands = NULL;
    cp_free(a->own_longopts);
    a->own_longopts = NULL;
}

bool cp_cli_format(const char *cmd, const char *word, const char *const *names, int *out)
{
    int n = 0;
    for (; names[n]; n++)
        if (!strcmp(word, names[n])) {
            *out = n;
            return true;
        }
    fprintf(stderr, "capplan %s: --format must be ", cmd);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
    fprintf(stderr, ", got '%s'\n", word);
    return false;
}

bool cp_cli_plan_format(const char *cmd, const char *word, cp_plan_format *out)
{
    static const char *const names[] = {"yaml", "json", "csv", NULL};
    static const cp_plan_format formats[] = {CP_FMT_YAML, CP_FMT_JSON, CP_FMT_CSV};
    int i;
    if (!cp_cli_format(cmd, word, names, &i))
        return false;
    *out = formats[i];
    return true;
}

int cp_cli_plan_option(const cp_cli_args *a, cp_plan_opts *po, int c)
{
    switch (cp_plan_opts_parse(po, a->cmd, c, optarg)) {
    case 1:
        return -1;
    case 0:
        return cp_cli_bad_option(a);
    default:
        return 2;
    }
}

int cp_cli_plan_opts_end(const cp_cli_args *a, cp_plan_opts *po, int st)
{
    if (st < 0 && a->helped)
        return 0;
    if (st < 0 && !cp_plan_opts_finish(po, a->cmd, a->quiet))
        return 2;
    return st;
}

void cp_cli_log_line(void *arg, const char *line)
{
    (void)arg;
    fprintf(stderr, "capplan: %s\n", line);
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

int cp_cli_dir_outputs(const char *cmd, cp_fileset *fs, const char *role, const char *dir,
                       const char *const *names, int n)
{
    cp_err err;
    cp_err_init(&err);
    cp_buf path;
    cp_buf_init(&path);
    int rc = CP_OK;
    for (int i = 0; i < n && rc == CP_OK; i++) {
        cp_buf_reset(&path);
        cp_buf_printf(&path, "%s/%s", dir, names[i]);
        rc = cp_buf_ok(&path) ? cp_fileset_output(fs, path.s, role, &err) : cp_err_nomem(&err);
    }
    cp_buf_release(&path);
    if (rc == CP_OK)
        return 0;
    fprintf(stderr, "capplan %s: %s\n", cmd, err.msg);
    return rc == CP_ERR_NOMEM ? 1 : 2;
}

int cp_cli_outputs_ok(const char *cmd, char *const *in, int n_in, const char *const *extra_in,
                      const char *const *outs)
{
    cp_fileset fs;
    int rc = cp_cli_outputs(cmd, &fs, in, n_in, extra_in, outs);
    cp_fileset_release(&fs);
    return rc;
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

int cp_cli_write_fragment(const char *cmd, const char *path, const char *text, size_t len, bool check)
{
    int st = check ? cp_cli_output_loads(cmd, text ? text : "", len) : 0;
    if (st)
        return st;
    cp_err err;
    cp_err_init(&err);
    if (cp_write_file_atomic(path, text, len, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        return 1;
    }
    return 0;
}
