/*
 * capplan import skypilot|gavel|c3o FILE [options]
 *
 * Turns published catalogs and measurements into capplan inputs:
 *  - skypilot: a SkyPilot catalog vms.csv -> `accelerators:` and `offers:`
 *    (planner/import_skypilot.c);
 *  - gavel: Gavel's measured throughputs (CSV or JSON) -> training jobs
 *    with `throughput` and `scaling: table`, through the same combination
 *    of accelerator types as `fit training` (models/cp_fit_train.c);
 *  - c3o: a C3O runtime TSV -> the dataflow samples CSV that `fit
 *    dataflow` reads.
 * Output goes to -o FILE (atomically) or standard output; warnings about
 * skipped rows name FILE:LINE on standard error.
 */
#include "cp_cmd.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_buf.h"
#include "cp_csv.h"
#include "cp_fit.h"
#include "cp_yaml.h"
#include "import_internal.h"
#include "cp_fit_write.h"
#include "cp_yaml_put.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: capplan import skypilot VMS.csv [-o FILE] [--region R] [--zone Z]\n"
    "                      [--types REGEX] [--accelerators A,B] [--provider P] [--site S]\n"
    "       capplan import gavel THROUGHPUTS.csv|json [-o FILE] [--match REGEX]\n"
    "                      [--work STEPS] [--scaling table|amdahl] [--unconsolidated]\n"
    "       capplan import c3o FILE.tsv [-o FILE] [--job NAME]\n"
    "\n"
    "skypilot  catalog rows -> accelerators: and offers: (run 'capplan import\n"
    "          skypilot --help' for the details)\n"
    "gavel     per job type: throughput on one GPU per type (k80 -> K80, ...) and a\n"
    "          speedup table from the measured GPU counts; types measured as 0.0\n"
    "          (infeasible) are left out; --match keeps job types matching REGEX;\n"
    "          --work sets each job's steps (default 100000); the *_unconsolidated\n"
    "          worker types are skipped unless --unconsolidated is given\n"
    "c3o       a C3O TSV -> CSV job,type,machines,input_gb,seconds for 'fit dataflow'\n"
    "          (input_gb = data_size_MB / 1000; job defaults to the file's base name)\n";

static int write_out(const char *path, cp_buf *b)
{
    cp_err err;
    cp_err_init(&err);
    if (!cp_buf_ok(b)) {
        fprintf(stderr, "capplan import: out of memory\n");
        return 1;
    }
    if (cp_write_file_atomic(path, b->s, b->len, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        return 1;
    }
    return 0;
}

/* ---- c3o ---- */

static int import_c3o(int argc, char **argv)
{
    const char *in = NULL, *outpath = NULL, *job = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--job")) && i + 1 < argc) {
            if (argv[i][1] == 'o')
                outpath = argv[++i];
            else
                job = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "capplan import c3o: unknown option or missing value '%s'\n", argv[i]);
            fputs(usage_text, stderr);
            return 2;
        } else if (!in) {
            in = argv[i];
        } else {
            fprintf(stderr, "capplan import c3o: one input file only\n");
            return 2;
        }
    }
    if (!in) {
        fputs(usage_text, stderr);
        return 2;
    }
    int status = 2;
    cp_err err;
    cp_err_init(&err);
    cp_csv *csv = NULL;
    char *base = NULL;
    cp_buf b;
    cp_buf_init(&b);
    cp_diags *diags = cp_malloc(sizeof *diags);
    if (!diags)
        goto out;
    cp_diags_init(diags);
    if (cp_csv_read(in, '\t', &csv, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        goto out;
    }
    if (!job) { /* "/x/sort.tsv" -> "sort" */
        const char *s = strrchr(in, '/');
        s = s ? s + 1 : in;
        const char *dot = strchr(s, '.');
        base = cp_strndup(s, dot ? (size_t)(dot - s) : strlen(s));
        if (!base)
            goto out;
        job = base;
    }
    static const char *const names[] = {"instance_count", "machine_type", "data_size_MB",
                                        "gross_runtime"};
    int col[4];
    for (int i = 0; i < 4; i++)
        if ((col[i] = cp_csv_col(csv, names[i])) < 0)
            cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head), "missing column '%s'",
                         names[i]);
    if (diags->n) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    cp_buf_puts(&b, "job,type,machines,input_gb,seconds\n");
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double m, mb, sec;
        const char *type = cp_csv_get(r, col[1]);
        if (!cp_csv_number(cp_csv_get(r, col[0]), &m) || !(m > 0) ||
            !cp_csv_number(cp_csv_get(r, col[2]), &mb) || !(mb >= 0) ||
            !cp_csv_number(cp_csv_get(r, col[3]), &sec) || !(sec > 0) || !*type ||
            strpbrk(type, ",\"\n")) {
            cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, r), "unreadable run");
            continue;
        }
        char t[40];
        cp_buf_puts(&b, job);
        cp_buf_printf(&b, ",%s,", type);
        cp_yaml_fmt_num(t, sizeof t, m);
        cp_buf_printf(&b, "%s,", t);
        /* MB -> GB, decimal like the rest of capplan's units. */
        cp_yaml_fmt_num(t, sizeof t, mb / 1000);
        cp_buf_printf(&b, "%s,", t);
        cp_yaml_fmt_num(t, sizeof t, sec);
        cp_buf_printf(&b, "%s\n", t);
    }
    if (diags->n) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    status = write_out(outpath, &b);
