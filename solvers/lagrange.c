/*
 * Lagrangian relaxation of the capacity rows (pools and markets, every
 * dimension and slot) and the site power-cap rows, by subgradient
 * optimization with Polyak steps. Under multipliers λ each job picks its
 * cheapest priced (mode, start) or its penalty on its own, and each
 * market rents its quota exactly when its instance costs less than the
 * prices its capacity earns, so L(λ) is a few passes over the columns:
 * a valid lower bound on the SPEC total at any λ >= 0 (the budget row is
 * left out, which only weakens the bound). It is the LP bound at the best
 * λ, found in seconds where the LP of a 10,000-job night would take
 * GLPK's simplex much longer, and its prices steer the priced heuristic.
 */
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <string.h>

typedef struct lag {
    const cp_input *in;
    const cp_modeset *ms;
    int T, n_res, n_sites;
    cp_usage u;          /* empty usage: capacities, allowances, prices */
    size_t *col_off;     /* [n_modes+1] offsets of (mode, start) columns */
    unsigned char *fits; /* [columns] start fits an empty resource */
    double *e;           /* [n_modes*T] $ of one full slot of a pool mode */
    double *lam, *pi;    /* multipliers being moved */
    double *g, *gp;      /* subgradients */
    double *dg;          /* previous direction */
    double *rs, *ps;     /* row scales: a unit's size in the row's dimension, a site's allowance */
    double *pa, *pb;     /* prefix sums, [T+1] */
    double constant;
} lag;

static void lag_release(lag *l)
{
    cp_usage_release(&l->u);
    cp_free(l->col_off);
    cp_free(l->fits);
    cp_free(l->e);
    cp_free(l->lam);
    cp_free(l->pi);
    cp_free(l->g);
    cp_free(l->dg);
    cp_free(l->rs);
    cp_free(l->ps);
    cp_free(l->gp);
    cp_free(l->pa);
    cp_free(l->pb);
}

static int lag_init(lag *l, const cp_input *in, const cp_modeset *ms)
{
    memset(l, 0, sizeof *l);
    l->in = in;
    l->ms = ms;
    l->T = in->slots;
    l->n_res = ms->n_res;
    l->n_sites = in->n_sites;
    if (cp_usage_init(&l->u, in, ms))
        return CP_ERR_NOMEM;
    size_t T = (size_t)l->T, nm = (size_t)ms->n_modes;
    size_t nrow = (size_t)(l->n_res ? l->n_res : 1) * CP_DIMS * T;
    size_t nsite = (size_t)(l->n_sites ? l->n_sites : 1) * T;
    l->col_off = cp_calloc(nm + 1, sizeof *l->col_off);
    l->e = cp_calloc((nm ? nm : 1) * T, sizeof *l->e);
    l->lam = cp_calloc(nrow, sizeof *l->lam);
    l->g = cp_calloc(nrow, sizeof *l->g);
    l->dg = cp_calloc(nrow, sizeof *l->dg);
    l->rs = cp_calloc(nrow, sizeof *l->rs);
    l->ps = cp_calloc(nsite, sizeof *l->ps);
    l->pi = cp_calloc(nsite, sizeof *l->pi);
    l->gp = cp_calloc(nsite, sizeof *l->gp);
    l->pa = cp_calloc(T + 1, sizeof *l->pa);
    l->pb = cp_calloc(T + 1, sizeof *l->pb);
    if (!l->col_off || !l->e || !l->lam || !l->g || !l->dg || !l->rs || !l->ps || !l->pi || !l->gp ||
        !l->pa || !l->pb)
        return CP_ERR_NOMEM;
    /* Rows count accelerators, cpus and GB, and watts: in such different
     * units one memory row would dominate every step. The subgradient is
     * taken on rows divided by one unit's size (one node's watts for
     * power), so each row moves at its own scale. */
    for (int r = 0; r < l->n_res; r++)
        for (int d = 0; d < CP_DIMS; d++) {
            double dim = cp_machine_dim(ms->res[r].mach, d);
            for (size_t t = 0; t < T; t++)
                l->rs[((size_t)r * CP_DIMS + (size_t)d) * T + t] = dim > 0 ? dim : 1;
        }
    for (int s = 0; s < l->n_sites; s++) {
        double w = 0;
        for (int r = 0; r < l->n_res; r++)
            if (ms->res[r].kind == CP_RES_POOL && ms->res[r].site == s) {
                double pw = ms->res[r].mach->power_w;
                w = pw > w ? pw : w;
            }
        for (size_t t = 0; t < T; t++)
            l->ps[(size_t)s * T + t] = w > 0 ? w : 1000;
    }
    for (size_t m = 0; m < nm; m++)
        l->col_off[m + 1] = l->col_off[m] + (size_t)(ms->modes[m].s_max - ms->modes[m].s_min + 1);
    l->fits = cp_calloc(l->col_off[nm] ? l->col_off[nm] : 1, 1);
    if (!l->fits)
        return CP_ERR_NOMEM;
    for (size_t m = 0; m < nm; m++) {
        const cp_mode *md = &ms->modes[m];
        const cp_resource *r = &ms->res[md->res];
        for (int s = md->s_min; s <= md->s_max; s++)
            l->fits[l->col_off[m] + (size_t)(s - md->s_min)] = cp_usage_start_fits(&l->u, (int)m, s);
        if (r->kind == CP_RES_POOL)
            for (int t = 0; t < l->T; t++)
                l->e[m * T + (size_t)t] = in->sites[r->site].pue * md->busy_w * in->slot_hours / 1000 *
                                          l->u.kwh_cost[(size_t)r->site * T + (size_t)t];
    }
    l->constant = cp_fixed_cost(in, ms);
    /* Start each market's rows at the price that makes its instance cost
     * exactly what its capacity earns, on the first dimension it has, so
     * the first bound is not the "cloud is free" one. */
    for (int r = 0; r < l->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        for (int d = 0; d < CP_DIMS; d++) {
            double dim = cp_machine_dim(res->mach, d);
            if (dim <= 0)
                continue;
            for (int t = 0; t < l->T; t++)
                l->lam[((size_t)r * CP_DIMS + (size_t)d) * T + (size_t)t] =
                    l->u.slot_cost[(size_t)r * T + (size_t)t] / dim;
            break;
        }
    }
    return CP_OK;
}

