/*
 * --method lagrange: the scalable path for nights too large for the MILP:
 * the Lagrangian stage (lagrange_plan.c) on the whole time limit.
 */
#include "cp_methods.h"
#include "solver_internal.h"

static int lagrange_jobs(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                         cp_plan *plan, void *ctx, cp_err *err)
{
    return cp_lagrange_plan(in, ms, opts, cp_lns_stall(in), 1.0, plan, ctx, err);
}

static int lagrange_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                          cp_plan *plan, cp_err *err)
{
    if (opts->progress) {
        /* the model the relaxation prices: x columns and y per market
         * slot; rows: assignment, capacity per dimension and slot, power */
        long cols = 0, nnz = 0;
        for (int m = 0; m < ms->n_modes; m++) {
            const cp_mode *md = &ms->modes[m];
            long starts = md->s_max - md->s_min + 1, per = 1;
            for (int d = 0; d < CP_DIMS; d++)
                per += md->demand[d] > 0 ? md->slots : 0;
            cols += starts;
            nnz += starts * per;
        }
        long rows = in->n_jobs + (long)ms->n_res * CP_DIMS * in->slots + (long)in->n_sites * in->slots;
        cp_solver_log_model(opts, "model", rows, cols + (long)ms->n_res * in->slots, cols, nnz);
    }
    cp_bound_kind kind = CP_BOUND_NONE;
    int rc = cp_services_jobs(in, ms, opts, lagrange_jobs, &kind, plan, err);
    /* with services, the joint LP's (cp_services_jobs) */
    if (rc == CP_OK && plan->status != CP_STATUS_INFEASIBLE) {
        if (!plan->bound_kind)
            plan->bound_kind = cp_bound_kind_text(kind);
        cp_solver_log(opts, "bound: %s", plan->bound_kind);
    }
    /* capplan.5 §10.4: services around its jobs (services_after.c) */
    return rc ? rc : cp_services_after(in, ms, opts, plan, err);
}

const cp_solver_ops cp_solver_lagrange = {
    "lagrange",
    "greedy plus Lagrangian bound and price-guided greedy (large nights)",
    lagrange_solve,
    true,
};
