/* Modes (capplan.5 §2) with hand-computed values: durations (training linear,
 * Amdahl, table; dataflow Ernest), the spot stretch, slot counts and the
 * last-slot busy fraction, busy power on pools, the allowed start window,
 * spot markets only for preemptible jobs, placement rules, and the memory
 * estimate and normal quantile extensions. Each input is two inline files:
 * the shared fleet below and a jobs file that also gives the horizon
 * (merged key by key). */
#include "test.h"

#include "cp_input.h"
#include "cp_modes.h"
#include "cp_yaml.h"

#include <stdlib.h>

/* Resources, in cp_modes order: pools rack, big; offers aws:v100
 * (on-demand, spot), gcp:a100 (on-demand, spot), anon (on-demand only,
 * no provider or region). */
static const char fleet[] =
    "sites: [{name: dc}]\n"
    "accelerators:\n"
    "  - {name: V100, memory_gb: 16, power_w: 300, idle_power_w: 50}\n"
    "  - {name: A100, memory_gb: 80, power_w: 400, idle_power_w: 100}\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 2, node: {type: v100-node, accelerator: V100,\n"
    "     accelerators: 4, cpus: 32, memory_gb: 256, power_w: 400, idle_power_w: 200}}\n"
    "  - {name: big, site: dc, nodes: 1, node: {type: a100-node, accelerator: A100,\n"
    "     accelerators: 8, cpus: 64, memory_gb: 1024, power_w: 1000, idle_power_w: 200}}\n"
    "offers:\n"
    "  - {name: 'aws:v100', provider: aws, region: us-east-1, price_hour: 12,\n"
    "     instance: {type: v100-node, accelerator: V100, accelerators: 4, cpus: 32, memory_gb: 256},\n"
    "     spot_price_hour: 4, spot_interruptions_per_hour: 0.5}\n"
    "  - {name: 'gcp:a100', provider: gcp, region: us-central1, price_hour: 30,\n"
    "     instance: {type: a100-node, accelerator: A100, accelerators: 8, cpus: 96, memory_gb: 1360},\n"
    "     spot_price_hour: 9, spot_interruptions_per_hour: 0.2}\n"
    "  - {name: anon, price_hour: 10,\n"
    "     instance: {type: v100-node, accelerator: V100, accelerators: 4, cpus: 32, memory_gb: 256}}\n";

static cp_node *roots[2];
static cp_input *in;
static cp_modeset *ms;

static bool setup(const char *jobs)
{
    static cp_diags d;
    cp_diags_init(&d);
    in = NULL;
    ms = NULL;
    roots[0] = roots[1] = NULL;
    bool ok = cp_yaml_load_string("fleet.yaml", fleet, strlen(fleet), &roots[0], &d) == CP_OK &&
              cp_yaml_load_string("jobs.yaml", jobs, strlen(jobs), &roots[1], &d) == CP_OK &&
              cp_input_from_trees(roots, 2, &in, &d) == CP_OK;
    cp_err err;
    cp_err_init(&err);
    if (ok && cp_modes_build(in, &ms, &err) != CP_OK) {
        cp_diags_add_err(&d, &err);
        ok = false;
    }
    if (!ok)
        cp_diags_print(&d, stderr);
    CHECK(ok);
    return ok;
}

static void teardown(void)
{
    cp_modeset_free(ms);
    cp_input_free(in);
    cp_node_free(roots[0]);
    cp_node_free(roots[1]);
    ms = NULL;
    in = NULL;
}

static int n_modes(int job)
{
    return ms->job_first[job + 1] - ms->job_first[job];
}

/* The mode of `job` on the resource with id `res` (pool name, offer name,
 * or "OFFER:spot") and count k; NULL (and a failure) when there is none. */
static const cp_mode *mode(int job, const char *res, int k)
{
    for (int m = ms->job_first[job]; m < ms->job_first[job + 1]; m++)
        if (!strcmp(ms->res[ms->modes[m].res].id, res) && ms->modes[m].count == k)
            return &ms->modes[m];
    fprintf(stderr, "  no mode of job %d on %s with count %d\n", job, res, k);
    cp_test_failures++;
    return NULL;
}

static bool has_mode(int job, const char *res)
{
    for (int m = ms->job_first[job]; m < ms->job_first[job + 1]; m++)
        if (!strcmp(ms->res[ms->modes[m].res].id, res))
            return true;
    return false;
}

