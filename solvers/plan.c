/* Plan storage, capplan.5 §4 evaluation and capplan.5 §3 feasibility; see cp_plan.h. */
#include "cp_plan.h"
#include "cp_teams.h"
#include "cp_replan.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *cp_plan_status_name(cp_plan_status s)
{
    switch (s) {
    case CP_STATUS_OPTIMAL:
        return "optimal";
    case CP_STATUS_FEASIBLE:
        return "feasible";
    case CP_STATUS_INFEASIBLE:
        return "infeasible";
    case CP_STATUS_INTERRUPTED:
        return "interrupted";
    case CP_STATUS_NOPLAN:
        return "no plan";
    }
    return "?";
}

int cp_plan_new(const cp_input *in, const cp_modeset *ms, cp_plan **out)
{
    cp_plan *p = cp_calloc(1, sizeof *p);
    if (!p)
        return CP_ERR_NOMEM;
    p->in = in;
    p->ms = ms;
    p->n_jobs = in->n_jobs;
    p->n_res = ms->n_res;
    p->slots = in->slots;
    size_t nj = (size_t)(p->n_jobs ? p->n_jobs : 1);
    p->mode = cp_calloc(nj, sizeof *p->mode);
    p->start = cp_calloc(nj, sizeof *p->start);
    p->reason = cp_calloc(nj, sizeof *p->reason);
    p->units = cp_calloc(nj, sizeof *p->units);
    p->n_units = cp_calloc(nj, sizeof *p->n_units);
    p->y = cp_calloc((size_t)(p->n_res ? p->n_res : 1) * (size_t)p->slots, sizeof *p->y);
    p->svc_n = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1) * (size_t)p->slots, sizeof *p->svc_n);
    p->svc_f = cp_calloc((size_t)(ms->n_shares ? ms->n_shares : 1) * (size_t)p->slots, sizeof *p->svc_f);
    p->svc_u = cp_calloc((size_t)(ms->n_classes ? ms->n_classes : 1) * (size_t)p->slots, sizeof *p->svc_u);
    if (!p->mode || !p->start || !p->reason || !p->units || !p->n_units || !p->y || !p->svc_n ||
        !p->svc_f || !p->svc_u) {
        cp_plan_free(p);
        return CP_ERR_NOMEM;
    }
    for (int j = 0; j < p->n_jobs; j++)
        p->mode[j] = -1;
    p->bound = NAN;
    p->gap = NAN;
    p->status = CP_STATUS_FEASIBLE;
    snprintf(p->method, sizeof p->method, "none");
    *out = p;
    return CP_OK;
}

void cp_plan_free(cp_plan *p)
{
    if (!p)
        return;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->reason)
            cp_free(p->reason[j]);
        if (p->units)
            cp_free(p->units[j]);
    }
    cp_free(p->reason);
    cp_free(p->units);
    cp_free(p->n_units);
    cp_free(p->mode);
    cp_free(p->start);
    cp_free(p->y);
    cp_free(p->svc_n);
    cp_free(p->svc_f);
    cp_free(p->svc_u);
    cp_free(p->svc_unit);
    cp_free(p->svc_unit_off);
    cp_free(p->note);
    cp_free(p);
}

void cp_plan_copy_choices(cp_plan *dst, const cp_plan *src)
{
    memcpy(dst->mode, src->mode, (size_t)src->n_jobs * sizeof *dst->mode);
    memcpy(dst->start, src->start, (size_t)src->n_jobs * sizeof *dst->start);
    memcpy(dst->y, src->y, (size_t)src->n_res * (size_t)src->slots * sizeof *dst->y);
    const cp_modeset *ms = src->ms;
    size_t T = (size_t)src->slots;
    memcpy(dst->svc_n, src->svc_n, (size_t)ms->n_deps * T * sizeof *dst->svc_n);
    memcpy(dst->svc_f, src->svc_f, (size_t)ms->n_shares * T * sizeof *dst->svc_f);
    memcpy(dst->svc_u, src->svc_u, (size_t)ms->n_classes * T * sizeof *dst->svc_u);
    dst->pool_units = false; /* the units, if any, are not these choices' */
    dst->placed = false;
}

int cp_plan_copy(cp_plan *dst, const cp_plan *src)
{
    cp_plan_copy_choices(dst, src);
    return cp_plan_copy_units(dst, src);
}

