/* Concrete placement (solvers/placement.c, cp_plan_place) of plans set
 * by hand: the node or instance each job lands on (largest first, best
 * fit, whole units first), units a plan already gives, and the three
 * repairs of an aggregate plan that does not pack: one more instance, a
 * move to another start, a drop. The totals come from cp_plan_eval.
 *
 * The fleet: 3 one-hour slots; site dc without idle draw at 0.5 $/kWh;
 * accelerator G draws 250 W busy; pool rack has 2 nodes of 8 G, 64 CPUs,
 * 512 GB; offer m8 is the same machine at 10 $/h, quota 3. Training jobs
 * have throughput 1 on G (work 3600·k·H runs H hours on k GPUs); k GPUs
 * on rack for one hour are k/4 kWh, k/8 $. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_placement.h"
#include "fixture.h"

static const char fleet[] =
    "horizon: {slots: 3}\n"
    "sites: [{name: dc, energy_price: 0.5}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 2,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: 3,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n";

/* A training job of k GPUs running `work` / (3600 k) hours, with more keys. */
#define TJOBX(name, k, work, more)                                                                 \
    "  - {name: " name ", kind: training, work: " work ", throughput: {G: 1}, "                    \
    "accelerators: [" k "]" more "}\n"
#define TJOB(name, k, work) TJOBX(name, k, work, "")
/* pool only */
#define ONPREM "placement: {cloud: false}"
/* A dataflow job on 2 machines of type gpu for one hour. */
#define DFJOB(name)                                                                                \
    "  - {name: " name ", kind: dataflow, input_gb: 100, machines: [2],\n"                         \
    "     runtime: {model: ernest, theta: {gpu: [3600, 0, 0, 0]}}}\n"

enum { RACK, M8 };

static cp_fx fx;
static cp_plan *plan;

static bool setup(const char *jobs)
{
    plan = NULL;
    if (!cp_fx_load(&fx, fleet, jobs))
        return false;
    if (cp_plan_new(fx.in, fx.ms, &plan) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return false;
    }
    return true;
}

static void teardown(void)
{
    cp_plan_free(plan);
    cp_fx_release(&fx);
}

static int J(const char *job)
{
    return cp_fx_job(&fx, job);
}

/* Job `job` on `res` with k units from slot s. */
static void set(const char *job, const char *res, int k, int s)
{
    int j = J(job), m = cp_fx_mode(&fx, job, res, k);
    if (j >= 0 && m >= 0) {
        plan->mode[j] = m;
        plan->start[j] = s;
    }
}

/* Places the plan; returns the repairs (-1 on an error). */
static int place(void)
{
    int repairs = -1;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_place(plan, &repairs, &err) != CP_OK) {
        cp_err_print(&err, stderr);
        return -1;
    }
    return repairs;
}

static double total(void)
{
    cp_plan_figures f;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_eval(plan, &f, &err) != CP_OK)
        return NAN;
    double t = f.costs.total;
    cp_plan_figures_release(&f);
    return t;
}

/* "a,b" of the units the plan gives job `job` ("-" for none). */
static const char *units_of(const char *job)
{
    static char s[64];
    int j = J(job);
    size_t len = 0;
    s[0] = '-';
    s[1] = '\0';
    for (int q = 0; j >= 0 && q < plan->n_units[j] && len < sizeof s - 12; q++)
        len += (size_t)snprintf(s + len, sizeof s - len, "%s%d", q ? "," : "", plan->units[j][q]);
    return s;
}

