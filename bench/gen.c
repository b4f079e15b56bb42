/*
 * bench/gen: seeded, realistic capplan instances for `make bench`.
 *
 *   build/bench/gen [--family onprem|cloud|sized|pollux] [--services K] SEED JOBS [SLOTS]
 *
 * Four families of instances.  `--family cloud` writes a "cloud-heavy
 * night" (bench/gen_cloud.c, included below), `--family sized` one whose
 * training jobs choose their accelerator count (bench/gen_sized.c),
 * `--family pollux` Pollux's T4 jobs on an Alibaba-shaped fleet of small
 * nodes (bench/gen_pollux.c).  `--services K` adds K inference services
 * to the default family's night (bench/gen_services.c; JOBS may then be 0).  The default, `onprem`,
 * writes one valid input file (capplan.5): two on-prem sites with real hourly
 * energy prices and carbon intensity (CAISO and PJM, green-dcc), a facility
 * power cap on the east site, 8-GPU pools of Gavel's three measured
 * accelerator types (V100, P100, K80) and two CPU pools, 25 cloud offers
 * with real 2026 list prices (GCP, Azure) and a spot market each, training
 * jobs taken from the Philly trace with Gavel's measured throughputs and
 * scaling, and Spark jobs with Ernest models fitted to C3O's runs.
 *
 * Jobs are drawn first; the pools, the power cap and the cloud quotas are
 * then sized from the jobs' demand, so the instance stays loaded at every
 * size (on-prem covers about 80 % of the accelerator work, the cloud the
 * rest, within quotas; at high load some drops are expected).
 *
 * The same family, SEED, JOBS and SLOTS give the same bytes (the default
 * family's output is what it was before families existed): own splitmix64, numbers
 * printed with fixed formats.  Every number's origin: bench/data/README.md.
 * Throughputs and trace work come from data/gavel.h (generated from the
 * Gavel files by data/extract.py); the rest of the data is in this file.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/gavel.h"

/* ---- random numbers ------------------------------------------------- */

static uint64_t rng;