int cp_plan_copy_units(cp_plan *dst, const cp_plan *src)
{
    cp_free(dst->svc_unit);
    cp_free(dst->svc_unit_off);
    dst->svc_unit = NULL;
    dst->svc_unit_off = NULL;
    if (src->svc_unit) {
        size_t cells = (size_t)src->ms->n_deps * (size_t)src->slots;
        size_t n = src->svc_unit_off[cells];
        dst->svc_unit_off = cp_calloc(cells + 1, sizeof *dst->svc_unit_off);
        dst->svc_unit = cp_calloc(n ? n : 1, sizeof *dst->svc_unit);
        if (!dst->svc_unit_off || !dst->svc_unit)
            return CP_ERR_NOMEM;
        memcpy(dst->svc_unit_off, src->svc_unit_off, (cells + 1) * sizeof *dst->svc_unit_off);
        memcpy(dst->svc_unit, src->svc_unit, n * sizeof *dst->svc_unit);
    }
    for (int j = 0; j < src->n_jobs; j++) {
        int *u = NULL;
        if (src->n_units[j]) {
            u = cp_calloc((size_t)src->n_units[j], sizeof *u);
            if (!u)
                return CP_ERR_NOMEM;
            memcpy(u, src->units[j], (size_t)src->n_units[j] * sizeof *u);
        }
        cp_free(dst->units[j]);
        dst->units[j] = u;
        dst->n_units[j] = src->n_units[j];
    }
    dst->pool_units = src->pool_units;
    return CP_OK;
}

/* Demand of the scheduled jobs per resource, dimension and slot. */
static double *resource_use(const cp_plan *p)
{
    double *use = cp_calloc((size_t)(p->n_res ? p->n_res : 1) * CP_DIMS * (size_t)p->slots,
                            sizeof *use);
    if (!use)
        return NULL;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        const cp_mode *m = &p->ms->modes[p->mode[j]];
        for (int t = p->start[j]; t < p->start[j] + m->slots && t < p->slots; t++)
            for (int d = 0; d < CP_DIMS; d++)
                use[((size_t)m->res * CP_DIMS + d) * p->slots + t] += m->demand[d];
    }
    /* capplan.5 §10.4: replicas take their units alongside jobs */
    for (int dp = 0; dp < p->ms->n_deps; dp++) {
        const cp_deploy *dep = &p->ms->deps[dp];
        for (int t = 0; t < p->slots; t++)
            for (int d = 0; d < CP_DIMS; d++)
                use[((size_t)dep->res * CP_DIMS + d) * p->slots + t] += *cp_plan_n(p, dp, t) * dep->demand[d];
    }
    return use;
}

void cp_plan_min_instances(cp_plan *p)
{
    double *use = resource_use(p);
    if (!use)
        return; /* keeps the current y, which the caller made feasible */
    for (int r = 0; r < p->n_res; r++) {
        const cp_resource *res = &p->ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        for (int t = 0; t < p->slots; t++) {
            double need[CP_DIMS];
            for (int d = 0; d < CP_DIMS; d++)
                need[d] = use[((size_t)r * CP_DIMS + d) * p->slots + t];
            int u = cp_units_needed(need, res->mach);
            *cp_plan_y(p, r, t) = u;
        }
    }
    cp_free(use);
    cp_plan_keep_history(p);
}

void cp_plan_keep_history(cp_plan *p)
{
    const cp_replan *rp = p->ms->replan;
    if (!rp)
        return;
    for (int r = 0; r < p->n_res; r++)
        if (p->ms->res[r].kind != CP_RES_POOL)
            for (int t = 0; t < rp->now; t++)
                *cp_plan_y(p, r, t) = rp->y_hist[(size_t)r * rp->now + t];
    /* the services' n, f and u there are OLD's too (capplan.5 §10.5) */
    size_t T = (size_t)p->slots, S = (size_t)rp->now;
    for (int d = 0; d < p->ms->n_deps && d < rp->n_deps; d++)
        memcpy(&p->svc_n[d * T], &rp->svc_n[d * T], S * sizeof *p->svc_n);
    for (int i = 0; i < p->ms->n_shares && i < rp->n_shares; i++)
        memcpy(&p->svc_f[i * T], &rp->svc_f[i * T], S * sizeof *p->svc_f);
    for (int i = 0; i < p->ms->n_classes && i < rp->n_classes; i++)
        memcpy(&p->svc_u[i * T], &rp->svc_u[i * T], S * sizeof *p->svc_u);
}

