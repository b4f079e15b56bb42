/*
 * Reading a plan file (capplan.5 §5) into a cp_plan_file (see cp_plan_read.h).
 *
 * One pass over the tree, top-down: the root's three keys that make a
 * file a capplan plan first (if one of them is wrong, nothing else is
 * read: messages about the rest of a file that is not a plan would be
 * noise), then the descriptive keys, the totals, the jobs, the teams and
 * the three per-slot lists. Each value is read by one typed reader that records
 * whether the key was given, its value and its node's position, and adds a
 * problem when it is not of its type; callers go on, so one run finds
 * every problem of a file. The problems are sorted by position at the end
 * (the lists are read in another order than they are written).
 *
 * Messages name the entry ("job 'a'", "job 4" before its name is known,
 * "provisioning of 'x' (spot)", "utilization of 'rack'", "site 'dc'") and
 * the key, then what is wrong and what was found: lower case, no final
 * full stop (the labels verify's own checks use for the same entries).
 *
 * The slot count comes from the caller (the inputs) or from the first
 * non-empty per-slot list; utilization lists are read first for that,
 * then sites, then provisioning.
 */
#include "cp_plan_read.h"

#include "cp_alloc.h"
#include "cp_msg.h"
#include "cp_yaml.h"
#include "cp_num.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

const char *const cp_plan_dim_key[CP_PLAN_DIMS] = {"accelerators", "cpus", "memory_gb"};

typedef struct rd {
    cp_plan_file *pf;
    cp_plan_level level; /* of the problems found now */
    bool oom;
    bool choices_only; /* cp_plan_read_opts.choices_only */
} rd;

/* ---- problems ------------------------------------------------------------ */

