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
 * Placement (capplan.5 §5) is not modelled: the oracle gives the optimum of
 * capplan.5 §3-4, which equals the optimum of a placed plan when every pool has
 * one node and every market at most one instance per slot (geninst -e).
 *
 * Prints `optimum TOTAL cloud C energy E carbon K penalty P egress G` (%.17g) and
 * `leaves N`, or `infeasible` (no choice meets the caps or the budget:
 * only the plan-independent baseline can cause that). Exit 0; 2 on bad
 * input; 4 when the search passes CP_ENUM_MAX_NODES (default 5e7).
 */
#include "cp_cli.h"
#include "cp_modes.h"

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
static double best_parts[5]; /* cloud, energy, carbon, penalty, egress */
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

/* Teams (capplan.5 §10.2) among the decided jobs: every quota in every
 * slot (what the team's jobs hold on pools of that type, or their CPUs)
 * and every budget (the attributed cost of its jobs). */
static bool teams_ok(int decided)
{
    for (int k = 0; k < in->n_teams; k++) {
        const cp_team *tm = &in->teams[k];
        for (int q = 0; q < tm->n_quota; q++)
            for (int t = 0; t < T; t++) {
                double held = 0;
                for (int j = 0; j < decided; j++)
                    if (choice[j] >= 0 && in->jobs[j].team == k)
                        held += quota_held(&tm->quota[q], j, t);
                double lim = cp_series_at(&tm->quota[q].limit, t);
                if (held > lim + TOL * (1 + lim))
                    return false;
            }
        if (!tm->has_budget)
            continue;
        double spent = 0;
        for (int j = 0; j < decided; j++)
            if (choice[j] >= 0 && in->jobs[j].team == k)
                spent += attributed(j, choice[j], start[j]);
        if (spent > tm->budget + TOL * (1 + tm->budget))
            return false;
    }
    return true;
}

/* Checks capplan.5 §3 for the jobs chosen so far and costs them (plus the
 * baseline and the penalties of the jobs dropped so far; jobs not yet
 * decided cost nothing). Returns false when a constraint is broken. */
static bool evaluate(int decided, double parts[5])
{
    double cloud = 0, energy = 0, carbon_kg = 0, penalty = 0, egress = 0;
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
        cloud + energy + carbon + egress > in->budget + TOL * (1 + fabs(in->budget)))
        return false;
    for (int j = 0; j < decided; j++)
        if (choice[j] < 0)
            penalty += in->jobs[j].drop_penalty;
    parts[0] = cloud;
    parts[1] = energy;
    parts[2] = carbon;
    parts[3] = penalty;
    parts[4] = egress;
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

static void walk(int j)
{
    if (max_nodes && ++nodes > max_nodes)
        return;
    double parts[5];
    if (!evaluate(j, parts))
        return;
    double total = parts[0] + parts[1] + parts[2] + parts[3] + parts[4];
    if (total >= best - TOL * (1 + fabs(best)) && j < in->n_jobs)
        return; /* every completion costs at least this much */
    if (j == in->n_jobs) {
        leaves++;
        if (total < best) {
            best = total;
            memcpy(best_parts, parts, sizeof parts);
        }
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
    int rc = 0;
    if (!dem || !busy_w || !choice || !start) {
        fprintf(stderr, "enumerate: out of memory\n");
        rc = 2;
    } else {
        walk(0);
        if (max_nodes && nodes > max_nodes) {
            fprintf(stderr, "enumerate: more than %lld search nodes; instance too large\n", max_nodes);
            rc = 4;
        } else if (isinf(best)) {
            printf("infeasible\n");
        } else {
            printf("optimum %.17g cloud %.17g energy %.17g carbon %.17g penalty %.17g egress "
                   "%.17g\n",
                   best, best_parts[0], best_parts[1], best_parts[2], best_parts[3], best_parts[4]);
        }
        printf("leaves %lld nodes %lld\n", leaves, nodes);
    }
    free(dem);
    free(busy_w);
    free(choice);
    free(start);
    cp_modeset_free(modes);
    cp_input_free(input);
    return rc;
}
