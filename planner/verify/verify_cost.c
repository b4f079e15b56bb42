/*
 * The plan verifier, re-costing (capplan.5 §4; see verify_internal.h): cloud
 * cost per market, facility power, energy and carbon per site, penalties,
 * each job's cost and what they leave unattributed (capplan.5 §10.1), and
 * the comparison of every such number the plan states (totals, job costs,
 * provisioning costs, sites, utilization) with the re-costed one. Every
 * formula is derived here from the inputs; only the list of cost parts
 * (names and flags) is shared with the writer.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

double cp_vf_job_egress(const cp_input *in, const cp_job *j, int site)
{
    if (j->data_site < 0 || site == j->data_site)
        return 0;
    return j->data_gb * in->sites[j->data_site].egress_per_gb;
}

/* capplan.5 §10.1 from the inputs (verify_internal.h). On a
 * pool each slot's kWh at the energy price plus the carbon price per
 * kWh; on a market the job's share of one instance (its largest demand
 * over an instance dimension) of every slot of its run, whole slots,
 * with the carbon of that share of the instance's power for an offer
 * with a site; plus its egress. */
double cp_vf_job_cost(const cp_vf_ctx *c, const cp_vf_job *vj)
{
    const cp_input *in = c->in;
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_resource *r = &c->ms->res[vj->res];
    double cp = in->carbon_price_per_ton, cost = 0;
    if (r->kind == CP_RES_POOL) {
        const cp_site *st = &in->sites[r->site];
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            double kwh = st->pue * m->busy_w * cp_vf_frac_at(m, vj->start, t) * c->h / 1000;
            cost += kwh * (cp_vf_series_or(&st->energy_price, t, 0) +
                           cp_vf_series_or(&st->carbon_intensity, t, 0) * cp / 1e6);
        }
    } else {
        const cp_offer *o = &in->offers[r->index];
        double cap[CP_DIMS], share = 0;
        cp_vf_mach_cap(r->mach, cap);
        for (int d = 0; d < CP_DIMS; d++)
            if (cap[d] > 0 && m->demand[d] / cap[d] > share)
                share = m->demand[d] / cap[d];
        double price = r->kind == CP_RES_SPOT ? o->spot_price_hour : o->price_hour;
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            cost += share * price * c->h;
            if (o->site >= 0) {
                const cp_site *st = &in->sites[o->site];
                cost += share * r->mach->power_w * st->pue * c->h / 1000 *
                        cp_vf_series_or(&st->carbon_intensity, t, 0) * cp / 1e6;
            }
        }
    }
    return cost + cp_vf_job_egress(in, &in->jobs[vj->job], r->site);
}

/* Each scheduled job's `cost` (when given) against cp_vf_job_cost, and
 * totals.unattributed: the total less its unshared terms (penalties)
 * and the jobs' costs. */
static void check_job_costs(cp_vf_ctx *c)
{
    cp_costs *s = &c->rep->sums;
    double attributed = 0;
    for (int i = 0; i < c->n_jobs; i++) {
        const cp_vf_job *vj = &c->jobs[i];
        if (!vj->counted || vj->res < 0)
            continue;
        double cost = cp_vf_job_cost(c, vj);
        attributed += cost;
        char who[400];
        snprintf(who, sizeof who, "job '%s'", c->in->jobs[vj->job].name);
        cp_vf_compare_num(c, &vj->pj->cost, vj->pj->pos, "cost", who, false, cost);
    }
    for (int v = 0; c->svc_cost && v < c->in->n_services; v++)
        attributed += c->svc_cost[v]; /* capplan.5 §10.4, compared by verify_services.c */
    s->unattributed = -attributed; /* plus the terms a job's cost can hold */
    for (int i = 0; i < CP_COST_N; i++)
        if ((cp_cost_part_info[i].flags & (CP_COST_TERM | CP_COST_UNSHARED)) == CP_COST_TERM)
            s->unattributed += s->v[i];
}

/* Every part of the plan's totals against the re-costed one. */
static void check_totals(cp_vf_ctx *c)
{
    const cp_plan_totals *tt = &c->pf->totals;
    if (tt->has != CP_PLAN_SET)
        return;
    /* a missing part is a violation when the writer writes it for these
     * inputs, but for the ones the reader requires itself and those newer
     * than 1.1 plans (checked when present) */
    unsigned when = cp_cost_when(c->in) | (c->rp ? CP_COST_IF_REPLAN : 0u);
    for (int i = 0; i < CP_COST_N; i++) {
        bool required = cp_cost_part_shown(i, when) && !cp_cost_part_required(i) &&
                        !(cp_cost_part_info[i].flags & CP_COST_NEW);
        cp_vf_compare_num(c, &tt->part[i], tt->pos, cp_cost_part_info[i].key, "totals", required,
                          c->rep->sums.v[i]);
    }
}

