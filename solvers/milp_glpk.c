/*
 * The time-indexed MILP of capplan.5 §3-4 in GLPK, on the whole problem or on a
 * POP part (cp_milp_run), and its CPLEX LP export. This is the only file
 * that includes glpk.h; a glp_prob lives within one call and only plain
 * choices leave it. The methods around it are in method_milp.c.
 *
 * Columns: x[j,m,s] binary (job j runs mode m from slot s), z[j] in
 * [0,1] (dropped; integral because the assignment row is an equality over
 * binaries), y[r,t] integer in [0, quota] (instances of market r in t).
 * Rows: one assignment per job; pool capacity per (pool, dimension, slot);
 * market capacity per (market, dimension, slot), with -dim·y; site power
 * caps; the budget. The plan-independent part (baseline energy, penalties
 * of jobs without modes) is the objective's constant.
 *
 * Starts that cannot fit even an empty resource are never generated, and
 * a row exists only when some column touches it, and dominated modes
 * (reduce.c) get no columns. The caller's plan is handed to branch-and-cut
 * as its first incumbent
 * (glp_ios_heur_sol), which needs the MIP presolver off: the LP relaxation
 * is solved first by glp_simplex, and its value is the first bound.
 */
#include "milp_internal.h"
#include "cp_placement.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_num.h"

#include "cp_atomic.h"
#include "cp_buf.h"
#include "cp_mip.h"
#include "cp_solution.h"

#include <errno.h>
#include <glpk.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>

/* GLPK's clique cuts come from the conflict graph of the binaries (two
 * runs that a capacity or a team quota row forbids together). On the
 * nightly example, whose teams' quotas bind, they raise the root bound to
 * within 0.03 % where the other cuts leave 0.3 % to branching: the
 * branch-and-cut phase took 6 s of wall time instead of 74 at the same
 * load (bench/results/2026-12-03-nightly-teams.md). The graph is built
 * from every row's pairs of binaries, so only on models of the size
 * `auto` gives this path (method_auto.c). */
#define MILP_CLIQUE_COLUMNS 20000
#include <stdio.h>
#include <string.h>

/* simplex iterations between two looks at the clock and the stop flag */
#define MILP_LP_SLICE 500


static void milp_release(milp *mp)
{
    cp_milp_svc_release(mp);
    cp_free(mp->col_job);
    cp_free(mp->col_mode);
    cp_free(mp->col_start);
    cp_free(mp->z_col);
    cp_free(mp->assign_row);
    cp_free(mp->y_col);
    cp_free(mp->row_res);
    cp_free(mp->row_site);
    cp_free(mp->row_team);
    cp_free(mp->ia);
    cp_free(mp->ja);
    cp_free(mp->ar);
    cp_free(mp->obj);
    cp_free(mp->warm);
}

/* Builds columns and triplets (no GLPK yet, so sizes are known first). */
/* Job j's start columns: [*lo, z_col[j]) (built just before its z). */
static int x_cols(const milp *mp, int j, int *lo)
{
    int c = mp->z_col[j];
    while (c > 1 && mp->col_job[c - 1] == j && mp->col_mode[c - 1] >= 0)
        c--;
    *lo = c;
    return mp->z_col[j] - c;
}

/* capplan.5 §9.2, time-indexed: for an edge i -> j and each start tau of j's
 * columns, "j has started by tau" <= "i has ended by tau":
 *   sum x_j(s <= tau) - sum x_i(s + d <= tau) <= 0.
 * Between two starts of j the left side is constant and the right one
 * only grows, so the starts of j are the only taus needed; the last one
 * also says that j runs only when i does. Edges with an end outside the
 * problem (a POP part without i) are left to the pipeline's repair. */
static int add_precedence(milp *mp)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    mp->prec_first = mp->n_rows + 1;
    mp->prec_last = mp->n_rows;
    unsigned char *seen = NULL;
    for (int j = 0; j < in->n_jobs; j++) {
        const cp_job *jb = &in->jobs[j];
        int jlo, nj;
        if (!jb->n_after || !mp->z_col[j] || !(nj = x_cols(mp, j, &jlo)))
            continue;
        if (!seen && !(seen = cp_calloc((size_t)mp->T + 1, 1)))
            return CP_ERR_NOMEM;
        for (int a = 0; a < jb->n_after; a++) {
            int i = jb->after[a], ilo, ni;
            if (!mp->z_col[i])
                continue;
            ni = x_cols(mp, i, &ilo);
            memset(seen, 0, (size_t)mp->T + 1);
            for (int c = jlo; c < jlo + nj; c++) {
                int tau = mp->col_start[c];
                if (seen[tau])
                    continue;
                seen[tau] = 1;
                int row = ++mp->n_rows;
                for (int k = jlo; k < jlo + nj; k++)
                    if (mp->col_start[k] <= tau && cp_milp_add_nz(mp, row, k, 1.0))
                        goto nomem;
                for (int k = ilo; k < ilo + ni; k++)
                    if (mp->col_start[k] + ms->modes[mp->col_mode[k]].slots <= tau &&
                        cp_milp_add_nz(mp, row, k, -1.0))
                        goto nomem;
            }
        }
    }
    mp->prec_last = mp->n_rows;
    cp_free(seen);
    return CP_OK;
nomem:
    cp_free(seen);
    return CP_ERR_NOMEM;
}

/* GLPK takes a heuristic solution as it is (glp_ios_heur_sol checks
 * integrality, not bounds or rows): a warm start that breaks the model
 * would be an incumbent no feasible plan has, and makes the search go
 * astray (a POP part whose heuristic plan rents more than the part's
 * share of a quota ran on far past its time limit). So the warm start is
 * checked against every column bound and row of the loaded model: a
 * precedence row the heuristics did not keep, a scaled quota, a
 * capacity. */
static bool warm_feasible_vec(const milp *mp, glp_prob *P, const double *warm)
{
    const double eps = 1e-7;
    int m = glp_get_num_rows(P);
    for (int c = 1; c <= mp->n_cols; c++) {
        double x = warm[c];
        int t = glp_get_col_type(P, c);
        if ((t == GLP_LO || t == GLP_DB || t == GLP_FX) && x < glp_get_col_lb(P, c) - eps)
            return false;
        if ((t == GLP_UP || t == GLP_DB || t == GLP_FX) && x > glp_get_col_ub(P, c) + eps)
            return false;
    }
    double *act = cp_calloc((size_t)m + 1, sizeof *act);
    if (!act)
        return false;
    for (size_t k = 1; k <= mp->nnz; k++)
        if (mp->ia[k] <= m)
            act[mp->ia[k]] += mp->ar[k] * warm[mp->ja[k]];
    bool ok = true;
    for (int r = 1; r <= mp->n_rows && ok; r++) {
        int t = glp_get_row_type(P, r);
        double lb = glp_get_row_lb(P, r), ub = glp_get_row_ub(P, r);
        double tol = eps * (1 + fabs(act[r]));
        if ((t == GLP_LO || t == GLP_DB || t == GLP_FX) && act[r] < lb - tol)
            ok = false;
        if ((t == GLP_UP || t == GLP_DB || t == GLP_FX) && act[r] > ub + tol)
            ok = false;
    }
    cp_free(act);
    return ok;
}

