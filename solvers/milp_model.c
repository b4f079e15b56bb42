/*
 * The time-indexed MILP of capplan.5 §3-4 as a model: its columns, rows
 * and triplets built from the modes (cp_milp_build, no GLPK yet, so the
 * sizes are known first), loaded into a glp_prob (cp_milp_load), and its
 * CPLEX LP export with names that say what each column and row is
 * (cp_milp_export, cp_milp_lp_columns; docs/place.md). The solve, its
 * warm start and callback are milp_glpk.c's; the columns and rows of
 * services milp_svc.c's.
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
 * (reduce.c) get no columns.
 */
#include "milp_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include "cp_atomic.h"
#include "cp_buf.h"
#include "cp_solution.h"

#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cp_milp_release(milp *mp)
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

int cp_milp_build(milp *mp, const cp_usage *u)
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

void cp_milp_load(milp *mp, glp_prob *P, const cp_usage *u)
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

/* The whole model (no scope, every column), named, in a new glp_prob:
 * milp_internal.h. */
int cp_milp_model_open(milp *mp, const cp_input *in, const cp_modeset *ms, cp_usage *u,
                        glp_prob **out, cp_err *err)
{
    memset(mp, 0, sizeof *mp);
    mp->in = in;
    mp->ms = ms;
    mp->T = in->slots;
    if (cp_usage_init_scaled(u, in, ms, 1.0))
        return cp_err_nomem(err);
    if (cp_milp_build(mp, u)) {
        cp_milp_release(mp);
        cp_usage_release(u);
        return cp_err_nomem(err);
    }
    glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    cp_milp_load(mp, P, u);
    name_model(mp, P);
    *out = P;
    return CP_OK;
}

void cp_milp_model_close(milp *mp, cp_usage *u, glp_prob *P)
{
    glp_delete_prob(P);
    glp_free_env();
    cp_milp_release(mp);
    cp_usage_release(u);
}

int cp_milp_export(const cp_input *in, const cp_modeset *ms, const char *path, cp_err *err)
{
    milp mp;
    cp_usage u;
    glp_prob *P = NULL;
    int rc = cp_milp_model_open(&mp, in, ms, &u, &P, err);
    if (rc)
        return rc;
    char *text = NULL;
    size_t len = 0;
    /* its bytes go through the same atomic writer as plans */
    if ((rc = lp_text(&mp, P, path, &text, &len, err)) == CP_OK)
        rc = cp_write_file_atomic(path, text, len, err);
    cp_free(text);
    cp_milp_model_close(&mp, &u, P);
    return rc;
}

int cp_milp_lp_columns(const cp_input *in, const cp_modeset *ms, cp_lp_names *out, cp_err *err)
{
    milp mp;
    cp_usage u;
    glp_prob *P = NULL, *Q = NULL;
    int rc = cp_milp_model_open(&mp, in, ms, &u, &P, err);
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
    cp_milp_model_close(&mp, &u, P);
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
