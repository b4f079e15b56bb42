/*
 * The warm start of a re-plan (capplan.5 §10.5): OLD's own choices under
 * the re-plan's modes. Started jobs keep their run, free jobs OLD
 * scheduled keep their (mode, start) where it is still a mode of theirs,
 * on OLD's nodes and instances; broken, new and unplaceable jobs are
 * dropped; services keep OLD's replicas, shares and unserved shares. When that plan is feasible and no method's plan costs less,
 * the re-plan is OLD's plan: so re-planning inputs that did not change
 * gives OLD back, node for node, whatever ties the search meets.
 *
 * When the inputs are those OLD was planned from (its solver.inputs is
 * their digest: cp_replan.unchanged), OLD's plan is the re-plan without a
 * search (cp_replan_keep_old): OLD's search already ran on a larger set
 * of plans (every re-plan is a plan of OLD's inputs), and its bound
 * still holds, so the re-plan is as good as OLD by OLD's own proof; the
 * LP of the re-plan (lp_colgen.c, a tenth of a second on the nightly
 * example) may prove more, and is the only bound when OLD is itself a
 * re-plan.
 */

#include "cp_placement.h"
#include "cp_solver.h"
#include "solver_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <string.h>

/* The share of the time limit the LP bound of an unchanged re-plan may
 * take at most. */
#define KEEP_LP_SHARE 0.1

/* The better of b and the LP bound of the re-plan's view (seeded with
 * plan's columns); *lp says whether the LP's was the better. */
static int lp_bound(const cp_solve_opts *o, const cp_plan *plan, double *b, bool *lp, cp_err *err)
{
    cp_lpcg cg;
    memset(&cg, 0, sizeof cg);
    cg.bound = -INFINITY;
    *lp = false;
    int rc = cp_lpcg_run(plan->in, plan->ms, o, plan, NULL, true, cp_solver_phase_seconds(o, KEEP_LP_SHARE),
                         &cg, err);
    if (rc == CP_OK && isfinite(cg.bound) && (isnan(*b) || cg.bound > *b)) {
        *b = cg.bound;
        *lp = true;
    }
    cp_lpcg_release(&cg);
    return rc;
}

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
    /* OLD's services, every slot (history and OLD's choice after it),
     * on OLD's units where placement finds them free (pin_replicas) */
    if (rp->n_deps == ms->n_deps && rp->n_shares == ms->n_shares && rp->n_classes == ms->n_classes) {
        size_t T = (size_t)p->slots;
        memcpy(p->svc_n, rp->svc_n, (size_t)ms->n_deps * T * sizeof *p->svc_n);
        memcpy(p->svc_f, rp->svc_f, (size_t)ms->n_shares * T * sizeof *p->svc_f);
        memcpy(p->svc_u, rp->svc_u, (size_t)ms->n_classes * T * sizeof *p->svc_u);
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

int cp_replan_keep_old(const cp_solve_opts *o, cp_plan *plan, bool *kept, cp_err *err)
{
    *kept = false;
    const cp_replan *rp = plan->ms->replan;
    if (!rp || !rp->unchanged)
        return CP_OK;
    cp_plan *warm = NULL;
    int rc = warm_plan(plan->in, plan->ms, &warm, err);
    if (rc || !warm)
        return rc;
    cp_plan_figures f;
    if ((rc = cp_plan_eval(warm, &f, err))) {
        cp_plan_free(warm);
        return rc;
    }
    double total = f.costs.total;
    cp_plan_figures_release(&f);
    if ((rc = cp_plan_copy(plan, warm)))
        rc = cp_err_nomem(err);
    cp_plan_free(warm);
    if (rc)
        return rc;
    plan->placed = true;
    plan->objective = total;
    /* a bound above the plan's total is no bound of it (an OLD edited
     * by hand): none is claimed then */
    double b = rp->old_bound;
    b = isfinite(b) && b <= total + 1e-9 * (1 + fabs(total)) ? fmin(b, total) : NAN;
    bool lp = false;
    if ((isnan(b) || total - b > o->gap * fabs(total)) && (rc = lp_bound(o, plan, &b, &lp, err)))
        return rc;
    plan->bound = isnan(b) ? NAN : fmin(b, total);
    plan->bound_kind = isnan(b) ? NULL : lp ? "LP of the re-plan (the inputs did not change since OLD)"
                                             : "OLD's (the inputs did not change)";
    plan->status = !isnan(plan->bound) && total - plan->bound <= o->gap * fabs(total) ? CP_STATUS_OPTIMAL
                                                                                     : CP_STATUS_FEASIBLE;
    *kept = true;
    return CP_OK;
}
