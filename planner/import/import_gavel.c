/*
 * Gavel's measured throughputs -> training jobs.
 *
 * Gavel (Narayanan et al., OSDI 2020) publishes steps/s per (worker type,
 * job type, GPU count) as a CSV or as JSON {worker: {"('JOB', K)": thr}}.
 * Each measurement becomes a training sample (models/fit/cp_fit.h) with
 * the worker type as the accelerator ("k80" -> "K80"), and the samples go
 * through the same fit as `fit training`: per job the throughput on one
 * GPU per type and one speedup curve. A throughput of 0 (Gavel's mark for
 * "does not fit on this type") is left out, as are the *_unconsolidated
 * worker types unless asked for. The fit's warnings (speedups that differ
 * between types) go to the caller's diagnostics.
 *
 * Ownership: the samples borrow their names from `gsamples.owned` and
 * their positions' file name from the CSV (or the caller's path for
 * JSON), so both live until the fragment is written.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_fit.h"
#include "cp_fit_write.h"
#include "cp_yaml.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

void cp_import_gavel_opts_init(cp_import_gavel_opts *o)
{
    o->match = NULL;
    o->work = 100000;
    o->amdahl = false;
    o->unconsolidated = false;
}

/* Gavel's worker type as a capplan accelerator name: "k80" -> "K80". */
static char *acc_name(const char *worker)
{
    char *s = cp_strdup(worker);
    for (char *p = s; p && *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return s;
}

typedef struct gsamples {
    cp_tr_sample *s;
    int n;
    size_t cap;
    cp_csv *csv;  /* positions borrow its file name */
    char **owned; /* names the samples borrow */
    int n_owned;
    size_t owned_cap;
    const regex_t *re; /* --match, or NULL */
    bool unconsolidated;
} gsamples;

static const char *own(gsamples *g, char *s)
{
    if (!s || CP_GROW(g->owned, g->owned_cap, (size_t)g->n_owned + 1) != 0) {
        cp_free(s);
        return NULL;
    }
    g->owned[g->n_owned++] = s;
    return s;
}

/* Adds one measurement unless filtered out; returns -1 on out of memory. */
static int gadd(gsamples *g, const char *worker, const char *job, int k, double thr, cp_pos pos)
{
    if (thr == 0) /* Gavel: infeasible on this type (out of memory) */
        return 0;
    if (!g->unconsolidated && strstr(worker, "_unconsolidated"))
        return 0;
    if (g->re && regexec(g->re, job, 0, NULL, 0) != 0)
        return 0;
    if (CP_GROW(g->s, g->cap, (size_t)g->n + 1) != 0)
        return -1;
    cp_tr_sample *x = &g->s[g->n];
    x->acc = own(g, acc_name(worker));
    x->job = own(g, cp_strdup(job));
    if (!x->acc || !x->job)
        return -1;
    x->count = k;
    x->throughput = thr;
    x->pos = pos;
    g->n++;
    return 0;
}

/* The CSV form; stops at the first unreadable measurement. */
static int gavel_csv(const char *path, gsamples *g, cp_diags *d)
{
    cp_err err;
    cp_err_init(&err);
    cp_csv *csv = NULL;
    if (cp_csv_read(path, ',', &csv, &err) != CP_OK) {
        cp_diags_add_err(d, &err);
        return err.code;
    }
    g->csv = csv;
    int rc = CP_OK;
    static const char *const names[] = {"worker_type", "job_type", "scale_factor",
                                        "throughput_steps_per_s"};
    int col[4];
    for (int i = 0; i < 4; i++)
        if ((col[i] = cp_csv_col(csv, names[i])) < 0)
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                              "missing column '%s'", names[i]);
    for (int i = 0; rc == CP_OK && i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double k, thr;
        if (!cp_csv_number(cp_csv_get(r, col[2]), &k) || k != floor(k) || k < 1 || k > 1e6 ||
            !cp_csv_number(cp_csv_get(r, col[3]), &thr) || thr < 0 || !*cp_csv_get(r, col[0]) ||
            !*cp_csv_get(r, col[1])) {
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, r), "unreadable measurement");
            continue;
        }
        if (gadd(g, cp_csv_get(r, col[0]), cp_csv_get(r, col[1]), (int)k, thr,
                 cp_csv_pos(csv, r)) != 0)
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    return rc;
}

/* JSON: {worker: {"('JOB TYPE', K)": throughput, ...}, ...}; JSON is YAML,
 * so our YAML reader gives positions for free. */
