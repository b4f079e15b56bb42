/*
 * The Lagrangian stage that --method lagrange runs alone and --method
 * milp runs before branch-and-cut: the greedy heuristic gives a first
 * plan and an upper bound; the Lagrangian relaxation (lagrange.c) gives
 * the lower bound and capacity prices; the greedy runs again choosing by
 * cost plus the priced capacity each run takes, and the cheaper plan is
 * kept; large neighbourhood search (lns.c) then improves it until it
 * stalls, proves the gap, or the time is up. Deterministic unless the
 * time limit cuts a phase short.
 */
#include "solver_internal.h"

#include <math.h>

/* Share of the time limit the subgradient may use. */
#define LAGRANGE_TIME_SHARE 0.4

int cp_lagrange_plan(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, long stall,
                     double lns_share, cp_plan *plan, cp_err *err)
{
    double total = INFINITY;
    int rc = cp_heuristic_scoped(in, ms, opts, NULL, NULL, plan, &total, err);
    if (rc || plan->status == CP_STATUS_INFEASIBLE)
        return rc;
    cp_solver_log_incumbent(opts, total);
    cp_lagrange lg;
    rc = cp_lagrange_run(in, ms, opts, total, cp_solver_phase_seconds(opts, LAGRANGE_TIME_SHARE), &lg, err);
    if (rc)
        return rc;
    double deadline = cp_solve_deadline(opts);
    if (!(opts->stop && *opts->stop) && cp_now_seconds() < deadline) {
        cp_plan *alt = NULL;
        if (cp_plan_new(in, ms, &alt)) {
            cp_lagrange_release(&lg);
            return cp_err_nomem(err);
        }
        cp_prices pr = {lg.cap, lg.power};
        double t2 = INFINITY;
        rc = cp_heuristic_scoped(in, ms, opts, NULL, &pr, alt, &t2, err);
        if (rc == CP_OK && t2 < total - 1e-9 * (1 + fabs(total))) {
            total = t2;
            if (cp_plan_copy(plan, alt))
                rc = cp_err_nomem(err);
            cp_solver_log_incumbent(opts, total);
        }
        cp_plan_free(alt);
    }
    if (rc == CP_OK && !(opts->stop && *opts->stop)) {
        double t3 = INFINITY;
        long iters = cp_lns_budget(opts);
        cp_prices pr = {lg.cap, lg.power};
        rc = cp_lns(in, ms, opts, &pr, lg.bound, iters, stall, cp_now_seconds() + cp_solver_phase_seconds(opts, lns_share),
                    plan, &t3, err);
        if (rc == CP_OK && t3 < total - 1e-9 * (1 + fabs(total))) {
            total = t3;
            cp_solver_log_incumbent(opts, total);
        }
    }
    if (rc == CP_OK) {
        plan->bound = isfinite(lg.bound) ? lg.bound : NAN;
        plan->objective = total;
        bool proved = isfinite(lg.bound) && total - lg.bound <= opts->gap * fabs(total);
        plan->status = proved ? CP_STATUS_OPTIMAL : CP_STATUS_FEASIBLE;
    }
    cp_lagrange_release(&lg);
    return rc;
}
