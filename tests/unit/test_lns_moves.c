/* The moves of the neighbourhood search one at a time (solvers/lns_lp.c,
 * solvers/lns_eject.c), each on a night built by hand with its exact
 * expected cost.
 *
 * The chain night: 4 one-hour slots; site dc without idle draw at
 * 0.5 $/kWh; G draws 250 W busy, so 8 GPUs for 1 h cost 2 kWh, 1 $. Pool
 * rack is one node of 8 G; offer m8 (the same machine, 10 $/h) has quota 1.
 * Throughput 1 on G.
 *   p8: 8 GPUs for 1 h, slot 0 only (deadline 1 h), rack or m8, penalty 50
 *   q8: 8 GPUs for 2 h, ending by 3 h (start 0 or 1), rack only, penalty 100
 *   r8: 8 GPUs for 2 h, start 0-2, rack only, penalty 1,000
 * The rack holds 4 node-hours and the three want 5, so p8 goes to m8
 * (10 $, less than its penalty), q8 runs in slots 0-1 and r8 in 2-3: the
 * optimum is 10 + 2 + 2 = 14 $ (also the LP's, which is integral here).
 * The stuck plan: p8 on rack in slot 0, q8 in slots 1-2, r8 dropped:
 * 1 + 2 + 1,000 = 1,003 $. No one-job move helps r8 (the rack is never
 * free for two slots in a row), and forcing r8 into slots 2-3 ejects q8,
 * which then has no room (its slot 0 is p8's): only the chain of three
 * reaches the optimum, and that is what the LP move takes out and puts
 * back where the LP has them. */
#include "test.h"

#include "fixture.h"
#include "lns_search.h"

#include <math.h>

static const char chain[] =
    "horizon: {slots: 4}\n"
    "sites: [{name: dc, energy_price: 0.5}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 1,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: 1,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n"
    "  - {name: p8, kind: training, work: 28800, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 50, deadline_hour: 1}\n"
    "  - {name: q8, kind: training, work: 57600, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 100, deadline_hour: 3, placement: {cloud: false}}\n"
    "  - {name: r8, kind: training, work: 57600, throughput: {G: 1}, accelerators: [8],\n"
    "     drop_penalty: 1000, placement: {cloud: false}}\n";

enum { P8, Q8, R8 }; /* jobs in input order */

static cp_fx fx;

/* The stuck plan above. */
static cp_plan *stuck_plan(void)
{
    cp_plan *p = NULL;
    if (cp_plan_new(fx.in, fx.ms, &p) != CP_OK) {
        CHECK(0);
        return NULL;
    }
    p->mode[P8] = cp_fx_mode(&fx, "p8", "rack", 8);
    p->start[P8] = 0;
    p->mode[Q8] = cp_fx_mode(&fx, "q8", "rack", 8);
    p->start[Q8] = 1;
    p->mode[R8] = -1;
    return p;
}

/* Job j's LP columns are exactly (res, start) with value 1. */
static void check_lp_col(const cp_lp_sol *lp, int j, const char *res, int s)
{
    CHECK_INT(lp->first[j + 1] - lp->first[j], 1);
    CHECK_INT(lp->mode[lp->first[j]], cp_fx_mode(&fx, fx.in->jobs[j].name, res, 8));
    CHECK_INT(lp->start[lp->first[j]], s);
    CHECK_NEAR(lp->value[lp->first[j]], 1, 1e-9);
}