static bool warm_feasible(const milp *mp, glp_prob *P)
{
    return warm_feasible_vec(mp, P, mp->warm);
}

/* Column c (mode mi from s) in the team rows (cp_teams.h), each row
 * numbered when a column first touches it. */
static int add_team_nz(milp *mp, const cp_usage *u, int c, int mi, int s)
{
    int n = cp_teamrows_coefs(&u->teams, mi, s, u->trow, u->tval);
    for (int i = 0; i < n; i++) {
        int *row = &mp->row_team[u->trow[i]];
        if (!*row)
            *row = ++mp->n_rows;
        if (cp_milp_add_nz(mp, *row, c, u->tval[i]))
            return -1;
    }
    return 0;
}

static int milp_build(milp *mp, const cp_usage *u)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    int T = mp->T;
    mp->z_col = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof(int));
    mp->y_col = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1) * T, sizeof(int));
    mp->row_res = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1) * CP_DIMS * T, sizeof(int));
    mp->row_site = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1) * T, sizeof(int));
    mp->tr = &u->teams;
    mp->row_team = cp_calloc((size_t)u->teams.n_rows + 1, sizeof(int));
    if (!mp->z_col || !mp->y_col || !mp->row_res || !mp->row_site || !mp->row_team)
        return CP_ERR_NOMEM;
    mp->constant = cp_fixed_cost(in, ms);
    /* assignment rows are 1..n_jobs-with-modes, in job order */
    int *assign = mp->assign_row = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof(int));
    if (!assign)
        return CP_ERR_NOMEM;
    for (int j = 0; j < in->n_jobs; j++)
        if (ms->job_first[j] < ms->job_first[j + 1] && (!mp->sc || !mp->sc->active || mp->sc->active[j]))
            assign[j] = ++mp->n_rows;
    int rc = CP_OK;
    for (int j = 0; j < in->n_jobs && rc == CP_OK; j++) {
        if (!assign[j])
            continue;
        for (int mi = ms->job_first[j]; mi < ms->job_first[j + 1] && rc == CP_OK; mi++) {
            const cp_mode *m = &ms->modes[mi];
            const cp_resource *r = &ms->res[m->res];
            mp->all_cols += m->s_max - m->s_min + 1;
            if (u->dominated && u->dominated[mi])
                continue;
            /* jobs fixed around which services are planned (cp_milp_around):
             * only the fixed (mode, start), else only the drop */
            if (mp->fix && mp->fix->mode[j] != mi)
                continue;
            for (int s = m->s_min; s <= m->s_max; s++) {
                if (!cp_usage_start_fits(u, mi, s) || (mp->fix_start && mp->fix->start[j] != s))
                    continue;
                /* per-mode costs: egress (capplan.5 §9.3) and a re-plan's
                 * change (§10.5), which the budget row leaves out */
                double cost = m->egress + m->change;
                if (r->kind == CP_RES_POOL) {
                    cp_run_cost rc2;
                    cp_pool_run_cost(in, ms, m, s, &rc2);
                    cost += rc2.energy_cost + rc2.carbon_cost;
                }
                int c = cp_milp_add_col(mp, j, mi, s, cost);
                if (c < 0 || cp_milp_add_nz(mp, assign[j], c, 1.0) || add_team_nz(mp, u, c, mi, s)) {
                    rc = CP_ERR_NOMEM;
                    break;
                }
                for (int i = 0; i < m->slots && rc == CP_OK; i++) {
                    int t = s + i;
                    for (int d = 0; d < CP_DIMS; d++)
                        if (m->demand[d] > 0 && cp_milp_add_nz(mp, cp_milp_res_row(mp, m->res, d, t), c, m->demand[d]))
                            rc = CP_ERR_NOMEM;
                    if (r->kind == CP_RES_POOL && in->sites[r->site].power_cap_kw.set && m->busy_w > 0) {
                        int *row = &mp->row_site[(size_t)r->site * T + t];
                        if (!*row)
                            *row = ++mp->n_rows;
                        double frac = i == m->slots - 1 ? m->last_frac : 1.0;
                        if (cp_milp_add_nz(mp, *row, c, m->busy_w * frac))
                            rc = CP_ERR_NOMEM;
                    }
                    if (r->kind != CP_RES_POOL && !mp->y_col[(size_t)m->res * T + t])
                        mp->y_col[(size_t)m->res * T + t] = -1; /* wanted */
                }
            }
        }
        if (rc == CP_OK) {
            int z = cp_milp_add_col(mp, j, -1, 0, in->jobs[j].drop_penalty);
            if (z < 0 || cp_milp_add_nz(mp, assign[j], z, 1.0))
                rc = CP_ERR_NOMEM;
            mp->z_col[j] = z;
        }
    }
    /* capplan.5 §10.4: the services' columns and rows (they mark the y
     * columns of the markets their replicas may use) */
    if (rc == CP_OK)
        rc = cp_milp_svc_build(mp, u);
    /* y columns, and their -dim entries in the market rows */
    for (int r = 0; r < ms->n_res && rc == CP_OK; r++) {
        for (int t = 0; t < T && rc == CP_OK; t++) {
            int *yc = &mp->y_col[(size_t)r * T + t];
            if (*yc != -1)
                continue;
            int c = cp_milp_add_col(mp, r, -2, t, u->slot_cost[(size_t)r * T + t]);
            if (c < 0) {
                rc = CP_ERR_NOMEM;
                break;
            }
            mp->col_start[c] = t;
            *yc = c;
            for (int d = 0; d < CP_DIMS; d++) {
                int row = mp->row_res[((size_t)r * CP_DIMS + d) * T + t];
                if (row && cp_milp_add_nz(mp, row, c, -cp_machine_dim(ms->res[r].mach, d)))
                    rc = CP_ERR_NOMEM;
            }
        }
    }
    if (rc == CP_OK)
        rc = add_precedence(mp);
    if (rc == CP_OK && in->has_budget) {
        mp->budget_row = ++mp->n_rows;
        for (int c = 1; c <= mp->n_cols && rc == CP_OK; c++)
            /* the budget counts all but drops, unserved requests and changes */
            if (mp->col_mode[c] != -1 && mp->col_mode[c] != CP_MILP_SVC_U &&
                cp_milp_add_nz(mp, mp->budget_row, c,
                               mp->obj[c] - (mp->col_mode[c] >= 0 ? ms->modes[mp->col_mode[c]].change : 0)))
                rc = CP_ERR_NOMEM;
    }
    return rc;
}

