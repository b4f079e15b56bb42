/*
 * bench/gen_cloud.c: the "cloud-heavy night" family of bench/gen,
 *
 *   build/bench/gen --family cloud SEED JOBS [SLOTS] > instance.yaml
 *
 * Included by gen.c (one translation unit, so `cc bench/gen.c -lm` still
 * builds gen); it uses gen.c's random numbers, Gavel tables, PJM series,
 * Spark models and helpers, and changes nothing of the default family.
 *
 * One on-prem site (PJM prices and carbon, a facility power cap 15 % lower
 * in the evening peak) with four 8-GPU DGX-like pools (V100, A100, H100, L4)
 * and two CPU pools, sized to about 40 % of the night's expected load, two
 * of them with a maintenance window; ten cloud offers at list prices (AWS
 * p4d, p5, p3, g6, m5, r5; GCP a2-ultragpu, g2, n2; Azure NC24s_v3) with
 * spot at 25-40 % of on-demand, interruption rates 0.03-0.2 per hour and a
 * spot "dry spell" of 3-4 slots; training jobs from the Philly trace (1, 2,
 * 4 or 8 GPUs) with Gavel's V100 throughputs, scaled to A100, H100 and L4 by
 * measured ratios, a scaling table from Gavel's and Lambda's multi-GPU
 * runs and device-memory needs that exclude the small GPUs; about 25 %
 * Spark jobs with Ernest models for both CPU machine types; about 15 %
 * best-effort jobs with low drop penalties.
 * Every number's origin: bench/data/README.md, section "The cloud family".
 */

/* ---- data: accelerators ------------------------------------------------- */

enum { CA_V100, CA_A100, CA_A100L, CA_H100, CA_L4, NCA };
static const struct cl_acc {
    const char *name;
    int mem, busy_w, idle_w;
    int lambda_row; /* row of cl_rn50 measured on this type, -1: none */
} cl_acc[NCA] = {
    {"V100", 16, 222, 35, 0}, {"A100-40GB", 40, 400, 50, 1}, {"A100-80GB", 80, 400, 50, 1},
    {"H100", 80, 700, 70, 2}, {"L4", 24, 72, 16, -1},
};

/* ResNet-50 training, images/s, FP16, at 1, 2, 4, 8 GPUs (Lambda's
 * deeplearning-benchmark): V100 16GB, A100 80GB SXM4, H100 80GB SXM5. */
static const double cl_rn50[3][4] = {
    {833, 1571, 3107, 6174},
    {1582, 3038, 6070, 11439},
    {2616, 5179, 10406, 20728},
};
/* L4 through the A100 80GB PCIe: MLPerf Inference v3.0 ResNet-50 Offline
 * samples/s of one L4 and one A100-PCIe-80GB, times Lambda's training
 * images/s of one A100 80GB PCIe. */
static const double cl_l4_mlperf = 13157.8, cl_a100pcie_mlperf = 39152.4, cl_a100pcie_rn50 = 1527;

/* One GPU's throughput on type a relative to a V100's. */
static double cl_ratio(int a)
{
    if (a == CA_L4)
        return cl_l4_mlperf / cl_a100pcie_mlperf * cl_a100pcie_rn50 / cl_rn50[0][0];
    return cl_rn50[cl_acc[a].lambda_row][0] / cl_rn50[0][0];
}

static int cl_kidx(int k)
{
    return k == 1 ? 0 : k == 2 ? 1 : k == 4 ? 2 : 3;
}

/* Speedup of a Gavel job type at k GPUs on type a: Gavel's V100 measurement
 * thr(k)/thr(1), times how much better or worse type a scaled than V100 in
 * Lambda's ResNet-50 runs (L4: as V100), at most k. */
static double cl_speedup(int type, int a, int k)
{
    double s = thr(type, V100, k) / thr(type, V100, 1);
    int row = cl_acc[a].lambda_row, ki = cl_kidx(k);
    if (k > 1 && row > 0)
        s *= (cl_rn50[row][ki] / cl_rn50[row][0]) / (cl_rn50[0][ki] / cl_rn50[0][0]);
    return s < k ? s : k;
}