/* Each `utilization` entry's per-slot demand; pw: T values of scratch. */
static void check_util(cp_vf_ctx *c, double *pw)
{
    const cp_plan_file *pf = c->pf;
    for (int i = 0; i < pf->n_util; i++) {
        const cp_plan_util *e = &pf->util[i];
        if (e->pool.has != CP_PLAN_SET)
            continue;
        const char *nm = e->pool.s;
        int p = cp_input_find_pool(c->in, nm);
        if (p < 0) {
            cp_vf_viol(c, e->pool.pos, "utilization %d: unknown pool '%s'", e->index + 1, nm);
            continue;
        }
        char who[400];
        snprintf(who, sizeof who, "utilization of '%s'", nm);
        int r = c->ms->res_of_pool[p];
        for (int d = 0; d < CP_DIMS; d++) {
            for (int t = 0; t < c->T; t++)
                pw[t] = cp_vf_load_at(c, r, t)[d];
            cp_vf_compare_series(c, &e->dim[d], cp_vf_dim_name[d], who, pw);
        }
    }
}

void cp_vf_check_costs(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    cp_costs *s = &c->rep->sums;
    int T = c->T;
    double h = c->h;
    memset(s, 0, sizeof *s);

    /* cloud, per market, with each provisioning entry's cost */
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        const cp_offer *o = &in->offers[res->index];
        double price = res->kind == CP_RES_SPOT ? o->spot_price_hour : o->price_hour;
        double cost = 0;
        for (int t = 0; t < T; t++)
            cost += (double)cp_vf_y_at(c, r, t) * price * h;
        s->cloud += cost;
        if (c->prov[r]) {
            char who[400];
            snprintf(who, sizeof who, "provisioning of '%s' (%s)", res->name,
                     cp_vf_market_name(res->kind));
            cp_vf_compare_num(c, &c->prov[r]->cost, c->prov[r]->pos, "cost", who, true, cost);
        }
    }

    /* sites: on-prem power, energy, carbon; offers with a site add carbon */
    double *pw = cp_calloc((size_t)T, sizeof *pw);
    double *site_kwh = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *site_kwh);
    double *site_kg = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *site_kg);
    const cp_plan_site **seen = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *seen);
    if (!pw || !site_kwh || !site_kg || !seen) {
        c->oom = true;
        goto out;
    }
    for (int si = 0; si < in->n_sites; si++) {
        const cp_site *st = &in->sites[si];
        for (int t = 0; t < T; t++) {
            double kwh = cp_vf_site_w(c, si, t) * h / 1000;
            site_kwh[si] += kwh;
            s->energy += kwh * cp_vf_series_or(&st->energy_price, t, 0);
            site_kg[si] += kwh * cp_vf_series_or(&st->carbon_intensity, t, 0) / 1000;
        }
    }
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        if (res->kind == CP_RES_POOL || res->site < 0)
            continue;
        const cp_site *st = &in->sites[res->site];
        for (int t = 0; t < T; t++) {
            double kwh = (double)cp_vf_y_at(c, r, t) * res->mach->power_w * st->pue * h / 1000;
            site_kg[res->site] += kwh * cp_vf_series_or(&st->carbon_intensity, t, 0) / 1000;
        }
    }
    for (int si = 0; si < in->n_sites; si++) {
        s->energy_kwh += site_kwh[si];
        s->carbon_kg += site_kg[si];
    }
    s->carbon = s->carbon_kg / 1000 * in->carbon_price_per_ton;
    for (int j = 0; j < in->n_jobs; j++)
        if (c->dropped_job[j])
            s->penalty += in->jobs[j].drop_penalty;
    s->changes = c->changes; /* capplan.5 §10.5, counted by verify_replan.c */
    /* capplan.5 §9.3: each scheduled job whose resource is not at its data */
    for (int i = 0; i < c->n_jobs; i++)
        if (c->jobs[i].counted && c->jobs[i].res >= 0)
            s->egress += cp_vf_job_egress(in, &in->jobs[c->jobs[i].job], c->ms->res[c->jobs[i].res].site);
    s->starts = c->svc_starts; /* capplan.5 §10.4 (verify_services.c) */
    s->unserved = c->svc_unserved;
    s->total = 0; /* the terms the list names, in its order */
    for (int i = 0; i < CP_COST_N; i++)
        if (cp_cost_part_info[i].flags & CP_COST_TERM)
            s->total += s->v[i];

    const cp_plan_file *pf = c->pf;
    for (int i = 0; i < pf->n_sites; i++) {
        const cp_plan_site *e = &pf->sites[i];
        if (e->name.has != CP_PLAN_SET) /* the reader's violation */
            continue;
        const char *nm = e->name.s;
        int si = cp_input_find_site(in, nm);
        if (si < 0) {
            cp_vf_viol(c, e->name.pos, "site %d: unknown site '%s'", e->index + 1, nm);
            continue;
        }
        if (seen[si]) {
            cp_vf_viol(c, e->name.pos, "site '%s' is listed twice (first at line %d)", nm,
                    seen[si]->pos.line);
            continue;
        }
        seen[si] = e;
        char who[400];
        snprintf(who, sizeof who, "site '%s'", nm);
        for (int t = 0; t < T; t++)
            pw[t] = cp_vf_site_w(c, si, t) / 1000;
        cp_vf_compare_series(c, &e->power_kw, "power_kw", who, pw);
        cp_vf_compare_num(c, &e->energy_kwh, e->pos, "energy_kwh", who, false, site_kwh[si]);
        cp_vf_compare_num(c, &e->carbon_kg, e->pos, "carbon_kg", who, false, site_kg[si]);
    }

    check_util(c, pw);
    check_job_costs(c);
    check_totals(c);
    c->rep->costed = true;
out:
    cp_free(pw);
    cp_free(site_kwh);
    cp_free(site_kg);
    cp_free(seen);
}
