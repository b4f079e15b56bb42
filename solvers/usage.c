/* Incremental plan bookkeeping; see cp_usage.h. */
#include "cp_usage.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define EPS 1e-9

static int quota(const cp_usage *u, const cp_resource *r, int t);

int cp_usage_init(cp_usage *u, const cp_input *in, const cp_modeset *ms)
{
    return cp_usage_init_scaled(u, in, ms, 1.0);
}

static int nodes_init(cp_usage *u)
{
    const cp_input *in = u->in;
    const cp_modeset *ms = u->ms;
    size_t T = (size_t)u->T, nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    int maxn = 1;
    u->nfree = cp_calloc((size_t)(ms->n_res ? ms->n_res : 1), sizeof *u->nfree);
    u->junits = cp_calloc(nj, sizeof *u->junits);
    u->jn = cp_calloc(nj, sizeof *u->jn);
    if (!u->nfree || !u->junits || !u->jn)
        goto nomem;
    for (int r = 0; r < ms->n_res; r++) {
        const cp_resource *res = &ms->res[r];
        if (res->kind != CP_RES_POOL)
            continue;
        int n = in->pools[res->index].nodes;
        maxn = n > maxn ? n : maxn;
        double *f = u->nfree[r] = cp_calloc((size_t)(n ? n : 1) * CP_DIMS * T, sizeof *f);
        if (!f)
            goto nomem;
        for (int i = 0; i < n; i++)
            for (int d = 0; d < CP_DIMS; d++)
                for (size_t t = 0; t < T; t++)
                    f[((size_t)i * CP_DIMS + (size_t)d) * T + t] =
                        i < (int)cp_series_at(&in->pools[res->index].available, (int)t) ? cp_machine_dim(res->mach, d)
                                                                                       : -1;
    }
    for (int j = 0; j < in->n_jobs; j++) {
        int mc = 1;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
            mc = ms->modes[m].count > mc ? ms->modes[m].count : mc;
        if (!(u->junits[j] = cp_calloc((size_t)mc, sizeof(int))))
            goto nomem;
    }
    u->pick = cp_calloc((size_t)maxn, sizeof *u->pick);
    u->amount = cp_calloc((size_t)maxn, sizeof *u->amount);
    if (!u->pick || !u->amount)
        goto nomem;
    u->nodes = true;
    return CP_OK;
nomem:
    cp_usage_release(u);
    return CP_ERR_NOMEM;
}

/* How a pool mode splits into portions (placement.c's rule): one
 * accelerator's share for training, one whole machine for dataflow. */
static int portions_of(const cp_usage *u, const cp_mode *m, double per[CP_DIMS], int *full)
{
    const cp_machine *mach = u->ms->res[m->res].mach;
    bool training = u->in->jobs[m->job].kind == CP_JOB_TRAINING;
    for (int d = 0; d < CP_DIMS; d++)
        per[d] = training ? m->demand[d] / m->count : cp_machine_dim(mach, d);
    *full = INT_MAX;
    for (int d = 0; d < CP_DIMS; d++)
        if (per[d] > 0) {
            int a = (int)floor(cp_machine_dim(mach, d) / per[d] + EPS);
            *full = a < *full ? a : *full;
        }
    return m->count;
}

/* Portions node i of pool resource r can take over slots [s, s+len),
 * capped at `want`; -1 marks a node that is down. */
static int node_room(const cp_usage *u, int r, int i, int s, int len, const double per[CP_DIMS], int want)
{
    const double *f = u->nfree[r];
    size_t T = (size_t)u->T;
    int best = want;
    for (int d = 0; d < CP_DIMS; d++) {
        const double *fd = &f[((size_t)i * CP_DIMS + (size_t)d) * T];
        for (int t = s; t < s + len; t++) {
            if (fd[t] < 0)
                return 0;
            if (per[d] <= 0)
                continue;
            int a = (int)floor(fd[t] / per[d] + EPS);
            if (a < best) {
                if (a <= 0)
                    return 0;
                best = a;
            }
        }
    }
    return best;
}

/* Chooses the nodes for mode m at s into u->pick/u->amount; returns how
 * many (0: it does not pack). */
