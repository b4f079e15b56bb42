/* NNLS and least squares: small exact systems, clamped coefficients, a
 * brute-force reference over all active sets, and Ernest's published
 * example (tests/fit/ernest-rcv1.csv, Apache-2.0, from amplab/ernest). */
#include "test.h"

#include "cp_nnls.h"

#include <math.h>

TEST(nnls_identity_clamps_negative)
{
    double A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, b[3] = {1, -2, 3}, x[3], rn;
    CHECK_INT(cp_nnls(A, 3, 3, b, x, &rn, NULL), 0);
    CHECK_NEAR(x[0], 1, 1e-15);
    CHECK_NEAR(x[1], 0, 1e-15);
    CHECK_NEAR(x[2], 3, 1e-15);
    CHECK_NEAR(rn, 2, 1e-15);
}

TEST(nnls_exact_positive_solution)
{
    /* b = A [2, 0.5] exactly: the unconstrained solution is feasible. */
    double A[8] = {1, 1, 1, 2, 1, 3, 1, 4}, b[4], x[2];
    for (int i = 0; i < 4; i++)
        b[i] = 2 * A[2 * i] + 0.5 * A[2 * i + 1];
    CHECK_INT(cp_nnls(A, 4, 2, b, x, NULL, NULL), 0);
    CHECK_NEAR(x[0], 2, 1e-13);
    CHECK_NEAR(x[1], 0.5, 1e-13);
}

TEST(nnls_decreasing_data_clamps_slope)
{
    /* Least squares gives slope -1; NNLS clamps it and fits the mean. */
    double A[6] = {1, 1, 1, 2, 1, 3}, b[3] = {3, 2, 1}, x[2];
    CHECK_INT(cp_nnls(A, 3, 2, b, x, NULL, NULL), 0);
    CHECK_NEAR(x[0], 2, 1e-14);
    CHECK_NEAR(x[1], 0, 1e-15);
    double y[2];
    CHECK_INT(cp_lstsq(A, 3, 2, b, y, NULL), 0);
    CHECK_NEAR(y[0], 4, 1e-13);
    CHECK_NEAR(y[1], -1, 1e-13);
}

TEST(lstsq_rank_deficient_is_an_error)
{
    double A[6] = {1, 2, 2, 4, 3, 6}, b[3] = {1, 2, 3}, x[2];
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_lstsq(A, 3, 2, b, x, &e), CP_ERR_INPUT);
    /* NNLS still answers: the second column adds nothing. */
    CHECK_INT(cp_nnls(A, 3, 2, b, x, NULL, NULL), 0);
    CHECK_NEAR(x[0] + 2 * x[1], 1, 1e-12);
}

TEST(nnls_dependent_ernest_columns)
{
    /* One scale-out only: 1, ln m and m are collinear; NNLS must still
     * fit size/m exactly and leave a non-negative rest. */
    double A[12], b[3], x[4];
    double size[3] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        double m = 4;
        A[4 * i] = 1;
        A[4 * i + 1] = size[i] / m;
        A[4 * i + 2] = log(m);
        A[4 * i + 3] = m;
        b[i] = 5 + 10 * size[i] / m;
    }
    CHECK_INT(cp_nnls(A, 3, 4, b, x, NULL, NULL), 0);
    for (int j = 0; j < 4; j++)
        CHECK(x[j] >= 0);
    CHECK_NEAR(x[1], 10, 1e-10);
    CHECK_NEAR(x[0] + log(4) * x[2] + 4 * x[3], 5, 1e-10);
}

/* Reference NNLS by enumeration: the optimum is the least-squares solution
 * on some column subset that is non-negative, and every such candidate is
 * feasible, so the best candidate is the optimum. */
