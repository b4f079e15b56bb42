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
 * Accelerators take their canonical names and figures from the table
 * of cp_imp_accel.h ("k80" -> K80, 12 GB, 150 W), as every importer's do.
 *
 * Scaling per type (capplan.5 §1.7, since version 1.1): by default each type gets its
 * own speedup table, S_t(k) = measured_t(k) / thr1_t, since Gavel's
 * speedups differ between types (up to 226 % apart); a count a type was
 * not measured at takes the speedup fitted over all types (so every
 * allowed k has a value), and says so in a comment. --scaling shared
 * writes the one table over all types (before 1.1), amdahl one Amdahl fit.
 * The rule and the writer are the fit's (models/fit/cp_fit_train.c,
 * cp_fit_tr_put_model), shared with `fit training`.
 *
 * --trace FILE turns the jobs of a Gavel trace (physical_cluster_*.trace,
 * 10 columns, or the older 7-column msr_*.trace from Philly's job
 * distribution) into jobs: one per line, named "N:JOB TYPE" after its
 * line, its work the trace's total_steps (steps, the throughputs' unit),
 * its accelerator count the trace's scale_factor, released at its
 * arrival time. A line whose job type or count was not measured is
 * skipped with a warning.
 *
 * Ownership: the samples borrow their names from `gsamples.owned` and
 * their positions' file name from the CSV (or the caller's path for
 * JSON), so both live until the fragment is written.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_imp_accel.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_fit.h"
#include "cp_file.h"
#include "cp_input.h"
#include "cp_fit_write.h"
#include "cp_yaml.h"
#include "cp_yaml_put.h"
#include "cp_num.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

void cp_import_gavel_opts_init(cp_import_gavel_opts *o)
{
    o->match = NULL;
    o->work = 100000;
    o->amdahl = false;
    o->shared = false;
    o->unconsolidated = false;
    o->accel_table = NULL;
    o->trace = NULL;
    o->preemptible = false;
    o->cpus_per_acc = 0;
    o->mem_per_acc = 0;
    o->max_jobs = 0;
}

/* Gavel's worker type as a capplan accelerator name: the table's
 * ("k80" -> "K80"), else upper case. */
