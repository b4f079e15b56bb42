/*
 * MIP repair of the neighbourhood search: the jobs of a window are taken
 * out of the plan and GLPK's branch-and-cut re-plans them together, on
 * the time-indexed model of milp_model.c restricted to them, with every
 * other job fixed where it is. One-job re-insertion sees a job at a time:
 * it cannot move three jobs off a half-empty instance and onto another so
 * that one instance is returned, or drop a cheap job to let two dear ones
 * in; a sub-MIP over 10-30 jobs finds such exchanges exactly.
 *
 * Columns: x[i,m,s] for the free jobs' modes and starts that fit the room
 * left (binary), z[i] (drop), y'[r,t] (instances of market r in slot t
 * beyond those the fixed jobs keep rented; integer up to the quota).
 * Rows: one assignment per free job; per pool, dimension and slot, the
 * capacity the fixed jobs leave; per market, dimension and slot, the room
 * left in the rented instances plus y' whole instances; power caps;
 * the budget. The free jobs' own choices are the warm start
 * (glp_ios_heur_sol, checked against every row first, as GLPK takes it
 * as it is), so the answer is never dearer than the start in this model.
 * The model counts instances in aggregate (capplan.5 §3), not which instance a
 * job shares: the caller packs the answer and keeps it only when the
 * packed plan is no worse.
 */
#include "lns_internal.h"

#include "cp_mip.h"
#include "cp_prec.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_num.h"

#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#define SUBMIP_EPS 1e-7

struct cp_submip {
    const cp_usage *u;
    int T;
    int *row_res;  /* [n_res*3*T]: row, 0 none (reset after each solve) */
    int *row_site; /* [n_sites*T] */
    int *ycol;     /* [n_res*T]: y' column, 0 none */
    int *touched;  /* indices set in the three maps, to reset */
    size_t n_touched, cap_touched;
    int n_rows, n_cols;
    double *row_ub; /* [1..n_rows] */
    size_t cap_rows;
    int *cjob, *cmode, *cstart; /* per column: free index, mode (-1 z, -2 y'), start or slot */
    double *cobj, *cub;
    size_t cap_cols;
    int *ia, *ja;
    double *ar;
    size_t nnz, cap_nnz;
    double *warm; /* [1..n_cols] */
    size_t cap_warm;
    double *act; /* [1..n_rows] */
    size_t cap_act;
    /* solve state for the callback */
    const cp_submip_limits *lim;
    bool warm_ok, warm_sent;
    /* precedence (cp_submip_prec): the graph and the plan's choices */
    const cp_prec *g;
    const int *plan_mode, *plan_start;
};

int cp_submip_new(const cp_usage *u, cp_submip **out)
{
    const cp_modeset *ms = u->ms;
    cp_submip *sm = cp_calloc(1, sizeof *sm);
    if (!sm)
        return -1;
    sm->u = u;
    sm->T = u->T;
    size_t nr = (size_t)(ms->n_res ? ms->n_res : 1),
           ns = (size_t)(u->in->n_sites ? u->in->n_sites : 1);
    sm->row_res = cp_calloc(nr * CP_DIMS * (size_t)u->T + 1, sizeof *sm->row_res);
    sm->row_site = cp_calloc(ns * (size_t)u->T + 1, sizeof *sm->row_site);
    sm->ycol = cp_calloc(nr * (size_t)u->T + 1, sizeof *sm->ycol);
    if (!sm->row_res || !sm->row_site || !sm->ycol) {
        cp_submip_free(sm);
        return -1;
    }
    *out = sm;
    return 0;
}

void cp_submip_free(cp_submip *sm)
{
    if (!sm)
        return;
    /* GLPK's environment is per thread (thread-local storage) and lives
     * until freed: the search streams' threads would leak it. No glp_prob
     * outlives the call that made it (docs/architecture.md), so none is
     * alive on this thread now. */
    glp_free_env();
    cp_free(sm->row_res);
    cp_free(sm->row_site);
    cp_free(sm->ycol);
    cp_free(sm->touched);
    cp_free(sm->row_ub);
    cp_free(sm->cjob);
    cp_free(sm->cmode);
    cp_free(sm->cstart);
    cp_free(sm->cobj);
    cp_free(sm->cub);
    cp_free(sm->ia);
    cp_free(sm->ja);
    cp_free(sm->ar);
    cp_free(sm->warm);
    cp_free(sm->act);
    cp_free(sm);
}

