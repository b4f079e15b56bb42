/*
 * Placement of services' replicas (capplan.5 §10.4), after the jobs:
 * each replica in each slot on one node or instance of its deployment's
 * resource, in the room the jobs leave; a re-plan's replicas on OLD's
 * units first (capplan.5 §10.5: always in the history, after it where
 * OLD's units still hold as many replicas as the plan runs there).
 */
#include "placement_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>

/* Room of unit i of pack p in dimension k and slot t (-1: down). */
static double *room_at(const cp_pack *p, int i, int k, int t)
{
    return &p->free[((size_t)i * CP_DIMS + (size_t)k) * (size_t)p->T + (size_t)t];
}

/* A unit of resource r for one replica of demand dem in slot t: on a
 * market an instance in use in t first (no new instance-slot), then an
 * idle used id, then a fresh id; then the least accelerators left, then
 * the lowest id. -1 when none holds it; -2 out of memory. */
static int replica_unit(packer *pk, int r, const double *dem, int t)
{
    cp_pack *p = &pk->pk[r];
    if (p->market && cp_place_ensure_units(pk, r, p->used + 1))
        return -2;
    int top = p->market ? p->used + 1 : p->n, best = -1;
    double best_key = INFINITY;
    /* an instance empty in slot t is one more rented: within the quota
     * (capplan.5 §3.2), as every job's */
    bool may_open = !p->market || p->inuse[t] < cp_market_quota(pk->in, &pk->ms->res[r], t);
    for (int i = 0; i < top && i < p->n; i++) {
        if (p->market && !may_open && !p->cnt[(size_t)i * (size_t)pk->T + (size_t)t])
            continue;
        bool fits = true;
        for (int k = 0; k < CP_DIMS && fits; k++)
            fits = *room_at(p, i, k, t) >= 0 && *room_at(p, i, k, t) + EPS >= dem[k];
        if (!fits)
            continue;
        double key = *room_at(p, i, CP_DIM_ACC, t) - dem[CP_DIM_ACC];
        if (p->market)
            key += p->cnt[(size_t)i * (size_t)pk->T + (size_t)t] ? 0 : i < p->used ? 1e12 : 2e12;
        if (key < best_key) {
            best_key = key;
            best = i;
        }
    }
    return best;
}

/* Replica i of deployment d in slot t on unit u. */
static void put_replica(packer *pk, int d, int t, int i, int u)
{
    cp_plan *plan = pk->plan;
    const cp_deploy *dp = &pk->ms->deps[d];
    cp_pack *p = &pk->pk[dp->res];
    size_t T = (size_t)pk->T;
    plan->svc_unit[plan->svc_unit_off[(size_t)d * T + (size_t)t] + (size_t)i] = u;
    for (int k = 0; k < CP_DIMS; k++)
        *room_at(p, u, k, t) -= dp->demand[k];
    if (p->market) {
        int *c = &p->cnt[(size_t)u * T + (size_t)t];
        if ((*c)++ == 0)
            p->inuse[t]++;
        if (u >= p->used)
            p->used = u + 1;
    }
}

/* A re-plan's replicas on OLD's nodes and instances (capplan.5 §10.5):
 * in the history always (it is not re-checked), after it wherever the
 * plan runs as many replicas as OLD in the slot and OLD's units still
 * hold them, so that a re-plan moves no replica it need not. done[c]
 * marks the cells (d*T+t) placed. */
