/*
 * Pricing for the column generation (lp_colgen.c): every (job, mode,
 * start) of the exported model at one point pi of duals, in one pass with
 * prefix sums over the slots (as lagrange.c does), and the Lagrangian
 * value L(pi) that makes every round's bound valid (see lp_colgen.c).
 * The lifting rows (lp_colgen_cuts.c) are priced like the capacity rows:
 * a big-share row by slot and dimension, a job's own rows by slot.
 */
#include "lp_colgen_internal.h"

#include "cp_cost.h"

#include <math.h>
#include <string.h>

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
    if (!c->b_row)
        return;
    for (size_t k = 0; k < nrr; k++)
        c->p_b[k] = c->b_row[k] ? -pi[c->b_row[k]] : 0;
    memset(c->p_ay, 0, (size_t)c->n_res * T * sizeof *c->p_ay);
    for (int k = 0; k < c->n_a; k++)
        if (c->a_need[k])
            c->p_ay[(size_t)c->a_res[k] * T + (size_t)c->a_t[k]] -= pi[c->a_row[k]];
    for (int q = 0; q < c->n_c; q++)
        c->p_ay[(size_t)c->c_res[q] * T + (size_t)c->c_t[q]] -= pi[c->c_row[q]] * c->c_frac[q];
}

/* The team rows' part of column (m, s)'s reduced cost at duals pi
 * (capplan.5 §10.2): the rows are <= rows, so -pi >= 0 prices them. */
static double team_charge(cg *c, const double *pi, int m, int s)
{
    int n = cp_teamrows_coefs(&c->u.teams, m, s, c->u.trow, c->u.tval);
    double v = 0;
    for (int i = 0; i < n; i++)
        v -= pi[c->team_row0 + c->u.trow[i]] * c->u.tval[i];
    return v;
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

double cp_cg_price(cg *c, const double *pi, long *n_found)
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
        bool prec =
            c->n_edges && (c->as_succ[j + 1] > c->as_succ[j] || c->as_pred[j + 1] > c->as_pred[j]);
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
            bool on = cp_cg_mode_on(c, m);
            if (!on && !c->rc_all)
                continue;
            const cp_mode *md = &ms->modes[m];
            const cp_resource *r = &ms->res[md->res];
            bool pool = r->kind == CP_RES_POOL;
            int t_hi = md->s_max + md->slots;
            const double *pr = &c->p_res[(size_t)md->res * CP_DIMS * T];
            const double *e = &c->e[(size_t)m * T];
            const double *ps = pool ? &c->p_site[(size_t)r->site * T] : NULL;
            /* the lifting rows: big shares by dimension, the job's own rows
             * on this resource (its units needed in each slot) */
            const double *pbig = c->b_row ? &c->p_b[(size_t)md->res * CP_DIMS * T] : NULL;
            const double *half = c->b_row ? &c->half[(size_t)m * CP_DIMS] : NULL;
            bool own = c->a_head && c->a_head[j] >= 0;
            if (own)
                for (int k = c->a_head[j]; k >= 0; k = c->a_next[k])
                    if (c->a_res[k] == md->res && c->a_t[k] >= md->s_min && c->a_t[k] < t_hi)
                        c->w[c->a_t[k]] -=
                            pi[c->a_row[k]] * c->a_coef[k] * (c->a_need[k] ? c->need[m] : 1);
            c->pa[md->s_min] = c->pb[md->s_min] = 0;
            for (int t = md->s_min; t < t_hi; t++) {
                double a = 0;
                for (int d = 0; d < CP_DIMS; d++) {
                    a += pr[(size_t)d * T + (size_t)t] * md->demand[d];
                    if (pbig && half[d] > 0)
                        a += pbig[(size_t)d * T + (size_t)t] * half[d];
                }
                if (own) {
                    a += c->w[t];
                    c->w[t] = 0;
                }
                c->pa[t + 1] = c->pa[t] + a;
                c->pb[t + 1] = c->pb[t] + (pool ? f * e[t] + ps[t] * md->busy_w : 0);
            }
            const unsigned char *fits = &c->fits[c->col_off[m]];
            const int *inm = &c->in_mp[c->col_off[m]];
            for (int s = md->s_min; s <= md->s_max; s++) {
                bool col = on && fits[s - md->s_min];
                if (!col && !c->rc_all)
                    continue;
                int last = s + md->slots - 1;
                double v = c->pa[last + 1] - c->pa[s] + c->pb[last] - c->pb[s] +
                           md->last_frac * (c->pb[last + 1] - c->pb[last]);
                v += f * md->egress + md->change;
                if (c->team_row0)
                    v += team_charge(c, pi, m, s);
                if (prec)
                    v += c->ps_start[s] + c->ps_end[last + 1];
                if (c->rc_all)
                    c->rc_all[c->col_off[m] + (size_t)(s - md->s_min)] = v - pj;
                if (!col)
                    continue;
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
            for (int d = 0; d < CP_DIMS; d++) {
                size_t k = ((size_t)r * CP_DIMS + (size_t)d) * T + t;
                red -= c->p_res[k] * cp_machine_dim(ms->res[r].mach, d);
                if (c->b_row)
                    red -= c->p_b[k];
            }
            if (c->b_row)
                red -= c->p_ay[(size_t)r * T + t];
            int q = cp_usage_quota(&c->u, r, (int)t);
            if (red < 0 && q > 0)
                L += red * q;
        }
    *n_found = found;
    return L + cp_cg_svc_price(c, pi);
}
