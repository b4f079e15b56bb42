/*
 * OLD's services in a re-plan (capplan.5 §10.5; see cp_replan.h): the
 * replicas n, shares f and unserved shares u of every service OLD lists,
 * and the node or instance of each replica, under the deployments, share
 * and class indices of the inputs' modeset. Slots before S are history,
 * which every method keeps; the slots after are OLD's choice, the warm
 * start that gives OLD back when the inputs did not change.
 *
 * A service OLD lists that the inputs no longer have is left out (its
 * instances before S stay in the markets' history, as a cancelled job's
 * do); a service new in the inputs has n, f and u of 0 before S
 * (capplan.5 §10.6). A deployment or class of OLD that the inputs cannot
 * name is an error only where OLD gives it something before S: a
 * replica, a share or an unserved share (docs/spec-notes.md,
 * "Re-planning services"). After S it is simply not OLD's choice any
 * more. OLD's nodes are kept only when OLD placed every replica.
 */
#include "cp_replan.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISMATCH "OLD is a plan of other inputs: "

/* Here rather than in replan.c, which calls this file: OLD's job
 * entries' `nodes` are read with it too. */
int cp_replan_unit_index(const cp_resource *r, const char *id)
{
    size_t n = strlen(r->id);
    if (!id || strncmp(id, r->id, n) || id[n] != '/' || id[n + 1] < '0' || id[n + 1] > '9')
        return -1;
    errno = 0;
    char *end;
    long v = strtol(id + n + 1, &end, 10);
    if (*end || errno || v > 1000000000L)
        return -1;
    return (int)v;
}

/* The deployment of OLD's entry de of service v, or -1 (*why says why). */
static int entry_dep(const cp_input *in, const cp_modeset *ms, int v, const cp_plan_svc_dep *de,
                     char *why, size_t size)
{
    const char *name = de->resource.has == CP_PLAN_SET ? de->resource.s : NULL;
    if (de->config.has != CP_PLAN_SET || !name || de->mk == CP_PLAN_NO_MARKET) {
        snprintf(why, size, "no config, resource and market");
        return -1;
    }
    int r = -1, i;
    if (de->mk == CP_PLAN_POOL && (i = cp_input_find_pool(in, name)) >= 0)
        r = ms->res_of_pool[i];
    else if (de->mk != CP_PLAN_POOL && (i = cp_input_find_offer(in, name)) >= 0)
        r = de->mk == CP_PLAN_SPOT ? ms->spot_of_offer[i] : ms->ondemand_of_offer[i];
    int d = r < 0 || de->config.v < 0 || de->config.v >= in->services[v].n_configs
                ? -1
                : cp_deploy_find(ms, v, (int)de->config.v, r);
    if (d < 0)
        snprintf(why, size, "configuration %ld on %s '%s' is no deployment of it", de->config.v,
                 de->mk == CP_PLAN_POOL ? "pool" : "offer", name);
    return d;
}

/* Whether any of the first `now` values of s is set and not 0. */
static bool any_before(const cp_plan_series *s, int now)
{
    for (int t = 0; s->has == CP_PLAN_SET && t < now && t < s->n; t++)
        if (!isnan(s->v[t]) && s->v[t] != 0)
            return true;
    return false;
}

/* Replicas of entry e into rp->svc_n; map[i] the deployment of its i-th
 * deployment entry (-1: none); *nodes false when one lacks its nodes. */
static int read_replicas(const cp_input *in, const cp_modeset *ms, int v, const cp_plan_svc *e,
                         cp_replan *rp, int *map, bool *nodes, cp_err *err)
{
    const char *sname = in->services[v].name;
    int T = rp->slots;
    for (int i = 0; i < e->n_deps; i++) {
        const cp_plan_svc_dep *de = &e->deps[i];
        char why[400];
        map[i] = entry_dep(in, ms, v, de, why, sizeof why);
        if (map[i] < 0) {
            if (any_before(&de->replicas, rp->now))
                return cp_err_set(err, CP_ERR_INPUT, de->pos,
                                  MISMATCH "service '%s' runs replicas before slot %d on its "
                                           "deployment %d: %s",
                                  sname, rp->now, i + 1, why);
            continue;
        }
        for (int q = 0; q < i; q++)
            if (map[q] == map[i])
                return cp_err_set(err, CP_ERR_INPUT, de->pos,
                                  "service '%s': OLD lists a deployment twice", sname);
        for (int t = 0; t < T && de->replicas.has == CP_PLAN_SET && t < de->replicas.n; t++)
            rp->svc_n[(size_t)map[i] * T + t] =
                isnan(de->replicas.v[t]) ? 0 : cp_num_clamp_int(de->replicas.v[t], 0, INT_MAX);
        *nodes &= de->nodes_has == CP_PLAN_SET && de->n_nodes == T;
    }
    return CP_OK;
}

