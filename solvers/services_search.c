/*
 * The services' improvement search (capplan.5 §10.4): a plan's replicas,
 * shares and unserved shares re-planned a few services at a time, each
 * group by a small MIP over all its slots with every other service, job
 * and instance as it is (docs/search.md, "Services").
 *
 * The greedy (services_greedy.c) sizes each slot on its own, so replicas
 * stop and start again as the load moves; the MIP of a group sees the
 * whole horizon and so keeps a replica through a dip when its start costs
 * more than running it, moves replicas between configurations (GPU
 * types), markets (spot, on-demand) and pools, and re-routes the classes'
 * shares, all in one step. Groups of one service first, then pairs of a
 * service that rents instances with one that holds pool room (the pools
 * are the capacity services share: a pair can trade it).
 *
 * The group's MIP is exact for what the group changes, given the rest:
 * n(d,t) integers within the room that the others leave on each pool
 * (aggregate, per dimension); each market's instances y(r,t) an integer
 * column that holds the others' demand and the group's (so a replica may
 * fill an instance the others rent only in part), at its price and
 * carbon; f's busy energy on pools; starts; unserved requests;
 * min_replicas; a site's power cap, a team's quotas on the pools and its
 * budget (what the others leave of them). The plan a group's answer
 * gives is checked whole
 * (cp_plan_is_feasible) and kept only when feasible and cheaper by
 * cp_plan_eval's exact total. Deterministic: groups in a fixed order,
 * the clock (or a stop) only ends the search early.
 */
#include "solver_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_mip.h"
#include "cp_teams.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a group's MIP may take at most this share of the time left, and this
 * many seconds (a group that GLPK cannot prove in them keeps its best) */
#define GROUP_SHARE 0.25
#define GROUP_SECONDS 1.0
#define GROUP_GAP 1e-6

typedef struct mipbuf {
    int n_rows, n_cols;
    size_t nnz, cap_rows, cap_cols, cap_nz;
    double *row_lo, *row_hi, *obj, *col_lo, *col_hi;
    bool *col_int;
    int *ia, *ja;
    double *ar;
    bool oom;
} mipbuf;

typedef struct search {
    const cp_input *in;
    const cp_modeset *ms;
    int T;
    double *use;   /* [n_res][3][T]: the plan's jobs and replicas */
    int *n_col;    /* [n_deps * T]: column of n(d,t), 0 none */
    int *f_col;    /* [n_shares * T] */
    int *u_col;    /* [n_classes * T] */
    int *s_col;    /* [n_deps * T]: start(d,t) */
    int *y_col;    /* [n_res * T] */
    int *row_res;  /* [n_res * 3 * T]: the group's demand row */
    int *route;    /* [most classes of a service]: a slot's routing rows */
    int *row_site; /* [n_sites * T]: the group's busy power under the cap */
    double *w_left; /* [n_sites * T]: busy W (before PUE) the others leave */
    cp_teamrows tr;
    double *q_left; /* [tr.n_rows]: of each team row, what the others leave */
    int *row_team;  /* [tr.n_rows]: the group's replicas in a quota row */
    mipbuf b;
} search;

static double *use_at(const search *s, int r, int dim, int t)
{
    return &s->use[((size_t)r * CP_DIMS + (size_t)dim) * (size_t)s->T + (size_t)t];
}

static int add_row(mipbuf *b, double lo, double hi)
{
    size_t cap = b->cap_rows;
    if (CP_GROW(b->row_lo, cap, (size_t)b->n_rows + 2)) {
        b->oom = true;
        return 0;
    }
    if (cap != b->cap_rows) {
        double *hi2 = cp_reallocarray(b->row_hi, cap, sizeof *hi2);
        if (!hi2) {
            b->oom = true;
            return 0;
        }
        b->row_hi = hi2;
        b->cap_rows = cap;
    }
    b->n_rows++;
    b->row_lo[b->n_rows] = lo;
    b->row_hi[b->n_rows] = hi;
    return b->n_rows;
}

