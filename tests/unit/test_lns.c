/* Large neighbourhood search (solvers/lns.c, cp_lns) on an instance whose
 * optimum is derived by hand below (and is what `capplan plan --method
 * milp` finds on the same YAML): from a deliberately bad plan it reaches
 * the optimum, it never returns a plan worse than the one it got, every
 * plan it returns is feasible and packs, and a seed with a step budget
 * gives the same plan every time.
 *
 * 2 one-hour slots; site dc without idle draw at 0.5 $/kWh; G draws
 * 250 W busy; pool rack is one node of 8 G; offer m8 (the same machine,
 * 10 $/h) has quota 1 in slot 0 and none in slot 1. Throughput 1 on G.
 *   a8: 8 GPUs for 1 h, slot 0 or 1, rack only, penalty 100
 *   b8: 8 GPUs for 1 h, slot 0 only (deadline 1 h), rack only, penalty 100
 *   c4, d4: 4 GPUs for 1 h, slot 0 or 1, rack or m8, penalty 30 each
 * 8 GPUs on rack for 1 h: 2 kWh, 1 $; 4 GPUs: 0.5 $.
 * Rack holds 8 GPU-hours per slot. b8 has only rack slot 0; if a8 does
 * not take rack slot 1 it is dropped (100 $), so the optimum runs b8 in
 * slot 0 and a8 in slot 1 (2 $), and c4 and d4 either share the one m8
 * instance of slot 0 (10 $) or are dropped (60 $): the optimum is 12 $,
 * and this plan is the only one that reaches it. The bad start plan puts
 * c4 and d4 on rack in slot 1 and drops a8: 1 + 0.5 + 0.5 + 100 = 102 $. */
#include "test.h"

#include "cp_placement.h"
#include "fixture.h"
#include "lns_internal.h"

#include <limits.h>

static const char input[] =
    "horizon: {slots: 2}\n"
    "sites: [{name: dc, energy_price: 0.5}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 1,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: [1, 0],\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n"
    "  - {name: a8, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 100, placement: {cloud: false}}\n"
    "  - {name: b8, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 100, placement: {cloud: false}, deadline_hour: 1}\n"
    "  - {name: c4, kind: training, work: 14400, throughput: {G: 1}, accelerators: [4],\n"
    "     drop_penalty: 30}\n"
    "  - {name: d4, kind: training, work: 14400, throughput: {G: 1}, accelerators: [4],\n"
    "     drop_penalty: 30}\n";

/* Two jobs that cannot share rack's node, one cheap and one dear slot:
 * x8 (2 kWh) in slot 0 and y6 (1.5 kWh) in slot 1 cost 2 x 0.5 + 1.5 x
 * 0.502 = 1.753 $; the other way round 1.5 x 0.5 + 2 x 0.502 = 1.754 $,
 * worse by 0.001 $, within the first threshold (0.2 % of 1.753 =
 * 0.0035 $), so a step may accept it: only the kept best plan brings
 * 1.753 back. */
static const char near_tie[] =
    "horizon: {slots: 2}\n"
    "sites: [{name: dc, energy_price: [0.5, 0.502]}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 1,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n"
    "  - {name: x8, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8]}\n"
    "  - {name: y6, kind: training, work: 21600, throughput: {G: 1}, accelerators: [6]}\n";

enum { RACK, M8 };
enum { A8, B8, C4, D4 }; /* jobs in input order */

static cp_fx fx;

static cp_plan *new_plan(void)
{
    cp_plan *p = NULL;
    if (cp_plan_new(fx.in, fx.ms, &p) != CP_OK)
        CHECK(0);
    return p;
}

static void set(cp_plan *p, int j, const char *res, int s)
{
    int m = cp_fx_mode(&fx, fx.in->jobs[j].name, res, j == C4 || j == D4 ? 4 : 8);
    if (m >= 0) {
        p->mode[j] = m;
        p->start[j] = s;
    }
}

