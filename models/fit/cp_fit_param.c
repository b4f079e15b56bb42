/*
 * Parameter-dependent Ernest models (see cp_fit_param.h).
 *
 * Numerical choices, and why:
 * - Runs are collapsed to configurations (mean seconds, weight √count).
 *   Least squares on the runs and on the weighted means have the same
 *   optimum (the within-configuration scatter is a constant), and C3O
 *   repeats every configuration 5 times, so each NNLS is 5x smaller.
 * - Relative errors: rows are divided by the configuration's mean seconds.
 *   MAPE is what is judged, and C3O's runtimes span 100 s to 4,000 s: on
 *   squared seconds the slow configurations decide the fit and the fast
 *   ones get 30 % errors. (The plain Ernest baseline keeps squared
 *   seconds, as `fit dataflow` always has.)
 * - Columns are scaled to unit 2-norm before every NNLS and the solution
 *   scaled back. NNLS's optimum does not change under a positive column
 *   scaling, but its rounding does: products like k·observations reach
 *   1e9 next to ln m ≈ 1, and both the rank test of the QR subproblems
 *   (|R_jj| <= 1e-12 max |R_ii|) and the gradient tolerance compare the
 *   columns with each other, so unscaled a genuine small column would be
 *   taken for a dependent one. Scaled, the QR's R has a condition number
 *   set by the geometry of the columns alone.
 * - Terms are chosen by grouped K-fold cross-validation (a configuration's
 *   runs always in one fold), forward: the candidate that lowers the CV
 *   MAPE most is added while it lowers it by at least 1 % of its value and
 *   0.05 points. Candidates within 1e-9 (relative) of each other count as
 *   a tie and the first in enumeration order wins, so rounding differences
 *   between BLAS kernels cannot change which term is chosen unless two
 *   candidates differ by less than that. K-fold (not leave-one-out) for
 *   the search because it runs ~260 candidates per step.
 * - The reported leave-one-configuration-out and largest-size figures
 *   repeat the search without the held-out runs (nested) for groups of up
 *   to NESTED_MAX configurations; on larger groups that would take minutes
 *   (pagerank: 270 searches of 2 s), so there the terms chosen on all runs
 *   are refitted per fold, slightly optimistic (measured on sort, 42
 *   configurations: nested 7.4 %, refitted 6.9 %).
 */
#include "cp_fit_param.h"

#include "cp_alloc.h"
#include "cp_nnls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BASE 4
#define MIN_GAIN_REL 0.01
#define MIN_GAIN_ABS 0.05
#define TIE_REL 1e-9
/* fold of a configuration left out of everything (nested validation) */
#define EXCLUDED -2
/* Up to this many configurations the leave-one-configuration-out figure
 * repeats the term search inside every fold (about nc times the search:
 * 1 s for sort's 42); above, the terms chosen on all runs are refitted. */
#define NESTED_MAX 60

void cp_pm_opts_init(cp_pm_opts *o)
{
    o->max_terms = CP_PM_MAX_TERMS;
    o->folds = 10;
    o->loco = true;
    o->donor = NULL;
}

typedef struct group {
    int n, nc, nf, ncand;
    const double *y; /* runs */
    int *cfg;        /* run -> configuration */
    double *cm, *cs, *cy, *cn; /* per configuration */
    double *F;       /* nc x nf factor values */
    bool *fvalid;    /* nf */
    cp_pm_term *cand;
    double *X;       /* nc x ncand */
    double *w_rel, *w_abs; /* row weights: relative (model), seconds (Ernest) */
    /* work */
    double *A, *b, *x, *scale, *pred, *ape_c;
    int *fold, *rows_c;
} group;

static void group_free(group *g)
{
    cp_free(g->cfg);
    cp_free(g->cm);
    cp_free(g->cs);
    cp_free(g->cy);
    cp_free(g->cn);
    cp_free(g->F);
    cp_free(g->fvalid);
    cp_free(g->cand);
    cp_free(g->X);
    cp_free(g->w_rel);
    cp_free(g->w_abs);
    cp_free(g->A);
    cp_free(g->b);
    cp_free(g->x);
    cp_free(g->scale);
    cp_free(g->pred);
    cp_free(g->ape_c);
    cp_free(g->fold);
    cp_free(g->rows_c);
}