static uint64_t next(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int ri(int lo, int hi) /* integer in [lo, hi] */
{
    return lo + (int)(next() % (uint64_t)(hi - lo + 1));
}

static int chance(int pct)
{
    return ri(0, 99) < pct;
}

static double uni(double lo, double hi)
{
    return lo + (hi - lo) * (double)(next() >> 11) / 9007199254740992.0;
}

/* ---- data: sites (green-dcc, 2023-06-06 00:00-23:00 UTC) -------------- */

/* $/kWh = processed price (USD/MWh) / 1000; gCO2/kWh direct intensity.
 * Same series as examples/nightly/sites.yaml, whose README cites the rows. */
static const char *caiso_price[24] = {
    "0.03483185", "0.04550012", "0.0567097", "0.05295647", "0.03941994", "0.03568413",
    "0.03226934", "0.03809566", "0.03638259", "0.0332044", "0.03235379", "0.03393966",
    "0.03957592", "0.04570528", "0.03581985", "0.03214", "0.0278902", "0.02559679",
    "0.0244408", "0.02392124", "0.02360989", "0.02561339", "0.02775666", "0.03003658"};
static const char *caiso_carbon[24] = {
    "151.62", "174.93", "202.11", "207.39", "212.5", "213.71", "203.22", "200.48",
    "196.02", "193.51", "191.0", "192.16", "197.55", "181.79", "151.11", "130.13",
    "119.88", "126.25", "127.89", "122.34", "117.73", "116.48", "117.75", "128.01"};
static const char *pjm_price[24] = {
    "0.029912646", "0.029387601", "0.02415993", "0.017120254", "0.016388939", "0.017700052",
    "0.017067904", "0.014722933", "0.016410635", "0.018750646", "0.023106426", "0.023687146",
    "0.022359107", "0.02340036", "0.023362386", "0.040841117", "0.152734953", "0.104584187",
    "0.03865325", "0.034720537", "0.051999934", "0.04852585", "0.045040911", "0.039880901"};
static const char *pjm_carbon[24] = {
    "331.3", "328.56", "329.04", "323.41", "311.95", "304.82", "299.12", "295.45",
    "294.35", "298.62", "305.64", "307.15", "308.48", "309.61", "310.12", "310.9",
    "312.8", "312.49", "310.93", "308.73", "311.6", "319.09", "325.06", "331.99"};

/* ---- data: accelerators and node shapes -------------------------------- */

enum { K80, P100, V100, T4, NACC };
static const char *acc_name[NACC] = {"K80", "P100", "V100", "T4"};
static const int acc_mem[NACC] = {12, 16, 16, 16};
static const int acc_busy[NACC] = {150, 159, 222, 70};
static const int acc_idle[NACC] = {25, 30, 35, 10};

enum { P_V100W, P_P100W, P_SPARKW, P_V100E, P_K80E, P_SPARKE, NPOOL };
static const struct pool_shape {
    const char *name, *site, *type;
    int acc, k, cpus, mem, busy_w, idle_w;
} pool_shape[NPOOL] = {
    {"west-v100x8", "dc-west", "v100x8", V100, 8, 64, 256, 500, 200},
    {"west-p100x8", "dc-west", "p100x8", P100, 8, 80, 512, 800, 300},
    {"west-spark", "dc-west", "mem-8", -1, 0, 8, 61, 100, 40},
    {"east-v100x8", "dc-east", "v100x8", V100, 8, 64, 256, 500, 200},
    {"east-k80x8", "dc-east", "k80x8", K80, 8, 32, 488, 350, 150},
    {"east-spark", "dc-east", "std-8", -1, 0, 8, 32, 100, 40},
};

/* ---- data: cloud offers (cloud-catalog, 2026 list prices) -------------- */

/* GCP GPU offers: host n1 row + accelerator add-on row; Azure rows as given.
 * kind: 1 = single accelerator, 2/4/8 = that many, 0 = CPU VM. */
static const struct offer {
    const char *name, *provider, *region, *type; /* type NULL: offer name */
    int acc, k, cpus, mem;
    const char *price, *spot;
    double lambda;
} offers[] = {
    {"gcp:us-central1:n1-standard-8+1xV100", "gcp", "us-central1", NULL, V100, 1, 8, 30, "2.86", "1.37954", 0.05},
    {"gcp:us-central1:n1-standard-16+2xV100", "gcp", "us-central1", NULL, V100, 2, 16, 60, "5.72", "2.75908", 0.05},
    {"gcp:us-central1:n1-standard-32+4xV100", "gcp", "us-central1", NULL, V100, 4, 32, 120, "11.43999", "5.51816", 0.05},
    {"gcp:us-central1:n1-standard-64+8xV100", "gcp", "us-central1", NULL, V100, 8, 64, 240, "22.87998", "11.03632", 0.05},
    {"gcp:us-central1:n1-standard-8+1xT4", "gcp", "us-central1", NULL, T4, 1, 8, 30, "0.73", "0.30494", 0.05},
    {"gcp:us-central1:n1-standard-32+4xT4", "gcp", "us-central1", NULL, T4, 4, 32, 120, "2.91999", "1.21976", 0.05},
    {"gcp:europe-west4:n1-standard-8+1xP100", "gcp", "europe-west4", NULL, P100, 1, 8, 30, "1.95134", "0.33735", 0.05},
    {"gcp:europe-west4:n1-standard-32+4xP100", "gcp", "europe-west4", NULL, P100, 4, 32, 120, "7.80534", "1.3494", 0.05},
    {"gcp:europe-west4:n1-standard-8+1xV100", "gcp", "europe-west4", NULL, V100, 1, 8, 30, "3.02234", "0.93125", 0.05},
    {"gcp:europe-west4:n1-standard-64+8xV100", "gcp", "europe-west4", NULL, V100, 8, 64, 240, "24.17869", "7.45", 0.05},
    {"azure:eastus:Standard_NC6s_v3", "azure", "eastus", NULL, V100, 1, 6, 112, "3.06", "0.565488", 0.10},
    {"azure:eastus:Standard_NC12s_v3", "azure", "eastus", NULL, V100, 2, 12, 224, "6.12", "1.130976", 0.10},
    {"azure:eastus:Standard_NC24s_v3", "azure", "eastus", NULL, V100, 4, 24, 448, "12.24", "2.261952", 0.10},
    {"azure:eastus:Standard_NC8as_T4_v3", "azure", "eastus", NULL, T4, 1, 8, 56, "0.752", "0.292002", 0.10},
    {"azure:eastus:Standard_NC64as_T4_v3", "azure", "eastus", NULL, T4, 4, 64, 440, "4.352", "1.689882", 0.10},
    {"gcp:us-central1:n2-standard-8", "gcp", "us-central1", "std-8", -1, 0, 8, 32, "0.38847", "0.12568", 0.02},
    {"gcp:us-central1:n2-highmem-8", "gcp", "us-central1", "mem-8", -1, 0, 8, 64, "0.52406", "0.16952", 0.02},
    {"gcp:us-central1:n2-highmem-4", "gcp", "us-central1", "mem-4", -1, 0, 4, 32, "0.26203", "0.08476", 0.02},
    {"gcp:us-central1:c2-standard-8", "gcp", "us-central1", "cpu-8", -1, 0, 8, 32, "0.41762", "0.1427", 0.02},
    {"gcp:europe-west4:n2-standard-8", "gcp", "europe-west4", "std-8", -1, 0, 8, 32, "0.42766", "0.15622", 0.02},
    {"gcp:europe-west4:n2-highmem-8", "gcp", "europe-west4", "mem-8", -1, 0, 8, 64, "0.57691", "0.21101", 0.02},
    {"azure:eastus:Standard_F8s_v2", "azure", "eastus", "cpu-8", -1, 0, 8, 16, "0.338", "0.094234", 0.02},
    {"azure:eastus:Standard_D8s_v5", "azure", "eastus", "std-8", -1, 0, 8, 32, "0.384", "0.081446", 0.02},
    {"azure:eastus:Standard_E8s_v5", "azure", "eastus", "mem-8", -1, 0, 8, 64, "0.504", "0.113299", 0.02},
    {"azure:eastus:Standard_E4s_v5", "azure", "eastus", "mem-4", -1, 0, 4, 32, "0.252", "0.05665", 0.02},
};
#define NOFFER ((int)(sizeof offers / sizeof offers[0]))

/* ---- data: Spark jobs (Ernest theta fitted to C3O, seconds) ------------ */

enum { L_CPU8, L_STD8, L_MEM8, L_MEM4, NLABEL };
static const char *label[NLABEL] = {"cpu-8", "std-8", "mem-8", "mem-4"};

static const struct df_type {
    const char *name;
    const char *theta[NLABEL]; /* NULL: not measured on that type */
    const char *sizes[7];      /* input GB measured by C3O, NULL-terminated */
    int machines[6];           /* allowed scale-outs, 0-terminated */
} df_types[] = {
    {"sort",
     {"[0.0, 73.677, 0.0, 8.54]", "[0.0, 79.376, 0.0, 9.092]", "[0.0, 40.501, 1.467, 6.47]", NULL},
     {"9.63", "11.556", "13.482", "15.408", "17.334", "19.26", NULL},
     {2, 4, 6, 8, 12, 0}},
    {"grep",
     {"[17.207, 15.895, 23.819, 0.0]", "[0.0, 26.264, 28.645, 0.749]", "[0.0, 19.063, 32.694, 0.0]", NULL},
     {"10.1", "12.625", "15.15", "17.675", "20.2", NULL},
     {2, 4, 6, 8, 12, 0}},
    {"kmeans",
     {NULL, "[0.0, 110.598, 0.0, 0.0]", "[25.332, 80.851, 0.0, 0.0]", "[0.0, 225.103, 0.0, 0.0]"},
     {"10.5", "13.2", "16.0", "18.6", "21.3", NULL},
     {4, 6, 8, 12, 0}},
    {"pagerank",
     {NULL, "[117.088, 1644.057, 61.007, 0.0]", "[51.137, 2042.805, 94.475, 0.0]",
      "[278.476, 2765.682, 0.0, 5.928]"},
     {"0.142", "0.284", "0.426", NULL},
     {2, 4, 8, 0}},
    {"sgd",
     {NULL, "[0.0, 56.532, 0.0, 0.48]", "[35.669, 38.442, 0.0, 0.0]", "[0.0, 116.515, 0.0, 0.0]"},
     {"9.73", "14.54", "19.353", "24.268", "29.081", NULL},
     {4, 6, 8, 12, 0}},
};
#define NDF ((int)(sizeof df_types / sizeof df_types[0]))

/* ---- jobs --------------------------------------------------------------- */

enum { PL_ANY, PL_ONPREM, PL_CLOUD, PL_GCP, PL_AZURE, PL_USC1 };
static const char *placement_yaml[] = {
    NULL, "{cloud: false}", "{on_prem: false}", "{providers: [gcp]}", "{providers: [azure]}",
    "{regions: [us-central1], on_prem: false}"};

struct job {
    int dataflow, type, trace;
    int counts[2], ncounts; /* training: accelerator counts; dataflow: index range */
    int m_lo, m_hi;         /* dataflow: first/last index into machines[] */
    int size;               /* dataflow: index into sizes[] */
    int release, deadline;  /* slots; deadline 0: horizon end */
    int preemptible, ckpt, placement;
    long penalty;
    double gpu_hours[3];    /* work in accelerator-hours on K80/P100/V100 (0: no) */
    double machine_hours;   /* dataflow: smallest scale-out x slots */
};

static int T;

static double thr(int type, int acc, int k)
{
    int ki = k == 1 ? 0 : k == 2 ? 1 : k == 4 ? 2 : 3;
    return strtod(gv_types[type].thr[acc][ki], NULL);
}

static int listed(const struct job *j, int a)
{
    for (int c = 0; c < j->ncounts; c++)
        if (thr(j->type, a, j->counts[c]) <= 0)
            return 0;
    return thr(j->type, a, 1) > 0;
}

/* Speedup of job j at k: the smallest measured thr(k)/thr(1) over its types. */
static double speedup(const struct job *j, int k)
{
    double s = 0;
    for (int a = K80; a <= V100; a++) {
        if (!listed(j, a))
            continue;
        double r = thr(j->type, a, k) / thr(j->type, a, 1);
        if (s == 0 || r < s)
            s = r;
    }
    return k == 1 ? 1 : s;
}


/* Large-batch jobs need a 16 GB device (as in examples/nightly). */
static int needs16(int type)
{
    const char *n = gv_types[type].name;
    return !strcmp(n, "ResNet-50 (batch size 128)") || !strcmp(n, "Transformer (batch size 256)") ||
           !strcmp(n, "LM (batch size 80)");
}

/* T4 steps/s of one GPU (Pollux cifar10 placements.csv, 1/step_time). */
static const char *t4_thr(int type)
{
    if (!strcmp(gv_types[type].name, "ResNet-18 (batch size 32)"))
        return "23.370658";
    if (!strcmp(gv_types[type].name, "ResNet-18 (batch size 64)"))
        return "16.713085";
    return NULL;
}

/* Host CPUs and memory per accelerator by model family (assumed). */
static void host_share(int type, int *cpus, int *mem)
{
    const char *n = gv_types[type].name;
    *cpus = 4, *mem = 16;
    if (!strncmp(n, "A3C", 3))
        *cpus = 8, *mem = 8;
    else if (!strncmp(n, "LM", 2))
        *cpus = 2, *mem = 8;
    else if (!strncmp(n, "Transformer", 11))
        *cpus = 3, *mem = 12;
    else if (!strncmp(n, "Recommendation", 14))
        *cpus = 4, *mem = 24;
}

/* Whether placement rule pl leaves some resource with accelerator a: pools
 * carry K80, P100, V100; GCP offers V100, P100 (europe-west4), T4; Azure
 * V100, T4; us-central1 V100, T4. */
static int reachable(int pl, int a)
{
    switch (pl) {
    case PL_ONPREM: return a != T4;
    case PL_CLOUD: return a != K80;
    case PL_USC1: return a == V100 || a == T4;
    default: return 1;
    }
}

static int ceil_h(double hours)
{
    return (int)ceil(hours - 1e-9);
}

static void make_training(struct job *j)
{
    int e = ri(0, GV_NTRACE - 1);
    const struct gv_trace *tr = &gv_trace[e];
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
    int p = ri(0, 99);
    j->placement = p < 10 ? PL_ONPREM : p < 15 ? PL_CLOUD : p < 45 ? PL_GCP : p < 65 ? PL_AZURE
                 : p < 70 ? PL_USC1 : PL_ANY;
    /* The window is sized on the fastest mode the placement allows. */
    double fastest = 1e30;
    for (int a = K80; a <= T4; a++) {
        if (a < T4)
            j->gpu_hours[a] = 0;
        double t1 = a == T4 ? (t4_thr(j->type) ? strtod(t4_thr(j->type), NULL) : 0)
                            : listed(j, a) ? thr(j->type, a, 1) : 0;
        if (t1 <= 0 || (a == K80 && needs16(j->type)))
            continue;
        for (int c = 0; c < j->ncounts; c++) {
            int k = j->counts[c];
            double hrs = (double)tr->steps / (3600.0 * t1 * speedup(j, k));
            if (a < T4 && (j->gpu_hours[a] == 0 || k * hrs < j->gpu_hours[a]))
                j->gpu_hours[a] = k * hrs;
            if (reachable(j->placement, a) && hrs < fastest)
                fastest = hrs;
        }
    }
    int d = ceil_h(fastest);
    if (d > T)
        d = T;
    /* Most runs start at the top of the night; the rest arrive later. */
    j->release = chance(55) ? 0 : ri(0, T - d > 0 ? (T - d) / 2 : 0);
    if (chance(25)) {
        j->deadline = 0;
    } else {
        int w = ceil_h(fastest * uni(1.3, 3.0)) + ri(0, 2);
        j->deadline = j->release + (w < d ? d : w);
        if (j->deadline >= T)
            j->deadline = 0;
    }
    j->preemptible = chance(40);
    j->ckpt = chance(50) ? ri(1, 6) * 10 : 0;
    double best = j->gpu_hours[V100] > 0 ? j->gpu_hours[V100]
                : j->gpu_hours[P100] > 0 ? j->gpu_hours[P100] : j->gpu_hours[K80];
    /* value of the run: a multiple of what a V100 on-demand hour costs */
    j->penalty = 10 * (long)((300 + 30 * best * uni(0.5, 2.0)) / 10);
}

static void make_dataflow(struct job *j)
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
    j->preemptible = chance(20);
    j->ckpt = 0;
    int p = ri(0, 99);
    j->placement = p < 15 ? PL_ONPREM : p < 35 ? PL_GCP : p < 50 ? PL_AZURE : PL_ANY;
    j->machine_hours = t->machines[j->m_lo];
    j->penalty = 10 * ri(20, 200);
}