/* The job's one scaling table: the least speedup over the types, as in the
 * default family (it never over-promises).  version 1.1's per-type `scaling`
 * map would carry cl_speedup() per type, but `capplan check` does not
 * accept that form yet. */
static double cl_table_speedup(int type, int k)
{
    double s = k;
    for (int a = 0; a < NCA; a++)
        if (cl_speedup(type, a, k) < s)
            s = cl_speedup(type, a, k);
    return k == 1 ? 1 : s;
}

/* ---- data: pools (one site, dc-east on PJM) ----------------------------- */

enum { CP_V100, CP_A100, CP_H100, CP_L4, CP_STD, CP_MEM, NCP };
static const struct cl_pool {
    const char *name, *type;
    int acc, k, cpus, mem, busy_w, idle_w;
    double share; /* of the on-prem accelerator capacity, V100-equivalent */
} cl_pool[NCP] = {
    {"dgx1-v100", "dgx1-v100", CA_V100, 8, 80, 512, 1100, 330, 0.25},
    {"dgx-a100", "dgx-a100", CA_A100, 8, 256, 1024, 3300, 990, 0.35},
    {"dgx-h100", "dgx-h100", CA_H100, 8, 224, 2048, 4600, 1380, 0.25},
    {"l4x8", "l4x8", CA_L4, 8, 96, 384, 800, 240, 0.15},
    {"spark-std", "std-8", -1, 0, 8, 32, 100, 40, 0.6},
    {"spark-mem", "mem-8", -1, 0, 8, 61, 100, 40, 0.4},
};
#define CL_ONPREM_SHARE 0.4 /* of the expected load */

/* ---- data: offers (cloud-catalog list prices) ---------------------------- */

/* GCP GPU offers: host row + accelerator add-on row.  Spot: the catalog's
 * spot price, moved into 25-40 % of on-demand where it lies outside. */
/* clang-format off */
static const struct cl_offer {
    const char *name, *provider, *region, *type; /* type NULL: offer name */
    int acc, k, cpus, mem;
    double price, price_acc, spot, spot_acc; /* $/h; *_acc: GCP add-on row */
    double lambda;
} cl_offers[] = {
    {"aws:us-east-1:p4d.24xlarge", "aws", "us-east-1", NULL, CA_A100, 8, 96, 1152, 32.7726, 0, 9.8318, 0, 0.15},
    {"aws:us-east-1:p5.48xlarge", "aws", "us-east-1", NULL, CA_H100, 8, 192, 2048, 98.32, 0, 30.326, 0, 0.20},
    {"aws:us-east-1:p3.16xlarge", "aws", "us-east-1", NULL, CA_V100, 8, 64, 488, 24.48, 0, 17.1149, 0, 0.10},
    {"aws:us-east-1:g6.48xlarge", "aws", "us-east-1", NULL, CA_L4, 8, 192, 768, 13.3504, 0, 2.9627, 0, 0.06},
    {"gcp:us-central1:a2-ultragpu-8g", "gcp", "us-central1", NULL, CA_A100L, 8, 96, 1360, 8.79698, 14.76958, 4.39824, 15.712, 0.15},
    {"gcp:us-central1:g2-standard-96", "gcp", "us-central1", NULL, CA_L4, 8, 96, 384, 3.52301, 4.48032, 1.48032, 1.8744, 0.06},
    {"azure:eastus:Standard_NC24s_v3", "azure", "eastus", NULL, CA_V100, 4, 24, 448, 12.24, 0, 2.261952, 0, 0.10},
    {"aws:us-east-1:m5.2xlarge", "aws", "us-east-1", "std-8", -1, 0, 8, 32, 0.384, 0, 0.1463, 0, 0.03},
    {"aws:us-east-1:r5.2xlarge", "aws", "us-east-1", "mem-8", -1, 0, 8, 64, 0.504, 0, 0.1882, 0, 0.03},
    {"gcp:us-central1:n2-standard-8", "gcp", "us-central1", "std-8", -1, 0, 8, 32, 0.38847, 0, 0.12568, 0, 0.03},
};
/* clang-format on */
#define NCLOFFER ((int)(sizeof cl_offers / sizeof cl_offers[0]))

/* ---- jobs --------------------------------------------------------------- */

