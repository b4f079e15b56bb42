/* capplan.5 §4 arithmetic shared by the planner and `check`. */
#include "cp_cost.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double cp_machine_dim(const cp_machine *m, int dim)
{
    switch (dim) {
    case CP_DIM_ACC:
        return m->accelerators;
    case CP_DIM_CPU:
        return m->cpus;
    default:
        return m->memory_gb;
    }
}

double cp_site_baseline_w(const cp_input *in, int site, int t)
{
    double w = 0;
    for (int p = 0; p < in->n_pools; p++) {
        const cp_pool *pl = &in->pools[p];
        if (pl->site != site)
            continue;
        double acc_idle = pl->node.acc >= 0 ? in->accels[pl->node.acc].idle_power_w : 0;
        w += cp_series_at(&pl->available, t) *
             (pl->node.idle_power_w + pl->node.accelerators * acc_idle);
    }
    return w;
}

double cp_site_kwh_cost(const cp_input *in, int site, int t)
{
    const cp_site *s = &in->sites[site];
    return cp_series_at(&s->energy_price, t) +
           cp_series_at(&s->carbon_intensity, t) / 1e6 * in->carbon_price_per_ton;
}

/* One contradiction: into d and, when it is the first, into `first`. */
static void contradiction(cp_diags *d, char *first, size_t first_size, int found, cp_pos pos,
                          const char *msg)
{
    if (d)
        cp_diags_add(d, CP_ERR_INPUT, pos, "%s", msg);
    if (first && first_size && found == 0)
        snprintf(first, first_size, "%s", msg);
}

int cp_input_contradictions(const cp_input *in, cp_diags *d, char *first, size_t first_size)
{
    int found = 0;
    char msg[400];
    double base_cost = 0;
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        int n_over = 0, t_first = -1, t_last = -1;
        double base_kw = 0, cap_kw = 0;
        for (int t = 0; t < in->slots; t++) {
            double base_w = cp_site_baseline_w(in, s, t);
            base_cost += st->pue * base_w * in->slot_hours / 1000 * cp_site_kwh_cost(in, s, t);
            if (!st->power_cap_kw.set)
                continue;
            /* the solvers' test (W before PUE, 1e-9 relative), so check,
             * plan and the search agree on every input */
            double allow = 1000 * cp_series_at(&st->power_cap_kw, t) / st->pue - base_w;
            if (!(allow < -1e-9 * (1 + fabs(allow))))
                continue;
            if (n_over++ == 0) {
                t_first = t;
                base_kw = st->pue * base_w / 1000;
                cap_kw = cp_series_at(&st->power_cap_kw, t);
            }
            t_last = t;
        }
        if (n_over == 0)
            continue;
        int len = snprintf(msg, sizeof msg,
                           "site '%s': its idle baseline alone (%g kW after PUE %g) exceeds its "
                           "power_cap_kw (%g kW) in slot %d",
                           st->name, base_kw, st->pue, cap_kw, t_first);
        if (n_over > 1 && len > 0 && (size_t)len < sizeof msg)
            snprintf(msg + len, sizeof msg - (size_t)len, " and %d more slot%s up to slot %d",
                     n_over - 1, n_over == 2 ? "" : "s", t_last);
        len = (int)strlen(msg);
        snprintf(msg + len, sizeof msg - (size_t)len, ": no plan can meet the cap");
        contradiction(d, first, first_size, found++, st->power_cap_kw.pos, msg);
    }
    if (in->has_budget && base_cost > in->budget + 1e-9 * (1 + in->budget)) {
        snprintf(msg, sizeof msg,
                 "objective: the budget (%g $) is below the idle baseline's energy and carbon "
                 "cost (%g $), which every plan pays: no plan can meet the budget",
                 in->budget, base_cost);
        contradiction(d, first, first_size, found++, in->budget_pos, msg);
    }
    return found;
}

