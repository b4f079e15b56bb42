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
 */
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_rng.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define LNS_MAX_REMOVE 14
#define LNS_MAX_UNITS 16
#define LNS_SAMPLE 256
/* --node-limit N also bounds the search to N times this many steps, so
 * a node-limited run is reproducible whatever the clock says. */
#define LNS_STEPS_PER_NODE 100L
/* Without a gain in this many steps (per job, and at least) the search
 * has converged for practical purposes: a small night ends in about a
 * second instead of running to the time limit. */
#define LNS_STALL_PER_JOB 2000L
#define LNS_STALL_MIN 100000L
/* the first temperature of threshold acceptance, as a share of the total */
#define LNS_T0 0.002
/* Steps (in 6) whose re-insertions rank market runs by their share.
 * Measured on cloud-heavy nights (bench/gen --family cloud, 1,000 jobs,
 * 200,000 steps, seeds 1 and 3): 0 in 6: 29,164 and 33,041; 2 in 6:
 * 28,658 and 32,773; 3 in 6: 28,366 and 32,228; 5 in 6: 28,473 and 32,894.
 * Other destroy moves measured there did not pay: every job on one
 * instance id over a run, or every job of one market in a window of 1-3
 * slots, a quarter of the steps each, gave 29,157 and 33,325. */
#define LNS_SHARE_IN_6 3

/* How the jobs of a step were put back. */
enum { REPAIR_PLAIN, REPAIR_PRICED, REPAIR_SHARED, REPAIRS };
static const char *const repair_name[REPAIRS] = {"cheapest", "priced", "shared"};

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

/* Accelerators (or machines) times hours of a job's smallest mode. */
static double job_size(const cp_modeset *ms, int j)
{
    double best = INFINITY;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        double v = (md->demand[CP_DIM_ACC] > 0 ? md->demand[CP_DIM_ACC] : md->count) * md->hours;
        best = v < best ? v : best;
    }
    return best;
}

typedef struct lns {
    const cp_input *in;
    const cp_modeset *ms;
    cp_usage u;
    cp_plan *plan;
    double penalties; /* of dropped jobs that have modes */
    int *jobs;        /* jobs with modes */
    int n_jobs;
    unsigned char *can_use; /* [n_res] resources the seed job has modes on */
    unsigned *seen;         /* [n_jobs] step stamp of the last sample that took it */
    unsigned step;
    int *cand;
    long tries[REPAIRS], gains[REPAIRS]; /* steps and new best plans per repair */
} lns;

static void take_out(lns *l, int j)
{
    if (l->plan->mode[j] >= 0)
        cp_usage_remove(&l->u, l->plan->mode[j], l->plan->start[j]);
    else
        l->penalties -= l->in->jobs[j].drop_penalty;
}

static void put_back(lns *l, int j, int m, int s)
{
    l->plan->mode[j] = m;
    l->plan->start[j] = s;
    if (m >= 0)
        cp_usage_add(&l->u, m, s);
    else
        l->penalties += l->in->jobs[j].drop_penalty;
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
            if (l->plan->mode[j] >= 0 || l->ms->job_first[j] == l->ms->job_first[j + 1])
                continue;
            if (cp_usage_best(&l->u, j, &m, &s, &c) &&
                c < l->in->jobs[j].drop_penalty - 1e-9 * (1 + l->in->jobs[j].drop_penalty)) {
                take_out(l, j);
                put_back(l, j, m, s);
                added++;
                again = true;
            }
        }
    }
    return added;
}

/* Chooses the jobs to take out: the seed and up to q-1 jobs that
 * overlap its window on a resource it can use. */
static int pick(lns *l, cp_rng *rs, int *out, int q)
{
    const cp_modeset *ms = l->ms;
    int j0 = l->jobs[cp_rng_below(rs, l->n_jobs)];
    /* half the time the seed is a job in the cloud or dropped, where the
     * money is: a few tries at random, no scan */
    if (cp_rng_below(rs, 2))
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
        if (j == j0 || m < 0 || !l->can_use[ms->modes[m].res] || (scan != l->n_jobs && l->seen[j] == stamp))
            continue;
        l->seen[j] = stamp;
        int s = l->plan->start[j];
        if (s < hi && s + ms->modes[m].slots > lo)
            l->cand[nc++] = j;
    }
    out[0] = j0;
    int n = 1;
    while (n < q && nc > 0) {
        int k = cp_rng_below(rs, nc);
        out[n++] = l->cand[k];
        l->cand[k] = l->cand[--nc];
    }
    return n;
}

