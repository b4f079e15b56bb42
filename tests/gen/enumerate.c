/*
 * enumerate: the exact optimum of a small instance by exhaustive search,
 * an oracle for tests/suite_property.sh that shares nothing with the
 * solvers.
 *
 *   build/enumerate FILE...
 *
 * It reads the input through the library's loader and mode builder (what
 * a mode is — demand, duration, slots, last-slot fraction, allowed
 * starts — has one definition, capplan.5 §2), and does everything else itself:
 * it tries every choice of (mode, start) or drop for every job, rents in
 * each market and slot the fewest instances that hold the demand, checks
 * capplan.5 §3 (pool capacity per dimension, quotas, power caps, budget) and
 * computes the capplan.5 §4 total (cloud, energy with the idle baseline,
 * carbon, penalties), with its own busy-power arithmetic. Version 1.1: the
 * busy power of a mode's shape (9.1) and power limit (10.3), egress
 * where a job's resource is
 * not at its data's site (9.3; counted by the budget too), and
 * precedence (9.2): a scheduled job's predecessors are scheduled and end
 * by its start, checked on every decided pair (a broken pair stays
 * broken, so such a branch is cut like any other). Version 1.2: teams'
 * quotas per slot and budgets on their jobs' attributed cost (§10.2),
 * with its own cost arithmetic.
 *
 * The search is a depth-first walk over jobs. A branch is cut when it
 * already breaks a constraint or already costs at least the best total
 * found: every constraint and every cost term only grows as jobs are
 * added (prices and powers are non-negative), so no completion of such
 * a branch can be feasible or better. Nothing else is pruned.
 *
 * Services (capplan.5 §10.4): after the jobs, the walk tries every
 * replica count n(d,t) of every deployment d (the library's, as modes
 * are) and slot, from 0 to the most that can matter: the most one
 * resource holds, and no more than min_replicas or enough replicas to
 * serve all the load d's configuration serves in any slot (clipping a
 * plan's counts there keeps it feasible and costs no more: starts,
 * rents, quotas and caps only shrink). For each choice of counts the
 * routing is a linear program (shares, unserved, capacity a_d·n, the
 * sites' power caps with the jobs' busy power, the budgets with the
 * replicas' busy energy), which the oracle writes itself and solves
 * with GLPK's simplex: the exact optimum for those counts. Replicas
 * take their units in the capacity rows and the instances, their
 * accelerators or CPUs in their team's quotas, their rents and starts
 * in the budgets. A branch is cut as the jobs' are; the routing's
 * cost (busy energy and unserved penalty) is >= 0, so the cost without
 * it is a lower bound.
 *
 * Placement (capplan.5 §5) is not modelled: the oracle gives the optimum of
 * capplan.5 §3-4, which equals the optimum of a placed plan when every pool has
 * one node and every market at most one instance per slot (geninst -e).
 *
 * Prints `optimum TOTAL cloud C energy E carbon K penalty P egress G` (%.17g),
 * then `starts S unserved U` when the input has services, and
 * `leaves N`, or `infeasible` (no choice meets the caps or the budget:
 * only the plan-independent baseline can cause that). Exit 0; 2 on bad
 * input; 4 when the search passes CP_ENUM_MAX_NODES (default 5e7).
 */
#include "cp_cli.h"
#include "cp_modes.h"

#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-9

static const cp_input *in;
static const cp_modeset *ms;
static int T;
static double h;

/* state of the walk */
static double *dem;     /* [n_res][T][CP_DIMS]: demand running on each resource */
static double *busy_w;  /* [n_sites][T]: busy power on pools x busy fraction (W) */
static int *choice;     /* [n_jobs]: mode index or -1 */
static int *start;      /* [n_jobs] */
static double best = INFINITY;
enum { P_CLOUD, P_ENERGY, P_CARBON, P_PENALTY, P_EGRESS, P_STARTS, P_UNSERVED, NP };
static double best_parts[NP];
/* services: replicas n(d,t) of the cells decided so far (slot-major:
 * cell t * n_deps + d), the most that can matter per deployment */
