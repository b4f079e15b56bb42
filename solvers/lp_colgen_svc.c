/*
 * The services of capplan.5 §10.4 in the column generation (lp_colgen.c):
 * the exported model's service columns and rows (milp_svc.c's: n(d,t),
 * start(d,t), f(k,d,t), u(k,t); route, svccap, svcmin and svcstart rows,
 * with n's demand in the capacity rows of its resource, f's busy power in
 * its site's power row, n in its team's quota rows, and the costs in the
 * budget rows), relaxed, all of them in every master: a night has a few
 * thousand (10 services) to a few tens of thousands (100), against the
 * jobs' hundred thousand start columns, so they are not priced.
 *
 * The bound stays valid: for duals with the right signs (<= 0 on <=
 * rows, >= 0 on >= rows, free on the route rows), each service column
 * adds min(0, reduced cost) times its upper bound to L(pi)
 * (lp_colgen.c), and a start column (no upper bound) with a negative
 * reduced cost makes L(pi) -infinity: that point gives no bound. At the
 * master's optimal duals no service column has a negative reduced cost
 * (but for the simplex's tolerance, which is allowed for), so the
 * master's value is the LP optimum when no job column prices out, as
 * without services.
 *
 * The columns are built as (column, row, value) triplets, then sorted
 * by column once (cp_cg_svc_init); the rows they alone touch are
 * numbered among the others as they come.
 */
#include "lp_colgen_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <string.h>

/* The replicas a class's whole load may need on one deployment for its
 * share to be a column (milp_svc.c's limit, so the models agree). */
#define SVC_REPLICAS_MAX 1e30

typedef struct trip {
    int col, row;
    double val;
} trip;

typedef struct build {
    cg *c;
    trip *e;
    size_t n_e, e_cap, r_cap[3], c_cap[2], u_cap;
    int *route; /* [most classes] route rows of the slot */
    int *prev;  /* [n_deps] n(d, t-1)'s column, -1: none */
} build;

static int new_row(build *b, char type, double rhs)
{
    cg_svc *s = &b->c->svc;
    size_t need = (size_t)s->n_rows + 1;
    if (CP_GROW(s->rtype, b->r_cap[0], need) || CP_GROW(s->rhs, b->r_cap[1], need) ||
        CP_GROW(s->rowno, b->r_cap[2], need))
        return -1;
    s->rtype[s->n_rows] = type;
    s->rhs[s->n_rows] = rhs;
    s->rowno[s->n_rows] = ++b->c->n_rows;
    return s->rowno[s->n_rows++];
}

static int new_col(build *b, double cost, double ub)
{
    cg_svc *s = &b->c->svc;
    if (CP_GROW(s->cost, b->c_cap[0], (size_t)s->n_cols + 1) ||
        CP_GROW(s->ub, b->c_cap[1], (size_t)s->n_cols + 1))
        return -1;
    s->cost[s->n_cols] = cost;
    s->ub[s->n_cols] = ub;
    return s->n_cols++;
}

static int entry(build *b, int col, int row, double v)
{
    if (!row || v == 0)
        return 0;
    if (CP_GROW(b->e, b->e_cap, b->n_e + 1))
        return -1;
    b->e[b->n_e++] = (trip){col, row, v};
    return 0;
}

/* The row of resource r, dimension k, slot t, numbered when first used. */
static int res_row(cg *c, int r, int k, int t)
{
    int *row = &c->res_row[((size_t)r * CP_DIMS + (size_t)k) * (size_t)c->T + (size_t)t];
    if (!*row)
        *row = ++c->n_rows;
    return *row;
}

static double replicas_held(const cg *c, int d, int t)
{
    const cp_deploy *dp = &c->ms->deps[d];
    const cp_resource *r = &c->ms->res[dp->res];
    double per = INFINITY;
    for (int k = 0; k < CP_DIMS; k++)
        if (dp->demand[k] > 0)
            per = fmin(per, floor(cp_machine_dim(r->mach, k) / dp->demand[k] + 1e-9));
    double units = r->kind == CP_RES_POOL ? cp_series_at(&c->in->pools[r->index].available, t)
                                          : cp_usage_quota(&c->u, dp->res, t);
    return isinf(per) ? units * 1000 : per * units;
}

