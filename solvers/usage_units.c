/*
 * Concrete units in the usage: pool nodes and market instances, packed by
 * the one packing rule (packing.c) that placement uses too, so that a
 * plan built through the usage packs by construction (capplan.5 §5).
 *
 * A pool node is down in a slot when its index is not below the pool's
 * availability. Instance ids are labels (version 1.1): a market's y(t) is
 * the number of distinct ids in use in slot t, at most its quota, and a
 * job takes the id that adds the fewest paid instance-slots. The arrays
 * of a market hold every id it could ever need: an id is used only in
 * slots where fewer than the quota are in use, and a fresh id is taken
 * only when no used one is idle over the run, so at most the sum of the
 * quotas over the slots (and of the jobs' instances) are ever used.
 */
#include "usage_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_num.h"

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
    return cp_usage_quota_of(u, &u->ms->res[r], t);
}

static const int *limit_of(const cp_usage *u, int r)
{
    return is_pool(u, r) ? NULL : &u->qlim[(size_t)r * (size_t)u->T];
}

static const double *weight_of(const cp_usage *u, int r)
{
    return is_pool(u, r) ? NULL : &u->slot_cost[(size_t)r * (size_t)u->T];
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
    u->pack = cp_calloc(nr, sizeof *u->pack);
    u->qlim = cp_calloc(nr * T, sizeof *u->qlim);
    if (!u->nfree || !u->ncnt || !u->nunits || !u->junits || !u->jn || !u->pack || !u->qlim)
        return CP_ERR_NOMEM;
    /* Markets: never more ids than the quotas summed over the slots, nor
     * than the jobs that could use one hold together. */
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
            long q = 0;
            for (int t = 0; t < u->T; t++) {
                u->qlim[(size_t)r * T + (size_t)t] = quota_at(u, r, t);
                q += quota_at(u, r, t);
            }
            n = u->nunits[r] < q ? u->nunits[r] : (int)q;
        }
        u->nunits[r] = n;
        maxn = n > maxn ? n : maxn;
        double *f = u->nfree[r] = cp_calloc((size_t)(n ? n : 1) * CP_DIMS * T, sizeof *f);
        if (!f)
            return CP_ERR_NOMEM;
        if (res->kind != CP_RES_POOL && !(u->ncnt[r] = cp_calloc((size_t)(n ? n : 1) * T, sizeof(int))))
            return CP_ERR_NOMEM;
        /* nodes up in each slot, once a slot: the fill below is 30 million
         * cells on 1,000 nodes x 10,000 slots */
        int *up = cp_calloc(T, sizeof *up);
        if (!up)
            return CP_ERR_NOMEM;
        for (size_t t = 0; t < T; t++)
            up[t] = res->kind == CP_RES_POOL
                        ? cp_num_clamp_int(cp_series_at(&in->pools[res->index].available, (int)t), 0, n)
                        : n;
        for (int i = 0; i < n; i++)
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_machine_dim(res->mach, d);
                double *fi = &f[((size_t)i * CP_DIMS + (size_t)d) * T];
                for (size_t t = 0; t < T; t++)
                    fi[t] = i < up[t] ? cap : -1;
            }
        cp_free(up);
        bool market = res->kind != CP_RES_POOL;
        u->pack[r] = (cp_pack){res->mach, market, u->T, n, market ? 0 : n, f, u->ncnt[r],
                               market ? &u->y[(size_t)r * T] : NULL};
    }
    size_t cols = 1;
    for (int j = 0; j < in->n_jobs; j++) {
        size_t c = 0;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            c += (size_t)(ms->modes[m].s_max - ms->modes[m].s_min + 1);
        cols = c > cols ? c : cols;
    }
    for (int m = 0; m < ms->n_modes; m++)
        maxn = ms->modes[m].count + 1 > maxn ? ms->modes[m].count + 1 : maxn;
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
    cp_free(u->pack);
    cp_free(u->qlim);
    cp_free(u->pick);
    cp_free(u->amount);
    cp_free(u->cand);
}

int cp_usage_units_fit(const cp_usage *u, const cp_mode *m, int s, double *ydelta)
{
    return cp_pack_choose(&u->pack[m->res], u->in, m, s, limit_of(u, m->res), weight_of(u, m->res),
                          u->pick, u->amount, ydelta);
}

bool cp_usage_units_hold(const cp_usage *u, const cp_mode *m, int s, const int *units, int k)
{
    return cp_pack_holds(&u->pack[m->res], u->in, m, s, limit_of(u, m->res), units, k);
}

void cp_usage_units_take(cp_usage *u, const cp_mode *m, int s, const int *units, int k)
{
    u->spend += cp_pack_apply(&u->pack[m->res], u->in, m, s, units, k, 1, weight_of(u, m->res));
    memmove(u->junits[m->job], units, (size_t)k * sizeof(int));
    u->jn[m->job] = k;
}

void cp_usage_units_give(cp_usage *u, const cp_mode *m, int s)
{
    u->spend += cp_pack_apply(&u->pack[m->res], u->in, m, s, u->junits[m->job], u->jn[m->job], -1,
                              weight_of(u, m->res));
    u->jn[m->job] = 0;
}
