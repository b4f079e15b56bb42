/*
 * The search's ejections (lns.c's steps): moves that make room by taking
 * out the jobs that hold it, which one-job re-insertion never does (it
 * never takes room that is in use).
 *
 * - One job forced into a run of its own (cp_lns_eject_pick): the jobs on
 *   that resource in those slots go out and back where they fit best.
 * - An instance-run (cp_lns_inst_pick): every job on one cloud instance
 *   over the slots the instance is rented without a break goes out, so
 *   the run can be given up. They go back first to the other market of
 *   the same instance type (on-demand to spot and back), largest first,
 *   each at its cheapest run there in any of its accelerator counts (so
 *   a job may change its count to fill the instance the others rent);
 *   whatever does not go there (or every job, when the type has one
 *   market) goes where it adds least, which is the idle room of the
 *   instances still rented: the move also consolidates partly used
 *   instances. The step is kept only when the plan is no worse.
 *
 * Why the instance-run: where jobs choose 1-8 accelerators on 8-GPU
 * instances (bench/gen --family sized), one instance-run holds several
 * small jobs. Moving one of them to spot rents a spot instance and keeps
 * the on-demand one, which costs more, so no one-job step makes the move;
 * the group together gives the on-demand run up
 * (tests/unit/test_lns_moves.c: $10 -> $5).
 */
#include "lns_search.h"

#include <limits.h>

/* An ejection chain's first link: a job, dropped (half the time, when
 * there are any) or as lns.c's pick() seeds, is forced into a random (mode,
 * start) of its own, and every job that runs on that resource in those
 * slots is taken out to make room for it (at most q-1, at random); they
 * are then put back where they fit best, or dropped. This is the move
 * that puts a dropped job back by pushing others elsewhere: one-job
 * re-insertion never takes room that is in use. Returns the jobs, the
 * forced one first, with its choice in *fm, *fs; 0 when the draw fits
 * no empty resource. */
int cp_lns_eject_pick(lns *l, cp_rng *rs, int *out, int q, int *fm, int *fs)
{
    const cp_modeset *ms = l->ms;
    int j0 = -1;
    /* every job on a small night, a sample of LNS_SAMPLE on a large one
     * (as pick() in lns.c: a step costs the same at any size) */
    int scan = l->n_jobs > 2 * LNS_SAMPLE ? LNS_SAMPLE : l->n_jobs;
    if (cp_rng_below(rs, 2)) {
        int nd = 0;
        for (int k = 0; k < scan; k++) {
            int j = l->jobs[scan == l->n_jobs ? k : cp_rng_below(rs, l->n_jobs)];
            if (l->plan->mode[j] < 0)
                l->cand[nd++] = j;
        }
        if (nd)
            j0 = l->cand[cp_rng_below(rs, nd)];
    }
    if (j0 < 0) {
        j0 = l->jobs[cp_rng_below(rs, l->n_jobs)];
        for (int tries = 0; tries < 8; tries++) {
            int m = l->plan->mode[j0];
            if (m < 0 || ms->res[ms->modes[m].res].kind != CP_RES_POOL)
                break;
            j0 = l->jobs[cp_rng_below(rs, l->n_jobs)];
        }
    }
    int nm = ms->job_first[j0 + 1] - ms->job_first[j0];
    int m = ms->job_first[j0] + cp_rng_below(rs, nm);
    const cp_mode *md = &ms->modes[m];
    int s = md->s_min + cp_rng_below(rs, md->s_max - md->s_min + 1);
    if ((m == l->plan->mode[j0] && s == l->plan->start[j0]) || !cp_usage_start_fits(&l->u, m, s))
        return 0;
    int est, lend;
    if (l->g.any && (!cp_prec_window(&l->g, ms, l->plan->mode, l->plan->start, NULL, j0, &est, &lend) ||
                     s < est || s + md->slots > lend))
        return 0; /* precedence forbids that run */
    int nc = 0;
    unsigned stamp = ++l->step;
    for (int k = 0; k < scan; k++) {
        int j = l->jobs[scan == l->n_jobs ? k : cp_rng_below(rs, l->n_jobs)], mj = l->plan->mode[j];
        if (j == j0 || mj < 0 || ms->modes[mj].res != md->res || l->seen[j] == stamp)
            continue;
        l->seen[j] = stamp;
        int sj = l->plan->start[j];
        if (sj < s + md->slots && sj + ms->modes[mj].slots > s)
            l->cand[nc++] = j;
    }
    out[0] = j0;
    *fm = m;
    *fs = s;
    return cp_lns_draw(l, rs, out, 1, q, nc);
}

