/*
 * Large neighbourhood search on a feasible plan: take out a few related
 * jobs (one seed job and jobs that run, or could run, on the same
 * resources in overlapping hours), put them back one by one in random or
 * largest-first order at their cheapest feasible (mode, start), or drop
 * them when the penalty is cheaper. A third of the re-insertions choose
 * by cost plus the priced pool capacity (cp_usage_best_priced), and half
 * of them rank market runs by their instance share
 * (cp_usage_best_shared): with exact costs the first job put back on a
 * market in a slot pays a whole instance and goes wherever room is left,
 * so jobs rarely move together onto the market that is cheapest per unit
 * of work. The result is kept when it is no worse
 * than the current plan by more than a temperature that falls to zero
 * over the run (threshold acceptance); the best plan seen is kept apart.
 * This is what one-job moves cannot do: swap two jobs between a pool and
 * the cloud, or shift a block of jobs to make room for a wide one.
 *
 * The random numbers come from the seed alone (cp_rng), and the work
 * is bounded by step counts, so a run that is not cut by the time limit
 * is reproducible.
 *
 * Every step keeps precedence (capplan.5 §9.2; cp_prec.h): the jobs taken out
 * go back predecessors first, each within the window its predecessors'
 * ends and its running successors' starts leave it (a predecessor ranked
 * by what its successors taken out with it would then cost), and a job
 * that goes out of the plan takes its running successors with it, in the
 * same step, so their penalties are in the step's total. A step's seed
 * takes its direct predecessors and successors along. What a sub-MIP's
 * answer breaks when packed is mended within the step (fix_set).
 */
#include "lns_search.h"

#include "cp_alloc.h"
#include "cp_rng.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* --node-limit N also bounds the search to N times this many steps, so
 * a node-limited run is reproducible whatever the clock says. */
#define LNS_STEPS_PER_NODE 100L
/* Without a gain in this many steps (per job, and at least) the search
 * has converged for practical purposes: a small night ends in about a
 * second instead of running to the time limit. */
#define LNS_STALL_PER_JOB 2000L
#define LNS_STALL_MIN 100000L
/* the first temperature of threshold acceptance, as a share of the total
 * on nights of up to LNS_T0_JOBS jobs, and of the total times
 * LNS_T0_JOBS / jobs above: a step moves a few jobs, so what it may lose
 * should scale with a job's share of the total, not with the total (at
 * 10,000 jobs 0.2 % of the total is the cost of some 20 jobs, and a
 * search that may lose that much a step drifts away from its best plan
 * and never comes back). 100,000 steps, lagrange, seed 1: on-prem 1,000
 * jobs 3,322.18 -> 3,318.56, cloud 1,000 28,618.93 -> 28,490.91. */
#define LNS_T0 0.002
#define LNS_T0_JOBS 80.0
/* Steps (in 6) whose re-insertions rank market runs by their share.
 * Measured on cloud-heavy nights (bench/gen --family cloud, 1,000 jobs,
 * 200,000 steps, seeds 1 and 3): 0 in 6: 29,164 and 33,041; 2 in 6:
 * 28,658 and 32,773; 3 in 6: 28,366 and 32,228; 5 in 6: 28,473 and 32,894.
 * Other destroy moves measured there did not pay: every job on one
 * instance id over a run, or every job of one market in a window of 1-3
 * slots, a quarter of the steps each, gave 29,157 and 33,325. */
#define LNS_SHARE_IN_6 3
/* One step in LNS_MIP_EVERY is a MIP repair (lns_mip.c) of LNS_MIP_MIN to
 * LNS_MIP_MAX jobs, with at most LNS_MIP_NODES branch-and-bound nodes and
 * LNS_MIP_ITERS simplex iterations (work limits: reproducible). Measured
 * on cloud-heavy 80-job nights: GLPK proves most windows of 8-25 jobs
 * optimal around the current plan within 0.01-0.5 s, so the gains are
 * small and rare (5-19 of 100-860 sub-MIPs), and windows of 30-45 jobs
 * or the whole night (even on the LP's support and the columns of least
 * reduced cost) took 1.5-40 s without a gain: small and seldom it is
 * (one step in 1,000 took a third of the search's time on the on-prem
 * 80-job night, seed 2, for 1 gain in 62). */
#define LNS_MIP_EVERY 4000
/* Above this many jobs no step is a sub-MIP: 8-18 jobs are too few to
 * find an exchange, and each took as long as thousands of steps (1,000
 * jobs: 1 gain in 36 for a third of the CPU time; docs/search.md). */
