/*
 * The input loader (capplan.5 §1): reads each file into a cp_node tree,
 * merges the trees (sequences concatenated in command-line order, the
 * horizon and objective mappings key by key), then converts and checks
 * every entity, collecting all errors (up to CP_DIAGS_MAX) in one run.
 * Jobs live in load_jobs.c; the typed field readers in load_fields.c.
 */
#include "cp_input.h"
#include "load_internal.h"

#include "cp_alloc.h"
#include "cp_time.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { K_SITES, K_ACCELS, K_POOLS, K_OFFERS, K_JOBS, K_SCENARIOS, K_TEAMS, K_SERVICES, K_COUNT };
static const char *const kind_keys[K_COUNT] = {"sites", "accelerators", "pools", "offers",
                                                "jobs",  "scenarios",    "teams", "services"};

typedef struct nodevec {
    cp_node **v;
    size_t n, cap;
} nodevec;

static bool push(lctx *c, nodevec *nv, cp_node *n)
{
    if (CP_GROW(nv->v, nv->cap, nv->n + 1)) {
        c->nomem = true;
        return false;
    }
    nv->v[nv->n++] = n;
    return true;
}

static void machine_release(cp_machine *m)
{
    cp_free(m->type);
}

void cp_input_free(cp_input *in)
{
    if (!in)
        return;
    for (int i = 0; i < in->n_sites; i++) {
        cp_site *s = &in->sites[i];
        cp_free(s->name);
        cp_load_series_release(&s->energy_price);
        cp_load_series_release(&s->carbon_intensity);
        cp_load_series_release(&s->power_cap_kw);
    }
    cp_free(in->sites);
    for (int i = 0; i < in->n_accels; i++)
        cp_free(in->accels[i].name);
    cp_free(in->accels);
    for (int i = 0; i < in->n_pools; i++) {
        cp_free(in->pools[i].name);
        cp_load_series_release(&in->pools[i].available);
        machine_release(&in->pools[i].node);
        for (int k = 0; in->pools[i].hosts && k < in->pools[i].nodes; k++)
            cp_free(in->pools[i].hosts[k]);
        cp_free(in->pools[i].hosts);
    }
    cp_free(in->pools);
    for (int i = 0; i < in->n_offers; i++) {
        cp_offer *o = &in->offers[i];
        cp_free(o->name);
        cp_free(o->provider);
        cp_free(o->region);
        machine_release(&o->inst);
        cp_load_series_release(&o->quota);
        cp_load_series_release(&o->spot_quota);
    }
    cp_free(in->offers);
    for (int i = 0; i < in->n_jobs; i++) {
        cp_job *j = &in->jobs[i];
        cp_free(j->name);
        cp_load_placement_release(&j->placement);
        cp_free(j->throughput);
        cp_free(j->counts);
        cp_free(j->speedup);
        for (int k = 0; k < j->n_theta; k++)
            cp_free(j->theta[k].type);
        cp_free(j->theta);
        for (int k = 0; k < j->n_type_scaling; k++)
            cp_free(j->type_scaling[k].speedup);
        cp_free(j->type_scaling);
        cp_free(j->shapes);
        cp_free(j->power_limits);
        cp_free(j->after);
        cp_free(j->run);
    }
    cp_free(in->jobs);
    cp_teams_free(in);
    cp_services_free(in);
    cp_free(in->start);
    for (int i = 0; i < in->n_files; i++)
        cp_free(in->files[i]);
    cp_free(in->files);
    cp_free(in);
}

double cp_input_horizon_hours(const cp_input *in)
{
    return in->slots * in->slot_hours;
}

/* ---- merging ---------------------------------------------------------- */

typedef struct merged {
    nodevec kinds[K_COUNT];
    nodevec horizon;   /* key, value, key, value, ... */
    cp_node *horizon_at; /* the first 'horizon' key, for "missing slots" */
    nodevec objective;
} merged;

