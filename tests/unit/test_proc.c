/*
 * Child processes (models/base/cp_proc.h) and the CBC engine over them
 * (solvers/cp_mip.h): exit codes and output, the time limit and the stop
 * flag ending a child (SIGTERM, then SIGKILL for one that ignores it), a
 * program that is not there, and a small MILP with a known optimum
 * solved by the `cbc` program when it is on PATH (skipped otherwise:
 * tests/suite_engines.sh runs with and without it).
 */
#include "test.h"

#include "cp_mip.h"
#include "cp_proc.h"
#include "cp_solution.h"
#include "cp_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TEST(proc_exit_code_and_output)
{
    const char *argv[] = {"/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    cp_buf out;
    cp_buf_init(&out);
    cp_proc_result r;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_proc_run(argv, 10, NULL, &out, &r, &err), CP_OK);
    CHECK_INT(r.end, CP_PROC_EXITED);
    CHECK_INT(r.code, 3);
    CHECK(strstr(out.s, "out\n") != NULL);
    CHECK(strstr(out.s, "err\n") != NULL);
    cp_buf_release(&out);
}

TEST(proc_time_limit_ends_the_child)
{
    /* it ignores SIGTERM: SIGKILL after the grace period ends it */
    const char *argv[] = {"/bin/sh", "-c", "trap '' TERM; /bin/sleep 30", NULL};
    cp_proc_result r;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_proc_run(argv, 0.2, NULL, NULL, &r, &err), CP_OK);
    CHECK_INT(r.end, CP_PROC_TIMEOUT);
    /* well under the child's 30 s, with room for a loaded machine */
    CHECK(r.seconds < 0.2 + CP_PROC_GRACE + 10);
    const char *quick[] = {"/bin/sleep", "30", NULL};
    CHECK_INT(cp_proc_run(quick, 0.1, NULL, NULL, &r, &err), CP_OK);
    CHECK_INT(r.end, CP_PROC_TIMEOUT);
    CHECK(r.seconds < 10);
}

TEST(proc_stop_flag_ends_the_child)
{
    const char *argv[] = {"/bin/sleep", "30", NULL};
    volatile sig_atomic_t stop = 1;
    cp_proc_result r;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_proc_run(argv, 0, &stop, NULL, &r, &err), CP_OK);
    CHECK_INT(r.end, CP_PROC_STOPPED);
    CHECK(r.seconds < 10); /* not the child's 30 s */
}

TEST(proc_missing_program)
{
    const char *argv[] = {"capplan-no-such-program", NULL};
    cp_proc_result r;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_proc_run(argv, 1, NULL, NULL, &r, &err), CP_ERR_IO);
    CHECK_STR(err.msg, "cannot run 'capplan-no-such-program': No such file or directory");
    CHECK(!cp_proc_find("capplan-no-such-program", NULL, 0));
    /* PATH's empty and missing directories are skipped */
    const char *old = getenv("PATH");
    char *keep = old ? strdup(old) : NULL;
    setenv("PATH", "/nonexistent::/bin", 1);
    char path[256];
    CHECK(cp_proc_find("sh", path, sizeof path));
    CHECK_STR(path, "/bin/sh");
    CHECK(!cp_proc_find("bin/sh", path, sizeof path));
    if (keep)
        setenv("PATH", keep, 1);
    else
        unsetenv("PATH");
    free(keep);
}

TEST(cbc_solu_parse)
{
    char text[] = "Stopped on nodes - objective value 12.5\n"
                  "      0 c1  1  3\n"
                  "**    3 c4  2  1\n"
                  "junk\n";
    char status[96];
    double obj;
    CHECK_INT(cp_cbc_solu_parse(text, strlen(text), status, sizeof status, &obj, NULL, NULL), 0);
    CHECK_STR(status, "Stopped on nodes");
    CHECK_NEAR(obj, 12.5, 1e-12);
    CHECK_INT(strlen(text) > 60, 1); /* left as it was without fn */
    char other[] = "Welcome to CBC\n";
    CHECK_INT(cp_cbc_solu_parse(other, strlen(other), status, sizeof status, &obj, NULL, NULL), 1);
}

/* CBC 2.10.8's own closing lines (captured, unedited): the root alone on
 * a 16-job sized night (tests/engines/sized16.yaml) whose optimum is
 * 157.7485595 (that model's objective), and branch-and-cut stopped on 30
 * nodes on an 80-job one. "Lower bound:" is 157.749, above the optimum;
 * "best possible" 157.74856 (also rounded up): each read bound is below
 * the true one and within 1e-5 relative of it. */