#define LNS_MIP_JOBS 500
#define LNS_MIP_MIN 8
#define LNS_MIP_NODES 150L
#define LNS_MIP_ITERS 10000
/* One in LNS_EJECT_IN of the other steps is an ejection (lns_eject.c).
 * Measured on the cloud-heavy 80-job nights, seeds 1-4, 200,000 steps:
 * 1,600.65, 1,765.68, 2,686.82, 1,845.13 without; 1,600.65, 1,624.57,
 * 2,682.76, 1,841.67 with a quarter of the steps. */
#define LNS_EJECT_IN 4
/* One in LNS_LP_IN of the steps that are neither is an LP move
 * (lns_lp.c), when the LP's solution is known, kept only when no worse.
 * Measured on the sized 80-job nights, seeds 1-6, and the cloud-heavy
 * ones, seeds 1-3 (--node-limit 500): sized seed 6 7,574.10 -> 5,536.81
 * (the chain lns_lp.c describes), the other eight -0.7 % to +3.8 % each
 * and +0.2 % in sum (the search's seed moves them as much). With
 * threshold acceptance, one step in 8, 16 or 32: +0.7, +0.3 and +0.4 %
 * in sum (bench/results/2026-12-03-sized.md). */
#define LNS_LP_IN 16
/* One in LNS_INST_IN of the steps that are none of the above, on a
 * night with cloud markets, gives up an instance-run (lns_eject.c),
 * kept only when no worse. Measured on the sized 80-job nights, seeds
 * 1-3, --seed 1-4 (--node-limit 500): 21,289.24 -> 21,126.82 in sum
 * (seed 1 -2.5 %, seeds 2-3 within $0.4); the cloud-heavy nights
 * 23,378.43 -> 23,472.67 (+0.4 %, one run of seed 3; the search's seed
 * moves a night by 3-8 %); its group sent to the other market only half
 * the time, sized seeds 1-3 at --seed 1: +$1.2
 * (bench/results/2026-12-04-instance-run.md). */
#define LNS_INST_IN 8

static const char *const repair_name[REPAIRS] = {"cheapest", "priced", "shared", "ejection",
                                                 "sub-MIP", "LP", "instance"};

/* Window of job j over all its modes: [lo, hi). */
static void job_span(const cp_modeset *ms, int j, int *lo, int *hi)
{
    *lo = 1 << 30;
    *hi = -1;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (md->s_min < *lo)
            *lo = md->s_min;
        if (md->s_max + md->slots > *hi)
            *hi = md->s_max + md->slots;
    }
}

/* Puts every dropped job that now fits for less than its penalty back in
 * (job order, repeated while one goes in): the steps' re-insertions see
 * only the jobs they took out, so a job dropped early can stay out after
 * room has opened for it. Returns how many went in. */
static int reinsert_dropped(lns *l)
{
    int added = 0;
    for (bool again = true; again;) {
        again = false;
        for (int j = 0; j < l->in->n_jobs; j++) {
            int m, s;
            double c;
            int est = 0, lend = INT_MAX;
            if (l->plan->mode[j] >= 0 || l->ms->job_first[j] == l->ms->job_first[j + 1])
                continue;
            if (l->g.any && !cp_prec_window(&l->g, l->ms, l->plan->mode, l->plan->start, NULL, j, &est, &lend))
                continue;
            if (cp_usage_best_in(&l->u, j, NULL, false, est, lend, &m, &s, &c) &&
                c < l->in->jobs[j].drop_penalty - 1e-9 * (1 + l->in->jobs[j].drop_penalty)) {
                lns_take_out(l, j);
                lns_put_back(l, j, m, s);
                added++;
                again = true;
            }
        }
    }
    return added;
}

/* Chooses the jobs to take out: the seed and up to q-1 jobs that
 * overlap its window on a resource it can use. */
