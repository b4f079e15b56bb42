/*
 * --method milp, around the GLPK model of milp_glpk.c: the Lagrangian
 * stage (greedy, bound, priced greedy, neighbourhood search until it
 * stalls), then branch-and-cut warm-started from its plan, then the plan
 * rebuilt on concrete nodes.
 */
#include "cp_methods.h"
#include "cp_placement.h"
#include "solver_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Steps without a gain after which the search before branch-and-cut
 * stops (a work limit, so a run that then ends by optimality is
 * reproducible even on a loaded machine: no share of the clock cuts it),
 * the share of the time limit it may take at most, and the grace
 * past the limit for the search that repairs a plan that did not pack. */
#define MILP_LNS_STALL 50000L
#define MILP_LNS_SHARE 1.0
#define MILP_REPAIR_GRACE 0.3
/* With services: the share of the limit for the first incumbent (the
 * jobs' greedy and local search, then the services around them). */
#define MILP_WARM_SHARE 0.25

/* Whether p packs onto the nodes and instances as it is (on a copy: the
 * load drops what does not fit). */
static int packs_as_is(const cp_input *in, const cp_modeset *ms, const cp_plan *p, bool *ok)
{
    cp_plan *t = NULL;
    cp_usage u;
    if (cp_plan_new(in, ms, &t) || cp_plan_copy(t, p) || cp_usage_init(&u, in, ms)) {
        cp_plan_free(t);
        return CP_ERR_NOMEM;
    }
    *ok = cp_usage_load_plan(&u, t) == 0;
    cp_usage_release(&u);
    cp_plan_free(t);
    return CP_OK;
}

/* cp_improve and cp_lns keep precedence while they search (capplan.5 §9.2,
 * prec_graph.c); should they still turn the tree's plan, which holds it,
 * into one that breaks it (the safety net), the repair's result is kept
 * only if it beats the tree's plan as it was (when that packs). */
static int keep_precedence(const cp_input *in, const cp_modeset *ms, cp_plan *plan, const cp_plan *orig,
                           double *tp, cp_err *err)
{
    bool moved, ok;
    int rc;
    if (!orig || cp_plan_precedence_ok(plan))
        return CP_OK;
    if ((rc = cp_plan_precedence(plan, &moved, err)) || (rc = packs_as_is(in, ms, orig, &ok)))
        return rc == CP_ERR_NOMEM ? cp_err_nomem(err) : rc;
    cp_plan_figures fp, fo;
    if ((rc = cp_plan_eval(plan, &fp, err)))
        return rc;
    *tp = fp.costs.total;
    cp_plan_figures_release(&fp);
    if (!ok)
        return CP_OK;
    if ((rc = cp_plan_eval(orig, &fo, err)))
        return rc;
    double to = fo.costs.total;
    cp_plan_figures_release(&fo);
    if (to <= *tp) {
        /* the tree's plan with its own status: it packs as it is */
        if (cp_plan_copy(plan, orig))
            return cp_err_nomem(err);
        plan->status = orig->status;
        *tp = to;
    }
    return CP_OK;
}

/* The MILP sees only aggregate pool capacity: its plan is rebuilt on
 * concrete nodes, where a job that does not pack is placed again at its
 * best (mode, start) at true cost, and the plan is compared with the
 * heuristic's (packed by construction); the cheaper is kept, so the MILP
 * is never worse than the heuristic in what is written. */