/* Class routing of entry e into rp->svc_f and rp->svc_u. */
static int read_routes(const cp_input *in, const cp_modeset *ms, int v, const cp_plan_svc *e,
                       cp_replan *rp, const int *map, cp_err *err)
{
    const cp_service *sv = &in->services[v];
    int T = rp->slots;
    for (int i = 0; i < e->n_routes; i++) {
        const cp_plan_svc_route *ro = &e->routes[i];
        int k = 0;
        while (ro->cls.has == CP_PLAN_SET && k < sv->n_classes && strcmp(sv->classes[k].name, ro->cls.s))
            k++;
        bool known = ro->cls.has == CP_PLAN_SET && k < sv->n_classes;
        for (int t = 0; t < T && t < ro->n_shares; t++) {
            const cp_plan_series *sh = &ro->shares[t];
            for (int q = 0; sh->has == CP_PLAN_SET && q < sh->n && q < e->n_deps; q++) {
                double f = sh->v[q];
                if (isnan(f) || f == 0)
                    continue;
                int d = known ? map[q] : -1;
                if (d >= 0 && in->services[v].configs[ms->deps[d].config].rate[k] > 0)
                    rp->svc_f[(size_t)(ms->dep_share[d] + k) * T + t] = f;
                else if (t < rp->now)
                    return cp_err_set(err, CP_ERR_INPUT, sh->at[q],
                                      MISMATCH "service '%s' routes a share before slot %d to a "
                                               "class or deployment the inputs do not have",
                                      sv->name, rp->now);
            }
        }
        if (!known) {
            if (any_before(&ro->unserved, rp->now))
                return cp_err_set(err, CP_ERR_INPUT, ro->pos,
                                  MISMATCH "service '%s' has no class '%s'", sv->name,
                                  ro->cls.has == CP_PLAN_SET ? ro->cls.s : "?");
            continue;
        }
        for (int t = 0; t < T && ro->unserved.has == CP_PLAN_SET && t < ro->unserved.n; t++)
            if (!isnan(ro->unserved.v[t]))
                rp->svc_u[(size_t)(ms->class_first[v] + k) * T + t] = ro->unserved.v[t];
    }
    return CP_OK;
}

/* OLD's nodes of entry e's replicas into rp->svc_unit (offsets set);
 * *placed false when a slot lists another number of ids than replicas. */
static int read_units(const cp_input *in, const cp_modeset *ms, int v, const cp_plan_svc *e,
                      cp_replan *rp, const int *map, bool *placed, cp_err *err)
{
    int T = rp->slots;
    for (int i = 0; i < e->n_deps && *placed; i++) {
        int d = map[i];
        if (d < 0)
            continue;
        const cp_resource *r = &ms->res[ms->deps[d].res];
        for (int t = 0; t < T; t++) {
            const cp_plan_strs *ns = &e->deps[i].nodes[t];
            size_t c = (size_t)d * T + t, n = rp->svc_unit_off[c + 1] - rp->svc_unit_off[c];
            if (ns->has != CP_PLAN_SET || (size_t)ns->n != n) {
                *placed = false;
                return CP_OK;
            }
            for (int q = 0; q < ns->n; q++) {
                int u = cp_replan_unit_index(r, ns->s[q]);
                bool gone = r->kind == CP_RES_POOL && u >= in->pools[r->index].nodes;
                if ((u < 0 || gone) && t < rp->now)
                    return cp_err_set(err, CP_ERR_INPUT, ns->at[q],
                                      MISMATCH "service '%s': '%s' is not a %s of '%s'",
                                      in->services[v].name, ns->s[q] ? ns->s[q] : "",
                                      r->kind == CP_RES_POOL ? "node" : "instance", r->id);
                if (u < 0 || gone) { /* after S: OLD's placement is not kept */
                    *placed = false;
                    return CP_OK;
                }
                rp->svc_unit[rp->svc_unit_off[c] + (size_t)q] = u;
            }
        }
    }
    return CP_OK;
}

