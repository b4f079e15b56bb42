/*
 * Reading a plan file (SPEC 5) for the report. Like `capplan verify`, it
 * works on the parsed tree (models/cp_yaml.h), so YAML and JSON plans
 * read alike and every structural error points at its node with
 * FILE:LINE:COLUMN. It only checks what drawing needs (types, required
 * fields, per-slot lists of one length); whether the plan is right is
 * `verify`'s business, and the report shows verify's verdict when it has
 * the inputs.
 *
 * The slot count T comes from the inputs, else from the first per-slot
 * list of the plan; the slot length h from the inputs, else from a job
 * that starts after slot 0 (start_hour / start_slot), else 1 h.
 */
#include "report_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <string.h>

typedef struct rctx {
    rp_plan *p;
    cp_diags *d;
    bool oom;
} rctx;

static const char *const dim_key[3] = {"accelerators", "cpus", "memory_gb"};

const char *rp_market_name(int market)
{
    return market == RP_POOL ? "pool" : market == RP_SPOT ? "spot" : "on_demand";
}

/* The value under `key`, NULL when absent or null. */
static const cp_node *get(const cp_node *map, const char *key)
{
    if (!map || map->kind != CP_NODE_MAP)
        return NULL;
    const cp_node *v = cp_map_get(map, key);
    return v && cp_scalar_is_null(v) ? NULL : v;
}

static const char *found(const cp_node *v)
{
    return v->kind == CP_NODE_SCALAR ? v->str : v->kind == CP_NODE_SEQ ? "a list" : "a mapping";
}

static const char *str_field(rctx *c, const cp_node *map, const char *key, const char *who,
                             bool required)
{
    const cp_node *v = get(map, key);
    if (!v) {
        if (required)
            cp_diags_add(c->d, CP_ERR_INPUT, map->pos, "%s: missing '%s'", who, key);
        return NULL;
    }
    if (v->kind != CP_NODE_SCALAR) {
        cp_diags_add(c->d, CP_ERR_INPUT, v->pos, "%s: '%s' must be a string, found %s", who, key,
                     found(v));
        return NULL;
    }
    return v->str;
}

/* NAN when absent (an error when required) or not a finite number. */
static double num_field(rctx *c, const cp_node *map, const char *key, const char *who,
                        bool required)
{
    const cp_node *v = get(map, key);
    double x;
    if (!v) {
        if (required)
            cp_diags_add(c->d, CP_ERR_INPUT, map->pos, "%s: missing '%s'", who, key);
        return NAN;
    }
    if (!cp_scalar_number(v, &x) || !isfinite(x)) {
        cp_diags_add(c->d, CP_ERR_INPUT, v->pos, "%s: '%s' must be a finite number, found %s",
                     who, key, found(v));
        return NAN;
    }
    return x;
}

static long int_field(rctx *c, const cp_node *map, const char *key, const char *who)
{
    double x = num_field(c, map, key, who, false);
    if (isnan(x))
        return -1;
    if (x != floor(x) || x < 0 || x > 1e9) {
        cp_diags_add(c->d, CP_ERR_INPUT, get(map, key)->pos,
                     "%s: '%s' must be a whole number >= 0", who, key);
        return -1;
    }
    return (long)x;
}

/* The list under `key`, NULL when absent (an error when required). */
static const cp_node *seq_field(rctx *c, const cp_node *map, const char *key, const char *who,
                                bool required)
{
    const cp_node *v = get(map, key);
    if (!v) {
        if (required)
            cp_diags_add(c->d, CP_ERR_INPUT, map->pos, "%s: missing '%s'", who, key);
        return NULL;
    }
    if (v->kind != CP_NODE_SEQ) {
        cp_diags_add(c->d, CP_ERR_INPUT, v->pos, "%s: '%s' must be a list, found %s", who, key,
                     found(v));
        return NULL;
    }
    return v;
}