static int add_col(mipbuf *b, double lo, double hi, double obj, bool integer)
{
    size_t cap = b->cap_cols;
    if (CP_GROW(b->obj, cap, (size_t)b->n_cols + 2)) {
        b->oom = true;
        return 0;
    }
    if (cap != b->cap_cols) {
        double *lo2 = cp_reallocarray(b->col_lo, cap, sizeof *lo2);
        if (lo2)
            b->col_lo = lo2;
        double *hi2 = cp_reallocarray(b->col_hi, cap, sizeof *hi2);
        if (hi2)
            b->col_hi = hi2;
        bool *in2 = cp_reallocarray(b->col_int, cap, sizeof *in2);
        if (in2)
            b->col_int = in2;
        if (!lo2 || !hi2 || !in2) {
            b->oom = true;
            return 0;
        }
        b->cap_cols = cap;
    }
    b->n_cols++;
    b->col_lo[b->n_cols] = lo;
    b->col_hi[b->n_cols] = hi;
    b->obj[b->n_cols] = obj;
    b->col_int[b->n_cols] = integer;
    return b->n_cols;
}

static void add_nz(mipbuf *b, int row, int col, double v)
{
    if (!row || !col || v == 0 || b->oom)
        return;
    size_t cap = b->cap_nz;
    if (CP_GROW(b->ar, cap, b->nnz + 2)) {
        b->oom = true;
        return;
    }
    if (cap != b->cap_nz) {
        int *ia = cp_reallocarray(b->ia, cap, sizeof *ia);
        if (ia)
            b->ia = ia;
        int *ja = cp_reallocarray(b->ja, cap, sizeof *ja);
        if (ja)
            b->ja = ja;
        if (!ia || !ja) {
            b->oom = true;
            return;
        }
        b->cap_nz = cap;
    }
    b->nnz++;
    b->ia[b->nnz] = row;
    b->ja[b->nnz] = col;
    b->ar[b->nnz] = v;
}

static void use_of(search *s, const cp_plan *p)
{
    const cp_modeset *ms = s->ms;
    memset(s->use, 0, (size_t)ms->n_res * CP_DIMS * (size_t)s->T * sizeof *s->use);
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0)
            continue;
        const cp_mode *m = &ms->modes[p->mode[j]];
        for (int t = p->start[j]; t < p->start[j] + m->slots && t < s->T; t++)
            for (int k = 0; k < CP_DIMS; k++)
                *use_at(s, m->res, k, t) += m->demand[k];
    }
    for (int d = 0; d < ms->n_deps; d++)
        for (int t = 0; t < s->T; t++)
            for (int k = 0; k < CP_DIMS; k++)
                *use_at(s, ms->deps[d].res, k, t) += *cp_plan_n(p, d, t) * ms->deps[d].demand[k];
}

/* What resource r holds in dimension k in slot t: a pool's available
 * nodes, a market's quota of instances. */
static double held(const search *s, int r, int k, int t)
{
    const cp_resource *res = &s->ms->res[r];
    double units = res->kind == CP_RES_POOL ? cp_series_at(&s->in->pools[res->index].available, t)
                                            : cp_market_quota(s->in, res, t);
    return units * cp_machine_dim(res->mach, k);
}

/* The row of the group's demand on resource r in dimension k, slot t:
 * on a pool Σ demand·n <= what the others leave; on a market
 * unit·y - Σ demand·n >= the others' demand, y's column made on first use. */
static int res_row(search *s, int r, int k, int t)
{
    int *row = &s->row_res[((size_t)r * CP_DIMS + (size_t)k) * (size_t)s->T + (size_t)t];
    if (*row)
        return *row;
    const cp_resource *res = &s->ms->res[r];
    double others = *use_at(s, r, k, t); /* the group's own were taken out */
    if (res->kind == CP_RES_POOL) {
        *row = add_row(&s->b, -INFINITY, fmax(0, held(s, r, k, t) - others));
        return *row;
    }
    int *y = &s->y_col[(size_t)r * s->T + t];
    if (!*y) {
        double lo = 0, quota = cp_market_quota(s->in, res, t);
        for (int q = 0; q < CP_DIMS; q++)
            if (cp_machine_dim(res->mach, q) > 0)
                lo = fmax(lo, ceil(*use_at(s, r, q, t) / cp_machine_dim(res->mach, q) - 1e-9));
        *y = add_col(&s->b, lo, fmax(lo, quota), cp_market_slot_cost(s->in, res, t), true);
    }
    *row = add_row(&s->b, others, INFINITY);
    add_nz(&s->b, *row, *y, cp_machine_dim(res->mach, k));
    return *row;
}

