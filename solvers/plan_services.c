/*
 * The services of a plan (capplan.5 §10.4): their figures for
 * cp_plan_eval (busy power, utilization, starts, unserved requests, each
 * service's cost by capplan.5 §10.1) and their rows for
 * cp_plan_is_feasible (shares, capacity, min_replicas). The choices are
 * the plan's svc_n, svc_f and svc_u (cp_plan.h); every figure comes from
 * them, as every job figure comes from its mode and start.
 */
#include "cp_plan.h"

#include "cp_buf.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>

/* Relative tolerance of the service rows (capplan.5 §10.4: 1e-6). */
#define SVC_TOL 1e-6

/* The load deployment d takes in slot t, in replicas at full rate:
 * Σ_k λ_k(t) · f(k,d,t) / μ_{k,c}. */
static double dep_load(const cp_plan *p, int d, int t)
{
    const cp_deploy *dep = &p->ms->deps[d];
    const cp_service *sv = &p->in->services[dep->svc];
    const double *rate = sv->configs[dep->config].rate;
    double x = 0;
    for (int k = 0; k < sv->n_classes; k++)
        if (rate[k] > 0)
            x += cp_svc_load(p->in, dep->svc, k, t) * *cp_plan_f(p, d, k, t) / rate[k];
    return x;
}

double cp_plan_dep_busy_w(const cp_plan *p, int d, int t)
{
    return p->ms->deps[d].busy_w * dep_load(p, d, t);
}

/* What deployment d costs its service in slot t (capplan.5 §10.1): on a
 * pool the energy and carbon of its busy power; on a market each
 * replica's share of one instance at the slot's price, with the carbon
 * of that share for an offer with a site. */
static double dep_slot_cost(const cp_plan *p, int d, int t)
{
    const cp_input *in = p->in;
    const cp_deploy *dep = &p->ms->deps[d];
    const cp_resource *r = &p->ms->res[dep->res];
    double h = in->slot_hours;
    if (r->kind == CP_RES_POOL)
        return in->sites[r->site].pue * cp_plan_dep_busy_w(p, d, t) * h / 1000 *
               cp_site_kwh_cost(in, r->site, t);
    int n = *cp_plan_n(p, d, t);
    if (!n)
        return 0;
    return n * cp_instance_share(dep->demand, r->mach) * cp_market_slot_cost(in, r, t);
}

double cp_plan_svc_spend(const cp_plan *p, int v)
{
    const cp_service *sv = &p->in->services[v];
    double spend = 0;
    for (int d = p->ms->svc_first[v]; d < p->ms->svc_first[v + 1]; d++)
        for (int t = 0; t < p->slots; t++) {
            int n = *cp_plan_n(p, d, t), prev = t ? *cp_plan_n(p, d, t - 1) : 0;
            spend += dep_slot_cost(p, d, t) + (n > prev ? sv->start_cost * (n - prev) : 0);
        }
    return spend;
}

double cp_plan_svc_eval(const cp_plan *p, cp_plan_figures *f)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int T = p->slots;
    double h = in->slot_hours, attributed = 0;
    /* the deployments of p's input's services: a view of the jobs alone
     * (services_reserve.c) shares the whole input's modes, deployments
     * and all, while the figures hold a cell per service of its own */
    int n_deps = in->n_services ? ms->svc_first[in->n_services] : 0;
    for (int d = 0; d < n_deps; d++) {
        const cp_deploy *dep = &ms->deps[d];
        const cp_resource *r = &ms->res[dep->res];
        const cp_service *sv = &in->services[dep->svc];
        for (int t = 0; t < T; t++) {
            int n = *cp_plan_n(p, d, t), prev = t ? *cp_plan_n(p, d, t - 1) : 0;
            double starts = n > prev ? sv->start_cost * (n - prev) : 0;
            double c = dep_slot_cost(p, d, t) + starts;
            f->costs.starts += starts;
            f->svc_cost[dep->svc] += c;
            if (r->kind == CP_RES_POOL) {
                f->site_power_kw[(size_t)r->site * T + t] += cp_plan_dep_busy_w(p, d, t);
                for (int k = 0; k < CP_DIMS; k++)
                    f->util[((size_t)r->index * CP_DIMS + k) * T + t] += n * dep->demand[k];
            }
        }
    }
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        for (int k = 0; k < sv->n_classes; k++)
            for (int t = 0; t < T; t++) {
                double req = cp_svc_load(in, v, k, t) * *cp_plan_u(p, v, k, t) * 3600 * h;
                f->svc_unserved[v] += req;
                f->costs.unserved += sv->unserved_penalty * req;
                f->svc_cost[v] += sv->unserved_penalty * req;
            }
        attributed += f->svc_cost[v];
        /* capplan.5 §10.2, §10.6: a team's cost and accelerator-hours count
         * its services' (replicas: count · n · h) */
        if (sv->team < 0)
            continue;
        f->team_cost[sv->team] += f->svc_cost[v];
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
            for (int t = 0; t < T; t++)
                f->team_acc_hours[sv->team] += ms->deps[d].demand[CP_DIM_ACC] * *cp_plan_n(p, d, t) * h;
    }
    return attributed;
}

