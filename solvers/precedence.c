/*
 * Precedence for every method (SPEC 9.2): if job j is scheduled, each job
 * in its `after` list is scheduled too and ends before j starts. The MILP
 * holds this in its rows (milp_glpk.c); the other methods search without
 * it, so their plan is repaired here, once, before concrete placement, in
 * topological order (predecessors first, so a moved job's successors are
 * looked at after it): a successor of a dropped job is dropped with it and
 * pays its own penalty; one that starts too early moves to its cheapest
 * (mode, start) from its predecessors' end that fits beside the other
 * jobs, or is dropped when none does or the move costs more than its
 * penalty. Each such drop gets its reason here. Placement's own repairs
 * (packing) can move a job again, so cp_plan_precedence_final drops what
 * they put out of order, which only frees capacity.
 *
 * Lower bounds stay valid: every bound capplan computes relaxes a
 * problem that has these constraints.
 */
#include "cp_explain.h"
#include "cp_placement.h"
#include "cp_usage.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

static bool any_after(const cp_input *in)
{
    for (int j = 0; j < in->n_jobs; j++)
        if (in->jobs[j].n_after)
            return true;
    return false;
}

/* A topological order of the jobs (the loader refuses cycles); false on
 * out of memory. Repeated passes are fine for the few jobs with
 * predecessors; the order is deterministic. */
static bool topo(const cp_input *in, int *order)
{
    int n = in->n_jobs, k = 0;
    unsigned char *done = cp_calloc((size_t)(n ? n : 1), 1);
    if (!done)
        return false;
    while (k < n) {
        int before = k;
        for (int j = 0; j < n; j++) {
            if (done[j])
                continue;
            bool ready = true;
            for (int a = 0; a < in->jobs[j].n_after && ready; a++)
                ready = done[in->jobs[j].after[a]];
            if (ready) {
                done[j] = 1;
                order[k++] = j;
            }
        }
        if (k == before)
            break; /* cannot happen for an acyclic input */
    }
    cp_free(done);
    return k == n;
}

/* The end slot of job i in the plan, or -1 when it is dropped. */
static int end_of(const cp_plan *p, int i)
{
    return p->mode[i] < 0 ? -1 : p->start[i] + p->ms->modes[p->mode[i]].slots;
}

/* Whether j's placement breaks precedence; *dead a dropped predecessor
 * (-1 when none), *est the slot its predecessors have all ended by. */
static bool broken(const cp_plan *p, int j, int *dead, int *est, int *by)
{
    const cp_job *jb = &p->in->jobs[j];
    *dead = -1;
    *est = 0;
    *by = -1;
    for (int a = 0; a < jb->n_after; a++) {
        int i = jb->after[a], e = end_of(p, i);
        if (e < 0) {
            *dead = i;
            return p->mode[j] >= 0;
        }
        if (e > *est) {
            *est = e;
            *by = i;
        }
    }
    return p->mode[j] >= 0 && p->start[j] < *est;
}

static int set_reason(cp_plan *p, int j, cp_buf *b)
{
    cp_free(p->reason[j]);
    p->reason[j] = cp_buf_detach(b);
    return p->reason[j] ? CP_OK : CP_ERR_NOMEM;
}

static int drop_with(cp_plan *p, int j, int dead)
{
    cp_buf b;
    cp_buf_init(&b);
    cp_buf_printf(&b,
                  "dropped with its predecessor '%s' (a job runs only after its "
                  "predecessors, SPEC 9.2)",
                  p->in->jobs[dead].name);
    p->mode[j] = -1;
    return set_reason(p, j, &b);
}