static char *acc_name(const cp_imp_accel_table *t, const char *worker)
{
    int mismatch;
    const cp_imp_accel *a = cp_imp_accel_find(t, worker, 0, &mismatch);
    if (a)
        return cp_strdup(a->name);
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
    const cp_imp_accel_table *tab;
    /* the measurements of 0 left out, for one warning: "'JOB' on TYPE
     * xK, xK; ..." (consecutive ones of a job and type share a group) */
    cp_buf zeros;
    int n_zeros;
    cp_pos zero_pos;
    char *zero_job, *zero_acc; /* the last group's */
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

/* Notes a measurement of 0 (Gavel: the job does not fit on that type)
 * for the one warning; returns -1 on out of memory. */
static int gzero(gsamples *g, const char *worker, const char *job, int k, cp_pos pos)
{
    char *acc = acc_name(g->tab, worker);
    if (!acc)
        return -1;
    if (!g->n_zeros++)
        g->zero_pos = pos;
    if (g->zero_job && !strcmp(g->zero_job, job) && !strcmp(g->zero_acc, acc)) {
        cp_buf_printf(&g->zeros, ", x%d", k);
        cp_free(acc);
    } else {
        cp_buf_printf(&g->zeros, "%s'%s' on %s x%d", g->zeros.len ? "; " : "", job, acc, k);
        cp_free(g->zero_job);
        cp_free(g->zero_acc);
        g->zero_job = cp_strdup(job);
        g->zero_acc = acc;
        if (!g->zero_job)
            return -1;
    }
    return cp_buf_ok(&g->zeros) ? 0 : -1;
}

/* Adds one measurement unless filtered out; returns -1 on out of memory. */
static int gadd(gsamples *g, const char *worker, const char *job, int k, double thr, cp_pos pos)
{
    if (!g->unconsolidated && strstr(worker, "_unconsolidated"))
        return 0;
    if (g->re && regexec(g->re, job, 0, NULL, 0) != 0)
        return 0;
    if (thr == 0) /* Gavel: infeasible on this type (out of memory) */
        return gzero(g, worker, job, k, pos);
    if (CP_GROW(g->s, g->cap, (size_t)g->n + 1) != 0)
        return -1;
    cp_tr_sample *x = &g->s[g->n];
    x->acc = own(g, acc_name(g->tab, worker));
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
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head), "missing column '%s'",
                              names[i]);
    for (int i = 0; rc == CP_OK && i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double k, thr;
        long kl;
        if (!cp_csv_number(cp_csv_get(r, col[2]), &k) || !cp_num_is_whole(k, 1, 1000000, &kl) ||
            !cp_csv_number(cp_csv_get(r, col[3]), &thr) || thr < 0 || !*cp_csv_get(r, col[0]) ||
            !*cp_csv_get(r, col[1])) {
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, r), "unreadable measurement");
            continue;
        }
        if (gadd(g, cp_csv_get(r, col[0]), cp_csv_get(r, col[1]), (int)kl, thr,
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

/* One job of a Gavel trace. */
typedef struct tjob {
    const char *type; /* borrowed from the trace's CSV */
    int line, k;
    int k_col; /* where the GPU count stands on its line */
    double steps, arrival_s;
} tjob;

/* The jobs of a trace (cp_import.h: --trace); lines that cannot be read
 * are errors. The trace has no header: one is put before its text, so
 * positions are one line late and are corrected here. */
static int read_trace(const char *path, cp_csv **csv_out, tjob **out, int *n_out, cp_diags *d)
{
    cp_err err;
    cp_err_init(&err);
    char *text = NULL;
    size_t len = 0;
    int rc = cp_file_read(path, "trace", &text, &len, &err);
    if (rc != CP_OK) {
        cp_diags_add_err(d, &err);
        return rc;
    }
    cp_buf t;
    cp_buf_init(&t);
    cp_buf_puts(&t, "c0\tc1\tc2\tc3\tc4\tc5\tc6\tc7\tc8\tc9\n");
    cp_buf_add(&t, text, len);
    cp_free(text);
    if (!cp_buf_ok(&t)) {
        cp_buf_release(&t);
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    cp_csv *csv = NULL;
    rc = cp_csv_read_string(path, t.s, t.len, '\t', &csv, &err);
    cp_buf_release(&t);
    if (rc != CP_OK) {
        if (err.line > 1)
            err.line--;
        cp_diags_add_err(d, &err);
        return rc;
    }
    tjob *jobs = csv->n_rows ? cp_calloc((size_t)csv->n_rows, sizeof *jobs) : NULL;
    if (csv->n_rows && !jobs) {
        cp_csv_free(csv);
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    int n = 0;
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        cp_pos pos = cp_csv_pos(csv, r);
        pos.line--;
        pos.col = 1;
        /* 10 columns: type, command, dir, steps arg, needs data, total
         * steps, scale factor, priority, SLO, arrival; 7 (msr): type,
         * command, steps arg, needs data, total steps, arrival, scale */
        int c_steps = r->n == 10 ? 5 : 4, c_k = r->n == 10 ? 6 : 6, c_arr = r->n == 10 ? 9 : 5;
        double steps, k, arr;
        long kl = 0;
        if ((r->n != 10 && r->n != 7) || !*cp_csv_get(r, 0) ||
            !cp_csv_number(cp_csv_get(r, c_steps), &steps) || !(steps > 0) ||
            !cp_csv_number(cp_csv_get(r, c_k), &k) || !cp_num_is_whole(k, 1, 1000000, &kl) ||
            !cp_csv_number(cp_csv_get(r, c_arr), &arr) || !(arr >= 0)) {
            if (r->n == 10 || r->n == 7) { /* point at the first bad field */
                double x;
                int f =
                    !*cp_csv_get(r, 0)                                       ? 0
                    : !cp_csv_number(cp_csv_get(r, c_steps), &x) || !(x > 0) ? c_steps
                    : !cp_csv_number(cp_csv_get(r, c_k), &x) || x != floor(x) || x < 1 || x > 1e6
                        ? c_k
                        : c_arr;
                pos.col = import_field_pos(csv, r, f).col;
            }
            rc = cp_diags_add(d, CP_ERR_INPUT, pos,
                              "not a Gavel trace line: expected 10 (or 7) tab-separated fields "
                              "with total steps > 0, a GPU count and an arrival time >= 0");
            continue;
        }
        jobs[n++] = (tjob){cp_csv_get(r, 0), pos.line, (int)kl, import_field_pos(csv, r, c_k).col,
                           steps, arr};
    }
    if (rc != CP_OK) {
        cp_free(jobs);
        cp_csv_free(csv);
        return rc;
    }
    *csv_out = csv;
    *out = jobs;
    *n_out = n;
    return CP_OK;
}

static double shared_speedup(const cp_tr_fit *f, int k)
{
    for (int c = 0; c < f->n_counts; c++)
        if (f->counts[c] == k)
            return f->speedup[c];
    return NAN;
}

/* A job's accelerators, throughput and scaling, for the allowed counts
 * ks[0..nk): the fit's own writer (models/fit), as `fit training`'s. */
static void put_model(cp_buf *b, const cp_tr_fit *f, const int *ks, int nk)
{
    cp_buf_puts(b, "    accelerators: [");
    for (int c = 0; c < nk; c++)
        cp_buf_printf(b, "%s%d", c ? ", " : "", ks[c]);
    cp_buf_puts(b, "]\n");
    cp_fit_tr_put_model(b, f, ks, nk);
}

/* What every job gets from the options: spot, host CPUs and memory. */
static void put_job_opts(cp_buf *b, const cp_import_gavel_opts *o)
{
    if (o->preemptible)
        cp_buf_puts(b, "    preemptible: true\n");
    if (o->cpus_per_acc > 0) {
        cp_buf_puts(b, "    cpus_per_accelerator: ");
        cp_yaml_put_num(b, o->cpus_per_acc);
        cp_buf_putc(b, '\n');
    }
    if (o->mem_per_acc > 0) {
        cp_buf_puts(b, "    memory_gb_per_accelerator: ");
        cp_yaml_put_num(b, o->mem_per_acc);
        cp_buf_putc(b, '\n');
    }
}

/* The fragment: the accelerators the jobs name (from the canonical table,
 * so it is self-contained and agrees with the catalogs' fragments), then
 * one job per fitted job type, or per trace line. */
static void gavel_yaml(cp_buf *b, const char *path, const cp_import_gavel_opts *o,
                       const cp_imp_accel_table *tab, const cp_tr_report *rep, const tjob *tj,
                       int n_tj, cp_diags *d, const char *trace_path)
{
    cp_buf c;
    cp_buf_init(&c);
    cp_buf_puts(&c, "capplan import gavel");
    import_cmd_arg(&c, NULL, path);
    import_cmd_arg(&c, "--match", o->match);
    import_cmd_arg(&c, "--trace", o->trace);
    import_cmd_arg(&c, "--accel-table", o->accel_table);
    if (o->preemptible)
        cp_buf_puts(&c, " --preemptible");
    if (o->cpus_per_acc > 0)
        cp_buf_printf(&c, " --cpus-per-accelerator %.17g", o->cpus_per_acc);
    if (o->mem_per_acc > 0)
        cp_buf_printf(&c, " --memory-per-accelerator %.17g", o->mem_per_acc);
    if (o->max_jobs > 0)
        cp_buf_printf(&c, " --max-jobs %d", o->max_jobs);
    cp_yaml_put_comment(b, cp_buf_ok(&c) ? c.s : "capplan import gavel");
    cp_buf_release(&c);
    cp_buf_puts(b, "# Gavel (Narayanan et al., OSDI 2020; MIT licence): steps/s per GPU type\n");
    cp_buf_puts(b, "accelerators:\n");
    /* each type once, in the order the fits name them */
    const char *seen[64];
    int n_seen = 0;
    for (int i = 0; i < rep->n_fits; i++)
        for (int t = 0; t < rep->fits[i].n_types; t++) {
            const char *acc = rep->fits[i].types[t].acc;
            int k = 0;
            while (k < n_seen && strcmp(seen[k], acc))
                k++;
            if (k < n_seen || n_seen == 64)
                continue;
            seen[n_seen++] = acc;
            int mismatch;
            const cp_imp_accel *a = cp_imp_accel_find(tab, acc, 0, &mismatch);
            if (a && !strcmp(a->name, acc)) {
                cp_imp_accel_put_yaml(b, a);
                if (a->power_w < 0)
                    cp_diags_warn(d, rep->fits[i].pos,
                                  "accelerator '%s': no published power figure; power_w not "
                                  "written",
                                  acc);
            } else {
                cp_diags_warn(d, rep->fits[i].pos,
                              "accelerator '%s' is not in the accelerator table: not defined "
                              "here (define it, or add it with --accel-table)",
                              acc);
            }
        }
    cp_buf_puts(b, "jobs:\n");
    int written = 0, max = o->max_jobs > 0 ? o->max_jobs : INT_MAX;
    if (!tj && !trace_path) {
        for (int i = 0; i < rep->n_fits && written < max; i++) {
            const cp_tr_fit *f = &rep->fits[i];
            if (strlen(f->job) > CP_NAME_MAX) { /* the loader's limit */
                cp_diags_warn(d, f->pos, "job name longer than %d bytes; skipped", CP_NAME_MAX);
                continue;
            }
            cp_buf_puts(b, "  - name: ");
            cp_yaml_put_str(b, f->job);
            cp_buf_puts(b, "\n    kind: training\n    work: ");
            cp_yaml_put_num(b, o->work);
            cp_buf_puts(b, "  # set with --work, or take each job's from a trace (--trace)\n");
            put_job_opts(b, o);
            put_model(b, f, f->counts, f->n_counts);
            written++;
        }
        return;
    }
    for (int j = 0; j < n_tj && written < max; j++) {
        const cp_tr_fit *f = NULL;
        for (int i = 0; i < rep->n_fits && !f; i++)
            if (!strcmp(rep->fits[i].job, tj[j].type))
                f = &rep->fits[i];
        cp_pos pos = {trace_path, tj[j].line, 1};
        if (!f) {
            cp_diags_warn(d, pos,
                          "job type '%s' has no measured throughput (or --match left it "
                          "out); skipped",
                          tj[j].type);
            continue;
        }
        if (!(shared_speedup(f, tj[j].k) > 0)) {
            pos.col = tj[j].k_col; /* about the count */
            cp_diags_warn(d, pos, "job type '%s' was not measured on %d GPUs; skipped", tj[j].type,
                          tj[j].k);
            continue;
        }
        char name[40];
        snprintf(name, sizeof name, "%d:", tj[j].line);
        if (strlen(name) + strlen(tj[j].type) > CP_NAME_MAX) { /* the loader's limit */
            cp_diags_warn(d, pos, "job name longer than %d bytes; skipped", CP_NAME_MAX);
            continue;
        }
        cp_buf name_b;
        cp_buf_init(&name_b);
        cp_buf_printf(&name_b, "%s%s", name, tj[j].type);
        cp_buf_puts(b, "  - name: ");
        cp_yaml_put_str(b, cp_buf_ok(&name_b) ? name_b.s : name);
        cp_buf_release(&name_b);
        cp_buf_puts(b, "\n    kind: training\n    work: ");
        cp_yaml_put_num(b, tj[j].steps);
        cp_buf_puts(b, "  # total steps from the trace\n");
        if (tj[j].arrival_s > 0) {
            cp_buf_puts(b, "    release_hour: ");
            cp_yaml_put_num(b, round(tj[j].arrival_s / 3600 * 1e6) / 1e6);
            cp_buf_putc(b, '\n');
        }
        put_job_opts(b, o);
        put_model(b, f, &tj[j].k, 1);
        written++;
    }
}

int cp_import_gavel(const char *path, const cp_import_gavel_opts *o, cp_buf *out, cp_diags *d)
{
    int rc;
    regex_t re;
    gsamples g;
    memset(&g, 0, sizeof g);
    cp_buf_init(&g.zeros);
    g.unconsolidated = o->unconsolidated;
    cp_tr_report *rep = NULL;
    cp_buf b;
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
    cp_fit_opts fo;
    cp_fit_opts_init(&fo);
    fo.amdahl = o->amdahl;
    fo.shared = o->shared;
    cp_imp_accel_table *tab = NULL;
    cp_diags *scratch = NULL;
    cp_csv *tcsv = NULL;
    tjob *tj = NULL;
    int n_tj = 0;
    if (!(o->work > 0) || !isfinite(o->work))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "--work must be a number > 0");
    if (o->match) {
        if (regcomp(&re, o->match, REG_EXTENDED | REG_NOSUB) != 0)
            return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                                "bad --match regular expression '%s'", o->match);
        g.re = &re;
    }
    if ((rc = cp_imp_accel_table_load(o->accel_table, &tab, d)) != CP_OK)
        goto out;
    g.tab = tab;
    if (o->trace && (rc = read_trace(o->trace, &tcsv, &tj, &n_tj, d)) != CP_OK)
        goto out;
    size_t len = strlen(path);
    bool json = len > 5 && strcmp(path + len - 5, ".json") == 0;
    if ((rc = json ? gavel_json(path, &g, d) : gavel_csv(path, &g, d)) != CP_OK)
        goto out;
    if (g.n_zeros)
        cp_diags_warn(d, g.zero_pos,
                      "%d measurement%s of 0 steps/s (Gavel: the job cannot run there) left "
                      "out: %s",
                      g.n_zeros, g.n_zeros == 1 ? "" : "s", g.zeros.s);
    if (g.n == 0) {
        rc = cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                          "no measurements left after filtering");
        goto out;
    }
    /* Per type, the fit's warnings (count 1 fitted, counts a type takes
     * from the mean table) are dropped: the fragment's comments say both
     * (kept as before the rule moved into models/fit). */
    scratch = o->shared || o->amdahl ? NULL : cp_malloc(sizeof *scratch);
    if (!o->shared && !o->amdahl && !scratch) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    if (scratch)
        cp_diags_init(scratch);
    if ((rc = cp_tr_fit_all(g.s, g.n, &fo, &rep, scratch ? scratch : d, &err)) != CP_OK) {
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
    gavel_yaml(&b, path, o, tab, rep, tj, n_tj, d, o->trace);
    rc = import_deliver(&b, out, d);
out:
    if (g.re)
        regfree(&re);
    cp_tr_report_free(rep);
    cp_imp_accel_table_free(tab);
    cp_free(scratch);
    cp_free(tj);
    cp_csv_free(tcsv);
    cp_buf_release(&b);
    for (int i = 0; i < g.n_owned; i++)
        cp_free(g.owned[i]);
    cp_free(g.owned);
    cp_free(g.s);
    cp_buf_release(&g.zeros);
    cp_free(g.zero_job);
    cp_free(g.zero_acc);
    cp_csv_free(g.csv);
    return rc;
}
