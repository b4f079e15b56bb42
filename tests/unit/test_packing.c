/* The one packing rule (solvers/packing.c): the search's bookkeeping
 * (cp_usage_add) and placement (cp_plan_place, packing from scratch)
 * give every job the same nodes and instance ids when they see the jobs
 * in the same order (placement packs largest demand first, then by start
 * slot: the jobs below are added to the usage in that order), and the
 * ids follow version 1.1's labels: a job takes the id that adds the fewest
 * instance-slots, then the fullest, then the lowest.
 *
 * The fleet: 4 one-hour slots; pool rack has 3 nodes of 8 G, 64 CPUs,
 * 512 GB (node 2 down in slot 3); offer m8 is the same machine at 10 $/h,
 * quota 3. Training jobs have throughput 1 on G. */
#include "test.h"

#include "cp_packing.h"
#include "cp_placement.h"
#include "cp_usage.h"
#include "fixture.h"

static const char fleet[] =
    "horizon: {slots: 4}\n"
    "sites: [{name: dc, energy_price: 0.5}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 3, available: [3, 3, 3, 2],\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: 3,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n";

/* A training job of k GPUs for `work` / (3600 k) hours. */
#define TJOB(name, k, work)                                                                        \
    "  - {name: " name ", kind: training, work: " work ", throughput: {G: 1}, accelerators: [" k \
    "]}\n"

/* job, resource, count, start, in largest-first order (then by start) */
typedef struct step {
    const char *job, *res;
    int k, s;
} step;

static cp_fx fx;

/* Adds the steps to a usage, exports its units, then places a copy of
 * the same choices from scratch; every job's units must agree. Returns
 * the plan placed from the usage's units (caller frees). */
static cp_plan *agree(const step *st, int n)
{
    cp_usage u;
    cp_plan *a = NULL, *b = NULL;
    CHECK(cp_usage_init(&u, fx.in, fx.ms) == CP_OK);
    CHECK(cp_plan_new(fx.in, fx.ms, &a) == CP_OK && cp_plan_new(fx.in, fx.ms, &b) == CP_OK);
    for (int i = 0; i < n; i++) {
        int j = cp_fx_job(&fx, st[i].job), m = cp_fx_mode(&fx, st[i].job, st[i].res, st[i].k);
        double d;
        CHECK(cp_usage_try(&u, m, st[i].s, &d));
        cp_usage_add(&u, m, st[i].s);
        a->mode[j] = b->mode[j] = m;
        a->start[j] = b->start[j] = st[i].s;
    }
    memcpy(a->y, u.y, (size_t)fx.ms->n_res * (size_t)fx.in->slots * sizeof *a->y);
    memcpy(b->y, u.y, (size_t)fx.ms->n_res * (size_t)fx.in->slots * sizeof *b->y);
    CHECK(cp_usage_export_units(&u, a) == CP_OK);
    cp_err e;
    cp_err_init(&e);
    int ra = -1, rb = -1;
    CHECK(cp_plan_place(a, &ra, &e) == CP_OK); /* keeps the usage's units */
    CHECK(cp_plan_place(b, &rb, &e) == CP_OK); /* packs from scratch */
    CHECK_INT(ra, 0);
    CHECK_INT(rb, 0);
    for (int j = 0; j < fx.in->n_jobs; j++) {
        CHECK_INT(a->n_units[j], b->n_units[j]);
        for (int q = 0; q < a->n_units[j] && q < b->n_units[j]; q++)
            CHECK_INT(a->units[j][q], b->units[j][q]);
    }
    for (int i = 0; i < fx.ms->n_res * fx.in->slots; i++)
        CHECK_INT(a->y[i], b->y[i]);
    cp_usage_release(&u);
    cp_plan_free(b);
    return a;
}

static int unit(const cp_plan *p, const char *job, int q)
{
    int j = cp_fx_job(&fx, job);
    return j >= 0 && q < p->n_units[j] ? p->units[j][q] : -1;
}