/* The maps hold three kinds of index: tag them apart for the reset. */
enum { MAP_RES, MAP_SITE, MAP_Y };

static int touch(cp_submip *sm, int kind, size_t k)
{
    size_t cap = sm->cap_touched;
    if (CP_GROW(sm->touched, cap, 2 * sm->n_touched + 2))
        return -1;
    sm->cap_touched = cap;
    sm->touched[2 * sm->n_touched] = kind;
    sm->touched[2 * sm->n_touched + 1] = (int)k;
    sm->n_touched++;
    return 0;
}

static void reset_maps(cp_submip *sm)
{
    for (size_t i = 0; i < sm->n_touched; i++) {
        int kind = sm->touched[2 * i];
        size_t k = (size_t)sm->touched[2 * i + 1];
        int *map = kind == MAP_RES ? sm->row_res : kind == MAP_SITE ? sm->row_site : sm->ycol;
        map[k] = 0;
    }
    sm->n_touched = 0;
}

static int new_row(cp_submip *sm, double ub)
{
    size_t cap = sm->cap_rows;
    if (CP_GROW(sm->row_ub, cap, (size_t)sm->n_rows + 2))
        return -1;
    sm->cap_rows = cap;
    sm->row_ub[++sm->n_rows] = ub;
    return sm->n_rows;
}

static int new_col(cp_submip *sm, int job, int mode, int start, double obj, double ub)
{
    size_t need = (size_t)sm->n_cols + 2, cap;
    cap = sm->cap_cols;
    if (CP_GROW(sm->cjob, cap, need))
        return -1;
    cap = sm->cap_cols;
    if (CP_GROW(sm->cmode, cap, need))
        return -1;
    cap = sm->cap_cols;
    if (CP_GROW(sm->cstart, cap, need))
        return -1;
    cap = sm->cap_cols;
    if (CP_GROW(sm->cobj, cap, need))
        return -1;
    cap = sm->cap_cols;
    if (CP_GROW(sm->cub, cap, need))
        return -1;
    sm->cap_cols = cap;
    int c = ++sm->n_cols;
    sm->cjob[c] = job;
    sm->cmode[c] = mode;
    sm->cstart[c] = start;
    sm->cobj[c] = obj;
    sm->cub[c] = ub;
    return c;
}

static int nz(cp_submip *sm, int row, int col, double v)
{
    if (v == 0)
        return 0;
    size_t need = sm->nnz + 2, cap = sm->cap_nnz;
    if (CP_GROW(sm->ia, cap, need))
        return -1;
    cap = sm->cap_nnz;
    if (CP_GROW(sm->ja, cap, need))
        return -1;
    cap = sm->cap_nnz;
    if (CP_GROW(sm->ar, cap, need))
        return -1;
    sm->cap_nnz = cap;
    sm->nnz++;
    sm->ia[sm->nnz] = row;
    sm->ja[sm->nnz] = col;
    sm->ar[sm->nnz] = v;
    return 0;
}

/* The room the fixed jobs leave resource r in dimension d and slot t:
 * pool capacity minus use; on a market, the room in the instances rented
 * now (new ones come through y'). */
static double room(const cp_usage *u, int r, int d, int t)
{
    const cp_resource *res = &u->ms->res[r];
    double use = u->use[((size_t)r * CP_DIMS + d) * u->T + t];
    double cap = res->kind == CP_RES_POOL
                     ? cp_usage_cap(u, r, d, t)
                     : u->y[(size_t)r * u->T + t] * cp_machine_dim(res->mach, d);
    return cap - use;
}

static int y_room(const cp_usage *u, int r, int t)
{
    int q = cp_usage_quota(u, r, t) - u->y[(size_t)r * u->T + t];
    return q > 0 ? q : 0;
}

/* Whether mode m at s could fit what the fixed jobs leave (new instances
 * counted up to the quota): columns that cannot are left out. */