static double basis(int b, double m)
{
    switch (b) {
    case 0:
        return 1;
    case 1:
        return 1 / m;
    case 2:
        return log(m);
    default:
        return m;
    }
}

/* Factor f of one configuration or concrete job: s = input_gb, p the
 * fit's parameter values. */
static double factor(const cp_pm_fit *f, int k, double s, const double *p)
{
    if (k == 0)
        return s;
    int i = (k - 1) / 3;
    switch ((k - 1) % 3) {
    case 0:
        return p[i];
    case 1:
        return log(p[i] / f->pmin[i]);
    default:
        return log(f->pmax[i] / p[i]);
    }
}

static double term_value(const cp_pm_fit *f, const cp_pm_term *t, double m, double s,
                         const double *p)
{
    double v = basis(t->basis, m);
    for (int j = 0; j < 2; j++)
        if (t->f[j] >= 0)
            v *= factor(f, t->f[j], s, p);
    return v;
}

double cp_pm_predict(const cp_pm_fit *f, double m, double s, const double *P)
{
    double pv[CP_PM_MAX_PARAMS], t = 0;
    for (int i = 0; i < f->n_params; i++)
        pv[i] = P[f->param_index[i]];
    for (int j = 0; j < f->n_terms; j++)
        if (f->coef[j] != 0)
            t += f->coef[j] * (f->terms[j].basis == CP_PM_DONOR
                                   ? cp_pm_predict(f->donor, m, s, P)
                                   : term_value(f, &f->terms[j], m, s, pv));
    return t;
}

static bool same_term(const cp_pm_term *a, const cp_pm_term *b)
{
    return a->basis == b->basis && a->f[0] == b->f[0] && a->f[1] == b->f[1];
}

static const cp_pm_term ernest_terms[N_BASE] = {{0, {-1, -1}}, {1, {0, -1}}, {2, {-1, -1}},
                                                {3, {-1, -1}}};

/* Fits the columns `cols` (k of them) on the configurations whose fold is
 * not `out_fold` (all when out_fold < 0), weights w; coef gets k values. */
static int fit_cols(group *g, const int *cols, int k, int out_fold, const double *w,
                    double *coef, cp_err *err)
{
    int r = 0;
    for (int c = 0; c < g->nc; c++)
        if (g->fold[c] != EXCLUDED && (out_fold < 0 || g->fold[c] != out_fold))
            g->rows_c[r++] = c;
    memset(coef, 0, sizeof *coef * (size_t)k);
    if (r == 0)
        return CP_OK;
    int kk = 0; /* nonzero columns */
    int use[CP_PM_MAX_TERMS];
    for (int j = 0; j < k; j++) {
        double ss = 0;
        for (int i = 0; i < r; i++) {
            int c = g->rows_c[i];
            double v = w[c] * g->X[(size_t)c * g->ncand + cols[j]];
            ss += v * v;
        }
        if (ss > 0 && isfinite(ss)) {
            g->scale[kk] = sqrt(ss);
            use[kk++] = j;
        }
    }
    if (kk == 0)
        return CP_OK;
    for (int i = 0; i < r; i++) {
        int c = g->rows_c[i];
        for (int j = 0; j < kk; j++)
            g->A[(size_t)i * kk + j] =
                w[c] * g->X[(size_t)c * g->ncand + cols[use[j]]] / g->scale[j];
        g->b[i] = w[c] * g->cy[c];
    }
    int rc = cp_nnls(g->A, r, kk, g->b, g->x, NULL, err);
    if (rc != CP_OK)
        return rc;
    for (int j = 0; j < kk; j++)
        coef[use[j]] = g->x[j] / g->scale[j];
    return CP_OK;
}

static double predict(const group *g, int c, const int *cols, int k, const double *coef)
{
    double p = 0;
    for (int j = 0; j < k; j++)
        p += coef[j] * g->X[(size_t)c * g->ncand + cols[j]];
    return p;
}

/* Predicts every configuration of the folds in [0, nfolds) from the
 * others (g->pred; configurations of fold -1 are never held out) and
 * returns the MAPE over the held-out runs in percent. */
