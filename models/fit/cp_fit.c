/*
 * Ernest fits for dataflow jobs (see cp_fit.h; the training fits are in
 * cp_fit_train.c).
 *
 * Each (job, machine type) group is fitted independently: the machine
 * types differ in speed, so pooling them would only blur θ. Cross
 * validation refits from scratch (n NNLS solves of n-1 rows); the active
 * set may change when a point is left out, so the hat-matrix shortcut of
 * ordinary least squares would not be exact here, and the largest C3O
 * group (1,350 runs) still refits in well under a second.
 */
#include "cp_fit.h"

#include "cp_alloc.h"
#include "cp_fit_param.h"
#include "cp_nnls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void cp_fit_opts_init(cp_fit_opts *o)
{
    o->loo = true;
    o->holdout = false;
    o->amdahl = false;
    o->shared = false;
    o->params = false;
    o->param_names = NULL;
}

double cp_ernest_predict(const double theta[4], double m, double input_gb)
{
    return theta[0] + theta[1] * input_gb / m + theta[2] * log(m) + theta[3] * m;
}

static void features(double m, double size, double *row)
{
    row[0] = 1;
    row[1] = size / m;
    row[2] = log(m);
    row[3] = m;
}

/* Fits the rows where keep[i] (all when keep is NULL). */
static int fit_subset(const double *A, const double *y, int n, const unsigned char *keep,
                      double *sub, double *suby, double theta[4], cp_err *err)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (keep && !keep[i])
            continue;
        memcpy(sub + 4 * k, A + 4 * i, 4 * sizeof *A);
        suby[k++] = y[i];
    }
    return cp_nnls(sub, k, 4, suby, theta, NULL, err);
}

static int count_distinct(const double *v, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = v[j] == v[i];
        d += !seen;
    }
    return d;
}

int cp_ernest_fit(const double *mach, const double *size, const double *sec, int n, bool loo,
                  bool holdout, cp_ernest *out, cp_err *err)
{
    if (n < 1)
        return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(), "no samples to fit");
    int rc = CP_OK;
    cp_ernest e;
    memset(&e, 0, sizeof e);
    double *A = cp_malloc(sizeof *A * 4 * (size_t)n);
    double *sub = cp_malloc(sizeof *sub * 4 * (size_t)n);
    double *suby = cp_malloc(sizeof *suby * (size_t)n);
    unsigned char *keep = cp_malloc((size_t)n);
    if (!A || !sub || !suby || !keep) {
        rc = cp_err_nomem(err);
        goto out;
    }
    for (int i = 0; i < n; i++)
        features(mach[i], size[i], A + 4 * i);
    if ((rc = fit_subset(A, sec, n, NULL, sub, suby, e.theta, err)) != CP_OK)
        goto out;

    e.samples = n;
    e.scaleouts = count_distinct(mach, n);
    e.sizes = count_distinct(size, n);
    double mean = 0, rss = 0, tss = 0, ape = 0;
    for (int i = 0; i < n; i++)
        mean += sec[i] / n;
    for (int i = 0; i < n; i++) {
        double p = cp_ernest_predict(e.theta, mach[i], size[i]);
        rss += (p - sec[i]) * (p - sec[i]);
        tss += (sec[i] - mean) * (sec[i] - mean);
        ape += fabs(p - sec[i]) / sec[i];
    }
    e.r2 = tss > 0 ? 1 - rss / tss : (rss == 0 ? 1 : 0);
    e.mape = 100 * ape / n;
    int nz = 0;
    for (int j = 0; j < 4; j++)
        nz += e.theta[j] > 0;
    e.sigma = sqrt(rss / (n - nz > 1 ? n - nz : 1));

    e.loo_mape = NAN;
    if (loo && n >= 2 && n <= CP_FIT_LOO_MAX) {
        ape = 0;
        memset(keep, 1, (size_t)n);
        for (int i = 0; i < n; i++) {
            double th[4];
            keep[i] = 0;
            rc = fit_subset(A, sec, n, keep, sub, suby, th, err);
            keep[i] = 1;
            if (rc != CP_OK)
                goto out;
            ape += fabs(cp_ernest_predict(th, mach[i], size[i]) - sec[i]) / sec[i];
        }
        e.loo_mape = 100 * ape / n;
    }

    e.holdout_mape = NAN;
    if (holdout && e.sizes >= 2) {
        ape = 0;
        for (int i = 0; i < n; i++) {
            /* First run of each size: hold that size out. */
            int first = 1;
            for (int j = 0; j < i && first; j++)
                first = size[j] != size[i];
            if (!first)
                continue;
            double th[4];
            for (int j = 0; j < n; j++)
                keep[j] = size[j] != size[i];
            if ((rc = fit_subset(A, sec, n, keep, sub, suby, th, err)) != CP_OK)
                goto out;
            for (int j = 0; j < n; j++)
                if (!keep[j])
                    ape += fabs(cp_ernest_predict(th, mach[j], size[j]) - sec[j]) / sec[j];
        }
        e.holdout_mape = 100 * ape / n;
    }
    *out = e;
