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
 * both together). So that the search puts fewer there, it plans the
 * jobs in the room the services' greedy plan on the empty fleet leaves
 * (cp_services_jobs, services_reserve.c), and the plan's bound is the
 * joint LP (lp_colgen_svc.c), which no jobs' search gives.
 */
#include "solver_internal.h"

#include "cp_alloc.h"

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

/* The jobs the search on the view dropped, each put back in its
 * cheapest run on the input when that costs less than its penalty: the
 * room kept for the services is a guess, and a job that must run
 * on-prem (examples/serving's fine-tuning, on the nodes the service
 * would fill; tests/services/fragmented.yaml) is worth more than the
 * guess. Jobs in an `after` edge stay as they are (their windows are the
 * search's). Returns how many, or -1 (CP_ERR_NOMEM). */
static int put_back(const cp_input *in, const cp_modeset *ms, cp_plan *plan)
{
    unsigned char *linked = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), 1);
    cp_usage u;
    if (!linked || cp_usage_init(&u, in, ms)) {
        cp_free(linked);
        return -1;
    }
    for (int j = 0; j < in->n_jobs; j++)
        for (int a = 0; a < in->jobs[j].n_after; a++)
            linked[j] = linked[in->jobs[j].after[a]] = 1;
    cp_usage_load_plan(&u, plan);
    int n = 0;
    for (int j = 0; j < in->n_jobs; j++) {
        int m, s;
        double delta;
        if (plan->mode[j] >= 0 || linked[j] || !cp_usage_best(&u, j, &m, &s, &delta) ||
            delta >= in->jobs[j].drop_penalty)
            continue;
        cp_usage_add(&u, m, s);
        plan->mode[j] = m;
        plan->start[j] = s;
        n++;
    }
    int rc = n && cp_usage_export_units(&u, plan) ? -1 : n;
    if (n)
        cp_plan_min_instances(plan);
    cp_usage_release(&u);
    cp_free(linked);
    return rc;
}

/* The joint LP (jobs and services: capplan.5 §10.4) by column
 * generation, its time at most this share of the limit (taken from the
 * services' share after the jobs' search): the plan's bound, which the
 * jobs' search on the view cannot give. */
#define JOINT_LP_SHARE 0.15
/* Deployment-slots of a night without jobs above which the joint LP is
 * not tried: bench/gen --services 100 1 0 has 7,200, and its LP solved
 * no master in 9 s of a 60-s run (docs/performance.md, "Services") */
#define JOINT_LP_SVC_CELLS 2000L

bool cp_services_alone(const cp_input *in, const cp_modeset *ms)
{
    return in->n_services && !in->n_jobs && (long)ms->n_deps * in->slots > JOINT_LP_SVC_CELLS;
}

static int joint_bound(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                       const cp_plan *seed, double *bound, bool *exact, cp_err *err)
{
    cp_lpcg lp;
    double left = cp_solve_deadline(opts) - cp_now_seconds();
    int rc = cp_lpcg_run(in, ms, opts, seed, NULL, false,
                         fmax(0, fmin(left, JOINT_LP_SHARE * opts->time_limit)), &lp, err);
    if (rc)
        return rc;
    /* a Lagrangian value below zero, early on, says less than the costs
     * that are never negative: no bound */
    *bound = isfinite(lp.bound) && lp.bound > 0 ? lp.bound : NAN;
    *exact = lp.lp_exact && !lp.infeasible;
    if (*exact)
        *bound = lp.lp_bound;
    cp_solver_log(opts, "services: joint LP %s %.10g (%.2f s)", *exact ? "optimum" : "bound", *bound,
                  lp.seconds);
    cp_lpcg_release(&lp);
    return CP_OK;
}

int cp_services_jobs(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                     cp_jobs_search search, void *ctx, cp_plan *plan, cp_err *err)
{
    cp_solve_opts jo = cp_services_jobs_opts(in, opts);
    if (!in->n_services)
        return search(in, ms, &jo, plan, ctx, err);
    double bound = NAN;
    bool exact = false;
    cp_input *view = NULL;
    int rc = cp_services_view_new(in, ms, opts, &view, err);
    if (rc == CP_OK && !view)
        rc = search(in, ms, &jo, plan, ctx, err);
    if (rc == CP_OK && view) {
        cp_plan *jp = NULL;
        if (cp_plan_new(view, ms, &jp))
            rc = cp_err_nomem(err);
        if (rc == CP_OK)
            rc = search(view, ms, &jo, jp, ctx, err);
        if (rc == CP_OK && cp_plan_copy(plan, jp))
            rc = cp_err_nomem(err);
        if (rc == CP_OK) {
            /* the view's bound is no bound of the input */
            plan->status = jp->status;
            plan->objective = jp->objective;
            plan->mip_engine = jp->mip_engine;
            plan->bound = NAN;
            plan->bound_kind = NULL;
            int n = plan->status == CP_STATUS_INFEASIBLE ? 0 : put_back(in, ms, plan);
            if (n < 0)
                rc = cp_err_nomem(err);
            else if (n)
                cp_solver_log(opts, "services: %d jobs dropped for the room kept put back", n);
        }
        cp_plan_free(jp);
        cp_services_view_free(view);
    }
    /* the joint LP from the jobs' plan (its first basis: feasible but
     * for min_replicas); a bound of the input's jobs alone (the search's, on
     * the input) is one of the whole too, the services' costs being
     * never negative: the better one */
    /* a night of services alone is the services search's (after this):
     * the LP of a large one does not solve in its share, so it runs on
     * small ones only (JOINT_LP_SVC_CELLS) */
    bool lp = in->n_jobs || (long)ms->n_deps * in->slots <= JOINT_LP_SVC_CELLS;
    if (rc == CP_OK && lp && plan->status != CP_STATUS_INFEASIBLE && plan->status != CP_STATUS_NOPLAN)
        rc = joint_bound(in, ms, opts, plan, &bound, &exact, err);
    if (rc == CP_OK && isfinite(bound) && !(plan->bound >= bound)) {
        plan->bound = bound;
        plan->bound_kind = cp_bound_kind_text(exact ? CP_BOUND_LP : CP_BOUND_LP_PARTIAL);
    }
    return rc;
}