static int *rep, *rep_max;
static int cells; /* cells decided */
static long long nodes, leaves, max_nodes;

static double *D(int r, int t)
{
    return dem + ((size_t)r * T + t) * CP_DIMS;
}

/* capplan.5 §2 busy power (W, before PUE) of mode m on its pool. */
static double busy_power(const cp_mode *m)
{
    const cp_job *j = &in->jobs[m->job];
    const cp_machine *node = ms->res[m->res].mach;
    double acc_dyn = 0;
    if (node->acc >= 0) /* under a power limit the board draws the limit's power_w */
        acc_dyn = (m->limit >= 0 ? j->power_limits[m->limit].power_w : in->accels[node->acc].power_w) -
                  in->accels[node->acc].idle_power_w;
    double node_dyn = node->power_w - node->idle_power_w;
    if (j->kind == CP_JOB_TRAINING) /* the cpus of the mode's shape (capplan.5 §9.1) */
        return m->count * acc_dyn +
               m->count * j->shapes[m->shape].cpus_per_accelerator * node_dyn / node->cpus;
    return m->count * (node->accelerators * acc_dyn + node_dyn);
}

static double baseline_w(int s, int t)
{
    double w = 0;
    for (int p = 0; p < in->n_pools; p++) {
        const cp_pool *pl = &in->pools[p];
        if (pl->site != s)
            continue;
        double idle = pl->node.idle_power_w;
        if (pl->node.acc >= 0)
            idle += pl->node.accelerators * in->accels[pl->node.acc].idle_power_w;
        w += cp_series_at(&pl->available, t) * idle;
    }
    return w;
}

/* Instances market r needs in slot t (the fewest that hold the demand),
 * or -1 when a dimension the instance lacks is demanded. */
static int instances(int r, int t)
{
    const cp_machine *mc = ms->res[r].mach;
    double cap[CP_DIMS] = {mc->accelerators, mc->cpus, mc->memory_gb};
    int y = 0;
    for (int d = 0; d < CP_DIMS; d++) {
        double v = D(r, t)[d];
        if (v <= TOL)
            continue;
        if (cap[d] <= 0)
            return -1;
        int n = (int)ceil(v / cap[d] - 1e-9);
        if (n > y)
            y = n;
    }
    return y;
}

/* capplan.5 §9.3: what job j's run on resource r costs in egress. */
static double egress_of(int j, int r)
{
    const cp_job *jb = &in->jobs[j];
    if (jb->data_site < 0)
        return 0;
    const cp_resource *rs = &ms->res[r];
    int site = rs->kind == CP_RES_POOL ? in->pools[rs->index].site : in->offers[rs->index].site;
    return site == jb->data_site ? 0 : jb->data_gb * in->sites[jb->data_site].egress_per_gb;
}

/* capplan.5 §9.2 among the decided jobs [0, decided): false when a scheduled
 * job has a dropped predecessor or one that has not ended by its start. */
static bool precedence_ok(int decided)
{
    for (int j = 0; j < decided; j++) {
        if (choice[j] < 0)
            continue;
        for (int a = 0; a < in->jobs[j].n_after; a++) {
            int i = in->jobs[j].after[a];
            if (i >= decided)
                continue; /* checked once it is decided */
            if (choice[i] < 0 || start[i] + ms->modes[choice[i]].slots > start[j])
                return false;
        }
    }
    return true;
}

/* What job j's run (mode mi from s) costs it (capplan.5 §10.1): on a pool
 * the energy and carbon of its busy power, on a market its share of the
 * instances (the fullest dimension) at each slot's price and instance
 * carbon, plus egress. */