TEST(placement_packs_largest_first_with_best_fit)
{
    /* in job order s3, s3b, t5, t5b would not pack (3 + 3 on node 0, 5
     * on node 1, then 2 and 3 GPUs left for t5b); largest first: t5 on
     * node 0, t5b on node 1, s3 ties 3 free on both and takes node 0, s3b
     * node 1 */
    if (!setup("jobs:\n"
               TJOB("s3", "3", "10800")
               TJOB("s3b", "3", "10800")
               TJOB("t5", "5", "18000")
               TJOB("t5b", "5", "18000")))
        return;
    set("s3", "rack", 3, 0);
    set("s3b", "rack", 3, 0);
    set("t5", "rack", 5, 0);
    set("t5b", "rack", 5, 0);
    CHECK_INT(place(), 0);
    CHECK(plan->placed);
    CHECK(plan->note == NULL);
    CHECK_STR(units_of("t5"), "0");
    CHECK_STR(units_of("t5b"), "1");
    CHECK_STR(units_of("s3"), "0");
    CHECK_STR(units_of("s3b"), "1");
    CHECK_NEAR(total(), 2.0, 1e-12); /* 16 GPU-hours: 4 kWh at 0.5 */
    teardown();
}

TEST(placement_wide_jobs_take_whole_units)
{
    if (!setup("jobs:\n"
               TJOB("w12", "12", "43200")
               TJOB("c2", "2", "7200")
               TJOB("v12", "12", "43200")
               DFJOB("df")))
        return;
    set("w12", "rack", 12, 0);
    set("c2", "rack", 2, 0);
    set("df", "rack", 2, 1);
    set("v12", "m8", 12, 2);
    cp_plan_min_instances(plan); /* v12: 2 instances in slot 2 */
    CHECK_INT(*cp_plan_y(plan, M8, 2), 2);
    CHECK_INT(place(), 0);
    /* 12 GPUs: node 0 whole, 4 on node 1; c2 on node 1's other 4; the
     * dataflow job two whole nodes; on the market instance 0 whole and
     * 4 on instance 1 */
    CHECK_STR(units_of("w12"), "0,1");
    CHECK_STR(units_of("c2"), "1");
    CHECK_STR(units_of("df"), "0,1");
    CHECK_STR(units_of("v12"), "0,1");
    /* rack: 14 GPUs in slot 0 and 16 in slot 1, 7.5 kWh = 3.75 $;
     * m8: 2 instances for one hour, 20 $ */
    CHECK_NEAR(total(), 23.75, 1e-12);
    teardown();
}

