/* The usage bookkeeping (solvers/usage.c, usage_units.c) on inputs small
 * enough to follow by hand: which pool node or market instance each
 * job's share lands on, y(t) per market and slot, the cost of a (mode,
 * start) as cp_usage_try reports it, quotas, the power cap, the budget,
 * and that removal gives back exactly what an addition took.
 *
 * The fleet: 4 one-hour slots; site dc without idle draw (the baseline
 * is 0, so every figure below is the jobs' own) at 0.5, 0.5, 0.25,
 * 0.5 $/kWh; accelerator G draws 250 W busy, 0 idle; pool rack has 3
 * nodes of 8 G, 64 CPUs, 512 GB and no host draw; offer m8 is the same
 * machine at 10 $/h with quota 2, 2, 1, 1 and a spot market at 4 $/h
 * with quota 1 (no interruptions, so spot runs no longer). Training jobs
 * have throughput 1 on G, so work 3600·k·H runs H hours on k GPUs, and
 * k GPUs on rack draw k·250 W: k/4 kWh per slot. */
#include "test.h"

#include "fixture.h"
#include "usage_internal.h"

#include <stdlib.h>

static const char fleet[] =
    "horizon: {slots: 4}\n"
    "sites: [{name: dc, energy_price: [0.5, 0.5, 0.25, 0.5]}]\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 250}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 3,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "offers:\n"
    "  - {name: m8, price_hour: 10, quota: [2, 2, 1, 1], spot_price_hour: 4, spot_quota: 1,\n"
    "     instance: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n";

/* A training job of k GPUs running `work` / (3600 k) hours, with more keys. */
#define TJOBX(name, k, work, more)                                                                 \
    "  - {name: " name ", kind: training, work: " work ", throughput: {G: 1}, "                    \
    "accelerators: [" k "]" more "}\n"
#define TJOB(name, k, work) TJOBX(name, k, work, "")
/* A dataflow job on 2 machines of type gpu for one hour. */
#define DFJOB(name)                                                                                \
    "  - {name: " name ", kind: dataflow, input_gb: 100, machines: [2],\n"                         \
    "     runtime: {model: ernest, theta: {gpu: [3600, 0, 0, 0]}}}\n"

enum { RACK, M8, M8_SPOT }; /* resources in cp_modes order */

static cp_fx fx;
static cp_usage u;

static bool setup(const char *jobs)
{
    if (!cp_fx_load(&fx, fleet, jobs))
        return false;
    if (cp_usage_init(&u, fx.in, fx.ms) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return false;
    }
    return true;
}

static void teardown(void)
{
    cp_usage_release(&u);
    cp_fx_release(&fx);
}

static int M(const char *job, const char *res, int k)
{
    return cp_fx_mode(&fx, job, res, k);
}

static int J(const char *job)
{
    return cp_fx_job(&fx, job);
}

/* Room left on unit i of resource r in dimension d and slot t. */
static double room(int r, int i, int d, int t)
{
    return u.nfree[r][((size_t)i * CP_DIMS + d) * (size_t)u.T + (size_t)t];
}

static double use(int r, int d, int t)
{
    return u.use[((size_t)r * CP_DIMS + d) * (size_t)u.T + (size_t)t];
}

static int y(int r, int t)
{
    return u.y[(size_t)r * (size_t)u.T + (size_t)t];
}

/* The added cost of mode m at s as cp_usage_try reports it; -1 when it
 * does not fit. */
static double cost(int m, int s)
{
    double c = -2;
    return m >= 0 && cp_usage_try(&u, m, s, &c) ? c : -1;
}

/* What blocks mode m at s in words ("fits" when nothing does). */
static const char *why(int m, int s)
{
    static char w[160];
    double c;
    snprintf(w, sizeof w, "?");
    if (m >= 0 && cp_usage_try_why(&u, m, s, &c, w, sizeof w))
        snprintf(w, sizeof w, "fits");
    return w;
}