static int pick(lns *l, const cp_lp_sol *lp, cp_rng *rs, int *out, int q)
{
    const cp_modeset *ms = l->ms;
    int j0 = l->jobs[cp_rng_below(rs, l->n_jobs)];
    /* half the time the seed is where the money is: a job in the cloud
     * or dropped, a few tries at random, no scan; on a large night the
     * job the LP says overpays most of a few drawn (lns_search.h) */
    bool money = cp_rng_below(rs, 2);
    if (money && LNS_RC_SEED && lp && lp->rc && l->n_jobs > LNS_RC_JOBS)
        j0 = cp_lns_rc_draw(l, lp, rs, l->jobs, l->n_jobs, LNS_RC_DRAW);
    else if (money)
        for (int tries = 0; tries < 8; tries++) {
            int m = l->plan->mode[j0];
            if (m < 0 || ms->res[ms->modes[m].res].kind != CP_RES_POOL)
                break;
            j0 = l->jobs[cp_rng_below(rs, l->n_jobs)];
        }
    int lo, hi;
    unsigned stamp = ++l->step;
    job_span(ms, j0, &lo, &hi);
    memset(l->can_use, 0, (size_t)ms->n_res);
    for (int m = ms->job_first[j0]; m < ms->job_first[j0 + 1]; m++)
        l->can_use[ms->modes[m].res] = 1;
    /* related jobs: every job on a small night; a random sample of
     * LNS_SAMPLE on a large one, so a step costs the same at any size */
    int nc = 0, scan = l->n_jobs > 2 * LNS_SAMPLE ? LNS_SAMPLE : l->n_jobs;
    for (int k = 0; k < scan; k++) {
        int i = scan == l->n_jobs ? k : cp_rng_below(rs, l->n_jobs);
        int j = l->jobs[i];
        int m = l->plan->mode[j];
        if (j == j0 || m < 0 || !l->can_use[ms->modes[m].res] ||
            (scan != l->n_jobs && l->seen[j] == stamp))
            continue;
        l->seen[j] = stamp;
        int s = l->plan->start[j];
        if (s < hi && s + ms->modes[m].slots > lo)
            l->cand[nc++] = j;
    }
    out[0] = j0;
    return cp_lns_draw(l, rs, out, 1, q, nc);
}

/* The jobs of a MIP repair, at most q sampled at random, a third of the
 * time each: the jobs related to one seed as pick() chooses them; every
 * job that runs, or could run (dropped), in a window of 2-7 slots; every
 * job on one resource and the dropped jobs that could use it. */
static int mip_pick(lns *l, cp_rng *rs, int *out, int q)
{
    long kind = cp_rng_below(rs, 3);
    if (kind == 0)
        return pick(l, NULL, rs, out, q);
    const cp_modeset *ms = l->ms;
    if (kind == 2) {
        /* one resource (of a random mode of a random job): every job on
         * it and the dropped jobs that could use it */
        int j0 = l->jobs[cp_rng_below(rs, l->n_jobs)];
        int r = ms->modes[ms->job_first[j0] +
                          cp_rng_below(rs, ms->job_first[j0 + 1] - ms->job_first[j0])]
                    .res;
        int nc = 0;
        for (int i = 0; i < l->n_jobs; i++) {
            int j = l->jobs[i], m = l->plan->mode[j];
            bool take = m >= 0 && ms->modes[m].res == r;
            for (int k = ms->job_first[j]; k < ms->job_first[j + 1] && m < 0 && !take; k++)
                take = ms->modes[k].res == r;
            if (take)
                l->cand[nc++] = j;
        }
        return cp_lns_draw(l, rs, out, 0, q, nc);
    }
    int T = l->in->slots, a = cp_rng_below(rs, T), b = a + 2 + cp_rng_below(rs, 6);
    int nc = 0;
    for (int i = 0; i < l->n_jobs; i++) {
        int j = l->jobs[i], m = l->plan->mode[j], lo, hi;
        if (m >= 0) {
            lo = l->plan->start[j];
            hi = lo + ms->modes[m].slots;
        } else {
            job_span(ms, j, &lo, &hi);
        }
        if (lo < b && hi > a)
            l->cand[nc++] = j;
    }
    return cp_lns_draw(l, rs, out, 0, q, nc);
}

/* Puts the jobs set[0..n) (out of the plan) back as the sub-MIP chose,
 * largest first; a choice the concrete nodes or instances cannot hold
 * goes to the job's cheapest (mode, start) instead, or is dropped. */
static void mip_put_back(lns *l, const int *set, int n, const int *mode, const int *start)
{
    int ord[LNS_ALL];
    for (int i = 0; i < n; i++)
        ord[i] = i;
    cp_lns_largest_first(l->ms, set, ord, n);
    /* the MIP's choices first, so that a fallback takes what they leave */
    bool done[LNS_ALL] = {false};
    for (int q = 0; q < n; q++) {
        int i = ord[q];
        double c;
        if (mode[i] < 0) {
            lns_put_back(l, set[i], -1, 0);
            done[i] = true;
        } else if (cp_usage_try(&l->u, mode[i], start[i], &c)) {
            lns_put_back(l, set[i], mode[i], start[i]);
            done[i] = true;
        }
    }
    for (int q = 0; q < n; q++) {
        int i = ord[q], j = set[i], m, s;
        double c;
        if (done[i])
            continue;
        if (cp_usage_best(&l->u, j, &m, &s, &c) && c < l->in->jobs[j].drop_penalty)
            lns_put_back(l, j, m, s);
        else
            lns_put_back(l, j, -1, 0);
    }
}

