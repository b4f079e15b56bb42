/*
 * geninst: seeded random capplan instances for tests/suite_plan.sh.
 *
 *   cc -std=c11 -O2 -o build/geninst tests/gen/geninst.c -lm
 *   build/geninst SEED [JOBS [SLOTS]] > inst.yaml
 *   build/geninst -e SEED > small.yaml    (enumerable; see enum_instance)
 *   build/geninst -s SEED > small.yaml    (the same with a service; see enum_service)
 *
 * The same SEED (and JOBS) always gives the same file, on any platform: the
 * generator uses its own 64-bit generator (splitmix64) and prints only
 * integers and numbers with a fixed number of decimals.  JOBS defaults to
 * 3 + SEED % 10 (3..12); SLOTS (for large instances) replaces the drawn
 * horizon of 4..10 slots.  Without SLOTS the output for a seed never changes.
 *
 * Instances mix: 1-2 sites (time-of-use price and carbon series, sometimes a
 * facility power cap kept above the idle baseline), 2-3 accelerator types,
 * 1-3 GPU pools and sometimes a CPU pool (random maintenance windows in
 * `available`), 1-3 cloud offers (on-demand, often a spot market with
 * interruptions, quotas as scalars or series, some with a site), training
 * jobs (linear/amdahl/table scaling, several counts, memory needs) and
 * dataflow jobs (Ernest), random release/deadline windows, placement rules
 * and penalties.  Instances are always valid input; some jobs may have no
 * mode or be dropped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t st;

static uint64_t next(void)
{
    uint64_t z = (st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* integer in [lo, hi] */
static int ri(int lo, int hi)
{
    return lo + (int)(next() % (uint64_t)(hi - lo + 1));
}

/* true with probability pct/100 */
static int chance(int pct)
{
    return ri(0, 99) < pct;
}

/* The version 1.1 keys of `-e` instances (shapes, after, data, egress) are
 * drawn from a stream of their own, so every key of version 1.0 is drawn
 * exactly as before and the 1.0 part of an instance does not change. */
static uint64_t st11;

static int ri11(int lo, int hi)
{
    uint64_t keep = st;
    st = st11;
    int v = ri(lo, hi);
    st11 = st;
    st = keep;
    return v;
}

static int chance11(int pct)
{
    return ri11(0, 99) < pct;
}

/* The 1.2 keys (power limits, teams) from a third stream, so every 1.0
 * and 1.1 key of every seed is drawn as before. */
static uint64_t st12;

static int ri12(int lo, int hi)
{
    uint64_t keep = st;
    st = st12;
    int v = ri(lo, hi);
    st12 = st;
    st = keep;
    return v;
}

static int chance12(int pct)
{
    return ri12(0, 99) < pct;
}

/* The services of `-s` instances (capplan.5 §10.4) from a fourth
 * stream, so the rest of such an instance is drawn as for `-e`. */
static uint64_t st13;

static int ri13(int lo, int hi)
{
    uint64_t keep = st;
    st = st13;
    int v = ri(lo, hi);
    st13 = st;
    st = keep;
    return v;
}

static int chance13(int pct)
{
    return ri13(0, 99) < pct;
}

#define MAXP 4
#define MAXO 3
#define MAXA 3

static const char *accn[MAXA] = {"G16", "G40", "G80"};
static const int accmem[MAXA] = {16, 40, 80};
static int accpow[MAXA], accidle[MAXA];
static int T;
static double h;

static void series_f(const char *key, int lo, int hi, double scale, int dec)
{
    printf("%s: [", key);
    for (int t = 0; t < T; t++)
        printf("%s%.*f", t ? ", " : "", dec, ri(lo, hi) * scale);
    printf("]");
}

/* ---- geninst -e SEED: small instances for exhaustive enumeration ------
 *
 * For tests/suite_property.sh and tests/gen/enumerate.c: 1..5 jobs, 2..5
 * slots, at most three resources (pools and markets together), each
 * job with at most two counts, so every (mode or drop, start) choice of
 * every job can be enumerated. Every pool has ONE node and every market
 * a quota of at most one instance per slot: a plan that meets capplan.5 §3's
 * aggregate capacities then always packs (every job goes on node or
 * instance 0), so the aggregate optimum is the optimum of a placed plan.
 * Power caps and budgets are drawn near what the jobs need, so they bind
 * in some instances; a few budgets are below the baseline (infeasible).
 * Version 1.1: some jobs have predecessors among the earlier jobs, `data` at
 * a site (some sites price egress) and, for training, 1-3 shapes.
 * Version 1.2: some training jobs list one or two power limits for one
 * type; some instances have teams with a quota per slot (on one type or
 * on CPUs) and a budget, and most jobs there belong to one.
 */
