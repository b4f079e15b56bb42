/*
 * capplan verify --plan PLAN FILE...: check a plan against the inputs
 * and re-cost it by capplan.5 §3-4 alone (the library part is
 * verify.c). The report goes to standard output: one line per violation,
 * `PLAN:LINE:COL: violation: MESSAGE`, then `verify: OK total=...` or
 * `verify: FAIL N violations`. Errors that stop the check (usage,
 * unreadable inputs or plan) go to standard error.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_buf.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_replan.h"
#include "cp_verify.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const cp_cli_help verify_help = {
    "usage: capplan verify --plan PLAN [options] FILE...\n"
    "\n"
    "Check PLAN (YAML or JSON, as written by 'capplan plan') against the input\n"
    "files and re-cost it by capplan.5 §3-4 alone: every input job listed\n"
    "once, modes and start windows, pool and market capacity, quotas, power\n"
    "caps, budget, concrete placement (node and instance ids) and every cost,\n"
    "energy and carbon number of the plan (1e-6 relative).\n"
    "\n"
    "Prints each violation to standard output as\n"
    "  PLAN:LINE:COL: violation: MESSAGE\n"
    "then 'verify: OK total=TOTAL' or 'verify: FAIL N violations'.\n"
    "\n",
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "Exit status: 0 OK; 1 violations found; 2 bad usage, unreadable or invalid\n"
    "inputs, or a plan that cannot be read as a capplan plan. The full\n"
    "reference: man ./capplan.1 in the source tree.\n"};

static void print_violation(const cp_violation *v, const char *plan, FILE *out)
{
    const char *file = v->pos.file ? v->pos.file : plan;
    if (v->pos.line > 0)
        fprintf(out, "%s:%d:%d: violation: %s\n", file, v->pos.line, v->pos.col, v->msg);
    else
        fprintf(out, "%s: violation: %s\n", file, v->msg);
}

/* Whether `path` starts with the header of `plan --format csv`; only
 * regular files are looked at (a pipe read here would lose its bytes). */
static bool is_csv_plan(const char *path)
{
    static const char head[] = "name,status,resource,market,";
    char buf[sizeof head];
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof head - 1, f);
    fclose(f);
    return n == sizeof head - 1 && !memcmp(buf, head, n);
}

/* OLD matched against the inputs and the view verify checks on
 * (cp_replan.h); errors go to d. */
static int load_replan(const cp_input *in, const char *from, int now, double penalty,
                       cp_replan **rp, cp_input **view, cp_diags *d)
{
    if (now > in->slots)
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "--now %d: the horizon has %d slots (0 <= S <= %d)", now, in->slots,
                            in->slots);
    cp_err err;
    cp_err_init(&err);
    cp_modeset *ms = NULL;
    int rc = cp_modes_build(in, &ms, &err);
    if (rc == CP_OK && (rc = cp_replan_load(in, ms, from, now, penalty, rp, d)) == CP_OK &&
        (rc = cp_replan_view_new(in, ms, *rp, view, &err)))
        cp_diags_add_err(d, &err);
    else if (rc && !d->n)
        cp_diags_add_err(d, &err);
    cp_modeset_free(ms);
    return rc;
}

/* The report is data: standard output, or -o FILE atomically. Returns
 * the exit status: 0 OK, 1 violations (or cannot write), 2 a malformed
 * plan. */
static int write_report(const cp_verify_report *rep, const char *plan_path, bool quiet,
                        const char *out_path)
{
    int status;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        fprintf(stderr, "capplan verify: out of memory\n");
        return 1;
    }
    for (int i = 0; i < rep->n; i++)
        print_violation(&rep->items[i], plan_path, f);
    if (cp_verify_report_is_ok(rep)) {
        if (quiet) {
            /* nothing: the exit status says OK */
        } else if (rep->infeasible) {
            fprintf(f, "verify: OK status=infeasible (nothing to re-cost)\n");
        } else {
            char tmp[40], num[40];
            snprintf(tmp, sizeof tmp, "%.10g", rep->sums.total);
            cp_fmt_num(num, sizeof num,
                       isfinite(rep->sums.total) ? strtod(tmp, NULL) : rep->sums.total);
            fprintf(f, "verify: OK total=%s\n", num);
        }
        status = 0;
    } else {
        fprintf(f, "verify: FAIL %d violation%s\n", rep->n, rep->n == 1 ? "" : "s");
        status = rep->malformed ? 2 : 1;
    }
    cp_err err;
    cp_err_init(&err);
    if (fclose(f) != 0) {
        fprintf(stderr, "capplan verify: out of memory\n");
        status = 1;
    } else if (cp_write_file_atomic(out_path, text ? text : "", len, &err)) {
        cp_err_print(&err, stderr);
        status = 1;
    }
    free(text); /* open_memstream's buffer: malloc'ed by libc */
    return status;
}