static void problem(rd *c, cp_plan_level level, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void problem(rd *c, cp_plan_level level, cp_pos pos, const char *fmt, ...)
{
    cp_plan_file *pf = c->pf;
    if (c->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = cp_msg_vformat(fmt, ap);
    va_end(ap);
    if (!msg || CP_GROW(pf->problems, pf->problems_cap, (size_t)pf->n_problems + 1)) {
        cp_free(msg);
        c->oom = true;
        return;
    }
    pf->problems[pf->n_problems++] = (cp_plan_problem){pos, level, msg};
    if (level == CP_PLAN_MALFORMED)
        pf->malformed = true;
}

#define BAD(c, pos, ...) problem((c), (c)->level, (pos), __VA_ARGS__)

/* ---- typed readers -------------------------------------------------------- */

/* A value as messages show it after "found". */
static const char *found(const cp_node *v)
{
    return v->kind == CP_NODE_SCALAR ? v->str : v->kind == CP_NODE_SEQ ? "a list" : "a mapping";
}

/* The value under `key`, NULL when absent or null. */
static const cp_node *get(const cp_node *map, const char *key)
{
    if (!map || map->kind != CP_NODE_MAP)
        return NULL;
    const cp_node *v = cp_map_get(map, key);
    return v && cp_scalar_is_null(v) ? NULL : v;
}

static bool as_int(const cp_node *v, long *out)
{
    double d;
    return cp_scalar_number(v, &d) && cp_num_is_whole(d, -2000000000L, 2000000000L, out);
}

/* The value under `key` with has and pos set; a problem when it is
 * missing and `required`. */
static const cp_node *key(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                          cp_plan_has *has, cp_pos *pos)
{
    const cp_node *v = get(map, k);
    *has = v ? CP_PLAN_SET : CP_PLAN_ABSENT;
    *pos = v ? v->pos : map->pos;
    if (!v && required)
        BAD(c, map->pos, "%s: missing '%s'", who, k);
    return v;
}

static void read_str(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                     cp_plan_str *out)
{
    const cp_node *v = key(c, map, k, who, required, &out->has, &out->pos);
    out->s = NULL;
    if (!v)
        return;
    if (v->kind != CP_NODE_SCALAR) {
        out->has = CP_PLAN_BAD;
        BAD(c, v->pos, "%s: '%s' must be a string, found %s", who, k, found(v));
        return;
    }
    out->s = v->str;
}

static void read_num(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                     cp_plan_num *out)
{
    const cp_node *v = key(c, map, k, who, required, &out->has, &out->pos);
    out->v = 0;
    if (!v)
        return;
    if (!cp_scalar_number(v, &out->v) || !isfinite(out->v)) {
        out->has = CP_PLAN_BAD;
        out->v = 0;
        BAD(c, v->pos, "%s: '%s' must be a finite number, found %s", who, k, found(v));
    }
}

/* Every integer of a plan is a count or a slot index: >= 0. */
static void read_int(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                     cp_plan_int *out)
{
    const cp_node *v = key(c, map, k, who, required, &out->has, &out->pos);
    out->v = 0;
    if (!v)
        return;
    if (!as_int(v, &out->v) || out->v < 0) {
        out->has = CP_PLAN_BAD;
        out->v = 0;
        BAD(c, v->pos, "%s: '%s' must be an integer >= 0, found %s", who, k, found(v));
    }
}

/* A per-slot list of numbers (`whole`: integers >= 0). The first one
 * that is not empty sets the slot count when the caller gave none. */
static void read_series(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                        bool whole, cp_plan_series *out)
{
    cp_plan_file *pf = c->pf;
    const cp_node *s = key(c, map, k, who, required, &out->has, &out->pos);
    if (!s)
        return;
    const char *what = whole ? "integers" : "numbers";
    if (s->kind != CP_NODE_SEQ && pf->slots > 0) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s: '%s' must be a list of %d %s, found %s", who, k, pf->slots, what,
            found(s));
        return;
    }
    if (s->kind != CP_NODE_SEQ) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s: '%s' must be a list of %s, found %s", who, k, what, found(s));
        return;
    }
    if (s->n == 0) {
        BAD(c, s->pos, "%s: '%s' is empty, expected one value per slot", who, k);
        return;
    }
    if (pf->slots == 0)
        pf->slots = (int)s->n;
    else if ((int)s->n != pf->slots)
        BAD(c, s->pos, "%s: '%s' has %zu values, expected %d (one per slot%s)", who, k, s->n,
            pf->slots, pf->slots_from_inputs ? " of the inputs" : "");
    /* one block: n values, then their n positions */
    out->v = cp_malloc(s->n * (sizeof *out->v + sizeof *out->at));
    if (!out->v) {
        c->oom = true;
        return;
    }
    out->at = (cp_pos *)(void *)(out->v + s->n);
    out->n = (int)s->n;
    for (size_t t = 0; t < s->n; t++) {
        const cp_node *e = s->kids[t];
        long iv;
        out->at[t] = e->pos;
        bool ok = whole ? as_int(e, &iv) && iv >= 0
                        : cp_scalar_number(e, &out->v[t]) && isfinite(out->v[t]);
        if (ok) {
            if (whole)
                out->v[t] = (double)iv;
            continue;
        }
        out->v[t] = NAN;
        if (whole)
            BAD(c, e->pos, "%s: %s[%zu] must be an integer >= 0, found %s", who, k, t, found(e));
        else
            BAD(c, e->pos, "%s: %s[%zu] must be a finite number, found %s", who, k, t, found(e));
    }
}

/* A list of scalars; `what` names one ("node or instance id"). */
static void read_strs(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                      const char *what, cp_plan_strs *out)
{
    const cp_node *s = key(c, map, k, who, required, &out->has, &out->pos);
    if (!s)
        return;
    if (s->kind != CP_NODE_SEQ) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s: '%s' must be a list of %ss, found %s", who, k, what, found(s));
        return;
    }
    if (s->n == 0)
        return;
    out->s = cp_malloc(s->n * (sizeof *out->s + sizeof *out->at));
    if (!out->s) {
        c->oom = true;
        return;
    }
    out->at = (cp_pos *)(void *)(out->s + s->n);
    out->n = (int)s->n;
    for (size_t i = 0; i < s->n; i++) {
        const cp_node *e = s->kids[i];
        out->at[i] = e->pos;
        out->s[i] = e->kind == CP_NODE_SCALAR ? e->str : NULL;
        if (!out->s[i])
            BAD(c, e->pos, "%s: %s[%zu] must be a %s, found %s", who, k, i, what, found(e));
    }
}