/* ---- output ------------------------------------------------------------- */

static void series(const char *key, const char **v)
{
    printf("    %s: [", key);
    for (int t = 0; t < T; t++)
        printf("%s%s", t ? ", " : "", v[t % 24]);
    printf("]\n");
}

/* A Gavel job type as a name part: "ResNet-18 (batch size 32)" -> resnet-18-bs32 */
static void print_slug(const char *name)
{
    for (const char *c = name; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            putchar(*c - 'A' + 'a');
        else if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')
            putchar(*c);
        else if (*c == '(')
            fputs("-bs", stdout), c += strlen("(batch size");
}

static void print_job(const struct job *j, int idx)
{
    if (j->dataflow) {
        const struct df_type *t = &df_types[j->type];
        printf("  - name: d%05d-%s\n    kind: dataflow\n    input_gb: %s\n    machines: [",
               idx, t->name, t->sizes[j->size]);
        for (int m = j->m_lo; m <= j->m_hi; m++)
            printf("%s%d", m > j->m_lo ? ", " : "", t->machines[m]);
        printf("]\n    runtime:\n      model: ernest\n      theta:\n");
        for (int l = 0; l < NLABEL; l++)
            if (t->theta[l])
                printf("        %s: %s\n", label[l], t->theta[l]);
    } else {
        const struct gv_type *g = &gv_types[j->type];
        int cpus, mem;
        printf("  - name: t%05d-", idx);
        print_slug(g->name);
        printf("\n    kind: training\n    # Philly trace line %d\n    work: %ld\n    throughput: {",
               gv_trace[j->trace].line, gv_trace[j->trace].steps);
        int first = 1;
        for (int a = K80; a <= V100; a++)
            if (listed(j, a)) {
                printf("%s%s: %s", first ? "" : ", ", acc_name[a], g->thr[a][0]);
                first = 0;
            }
        if (t4_thr(j->type))
            printf(", T4: %s", t4_thr(j->type));
        printf("}\n    accelerators: [%d", j->counts[0]);
        if (j->ncounts > 1)
            printf(", %d", j->counts[1]);
        printf("]\n");
        if (j->counts[j->ncounts - 1] > 1) {
            printf("    scaling: {model: table, speedup: {");
            for (int c = 0; c < j->ncounts; c++)
                printf("%s%d: %.4f", c ? ", " : "", j->counts[c], speedup(j, j->counts[c]));
            printf("}}\n");
        }
        if (needs16(j->type))
            printf("    accelerator_memory_gb: 16\n");
        host_share(j->type, &cpus, &mem);
        printf("    cpus_per_accelerator: %d\n    memory_gb_per_accelerator: %d\n", cpus, mem);
    }
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
    if (placement_yaml[j->placement])
        printf("    placement: %s\n", placement_yaml[j->placement]);
}

static int maxi(int a, int b)
{
    return a > b ? a : b;
}

/* The cloud family: a second file of the same translation unit, so that
 * `cc bench/gen.c -lm` still builds gen (tests/suite_bench.sh does). */
#include "gen_cloud.c"
/* The sized family: jobs that choose their accelerator count. */
#include "gen_sized.c"
/* The pollux family: Pollux's T4 jobs on an Alibaba-shaped fleet. */
#include "gen_pollux.c"
/* --services K: inference services for the default family. */
#include "gen_services.c"

/* The night's jobs: about a quarter are Spark jobs (examples/nightly).
 * Sums each job's work once (on V100 if eligible, else P100, else K80)
 * into gpu_h and the Spark machine-hours into *cpu_h. */
static void draw_jobs(struct job *jobs, long n, double gpu_h[3], double *cpu_h)
{
    for (long i = 0; i < n; i++) {
        if (chance(25))
            make_dataflow(&jobs[i]);
        else
            make_training(&jobs[i]);
        for (int a = V100; a >= K80; a--)
            if (jobs[i].gpu_hours[a] > 0) {
                gpu_h[a] += jobs[i].gpu_hours[a];
                break;
            }
        *cpu_h += jobs[i].machine_hours;
    }
}

/* Pools: about 80 % of the V100-equivalent work fits on-prem, split 45 %
 * V100 (60/40 west/east), 25 % P100, 15 % K80 at their speeds (P100 ~0.6,
 * K80 ~0.3 of a V100, Gavel's medians); CPU pools hold the average Spark
 * load twice over, and at least one 12-node scale-out. */
static void size_pools(unsigned long long seed, long n, const double gpu_h[3], double cpu_h,
                       int nodes[NPOOL])
{
    double work = gpu_h[V100] + gpu_h[P100] * 0.6 + gpu_h[K80] * 0.3, load = 0.8;
    if (n_gsvc)
        work += gsvc_draw(seed, n_gsvc);
    double per_node = 8.0 * T;
    /* a serving fleet (services, no jobs: gen_services.c) holds 45 % and
     * 25 % of the services' average load on V100s and P100s */
    double lv = n || !n_gsvc ? load : 1.0;
    int v100 = maxi(2, (int)ceil(0.45 * lv * work / per_node));
    nodes[P_V100W] = maxi(1, (int)(v100 * 0.6 + 0.5));
    nodes[P_V100E] = maxi(1, v100 - nodes[P_V100W]);
    nodes[P_P100W] = maxi(1, (int)ceil(0.25 * lv * work / 0.6 / per_node));
    nodes[P_K80E] = maxi(1, (int)ceil(0.15 * load * work / 0.3 / per_node));
    nodes[P_SPARKW] = maxi(12, (int)ceil(1.2 * cpu_h / T));
    nodes[P_SPARKE] = maxi(8, (int)ceil(0.8 * cpu_h / T));
}

/* The two sites with their series. East facility cap: idle baseline plus
 * 60 % of its pools' busy power (45 % in the PJM afternoon peak,
 * 20:00-23:59 UTC, demand response). */
static void print_sites(const int nodes[NPOOL])
{
    double base_w = 0, busy_w = 0;
    for (int p = 0; p < NPOOL; p++) {
        const struct pool_shape *s = &pool_shape[p];
        if (strcmp(s->site, "dc-east"))
            continue;
        int ai = s->acc;
        base_w += nodes[p] * (s->idle_w + (ai >= 0 ? s->k * acc_idle[ai] : 0));
        busy_w += nodes[p] * (s->busy_w - s->idle_w + (ai >= 0 ? s->k * (acc_busy[ai] - acc_idle[ai]) : 0));
    }
    printf("sites:\n  - name: dc-west\n    pue: 1.2\n");
    series("energy_price", caiso_price);
    series("carbon_intensity", caiso_carbon);
    printf("  - name: dc-east\n    pue: 1.4\n");
    series("energy_price", pjm_price);
    series("carbon_intensity", pjm_carbon);
    printf("    power_cap_kw: [");
    for (int t = 0; t < T; t++) {
        double share = t % 24 >= 20 ? 0.45 : 0.6;
        printf("%s%.1f", t ? ", " : "", ceil(1.4 * (base_w + share * busy_w) / 100.0) / 10.0);
    }
    printf("]\n");
}

/* The pools; pool mpool (or none, -1) has mdown nodes down for mlen
 * slots from mstart. */
static void print_pools(const int nodes[NPOOL], int mpool, int mstart, int mlen, int mdown)
{
    printf("pools:\n");
    for (int p = 0; p < NPOOL; p++) {
        const struct pool_shape *s = &pool_shape[p];
        printf("  - name: %s\n    site: %s\n    nodes: %d\n", s->name, s->site, nodes[p]);
        if (p == mpool) {
            printf("    available: [");
            for (int t = 0; t < T; t++)
                printf("%s%d", t ? ", " : "",
                       t >= mstart && t < mstart + mlen ? nodes[p] - mdown : nodes[p]);
            printf("]\n");
        }
        printf("    node: {type: %s, ", s->type);
        if (s->acc >= 0)
            printf("accelerator: %s, accelerators: %d, ", acc_name[s->acc], s->k);
        printf("cpus: %d, memory_gb: %d, power_w: %d, idle_power_w: %d}\n", s->cpus, s->mem,
               s->busy_w, s->idle_w);
    }
}

/* Quotas grow with the night: one single-GPU VM per 25 jobs, fewer of the
 * larger shapes; CPU VMs enough for a few concurrent scale-outs. Azure
 * spot capacity halves in US business hours (13:00-20:59 UTC). */
static void print_offers(long n)
{
    printf("offers:\n");
    for (int o = 0; o < NOFFER; o++) {
        const struct offer *f = &offers[o];
        int q = f->k == 0 ? maxi(12, (int)(n / 8)) : maxi(1, (int)(n / (25L * f->k)));
        if (!n && n_gsvc && f->k > 0) /* a serving fleet: the cloud takes the peaks */
            q = maxi(q, (int)ceil(gsvc_peak / (4.0 * f->k)));
        printf("  - name: \"%s\"\n    provider: %s\n    region: %s\n", f->name, f->provider, f->region);
        printf("    instance: {");
        if (f->type)
            printf("type: %s, ", f->type);
        if (f->acc >= 0)
            printf("accelerator: %s, accelerators: %d, ", acc_name[f->acc], f->k);
        printf("cpus: %d, memory_gb: %d}\n", f->cpus, f->mem);
        printf("    price_hour: %s\n    quota: %d\n    spot_price_hour: %s\n", f->price, q, f->spot);
        if (!strcmp(f->provider, "azure") && f->acc >= 0) {
            printf("    spot_quota: [");
            for (int t = 0; t < T; t++)
                printf("%s%d", t ? ", " : "", t % 24 >= 13 && t % 24 <= 20 ? (q + 1) / 2 : q);
            printf("]\n");
        }
        printf("    spot_interruptions_per_hour: %.2f\n", f->lambda);
    }
}

/* The default family: today's on-prem-heavy night (see the top of this file). */
static int gen_onprem(unsigned long long seed, long n)
{
    struct job *jobs = calloc((size_t)(n ? n : 1), sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "gen: out of memory\n");
        return 1;
    }
    double gpu_h[3] = {0, 0, 0}, cpu_h = 0;
    draw_jobs(jobs, n, gpu_h, &cpu_h);
    int nodes[NPOOL];
    size_pools(seed, n, gpu_h, cpu_h, nodes);

    /* One pool may have a maintenance window of 4-6 slots. */
    int mpool = chance(70) ? ri(0, NPOOL - 1) : -1;
    int mlen = ri(4, 6), mstart = ri(0, T > mlen ? T - mlen : 0);
    int mdown = mpool >= 0 ? maxi(1, nodes[mpool] / 4) : 0;

    if (n_gsvc)
        printf("# bench/gen seed %llu, %ld jobs, %d services, %d hourly slots "
               "(sources: bench/data/README.md)\n", seed, n, n_gsvc, T);
    else
        printf("# bench/gen seed %llu, %ld jobs, %d hourly slots (sources: bench/data/README.md)\n",
               seed, n, T);
    printf("version: 1\nhorizon: {slots: %d, slot_hours: 1, start: \"2023-06-06T00:00:00Z\"}\n", T);
    printf("objective: {carbon_price_per_ton: 85}\n");

    printf("accelerators:\n");
    for (int a = 0; a < NACC; a++)
        printf("  - {name: %s, memory_gb: %d, power_w: %d, idle_power_w: %d}\n", acc_name[a],
               acc_mem[a], acc_busy[a], acc_idle[a]);
    print_sites(nodes);
    print_pools(nodes, mpool, mstart, mlen, mdown);
    print_offers(n);

    if (n)
        printf("jobs:\n");
    for (long i = 0; i < n; i++)
        print_job(&jobs[i], (int)i);
    gsvc_print();
    free(jobs);
    return 0;
}