/* The best plan of a run: choices and units of every job. */
typedef struct snapshot {
    double total;
    int *mode, *start, *n;
    int *units;   /* [off[j] .. off[j] + n[j]) */
    size_t *off;
} snapshot;

static void snap_release(snapshot *b)
{
    cp_free(b->mode);
    cp_free(b->start);
    cp_free(b->n);
    cp_free(b->units);
    cp_free(b->off);
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

long cp_lns_budget(const cp_solve_opts *opts)
{
    return opts->node_limit > 0 ? opts->node_limit * LNS_STEPS_PER_NODE : LONG_MAX;
}

long cp_lns_stall(const cp_input *in)
{
    long s = LNS_STALL_PER_JOB * in->n_jobs;
    return s > LNS_STALL_MIN ? s : LNS_STALL_MIN;
}

int cp_lns(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, const cp_prices *pr,
           double bound, long iterations, long stall, double deadline, cp_plan *plan, double *total,
           cp_err *err)
{
    lns l;
    memset(&l, 0, sizeof l);
    l.in = in;
    l.ms = ms;
    l.plan = plan;
    if (cp_usage_init(&l.u, in, ms))
        return cp_err_nomem(err);
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    l.jobs = cp_calloc(nj, sizeof *l.jobs);
    l.cand = cp_calloc(nj, sizeof *l.cand);
    l.can_use = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1), 1);
    l.seen = cp_calloc(nj, sizeof *l.seen);
    if (!l.jobs || !l.cand || !l.can_use || !l.seen) {
        cp_free(l.seen);
        cp_free(l.jobs);
        cp_free(l.cand);
        cp_free(l.can_use);
        cp_usage_release(&l.u);
        return cp_err_nomem(err);
    }
    cp_usage_load_plan(&l.u, plan);
    for (int j = 0; j < in->n_jobs; j++) {
        if (ms->job_first[j] == ms->job_first[j + 1])
            continue;
        l.jobs[l.n_jobs++] = j;
        if (plan->mode[j] < 0)
            l.penalties += in->jobs[j].drop_penalty;
    }
    double modeless = 0;
    for (int j = 0; j < in->n_jobs; j++)
        if (ms->job_first[j] == ms->job_first[j + 1])
            modeless += in->jobs[j].drop_penalty;
    cp_rng rs = cp_rng_make(0x5DEECE66Dull ^ (uint64_t)opts->seed * CP_RNG_GAMMA);
    double cur = l.u.spend + l.penalties;
    long accepted = 0, it = 0, last_gain = 0;
    /* Threshold acceptance: a step may make the plan worse by up to a
     * temperature that starts at LNS_T0 of the total and falls to zero
     * over the run, which lets the search leave plateaus; the best plan
     * seen is kept apart and restored at the end. */
    snapshot best;
    if (snap_init(&best, &l) != CP_OK) {
        cp_free(l.seen);
        cp_free(l.jobs);
        cp_free(l.cand);
        cp_free(l.can_use);
        cp_usage_release(&l.u);
        return cp_err_nomem(err);
    }
    snap_take(&best, &l, cur);
    double t_begin = cp_now_seconds(), t0 = LNS_T0 * fabs(cur);
    for (; it < iterations && it - last_gain < stall && l.n_jobs > 1; it++) {
        if ((it & 15) == 0 && ((opts->stop && *opts->stop) || cp_now_seconds() > deadline))
            break;
        if (best.total + modeless - bound <= opts->gap * fabs(best.total + modeless))
            break; /* proven within the gap */
        int set[LNS_MAX_REMOVE], om[LNS_MAX_REMOVE], os[LNS_MAX_REMOVE];
        int on[LNS_MAX_REMOVE], ou[LNS_MAX_REMOVE][LNS_MAX_UNITS];
        int n = pick(&l, &rs, set, 2 + cp_rng_below(&rs, LNS_MAX_REMOVE - 1));
        /* jobs on many nodes stay: their old nodes could not be restored */
        int kept = 0;
        for (int i = 0; i < n; i++) {
            const int *units;
            int k = cp_usage_job_units(&l.u, set[i], &units);
            if (k > LNS_MAX_UNITS)
                continue;
            set[kept] = set[i];
            on[kept] = k;
            memcpy(ou[kept], units, (size_t)k * sizeof(int));
            kept++;
        }
        n = kept;
        for (int i = 0; i < n; i++) {
            om[i] = plan->mode[set[i]];
            os[i] = plan->start[set[i]];
            take_out(&l, set[i]);
        }
        /* re-insertion order: random, or the largest first (what
         * packing wants) */
        /* a third of the steps choose by cost plus the priced capacity */
        bool priced = pr && cp_rng_below(&rs, 3) == 0;
        bool shared = cp_rng_below(&rs, 6) < LNS_SHARE_IN_6;
        int repair = shared ? REPAIR_SHARED : priced ? REPAIR_PRICED : REPAIR_PLAIN;
        l.tries[repair]++;
        int ord[LNS_MAX_REMOVE];
        for (int i = 0; i < n; i++)
            ord[i] = i;
        if (cp_rng_below(&rs, 2)) {
            for (int i = n - 1; i > 0; i--) {
                int k = cp_rng_below(&rs, i + 1);
                int t = ord[i];
                ord[i] = ord[k];
                ord[k] = t;
            }
        } else {
            double size[LNS_MAX_REMOVE];
            for (int i = 0; i < n; i++)
                size[i] = job_size(ms, set[i]);
            for (int i = 1; i < n; i++)
                for (int k = i; k > 0 && size[ord[k]] > size[ord[k - 1]]; k--) {
                    int t = ord[k];
                    ord[k] = ord[k - 1];
                    ord[k - 1] = t;
                }
        }
        for (int q = 0; q < n; q++) {
            int j = set[ord[q]], m, s;
            double c;
            bool fits = shared   ? cp_usage_best_shared(&l.u, j, priced ? pr : NULL, &m, &s, &c)
                        : priced ? cp_usage_best_priced(&l.u, j, pr, &m, &s, &c)
                                 : cp_usage_best(&l.u, j, &m, &s, &c);
            if (fits && c < in->jobs[j].drop_penalty)
                put_back(&l, j, m, s);
            else
                put_back(&l, j, -1, 0);
        }
        double now = l.u.spend + l.penalties;
        double frac = iterations < LONG_MAX ? (double)it / (double)iterations
                                            : (cp_now_seconds() - t_begin) / fmax(1e-3, deadline - t_begin);
        double temp = t0 * (1 - fmin(1, frac));
        if (now <= cur + temp + 1e-9 * (1 + fabs(cur))) {
            cur = now;
            if (now < best.total - 1e-9 * (1 + fabs(best.total))) {
                accepted++;
                l.gains[repair]++;
                last_gain = it;
                snap_take(&best, &l, now);
            }
            continue;
        }
        /* back exactly as they were, on the same nodes */
        for (int i = 0; i < n; i++)
            take_out(&l, set[i]);
        for (int i = 0; i < n; i++) {
            plan->mode[set[i]] = om[i];
            plan->start[set[i]] = os[i];
            if (om[i] < 0)
                l.penalties += in->jobs[set[i]].drop_penalty;
            else
                cp_usage_add_on(&l.u, om[i], os[i], ou[i], on[i]);
        }
    }
    int rc = CP_OK;
    if (best.total < cur - 1e-9 * (1 + fabs(cur)))
        rc = snap_restore(&best, &l);
    int back = rc == CP_OK ? reinsert_dropped(&l) : 0;
    if (back)
        cp_solver_log(opts, "lns: %d dropped jobs put back where they now fit", back);
    cur = l.u.spend + l.penalties;
    memcpy(plan->y, l.u.y, (size_t)ms->n_res * (size_t)in->slots * sizeof *plan->y);
    *total = cur + modeless;
    cp_solver_log(opts, "lns: %ld iterations, %ld improvements, total %.10g", it, accepted, cur);
    cp_solver_log(opts,
                  "lns: improvements by repair: %s %ld of %ld steps, %s %ld of %ld, %s %ld of %ld; "
                  "the last at step %ld",
                  repair_name[0], l.gains[0], l.tries[0], repair_name[1], l.gains[1], l.tries[1],
                  repair_name[2], l.gains[2], l.tries[2], last_gain);
    if (rc == CP_OK && cp_usage_export_units(&l.u, plan))
        rc = CP_ERR_NOMEM;
    if (rc)
        rc = cp_err_nomem(err);
    snap_release(&best);
    cp_free(l.jobs);
    cp_free(l.cand);
    cp_free(l.can_use);
    cp_free(l.seen);
    cp_usage_release(&l.u);
    return rc;
}