/* A mapping under `k` (NULL when absent or not one: a problem). */
static const cp_node *read_map(rd *c, const cp_node *map, const char *k, bool required,
                               cp_plan_has *has, cp_pos *pos)
{
    const cp_node *v = key(c, map, k, "plan", required, has, pos);
    if (v && v->kind != CP_NODE_MAP) {
        *has = CP_PLAN_BAD;
        BAD(c, v->pos, "plan: '%s' must be a mapping, found %s", k, found(v));
        return NULL;
    }
    return v;
}

/* A top-level list under `k`; allocates `n` entries of `size` bytes
 * into *items. Returns the list node, NULL when absent or not a list. */
static const cp_node *read_list(rd *c, const cp_node *root, const char *k, cp_plan_list *l,
                                void **items, size_t size)
{
    const cp_node *v = key(c, root, k, "plan", false, &l->has, &l->pos);
    if (!v)
        return NULL;
    if (v->kind != CP_NODE_SEQ) {
        l->has = CP_PLAN_BAD;
        BAD(c, v->pos, "plan: '%s' must be a list, found %s", k, found(v));
        return NULL;
    }
    if (v->n > 0 && !(*items = cp_calloc(v->n, size))) {
        c->oom = true;
        return NULL;
    }
    return v;
}

static bool entry_is_map(rd *c, const cp_node *e, const char *what)
{
    if (e->kind == CP_NODE_MAP)
        return true;
    BAD(c, e->pos, "plan: %s must be a mapping, found %s", what, found(e));
    return false;
}

static cp_plan_market market_word(const char *s)
{
    if (!strcmp(s, "pool"))
        return CP_PLAN_POOL;
    if (!strcmp(s, "on_demand"))
        return CP_PLAN_ON_DEMAND;
    if (!strcmp(s, "spot"))
        return CP_PLAN_SPOT;
    return CP_PLAN_NO_MARKET;
}

/* ---- the root -------------------------------------------------------------- */

static bool status_word(const char *s)
{
    return !strcmp(s, "optimal") || !strcmp(s, "feasible") || !strcmp(s, "infeasible") ||
           !strcmp(s, "interrupted");
}

/* capplan_plan, status and jobs: the keys that make a file a plan. */
static void read_identity(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    c->level = CP_PLAN_MALFORMED;
    const cp_node *vn = get(root, "capplan_plan");
    if (!vn) {
        BAD(c, root->pos, "missing 'capplan_plan: 1' (not a capplan plan)");
        return;
    }
    pf->version.pos = vn->pos;
    pf->version.has = as_int(vn, &pf->version.v) && pf->version.v == 1 ? CP_PLAN_SET : CP_PLAN_BAD;
    if (pf->version.has == CP_PLAN_BAD)
        BAD(c, vn->pos, "capplan_plan: unsupported version %s (expected 1)", found(vn));
    read_str(c, root, "status", "plan", true, &pf->status);
    if (pf->status.has == CP_PLAN_SET && !status_word(pf->status.s)) {
        BAD(c, pf->status.pos,
            "plan: status '%s' is not one of optimal, feasible, infeasible, interrupted",
            pf->status.s);
        pf->status.has = CP_PLAN_BAD;
        pf->status.s = NULL;
    }
    pf->infeasible = pf->status.has == CP_PLAN_SET && !strcmp(pf->status.s, "infeasible");
    const cp_node *jn = key(c, root, "jobs", "plan", false, &pf->jobs_list.has, &pf->jobs_list.pos);
    if (jn && jn->kind != CP_NODE_SEQ) {
        pf->jobs_list.has = CP_PLAN_BAD;
        BAD(c, jn->pos, "plan: 'jobs' must be a list, found %s", found(jn));
    } else if (!jn && !pf->infeasible) {
        BAD(c, root->pos, "plan: missing 'jobs'");
    }
    c->level = CP_PLAN_INVALID;
}