int main(int argc, char **argv)
{
    char *end;
    const char *family = "onprem";
    int a = 1;
    if (argc > 1 && !strncmp(argv[1], "--family", 8)) {
        if (argv[1][8] == '=')
            family = argv[1] + 9;
        else if (!argv[1][8] && argc > 2)
            family = argv[++a];
        else
            family = "";
        a++;
    }
    long k = 0;
    if (argc > a + 1 && !strcmp(argv[a], "--services")) {
        k = strtol(argv[a + 1], &end, 10);
        if (*end || k < 1 || k > SVC_MAX) {
            fprintf(stderr, "gen: --services must be 1..%d\n", SVC_MAX);
            return 2;
        }
        a += 2;
    }
    if (strcmp(family, "onprem") && strcmp(family, "cloud") && strcmp(family, "sized") &&
        strcmp(family, "pollux")) {
        fprintf(stderr, "gen: --family must be onprem, cloud, sized or pollux\n");
        return 2;
    }
    if (argc - a < 2 || argc - a > 3) {
        fprintf(stderr, "usage: gen [--family onprem|cloud|sized|pollux] [--services K] SEED JOBS [SLOTS]\n");
        return 2;
    }
    unsigned long long seed = strtoull(argv[a], &end, 10);
    if (*end || !*argv[a]) {
        fprintf(stderr, "gen: bad SEED '%s'\n", argv[a]);
        return 2;
    }
    long n = strtol(argv[a + 1], &end, 10);
    if (*end || n < (k ? 0 : 1) || n > 100000) {
        fprintf(stderr, "gen: JOBS must be 1..100000 (0..100000 with --services)\n");
        return 2;
    }
    if (k && strcmp(family, "onprem")) {
        fprintf(stderr, "gen: --services is for the onprem family only\n");
        return 2;
    }
    n_gsvc = (int)k;
    long slots = 24;
    if (argc - a == 3) {
        slots = strtol(argv[a + 2], &end, 10);
        if (*end || slots < 2 || slots > 10000) {
            fprintf(stderr, "gen: SLOTS must be 2..10000\n");
            return 2;
        }
    }
    T = (int)slots;
    rng = seed * 0x2545F4914F6CDD1Dull + 0x5EED;
    int rc = !strcmp(family, "cloud")   ? gen_cloud(seed, n)
             : !strcmp(family, "sized")  ? gen_sized(seed, n)
             : !strcmp(family, "pollux") ? gen_pollux(seed, n)
                                         : gen_onprem(seed, n);
    if (rc == 0 && (fflush(stdout) || ferror(stdout))) {
        fprintf(stderr, "gen: write error\n");
        return 1;
    }
    return rc;
}