out:
    cp_buf_release(&b);
    cp_csv_free(csv);
    cp_free(base);
    cp_free(diags);
    return status;
}

/* ---- gavel ---- */

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
static int gadd(gsamples *g, const char *worker, const char *job, int k, double thr, cp_pos pos,
                const regex_t *re, bool unconsolidated)
{
    if (thr == 0) /* Gavel: infeasible on this type (out of memory) */
        return 0;
    if (!unconsolidated && strstr(worker, "_unconsolidated"))
        return 0;
    if (re && regexec(re, job, 0, NULL, 0) != 0)
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

static int gavel_csv(const char *path, gsamples *g, const regex_t *re, bool uncons,
                     cp_diags *diags)
{
    cp_err err;
    cp_err_init(&err);
    cp_csv *csv = NULL;
    if (cp_csv_read(path, ',', &csv, &err) != CP_OK) {
        cp_diags_add_err(diags, &err);
        return err.code;
    }
    g->csv = csv;
    int rc = CP_OK;
    static const char *const names[] = {"worker_type", "job_type", "scale_factor",
                                        "throughput_steps_per_s"};
    int col[4];
    for (int i = 0; i < 4; i++)
        if ((col[i] = cp_csv_col(csv, names[i])) < 0)
            rc = cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                              "missing column '%s'", names[i]);
    for (int i = 0; rc == CP_OK && i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double k, thr;
        if (!cp_csv_number(cp_csv_get(r, col[2]), &k) || k != floor(k) || k < 1 || k > 1e6 ||
            !cp_csv_number(cp_csv_get(r, col[3]), &thr) || thr < 0 || !*cp_csv_get(r, col[0]) ||
            !*cp_csv_get(r, col[1])) {
            rc = cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, r), "unreadable measurement");
            continue;
        }
        if (gadd(g, cp_csv_get(r, col[0]), cp_csv_get(r, col[1]), (int)k, thr,
                 cp_csv_pos(csv, r), re, uncons) != 0)
            rc = cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    return rc;
}

/* JSON: {worker: {"('JOB TYPE', K)": throughput, ...}, ...}; JSON is YAML,
 * so our YAML reader gives positions for free. */
static int gavel_json(const char *path, gsamples *g, const regex_t *re, bool uncons,
                      cp_diags *diags)
{
    cp_node *root = NULL;
    if (cp_yaml_load_file(path, &root, diags) != CP_OK)
        return CP_ERR_INPUT;
    int rc = CP_OK;
    if (root->kind != CP_NODE_MAP) {
        rc = cp_diags_add(diags, CP_ERR_INPUT, root->pos, "expected a mapping of worker types");
        goto out;
    }
    for (size_t w = 0; w < root->n; w++) {
        const cp_node *wk = root->kids[2 * w], *jobs = root->kids[2 * w + 1];
        if (wk->kind != CP_NODE_SCALAR || jobs->kind != CP_NODE_MAP) {
            rc = cp_diags_add(diags, CP_ERR_INPUT, jobs->pos, "expected a mapping of jobs");
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
                rc = cp_diags_add(diags, CP_ERR_INPUT, key->pos,
                                  "expected a key like \"('JOB TYPE', COUNT)\"");
                continue;
            }
            if (val->kind != CP_NODE_SCALAR || !cp_scalar_number(val, &thr) || !isfinite(thr) ||
                thr < 0) {
                rc = cp_diags_add(diags, CP_ERR_INPUT, val->pos, "expected a throughput >= 0");
                continue;
            }
            char *job = cp_strndup(s + 2, (size_t)(q - s - 2));
            if (!job || gadd(g, wk->str, job, (int)k, thr, key->pos, re, uncons) != 0)
                rc = cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            cp_free(job);
        }
    }
out:
    cp_node_free(root);
    return rc;
}