TEST(cbc_log_bound_is_below_the_rounding)
{
    const char *root =
        "Cbc0003I Exiting on maximum nodes\n"
        "Cbc0005I Partial search - best objective 1e+50 (best possible 157.74856), took 0 "
        "iterations and 0 nodes (0.08 seconds)\n"
        "Cbc0035I Maximum depth 0, 0 variables fixed on reduced cost\n"
        "Cuts at root node changed objective from 157.749 to 157.749\n"
        "\n"
        "Result - Stopped on node limit\n"
        "\n"
        "No feasible solution found\n"
        "Lower bound:                    157.749\n"
        "Enumerated nodes:               0\n";
    double b = cp_mip_cbc_log_bound(root);
    CHECK(b < 157.7485595);
    CHECK(b > 157.7485595 * (1 - 1e-5));
    CHECK_NEAR(b, 157.74856 - 1e-6 * 158.74856, 1e-9);
    const char *bc =
        "Cbc0010I After 0 nodes, 1 on tree, 2174.8955 best solution, best possible 1321.9331 "
        "(5.45 seconds)\n"
        "Cbc0003I Exiting on maximum nodes\n"
        "Cbc0005I Partial search - best objective 2174.8955 (best possible 1321.9331), took "
        "13576 iterations and 30 nodes (9.01 seconds)\n"
        "Cuts at root node changed objective from 1249.27 to 1321.93\n"
        "\n"
        "Result - Stopped on node limit\n"
        "\n"
        "Objective value:                2174.89546715\n"
        "Lower bound:                    1321.933\n"
        "Gap:                            0.65\n"
        "Enumerated nodes:               30\n";
    CHECK_NEAR(cp_mip_cbc_log_bound(bc), 1321.9331 - 1e-6 * 1322.9331, 1e-9);
    /* an older log with the closing line alone: lowered by 1e-5 relative */
    CHECK_NEAR(cp_mip_cbc_log_bound("Lower bound:                    157.749\n"),
               157.749 - 1e-5 * 158.749, 1e-9);
    CHECK(isnan(cp_mip_cbc_log_bound("Result - Optimal solution found\n")));
    CHECK(isnan(cp_mip_cbc_log_bound(NULL)));
}

/* A knapsack with a side row: max 5a + 4b + 3c + y/2 with 2a + 3b + c <= 4,
 * a + b + c = 2 (so exactly two items: a and b weigh too much), y integer
 * in [0, 3] with y <= 2 - a: a and c with y = 1 give 8.5, b and c with
 * y = 2 give 8: the optimum is 8.5, minimized as -8.5. */
TEST(cbc_solves_a_small_milp)
{
    if (cp_mip_engine_auto() != CP_MIP_CBC) {
        fprintf(stderr, "note: no cbc on PATH: cbc_solves_a_small_milp not run\n");
        return;
    }
    double row_lo[] = {0, -INFINITY, 2, -INFINITY};
    double row_hi[] = {0, 4, 2, 2};
    double obj[] = {0, -5, -4, -3, -0.5};
    double col_lo[] = {0, 0, 0, 0, 0};
    double col_hi[] = {0, 1, 1, 1, 3};
    bool isint[] = {0, 1, 1, 1, 1};
    int ia[] = {0, 1, 1, 1, 2, 2, 2, 3, 3};
    int ja[] = {0, 1, 2, 3, 1, 2, 3, 1, 4};
    double ar[] = {0, 2, 3, 1, 1, 1, 1, 1, 1};
    double start[] = {0, 1, 0, 1, 0}; /* a and c, y = 0: -8, feasible */
    cp_mip m = {3, 4, row_lo, row_hi, obj, col_lo, col_hi, isint, 8, ia, ja, ar, start};
    cp_mip_limits lim = {.nodes = 100, .gap = 1e-9, .seed = 7};
    double x[5] = {0};
    cp_mip_result res;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_mip_cbc_solve(&m, &lim, x, &res, &err), CP_OK);
    CHECK_INT(res.status, CP_MIP_OPTIMAL);
    CHECK_NEAR(res.objective, -8.5, 1e-9);
    CHECK_NEAR(x[1], 1, 1e-9);
    CHECK_NEAR(x[2], 0, 1e-9);
    CHECK_NEAR(x[3], 1, 1e-9);
    CHECK_NEAR(x[4], 1, 1e-9);
    /* infeasible: a + b + c = 2 and a + b + c <= 1 */
    row_hi[1] = 1;
    ar[1] = ar[2] = ar[3] = 1;
    m.start = NULL;
    CHECK_INT(cp_mip_cbc_solve(&m, &lim, x, &res, &err), CP_OK);
    CHECK_INT(res.status, CP_MIP_INFEASIBLE);
}
