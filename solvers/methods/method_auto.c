/*
 * --method auto: milp for models GLPK's simplex handles within seconds,
 * lagrange above; the plan's method says which ran ("auto/milp").
 */
#include "cp_methods.h"

#include <stdio.h>

/* auto: the MILP path (Lagrangian stage, then branch-and-cut) while
 * GLPK's simplex solves the LP relaxation in seconds; above that, the
 * Lagrangian path alone, whose search then gets the whole time limit.
 * Measured on 2 cores (docs/performance.md): the LP takes about 1 s at
 * 7,600 start columns, 3 s at 13,000 and 20-50 s at 36,000. */
#define AUTO_MILP_COLUMNS 20000L

static int auto_solve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err)
{
    long cols = 0;
    for (int m = 0; m < ms->n_modes; m++)
        cols += ms->modes[m].s_max - ms->modes[m].s_min + 1;
    const cp_solver_ops *via = &cp_solver_milp;
    if (cols > AUTO_MILP_COLUMNS) {
        cp_solver_log(opts, "auto: %ld start columns; the Lagrangian path", cols);
        via = &cp_solver_lagrange;
    }
    int rc = via->solve(in, ms, opts, plan, err);
    snprintf(plan->method, sizeof plan->method, "auto/%.20s", via->name);
    return rc;
}

const cp_solver_ops cp_solver_auto = {
    "auto",
    "milp up to 20,000 start columns, else lagrange",
    auto_solve,
    true,
};
