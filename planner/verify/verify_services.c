/*
 * The plan verifier, services (capplan.5 §10.4; see verify_internal.h).
 * For every service of the input, its plan entry: each listed deployment
 * a deployment of the service (a configuration on a resource that passes
 * its placement, carries its accelerator type, holds one replica per
 * unit, spot only when preemptible), its replicas per slot integers;
 * each class's shares per slot >= 0, 0 on a configuration that does not
 * serve the class and where its load is 0, adding up with the unserved
 * share to 1 where the load is not 0; each deployment's load within
 * a_d · n(d,t); the replicas of every slot at least min_replicas; all to
 * 1e-6. Then what the replicas add: their units to the loads of §3
 * (capacity, utilization, placement's aggregates), their busy power to
 * the sites (energy, carbon, caps), the starts and the unserved requests
 * to the totals, and each service's cost (capplan.5 §10.1), derived here
 * from the input alone.
 */
#include "verify_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"
#include "cp_replan.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define SVC_TOL 1e-6

static bool off_by(double got, double want)
{
    return fabs(got - want) > SVC_TOL * fmax(1, fabs(want));
}

static double load_at(const cp_input *in, int v, int k, int t)
{
    const cp_series *s = &in->services[v].classes[k].load;
    return s->v ? cp_series_at(s, t) : 0;
}

/* Why (configuration cf, resource r) is no deployment of service v. */
static const char *no_deploy_why(const cp_vf_ctx *c, int v, int cf, int r)
{
    const cp_service *sv = &c->in->services[v];
    const cp_resource *res = &c->ms->res[r];
    const cp_svc_config *g = &sv->configs[cf];
    if (res->mach->acc != g->acc)
        return "the resource carries another accelerator type";
    if (g->count > res->mach->accelerators || g->cpus > res->mach->cpus + 1e-9 ||
        g->memory_gb > res->mach->memory_gb + 1e-9)
        return "one replica does not fit one of its nodes or instances";
    if (res->kind == CP_RES_SPOT && !sv->preemptible)
        return "a spot market, and the service is not preemptible";
    return "its placement rules exclude the resource";
}

/* The resource of a deployment entry, -1 (with a violation) when none. */
static int dep_resource(cp_vf_ctx *c, const cp_plan_svc_dep *e, const char *who)
{
    if (e->resource.has != CP_PLAN_SET || e->mk == CP_PLAN_NO_MARKET)
        return -1;
    const char *nm = e->resource.s;
    int i;
    if (e->mk == CP_PLAN_POOL && (i = cp_input_find_pool(c->in, nm)) >= 0)
        return c->ms->res_of_pool[i];
    if (e->mk != CP_PLAN_POOL && (i = cp_input_find_offer(c->in, nm)) >= 0) {
        int r = e->mk == CP_PLAN_SPOT ? c->ms->spot_of_offer[i] : c->ms->ondemand_of_offer[i];
        if (r >= 0)
            return r;
    }
    cp_vf_viol(c, e->resource.pos, "%s: no %s market '%s'", who, e->market.s, nm);
    return -1;
}

/* The replicas' `nodes` of deployment d (entry de): per slot one id of
 * its resource per replica, a node that is up on a pool; each becomes an
 * assignment that placement (verify_place.c) loads with the jobs'. */
