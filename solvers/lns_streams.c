/*
 * The neighbourhood search as independent streams (cp_lns): each stream
 * is one run of cp_lns_stream (lns.c) from its own start with its own
 * seed, the streams run on up to opts->threads threads, and the plan is
 * the stream's with the lowest total (a tie goes to the lower stream
 * index). Which thread ran which stream, and in which order they ended,
 * changes nothing: under --node-limit every stream is bounded by steps,
 * so the plan is byte-identical for any --threads.
 *
 * How many streams: under --node-limit always LNS_NODE_STREAMS (the plan
 * must not depend on the thread count); under a time limit alone one per
 * thread up to LNS_STREAMS, all running at once until the deadline (the
 * clock then decides anyway, and a stream that waited for a thread would
 * get only what the others left of the time).
 *
 * Stream k seeds its random numbers with opts->seed + k (stream 0 is the
 * search of a single-stream run), and the odd streams start from an
 * LP-guided construction when the model is small enough for GLPK's
 * simplex (cp_lns_lp_dive): searches from the greedy's plan and from the LP's
 * end in different basins, measured on cloud-heavy 80-job nights (seed 2,
 * 200,000 steps: 1,624.57 from the greedy, 1,534.31-1,579.10 from LP
 * starts; seed 1: 1,600.65 and 1,600.69-1,630.37).
 */
#include "lns_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define LNS_STREAMS 4
/* under --node-limit: fixed, and small, as every run of the test suites
 * and of CI is node-limited (two streams cost about 1.5 times one, the
 * LP-guided start included) */
#define LNS_NODE_STREAMS 2
/* share of the call's time after which no new round starts */
#define LNS_ROUND_SHARE 0.5
/* A round after the first starts every stream from the best plan; after
 * one that gained less than LNS_ROUND_GAIN of the total, while the plan is
 * more than LNS_FRESH_GAP above the bound, the next is fresh: from the
 * given plan and the LP again, with new seeds (at most LNS_FRESH_ROUNDS) */
#define LNS_ROUND_GAIN 1e-4
/* fresh rounds only while the plan is more than this share of its total
 * above the bound. Measured (60 s, idle): cloud-heavy and on-prem 80-job
 * nights 11-23 % above the LP gain from them (cloud seed 5 1,355.47 ->
 * 1,318.21, on-prem seed 4 126.75 -> 112.66); the nightly example, 7 %
 * above its LP, took them until half its time and was proved optimal at
 * 36 s instead of 14 s */
#define LNS_FRESH_GAP 0.10
/* at most this many fresh rounds: each gain measured above came from the
 * first or second, and without a cap a small night's rounds of a few
 * milliseconds went on to half its time (whatif's scenarios took 17 s
 * instead of 0.2 s; tests/plan/search/fresh_rounds.yaml in suite_plan) */
#define LNS_FRESH_ROUNDS 2
/* the LP-guided start only up to this many start columns (as auto's
 * milp threshold: GLPK's simplex solves such LPs in about a second) */
#define LNS_LP_COLUMNS 20000L
/* each LP round of the dive fixes at least this share (1 / N) of the jobs
 * left, more when the LP puts more of them wholly on one column */
#define LNS_DIVE_SHARE 4
#define LNS_DIVE_ITERS 200000

typedef struct stream {
    const cp_input *in;
    const cp_modeset *ms;
    cp_solve_opts opts;
    const cp_prices *pr;
    double bound, deadline;
    long iterations, stall;
    bool lp_start;
    cp_plan *plan;
    double total;
    int rc;
    cp_err err;
    char lp_note[96];
} stream;

typedef struct pool {
    stream *s;
    int n, threads;
} pool;

static long start_columns(const cp_modeset *ms)
{
    long cols = 0;
    for (int m = 0; m < ms->n_modes; m++)
        cols += ms->modes[m].s_max - ms->modes[m].s_min + 1;
    return cols;
}

