/*
 * capplan explain --plan PLAN [--top N] JOB FILE...
 *
 * Why JOB runs where PLAN puts it (docs/explain.md): its modes priced in
 * that plan (solvers/cp_explain_modes.h: the other jobs where the plan
 * puts them, each mode at its cheapest start from its predecessors' end
 * to its successors' start), the N cheapest first, the plan's own marked
 * with '*' (shown even when it is not among them), and for every other
 * mode why the plan did not take it: it costs more, it costs less (the
 * search did not find it), or it does not fit and why (capacity the
 * other jobs hold, a quota, a power cap, the budget, a team's quota, the
 * window its predecessors and successors leave). Exit 0 printed, 2 bad
 * usage, inputs, plan or job, 1 out of memory.
 */
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_explain_modes.h"
#include "cp_modes.h"
#include "cp_placement.h"
#include "cp_solution.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const cp_cli_help explain_help = {
    "usage: capplan explain --plan PLAN [--top N] JOB FILE...\n"
    "\n"
    "Why JOB runs where the plan PLAN of the inputs FILE... puts it: its modes\n"
    "priced in that plan, cheapest first, the plan's own marked '*', and why\n"
    "each other mode was not taken (docs/explain.md).\n"
    "\n",
    "\n"
    "cost $ is what the plan's total changes by with the job in that mode at\n"
    "that start instead of nowhere, the other jobs as the plan has them; for a\n"
    "mode that fits nowhere, what it costs alone.\n"
    "Exit status: 0 printed, 2 bad usage, inputs, plan or job, 1 other errors.\n"};

/* A name as printed: control characters (a name could drive the
 * terminal) as '?'. */