static void read_nodes(cp_vf_ctx *c, int d, const cp_plan_svc_dep *de, const char *who)
{
    const cp_resource *r = &c->ms->res[c->ms->deps[d].res];
    if (de->nodes_has != CP_PLAN_SET || de->n_nodes != c->T)
        return; /* absent, or the reader's violation */
    for (int t = 0; t < c->T && !c->oom; t++) {
        const cp_plan_strs *ns = &de->nodes[t];
        long n = c->svc_n[(size_t)d * (size_t)c->T + (size_t)t];
        if (ns->has == CP_PLAN_SET && ns->n != n) {
            cp_vf_viol(c, ns->pos, "%s: nodes[%d] lists %d ids for %ld replicas", who, t, ns->n, n);
            continue;
        }
        if (cp_replan_is_history(c->rp, t))
            cp_vf_check_replica_history(c, d, t, ns, who);
        for (int i = 0; i < ns->n; i++) {
            long k = ns->s[i] ? cp_vf_parse_id(ns->s[i], r->id) : -1;
            if (!ns->s[i])
                continue; /* the reader's violation */
            if (k < 0) {
                cp_vf_viol(c, ns->at[i], "%s: '%s' is not a %s id of '%s' (expected '%s/N')", who,
                           ns->s[i], r->kind == CP_RES_POOL ? "node" : "instance", r->id, r->id);
                continue;
            }
            if (r->kind == CP_RES_POOL) {
                const cp_pool *pl = &c->in->pools[r->index];
                if (k >= pl->nodes || k >= cp_series_at(&pl->available, t)) {
                    cp_vf_viol(c, ns->at[i], "%s: node '%s' is %s in slot %d", who, ns->s[i],
                               k >= pl->nodes ? "not in the pool" : "down", t);
                    continue;
                }
            }
            if (!cp_vf_add_replica(c, d, k, ns->at[i], t))
                return;
        }
    }
}

/* The deployment entries of service v: map[i] is the deployment of entry
 * i (-1 when it is none); their replicas into c->svc_n. */
static void read_deps(cp_vf_ctx *c, int v, const cp_plan_svc *e, int *map)
{
    const cp_service *sv = &c->in->services[v];
    char who[400];
    for (int i = 0; i < e->n_deps; i++) {
        const cp_plan_svc_dep *de = &e->deps[i];
        map[i] = -1;
        snprintf(who, sizeof who, "service '%s' deployment %d", sv->name, i + 1);
        if (de->config.has != CP_PLAN_SET)
            continue;
        if (de->config.v >= sv->n_configs) {
            cp_vf_viol(c, de->config.pos, "%s: config %ld, the service has %d", who, de->config.v,
                       sv->n_configs);
            continue;
        }
        int r = dep_resource(c, de, who);
        if (r < 0)
            continue;
        int d = cp_deploy_find(c->ms, v, (int)de->config.v, r);
        if (d < 0) {
            cp_vf_viol(c, de->pos, "%s: configuration %ld on %s is no deployment: %s", who,
                       de->config.v, c->ms->res[r].id, no_deploy_why(c, v, (int)de->config.v, r));
            continue;
        }
        bool twice = false;
        for (int q = 0; q < i; q++)
            twice |= map[q] == d;
        if (twice) {
            cp_vf_viol(c, de->pos, "%s: configuration %ld on %s is listed twice", who, de->config.v,
                       c->ms->res[r].id);
            continue;
        }
        if (de->replicas.has != CP_PLAN_SET || de->replicas.n != c->T)
            continue; /* the reader's violation */
        map[i] = d;
        for (int t = 0; t < c->T; t++)
            c->svc_n[(size_t)d * (size_t)c->T + (size_t)t] =
                cp_num_clamp_long(de->replicas.v[t], 0, LONG_MAX);
        read_nodes(c, d, de, who);
    }
}