enum { CL_ANY, CL_ONPREM, CL_CLOUD, CL_AWS, CL_GCP };
static const char *cl_placement_yaml[] = {NULL, "{cloud: false}", "{on_prem: false}",
                                          "{providers: [aws]}", "{providers: [gcp]}"};

struct cl_job {
    int dataflow, type, trace;
    int counts[2], ncounts;
    int m_lo, m_hi, size;  /* dataflow: indexes into machines[] and sizes[] */
    int release, deadline; /* slots; deadline 0: horizon end */
    int preemptible, ckpt, placement, mem_gb, best_effort;
    long penalty;
    double v100h;     /* training: least V100 GPU-hours over its counts */
    double machine_h; /* dataflow: machine-slots of its smallest scale-out */
};

/* Whether placement pl leaves a resource with type a: on-prem has every
 * type but the A100-80GB, which only GCP offers. */
static int cl_reachable(int pl, int a)
{
    return a != CA_A100L || pl == CL_ANY || pl == CL_CLOUD || pl == CL_GCP;
}

static void cl_make_training(struct cl_job *j)
{
    int e = ri(0, GV_NTRACE_CLOUD - 1);
    const struct gv_trace *tr = &gv_trace_cloud[e];
    j->type = tr->type;
    j->trace = e;
    j->counts[0] = tr->k;
    j->ncounts = 1;
    /* Sometimes the team also allows half or twice the trace's GPUs. */
    if (chance(40)) {
        int alt = chance(50) ? tr->k / 2 : tr->k * 2;
        if (alt >= 1 && alt <= 8 && alt != tr->k && thr(tr->type, V100, alt) > 0) {
            j->counts[1] = alt > tr->k ? alt : tr->k;
            j->counts[0] = alt > tr->k ? tr->k : alt;
            j->ncounts = 2;
        }
    }
    /* Larger batches or models than Gavel's runs: half the jobs need more
     * than a V100's 16 GB per device, some more than an L4 or A100-40GB. */
    int m = ri(0, 99);
    j->mem_gb = m < 50 ? 0 : m < 75 ? 24 : m < 90 ? 40 : 80;
    int p = ri(0, 99);
    j->placement = p < 5    ? CL_ONPREM
                   : p < 10 ? CL_CLOUD
                   : p < 25 ? CL_AWS
                   : p < 35 ? CL_GCP
                            : CL_ANY;
    double fastest = 1e30, t1 = thr(j->type, V100, 1);
    j->v100h = 1e30;
    for (int c = 0; c < j->ncounts; c++) {
        int k = j->counts[c];
        double v = k * (double)tr->steps / (3600.0 * t1 * cl_table_speedup(j->type, k));
        if (v < j->v100h)
            j->v100h = v;
        for (int a = 0; a < NCA; a++) {
            if (cl_acc[a].mem < j->mem_gb || !cl_reachable(j->placement, a))
                continue;
            double hrs =
                (double)tr->steps / (3600.0 * t1 * cl_ratio(a) * cl_table_speedup(j->type, k));
            if (hrs < fastest)
                fastest = hrs;
        }
    }
    int d = ceil_h(fastest);
    if (d > T)
        d = T;
    j->release = chance(55) ? 0 : ri(0, T - d > 0 ? (T - d) / 2 : 0);
    if (chance(25)) {
        j->deadline = 0;
    } else {
        int w = ceil_h(fastest * uni(1.3, 3.0)) + ri(0, 2);
        j->deadline = j->release + (w < d ? d : w);
        if (j->deadline >= T)
            j->deadline = 0;
    }
    j->preemptible = chance(50);
    j->ckpt = chance(50) ? ri(1, 6) * 10 : 0;
    /* Best effort: $0.5-2 per V100-hour of work, between what that work
     * costs on spot ($0.62-1.22) and on-demand ($1.55-3.91) here; the
     * others the default family's rule (always worth running). */
    j->best_effort = chance(15);
    if (j->best_effort) {
        j->penalty = (long)ceil(j->v100h * uni(0.5, 2.0));
        if (j->penalty < 5)
            j->penalty = 5;
    } else {
        j->penalty = 10 * (long)((300 + 30 * j->v100h * uni(0.5, 2.0)) / 10);
    }
}

