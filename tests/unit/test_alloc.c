/* Allocation failure through a whole small plan (docs/reliability.md): for
 * N = 0, 1, 2, ... every allocation from the N-th on fails (cp_alloc.h)
 * while examples/tiny.yaml is loaded, its modes built, planned by each
 * method through the `plan` pipeline (cp_plan_solve: method, placement
 * and repair, reasons for drops) and written in the three formats. Each
 * run must end either with CP_ERR_NOMEM and the message "out of memory"
 * or, when the failures came too late to matter, with exactly the output
 * of the run without failures: an allocation failure may never change a
 * plan silently. No crash and, under `make asan` / `make valgrind`, no
 * leak. GLPK allocates with its own allocator, outside the hook: the
 * MILP's own model and search are not covered (docs/reliability.md). */
#include "test.h"

#include "cp_alloc.h"
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_plan_write.h"
#include "cp_methods.h"

#include <stdlib.h>

/* One full run; returns the status and, on success, the three outputs
 * concatenated in *out (owned by the caller). err gets the message. */
static int run_once(const cp_solver_ops *ops, const char *path, char **out, cp_err *err)
{
    const char *const paths[] = {path};
    cp_diags *d = cp_malloc(sizeof *d);
    cp_input *in = NULL;
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    cp_buf b;
    cp_buf_init(&b);
    int rc;
    *out = NULL;
    if (!d) {
        rc = cp_err_nomem(err);
        goto done;
    }
    cp_diags_init(d);
    rc = cp_input_load(paths, 1, &in, d);
    if (rc) {
        if (d->n)
            *err = d->items[0];
        goto done;
    }
    if ((rc = cp_modes_build(in, &ms, err)))
        goto done;
    if ((rc = cp_plan_new(in, ms, &plan))) {
        if (rc == CP_ERR_NOMEM)
            cp_err_nomem(err);
        goto done;
    }
    cp_solve_opts so;
    cp_solve_opts_init(&so);
    so.time_limit = 30;
    if ((rc = cp_plan_solve(in, ms, ops, &so, plan, err)))
        goto done;
    for (int f = CP_FMT_YAML; f <= CP_FMT_CSV; f++) {
        cp_plan_write_opts wo = {(cp_plan_format)f, false, NULL};
        if ((rc = cp_plan_write(plan, &wo, &b, err)))
            goto done;
    }
    if (!cp_buf_ok(&b)) {
        rc = cp_err_nomem(err);
        goto done;
    }
    *out = cp_buf_detach(&b);
    if (!*out)
        rc = cp_err_nomem(err);
done:
    cp_buf_release(&b);
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_input_free(in);
    cp_free(d);
    return rc;
}

static void sweep_file(const char *method, const char *path)
{
    const cp_solver_ops *ops = cp_solver_find(method);
    CHECK(ops != NULL);
    if (!ops)
        return;
    cp_err err;
    cp_err_init(&err);
    char *want = NULL;
    cp_alloc_fail_after(-1);
    CHECK_INT(run_once(ops, path, &want, &err), CP_OK);
    long total = cp_alloc_count();
    CHECK(total > 100);
    CHECK(want != NULL);
    long nomem = 0, bad = 0;
    for (long n = 0; n <= total && bad < 5; n++) {
        char *got = NULL;
        cp_err_init(&err);
        cp_alloc_fail_after(n);
        int rc = run_once(ops, path, &got, &err);
        cp_alloc_fail_after(-1);
        if (rc == CP_ERR_NOMEM) {
            nomem++;
            if (!strstr(err.msg, "out of memory")) {
                fprintf(stderr, "  %s, allocation %ld: NOMEM with message '%s'\n", method, n,
                        err.msg);
                bad++;
            }
        } else if (rc != CP_OK) {
            fprintf(stderr, "  %s, allocation %ld fails: rc %d, '%s'\n", method, n, rc, err.msg);
            bad++;
        } else if (!got || !want || strcmp(got, want) != 0) {
            size_t i = 0;
            while (got && want && got[i] && got[i] == want[i])
                i++;
            fprintf(stderr, "  %s, allocation %ld fails: CP_OK but a different output from byte %zu: '%.60s'\n",
                    method, n, i, got ? got + i : "(null)");
            bad++;
        }
        free(got);
    }
    CHECK_INT(bad, 0);
    /* every allocation but the last few is needed: failing it must fail */
    CHECK(nomem >= total - 1);
    free(want);
}

static void sweep(const char *method)
{
    sweep_file(method, "examples/tiny.yaml");
}

/* Version 1.1: predecessors resolved and pruned in the modes, a successor
 * dropped with its predecessor by the precedence repair */
TEST(alloc_fail_through_plan_precedence)
{
    sweep_file("heuristic", "tests/plan/precedence_drop.yaml");
}

/* Version 1.1: shapes */
TEST(alloc_fail_through_plan_shapes)
{
    sweep_file("heuristic", "tests/plan/shape_thin.yaml");
}

/* Version 1.2: power limits (the loader's lists, limit modes, the plan's
 * power_limit_w) and teams (the loader's teams and quotas, the team rows
 * of the search's bookkeeping, a drop reason naming a team's budget) */
TEST(alloc_fail_through_plan_power_limits)
{
    sweep_file("heuristic", "tests/plan/power_limit_dear.yaml");
}

TEST(alloc_fail_through_plan_teams)
{
    sweep_file("heuristic", "tests/plan/team_budget_drop.yaml");
    sweep_file("heuristic", "tests/reasons/team_quota.yaml");
}

/* Version 1.1: instance leases in the plan (cloud offers): the writer's
 * lease ids are built in a buffer of their own, whose failure must read
 * "out of memory", not "cannot write YAML" */
TEST(alloc_fail_through_plan_leases)
{
    sweep_file("heuristic", "tests/lp/lifted.yaml");
}

/* Version 1.2: services (the loader's classes and configurations, the
 * deployments, the MILP's service columns and rows, replica placement,
 * the plan's services section), with a batch job on the same node */
TEST(alloc_fail_through_plan_services)
{
    sweep_file("milp", "tests/services/shared_node.yaml");
    sweep_file("milp", "tests/services/two_types.yaml");
}

TEST(alloc_fail_through_plan_heuristic)
{
    sweep("heuristic");
}

TEST(alloc_fail_through_plan_milp)
{
    sweep("milp");
}

TEST(alloc_fail_through_plan_auto)
{
    sweep("auto");
}
