/*
 * The one path from modes to a finished plan, shared by `plan` and
 * `whatif` so that a scenario is planned exactly as `plan` would plan it:
 * the method, then the precedence repair (capplan.5 §9.2; every method keeps
 * precedence while it searches, so it is a safety net that --progress=debug
 * reports when it acts), then concrete placement with repair, then the
 * reasons for dropped
 * jobs, then the interrupted status when a stop was requested. A re-plan
 * (capplan.5 §10.5) keeps OLD's choices when they cost no more than the
 * method's plan, and takes them without running the method when the
 * inputs did not change since OLD (solvers/replan_warm.c).
 * What every method's plan gets at the end (its name, its seconds, the
 * interrupted status) is set here once, not in each method.
 */
#include "cp_placement.h"
#include "cp_solver.h"

#include <stdio.h>

/* What follows the method: the precedence repair, placement, the reasons
 * for drops and the interrupted status. */
static int finish(const cp_solve_opts *o, cp_plan *plan, cp_err *err)
{
    if (plan->status == CP_STATUS_NOPLAN || plan->status == CP_STATUS_INFEASIBLE)
        return 0;
    cp_plan_round_shares(plan);
    int repairs = 0, rc;
    bool moved = false, moved2 = false;
    if ((rc = cp_plan_precedence(plan, &moved, err)))
        return rc;
    /* the searches keep precedence themselves (cp_prec.h): the repair is
     * a safety net, and --progress=debug says when it had to act */
    if (moved)
        cp_solver_log(o, "precedence: the repair changed the %s plan", plan->method);
    if (plan->ms->replan) /* started jobs go back on OLD's units (capplan.5 §10.5) */
        plan->placed = false;
    if (!plan->placed && (rc = cp_plan_place(plan, &repairs, err)))
        return rc;
    if (repairs && (rc = cp_plan_precedence_final(plan, &moved2, err)))
        return rc;
    if (moved2)
        cp_solver_log(o, "precedence: placement's repairs broke an edge; jobs dropped");
    cp_plan_status solved = plan->status;
    if ((repairs || moved || moved2) && plan->status == CP_STATUS_OPTIMAL)
        plan->status = CP_STATUS_FEASIBLE;
    bool old = false;
    if ((rc = cp_replan_prefer_old(plan, &old, err)))
        return rc;
    if (old) { /* no repair of the method's plan touched it, and it costs no more */
        plan->status = solved;
        cp_solver_log(o, "re-plan: OLD's choices cost no more than the %s plan; kept", plan->method);
    }
    if ((rc = cp_plan_precedence_reasons(plan, err)) || (rc = cp_plan_explain_drops(plan, err)))
        return rc;
    if (o->stop && *o->stop)
        plan->status = CP_STATUS_INTERRUPTED;
    return 0;
}

int cp_solver_check_services(const cp_input *in, const cp_solver_ops *ops, cp_err *err)
{
    if (!in->n_services || ops->services)
        return CP_OK;
    const cp_service *sv = &in->services[0];
    return cp_err_set(err, CP_ERR_INPUT, sv->pos,
                      "service '%s': method '%s' does not plan services (capplan.5 §10.4) "
                      "yet", sv->name, ops->name);
}

int cp_plan_solve(const cp_input *in, const cp_modeset *ms, const cp_solver_ops *ops,
                  const cp_solve_opts *so, cp_plan *plan, cp_err *err)
{
    cp_solve_opts o = *so;
    if (o.t_start <= 0)
        o.t_start = cp_now_seconds();
    int rc;
    /* a service is never silently left out of a plan */
    if ((rc = cp_solver_check_services(in, ops, err)))
        return rc;
    /* --mip-engine auto (CBC's branch-and-cut, GLPK's sub-MIPs: plan_opts.c)
     * plans an input with services with GLPK alone, the engine its
     * service columns were first tested with; an explicit cbc hands CBC
     * the same model, services' columns and rows included (mip_cbc.c) */
    if (in->n_services && o.mip_engine == CP_MIP_CBC && o.sub_engine == CP_MIP_GLPK)
        o.mip_engine = CP_MIP_GLPK;
    if (o.export_lp) {
        if ((rc = cp_milp_export(in, ms, o.export_lp, err)))
            return rc;
        o.export_lp = NULL;
    }
    double t0 = cp_now_seconds();
    /* --progress: a line every o.heartbeat seconds until the plan is done */
    cp_progress *beat = NULL;
    if (o.heartbeat > 0 && o.log && !o.beat)
        o.beat = beat = cp_progress_start(o.log, o.log_arg, o.t_start, o.heartbeat);
    cp_progress_phase(&o, "first plan");
    plan->method[0] = '\0';
    bool kept = false;
    if ((rc = cp_replan_keep_old(&o, plan, &kept, err)) == CP_OK && kept)
        cp_solver_log(&o, "re-plan: the inputs did not change since OLD (solver.inputs); OLD's plan "
                          "kept without a search");
    else if (rc == CP_OK)
        rc = ops->solve(in, ms, &o, plan, err);
    if (!plan->method[0])
        snprintf(plan->method, sizeof plan->method, "%s", ops->name);
    plan->seconds = cp_now_seconds() - t0;
    plan->mip_engine = o.mip_engine == CP_MIP_CBC || o.sub_engine == CP_MIP_CBC ? "cbc" : NULL;
    cp_progress_phase(&o, "placement");
    if (rc == CP_OK)
        rc = finish(&o, plan, err);
    cp_progress_stop(beat);
    return rc;
}
