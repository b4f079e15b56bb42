/* Incremental plan bookkeeping; see cp_usage.h. */
#include "usage_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_solver.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define EPS CP_USAGE_EPS

int cp_usage_init(cp_usage *u, const cp_input *in, const cp_modeset *ms)
{
    return cp_usage_init_scaled(u, in, ms, 1.0);
}

void cp_clock_init(cp_clock *c, double deadline, const volatile sig_atomic_t *stop)
{
    c->deadline = deadline;
    c->stop = stop;
    c->asks = 0;
    c->late = false;
}

bool cp_clock_late(cp_clock *c)
{
    if (!c || c->late)
        return c && c->late;
    if (c->asks++ % 64)
        return false;
    c->late = (c->stop && *c->stop) || cp_now_seconds() > c->deadline;
    return c->late;
}

int cp_usage_init_scaled(cp_usage *u, const cp_input *in, const cp_modeset *ms, double scale)
{
    memset(u, 0, sizeof *u);
    u->scale = scale;
    u->in = in;
    u->ms = ms;
    u->T = in->slots;
    size_t nr = (size_t)(ms->n_res ? ms->n_res : 1), ns = (size_t)(in->n_sites ? in->n_sites : 1);
    size_t T = (size_t)u->T;
    u->use = cp_calloc(nr * CP_DIMS * T, sizeof *u->use);
    u->y = cp_calloc(nr * T, sizeof *u->y);
    u->busy = cp_calloc(ns * T, sizeof *u->busy);
    u->allow = cp_calloc(ns * T, sizeof *u->allow);
    u->kwh_cost = cp_calloc(ns * T, sizeof *u->kwh_cost);
    u->slot_cost = cp_calloc(nr * T, sizeof *u->slot_cost);
    if (!u->use || !u->y || !u->busy || !u->allow || !u->kwh_cost || !u->slot_cost) {
        cp_usage_release(u);
        return CP_ERR_NOMEM;
    }
    double base_cost = 0;
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        for (int t = 0; t < u->T; t++) {
            double base = cp_site_baseline_w(in, s, t);
            u->kwh_cost[(size_t)s * T + t] = cp_site_kwh_cost(in, s, t);
            base_cost += st->pue * base * in->slot_hours / 1000 * u->kwh_cost[(size_t)s * T + t];
            u->allow[(size_t)s * T + t] =
                st->power_cap_kw.set
                    ? (1000 * cp_series_at(&st->power_cap_kw, t) / st->pue - base) * scale
                    : INFINITY;
        }
    }
    for (int r = 0; r < ms->n_res; r++)
        if (ms->res[r].kind != CP_RES_POOL)
            for (int t = 0; t < u->T; t++)
                u->slot_cost[(size_t)r * T + t] = cp_market_slot_cost(in, &ms->res[r], t);
    u->spend = base_cost;
    u->change = ms->replan ? cp_replan_change_base(ms->replan) : 0;
    u->budget = in->has_budget ? base_cost + (in->budget - base_cost) * scale : INFINITY;
    if (cp_reduce_modes(u, &u->dominated, &u->n_dominated) ||
        cp_teamrows_init(&u->teams, in, ms, scale)) {
        cp_usage_release(u);
        return CP_ERR_NOMEM;
    }
    u->tuse = cp_calloc((size_t)u->teams.n_rows + 1, sizeof *u->tuse);
    u->trow = cp_calloc((size_t)u->teams.max_coefs + 1, sizeof *u->trow);
    u->tval = cp_calloc((size_t)u->teams.max_coefs + 1, sizeof *u->tval);
    if (!u->tuse || !u->trow || !u->tval) {
        cp_usage_release(u);
        return CP_ERR_NOMEM;
    }
    if (scale < 1)
        return CP_OK;
    if (cp_usage_units_init(u)) {
        cp_usage_release(u);
        return CP_ERR_NOMEM;
    }
    return CP_OK;
}

void cp_usage_release(cp_usage *u)
{
    cp_usage_units_release(u);
    cp_free(u->dominated);
    cp_free(u->use);
    cp_free(u->y);
    cp_free(u->busy);
    cp_free(u->allow);
    cp_free(u->kwh_cost);
    cp_free(u->slot_cost);
    cp_teamrows_release(&u->teams);
    cp_free(u->tuse);
    cp_free(u->trow);
    cp_free(u->tval);
    memset(u, 0, sizeof *u);
}

