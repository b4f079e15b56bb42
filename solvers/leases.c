/* Leases of a placed plan; see cp_leases.h. The runs come from one
 * sweep over (market, instance, slot) marks, so the cost is linear in the
 * jobs' instance-slots plus a sort of the lease keys. */
#include "cp_leases.h"

#include "cp_alloc.h"

#include <stdlib.h>
#include <string.h>

/* One (market, instance, slot, job) in use. */
typedef struct mark {
    int res, unit, t, job;
} mark;

static int mark_cmp(const void *a, const void *b)
{
    const mark *x = a, *y = b;
    if (x->res != y->res)
        return x->res < y->res ? -1 : 1;
    if (x->unit != y->unit)
        return x->unit < y->unit ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

const char *cp_lease_entry_name(const cp_plan *p, int i)
{
    return i < p->n_jobs ? p->in->jobs[i].name : p->in->services[i - p->n_jobs].name;
}

void cp_leases_release(cp_leases *l)
{
    if (!l)
        return;
    cp_free(l->v);
    cp_free(l->jobs);
    cp_free(l->first);
    memset(l, 0, sizeof *l);
}

/* Appends job j to the lease being built unless it is there already
 * (a job appears once per lease, at its first slot in the run). */
static void lease_add_job(cp_leases *l, cp_lease *cur, int j)
{
    for (int q = cur->first_job; q < cur->first_job + cur->n_jobs; q++)
        if (l->jobs[q] == j)
            return;
    l->jobs[cur->first_job + cur->n_jobs++] = j;
    l->n_jobs++;
}

int cp_leases_build(const cp_plan *p, cp_leases *out)
{
    const cp_modeset *ms = p->ms;
    memset(out, 0, sizeof *out);
    size_t n_marks = 0;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        const cp_mode *m = &ms->modes[p->mode[j]];
        if (ms->res[m->res].kind != CP_RES_POOL)
            n_marks += (size_t)p->n_units[j] * (size_t)m->slots;
    }
    /* capplan.5 §10.4: replicas on markets, as entry n_jobs + service */
    size_t T = (size_t)p->slots;
    for (int d = 0; p->svc_unit && d < ms->n_deps; d++)
        if (ms->res[ms->deps[d].res].kind != CP_RES_POOL)
            n_marks += p->svc_unit_off[(size_t)(d + 1) * T] - p->svc_unit_off[(size_t)d * T];
    mark *mk = cp_calloc(n_marks ? n_marks : 1, sizeof *mk);
    out->first = cp_calloc((size_t)ms->n_res + 1, sizeof *out->first);
    /* at most one lease and one job entry per mark */
    out->v = cp_calloc(n_marks ? n_marks : 1, sizeof *out->v);
    out->jobs = cp_calloc(n_marks ? n_marks : 1, sizeof *out->jobs);
    if (!mk || !out->first || !out->v || !out->jobs) {
        cp_free(mk);
        cp_leases_release(out);
        return CP_ERR_NOMEM;
    }
    size_t q = 0;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        const cp_mode *m = &ms->modes[p->mode[j]];
        if (ms->res[m->res].kind == CP_RES_POOL)
            continue;
        for (int u = 0; u < p->n_units[j]; u++)
            for (int t = p->start[j]; t < p->start[j] + m->slots; t++)
                mk[q++] = (mark){m->res, p->units[j][u], t, j};
    }
    for (int d = 0; p->svc_unit && d < ms->n_deps; d++) {
        const cp_deploy *dp = &ms->deps[d];
        if (ms->res[dp->res].kind == CP_RES_POOL)
            continue;
        for (size_t t = 0; t < T; t++)
            for (size_t i = p->svc_unit_off[(size_t)d * T + t]; i < p->svc_unit_off[(size_t)d * T + t + 1]; i++)
                mk[q++] = (mark){dp->res, p->svc_unit[i], (int)t, p->n_jobs + dp->svc};
    }
    qsort(mk, n_marks, sizeof *mk, mark_cmp);
    cp_lease *cur = NULL;
    for (size_t i = 0; i < n_marks; i++) {
        const mark *a = &mk[i];
        bool extends = cur && cur->res == a->res && cur->unit == a->unit &&
                       (a->t == cur->start + cur->slots - 1 || a->t == cur->start + cur->slots);
        if (!extends) {
            cur = &out->v[out->n++];
            *cur = (cp_lease){a->res, a->unit, a->t, 1, out->n_jobs, 0};
        } else if (a->t == cur->start + cur->slots) {
            cur->slots++;
        }
        lease_add_job(out, cur, a->job);
    }
    /* A lease's entries are in the order they start there (then by
     * index, jobs before services): the marks come sorted by slot, and a
     * job's first mark on an id is its start, since its run on the id is
     * one range of slots that the lease holds whole. */
    for (int l = 0, r = 0; r <= ms->n_res; r++) {
        while (l < out->n && out->v[l].res < r)
            l++;
        out->first[r] = l;
    }
    cp_free(mk);
    return CP_OK;
}
