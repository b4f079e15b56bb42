/*
 * Deployments of services (capplan.5 §10.4): for every service, every
 * (configuration c, resource r) where r passes the service's placement
 * rules, r's accelerator type is c's, one replica fits one node or
 * instance (count <= accelerators, cpus and memory_gb within the unit),
 * and r is a spot market only when the service is preemptible. Each
 * carries what one replica takes, its availability factor (a spot
 * replica is down for restart_minutes after each interruption) and the
 * busy power of one replica serving its full rate on a pool. The planner
 * and the verifier both take deployments from here, as they do modes.
 */
#include "cp_modes.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>

/* The packing's tolerance (cp_mode_fits): a replica filling a unit fits. */
#define FIT_EPS 1e-9

static bool replica_fits(const cp_svc_config *cf, const cp_machine *m)
{
    return m->acc == cf->acc && cf->count <= m->accelerators && cf->cpus <= m->cpus + FIT_EPS &&
           cf->memory_gb <= m->memory_gb + FIT_EPS;
}

double cp_svc_load(const cp_input *in, int v, int k, int t)
{
    const cp_series *s = &in->services[v].classes[k].load;
    return s->v ? cp_series_at(s, t) : 0;
}

int cp_deploys_build(const cp_input *in, cp_modeset *ms)
{
    ms->svc_first = cp_calloc((size_t)in->n_services + 1, sizeof(int));
    ms->class_first = cp_calloc((size_t)in->n_services + 1, sizeof(int));
    if (!ms->svc_first || !ms->class_first)
        return CP_ERR_NOMEM;
    size_t cap = 0;
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        ms->svc_first[v] = ms->n_deps;
        ms->class_first[v] = ms->n_classes;
        ms->n_classes += sv->n_classes;
        for (int c = 0; c < sv->n_configs; c++) {
            const cp_svc_config *cf = &sv->configs[c];
            for (int r = 0; r < ms->n_res; r++) {
                const cp_resource *res = &ms->res[r];
                if (!cp_placement_allows(in, &sv->placement, sv->preemptible, res) ||
                    !replica_fits(cf, res->mach))
                    continue;
                if (CP_GROW(ms->deps, cap, (size_t)ms->n_deps + 1))
                    return CP_ERR_NOMEM;
                cp_deploy *d = &ms->deps[ms->n_deps++];
                d->svc = v;
                d->config = c;
                d->res = r;
                d->avail = 1;
                if (res->kind == CP_RES_SPOT) {
                    double lam = in->offers[res->index].spot_interruptions_per_hour;
                    d->avail = 1 - fmin(1, lam * sv->restart_minutes / 60);
                }
                d->demand[CP_DIM_ACC] = cf->count;
                d->demand[CP_DIM_CPU] = cf->cpus;
                d->demand[CP_DIM_MEM] = cf->memory_gb;
                d->busy_w = 0;
                if (res->kind == CP_RES_POOL) {
                    const cp_machine *m = res->mach;
                    const cp_accel *a = &in->accels[cf->acc];
                    d->busy_w = cf->count * (a->power_w - a->idle_power_w);
                    if (m->cpus > 0)
                        d->busy_w += cf->cpus * (m->power_w - m->idle_power_w) / m->cpus;
                }
            }
        }
    }
    ms->svc_first[in->n_services] = ms->n_deps;
    ms->class_first[in->n_services] = ms->n_classes;
    if (!(ms->dep_share = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1), sizeof(int))))
        return CP_ERR_NOMEM;
    for (int d = 0; d < ms->n_deps; d++) {
        ms->dep_share[d] = ms->n_shares;
        ms->n_shares += in->services[ms->deps[d].svc].n_classes;
    }
    return CP_OK;
}

int cp_deploy_find(const cp_modeset *ms, int v, int c, int r)
{
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
        if (ms->deps[d].config == c && ms->deps[d].res == r)
            return d;
    return -1;
}

/* The replicas of deployment d that its resource holds in slot t, with
 * nothing else on it: nodes available (a market: its quota) times the
 * replicas one unit holds. */
static double held(const cp_input *in, const cp_modeset *ms, int d, int t)
{
    const cp_deploy *dp = &ms->deps[d];
    const cp_resource *r = &ms->res[dp->res];
    double per = INFINITY;
    for (int k = 0; k < CP_DIMS; k++)
        if (dp->demand[k] > 0)
            per = fmin(per, floor(cp_machine_dim(r->mach, k) / dp->demand[k] + FIT_EPS));
    double units = r->kind == CP_RES_POOL ? cp_series_at(&in->pools[r->index].available, t)
                                          : cp_market_quota(in, r, t);
    return units <= 0 ? 0 : isinf(per) ? INFINITY : units * per;
}

int cp_svc_contradictions(const cp_input *in, const cp_modeset *ms, cp_diags *d, char *first,
                          size_t first_size)
{
    int found = 0;
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        for (int t = 0; t < in->slots; t++) {
            double need = cp_series_at(&sv->min_replicas, t), most = 0;
            int best = -1;
            for (int k = ms->svc_first[v]; k < ms->svc_first[v + 1]; k++) {
                double h = held(in, ms, k, t);
                most += h;
                if (best < 0 || h > held(in, ms, best, t))
                    best = k;
            }
            if (!(most < need))
                continue;
            /* the series' own node when given, else the service's */
            cp_pos pos = sv->min_replicas.set ? sv->min_replicas.pos : sv->pos;
            char msg[400];
            if (best < 0)
                snprintf(msg, sizeof msg,
                         "service '%s': min_replicas %g in slot %d, but no resource can host "
                         "a replica of it: no plan can meet min_replicas",
                         sv->name, need, t);
            else
                snprintf(msg, sizeof msg,
                         "service '%s': min_replicas %g in slot %d, but its deployments hold "
                         "at most %g replicas in that slot (the most on one: %g on '%s'): no "
                         "plan can meet min_replicas",
                         sv->name, need, t, most, held(in, ms, best, t),
                         ms->res[ms->deps[best].res].name);
            if (d)
                cp_diags_add(d, CP_ERR_INPUT, pos, "%s", msg);
            if (first && first_size && found == 0) {
                if (pos.file)
                    snprintf(first, first_size, "%s:%d:%d: %s", pos.file, pos.line, pos.col, msg);
                else
                    snprintf(first, first_size, "%s", msg);
            }
            found++;
            break; /* one slot a service: the first */
        }
    }
    return found;
}