static int pool_fit(const cp_usage *u, const cp_mode *m, int s)
{
    const cp_resource *res = &u->ms->res[m->res];
    int n = u->in->pools[res->index].nodes, full;
    double per[CP_DIMS];
    int portions = portions_of(u, m, per, &full);
    size_t T = (size_t)u->T;
    if (cp_units_needed(m->demand, res->mach) <= 1) {
        int best = -1;
        double best_left = INFINITY;
        for (int i = 0; i < n; i++) {
            if (node_room(u, m->res, i, s, m->slots, per, portions) < portions)
                continue;
            double left = 0;
            for (int d = 0; d < CP_DIMS; d++) {
                double cap = cp_machine_dim(res->mach, d);
                if (cap <= 0)
                    continue;
                const double *fd = &u->nfree[m->res][((size_t)i * CP_DIMS + (size_t)d) * T];
                double mn = INFINITY;
                for (int t = s; t < s + m->slots; t++)
                    mn = fd[t] < mn ? fd[t] : mn;
                left += (mn - m->demand[d]) / cap;
            }
            if (left < best_left - 1e-12) {
                best_left = left;
                best = i;
            }
        }
        if (best < 0)
            return 0;
        u->pick[0] = best;
        u->amount[0] = portions;
        return 1;
    }
    int k = 0, left = portions;
    for (int i = 0; i < n && left >= full && full > 0; i++)
        if (node_room(u, m->res, i, s, m->slots, per, full) >= full) {
            u->pick[k] = i;
            u->amount[k++] = full;
            left -= full;
        }
    if (left > 0) {
        int best = -1, best_room = INT_MAX;
        for (int i = 0; i < n; i++) {
            bool used = false;
            for (int q = 0; q < k; q++)
                used |= u->pick[q] == i;
            if (used)
                continue;
            int room = node_room(u, m->res, i, s, m->slots, per, full);
            if (room >= left && room < best_room) {
                best_room = room;
                best = i;
            }
        }
        if (best < 0)
            return 0;
        u->pick[k] = best;
        u->amount[k++] = left;
    }
    return k;
}

/* Takes (sign 1) or gives back (-1) the job's share on its nodes. */
static void nodes_apply(cp_usage *u, const cp_mode *m, int s, const int *units, const int *amount, int k,
                        double sign)
{
    double per[CP_DIMS];
    int full;
    portions_of(u, m, per, &full);
    size_t T = (size_t)u->T;
    for (int q = 0; q < k; q++)
        for (int d = 0; d < CP_DIMS; d++) {
            double *fd = &u->nfree[m->res][((size_t)units[q] * CP_DIMS + (size_t)d) * T];
            for (int t = s; t < s + m->slots; t++)
                fd[t] -= sign * amount[q] * per[d];
        }
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
    u->budget = in->has_budget ? base_cost + (in->budget - base_cost) * scale : INFINITY;
    return scale < 1 ? CP_OK : nodes_init(u);
}

void cp_usage_release(cp_usage *u)
{
    if (u->nfree)
        for (int r = 0; r < u->ms->n_res; r++)
            cp_free(u->nfree[r]);
    cp_free(u->nfree);
    if (u->junits)
        for (int j = 0; j < u->in->n_jobs; j++)
            cp_free(u->junits[j]);
    cp_free(u->junits);
    cp_free(u->jn);
    cp_free(u->pick);
    cp_free(u->amount);
    cp_free(u->use);
    cp_free(u->y);
    cp_free(u->busy);
    cp_free(u->allow);
    cp_free(u->kwh_cost);
    cp_free(u->slot_cost);
    memset(u, 0, sizeof *u);
}

bool cp_usage_baseline_infeasible(const cp_usage *u, char *why, size_t size)
{
    for (int s = 0; s < u->in->n_sites; s++)
        for (int t = 0; t < u->T; t++)
            if (u->allow[(size_t)s * u->T + t] < -EPS * (1 + fabs(u->allow[(size_t)s * u->T + t]))) {
                snprintf(why, size, "site '%s': the idle baseline alone exceeds its power cap in slot %d",
                         u->in->sites[s].name, t);
                return true;
            }
    if (u->spend > u->budget + EPS * (1 + u->budget)) {
        snprintf(why, size, "the budget (%g $) is below the plan-independent baseline energy cost (%g $)",
                 u->budget, u->spend);
        return true;
    }
    return false;
}

int cp_usage_quota(const cp_usage *u, int ri, int t)
{
    return quota(u, &u->ms->res[ri], t);
}

static int quota(const cp_usage *u, const cp_resource *r, int t)
{
    int q = cp_market_quota(u->in, r, t);
    return u->scale < 1 ? (int)floor(q * u->scale + 1e-9) : q;
}

double cp_usage_cap(const cp_usage *u, int ri, int d, int t)
{
    const cp_resource *r = &u->ms->res[ri];
    double units = r->kind == CP_RES_POOL ? cp_series_at(&u->in->pools[r->index].available, t) * u->scale
                                          : quota(u, r, t);
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

bool cp_usage_try_why(const cp_usage *u, int mi, int s, double *delta, char *why, size_t size)
{
    const cp_input *in = u->in;
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    double cost = 0;
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
            if (i == m->slots - 1 && u->nodes && !pool_fit(u, m, s)) {
                if (why)
                    snprintf(why, size, "no node of pool '%s' has room from slot %d", r->name, s);
                return false;
            }
        } else {
            double need[CP_DIMS];
            for (int d = 0; d < CP_DIMS; d++)
                need[d] = use_at(u, m->res, d)[t] + m->demand[d];
            int ny = cp_units_needed(need, r->mach);
            int y = u->y[(size_t)m->res * T + t];
            if (ny > quota(u, r, t)) {
                if (why)
                    snprintf(why, size, "market '%s' reaches its quota in slot %d", r->id, t);
                return false;
            }
            cost += (ny - y) * u->slot_cost[(size_t)m->res * T + t];
        }
    }
    if (u->spend + cost > u->budget + EPS * (1 + u->budget)) {
        if (why)
            snprintf(why, size, "the budget is spent");
        return false;
    }
    *delta = cost;
    return true;
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
        } else {
            int *y = &u->y[(size_t)m->res * T + t];
            int ny = cp_units_needed(need, r->mach);
            u->spend += (ny - *y) * u->slot_cost[(size_t)m->res * T + t];
            *y = ny;
        }
    }
}

