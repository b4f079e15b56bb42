/*
 * The room the services of an input (capplan.5 §10.4) will need, kept out
 * of the jobs' search of the methods that plan the jobs first and the
 * services around them (services_after.c).
 *
 * Planned on the whole fleet, the jobs fill the pools, and the services
 * then rent on-demand instances for every replica: on `bench/gen
 * --services 10 1 1000` the services cost about four times what they add
 * in the joint LP (docs/performance.md, "Services"). So a first plan of
 * the services alone, the greedy's on the empty fleet, is taken out of
 * what the jobs' search sees: the view is the input with
 *
 * - each pool's available nodes less the nodes its replicas take in each
 *   slot (the fullest dimension, rounded up: the search packs whole
 *   nodes, and a node the replicas share with jobs cannot be promised to
 *   either);
 * - each market's quota less the services' instances;
 * - each site's power cap less the replicas' busy power, and less the
 *   idle power of the nodes taken out (the view's baseline no longer
 *   counts them);
 * - the budget less what the services spend, and less that idle power's
 *   energy.
 *
 * - each team's quotas less its replicas on the pools, and its budget
 *   less what its services spend (tests/services/team_quota.yaml: a job
 *   and a service of one team, the quota room for one of them).
 *
 * The services are re-planned around the jobs on the real input anyway,
 * where a job is dropped only if the replicas leave it no room. A job the
 * search dropped for want of the room kept gets it back when it pays
 * (cp_services_jobs). The view borrows every string and array of the
 * input it does not change, and owns the pools, offers, sites, teams and
 * quotas it copies and the series it rewrites.
 */
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_cost_parts.h"
#include "cp_teams.h"

#include <math.h>
#include <string.h>

typedef struct sview {
    cp_input in; /* first: a view is passed as its cp_input */
    void *pools, *offers, *sites, *teams, *quotas;
    void **series;
    size_t n_series;
} sview;

void cp_services_view_free(cp_input *in)
{
    sview *v = (sview *)in;
    if (!v)
        return;
    for (size_t i = 0; i < v->n_series; i++)
        cp_free(v->series[i]);
    cp_free(v->series);
    cp_free(v->pools);
    cp_free(v->offers);
    cp_free(v->sites);
    cp_free(v->teams);
    cp_free(v->quotas);
    cp_free(v);
}

/* s as one owned value per slot, so that slots may differ. */
static bool widen(sview *v, cp_series *s, int T)
{
    double *x = cp_calloc((size_t)T, sizeof *x);
    if (!x)
        return false;
    for (int t = 0; t < T; t++)
        x[t] = cp_series_at(s, t);
    v->series[v->n_series++] = x;
    s->v = x;
    s->n = T;
    return true;
}

/* Nodes of pool resource r that plan p's replicas take in slot t. */
static double replica_nodes(const cp_plan *p, int r, int t)
{
    const cp_modeset *ms = p->ms;
    double use[CP_DIMS] = {0}, nodes = 0;
    for (int d = 0; d < ms->n_deps; d++)
        if (ms->deps[d].res == r)
            for (int k = 0; k < CP_DIMS; k++)
                use[k] += *cp_plan_n(p, d, t) * ms->deps[d].demand[k];
    for (int k = 0; k < CP_DIMS; k++) {
        double cap = cp_machine_dim(ms->res[r].mach, k);
        if (use[k] > 0 && cap > 0)
            nodes = fmax(nodes, ceil(use[k] / cap - 1e-9));
    }
    return nodes;
}

/* What plan p spends under the budget and, into power when not NULL,
 * each site's facility kW per slot. */
static int eval_budget(const cp_plan *p, double *spend, double *power)
{
    cp_plan_figures f;
    if (cp_plan_eval(p, &f, NULL))
        return CP_ERR_NOMEM;
    *spend = cp_costs_budget(&f.costs);
    if (power)
        memcpy(power, f.site_power_kw, (size_t)p->in->n_sites * (size_t)p->slots * sizeof *power);
    cp_plan_figures_release(&f);
    return CP_OK;
}