/* The best plan of a run: choices and units of every job. */
typedef struct snapshot {
    double total;
    int *mode, *start, *n;
    int *units; /* [off[j] .. off[j] + n[j]) */
    size_t *off;
} snapshot;

static void snap_release(snapshot *b)
{
    cp_free(b->mode), cp_free(b->start), cp_free(b->n), cp_free(b->units), cp_free(b->off);
}

static int snap_init(snapshot *b, const lns *l)
{
    const cp_modeset *ms = l->ms;
    size_t nj = (size_t)(l->in->n_jobs ? l->in->n_jobs : 1);
    memset(b, 0, sizeof *b);
    b->mode = cp_calloc(nj, sizeof *b->mode);
    b->start = cp_calloc(nj, sizeof *b->start);
    b->n = cp_calloc(nj, sizeof *b->n);
    b->off = cp_calloc(nj + 1, sizeof *b->off);
    if (!b->mode || !b->start || !b->n || !b->off) {
        snap_release(b);
        return CP_ERR_NOMEM;
    }
    for (int j = 0; j < l->in->n_jobs; j++) {
        int mc = 1;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            mc = ms->modes[m].count > mc ? ms->modes[m].count : mc;
        b->off[j + 1] = b->off[j] + (size_t)mc;
    }
    b->units = cp_calloc(b->off[l->in->n_jobs] ? b->off[l->in->n_jobs] : 1, sizeof *b->units);
    if (!b->units) {
        snap_release(b);
        return CP_ERR_NOMEM;
    }
    return CP_OK;
}

static void snap_take(snapshot *b, const lns *l, double total)
{
    b->total = total;
    for (int j = 0; j < l->in->n_jobs; j++) {
        b->mode[j] = l->plan->mode[j];
        b->start[j] = l->plan->start[j];
        const int *u;
        int k = b->mode[j] >= 0 ? cp_usage_job_units(&l->u, j, &u) : 0;
        b->n[j] = k;
        if (k)
            memcpy(&b->units[b->off[j]], u, (size_t)k * sizeof *u);
    }
}

/* Puts the snapshot back: every job out, then in at its saved units. */
static int snap_restore(const snapshot *b, lns *l)
{
    for (int j = 0; j < l->in->n_jobs; j++)
        if (l->plan->mode[j] >= 0)
            cp_usage_remove(&l->u, l->plan->mode[j], l->plan->start[j]);
    l->penalties = 0;
    for (int i = 0; i < l->n_jobs; i++) {
        int j = l->jobs[i];
        l->plan->mode[j] = b->mode[j];
        l->plan->start[j] = b->start[j];
        if (b->mode[j] < 0)
            l->penalties += l->in->jobs[j].drop_penalty;
        else if (!cp_usage_add_on(&l->u, b->mode[j], b->start[j], &b->units[b->off[j]], b->n[j]))
            return CP_ERR_NOMEM; /* cannot happen: the same units held it */
    }
    return CP_OK;
}

void cp_lns_close(lns *l)
{
    cp_free(l->jobs);
    cp_free(l->cand);
    cp_free(l->can_use);
    cp_free(l->seen);
    cp_free(l->mask);
    cp_free(l->inset);
    cp_prec_release(&l->g);
    cp_usage_release(&l->u);
}