/* The bad plan: b8 rack 0, c4 and d4 rack 1, a8 dropped. */
static cp_plan *bad_plan(void)
{
    cp_plan *p = new_plan();
    if (p) {
        set(p, B8, "rack", 0);
        set(p, C4, "rack", 1);
        set(p, D4, "rack", 1);
    }
    return p;
}

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

/* cp_lns with `steps` steps and `stall` steps without a gain; the
 * deadline is far, so only the step counts end the run. */
static double run(cp_plan *p, unsigned long seed, double bound, long steps, long stall)
{
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    o.seed = seed;
    cp_err err;
    cp_err_init(&err);
    double t = NAN;
    if (cp_lns(fx.in, fx.ms, &o, NULL, bound, steps, stall, cp_now_seconds() + 600, p, &t, &err) !=
        CP_OK)
        CHECK(0);
    return t;
}

static bool same_plan(const cp_plan *x, const cp_plan *z)
{
    for (int j = 0; j < x->n_jobs; j++) {
        if (x->mode[j] != z->mode[j] || (x->mode[j] >= 0 && x->start[j] != z->start[j]) ||
            x->n_units[j] != z->n_units[j])
            return false;
        for (int q = 0; q < x->n_units[j]; q++)
            if (x->units[j][q] != z->units[j][q])
                return false;
    }
    return !memcmp(x->y, z->y, (size_t)x->n_res * (size_t)x->slots * sizeof *x->y);
}

TEST(lns_budget_and_stall_counts)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    CHECK(cp_lns_budget(&o) == LONG_MAX); /* no node limit: the clock decides */
    o.node_limit = 5;
    CHECK_INT(cp_lns_budget(&o), 500);      /* 100 steps per node */
    CHECK_INT(cp_lns_stall(fx.in), 100000); /* 4 jobs x 2000 is below the floor */
    cp_fx_release(&fx);
}