static bool col_fits(const cp_usage *u, int mi, int s)
{
    const cp_mode *m = &u->ms->modes[mi];
    const cp_resource *r = &u->ms->res[m->res];
    for (int i = 0; i < m->slots; i++) {
        int t = s + i;
        for (int d = 0; d < CP_DIMS; d++) {
            if (m->demand[d] <= 0)
                continue;
            double free = room(u, m->res, d, t);
            if (r->kind != CP_RES_POOL)
                free += y_room(u, m->res, t) * cp_machine_dim(r->mach, d);
            if (m->demand[d] > free + SUBMIP_EPS * (1 + free))
                return false;
        }
        if (r->kind == CP_RES_POOL && m->busy_w > 0) {
            size_t k = (size_t)r->site * u->T + t;
            double frac = i == m->slots - 1 ? m->last_frac : 1.0;
            if (isfinite(u->allow[k]) &&
                u->busy[k] + m->busy_w * frac > u->allow[k] + SUBMIP_EPS * (1 + u->allow[k]))
                return false;
        }
    }
    return true;
}

/* ---- precedence (capplan.5 §9.2) in the sub-MIP ------------------------------
 * The jobs outside the window are fixed: a free job starts after its
 * fixed predecessors end (none of its columns when one is dropped) and
 * ends by its running fixed successors' starts, which also make it run
 * (no drop column). Between two free jobs i -> j, the rows of
 * milp_model.c's add_precedence: for each start tau of j's columns,
 * sum x_j(s <= tau) - sum x_i(s + slots <= tau) <= 0. */

static int free_index(const int *free, int n, int j)
{
    for (int i = 0; i < n; i++)
        if (free[i] == j)
            return i;
    return -1;
}

/* The window the fixed jobs leave free job j; false when it cannot run;
 * *must when a fixed successor runs. */
static bool fixed_window(const cp_submip *sm, const int *free, int n, int j, int *est, int *lend,
                         bool *must)
{
    const cp_prec *g = sm->g;
    const cp_job *jb = &g->in->jobs[j];
    *est = 0;
    *lend = INT_MAX;
    *must = false;
    for (int a = 0; a < jb->n_after; a++) {
        int i = jb->after[a];
        if (free_index(free, n, i) >= 0)
            continue;
        if (sm->plan_mode[i] < 0)
            return false;
        int e = sm->plan_start[i] + sm->u->ms->modes[sm->plan_mode[i]].slots;
        *est = e > *est ? e : *est;
    }
    for (int q = g->succ_first[j]; q < g->succ_first[j + 1]; q++) {
        int k = g->succ[q];
        if (free_index(free, n, k) >= 0 || sm->plan_mode[k] < 0)
            continue;
        *must = true;
        *lend = sm->plan_start[k] < *lend ? sm->plan_start[k] : *lend;
    }
    return true;
}

static int prec_rows(cp_submip *sm, const int *free, int n)
{
    const cp_modeset *ms = sm->u->ms;
    int n_x = sm->n_cols;
    for (int jf = 0; jf < n; jf++) {
        const cp_job *jb = &sm->g->in->jobs[free[jf]];
        for (int a = 0; a < jb->n_after; a++) {
            int ifr = free_index(free, n, jb->after[a]);
            if (ifr < 0)
                continue;
            /* one row per distinct start of j's columns (in column order) */
            unsigned char *seen = cp_calloc((size_t)sm->T + 1, 1);
            if (!seen)
                return -1;
            for (int c = 1; c <= n_x; c++) {
                if (sm->cjob[c] != jf || sm->cmode[c] < 0 || seen[sm->cstart[c]])
                    continue;
                int tau = sm->cstart[c];
                seen[tau] = 1;
                int row = new_row(sm, 0.0);
                if (row < 0) {
                    cp_free(seen);
                    return -1;
                }
                for (int k = 1; k <= n_x; k++) {
                    if (sm->cmode[k] < 0)
                        continue;
                    if ((sm->cjob[k] == jf && sm->cstart[k] <= tau && nz(sm, row, k, 1.0)) ||
                        (sm->cjob[k] == ifr && sm->cstart[k] + ms->modes[sm->cmode[k]].slots <= tau &&
                         nz(sm, row, k, -1.0))) {
                        cp_free(seen);
                        return -1;
                    }
                }
            }
            cp_free(seen);
        }
    }
    return 0;
}

