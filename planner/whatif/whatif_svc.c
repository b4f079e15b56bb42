/*
 * The what-if table's service columns (capplan.5 §10.4): per service of
 * any row, what it costs, its replica-hours and the share of its
 * requests served. A row records its own input's services (what a shard
 * file keeps); the table's columns are their union, first seen first, as
 * for the teams (whatif_run.c).
 */
#include "whatif_internal.h"

#include "cp_alloc.h"
#include "cp_plan.h"

#include <math.h>
#include <string.h>

const char *const cp_wi_svc_head[CP_WI_SVC_N] = {"$", "replica-h", "served %"};
const char *const cp_wi_svc_key[CP_WI_SVC_N] = {"cost", "replica_hours", "served_pct"};

int cp_wi_svc_fill(cp_whatif_row *r, const cp_input *in, const cp_plan *p, const cp_plan_figures *f)
{
    if (!in->n_services)
        return CP_OK;
    const cp_modeset *ms = p->ms;
    double h = in->slot_hours;
    r->svcs = cp_calloc((size_t)in->n_services, sizeof *r->svcs);
    r->svcs_fig = cp_calloc((size_t)in->n_services * CP_WI_SVC_N, sizeof *r->svcs_fig);
    if (!r->svcs || !r->svcs_fig)
        return CP_ERR_NOMEM;
    for (int v = 0; v < in->n_services; v++) {
        const cp_service *sv = &in->services[v];
        if (!(r->svcs[v] = cp_strdup(sv->name)))
            return CP_ERR_NOMEM;
        r->n_svcs++;
        double replica_h = 0, requests = 0;
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
            for (int t = 0; t < p->slots; t++)
                replica_h += *cp_plan_n(p, d, t) * h;
        for (int k = 0; k < sv->n_classes; k++)
            for (int t = 0; t < p->slots; t++)
                requests += cp_svc_load(in, v, k, t) * 3600 * h;
        double *fig = &r->svcs_fig[(size_t)v * CP_WI_SVC_N];
        fig[CP_WI_SVC_COST] = f->svc_cost[v];
        fig[CP_WI_SVC_REPLICA_H] = replica_h;
        fig[CP_WI_SVC_SERVED] = requests > 0 ? 100 * (1 - f->svc_unserved[v] / requests) : 100;
    }
    return CP_OK;
}

static int svc_index(cp_whatif_table *t, const char *name, size_t *cap)
{
    for (int k = 0; k < t->n_svc; k++)
        if (!strcmp(t->svc_names[k], name))
            return k;
    if (CP_GROW(t->svc_names, *cap, (size_t)t->n_svc + 1))
        return -1;
    if (!(t->svc_names[t->n_svc] = cp_strdup(name)))
        return -1;
    return t->n_svc++;
}

int cp_wi_svc_columns(cp_whatif_table *t)
{
    size_t cap = 0;
    for (int i = 0; i < t->n_rows; i++)
        for (int k = 0; k < t->rows[i].n_svcs; k++)
            if (svc_index(t, t->rows[i].svcs[k], &cap) < 0)
                return CP_ERR_NOMEM;
    size_t n = (size_t)t->n_svc * CP_WI_SVC_N;
    for (int i = 0; n && i < t->n_rows; i++) {
        cp_whatif_row *r = &t->rows[i];
        if (!(r->svc_fig = cp_malloc(n * sizeof *r->svc_fig)))
            return CP_ERR_NOMEM;
        for (size_t k = 0; k < n; k++)
            r->svc_fig[k] = NAN;
        for (int k = 0; k < r->n_svcs; k++)
            memcpy(&r->svc_fig[(size_t)svc_index(t, r->svcs[k], &cap) * CP_WI_SVC_N],
                   &r->svcs_fig[(size_t)k * CP_WI_SVC_N], CP_WI_SVC_N * sizeof *r->svc_fig);
    }
    return CP_OK;
}

void cp_wi_svc_row_free(cp_whatif_row *r)
{
    for (int k = 0; k < r->n_svcs; k++)
        cp_free(r->svcs[k]);
    cp_free(r->svcs);
    cp_free(r->svcs_fig);
    cp_free(r->svc_fig);
}

void cp_wi_svc_table_free(cp_whatif_table *t)
{
    for (int k = 0; k < t->n_svc; k++)
        cp_free(t->svc_names[k]);
    cp_free(t->svc_names);
}
