/*
 * Concrete units in the usage: pool nodes and market instances, packed by
 * placement.c's rules (a job that fits one unit goes on one; a larger one
 * takes whole units first and its remainder on one more; shares are one
 * accelerator's for training and whole machines for dataflow), so that a
 * plan built through the usage packs by construction (SPEC 5).
 *
 * A pool node is down in a slot when its index is not below the pool's
 * availability. A market's y(t) is one more than the highest instance in
 * use in slot t (instances are MARKET/i with i < y(t)), so the usage takes
 * the lowest-numbered instance that holds a job: that is also the one
 * that raises y the least.
 */
#include "usage_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define EPS CP_USAGE_EPS


static bool is_pool(const cp_usage *u, int r)
{
    return u->ms->res[r].kind == CP_RES_POOL;
}

static int quota_at(const cp_usage *u, int r, int t)
{
    return cp_usage_quota(u, r, t);
}

int cp_usage_units_init(cp_usage *u)
{
    const cp_input *in = u->in;
    const cp_modeset *ms = u->ms;
    size_t T = (size_t)u->T, nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    size_t nr = (size_t)(ms->n_res ? ms->n_res : 1);
    int maxn = 1;
    u->nfree = cp_calloc(nr, sizeof *u->nfree);
    u->ncnt = cp_calloc(nr, sizeof *u->ncnt);
    u->nunits = cp_calloc(nr, sizeof *u->nunits);
    u->junits = cp_calloc(nj, sizeof *u->junits);
    u->jn = cp_calloc(nj, sizeof *u->jn);
    if (!u->nfree || !u->ncnt || !u->nunits || !u->junits || !u->jn)
        return CP_ERR_NOMEM;
    /* Markets: never more instances than the largest quota, nor than
     * the jobs that could use one hold together. */
    for (int j = 0; j < in->n_jobs; j++) {
        int mc = 1;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            mc = ms->modes[m].count > mc ? ms->modes[m].count : mc;
        if (!(u->junits[j] = cp_calloc((size_t)mc, sizeof(int))))
            return CP_ERR_NOMEM;
        /* the most instances job j could hold on each market */
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            int r = ms->modes[m].res;
            if (is_pool(u, r) || (m > ms->job_first[j] && ms->modes[m - 1].res == r))
                continue;
            int most = 0;
            for (int k = m; k < ms->job_first[j + 1] && ms->modes[k].res == r; k++)
                most = ms->modes[k].count > most ? ms->modes[k].count : most;
            if (u->nunits[r] < INT_MAX - most)
                u->nunits[r] += most;
        }
    }
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        int n;
        if (res->kind == CP_RES_POOL) {
            n = in->pools[res->index].nodes;
        } else {
            int q = 0;
            for (int t = 0; t < u->T; t++)
                q = quota_at(u, r, t) > q ? quota_at(u, r, t) : q;
            n = u->nunits[r] < q ? u->nunits[r] : q;
        }
        u->nunits[r] = n;
        maxn = n > maxn ? n : maxn;
        double *f = u->nfree[r] = cp_calloc((size_t)(n ? n : 1) * CP_DIMS * T, sizeof *f);
        if (!f)
            return CP_ERR_NOMEM;
        if (res->kind != CP_RES_POOL && !(u->ncnt[r] = cp_calloc((size_t)(n ? n : 1) * T, sizeof(int))))
            return CP_ERR_NOMEM;
        for (int i = 0; i < n; i++)
            for (int d = 0; d < CP_DIMS; d++)
                for (size_t t = 0; t < T; t++) {
                    bool up = res->kind != CP_RES_POOL ||
                              i < (int)cp_series_at(&in->pools[res->index].available, (int)t);
                    f[((size_t)i * CP_DIMS + (size_t)d) * T + t] = up ? cp_machine_dim(res->mach, d) : -1;
                }
    }
    size_t cols = 1;
    for (int j = 0; j < in->n_jobs; j++) {
        size_t c = 0;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            c += (size_t)(ms->modes[m].s_max - ms->modes[m].s_min + 1);
        cols = c > cols ? c : cols;
    }
    for (int m = 0; m < ms->n_modes; m++)
        maxn = ms->modes[m].count > maxn ? ms->modes[m].count : maxn;
    u->pick = cp_calloc((size_t)maxn, sizeof *u->pick);
    u->amount = cp_calloc((size_t)maxn, sizeof *u->amount);
    u->cand = cp_calloc(cols, sizeof *u->cand);
    if (!u->pick || !u->amount || !u->cand)
        return CP_ERR_NOMEM;
    u->nodes = true;
    return CP_OK;
}