static void merge_map(lctx *c, nodevec *pairs, const cp_node *map, const char *name)
{
    if (!cp_load_want_map(c, map, NULL, name)) {
        c->bad_shape = true;
        return;
    }
    for (size_t i = 0; i < map->n; i++) {
        cp_node *k = map->kids[2 * i], *v = map->kids[2 * i + 1];
        bool dup = false;
        for (size_t j = 0; j < pairs->n; j += 2) {
            if (!strcmp(pairs->v[j]->str, k->str)) {
                const cp_pos *p = &pairs->v[j]->pos;
                cp_load_err(c, k, NULL, "'%s.%s' is given twice (first at %s:%d:%d)", name, k->str,
                            p->file, p->line, p->col);
                dup = true;
                break;
            }
        }
        if (!dup && push(c, pairs, k))
            push(c, pairs, v);
    }
}

static void merge_root(lctx *c, merged *m, cp_node *root)
{
    if (root->kind != CP_NODE_MAP) {
        c->bad_shape = true;
        cp_load_err(
            c, root, NULL,
            "the top level must be a mapping with keys such as 'horizon' and 'jobs', got %s",
            cp_node_kind_name(root));
        return;
    }
    static const char *const top[] = {"version", "horizon", "objective", "sites", "accelerators",
                                      "pools", "offers", "jobs", "scenarios", "teams", "services",
                                      NULL};
    cp_load_check_keys(c, root, NULL, top, NULL, NULL);
    for (size_t i = 0; i < root->n; i++) {
        const char *k = root->kids[2 * i]->str;
        cp_node *v = root->kids[2 * i + 1];
        if (!strcmp(k, "version")) {
            int ver;
            cp_load_int(c, v, NULL, "version", 1, 1, &ver); /* the only version is 1 */
        } else if (!strcmp(k, "horizon")) {
            if (!m->horizon_at)
                m->horizon_at = root->kids[2 * i];
            merge_map(c, &m->horizon, v, "horizon");
        } else if (!strcmp(k, "objective")) {
            merge_map(c, &m->objective, v, "objective");
        } else {
            for (int kk = 0; kk < K_COUNT; kk++) {
                if (strcmp(k, kind_keys[kk]))
                    continue;
                if (cp_scalar_is_null(v))
                    break; /* "jobs:" with nothing under it: an empty list */
                if (!cp_load_want_seq(c, v, NULL, k))
                    break;
                for (size_t j = 0; j < v->n; j++)
                    push(c, &m->kinds[kk], v->kids[j]);
            }
        }
    }
}

/* ---- horizon and objective ------------------------------------------- */

static cp_node *pair_get(const nodevec *pairs, const char *key)
{
    for (size_t i = 0; i < pairs->n; i += 2)
        if (!strcmp(pairs->v[i]->str, key))
            return pairs->v[i + 1];
    return NULL;
}

static void check_pair_keys(lctx *c, const nodevec *pairs, const char *ent,
                            const char *const *keys)
{
    cp_node tmp = {CP_NODE_MAP, {NULL, 0, 0}, NULL, false, pairs->n / 2, pairs->v};
    cp_load_check_keys(c, &tmp, ent, keys, NULL, NULL);
}

static void load_horizon(lctx *c, const nodevec *h, const cp_node *h_at,
                         const nodevec *all_roots_first)
{
    static const char *const keys[] = {"slots", "slot_hours", "start", NULL};
    cp_input *in = c->in;
    in->slot_hours = 1.0;
    check_pair_keys(c, h, "horizon", keys);
    cp_node *n = pair_get(h, "slots");
    if (!n && c->bad_shape) {
        /* a root or horizon that is not a mapping was reported already */
    } else if (!n && h_at) {
        cp_load_err(c, h_at, "horizon",
                    "missing required key 'slots' (the number of time slots, 1..10000)");
    } else if (!n) {
        cp_node *at = all_roots_first->n ? all_roots_first->v[0] : NULL;
        cp_load_err(
            c, at, NULL,
            "missing required key 'horizon' (a mapping with 'slots', the number of time slots)");
    } else if (cp_load_int(c, n, "horizon", "slots", 1, 10000, &in->slots)) {
        c->slots = in->slots;
    }
    if ((n = pair_get(h, "slot_hours")))
        cp_load_num(c, n, "horizon", "slot_hours", R_POS, &in->slot_hours);
    /* read here, not first by export or the report, so that a bad
     * timestamp is refused with its position (capplan.5 §1.2; cp_time.h) */
    double secs;
    char got[120];
    if ((n = pair_get(h, "start")) && cp_load_str(c, n, "horizon", "start", &in->start) &&
        !cp_time_parse(in->start, &secs, NULL))
        cp_load_err(c, n, "horizon",
                    "'start' must be an ISO-8601 time, YYYY-MM-DD[THH:MM[:SS[.frac]]] with an "
                    "optional Z or +HH:MM, got %s",
                    cp_load_value_desc(n, got, sizeof got));
}

