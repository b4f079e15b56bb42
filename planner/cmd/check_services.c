/*
 * `capplan check`: each service (capplan.5 §10.4) as the planner sees
 * it: its classes and their load, its configurations with the rate of
 * each class, and the deployments (resources) each has, or that it has
 * none.
 */
#include "cp_check_modes.h"

#include <math.h>

static void print_range(FILE *f, const cp_series *s, int T)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int t = 0; t < (s->n == 1 ? 1 : T); t++) {
        lo = fmin(lo, cp_series_at(s, t));
        hi = fmax(hi, cp_series_at(s, t));
    }
    if (lo == hi)
        fprintf(f, "%g", lo);
    else
        fprintf(f, "%g-%g", lo, hi);
}

static void print_config(FILE *f, const cp_input *in, const cp_modeset *ms, int v, int c)
{
    const cp_service *sv = &in->services[v];
    const cp_svc_config *cf = &sv->configs[c];
    fprintf(f, "    replicas[%d]: %d x %s, %g cpus, %g GB; rate", c, cf->count,
            in->accels[cf->acc].name, cf->cpus, cf->memory_gb);
    const char *sep = " ";
    for (int k = 0; k < sv->n_classes; k++)
        if (cf->rate[k] > 0) {
            fprintf(f, "%s%s %g/s", sep, sv->classes[k].name, cf->rate[k]);
            sep = ", ";
        }
    fprintf(f, "\n      on:");
    int n = 0;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
        const cp_deploy *dp = &ms->deps[d];
        if (dp->config != c)
            continue;
        const cp_resource *r = &ms->res[dp->res];
        fprintf(f, "%s %s%s", n ? "," : "", r->name,
                r->kind == CP_RES_SPOT ? " spot" : r->kind == CP_RES_ONDEMAND ? " on-demand" : "");
        if (dp->avail < 1)
            fprintf(f, " (available %g)", dp->avail);
        n++;
    }
    if (!n)
        fprintf(f, " nothing: no pool or market its placement allows has a node or instance of "
                   "%s that holds one replica",
                in->accels[cf->acc].name);
    fprintf(f, "\n");
}

void cp_check_services(FILE *f, const cp_input *in, const cp_modeset *ms)
{
    if (!in->n_services)
        return;
    fprintf(f, "\nservices (%d):\n", in->n_services);
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        int deps = ms->svc_first[v + 1] - ms->svc_first[v];
        fprintf(f, "  %s: %d class%s, %d configuration%s, %d deployment%s; min_replicas ", sv->name,
                sv->n_classes, sv->n_classes == 1 ? "" : "es", sv->n_configs,
                sv->n_configs == 1 ? "" : "s", deps, deps == 1 ? "" : "s");
        print_range(f, &sv->min_replicas, in->slots);
        fprintf(f, ", start $%g, unserved $%g/request", sv->start_cost, sv->unserved_penalty);
        if (sv->team >= 0)
            fprintf(f, ", team %s", in->teams[sv->team].name);
        fprintf(f, "\n");
        for (int k = 0; k < sv->n_classes; k++) {
            fprintf(f, "    class %s: ", sv->classes[k].name);
            print_range(f, &sv->classes[k].load, in->slots);
            fprintf(f, " requests/s\n");
        }
        for (int c = 0; c < sv->n_configs; c++)
            print_config(f, in, ms, v, c);
    }
}
