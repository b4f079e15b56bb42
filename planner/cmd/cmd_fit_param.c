/*
 * capplan fit dataflow SAMPLES.csv --params all|NAME,... [--samples FILE]...
 *     [--concrete NAME=JOB:P=V,...]... [-o FILE] [--no-loo] [JOBS.yaml...]
 *
 * The parameter-dependent fit (models/fit/cp_fit_param.h): reads every
 * sample file with its parameter columns, fits per (job, type), prints
 * the report (cp_fit_df_param_table) and writes, for each concrete job,
 * the Ernest θ of its parameter values. Concrete jobs come from the
 * definitions (a job with a `fit: {job: J, params: {P: V}}` key, or one
 * named like a measured job) and from --concrete; a --concrete NAME that
 * a definition also has takes that definition's keys, its values
 * overriding the definition's.
 *
 * The job definitions both modes read (--jobs FILE and extra YAML
 * operands: cp_fit_defs_load) are here too, so cmd_fit.c calls this file
 * and not the other way round.
 */
#include "cp_cmd.h"
#include "cp_fit_cmd.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_buf.h"
#include "cp_cli.h"
#include "cp_csv.h"
#include "cp_fit_write.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI_POS ((cp_pos){"command line", 0, 0})

void cp_fit_defs_release(cp_fit_defs *d)
{
    for (int i = 0; i < d->n; i++)
        cp_node_free(d->roots[i]);
    cp_free(d->roots);
    cp_free(d->jobs);
}

int cp_fit_defs_load(cp_fit_defs *d, char **paths, int n, cp_diags *diags)
{
    d->roots = cp_calloc((size_t)(n ? n : 1), sizeof *d->roots);
    if (!d->roots)
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    int rc = CP_OK;
    for (int i = 0; i < n; i++) {
        cp_node *root = NULL;
        if (cp_yaml_load_file(paths[i], &root, diags) != CP_OK) {
            rc = CP_ERR_INPUT;
            continue;
        }
        d->roots[d->n++] = root;
        const cp_node *jobs = root->kind == CP_NODE_MAP ? cp_map_get(root, "jobs") : NULL;
        if (!jobs)
            continue;
        if (jobs->kind != CP_NODE_SEQ) {
            rc = cp_diags_add(diags, CP_ERR_INPUT, jobs->pos, "'jobs' must be a sequence");
            continue;
        }
        for (size_t j = 0; j < jobs->n; j++) {
            const cp_node *job = jobs->kids[j];
            const cp_node *name = job->kind == CP_NODE_MAP ? cp_map_get(job, "name") : NULL;
            if (!name || name->kind != CP_NODE_SCALAR)
                continue;
            if (CP_GROW(d->jobs, d->cap, (size_t)d->n_jobs + 1) != 0)
                return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            d->jobs[d->n_jobs++] = job;
        }
    }
    return rc;
}

int cp_fit_param_wanted(const cp_fit_param_args *a)
{
    return a->params || a->n_more || a->n_concrete;
}

static cp_df_concrete *find_concrete(cp_df_concrete *c, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0)
            return &c[i];
    return NULL;
}

/* Sets (or replaces) parameter `name` of x. */
static int set_value(cp_df_concrete *x, const char *name, double v, cp_pos pos, cp_diags *d)
{
    int k = 0;
    while (k < x->n && strcmp(x->pname[k], name))
        k++;
    if (k == CP_DF_MAX_PARAMS)
        return cp_diags_add(d, CP_ERR_INPUT, pos, "job '%s': more than %d parameters", x->name,
                            CP_DF_MAX_PARAMS);
    x->pname[k] = name;
    x->pval[k] = v;
    x->ppos[k] = pos;
    if (k == x->n)
        x->n++;
    return CP_OK;
}

/* A definition's concrete job: its `fit:` key, or its name when that is
 * a measured job. */
