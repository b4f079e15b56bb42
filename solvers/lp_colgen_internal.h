/*
 * The state of the column generation (lp_colgen.c), shared by its parts:
 * lp_colgen_model.c (which rows and columns the exported model has),
 * lp_colgen_price.c (pricing and the Lagrangian bound), lp_colgen_cuts.c
 * (the lifting rows). Private to those four files. GLPK's handle
 * appears here so the master's functions can be split between them;
 * besides them only milp_glpk.c, milp_model.c and lns_mip.c include glpk.h
 * (docs/architecture.md).
 */
#ifndef CP_LP_COLGEN_INTERNAL_H
#define CP_LP_COLGEN_INTERNAL_H

#include "solver_internal.h"

#include <glpk.h>

/* Columns added per job and round: its most negative few. */
#define CG_PER_JOB 2

typedef struct cand {
    double rc;
    int mode, start;
} cand;

/* capplan.5 §10.4: the services' columns and the rows only they touch
 * (lp_colgen_svc.c), all in every master */
typedef struct cg_svc {
    int n_rows;
    char *rtype;    /* [n_rows] 'E' (= rhs), 'L' (>= rhs), 'U' (<= rhs) */
    double *rhs;    /* [n_rows] */
    int *rowno;     /* [n_rows] the row's number among all */
    int n_cols;
    double *cost, *ub; /* [n_cols]; ub INFINITY: none */
    int *first;     /* [n_cols+1] the column's entries in row, val */
    int *row;
    double *val;
    int *glp;       /* [n_cols] the master's GLPK column */
    int *n_of;      /* [n_deps*T] the column of n(d,t), -1: none; NULL: no services */
    int *u_col;     /* [n_u] the u columns (one entry: their route row) */
    int n_u;
} cg_svc;

typedef struct cg {
    const cp_input *in;
    const cp_modeset *ms;
    const cp_solve_opts *opts;
    int T, n_res, n_sites, n_jobs;
    cp_usage u;          /* empty: capacities, quotas, allowances, prices */
    size_t *col_off;     /* [n_modes+1] offsets of the (mode, start) columns */
    unsigned char *fits; /* [columns] the exported model has the column */
    int *in_mp;          /* [columns] the master's GLPK column of it, 0: none */
    double *e;           /* [n_modes*T] $ of one full slot of a pool mode */
    double constant;
    /* rows, numbered as GLPK numbers them; 0: the model has none */
    int n_rows;
    int *assign_row; /* [n_jobs] */
    int *res_row;    /* [n_res*3*T] */
    int *site_row;   /* [n_sites*T] */
    int budget_row;
    int team_row0;   /* capplan.5 §10: the usage's team rows k at team_row0 + k; 0: none */
    double *rhs;   /* [n_rows+1] b of the <= rows (0 for assignment rows) */
    int *y_col;    /* [n_res*T] GLPK column of y, 0: none */
    int *z_col;    /* [n_jobs] GLPK column of z, 0: none */
    int *seed_col; /* [n_jobs] the seed plan's column (x or z), 0: none */
    /* duals by row: the master's, the stability centre's, the pricing point's */
    double *pi_out, *pi_stab, *pi_sep;
    bool have_stab;
    /* the pricing point as dense prices (>= 0) */
    double *p_res;    /* [n_res*3*T] */
    double *p_site;   /* [n_sites*T] */
    double f_budget;  /* 1 - dual of the budget row (>= 1) */
    double *pa, *pb;  /* prefix sums [T+1] */
    cand *cands;      /* [n_jobs*CG_PER_JOB] */
    int *n_cand;      /* [n_jobs] */
    double *job_best; /* [n_jobs] min(penalty, least rc' of its columns) at the last pricing */
    double *rc_all;   /* [columns] or NULL: pricing also writes every (mode, start)'s reduced
                       * cost here, those the exported model leaves out (dominated modes,
                       * starts that fit nowhere) included, priced by the same rule */
    int *job_arg;     /* [2*n_jobs] its (mode, start); mode -1: z */
    long n_x;         /* x columns in the master */
    int *ind;         /* [n_rows+1] scratch for one column */
    double *val;
    /* precedence (capplan.5 §9.2), as the export writes it: per edge i -> j
     * and start tau of j's columns, sum x_j(s <= tau) - sum x_i(s + d
     * <= tau) <= 0; the edges with their taus ascending and rows */
    int n_edges;
    int *e_pred, *e_succ; /* [n_edges] */
    int *e_first;         /* [n_edges+1] into e_tau, e_row */
    int *e_tau, *e_row;
    int *as_succ, *as_pred; /* [n_jobs+1] offsets into the edge lists below */
    int *succ_e, *pred_e;   /* edges where the job is the successor, the predecessor */
    double *ps_start;       /* [T+2] pricing: precedence charge by start slot */
    double *ps_end;         /* [T+2] pricing: precedence credit by end slot */
    /* the lifting rows (lp_colgen_cuts.c); none until the LP is solved */
    int rows_cap; /* the row arrays above hold rows [0, rows_cap] */
    double *half; /* [n_modes*3] a one-unit mode's share of a unit per
                   * dimension, as the cut counts it: 1 above 1/2,
                   * 1/2 at 1/2, 0 below (and for larger modes) */
    int *need;    /* [n_modes] units a run needs at least; 0: none */
    int *b_row;   /* [n_res*3*T] big-share row of (r, d, t), 0: none */
    double *p_b;  /* [n_res*3*T] its price at the pricing point */
    /* job entries: job j's coefficient in a row over its runs on market
     * r covering slot t: need[m]·coef (job rows: need·x of job j on r in
     * t <= y(r,t)) or coef alone (rounding rows, below); a list per job */
    int n_a;
    size_t cap_a;
    int *a_job, *a_res, *a_t, *a_row, *a_next;
    double *a_coef;
    unsigned char *a_need;
    int *a_head;   /* [n_jobs] the job's first entry, -1: none */
    int n_jobrows; /* job rows among the rows */
    /* rounding rows (residual capacity inequalities): for a set S of jobs
     * running on market r in t, with a_j the least share of a unit in d
     * of j's modes on r, a(S) = sum a_j, k = ceil a(S), frac = a(S) -
     * floor a(S) > 0: sum_S a_j·(x of j on r in t) - frac·y(r,t) <=
     * a(S) - frac·k */
    int n_c;
    size_t cap_c;
    int *c_res, *c_t, *c_row;
    double *c_frac;
    double *p_ay; /* [n_res*T] price of the job and rounding rows on y(r,t) */
    double *w;    /* [T] scratch: one mode's job-row price by slot */
    cg_svc svc;
} cg;

