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
#include "cp_imp_accel.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cp_cli_help fit_help = {
    "usage: capplan fit dataflow SAMPLES.csv [-o FILE] [--holdout] [--no-loo]\n"
    "                            [--jobs FILE]... [JOBS.yaml...]\n"
    "       capplan fit training SAMPLES.csv [-o FILE] [--scaling per-type|shared|amdahl]\n"
    "                            [--work N] [--jobs FILE]... [JOBS.yaml...]\n"
    "\n",
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "See docs/models.md for the models and how accelerator types are combined;\n"
    "the full reference: man ./capplan.1 in the source tree.\n"};

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

static void df_yaml(cp_buf *b, const cp_df_report *r, const cp_fit_defs *d, const char *src)
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

/* What the command line asks for (options and operands). */
typedef struct fit_args {
    bool dataflow, quiet;
    const char *samples, *outpath;
    char **jobfiles; /* --jobs FILE..., then the extra operands */
    int n_jobfiles;
    cp_fit_opts opts;
    double work;
    const char *accel_table; /* training: --accel-table, or NULL */
} fit_args;

/* The quality table (on standard output when the fragment goes to a
 * file; with --quiet nowhere) and the fragment of the fits. The table is
 * made in a memory stream and printed through cp_fputs_printable: job
 * and type names come from the samples, and an escape sequence in one
 * would drive the terminal. Returns the exit status. */
static int fit_output(const fit_args *fa, const cp_df_report *dfr, const cp_tr_report *trr,
                      const cp_fit_defs *d)
{
    char *text = NULL;
    size_t text_len = 0;
    FILE *table = open_memstream(&text, &text_len);
    if (!table) {
        fprintf(stderr, "capplan fit: out of memory\n");
        return 1;
    }
    cp_buf b;
    cp_buf_init(&b);
    if (fa->dataflow) {
        df_table(table, dfr, fa->opts.holdout);
        df_yaml(&b, dfr, d, fa->samples);
    } else {
        tr_table(table, trr);
        cp_buf line;
        cp_buf_init(&line);
        cp_buf_printf(&line, "capplan fit training %s (scaling: %s)", fa->samples,
                      fa->opts.amdahl ? "amdahl" : fa->opts.shared ? "shared" : "per-type");
        cp_yaml_put_comment(&b, line.s ? line.s : "");
        cp_buf_release(&line);
        cp_fit_tr_yaml(&b, trr, d->jobs, d->n_jobs, fa->work);
    }
    if (fclose(table) == 0 && !fa->quiet) {
        FILE *to = fa->outpath && strcmp(fa->outpath, "-") ? stdout : stderr;
        cp_fputs_printable(text, true, to);
        fflush(to);
    }
    free(text); /* open_memstream's buffer: malloc'ed by libc */
    int status;
    if (!cp_buf_ok(&b)) {
        fprintf(stderr, "capplan fit: out of memory\n");
        status = 1;
    } else {
        status = cp_cli_write_fragment("fit", fa->outpath, b.s, b.len, true);
    }
    cp_buf_release(&b);
    return status;
}

