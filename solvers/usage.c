/* Incremental plan bookkeeping; see cp_usage.h. */
#include "cp_usage.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define EPS 1e-9

static int quota(const cp_usage *u, const cp_resource *r, int t);

int cp_usage_init(cp_usage *u, const cp_input *in, const cp_modeset *ms)
{
    return cp_usage_init_scaled(u, in, ms, 1.0);
}

int cp_usage_init_scaled(cp_usage *u, const cp_input *in, const cp_modeset *ms, double scale)
{
    memset(u, 0, sizeof *u);
    u->scale = scale;
    u->in = in;
    u->ms = ms;
    u->T = in->slots;
    size_t nr = (size_t)(ms->n_res ? ms->n_res : 1), ns = (size_t)(in->n_sites ? in->n_sites : 1);
    size_t T = (size_t)u->T;
    u->use = cp_calloc(nr * CP_DIMS * T, sizeof *u->use);
    u->y = cp_calloc(nr * T, sizeof *u->y);
    u->busy = cp_calloc(ns * T, sizeof *u->busy);
    u->allow = cp_calloc(ns * T, sizeof *u->allow);
    u->kwh_cost = cp_calloc(ns * T, sizeof *u->kwh_cost);
    u->slot_cost = cp_calloc(nr * T, sizeof *u->slot_cost);
    if (!u->use || !u->y || !u->busy || !u->allow || !u->kwh_cost || !u->slot_cost) {
        cp_usage_release(u);
        return CP_ERR_NOMEM;
    }
    double base_cost = 0;
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        for (int t = 0; t < u->T; t++) {
            double base = cp_site_baseline_w(in, s, t);
            u->kwh_cost[(size_t)s * T + t] = cp_site_kwh_cost(in, s, t);
            base_cost += st->pue * base * in->slot_hours / 1000 * u->kwh_cost[(size_t)s * T + t];
            u->allow[(size_t)s * T + t] =
                st->power_cap_kw.set
                    ? (1000 * cp_series_at(&st->power_cap_kw, t) / st->pue - base) * scale
                    : INFINITY;
        }
    }
    for (int r = 0; r < ms->n_res; r++)
        if (ms->res[r].kind != CP_RES_POOL)
            for (int t = 0; t < u->T; t++)
                u->slot_cost[(size_t)r * T + t] = cp_market_slot_cost(in, &ms->res[r], t);
    u->spend = base_cost;
    u->budget = in->has_budget ? base_cost + (in->budget - base_cost) * scale : INFINITY;
    return CP_OK;
}

void cp_usage_release(cp_usage *u)
{
    cp_free(u->use);
    cp_free(u->y);
    cp_free(u->busy);
    cp_free(u->allow);
    cp_free(u->kwh_cost);
    cp_free(u->slot_cost);
    memset(u, 0, sizeof *u);
}

bool cp_usage_baseline_infeasible(const cp_usage *u, char *why, size_t size)
{
    for (int s = 0; s < u->in->n_sites; s++)
        for (int t = 0; t < u->T; t++)
            if (u->allow[(size_t)s * u->T + t] < -EPS * (1 + fabs(u->allow[(size_t)s * u->T + t]))) {
                snprintf(why, size, "site '%s': the idle baseline alone exceeds its power cap in slot %d",
                         u->in->sites[s].name, t);
                return true;
            }
    if (u->spend > u->budget + EPS * (1 + u->budget)) {
        snprintf(why, size, "the budget (%g $) is below the plan-independent baseline energy cost (%g $)",
                 u->budget, u->spend);
        return true;
    }
    return false;
}

int cp_usage_quota(const cp_usage *u, int ri, int t)
{
    return quota(u, &u->ms->res[ri], t);
}

static int quota(const cp_usage *u, const cp_resource *r, int t)
{
    int q = cp_market_quota(u->in, r, t);
    return u->scale < 1 ? (int)floor(q * u->scale + 1e-9) : q;
}

double cp_usage_cap(const cp_usage *u, int ri, int d, int t)
{
    const cp_resource *r = &u->ms->res[ri];
    double units = r->kind == CP_RES_POOL ? cp_series_at(&u->in->pools[r->index].available, t) * u->scale
                                          : quota(u, r, t);
    return units * cp_machine_dim(r->mach, d);
}

bool cp_usage_start_fits(const cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        for (int d = 0; d < CP_DIMS; d++) {
            double cap = cp_usage_cap(u, m->res, d, t);
            if (m->demand[d] > cap + EPS * (1 + cap))
                return false;
        }
        if (r->kind == CP_RES_POOL) {
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            double allow = u->allow[(size_t)r->site * u->T + t];
            if (m->busy_w * frac > allow + EPS * (1 + fabs(allow)))
                return false;
        }
    }
    return true;
}

static double *use_at(const cp_usage *u, int r, int d)
{
    return &u->use[((size_t)r * CP_DIMS + d) * u->T];
}

