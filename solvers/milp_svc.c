/*
 * The services of capplan.5 §10.4 in the time-indexed MILP (milp_model.c
 * builds the rest and loads it into GLPK; no GLPK type is needed here).
 *
 * Columns per deployment d and slot t: n(d,t) integer in [0, what the
 * resource holds: units × replicas per unit], start(d,t) >= 0 when the
 * service has a start cost; per share (class k on d) and slot with load:
 * f(k,d,t) in [0,1]; per class and slot with load: u(k,t) in [0,1].
 * Rows:
 *   route_V_K_T    Σ_d f(k,d,t) + u(k,t) = 1                (load > 0)
 *   svccap_D_T     Σ_k λ/μ f(k,d,t) - a_d n(d,t) <= 0
 *   svcmin_V_T     Σ_d n(d,t) >= min_replicas(t)            (min > 0)
 *   svcstart_D_T   start(d,t) - n(d,t) + n(d,t-1) >= 0
 * and entries in the shared rows: n's demand in the capacity rows of its
 * resource (markets: against y, whose columns it marks wanted), f's busy
 * power in its site's power cap row, n in its team's quota rows (pools:
 * count accelerators of the quota's type, or cpus), and in its team's
 * budget row each replica's instance share on a market, f's energy on a
 * pool and the start cost (capplan.5 §10.1). Objective: f's energy and
 * carbon on a pool, start_cost on start, unserved_penalty·λ·3600·h on u;
 * a market's replicas cost through y. The global budget row (built after
 * this) counts every column's objective but u's.
 */
#include "milp_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int add_row(milp *mp, double lo, double hi, int kind, int a, int b, int t)
{
    cp_milp_svc *sv = &mp->svc;
    if (CP_GROW(sv->rows, sv->rows_cap, (size_t)sv->n_rows + 1))
        return -1;
    int row = ++mp->n_rows;
    sv->rows[sv->n_rows++] = (cp_milp_svc_row){row, lo, hi, kind, a, b, t};
    return row;
}

/* Replicas of deployment d that the resource holds in slot t. */
static double replicas_held(const milp *mp, const cp_usage *u, int d, int t)
{
    const cp_deploy *dp = &mp->ms->deps[d];
    const cp_resource *r = &mp->ms->res[dp->res];
    double per = INFINITY;
    for (int k = 0; k < CP_DIMS; k++)
        if (dp->demand[k] > 0)
            per = fmin(per, floor(cp_machine_dim(r->mach, k) / dp->demand[k] + 1e-9));
    double units = r->kind == CP_RES_POOL ? cp_series_at(&mp->in->pools[r->index].available, t)
                                          : cp_usage_quota(u, dp->res, t);
    return isinf(per) ? units * 1000 : per * units;
}

/* The GLPK row of team row k (cp_teams.h), numbered when first used. */
static int team_row(milp *mp, int k)
{
    if (!mp->row_team[k])
        mp->row_team[k] = ++mp->n_rows;
    return mp->row_team[k];
}

/* n(d,t) in its team's quota rows and, on a market, its budget row. */
static int team_n_entries(milp *mp, int d, int t, int col)
{
    const cp_teamrows *tr = mp->tr;
    const cp_deploy *dp = &mp->ms->deps[d];
    const cp_resource *r = &mp->ms->res[dp->res];
    int team = mp->in->services[dp->svc].team;
    if (team < 0)
        return 0;
    for (int q = tr->first_quota[team]; q < tr->first_quota[team + 1]; q++) {
        double v = cp_teamrows_dep_use(tr, d, q);
        if (v > 0 && cp_milp_add_nz(mp, team_row(mp, q * mp->T + t), col, v))
            return -1;
    }
    if (tr->budget_row[team] >= 0 && r->kind != CP_RES_POOL) {
        double c = cp_instance_share(dp->demand, r->mach) * cp_market_slot_cost(mp->in, r, t);
        if (cp_milp_add_nz(mp, team_row(mp, tr->budget_row[team]), col, c))
            return -1;
    }
    return 0;
}

/* A cost in the service's team's budget row (f's energy, a start). */
static int team_budget_entry(milp *mp, int v, int col, double c)
{
    int team = mp->in->services[v].team;
    if (team < 0 || mp->tr->budget_row[team] < 0 || c == 0)
        return 0;
    return cp_milp_add_nz(mp, team_row(mp, mp->tr->budget_row[team]), col, c);
}