void cp_submip_prec(cp_submip *sm, const cp_prec *g, const int *mode, const int *start)
{
    sm->g = g && g->any ? g : NULL;
    sm->plan_mode = mode;
    sm->plan_start = start;
}

/* Column c (mode mi from s) in the team rows (cp_teams.h), each row made
 * when a column first touches it, with the room the fixed jobs leave:
 * map[k] is team row k's row here. */
static int team_nz(cp_submip *sm, int *map, int c, int mi, int s)
{
    const cp_usage *u = sm->u;
    int n = cp_teamrows_coefs(&u->teams, mi, s, u->trow, u->tval);
    for (int i = 0; i < n; i++) {
        int k = u->trow[i];
        if (!map[k]) {
            double ub = u->teams.rhs[k] - u->tuse[k];
            if ((map[k] = new_row(sm, ub > 0 ? ub : 0)) < 0)
                return -1;
        }
        if (nz(sm, map[k], c, u->tval[i]))
            return -1;
    }
    return 0;
}

static int build_rows(cp_submip *sm, const int *free, int n, const int *cur_mode,
                      const int *cur_start, int *tmap);

static int build(cp_submip *sm, const int *free, int n, const int *cur_mode, const int *cur_start)
{
    int *tmap = cp_calloc((size_t)sm->u->teams.n_rows + 1, sizeof *tmap);
    if (!tmap)
        return -1;
    int rc = build_rows(sm, free, n, cur_mode, cur_start, tmap);
    cp_free(tmap);
    return rc;
}

