/*
 * capplan fit dataflow|training SAMPLES.csv [options] [JOBS.yaml...]
 *
 * Reads measured samples (capplan.5 §7), fits the models (models/fit/cp_fit.h),
 * prints one quality row per fit, and writes a YAML fragment that `plan`
 * accepts: a `jobs:` list. When job definitions are given (--jobs FILE or
 * extra YAML arguments), each fitted job copies the other keys of its
 * definition through unchanged; keys the fit produces replace theirs.
 * Without definitions, the required keys get documented stand-ins
 * (dataflow: the measured scale-outs and the largest measured input;
 * training: --work), so the fragment checks with just a horizon added.
 *
 * The fragment goes to -o FILE (atomically) or standard output; the
 * quality table goes to standard output when -o is given, else to
 * standard error so that standard output stays valid YAML.
 */
#include "cp_cmd.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_buf.h"
#include "cp_csv.h"
#include "cp_fit.h"
#include "cp_fit_cmd.h"
#include "cp_yaml.h"
#include "cp_fit_write.h"
#include "cp_yaml_put.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: capplan fit dataflow SAMPLES.csv [-o FILE] [--holdout] [--no-loo]\n"
    "                            [--jobs FILE]... [JOBS.yaml...]\n"
    "       capplan fit training SAMPLES.csv [-o FILE] [--scaling per-type|shared|amdahl]\n"
    "                            [--work N] [--jobs FILE]... [JOBS.yaml...]\n"
    "\n"
    "dataflow: CSV columns job,type,machines,input_gb,seconds (any order).\n"
    "  Fits Ernest's t(m) = θ0 + θ1·input_gb/m + θ2·ln m + θ3·m, θ >= 0, per\n"
    "  (job, type) by NNLS; reports samples, scale-outs, θ, R², MAPE,\n"
    "  leave-one-out MAPE and the residual standard deviation (seconds).\n"
    "  --holdout  also hold out each input size in turn and report the MAPE\n"
    "  --no-loo   skip leave-one-out cross validation (n refits per fit)\n"
    "  --params all|NAME,...  also fit models whose θ depend on these job\n"
    "             parameter columns; write θ per concrete job (docs/models.md)\n"
    "  --concrete NAME=JOB:P=V,...  a concrete job of measured JOB (input_gb=V\n"
    "             among the values); also a definition's fit: {job, params}\n"
    "  --samples FILE  another sample file (--params)\n"
    "training: CSV columns job,accelerator,count,throughput (work units/s of\n"
    "  the whole job). Writes per job the one-accelerator throughput per type\n"
    "  and its scaling (--scaling): per-type (default; also 'table') a table\n"
    "  per type of its own measured speedups, shared one table of the types'\n"
    "  mean speedups, amdahl Amdahl's law with the least-squares serial\n"
    "  fraction.\n"
    "  --work N   work units written for jobs without a definition (default 1e6)\n"
    "\n"
    "  -o FILE      write the YAML fragment there (atomically); default stdout\n"
    "               (the quality table then goes to stdout, else to stderr)\n"
    "  --jobs FILE  job definitions to merge (also: extra YAML arguments)\n"
    "  -q, --quiet  no quality table (warnings and errors still on stderr)\n"
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "See docs/models.md for the models and how accelerator types are combined;\n"
    "the full reference: man ./capplan.1 in the source tree.\n";

void defs_release(defs *d)
{
    for (int i = 0; i < d->n; i++)
        cp_node_free(d->roots[i]);
    cp_free(d->roots);
    cp_free(d->jobs);
}

int defs_load(defs *d, char **paths, int n, cp_diags *diags)
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

static bool has_key(const cp_node *def, const char *key)
{
    return def && cp_map_get(def, key) != NULL;
}

static void fmt(char *out, size_t n, double v)
{
    if (isnan(v))
        snprintf(out, n, "-");
    else
        snprintf(out, n, "%.4g", v);
}

/* ---- dataflow ---- */

static void df_table(FILE *out, const cp_df_report *r, bool holdout)
{
    fprintf(out, "%-14s %-12s %7s %5s %10s %10s %10s %10s %7s %7s %8s %9s%s\n", "job", "type",
            "samples", "m's", "theta0", "theta1", "theta2", "theta3", "R2", "MAPE%", "LOO%",
            "sigma_s", holdout ? "  holdout%" : "");
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        char loo[32], ho[32];
        fmt(loo, sizeof loo, f->e.loo_mape);
        fmt(ho, sizeof ho, f->e.holdout_mape);
        fprintf(out, "%-14s %-12s %7d %5d %10.4g %10.4g %10.4g %10.4g %7.4f %7.3g %8s %9.4g", f->job,
                f->type, f->e.samples, f->e.scaleouts, f->e.theta[0], f->e.theta[1],
                f->e.theta[2], f->e.theta[3], f->e.r2, f->e.mape, loo, f->e.sigma);
        if (holdout)
            fprintf(out, " %9s", ho);
        fputc('\n', out);
    }
}

