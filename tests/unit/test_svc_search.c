/* The services' improvement search (solvers/services_search.c) from the
 * greedy's plan (services_greedy.c), each case a night built by hand with
 * its exact costs: the search must find what the greedy, sizing each slot
 * on its own and each class on the cheapest deployment per request,
 * cannot.
 *
 * Dip: three 1-h slots; offer gpu (1 x V100, $1/h). Service web: load 20,
 * 5, 20 requests/s, 10/s a replica, start cost $3, min_replicas 0. The
 * greedy follows the load: 2, 1, 2 replicas, $5 of instances and 3
 * starts ($9): $14. Kept through the dip: 2, 2, 2, $6 and 2 starts ($6):
 * $12.
 *
 * Mix: one 1-h slot; offers big (1 x V100, $1/h) and small (1 x T4,
 * $0.50/h). Service chat: load 12 requests/s; a V100 replica serves 10/s
 * ($0.100 per request/s), a T4 replica 4/s ($0.125). The greedy takes the
 * cheaper per request, V100, and rounds up: 2 replicas, $2. One of each
 * serves 14/s for $1.50, the optimum (one V100 alone serves 10 < 12;
 * three T4s cost $1.50 too, no less).
 *
 * Quota: one 1-h slot; pool p (one node of 4 x V100, no energy price),
 * the offers of Mix. Team ml: a quota of 1 V100. Service chat (team ml):
 * load 24 requests/s, as in Mix. The greedy puts one replica on p (the
 * quota's), then the other 14/s on the cheaper per request, 2 V100
 * instances: $2. The search must keep the quota (3 V100s on p, $0, break
 * it): one V100 and one T4 instance serve the 14/s for $1.50.
 *
 * Budget (tests/services/team_budget.yaml): one 1-h slot; pool p (one
 * node of 1 x V100, 300 W, $0.1/kWh), offer c (1 x V100, $1/h); team ml
 * with a budget of $1; service chat (team ml): 20 requests/s, 10/s a
 * replica, $0.0001 a request unserved. The greedy's full plan (p and c,
 * $1.03 of spend) breaks the budget, so it plans min_replicas alone: all
 * unserved, $7.20. The search must keep the budget: 10/s on p ($0.03)
 * and 10/s unserved ($3.60), $3.63 (a replica on c as well: over it). */
#include "test.h"

#include "fixture.h"
#include "solver_internal.h"

#include <math.h>

static const char dip[] =
    "horizon: {slots: 3}\n"
    "accelerators: [{name: V100, memory_gb: 32, power_w: 300}]\n"
    "offers:\n"
    "  - {name: gpu, price_hour: 1,\n"
    "     instance: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "services:\n"
    "  - {name: web, load: [20, 5, 20], replicas: [{accelerator: V100, rate: 10}],\n"
    "     min_replicas: 0, start_cost: 3}\n";

