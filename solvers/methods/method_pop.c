/*
 * --method pop: partitioned optimization (POP, Narayanan et al., SOSP'21).
 * The jobs are dealt into K parts, balanced by size (accelerator-hours of
 * their smallest mode, then penalty) after a seeded shuffle; each part
 * gets 1/K of every pool's capacity, every market's quota (rounded down),
 * every site's power allowance and of the budget above the baseline, so
 * the union of the parts' plans is feasible for the whole problem. Each
 * part is solved by the MILP warm-started from the greedy on its share,
 * the parts in parallel threads (GLPK keeps its environment per thread in
 * the Debian build: glp_config("TLS")). The merged plan is then improved
 * on the full capacities: dropped jobs re-inserted, one-job moves, and
 * large neighbourhood search; the Lagrangian relaxation gives the bound.
 *
 * Jobs that `after` joins (capplan.5 §9.2) go to one part together, dealt as one
 * unit of their summed size: a part's MILP holds the precedence rows of
 * its own jobs only, so an edge between two parts could not be kept.
 */
#include "cp_placement.h"
#include "cp_prec.h"
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_rng.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Jobs per part the MILP handles well within seconds (docs/performance.md). */
#define POP_PART_JOBS 40
#define POP_MAX_PARTS 64

typedef struct part_job {
    int job;
    double size, penalty;
    uint64_t key;
} part_job;