static void df_yaml(cp_buf *b, const cp_df_report *r, const defs *d, const char *src)
{
    /* every comment line that holds user text (file, job and type names)
     * goes through cp_yaml_put_comment: a newline or U+2028 in a name
     * must not start a line of YAML */
    cp_buf line;
    cp_buf_init(&line);
    cp_buf_printf(&line, "capplan fit dataflow %s", src);
    cp_yaml_put_comment(b, line.s ? line.s : "");
    cp_buf_puts(b, "# Ernest: t(m) = theta0 + theta1*input_gb/m + theta2*ln(m) + theta3*m seconds\n");
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        char l[32];
        fmt(l, sizeof l, f->e.loo_mape);
        cp_buf_reset(&line);
        cp_buf_printf(&line, "%s on %s: %d samples, %d scale-outs, R2 %.4f, MAPE %.3g%%, LOO-MAPE %s%%",
                      f->job, f->type, f->e.samples, f->e.scaleouts, f->e.r2, f->e.mape, l);
        cp_yaml_put_comment(b, line.s ? line.s : "");
    }
    if (!cp_buf_ok(&line))
        b->oom = true; /* the caller's cp_buf_ok(b) then says out of memory */
    cp_buf_release(&line);
    cp_buf_puts(b, "jobs:\n");
    static const char *const skip[] = {"runtime", NULL};
    for (int i = 0; i < r->n_fits; i++) {
        const cp_df_fit *f = &r->fits[i];
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(r->fits[j].job, f->job) != 0;
        if (!first)
            continue;
        const cp_node *def = cp_fit_find_def(d->jobs, d->n_jobs, f->job);
        cp_buf_puts(b, "  - name: ");
        cp_yaml_put_str(b, f->job);
        cp_buf_putc(b, '\n');
        cp_fit_put_def_keys(b, def, skip);
        if (!has_key(def, "kind"))
            cp_buf_puts(b, "    kind: dataflow\n");
        if (!has_key(def, "input_gb")) {
            double mx = 0;
            for (int j = i; j < r->n_fits; j++)
                if (strcmp(r->fits[j].job, f->job) == 0)
                    mx = fmax(mx, r->fits[j].max_input_gb);
            cp_buf_puts(b, "    input_gb: ");
            cp_yaml_put_num(b, mx > 0 ? mx : 1);
            cp_buf_puts(b, "  # largest measured input: set this run's input\n");
        }
        if (!has_key(def, "machines"))
            cp_fit_df_machines(b, r, f->job);
        cp_buf_puts(b, "    runtime:\n      model: ernest\n      theta:\n");
        for (int j = i; j < r->n_fits; j++) {
            const cp_df_fit *g = &r->fits[j];
            if (strcmp(g->job, f->job))
                continue;
            cp_buf_puts(b, "        ");
            cp_yaml_put_str(b, g->type);
            cp_buf_puts(b, ": [");
            for (int k = 0; k < 4; k++) {
                cp_buf_puts(b, k ? ", " : "");
                cp_yaml_put_num(b, g->e.theta[k]);
            }
            cp_buf_puts(b, "]\n");
        }
        cp_buf_puts(b, "      sigma_seconds:\n");
        for (int j = i; j < r->n_fits; j++) {
            const cp_df_fit *g = &r->fits[j];
            if (strcmp(g->job, f->job))
                continue;
            cp_buf_puts(b, "        ");
            cp_yaml_put_str(b, g->type);
            cp_buf_puts(b, ": ");
            cp_yaml_put_num(b, g->e.sigma);
            cp_buf_putc(b, '\n');
        }
    }
}

/* ---- training ---- */

