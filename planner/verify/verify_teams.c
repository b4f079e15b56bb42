/*
 * The plan verifier, teams (capplan.5 §10.2; see verify_internal.h):
 * per team, quota and slot, what the team's jobs hold on pools (the
 * accelerators of the quota's type, or their CPUs for `cpus`) against the
 * quota; per team with a budget, the attributed cost of its jobs against
 * it; and the plan's `teams` list, each team's cost (the sum of its jobs'
 * costs) and accelerator-hours (accelerators × hours of each run, the
 * last slot's fraction included, on every resource) against the same
 * sums made here. Job costs come from cp_vf_job_cost (verify_cost.c),
 * derived from the input alone.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <stdio.h>

/* What entry vj holds of quota q (of its team) in each slot of its run. */
static double holds(cp_vf_ctx *c, const cp_vf_job *vj, const cp_team_quota *q)
{
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_resource *r = &c->ms->res[vj->res];
    if (r->kind != CP_RES_POOL)
        return 0;
    if (q->acc < 0)
        return m->demand[CP_DIM_CPU];
    return r->mach->acc == q->acc ? m->demand[CP_DIM_ACC] : 0;
}

static void check_quota(cp_vf_ctx *c, int k, const cp_team_quota *q)
{
    const cp_input *in = c->in;
    const char *key = q->acc < 0 ? "cpus" : in->accels[q->acc].name;
    for (int t = 0; t < c->T; t++) {
        double held = 0;
        cp_buf jobs;
        cp_buf_init(&jobs);
        int n = 0;
        cp_pos at = c->pf->pos;
        for (int e = 0; e < c->n_jobs; e++) {
            const cp_vf_job *vj = &c->jobs[e];
            double h;
            if (!vj->counted || in->jobs[vj->job].team != k || !cp_vf_runs_at(c, vj, t) ||
                (h = holds(c, vj, q)) <= 0)
                continue;
            held += h;
            cp_buf_printf(&jobs, "%s'%s'", n++ ? ", " : "", in->jobs[vj->job].name);
            at = vj->pj->pos;
        }
        /* capplan.5 §10.4: the team's service replicas on pools */
        for (int d = 0; c->svc_n && d < c->ms->n_deps; d++) {
            const cp_deploy *dp = &c->ms->deps[d];
            const cp_resource *r = &c->ms->res[dp->res];
            long reps = c->svc_n[(size_t)d * (size_t)c->T + (size_t)t];
            if (!reps || in->services[dp->svc].team != k || r->kind != CP_RES_POOL)
                continue;
            double h = q->acc < 0 ? dp->demand[CP_DIM_CPU] : r->mach->acc == q->acc ? dp->demand[CP_DIM_ACC] : 0;
            if (h <= 0)
                continue;
            held += (double)reps * h;
            cp_buf_printf(&jobs, "%sservice '%s'", n++ ? ", " : "", in->services[dp->svc].name);
        }
        double lim = cp_series_at(&q->limit, t);
        if (cp_vf_over(held, lim))
            cp_vf_viol(c, at, "team '%s' holds %s %s on pools in slot %d, over its quota of %s (%s)",
                       in->teams[k].name, cp_vf_n(held).s, key, t, cp_vf_n(lim).s,
                       jobs.s ? jobs.s : "");
        if (!cp_buf_ok(&jobs))
            c->oom = true;
        cp_buf_release(&jobs);
    }
}

/* What team k's jobs and services cost and hold, over the counted
 * entries; *spend is the cost its budget counts, without the services'
 * unserved requests (capplan.5 §10.6). Replicas hold count · n · h. */
static void team_sums(const cp_vf_ctx *c, int k, double *cost, double *acc_hours, double *spend)
{
    *cost = *acc_hours = *spend = 0;
    for (int e = 0; e < c->n_jobs; e++) {
        const cp_vf_job *vj = &c->jobs[e];
        if (!vj->counted || vj->res < 0 || c->in->jobs[vj->job].team != k)
            continue;
        const cp_mode *m = &c->ms->modes[vj->mode];
        *cost += cp_vf_job_cost(c, vj);
        *acc_hours += m->demand[CP_DIM_ACC] * m->hours;
    }
    *spend = *cost;
    for (int v = 0; c->svc_cost && v < c->in->n_services; v++) {
        if (c->in->services[v].team != k)
            continue;
        *cost += c->svc_cost[v];
        *spend += c->svc_spend[v];
        for (int d = c->ms->svc_first[v]; d < c->ms->svc_first[v + 1]; d++)
            for (int t = 0; t < c->T; t++)
                *acc_hours += c->ms->deps[d].demand[CP_DIM_ACC] *
                              (double)c->svc_n[(size_t)d * (size_t)c->T + (size_t)t] * c->h;
    }
}

/* The plan's `teams` (capplan.5 §10.2): one entry per team of the input,
 * none other, each with the sums of team_sums. An input with teams needs
 * the list (its plans are all of version 1.2); one without may have an
 * empty list. */
static void check_team_list(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    const cp_plan_file *pf = c->pf;
    if (pf->teams_list.has == CP_PLAN_BAD)
        return; /* the reader's violation */
    if (pf->teams_list.has == CP_PLAN_ABSENT) {
        if (in->n_teams)
            cp_vf_viol(c, pf->pos, "plan: missing 'teams' (the inputs have %d team%s)",
                       in->n_teams, in->n_teams == 1 ? "" : "s");
        return;
    }
    const cp_plan_team **seen = cp_calloc((size_t)(in->n_teams ? in->n_teams : 1), sizeof *seen);
    if (!seen) {
        c->oom = true;
        return;
    }
    for (int i = 0; i < pf->n_teams; i++) {
        const cp_plan_team *e = &pf->teams[i];
        if (e->name.has != CP_PLAN_SET)
            continue;
        int k = cp_input_find_team(in, e->name.s);
        if (k < 0) {
            cp_vf_viol(c, e->name.pos, "team %d: unknown team '%s'", e->index + 1, e->name.s);
            continue;
        }
        if (seen[k]) {
            cp_vf_viol(c, e->name.pos, "team '%s' is listed twice (first at line %d)", e->name.s,
                       seen[k]->pos.line);
            continue;
        }
        seen[k] = e;
        double cost, acc_hours, spend;
        team_sums(c, k, &cost, &acc_hours, &spend);
        char who[300];
        snprintf(who, sizeof who, "team '%s'", e->name.s);
        cp_vf_compare_num(c, &e->cost, e->pos, "cost", who, false, cost);
        cp_vf_compare_num(c, &e->accelerator_hours, e->pos, "accelerator_hours", who, false,
                          acc_hours);
    }
    for (int k = 0; k < in->n_teams; k++)
        if (!seen[k])
            cp_vf_viol(c, pf->teams_list.pos, "teams: team '%s' is missing", in->teams[k].name);
    cp_free(seen);
}

void cp_vf_check_teams(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    for (int k = 0; k < in->n_teams && !c->oom; k++) {
        const cp_team *tm = &in->teams[k];
        for (int q = 0; q < tm->n_quota; q++)
            check_quota(c, k, &tm->quota[q]);
        if (!tm->has_budget)
            continue;
        double spent, cost, acc_hours;
        team_sums(c, k, &cost, &acc_hours, &spent);
        if (cp_vf_over(spent, tm->budget))
            cp_vf_viol(c, c->pf->pos,
                       "team '%s': its jobs' attributed cost %s $ is over its budget of %s $",
                       tm->name, cp_vf_n(spent).s, cp_vf_n(tm->budget).s);
    }
    if (!c->oom)
        check_team_list(c);
}
