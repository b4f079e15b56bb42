/*
 * --method heuristic: list scheduling, then local search.
 *
 * Jobs are taken in order of least slack (latest allowed start over all
 * modes), then highest drop penalty; each takes its cheapest feasible
 * (mode, start) given what is already placed, or is dropped when nothing
 * fits or running costs more than its penalty. Local search then removes
 * and re-inserts each job at its best position (which also moves jobs to
 * cheaper hours and consolidates cloud instances, since a market's cost
 * is the whole instances its slot needs) until a pass gains nothing.
 * Everything is deterministic; the seed only breaks no ties today.
 */
#include "cp_solver.h"
#include "cp_usage.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct order_key {
    int job, latest;
    double penalty;
} order_key;

static int key_cmp(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->latest != y->latest)
        return x->latest < y->latest ? -1 : 1;
    if (x->penalty != y->penalty)
        return x->penalty > y->penalty ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

int cp_heuristic_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                     cp_plan *plan, cp_err *err)
{
    double t0 = cp_now_seconds();
    cp_usage u;
    if (cp_usage_init(&u, in, ms))
        return cp_err_nomem(err);
    char why[256];
    if (cp_usage_baseline_infeasible(&u, why, sizeof why)) {
        plan->status = CP_STATUS_INFEASIBLE;
        cp_solver_log(opts, "infeasible: %s", why);
        cp_usage_release(&u);
        return CP_OK;
    }
    order_key *keys = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *keys);
    if (!keys) {
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    for (int j = 0; j < in->n_jobs; j++) {
        keys[j].job = j;
        keys[j].penalty = in->jobs[j].drop_penalty;
        keys[j].latest = -1;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            if (ms->modes[m].s_max > keys[j].latest)
                keys[j].latest = ms->modes[m].s_max;
        plan->mode[j] = -1;
    }
    qsort(keys, (size_t)in->n_jobs, sizeof *keys, key_cmp);
    for (int q = 0; q < in->n_jobs; q++) {
        int j = keys[q].job, m, s;
        double c;
        if (cp_usage_best(&u, j, &m, &s, &c) && c < in->jobs[j].drop_penalty) {
            cp_usage_add(&u, m, s);
            plan->mode[j] = m;
            plan->start[j] = s;
        }
    }
    /* Local search: first improvement, job by job, until a pass gains
     * nothing or time is up. */
    for (int pass = 0; pass < 20; pass++) {
        bool improved = false;
        for (int q = 0; q < in->n_jobs; q++) {
            if ((opts->stop && *opts->stop) || cp_now_seconds() - t0 > opts->time_limit)
                break;
            int j = keys[q].job;
            int om = plan->mode[j], os = plan->start[j];
            double before = u.spend + (om < 0 ? in->jobs[j].drop_penalty : 0);
            if (om >= 0)
                cp_usage_remove(&u, om, os);
            int m, s;
            double c;
            bool fits = cp_usage_best(&u, j, &m, &s, &c);
            double run = fits ? u.spend + c : INFINITY;
            double drop = u.spend + in->jobs[j].drop_penalty;
            double after = run < drop ? run : drop;
            if (after < before - 1e-9 * (1 + fabs(before))) {
                improved = true;
                if (run < drop) {
                    cp_usage_add(&u, m, s);
                    plan->mode[j] = m;
                    plan->start[j] = s;
                } else {
                    plan->mode[j] = -1;
                }
            } else if (om >= 0) {
                cp_usage_add(&u, om, os);
            }
        }
        if (!improved)
            break;
    }
    cp_free(keys);
    memcpy(plan->y, u.y, (size_t)ms->n_res * (size_t)in->slots * sizeof *plan->y);
    cp_usage_release(&u);
    plan->status = CP_STATUS_FEASIBLE;
    return CP_OK;
}

static int heuristic_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                           cp_plan *plan, cp_err *err)
{
    double t0 = cp_now_seconds();
    int rc = cp_heuristic_run(in, ms, opts, plan, err);
    if (rc)
        return rc;
    snprintf(plan->method, sizeof plan->method, "heuristic");
    plan->seconds = cp_now_seconds() - t0;
    if (opts->stop && *opts->stop && plan->status == CP_STATUS_FEASIBLE)
        plan->status = CP_STATUS_INTERRUPTED;
    return CP_OK;
}

const cp_solver_ops cp_solver_heuristic = {
    "heuristic",
    "list scheduling by slack and penalty, then local search (fast, no optimality proof)",
    heuristic_solve,
};
