/* The team rows; see cp_teams.h. */
#include "cp_teams.h"

#include "cp_plan.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <stdio.h>
#include <string.h>

void cp_teamrows_release(cp_teamrows *tr)
{
    cp_free(tr->q_team);
    cp_free(tr->q);
    cp_free(tr->budget_row);
    cp_free(tr->first_quota);
    cp_free(tr->rhs);
    memset(tr, 0, sizeof *tr);
}

int cp_teamrows_init(cp_teamrows *tr, const cp_input *in, const cp_modeset *ms, double scale)
{
    memset(tr, 0, sizeof *tr);
    tr->in = in;
    tr->ms = ms;
    tr->T = in->slots;
    int nt = in->n_teams;
    for (int k = 0; k < nt; k++) {
        tr->n_quota += in->teams[k].n_quota;
        tr->n_budget += in->teams[k].has_budget;
    }
    tr->n_rows = tr->n_quota * tr->T + tr->n_budget;
    tr->q_team = cp_calloc((size_t)tr->n_quota + 1, sizeof *tr->q_team);
    tr->q = cp_calloc((size_t)tr->n_quota + 1, sizeof *tr->q);
    tr->budget_row = cp_calloc((size_t)nt + 1, sizeof *tr->budget_row);
    tr->first_quota = cp_calloc((size_t)nt + 1, sizeof *tr->first_quota);
    tr->rhs = cp_calloc((size_t)tr->n_rows + 1, sizeof *tr->rhs);
    if (!tr->q_team || !tr->q || !tr->budget_row || !tr->first_quota || !tr->rhs) {
        cp_teamrows_release(tr);
        return CP_ERR_NOMEM;
    }
    int q = 0, b = tr->n_quota * tr->T;
    for (int k = 0; k < nt; k++) {
        const cp_team *tm = &in->teams[k];
        tr->first_quota[k] = q;
        for (int i = 0; i < tm->n_quota; i++, q++) {
            tr->q_team[q] = k;
            tr->q[q] = &tm->quota[i];
            for (int t = 0; t < tr->T; t++)
                tr->rhs[(size_t)q * tr->T + t] = cp_series_at(&tm->quota[i].limit, t) * scale;
        }
        tr->budget_row[k] = tm->has_budget ? b : -1;
        if (tm->has_budget)
            tr->rhs[b++] = tm->budget * scale;
    }
    tr->first_quota[nt] = q;
    /* a team's quota keys are distinct: one type and cpus per slot at most */
    tr->max_coefs = 2 * tr->T + 1;
    return CP_OK;
}

double cp_teamrows_quota_use(const cp_teamrows *tr, int mi, int q)
{
    const cp_mode *m = &tr->ms->modes[mi];
    const cp_job *j = &tr->in->jobs[m->job];
    if (j->team != tr->q_team[q] || tr->ms->res[m->res].kind != CP_RES_POOL)
        return 0;
    int acc = tr->q[q]->acc;
    if (acc < 0)
        return m->demand[CP_DIM_CPU];
    return m->acc == acc ? m->demand[CP_DIM_ACC] : 0;
}

int cp_teamrows_coefs(const cp_teamrows *tr, int mi, int s, int *rows, double *vals)
{
    const cp_mode *m = &tr->ms->modes[mi];
    int k = tr->in->jobs[m->job].team, n = 0;
    if (k < 0 || tr->n_rows == 0)
        return 0;
    for (int q = tr->first_quota[k]; q < tr->first_quota[k + 1]; q++) {
        double v = cp_teamrows_quota_use(tr, mi, q);
        if (v <= 0)
            continue;
        for (int i = 0; i < m->slots; i++) {
            rows[n] = q * tr->T + s + i;
            vals[n++] = v;
        }
    }
    if (tr->budget_row[k] >= 0) {
        double c = cp_mode_attributed_cost(tr->in, tr->ms, m, s);
        if (c > 0) {
            rows[n] = tr->budget_row[k];
            vals[n++] = c;
        }
    }
    return n;
}