int cp_plan_precedence(cp_plan *p, bool *changed, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    *changed = false;
    if (!any_after(in))
        return CP_OK;
    bool need = false;
    for (int j = 0; j < p->n_jobs && !need; j++) {
        int dead, est, by;
        need = broken(p, j, &dead, &est, &by);
    }
    if (!need)
        return CP_OK;
    int *order = cp_calloc((size_t)p->n_jobs, sizeof *order);
    cp_usage u;
    bool have_u = false;
    int rc = CP_OK;
    if (!order || !topo(in, order) || cp_usage_init(&u, in, ms)) {
        rc = CP_ERR_NOMEM;
        goto out;
    }
    have_u = true;
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] >= 0)
            cp_usage_add(&u, p->mode[j], p->start[j]);
    for (int q = 0; q < p->n_jobs && rc == CP_OK; q++) {
        int j = order[q], dead, est, by;
        if (!broken(p, j, &dead, &est, &by))
            continue;
        *changed = true;
        cp_usage_remove(&u, p->mode[j], p->start[j]);
        if (dead >= 0) {
            rc = drop_with(p, j, dead);
            continue;
        }
        int bm = -1, bs = 0;
        double best = INFINITY;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
            const cp_mode *md = &ms->modes[m];
            for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max; s++) {
                double d;
                if (cp_usage_try(&u, m, s, &d) && d < best) {
                    best = d;
                    bm = m;
                    bs = s;
                }
            }
        }
        if (bm >= 0 && best < in->jobs[j].drop_penalty) {
            cp_usage_add(&u, bm, bs);
            p->mode[j] = bm;
            p->start[j] = bs;
            continue;
        }
        cp_buf b;
        cp_buf_init(&b);
        if (bm >= 0)
            cp_buf_printf(&b,
                          "dropped after its predecessor '%s' (ends in slot %d): its cheapest "
                          "later run adds $%.2f, more than its penalty $%.2f",
                          in->jobs[by].name, est, best, in->jobs[j].drop_penalty);
        else if (cp_explain_blocked(p, &u, j, est, by, &b))
            rc = CP_ERR_NOMEM; /* the window after precedence, or what holds the room */
        p->mode[j] = -1;
        if (rc == CP_OK)
            rc = set_reason(p, j, &b);
        else
            cp_buf_release(&b);
    }
    if (rc == CP_OK && *changed) {
        /* new choices: placement packs them anew, y from the demand */
        for (int j = 0; j < p->n_jobs; j++) {
            cp_free(p->units[j]);
            p->units[j] = NULL;
            p->n_units[j] = 0;
        }
        p->placed = p->pool_units = false;
        cp_plan_min_instances(p);
    }
out:
    if (have_u)
        cp_usage_release(&u);
    cp_free(order);
    return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
}

int cp_plan_precedence_final(cp_plan *p, bool *changed, cp_err *err)
{
    const cp_input *in = p->in;
    *changed = false;
    if (!any_after(in))
        return CP_OK;
    int *order = cp_calloc((size_t)p->n_jobs, sizeof *order);
    if (!order || !topo(in, order)) {
        cp_free(order);
        return cp_err_nomem(err);
    }
    int rc = CP_OK;
    for (int q = 0; q < p->n_jobs && rc == CP_OK; q++) {
        int j = order[q], dead, est, by;
        if (!broken(p, j, &dead, &est, &by))
            continue;
        *changed = true;
        cp_free(p->units[j]);
        p->units[j] = NULL;
        p->n_units[j] = 0;
        if (dead >= 0) {
            rc = drop_with(p, j, dead);
        } else {
            cp_buf b;
            cp_buf_init(&b);
            cp_buf_printf(&b,
                          "dropped: packing moved it before its predecessor '%s' ends (slot "
                          "%d)",
                          in->jobs[by].name, est);
            p->mode[j] = -1;
            rc = set_reason(p, j, &b);
        }
    }
    cp_free(order);
    return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
}

int cp_plan_precedence_reasons(cp_plan *p, cp_err *err)
{
    const cp_input *in = p->in;
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] >= 0 || p->reason[j] || p->ms->job_first[j] == p->ms->job_first[j + 1])
            continue;
        for (int a = 0; a < in->jobs[j].n_after; a++) {
            int i = in->jobs[j].after[a];
            if (p->mode[i] >= 0)
                continue;
            /* the optimizer dropped a predecessor: that is the cause */
            cp_buf b;
            cp_buf_init(&b);
            cp_buf_printf(&b,
                          "dropped with its predecessor '%s' (a job runs only after its "
                          "predecessors, SPEC 9.2)",
                          in->jobs[i].name);
            if (set_reason(p, j, &b))
                return cp_err_nomem(err);
            break;
        }
    }
    return CP_OK;
}
