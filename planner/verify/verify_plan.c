/*
 * The plan verifier, the plan's choices (see verify_internal.h): the job
 * list (one entry per input job; for each scheduled job, the mode its
 * resource, market and count name, its start slot and the fields derived
 * from them) and the provisioning list, which gives y(t) per market for
 * the later phases. The plan comes read (cp_plan_read.h): keys of the
 * wrong type are the reader's violations already, so here a key is either
 * read, or missing (a violation where the check needs it), or skipped.
 */
#include "verify_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <stdio.h>
#include <string.h>

/* The resource a scheduled job names; -1 (with a violation) when none. */
static int resolve_resource(cp_vf_ctx *c, const cp_plan_job *pj, const char *who)
{
    /* missing or not of a known market: the reader's violations */
    if (pj->resource.has != CP_PLAN_SET || pj->mk == CP_PLAN_NO_MARKET)
        return -1;
    const char *res = pj->resource.s;
    if (pj->mk == CP_PLAN_POOL) {
        int p = cp_input_find_pool(c->in, res);
        if (p < 0) {
            cp_vf_viol(c, pj->resource.pos, "%s: unknown pool '%s'", who, res);
            return -1;
        }
        return c->ms->res_of_pool[p];
    }
    int o = cp_input_find_offer(c->in, res);
    if (o < 0) {
        cp_vf_viol(c, pj->resource.pos, "%s: unknown offer '%s'%s", who, res,
                cp_input_find_pool(c->in, res) >= 0 ? " (a pool of that name has market 'pool')"
                                                    : "");
        return -1;
    }
    if (pj->mk == CP_PLAN_SPOT) {
        if (c->ms->spot_of_offer[o] < 0) {
            cp_vf_viol(c, pj->market.pos, "%s: offer '%s' has no spot market", who, res);
            return -1;
        }
        return c->ms->spot_of_offer[o];
    }
    return c->ms->ondemand_of_offer[o];
}

/* The plan's power_limit_w as an index into the job's limits (-1: none,
 * when the key is absent); false with a violation when the job lists no
 * such limit for the resource's accelerator type. */
static bool plan_limit(cp_vf_ctx *c, const cp_job *j, const cp_plan_job *pj,
                       const cp_resource *r, const char *who, int *limit)
{
    *limit = -1;
    if (pj->power_limit_w.has != CP_PLAN_SET)
        return true;
    double w = pj->power_limit_w.v;
    int acc = r->mach->acc;
    cp_buf listed;
    cp_buf_init(&listed);
    for (int i = 0; i < j->n_power_limits; i++) {
        if (j->power_limits[i].acc != acc)
            continue;
        if (j->power_limits[i].limit_w == w) {
            *limit = i;
            cp_buf_release(&listed);
            return true;
        }
        cp_buf_printf(&listed, "%s%s", listed.len ? ", " : "", cp_vf_n(j->power_limits[i].limit_w).s);
    }
    if (acc < 0)
        cp_vf_viol(c, pj->power_limit_w.pos, "%s: power_limit_w %s on '%s', which carries no "
                                             "accelerator", who, cp_vf_n(w).s, r->name);
    else if (!listed.len)
        cp_vf_viol(c, pj->power_limit_w.pos, "%s: power_limit_w %s: the job lists no power limits "
                                             "for %s", who, cp_vf_n(w).s, c->in->accels[acc].name);
    else
        cp_vf_viol(c, pj->power_limit_w.pos, "%s: power_limit_w %s is not one of the job's limits "
                                             "for %s (%s W)", who, cp_vf_n(w).s,
                   c->in->accels[acc].name, listed.s);
    cp_buf_release(&listed);
    return false;
}

/* A training mode's duration and busy power derived again from the input
 * alone (capplan.5 §2, §9.1 and §10.3: the shape's and the
 * limit's speed divide the duration, the limit's power_w replaces the
 * accelerator's), so a slip in the modes' arithmetic is a violation here
 * rather than a wrong energy figure checked against itself. */