static int cv(group *g, const int *cols, int k, const double *w, int nfolds, double *mape,
              cp_err *err)
{
    double coef[CP_PM_MAX_TERMS];
    for (int c = 0; c < g->nc; c++)
        g->pred[c] = NAN;
    for (int f = 0; f < nfolds; f++) {
        int rc = fit_cols(g, cols, k, f, w, coef, err);
        if (rc != CP_OK)
            return rc;
        for (int c = 0; c < g->nc; c++)
            if (g->fold[c] == f)
                g->pred[c] = predict(g, c, cols, k, coef);
    }
    double ape = 0;
    int cnt = 0;
    for (int i = 0; i < g->n; i++) {
        double p = g->pred[g->cfg[i]];
        if (isnan(p))
            continue;
        ape += fabs(p - g->y[i]) / g->y[i];
        cnt++;
    }
    *mape = cnt ? 100 * ape / cnt : NAN;
    return CP_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Forward search from the k terms in cols: each step adds the candidate
 * that lowers the CV MAPE (*best, on K folds) most, while that gains at
 * least MIN_GAIN. */
static int forward(group *g, int max_terms, int K, int *cols, int *k_io, double *best,
                   cp_err *err)
{
    int k = *k_io, rc;
    if ((rc = cv(g, cols, k, g->w_rel, K, best, err)) != CP_OK)
        return rc;
    while (k < max_terms) {
        int add = -1;
        double pe = INFINITY, e;
        for (int q = 0; q < g->ncand; q++) {
            bool in = false;
            for (int j = 0; j < k && !in; j++)
                in = cols[j] == q;
            if (in)
                continue;
            cols[k] = q;
            if ((rc = cv(g, cols, k + 1, g->w_rel, K, &e, err)) != CP_OK)
                return rc;
            if (e < pe * (1 - TIE_REL)) {
                pe = e;
                add = q;
            }
        }
        if (add < 0 || !(*best - pe >= MIN_GAIN_REL * *best && *best - pe >= MIN_GAIN_ABS))
            break;
        cols[k++] = add;
        *best = pe;
    }
    *k_io = k;
    return CP_OK;
}

/* Chooses the terms on the configurations not EXCLUDED by a forward
 * search from Ernest's four terms and, when there is a donor, also from
 * the donor's model alone; the start whose result has the lower CV MAPE
 * wins (a tie: Ernest's). Folds: the i-th configuration still in, i mod
 * K. The second start is there because a type measured at a handful of
 * configurations (C3O's 30-run groups: one per scale-out) cannot afford
 * Ernest's four free coefficients next to the donor: on grep's c4 and r4
 * groups t = a·t_donor + b·ln m predicts a held-out scale-out within
 * 3.7-3.9 % where Ernest's own four terms give 6.6-7.1 %. (Letting a step
 * remove terms was measured too: no better, e.g. pagerank's worst type
 * 7.5 % -> 8.1 %.) */
static int select_terms(group *g, int max_terms, int K, int *cols, int *k_out, cp_err *err)
{
    int n_in = 0, rc;
    for (int j = 0; j < N_BASE; j++)
        cols[j] = j;
    *k_out = N_BASE;
    for (int c = 0; c < g->nc; c++)
        if (g->fold[c] != EXCLUDED)
            g->fold[c] = n_in++;
    if (K > n_in)
        K = n_in;
    if (K < 2)
        return CP_OK;
    for (int c = 0; c < g->nc; c++)
        if (g->fold[c] != EXCLUDED)
            g->fold[c] %= K;
    int k = N_BASE;
    double best;
    if ((rc = forward(g, max_terms, K, cols, &k, &best, err)) != CP_OK)
        return rc;
    *k_out = k;
    if (g->ncand > N_BASE && g->cand[N_BASE].basis == CP_PM_DONOR) {
        int dc[CP_PM_MAX_TERMS] = {N_BASE}, dk = 1;
        double db;
        if ((rc = forward(g, max_terms, K, dc, &dk, &db, err)) != CP_OK)
            return rc;
        if (db < best * (1 - TIE_REL)) {
            memcpy(cols, dc, sizeof *dc * (size_t)dk);
            *k_out = dk;
        }
    }
    return CP_OK;
}

/* The figures of one term set: in-sample, leave-one-configuration-out,
 * largest size held out. coef gets the full fit. */
static int stats(group *g, const int *cols, int k, const double *w, bool loco,
                 const cp_pm_opts *nested, double *coef, cp_pm_stats *st, cp_err *err)
{
    int rc;
    for (int c = 0; c < g->nc; c++)
        g->fold[c] = -1;
    if ((rc = fit_cols(g, cols, k, -1, w, coef, err)) != CP_OK)
        return rc;
    double mean = 0, rss = 0, tss = 0, ape = 0;
    for (int i = 0; i < g->n; i++)
        mean += g->y[i] / g->n;
    for (int i = 0; i < g->n; i++) {
        double p = predict(g, g->cfg[i], cols, k, coef);
        rss += (p - g->y[i]) * (p - g->y[i]);
        tss += (g->y[i] - mean) * (g->y[i] - mean);
        ape += fabs(p - g->y[i]) / g->y[i];
    }
    st->r2 = tss > 0 ? 1 - rss / tss : (rss == 0 ? 1 : 0);
    st->mape = 100 * ape / g->n;
    int nz = 0;
    for (int j = 0; j < k; j++)
        nz += coef[j] > 0;
    st->sigma = sqrt(rss / (g->n - nz > 1 ? g->n - nz : 1));

    st->loco_mape = st->loco_p50 = st->loco_max = NAN;
    if (loco && g->nc >= 2 && nested) {
        /* each fold chooses its own terms without the held-out one */
        double *pred = cp_malloc(sizeof *pred * (size_t)g->nc);
        if (!pred)
            return cp_err_nomem(err);
        for (int c = 0; c < g->nc && rc == CP_OK; c++) {
            int tc[CP_PM_MAX_TERMS], tk;
            double tcoef[CP_PM_MAX_TERMS];
            for (int d = 0; d < g->nc; d++)
                g->fold[d] = d == c ? EXCLUDED : 0;
            rc = select_terms(g, nested->max_terms, nested->folds, tc, &tk, err);
            for (int d = 0; d < g->nc && rc == CP_OK; d++)
                g->fold[d] = d == c ? 0 : 1;
            if (rc == CP_OK)
                rc = fit_cols(g, tc, tk, 0, w, tcoef, err);
            pred[c] = predict(g, c, tc, tk, tcoef);
        }
        memcpy(g->pred, pred, sizeof *pred * (size_t)g->nc);
        cp_free(pred);
        if (rc != CP_OK)
            return rc;
        double sum = 0;
        for (int i = 0; i < g->n; i++)
            sum += fabs(g->pred[g->cfg[i]] - g->y[i]) / g->y[i];
        st->loco_mape = 100 * sum / g->n;
    } else if (loco && g->nc >= 2) {
        for (int c = 0; c < g->nc; c++)
            g->fold[c] = c;
        if ((rc = cv(g, cols, k, w, g->nc, &st->loco_mape, err)) != CP_OK)
            return rc;
    }
    if (loco && g->nc >= 2) {
        for (int c = 0; c < g->nc; c++)
            g->ape_c[c] = 0;
        for (int i = 0; i < g->n; i++) {
            int c = g->cfg[i];
            g->ape_c[c] += 100 * fabs(g->pred[c] - g->y[i]) / g->y[i] / g->cn[c];
        }
        qsort(g->ape_c, (size_t)g->nc, sizeof *g->ape_c, cmp_double);
        st->loco_max = g->ape_c[g->nc - 1];
        st->loco_p50 = g->nc % 2 ? g->ape_c[g->nc / 2]
                                 : (g->ape_c[g->nc / 2 - 1] + g->ape_c[g->nc / 2]) / 2;
    }
    st->largest_mape = NAN;
    double smax = -1;
    int nsmax = 0;
    for (int c = 0; c < g->nc; c++)
        smax = fmax(smax, g->cs[c]);
    for (int c = 0; c < g->nc; c++) {
        g->fold[c] = g->cs[c] == smax ? 0 : 1;
        nsmax += g->fold[c] == 0;
    }
    if (nsmax < g->nc && nested) { /* the terms chosen without the largest size */
        int tc[CP_PM_MAX_TERMS], tk;
        for (int c = 0; c < g->nc; c++)
            g->fold[c] = g->cs[c] == smax ? EXCLUDED : 0;
        if ((rc = select_terms(g, nested->max_terms, nested->folds, tc, &tk, err)) != CP_OK)
            return rc;
        for (int c = 0; c < g->nc; c++)
            g->fold[c] = g->cs[c] == smax ? 0 : 1;
        rc = cv(g, tc, tk, w, 1, &st->largest_mape, err);
    } else if (nsmax < g->nc) { /* at least two sizes */
        rc = cv(g, cols, k, w, 1, &st->largest_mape, err);
    }
    return rc;
}

/* Appends the monomial f[a]·f[b] (-1: none) on each φ, unless already
 * there (Ernest's four come first). */
static void add_monomial(group *g, int a, int b)
{
    for (int bs = 0; bs < 4; bs++) {
        cp_pm_term t = {bs, {a, b}};
        bool dup = false;
        for (int q = 0; q < g->ncand && !dup; q++)
            dup = same_term(&g->cand[q], &t);
        if (!dup)
            g->cand[g->ncand++] = t;
    }
}

static int setup(group *g, cp_pm_fit *f, const double *m, const double *s, const double *y,
                 const double *P, int n, int np)
{
    g->n = n;
    g->y = y;
    g->cfg = cp_malloc(sizeof *g->cfg * (size_t)n);
    g->cm = cp_malloc(sizeof *g->cm * (size_t)n);
    g->cs = cp_malloc(sizeof *g->cs * (size_t)n);
    g->cy = cp_calloc((size_t)n, sizeof *g->cy);
    g->cn = cp_calloc((size_t)n, sizeof *g->cn);
    int *first = cp_malloc(sizeof *first * (size_t)n); /* a run of each configuration */
    if (!g->cfg || !g->cm || !g->cs || !g->cy || !g->cn || !first) {
        cp_free(first);
        return CP_ERR_NOMEM;
    }
    /* The parameters that vary; a constant one tells the fit nothing. */
    f->n_params = 0;
    for (int j = 0; j < np; j++) {
        double lo = P[j], hi = P[j];
        for (int i = 1; i < n; i++) {
            lo = fmin(lo, P[(size_t)i * np + j]);
            hi = fmax(hi, P[(size_t)i * np + j]);
        }
        f->lo[j] = lo;
        f->hi[j] = hi;
        if (hi > lo && f->n_params < CP_PM_MAX_PARAMS) {
            f->param_index[f->n_params] = j;
            f->pmin[f->n_params] = lo;
            f->pmax[f->n_params] = hi;
            f->n_params++;
        }
    }
    /* Configurations in order of first appearance (quadratic: a group
     * has a few hundred). */
    g->nc = 0;
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (; c < g->nc; c++) {
            int r = first[c];
            if (m[r] != m[i] || s[r] != s[i])
                continue;
            int j = 0;
            while (j < np && P[(size_t)r * np + j] == P[(size_t)i * np + j])
                j++;
            if (j == np)
                break;
        }
        if (c == g->nc) {
            first[c] = i;
            g->cm[c] = m[i];
            g->cs[c] = s[i];
            g->nc++;
        }
        g->cfg[i] = c;
        g->cy[c] += y[i];
        g->cn[c] += 1;
    }
    for (int c = 0; c < g->nc; c++)
        g->cy[c] /= g->cn[c];

    g->nf = 1 + 3 * f->n_params;
    g->F = cp_malloc(sizeof *g->F * (size_t)g->nc * (size_t)g->nf);
    g->fvalid = cp_calloc((size_t)g->nf, sizeof *g->fvalid);
    double pv[CP_PM_MAX_PARAMS];
    if (!g->F || !g->fvalid) {
        cp_free(first);
        return CP_ERR_NOMEM;
    }
    g->fvalid[0] = true;
    for (int i = 0; i < f->n_params; i++) {
        g->fvalid[1 + 3 * i] = true;
        g->fvalid[2 + 3 * i] = g->fvalid[3 + 3 * i] = f->pmin[i] > 0;
    }
    /* Candidates: Ernest's four first, then every product of at most two
     * valid factors on every φ, in a fixed order. */
    int maxc = N_BASE + 1 + 4 * (1 + g->nf + g->nf * (g->nf + 1) / 2);
    g->cand = cp_malloc(sizeof *g->cand * (size_t)maxc);
    if (!g->cand) {
        cp_free(first);
        return CP_ERR_NOMEM;
    }
    memcpy(g->cand, ernest_terms, sizeof ernest_terms);
    g->ncand = N_BASE;
    if (f->donor)
        g->cand[g->ncand++] = (cp_pm_term){CP_PM_DONOR, {-1, -1}};
    add_monomial(g, -1, -1);
    for (int a = 0; a < g->nf; a++)
        if (g->fvalid[a])
            add_monomial(g, a, -1);
    for (int a = 0; a < g->nf; a++)
        for (int b = a; b < g->nf; b++)
            if (g->fvalid[a] && g->fvalid[b])
                add_monomial(g, a, b);
    g->X = cp_malloc(sizeof *g->X * (size_t)g->nc * (size_t)g->ncand);
    g->w_rel = cp_malloc(sizeof *g->w_rel * (size_t)g->nc);
    g->w_abs = cp_malloc(sizeof *g->w_abs * (size_t)g->nc);
    g->A = cp_malloc(sizeof *g->A * (size_t)g->nc * CP_PM_MAX_TERMS);
    g->b = cp_malloc(sizeof *g->b * (size_t)g->nc);
    g->x = cp_malloc(sizeof *g->x * CP_PM_MAX_TERMS);
    g->scale = cp_malloc(sizeof *g->scale * CP_PM_MAX_TERMS);
    g->pred = cp_malloc(sizeof *g->pred * (size_t)g->nc);
    g->ape_c = cp_malloc(sizeof *g->ape_c * (size_t)g->nc);
    g->fold = cp_malloc(sizeof *g->fold * (size_t)g->nc);
    g->rows_c = cp_malloc(sizeof *g->rows_c * (size_t)g->nc);
    if (!g->X || !g->w_rel || !g->w_abs || !g->A || !g->b || !g->x || !g->scale || !g->pred ||
        !g->ape_c || !g->fold || !g->rows_c) {
        cp_free(first);
        return CP_ERR_NOMEM;
    }
    for (int c = 0; c < g->nc; c++) {
        const double *p = P + (size_t)first[c] * np;
        for (int i = 0; i < f->n_params; i++)
            pv[i] = p[f->param_index[i]];
        for (int q = 0; q < g->ncand; q++)
            g->X[(size_t)c * g->ncand + q] =
                g->cand[q].basis == CP_PM_DONOR ? cp_pm_predict(f->donor, g->cm[c], g->cs[c], p)
                                                : term_value(f, &g->cand[q], g->cm[c], g->cs[c], pv);
        g->w_abs[c] = sqrt(g->cn[c]);
        g->w_rel[c] = sqrt(g->cn[c]) / g->cy[c];
    }
    cp_free(first);
    return CP_OK;
}

