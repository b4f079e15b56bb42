/*
 * The exact LP relaxation of the exported time-indexed model
 * (milp_glpk.c: same rows, same columns, x and z relaxed to >= 0) by
 * column generation, with a valid lower bound at every round.
 *
 * Why: GLPK's simplex does not finish the full LP of a 1,000-job night
 * within minutes (110,000 columns), and the subgradient bound of
 * lagrange.c converges slowly where much of the work must go to the
 * cloud. Almost all of the x[j,m,s] columns stay at zero in the LP, so a
 * restricted master holds every row of the model, the drop columns z_j,
 * the instance columns y[r,t] (a few per market and slot) and only the
 * x columns that have been useful; pricing enumerates every (job, mode,
 * start) against the master's duals with prefix sums over the slots (one
 * pass over the columns, as in lagrange.c) and adds each job's most
 * negative few.
 *
 * The bound: for any duals with the right signs (<= 0 on the <= rows),
 * keeping each job's convexity row (coefficient 1 on all its columns) in
 * the subproblem gives the Lagrangian value
 *
 *   L(pi) = const + sum_i pi_i b_i + sum_j min(penalty_j, min_c rc'_c)
 *           + sum_y min(0, rc_y) quota_y
 *
 * (rc' without the convexity dual), a lower bound on the LP optimum and
 * so on the SPEC total. At the master's optimal duals it is Farley's
 * master value + sum_j min(0, min reduced cost of job j).
 *
 * Speed comes from three things, each measured on the bench nights
 * (docs/performance.md, "The LP bound"): the first master holds the seed
 * plan's columns and starts from the basis of that plan (primal feasible:
 * no phase 1); the duals start at the subgradient's multipliers (the
 * stability centre, so the bound starts where lagrange.c left it, and each
 * job's best column there enters the master); and pricing is smoothed
 * (Wentges: at a convex combination of the best bound's duals and the
 * master's; when that finds no column, again at the master's duals, and
 * when those find none either, the master's value is the LP optimum). The
 * rows are scaled to units of a node or instance, which the simplex needs
 * to stay stable (GB and watts otherwise). Runs stop there, when the bound
 * meets the master's value within 1e-8 relative, on the round limit, the
 * time or the stop flag; GLPK's simplex is deterministic, so under
 * --node-limit the result does not depend on the clock unless the whole
 * time limit runs out.
 *
 * The rows and coefficients are milp_build's (milp_glpk.c): assignment,
 * pool and market capacity (with -dim·y), site power, precedence (SPEC
 * 9.2: per edge i -> j and start tau of j, j started by tau <= i ended by
 * tau), the budget; a column's cost is its energy and carbon on a pool
 * plus its egress (SPEC 9.3). tests/suite_lp.sh compares the optimum with
 * glpsol's on the exported file, so the two cannot drift apart unseen.
 *
 * Dominated modes (reduce.c) get no columns here, as in the export: the
 * mode that dominates one uses no more of any row at the same start and
 * costs no more, so swapping them in any LP solution keeps it feasible
 * and no dearer, and the LP optimum is the same with or without them.
 * The glp_prob lives within cp_lpcg_run; only values leave it.
 */
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <glpk.h>
#include <math.h>
#include <string.h>

/* Columns added per job and round: its most negative few. */
#define CG_PER_JOB 2
/* Rounds at most (a work limit, so a run under --node-limit is
 * reproducible whatever the clock does). */
#define CG_MAX_ROUNDS 400
/* Weight of the best bound's duals in the pricing point (Wentges). */
#define CG_SMOOTH 0.5
/* Simplex iterations between two looks at the clock and the stop flag. */
#define CG_LP_SLICE 2000
/* The bound and the master's value agree within this: done (GLPK's own
 * optimality tolerances are coarser, 1e-7 on reduced costs). */
#define CG_GAP 1e-8

typedef struct cand {
    double rc;
    int mode, start;
} cand;

typedef struct cg {
    const cp_input *in;
    const cp_modeset *ms;
    const cp_solve_opts *opts;
    int T, n_res, n_sites, n_jobs;
    cp_usage u;             /* empty: capacities, quotas, allowances, prices */
    size_t *col_off;        /* [n_modes+1] offsets of the (mode, start) columns */
    unsigned char *fits;    /* [columns] the exported model has the column */
    unsigned char *in_mp;   /* [columns] the master has it */
    double *e;              /* [n_modes*T] $ of one full slot of a pool mode */
    double constant;
    /* rows, numbered as GLPK numbers them; 0: the model has none */
    int n_rows;
    int *assign_row;        /* [n_jobs] */
    int *res_row;           /* [n_res*3*T] */
    int *site_row;          /* [n_sites*T] */
    int budget_row;
    double *rhs;            /* [n_rows+1] b of the <= rows (0 for assignment rows) */
    int *y_col;             /* [n_res*T] GLPK column of y, 0: none */
    int *z_col;             /* [n_jobs] GLPK column of z, 0: none */
    int *seed_col;          /* [n_jobs] the seed plan's column (x or z), 0: none */
    /* duals by row: the master's, the stability centre's, the pricing point's */
    double *pi_out, *pi_stab, *pi_sep;
    bool have_stab;
    /* the pricing point as dense prices (>= 0) */
    double *p_res;          /* [n_res*3*T] */
    double *p_site;         /* [n_sites*T] */
    double f_budget;        /* 1 - dual of the budget row (>= 1) */
    double *pa, *pb;        /* prefix sums [T+1] */
    cand *cands;            /* [n_jobs*CG_PER_JOB] */
    int *n_cand;            /* [n_jobs] */
    double *job_best;       /* [n_jobs] min(penalty, least rc' of its columns) at the last pricing */
    int *job_arg;           /* [2*n_jobs] its (mode, start); mode -1: z */
    long n_x;               /* x columns in the master */
    int *ind;               /* [n_rows+1] scratch for one column */
    double *val;
    /* precedence (SPEC 9.2), as the export writes it: per edge i -> j
     * and start tau of j's columns, sum x_j(s <= tau) - sum x_i(s + d
     * <= tau) <= 0; the edges with their taus ascending and rows */
    int n_edges;
    int *e_pred, *e_succ;   /* [n_edges] */
    int *e_first;           /* [n_edges+1] into e_tau, e_row */
    int *e_tau, *e_row;
    int *as_succ, *as_pred; /* [n_jobs+1] offsets into the edge lists below */
    int *succ_e, *pred_e;   /* edges where the job is the successor, the predecessor */
    double *ps_start;       /* [T+2] pricing: precedence charge by start slot */
    double *ps_end;         /* [T+2] pricing: precedence credit by end slot */
} cg;

