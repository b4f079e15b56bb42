/*
 * capplan whatif: read the inputs and the scenario file, build every
 * changed input (errors such as a path that matches nothing stop the run
 * before anything is planned), optionally write them (--emit-inputs),
 * plan the baseline and each scenario as `plan` would (same options, -j
 * of them at once), and write the table atomically. SIGINT/SIGTERM set
 * the flag the solvers poll: the table is still written, with the rows
 * not finished marked `interrupted`, and the exit status is 130.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_file.h"
#include "cp_plan_opts.h"
#include "cp_signals.h"
#include "cp_whatif.h"
#include "cp_whatif_cmd.h"
#include "cp_yaml.h"
#include "cp_yaml_put.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const cp_cli_help whatif_help = {
    "usage: capplan whatif --scenarios FILE [options] FILE...\n"
    "\n"
    "Plan the inputs (merged in order) unchanged and under every scenario of\n"
    "FILE (capplan.5 §8), and write one row per scenario: status, total and\n"
    "its parts, kWh, kg CO2, dropped jobs, accelerator-hours per type on-prem\n"
    "and in the cloud, spot share and the change of the total against the\n"
    "baseline. Each scenario is planned exactly as `capplan plan` would plan\n"
    "its changed input, with the options below.\n"
    "\n",
    "\n"
    "Exit status: 0 table written (rows may be invalid, infeasible or without\n"
    "a plan: that is their status), 2 bad input, scenario file or usage,\n"
    "130 interrupted (the table is written, unfinished rows `interrupted`),\n"
    "1 other errors (out of memory, cannot write). Options may come before,\n"
    "between or after the files; '--' ends them. The full reference:\n"
    "man ./capplan.1 in the source tree.\n"};

/* --shard K/N */
typedef struct shard {
    int k, n;
} shard;

static bool shard_option(void *target, const char *v, char *msg, size_t size)
{
    shard *s = target;
    char *slash = strchr(v, '/'), *end = NULL;
    long k = slash ? strtol(v, &end, 10) : -1;
    long n = slash && end == slash ? strtol(slash + 1, &end, 10) : 0;
    if (!slash || *end || n < 1 || n > 100000 || k < 0 || k >= n) {
        snprintf(msg, size, "--shard must be K/N with 0 <= K < N, got '%.300s'", v);
        return false;
    }
    s->k = (int)k;
    s->n = (int)n;
    return true;
}

static void row_done(void *arg, const cp_whatif_row *r)
{
    (void)arg;
    if (isnan(r->costs.total))
        fprintf(stderr, "capplan: whatif: %s: %s\n", r->name, r->status);
    else
        fprintf(stderr, "capplan: whatif: %s: %s, total $%.2f\n", r->name, r->status, r->costs.total);
}

/* The path of emitted input i in dir. */
static int emit_path(const cp_whatif *w, int i, const char *dir, cp_buf *path, cp_err *err)
{
    cp_buf_reset(path);
    cp_buf_printf(path, "%s/%s.yaml", dir, cp_whatif_name(w, i));
    return cp_buf_ok(path) ? CP_OK : cp_err_nomem(err);
}

/* Before anything is written: no emitted input may be one of the inputs,
 * another output, or (without --force) a file this run did not write,
 * such as an input of an earlier run that happens to share a name. */
static int emit_check(const cp_whatif *w, const char *dir, bool force, cp_fileset *fs,
                      cp_err *err)
{
    cp_buf path;
    cp_buf_init(&path);
    int rc = CP_OK;
    for (int i = 0; i < cp_whatif_count(w) && rc == CP_OK; i++) {
        if ((rc = emit_path(w, i, dir, &path, err)) ||
            (rc = cp_fileset_output(fs, path.s, "--emit-inputs", err)))
            break;
        if (!force && cp_outpath_exists(path.s))
            rc = cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                            "--emit-inputs: '%s' exists and this run did not write it; "
                            "--force replaces it",
                            path.s);
    }
    cp_buf_release(&path);
    return rc;
}