static void read_header(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    c->level = CP_PLAN_EXTRA;
    read_str(c, root, "reason", "plan", false, &pf->reason);
    read_str(c, root, "note", "plan", false, &pf->note);
    cp_plan_solver *sv = &pf->solver;
    const cp_node *sn = read_map(c, root, "solver", false, &sv->has, &sv->pos);
    if (sn) {
        read_str(c, sn, "method", "solver", false, &sv->method);
        read_num(c, sn, "seconds", "solver", false, &sv->seconds);
        read_num(c, sn, "objective", "solver", false, &sv->objective);
        read_num(c, sn, "bound", "solver", false, &sv->bound);
        read_num(c, sn, "gap", "solver", false, &sv->gap);
        read_str(c, sn, "inputs", "solver", false, &sv->inputs);
    }
    c->level = CP_PLAN_INVALID;
    cp_plan_replanned *rb = &pf->replanned; /* capplan.5 §10.5 */
    const cp_node *rn = read_map(c, root, "replanned", false, &rb->has, &rb->pos);
    if (rn) {
        read_int(c, rn, "now", "replanned", true, &rb->now);
        read_int(c, rn, "started", "replanned", true, &rb->started);
        read_int(c, rn, "broken", "replanned", true, &rb->broken);
        read_int(c, rn, "changed", "replanned", true, &rb->changed);
        read_num(c, rn, "change_penalty", "replanned", false, &rb->change_penalty);
    }
    cp_plan_totals *tt = &pf->totals;
    const cp_node *tn =
        read_map(c, root, "totals", !pf->infeasible && !c->choices_only, &tt->has, &tt->pos);
    if (!tn)
        return;
    for (int i = 0; i < CP_COST_N; i++)
        read_num(c, tn, cp_cost_part_info[i].key, "totals",
                 cp_cost_part_required(i) && !c->choices_only, &tt->part[i]);
}

/* ---- jobs ---------------------------------------------------------------------- */

static void read_job(rd *c, const cp_node *e, int idx, cp_plan_job *j)
{
    char who[300];
    j->pos = e->pos;
    j->index = idx;
    j->mk = CP_PLAN_NO_MARKET;
    snprintf(who, sizeof who, "job %d", idx + 1);
    read_str(c, e, "name", who, true, &j->name);
    if (j->name.s)
        snprintf(who, sizeof who, "job '%s'", j->name.s);
    read_str(c, e, "status", who, true, &j->status);
    if (j->status.s) {
        j->scheduled = !strcmp(j->status.s, "scheduled");
        j->dropped = !strcmp(j->status.s, "dropped");
        if (!j->scheduled && !j->dropped) {
            BAD(c, j->status.pos, "%s: status '%s' is not one of scheduled, dropped", who,
                j->status.s);
            j->status.has = CP_PLAN_BAD;
        }
    }
    /* an infeasible plan has no schedule: nothing more is needed of it */
    bool need = j->scheduled && !c->pf->infeasible;
    read_str(c, e, "resource", who, need, &j->resource);
    read_str(c, e, "market", who, need, &j->market);
    if (j->market.s && (j->mk = market_word(j->market.s)) == CP_PLAN_NO_MARKET)
        BAD(c, j->market.pos, "%s: market '%s' is not one of pool, on_demand, spot", who,
            j->market.s);
    read_str(c, e, "accelerator", who, false, &j->accelerator);
    read_int(c, e, "count", who, false, &j->count);
    read_num(c, e, "cpus", who, false, &j->cpus);
    read_num(c, e, "memory_gb", who, false, &j->memory_gb);
    read_int(c, e, "start_slot", who, false, &j->start_slot);
    read_int(c, e, "slots", who, false, &j->slots);
    read_num(c, e, "start_hour", who, need && !c->choices_only, &j->start_hour);
    read_num(c, e, "end_hour", who, need && !c->choices_only, &j->end_hour);
    read_num(c, e, "energy_kwh", who, false, &j->energy_kwh);
    read_num(c, e, "cost", who, false, &j->cost);
    read_strs(c, e, "nodes", who, false, "node or instance id", &j->nodes);
    read_num(c, e, "power_limit_w", who, false, &j->power_limit_w);
    /* capplan.5 §10.5: a re-plan's flags (the words true or false) */
    read_str(c, e, "started", who, false, &j->started);
    read_str(c, e, "restarted", who, false, &j->restarted);
    read_num(c, e, "work_left", who, false, &j->work_left);
    c->level = CP_PLAN_EXTRA;
    read_int(c, e, "shape", who, false, &j->shape);
    read_num(c, e, "egress", who, false, &j->egress);
    read_str(c, e, "reason", who, false, &j->reason);
    c->level = CP_PLAN_INVALID;
}