/* L(λ, π) and its subgradient (in l->g, l->gp). */
static double lag_eval(lag *l)
{
    const cp_input *in = l->in;
    const cp_modeset *ms = l->ms;
    size_t T = (size_t)l->T;
    size_t nrow = (size_t)l->n_res * CP_DIMS * T;
    double L = l->constant;
    memset(l->g, 0, nrow * sizeof *l->g);
    memset(l->gp, 0, (size_t)l->n_sites * T * sizeof *l->gp);
    for (int j = 0; j < in->n_jobs; j++) {
        if (ms->job_first[j] == ms->job_first[j + 1])
            continue; /* its penalty is in the constant */
        double best = in->jobs[j].drop_penalty;
        int bm = -1, bs = 0;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            if (l->u.dominated && l->u.dominated[m])
                continue;
            const cp_mode *md = &ms->modes[m];
            const cp_resource *r = &ms->res[md->res];
            bool pool = r->kind == CP_RES_POOL;
            int t_hi = md->s_max + md->slots; /* exclusive */
            const double *lam = &l->lam[(size_t)md->res * CP_DIMS * T];
            const double *e = &l->e[(size_t)m * T];
            const double *pi = pool ? &l->pi[(size_t)r->site * T] : NULL;
            l->pa[md->s_min] = l->pb[md->s_min] = 0;
            for (int t = md->s_min; t < t_hi; t++) {
                double a = 0;
                for (int d = 0; d < CP_DIMS; d++)
                    a += lam[(size_t)d * T + (size_t)t] * md->demand[d];
                l->pa[t + 1] = l->pa[t] + a;
                l->pb[t + 1] = l->pb[t] + (pool ? e[t] + pi[t] * md->busy_w : 0);
            }
            const unsigned char *fits = &l->fits[l->col_off[m]];
            for (int s = md->s_min; s <= md->s_max; s++) {
                if (!fits[s - md->s_min])
                    continue;
                int last = s + md->slots - 1;
                double v = l->pa[last + 1] - l->pa[s] + l->pb[last] - l->pb[s] +
                           md->last_frac * (l->pb[last + 1] - l->pb[last]) +
                           md->egress; /* SPEC 9.3: once per run */
                if (v < best) {
                    best = v;
                    bm = m;
                    bs = s;
                }
            }
        }
        L += best;
        if (bm < 0)
            continue;
        const cp_mode *md = &ms->modes[bm];
        const cp_resource *r = &ms->res[md->res];
        for (int i = 0; i < md->slots; i++) {
            size_t t = (size_t)(bs + i);
            for (int d = 0; d < CP_DIMS; d++)
                l->g[((size_t)md->res * CP_DIMS + (size_t)d) * T + t] += md->demand[d];
            if (r->kind == CP_RES_POOL && in->sites[r->site].power_cap_kw.set)
                l->gp[(size_t)r->site * T + t] += md->busy_w * (i == md->slots - 1 ? md->last_frac : 1.0);
        }
    }
    for (int r = 0; r < l->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        for (size_t t = 0; t < T; t++) {
            if (res->kind == CP_RES_POOL) {
                for (int d = 0; d < CP_DIMS; d++) {
                    size_t k = ((size_t)r * CP_DIMS + (size_t)d) * T + t;
                    double cap = cp_usage_cap(&l->u, r, d, (int)t);
                    L -= l->lam[k] * cap;
                    l->g[k] -= cap;
                }
            } else {
                double red = l->u.slot_cost[(size_t)r * T + t];
                for (int d = 0; d < CP_DIMS; d++)
                    red -= l->lam[((size_t)r * CP_DIMS + (size_t)d) * T + t] * cp_machine_dim(res->mach, d);
                double y = red < 0 ? cp_usage_quota(&l->u, r, (int)t) : 0;
                L += y * red;
                for (int d = 0; d < CP_DIMS; d++)
                    l->g[((size_t)r * CP_DIMS + (size_t)d) * T + t] -= y * cp_machine_dim(res->mach, d);
            }
        }
    }
    for (int s = 0; s < l->n_sites; s++) {
        if (!in->sites[s].power_cap_kw.set)
            continue;
        for (size_t t = 0; t < T; t++) {
            size_t k = (size_t)s * T + t;
            L -= l->pi[k] * l->u.allow[k];
            l->gp[k] -= l->u.allow[k];
        }
    }
    return L;
}