/* The view's pools and markets: the input's less what svc takes. */
static bool reserve_units(sview *v, const cp_modeset *ms, const cp_plan *svc)
{
    cp_input *in = &v->in;
    int T = in->slots;
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        cp_series *s = res->kind == CP_RES_POOL  ? &in->pools[res->index].available
                       : res->kind == CP_RES_SPOT ? &in->offers[res->index].spot_quota
                                                  : &in->offers[res->index].quota;
        bool wide = false;
        for (int t = 0; t < T; t++) {
            double take = res->kind == CP_RES_POOL ? replica_nodes(svc, r, t) : svc->y[(size_t)r * T + t];
            if (take <= 0)
                continue;
            if (!wide && !(wide = widen(v, s, T)))
                return false;
            s->v[t] = fmax(0, s->v[t] - take);
        }
    }
    return true;
}

/* The view's power caps: less the replicas' power (svc_kw less base_kw,
 * facility kW per site and slot) and the idle power of the nodes taken
 * out, never below the view's own baseline. */
static bool reserve_power(sview *v, const cp_input *in, const double *svc_kw, const double *base_kw)
{
    cp_input *vin = &v->in;
    int T = in->slots;
    for (int s = 0; s < in->n_sites; s++) {
        cp_site *st = &vin->sites[s];
        if (!st->power_cap_kw.set)
            continue;
        if (!widen(v, &st->power_cap_kw, T))
            return false;
        for (int t = 0; t < T; t++) {
            size_t i = (size_t)s * (size_t)T + (size_t)t;
            double idle_w = cp_site_baseline_w(in, s, t) - cp_site_baseline_w(vin, s, t);
            double cap = st->power_cap_kw.v[t] - (svc_kw[i] - base_kw[i]) - st->pue * idle_w / 1000;
            st->power_cap_kw.v[t] = fmax(cap, st->pue * cp_site_baseline_w(vin, s, t) / 1000);
        }
    }
    return true;
}

/* The view's teams: each quota less what svc's replicas hold of it, each
 * budget less what the team's services spend (never below 0). */
static bool reserve_teams(sview *v, const cp_plan *svc)
{
    cp_input *in = &v->in;
    int T = in->slots, nq = 0;
    for (int k = 0; k < in->n_teams; k++)
        nq += in->teams[k].n_quota;
    cp_teamrows tr;
    double *use = NULL;
    cp_team *teams = cp_calloc((size_t)in->n_teams + 1, sizeof *teams);
    cp_team_quota *quotas = cp_calloc((size_t)nq + 1, sizeof *quotas);
    v->teams = teams;
    v->quotas = quotas;
    if (!teams || !quotas || cp_teamrows_init(&tr, svc->in, svc->ms, 1.0))
        return false;
    bool ok = (use = cp_calloc((size_t)tr.n_rows + 1, sizeof *use)) && !cp_plan_team_use(svc, &tr, true, use);
    for (int k = 0, q = 0; ok && k < in->n_teams; k++) {
        teams[k] = in->teams[k];
        if (teams[k].n_quota)
            memcpy(&quotas[q], in->teams[k].quota, (size_t)teams[k].n_quota * sizeof *quotas);
        teams[k].quota = &quotas[q];
        for (int i = 0; ok && i < teams[k].n_quota; i++, q++) {
            cp_series *s = &quotas[q].limit;
            bool wide = false;
            for (int t = 0; ok && t < T; t++) {
                if (use[q * T + t] <= 0)
                    continue;
                if (!wide) /* the series is copied once, at its first slot used */
                    ok = wide = widen(v, s, T);
                if (ok)
                    s->v[t] = fmax(0, s->v[t] - use[q * T + t]);
            }
        }
        if (ok && teams[k].has_budget)
            teams[k].budget = fmax(0, teams[k].budget - use[tr.budget_row[k]]);
    }
    in->teams = teams;
    cp_free(use);
    cp_teamrows_release(&tr);
    return ok;
}