/* n(d,t) in its team's quota rows (capplan.5 §10.2, §10.4). */
static void quota_entries(search *s, int d, int t, int nc)
{
    int team = s->in->services[s->ms->deps[d].svc].team;
    for (int q = team < 0 ? 0 : s->tr.first_quota[team]; team >= 0 && q < s->tr.first_quota[team + 1]; q++) {
        double h = cp_teamrows_dep_use(&s->tr, d, q);
        int *row = &s->row_team[q * s->T + t];
        if (h <= 0)
            continue;
        if (!*row)
            *row = add_row(&s->b, -INFINITY, fmax(0, s->q_left[q * s->T + t]));
        add_nz(&s->b, *row, nc, h);
    }
}

/* A cost c of column col in service v's team's budget row (capplan.5
 * §10.2: what the team's jobs and services spend, unserved requests
 * aside). */
static void budget_entry(search *s, int v, int col, double c)
{
    int team = s->in->services[v].team, br = team < 0 ? -1 : s->tr.budget_row[team];
    if (br < 0 || c == 0)
        return;
    if (!s->row_team[br])
        s->row_team[br] = add_row(&s->b, -INFINITY, fmax(0, s->q_left[br]));
    add_nz(&s->b, s->row_team[br], col, c);
}

/* Service v's columns and rows, with its own demand out of s->use. */
static void build_service(search *s, int v)
{
    const cp_input *in = s->in;
    const cp_modeset *ms = s->ms;
    const cp_service *sv = &in->services[v];
    mipbuf *b = &s->b;
    int T = s->T;
    double h = in->slot_hours;
    for (int t = 0; t < T; t++) {
        int *route = s->route, nk = sv->n_classes;
        for (int k = 0; k < nk; k++) {
            route[k] = 0;
            double lam = cp_svc_load(in, v, k, t);
            if (lam <= 0)
                continue;
            route[k] = add_row(b, 1, 1);
            int c = add_col(b, 0, 1, sv->unserved_penalty * lam * 3600 * h, false);
            s->u_col[(size_t)(ms->class_first[v] + k) * T + t] = c;
            add_nz(b, route[k], c, 1);
        }
        double lo = cp_series_at(&sv->min_replicas, t);
        int mins = lo > 0 ? add_row(b, lo, INFINITY) : 0;
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
            const cp_deploy *dp = &ms->deps[d];
            const cp_resource *r = &ms->res[dp->res];
            double ub = INFINITY;
            for (int k = 0; k < CP_DIMS; k++)
                if (dp->demand[k] > 0)
                    ub = fmin(ub, floor((held(s, dp->res, k, t) - *use_at(s, dp->res, k, t)) /
                                            dp->demand[k] + 1e-9));
            if (isinf(ub))
                ub = 1000; /* a replica that takes nothing */
            if (ub < 1)
                continue;
            int nc = add_col(b, 0, ub, 0, true);
            s->n_col[(size_t)d * T + t] = nc;
            add_nz(b, mins, nc, 1);
            /* pools: Σ demand·n <= room; markets: unit·y - Σ demand·n >= the others' */
            double sign = r->kind == CP_RES_POOL ? 1 : -1;
            for (int k = 0; k < CP_DIMS; k++)
                if (dp->demand[k] > 0)
                    add_nz(b, res_row(s, dp->res, k, t), nc, sign * dp->demand[k]);
            quota_entries(s, d, t, nc);
            if (r->kind != CP_RES_POOL)
                budget_entry(s, v, nc, cp_instance_share(dp->demand, r->mach) * cp_market_slot_cost(in, r, t));
            int cap = 0;
            const double *rate = sv->configs[dp->config].rate;
            for (int k = 0; k < nk; k++) {
                double lam = cp_svc_load(in, v, k, t);
                if (rate[k] <= 0 || lam <= 0 || !(lam / rate[k] <= 1e30))
                    continue;
                double x = lam / rate[k], cost = 0;
                if (r->kind == CP_RES_POOL)
                    cost = in->sites[r->site].pue * dp->busy_w * x * h / 1000 * cp_site_kwh_cost(in, r->site, t);
                int c = add_col(b, 0, 1, isfinite(cost) ? cost : 0, false);
                s->f_col[(size_t)(ms->dep_share[d] + k) * T + t] = c;
                budget_entry(s, v, c, isfinite(cost) ? cost : 0);
                if (!cap)
                    cap = add_row(b, -INFINITY, 0);
                add_nz(b, route[k], c, 1);
                add_nz(b, cap, c, x);
                if (r->kind == CP_RES_POOL && in->sites[r->site].power_cap_kw.set && dp->busy_w > 0) {
                    size_t i = (size_t)r->site * (size_t)T + (size_t)t;
                    if (!s->row_site[i])
                        s->row_site[i] = add_row(b, -INFINITY, fmax(0, s->w_left[i]));
                    add_nz(b, s->row_site[i], c, dp->busy_w * x);
                }
            }
            add_nz(b, cap, nc, -dp->avail);
        }
    }
    if (sv->start_cost <= 0)
        return;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
        for (int t = 0; t < T; t++) {
            int nc = s->n_col[(size_t)d * T + t], prev = t ? s->n_col[(size_t)d * T + t - 1] : 0;
            if (!nc)
                continue;
            /* start(d,t) >= n(d,t) - n(d,t-1), n(d,-1) = 0 */
            int sc = add_col(b, 0, INFINITY, sv->start_cost, false);
            int row = add_row(b, 0, INFINITY);
            s->s_col[(size_t)d * T + t] = sc;
            budget_entry(s, v, sc, sv->start_cost);
            add_nz(b, row, sc, 1);
            add_nz(b, row, nc, -1);
            add_nz(b, row, prev, 1);
        }
}