static int build_rows(cp_submip *sm, const int *free, int n, const int *cur_mode,
                      const int *cur_start, int *tmap)
{
    const cp_usage *u = sm->u;
    const cp_input *in = u->in;
    const cp_modeset *ms = u->ms;
    int T = sm->T;
    sm->n_rows = sm->n_cols = 0;
    sm->nnz = 0;
    for (int i = 0; i < n; i++)
        if (new_row(sm, 1.0) < 0)
            return -1;
    int budget_row = 0;
    if (in->has_budget && (budget_row = new_row(sm, u->budget - u->spend)) < 0)
        return -1;
    sm->warm_ok = true;
    for (int i = 0; i < n; i++) {
        int j = free[i];
        int cm = cur_mode ? cur_mode[i] : -1, cs = cur_start ? cur_start[i] : 0;
        bool warm_found = cm < 0;
        int est = 0, lend = INT_MAX;
        bool alive = true, must = false;
        if (sm->g)
            alive = fixed_window(sm, free, n, j, &est, &lend, &must);
        for (int mi = ms->job_first[j]; mi < ms->job_first[j + 1]; mi++) {
            const cp_mode *m = &ms->modes[mi];
            const cp_resource *r = &ms->res[m->res];
            bool dominated = u->dominated && u->dominated[mi];
            for (int s = m->s_min; s <= m->s_max; s++) {
                bool is_cur = mi == cm && s == cs;
                /* the current choice always gets its column: it is the
                 * warm start */
                if (!is_cur && (dominated || !cp_usage_start_fits(u, mi, s) || !col_fits(u, mi, s)))
                    continue;
                if (!alive || s < est || s + m->slots > lend)
                    continue; /* precedence with a fixed job */
                double cost = m->egress;
                if (r->kind == CP_RES_POOL) {
                    cp_run_cost rc;
                    cp_pool_run_cost(in, ms, m, s, &rc);
                    cost += rc.energy_cost + rc.carbon_cost;
                }
                /* a re-plan's change is priced, not budgeted (capplan.5 §10.5) */
                int c = new_col(sm, i, mi, s, cost + m->change, 1.0);
                if (c < 0 || nz(sm, i + 1, c, 1.0))
                    return -1;
                if (is_cur)
                    warm_found = true;
                if (budget_row && nz(sm, budget_row, c, cost))
                    return -1;
                if (team_nz(sm, tmap, c, mi, s))
                    return -1;
                for (int k = 0; k < m->slots; k++) {
                    int t = s + k;
                    for (int d = 0; d < CP_DIMS; d++) {
                        if (m->demand[d] <= 0)
                            continue;
                        size_t key = ((size_t)m->res * CP_DIMS + d) * T + t;
                        if (!sm->row_res[key]) {
                            double ub = room(u, m->res, d, t);
                            int row = new_row(sm, ub > 0 ? ub : 0);
                            if (row < 0 || touch(sm, MAP_RES, key))
                                return -1;
                            sm->row_res[key] = row;
                        }
                        if (nz(sm, sm->row_res[key], c, m->demand[d]))
                            return -1;
                    }
                    if (r->kind == CP_RES_POOL && m->busy_w > 0) {
                        size_t key = (size_t)r->site * T + t;
                        if (!isfinite(u->allow[key]))
                            continue;
                        if (!sm->row_site[key]) {
                            double ub = u->allow[key] - u->busy[key];
                            int row = new_row(sm, ub > 0 ? ub : 0);
                            if (row < 0 || touch(sm, MAP_SITE, key))
                                return -1;
                            sm->row_site[key] = row;
                        }
                        double frac = k == m->slots - 1 ? m->last_frac : 1.0;
                        if (nz(sm, sm->row_site[key], c, m->busy_w * frac))
                            return -1;
                    }
                }
            }
        }
        int z = new_col(sm, i, -1, 0, in->jobs[j].drop_penalty, must ? 0.0 : 1.0);
        if (z < 0 || nz(sm, i + 1, z, 1.0))
            return -1;
        sm->warm_ok &= warm_found;
    }
    if (sm->g && prec_rows(sm, free, n))
        return -1;
    /* y' of every market row made above, with -dim in its rows */
    int n_x = sm->n_cols;
    for (int c = 1; c <= n_x; c++) {
        int mi = sm->cmode[c];
        if (mi < 0 || ms->res[ms->modes[mi].res].kind == CP_RES_POOL)
            continue;
        const cp_mode *m = &ms->modes[mi];
        for (int k = 0; k < m->slots; k++) {
            int t = sm->cstart[c] + k;
            size_t key = (size_t)m->res * T + t;
            if (sm->ycol[key])
                continue;
            int yc = new_col(sm, m->res, -2, t, u->slot_cost[key], y_room(u, m->res, t));
            if (yc < 0 || touch(sm, MAP_Y, key))
                return -1;
            sm->ycol[key] = yc;
            for (int d = 0; d < CP_DIMS; d++) {
                int row = sm->row_res[((size_t)m->res * CP_DIMS + d) * T + t];
                if (row && nz(sm, row, yc, -cp_machine_dim(ms->res[m->res].mach, d)))
                    return -1;
            }
            if (budget_row && nz(sm, budget_row, yc, u->slot_cost[key]))
                return -1;
        }
    }
    return 0;
}

/* The warm start: the free jobs' own choices and the fewest new
 * instances that hold them; warm_ok false when it breaks a row (then
 * GLPK starts without it). */
static int make_warm(cp_submip *sm, const int *cur_mode, const int *cur_start)
{
    size_t cap = sm->cap_warm;
    if (CP_GROW(sm->warm, cap, (size_t)sm->n_cols + 1))
        return -1;
    sm->cap_warm = cap;
    cap = sm->cap_act;
    if (CP_GROW(sm->act, cap, (size_t)sm->n_rows + 1))
        return -1;
    sm->cap_act = cap;
    memset(sm->warm, 0, ((size_t)sm->n_cols + 1) * sizeof *sm->warm);
    memset(sm->act, 0, ((size_t)sm->n_rows + 1) * sizeof *sm->act);
    for (int c = 1; c <= sm->n_cols; c++) {
        int i = sm->cjob[c], mi = sm->cmode[c];
        if (mi == -1 ? cur_mode[i] < 0
                     : mi >= 0 && mi == cur_mode[i] && sm->cstart[c] == cur_start[i])
            sm->warm[c] = 1;
    }
    for (size_t k = 1; k <= sm->nnz; k++)
        if (sm->cmode[sm->ja[k]] != -2)
            sm->act[sm->ia[k]] += sm->ar[k] * sm->warm[sm->ja[k]];
    /* y' per market slot: the most any of its rows needs */
    for (size_t k = 1; k <= sm->nnz; k++) {
        int c = sm->ja[k];
        if (sm->cmode[c] != -2 || sm->ar[k] >= 0)
            continue;
        int row = sm->ia[k];
        double over = sm->act[row] - sm->row_ub[row];
        double need = over > SUBMIP_EPS ? ceil(over / -sm->ar[k] - 1e-9) : 0;
        if (need > sm->warm[c])
            sm->warm[c] = need;
    }
    memset(sm->act, 0, ((size_t)sm->n_rows + 1) * sizeof *sm->act);
    for (size_t k = 1; k <= sm->nnz; k++)
        sm->act[sm->ia[k]] += sm->ar[k] * sm->warm[sm->ja[k]];
    bool ok = sm->warm_ok;
    for (int c = 1; c <= sm->n_cols && ok; c++)
        ok = sm->warm[c] <= sm->cub[c] + 1e-9;
    /* (the assignment rows hold: one column of each job is 1) */
    for (int r = 1; r <= sm->n_rows && ok; r++)
        ok = sm->act[r] <= sm->row_ub[r] + 1e-6 * (1 + fabs(sm->row_ub[r]));
    sm->warm_ok = ok;
    return 0;
}