static double attributed(int j, int mi, int s)
{
    const cp_mode *m = &ms->modes[mi];
    const cp_resource *rs = &ms->res[m->res];
    double cost = egress_of(j, m->res), cprice = in->carbon_price_per_ton / 1e6;
    if (rs->kind == CP_RES_POOL) {
        const cp_site *st = &in->sites[rs->site];
        double bw = busy_power(m);
        for (int t = s; t < s + m->slots; t++) {
            double frac = t == s + m->slots - 1 ? m->last_frac : 1;
            double kwh = st->pue * bw * frac * h / 1000;
            cost += kwh * (cp_series_at(&st->energy_price, t) +
                           cp_series_at(&st->carbon_intensity, t) * cprice);
        }
        return cost;
    }
    const cp_offer *of = &in->offers[rs->index];
    double cap[CP_DIMS] = {of->inst.accelerators, of->inst.cpus, of->inst.memory_gb}, share = 0;
    for (int d = 0; d < CP_DIMS; d++)
        if (cap[d] > 0 && m->demand[d] / cap[d] > share)
            share = m->demand[d] / cap[d];
    double price = rs->kind == CP_RES_SPOT ? of->spot_price_hour : of->price_hour;
    for (int t = s; t < s + m->slots; t++) {
        double slot = price * h;
        if (of->site >= 0) {
            const cp_site *st = &in->sites[of->site];
            slot += of->inst.power_w * st->pue * h / 1000 * cp_series_at(&st->carbon_intensity, t) *
                    cprice;
        }
        cost += share * slot;
    }
    return cost;
}

/* ---- services (capplan.5 §10.4) ------------------------------------- */

/* The replicas of deployment d in slot t, 0 while undecided. */
static int reps(int d, int t)
{
    int i = t * ms->n_deps + d;
    return i < cells ? rep[i] : 0;
}

/* A replica's busy power at its full rate (W, before PUE): the
 * accelerators' and its CPUs' share of the node's dynamic power on a
 * pool, none on a market. */
static double dep_busy_w(const cp_deploy *dp)
{
    const cp_resource *rs = &ms->res[dp->res];
    if (rs->kind != CP_RES_POOL)
        return 0;
    const cp_machine *node = rs->mach;
    const cp_svc_config *g = &in->services[dp->svc].configs[dp->config];
    double w = g->count * (in->accels[node->acc].power_w - in->accels[node->acc].idle_power_w);
    if (node->cpus > 0)
        w += g->cpus * (node->power_w - node->idle_power_w) / node->cpus;
    return w;
}

/* $ of energy (and in *carbon, of carbon) of one replica's full-rate
 * busy power for slot t. */
static double dep_energy(const cp_deploy *dp, int t, double *carbon)
{
    const cp_resource *rs = &ms->res[dp->res];
    *carbon = 0;
    if (rs->kind != CP_RES_POOL)
        return 0;
    const cp_site *st = &in->sites[rs->site];
    double kwh = st->pue * dep_busy_w(dp) * h / 1000;
    *carbon = kwh * cp_series_at(&st->carbon_intensity, t) * in->carbon_price_per_ton / 1e6;
    return kwh * cp_series_at(&st->energy_price, t);
}

/* capplan.5 §10.1: one replica's share of its instance (its fullest
 * dimension) x the slot's price and carbon; 0 on a pool. */
static double dep_rent(const cp_deploy *dp, int t)
{
    const cp_resource *rs = &ms->res[dp->res];
    if (rs->kind == CP_RES_POOL)
        return 0;
    const cp_offer *of = &in->offers[rs->index];
    double cap[CP_DIMS] = {of->inst.accelerators, of->inst.cpus, of->inst.memory_gb}, share = 0;
    for (int k = 0; k < CP_DIMS; k++)
        if (cap[k] > 0 && dp->demand[k] / cap[k] > share)
            share = dp->demand[k] / cap[k];
    double slot = (rs->kind == CP_RES_SPOT ? of->spot_price_hour : of->price_hour) * h;
    if (of->site >= 0) {
        const cp_site *st = &in->sites[of->site];
        slot += of->inst.power_w * st->pue * h / 1000 * cp_series_at(&st->carbon_intensity, t) *
                in->carbon_price_per_ton / 1e6;
    }
    return share * slot;
}

/* Starts of the decided cells of the services of team `team` (-2: every
 * service), plus with `rent` their replicas' market shares. */
