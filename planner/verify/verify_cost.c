/*
 * The plan verifier, re-costing (SPEC 4; see verify_internal.h): cloud
 * cost per market, facility power, energy and carbon per site, penalties,
 * and the comparison of every such number the plan states (totals,
 * provisioning costs, sites, utilization) with the re-costed one.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

void vf_check_costs(vf_ctx *c)
{
    const cp_input *in = c->in;
    cp_verify_totals *s = &c->rep->sums;
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
            cost += (double)vf_y_at(c, r, t) * price * h;
        s->cloud += cost;
        if (c->prov[r]) {
            char who[400];
            snprintf(who, sizeof who, "provisioning of '%s' (%s)", res->name,
                     vf_market_name(res->kind));
            vf_compare_field(c, c->prov[r], "cost", who, true, cost);
        }
    }

    /* sites: on-prem power, energy, carbon; offers with a site add carbon */
    double *pw = cp_calloc((size_t)T, sizeof *pw);
    double *site_kwh = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *site_kwh);
    double *site_kg = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *site_kg);
    const cp_node **seen = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof *seen);
    if (!pw || !site_kwh || !site_kg || !seen) {
        c->oom = true;
        goto out;
    }
    for (int si = 0; si < in->n_sites; si++) {
        const cp_site *st = &in->sites[si];
        for (int t = 0; t < T; t++) {
            double kwh = vf_site_w(c, si, t) * h / 1000;
            site_kwh[si] += kwh;
            s->energy += kwh * vf_series_or(&st->energy_price, t, 0);
            site_kg[si] += kwh * vf_series_or(&st->carbon_intensity, t, 0) / 1000;
        }
    }
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        if (res->kind == CP_RES_POOL || res->site < 0)
            continue;
        const cp_site *st = &in->sites[res->site];
        for (int t = 0; t < T; t++) {
            double kwh = (double)vf_y_at(c, r, t) * res->mach->power_w * st->pue * h / 1000;
            site_kg[res->site] += kwh * vf_series_or(&st->carbon_intensity, t, 0) / 1000;
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
    s->total = s->cloud + s->energy + s->carbon + s->penalty;

    const cp_node *sl = vf_get(c->root, "sites");
    for (size_t i = 0; sl && sl->kind == CP_NODE_SEQ && i < sl->n; i++) {
        const cp_node *e = sl->kids[i];
        char who[400];
        snprintf(who, sizeof who, "sites[%zu]", i);
        if (!vf_entry_is_map(c, e, who))
            continue;
        const cp_node *nn;
        const char *nm = vf_str_field(c, e, "name", who, true, &nn);
        if (!nm)
            continue;
        int si = cp_input_find_site(in, nm);
        if (si < 0) {
            vf_viol(c, nn, "%s: unknown site '%s'", who, nm);
            continue;
        }
        if (seen[si]) {
            vf_viol(c, nn, "site '%s' is listed twice (first at line %d)", nm, seen[si]->pos.line);
            continue;
        }
        seen[si] = e;
        snprintf(who, sizeof who, "site '%s'", nm);
        for (int t = 0; t < T; t++)
            pw[t] = vf_site_w(c, si, t) / 1000;
        vf_compare_series(c, e, "power_kw", who, pw);
        vf_compare_field(c, e, "energy_kwh", who, false, site_kwh[si]);
        vf_compare_field(c, e, "carbon_kg", who, false, site_kg[si]);
    }

    const cp_node *ul = vf_get(c->root, "utilization");
    for (size_t i = 0; ul && ul->kind == CP_NODE_SEQ && i < ul->n; i++) {
        const cp_node *e = ul->kids[i];
        char who[400];
        snprintf(who, sizeof who, "utilization[%zu]", i);
        if (!vf_entry_is_map(c, e, who))
            continue;
        const cp_node *pn;
        const char *nm = vf_str_field(c, e, "pool", who, true, &pn);
        if (!nm)
            continue;
        int p = cp_input_find_pool(in, nm);
        if (p < 0) {
            vf_viol(c, pn, "%s: unknown pool '%s'", who, nm);
            continue;
        }
        snprintf(who, sizeof who, "utilization of '%s'", nm);
        int r = c->ms->res_of_pool[p];
        for (int d = 0; d < CP_DIMS; d++) {
            for (int t = 0; t < T; t++)
                pw[t] = vf_load_at(c, r, t)[d];
            vf_compare_series(c, e, vf_dim_name[d], who, pw);
        }
    }

    const cp_node *tn = vf_get(c->root, "totals");
    if (tn && tn->kind == CP_NODE_MAP) {
        vf_compare_field(c, tn, "total", "totals", true, s->total);
        vf_compare_field(c, tn, "cloud", "totals", true, s->cloud);
        vf_compare_field(c, tn, "energy", "totals", true, s->energy);
        vf_compare_field(c, tn, "carbon", "totals", true, s->carbon);
        vf_compare_field(c, tn, "penalty", "totals", true, s->penalty);
        vf_compare_field(c, tn, "energy_kwh", "totals", true, s->energy_kwh);
        vf_compare_field(c, tn, "carbon_kg", "totals", true, s->carbon_kg);
    }
    c->rep->costed = true;
out:
    cp_free(pw);
    cp_free(site_kwh);
    cp_free(site_kg);
    cp_free(seen);
}