/* Ernest runtime in seconds of df_types[type] at m machines on label l. */
static double cl_ernest(int type, int l, int m, double gb)
{
    double th[4];
    if (sscanf(df_types[type].theta[l], "[%lf, %lf, %lf, %lf]", &th[0], &th[1], &th[2], &th[3]) !=
        4)
        return 0;
    return th[0] + th[1] * gb / m + th[2] * log((double)m) + th[3] * m;
}

static void cl_make_dataflow(struct cl_job *j)
{
    const struct df_type *t;
    j->dataflow = 1;
    j->type = ri(0, NDF - 1);
    t = &df_types[j->type];
    int nsz = 0, nm = 0;
    while (t->sizes[nsz])
        nsz++;
    while (t->machines[nm])
        nm++;
    j->size = ri(0, nsz - 1);
    j->m_lo = ri(0, nm - 2);
    j->m_hi = j->m_lo + ri(1, nm - 1 - j->m_lo < 2 ? nm - 1 - j->m_lo : 2);
    j->release = ri(0, T - 1);
    j->deadline = chance(20) ? 0 : j->release + ri(1, 3);
    if (j->deadline >= T)
        j->deadline = 0;
    j->preemptible = chance(30);
    int p = ri(0, 99);
    j->placement = p < 15 ? CL_ONPREM : p < 25 ? CL_AWS : p < 35 ? CL_GCP : CL_ANY;
    int m = t->machines[j->m_lo];
    j->machine_h =
        m * ceil_h(cl_ernest(j->type, L_STD8, m, strtod(t->sizes[j->size], NULL)) / 3600.0);
    if (j->machine_h < m)
        j->machine_h = m;
    j->best_effort = chance(15);
    j->penalty = j->best_effort ? ri(1, 5) : 10 * ri(20, 200);
}

/* ---- output ------------------------------------------------------------- */

static void cl_print_job(const struct cl_job *j, int idx)
{
    if (j->dataflow) {
        const struct df_type *t = &df_types[j->type];
        printf("  - name: d%05d-%s\n    kind: dataflow\n    input_gb: %s\n    machines: [", idx,
               t->name, t->sizes[j->size]);
        for (int m = j->m_lo; m <= j->m_hi; m++)
            printf("%s%d", m > j->m_lo ? ", " : "", t->machines[m]);
        printf("]\n    runtime:\n      model: ernest\n      theta:\n");
        printf("        std-8: %s\n        mem-8: %s\n", t->theta[L_STD8], t->theta[L_MEM8]);
    } else {
        const struct gv_type *g = &gv_types[j->type];
        int cpus, mem;
        printf("  - name: t%05d-", idx);
        print_slug(g->name);
        printf("\n    kind: training\n    # Philly trace line %d; %.2f V100 GPU-hours\n    work: "
               "%ld\n",
               gv_trace_cloud[j->trace].line, j->v100h, gv_trace_cloud[j->trace].steps);
        printf("    throughput: {%s: %s", cl_acc[CA_V100].name, g->thr[V100][0]);
        for (int a = CA_V100 + 1; a < NCA; a++)
            printf(", %s: %.6f", cl_acc[a].name, strtod(g->thr[V100][0], NULL) * cl_ratio(a));
        printf("}\n    accelerators: [%d", j->counts[0]);
        if (j->ncounts > 1)
            printf(", %d", j->counts[1]);
        printf("]\n");
        if (j->counts[j->ncounts - 1] > 1) {
            printf("    scaling: {model: table, speedup: {");
            for (int c = 0; c < j->ncounts; c++)
                printf("%s%d: %.4f", c ? ", " : "", j->counts[c],
                       cl_table_speedup(j->type, j->counts[c]));
            printf("}}\n");
        }
        if (j->mem_gb)
            printf("    accelerator_memory_gb: %d\n", j->mem_gb);
        host_share(j->type, &cpus, &mem);
        printf("    cpus_per_accelerator: %d\n    memory_gb_per_accelerator: %d\n", cpus, mem);
    }
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
    if (cl_placement_yaml[j->placement])
        printf("    placement: %s\n", cl_placement_yaml[j->placement]);
}