static double brute_nnls(const double *A, int m, const double *b, double *best)
{
    double best_r = INFINITY;
    for (int mask = 0; mask < 16; mask++) {
        double sub[64 * 4], s[4], x[4] = {0, 0, 0, 0};
        int k = 0, cols[4];
        for (int j = 0; j < 4; j++)
            if (mask & (1 << j))
                cols[k++] = j;
        if (k) {
            for (int i = 0; i < m; i++)
                for (int j = 0; j < k; j++)
                    sub[i * k + j] = A[i * 4 + cols[j]];
            if (cp_lstsq(sub, m, k, b, s, NULL) != 0)
                continue;
            int ok = 1;
            for (int j = 0; j < k; j++)
                ok &= s[j] >= 0;
            if (!ok)
                continue;
            for (int j = 0; j < k; j++)
                x[cols[j]] = s[j];
        }
        double r = 0;
        for (int i = 0; i < m; i++) {
            double e = b[i];
            for (int j = 0; j < 4; j++)
                e -= A[i * 4 + j] * x[j];
            r += e * e;
        }
        if (r < best_r) {
            best_r = r;
            for (int j = 0; j < 4; j++)
                best[j] = x[j];
        }
    }
    return best_r;
}

static double lcg(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

TEST(nnls_matches_active_set_enumeration)
{
    unsigned long seed = 12345;
    int clamped_cases = 0;
    for (int trial = 0; trial < 200; trial++) {
        int m = 6 + trial % 10;
        double A[16 * 4], b[16], x[4], ref[4];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < 4; j++)
                A[i * 4 + j] = lcg(&seed) * 2 - 0.5;
            b[i] = lcg(&seed) * 4 - 1;
        }
        brute_nnls(A, m, b, ref);
        CHECK_INT(cp_nnls(A, m, 4, b, x, NULL, NULL), 0);
        int zeros = 0;
        for (int j = 0; j < 4; j++) {
            CHECK_NEAR(x[j], ref[j], 1e-9);
            zeros += ref[j] == 0;
        }
        clamped_cases += zeros > 0 && zeros < 4;
    }
    CHECK(clamped_cases > 20); /* the trials do exercise the active set */
}

TEST(nnls_reproduces_ernest_example)
{
    /* tests/fit/ernest-rcv1.csv: cores (used as m), input fraction, s. */
    static const double d[7][3] = {
        {32, 0.125, 7.94516801834},   {4, 0.015625, 4.72029209137},
        {4, 0.021382, 4.87661099434}, {12, 0.050164, 6.71376490593},
        {12, 0.055921, 6.71519398689}, {12, 0.061678, 6.6739718914},
        {16, 0.061678, 6.83566999435},
    };
    double A[28], b[7], th[4], rn;
    for (int i = 0; i < 7; i++) {
        double m = d[i][0];
        A[4 * i] = 1;
        A[4 * i + 1] = d[i][1] / m;
        A[4 * i + 2] = log(m);
        A[4 * i + 3] = m;
        b[i] = d[i][2];
    }
    CHECK_INT(cp_nnls(A, 7, 4, b, th, &rn, NULL), 0);
    CHECK_NEAR(th[0], 1.90013, 5e-6);
    CHECK_NEAR(th[1], 162.198, 5e-6);
    CHECK_NEAR(th[2], 1.58832, 5e-6);
    CHECK(th[3] == 0);
    CHECK_NEAR(rn * rn, 0.0745, 1e-3);
    /* Ernest's examples/mllib_rcv1.md (github.com/amplab/ernest):
     * predictions at scale 1.0, to all 10 printed decimals. */
    static const double pred[7][2] = {
        {4, 44.6515640166},  {8, 25.4777295249},  {12, 19.36348049},
        {16, 16.4412832993}, {20, 14.7682298198}, {24, 13.7061636865},
        {28, 12.9855393036},
    };
    for (int i = 0; i < 7; i++) {
        double m = pred[i][0];
        double t = th[0] + th[1] / m + th[2] * log(m) + th[3] * m;
        CHECK(fabs(t - pred[i][1]) <= 0.5e-10 + 1e-12);
    }
}
