/*
 * capplan place: a solution from outside (glpsol, CBC, or a plan file of
 * any tool without node ids) → the plan's choices (solvers/solution_read.c)
 * → what `plan` does after its method: concrete placement with repair,
 * reasons for drops, the plan written atomically in YAML, JSON or CSV,
 * the leases CSV. The summary says what repair changed. docs/place.md
 * walks through export, solve, place and verify.
 *
 * The plan's status is `feasible` unless the solver says it proved its
 * solution optimal, the solution's objective is the total of its choices
 * and placement changed nothing: then it is `optimal`, with that bound.
 */
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_cost.h"
#include "cp_cmd.h"
#include "cp_placement.h"
#include "cp_plan_write.h"
#include "cp_solution.h"
#include "cp_solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const cp_cli_help place_help = {
    "usage: capplan place --solution FILE [options] FILE...\n"
    "\n"
    "Read a solution of the model that 'capplan plan --export-lp' writes for these\n"
    "inputs (glpsol -w, CBC solu) or a plan file without node ids, pack it onto\n"
    "nodes and instances (repairing what does not pack) and write the plan.\n"
    "\n",
    "\n"
    "Exit status: 0 plan written, 2 bad input, usage or solution, 3 no feasible\n"
    "plan exists (the infeasible plan is written, as by plan), 1 out of memory or\n"
    "an output that cannot be written. Options may come before, between or after\n"
    "the files; '--' ends them. The full reference: man ./capplan.1 in the\n"
    "source tree.\n"};

/* --solution-format's words: each a cp_sol_format. */
static const cp_opt_word sol_formats[] = {{"auto", CP_SOL_AUTO},
                                          {"glpsol", CP_SOL_GLPSOL},
                                          {"cbc", CP_SOL_CBC},
                                          {"plan", CP_SOL_PLAN},
                                          {NULL, 0}};

static const char *res_text(const cp_modeset *ms, int r)
{
    return ms->res[r].id;
}

/* What placement changed against the solution's choices: each job moved
 * or dropped, and the instance-slots of each market. */
static void print_changes(const cp_plan *before, const cp_plan *p, FILE *f)
{
    const cp_modeset *ms = p->ms;
    for (int j = 0; j < p->n_jobs; j++) {
        int a = before->mode[j], b = p->mode[j];
        if (a == b && (a < 0 || before->start[j] == p->start[j]))
            continue;
        fprintf(f, "    job '%s': ", p->in->jobs[j].name);
        if (a < 0)
            fputs("dropped", f);
        else
            fprintf(f, "%s count %d from slot %d", res_text(ms, ms->modes[a].res),
                    ms->modes[a].count, before->start[j]);
        fputs(" -> ", f);
        if (b < 0)
            fprintf(f, "dropped (%s)\n", p->reason[j] ? p->reason[j] : "it could not be packed");
        else
            fprintf(f, "%s count %d from slot %d\n", res_text(ms, ms->modes[b].res),
                    ms->modes[b].count, p->start[j]);
    }
    for (int r = 0; r < ms->n_res; r++) {
        if (ms->res[r].kind == CP_RES_POOL)
            continue;
        long ya = 0, yb = 0;
        for (int t = 0; t < p->slots; t++) {
            ya += *cp_plan_y(before, r, t);
            yb += *cp_plan_y(p, r, t);
        }
        if (ya != yb)
            fprintf(f, "    %s: %ld -> %ld instance-slots\n", res_text(ms, r), ya, yb);
    }
}

static void summary(const cp_plan *before, const cp_plan *p, const cp_solution *si,
                    const char *sol_path, int repairs, FILE *f)
{
    cp_plan_figures fig;
    if (cp_plan_eval(p, &fig, NULL))
        return;
    int sched = 0, dropped = 0;
    for (int j = 0; j < p->n_jobs; j++)
        p->mode[j] >= 0 ? sched++ : dropped++;
    fprintf(f, "\nplace: %s solution '%s'", cp_sol_format_name(si->format), sol_path);
    if (si->status[0])
        fprintf(f, " (%s", si->status);
    if (!isnan(si->objective))
        fprintf(f, "%sobjective %.10g", si->status[0] ? ", " : " (", si->objective);
    if (si->status[0] || !isnan(si->objective))
        fputc(')', f);
    fprintf(f, "\nplan: %s (%s, %.2f s): %d job%s scheduled, %d dropped\n",
            cp_plan_status_name(p->status), p->method, p->seconds, sched, sched == 1 ? "" : "s",
            dropped);
    cp_buf sum;
    cp_buf_init(&sum);
    cp_costs_describe(&fig.costs, cp_cost_when(p->in), &sum);
    fprintf(f, "  %s\n", sum.s);
    cp_buf_release(&sum);
    if (!repairs) {
        fprintf(f, "  repairs: none (the solution packs onto nodes and instances as it is)\n");
    } else {
        fprintf(f, "  repairs: %d: %s\n", repairs, p->note ? p->note : "");
        print_changes(before, p, f);
    }
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] < 0 && p->reason[j])
            fprintf(f, "  dropped: %s: %s\n", p->in->jobs[j].name, p->reason[j]);
    cp_plan_figures_release(&fig);
}

/* The options that go together, and before any work, no output that is
 * an input or another output: 0, or the exit status with the message
 * printed. */
static int check_usage(const cp_cli_args *a, const cp_opt *opts, const char *sol_path,
                       const char *out_path, const char *leases_path)
{
    if (!sol_path || a->n_operands == 0) {
        fprintf(stderr, "capplan place: %s\n",
                !sol_path ? "--solution FILE is required" : "no input files");
        cp_cli_help_print(stderr, opts, &place_help);
        return 2;
    }
    const char *ins[] = {"--solution", sol_path, NULL};
    const char *outs[] = {"-o", out_path, "--leases", leases_path, NULL};
    return cp_cli_outputs_ok("place", a->operands, a->n_operands, ins, outs);
}