/* A series of T ints: v_in inside slots [from, from + len), v_out elsewhere. */
static void cl_window(const char *key, int v_out, int v_in, int from, int len)
{
    printf("    %s: [", key);
    for (int t = 0; t < T; t++)
        printf("%s%d", t ? ", " : "", t >= from && t < from + len ? v_in : v_out);
    printf("]\n");
}

/* The night's first lines (the cloud and sized families'): where it
 * comes from, the horizon, the objective and the accelerators. */
static void cl_print_head(const char *family, unsigned long long seed, long n)
{
    printf("# bench/gen --family %s seed %llu, %ld jobs, %d hourly slots (sources: "
           "bench/data/README.md)\n",
           family, seed, n, T);
    printf("version: 1\nhorizon: {slots: %d, slot_hours: 1, start: \"2023-06-06T00:00:00Z\"}\n", T);
    printf("objective: {carbon_price_per_ton: 85}\n");
    printf("accelerators:\n");
    for (int a = 0; a < NCA; a++)
        printf("  - {name: %s, memory_gb: %d, power_w: %d, idle_power_w: %d}\n", cl_acc[a].name,
               cl_acc[a].mem, cl_acc[a].busy_w, cl_acc[a].idle_w);
}

/* The one site of nodes[p] nodes per pool. Facility cap: the idle
 * baseline plus 80 % of what the accelerators (GPU pools) and whole nodes
 * (CPU pools) add when busy, after PUE, rounded up to 0.1 kW; 15 % lower
 * in the PJM evening peak (20:00-23:59 UTC, as in the default family). */
static void cl_print_site(const int nodes[NCP])
{
    double base_w = 0, busy_w = 0;
    for (int p = 0; p < NCP; p++) {
        const struct cl_pool *s = &cl_pool[p];
        int ai = s->acc;
        base_w += nodes[p] * (s->idle_w + (ai >= 0 ? s->k * cl_acc[ai].idle_w : 0));
        busy_w += nodes[p] * (ai >= 0 ? s->k * (cl_acc[ai].busy_w - cl_acc[ai].idle_w)
                                      : s->busy_w - s->idle_w);
    }
    double cap = ceil(1.4 * (base_w + 0.8 * busy_w) / 100.0) / 10.0;
    printf("sites:\n  - name: dc-east\n    pue: 1.4\n");
    series("energy_price", pjm_price);
    series("carbon_intensity", pjm_carbon);
    printf("    power_cap_kw: [");
    for (int t = 0; t < T; t++)
        printf("%s%.1f", t ? ", " : "", t % 24 >= 20 ? ceil(0.85 * cap * 10.0) / 10.0 : cap);
    printf("]\n");
}

/* The pools (those has[] marks; every one when has is NULL). Maintenance:
 * pool mpool[w] loses a quarter of its nodes (at least one) for mlen[w]
 * slots from mstart[w]. */
static void cl_print_pools(const int nodes[NCP], const int *has, const int mpool[2],
                           const int mstart[2], const int mlen[2])
{
    printf("pools:\n");
    for (int p = 0; p < NCP; p++) {
        const struct cl_pool *s = &cl_pool[p];
        if (has && !has[p])
            continue;
        printf("  - name: %s\n    site: dc-east\n    nodes: %d\n", s->name, nodes[p]);
        for (int w = 0; w < 2; w++)
            if (mpool[w] == p)
                cl_window("available", nodes[p], nodes[p] - maxi(1, nodes[p] / 4), mstart[w],
                          mlen[w]);
        printf("    node: {type: %s, ", s->type);
        if (s->acc >= 0)
            printf("accelerator: %s, accelerators: %d, ", cl_acc[s->acc].name, s->k);
        printf("cpus: %d, memory_gb: %d, power_w: %d, idle_power_w: %d}\n", s->cpus, s->mem,
               s->busy_w, s->idle_w);
    }
}

/* Offer f with on-demand quota q and spot quota qs; a GPU offer's spot
 * quota is dry in the spot dry spell (dlen slots from dstart). Spot prices
 * are held between 25 % and 40 % of on-demand. */
