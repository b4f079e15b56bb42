/*
 * A first plan of the services (capplan.5 §10.4) around a plan's jobs,
 * without a solver: the around-MILP's warm start (services_after.c), and
 * what is kept when the MILP finds nothing better in its time (a large
 * night under load may not even finish the LP).
 *
 * Per service and slot, each class's load goes to the deployment that
 * serves it at the lowest cost per request with room left (the energy
 * and carbon of a busy replica on a pool, a replica's instance share of
 * the price on a market, and the start of a replica that did not run
 * there in the slot before, over what it serves in the slot), replicas
 * rounded up; a class goes unserved where its penalty is below that
 * cost or no deployment has room. Once every service's load is routed,
 * min_replicas is made up on the cheapest deployment with room (before
 * the load, where that leaves a service no room). Room is aggregate: a pool's available
 * nodes, a market's quota, less the jobs' demand and the replicas
 * placed; on a pool, the power left under its site's cap (capplan.5 §3.3)
 * by the jobs and the load routed before bounds the load a deployment
 * takes (a replica's busy power follows the load it serves, §10.4); a
 * team's quota (§10.2) less its jobs' use and its replicas placed bounds
 * the replicas of its services on pools. Budgets are not looked at
 * here: a plan that breaks one is retried with min_replicas alone (no
 * load, no busy power), and failing that the caller has no warm start.
 */
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_limits.h"
#include "cp_num.h"
#include "cp_teams.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct room {
    const cp_plan *p;
    double *left;   /* [n_res][3][T] */
    double *power;  /* [n_sites][T] busy W (before PUE) left under the cap */
    cp_teamrows tr;
    double *quota;  /* [tr.n_rows]: of each team's quota row, what is left */
} room;

static double *left_at(const room *rm, int r, int d, int t)
{
    return &rm->left[((size_t)r * CP_DIMS + (size_t)d) * (size_t)rm->p->slots + (size_t)t];
}

/* Replicas of deployment dp that still fit resource r in slot t, at
 * most the largest count of an input (a demand of 1e-300 CPUs would
 * make the quotient overflow a long). */
static long fits(const room *rm, const cp_deploy *dp, int t)
{
    double n = INFINITY;
    for (int d = 0; d < CP_DIMS; d++)
        if (dp->demand[d] > 0)
            n = fmin(n, floor(*left_at(rm, dp->res, d, t) / dp->demand[d] + 1e-9));
    int team = rm->p->in->services[dp->svc].team, dep = (int)(dp - rm->p->ms->deps);
    for (int q = team < 0 ? 0 : rm->tr.first_quota[team]; team >= 0 && q < rm->tr.first_quota[team + 1]; q++) {
        double h = cp_teamrows_dep_use(&rm->tr, dep, q);
        if (h > 0)
            n = fmin(n, floor(fmax(0, rm->quota[q * rm->tr.T + t]) / h + 1e-9));
    }
    return cp_num_clamp_long(n, 0, CP_INPUT_COUNT_MAX);
}

static void take(room *rm, const cp_deploy *dp, int t, long n)
{
    for (int d = 0; d < CP_DIMS; d++)
        *left_at(rm, dp->res, d, t) -= (double)n * dp->demand[d];
    int team = rm->p->in->services[dp->svc].team, dep = (int)(dp - rm->p->ms->deps);
    for (int q = team < 0 ? 0 : rm->tr.first_quota[team]; team >= 0 && q < rm->tr.first_quota[team + 1]; q++)
        rm->quota[q * rm->tr.T + t] -= (double)n * cp_teamrows_dep_use(&rm->tr, dep, q);
}

/* The share of an instance that one replica of dp takes once placed:
 * one over the replicas that fit one instance whole (a 32-GB replica on
 * a 120-GB instance: a third, where the aggregate share says 0.27 and
 * placement then rents a fourth instance for every three; capplan.5
 * §5), the aggregate share when none fits. */
