/*
 * The plan file's `services` section (capplan.5 §10.4): per service its
 * cost (capplan.5 §10.1), the requests it leaves unserved, its
 * deployments that hold a replica in some slot (configuration, resource,
 * market, replicas per slot, and the node or instance of each replica
 * once placed), and per class its shares per slot, one per listed
 * deployment in that order, and its unserved share per slot.
 */
#include "cp_plan_write.h"

#include "cp_out.h"

#include <stdio.h>

/* Whether deployment d has a replica in some slot. */
static bool dep_used(const cp_plan *p, int d)
{
    for (int t = 0; t < p->slots; t++)
        if (*cp_plan_n(p, d, t) > 0)
            return true;
    return false;
}

static void deployment(cp_out *o, const cp_plan *p, int d)
{
    const cp_deploy *dep = &p->ms->deps[d];
    const cp_resource *r = &p->ms->res[dep->res];
    cp_out_map(o);
    cp_out_key(o, "config");
    cp_out_int(o, dep->config);
    cp_out_key(o, "resource");
    cp_out_str(o, r->name);
    cp_out_key(o, "market");
    cp_out_word(o, r->kind == CP_RES_POOL ? "pool" : r->kind == CP_RES_SPOT ? "spot" : "on_demand");
    cp_out_key(o, "replicas");
    cp_out_seq(o, true);
    for (int t = 0; t < p->slots; t++)
        cp_out_int(o, *cp_plan_n(p, d, t));
    cp_out_end(o);
    if (p->svc_unit) {
        cp_out_key(o, "nodes");
        cp_out_seq(o, false);
        for (int t = 0; t < p->slots; t++) {
            size_t c = (size_t)d * (size_t)p->slots + (size_t)t;
            cp_out_seq(o, true);
            for (size_t i = p->svc_unit_off[c]; i < p->svc_unit_off[c + 1]; i++) {
                char id[CP_NAME_MAX + 40];
                snprintf(id, sizeof id, "%s/%d", r->id, p->svc_unit[i]);
                cp_out_str(o, id);
            }
            cp_out_end(o);
        }
        cp_out_end(o);
    }
    cp_out_end(o);
}

static void service_entry(cp_out *o, const cp_plan *p, const cp_plan_figures *f, int v)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    const cp_service *sv = &in->services[v];
    cp_out_map(o);
    cp_out_key(o, "name");
    cp_out_str(o, sv->name);
    cp_out_key(o, "cost");
    cp_out_num(o, f->svc_cost[v]);
    cp_out_key(o, "unserved_requests");
    cp_out_num(o, f->svc_unserved[v]);
    cp_out_key(o, "deployments");
    cp_out_seq(o, false);
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
        if (dep_used(p, d))
            deployment(o, p, d);
    cp_out_end(o);
    cp_out_key(o, "routing");
    cp_out_seq(o, false);
    for (int k = 0; k < sv->n_classes; k++) {
        cp_out_map(o);
        cp_out_key(o, "class");
        cp_out_str(o, sv->classes[k].name);
        cp_out_key(o, "shares");
        cp_out_seq(o, false);
        for (int t = 0; t < p->slots; t++) {
            cp_out_seq(o, true);
            for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
                if (dep_used(p, d))
                    cp_out_num(o, *cp_plan_f(p, d, k, t));
            cp_out_end(o);
        }
        cp_out_end(o);
        cp_out_key(o, "unserved");
        cp_out_seq(o, true);
        for (int t = 0; t < p->slots; t++)
            cp_out_num(o, *cp_plan_u(p, v, k, t));
        cp_out_end(o);
        cp_out_end(o);
    }
    cp_out_end(o);
    cp_out_end(o);
}

void cp_plan_write_services(cp_out *o, const cp_plan *p, const cp_plan_figures *f)
{
    if (!p->in->n_services)
        return;
    cp_out_key(o, "services");
    cp_out_seq(o, false);
    for (int v = 0; v < p->in->n_services; v++)
        service_entry(o, p, f, v);
    cp_out_end(o);
}