int cp_lns_lp_dive(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                   double deadline, cp_plan *plan)
{
    cp_usage u;
    if (cp_usage_init(&u, in, ms))
        return -1;
    cp_clock clock;
    cp_clock_init(&clock, deadline, opts->stop);
    u.clock = &clock;
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    int *fr = cp_calloc(nj, sizeof *fr), *ord = cp_calloc(nj, sizeof *ord);
    int *nm = cp_calloc(nj, sizeof *nm), *ns = cp_calloc(nj, sizeof *ns);
    double *w = cp_calloc(nj, sizeof *w);
    cp_submip *sm = NULL;
    int rc = !fr || !ord || !nm || !ns || !w || cp_submip_new(&u, &sm) ? -1 : 1;
    int nf = 0;
    for (int j = 0; j < in->n_jobs; j++) {
        plan->mode[j] = -1;
        plan->start[j] = 0;
        if (rc > 0 && ms->job_first[j] < ms->job_first[j + 1])
            fr[nf++] = j;
    }
    cp_submip_limits lim = {0, LNS_DIVE_ITERS, deadline, opts->stop, CP_MIP_GLPK, 0};
    while (rc > 0 && nf > 0) {
        int got = cp_submip_lp(sm, fr, nf, &lim, nm, ns, w);
        if (got <= 0) {
            rc = got;
            break;
        }
        for (int i = 0; i < nf; i++)
            ord[i] = i;
        for (int i = 1; i < nf; i++)
            for (int k = i; k > 0 && w[ord[k]] > w[ord[k - 1]]; k--) {
                int t = ord[k];
                ord[k] = ord[k - 1];
                ord[k - 1] = t;
            }
        int take = (nf + LNS_DIVE_SHARE - 1) / LNS_DIVE_SHARE;
        for (int q = 0; q < nf; q++) {
            int i = ord[q], j = fr[i], m, s;
            double c;
            if (q >= take && w[i] < 0.999)
                break;
            if (nm[i] >= 0 && cp_usage_try(&u, nm[i], ns[i], &c)) {
                m = nm[i];
                s = ns[i];
            } else if (nm[i] >= 0 && cp_usage_best(&u, j, &m, &s, &c) &&
                       c < in->jobs[j].drop_penalty) {
                /* the LP's start does not pack: the cheapest that does */
            } else {
                m = -1;
                s = 0;
            }
            if (m >= 0)
                cp_usage_add(&u, m, s);
            plan->mode[j] = m;
            plan->start[j] = s;
            fr[i] = -1;
        }
        int k = 0;
        for (int i = 0; i < nf; i++)
            if (fr[i] >= 0)
                fr[k++] = fr[i];
        nf = k;
    }
    if (rc > 0) {
        memcpy(plan->y, u.y, (size_t)ms->n_res * (size_t)in->slots * sizeof *plan->y);
        if (cp_usage_export_units(&u, plan))
            rc = -1;
        plan->status = CP_STATUS_FEASIBLE;
    }
    cp_submip_free(sm);
    cp_free(fr);
    cp_free(ord);
    cp_free(nm);
    cp_free(ns);
    cp_free(w);
    cp_usage_release(&u);
    return rc;
}

static void run_stream(stream *st)
{
    cp_err_init(&st->err);
    st->total = INFINITY;
    if (st->lp_start) {
        /* the LP's plan is a start, not a result: the search from it
         * competes with the other streams like any other */
        int got = cp_lns_lp_dive(st->in, st->ms, &st->opts, st->deadline, st->plan);
        if (got < 0) {
            st->rc = cp_err_nomem(&st->err);
            return;
        }
        if (got == 0) {
            snprintf(st->lp_note, sizeof st->lp_note,
                     "no LP within its limits; from the given plan");
            st->lp_start = false;
        }
    }
    st->rc = cp_lns_stream(st->in, st->ms, &st->opts, st->pr, st->bound, st->iterations, st->stall,
                           st->deadline, st->plan, &st->total, &st->err);
}

typedef struct worker {
    pool *p;
    int first;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int i = w->first; i < w->p->n; i += w->p->threads)
        run_stream(&w->p->s[i]);
    return NULL;
}

