/*
 * bench/gen_pollux.c: the "T4 fleet" family of bench/gen,
 *
 *   build/bench/gen --family pollux SEED JOBS [SLOTS] > instance.yaml
 *
 * Included by gen.c after the other families (one translation unit); it
 * uses gen.c's random numbers and CAISO series and changes nothing of
 * the other families.
 *
 * A structure unlike the others: one accelerator type (T4) on many small
 * nodes, the shapes of Alibaba's GPU inventory (2- and 4-GPU nodes), and
 * cloud offers of the same GPU in 1- and 4-GPU sizes on three providers;
 * the jobs are Pollux's deep-learning workload, each with the step times
 * Pollux measured on T4 per placement, so a job of 8 or 16 GPUs spans 2 or
 * 4 nodes at the speed measured across nodes (far below one node's), and
 * most jobs choose their count. No CPU jobs, no power cap.
 * Every number's origin: bench/data/README.md, "The pollux family".
 */
#include "data/pollux.h"

/* Alibaba cluster-trace-gpu-v2023 T4 node shapes: GPUs, vCPUs, GiB, and
 * how many such nodes the inventory lists (the split of the pools). */
static const struct px_pool {
    const char *name;
    int k, cpus, mem, count;
} px_pools[] = {
    {"t4x2", 2, 104, 512, 387},
    {"t4x4", 4, 96, 384, 17},
};
#define PX_NPOOLS 2
#define PX_ONPREM_SHARE 0.3 /* of the night's T4 GPU-hours */

/* T4 offers (cloud-catalog; GCP: host row + add-on row); spot moved into
 * 25-40 % of on-demand where the catalog's lies outside. */
/* clang-format off */
static const struct px_offer {
    const char *name, *provider, *region;
    int k, cpus, mem;
    double price, spot, lambda;
} px_offers[] = {
    {"aws:us-east-1:g4dn.xlarge", "aws", "us-east-1", 1, 4, 16, 0.526, 0.1578, 0.06},
    {"aws:us-east-1:g4dn.12xlarge", "aws", "us-east-1", 4, 48, 192, 3.912, 1.2083, 0.06},
    {"gcp:us-central1:n1-standard-8+1xT4", "gcp", "us-central1", 1, 8, 30, 0.38 + 0.35, 0.13954 + 0.1654, 0.05},
    {"gcp:us-central1:n1-standard-32+4xT4", "gcp", "us-central1", 4, 32, 120, 1.51999 + 1.4, 0.55816 + 0.6616, 0.05},
    {"azure:eastus:Standard_NC4as_T4_v3", "azure", "eastus", 1, 4, 28, 0.526, 0.204246, 0.10},
    {"azure:eastus:Standard_NC64as_T4_v3", "azure", "eastus", 4, 64, 440, 4.352, 1.689882, 0.10},
};
/* clang-format on */
#define PX_NOFFER ((int)(sizeof px_offers / sizeof px_offers[0]))

enum { PX_ANY, PX_ONPREM, PX_CLOUD, PX_AWS, PX_GCP, PX_AZURE };
static const char *px_placement_yaml[] = {NULL,
                                          "{cloud: false}",
                                          "{on_prem: false}",
                                          "{providers: [aws]}",
                                          "{providers: [gcp]}",
                                          "{providers: [azure]}"};

struct px_gjob {
    int row;          /* px_rows[]: app and per-GPU batch */
    int counts[5], ncounts;
    double speedup[5];
    double work, t4h; /* samples; least T4 GPU-hours over the counts */
    int release, deadline, preemptible, ckpt, placement, best_effort;
    long penalty;
};

static double px_step(int row, int place)
{
    return strtod(px_rows[row].step[place], NULL);
}

/* The placement whose step time a run of k GPUs gets: one node up to 4
 * GPUs (for 4, the slower of one 4-GPU node and two 2-GPU nodes, as the
 * fleet may give either), 2 nodes of 4 for 8, 4 nodes of 4 for 16;
 * -1 when not measured. */
static double px_step_k(int row, int k)
{
    double s = k == 1 ? px_step(row, 0)
               : k == 2 ? px_step(row, 1)
               : k == 4 ? fmax(px_step(row, 2), px_step(row, 3))
               : k == 8 ? px_step(row, 4)
               : k == 16 ? px_step(row, 5)
                         : 0;
    return s > 0 ? s : -1;
}

/* The measured row of app a whose per-GPU batch is nearest to b (in
 * ratio). */