/* The service's team's budget row (a team row of the usage), 0: none. */
static int team_budget(const cg *c, int v)
{
    int team = c->in->services[v].team;
    if (team < 0 || !c->team_row0 || c->u.teams.budget_row[team] < 0)
        return 0;
    return c->team_row0 + c->u.teams.budget_row[team];
}

/* n(d,t) and its entries; -2 when the resource holds no replica. */
static int n_col(build *b, int d, int t)
{
    cg *c = b->c;
    const cp_deploy *dp = &c->ms->deps[d];
    const cp_resource *r = &c->ms->res[dp->res];
    const cp_teamrows *tr = &c->u.teams;
    double ub = replicas_held(c, d, t);
    if (ub < 1)
        return -2;
    int k = new_col(b, 0, ub);
    if (k < 0)
        return -1;
    for (int q = 0; q < CP_DIMS; q++)
        if (dp->demand[q] > 0 && entry(b, k, res_row(c, dp->res, q, t), dp->demand[q]))
            return -1;
    size_t yt = (size_t)dp->res * (size_t)c->T + (size_t)t;
    if (r->kind != CP_RES_POOL && !c->y_col[yt])
        c->y_col[yt] = -1; /* wanted */
    int team = c->in->services[dp->svc].team;
    if (team < 0 || !c->team_row0)
        return k;
    for (int q = tr->first_quota[team]; q < tr->first_quota[team + 1]; q++) {
        double v = cp_teamrows_dep_use(tr, d, q);
        if (v > 0 && entry(b, k, c->team_row0 + q * c->T + t, v))
            return -1;
    }
    if (r->kind != CP_RES_POOL &&
        entry(b, k, team_budget(c, dp->svc),
              cp_instance_share(dp->demand, r->mach) * cp_market_slot_cost(c->in, r, t)))
        return -1;
    return k;
}

/* The shares of deployment d in slot t, and its capacity row. */
static int f_cols(build *b, int d, int t, int ncol)
{
    cg *c = b->c;
    const cp_input *in = c->in;
    const cp_deploy *dp = &c->ms->deps[d];
    const cp_resource *r = &c->ms->res[dp->res];
    const cp_service *sv = &in->services[dp->svc];
    const double *rate = sv->configs[dp->config].rate;
    int cap = 0;
    for (int k = 0; k < sv->n_classes; k++) {
        double lam = cp_svc_load(in, dp->svc, k, t);
        if (rate[k] <= 0 || lam <= 0)
            continue;
        double x = lam / rate[k], w = dp->busy_w * x, cost = 0;
        if (r->kind == CP_RES_POOL)
            cost = in->sites[r->site].pue * w * in->slot_hours / 1000 * cp_site_kwh_cost(in, r->site, t);
        if (!(x <= SVC_REPLICAS_MAX) || !isfinite(w) || !isfinite(cost))
            continue;
        if (!cap && (cap = new_row(b, 'U', 0)) < 0)
            return -1;
        int site = 0;
        if (r->kind == CP_RES_POOL && in->sites[r->site].power_cap_kw.set && w > 0) {
            int *row = &c->site_row[(size_t)r->site * (size_t)c->T + (size_t)t];
            if (!*row)
                *row = ++c->n_rows;
            site = *row;
        }
        int f = new_col(b, cost, 1);
        if (f < 0 || entry(b, f, b->route[k], 1.0) || entry(b, f, cap, x) || entry(b, f, site, w) ||
            entry(b, f, c->budget_row, cost) || entry(b, f, team_budget(c, dp->svc), cost))
            return -1;
    }
    return cap && entry(b, ncol, cap, -dp->avail) ? -1 : 0;
}