static void cg_release(cg *c)
{
    cp_usage_release(&c->u);
    cp_free(c->col_off);
    cp_free(c->fits);
    cp_free(c->in_mp);
    cp_free(c->e);
    cp_free(c->assign_row);
    cp_free(c->res_row);
    cp_free(c->site_row);
    cp_free(c->rhs);
    cp_free(c->y_col);
    cp_free(c->z_col);
    cp_free(c->seed_col);
    cp_free(c->pi_out);
    cp_free(c->pi_stab);
    cp_free(c->pi_sep);
    cp_free(c->p_res);
    cp_free(c->p_site);
    cp_free(c->pa);
    cp_free(c->pb);
    cp_free(c->cands);
    cp_free(c->n_cand);
    cp_free(c->job_best);
    cp_free(c->job_arg);
    cp_free(c->ind);
    cp_free(c->val);
    cp_free(c->e_pred);
    cp_free(c->e_succ);
    cp_free(c->e_first);
    cp_free(c->e_tau);
    cp_free(c->e_row);
    cp_free(c->as_succ);
    cp_free(c->as_pred);
    cp_free(c->succ_e);
    cp_free(c->pred_e);
    cp_free(c->ps_start);
    cp_free(c->ps_end);
}

/* The precedence rows: an edge i -> j of two jobs with assignment rows
 * where j has a column gets a row per distinct start of j's columns
 * (milp_glpk.c's add_precedence). */
static int precedence_rows(cg *c)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    int T = c->T;
    size_t nj = (size_t)(c->n_jobs ? c->n_jobs : 1);
    c->as_succ = cp_calloc(nj + 1, sizeof *c->as_succ);
    c->as_pred = cp_calloc(nj + 1, sizeof *c->as_pred);
    c->ps_start = cp_calloc((size_t)T + 2, sizeof *c->ps_start);
    c->ps_end = cp_calloc((size_t)T + 2, sizeof *c->ps_end);
    unsigned char *starts = cp_calloc((size_t)T + 1, 1);
    int *njt = cp_calloc(nj, sizeof *njt); /* distinct starts of j's columns */
    int rc = CP_OK;
    if (!c->as_succ || !c->as_pred || !c->ps_start || !c->ps_end || !starts || !njt) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    long n_tau = 0;
    for (int j = 0; j < c->n_jobs; j++) {
        const cp_job *jb = &in->jobs[j];
        if (!jb->n_after || !c->assign_row[j])
            continue;
        memset(starts, 0, (size_t)T + 1);
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            for (int s = ms->modes[m].s_min; s <= ms->modes[m].s_max; s++)
                if (c->fits[c->col_off[m] + (size_t)(s - ms->modes[m].s_min)])
                    starts[s] = 1;
        for (int t = 0; t <= T; t++)
            njt[j] += starts[t];
        if (!njt[j])
            continue;
        for (int a = 0; a < jb->n_after; a++)
            if (c->assign_row[jb->after[a]]) {
                c->n_edges++;
                n_tau += njt[j];
            }
    }
    if (!c->n_edges)
        goto out;
    size_t ne = (size_t)c->n_edges;
    c->e_pred = cp_calloc(ne, sizeof *c->e_pred);
    c->e_succ = cp_calloc(ne, sizeof *c->e_succ);
    c->e_first = cp_calloc(ne + 1, sizeof *c->e_first);
    c->e_tau = cp_calloc((size_t)n_tau, sizeof *c->e_tau);
    c->e_row = cp_calloc((size_t)n_tau, sizeof *c->e_row);
    c->succ_e = cp_calloc(ne, sizeof *c->succ_e);
    c->pred_e = cp_calloc(ne, sizeof *c->pred_e);
    if (!c->e_pred || !c->e_succ || !c->e_first || !c->e_tau || !c->e_row || !c->succ_e || !c->pred_e) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    int e = 0, k = 0;
    for (int j = 0; j < c->n_jobs; j++) {
        const cp_job *jb = &in->jobs[j];
        if (!jb->n_after || !c->assign_row[j] || !njt[j])
            continue;
        memset(starts, 0, (size_t)T + 1);
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            for (int s = ms->modes[m].s_min; s <= ms->modes[m].s_max; s++)
                if (c->fits[c->col_off[m] + (size_t)(s - ms->modes[m].s_min)])
                    starts[s] = 1;
        for (int a = 0; a < jb->n_after; a++) {
            int i = jb->after[a];
            if (!c->assign_row[i])
                continue;
            c->e_pred[e] = i;
            c->e_succ[e] = j;
            c->e_first[e] = k;
            for (int t = 0; t <= T; t++)
                if (starts[t]) {
                    c->e_tau[k] = t;
                    c->e_row[k] = ++c->n_rows;
                    k++;
                }
            c->as_succ[j + 1]++;
            c->as_pred[i + 1]++;
            e++;
        }
    }
    c->e_first[e] = k;
    for (int j = 0; j < c->n_jobs; j++) {
        c->as_succ[j + 1] += c->as_succ[j];
        c->as_pred[j + 1] += c->as_pred[j];
    }
    for (int j = 0; j < c->n_jobs; j++)
        njt[j] = 0; /* fill counters now */
    for (e = 0; e < c->n_edges; e++) {
        int j = c->e_succ[e];
        c->succ_e[c->as_succ[j] + njt[j]++] = e;
    }
    for (int j = 0; j < c->n_jobs; j++)
        njt[j] = 0;
    for (e = 0; e < c->n_edges; e++) {
        int i = c->e_pred[e];
        c->pred_e[c->as_pred[i] + njt[i]++] = e;
    }