static void run_all(pool *p)
{
    pthread_t tid[LNS_STREAMS];
    worker w[LNS_STREAMS];
    bool started[LNS_STREAMS] = {false};
    /* the stride (p->threads) is fixed before any thread starts: a thread
     * that fails to start leaves its streams to this one, which runs them
     * after its own */
    for (int i = 0; i < p->threads; i++) {
        w[i].p = p;
        w[i].first = i;
    }
    for (int i = 1; i < p->threads; i++)
        started[i] = pthread_create(&tid[i], NULL, work, &w[i]) == 0;
    work(&w[0]);
    for (int i = 1; i < p->threads; i++)
        if (!started[i])
            work(&w[i]);
    for (int i = 1; i < p->threads; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
}

int cp_lns(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, const cp_prices *pr,
           double bound, long iterations, long stall, double deadline, cp_plan *plan, double *total,
           cp_err *err)
{
    int threads = opts->threads > 0 ? opts->threads : 1;
    int n = opts->node_limit > 0 ? LNS_NODE_STREAMS : threads < LNS_STREAMS ? threads : LNS_STREAMS;
    /* no step to take, or the plan already within the gap of the bound:
     * nothing to search for (a stream from another start would still
     * change the plan) */
    if (n > 1 && (iterations <= 0 || isfinite(bound))) {
        cp_plan_figures f;
        int rc = cp_plan_eval(plan, &f, err);
        if (rc)
            return rc;
        if (iterations <= 0 || f.costs.total - bound <= opts->gap * fabs(f.costs.total))
            n = 1;
        cp_plan_figures_release(&f);
    }
    if (n == 1)
        return cp_lns_stream(in, ms, opts, pr, bound, iterations, stall, deadline, plan, total,
                             err);
    bool lp_ok = start_columns(ms) <= LNS_LP_COLUMNS;
    stream s[LNS_STREAMS];
    memset(s, 0, sizeof s);
    int rc = CP_OK;
    for (int k = 0; k < n && rc == CP_OK; k++)
        if (cp_plan_new(in, ms, &s[k].plan))
            rc = cp_err_nomem(err);
    /* the given plan, for the fresh rounds */
    cp_plan *given = NULL;
    if (rc == CP_OK && (cp_plan_new(in, ms, &given) || cp_plan_copy(given, plan)))
        rc = cp_err_nomem(err);
    bool fresh = true;
    int n_fresh = 0;
    *total = INFINITY;
    /* new rounds start only in the first half of the time this call has:
     * the rest is the caller's (branch-and-cut after it in milp, which
     * proves the nightly example optimal within a second once it starts) */
    double t_call = cp_now_seconds(), round_until = t_call + LNS_ROUND_SHARE * (deadline - t_call);
    for (int round = 0; rc == CP_OK; round++) {
        for (int k = 0; k < n; k++) {
            cp_plan *sp = s[k].plan;
            memset(&s[k], 0, sizeof s[k]);
            s[k].plan = sp;
            s[k].in = in;
            s[k].ms = ms;
            s[k].opts = *opts;
            s[k].opts.seed = opts->seed + (unsigned long)(round * n + k);
            /* stream 0 runs on this thread and says what it does as a
             * single stream would; the others speak through the summary */
            if (k > 0)
                s[k].opts.log = NULL;
            s[k].pr = pr;
            s[k].bound = bound;
            s[k].deadline = deadline;
            s[k].iterations = iterations;
            s[k].stall = stall;
            s[k].lp_start = fresh && lp_ok && k % 2 == 1;
            if (cp_plan_copy(sp, fresh ? given : plan))
                rc = cp_err_nomem(err);
        }
        if (rc)
            break;
        pool p = {s, n, threads < n ? threads : n};
        run_all(&p);
        int best = -1;
        for (int k = 0; k < n; k++) {
            if (s[k].rc != CP_OK) {
                if (rc == CP_OK) {
                    rc = s[k].rc;
                    *err = s[k].err;
                }
                continue;
            }
            cp_solver_log(opts, "lns: round %d, stream %d (seed %lu, from %s%s%s): total %.10g", round, k,
                          s[k].opts.seed, s[k].lp_start ? "the LP" : fresh ? "the given plan" : "the best plan",
                          s[k].lp_note[0] ? "; " : "", s[k].lp_note, s[k].total);
            if (best < 0 || s[k].total < s[best].total)
                best = k;
        }
        if (rc)
            break;
        bool gain = s[best].total < *total - 1e-9 * (1 + fabs(s[best].total));
        /* a round that found less than LNS_ROUND_GAIN of the total: its
         * basin is spent */
        bool stalled = isfinite(*total) && !(s[best].total < *total - LNS_ROUND_GAIN * fabs(*total));
        cp_solver_log(opts, "lns: round %d: %d streams on %d threads; stream %d %s", round, n, p.threads, best,
                      gain ? "kept" : "no better than the plan before");
        if (gain) {
            if (cp_plan_copy(plan, s[best].plan))
                rc = cp_err_nomem(err);
            *total = s[best].total;
        }
        /* the streams ended by their stall count before the deadline: a
         * new round from the best plan while rounds still gain, and a
         * fresh one (from the given plan and the LP, new seeds) when they
         * no longer do, so the time goes to other basins (not under
         * --node-limit, whose budget is one round) */
        if (opts->node_limit > 0 || (opts->stop && *opts->stop) || cp_now_seconds() >= round_until ||
            *total - bound <= opts->gap * fabs(*total))
            break;
        /* fresh rounds only far above the bound: nearer, branch-and-cut
         * after the search may close the gap, and gets the time */
        bool far = isfinite(bound) && *total - bound > LNS_FRESH_GAP * fabs(*total);
        fresh = far && stalled && n_fresh < LNS_FRESH_ROUNDS;
        if (!fresh && !gain)
            break;
        n_fresh += fresh;
    }
    for (int k = 0; k < n; k++)
        cp_plan_free(s[k].plan);
    cp_plan_free(given);
    return rc;
}
