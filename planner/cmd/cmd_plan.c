/*
 * capplan plan: load → modes → solve (method table) → placement and
 * repair → reasons for drops → write the plan atomically → summary.
 * SIGINT/SIGTERM set a flag the solvers poll; the best plan known is then
 * written with status `interrupted` and the exit status is 130 (the whole
 * rule is in cp_signals.h).
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_cost.h"
#include "cp_leases.h"
#include "cp_plan_summary.h"
#include "cp_plan_opts.h"
#include "cp_plan_write.h"
#include "cp_replan.h"
#include "cp_signals.h"
#include "cp_solver.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cp_cli_help plan_help = {
    "usage: capplan plan [options] FILE...\n"
    "\n"
    "Plan the jobs of the input files (merged in order) and write the plan.\n"
    "\n",
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "Exit status: 0 plan written (optimal or feasible), 2 bad input or usage,\n"
    "3 no feasible plan exists (the reason names the site and slots, or the\n"
    "budget), 4 time limit reached with no plan, 130 interrupted (the best\n"
    "plan found is written, status interrupted). The full reference:\n"
    "man ./capplan.1, and the file formats man ./capplan.5, in the source tree.\n"};

/* A name padded to `width`, printable (an input's name must not drive
 * the terminal: check prints names the same way). */
static void put_name(const char *name, int width, FILE *f)
{
    size_t len = strlen(name);
    cp_fputs_printable(name, false, f);
    fprintf(f, "%*s", len < (size_t)width ? (int)(width - (int)len) : 0, "");
}

/* capplan.5 §10.1-10.2: what the jobs' costs add up to, the costliest
 * five, and per team its jobs, accelerator-hours, cost and budget. */
static void summary_costs(const cp_plan *p, const cp_plan_figures *fig, FILE *f)
{
    const cp_input *in = p->in;
    double jobs_cost = 0;
    int top[5], n_top = 0;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        jobs_cost += fig->job_cost[j];
        int i = n_top < 5 ? n_top++ : 5; /* insertion into the five costliest, ties by job order */
        while (i > 0 && fig->job_cost[top[i - 1]] < fig->job_cost[j]) {
            if (i < 5)
                top[i] = top[i - 1];
            i--;
        }
        if (i < 5)
            top[i] = j;
    }
    fprintf(f, "  jobs' costs $%.2f + unattributed $%.2f + drop penalties $%.2f\n", jobs_cost,
            fig->costs.unattributed, fig->costs.penalty);
    for (int i = 0; i < n_top; i++) {
        int j = top[i];
        fputs(i ? "                 " : "  costliest jobs ", f);
        put_name(in->jobs[j].name, 24, f);
        fprintf(f, " %10.2f  ", fig->job_cost[j]);
        cp_fputs_printable(p->ms->res[p->ms->modes[p->mode[j]].res].id, false, f);
        putc('\n', f);
    }
    if (!in->n_teams)
        return;
    fprintf(f, "  %-36s %5s %12s %10s %10s\n", "team", "jobs", "acc-hours", "cost $", "budget $");
    for (int k = 0; k < in->n_teams; k++) {
        int jobs = 0;
        for (int j = 0; j < p->n_jobs; j++)
            jobs += p->mode[j] >= 0 && in->jobs[j].team == k;
        fputs("  ", f);
        put_name(in->teams[k].name, 36, f);
        fprintf(f, " %5d %12.1f %10.2f", jobs, fig->team_acc_hours[k], fig->team_cost[k]);
        if (in->teams[k].has_budget)
            fprintf(f, " %10.2f\n", in->teams[k].budget);
        else
            fprintf(f, " %10s\n", "-");
    }
}