out:
    cp_free(starts);
    cp_free(njt);
    return rc;
}

static bool mode_on(const cg *c, int m)
{
    return !(c->u.dominated && c->u.dominated[m]);
}

static bool site_capped(const cg *c, const cp_resource *r)
{
    return r->kind == CP_RES_POOL && c->in->sites[r->site].power_cap_kw.set;
}

/* Which columns the exported model has, and from them which rows and y
 * columns (milp_build's rules: a row exists when a column touches it). */
static int cg_init(cg *c, const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts)
{
    memset(c, 0, sizeof *c);
    c->in = in;
    c->ms = ms;
    c->opts = opts;
    c->T = in->slots;
    c->n_res = ms->n_res;
    c->n_sites = in->n_sites;
    c->n_jobs = in->n_jobs;
    if (cp_usage_init(&c->u, in, ms))
        return CP_ERR_NOMEM;
    size_t T = (size_t)c->T, nm = (size_t)ms->n_modes;
    size_t nrr = (size_t)(c->n_res ? c->n_res : 1) * CP_DIMS * T;
    size_t nsr = (size_t)(c->n_sites ? c->n_sites : 1) * T;
    size_t nj = (size_t)(c->n_jobs ? c->n_jobs : 1);
    c->col_off = cp_calloc(nm + 1, sizeof *c->col_off);
    c->e = cp_calloc((nm ? nm : 1) * T, sizeof *c->e);
    c->assign_row = cp_calloc(nj, sizeof *c->assign_row);
    c->res_row = cp_calloc(nrr, sizeof *c->res_row);
    c->site_row = cp_calloc(nsr, sizeof *c->site_row);
    c->y_col = cp_calloc((size_t)(c->n_res ? c->n_res : 1) * T, sizeof *c->y_col);
    c->z_col = cp_calloc(nj, sizeof *c->z_col);
    c->seed_col = cp_calloc(nj, sizeof *c->seed_col);
    c->p_res = cp_calloc(nrr, sizeof *c->p_res);
    c->p_site = cp_calloc(nsr, sizeof *c->p_site);
    c->pa = cp_calloc(T + 1, sizeof *c->pa);
    c->pb = cp_calloc(T + 1, sizeof *c->pb);
    c->cands = cp_calloc(nj * CG_PER_JOB, sizeof *c->cands);
    c->n_cand = cp_calloc(nj, sizeof *c->n_cand);
    c->job_best = cp_calloc(nj, sizeof *c->job_best);
    c->job_arg = cp_calloc(2 * nj, sizeof *c->job_arg);
    if (!c->col_off || !c->e || !c->assign_row || !c->res_row || !c->site_row || !c->y_col || !c->z_col || !c->seed_col || !c->p_res ||
        !c->p_site || !c->pa || !c->pb || !c->cands || !c->n_cand || !c->job_best ||
        !c->job_arg)
        return CP_ERR_NOMEM;
    for (size_t m = 0; m < nm; m++)
        c->col_off[m + 1] = c->col_off[m] + (size_t)(ms->modes[m].s_max - ms->modes[m].s_min + 1);
    size_t ncol = c->col_off[nm] ? c->col_off[nm] : 1;
    c->fits = cp_calloc(ncol, 1);
    c->in_mp = cp_calloc(ncol, 1);
    if (!c->fits || !c->in_mp)
        return CP_ERR_NOMEM;
    c->constant = cp_fixed_cost(in, ms);
    /* assignment rows first, in job order, as in the export */
    for (int j = 0; j < in->n_jobs; j++)
        if (ms->job_first[j] < ms->job_first[j + 1])
            c->assign_row[j] = ++c->n_rows;
    /* rows other columns touch; y wanted where a market column runs */
    for (int j = 0; j < in->n_jobs; j++)
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            if (!mode_on(c, m))
                continue;
            const cp_mode *md = &ms->modes[m];
            const cp_resource *r = &ms->res[md->res];
            bool pool = r->kind == CP_RES_POOL;
            for (int s = md->s_min; s <= md->s_max; s++) {
                if (!cp_usage_start_fits(&c->u, m, s))
                    continue;
                c->fits[c->col_off[m] + (size_t)(s - md->s_min)] = 1;
                for (int i = 0; i < md->slots; i++) {
                    size_t t = (size_t)(s + i);
                    for (int d = 0; d < CP_DIMS; d++) {
                        int *row = &c->res_row[((size_t)md->res * CP_DIMS + (size_t)d) * T + t];
                        if (md->demand[d] > 0 && !*row)
                            *row = ++c->n_rows;
                    }
                    if (site_capped(c, r) && md->busy_w > 0) {
                        int *row = &c->site_row[(size_t)r->site * T + t];
                        if (!*row)
                            *row = ++c->n_rows;
                    }
                    if (!pool)
                        c->y_col[(size_t)md->res * T + t] = -1;
                }
            }
            if (pool)
                for (size_t t = 0; t < T; t++)
                    c->e[(size_t)m * T + t] = in->sites[r->site].pue * md->busy_w * in->slot_hours / 1000 *
                                              c->u.kwh_cost[(size_t)r->site * T + t];
        }
    if (precedence_rows(c))
        return CP_ERR_NOMEM;
    if (in->has_budget)
        c->budget_row = ++c->n_rows;
    size_t nr = (size_t)c->n_rows + 1;
    c->rhs = cp_calloc(nr, sizeof *c->rhs);
    c->pi_out = cp_calloc(nr, sizeof *c->pi_out);
    c->pi_stab = cp_calloc(nr, sizeof *c->pi_stab);
    c->pi_sep = cp_calloc(nr, sizeof *c->pi_sep);
    c->ind = cp_calloc(nr + 1, sizeof *c->ind);
    c->val = cp_calloc(nr + 1, sizeof *c->val);
    if (!c->rhs || !c->pi_out || !c->pi_stab || !c->pi_sep || !c->ind || !c->val)
        return CP_ERR_NOMEM;
    for (int r = 0; r < c->n_res; r++)
        for (int d = 0; d < CP_DIMS; d++)
            for (size_t t = 0; t < T; t++) {
                int row = c->res_row[((size_t)r * CP_DIMS + (size_t)d) * T + t];
                if (row && ms->res[r].kind == CP_RES_POOL)
                    c->rhs[row] = cp_usage_cap(&c->u, r, d, (int)t);
            }
    for (int s = 0; s < c->n_sites; s++)
        for (size_t t = 0; t < T; t++) {
            int row = c->site_row[(size_t)s * T + t];
            if (row)
                c->rhs[row] = c->u.allow[(size_t)s * T + t];
        }
    if (c->budget_row)
        c->rhs[c->budget_row] = c->u.budget - c->u.spend;
    return CP_OK;
}

