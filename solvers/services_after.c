/*
 * The services of an input (capplan.5 §10.4) planned around a plan of its
 * jobs: the methods whose searches plan jobs alone (heuristic, lagrange,
 * POP, whose parts never hold a service: services stay whole) and the
 * MILP's warm start end here. A greedy (services_greedy.c) gives the
 * first incumbent, kept when the MILP finds nothing better in its time.
 * The jobs keep their modes (resource,
 * count, shape, limit) and the MILP of milp_glpk.c (cp_milp_around)
 * chooses their starts (up to 5,000 start columns; above, each keeps its
 * start too) and every replica, share and unserved share around them,
 * and the instances of both; a job is dropped only where the services
 * leave it no room. This is a decomposition, not the joint optimum: a job
 * the search put on a service's resource stays there (the MILP plans
 * both together).
 */
#include "solver_internal.h"

#include <math.h>

/* The services' share of the time limit: the jobs' search stops at 75 %
 * (cp_services_jobs_opts), and the greedy and the around-MILP get what is
 * left, but at least 5 % of the limit when the search ran late, so that
 * the plan is written at the limit, not a quarter after it
 * (docs/performance.md, "Services"). */
#define AFTER_SHARE 0.25
#define AFTER_MIN_SHARE 0.05
/* of the services' time, the share of their improvement search; the
 * around-MILP gets the rest (and the search's plan as its start) */
#define SEARCH_SHARE 0.6

cp_solve_opts cp_services_jobs_opts(const cp_input *in, const cp_solve_opts *opts)
{
    cp_solve_opts o = *opts;
    if (in->n_services)
        o.time_limit *= 1 - AFTER_SHARE;
    return o;
}

int cp_services_after(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err)
{
    if (!in->n_services || plan->status == CP_STATUS_INFEASIBLE || plan->status == CP_STATUS_NOPLAN)
        return CP_OK;
    cp_plan *jobs = NULL, *warm = NULL;
    bool ok = false;
    char why[200] = "";
    if (cp_plan_new(in, ms, &jobs) || cp_plan_copy(jobs, plan) || cp_plan_new(in, ms, &warm) ||
        cp_plan_copy(warm, plan) || cp_services_greedy(warm, &ok, why, sizeof why)) {
        cp_plan_free(jobs);
        cp_plan_free(warm);
        return cp_err_nomem(err);
    }
    if (ok) { /* the greedy's services: the MILP's first incumbent */
        cp_plan_figures f;
        if (cp_plan_eval(warm, &f, err)) {
            cp_plan_free(jobs);
            cp_plan_free(warm);
            return CP_ERR_NOMEM;
        }
        warm->objective = f.costs.total;
        cp_plan_figures_release(&f);
        cp_solver_log(opts, "services: the greedy gives %.10g", warm->objective);
        /* the search (services_search.c) on a share of what is left */
        cp_solve_opts so = *opts;
        so.t_start = cp_now_seconds();
        so.time_limit = fmax(0, cp_solve_deadline(opts) - so.t_start) * SEARCH_SHARE;
        if (cp_services_search(&so, warm, &warm->objective)) {
            cp_plan_free(jobs);
            cp_plan_free(warm);
            return cp_err_nomem(err);
        }
    } else {
        cp_solver_log(opts, "services: the greedy's plan is infeasible (%s)", why);
    }
    cp_solve_opts o = *opts;
    double now = cp_now_seconds(), left = cp_solve_deadline(opts) - now;
    o.t_start = now;
    o.time_limit = fmax(left, AFTER_MIN_SHARE * opts->time_limit);
    int rc = cp_milp_around(in, ms, &o, jobs, ok ? warm : NULL, plan, err);
    cp_plan_free(jobs);
    cp_plan_free(warm);
    if (rc)
        return rc;
    cp_solver_log(opts, "services: planned around the jobs (%s)", cp_plan_status_name(plan->status));
    if (plan->status == CP_STATUS_OPTIMAL)
        plan->status = CP_STATUS_FEASIBLE; /* optimal around the jobs only */
    plan->placed = false; /* the replicas are not on units yet */
    plan->bound = NAN;
    plan->bound_kind = NULL;
    return CP_OK;
}
