/*
 * The exact LP relaxation of the exported time-indexed model
 * (milp_model.c: same rows, same columns, x and z relaxed to >= 0) by
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
 * so on the total (capplan.5 §4). At the master's optimal duals it is Farley's
 * master value + sum_j min(0, min reduced cost of job j).
 *
 * Speed comes from three things (each measured on bench nights when this
 * was written; docs/performance.md, "The LP bound", has the times of
 * today's code): the first master holds the seed
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
 * The rows and coefficients are cp_milp_build's (milp_model.c): assignment,
 * pool and market capacity (with -dim·y), site power, precedence
 * (capplan.5 §9.2: per edge i -> j and start tau of j, j started by tau <= i ended by
 * tau), the budget; a column's cost is its energy and carbon on a pool
 * plus its egress (capplan.5 §9.3). tests/suite_lp.sh compares the optimum with
 * glpsol's on the exported file, so the two cannot drift apart unseen.
 *
 * Dominated modes (reduce.c) get no columns here, as in the export: the
 * mode that dominates one uses no more of any row at the same start and
 * costs no more, so swapping them in any LP solution keeps it feasible
 * and no dearer, and the LP optimum is the same with or without them.
 * The glp_prob lives within cp_lpcg_run; only values leave it.
 *
 * Once the LP is solved, lifting rows (lp_colgen_cuts.c: job, rounding
 * and big-share rows, valid for every placed plan) that the master
 * violates are added, re-solved by the dual simplex and priced like the
 * other rows, until none is violated: the lifted LP's optimum is then the
 * bound (docs/bounds.md). This file holds the master and the loop;
 * lp_colgen_model.c which rows and columns the model has,
 * lp_colgen_price.c the pricing.
 */
#include "lp_colgen_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <string.h>

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
/* x values at most this are zero in the solution the search gets */
#define CG_SOL_EPS 1e-6

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
    for (int k = 0; c->team_row0 && k < c->u.teams.n_rows; k++)
        glp_set_row_bnds(P, c->team_row0 + k, GLP_UP, 0.0, c->rhs[c->team_row0 + k]);
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
    cp_cg_svc_load(c, P);
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
    double cost = md->egress; /* capplan.5 §9.3: once per run, on any resource */
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
        if (cp_cg_site_capped(c, r) && md->busy_w > 0) {
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
    n = cp_cg_cuts_col(c, m, s, n, c->ind, c->val);
    if (c->budget_row && cost != 0) {
        c->ind[++n] = c->budget_row;
        c->val[n] = cost;
    }
    if (c->team_row0) {
        int nt = cp_teamrows_coefs(&c->u.teams, m, s, c->u.trow, c->u.tval);
        for (int i = 0; i < nt; i++) {
            c->ind[++n] = c->team_row0 + c->u.trow[i];
            c->val[n] = c->u.tval[i];
        }
    }
    int k = glp_add_cols(P, 1);
    glp_set_col_bnds(P, k, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, k, cost + md->change); /* a re-plan's change: priced, not budgeted */
    glp_set_mat_col(P, k, n, c->ind, c->val);
    c->in_mp[c->col_off[m] + (size_t)(s - md->s_min)] = k;
    c->n_x++;
    return k;
}

/* The first columns: the seed plan's (with the z columns, a feasible
 * master whose value is at most the plan's cost). Measured on the bench
 * nights, also adding each job's cheapest column per resource made the
 * column generation 2-3 times slower (a larger master to re-solve every
 * round, by the measurement of the engineer who wrote this), so the rest
 * comes from pricing. */
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
        if (s < md->s_min || s > md->s_max || !cp_cg_mode_on(c, m))
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
                use[((size_t)md->res * CP_DIMS + (size_t)d) * T + (size_t)(seed->start[j] + i)] +=
                    md->demand[d];
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
    cp_cg_svc_basis(c, P);
}

/* Solves the master from its current basis; GLP_OPT, GLP_NOFEAS, or 0
 * when the time or the stop flag cut it short. */
