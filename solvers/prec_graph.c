/*
 * The precedence graph (cp_prec.h): successor lists in one array, a
 * topological order, and the window of a job between its predecessors'
 * ends and its running successors' starts. Chains are short, so the
 * ancestor test walks predecessors, cut by the topological rank (an
 * ancestor of b has a lower rank than b).
 */
#include "cp_prec.h"

#include "cp_alloc.h"
#include "cp_err.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* how many levels of pending successors cp_prec_best looks down */
#define PREC_DEPTH 6

int cp_prec_find(int *up, int x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

bool cp_prec_topo(const cp_input *in, int *order)
{
    int n = in->n_jobs, k = 0;
    unsigned char *done = cp_calloc((size_t)(n ? n : 1), 1);
    if (!done)
        return false;
    /* repeated passes are fine for the few jobs with predecessors; a job
     * comes as soon as its predecessors have, in input order */
    while (k < n) {
        int before = k;
        for (int j = 0; j < n; j++) {
            if (done[j])
                continue;
            bool ready = true;
            for (int a = 0; a < in->jobs[j].n_after && ready; a++)
                ready = done[in->jobs[j].after[a]];
            if (ready) {
                done[j] = 1;
                order[k++] = j;
            }
        }
        if (k == before)
            break; /* cannot happen for an acyclic input */
    }
    cp_free(done);
    return k == n;
}

int cp_prec_init(cp_prec *g, const cp_input *in)
{
    size_t n = (size_t)in->n_jobs;
    memset(g, 0, sizeof *g);
    g->in = in;
    g->succ_first = cp_calloc(n + 1, sizeof *g->succ_first);
    g->order = cp_calloc(n ? n : 1, sizeof *g->order);
    g->rank = cp_calloc(n ? n : 1, sizeof *g->rank);
    g->dpen = cp_calloc(n ? n : 1, sizeof *g->dpen);
    /* cp_prec_best's curves: one, then two per level of succ_curve */
    g->f = cp_calloc(((size_t)in->slots + 2) * (1 + 2 * PREC_DEPTH), sizeof *g->f);
    if (!g->succ_first || !g->order || !g->rank || !g->dpen || !g->f)
        return CP_ERR_NOMEM;
    size_t edges = 0;
    for (size_t j = 0; j < n; j++)
        edges += (size_t)in->jobs[j].n_after;
    g->any = edges > 0;
    g->succ = cp_calloc(edges ? edges : 1, sizeof *g->succ);
    if (!g->succ || !cp_prec_topo(in, g->order))
        return CP_ERR_NOMEM;
    for (size_t j = 0; j < n; j++)
        for (int a = 0; a < in->jobs[j].n_after; a++)
            g->succ_first[in->jobs[j].after[a] + 1]++;
    for (size_t j = 0; j < n; j++)
        g->succ_first[j + 1] += g->succ_first[j];
    int *fill = cp_calloc(n ? n : 1, sizeof *fill);
    if (!fill)
        return CP_ERR_NOMEM;
    /* successors in job order: deterministic */
    for (size_t j = 0; j < n; j++)
        for (int a = 0; a < in->jobs[j].n_after; a++) {
            int i = in->jobs[j].after[a];
            g->succ[g->succ_first[i] + fill[i]++] = (int)j;
        }
    cp_free(fill);
    for (size_t q = 0; q < n; q++)
        g->rank[g->order[q]] = (int)q;
    /* successors last: a job's descendants counted along every path (a
     * diamond counts its sink twice: an estimate for the greedy's choice
     * between running and dropping, never a bound) */
    for (size_t q = n; q-- > 0;) {
        int j = g->order[q];
        double v = in->jobs[j].drop_penalty;
        for (int k = g->succ_first[j]; k < g->succ_first[j + 1]; k++)
            v += g->dpen[g->succ[k]];
        g->dpen[j] = v;
    }
    return CP_OK;
}

void cp_prec_release(cp_prec *g)
{
    cp_free(g->succ_first);
    cp_free(g->succ);
    cp_free(g->order);
    cp_free(g->rank);
    cp_free(g->dpen);
    cp_free(g->f);
    memset(g, 0, sizeof *g);
}

/* cp_prec_window with job `ignore` absent too. */
static bool window_x(const cp_prec *g, const cp_modeset *ms, const int *mode, const int *start,
                     const unsigned char *skip, int j, int ignore, int *est, int *lend)
{
    const cp_job *jb = &g->in->jobs[j];
    *est = 0;
    *lend = INT_MAX;
    for (int a = 0; a < jb->n_after; a++) {
        int i = jb->after[a];
        if ((skip && skip[i]) || i == ignore)
            continue;
        if (mode[i] < 0)
            return false;
        int e = start[i] + ms->modes[mode[i]].slots;
        if (e > *est)
            *est = e;
    }
    for (int q = g->succ_first[j]; q < g->succ_first[j + 1]; q++) {
        int k = g->succ[q];
        if ((skip && skip[k]) || mode[k] < 0 || k == ignore)
            continue;
        if (start[k] < *lend)
            *lend = start[k];
    }
    return true;
}

bool cp_prec_window(const cp_prec *g, const cp_modeset *ms, const int *mode, const int *start,
                    const unsigned char *skip, int j, int *est, int *lend)
{
    return window_x(g, ms, mode, start, skip, j, -1, est, lend);
}

bool cp_prec_has_running_succ(const cp_prec *g, const int *mode, const unsigned char *skip, int j)
{
    for (int q = g->succ_first[j]; q < g->succ_first[j + 1]; q++) {
        int k = g->succ[q];
        if (mode[k] >= 0 && !(skip && skip[k]))
            return true;
    }
    return false;
}

bool cp_prec_ancestor(const cp_prec *g, int a, int b)
{
    if (a == b || g->rank[a] > g->rank[b])
        return false;
    const cp_job *jb = &g->in->jobs[b];
    for (int q = 0; q < jb->n_after; q++) {
        int i = jb->after[q];
        if (i == a || (g->rank[i] > g->rank[a] && cp_prec_ancestor(g, a, i)))
            return true;
    }
    return false;
}

/* f[e] (e in [0, T+1]) = what pending job k (out of u) and its pending
 * descendants cost at best when k starts at or after e within its own
 * window (j absent): k's cheapest run plus, down to PREC_DEPTH levels,
 * its pending successors' curves from its end; or, when less, what
 * dropping k loses (it drops its descendants too). `scratch` holds
 * 2 * (T+2) doubles per level below. */
static void succ_curve(const cp_prec *g, const cp_usage *u, const int *mode, const int *start,
                       const unsigned char *mask, int j, int k, double *f, double *scratch, int depth)
{
    const cp_modeset *ms = u->ms;
    int T = u->T, est, lend;
    size_t T2 = (size_t)T + 2;
    double *sum = scratch, *sub = scratch + T2;
    for (size_t e = 0; e < T2; e++) {
        f[e] = INFINITY;
        sum[e] = 0;
    }
    if (depth + 1 < PREC_DEPTH)
        for (int q = g->succ_first[k]; q < g->succ_first[k + 1]; q++) {
            int x = g->succ[q];
            if (!(mask[x] & CP_PREC_PENDING) || ms->job_first[x] == ms->job_first[x + 1] || x == j)
                continue;
            succ_curve(g, u, mode, start, mask, k, x, sub, scratch + 2 * T2, depth + 1);
            for (size_t e = 0; e < T2; e++)
                sum[e] += sub[e];
        }
    if (window_x(g, ms, mode, start, mask, k, j, &est, &lend))
        for (int m = ms->job_first[k]; m < ms->job_first[k + 1]; m++) {
            const cp_mode *md = &ms->modes[m];
            if (u->dominated && u->dominated[m])
                continue;
            for (int s = md->s_min > est ? md->s_min : est;
                 s <= md->s_max && s + md->slots <= lend && !cp_clock_late(u->clock); s++) {
                double d;
                if (cp_usage_try(u, m, s, &d) && d + sum[s + md->slots] < f[s])
                    f[s] = d + sum[s + md->slots];
            }
        }
    f[T + 1] = g->dpen[k];
    for (int e = T; e >= 0; e--)
        f[e] = fmin(f[e], f[e + 1]);
}

bool cp_prec_best(cp_prec *g, const cp_usage *u, const int *mode, const int *start,
                  const unsigned char *mask, int j, const cp_prices *pr, bool share, cp_prec_pick *pk)
{
    const cp_modeset *ms = u->ms;
    int est, lend, n_pend = 0;
    pk->mode = -1;
    pk->start = 0;
    pk->cost = pk->score = INFINITY;
    pk->drop = g->in->jobs[j].drop_penalty;
    bool alive = window_x(g, ms, mode, start, mask, j, -1, &est, &lend);
    if (mask)
        for (int q = g->succ_first[j]; q < g->succ_first[j + 1]; q++) {
            int k = g->succ[q];
            if (mask[k] & CP_PREC_PENDING && ms->job_first[k] < ms->job_first[k + 1]) {
                pk->drop += g->dpen[k];
                n_pend++;
            }
        }
    if (!alive)
        return false;
    if (!n_pend) {
        if (!cp_usage_best_in(u, j, pr, share, est, lend, &pk->mode, &pk->start, &pk->cost))
            return false;
        pk->score = pk->cost;
        return true;
    }
    /* score[s..] by end slot: sum over the pending successors of their
     * curves; one curve at a time in g->f, added into acc */
    int T = u->T;
    double *sum = cp_calloc((size_t)T + 2, sizeof *sum);
    if (!sum) { /* no lookahead without memory: the plain choice */
        if (!cp_usage_best_in(u, j, pr, share, est, lend, &pk->mode, &pk->start, &pk->cost))
            return false;
        pk->score = pk->cost;
        return true;
    }
    for (int q = g->succ_first[j]; q < g->succ_first[j + 1]; q++) {
        int k = g->succ[q];
        if (!(mask[k] & CP_PREC_PENDING) || ms->job_first[k] == ms->job_first[k + 1])
            continue;
        succ_curve(g, u, mode, start, mask, j, k, g->f, g->f + (size_t)T + 2, 0);
        for (int e = 0; e <= T + 1; e++)
            sum[e] += g->f[e];
    }
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (u->dominated && u->dominated[m])
            continue;
        /* past the deadline: the best so far, none when late at once */
        for (int s = md->s_min > est ? md->s_min : est;
             s <= md->s_max && s + md->slots <= lend && !cp_clock_late(u->clock); s++) {
            double d;
            if (!cp_usage_try(u, m, s, &d))
                continue;
            double v = d + sum[s + md->slots];
            /* strict: ties keep the earlier (mode, start) */
            if (v < pk->score - 1e-12) {
                pk->score = v;
                pk->cost = d;
                pk->mode = m;
                pk->start = s;
            }
        }
    }
    cp_free(sum);
    return pk->mode >= 0;
}

int cp_prec_enforce(const cp_prec *g, cp_usage *u, int *mode, int *start)
{
    int changed = 0;
    if (!g->any)
        return 0;
    for (int q = 0; q < g->in->n_jobs; q++) {
        int j = g->order[q], est, lend;
        if (mode[j] < 0)
            continue;
        /* a successor that starts too early is its own to fix (later in
         * the order), so only the predecessors' side counts here */
        bool alive = window_x(g, u->ms, mode, start, NULL, j, -1, &est, &lend);
        lend = INT_MAX;
        if (alive && start[j] >= est)
            continue;
        changed++;
        cp_usage_remove(u, mode[j], start[j]);
        int m, s;
        double c;
        if (alive && cp_usage_best_in(u, j, NULL, false, est, lend, &m, &s, &c) &&
            c < g->in->jobs[j].drop_penalty) {
            cp_usage_add(u, m, s);
            mode[j] = m;
            start[j] = s;
        } else {
            mode[j] = -1;
        }
    }
    return changed;
}