int cp_lns_open(lns *l, const cp_input *in, const cp_modeset *ms, cp_plan *plan, cp_clock *clock,
                int *broke)
{
    memset(l, 0, sizeof *l);
    l->in = in;
    l->ms = ms;
    l->plan = plan;
    if (cp_usage_init(&l->u, in, ms))
        return CP_ERR_NOMEM;
    l->u.clock = clock;
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    l->jobs = cp_calloc(nj, sizeof *l->jobs);
    l->cand = cp_calloc(nj, sizeof *l->cand);
    l->can_use = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1), 1);
    l->seen = cp_calloc(nj, sizeof *l->seen);
    l->mask = cp_calloc(nj, 1);
    l->inset = cp_calloc(nj, sizeof *l->inset);
    if (!l->jobs || !l->cand || !l->can_use || !l->seen || !l->mask || !l->inset || cp_prec_init(&l->g, in)) {
        cp_lns_close(l);
        return CP_ERR_NOMEM;
    }
    cp_usage_load_plan(&l->u, plan);
    /* a start that breaks precedence (it should not come) is mended first */
    *broke = cp_prec_enforce(&l->g, &l->u, plan->mode, plan->start);
    for (int j = 0; j < in->n_jobs; j++) {
        if (ms->job_first[j] == ms->job_first[j + 1])
            continue;
        l->jobs[l->n_jobs++] = j;
        if (plan->mode[j] < 0)
            l->penalties += in->jobs[j].drop_penalty;
    }
    return CP_OK;
}

long cp_lns_budget(const cp_solve_opts *opts)
{
    return opts->node_limit > 0 ? opts->node_limit * LNS_STEPS_PER_NODE : LONG_MAX;
}

long cp_lns_stall(const cp_input *in)
{
    long s = LNS_STALL_PER_JOB * in->n_jobs;
    return s > LNS_STALL_MIN ? s : LNS_STALL_MIN;
}

/* One stream's run: the search's state and what its loop keeps. */
typedef struct stream {
    lns l;
    cp_clock clock; /* a re-insertion cut by the deadline makes a worse candidate, never kept */
    const cp_solve_opts *opts;
    const cp_prices *pr;
    const cp_lp_sol *lp; /* the LP's solution (NULL: no LP moves) */
    bool markets;        /* the night has cloud markets (else no instance-run moves) */
    cp_rng rs;
    snapshot best;   /* the best plan seen, restored at the end */
    double cur;      /* the current plan's total over the jobs with modes */
    double modeless; /* the penalties of the jobs without modes */
    double deadline, t_begin, t0;
    long iterations, it, accepted, last_gain;
    bool nomem;
} stream;

/* What one step does: its kind, an ejection's forced choice, the repair
 * its gains are counted under. */
typedef struct step {
    bool mip, eject, lpm, inst;
    int fm, fs, repair, alt;
} step;

/* The stream's state over plan; CP_ERR_NOMEM with nothing to release. */
static int stream_open(stream *s, const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                       const cp_prices *pr, long iterations, double deadline, cp_plan *plan)
{
    int broke = 0;
    memset(s, 0, sizeof *s);
    s->opts = opts;
    s->pr = pr;
    s->lp = pr ? pr->lp : NULL;
    for (int r = 0; r < ms->n_res; r++)
        s->markets |= ms->res[r].kind != CP_RES_POOL;
    s->iterations = iterations;
    s->deadline = deadline;
    cp_clock_init(&s->clock, deadline, opts->stop);
    if (cp_lns_open(&s->l, in, ms, plan, &s->clock, &broke))
        return CP_ERR_NOMEM;
    if (broke)
        cp_solver_log(opts, "lns: %d jobs of the start plan moved or dropped to keep precedence", broke);
    for (int j = 0; j < in->n_jobs; j++)
        if (ms->job_first[j] == ms->job_first[j + 1])
            s->modeless += in->jobs[j].drop_penalty;
    s->rs = cp_rng_make(0x5DEECE66Dull ^ (uint64_t)opts->seed * CP_RNG_GAMMA);
    s->cur = cp_usage_objective(&s->l.u) + s->l.penalties;
    /* Threshold acceptance: a step may make the plan worse by up to a
     * temperature that starts at LNS_T0 of the total and falls to zero
     * over the run, which lets the search leave plateaus; the best plan
     * seen is kept apart and restored at the end. */
    if (snap_init(&s->best, &s->l) != CP_OK) {
        cp_lns_close(&s->l);
        return CP_ERR_NOMEM;
    }
    snap_take(&s->best, &s->l, s->cur);
    if (s->l.n_jobs <= LNS_MIP_JOBS) { /* else l.sub stays NULL: no sub-MIP steps */
        if (cp_submip_new(&s->l.u, &s->l.sub))
            s->nomem = true;
        else
            cp_submip_prec(s->l.sub, &s->l.g, plan->mode, plan->start);
    }
    if (s->lp && s->lp->rc) {
        /* the jobs' share of the plan's distance to the LP, by the LP's
         * own accounting (the rest is idle room the LP prices) */
        double sum = 0, top = 0;
        for (int i = 0; i < s->l.n_jobs; i++) {
            double r = cp_lns_rc(&s->l, s->lp, s->l.jobs[i]);
            sum += r;
            top = fmax(top, r);
        }
        cp_solver_log(opts,
                      "lns: the LP's reduced costs of the plan's choices: %.10g in sum, %.10g at most",
                      sum, top);
    }
    s->t_begin = cp_now_seconds();
    s->t0 = LNS_T0 * fabs(s->cur) * fmin(1.0, LNS_T0_JOBS / (double)s->l.n_jobs);
    return CP_OK;
}