static void rederive(cp_vf_ctx *c, const cp_job *j, const cp_resource *r, const cp_mode *m,
                     const char *who)
{
    const cp_input *in = c->in;
    if (j->kind != CP_JOB_TRAINING || m->acc < 0)
        return;
    double thr = 0;
    for (int i = 0; i < j->n_throughput; i++)
        if (j->throughput[i].acc == m->acc)
            thr = j->throughput[i].value;
    const cp_shape *sh = &j->shapes[m->shape];
    const cp_power_limit *pl = m->limit >= 0 ? &j->power_limits[m->limit] : NULL;
    double speed = sh->speed * (pl ? pl->speed : 1);
    double hours = j->work / (3600.0 * thr * cp_job_speedup_on(j, m->acc, m->count) * speed);
    if (r->kind == CP_RES_SPOT)
        hours *= 1 + in->offers[r->index].spot_interruptions_per_hour *
                         (j->checkpoint_minutes / 120 + j->restart_minutes / 60);
    const cp_accel *a = &in->accels[m->acc];
    const cp_machine *node = r->mach;
    double busy = 0;
    if (r->kind == CP_RES_POOL)
        busy = m->count * ((pl ? pl->power_w : a->power_w) - a->idle_power_w) +
               m->count * sh->cpus_per_accelerator * (node->power_w - node->idle_power_w) /
                   node->cpus;
    if (!cp_vf_close(hours, m->hours) || !cp_vf_close(busy, m->busy_w))
        cp_vf_viol(c, cp_pos_none(), "%s: its mode takes %s h at %s W, the input gives %s h at "
                                     "%s W (an internal error of the modes)", who,
                   cp_vf_n(m->hours).s, cp_vf_n(m->busy_w).s, cp_vf_n(hours).s, cp_vf_n(busy).s);
}

static bool count_allowed(const cp_job *j, long k)
{
    for (int i = 0; i < j->n_counts; i++)
        if (j->counts[i] == k)
            return true;
    return false;
}