TEST(modes_resources_in_order)
{
    if (!setup("horizon: {slots: 4}\n"))
        return;
    CHECK_INT(ms->n_res, 7);
    static const char *const ids[] = {"rack", "big", "aws:v100", "aws:v100:spot",
                                      "gcp:a100", "gcp:a100:spot", "anon"};
    for (int r = 0; r < 7 && r < ms->n_res; r++)
        CHECK_STR(ms->res[r].id, ids[r]);
    CHECK_INT(ms->spot_of_offer[2], -1);
    teardown();
}

TEST(modes_training_linear_with_spot_stretch_and_power)
{
    static const char jobs[] =
        "horizon: {slots: 8}\n"
        "jobs:\n"
        "  - {name: lin, kind: training, work: 36000, throughput: {V100: 5, A100: 20},\n"
        "     accelerators: [1, 2, 4], cpus_per_accelerator: 4, memory_gb_per_accelerator: 16,\n"
        "     preemptible: true, checkpoint_minutes: 60, restart_minutes: 30}\n";
    if (!setup(jobs))
        return;
    /* every resource is eligible and every count fits in 8 h: 7 x 3 */
    CHECK_INT(n_modes(0), 21);
    const cp_mode *m;
    /* rack, k=1: 36000 / (3600 * 5 * 1) = 2 h -> d = 2, last slot full.
     * busy power: 1 * (300 - 50) + 1 * 4 cpus * (400 - 200) W / 32 cpus = 275 W */
    if ((m = mode(0, "rack", 1))) {
        CHECK_NEAR(m->base_hours, 2.0, 1e-12);
        CHECK_NEAR(m->hours, 2.0, 1e-12);
        CHECK_INT(m->slots, 2);
        CHECK_NEAR(m->last_frac, 1.0, 1e-12);
        CHECK_NEAR(m->busy_w, 275, 1e-12);
        CHECK_NEAR(m->demand[CP_DIM_ACC], 1, 0);
        CHECK_NEAR(m->demand[CP_DIM_CPU], 4, 0);
        CHECK_NEAR(m->demand[CP_DIM_MEM], 16, 0);
        CHECK_INT(m->acc, 0);
        CHECK_INT(m->s_min, 0);
        CHECK_INT(m->s_max, 6); /* s + 2 <= 8 */
    }
    /* rack, k=4: 0.5 h -> d = 1, busy fraction 0.5; 4 * 275 = 1100 W; demand (4, 16, 64) */
    if ((m = mode(0, "rack", 4))) {
        CHECK_NEAR(m->hours, 0.5, 1e-12);
        CHECK_INT(m->slots, 1);
        CHECK_NEAR(m->last_frac, 0.5, 1e-12);
        CHECK_NEAR(m->busy_w, 1100, 1e-12);
        CHECK_NEAR(m->demand[CP_DIM_CPU], 16, 0);
        CHECK_NEAR(m->demand[CP_DIM_MEM], 64, 0);
        CHECK_INT(m->s_max, 7);
    }
    /* big, k=2 on A100: 36000 / (3600 * 20 * 2) = 0.25 h;
     * busy: 2 * (400 - 100) + 2 * 4 * (1000 - 200) / 64 = 600 + 100 = 700 W */
    if ((m = mode(0, "big", 2))) {
        CHECK_NEAR(m->hours, 0.25, 1e-12);
        CHECK_NEAR(m->busy_w, 700, 1e-12);
        CHECK_INT(m->acc, 1);
    }
    /* aws spot, k=2: base 1 h; stretch 1 + 0.5 * (60/120 + 30/60) = 1.5
     * -> 1.5 h, d = 2, last-slot fraction 0.5; no busy power on markets */
    if ((m = mode(0, "aws:v100:spot", 2))) {
        CHECK_NEAR(m->base_hours, 1.0, 1e-12);
        CHECK_NEAR(m->hours, 1.5, 1e-12);
        CHECK_INT(m->slots, 2);
        CHECK_NEAR(m->last_frac, 0.5, 1e-12);
        CHECK_NEAR(m->busy_w, 0, 0);
    }
    /* aws spot, k=1: 2 h * 1.5 = 3 h exactly: d = 3, not 4 */
    if ((m = mode(0, "aws:v100:spot", 1))) {
        CHECK_NEAR(m->hours, 3.0, 1e-12);
        CHECK_INT(m->slots, 3);
        CHECK_NEAR(m->last_frac, 1.0, 1e-12);
    }
    /* gcp spot, k=1: base 36000 / (3600 * 20) = 0.5 h; stretch 1 + 0.2 * 1 = 1.2 -> 0.6 h */
    if ((m = mode(0, "gcp:a100:spot", 1)))
        CHECK_NEAR(m->hours, 0.6, 1e-12);
    /* on-demand is not stretched */
    if ((m = mode(0, "aws:v100", 1)))
        CHECK_NEAR(m->hours, 2.0, 1e-12);
    teardown();
}

