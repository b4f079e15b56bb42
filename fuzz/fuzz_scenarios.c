/*
 * libFuzzer harness for the what-if scenario loader (capplan.5 §8): bytes ->
 * cp_scenarios_parse -> cp_whatif_prepare over a small built-in input
 * (pool, offer with a spot market, site series, a training and a
 * dataflow job), then, for at most a few scenarios, the changed inputs
 * emitted as YAML, and the scenarios planned with the heuristic as
 * `capplan whatif --method heuristic` would (cp_whatif_run, one thread)
 * and the table written in the three formats. Oracle: no sanitizer
 * report, no leak, return codes in the documented set.
 */
#include "cp_methods.h"
#include "cp_whatif.h"
#include "cp_yaml.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Planning more than this many scenarios per input would make each
 * execution slow; the parse and the changes are still fuzzed. */
#define RUN_MAX_SCENARIOS 4

static const char input_text[] =
    "version: 1\n"
    "horizon: {slots: 4, slot_hours: 1.0}\n"
    "objective: {carbon_price_per_ton: 50}\n"
    "sites:\n"
    "  - {name: lab, pue: 1.25, energy_price: [0.1, 0.2, 0.1, 0.3], carbon_intensity: 400}\n"
    "accelerators:\n"
    "  - {name: V100, memory_gb: 16, power_w: 300, idle_power_w: 50}\n"
    "pools:\n"
    "  - name: rack\n"
    "    site: lab\n"
    "    nodes: 2\n"
    "    available: [2, 1, 2, 2]\n"
    "    node: {type: v100-node, accelerator: V100, accelerators: 4, cpus: 32,\n"
    "           memory_gb: 256, power_w: 400, idle_power_w: 200}\n"
    "offers:\n"
    "  - name: cloud:r1:v100x4\n"
    "    provider: cloud\n"
    "    region: r1\n"
    "    instance: {type: v100-node, accelerator: V100, accelerators: 4, cpus: 32, memory_gb: 256}\n"
    "    price_hour: 12.0\n"
    "    quota: 1\n"
    "    spot_price_hour: 4.0\n"
    "    spot_quota: 2\n"
    "    spot_interruptions_per_hour: 0.5\n"
    "jobs:\n"
    "  - name: train\n"
    "    kind: training\n"
    "    work: 36000\n"
    "    throughput: {V100: 5}\n"
    "    accelerators: [1, 2, 4]\n"
    "    scaling: {model: amdahl, serial_fraction: 0.1}\n"
    "    cpus_per_accelerator: 4\n"
    "    preemptible: true\n"
    "    deadline_hour: 4\n"
    "  - name: etl\n"
    "    kind: dataflow\n"
    "    input_gb: 100\n"
    "    machines: [1, 2]\n"
    "    runtime: {model: ernest, theta: {v100-node: [60, 30, 10, 5]}}\n"
    "    release_hour: 1\n";

static cp_node *input_root;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cp_diags d;
    cp_diags_init(&d);
    if (cp_yaml_load_string("input.yaml", input_text, sizeof input_text - 1, &input_root, &d)) {
        cp_diags_print(&d, stderr);
        abort();
    }
    return 0;
}

static void check_rc(int rc, const char *what)
{
    if (rc != CP_OK && rc != CP_ERR_INPUT && rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_scenarios: %s returned unexpected code %d\n", what, rc);
        abort();
    }
}

static void run_all(const cp_whatif *w)
{
    cp_solve_opts so;
    cp_solve_opts_init(&so);
    so.time_limit = 1;
    so.node_limit = 20;
    cp_whatif_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.ops = cp_solver_find("heuristic");
    ro.solve_opts = &so;
    ro.jobs = 1;
    cp_whatif_table *t = NULL;
    cp_err err;
    cp_err_init(&err);
    int rc = cp_whatif_run(w, &ro, &t, &err);
    if (rc == CP_OK) {
        for (int f = CP_WHATIF_MD; f <= CP_WHATIF_JSON; f++) {
            cp_buf b;
            cp_buf_init(&b);
            check_rc(cp_whatif_table_write(t, (cp_whatif_format)f, &b, &err), "table_write");
            cp_buf_release(&b);
        }
    } else if (rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_scenarios: cp_whatif_run returned %d: %s\n", rc, err.msg);
        abort();
    }
    cp_whatif_table_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cp_diags *d = malloc(sizeof *d);
    if (!d)
        return 0;
    cp_diags_init(d);
    cp_scenarios *sc = NULL;
    int rc = cp_scenarios_parse("scenarios.yaml", (const char *)data, size, &sc, d);
    check_rc(rc, "cp_scenarios_parse");
    if (rc == CP_OK) {
        cp_whatif *w = NULL;
        rc = cp_whatif_prepare(&input_root, 1, sc, &w, d);
        check_rc(rc, "cp_whatif_prepare");
        if (rc == CP_OK && cp_whatif_count(w) <= RUN_MAX_SCENARIOS + 1) {
            for (int i = 0; i < cp_whatif_count(w); i++) {
                cp_buf b;
                cp_buf_init(&b);
                cp_err err;
                cp_err_init(&err);
                (void)cp_whatif_name(w, i);
                check_rc(cp_whatif_emit(w, i, &b, &err), "cp_whatif_emit");
                cp_buf_release(&b);
            }
            run_all(w);
        }
        cp_whatif_free(w);
    }
    cp_scenarios_free(sc);
    free(d);
    return 0;
}
