/*
 * Dense least squares and non-negative least squares for the model fits.
 *
 * cp_lstsq solves min ||A x - b||_2 by Householder QR (LAPACK dgeqrf,
 * dormqr, dtrtrs through LAPACKE). cp_nnls solves the same problem with
 * x >= 0 by Lawson and Hanson's active-set method ("Solving Least Squares
 * Problems", 1974, ch. 23), whose unconstrained subproblems go through
 * the same QR. This is the only file that includes LAPACK headers.
 *
 * Matrices are row-major, m rows (samples) by n columns (features), and
 * borrowed. Results are written only on success.
 */
#ifndef CP_NNLS_H
#define CP_NNLS_H

#include "cp_err.h"

/* Least squares. Fails with CP_ERR_INPUT when m < n or A is (numerically)
 * rank deficient: |R_jj| <= 1e-12 * max |R_ii|. */
int cp_lstsq(const double *A, int m, int n, const double *b, double *x, cp_err *err);

/* Non-negative least squares: x (n values) >= 0 minimizing ||A x - b||.
 * *rnorm (may be NULL) gets the residual norm. Works for any m, n >= 1
 * (columns that are dependent on the chosen ones are left at 0).
 * Returns CP_OK, CP_ERR_NOMEM, or CP_ERR_SOLVER when the iteration limit
 * (3n outer steps, as scipy) is hit. */
int cp_nnls(const double *A, int m, int n, const double *b, double *x, double *rnorm,
            cp_err *err);

#endif