int cp_pm_fit_group(const double *m, const double *s, const double *y, const double *P, int n,
                    int np, const cp_pm_opts *o, cp_pm_fit *out, cp_err *err)
{
    if (n < 1)
        return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(), "no samples to fit");
    if (np > CP_PM_MAX_PARAMS)
        return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(), "more than %d parameters",
                          CP_PM_MAX_PARAMS);
    cp_pm_fit f;
    memset(&f, 0, sizeof f);
    group g;
    memset(&g, 0, sizeof g);
    f.donor = o->donor;
    int rc = setup(&g, &f, m, s, y, P, n, np);
    if (rc != CP_OK) {
        group_free(&g);
        return cp_err_nomem(err);
    }
    f.samples = n;
    f.configs = g.nc;
    f.min_input_gb = f.max_input_gb = s[0];
    for (int i = 0; i < n; i++) {
        f.min_input_gb = fmin(f.min_input_gb, s[i]);
        f.max_input_gb = fmax(f.max_input_gb, s[i]);
    }
    for (int c = 0; c < g.nc; c++) {
        int seen = 0;
        for (int d = 0; d < c && !seen; d++)
            seen = g.cs[d] == g.cs[c];
        f.sizes += !seen;
    }

    int cols[CP_PM_MAX_TERMS], k;
    cp_pm_opts so = *o;
    so.max_terms = o->max_terms < 1 ? 1 : o->max_terms > CP_PM_MAX_TERMS ? CP_PM_MAX_TERMS
                                                                          : o->max_terms;
    so.folds = o->folds < 2 ? 2 : o->folds;
    for (int c = 0; c < g.nc; c++)
        g.fold[c] = 0;
    if ((rc = select_terms(&g, so.max_terms, so.folds, cols, &k, err)) != CP_OK)
        goto out;
    f.nested = g.nc <= NESTED_MAX;

    double coef[CP_PM_MAX_TERMS];
    int ecols[N_BASE] = {0, 1, 2, 3};
    if ((rc = stats(&g, ecols, N_BASE, g.w_abs, o->loco, NULL, coef, &f.ernest, err)) != CP_OK)
        goto out;
    if ((rc = stats(&g, cols, k, g.w_rel, o->loco, f.nested ? &so : NULL, coef, &f.model,
                    err)) != CP_OK)
        goto out;
    f.n_terms = k;
    for (int j = 0; j < k; j++) {
        f.terms[j] = g.cand[cols[j]];
        f.coef[j] = coef[j];
    }
    *out = f;