static void summary(const cp_plan *p, FILE *f)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    cp_plan_figures fig;
    if (cp_plan_eval(p, &fig, NULL))
        return;
    fprintf(f, "\nplan: %s (%s, %.2f s)", cp_plan_status_name(p->status), p->method, p->seconds);
    if (!isnan(p->bound))
        fprintf(f, ", bound %.2f", p->bound);
    if (!isnan(p->bound) && p->bound_kind)
        fprintf(f, " by %s", p->bound_kind);
    cp_buf sum;
    cp_buf_init(&sum);
    cp_costs_describe(&fig.costs, cp_plan_cost_when(p), &sum);
    fprintf(f, "\n  %s\n", sum.s);
    cp_buf_release(&sum);
    fprintf(f, "  %.1f kWh on-prem, %.1f kg CO2\n", fig.costs.energy_kwh, fig.costs.carbon_kg);
    cp_leases ls;
    if (p->placed && cp_leases_build(p, &ls) == CP_OK) {
        int ids = 0;
        for (int l = 0; l < ls.n; l++)
            ids += l == 0 || ls.v[l].res != ls.v[l - 1].res || ls.v[l].unit != ls.v[l - 1].unit;
        if (ls.n)
            fprintf(f, "  %d cloud lease%s on %d instance%s\n", ls.n, ls.n == 1 ? "" : "s", ids,
                    ids == 1 ? "" : "s");
        cp_leases_release(&ls);
    }
    fprintf(f, "  %-36s %5s %12s %10s\n", "resource", "jobs", "acc-hours", "cost $");
    for (int r = 0; r < ms->n_res; r++) {
        int jobs = 0;
        double acch = 0;
        for (int j = 0; j < p->n_jobs; j++) {
            if (p->mode[j] < 0 || ms->modes[p->mode[j]].res != r)
                continue;
            const cp_mode *m = &ms->modes[p->mode[j]];
            jobs++;
            acch += m->demand[CP_DIM_ACC] * m->hours;
        }
        if (!jobs && fig.market_cost[r] == 0)
            continue;
        double cost = fig.market_cost[r];
        if (ms->res[r].kind == CP_RES_POOL) {
            cost = 0;
            for (int j = 0; j < p->n_jobs; j++)
                if (p->mode[j] >= 0 && ms->modes[p->mode[j]].res == r) {
                    cp_run_cost rc;
                    cp_pool_run_cost(in, ms, &ms->modes[p->mode[j]], p->start[j], &rc);
                    cost += rc.energy_cost + rc.carbon_cost;
                }
        }
        fputs("  ", f);
        put_name(ms->res[r].id, 36, f);
        fprintf(f, " %5d %12.1f %10.2f\n", jobs, acch, cost);
    }
    summary_costs(p, &fig, f);
    int dropped = 0;
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] < 0) {
            if (!dropped++)
                fprintf(f, "  dropped:\n");
            fputs("    ", f);
            cp_fputs_printable(in->jobs[j].name, false, f);
            fputs(": ", f);
            cp_fputs_printable(p->reason[j] ? p->reason[j] : "", false, f);
            putc('\n', f);
        }
    cp_plan_summary_services(p, &fig, f);
    if (p->note) {
        fputs("  repairs: ", f);
        cp_fputs_printable(p->note, false, f);
        putc('\n', f);
    }
    cp_plan_figures_release(&fig);
}

/* capplan.5 §10.5: plan --from OLD --now S [--change-penalty P]. */
typedef struct replan_opts {
    const char *from;
    int now;        /* -1: not given */
    double penalty; /* 0 by default */
} replan_opts;

/* --now and --change-penalty mean something only with --from, which
 * needs --now; each message names the option. */
static bool replan_opts_ok(const replan_opts *ro)
{
    if (ro->from && ro->now < 0) {
        fprintf(stderr, "capplan plan: --from needs --now S, the first slot that has not begun\n");
        return false;
    }
    if (!ro->from && ro->now >= 0) {
        fprintf(stderr, "capplan plan: --now needs --from OLD, the plan to re-plan from\n");
        return false;
    }
    if (!ro->from && ro->penalty != 0) {
        fprintf(stderr, "capplan plan: --change-penalty needs --from OLD\n");
        return false;
    }
    return true;
}