bool cp_usage_baseline_infeasible(const cp_usage *u, char *why, size_t size)
{
    /* the one rule (models/cp_cost.c): a part of pop's scales every cap's
     * headroom and the budget's by the same share, which keeps its sign */
    return cp_input_contradictions(u->in, NULL, why, size) > 0;
}

int cp_usage_quota(const cp_usage *u, int ri, int t)
{
    return cp_usage_quota_of(u, &u->ms->res[ri], t);
}

double cp_usage_cap(const cp_usage *u, int ri, int d, int t)
{
    const cp_resource *r = &u->ms->res[ri];
    double units = r->kind == CP_RES_POOL ? cp_series_at(&u->in->pools[r->index].available, t) * u->scale
                                          : cp_usage_quota_of(u, r, t);
    return units * cp_machine_dim(r->mach, d);
}

bool cp_usage_start_fits(const cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        for (int d = 0; d < CP_DIMS; d++) {
            double cap = cp_usage_cap(u, m->res, d, t);
            if (m->demand[d] > cap + EPS * (1 + cap))
                return false;
        }
        if (r->kind == CP_RES_POOL) {
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            double allow = u->allow[(size_t)r->site * u->T + t];
            if (m->busy_w * frac > allow + EPS * (1 + fabs(allow)))
                return false;
        }
    }
    return true;
}

static double *use_at(const cp_usage *u, int r, int d)
{
    return &u->use[((size_t)r * CP_DIMS + d) * u->T];
}

/* The team rows of a try (cp_teams.h): false, with the words, when the
 * run would take a team over a quota in some slot or over its budget. */
static bool try_teams(const cp_usage *u, int mi, int s, char *why, size_t size)
{
    int n = cp_teamrows_coefs(&u->teams, mi, s, u->trow, u->tval);
    for (int i = 0; i < n; i++) {
        int row = u->trow[i];
        double cap = u->teams.rhs[row];
        if (u->tuse[row] + u->tval[i] <= cap + EPS * (1 + cap))
            continue;
        if (why) {
            int q, t, k = cp_teamrows_row_team(&u->teams, row, &q, &t);
            const char *team = u->in->teams[k].name;
            if (q >= 0)
                snprintf(why, size, "team '%s' holds %g of its quota of %g %s in slot %d", team,
                         u->tuse[row], cap, cp_teamrows_key(&u->teams, q), t);
            else
                snprintf(why, size, "team '%s' has spent %g of its budget of %g", team,
                         u->tuse[row], cap);
        }
        return false;
    }
    return true;
}

/* The aggregate part of a try: capacity per dimension, power, quota,
 * budget; *delta is exact on pools and a lower estimate on markets when
 * instances are tracked (the exact cost comes from the instances). */
static bool try_agg(const cp_usage *u, int mi, int s, double *delta, char *why, size_t size)
{
    const cp_input *in = u->in;
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    double cost = m->egress; /* capplan.5 §9.3: once per run, and the budget counts it */
    int T = u->T;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        if (r->kind == CP_RES_POOL) {
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_usage_cap(u, m->res, d, t);
                double nu = use_at(u, m->res, d)[t] + m->demand[d];
                if (nu > cap + EPS * (1 + cap)) {
                    if (why)
                        snprintf(why, size, "pool '%s' is full in slot %d", r->name, t);
                    return false;
                }
            }
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            double w = m->busy_w * frac;
            size_t k = (size_t)r->site * T + t;
            if (w > 0 && u->busy[k] + w > u->allow[k] + EPS * (1 + fabs(u->allow[k]))) {
                if (why)
                    snprintf(why, size, "site '%s' is at its power cap in slot %d",
                             in->sites[r->site].name, t);
                return false;
            }
            cost += in->sites[r->site].pue * w * in->slot_hours / 1000 * u->kwh_cost[k];
        } else {
            double need[CP_DIMS];
            int y = u->y[(size_t)m->res * T + t];
            bool within = true;
            for (int d = 0; d < CP_DIMS; d++) {
                need[d] = use_at(u, m->res, d)[t] + m->demand[d];
                within &= need[d] <= y * cp_machine_dim(r->mach, d) + EPS;
            }
            /* the common case, room in the instances already rented, needs
             * no division (this is the hottest loop of the search) */
            if (within && y <= cp_usage_quota_of(u, r, t))
                continue;
            int ny = cp_units_needed(need, r->mach);
            if (ny > cp_usage_quota_of(u, r, t)) {
                if (why)
                    snprintf(why, size, "market '%s' reaches its quota in slot %d", r->id, t);
                return false;
            }
            if (ny > y)
                cost += (ny - y) * u->slot_cost[(size_t)m->res * T + t];
        }
    }
    if (u->spend + cost > u->budget + EPS * (1 + u->budget)) {
        if (why)
            snprintf(why, size, "the budget is spent");
        return false;
    }
    if (u->teams.n_rows && !try_teams(u, mi, s, why, size))
        return false;
    *delta = cost + m->change; /* a re-plan's change: priced, not budgeted (capplan.5 §10.5) */
    return true;
}