/* The rows and the columns every master has: z_j, y[r,t]. */
static void load_rows(cg *c, glp_prob *P)
{
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    glp_set_obj_dir(P, GLP_MIN);
    glp_set_obj_coef(P, 0, c->constant);
    if (c->n_rows)
        glp_add_rows(P, c->n_rows);
    for (int j = 0; j < c->n_jobs; j++)
        if (c->assign_row[j])
            glp_set_row_bnds(P, c->assign_row[j], GLP_FX, 1.0, 1.0);
    for (size_t k = 0; k < (size_t)c->n_res * CP_DIMS * T; k++)
        if (c->res_row[k])
            glp_set_row_bnds(P, c->res_row[k], GLP_UP, 0.0, c->rhs[c->res_row[k]]);
    for (size_t k = 0; k < (size_t)c->n_sites * T; k++)
        if (c->site_row[k])
            glp_set_row_bnds(P, c->site_row[k], GLP_UP, 0.0, c->rhs[c->site_row[k]]);
    for (long k = 0; c->n_edges && k < c->e_first[c->n_edges]; k++)
        glp_set_row_bnds(P, c->e_row[k], GLP_UP, 0.0, 0.0);
    if (c->budget_row)
        glp_set_row_bnds(P, c->budget_row, GLP_UP, 0.0, c->rhs[c->budget_row]);
    /* z_j: the penalty, on its assignment row only (x <= 1 and z <= 1
     * follow from the row, so both are left without upper bounds) */
    for (int j = 0; j < c->n_jobs; j++) {
        if (!c->assign_row[j])
            continue;
        int k = glp_add_cols(P, 1);
        c->z_col[j] = c->seed_col[j] = k;
        glp_set_col_bnds(P, k, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(P, k, c->in->jobs[j].drop_penalty);
        c->ind[1] = c->assign_row[j];
        c->val[1] = 1.0;
        glp_set_mat_col(P, k, 1, c->ind, c->val);
    }
    for (int r = 0; r < c->n_res; r++)
        for (size_t t = 0; t < T; t++) {
            int *yc = &c->y_col[(size_t)r * T + t];
            if (*yc != -1)
                continue;
            double cost = c->u.slot_cost[(size_t)r * T + t];
            int q = cp_usage_quota(&c->u, r, (int)t);
            int k = glp_add_cols(P, 1);
            *yc = k;
            if (q > 0)
                glp_set_col_bnds(P, k, GLP_DB, 0.0, q);
            else
                glp_set_col_bnds(P, k, GLP_FX, 0.0, 0.0);
            glp_set_obj_coef(P, k, cost);
            int n = 0;
            for (int d = 0; d < CP_DIMS; d++) {
                int row = c->res_row[((size_t)r * CP_DIMS + (size_t)d) * T + t];
                double dim = cp_machine_dim(ms->res[r].mach, d);
                if (row && dim != 0) {
                    n++;
                    c->ind[n] = row;
                    c->val[n] = -dim;
                }
            }
            if (c->budget_row && cost != 0) {
                n++;
                c->ind[n] = c->budget_row;
                c->val[n] = cost;
            }
            glp_set_mat_col(P, k, n, c->ind, c->val);
        }
}

/* Row scale factors (GLPK solves R·A and reports unscaled values): a
 * capacity row in units of one node or instance, a power row in units
 * of the site's largest node, so the coefficients are fractions of a
 * unit instead of GB and watts in the thousands. */
static void scale_rows(cg *c, glp_prob *P)
{
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    for (int r = 0; r < c->n_res; r++)
        for (int d = 0; d < CP_DIMS; d++) {
            double dim = cp_machine_dim(ms->res[r].mach, d);
            for (size_t t = 0; t < T; t++) {
                int row = c->res_row[((size_t)r * CP_DIMS + (size_t)d) * T + t];
                if (row && dim > 0)
                    glp_set_rii(P, row, 1 / dim);
            }
        }
    for (int s = 0; s < c->n_sites; s++) {
        double w = 0;
        for (int r = 0; r < c->n_res; r++)
            if (ms->res[r].kind == CP_RES_POOL && ms->res[r].site == s)
                w = fmax(w, ms->res[r].mach->power_w);
        for (size_t t = 0; t < T; t++) {
            int row = c->site_row[(size_t)s * T + t];
            if (row && w > 0)
                glp_set_rii(P, row, 1 / w);
        }
    }
}

/* Adds x[j,m,s] with the export's coefficients. */
static int add_x(cg *c, glp_prob *P, int m, int s)
{
    const cp_modeset *ms = c->ms;
    const cp_mode *md = &ms->modes[m];
    const cp_resource *r = &ms->res[md->res];
    size_t T = (size_t)c->T;
    double cost = md->egress; /* SPEC 9.3: once per run, on any resource */
    if (r->kind == CP_RES_POOL) {
        cp_run_cost rc;
        cp_pool_run_cost(c->in, ms, md, s, &rc);
        cost += rc.energy_cost + rc.carbon_cost;
    }
    int n = 0;
    c->ind[++n] = c->assign_row[md->job];
    c->val[n] = 1.0;
    for (int i = 0; i < md->slots; i++) {
        size_t t = (size_t)(s + i);
        for (int d = 0; d < CP_DIMS; d++)
            if (md->demand[d] > 0) {
                c->ind[++n] = c->res_row[((size_t)md->res * CP_DIMS + (size_t)d) * T + t];
                c->val[n] = md->demand[d];
            }
        if (site_capped(c, r) && md->busy_w > 0) {
            c->ind[++n] = c->site_row[(size_t)r->site * T + t];
            c->val[n] = md->busy_w * (i == md->slots - 1 ? md->last_frac : 1.0);
        }
    }
    int j = md->job;
    for (int q = c->as_succ ? c->as_succ[j] : 0; c->as_succ && q < c->as_succ[j + 1]; q++) {
        int e = c->succ_e[q];
        for (int k = c->e_first[e]; k < c->e_first[e + 1]; k++)
            if (c->e_tau[k] >= s) {
                c->ind[++n] = c->e_row[k];
                c->val[n] = 1.0;
            }
    }
    for (int q = c->as_pred ? c->as_pred[j] : 0; c->as_pred && q < c->as_pred[j + 1]; q++) {
        int e = c->pred_e[q];
        for (int k = c->e_first[e]; k < c->e_first[e + 1]; k++)
            if (c->e_tau[k] >= s + md->slots) {
                c->ind[++n] = c->e_row[k];
                c->val[n] = -1.0;
            }
    }
    if (c->budget_row && cost != 0) {
        c->ind[++n] = c->budget_row;
        c->val[n] = cost;
    }
    int k = glp_add_cols(P, 1);
    glp_set_col_bnds(P, k, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, k, cost);
    glp_set_mat_col(P, k, n, c->ind, c->val);
    c->in_mp[c->col_off[m] + (size_t)(s - md->s_min)] = 1;
    c->n_x++;
    return k;
}

/* Dense prices of the pricing point pi (by row). */
static void set_prices(cg *c, const double *pi)
{
    size_t T = (size_t)c->T;
    size_t nrr = (size_t)c->n_res * CP_DIMS * T, nsr = (size_t)c->n_sites * T;
    for (size_t k = 0; k < nrr; k++)
        c->p_res[k] = c->res_row[k] ? -pi[c->res_row[k]] : 0;
    for (size_t k = 0; k < nsr; k++)
        c->p_site[k] = c->site_row[k] ? -pi[c->site_row[k]] : 0;
    c->f_budget = c->budget_row ? 1 - pi[c->budget_row] : 1;
}

/* Keeps job j's CG_PER_JOB most negative candidates, sorted. */
static void keep_cand(cg *c, int j, double rc, int m, int s)
{
    cand *cs = &c->cands[(size_t)j * CG_PER_JOB];
    int n = c->n_cand[j];
    if (n == CG_PER_JOB && rc >= cs[n - 1].rc)
        return;
    int i = n < CG_PER_JOB ? n++ : n - 1;
    while (i > 0 && cs[i - 1].rc > rc) {
        cs[i] = cs[i - 1];
        i--;
    }
    cs[i].rc = rc;
    cs[i].mode = m;
    cs[i].start = s;
    c->n_cand[j] = n;
}

/* Prices every column of the exported model at pi (signs already right);
 * returns L(pi) and keeps each job's candidates (reduced cost below
 * -tolerance, not in the master). */
static double price(cg *c, const double *pi, long *n_found)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    set_prices(c, pi);
    double f = c->f_budget;
    double L = c->constant;
    for (int i = 1; i <= c->n_rows; i++)
        L += pi[i] * c->rhs[i]; /* 0 on the assignment rows */
    long found = 0;
    for (int j = 0; j < c->n_jobs; j++) {
        c->n_cand[j] = 0;
        if (!c->assign_row[j])
            continue;
        double pj = pi[c->assign_row[j]];
        double tol = 1e-9 * (1 + fabs(pj));
        double best = in->jobs[j].drop_penalty;
        int bm = -1, bs = 0;
        /* precedence rows as charges by start slot (j a successor: its
         * rows with tau >= s) and credits by end slot (j a predecessor:
         * its rows with tau >= s + d), suffix sums over the slots */
        bool prec = c->n_edges && (c->as_succ[j + 1] > c->as_succ[j] || c->as_pred[j + 1] > c->as_pred[j]);
        if (prec) {
            memset(c->ps_start, 0, (T + 2) * sizeof *c->ps_start);
            memset(c->ps_end, 0, (T + 2) * sizeof *c->ps_end);
            for (int q = c->as_succ[j]; q < c->as_succ[j + 1]; q++)
                for (int k = c->e_first[c->succ_e[q]]; k < c->e_first[c->succ_e[q] + 1]; k++)
                    c->ps_start[c->e_tau[k]] -= pi[c->e_row[k]];
            for (int q = c->as_pred[j]; q < c->as_pred[j + 1]; q++)
                for (int k = c->e_first[c->pred_e[q]]; k < c->e_first[c->pred_e[q] + 1]; k++)
                    c->ps_end[c->e_tau[k]] += pi[c->e_row[k]];
            for (size_t t = T; t-- > 0;) {
                c->ps_start[t] += c->ps_start[t + 1];
                c->ps_end[t] += c->ps_end[t + 1];
            }
        }
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            if (!mode_on(c, m))
                continue;
            const cp_mode *md = &ms->modes[m];
            const cp_resource *r = &ms->res[md->res];
            bool pool = r->kind == CP_RES_POOL;
            int t_hi = md->s_max + md->slots;
            const double *pr = &c->p_res[(size_t)md->res * CP_DIMS * T];
            const double *e = &c->e[(size_t)m * T];
            const double *ps = pool ? &c->p_site[(size_t)r->site * T] : NULL;
            c->pa[md->s_min] = c->pb[md->s_min] = 0;
            for (int t = md->s_min; t < t_hi; t++) {
                double a = 0;
                for (int d = 0; d < CP_DIMS; d++)
                    a += pr[(size_t)d * T + (size_t)t] * md->demand[d];
                c->pa[t + 1] = c->pa[t] + a;
                c->pb[t + 1] = c->pb[t] + (pool ? f * e[t] + ps[t] * md->busy_w : 0);
            }
            const unsigned char *fits = &c->fits[c->col_off[m]];
            const unsigned char *inm = &c->in_mp[c->col_off[m]];
            for (int s = md->s_min; s <= md->s_max; s++) {
                if (!fits[s - md->s_min])
                    continue;
                int last = s + md->slots - 1;
                double v = c->pa[last + 1] - c->pa[s] + c->pb[last] - c->pb[s] +
                           md->last_frac * (c->pb[last + 1] - c->pb[last]);
                v += f * md->egress;
                if (prec)
                    v += c->ps_start[s] + c->ps_end[last + 1];
                if (v < best) {
                    best = v;
                    bm = m;
                    bs = s;
                }
                if (v - pj < -tol && !inm[s - md->s_min])
                    keep_cand(c, j, v - pj, m, s);
            }
        }
        L += best;
        c->job_best[j] = best;
        c->job_arg[2 * j] = bm;
        c->job_arg[2 * j + 1] = bs;
        found += c->n_cand[j];
    }
    /* y: min(0, reduced cost) at its quota */
    for (int r = 0; r < c->n_res; r++)
        for (size_t t = 0; t < T; t++) {
            if (c->y_col[(size_t)r * T + t] <= 0)
                continue;
            double red = f * c->u.slot_cost[(size_t)r * T + t];
            for (int d = 0; d < CP_DIMS; d++)
                red -= c->p_res[((size_t)r * CP_DIMS + (size_t)d) * T + t] * cp_machine_dim(ms->res[r].mach, d);
            int q = cp_usage_quota(&c->u, r, (int)t);
            if (red < 0 && q > 0)
                L += red * q;
        }
    *n_found = found;
    return L;
}