static void load_objective(lctx *c, const nodevec *o)
{
    static const char *const keys[] = {"carbon_price_per_ton", "budget", "deadline_confidence", NULL};
    cp_input *in = c->in;
    check_pair_keys(c, o, "objective", keys);
    cp_node *n;
    if ((n = pair_get(o, "carbon_price_per_ton")))
        cp_load_num(c, n, "objective", "carbon_price_per_ton", R_NONNEG, &in->carbon_price_per_ton);
    if ((n = pair_get(o, "budget"))) {
        in->has_budget = cp_load_num(c, n, "objective", "budget", R_NONNEG, &in->budget);
        in->budget_pos = n->pos;
    }
    if ((n = pair_get(o, "deadline_confidence")))
        in->has_deadline_confidence =
            cp_load_num(c, n, "objective", "deadline_confidence", R_PROB, &in->deadline_confidence);
}

/* objective.deadline_confidence that applies to no job is a warning: the
 * margin needs a dataflow job whose runtime has sigma_seconds and no
 * deadline_confidence of its own (which wins). */
static void warn_objective_confidence(lctx *c, const nodevec *o)
{
    const cp_input *in = c->in;
    if (!in->has_deadline_confidence)
        return;
    for (int i = 0; i < in->n_jobs; i++) {
        const cp_job *j = &in->jobs[i];
        if (j->kind != CP_JOB_DATAFLOW || j->has_deadline_confidence)
            continue;
        for (int q = 0; q < j->n_theta; q++)
            if (j->theta[q].has_sigma)
                return;
    }
    const cp_node *n = pair_get(o, "deadline_confidence");
    cp_diags_warn(c->diags, n ? n->pos : cp_pos_none(),
                  "objective: deadline_confidence has no effect: no dataflow job without one of "
                  "its own has runtime.sigma_seconds ('capplan fit dataflow' writes them)");
}

/* ---- entities --------------------------------------------------------- */

/* Reads `name` of entity `i`; returns the display name into ent. */
static void entity_name(lctx *c, const cp_node *map, const char *kind, int i, char **name,
                        char *ent, size_t size)
{
    cp_node *n = cp_map_get(map, "name");
    char label[64];
    cp_load_ent_name(label, sizeof label, kind, NULL, i);
    if (!n)
        cp_load_err(c, map, label, "missing required key 'name'");
    else
        cp_load_str(c, n, label, "name", name);
    cp_load_ent_name(ent, size, kind, *name, i);
}

static void require(lctx *c, const cp_node *map, const char *ent, const char *key)
{
    if (!cp_map_get(map, key))
        cp_load_err(c, map, ent, "missing required key '%s'", key);
}

/* capplan.5 §1, version 1.1: an accelerator defined again with the same values is the
 * same accelerator (importers' fragments each carry the types they use),
 * so the later copy is dropped; different values are an error naming both
 * places. Either way the copy leaves, so the name check below does not
 * report it a second time. Accelerators are few: a linear search will do. */