static int from_def(const cp_node *def, const cp_df_report *r, cp_df_concrete *x, bool *is,
                    cp_diags *d)
{
    const cp_node *name = cp_map_get(def, "name");
    const cp_node *fit = cp_map_get(def, "fit");
    *is = false;
    memset(x, 0, sizeof *x);
    x->name = x->job = name->str;
    x->pos = name->pos;
    x->def = def;
    if (!fit) {
        for (int i = 0; i < r->n_fits && !*is; i++)
            *is = strcmp(r->fits[i].job, name->str) == 0;
    } else {
        *is = true;
        if (fit->kind != CP_NODE_MAP)
            return cp_diags_add(d, CP_ERR_INPUT, fit->pos,
                                "job '%s': 'fit' must be a map {job: NAME, params: {P: V}}",
                                name->str);
        x->pos = fit->pos;
        for (size_t i = 0; i < fit->n; i++) {
            const cp_node *k = fit->kids[2 * i], *v = fit->kids[2 * i + 1];
            if (k->kind == CP_NODE_SCALAR && strcmp(k->str, "job") == 0 &&
                v->kind == CP_NODE_SCALAR) {
                x->job = v->str;
            } else if (k->kind == CP_NODE_SCALAR && strcmp(k->str, "params") == 0 &&
                       v->kind == CP_NODE_MAP) {
                for (size_t j = 0; j < v->n; j++) {
                    const cp_node *pk = v->kids[2 * j], *pv = v->kids[2 * j + 1];
                    double num;
                    if (pk->kind != CP_NODE_SCALAR || !cp_scalar_number(pv, &num)) {
                        cp_diags_add(d, CP_ERR_INPUT, pv->pos,
                                     "job '%s': a parameter value must be a number", name->str);
                        continue;
                    }
                    set_value(x, pk->str, num, pk->pos, d);
                }
            } else {
                cp_diags_add(d, CP_ERR_INPUT, k->pos,
                             "job '%s': fit takes job (a name) and params (a map)", name->str);
            }
        }
    }
    double v;
    const cp_node *in = cp_map_get(def, "input_gb");
    if (in && cp_scalar_number(in, &v) && v > 0) {
        x->has_input = true;
        x->input_gb = v;
    }
    return CP_OK;
}

/* NAME=JOB:P=V,P=V (or JOB:P=V,..., named JOB); input_gb=V sets the
 * input. The strings point into `spec`, a copy kept by the caller. */
static int from_cli(char *spec, const char *orig, cp_df_concrete *c, int *n, const cp_fit_defs *df,
                    cp_diags *d)
{
    char *colon = strchr(spec, ':');
    if (colon)
        *colon = '\0';
    char *eq = strchr(spec, '=');
    const char *name = spec, *job = spec;
    if (eq) {
        *eq = '\0';
        job = eq + 1;
    }
    if (!*name || !*job)
        return cp_diags_add(d, CP_ERR_INPUT, CLI_POS,
                            "--concrete '%s': expected NAME=JOB:P=V,... (or JOB:P=V,...)", orig);
    cp_df_concrete *x = find_concrete(c, *n, name);
    if (!x) {
        x = &c[(*n)++];
        memset(x, 0, sizeof *x);
        x->name = name;
        x->def = cp_fit_find_def(df->jobs, df->n_jobs, name);
        double v;
        const cp_node *in = x->def ? cp_map_get(x->def, "input_gb") : NULL;
        if (in && cp_scalar_number(in, &v) && v > 0) {
            x->has_input = true;
            x->input_gb = v;
        }
    }
    x->job = job;
    x->pos = CLI_POS;
    for (char *p = colon ? colon + 1 : NULL; p && *p;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        char *e = strchr(p, '=');
        char *end = NULL;
        double v = e ? strtod(e + 1, &end) : NAN;
        if (!e || e == p || end == e + 1 || *end || !isfinite(v))
            return cp_diags_add(d, CP_ERR_INPUT, CLI_POS,
                                "--concrete '%s': '%s' is not P=NUMBER", orig, p);
        *e = '\0';
        if (strcmp(p, "input_gb") == 0) {
            if (!(v > 0))
                return cp_diags_add(d, CP_ERR_INPUT, CLI_POS,
                                    "--concrete '%s': input_gb must be > 0", orig);
            x->has_input = true;
            x->input_gb = v;
        } else if (set_value(x, p, v, CLI_POS, d) != CP_OK) {
            return CP_ERR_INPUT;
        }
        p = comma ? comma + 1 : NULL;
    }
    return CP_OK;
}

