/*
 * bench/gen_sized.c: the "sized night" family of bench/gen,
 *
 *   build/bench/gen --family sized SEED JOBS [SLOTS] > instance.yaml
 *
 * Included by gen.c after gen_cloud.c (one translation unit); it uses the
 * cloud family's accelerators, pools, offers and Spark jobs and changes
 * nothing of the other families.
 *
 * What differs from the cloud family is what the jobs may choose: three
 * quarters of the training jobs let the planner pick their accelerator
 * count from [1, 2, 4, 8], [1, 2, 4], [1, 2] or [2, 4, 8] (one of the
 * sets that holds the trace's count), with Amdahl scaling or Gavel's
 * measured table, so a job fills 1/8, 1/4 or 1/2 of an 8-GPU instance for
 * a length that depends on the count chosen. Which counts, and so which
 * shares of whole instances over time, is where these nights' money is.
 * Per seed: 2-4 GPU pools of 8-GPU nodes (A100 and H100 always, V100 and
 * L4 each 70 % of the time) and 1-2 CPU pools, 4-6 pools in all, sized to
 * about 40 % of the load, two with a maintenance window; 7-10 offers at
 * list prices, always the 8-GPU p4d, p5 and a2-ultragpu-8g, one or two
 * more 8-GPU types, one or two 4-GPU types and two or three CPU types,
 * spot at 25-40 % of on-demand with spot quotas of half the on-demand
 * ones (they bind); two thirds of every kind of job preemptible.
 * Every number's origin: bench/data/README.md, "The sized family".
 */

/* ---- data: offers beyond the cloud family's ----------------------------- */

/* 4-GPU offers from the same catalog files (GCP: host row + add-on row). */
/* clang-format off */
static const struct cl_offer sz_offers4[] = {
    {"aws:us-east-1:p3.8xlarge", "aws", "us-east-1", NULL, CA_V100, 4, 32, 244, 12.24, 0, 3.672, 0, 0.10},
    {"gcp:us-central1:a2-highgpu-4g", "gcp", "us-central1", NULL, CA_A100, 4, 48, 340, 2.95791, 11.73563, 1.479, 5.7364, 0.15},
    {"gcp:us-central1:g2-standard-48", "gcp", "us-central1", NULL, CA_L4, 4, 48, 192, 1.7615, 2.24016, 0.74016, 0.9372, 0.06},
};
/* clang-format on */
#define NSZOFFER4 ((int)(sizeof sz_offers4 / sizeof sz_offers4[0]))

/* The cloud family's offers by role: always; more 8-GPU types; CPU. */
static const int sz_always[] = {0, 1, 4};   /* p4d, p5, a2-ultragpu-8g */
static const int sz_more8[] = {2, 3, 5};    /* p3.16xlarge, g6.48xlarge, g2-standard-96 */
static const int sz_cpu[] = {7, 8, 9};      /* m5, r5, n2-standard-8 */

/* The count sets a team may allow; a job gets one that holds the trace's. */
static const int sz_sets[4][5] = {{1, 2, 4, 8, 0}, {1, 2, 4, 0}, {1, 2, 0}, {2, 4, 8, 0}};

struct sz_job {
    struct cl_job c; /* the cloud family's job; counts[] unused for training */
    int counts[4], ncounts;
    int amdahl;      /* 1: Amdahl with serial fraction `serial`; 0: table */
    double serial;
};

/* Speedup of job j at k GPUs: Amdahl, or the cloud family's table. */
static double sz_speedup(const struct sz_job *j, int k)
{
    if (k == 1)
        return 1;
    if (j->amdahl)
        return 1.0 / (j->serial + (1.0 - j->serial) / k);
    return cl_table_speedup(j->c.type, k);
}

static int sz_in_set(const int *set, int k)
{
    for (int i = 0; set[i]; i++)
        if (set[i] == k)
            return 1;
    return 0;
}

