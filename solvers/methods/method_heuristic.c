/* --method heuristic: the greedy construction plus local search alone
 * (heur_greedy.c): fast, no optimality proof. Services (capplan.5 §10.4)
 * are planned around its jobs (services_after.c), which are planned in
 * the room the services will need (services_reserve.c). */
#include "cp_methods.h"
#include "solver_internal.h"

static int heuristic_jobs(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                          cp_plan *plan, void *ctx, cp_err *err)
{
    (void)ctx;
    return cp_heuristic_run(in, ms, opts, plan, err);
}

static int heuristic_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                           cp_plan *plan, cp_err *err)
{
    int rc = cp_services_jobs(in, ms, opts, heuristic_jobs, NULL, plan, err);
    return rc ? rc : cp_services_after(in, ms, opts, plan, err);
}

const cp_solver_ops cp_solver_heuristic = {
    "heuristic",
    "list scheduling by slack and regret, then local search (fast, no optimality proof)",
    heuristic_solve,
    true,
};