/* The first columns: the seed plan's (with the z columns, a feasible
 * master whose value is at most the plan's cost). Measured on the bench
 * nights, also adding each job's cheapest column per resource made the
 * column generation 2-3 times slower (a larger master to re-solve every
 * round, docs/performance.md), so the rest comes from pricing. */
static void initial_columns(cg *c, glp_prob *P, const cp_plan *seed)
{
    const cp_modeset *ms = c->ms;
    if (!seed || seed->status == CP_STATUS_INFEASIBLE)
        return;
    for (int j = 0; j < c->n_jobs; j++) {
        int m = seed->mode[j], s = seed->start[j];
        if (m < 0 || !c->assign_row[j])
            continue;
        const cp_mode *md = &ms->modes[m];
        if (s < md->s_min || s > md->s_max || !mode_on(c, m))
            continue;
        size_t k = c->col_off[m] + (size_t)(s - md->s_min);
        if (c->fits[k] && !c->in_mp[k])
            c->seed_col[j] = add_x(c, P, m, s);
    }
}

/* A first basis in which the master is at the seed plan (with the
 * fewest fractional instances): each job's plan column (or z) basic in
 * its assignment row; in each market slot the plan uses, y basic in the
 * row of the dimension that needs the most instances (that row tight);
 * every other row's slack basic. It is primal feasible because the plan
 * is, so the simplex starts from the plan's cost instead of a phase 1. */