/* Service v in slot t: route rows and u columns, then each deployment. */
static int service_slot(build *b, int v, int t)
{
    cg *c = b->c;
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    const cp_service *sv = &in->services[v];
    cg_svc *s = &c->svc;
    for (int k = 0; k < sv->n_classes; k++) {
        double lam = cp_svc_load(in, v, k, t);
        b->route[k] = 0;
        if (lam <= 0)
            continue;
        int u;
        if ((b->route[k] = new_row(b, 'E', 1)) < 0 ||
            (u = new_col(b, sv->unserved_penalty * lam * 3600 * in->slot_hours, 1)) < 0 ||
            entry(b, u, b->route[k], 1.0) || CP_GROW(s->u_col, b->u_cap, (size_t)s->n_u + 1))
            return -1;
        s->u_col[s->n_u++] = u;
    }
    double lo = cp_series_at(&sv->min_replicas, t);
    int mins = lo > 0 ? new_row(b, 'L', lo) : 0;
    if (mins < 0)
        return -1;
    for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
        int nc = n_col(b, d, t);
        if (nc == -1)
            return -1;
        if (nc == -2) {
            b->prev[d] = -1;
            continue;
        }
        s->n_of[(size_t)d * (size_t)c->T + (size_t)t] = nc;
        if (entry(b, nc, mins, 1.0) || f_cols(b, d, t, nc))
            return -1;
        if (sv->start_cost > 0) {
            int row = new_row(b, 'L', 0), st = row < 0 ? -1 : new_col(b, sv->start_cost, INFINITY);
            if (st < 0 || entry(b, st, row, 1.0) || entry(b, st, c->budget_row, sv->start_cost) ||
                entry(b, st, team_budget(c, v), sv->start_cost) || entry(b, nc, row, -1.0) ||
                (b->prev[d] >= 0 && entry(b, b->prev[d], row, 1.0)))
                return -1;
        }
        b->prev[d] = nc;
    }
    return 0;
}

/* The triplets as columns (counting sort by column). */
static int to_columns(build *b)
{
    cg_svc *s = &b->c->svc;
    s->first = cp_calloc((size_t)s->n_cols + 1, sizeof *s->first);
    s->row = cp_calloc(b->n_e ? b->n_e : 1, sizeof *s->row);
    s->val = cp_calloc(b->n_e ? b->n_e : 1, sizeof *s->val);
    s->glp = cp_calloc((size_t)s->n_cols + 1, sizeof *s->glp);
    if (!s->first || !s->row || !s->val || !s->glp)
        return CP_ERR_NOMEM;
    for (size_t i = 0; i < b->n_e; i++)
        s->first[b->e[i].col + 1]++;
    for (int k = 0; k < s->n_cols; k++)
        s->first[k + 1] += s->first[k];
    int *at = s->glp; /* scratch until loaded */
    for (size_t i = 0; i < b->n_e; i++) {
        int k = b->e[i].col, p = s->first[k] + at[k]++;
        s->row[p] = b->e[i].row;
        s->val[p] = b->e[i].val;
    }
    memset(s->glp, 0, ((size_t)s->n_cols + 1) * sizeof *s->glp);
    return CP_OK;
}

int cp_cg_svc_init(cg *c)
{
    const cp_input *in = c->in;
    const cp_modeset *ms = c->ms;
    if (!in->n_services || !ms->n_deps)
        return CP_OK;
    int most = 1;
    for (int v = 0; v < in->n_services; v++)
        most = in->services[v].n_classes > most ? in->services[v].n_classes : most;
    build b;
    memset(&b, 0, sizeof b);
    b.c = c;
    size_t cells = (size_t)ms->n_deps * (size_t)c->T;
    b.route = cp_calloc((size_t)most, sizeof *b.route);
    b.prev = cp_calloc((size_t)ms->n_deps, sizeof *b.prev);
    c->svc.n_of = cp_calloc(cells, sizeof *c->svc.n_of);
    int rc = b.route && b.prev && c->svc.n_of ? CP_OK : CP_ERR_NOMEM;
    for (size_t i = 0; rc == CP_OK && i < cells; i++)
        c->svc.n_of[i] = -1;
    for (int v = 0; v < in->n_services && rc == CP_OK; v++) {
        for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++)
            b.prev[d] = -1;
        for (int t = 0; t < c->T && rc == CP_OK; t++)
            if (service_slot(&b, v, t))
                rc = CP_ERR_NOMEM;
    }
    if (rc == CP_OK)
        rc = to_columns(&b);
    cp_free(b.e);
    cp_free(b.route);
    cp_free(b.prev);
    return rc;
}

