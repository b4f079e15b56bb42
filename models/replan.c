/*
 * Matching an earlier plan against the inputs (capplan.5 §10.5; see
 * cp_replan.h). One pass over OLD's job entries in file order, then the
 * inputs' jobs, then OLD's provisioning: the first entry that these
 * inputs cannot mean is the error, at its node, in the words a person
 * fixing the inputs needs ("OLD is a plan of other inputs: ...").
 *
 * A job OLD scheduled is resolved to the resource index of
 * cp_modes_build (its pool, or its offer's on-demand or spot market), its
 * count, shape (0 when the entry has none) and power limit (the index of
 * the entry's power_limit_w among the job's limits for the resource's
 * accelerator type), and its node or instance indices from its `nodes`.
 * A started job must resolve; a free job that does not simply has no
 * choice to keep (res -1), and any choice of the new plan is a change.
 */
#include "cp_replan.h"

#include "cp_alloc.h"
#include "cp_num.h"
#include "cp_yaml.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISMATCH "OLD is a plan of other inputs: "

void cp_replan_free(cp_replan *rp)
{
    if (!rp)
        return;
    for (int j = 0; rp->job && j < rp->n_jobs; j++)
        cp_free(rp->job[j].units);
    cp_free(rp->job);
    cp_free(rp->y_hist);
    cp_free(rp->svc_n);
    cp_free(rp->svc_f);
    cp_free(rp->svc_u);
    cp_free(rp->svc_unit);
    cp_free(rp->svc_unit_off);
    cp_free(rp);
}

/* The resource an entry names, or -1 (*why says why). */
static int entry_res(const cp_input *in, const cp_modeset *ms, const cp_plan_job *pj,
                     char *why, size_t size)
{
    const char *name = pj->resource.has == CP_PLAN_SET ? pj->resource.s : NULL;
    if (!name || pj->mk == CP_PLAN_NO_MARKET) {
        snprintf(why, size, "no resource and market");
        return -1;
    }
    if (pj->mk == CP_PLAN_POOL) {
        int p = cp_input_find_pool(in, name);
        if (p < 0)
            snprintf(why, size, "no pool '%s' in the inputs", name);
        return p < 0 ? -1 : ms->res_of_pool[p];
    }
    int o = cp_input_find_offer(in, name);
    if (o < 0) {
        snprintf(why, size, "no offer '%s' in the inputs", name);
        return -1;
    }
    int r = pj->mk == CP_PLAN_SPOT ? ms->spot_of_offer[o] : ms->ondemand_of_offer[o];
    if (r < 0)
        snprintf(why, size, "offer '%s' has no spot market in the inputs", name);
    return r;
}

/* The limit index of `limit_w` for job j on resource r: -1 for none
 * (absent), -2 when the job has no such limit on r's type. */
static int entry_limit(const cp_job *j, const cp_resource *r, const cp_plan_num *w)
{
    if (w->has != CP_PLAN_SET)
        return -1;
    for (int l = 0; l < j->n_power_limits; l++)
        if (j->power_limits[l].acc == r->mach->acc && j->power_limits[l].limit_w == w->v)
            return l;
    return -2;
}

/* Resolves OLD's entry of job j into rj (choice, units); CP_ERR_INPUT
 * with the reason when it cannot (callers decide whether that matters). */