TEST(placement_keeps_the_nodes_a_plan_gives)
{
    if (!setup("jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("b4", "4", "14400")))
        return;
    set("a4", "rack", 4, 0);
    set("b4", "rack", 4, 0);
    /* a4 on node 1 where the plan put it (best fit from empty would take
     * node 0); b4's node 7 does not exist, so b4 is packed again: best
     * fit beside a4 */
    static const int n1[] = {1}, n7[] = {7};
    plan->units[J("a4")] = cp_malloc(sizeof n1);
    plan->units[J("b4")] = cp_malloc(sizeof n7);
    if (!plan->units[J("a4")] || !plan->units[J("b4")]) {
        CHECK(0);
        teardown();
        return;
    }
    memcpy(plan->units[J("a4")], n1, sizeof n1);
    memcpy(plan->units[J("b4")], n7, sizeof n7);
    plan->n_units[J("a4")] = plan->n_units[J("b4")] = 1;
    plan->pool_units = true;
    CHECK_INT(place(), 0);
    CHECK_STR(units_of("a4"), "1");
    CHECK_STR(units_of("b4"), "1");
    teardown();
}

TEST(placement_repair_rents_one_more_instance)
{
    /* 6 + 5 + 5 GPUs in slot 0 need 2 instances by the totals, but no
     * two of them share one: c6 on instance 0, a5 on 1; rack is full for
     * the whole horizon (r16), so what b5 adds is a third instance-slot
     * in any slot ($10): the tie keeps it in slot 0 (quota 3) */
    if (!setup("jobs:\n"
               TJOB("a5", "5", "18000")
               TJOB("b5", "5", "18000")
               TJOB("c6", "6", "21600")
               TJOB("r16", "16", "172800")))
        return;
    set("a5", "m8", 5, 0);
    set("b5", "m8", 5, 0);
    set("c6", "m8", 6, 0);
    set("r16", "rack", 16, 0);
    cp_plan_min_instances(plan);
    CHECK_INT(*cp_plan_y(plan, M8, 0), 2);
    CHECK_INT(place(), 1);
    CHECK_STR(units_of("c6"), "0");
    CHECK_STR(units_of("a5"), "1");
    CHECK_STR(units_of("b5"), "2");
    CHECK_INT(*cp_plan_y(plan, M8, 0), 3);
    CHECK_STR(plan->note, "job 'b5': 1 more instance-slot of m8 to pack it");
    /* 3 instance-slots $30 + r16's 48 GPU-hours on rack $6 */
    CHECK_NEAR(total(), 36, 1e-12);
    CHECK(cp_plan_is_feasible(plan, NULL, 0));
    teardown();
}

TEST(placement_repair_moves_a_job_where_it_adds_least)
{
    /* as above with rack empty: b5 on rack in slot 0 adds its energy,
     * 5 GPU-hours = $0.625, less than a third instance ($10) */
    if (!setup("jobs:\n"
               TJOB("a5", "5", "18000")
               TJOB("b5", "5", "18000")
               TJOB("c6", "6", "21600")))
        return;
    set("a5", "m8", 5, 0);
    set("b5", "m8", 5, 0);
    set("c6", "m8", 6, 0);
    cp_plan_min_instances(plan);
    CHECK_INT(place(), 1);
    CHECK_STR(units_of("b5"), "0");
    CHECK_INT(plan->mode[J("b5")], cp_fx_mode(&fx, "b5", "rack", 5));
    CHECK_INT(plan->start[J("b5")], 0);
    CHECK_INT(*cp_plan_y(plan, M8, 0), 2);
    CHECK_STR(plan->note, "job 'b5': moved to rack at slot 0 to pack it");
    CHECK_NEAR(total(), 20.625, 1e-12);
    teardown();
}

TEST(placement_repair_moves_a_job_to_a_start_that_packs)
{
    /* 6 + 5 + 5 GPUs on rack in slot 0: 16 of 16 by the totals; a6 on
     * node 0, b5 on node 1, and c5 finds 2 and 3 GPUs free. Its first
     * other (mode, start) is rack in slot 1, which is empty */
    if (!setup("jobs:\n"
               TJOB("a6", "6", "21600")
               TJOB("b5", "5", "18000")
               TJOB("c5", "5", "18000")))
        return;
    set("a6", "rack", 6, 0);
    set("b5", "rack", 5, 0);
    set("c5", "rack", 5, 0);
    CHECK(cp_plan_is_feasible(plan, NULL, 0));
    CHECK_INT(place(), 1);
    CHECK_INT(plan->mode[J("c5")], cp_fx_mode(&fx, "c5", "rack", 5));
    CHECK_INT(plan->start[J("c5")], 1);
    CHECK_STR(units_of("c5"), "0");
    CHECK_STR(plan->note, "job 'c5': moved to rack at slot 1 to pack it");
    CHECK_NEAR(total(), 2.0, 1e-12); /* still 16 GPU-hours on rack */
    teardown();
}

TEST(placement_repair_drops_what_packs_nowhere)
{
    /* the same, but c5 may run only on rack in slot 0 */
    if (!setup("jobs:\n"
               TJOB("a6", "6", "21600")
               TJOB("b5", "5", "18000")
               TJOBX("c5", "5", "18000", ", deadline_hour: 1, drop_penalty: 100, " ONPREM)))
        return;
    set("a6", "rack", 6, 0);
    set("b5", "rack", 5, 0);
    set("c5", "rack", 5, 0);
    CHECK_INT(place(), 1);
    CHECK_INT(plan->mode[J("c5")], -1);
    CHECK_INT(plan->n_units[J("c5")], 0);
    CHECK_STR(
        plan->reason[J("c5")],
        "dropped while packing nodes: no node or instance had room for it in any of its modes");
    CHECK_STR(plan->note, "job 'c5': dropped, it could not be packed onto nodes");
    /* 11 GPU-hours (1.375 $) and c5's penalty */
    CHECK_NEAR(total(), 101.375, 1e-12);
    teardown();
}
