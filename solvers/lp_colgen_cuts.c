/*
 * Lifting rows for the LP of lp_colgen.c: valid inequalities that every
 * plan with a concrete placement (capplan.5 §5: a job that fits one node or
 * instance is placed on one, no unit over capacity in any slot) meets but
 * the aggregate LP does not, so the bound rises where packing makes the
 * aggregate LP weak (cloud-heavy nights: the LP rents an eighth of an
 * 8-GPU instance for a 1-GPU job).
 *
 * Two families, separated at the master's solution once the LP is solved
 * and then priced like any other row (lp_colgen_price.c):
 *
 * - Big shares, per resource r, dimension d and slot t: a one-unit job
 *   that needs more than half of a unit in d cannot share its unit with
 *   another such job, and two that need exactly half fill one. With
 *   f(a) = 1 above 1/2, 1/2 at 1/2, 0 below (a dual-feasible function:
 *   the f of the jobs on one unit add up to at most 1),
 *       sum f(share_d) x <= y(r,t)   on a market,
 *       sum f(share_d) x <= N(r,t)   on a pool (its available nodes).
 *   A job spread over several units may split its demand in any
 *   integral way (capplan.5 §5), so it can avoid every big share: it counts 0.
 * - Job rows, per job j, market r and slot t: a run of j on r in t needs
 *   at least ceil(shares / shares per unit) instances (1 for a one-unit
 *   job), whatever else runs there:
 *       sum over j's columns on r covering t of need·x <= y(r,t).
 *   (On a pool the right side is a constant at least every run's need,
 *   so the family is for markets only.)
 *
 * Both hold for every placed plan, not for every plan of the aggregate
 * model of capplan.5 §3, which is why the exported model (milp_model.c) does
 * not carry them: its LP relaxation stays the one tests/suite_lp.sh
 * compares with glpsol, and CBC's or HiGHS's optimum of it is the
 * aggregate optimum the bench compares with (docs/performance.md).
 */
#include "lp_colgen_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_packing.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row is added when the master violates it by more than this (in
 * instances or nodes). */
#define CUT_TOL 1e-6
/* Rows added at most per separation (the most violated are not sought:
 * they come in scan order, which is deterministic). */
#define CUT_MAX_ROUND 20000

static double share_f(double a)
{
    if (a > 0.5 + 1e-9)
        return 1;
    if (a >= 0.5 - 1e-9)
        return 0.5;
    return 0;
}

int cp_cg_cuts_init(cg *c)
{
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T, nm = (size_t)(ms->n_modes ? ms->n_modes : 1);
    size_t nrr = (size_t)(c->n_res ? c->n_res : 1) * CP_DIMS * T;
    c->half = cp_calloc(nm * CP_DIMS, sizeof *c->half);
    c->need = cp_calloc(nm, sizeof *c->need);
    c->b_row = cp_calloc(nrr, sizeof *c->b_row);
    c->p_b = cp_calloc(nrr, sizeof *c->p_b);
    c->a_head = cp_calloc((size_t)(c->n_jobs ? c->n_jobs : 1), sizeof *c->a_head);
    c->p_ay = cp_calloc((size_t)(c->n_res ? c->n_res : 1) * T, sizeof *c->p_ay);
    c->w = cp_calloc(T + 1, sizeof *c->w);
    if (!c->half || !c->need || !c->b_row || !c->p_b || !c->a_head || !c->p_ay || !c->w)
        return CP_ERR_NOMEM;
    for (int j = 0; j < c->n_jobs; j++)
        c->a_head[j] = -1;
    for (int m = 0; m < ms->n_modes; m++) {
        const cp_mode *md = &ms->modes[m];
        const cp_machine *mach = ms->res[md->res].mach;
        double per[CP_DIMS];
        int full;
        int n = cp_pack_shares(c->in, md, mach, per, &full);
        if (n <= 0 || full <= 0 || full == INT_MAX)
            continue; /* no demand: it needs no unit */
        if (n > full) {
            c->need[m] = (n + full - 1) / full;
            continue;
        }
        c->need[m] = 1;
        for (int d = 0; d < CP_DIMS; d++) {
            double dim = cp_machine_dim(mach, d);
            if (dim > 0 && md->demand[d] > 0)
                c->half[(size_t)m * CP_DIMS + (size_t)d] = share_f(md->demand[d] / dim);
        }
    }
    return CP_OK;
}