bool cp_usage_try_why(const cp_usage *u, int mi, int s, double *delta, char *why, size_t size)
{
    const cp_input *in = u->in;
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    double cost = 0;
    int T = u->T;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        if (r->kind == CP_RES_POOL) {
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_usage_cap(u, m->res, d, t);
                double nu = use_at(u, m->res, d)[t] + m->demand[d];
                if (nu > cap + EPS * (1 + cap)) {
                    if (why)
                        snprintf(why, size, "pool '%s' is full in slot %d", r->name, t);
                    return false;
                }
            }
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            double w = m->busy_w * frac;
            size_t k = (size_t)r->site * T + t;
            if (w > 0 && u->busy[k] + w > u->allow[k] + EPS * (1 + fabs(u->allow[k]))) {
                if (why)
                    snprintf(why, size, "site '%s' is at its power cap in slot %d",
                             in->sites[r->site].name, t);
                return false;
            }
            cost += in->sites[r->site].pue * w * in->slot_hours / 1000 * u->kwh_cost[k];
        } else {
            double need[CP_DIMS];
            for (int d = 0; d < CP_DIMS; d++)
                need[d] = use_at(u, m->res, d)[t] + m->demand[d];
            int ny = cp_units_needed(need, r->mach);
            int y = u->y[(size_t)m->res * T + t];
            if (ny > quota(u, r, t)) {
                if (why)
                    snprintf(why, size, "market '%s' reaches its quota in slot %d", r->id, t);
                return false;
            }
            cost += (ny - y) * u->slot_cost[(size_t)m->res * T + t];
        }
    }
    if (u->spend + cost > u->budget + EPS * (1 + u->budget)) {
        if (why)
            snprintf(why, size, "the budget is spent");
        return false;
    }
    *delta = cost;
    return true;
}

bool cp_usage_try(const cp_usage *u, int m, int s, double *delta)
{
    return cp_usage_try_why(u, m, s, delta, NULL, 0);
}

static void apply(cp_usage *u, int mi, int s, double sign)
{
    const cp_input *in = u->in;
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    int T = u->T;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        double need[CP_DIMS];
        for (int d = 0; d < CP_DIMS; d++) {
            double *p = &use_at(u, m->res, d)[t];
            *p += sign * m->demand[d];
            if (*p < 1e-9)
                *p = 0; /* keep removals from leaving dust */
            need[d] = *p;
        }
        if (r->kind == CP_RES_POOL) {
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            size_t k = (size_t)r->site * T + t;
            double w = sign * m->busy_w * frac;
            u->busy[k] += w;
            u->spend += in->sites[r->site].pue * w * in->slot_hours / 1000 * u->kwh_cost[k];
        } else {
            int *y = &u->y[(size_t)m->res * T + t];
            int ny = cp_units_needed(need, r->mach);
            u->spend += (ny - *y) * u->slot_cost[(size_t)m->res * T + t];
            *y = ny;
        }
    }
}

void cp_usage_add(cp_usage *u, int m, int s)
{
    apply(u, m, s, 1.0);
}

void cp_usage_remove(cp_usage *u, int m, int s)
{
    apply(u, m, s, -1.0);
}

/* Priced capacity and power of mode m started at s. */
static double opportunity(const cp_usage *u, const cp_prices *pr, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    if (r->kind != CP_RES_POOL)
        return 0;
    double v = 0;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        for (int d = 0; d < CP_DIMS; d++)
            v += pr->cap[((size_t)m->res * CP_DIMS + d) * u->T + t] * m->demand[d];
        if (pr->power) {
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            v += pr->power[(size_t)r->site * u->T + t] * m->busy_w * frac;
        }
    }
    return v;
}

bool cp_usage_best_priced(const cp_usage *u, int j, const cp_prices *pr, int *mode, int *start,
                          double *delta)
{
    bool found = false;
    double best = INFINITY;
    for (int mi = u->ms->job_first[j]; mi < u->ms->job_first[j + 1]; mi++) {
        const cp_mode *m = &u->ms->modes[mi];
        for (int s = m->s_min; s <= m->s_max; s++) {
            double c;
            if (!cp_usage_try(u, mi, s, &c))
                continue;
            double score = c + opportunity(u, pr, mi, s);
            if (score < best - 1e-12) {
                best = score;
                *mode = mi;
                *start = s;
                *delta = c;
                found = true;
            }
        }
    }
    return found;
}

bool cp_usage_best(const cp_usage *u, int j, int *mode, int *start, double *delta)
{
    bool found = false;
    double best = INFINITY;
    for (int mi = u->ms->job_first[j]; mi < u->ms->job_first[j + 1]; mi++) {
        const cp_mode *m = &u->ms->modes[mi];
        for (int s = m->s_min; s <= m->s_max; s++) {
            double c;
            /* strict: ties keep the earlier (mode, start), deterministically */
            if (cp_usage_try(u, mi, s, &c) && c < best - 1e-12) {
                best = c;
                *mode = mi;
                *start = s;
                found = true;
            }
        }
    }
    if (found)
        *delta = best;
    return found;
}