static void sz_make_training(struct sz_job *j, const int *gpu_pool)
{
    struct cl_job *c = &j->c;
    int e = ri(0, GV_NTRACE_CLOUD - 1);
    const struct gv_trace *tr = &gv_trace_cloud[e];
    c->type = tr->type;
    c->trace = e;
    /* Three quarters choose their count: one of the sets holding the
     * trace's count, uniformly. */
    j->ncounts = 0;
    if (chance(75)) {
        int ok[4], nok = 0;
        for (int s = 0; s < 4; s++)
            if (sz_in_set(sz_sets[s], tr->k))
                ok[nok++] = s;
        const int *set = sz_sets[ok[ri(0, nok - 1)]];
        for (int i = 0; set[i]; i++)
            j->counts[j->ncounts++] = set[i];
    } else {
        j->counts[j->ncounts++] = tr->k;
    }
    /* Gavel's table when it measured every count on V100 (half the time),
     * else Amdahl with a serial fraction of 2-20 % (assumed). */
    int measured = 1;
    for (int i = 0; i < j->ncounts; i++)
        measured &= thr(c->type, V100, j->counts[i]) > 0;
    j->amdahl = !measured || chance(50);
    j->serial = ri(20, 200) / 1000.0;
    int m = ri(0, 99);
    c->mem_gb = m < 50 ? 0 : m < 75 ? 24 : m < 90 ? 40 : 80;
    int p = ri(0, 99);
    c->placement = p < 5    ? CL_ONPREM
                   : p < 10 ? CL_CLOUD
                   : p < 25 ? CL_AWS
                   : p < 35 ? CL_GCP
                            : CL_ANY;
    double fastest = 1e30, t1 = thr(c->type, V100, 1);
    c->v100h = 1e30;
    for (int i = 0; i < j->ncounts; i++) {
        int k = j->counts[i];
        double v = k * (double)tr->steps / (3600.0 * t1 * sz_speedup(j, k));
        if (v < c->v100h)
            c->v100h = v;
        for (int a = 0; a < NCA; a++) {
            if (cl_acc[a].mem < c->mem_gb || !cl_reachable(c->placement, a) ||
                (c->placement == CL_ONPREM && !gpu_pool[a]))
                continue;
            double hrs = (double)tr->steps / (3600.0 * t1 * cl_ratio(a) * sz_speedup(j, k));
            if (hrs < fastest)
                fastest = hrs;
        }
    }
    int d = ceil_h(fastest);
    if (d > T)
        d = T;
    c->release = chance(55) ? 0 : ri(0, T - d > 0 ? (T - d) / 2 : 0);
    if (chance(25)) {
        c->deadline = 0;
    } else {
        int w = ceil_h(fastest * uni(1.3, 3.0)) + ri(0, 2);
        c->deadline = c->release + (w < d ? d : w);
        if (c->deadline >= T)
            c->deadline = 0;
    }
    c->preemptible = chance(67);
    c->ckpt = chance(50) ? ri(1, 6) * 10 : 0;
    c->best_effort = chance(15);
    if (c->best_effort) {
        c->penalty = (long)ceil(c->v100h * uni(0.5, 2.0));
        if (c->penalty < 5)
            c->penalty = 5;
    } else {
        c->penalty = 10 * (long)((300 + 30 * c->v100h * uni(0.5, 2.0)) / 10);
    }
}

static void sz_print_job(const struct sz_job *j, int idx)
{
    const struct cl_job *c = &j->c;
    if (c->dataflow) {
        cl_print_job(c, idx);
        return;
    }
    const struct gv_type *g = &gv_types[c->type];
    int cpus, mem;
    printf("  - name: t%05d-", idx);
    print_slug(g->name);
    printf("\n    kind: training\n    # Philly trace line %d; %.2f V100 GPU-hours\n    work: %ld\n",
           gv_trace_cloud[c->trace].line, c->v100h, gv_trace_cloud[c->trace].steps);
    printf("    throughput: {%s: %s", cl_acc[CA_V100].name, g->thr[V100][0]);
    for (int a = CA_V100 + 1; a < NCA; a++)
        printf(", %s: %.6f", cl_acc[a].name, strtod(g->thr[V100][0], NULL) * cl_ratio(a));
    printf("}\n    accelerators: [");
    for (int i = 0; i < j->ncounts; i++)
        printf("%s%d", i ? ", " : "", j->counts[i]);
    printf("]\n");
    if (j->counts[j->ncounts - 1] > 1) {
        if (j->amdahl) {
            printf("    scaling: {model: amdahl, serial_fraction: %.3f}\n", j->serial);
        } else {
            printf("    scaling: {model: table, speedup: {");
            for (int i = 0; i < j->ncounts; i++)
                printf("%s%d: %.4f", i ? ", " : "", j->counts[i], sz_speedup(j, j->counts[i]));
            printf("}}\n");
        }
    }
    if (c->mem_gb)
        printf("    accelerator_memory_gb: %d\n", c->mem_gb);
    host_share(c->type, &cpus, &mem);
    printf("    cpus_per_accelerator: %d\n    memory_gb_per_accelerator: %d\n", cpus, mem);
    if (c->best_effort)
        printf("    # best effort: low drop penalty\n");
    if (c->release)
        printf("    release_hour: %d\n", c->release);
    if (c->deadline)
        printf("    deadline_hour: %d\n", c->deadline);
    printf("    drop_penalty: %ld\n", c->penalty);
    if (c->preemptible) {
        printf("    preemptible: true\n");
        if (c->ckpt)
            printf("    checkpoint_minutes: %d\n", c->ckpt);
    }
    if (cl_placement_yaml[c->placement])
        printf("    placement: %s\n", cl_placement_yaml[c->placement]);
}

/* One offer: on-demand quota q, spot quota qs outside the dry spell
 * [dstart, dstart + dlen) (none there on AWS GPUs, a tenth elsewhere). */
/* Draws k distinct entries of from[0..n) into out (in from's order). */
static int sz_pick(const int *from, int n, int k, int *out)
{
    int take[8] = {0}, got = 0;
    while (got < k) {
        int i = ri(0, n - 1);
        if (!take[i])
            take[i] = 1, got++;
    }
    for (int i = 0, o = 0; i < n; i++)
        if (take[i])
            out[o++] = from[i];
    return k;
}