TEST(modes_training_amdahl_table_and_default_stretch)
{
    static const char jobs[] =
        "horizon: {slots: 8}\n"
        "jobs:\n"
        "  - {name: amd, kind: training, work: 144000, throughput: {V100: 10},\n"
        "     accelerators: [4, 8], scaling: {model: amdahl, serial_fraction: 0.2},\n"
        "     preemptible: true}\n"
        "  - {name: tab, kind: training, work: 36000, throughput: {V100: 5},\n"
        "     accelerators: [1, 2, 4], scaling: {model: table, speedup: {1: 1, 2: 1.9, 4: 3}}}\n";
    if (!setup(jobs))
        return;
    const cp_job *amd = &in->jobs[0], *tab = &in->jobs[1];
    /* S(4) = 1 / (0.2 + 0.8/4) = 2.5; S(8) = 1 / (0.2 + 0.8/8) = 10/3 */
    CHECK_NEAR(cp_job_speedup(amd, 4), 2.5, 1e-12);
    CHECK_NEAR(cp_job_speedup(amd, 8), 10.0 / 3, 1e-12);
    CHECK_NEAR(cp_job_speedup(tab, 2), 1.9, 0);
    CHECK_NEAR(cp_job_speedup(tab, 4), 3, 0);
    const cp_mode *m;
    /* 144000 / (3600 * 10 * 2.5) = 1.6 h: d = 2, last-slot fraction 0.6 */
    if ((m = mode(0, "rack", 4))) {
        CHECK_NEAR(m->hours, 1.6, 1e-12);
        CHECK_INT(m->slots, 2);
        CHECK_NEAR(m->last_frac, 0.6, 1e-12);
    }
    /* 144000 / (3600 * 10 * 10/3) = 1.2 h: d = 2, fraction 0.2 */
    if ((m = mode(0, "rack", 8))) {
        CHECK_NEAR(m->hours, 1.2, 1e-12);
        CHECK_NEAR(m->last_frac, 0.2, 1e-12);
    }
    /* default checkpoint 30 min, restart 5 min: stretch
     * 1 + 0.5 * (30/120 + 5/60) = 1 + 0.5 * (1/4 + 1/12) = 7/6;
     * 1.6 h * 7/6 = 1.8666... h, d = 2 */
    if ((m = mode(0, "aws:v100:spot", 4))) {
        CHECK_NEAR(m->hours, 1.6 * 7 / 6, 1e-12);
        CHECK_INT(m->slots, 2);
        CHECK_NEAR(m->last_frac, 1.6 * 7 / 6 - 1, 1e-12);
    }
    /* table: k=2: 36000 / (3600 * 5 * 1.9) = 1.0526315789... h -> d = 2,
     * fraction 0.0526315789...; k=4: 36000 / (18000 * 3) = 2/3 h */
    if ((m = mode(1, "rack", 2))) {
        CHECK_NEAR(m->hours, 2.0 / 1.9, 1e-12);
        CHECK_INT(m->slots, 2);
        CHECK_NEAR(m->last_frac, 2.0 / 1.9 - 1, 1e-12);
    }
    if ((m = mode(1, "rack", 4)))
        CHECK_NEAR(m->hours, 2.0 / 3, 1e-12);
    /* not preemptible: no spot market at all */
    CHECK(!has_mode(1, "aws:v100:spot"));
    CHECK(!has_mode(1, "gcp:a100:spot"));
    CHECK(has_mode(1, "aws:v100"));
    teardown();
}