/* y columns keep their market in col_job */
static int y_res_of_col(const milp *mp, int c)
{
    return mp->col_job[c];
}

static void load_glpk(milp *mp, glp_prob *P, const cp_usage *u)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    int T = mp->T;
    glp_set_obj_dir(P, GLP_MIN);
    if (mp->n_rows)
        glp_add_rows(P, mp->n_rows);
    if (mp->n_cols)
        glp_add_cols(P, mp->n_cols);
    /* assignment rows were numbered first, in job order */
    for (int j = 0; j < in->n_jobs; j++)
        if (mp->z_col[j])
            glp_set_row_bnds(P, mp->assign_row[j], GLP_FX, 1.0, 1.0);
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        for (int d = 0; d < CP_DIMS; d++)
            for (int t = 0; t < T; t++) {
                int row = mp->row_res[((size_t)r * CP_DIMS + d) * T + t];
                if (!row)
                    continue;
                if (res->kind == CP_RES_POOL)
                    glp_set_row_bnds(P, row, GLP_UP, 0.0, cp_usage_cap(u, r, d, t));
                else
                    glp_set_row_bnds(P, row, GLP_UP, 0.0, 0.0);
            }
    }
    for (int s = 0; s < in->n_sites; s++)
        for (int t = 0; t < T; t++) {
            int row = mp->row_site[(size_t)s * T + t];
            if (row)
                glp_set_row_bnds(P, row, GLP_UP, 0.0, u->allow[(size_t)s * T + t]);
        }
    for (int r = mp->prec_first; r > 0 && r <= mp->prec_last; r++)
        glp_set_row_bnds(P, r, GLP_UP, 0.0, 0.0);
    for (int k = 0; k < u->teams.n_rows; k++)
        if (mp->row_team[k])
            glp_set_row_bnds(P, mp->row_team[k], GLP_UP, 0.0, u->teams.rhs[k]);
    for (int i = 0; i < mp->svc.n_rows; i++) {
        const cp_milp_svc_row *sr = &mp->svc.rows[i];
        int type = isinf(sr->lo) ? GLP_UP : isinf(sr->hi) ? GLP_LO : sr->lo == sr->hi ? GLP_FX : GLP_DB;
        glp_set_row_bnds(P, sr->row, type, sr->lo, sr->hi);
    }
    if (mp->budget_row) {
        /* u->spend is the baseline part at this point (nothing placed) */
        glp_set_row_bnds(P, mp->budget_row, GLP_UP, 0.0, u->budget - u->spend);
    }
    for (int c = 1; c <= mp->n_cols; c++) {
        glp_set_obj_coef(P, c, mp->obj[c]);
        if (mp->col_mode[c] >= 0) {
            glp_set_col_kind(P, c, GLP_BV);
        } else if (mp->col_mode[c] == -1) {
            glp_set_col_bnds(P, c, GLP_DB, 0.0, 1.0);
        } else if (mp->col_mode[c] <= CP_MILP_SVC_N) {
            double lo, hi;
            bool integer;
            cp_milp_svc_col_bounds(mp, c, &lo, &hi, &integer);
            if (integer)
                glp_set_col_kind(P, c, GLP_IV);
            glp_set_col_bnds(P, c, isinf(hi) ? GLP_LO : hi > lo ? GLP_DB : GLP_FX, lo, hi);
        } else {
            int r = y_res_of_col(mp, c), t = mp->col_start[c];
            double q = cp_usage_quota(u, r, t);
            const cp_replan *rp = mp->ms->replan;
            glp_set_col_kind(P, c, GLP_IV);
            if (rp && t < rp->now) /* history: OLD's instances (capplan.5 §10.5) */
                glp_set_col_bnds(P, c, GLP_FX, rp->y_hist[(size_t)r * rp->now + t],
                                 rp->y_hist[(size_t)r * rp->now + t]);
            else if (q > 0)
                glp_set_col_bnds(P, c, GLP_DB, 0.0, q);
            else
                glp_set_col_bnds(P, c, GLP_FX, 0.0, 0.0);
        }
    }
    if (mp->nnz)
        glp_load_matrix(P, (int)mp->nnz, mp->ia, mp->ja, mp->ar);
    /* The plan-independent cost as a column fixed at 1 rather than the
     * objective's constant: the CPLEX LP format has no constant, and this
     * way an exported model solves to the plan's total. */
    int k = glp_add_cols(P, 1);
    glp_set_col_bnds(P, k, GLP_FX, 1.0, 1.0);
    glp_set_obj_coef(P, k, mp->constant);
    /* ...held by a row of its own, so an LP file of a model where no job
     * has a start still has a row and a column and reads back */
    int row = glp_add_rows(P, 1);
    int ind[2] = {0, k};
    double val[2] = {0, 1.0};
    glp_set_mat_row(P, row, 1, ind, val);
    glp_set_row_bnds(P, row, GLP_FX, 1.0, 1.0);
}

/* Names that say what a column or row is (docs/place.md), so a solver's
 * solution file reads, and `capplan place` maps it back by name:
 * x_J_M_S (job J runs mode M, the global mode index of `capplan check`'s
 * list and of the LP file's header, from slot S), drop_J, y_R_T
 * (instances of market R in slot T; R indexes the modeset's resources),
 * fixed_cost; rows assign_J, cap_R_{acc,cpu,mem}_T, power_S_T (site S),
 * budget, fixed. Numbers only: no user text in a name. */
static const char *const dim_word[CP_DIMS] = {"acc", "cpu", "mem"};

