/*
 * The what-if runner: the merged input, each scenario checked on a copy
 * that is dropped at once (cp_whatif_prepare), then each entry's copy
 * built again when it is planned or emitted and freed after, so memory
 * is the input times the workers (-j), not times the scenarios (10,000
 * sweep values on a 330 KB input wanted about 40 GB); each planned
 * exactly as `plan` plans (load
 * from the tree, cp_modes_build, cp_plan_new, cp_plan_solve with the same
 * cp_solve_opts) and summarised in a row of figures from cp_plan_eval.
 *
 * Threads: `jobs` workers take the next entry from a shared counter and
 * write only their own row, so the table does not depend on the order in
 * which they finish. The library is thread-safe for this: allocation
 * counters are _Thread_local, nothing else is global, and Debian's GLPK
 * is built with thread-local environments (glp_config("TLS") answers
 * "_Thread_local"), which the MILP frees with glp_free_env after each
 * solve. Every solve is deterministic for fixed options (whatever
 * --threads a method uses), so rows are byte-identical for any `jobs`.
 */
#include "whatif_internal.h"

#include "cp_alloc.h"
#include "cp_plan.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct cp_whatif {
    int n;              /* entries: baseline, then the scenarios */
    cp_node *base;      /* the merged input, owned */
    const wi_scenario **scen; /* [n] borrowed; [0] NULL */
};

/* Entry i's input: the baseline itself (i == 0, *owned false) or a new
 * copy with scenario i applied (*owned true: the caller frees it). */
static int entry_tree(const cp_whatif *w, int i, cp_node **tree, bool *owned, cp_diags *d)
{
    *owned = i > 0;
    if (i == 0) {
        *tree = w->base;
        return CP_OK;
    }
    cp_node *t = cp_wi_clone(w->base);
    if (!t)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    int rc = cp_wi_apply(t, w->scen[i], d);
    if (rc) {
        cp_node_free(t);
        return rc;
    }
    *tree = t;
    return CP_OK;
}

int cp_whatif_prepare(cp_node *const *roots, int n_roots, const cp_scenarios *sc, cp_whatif **out,
                      cp_diags *d)
{
    return cp_whatif_prepare_check(roots, n_roots, sc, true, out, d);
}

int cp_whatif_prepare_check(cp_node *const *roots, int n_roots, const cp_scenarios *sc, bool check,
                            cp_whatif **out, cp_diags *d)
{
    cp_whatif *w = cp_calloc(1, sizeof *w);
    int n = 1 + cp_scenarios_count(sc), rc = CP_OK;
    if (!w || !(w->scen = cp_calloc((size_t)n, sizeof *w->scen))) {
        cp_whatif_free(w);
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    if ((rc = cp_wi_merge(roots, n_roots, &w->base)) != CP_OK) {
        cp_whatif_free(w);
        return cp_diags_add(d, rc, cp_pos_none(), "out of memory");
    }
    w->n = n;
    int worst = CP_OK;
    for (int i = 1; i < n; i++) {
        w->scen[i] = &sc->v[i - 1];
        if (!check)
            continue;
        /* checked now, on a copy kept no longer than the check */
        cp_node *t = NULL;
        bool owned;
        rc = entry_tree(w, i, &t, &owned, d);
        cp_node_free(t);
        if (rc == CP_ERR_NOMEM)
            break;
        if (rc && !worst)
            worst = rc;
        rc = CP_OK;
    }
    if (rc == CP_OK)
        rc = worst;
    if (rc != CP_OK) {
        cp_whatif_free(w);
        return rc;
    }
    *out = w;
    return CP_OK;
}

int cp_whatif_count(const cp_whatif *w)
{
    return w->n;
}

const char *cp_whatif_name(const cp_whatif *w, int i)
{
    return i == 0 ? "baseline" : w->scen[i]->name;
}

int cp_whatif_emit(const cp_whatif *w, int i, cp_buf *out, cp_err *err)
{
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d)
        return cp_err_nomem(err);
    cp_diags_init(d);
    cp_node *t = NULL;
    bool owned = false;
    int rc = entry_tree(w, i, &t, &owned, d);
    if (rc == CP_OK)
        rc = cp_yaml_emit(t, out, err);
    else if (d->n)
        *err = d->items[0]; /* the scenario applied when checked: only out of memory is left */
    else
        cp_err_nomem(err);
    if (owned)
        cp_node_free(t);
    cp_free(d);
    return rc;
}

