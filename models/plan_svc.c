/*
 * What a plan's services entry (capplan.5 §10.4) routes to each of its
 * deployments, from the inputs' loads: the figure export services writes
 * (requests_per_s) and the report draws, computed once here.
 */
#include "cp_input.h"
#include "cp_plan_read.h"

#include <math.h>
#include <string.h>

double cp_plan_svc_served(const cp_input *in, int v, const cp_plan_svc *e, int i, int t)
{
    const cp_service *sv = &in->services[v];
    double x = 0;
    for (int r = 0; r < e->n_routes; r++) {
        const cp_plan_svc_route *ro = &e->routes[r];
        int k = 0;
        while (ro->cls.s && k < sv->n_classes && strcmp(sv->classes[k].name, ro->cls.s))
            k++;
        if (!ro->cls.s || k == sv->n_classes || t >= ro->n_shares || i >= ro->shares[t].n ||
            isnan(ro->shares[t].v[i]) || !sv->classes[k].load.v)
            continue;
        x += cp_series_at(&sv->classes[k].load, t) * ro->shares[t].v[i];
    }
    return x;
}