static void seed_basis(cg *c, glp_prob *P, const cp_plan *seed)
{
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    int n_cols = glp_get_num_cols(P);
    for (int i = 1; i <= c->n_rows; i++)
        glp_set_row_stat(P, i, GLP_BS);
    for (int k = 1; k <= n_cols; k++)
        glp_set_col_stat(P, k, glp_get_col_type(P, k) == GLP_FX ? GLP_NS : GLP_NL);
    for (int j = 0; j < c->n_jobs; j++)
        if (c->assign_row[j]) {
            glp_set_row_stat(P, c->assign_row[j], GLP_NS);
            glp_set_col_stat(P, c->seed_col[j], GLP_BS);
        }
    /* demand of the seed's columns per market, dimension and slot */
    double *use = c->p_res; /* scratch, [n_res*3*T] */
    memset(use, 0, (size_t)c->n_res * CP_DIMS * T * sizeof *use);
    for (int j = 0; j < c->n_jobs; j++) {
        if (!c->seed_col[j] || c->seed_col[j] == c->z_col[j])
            continue;
        const cp_mode *md = &ms->modes[seed->mode[j]];
        for (int i = 0; i < md->slots; i++)
            for (int d = 0; d < CP_DIMS; d++)
                use[((size_t)md->res * CP_DIMS + (size_t)d) * T + (size_t)(seed->start[j] + i)] += md->demand[d];
    }
    for (int r = 0; r < c->n_res; r++) {
        if (ms->res[r].kind == CP_RES_POOL)
            continue;
        for (size_t t = 0; t < T; t++) {
            int yc = c->y_col[(size_t)r * T + t];
            double most = 0;
            int row = 0;
            for (int d = 0; d < CP_DIMS; d++) {
                size_t k = ((size_t)r * CP_DIMS + (size_t)d) * T + t;
                double dim = cp_machine_dim(ms->res[r].mach, d);
                if (c->res_row[k] && dim > 0 && use[k] / dim > most) {
                    most = use[k] / dim;
                    row = c->res_row[k];
                }
            }
            if (yc > 0 && row) {
                glp_set_col_stat(P, yc, GLP_BS);
                glp_set_row_stat(P, row, GLP_NU);
            }
        }
    }
    memset(use, 0, (size_t)c->n_res * CP_DIMS * T * sizeof *use);
}

