/*
 * Concrete placement (capplan.5 §5): each scheduled job gets node ids on its
 * pool or instance ids on its market, per slot, so that no node or
 * instance is over capacity, a job that fits one unit is on one, and a job
 * keeps its units for its whole run.
 *
 * Jobs keep the units the search gave them when those still hold them;
 * the others are packed largest demand first (then by start slot) by the
 * one packing rule of packing.c, which the search's bookkeeping uses too:
 * a job that fits one unit goes on one, chosen by fewest new
 * instance-slots, then best fit; a larger one takes whole units first and
 * its remainder last (the split `verify` reads). On a market at most y(t)
 * distinct instance ids are in use in slot t (ids are labels, version 1.1).
 *
 * When the aggregate plan cannot be packed, the repair packs the job's
 * resource again in order of start, else puts the job where it adds
 * least to the total (repair_job: more instances on its market, a later
 * start, spot, another count or resource) or drops it when its penalty is
 * less. With repairs, a plain best-fit packing of the same choices (what
 * does not pack is dropped) is made too, and the cheaper plan kept, so
 * placement is never dearer than it (docs/place.md, "Repair"). The plan's
 * note says what was changed. At the end each market's y(t) is the number of ids in use, so
 * no instance is paid for that holds nothing.
 */
#include "cp_placement.h"

#include "cp_packing.h"
#include "placement_internal.h"
#include "cp_teams.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_cost.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The plan's y row of market r: the most ids in use per slot. */
static int *y_row(const packer *pk, int r)
{
    return cp_plan_y(pk->plan, r, 0);
}

/* Records units[0..k) as job j's in the plan. */
static int set_units(packer *pk, int j, const int *units, int k)
{
    int *v = cp_calloc((size_t)k, sizeof *v);
    if (!v)
        return CP_ERR_NOMEM;
    memcpy(v, units, (size_t)k * sizeof *v);
    cp_free(pk->plan->units[j]);
    pk->plan->units[j] = v;
    pk->plan->n_units[j] = k;
    return CP_OK;
}

/* Tries to pack job j with mode mi at s within `limit` per slot (markets;
 * NULL on pools); on success takes the units and records them. */
static int try_pack(packer *pk, int j, int mi, int s, const int *limit, bool *ok)
{
    const cp_mode *m = &pk->ms->modes[mi];
    cp_pack *p = &pk->pk[m->res];
    *ok = false;
    /* a market may need ids it has not used yet */
    if (p->market && cp_place_ensure_units(pk, m->res, p->used + m->count + 1))
        return CP_ERR_NOMEM;
    double c;
    int k = cp_pack_choose(p, pk->in, m, s, limit, NULL, pk->pick, pk->amount, &c);
    if (k == 0)
        return CP_OK;
    if (set_units(pk, j, pk->pick, k))
        return CP_ERR_NOMEM;
    cp_pack_apply(p, pk->in, m, s, pk->pick, k, 1, NULL);
    *ok = true;
    return CP_OK;
}

/* Takes job j's share on the nodes or instances the plan already gives it;
 * false, with nothing taken, when they do not hold it. */
static int keep_units(packer *pk, int j, bool *ok)
{
    const cp_mode *m = &pk->ms->modes[pk->plan->mode[j]];
    int k = pk->plan->n_units[j];
    const int *units = pk->plan->units[j];
    cp_pack *p = &pk->pk[m->res];
    *ok = false;
    int top = 0;
    for (int q = 0; q < k; q++) {
        if (units[q] < 0)
            return CP_OK;
        top = units[q] + 1 > top ? units[q] + 1 : top;
    }
    if (p->market && cp_place_ensure_units(pk, m->res, top))
        return CP_ERR_NOMEM;
    const int *limit = p->market ? y_row(pk, m->res) : NULL;
    if (!cp_pack_holds(p, pk->in, m, pk->plan->start[j], limit, units, k))
        return CP_OK;
    cp_pack_apply(p, pk->in, m, pk->plan->start[j], units, k, 1, NULL);
    *ok = true;
    return CP_OK;
}

