/*
 * The input and the modes a re-plan is solved on (capplan.5 §10.5; see
 * cp_replan.h). Every method honours a re-plan because of what it is
 * given, not because it knows about one:
 *
 * - free and broken jobs are released at S, and a broken training job's
 *   work is its work_left, so no search can start them before S;
 * - a started job has one mode, OLD's, at OLD's start (built on a job
 *   released at that start, with no deadline, placement rule or
 *   predecessor, which the history does not re-check: §10.6);
 * - history (slots < S) is relaxed so OLD's runs there always fit: only
 *   started jobs and OLD's replicas run there and both are fixed, so its
 *   rows can bind no choice; the view raises a pool's available nodes
 *   there to what the started jobs and OLD's replicas hold (the baseline
 *   of such a slot changes only when the inputs took nodes away before
 *   S, and the plan is costed on the real inputs), markets' quotas to
 *   OLD's instances, and lifts power caps and team quotas;
 * - with a change penalty P, OLD's (mode, start) of a changeable job is a
 *   mode of its own that costs -P (`change`), the constant P of each such
 *   job aside: a per-mode cost every method already prices, as egress.
 *
 * The view borrows the input's strings and per-entity arrays it does not
 * change; what it changes it owns (listed in `owned`).
 */
#include "cp_replan.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Nothing the history could hold reaches this. */
#define UNLIMITED 1e18

typedef struct rview {
    cp_input in; /* first: a view is passed as its cp_input */
    void **owned;
    size_t n_owned, cap;
} rview;

void cp_replan_view_free(cp_input *in)
{
    rview *v = (rview *)in;
    if (!v)
        return;
    for (size_t i = 0; i < v->n_owned; i++)
        cp_free(v->owned[i]);
    cp_free(v->owned);
    cp_free(v);
}

static void *own(rview *v, void *p)
{
    if (!p)
        return NULL;
    if (CP_GROW(v->owned, v->cap, v->n_owned + 1)) {
        cp_free(p);
        return NULL;
    }
    v->owned[v->n_owned++] = p;
    return p;
}

static void *dup_array(rview *v, const void *a, size_t n, size_t size)
{
    void *p = own(v, cp_calloc(n ? n : 1, size));
    if (p && n)
        memcpy(p, a, n * size);
    return p;
}

/* s as one value per slot (owned by the view), so slots may differ. */
static bool widen(rview *v, cp_series *s, int T)
{
    double *x = own(v, cp_calloc((size_t)T, sizeof *x));
    if (!x)
        return false;
    for (int t = 0; t < T; t++)
        x[t] = cp_series_at(s, t);
    s->v = x;
    s->n = T;
    return true;
}

static bool raise_to(rview *v, cp_series *s, int T, int t, double at_least)
{
    if (cp_series_at(s, t) >= at_least)
        return true;
    if (s->n != T && !widen(v, s, T))
        return false;
    s->v[t] = at_least;
    return true;
}

/* The jobs as the search sees them. */
static bool view_jobs(rview *v, const cp_replan *rp)
{
    cp_input *in = &v->in;
    cp_job *jobs = dup_array(v, in->jobs, (size_t)in->n_jobs, sizeof *jobs);
    if (!jobs)
        return false;
    double now_h = rp->now * in->slot_hours;
    for (int j = 0; j < in->n_jobs; j++) {
        const cp_replan_job *rj = &rp->job[j];
        cp_job *jb = &jobs[j];
        if (rj->kind == CP_REPLAN_STARTED) {
            jb->release_hour = rj->old.start * in->slot_hours;
            jb->deadline_hour = in->slots * in->slot_hours;
            jb->has_deadline = false;
            memset(&jb->placement, 0, sizeof jb->placement);
            jb->placement.cloud = jb->placement.on_prem = true;
            jb->after = NULL;
            jb->n_after = 0;
            continue;
        }
        if (jb->release_hour < now_h)
            jb->release_hour = now_h;
        jb->work = rj->work;
    }
    in->jobs = jobs;
    return true;
}

/* Pools: at least the nodes OLD's started jobs and replicas hold in each
 * slot < S. */