/* n(d,t) and its entries; 0 (no column) when the resource holds none
 * (in a re-plan's history: when OLD runs none there). */
static int n_column(milp *mp, const cp_usage *u, int d, int t)
{
    const cp_deploy *dp = &mp->ms->deps[d];
    const cp_resource *r = &mp->ms->res[dp->res];
    const cp_replan *rp = mp->ms->replan;
    int T = mp->T;
    double ub = cp_replan_is_history(rp, t) ? rp->svc_n[(size_t)d * T + t] : replicas_held(mp, u, d, t);
    mp->svc.n_ub[(size_t)d * T + t] = ub;
    if (ub < 1)
        return 0;
    int c = cp_milp_add_col(mp, d, CP_MILP_SVC_N, t, 0);
    if (c < 0)
        return -1;
    for (int k = 0; k < CP_DIMS; k++)
        if (dp->demand[k] > 0 && cp_milp_add_nz(mp, cp_milp_res_row(mp, dp->res, k, t), c, dp->demand[k]))
            return -1;
    if (r->kind != CP_RES_POOL && !mp->y_col[(size_t)dp->res * T + t])
        mp->y_col[(size_t)dp->res * T + t] = -1; /* wanted */
    if (team_n_entries(mp, d, t, c))
        return -1;
    mp->svc.n_col[(size_t)d * T + t] = c;
    return c;
}

/* The replicas a class's whole load may need on one deployment for its
 * share to be a column (tests/suite_hostile.sh, section 18). */
#define SVC_REPLICAS_MAX 1e30

/* The shares of deployment d in slot t, with its capacity row; in a
 * re-plan's history only OLD's shares, fixed (cp_milp_svc_col_bounds),
 * with no row: history is not re-checked (capplan.5 §10.6). */
static int f_columns(milp *mp, int d, int t, int ncol, const int *route)
{
    const cp_input *in = mp->in;
    const cp_deploy *dp = &mp->ms->deps[d];
    const cp_resource *r = &mp->ms->res[dp->res];
    const cp_service *sv = &in->services[dp->svc];
    const double *rate = sv->configs[dp->config].rate;
    const cp_replan *rp = mp->ms->replan;
    bool hist = cp_replan_is_history(rp, t);
    int T = mp->T, cap = 0;
    for (int k = 0; k < sv->n_classes; k++) {
        double lam = cp_svc_load(in, dp->svc, k, t);
        if (rate[k] <= 0 || lam <= 0)
            continue;
        if (hist && rp->svc_f[(size_t)(mp->ms->dep_share[d] + k) * T + t] == 0)
            continue;
        double x = lam / rate[k], w = dp->busy_w * x, cost = 0;
        if (r->kind == CP_RES_POOL)
            cost = in->sites[r->site].pue * w * in->slot_hours / 1000 * cp_site_kwh_cost(in, r->site, t);
        /* a rate of 1e-300 requests/s against a load of 1e8 to 1e15: the
         * class needs 1e308 replicas or more than a double holds, and
         * such a coefficient made GLPK's dual simplex abort (exit 134);
         * past SVC_REPLICAS_MAX the deployment takes none of the class
         * (the most it could, 1e6 replicas' worth, is under 1e-24 of it) */
        if (!(x <= SVC_REPLICAS_MAX) || !isfinite(w) || !isfinite(cost))
            continue;
        int share = mp->ms->dep_share[d] + k;
        int c = cp_milp_add_col(mp, share, CP_MILP_SVC_F, t, cost);
        if (c < 0)
            return -1;
        mp->svc.f_col[(size_t)share * T + t] = c;
        if (hist) {
            if (team_budget_entry(mp, dp->svc, c, cost))
                return -1;
            continue;
        }
        if (!cap && (cap = add_row(mp, -INFINITY, 0, CP_MILP_SVC_ROW_CAP, d, 0, t)) < 0)
            return -1;
        if (cp_milp_add_nz(mp, route[k], c, 1.0) || cp_milp_add_nz(mp, cap, c, x) ||
            team_budget_entry(mp, dp->svc, c, cost))
            return -1;
        if (r->kind == CP_RES_POOL && in->sites[r->site].power_cap_kw.set && w > 0) {
            int *row = &mp->row_site[(size_t)r->site * T + t];
            if (!*row)
                *row = ++mp->n_rows;
            if (cp_milp_add_nz(mp, *row, c, w))
                return -1;
        }
    }
    if (cap && cp_milp_add_nz(mp, cap, ncol, -dp->avail))
        return -1;
    return 0;
}