/* Accelerator types of the resources of an `-e` instance, for the
 * service of `-s`: the most accelerators a unit of that type has (0: no
 * resource carries it) and whether a spot market exists. */
static int res_acc_units[MAXA], has_spot;

static void svc_series(int lo, int hi, double scale)
{
    printf("[");
    for (int t = 0; t < T; t++)
        printf("%s%.1f", t ? ", " : "", ri13(lo, hi) * scale);
    printf("]");
}

/* One service (capplan.5 §10.4) for `geninst -s`: one or two classes with
 * small loads (0 to 1.5 requests/s), one or two configurations on the
 * types the resources carry (a replica of one or two accelerators, a
 * few CPUs and GiB), rates of 1 to 3 requests/s, so that a few replicas
 * serve everything and the replica counts stay enumerable; sometimes
 * min_replicas 0 or a series, a start cost, preemptible (spot markets),
 * a placement rule, a team. The penalty per request is drawn so that
 * serving and leaving requests unserved both happen. */
static void enum_service(int nacc, int nteams)
{
    static const char *cls[2] = {"short", "long"};
    int ncls = ri13(1, 2), nconf = ri13(1, 2), types[MAXA], ntypes = 0;
    for (int a = 0; a < nacc; a++)
        if (res_acc_units[a])
            types[ntypes++] = a;
    printf("services:\n  - name: chat\n");
    if (nteams && chance13(60))
        printf("    team: team%d\n", ri13(0, nteams - 1));
    int one = ncls == 1 && chance13(50);
    if (one) {
        printf("    load: ");
        svc_series(0, 3, 0.5);
        printf("\n");
    } else {
        printf("    classes:\n");
        for (int k = 0; k < ncls; k++) {
            printf("      - {name: %s, load: ", cls[k]);
            svc_series(0, 3, 0.5);
            printf("}\n");
        }
    }
    printf("    replicas:\n");
    int served[2] = {0, 0};
    for (int c = 0; c < nconf; c++) {
        int a = ntypes ? types[ri13(0, ntypes - 1)] : ri13(0, nacc - 1);
        int count = res_acc_units[a] >= 2 && chance13(25) ? 2 : 1;
        printf("      - {accelerator: %s, count: %d, cpus: %d, memory_gb: %d, rate: ", accn[a], count,
               2 * ri13(0, 2), 16 * ri13(0, 2));
        if (one) {
            printf("%.1f}\n", ri13(2, 6) * 0.5);
            continue;
        }
        printf("{");
        for (int k = 0, first = 1; k < ncls; k++)
            if ((c == nconf - 1 && !served[k]) || chance13(70)) {
                printf("%s%s: %.1f", first ? "" : ", ", cls[k], ri13(2, 6) * 0.5);
                first = 0;
                served[k] = 1;
            }
        printf("}}\n");
    }
    if (chance13(30))
        printf("    min_replicas: 0\n");
    else if (chance13(30)) {
        printf("    min_replicas: [");
        for (int t = 0; t < T; t++)
            printf("%s%d", t ? ", " : "", ri13(0, 1));
        printf("]\n");
    }
    if (chance13(50))
        printf("    start_cost: %.2f\n", ri13(1, 20) * 0.1);
    printf("    unserved_penalty: %.5f\n", ri13(0, 20) * 0.00005);
    if (has_spot && chance13(60))
        printf("    preemptible: true\n    restart_minutes: %d\n", ri13(1, 30));
    if (chance13(15))
        printf("    placement: {%s: false}\n", chance13(50) ? "cloud" : "on_prem");
}