/* Reads the samples and the definitions, fits, writes: the exit status. */
static int fit_run(const fit_args *fa)
{
    int status = 2, n = 0, rc;
    cp_diags *diags = cp_malloc(sizeof *diags); /* errors and warnings, printed once */
    cp_csv *csv = NULL;
    cp_df_sample *dfs = NULL;
    cp_tr_sample *trs = NULL;
    cp_df_report *dfr = NULL;
    cp_tr_report *trr = NULL;
    cp_imp_accel_table *tab = NULL;
    cp_fit_defs d;
    memset(&d, 0, sizeof d);
    cp_err err;
    cp_err_init(&err);
    if (!diags) {
        fprintf(stderr, "capplan fit: out of memory\n");
        return 1;
    }
    cp_diags_init(diags);
    if (cp_csv_read(fa->samples, 0, &csv, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        goto out;
    }
    rc = fa->dataflow ? cp_df_samples_read(csv, &dfs, &n, diags)
                      : cp_tr_samples_read(csv, &trs, &n, diags);
    /* the importers' names (cp_imp_accel.h): "k80" is K80, "V100M32"
     * V100-32GB, so the fragment loads with theirs; a type the table
     * lacks keeps its spelling */
    if (rc == CP_OK && !fa->dataflow &&
        (rc = cp_imp_accel_table_load(fa->accel_table, &tab, diags)) == CP_OK)
        for (int i = 0; i < n; i++) {
            int mismatch;
            const cp_imp_accel *a = cp_imp_accel_find(tab, trs[i].acc, 0, &mismatch);
            if (a)
                trs[i].acc = a->name;
        }
    if (cp_fit_defs_load(&d, fa->jobfiles, fa->n_jobfiles, diags) != CP_OK)
        rc = CP_ERR_INPUT;
    if (rc != CP_OK) {
        cp_diags_print(diags, stderr);
        goto out;
    }
    rc = fa->dataflow ? cp_df_fit_all(dfs, n, &fa->opts, &dfr, diags, &err)
                      : cp_tr_fit_all(trs, n, &fa->opts, &trr, diags, &err);
    if (rc != CP_OK)
        cp_diags_add_err(diags, &err);
    cp_diags_print(diags, stderr);
    status = rc == CP_OK ? fit_output(fa, dfr, trr, &d) : rc == CP_ERR_INPUT ? 2 : 1;
out:
    cp_fit_defs_release(&d);
    cp_df_report_free(dfr);
    cp_tr_report_free(trr);
    cp_imp_accel_table_free(tab);
    cp_free(dfs);
    cp_free(trs);
    cp_csv_free(csv);
    cp_free(diags);
    return status;
}

/* After the options: the kind, the samples and the job files from the
 * operands, the outputs checked against every file read, then the fit
 * (or the --params fit). The exit status. */
static int fit_main(fit_args *fa, const cp_cli_args *a, const cp_opt_list *jobs,
                    const cp_fit_param_args *fpa)
{
    const char *mode = a->n_operands > 0 ? a->operands[0] : NULL;
    fa->samples = a->n_operands > 1 ? a->operands[1] : NULL;
    if (!mode || !fa->samples || (strcmp(mode, "dataflow") && strcmp(mode, "training"))) {
        if (mode && strcmp(mode, "dataflow") && strcmp(mode, "training"))
            fprintf(stderr, "capplan fit: '%s' is not dataflow or training\n", mode);
        return -1; /* the usage */
    }
    fa->dataflow = !strcmp(mode, "dataflow");
    /* --jobs files, the extra operands, then (read, not merged) --samples */
    int n_max = jobs->n + a->n_operands + fpa->n_more;
    char **files = cp_calloc((size_t)n_max + 1, sizeof *files);
    if (!files) {
        fprintf(stderr, "capplan fit: out of memory\n");
        return 1;
    }
    int n = 0;
    for (int i = 0; i < jobs->n; i++)
        files[n++] = (char *)jobs->v[i];
    for (int i = 2; i < a->n_operands; i++)
        files[n++] = a->operands[i];
    fa->jobfiles = files;
    fa->n_jobfiles = n;
    for (int i = 0; i < fpa->n_more; i++)
        files[n++] = (char *)fpa->more[i];
    cp_fileset fs;
    const char *sample_in[] = {"samples", fa->samples, NULL};
    const char *outs[] = {"-o", fa->outpath, NULL};
    int status = cp_cli_outputs("fit", &fs, files, n, sample_in, outs);
    cp_fileset_release(&fs);
    if (!status)
        status = fa->dataflow && cp_fit_param_wanted(fpa)
                     ? cp_fit_param_run(fpa, &fa->opts, fa->samples, fa->jobfiles,
                                        fa->n_jobfiles, fa->outpath)
                     : fit_run(fa);
    cp_free(files);
    return status;
}

int cp_cmd_fit(int argc, char **argv)
{
    fit_args fa;
    memset(&fa, 0, sizeof fa);
    cp_fit_opts_init(&fa.opts);
    fa.work = 1e6;
    int scaling = 0;
    cp_opt_list jobs = {NULL, 0}, more = {NULL, 0}, concrete = {NULL, 0};
    cp_fit_param_args fpa = {NULL, NULL, 0, NULL, 0};
    const cp_opt opts[] = {
        CP_OPT_TEXT("dataflow: CSV columns job,type,machines,input_gb,seconds (any order).\n"
                    "  Fits Ernest's t(m) = θ0 + θ1·input_gb/m + θ2·ln m + θ3·m, θ >= 0, per\n"
                    "  (job, type) by NNLS; reports samples, scale-outs, θ, R², MAPE,\n"
                    "  leave-one-out MAPE and the residual standard deviation (seconds).\n"),
        CP_OPT_BOOL(0, "holdout", &fa.opts.holdout,
                    "also hold out each input size in turn and report the MAPE"),
        CP_OPT_UNSET(0, "no-loo", &fa.opts.loo,
                     "skip leave-one-out cross validation (n refits per fit)"),
        CP_OPT_STRING(0, "params", &fpa.params, "all|NAME,...",
                      "also fit models whose θ depend on these job parameter columns; write θ "
                      "per concrete job (docs/models.md)"),
        CP_OPT_LIST(0, "concrete", &concrete, "NAME=JOB:P=V,...",
                    "a concrete job of measured JOB (input_gb=V among the values); also a "
                    "definition's fit: {job, params} (repeatable)"),
        {CP_OPTF_LIST(0, "samples", &more, "FILE", "another sample file (--params; repeatable)"),
         .file = true},
        CP_OPT_TEXT("training: CSV columns job,accelerator,count,throughput (work units/s of\n"
                    "  the whole job). Writes per job the one-accelerator throughput per type\n"
                    "  and its scaling.\n"),
        CP_OPT_ENUM(0, "scaling", &scaling, cp_cli_scalings, NULL,
                    "per-type (default; also 'table'): a table per type of its own measured "
                    "speedups; shared: one table of the types' mean speedups; amdahl: Amdahl's "
                    "law with the least-squares serial fraction"),
        CP_OPT_DOUBLE_ABOVE(0, "work", &fa.work, 0, "N",
                            "work units written for jobs without a definition (default 1e6)"),
        CP_OPT_FILE(0, "accel-table", &fa.accel_table, "FILE",
                    "accelerator names from the importers' table plus this CSV's entries "
                    "(import accelerators)"),
        CP_OPT_TEXT("\n"),
        CP_OPT_STRING('o', NULL, &fa.outpath, "FILE",
                      "write the YAML fragment there (atomically); default stdout (the quality "
                      "table then goes to stdout, else to stderr)"),
        {CP_OPTF_LIST(0, "jobs", &jobs, "FILE",
                      "job definitions to merge (also: extra YAML arguments; repeatable)"),
         .file = true},
        CP_OPT_QUIET("no quality table (warnings and errors still on stderr)"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int status = cp_cli_parse(&a, "fit", argc, argv, opts, &fit_help);
    if (status != CP_CLI_RUN)
        return status;
    fa.quiet = a.quiet;
    fa.opts.amdahl = scaling == CP_CLI_SCALING_AMDAHL;
    fa.opts.shared = scaling == CP_CLI_SCALING_SHARED;
    fpa.more = more.v;
    fpa.n_more = more.n;
    fpa.concrete = concrete.v;
    fpa.n_concrete = concrete.n;
    status = fit_main(&fa, &a, &jobs, &fpa);
    if (status < 0) {
        cp_cli_help_print(stderr, opts, &fit_help);
        status = 2;
    }
    cp_cli_args_release(&a);
    return status;
}