/* The concrete part: nodes or instances that hold the run, and the
 * exact cost with them. */
static bool try_units(const cp_usage *u, int mi, int s, double agg, double *delta, char *why, size_t size)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    double ydelta, cost = agg;
    if (!cp_usage_units_fit(u, m, s, &ydelta)) {
        if (why)
            snprintf(why, size, "no %s of '%s' has room from slot %d",
                     r->kind == CP_RES_POOL ? "node" : "instance within the quota", r->id, s);
        return false;
    }
    if (r->kind != CP_RES_POOL)
        cost = ydelta + m->egress + m->change;
    if (u->spend + cost - m->change > u->budget + EPS * (1 + u->budget)) {
        if (why)
            snprintf(why, size, "the budget is spent");
        return false;
    }
    *delta = cost;
    return true;
}

bool cp_usage_try_why(const cp_usage *u, int mi, int s, double *delta, char *why, size_t size)
{
    double agg;
    if (!try_agg(u, mi, s, &agg, why, size))
        return false;
    if (!u->nodes) {
        *delta = agg;
        return true;
    }
    return try_units(u, mi, s, agg, delta, why, size);
}

bool cp_usage_try(const cp_usage *u, int m, int s, double *delta)
{
    return cp_usage_try_why(u, m, s, delta, NULL, 0);
}

static void apply(cp_usage *u, int mi, int s, double sign)
{
    const cp_input *in = u->in;
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    int T = u->T;
    u->spend += sign * m->egress;
    u->change += sign * m->change;
    int nt = cp_teamrows_coefs(&u->teams, mi, s, u->trow, u->tval);
    for (int i = 0; i < nt; i++) {
        double *p = &u->tuse[u->trow[i]];
        *p += sign * u->tval[i];
        if (fabs(*p) < 1e-9)
            *p = 0;
    }
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        double need[CP_DIMS];
        for (int d = 0; d < CP_DIMS; d++) {
            double *p = &use_at(u, m->res, d)[t];
            *p += sign * m->demand[d];
            if (*p < 1e-9)
                *p = 0; /* keep removals from leaving dust */
            need[d] = *p;
        }
        if (r->kind == CP_RES_POOL) {
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            size_t k = (size_t)r->site * T + t;
            double w = sign * m->busy_w * frac;
            u->busy[k] += w;
            u->spend += in->sites[r->site].pue * w * in->slot_hours / 1000 * u->kwh_cost[k];
        } else if (!u->nodes) {
            int *y = &u->y[(size_t)m->res * T + t];
            int ny = cp_units_needed(need, r->mach);
            u->spend += (ny - *y) * u->slot_cost[(size_t)m->res * T + t];
            *y = ny;
        }
    }
}

void cp_usage_add(cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    if (u->nodes) {
        /* callers add only what cp_usage_try accepted, so it fits */
        double yd;
        int k = cp_usage_units_fit(u, m, s, &yd);
        cp_usage_units_take(u, m, s, u->pick, k);
    }
    apply(u, mi, s, 1.0);
}

bool cp_usage_add_on(cp_usage *u, int mi, int s, const int *units, int n)
{
    const cp_mode *m = &u->ms->modes[mi];
    if (u->nodes) {
        if (!cp_usage_units_hold(u, m, s, units, n))
            return false;
        cp_usage_units_take(u, m, s, units, n);
    }
    apply(u, mi, s, 1.0);
    return true;
}