void cp_whatif_free(cp_whatif *w)
{
    if (!w)
        return;
    cp_node_free(w->base);
    cp_free(w->scen);
    cp_free(w);
}

void cp_whatif_table_free(cp_whatif_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n_rows; i++) {
        cp_whatif_row *r = &t->rows[i];
        cp_free(r->name);
        cp_free(r->status);
        cp_free(r->error);
        cp_free(r->sweep);
        cp_free(r->dropped_jobs);
        cp_free(r->acc_hours_onprem);
        cp_free(r->acc_hours_cloud);
        for (int a = 0; a < r->n_accs; a++)
            cp_free(r->accs[a]);
        cp_free(r->accs);
        for (int k = 0; k < r->n_teams; k++)
            cp_free(r->teams[k]);
        cp_free(r->teams);
        cp_free(r->teams_cost);
        cp_free(r->team_cost);
        cp_wi_svc_row_free(r);
    }
    cp_free(t->rows);
    for (int i = 0; i < t->n_acc; i++)
        cp_free(t->acc_names[i]);
    cp_free(t->acc_names);
    for (int i = 0; i < t->n_team; i++)
        cp_free(t->team_names[i]);
    cp_free(t->team_names);
    cp_wi_svc_table_free(t);
    cp_free(t);
}

/* ---- planning one entry ------------------------------------------------ */

typedef struct entry {
    cp_whatif_row row;
    wi_rowacc ra; /* accelerator names of this entry's input, hours per name */
    int rc;        /* a failure that stops the run */
    cp_err err;
} entry;

typedef struct run_ctx {
    const cp_whatif *w;
    const cp_whatif_run_opts *o;
    entry *e;
    int next;
    bool failed;
    pthread_mutex_t lock;
} run_ctx;

typedef struct log_ctx {
    const cp_solve_opts *so;
    const char *name;
} log_ctx;

/* The shard rule lives here, with the planning it selects rows for:
 * whatif_shard.c writes and merges shard files with it and calls this
 * file, never the other way round. */
bool cp_whatif_in_shard(int i, int k, int n)
{
    return n <= 1 || i % n == k;
}

static void log_prefixed(void *arg, const char *line)
{
    const log_ctx *l = arg;
    char buf[700];
    snprintf(buf, sizeof buf, "%s: %s", l->name, line);
    l->so->log(l->so->log_arg, buf);
}

static char *err_text(const cp_err *e)
{
    cp_buf b;
    cp_buf_init(&b);
    if (e->file[0]) {
        cp_buf_puts(&b, e->file);
        if (e->line > 0)
            cp_buf_printf(&b, ":%d", e->line);
        if (e->line > 0 && e->col > 0)
            cp_buf_printf(&b, ":%d", e->col);
        cp_buf_puts(&b, ": ");
    }
    cp_buf_puts(&b, e->msg);
    return cp_buf_detach(&b);
}

/* Status `invalid` with the error; false on out of memory. */
static bool set_invalid(entry *en, const cp_err *e, int more)
{
    cp_free(en->row.status);
    en->row.status = cp_strdup("invalid");
    en->row.error = err_text(e);
    if (en->row.error && more > 0) {
        size_t len = strlen(en->row.error) + 40;
        char *s = cp_malloc(len);
        if (s)
            snprintf(s, len, "%s (and %d more error%s)", en->row.error, more, more > 1 ? "s" : "");
        cp_free(en->row.error);
        en->row.error = s;
    }
    return en->row.status && en->row.error;
}