static void name_model(const milp *mp, glp_prob *P)
{
    char name[80];
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    int T = mp->T;
    glp_set_prob_name(P, "capplan");
    glp_set_obj_name(P, "total");
    for (int c = 1; c <= mp->n_cols; c++) {
        if (mp->col_mode[c] >= 0)
            snprintf(name, sizeof name, "x_%d_%d_%d", mp->col_job[c], mp->col_mode[c], mp->col_start[c]);
        else if (mp->col_mode[c] == -1)
            snprintf(name, sizeof name, "drop_%d", mp->col_job[c]);
        else if (mp->col_mode[c] <= CP_MILP_SVC_N)
            cp_milp_svc_col_name(mp, c, name, sizeof name);
        else
            snprintf(name, sizeof name, "y_%d_%d", y_res_of_col(mp, c), mp->col_start[c]);
        glp_set_col_name(P, c, name);
    }
    glp_set_col_name(P, mp->n_cols + 1, "fixed_cost");
    for (int j = 0; j < in->n_jobs; j++)
        if (mp->assign_row[j]) {
            snprintf(name, sizeof name, "assign_%d", j);
            glp_set_row_name(P, mp->assign_row[j], name);
        }
    for (int r = 0; r < ms->n_res; r++)
        for (int d = 0; d < CP_DIMS; d++)
            for (int t = 0; t < T; t++) {
                int row = mp->row_res[((size_t)r * CP_DIMS + d) * T + t];
                if (row) {
                    snprintf(name, sizeof name, "cap_%d_%s_%d", r, dim_word[d], t);
                    glp_set_row_name(P, row, name);
                }
            }
    for (int s = 0; s < in->n_sites; s++)
        for (int t = 0; t < T; t++) {
            int row = mp->row_site[(size_t)s * T + t];
            if (row) {
                snprintf(name, sizeof name, "power_%d_%d", s, t);
                glp_set_row_name(P, row, name);
            }
        }
    if (mp->budget_row)
        glp_set_row_name(P, mp->budget_row, "budget");
    for (int k = 0; k < mp->tr->n_rows; k++) {
        int q, t, team = cp_teamrows_row_team(mp->tr, k, &q, &t);
        if (!mp->row_team[k])
            continue;
        if (q >= 0)
            snprintf(name, sizeof name, "team_%d_quota_%d_%d", team,
                     q - mp->tr->first_quota[team], t);
        else
            snprintf(name, sizeof name, "team_%d_budget", team);
        glp_set_row_name(P, mp->row_team[k], name);
    }
    for (int i = 0; i < mp->svc.n_rows; i++) {
        cp_milp_svc_row_name(mp, i, name, sizeof name);
        glp_set_row_name(P, mp->svc.rows[i].row, name);
    }
    glp_set_row_name(P, mp->n_rows + 1, "fixed");
}

/* The longest part of a name a header line shows, in bytes: CBC's LP
 * reader aborts on lines of about 2,000 bytes (CoinLpIO's buffer), so a
 * line stays far below whatever a name holds. */
#define LP_NAME_SHOWN 80

/* `s` as a double-quoted string that is safe in a CPLEX LP comment line
 * (a name is user input, docs/reliability.md "Output safety"): \" and \\, C0 controls and
 * DEL as \xHH, C1 controls, U+2028, U+2029 and the BOM as \uXXXX, so the
 * comment stays one line for any reader; past LP_NAME_SHOWN bytes the
 * name is cut at a character boundary and its length given. */
static void lp_put_name(cp_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), n = len;
    if (n > LP_NAME_SHOWN) {
        n = LP_NAME_SHOWN;
        while (n > 0 && (p[n] & 0xc0) == 0x80)
            n--;
    }
    cp_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (c == '"' || c == '\\') {
            cp_buf_putc(b, '\\');
            cp_buf_putc(b, (char)c);
        } else if (c < 0x20 || c == 0x7f) {
            cp_buf_printf(b, "\\x%02x", c);
        } else if (c == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
            cp_buf_printf(b, "\\u%04x", p[i + 1]);
            i++;
        } else if (c == 0xe2 && i + 2 < n && p[i + 1] == 0x80 &&
                   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
            cp_buf_printf(b, "\\u%04x", 0x2000 + (p[i + 2] - 0x80));
            i += 2;
        } else if (c == 0xef && i + 2 < n && p[i + 1] == 0xbb && p[i + 2] == 0xbf) {
            cp_buf_puts(b, "\\ufeff");
            i += 2;
        } else {
            cp_buf_putc(b, (char)c);
        }
    }
    cp_buf_putc(b, '"');
    if (n < len)
        cp_buf_printf(b, "... (%zu bytes)", len);
}

static const char *res_kind_word(cp_res_kind k)
{
    return k == CP_RES_POOL ? "pool" : k == CP_RES_ONDEMAND ? "on_demand" : "spot";
}

/* The comment block at the top of the LP file: what the names stand for,
 * then every index with its job, mode, resource or site. Lines start with
 * a backslash (a comment to the end of the line for GLPK, CBC and CPLEX);
 * the same inputs give the same bytes. */
static void lp_header(const milp *mp, cp_buf *b)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    cp_buf_puts(b,
                "\\ capplan: the time-indexed MILP of capplan.5 §3-4 (docs/place.md). Solve it, then\n"
                "\\   capplan place --solution SOLUTION INPUTS...\n"
                "\\ packs the solution onto nodes and instances and writes the plan.\n"
                "\\ Columns: x_J_M_S = 1: job J runs mode M from slot S; drop_J = 1: job J is\n"
                "\\   dropped; y_R_T: instances of market R in slot T; fixed_cost = 1: the\n"
                "\\   plan-independent cost (baseline energy, penalties of jobs without modes).\n"
                "\\ Rows: assign_J (one mode or the drop), cap_R_{acc,cpu,mem}_T (capacity of\n"
                "\\   resource R in slot T), power_S_T (power cap of site S), budget, fixed.\n"
                "\\ Indices count from 0 in input order; names are quoted, with control\n"
                "\\ characters escaped, and cut after 80 bytes.\n");
    cp_buf_printf(b, "\\ jobs: %d\n", in->n_jobs);
    for (int j = 0; j < in->n_jobs; j++) {
        cp_buf_printf(b, "\\   J %d ", j);
        lp_put_name(b, in->jobs[j].name);
        cp_buf_printf(b, ms->job_first[j] < ms->job_first[j + 1] ? " modes %d..%d\n" : " no mode\n",
                      ms->job_first[j], ms->job_first[j + 1] - 1);
    }
    cp_buf_printf(b, "\\ resources: %d\n", ms->n_res);
    for (int r = 0; r < ms->n_res; r++) {
        cp_buf_printf(b, "\\   R %d %s ", r, res_kind_word(ms->res[r].kind));
        lp_put_name(b, ms->res[r].name);
        cp_buf_putc(b, '\n');
    }
    if (in->n_services) /* capplan.5 §10.4 */
        cp_buf_puts(b, "\\ Service columns: n_D_T (replicas of deployment D in slot T), f_I_T (share I,\n"
                       "\\   of a class on a deployment), u_V_K_T (unserved share of class K of service\n"
                       "\\   V), start_D_T (replicas started). Rows: route_V_K_T, svccap_D_T,\n"
                       "\\   svcmin_V_T, svcstart_D_T.\n");
    for (int d = 0; d < ms->n_deps; d++) {
        const cp_deploy *dp = &ms->deps[d];
        cp_buf_printf(b, "\\   D %d V %d ", d, dp->svc);
        lp_put_name(b, in->services[dp->svc].name);
        cp_buf_printf(b, " config %d R %d shares %d..%d\n", dp->config, dp->res, ms->dep_share[d],
                      ms->dep_share[d] + in->services[dp->svc].n_classes - 1);
    }
    if (in->n_teams) /* capplan.5 §10.2 */
        cp_buf_puts(b, "\\ Team rows: team_K_quota_Q_T (quota Q of team K in slot T), team_K_budget.\n");
    for (int k = 0; k < in->n_teams; k++) {
        cp_buf_printf(b, "\\   K %d ", k);
        lp_put_name(b, in->teams[k].name);
        for (int q = 0; q < in->teams[k].n_quota; q++) {
            int acc = in->teams[k].quota[q].acc;
            cp_buf_printf(b, " Q %d ", q);
            lp_put_name(b, acc < 0 ? "cpus" : in->accels[acc].name);
        }
        cp_buf_puts(b, in->teams[k].has_budget ? " budget\n" : "\n");
    }
    cp_buf_printf(b, "\\ sites: %d\n", in->n_sites);
    for (int s = 0; s < in->n_sites; s++) {
        cp_buf_printf(b, "\\   S %d ", s);
        lp_put_name(b, in->sites[s].name);
        cp_buf_putc(b, '\n');
    }
    cp_buf_printf(b, "\\ modes: %d (M: job J, resource R, count, slots, first..last start)\n",
                  ms->n_modes);
    for (int m = 0; m < ms->n_modes; m++) {
        const cp_mode *md = &ms->modes[m];
        cp_buf_printf(b, "\\   M %d J %d R %d count %d slots %d starts %d..%d", m, md->job,
                      md->res, md->count, md->slots, md->s_min, md->s_max);
        if (md->limit >= 0) /* capplan.5 §10.3 */
            cp_buf_printf(b, " limit %.17g W", in->jobs[md->job].power_limits[md->limit].limit_w);
        cp_buf_putc(b, '\n');
    }
    cp_buf_puts(b, "\\\n");
}

