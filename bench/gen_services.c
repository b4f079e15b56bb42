/*
 * bench/gen_services.c: `gen --services K`, inference services (capplan.5
 * §10.4) for the default family's night, for the benchmark of services
 * (bench/services.sh, docs/performance.md).
 *
 * Included by gen.c after the other families (one translation unit). Each
 * service is an LLM-style endpoint with two request classes, "short" and
 * "long" (long = 20-40 % of short), a daily load shape (25 % of the peak at
 * the trough, a sine over 24 slots with a phase of its own, so the peaks
 * spread over the night) and three configurations on the family's
 * accelerators: one V100 (8 short or 2 long requests/s), one P100 (5
 * short, 1.2 long) and two K80s (3 short only). The rates have the ratios
 * of Splitwise's A100/H100 timings scaled to these GPUs
 * (examples/serving/README.md); they are synthetic, not measured.
 *
 * The services are drawn from a random stream of their own, so the jobs,
 * the fleet and its maintenance window are what `gen SEED JOBS` writes;
 * with jobs, the pools grow by the services' V100-equivalent
 * replica-hours, so that the night stays as loaded as without them.
 * A night of services alone (JOBS = 0, a serving fleet) is sized for
 * serving instead (gen.c): on-prem V100s for 45 % and P100s for 25 % of
 * the average load (in V100 replicas at full rate), the K80s as for jobs
 * (they serve short requests only), and every GPU offer a quota of a
 * quarter of the peak load in its instances, so the cloud can take the
 * peaks (the pools alone hold about 70 % of the average).
 */
#define SVC_MAX 1000
#define SVC_PI 3.14159265358979323846

struct gsvc {
    double peak_short, long_share, phase, start_cost;
    int preemptible;
};

static struct gsvc gsvcs[SVC_MAX];
static int n_gsvc;
static double gsvc_peak; /* the most V100 replicas at full rate one slot's load needs */

static double gsvc_shape(const struct gsvc *s, int t)
{
    return 0.625 - 0.375 * cos(2.0 * SVC_PI * ((double)(t % 24) / 24.0 - s->phase));
}

/* Draws K services; returns their V100 replica-hours (each slot's load
 * served by V100 replicas at 8 short and 2 long requests/s). */
static double gsvc_draw(unsigned long long seed, int k)
{
    uint64_t keep = rng;
    rng = seed * 0x9E3779B97F4A7C15ull + 0x5E4C1CE5ull;
    double v100_h = 0, slot[24 * 31] = {0};
    n_gsvc = k;
    for (int i = 0; i < k; i++) {
        struct gsvc *s = &gsvcs[i];
        s->peak_short = uni(8, 64);
        s->long_share = uni(0.2, 0.4);
        s->phase = uni(0, 1);
        s->start_cost = uni(0.2, 1.0);
        s->preemptible = chance(33);
        for (int t = 0; t < T; t++) {
            double sh = s->peak_short * gsvc_shape(s, t);
            v100_h += sh / 8.0 + sh * s->long_share / 2.0;
            if (t < 24 * 31)
                slot[t] += sh / 8.0 + sh * s->long_share / 2.0;
        }
    }
    gsvc_peak = 0;
    for (int t = 0; t < T && t < 24 * 31; t++)
        gsvc_peak = slot[t] > gsvc_peak ? slot[t] : gsvc_peak;
    rng = keep;
    return v100_h;
}

static void gsvc_load(const struct gsvc *s, double share)
{
    printf("[");
    for (int t = 0; t < T; t++)
        printf("%s%.2f", t ? ", " : "", s->peak_short * share * gsvc_shape(s, t));
    printf("]");
}

static void gsvc_print(void)
{
    if (!n_gsvc)
        return;
    printf("services:\n");
    for (int i = 0; i < n_gsvc; i++) {
        const struct gsvc *s = &gsvcs[i];
        printf("  - name: svc%d\n    classes: [{name: short, load: ", i);
        gsvc_load(s, 1.0);
        printf("}, {name: long, load: ");
        gsvc_load(s, s->long_share);
        printf("}]\n    replicas:\n");
        printf("      - {accelerator: V100, count: 1, cpus: 4, memory_gb: 32, rate: {short: 8, long: 2}}\n");
        printf("      - {accelerator: P100, count: 1, cpus: 4, memory_gb: 32, rate: {short: 5, long: 1.2}}\n");
        printf("      - {accelerator: K80, count: 2, cpus: 4, memory_gb: 32, rate: {short: 3}}\n");
        printf("    start_cost: %.2f\n    unserved_penalty: 0.01\n", s->start_cost);
        if (s->preemptible)
            printf("    preemptible: true\n");
    }
}
