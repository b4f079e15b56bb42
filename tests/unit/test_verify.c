/* The plan verifier as a library: re-costed sums of the hand-checked
 * plans in tests/verify/, the split of multi-node training jobs over
 * their nodes, structure-only checks of infeasible plans, tolerances, and
 * out-of-memory at every allocation. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_verify.h"
#include "cp_yaml.h"

#include <stdio.h>

/* Loads an input and a plan from memory; returns false on failure. */
static bool load_pair(const char *input, const char *plan, cp_node **in_tree, cp_input **in,
                      cp_node **plan_tree)
{
    cp_diags d;
    cp_diags_init(&d);
    *in_tree = NULL;
    *in = NULL;
    *plan_tree = NULL;
    if (cp_yaml_load_string("input.yaml", input, strlen(input), in_tree, &d) ||
        cp_input_from_trees(in_tree, 1, in, &d) ||
        cp_yaml_load_string("plan.yaml", plan, strlen(plan), plan_tree, &d)) {
        cp_diags_print(&d, stderr);
        return false;
    }
    return true;
}

static void free_pair(cp_node *in_tree, cp_input *in, cp_node *plan_tree)
{
    cp_input_free(in);
    cp_node_free(in_tree);
    cp_node_free(plan_tree);
}

static bool has_msg(const cp_verify_report *r, const char *part)
{
    for (int i = 0; i < r->n; i++)
        if (strstr(r->items[i].msg, part))
            return true;
    return false;
}

static void dump(const cp_verify_report *r)
{
    for (int i = 0; i < r->n; i++)
        fprintf(stderr, "  %d:%d: %s\n", r->items[i].pos.line, r->items[i].pos.col,
                r->items[i].msg);
}

/* Runs the verifier on files of tests/verify/. */
static int verify_files(const char *plan_path, cp_verify_report *rep)
{
    const char *paths[] = {"tests/verify/input.yaml"};
    cp_diags d;
    cp_diags_init(&d);
    cp_input *in = NULL;
    cp_node *plan = NULL;
    int rc = cp_input_load(paths, 1, &in, &d);
    if (!rc)
        rc = cp_yaml_load_file(plan_path, &plan, &d);
    if (!rc) {
        cp_err e;
        cp_err_init(&e);
        rc = cp_verify_plan(in, plan, rep, &e);
    }
    cp_node_free(plan);
    cp_input_free(in);
    return rc;
}

TEST(verify_valid_plan_sums)
{
    cp_verify_report r;
    cp_verify_report_init(&r);
    CHECK_INT(verify_files("tests/verify/valid.plan.yaml", &r), CP_OK);
    CHECK(cp_verify_report_is_ok(&r));
    CHECK(r.costed);
    /* derived by hand in the plan's header comment */
    CHECK_NEAR(r.sums.cloud, 5, 1e-12);
    CHECK_NEAR(r.sums.energy, 0.78, 1e-12);
    CHECK_NEAR(r.sums.energy_kwh, 3.9, 1e-12);
    CHECK_NEAR(r.sums.carbon_kg, 2.19, 1e-12);
    CHECK_NEAR(r.sums.carbon, 0.219, 1e-12);
    CHECK_NEAR(r.sums.penalty, 0, 1e-12);
    CHECK_NEAR(r.sums.total, 5.999, 1e-12);
    cp_verify_report_release(&r);
}

TEST(verify_valid_spot_plan_sums)
{
    cp_verify_report r;
    cp_verify_report_init(&r);
    CHECK_INT(verify_files("tests/verify/valid-spot.plan.yaml", &r), CP_OK);
    if (r.n)
        dump(&r);
    CHECK(cp_verify_report_is_ok(&r));
    CHECK_NEAR(r.sums.cloud, 4, 1e-12);
    CHECK_NEAR(r.sums.penalty, 30, 1e-12);
    CHECK_NEAR(r.sums.carbon_kg, 2.205, 1e-12);
    CHECK_NEAR(r.sums.total, 34.9105, 1e-12);
    cp_verify_report_release(&r);
}

