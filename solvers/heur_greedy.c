/*
 * --method heuristic: list scheduling, then local search.
 *
 * Jobs are taken in two orders — least slack (latest allowed start over
 * all modes) first, and highest regret (cloud cost minus cheapest cost)
 * first — and the cheaper result is kept; each job takes its cheapest
 * feasible (mode, start) given what is already placed (or, with prices
 * from the Lagrangian relaxation, the one cheapest after adding the
 * opportunity cost of the pool capacity it takes), or is dropped when
 * nothing fits or running costs more than its penalty. Local search then
 * removes and re-inserts each job at its best position (which also moves
 * jobs to cheaper hours and consolidates cloud instances, since a
 * market's cost is the whole instances its slot needs) until a pass gains
 * nothing. Everything is deterministic.
 */
#include "solver_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct order_key {
    int job, latest;
    double penalty, regret;
} order_key;

/* Least slack first, then highest penalty. */
static int slack_cmp(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->latest != y->latest)
        return x->latest < y->latest ? -1 : 1;
    if (x->penalty != y->penalty)
        return x->penalty > y->penalty ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

/* Highest regret first: what the job loses if the cheap resources are
 * taken (its cheapest run on an empty plan vs. its cheapest cloud run,
 * or its penalty), so the jobs that are dearest in the cloud get the
 * pools. */
static int regret_cmp(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->regret != y->regret)
        return x->regret > y->regret ? -1 : 1;
    return slack_cmp(a, b);
}

/* Regret of job j on an empty plan (u holds nothing yet). */
static double job_regret(const cp_usage *u, int j)
{
    const cp_modeset *ms = u->ms;
    double best = INFINITY, best_cloud = u->in->jobs[j].drop_penalty;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        for (int s = md->s_min; s <= md->s_max; s++) {
            double c;
            if (!cp_usage_try(u, m, s, &c))
                continue;
            best = c < best ? c : best;
            if (ms->res[md->res].kind != CP_RES_POOL && c < best_cloud)
                best_cloud = c;
        }
    }
    return isfinite(best) ? best_cloud - best : 0;
}

static bool out_of_time(const cp_solve_opts *o, double deadline)
{
    return (o->stop && *o->stop) || cp_now_seconds() > deadline;
}

/* Total of the plan within the keys' jobs: spend plus their penalties. */
static double scoped_total(const cp_usage *u, const order_key *keys, int nk, const cp_plan *plan)
{
    double total = u->spend;
    for (int q = 0; q < nk; q++)
        if (plan->mode[keys[q].job] < 0)
            total += u->in->jobs[keys[q].job].drop_penalty;
    return total;
}

/* First improvement, job by job, until a pass gains nothing or time is
 * up: each job is taken out and put back at its best position, or
 * dropped when its penalty is cheaper. */
static void local_search(cp_usage *u, const order_key *keys, int nk, cp_plan *plan,
                         const cp_solve_opts *opts, double deadline)
{
    const cp_input *in = u->in;
    for (int pass = 0; pass < 50; pass++) {
        bool improved = false;
        for (int q = 0; q < nk; q++) {
            if (out_of_time(opts, deadline))
                return;
            int j = keys[q].job;
            int om = plan->mode[j], os = plan->start[j];
            double before = u->spend + (om < 0 ? in->jobs[j].drop_penalty : 0);
            if (om >= 0)
                cp_usage_remove(u, om, os);
            int m, s;
            double c;
            bool fits = cp_usage_best(u, j, &m, &s, &c);
            double run = fits ? u->spend + c : INFINITY;
            double drop = u->spend + in->jobs[j].drop_penalty;
            double after = run < drop ? run : drop;
            if (after < before - 1e-9 * (1 + fabs(before))) {
                improved = true;
                if (run < drop) {
                    cp_usage_add(u, m, s);
                    plan->mode[j] = m;
                    plan->start[j] = s;
                } else {
                    plan->mode[j] = -1;
                }
            } else if (om >= 0) {
                cp_usage_add(u, om, os);
            }
        }
        if (!improved)
            return;
    }
}

/* Construction in the order of `keys`, then local search; leaves the
 * choices (and pool nodes) in plan and its total within the keys' jobs
 * in *total. */
static int construct(cp_usage *u, const order_key *keys, int nk, const cp_prices *pr, bool share,
                     const cp_solve_opts *opts, double deadline, cp_plan *plan, double *total)
{
    const cp_input *in = u->in;
    for (int j = 0; j < in->n_jobs; j++)
        plan->mode[j] = -1;
    for (int q = 0; q < nk; q++) {
        int j = keys[q].job, m, s;
        double c;
        bool fits = share ? cp_usage_best_shared(u, j, pr, &m, &s, &c)
                    : pr  ? cp_usage_best_priced(u, j, pr, &m, &s, &c)
                          : cp_usage_best(u, j, &m, &s, &c);
        if (fits && c < in->jobs[j].drop_penalty) {
            cp_usage_add(u, m, s);
            plan->mode[j] = m;
            plan->start[j] = s;
        }
    }
    local_search(u, keys, nk, plan, opts, deadline);
    memcpy(plan->y, u->y, (size_t)u->ms->n_res * (size_t)in->slots * sizeof *plan->y);
    *total = scoped_total(u, keys, nk, plan);
    return cp_usage_export_units(u, plan);
}

