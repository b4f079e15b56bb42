/*
 * The warm start of a re-plan (capplan.5 §10.5): OLD's own choices under
 * the re-plan's modes. Started jobs keep their run, free jobs OLD
 * scheduled keep their (mode, start) where it is still a mode of theirs,
 * on OLD's nodes and instances; broken, new and unplaceable jobs are
 * dropped. When that plan is feasible and no method's plan costs less,
 * the re-plan is OLD's plan: so re-planning inputs that did not change
 * gives OLD back, node for node, whatever ties the search meets.
 */
#include "cp_placement.h"
#include "cp_solver.h"

#include "cp_alloc.h"

#include <math.h>
#include <string.h>

/* The mode of job j that is OLD's choice, at OLD's start, or -1. */
static int old_mode(const cp_modeset *ms, int j, const cp_replan_choice *c)
{
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (md->res == c->res && md->count == c->count && md->shape == c->shape &&
            md->limit == c->limit && md->s_min <= c->start && c->start <= md->s_max)
            return m;
    }
    return -1;
}

/* *out: OLD's plan under ms, placed, or NULL when it is not feasible. */
static int warm_plan(const cp_input *in, const cp_modeset *ms, cp_plan **out, cp_err *err)
{
    const cp_replan *rp = ms->replan;
    cp_plan *p = NULL;
    *out = NULL;
    if (cp_plan_new(in, ms, &p))
        return cp_err_nomem(err);
    for (int j = 0; j < p->n_jobs; j++) {
        const cp_replan_job *rj = &rp->job[j];
        if (rj->kind == CP_REPLAN_BROKEN || rj->old.res < 0)
            continue;
        int m = old_mode(ms, j, &rj->old);
        if (m < 0)
            continue;
        p->mode[j] = m;
        p->start[j] = rj->old.start;
        if (!rj->units)
            continue;
        p->units[j] = cp_calloc((size_t)rj->n_units, sizeof *p->units[j]);
        if (!p->units[j]) {
            cp_plan_free(p);
            return cp_err_nomem(err);
        }
        memcpy(p->units[j], rj->units, (size_t)rj->n_units * sizeof *p->units[j]);
        p->n_units[j] = rj->n_units;
    }
    p->pool_units = true;
    cp_plan_min_instances(p);
    int repairs = 0, rc = CP_OK;
    if (!cp_plan_is_feasible(p, NULL, 0) || !cp_plan_precedence_ok(p) ||
        (rc = cp_plan_place(p, &repairs, err)) || repairs) {
        cp_plan_free(p);
        return rc;
    }
    *out = p;
    return CP_OK;
}

int cp_replan_prefer_old(cp_plan *plan, bool *taken, cp_err *err)
{
    *taken = false;
    if (!plan->ms->replan)
        return CP_OK;
    cp_plan *warm = NULL;
    int rc = warm_plan(plan->in, plan->ms, &warm, err);
    if (rc || !warm)
        return rc;
    cp_plan_figures fw, fp;
    if ((rc = cp_plan_eval(warm, &fw, err))) {
        cp_plan_free(warm);
        return rc;
    }
    if ((rc = cp_plan_eval(plan, &fp, err))) {
        cp_plan_figures_release(&fw);
        cp_plan_free(warm);
        return rc;
    }
    double a = fw.costs.total, b = fp.costs.total;
    cp_plan_figures_release(&fw);
    cp_plan_figures_release(&fp);
    if (a <= b + 1e-9 * (1 + fabs(b))) {
        if ((rc = cp_plan_copy(plan, warm)))
            rc = cp_err_nomem(err);
        plan->placed = rc == CP_OK;
        cp_free(plan->note);
        plan->note = NULL;
        *taken = rc == CP_OK;
    }
    cp_plan_free(warm);
    return rc;
}