/* A scheduled job: its mode, start slot and the fields derived from them. */
static void check_scheduled(cp_vf_ctx *c, cp_vf_job *vj, const char *who)
{
    const cp_input *in = c->in;
    const cp_job *j = &in->jobs[vj->job];
    const cp_plan_job *pj = vj->pj;
    vj->res = resolve_resource(c, pj, who);
    bool has_count = cp_vf_need(c, pj->count.has, pj->pos, who, "count");
    bool has_start = cp_vf_need(c, pj->start_slot.has, pj->pos, who, "start_slot");
    long count = pj->count.v, start = pj->start_slot.v;
    if (pj->nodes.has == CP_PLAN_SET)
        vj->nodes = &pj->nodes;
    if (vj->res < 0 || !has_count)
        return;
    const cp_resource *r = &c->ms->res[vj->res];
    /* capplan.5 §9.1: the shape index, 0 when omitted */
    long shape = pj->shape.has == CP_PLAN_SET ? pj->shape.v : 0;
    int n_shapes = j->kind == CP_JOB_TRAINING && j->n_shapes > 0 ? j->n_shapes : 1;
    if (shape < 0 || shape >= n_shapes) {
        if (n_shapes == 1)
            cp_vf_viol(c, pj->shape.pos, "%s: shape %ld is not one of the job's shapes (it has one, "
                                      "shape 0)", who, shape);
        else
            cp_vf_viol(c, pj->shape.pos, "%s: shape %ld is not one of the job's shapes (it has %d: 0 "
                                      "to %d)", who, shape, n_shapes, n_shapes - 1);
        return;
    }
    int limit;
    if (!plan_limit(c, j, pj, r, who, &limit))
        return;
    for (int m = c->ms->job_first[vj->job]; m < c->ms->job_first[vj->job + 1]; m++)
        if (c->ms->modes[m].res == vj->res && c->ms->modes[m].count == count &&
            c->ms->modes[m].shape == shape && c->ms->modes[m].limit == limit) {
            vj->mode = m;
            break;
        }
    if (vj->mode < 0) {
        char why[300];
        if (c->ms->reason[vj->job])
            cp_vf_viol(c, pj->pos, "%s: the job has no mode at all: %s", who, c->ms->reason[vj->job]);
        else if (!count_allowed(j, count))
            cp_vf_viol(c, pj->count.pos, "%s: count %ld is not one of the job's allowed %s", who,
                    count, j->kind == CP_JOB_TRAINING ? "accelerator counts" : "machine counts");
        else if (!cp_mode_fits(in, j, r->mach, r->name, r->kind == CP_RES_POOL, r->max_units,
                               (int)count, (int)shape, why, sizeof why))
            cp_vf_viol(c, pj->pos, "%s: no mode on '%s' (%s) with count %ld: it does not fit the "
                                "units (capplan.5 §2): %s", who, r->name, cp_vf_market_name(r->kind),
                    count, why);
        else if (limit >= 0)
            cp_vf_viol(c, pj->pos, "%s: no mode on '%s' (%s) with count %ld, shape %ld and power "
                                "limit %s W: placement, eligibility, the units or the time "
                                "window rule it out", who, r->name, cp_vf_market_name(r->kind),
                    count, shape, cp_vf_n(j->power_limits[limit].limit_w).s);
        else if (n_shapes > 1)
            cp_vf_viol(c, pj->pos, "%s: no mode on '%s' (%s) with count %ld and shape %ld: placement, "
                                "eligibility, the units or the time window rule it out", who,
                    r->name, cp_vf_market_name(r->kind), count, shape);
        else
            cp_vf_viol(c, pj->pos, "%s: no mode on '%s' (%s) with count %ld: placement, eligibility "
                                "or the time window rules it out", who, r->name,
                    cp_vf_market_name(r->kind), count);
        return;
    }
    const cp_mode *m = &c->ms->modes[vj->mode];
    rederive(c, j, r, m, who);
    if (has_start) {
        if (start < m->s_min || start > m->s_max)
            cp_vf_viol(c, pj->start_slot.pos, "%s: start_slot %ld is outside its allowed window "
                                           "%d..%d (release %s h, deadline %s h, %d slot%s)",
                    who, start, m->s_min, m->s_max, cp_vf_n(j->release_hour).s,
                    cp_vf_n(j->deadline_hour).s, m->slots, m->slots == 1 ? "" : "s");
        if (start >= 0 && start + m->slots <= c->T) {
            vj->start = (int)start;
            vj->counted = true;
        }
    }
    if (cp_vf_need(c, pj->slots.has, pj->pos, who, "slots") && pj->slots.v != m->slots)
        cp_vf_viol(c, pj->slots.pos, "%s: slots: expected %d, found %ld", who, m->slots,
                pj->slots.v);
    if (has_start) { /* the reader requires both */
        cp_vf_compare_num(c, &pj->start_hour, pj->pos, "start_hour", who, false, start * c->h);
        cp_vf_compare_num(c, &pj->end_hour, pj->pos, "end_hour", who, false,
                       start * c->h + m->hours);
    }
    const cp_plan_str *an = &pj->accelerator;
    if (m->acc >= 0) {
        const char *want = in->accels[m->acc].name;
        if (an->has == CP_PLAN_ABSENT && j->kind == CP_JOB_TRAINING)
            cp_vf_viol(c, pj->pos, "%s: missing 'accelerator' (expected '%s')", who, want);
        else if (an->has == CP_PLAN_SET && strcmp(an->s, want))
            cp_vf_viol(c, an->pos, "%s: accelerator: expected '%s', found '%s'", who, want, an->s);
    } else if (an->has != CP_PLAN_ABSENT) {
        cp_vf_viol(c, an->pos, "%s: accelerator: '%s' carries no accelerator", who, r->name);
    }
    cp_vf_compare_num(c, &pj->cpus, pj->pos, "cpus", who, true, m->demand[CP_DIM_CPU]);
    cp_vf_compare_num(c, &pj->memory_gb, pj->pos, "memory_gb", who, true, m->demand[CP_DIM_MEM]);
    double kwh = 0;
    if (r->kind == CP_RES_POOL) {
        const cp_site *s = &in->sites[r->site];
        kwh = s->pue * m->busy_w * (m->slots - 1 + m->last_frac) * c->h / 1000;
    }
    cp_vf_compare_num(c, &pj->energy_kwh, pj->pos, "energy_kwh", who, true, kwh);
    /* required where the input has data (capplan.5 §9.3); compared wherever given */
    cp_vf_compare_num(c, &pj->egress, pj->pos, "egress", who, in->uses_egress,
                   cp_vf_job_egress(in, j, r->site));
}

void cp_vf_check_jobs(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    const cp_plan_file *pf = c->pf;
    if (pf->n_jobs == 0)
        return;
    c->jobs = cp_calloc((size_t)pf->n_jobs, sizeof *c->jobs);
    if (!c->jobs) {
        c->oom = true;
        return;
    }
    for (int i = 0; i < pf->n_jobs; i++) {
        const cp_plan_job *pj = &pf->jobs[i];
        if (pj->name.has != CP_PLAN_SET)
            continue;
        const char *name = pj->name.s;
        int j = cp_input_find_job(in, name);
        if (j < 0) {
            cp_vf_viol(c, pj->name.pos, "unknown job '%s'", name);
            continue;
        }
        if (c->entry_of_job[j] >= 0) {
            cp_vf_viol(c, pj->name.pos, "job '%s' is listed twice (first at line %d)", name,
                    c->jobs[c->entry_of_job[j]].pj->pos.line);
            continue;
        }
        char who[400];
        snprintf(who, sizeof who, "job '%s'", name);
        cp_vf_job *vj = &c->jobs[c->n_jobs];
        vj->pj = pj;
        vj->job = j;
        vj->mode = -1;
        vj->res = -1;
        c->entry_of_job[j] = c->n_jobs++;
        if (pj->dropped) {
            c->dropped_job[j] = true;
            const cp_plan_has has[] = {pj->resource.has, pj->market.has, pj->start_slot.has,
                                       pj->nodes.has, pj->cost.has};
            const cp_pos at[] = {pj->resource.pos, pj->market.pos, pj->start_slot.pos,
                                 pj->nodes.pos, pj->cost.pos};
            static const char *const none[] = {"resource", "market", "start_slot", "nodes",
                                               "cost"};
            for (size_t k = 0; k < sizeof none / sizeof none[0]; k++)
                if (has[k] != CP_PLAN_ABSENT)
                    cp_vf_viol(c, at[k], "%s is dropped but has '%s'", who, none[k]);
        } else if (pj->scheduled) {
            vj->scheduled = true;
            if (!c->rep->infeasible)
                check_scheduled(c, vj, who);
        }
    }
}