static double placed_share(const cp_deploy *dp, const cp_machine *m)
{
    double per = INFINITY;
    for (int d = 0; d < CP_DIMS; d++)
        if (dp->demand[d] > 0)
            per = fmin(per, floor(cp_machine_dim(m, d) / dp->demand[d] + 1e-9));
    return per >= 1 && isfinite(per) ? 1 / per : cp_instance_share(dp->demand, m);
}

/* $ of one replica of deployment dp busy for slot t (capplan.5 §10.1). */
static double replica_cost(const cp_input *in, const cp_modeset *ms, const cp_deploy *dp, int t)
{
    const cp_resource *r = &ms->res[dp->res];
    if (r->kind == CP_RES_POOL)
        return in->sites[r->site].pue * dp->busy_w * in->slot_hours / 1000 * cp_site_kwh_cost(in, r->site, t);
    return placed_share(dp, r->mach) * cp_market_slot_cost(in, r, t);
}

/* The share of a class's load lam that deployment dp may take in slot t
 * within its site's power cap (1: no cap, or a market). */
static double power_share(const room *rm, const cp_deploy *dp, double lam, double rate, int t)
{
    const cp_resource *r = &rm->p->ms->res[dp->res];
    if (r->kind != CP_RES_POOL || dp->busy_w <= 0)
        return 1;
    double w = rm->power[(size_t)r->site * (size_t)rm->p->slots + (size_t)t];
    return isinf(w) ? 1 : fmax(0, w) / (dp->busy_w * lam / rate);
}

/* What the greedy plans: every share from none, min_replicas alone, or
 * the unserved shares of a plan that has replicas and shares already. */
typedef enum how { G_FULL, G_MIN, G_COMPLETE } how;

static void take_load(room *rm, const cp_deploy *dp, double lam, double rate, double share, int t)
{
    const cp_resource *r = &rm->p->ms->res[dp->res];
    if (r->kind == CP_RES_POOL)
        rm->power[(size_t)r->site * (size_t)rm->p->slots + (size_t)t] -= dp->busy_w * lam * share / rate;
}

/* The load that deployment d's replicas in slot t can still take, in
 * replicas (a(d) n less what its shares take, capplan.5 §10.4). */
static double spare(const cp_plan *p, int d, int t)
{
    const cp_deploy *dp = &p->ms->deps[d];
    const double *rate = p->in->services[dp->svc].configs[dp->config].rate;
    double used = 0;
    for (int k = 0; k < p->in->services[dp->svc].n_classes; k++)
        if (rate[k] > 0)
            used += cp_svc_load(p->in, dp->svc, k, t) * *cp_plan_f(p, d, k, t) / rate[k];
    return dp->avail * *cp_plan_n(p, d, t) - used;
}

/* Replicas of deployment d in slot t - 1 beyond those placed in slot t
 * so far: those that may run on without a start. */
static long running_on(const cp_plan *p, int d, int t)
{
    return t > 0 ? (long)*cp_plan_n(p, d, t - 1) - *cp_plan_n(p, d, t) : 0;
}

/* Class k of service v in slot t: its load (its unserved share, to
 * complete) on the replicas running with room left, then on the cheapest
 * deployments. */
