/* Precedence kept while searching (capplan.5 §9.2; solvers/cp_prec.h): the
 * window of a job, each method's own plan before the pipeline's repair,
 * the LNS from a plan that a repair-only search would leave, and the
 * Lagrangian bound with the precedence components priced together.
 *
 * The instance is tests/plan/prec_lookahead.yaml, where the optimum is
 * derived by hand: etl (1 h on cpu, $0.50 in slots 0-1, $0.10 in 2-3)
 * before train (1 h on gpu, $0.15 in slots 0-1, deadline hour 2), both
 * with penalty $1. train can run only in slot 1 after etl in slot 0:
 * $0.65; etl in its cheap slot drops train: $1.10; without precedence
 * both would take $0.25 (etl 2, train 0). */
#include "test.h"

#include "cp_methods.h"
#include "cp_placement.h"
#include "cp_prec.h"
#include "fixture.h"
#include "lns_internal.h"

#include <limits.h>

static const char input[] =
    "horizon: {slots: 4}\n"
    "sites: [{name: dc, energy_price: [0.5, 0.5, 0.1, 0.1]}]\n"
    "accelerators: [{name: V100, memory_gb: 32, power_w: 300}]\n"
    "pools:\n"
    "  - {name: cpu, site: dc, nodes: 1, node: {type: std, cpus: 16, memory_gb: 64, power_w: 1000}}\n"
    "  - {name: gpu, site: dc, nodes: 1,\n"
    "     node: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "jobs:\n"
    "  - {name: train, kind: training, work: 3600, throughput: {V100: 1}, after: [etl],\n"
    "     deadline_hour: 2, drop_penalty: 1}\n"
    "  - {name: etl, kind: dataflow, input_gb: 10, machines: [1],\n"
    "     runtime: {model: ernest, theta: {std: [3600, 0, 0, 0]}}, drop_penalty: 1}\n";

enum { TRAIN, ETL }; /* input order */

static cp_fx fx;

static double total(const cp_plan *p)
{
    cp_plan_figures f;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_eval(p, &f, &err) != CP_OK)
        return NAN;
    double t = f.costs.total;
    cp_plan_figures_release(&f);
    return t;
}

TEST(prec_window_and_ancestors)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_prec g;
    CHECK_INT(cp_prec_init(&g, fx.in), CP_OK);
    CHECK(g.any);
    CHECK(g.rank[ETL] < g.rank[TRAIN]);
    CHECK(cp_prec_ancestor(&g, ETL, TRAIN));
    CHECK(!cp_prec_ancestor(&g, TRAIN, ETL));
    int mode[2] = {cp_fx_mode(&fx, "train", "gpu", 1), cp_fx_mode(&fx, "etl", "cpu", 1)};
    int start[2] = {1, 0}, est, lend;
    /* etl in slot 0 (1 h): train from slot 1 on; etl ends by train's start */
    CHECK(cp_prec_window(&g, fx.ms, mode, start, NULL, TRAIN, &est, &lend));
    CHECK_INT(est, 1);
    CHECK_INT(lend, INT_MAX);
    CHECK(cp_prec_window(&g, fx.ms, mode, start, NULL, ETL, &est, &lend));
    CHECK_INT(est, 0);
    CHECK_INT(lend, 1);
    CHECK(cp_prec_has_running_succ(&g, mode, NULL, ETL));
    /* train taken out of the plan: no bound on etl */
    unsigned char skip[2] = {1, 0};
    CHECK(cp_prec_window(&g, fx.ms, mode, start, skip, ETL, &est, &lend));
    CHECK_INT(lend, INT_MAX);
    CHECK(!cp_prec_has_running_succ(&g, mode, skip, ETL));
    /* etl dropped: train cannot run */
    mode[ETL] = -1;
    CHECK(!cp_prec_window(&g, fx.ms, mode, start, NULL, TRAIN, &est, &lend));
    cp_prec_release(&g);
    cp_fx_release(&fx);
}

/* The best run of etl, train pending after it: slot 0 (0.50 + 0.15), not
 * its own cheapest slot 2 (0.10 + train's penalty); dropping etl loses
 * both penalties. */