TEST(modes_dataflow_ernest)
{
    static const char jobs[] =
        "horizon: {slots: 8}\n"
        "jobs:\n"
        "  - {name: etl, kind: dataflow, input_gb: 100, machines: [1, 2, 4],\n"
        "     runtime: {model: ernest, theta: {v100-node: [180, 54, 10, 180]}}}\n";
    if (!setup(jobs))
        return;
    /* v100-node: rack, aws:v100 on-demand, anon; not preemptible: 3 x 3,
     * but for 4 machines on rack, which has 2 nodes (capplan.5 §2, version 1.1: k <= U) */
    CHECK_INT(n_modes(0), 8);
    CHECK(!has_mode(0, "big"));
    CHECK(!has_mode(0, "aws:v100:spot"));
    const cp_mode *m;
    /* t(1) = 180 + 54*100/1 + 10 ln 1 + 180*1 = 5760 s = 1.6 h */
    if ((m = mode(0, "rack", 1))) {
        CHECK_NEAR(m->hours, 1.6, 1e-12);
        CHECK_INT(m->slots, 2);
        /* busy: 1 * (4 * (300 - 50) + (400 - 200)) = 1200 W */
        CHECK_NEAR(m->busy_w, 1200, 1e-12);
    }
    /* t(2) = 180 + 2700 + 10 ln 2 + 360 = 3246.9314718055995 s
     *      = 0.90192540883488875 h; demand 2 nodes: (8, 64, 512); 2400 W */
    if ((m = mode(0, "rack", 2))) {
        CHECK_NEAR(m->hours, (3240 + 10 * log(2.0)) / 3600, 1e-12);
        CHECK_NEAR(m->hours, 0.90192540883488875, 1e-12);
        CHECK_INT(m->slots, 1);
        CHECK_NEAR(m->last_frac, 0.90192540883488875, 1e-12);
        CHECK_NEAR(m->demand[CP_DIM_ACC], 8, 0);
        CHECK_NEAR(m->demand[CP_DIM_CPU], 64, 0);
        CHECK_NEAR(m->demand[CP_DIM_MEM], 512, 0);
        CHECK_NEAR(m->busy_w, 2400, 1e-12);
    }
    /* t(4) = 180 + 1350 + 10 ln 4 + 720 = 2263.8629436111989 s */
    if ((m = mode(0, "anon", 4))) {
        CHECK_NEAR(m->hours, 2263.8629436111989 / 3600, 1e-12);
        CHECK_NEAR(m->busy_w, 0, 0);
    }
    teardown();
}

TEST(modes_duration_slots)
{
    double f;
    /* d = max(1, ceil(duration / h - 1e-9)); last fraction duration/h - (d-1) */
    CHECK_INT(cp_duration_slots(2.0, 1.0, &f), 2);
    CHECK_NEAR(f, 1.0, 1e-12);
    CHECK_INT(cp_duration_slots(2.1, 1.0, &f), 3);
    CHECK_NEAR(f, 0.1, 1e-12);
    CHECK_INT(cp_duration_slots(0.1, 1.0, &f), 1);
    CHECK_NEAR(f, 0.1, 1e-12);
    CHECK_INT(cp_duration_slots(0.0, 1.0, &f), 1); /* at least one slot */
    CHECK_NEAR(f, 0.0, 0);
    CHECK_INT(cp_duration_slots(1.25, 0.5, &f), 3);
    CHECK_NEAR(f, 0.5, 1e-12);
    CHECK_INT(cp_duration_slots(1.5, 0.5, &f), 3);
    CHECK_NEAR(f, 1.0, 1e-12);
    /* exact boundaries that floating point misses: 0.3 / 0.1 is
     * 2.9999999999999996 and 0.7 / 0.1 is 6.999999999999999; 3 and 7 slots,
     * and a duration a hair above a boundary stays on it */
    CHECK_INT(cp_duration_slots(0.3, 0.1, &f), 3);
    CHECK_NEAR(f, 1.0, 1e-12);
    CHECK_INT(cp_duration_slots(0.7, 0.1, NULL), 7);
    CHECK_INT(cp_duration_slots(2.0 + 1e-12, 1.0, NULL), 2);
    CHECK_INT(cp_duration_slots(2.0 + 1e-6, 1.0, NULL), 3);
}