TEST(packing_usage_and_placement_agree_on_pools)
{
    /* w12 (12 GPUs, slots 0-1): node 0 whole, 4 on the fullest other
     * node that holds them (nodes 1 and 2 tie: the lower, 1). a6 (slot
     * 0): node 1 has 4 left, node 2 has 8: node 2 (only it holds 6).
     * b4 (slot 1): node 1 has 4 left (exactly), node 2 has 2: node 1.
     * c2 (slot 3): node 2 is down; node 0 and node 1 are empty: node 0. */
    if (!cp_fx_load(&fx, fleet,
                    "jobs:\n" TJOB("w12", "12", "86400") TJOB("a6", "6", "21600") TJOB("b4", "4", "14400")
                        TJOB("c2", "2", "7200")))
        return;
    const step st[] = {{"w12", "rack", 12, 0}, {"a6", "rack", 6, 0}, {"b4", "rack", 4, 1},
                       {"c2", "rack", 2, 3}};
    cp_plan *p = agree(st, 4);
    CHECK_INT(unit(p, "w12", 0), 0);
    CHECK_INT(unit(p, "w12", 1), 1);
    CHECK_INT(unit(p, "a6", 0), 2);
    CHECK_INT(unit(p, "b4", 0), 1);
    CHECK_INT(unit(p, "c2", 0), 0);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(packing_usage_and_placement_agree_on_instances)
{
    /* On m8 (quota 3). a6 runs slots 0-2 on a fresh id 0 (3 instance-
     * slots). b5 (slots 0-1) does not fit id 0 (2 left): fresh id 1.
     * c4 (slot 3): ids 0 and 1 are idle in slot 3, each adds one
     * instance-slot and is empty: the lower, 0. d2 (slots 1-2): id 0
     * holds it in both slots at no new instance-slot (2 left), id 1 has 3
     * left in slot 1 but is idle in slot 2: id 0. e2 (slot 2): id 0 is
     * full, id 1 idle in slot 2 (one new instance-slot): id 1.
     * y = [2, 2, 2, 1]: 7 instance-slots. */
    if (!cp_fx_load(&fx, fleet,
                    "jobs:\n" TJOB("a6", "6", "64800") TJOB("b5", "5", "36000") TJOB("c4", "4", "14400")
                        TJOB("d2", "2", "14400") TJOB("e2", "2", "7200")))
        return;
    const step st[] = {{"a6", "m8", 6, 0},
                       {"b5", "m8", 5, 0},
                       {"c4", "m8", 4, 3},
                       {"d2", "m8", 2, 1},
                       {"e2", "m8", 2, 2}};
    cp_plan *p = agree(st, 5);
    CHECK_INT(unit(p, "a6", 0), 0);
    CHECK_INT(unit(p, "b5", 0), 1);
    CHECK_INT(unit(p, "c4", 0), 0);
    CHECK_INT(unit(p, "d2", 0), 0);
    CHECK_INT(unit(p, "e2", 0), 1);
    int m8 = cp_fx_res(&fx, "m8");
    const int want[] = {2, 2, 2, 1};
    for (int t = 0; t < 4; t++)
        CHECK_INT(*cp_plan_y(p, m8, t), want[t]);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(packing_reuses_a_returned_instance)
{
    /* Labels (version 1.1): b8 fills a fresh id 0 in slots 0-1; c8 (slot 2)
     * takes id 0 again (idle there; a fresh id would cost the same, and
     * the lower wins); a4 (slot 0) needs a fresh id 1; c4 (slot 1) goes
     * back to id 1, which a4 returned after slot 0, rather than a third
     * id. y = [2, 2, 1, 0]. */
    if (!cp_fx_load(&fx, fleet,
                    "jobs:\n" TJOB("b8", "8", "57600") TJOB("a4", "4", "14400") TJOB("c4", "4", "14400")
                        TJOB("c8", "8", "28800")))
        return;
    const step st[] = {
        {"b8", "m8", 8, 0}, {"c8", "m8", 8, 2}, {"a4", "m8", 4, 0}, {"c4", "m8", 4, 1}};
    cp_plan *p = agree(st, 4);
    CHECK_INT(unit(p, "b8", 0), 0);
    CHECK_INT(unit(p, "c8", 0), 0);
    CHECK_INT(unit(p, "a4", 0), 1);
    CHECK_INT(unit(p, "c4", 0), 1);
    int m8 = cp_fx_res(&fx, "m8");
    const int want[] = {2, 2, 1, 0};
    for (int t = 0; t < 4; t++)
        CHECK_INT(*cp_plan_y(p, m8, t), want[t]);
    cp_plan_free(p);
    cp_fx_release(&fx);
}