out:
    cp_free(A);
    cp_free(sub);
    cp_free(suby);
    cp_free(keep);
    return rc;
}

/* ---- reading samples ---- */

/* Finds the named columns; reports each missing one at the header line. */
static int need_cols(const cp_csv *csv, const char *const *names, int *cols, int n,
                     cp_diags *diags)
{
    int rc = CP_OK;
    for (int i = 0; i < n; i++) {
        cols[i] = cp_csv_col(csv, names[i]);
        if (cols[i] < 0)
            rc = cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                              "missing column '%s' (need %s)", names[i],
                              n == 5 ? "job,type,machines,input_gb,seconds"
                                     : "job,accelerator,count,throughput");
    }
    return rc;
}

static bool get_num(const cp_csv *csv, const cp_csv_row *r, int col, const char *name, bool positive,
                    double *v, cp_diags *diags)
{
    const char *s = cp_csv_get(r, col);
    if (!cp_csv_number(s, v)) {
        cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, r), "%s: '%s' is not a number", name, s);
        return false;
    }
    if (positive ? !(*v > 0) : !(*v >= 0)) {
        cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, r), "%s: %s must be %s", name, s,
                     positive ? "> 0" : ">= 0");
        return false;
    }
    return true;
}

bool cp_fit_name_ok(const char *s, const char *what, cp_pos pos, cp_diags *diags)
{
    size_t len = strlen(s);
    if (!len) {
        cp_diags_add(diags, CP_ERR_INPUT, pos, "%s is empty", what);
        return false;
    }
    if (len > CP_NAME_MAX) { /* the fit writes it into an input */
        cp_diags_add(diags, CP_ERR_INPUT, pos, "%s is %zu bytes long; the limit is %d", what, len,
                     CP_NAME_MAX);
        return false;
    }
    return true;
}

static bool get_name(const cp_csv *csv, const cp_csv_row *r, int col, const char *name,
                     const char **out, cp_diags *diags)
{
    *out = cp_csv_get(r, col);
    return cp_fit_name_ok(*out, name, cp_csv_pos(csv, r), diags);
}

void cp_df_params_release(cp_df_params *p)
{
    for (int i = 0; p && i < p->n; i++)
        cp_free(p->names[i]);
    if (p)
        p->n = 0;
}

static bool is_sample_col(const char *h)
{
    static const char *const names[] = {"job", "type", "machines", "input_gb", "seconds"};
    for (int i = 0; i < 5; i++)
        if (strcasecmp(h, names[i]) == 0)
            return true;
    return false;
}

/* Is `name` in the comma-separated list? */
static bool listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && strncasecmp(p, name, l) == 0)
            return true;
        p += l + (e != NULL);
    }
    return false;
}

