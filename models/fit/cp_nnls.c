/*
 * Least squares and NNLS (see cp_nnls.h).
 *
 * Lawson-Hanson keeps a passive set P (coefficients free to move) and an
 * active set Z (clamped at 0). Each outer step frees the clamped
 * coefficient whose gradient w = A^T (b - A x) most wants to grow, solves
 * the unconstrained problem on P by QR, and, while that solution has a
 * non-positive entry, steps back along the segment toward it to the first
 * boundary and clamps what hit zero. QR (not normal equations) keeps the
 * subproblems accurate when the features differ by orders of magnitude,
 * as Ernest's [1, size/m, ln m, m] do.
 */
#include "cp_nnls.h"

#include "cp_alloc.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* Solves min ||A[:,cols] s - b|| for the k columns listed, A row-major
 * m x n. Work: qr (m*k), rhs (m). Returns 0, or 1 when the chosen columns
 * are rank deficient, or -1 on a LAPACK failure. */
static int solve_cols(const double *A, int m, int n, const double *b, const int *cols, int k,
                      double *qr, double *rhs, double *tau, double *s)
{
    /* Column-major copy: LAPACK's native layout, no transposition inside. */
    for (int j = 0; j < k; j++)
        for (int i = 0; i < m; i++)
            qr[(size_t)j * m + i] = A[(size_t)i * n + cols[j]];
    memcpy(rhs, b, sizeof *rhs * (size_t)m);
    if (m < k)
        return 1;
    if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, k, qr, m, tau) != 0)
        return -1;
    double rmax = 0;
    for (int j = 0; j < k; j++)
        rmax = fmax(rmax, fabs(qr[(size_t)j * m + j]));
    for (int j = 0; j < k; j++)
        if (!(fabs(qr[(size_t)j * m + j]) > 1e-12 * rmax))
            return 1;
    if (LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', m, 1, k, qr, m, tau, rhs, m) != 0)
        return -1;
    if (LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', k, 1, qr, m, rhs, m) != 0)
        return -1;
    memcpy(s, rhs, sizeof *s * (size_t)k);
    return 0;
}

int cp_lstsq(const double *A, int m, int n, const double *b, double *x, cp_err *err)
{
    if (m < n)
        return cp_err_set(err, CP_ERR_INPUT, cp_pos_none(),
                          "least squares needs at least %d samples, got %d", n, m);
    int rc = CP_OK;
    double *qr = cp_malloc(sizeof *qr * (size_t)m * (size_t)n);
    double *rhs = cp_malloc(sizeof *rhs * (size_t)m);
    double *tau = cp_malloc(sizeof *tau * (size_t)n);
    double *s = cp_malloc(sizeof *s * (size_t)n);
    int *cols = cp_malloc(sizeof *cols * (size_t)n);
    if (!qr || !rhs || !tau || !s || !cols) {
        rc = cp_err_nomem(err);
        goto out;
    }
    for (int j = 0; j < n; j++)
        cols[j] = j;
    int st = solve_cols(A, m, n, b, cols, n, qr, rhs, tau, s);
    if (st > 0)
        rc = cp_err_set(err, CP_ERR_INPUT, cp_pos_none(), "least squares: columns are rank deficient");
    else if (st < 0)
        rc = cp_err_set(err, CP_ERR_SOLVER, cp_pos_none(), "least squares: LAPACK failed");
    else
        memcpy(x, s, sizeof *x * (size_t)n);
out:
    cp_free(qr);
    cp_free(rhs);
    cp_free(tau);
    cp_free(s);
    cp_free(cols);
    return rc;
}

/* w = A^T (b - A x); r gets the residual. */
static void gradient(const double *A, int m, int n, const double *b, const double *x, double *r,
                     double *w)
{
    for (int i = 0; i < m; i++) {
        double ax = 0;
        for (int j = 0; j < n; j++)
            ax += A[(size_t)i * n + j] * x[j];
        r[i] = b[i] - ax;
    }
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < m; i++)
            s += A[(size_t)i * n + j] * r[i];
        w[j] = s;
    }
}