/* Class k's routing entry: shares into c->svc_f, unserved into c->svc_u. */
static void read_route(cp_vf_ctx *c, int v, int k, const cp_plan_svc *e, const cp_plan_svc_route *ro,
                       const int *map)
{
    const cp_input *in = c->in;
    const cp_service *sv = &in->services[v];
    int T = c->T;
    char who[400];
    snprintf(who, sizeof who, "service '%s' class '%s'", sv->name, sv->classes[k].name);
    for (int t = 0; t < T && t < ro->n_shares; t++) {
        const cp_plan_series *sh = &ro->shares[t];
        if (sh->has != CP_PLAN_SET)
            continue;
        if (sh->n != e->n_deps) {
            cp_vf_viol(c, sh->pos, "%s: shares[%d] has %d values, the service lists %d deployments",
                       who, t, sh->n, e->n_deps);
            continue;
        }
        for (int i = 0; i < sh->n; i++) {
            double f = sh->v[i];
            if (isnan(f) || map[i] < 0)
                continue;
            const cp_deploy *dp = &c->ms->deps[map[i]];
            if (f < -SVC_TOL)
                cp_vf_viol(c, sh->at[i], "%s: share %s in slot %d is negative", who, cp_vf_n(f).s, t);
            else if (f > SVC_TOL && sv->configs[dp->config].rate[k] <= 0)
                cp_vf_viol(c, sh->at[i], "%s: share %s in slot %d on configuration %d, which does "
                           "not serve the class", who, cp_vf_n(f).s, t, dp->config);
            else if (f > SVC_TOL && load_at(in, v, k, t) <= 0 && !cp_replan_is_history(c->rp, t))
                cp_vf_viol(c, sh->at[i], "%s: share %s in slot %d, where its load is 0", who,
                           cp_vf_n(f).s, t);
            c->svc_f[(size_t)(c->ms->dep_share[map[i]] + k) * (size_t)T + (size_t)t] = f;
        }
    }
    const cp_plan_series *u = &ro->unserved;
    for (int t = 0; u->has == CP_PLAN_SET && t < T && t < u->n; t++) {
        if (isnan(u->v[t]))
            continue;
        if (u->v[t] < -SVC_TOL ||
            (u->v[t] > SVC_TOL && load_at(in, v, k, t) <= 0 && !cp_replan_is_history(c->rp, t)))
            cp_vf_viol(c, u->at[t], "%s: unserved share %s in slot %d (it is >= 0, and 0 where the "
                       "load is 0)", who, cp_vf_n(u->v[t]).s, t);
        c->svc_u[(size_t)(c->ms->class_first[v] + k) * (size_t)T + (size_t)t] = u->v[t];
    }
}

/* The rows of service v (shares, capacity, min_replicas) at entry e;
 * a re-plan's history is OLD's (verify_replan.c), not re-checked against
 * the inputs (capplan.5 §10.6), but its load still takes power. */
static void check_rows(cp_vf_ctx *c, int v, const cp_plan_svc *e)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    const cp_service *sv = &in->services[v];
    size_t T = (size_t)c->T;
    for (int t = 0; t < c->T; t++) {
        bool hist = cp_replan_is_history(c->rp, t);
        for (int k = 0; k < sv->n_classes; k++) {
            double sum = c->svc_u[(size_t)(ms->class_first[v] + k) * T + (size_t)t];
            for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
                sum += c->svc_f[(size_t)(ms->dep_share[d] + k) * T + (size_t)t];
            if (load_at(in, v, k, t) > 0 && off_by(sum, 1) && !hist)
                cp_vf_viol(c, e->pos, "service '%s' class '%s': shares and unserved add up to %s "
                           "in slot %d, not 1", sv->name, sv->classes[k].name, cp_vf_n(sum).s, t);
        }
        long n = 0;
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
            const cp_deploy *dp = &ms->deps[d];
            long nd = c->svc_n[(size_t)d * T + (size_t)t];
            double x = 0;
            for (int k = 0; k < sv->n_classes; k++)
                if (sv->configs[dp->config].rate[k] > 0)
                    x += load_at(in, v, k, t) * c->svc_f[(size_t)(ms->dep_share[d] + k) * T + (size_t)t] /
                         sv->configs[dp->config].rate[k];
            if (x > dp->avail * (double)nd + SVC_TOL * fmax(1, dp->avail * (double)nd) && !hist)
                cp_vf_viol(c, e->pos, "service '%s': configuration %d on %s takes %s replicas' load "
                           "in slot %d, over %ld replicas x %s available", sv->name, dp->config,
                           ms->res[dp->res].id, cp_vf_n(x).s, t, nd, cp_vf_n(dp->avail).s);
            c->svc_x[(size_t)d * T + (size_t)t] = x;
            n += nd;
        }
        if ((double)n < cp_series_at(&sv->min_replicas, t) && !hist)
            cp_vf_viol(c, e->pos, "service '%s': %ld replicas in slot %d, below min_replicas %s",
                       sv->name, n, t, cp_vf_n(cp_series_at(&sv->min_replicas, t)).s);
    }
}