/* The options that go together, and outputs that overwrite no input: 0,
 * or the exit status with the message printed. */
static int check_usage(const cp_cli_args *a, const cp_opt *opts, const char *plan_path,
                       const char *from, int now, double penalty, const char *out_path)
{
    /* a plan among the inputs (or none given) gets a hint first */
    int st = cp_cli_plan_order("verify", plan_path, a->operands, a->n_operands,
                               "capplan verify --plan PLAN FILE...");
    if (st)
        return st;
    if (!plan_path) {
        fprintf(stderr, "capplan verify: missing --plan PLAN\n");
        cp_cli_help_print(stderr, opts, &verify_help);
        return 2;
    }
    if ((from != NULL) != (now >= 0)) {
        fprintf(stderr, from ? "capplan verify: --from needs --now S\n"
                             : "capplan verify: --now needs --from OLD\n");
        return 2;
    }
    if (!from && penalty >= 0) {
        fprintf(stderr, "capplan verify: --change-penalty needs --from OLD\n");
        return 2;
    }
    const char *plan_in[] = {"--plan", plan_path, "--from", from, NULL};
    const char *outs[] = {"-o", out_path, NULL};
    return cp_cli_outputs_ok("verify", a->operands, a->n_operands, plan_in, outs);
}

int cp_cmd_verify(int argc, char **argv)
{
    const char *plan_path = NULL, *out_path = NULL, *from = NULL;
    int now = -1;
    double penalty = -1;
    const cp_opt opts[] = {
        CP_OPT_FILE(0, "plan", &plan_path, "PLAN", "the plan to check (required)"),
        CP_OPT_FILE(0, "from", &from, "OLD",
                    "PLAN is a re-plan from OLD (capplan.5 §10.5): check what it keeps; "
                    "needs --now"),
        CP_OPT_INT(0, "now", &now, 0, 1000000000, "S", "with --from: the slot PLAN re-planned from"),
        CP_OPT_DOUBLE(0, "change-penalty", &penalty, 0, "P",
                      "with --from: the penalty per changed job (default: the plan's "
                      "replanned.change_penalty)"),
        CP_OPT_STRING('o', NULL, &out_path, "FILE",
                      "write the report there (atomically); default stdout"),
        CP_OPT_QUIET("no 'verify: OK' line: an OK plan prints nothing"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "verify", argc, argv, opts, &verify_help);
    if (st != CP_CLI_RUN)
        return st;
    st = check_usage(&a, opts, plan_path, from, now, penalty, out_path);
    if (st) {
        cp_cli_args_release(&a);
        return st;
    }
    char **files = a.operands;
    int n_files = a.n_operands;

    int status = 2;
    cp_input *in = NULL;
    cp_node *plan = NULL;
    cp_diags *d = NULL;
    cp_verify_report rep;
    cp_verify_report_init(&rep);
    cp_replan *rp = NULL;
    cp_input *view = NULL;
    cp_err err;
    cp_err_init(&err);

    if (cp_cli_load("verify", files, n_files, &in))
        goto out;
    d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan verify: out of memory\n");
        goto out;
    }
    cp_diags_init(d);
    if (is_csv_plan(plan_path)) {
        fprintf(stderr,
                "capplan verify: '%s' is a CSV plan, which cannot be verified: it lacks the "
                "provisioning (instances per market and slot), the site figures and the "
                "leases that verify checks; plan with --format yaml or json\n",
                plan_path);
        goto out;
    }
    if (cp_plan_load_file(plan_path, &plan, d)) {
        cp_diags_print(d, stderr);
        if (d->n == 0)
            fprintf(stderr, "capplan verify: cannot read the plan '%s'\n", plan_path);
        goto out;
    }
    if (from) {
        int rc = load_replan(in, from, now, penalty, &rp, &view, d);
        if (rc) {
            cp_diags_print(d, stderr);
            status = rc == CP_ERR_INPUT ? 2 : 1;
            goto out;
        }
    }
    if (rp ? cp_verify_replan(view, rp, plan, &rep, &err) : cp_verify_plan(in, plan, &rep, &err)) {
        cp_err_print(&err, stderr);
        goto out;
    }
    status = write_report(&rep, plan_path, a.quiet, out_path);
out:
    cp_verify_report_release(&rep);
    cp_replan_view_free(view);
    cp_replan_free(rp);
    cp_node_free(plan);
    cp_free(d);
    cp_input_free(in);
    cp_cli_args_release(&a);
    return status;
}