TEST(modes_job_window)
{
    cp_input fake;
    cp_job j;
    memset(&fake, 0, sizeof fake);
    memset(&j, 0, sizeof j);
    int lo, hi;
    /* s >= ceil(release/h - 1e-9), s + d <= min(T, floor(deadline/h + 1e-9)) */
    fake.slots = 12;
    fake.slot_hours = 0.5;
    j.release_hour = 0.75; /* 1.5 slots -> 2 */
    j.deadline_hour = 2.25; /* 4.5 slots -> 4 */
    cp_job_window(&fake, &j, &lo, &hi);
    CHECK_INT(lo, 2);
    CHECK_INT(hi, 4);
    j.release_hour = 1.5; /* exactly 3 */
    j.deadline_hour = 3.0; /* exactly 6 */
    cp_job_window(&fake, &j, &lo, &hi);
    CHECK_INT(lo, 3);
    CHECK_INT(hi, 6);
    j.deadline_hour = 100; /* never beyond T */
    cp_job_window(&fake, &j, &lo, &hi);
    CHECK_INT(hi, 12);
    fake.slots = 10;
    fake.slot_hours = 0.1;
    j.release_hour = 0.3;   /* 0.3/0.1 = 2.9999999999999996 -> 3 */
    j.deadline_hour = 0.7;  /* 0.7/0.1 = 6.999999999999999 -> 7 */
    cp_job_window(&fake, &j, &lo, &hi);
    CHECK_INT(lo, 3);
    CHECK_INT(hi, 7);
}

TEST(modes_start_window_from_input)
{
    static const char jobs[] =
        "horizon: {slots: 12, slot_hours: 0.5}\n"
        "jobs:\n"
        /* rack k=4: 36000 / (3600 * 5 * 4) = 0.5 h = 1 slot; k=1: 2 h = 4 slots */
        "  - {name: w, kind: training, work: 36000, throughput: {V100: 5}, accelerators: [1, 4],\n"
        "     release_hour: 0.75, deadline_hour: 2.25, placement: {pools: [rack], cloud: false}}\n";
    if (!setup(jobs))
        return;
    /* window slots [2, 4): k=4 starts in 2..3; k=1 (4 slots) does not fit */
    CHECK_INT(n_modes(0), 1);
    const cp_mode *m = mode(0, "rack", 4);
    if (m) {
        CHECK_INT(m->slots, 1);
        CHECK_INT(m->s_min, 2);
        CHECK_INT(m->s_max, 3);
    }
    teardown();
}

TEST(modes_placement_rules)
{
    static const char jobs[] =
        "horizon: {slots: 8}\n"
        "jobs:\n"
        "  - {name: pools, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     placement: {pools: [big]}}\n"
        "  - {name: offers, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     placement: {offers: [anon], on_prem: false}}\n"
        "  - {name: providers, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     preemptible: true, placement: {providers: [aws]}}\n"
        "  - {name: regions, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     placement: {regions: [us-central1], on_prem: false}}\n"
        "  - {name: no-cloud, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     preemptible: true, placement: {cloud: false}}\n"
        "  - {name: no-prem, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     preemptible: true, placement: {on_prem: false}}\n"
        "  - {name: empty, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     placement: {providers: [aws], offers: [anon], on_prem: false}}\n";
    if (!setup(jobs))
        return;
    /* pools: [big] restricts pools only; every on-demand market stays */
    CHECK_INT(n_modes(0), 4);
    CHECK(has_mode(0, "big") && !has_mode(0, "rack"));
    CHECK(has_mode(0, "aws:v100") && has_mode(0, "gcp:a100") && has_mode(0, "anon"));
    /* offers: [anon] and no pools */
    CHECK_INT(n_modes(1), 1);
    CHECK(has_mode(1, "anon"));
    /* providers: [aws]: both pools, aws on-demand and spot; anon has no
     * provider and fails the list */
    CHECK_INT(n_modes(2), 4);
    CHECK(has_mode(2, "rack") && has_mode(2, "big"));
    CHECK(has_mode(2, "aws:v100") && has_mode(2, "aws:v100:spot"));
    CHECK(!has_mode(2, "anon") && !has_mode(2, "gcp:a100"));
    /* regions: [us-central1], not preemptible: gcp on-demand only */
    CHECK_INT(n_modes(3), 1);
    CHECK(has_mode(3, "gcp:a100"));
    /* cloud: false: the pools */
    CHECK_INT(n_modes(4), 2);
    CHECK(has_mode(4, "rack") && has_mode(4, "big"));
    /* on_prem: false, preemptible: all five markets */
    CHECK_INT(n_modes(5), 5);
    CHECK(!has_mode(5, "rack") && has_mode(5, "gcp:a100:spot"));
    /* rules intersect: providers [aws] and offers [anon] leave nothing */
    CHECK_INT(n_modes(6), 0);
    CHECK_STR(ms->reason[6], "no pool or offer passes its placement rules");
    CHECK(ms->reason[0] == NULL);
    teardown();
}