static void tr_table(FILE *out, const cp_tr_report *r)
{
    for (int i = 0; i < r->n_fits; i++) {
        const cp_tr_fit *f = &r->fits[i];
        fprintf(out, "job %s: scaling %s", f->job,
                f->amdahl ? "amdahl" : f->shared ? "shared table" : "table per type");
        if (f->amdahl)
            fprintf(out, " (serial_fraction %.6g)", f->serial_fraction);
        fprintf(out, ", MAPE %.3g%%\n", f->mape);
        for (int a = 0; a < f->n_types; a++)
            fprintf(out, "  throughput %-12s %12.6g per accelerator%s\n", f->types[a].acc,
                    f->types[a].thr1, f->types[a].thr1_fitted ? " (fitted: count 1 not measured)" : "");
        if (f->shared) {
            fprintf(out, "  speedup");
            for (int c = 0; c < f->n_counts; c++)
                fprintf(out, " %d:%.4g", f->counts[c], f->speedup[c]);
            fputc('\n', out);
        }
        for (int a = 0; !f->amdahl && !f->shared && a < f->n_types; a++) {
            /* '*': not measured on the type, the mean of the others */
            fprintf(out, "  speedup %-12s", f->types[a].acc);
            for (int c = 0; c < f->n_counts; c++)
                fprintf(out, " %d:%.4g%s", f->counts[c], f->types[a].speedup[c],
                        f->types[a].filled[c] && f->counts[c] != 1 ? "*" : "");
            fputc('\n', out);
        }
        fprintf(out, "  %-12s %5s %12s %12s %8s\n", "accelerator", "count", "measured",
                "predicted", "error%");
        for (int p = 0; p < f->n_points; p++) {
            const cp_tr_point *q = &f->points[p];
            fprintf(out, "  %-12s %5d %12.6g %12.6g %8.3f\n", q->acc, q->count, q->measured,
                    q->predicted, q->err_pct);
        }
    }
}

/* ---- command ---- */