TEST(prec_best_looks_at_the_successor)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_prec g;
    cp_usage u;
    CHECK_INT(cp_prec_init(&g, fx.in), CP_OK);
    CHECK_INT(cp_usage_init(&u, fx.in, fx.ms), CP_OK);
    int mode[2] = {-1, -1}, start[2] = {0, 0};
    unsigned char mask[2] = {CP_PREC_ABSENT | CP_PREC_PENDING, 0};
    cp_prec_pick pk;
    CHECK(cp_prec_best(&g, &u, mode, start, mask, ETL, NULL, false, &pk));
    CHECK_INT(pk.mode, cp_fx_mode(&fx, "etl", "cpu", 1));
    CHECK_INT(pk.start, 0);
    CHECK_NEAR(pk.cost, 0.5, 1e-12);
    CHECK_NEAR(pk.score, 0.65, 1e-12);
    CHECK_NEAR(pk.drop, 2, 1e-12);
    /* nothing pending: etl's own cheapest run */
    mask[TRAIN] = CP_PREC_ABSENT;
    CHECK(cp_prec_best(&g, &u, mode, start, mask, ETL, NULL, false, &pk));
    CHECK_INT(pk.start, 2);
    CHECK_NEAR(pk.drop, 1, 1e-12);
    cp_usage_release(&u);
    cp_prec_release(&g);
    cp_fx_release(&fx);
}

/* Each method's own plan (ops->solve, before cp_plan_solve's repair)
 * keeps precedence and is the optimum; so is the finished plan. */
TEST(prec_methods_plan_the_optimum_without_repair)
{
    static const char *const methods[] = {"heuristic", "lagrange", "pop", "auto", "milp"};
    if (!cp_fx_load(&fx, input, NULL))
        return;
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++) {
        const cp_solver_ops *ops = cp_solver_find(methods[k]);
        CHECK(ops != NULL);
        if (!ops)
            continue;
        for (int whole = 0; whole < 2; whole++) {
            cp_solve_opts o;
            cp_solve_opts_init(&o);
            o.node_limit = 50;
            o.t_start = cp_now_seconds();
            cp_plan *p = NULL;
            cp_err err;
            cp_err_init(&err);
            CHECK_INT(cp_plan_new(fx.in, fx.ms, &p), CP_OK);
            if (!p)
                continue;
            int rc = whole ? cp_plan_solve(fx.in, fx.ms, ops, &o, p, &err) : ops->solve(fx.in, fx.ms, &o, p, &err);
            CHECK_INT(rc, CP_OK);
            if (!cp_plan_precedence_ok(p) || fabs(total(p) - 0.65) > 1e-9)
                fprintf(stderr, "  method %s (%s): total %.17g\n", methods[k], whole ? "pipeline" : "own plan",
                        total(p));
            CHECK(cp_plan_precedence_ok(p));
            CHECK_NEAR(total(p), 0.65, 1e-9);
            CHECK_INT(p->mode[ETL], cp_fx_mode(&fx, "etl", "cpu", 1));
            CHECK_INT(p->start[ETL], 0);
            CHECK_INT(p->start[TRAIN], 1);
            cp_plan_free(p);
        }
    }
    cp_fx_release(&fx);
}

/* From etl in its cheap slot and train dropped ($1.10, what a repair of
 * the plan without precedence leaves before its pair moves), the search
 * moves the two together to the optimum; every plan it keeps holds
 * precedence. */
TEST(prec_lns_moves_the_chain)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_plan *p = NULL;
    CHECK_INT(cp_plan_new(fx.in, fx.ms, &p), CP_OK);
    if (!p) {
        cp_fx_release(&fx);
        return;
    }
    p->mode[ETL] = cp_fx_mode(&fx, "etl", "cpu", 1);
    p->start[ETL] = 2;
    CHECK_NEAR(total(p), 1.1, 1e-12);
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    o.seed = 1;
    cp_err err;
    cp_err_init(&err);
    double t = NAN;
    CHECK_INT(cp_lns(fx.in, fx.ms, &o, NULL, -INFINITY, 2000, 500, cp_now_seconds() + 600, p, &t, &err), CP_OK);
    CHECK_NEAR(t, 0.65, 1e-9);
    CHECK_NEAR(total(p), 0.65, 1e-9);
    CHECK(cp_plan_precedence_ok(p));
    cp_plan_free(p);
    cp_fx_release(&fx);
}

/* The Lagrangian subproblem prices etl and train together: its bound is
 * the optimum, $0.65 (capacity does not bind here), not the $0.25 of the
 * two apart; never above the optimum. */
TEST(prec_lagrange_bound_holds_the_chain)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    cp_err err;
    cp_err_init(&err);
    cp_lagrange lg;
    CHECK_INT(cp_lagrange_run(fx.in, fx.ms, &o, 0.65, 5, &lg, &err), CP_OK);
    CHECK_NEAR(lg.bound, 0.65, 1e-9);
    CHECK(lg.bound <= 0.65 + 1e-9);
    cp_lagrange_release(&lg);
    cp_fx_release(&fx);
}