static void merge_accel(lctx *c, const cp_node *m)
{
    cp_input *in = c->in;
    cp_accel *a = &in->accels[in->n_accels - 1];
    if (!a->name)
        return;
    for (int k = 0; k < in->n_accels - 1; k++) {
        const cp_accel *f = &in->accels[k];
        if (!f->name || strcmp(f->name, a->name))
            continue;
        if (f->memory_gb != a->memory_gb || f->power_w != a->power_w ||
            f->idle_power_w != a->idle_power_w) {
            const char *what = f->memory_gb != a->memory_gb ? "memory_gb"
                               : f->power_w != a->power_w   ? "power_w"
                                                            : "idle_power_w";
            double x = what[0] == 'm' ? a->memory_gb : what[0] == 'p' ? a->power_w : a->idle_power_w;
            double y = what[0] == 'm' ? f->memory_gb : what[0] == 'p' ? f->power_w : f->idle_power_w;
            cp_load_err(c, m, NULL,
                        "accelerator '%s' is defined twice with different values (first at "
                        "%s:%d:%d): %s is %g here and %g there",
                        a->name, f->pos.file, f->pos.line, f->pos.col, what, x, y);
        }
        cp_free(a->name);
        memset(a, 0, sizeof *a);
        in->n_accels--;
        return;
    }
}

static void load_accels(lctx *c, const nodevec *v)
{
    cp_input *in = c->in;
    in->accels = cp_calloc(v->n ? v->n : 1, sizeof *in->accels);
    if (!in->accels) {
        c->nomem = true;
        return;
    }
    static const char *const keys[] = {"name", "memory_gb", "power_w", "idle_power_w", NULL};
    for (size_t i = 0; i < v->n; i++) {
        const int before = c->diags->n;
        cp_accel *a = &in->accels[in->n_accels++];
        const cp_node *m = v->v[i];
        char ent[200];
        a->pos = m->pos;
        if (!cp_load_want_map(c, m, NULL, "accelerators[]"))
            continue;
        entity_name(c, m, "accelerator", (int)i, &a->name, ent, sizeof ent);
        cp_load_check_keys(c, m, ent, keys, NULL, NULL);
        cp_node *n;
        require(c, m, ent, "memory_gb");
        if ((n = cp_map_get(m, "memory_gb")))
            cp_load_num(c, n, ent, "memory_gb", R_POS, &a->memory_gb);
        if ((n = cp_map_get(m, "power_w")))
            cp_load_num(c, n, ent, "power_w", R_NONNEG, &a->power_w);
        if ((n = cp_map_get(m, "idle_power_w")) &&
            cp_load_num(c, n, ent, "idle_power_w", R_NONNEG, &a->idle_power_w) &&
            a->idle_power_w > a->power_w)
            cp_load_err(c, n, ent, "'idle_power_w' (%g) must not exceed 'power_w' (%g)",
                        a->idle_power_w, a->power_w);
        if (c->diags->n == before)
            merge_accel(c, m);
    }
}

static bool zero_series(lctx *c, cp_series *s, double value);

static void load_sites(lctx *c, const nodevec *v)
{
    cp_input *in = c->in;
    in->sites = cp_calloc(v->n ? v->n : 1, sizeof *in->sites);
    if (!in->sites) {
        c->nomem = true;
        return;
    }
    static const char *const keys[] = {"name", "pue", "energy_price", "carbon_intensity",
                                       "power_cap_kw", "egress_per_gb", NULL};
    for (size_t i = 0; i < v->n; i++) {
        cp_site *s = &in->sites[in->n_sites++];
        const cp_node *m = v->v[i];
        char ent[200];
        s->pos = m->pos;
        s->pue = 1.0;
        if (!cp_load_want_map(c, m, NULL, "sites[]"))
            continue;
        entity_name(c, m, "site", (int)i, &s->name, ent, sizeof ent);
        cp_load_check_keys(c, m, ent, keys, NULL, NULL);
        cp_node *n;
        if ((n = cp_map_get(m, "pue")))
            cp_load_num(c, n, ent, "pue", R_GE1, &s->pue);
        if ((n = cp_map_get(m, "energy_price")))
            cp_load_series(c, n, ent, "energy_price", R_NONNEG, false, 0, 0, &s->energy_price);
        if ((n = cp_map_get(m, "carbon_intensity")))
            cp_load_series(c, n, ent, "carbon_intensity", R_NONNEG, false, 0, 0,
                           &s->carbon_intensity);
        if ((n = cp_map_get(m, "power_cap_kw")))
            cp_load_series(c, n, ent, "power_cap_kw", R_POS, false, 0, 0, &s->power_cap_kw);
        if ((n = cp_map_get(m, "egress_per_gb")))
            cp_load_num(c, n, ent, "egress_per_gb", R_NONNEG, &s->egress_per_gb);
        zero_series(c, &s->energy_price, 0);
        zero_series(c, &s->carbon_intensity, 0);
    }
}