static double tree_bound(glp_tree *tree)
{
    int best = glp_ios_best_node(tree);
    return best ? glp_ios_node_bound(tree, best) : NAN;
}

static void callback(glp_tree *tree, void *info)
{
    milp *mp = info;
    const cp_solve_opts *o = mp->opts;
    if (o->stop && *o->stop) {
        glp_ios_terminate(tree);
        return;
    }
    int reason = glp_ios_reason(tree);
    if (reason == GLP_IHEUR && mp->warm && !mp->warm_sent) {
        mp->warm_sent = true;
        glp_ios_heur_sol(tree, mp->warm);
    }
    if (reason == GLP_IBINGO && !mp->sc) {
        double v = glp_mip_obj_val(glp_ios_get_prob(tree));
        if (v < mp->best_seen) {
            mp->best_seen = v;
            cp_solver_log_incumbent(o, v);
        }
    }
    double b = tree_bound(tree);
    if (!isnan(b) && (isnan(mp->bound) || b > mp->bound)) {
        mp->bound = b;
        if (!mp->sc)
            cp_progress_bound(o, b);
    }
    if (o->node_limit > 0) {
        int a, n, t;
        glp_ios_tree_size(tree, &a, &n, &t);
        if (t > o->node_limit) {
            glp_ios_terminate(tree);
            return;
        }
    }
    double now = cp_now_seconds();
    if (o->progress && now - mp->last_log >= 1.0) {
        mp->last_log = now;
        glp_prob *P = glp_ios_get_prob(tree);
        int st = glp_mip_status(P);
        if (st == GLP_FEAS || st == GLP_OPT)
            cp_solver_log(o, "milp: %.1f s  incumbent %.10g  bound %.10g  gap %.3g%%", now - mp->t0,
                          glp_mip_obj_val(P), mp->bound, 100 * glp_ios_mip_gap(tree));
        else
            cp_solver_log(o, "milp: %.1f s  no incumbent yet  bound %.10g", now - mp->t0, mp->bound);
    }
}

/* GLPK writes and reads only named files: an unlinked temporary file,
 * named through /proc/self/fd, so nothing is left behind whatever
 * happens. Returns its descriptor (and its name in `name`), or -1. */
static int lp_tmpfile(char *name, size_t size)
{
    const char *dir = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/capplan-lp-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return -1;
    unlink(tmpl);
    snprintf(name, size, "/proc/self/fd/%d", fd);
    return fd;
}

/* The model in CPLEX LP format (GLPK's writer) after the header, in *out
 * (cp_free); *len its length. `what` names the file in messages. */
static int lp_text(const milp *mp, glp_prob *P, const char *what, char **out, size_t *len,
                   cp_err *err)
{
    char name[64];
    int fd = lp_tmpfile(name, sizeof name);
    if (fd < 0)
        return cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write the model to '%s': %s", what,
                          strerror(errno));
    int rc = CP_OK;
    struct stat st;
    cp_buf b;
    cp_buf_init(&b);
    lp_header(mp, &b);
    if (glp_write_lp(P, NULL, name) != 0 || fstat(fd, &st) != 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write the model to '%s'", what);
    } else {
        char chunk[65536];
        size_t got = 0, want = (size_t)st.st_size;
        while (cp_buf_ok(&b) && got < want) {
            size_t ask = want - got < sizeof chunk ? want - got : sizeof chunk;
            ssize_t n = pread(fd, chunk, ask, (off_t)got);
            if (n <= 0)
                break;
            cp_buf_add(&b, chunk, (size_t)n);
            got += (size_t)n;
        }
        if (!cp_buf_ok(&b))
            rc = cp_err_nomem(err);
        else if (got != want)
            rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write the model to '%s'", what);
    }
    close(fd);
    if (rc == CP_OK) {
        *len = b.len;
        if (!(*out = cp_buf_detach(&b)))
            rc = cp_err_nomem(err);
    }
    cp_buf_release(&b);
    return rc;
}

/* Builds the exported model (every column, named) in a new glp_prob. */
static int export_model(milp *mp, const cp_input *in, const cp_modeset *ms, cp_usage *u,
                        glp_prob **out, cp_err *err)
{
    memset(mp, 0, sizeof *mp);
    mp->in = in;
    mp->ms = ms;
    mp->T = in->slots;
    if (cp_usage_init_scaled(u, in, ms, 1.0))
        return cp_err_nomem(err);
    if (milp_build(mp, u)) {
        milp_release(mp);
        cp_usage_release(u);
        return cp_err_nomem(err);
    }
    glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    load_glpk(mp, P, u);
    name_model(mp, P);
    *out = P;
    return CP_OK;
}

static void export_done(milp *mp, cp_usage *u, glp_prob *P)
{
    glp_delete_prob(P);
    glp_free_env();
    milp_release(mp);
    cp_usage_release(u);
}