static void read_jobs(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *js = get(root, "jobs");
    if (!js || js->n == 0)
        return;
    if (!(pf->jobs = cp_calloc(js->n, sizeof *pf->jobs))) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < js->n && !c->oom; i++)
        if (entry_is_map(c, js->kids[i], "a job entry"))
            read_job(c, js->kids[i], (int)i, &pf->jobs[pf->n_jobs++]);
}

/* ---- the per-slot lists --------------------------------------------------------- */

static void read_util(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        read_list(c, root, "utilization", &pf->util_list, (void **)&pf->util, sizeof *pf->util);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!entry_is_map(c, e, "a utilization entry"))
            continue;
        cp_plan_util *u = &pf->util[pf->n_util++];
        u->pos = e->pos;
        u->index = (int)i;
        snprintf(who, sizeof who, "utilization %zu", i + 1);
        read_str(c, e, "pool", who, true, &u->pool);
        if (u->pool.s)
            snprintf(who, sizeof who, "utilization of '%s'", u->pool.s);
        for (int d = 0; d < CP_PLAN_DIMS; d++)
            read_series(c, e, cp_plan_dim_key[d], who, false, false, &u->dim[d]);
    }
}

static void read_sites(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        read_list(c, root, "sites", &pf->sites_list, (void **)&pf->sites, sizeof *pf->sites);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!entry_is_map(c, e, "a site entry"))
            continue;
        cp_plan_site *s = &pf->sites[pf->n_sites++];
        s->pos = e->pos;
        s->index = (int)i;
        snprintf(who, sizeof who, "site %zu", i + 1);
        read_str(c, e, "name", who, true, &s->name);
        if (s->name.s)
            snprintf(who, sizeof who, "site '%s'", s->name.s);
        read_series(c, e, "power_kw", who, false, false, &s->power_kw);
        read_num(c, e, "energy_kwh", who, false, &s->energy_kwh);
        read_num(c, e, "carbon_kg", who, false, &s->carbon_kg);
    }
}

static void read_teams(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        read_list(c, root, "teams", &pf->teams_list, (void **)&pf->teams, sizeof *pf->teams);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!entry_is_map(c, e, "a team entry"))
            continue;
        cp_plan_team *tm = &pf->teams[pf->n_teams++];
        tm->pos = e->pos;
        tm->index = (int)i;
        snprintf(who, sizeof who, "team %zu", i + 1);
        read_str(c, e, "name", who, true, &tm->name);
        if (tm->name.s)
            snprintf(who, sizeof who, "team '%s'", tm->name.s);
        read_num(c, e, "cost", who, true, &tm->cost);
        read_num(c, e, "accelerator_hours", who, true, &tm->accelerator_hours);
    }
}

static void read_leases(rd *c, const cp_node *e, const char *who, cp_plan_prov *m)
{
    const cp_node *l = key(c, e, "leases", who, false, &m->leases_has, &m->leases_pos);
    if (!l)
        return;
    if (l->kind != CP_NODE_SEQ) {
        m->leases_has = CP_PLAN_BAD;
        BAD(c, l->pos, "%s: 'leases' must be a list, found %s", who, found(l));
        return;
    }
    if (l->n == 0)
        return;
    if (!(m->leases = cp_calloc(l->n, sizeof *m->leases))) {
        c->oom = true;
        return;
    }
    char lw[400];
    for (size_t i = 0; i < l->n && !c->oom; i++) {
        const cp_node *le = l->kids[i];
        if (m->market.s)
            snprintf(lw, sizeof lw, "lease %zu of '%s'%s%s%s", i + 1, m->market.s,
                     m->mk != CP_PLAN_NO_MARKET ? " (" : "",
                     m->mk != CP_PLAN_NO_MARKET ? m->kind.s : "",
                     m->mk != CP_PLAN_NO_MARKET ? ")" : "");
        else
            snprintf(lw, sizeof lw, "lease %zu of provisioning %d", i + 1, m->index + 1);
        if (le->kind != CP_NODE_MAP) {
            BAD(c, le->pos, "%s must be a mapping, found %s", lw, found(le));
            continue;
        }
        cp_plan_lease *ls = &m->leases[m->n_leases++];
        ls->pos = le->pos;
        read_str(c, le, "id", lw, true, &ls->id);
        read_int(c, le, "start_slot", lw, true, &ls->start_slot);
        read_int(c, le, "slots", lw, true, &ls->slots);
        read_strs(c, le, "jobs", lw, true, "job name", &ls->jobs);
    }
}