TEST(lns_lp_move_makes_the_chain_one_job_moves_cannot)
{
    if (!cp_fx_load(&fx, chain, NULL))
        return;
    cp_plan *p = stuck_plan();
    if (!p) {
        cp_fx_release(&fx);
        return;
    }
    /* the LP by column generation, from the stuck plan, and its solution */
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    o.node_limit = 10;
    cp_lpcg cg;
    cp_err err;
    cp_err_init(&err);
    CHECK_INT(cp_lpcg_run(fx.in, fx.ms, &o, p, NULL, false, 60, &cg, &err), CP_OK);
    CHECK(cg.lp_exact);
    CHECK_NEAR(cg.lp_value, 14, 1e-9);
    CHECK(cg.sol.first != NULL);
    if (!cg.sol.first) {
        cp_plan_free(p);
        cp_fx_release(&fx);
        return;
    }
    check_lp_col(&cg.sol, P8, "m8", 0);
    check_lp_col(&cg.sol, Q8, "rack", 0);
    check_lp_col(&cg.sol, R8, "rack", 2);

    lns l;
    int broke = -1;
    CHECK_INT(cp_lns_open(&l, fx.in, fx.ms, p, NULL, &broke), CP_OK);
    CHECK_INT(broke, 0);
    CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, 1003, 1e-9);
    /* r8 has no room of its own: no one-job move puts it back */
    int m, s;
    double c;
    CHECK(!cp_usage_best(&l.u, R8, &m, &s, &c));
    /* the chain from r8: q8 is in the way of r8's LP column (rack, 2),
     * p8 in the way of q8's (rack, 0) */
    cp_rng rs = cp_rng_make(1);
    int out[LNS_MAX_REMOVE];
    CHECK_INT(cp_lns_lp_chain(&l, &cg.sol, &rs, R8, out, LNS_MAX_REMOVE), 3);
    CHECK_INT(out[0], R8);
    CHECK_INT(out[1], Q8);
    CHECK_INT(out[2], P8);
    /* taken out and put back where the LP has them */
    stepset st;
    st.n = 0;
    l.set_stamp++;
    for (int i = 0; i < 3; i++)
        CHECK(cp_lns_set_add(&l, &st, out[i]));
    for (int i = 0; i < st.n; i++)
        lns_take_out(&l, st.set[i]);
    CHECK(cp_lns_lp_repair(&l, &st, &cg.sol, NULL, false));
    CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, 14, 1e-9);
    CHECK_INT(p->mode[P8], cp_fx_mode(&fx, "p8", "m8", 8));
    CHECK_INT(p->start[P8], 0);
    CHECK_INT(p->mode[Q8], cp_fx_mode(&fx, "q8", "rack", 8));
    CHECK_INT(p->start[Q8], 0);
    CHECK_INT(p->mode[R8], cp_fx_mode(&fx, "r8", "rack", 8));
    CHECK_INT(p->start[R8], 2);
    cp_lns_close(&l);
    cp_lpcg_release(&cg);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

/* The spot night (lns_eject.c's instance-run): 1 one-hour slot; offer
 * m8 (8 G) at 10 $/h on demand and 5 $/h on spot, offer m4 (4 G) at
 * 4 $/h, one instance of each market; no pool, and markets draw no
 * energy, so a plan costs its instance-slots.
 *   a4, b4: 4 GPUs for 1 h in slot 0, preemptible, penalty 100 each.
 * The stuck plan: both on one m8 on-demand instance, 10 $. Either alone
 * elsewhere rents another instance and keeps that one (14 or 15 $), so
 * no one-job move leaves. The instance-run (both) taken out and moved to
 * the other market of its type, spot: 5 $, the optimum. Put back where
 * they add least instead, the first goes to m4 (4 $ < 5 $) and the second,
 * m4's quota used, to spot: 9 $, also better, not the optimum. */
static const char spot[] =
    "horizon: {slots: 1}\n"
    "sites: [{name: dc, energy_price: 0.5}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: 1, spot_price_hour: 5, spot_quota: 1,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "  - {name: m4, price_hour: 4, quota: 1,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 4, cpus: 32, memory_gb: 256}}\n"
    "jobs:\n"
    "  - {name: a4, kind: training, work: 14400, throughput: {G: 1}, accelerators: [4],\n"
    "     drop_penalty: 100, preemptible: true}\n"
    "  - {name: b4, kind: training, work: 14400, throughput: {G: 1}, accelerators: [4],\n"
    "     drop_penalty: 100, preemptible: true}\n";

/* The spot night's stuck plan opened by the search, the instance-run
 * taken out; alt gets the pick's other market. */
static bool spot_open(lns *l, cp_plan **p, stepset *st, int *alt)
{
    if (!cp_fx_load(&fx, spot, NULL))
        return false;
    if (cp_plan_new(fx.in, fx.ms, p) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return false;
    }
    for (int j = 0; j < 2; j++) {
        (*p)->mode[j] = cp_fx_mode(&fx, fx.in->jobs[j].name, "m8", 4);
        (*p)->start[j] = 0;
    }
    int broke = -1;
    if (cp_lns_open(l, fx.in, fx.ms, *p, NULL, &broke) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return false;
    }
    CHECK_NEAR(cp_usage_objective(&l->u) + l->penalties, 10, 1e-9);
    /* one job out: its cheapest way back is the on-demand instance the
     * other keeps rented (0 $ more; m4 would add 4 $, spot 5 $) */
    int m, s;
    double c;
    lns_take_out(l, 0);
    bool fits = cp_usage_best(&l->u, 0, &m, &s, &c);
    CHECK(fits);
    CHECK_INT(m, cp_fx_mode(&fx, "a4", "m8", 4));
    CHECK_NEAR(c, 0, 1e-9);
    lns_put_back(l, 0, fits ? m : -1, fits ? s : 0);
    cp_rng rs = cp_rng_make(1);
    int out[LNS_MAX_REMOVE];
    CHECK_INT(cp_lns_inst_pick(l, &rs, out, LNS_MAX_REMOVE, alt), 2);
    CHECK_INT(*alt, cp_fx_res(&fx, "m8:spot"));
    CHECK(out[0] != out[1]);
    st->n = 0;
    l->set_stamp++;
    for (int i = 0; i < 2; i++)
        CHECK(cp_lns_set_add(l, st, out[i]));
    for (int i = 0; i < st->n; i++)
        lns_take_out(l, st->set[i]);
    CHECK_INT(st->n, 2);
    return true;
}

