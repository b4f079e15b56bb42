/* The search's uses of the LP one at a time, each on a night built by
 * hand with its exact expected cost: the ranking of its jobs by the LP's
 * reduced costs (solvers/lns_lp.c) and the LP-guided start
 * (solvers/lns_streams.c, cp_lns_lp_dive).
 *
 * The rank night: 3 one-hour slots at 0.5, 1 and 4 $/kWh; G draws 250 W
 * busy, so 8 GPUs for 1 h cost 1, 2 or 8 $. Pool rack: 5 nodes of 8 G,
 * no cloud. Four jobs of 8 GPUs for 1 h, any slot; w, x, y with penalty
 * 100, z with penalty 3. The LP (and the optimum) runs all four in slot
 * 0, 4 $, with a node to spare in every slot: every capacity row has
 * slack, so its dual is 0 at any optimal duals, and each job's
 * assignment dual is its cheapest run, 1 $. The reduced cost of a run
 * is then its cost less 1 $, of a drop its penalty less 1 $.
 * The plan: w in slot 0, x in 1, y in 2, z dropped: 1 + 2 + 8 + 3 = 14 $;
 * reduced costs 0, 1, 7 and 2 $. The ranked seed is y, and the step
 * that puts it back at its cheapest gains its 7 $: 7 $ (a step from x
 * would give 13 $, from z 12 $, from w nothing). The search ranks so
 * only on nights of more than LNS_RC_JOBS jobs; the draw itself is the
 * same at any size, and on a night this small it sees every job. */
#include "test.h"

#include "fixture.h"
#include "lns_search.h"

#include <math.h>

static const char rank_night[] =
    "horizon: {slots: 3}\n"
    "sites: [{name: dc, energy_price: [0.5, 1, 4]}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 5,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n"
    "  - {name: w, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 100}\n"
    "  - {name: x, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 100}\n"
    "  - {name: y, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 100}\n"
    "  - {name: z, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 3}\n";

static cp_fx fx;

TEST(lns_rc_rank_seeds_the_job_the_lp_says_overpays_most)
{
    if (!cp_fx_load(&fx, rank_night, NULL))
        return;
    int w = cp_fx_job(&fx, "w"), x = cp_fx_job(&fx, "x"), y = cp_fx_job(&fx, "y"),
        z = cp_fx_job(&fx, "z");
    cp_plan *p = NULL;
    if (w < 0 || x < 0 || y < 0 || z < 0 || cp_plan_new(fx.in, fx.ms, &p) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return;
    }
    p->mode[w] = cp_fx_mode(&fx, "w", "rack", 8);
    p->start[w] = 0;
    p->mode[x] = cp_fx_mode(&fx, "x", "rack", 8);
    p->start[x] = 1;
    p->mode[y] = cp_fx_mode(&fx, "y", "rack", 8);
    p->start[y] = 2;
    p->mode[z] = -1;
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    o.node_limit = 10;
    cp_lpcg cg;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_lpcg_run(fx.in, fx.ms, &o, p, NULL, false, 60, &cg, &err), CP_OK);
    CHECK(cg.lp_exact);
    CHECK_NEAR(cg.lp_value, 4, 1e-9);
    CHECK(cg.sol.rc != NULL);
    lns l;
    int broke = -1;
    if (!cg.sol.rc || cp_lns_open(&l, fx.in, fx.ms, p, NULL, &broke) != CP_OK) {
        CHECK(0);
        cp_lpcg_release(&cg);
        cp_plan_free(p);
        cp_fx_release(&fx);
        return;
    }
    CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, 14, 1e-9);
    CHECK_NEAR(cp_lns_rc(&l, &cg.sol, w), 0, 1e-9);
    CHECK_NEAR(cp_lns_rc(&l, &cg.sol, x), 1, 1e-9);
    CHECK_NEAR(cp_lns_rc(&l, &cg.sol, y), 7, 1e-9);
    CHECK_NEAR(cp_lns_rc(&l, &cg.sol, z), 2, 1e-9);
    /* a run the plan does not use is priced too: y in slot 1 */
    CHECK_NEAR(cp_lp_sol_rc(&cg.sol, fx.ms, y, cp_fx_mode(&fx, "y", "rack", 8), 1), 1, 1e-9);
    /* the ranked seed: every job is drawn on a night this small */
    cp_rng rs = cp_rng_make(1);
    int seed = cp_lns_rc_draw(&l, &cg.sol, &rs, l.jobs, l.n_jobs, LNS_RC_DRAW);
    CHECK_INT(seed, y);
    /* one step from it: taken out, put back at its cheapest */
    stepset st;
    st.n = 0;
    l.set_stamp++;
    CHECK(cp_lns_set_add(&l, &st, seed));
    lns_take_out(&l, seed);
    CHECK(cp_lns_reinsert(&l, &st, seed, NULL, false));
    CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, 7, 1e-9);
    CHECK_INT(p->mode[y], cp_fx_mode(&fx, "y", "rack", 8));
    CHECK_INT(p->start[y], 0);
    /* and y's choice is now one the LP prices at its worth */
    CHECK_NEAR(cp_lns_rc(&l, &cg.sol, y), 0, 1e-9);
    cp_lns_close(&l);
    cp_lpcg_release(&cg);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