/* A per-slot list: checked against T once T is known (second pass). */
static double *series(rctx *c, const cp_node *map, const char *key, const char *who)
{
    const cp_node *s = seq_field(c, map, key, who, true);
    if (!s)
        return NULL;
    if (s->n == 0) {
        cp_diags_add(c->d, CP_ERR_INPUT, s->pos, "%s: '%s' is empty, expected one value per slot",
                     who, key);
        return NULL;
    }
    if (c->p->T == 0)
        c->p->T = (int)s->n;
    if ((int)s->n != c->p->T) {
        cp_diags_add(c->d, CP_ERR_INPUT, s->pos, "%s: '%s' has %zu values, expected %d (one per slot%s)",
                     who, key, s->n, c->p->T, c->p->in ? " of the inputs" : "");
        return NULL;
    }
    double *v = cp_calloc(s->n, sizeof *v);
    if (!v) {
        c->oom = true;
        return NULL;
    }
    for (size_t t = 0; t < s->n; t++)
        if (!cp_scalar_number(s->kids[t], &v[t]) || !isfinite(v[t])) {
            cp_diags_add(c->d, CP_ERR_INPUT, s->kids[t]->pos,
                         "%s: %s[%zu] must be a finite number, found %s", who, key, t,
                         found(s->kids[t]));
            v[t] = 0;
        }
    return v;
}

static bool is_map(rctx *c, const cp_node *n, const char *what)
{
    if (n->kind == CP_NODE_MAP)
        return true;
    cp_diags_add(c->d, CP_ERR_INPUT, n->pos, "plan: %s must be a mapping, found %s", what, found(n));
    return false;
}

/* False when the file is not a capplan plan at all: then nothing else
 * of it is worth a message. */
static bool read_version(rctx *c, const cp_node *root)
{
    const cp_node *vn = get(root, "capplan_plan");
    double ver;
    if (!vn) {
        cp_diags_add(c->d, CP_ERR_INPUT, root->pos, "missing 'capplan_plan: 1' (not a capplan plan)");
        return false;
    }
    if (!cp_scalar_number(vn, &ver) || ver != 1) {
        cp_diags_add(c->d, CP_ERR_INPUT, vn->pos, "capplan_plan: unsupported version %s (expected 1)",
                     found(vn));
        return false;
    }
    return true;
}

static void read_header(rctx *c, const cp_node *root)
{
    rp_plan *p = c->p;
    p->status = str_field(c, root, "status", "plan", true);
    if (p->status && strcmp(p->status, "optimal") && strcmp(p->status, "feasible") &&
        strcmp(p->status, "infeasible") && strcmp(p->status, "interrupted")) {
        cp_diags_add(c->d, CP_ERR_INPUT, get(root, "status")->pos,
                     "plan: status '%s' is not one of optimal, feasible, infeasible, interrupted",
                     p->status);
        p->status = NULL;
    }
    p->reason = str_field(c, root, "reason", "plan", false);
    p->note = str_field(c, root, "note", "plan", false);
    p->bound = p->gap = NAN;
    const cp_node *sv = get(root, "solver");
    if (sv && is_map(c, sv, "'solver'")) {
        p->method = str_field(c, sv, "method", "solver", false);
        p->bound = num_field(c, sv, "bound", "solver", false);
        p->gap = num_field(c, sv, "gap", "solver", false);
    }
    const cp_node *tn = get(root, "totals");
    bool infeasible = p->status && !strcmp(p->status, "infeasible");
    if (!tn) {
        if (!infeasible)
            cp_diags_add(c->d, CP_ERR_INPUT, root->pos, "plan: missing 'totals'");
        return;
    }
    if (!is_map(c, tn, "'totals'"))
        return;
    double *dst[] = {&p->total, &p->cloud, &p->energy, &p->carbon, &p->penalty, &p->energy_kwh,
                     &p->carbon_kg};
    const char *keys[] = {"total", "cloud", "energy", "carbon", "penalty", "energy_kwh", "carbon_kg"};
    for (int i = 0; i < 7; i++)
        *dst[i] = num_field(c, tn, keys[i], "totals", i < 5);
    p->has_totals = true;
}

static int market_of(const char *s)
{
    if (!strcmp(s, "pool"))
        return RP_POOL;
    if (!strcmp(s, "on_demand"))
        return RP_ONDEMAND;
    if (!strcmp(s, "spot"))
        return RP_SPOT;
    return -1;
}

