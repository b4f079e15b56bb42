/*
 * A solution's services (capplan.5 §10.4) into a plan's choices, for
 * `capplan place` (cp_solution.h, docs/place.md).
 *
 * From glpsol's or CBC's file: the exported model's service columns
 * (milp_svc.c names them), n_D_T (replicas of deployment D in slot T, a
 * whole number >= 0 within what the model bounds it by), f_I_T (share I,
 * deployment dep_share order, of its class in slot T, in [0, 1]),
 * u_V_K_T (class K of service V unserved) and start_D_T (the replicas
 * started, which the plan derives from n and so only checks the name
 * of). From a plan file: each `services` entry's deployments (config,
 * resource, market, replicas) and routing (shares in the deployments'
 * order, unserved), as verify reads them (planner/verify/verify_services.c).
 *
 * Either way the shares are closed at the end as the MILP's own are
 * (cp_milp_svc_extract): a class whose shares add up to more than 1 (a
 * solver's tolerance) is scaled down, and its unserved share is what the
 * shares leave, so the plan's rows hold exactly; what does not hold
 * beyond that (capacity, min_replicas, caps, quotas) is the feasibility
 * check's to report.
 */
#include "solution_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"
#include "cp_plan_read.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVC_TOL 1e-6

bool cp_sol_svc_row(const char *name)
{
    return !strncmp(name, "route_", 6) || !strncmp(name, "svccap_", 7) ||
           !strncmp(name, "svcmin_", 7) || !strncmp(name, "svcstart_", 9);
}

/* Slot t of the horizon, or false with an error. */
static bool slot_ok(sol *c, const char *name, long t, cp_pos pos)
{
    if (t < c->in->slots)
        return true;
    cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no slot %ld (the horizon has %d slot%s)", name, t,
                 c->in->slots, c->in->slots == 1 ? "" : "s");
    return false;
}

/* A share's value in [0, 1] (to the tolerance), or false with an error. */
static bool share_ok(sol *c, const char *name, double val, cp_pos pos)
{
    if (val >= -SVC_TOL && val <= 1 + SVC_TOL)
        return true;
    cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s is %.10g, not a share in [0, 1]", name, val);
    return false;
}

/* The most replicas deployment d's resource holds in one slot: its most
 * units, each with room for as many replicas as it has accelerators for. */
static long dep_most(const cp_modeset *ms, int d)
{
    const cp_deploy *dp = &ms->deps[d];
    const cp_resource *r = &ms->res[dp->res];
    return (long)r->max_units * (long)(r->mach->accelerators / dp->demand[CP_DIM_ACC]);
}

/* Replicas n of deployment d, or false with an error at pos. */
static bool most_ok(sol *c, const char *who, int d, long n, cp_pos pos)
{
    long most = dep_most(c->ms, d);
    if (n <= most)
        return true;
    cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: %ld replicas, more than '%s' holds (%ld)", who, n,
                 c->ms->res[c->ms->deps[d].res].id, most);
    return false;
}

static void set_n(sol *c, const char *name, const long *v, double val, cp_pos pos)
{
    const cp_modeset *ms = c->ms;
    long k;
    if (v[0] >= ms->n_deps) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no deployment %ld (the inputs have %d)", name,
                     v[0], ms->n_deps);
        return;
    }
    if (!slot_ok(c, name, v[1], pos))
        return;
    if (!isfinite(val) || fabs(val - round(val)) > SVC_TOL ||
        !cp_num_is_whole(round(val), 0, 1000000000L, &k)) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s is %.10g, not a whole number of replicas >= 0",
                     name, val);
        return;
    }
    if (most_ok(c, name, (int)v[0], k, pos))
        *cp_plan_n(c->plan, (int)v[0], (int)v[1]) = (int)k;
}

static void set_f(sol *c, const char *name, const long *v, double val, cp_pos pos)
{
    const cp_modeset *ms = c->ms;
    if (v[0] >= ms->n_shares) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no share %ld (the inputs have %d)", name, v[0],
                     ms->n_shares);
        return;
    }
    if (slot_ok(c, name, v[1], pos) && share_ok(c, name, val, pos))
        c->plan->svc_f[(size_t)v[0] * (size_t)c->in->slots + (size_t)v[1]] = fmax(0, val);
}

