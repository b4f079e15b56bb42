/* Shared pieces of the command files; see cp_cli.h. */
#include "cp_cli.h"

#include "cp_advice.h"
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

void cp_cli_advise(const char *cmd, const cp_input *in, bool all)
{
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d)
        return; /* advice only: the command goes on */
    cp_diags_init(d);
    if (cp_input_advice(in, all, d))
        cp_cli_diags_print(cmd, d);
    cp_free(d);
}

/* A plan's first key (capplan.5 §5: every plan has `capplan_plan`, and
 * capplan writes it first), in the file's first 4 KB: for
 * cp_cli_plan_order's hint only, so a plan of millions of nodes is not
 * parsed twice. */
static bool looks_like_plan(const char *path)
{
    char buf[4097];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    for (const char *p = buf; (p = strstr(p, "capplan_plan")); p++) {
        bool key_start = p == buf || p[-1] == '\n' || (p[-1] == '"' && p - 1 > buf);
        const char *q = p + strlen("capplan_plan");
        if (key_start && (*q == ':' || (*q == '"' && q[1] == ':')))
            return true;
    }
    return false;
}

int cp_cli_plan_order(const char *cmd, const char *plan, char *const *files, int n,
                      const char *usage)
{
    if (plan && looks_like_plan(plan))
        return 0;
    for (int i = 0; i < n; i++) {
        if (!looks_like_plan(files[i]))
            continue;
        char msg[1024];
        if (plan)
            snprintf(msg, sizeof msg,
                     "capplan %s: '%.300s' is not a plan, but '%.300s' is: the arguments are "
                     "in the wrong order (%s)\n",
                     cmd, plan, files[i], usage);
        else
            snprintf(msg, sizeof msg, "capplan %s: '%.300s' is a plan: give it as %s\n", cmd,
                     files[i], usage);
        cp_fputs_printable(msg, true, stderr);
        return 2;
    }
    return 0;
}

const cp_opt_word cp_cli_plan_formats[] = {
    {"yaml", CP_FMT_YAML}, {"json", CP_FMT_JSON}, {"csv", CP_FMT_CSV}, {NULL, 0}};

const cp_opt_word cp_cli_scalings[] = {{"per-type", CP_CLI_SCALING_PER_TYPE},
                                       {"table", CP_CLI_SCALING_PER_TYPE},
                                       {"shared", CP_CLI_SCALING_SHARED},
                                       {"amdahl", CP_CLI_SCALING_AMDAHL},
                                       {NULL, 0}};

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
    /* an output's folder must exist: said now, before any work whose
     * result could not be kept (whatif plans every scenario first); exit
     * 1, an output that cannot be written (capplan.1, EXIT STATUS) */
    for (int i = 0; outs && outs[i] && rc == CP_OK; i += 2) {
        const char *p = outs[i + 1];
        const char *slash = p ? strrchr(p, '/') : NULL;
        if (!slash || slash == p)
            continue;
        char dir[4096];
        struct stat st;
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - p), p);
        int sr = stat(dir, &st);
        if (sr != 0) {
            fprintf(stderr, "capplan %s: error: %s '%s': there is no folder '%s'\n", cmd,
                    outs[i], p, dir);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "capplan %s: error: %s '%s': '%s' is not a folder\n", cmd, outs[i],
                    p, dir);
            return 1;
        }
    }
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
