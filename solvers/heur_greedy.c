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
 *
 * Precedence (capplan.5 §9.2) is kept while building, not repaired after: a job
 * becomes eligible once its predecessors are decided (the order's next
 * eligible job goes next), starts within the window they and its running
 * successors leave (cp_prec.h), is dropped with a dropped predecessor,
 * and a predecessor ranks its runs by what its successors would then cost
 * (cp_prec_best), so it does not take the cheap slot that leaves them no
 * room. The slack order counts a job's successors: its latest start is
 * at most theirs less its own shortest run. Local search moves a job
 * within its window and drops only a job no running job follows.
 */
#include "solver_internal.h"

#include "cp_prec.h"

#include "cp_alloc.h"

#include <limits.h>
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
        /* past the deadline: the regret of what was tried */
        for (int s = md->s_min; s <= md->s_max && !cp_clock_late(u->clock); s++) {
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
    double total = cp_usage_objective(u);
    for (int q = 0; q < nk; q++)
        if (plan->mode[keys[q].job] < 0)
            total += u->in->jobs[keys[q].job].drop_penalty;
    return total;
}

/* First improvement, job by job, until a pass gains nothing or time is
 * up: each job is taken out and put back at its best position, or
 * dropped when its penalty is cheaper. */
static void local_search(cp_usage *u, const cp_prec *g, const unsigned char *skip,
                         const order_key *keys, int nk, cp_plan *plan, const cp_solve_opts *opts,
                         double deadline)
{
    const cp_input *in = u->in;
    for (int pass = 0; pass < 50; pass++) {
        bool improved = false;
        for (int q = 0; q < nk; q++) {
            if (out_of_time(opts, deadline))
                return;
            int j = keys[q].job;
            int om = plan->mode[j], os = plan->start[j];
            int est = 0, lend = INT_MAX;
            bool alive = true, follows = false;
            if (g->any) {
                alive = cp_prec_window(g, u->ms, plan->mode, plan->start, skip, j, &est, &lend);
                follows = cp_prec_has_running_succ(g, plan->mode, skip, j);
            }
            if (!alive)
                continue; /* dropped with a predecessor: stays so */
            double before = cp_usage_objective(u) + (om < 0 ? in->jobs[j].drop_penalty : 0);
            if (om >= 0)
                cp_usage_remove(u, om, os);
            int m, s;
            double c;
            bool fits = cp_usage_best_in(u, j, NULL, false, est, lend, &m, &s, &c);
            double run = fits ? cp_usage_objective(u) + c : INFINITY;
            /* a job a running job follows stays: its drop would drop them */
            double drop = follows ? INFINITY : cp_usage_objective(u) + in->jobs[j].drop_penalty;
            double after = run < drop ? run : drop;
            if (isfinite(after) && after < before - 1e-9 * (1 + fabs(before))) {
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
/* A min-heap of positions in the order (the eligible jobs). */
static void heap_push(int *h, int *n, int v)
{
    int i = (*n)++;
    for (; i > 0 && h[(i - 1) / 2] > v; i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = v;
}

static int heap_pop(int *h, int *n)
{
    int top = h[0], v = h[--*n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = v;
    return top;
}

/* Places keys[q]'s job (mask: jobs not yet decided or out of the scope). */
static void place_one(cp_usage *u, cp_prec *g, const unsigned char *mask, const order_key *keys,
                      int q, const cp_prices *pr, bool share, cp_plan *plan)
{
    int j = keys[q].job;
    cp_prec_pick pk;
    if (cp_prec_best(g, u, plan->mode, plan->start, mask, j, pr, share, &pk) && pk.score < pk.drop) {
        cp_usage_add(u, pk.mode, pk.start);
        plan->mode[j] = pk.mode;
        plan->start[j] = pk.start;
    }
}

/* The order of `keys`, each job once its predecessors in the scope are
 * decided (the eligible job first in the order next); false on out of
 * memory. Without `after` this is the order itself. */
static bool place_all(cp_usage *u, cp_prec *g, const unsigned char *skip, const order_key *keys,
                      int nk, const cp_prices *pr, bool share, cp_plan *plan)
{
    const cp_input *in = u->in;
    if (!g->any) {
        for (int q = 0; q < nk; q++)
            place_one(u, g, NULL, keys, q, pr, share, plan);
        return true;
    }
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    int *pos = cp_calloc(nj, sizeof *pos), *wait = cp_calloc(nj, sizeof *wait);
    int *heap = cp_calloc(nj, sizeof *heap);
    unsigned char *mask = cp_calloc(nj, 1);
    bool ok = pos && wait && heap && mask;
    if (ok) {
        int nh = 0;
        for (int j = 0; j < in->n_jobs; j++)
            mask[j] = CP_PREC_ABSENT | (skip && skip[j] ? 0 : CP_PREC_PENDING);
        for (int q = 0; q < nk; q++)
            pos[keys[q].job] = q;
        for (int q = 0; q < nk; q++) {
            int j = keys[q].job;
            for (int a = 0; a < in->jobs[j].n_after; a++)
                wait[j] += !(skip && skip[in->jobs[j].after[a]]);
            if (!wait[j])
                heap_push(heap, &nh, q);
        }
        while (nh) {
            int q = heap_pop(heap, &nh), j = keys[q].job;
            mask[j] = 0; /* decided now: its choice counts for the others */
            place_one(u, g, mask, keys, q, pr, share, plan);
            for (int k = g->succ_first[j]; k < g->succ_first[j + 1]; k++) {
                int x = g->succ[k];
                if (!(skip && skip[x]) && --wait[x] == 0)
                    heap_push(heap, &nh, pos[x]);
            }
        }
    }
    cp_free(pos);
    cp_free(wait);
    cp_free(heap);
    cp_free(mask);
    return ok;
}

static int construct(cp_usage *u, cp_prec *g, const unsigned char *skip, const order_key *keys,
                     int nk, const cp_prices *pr, bool share, const cp_solve_opts *opts,
                     double deadline, cp_plan *plan, double *total)
{
    const cp_input *in = u->in;
    for (int j = 0; j < in->n_jobs; j++)
        plan->mode[j] = -1;
    if (!place_all(u, g, skip, keys, nk, pr, share, plan))
        return CP_ERR_NOMEM;
    local_search(u, g, skip, keys, nk, plan, opts, deadline);
    /* what one-job moves cannot do across an edge: a predecessor later
     * with its successor, a dropped chain back in (whole problem only:
     * the moves do not know a scope) */
    if (g->any && !skip && !out_of_time(opts, deadline)) {
        int moved = cp_plan_pair_moves(plan, u);
        if (moved < 0)
            return CP_ERR_NOMEM;
        if (moved)
            local_search(u, g, skip, keys, nk, plan, opts, deadline);
    }
    memcpy(plan->y, u->y, (size_t)u->ms->n_res * (size_t)in->slots * sizeof *plan->y);
    *total = scoped_total(u, keys, nk, plan);
    return cp_usage_export_units(u, plan);
}

/* The keys of the scope's jobs (regret needs an empty usage u). */
static order_key *make_keys(const cp_usage *u, const cp_prec *g, const cp_scope *sc, int *nk)
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
    if (g->any) {
        /* a predecessor must end before its successors' latest start:
         * successors first, so a chain's latest starts come down it */
        int *latest = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *latest);
        if (!latest) {
            cp_free(keys);
            return NULL;
        }
        for (int j = 0; j < in->n_jobs; j++)
            latest[j] = INT_MAX;
        for (int q = 0; q < n; q++)
            latest[keys[q].job] = keys[q].latest;
        for (int q = in->n_jobs; q-- > 0;) {
            int i = g->order[q], shortest = INT_MAX;
            if (latest[i] == INT_MAX)
                continue; /* out of the scope */
            for (int m = ms->job_first[i]; m < ms->job_first[i + 1]; m++)
                shortest = ms->modes[m].slots < shortest ? ms->modes[m].slots : shortest;
            for (int k = g->succ_first[i]; k < g->succ_first[i + 1] && shortest < INT_MAX; k++) {
                int x = g->succ[k];
                if (latest[x] != INT_MAX && latest[x] >= 0 && latest[x] - shortest < latest[i])
                    latest[i] = latest[x] - shortest;
            }
        }
        for (int q = 0; q < n; q++)
            keys[q].latest = latest[keys[q].job];
        cp_free(latest);
    }
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
    cp_clock clock;
    cp_clock_init(&clock, deadline, opts->stop);
    u.clock = &clock;
    char why[256];
    if (cp_usage_baseline_infeasible(&u, why, sizeof why)) {
        plan->status = CP_STATUS_INFEASIBLE;
        cp_solver_log(opts, "infeasible: %s", why);
        cp_usage_release(&u);
        return CP_OK;
    }
    int nk = 0;
    cp_prec g;
    unsigned char *skip = NULL; /* jobs out of the scope */
    order_key *keys = NULL;
    cp_plan *alt = NULL;
    bool ok = cp_prec_init(&g, in) == CP_OK;
    if (ok && sc && sc->active && g.any) {
        ok = (skip = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), 1)) != NULL;
        for (int j = 0; ok && j < in->n_jobs; j++)
            skip[j] = !sc->active[j];
    }
    if (!ok || !(keys = make_keys(&u, &g, sc, &nk)) || cp_plan_new(in, ms, &alt)) {
        cp_free(keys);
        cp_free(skip);
        cp_prec_release(&g);
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
        w.clock = &clock;
        double t = INFINITY;
        rc = construct(&w, &g, skip, keys, nk, pr, o >= 2, opts, deadline, alt, &t);
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
    cp_free(skip);
    cp_prec_release(&g);
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
    cp_clock clock;
    cp_clock_init(&clock, deadline, opts->stop);
    u.clock = &clock;
    int nk = 0;
    cp_prec g;
    order_key *keys = NULL;
    int *had = NULL;
    if (cp_prec_init(&g, in) || !(keys = make_keys(&u, &g, NULL, &nk)) ||
        !(had = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *had))) {
        cp_free(keys);
        cp_prec_release(&g);
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    qsort(keys, (size_t)nk, sizeof *keys, slack_cmp);
    for (int j = 0; j < in->n_jobs; j++)
        had[j] = plan->mode[j];
    int lost = cp_usage_load_plan(&u, plan);
    if (lost)
        cp_solver_log(opts, "improve: %d jobs did not pack onto nodes; placing them again", lost);
    /* those are placed again whatever the clock says: a plan must not
     * lose jobs to fragmentation because the search used its time
     * (predecessors first, each within the window the others leave it) */
    for (int q = 0; q < in->n_jobs && lost; q++) {
        int j = g.order[q], m, s, est = 0, lend = INT_MAX;
        double c;
        if (had[j] >= 0 && plan->mode[j] < 0 &&
            (!g.any || cp_prec_window(&g, ms, plan->mode, plan->start, NULL, j, &est, &lend)) &&
            cp_usage_best_in(&u, j, NULL, false, est, lend, &m, &s, &c) && c < in->jobs[j].drop_penalty) {
            cp_usage_add(&u, m, s);
            plan->mode[j] = m;
            plan->start[j] = s;
        }
    }
    cp_free(had);
    /* a merged plan (POP's parts) or one that lost a predecessor above */
    int fixed = cp_prec_enforce(&g, &u, plan->mode, plan->start);
    if (fixed)
        cp_solver_log(opts, "improve: %d jobs moved or dropped to keep precedence", fixed);
    local_search(&u, &g, NULL, keys, nk, plan, opts, deadline);
    memcpy(plan->y, u.y, (size_t)ms->n_res * (size_t)in->slots * sizeof *plan->y);
    *total = scoped_total(&u, keys, nk, plan);
    int rc = cp_usage_export_units(&u, plan);
    cp_free(keys);
    cp_prec_release(&g);
    cp_usage_release(&u);
    return rc ? cp_err_nomem(err) : CP_OK;
}