void cp_plan_choice(const cp_plan *p, int j, cp_replan_choice *c)
{
    memset(c, 0, sizeof *c);
    c->res = -1;
    if (p->mode[j] < 0)
        return;
    const cp_mode *m = &p->ms->modes[p->mode[j]];
    *c = (cp_replan_choice){m->res, m->count, m->shape, m->limit, p->start[j], m->slots};
}

unsigned cp_plan_cost_when(const cp_plan *p)
{
    return cp_cost_when(p->in) | (p->ms->replan ? CP_COST_IF_REPLAN : 0u);
}

int cp_plan_changed(const cp_plan *p)
{
    const cp_replan *rp = p->ms->replan;
    int n = 0;
    for (int j = 0; rp && j < p->n_jobs; j++) {
        cp_replan_choice c;
        cp_plan_choice(p, j, &c);
        n += cp_replan_is_change(rp, j, &c);
    }
    return n;
}

void cp_plan_figures_release(cp_plan_figures *f)
{
    cp_free(f->job_energy_kwh);
    cp_free(f->job_cost);
    cp_free(f->market_cost);
    cp_free(f->util);
    cp_free(f->site_power_kw);
    cp_free(f->site_energy_kwh);
    cp_free(f->site_carbon_kg);
    cp_free(f->team_cost);
    cp_free(f->team_acc_hours);
    cp_free(f->svc_cost);
    cp_free(f->svc_unserved);
    memset(f, 0, sizeof *f);
}

int cp_plan_eval(const cp_plan *p, cp_plan_figures *f, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int T = p->slots;
    double h = in->slot_hours;
    memset(f, 0, sizeof *f);
    f->job_energy_kwh = cp_calloc((size_t)(p->n_jobs ? p->n_jobs : 1), sizeof(double));
    f->job_cost = cp_calloc((size_t)(p->n_jobs ? p->n_jobs : 1), sizeof(double));
    f->market_cost = cp_calloc((size_t)(p->n_res ? p->n_res : 1), sizeof(double));
    f->util = cp_calloc((size_t)(in->n_pools ? in->n_pools : 1) * CP_DIMS * T, sizeof(double));
    f->site_power_kw = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1) * T, sizeof(double));
    f->site_energy_kwh = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof(double));
    f->site_carbon_kg = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1), sizeof(double));
    f->team_cost = cp_calloc((size_t)(in->n_teams ? in->n_teams : 1), sizeof(double));
    f->team_acc_hours = cp_calloc((size_t)(in->n_teams ? in->n_teams : 1), sizeof(double));
    f->svc_cost = cp_calloc((size_t)(in->n_services ? in->n_services : 1), sizeof(double));
    f->svc_unserved = cp_calloc((size_t)(in->n_services ? in->n_services : 1), sizeof(double));
    if (!f->job_energy_kwh || !f->job_cost || !f->market_cost || !f->util || !f->site_power_kw ||
        !f->site_energy_kwh || !f->site_carbon_kg || !f->team_cost || !f->team_acc_hours ||
        !f->svc_cost || !f->svc_unserved) {
        cp_plan_figures_release(f);
        return cp_err_nomem(err);
    }
    double attributed = 0; /* the jobs' costs */
    /* busy W (times busy fraction) per site and slot; kept in site_power_kw
     * until the baseline is added below */
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0) {
            f->costs.penalty += in->jobs[j].drop_penalty;
            continue;
        }
        const cp_mode *m = &ms->modes[p->mode[j]];
        const cp_resource *r = &ms->res[m->res];
        f->costs.egress += m->egress;
        f->job_cost[j] = cp_mode_attributed_cost(in, ms, m, p->start[j]);
        attributed += f->job_cost[j];
        int k = in->jobs[j].team;
        if (k >= 0) {
            f->team_cost[k] += f->job_cost[j];
            f->team_acc_hours[k] += m->demand[CP_DIM_ACC] * m->hours;
        }
        for (int i = 0; i < m->slots; i++) {
            int t = p->start[j] + i;
            if (r->kind == CP_RES_POOL) {
                double frac = i == m->slots - 1 ? m->last_frac : 1.0;
                f->site_power_kw[(size_t)r->site * T + t] += m->busy_w * frac;
                f->job_energy_kwh[j] += in->sites[r->site].pue * m->busy_w * frac * h / 1000;
                for (int d = 0; d < CP_DIMS; d++)
                    f->util[((size_t)r->index * CP_DIMS + d) * T + t] += m->demand[d];
            }
        }
    }
    attributed += cp_plan_svc_eval(p, f);
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        for (int t = 0; t < T; t++) {
            double w = st->pue * (cp_site_baseline_w(in, s, t) + f->site_power_kw[(size_t)s * T + t]);
            double kwh = w * h / 1000;
            double kg = kwh * cp_series_at(&st->carbon_intensity, t) / 1000;
            f->site_power_kw[(size_t)s * T + t] = w / 1000;
            f->site_energy_kwh[s] += kwh;
            f->site_carbon_kg[s] += kg;
            f->costs.energy_kwh += kwh;
            f->costs.carbon_kg += kg;
            f->costs.energy += kwh * cp_series_at(&st->energy_price, t);
        }
    }
    for (int r = 0; r < p->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        double price = cp_market_price(in, res);
        for (int t = 0; t < T; t++) {
            int y = *cp_plan_y(p, r, t);
            if (!y)
                continue;
            f->market_cost[r] += y * price * h;
            double kg = y * cp_market_slot_carbon_kg(in, res, t);
            if (res->site >= 0)
                f->site_carbon_kg[res->site] += kg;
            f->costs.carbon_kg += kg;
        }
        f->costs.cloud += f->market_cost[r];
    }
    f->costs.carbon = f->costs.carbon_kg / 1000 * in->carbon_price_per_ton;
    if (ms->replan) /* capplan.5 §10.5 */
        f->costs.changes = ms->replan->change_penalty * cp_plan_changed(p);
    cp_costs_sum(&f->costs, attributed);
    return CP_OK;
}