/* capplan.5 §9.2: a scheduled job's predecessors are scheduled and have ended
 * by its start. Needs every entry read (cp_vf_check_missing's turn). */
static void check_precedence(cp_vf_ctx *c)
{
    const cp_input *in = c->in;
    for (int e = 0; e < c->n_jobs; e++) {
        const cp_vf_job *vj = &c->jobs[e];
        const cp_job *j = &in->jobs[vj->job];
        if (!vj->scheduled || !j->n_after)
            continue;
        for (int a = 0; a < j->n_after; a++) {
            int i = j->after[a], ei = c->entry_of_job[i];
            const cp_vf_job *vi = ei >= 0 ? &c->jobs[ei] : NULL;
            if (!vi || !vi->scheduled)
                cp_vf_viol(c, vj->pj->pos, "job '%s' runs but its predecessor '%s' does not (capplan.5 §9.2)",
                        j->name, in->jobs[i].name);
            else if (vj->counted && vi->counted &&
                     vj->start < vi->start + c->ms->modes[vi->mode].slots)
                cp_vf_viol(c, vj->pj->start_slot.pos,
                        "job '%s' starts in slot %d, before its predecessor '%s' ends (slot %d)",
                        j->name, vj->start, in->jobs[i].name,
                        vi->start + c->ms->modes[vi->mode].slots);
        }
    }
}

void cp_vf_check_missing(cp_vf_ctx *c)
{
    check_precedence(c);
    for (int j = 0; j < c->in->n_jobs; j++)
        if (c->entry_of_job[j] < 0) {
            cp_vf_viol(c, c->pf->jobs_list.pos, "job '%s' is missing from the plan (every input job "
                                             "is listed once, scheduled or dropped)",
                    c->in->jobs[j].name);
            c->dropped_job[j] = true; /* not scheduled: its penalty is due */
        }
}

/* ---- provisioning ------------------------------------------------------- */

void cp_vf_read_provisioning(cp_vf_ctx *c)
{
    const cp_plan_file *pf = c->pf;
    for (int i = 0; i < pf->n_prov; i++) {
        const cp_plan_prov *pm = &pf->prov[i];
        /* a market or kind missing or not a word: the reader said so */
        if (pm->market.has != CP_PLAN_SET)
            continue;
        const char *mk = pm->market.s;
        char who[400];
        snprintf(who, sizeof who, "provisioning %d", pm->index + 1);
        int o = cp_input_find_offer(c->in, mk);
        if (o < 0)
            cp_vf_viol(c, pm->market.pos, "%s: unknown offer '%s'", who, mk);
        if (o < 0 || pm->mk == CP_PLAN_NO_MARKET)
            continue;
        int r = pm->mk == CP_PLAN_SPOT ? c->ms->spot_of_offer[o] : c->ms->ondemand_of_offer[o];
        if (r < 0) {
            cp_vf_viol(c, pm->kind.pos, "%s: offer '%s' has no spot market", who, mk);
            continue;
        }
        snprintf(who, sizeof who, "provisioning of '%s' (%s)", mk, pm->kind.s);
        if (c->prov[r]) {
            cp_vf_viol(c, pm->market.pos, "%s is listed twice (first at line %d)", who,
                    c->prov[r]->pos.line);
            continue;
        }
        c->prov[r] = pm;
        const cp_plan_series *is = &pm->instances;
        for (int t = 0; is->has == CP_PLAN_SET && t < c->T && t < is->n; t++)
            if (!isnan(is->v[t])) /* else the reader's violation */
                c->y[(size_t)r * (size_t)c->T + (size_t)t] = cp_num_clamp_long(is->v[t], 0, 2000000000L);
    }
}