void cp_pool_run_cost(const cp_input *in, const cp_modeset *ms, const cp_mode *m, int s,
                      cp_run_cost *out)
{
    const cp_resource *r = &ms->res[m->res];
    const cp_site *site = &in->sites[r->site];
    out->energy_cost = out->carbon_cost = out->kwh = out->carbon_kg = 0;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        double frac = i == m->slots - 1 ? m->last_frac : 1.0;
        double kwh = site->pue * m->busy_w * frac * in->slot_hours / 1000;
        double kg = kwh * cp_series_at(&site->carbon_intensity, t) / 1000;
        out->kwh += kwh;
        out->carbon_kg += kg;
        out->energy_cost += kwh * cp_series_at(&site->energy_price, t);
        out->carbon_cost += kg / 1000 * in->carbon_price_per_ton;
    }
}

double cp_market_price(const cp_input *in, const cp_resource *r)
{
    const cp_offer *o = &in->offers[r->index];
    return r->kind == CP_RES_SPOT ? o->spot_price_hour : o->price_hour;
}

int cp_market_quota(const cp_input *in, const cp_resource *r, int t)
{
    const cp_offer *o = &in->offers[r->index];
    return cp_num_clamp_int(cp_series_at(r->kind == CP_RES_SPOT ? &o->spot_quota : &o->quota, t), 0,
                            INT_MAX);
}

double cp_market_slot_carbon_kg(const cp_input *in, const cp_resource *r, int t)
{
    const cp_offer *o = &in->offers[r->index];
    if (o->site < 0)
        return 0;
    const cp_site *s = &in->sites[o->site];
    double kwh = o->inst.power_w * s->pue * in->slot_hours / 1000;
    return kwh * cp_series_at(&s->carbon_intensity, t) / 1000;
}

double cp_market_slot_cost(const cp_input *in, const cp_resource *r, int t)
{
    return cp_market_price(in, r) * in->slot_hours +
           cp_market_slot_carbon_kg(in, r, t) / 1000 * in->carbon_price_per_ton;
}

int cp_floor_int(double x)
{
    return cp_num_clamp_int(floor(x), INT_MIN, INT_MAX);
}

int cp_units_needed(const double demand[3], const cp_machine *m)
{
    double need = 0;
    for (int d = 0; d < CP_DIMS; d++) {
        if (demand[d] <= 0)
            continue;
        double cap = cp_machine_dim(m, d);
        if (cap <= 0)
            return INT_MAX;
        double u = ceil(demand[d] / cap - 1e-9);
        if (u > need)
            need = u;
    }
    return cp_num_clamp_int(need, 0, INT_MAX);
}

double cp_instance_share(const double demand[3], const cp_machine *m)
{
    double share = 0;
    for (int d = 0; d < CP_DIMS; d++) {
        double cap = cp_machine_dim(m, d);
        if (cap > 0 && demand[d] / cap > share)
            share = demand[d] / cap;
    }
    return share;
}

double cp_mode_cost_slot0(const cp_input *in, const cp_modeset *ms, const cp_mode *m)
{
    const cp_resource *r = &ms->res[m->res];
    if (r->kind == CP_RES_POOL) {
        const cp_site *s = &in->sites[r->site];
        double kwh = s->pue * m->busy_w * m->hours / 1000;
        return kwh * cp_site_kwh_cost(in, r->site, 0) + m->egress;
    }
    int u = cp_units_needed(m->demand, r->mach);
    return (double)u * m->slots * cp_market_slot_cost(in, r, 0) + m->egress;
}

double cp_mode_attributed_cost(const cp_input *in, const cp_modeset *ms, const cp_mode *m, int s)
{
    const cp_resource *r = &ms->res[m->res];
    if (r->kind == CP_RES_POOL) {
        cp_run_cost rc;
        cp_pool_run_cost(in, ms, m, s, &rc);
        return rc.energy_cost + rc.carbon_cost + m->egress;
    }
    /* markets bill whole slots: the last one too, whatever its busy part */
    double share = cp_instance_share(m->demand, r->mach), cost = 0;
    for (int t = s; t < s + m->slots; t++)
        cost += share * cp_market_slot_cost(in, r, t);
    return cost + m->egress;
}