static bool zero_series(lctx *c, cp_series *s, double value)
{
    if (s->v)
        return true;
    s->v = cp_calloc(1, sizeof *s->v);
    if (!s->v) {
        c->nomem = true;
        return false;
    }
    s->v[0] = value;
    s->n = 1;
    s->set = false;
    return true;
}

static int ref_site(lctx *c, const cp_node *n, const char *ent)
{
    char *name = NULL;
    if (!cp_load_str(c, n, ent, "site", &name))
        return -1;
    int i = cp_input_find_site(c->in, name);
    if (i < 0)
        cp_load_err(c, n, ent, "unknown site '%s'", name);
    cp_free(name);
    return i;
}

static void load_machine(lctx *c, const cp_node *m, const char *ent, const char *key,
                         const char *default_type, cp_machine *out)
{
    static const char *const keys[] = {"type", "accelerator", "accelerators", "cpus",
                                       "memory_gb", "power_w", "idle_power_w", NULL};
    out->acc = -1;
    char sub[240];
    snprintf(sub, sizeof sub, "%s %s", ent, key);
    cp_node *n;
    if ((n = cp_map_get(m, "type")))
        cp_load_str(c, n, sub, "type", &out->type);
    if (!out->type && default_type && !(out->type = cp_strdup(default_type)))
        c->nomem = true;
    cp_node *an = cp_map_get(m, "accelerator");
    if (an) {
        char *name = NULL;
        if (cp_load_str(c, an, sub, "accelerator", &name)) {
            out->acc = cp_input_find_accel(c->in, name);
            if (out->acc < 0)
                cp_load_err(c, an, sub, "unknown accelerator '%s'", name);
            cp_free(name);
        }
    }
    cp_node *cn = cp_map_get(m, "accelerators");
    if (cn && cp_load_int(c, cn, sub, "accelerators", 0, CP_INPUT_COUNT_MAX, &out->accelerators)) {
        if (an && out->accelerators == 0)
            cp_load_err(c, cn, sub, "'accelerators' must be > 0 when 'accelerator' is set");
        if (!an && out->accelerators > 0)
            cp_load_err(c, cn, sub, "'accelerators' is %d but no 'accelerator' type is given",
                        out->accelerators);
    } else if (an && !cn) {
        cp_load_err(c, an, sub,
                    "'accelerator' is set but 'accelerators' (how many per %s) is missing",
                    !strcmp(key, "node") ? "node" : "instance");
    }
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    require(c, m, sub, "cpus");
    if ((n = cp_map_get(m, "cpus")))
        cp_load_num(c, n, sub, "cpus", R_POS, &out->cpus);
    require(c, m, sub, "memory_gb");
    if ((n = cp_map_get(m, "memory_gb")))
        cp_load_num(c, n, sub, "memory_gb", R_POS, &out->memory_gb);
    if ((n = cp_map_get(m, "power_w")))
        cp_load_num(c, n, sub, "power_w", R_NONNEG, &out->power_w);
    if ((n = cp_map_get(m, "idle_power_w")) &&
        cp_load_num(c, n, sub, "idle_power_w", R_NONNEG, &out->idle_power_w) &&
        out->idle_power_w > out->power_w)
        cp_load_err(c, n, sub, "'idle_power_w' (%g) must not exceed 'power_w' (%g)",
                    out->idle_power_w, out->power_w);
}

