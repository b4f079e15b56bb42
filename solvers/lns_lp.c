/*
 * The LP move of the neighbourhood search (lns.c): a chain of jobs
 * pulled toward the LP relaxation's solution (cp_lp_sol, from column
 * generation, lp_colgen.c), put back where the LP puts them when the
 * concrete nodes and instances hold it.
 *
 * Why: one-job re-insertion and one-level ejection cannot make a move
 * whose every link is needed. On the sized 80-job night, seed 6
 * (bench/gen --family sized), a job with a $2,490 drop penalty fits the
 * one H100 node before its deadline only when the job there moves one
 * slot earlier, which needs the job before it to move to a cloud
 * instance: the search from the greedy's plan stayed at 7,574.10 with
 * that job dropped. The LP puts the three where the cheap plan has them,
 * so following it makes the chain in one step.
 *
 * The set: a seed job that the LP puts elsewhere (less than half of its
 * LP weight on its current run, or on its drop when it runs), then, for
 * each job of the set whose LP column is not where it is, the jobs that
 * run on that column's resource in its slots (those the LP wants moved
 * first), and theirs, breadth first, up to the step's size. The repair:
 * the jobs by decreasing LP weight of their best column, each at the
 * first of its LP columns (by value) that its window allows, that packs
 * and that costs less than its penalty; otherwise as any other step puts
 * a job back (cheapest, or dropped).
 *
 * The ranking by reduced costs (cp_lns_rc, cp_lns_rc_draw). For any
 * plan, its total less the LP's optimum is, by the LP's own duals, the
 * sum of its jobs' reduced costs (each job's (mode, start) column, or
 * its drop column: what the choice costs above what the LP's prices say
 * the rows it uses and the job itself are worth, >= 0 at the optimum)
 * plus the priced room it leaves idle (capacity rows' slack times their
 * duals, the instances' reduced costs). A job of large reduced cost is
 * where the LP says the plan overpays: a seed to rank first. On the
 * sized 80-job nights the greedy's plan carries 470 of its 730 $ above
 * the lifted LP in its jobs' reduced costs (seed 1), the search's best
 * plan 127 of 268 (--progress=debug logs the sum). The reduced costs are
 * those of the last master's duals, priced once for every column when
 * the column generation ends, by its own pricing (lp_colgen_price.c;
 * a column it never generated is priced by the same rule), so a job's
 * value is a lookup of its current (mode, start): nothing to update
 * when a job moves, nothing a rejected step has to restore, and the
 * same numbers in every stream and thread. The ranking draws a few jobs
 * and takes the largest (a tournament: a seed the step cannot improve
 * is not drawn every time). It ranks on large nights only, where it
 * was measured to pay (LNS_RC_JOBS in lns_search.h).
 */
#include "lns_search.h"

#include <limits.h>
#include <math.h>

/* the current run of j gets at most this share of j in the LP: the LP
 * puts it elsewhere, a seed of the move */
#define LP_AGREE 0.5

/* The LP's value of job j's current choice (its drop column's when it
 * is dropped). */
static double agree(const lns *l, const cp_lp_sol *lp, int j)
{
    int m = l->plan->mode[j];
    double sum = 0;
    for (int k = lp->first[j]; k < lp->first[j + 1]; k++) {
        if (m >= 0 && lp->mode[k] == m && lp->start[k] == l->plan->start[j])
            return lp->value[k];
        sum += lp->value[k];
    }
    return m >= 0 ? 0 : 1 - sum;
}

/* Job j's LP target: its column of most value, when that is more than
 * its drop column's; false when the LP drops it (or has no column). */
static bool target(const cp_lp_sol *lp, int j, int *m, int *s, double *w)
{
    double sum = 0;
    for (int k = lp->first[j]; k < lp->first[j + 1]; k++)
        sum += lp->value[k];
    if (lp->first[j] == lp->first[j + 1] || lp->value[lp->first[j]] <= 1 - sum)
        return false;
    *m = lp->mode[lp->first[j]];
    *s = lp->start[lp->first[j]];
    *w = lp->value[lp->first[j]];
    return true;
}

/* Adds to out[n..q) the jobs running on mode m's resource in [s, s +
 * slots) that are not stamped, least agreeing with the LP first; returns
 * the new n. */
static int add_blockers(lns *l, const cp_lp_sol *lp, cp_rng *rs, int *out, int n, int q, int m,
                        int s, unsigned stamp)
{
    const cp_modeset *ms = l->ms;
    const cp_mode *md = &ms->modes[m];
    double ag[LNS_MAX_REMOVE];
    int scan = l->n_jobs > 2 * LNS_SAMPLE ? LNS_SAMPLE : l->n_jobs, nc = 0;
    for (int k = 0; k < scan; k++) {
        int j = l->jobs[scan == l->n_jobs ? k : cp_rng_below(rs, l->n_jobs)], mj = l->plan->mode[j];
        if (mj < 0 || l->seen[j] == stamp || ms->modes[mj].res != md->res)
            continue;
        int sj = l->plan->start[j];
        if (sj < s + md->slots && sj + ms->modes[mj].slots > s)
            l->cand[nc++] = j;
    }
    /* a random order, then stable by agreement: ties stay random */
    for (int i = nc - 1; i > 0; i--) {
        int k = cp_rng_below(rs, i + 1), t = l->cand[i];
        l->cand[i] = l->cand[k];
        l->cand[k] = t;
    }
    int first = n;
    for (int i = 0; i < nc && n < q; i++) {
        int j = l->cand[i];
        if (l->seen[j] == stamp)
            continue; /* sampled twice: a job taken out twice corrupts the usage */
        double a = agree(l, lp, j);
        int p = n++;
        for (; p > first && ag[p - first - 1] > a; p--) {
            out[p] = out[p - 1];
            ag[p - first] = ag[p - first - 1];
        }
        out[p] = j;
        ag[p - first] = a;
        l->seen[j] = stamp;
    }
    return n;
}

