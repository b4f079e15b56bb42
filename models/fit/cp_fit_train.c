/*
 * Training throughput fits (see cp_fit.h and docs/models.md).
 *
 * capplan.5 §1.7 gives a training job one `throughput` per accelerator type and
 * a `scaling` that is one curve or, since 1.1, one per type, while
 * measurements come per (type, count). We combine them this way:
 *  - T_a, the one-accelerator throughput of type a, is the mean of its
 *    count-1 measurements; when count 1 was not measured on a type, T_a is
 *    fitted with Amdahl's law (below) on that type's points.
 *  - Amdahl: S(k) = 1 / (s + (1 - s)/k) with one serial fraction s for the
 *    job, minimizing the squared RELATIVE errors of T_a·S(k) against every
 *    measured point of every type (relative, so a fast type does not
 *    outweigh a slow one). For a fixed s each free T_a has a closed form,
 *    so s is found by a 1-D search: a grid of 1000 steps on [0, 1), then
 *    golden-section refinement.
 *  - Table per type (the default): S_a(k) = thr_a(k) / T_a, the type's
 *    own measured speedup; at a count k the type was not measured at, the
 *    job's mean table S(k) below, so that every type has a value at every
 *    count some type measured (a warning names those counts). Gavel's
 *    speedups differ between types by up to 226 %, which no single curve
 *    can follow. This is the one rule of `fit training` and `import
 *    gavel`: both write the tables computed here (fit_write.c).
 *  - Mean table (`shared`, the one curve before version 1.1): S(k) is the
 *    mean over the types that measured k of thr_a(k) / T_a. Types that
 *    disagree by more than 10% at some k get a warning, since one curve
 *    cannot fit them all.
 * Repeated measurements of one (type, count) are averaged first.
 */
#include "cp_fit.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pt {
    int type, count;
    double thr;
    int reps;
    cp_pos pos;
} pt;

static double amdahl(double s, int k)
{
    return 1 / (s + (1 - s) / k);
}

/* T for type a given s: measured when count 1 was measured, else the
 * closed-form relative least squares T = Σu / Σu², u = S(k)/thr. */
static double type_t(const pt *p, int np, int a, const cp_tr_type *types, double s)
{
    if (!types[a].thr1_fitted)
        return types[a].thr1;
    double su = 0, su2 = 0;
    for (int i = 0; i < np; i++)
        if (p[i].type == a) {
            double u = amdahl(s, p[i].count) / p[i].thr;
            su += u;
            su2 += u * u;
        }
    return su / su2;
}

static double objective(const pt *p, int np, const cp_tr_type *types, int nt, double s)
{
    double f = 0;
    for (int a = 0; a < nt; a++) {
        double t = type_t(p, np, a, types, s);
        for (int i = 0; i < np; i++)
            if (p[i].type == a) {
                double r = t * amdahl(s, p[i].count) / p[i].thr - 1;
                f += r * r;
            }
    }
    return f;
}

static double fit_serial(const pt *p, int np, const cp_tr_type *types, int nt)
{
    int best = 0;
    double fbest = INFINITY;
    for (int i = 0; i < 1000; i++) {
        double f = objective(p, np, types, nt, i / 1000.0);
        if (f < fbest) {
            fbest = f;
            best = i;
        }
    }
    double lo = fmax(0, (best - 1) / 1000.0), hi = fmin(0.999999, (best + 1) / 1000.0);
    const double gr = (sqrt(5) - 1) / 2;
    double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
    double f1 = objective(p, np, types, nt, x1), f2 = objective(p, np, types, nt, x2);
    for (int it = 0; it < 100 && hi - lo > 1e-13; it++) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - gr * (hi - lo);
            f1 = objective(p, np, types, nt, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + gr * (hi - lo);
            f2 = objective(p, np, types, nt, x2);
        }
    }
    double s = (lo + hi) / 2;
    /* The grid point may beat the bracket's middle at the boundary s = 0. */
    return objective(p, np, types, nt, s) <= fbest ? s : best / 1000.0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