int cp_lagrange_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    double upper, double seconds, cp_lagrange *out, cp_err *err)
{
    double t_end = cp_now_seconds() + seconds;
    memset(out, 0, sizeof *out);
    out->bound = -INFINITY;
    lag l;
    if (lag_init(&l, in, ms)) {
        lag_release(&l);
        return cp_err_nomem(err);
    }
    size_t T = (size_t)l.T;
    size_t nrow = (size_t)l.n_res * CP_DIMS * T, nsite = (size_t)l.n_sites * T;
    if (l.u.n_dominated) {
        long cols = 0;
        for (int m = 0; m < ms->n_modes; m++)
            if (!l.u.dominated[m])
                cols += (long)(l.col_off[m + 1] - l.col_off[m]);
        cp_solver_log(opts, "reduction: %d dominated modes removed, %ld start columns left", l.u.n_dominated, cols);
    }
    out->cap = cp_calloc(nrow ? nrow : 1, sizeof *out->cap);
    out->power = cp_calloc(nsite ? nsite : 1, sizeof *out->power);
    if (!out->cap || !out->power) {
        lag_release(&l);
        cp_lagrange_release(out);
        return cp_err_nomem(err);
    }
    /* Moderate first steps, patient halving and a deflected direction
     * (the last direction's share alpha added to the subgradient, which
     * damps the zig-zag between rows): measured on the bench instances,
     * this reaches within 0.1-1 % of the LP bound where plain Polyak
     * steps stalled 3-20 % below it (docs/performance.md). */
    double theta = 0.5;
    const int patience = 50;
    const double alpha = 0.7;
    int since_best = 0;
    for (int it = 0; it < 100000; it++) {
        if ((opts->stop && *opts->stop) || cp_now_seconds() > t_end)
            break;
        double L = lag_eval(&l);
        out->iterations = it + 1;
        if (L > out->bound + 1e-9 * (1 + fabs(L))) {
            out->bound = L;
            memcpy(out->cap, l.lam, nrow * sizeof *l.lam);
            memcpy(out->power, l.pi, nsite * sizeof *l.pi);
            since_best = 0;
        } else if (++since_best >= patience) {
            theta /= 2;
            since_best = 0;
        }
        if (isfinite(upper) && upper - out->bound <= opts->gap * fabs(upper))
            break;
        if (theta < 1e-7)
            break;
        /* Polyak step toward the known plan's total; components held at
         * zero by the projection do not count in the norm. */
        double norm = 0;
        for (size_t k = 0; k < nrow; k++) {
            l.g[k] /= l.rs[k];
            if (l.lam[k] > 0 || l.g[k] > 0)
                norm += l.g[k] * l.g[k];
        }
        for (size_t k = 0; k < nsite; k++) {
            l.gp[k] /= l.ps[k];
            if (l.pi[k] > 0 || l.gp[k] > 0)
                norm += l.gp[k] * l.gp[k];
        }
        if (norm <= 0)
            break; /* the relaxed choice is feasible: L is optimal */
        double target = isfinite(upper) ? upper : L + fabs(L) * 0.1 + 1;
        for (size_t k = 0; k < nrow; k++) {
            l.g[k] += alpha * l.dg[k];
            l.dg[k] = l.g[k];
        }
        double step = theta * (target - L) / norm;
        for (size_t k = 0; k < nrow; k++) {
            double v = l.lam[k] + step * l.g[k] / l.rs[k];
            l.lam[k] = v > 0 ? v : 0;
        }
        for (size_t k = 0; k < nsite; k++) {
            double v = l.pi[k] + step * l.gp[k] / l.ps[k];
            l.pi[k] = v > 0 ? v : 0;
        }
    }
    cp_solver_log(opts, "lagrange: bound %.10g after %d iterations", out->bound, out->iterations);
    lag_release(&l);
    return CP_OK;
}

void cp_lagrange_release(cp_lagrange *l)
{
    cp_free(l->cap);
    cp_free(l->power);
    l->cap = l->power = NULL;
}