TEST(modes_no_mode_reasons)
{
    static const char jobs[] =
        "horizon: {slots: 6}\n"
        "jobs:\n"
        "  - {name: mem, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     accelerator_memory_gb: 90}\n"
        "  - {name: mem2, kind: training, work: 100, throughput: {V100: 5, A100: 5},\n"
        "     accelerator_memory_gb: 40, placement: {pools: [rack], offers: [anon]}}\n"
        /* 9.5 h on 4 V100: 9.5 * 3600 * 5 * 4 = 684000 */
        "  - {name: slow, kind: training, work: 684000, throughput: {V100: 5},\n"
        "     accelerators: [4], placement: {cloud: false}}\n";
    if (!setup(jobs))
        return;
    CHECK_STR(ms->reason[0],
              "no eligible accelerator: needs 90 GB per accelerator; largest eligible is 80 GB (A100)");
    CHECK_STR(ms->reason[1],
              "no eligible accelerator: needs 40 GB per accelerator; largest eligible is 16 GB (V100)");
    CHECK_STR(ms->reason[2],
              "fastest mode takes 9.5 h on 4 x V100 (rack); window is 6 h (slots 0 to 6)");
    teardown();
}

TEST(modes_model_memory_estimate)
{
    cp_model_mem m;
    memset(&m, 0, sizeof m);
    /* 1e9 parameters in 2 B with Adam: 2*2 (weights, gradients) + 8 (Adam)
     * + 4 (fp32 master copy) = 16 B each -> 16 GB; + 2 * 0.5 GB activations */
    m.parameters = 1e9;
    m.bytes_per_parameter = 2;
    m.optimizer = CP_OPT_ADAM;
    m.micro_batch = 2;
    m.activation_gb_per_sample = 0.5;
    CHECK_NEAR(cp_model_memory_gb(&m), 17, 1e-12);
    /* fp32 with SGD: 2*4 + 4, no master copy -> 12 GB */
    m.bytes_per_parameter = 4;
    m.optimizer = CP_OPT_SGD;
    m.activation_gb_per_sample = 0;
    CHECK_NEAR(cp_model_memory_gb(&m), 12, 1e-12);
    /* Adafactor in 2 B: 2*2 + 0 + 4 -> 8 GB */
    m.bytes_per_parameter = 2;
    m.optimizer = CP_OPT_ADAFACTOR;
    CHECK_NEAR(cp_model_memory_gb(&m), 8, 1e-12);
}

TEST(modes_model_memory_from_input)
{
    static const char jobs[] =
        "horizon: {slots: 4}\n"
        "jobs:\n"
        /* 1e9 * 16 B = 16 GB + 1 * 0 = 16 GB: exactly a V100's memory, eligible */
        "  - {name: est, kind: training, work: 100, throughput: {V100: 5},\n"
        "     model: {parameters: 1e9}}\n";
    if (!setup(jobs))
        return;
    CHECK(in->jobs[0].has_model);
    CHECK(in->jobs[0].has_accelerator_memory);
    CHECK_NEAR(in->jobs[0].accelerator_memory_gb, 16, 1e-12);
    CHECK(n_modes(0) > 0);
    teardown();
}

TEST(modes_normal_quantile)
{
    CHECK_NEAR(cp_normal_quantile(0.95), 1.6448536269514722, 1e-15);
    CHECK_NEAR(cp_normal_quantile(0.5), 0, 1e-15);
    CHECK_NEAR(cp_normal_quantile(0.05), -1.6448536269514722, 1e-15);
    CHECK_NEAR(cp_normal_quantile(0.999), 3.090232306167813, 1e-14);
    CHECK_NEAR(cp_normal_quantile(0.01), -2.3263478740408408, 1e-14);
    CHECK(isinf(cp_normal_quantile(1.0)) && cp_normal_quantile(1.0) > 0);
    CHECK(isinf(cp_normal_quantile(0.0)) && cp_normal_quantile(0.0) < 0);
}