/* lp_colgen_model.c */
int cp_cg_init(cg *c, const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts);
void cp_cg_release(cg *c);
bool cp_cg_mode_on(const cg *c, int m);
bool cp_cg_site_capped(const cg *c, const cp_resource *r);
/* Grows the row arrays to hold rows [0, n]; CP_ERR_NOMEM. */
int cp_cg_grow_rows(cg *c, int n);

/* lp_colgen_svc.c: the services' columns and rows (numbered after the
 * others but the lifting rows; call before the row arrays are grown),
 * their rhs (after), into the master, u basic in the first basis, their
 * part of L(pi) (-INFINITY: none at pi), the master's n(d,t) values
 * ([n_deps*T], *out NULL without services). */
int cp_cg_svc_init(cg *c);
void cp_cg_svc_rhs(cg *c);
void cp_cg_svc_load(cg *c, glp_prob *P);
void cp_cg_svc_basis(cg *c, glp_prob *P);
double cp_cg_svc_price(const cg *c, const double *pi);
int cp_cg_svc_values(const cg *c, glp_prob *P, double **out);
void cp_cg_svc_release(cg *c);

/* lp_colgen_price.c: prices every column of the exported model at pi
 * (signs already right: <= 0 on the <= rows); returns L(pi) and keeps
 * each job's candidates (reduced cost below -tolerance, not in the
 * master), *n_found of them; with c->rc_all set, every column's reduced
 * cost (the assignment dual included) into it. */
double cp_cg_price(cg *c, const double *pi, long *n_found);

/* lp_colgen_cuts.c */
int cp_cg_cuts_init(cg *c);
/* Adds the lifting rows the master's solution violates, each with its
 * coefficients on every master column; *added says how many (0: none
 * violated). CP_ERR_NOMEM. */
int cp_cg_cuts_separate(cg *c, glp_prob *P, int *added);
/* Appends the lifting rows' entries of column (m, s) to ind/val after n;
 * returns the new n. */
int cp_cg_cuts_col(const cg *c, int m, int s, int n, int *ind, double *val);

#endif