/* The cp_df_params index of `name`, added when new; -1 when full or out
 * of memory (reported). */
static int param_index(cp_df_params *pn, const char *name, const cp_csv *csv, cp_diags *diags)
{
    for (int i = 0; i < pn->n; i++)
        if (strcasecmp(pn->names[i], name) == 0)
            return i;
    if (pn->n == CP_DF_MAX_PARAMS) {
        cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                     "more than %d parameter columns", CP_DF_MAX_PARAMS);
        return -1;
    }
    if (!(pn->names[pn->n] = cp_strdup(name))) {
        cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        return -1;
    }
    return pn->n++;
}

int cp_df_samples_append(const cp_csv *csv, const char *want, cp_df_params *pn,
                         cp_df_sample **sp, int *n_io, size_t *cap, cp_diags *diags)
{
    static const char *const names[] = {"job", "type", "machines", "input_gb", "seconds"};
    int cols[5];
    if (need_cols(csv, names, cols, 5, diags) != CP_OK)
        return CP_ERR_INPUT;
    int pcol[CP_DF_MAX_PARAMS], pidx[CP_DF_MAX_PARAMS], np = 0;
    for (int h = 0; want && h < csv->head.n; h++) {
        const char *hn = csv->head.f[h];
        if (is_sample_col(hn) || !*hn || (strcmp(want, "all") && !listed(want, hn)))
            continue;
        int k = param_index(pn, hn, csv, diags);
        if (k < 0)
            return CP_ERR_INPUT;
        pcol[np] = h;
        pidx[np++] = k;
    }
    if (CP_GROW(*sp, *cap, (size_t)*n_io + (size_t)csv->n_rows + 1) != 0)
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_df_sample *s = *sp;
    int n = *n_io, bad = 0, read = 0;
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        cp_df_sample *x = &s[n];
        bool ok = get_name(csv, r, cols[0], "job", &x->job, diags);
        ok &= get_name(csv, r, cols[1], "type", &x->type, diags);
        ok &= get_num(csv, r, cols[2], "machines", true, &x->machines, diags);
        ok &= get_num(csv, r, cols[3], "input_gb", false, &x->input_gb, diags);
        ok &= get_num(csv, r, cols[4], "seconds", true, &x->seconds, diags);
        for (int k = 0; k < CP_DF_MAX_PARAMS; k++)
            x->pv[k] = NAN;
        for (int k = 0; k < np; k++) {
            const char *f = cp_csv_get(r, pcol[k]);
            if (!*f)
                continue;
            if (!cp_csv_number(f, &x->pv[pidx[k]])) {
                cp_diags_add(diags, CP_ERR_INPUT, cp_csv_pos(csv, r),
                             "parameter %s: '%s' is not a number", pn->names[pidx[k]], f);
                ok = false;
            }
        }
        x->pos = cp_csv_pos(csv, r);
        if (ok) {
            n++;
            read++;
        } else {
            bad++;
        }
    }
    if (bad || read == 0) {
        if (read == 0 && !bad)
            cp_diags_add(diags, CP_ERR_INPUT, (cp_pos){csv->file, 0, 0}, "no samples");
        return CP_ERR_INPUT;
    }
    *n_io = n;
    return CP_OK;
}

int cp_df_params_check(const char *want, const cp_df_params *pn, cp_diags *diags)
{
    if (!want || strcmp(want, "all") == 0)
        return CP_OK;
    int rc = CP_OK;
    for (const char *p = want; *p;) {
        const char *e = strchr(p, ',');
        int l = e ? (int)(e - p) : (int)strlen(p);
        bool found = false;
        for (int i = 0; i < pn->n && !found; i++)
            found = (int)strlen(pn->names[i]) == l && strncasecmp(pn->names[i], p, (size_t)l) == 0;
        if (!found)
            rc = cp_diags_add(diags, CP_ERR_INPUT, cp_pos_none(),
                              "--params: no sample file has a column '%.*s'", l, p);
        p += l + (e != NULL);
    }
    return rc;
}