int cp_fit_param_run(const cp_fit_param_args *a, const cp_fit_opts *o0, const char *samples,
                     char **jobfiles, int n_jobfiles, const char *outpath)
{
    int status = 2, n_csv = 1 + a->n_more, n = 0, nc = 0;
    cp_diags *diags = cp_malloc(sizeof *diags);
    cp_csv **csv = cp_calloc((size_t)n_csv, sizeof *csv);
    char **copies = cp_calloc((size_t)a->n_concrete + 1, sizeof *copies);
    cp_df_sample *s = NULL;
    size_t cap = 0;
    cp_df_params pn = {{NULL}, 0};
    cp_df_report *r = NULL;
    cp_df_concrete *c = NULL;
    cp_fit_defs d;
    memset(&d, 0, sizeof d);
    cp_buf b, t;
    cp_buf_init(&b);
    cp_buf_init(&t);
    cp_err err;
    cp_err_init(&err);
    if (!diags || !csv || !copies) {
        fprintf(stderr, "capplan fit: out of memory\n");
        status = 1;
        goto out;
    }
    cp_diags_init(diags);
    if (!a->params) {
        fprintf(stderr, "capplan fit: --samples and --concrete need --params\n");
        goto out;
    }
    int rc = CP_OK;
    for (int i = 0; i < n_csv; i++) {
        const char *path = i ? a->more[i - 1] : samples;
        if (cp_csv_read(path, 0, &csv[i], &err) != CP_OK) {
            cp_diags_add_err(diags, &err);
            rc = CP_ERR_INPUT;
            continue;
        }
        if (cp_df_samples_append(csv[i], a->params, &pn, &s, &n, &cap, diags) != CP_OK)
            rc = CP_ERR_INPUT;
    }
    if (rc == CP_OK)
        rc = cp_df_params_check(a->params, &pn, diags);
    if (cp_fit_defs_load(&d, jobfiles, n_jobfiles, diags) != CP_OK)
        rc = CP_ERR_INPUT;
    if (rc != CP_OK) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    cp_fit_opts o = *o0;
    o.params = true;
    o.param_names = &pn;
    if ((rc = cp_df_fit_all(s, n, &o, &r, diags, &err)) != CP_OK) {
        cp_diags_add_err(diags, &err);
        cp_diags_print(diags, stderr);
        status = rc == CP_ERR_INPUT ? 2 : 1;
        goto out;
    }
    c = cp_calloc((size_t)(d.n_jobs + a->n_concrete + 1), sizeof *c);
    if (!c) {
        fprintf(stderr, "capplan fit: out of memory\n");
        status = 1;
        goto out;
    }
    for (int i = 0; i < d.n_jobs; i++) {
        bool is;
        from_def(d.jobs[i], r, &c[nc], &is, diags);
        if (is && !find_concrete(c, nc, c[nc].name))
            nc++;
    }
    for (int i = 0; i < a->n_concrete; i++) {
        if (!(copies[i] = cp_strdup(a->concrete[i]))) {
            fprintf(stderr, "capplan fit: out of memory\n");
            status = 1;
            goto out;
        }
        from_cli(copies[i], a->concrete[i], c, &nc, &d, diags);
    }
    if (diags->worst == CP_OK)
        cp_df_concrete_check(r, &pn, c, nc, diags);
    if (diags->worst != CP_OK) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    cp_fit_df_param_table(&t, r, &pn);
    cp_fit_df_param_yaml(&b, r, &pn, c, nc, d.jobs, d.n_jobs, samples, diags);
    cp_diags_print(diags, stderr);
    if (!cp_buf_ok(&b) || !cp_buf_ok(&t)) {
        fprintf(stderr, "capplan fit: out of memory\n");
        status = 1;
        goto out;
    }
    /* names come from the samples: what a terminal would act on is
     * escaped (cmd_fit.c's table too) */
    FILE *table = outpath && strcmp(outpath, "-") ? stdout : stderr;
    if (t.s)
        cp_fputs_printable(t.s, true, table);
    fflush(table);
    status = cp_cli_write_fragment("fit", outpath, b.s, b.len, true);
out:
    cp_buf_release(&b);
    cp_buf_release(&t);
    cp_fit_defs_release(&d);
    cp_df_report_free(r);
    cp_free(s);
    cp_df_params_release(&pn);
    for (int i = 0; csv && i < n_csv; i++)
        cp_csv_free(csv[i]);
    cp_free(csv);
    for (int i = 0; copies && i < a->n_concrete; i++)
        cp_free(copies[i]);
    cp_free(copies);
    cp_free(c);
    cp_free(diags);
    return status;
}