typedef struct jkey {
    int job, start;
    double size;
} jkey;

static int jkey_cmp(const void *a, const void *b)
{
    const jkey *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

/* Market quotas of r over the run as a limit row (scratch of the packer's
 * quota buffer). */
static const int *quota_row(const packer *pk, int r, int *buf)
{
    for (int t = 0; t < pk->T; t++)
        buf[t] = cp_market_quota(pk->in, &pk->ms->res[r], t);
    return buf;
}

/* Packs job j on market mode mi at s renting what it needs beyond y
 * (within the quota): y(t) rises to the ids in use where they pass it.
 * Undone (nothing taken, y as it was) when the budget says no.
 * *added gets the instance-slots rented. */
static int try_market(packer *pk, int j, int mi, int s, int *qbuf, bool *ok, int *added)
{
    const cp_mode *m = &pk->ms->modes[mi];
    int r = m->res, *y = y_row(pk, r);
    cp_pack *p = &pk->pk[r];
    *added = 0;
    int rc = try_pack(pk, j, mi, s, quota_row(pk, r, qbuf), ok);
    if (rc || !*ok)
        return rc;
    int *saved = cp_calloc((size_t)m->slots, sizeof *saved);
    if (!saved)
        return CP_ERR_NOMEM;
    for (int t = s; t < s + m->slots; t++) {
        saved[t - s] = y[t];
        if (p->inuse[t] > y[t]) {
            *added += p->inuse[t] - y[t];
            y[t] = p->inuse[t];
        }
    }
    if (*added && !cp_plan_is_feasible(pk->plan, NULL, 0)) {
        /* the budget: rent nothing more, and the job is not there */
        cp_pack_apply(p, pk->in, m, s, pk->plan->units[j], pk->plan->n_units[j], -1, NULL);
        for (int t = s; t < s + m->slots; t++)
            y[t] = saved[t - s];
        cp_free(pk->plan->units[j]);
        pk->plan->units[j] = NULL;
        pk->plan->n_units[j] = 0;
        *ok = false;
        *added = 0;
    }
    cp_free(saved);
    return CP_OK;
}

typedef struct onres {
    int job, start;
    double size;
    int *units, n;
} onres;

static int onres_cmp(const void *a, const void *b)
{
    const onres *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

/* Job j (mode mi at s) does not pack beside the jobs already packed on
 * its resource: packs them all again, j among them, in order of start
 * (then largest first), each at its own (mode, start), so nothing costs
 * more. Largest-first packing can leave a whole node free in no slot
 * where jobs of one node each would fit one after another (interval
 * colouring: in order of start first fit never needs more nodes than
 * jobs overlap). *ok false, with every unit as it was, when that does
 * not pack either. */
static int repack(packer *pk, int j, int mi, int s, bool *ok)
{
    const cp_modeset *ms = pk->ms;
    cp_plan *plan = pk->plan;
    int r = ms->modes[mi].res;
    cp_pack *p = &pk->pk[r];
    *ok = false;
    int n = 0;
    for (int i = 0; i < plan->n_jobs; i++)
        n += i != j && plan->mode[i] >= 0 && plan->n_units[i] > 0 && ms->modes[plan->mode[i]].res == r;
    onres *v = cp_calloc((size_t)n + 1, sizeof *v);
    if (!v)
        return CP_ERR_NOMEM;
    int k = 0;
    for (int i = 0; i < plan->n_jobs; i++) {
        if (i == j || plan->mode[i] < 0 || plan->n_units[i] == 0 ||
            ms->modes[plan->mode[i]].res != r || (pk->pinned && pk->pinned[i]))
            continue;
        const cp_mode *m = &ms->modes[plan->mode[i]];
        v[k] = (onres){i, plan->start[i], m->demand[0] * 1e6 + m->demand[1] * 1e3 + m->demand[2],
                       plan->units[i], plan->n_units[i]};
        cp_pack_apply(p, pk->in, m, plan->start[i], v[k].units, v[k].n, -1, NULL);
        plan->units[i] = NULL;
        plan->n_units[i] = 0;
        k++;
    }
    const cp_mode *mj = &ms->modes[mi];
    v[k++] = (onres){j, s, mj->demand[0] * 1e6 + mj->demand[1] * 1e3 + mj->demand[2], NULL, 0};
    qsort(v, (size_t)k, sizeof *v, onres_cmp);
    int rc = CP_OK, done = 0;
    bool all = true;
    for (; done < k && all; done++) {
        int i = v[done].job, m = i == j ? mi : plan->mode[i];
        if ((rc = try_pack(pk, i, m, v[done].start, p->market ? y_row(pk, r) : NULL, &all)))
            break;
    }
    if (rc == CP_OK && all) {
        *ok = true;
        for (int q = 0; q < k; q++)
            cp_free(v[q].units);
    } else {
        /* back as it was: the new packing out, the old units in */
        for (int q = 0; q < k; q++) {
            int i = v[q].job;
            if (plan->n_units[i] > 0) {
                int m = i == j ? mi : plan->mode[i];
                cp_pack_apply(p, pk->in, &ms->modes[m], v[q].start, plan->units[i], plan->n_units[i], -1, NULL);
            }
            cp_free(plan->units[i]);
            plan->units[i] = v[q].units;
            plan->n_units[i] = v[q].n;
            if (i != j && v[q].n > 0)
                cp_pack_apply(p, pk->in, &ms->modes[plan->mode[i]], v[q].start, v[q].units, v[q].n, 1, NULL);
        }
    }
    cp_free(v);
    return rc;
}

/* What job j would add to the total with mode mi at s, packed now: its
 * energy and carbon on a pool; the instance-slots beyond y it rents on a
 * market. INFINITY when it does not pack or the aggregate plan with it
 * is infeasible (pools). Takes nothing. */
static double alt_cost(packer *pk, int j, int mi, int s, int *qbuf)
{
    const cp_mode *m = &pk->ms->modes[mi];
    const cp_resource *res = &pk->ms->res[m->res];
    cp_pack *p = &pk->pk[m->res];
    int save_m = pk->plan->mode[j], save_s = pk->plan->start[j];
    double cost = INFINITY, c;
    if (res->kind == CP_RES_POOL) {
        pk->plan->mode[j] = mi;
        pk->plan->start[j] = s;
        bool agg = cp_plan_is_feasible(pk->plan, NULL, 0);
        pk->plan->mode[j] = save_m;
        pk->plan->start[j] = save_s;
        if (agg && cp_pack_choose(p, pk->in, m, s, NULL, NULL, pk->pick, pk->amount, &c) > 0) {
            cp_run_cost rcost;
            cp_pool_run_cost(pk->in, pk->ms, m, s, &rcost);
            cost = rcost.energy_cost + rcost.carbon_cost + m->egress + m->change; /* §9.3, §10.5 */
        }
        return cost;
    }
    if (cp_place_ensure_units(pk, m->res, p->used + m->count + 1))
        return INFINITY;
    int k = cp_pack_choose(p, pk->in, m, s, quota_row(pk, m->res, qbuf), NULL, pk->pick, pk->amount, &c);
    if (k == 0)
        return INFINITY;
    /* a team's budget counts its share of the market (cp_teams.h) */
    pk->plan->mode[j] = mi;
    pk->plan->start[j] = s;
    bool teams = cp_plan_teams_ok(pk->plan, NULL, 0);
    pk->plan->mode[j] = save_m;
    pk->plan->start[j] = save_s;
    if (!teams)
        return INFINITY;
    const int *y = y_row(pk, m->res);
    cost = m->egress + m->change;
    for (int t = s; t < s + m->slots; t++) {
        int add = 0;
        for (int q = 0; q < k; q++)
            add += pk->pick[q] >= p->used || p->cnt[(size_t)pk->pick[q] * (size_t)pk->T + (size_t)t] == 0;
        if (p->inuse[t] + add > y[t])
            cost += (p->inuse[t] + add - y[t]) * cp_market_slot_cost(pk->in, res, t);
    }
    return cost;
}

/* A re-plan's started jobs first, on OLD's nodes and instances (capplan.5
 * §10.5): *pinned marks those kept there (NULL when not a re-plan). A
 * started job whose units no longer hold it (a pool that lost a node
 * only before S) is packed with the others. */
static int pin_started(packer *pk, unsigned char **pinned)
{
    const cp_replan *rp = pk->ms->replan;
    cp_plan *plan = pk->plan;
    *pinned = NULL;
    if (!rp)
        return CP_OK;
    unsigned char *pin = cp_calloc((size_t)(rp->n_jobs ? rp->n_jobs : 1), 1);
    if (!pin)
        return CP_ERR_NOMEM;
    for (int j = 0; j < rp->n_jobs; j++) {
        const cp_replan_job *rj = &rp->job[j];
        bool kept = false;
        if (rj->kind != CP_REPLAN_STARTED || !rj->units || plan->mode[j] < 0)
            continue;
        int rc = set_units(pk, j, rj->units, rj->n_units);
        if (rc == CP_OK)
            rc = keep_units(pk, j, &kept);
        if (rc) {
            cp_free(pin);
            return rc;
        }
        pin[j] = kept;
    }
    *pinned = pin;
    return CP_OK;
}

/* Drops job j while packing, with its reason. */
static int drop_job(packer *pk, int j, const char *why)
{
    cp_plan *plan = pk->plan;
    plan->mode[j] = -1;
    cp_free(plan->reason[j]);
    plan->reason[j] = cp_strdup(why);
    return plan->reason[j] ? CP_OK : CP_ERR_NOMEM;
}

/* Job j (mode mi at s) does not pack, not even with its resource packed
 * again: it goes where it adds least to the total now (alt_cost: its
 * energy on a pool, the instance-slots beyond y it rents on a market, its
 * egress), over every (mode, start) it has: its own market with more
 * instances, a later start on the same market, the spot market of the
 * same instance type, another count, a pool; or it is dropped when its
 * penalty is less than all of them. With `after` in the input a choice
 * must keep precedence with the jobs' other choices (when they keep it). */
static int repair_job(packer *pk, int j, int mi, int s, int *qbuf, cp_buf *note, int *repairs)
{
    const cp_input *in = pk->in;
    const cp_modeset *ms = pk->ms;
    cp_plan *plan = pk->plan;
    bool prec = cp_input_has_after(in) && cp_plan_precedence_ok(plan);
    int best_m = -1, best_s = 0, added = 0;
    double best_c = INFINITY;
    /* its own (mode, start) first: a tie keeps it there */
    for (int pass = 0; pass < 2; pass++)
        for (int alt = ms->job_first[j]; alt < ms->job_first[j + 1]; alt++) {
            const cp_mode *am = &ms->modes[alt];
            for (int as = am->s_min; as <= am->s_max; as++) {
                if ((pass == 0) != (alt == mi && as == s))
                    continue;
                double c = alt_cost(pk, j, alt, as, qbuf);
                if (!(c < best_c - 1e-12 * (1 + fabs(c))))
                    continue;
                if (prec) {
                    plan->mode[j] = alt;
                    plan->start[j] = as;
                    bool ok = cp_plan_precedence_ok(plan);
                    plan->mode[j] = mi;
                    plan->start[j] = s;
                    if (!ok)
                        continue;
                }
                best_c = c;
                best_m = alt;
                best_s = as;
            }
        }
    double pen = in->jobs[j].drop_penalty;
    bool drop_ok = true;
    if (prec) {
        plan->mode[j] = -1;
        drop_ok = cp_plan_precedence_ok(plan);
        plan->mode[j] = mi;
    }
    (*repairs)++;
    bool ok = false;
    int rc = CP_OK;
    if (best_m >= 0 && !(drop_ok && pen < best_c - 1e-12 * (1 + fabs(pen)))) {
        plan->mode[j] = best_m;
        plan->start[j] = best_s;
        const cp_mode *bm = &ms->modes[best_m];
        if (ms->res[bm->res].kind != CP_RES_POOL)
            rc = try_market(pk, j, best_m, best_s, qbuf, &ok, &added);
        else
            rc = try_pack(pk, j, best_m, best_s, NULL, &ok);
        if (rc)
            return rc;
    }
    const char *sep = note->len ? "; " : "";
    if (ok && best_m == mi && best_s == s)
        cp_buf_printf(note, "%sjob '%s': %d more instance-slot%s of %s to pack it", sep,
                      in->jobs[j].name, added, added == 1 ? "" : "s", ms->res[ms->modes[mi].res].id);
    else if (ok)
        cp_buf_printf(note, "%sjob '%s': moved to %s at slot %d to pack it", sep, in->jobs[j].name,
                      ms->res[ms->modes[best_m].res].id, best_s);
    else if (best_m >= 0 && drop_ok)
        cp_buf_printf(note, "%sjob '%s': dropped, its penalty is less than packing it anywhere",
                      sep, in->jobs[j].name);
    else
        cp_buf_printf(note, "%sjob '%s': dropped, it could not be packed onto nodes", sep,
                      in->jobs[j].name);
    if (ok)
        return CP_OK;
    return drop_job(pk, j,
                    best_m >= 0 && drop_ok
                        ? "dropped while packing nodes: its penalty is less than what it adds to "
                          "the total in any (mode, start) that packs"
                        : "dropped while packing nodes: no node or instance had room for it in "
                          "any of its modes");
}

static int keep_aggregate(cp_plan *plan)
{
    size_t n = (size_t)plan->n_res * (size_t)plan->slots;
    int *ids = cp_calloc(n ? n : 1, sizeof *ids);
    if (!ids)
        return CP_ERR_NOMEM;
    memcpy(ids, plan->y, n * sizeof *ids);
    cp_plan_min_instances(plan);
    for (size_t i = 0; i < n; i++)
        plan->y[i] = plan->y[i] > ids[i] ? plan->y[i] : ids[i];
    cp_free(ids);
    return CP_OK;
}

/* One placement of plan's choices: with `repair`, a job that does not
 * pack where its choice says is repaired (its resource packed again,
 * else repair_job); without it (a plain best-fit packing) it is dropped. */
static int place_pass(cp_plan *plan, bool repair, int *repairs, cp_buf *note)
{
    const cp_input *in = plan->in;
    const cp_modeset *ms = plan->ms;
    packer pk = {in, ms, plan, in->slots, NULL, NULL, NULL, NULL, NULL};
    unsigned char *pinned = NULL;
    int rc = CP_OK;
    *repairs = 0;
    size_t nr = (size_t)(ms->n_res ? ms->n_res : 1), T = (size_t)in->slots;
    int most = 1;
    for (int mi = 0; mi < ms->n_modes; mi++)
        most = ms->modes[mi].count > most ? ms->modes[mi].count : most;
    pk.pk = cp_calloc(nr, sizeof *pk.pk);
    pk.cap = cp_calloc(nr, sizeof *pk.cap);
    pk.pick = cp_calloc((size_t)most + 1, sizeof *pk.pick);
    pk.amount = cp_calloc((size_t)most + 1, sizeof *pk.amount);
    int *qbuf = cp_calloc(T, sizeof *qbuf);
    jkey *keys = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *keys);
    if (!pk.pk || !pk.cap || !pk.pick || !pk.amount || !qbuf || !keys) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    for (int r = 0; r < ms->n_res && rc == CP_OK; r++) {
        const cp_resource *res = &ms->res[r];
        bool market = res->kind != CP_RES_POOL;
        pk.pk[r] = (cp_pack){res->mach, market, in->slots, 0, 0, NULL, NULL, NULL};
        if (market && !(pk.pk[r].inuse = cp_calloc(T, sizeof(int))))
            rc = CP_ERR_NOMEM;
        else if (cp_place_ensure_units(&pk, r, market ? 1 : in->pools[res->index].nodes))
            rc = CP_ERR_NOMEM;
    }
    if (rc == CP_OK && (rc = pin_started(&pk, &pinned)))
        goto out;
    pk.pinned = pinned;
    int nk = 0;
    for (int j = 0; j < in->n_jobs && rc == CP_OK; j++) {
        bool kept = false;
        if (pinned && pinned[j])
            continue;
        if (plan->pool_units && plan->mode[j] >= 0 && plan->n_units[j] > 0 &&
            (rc = keep_units(&pk, j, &kept)) == CP_OK && kept)
            continue; /* packed where the plan was built, on its units */
        cp_free(plan->units[j]);
        plan->units[j] = NULL;
        plan->n_units[j] = 0;
        if (plan->mode[j] < 0)
            continue;
        const cp_mode *m = &ms->modes[plan->mode[j]];
        keys[nk].job = j;
        keys[nk].start = plan->start[j];
        keys[nk].size = m->demand[0] * 1e6 + m->demand[1] * 1e3 + m->demand[2];
        nk++;
    }
    qsort(keys, (size_t)nk, sizeof *keys, jkey_cmp);
    for (int q = 0; q < nk && rc == CP_OK; q++) {
        int j = keys[q].job;
        int mi = plan->mode[j], s = plan->start[j];
        const cp_mode *m = &ms->modes[mi];
        bool market = ms->res[m->res].kind != CP_RES_POOL, ok;
        if ((rc = try_pack(&pk, j, mi, s, market ? y_row(&pk, m->res) : NULL, &ok)) || ok)
            continue;
        if (!repair) {
            (*repairs)++;
            cp_buf_printf(note, "%sjob '%s': dropped, it does not pack where the solution puts it",
                          note->len ? "; " : "", in->jobs[j].name);
            rc = drop_job(&pk, j,
                          "dropped while packing nodes: a plain best-fit packing of the solution, "
                          "cheaper than repairing it, had no room for it");
            continue;
        }
        /* the jobs already on its resource packed again in order of
         * start, with it among them */
        if ((rc = repack(&pk, j, mi, s, &ok)))
            break;
        if (ok) {
            (*repairs)++;
            cp_buf_printf(note, "%sjob '%s': the jobs of %s packed again in order of start to make room for it",
                          note->len ? "; " : "", in->jobs[j].name, ms->res[m->res].id);
            continue;
        }
        rc = repair_job(&pk, j, mi, s, qbuf, note, repairs);
    }
    /* capplan.5 §10.4: the replicas in the room the jobs leave (a replica
     * is one slot on one unit: far easier to fit than a job's run) */
    if (rc == CP_OK && in->n_services)
        rc = cp_place_replicas(&pk, note);
    /* no instance paid for that holds nothing: y(t) is the ids in use */
    for (int r = 0; r < ms->n_res && rc == CP_OK; r++)
        if (pk.pk[r].market)
            for (int t = 0; t < in->slots; t++)
                *cp_plan_y(plan, r, t) = pk.pk[r].inuse[t];
    /* replicas left without ids still take their instances: y holds the
     * aggregate demand of jobs and replicas, and at least the ids in use */
    if (rc == CP_OK && in->n_services && !plan->svc_unit)
        rc = keep_aggregate(plan);
    if (rc == CP_OK)
        cp_plan_keep_history(plan);
out:
    cp_free(pinned);
    plan->placed = rc == CP_OK;
    for (int r = 0; pk.pk && r < ms->n_res; r++) {
        cp_free(pk.pk[r].free);
        cp_free(pk.pk[r].cnt);
        cp_free(pk.pk[r].inuse);
    }
    cp_free(pk.pk);
    cp_free(pk.cap);
    cp_free(pk.pick);
    cp_free(pk.amount);
    cp_free(qbuf);
    cp_free(keys);
    return rc;
}

/* The total of a placed plan (INFINITY when it cannot be costed). */
static double placed_total(const cp_plan *p, int *rc)
{
    cp_plan_figures f;
    cp_err e;
    cp_err_init(&e);
    if ((*rc = cp_plan_eval(p, &f, &e)))
        return INFINITY;
    double t = f.costs.total;
    cp_plan_figures_release(&f);
    return t;
}

int cp_plan_place(cp_plan *plan, int *repairs, cp_err *err)
{
    cp_plan *orig = NULL, *plain = NULL;
    cp_buf note, pnote;
    cp_buf_init(&note);
    cp_buf_init(&pnote);
    bool moved;
    int rc = cp_plan_new(plan->in, plan->ms, &orig);
    if (rc == CP_OK)
        rc = cp_plan_copy(orig, plan);
    if (rc == CP_OK)
        rc = place_pass(plan, true, repairs, &note);
    if (rc == CP_OK && *repairs)
        rc = cp_plan_precedence_final(plan, &moved, err);
    /* never dearer than a plain best-fit packing of the same choices:
     * with repairs, that packing too, and the cheaper one kept */
    if (rc == CP_OK && *repairs) {
        int r2 = 0, e1 = CP_OK, e2 = CP_OK;
        if ((rc = cp_plan_new(plan->in, plan->ms, &plain)) == CP_OK &&
            (rc = cp_plan_copy(plain, orig)) == CP_OK &&
            (rc = place_pass(plain, false, &r2, &pnote)) == CP_OK &&
            (rc = cp_plan_precedence_final(plain, &moved, err)) == CP_OK) {
            double tr = placed_total(plan, &e1), tp = placed_total(plain, &e2);
            if (e1 == CP_ERR_NOMEM || e2 == CP_ERR_NOMEM)
                rc = CP_ERR_NOMEM;
            else if (tp < tr - 1e-9 * (1 + fabs(tr)) && cp_plan_is_feasible(plain, NULL, 0)) {
                /* the same pass again on the plan itself, with its reasons */
                for (int j = 0; j < plan->n_jobs; j++)
                    if (orig->mode[j] >= 0) {
                        cp_free(plan->reason[j]);
                        plan->reason[j] = NULL;
                    }
                cp_buf_reset(&pnote);
                if ((rc = cp_plan_copy(plan, orig)) == CP_OK &&
                    (rc = place_pass(plan, false, repairs, &pnote)) == CP_OK)
                    rc = cp_plan_precedence_final(plan, &moved, err);
                cp_buf_reset(&note);
                cp_buf_printf(&note,
                              "a plain best-fit packing of the solution costs less than "
                              "repairing it (%.2f against %.2f): %s",
                              tp, tr, pnote.s);
            }
        }
    }
    if (rc == CP_OK && note.len) {
        cp_free(plan->note);
        plan->note = cp_buf_detach(&note);
        if (!plan->note)
            rc = CP_ERR_NOMEM;
    }
    cp_buf_release(&note);
    cp_buf_release(&pnote);
    cp_plan_free(orig);
    cp_plan_free(plain);
    if (rc == CP_ERR_NOMEM)
        return cp_err_nomem(err);
    return rc;
}