static int px_row_for(int a, double b)
{
    int best = -1;
    double bd = 1e30;
    for (int r = 0; r < PX_NROWS; r++) {
        if (px_rows[r].app != a)
            continue;
        double d = fabs(log(px_rows[r].bsz / b));
        if (d < bd)
            bd = d, best = r;
    }
    return best;
}

static void px_make_job(struct px_gjob *j)
{
    const struct px_job *w = &px_jobs[ri(0, PX_NJOBS - 1)];
    j->row = px_row_for(w->app, (double)w->batch / w->replicas);
    int k0 = 1;
    while (k0 * 2 <= w->replicas && k0 < 8)
        k0 *= 2;
    /* three quarters choose among 2-4 consecutive powers of two holding
     * the workload's count (1-16) */
    int lo = k0, hi = k0;
    if (chance(75)) {
        int len = ri(2, 4), below = ri(0, len - 1);
        for (int i = 0; i < below && lo > 1; i++)
            lo /= 2;
        for (int i = below; i < len - 1 && hi < 8; i++)
            hi *= 2;
    }
    j->ncounts = 0;
    double s1 = px_step(j->row, 0);
    for (int k = lo; k <= hi; k *= 2) {
        double sk = px_step_k(j->row, k);
        if (sk < 0)
            continue;
        double sp = k * s1 / sk;
        j->counts[j->ncounts] = k;
        j->speedup[j->ncounts++] = sp < k ? sp : k;
    }
    if (j->ncounts == 0) { /* the workload's count was not measured: one GPU */
        j->counts[0] = 1;
        j->speedup[0] = 1;
        j->ncounts = 1;
    }
    double thr1 = px_rows[j->row].bsz / s1; /* samples/s on one T4 */
    double dur = px_philly_s[ri(0, PX_NPHILLY - 1)];
    /* the Philly job's length at the first listed count */
    j->work = dur * thr1 * j->speedup[0];
    j->t4h = 1e30;
    double fastest = 1e30;
    for (int c = 0; c < j->ncounts; c++) {
        double hrs = j->work / (3600.0 * thr1 * j->speedup[c]);
        if (j->counts[c] * hrs < j->t4h)
            j->t4h = j->counts[c] * hrs;
        if (hrs < fastest)
            fastest = hrs;
    }
    int d = ceil_h(fastest);
    if (d > T)
        d = T;
    j->release = chance(55) ? 0 : ri(0, T - d > 0 ? (T - d) / 2 : 0);
    if (chance(25)) {
        j->deadline = 0;
    } else {
        int win = ceil_h(fastest * uni(1.3, 3.0)) + ri(0, 2);
        j->deadline = j->release + (win < d ? d : win);
        if (j->deadline >= T)
            j->deadline = 0;
    }
    j->preemptible = chance(50);
    j->ckpt = chance(50) ? ri(1, 6) * 10 : 0;
    int p = ri(0, 99);
    j->placement = p < 10 ? PX_ONPREM : p < 20 ? PX_CLOUD : p < 40 ? PX_AWS : p < 55 ? PX_GCP
                 : p < 65 ? PX_AZURE : PX_ANY;
    /* a T4 GPU-hour costs $0.40-0.98 on-demand and $0.15-0.39 on spot
     * here; best effort pays $0.3-1 per T4 GPU-hour of work */
    j->best_effort = chance(15);
    if (j->best_effort) {
        j->penalty = (long)ceil(j->t4h * uni(0.3, 1.0));
        if (j->penalty < 2)
            j->penalty = 2;
    } else {
        j->penalty = 10 * (long)((100 + 3 * j->t4h * uni(0.5, 2.0)) / 10);
    }
}

static void px_print_job(const struct px_gjob *j, int idx)
{
    const struct px_row *r = &px_rows[j->row];
    printf("  - name: p%05d-%s-b%d\n    kind: training\n", idx, px_app[r->app], r->bsz);
    printf("    # %.2f T4 GPU-hours at its cheapest count\n", j->t4h);
    printf("    work: %.0f\n    throughput: {T4: %.6f}\n    accelerators: [", j->work,
           r->bsz / px_step(j->row, 0));
    for (int c = 0; c < j->ncounts; c++)
        printf("%s%d", c ? ", " : "", j->counts[c]);
    printf("]\n");
    if (j->counts[j->ncounts - 1] > 1) {
        printf("    scaling: {model: table, speedup: {");
        for (int c = 0; c < j->ncounts; c++)
            printf("%s%d: %.4f", c ? ", " : "", j->counts[c], j->counts[c] == 1 ? 1.0 : j->speedup[c]);
        printf("}}\n");
    }
    printf("    cpus_per_accelerator: 4\n    memory_gb_per_accelerator: 12\n");
    if (j->best_effort)
        printf("    # best effort: low drop penalty\n");
    if (j->release)
        printf("    release_hour: %d\n", j->release);
    if (j->deadline)
        printf("    deadline_hour: %d\n", j->deadline);
    printf("    drop_penalty: %ld\n", j->penalty);
    if (j->preemptible) {
        printf("    preemptible: true\n");
        if (j->ckpt)
            printf("    checkpoint_minutes: %d\n", j->ckpt);
    }
    if (px_placement_yaml[j->placement])
        printf("    placement: %s\n", px_placement_yaml[j->placement]);
}