static void read_prov(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l =
        read_list(c, root, "provisioning", &pf->prov_list, (void **)&pf->prov, sizeof *pf->prov);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!entry_is_map(c, e, "a provisioning entry"))
            continue;
        cp_plan_prov *m = &pf->prov[pf->n_prov++];
        m->pos = e->pos;
        m->index = (int)i;
        m->mk = CP_PLAN_NO_MARKET;
        snprintf(who, sizeof who, "provisioning %zu", i + 1);
        read_str(c, e, "market", who, true, &m->market);
        if (m->market.s)
            snprintf(who, sizeof who, "provisioning of '%s'", m->market.s);
        read_str(c, e, "kind", who, true, &m->kind);
        if (m->kind.s) {
            m->mk = market_word(m->kind.s);
            if (m->mk != CP_PLAN_ON_DEMAND && m->mk != CP_PLAN_SPOT) {
                BAD(c, m->kind.pos, "%s: kind '%s' is not one of on_demand, spot", who, m->kind.s);
                m->mk = CP_PLAN_NO_MARKET;
            } else if (m->market.s) { /* an offer has two markets: say which */
                size_t len = strlen(who);
                snprintf(who + len, sizeof who - len, " (%s)", m->kind.s);
            }
        }
        read_series(c, e, "instances", who, true, true, &m->instances);
        read_num(c, e, "cost", who, false, &m->cost);
        c->level = CP_PLAN_EXTRA;
        read_leases(c, e, who, m);
        c->level = CP_PLAN_INVALID;
    }
}

/* ---- entry points ------------------------------------------------------------------ */

/* ---- services (capplan.5 §10.4) ------------------------------------------------ */

/* A list of numbers of any length (one share per deployment). */
static void node_nums(rd *c, const cp_node *s, const char *who, cp_plan_series *out)
{
    out->has = CP_PLAN_SET;
    out->pos = s->pos;
    if (s->kind != CP_NODE_SEQ) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s must be a list of numbers, found %s", who, found(s));
        return;
    }
    if (s->n == 0)
        return;
    if (!(out->v = cp_malloc(s->n * (sizeof *out->v + sizeof *out->at)))) {
        c->oom = true;
        return;
    }
    out->at = (cp_pos *)(void *)(out->v + s->n);
    out->n = (int)s->n;
    for (size_t i = 0; i < s->n; i++) {
        out->at[i] = s->kids[i]->pos;
        if (!cp_scalar_number(s->kids[i], &out->v[i]) || !isfinite(out->v[i])) {
            out->v[i] = NAN;
            BAD(c, s->kids[i]->pos, "%s[%zu] must be a finite number, found %s", who, i,
                found(s->kids[i]));
        }
    }
}

/* A per-slot list of lists under `k`: each element read by `one` (NULL:
 * ids) into out[t]. Returns the count read. */
static int per_slot(rd *c, const cp_node *e, const char *k, const char *who, bool required,
                    cp_plan_has *has, cp_pos *pos, void **out, size_t size, bool ids)
{
    const cp_node *l = key(c, e, k, who, required, has, pos);
    if (!l)
        return 0;
    if (l->kind != CP_NODE_SEQ || (c->pf->slots > 0 && (int)l->n != c->pf->slots)) {
        *has = CP_PLAN_BAD;
        BAD(c, l->pos, "%s: '%s' must be a list of %d lists (one per slot), found %s", who, k,
            c->pf->slots, l->kind == CP_NODE_SEQ ? "another count" : found(l));
        return 0;
    }
    if (l->n == 0 || !(*out = cp_calloc(l->n, size))) {
        c->oom = l->n > 0;
        return 0;
    }
    char w[400];
    for (size_t t = 0; t < l->n; t++) {
        snprintf(w, sizeof w, "%s: %s[%zu]", who, k, t);
        if (!ids) {
            node_nums(c, l->kids[t], w, &((cp_plan_series *)*out)[t]);
            continue;
        }
        cp_node wrap = {CP_NODE_MAP, l->kids[t]->pos, NULL, false, 1, NULL};
        cp_node kv = {CP_NODE_SCALAR, l->kids[t]->pos, (char *)"ids", false, 0, NULL};
        cp_node *kids[2] = {&kv, l->kids[t]};
        wrap.kids = kids;
        read_strs(c, &wrap, "ids", w, true, "node or instance id", &((cp_plan_strs *)*out)[t]);
    }
    return (int)l->n;
}