void cp_usage_remove(cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    if (u->nodes)
        cp_usage_units_give(u, m, s);
    apply(u, mi, s, -1.0);
}

int cp_usage_job_units(const cp_usage *u, int j, const int **units)
{
    *units = u->junits ? u->junits[j] : NULL;
    return u->jn ? u->jn[j] : 0;
}

int cp_usage_export_units(const cp_usage *u, cp_plan *plan)
{
    for (int j = 0; j < plan->n_jobs; j++) {
        cp_free(plan->units[j]);
        plan->units[j] = NULL;
        plan->n_units[j] = 0;
        int mi = plan->mode[j];
        if (mi < 0 || !u->nodes)
            continue;
        int k = u->jn[j];
        if (!(plan->units[j] = cp_calloc((size_t)k, sizeof(int))))
            return CP_ERR_NOMEM;
        memcpy(plan->units[j], u->junits[j], (size_t)k * sizeof(int));
        plan->n_units[j] = k;
    }
    plan->pool_units = u->nodes;
    plan->placed = false;
    return CP_OK;
}

typedef struct load_key {
    int job;
    double size;
} load_key;

/* Largest demand first, as placement.c packs. */
static int load_cmp(const void *a, const void *b)
{
    const load_key *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

int cp_usage_load_plan(cp_usage *u, cp_plan *plan)
{
    int dropped = 0, n = 0;
    /* jobs with units first, exactly where they were; the others packed
     * largest first (best fit decreasing), where the order is ours */
    load_key *keys = cp_calloc((size_t)(plan->n_jobs ? plan->n_jobs : 1), sizeof *keys);
    for (int j = 0; j < plan->n_jobs; j++) {
        int mi = plan->mode[j], s = plan->start[j];
        if (mi < 0)
            continue;
        if (plan->pool_units && plan->n_units[j] > 0 &&
            cp_usage_add_on(u, mi, s, plan->units[j], plan->n_units[j]))
            continue;
        const cp_mode *m = &u->ms->modes[mi];
        if (keys) {
            keys[n].job = j;
            keys[n++].size = m->demand[0] * 1e6 + m->demand[1] * 1e3 + m->demand[2];
        } else {
            /* no memory for the order: job order still gives a valid load */
            double c;
            if (cp_usage_try(u, mi, s, &c)) {
                cp_usage_add(u, mi, s);
            } else {
                plan->mode[j] = -1;
                dropped++;
            }
        }
    }
    if (keys)
        qsort(keys, (size_t)n, sizeof *keys, load_cmp);
    for (int q = 0; q < n; q++) {
        int j = keys[q].job, mi = plan->mode[j], s = plan->start[j];
        double c;
        if (cp_usage_try(u, mi, s, &c)) {
            cp_usage_add(u, mi, s);
            continue;
        }
        plan->mode[j] = -1;
        dropped++;
    }
    cp_free(keys);
    return dropped;
}

/* Priced capacity and power of mode m started at s. */
static double opportunity(const cp_usage *u, const cp_prices *pr, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    if (r->kind != CP_RES_POOL)
        return 0;
    double v = 0;
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        for (int d = 0; d < CP_DIMS; d++)
            v += pr->cap[((size_t)m->res * CP_DIMS + d) * u->T + t] * m->demand[d];
        if (pr->power) {
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            v += pr->power[(size_t)r->site * u->T + t] * m->busy_w * frac;
        }
    }
    return v;
}

static bool shared(const cp_usage *u, bool share, int mi)
{
    return share && u->ms->res[u->ms->modes[mi].res].kind != CP_RES_POOL;
}

/* A market run's share of its instances at the slots' prices, plus its
 * egress (cp_usage_best_shared). */
static double share_cost(const cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_machine *mach = u->ms->res[m->res].mach;
    double f = 0;
    for (int d = 0; d < CP_DIMS; d++) {
        double cap = cp_machine_dim(mach, d);
        if (cap > 0)
            f = fmax(f, m->demand[d] / cap);
    }
    double c = 0;
    for (int i = 0; i < m->slots; i++)
        c += u->slot_cost[(size_t)m->res * u->T + s + i];
    return m->egress + m->change + f * c;
}

/* What a candidate is ranked by: its added cost (the aggregate estimate
 * c) plus its opportunity cost under pr, or on a market with `share`
 * its share. */