int cp_nnls(const double *A, int m, int n, const double *b, double *x_out, double *rnorm,
            cp_err *err)
{
    int rc = CP_OK;
    size_t mn = (size_t)m * (size_t)n;
    double *x = cp_calloc((size_t)n, sizeof *x);
    double *w = cp_malloc(sizeof *w * (size_t)n);
    double *z = cp_malloc(sizeof *z * (size_t)n);
    double *s = cp_malloc(sizeof *s * (size_t)n);
    double *tau = cp_malloc(sizeof *tau * (size_t)n);
    double *r = cp_malloc(sizeof *r * (size_t)m);
    double *rhs = cp_malloc(sizeof *rhs * (size_t)m);
    double *qr = cp_malloc(sizeof *qr * (mn ? mn : 1));
    int *passive = cp_calloc((size_t)n, sizeof *passive); /* 1 in P */
    int *skip = cp_calloc((size_t)n, sizeof *skip);       /* dependent on P this round */
    int *cols = cp_malloc(sizeof *cols * (size_t)n);
    if (!x || !w || !z || !s || !tau || !r || !rhs || !qr || !passive || !skip || !cols) {
        rc = cp_err_nomem(err);
        goto out;
    }

    /* scipy's tolerance: 10 eps ||A||_1 max(m, n). */
    double anorm = 0;
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < m; i++)
            c += fabs(A[(size_t)i * n + j]);
        anorm = fmax(anorm, c);
    }
    double tol = 10 * DBL_EPSILON * anorm * (m > n ? m : n);

    int max_outer = 3 * n, outer = 0;
    gradient(A, m, n, b, x, r, w);
    for (;;) {
        int t = -1;
        for (int j = 0; j < n; j++)
            if (!passive[j] && !skip[j] && w[j] > tol && (t < 0 || w[j] > w[t]))
                t = j;
        if (t < 0)
            break;
        if (++outer > max_outer) {
            rc = cp_err_set(err, CP_ERR_SOLVER, cp_pos_none(),
                            "nnls: no convergence after %d steps", max_outer);
            goto out;
        }
        passive[t] = 1;
        for (;;) { /* inner loop: keep the passive solution feasible */
            int k = 0;
            for (int j = 0; j < n; j++)
                if (passive[j])
                    cols[k++] = j;
            int st = solve_cols(A, m, n, b, cols, k, qr, rhs, tau, s);
            if (st < 0) {
                rc = cp_err_set(err, CP_ERR_SOLVER, cp_pos_none(), "nnls: LAPACK failed");
                goto out;
            }
            if (st > 0) {
                /* Column t adds nothing independent (it can only happen
                 * through rounding, since w_t > 0): keep it clamped. */
                passive[t] = 0;
                skip[t] = 1;
                break;
            }
            memset(z, 0, sizeof *z * (size_t)n);
            for (int j = 0; j < k; j++)
                z[cols[j]] = s[j];
            double alpha = 2;
            int jmin = -1;
            for (int j = 0; j < k; j++) {
                int c = cols[j];
                if (z[c] <= 0) {
                    double d = x[c] - z[c];
                    double a = d > 0 ? x[c] / d : 0;
                    if (a < alpha) {
                        alpha = a;
                        jmin = c;
                    }
                }
            }
            if (jmin < 0) { /* all positive: accept */
                memcpy(x, z, sizeof *x * (size_t)n);
                break;
            }
            /* Step toward z up to the first boundary; what reached it (at
             * least jmin, exactly) leaves the passive set. */
            for (int j = 0; j < n; j++)
                x[j] += alpha * (z[j] - x[j]);
            x[jmin] = 0;
            for (int j = 0; j < n; j++)
                if (passive[j] && x[j] <= tol) {
                    passive[j] = 0;
                    x[j] = 0;
                }
        }
        if (!skip[t])
            memset(skip, 0, sizeof *skip * (size_t)n);
        gradient(A, m, n, b, x, r, w);
    }
    memcpy(x_out, x, sizeof *x * (size_t)n);
    if (rnorm) {
        double ss = 0;
        for (int i = 0; i < m; i++)
            ss += r[i] * r[i];
        *rnorm = sqrt(ss);
    }
out:
    cp_free(x);
    cp_free(w);
    cp_free(z);
    cp_free(s);
    cp_free(tau);
    cp_free(r);
    cp_free(rhs);
    cp_free(qr);
    cp_free(passive);
    cp_free(skip);
    cp_free(cols);
    return rc;
}