static void read_svc_dep(rd *c, const cp_node *e, const char *svc, size_t i, cp_plan_svc_dep *d)
{
    char who[400];
    snprintf(who, sizeof who, "%s deployment %zu", svc, i + 1);
    d->pos = e->pos;
    d->mk = CP_PLAN_NO_MARKET;
    read_int(c, e, "config", who, true, &d->config);
    read_str(c, e, "resource", who, true, &d->resource);
    read_str(c, e, "market", who, true, &d->market);
    if (d->market.s && (d->mk = market_word(d->market.s)) == CP_PLAN_NO_MARKET)
        BAD(c, d->market.pos, "%s: market '%s' is not one of pool, on_demand, spot", who, d->market.s);
    read_series(c, e, "replicas", who, true, true, &d->replicas);
    d->n_nodes = per_slot(c, e, "nodes", who, false, &d->nodes_has, &d->nodes_pos,
                          (void **)&d->nodes, sizeof *d->nodes, true);
}

static void read_svc_route(rd *c, const cp_node *e, const char *svc, size_t i, cp_plan_svc_route *r)
{
    char who[400];
    snprintf(who, sizeof who, "%s routing %zu", svc, i + 1);
    r->pos = e->pos;
    read_str(c, e, "class", who, true, &r->cls);
    if (r->cls.s)
        snprintf(who, sizeof who, "%s class '%s'", svc, r->cls.s);
    r->n_shares = per_slot(c, e, "shares", who, true, &r->shares_has, &r->shares_pos,
                           (void **)&r->shares, sizeof *r->shares, false);
    read_series(c, e, "unserved", who, true, false, &r->unserved);
}

/* A sub-list of a service entry: its entries (mappings) read by `one`. */
#define READ_SVC_LIST(c, e, k, who, HAS, POS, ARR, CNT, ONE)                             \
    do {                                                                                \
        const cp_node *l_ = key((c), (e), (k), (who), true, (HAS), (POS));              \
        if (l_ && l_->kind != CP_NODE_SEQ) {                                            \
            *(HAS) = CP_PLAN_BAD;                                                       \
            BAD((c), l_->pos, "%s: '%s' must be a list, found %s", (who), (k), found(l_)); \
        } else if (l_ && l_->n && !((ARR) = cp_calloc(l_->n, sizeof *(ARR)))) {         \
            (c)->oom = true;                                                            \
        } else {                                                                        \
            for (size_t i_ = 0; l_ && i_ < l_->n && !(c)->oom; i_++)                    \
                if (entry_is_map((c), l_->kids[i_], "an entry of a service"))           \
                    ONE((c), l_->kids[i_], (who), i_, &(ARR)[(CNT)++]);                 \
        }                                                                               \
    } while (0)

static void read_services(rd *c, const cp_node *root)
{
    cp_plan_file *pf = c->pf;
    const cp_node *l = read_list(c, root, "services", &pf->svc_list, (void **)&pf->svcs, sizeof *pf->svcs);
    char who[300];
    for (size_t i = 0; l && i < l->n && !c->oom; i++) {
        const cp_node *e = l->kids[i];
        if (!entry_is_map(c, e, "a service entry"))
            continue;
        cp_plan_svc *v = &pf->svcs[pf->n_svcs++];
        v->pos = e->pos;
        v->index = (int)i;
        snprintf(who, sizeof who, "service %zu", i + 1);
        read_str(c, e, "name", who, true, &v->name);
        if (v->name.s)
            snprintf(who, sizeof who, "service '%s'", v->name.s);
        read_num(c, e, "cost", who, false, &v->cost);
        read_num(c, e, "unserved_requests", who, false, &v->unserved_requests);
        READ_SVC_LIST(c, e, "deployments", who, &v->deps_has, &v->deps_pos, v->deps, v->n_deps,
                      read_svc_dep);
        READ_SVC_LIST(c, e, "routing", who, &v->routing_has, &v->routing_pos, v->routes, v->n_routes,
                      read_svc_route);
    }
}