static double score_of(const cp_usage *u, const cp_prices *pr, bool share, int mi, int s, double c)
{
    if (shared(u, share, mi))
        return share_cost(u, mi, s);
    return c + (pr ? opportunity(u, pr, mi, s) : 0);
}

/* How many candidates past the first that fits get their exact cost:
 * on markets the aggregate estimate can miss what fragmentation adds. */
#define BEST_EXACT 6

/* The cheapest (by cost plus opportunity under pr, when given) feasible
 * (mode, start) of job j. Every column's aggregate cost is cheap; the
 * concrete check is done in order of that cost, on a few candidates. */
static bool best_of(const cp_usage *u, int j, const cp_prices *pr, bool share, int est, int lend,
                    int *mode, int *start, double *delta)
{
    const cp_modeset *ms = u->ms;
    bool found = false;
    double best = INFINITY;
    if (!u->nodes) {
        for (int mi = ms->job_first[j]; mi < ms->job_first[j + 1]; mi++) {
            const cp_mode *m = &ms->modes[mi];
            if (u->dominated && u->dominated[mi])
                continue;
            for (int s = m->s_min > est ? m->s_min : est;
                 s <= m->s_max && s + m->slots <= lend && !cp_clock_late(u->clock); s++) {
                double c;
                if (!try_agg(u, mi, s, &c, NULL, 0))
                    continue;
                double score = score_of(u, pr, share, mi, s, c);
                /* strict: ties keep the earlier (mode, start) */
                if (score < best - 1e-12) {
                    best = score;
                    *mode = mi;
                    *start = s;
                    *delta = c;
                    found = true;
                }
            }
        }
        return found;
    }
    int n = 0;
    cp_cand *cand = u->cand;
    for (int mi = ms->job_first[j]; mi < ms->job_first[j + 1]; mi++) {
        const cp_mode *m = &ms->modes[mi];
        if (u->dominated && u->dominated[mi])
            continue;
        for (int s = m->s_min > est ? m->s_min : est;
             s <= m->s_max && s + m->slots <= lend && !cp_clock_late(u->clock); s++) {
            double c;
            if (!try_agg(u, mi, s, &c, NULL, 0))
                continue;
            cand[n].mode = mi;
            cand[n].start = s;
            cand[n].agg = c;
            cand[n].score = score_of(u, pr, share, mi, s, c);
            n++;
        }
    }
    int exact = 0;
    while (n > 0 && !cp_clock_late(u->clock)) {
        /* next cheapest by estimate; ties: the earlier column */
        int k = 0;
        for (int i = 1; i < n; i++)
            if (cand[i].score < cand[k].score - 1e-12 ||
                (cand[i].score <= cand[k].score + 1e-12 &&
                 (cand[i].mode < cand[k].mode || (cand[i].mode == cand[k].mode && cand[i].start < cand[k].start))))
                k = i;
        cp_cand c = cand[k];
        cand[k] = cand[--n];
        if (found && (c.score >= best - 1e-12 || exact >= BEST_EXACT))
            break;
        double d;
        if (!try_units(u, c.mode, c.start, c.agg, &d, NULL, 0))
            continue;
        exact++;
        double score = shared(u, share, c.mode) ? c.score : c.score - c.agg + d;
        if (score < best - 1e-12) {
            best = score;
            *mode = c.mode;
            *start = c.start;
            *delta = d;
            found = true;
        }
    }
    return found;
}

bool cp_usage_best_priced(const cp_usage *u, int j, const cp_prices *pr, int *mode, int *start,
                          double *delta)
{
    return best_of(u, j, pr, false, 0, INT_MAX, mode, start, delta);
}

bool cp_usage_best_shared(const cp_usage *u, int j, const cp_prices *pr, int *mode, int *start,
                          double *delta)
{
    return best_of(u, j, pr, true, 0, INT_MAX, mode, start, delta);
}

bool cp_usage_best(const cp_usage *u, int j, int *mode, int *start, double *delta)
{
    return best_of(u, j, NULL, false, 0, INT_MAX, mode, start, delta);
}

bool cp_usage_best_in(const cp_usage *u, int j, const cp_prices *pr, bool share, int est, int lend,
                      int *mode, int *start, double *delta)
{
    return best_of(u, j, pr, share, est, lend, mode, start, delta);
}