/* The seed's direct predecessors and successors join the set, so a
 * chain can move as one (a few: room stays for drops). */
static void add_prec_neighbours(lns *l, stepset *st)
{
    const cp_modeset *ms = l->ms;
    int seed = st->set[0];
    const cp_job *jb = &l->in->jobs[seed];
    for (int a = 0; a < jb->n_after && st->n < LNS_SET_MAX + LNS_PREC_EXTRA / 2; a++)
        if (l->inset[jb->after[a]] != l->set_stamp && ms->job_first[jb->after[a]] < ms->job_first[jb->after[a] + 1])
            cp_lns_set_add(l, st, jb->after[a]);
    for (int q = l->g.succ_first[seed]; q < l->g.succ_first[seed + 1] && st->n < LNS_SET_MAX + LNS_PREC_EXTRA / 2; q++)
        if (l->inset[l->g.succ[q]] != l->set_stamp)
            cp_lns_set_add(l, st, l->g.succ[q]);
}

/* Draws step it's kind and the jobs it takes out into st (still in the
 * plan); st->n is 0 when the draw gives nothing to move. */
static void step_choose(stream *s, step *k, stepset *st)
{
    lns *l = &s->l;
    /* one step in LNS_MIP_EVERY re-plans a larger window exactly */
    k->mip = l->sub && s->it % LNS_MIP_EVERY == LNS_MIP_EVERY - 1;
    /* a share of the others forces one job in and ejects its blockers */
    k->eject = !k->mip && cp_rng_below(&s->rs, LNS_EJECT_IN) == 0;
    /* and of the rest a share follows the LP */
    k->lpm = !k->mip && !k->eject && s->lp && cp_rng_below(&s->rs, LNS_LP_IN) == 0;
    /* and of the rest a share gives up an instance-run */
    k->inst = !k->mip && !k->eject && !k->lpm && s->markets && cp_rng_below(&s->rs, LNS_INST_IN) == 0;
    k->fm = -1, k->fs = 0, k->alt = -1;
    int pk[LNS_SET_MAX];
    int n = k->mip     ? mip_pick(l, &s->rs, pk,
                                  LNS_MIP_MIN + cp_rng_below(&s->rs, LNS_MIP_MAX - LNS_MIP_MIN + 1))
            : k->eject ? cp_lns_eject_pick(l, &s->rs, pk, LNS_MAX_REMOVE, &k->fm, &k->fs)
            : k->lpm   ? cp_lns_lp_pick(l, s->lp, &s->rs, pk, 2 + cp_rng_below(&s->rs, LNS_MAX_REMOVE - 1))
            : k->inst  ? cp_lns_inst_pick(l, &s->rs, pk, LNS_MAX_REMOVE, &k->alt)
                       : pick(l, s->lp, &s->rs, pk, 2 + cp_rng_below(&s->rs, LNS_MAX_REMOVE - 1));
    int j_forced = n > 0 ? pk[0] : -1;
    /* jobs on many nodes stay: their old nodes could not be restored */
    st->n = 0;
    l->set_stamp++;
    for (int i = 0; i < n; i++)
        if (l->inset[pk[i]] != l->set_stamp) /* once each: a second take-out breaks the usage */
            cp_lns_set_add(l, st, pk[i]);
    if (k->eject && (st->n == 0 || st->set[0] != j_forced))
        st->n = 0; /* the forced job holds many units: no ejection */
    if (l->g.any && st->n > 0 && !k->eject && !k->lpm && !k->inst)
        add_prec_neighbours(l, st);
}

/* The sub-MIP's repair of the set (taken out); true when the step is
 * given up. */