static int fill_figures(entry *en, const cp_input *in, const cp_modeset *ms, const cp_plan *p,
                        cp_err *err)
{
    cp_whatif_row *r = &en->row;
    cp_plan_figures f;
    int rc = cp_plan_eval(p, &f, err);
    if (rc)
        return rc;
    r->costs = f.costs;
    if (in->n_teams) { /* capplan.5 §10.2: the plan's `teams` */
        r->teams = cp_calloc((size_t)in->n_teams, sizeof *r->teams);
        r->teams_cost = cp_calloc((size_t)in->n_teams, sizeof *r->teams_cost);
        for (int k = 0; r->teams && r->teams_cost && k < in->n_teams; k++) {
            if (!(r->teams[k] = cp_strdup(in->teams[k].name)))
                break;
            r->teams_cost[k] = f.team_cost[k];
            r->n_teams++;
        }
        if (r->n_teams < in->n_teams) {
            cp_plan_figures_release(&f);
            return cp_err_nomem(err);
        }
    }
    if (cp_wi_svc_fill(r, in, p, &f)) { /* capplan.5 §10.4 */
        cp_plan_figures_release(&f);
        return cp_err_nomem(err);
    }
    unsigned when = cp_cost_when(in);
    for (int i = 0; i < CP_COST_N; i++)
        if (!cp_cost_part_shown(i, when) &&
            !(cp_cost_part_info[i].flags & CP_COST_ZERO_COLUMN))
            r->costs.v[i] = NAN;
    cp_plan_figures_release(&f);
    r->dropped = 0;
    cp_buf names;
    cp_buf_init(&names);
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] < 0)
            cp_buf_printf(&names, "%s%s", names.len ? ", " : "", in->jobs[j].name);
    if (!cp_buf_ok(&names)) {
        cp_buf_release(&names);
        return cp_err_nomem(err);
    }
    if (names.len) {
        r->dropped_jobs = cp_buf_detach(&names);
        if (!r->dropped_jobs)
            return cp_err_nomem(err);
    }
    cp_buf_release(&names);
    for (int j = 0; j < p->n_jobs; j++) {
        if (p->mode[j] < 0) {
            r->dropped++;
            continue;
        }
        const cp_mode *m = &ms->modes[p->mode[j]];
        if (m->acc < 0)
            continue;
        double h = m->demand[CP_DIM_ACC] * m->hours;
        if (ms->res[m->res].kind == CP_RES_POOL)
            en->ra.on[m->acc] += h;
        else
            en->ra.cl[m->acc] += h;
    }
    double spot = 0, all = 0;
    for (int res = 0; res < ms->n_res; res++) {
        if (ms->res[res].kind == CP_RES_POOL)
            continue;
        double ih = 0;
        for (int t = 0; t < p->slots; t++)
            ih += *cp_plan_y(p, res, t) * in->slot_hours;
        all += ih;
        if (ms->res[res].kind == CP_RES_SPOT)
            spot += ih;
    }
    r->spot_share = all > 0 ? spot / all : 0;
    return CP_OK;
}

static int plan_entry(run_ctx *c, int i)
{
    entry *en = &c->e[i];
    const cp_solve_opts *so0 = c->o->solve_opts;
    cp_input *in = NULL;
    cp_modeset *ms = NULL;
    cp_plan *plan = NULL;
    int rc;
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d)
        return cp_err_nomem(&en->err);
    cp_diags_init(d);
    cp_node *tree = NULL;
    bool owned = false;
    rc = entry_tree(c->w, i, &tree, &owned, d);
    if (rc == CP_OK)
        rc = cp_input_from_trees(&tree, 1, &in, d);
    if (rc == CP_ERR_INPUT) {
        rc = set_invalid(en, &d->items[0], d->n - 1 + d->dropped) ? CP_OK : cp_err_nomem(&en->err);
        goto out;
    }
    if (rc) {
        rc = cp_err_nomem(&en->err);
        goto out;
    }
    en->ra.n_acc = in->n_accels;
    en->ra.acc = cp_calloc((size_t)(in->n_accels ? in->n_accels : 1), sizeof *en->ra.acc);
    en->ra.on = cp_calloc((size_t)(in->n_accels ? in->n_accels : 1), sizeof *en->ra.on);
    en->ra.cl = cp_calloc((size_t)(in->n_accels ? in->n_accels : 1), sizeof *en->ra.cl);
    if (!en->ra.acc || !en->ra.on || !en->ra.cl) {
        rc = cp_err_nomem(&en->err);
        goto out;
    }
    for (int a = 0; a < in->n_accels; a++)
        if (!(en->ra.acc[a] = cp_strdup(in->accels[a].name))) {
            rc = cp_err_nomem(&en->err);
            goto out;
        }
    cp_solve_opts so = *so0;
    log_ctx lc = {so0, en->row.name};
    if (so0->log) {
        so.log = log_prefixed;
        so.log_arg = &lc;
    }
    if ((rc = cp_modes_build(in, &ms, &en->err)) || (rc = cp_plan_new(in, ms, &plan)) ||
        (rc = cp_plan_solve(in, ms, c->o->ops, &so, plan, &en->err))) {
        if (rc == CP_ERR_NOMEM)
            cp_err_nomem(&en->err);
        if (rc == CP_ERR_INPUT)
            rc = set_invalid(en, &en->err, 0) ? CP_OK : cp_err_nomem(&en->err);
        goto out;
    }
    cp_free(en->row.status);
    en->row.status = cp_strdup(plan->status == CP_STATUS_NOPLAN ? "noplan"
                                                                : cp_plan_status_name(plan->status));
    if (!en->row.status) {
        rc = cp_err_nomem(&en->err);
        goto out;
    }
    if (plan->status != CP_STATUS_NOPLAN && plan->status != CP_STATUS_INFEASIBLE)
        rc = fill_figures(en, in, ms, plan, &en->err);
