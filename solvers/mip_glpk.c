/*
 * A MILP as plain arrays (cp_mip.h) solved by the linked GLPK: the twin
 * of mip_cbc.c, for the small models that a search builds as arrays and
 * hands to either engine (services_search.c). The glp_prob is created and
 * deleted here; every bound is checked before GLPK sees it (GLPK aborts
 * on a bad call).
 */
#include "cp_mip.h"

#include "cp_num.h"
#include "cp_solver.h"

#include <glpk.h>
#include <limits.h>
#include <math.h>

static void bounds(glp_prob *P, int row, int i, double lo, double hi)
{
    int type = isinf(lo) && isinf(hi) ? GLP_FR
               : isinf(hi)            ? GLP_LO
               : isinf(lo)            ? GLP_UP
               : lo == hi             ? GLP_FX
                                      : GLP_DB;
    double l = isinf(lo) ? 0 : lo, h = isinf(hi) ? 0 : hi;
    if (row)
        glp_set_row_bnds(P, i, type, l, h);
    else
        glp_set_col_bnds(P, i, type, l, h);
}

/* Stops the search at the deadline or on a stop (GLPK's own tm_lim is
 * set too; this also looks at the stop flag) and counts the nodes. */
typedef struct cb_info {
    const cp_mip_limits *lim;
    const cp_mip *m;
    bool sent;
} cb_info;

static void callback(glp_tree *T, void *arg)
{
    cb_info *cb = arg;
    const cp_mip_limits *lim = cb->lim;
    if (glp_ios_reason(T) == GLP_IHEUR && cb->m->start && !cb->sent) {
        cb->sent = true; /* the start, once: the search's incumbent */
        glp_ios_heur_sol(T, cb->m->start);
    }
    if (glp_ios_reason(T) != GLP_ISELECT)
        return;
    int active = 0, count = 0;
    glp_ios_tree_size(T, &active, NULL, &count);
    if ((lim->stop && *lim->stop) || (lim->nodes > 0 && count >= lim->nodes) ||
        (lim->deadline > 0 && cp_now_seconds() >= lim->deadline))
        glp_ios_terminate(T);
}

int cp_mip_glpk_solve(const cp_mip *m, const cp_mip_limits *lim, double *x, cp_mip_result *res)
{
    double t0 = cp_now_seconds();
    *res = (cp_mip_result){CP_MIP_NONE, NAN, NAN, 0, -1};
    for (int i = 1; i <= m->n_rows; i++)
        if (m->row_lo[i] > m->row_hi[i] || isnan(m->row_lo[i]) || isnan(m->row_hi[i]))
            return CP_OK; /* no solution: GLPK would abort on the bounds */
    for (int j = 1; j <= m->n_cols; j++)
        if (m->col_lo[j] > m->col_hi[j] || !isfinite(m->obj[j]) || isinf(m->col_lo[j]))
            return CP_OK;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    if (m->n_rows)
        glp_add_rows(P, m->n_rows);
    if (m->n_cols)
        glp_add_cols(P, m->n_cols);
    for (int i = 1; i <= m->n_rows; i++)
        bounds(P, 1, i, m->row_lo[i], m->row_hi[i]);
    for (int j = 1; j <= m->n_cols; j++) {
        bounds(P, 0, j, m->col_lo[j], m->col_hi[j]);
        glp_set_obj_coef(P, j, m->obj[j]);
        if (m->col_int[j])
            glp_set_col_kind(P, j, GLP_IV);
    }
    if (m->nnz)
        glp_load_matrix(P, cp_num_clamp_int((double)m->nnz, 0, INT_MAX), m->ia, m->ja, m->ar);
    glp_iocp io;
    glp_init_iocp(&io);
    io.msg_lev = GLP_MSG_OFF;
    /* a start goes in through the callback, which needs the original
     * columns: GLPK's presolve off, the LP solved first */
    io.presolve = m->start ? GLP_OFF : GLP_ON;
    if (m->start) {
        glp_smcp sm;
        glp_init_smcp(&sm);
        sm.msg_lev = GLP_MSG_OFF;
        if (glp_simplex(P, &sm) || glp_get_status(P) != GLP_OPT) {
            glp_delete_prob(P);
            res->seconds = cp_now_seconds() - t0;
            return CP_OK;
        }
    }
    cb_info cb = {lim, m, false};
    io.mip_gap = lim->gap > 0 ? lim->gap : 1e-7;
    io.cb_func = callback;
    io.cb_info = &cb;
    if (lim->deadline > 0)
        io.tm_lim = cp_num_clamp_int((lim->deadline - t0) * 1000, 1, INT_MAX);
    int rc = glp_intopt(P, &io), st = glp_mip_status(P);
    if (rc == 0 || st == GLP_FEAS || st == GLP_OPT) {
        if (st == GLP_OPT || st == GLP_FEAS) {
            res->status = st == GLP_OPT && rc == 0 ? CP_MIP_OPTIMAL : CP_MIP_FEASIBLE;
            res->objective = glp_mip_obj_val(P);
            for (int j = 1; j <= m->n_cols; j++)
                x[j] = glp_mip_col_val(P, j);
        } else if (st == GLP_NOFEAS) {
            res->status = CP_MIP_INFEASIBLE;
        }
    }
    glp_delete_prob(P);
    res->seconds = cp_now_seconds() - t0;
    return CP_OK;
}