static void callback(glp_tree *tree, void *info)
{
    cp_submip *sm = info;
    const cp_submip_limits *lim = sm->lim;
    if ((lim->stop && *lim->stop) || cp_now_seconds() > lim->deadline) {
        glp_ios_terminate(tree);
        return;
    }
    if (glp_ios_reason(tree) == GLP_IHEUR && sm->warm_ok && !sm->warm_sent) {
        sm->warm_sent = true;
        glp_ios_heur_sol(tree, sm->warm);
    }
    int a, nn, t;
    glp_ios_tree_size(tree, &a, &nn, &t);
    if (t > lim->nodes)
        glp_ios_terminate(tree);
}

/* The built model in a new glp_prob: binaries and integers, or (lp) all
 * continuous. */
static glp_prob *load(const cp_submip *sm, int n, bool lp)
{
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, sm->n_rows);
    glp_add_cols(P, sm->n_cols);
    for (int r = 1; r <= sm->n_rows; r++) {
        if (r <= n)
            glp_set_row_bnds(P, r, GLP_FX, 1.0, 1.0);
        else
            glp_set_row_bnds(P, r, GLP_UP, 0.0, sm->row_ub[r]);
    }
    for (int c = 1; c <= sm->n_cols; c++) {
        glp_set_obj_coef(P, c, sm->cobj[c]);
        if (sm->cub[c] > 0)
            glp_set_col_bnds(P, c, GLP_DB, 0.0, sm->cub[c]);
        else
            glp_set_col_bnds(P, c, GLP_FX, 0.0, 0.0);
        if (!lp)
            glp_set_col_kind(P, c, sm->cmode[c] == -2 ? GLP_IV : GLP_BV);
    }
    if (sm->nnz)
        glp_load_matrix(P, (int)sm->nnz, sm->ia, sm->ja, sm->ar);
    return P;
}

static int lp_solve(glp_prob *P, const cp_submip_limits *lim)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.it_lim = lim->lp_iterations;
    return glp_simplex(P, &sp) == 0 && glp_get_status(P) == GLP_OPT;
}

/* The answer's columns into mode[]/start[] (x: [1..n_cols]). */
static void take_answer(const cp_submip *sm, int n, const double *x, int *mode, int *start)
{
    for (int i = 0; i < n; i++)
        mode[i] = -1;
    for (int c = 1; c <= sm->n_cols; c++)
        if (sm->cmode[c] >= 0 && x[c] > 0.5) {
            mode[sm->cjob[c]] = sm->cmode[c];
            start[sm->cjob[c]] = sm->cstart[c];
        }
}

/* The built model solved by CBC as a separate program (mip_cbc.c): 1 with
 * an answer, 0 none, -1 out of memory. */