/* Solves the master from its current basis; GLP_OPT, GLP_NOFEAS, or 0
 * when the time or the stop flag cut it short. */
static int solve_master(cg *c, glp_prob *P, double deadline)
{
    const cp_solve_opts *o = c->opts;
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    sm.presolve = GLP_OFF;
    sm.it_lim = CG_LP_SLICE;
    int rc = GLP_EITLIM;
    for (;;) {
        double left = deadline - cp_now_seconds();
        if (left <= 0 || (o->stop && *o->stop))
            return 0;
        sm.tm_lim = (int)fmin(left * 1000 + 1, 1e9);
        rc = glp_simplex(P, &sm);
        if (rc == GLP_EITLIM)
            continue;
        if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
            /* a basis gone bad: start again from an advanced one */
            glp_adv_basis(P, 0);
            if (glp_simplex(P, &sm) != 0)
                return 0;
        } else if (rc != 0) {
            return 0;
        }
        int st = glp_get_status(P);
        if (st == GLP_OPT)
            return GLP_OPT;
        if (st == GLP_NOFEAS || st == GLP_INFEAS)
            return GLP_NOFEAS;
        return 0;
    }
}

/* The master's duals, with the signs the bound needs (<= rows: <= 0). */
static void read_duals(cg *c, glp_prob *P)
{
    for (int i = 1; i <= c->n_rows; i++) {
        double v = glp_get_row_dual(P, i);
        if (glp_get_row_type(P, i) == GLP_UP && v > 0)
            v = 0;
        c->pi_out[i] = v;
    }
}

