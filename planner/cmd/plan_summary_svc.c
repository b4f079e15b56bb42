/*
 * `capplan plan`'s summary of services (capplan.5 §10.4): per service its
 * cost and unserved requests, its load per slot (all classes) and, per
 * deployment that holds a replica, the replicas per slot: the mix of
 * configurations following the load. Up to 24 slots are shown one by
 * one; longer horizons show the least and the most. Names go through
 * cp_fputs_printable: an input's name must not drive the terminal.
 */
#include "cp_plan_summary.h"

#include "cp_alloc.h"

#include <math.h>
#include <string.h>

#define SHOWN_SLOTS 24
#define LABEL_WIDTH 34

/* The values of a row after its label (printed, `len` bytes wide). */
static void row(FILE *f, size_t len, const double *v, int T)
{
    fprintf(f, "%*s", len < LABEL_WIDTH ? (int)(LABEL_WIDTH - len) : 0, "");
    if (T <= SHOWN_SLOTS) {
        for (int t = 0; t < T; t++)
            fprintf(f, " %5g", round(v[t] * 10) / 10);
    } else {
        double lo = INFINITY, hi = -INFINITY;
        for (int t = 0; t < T; t++)
            lo = fmin(lo, v[t]), hi = fmax(hi, v[t]);
        fprintf(f, " %g..%g", round(lo * 10) / 10, round(hi * 10) / 10);
    }
    fputc('\n', f);
}

static void deployments(const cp_plan *p, int s, double *v, FILE *f)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    const cp_service *sv = &in->services[s];
    for (int d = ms->svc_first[s]; d < ms->svc_first[s + 1]; d++) {
        const cp_deploy *dp = &ms->deps[d];
        const cp_svc_config *cf = &sv->configs[dp->config];
        const cp_resource *r = &ms->res[dp->res];
        bool any = false;
        for (int t = 0; t < p->slots; t++)
            any |= (v[t] = *cp_plan_n(p, d, t)) > 0;
        if (!any)
            continue;
        const char *acc = in->accels[cf->acc].name, *spot = r->kind == CP_RES_SPOT ? " spot" : "";
        int w = fprintf(f, "      %d x ", cf->count);
        cp_fputs_printable(acc, false, f);
        fputs(" on ", f);
        cp_fputs_printable(r->name, false, f);
        fputs(spot, f);
        row(f, (size_t)(w > 0 ? w : 0) + strlen(acc) + 4 + strlen(r->name) + strlen(spot), v, p->slots);
    }
}

void cp_plan_summary_services(const cp_plan *p, const cp_plan_figures *fig, FILE *f)
{
    const cp_input *in = p->in;
    int T = p->slots;
    if (!in->n_services)
        return;
    double *v = cp_calloc((size_t)T, sizeof *v);
    if (!v)
        return;
    fprintf(f, "  services (%s):\n", T <= SHOWN_SLOTS ? "per slot" : "least..most per slot");
    for (int s = 0; s < in->n_services; s++) {
        const cp_service *sv = &in->services[s];
        double req = 0;
        for (int k = 0; k < sv->n_classes; k++)
            for (int t = 0; t < T; t++)
                req += cp_svc_load(in, s, k, t) * 3600 * in->slot_hours;
        fputs("    ", f);
        cp_fputs_printable(sv->name, false, f);
        fprintf(f, ": $%.2f, %.0f requests unserved (%.2f%%)\n", fig->svc_cost[s],
                fig->svc_unserved[s], req > 0 ? 100 * fig->svc_unserved[s] / req : 0);
        for (int t = 0; t < T; t++) {
            v[t] = 0;
            for (int k = 0; k < sv->n_classes; k++)
                v[t] += cp_svc_load(in, s, k, t);
        }
        fputs("      load (requests/s)", f);
        row(f, 23, v, T);
        deployments(p, s, v, f);
    }
    cp_free(v);
}