/* OLD matched against the inputs, and the view the search runs on;
 * prints the diagnostics; CP_ERR_INPUT for a bad OLD or S. */
static int replan_setup(const cp_input *in, const replan_opts *ro, cp_replan **rp,
                        cp_input **view)
{
    if (ro->now > in->slots) {
        fprintf(stderr, "capplan plan: --now %d: the horizon has %d slots (0 <= S <= %d)\n",
                ro->now, in->slots, in->slots);
        return CP_ERR_INPUT;
    }
    cp_err err;
    cp_err_init(&err);
    cp_modeset *ms = NULL;
    int rc = cp_modes_build(in, &ms, &err);
    if (rc) {
        cp_err_print(&err, stderr);
        return rc;
    }
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        cp_modeset_free(ms);
        fprintf(stderr, "capplan plan: out of memory\n");
        return CP_ERR_NOMEM;
    }
    cp_diags_init(d);
    rc = cp_replan_load(in, ms, ro->from, ro->now, ro->penalty, rp, d);
    if (rc)
        cp_diags_print(d, stderr);
    else if ((rc = cp_replan_view_new(in, ms, *rp, view, &err)))
        cp_err_print(&err, stderr);
    cp_free(d);
    cp_modeset_free(ms);
    return rc;
}

/* The options that go together, and before any work, no output that is
 * an input or another output: -1, or the exit status with the message
 * printed. */
static int check_usage(const cp_cli_args *a, cp_plan_opts *po, const replan_opts *ro,
                       const char *out_path, const char *leases_path)
{
    if (!cp_plan_opts_finish(po, "plan", a->quiet) || !replan_opts_ok(ro))
        return 2;
    const char *outs[] = {"-o", out_path, "--leases", leases_path, "--export-lp",
                          po->so.export_lp, NULL};
    const char *from[] = {"--from", ro->from, NULL};
    int orc = cp_cli_outputs_ok("plan", a->operands, a->n_operands, from, outs);
    return orc ? orc : -1;
}

/* The modes and the empty plan the method fills: the inputs', or with
 * --from the view's, whose modes keep what OLD fixes (cp_replan.h). */
static int new_plan(const cp_input *in, const cp_replan *rp, const cp_input *view, cp_modeset **ms,
                    cp_plan **plan, cp_err *err)
{
    int rc;
    if ((rc = cp_modes_build(in, ms, err)) || (rc = cp_plan_new(in, *ms, plan)))
        goto out;
    if (rp) {
        cp_plan_free(*plan);
        cp_modeset_free(*ms);
        *plan = NULL;
        *ms = NULL;
        if ((rc = cp_replan_modes(view, rp, ms, err)) || (rc = cp_plan_new(view, *ms, plan)))
            goto out;
    }
out:
    if (rc == CP_ERR_NOMEM)
        cp_err_nomem(err);
    return rc;
}

/* The plan to -o (standard output by default) and its leases to
 * --leases, each file atomically. */
static int write_plan(const cp_plan *plan, const cp_plan_write_opts *wo, const char *out_path,
                      const char *leases_path, cp_err *err)
{
    cp_buf out;
    cp_buf_init(&out);
    int rc = cp_plan_write(plan, wo, &out, err);
    if (!rc) {
        cp_signals_begin_output();
        rc = cp_write_file_atomic(out_path, out.s, out.len, err);
    }
    if (!rc && leases_path) {
        cp_buf_reset(&out);
        if (!(rc = cp_plan_write_leases_csv(plan, &out, err)))
            rc = cp_write_file_atomic(leases_path, out.s, out.len, err);
    }
    cp_buf_release(&out);
    return rc;
}