/* Service v in slot t: routing rows and u columns, then each deployment. */
static int service_slot(milp *mp, const cp_usage *u, int v, int t, int *route, int *mins)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    const cp_service *sv = &in->services[v];
    int T = mp->T;
    double h = in->slot_hours;
    /* a re-plan's history: OLD's columns, fixed, and no row (capplan.5 §10.5) */
    bool hist = cp_replan_is_history(ms->replan, t);
    for (int k = 0; k < sv->n_classes; k++) {
        double lam = cp_svc_load(in, v, k, t);
        route[k] = 0;
        if (lam <= 0)
            continue;
        if (!hist && (route[k] = add_row(mp, 1, 1, CP_MILP_SVC_ROW_ROUTE, v, k, t)) < 0)
            return -1;
        int c = cp_milp_add_col(mp, ms->class_first[v] + k, CP_MILP_SVC_U, t,
                                sv->unserved_penalty * lam * 3600 * h);
        if (c < 0 || (route[k] && cp_milp_add_nz(mp, route[k], c, 1.0)))
            return -1;
        mp->svc.u_col[(size_t)(ms->class_first[v] + k) * T + t] = c;
    }
    double lo = hist ? 0 : cp_series_at(&sv->min_replicas, t);
    *mins = 0;
    if (lo > 0 && (*mins = add_row(mp, lo, INFINITY, CP_MILP_SVC_ROW_MIN, v, 0, t)) < 0)
        return -1;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
        int nc = n_column(mp, u, d, t);
        if (nc < 0)
            return -1;
        if (!nc)
            continue;
        if ((*mins && cp_milp_add_nz(mp, *mins, nc, 1.0)) || f_columns(mp, d, t, nc, route))
            return -1;
        if (sv->start_cost > 0) {
            int s = cp_milp_add_col(mp, d, CP_MILP_SVC_S, t, sv->start_cost);
            int row = s < 0 ? -1 : add_row(mp, 0, INFINITY, CP_MILP_SVC_ROW_START, d, 0, t);
            int prev = t ? mp->svc.n_col[(size_t)d * T + t - 1] : 0;
            if (row < 0 || cp_milp_add_nz(mp, row, s, 1.0) || cp_milp_add_nz(mp, row, nc, -1.0) ||
                (prev && cp_milp_add_nz(mp, row, prev, 1.0)) ||
                team_budget_entry(mp, v, s, sv->start_cost))
                return -1;
        }
    }
    return 0;
}

int cp_milp_svc_build(milp *mp, const cp_usage *u)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    size_t T = (size_t)mp->T;
    /* a POP part plans jobs alone: services stay whole (services_after.c) */
    if (!in->n_services || mp->sc)
        return CP_OK;
    cp_milp_svc *sv = &mp->svc;
    sv->n_col = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1) * T, sizeof(int));
    sv->n_ub = cp_calloc((size_t)(ms->n_deps ? ms->n_deps : 1) * T, sizeof(double));
    sv->f_col = cp_calloc((size_t)(ms->n_shares ? ms->n_shares : 1) * T, sizeof(int));
    sv->u_col = cp_calloc((size_t)(ms->n_classes ? ms->n_classes : 1) * T, sizeof(int));
    int most = 1;
    for (int v = 0; v < in->n_services; v++)
        most = in->services[v].n_classes > most ? in->services[v].n_classes : most;
    int *route = cp_calloc((size_t)most, sizeof *route);
    int rc = CP_OK;
    if (!sv->n_col || !sv->n_ub || !sv->f_col || !sv->u_col || !route)
        rc = CP_ERR_NOMEM;
    for (int v = 0; v < in->n_services && rc == CP_OK; v++)
        for (int t = 0; t < mp->T && rc == CP_OK; t++) {
            int mins;
            if (service_slot(mp, u, v, t, route, &mins))
                rc = CP_ERR_NOMEM;
        }
    cp_free(route);
    return rc;
}