double cp_tr_speedup(const cp_tr_fit *f, int k)
{
    if (f->amdahl)
        return amdahl(f->serial_fraction, k);
    for (int i = 0; i < f->n_counts; i++)
        if (f->counts[i] == k)
            return f->speedup[i];
    return NAN;
}

double cp_tr_type_speedup(const cp_tr_fit *f, int a, int k, bool *filled)
{
    for (int i = 0; i < f->n_counts; i++)
        if (f->counts[i] == k) {
            if (filled)
                *filled = f->types[a].filled[i];
            return f->types[a].speedup[i];
        }
    if (filled)
        *filled = true;
    return NAN;
}

/* Each type's own table (cp_tr_type.speedup), once T_a and the mean
 * table are known; warns of the counts a type takes from the mean table
 * when the tables per type are written. */
static int type_tables(cp_tr_fit *f, const pt *p, int np, const cp_fit_opts *o, cp_diags *warnings)
{
    for (int a = 0; a < f->n_types; a++) {
        cp_tr_type *t = &f->types[a];
        if (!(t->speedup = cp_malloc(sizeof *t->speedup * (size_t)f->n_counts)) ||
            !(t->filled = cp_malloc(sizeof *t->filled * (size_t)f->n_counts)))
            return CP_ERR_NOMEM;
        char miss[96] = "";
        size_t len = 0;
        int n_miss = 0;
        for (int c = 0; c < f->n_counts; c++) {
            int i = 0;
            while (i < np && !(p[i].type == a && p[i].count == f->counts[c]))
                i++;
            t->filled[c] = i == np;
            t->speedup[c] = f->counts[c] == 1 ? 1 : i < np ? p[i].thr / t->thr1 : f->speedup[c];
            if (i == np && f->counts[c] != 1) {
                if (len < sizeof miss - 16)
                    len += (size_t)snprintf(miss + len, sizeof miss - len, "%s%d",
                                            n_miss ? ", " : "", f->counts[c]);
                n_miss++;
            }
        }
        if (n_miss && !o->amdahl && !o->shared)
            cp_diags_warn(warnings, f->pos,
                          "job '%s' accelerator '%s': not measured at %s accelerator%s; the "
                          "table there takes the mean speedup of the types measured",
                          f->job, t->acc, miss, n_miss > 1 ? "s" : "");
    }
    return CP_OK;
}