int cp_cmd_fit(int argc, char **argv)
{
    const char *mode = NULL, *samples = NULL, *outpath = NULL;
    cp_fit_opts opts;
    cp_fit_opts_init(&opts);
    double work = 1e6;
    int status = 2;
    char **jobfiles = cp_calloc((size_t)argc + 1, sizeof *jobfiles);
    int n_jobfiles = 0;
    char **more = cp_calloc((size_t)argc + 1, sizeof *more);
    char **concrete = cp_calloc((size_t)argc + 1, sizeof *concrete);
    cp_fit_param_args fpa = {NULL, more, 0, concrete, 0};
    cp_diags *diags = cp_malloc(sizeof *diags); /* errors and warnings, printed once */
    cp_csv *csv = NULL;
    cp_df_sample *dfs = NULL;
    cp_tr_sample *trs = NULL;
    cp_df_report *dfr = NULL;
    cp_tr_report *trr = NULL;
    defs d;
    memset(&d, 0, sizeof d);
    cp_buf b;
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
    cp_cli_args args;
    memset(&args, 0, sizeof args);
    if (!jobfiles || !diags || !more || !concrete) {
        fprintf(stderr, "capplan fit: out of memory\n");
        goto out;
    }
    cp_diags_init(diags);

    enum { O_JOBS = 256, O_SCALING, O_WORK, O_HOLDOUT, O_NOLOO, O_PARAMS, O_SAMPLES, O_CONCRETE };
    static const struct option longopts[] = {{"jobs", required_argument, NULL, O_JOBS},
                                             {"scaling", required_argument, NULL, O_SCALING},
                                             {"work", required_argument, NULL, O_WORK},
                                             {"holdout", no_argument, NULL, O_HOLDOUT},
                                             {"no-loo", no_argument, NULL, O_NOLOO},
                                             {"params", required_argument, NULL, O_PARAMS},
                                             {"samples", required_argument, NULL, O_SAMPLES},
                                             {"concrete", required_argument, NULL, O_CONCRETE},
                                             {NULL, 0, NULL, 0}};
    if (cp_cli_args_std(&args, "fit", argc, argv, "o:", longopts, usage_text, NULL)) {
        status = 1;
        goto out;
    }
    int c;
    while ((c = cp_cli_next(&args)) != -1) {
        switch (c) {
        case 'o':
            outpath = optarg;
            break;
        case O_JOBS:
            jobfiles[n_jobfiles++] = optarg;
            break;
        case O_SCALING:
            /* the spellings of import gavel's --scaling */
            if (strcmp(optarg, "table") && strcmp(optarg, "per-type") && strcmp(optarg, "shared") &&
                strcmp(optarg, "amdahl")) {
                fprintf(stderr,
                        "capplan fit: --scaling must be per-type (or table), shared or amdahl, "
                        "not '%s'\n",
                        optarg);
                goto usage;
            }
            opts.amdahl = !strcmp(optarg, "amdahl");
            opts.shared = !strcmp(optarg, "shared");
            break;
        case O_WORK: {
            char *end;
            work = strtod(optarg, &end);
            if (*end || !(work > 0) || !isfinite(work)) {
                fprintf(stderr, "capplan fit: --work must be a number > 0, not '%s'\n", optarg);
                goto usage;
            }
            break;
        }
        case O_HOLDOUT:
            opts.holdout = true;
            break;
        case O_NOLOO:
            opts.loo = false;
            break;
        case O_PARAMS:
            fpa.params = optarg;
            break;
        case O_SAMPLES:
            fpa.more[fpa.n_more++] = optarg;
            break;
        case O_CONCRETE:
            fpa.concrete[fpa.n_concrete++] = optarg;
            break;
        default:
            status = cp_cli_bad_option(&args);
            goto out;
        }
    }
    if (args.helped) {
        status = 0;
        goto out;
    }
    bool quiet = args.quiet;
    /* operands: the kind, the samples, then job definitions */
    for (int i = 0; i < args.n_operands; i++) {
        if (i == 0)
            mode = args.operands[i];
        else if (i == 1)
            samples = args.operands[i];
        else
            jobfiles[n_jobfiles++] = args.operands[i];
    }
    if (!mode || !samples || (strcmp(mode, "dataflow") && strcmp(mode, "training"))) {
        if (mode && strcmp(mode, "dataflow") && strcmp(mode, "training"))
            fprintf(stderr, "capplan fit: '%s' is not dataflow or training\n", mode);
        goto usage;
    }
    bool dataflow = !strcmp(mode, "dataflow");
    {
        cp_fileset fs;
        const char *sample_in[] = {"samples", samples, NULL};
        const char *outs[] = {"-o", outpath, NULL};
        int orc = cp_cli_outputs("fit", &fs, jobfiles, n_jobfiles, sample_in, outs);
        cp_fileset_release(&fs);
        if (orc) {
            status = orc;
            goto out;
        }
    }

    if (dataflow && cp_fit_param_wanted(&fpa)) {
        status = cp_fit_param_run(&fpa, &opts, samples, jobfiles, n_jobfiles, outpath);
        goto out;
    }
    if (cp_csv_read(samples, 0, &csv, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        goto out;
    }
    int n = 0, rc;
    rc = dataflow ? cp_df_samples_read(csv, &dfs, &n, diags)
                  : cp_tr_samples_read(csv, &trs, &n, diags);
    if (defs_load(&d, jobfiles, n_jobfiles, diags) != CP_OK)
        rc = CP_ERR_INPUT;
    if (rc != CP_OK) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    rc = dataflow ? cp_df_fit_all(dfs, n, &opts, &dfr, diags, &err)
                  : cp_tr_fit_all(trs, n, &opts, &trr, diags, &err);
    if (rc != CP_OK)
        cp_diags_add_err(diags, &err);
    cp_diags_print(diags, stderr);
    if (rc != CP_OK) {
        status = rc == CP_ERR_INPUT ? 2 : 1;
        goto out;
    }
    /* the table on standard output when the fragment goes to a file; with
     * --quiet nowhere. It is made in a memory stream and printed through
     * cp_fputs_printable: job and type names come from the samples, and
     * an escape sequence in one would drive the terminal */
    char *text = NULL;
    size_t text_len = 0;
    FILE *table = open_memstream(&text, &text_len);
    if (!table) {
        fprintf(stderr, "capplan fit: out of memory\n");
        status = 1;
        goto out;
    }
    if (dataflow) {
        df_table(table, dfr, opts.holdout);
        df_yaml(&b, dfr, &d, samples);
    } else {
        tr_table(table, trr);
        cp_buf line;
        cp_buf_init(&line);
        cp_buf_printf(&line, "capplan fit training %s (scaling: %s)", samples,
                      opts.amdahl ? "amdahl" : opts.shared ? "shared" : "per-type");
        cp_yaml_put_comment(&b, line.s ? line.s : "");
        cp_buf_release(&line);
        cp_fit_tr_yaml(&b, trr, d.jobs, d.n_jobs, work);
    }
    if (fclose(table) == 0 && !quiet) {
        FILE *to = outpath && strcmp(outpath, "-") ? stdout : stderr;
        cp_fputs_printable(text, true, to);
        fflush(to);
    }
    free(text); /* open_memstream's buffer: malloc'ed by libc */
    if (!cp_buf_ok(&b)) {
        fprintf(stderr, "capplan fit: out of memory\n");
        status = 1;
        goto out;
    }
    status = cp_cli_write_fragment("fit", outpath, b.s, b.len, true);
    goto out;
usage:
    fputs(usage_text, stderr);
    status = 2;
out:
    cp_buf_release(&b);
    defs_release(&d);
    cp_df_report_free(dfr);
    cp_tr_report_free(trr);
    cp_free(dfs);
    cp_free(trs);
    cp_csv_free(csv);
    cp_free(diags);
    cp_free(jobfiles);
    cp_free(more);
    cp_free(concrete);
    cp_cli_args_release(&args);
    return status;
}
