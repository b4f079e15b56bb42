/*
 * The Lagrangian stage that --method lagrange runs alone and --method
 * milp runs before branch-and-cut: the greedy heuristic gives a first
 * plan and an upper bound; the Lagrangian relaxation (lagrange.c) gives
 * a lower bound and capacity prices; the greedy runs again choosing by
 * cost plus the priced capacity each run takes, and the cheaper plan is
 * kept; column generation (lp_colgen.c), started at those prices and that
 * plan, solves the LP relaxation of the exported model exactly or,
 * stopped early, still gives a bound at least as good; large
 * neighbourhood search (lns.c) then improves the plan until it stalls,
 * proves the gap against the better bound, or the time is up.
 * Deterministic unless the time limit cuts a phase short.
 *
 * The priced greedy and the search keep the subgradient's prices, not the
 * LP's duals: by the measurement of the engineer who wrote the column
 * generation (24 runs of six bench nights; the runs were not kept), the
 * greedy priced by the LP's duals was sometimes the cheaper start, but the
 * search then ended 3.4 % dearer on average.
 */
#include "solver_internal.h"

#include <math.h>
#include <string.h>

/* Share of the time limit the subgradient may use. */
#define LAGRANGE_TIME_SHARE 0.4
/* Share of what is left that column generation may use. */
#define LP_TIME_SHARE 0.5
/* CBC's root cuts (cp_milp_root_bound): on models of up to this many
 * start columns (the size `auto` gives branch-and-cut, method_auto.c),
 * with at most this share of the time left. Measured on the sized 80-job
 * night, seed 1 (bench/gen --family sized 1 80, 4,857 binaries): the
 * LP 1,248.67, capplan's lifted LP 1,258.19, CBC's root 1,314.39 in 2.7
 * CPU seconds; of CBC's cut families two-step MIR alone gives 1,296.86,
 * Gomory 1,278.21, MIR 1,266.01, knapsack covers 1,257.08 (rows over
 * several markets and starts at once, which per-market lifting rows
 * cannot be: docs/bounds.md). */
#define ROOT_COLUMNS 20000L
#define ROOT_TIME_SHARE 0.25

/* CBC's root bound when CBC is the engine and the model small enough:
 * raises *bound and *kind when above. A cbc that cannot be run, or is cut
 * by the deadline, leaves them. */
static int root_bound(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, double total,
                      double *bound, cp_bound_kind *kind, cp_err *err)
{
    long cols = 0;
    for (int m = 0; m < ms->n_modes; m++)
        cols += ms->modes[m].s_max - ms->modes[m].s_min + 1;
    /* not when the gap is closed already (the plan is proved) */
    if (opts->mip_engine != CP_MIP_CBC || cols > ROOT_COLUMNS || cp_solve_is_late(opts) ||
        (isfinite(*bound) && total - *bound <= opts->gap * fabs(total)))
        return CP_OK;
    double b = NAN, t = cp_now_seconds();
    cp_err e;
    cp_err_init(&e);
    int rc = cp_milp_root_bound(in, ms, opts, t + cp_solver_phase_seconds(opts, ROOT_TIME_SHARE), &b, &e);
    if (rc == CP_ERR_NOMEM)
        return cp_err_nomem(err);
    cp_solver_log(opts, "root: CBC's root cuts %.10g after %.2f s", b, cp_now_seconds() - t);
    if (rc == CP_OK && isfinite(b) && b > *bound) {
        *bound = b;
        *kind = CP_BOUND_ROOT;
        cp_progress_bound(opts, b);
    }
    return CP_OK;
}

const char *cp_bound_kind_text(cp_bound_kind k)
{
    switch (k) {
    case CP_BOUND_LP:
        return "LP (column generation, exact)";
    case CP_BOUND_LP_PARTIAL:
        return "LP column generation stopped early (Lagrangian value at its duals)";
    case CP_BOUND_LAGRANGIAN:
        return "Lagrangian (subgradient)";
    case CP_BOUND_MILP:
        return "branch-and-cut";
    case CP_BOUND_ROOT:
        return "root cuts (CBC on the exported model, no branching)";
    case CP_BOUND_LIFTED:
        return "lifted LP (column generation with packing rows)";
    default:
        return "none";
    }
}