int cp_cg_cuts_col(const cg *c, int m, int s, int n, int *ind, double *val)
{
    if (!c->b_row)
        return n;
    const cp_mode *md = &c->ms->modes[m];
    size_t T = (size_t)c->T;
    const double *half = &c->half[(size_t)m * CP_DIMS];
    for (int t = s; t < s + md->slots; t++)
        for (int d = 0; d < CP_DIMS; d++) {
            int row = c->b_row[((size_t)md->res * CP_DIMS + (size_t)d) * T + (size_t)t];
            if (row && half[d] > 0) {
                ind[++n] = row;
                val[n] = half[d];
            }
        }
    for (int k = c->a_head[md->job]; k >= 0; k = c->a_next[k])
        if (c->a_res[k] == md->res && c->a_t[k] >= s && c->a_t[k] < s + md->slots) {
            double v = c->a_coef[k] * (c->a_need[k] ? c->need[m] : 1);
            if (v != 0) {
                ind[++n] = c->a_row[k];
                val[n] = v;
            }
        }
    return n;
}

/* Pool r's nodes available in slot t. */
static double pool_nodes(const cg *c, int r, int t)
{
    const cp_machine *mach = c->ms->res[r].mach;
    for (int d = 0; d < CP_DIMS; d++) {
        double dim = cp_machine_dim(mach, d);
        if (dim > 0)
            return floor(cp_usage_cap(&c->u, r, d, t) / dim + 1e-9);
    }
    return 0;
}

static double y_value(const cg *c, glp_prob *P, int r, size_t t)
{
    int yc = c->y_col[(size_t)r * (size_t)c->T + t];
    return yc > 0 ? glp_get_col_prim(P, yc) : 0;
}

static int grow_int(int **p, size_t cap)
{
    int *q = cp_reallocarray(*p, cap, sizeof *q);
    if (!q)
        return CP_ERR_NOMEM;
    *p = q;
    return CP_OK;
}

static int add_entry(cg *c, int j, int r, int t, int row, double coef, bool need)
{
    if ((size_t)c->n_a >= c->cap_a) {
        size_t cap = c->cap_a ? 2 * c->cap_a : 256;
        double *q = cp_reallocarray(c->a_coef, cap, sizeof *q);
        if (q)
            c->a_coef = q;
        unsigned char *u = q ? cp_reallocarray(c->a_need, cap, 1) : NULL;
        if (u)
            c->a_need = u;
        if (!u || grow_int(&c->a_job, cap) || grow_int(&c->a_res, cap) || grow_int(&c->a_t, cap) ||
            grow_int(&c->a_row, cap) || grow_int(&c->a_next, cap))
            return CP_ERR_NOMEM;
        c->cap_a = cap;
    }
    int k = c->n_a++;
    c->a_job[k] = j;
    c->a_res[k] = r;
    c->a_t[k] = t;
    c->a_row[k] = row;
    c->a_coef[k] = coef;
    c->a_need[k] = need;
    c->a_next[k] = c->a_head[j];
    c->a_head[j] = k;
    return CP_OK;
}

typedef struct trip {
    int row, col;
    double v;
} trip;