static void route_class(room *rm, cp_plan *p, int v, int k, int t, how h)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    const cp_service *sv = &in->services[v];
    double lam = cp_svc_load(in, v, k, t), left = h == G_COMPLETE ? *cp_plan_u(p, v, k, t) : 1;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1] && h != G_MIN && lam > 0; d++) {
        const cp_deploy *dp = &ms->deps[d];
        double rate = sv->configs[dp->config].rate[k];
        if (rate <= 0 || !*cp_plan_n(p, d, t) || left <= 1e-12)
            continue;
        double add = fmin(fmin(left, spare(p, d, t) * rate / lam), power_share(rm, dp, lam, rate, t));
        if (add <= 1e-12)
            continue;
        *cp_plan_f(p, d, k, t) += add;
        take_load(rm, dp, lam, rate, add, t);
        left -= add;
    }
    while (lam > 0 && left > 1e-12 && h != G_MIN) {
        int best = -1;
        double best_c = INFINITY;
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
            const cp_deploy *dp = &ms->deps[d];
            double mu = sv->configs[dp->config].rate[k] * dp->avail;
            if (mu <= 0 || fits(rm, dp, t) < 1 || power_share(rm, dp, lam, sv->configs[dp->config].rate[k], t) < 1e-9)
                continue;
            /* a replica that runs on from slot t - 1 pays no start; a
             * new one does (capplan.5 §10.4): priced per slot alone, the
             * load flipped between two pools as their sites' energy
             * prices crossed, a start each time */
            double c = (replica_cost(in, ms, dp, t) + (running_on(p, d, t) > 0 ? 0 : sv->start_cost)) /
                       (mu * 3600 * in->slot_hours);
            if (c < best_c) {
                best_c = c;
                best = d;
            }
        }
        if (best < 0 || best_c > sv->unserved_penalty)
            break;
        const cp_deploy *dp = &ms->deps[best];
        double rate = sv->configs[dp->config].rate[k], mu = rate * dp->avail;
        double cap = fmin(left, power_share(rm, dp, lam, rate, t));
        /* mu may be 1e-300 requests/s: want is then past any count */
        long want = cp_num_clamp_long(ceil(lam * cap / mu - 1e-9), 0, CP_INPUT_COUNT_MAX);
        long n = fits(rm, dp, t), on = running_on(p, best, t);
        n = n < want ? n : want;
        /* the running replicas first, then (priced again) new ones */
        n = on > 0 && on < n ? on : n;
        double share = fmin(cap, n * mu / lam);
        take(rm, dp, t, n);
        take_load(rm, dp, lam, rate, share, t);
        *cp_plan_n(p, best, t) += (int)n;
        *cp_plan_f(p, best, k, t) += share;
        left -= share;
    }
    *cp_plan_u(p, v, k, t) = lam > 0 ? fmax(0, left) : 0;
}

/* Service v's min_replicas in slot t, on the cheapest deployments:
 * false when there is no room for them. */
static bool min_replicas(room *rm, cp_plan *p, int v, int t)
{
    const cp_modeset *ms = p->ms;
    long have = 0, need = cp_num_clamp_long(cp_series_at(&p->in->services[v].min_replicas, t), 0,
                                            CP_INPUT_COUNT_MAX);
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
        have += *cp_plan_n(p, d, t);
    while (have < need) {
        int best = -1;
        double best_c = INFINITY;
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
            double c = ms->res[ms->deps[d].res].kind == CP_RES_POOL ? 0 : replica_cost(p->in, ms, &ms->deps[d], t);
            if (fits(rm, &ms->deps[d], t) >= 1 && c < best_c) {
                best_c = c;
                best = d;
            }
        }
        if (best < 0)
            return false;
        take(rm, &ms->deps[best], t, 1);
        (*cp_plan_n(p, best, t))++;
        have++;
    }
    return true;
}

/* What a replica of service v costs off the pools: its cheapest market
 * deployment's instance share per request/s it serves, averaged over the
 * slots (INFINITY: the service has no market, the pools alone hold it). */
static double market_alternative(const cp_plan *p, int v)
{
    const cp_modeset *ms = p->ms;
    const cp_service *sv = &p->in->services[v];
    double best = INFINITY;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
        const cp_deploy *dp = &ms->deps[d];
        if (ms->res[dp->res].kind == CP_RES_POOL)
            continue;
        double mu = 0, c = 0;
        for (int k = 0; k < sv->n_classes; k++)
            mu = fmax(mu, sv->configs[dp->config].rate[k] * dp->avail);
        for (int t = 0; t < p->slots; t++)
            c += replica_cost(p->in, ms, dp, t) / p->slots;
        if (mu > 0)
            best = fmin(best, c / mu);
    }
    return best;
}