static int keep_best_packed(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                            cp_plan *plan, const cp_plan *warm, cp_err *err)
{
    int n = plan->n_jobs, rc;
    cp_plan *orig = NULL;
    if (cp_input_has_after(in) && cp_plan_precedence_ok(plan) && (cp_plan_new(in, ms, &orig) || cp_plan_copy(orig, plan))) {
        cp_plan_free(orig);
        return cp_err_nomem(err);
    }
    int *before = cp_calloc((size_t)(n ? 2 * n : 1), sizeof *before);
    if (!before) {
        cp_plan_free(orig);
        return cp_err_nomem(err);
    }
    for (int j = 0; j < n; j++) {
        before[2 * j] = plan->mode[j];
        before[2 * j + 1] = plan->start[j];
    }
    double tp, tw = INFINITY;
    if ((rc = cp_improve(in, ms, opts, plan, &tp, err))) {
        cp_free(before);
        cp_plan_free(orig);
        return rc;
    }
    bool changed = false;
    for (int j = 0; j < n; j++)
        changed |= before[2 * j] != plan->mode[j] || (plan->mode[j] >= 0 && before[2 * j + 1] != plan->start[j]);
    cp_free(before);
    if (changed) {
        if (plan->status == CP_STATUS_OPTIMAL)
            plan->status = CP_STATUS_FEASIBLE;
        /* a job moved for want of a node: a short neighbourhood search
         * (within a grace of MILP_REPAIR_GRACE s past the limit) looks
         * for the swap that makes room */
        double end = fmax(opts->t_start + opts->time_limit, cp_now_seconds() + MILP_REPAIR_GRACE);
        cp_progress_phase(opts, "search");
        if ((rc = cp_lns(in, ms, opts, NULL, -INFINITY, cp_lns_budget(opts), MILP_LNS_STALL / 4, end, plan, &tp,
                         err))) {
            cp_plan_free(orig);
            return rc;
        }
    }
    rc = keep_precedence(in, ms, plan, orig, &tp, err);
    cp_plan_free(orig);
    if (rc)
        return rc;
    cp_plan_figures fw;
    if ((rc = cp_plan_eval(warm, &fw, err)))
        return rc;
    tw = fw.costs.total;
    cp_plan_figures_release(&fw);
    /* the Lagrangian stage prices each precedence component jointly but
     * leaves out an edge that closes an undirected cycle (lagrange.c): its
     * plan may be cheaper only because it breaks such an `after` edge,
     * which the tree's rows forbid */
    if (cp_plan_precedence_ok(warm) && tw < tp - 1e-9 * (1 + fabs(tp))) {
        if (cp_plan_copy(plan, warm))
            return cp_err_nomem(err);
        plan->status = CP_STATUS_FEASIBLE;
    }
    return CP_OK;
}


static int milp_warm_jobs(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                          cp_plan *plan, void *ctx, cp_err *err)
{
    (void)ctx;
    return cp_heuristic_run(in, ms, opts, plan, err);
}

/* capplan.5 §10.4: with services, branch-and-cut on the whole model
 * (jobs, replicas, shares, starts), warm-started from the greedy's jobs
 * with the services planned around them (the Lagrangian stage plans
 * jobs only).
 * Placement (cp_plan_place) then packs the jobs and puts the replicas
 * in the room they leave. */
static int milp_services(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                         cp_plan *plan, cp_err *err)
{
    /* the first incumbent: the greedy and local search's jobs with the
     * services planned around them (services_after.c) */
    cp_plan *warm = NULL;
    if (cp_plan_new(in, ms, &warm))
        return cp_err_nomem(err);
    /* a large night of services alone: branch-and-cut on the joint
     * model finds no LP in a run (bench/gen --services 100 1 0: the warm
     * start, the greedy's plan, was the answer, $5,063.00), so the
     * services' search gets the whole limit and its plan is the answer */
    bool alone = cp_services_alone(in, ms);
    cp_solve_opts o = *opts;
    o.time_limit = opts->time_limit * (alone ? 1 : MILP_WARM_SHARE);
    int rc = cp_services_jobs(in, ms, &o, milp_warm_jobs, NULL, warm, err);
    if (rc == CP_OK && warm->status == CP_STATUS_INFEASIBLE) {
        plan->status = CP_STATUS_INFEASIBLE;
        cp_plan_free(warm);
        return CP_OK;
    }
    if (rc == CP_OK)
        rc = cp_services_after(in, ms, &o, warm, err);
    if (rc == CP_OK && warm->status != CP_STATUS_NOPLAN) {
        cp_plan_figures f;
        if ((rc = cp_plan_eval(warm, &f, err)) == CP_OK) {
            warm->objective = f.costs.total;
            cp_plan_figures_release(&f);
        }
    }
    if (rc == CP_OK && alone && warm->status != CP_STATUS_NOPLAN) {
        rc = cp_plan_copy(plan, warm) ? cp_err_nomem(err) : CP_OK;
        plan->status = warm->status;
        plan->objective = warm->objective;
        plan->bound = warm->bound;
        plan->bound_kind = warm->bound_kind;
        cp_plan_free(warm);
        return rc;
    }
    if (rc == CP_OK)
        rc = cp_milp_run(in, ms, opts, NULL, warm->status == CP_STATUS_NOPLAN ? NULL : warm, plan, err);
    cp_plan_free(warm);
    if (rc == CP_OK && plan->status != CP_STATUS_INFEASIBLE && plan->status != CP_STATUS_NOPLAN) {
        plan->bound_kind = cp_bound_kind_text(CP_BOUND_MILP);
        cp_solver_log(opts, "bound: %s", plan->bound_kind);
    }
    return rc;
}