static int trip_cmp(const void *a, const void *b)
{
    const trip *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/* The new rows [first, n_rows] into P: bounds and every entry (the
 * master's x columns through cp_cg_cuts_col, y(r,t) with row_y). */
static int load_new_rows(cg *c, glp_prob *P, int first, const int *row_res, const int *row_t,
                         const double *row_y)
{
    const cp_modeset *ms = c->ms;
    int n_new = c->n_rows - first + 1;
    size_t n_t = 0, cap_t = 0;
    trip *tr = NULL;
    int rc = CP_OK;
    glp_add_rows(P, n_new);
    for (int i = first; i <= c->n_rows; i++) {
        glp_set_row_bnds(P, i, GLP_UP, 0.0, c->rhs[i]);
        int r = row_res[i - first];
        if (row_y[i - first] != 0) {
            if (CP_GROW(tr, cap_t, n_t + 1)) {
                rc = CP_ERR_NOMEM;
                goto out;
            }
            tr[n_t++] = (trip){i, c->y_col[(size_t)r * (size_t)c->T + (size_t)row_t[i - first]],
                               row_y[i - first]};
        }
    }
    for (int m = 0; m < ms->n_modes; m++) {
        const cp_mode *md = &ms->modes[m];
        for (int s = md->s_min; s <= md->s_max; s++) {
            int col = c->in_mp[c->col_off[m] + (size_t)(s - md->s_min)];
            if (!col)
                continue;
            int n = cp_cg_cuts_col(c, m, s, 0, c->ind, c->val);
            for (int q = 1; q <= n; q++) {
                if (c->ind[q] < first)
                    continue;
                if (CP_GROW(tr, cap_t, n_t + 1)) {
                    rc = CP_ERR_NOMEM;
                    goto out;
                }
                tr[n_t++] = (trip){c->ind[q], col, c->val[q]};
            }
        }
    }
    qsort(tr, n_t, sizeof *tr, trip_cmp);
    int *ind = cp_calloc(n_t + 2, sizeof *ind);
    double *val = cp_calloc(n_t + 2, sizeof *val);
    if (!ind || !val) {
        cp_free(ind);
        cp_free(val);
        rc = CP_ERR_NOMEM;
        goto out;
    }
    for (size_t a = 0, b; a < n_t; a = b) {
        int n = 0;
        for (b = a; b < n_t && tr[b].row == tr[a].row; b++) {
            ind[++n] = tr[b].col;
            val[n] = tr[b].v;
        }
        glp_set_mat_row(P, tr[a].row, n, ind, val);
    }
    cp_free(ind);
    cp_free(val);
out:
    cp_free(tr);
    return rc;
}

/* New rows found so far: their resource, slot and y coefficient. */
typedef struct found {
    int n;
    int res[CUT_MAX_ROUND], t[CUT_MAX_ROUND];
    double y[CUT_MAX_ROUND];
} found;

static int new_row(cg *c, found *f, int r, int t, double ycoef, double rhs)
{
    if (cp_cg_grow_rows(c, c->n_rows + 1))
        return CP_ERR_NOMEM;
    c->rhs[++c->n_rows] = rhs;
    f->res[f->n] = r;
    f->t[f->n] = t;
    f->y[f->n++] = ycoef;
    return CP_OK;
}

/* Least share of a unit in d of job j's modes on r. */
static double least_share(const cg *c, int j, int r, int d)
{
    const cp_modeset *ms = c->ms;
    double dim = cp_machine_dim(ms->res[r].mach, d), a = INFINITY;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
        if (ms->modes[m].res == r && cp_cg_mode_on(c, m))
            a = fmin(a, ms->modes[m].demand[d] / dim);
    return isfinite(a) ? a : 0;
}

/* Job j's run on market r in t, for the rounding rows. */
typedef struct run {
    int job;
    double z; /* sum of x */
} run;

/* A rounding row over S = runs[0..n) in dimension d of (r, t) when the
 * master violates it. */
static int rounding_row(cg *c, glp_prob *P, found *f, int r, int d, int t, const run *S, int n)
{
    double aS = 0, az = 0;
    for (int i = 0; i < n; i++) {
        double a = least_share(c, S[i].job, r, d);
        aS += a;
        az += a * S[i].z;
    }
    double k = ceil(aS - 1e-9), frac = aS - (k - 1);
    if (aS <= 1e-9 || frac < 1e-6 || frac > 1 - 1e-6 || f->n >= CUT_MAX_ROUND)
        return CP_OK;
    if (az - frac * y_value(c, P, r, (size_t)t) <= aS - frac * k + CUT_TOL)
        return CP_OK;
    if (new_row(c, f, r, t, -frac, aS - frac * k))
        return CP_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        if (add_entry(c, S[i].job, r, t, c->n_rows, least_share(c, S[i].job, r, d), false))
            return CP_ERR_NOMEM;
    if ((size_t)c->n_c >= c->cap_c) {
        size_t cap = c->cap_c ? 2 * c->cap_c : 256;
        double *v = cp_reallocarray(c->c_frac, cap, sizeof *v);
        if (v)
            c->c_frac = v;
        if (!v || grow_int(&c->c_res, cap) || grow_int(&c->c_t, cap) || grow_int(&c->c_row, cap))
            return CP_ERR_NOMEM;
        c->cap_c = cap;
    }
    c->c_res[c->n_c] = r;
    c->c_t[c->n_c] = t;
    c->c_row[c->n_c] = c->n_rows;
    c->c_frac[c->n_c++] = frac;
    return CP_OK;
}

static int run_cmp(const void *a, const void *b)
{
    const run *x = a, *y = b;
    if (x->z != y->z)
        return x->z > y->z ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

/* The rounding rows of every market slot and dimension: S is the prefix
 * of the jobs running there, by decreasing z, that the master violates
 * most (the whole set is weak when a job runs there only a little). */
static int separate_rounding(cg *c, glp_prob *P, found *f, run *const *by_rt, const int *n_rt)
{
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    for (int r = 0; r < c->n_res; r++) {
        if (ms->res[r].kind == CP_RES_POOL)
            continue;
        for (size_t t = 0; t < T; t++) {
            size_t rt = (size_t)r * T + t;
            int n = n_rt[rt];
            if (!n)
                continue;
            run *S = by_rt[rt];
            qsort(S, (size_t)n, sizeof *S, run_cmp);
            double y = y_value(c, P, r, t);
            for (int d = 0; d < CP_DIMS; d++) {
                if (cp_machine_dim(ms->res[r].mach, d) <= 0)
                    continue;
                double aS = 0, az = 0, most = CUT_TOL;
                int best = 0;
                for (int i = 0; i < n; i++) {
                    double a = least_share(c, S[i].job, r, d);
                    aS += a;
                    az += a * S[i].z;
                    double k = ceil(aS - 1e-9), frac = aS - (k - 1);
                    if (frac < 1e-6 || frac > 1 - 1e-6)
                        continue;
                    double v = az - frac * y - (aS - frac * k);
                    if (v > most) {
                        most = v;
                        best = i + 1;
                    }
                }
                if (best && rounding_row(c, P, f, r, d, (int)t, S, best))
                    return CP_ERR_NOMEM;
            }
        }
    }
    return CP_OK;
}

int cp_cg_cuts_separate(cg *c, glp_prob *P, int *added)
{
    *added = 0;
    if (!c->b_row && cp_cg_cuts_init(c))
        return CP_ERR_NOMEM;
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T, nrt = (size_t)(c->n_res ? c->n_res : 1) * T;
    double *big = cp_calloc(nrt * CP_DIMS, sizeof *big);
    double *own = cp_calloc(nrt, sizeof *own), *zsum = cp_calloc(nrt, sizeof *zsum);
    int *touched = cp_calloc(nrt, sizeof *touched);
    int *n_rt = cp_calloc(nrt, sizeof *n_rt);
    size_t *cap_rt = cp_calloc(nrt, sizeof *cap_rt);
    run **by_rt = cp_calloc(nrt, sizeof *by_rt);
    found *f = cp_calloc(1, sizeof *f);
    int rc = CP_OK, first = c->n_rows + 1;
    if (!big || !own || !zsum || !touched || !n_rt || !cap_rt || !by_rt || !f) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    /* job rows, and each job's runs per market slot for the rounding rows */
    for (int j = 0; j < c->n_jobs; j++) {
        int n_touched = 0;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            const cp_mode *md = &ms->modes[m];
            bool market = ms->res[md->res].kind != CP_RES_POOL;
            for (int s = md->s_min; s <= md->s_max; s++) {
                int col = c->in_mp[c->col_off[m] + (size_t)(s - md->s_min)];
                double x = col ? glp_get_col_prim(P, col) : 0;
                if (x <= 1e-9)
                    continue;
                for (int t = s; t < s + md->slots; t++) {
                    size_t rt = (size_t)md->res * T + (size_t)t;
                    for (int d = 0; d < CP_DIMS; d++)
                        big[((size_t)md->res * CP_DIMS + (size_t)d) * T + (size_t)t] +=
                            c->half[(size_t)m * CP_DIMS + (size_t)d] * x;
                    if (market) {
                        if (zsum[rt] == 0)
                            touched[n_touched++] = (int)rt;
                        zsum[rt] += x;
                        own[rt] += c->need[m] * x;
                    }
                }
            }
        }
        for (int q = 0; q < n_touched; q++) {
            size_t rt = (size_t)touched[q];
            int r = (int)(rt / T), t = (int)(rt % T);
            double lhs = own[rt], z = zsum[rt];
            own[rt] = zsum[rt] = 0;
            if (CP_GROW(by_rt[rt], cap_rt[rt], (size_t)n_rt[rt] + 1)) {
                rc = CP_ERR_NOMEM;
                goto out;
            }
            by_rt[rt][n_rt[rt]++] = (run){j, z};
            if (lhs <= y_value(c, P, r, (size_t)t) + CUT_TOL || f->n >= CUT_MAX_ROUND)
                continue;
            bool have = false;
            for (int k = c->a_head[j]; k >= 0 && !have; k = c->a_next[k])
                have = c->a_need[k] && c->a_res[k] == r && c->a_t[k] == t;
            if (have)
                continue;
            if (new_row(c, f, r, t, -1.0, 0.0) || add_entry(c, j, r, t, c->n_rows, 1.0, true)) {
                rc = CP_ERR_NOMEM;
                goto out;
            }
            c->n_jobrows++;
        }
    }
    /* big shares */
    for (int r = 0; r < c->n_res; r++) {
        bool pool = ms->res[r].kind == CP_RES_POOL;
        for (int d = 0; d < CP_DIMS; d++)
            for (size_t t = 0; t < T; t++) {
                size_t k = ((size_t)r * CP_DIMS + (size_t)d) * T + t;
                if (big[k] <= CUT_TOL || c->b_row[k] || f->n >= CUT_MAX_ROUND)
                    continue;
                double rhs = pool ? pool_nodes(c, r, (int)t) : y_value(c, P, r, t);
                if (big[k] <= rhs + CUT_TOL)
                    continue;
                if (new_row(c, f, r, (int)t, pool ? 0.0 : -1.0, pool ? rhs : 0.0)) {
                    rc = CP_ERR_NOMEM;
                    goto out;
                }
                c->b_row[k] = c->n_rows;
            }
    }
    rc = separate_rounding(c, P, f, by_rt, n_rt);
    if (rc == CP_OK && f->n)
        rc = load_new_rows(c, P, first, f->res, f->t, f->y);
    *added = f->n;
out:
    for (size_t rt = 0; by_rt && rt < nrt; rt++)
        cp_free(by_rt[rt]);
    cp_free(by_rt);
    cp_free(cap_rt);
    cp_free(n_rt);
    cp_free(big);
    cp_free(own);
    cp_free(zsum);
    cp_free(touched);
    cp_free(f);
    return rc;
}