static int size_cmp(const void *a, const void *b)
{
    const part_job *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    if (x->penalty != y->penalty)
        return x->penalty > y->penalty ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

typedef struct pop_part {
    unsigned char *active;
    cp_plan *plan;
    int rc;
    cp_err err;
} pop_part;

typedef struct pop_ctx {
    const cp_input *in;
    const cp_modeset *ms;
    cp_solve_opts opts; /* per part: budget, no log */
    pop_part *parts;
    int k, threads;
} pop_ctx;

typedef struct pop_worker {
    pop_ctx *ctx;
    int first;
} pop_worker;

static void solve_part(pop_ctx *c, pop_part *p)
{
    cp_scope sc = {1.0 / c->k, p->active};
    cp_plan *warm = NULL;
    double total;
    cp_err_init(&p->err);
    cp_solve_opts o = c->opts;
    o.t_start = cp_now_seconds();
    if ((p->rc = cp_plan_new(c->in, c->ms, &warm)) != CP_OK) {
        p->rc = cp_err_nomem(&p->err);
        return;
    }
    p->rc = cp_heuristic_scoped(c->in, c->ms, &o, &sc, NULL, warm, &total, &p->err);
    if (p->rc == CP_OK && warm->status == CP_STATUS_FEASIBLE)
        p->rc = cp_milp_run(c->in, c->ms, &o, &sc, warm, p->plan, &p->err);
    if (p->rc == CP_OK && (p->plan->status == CP_STATUS_NOPLAN || p->plan->status == CP_STATUS_INFEASIBLE))
        cp_plan_copy_choices(p->plan, warm); /* the greedy's share plan, or all dropped */
    cp_plan_free(warm);
}

static void *worker(void *arg)
{
    pop_worker *w = arg;
    for (int i = w->first; i < w->ctx->k; i += w->ctx->threads)
        solve_part(w->ctx, &w->ctx->parts[i]);
    return NULL;
}

/* Runs the parts on up to ctx->threads threads; the result does not
 * depend on which thread solved which part. */
static void run_parts(pop_ctx *c)
{
    pthread_t tid[POP_MAX_PARTS];
    pop_worker w[POP_MAX_PARTS];
    int started = 0;
    for (int i = 1; i < c->threads; i++) {
        w[i].ctx = c;
        w[i].first = i;
        if (pthread_create(&tid[i], NULL, worker, &w[i]) != 0)
            break;
        started = i;
    }
    /* parts no thread took (threads that failed to start) run here */
    int stride = started + 1;
    c->threads = stride;
    w[0].ctx = c;
    w[0].first = 0;
    worker(&w[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
}

/* Each job's size for dealing: the accelerator-hours of its smallest mode
 * (32 CPUs count as one accelerator), then its penalty, and a seeded key
 * for ties. */
static void job_sizes(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      part_job *pj)
{
    cp_rng rng = cp_rng_make(0x243F6A8885A308D3ull ^ (uint64_t)opts->seed);
    for (int j = 0; j < in->n_jobs; j++) {
        pj[j].job = j;
        pj[j].penalty = in->jobs[j].drop_penalty;
        pj[j].size = INFINITY;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            double s = (ms->modes[m].demand[CP_DIM_ACC] + ms->modes[m].demand[CP_DIM_CPU] / 32) *
                       ms->modes[m].hours;
            pj[j].size = s < pj[j].size ? s : pj[j].size;
        }
        if (!isfinite(pj[j].size))
            pj[j].size = 0;
        pj[j].key = cp_rng_next(&rng);
    }
}

/* Precedence components: one unit each, at its lowest job, with the
 * summed size and penalty of its jobs. The units go first in pj; root (2n
 * entries) gets each job's component, its upper half being scratch.
 * Returns how many units. */
static int join_units(const cp_input *in, part_job *pj, int *root)
{
    int n = in->n_jobs;
    for (int j = 0; j < n; j++)
        root[j] = j;
    if (!cp_input_has_after(in))
        return n;
    for (int j = 0; j < n; j++)
        for (int a = 0; a < in->jobs[j].n_after; a++) {
            int x = cp_prec_find(root, j), y = cp_prec_find(root, in->jobs[j].after[a]);
            if (x != y)
                root[x > y ? x : y] = x < y ? x : y;
        }
    int nu = 0;
    for (int j = 0; j < n; j++) {
        int r = j;
        while (root[r] != r)
            r = root[r];
        root[j] = r;        /* r <= j: its entry is already in place */
        int *at = root + n; /* a unit's entry */
        if (r != j) {
            pj[at[r]].size += pj[j].size;
            pj[at[r]].penalty += pj[j].penalty;
        } else {
            at[j] = nu;
            pj[nu++] = pj[j];
        }
    }
    return nu;
}

/* The units (largest first) dealt to the k parts in snake order, which
 * keeps the parts' sizes close; a component's jobs go where its first
 * went. */
static void deal_units(const part_job *pj, int nu, const int *root, int n, pop_part *parts, int k)
{
    for (int i = 0; i < nu; i++) {
        int round = i / k, pos = i % k;
        int p = round % 2 ? k - 1 - pos : pos;
        parts[p].active[pj[i].job] = 1;
    }
    for (int j = 0; j < n; j++)
        for (int p = 0; p < k && root[j] != j; p++)
            if (parts[p].active[root[j]])
                parts[p].active[j] = 1;
}

/* Solves the parts, each on its share and time, on up to opts->threads
 * threads; CP_OK, or the first failed part's error. */
static int solve_parts(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                       pop_part *parts, int k, cp_err *err)
{
    int n = in->n_jobs;
    pop_ctx c = {in, ms, *opts, parts, k, opts->threads < 1 ? 1 : opts->threads};
    if (c.threads > k)
        c.threads = k;
    int rounds = (k + c.threads - 1) / c.threads;
    c.opts.time_limit = fmax(0.05, cp_solver_phase_seconds(opts, 0.5 / rounds));
    c.opts.log = NULL;
    c.opts.progress = false;
    c.opts.beat = NULL; /* a part's totals are not the night's */
    cp_progress_phase(opts, "parts");
    cp_solver_log(opts, "pop: %d parts of about %d jobs on %d threads, %.2f s each", k,
                  (n + k - 1) / k, c.threads, c.opts.time_limit);
    run_parts(&c);
    for (int p = 0; p < k; p++)
        if (parts[p].rc) {
            *err = parts[p].err;
            return parts[p].rc;
        }
    return CP_OK;
}

/* The parts' plans merged, each job as its part planned it, then improved
 * on the full capacities: re-insertion and moves, the Lagrangian for the
 * bound and its prices for the search. Sets the plan's bound, objective
 * and status. */
static int merge_and_improve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                             const pop_part *parts, int k, cp_plan *plan, cp_err *err)
{
    int n = in->n_jobs, rc;
    for (int j = 0; j < n; j++)
        plan->mode[j] = -1;
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++)
            if (parts[p].active[j] && parts[p].plan->mode[j] >= 0) {
                plan->mode[j] = parts[p].plan->mode[j];
                plan->start[j] = parts[p].plan->start[j];
            }
    cp_plan_min_instances(plan);
    double total;
    if ((rc = cp_improve(in, ms, opts, plan, &total, err)))
        return rc;
    cp_solver_log(opts, "pop: merged and improved plan %.10g", total);
    cp_solver_log_incumbent(opts, total);
    cp_lagrange lg;
    cp_progress_phase(opts, "Lagrangian bound");
    if ((rc = cp_lagrange_run(in, ms, opts, total, cp_solver_phase_seconds(opts, 0.3), &lg, err)))
        return rc;
    double t2;
    cp_prices pr = {lg.cap, lg.power, NULL};
    rc = cp_lns(in, ms, opts, &pr, lg.bound, cp_lns_budget(opts), cp_lns_stall(in), cp_solve_deadline(opts), plan,
                &t2, err);
    if (rc == CP_OK && t2 < total - 1e-9 * (1 + fabs(total))) {
        total = t2;
        cp_solver_log_incumbent(opts, total);
    }
    plan->bound = isfinite(lg.bound) ? lg.bound : NAN;
    plan->objective = total;
    plan->status = isfinite(lg.bound) && total - lg.bound <= opts->gap * fabs(total) ? CP_STATUS_OPTIMAL
                                                                                   : CP_STATUS_FEASIBLE;
    cp_lagrange_release(&lg);
    return rc;
}