static int make_view(const cp_input *in, const cp_modeset *ms, const cp_plan *svc, const cp_plan *none,
                     cp_input **out)
{
    size_t T = (size_t)in->slots, ns = (size_t)(in->n_sites ? in->n_sites : 1);
    size_t n_series = (size_t)ms->n_res + (size_t)in->n_sites + 1;
    for (int k = 0; k < in->n_teams; k++)
        n_series += (size_t)in->teams[k].n_quota;
    sview *v = cp_calloc(1, sizeof *v);
    double *svc_kw = cp_calloc(ns * T, sizeof *svc_kw), *base_kw = cp_calloc(ns * T, sizeof *base_kw);
    cp_plan *bare = NULL;
    int rc = CP_ERR_NOMEM;
    if (!v || !svc_kw || !base_kw)
        goto out;
    v->in = *in;
    /* jobs alone: the searches' models (the LP by column generation, the
     * MILP) leave services out, whose room is kept instead */
    v->in.n_services = 0;
    v->series = cp_calloc(n_series, sizeof *v->series);
    v->pools = cp_calloc((size_t)(in->n_pools ? in->n_pools : 1), sizeof *in->pools);
    v->offers = cp_calloc((size_t)(in->n_offers ? in->n_offers : 1), sizeof *in->offers);
    v->sites = cp_calloc(ns, sizeof *in->sites);
    if (!v->series || !v->pools || !v->offers || !v->sites)
        goto out;
    if (in->n_pools)
        memcpy(v->pools, in->pools, (size_t)in->n_pools * sizeof *in->pools);
    if (in->n_offers)
        memcpy(v->offers, in->offers, (size_t)in->n_offers * sizeof *in->offers);
    if (in->n_sites)
        memcpy(v->sites, in->sites, (size_t)in->n_sites * sizeof *in->sites);
    v->in.pools = v->pools;
    v->in.offers = v->offers;
    v->in.sites = v->sites;
    double spend_svc, spend_none, spend_bare;
    if (eval_budget(svc, &spend_svc, svc_kw) || eval_budget(none, &spend_none, base_kw) ||
        !reserve_units(v, ms, svc) || !reserve_power(v, in, svc_kw, base_kw) || !reserve_teams(v, svc) ||
        cp_plan_new(&v->in, ms, &bare) || eval_budget(bare, &spend_bare, NULL))
        goto out;
    /* what the view's empty plan spends is its floor: the baseline alone
     * never breaks it */
    if (in->has_budget)
        v->in.budget = fmax(in->budget - spend_svc + spend_bare, spend_bare);
    rc = CP_OK;
out:
    cp_plan_free(bare);
    cp_free(svc_kw);
    cp_free(base_kw);
    if (rc) {
        cp_services_view_free(v ? &v->in : NULL);
        return rc;
    }
    *out = &v->in;
    return CP_OK;
}

int cp_services_view_new(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                         cp_input **view, cp_err *err)
{
    *view = NULL;
    if (!in->n_services || !in->n_jobs)
        return CP_OK;
    cp_plan *svc = NULL, *none = NULL;
    bool ok = false;
    char why[200] = "";
    int rc = CP_OK;
    if (cp_plan_new(in, ms, &svc) || cp_plan_new(in, ms, &none) ||
        cp_services_greedy(svc, &ok, why, sizeof why)) {
        rc = cp_err_nomem(err);
        goto out;
    }
    if (!ok) {
        cp_solver_log(opts, "services: no room kept for them (%s)", why);
        goto out;
    }
    if (make_view(in, ms, svc, none, view))
        rc = cp_err_nomem(err);
    else
        cp_solver_log(opts, "services: the jobs' search leaves the room of the greedy's replicas");
out:
    cp_plan_free(svc);
    cp_plan_free(none);
    return rc;
}