static void load_pools(lctx *c, const nodevec *v)
{
    cp_input *in = c->in;
    in->pools = cp_calloc(v->n ? v->n : 1, sizeof *in->pools);
    if (!in->pools) {
        c->nomem = true;
        return;
    }
    static const char *const keys[] = {"name", "site", "nodes", "available", "node", "hosts",
                                       NULL};
    for (size_t i = 0; i < v->n && !cp_diags_full(c->diags); i++) {
        cp_pool *p = &in->pools[in->n_pools++];
        const cp_node *m = v->v[i];
        char ent[200];
        p->pos = m->pos;
        p->site = -1;
        p->node.acc = -1;
        if (!cp_load_want_map(c, m, NULL, "pools[]"))
            continue;
        entity_name(c, m, "pool", (int)i, &p->name, ent, sizeof ent);
        cp_load_check_keys(c, m, ent, keys, NULL, NULL);
        cp_node *n;
        require(c, m, ent, "site");
        if ((n = cp_map_get(m, "site")))
            p->site = ref_site(c, n, ent);
        require(c, m, ent, "nodes");
        bool nodes_ok = false;
        if ((n = cp_map_get(m, "nodes")))
            nodes_ok = cp_load_int(c, n, ent, "nodes", 0, CP_INPUT_COUNT_MAX, &p->nodes);
        if ((n = cp_map_get(m, "available")))
            cp_load_series(c, n, ent, "available", R_NONNEG, true, 0, nodes_ok ? p->nodes : CP_INPUT_COUNT_MAX,
                           &p->available);
        if (!p->available.v)
            zero_series(c, &p->available, p->nodes);
        cp_node *nm = cp_map_get(m, "node");
        if (!nm)
            cp_load_err(c, m, ent, "missing required key 'node' (what one node carries)");
        else if (cp_load_want_map(c, nm, ent, "node"))
            load_machine(c, nm, ent, "node", p->name, &p->node);
        if ((n = cp_map_get(m, "hosts")))
            cp_load_hosts(c, n, ent, p, nodes_ok);
    }
}

static void load_offers(lctx *c, const nodevec *v)
{
    cp_input *in = c->in;
    in->offers = cp_calloc(v->n ? v->n : 1, sizeof *in->offers);
    if (!in->offers) {
        c->nomem = true;
        return;
    }
    static const char *const keys[] = {"name", "provider", "region", "site", "instance",
                                       "price_hour", "quota", "spot_price_hour", "spot_quota",
                                       "spot_interruptions_per_hour", NULL};
    for (size_t i = 0; i < v->n && !cp_diags_full(c->diags); i++) {
        cp_offer *o = &in->offers[in->n_offers++];
        const cp_node *m = v->v[i];
        char ent[200];
        o->pos = m->pos;
        o->site = -1;
        o->inst.acc = -1;
        if (!cp_load_want_map(c, m, NULL, "offers[]"))
            continue;
        entity_name(c, m, "offer", (int)i, &o->name, ent, sizeof ent);
        cp_load_check_keys(c, m, ent, keys, NULL, NULL);
        cp_node *n;
        if ((n = cp_map_get(m, "provider")))
            cp_load_str(c, n, ent, "provider", &o->provider);
        if ((n = cp_map_get(m, "region")))
            cp_load_str(c, n, ent, "region", &o->region);
        if ((n = cp_map_get(m, "site")))
            o->site = ref_site(c, n, ent);
        cp_node *im = cp_map_get(m, "instance");
        if (!im)
            cp_load_err(c, m, ent, "missing required key 'instance' (what one instance carries)");
        else if (cp_load_want_map(c, im, ent, "instance"))
            load_machine(c, im, ent, "instance", o->name, &o->inst);
        require(c, m, ent, "price_hour");
        if ((n = cp_map_get(m, "price_hour")))
            cp_load_num(c, n, ent, "price_hour", R_NONNEG, &o->price_hour);
        if ((n = cp_map_get(m, "quota")))
            cp_load_series(c, n, ent, "quota", R_NONNEG, true, 0, 100000000, &o->quota);
        if (!o->quota.v)
            zero_series(c, &o->quota, 1000);
        cp_node *sp = cp_map_get(m, "spot_price_hour");
        if (sp)
            o->has_spot = cp_load_num(c, sp, ent, "spot_price_hour", R_NONNEG, &o->spot_price_hour);
        if ((n = cp_map_get(m, "spot_quota"))) {
            if (!sp)
                cp_load_err(c, n, ent, "'spot_quota' is set but 'spot_price_hour' is not");
            else
                cp_load_series(c, n, ent, "spot_quota", R_NONNEG, true, 0, 100000000,
                               &o->spot_quota);
        }
        if (!o->spot_quota.v && o->quota.v) {
            o->spot_quota.v = cp_calloc((size_t)o->quota.n, sizeof(double));
            if (!o->spot_quota.v) {
                c->nomem = true;
            } else {
                memcpy(o->spot_quota.v, o->quota.v, (size_t)o->quota.n * sizeof(double));
                o->spot_quota.n = o->quota.n;
            }
        }
        if ((n = cp_map_get(m, "spot_interruptions_per_hour"))) {
            if (!sp)
                cp_load_err(c, n, ent,
                            "'spot_interruptions_per_hour' is set but 'spot_price_hour' is not");
            else
                cp_load_num(c, n, ent, "spot_interruptions_per_hour", R_NONNEG,
                            &o->spot_interruptions_per_hour);
        }
    }
}