static void reset(search *s)
{
    const cp_modeset *ms = s->ms;
    size_t T = (size_t)s->T;
    memset(s->n_col, 0, (size_t)ms->n_deps * T * sizeof *s->n_col);
    memset(s->s_col, 0, (size_t)ms->n_deps * T * sizeof *s->s_col);
    memset(s->f_col, 0, (size_t)ms->n_shares * T * sizeof *s->f_col);
    memset(s->u_col, 0, (size_t)ms->n_classes * T * sizeof *s->u_col);
    memset(s->y_col, 0, (size_t)ms->n_res * T * sizeof *s->y_col);
    memset(s->row_res, 0, (size_t)ms->n_res * CP_DIMS * T * sizeof *s->row_res);
    memset(s->row_site, 0, (size_t)s->in->n_sites * T * sizeof *s->row_site);
    memset(s->row_team, 0, (size_t)s->tr.n_rows * sizeof *s->row_team);
    s->b.n_rows = s->b.n_cols = 0;
    s->b.nnz = 0;
    s->b.oom = false;
}

/* The group's answer x written into p (n, f, u of its services; y after). */
static void take(search *s, cp_plan *p, const int *grp, int n, const double *x)
{
    const cp_modeset *ms = s->ms;
    int T = s->T;
    for (int g = 0; g < n; g++) {
        int v = grp[g];
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
            for (int t = 0; t < T; t++) {
                int c = s->n_col[(size_t)d * T + t];
                *cp_plan_n(p, d, t) = c ? (int)lround(x[c]) : 0;
                for (int k = 0; k < s->in->services[v].n_classes; k++) {
                    int fc = s->f_col[(size_t)(ms->dep_share[d] + k) * T + t];
                    *cp_plan_f(p, d, k, t) = fc ? fmin(1, fmax(0, x[fc])) : 0;
                }
            }
        for (int k = 0; k < s->in->services[v].n_classes; k++)
            for (int t = 0; t < T; t++) {
                int c = s->u_col[(size_t)(ms->class_first[v] + k) * T + t];
                *cp_plan_u(p, v, k, t) = c ? fmin(1, fmax(0, x[c])) : 0;
            }
    }
    cp_plan_min_instances(p);
}