/* The stability centre at Lagrange multipliers (capacity of pools and
 * markets, site power), with each job's assignment dual at its priced
 * best, and that best column of each job into the master. */
static void start_at(cg *c, glp_prob *P, const cp_prices *center, cp_lpcg *out)
{
    size_t T = (size_t)c->T;
    memset(c->pi_stab, 0, ((size_t)c->n_rows + 1) * sizeof *c->pi_stab);
    for (size_t k = 0; k < (size_t)c->n_res * CP_DIMS * T; k++)
        if (c->res_row[k])
            c->pi_stab[c->res_row[k]] = -fmax(0, center->cap[k]);
    for (size_t k = 0; k < (size_t)c->n_sites * T; k++)
        if (c->site_row[k])
            c->pi_stab[c->site_row[k]] = -fmax(0, center->power[k]);
    long found;
    double L = price(c, c->pi_stab, &found);
    for (int j = 0; j < c->n_jobs; j++) {
        if (!c->assign_row[j])
            continue;
        c->pi_stab[c->assign_row[j]] = c->job_best[j];
        int m = c->job_arg[2 * j], s = c->job_arg[2 * j + 1];
        if (m >= 0 && !c->in_mp[c->col_off[m] + (size_t)(s - c->ms->modes[m].s_min)])
            add_x(c, P, m, s);
    }
    c->have_stab = true;
    out->bound = L;
}

int cp_lpcg_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, const cp_plan *seed,
                const cp_prices *center, double seconds, cp_lpcg *out, cp_err *err)
{
    double t0 = cp_now_seconds();
    double deadline = t0 + seconds;
    memset(out, 0, sizeof *out);
    out->bound = -INFINITY;
    out->value = NAN;
    cg c;
    if (cg_init(&c, in, ms, opts)) {
        cg_release(&c);
        return cp_err_nomem(err);
    }
    for (size_t k = 0; k < c.col_off[ms->n_modes]; k++)
        out->all_columns += c.fits[k];
    glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    load_rows(&c, P);
    initial_columns(&c, P, seed);
    if (center)
        start_at(&c, P, center, out);
    scale_rows(&c, P);
    seed_basis(&c, P, seed);
    double smooth = CG_SMOOTH;
    double last_log = t0;
    for (int round = 0; round < CG_MAX_ROUNDS; round++) {
        int st = solve_master(&c, P, deadline);
        if (st == GLP_NOFEAS) {
            out->infeasible = true;
            break;
        }
        if (st != GLP_OPT)
            break; /* cut short: the bound so far stands */
        out->rounds = round + 1;
        double z = glp_get_obj_val(P);
        out->value = z;
        read_duals(&c, P);
        /* pricing at the smoothed point, then (if it finds nothing) at the
         * master's own duals */
        const double *at = c.pi_out;
        if (c.have_stab && smooth > 0) {
            for (int i = 1; i <= c.n_rows; i++)
                c.pi_sep[i] = smooth * c.pi_stab[i] + (1 - smooth) * c.pi_out[i];
            at = c.pi_sep;
        }
        long found = 0;
        double L = price(&c, at, &found);
        if (L > out->bound) {
            out->bound = L;
            memcpy(c.pi_stab, at, ((size_t)c.n_rows + 1) * sizeof *c.pi_stab);
            c.have_stab = true;
        }
        if (found == 0 && at != c.pi_out) {
            at = c.pi_out;
            L = price(&c, at, &found);
            if (L > out->bound) {
                out->bound = L;
                memcpy(c.pi_stab, at, ((size_t)c.n_rows + 1) * sizeof *c.pi_stab);
            }
        }
        double now = cp_now_seconds();
        if (opts->progress && now - last_log >= 1.0) {
            last_log = now;
            cp_solver_log(opts, "lp: round %d  master %.10g  bound %.10g  columns %ld  %.1f s", round + 1, z,
                          out->bound, c.n_x, now - t0);
        }
        if (found == 0 && at == c.pi_out) {
            out->exact = true; /* nothing prices out: z is the LP optimum */
            break;
        }
        if (z - out->bound <= CG_GAP * fmax(1, fabs(z))) {
            out->exact = true;
            break;
        }
        for (int j = 0; j < c.n_jobs; j++)
            for (int k = 0; k < c.n_cand[j]; k++) {
                const cand *cd = &c.cands[(size_t)j * CG_PER_JOB + k];
                add_x(&c, P, cd->mode, cd->start);
            }
    }
    if (out->exact && out->value < out->bound)
        out->bound = out->value; /* rounding: no bound is above the optimum */
    out->columns = c.n_x;
    out->iterations = glp_get_it_cnt(P);
    out->seconds = cp_now_seconds() - t0;
    glp_delete_prob(P);
    glp_free_env();
    cg_release(&c);
    if (out->infeasible)
        out->bound = -INFINITY; /* (a plan exists when this runs: numerics) */
    if (out->rounds == 0)
        cp_solver_log(opts, "lp: no master solved in %.2f s; bound %.10g at the starting prices", out->seconds,
                      out->bound);
    else
        cp_solver_log(opts, "lp: %s %.10g, bound %.10g after %d rounds, %ld of %ld columns, %ld simplex iterations, %.2f s",
                      out->exact ? "LP optimum" : "stopped: master", out->value, out->bound, out->rounds,
                      out->columns, out->all_columns, out->iterations, out->seconds);
    return CP_OK;
}