static int emit_inputs(const cp_whatif *w, const char *dir, cp_err *err)
{
    cp_buf b, path;
    cp_buf_init(&b);
    cp_buf_init(&path);
    int rc = CP_OK;
    for (int i = 0; i < cp_whatif_count(w) && rc == CP_OK; i++) {
        const char *name = cp_whatif_name(w, i);
        cp_buf_reset(&b);
        if (i) {
            /* the name goes through the comment quoting: a line
             * separator in it must not start a line of YAML */
            cp_buf_puts(&b, "capplan whatif: scenario '");
            cp_buf_puts(&b, name);
            cp_buf_puts(&b, "'; `capplan plan` reads it as it is");
            char *line = cp_strdup(b.s ? b.s : "");
            cp_buf_reset(&b);
            if (!line) {
                rc = cp_err_nomem(err);
                break;
            }
            cp_yaml_put_comment(&b, line);
            cp_free(line);
        } else {
            cp_buf_puts(&b, "# capplan whatif: the merged input (baseline); `capplan plan` reads "
                            "it as it is\n");
        }
        if ((rc = emit_path(w, i, dir, &path, err)) == CP_OK &&
            (rc = cp_whatif_emit(w, i, &b, err)) == CP_OK)
            rc = cp_write_file_atomic(path.s, b.s, b.len, err);
    }
    cp_buf_release(&b);
    cp_buf_release(&path);
    return rc;
}

/* Reads the input files into trees and checks them as `plan` would; on
 * failure prints every error and returns 2. */
static int load_inputs(char *const *paths, int n, cp_node ***roots_out, cp_diags *d)
{
    if (n == 0) {
        fprintf(stderr, "capplan whatif: no input files (see 'capplan whatif --help')\n");
        return 2;
    }
    cp_node **roots = cp_calloc((size_t)n, sizeof *roots);
    if (!roots) {
        fprintf(stderr, "capplan whatif: out of memory\n");
        return 1;
    }
    *roots_out = roots;
    for (int i = 0; i < n; i++)
        cp_yaml_load_file(paths[i], &roots[i], d);
    if (d->worst == CP_OK) {
        cp_input *in = NULL;
        if (cp_input_from_trees(roots, n, &in, d) == CP_OK)
            cp_input_free(in);
    }
    if (d->n > 0)
        cp_diags_print(d, stderr); /* errors, or warnings: a key that has no effect */
    if (d->worst != CP_OK)
        return d->worst == CP_ERR_NOMEM ? 1 : 2;
    cp_diags_init(d); /* the warnings are printed: later errors come alone */
    return 0;
}

/* What the command line asks for; the table points into it. */
typedef struct whatif_args {
    cp_plan_opts po; /* its table points into it: not copied */
    int fmt, jobs, array_shards;
    const char *out_path, *scen_path, *emit_dir, *report_path, *array_dir;
    bool force;
    shard sh;
} whatif_args;

/* After parsing: the line's rules, and no output that is an input or
 * another output (fs, released by the caller whatever this returns).
 * -1 to go on, or the exit status (printed). */
static int whatif_line(whatif_args *wa, const cp_cli_args *a, cp_fileset *fs)
{
    cp_fileset_init(fs);
    if (!cp_plan_opts_finish(&wa->po, "whatif", a->quiet))
        return 2;
    if (wa->po.so.export_lp) {
        fprintf(stderr, "capplan whatif: --export-lp is for one plan: write the inputs with "
                        "--emit-inputs DIR and run 'capplan plan --export-lp' on one of them\n");
        return 2;
    }
    if (!wa->scen_path) {
        fprintf(stderr, "capplan whatif: --scenarios FILE is required (see 'capplan whatif --help')\n");
        return 2;
    }
    const char *scen_in[] = {"scenario file", wa->scen_path, NULL};
    const char *outs[] = {"-o", wa->out_path, "--report", wa->report_path, NULL};
    int st = cp_cli_outputs("whatif", fs, a->operands, a->n_operands, scen_in, outs);
    return st ? st : -1;
}

/* The inputs (n files) and the scenario file read, checked and every
 * changed input built; *roots, *sc and *w are the caller's to free,
 * whatever this returns: 0, or the exit status (printed). */