TEST(verify_json_plan_reads_like_yaml)
{
    cp_verify_report r;
    cp_verify_report_init(&r);
    CHECK_INT(verify_files("tests/verify/valid.plan.json", &r), CP_OK);
    CHECK(cp_verify_report_is_ok(&r));
    CHECK_NEAR(r.sums.total, 5.999, 1e-12);
    cp_verify_report_release(&r);
}

TEST(verify_report_sorted_by_position)
{
    cp_verify_report r;
    cp_verify_report_init(&r);
    CHECK_INT(verify_files("tests/verify/bad-modes.plan.yaml", &r), CP_OK);
    CHECK(r.n > 3);
    CHECK(!r.malformed);
    for (int i = 1; i < r.n; i++)
        CHECK(r.items[i - 1].pos.line < r.items[i].pos.line ||
              (r.items[i - 1].pos.line == r.items[i].pos.line &&
               r.items[i - 1].pos.col <= r.items[i].pos.col));
    cp_verify_report_release(&r);
}

/* Two nodes of 4 accelerators; `big` needs 6 or 8, `small` 2 or 3. No
 * prices or power: every total is 0. */
static const char split_input[] =
    "horizon: {slots: 2}\n"
    "sites: [{name: s, energy_price: 0, carbon_intensity: 0}]\n"
    "accelerators: [{name: G, memory_gb: 80}]\n"
    "pools:\n"
    "  - {name: p, site: s, nodes: 2,\n"
    "     node: {accelerator: G, accelerators: 4, cpus: 32, memory_gb: 256}}\n"
    "jobs:\n"
    "  - {name: big, kind: training, work: 36000, throughput: {G: 10},\n"
    "     accelerators: [6, 8], cpus_per_accelerator: 4, memory_gb_per_accelerator: 16}\n"
    "  - {name: small, kind: training, work: 36000, throughput: {G: 10},\n"
    "     accelerators: [2, 3], cpus_per_accelerator: 4}\n";

static void split_plan(char *out, size_t size, int big_k, const char *big_nodes, int small_k,
                       const char *small_nodes)
{
    snprintf(out, size,
             "capplan_plan: 1\n"
             "status: feasible\n"
             "totals: {total: 0, cloud: 0, energy: 0, carbon: 0, penalty: 0,\n"
             "         energy_kwh: 0, carbon_kg: 0}\n"
             "jobs:\n"
             "  - {name: big, status: scheduled, resource: p, market: pool, accelerator: G,\n"
             "     count: %d, cpus: %d, memory_gb: %d, start_slot: 0, slots: 1,\n"
             "     start_hour: 0, end_hour: %.17g, energy_kwh: 0, nodes: %s}\n"
             "  - {name: small, status: scheduled, resource: p, market: pool, accelerator: G,\n"
             "     count: %d, cpus: %d, memory_gb: 0, start_slot: 0, slots: 1,\n"
             "     start_hour: 0, end_hour: %.17g, energy_kwh: 0, nodes: %s}\n",
             big_k, 4 * big_k, 16 * big_k, 1.0 / big_k, big_nodes, small_k, 4 * small_k,
             1.0 / small_k, small_nodes);
}

static void run_split(int big_k, const char *big_nodes, int small_k, const char *small_nodes,
                      cp_verify_report *r)
{
    char plan[2048];
    split_plan(plan, sizeof plan, big_k, big_nodes, small_k, small_nodes);
    cp_node *it, *pt;
    cp_input *in;
    CHECK(load_pair(split_input, plan, &it, &in, &pt));
    if (in && pt) {
        cp_err e;
        cp_err_init(&e);
        CHECK_INT(cp_verify_plan(in, pt, r, &e), CP_OK);
    }
    free_pair(it, in, pt);
}

TEST(verify_split_uses_room_left_by_other_jobs)
{
    /* small takes 2 accelerators of p/0; big's 6 must go 2 + 4, which a
     * "full nodes first" split (4 + 2) would overload. */
    cp_verify_report r;
    cp_verify_report_init(&r);
    run_split(6, "[p/0, p/1]", 2, "[p/0]", &r);
    if (r.n)
        dump(&r);
    CHECK(cp_verify_report_is_ok(&r));
    cp_verify_report_release(&r);

    run_split(8, "[p/1, p/0]", 2, "[p/0]", &r); /* 10 accelerators > 8 */
    CHECK(has_msg(&r, "pool 'p' over capacity in slot 0"));
    CHECK(has_msg(&r, "node 'p/0' over capacity in slot 0: accelerators 6 > 4"));
    cp_verify_report_release(&r);
}