static void put_name(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void put_mode(FILE *f, const cp_input *in, const cp_modeset *ms, const cp_mode *m)
{
    const cp_resource *r = &ms->res[m->res];
    const cp_job *j = &in->jobs[m->job];
    put_name(f, r->name);
    fputs(r->kind == CP_RES_POOL ? "" : r->kind == CP_RES_SPOT ? " spot" : " on-demand", f);
    fprintf(f, ", %d x ", m->count);
    put_name(f, j->kind == CP_JOB_TRAINING ? in->accels[m->acc].name : r->mach->type);
    if (j->kind == CP_JOB_TRAINING && j->n_shapes > 1)
        fprintf(f, ", shape %d", m->shape);
    if (m->limit >= 0)
        fprintf(f, " at %g W", j->power_limits[m->limit].limit_w);
}

/* Why mode w was not taken, against the plan's own (NULL: the job is
 * dropped, with penalty `pen`). */
static void put_why(FILE *f, const cp_mode_why *w, const cp_mode_why *own, double pen)
{
    if (w->chosen) {
        fputs(w->fits ? "the plan's" : "the plan's (packed again, it does not fit)", f);
        return;
    }
    if (!w->fits) {
        fputs("does not fit: ", f);
        put_name(f, w->why ? w->why : "");
        return;
    }
    double ref = own ? own->cost : pen, d = w->cost - ref;
    const char *than = own ? "" : " than its penalty";
    if (fabs(d) < 0.005)
        fprintf(f, "fits, costs the same%s", than);
    else if (d > 0)
        fprintf(f, "fits, costs $%.2f more%s", d, than);
    else
        fprintf(f, "fits, costs $%.2f less%s: the search did not find it (a longer "
                   "--time-limit may)",
                -d, than);
}

static void put_row(FILE *f, const cp_input *in, const cp_modeset *ms, int rank,
                    const cp_mode_why *w, const cp_mode_why *own, double pen)
{
    const cp_mode *m = &ms->modes[w->mode];
    char cost[48];
    snprintf(cost, sizeof cost, w->fits ? "%.2f" : "(%.2f)", w->cost);
    fprintf(f, "%c %3d  %10s  %5d  %6.2f  ", w->chosen ? '*' : ' ', rank, cost, w->start, m->hours);
    put_mode(f, in, ms, m);
    fputs("\n                                ", f);
    put_why(f, w, own, pen);
    fputc('\n', f);
}

static int explain(const cp_input *in, const cp_modeset *ms, const cp_plan *plan, int j,
                   const char *plan_path, long top)
{
    cp_err err;
    cp_err_init(&err);
    cp_mode_why *v = NULL;
    int n = 0;
    if (cp_explain_modes(plan, j, &v, &n, &err)) {
        cp_err_print(&err, stderr);
        return 1;
    }
    const cp_job *job = &in->jobs[j];
    const cp_mode_why *own = NULL;
    int own_rank = 0;
    for (int i = 0; i < n; i++)
        if (v[i].chosen) {
            own = &v[i];
            own_rank = i + 1;
        }
    FILE *f = stdout;
    fputs("job '", f);
    put_name(f, job->name);
    fputs("' in plan '", f);
    put_name(f, plan_path);
    fputs("': ", f);
    if (own) {
        fputs("runs on ", f);
        put_mode(f, in, ms, &ms->modes[own->mode]);
        fprintf(f, " from slot %d\n", own->start);
    } else {
        fprintf(f, "dropped (its penalty: $%.2f)\n", job->drop_penalty);
        if (plan->reason[j]) {
            fputs("  ", f);
            put_name(f, plan->reason[j]);
            fputc('\n', f);
        }
    }
    long shown = top < n ? top : n;
    fprintf(f,
            "%ld of its %d mode%s, cheapest first. cost $: what the plan's total changes by "
            "with the job there at that start, the other jobs as planned; (in brackets) for a "
            "mode that fits nowhere, its cost alone.\n\n",
            shown, n, n == 1 ? "" : "s");
    fputs("    #      cost $  start   hours  mode\n", f);
    for (long i = 0; i < shown; i++)
        put_row(f, in, ms, (int)i + 1, &v[i], own, job->drop_penalty);
    if (own && own_rank > shown) {
        fputs("  ...\n", f);
        put_row(f, in, ms, own_rank, own, own, job->drop_penalty);
    }
    cp_mode_why_free(v, n);
    return 0;
}

int cp_cmd_explain(int argc, char **argv)
{
    const char *plan_path = NULL;
    long top = 10;
    const cp_opt opts[] = {
        CP_OPT_FILE(0, "plan", &plan_path, "PLAN",
                    "the plan (YAML or JSON, as 'capplan plan' writes it; required)"),
        CP_OPT_LONG(0, "top", &top, 1, 1000000L, "N", "the N cheapest modes (default 10)"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "explain", argc, argv, opts, &explain_help);
    if (st != CP_CLI_RUN)
        return st;
    if (!plan_path || a.n_operands < 2) {
        fprintf(stderr, "capplan explain: %s (see 'capplan explain --help')\n",
                !plan_path ? "--plan PLAN is required" : a.n_operands ? "no input files"
                                                                     : "no job and no input files");
        cp_cli_args_release(&a);
        return 2;
    }
    const char *job_name = a.operands[0];
    cp_input *in = NULL;
    int rc = cp_cli_load("explain", a.operands + 1, a.n_operands - 1, &in);
    if (rc) {
        cp_cli_args_release(&a);
        return rc;
    }
    int status = 0, j = cp_input_find_job(in, job_name);
    if (j < 0) {
        fprintf(stderr, "capplan explain: no job named '");
        put_name(stderr, job_name);
        fprintf(stderr, "' in the inputs\n");
        cp_cli_args_release(&a);
        cp_input_free(in);
        return 2;
    }
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    cp_err err;
    cp_err_init(&err);
    cp_diags d;
    cp_diags_init(&d);
    cp_solution si;
    if ((rc = cp_modes_build(in, &ms, &err)) || (rc = cp_plan_new(in, ms, &plan))) {
        if (rc == CP_ERR_NOMEM)
            cp_err_nomem(&err);
        cp_err_print(&err, stderr);
        status = rc == CP_ERR_INPUT ? 2 : 1;
        goto out;
    }
    rc = cp_solution_read(in, ms, plan_path, CP_SOL_PLAN, plan, &si, &d);
    cp_diags_print(&d, stderr); /* errors, or warnings: an objective not the choices' total */
    if (rc) {
        status = rc == CP_ERR_NOMEM ? 1 : 2;
    } else if (si.infeasible) {
        fprintf(stderr, "capplan explain: '%s' is an infeasible plan: no job runs\n", plan_path);
        status = 2;
    } else if ((rc = cp_plan_explain_drops(plan, &err))) {
        cp_err_print(&err, stderr);
        status = 1;
    } else {
        status = explain(in, ms, plan, j, plan_path, top);
    }
out:
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_input_free(in);
    cp_cli_args_release(&a);
    return status;
}