out:
    cp_plan_free(plan);
    cp_modeset_free(ms);
    cp_input_free(in);
    if (owned) /* after the input, which borrows its strings */
        cp_node_free(tree);
    cp_free(d);
    return rc;
}

static void *worker(void *arg)
{
    run_ctx *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int i = c->next++;
        bool stop = c->failed;
        pthread_mutex_unlock(&c->lock);
        if (i >= c->w->n)
            break;
        const cp_solve_opts *so = c->o->solve_opts;
        if (stop || (so->stop && *so->stop))
            continue; /* the row stays `interrupted` */
        if (c->o->n_shards > 1 && !cp_whatif_in_shard(i, c->o->shard, c->o->n_shards))
            continue; /* another shard's row */
        entry *en = &c->e[i];
        en->rc = plan_entry(c, i);
        if (en->rc) {
            pthread_mutex_lock(&c->lock);
            c->failed = true;
            pthread_mutex_unlock(&c->lock);
        } else if (c->o->row_done) {
            c->o->row_done(c->o->row_done_arg, &en->row);
        }
    }
    return NULL;
}

static int acc_index(cp_whatif_table *t, const char *name, size_t *cap)
{
    for (int a = 0; a < t->n_acc; a++)
        if (!strcmp(t->acc_names[a], name))
            return a;
    if (CP_GROW(t->acc_names, *cap, (size_t)t->n_acc + 1))
        return -1;
    if (!(t->acc_names[t->n_acc] = cp_strdup(name)))
        return -1;
    return t->n_acc++;
}

static int team_index(cp_whatif_table *t, const char *name, size_t *cap)
{
    for (int k = 0; k < t->n_team; k++)
        if (!strcmp(t->team_names[k], name))
            return k;
    if (CP_GROW(t->team_names, *cap, (size_t)t->n_team + 1))
        return -1;
    if (!(t->team_names[t->n_team] = cp_strdup(name)))
        return -1;
    return t->n_team++;
}

/* One cost column per team of any row (capplan.5 §10.2), first seen
 * first; NAN where a row has no plan or its input no such team. */
static int build_team_columns(cp_whatif_table *t)
{
    size_t cap = 0;
    for (int i = 0; i < t->n_rows; i++)
        for (int k = 0; k < t->rows[i].n_teams; k++)
            if (team_index(t, t->rows[i].teams[k], &cap) < 0)
                return CP_ERR_NOMEM;
    for (int i = 0; t->n_team && i < t->n_rows; i++) {
        cp_whatif_row *r = &t->rows[i];
        if (!(r->team_cost = cp_malloc((size_t)t->n_team * sizeof *r->team_cost)))
            return CP_ERR_NOMEM;
        for (int k = 0; k < t->n_team; k++)
            r->team_cost[k] = NAN;
        for (int k = 0; k < r->n_teams; k++)
            r->team_cost[team_index(t, r->teams[k], &cap)] = r->teams_cost[k];
    }
    return CP_OK;
}