int cp_lns_inst_pick(lns *l, cp_rng *rs, int *out, int q, int *alt)
{
    const cp_modeset *ms = l->ms;
    int T = l->in->slots, j0 = -1;
    /* a job on a market: a few tries at random, no scan */
    for (int tries = 0; tries < 16 && j0 < 0; tries++) {
        int j = l->jobs[cp_rng_below(rs, l->n_jobs)], m = l->plan->mode[j];
        if (m >= 0 && ms->res[ms->modes[m].res].kind != CP_RES_POOL)
            j0 = j;
    }
    const int *units;
    int k = j0 >= 0 ? cp_usage_job_units(&l->u, j0, &units) : 0;
    int r = k ? ms->modes[l->plan->mode[j0]].res : -1;
    if (!k || !l->u.ncnt || !l->u.ncnt[r])
        return 0;
    int i = units[cp_rng_below(rs, k)];
    const int *busy = &l->u.ncnt[r][(size_t)i * (size_t)T];
    int a = l->plan->start[j0], b = a + ms->modes[l->plan->mode[j0]].slots;
    while (a > 0 && busy[a - 1] > 0)
        a--;
    while (b < T && busy[b] > 0)
        b++;
    int n = 0;
    out[n++] = j0;
    for (int x = 0; x < l->n_jobs; x++) {
        int j = l->jobs[x], m = l->plan->mode[j];
        if (j == j0 || m < 0 || ms->modes[m].res != r || l->plan->start[j] >= b ||
            l->plan->start[j] + ms->modes[m].slots <= a)
            continue;
        const int *uj;
        int kj = cp_usage_job_units(&l->u, j, &uj), z = 0;
        while (z < kj && uj[z] != i)
            z++;
        if (z == kj)
            continue;
        if (n == q)
            return 0; /* more than a step holds: the run could not be given up */
        out[n++] = j;
    }
    const cp_resource *res = &ms->res[r];
    *alt = res->kind == CP_RES_SPOT ? ms->ondemand_of_offer[res->index] : ms->spot_of_offer[res->index];
    return n;
}

/* Job j (taken out) at its cheapest run on market r within its window
 * (any of its counts there) when one packs for less than its penalty;
 * false otherwise. */
static bool put_on_market(lns *l, int j, const void *arg)
{
    int r = *(const int *)arg;
    const cp_modeset *ms = l->ms;
    int est = 0, lend = INT_MAX, bm = -1, bs = 0;
    if (l->g.any && !cp_prec_window(&l->g, ms, l->plan->mode, l->plan->start, l->mask, j, &est, &lend))
        return false;
    double best = l->in->jobs[j].drop_penalty;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (md->res != r || (l->u.dominated && l->u.dominated[m]))
            continue;
        for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max && s + md->slots <= lend; s++) {
            double c;
            if (cp_usage_try(&l->u, m, s, &c) && c < best)
                best = c, bm = m, bs = s;
        }
    }
    if (bm < 0)
        return false;
    lns_put_back(l, j, bm, bs);
    return true;
}

bool cp_lns_inst_repair(lns *l, stepset *st, int alt)
{
    int ord[LNS_ALL], n = st->n;
    for (int i = 0; i < n; i++)
        ord[i] = i;
    cp_lns_largest_first(l->ms, st->set, ord, n);
    return cp_lns_put_set(l, st, ord, alt >= 0 ? put_on_market : NULL, &alt, NULL, false);
}