/* The input service of each of OLD's entries (-1: gone); a name OLD
 * lists twice is an error. */
static int match(const cp_input *in, const cp_plan_file *old, int *svc, cp_err *err)
{
    for (int i = 0; i < old->n_svcs; i++) {
        const cp_plan_svc *e = &old->svcs[i];
        svc[i] = e->name.has == CP_PLAN_SET ? cp_input_find_service(in, e->name.s) : -1;
        for (int q = 0; q < i && svc[i] >= 0; q++)
            if (svc[q] == svc[i])
                return cp_err_set(err, CP_ERR_INPUT, e->name.pos, "OLD lists service '%s' twice",
                                  e->name.s);
    }
    return CP_OK;
}

int cp_replan_read_services(const cp_input *in, const cp_modeset *ms, const cp_plan_file *old,
                            cp_replan *rp, cp_err *err)
{
    size_t T = (size_t)rp->slots;
    rp->n_deps = ms->n_deps;
    rp->n_shares = ms->n_shares;
    rp->n_classes = ms->n_classes;
    rp->svc_n = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1) * T, sizeof *rp->svc_n);
    rp->svc_f = cp_calloc((size_t)(ms->n_shares ? ms->n_shares : 1) * T, sizeof *rp->svc_f);
    rp->svc_u = cp_calloc((size_t)(ms->n_classes ? ms->n_classes : 1) * T, sizeof *rp->svc_u);
    int most = 1;
    for (int i = 0; i < old->n_svcs; i++)
        most = old->svcs[i].n_deps > most ? old->svcs[i].n_deps : most;
    int *svc = cp_calloc((size_t)(old->n_svcs ? old->n_svcs : 1), sizeof *svc);
    int *map = cp_calloc((size_t)old->n_svcs * (size_t)most + 1, sizeof *map);
    int rc = CP_OK;
    bool placed = in->n_services > 0;
    if (!rp->svc_n || !rp->svc_f || !rp->svc_u || !svc || !map) {
        rc = cp_err_nomem(err);
        goto out;
    }
    if ((rc = match(in, old, svc, err)))
        goto out;
    for (int i = 0; i < old->n_svcs && rc == CP_OK; i++)
        if (svc[i] >= 0 &&
            !(rc = read_replicas(in, ms, svc[i], &old->svcs[i], rp, map + (size_t)i * most,
                                 &placed, err)))
            rc = read_routes(in, ms, svc[i], &old->svcs[i], rp, map + (size_t)i * most, err);
    /* a service OLD does not list has no replica: its cells are empty */
    size_t cells = (size_t)ms->n_deps * T, total = 0;
    if (rc == CP_OK && placed) {
        if (!(rp->svc_unit_off = cp_calloc(cells + 1, sizeof *rp->svc_unit_off))) {
            rc = cp_err_nomem(err);
            goto out;
        }
        for (size_t c = 0; c < cells; c++) {
            rp->svc_unit_off[c] = total;
            total += (size_t)rp->svc_n[c];
        }
        rp->svc_unit_off[cells] = total;
        if (!(rp->svc_unit = cp_calloc(total ? total : 1, sizeof *rp->svc_unit)))
            rc = cp_err_nomem(err);
        for (int i = 0; i < old->n_svcs && rc == CP_OK && placed; i++)
            if (svc[i] >= 0)
                rc = read_units(in, ms, svc[i], &old->svcs[i], rp, map + (size_t)i * most, &placed,
                                err);
    }
    if (rc == CP_OK && !placed) {
        cp_free(rp->svc_unit);
        cp_free(rp->svc_unit_off);
        rp->svc_unit = NULL;
        rp->svc_unit_off = NULL;
    }
out:
    cp_free(svc);
    cp_free(map);
    return rc;
}