static int resolve(const cp_input *in, const cp_modeset *ms, int j, const cp_plan_job *pj,
                   cp_replan_job *rj, cp_err *err)
{
    const cp_job *job = &in->jobs[j];
    char why[400];
    int r = entry_res(in, ms, pj, why, sizeof why);
    if (r < 0)
        return cp_err_set(err, CP_ERR_INPUT, pj->resource.pos, MISMATCH "job '%s': %s", job->name,
                          why);
    const cp_resource *res = &ms->res[r];
    if (pj->count.has != CP_PLAN_SET || pj->start_slot.has != CP_PLAN_SET ||
        pj->slots.has != CP_PLAN_SET)
        return cp_err_set(err, CP_ERR_INPUT, pj->pos,
                          "job '%s': OLD's entry needs count, start_slot and slots", job->name);
    int shape = pj->shape.has == CP_PLAN_SET ? (int)pj->shape.v : 0;
    int nsh = job->kind == CP_JOB_TRAINING ? job->n_shapes : 1;
    if (shape >= nsh)
        return cp_err_set(err, CP_ERR_INPUT, pj->shape.pos,
                          MISMATCH "job '%s' has %d shape%s, OLD runs it in shape %d", job->name,
                          nsh, nsh == 1 ? "" : "s", shape);
    int limit = entry_limit(job, res, &pj->power_limit_w);
    if (limit == -2)
        return cp_err_set(err, CP_ERR_INPUT, pj->power_limit_w.pos,
                          MISMATCH "job '%s' has no power limit of %g W on '%s'", job->name,
                          pj->power_limit_w.v, res->name);
    rj->old = (cp_replan_choice){r, (int)pj->count.v, shape, limit, (int)pj->start_slot.v,
                                 (int)pj->slots.v};
    if (pj->nodes.has != CP_PLAN_SET || pj->nodes.n == 0)
        return CP_OK;
    rj->units = cp_calloc((size_t)pj->nodes.n, sizeof *rj->units);
    if (!rj->units)
        return cp_err_nomem(err);
    for (int q = 0; q < pj->nodes.n; q++) {
        int u = cp_replan_unit_index(res, pj->nodes.s[q]);
        if (u < 0)
            return cp_err_set(err, CP_ERR_INPUT, pj->nodes.at[q],
                              MISMATCH "job '%s': '%s' is not a node or instance of '%s'",
                              job->name, pj->nodes.s[q] ? pj->nodes.s[q] : "", res->id);
        rj->units[q] = u;
    }
    rj->n_units = pj->nodes.n;
    return CP_OK;
}

/* Whether a pool node of job j's run is down in a slot >= S. */
static bool is_broken(const cp_input *in, const cp_modeset *ms, const cp_replan_job *rj, int now)
{
    const cp_resource *res = &ms->res[rj->old.res];
    if (res->kind != CP_RES_POOL || !rj->units)
        return false; /* without nodes a started pool job is never broken (capplan.5 §10.6) */
    const cp_pool *p = &in->pools[res->index];
    int end = rj->old.start + rj->old.slots;
    for (int t = now > rj->old.start ? now : rj->old.start; t < end && t < in->slots; t++)
        for (int q = 0; q < rj->n_units; q++)
            if (rj->units[q] >= p->nodes ||
                rj->units[q] >= cp_num_clamp_int(cp_series_at(&p->available, t), 0, INT_MAX))
                return true;
    return false;
}

/* capplan.5 §10.5: work · (1 − c·floor(e/c)/D), D OLD's duration, e the
 * hours run before S, c the checkpoint interval; without checkpoints
 * (c = 0) every hour run counts (the limit as c -> 0). */
static double work_left(const cp_input *in, const cp_job *job, const cp_plan_job *pj, int now)
{
    double start = pj->start_hour.has == CP_PLAN_SET ? pj->start_hour.v
                                                      : pj->start_slot.v * in->slot_hours;
    double D = pj->end_hour.has == CP_PLAN_SET ? pj->end_hour.v - start
                                                : pj->slots.v * in->slot_hours;
    double e = now * in->slot_hours - start, c = job->checkpoint_minutes / 60;
    if (D <= 0 || e <= 0)
        return job->work;
    double done = c > 0 ? c * floor(e / c + 1e-9) : e;
    if (done > D)
        done = D;
    return job->work * (1 - done / D);
}