static bool view_pools(rview *v, const cp_replan *rp, const cp_modeset *ms)
{
    cp_input *in = &v->in;
    cp_pool *pools = dup_array(v, in->pools, (size_t)in->n_pools, sizeof *pools);
    if (!pools)
        return false;
    in->pools = pools;
    for (int j = 0; j < in->n_jobs; j++) {
        const cp_replan_job *rj = &rp->job[j];
        if (rj->kind != CP_REPLAN_STARTED || ms->res[rj->old.res].kind != CP_RES_POOL)
            continue;
        cp_pool *p = &pools[ms->res[rj->old.res].index];
        int need = 0;
        for (int q = 0; q < rj->n_units; q++)
            need = rj->units[q] + 1 > need ? rj->units[q] + 1 : need;
        if (!rj->units) /* no nodes in OLD: every node up, the aggregate fits */
            need = p->nodes;
        for (int t = rj->old.start; t < rp->now && t < rj->old.start + rj->old.slots; t++)
            if (!raise_to(v, &p->available, in->slots, t, need > p->nodes ? p->nodes : need))
                return false;
    }
    /* and the nodes of OLD's replicas there (capplan.5 §10.4) */
    for (int d = 0; d < rp->n_deps; d++) {
        const cp_resource *res = &ms->res[ms->deps[d].res];
        if (res->kind != CP_RES_POOL)
            continue;
        cp_pool *p = &pools[res->index];
        for (int t = 0; t < rp->now; t++) {
            size_t c = (size_t)d * rp->slots + t;
            int need = rp->svc_n[c] > 0 ? p->nodes : 0;
            if (rp->svc_unit) {
                need = 0;
                for (size_t i = rp->svc_unit_off[c]; i < rp->svc_unit_off[c + 1]; i++)
                    need = rp->svc_unit[i] + 1 > need ? rp->svc_unit[i] + 1 : need;
            }
            if (need && !raise_to(v, &p->available, in->slots, t, need > p->nodes ? p->nodes : need))
                return false;
        }
    }
    return true;
}

static bool view_limits(rview *v, const cp_replan *rp, const cp_modeset *ms)
{
    cp_input *in = &v->in;
    int T = in->slots;
    cp_offer *offers = dup_array(v, in->offers, (size_t)in->n_offers, sizeof *offers);
    cp_site *sites = dup_array(v, in->sites, (size_t)in->n_sites, sizeof *sites);
    cp_team *teams = dup_array(v, in->teams, (size_t)in->n_teams, sizeof *teams);
    if (!offers || !sites || !teams)
        return false;
    in->offers = offers;
    in->sites = sites;
    in->teams = teams;
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        if (res->kind == CP_RES_POOL)
            continue;
        cp_series *q = res->kind == CP_RES_SPOT ? &offers[res->index].spot_quota
                                                : &offers[res->index].quota;
        for (int t = 0; t < rp->now; t++)
            if (!raise_to(v, q, T, t, rp->y_hist[(size_t)r * rp->now + t]))
                return false;
    }
    for (int s = 0; s < in->n_sites; s++)
        for (int t = 0; t < rp->now && sites[s].power_cap_kw.set; t++)
            if (!raise_to(v, &sites[s].power_cap_kw, T, t, UNLIMITED))
                return false;
    for (int k = 0; k < in->n_teams; k++) {
        cp_team *tm = &teams[k];
        tm->quota = dup_array(v, tm->quota, (size_t)tm->n_quota, sizeof *tm->quota);
        if (!tm->quota)
            return false;
        for (int q = 0; q < tm->n_quota; q++)
            for (int t = 0; t < rp->now; t++)
                if (!raise_to(v, &tm->quota[q].limit, T, t, UNLIMITED))
                    return false;
    }
    return true;
}

int cp_replan_view_new(const cp_input *in, const cp_modeset *ms, const cp_replan *rp,
                       cp_input **out, cp_err *err)
{
    rview *v = cp_calloc(1, sizeof *v);
    if (!v)
        return cp_err_nomem(err);
    v->in = *in;
    /* ms enumerates the resources of `in`: indices and ids are the view's too */
    bool ok = view_jobs(v, rp) && view_pools(v, rp, ms) && view_limits(v, rp, ms);
    if (!ok) {
        cp_replan_view_free(&v->in);
        return cp_err_nomem(err);
    }
    *out = &v->in;
    return CP_OK;
}

static const char *market_word(cp_res_kind k)
{
    return k == CP_RES_POOL ? "pool" : k == CP_RES_ONDEMAND ? "on_demand" : "spot";
}