static int gavel_json(const char *path, gsamples *g, cp_diags *d)
{
    cp_node *root = NULL;
    int rc = cp_yaml_load_file(path, &root, d);
    if (rc != CP_OK)
        return rc;
    if (root->kind != CP_NODE_MAP) {
        rc = cp_diags_add(d, CP_ERR_INPUT, root->pos, "expected a mapping of worker types");
        goto out;
    }
    for (size_t w = 0; w < root->n; w++) {
        const cp_node *wk = root->kids[2 * w], *jobs = root->kids[2 * w + 1];
        if (wk->kind != CP_NODE_SCALAR || jobs->kind != CP_NODE_MAP) {
            rc = cp_diags_add(d, CP_ERR_INPUT, jobs->pos, "expected a mapping of jobs");
            continue;
        }
        for (size_t j = 0; j < jobs->n; j++) {
            const cp_node *key = jobs->kids[2 * j], *val = jobs->kids[2 * j + 1];
            double thr;
            const char *s = key->kind == CP_NODE_SCALAR ? key->str : "";
            const char *q = strrchr(s, '\'');
            size_t len = strlen(s);
            char *end = NULL;
            long k = 0;
            if (strncmp(s, "('", 2) == 0 && q && q > s + 1 && strncmp(q, "', ", 3) == 0)
                k = strtol(q + 3, &end, 10);
            if (!end || strcmp(end, ")") != 0 || k < 1 || k > 1000000 || len < 6) {
                rc = cp_diags_add(d, CP_ERR_INPUT, key->pos,
                                  "expected a key like \"('JOB TYPE', COUNT)\"");
                continue;
            }
            if (val->kind != CP_NODE_SCALAR || !cp_scalar_number(val, &thr) || !isfinite(thr) ||
                thr < 0) {
                rc = cp_diags_add(d, CP_ERR_INPUT, val->pos, "expected a throughput >= 0");
                continue;
            }
            char *job = cp_strndup(s + 2, (size_t)(q - s - 2));
            if (!job || gadd(g, wk->str, job, (int)k, thr, key->pos) != 0)
                rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            cp_free(job);
        }
    }
out:
    cp_node_free(root);
    return rc;
}

/* The fragment: the accelerators the jobs name, so it is self-contained
 * (device memory from the public data sheets), then the fitted jobs. */
static void gavel_yaml(cp_buf *b, const char *path, const cp_import_gavel_opts *o,
                       const gsamples *g, const cp_tr_report *rep)
{
    cp_buf_printf(b, "# capplan import gavel %s%s%s\n", path, o->match ? " --match " : "",
                  o->match ? o->match : "");
    cp_buf_puts(b, "# Gavel (Narayanan et al., OSDI 2020; MIT licence): steps/s per GPU type\n");
    cp_buf_puts(b, "accelerators:\n");
    static const struct {
        const char *name;
        double gb;
    } mem[] = {{"K80", 12}, {"P100", 16}, {"V100", 16}, {NULL, 0}};
    for (int i = 0; mem[i].name; i++) {
        bool used = false;
        for (int j = 0; j < g->n && !used; j++)
            used = strncmp(g->s[j].acc, mem[i].name, strlen(mem[i].name)) == 0;
        if (used)
            cp_buf_printf(b, "  - {name: %s, memory_gb: %g}\n", mem[i].name, mem[i].gb);
    }
    cp_fit_tr_yaml(b, rep, NULL, 0, o->work);
}

int cp_import_gavel(const char *path, const cp_import_gavel_opts *o, cp_buf *out, cp_diags *d)
{
    int rc;
    regex_t re;
    gsamples g;
    memset(&g, 0, sizeof g);
    g.unconsolidated = o->unconsolidated;
    cp_tr_report *rep = NULL;
    cp_buf b;
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
    cp_fit_opts fo;
    cp_fit_opts_init(&fo);
    fo.amdahl = o->amdahl;
    if (!(o->work > 0) || !isfinite(o->work))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "--work must be a number > 0");
    if (o->match) {
        if (regcomp(&re, o->match, REG_EXTENDED | REG_NOSUB) != 0)
            return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                                "bad --match regular expression '%s'", o->match);
        g.re = &re;
    }
    size_t len = strlen(path);
    bool json = len > 5 && strcmp(path + len - 5, ".json") == 0;
    if ((rc = json ? gavel_json(path, &g, d) : gavel_csv(path, &g, d)) != CP_OK)
        goto out;
    if (g.n == 0) {
        rc = cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                          "no measurements left after filtering");
        goto out;
    }
    if ((rc = cp_tr_fit_all(g.s, g.n, &fo, &rep, d, &err)) != CP_OK) {
        cp_diags_add_err(d, &err);
        goto out;
    }
    /* what the loader would refuse is refused here, at the job's first
     * measurement: a throughput of 0 (a fit from measurements near zero
     * underflows) or a speedup that is not a finite number > 0 */
    for (int i = 0; i < rep->n_fits && rc == CP_OK; i++) {
        const cp_tr_fit *f = &rep->fits[i];
        for (int t = 0; t < f->n_types && rc == CP_OK; t++)
            if (!(f->types[t].thr1 > 0) || !isfinite(f->types[t].thr1))
                rc = cp_diags_add(d, CP_ERR_INPUT, f->pos,
                                  "job '%s' accelerator '%s': the one-accelerator throughput "
                                  "is %g, not a number > 0 (measurements too close to 0?)",
                                  f->job, f->types[t].acc, f->types[t].thr1);
        for (int k = 0; !f->amdahl && k < f->n_counts && rc == CP_OK; k++)
            if (!(f->speedup[k] > 0) || !isfinite(f->speedup[k]))
                rc = cp_diags_add(d, CP_ERR_INPUT, f->pos,
                                  "job '%s': the speedup at %d accelerators is %g, not a number "
                                  "> 0 (measurements too far apart?)",
                                  f->job, f->counts[k], f->speedup[k]);
    }
    if (rc != CP_OK)
        goto out;
    gavel_yaml(&b, path, o, &g, rep);
    rc = import_deliver(&b, out, d);
out:
    if (g.re)
        regfree(&re);
    cp_tr_report_free(rep);
    cp_buf_release(&b);
    for (int i = 0; i < g.n_owned; i++)
        cp_free(g.owned[i]);
    cp_free(g.owned);
    cp_free(g.s);
    cp_csv_free(g.csv);
    return rc;
}