int cp_wi_build_columns(cp_whatif_table *t, const wi_rowacc *ra)
{
    size_t cap = 0;
    for (int i = 0; i < t->n_rows; i++)
        for (int a = 0; a < ra[i].n_acc; a++)
            if (acc_index(t, ra[i].acc[a], &cap) < 0)
                return CP_ERR_NOMEM;
    size_t n = (size_t)(t->n_acc ? t->n_acc : 1);
    for (int i = 0; i < t->n_rows; i++) {
        cp_whatif_row *r = &t->rows[i];
        if (!(r->acc_hours_onprem = cp_calloc(n, sizeof(double))) ||
            !(r->acc_hours_cloud = cp_calloc(n, sizeof(double))))
            return CP_ERR_NOMEM;
        bool has_plan = !isnan(r->costs.total);
        for (int a = 0; a < t->n_acc; a++)
            r->acc_hours_onprem[a] = r->acc_hours_cloud[a] = has_plan ? 0 : NAN;
        for (int a = 0; has_plan && a < ra[i].n_acc; a++) {
            int k = acc_index(t, ra[i].acc[a], &cap);
            r->acc_hours_onprem[k] = ra[i].on[a];
            r->acc_hours_cloud[k] = ra[i].cl[a];
        }
    }
    if (build_team_columns(t) != CP_OK || cp_wi_svc_columns(t) != CP_OK)
        return CP_ERR_NOMEM;
    const cp_whatif_row *b = &t->rows[0];
    for (int i = 0; i < t->n_rows; i++) {
        cp_whatif_row *r = &t->rows[i];
        r->delta = r->costs.total - b->costs.total; /* NAN when either is */
        r->delta_pct = b->costs.total != 0 ? r->delta / fabs(b->costs.total) * 100 : NAN;
    }
    return CP_OK;
}

static void entry_release(entry *en)
{
    for (int a = 0; a < en->ra.n_acc; a++)
        if (en->ra.acc)
            cp_free(en->ra.acc[a]);
    cp_free(en->ra.acc);
    cp_free(en->ra.on);
    cp_free(en->ra.cl);
}

int cp_whatif_run(const cp_whatif *w, const cp_whatif_run_opts *o, cp_whatif_table **out,
                  cp_err *err)
{
    int rc = CP_OK;
    cp_whatif_table *t = cp_calloc(1, sizeof *t);
    entry *e = cp_calloc((size_t)w->n, sizeof *e);
    if (!t || !e || !(t->rows = cp_calloc((size_t)w->n, sizeof *t->rows))) {
        cp_free(e);
        cp_whatif_table_free(t);
        return cp_err_nomem(err);
    }
    t->n_rows = w->n;
    for (int i = 0; i < w->n; i++) {
        cp_whatif_row *r = &e[i].row;
        const wi_scenario *s = w->scen[i];
        r->name = cp_strdup(cp_whatif_name(w, i));
        r->status = cp_strdup("interrupted");
        r->sweep = s && s->sweep ? cp_strdup(s->sweep) : NULL;
        r->sweep_value = s ? s->sweep_value : NAN;
        for (int k = 0; k < CP_COST_N; k++)
            r->costs.v[k] = NAN;
        r->spot_share = r->delta = r->delta_pct = NAN;
        r->dropped = -1;
        if (!r->name || !r->status || (s && s->sweep && !r->sweep))
            rc = CP_ERR_NOMEM;
    }
    if (rc == CP_OK) {
        run_ctx c = {w, o, e, 0, false, PTHREAD_MUTEX_INITIALIZER};
        int jobs = o->jobs < 1 ? 1 : o->jobs > w->n ? w->n : o->jobs;
        pthread_t th[64];
        int started = 0;
        if (jobs > 64)
            jobs = 64;
        for (int k = 1; k < jobs; k++, started++)
            if (pthread_create(&th[started], NULL, worker, &c))
                break;
        worker(&c); /* this thread works too: -j 1 starts no thread */
        for (int k = 0; k < started; k++)
            pthread_join(th[k], NULL);
        pthread_mutex_destroy(&c.lock);
        for (int i = 0; i < w->n && rc == CP_OK; i++)
            if (e[i].rc) {
                rc = e[i].rc;
                *err = e[i].err;
            }
    } else {
        cp_err_nomem(err);
    }
    for (int i = 0; i < w->n; i++)
        t->rows[i] = e[i].row; /* the table owns the strings now */
    wi_rowacc *ra = rc == CP_OK ? cp_calloc((size_t)w->n, sizeof *ra) : NULL;
    for (int i = 0; ra && i < w->n; i++)
        ra[i] = e[i].ra;
    if (rc == CP_OK && (!ra || cp_wi_build_columns(t, ra) != CP_OK))
        rc = cp_err_nomem(err);
    cp_free(ra);
    for (int i = 0; i < w->n; i++) {
        /* the row keeps its input's types (shard files record them) */
        t->rows[i].accs = e[i].ra.acc;
        t->rows[i].n_accs = e[i].ra.acc ? e[i].ra.n_acc : 0;
        e[i].ra.acc = NULL;
        entry_release(&e[i]);
    }
    cp_free(e);
    if (rc != CP_OK) {
        cp_whatif_table_free(t);
        return rc;
    }
    *out = t;
    return CP_OK;
}