static void read_job(rctx *c, const cp_node *n, rp_job *j, int idx)
{
    char who[300];
    j->node = n;
    j->count = j->cpus = j->memory_gb = j->energy_kwh = NAN;
    j->start_slot = j->slots = -1;
    j->kind = RP_KIND_UNKNOWN;
    j->row = -1;
    snprintf(who, sizeof who, "job %d", idx + 1);
    j->name = str_field(c, n, "name", who, true);
    if (j->name)
        snprintf(who, sizeof who, "job '%s'", j->name);
    const char *st = str_field(c, n, "status", who, true);
    if (!st)
        return;
    if (!strcmp(st, "dropped")) {
        j->reason = str_field(c, n, "reason", who, false);
        return;
    }
    if (strcmp(st, "scheduled")) {
        cp_diags_add(c->d, CP_ERR_INPUT, get(n, "status")->pos,
                     "%s: status '%s' is not one of scheduled, dropped", who, st);
        return;
    }
    j->resource = str_field(c, n, "resource", who, true);
    const char *mk = str_field(c, n, "market", who, true);
    j->market = mk ? market_of(mk) : -1;
    if (mk && j->market < 0)
        cp_diags_add(c->d, CP_ERR_INPUT, get(n, "market")->pos,
                     "%s: market '%s' is not one of pool, on_demand, spot", who, mk);
    j->accelerator = str_field(c, n, "accelerator", who, false);
    j->count = num_field(c, n, "count", who, false);
    j->cpus = num_field(c, n, "cpus", who, false);
    j->memory_gb = num_field(c, n, "memory_gb", who, false);
    j->energy_kwh = num_field(c, n, "energy_kwh", who, false);
    j->start_slot = int_field(c, n, "start_slot", who);
    j->slots = int_field(c, n, "slots", who);
    j->start_hour = num_field(c, n, "start_hour", who, true);
    j->end_hour = num_field(c, n, "end_hour", who, true);
    j->nodes = get(n, "nodes");
    if (!isnan(j->start_hour) && j->start_hour < 0) {
        cp_diags_add(c->d, CP_ERR_INPUT, get(n, "start_hour")->pos,
                     "%s: start_hour %g is before the horizon start", who, j->start_hour);
        return;
    }
    if (!isnan(j->start_hour) && !isnan(j->end_hour) && j->end_hour < j->start_hour) {
        cp_diags_add(c->d, CP_ERR_INPUT, get(n, "end_hour")->pos,
                     "%s: end_hour %g is before start_hour %g", who, j->end_hour, j->start_hour);
        return;
    }
    if (j->resource && j->market >= 0 && !isnan(j->start_hour) && !isnan(j->end_hour))
        j->scheduled = true;
}

static void read_jobs(rctx *c, const cp_node *root)
{
    rp_plan *p = c->p;
    bool infeasible = p->status && !strcmp(p->status, "infeasible");
    const cp_node *js = seq_field(c, root, "jobs", "plan", !infeasible);
    if (!js || js->n == 0)
        return;
    p->jobs = cp_calloc(js->n, sizeof *p->jobs);
    if (!p->jobs) {
        c->oom = true;
        return;
    }
    p->n_jobs = (int)js->n;
    for (size_t i = 0; i < js->n; i++) {
        if (!is_map(c, js->kids[i], "a job entry"))
            continue;
        read_job(c, js->kids[i], &p->jobs[i], (int)i);
        if (p->jobs[i].scheduled)
            p->n_sched++;
        else if (p->jobs[i].name)
            p->n_dropped++;
    }
}