static void svc_release(cp_plan_svc *v)
{
    for (int d = 0; d < v->n_deps; d++) {
        cp_free(v->deps[d].replicas.v);
        for (int t = 0; t < v->deps[d].n_nodes; t++)
            cp_free(v->deps[d].nodes[t].s);
        cp_free(v->deps[d].nodes);
    }
    for (int r = 0; r < v->n_routes; r++) {
        for (int t = 0; t < v->routes[r].n_shares; t++)
            cp_free(v->routes[r].shares[t].v);
        cp_free(v->routes[r].shares);
        cp_free(v->routes[r].unserved.v);
    }
    cp_free(v->deps);
    cp_free(v->routes);
}

int cp_plan_load_file(const char *path, cp_node **out, cp_diags *diags)
{
    const cp_yaml_limits lim = {(size_t)CP_PLAN_MAX_BYTES, CP_PLAN_MAX_NODES};
    return cp_yaml_load_file_limits(path, &lim, out, diags);
}

void cp_plan_read_opts_init(cp_plan_read_opts *o)
{
    o->slots = 0;
    o->choices_only = false;
}

void cp_plan_file_init(cp_plan_file *pf)
{
    memset(pf, 0, sizeof *pf);
}

void cp_plan_file_release(cp_plan_file *pf)
{
    if (!pf)
        return;
    for (int i = 0; i < pf->n_jobs; i++)
        cp_free(pf->jobs[i].nodes.s);
    for (int i = 0; i < pf->n_prov; i++) {
        cp_free(pf->prov[i].instances.v);
        for (int k = 0; k < pf->prov[i].n_leases; k++)
            cp_free(pf->prov[i].leases[k].jobs.s);
        cp_free(pf->prov[i].leases);
    }
    for (int i = 0; i < pf->n_util; i++)
        for (int d = 0; d < CP_PLAN_DIMS; d++)
            cp_free(pf->util[i].dim[d].v);
    for (int i = 0; i < pf->n_sites; i++)
        cp_free(pf->sites[i].power_kw.v);
    for (int i = 0; i < pf->n_svcs; i++)
        svc_release(&pf->svcs[i]);
    cp_free(pf->svcs);
    for (int i = 0; i < pf->n_problems; i++)
        cp_free(pf->problems[i].msg);
    cp_free(pf->jobs);
    cp_free(pf->prov);
    cp_free(pf->util);
    cp_free(pf->sites);
    cp_free(pf->teams);
    cp_free(pf->problems);
    cp_plan_file_init(pf);
}

bool cp_plan_file_is_ok(const cp_plan_file *pf)
{
    return pf->n_problems == 0;
}

int cp_plan_read(const cp_node *root, const cp_plan_read_opts *o, cp_plan_file *out, cp_err *err)
{
    cp_plan_file_release(out);
    rd c = {out, CP_PLAN_INVALID, false, o && o->choices_only};
    out->pos = root->pos;
    out->slots = o && o->slots > 0 ? o->slots : 0;
    out->slots_from_inputs = out->slots > 0;
    if (root->kind != CP_NODE_MAP) {
        problem(&c, CP_PLAN_MALFORMED, root->pos, "the plan must be a mapping, found %s",
                found(root));
    } else {
        read_identity(&c, root);
        if (!out->malformed) {
            read_header(&c, root);
            read_jobs(&c, root);
        }
        if (!out->malformed && !c.oom)
            read_teams(&c, root);
        if (!out->malformed && !c.oom)
            read_util(&c, root);
        if (!out->malformed && !c.oom)
            read_sites(&c, root);
        if (!out->malformed && !c.oom)
            read_prov(&c, root);
        if (!out->malformed && !c.oom)
            read_services(&c, root);
    }
    if (!c.oom && cp_msg_sort(out->problems, (size_t)out->n_problems, sizeof *out->problems,
                              offsetof(cp_plan_problem, pos)))
        c.oom = true;
    if (c.oom) {
        cp_plan_file_release(out);
        return cp_err_nomem(err);
    }
    return CP_OK;
}

void cp_plan_file_diags(const cp_plan_file *pf, cp_diags *d)
{
    for (int i = 0; i < pf->n_problems; i++)
        cp_diags_add(d, CP_ERR_INPUT, pf->problems[i].pos, "%s", pf->problems[i].msg);
}
