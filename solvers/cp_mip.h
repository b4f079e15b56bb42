/*
 * A MILP as plain arrays, for the engines that are not linked in: the
 * sub-MIPs of the search (lns_mip.c) and the small nights' branch-and-cut
 * (milp_glpk.c) build their model once and hand it to GLPK or, through
 * this, to CBC run as a separate program (mip_cbc.c). The layout is
 * GLPK's: rows and columns count from 1, the matrix is triplets.
 */
#ifndef CP_MIP_H
#define CP_MIP_H

#include "cp_err.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct cp_mip {
    int n_rows, n_cols;
    const double *row_lo, *row_hi; /* [1..n_rows]; -INFINITY / INFINITY: no bound */
    const double *obj;             /* [1..n_cols], minimized */
    const double *col_lo, *col_hi; /* [1..n_cols]; col_hi INFINITY: none */
    const bool *col_int;           /* [1..n_cols]: integer */
    size_t nnz;
    const int *ia, *ja; /* [1..nnz]: row, column */
    const double *ar;   /* [1..nnz]: coefficient */
    const double *start; /* [1..n_cols] a feasible solution to start from, or NULL */
} cp_mip;

/* What one solve may spend. Nodes are the work limit (reproducible);
 * the deadline and the stop flag only cut a solve short. */
typedef struct cp_mip_limits {
    long nodes;       /* branch-and-bound nodes; <= 0: none */
    double gap;       /* stop at this relative gap; <= 0: CBC's default */
    double deadline;  /* cp_now_seconds clock; <= 0: none */
    unsigned long seed; /* CBC's random seeds (one thread: same seed, same answer) */
    const volatile sig_atomic_t *stop;
    /* the root alone: its cutting planes, no heuristics and no branching,
     * for the bound they prove (res->bound; no solution is looked for) */
    bool root;
} cp_mip_limits;

typedef enum cp_mip_status {
    CP_MIP_NONE = 0,   /* no solution within the limits */
    CP_MIP_FEASIBLE,   /* a solution, not proved optimal */
    CP_MIP_OPTIMAL,    /* proved optimal (within gap) */
    CP_MIP_INFEASIBLE  /* proved to have none */
} cp_mip_status;

typedef struct cp_mip_result {
    cp_mip_status status;
    double objective; /* of x (NAN without a solution) */
    double bound;     /* CBC's lower bound, NAN when it gives none */
    double seconds;   /* wall clock of the program */
    long nodes;       /* nodes CBC says it enumerated, -1 unknown */
} cp_mip_result;

/* Solves m with the `cbc` program on PATH: the model as a free MPS file
 * and the start as a CBC solution file in a private temporary directory
 * (removed afterwards), `cbc MODEL -threads 1 -randomSeed S -randomCbcSeed S
 * -maxNodes N -timeMode elapsed -sec T [-ratioGap G] [-mipStart START]
 * -solve -solution OUT`, OUT read by cp_cbc_solu_parse. x[1..n_cols] gets
 * the solution (status FEASIBLE or OPTIMAL; untouched otherwise).
 * Returns CP_OK however CBC ended (res says); CP_ERR_IO when cbc cannot
 * be run or its files cannot be written, CP_ERR_NOMEM. */
int cp_mip_cbc_solve(const cp_mip *m, const cp_mip_limits *lim, double *x, cp_mip_result *res,
                     cp_err *err);

/* Solves m with the linked GLPK (mip_glpk.c): the same answer fields as
 * cp_mip_cbc_solve (bound NAN), m->start unused; x untouched without a
 * solution. lim->seed is not used (GLPK's branch-and-cut is
 * deterministic). Always CP_OK: a model whose bounds contradict is one
 * without a solution. */
int cp_mip_glpk_solve(const cp_mip *m, const cp_mip_limits *lim, double *x, cp_mip_result *res);

/* The lower bound CBC's log states, lowered by more than its printed
 * rounding so that it stays a bound (its last "best possible", else its
 * "Lower bound:"); NAN when it states none. */
double cp_mip_cbc_log_bound(const char *log);

#endif