/* The instance-run of the spot night put back, to the other market first
 * (to_alt) or where each job adds least: the total, and where the first
 * and the second job of the set (largest first: a tie, the pick's order)
 * went. */
static void spot_case(bool to_alt, double total, const char *res_first, const char *res_other)
{
    lns l;
    cp_plan *p = NULL;
    stepset st;
    int alt = -1;
    if (spot_open(&l, &p, &st, &alt)) {
        CHECK(cp_lns_inst_repair(&l, &st, to_alt ? alt : -1));
        CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, total, 1e-9);
        if (st.n == 2) {
            int a = st.set[0], b = st.set[1];
            CHECK_INT(p->mode[a], cp_fx_mode(&fx, fx.in->jobs[a].name, res_first, 4));
            CHECK_INT(p->mode[b], cp_fx_mode(&fx, fx.in->jobs[b].name, res_other, 4));
        }
        cp_lns_close(&l);
        cp_fx_release(&fx);
    }
    cp_plan_free(p);
}

TEST(lns_instance_run_moves_a_group_to_spot)
{
    spot_case(true, 5, "m8:spot", "m8:spot");
}

TEST(lns_instance_run_put_back_where_it_adds_least)
{
    spot_case(false, 9, "m4", "m8:spot");
}

/* The fill night: 2 one-hour slots, offer m8 as on the spot night
 * (10 $/h on demand, 5 $/h on spot, one instance each), no m4.
 *   c6: 6 GPUs for 2 h, preemptible, on the spot instance (10 $);
 *   a: 2 or 4 GPUs (linear: 2 h or 1 h), preemptible.
 * The stuck plan: a with 4 GPUs on demand in slot 0, 10 + 10 = 20 $.
 * a's instance-run (a alone) to spot does not fit with 4 GPUs beside c6
 * (2 left), but with 2 GPUs for 2 h it fills c6's instance: 10 $, the
 * optimum, by changing a's count. */
static const char fill[] =
    "horizon: {slots: 2}\n"
    "sites: [{name: dc, energy_price: 0.5}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: 1, spot_price_hour: 5, spot_quota: 1,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n"
    "  - {name: c6, kind: training, work: 43200, throughput: {G: 1}, accelerators: [6],\n"
    "     drop_penalty: 100, preemptible: true}\n"
    "  - {name: a, kind: training, work: 14400, throughput: {G: 1}, accelerators: [2, 4],\n"
    "     drop_penalty: 100, preemptible: true}\n";

TEST(lns_instance_run_changes_a_count_to_fill_an_instance)
{
    cp_plan *p = NULL;
    if (!cp_fx_load(&fx, fill, NULL))
        return;
    int c6 = cp_fx_job(&fx, "c6"), a = cp_fx_job(&fx, "a"), spot_m8 = cp_fx_res(&fx, "m8:spot");
    lns l;
    int broke = -1;
    if (cp_plan_new(fx.in, fx.ms, &p) != CP_OK || c6 < 0 || a < 0) {
        CHECK(0);
        cp_plan_free(p);
        cp_fx_release(&fx);
        return;
    }
    p->mode[c6] = cp_fx_mode(&fx, "c6", "m8:spot", 6);
    p->start[c6] = 0;
    p->mode[a] = cp_fx_mode(&fx, "a", "m8", 4);
    p->start[a] = 0;
    if (cp_lns_open(&l, fx.in, fx.ms, p, NULL, &broke) == CP_OK) {
        CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, 20, 1e-9);
        stepset st;
        st.n = 0;
        l.set_stamp++;
        CHECK(cp_lns_set_add(&l, &st, a));
        lns_take_out(&l, a);
        CHECK(cp_lns_inst_repair(&l, &st, spot_m8));
        CHECK_NEAR(cp_usage_objective(&l.u) + l.penalties, 10, 1e-9);
        CHECK_INT(p->mode[a], cp_fx_mode(&fx, "a", "m8:spot", 2));
        CHECK_INT(p->start[a], 0);
        cp_lns_close(&l);
    } else {
        CHECK(0);
    }
    cp_plan_free(p);
    cp_fx_release(&fx);
}
