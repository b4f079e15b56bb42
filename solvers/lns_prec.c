/*
 * The neighbourhood search's precedence moves (capplan.5 §9.2; lns.c's steps):
 * a step's set with what restores it, the successors a drop takes out
 * with it (cascade), the order that puts predecessors back first, the
 * re-insertion of a job within its window, and the mending of a
 * sub-MIP's packed answer; and what every step's choice and repair use
 * (a draw of candidates, the largest-first order). A job that goes out of the plan takes its
 * running successors with it in the same step, so the step's total holds
 * their penalties, and a rejected step restores every one of them.
 */
#include "lns_search.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* Adds job j (still in the plan) to the set; false when the set is full
 * or j holds too many units to be put back where it was. */
bool cp_lns_set_add(lns *l, stepset *st, int j)
{
    const int *units;
    int k = l->plan->mode[j] >= 0 ? cp_usage_job_units(&l->u, j, &units) : 0;
    if (st->n == LNS_ALL || k > LNS_MAX_UNITS)
        return false;
    int i = st->n++;
    st->set[i] = j;
    st->om[i] = l->plan->mode[j];
    st->os[i] = l->plan->start[j];
    st->on[i] = k;
    if (k)
        memcpy(st->ou[i], units, (size_t)k * sizeof *units);
    l->inset[j] = l->set_stamp;
    return true;
}

/* Job j has just gone out of the plan (dropped): every running successor
 * that is not taken out goes too, and theirs, each added to the set so a
 * rejected step restores it. False when the set cannot hold them (the
 * step is then given up). */
bool cp_lns_cascade(lns *l, stepset *st, int j)
{
    const cp_prec *g = &l->g;
    for (int q = g->succ_first[j]; q < g->succ_first[j + 1]; q++) {
        int k = g->succ[q];
        if (l->plan->mode[k] < 0 || l->mask[k])
            continue;
        if (l->inset[k] != l->set_stamp && !cp_lns_set_add(l, st, k))
            return false;
        lns_take_out(l, k);
        lns_put_back(l, k, -1, 0);
        if (!cp_lns_cascade(l, st, k))
            return false;
    }
    return true;
}

/* ord[0..n) (indices into st->set) reordered so that no job comes before
 * one of its ancestors in the set, each taking the first place it may in
 * the given order. */
void cp_lns_prec_order(const lns *l, const stepset *st, int *ord, int n)
{
    int out[LNS_ALL], k = 0;
    bool used[LNS_ALL] = {false};
    while (k < n) {
        for (int a = 0; a < n; a++) {
            if (used[a])
                continue;
            bool free = true;
            for (int b = 0; b < n && free; b++)
                free = used[b] || b == a || !cp_prec_ancestor(&l->g, st->set[ord[b]], st->set[ord[a]]);
            if (free) {
                used[a] = true;
                out[k++] = ord[a];
                break;
            }
        }
    }
    memcpy(ord, out, (size_t)n * sizeof *ord);
}

/* Job j (taken out) back at its best run within its window, or dropped
 * with its running successors (cascade). False when the set is full. */
bool cp_lns_reinsert(lns *l, stepset *st, int j, const cp_prices *pr, bool share)
{
    cp_prec_pick pk;
    bool fits;
    if (!l->g.any) {
        fits = cp_usage_best_in(&l->u, j, pr, share, 0, INT_MAX, &pk.mode, &pk.start, &pk.cost);
        if (fits && pk.cost < l->in->jobs[j].drop_penalty)
            lns_put_back(l, j, pk.mode, pk.start);
        else
            lns_put_back(l, j, -1, 0);
        return true;
    }
    fits = cp_prec_best(&l->g, &l->u, l->plan->mode, l->plan->start, l->mask, j, pr, share, &pk);
    /* dropping j also drops its running successors: their penalties */
    double drop = pk.drop;
    for (int q = l->g.succ_first[j]; q < l->g.succ_first[j + 1]; q++) {
        int k = l->g.succ[q];
        if (l->plan->mode[k] >= 0 && !l->mask[k])
            drop += l->in->jobs[k].drop_penalty;
    }
    if (fits && pk.score < drop) {
        lns_put_back(l, j, pk.mode, pk.start);
        return true;
    }
    lns_put_back(l, j, -1, 0);
    return cp_lns_cascade(l, st, j);
}

/* After a sub-MIP's answer is packed: each job of the set, predecessors
 * first, that breaks precedence (a predecessor dropped or ending late,
 * or a running successor starting before it ends) moves within its
 * window or is dropped with its successors. False when the set is full. */
bool cp_lns_fix_set(lns *l, stepset *st)
{
    int ord[LNS_ALL], n = st->n;
    for (int i = 0; i < n; i++)
        ord[i] = i;
    cp_lns_prec_order(l, st, ord, n);
    for (int q = 0; q < n; q++) {
        int j = st->set[ord[q]], m = l->plan->mode[j], est, lend;
        if (m < 0)
            continue;
        bool alive = cp_prec_window(&l->g, l->ms, l->plan->mode, l->plan->start, NULL, j, &est, &lend);
        int s = l->plan->start[j];
        if (alive && s >= est && s + l->ms->modes[m].slots <= lend)
            continue;
        l->fixed++;
        lns_take_out(l, j);
        if (!alive) {
            lns_put_back(l, j, -1, 0);
            if (!cp_lns_cascade(l, st, j))
                return false;
        } else if (!cp_lns_reinsert(l, st, j, NULL, false)) {
            return false;
        }
    }
    return true;
}

bool cp_lns_put_set(lns *l, stepset *st, int *ord, bool (*first)(lns *, int, const void *), const void *arg,
                    const cp_prices *pr, bool share)
{
    int n = st->n;
    if (l->g.any)
        cp_lns_prec_order(l, st, ord, n);
    for (int q = 0; q < n; q++) {
        int j = st->set[ord[q]];
        if (!l->mask[j])
            continue; /* dropped already, with a predecessor */
        if ((!first || !first(l, j, arg)) && !cp_lns_reinsert(l, st, j, pr, share))
            return false;
    }
    return true;
}

int cp_lns_draw(lns *l, cp_rng *rs, int *out, int n, int q, int nc)
{
    while (n < q && nc > 0) {
        int k = cp_rng_below(rs, nc);
        out[n++] = l->cand[k];
        l->cand[k] = l->cand[--nc];
    }
    return n;
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

void cp_lns_largest_first(const cp_modeset *ms, const int *set, int *ord, int n)
{
    double size[LNS_ALL];
    for (int i = 0; i < n; i++)
        size[i] = job_size(ms, set[ord[i]]);
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && size[k] > size[k - 1]; k--) {
            double v = size[k];
            int t = ord[k];
            size[k] = size[k - 1], ord[k] = ord[k - 1];
            size[k - 1] = v, ord[k - 1] = t;
        }
}