static bool repair_mip(stream *s, stepset *st)
{
    lns *l = &s->l;
    int nm[LNS_ALL], ns[LNS_ALL];
    /* CBC's seed: the stream's and the step's, so two sub-MIPs of
     * a run are not the same draw, and a run repeats */
    cp_submip_limits lim = {LNS_MIP_NODES, LNS_MIP_ITERS, s->deadline, s->opts->stop,
                            s->opts->sub_engine,
                            s->opts->seed * 1000003UL + (unsigned long)l->tries[REPAIR_MIP]};
    double t = cp_now_seconds();
    int got = cp_submip_solve(l->sub, st->set, st->n, st->om, st->os, &lim, nm, ns);
    l->mip_seconds += cp_now_seconds() - t;
    l->tries[REPAIR_MIP]++;
    if (got < 0)
        s->nomem = true;
    if (got <= 0)
        return true;
    l->mip_solved++;
    mip_put_back(l, st->set, st->n, nm, ns);
    return l->g.any && !cp_lns_fix_set(l, st);
}

/* The set (taken out) back one job at a time: an ejection's forced job
 * first where it was forced, the others in random or largest-first
 * order (what packing wants), each at its best run as the step's
 * ranking has it; true when the step is given up. */
static bool repair_insert(stream *s, step *k, stepset *st)
{
    lns *l = &s->l;
    int base = 0;
    if (k->eject) {
        lns_put_back(l, st->set[0], k->fm, k->fs);
        base = 1;
    }
    /* a third of the steps choose by cost plus the priced capacity */
    bool priced = s->pr && cp_rng_below(&s->rs, 3) == 0;
    bool shared = cp_rng_below(&s->rs, 6) < LNS_SHARE_IN_6;
    k->repair = k->eject ? REPAIR_EJECT : shared ? REPAIR_SHARED : priced ? REPAIR_PRICED : REPAIR_PLAIN;
    l->tries[k->repair]++;
    int ord[LNS_ALL], n = st->n - base;
    for (int i = 0; i < n; i++)
        ord[i] = base + i;
    if (cp_rng_below(&s->rs, 2)) {
        for (int i = n - 1; i > 0; i--) {
            int q = cp_rng_below(&s->rs, i + 1);
            int t = ord[i];
            ord[i] = ord[q];
            ord[q] = t;
        }
    } else {
        cp_lns_largest_first(l->ms, st->set, ord, n);
    }
    if (l->g.any)
        cp_lns_prec_order(l, st, ord, n);
    bool give_up = false;
    for (int q = 0; q < n && !give_up; q++)
        give_up = !cp_lns_reinsert(l, st, st->set[ord[q]], priced ? s->pr : NULL, shared);
    return give_up;
}

/* Takes the step's set out and puts it back by the step's repair; true
 * when the step is given up (what is still out then goes back dropped,
 * and the caller restores the set). */
static bool step_repair(stream *s, step *k, stepset *st)
{
    lns *l = &s->l;
    for (int i = 0; i < st->n; i++)
        lns_take_out(l, st->set[i]);
    bool give_up;
    k->repair = REPAIR_MIP;
    if (k->mip) {
        give_up = repair_mip(s, st);
    } else if (k->lpm) {
        k->repair = REPAIR_LP;
        l->tries[k->repair]++;
        give_up = !cp_lns_lp_repair(l, st, s->lp, cp_rng_below(&s->rs, 3) == 0 ? s->pr : NULL,
                                    cp_rng_below(&s->rs, 6) < LNS_SHARE_IN_6);
    } else if (k->inst) {
        k->repair = REPAIR_INST;
        l->tries[k->repair]++;
        /* to the other market of the instance type first */
        give_up = !cp_lns_inst_repair(l, st, k->alt);
    } else if (k->eject && !cp_usage_try(&l->u, k->fm, k->fs, &(double){0})) {
        give_up = true; /* the room made is not enough for it */
        l->tries[REPAIR_EJECT]++;
    } else {
        give_up = repair_insert(s, k, st);
    }
    if (give_up)
        for (int i = 0; i < st->n; i++)
            if (l->mask[st->set[i]])
                lns_put_back(l, st->set[i], -1, 0);
    return give_up;
}

/* Keeps the repaired plan when threshold acceptance allows (a MIP
 * repair, an LP move or an instance-run only when the packed plan is no
 * worse), taking a
 * snapshot of a new best plan; false when the step is to be undone. */