/* Fits one job from its samples (indices idx[0..ni)). */
static int fit_job(const cp_tr_sample *s, const int *idx, int ni, const cp_fit_opts *o,
                   cp_tr_fit *f, cp_diags *warnings)
{
    pt *p = cp_calloc((size_t)ni, sizeof *p);
    size_t tcap = 0;
    int np = 0;
    if (!p)
        return CP_ERR_NOMEM;
    for (int q = 0; q < ni; q++) {
        const cp_tr_sample *x = &s[idx[q]];
        int a = 0;
        while (a < f->n_types && strcmp(f->types[a].acc, x->acc))
            a++;
        if (a == f->n_types) {
            if (CP_GROW(f->types, tcap, (size_t)a + 1) != 0)
                goto nomem;
            memset(&f->types[a], 0, sizeof f->types[a]);
            f->n_types++;
            if (!(f->types[a].acc = cp_strdup(x->acc)))
                goto nomem;
        }
        f->types[a].samples++;
        int i = 0;
        while (i < np && !(p[i].type == a && p[i].count == x->count))
            i++;
        if (i == np) {
            p[np].type = a;
            p[np].count = x->count;
            p[np].pos = x->pos;
            np++;
        }
        p[i].thr += x->throughput;
        p[i].reps++;
    }
    for (int i = 0; i < np; i++)
        p[i].thr /= p[i].reps;

    /* Measured counts (and 1, S(1) = 1 by definition of T_a). */
    f->counts = cp_malloc(sizeof *f->counts * (size_t)(np + 1));
    f->speedup = cp_malloc(sizeof *f->speedup * (size_t)(np + 1));
    f->points = cp_calloc((size_t)np, sizeof *f->points);
    if (!f->counts || !f->speedup || !f->points)
        goto nomem;
    f->counts[f->n_counts++] = 1;
    for (int i = 0; i < np; i++) {
        int seen = 0;
        for (int j = 0; j < f->n_counts && !seen; j++)
            seen = f->counts[j] == p[i].count;
        if (!seen)
            f->counts[f->n_counts++] = p[i].count;
    }
    qsort(f->counts, (size_t)f->n_counts, sizeof *f->counts, cmp_int);

    for (int a = 0; a < f->n_types; a++) {
        f->types[a].thr1_fitted = true;
        for (int i = 0; i < np; i++)
            if (p[i].type == a && p[i].count == 1) {
                f->types[a].thr1 = p[i].thr;
                f->types[a].thr1_fitted = false;
            }
    }
    f->serial_fraction = fit_serial(p, np, f->types, f->n_types);
    for (int a = 0; a < f->n_types; a++)
        if (f->types[a].thr1_fitted) {
            f->types[a].thr1 = type_t(p, np, a, f->types, f->serial_fraction);
            cp_diags_warn(warnings, f->pos,
                          "job '%s' accelerator '%s': count 1 not measured; one-accelerator "
                          "throughput %.6g fitted by Amdahl's law (serial fraction %.4g)",
                          f->job, f->types[a].acc, f->types[a].thr1, f->serial_fraction);
        }
    f->amdahl = o->amdahl;
    f->shared = o->shared;
    for (int c = 0; c < f->n_counts; c++) {
        double sum = 0, lo = INFINITY, hi = -INFINITY;
        int cnt = 0;
        for (int i = 0; i < np; i++)
            if (p[i].count == f->counts[c]) {
                double r = p[i].thr / f->types[p[i].type].thr1;
                sum += r;
                lo = fmin(lo, r);
                hi = fmax(hi, r);
                cnt++;
            }
        f->speedup[c] = f->counts[c] == 1 || cnt == 0 ? 1 : sum / cnt;
        if (!o->amdahl && o->shared && cnt > 1 && hi > 1.10 * lo)
            cp_diags_warn(warnings, f->pos,
                          "job '%s': speedup at %d accelerators differs by %.0f%% between types "
                          "(%.4g to %.4g); the table uses their mean %.4g",
                          f->job, f->counts[c], 100 * (hi / lo - 1), lo, hi, f->speedup[c]);
    }
    if (type_tables(f, p, np, o, warnings) != CP_OK)
        goto nomem;
    double ape = 0;
    for (int i = 0; i < np; i++) {
        cp_tr_point *q = &f->points[f->n_points++];
        q->acc = f->types[p[i].type].acc;
        q->count = p[i].count;
        q->measured = p[i].thr;
        /* predicted by the scaling written; a type's own table gives
         * T_a * (thr / T_a), the measurement up to rounding, taken as the
         * measurement so that the report's errors are 0 on every CPU
         * rather than 1e-16 on some */
        q->predicted = !f->amdahl && !f->shared
                           ? p[i].thr
                           : f->types[p[i].type].thr1 * cp_tr_speedup(f, p[i].count);
        q->err_pct = 100 * (q->predicted - q->measured) / q->measured;
        q->pos = p[i].pos;
        ape += fabs(q->err_pct);
    }
    f->mape = np ? ape / np : 0;
    cp_free(p);
    return CP_OK;
nomem:
    cp_free(p);
    return CP_ERR_NOMEM;
}