/* The mode among [first, end) that is OLD's choice c, or -1. */
static int find_mode(const cp_modeset *ms, int first, int end, const cp_replan_choice *c)
{
    for (int m = first; m < end; m++) {
        const cp_mode *md = &ms->modes[m];
        if (md->res == c->res && md->count == c->count && md->shape == c->shape &&
            md->limit == c->limit && md->s_min <= c->start && c->start <= md->s_max)
            return m;
    }
    return -1;
}

static int started_mode(const cp_input *view, const cp_modeset *ms, int j, int first, int end,
                        const cp_replan_job *rj, cp_err *err)
{
    const cp_job *job = &view->jobs[j];
    const cp_resource *res = &ms->res[rj->old.res];
    int m = find_mode(ms, first, end, &rj->old);
    if (m < 0) {
        char why[400] = "";
        bool allowed = false;
        for (int q = 0; q < job->n_counts; q++)
            allowed |= job->counts[q] == rj->old.count;
        if (!allowed)
            snprintf(why, sizeof why, "job '%s' does not allow %d %s", job->name, rj->old.count,
                     job->kind == CP_JOB_TRAINING ? "accelerators" : "machines");
        else if (!cp_mode_exclusion(view, ms, j, rj->old.res, rj->old.count, rj->old.shape,
                                    rj->old.limit, why, sizeof why))
            snprintf(why, sizeof why, "no start at slot %d", rj->old.start);
        cp_err_set(err, CP_ERR_INPUT, job->pos,
                   "OLD is a plan of other inputs: started job '%s' (%d on '%s', %s) is no mode "
                   "under these inputs: %s",
                   job->name, rj->old.count, res->name, market_word(res->kind), why);
        return -1;
    }
    if (ms->modes[m].slots != rj->old.slots) {
        cp_err_set(err, CP_ERR_INPUT, job->pos,
                   "OLD is a plan of other inputs: started job '%s' runs %d slots in OLD, %d "
                   "under these inputs",
                   job->name, rj->old.slots, ms->modes[m].slots);
        return -1;
    }
    return m;
}

int cp_replan_modes(const cp_input *view, const cp_replan *rp, cp_modeset **out, cp_err *err)
{
    cp_modeset *ms = NULL;
    int rc = cp_modes_build(view, &ms, err);
    if (rc)
        return rc;
    /* at most two more modes per job: OLD's split out of its mode */
    size_t cap = (size_t)ms->n_modes + 2 * (size_t)ms->n_jobs + 1;
    cp_mode *modes = cp_calloc(cap, sizeof *modes);
    if (!modes) {
        cp_modeset_free(ms);
        return cp_err_nomem(err);
    }
    int n = 0;
    for (int j = 0; j < ms->n_jobs; j++) {
        const cp_replan_job *rj = &rp->job[j];
        int first = ms->job_first[j], end = ms->job_first[j + 1];
        ms->job_first[j] = n;
        if (rj->kind == CP_REPLAN_STARTED) {
            int m = started_mode(view, ms, j, first, end, rj, err);
            if (m < 0) {
                rc = CP_ERR_INPUT;
                break;
            }
            modes[n] = ms->modes[m];
            modes[n].s_min = modes[n].s_max = rj->old.start;
            n++;
            cp_free(ms->reason[j]);
            ms->reason[j] = NULL;
            continue;
        }
        int keep = rj->changeable && rp->change_penalty > 0 && rj->old.res >= 0
                       ? find_mode(ms, first, end, &rj->old) : -1;
        for (int m = first; m < end; m++) {
            const cp_mode *md = &ms->modes[m];
            if (m != keep) {
                modes[n++] = *md;
                continue;
            }
            int s0 = rj->old.start;
            if (md->s_min < s0) {
                modes[n] = *md;
                modes[n++].s_max = s0 - 1;
            }
            modes[n] = *md;
            modes[n].s_min = modes[n].s_max = s0;
            modes[n++].change = -rp->change_penalty;
            if (s0 < md->s_max) {
                modes[n] = *md;
                modes[n++].s_min = s0 + 1;
            }
        }
    }
    if (rc) {
        cp_free(modes);
        cp_modeset_free(ms);
        return rc;
    }
    ms->job_first[ms->n_jobs] = n;
    cp_free(ms->modes);
    ms->modes = modes;
    ms->n_modes = n;
    ms->replan = rp;
    *out = ms;
    return CP_OK;
}
