/*
 * The plan verifier, teams (capplan.5 §10.2; see verify_internal.h):
 * per team, quota and slot, what the team's jobs hold on pools (the
 * accelerators of the quota's type, or their CPUs for `cpus`) against the
 * quota; per team with a budget, the attributed cost of its jobs against
 * it. The attributed cost is derived here from the input alone: on a pool
 * the energy and carbon of the job's busy power, on a market its share of
 * the instances (the fullest dimension of one instance) at the price and
 * the instance's carbon of every slot it runs, plus its egress.
 */
#include "verify_internal.h"

/* What job entry e costs the job (1.2), from the input. */
static double attributed(cp_vf_ctx *c, const cp_vf_job *vj)
{
    const cp_input *in = c->in;
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_resource *r = &c->ms->res[vj->res];
    double cost = cp_vf_job_egress(in, &in->jobs[vj->job], r->site);
    double carbon_per_kg = in->carbon_price_per_ton / 1000;
    if (r->kind == CP_RES_POOL) {
        const cp_site *s = &in->sites[r->site];
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            double kwh = s->pue * m->busy_w * cp_vf_frac_at(m, vj->start, t) * c->h / 1000;
            cost += kwh * (cp_vf_series_or(&s->energy_price, t, 0) +
                           cp_vf_series_or(&s->carbon_intensity, t, 0) / 1000 * carbon_per_kg);
        }
        return cost;
    }
    const cp_offer *o = &in->offers[r->index];
    double unit[CP_DIMS], share = 0;
    cp_vf_mach_cap(r->mach, unit);
    for (int d = 0; d < CP_DIMS; d++)
        if (unit[d] > 0 && m->demand[d] / unit[d] > share)
            share = m->demand[d] / unit[d];
    double price = r->kind == CP_RES_SPOT ? o->spot_price_hour : o->price_hour;
    for (int t = vj->start; t < vj->start + m->slots; t++) {
        double slot = price * c->h;
        if (o->site >= 0) {
            const cp_site *s = &in->sites[o->site];
            double kwh = o->inst.power_w * s->pue * c->h / 1000;
            slot += kwh * cp_vf_series_or(&s->carbon_intensity, t, 0) / 1000 * carbon_per_kg;
        }
        cost += share * slot;
    }
    return cost;
}

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

void cp_vf_check_teams(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    for (int k = 0; k < in->n_teams && !c->oom; k++) {
        const cp_team *tm = &in->teams[k];
        for (int q = 0; q < tm->n_quota; q++)
            check_quota(c, k, &tm->quota[q]);
        if (!tm->has_budget)
            continue;
        double spent = 0;
        for (int e = 0; e < c->n_jobs; e++)
            if (c->jobs[e].counted && in->jobs[c->jobs[e].job].team == k)
                spent += attributed(c, &c->jobs[e]);
        if (cp_vf_over(spent, tm->budget))
            cp_vf_viol(c, c->pf->pos,
                       "team '%s': its jobs' attributed cost %s $ is over its budget of %s $",
                       tm->name, cp_vf_n(spent).s, cp_vf_n(tm->budget).s);
    }
}