/* y(t) of market r over the horizon, "0,2,0,0". */
static const char *yrow(int r)
{
    static char s[64];
    size_t len = 0;
    for (int t = 0; t < u.T && len < sizeof s - 12; t++)
        len += (size_t)snprintf(s + len, sizeof s - len, "%s%d", t ? "," : "", y(r, t));
    return s;
}

/* "a,b" of the units job j holds now ("-" for none). */
static const char *units_of(int j)
{
    static char s[64];
    const int *p;
    int n = j < 0 ? 0 : cp_usage_job_units(&u, j, &p);
    size_t len = 0;
    s[0] = '-';
    s[1] = '\0';
    for (int q = 0; q < n && len < sizeof s - 12; q++)
        len += (size_t)snprintf(s + len, sizeof s - len, "%s%d", q ? "," : "", p[q]);
    return s;
}

TEST(usage_init_capacities_quotas_and_units)
{
    if (!setup("jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("w12", "12", "43200")))
        return;
    CHECK(u.nodes);
    CHECK_NEAR(cp_usage_cap(&u, RACK, CP_DIM_MEM, 3), 1536, 0); /* 3 nodes x 512 GB */
    CHECK_NEAR(cp_usage_cap(&u, M8, CP_DIM_ACC, 1), 16, 0);     /* quota 2 x 8 */
    CHECK_INT(cp_usage_quota(&u, M8, 3), 1);
    /* units: the pool's nodes; a market's instance ids (labels, version 1.1)
     * are capped by its quotas summed over the slots (2 + 2 + 1 + 1 = 6)
     * below the 4 + 12 accelerators its jobs could hold */
    CHECK_INT(u.nunits[RACK], 3);
    CHECK_INT(u.nunits[M8], 6);
    /* w12 needs two instances: slot 1 allows 2, slot 2 only 1 */
    CHECK(cp_usage_start_fits(&u, M("w12", "m8", 12), 1));
    CHECK(!cp_usage_start_fits(&u, M("w12", "m8", 12), 2));
    teardown();
}

TEST(usage_two_jobs_share_one_pool_node)
{
    if (!setup("jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("b4", "4", "14400")))
        return;
    int a = M("a4", "rack", 4), b = M("b4", "rack", 4);
    /* 4 x 250 W for 1 h = 1 kWh at 0.5 $/kWh */
    CHECK_NEAR(cost(a, 0), 0.5, 1e-12);
    cp_usage_add(&u, a, 0);
    /* three empty nodes tie: the first */
    CHECK_STR(units_of(J("a4")), "0");
    /* best fit: node 0 is left with 0 GPUs of 8, nodes 1 and 2 with 4 */
    CHECK_NEAR(cost(b, 0), 0.5, 1e-12);
    cp_usage_add(&u, b, 0);
    CHECK_STR(units_of(J("b4")), "0");
    CHECK_NEAR(room(RACK, 1, CP_DIM_ACC, 0), 8, 0);
    CHECK_NEAR(u.busy[0], 2000, 0); /* W of 8 busy GPUs, site dc, slot 0 */
    CHECK(u.spend == 1.0);
    teardown();
}

TEST(usage_two_jobs_share_one_market_instance)
{
    if (!setup("jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("b4", "4", "14400")
               TJOB("c2", "2", "7200")))
        return;
    /* instance 0 is rented for slot 1: y(1) 0 -> 1, 10 $ */
    CHECK_NEAR(cost(M("a4", "m8", 4), 1), 10, 1e-12);
    cp_usage_add(&u, M("a4", "m8", 4), 1);
    /* b4 fills the other 4 GPUs of instance 0: nothing more to rent */
    CHECK_NEAR(cost(M("b4", "m8", 4), 1), 0, 0);
    cp_usage_add(&u, M("b4", "m8", 4), 1);
    CHECK_STR(units_of(J("b4")), "0");
    CHECK_INT(u.ncnt[M8][0 * 4 + 1], 2); /* two jobs on instance 0 in slot 1 */
    /* c2 needs instance 1 (quota 2): y(1) 1 -> 2, 10 $ more */
    CHECK_NEAR(cost(M("c2", "m8", 2), 1), 10, 1e-12);
    cp_usage_add(&u, M("c2", "m8", 2), 1);
    CHECK_STR(units_of(J("c2")), "1");
    CHECK_STR(yrow(M8), "0,2,0,0");
    CHECK(u.spend == 20);
    teardown();
}

TEST(usage_best_fit_takes_the_fuller_node)
{
    if (!setup("jobs:\n"
               TJOB("x2", "2", "7200")
               TJOB("x6", "6", "21600")
               TJOB("d2", "2", "7200")
               TJOB("a4", "4", "14400")))
        return;
    /* x2 on node 0 and x6 on node 1, where a plan put them */
    static const int n0[] = {0}, n1[] = {1};
    CHECK(cp_usage_add_on(&u, M("x2", "rack", 2), 0, n0, 1));
    CHECK(cp_usage_add_on(&u, M("x6", "rack", 6), 0, n1, 1));
    /* d2: node 0 would keep 4 GPUs, node 1 none, node 2 six; first fit
     * would take node 0, best fit takes node 1 */
    CHECK_NEAR(cost(M("d2", "rack", 2), 0), 0.25, 1e-12); /* 0.5 kWh at 0.5 $/kWh */
    cp_usage_add(&u, M("d2", "rack", 2), 0);
    CHECK_STR(units_of(J("d2")), "1");
    /* node 1 is full now: a4 cannot go there, and nothing is added */
    CHECK(!cp_usage_add_on(&u, M("a4", "rack", 4), 0, n1, 1));
    CHECK_NEAR(use(RACK, CP_DIM_ACC, 0), 10, 0);
    CHECK_INT(u.jn[J("a4")], 0);
    teardown();
}

TEST(usage_wide_jobs_take_whole_nodes_first)
{
    if (!setup("jobs:\n"
               TJOB("c2", "2", "7200")
               TJOB("w12", "12", "43200")
               DFJOB("df")
               TJOBX("cpu8", "8", "28800", ", cpus_per_accelerator: 16")))
        return;
    cp_usage_add(&u, M("c2", "rack", 2), 0);
    /* 12 GPUs: whole free node 1 first (node 0 holds c2), then the 4 left
     * on the node with the least room that holds them: node 0 (6 free)
     * rather than node 2 (8 free) */
    CHECK_NEAR(cost(M("w12", "rack", 12), 0), 1.5, 1e-12); /* 3 kWh at 0.5 */
    cp_usage_add(&u, M("w12", "rack", 12), 0);
    CHECK_STR(units_of(J("w12")), "1,0");
    CHECK_NEAR(room(RACK, 0, CP_DIM_ACC, 0), 2, 0);
    /* dataflow on 2 machines wants 16 GPUs: 14 + 16 > 24 */
    CHECK_STR(why(M("df", "rack", 2), 0), "pool 'rack' is full in slot 0");
    /* in slot 1 it takes two whole nodes; 2 x 8 x 250 W = 4 kWh at 0.5 */
    CHECK_NEAR(cost(M("df", "rack", 2), 1), 2.0, 1e-12);
    cp_usage_add(&u, M("df", "rack", 2), 1);
    CHECK_STR(units_of(J("df")), "0,1");
    /* 16 CPUs per GPU: a node holds 4 of cpu8's GPUs (64 / 16), so its 8
     * GPUs split 4 + 4 over nodes 0 and 1; 2 kWh at 0.25 in slot 2 */
    CHECK_NEAR(cost(M("cpu8", "rack", 8), 2), 0.5, 1e-12);
    cp_usage_add(&u, M("cpu8", "rack", 8), 2);
    CHECK_STR(units_of(J("cpu8")), "0,1");
    CHECK_NEAR(room(RACK, 0, CP_DIM_ACC, 2), 4, 0);
    teardown();
}

TEST(usage_fragmented_units_refuse_what_the_totals_allow)
{
    if (!setup("jobs:\n"
               TJOB("x6", "6", "21600")
               TJOB("y6", "6", "21600")
               TJOB("z6", "6", "21600")
               TJOB("a4", "4", "14400")))
        return;
    cp_usage_add(&u, M("x6", "rack", 6), 0);
    cp_usage_add(&u, M("y6", "rack", 6), 0);
    cp_usage_add(&u, M("z6", "rack", 6), 0);
    CHECK_STR(units_of(J("z6")), "2");
    /* 18 + 4 <= 24 GPUs, but every node has 2 left */
    CHECK_STR(why(M("a4", "rack", 4), 0), "no node of 'rack' has room from slot 0");
    /* the same on the market: 6 + 6 on instances 0 and 1 (quota 2), a4's
     * 4 fit the 16 GPUs of y = 2 but neither instance */
    cp_usage_remove(&u, M("x6", "rack", 6), 0);
    cp_usage_remove(&u, M("y6", "rack", 6), 0);
    cp_usage_add(&u, M("x6", "m8", 6), 0);
    cp_usage_add(&u, M("y6", "m8", 6), 0);
    CHECK_STR(units_of(J("y6")), "1");
    CHECK_STR(why(M("a4", "m8", 4), 0),
              "no instance within the quota of 'm8' has room from slot 0");
    teardown();
}

TEST(usage_quota_blocks_a_second_instance_until_removal)
{
    if (!setup("jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("x6", "6", "21600")
               TJOB("long", "4", "28800")))
        return;
    int a = M("a4", "m8", 4), x = M("x6", "m8", 6);
    cp_usage_add(&u, a, 2);
    /* 4 + 6 GPUs need 2 instances; the quota of slot 2 is 1 */
    CHECK_STR(why(x, 2), "market 'm8' reaches its quota in slot 2");
    CHECK_NEAR(cost(x, 1), 10, 1e-12); /* quota 2 in slot 1 */
    /* removing a4 frees instance 0 of slot 2 */
    cp_usage_remove(&u, a, 2);
    CHECK(u.spend == 0);
    CHECK_NEAR(cost(x, 2), 10, 1e-12);
    /* a 2-hour job rents one instance for each of its slots */
    CHECK_NEAR(cost(M("long", "m8", 4), 1), 20, 1e-12);
    cp_usage_add(&u, M("long", "m8", 4), 1);
    CHECK_STR(yrow(M8), "0,1,1,0");
    teardown();
}

TEST(usage_best_is_the_cheapest_mode_and_start)
{
    if (!setup("jobs:\n"
               TJOB("x6", "6", "21600")
               TJOB("big", "24", "345600")
               TJOBX("p6", "6", "21600", ", preemptible: true")
               TJOBX("p4", "4", "14400", ", preemptible: true")))
        return;
    int m = -1, s = -1;
    double c = -1;
    /* 1.5 kWh on rack: 0.75 $ in slots 0, 1, 3 and 0.375 $ in slot 2 */
    CHECK(cp_usage_best(&u, J("x6"), &m, &s, &c));
    CHECK_INT(m, M("x6", "rack", 6));
    CHECK_INT(s, 2);
    CHECK_NEAR(c, 0.375, 1e-12);
    /* big holds all 24 GPUs of rack for the 4 hours */
    cp_usage_add(&u, M("big", "rack", 24), 0);
    /* then on-demand, the first of four equal slots */
    CHECK(cp_usage_best(&u, J("x6"), &m, &s, &c));
    CHECK_INT(m, M("x6", "m8", 6));
    CHECK_INT(s, 0);
    CHECK_NEAR(c, 10, 1e-12);
    /* a preemptible job rents spot at 4 $ */
    CHECK(cp_usage_best(&u, J("p6"), &m, &s, &c));
    CHECK_INT(m, M("p6", "m8:spot", 6));
    CHECK_INT(s, 0);
    cp_usage_add(&u, m, s);
    CHECK_STR(yrow(M8_SPOT), "1,0,0,0");
    CHECK_STR(yrow(M8), "0,0,0,0");
    /* p4 does not fit spot instance 0 beside p6 and the spot quota is 1:
     * spot in slot 1 (4 $) beats on-demand in slot 0 (10 $) */
    CHECK(cp_usage_best(&u, J("p4"), &m, &s, &c));
    CHECK_INT(m, M("p4", "m8:spot", 4));
    CHECK_INT(s, 1);
    teardown();
}

/* Everything an addition changes, to compare with memcmp. */
typedef struct state {
    double *use, *busy, spend;
    int *y, *jn;
    double *nfree[3];
    int *ncnt[3];
} state;

static size_t nfree_size(int r)
{
    return (size_t)(u.nunits[r] ? u.nunits[r] : 1) * CP_DIMS * (size_t)u.T * sizeof(double);
}

static size_t ncnt_size(int r)
{
    return (size_t)(u.nunits[r] ? u.nunits[r] : 1) * (size_t)u.T * sizeof(int);
}

static void *copy_of(const void *p, size_t n)
{
    void *q = malloc(n);
    if (q)
        memcpy(q, p, n);
    return q;
}

static void state_take(state *st)
{
    size_t T = (size_t)u.T, nr = (size_t)fx.ms->n_res;
    st->use = copy_of(u.use, nr * CP_DIMS * T * sizeof(double));
    st->busy = copy_of(u.busy, T * sizeof(double));
    st->y = copy_of(u.y, nr * T * sizeof(int));
    st->jn = copy_of(u.jn, (size_t)fx.in->n_jobs * sizeof(int));
    st->spend = u.spend;
    for (int r = 0; r < 3; r++) {
        st->nfree[r] = copy_of(u.nfree[r], nfree_size(r));
        st->ncnt[r] = u.ncnt[r] ? copy_of(u.ncnt[r], ncnt_size(r)) : NULL;
    }
}

static bool state_same(const state *st)
{
    size_t T = (size_t)u.T, nr = (size_t)fx.ms->n_res;
    bool same = st->spend == u.spend &&
                !memcmp(st->use, u.use, nr * CP_DIMS * T * sizeof(double)) &&
                !memcmp(st->busy, u.busy, T * sizeof(double)) &&
                !memcmp(st->y, u.y, nr * T * sizeof(int)) &&
                !memcmp(st->jn, u.jn, (size_t)fx.in->n_jobs * sizeof(int));
    for (int r = 0; r < 3; r++) {
        same &= !memcmp(st->nfree[r], u.nfree[r], nfree_size(r));
        if (st->ncnt[r])
            same &= !memcmp(st->ncnt[r], u.ncnt[r], ncnt_size(r));
    }
    return same;
}

static void state_free(state *st)
{
    free(st->use);
    free(st->busy);
    free(st->y);
    free(st->jn);
    for (int r = 0; r < 3; r++) {
        free(st->nfree[r]);
        free(st->ncnt[r]);
    }
}

TEST(usage_remove_returns_exactly_to_the_state_before)
{
    if (!setup("jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("b4", "4", "14400")
               TJOB("c2", "2", "7200")
               TJOB("w12", "12", "43200")
               TJOB("x6", "6", "21600")
               TJOB("long", "4", "28800")
               DFJOB("df")))
        return;
    /* every amount here is a binary fraction (GPUs, 0.25 $ steps, 10 $),
     * so "exactly" means bit for bit */
    state empty, mid;
    state_take(&empty);
    static const struct {
        const char *job, *res;
        int k, s;
    } adds[] = {{"a4", "rack", 4, 0}, {"w12", "rack", 12, 0}, {"df", "rack", 2, 1},
                {"c2", "m8", 2, 0},   {"long", "m8", 4, 0},   {"x6", "m8", 6, 0}};
    for (int i = 0; i < 3; i++)
        cp_usage_add(&u, M(adds[i].job, adds[i].res, adds[i].k), adds[i].s);
    state_take(&mid);
    cp_usage_add(&u, M("b4", "rack", 4), 0);
    for (int i = 3; i < 6; i++)
        cp_usage_add(&u, M(adds[i].job, adds[i].res, adds[i].k), adds[i].s);
    /* c2 and long share instance 0 of slot 0, x6 takes instance 1 */
    CHECK_STR(units_of(J("x6")), "1");
    CHECK_STR(yrow(M8), "2,1,0,0");
    /* 20 $ of slot 0, 10 $ of slot 1; rack 4 + 12 + 4 GPUs in slot 0
     * (2.5 $) and 16 in slot 1 (2 $) */
    CHECK(u.spend == 34.5);
    /* out in another order: the market ones and b4 first, back to mid */
    cp_usage_remove(&u, M("c2", "m8", 2), 0);
    CHECK_INT(y(M8, 0), 2); /* instance 1 still holds x6 */
    cp_usage_remove(&u, M("x6", "m8", 6), 0);
    CHECK_INT(y(M8, 0), 1);
    cp_usage_remove(&u, M("b4", "rack", 4), 0);
    cp_usage_remove(&u, M("long", "m8", 4), 0);
    CHECK(state_same(&mid));
    cp_usage_remove(&u, M("w12", "rack", 12), 0);
    cp_usage_remove(&u, M("a4", "rack", 4), 0);
    cp_usage_remove(&u, M("df", "rack", 2), 1);
    CHECK(state_same(&empty));
    state_free(&mid);
    state_free(&empty);
    teardown();
}

TEST(usage_load_plan_packs_largest_first_and_drops_the_rest)
{
    if (!setup("jobs:\n"
               TJOB("c2", "2", "7200")
               TJOB("w12", "12", "43200")
               TJOB("x6", "6", "21600")
               TJOB("y6", "6", "21600")))
        return;
    cp_plan *p = NULL;
    if (cp_plan_new(fx.in, fx.ms, &p) != CP_OK) {
        CHECK(0);
        teardown();
        return;
    }
    /* all four on rack in slot 0: 26 GPUs of 24 */
    static const char *const names[] = {"c2", "w12", "x6", "y6"};
    static const int ks[] = {2, 12, 6, 6};
    for (int i = 0; i < 4; i++) {
        p->mode[J(names[i])] = M(names[i], "rack", ks[i]);
        p->start[J(names[i])] = 0;
    }
    /* largest first: w12 on node 0 whole and 4 on node 1 (nodes 1 and 2
     * tie); x6 on node 2, the only one with 6 free; y6 finds 4 and 2
     * free and is dropped; c2 best-fits node 2 (2 free) */
    CHECK_INT(cp_usage_load_plan(&u, p), 1);
    CHECK_INT(p->mode[J("y6")], -1);
    CHECK_STR(units_of(J("w12")), "0,1");
    CHECK_STR(units_of(J("x6")), "2");
    CHECK_STR(units_of(J("c2")), "2");
    CHECK_INT(cp_usage_export_units(&u, p), CP_OK);
    CHECK(p->pool_units && p->n_units[J("w12")] == 2 && p->units[J("w12")][1] == 1);
    cp_plan_free(p);
    teardown();
}

/* The site is its own document, so the two tests below share the rest. */
static const char capped[] =
    "horizon: {slots: 2}\n"
    "accelerators: [{name: G, memory_gb: 80, power_w: 300, idle_power_w: 100}]\n"
    "pools:\n"
    "  - {name: rack, site: dc, nodes: 2,\n"
    "     node: {type: gpu, accelerator: G, accelerators: 8, cpus: 64, memory_gb: 512}}\n"
    "jobs:\n" TJOB("a4", "4", "14400") TJOB("c1", "1", "3600") TJOB("h4", "4", "7200");

TEST(usage_power_cap_binds_before_the_gpus_run_out)
{
    /* baseline 2 nodes x 8 GPUs x 100 W = 1600 W; the cap allows
     * 3000 / 1.25 - 1600 = 800 W busy in slot 0 and 2500 / 1.25 - 1600 =
     * 400 W in slot 1; a busy GPU adds 200 W */
    if (!cp_fx_load(&fx, capped,
                    "sites: [{name: dc, pue: 1.25, energy_price: 0.2, power_cap_kw: [3, 2.5]}]\n"))
        return;
    if (cp_usage_init(&u, fx.in, fx.ms) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return;
    }
    /* the baseline energy: 1.25 x 1.6 kW x 2 h x 0.2 $/kWh */
    CHECK_NEAR(u.spend, 0.8, 1e-12);
    CHECK_NEAR(u.allow[1], 400, 1e-9);
    int a = M("a4", "rack", 4), c1 = M("c1", "rack", 1), h = M("h4", "rack", 4);
    CHECK(!cp_usage_start_fits(&u, a, 1)); /* 800 W > 400 W */
    CHECK_NEAR(cost(a, 0), 0.2, 1e-12);    /* 1.25 x 0.8 kWh x 0.2 */
    cp_usage_add(&u, a, 0);
    /* 12 GPUs are free in slot 0 but no power */
    CHECK_STR(why(c1, 0), "site 'dc' is at its power cap in slot 0");
    int m = -1, s = -1;
    double c = -1;
    CHECK(cp_usage_best(&u, J("c1"), &m, &s, &c));
    CHECK_INT(s, 1);
    CHECK_NEAR(c, 0.05, 1e-12); /* 1.25 x 0.2 kWh x 0.2 */
    /* h4 is busy half of its one slot: 800 W x 0.5 = 400 W fits slot 1
     * exactly, and then c1 no longer does */
    CHECK_NEAR(cost(h, 1), 0.1, 1e-12);
    cp_usage_add(&u, h, 1);
    CHECK_STR(why(c1, 1), "site 'dc' is at its power cap in slot 1");
    teardown();
}

TEST(usage_baseline_over_the_cap_is_infeasible)
{
    /* 1900 / 1.25 = 1520 W < the 1600 W baseline in slot 1 */
    if (!cp_fx_load(&fx, capped, "sites: [{name: dc, pue: 1.25, power_cap_kw: [3, 1.9]}]\n"))
        return;
    if (cp_usage_init(&u, fx.in, fx.ms) != CP_OK) {
        CHECK(0);
        cp_fx_release(&fx);
        return;
    }
    char why[160] = "";
    CHECK(cp_usage_baseline_infeasible(&u, why, sizeof why));
    CHECK_STR(why, "site 'dc': its idle baseline alone (2 kW after PUE 1.25) exceeds its "
                   "power_cap_kw (1.9 kW) in slot 1: no plan can meet the cap");
    teardown();
}

TEST(usage_budget_refuses_the_second_instance)
{
    if (!setup("objective: {budget: 15}\n"
               "jobs:\n"
               TJOB("a4", "4", "14400")
               TJOB("b4", "4", "14400")
               TJOB("x6", "6", "21600")))
        return;
    cp_usage_add(&u, M("a4", "m8", 4), 0);       /* 10 $ */
    CHECK_NEAR(cost(M("b4", "m8", 4), 0), 0, 0); /* the same instance */
    /* a second instance would make 20 $ */
    CHECK_STR(why(M("x6", "m8", 6), 0), "the budget is spent");
    CHECK_NEAR(cost(M("x6", "rack", 6), 0), 0.75, 1e-12); /* 10.75 $ in all */
    teardown();
}