int cp_df_samples_read(const cp_csv *csv, cp_df_sample **out, int *n_out, cp_diags *diags)
{
    cp_df_sample *s = NULL;
    int n = 0;
    size_t cap = 0;
    int rc = cp_df_samples_append(csv, NULL, NULL, &s, &n, &cap, diags);
    if (rc != CP_OK) {
        cp_free(s);
        return rc;
    }
    *out = s;
    *n_out = n;
    return CP_OK;
}

/* ---- all groups ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The parameter-dependent model of group k: the job's parameters are the
 * ones any of its runs has, and every run of the job must have them. */
static int fit_params(const cp_df_sample *s, int n, const int *group, int k, const cp_fit_opts *o,
                      cp_df_fit *f, const cp_df_fit *donor, cp_err *err)
{
    bool has[CP_DF_MAX_PARAMS] = {false};
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].job, f->job) == 0)
            for (int p = 0; p < CP_DF_MAX_PARAMS; p++)
                has[p] |= !isnan(s[i].pv[p]);
    f->n_params = 0;
    for (int p = 0; p < CP_DF_MAX_PARAMS; p++)
        if (has[p])
            f->params[f->n_params++] = p;
    int c = 0, np = f->n_params;
    for (int i = 0; i < n; i++)
        c += group[i] == k;
    double *m = cp_malloc(sizeof *m * (size_t)c), *g = cp_malloc(sizeof *g * (size_t)c);
    double *t = cp_malloc(sizeof *t * (size_t)c);
    double *P = cp_malloc(sizeof *P * (size_t)c * (size_t)(np ? np : 1));
    f->pm = cp_calloc(1, sizeof *f->pm);
    int rc = CP_OK;
    if (!m || !g || !t || !P || !f->pm) {
        rc = cp_err_nomem(err);
        goto out;
    }
    c = 0;
    for (int i = 0; i < n; i++) {
        if (group[i] != k)
            continue;
        for (int p = 0; p < np; p++) {
            double v = s[i].pv[f->params[p]];
            if (isnan(v)) {
                const cp_df_params *pn = o->param_names;
                rc = cp_err_set(err, CP_ERR_INPUT, s[i].pos,
                                "job '%s': missing value of parameter '%s' (other runs of the "
                                "job have one)",
                                f->job, pn && f->params[p] < pn->n ? pn->names[f->params[p]] : "?");
                goto out;
            }
            P[(size_t)c * np + p] = v;
        }
        m[c] = s[i].machines;
        g[c] = s[i].input_gb;
        t[c++] = s[i].seconds;
    }
    cp_pm_opts po;
    cp_pm_opts_init(&po);
    po.loco = o->loo;
    po.donor = donor ? donor->pm : NULL;
    rc = cp_pm_fit_group(m, g, t, P, c, np, &po, f->pm, err);
out:
    cp_free(m);
    cp_free(g);
    cp_free(t);
    cp_free(P);
    return rc;
}