void cp_cg_svc_rhs(cg *c)
{
    for (int i = 0; i < c->svc.n_rows; i++)
        c->rhs[c->svc.rowno[i]] = c->svc.rhs[i];
}

void cp_cg_svc_load(cg *c, glp_prob *P)
{
    cg_svc *s = &c->svc;
    for (int i = 0; i < s->n_rows; i++) {
        int type = s->rtype[i] == 'E' ? GLP_FX : s->rtype[i] == 'L' ? GLP_LO : GLP_UP;
        glp_set_row_bnds(P, s->rowno[i], type, s->rhs[i], s->rhs[i]);
    }
    if (!s->n_cols)
        return;
    int first = glp_add_cols(P, s->n_cols);
    for (int k = 0; k < s->n_cols; k++) {
        int col = first + k, n = 0;
        s->glp[k] = col;
        if (isinf(s->ub[k]))
            glp_set_col_bnds(P, col, GLP_LO, 0.0, 0.0);
        else
            glp_set_col_bnds(P, col, GLP_DB, 0.0, s->ub[k]);
        glp_set_obj_coef(P, col, s->cost[k]);
        for (int p = s->first[k]; p < s->first[k + 1]; p++) {
            c->ind[++n] = s->row[p];
            c->val[n] = s->val[p];
        }
        glp_set_mat_col(P, col, n, c->ind, c->val);
    }
}

void cp_cg_svc_basis(cg *c, glp_prob *P)
{
    /* u(k,t) = 1 basic in its route row: every route row then holds
     * (only min_replicas rows may need the simplex's first phase) */
    cg_svc *s = &c->svc;
    for (int i = 0; i < s->n_u; i++) {
        int k = s->u_col[i];
        glp_set_col_stat(P, s->glp[k], GLP_BS);
        glp_set_row_stat(P, s->row[s->first[k]], GLP_NS);
    }
}

double cp_cg_svc_price(const cg *c, const double *pi)
{
    const cg_svc *s = &c->svc;
    double L = 0;
    for (int k = 0; k < s->n_cols; k++) {
        double red = s->cost[k];
        for (int p = s->first[k]; p < s->first[k + 1]; p++)
            red -= pi[s->row[p]] * s->val[p];
        if (red >= 0)
            continue;
        if (isinf(s->ub[k])) {
            /* the simplex's optimality tolerance (1e-7 relative) */
            if (red > -1e-7 * (1 + s->cost[k]))
                continue;
            return -INFINITY;
        }
        L += red * s->ub[k];
    }
    return L;
}

int cp_cg_svc_values(const cg *c, glp_prob *P, double **out)
{
    const cg_svc *s = &c->svc;
    *out = NULL;
    if (!s->n_of)
        return CP_OK;
    size_t cells = (size_t)c->ms->n_deps * (size_t)c->T;
    double *n = cp_calloc(cells, sizeof *n);
    if (!n)
        return CP_ERR_NOMEM;
    for (size_t i = 0; i < cells; i++)
        n[i] = s->n_of[i] >= 0 ? glp_get_col_prim(P, s->glp[s->n_of[i]]) : 0;
    *out = n;
    return CP_OK;
}

void cp_cg_svc_release(cg *c)
{
    cg_svc *s = &c->svc;
    cp_free(s->rtype);
    cp_free(s->rhs);
    cp_free(s->rowno);
    cp_free(s->cost);
    cp_free(s->ub);
    cp_free(s->first);
    cp_free(s->row);
    cp_free(s->val);
    cp_free(s->glp);
    cp_free(s->n_of);
    cp_free(s->u_col);
    memset(s, 0, sizeof *s);
}