static int enum_instance(unsigned long long seed, int svc)
{
    /* hashed, so that nearby seeds do not give shifted copies of one
     * splitmix stream */
    st = seed * 0x2545F4914F6CDD1Dull + 777;
    st = next();
    st11 = seed * 0x9E3779B97F4A7C15ull + 1111;
    st12 = seed * 0xD1B54A32D192ED03ull + 1212;
    st13 = seed * 0x94D049BB133111EBull + 1313;
    T = ri(2, 5);
    h = chance(30) ? 0.5 : 1.0;
    int njobs = ri(1, 5);
    if (svc) { /* a service's replicas multiply the choices */
        T = T > 3 ? 3 : T;
        njobs = njobs > 2 ? 2 : njobs;
    }
    printf("# geninst -%c %llu (enumerable: single-node pools, quotas <= 1)\nversion: 1\n",
           svc ? 's' : 'e', seed);
    printf("horizon: {slots: %d, slot_hours: %.1f}\n", T, h);

    int nacc = ri(1, 2);
    printf("accelerators:\n");
    for (int a = 0; a < nacc; a++) {
        accpow[a] = ri(15, 70) * 10;
        accidle[a] = ri(3, 8) * 10;
        printf("  - {name: %s, memory_gb: %d, power_w: %d, idle_power_w: %d}\n", accn[a],
               accmem[a], accpow[a], accidle[a]);
    }

    /* resources: pools (one node each), offers (quota <= 1), spot markets */
    int nres = ri(1, 3);
    if (svc && nres > 2)
        nres = 2;
    int npool = ri(0, nres), noff = nres - npool;
    memset(res_acc_units, 0, sizeof res_acc_units);
    has_spot = 0;
    int nsite = ri(1, 2);
    int psite[3], pacc[3], pk[3], pidle[3];
    double basew[2] = {0, 0};
    for (int p = 0; p < npool; p++) {
        psite[p] = ri(0, nsite - 1);
        pacc[p] = chance(80) ? ri(0, nacc - 1) : -1;
        static const int ks[] = {1, 2, 4};
        pk[p] = pacc[p] >= 0 ? ks[ri(0, 2)] : 0;
        if (pacc[p] >= 0 && pk[p] > res_acc_units[pacc[p]])
            res_acc_units[pacc[p]] = pk[p];
        pidle[p] = ri(5, 15) * 10;
        basew[psite[p]] += pidle[p] + (pacc[p] >= 0 ? pk[p] * accidle[pacc[p]] : 0);
    }

    printf("sites:\n");
    double pue[2], price[2][5], base_cost = 0;
    for (int s = 0; s < nsite; s++) {
        pue[s] = 1.0 + ri(0, 5) * 0.1;
        printf("  - name: dc%d\n    pue: %.1f\n    energy_price: [", s, pue[s]);
        for (int t = 0; t < T; t++) {
            price[s][t] = ri(2, 40) * 0.01;
            printf("%s%.2f", t ? ", " : "", price[s][t]);
            base_cost += pue[s] * basew[s] * h / 1000 * price[s][t];
        }
        printf("]\n    carbon_intensity: %d\n", ri(50, 800));
        if (chance11(50)) /* capplan.5 §9.3 */
            printf("    egress_per_gb: %.2f\n", ri11(1, 20) * 0.01);
        if (basew[s] > 0 && chance(40)) {
            /* a cap from just above the baseline to room for a few jobs */
            printf("    power_cap_kw: [");
            for (int t = 0; t < T; t++)
                printf("%s%.3f", t ? ", " : "", pue[s] * basew[s] / 1000 * 1.02 + ri(0, 12) * 0.1);
            printf("]\n");
        }
    }
    printf("objective: {carbon_price_per_ton: %d", ri(0, 4) * 25);
    if (chance(30)) {
        /* mostly above the baseline by a little (jobs compete for it),
         * sometimes below it (no feasible plan) */
        double b = chance(20) ? base_cost * 0.5 - 0.01 : base_cost + ri(0, 40) * 0.5;
        /* without pools the baseline costs 0 and the first form is
         * negative, which the loader refuses (seeds 303, 443, ...): 0 */
        printf(", budget: %.4f", b < 0 ? 0.0 : b);
    }
    printf("}\n");

    if (npool) {
        printf("pools:\n");
        for (int p = 0; p < npool; p++) {
            printf("  - name: pool%d\n    site: dc%d\n    nodes: 1\n", p, psite[p]);
            if (chance(30)) {
                printf("    available: [");
                for (int t = 0; t < T; t++)
                    printf("%s%d", t ? ", " : "", chance(70));
                printf("]\n");
            }
            printf("    node: {type: mt%d, ", ri(0, 1));
            if (pacc[p] >= 0)
                printf("accelerator: %s, accelerators: %d, ", accn[pacc[p]], pk[p]);
            int pw = pidle[p] / 10 + ri(5, 30);
            printf("cpus: %d, memory_gb: %d, power_w: %d, idle_power_w: %d}\n", ri(2, 8) * 4,
                   ri(1, 8) * 32, pw * 10, pidle[p]);
        }
    }
    if (noff) {
        printf("offers:\n");
        int markets = npool;
        for (int o = 0; o < noff; o++) {
            static const int ks[] = {1, 2, 4};
            int a = ri(0, nacc - 1), k = ks[ri(0, 2)];
            if (k > res_acc_units[a])
                res_acc_units[a] = k;
            printf("  - name: c%d:r%d:x%d\n    provider: c%d\n    region: r%d\n", o % 2, o, k,
                   o % 2, o);
            if (chance(40))
                printf("    site: dc%d\n", ri(0, nsite - 1));
            printf("    instance: {type: mt%d, accelerator: %s, accelerators: %d, cpus: %d, "
                   "memory_gb: %d, power_w: %d}\n",
                   ri(0, 1), accn[a], k, k * 8, k * 48, k * ri(20, 60) * 10);
            printf("    price_hour: %.2f\n", k * ri(20, 300) * 0.01);
            if (chance(30)) {
                printf("    quota: [");
                for (int t = 0; t < T; t++)
                    printf("%s%d", t ? ", " : "", chance(75));
                printf("]\n");
            } else {
                printf("    quota: 1\n");
            }
            markets++;
            if (markets < 3 && o == noff - 1 && chance(60)) {
                printf("    spot_price_hour: %.2f\n    spot_quota: 1\n", k * ri(10, 150) * 0.01);
                has_spot = 1;
                printf("    spot_interruptions_per_hour: %.2f\n", ri(0, 60) * 0.01);
                markets++;
            }
        }
    }

    /* 1.2: teams with a quota on one type or on cpus, some with a budget */
    int nteams = chance12(45) ? ri12(1, 2) : 0;
    if (nteams)
        printf("teams:\n");
    for (int k = 0; k < nteams; k++) {
        printf("  - name: team%d\n", k);
        if (chance12(75)) {
            int cpus = chance12(30), a = ri12(0, nacc - 1);
            printf("    quota: {%s: [", cpus ? "cpus" : accn[a]);
            for (int t = 0; t < T; t++)
                printf("%s%d", t ? ", " : "", cpus ? 4 * ri12(0, 8) : ri12(0, 4));
            printf("]}\n");
        }
        if (chance12(40))
            printf("    budget: %.2f\n", ri12(1, 150) * 0.02);
    }

    printf("jobs:\n");
    for (int j = 0; j < njobs; j++) {
        int dataflow = chance(25);
        printf("  - name: job%d\n    kind: %s\n", j, dataflow ? "dataflow" : "training");
        if (nteams && chance12(70))
            printf("    team: team%d\n", ri12(0, nteams - 1));
        int rel = chance(40) ? ri(0, T - 1) : 0;
        if (rel)
            printf("    release_hour: %.1f\n", rel * h);
        if (chance(50))
            printf("    deadline_hour: %.2f\n", (rel + ri(1, T)) * h - (chance(20) ? h / 2 : 0));
        printf("    drop_penalty: %d\n", ri(1, 60) * 5);
        /* capplan.5 §9.2: predecessors among the earlier jobs (acyclic) */
        if (j > 0 && chance11(40)) {
            int a1 = ri11(0, j - 1), a2 = ri11(0, j - 1);
            if (a2 != a1 && chance11(30))
                printf("    after: [job%d, job%d]\n", a1, a2);
            else
                printf("    after: [job%d]\n", a1);
        }
        /* capplan.5 §9.3: where the input is; gb sometimes left to its default */
        if (chance11(45)) {
            int site = ri11(0, nsite - 1), gb = ri11(1, 40);
            if (dataflow && chance11(50))
                printf("    data: {site: dc%d}\n", site);
            else
                printf("    data: {site: dc%d, gb: %d}\n", site, gb);
        }
        if (chance(50))
            printf("    preemptible: true\n    checkpoint_minutes: %d\n", ri(1, 6) * 10);
        if (chance(15))
            printf("    placement: {cloud: false}\n");
        else if (chance(15))
            printf("    placement: {on_prem: false}\n");
        if (dataflow) {
            printf("    input_gb: %d\n    machines: [1]\n", ri(10, 100));
            printf("    runtime:\n      model: ernest\n      theta:\n");
            int both = chance(50), first = ri(0, 1);
            for (int m = 0; m < 2; m++)
                if (both || m == first)
                    printf("        mt%d: [%d, %.1f, 0, 0]\n", m, ri(60, 600), ri(5, 40) * h);
        } else {
            double base_h = ri(2, 12) * 0.25 * h; /* on one accelerator of speed 1 */
            printf("    work: %.0f\n    throughput: {", base_h * 3600 * 10);
            int first = 1, listed[MAXA] = {0};
            for (int a = 0; a < nacc; a++)
                if (a == 0 || chance(70)) {
                    printf("%s%s: %.1f", first ? "" : ", ", accn[a], ri(5, 20) * 1.0);
                    first = 0;
                    listed[a] = 1;
                }
            printf("}\n");
            /* capplan.5 §10: power limits for one listed type, in (idle, power] */
            if (chance12(35)) {
                int a = ri12(0, nacc - 1);
                a = listed[a] ? a : 0;
                printf("    power_limits:\n      %s: [", accn[a]);
                for (int k = 0, n = ri12(1, 2); k < n; k++) {
                    int span = (accpow[a] - accidle[a]) / 10;
                    int lw = accidle[a] + 10 * ri12(1, span > 1 ? span - 1 : 1) + (k ? 5 : 0);
                    lw = lw > accpow[a] ? accpow[a] : lw;
                    printf("%s{limit_w: %d, speed: %.2f", k ? ", " : "", lw, ri12(50, 100) * 0.01);
                    if (chance12(40))
                        printf(", power_w: %d", lw - ri12(0, (lw - accidle[a] - 1) / 2));
                    printf("}");
                }
                printf("]\n");
            }
            static const char *counts[] = {"[1]", "[2]", "[1, 2]", "[1, 4]", "[2, 4]"};
            printf("    accelerators: %s\n", counts[ri(0, 4)]);
            if (chance(40))
                printf("    scaling: {model: amdahl, serial_fraction: %.2f}\n", ri(0, 40) * 0.01);
            /* capplan.5 §9.1: shapes instead of the flat keys (drawn anyway, so
             * the 1.0 stream stays the same) */
            int shaped = chance11(35);
            if (chance(50)) {
                /* in the order gcc evaluated the arguments of the 1.0
                 * printf (right to left), so the values stay the same */
                int g = ri(0, 48);
                int c = ri(0, 8);
                if (!shaped)
                    printf("    cpus_per_accelerator: %d\n    memory_gb_per_accelerator: %d\n", c,
                           g);
            }
            if (shaped) {
                printf("    shapes:\n");
                for (int k = 0, n = ri11(1, 3); k < n; k++) {
                    printf("      - {cpus_per_accelerator: %d, memory_gb_per_accelerator: %d",
                           ri11(0, 8), ri11(0, 48));
                    if (k > 0 || chance11(50))
                        printf(", speed: %.1f", ri11(4, 12) * 0.1);
                    printf("}\n");
                }
            }
        }
    }
    if (svc)
        enum_service(nacc, nteams);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && (!strcmp(argv[1], "-e") || !strcmp(argv[1], "-s")))
        return enum_instance(strtoull(argv[2], NULL, 10), argv[1][1] == 's');
    if (argc < 2) {
        fprintf(stderr, "usage: geninst SEED [JOBS [SLOTS]] | geninst -e SEED | geninst -s SEED\n");
        return 2;
    }
    unsigned long long seed = strtoull(argv[1], NULL, 10);
    int njobs = argc > 2 ? atoi(argv[2]) : 3 + (int)(seed % 10);
    st = seed * 0x2545F4914F6CDD1Dull + 12345;

    T = ri(4, 10);
    if (argc > 3)
        T = atoi(argv[3]); /* after the draw: the stream stays the same */
    h = chance(25) ? 0.5 : 1.0;
    double hend = T * h;
    printf("# geninst seed %llu, %d jobs\nversion: 1\n", seed, njobs);
    printf("horizon: {slots: %d, slot_hours: %.1f}\n", T, h);
    printf("objective: {carbon_price_per_ton: %d}\n", ri(0, 4) * 25);

    /* accelerators */
    int nacc = ri(2, 3);
    printf("accelerators:\n");
    for (int a = 0; a < nacc; a++) {
        accpow[a] = ri(15, 70) * 10;
        accidle[a] = ri(3, 8) * 10;
        printf("  - {name: %s, memory_gb: %d, power_w: %d, idle_power_w: %d}\n",
               accn[a], accmem[a], accpow[a], accidle[a]);
    }

    /* pools (decided first: site power caps depend on their baseline) */
    int nsite = ri(1, 2);
    int npool = ri(1, 3);
    int cpu_pool = chance(40);
    int ptot = npool + cpu_pool;
    int psite[MAXP], pnodes[MAXP], pacc[MAXP], pk[MAXP], pcpu[MAXP], pmem[MAXP];
    int ppow[MAXP], pidle[MAXP], ptype[MAXP];
    double basew[2] = {0, 0};
    for (int p = 0; p < ptot; p++) {
        psite[p] = ri(0, nsite - 1);
        pnodes[p] = ri(1, 4);
        pacc[p] = p < npool ? ri(0, nacc - 1) : -1;
        static const int ks[] = {1, 2, 4, 8};
        pk[p] = p < npool ? ks[ri(0, 3)] : 0;
        pcpu[p] = ri(2, 8) * 8;
        pmem[p] = ri(1, 8) * 64;
        ppow[p] = ri(20, 50) * 10;
        pidle[p] = ri(5, ppow[p] / 10) * 10;
        ptype[p] = ri(0, 1);
        basew[psite[p]] += pnodes[p] * (pidle[p] + (pacc[p] >= 0 ? pk[p] * accidle[pacc[p]] : 0));
    }

    printf("sites:\n");
    double pue[2];
    for (int s = 0; s < nsite; s++) {
        pue[s] = 1.0 + ri(0, 6) * 0.1;
        printf("  - name: dc%d\n    pue: %.1f\n    ", s, pue[s]);
        if (chance(70))
            series_f("energy_price", 4, 40, 0.01, 2);
        else
            printf("energy_price: %.2f", ri(4, 40) * 0.01);
        printf("\n    ");
        if (chance(50))
            series_f("carbon_intensity", 50, 800, 1, 0);
        else
            printf("carbon_intensity: %d", ri(50, 800));
        printf("\n");
        if (chance(35)) {
            /* at least 10% above the facility baseline, plus room for a few jobs */
            double base_kw = basew[s] * pue[s] / 1000.0;
            printf("    power_cap_kw: [");
            for (int t = 0; t < T; t++)
                printf("%s%.2f", t ? ", " : "", base_kw * 1.1 + 0.05 + ri(0, 40) * 0.1);
            printf("]\n");
        }
    }

    printf("pools:\n");
    for (int p = 0; p < ptot; p++) {
        printf("  - name: pool%d\n    site: dc%d\n    nodes: %d\n", p, psite[p], pnodes[p]);
        if (chance(35)) {
            int a = ri(0, T - 1), b = ri(a, T - 1), down = ri(1, pnodes[p]);
            printf("    available: [");
            for (int t = 0; t < T; t++)
                printf("%s%d", t ? ", " : "", t >= a && t <= b ? pnodes[p] - down : pnodes[p]);
            printf("]\n");
        }
        printf("    node: {type: mt%d, ", ptype[p]);
        if (pacc[p] >= 0)
            printf("accelerator: %s, accelerators: %d, ", accn[pacc[p]], pk[p]);
        printf("cpus: %d, memory_gb: %d, power_w: %d, idle_power_w: %d}\n",
               pcpu[p], pmem[p], ppow[p], pidle[p]);
    }

    int noff = ri(1, MAXO);
    printf("offers:\n");
    for (int o = 0; o < noff; o++) {
        int a = ri(0, nacc - 1);
        static const int ks[] = {1, 4, 8};
        int k = ks[ri(0, 2)];
        printf("  - name: c%d:r%d:x%d\n    provider: c%d\n    region: r%d\n", o % 2, o, k, o % 2, o);
        if (chance(40))
            printf("    site: dc%d\n", ri(0, nsite - 1));
        printf("    instance: {type: mt%d, accelerator: %s, accelerators: %d, cpus: %d, "
               "memory_gb: %d, power_w: %d}\n",
               ri(0, 1), accn[a], k, k * 8, k * 64, k * ri(20, 60) * 10);
        printf("    price_hour: %.2f\n", k * ri(50, 400) * 0.01);
        if (chance(30)) {
            printf("    quota: [");
            for (int t = 0; t < T; t++)
                printf("%s%d", t ? ", " : "", ri(0, 3));
            printf("]\n");
        } else {
            printf("    quota: %d\n", ri(1, 4));
        }
        if (chance(60)) {
            printf("    spot_price_hour: %.2f\n", k * ri(20, 150) * 0.01);
            if (chance(50))
                printf("    spot_quota: %d\n", ri(0, 3));
            printf("    spot_interruptions_per_hour: %.2f\n", ri(0, 80) * 0.01);
        }
    }

    printf("jobs:\n");
    for (int j = 0; j < njobs; j++) {
        int dataflow = chance(25);
        printf("  - name: job%d\n    kind: %s\n", j, dataflow ? "dataflow" : "training");
        int rel_slot = chance(50) ? ri(0, T / 2) : 0;
        if (rel_slot)
            printf("    release_hour: %.1f\n", rel_slot * h);
        if (chance(60)) {
            double dl = (rel_slot + ri(1, T)) * h;
            if (chance(20))
                dl -= h / 2; /* deadline inside a slot: floor */
            if (dl > rel_slot * h)
                printf("    deadline_hour: %.2f\n", dl > hend + 2 ? hend + 2 : dl);
        }
        printf("    drop_penalty: %d\n", ri(1, 100) * 50);
        if (chance(40))
            printf("    preemptible: true\n    checkpoint_minutes: %d\n    restart_minutes: %d\n",
                   ri(1, 6) * 10, ri(0, 10));
        if (chance(20))
            printf("    placement: {cloud: false}\n");
        else if (chance(15))
            printf("    placement: {on_prem: false}\n");
        else if (chance(15))
            printf("    placement: {providers: [c0]}\n");
        if (dataflow) {
            printf("    input_gb: %d\n    machines: [1, 2, 4]\n", ri(10, 200));
            printf("    runtime:\n      model: ernest\n      theta:\n");
            int both = chance(50), first = ri(0, 1);
            for (int m = 0; m < 2; m++)
                if (both || m == first)
                    printf("        mt%d: [%d, %.1f, %d, %d]\n", m, ri(0, 300),
                           ri(5, 80) * 1.0, ri(0, 200), ri(0, 100));
        } else {
            double base_h = ri(2, 16) * 0.25; /* hours on one accelerator of speed 1 */
            printf("    work: %.0f\n    throughput: {", base_h * 3600 * 10);
            int first = 1;
            for (int a = 0; a < nacc; a++)
                if (a == 0 || chance(85)) {
                    printf("%s%s: %.1f", first ? "" : ", ", accn[a], ri(5, 30) * 1.0);
                    first = 0;
                }
            printf("}\n");
            int sc = ri(0, 2);
            if (sc == 0) {
                printf("    accelerators: [1, 2, 4]\n");
            } else if (sc == 1) {
                printf("    accelerators: [1, 2, 4, 8]\n    scaling: {model: amdahl, "
                       "serial_fraction: %.2f}\n", ri(0, 40) * 0.01);
            } else {
                printf("    accelerators: [2, 4]\n    scaling: {model: table, speedup: "
                       "{2: 1.8, 4: %.1f}}\n", ri(25, 38) * 0.1);
            }
            if (chance(20))
                printf("    accelerator_memory_gb: %d\n", ri(10, 45));
            if (chance(60))
                printf("    cpus_per_accelerator: %d\n    memory_gb_per_accelerator: %d\n",
                       ri(0, 8), ri(0, 64));
        }
    }
    return 0;
}