/* The busy W (before PUE) under each site's cap that the plan leaves to
 * the group: the cap less the plan's power, plus the group's own. */
static int power_left(search *s, const cp_plan *p, const int *grp, int n)
{
    const cp_input *in = s->in;
    bool caps = false;
    for (int i = 0; i < in->n_sites; i++)
        caps = caps || in->sites[i].power_cap_kw.set;
    if (!caps)
        return 0;
    cp_plan_figures f;
    if (cp_plan_eval(p, &f, NULL))
        return -1;
    for (int i = 0; i < in->n_sites; i++)
        for (int t = 0; t < s->T; t++) {
            const cp_site *st = &in->sites[i];
            size_t at = (size_t)i * (size_t)s->T + (size_t)t;
            s->w_left[at] = st->power_cap_kw.set
                                ? (cp_series_at(&st->power_cap_kw, t) - f.site_power_kw[at]) * 1000 / st->pue
                                : INFINITY;
        }
    cp_plan_figures_release(&f);
    for (int g = 0; g < n; g++)
        for (int d = s->ms->svc_first[grp[g]]; d < s->ms->svc_first[grp[g] + 1]; d++) {
            const cp_resource *r = &s->ms->res[s->ms->deps[d].res];
            if (r->kind == CP_RES_POOL)
                for (int t = 0; t < s->T; t++)
                    s->w_left[(size_t)r->site * (size_t)s->T + (size_t)t] += cp_plan_dep_busy_w(p, d, t);
        }
    return 0;
}

/* Of each team's rows, what the plan leaves to the group: the quota less
 * the plan's use, plus the group's own replicas; the budget less what
 * the plan spends, plus the group's own services' spend. */
static int quota_left(search *s, const cp_plan *p, const int *grp, int n)
{
    const cp_teamrows *tr = &s->tr;
    if (!tr->n_rows)
        return 0;
    memset(s->q_left, 0, (size_t)tr->n_rows * sizeof *s->q_left);
    if (cp_plan_team_use(p, tr, true, s->q_left))
        return -1;
    for (int k = 0; k < tr->n_rows; k++)
        s->q_left[k] = tr->rhs[k] - s->q_left[k];
    for (int g = 0; g < n; g++) {
        int team = s->in->services[grp[g]].team;
        if (team >= 0 && tr->budget_row[team] >= 0)
            s->q_left[tr->budget_row[team]] += cp_plan_svc_spend(p, grp[g]);
        for (int d = s->ms->svc_first[grp[g]]; team >= 0 && d < s->ms->svc_first[grp[g] + 1]; d++)
            for (int q = tr->first_quota[team]; q < tr->first_quota[team + 1]; q++)
                for (int t = 0; t < s->T; t++)
                    s->q_left[q * s->T + t] += cp_teamrows_dep_use(tr, d, q) * *cp_plan_n(p, d, t);
    }
    return 0;
}

/* The MIP's start: the group's plan as it is (the MIP can only improve
 * on it; GLPK drops a start that breaks a row by its tolerance). */