static int pin_replicas(packer *pk, unsigned char *done)
{
    const cp_replan *rp = pk->ms->replan;
    const cp_plan *plan = pk->plan;
    size_t T = (size_t)pk->T;
    if (!rp || !rp->svc_unit)
        return CP_OK;
    for (int d = 0; d < pk->ms->n_deps && d < rp->n_deps; d++) {
        const cp_deploy *dp = &pk->ms->deps[d];
        cp_pack *p = &pk->pk[dp->res];
        for (int t = 0; t < pk->T; t++) {
            size_t c = (size_t)d * T + (size_t)t;
            const int *old = &rp->svc_unit[rp->svc_unit_off[c]];
            int n = *cp_plan_n(plan, d, t);
            if (!n || n != rp->svc_n[c])
                continue;
            bool hist = cp_replan_is_history(rp, t), ok = true;
            int top = 0, open = 0;
            for (int i = 0; i < n; i++)
                top = old[i] + 1 > top ? old[i] + 1 : top;
            if (p->market && cp_place_ensure_units(pk, dp->res, top))
                return CP_ERR_NOMEM;
            for (int i = 0; i < n && ok && !hist; i++) { /* all of them fit, or none is put */
                int u = old[i];
                double need[CP_DIMS] = {0};
                for (int q = 0; q <= i; q++)
                    if (old[q] == u)
                        for (int k = 0; k < CP_DIMS; k++)
                            need[k] += dp->demand[k];
                ok = u < p->n;
                for (int k = 0; k < CP_DIMS && ok; k++)
                    ok = *room_at(p, u, k, t) >= 0 && *room_at(p, u, k, t) + EPS >= need[k];
                bool first = true;
                for (int q = 0; q < i; q++)
                    first &= old[q] != u;
                if (ok && p->market && first && !p->cnt[(size_t)u * T + (size_t)t])
                    open++;
            }
            if (ok && !hist && p->market && p->inuse[t] + open > cp_market_quota(pk->in, &pk->ms->res[dp->res], t))
                ok = false;
            if (!ok)
                continue;
            for (int i = 0; i < n; i++)
                put_replica(pk, d, t, i, old[i]);
            done[c] = 1;
        }
    }
    return CP_OK;
}

/* capplan.5 §10.4: each replica in each slot on one node or instance of
 * its deployment's resource, after the jobs, in the room they leave.
 * Larger replicas first (a re-plan's on OLD's units before: pin_replicas).
 * A replica no unit holds leaves the plan without
 * replica placement (a note says so); the aggregate rows still hold. */
int cp_place_replicas(packer *pk, cp_buf *note)
{
    cp_plan *plan = pk->plan;
    const cp_modeset *ms = pk->ms;
    size_t T = (size_t)pk->T, cells = (size_t)ms->n_deps * T, total = 0;
    cp_free(plan->svc_unit);
    cp_free(plan->svc_unit_off);
    plan->svc_unit = NULL;
    if (!(plan->svc_unit_off = cp_calloc(cells + 1, sizeof *plan->svc_unit_off)))
        return CP_ERR_NOMEM;
    for (size_t c = 0; c < cells; c++) {
        plan->svc_unit_off[c] = total;
        total += (size_t)plan->svc_n[c];
    }
    plan->svc_unit_off[cells] = total;
    int *order = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1), sizeof *order);
    unsigned char *done = cp_calloc(cells ? cells : 1, 1);
    if (!order || !done || !(plan->svc_unit = cp_calloc(total ? total : 1, sizeof *plan->svc_unit)) ||
        pin_replicas(pk, done)) {
        cp_free(order);
        cp_free(done);
        return CP_ERR_NOMEM;
    }
    for (int d = 0; d < ms->n_deps; d++) {
        int q = d; /* insertion by accelerators, then cpus, descending; stable */
        while (q > 0 && (ms->deps[order[q - 1]].demand[CP_DIM_ACC] < ms->deps[d].demand[CP_DIM_ACC] ||
                         (ms->deps[order[q - 1]].demand[CP_DIM_ACC] == ms->deps[d].demand[CP_DIM_ACC] &&
                          ms->deps[order[q - 1]].demand[CP_DIM_CPU] < ms->deps[d].demand[CP_DIM_CPU]))) {
            order[q] = order[q - 1];
            q--;
        }
        order[q] = d;
    }
    bool all = true;
    for (int q = 0; q < ms->n_deps && all; q++) {
        int d = order[q];
        const cp_deploy *dp = &ms->deps[d];
        for (size_t t = 0; t < T && all; t++)
            for (int i = 0; !done[(size_t)d * T + t] && i < *cp_plan_n(plan, d, (int)t); i++) {
                int u = replica_unit(pk, dp->res, dp->demand, (int)t);
                if (u == -2) {
                    cp_free(order);
                    cp_free(done);
                    return CP_ERR_NOMEM;
                }
                if (u < 0) {
                    all = false;
                    cp_buf_printf(note, "%sservice '%s': a replica on %s in slot %zu fits no node or "
                                  "instance; replicas are not placed",
                                  note->len ? "; " : "", pk->in->services[dp->svc].name,
                                  ms->res[dp->res].id, t);
                    break;
                }
                put_replica(pk, d, (int)t, i, u);
            }
    }
    cp_free(order);
    cp_free(done);
    if (!all) {
        cp_free(plan->svc_unit);
        cp_free(plan->svc_unit_off);
        plan->svc_unit = NULL;
        plan->svc_unit_off = NULL;
    }
    return CP_OK;
}
