/* Placement repairs (solvers/placement.c) on hand-built cases that the
 * 1.0 placement got wrong: the move it chose was not the cheapest, a
 * moved market job left an idle instance paid for, and "one more
 * instance" rented two. Each expected total is derived in the comments;
 * instance ids are labels (version 1.1), so y(t) counts the ids in use. */
#include "test.h"
#include "cp_placement.h"
#include "fixture.h"

#define TJOB(name, k, work, more) \
    "  - {name: " name ", kind: training, work: " work ", throughput: {G: 1}, accelerators: [" k "]" more "}\n"
#define OFFER(q) "offers:\n  - {name: m8, price_hour: 10, quota: " q ",\n" \
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"

static cp_fx fx;

static cp_plan *plan;
static void set(const char *job, const char *res, int k, int s)
{
    int j = cp_fx_job(&fx, job);
    plan->mode[j] = cp_fx_mode(&fx, job, res, k);
    plan->start[j] = s;
}
static double total(void)
{
    cp_plan_figures f;
    cp_plan_eval(plan, &f, NULL);
    double t = f.costs.total;
    cp_plan_figures_release(&f);
    return t;
}
static int place(void)
{
    int r = -1;
    cp_err e;
    cp_err_init(&e);
    cp_plan_place(plan, &r, &e);
    return r;
}

/* The repair moves a job that does not pack to its cheapest other
 * (mode, start) that packs, not to the first one found. */
TEST(repair_moves_to_the_cheapest_start)
{
    if (!cp_fx_load(&fx,
            "horizon: {slots: 3}\n"
            "sites: [{name: dc, energy_price: [0.5, 1.0, 0.25]}]\n"
            "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
            "pools:\n  - {name: rack, site: dc, nodes: 2,\n"
            "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
            OFFER("3"),
            "jobs:\n" TJOB("a6", "6", "21600", "") TJOB("b5", "5", "18000", "") TJOB("c5", "5", "18000", "")))
        return;
    cp_plan_new(fx.in, fx.ms, &plan);
    set("a6", "rack", 6, 0);
    set("b5", "rack", 5, 0);
    set("c5", "rack", 5, 0);
    CHECK_INT(place(), 1);
    /* c5 (1.25 kWh) packs on rack in slot 1 (1.0 $/kWh: 1.25 $) and in
     * slot 2 (0.25 $/kWh: 0.3125 $); m8 costs 10 $ */
    CHECK_INT(plan->start[cp_fx_job(&fx, "c5")], 2);           
    CHECK_NEAR(total(), 0.75 + 0.625 + 0.3125, 1e-12);          
    cp_plan_free(plan);
    cp_fx_release(&fx);
}

/* y(t) ends as the instance ids in use: what the repair rents is paid
 * only where a job runs, and instances the aggregate plan rented but no
 * job uses are returned. a5 runs in slots 0-1, b5 in 1-2, c6 in 1; 5 + 5
 * + 6 GPUs do not pack on two 8-GPU instances, so slot 1 needs three
 * (c6 on id 0, a5 on a fresh id 1, b5 on a fresh id 2), slots 0 and 2
 * one each: y = [1, 3, 1], 5 instance-slots at 10 $ = 50 $. */
TEST(repair_pays_only_the_instances_in_use)
{
    if (!cp_fx_load(&fx,
            "horizon: {slots: 3}\n"
            "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n" OFFER("3"),
            "jobs:\n" TJOB("a5", "5", "36000", "") TJOB("b5", "5", "36000", "") TJOB("c6", "6", "21600", "")))
        return;
    cp_plan_new(fx.in, fx.ms, &plan);
    set("a5", "m8", 5, 0); /* slots 0-1 */
    set("b5", "m8", 5, 1); /* slots 1-2 */
    set("c6", "m8", 6, 1); /* slot 1 */
    cp_plan_min_instances(plan); /* y = [1, 2, 1] by the aggregate demand */
    CHECK_INT(*cp_plan_y(plan, 0, 1), 2);
    CHECK_INT(place(), 1);
    CHECK_STR(plan->note, "job 'b5': 1 more instance-slot of m8 to pack it");
    CHECK_INT(plan->start[cp_fx_job(&fx, "b5")], 1);
    CHECK_INT(plan->units[cp_fx_job(&fx, "c6")][0], 0);
    CHECK_INT(plan->units[cp_fx_job(&fx, "a5")][0], 1);
    CHECK_INT(plan->units[cp_fx_job(&fx, "b5")][0], 2);
    CHECK_INT(*cp_plan_y(plan, 0, 0), 1);
    CHECK_INT(*cp_plan_y(plan, 0, 1), 3);
    CHECK_INT(*cp_plan_y(plan, 0, 2), 1);
    CHECK_NEAR(total(), 50, 1e-12);
    /* over-rented (3 in every slot): packed with no repair, then the
     * idle instances of slots 0 and 2 are returned */
    for (int t = 0; t < 3; t++)
        *cp_plan_y(plan, 0, t) = 3;
    plan->pool_units = false;
    CHECK_INT(place(), 0);
    CHECK_INT(*cp_plan_y(plan, 0, 0), 1);
    CHECK_INT(*cp_plan_y(plan, 0, 2), 1);
    CHECK_NEAR(total(), 50, 1e-12);
    cp_plan_free(plan);
    cp_fx_release(&fx);
}

/* Renting for a job that does not pack adds only the instances it needs
 * beyond y(t), in the slots it needs them (1.0 raised y(t) to the
 * highest id in use plus one: two more in slot 1 here). */
TEST(repair_rents_only_the_missing_instance)
{
    if (!cp_fx_load(&fx,
            "horizon: {slots: 2}\n"
            "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n" OFFER("4"),
            "jobs:\n" TJOB("f0", "8", "28800", "") TJOB("f1", "8", "28800", "") TJOB("f2", "8", "28800", "")
            TJOB("a5", "5", "18000", "") TJOB("b5", "5", "18000", "") TJOB("c6", "6", "21600", "")))
        return;
    cp_plan_new(fx.in, fx.ms, &plan);
    set("f0", "m8", 8, 0);
    set("f1", "m8", 8, 0);
    set("f2", "m8", 8, 0);
    set("a5", "m8", 5, 1);
    set("b5", "m8", 5, 1);
    set("c6", "m8", 6, 1);
    cp_plan_min_instances(plan); /* y = [3, 2] */
    CHECK_INT(place(), 1);
    CHECK_STR(plan->note, "job 'b5': 1 more instance-slot of m8 to pack it");
    /* c6, a5, b5 on instances 0, 1, 2 of slot 1: three instances */
    CHECK_INT(*cp_plan_y(plan, 0, 1), 3);  
    CHECK_NEAR(total(), 60, 1e-12);        
    cp_plan_free(plan);
    cp_fx_release(&fx);
}