/* Amounts on a job's k units: whole units first, the remainder last. */
static void amounts_of(const cp_usage *u, const cp_mode *m, int k, int *amount)
{
    double per[CP_DIMS];
    int full;
    int portions = portions_of(u, m, per, &full);
    if (k <= 0)
        return;
    if (k == 1) {
        amount[0] = portions;
        return;
    }
    for (int q = 0; q < k - 1; q++)
        amount[q] = full;
    amount[k - 1] = portions - full * (k - 1);
}

static bool on_nodes(const cp_usage *u, const cp_mode *m)
{
    return u->nodes && u->ms->res[m->res].kind == CP_RES_POOL;
}

void cp_usage_add(cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    if (on_nodes(u, m)) {
        /* callers add only what cp_usage_try accepted, so it packs */
        int k = pool_fit(u, m, s);
        nodes_apply(u, m, s, u->pick, u->amount, k, 1.0);
        memcpy(u->junits[m->job], u->pick, (size_t)k * sizeof(int));
        u->jn[m->job] = k;
    }
    apply(u, mi, s, 1.0);
}

bool cp_usage_add_on(cp_usage *u, int mi, int s, const int *units, int n)
{
    const cp_mode *m = &u->ms->modes[mi];
    if (on_nodes(u, m)) {
        if (n < 1 || n > m->count)
            return false;
        double per[CP_DIMS];
        int full;
        portions_of(u, m, per, &full);
        amounts_of(u, m, n, u->amount);
        for (int q = 0; q < n; q++) {
            if (units[q] < 0 || units[q] >= u->in->pools[u->ms->res[m->res].index].nodes)
                return false;
            for (int p = 0; p < q; p++)
                if (units[p] == units[q])
                    return false;
            if (u->amount[q] < 1 || node_room(u, m->res, units[q], s, m->slots, per, u->amount[q]) < u->amount[q])
                return false;
        }
        nodes_apply(u, m, s, units, u->amount, n, 1.0);
        memcpy(u->junits[m->job], units, (size_t)n * sizeof(int));
        u->jn[m->job] = n;
    }
    apply(u, mi, s, 1.0);
    return true;
}

void cp_usage_remove(cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    if (on_nodes(u, m)) {
        int k = u->jn[m->job];
        amounts_of(u, m, k, u->amount);
        nodes_apply(u, m, s, u->junits[m->job], u->amount, k, -1.0);
        u->jn[m->job] = 0;
    }
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
        if (mi < 0 || !on_nodes(u, &u->ms->modes[mi]))
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

int cp_usage_load_plan(cp_usage *u, cp_plan *plan)
{
    int dropped = 0;
    for (int j = 0; j < plan->n_jobs; j++) {
        int mi = plan->mode[j], s = plan->start[j];
        if (mi < 0)
            continue;
        double c;
        if (plan->pool_units && plan->n_units[j] > 0 &&
            cp_usage_add_on(u, mi, s, plan->units[j], plan->n_units[j]))
            continue;
        if (cp_usage_try(u, mi, s, &c)) {
            cp_usage_add(u, mi, s);
            continue;
        }
        plan->mode[j] = -1;
        dropped++;
    }
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

bool cp_usage_best_priced(const cp_usage *u, int j, const cp_prices *pr, int *mode, int *start,
                          double *delta)
{
    bool found = false;
    double best = INFINITY;
    for (int mi = u->ms->job_first[j]; mi < u->ms->job_first[j + 1]; mi++) {
        const cp_mode *m = &u->ms->modes[mi];
        for (int s = m->s_min; s <= m->s_max; s++) {
            double c;
            if (!cp_usage_try(u, mi, s, &c))
                continue;
            double score = c + opportunity(u, pr, mi, s);
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

bool cp_usage_best(const cp_usage *u, int j, int *mode, int *start, double *delta)
{
    bool found = false;
    double best = INFINITY;
    for (int mi = u->ms->job_first[j]; mi < u->ms->job_first[j + 1]; mi++) {
        const cp_mode *m = &u->ms->modes[mi];
        for (int s = m->s_min; s <= m->s_max; s++) {
            double c;
            /* strict: ties keep the earlier (mode, start), deterministically */
            if (cp_usage_try(u, mi, s, &c) && c < best - 1e-12) {
                best = c;
                *mode = mi;
                *start = s;
                found = true;
            }
        }
    }
    if (found)
        *delta = best;
    return found;
}