static double svc_fixed(int team, bool rent)
{
    double c = 0;
    for (int d = 0; d < ms->n_deps; d++) {
        const cp_deploy *dp = &ms->deps[d];
        const cp_service *sv = &in->services[dp->svc];
        if (team != -2 && sv->team != team)
            continue;
        for (int t = 0; t < T; t++) {
            int n = reps(d, t), prev = t ? reps(d, t - 1) : 0;
            if (n > prev)
                c += sv->start_cost * (n - prev);
            if (rent)
                c += n * dep_rent(dp, t);
        }
    }
    return c;
}

/* What the replicas of team k's services hold of quota q in slot t. */
static double svc_quota_held(int k, const cp_team_quota *q, int t)
{
    double held = 0;
    for (int d = 0; d < ms->n_deps; d++) {
        const cp_deploy *dp = &ms->deps[d];
        const cp_resource *rs = &ms->res[dp->res];
        if (in->services[dp->svc].team != k || rs->kind != CP_RES_POOL)
            continue;
        if (q->acc < 0)
            held += reps(d, t) * dp->demand[CP_DIM_CPU];
        else if (rs->mach->acc == q->acc)
            held += reps(d, t) * dp->demand[CP_DIM_ACC];
    }
    return held;
}

/* The most replicas of deployment d that can matter (see the top). */
static int dep_max(int d)
{
    const cp_deploy *dp = &ms->deps[d];
    const cp_resource *rs = &ms->res[dp->res];
    const cp_service *sv = &in->services[dp->svc];
    const cp_machine *mc = rs->mach;
    double cap[CP_DIMS] = {mc->accelerators, mc->cpus, mc->memory_gb};
    int per_unit = 1 << 20;
    for (int k = 0; k < CP_DIMS; k++)
        if (dp->demand[k] > 0 && (int)floor(cap[k] / dp->demand[k] + 1e-9) < per_unit)
            per_unit = (int)floor(cap[k] / dp->demand[k] + 1e-9);
    int units = cp_resource_max_units(in, rs->kind, rs->index), need = 0;
    for (int t = 0; t < T; t++) {
        int mn = (int)cp_series_at(&sv->min_replicas, t);
        double x = 0;
        for (int k = 0; k < sv->n_classes; k++)
            if (sv->configs[dp->config].rate[k] > 0)
                x += cp_svc_load(in, dp->svc, k, t) / sv->configs[dp->config].rate[k];
        int nx = dp->avail > 0 ? (int)ceil(x / dp->avail - 1e-9) : 0;
        need = mn > need ? mn : need;
        need = nx > need ? nx : need;
    }
    return units * per_unit < need ? units * per_unit : need;
}

/* Every service's replicas in slot t at least its min_replicas. */
static bool min_ok(int t)
{
    for (int v = 0; v < in->n_services; v++) {
        int n = 0;
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
            n += reps(d, t);
        if (n < cp_series_at(&in->services[v].min_replicas, t))
            return false;
    }
    return true;
}

/* What job j (running mode m from s) holds of team quota q in slot t. */
static double quota_held(const cp_team_quota *q, int j, int t)
{
    const cp_mode *m = &ms->modes[choice[j]];
    const cp_resource *rs = &ms->res[m->res];
    if (rs->kind != CP_RES_POOL || t < start[j] || t >= start[j] + m->slots)
        return 0;
    if (q->acc < 0)
        return m->demand[CP_DIM_CPU];
    return rs->mach->acc == q->acc ? m->demand[CP_DIM_ACC] : 0;
}

/* The attributed cost of team k's decided jobs and its services' starts
 * and rents (their busy energy is the routing's). */
static double team_spent(int k, int decided)
{
    double spent = svc_fixed(k, true);
    for (int j = 0; j < decided; j++)
        if (choice[j] >= 0 && in->jobs[j].team == k)
            spent += attributed(j, choice[j], start[j]);
    return spent;
}

/* Teams (capplan.5 §10.2) among the decided jobs: every quota in every
 * slot (what the team's jobs hold on pools of that type, or their CPUs)
 * and every budget (the attributed cost of its jobs). */