static int gen_pollux(unsigned long long seed, long n)
{
    struct px_gjob *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "gen: out of memory\n");
        return 1;
    }
    double t4h = 0;
    for (long i = 0; i < n; i++) {
        px_make_job(&jobs[i]);
        t4h += jobs[i].t4h;
    }
    /* Pools: 30 % of the night's T4 GPU-hours over the horizon, split by the
     * GPUs each node shape holds in the inventory; at least 8 GPUs each,
     * so an 8-GPU job fits on either. */
    int nodes[PX_NPOOLS], gpus = 0;
    for (int p = 0; p < PX_NPOOLS; p++)
        gpus += px_pools[p].k * px_pools[p].count;
    for (int p = 0; p < PX_NPOOLS; p++) {
        double share = (double)px_pools[p].k * px_pools[p].count / gpus;
        nodes[p] = maxi(8 / px_pools[p].k,
                        (int)(share * PX_ONPREM_SHARE * t4h / (px_pools[p].k * T) + 0.5));
    }
    /* Maintenance: the 2-GPU pool loses a quarter of its nodes for 3-6 slots. */
    int mlen = ri(3, 6), mstart = ri(0, T > mlen ? T - mlen : 0);

    printf("# bench/gen --family pollux seed %llu, %ld jobs, %d hourly slots (sources: "
           "bench/data/README.md)\n",
           seed, n, T);
    printf("version: 1\nhorizon: {slots: %d, slot_hours: 1, start: \"2023-06-06T00:00:00Z\"}\n", T);
    printf("objective: {carbon_price_per_ton: 85}\n");
    printf("accelerators:\n  - {name: T4, memory_gb: 16, power_w: 70, idle_power_w: 10}\n");
    printf("sites:\n  - name: dc-west\n    pue: 1.2\n");
    series("energy_price", caiso_price);
    series("carbon_intensity", caiso_carbon);
    printf("pools:\n");
    for (int p = 0; p < PX_NPOOLS; p++) {
        printf("  - name: %s\n    site: dc-west\n    nodes: %d\n", px_pools[p].name, nodes[p]);
        if (p == 0)
            cl_window("available", nodes[p], nodes[p] - maxi(1, nodes[p] / 4), mstart, mlen);
        printf("    node: {accelerator: T4, accelerators: %d, cpus: %d, memory_gb: %d, "
               "power_w: 300, idle_power_w: 90}\n",
               px_pools[p].k, px_pools[p].cpus, px_pools[p].mem);
    }
    /* Quotas grow with the night: 1-GPU VMs max(4, jobs/8), 4-GPU VMs
     * max(2, jobs/25); spot half of that (at least 1). */
    printf("offers:\n");
    for (int o = 0; o < PX_NOFFER; o++) {
        const struct px_offer *f = &px_offers[o];
        int q = f->k == 1 ? maxi(4, (int)(n / 8)) : maxi(2, (int)(n / 25));
        double spot = f->spot;
        if (spot < 0.25 * f->price)
            spot = 0.25 * f->price;
        if (spot > 0.40 * f->price)
            spot = 0.40 * f->price;
        printf("  - name: \"%s\"\n    provider: %s\n    region: %s\n", f->name, f->provider,
               f->region);
        printf("    instance: {accelerator: T4, accelerators: %d, cpus: %d, memory_gb: %d}\n", f->k,
               f->cpus, f->mem);
        printf("    price_hour: %.10g\n    quota: %d\n    spot_price_hour: %.10g\n", f->price, q,
               spot);
        printf("    spot_quota: %d\n    spot_interruptions_per_hour: %.2f\n", maxi(1, q / 2),
               f->lambda);
    }
    printf("jobs:\n");
    for (long i = 0; i < n; i++)
        px_print_job(&jobs[i], (int)i);
    free(jobs);
    return 0;
}