/* The same chain with penalties of $0.05 each: running both costs $0.65,
 * etl alone in its cheap slot $0.10 + $0.05, dropping both $0.10, the
 * optimum. From both running, a step that takes etl out alone must drop
 * train with it (etl's window ends at train's start, its only run there
 * costs $0.50); every plan kept holds precedence. */
static const char cheap_drops[] =
    "horizon: {slots: 4}\n"
    "sites: [{name: dc, energy_price: [0.5, 0.5, 0.1, 0.1]}]\n"
    "accelerators: [{name: V100, memory_gb: 32, power_w: 300}]\n"
    "pools:\n"
    "  - {name: cpu, site: dc, nodes: 1, node: {type: std, cpus: 16, memory_gb: 64, power_w: 1000}}\n"
    "  - {name: gpu, site: dc, nodes: 1,\n"
    "     node: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "jobs:\n"
    "  - {name: train, kind: training, work: 3600, throughput: {V100: 1}, after: [etl],\n"
    "     deadline_hour: 2, drop_penalty: 0.05}\n"
    "  - {name: etl, kind: dataflow, input_gb: 10, machines: [1],\n"
    "     runtime: {model: ernest, theta: {std: [3600, 0, 0, 0]}}, drop_penalty: 0.05}\n";

TEST(prec_lns_drops_a_predecessor_with_its_successor)
{
    if (!cp_fx_load(&fx, cheap_drops, NULL))
        return;
    for (unsigned long seed = 1; seed <= 3; seed++) {
        cp_plan *p = NULL;
        CHECK_INT(cp_plan_new(fx.in, fx.ms, &p), CP_OK);
        if (!p)
            break;
        p->mode[ETL] = cp_fx_mode(&fx, "etl", "cpu", 1);
        p->start[ETL] = 0;
        p->mode[TRAIN] = cp_fx_mode(&fx, "train", "gpu", 1);
        p->start[TRAIN] = 1;
        CHECK_NEAR(total(p), 0.65, 1e-12);
        cp_solve_opts o;
        cp_solve_opts_init(&o);
        o.seed = seed;
        cp_err err;
        cp_err_init(&err);
        double t = NAN;
        CHECK_INT(cp_lns(fx.in, fx.ms, &o, NULL, -INFINITY, 2000, 500, cp_now_seconds() + 600, p, &t, &err),
                  CP_OK);
        CHECK_NEAR(t, 0.1, 1e-9);
        CHECK_INT(p->mode[ETL], -1);
        CHECK_INT(p->mode[TRAIN], -1);
        cp_plan_free(p);
    }
    cp_fx_release(&fx);
}

/* cp_prec_enforce on choices that break the edge: with etl in slot 1,
 * train (which may start only in slots 0-1) has no start after etl's end
 * and is dropped; with etl in slot 0, train moves from slot 0 to 1. */
TEST(prec_enforce_mends_broken_choices)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_prec g;
    cp_usage u;
    CHECK_INT(cp_prec_init(&g, fx.in), CP_OK);
    CHECK_INT(cp_usage_init(&u, fx.in, fx.ms), CP_OK);
    int me = cp_fx_mode(&fx, "etl", "cpu", 1), mt = cp_fx_mode(&fx, "train", "gpu", 1);
    int mode[2] = {mt, me}, start[2] = {1, 1};
    cp_usage_add(&u, mt, 1);
    cp_usage_add(&u, me, 1);
    CHECK_INT(cp_prec_enforce(&g, &u, mode, start), 1);
    CHECK_INT(mode[TRAIN], -1);
    CHECK_INT(mode[ETL], me);
    CHECK_INT(cp_prec_enforce(&g, &u, mode, start), 0);
    /* etl in slot 0, train in slot 0: train moves to slot 1 */
    cp_usage_remove(&u, me, 1);
    start[ETL] = 0;
    cp_usage_add(&u, me, 0);
    mode[TRAIN] = mt;
    start[TRAIN] = 0;
    cp_usage_add(&u, mt, 0);
    CHECK_INT(cp_prec_enforce(&g, &u, mode, start), 1);
    CHECK_INT(mode[TRAIN], mt);
    CHECK_INT(start[TRAIN], 1);
    cp_usage_release(&u);
    cp_prec_release(&g);
    cp_fx_release(&fx);
}