/* The keys of the scope's jobs (regret needs an empty usage u). */
static order_key *make_keys(const cp_usage *u, const cp_scope *sc, int *nk)
{
    const cp_input *in = u->in;
    const cp_modeset *ms = u->ms;
    order_key *keys = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *keys);
    if (!keys)
        return NULL;
    int n = 0;
    for (int j = 0; j < in->n_jobs; j++) {
        if (sc && sc->active && !sc->active[j])
            continue;
        order_key *k = &keys[n++];
        k->job = j;
        k->penalty = in->jobs[j].drop_penalty;
        k->latest = -1;
        k->regret = job_regret(u, j);
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            if (ms->modes[m].s_max > k->latest)
                k->latest = ms->modes[m].s_max;
    }
    *nk = n;
    return keys;
}

int cp_heuristic_scoped(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                        const cp_scope *sc, const cp_prices *pr, cp_plan *plan, double *total,
                        cp_err *err)
{
    double deadline = cp_solve_deadline(opts);
    double scale = sc ? sc->scale : 1.0;
    cp_usage u;
    if (cp_usage_init_scaled(&u, in, ms, scale))
        return cp_err_nomem(err);
    char why[256];
    if (cp_usage_baseline_infeasible(&u, why, sizeof why)) {
        plan->status = CP_STATUS_INFEASIBLE;
        cp_solver_log(opts, "infeasible: %s", why);
        cp_usage_release(&u);
        return CP_OK;
    }
    int nk = 0;
    order_key *keys = make_keys(&u, sc, &nk);
    cp_plan *alt = NULL;
    if (!keys || cp_plan_new(in, ms, &alt)) {
        cp_free(keys);
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    /* Two orders, each constructed on a fresh usage; the cheaper wins
     * (ties: the slack order), so the result is deterministic. */
    int (*orders[])(const void *, const void *) = {slack_cmp, regret_cmp};
    static const char *const order_name[] = {"slack", "regret"};
    /* with prices, each order once as given and once with markets ranked
     * by their instance share (cp_usage_best_shared); without, the shared
     * orders won on one of the three 1,000-job cloud nights measured
     * (43,708 against 44,570) and none at 10,000 jobs, where they double
     * the time to the first plan */
    double best = INFINITY;
    int rc = CP_OK;
    for (int o = 0; o < (pr ? 4 : 2); o++) {
        /* the second order only while there is time for it */
        if (o > 0 && out_of_time(opts, deadline))
            break;
        qsort(keys, (size_t)nk, sizeof *keys, orders[o % 2]);
        cp_usage w;
        if (cp_usage_init_scaled(&w, in, ms, scale)) {
            rc = cp_err_nomem(err);
            break;
        }
        double t = INFINITY;
        rc = construct(&w, keys, nk, pr, o >= 2, opts, deadline, alt, &t);
        cp_usage_release(&w);
        if (rc) {
            rc = cp_err_nomem(err);
            break;
        }
        if (!sc)
            cp_solver_log(opts, "heuristic: %s%s%s order gives %.10g", pr ? "priced " : "",
                          o < 2 ? "" : "shared ", order_name[o % 2], t);
        if (t < best - 1e-9 * (1 + fabs(t))) {
            best = t;
            if (cp_plan_copy(plan, alt)) {
                rc = cp_err_nomem(err);
                break;
            }
        }
    }
    cp_plan_free(alt);
    cp_free(keys);
    cp_usage_release(&u);
    if (rc)
        return rc;
    plan->status = CP_STATUS_FEASIBLE;
    *total = best;
    return CP_OK;
}

int cp_heuristic_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                     cp_plan *plan, cp_err *err)
{
    double total;
    int rc = cp_heuristic_scoped(in, ms, opts, NULL, NULL, plan, &total, err);
    if (rc == CP_OK && plan->status == CP_STATUS_FEASIBLE)
        cp_solver_log_incumbent(opts, total);
    return rc;
}

int cp_improve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, cp_plan *plan,
               double *total, cp_err *err)
{
    double deadline = cp_solve_deadline(opts);
    cp_usage u;
    if (cp_usage_init(&u, in, ms))
        return cp_err_nomem(err);
    int nk = 0;
    order_key *keys = make_keys(&u, NULL, &nk);
    if (!keys) {
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    qsort(keys, (size_t)nk, sizeof *keys, slack_cmp);
    int *had = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *had);
    if (!had) {
        cp_free(keys);
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    for (int j = 0; j < in->n_jobs; j++)
        had[j] = plan->mode[j];
    int lost = cp_usage_load_plan(&u, plan);
    if (lost)
        cp_solver_log(opts, "improve: %d jobs did not pack onto nodes; placing them again", lost);
    /* those are placed again whatever the clock says: a plan must not
     * lose jobs to fragmentation because the search used its time */
    for (int j = 0; j < in->n_jobs && lost; j++) {
        int m, s;
        double c;
        if (had[j] >= 0 && plan->mode[j] < 0 && cp_usage_best(&u, j, &m, &s, &c) &&
            c < in->jobs[j].drop_penalty) {
            cp_usage_add(&u, m, s);
            plan->mode[j] = m;
            plan->start[j] = s;
        }
    }
    cp_free(had);
    local_search(&u, keys, nk, plan, opts, deadline);
    memcpy(plan->y, u.y, (size_t)ms->n_res * (size_t)in->slots * sizeof *plan->y);
    *total = scoped_total(&u, keys, nk, plan);
    int rc = cp_usage_export_units(&u, plan);
    cp_free(keys);
    cp_usage_release(&u);
    return rc ? cp_err_nomem(err) : CP_OK;
}