static int sort_jobs(const cp_input *in, const cp_modeset *ms, const cp_plan_file *old,
                     cp_replan *rp, cp_err *err)
{
    int now = rp->now;
    for (int i = 0; i < old->n_jobs; i++) {
        const cp_plan_job *pj = &old->jobs[i];
        if (pj->name.has != CP_PLAN_SET)
            return cp_err_set(err, CP_ERR_INPUT, pj->pos, "OLD's job entry %d has no name", i);
        int j = cp_input_find_job(in, pj->name.s);
        bool started = pj->scheduled && pj->start_slot.has == CP_PLAN_SET && pj->start_slot.v < now;
        if (j < 0) {
            rp->cancelled += started; /* its slots before S stay in y */
            continue;
        }
        cp_replan_job *rj = &rp->job[j];
        if (rj->in_old)
            return cp_err_set(err, CP_ERR_INPUT, pj->name.pos, "OLD lists job '%s' twice",
                              pj->name.s);
        rj->in_old = true;
        if (!pj->scheduled)
            continue;
        cp_err why;
        cp_err_init(&why);
        int rc = resolve(in, ms, j, pj, rj, started ? err : &why);
        if (rc == CP_ERR_NOMEM || (rc && started))
            return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
        if (rc) { /* a free job whose choice these inputs cannot name: every choice changes */
            cp_free(rj->units);
            rj->units = NULL;
            rj->n_units = 0;
            rj->old.res = -1;
            rj->changeable = true;
            continue;
        }
        if (!started) {
            rj->changeable = true;
            continue;
        }
        if (rj->old.start + rj->old.slots > in->slots)
            return cp_err_set(err, CP_ERR_INPUT, pj->slots.pos,
                              MISMATCH "job '%s' runs to slot %d, the horizon has %d",
                              pj->name.s, rj->old.start + rj->old.slots, in->slots);
        if (is_broken(in, ms, rj, now)) {
            rj->kind = CP_REPLAN_BROKEN;
            rp->broken++;
            if (in->jobs[j].kind == CP_JOB_TRAINING)
                rj->work = work_left(in, &in->jobs[j], pj, now);
        } else {
            rj->kind = CP_REPLAN_STARTED;
            rp->started++;
        }
    }
    return CP_OK;
}

/* OLD's instances before S; a market OLD rented there must still exist. */
static int keep_history(const cp_input *in, const cp_modeset *ms, const cp_plan_file *old,
                        cp_replan *rp, cp_err *err)
{
    for (int i = 0; i < old->n_prov; i++) {
        const cp_plan_prov *pm = &old->prov[i];
        const cp_plan_series *is = &pm->instances;
        int rented = 0;
        for (int t = 0; t < rp->now && is->has == CP_PLAN_SET && t < is->n; t++)
            rented |= !isnan(is->v[t]) && is->v[t] > 0;
        if (!rented)
            continue;
        const char *name = pm->market.has == CP_PLAN_SET ? pm->market.s : "";
        int o = cp_input_find_offer(in, name);
        int r = o < 0 ? -1
                      : pm->mk == CP_PLAN_SPOT ? ms->spot_of_offer[o]
                      : pm->mk == CP_PLAN_ON_DEMAND ? ms->ondemand_of_offer[o] : -1;
        if (r < 0)
            return cp_err_set(err, CP_ERR_INPUT, pm->market.pos,
                              MISMATCH "OLD rents '%s' (%s) before slot %d, the inputs have no "
                                       "such market",
                              name, pm->kind.has == CP_PLAN_SET ? pm->kind.s : "?", rp->now);
        for (int t = 0; t < rp->now && t < is->n; t++)
            rp->y_hist[(size_t)r * rp->now + t] = cp_num_clamp_int(is->v[t], 0, INT_MAX);
    }
    return CP_OK;
}

/* Whether OLD was planned from these very inputs (its solver.inputs),
 * and its bound, which then bounds the re-plan too: every re-plan is a
 * plan of OLD's inputs (history and started runs OLD's, the rest released
 * at S) whose total has changes >= 0 on top. A re-plan OLD's bound holds
 * for its own OLD's plans, not for these. */
static void same_inputs(const cp_input *in, const cp_plan_file *old, cp_replan *rp)
{
    char digest[CP_INPUT_DIGEST_TEXT];
    cp_input_digest_text(in, digest);
    const cp_plan_str *s = &old->solver.inputs;
    rp->unchanged = s->has == CP_PLAN_SET && !strcmp(s->s, digest);
    rp->old_bound = NAN;
    if (rp->unchanged && old->replanned.has == CP_PLAN_ABSENT && old->solver.bound.has == CP_PLAN_SET &&
        isfinite(old->solver.bound.v))
        rp->old_bound = old->solver.bound.v;
}