static int import_gavel(int argc, char **argv)
{
    const char *in = NULL, *outpath = NULL, *match = NULL;
    double work = 100000;
    bool uncons = false;
    cp_fit_opts opts;
    cp_fit_opts_init(&opts);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--unconsolidated")) {
            uncons = true;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--match") || !strcmp(a, "--work") ||
                    !strcmp(a, "--scaling")) && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(a, "-o")) {
                outpath = v;
            } else if (!strcmp(a, "--match")) {
                match = v;
            } else if (!strcmp(a, "--scaling")) {
                if (strcmp(v, "table") && strcmp(v, "amdahl")) {
                    fprintf(stderr, "capplan import gavel: --scaling must be table or amdahl\n");
                    return 2;
                }
                opts.amdahl = !strcmp(v, "amdahl");
            } else {
                char *end;
                work = strtod(v, &end);
                if (*end || !(work > 0) || !isfinite(work)) {
                    fprintf(stderr, "capplan import gavel: --work must be a number > 0\n");
                    return 2;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "capplan import gavel: unknown option or missing value '%s'\n", a);
            fputs(usage_text, stderr);
            return 2;
        } else if (!in) {
            in = a;
        } else {
            fprintf(stderr, "capplan import gavel: one input file only\n");
            return 2;
        }
    }
    if (!in) {
        fputs(usage_text, stderr);
        return 2;
    }
    int status = 2, rc;
    regex_t re;
    bool have_re = false;
    gsamples g;
    memset(&g, 0, sizeof g);
    cp_tr_report *rep = NULL;
    cp_buf b;
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
    cp_diags *diags = cp_malloc(sizeof *diags), *warn = cp_malloc(sizeof *warn);
    if (!diags || !warn)
        goto out;
    cp_diags_init(diags);
    cp_diags_init(warn);
    if (match) {
        if (regcomp(&re, match, REG_EXTENDED | REG_NOSUB) != 0) {
            fprintf(stderr, "capplan import gavel: bad --match regular expression '%s'\n", match);
            goto out;
        }
        have_re = true;
    }
    size_t len = strlen(in);
    bool json = len > 5 && strcmp(in + len - 5, ".json") == 0;
    rc = json ? gavel_json(in, &g, have_re ? &re : NULL, uncons, diags)
              : gavel_csv(in, &g, have_re ? &re : NULL, uncons, diags);
    if (rc != CP_OK) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    if (g.n == 0) {
        fprintf(stderr, "%s: error: no measurements left after filtering\n", in);
        goto out;
    }
    if (cp_tr_fit_all(g.s, g.n, &opts, &rep, warn, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        status = 1;
        goto out;
    }
    cp_diags_print(warn, stderr);
    cp_buf_printf(&b, "# capplan import gavel %s%s%s\n", in, match ? " --match " : "",
                  match ? match : "");
    cp_buf_puts(&b, "# Gavel (Narayanan et al., OSDI 2020; MIT licence): steps/s per GPU type\n");
    /* The accelerators the jobs name, so the fragment is self-contained;
     * device memory from the public data sheets. */
    cp_buf_puts(&b, "accelerators:\n");
    static const struct { const char *name; double gb; } mem[] = {
        {"K80", 12}, {"P100", 16}, {"V100", 16}, {NULL, 0}};
    for (int i = 0; mem[i].name; i++) {
        bool used = false;
        for (int j = 0; j < g.n && !used; j++)
            used = strncmp(g.s[j].acc, mem[i].name, strlen(mem[i].name)) == 0;
        if (used)
            cp_buf_printf(&b, "  - {name: %s, memory_gb: %g}\n", mem[i].name, mem[i].gb);
    }
    cp_fit_tr_yaml(&b, rep, NULL, 0, work);
    status = write_out(outpath, &b);
out:
    if (have_re)
        regfree(&re);
    cp_tr_report_free(rep);
    cp_buf_release(&b);
    for (int i = 0; i < g.n_owned; i++)
        cp_free(g.owned[i]);
    cp_free(g.owned);
    cp_free(g.s);
    cp_csv_free(g.csv);
    cp_free(diags);
    cp_free(warn);
    return status;
}

int cp_cmd_import(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "skypilot"))
        return cp_import_skypilot(argc - 1, argv + 1);
    if (!strcmp(argv[1], "gavel"))
        return import_gavel(argc - 1, argv + 1);
    if (!strcmp(argv[1], "c3o"))
        return import_c3o(argc - 1, argv + 1);
    fprintf(stderr, "capplan import: '%s' is not skypilot, gavel or c3o\n", argv[1]);
    fputs(usage_text, stderr);
    return 2;
}
