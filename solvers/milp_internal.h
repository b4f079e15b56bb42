/*
 * The MILP's builder state, shared by the model (milp_model.c), its solve
 * (milp_glpk.c) and the file that adds the services' columns and rows
 * (milp_svc.c, capplan.5 §10.4). Columns, rows and triplets are plain
 * arrays; GLPK's handle appears only as an incomplete type, in the calls
 * that load them into a glp_prob (cp_milp_load, cp_milp_model_open).
 */
#ifndef CP_MILP_INTERNAL_H
#define CP_MILP_INTERNAL_H

#include "solver_internal.h"

/* Service columns' codes in col_mode; col_job holds the deployment
 * (n, s), share index (f) or global class (u), col_start the slot. */
enum {
    CP_MILP_SVC_N = -3, /* n(d,t): replicas, integer in [0, bound] */
    CP_MILP_SVC_F = -4, /* f(k,d,t): share, [0, 1] */
    CP_MILP_SVC_U = -5, /* u(k,t): unserved share, [0, 1] */
    CP_MILP_SVC_S = -6  /* replicas started, >= n(d,t) - n(d,t-1), >= 0 */
};

/* A service row: its number, its bounds (+-INFINITY: that side free),
 * and what its name says (CP_MILP_SVC_ROW_*, two indices and a slot). */
typedef struct cp_milp_svc_row {
    int row;
    double lo, hi;
    int kind, a, b, t;
} cp_milp_svc_row;

enum { CP_MILP_SVC_ROW_ROUTE, CP_MILP_SVC_ROW_CAP, CP_MILP_SVC_ROW_MIN, CP_MILP_SVC_ROW_START };

typedef struct cp_milp_svc {
    int *n_col;         /* [n_deps * T], 0 when the resource holds none */
    int *f_col;         /* [n_shares * T], 0 when none */
    int *u_col;         /* [n_classes * T], 0 when the load is 0 */
    double *n_ub;       /* [n_deps * T]: most replicas the resource holds */
    cp_milp_svc_row *rows;
    int n_rows;
    size_t rows_cap;
} cp_milp_svc;

typedef struct milp {
    const cp_input *in;
    const cp_modeset *ms;
    int T;
    /* columns (1-based in GLPK; index 0 unused here too) */
    int n_cols;
    size_t cap_cols;
    /* mode -1: z column; -2: y column; CP_MILP_SVC_* (<= -3): a service column */
    int *col_job, *col_mode, *col_start;
    int *col_res, *col_t;                /* for y columns */
    int *z_col;                          /* [n_jobs], 0 when none */
    int *assign_row;                     /* [n_jobs], 0 when none */
    int *y_col;                          /* [n_res*T], 0 when none */
    /* rows */
    int n_rows;
    int *row_res;   /* [n_res*3*T] row per resource, dimension, slot; 0 none */
    int *row_site;  /* [n_sites*T] power cap rows */
    int budget_row;
    const cp_teamrows *tr; /* the usage's team rows (cp_teams.h, capplan.5 §10.2) */
    int *row_team;         /* [tr->n_rows] their rows here, 0 when no column touches one */
    int prec_first, prec_last; /* precedence rows (capplan.5 §9.2), <= 0; none when first > last */
    cp_milp_svc svc;           /* capplan.5 §10.4: columns and rows of services (milp_svc.c) */
    /* triplets */
    int *ia, *ja;
    double *ar;
    size_t nnz, cap_nnz;
    double *obj;    /* per column */
    double constant;
    /* solve state */
    const cp_solve_opts *opts;
    const cp_scope *sc;   /* NULL: the whole problem */
    const cp_plan *fix;   /* not NULL: each job keeps its mode there (and its start
                           * with fix_start), or is dropped */
    bool fix_start;
    long all_cols;        /* start columns before reduction */
    double best_seen;     /* best incumbent logged */
    double *warm;   /* [n_cols+1] the heuristic's plan, NULL if none */
    bool warm_sent;
    double bound;
    double t0, last_log;
    long nodes_seen;
} milp;

struct glp_prob;

/* milp_model.c: the columns, rows and triplets of the model (mp's in, ms,
 * T and, for a solve, opts, sc, fix and fix_start set); CP_OK or
 * CP_ERR_NOMEM, after which the caller releases mp. */
int cp_milp_build(milp *mp, const cp_usage *u);
/* Loads the built model into the empty P: rows, columns with their
 * bounds and kinds, the matrix, the objective with its constant. */
void cp_milp_load(milp *mp, struct glp_prob *P, const cp_usage *u);
/* Frees what cp_milp_build and the solve allocated in mp. */
void cp_milp_release(milp *mp);
/* The whole model of in and ms (no scope, no fixed jobs), built with u
 * (initialised here) and loaded, its rows and columns named as the
 * exported LP names them, into a new *P; CP_OK or CP_ERR_NOMEM (nothing
 * left to release). cp_milp_model_close frees mp, u and P. */
int cp_milp_model_open(milp *mp, const cp_input *in, const cp_modeset *ms, cp_usage *u,
                       struct glp_prob **P, cp_err *err);
void cp_milp_model_close(milp *mp, cp_usage *u, struct glp_prob *P);

int cp_milp_add_col(milp *mp, int job, int mode, int start, double cost);
int cp_milp_add_nz(milp *mp, int row, int col, double v);
/* The capacity row of resource r, dimension d, slot t (numbered when first used). */
int cp_milp_res_row(milp *mp, int r, int d, int t);

/* milp_svc.c: adds the services' columns, rows and triplets (after the
 * jobs' columns, before the y columns, which it marks wanted on the
 * markets replicas may use); CP_OK or CP_ERR_NOMEM. */
int cp_milp_svc_build(milp *mp, const cp_usage *u);
/* Bounds of service column c: [*lo, *hi], integer or not. */
void cp_milp_svc_col_bounds(const milp *mp, int c, double *lo, double *hi, bool *integer);
/* The name of service column c, or of the i-th service row, into buf. */
void cp_milp_svc_col_name(const milp *mp, int c, char *buf, size_t size);
void cp_milp_svc_row_name(const milp *mp, int i, char *buf, size_t size);
/* Writes the services' choices from the column values x[1..n_cols]. */
void cp_milp_svc_extract(const milp *mp, const double *x, cp_plan *plan);
void cp_milp_svc_release(milp *mp);
/* The service columns' values of plan p (a warm start) into x[1..n_cols]. */
void cp_milp_svc_warm(const milp *mp, const cp_plan *p, double *x);
/* Plan p as a solution vector x[1..n_cols+1] of the model (the last
 * column the constant's); false when a choice of p has no column. */
bool cp_milp_warm_vector(const milp *mp, const cp_plan *p, double *x);
/* p (a plan of the model's jobs) with the services of the LP solution lp
 * rounded: replicas floor(n), each deployment's shares cut to what they
 * serve, the rest routed by cp_services_complete, the fewest instances
 * that hold it all. *ok: p is feasible. */
void cp_milp_svc_round(const milp *mp, const double *lp, cp_plan *p, bool *ok);

#endif