TEST(lns_reaches_the_hand_derived_optimum)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_plan *p = bad_plan();
    if (!p) {
        cp_fx_release(&fx);
        return;
    }
    CHECK(cp_plan_is_feasible(p, NULL, 0));
    CHECK_NEAR(total(p), 102, 1e-12);
    double t = run(p, 1, -INFINITY, 2000, 200);
    CHECK_NEAR(t, 12, 1e-12);
    CHECK_NEAR(total(p), 12, 1e-12); /* the reported total is the plan's */
    CHECK_INT(p->mode[B8], cp_fx_mode(&fx, "b8", "rack", 8));
    CHECK_INT(p->start[B8], 0);
    CHECK_INT(p->mode[A8], cp_fx_mode(&fx, "a8", "rack", 8));
    CHECK_INT(p->start[A8], 1);
    CHECK_INT(p->mode[C4], cp_fx_mode(&fx, "c4", "m8", 4));
    CHECK_INT(p->mode[D4], cp_fx_mode(&fx, "d4", "m8", 4));
    CHECK_INT(p->start[C4] + p->start[D4], 0);
    /* one instance in slot 0, shared: y = [1, 0] */
    CHECK_INT(*cp_plan_y(p, M8, 0), 1);
    CHECK_INT(*cp_plan_y(p, M8, 1), 0);
    /* feasible, and its units pack as they are: placement repairs nothing */
    CHECK(cp_plan_is_feasible(p, NULL, 0));
    CHECK(p->pool_units);
    int repairs = -1;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_plan_place(p, &repairs, &err), CP_OK);
    CHECK_INT(repairs, 0);
    CHECK_INT(p->units[C4][0], 0);
    CHECK_INT(p->units[D4][0], 0);
    CHECK_NEAR(total(p), 12, 1e-12);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(lns_never_returns_a_worse_or_infeasible_plan)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    /* short runs: the threshold may accept worse steps on the way, but
     * the best plan seen is what comes back */
    int worse = 0, infeasible = 0, mismatch = 0;
    for (unsigned long seed = 1; seed <= 8; seed++)
        for (long steps = 0; steps <= 6; steps++) {
            cp_plan *p = bad_plan();
            if (!p)
                continue;
            double t = run(p, seed, -INFINITY, steps, 1000);
            worse += t > 102 + 1e-9;
            infeasible += !cp_plan_is_feasible(p, NULL, 0);
            mismatch += fabs(t - total(p)) > 1e-9;
            cp_plan_free(p);
        }
    CHECK_INT(worse, 0);
    CHECK_INT(infeasible, 0);
    CHECK_INT(mismatch, 0);
    /* no step at all: the plan stays as it was */
    cp_plan *p = bad_plan(), *q = bad_plan();
    if (p && q) {
        CHECK_NEAR(run(p, 1, -INFINITY, 0, 1000), 102, 1e-12);
        CHECK_INT(p->mode[A8], -1);
        CHECK_INT(p->start[C4], q->start[C4]);
        /* a bound the plan already meets stops it before the first step */
        CHECK_NEAR(run(q, 1, 102, 2000, 1000), 102, 1e-12);
        CHECK_INT(q->mode[A8], -1);
    }
    cp_plan_free(p);
    cp_plan_free(q);
    /* from the optimum it stays at the optimum */
    p = new_plan();
    if (p) {
        set(p, B8, "rack", 0);
        set(p, A8, "rack", 1);
        set(p, C4, "m8", 0);
        set(p, D4, "m8", 0);
        cp_plan_min_instances(p);
        CHECK_NEAR(run(p, 3, -INFINITY, 500, 100), 12, 1e-12);
    }
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(lns_keeps_the_best_plan_when_it_accepts_a_worse_step)
{
    if (!cp_fx_load(&fx, near_tie, NULL))
        return;
    /* from the 1.753 $ plan, runs of 1 to 4 steps: a step that re-inserts
     * y6 first gives 1.754 $ and may be accepted; what comes back must
     * still be the 1.753 $ plan */
    int off = 0, moved = 0;
    for (unsigned long seed = 1; seed <= 8; seed++)
        for (long steps = 1; steps <= 4; steps++) {
            cp_plan *p = new_plan();
            if (!p)
                continue;
            p->mode[0] = cp_fx_mode(&fx, "x8", "rack", 8);
            p->start[0] = 0;
            p->mode[1] = cp_fx_mode(&fx, "y6", "rack", 6);
            p->start[1] = 1;
            double t = run(p, seed, -INFINITY, steps, 1000);
            off += fabs(t - 1.753) > 1e-12 || fabs(total(p) - 1.753) > 1e-12;
            moved += p->start[0] != 0 || p->start[1] != 1;
            cp_plan_free(p);
        }
    CHECK_INT(off, 0);
    CHECK_INT(moved, 0);
    cp_fx_release(&fx);
}

TEST(lns_same_seed_same_plan)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    /* budgets of 1 to 4 steps stop the search midway (3 steps reach 12 $
     * with some seeds and not with others), where the result is up to
     * the random choices: the same seed must make the same ones */
    int differ = 0;
    for (unsigned long seed = 1; seed <= 6; seed++)
        for (long steps = 1; steps <= 4; steps++) {
            cp_plan *p = bad_plan(), *q = bad_plan();
            if (p && q) {
                double tp = run(p, seed, -INFINITY, steps, 1000);
                double tq = run(q, seed, -INFINITY, steps, 1000);
                differ += tp != tq || !same_plan(p, q);
            }
            cp_plan_free(p);
            cp_plan_free(q);
        }
    CHECK_INT(differ, 0);
    /* and the full run ends in the one optimal plan whatever the seed */
    cp_plan *p = bad_plan(), *q = bad_plan();
    if (p && q) {
        CHECK_NEAR(run(p, 11, -INFINITY, 2000, 200), 12, 1e-12);
        CHECK_NEAR(run(q, 12345, -INFINITY, 2000, 200), 12, 1e-12);
        CHECK(same_plan(p, q));
    }
    cp_plan_free(p);
    cp_plan_free(q);
    cp_fx_release(&fx);
}