void cp_usage_units_release(cp_usage *u)
{
    for (int r = 0; u->ms && r < u->ms->n_res; r++) {
        if (u->nfree)
            cp_free(u->nfree[r]);
        if (u->ncnt)
            cp_free(u->ncnt[r]);
    }
    cp_free(u->nfree);
    cp_free(u->ncnt);
    cp_free(u->nunits);
    if (u->junits)
        for (int j = 0; j < u->in->n_jobs; j++)
            cp_free(u->junits[j]);
    cp_free(u->junits);
    cp_free(u->jn);
    cp_free(u->pick);
    cp_free(u->amount);
    cp_free(u->cand);
}

/* Shares of a mode: one accelerator's for training, whole machines for
 * dataflow; *full is how many shares one unit holds. */
static int shares(const cp_usage *u, const cp_mode *m, double per[CP_DIMS], int *full)
{
    const cp_machine *mach = u->ms->res[m->res].mach;
    bool training = u->in->jobs[m->job].kind == CP_JOB_TRAINING;
    for (int d = 0; d < CP_DIMS; d++)
        per[d] = training ? m->demand[d] / m->count : cp_machine_dim(mach, d);
    *full = INT_MAX;
    for (int d = 0; d < CP_DIMS; d++)
        if (per[d] > 0) {
            int a = cp_floor_int(cp_machine_dim(mach, d) / per[d] + EPS);
            *full = a < *full ? a : *full;
        }
    return m->count;
}

/* Shares on each of k units: whole units first, the remainder last. */
static void amounts(const cp_usage *u, const cp_mode *m, int k, int *amount)
{
    double per[CP_DIMS];
    int full, n = shares(u, m, per, &full);
    for (int q = 0; q < k; q++)
        amount[q] = k == 1 ? n : q < k - 1 ? full : n - full * (k - 1);
}

/* Shares unit i of resource r can take over [s, s+len), capped at want;
 * 0 when it is down in one of the slots. */
static int room(const cp_usage *u, int r, int i, int s, int len, const double per[CP_DIMS], int want)
{
    const double *f = u->nfree[r];
    size_t T = (size_t)u->T;
    int best = want;
    for (int d = 0; d < CP_DIMS; d++) {
        const double *fd = &f[((size_t)i * CP_DIMS + (size_t)d) * T];
        for (int t = s; t < s + len; t++) {
            if (fd[t] < 0)
                return 0;
            if (per[d] <= 0)
                continue;
            int a = cp_floor_int(fd[t] / per[d] + EPS);
            if (a < best) {
                if (a <= 0)
                    return 0;
                best = a;
            }
        }
    }
    return best;
}

/* Whether unit i of market r is idle over [s, s+len). */
static bool idle(const cp_usage *u, int r, int i, int s, int len)
{
    const int *c = &u->ncnt[r][(size_t)i * u->T];
    for (int t = s; t < s + len; t++)
        if (c[t])
            return false;
    return true;
}

/* Units a market mode may use in its run: below the quota in every slot. */
static int market_limit(const cp_usage *u, const cp_mode *m, int s)
{
    int n = u->nunits[m->res];
    for (int t = s; t < s + m->slots; t++)
        if (quota_at(u, m->res, t) < n)
            n = quota_at(u, m->res, t);
    return n;
}

static bool picked(const cp_usage *u, int k, int i)
{
    for (int q = 0; q < k; q++)
        if (u->pick[q] == i)
            return true;
    return false;
}

int cp_usage_units_fit(const cp_usage *u, const cp_mode *m, int s, double *ydelta)
{
    const cp_resource *res = &u->ms->res[m->res];
    bool pool = res->kind == CP_RES_POOL;
    int n = pool ? u->nunits[m->res] : market_limit(u, m, s), full;
    double per[CP_DIMS];
    int want = shares(u, m, per, &full);
    size_t T = (size_t)u->T;
    int k = 0;
    *ydelta = 0;
    if (cp_units_needed(m->demand, res->mach) <= 1) {
        int best = -1;
        double best_left = INFINITY;
        for (int i = 0; i < n; i++) {
            if (room(u, m->res, i, s, m->slots, per, want) < want)
                continue;
            if (!pool) { /* the lowest instance raises y the least */
                best = i;
                break;
            }
            double left = 0;
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_machine_dim(res->mach, d);
                if (cap <= 0)
                    continue;
                const double *fd = &u->nfree[m->res][((size_t)i * CP_DIMS + (size_t)d) * T];
                double mn = INFINITY;
                for (int t = s; t < s + m->slots; t++)
                    mn = fd[t] < mn ? fd[t] : mn;
                left += (mn - m->demand[d]) / cap;
            }
            if (left < best_left - 1e-12) {
                best_left = left;
                best = i;
            }
        }
        if (best < 0)
            return 0;
        u->pick[0] = best;
        u->amount[0] = want;
        k = 1;
    } else {
        int left = want;
        for (int i = 0; i < n && left >= full && full > 0; i++) {
            bool whole = pool ? room(u, m->res, i, s, m->slots, per, full) >= full
                              : idle(u, m->res, i, s, m->slots);
            if (whole) {
                u->pick[k] = i;
                u->amount[k++] = full;
                left -= full;
            }
        }
        if (left > 0) {
            int best = -1, best_room = INT_MAX;
            for (int i = 0; i < n; i++) {
                if (picked(u, k, i))
                    continue;
                int rm = room(u, m->res, i, s, m->slots, per, full);
                if (rm >= left && rm < best_room) {
                    best_room = rm;
                    best = i;
                    if (!pool)
                        break;
                }
            }
            if (best < 0)
                return 0;
            u->pick[k] = best;
            u->amount[k++] = left;
        }
    }
    if (!pool) {
        int top = 0;
        for (int q = 0; q < k; q++)
            top = u->pick[q] + 1 > top ? u->pick[q] + 1 : top;
        for (int t = s; t < s + m->slots; t++) {
            int y = u->y[(size_t)m->res * T + (size_t)t];
            if (top > y)
                *ydelta += (top - y) * u->slot_cost[(size_t)m->res * T + (size_t)t];
        }
    }
    return k;
}

