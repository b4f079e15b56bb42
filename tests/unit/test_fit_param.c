/* The parameter-dependent dataflow fit (models/fit/cp_fit_param.h) on
 * synthetic runs generated from known coefficients. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_fit_param.h"

#include <math.h>
#include <string.h>

/* t = 10 + 50 s/m + 3 k s/m + 2 m on a grid of m, s and k, each
 * configuration twice; the k column multiplied by kscale (k' = kscale k,
 * so the true coefficient of k' s/m is 3 / kscale). */
static int grid(double kscale, double *m, double *s, double *t, double *P)
{
    static const double ms[] = {2, 4, 6, 8, 10, 12}, ss[] = {5, 10, 20}, ks[] = {3, 6, 9};
    int n = 0;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 2; r++) {
                    m[n] = ms[a];
                    s[n] = ss[b];
                    P[n] = ks[c] * kscale;
                    t[n] = 10 + 50 * ss[b] / ms[a] + 3 * ks[c] * ss[b] / ms[a] + 2 * ms[a];
                    n++;
                }
    return n;
}

static void check_recovery(double kscale)
{
    double m[108], s[108], t[108], P[108];
    int n = grid(kscale, m, s, t, P);
    cp_pm_opts o;
    cp_pm_opts_init(&o);
    cp_pm_fit f;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_pm_fit_group(m, s, t, P, n, 1, &o, &f, &err), CP_OK);
    CHECK_INT(f.configs, 54);
    CHECK_INT(f.sizes, 3);
    CHECK(f.model.loco_mape < 1e-6);
    CHECK(f.model.largest_mape < 1e-6);
    CHECK(f.ernest.loco_mape > 1); /* plain Ernest cannot see k */
    /* k = 6 at input 10: θ = [10, 50 + 3·6, 0, 2] */
    double pv = 6 * kscale, th[4];
    const char *names[] = {"k"};
    bool clamped = true;
    CHECK_INT(cp_pm_theta(&f, &pv, names, 10, th, &clamped, &err), CP_OK);
    CHECK(!clamped);
    CHECK(fabs(th[0] - 10) < 1e-6);
    CHECK(fabs(th[1] - 68) < 1e-6);
    CHECK(fabs(th[2]) < 1e-6);
    CHECK(fabs(th[3] - 2) < 1e-6);
    /* the term that carries k is k·input_gb/m with coefficient 3 / kscale */
    bool found = false;
    for (int j = 0; j < f.n_terms; j++)
        if (f.terms[j].basis == 1 && f.coef[j] > 0 &&
            ((f.terms[j].f[0] == 0 && f.terms[j].f[1] == 1) ||
             (f.terms[j].f[0] == 1 && f.terms[j].f[1] == 0))) {
            found = true;
            CHECK(fabs(f.coef[j] * kscale / 3 - 1) < 1e-6);
        }
    CHECK(found);
}

TEST(pm_recovers_known_coefficients)
{
    check_recovery(1);
}

/* Column scaling: k in units of 1e9 gives a column 1e9 times larger than
 * ln m; the fit must find the same model. */
TEST(pm_recovers_badly_scaled_parameter)
{
    check_recovery(1e9);
}

TEST(pm_constant_parameter_is_ignored)
{
    double m[] = {2, 4, 6, 8, 2, 4, 6, 8}, s[] = {1, 1, 1, 1, 2, 2, 2, 2}, t[8], P[8];
    for (int i = 0; i < 8; i++) {
        t[i] = 5 + 40 * s[i] / m[i];
        P[i] = 7;
    }
    cp_pm_opts o;
    cp_pm_opts_init(&o);
    cp_pm_fit f;
    CHECK_INT(cp_pm_fit_group(m, s, t, P, 8, 1, &o, &f, NULL), CP_OK);
    CHECK_INT(f.n_params, 0);
    double th[4], pv = 123; /* not read */
    CHECK_INT(cp_pm_theta(&f, &pv, NULL, 2, th, NULL, NULL), CP_OK);
    CHECK(fabs(th[0] - 5) < 1e-6 && fabs(th[1] - 40) < 1e-6);
}

/* A failing allocation makes the fit return CP_ERR_NOMEM (ASan's leak
 * check sees what it would leak): the first 30 allocations each, then
 * about 40 spread over the rest (a fit allocates in every NNLS). */
TEST(pm_survives_allocation_failures)
{
    double m[16], s[16], t[16], P[16];
    for (int i = 0; i < 16; i++) {
        m[i] = 2 + 2 * (i % 4);
        s[i] = 1 + (i / 4) % 2;
        P[i] = 1 + i / 8;
        t[i] = 5 + 40 * s[i] * P[i] / m[i] + m[i];
    }
    cp_pm_opts o;
    cp_pm_opts_init(&o);
    cp_pm_fit f;
    long before = cp_alloc_count();
    CHECK_INT(cp_pm_fit_group(m, s, t, P, 16, 1, &o, &f, NULL), CP_OK);
    long total = cp_alloc_count() - before, stride = total / 40 > 1 ? total / 40 : 1;
    for (long k = 0; k < total; k += k < 30 ? 1 : stride) {
        cp_alloc_fail_after(k);
        int rc = cp_pm_fit_group(m, s, t, P, 16, 1, &o, &f, NULL);
        cp_alloc_fail_after(-1);
        CHECK_INT(rc, CP_ERR_NOMEM);
    }
}

/* A type measured at three configurations only, twice as slow as a
 * well-measured one: with the latter as donor its model is 2·t_donor
 * (θ twice the donor's at any k and input), predicted exactly; Ernest's
 * four free coefficients cannot be fitted on two configurations. */
TEST(pm_borrows_the_donor_shape)
{
    double m[108], s[108], t[108], P[108];
    int n = grid(1, m, s, t, P);
    cp_pm_opts o;
    cp_pm_opts_init(&o);
    cp_pm_fit big, small;
    CHECK_INT(cp_pm_fit_group(m, s, t, P, n, 1, &o, &big, NULL), CP_OK);
    double sm[3] = {2, 6, 12}, ss[3] = {10, 20, 5}, sp[3] = {3, 6, 9}, st[3];
    for (int i = 0; i < 3; i++)
        st[i] = 2 * (10 + (50 + 3 * sp[i]) * ss[i] / sm[i] + 2 * sm[i]);
    o.donor = &big;
    CHECK_INT(cp_pm_fit_group(sm, ss, st, sp, 3, 1, &o, &small, NULL), CP_OK);
    CHECK(small.model.loco_mape < 1e-6);
    CHECK(small.ernest.loco_mape > 1);
    /* at k = 4, 15 GB (never measured on the slow type) */
    double pv = 4, tb[4], ts[4];
    CHECK_INT(cp_pm_theta(&big, &pv, NULL, 15, tb, NULL, NULL), CP_OK);
    CHECK_INT(cp_pm_theta(&small, &pv, NULL, 15, ts, NULL, NULL), CP_OK);
    for (int j = 0; j < 4; j++)
        CHECK(fabs(ts[j] - 2 * tb[j]) < 1e-6 * (1 + tb[j]));
    CHECK(fabs(tb[1] - 62) < 1e-6); /* 50 + 3·4 */
}