static int gen_sized(unsigned long long seed, long n)
{
    struct sz_job *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "gen: out of memory\n");
        return 1;
    }
    /* The fleet first (jobs limited to on-prem need one of its types). */
    int has[NCP] = {0}, gpu_pool[NCA] = {0};
    has[CP_A100] = has[CP_H100] = has[CP_STD] = 1;
    has[CP_V100] = chance(70);
    has[CP_L4] = chance(70);
    has[CP_MEM] = chance(50);
    if (has[CP_V100] + has[CP_L4] + has[CP_MEM] == 0)
        has[CP_V100] = 1; /* at least four pools */
    for (int p = 0; p < NCP; p++)
        if (has[p] && cl_pool[p].acc >= 0)
            gpu_pool[cl_pool[p].acc] = 1;

    double v100h = 0, cpu_h = 0;
    for (long i = 0; i < n; i++) {
        if (chance(25)) {
            cl_make_dataflow(&jobs[i].c);
            jobs[i].c.preemptible = chance(67);
        } else {
            sz_make_training(&jobs[i], gpu_pool);
        }
        v100h += jobs[i].c.dataflow ? 0 : jobs[i].c.v100h;
        cpu_h += jobs[i].c.machine_h;
    }

    /* Pools: 40 % of the V100-equivalent work (at each job's cheapest
     * count) fits on-prem over the horizon, split by the cloud family's
     * shares among the GPU pools present; CPU pools 40 % of the Spark
     * machine-slots (the std-8 pool at least 12 nodes, C3O's largest
     * scale-out; mem-8 at least 4), split 60/40 when both exist. */
    double gshare = 0;
    for (int p = 0; p < NCP; p++)
        if (has[p] && cl_pool[p].acc >= 0)
            gshare += cl_pool[p].share;
    int nodes[NCP] = {0};
    for (int p = 0; p < NCP; p++) {
        const struct cl_pool *s = &cl_pool[p];
        if (!has[p])
            continue;
        double share = s->acc >= 0 ? s->share / gshare : has[CP_MEM] ? s->share : 1.0;
        double want = s->acc >= 0 ? share * CL_ONPREM_SHARE * v100h / (s->k * T * cl_ratio(s->acc))
                                  : share * CL_ONPREM_SHARE * cpu_h / T;
        nodes[p] = maxi(p == CP_STD ? 12 : p == CP_MEM ? 4 : 1, (int)(want + 0.5));
    }
    /* Maintenance: a GPU pool and one other pool lose a quarter of their
     * nodes (at least one) for 3-6 slots. */
    int mpool[2], mlen[2], mstart[2];
    do
        mpool[0] = ri(CP_V100, CP_L4);
    while (!has[mpool[0]]);
    do
        mpool[1] = ri(0, NCP - 1);
    while (!has[mpool[1]] || mpool[1] == mpool[0]);
    for (int w = 0; w < 2; w++) {
        mlen[w] = ri(3, 6);
        mstart[w] = ri(0, T > mlen[w] ? T - mlen[w] : 0);
    }
    int dlen = ri(3, 4), dstart = ri(0, T > dlen ? T - dlen : 0);
    /* Offers: p4d, p5, a2-ultragpu-8g; 1-2 more 8-GPU types, 1-2 4-GPU
     * types, 2-3 CPU types: 7-10 in all. */
    int more8[3], four[3], cpu[3];
    int n8 = sz_pick(sz_more8, 3, ri(1, 2), more8);
    int idx4[3] = {0, 1, 2};
    int n4 = sz_pick(idx4, 3, ri(1, 2), four);
    int ncpu = sz_pick(sz_cpu, 3, ri(2, 3), cpu);

    cl_print_head("sized", seed, n);
    /* Facility cap: as the cloud family's (baseline plus 80 % of the busy
     * increment, 15 % lower in the evening peak). */
    cl_print_site(nodes);
    cl_print_pools(nodes, has, mpool, mstart, mlen);

    /* Quotas grow with the night: on-demand one 8-GPU instance per 25
     * jobs (at least 3; 4-GPU types twice that), spot half of it (at
     * least 2): the spot quota binds before the on-demand one. CPU VMs
     * max(12, jobs/8) on-demand, half on spot. */
    printf("offers:\n");
    for (int i = 0; i < 3 + n8 + n4 + ncpu; i++) {
        const struct cl_offer *f = i < 3        ? &cl_offers[sz_always[i]]
                                   : i < 3 + n8 ? &cl_offers[more8[i - 3]]
                                   : i < 3 + n8 + n4 ? &sz_offers4[four[i - 3 - n8]]
                                                     : &cl_offers[cpu[i - 3 - n8 - n4]];
        int q = f->acc < 0 ? maxi(12, (int)(n / 8)) : maxi(3 * 8 / f->k, (int)(n * 8 / (25L * f->k)));
        int qs = maxi(2, q / 2);
        cl_print_offer(f, q, qs, strcmp(f->provider, "aws") ? qs / 10 : 0, dstart, dlen);
    }

    printf("jobs:\n");
    for (long i = 0; i < n; i++)
        sz_print_job(&jobs[i], (int)i);
    free(jobs);
    return 0;
}