static bool teams_ok(int decided)
{
    for (int k = 0; k < in->n_teams; k++) {
        const cp_team *tm = &in->teams[k];
        for (int q = 0; q < tm->n_quota; q++)
            for (int t = 0; t < T; t++) {
                double held = svc_quota_held(k, &tm->quota[q], t);
                for (int j = 0; j < decided; j++)
                    if (choice[j] >= 0 && in->jobs[j].team == k)
                        held += quota_held(&tm->quota[q], j, t);
                double lim = cp_series_at(&tm->quota[q].limit, t);
                if (held > lim + TOL * (1 + lim))
                    return false;
            }
        if (!tm->has_budget)
            continue;
        if (team_spent(k, decided) > tm->budget + TOL * (1 + tm->budget))
            return false;
    }
    return true;
}

/* Checks capplan.5 §3 for the jobs chosen so far and costs them (plus the
 * baseline and the penalties of the jobs dropped so far; jobs not yet
 * decided cost nothing). Returns false when a constraint is broken. */
static bool evaluate(int decided, double parts[NP])
{
    double cloud = 0, energy = 0, carbon_kg = 0, penalty = 0, egress = 0, starts = svc_fixed(-2, false);
    if (!precedence_ok(decided) || !teams_ok(decided))
        return false;
    for (int j = 0; j < decided; j++)
        if (choice[j] >= 0)
            egress += egress_of(j, ms->modes[choice[j]].res);
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *rs = &ms->res[r];
        for (int t = 0; t < T; t++) {
            if (rs->kind == CP_RES_POOL) {
                const cp_pool *pl = &in->pools[rs->index];
                double av = cp_series_at(&pl->available, t);
                double cap[CP_DIMS] = {av * pl->node.accelerators, av * pl->node.cpus,
                                       av * pl->node.memory_gb};
                for (int d = 0; d < CP_DIMS; d++)
                    if (D(r, t)[d] > cap[d] + TOL * (1 + cap[d]))
                        return false;
                continue;
            }
            const cp_offer *of = &in->offers[rs->index];
            int y = instances(r, t);
            if (y < 0)
                return false;
            double quota = cp_series_at(rs->kind == CP_RES_SPOT ? &of->spot_quota : &of->quota, t);
            if (y > quota + TOL)
                return false;
            double price = rs->kind == CP_RES_SPOT ? of->spot_price_hour : of->price_hour;
            cloud += y * price * h;
            if (of->site >= 0) {
                const cp_site *st = &in->sites[of->site];
                double kwh = y * of->inst.power_w * st->pue * h / 1000;
                carbon_kg += kwh * cp_series_at(&st->carbon_intensity, t) / 1000;
            }
        }
    }
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        for (int t = 0; t < T; t++) {
            double w = st->pue * (baseline_w(s, t) + busy_w[(size_t)s * T + t]);
            if (st->power_cap_kw.set) {
                double capw = 1000 * cp_series_at(&st->power_cap_kw, t);
                if (w > capw + TOL * (1 + capw))
                    return false;
            }
            double kwh = w * h / 1000;
            energy += kwh * cp_series_at(&st->energy_price, t);
            carbon_kg += kwh * cp_series_at(&st->carbon_intensity, t) / 1000;
        }
    }
    double carbon = carbon_kg / 1000 * in->carbon_price_per_ton;
    if (in->has_budget &&
        cloud + energy + carbon + egress + starts > in->budget + TOL * (1 + fabs(in->budget)))
        return false;
    for (int j = 0; j < decided; j++)
        if (choice[j] < 0)
            penalty += in->jobs[j].drop_penalty;
    parts[0] = cloud;
    parts[1] = energy;
    parts[2] = carbon;
    parts[3] = penalty;
    parts[4] = egress;
    parts[P_STARTS] = starts;
    parts[P_UNSERVED] = 0;
    return true;
}

static void apply(int m, int s, double sign)
{
    const cp_mode *md = &ms->modes[m];
    const cp_resource *rs = &ms->res[md->res];
    double bw = rs->kind == CP_RES_POOL ? busy_power(md) : 0;
    for (int t = s; t < s + md->slots; t++) {
        for (int d = 0; d < CP_DIMS; d++)
            D(md->res, t)[d] += sign * md->demand[d];
        if (rs->kind == CP_RES_POOL) {
            double frac = t == s + md->slots - 1 ? md->last_frac : 1;
            busy_w[(size_t)rs->site * T + t] += sign * bw * frac;
        }
    }
}