static int cbc_solve(const cp_submip *sm, int n, const cp_submip_limits *lim, int *mode, int *start)
{
    size_t nr = (size_t)sm->n_rows + 1, nc = (size_t)sm->n_cols + 1;
    double *lo = cp_malloc(nr * sizeof *lo), *hi = cp_malloc(nr * sizeof *hi);
    double *clo = cp_calloc(nc, sizeof *clo), *x = cp_calloc(nc, sizeof *x);
    bool *isint = cp_malloc(nc * sizeof *isint);
    int found = -1;
    if (lo && hi && clo && x && isint) {
        for (int r = 1; r <= sm->n_rows; r++) {
            lo[r] = r <= n ? 1.0 : -INFINITY;
            hi[r] = r <= n ? 1.0 : sm->row_ub[r];
        }
        for (size_t c = 0; c < nc; c++)
            isint[c] = true;
        cp_mip m = {sm->n_rows, sm->n_cols, lo,     hi,     sm->cobj, clo,
                    sm->cub,    isint,      sm->nnz, sm->ia, sm->ja,   sm->ar,
                    sm->warm_ok ? sm->warm : NULL};
        cp_mip_limits ml = {lim->nodes, 1e-7, lim->deadline, lim->seed, lim->stop, false};
        cp_mip_result res;
        cp_err err;
        cp_err_init(&err);
        int rc = cp_mip_cbc_solve(&m, &ml, x, &res, &err);
        found = rc == CP_ERR_NOMEM ? -1 : 0;
        if (rc == CP_OK && (res.status == CP_MIP_OPTIMAL || res.status == CP_MIP_FEASIBLE)) {
            take_answer(sm, n, x, mode, start);
            found = 1;
        }
    }
    cp_free(lo);
    cp_free(hi);
    cp_free(clo);
    cp_free(x);
    cp_free(isint);
    return found;
}

int cp_submip_solve(cp_submip *sm, const int *free, int n, const int *cur_mode,
                    const int *cur_start, const cp_submip_limits *lim, int *mode, int *start)
{
    int rc = build(sm, free, n, cur_mode, cur_start);
    if (rc == 0)
        rc = make_warm(sm, cur_mode, cur_start);
    reset_maps(sm);
    if (rc)
        return -1;
    if (lim->engine == CP_MIP_CBC)
        return cbc_solve(sm, n, lim, mode, start);
    glp_prob *P = load(sm, n, false);
    int found = 0;
    if (lp_solve(P, lim)) {
        glp_iocp io;
        glp_init_iocp(&io);
        io.msg_lev = GLP_MSG_OFF;
        io.presolve = GLP_OFF; /* glp_ios_heur_sol needs the original columns */
        io.mip_gap = 1e-7;
        io.cb_func = callback;
        io.cb_info = sm;
        double left = lim->deadline - cp_now_seconds();
        io.tm_lim = cp_num_clamp_int(left * 1000, 1, INT_MAX);
        sm->lim = lim;
        sm->warm_sent = false;
        glp_intopt(P, &io);
        int st = glp_mip_status(P);
        if (st == GLP_OPT || st == GLP_FEAS) {
            for (int i = 0; i < n; i++)
                mode[i] = -1;
            for (int c = 1; c <= sm->n_cols; c++)
                if (sm->cmode[c] >= 0 && glp_mip_col_val(P, c) > 0.5) {
                    mode[sm->cjob[c]] = sm->cmode[c];
                    start[sm->cjob[c]] = sm->cstart[c];
                }
            found = 1;
        }
    }
    glp_delete_prob(P);
    return found;
}

int cp_submip_lp(cp_submip *sm, const int *free, int n, const cp_submip_limits *lim, int *mode,
                 int *start, double *weight)
{
    int rc = build(sm, free, n, NULL, NULL);
    reset_maps(sm);
    if (rc)
        return -1;
    glp_prob *P = load(sm, n, true);
    int found = 0;
    if (lp_solve(P, lim)) {
        for (int i = 0; i < n; i++) {
            mode[i] = -1;
            weight[i] = -1;
        }
        for (int c = 1; c <= sm->n_cols; c++) {
            if (sm->cmode[c] == -2)
                continue;
            int i = sm->cjob[c];
            double v = glp_get_col_prim(P, c);
            if (v > weight[i]) {
                weight[i] = v;
                mode[i] = sm->cmode[c];
                start[i] = sm->cstart[c];
            }
        }
        found = 1;
    }
    glp_delete_prob(P);
    return found;
}