static const char mix[] =
    "horizon: {slots: 1}\n"
    "accelerators: [{name: V100, memory_gb: 32}, {name: T4, memory_gb: 16}]\n"
    "offers:\n"
    "  - {name: big, price_hour: 1,\n"
    "     instance: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "  - {name: small, price_hour: 0.5,\n"
    "     instance: {accelerator: T4, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "services:\n"
    "  - {name: chat, load: 12, min_replicas: 0,\n"
    "     replicas: [{accelerator: V100, rate: 10}, {accelerator: T4, rate: 4}]}\n";

static const char quota[] =
    "horizon: {slots: 1}\n"
    "sites: [{name: dc}]\n"
    "accelerators: [{name: V100, memory_gb: 32, power_w: 300}, {name: T4, memory_gb: 16}]\n"
    "pools:\n"
    "  - {name: p, site: dc, nodes: 1,\n"
    "     node: {accelerator: V100, accelerators: 4, cpus: 32, memory_gb: 128}}\n"
    "offers:\n"
    "  - {name: big, price_hour: 1,\n"
    "     instance: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "  - {name: small, price_hour: 0.5,\n"
    "     instance: {accelerator: T4, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "teams: [{name: ml, quota: {V100: 1}}]\n"
    "services:\n"
    "  - {name: chat, team: ml, load: 24, min_replicas: 0,\n"
    "     replicas: [{accelerator: V100, rate: 10}, {accelerator: T4, rate: 4}]}\n";

static const char budget[] =
    "horizon: {slots: 1}\n"
    "sites: [{name: dc, energy_price: 0.1}]\n"
    "accelerators: [{name: V100, memory_gb: 32, power_w: 300}]\n"
    "pools:\n"
    "  - {name: p, site: dc, nodes: 1,\n"
    "     node: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "offers:\n"
    "  - {name: c, price_hour: 1,\n"
    "     instance: {accelerator: V100, accelerators: 1, cpus: 8, memory_gb: 64}}\n"
    "teams: [{name: ml, budget: 1}]\n"
    "services:\n"
    "  - {name: chat, team: ml, load: 20, unserved_penalty: 0.0001,\n"
    "     replicas: [{accelerator: V100, rate: 10}]}\n";

static double total_of(const cp_plan *p)
{
    cp_plan_figures f;
    if (cp_plan_eval(p, &f, NULL) != CP_OK) {
        CHECK(0);
        return NAN;
    }
    double t = f.costs.total;
    cp_plan_figures_release(&f);
    return t;
}

/* The greedy's plan of the night in doc (its total *greedy), then the
 * search's (its total returned); NULL on a failure. */
static cp_plan *greedy_then_search(cp_fx *fx, const char *doc, double *greedy, double *searched)
{
    cp_plan *p = NULL;
    bool ok = false;
    if (!cp_fx_load(fx, doc, NULL) || cp_plan_new(fx->in, fx->ms, &p) != CP_OK) {
        CHECK(0);
        return NULL;
    }
    CHECK_INT(cp_services_greedy(p, &ok, NULL, 0), CP_OK);
    CHECK(ok);
    *greedy = *searched = total_of(p);
    cp_solve_opts o;
    cp_solve_opts_init(&o);
    o.time_limit = 60; /* the search ends when a round gains nothing */
    o.t_start = cp_now_seconds();
    CHECK_INT(cp_services_search(&o, p, searched), CP_OK);
    CHECK(cp_plan_is_feasible(p, NULL, 0));
    CHECK_NEAR(total_of(p), *searched, 1e-9);
    return p;
}

TEST(svc_search_keeps_a_replica_through_a_dip)
{
    cp_fx fx;
    double g, s;
    cp_plan *p = greedy_then_search(&fx, dip, &g, &s);
    if (!p)
        return;
    CHECK_NEAR(g, 14, 1e-9);
    CHECK_NEAR(s, 12, 1e-9);
    for (int t = 0; t < 3; t++)
        CHECK_INT(*cp_plan_n(p, 0, t), 2);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(svc_search_mixes_two_configurations)
{
    cp_fx fx;
    double g, s;
    cp_plan *p = greedy_then_search(&fx, mix, &g, &s);
    if (!p)
        return;
    CHECK_NEAR(g, 2, 1e-9);
    CHECK_NEAR(s, 1.5, 1e-9);
    /* whatever the mix, every request is served */
    CHECK_NEAR(*cp_plan_u(p, 0, 0, 0), 0, 1e-9);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(svc_search_keeps_a_teams_quota)
{
    cp_fx fx;
    double g, s;
    cp_plan *p = greedy_then_search(&fx, quota, &g, &s);
    if (!p)
        return;
    CHECK_NEAR(g, 2, 1e-9);
    CHECK_NEAR(s, 1.5, 1e-9);
    int on_pool = 0;
    for (int d = 0; d < p->ms->n_deps; d++)
        if (p->ms->res[p->ms->deps[d].res].kind == CP_RES_POOL)
            on_pool += *cp_plan_n(p, d, 0);
    CHECK_INT(on_pool, 1);
    cp_plan_free(p);
    cp_fx_release(&fx);
}

TEST(svc_search_keeps_a_teams_budget)
{
    cp_fx fx;
    double g, s;
    cp_plan *p = greedy_then_search(&fx, budget, &g, &s);
    if (!p)
        return;
    CHECK_NEAR(g, 7.2, 1e-9);
    CHECK_NEAR(s, 3.63, 1e-9);
    cp_plan_free(p);
    cp_fx_release(&fx);
}