int cp_replan_build(const cp_input *in, const cp_modeset *ms, const cp_plan_file *old, int now,
                    double penalty, cp_replan **out, cp_err *err)
{
    if (old->malformed || old->infeasible)
        return cp_err_set(err, CP_ERR_INPUT, old->pos,
                          old->infeasible ? "OLD has no plan to keep (status infeasible)"
                                          : "OLD is not a plan capplan reads");
    if (old->slots != in->slots)
        return cp_err_set(err, CP_ERR_INPUT, old->pos,
                          MISMATCH "it has %d slots, the inputs' horizon %d", old->slots,
                          in->slots);
    cp_replan *rp = cp_calloc(1, sizeof *rp);
    if (!rp)
        return cp_err_nomem(err);
    rp->now = now;
    rp->slots = in->slots;
    rp->n_res = ms->n_res;
    rp->n_jobs = in->n_jobs;
    rp->change_penalty = penalty;
    rp->job = cp_calloc((size_t)(in->n_jobs ? in->n_jobs : 1), sizeof *rp->job);
    rp->y_hist = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1) * (size_t)(now ? now : 1),
                           sizeof *rp->y_hist);
    int rc = CP_OK;
    if (!rp->job || !rp->y_hist) {
        rc = cp_err_nomem(err);
        goto fail;
    }
    for (int j = 0; j < in->n_jobs; j++) {
        rp->job[j].kind = CP_REPLAN_FREE;
        rp->job[j].old.res = -1;
        rp->job[j].work = in->jobs[j].work;
    }
    if ((rc = sort_jobs(in, ms, old, rp, err)) || (rc = keep_history(in, ms, old, rp, err)) ||
        (rc = cp_replan_read_services(in, ms, old, rp, err)))
        goto fail;
    same_inputs(in, old, rp);
    *out = rp;
    return CP_OK;
fail:
    cp_replan_free(rp);
    return rc;
}

bool cp_replan_is_change(const cp_replan *rp, int j, const cp_replan_choice *c)
{
    const cp_replan_choice *o = &rp->job[j].old;
    if (!rp->job[j].changeable)
        return false;
    return o->res < 0 || c->res != o->res || c->count != o->count || c->shape != o->shape ||
           c->limit != o->limit || c->start != o->start;
}

double cp_replan_change_base(const cp_replan *rp)
{
    int n = 0;
    for (int j = 0; j < rp->n_jobs; j++)
        n += rp->job[j].changeable;
    return n * rp->change_penalty;
}

int cp_replan_load(const cp_input *in, const cp_modeset *ms, const char *path, int now,
                   double penalty, cp_replan **out, cp_diags *d)
{
    cp_node *root = NULL;
    int rc = cp_plan_load_file(path, &root, d);
    if (rc)
        return rc;
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    cp_plan_read_opts o;
    cp_plan_read_opts_init(&o);
    cp_err err;
    cp_err_init(&err);
    /* OLD's own slot count first: another horizon is the mismatch to
     * name, not every per-slot list that is too short */
    if ((rc = cp_plan_read(root, &o, &pf, &err))) {
        cp_diags_add_err(d, &err);
        goto out;
    }
    if (!pf.malformed && pf.slots && pf.slots != in->slots) {
        rc = cp_diags_add(d, CP_ERR_INPUT, pf.pos,
                          MISMATCH "it has %d slots, the inputs' horizon %d", pf.slots, in->slots);
        goto out;
    }
    o.slots = in->slots;
    if ((rc = cp_plan_read(root, &o, &pf, &err))) {
        cp_diags_add_err(d, &err);
        goto out;
    }
    /* what the reader finds wrong with OLD's choices is an error; keys
     * that only describe it are not */
    for (int i = 0; i < pf.n_problems; i++)
        if (pf.problems[i].level != CP_PLAN_EXTRA)
            rc = cp_diags_add(d, CP_ERR_INPUT, pf.problems[i].pos, "%s", pf.problems[i].msg);
    if (rc)
        goto out;
    if ((rc = cp_replan_build(in, ms, &pf, now, penalty, out, &err)))
        cp_diags_add_err(d, &err);
out:
    cp_plan_file_release(&pf);
    cp_node_free(root);
    return rc;
}