int cp_lns_lp_pick(lns *l, const cp_lp_sol *lp, cp_rng *rs, int *out, int q)
{
    int scan = l->n_jobs > 2 * LNS_SAMPLE ? LNS_SAMPLE : l->n_jobs, nc = 0;
    /* half the time a dropped job that the LP runs, where penalties are */
    bool dropped = cp_rng_below(rs, 2);
    for (int k = 0; k < scan; k++) {
        int j = l->jobs[scan == l->n_jobs ? k : cp_rng_below(rs, l->n_jobs)];
        if ((!dropped || l->plan->mode[j] < 0) && agree(l, lp, j) < LP_AGREE)
            l->cand[nc++] = j;
    }
    if (nc == 0 && dropped)
        for (int k = 0; k < scan; k++) {
            int j = l->jobs[scan == l->n_jobs ? k : cp_rng_below(rs, l->n_jobs)];
            if (agree(l, lp, j) < LP_AGREE)
                l->cand[nc++] = j;
        }
    if (nc == 0)
        return 0;
    int j0 = LNS_RC_LP && lp->rc && l->n_jobs > LNS_RC_JOBS
                 ? cp_lns_rc_draw(l, lp, rs, l->cand, nc, LNS_RC_DRAW_LP)
                 : l->cand[cp_rng_below(rs, nc)];
    return cp_lns_lp_chain(l, lp, rs, j0, out, q);
}

double cp_lns_rc(const lns *l, const cp_lp_sol *lp, int j)
{
    return cp_lp_sol_rc(lp, l->ms, j, l->plan->mode[j], l->plan->start[j]);
}

int cp_lns_rc_draw(const lns *l, const cp_lp_sol *lp, cp_rng *rs, const int *from, int n, int k)
{
    bool all = n <= k;
    int best = from[0];
    double top = -INFINITY;
    for (int i = 0; i < (all ? n : k); i++) {
        int j = from[all ? i : cp_rng_below(rs, n)];
        double r = cp_lns_rc(l, lp, j);
        if (r > top) {
            top = r;
            best = j;
        }
    }
    return best;
}

int cp_lns_lp_chain(lns *l, const cp_lp_sol *lp, cp_rng *rs, int j0, int *out, int q)
{
    int n = 1;
    unsigned stamp = ++l->step;
    out[0] = j0;
    l->seen[j0] = stamp;
    for (int h = 0; h < n && n < q; h++) {
        int j = out[h], m, s;
        double w;
        if (!target(lp, j, &m, &s, &w) || (m == l->plan->mode[j] && s == l->plan->start[j]))
            continue;
        n = add_blockers(l, lp, rs, out, n, q > LNS_MAX_REMOVE ? LNS_MAX_REMOVE : q, m, s, stamp);
    }
    return n;
}

/* Job j (taken out) at the first of its LP columns that its window
 * allows, that packs and costs less than its penalty; false when none. */
static bool put_on_lp(lns *l, int j, const void *arg)
{
    const cp_lp_sol *lp = arg;
    int est = 0, lend = INT_MAX;
    if (l->g.any && !cp_prec_window(&l->g, l->ms, l->plan->mode, l->plan->start, l->mask, j, &est, &lend))
        return false;
    for (int k = lp->first[j]; k < lp->first[j + 1]; k++) {
        int m = lp->mode[k], s = lp->start[k];
        double c;
        if (s < est || s + l->ms->modes[m].slots > lend)
            continue;
        if (cp_usage_try(&l->u, m, s, &c) && c < l->in->jobs[j].drop_penalty) {
            lns_put_back(l, j, m, s);
            return true;
        }
    }
    return false;
}

bool cp_lns_lp_repair(lns *l, stepset *st, const cp_lp_sol *lp, const cp_prices *pr, bool share)
{
    int n = st->n, ord[LNS_ALL];
    double w[LNS_ALL];
    for (int i = 0; i < n; i++) {
        int m, s;
        ord[i] = i;
        if (!target(lp, st->set[i], &m, &s, &w[i]))
            w[i] = 0;
    }
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && w[ord[k]] > w[ord[k - 1]]; k--) {
            int t = ord[k];
            ord[k] = ord[k - 1];
            ord[k - 1] = t;
        }
    return cp_lns_put_set(l, st, ord, put_on_lp, lp, pr, share);
}