int cp_lagrange_plan(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, long stall,
                     double lns_share, cp_plan *plan, cp_bound_kind *kind, cp_err *err)
{
    *kind = CP_BOUND_NONE;
    double total = INFINITY;
    int rc = cp_heuristic_scoped(in, ms, opts, NULL, NULL, plan, &total, err);
    if (rc || plan->status == CP_STATUS_INFEASIBLE)
        return rc;
    cp_solver_log_incumbent(opts, total);
    cp_progress_phase(opts, "Lagrangian bound");
    /* past the deadline (the heuristic's construction took it all) no
     * phase starts: each builds its own copy of the packing bookkeeping,
     * 240 MB and a third of a second on 1,000 nodes x 10,000 slots */
    cp_lagrange lg = {-INFINITY, NULL, NULL, 0};
    if (!cp_solve_is_late(opts))
        rc = cp_lagrange_run(in, ms, opts, total, cp_solver_phase_seconds(opts, LAGRANGE_TIME_SHARE),
                             &lg, err);
    if (rc)
        return rc;
    double bound = lg.bound;
    if (isfinite(bound))
        *kind = CP_BOUND_LAGRANGIAN;
    cp_progress_bound(opts, bound);
    cp_progress_phase(opts, "priced first plan");
    cp_prices pr = {lg.cap, lg.power, NULL};
    if (rc == CP_OK && !cp_solve_is_late(opts)) {
        cp_plan *alt = NULL;
        if (cp_plan_new(in, ms, &alt)) {
            cp_lagrange_release(&lg);
            return cp_err_nomem(err);
        }
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
    /* the LP, from the subgradient's prices and the best plan so far (the
     * priced one is much closer to the LP optimum: a shorter first master
     * solve); always, as the bound it gives is the one to trust, and on
     * small nights it takes milliseconds */
    cp_lpcg cg;
    memset(&cg, 0, sizeof cg);
    cg.bound = -INFINITY;
    if (rc == CP_OK && !cp_solve_is_late(opts)) {
        cp_progress_phase(opts, "LP bound");
        rc = cp_lpcg_run(in, ms, opts, plan, &pr, true, cp_solver_phase_seconds(opts, LP_TIME_SHARE), &cg, err);
        if (rc) {
            cp_lpcg_release(&cg);
            cp_lagrange_release(&lg);
            return rc;
        }
        /* the search's LP move follows the LP's solution */
        pr.lp = cg.sol.first ? &cg.sol : NULL;
        /* solved, the LP optimum is at least every Lagrangian bound (but
         * for rounding: the larger number is kept); the lifting rows
         * raise it further */
        if (cg.lp_exact || cg.bound > bound) {
            bound = fmax(bound, cg.bound);
            double lp = cg.lp_exact ? cg.lp_value : -INFINITY;
            *kind = cg.bound > lp + 1e-9 * (1 + fabs(lp)) && cg.cut_rows ? CP_BOUND_LIFTED
                    : cg.lp_exact                                         ? CP_BOUND_LP
                                                                          : CP_BOUND_LP_PARTIAL;
        }
    }
    if (rc == CP_OK)
        rc = root_bound(in, ms, opts, total, &bound, kind, err);
    if (rc == CP_OK && !cp_solve_is_late(opts)) {
        double t3 = INFINITY;
        long iters = cp_lns_budget(opts);
        cp_progress_phase(opts, "search");
        rc = cp_lns(in, ms, opts, &pr, bound, iters, stall,
                    cp_now_seconds() + cp_solver_phase_seconds(opts, lns_share), plan, &t3, err);
        if (rc == CP_OK && t3 < total - 1e-9 * (1 + fabs(total))) {
            total = t3;
            cp_solver_log_incumbent(opts, total);
        }
    }
    if (rc == CP_OK) {
        plan->bound = isfinite(bound) ? bound : NAN;
        plan->objective = total;
        bool proved = isfinite(bound) && total - bound <= opts->gap * fabs(total);
        plan->status = proved ? CP_STATUS_OPTIMAL : CP_STATUS_FEASIBLE;
    }
    cp_lpcg_release(&cg);
    cp_lagrange_release(&lg);
    return rc;
}