bool cp_plan_is_feasible(const cp_plan *p, char *why, size_t why_size)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int T = p->slots;
    const double eps = 1e-9;
    char dummy[8];
    if (!why) {
        why = dummy;
        why_size = sizeof dummy;
    }
    double *use = resource_use(p);
    if (!use) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    bool ok = true;
    for (int r = 0; r < p->n_res && ok; r++) {
        const cp_resource *res = &ms->res[r];
        for (int t = 0; t < T && ok; t++) {
            double units;
            if (res->kind == CP_RES_POOL) {
                units = cp_series_at(&in->pools[res->index].available, t);
            } else {
                units = *cp_plan_y(p, r, t);
                if (units > cp_market_quota(in, res, t)) {
                    snprintf(why, why_size, "market %s: %g instances in slot %d exceed the quota",
                             res->id, units, t);
                    ok = false;
                    break;
                }
            }
            for (int d = 0; d < CP_DIMS; d++) {
                double u = use[((size_t)r * CP_DIMS + d) * T + t];
                double cap = units * cp_machine_dim(res->mach, d);
                if (u > cap + eps * (1 + cap)) {
                    snprintf(why, why_size, "%s: demand %g exceeds capacity %g in slot %d", res->id,
                             u, cap, t);
                    ok = false;
                    break;
                }
            }
        }
    }
    cp_free(use);
    if (!ok)
        return false;
    cp_plan_figures f;
    if (cp_plan_eval(p, &f, NULL)) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    for (int s = 0; s < in->n_sites && ok; s++) {
        const cp_site *st = &in->sites[s];
        if (!st->power_cap_kw.set)
            continue;
        for (int t = 0; t < T; t++) {
            double cap = cp_series_at(&st->power_cap_kw, t);
            if (f.site_power_kw[(size_t)s * T + t] > cap + eps * (1 + cap)) {
                snprintf(why, why_size, "site %s: %g kW exceeds its cap %g kW in slot %d", st->name,
                         f.site_power_kw[(size_t)s * T + t], cap, t);
                ok = false;
                break;
            }
        }
    }
    if (ok && in->has_budget) {
        double spend = cp_costs_budget(&f.costs);
        if (spend > in->budget + eps * (1 + in->budget)) {
            snprintf(why, why_size, "spend %g exceeds the budget %g", spend, in->budget);
            ok = false;
        }
    }
    cp_plan_figures_release(&f);
    return ok && cp_plan_services_ok(p, why, why_size) && cp_plan_teams_ok(p, why, why_size);
}