/* Replicas' units into the loads, their busy power into the sites, and
 * what each service costs (capplan.5 §10.1) with starts and unserved. */
static void add_and_cost(cp_vf_ctx *c, const cp_plan_svc *const *entry)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    double cp = in->carbon_price_per_ton / 1e6; /* $ per g */
    for (int d = 0; d < ms->n_deps; d++) {
        const cp_deploy *dp = &ms->deps[d];
        const cp_resource *r = &ms->res[dp->res];
        const cp_service *sv = &in->services[dp->svc];
        double cap[CP_DIMS], share = 0;
        cp_vf_mach_cap(r->mach, cap);
        for (int k = 0; k < CP_DIMS; k++)
            if (cap[k] > 0 && dp->demand[k] / cap[k] > share)
                share = dp->demand[k] / cap[k];
        for (size_t t = 0; t < T; t++) {
            long n = c->svc_n[(size_t)d * T + t], prev = t ? c->svc_n[(size_t)d * T + t - 1] : 0;
            double *l = cp_vf_load_at(c, dp->res, (int)t), cost = 0;
            for (int k = 0; k < CP_DIMS; k++)
                l[k] += (double)n * dp->demand[k];
            if (n > prev)
                c->svc_starts += sv->start_cost * (double)(n - prev), cost += sv->start_cost * (double)(n - prev);
            if (r->kind == CP_RES_POOL) {
                const cp_site *st = &in->sites[r->site];
                double w = dp->busy_w * c->svc_x[(size_t)d * T + t];
                c->busy[(size_t)r->site * T + t] += w;
                cost += st->pue * w * c->h / 1000 *
                        (cp_vf_series_or(&st->energy_price, (int)t, 0) +
                         cp_vf_series_or(&st->carbon_intensity, (int)t, 0) * cp);
            } else if (n > 0) {
                const cp_offer *o = &in->offers[r->index];
                double slot = (r->kind == CP_RES_SPOT ? o->spot_price_hour : o->price_hour) * c->h;
                if (o->site >= 0) {
                    const cp_site *st = &in->sites[o->site];
                    slot += r->mach->power_w * st->pue * c->h / 1000 *
                            cp_vf_series_or(&st->carbon_intensity, (int)t, 0) * cp;
                }
                cost += (double)n * share * slot;
            }
            c->svc_cost[dp->svc] += cost;
        }
    }
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        double req = 0;
        for (int k = 0; k < sv->n_classes; k++)
            for (int t = 0; t < c->T; t++)
                req += load_at(in, v, k, t) * c->svc_u[(size_t)(ms->class_first[v] + k) * T + (size_t)t] *
                       3600 * c->h;
        c->svc_spend[v] = c->svc_cost[v]; /* a team's budget leaves unserved out */
        c->svc_unserved += sv->unserved_penalty * req;
        c->svc_cost[v] += sv->unserved_penalty * req;
        if (!entry[v])
            continue;
        char who[400];
        snprintf(who, sizeof who, "service '%s'", sv->name);
        cp_vf_compare_num(c, &entry[v]->cost, entry[v]->pos, "cost", who, true, c->svc_cost[v]);
        cp_vf_compare_num(c, &entry[v]->unserved_requests, entry[v]->pos, "unserved_requests", who,
                          true, req);
    }
}