void cp_milp_svc_col_bounds(const milp *mp, int c, double *lo, double *hi, bool *integer)
{
    int code = mp->col_mode[c];
    const cp_replan *rp = mp->ms->replan;
    size_t at = (size_t)mp->col_job[c] * (size_t)mp->T + (size_t)mp->col_start[c];
    *lo = 0;
    *integer = code == CP_MILP_SVC_N;
    if (code != CP_MILP_SVC_S && cp_replan_is_history(rp, mp->col_start[c])) {
        *lo = *hi = code == CP_MILP_SVC_N ? rp->svc_n[at]
                  : code == CP_MILP_SVC_F ? rp->svc_f[at] : rp->svc_u[at];
        return;
    }
    if (code == CP_MILP_SVC_N)
        *hi = mp->svc.n_ub[(size_t)mp->col_job[c] * mp->T + mp->col_start[c]];
    else if (code == CP_MILP_SVC_S)
        *hi = INFINITY;
    else
        *hi = 1;
}

void cp_milp_svc_col_name(const milp *mp, int c, char *buf, size_t size)
{
    int a = mp->col_job[c], t = mp->col_start[c];
    switch (mp->col_mode[c]) {
    case CP_MILP_SVC_N:
        snprintf(buf, size, "n_%d_%d", a, t);
        break;
    case CP_MILP_SVC_F:
        snprintf(buf, size, "f_%d_%d", a, t);
        break;
    case CP_MILP_SVC_U: {
        const cp_modeset *ms = mp->ms;
        int v = 0;
        while (v + 1 < mp->in->n_services && ms->class_first[v + 1] <= a)
            v++;
        snprintf(buf, size, "u_%d_%d_%d", v, a - ms->class_first[v], t);
        break;
    }
    default:
        snprintf(buf, size, "start_%d_%d", a, t);
        break;
    }
}

void cp_milp_svc_row_name(const milp *mp, int i, char *buf, size_t size)
{
    const cp_milp_svc_row *r = &mp->svc.rows[i];
    static const char *const word[] = {"route", "svccap", "svcmin", "svcstart"};
    if (r->kind == CP_MILP_SVC_ROW_ROUTE)
        snprintf(buf, size, "route_%d_%d_%d", r->a, r->b, r->t);
    else
        snprintf(buf, size, "%s_%d_%d", word[r->kind], r->a, r->t);
}

void cp_milp_svc_extract(const milp *mp, const double *x, cp_plan *plan)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    size_t T = (size_t)mp->T;
    for (size_t i = 0; i < (size_t)ms->n_deps * T; i++)
        plan->svc_n[i] = mp->svc.n_col[i] ? (int)lround(x[mp->svc.n_col[i]]) : 0;
    for (size_t i = 0; i < (size_t)ms->n_shares * T; i++)
        plan->svc_f[i] = mp->svc.f_col[i] ? fmin(1, fmax(0, x[mp->svc.f_col[i]])) : 0;
    /* the unserved share closes each class's row exactly (GLPK keeps
     * rows to its tolerance; verify checks them to 1e-6) */
    for (int v = 0; v < in->n_services; v++)
        for (int k = 0; k < in->services[v].n_classes; k++)
            for (int t = 0; t < mp->T; t++) {
                double sum = 0;
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
                    sum += *cp_plan_f(plan, d, k, t);
                bool load = cp_svc_load(in, v, k, t) > 0;
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1] && (sum > 1 || !load); d++)
                    *cp_plan_f(plan, d, k, t) = load ? *cp_plan_f(plan, d, k, t) / sum : 0;
                *cp_plan_u(plan, v, k, t) = load ? fmax(0, 1 - fmin(1, sum)) : 0;
            }
    cp_plan_keep_history(plan); /* exactly OLD's, not GLPK's rounding of it */
}

void cp_milp_svc_warm(const milp *mp, const cp_plan *p, double *x)
{
    for (int c = 1; c <= mp->n_cols; c++) {
        int a = mp->col_job[c], t = mp->col_start[c];
        switch (mp->col_mode[c]) {
        case CP_MILP_SVC_N:
            x[c] = *cp_plan_n(p, a, t);
            break;
        case CP_MILP_SVC_F:
            x[c] = p->svc_f[(size_t)a * (size_t)mp->T + (size_t)t];
            break;
        case CP_MILP_SVC_U:
            x[c] = p->svc_u[(size_t)a * (size_t)mp->T + (size_t)t];
            break;
        case CP_MILP_SVC_S:
            x[c] = fmax(0, *cp_plan_n(p, a, t) - (t ? *cp_plan_n(p, a, t - 1) : 0));
            break;
        default:
            break;
        }
    }
}