static void set_u(sol *c, const char *name, const long *v, double val, cp_pos pos)
{
    const cp_input *in = c->in;
    if (v[0] >= in->n_services) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no service %ld (the inputs have %d)", name, v[0],
                     in->n_services);
        return;
    }
    if (v[1] >= in->services[v[0]].n_classes) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: service %ld '%s' has %d class%s", name, v[0],
                     in->services[v[0]].name, in->services[v[0]].n_classes,
                     in->services[v[0]].n_classes == 1 ? "" : "es");
        return;
    }
    if (slot_ok(c, name, v[2], pos) && share_ok(c, name, val, pos))
        *cp_plan_u(c->plan, (int)v[0], (int)v[1], (int)v[2]) = fmax(0, val);
}

bool cp_sol_svc_var(sol *c, const char *name, double val, cp_pos pos)
{
    long v[3];
    if (!strncmp(name, "n_", 2) && cp_sol_parse_ints(name + 2, 2, v))
        set_n(c, name, v, val, pos);
    else if (!strncmp(name, "f_", 2) && cp_sol_parse_ints(name + 2, 2, v))
        set_f(c, name, v, val, pos);
    else if (!strncmp(name, "u_", 2) && cp_sol_parse_ints(name + 2, 3, v))
        set_u(c, name, v, val, pos);
    else if (!strncmp(name, "start_", 6) && cp_sol_parse_ints(name + 6, 2, v)) {
        if (v[0] >= c->ms->n_deps)
            cp_diags_add(c->d, CP_ERR_INPUT, pos, "%s: no deployment %ld (the inputs have %d)",
                         name, v[0], c->ms->n_deps);
        else
            slot_ok(c, name, v[1], pos); /* derived from n: the plan counts its own starts */
    } else
        return false;
    return true;
}

void cp_sol_svc_close(sol *c)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    cp_plan *p = c->plan;
    for (int v = 0; v < in->n_services; v++)
        for (int k = 0; k < in->services[v].n_classes; k++)
            for (int t = 0; t < in->slots; t++) {
                double sum = 0;
                bool load = cp_svc_load(in, v, k, t) > 0;
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
                    if (!load || in->services[v].configs[ms->deps[d].config].rate[k] <= 0)
                        *cp_plan_f(p, d, k, t) = 0; /* a zero the plan writes as 0 */
                    sum += *cp_plan_f(p, d, k, t);
                }
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1] && sum > 1; d++)
                    *cp_plan_f(p, d, k, t) /= sum;
                *cp_plan_u(p, v, k, t) = load ? fmax(0, 1 - fmin(1, sum)) : 0;
            }
}

/* The deployment of entry de of service v, -1 with an error. */
static int plan_dep(sol *c, int v, const cp_plan_svc_dep *de, const char *who)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    if (de->config.has != CP_PLAN_SET || de->resource.has != CP_PLAN_SET ||
        de->mk == CP_PLAN_NO_MARKET)
        return -1; /* the reader said so */
    const char *nm = de->resource.s;
    int i, r = -1;
    if (de->mk == CP_PLAN_POOL && (i = cp_input_find_pool(in, nm)) >= 0)
        r = ms->res_of_pool[i];
    else if (de->mk != CP_PLAN_POOL && (i = cp_input_find_offer(in, nm)) >= 0)
        r = de->mk == CP_PLAN_SPOT ? ms->spot_of_offer[i] : ms->ondemand_of_offer[i];
    if (r < 0) {
        cp_diags_add(c->d, CP_ERR_INPUT, de->resource.pos, "%s: no %s market '%s'", who,
                     de->market.s ? de->market.s : "", nm);
        return -1;
    }
    int d = de->config.v < in->services[v].n_configs ? cp_deploy_find(ms, v, (int)de->config.v, r) : -1;
    if (d < 0)
        cp_diags_add(c->d, CP_ERR_INPUT, de->pos,
                     "%s: configuration %ld on '%s' is not a deployment of the service", who,
                     de->config.v, ms->res[r].id);
    return d;
}