int cp_cmd_plan(int argc, char **argv)
{
    cp_plan_opts po;
    cp_plan_opts_init(&po);
    cp_plan_write_opts wo = {CP_FMT_YAML, true, NULL};
    const char *out_path = NULL, *leases_path = NULL;
    int format = CP_FMT_YAML;
    replan_opts ro = {NULL, -1, 0};
    const cp_opt opts[] = {
        CP_CLI_PLAN_OUTPUT_OPTS(&out_path, &format, &leases_path),
        CP_OPT_FILE(0, "from", &ro.from, "OLD",
                    "re-plan from OLD, a plan of the earlier inputs (capplan.5 §10.5); "
                    "needs --now"),
        CP_OPT_INT(0, "now", &ro.now, 0, 1000000000, "S",
                   "with --from: the first slot that has not begun; before it OLD stands"),
        CP_OPT_DOUBLE(0, "change-penalty", &ro.penalty, 0, "P",
                      "with --from: $ for each job OLD starts at S or later that the re-plan "
                      "drops or changes (default 0)"),
        CP_OPT_INCLUDE(po.table),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "plan", argc, argv, opts, &plan_help);
    if (st != CP_CLI_RUN)
        return st;
    wo.format = (cp_plan_format)format;
    st = check_usage(&a, &po, &ro, out_path, leases_path);
    if (st >= 0) {
        cp_cli_args_release(&a);
        return st;
    }
    const cp_solver_ops *ops = po.ops;
    cp_solve_opts so = po.so;
    wo.timing = po.timing;
    int quiet = po.quiet, progress = po.progress;
    cp_signals_install("capplan plan: interrupted: writing the best plan found "
                       "(interrupt again to quit without a plan)\n",
                       "capplan plan: interrupted: no plan written\n", quiet);
    cp_input *in = NULL;
    int rc = cp_cli_load("plan", a.operands, a.n_operands, &in);
    cp_cli_args_release(&a);
    if (rc) {
        cp_signals_restore();
        return rc;
    }
    cp_cli_advise("plan", in, false);
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    cp_err err;
    cp_err_init(&err);
    int status = 0;
    so.stop = cp_signals_flag();
    so.progress = po.debug;
    if (progress) {
        so.log = cp_cli_log_line;
        so.heartbeat = 1.0; /* a line at least every 2 s, on a loaded machine too */
    }
    cp_replan *rp = NULL;
    cp_input *view = NULL; /* a re-plan is solved on its view (cp_replan.h) */
    if (ro.from && (rc = replan_setup(in, &ro, &rp, &view)))
        goto done_status;
    if ((rc = new_plan(in, rp, view, &ms, &plan, &err)))
        goto fail;
    cp_signals_begin_work();
    if ((rc = cp_plan_solve(view ? view : in, ms, ops, &so, plan, &err)))
        goto fail;
    if (plan->status == CP_STATUS_NOPLAN && cp_signals_stopped()) {
        fprintf(stderr, "capplan plan: interrupted before a plan was found; no plan written\n");
        status = 130;
        goto done;
    }
    if (plan->status == CP_STATUS_NOPLAN) {
        fprintf(stderr, "capplan plan: time limit reached with no plan\n");
        status = 4;
        goto done;
    }
    char why[400];
    if (plan->status == CP_STATUS_INFEASIBLE)
        wo.infeasible_reason = cp_input_contradictions(in, NULL, why, sizeof why) ||
                                       cp_svc_contradictions(in, plan->ms, NULL, why, sizeof why)
                                   ? why
                                   : CP_INFEASIBLE_REASON;
    if ((rc = write_plan(plan, &wo, out_path, leases_path, &err)))
        goto fail;
    if (!quiet && plan->status != CP_STATUS_INFEASIBLE)
        summary(plan, stderr);
    status = plan->status == CP_STATUS_INFEASIBLE ? 3 : plan->status == CP_STATUS_INTERRUPTED ? 130 : 0;
    if (plan->status == CP_STATUS_INFEASIBLE)
        fprintf(stderr, "capplan plan: no feasible plan exists: %s\n", wo.infeasible_reason);
    goto done;
fail:
    cp_err_print(&err, stderr);
done_status:
    status = rc == CP_ERR_INPUT ? 2 : 1;
done:
    cp_signals_restore();
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_replan_view_free(view);
    cp_replan_free(rp);
    cp_input_free(in);
    return status;
}