int cp_milp_export(const cp_input *in, const cp_modeset *ms, const char *path, cp_err *err)
{
    milp mp;
    cp_usage u;
    glp_prob *P = NULL;
    int rc = export_model(&mp, in, ms, &u, &P, err);
    if (rc)
        return rc;
    char *text = NULL;
    size_t len = 0;
    /* its bytes go through the same atomic writer as plans */
    if ((rc = lp_text(&mp, P, path, &text, &len, err)) == CP_OK)
        rc = cp_write_file_atomic(path, text, len, err);
    cp_free(text);
    export_done(&mp, &u, P);
    return rc;
}

int cp_milp_lp_columns(const cp_input *in, const cp_modeset *ms, cp_lp_names *out, cp_err *err)
{
    milp mp;
    cp_usage u;
    glp_prob *P = NULL, *Q = NULL;
    int rc = export_model(&mp, in, ms, &u, &P, err);
    if (rc)
        return rc;
    char *text = NULL;
    size_t len = 0;
    char name[64];
    int fd = -1;
    if ((rc = lp_text(&mp, P, "a temporary file", &text, &len, err)))
        goto out;
    /* read back by glpsol's own reader: its numbering is glpsol's */
    if ((fd = lp_tmpfile(name, sizeof name)) < 0) {
        rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write a temporary file: %s",
                        strerror(errno));
        goto out;
    }
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, text + done, len - done);
        if (n <= 0) {
            rc = cp_err_set(err, CP_ERR_IO, cp_pos_none(), "cannot write a temporary file: %s",
                            strerror(errno));
            goto out;
        }
        done += (size_t)n;
    }
    Q = glp_create_prob();
    if (glp_read_lp(Q, NULL, name) != 0) {
        rc = cp_err_set(err, CP_ERR_INTERNAL, cp_pos_none(),
                        "the exported model does not read back");
        goto out;
    }
    int n = glp_get_num_cols(Q);
    out->rows = glp_get_num_rows(Q);
    if (!(out->name = cp_calloc((size_t)n + 1, sizeof *out->name))) {
        rc = cp_err_nomem(err);
        goto out;
    }
    out->n = n;
    for (int c = 1; c <= n && rc == CP_OK; c++) {
        const char *cn = glp_get_col_name(Q, c);
        size_t l = cn ? strlen(cn) : 0;
        if (!(out->name[c - 1] = cp_malloc(l + 1)))
            rc = cp_err_nomem(err);
        else
            memcpy(out->name[c - 1], cn ? cn : "", l + 1);
    }
    if (rc)
        cp_lp_names_release(out);
out:
    if (Q)
        glp_delete_prob(Q);
    if (fd >= 0)
        close(fd);
    cp_free(text);
    export_done(&mp, &u, P);
    return rc;
}

void cp_lp_names_release(cp_lp_names *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        cp_free(l->name[i]);
    cp_free(l->name);
    l->name = NULL;
    l->n = l->rows = 0;
}

static double glp_lo(int type, double lb)
{
    return type == GLP_LO || type == GLP_DB || type == GLP_FX ? lb : -INFINITY;
}

static double glp_hi(int type, double ub)
{
    return type == GLP_UP || type == GLP_DB || type == GLP_FX ? ub : INFINITY;
}

/* Branch-and-cut by CBC, run as a separate program (mip_cbc.c), on P's
 * model less the constant's row and column; x[1..n_cols] gets its answer
 * and res how it ended (its objective and bound with the constant). */
static int cbc_branch(const milp *mp, glp_prob *P, double deadline, bool root, double *x,
                      cp_mip_result *res, cp_err *err)
{
    const cp_solve_opts *o = mp->opts;
    size_t nr = (size_t)mp->n_rows + 1, nc = (size_t)mp->n_cols + 1;
    double *lo = cp_malloc(nr * sizeof *lo), *hi = cp_malloc(nr * sizeof *hi);
    double *clo = cp_malloc(nc * sizeof *clo), *chi = cp_malloc(nc * sizeof *chi);
    double *obj = cp_malloc(nc * sizeof *obj);
    bool *isint = cp_malloc(nc * sizeof *isint);
    int rc = CP_OK;
    if (!lo || !hi || !clo || !chi || !obj || !isint) {
        rc = cp_err_nomem(err);
        goto out;
    }
    for (int r = 1; r <= mp->n_rows; r++) {
        int t = glp_get_row_type(P, r);
        lo[r] = glp_lo(t, glp_get_row_lb(P, r));
        hi[r] = glp_hi(t, glp_get_row_ub(P, r));
    }
    for (int c = 1; c <= mp->n_cols; c++) {
        int t = glp_get_col_type(P, c);
        clo[c] = glp_lo(t, glp_get_col_lb(P, c));
        chi[c] = glp_hi(t, glp_get_col_ub(P, c));
        obj[c] = glp_get_obj_coef(P, c);
        isint[c] = glp_get_col_kind(P, c) != GLP_CV;
    }
    size_t nnz = 0;
    while (nnz < mp->nnz && mp->ia[nnz + 1] <= mp->n_rows && mp->ja[nnz + 1] <= mp->n_cols)
        nnz++;
    cp_mip m = {mp->n_rows, mp->n_cols, lo, hi, obj, clo, chi, isint, nnz,
                mp->ia, mp->ja, mp->ar, mp->warm};
    cp_mip_limits lim = {o->node_limit, o->gap, deadline, o->seed, o->stop, root};
    if ((rc = cp_mip_cbc_solve(&m, &lim, x, res, err)) == CP_OK) {
        res->objective += mp->constant;
        res->bound += mp->constant;
    }
out:
    cp_free(lo);
    cp_free(hi);
    cp_free(clo);
    cp_free(chi);
    cp_free(obj);
    cp_free(isint);
    return rc;
}

int cp_milp_root_bound(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                       double deadline, double *bound, cp_err *err)
{
    milp mp;
    cp_usage u;
    glp_prob *P = NULL;
    *bound = NAN;
    int rc = export_model(&mp, in, ms, &u, &P, err);
    if (rc)
        return rc;
    mp.opts = opts;
    double *x = cp_calloc((size_t)mp.n_cols + 1, sizeof *x);
    cp_mip_result res;
    if (!x)
        rc = cp_err_nomem(err);
    else if ((rc = cbc_branch(&mp, P, deadline, true, x, &res, err)) == CP_OK && isfinite(res.bound))
        *bound = res.bound;
    cp_free(x);
    export_done(&mp, &u, P);
    return rc;
}

/* The MILP, warm-started from `warm` (a feasible plan or NULL). */
static int milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    const cp_scope *sc, const cp_plan *warm, const cp_plan *fix, bool fix_start,
                    cp_plan *plan, cp_err *err);