int cp_tr_fit_all(const cp_tr_sample *s, int n, const cp_fit_opts *o, cp_tr_report **out,
                  cp_diags *warnings, cp_err *err)
{
    int rc = CP_OK;
    size_t cap = 0;
    cp_tr_report *r = cp_calloc(1, sizeof *r);
    int *idx = cp_malloc(sizeof *idx * (size_t)(n ? n : 1));
    if (!r || !idx) {
        rc = cp_err_nomem(err);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < r->n_fits && strcmp(r->fits[k].job, s[i].job))
            k++;
        if (k < r->n_fits)
            continue;
        if (CP_GROW(r->fits, cap, (size_t)k + 1) != 0) {
            rc = cp_err_nomem(err);
            goto out;
        }
        cp_tr_fit *f = &r->fits[k];
        memset(f, 0, sizeof *f);
        r->n_fits++;
        f->pos = s[i].pos;
        if (!(f->job = cp_strdup(s[i].job))) {
            rc = cp_err_nomem(err);
            goto out;
        }
        int ni = 0;
        for (int j = i; j < n; j++)
            if (strcmp(s[j].job, s[i].job) == 0)
                idx[ni++] = j;
        if ((rc = fit_job(s, idx, ni, o, f, warnings)) != CP_OK) {
            cp_err_nomem(err);
            goto out;
        }
    }
    *out = r;
    r = NULL;
out:
    cp_tr_report_free(r);
    cp_free(idx);
    return rc;
}

void cp_tr_report_free(cp_tr_report *r)
{
    if (!r)
        return;
    for (int k = 0; k < r->n_fits; k++) {
        cp_tr_fit *f = &r->fits[k];
        cp_free(f->job);
        for (int a = 0; a < f->n_types; a++) {
            cp_free(f->types[a].acc);
            cp_free(f->types[a].speedup);
            cp_free(f->types[a].filled);
        }
        cp_free(f->types);
        cp_free(f->counts);
        cp_free(f->speedup);
        cp_free(f->points);
    }
    cp_free(r->fits);
    cp_free(r);
}

int cp_tr_samples_read(const cp_csv *csv, cp_tr_sample **out, int *n_out, cp_diags *diags)
{
    static const char *const names[] = {"job", "accelerator", "count", "throughput"};
    int cols[4], rc = CP_OK;
    for (int i = 0; i < 4; i++)
        if ((cols[i] = cp_csv_col(csv, names[i])) < 0)
            rc = cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                              "missing column '%s' (need job,accelerator,count,throughput)",
                              names[i]);
    if (rc != CP_OK)
        return rc;
    cp_tr_sample *s = cp_calloc(csv->n_rows ? (size_t)csv->n_rows : 1, sizeof *s);
    if (!s)
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    int n = 0;
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        cp_tr_sample *x = &s[n];
        cp_pos pos = cp_csv_pos(csv, r);
        double c;
        long cl = 0;
        bool ok = true;
        x->job = cp_csv_get(r, cols[0]);
        x->acc = cp_csv_get(r, cols[1]);
        const char *cs = cp_csv_get(r, cols[2]), *ts = cp_csv_get(r, cols[3]);
        if (!cp_fit_name_ok(x->job, "job", pos, diags) ||
            !cp_fit_name_ok(x->acc, "accelerator", pos, diags))
            ok = false;
        if (!cp_csv_number(cs, &c) || !cp_num_is_whole(c, 1, CP_INPUT_COUNT_MAX, &cl)) {
            cp_diags_add(diags, CP_ERR_INPUT, pos, "count: '%s' is not an integer >= 1", cs);
            ok = false;
        }
        if (!cp_csv_number(ts, &x->throughput) || !(x->throughput > 0)) {
            cp_diags_add(diags, CP_ERR_INPUT, pos, "throughput: '%s' is not a number > 0", ts);
            ok = false;
        }
        x->count = ok ? (int)cl : 0;
        x->pos = pos;
        if (ok)
            n++;
        else
            rc = CP_ERR_INPUT;
    }
    if (rc == CP_OK && n == 0)
        rc = cp_diags_add(diags, CP_ERR_INPUT, (cp_pos){csv->file, 0, 0}, "no samples");
    if (rc != CP_OK) {
        cp_free(s);
        return rc;
    }
    *out = s;
    *n_out = n;
    return CP_OK;
}