static bool step_accept(stream *s, const step *k)
{
    lns *l = &s->l;
    double now = cp_usage_objective(&l->u) + l->penalties;
    double frac = s->iterations < LONG_MAX
                      ? (double)s->it / (double)s->iterations
                      : (cp_now_seconds() - s->t_begin) / fmax(1e-3, s->deadline - s->t_begin);
    double temp = k->mip || k->lpm || k->inst ? 0 : s->t0 * (1 - fmin(1, frac));
    if (now > s->cur + temp + 1e-9 * (1 + fabs(s->cur)))
        return false;
    s->cur = now;
    if (now < s->best.total - 1e-9 * (1 + fabs(s->best.total))) {
        s->accepted++;
        l->gains[k->repair]++;
        s->last_gain = s->it;
        snap_take(&s->best, l, now);
        cp_progress_best(s->opts, now + s->modeless);
    }
    return true;
}

/* Puts the step's set back exactly as it was, on the same nodes. */
static void step_undo(lns *l, const stepset *st)
{
    for (int i = 0; i < st->n; i++)
        lns_take_out(l, st->set[i]);
    for (int i = 0; i < st->n; i++) {
        int j = st->set[i];
        l->plan->mode[j] = st->om[i];
        l->plan->start[j] = st->os[i];
        l->mask[j] = 0;
        if (st->om[i] < 0)
            l->penalties += l->in->jobs[j].drop_penalty;
        else
            cp_usage_add_on(&l->u, st->om[i], st->os[i], st->ou[i], st->on[i]);
    }
}

/* The end of a run: the best plan back, the dropped jobs that now fit
 * put in, the plan's instances and units written, the counters logged
 * and everything released. */
static int stream_close(stream *s, cp_plan *plan, double *total, cp_err *err)
{
    lns *l = &s->l;
    const cp_solve_opts *opts = s->opts;
    int rc = s->nomem ? CP_ERR_NOMEM : CP_OK;
    if (rc == CP_OK && s->best.total < s->cur - 1e-9 * (1 + fabs(s->cur)))
        rc = snap_restore(&s->best, l);
    int back = rc == CP_OK ? reinsert_dropped(l) : 0;
    if (back)
        cp_solver_log(opts, "lns: %d dropped jobs put back where they now fit", back);
    double cur = cp_usage_objective(&l->u) + l->penalties;
    memcpy(plan->y, l->u.y, (size_t)l->ms->n_res * (size_t)l->in->slots * sizeof *plan->y);
    *total = cur + s->modeless;
    cp_solver_log(opts, "lns: %ld iterations, %ld improvements, total %.10g", s->it, s->accepted, cur);
    char by[400];
    int w = 0;
    for (int r = 0; r < REPAIRS && w < (int)sizeof by; r++) {
        w += snprintf(by + w, sizeof by - (size_t)w, "%s%s %ld of %ld", r ? ", " : "", repair_name[r],
                      l->gains[r], l->tries[r]);
        if (r == REPAIR_MIP && w < (int)sizeof by)
            w += snprintf(by + w, sizeof by - (size_t)w, " (%ld solved, %.2f s)", l->mip_solved, l->mip_seconds);
    }
    cp_solver_log(opts, "lns: improvements by repair: %s; the last at step %ld", by, s->last_gain);
    if (rc == CP_OK && cp_usage_export_units(&l->u, plan))
        rc = CP_ERR_NOMEM;
    if (rc)
        rc = cp_err_nomem(err);
    if (l->fixed)
        cp_solver_log(opts, "lns: %ld jobs of sub-MIP answers moved or dropped to keep precedence", l->fixed);
    snap_release(&s->best);
    cp_submip_free(l->sub);
    cp_lns_close(l);
    return rc;
}

int cp_lns_stream(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                  const cp_prices *pr, double bound, long iterations, long stall, double deadline,
                  cp_plan *plan, double *total, cp_err *err)
{
    stream s;
    if (stream_open(&s, in, ms, opts, pr, iterations, deadline, plan))
        return cp_err_nomem(err);
    for (; !s.nomem && s.it < iterations && s.it - s.last_gain < stall && s.l.n_jobs > 1; s.it++) {
        if ((s.it & 15) == 0 && ((opts->stop && *opts->stop) || cp_now_seconds() > deadline))
            break;
        if (s.best.total + s.modeless - bound <= opts->gap * fabs(s.best.total + s.modeless))
            break; /* proven within the gap */
        step k;
        stepset st;
        step_choose(&s, &k, &st);
        if (st.n == 0)
            continue;
        bool give_up = step_repair(&s, &k, &st);
        if (!give_up && step_accept(&s, &k))
            continue;
        step_undo(&s.l, &st);
        if (s.nomem)
            break;
    }
    return stream_close(&s, plan, total, err);
}