/* LP buffers of route(): per column its deployment, class, slot */
static int *col_d, *col_k, *col_t, *lp_ia, *lp_ja;
static double *lp_ar;
static bool lp_failed;

/* $ per replica at full rate of column i: energy (*e) and carbon (*c). */
static void col_cost(int i, double *e, double *c)
{
    *e = dep_energy(&ms->deps[col_d[i]], col_t[i], c);
}

/* The routing (capplan.5 §10.4) of the decided replicas as a linear
 * program: x, per class, deployment with replicas and slot with load,
 * the load taken in replicas at full rate (its share is x·rate/load).
 * Rows: served <= load per class and slot (the rest is unserved);
 * x <= a_d·n per deployment and slot; the sites' power caps with the
 * baseline and the jobs' busy power; the budget and the teams' budgets
 * with what `parts` and the teams' fixed costs leave. Minimizes busy
 * energy and carbon plus the unserved penalty, and adds them to parts.
 * False when no routing meets the caps and budgets. */
static bool route(double parts[NP])
{
    const int NC = ms->n_classes, D = ms->n_deps;
    double konst = 0;
    int nc = 0, nz = 0;
    for (int t = 0; t < T; t++)
        for (int v = 0; v < in->n_services; v++) {
            const cp_service *sv = &in->services[v];
            for (int k = 0; k < sv->n_classes; k++) {
                double lam = cp_svc_load(in, v, k, t);
                konst += sv->unserved_penalty * lam * 3600 * h;
                for (int d = ms->svc_first[v]; lam > 0 && d < ms->svc_first[v + 1]; d++)
                    if (reps(d, t) > 0 && sv->configs[ms->deps[d].config].rate[k] > 0)
                        col_d[nc] = d, col_k[nc] = k, col_t[nc] = t, nc++;
            }
        }
    parts[P_UNSERVED] = konst;
    if (!nc)
        return true;
    glp_prob *lp = glp_create_prob();
    int r_cap = NC * T, r_pow = r_cap + D * T, r_bud = r_pow + in->n_sites * T;
    glp_add_rows(lp, r_bud + 1 + in->n_teams);
    glp_add_cols(lp, nc);
    for (int r = 1; r <= r_bud + 1 + in->n_teams; r++)
        glp_set_row_bnds(lp, r, GLP_FR, 0, 0);
    for (int i = 0; i < nc; i++) {
        int d = col_d[i], k = col_k[i], t = col_t[i];
        const cp_deploy *dp = &ms->deps[d];
        const cp_service *sv = &in->services[dp->svc];
        const cp_resource *rs = &ms->res[dp->res];
        double mu = sv->configs[dp->config].rate[k], e, c;
        col_cost(i, &e, &c);
        glp_set_col_bnds(lp, i + 1, GLP_LO, 0, 0);
        glp_set_obj_coef(lp, i + 1, e + c - sv->unserved_penalty * mu * 3600 * h);
        int rc = 1 + (ms->class_first[dp->svc] + k) * T + t;
        glp_set_row_bnds(lp, rc, GLP_UP, 0, cp_svc_load(in, dp->svc, k, t));
        lp_ia[++nz] = rc, lp_ja[nz] = i + 1, lp_ar[nz] = mu;
        int rd = 1 + r_cap + d * T + t;
        glp_set_row_bnds(lp, rd, GLP_UP, 0, dp->avail * reps(d, t));
        lp_ia[++nz] = rd, lp_ja[nz] = i + 1, lp_ar[nz] = 1;
        if (rs->kind == CP_RES_POOL && in->sites[rs->site].power_cap_kw.set) {
            const cp_site *st = &in->sites[rs->site];
            double capw = 1000 * cp_series_at(&st->power_cap_kw, t);
            int rp = 1 + r_pow + rs->site * T + t;
            glp_set_row_bnds(lp, rp, GLP_UP, 0, capw + TOL * (1 + capw) -
                             st->pue * (baseline_w(rs->site, t) + busy_w[(size_t)rs->site * T + t]));
            lp_ia[++nz] = rp, lp_ja[nz] = i + 1, lp_ar[nz] = st->pue * dep_busy_w(dp);
        }
        if (in->has_budget && e + c > 0)
            lp_ia[++nz] = 1 + r_bud, lp_ja[nz] = i + 1, lp_ar[nz] = e + c;
        if (sv->team >= 0 && in->teams[sv->team].has_budget && e + c > 0)
            lp_ia[++nz] = 2 + r_bud + sv->team, lp_ja[nz] = i + 1, lp_ar[nz] = e + c;
    }
    if (in->has_budget)
        glp_set_row_bnds(lp, 1 + r_bud, GLP_UP, 0, in->budget + TOL * (1 + fabs(in->budget)) -
                         (parts[P_CLOUD] + parts[P_ENERGY] + parts[P_CARBON] + parts[P_EGRESS] +
                          parts[P_STARTS]));
    for (int k = 0; k < in->n_teams; k++)
        if (in->teams[k].has_budget)
            glp_set_row_bnds(lp, 2 + r_bud + k, GLP_UP, 0, in->teams[k].budget +
                             TOL * (1 + in->teams[k].budget) - team_spent(k, in->n_jobs));
    glp_load_matrix(lp, nz, lp_ia, lp_ja, lp_ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tol_bnd = 1e-10;
    int rc = glp_simplex(lp, &parm);
    bool ok = rc == 0 && glp_get_status(lp) == GLP_OPT;
    if (rc != 0 || (!ok && glp_get_status(lp) != GLP_NOFEAS))
        lp_failed = true;
    for (int i = 0; ok && i < nc; i++) {
        double x = glp_get_col_prim(lp, i + 1), e, c;
        col_cost(i, &e, &c);
        parts[P_ENERGY] += x * e;
        parts[P_CARBON] += x * c;
    }
    /* unserved from each class's row, at least 0: the simplex keeps rows
     * to its tolerance, which the penalty of a request would magnify */
    for (int v = 0; ok && v < in->n_services; v++)
        for (int k = 0; k < in->services[v].n_classes; k++)
            for (int t = 0; t < T; t++) {
                double lam = cp_svc_load(in, v, k, t);
                double got = glp_get_row_prim(lp, 1 + (ms->class_first[v] + k) * T + t);
                parts[P_UNSERVED] -= in->services[v].unserved_penalty * fmin(lam, got) * 3600 * h;
            }
    glp_delete_prob(lp);
    return ok;
}

static double sum(const double parts[NP])
{
    double s = 0;
    for (int i = 0; i < NP; i++)
        s += parts[i];
    return s;
}

static void found(const double parts[NP])
{
    leaves++;
    double total = sum(parts);
    if (total < best) {
        best = total;
        memcpy(best_parts, parts, sizeof best_parts);
    }
}

static void apply_rep(int d, int t, int n, double sign)
{
    for (int k = 0; k < CP_DIMS; k++)
        D(ms->deps[d].res, t)[k] += sign * n * ms->deps[d].demand[k];
}

/* The services' part of the walk, after every job is decided: the
 * replicas of cell `cells` (slot-major), then the routing at the leaf. */
static void walk_svc(void)
{
    if (max_nodes && ++nodes > max_nodes)
        return;
    double parts[NP];
    int D = ms->n_deps;
    if (!evaluate(in->n_jobs, parts))
        return;
    if (D && cells % D == 0 && cells && !min_ok(cells / D - 1))
        return;
    if (sum(parts) >= best - TOL * (1 + fabs(best)))
        return; /* the routing's cost is >= 0 */
    if (cells == D * T) {
        for (int t = 0; t < T; t++)
            if (!min_ok(t))
                return;
        if (route(parts))
            found(parts);
        return;
    }
    int d = cells % D, t = cells / D;
    for (int n = 0; n <= rep_max[d]; n++) {
        rep[cells] = n;
        apply_rep(d, t, n, 1);
        cells++;
        walk_svc();
        cells--;
        apply_rep(d, t, n, -1);
    }
}

static void walk(int j)
{
    if (max_nodes && ++nodes > max_nodes)
        return;
    double parts[NP];
    if (!evaluate(j, parts))
        return;
    if (sum(parts) >= best - TOL * (1 + fabs(best)) && j < in->n_jobs)
        return; /* every completion costs at least this much */
    if (j == in->n_jobs) {
        if (in->n_services)
            walk_svc();
        else
            found(parts);
        return;
    }
    choice[j] = -1;
    walk(j + 1);
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
        for (int s = ms->modes[m].s_min; s <= ms->modes[m].s_max; s++) {
            choice[j] = m;
            start[j] = s;
            apply(m, s, 1);
            walk(j + 1);
            apply(m, s, -1);
            choice[j] = -1;
        }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: enumerate FILE...\n");
        return 2;
    }
    cp_input *input = NULL;
    if (cp_cli_load("enumerate", argv + 1, argc - 1, &input))
        return 2;
    cp_modeset *modes = NULL;
    cp_err err;
    cp_err_init(&err);
    if (cp_modes_build(input, &modes, &err)) {
        cp_err_print(&err, stderr);
        cp_input_free(input);
        return 2;
    }
    in = input;
    ms = modes;
    T = in->slots;
    h = in->slot_hours;
    const char *env = getenv("CP_ENUM_MAX_NODES");
    max_nodes = env ? atoll(env) : 50000000LL;
    dem = calloc((size_t)ms->n_res * T * CP_DIMS + 1, sizeof *dem);
    busy_w = calloc((size_t)in->n_sites * T + 1, sizeof *busy_w);
    choice = calloc((size_t)in->n_jobs + 1, sizeof *choice);
    start = calloc((size_t)in->n_jobs + 1, sizeof *start);
    size_t ncell = (size_t)ms->n_deps * T + 1, ncol = (size_t)ms->n_shares * T + 1;
    rep = calloc(ncell, sizeof *rep);
    rep_max = calloc((size_t)ms->n_deps + 1, sizeof *rep_max);
    col_d = calloc(ncol, sizeof *col_d);
    col_k = calloc(ncol, sizeof *col_k);
    col_t = calloc(ncol, sizeof *col_t);
    lp_ia = calloc(5 * ncol + 1, sizeof *lp_ia);
    lp_ja = calloc(5 * ncol + 1, sizeof *lp_ja);
    lp_ar = calloc(5 * ncol + 1, sizeof *lp_ar);
    for (int d = 0; rep_max && d < ms->n_deps; d++)
        rep_max[d] = dep_max(d);
    glp_term_out(GLP_OFF);
    int rc = 0;
    if (!dem || !busy_w || !choice || !start || !rep || !rep_max || !col_d || !col_k || !col_t ||
        !lp_ia || !lp_ja || !lp_ar) {
        fprintf(stderr, "enumerate: out of memory\n");
        rc = 2;
    } else {
        walk(0);
        if (lp_failed) {
            fprintf(stderr, "enumerate: GLPK's simplex failed on a routing LP\n");
            rc = 4;
        } else if (max_nodes && nodes > max_nodes) {
            fprintf(stderr, "enumerate: more than %lld search nodes; instance too large\n", max_nodes);
            rc = 4;
        } else if (isinf(best)) {
            printf("infeasible\n");
        } else {
            printf("optimum %.17g cloud %.17g energy %.17g carbon %.17g penalty %.17g egress "
                   "%.17g\n",
                   best, best_parts[0], best_parts[1], best_parts[2], best_parts[3], best_parts[4]);
            if (in->n_services)
                printf("starts %.17g unserved %.17g\n", best_parts[P_STARTS], best_parts[P_UNSERVED]);
        }
        printf("leaves %lld nodes %lld\n", leaves, nodes);
    }
    free(dem);
    free(busy_w);
    free(choice);
    free(start);
    free(rep);
    free(rep_max);
    free(col_d);
    free(col_k);
    free(col_t);
    free(lp_ia);
    free(lp_ja);
    free(lp_ar);
    cp_modeset_free(modes);
    cp_input_free(input);
    return rc;
}