/* Under a node limit cp_lns runs a fixed number of search streams (lns_streams.c)
 * and keeps the best by a fixed rule, so the thread count changes nothing:
 * the same plan, units and total with 1, 2 and 4 threads. */
TEST(lns_streams_same_plan_for_any_thread_count)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    cp_plan *ref = NULL;
    double tref = NAN;
    int threads[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        cp_plan *p = bad_plan();
        if (!p)
            break;
        cp_solve_opts o;
        cp_solve_opts_init(&o);
        o.seed = 7;
        o.node_limit = 3;
        o.threads = threads[k];
        cp_err err;
        cp_err_init(&err);
        double t = NAN;
        CHECK_INT(cp_lns(fx.in, fx.ms, &o, NULL, -INFINITY, cp_lns_budget(&o), 1000, cp_now_seconds() + 600, p,
                         &t, &err),
                  CP_OK);
        CHECK(cp_plan_is_feasible(p, NULL, 0));
        CHECK_NEAR(t, total(p), 1e-12);
        if (!ref) {
            ref = p;
            tref = t;
            continue;
        }
        CHECK(same_plan(ref, p));
        CHECK(t == tref);
        cp_plan_free(p);
    }
    cp_plan_free(ref);
    cp_fx_release(&fx);
}

/* The sub-MIP (lns_mip.c) over a set of jobs taken out of a plan: its
 * answer, put back, is never dearer than the jobs' own choices (they are
 * its warm start), and over every job it is the hand-derived optimum;
 * with either engine (CBC when the program is on PATH). */
static void submip_subsets(cp_mip_engine engine)
{
    if (!cp_fx_load(&fx, input, NULL))
        return;
    /* every subset of the four jobs, from the bad plan */
    for (int mask = 1; mask < 16; mask++) {
        cp_plan *p = bad_plan();
        cp_usage u;
        cp_submip *sm = NULL;
        if (!p || cp_usage_init(&u, fx.in, fx.ms)) {
            cp_plan_free(p);
            CHECK(0);
            break;
        }
        cp_usage_load_plan(&u, p);
        double before = total(p);
        int set_[4], cm[4], cs[4], nm[4], ns[4], n = 0;
        for (int j = 0; j < 4; j++)
            if (mask & 1 << j) {
                set_[n] = j;
                cm[n] = p->mode[j];
                cs[n] = p->start[j];
                if (p->mode[j] >= 0)
                    cp_usage_remove(&u, p->mode[j], p->start[j]);
                n++;
            }
        CHECK_INT(cp_submip_new(&u, &sm), 0);
        cp_submip_limits lim = {1000, 100000, cp_now_seconds() + 600, NULL, engine, 1};
        int got = sm ? cp_submip_solve(sm, set_, n, cm, cs, &lim, nm, ns) : -1;
        CHECK_INT(got, 1);
        for (int i = 0; i < n && got == 1; i++) {
            double d;
            int j = set_[i];
            p->mode[j] = nm[i];
            p->start[j] = nm[i] >= 0 ? ns[i] : 0;
            if (nm[i] >= 0) {
                CHECK(cp_usage_try(&u, nm[i], ns[i], &d));
                cp_usage_add(&u, nm[i], ns[i]);
            }
        }
        cp_plan_min_instances(p);
        CHECK(cp_plan_is_feasible(p, NULL, 0));
        CHECK(total(p) <= before + 1e-9);
        if (mask == 15)
            CHECK_NEAR(total(p), 12, 1e-12); /* all four free: the optimum */
        cp_submip_free(sm);
        cp_usage_release(&u);
        cp_plan_free(p);
    }
    cp_fx_release(&fx);
}

TEST(submip_never_worse_than_its_start)
{
    submip_subsets(CP_MIP_GLPK);
}

TEST(submip_cbc_never_worse_than_its_start)
{
    if (cp_mip_engine_auto() != CP_MIP_CBC) {
        fprintf(stderr, "note: no cbc on PATH: submip_cbc_never_worse_than_its_start not run\n");
        return;
    }
    submip_subsets(CP_MIP_CBC);
}
