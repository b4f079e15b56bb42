/* The search's uses of the LP one at a time, each on a night built by
 * hand with its exact expected cost: the LP-guided start
 * (solvers/lns_streams.c, cp_lns_lp_dive). */
#include "test.h"

#include "fixture.h"
#include "lns_search.h"

static cp_fx fx;

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
