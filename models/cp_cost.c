/* SPEC section 4 arithmetic shared by the planner and `check`. */
#include "cp_cost.h"

#include <limits.h>
#include <math.h>

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
    return (int)cp_series_at(r->kind == CP_RES_SPOT ? &o->spot_quota : &o->quota, t);
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
    double f = floor(x);
    return f >= INT_MAX ? INT_MAX : f <= INT_MIN ? INT_MIN : (int)f;
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
    return need > INT_MAX ? INT_MAX : (int)need;
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