/* Deployment d's shares in slot t scaled down to what its replicas
 * serve (a(d) n, capplan.5 §10.4). */
static void fit_shares(cp_plan *p, int d, int t)
{
    const cp_deploy *dp = &p->ms->deps[d];
    const cp_service *sv = &p->in->services[dp->svc];
    const double *rate = sv->configs[dp->config].rate;
    double load = 0;
    for (int k = 0; k < sv->n_classes; k++)
        if (rate[k] > 0)
            load += cp_svc_load(p->in, dp->svc, k, t) * *cp_plan_f(p, d, k, t) / rate[k];
    double cap = dp->avail * *cp_plan_n(p, d, t);
    if (load <= cap * (1 + 1e-9))
        return;
    for (int k = 0; k < sv->n_classes; k++)
        *cp_plan_f(p, d, k, t) *= cap / load;
}

void cp_milp_svc_round(const milp *mp, const double *lp, cp_plan *p, bool *ok)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    double *x = cp_malloc(((size_t)mp->n_cols + 2) * sizeof *x);
    *ok = false;
    if (!x)
        return;
    /* the replicas the LP fills, each deployment's shares cut to them */
    for (int c = 1; c <= mp->n_cols; c++)
        x[c] = mp->col_mode[c] == CP_MILP_SVC_N ? floor(lp[c] + 1e-6) : lp[c];
    x[mp->n_cols + 1] = 1;
    cp_milp_svc_extract(mp, x, p);
    cp_free(x);
    for (int d = 0; d < ms->n_deps; d++)
        for (int t = 0; t < mp->T; t++)
            fit_shares(p, d, t);
    for (int v = 0; v < in->n_services; v++)
        for (int k = 0; k < in->services[v].n_classes; k++)
            for (int t = 0; t < mp->T; t++) {
                double sum = 0;
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
                    sum += *cp_plan_f(p, d, k, t);
                *cp_plan_u(p, v, k, t) = cp_svc_load(in, v, k, t) > 0 ? fmax(0, 1 - sum) : 0;
            }
    /* the rest as the greedy routes it: on their spare rate first */
    if (cp_services_complete(p, ok))
        *ok = false;
}

/* Here rather than in milp_build.c, which this file calls: the vector
 * ends with the services' columns. */
bool cp_milp_warm_vector(const milp *mp, const cp_plan *p, double *x)
{
    const cp_input *in = mp->in;
    const cp_modeset *ms = mp->ms;
    bool ok = true;
    memset(x, 0, ((size_t)mp->n_cols + 2) * sizeof *x);
    x[mp->n_cols + 1] = 1; /* the constant's column */
    for (int j = 0; j < in->n_jobs; j++) {
        if (!mp->z_col[j])
            continue;
        if (p->mode[j] < 0) {
            x[mp->z_col[j]] = 1;
            continue;
        }
        /* job j's x columns sit right before its z column */
        bool hit = false;
        for (int c = mp->z_col[j] - 1; c >= 1 && mp->col_job[c] == j && mp->col_mode[c] >= 0; c--)
            if (mp->col_mode[c] == p->mode[j] && mp->col_start[c] == p->start[j]) {
                x[c] = 1;
                hit = true;
                break;
            }
        ok &= hit;
    }
    for (int r = 0; r < ms->n_res; r++)
        for (int t = 0; t < mp->T; t++) {
            int c = mp->y_col[(size_t)r * mp->T + t];
            if (c > 0)
                x[c] = *cp_plan_y(p, r, t);
            else if (*cp_plan_y(p, r, t) > 0)
                ok = false;
        }
    cp_milp_svc_warm(mp, p, x); /* capplan.5 §10.4 */
    return ok;
}

void cp_milp_svc_release(milp *mp)
{
    cp_free(mp->svc.n_col);
    cp_free(mp->svc.n_ub);
    cp_free(mp->svc.f_col);
    cp_free(mp->svc.u_col);
    cp_free(mp->svc.rows);
}