static void read_lists(rctx *c, const cp_node *root)
{
    rp_plan *p = c->p;
    const cp_node *pv = seq_field(c, root, "provisioning", "plan", false);
    const cp_node *ut = seq_field(c, root, "utilization", "plan", false);
    const cp_node *si = seq_field(c, root, "sites", "plan", false);
    if ((pv && pv->n && !(p->markets = cp_calloc(pv->n, sizeof *p->markets))) ||
        (ut && ut->n && !(p->util = cp_calloc(ut->n, sizeof *p->util))) ||
        (si && si->n && !(p->sites = cp_calloc(si->n, sizeof *p->sites)))) {
        c->oom = true;
        return;
    }
    char who[300];
    for (size_t i = 0; ut && i < ut->n && !c->oom; i++) {
        const cp_node *n = ut->kids[i];
        if (!is_map(c, n, "a utilization entry"))
            continue;
        snprintf(who, sizeof who, "utilization %zu", i + 1);
        rp_util *u = &p->util[p->n_util];
        if (!(u->pool = str_field(c, n, "pool", who, true)))
            continue;
        snprintf(who, sizeof who, "pool '%s'", u->pool);
        u->in_pool = p->in ? cp_input_find_pool(p->in, u->pool) : -1;
        for (int k = 0; k < 3; k++)
            u->dim[k] = series(c, n, dim_key[k], who);
        p->n_util++;
    }
    for (size_t i = 0; si && i < si->n && !c->oom; i++) {
        const cp_node *n = si->kids[i];
        if (!is_map(c, n, "a site entry"))
            continue;
        snprintf(who, sizeof who, "site %zu", i + 1);
        rp_site *s = &p->sites[p->n_sites];
        if (!(s->name = str_field(c, n, "name", who, true)))
            continue;
        snprintf(who, sizeof who, "site '%s'", s->name);
        s->in_site = p->in ? cp_input_find_site(p->in, s->name) : -1;
        s->power_kw = series(c, n, "power_kw", who);
        s->energy_kwh = num_field(c, n, "energy_kwh", who, false);
        s->carbon_kg = num_field(c, n, "carbon_kg", who, false);
        p->n_sites++;
    }
    for (size_t i = 0; pv && i < pv->n && !c->oom; i++) {
        const cp_node *n = pv->kids[i];
        if (!is_map(c, n, "a provisioning entry"))
            continue;
        snprintf(who, sizeof who, "provisioning %zu", i + 1);
        rp_market *m = &p->markets[p->n_markets];
        if (!(m->name = str_field(c, n, "market", who, true)))
            continue;
        snprintf(who, sizeof who, "market '%s'", m->name);
        const char *k = str_field(c, n, "kind", who, true);
        m->market = k ? market_of(k) : -1;
        if (k && m->market != RP_ONDEMAND && m->market != RP_SPOT) {
            cp_diags_add(c->d, CP_ERR_INPUT, get(n, "kind")->pos,
                         "%s: kind '%s' is not one of on_demand, spot", who, k);
            continue;
        }
        m->y = series(c, n, "instances", who);
        m->cost = num_field(c, n, "cost", who, false);
        if (k)
            p->n_markets++;
        else
            cp_free(m->y), m->y = NULL;
    }
}

/* Slot length without inputs: start_hour / start_slot of a job that
 * starts after slot 0, else 1 h. */
static void slot_hours(rp_plan *p)
{
    if (p->in) {
        p->h = p->in->slot_hours;
        p->h_from = "inputs";
        return;
    }
    for (int i = 0; i < p->n_jobs; i++) {
        const rp_job *j = &p->jobs[i];
        if (j->scheduled && j->start_slot > 0 && j->start_hour > 0) {
            p->h = j->start_hour / (double)j->start_slot;
            p->h_from = "plan";
            return;
        }
    }
    p->h = 1;
    p->h_from = "assumed";
}

static int find_row(const rp_plan *p, const char *name, int market)
{
    for (int r = 0; r < p->n_rows; r++)
        if (p->rows[r].market == market && !strcmp(p->rows[r].name, name))
            return r;
    return -1;
}

static int add_row(rp_plan *p, const char *name, int market)
{
    int r = find_row(p, name, market);
    if (r >= 0)
        return r;
    r = p->n_rows++;
    p->rows[r].name = name;
    p->rows[r].market = market;
    p->rows[r].pool = market == RP_POOL && p->in ? cp_input_find_pool(p->in, name) : -1;
    return r;
}

/* Gantt rows: pools (the inputs' order, then the plan's), then markets
 * in order of first appearance (provisioning, then jobs). */