static int milp_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err);

/* capplan.5 §10.4: services apart from the jobs (cp_services_apart: no
 * row holds both) make the MILP two blocks, whose optima add up. In one
 * model GLPK's relative gap is the whole night's, and a service that
 * costs forty times the jobs lets their part end forty times as far
 * from its optimum: with a $367 chat service next to its $9.13 of jobs,
 * the nightly example's plan ended $0.01 above the jobs' optimum, then
 * moved by placement. So the jobs are planned as if there were no
 * services (a view without them, to their own gap, on the jobs' share of
 * the time), then the services around them, each job at its mode and
 * start; the bound is the jobs' bound plus the services' (the around
 * MILP's, less the jobs' fixed cost), and the plan is optimal when both
 * are. */
static int milp_apart(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err)
{
    cp_input view = *in;
    view.services = NULL;
    view.n_services = 0;
    cp_modeset *jms = NULL;
    cp_plan *jobs = NULL;
    int rc = cp_modes_build(&view, &jms, err);
    if (rc)
        return rc;
    /* the jobs' modes are built before the deployments, so the view's
     * are the input's, index for index */
    if (jms->n_modes != ms->n_modes || jms->n_res != ms->n_res) {
        cp_modeset_free(jms);
        return milp_services(in, ms, opts, plan, err);
    }
    cp_solve_opts jo = cp_services_jobs_opts(in, opts);
    if (cp_plan_new(&view, jms, &jobs))
        rc = cp_err_nomem(err);
    if (rc == CP_OK)
        rc = milp_solve(&view, jms, &jo, jobs, err);
    cp_plan_figures f;
    double jtotal = NAN, jbound = jobs ? jobs->bound : NAN;
    if (rc == CP_OK && jobs->status != CP_STATUS_INFEASIBLE && jobs->status != CP_STATUS_NOPLAN &&
        (rc = cp_plan_eval(jobs, &f, err)) == CP_OK) {
        jtotal = f.costs.total;
        cp_plan_figures_release(&f);
    }
    if (rc == CP_OK && cp_plan_copy(plan, jobs))
        rc = cp_err_nomem(err);
    if (rc == CP_OK) {
        plan->status = jobs->status;
        plan->objective = jobs->objective;
        plan->mip_engine = jobs->mip_engine;
        plan->bound = NAN;
        plan->bound_kind = jobs->bound_kind;
    }
    bool jopt = rc == CP_OK && jobs->status == CP_STATUS_OPTIMAL;
    double sbound = NAN;
    bool sopt = false, same = true;
    if (rc == CP_OK && plan->status != CP_STATUS_INFEASIBLE && plan->status != CP_STATUS_NOPLAN) {
        cp_solver_log(opts, "milp: services apart from the jobs; the jobs' plan %.10g, bound %.10g",
                      jtotal, jbound);
        rc = cp_services_after_fixed(in, ms, opts, plan, jtotal, &sbound, &sopt, err);
        for (int j = 0; rc == CP_OK && j < in->n_jobs; j++)
            same &= plan->mode[j] == jobs->mode[j] && (plan->mode[j] < 0 || plan->start[j] == jobs->start[j]);
        /* the jobs where they were: their nodes as the jobs' MILP packed them */
        if (rc == CP_OK && same && cp_plan_copy_units(plan, jobs))
            rc = cp_err_nomem(err);
        double total = NAN;
        if (rc == CP_OK && (rc = cp_plan_eval(plan, &f, err)) == CP_OK) {
            total = f.costs.total;
            cp_plan_figures_release(&f);
        }
        if (rc == CP_OK) {
            if (!isnan(jbound) && !isnan(sbound) && !isnan(jtotal))
                plan->bound = jbound + (sbound - jtotal);
            /* each block within the gap of its own cost: the whole within
             * the gap of the total */
            bool within = !isnan(plan->bound) && total - plan->bound <= opts->gap * fabs(total);
            plan->status = jopt && sopt && same && within ? CP_STATUS_OPTIMAL : CP_STATUS_FEASIBLE;
            cp_solver_log(opts, "milp: the services around them: bound %.10g (%s)", sbound,
                          sopt ? "optimal" : "not proved");
        }
    }
    cp_plan_free(jobs);
    cp_modeset_free(jms);
    return rc;
}