int cp_df_fit_all(const cp_df_sample *s, int n, const cp_fit_opts *o, cp_df_report **out,
                  cp_diags *warnings, cp_err *err)
{
    int rc = CP_OK;
    cp_df_report *r = cp_calloc(1, sizeof *r);
    int *group = cp_malloc(sizeof *group * (size_t)(n ? n : 1));
    double *m = cp_malloc(sizeof *m * (size_t)(n ? n : 1));
    double *g = cp_malloc(sizeof *g * (size_t)(n ? n : 1));
    double *t = cp_malloc(sizeof *t * (size_t)(n ? n : 1));
    size_t cap = 0;
    if (!r || !group || !m || !g || !t) {
        rc = cp_err_nomem(err);
        goto out;
    }
    /* Groups in order of first appearance. */
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < r->n_fits &&
               (strcmp(r->fits[k].job, s[i].job) || strcmp(r->fits[k].type, s[i].type)))
            k++;
        if (k == r->n_fits) {
            if (CP_GROW(r->fits, cap, (size_t)k + 1) != 0) {
                rc = cp_err_nomem(err);
                goto out;
            }
            cp_df_fit *f = &r->fits[k];
            memset(f, 0, sizeof *f);
            r->n_fits++;
            f->job = cp_strdup(s[i].job);
            f->type = cp_strdup(s[i].type);
            f->pos = s[i].pos;
            if (!f->job || !f->type) {
                rc = cp_err_nomem(err);
                goto out;
            }
        }
        group[i] = k;
    }
    for (int k = 0; k < r->n_fits; k++) {
        cp_df_fit *f = &r->fits[k];
        int c = 0;
        f->max_input_gb = 0;
        for (int i = 0; i < n; i++)
            if (group[i] == k) {
                m[c] = s[i].machines;
                g[c] = s[i].input_gb;
                t[c] = s[i].seconds;
                f->max_input_gb = fmax(f->max_input_gb, g[c]);
                c++;
            }
        rc = cp_ernest_fit(m, g, t, c, o->loo, o->holdout, &f->e, err);
        if (rc != CP_OK) {
            if (err) { /* name the group in the error */
                char msg[CP_ERR_MSG_MAX];
                memcpy(msg, err->msg, sizeof msg);
                cp_err_set(err, rc, f->pos, "job '%s' type '%s': %s", f->job, f->type, msg);
            }
            goto out;
        }
        f->machine_counts = cp_malloc(sizeof *f->machine_counts * (size_t)f->e.scaleouts);
        if (!f->machine_counts) {
            rc = cp_err_nomem(err);
            goto out;
        }
        qsort(m, (size_t)c, sizeof *m, cmp_double);
        int d = 0;
        for (int i = 0; i < c; i++)
            if (i == 0 || m[i] != m[i - 1])
                f->machine_counts[d++] = m[i];
        if (f->e.scaleouts < 4)
            cp_diags_warn(warnings, f->pos,
                          "job '%s' type '%s': only %d distinct scale-out%s; Ernest's 4 "
                          "coefficients are not all determined (measure at least 4)",
                          f->job, f->type, f->e.scaleouts, f->e.scaleouts == 1 ? "" : "s");
    }
    /* Per job, the type with the most runs is fitted first, on its own;
     * it is the donor of the job's other types (cp_pm_opts.donor). */
    for (int k = 0; o->params && k < r->n_fits; k++) {
        cp_df_fit *f = &r->fits[k];
        int first = 0;
        while (strcmp(r->fits[first].job, f->job))
            first++;
        if (first != k)
            continue;
        int d = k;
        for (int j = k + 1; j < r->n_fits; j++)
            if (!strcmp(r->fits[j].job, f->job) && r->fits[j].e.samples > r->fits[d].e.samples)
                d = j;
        if ((rc = fit_params(s, n, group, d, o, &r->fits[d], NULL, err)) != CP_OK)
            goto out;
        for (int j = k; j < r->n_fits; j++)
            if (j != d && !strcmp(r->fits[j].job, f->job) &&
                (rc = fit_params(s, n, group, j, o, &r->fits[j], &r->fits[d], err)) != CP_OK)
                goto out;
    }
    *out = r;
    r = NULL;
out:
    cp_df_report_free(r);
    cp_free(group);
    cp_free(m);
    cp_free(g);
    cp_free(t);
    return rc;
}

void cp_df_report_free(cp_df_report *r)
{
    if (!r)
        return;
    for (int k = 0; k < r->n_fits; k++) {
        cp_free(r->fits[k].job);
        cp_free(r->fits[k].type);
        cp_free(r->fits[k].machine_counts);
        cp_free(r->fits[k].pm);
    }
    cp_free(r->fits);
    cp_free(r);
}