static int whatif_prepare(const whatif_args *wa, char *const *paths, int n, cp_node ***roots,
                          cp_scenarios **sc, cp_whatif **w)
{
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan whatif: out of memory\n");
        return 1;
    }
    cp_diags_init(d);
    char *text = NULL;
    size_t len = 0;
    int status = load_inputs(paths, n, roots, d);
    if (!status) {
        /* the scenario file into memory: cp_scenarios_parse takes a buffer */
        cp_err err;
        cp_err_init(&err);
        int read_rc = cp_file_read(wa->scen_path, "YAML", &text, &len, &err);
        if (read_rc)
            cp_diags_add_err(d, &err);
        if (read_rc || cp_scenarios_parse(wa->scen_path, text, len, sc, d) ||
            cp_whatif_prepare_check(*roots, n, *sc, !wa->array_dir, w, d)) {
            cp_diags_print(d, stderr);
            status = d->worst == CP_ERR_NOMEM ? 1 : 2;
        }
    }
    cp_free(text);
    cp_free(d);
    return status;
}

/* --slurm-array DIR: the array, the merge job and submit.sh, none of
 * them an input (through a link planted in DIR). The exit status. */
static int whatif_array(const whatif_args *wa, const cp_cli_args *a, cp_fileset *fs,
                        const cp_whatif *w)
{
    static const char *const array_files[] = {"whatif-array.sbatch", "whatif-merge.sbatch",
                                              "submit.sh"};
    int status = cp_cli_dir_outputs("whatif", fs, "--slurm-array", wa->array_dir, array_files, 3);
    if (status)
        return status;
    int rows = cp_whatif_count(w);
    int ns = wa->array_shards ? wa->array_shards : rows;
    int threads = wa->po.so.threads > 0 ? wa->po.so.threads : 1;
    return cp_whatif_array_write(a, wa->array_dir, ns < rows ? ns : rows, rows,
                                 wa->po.so.time_limit, wa->jobs * threads,
                                 (cp_whatif_format)wa->fmt, wa->out_path);
}

/* --emit-inputs, then every row planned and the table (or the shard
 * file) and the report written. The exit status (130 interrupted). */
static int whatif_plan(whatif_args *wa, const cp_whatif *w, cp_fileset *fs)
{
    cp_whatif_table *t = NULL;
    cp_err err;
    cp_err_init(&err);
    cp_buf out;
    cp_buf_init(&out);
    int status = 0;
    if (wa->emit_dir && mkdir(wa->emit_dir, 0777) != 0 && errno != EEXIST) {
        cp_err_set(&err, CP_ERR_IO, cp_pos_none(), "cannot create '%s': %s", wa->emit_dir,
                   strerror(errno));
        goto fail;
    }
    if (wa->emit_dir && (emit_check(w, wa->emit_dir, wa->force, fs, &err) ||
                         emit_inputs(w, wa->emit_dir, &err)))
        goto fail;
    cp_signals_begin_work();
    cp_plan_opts *po = &wa->po;
    po->so.stop = cp_signals_flag();
    po->so.progress = po->debug;
    if (po->progress)
        po->so.log = cp_cli_log_line;
    cp_whatif_run_opts ro = {po->ops, &po->so, wa->jobs, po->progress ? row_done : NULL, NULL,
                             wa->sh.k, wa->sh.n};
    if (cp_whatif_run(w, &ro, &t, &err))
        goto fail;
    cp_signals_begin_output();
    if ((wa->sh.n ? cp_whatif_shard_write(t, wa->sh.k, wa->sh.n, &out, &err)
                  : cp_whatif_table_write(t, (cp_whatif_format)wa->fmt, &out, &err)) ||
        cp_write_file_atomic(wa->out_path, out.s, out.len, &err))
        goto fail;
    if (wa->report_path) {
        cp_buf_reset(&out);
        if (cp_report_whatif_html(t, &out, &err) ||
            cp_write_file_atomic(wa->report_path, out.s, out.len, &err))
            goto fail;
    }
    status = cp_signals_stopped() ? 130 : 0;
    if (cp_signals_stopped() && !po->quiet)
        fprintf(stderr, "capplan whatif: interrupted; unfinished rows are marked 'interrupted'\n");
    goto done;
fail:
    cp_err_print(&err, stderr);
    status = err.code == CP_ERR_INPUT ? 2 : 1;
done:
    cp_buf_release(&out);
    cp_whatif_table_free(t);
    return status;
}