/* The placed plan's objective and status: optimal only when the solver
 * said so, the plan costs what the solution's objective says and nothing
 * was repaired, and then the objective is its bound. */
static int set_status(cp_plan *plan, const cp_solution *si, int repairs, cp_err *err)
{
    cp_plan_figures fig;
    int rc = cp_plan_eval(plan, &fig, err);
    if (rc)
        return rc;
    double o = si->objective;
    bool same = !isnan(o) && fabs(fig.costs.total - o) <= 1e-6 * (1 + fabs(fig.costs.total));
    plan->objective = fig.costs.total;
    plan->status = si->optimal && same && !repairs ? CP_STATUS_OPTIMAL : CP_STATUS_FEASIBLE;
    if (plan->status == CP_STATUS_OPTIMAL) {
        plan->bound = o;
        plan->gap = 0;
    }
    cp_plan_figures_release(&fig);
    return CP_OK;
}

/* The plan to -o (standard output by default) and, when leases_path is
 * given, its leases there, each file atomically. */
static int write_plan(const cp_plan *plan, const cp_plan_write_opts *wo, const char *out_path,
                      const char *leases_path, cp_err *err)
{
    cp_buf out;
    cp_buf_init(&out);
    int rc;
    if (!(rc = cp_plan_write(plan, wo, &out, err)) &&
        !(rc = cp_write_file_atomic(out_path, out.s, out.len, err)) && leases_path) {
        cp_buf_reset(&out);
        if (!(rc = cp_plan_write_leases_csv(plan, &out, err)))
            rc = cp_write_file_atomic(leases_path, out.s, out.len, err);
    }
    cp_buf_release(&out);
    return rc;
}

int cp_cmd_place(int argc, char **argv)
{
    cp_plan_write_opts wo = {CP_FMT_YAML, true, NULL};
    int format = CP_FMT_YAML, sfmt_word = CP_SOL_AUTO;
    const char *out_path = NULL, *leases_path = NULL, *sol_path = NULL;
    const cp_opt opts[] = {
        CP_OPT_FILE(0, "solution", &sol_path, "FILE", "the solution (required)"),
        CP_OPT_ENUM(0, "solution-format", &sfmt_word, sol_formats, NULL,
                    "its format; default auto (by its first line)"),
        CP_CLI_PLAN_OUTPUT_OPTS(&out_path, &format, &leases_path),
        CP_OPT_UNSET(0, "no-timing", &wo.timing, "write solver.seconds as 0 (byte-stable plans)"),
        CP_OPT_QUIET("no summary on stderr"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "place", argc, argv, opts, &place_help);
    if (st != CP_CLI_RUN)
        return st;
    wo.format = (cp_plan_format)format;
    cp_sol_format sfmt = (cp_sol_format)sfmt_word;
    bool quiet = a.quiet;
    if ((st = check_usage(&a, opts, sol_path, out_path, leases_path))) {
        cp_cli_args_release(&a);
        return st;
    }
    cp_input *in = NULL;
    int rc = cp_cli_load("place", a.operands, a.n_operands, &in);
    cp_cli_args_release(&a);
    if (rc)
        return rc;
    double t0 = cp_now_seconds();
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL, *before = NULL;
    cp_err err;
    cp_err_init(&err);
    cp_diags d;
    cp_diags_init(&d);
    cp_solution si;
    int status = 0, repairs = 0;
    if ((rc = cp_modes_build(in, &ms, &err)) || (rc = cp_plan_new(in, ms, &plan)) ||
        (rc = cp_plan_new(in, ms, &before))) {
        if (rc == CP_ERR_NOMEM)
            cp_err_nomem(&err);
        goto fail;
    }
    rc = cp_solution_read(in, ms, sol_path, sfmt, plan, &si, &d);
    cp_diags_print(&d, stderr);
    if (rc) {
        status = rc == CP_ERR_NOMEM ? 1 : 2;
        goto done;
    }
    snprintf(plan->method, sizeof plan->method, "place");
    if (si.infeasible) {
        /* as `plan` does: the infeasible plan is written, exit 3 */
        plan->status = CP_STATUS_INFEASIBLE;
        plan->seconds = cp_now_seconds() - t0;
        char why[400];
        wo.infeasible_reason =
            cp_input_contradictions(in, NULL, why, sizeof why) ? why : CP_INFEASIBLE_REASON;
        if ((rc = write_plan(plan, &wo, out_path, NULL, &err)))
            goto fail;
        fprintf(stderr, "capplan place: no feasible plan exists: %s\n", wo.infeasible_reason);
        status = 3;
        goto done;
    }
    cp_plan_copy_choices(before, plan);
    if ((rc = cp_plan_place(plan, &repairs, &err)) || (rc = cp_plan_explain_drops(plan, &err)))
        goto fail;
    if ((rc = set_status(plan, &si, repairs, &err)))
        goto fail;
    plan->seconds = cp_now_seconds() - t0;
    if ((rc = write_plan(plan, &wo, out_path, leases_path, &err)))
        goto fail;
    if (!quiet)
        summary(before, plan, &si, sol_path, repairs, stderr);
    goto done;
fail:
    cp_err_print(&err, stderr);
    status = rc == CP_ERR_INPUT ? 2 : 1;
done:
    cp_plan_free(before);
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_input_free(in);
    return status;
}