typedef struct keyed {
    double key;
    int v;
} keyed;

static int by_key_desc(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return x->key > y->key ? -1 : x->key < y->key ? 1 : x->v - y->v;
}

void cp_services_by_key(const double *key, int n, int *order)
{
    keyed *k = cp_malloc((size_t)(n ? n : 1) * sizeof *k);
    for (int v = 0; v < n; v++)
        order[v] = v;
    if (!k)
        return;
    for (int v = 0; v < n; v++)
        k[v] = (keyed){key[v], v};
    qsort(k, (size_t)n, sizeof *k, by_key_desc);
    for (int v = 0; v < n; v++)
        order[v] = k[v].v;
    cp_free(k);
}

/* The order in which the services' load takes the room left: the pools
 * are the cheap capacity that all share, so the services whose load
 * costs most off them (on-demand instances; no market at all) route
 * first, and a preemptible service, whose spot replicas cost a fifth of
 * that, takes what they leave (bench/gen --services 100 1 0, in index
 * order, gave the pools to whichever came first: docs/performance.md,
 * "Services"). */
static void service_order(const cp_plan *p, int *order)
{
    int n = p->in->n_services;
    double *key = cp_malloc((size_t)(n ? n : 1) * sizeof *key);
    for (int v = 0; v < n; v++)
        order[v] = v;
    if (!key)
        return;
    for (int v = 0; v < n; v++)
        key[v] = market_alternative(p, v);
    cp_services_by_key(key, n, order);
    cp_free(key);
}

/* The busy W left under each site's cap by the jobs and services of p:
 * INFINITY where there is no cap. */
static int power_left(const cp_plan *p, double *w)
{
    const cp_input *in = p->in;
    cp_plan_figures f;
    if (cp_plan_eval(p, &f, NULL))
        return CP_ERR_NOMEM;
    for (int s = 0; s < in->n_sites; s++)
        for (int t = 0; t < p->slots; t++) {
            size_t i = (size_t)s * (size_t)p->slots + (size_t)t;
            const cp_site *st = &in->sites[s];
            w[i] = st->power_cap_kw.set
                       ? (cp_series_at(&st->power_cap_kw, t) - f.site_power_kw[i]) * 1000 / st->pue
                       : INFINITY;
        }
    cp_plan_figures_release(&f);
    return CP_OK;
}

static void room_release(room *rm)
{
    cp_free(rm->left);
    cp_free(rm->power);
    cp_free(rm->quota);
    cp_teamrows_release(&rm->tr);
}

/* The room plan p's jobs leave: units, power under the caps, the teams'
 * quotas. CP_OK or CP_ERR_NOMEM (rm released). */
static int room_init(room *rm, const cp_plan *p)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int T = p->slots;
    memset(rm, 0, sizeof *rm);
    rm->p = p;
    rm->left = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1) * CP_DIMS * (size_t)T, sizeof(double));
    rm->power = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1) * (size_t)T, sizeof(double));
    if (!rm->left || !rm->power || power_left(p, rm->power) || cp_teamrows_init(&rm->tr, in, ms, 1.0) ||
        !(rm->quota = cp_calloc((size_t)rm->tr.n_rows + 1, sizeof(double))) ||
        cp_plan_team_use(p, &rm->tr, false, rm->quota)) {
        room_release(rm);
        return CP_ERR_NOMEM;
    }
    for (int k = 0; k < rm->tr.n_rows; k++)
        rm->quota[k] = rm->tr.rhs[k] - rm->quota[k];
    for (int r = 0; r < ms->n_res; r++)
        for (int t = 0; t < T; t++) {
            const cp_resource *res = &ms->res[r];
            double units = res->kind == CP_RES_POOL ? cp_series_at(&in->pools[res->index].available, t)
                                                    : cp_market_quota(in, res, t);
            for (int d = 0; d < CP_DIMS; d++)
                *left_at(rm, r, d, t) = units * cp_machine_dim(res->mach, d);
        }
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        const cp_mode *m = &ms->modes[p->mode[j]];
        for (int t = p->start[j]; t < p->start[j] + m->slots && t < T; t++)
            for (int d = 0; d < CP_DIMS; d++)
                *left_at(rm, m->res, d, t) -= m->demand[d];
    }
    for (int d = 0; d < ms->n_deps; d++)
        for (int t = 0; t < T; t++)
            take(rm, &ms->deps[d], t, *cp_plan_n(p, d, t));
    return CP_OK;
}

