/*
 * Which rows and columns the exported model has (milp_model.c's
 * milp_build rules: a column for every (job, mode, start) that fits, a
 * row wherever a column touches one), for the column generation of
 * lp_colgen.c; and the arrays by row, which grow when lifting rows are
 * added (lp_colgen_cuts.c).
 */
#include "lp_colgen_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <string.h>

void cp_cg_release(cg *c)
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
    cp_free(c->half);
    cp_free(c->need);
    cp_free(c->b_row);
    cp_free(c->p_b);
    cp_free(c->a_job);
    cp_free(c->a_res);
    cp_free(c->a_t);
    cp_free(c->a_row);
    cp_free(c->a_next);
    cp_free(c->a_head);
    cp_free(c->p_ay);
    cp_free(c->c_res);
    cp_free(c->c_t);
    cp_free(c->c_row);
    cp_free(c->c_frac);
    cp_free(c->a_coef);
    cp_free(c->a_need);
    cp_free(c->w);
    cp_cg_svc_release(c);
}

/* One array by row grown from `had` to n + 2 elements (ind and val
 * hold a column's entries from index 1, so one more than the rows), the
 * new part zeroed. */
static int grow_one(void *pp, size_t size, size_t had, int n)
{
    void **p = pp;
    char *q = cp_reallocarray(*p, (size_t)n + 2, size);
    if (!q)
        return CP_ERR_NOMEM;
    memset(q + had * size, 0, ((size_t)n + 2 - had) * size);
    *p = q;
    return CP_OK;
}

int cp_cg_grow_rows(cg *c, int n)
{
    if (c->rhs && n <= c->rows_cap)
        return CP_OK;
    size_t had = c->rhs ? (size_t)c->rows_cap + 2 : 0;
    int want = c->rhs && n < 2 * c->rows_cap ? 2 * c->rows_cap : n;
    if (grow_one(&c->rhs, sizeof *c->rhs, had, want) ||
        grow_one(&c->pi_out, sizeof *c->pi_out, had, want) ||
        grow_one(&c->pi_stab, sizeof *c->pi_stab, had, want) ||
        grow_one(&c->pi_sep, sizeof *c->pi_sep, had, want) ||
        grow_one(&c->ind, sizeof *c->ind, had, want) ||
        grow_one(&c->val, sizeof *c->val, had, want))
        return CP_ERR_NOMEM;
    c->rows_cap = want;
    return CP_OK;
}

/* starts[s] = 1 where job j has a column of the model starting at s. */
static void job_starts(const cg *c, int j, unsigned char *starts)
{
    const cp_modeset *ms = c->ms;
    memset(starts, 0, (size_t)c->T + 1);
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
        for (int s = ms->modes[m].s_min; s <= ms->modes[m].s_max; s++)
            if (c->fits[c->col_off[m] + (size_t)(s - ms->modes[m].s_min)])
                starts[s] = 1;
}

/* The precedence rows: an edge i -> j of two jobs with assignment rows
 * where j has a column gets a row per distinct start of j's columns
 * (milp_model.c's add_precedence). */
static int precedence_rows(cg *c)
{
    const cp_input *in = c->in;
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
        job_starts(c, j, starts);
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
    if (!c->e_pred || !c->e_succ || !c->e_first || !c->e_tau || !c->e_row || !c->succ_e ||
        !c->pred_e) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    int e = 0, k = 0;
    for (int j = 0; j < c->n_jobs; j++) {
        const cp_job *jb = &in->jobs[j];
        if (!jb->n_after || !c->assign_row[j] || !njt[j])
            continue;
        job_starts(c, j, starts);
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

bool cp_cg_mode_on(const cg *c, int m)
{
    return !(c->u.dominated && c->u.dominated[m]);
}

bool cp_cg_site_capped(const cg *c, const cp_resource *r)
{
    return r->kind == CP_RES_POOL && c->in->sites[r->site].power_cap_kw.set;
}

/* Which columns the exported model has, and from them which rows and y
 * columns (milp_build's rules: a row exists when a column touches it). */
int cp_cg_init(cg *c, const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts)
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
    if (!c->col_off || !c->e || !c->assign_row || !c->res_row || !c->site_row || !c->y_col ||
        !c->z_col || !c->seed_col || !c->p_res || !c->p_site || !c->pa || !c->pb || !c->cands ||
        !c->n_cand || !c->job_best || !c->job_arg)
        return CP_ERR_NOMEM;
    for (size_t m = 0; m < nm; m++)
        c->col_off[m + 1] = c->col_off[m] + (size_t)(ms->modes[m].s_max - ms->modes[m].s_min + 1);
    size_t ncol = c->col_off[nm] ? c->col_off[nm] : 1;
    c->fits = cp_calloc(ncol, 1);
    c->in_mp = cp_calloc(ncol, sizeof *c->in_mp);
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
            if (!cp_cg_mode_on(c, m))
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
                    if (cp_cg_site_capped(c, r) && md->busy_w > 0) {
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
                    c->e[(size_t)m * T + t] = in->sites[r->site].pue * md->busy_w * in->slot_hours /
                                              1000 * c->u.kwh_cost[(size_t)r->site * T + t];
        }
    if (precedence_rows(c))
        return CP_ERR_NOMEM;
    if (in->has_budget)
        c->budget_row = ++c->n_rows;
    if (c->u.teams.n_rows) { /* capplan.5 §10.2: the usage's rows as they are */
        c->team_row0 = c->n_rows + 1;
        c->n_rows += c->u.teams.n_rows;
    }
    if (cp_cg_svc_init(c) || cp_cg_grow_rows(c, c->n_rows))
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
    for (int k = 0; c->team_row0 && k < c->u.teams.n_rows; k++)
        c->rhs[c->team_row0 + k] = c->u.teams.rhs[k];
    cp_cg_svc_rhs(c);
    return CP_OK;
}