static void start_of(const search *s, const cp_plan *p, const int *grp, int n, double *x)
{
    const cp_modeset *ms = s->ms;
    int T = s->T;
    for (int g = 0; g < n; g++) {
        int v = grp[g];
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
            for (int t = 0; t < T; t++) {
                size_t i = (size_t)d * T + t;
                int now = *cp_plan_n(p, d, t), before = t ? *cp_plan_n(p, d, t - 1) : 0;
                if (s->n_col[i])
                    x[s->n_col[i]] = now;
                if (s->s_col[i])
                    x[s->s_col[i]] = now > before ? now - before : 0;
                for (int k = 0; k < s->in->services[v].n_classes; k++) {
                    int c = s->f_col[(size_t)(ms->dep_share[d] + k) * T + t];
                    if (c)
                        x[c] = *cp_plan_f(p, d, k, t);
                }
            }
        for (int k = 0; k < s->in->services[v].n_classes; k++)
            for (int t = 0; t < T; t++) {
                int c = s->u_col[(size_t)(ms->class_first[v] + k) * T + t];
                if (c)
                    x[c] = *cp_plan_u(p, v, k, t);
            }
    }
    for (int r = 0; r < ms->n_res; r++)
        for (int t = 0; t < T; t++) {
            int c = s->y_col[(size_t)r * T + t];
            if (!c)
                continue;
            double need = 0;
            for (int k = 0; k < CP_DIMS; k++) {
                double u = *use_at(s, r, k, t), unit = cp_machine_dim(ms->res[r].mach, k);
                for (int g = 0; g < n; g++)
                    for (int d = ms->svc_first[grp[g]]; d < ms->svc_first[grp[g] + 1]; d++)
                        if (ms->deps[d].res == r)
                            u += *cp_plan_n(p, d, t) * ms->deps[d].demand[k];
                if (unit > 0)
                    need = fmax(need, ceil(u / unit - 1e-9));
            }
            x[c] = need;
        }
}

/* Re-plans the group's services in p when that is feasible and cheaper:
 * 1 kept, 0 not, -1 out of memory. */
static int improve_group(search *s, const cp_solve_opts *opts, cp_plan *p, cp_plan *cand,
                         const int *grp, int n, double *total)
{
    const cp_modeset *ms = s->ms;
    reset(s);
    use_of(s, p);
    for (int g = 0; g < n; g++)
        for (int d = ms->svc_first[grp[g]]; d < ms->svc_first[grp[g] + 1]; d++)
            for (int t = 0; t < s->T; t++)
                for (int k = 0; k < CP_DIMS; k++)
                    *use_at(s, ms->deps[d].res, k, t) -= *cp_plan_n(p, d, t) * ms->deps[d].demand[k];
    if (power_left(s, p, grp, n) || quota_left(s, p, grp, n))
        return -1;
    for (int g = 0; g < n; g++)
        build_service(s, grp[g]);
    mipbuf *b = &s->b;
    if (b->oom)
        return -1;
    double *x = cp_calloc((size_t)b->n_cols + 1, sizeof *x);
    double *start = cp_calloc((size_t)b->n_cols + 1, sizeof *start);
    if (!x || !start) {
        cp_free(x);
        cp_free(start);
        return -1;
    }
    start_of(s, p, grp, n, start);
    double now = cp_now_seconds(), left = cp_solve_deadline(opts) - now;
    cp_mip m = {b->n_rows, b->n_cols, b->row_lo, b->row_hi, b->obj, b->col_lo, b->col_hi,
                b->col_int, b->nnz, b->ia, b->ja, b->ar, start};
    cp_mip_limits lim = {opts->node_limit, GROUP_GAP, now + fmin(GROUP_SECONDS, fmax(0.05, left * GROUP_SHARE)),
                         opts->seed, opts->stop, false};
    cp_mip_result res;
    int rc = CP_OK;
    if (opts->sub_engine == CP_MIP_CBC) {
        cp_err err;
        cp_err_init(&err);
        rc = cp_mip_cbc_solve(&m, &lim, x, &res, &err);
    } else {
        rc = cp_mip_glpk_solve(&m, &lim, x, &res);
    }
    int kept = 0;
    if (rc == CP_ERR_NOMEM) {
        kept = -1;
    } else if (rc == CP_OK && (res.status == CP_MIP_OPTIMAL || res.status == CP_MIP_FEASIBLE)) {
        cp_plan_figures f;
        if (cp_plan_copy(cand, p)) {
            kept = -1;
        } else {
            take(s, cand, grp, n, x);
            if (cp_plan_is_feasible(cand, NULL, 0)) {
                if (cp_plan_eval(cand, &f, NULL)) {
                    kept = -1;
                } else {
                    if (f.costs.total < *total - 1e-9 * (1 + fabs(*total))) {
                        kept = cp_plan_copy(p, cand) ? -1 : 1;
                        *total = f.costs.total;
                    }
                    cp_plan_figures_release(&f);
                }
            }
        }
    }
    cp_free(x);
    cp_free(start);
    return kept;
}