/* POP with k parts; sets plan->bound from the Lagrangian. */
static int pop_plan(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, int k,
                    cp_plan *plan, cp_err *err)
{
    int n = in->n_jobs;
    if (k < 1)
        k = 1;
    if (k > POP_MAX_PARTS)
        k = POP_MAX_PARTS;
    part_job *pj = cp_calloc((size_t)(n ? n : 1), sizeof *pj);
    pop_part *parts = cp_calloc((size_t)k, sizeof *parts);
    int *root = NULL;
    int rc = CP_OK;
    if (!pj || !parts) {
        rc = cp_err_nomem(err);
        goto out;
    }
    job_sizes(in, ms, opts, pj);
    if (!(root = cp_calloc((size_t)(n ? 2 * n : 1), sizeof *root))) {
        rc = cp_err_nomem(err);
        goto out;
    }
    int nu = join_units(in, pj, root);
    qsort(pj, (size_t)nu, sizeof *pj, size_cmp);
    for (int p = 0; p < k && rc == CP_OK; p++) {
        parts[p].active = cp_calloc((size_t)(n ? n : 1), 1);
        if (!parts[p].active || cp_plan_new(in, ms, &parts[p].plan))
            rc = cp_err_nomem(err);
    }
    if (rc)
        goto out;
    deal_units(pj, nu, root, n, parts, k);
    cp_free(root);
    root = NULL;
    if (!(rc = solve_parts(in, ms, opts, parts, k, err)))
        rc = merge_and_improve(in, ms, opts, parts, k, plan, err);
out:
    if (parts)
        for (int p = 0; p < k; p++) {
            cp_free(parts[p].active);
            cp_plan_free(parts[p].plan);
        }
    cp_free(parts);
    cp_free(root);
    cp_free(pj);
    return rc;
}

static int pop_jobs(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    cp_plan *plan, void *ctx, cp_err *err)
{
    return pop_plan(in, ms, opts, *(const int *)ctx, plan, err);
}

static int pop_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                     cp_plan *plan, cp_err *err)
{
    /* the baseline alone may already break a cap or the budget */
    cp_usage u;
    if (cp_usage_init(&u, in, ms))
        return cp_err_nomem(err);
    char why[256];
    bool infeasible = cp_usage_baseline_infeasible(&u, why, sizeof why);
    cp_usage_release(&u);
    int rc = CP_OK;
    if (infeasible) {
        plan->status = CP_STATUS_INFEASIBLE;
        cp_solver_log(opts, "infeasible: %s", why);
    } else {
        /* parts of about POP_PART_JOBS jobs, but never so many that a
         * part's share of a pool is less than one node: below that the
         * parts cannot place what needs a whole node, and the merge
         * inherits their drops */
        int k = (in->n_jobs + POP_PART_JOBS - 1) / POP_PART_JOBS;
        for (int p = 0; p < in->n_pools; p++)
            if (in->pools[p].nodes >= 1 && k > in->pools[p].nodes)
                k = in->pools[p].nodes;
        k = k < 2 ? 2 : k;
        rc = cp_services_jobs(in, ms, opts, pop_jobs, &k, plan, err);
    }
    /* capplan.5 §10.4: the parts plan jobs alone; services stay whole,
     * planned around the merged jobs (services_after.c) */
    return rc ? rc : cp_services_after(in, ms, opts, plan, err);
}

const cp_solver_ops cp_solver_pop = {
    "pop",
    "POP: jobs split into parts with a share of every capacity, MILP per part in parallel, merged and improved",
    pop_solve,
    true,
};