static int milp_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err)
{
    if (in->n_services)
        return cp_services_apart(in, ms) ? milp_apart(in, ms, opts, plan, err)
                                         : milp_services(in, ms, opts, plan, err);
    cp_plan *warm = NULL;
    int rc = cp_plan_new(in, ms, &warm);
    if (rc)
        return cp_err_nomem(err);
    /* The first incumbent: the greedy, the Lagrangian bound and prices,
     * the priced greedy and neighbourhood search until it stalls (or a
     * share of the time); then branch-and-cut from there. */
    cp_bound_kind kind;
    rc = cp_lagrange_plan(in, ms, opts, MILP_LNS_STALL, MILP_LNS_SHARE, warm, &kind, err);
    if (rc == CP_OK && warm->status == CP_STATUS_INFEASIBLE) {
        plan->status = CP_STATUS_INFEASIBLE;
    } else if (rc == CP_OK && warm->status == CP_STATUS_OPTIMAL && cp_plan_precedence_ok(warm)) {
        /* the Lagrangian bound already proves it within the gap (a plan
         * that breaks precedence proves nothing: branch-and-cut, whose
         * rows hold precedence, decides) */
        if (cp_plan_copy(plan, warm))
            rc = cp_err_nomem(err);
        plan->status = CP_STATUS_OPTIMAL;
        plan->objective = warm->objective;
    } else if (rc == CP_OK) {
        rc = cp_milp_run(in, ms, opts, NULL, warm, plan, err);
    }
    /* the best bound of the two: the Lagrangian stage's (subgradient or
     * LP by column generation) or branch-and-cut's */
    bool tree = rc == CP_OK && warm->status != CP_STATUS_OPTIMAL && !isnan(plan->bound) &&
                (isnan(warm->bound) || plan->bound > warm->bound + 1e-9 * (1 + fabs(warm->bound)));
    if (rc == CP_OK && !isnan(warm->bound) && (isnan(plan->bound) || warm->bound > plan->bound))
        plan->bound = warm->bound;
    if (rc == CP_OK && plan->status != CP_STATUS_INFEASIBLE)
    {
        plan->bound_kind = cp_bound_kind_text(tree ? CP_BOUND_MILP : kind);
        cp_solver_log(opts, "bound: %s", plan->bound_kind);
    }
    if (rc == CP_OK && plan->status != CP_STATUS_INFEASIBLE && plan->status != CP_STATUS_NOPLAN)
        rc = keep_best_packed(in, ms, opts, plan, warm, err);
    cp_plan_free(warm);
    return rc;
}

const cp_solver_ops cp_solver_milp = {
    "milp",
    "time-indexed MILP in GLPK, warm-started from the heuristic",
    milp_solve,
    true,
};