static void cl_print_offer(const struct cl_offer *f, int q, int qs, int dry, int dstart, int dlen)
{
    double price = f->price + f->price_acc, spot = f->spot + f->spot_acc;
    if (spot < 0.25 * price)
        spot = 0.25 * price;
    if (spot > 0.40 * price)
        spot = 0.40 * price;
    printf("  - name: \"%s\"\n    provider: %s\n    region: %s\n", f->name, f->provider, f->region);
    printf("    instance: {");
    if (f->type)
        printf("type: %s, ", f->type);
    if (f->acc >= 0)
        printf("accelerator: %s, accelerators: %d, ", cl_acc[f->acc].name, f->k);
    printf("cpus: %d, memory_gb: %d}\n", f->cpus, f->mem);
    printf("    price_hour: %.10g\n    quota: %d\n    spot_price_hour: %.10g\n", price, q, spot);
    if (f->acc >= 0)
        cl_window("spot_quota", qs, dry, dstart, dlen);
    else if (qs != q)
        printf("    spot_quota: %d\n", qs);
    printf("    spot_interruptions_per_hour: %.2f\n", f->lambda);
}

static int gen_cloud(unsigned long long seed, long n)
{
    struct cl_job *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "gen: out of memory\n");
        return 1;
    }
    double v100h = 0, cpu_h = 0;
    for (long i = 0; i < n; i++) {
        if (chance(25))
            cl_make_dataflow(&jobs[i]);
        else
            cl_make_training(&jobs[i]);
        v100h += jobs[i].dataflow ? 0 : jobs[i].v100h;
        cpu_h += jobs[i].machine_h;
    }

    /* Pools: 40 % of the V100-equivalent work fits on-prem over the horizon
     * (at least one node each), split by share at each type's speed; CPU
     * pools 40 % of the Spark machine-slots, the std-8 pool at least 12
     * nodes (C3O's largest scale-out), the mem-8 pool at least 4. */
    int nodes[NCP];
    for (int p = 0; p < NCP; p++) {
        const struct cl_pool *s = &cl_pool[p];
        double want = s->acc >= 0
                          ? s->share * CL_ONPREM_SHARE * v100h / (s->k * T * cl_ratio(s->acc))
                          : s->share * CL_ONPREM_SHARE * cpu_h / T;
        nodes[p] = maxi(p == CP_STD ? 12 : p == CP_MEM ? 4 : 1, (int)(want + 0.5));
    }
    /* Maintenance: an accelerator pool and one other pool each lose a
     * quarter of their nodes (at least one) for 3-6 slots. */
    int mpool[2], mlen[2], mstart[2];
    mpool[0] = ri(CP_V100, CP_L4);
    mpool[1] = (mpool[0] + ri(1, NCP - 1)) % NCP;
    for (int w = 0; w < 2; w++) {
        mlen[w] = ri(3, 6);
        mstart[w] = ri(0, T > mlen[w] ? T - mlen[w] : 0);
    }
    /* Spot dry spell: 3-4 slots in which AWS has no GPU spot capacity and
     * GCP and Azure a tenth of their quota. */
    int dlen = ri(3, 4), dstart = ri(0, T > dlen ? T - dlen : 0);

    cl_print_head("cloud", seed, n);
    cl_print_site(nodes);
    cl_print_pools(nodes, NULL, mpool, mstart, mlen);

    /* Quotas grow with the night: one 8-GPU instance per 40 jobs (the
     * 4-GPU NC24s_v3 twice that), at least 2; CPU VMs max(12, jobs/8). In
     * the dry spell AWS has no GPU spot capacity, GCP and Azure a tenth. */
    printf("offers:\n");
    for (int o = 0; o < NCLOFFER; o++) {
        const struct cl_offer *f = &cl_offers[o];
        int q = f->acc < 0 ? maxi(12, (int)(n / 8)) : maxi(2, (int)(n * 8 / (40L * f->k)));
        cl_print_offer(f, q, q, strcmp(f->provider, "aws") ? maxi(1, q / 10) : 0, dstart, dlen);
    }

    printf("jobs:\n");
    for (long i = 0; i < n; i++)
        cl_print_job(&jobs[i], (int)i);
    free(jobs);
    return 0;
}