static int build_rows(rp_plan *p)
{
    size_t cap = (size_t)(p->in ? p->in->n_pools : 0) + (size_t)p->n_util +
                 (size_t)p->n_markets + (size_t)p->n_jobs;
    if (cap == 0)
        return CP_OK;
    p->rows = cp_calloc(cap, sizeof *p->rows);
    if (!p->rows)
        return CP_ERR_NOMEM;
    for (int i = 0; p->in && i < p->in->n_pools; i++)
        add_row(p, p->in->pools[i].name, RP_POOL);
    for (int i = 0; i < p->n_util; i++)
        add_row(p, p->util[i].pool, RP_POOL);
    for (int i = 0; i < p->n_jobs; i++)
        if (p->jobs[i].scheduled && p->jobs[i].market == RP_POOL)
            add_row(p, p->jobs[i].resource, RP_POOL);
    for (int i = 0; i < p->n_markets; i++)
        add_row(p, p->markets[i].name, p->markets[i].market);
    for (int i = 0; i < p->n_jobs; i++) {
        rp_job *j = &p->jobs[i];
        if (!j->scheduled)
            continue;
        j->row = add_row(p, j->resource, j->market);
        p->rows[j->row].n_jobs++;
        if (p->in) {
            int k = cp_input_find_job(p->in, j->name);
            j->kind = k >= 0 ? (int)p->in->jobs[k].kind : RP_KIND_UNKNOWN;
        }
    }
    return CP_OK;
}

/* Messages in file order (the lists are read in another order than they
 * are written); insertion sort keeps equal positions stable. */
static void sort_diags(cp_diags *d, int first)
{
    for (int i = first + 1; i < d->n; i++) {
        cp_err e = d->items[i];
        int k = i;
        while (k > first && (d->items[k - 1].line > e.line ||
                             (d->items[k - 1].line == e.line && d->items[k - 1].col > e.col))) {
            d->items[k] = d->items[k - 1];
            k--;
        }
        d->items[k] = e;
    }
}

int rp_read(rp_plan *p, const cp_node *root, const cp_input *in, cp_diags *d)
{
    rctx c = {p, d, false};
    p->in = in;
    p->verify_n = -1;
    p->T = in ? in->slots : 0;
    if (root->kind != CP_NODE_MAP) {
        cp_diags_add(d, CP_ERR_INPUT, root->pos, "the plan must be a mapping, found %s",
                     found(root));
        return CP_ERR_INPUT;
    }
    if (!read_version(&c, root))
        return CP_ERR_INPUT;
    int before = d->n + d->dropped, first = d->n;
    read_header(&c, root);
    read_jobs(&c, root);
    if (!c.oom)
        read_lists(&c, root);
    if (c.oom) {
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        return CP_ERR_NOMEM;
    }
    if (d->n + d->dropped > before) {
        sort_diags(d, first);
        return CP_ERR_INPUT;
    }
    slot_hours(p);
    if (p->T == 0) { /* no per-slot list: as far as the last job reaches */
        double end = 0;
        for (int i = 0; i < p->n_jobs; i++)
            if (p->jobs[i].scheduled && p->jobs[i].end_hour > end)
                end = p->jobs[i].end_hour;
        p->T = (int)fmax(1, ceil(end / p->h - 1e-9));
    }
    if (build_rows(p)) {
        cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        return CP_ERR_NOMEM;
    }
    return CP_OK;
}

void rp_release(rp_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n_markets; i++)
        cp_free(p->markets[i].y);
    for (int i = 0; i < p->n_util; i++)
        for (int k = 0; k < 3; k++)
            cp_free(p->util[i].dim[k]);
    for (int i = 0; i < p->n_sites; i++)
        cp_free(p->sites[i].power_kw);
    for (int i = 0; i < RP_VIOL_SHOWN; i++)
        cp_free(p->verify_msg[i]);
    cp_free(p->jobs);
    cp_free(p->rows);
    cp_free(p->markets);
    cp_free(p->util);
    cp_free(p->sites);
    memset(p, 0, sizeof *p);
}