int cp_cmd_whatif(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "merge"))
        return cp_whatif_merge_main(argc - 1, argv + 1);
    whatif_args args = {.fmt = CP_WHATIF_MD, .jobs = 1}, *wa = &args;
    cp_plan_opts_init(&wa->po);
    /* .local: this run's own outputs and mode, which the tasks of
     * --slurm-array do not repeat (cp_whatif_array_write) */
    const cp_opt opts[] = {
        CP_OPT_FILE(0, "scenarios", &wa->scen_path, "FILE", "the scenarios (required)"),
        {CP_OPTF_STRING('o', NULL, &wa->out_path, "FILE",
                        "write the table there (atomically); default stdout"),
         .local = true},
        {CP_OPTF_ENUM(0, "format", &wa->fmt, cp_whatif_formats, NULL,
                      "table format; default md (Markdown)"),
         .local = true},
        {CP_OPTF_STRING(0, "emit-inputs", &wa->emit_dir, "DIR",
                        "also write each changed input as DIR/NAME.yaml (and the merged input "
                        "as DIR/baseline.yaml)"),
         .local = true},
        CP_OPT_INT('j', "jobs", &wa->jobs, 1, 64, "N",
                   "plan N scenarios at once (default 1); the table is the same for every N"),
        {CP_OPTF_STRING(0, "report", &wa->report_path, "FILE",
                        "also write an HTML page of the table"),
         .local = true},
        {CP_OPTF_BOOL(0, "force", &wa->force,
                      "let --emit-inputs replace files of DIR that this run did not write "
                      "(never an input)"),
         .local = true},
        {CP_OPTF_CALLBACK(0, "shard", shard_option, &wa->sh, "K/N",
                          "plan only rows i with i % N == K (0 = baseline) and write a shard "
                          "file; join all N with 'whatif merge'"),
         .local = true},
        {CP_OPTF_STRING(0, "slurm-array", &wa->array_dir, "DIR",
                        "plan nothing: write a Slurm job array of --shards N tasks (default: "
                        "one per row), a merge job after it and DIR/submit.sh (docs/whatif.md, "
                        "\"Shards\")"),
         .local = true},
        {CP_OPTF_INT(0, "shards", &wa->array_shards, 1, 100000, "N",
                     "the tasks of --slurm-array (default: one per row)"),
         .local = true},
        CP_OPT_TEXT("  capplan whatif merge [-o TABLE] [--format F] SHARD...   join shard files\n"
                    "\n"
                    "Options of `capplan plan`, applied to every scenario:\n"),
        CP_OPT_INCLUDE(wa->po.table),
        CP_OPT_TEXT("  (--export-lp is refused here: write the inputs with --emit-inputs and\n"
                    "  run `capplan plan --export-lp` on the one you want)\n"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int status = cp_cli_parse(&a, "whatif", argc, argv, opts, &whatif_help);
    if (status != CP_CLI_RUN)
        return status;
    cp_fileset fs;
    status = whatif_line(wa, &a, &fs);
    if (status >= 0) {
        cp_fileset_release(&fs);
        cp_cli_args_release(&a);
        return status;
    }
    /* before planning a signal writes nothing (inputs already emitted
     * stay, each complete); while planning, running scenarios end with
     * their best plan, the others are not started, and the table is
     * written (cp_signals.h) */
    cp_signals_install("capplan whatif: interrupted: writing the rows known "
                       "(interrupt again to quit without a table)\n",
                       "capplan whatif: interrupted: no table written\n", wa->po.quiet);
    cp_node **roots = NULL;
    cp_scenarios *sc = NULL;
    cp_whatif *w = NULL;
    int n_in = a.n_operands;
    status = whatif_prepare(wa, a.operands, n_in, &roots, &sc, &w);
    if (!status)
        status = wa->array_dir ? whatif_array(wa, &a, &fs, w) : whatif_plan(wa, w, &fs);
    cp_signals_restore();
    cp_fileset_release(&fs);
    cp_whatif_free(w);
    cp_scenarios_free(sc);
    for (int i = 0; roots && i < n_in; i++)
        cp_node_free(roots[i]);
    cp_free(roots);
    cp_cli_args_release(&a);
    return status;
}