bool cp_usage_units_hold(const cp_usage *u, const cp_mode *m, int s, const int *units, int k)
{
    double per[CP_DIMS];
    int full;
    shares(u, m, per, &full);
    int limit = u->ms->res[m->res].kind == CP_RES_POOL ? u->nunits[m->res] : market_limit(u, m, s);
    if (k < 1 || k > m->count)
        return false;
    amounts(u, m, k, u->amount);
    for (int q = 0; q < k; q++) {
        int a;
        if (units[q] < 0 || units[q] >= limit)
            return false;
        for (int p = 0; p < q; p++)
            if (units[p] == units[q])
                return false;
        a = u->amount[q];
        if (a < 1 || room(u, m->res, units[q], s, m->slots, per, a) < a)
            return false;
    }
    return true;
}

static void lower_y(cp_usage *u, int r, int t)
{
    size_t T = (size_t)u->T;
    int *y = &u->y[(size_t)r * T + (size_t)t];
    int ny = *y;
    while (ny > 0 && u->ncnt[r][(size_t)(ny - 1) * T + (size_t)t] == 0)
        ny--;
    u->spend += (ny - *y) * u->slot_cost[(size_t)r * T + (size_t)t];
    *y = ny;
}

static void share_apply(cp_usage *u, const cp_mode *m, int s, const int *units, const int *amount, int k,
                        double sign)
{
    double per[CP_DIMS];
    int full;
    shares(u, m, per, &full);
    size_t T = (size_t)u->T;
    for (int q = 0; q < k; q++) {
        for (int d = 0; d < CP_DIMS; d++) {
            double *fd = &u->nfree[m->res][((size_t)units[q] * CP_DIMS + (size_t)d) * T];
            for (int t = s; t < s + m->slots; t++)
                fd[t] -= sign * amount[q] * per[d];
        }
        if (u->ncnt[m->res])
            for (int t = s; t < s + m->slots; t++)
                u->ncnt[m->res][(size_t)units[q] * T + (size_t)t] += sign > 0 ? 1 : -1;
    }
}

void cp_usage_units_take(cp_usage *u, const cp_mode *m, int s, const int *units, int k)
{
    int amount_buf[64], *amount = k <= 64 ? amount_buf : u->amount;
    amounts(u, m, k, amount);
    share_apply(u, m, s, units, amount, k, 1.0);
    memmove(u->junits[m->job], units, (size_t)k * sizeof(int));
    u->jn[m->job] = k;
    if (u->ms->res[m->res].kind == CP_RES_POOL)
        return;
    size_t T = (size_t)u->T;
    int top = 0;
    for (int q = 0; q < k; q++)
        top = units[q] + 1 > top ? units[q] + 1 : top;
    for (int t = s; t < s + m->slots; t++) {
        int *y = &u->y[(size_t)m->res * T + (size_t)t];
        if (top > *y) {
            u->spend += (top - *y) * u->slot_cost[(size_t)m->res * T + (size_t)t];
            *y = top;
        }
    }
}

void cp_usage_units_give(cp_usage *u, const cp_mode *m, int s)
{
    int k = u->jn[m->job];
    int amount_buf[64], *amount = k <= 64 ? amount_buf : u->amount;
    amounts(u, m, k, amount);
    share_apply(u, m, s, u->junits[m->job], amount, k, -1.0);
    u->jn[m->job] = 0;
    if (u->ms->res[m->res].kind != CP_RES_POOL)
        for (int t = s; t < s + m->slots; t++)
            lower_y(u, m->res, t);
}