static bool over(double a, double b)
{
    return a > b + SVC_TOL * fmax(1, fabs(b));
}

bool cp_plan_services_ok(const cp_plan *p, char *why, size_t why_size)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int T = p->slots;
    /* a re-plan's history is OLD's, not re-checked (capplan.5 §10.6) */
    int t0 = ms->replan ? ms->replan->now : 0;
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        for (int t = t0; t < T; t++) {
            long n = 0;
            for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
                n += *cp_plan_n(p, d, t);
            if (n < cp_series_at(&sv->min_replicas, t)) {
                snprintf(why, why_size, "service %s: %ld replicas in slot %d, below min_replicas %g",
                         sv->name, n, t, cp_series_at(&sv->min_replicas, t));
                return false;
            }
            for (int k = 0; k < sv->n_classes; k++) {
                double sum = *cp_plan_u(p, v, k, t);
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
                    sum += *cp_plan_f(p, d, k, t);
                double want = cp_svc_load(in, v, k, t) > 0 ? 1 : 0;
                if (fabs(sum - want) > SVC_TOL) {
                    snprintf(why, why_size, "service %s: the shares of class %s add up to %g in slot %d",
                             sv->name, sv->classes[k].name, sum, t);
                    return false;
                }
            }
        }
    }
    for (int d = 0; d < ms->n_deps; d++)
        for (int t = t0; t < T; t++) {
            double cap = ms->deps[d].avail * *cp_plan_n(p, d, t);
            if (over(dep_load(p, d, t), cap)) {
                snprintf(why, why_size, "service %s: deployment on %s takes %g replicas of load in slot %d, over %g",
                         in->services[ms->deps[d].svc].name, ms->res[ms->deps[d].res].id,
                         dep_load(p, d, t), t, cap);
                return false;
            }
        }
    return true;
}

/* A share within this of 0 or 1 is a solver's round-off (the simplex
 * leaves 3e-16 and 0.999999999999999 on the nightly example), far inside
 * the 1e-6 that verify allows the rows: it is written as 0 or 1, so that
 * a deployment without replicas routes nothing and a plan shows no noise. */
#define SHARE_NOISE 1e-9

static double share_fig(double v)
{
    return fabs(v) < SHARE_NOISE ? 0 : fabs(v - 1) < SHARE_NOISE ? 1 : cp_num_fig(v);
}

void cp_plan_round_shares(cp_plan *p)
{
    size_t T = (size_t)p->slots;
    /* a re-plan's history stays OLD's to the last digit (capplan.5 §10.6) */
    size_t t0 = p->ms->replan ? (size_t)p->ms->replan->now : 0;
    for (size_t i = 0; i < (size_t)p->ms->n_shares * T; i++)
        p->svc_f[i] = i % T < t0 ? cp_num_fig(p->svc_f[i]) : share_fig(p->svc_f[i]);
    for (size_t i = 0; i < (size_t)p->ms->n_classes * T; i++)
        p->svc_u[i] = i % T < t0 ? cp_num_fig(p->svc_u[i]) : share_fig(p->svc_u[i]);
}