out:
    group_free(&g);
    return rc;
}

int cp_pm_theta(const cp_pm_fit *f, const double *pv, const char *const *names, double s,
                double theta[4], bool *clamped, cp_err *err)
{
    double p[CP_PM_MAX_PARAMS];
    for (int i = 0; i < f->n_params; i++)
        p[i] = pv[f->param_index[i]];
    for (int j = 0; j < f->n_terms; j++)
        for (int q = 0; q < 2; q++) {
            int k = f->terms[j].f[q];
            if (k > 0 && (k - 1) % 3 != 0 && !(p[(k - 1) / 3] > 0) && f->coef[j] > 0)
                return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                                  "parameter '%s' must be > 0 (the model uses its logarithm)",
                                  names[f->param_index[(k - 1) / 3]]);
        }
    double th[4] = {0, 0, 0, 0}, td[4] = {0, 0, 0, 0};
    for (int j = 0; j < f->n_terms; j++) {
        if (f->coef[j] == 0)
            continue;
        if (f->terms[j].basis == CP_PM_DONOR) { /* c · the donor's own θ */
            double d[4];
            int rc = cp_pm_theta(f->donor, pv, names, s, d, NULL, err);
            if (rc != CP_OK)
                return rc;
            for (int b = 0; b < 4; b++)
                td[b] += f->coef[j] * d[b];
            continue;
        }
        /* the term adds c · g(s, p) to the coefficient of its φ */
        double v = f->coef[j];
        for (int q = 0; q < 2; q++)
            if (f->terms[j].f[q] >= 0)
                v *= factor(f, f->terms[j].f[q], s, p);
        th[f->terms[j].basis] += v;
    }
    th[1] /= s; /* Ernest's θ1 multiplies input_gb / m */
    bool cl = false;
    for (int j = 0; j < 4; j++) {
        th[j] += td[j];
        if (th[j] < 0) {
            th[j] = 0;
            cl = true;
        }
        theta[j] = th[j];
    }
    if (clamped)
        *clamped = cl;
    return CP_OK;
}