/* The deployments' market cost per replica-slot that service v pays, and
 * whether it holds pool room: the pairs that may trade pool room are a
 * service renting instances and one on the pools. */
static void service_use(const cp_plan *p, int v, double *market, double *pool)
{
    const cp_modeset *ms = p->ms;
    *market = *pool = 0;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
        for (int t = 0; t < p->slots; t++) {
            int n = *cp_plan_n(p, d, t);
            if (ms->res[ms->deps[d].res].kind == CP_RES_POOL)
                *pool += n;
            else
                *market += n * cp_instance_share(ms->deps[d].demand, ms->res[ms->deps[d].res].mach) *
                           cp_market_slot_cost(p->in, &ms->res[ms->deps[d].res], t);
        }
}

static bool late(const cp_solve_opts *opts)
{
    return (opts->stop && *opts->stop) || cp_now_seconds() >= cp_solve_deadline(opts);
}

static void search_release(search *s)
{
    cp_free(s->use);
    cp_free(s->n_col);
    cp_free(s->f_col);
    cp_free(s->u_col);
    cp_free(s->s_col);
    cp_free(s->y_col);
    cp_free(s->row_res);
    cp_free(s->route);
    cp_free(s->row_site);
    cp_free(s->w_left);
    cp_free(s->q_left);
    cp_free(s->row_team);
    cp_teamrows_release(&s->tr);
    mipbuf *b = &s->b;
    cp_free(b->row_lo);
    cp_free(b->row_hi);
    cp_free(b->obj);
    cp_free(b->col_lo);
    cp_free(b->col_hi);
    cp_free(b->col_int);
    cp_free(b->ia);
    cp_free(b->ja);
    cp_free(b->ar);
}

/* The services by what they spend in p, the dearest first (ties by
 * index; key: room for V figures): a round cut short by the clock has
 * re-planned the services whose instances and starts leave the most to
 * gain (bench/gen --services 100 1 0: in input order, a 60-s run at load
 * 5 reached 60 of the 100, and the 13 services that rent on demand were
 * the last). */
static void spend_order(const cp_plan *p, double *key, int *order)
{
    int V = p->in->n_services;
    for (int v = 0; v < V; v++)
        key[v] = cp_plan_svc_spend(p, v);
    cp_services_by_key(key, V, order);
}

/* Rounds of groups until one gains nothing or the time is up: every
 * service alone, the dearest first, then each service that rents
 * instances with each of the services on the pools that pays the least
 * off them. */