int cp_teamrows_row_team(const cp_teamrows *tr, int row, int *q, int *t)
{
    if (row < tr->n_quota * tr->T) {
        *q = row / tr->T;
        *t = row % tr->T;
        return tr->q_team[*q];
    }
    *q = -1;
    *t = -1;
    for (int k = 0; k < tr->in->n_teams; k++)
        if (tr->budget_row[k] == row)
            return k;
    return -1;
}

double cp_teamrows_dep_use(const cp_teamrows *tr, int d, int q)
{
    const cp_deploy *dp = &tr->ms->deps[d];
    const cp_resource *r = &tr->ms->res[dp->res];
    if (tr->in->services[dp->svc].team != tr->q_team[q] || r->kind != CP_RES_POOL)
        return 0;
    int acc = tr->q[q]->acc;
    if (acc < 0)
        return dp->demand[CP_DIM_CPU];
    return acc == r->mach->acc ? dp->demand[CP_DIM_ACC] : 0;
}

int cp_plan_team_use(const cp_plan *p, const cp_teamrows *tr, bool with_svc, double *use)
{
    int *rows = cp_calloc((size_t)tr->max_coefs + 1, sizeof *rows);
    double *vals = cp_calloc((size_t)tr->max_coefs + 1, sizeof *vals);
    if (!rows || !vals) {
        cp_free(rows);
        cp_free(vals);
        return CP_ERR_NOMEM;
    }
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        int n = cp_teamrows_coefs(tr, p->mode[j], p->start[j], rows, vals);
        for (int i = 0; i < n; i++)
            use[rows[i]] += vals[i];
    }
    cp_free(rows);
    cp_free(vals);
    if (!with_svc)
        return CP_OK;
    /* capplan.5 §10.4: the teams' service replicas on pools, and what the
     * services spend */
    for (int d = 0; d < p->ms->n_deps; d++) {
        int team = p->in->services[p->ms->deps[d].svc].team;
        for (int q = team < 0 ? 0 : tr->first_quota[team]; team >= 0 && q < tr->first_quota[team + 1]; q++) {
            double h = cp_teamrows_dep_use(tr, d, q);
            for (int t = 0; h > 0 && t < p->slots; t++)
                use[q * p->slots + t] += h * *cp_plan_n(p, d, t);
        }
    }
    for (int v = 0; v < p->in->n_services; v++) {
        int team = p->in->services[v].team;
        if (team >= 0 && tr->budget_row[team] >= 0)
            use[tr->budget_row[team]] += cp_plan_svc_spend(p, v);
    }
    return CP_OK;
}

bool cp_plan_teams_ok(const cp_plan *p, char *why, size_t why_size)
{
    if (!p->in->n_teams)
        return true;
    cp_teamrows tr;
    if (cp_teamrows_init(&tr, p->in, p->ms, 1.0)) {
        if (why)
            snprintf(why, why_size, "out of memory");
        return false;
    }
    double *use = cp_calloc((size_t)tr.n_rows + 1, sizeof *use);
    bool ok = use && !cp_plan_team_use(p, &tr, true, use);
    if (!ok && why)
        snprintf(why, why_size, "out of memory");
    for (int k = 0; ok && k < tr.n_rows; k++) {
        if (use[k] <= tr.rhs[k] + 1e-9 * (1 + tr.rhs[k]))
            continue;
        ok = false;
        if (!why)
            break;
        int q, t, team = cp_teamrows_row_team(&tr, k, &q, &t);
        if (q >= 0)
            snprintf(why, why_size, "team %s holds %g %s in slot %d, over its quota %g",
                     p->in->teams[team].name, use[k], cp_teamrows_key(&tr, q), t, tr.rhs[k]);
        else
            snprintf(why, why_size, "team %s: attributed cost %g exceeds its budget %g",
                     p->in->teams[team].name, use[k], tr.rhs[k]);
    }
    cp_free(use);
    cp_teamrows_release(&tr);
    return ok;
}

const char *cp_teamrows_key(const cp_teamrows *tr, int q)
{
    int acc = tr->q[q]->acc;
    return acc < 0 ? "cpus" : tr->in->accels[acc].name;
}
