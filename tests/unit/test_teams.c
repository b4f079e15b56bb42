/* The team rows (solvers/cp_teams.h, capplan.5 §10.2) with hand-computed
 * coefficients: a team job's accelerators on a pool of its quota's type in
 * every slot of its run, its CPUs for a `cpus` quota, nothing off the
 * pools or for a job without a team, and its attributed cost in its
 * team's budget row (a pool run's energy; a market run's share of the
 * instance); the rows' right-hand sides scaled for a POP part. */
#include "test.h"

#include "cp_input.h"
#include "cp_modes.h"
#include "cp_teams.h"
#include "cp_yaml.h"

#include <string.h>

static const char input[] =
    "horizon: {slots: 3}\n"
    "sites: [{name: dc, energy_price: 0.1}]\n"
    "accelerators: [{name: V100, memory_gb: 32, power_w: 300}]\n"
    "pools:\n"
    "  - {name: gpu, site: dc, nodes: 1, node: {accelerator: V100, accelerators: 8, cpus: 32,\n"
    "     memory_gb: 256}}\n"
    "offers:\n"
    "  - {name: cloud, price_hour: 1, instance: {accelerator: V100, accelerators: 4, cpus: 16,\n"
    "     memory_gb: 128}}\n"
    "teams:\n"
    "  - {name: vision, quota: {V100: [2, 2, 1], cpus: 8}, budget: 3}\n"
    "  - {name: other}\n"
    "jobs:\n"
    "  - {name: a, kind: training, work: 14400, throughput: {V100: 1}, accelerators: [2],\n"
    "     cpus_per_accelerator: 3, team: vision}\n"
    "  - {name: b, kind: training, work: 7200, throughput: {V100: 1}, accelerators: [2]}\n";

TEST(teams_rows_coefficients)
{
    cp_diags d;
    cp_diags_init(&d);
    cp_node *root = NULL;
    cp_input *in = NULL;
    cp_modeset *ms = NULL;
    cp_err err;
    cp_err_init(&err);
    cp_teamrows tr;
    memset(&tr, 0, sizeof tr);
    bool ok = cp_yaml_load_string("t.yaml", input, strlen(input), &root, &d) == CP_OK &&
              cp_input_from_trees(&root, 1, &in, &d) == CP_OK &&
              cp_modes_build(in, &ms, &err) == CP_OK && cp_teamrows_init(&tr, in, ms, 0.5) == CP_OK;
    CHECK(ok);
    if (!ok)
        goto out;
    /* rows: quota V100 slots 0-2, quota cpus slots 0-2, vision's budget */
    CHECK_INT(tr.n_quota, 2);
    CHECK_INT(tr.n_rows, 7);
    CHECK_NEAR(tr.rhs[2], 0.5, 0); /* V100 slot 2: 1 * 0.5 */
    CHECK_NEAR(tr.rhs[6], 1.5, 0); /* the budget: 3 * 0.5 */
    CHECK_INT(tr.budget_row[1], -1);
    int rows[16];
    double vals[16];
    int seen = 0;
    for (int m = ms->job_first[0]; m < ms->job_first[1]; m++) {
        const cp_mode *md = &ms->modes[m];
        int n = cp_teamrows_coefs(&tr, m, 0, rows, vals);
        if (ms->res[md->res].kind == CP_RES_POOL) {
            /* 2 h from slot 0: V100 rows 0, 1 (2 each), cpus rows 3, 4 (6 each),
             * budget: 600 W * 2 h = 1.2 kWh * 0.1 = $0.12 */
            CHECK_INT(n, 5);
            CHECK_INT(rows[0], 0);
            CHECK_NEAR(vals[0], 2, 0);
            CHECK_INT(rows[1], 1);
            CHECK_INT(rows[2], 3);
            CHECK_NEAR(vals[2], 6, 0);
            CHECK_INT(rows[4], 6);
            CHECK_NEAR(vals[4], 0.12, 1e-12);
        } else {
            /* the market: its budget row only, half an instance (2 of 4
             * V100s) for 2 slots at $1: $1 */
            CHECK_INT(n, 1);
            CHECK_INT(rows[0], 6);
            CHECK_NEAR(vals[0], 1.0, 1e-12);
        }
        seen++;
    }
    CHECK_INT(seen, 2);
    /* b has no team: no row */
    CHECK_INT(cp_teamrows_coefs(&tr, ms->job_first[1], 0, rows, vals), 0);
out:
    if (!ok)
        cp_diags_print(&d, stderr);
    cp_teamrows_release(&tr);
    cp_modeset_free(ms);
    cp_input_free(in);
    cp_node_free(root);
}