/* The dive night: 2 one-hour slots at 0.5 and 2 $/kWh, so a GPU-hour
 * costs 0.125 or 0.5 $. Pool rack: 2 nodes of 8 G. Jobs of 1 h, any
 * slot, penalty 100: a6 and b6 with 6 GPUs (0.75 $ in slot 0, 3 $ in
 * slot 1), c4 with 4 (0.50 $ or 2 $). The LP of the aggregate model
 * (capplan.5 §3) puts all three in slot 0, 16 GPUs on 16: 2 $, whole
 * columns, so the dive places every job in its first round, by weight (a
 * tie: input order). a6 and b6 take 6 GPUs of each node; c4's LP column
 * then does not pack (2 GPUs left on each node), and it goes to its
 * cheapest run that packs, slot 1: 0.75 + 0.75 + 2 = 3.50 $, the
 * optimum of the placed night (c4 first would have left b6 to slot 1:
 * 4.25 $). */
static const char dive_night[] =
    "horizon: {slots: 2}\n"
    "sites: [{name: dc, energy_price: [0.5, 2]}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 2,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n"
    "  - {name: a6, kind: training, work: 21600, throughput: {G: 1}, accelerators: [6],\n"
    "     drop_penalty: 100}\n"
    "  - {name: b6, kind: training, work: 21600, throughput: {G: 1}, accelerators: [6],\n"
    "     drop_penalty: 100}\n"
    "  - {name: c4, kind: training, work: 14400, throughput: {G: 1}, accelerators: [4],\n"
    "     drop_penalty: 100}\n";

TEST(lns_lp_dive_places_the_lp_and_packs_what_it_can)
{
    if (!cp_fx_load(&fx, dive_night, NULL))
        return;
    cp_plan *p = NULL;
    if (cp_plan_new(fx.in, fx.ms, &p) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return;
    }
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    CHECK_INT(cp_lns_lp_dive(fx.in, fx.ms, &o, cp_now_seconds() + 600, p), 1);
    CHECK_INT(p->mode[0], cp_fx_mode(&fx, "a6", "rack", 6));
    CHECK_INT(p->start[0], 0);
    CHECK_INT(p->mode[1], cp_fx_mode(&fx, "b6", "rack", 6));
    CHECK_INT(p->start[1], 0);
    CHECK_INT(p->mode[2], cp_fx_mode(&fx, "c4", "rack", 4));
    CHECK_INT(p->start[2], 1);
    cp_plan_figures f;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_eval(p, &f, &err) == CP_OK) {
        CHECK_NEAR(f.costs.total, 3.5, 1e-9);
        cp_plan_figures_release(&f);
    } else {
        CHECK(0);
    }
    cp_plan_free(p);
    cp_fx_release(&fx);
}