/* Service v's plan entry e: replicas per deployment, shares per class. */
static void plan_service(sol *c, int v, const cp_plan_svc *e, int *map)
{
    const cp_service *sv = &c->in->services[v];
    int T = c->in->slots;
    char who[400];
    for (int i = 0; i < e->n_deps; i++) {
        const cp_plan_svc_dep *de = &e->deps[i];
        snprintf(who, sizeof who, "service '%s' deployment %d", sv->name, i + 1);
        map[i] = plan_dep(c, v, de, who);
        for (int q = 0; q < i && map[i] >= 0; q++)
            if (map[q] == map[i]) {
                cp_diags_add(c->d, CP_ERR_INPUT, de->pos, "%s is listed twice", who);
                map[i] = -1;
            }
        for (int t = 0; map[i] >= 0 && de->replicas.has == CP_PLAN_SET && t < de->replicas.n && t < T; t++)
            if (!isnan(de->replicas.v[t]) &&
                most_ok(c, who, map[i], (long)de->replicas.v[t], de->replicas.at[t]))
                *cp_plan_n(c->plan, map[i], t) = (int)de->replicas.v[t];
    }
    for (int i = 0; i < e->n_routes; i++) {
        const cp_plan_svc_route *ro = &e->routes[i];
        int k = 0;
        while (ro->cls.has == CP_PLAN_SET && k < sv->n_classes && strcmp(sv->classes[k].name, ro->cls.s))
            k++;
        if (ro->cls.has != CP_PLAN_SET || k == sv->n_classes) {
            if (ro->cls.has == CP_PLAN_SET)
                cp_diags_add(c->d, CP_ERR_INPUT, ro->cls.pos, "service '%s': unknown class '%s'",
                             sv->name, ro->cls.s);
            continue;
        }
        for (int t = 0; t < T && t < ro->n_shares; t++) {
            const cp_plan_series *sh = &ro->shares[t];
            if (sh->has != CP_PLAN_SET || sh->n != e->n_deps) {
                if (sh->has == CP_PLAN_SET)
                    cp_diags_add(c->d, CP_ERR_INPUT, sh->pos,
                                 "service '%s' class '%s': shares[%d] has %d values for %d "
                                 "deployments", sv->name, sv->classes[k].name, t, sh->n, e->n_deps);
                continue;
            }
            for (int q = 0; q < sh->n; q++)
                if (map[q] >= 0 && !isnan(sh->v[q]) &&
                    share_ok(c, "a share", sh->v[q], sh->at[q]))
                    *cp_plan_f(c->plan, map[q], k, t) = fmax(0, sh->v[q]);
        }
    }
}

void cp_sol_svc_read_plan(sol *c, const cp_plan_file *pf)
{
    const cp_input *in = c->in;
    int most = 1;
    for (int i = 0; i < pf->n_svcs; i++)
        most = pf->svcs[i].n_deps > most ? pf->svcs[i].n_deps : most;
    int *map = cp_malloc((size_t)most * sizeof *map);
    bool *seen = cp_calloc((size_t)(in->n_services ? in->n_services : 1), sizeof *seen);
    if (!map || !seen) {
        cp_diags_add(c->d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    for (int i = 0; i < pf->n_svcs; i++) {
        const cp_plan_svc *e = &pf->svcs[i];
        if (e->name.has != CP_PLAN_SET)
            continue;
        int v = cp_input_find_service(in, e->name.s);
        if (v < 0 || seen[v]) {
            cp_diags_add(c->d, CP_ERR_INPUT, e->name.pos, "%s service '%s'",
                         v < 0 ? "unknown" : "a second entry for", e->name.s);
            continue;
        }
        seen[v] = true;
        plan_service(c, v, e, map);
    }
    for (int v = 0; v < in->n_services; v++)
        if (!seen[v])
            cp_diags_add(c->d, CP_ERR_INPUT, pf->svc_list.has ? pf->svc_list.pos : pf->pos,
                         "service '%s' is missing from the plan's services", in->services[v].name);
out:
    cp_free(map);
    cp_free(seen);
}