static int solve_master(cg *c, glp_prob *P, double deadline, bool dual)
{
    const cp_solve_opts *o = c->opts;
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    sm.presolve = GLP_OFF;
    /* after new rows the basis stays dual feasible (their slacks enter
     * it), after new columns primal feasible */
    sm.meth = dual ? GLP_DUALP : GLP_PRIMAL;
    sm.it_lim = CG_LP_SLICE;
    int rc = GLP_EITLIM;
    for (;;) {
        double left = deadline - cp_now_seconds();
        if (left <= 0 || (o->stop && *o->stop))
            return 0;
        sm.tm_lim = cp_num_clamp_int(left * 1000 + 1, 1, INT_MAX);
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

/* The master's duals, with the signs the bound needs (<= rows: <= 0;
 * >= rows, the services' only: >= 0). */
static void read_duals(cg *c, glp_prob *P)
{
    for (int i = 1; i <= c->n_rows; i++) {
        double v = glp_get_row_dual(P, i);
        int type = glp_get_row_type(P, i);
        if ((type == GLP_UP && v > 0) || (type == GLP_LO && v < 0))
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
    double L = cp_cg_price(c, c->pi_stab, &found);
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

/* The master's x columns of positive value into out->sol, per job by
 * decreasing value (its modes in order, then insertion by value: a job
 * has few). CP_ERR_NOMEM. */
static int keep_solution(const cg *c, glp_prob *P, cp_lpcg *out)
{
    const cp_modeset *ms = c->ms;
    cp_lp_sol *sol = &out->sol;
    size_t n = 0;
    for (size_t k = 0; k < c->col_off[ms->n_modes]; k++)
        n += c->in_mp[k] && glp_get_col_prim(P, c->in_mp[k]) > CG_SOL_EPS;
    sol->first = cp_calloc((size_t)c->n_jobs + 1, sizeof *sol->first);
    sol->mode = cp_calloc(n ? n : 1, sizeof *sol->mode);
    sol->start = cp_calloc(n ? n : 1, sizeof *sol->start);
    sol->value = cp_calloc(n ? n : 1, sizeof *sol->value);
    if (!sol->first || !sol->mode || !sol->start || !sol->value) {
        cp_lpcg_release(out);
        return CP_ERR_NOMEM;
    }
    int k = 0;
    for (int j = 0; j < c->n_jobs; j++) {
        sol->first[j] = k;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            for (int s = ms->modes[m].s_min; s <= ms->modes[m].s_max; s++) {
                int col = c->in_mp[c->col_off[m] + (size_t)(s - ms->modes[m].s_min)];
                double v = col ? glp_get_col_prim(P, col) : 0;
                if (v <= CG_SOL_EPS)
                    continue;
                int i = k++;
                for (; i > sol->first[j] && sol->value[i - 1] < v; i--) {
                    sol->mode[i] = sol->mode[i - 1];
                    sol->start[i] = sol->start[i - 1];
                    sol->value[i] = sol->value[i - 1];
                }
                sol->mode[i] = m;
                sol->start[i] = s;
                sol->value[i] = v;
            }
    }
    sol->first[c->n_jobs] = k;
    return CP_OK;
}

/* Every column's reduced cost at the last master's duals into
 * out->sol, by one more pass of the pricing (the search ranks its jobs
 * by them: lns_lp.c). CP_ERR_NOMEM. */
static int keep_rc(cg *c, cp_lpcg *out)
{
    const cp_modeset *ms = c->ms;
    cp_lp_sol *sol = &out->sol;
    size_t ncol = c->col_off[ms->n_modes];
    sol->col_off = cp_calloc((size_t)ms->n_modes + 1, sizeof *sol->col_off);
    sol->rc = cp_calloc(ncol ? ncol : 1, sizeof *sol->rc);
    sol->rc_drop = cp_calloc((size_t)(c->n_jobs ? c->n_jobs : 1), sizeof *sol->rc_drop);
    if (!sol->col_off || !sol->rc || !sol->rc_drop) {
        cp_lpcg_release(out);
        return CP_ERR_NOMEM;
    }
    memcpy(sol->col_off, c->col_off, ((size_t)ms->n_modes + 1) * sizeof *sol->col_off);
    long found;
    c->rc_all = sol->rc;
    cp_cg_price(c, c->pi_out, &found);
    c->rc_all = NULL;
    for (int j = 0; j < c->n_jobs; j++)
        if (c->assign_row[j])
            sol->rc_drop[j] = c->in->jobs[j].drop_penalty - c->pi_out[c->assign_row[j]];
    return CP_OK;
}

double cp_lp_sol_rc(const cp_lp_sol *sol, const cp_modeset *ms, int j, int m, int s)
{
    if (!sol || !sol->rc)
        return 0;
    if (m < 0)
        return sol->rc_drop[j];
    const cp_mode *md = &ms->modes[m];
    return s >= md->s_min && s <= md->s_max ? sol->rc[sol->col_off[m] + (size_t)(s - md->s_min)]
                                            : 0;
}

void cp_lpcg_release(cp_lpcg *out)
{
    cp_free(out->sol.first);
    cp_free(out->sol.mode);
    cp_free(out->sol.start);
    cp_free(out->sol.value);
    cp_free(out->sol.col_off);
    cp_free(out->sol.rc);
    cp_free(out->sol.rc_drop);
    memset(&out->sol, 0, sizeof out->sol);
    cp_free(out->svc_n);
    out->svc_n = NULL;
}

int cp_lpcg_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                const cp_plan *seed, const cp_prices *center, bool lift, double seconds,
                cp_lpcg *out, cp_err *err)
{
    double t0 = cp_now_seconds();
    double deadline = t0 + seconds;
    memset(out, 0, sizeof *out);
    out->bound = -INFINITY;
    out->value = NAN;
    out->lp_value = out->lp_bound = NAN;
    cg c;
    if (cp_cg_init(&c, in, ms, opts)) {
        cp_cg_release(&c);
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
    bool dual = false, solved = false;
    int rc = CP_OK;
    for (int round = 0; round < CG_MAX_ROUNDS; round++) {
        int st = solve_master(&c, P, deadline, dual);
        dual = false;
        solved = st == GLP_OPT;
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
        double L = cp_cg_price(&c, at, &found);
        if (L > out->bound) {
            out->bound = L;
            cp_progress_bound(opts, L);
            memcpy(c.pi_stab, at, ((size_t)c.n_rows + 1) * sizeof *c.pi_stab);
            c.have_stab = true;
        }
        if (found == 0 && at != c.pi_out) {
            at = c.pi_out;
            L = cp_cg_price(&c, at, &found);
            if (L > out->bound) {
                out->bound = L;
                cp_progress_bound(opts, L);
                memcpy(c.pi_stab, at, ((size_t)c.n_rows + 1) * sizeof *c.pi_stab);
            }
        }
        double now = cp_now_seconds();
        if (opts->progress && now - last_log >= 1.0) {
            last_log = now;
            cp_solver_log(opts,
                          "lp: round %d  master %.10g  bound %.10g  columns %ld  rows %d  %.1f s",
                          round + 1, z, out->bound, c.n_x, c.n_rows, now - t0);
        }
        /* nothing prices out, or the bound meets the master's value: z is
         * the optimum of the LP with the rows so far */
        if ((found == 0 && at == c.pi_out) || z - out->bound <= CG_GAP * fmax(1, fabs(z))) {
            if (!out->lp_exact) {
                out->lp_exact = true;
                out->lp_value = z;
                out->lp_bound = fmin(out->bound, z);
                cp_solver_log(opts,
                              "lp: LP optimum %.10g, bound %.10g after %d rounds, %ld of %ld "
                              "columns, %ld simplex "
                              "iterations, %.2f s",
                              z, out->lp_bound, out->rounds, c.n_x, out->all_columns,
                              (long)glp_get_it_cnt(P), cp_now_seconds() - t0);
            }
            int added = 0;
            if (lift && (rc = cp_cg_cuts_separate(&c, P, &added)) != CP_OK)
                break;
            if (!added) {
                out->exact = true;
                break;
            }
            out->cut_rows += added;
            dual = true;
            continue;
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
    out->job_rows = c.n_jobrows;
    out->rounding_rows = c.n_c;
    out->iterations = glp_get_it_cnt(P);
    if (rc == CP_OK && solved && !out->infeasible)
        rc = keep_solution(&c, P, out);
    if (rc == CP_OK && solved && !out->infeasible)
        rc = keep_rc(&c, out);
    if (rc == CP_OK && solved && !out->infeasible && cp_cg_svc_values(&c, P, &out->svc_n)) {
        cp_lpcg_release(out); /* the solution kept above, too */
        rc = CP_ERR_NOMEM;
    }
    out->seconds = cp_now_seconds() - t0;
    glp_delete_prob(P);
    glp_free_env();
    cp_cg_release(&c);
    if (out->infeasible) /* (a plan exists when this runs: numerics) */
        out->bound = out->lp_exact ? out->lp_bound : -INFINITY;
    if (rc)
        return cp_err_nomem(err);
    if (out->rounds == 0)
        cp_solver_log(opts, "lp: no master solved in %.2f s; bound %.10g at the starting prices",
                      out->seconds, out->bound);
    else if (!out->lp_exact)
        cp_solver_log(opts,
                      "lp: stopped: master %.10g, bound %.10g after %d rounds, %ld of %ld columns, "
                      "%ld simplex "
                      "iterations, %.2f s",
                      out->value, out->bound, out->rounds, out->columns, out->all_columns,
                      out->iterations, out->seconds);
    else if (out->cut_rows)
        cp_solver_log(
            opts,
            "lp: lifted: %s %.10g, bound %.10g (LP %.10g, +%.3g %%) with %d lifting rows (%d job, "
            "%d "
            "rounding, %d big-share) after %d rounds, %.2f s",
            out->exact ? "optimum" : "stopped: master", out->value, out->bound, out->lp_value,
            100 * (out->bound - out->lp_value) / fmax(1e-9, fabs(out->lp_value)), out->cut_rows,
            out->job_rows, out->rounding_rows, out->cut_rows - out->job_rows - out->rounding_rows,
            out->rounds, out->seconds);
    return CP_OK;
}