/* Each input service's entry (by name), or a violation. */
static void match_entries(cp_vf_ctx *c, const cp_plan_svc **entry)
{
    const cp_plan_file *pf = c->pf;
    for (int i = 0; i < pf->n_svcs; i++) {
        const cp_plan_svc *e = &pf->svcs[i];
        if (e->name.has != CP_PLAN_SET)
            continue;
        int v = cp_input_find_service(c->in, e->name.s);
        if (v < 0)
            cp_vf_viol(c, e->name.pos, "service %d: unknown service '%s'", i + 1, e->name.s);
        else if (entry[v])
            cp_vf_viol(c, e->name.pos, "service '%s' is listed twice (first at line %d)", e->name.s,
                       entry[v]->pos.line);
        else
            entry[v] = e;
    }
    for (int v = 0; v < c->in->n_services; v++)
        if (!entry[v])
            cp_vf_viol(c, pf->svc_list.has ? pf->svc_list.pos : pf->pos,
                       "service '%s' is missing from the plan's services", c->in->services[v].name);
}

void cp_vf_check_services(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    size_t T = (size_t)c->T;
    if (!in->n_services && !c->pf->n_svcs)
        return;
    c->svc_n = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1) * T, sizeof *c->svc_n);
    c->svc_x = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1) * T, sizeof *c->svc_x);
    c->svc_f = cp_calloc((size_t)(ms->n_shares ? ms->n_shares : 1) * T, sizeof *c->svc_f);
    c->svc_u = cp_calloc((size_t)(ms->n_classes ? ms->n_classes : 1) * T, sizeof *c->svc_u);
    c->svc_cost = cp_calloc((size_t)(in->n_services ? in->n_services : 1), sizeof *c->svc_cost);
    c->svc_spend = cp_calloc((size_t)(in->n_services ? in->n_services : 1), sizeof *c->svc_spend);
    const cp_plan_svc **entry = cp_calloc((size_t)(in->n_services ? in->n_services : 1), sizeof *entry);
    int most = 1;
    for (int i = 0; i < c->pf->n_svcs; i++)
        most = c->pf->svcs[i].n_deps > most ? c->pf->svcs[i].n_deps : most;
    int *map = cp_calloc((size_t)most, sizeof *map);
    if (!c->svc_n || !c->svc_x || !c->svc_f || !c->svc_u || !c->svc_cost || !c->svc_spend || !entry ||
        !map) {
        c->oom = true;
        goto out;
    }
    match_entries(c, entry);
    for (int v = 0; v < in->n_services; v++) {
        const cp_plan_svc *e = entry[v];
        if (!e)
            continue;
        const cp_service *sv = &in->services[v];
        read_deps(c, v, e, map);
        bool *seen = cp_calloc((size_t)sv->n_classes, sizeof *seen);
        if (!seen) {
            c->oom = true;
            goto out;
        }
        for (int i = 0; i < e->n_routes; i++) {
            const cp_plan_svc_route *ro = &e->routes[i];
            if (ro->cls.has != CP_PLAN_SET)
                continue;
            int k = 0;
            while (k < sv->n_classes && strcmp(sv->classes[k].name, ro->cls.s))
                k++;
            if (k == sv->n_classes || seen[k])
                cp_vf_viol(c, ro->cls.pos, "service '%s': %s class '%s'", sv->name,
                           k == sv->n_classes ? "routing for unknown" : "second routing for", ro->cls.s);
            else
                read_route(c, v, k, e, ro, map), seen[k] = true;
        }
        for (int k = 0; k < sv->n_classes; k++)
            if (!seen[k])
                cp_vf_viol(c, e->routing_pos, "service '%s': no routing for class '%s'", sv->name,
                           sv->classes[k].name);
        cp_free(seen);
        check_rows(c, v, e);
    }
    add_and_cost(c, entry);
out:
    cp_free(entry);
    cp_free(map);
}