void cp_pm_term_name(const cp_pm_fit *f, const cp_pm_term *t, const char *const *names,
                     const char *donor, char *out, int size)
{
    if (t->basis == CP_PM_DONOR) {
        snprintf(out, (size_t)size, "t[%s]", donor ? donor : "donor");
        return;
    }
    static const char *const bname[] = {"", "/m", "*ln m", "*m"};
    char part[2][160];
    int np = 0;
    for (int q = 0; q < 2; q++) {
        int k = t->f[q];
        if (k < 0)
            continue;
        if (k == 0) {
            snprintf(part[np++], sizeof part[0], "input_gb");
            continue;
        }
        const char *nm = names[f->param_index[(k - 1) / 3]];
        switch ((k - 1) % 3) {
        case 0:
            snprintf(part[np++], sizeof part[0], "%s", nm);
            break;
        case 1:
            snprintf(part[np++], sizeof part[0], "ln(%s/%g)", nm, f->pmin[(k - 1) / 3]);
            break;
        default:
            snprintf(part[np++], sizeof part[0], "ln(%g/%s)", f->pmax[(k - 1) / 3], nm);
            break;
        }
    }
    if (np == 0)
        snprintf(out, (size_t)size, "%s", t->basis == 0 ? "1" : t->basis == 1 ? "1/m"
                                                           : t->basis == 2 ? "ln m"
                                                                            : "m");
    else if (np == 1)
        snprintf(out, (size_t)size, "%s%s", part[0], bname[t->basis]);
    else
        snprintf(out, (size_t)size, "%s*%s%s", part[0], part[1], bname[t->basis]);
}