/* Names must be unique within their kind; sorting keeps this fast for
 * thousands of jobs. The later definition is the one reported. */
typedef struct named {
    const char *name;
    cp_pos pos;
    int idx;
} named;

static int named_cmp(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static void check_unique(lctx *c, const char *kind, int n, const void *base, size_t stride,
                         size_t name_off, size_t pos_off)
{
    if (n < 2)
        return;
    named *v = cp_calloc((size_t)n, sizeof *v);
    if (!v) {
        c->nomem = true;
        return;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *rec = (const char *)base + (size_t)i * stride;
        const char *name = *(char *const *)(rec + name_off);
        if (!name)
            continue;
        v[k].name = name;
        v[k].pos = *(const cp_pos *)(rec + pos_off);
        v[k].idx = i;
        k++;
    }
    qsort(v, (size_t)k, sizeof *v, named_cmp);
    for (int i = 1; i < k; i++) {
        if (strcmp(v[i].name, v[i - 1].name))
            continue;
        int first = i - 1;
        while (first > 0 && !strcmp(v[first - 1].name, v[i].name))
            first--;
        cp_diags_add(c->diags, CP_ERR_INPUT, v[i].pos, "%s '%s' is defined twice (first at %s:%d:%d)",
                     kind, v[i].name, v[first].pos.file, v[first].pos.line, v[first].pos.col);
    }
    cp_free(v);
}

#define UNIQUE(c, kind, arr, cnt, type)                                       \
    check_unique(c, kind, cnt, arr, sizeof(type), offsetof(type, name), offsetof(type, pos))

static int build(cp_node *const *roots, int n_roots, char **files, int n_files,
                 cp_input **out, cp_diags *diags)
{
    lctx c = {diags, NULL, 0, false, false};
    const int n0 = diags->n, dropped0 = diags->dropped, worst0 = diags->worst;
    merged m;
    memset(&m, 0, sizeof m);
    c.in = cp_calloc(1, sizeof *c.in);
    int rc;
    if (!c.in) {
        for (int i = 0; i < n_files; i++)
            cp_free(files[i]);
        cp_free(files);
        rc = CP_ERR_NOMEM;
        goto out;
    }
    c.in->files = files;
    c.in->n_files = n_files;
    c.in->slot_hours = 1.0;
    nodevec rootv = {(cp_node **)roots, (size_t)n_roots, 0};
    c.in->digest = CP_NODE_DIGEST_INIT;
    for (int i = 0; i < n_roots; i++) {
        c.in->digest = cp_node_digest(roots[i], c.in->digest);
        merge_root(&c, &m, roots[i]);
    }
    load_horizon(&c, &m.horizon, m.horizon_at, &rootv);
    load_objective(&c, &m.objective);
    /* in capplan.5's order, so errors come out roughly in the order of a file */
    load_sites(&c, &m.kinds[K_SITES]);
    UNIQUE(&c, "site", c.in->sites, c.in->n_sites, cp_site);
    load_accels(&c, &m.kinds[K_ACCELS]);
    UNIQUE(&c, "accelerator", c.in->accels, c.in->n_accels, cp_accel);
    load_pools(&c, &m.kinds[K_POOLS]);
    UNIQUE(&c, "pool", c.in->pools, c.in->n_pools, cp_pool);
    load_offers(&c, &m.kinds[K_OFFERS]);
    UNIQUE(&c, "offer", c.in->offers, c.in->n_offers, cp_offer);
    cp_load_teams(&c, m.kinds[K_TEAMS].v, (int)m.kinds[K_TEAMS].n);
    UNIQUE(&c, "team", c.in->teams, c.in->n_teams, cp_team);
    cp_load_jobs(&c, m.kinds[K_JOBS].v, (int)m.kinds[K_JOBS].n);
    UNIQUE(&c, "job", c.in->jobs, c.in->n_jobs, cp_job);
    cp_load_services(&c, m.kinds[K_SERVICES].v, (int)m.kinds[K_SERVICES].n);
    UNIQUE(&c, "service", c.in->services, c.in->n_services, cp_service);
    warn_objective_confidence(&c, &m.objective);
    if (!c.nomem)
        cp_load_after(&c, m.kinds[K_JOBS].v, (int)m.kinds[K_JOBS].n);
    if (c.nomem) {
        /* Errors found after an allocation failed may be its echoes (a
         * key lost with its pair reads as missing): report the failure
         * alone, as the CLI prints every recorded error. */
        diags->n = n0;
        diags->dropped = dropped0;
        diags->worst = worst0;
        rc = cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    } else {
        rc = diags->worst;
    }
out:
    for (int k = 0; k < K_COUNT; k++)
        cp_free(m.kinds[k].v);
    cp_free(m.horizon.v);
    cp_free(m.objective.v);
    if (rc != CP_OK) {
        cp_input_free(c.in);
        return rc;
    }
    *out = c.in;
    return CP_OK;
}

int cp_input_from_trees(cp_node *const *roots, int n_roots, cp_input **out, cp_diags *diags)
{
    return build(roots, n_roots, NULL, 0, out, diags);
}

int cp_input_load(const char *const *paths, int n_paths, cp_input **out, cp_diags *diags)
{
    char **files = cp_calloc((size_t)(n_paths ? n_paths : 1), sizeof *files);
    cp_node **roots = cp_calloc((size_t)(n_paths ? n_paths : 1), sizeof *roots);
    int rc = CP_OK, n_files = 0;
    if (!files || !roots) {
        cp_free(files);
        cp_free(roots);
        return cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    for (int i = 0; i < n_paths; i++) {
        if (!(files[i] = cp_strdup(paths[i]))) {
            rc = CP_ERR_NOMEM;
            break;
        }
        n_files = i + 1;
    }
    for (int i = 0; rc == CP_OK && i < n_paths; i++)
        cp_yaml_load_file(files[i], &roots[i], diags);
    if (rc == CP_OK)
        rc = diags->worst;
    if (rc == CP_OK) {
        rc = build(roots, n_paths, files, n_files, out, diags);
        files = NULL; /* owned by the input, or freed by build */
    }
    if (rc == CP_ERR_NOMEM && diags->worst == CP_OK)
        cp_diags_add(diags, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    for (int i = 0; i < n_paths; i++)
        cp_node_free(roots[i]);
    cp_free(roots);
    if (files) {
        for (int i = 0; i < n_files; i++)
            cp_free(files[i]);
        cp_free(files);
    }
    return rc;
}