TEST(modes_busy_power_direct)
{
    /* from examples/tiny.yaml: V100 300/50 W, node 400/200 W and 32 cpus */
    cp_accel acc = {"V100", {NULL, 0, 0}, 16, 300, 50};
    cp_input fake;
    memset(&fake, 0, sizeof fake);
    fake.accels = &acc;
    fake.n_accels = 1;
    cp_machine node = {"v100-node", 0, 4, 32, 256, 400, 200};
    cp_job j;
    memset(&j, 0, sizeof j);
    j.kind = CP_JOB_TRAINING;
    j.cpus_per_accelerator = 8;
    /* training k=4: 4 * 250 + 4 * 8 * 200 / 32 = 1000 + 200 = 1200 W */
    CHECK_NEAR(cp_busy_power_w(&fake, &j, &node, 4), 1200, 1e-12);
    j.cpus_per_accelerator = 0; /* no CPU share: accelerators only */
    CHECK_NEAR(cp_busy_power_w(&fake, &j, &node, 3), 750, 1e-12);
    /* dataflow m=2: 2 * (4 * 250 + 200) = 2400 W */
    j.kind = CP_JOB_DATAFLOW;
    CHECK_NEAR(cp_busy_power_w(&fake, &j, &node, 2), 2400, 1e-12);
    /* a CPU-only node: only its own delta */
    cp_machine cpu = {"cpu", -1, 0, 16, 64, 300, 100};
    CHECK_NEAR(cp_busy_power_w(&fake, &j, &cpu, 3), 600, 1e-12);
}

/* Power limits (capplan.5 §10.3): "no limit" and each of the resource
 * type's limits are modes; the limit's speed divides the duration and its
 * power_w replaces the accelerator's in the busy power. */
TEST(modes_power_limits)
{
    static const char jobs[] =
        "horizon: {slots: 8}\n"
        "jobs:\n"
        "  - {name: pl, kind: training, work: 36000, throughput: {V100: 5, A100: 20},\n"
        "     cpus_per_accelerator: 4,\n"
        "     power_limits: {V100: [{limit_w: 200, speed: 0.8, power_w: 180},\n"
        "                           {limit_w: 150, speed: 0.5}]}}\n";
    if (!setup(jobs))
        return;
    /* V100 resources rack, aws:v100 (on-demand; not preemptible: no spot)
     * and anon have 3 modes each, the A100 ones (big, gcp:a100) 1 */
    CHECK_INT(n_modes(0), 11);
    int seen = 0;
    for (int m = ms->job_first[0]; m < ms->job_first[1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (strcmp(ms->res[md->res].id, "rack"))
            continue;
        /* 36000 / (3600 * 5) = 2 h; busy 1 * (P - 50) + 4 cpus * 200 W / 32 = P - 50 + 25 */
        if (md->limit < 0) {
            CHECK_NEAR(md->hours, 2.0, 1e-12);
            CHECK_NEAR(md->busy_w, 275, 1e-12);
        } else if (in->jobs[0].power_limits[md->limit].limit_w == 200) {
            CHECK_NEAR(md->hours, 2.5, 1e-12); /* / 0.8 */
            CHECK_INT(md->slots, 3);
            CHECK_NEAR(md->last_frac, 0.5, 1e-12);
            CHECK_NEAR(md->busy_w, 155, 1e-12); /* 180 - 50 + 25 */
        } else {
            CHECK_NEAR(md->hours, 4.0, 1e-12);  /* / 0.5 */
            CHECK_NEAR(md->busy_w, 125, 1e-12); /* power_w defaults to limit_w: 150 - 50 + 25 */
        }
        seen++;
    }
    CHECK_INT(seen, 3);
    /* a limit on a market is a mode, with no busy power there */
    int on_anon = 0;
    for (int m = ms->job_first[0]; m < ms->job_first[1]; m++)
        if (!strcmp(ms->res[ms->modes[m].res].id, "anon")) {
            CHECK_NEAR(ms->modes[m].busy_w, 0, 0);
            on_anon++;
        }
    CHECK_INT(on_anon, 3);
    teardown();
}