TEST(verify_split_rules)
{
    cp_verify_report r;
    cp_verify_report_init(&r);
    run_split(6, "[p/0]", 2, "[p/1]", &r);
    CHECK(has_msg(&r, "its 1 node cannot hold its demand: accelerators 4 < 6"));
    cp_verify_report_release(&r);

    run_split(6, "[p/0, p/1]", 2, "[p/0, p/1]", &r);
    CHECK(has_msg(&r, "job 'small' fits on one node but is placed on 2"));
    cp_verify_report_release(&r);

    run_split(6, "[p/0, p/2]", 2, "[p/1]", &r);
    CHECK(has_msg(&r, "pool 'p' has no node 2"));
    cp_verify_report_release(&r);

    run_split(6, "[p/0, p/0]", 2, "[p/1]", &r);
    CHECK(has_msg(&r, "node 'p/0' is listed twice"));
    cp_verify_report_release(&r);

    run_split(6, "[p/0, q/1]", 2, "[p/1]", &r);
    CHECK(has_msg(&r, "'q/1' is not a node id of 'p'"));
    cp_verify_report_release(&r);
}

TEST(verify_infeasible_checks_structure_only)
{
    static const char plan[] = "capplan_plan: 1\nstatus: infeasible\n"
                               "jobs: [{name: big, status: dropped}, {name: nope, status: dropped}]\n";
    cp_node *it, *pt;
    cp_input *in;
    CHECK(load_pair(split_input, plan, &it, &in, &pt));
    cp_verify_report r;
    cp_verify_report_init(&r);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_verify_plan(in, pt, &r, &e), CP_OK);
    CHECK(r.infeasible);
    CHECK(!r.costed);
    CHECK_INT(r.n, 2);
    CHECK(has_msg(&r, "unknown job 'nope'"));
    /* split_input has no power cap and no budget: nothing backs the claim */
    CHECK(has_msg(&r, "status is infeasible, but no site's idle baseline reaches its power cap"));
    cp_verify_report_release(&r);
    free_pair(it, in, pt);
}

TEST(verify_malformed_plan)
{
    cp_node *it, *pt;
    cp_input *in;
    CHECK(load_pair(split_input, "[1, 2]\n", &it, &in, &pt));
    cp_verify_report r;
    cp_verify_report_init(&r);
    cp_err e;
    cp_err_init(&e);
    CHECK_INT(cp_verify_plan(in, pt, &r, &e), CP_OK);
    CHECK(r.malformed);
    CHECK(!cp_verify_report_is_ok(&r));
    CHECK(has_msg(&r, "the plan must be a mapping"));
    cp_verify_report_release(&r);
    free_pair(it, in, pt);
}

TEST(verify_close_tolerance)
{
    CHECK(cp_verify_close(1e6, 1e6 + 0.5, 1e-6));
    CHECK(!cp_verify_close(1e6, 1e6 + 2, 1e-6));
    CHECK(cp_verify_close(0, 1e-10, 1e-6));
    CHECK(!cp_verify_close(0, 1e-6, 1e-6));
}

TEST(verify_out_of_memory_everywhere)
{
    char plan[2048];
    split_plan(plan, sizeof plan, 6, "[p/0, p/1]", 2, "[p/0]");
    cp_node *it, *pt;
    cp_input *in;
    CHECK(load_pair(split_input, plan, &it, &in, &pt));
    cp_verify_report r;
    cp_verify_report_init(&r);
    int ok_seen = 0;
    for (long n = 0; n < 400 && !ok_seen; n++) {
        cp_err e;
        cp_err_init(&e);
        cp_alloc_fail_after(n);
        int rc = cp_verify_plan(in, pt, &r, &e);
        cp_alloc_fail_after(-1);
        CHECK(rc == CP_OK || rc == CP_ERR_NOMEM);
        if (rc == CP_ERR_NOMEM)
            CHECK_INT(r.n, 0);
        else
            ok_seen = 1;
        cp_verify_report_release(&r);
    }
    CHECK(ok_seen);
    free_pair(it, in, pt);
}