/* min_first: every service's min_replicas before any load; else each
 * service's min_replicas after all the load (*short: some had no room) */
static int build(cp_plan *p, how h, bool min_first, bool *short_of_room)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    int T = p->slots;
    if (h != G_COMPLETE) {
        memset(p->svc_n, 0, (size_t)ms->n_deps * (size_t)T * sizeof *p->svc_n);
        memset(p->svc_f, 0, (size_t)ms->n_shares * (size_t)T * sizeof *p->svc_f);
        memset(p->svc_u, 0, (size_t)ms->n_classes * (size_t)T * sizeof *p->svc_u);
    }
    /* a re-plan's history is OLD's (capplan.5 §10.5): kept, and planned
     * from S on only */
    cp_plan_keep_history(p);
    int t0 = ms->replan ? ms->replan->now : 0;
    room rm;
    if (room_init(&rm, p))
        return CP_ERR_NOMEM;
    /* min_replicas on the pools' room before any load gave a preemptible
     * service's replica a pool slot that a service on demand then rented
     * an instance for (bench/gen --services 100 1 0: 33 such replicas in
     * every slot, $1,014 of on-demand instances where the joint LP rents
     * none), so the load routes first and min_replicas is made up after
     * it, mostly by the replicas the load has; where that leaves a
     * service no room for its min_replicas (routed one by one, the first
     * services' load can fill the fleet), the caller builds again with
     * every min_replicas first, the load going to them first */
    int *order = cp_malloc((size_t)(in->n_services ? in->n_services : 1) * sizeof *order);
    if (order)
        service_order(p, order);
    *short_of_room = false;
    for (int i = 0; i < in->n_services && min_first; i++)
        for (int t = t0; t < T; t++)
            min_replicas(&rm, p, order ? order[i] : i, t);
    for (int i = 0; i < in->n_services; i++)
        for (int t = t0; t < T; t++)
            for (int k = 0; k < in->services[order ? order[i] : i].n_classes; k++)
                route_class(&rm, p, order ? order[i] : i, k, t, h);
    for (int i = 0; i < in->n_services && !min_first; i++)
        for (int t = t0; t < T; t++)
            if (!min_replicas(&rm, p, order ? order[i] : i, t))
                *short_of_room = true;
    cp_free(order);
    room_release(&rm);
    cp_plan_min_instances(p);
    return CP_OK;
}

int cp_services_greedy(cp_plan *p, bool *ok, char *why, size_t why_size)
{
    *ok = false;
    bool short_of_room = false;
    for (int pass = 0; pass < 3 && !*ok; pass++) {
        /* the load first; then, where that left a min_replicas no room
         * or the plan breaks a limit, every min_replicas first; then
         * min_replicas alone */
        if (build(p, pass == 2 ? G_MIN : G_FULL, pass > 0, &short_of_room))
            return CP_ERR_NOMEM;
        *ok = !short_of_room && cp_plan_is_feasible(p, why, why_size);
    }
    return CP_OK;
}

int cp_services_complete(cp_plan *p, bool *ok)
{
    bool short_of_room;
    if (build(p, G_COMPLETE, true, &short_of_room))
        return CP_ERR_NOMEM;
    *ok = cp_plan_is_feasible(p, NULL, 0);
    return CP_OK;
}