static int rounds(search *s, const cp_solve_opts *opts, cp_plan *p, cp_plan *cand, double *total,
                  int *gained)
{
    int V = s->in->n_services;
    double *market = cp_malloc((size_t)V * sizeof *market), *pool = cp_malloc((size_t)V * sizeof *pool);
    double *spend = cp_malloc((size_t)V * sizeof *spend);
    int *order = cp_malloc((size_t)V * sizeof *order);
    int rc = market && pool && spend && order ? 0 : -1;
    for (int round = 0; rc >= 0 && round < 8 && !late(opts); round++) {
        int before = *gained, tried = 0;
        spend_order(p, spend, order);
        for (int i = 0; i < V && rc >= 0 && !late(opts); i++, tried++) {
            int grp[1] = {order[i]};
            if ((rc = improve_group(s, opts, p, cand, grp, 1, total)) > 0)
                (*gained)++;
        }
        cp_solver_log(opts, "services: search round %d: %d of %d services alone, %d kept, %.10g at %.2f s", round,
                      tried, V, *gained - before, *total, cp_now_seconds() - opts->t_start);
        for (int v = 0; v < V; v++)
            service_use(p, v, &market[v], &pool[v]);
        for (int v = 0; v < V && rc >= 0 && !late(opts); v++) {
            if (market[v] <= 0)
                continue;
            /* the partner: on the pools, the least market spend per pool
             * replica-slot (the one whose load is cheapest off them) */
            int w = -1;
            for (int o = 0; o < V; o++)
                if (o != v && pool[o] > 0 && (w < 0 || market[o] / pool[o] < market[w] / pool[w]))
                    w = o;
            if (w < 0)
                continue;
            int grp[2] = {v, w};
            if ((rc = improve_group(s, opts, p, cand, grp, 2, total)) > 0) {
                (*gained)++;
                service_use(p, v, &market[v], &pool[v]);
                service_use(p, w, &market[w], &pool[w]);
            }
        }
        cp_solver_log(opts, "services: search round %d: %d groups kept, %.10g at %.2f s", round, *gained - before,
                      *total, cp_now_seconds() - opts->t_start);
        if (*gained == before)
            break;
    }
    cp_free(market);
    cp_free(pool);
    cp_free(spend);
    cp_free(order);
    return rc < 0 ? CP_ERR_NOMEM : CP_OK;
}

int cp_services_search(const cp_solve_opts *opts, cp_plan *p, double *total)
{
    const cp_modeset *ms = p->ms;
    if (!p->in->n_services || ms->replan)
        return CP_OK;
    search s;
    memset(&s, 0, sizeof s);
    s.in = p->in;
    s.ms = ms;
    s.T = p->slots;
    int most = 1;
    for (int v = 0; v < p->in->n_services; v++)
        most = p->in->services[v].n_classes > most ? p->in->services[v].n_classes : most;
    s.route = cp_calloc((size_t)most, sizeof *s.route);
    size_t T = (size_t)p->slots;
    s.row_site = cp_calloc((size_t)p->in->n_sites * T + 1, sizeof *s.row_site);
    s.w_left = cp_calloc((size_t)p->in->n_sites * T + 1, sizeof *s.w_left);
    s.use = cp_calloc((size_t)ms->n_res * CP_DIMS * T + 1, sizeof *s.use);
    s.n_col = cp_calloc((size_t)ms->n_deps * T + 1, sizeof *s.n_col);
    s.s_col = cp_calloc((size_t)ms->n_deps * T + 1, sizeof *s.s_col);
    s.f_col = cp_calloc((size_t)ms->n_shares * T + 1, sizeof *s.f_col);
    s.u_col = cp_calloc((size_t)ms->n_classes * T + 1, sizeof *s.u_col);
    s.y_col = cp_calloc((size_t)ms->n_res * T + 1, sizeof *s.y_col);
    s.row_res = cp_calloc((size_t)ms->n_res * CP_DIMS * T + 1, sizeof *s.row_res);
    cp_plan *cand = NULL;
    int rc = CP_OK, gained = 0;
    double first = *total;
    if (!s.route || !s.row_site || !s.w_left || !s.use || !s.n_col || !s.s_col || !s.f_col || !s.u_col || !s.y_col || !s.row_res ||
        cp_teamrows_init(&s.tr, p->in, ms, 1.0) || !(s.q_left = cp_calloc((size_t)s.tr.n_rows + 1, sizeof *s.q_left)) ||
        !(s.row_team = cp_calloc((size_t)s.tr.n_rows + 1, sizeof *s.row_team)) || cp_plan_new(p->in, ms, &cand))
        rc = CP_ERR_NOMEM;
    if (rc == CP_OK)
        rc = rounds(&s, opts, p, cand, total, &gained);
    cp_solver_log(opts, "services: the search kept %d groups' plans, %.10g to %.10g", gained, first, *total);
    cp_plan_free(cand);
    search_release(&s);
    return rc;
}