int cp_milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                const cp_scope *sc, const cp_plan *warm, cp_plan *plan, cp_err *err)
{
    return milp_run(in, ms, opts, sc, warm, NULL, false, plan, err);
}

/* Start columns of the jobs' modes in `jobs` up to which their starts
 * stay free around the services; above, each job keeps its start too. */
#define AROUND_FREE_STARTS 5000L

int cp_milp_around(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                   const cp_plan *jobs, const cp_plan *warm, cp_plan *plan, cp_err *err)
{
    long starts = 0;
    for (int j = 0; j < in->n_jobs; j++)
        if (jobs->mode[j] >= 0)
            starts += ms->modes[jobs->mode[j]].s_max - ms->modes[jobs->mode[j]].s_min + 1;
    return milp_run(in, ms, opts, NULL, warm, jobs, starts > AROUND_FREE_STARTS, plan, err);
}

/* capplan.5 §10.4: the LP's services rounded around base's jobs
 * (cp_milp_svc_round: its replicas rounded down, the load they cannot
 * take routed by the greedy) become the first incumbent when they are
 * feasible and cheaper than the warm start. The LP keeps replicas through
 * a dip where the greedy (services_greedy.c), slot by slot, does not: on
 * bench/gen --services 3 1 0 the greedy's $151.73 against the LP's
 * $55.79, which GLPK's branch-and-cut did not improve in 25 s. */
static void round_services(milp *mp, glp_prob *P, const cp_plan *base)
{
    cp_plan *p = NULL;
    double *x = cp_calloc((size_t)mp->n_cols + 2, sizeof *x);
    if (!x || cp_plan_new(mp->in, mp->ms, &p) || cp_plan_copy(p, base)) {
        cp_free(x);
        cp_plan_free(p);
        return; /* out of memory: the warm start stays */
    }
    for (int c = 1; c <= mp->n_cols; c++)
        x[c] = glp_get_col_prim(P, c);
    bool ok;
    cp_milp_svc_round(mp, x, p, &ok);
    cp_plan_figures f;
    if (ok && cp_plan_eval(p, &f, NULL) == CP_OK) {
        double was = mp->warm ? base->objective : INFINITY;
        cp_solver_log(mp->opts, "milp: the LP's services rounded give %.10g", f.costs.total);
        if (f.costs.total < was - 1e-9 * (1 + fabs(was)) && cp_milp_warm_vector(mp, p, x) &&
            warm_feasible_vec(mp, P, x)) {
            cp_free(mp->warm);
            mp->warm = x;
            x = NULL;
        }
        cp_plan_figures_release(&f);
    }
    cp_free(x);
    cp_plan_free(p);
}

