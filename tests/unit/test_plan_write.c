/*
 * The plan writer's second line of defence: the loader
 * bounds every input number (CP_INPUT_NUM_MAX) so that no total can
 * overflow, and should a figure still not be finite, cp_plan_write refuses
 * to write a plan that verify and report could not read. The input is
 * changed after loading, past the loader's bound.
 */
#include "test.h"

#include "cp_input.h"
#include "cp_methods.h"
#include "cp_modes.h"
#include "cp_plan_write.h"
#include "cp_solver.h"

#include <string.h>

TEST(plan_write_refuses_a_non_finite_total)
{
    static cp_diags diags;
    cp_diags_init(&diags);
    const char *paths[] = {"examples/tiny.yaml"};
    cp_input *in = NULL;
    CHECK_INT(cp_input_load(paths, 1, &in, &diags), CP_OK);
    if (!in)
        return;
    in->sites[0].pue = 1e308; /* the idle baseline's energy overflows */
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_modes_build(in, &ms, &err), CP_OK);
    if (ms && cp_plan_new(in, ms, &plan) == CP_OK) {
        cp_solve_opts so;
        cp_solve_opts_init(&so);
        so.node_limit = 10;
        int rc = cp_plan_solve(in, ms, &cp_solver_heuristic, &so, plan, &err);
        CHECK(rc == CP_OK || rc == CP_ERR_INFEASIBLE);
        for (int fmt = CP_FMT_YAML; fmt <= CP_FMT_CSV; fmt++) {
            cp_plan_write_opts wo = {(cp_plan_format)fmt, false, NULL};
            cp_buf b;
            cp_buf_init(&b);
            cp_err_init(&err);
            CHECK_INT(cp_plan_write(plan, &wo, &b, &err), CP_ERR_INTERNAL);
            CHECK(strstr(err.msg, "is not a finite number") != NULL);
            cp_buf_release(&b);
        }
    }
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_input_free(in);
}