bool cp_services_apart(const cp_input *in, const cp_modeset *ms)
{
    if (!in->n_services || in->has_budget || ms->replan)
        return false;
    for (int v = 0; v < in->n_services; v++)
        if (in->services[v].team >= 0 && in->teams[in->services[v].team].has_budget)
            return false;
    /* a pool holds jobs' capacity, power cap and quota rows; an offer's
     * markets its quotas */
    unsigned char *used = cp_calloc((size_t)(in->n_offers ? in->n_offers : 1), 1);
    if (!used)
        return false; /* out of memory: the one model, which needs no proof of this */
    for (int m = 0; m < ms->n_modes; m++)
        if (ms->res[ms->modes[m].res].kind != CP_RES_POOL)
            used[ms->res[ms->modes[m].res].index] = 1;
    bool apart = true;
    for (int d = 0; d < ms->n_deps && apart; d++) {
        const cp_resource *r = &ms->res[ms->deps[d].res];
        apart = r->kind != CP_RES_POOL && !used[r->index];
    }
    cp_free(used);
    return apart;
}

/* cp_services_after, with every job at its start too when `keep` (its
 * jobs then cost `fixed`, or NAN); the around-MILP's bound and whether it
 * proved its optimum in *bound and *optimal (when not NULL). */
static int after(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, cp_plan *plan,
                 bool keep, double fixed, double *around_bound, bool *optimal, cp_err *err)
{
    if (around_bound)
        *around_bound = NAN;
    if (optimal)
        *optimal = false;
    if (!in->n_services || plan->status == CP_STATUS_INFEASIBLE || plan->status == CP_STATUS_NOPLAN)
        return CP_OK;
    cp_plan *jobs = NULL, *warm = NULL;
    bool ok = false;
    /* a large night of services alone: the around-MILP is the joint
     * MILP, whose LP does not solve in its share (bench/gen --services
     * 100 1 0: no LP in 24 s of a 60-s run), so the search gets it all */
    bool alone = cp_services_alone(in, ms);
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
        so.time_limit = fmax(0, cp_solve_deadline(opts) - so.t_start) * (alone ? 1 : SEARCH_SHARE);
        if (cp_services_search(&so, warm, &warm->objective)) {
            cp_plan_free(jobs);
            cp_plan_free(warm);
            return cp_err_nomem(err);
        }
    } else {
        cp_solver_log(opts, "services: the greedy's plan is infeasible (%s)", why);
    }
    if (ok && alone) {
        double bound = plan->bound;
        const char *bound_kind = plan->bound_kind;
        int rc = cp_plan_copy(plan, warm) ? cp_err_nomem(err) : CP_OK;
        plan->objective = warm->objective;
        plan->bound = bound;
        plan->bound_kind = bound_kind;
        plan->status = CP_STATUS_FEASIBLE;
        plan->placed = false;
        cp_plan_free(jobs);
        cp_plan_free(warm);
        cp_solver_log(opts, "services: the search's plan kept (no around-MILP on a night of services alone)");
        return rc;
    }
    cp_solve_opts o = *opts;
    double now = cp_now_seconds(), left = cp_solve_deadline(opts) - now;
    o.t_start = now;
    o.time_limit = fmax(left, AFTER_MIN_SHARE * opts->time_limit);
    /* jobs at a fixed cost: the gap on the services' part alone (GLPK's
     * is relative to the whole, of which the jobs may be most: the
     * nightly example's scenario of earlier deadlines, $8,725 of jobs and
     * penalties, left its $643 service $0.11 off its optimum) */
    if (keep && ok && isfinite(fixed) && warm->objective - fixed > 0)
        o.gap = opts->gap * (warm->objective - fixed) / fmax(1e-9, fabs(warm->objective));
    /* the around-MILP's bound is one of its jobs' choices only */
    double bound = plan->bound;
    const char *bound_kind = plan->bound_kind;
    int rc = keep ? cp_milp_around_fixed(in, ms, &o, jobs, ok ? warm : NULL, plan, err)
                  : cp_milp_around(in, ms, &o, jobs, ok ? warm : NULL, plan, err);
    if (around_bound)
        *around_bound = plan->bound;
    if (optimal)
        *optimal = plan->status == CP_STATUS_OPTIMAL;
    plan->bound = bound;
    plan->bound_kind = bound_kind;
    cp_plan_free(jobs);
    cp_plan_free(warm);
    if (rc)
        return rc;
    cp_solver_log(opts, "services: planned around the jobs (%s)", cp_plan_status_name(plan->status));
    if (plan->status == CP_STATUS_OPTIMAL)
        plan->status = CP_STATUS_FEASIBLE; /* optimal around the jobs only */
    plan->placed = false; /* the replicas are not on units yet */
    return CP_OK;
}

int cp_services_after(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err)
{
    return after(in, ms, opts, plan, false, NAN, NULL, NULL, err);
}

int cp_services_after_fixed(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                            cp_plan *plan, double fixed, double *bound, bool *optimal, cp_err *err)
{
    return after(in, ms, opts, plan, true, fixed, bound, optimal, err);
}