static int milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    const cp_scope *sc, const cp_plan *warm, const cp_plan *fix, bool fix_start,
                    cp_plan *plan, cp_err *err)
{
    /* limits count from when planning began */
    double t0 = cp_solve_started(opts);
    milp mp;
    memset(&mp, 0, sizeof mp);
    mp.in = in;
    mp.ms = ms;
    mp.T = in->slots;
    mp.opts = opts;
    mp.sc = sc;
    mp.fix = fix;
    mp.fix_start = fix_start;
    mp.best_seen = INFINITY;
    mp.bound = NAN;
    mp.t0 = t0;
    mp.last_log = t0;
    cp_usage u;
    if (cp_usage_init_scaled(&u, in, ms, sc ? sc->scale : 1.0))
        return cp_err_nomem(err);
    int rc = milp_build(&mp, &u);
    if (rc) {
        milp_release(&mp);
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    if (!sc && !fix) {
        long bins = 0;
        for (int c = 1; c <= mp.n_cols; c++)
            bins += mp.col_mode[c] >= 0;
        /* before: every (job, mode, start), a drop column per job, y per
         * market slot, every capacity and power row; after: what was built */
        long rows0 = in->n_jobs + (long)ms->n_res * CP_DIMS * in->slots + (long)in->n_sites * in->slots + 1;
        cp_solver_log_model(opts, "model", rows0, mp.all_cols + in->n_jobs + (long)ms->n_res * in->slots + 1,
                            mp.all_cols, -1);
        cp_solver_log_model(opts, "reduced", mp.n_rows + 1L, mp.n_cols + 1L, bins, (long)mp.nnz + 1);
        if (u.n_dominated)
            cp_solver_log(opts, "reduction: %d dominated modes removed", u.n_dominated);
    }
    if (warm && warm->status != CP_STATUS_INFEASIBLE) {
        mp.warm = cp_calloc((size_t)mp.n_cols + 2, sizeof(double));
        if (mp.warm && !cp_milp_warm_vector(&mp, warm, mp.warm)) {
            cp_free(mp.warm);
            mp.warm = NULL;
        }
    }
    glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    load_glpk(&mp, P, &u);
    if (mp.warm && !warm_feasible(&mp, P)) {
        cp_free(mp.warm);
        mp.warm = NULL;
    }
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    sm.presolve = GLP_OFF;
    /* in slices of simplex iterations, so a stop or the deadline is seen
     * within a fraction of a second (each call resumes from the basis) */
    sm.it_lim = MILP_LP_SLICE;
    /* the MILP around fixed jobs (services_after.c): the dual simplex
     * takes a third fewer iterations to its LP (bench/gen --services 10
     * 1 1000 around the greedy's jobs: 17,759 against the primal's
     * 26,210; scaling or an advanced basis gain nothing more) */
    if (fix)
        sm.meth = GLP_DUALP;
    double left = opts->time_limit - (cp_now_seconds() - t0);
    int lp_rc = GLP_EITLIM;
    while (lp_rc == GLP_EITLIM && left > 0 && !(opts->stop && *opts->stop)) {
        sm.tm_lim = cp_num_clamp_int(left * 1000 + 1, 1, INT_MAX);
        lp_rc = glp_simplex(P, &sm);
        left = opts->time_limit - (cp_now_seconds() - t0);
    }
    double lp_bound = NAN;
    if (lp_rc == 0 && glp_get_status(P) == GLP_OPT) {
        lp_bound = glp_get_obj_val(P);
    } else if (lp_rc == 0 && (glp_get_status(P) == GLP_NOFEAS || glp_get_status(P) == GLP_INFEAS)) {
        plan->status = CP_STATUS_INFEASIBLE;
        goto out;
    }
    cp_solver_log(opts, "milp: LP relaxation %.10g after %.2f s", lp_bound, cp_now_seconds() - t0);
    mp.bound = lp_bound;
    if (in->n_services && !isnan(lp_bound) && (warm || fix) && !sc)
        round_services(&mp, P, warm ? warm : fix);
    int mip_ok = 0;
    if (mp.n_cols == 0 && !isnan(lp_bound)) {
        /* no job has a start that fits: dropping all is the only plan */
        for (int j = 0; j < in->n_jobs; j++)
            plan->mode[j] = -1;
        memset(plan->y, 0, (size_t)ms->n_res * (size_t)mp.T * sizeof *plan->y);
        plan->objective = lp_bound;
        plan->status = CP_STATUS_OPTIMAL;
        mip_ok = 1;
    }
    if (mp.n_cols && !isnan(lp_bound) && !(opts->stop && *opts->stop)) {
        glp_iocp io;
        glp_init_iocp(&io);
        io.msg_lev = GLP_MSG_OFF;
        io.presolve = GLP_OFF;
        io.br_tech = GLP_BR_DTH;
        io.bt_tech = GLP_BT_BLB;
        io.mir_cuts = GLP_ON;
        io.cov_cuts = GLP_ON;
        io.gmi_cuts = GLP_ON;
        io.clq_cuts = mp.n_cols <= MILP_CLIQUE_COLUMNS ? GLP_ON : GLP_OFF;
        /* the feasibility pump looks for a first incumbent; with the
         * warm start there is one, and GLPK 5.0's pump then ran on far
         * past tm_lim on a POP part of tests/gen/geninst 7 40 (its LPs do
         * not look at the clock) */
        io.fp_heur = mp.warm ? GLP_OFF : GLP_ON;
        io.mip_gap = opts->gap;
        left = opts->time_limit - (cp_now_seconds() - t0);
        io.tm_lim = cp_num_clamp_int(left * 1000, 1, INT_MAX);
        io.cb_func = callback;
        io.cb_info = &mp;
        int st, mrc = 0;
        if (!sc)
            cp_progress_phase(opts, "branch-and-cut");
        double *xv = cp_calloc((size_t)mp.n_cols + 1, sizeof *xv);
        if (!xv) {
            rc = cp_err_nomem(err);
            goto out;
        }
        if (opts->mip_engine == CP_MIP_CBC) {
            cp_mip_result res;
            if ((rc = cbc_branch(&mp, P, t0 + opts->time_limit, false, xv, &res, err))) {
                cp_free(xv);
                goto out;
            }
            st = res.status == CP_MIP_OPTIMAL    ? GLP_OPT
                 : res.status == CP_MIP_FEASIBLE ? GLP_FEAS
                 : res.status == CP_MIP_INFEASIBLE ? GLP_NOFEAS
                                                   : GLP_UNDEF;
            xv[0] = res.objective;
            if (!isnan(res.bound) && (isnan(mp.bound) || res.bound > mp.bound))
                mp.bound = res.bound;
            if (st == GLP_OPT && res.bound < res.objective)
                mrc = GLP_EMIPGAP; /* proved within the gap: the bound is CBC's */
            cp_solver_log(opts, "milp: cbc: %s after %.2f s, %ld nodes, objective %.10g, bound %.10g",
                          st == GLP_OPT ? "optimal" : st == GLP_FEAS ? "stopped" : "no answer",
                          res.seconds, res.nodes, res.objective, res.bound);
        } else {
            mrc = glp_intopt(P, &io);
            st = glp_mip_status(P);
            for (int c = 1; c <= mp.n_cols && (st == GLP_OPT || st == GLP_FEAS); c++)
                xv[c] = glp_mip_col_val(P, c);
            xv[0] = glp_mip_obj_val(P);
        }
        if (st == GLP_OPT || st == GLP_FEAS) {
            mip_ok = 1;
            bool proved = (mrc == 0 && st == GLP_OPT) || mrc == GLP_EMIPGAP;
            for (int j = 0; j < in->n_jobs; j++)
                plan->mode[j] = -1;
            for (int c = 1; c <= mp.n_cols; c++)
                if (mp.col_mode[c] >= 0 && xv[c] > 0.5) {
                    plan->mode[mp.col_job[c]] = mp.col_mode[c];
                    plan->start[mp.col_job[c]] = mp.col_start[c];
                }
            if (mp.svc.n_col) { /* services were built (not in a POP part) */
                double *x = cp_calloc((size_t)mp.n_cols + 1, sizeof *x);
                if (!x) {
                    cp_free(xv);
                    rc = cp_err_nomem(err);
                    goto out;
                }
                for (int c = 1; c <= mp.n_cols; c++)
                    x[c] = glp_mip_col_val(P, c);
                cp_milp_svc_extract(&mp, x, plan);
                cp_free(x);
            }
            cp_plan_min_instances(plan);
            plan->objective = xv[0];
            /* no better than the warm start (whose objective the caller
             * set: the whole problem only): keep the warm plan itself,
             * whose units already pack */
            if (!sc && warm && mp.warm && cp_plan_precedence_ok(warm) &&
                plan->objective >= warm->objective - 1e-9 * (1 + fabs(warm->objective)) && cp_plan_copy(plan, warm))
                rc = cp_err_nomem(err);
            if (mrc == 0 && st == GLP_OPT)
                mp.bound = plan->objective;
            plan->status = proved ? CP_STATUS_OPTIMAL : CP_STATUS_FEASIBLE;
        } else if (st == GLP_NOFEAS) {
            cp_free(xv);
            plan->status = CP_STATUS_INFEASIBLE;
            goto out;
        }
        cp_free(xv);
    }
    if (mip_ok && warm && warm->status != CP_STATUS_INFEASIBLE && cp_plan_precedence_ok(warm)) {
        /* never worse than the heuristic, whatever branch-and-cut kept
         * (but a heuristic plan that breaks precedence, capplan.5 §9.2, is
         * cheaper only for that: the tree's rows hold it) */
        cp_plan_figures fm, fw;
        if (cp_plan_eval(plan, &fm, err) == CP_OK) {
            if (cp_plan_eval(warm, &fw, err) == CP_OK) {
                if (fw.costs.total < fm.costs.total - 1e-9 * (1 + fabs(fm.costs.total))) {
                    if (cp_plan_copy(plan, warm))
                        rc = cp_err_nomem(err);
                    plan->status = CP_STATUS_FEASIBLE;
                }
                cp_plan_figures_release(&fw);
            }
            cp_plan_figures_release(&fm);
        }
    }
    if (!mip_ok) {
        if (warm && warm->status != CP_STATUS_INFEASIBLE) {
            if (cp_plan_copy(plan, warm))
                rc = cp_err_nomem(err);
            plan->status = CP_STATUS_FEASIBLE;
        } else {
            plan->status = CP_STATUS_NOPLAN;
        }
    }
    plan->bound = mp.bound;
out:
    glp_delete_prob(P);
    glp_free_env();
    milp_release(&mp);
    cp_usage_release(&u);
    return rc;
}
