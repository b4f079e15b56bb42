/*
 * Applying a scenario to the merged input tree (capplan.5 §8). Edits happen on
 * the cp_node tree, before the input is interpreted, so a changed input
 * is loaded, validated and planned by exactly the code `plan` uses, and
 * can be written back as YAML.
 *
 * "A change applies to the value in effect, defaults included": when a
 * path ends at a key the entity does not give, the capplan.5 §1 default of that
 * key is first written into the tree (the table below), then changed.
 * Defaults that depend on other values (`available` = nodes, `deadline_hour`
 * = horizon end, `spot_quota` = quota, `type` = the name) are computed from
 * the tree at that moment. A wildcard NAME changes every entity where the
 * value is in effect and skips the others (an offer without spot has no
 * spot_price_hour); a named entity may also `set` a key that has no default
 * (a power cap, a budget). A path that changes nothing anywhere is an error.
 */
#include "whatif_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { K_HORIZON = WI_KINDS, K_OBJECTIVE };

static const char *const singular[WI_KINDS] = {"site", "accelerator", "pool", "offer", "job",
                                                "team", "service"};

typedef enum {
    D_NONE,       /* a known key without a default */
    D_TEXT,       /* a plain scalar */
    D_SEQ1,       /* [1] */
    D_NODES,      /* the pool's `nodes` */
    D_NAME,       /* the entity's name */
    D_QUOTA,      /* the offer's quota (1000 when absent) */
    D_HORIZON_END, /* horizon.slots * horizon.slot_hours */
    D_DATA_GB,     /* capplan.5 §9.3: the job's input_gb for dataflow, else 0 */
    D_LIMIT_W      /* a power limit's power_w: its limit_w (capplan.5 §10.3) */
} dkind;

enum { F_TRAINING = 1, F_SPOT = 2, F_PARENT = 4 };

typedef struct wi_default {
    int kind;
    const char *key; /* KEY/SUBKEY; a '*' segment matches any one segment */
    dkind how;
    const char *text;
    unsigned flags;
} wi_default;

/* capplan.5 §1 (and the extensions in docs/spec-notes.md), key by key. */
static const wi_default defaults[] = {
    {K_HORIZON, "slots", D_NONE, NULL, 0},
    {K_HORIZON, "slot_hours", D_TEXT, "1", 0},
    {K_HORIZON, "start", D_NONE, NULL, 0},
    {K_OBJECTIVE, "carbon_price_per_ton", D_TEXT, "0", 0},
    {K_OBJECTIVE, "budget", D_NONE, NULL, 0},
    {K_OBJECTIVE, "deadline_confidence", D_NONE, NULL, 0},
    {WI_SITES, "pue", D_TEXT, "1", 0},
    {WI_SITES, "energy_price", D_TEXT, "0", 0},
    {WI_SITES, "carbon_intensity", D_TEXT, "0", 0},
    {WI_SITES, "egress_per_gb", D_TEXT, "0", 0},
    {WI_SITES, "power_cap_kw", D_NONE, NULL, 0},
    {WI_ACCELS, "memory_gb", D_NONE, NULL, 0},
    {WI_ACCELS, "power_w", D_TEXT, "0", 0},
    {WI_ACCELS, "idle_power_w", D_TEXT, "0", 0},
    {WI_POOLS, "site", D_NONE, NULL, 0},
    {WI_POOLS, "nodes", D_NONE, NULL, 0},
    {WI_POOLS, "available", D_NODES, NULL, 0},
    {WI_POOLS, "node/type", D_NAME, NULL, 0},
    {WI_POOLS, "node/accelerator", D_NONE, NULL, 0},
    {WI_POOLS, "node/accelerators", D_TEXT, "0", 0},
    {WI_POOLS, "node/cpus", D_NONE, NULL, 0},
    {WI_POOLS, "node/memory_gb", D_NONE, NULL, 0},
    {WI_POOLS, "node/power_w", D_TEXT, "0", 0},
    {WI_POOLS, "node/idle_power_w", D_TEXT, "0", 0},
    {WI_OFFERS, "provider", D_NONE, NULL, 0},
    {WI_OFFERS, "region", D_NONE, NULL, 0},
    {WI_OFFERS, "site", D_NONE, NULL, 0},
    {WI_OFFERS, "instance/type", D_NAME, NULL, 0},
    {WI_OFFERS, "instance/accelerator", D_NONE, NULL, 0},
    {WI_OFFERS, "instance/accelerators", D_TEXT, "0", 0},
    {WI_OFFERS, "instance/cpus", D_NONE, NULL, 0},
    {WI_OFFERS, "instance/memory_gb", D_NONE, NULL, 0},
    {WI_OFFERS, "instance/power_w", D_TEXT, "0", 0},
    {WI_OFFERS, "instance/idle_power_w", D_TEXT, "0", 0},
    {WI_OFFERS, "price_hour", D_NONE, NULL, 0},
    {WI_OFFERS, "quota", D_TEXT, "1000", 0},
    {WI_OFFERS, "spot_price_hour", D_NONE, NULL, 0},
    {WI_OFFERS, "spot_quota", D_QUOTA, NULL, F_SPOT},
    {WI_OFFERS, "spot_interruptions_per_hour", D_TEXT, "0", F_SPOT},
    {WI_JOBS, "kind", D_NONE, NULL, 0},
    {WI_JOBS, "release_hour", D_TEXT, "0", 0},
    {WI_JOBS, "deadline_hour", D_HORIZON_END, NULL, 0},
    {WI_JOBS, "drop_penalty", D_TEXT, "1000000", 0},
    {WI_JOBS, "preemptible", D_TEXT, "false", 0},
    {WI_JOBS, "checkpoint_minutes", D_TEXT, "30", 0},
    {WI_JOBS, "restart_minutes", D_TEXT, "5", 0},
    {WI_JOBS, "placement/pools", D_NONE, NULL, 0},
    {WI_JOBS, "placement/offers", D_NONE, NULL, 0},
    {WI_JOBS, "placement/providers", D_NONE, NULL, 0},
    {WI_JOBS, "placement/regions", D_NONE, NULL, 0},
    {WI_JOBS, "placement/cloud", D_TEXT, "true", 0},
    {WI_JOBS, "placement/on_prem", D_TEXT, "true", 0},
    {WI_JOBS, "work", D_NONE, NULL, 0},
    {WI_JOBS, "throughput/*", D_NONE, NULL, 0},
    {WI_JOBS, "accelerators", D_SEQ1, NULL, F_TRAINING},
    {WI_JOBS, "scaling/model", D_TEXT, "linear", F_TRAINING},
    {WI_JOBS, "scaling/serial_fraction", D_NONE, NULL, 0},
    {WI_JOBS, "scaling/speedup/*", D_NONE, NULL, 0},
    {WI_JOBS, "accelerator_memory_gb", D_NONE, NULL, 0},
    {WI_JOBS, "cpus_per_accelerator", D_TEXT, "0", F_TRAINING},
    {WI_JOBS, "memory_gb_per_accelerator", D_TEXT, "0", F_TRAINING},
    {WI_JOBS, "input_gb", D_NONE, NULL, 0},
    {WI_JOBS, "machines", D_NONE, NULL, 0},
    {WI_JOBS, "runtime/theta/*", D_NONE, NULL, 0},
    {WI_JOBS, "runtime/sigma_seconds/*", D_NONE, NULL, 0},
    {WI_JOBS, "deadline_confidence", D_NONE, NULL, 0},
    {WI_JOBS, "model/parameters", D_NONE, NULL, F_PARENT},
    {WI_JOBS, "model/bytes_per_parameter", D_TEXT, "2", F_PARENT},
    {WI_JOBS, "model/optimizer", D_TEXT, "adam", F_PARENT},
    {WI_JOBS, "model/micro_batch", D_TEXT, "1", F_PARENT},
    {WI_JOBS, "model/activation_gb_per_sample", D_TEXT, "0", F_PARENT},
    /* 1.1 (capplan.5 §1.7, §9): a shape's keys are in effect in every listed
     * shape (shapes/INDEX/KEY), data/gb only where the job has data */
    {WI_JOBS, "scaling/*/model", D_NONE, NULL, 0},
    {WI_JOBS, "scaling/*/serial_fraction", D_NONE, NULL, 0},
    {WI_JOBS, "scaling/*/speedup/*", D_NONE, NULL, 0},
    {WI_JOBS, "shapes/*/cpus_per_accelerator", D_TEXT, "0", F_PARENT},
    {WI_JOBS, "shapes/*/memory_gb_per_accelerator", D_TEXT, "0", F_PARENT},
    {WI_JOBS, "shapes/*/speed", D_TEXT, "1", F_PARENT},
    {WI_JOBS, "after", D_NONE, NULL, 0},
    {WI_JOBS, "data/site", D_NONE, NULL, F_PARENT},
    {WI_JOBS, "data/gb", D_DATA_GB, NULL, F_PARENT},
    /* capplan.5 §10: power_limits/TYPE/INDEX/KEY in every listed limit */
    {WI_JOBS, "power_limits/*/*/limit_w", D_NONE, NULL, F_PARENT},
    {WI_JOBS, "power_limits/*/*/speed", D_NONE, NULL, F_PARENT},
    {WI_JOBS, "power_limits/*/*/power_w", D_LIMIT_W, NULL, F_PARENT},
    {WI_JOBS, "team", D_NONE, NULL, 0},
    /* capplan.5 §10.2: a quota by its key (teams/NAME/quota/V100), the
     * budget; neither has a default, so a named team may set one */
    {WI_TEAMS, "quota/*", D_NONE, NULL, 0},
    {WI_TEAMS, "budget", D_NONE, NULL, 0},
    /* capplan.5 §10.4: a service's scalars and series (services/NAME/KEY);
     * a class's load by its index (classes/INDEX/load), a configuration's
     * keys by index (replicas/INDEX/KEY, rate/CLASS) */
    {WI_SERVICES, "load", D_NONE, NULL, 0},
    {WI_SERVICES, "classes/*/load", D_NONE, NULL, 0},
    {WI_SERVICES, "replicas/*/count", D_TEXT, "1", F_PARENT},
    {WI_SERVICES, "replicas/*/cpus", D_TEXT, "0", F_PARENT},
    {WI_SERVICES, "replicas/*/memory_gb", D_TEXT, "0", F_PARENT},
    {WI_SERVICES, "replicas/*/rate", D_NONE, NULL, 0},
    {WI_SERVICES, "replicas/*/rate/*", D_NONE, NULL, 0},
    {WI_SERVICES, "min_replicas", D_TEXT, "1", 0},
    {WI_SERVICES, "start_cost", D_TEXT, "0", 0},
    {WI_SERVICES, "unserved_penalty", D_TEXT, "1", 0},
    {WI_SERVICES, "restart_minutes", D_TEXT, "5", 0},
    {WI_SERVICES, "team", D_NONE, NULL, 0},
};

/* Does `key` (segments separated by '/') match `pat` ('*' = one segment)? */
static bool key_match(const char *pat, const char *key)
{
    while (*pat && *key) {
        size_t pl = strcspn(pat, "/"), kl = strcspn(key, "/");
        if (!(pl == 1 && *pat == '*') && (pl != kl || strncmp(pat, key, pl)))
            return false;
        pat += pl;
        key += kl;
        if (*pat != *key)
            return false;
        if (*pat)
            pat++, key++;
    }
    return !*pat && !*key;
}

static const wi_default *find_default(int kind, const char *key)
{
    for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
        if (defaults[i].kind == kind && key_match(defaults[i].key, key))
            return &defaults[i];
    return NULL;
}

typedef struct actx {
    cp_node *root;
    const wi_change *ch;
    cp_diags *d;
    bool nomem;
    bool failed; /* this change hit a value it cannot scale or add to */
} actx;

static double horizon_end(const cp_node *root)
{
    const cp_node *h = cp_map_get(root, "horizon");
    const cp_node *s = cp_map_get(h, "slots"), *sh = cp_map_get(h, "slot_hours");
    double slots = NAN, hours = 1;
    if (s)
        cp_scalar_number(s, &slots);
    if (sh)
        cp_scalar_number(sh, &hours);
    return slots * hours;
}

/* The default's value for entity e, or NULL when it has none now (the
 * node is also NULL on out of memory: c->nomem says which). */
static cp_node *default_node(actx *c, const wi_default *df, const cp_node *e,
                             const cp_node *parent)
{
    cp_pos pos = c->ch->path->pos;
    const cp_node *src = NULL;
    cp_node *n = NULL;
    char tmp[40];
    if ((df->flags & F_TRAINING)) {
        const cp_node *k = cp_map_get(e, "kind");
        if (!k || k->kind != CP_NODE_SCALAR || strcmp(k->str, "training"))
            return NULL;
    }
    if ((df->flags & F_SPOT) && !cp_map_get(e, "spot_price_hour"))
        return NULL;
    switch (df->how) {
    case D_NONE:
        return NULL;
    case D_TEXT:
        n = cp_wi_scalar_new(df->text, false, pos);
        break;
    case D_SEQ1:
        if ((n = cp_wi_coll_new(CP_NODE_SEQ, pos)) &&
            cp_wi_seq_push(n, cp_wi_scalar_new("1", false, pos)) != CP_OK) {
            cp_node_free(n);
            n = NULL;
        }
        break;
    case D_NODES:
        if (!(src = cp_map_get(e, "nodes")))
            return NULL;
        n = cp_wi_clone(src);
        break;
    case D_NAME:
        if (!(src = cp_map_get(e, "name")))
            return NULL;
        n = cp_wi_clone(src);
        break;
    case D_QUOTA:
        n = (src = cp_map_get(e, "quota")) ? cp_wi_clone(src)
                                           : cp_wi_scalar_new("1000", false, pos);
        break;
    case D_HORIZON_END: {
        double end = horizon_end(c->root);
        if (!isfinite(end))
            return NULL;
        cp_fmt_num_exact(tmp, sizeof tmp, end);
        n = cp_wi_scalar_new(tmp, false, pos);
        break;
    }
    case D_DATA_GB: {
        const cp_node *k = cp_map_get(e, "kind");
        bool dataflow = k && k->kind == CP_NODE_SCALAR && !strcmp(k->str, "dataflow");
        if (dataflow && !(src = cp_map_get(e, "input_gb")))
            return NULL;
        n = dataflow ? cp_wi_clone(src) : cp_wi_scalar_new("0", false, pos);
        break;
    }
    case D_LIMIT_W:
        if (!(src = cp_map_get(parent, "limit_w")))
            return NULL;
        n = cp_wi_clone(src);
        break;
    }
    if (!n)
        c->nomem = true;
    return n;
}

/* Multiplies or adds to every number in n; false (reported once per
 * change) when a scalar in it is not a number. */
static bool arith(actx *c, cp_node *n, const char *ent)
{
    if (n->kind != CP_NODE_SCALAR) {
        for (size_t i = 0; i < n->n; i++)
            if (!arith(c, n->kids[n->kind == CP_NODE_MAP ? 2 * i + 1 : i], ent))
                return false;
        return true;
    }
    double x;
    if (!cp_scalar_number(n, &x)) {
        const cp_pos *p = &n->pos, *cp = &c->ch->path->pos;
        char where[CP_FILE_MAX + 40];
        if (p->file == cp->file && p->line == cp->line && p->col == cp->col)
            snprintf(where, sizeof where, "its default");
        else
            snprintf(where, sizeof where, "at %s:%d:%d", p->file ? p->file : "?", p->line, p->col);
        if (!c->failed)
            cp_diags_add(c->d, CP_ERR_INPUT, c->ch->path->pos,
                         "cannot %s '%s' of %s: '%s' (%s) is not a number",
                         c->ch->op == WI_SCALE ? "scale" : "add to", c->ch->path->str, ent, n->str,
                         where);
        c->failed = true;
        return false;
    }
    x = c->ch->op == WI_SCALE ? x * c->ch->num : x + c->ch->num;
    char tmp[40];
    cp_fmt_num_exact(tmp, sizeof tmp, x);
    char *s = cp_strdup(tmp);
    if (!s) {
        c->nomem = true;
        return false;
    }
    cp_free(n->str);
    n->str = s;
    n->quoted = false;
    n->pos = c->ch->value->pos; /* so a value made invalid points at the change */
    return true;
}

static bool change_value(actx *c, cp_node **slot, const char *ent)
{
    if (c->ch->op == WI_SET) {
        cp_node *v = cp_wi_clone(c->ch->value);
        if (!v) {
            c->nomem = true;
            return false;
        }
        cp_node_free(*slot);
        *slot = v;
        return true;
    }
    return arith(c, *slot, ent);
}

static bool is_index(const char *seg, size_t len, size_t *out)
{
    if (!len || len > 9)
        return false;
    size_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (seg[i] < '0' || seg[i] > '9')
            return false;
        v = v * 10 + (size_t)(seg[i] - '0');
    }
    *out = v;
    return true;
}

/* Applies the change at `key` inside map e. Returns true when it changed
 * something. */
static bool apply_at(actx *c, int kind, cp_node *e, const char *key, bool wild, const char *ent)
{
    cp_node *cur = e;
    cp_node **slot = NULL;
    const char *seg = key;
    while (*seg) {
        size_t len = strcspn(seg, "/"), idx;
        cp_node **s = NULL;
        if (cur->kind == CP_NODE_MAP) {
            for (size_t i = 0; i < cur->n && !s; i++)
                if (strlen(cur->kids[2 * i]->str) == len && !strncmp(cur->kids[2 * i]->str, seg, len))
                    s = &cur->kids[2 * i + 1];
        } else if (cur->kind == CP_NODE_SEQ && is_index(seg, len, &idx) && idx < cur->n) {
            s = &cur->kids[idx];
        }
        if (!s)
            break;
        slot = s;
        cur = *s;
        seg += len;
        if (*seg)
            seg++;
    }
    if (!*seg) {
        double v, end = horizon_end(c->root);
        /* capplan.5 §4: a deadline beyond the horizon end is read as the end,
         * and that is the value a scale or add applies to */
        if (kind == WI_JOBS && !strcmp(key, "deadline_hour") && c->ch->op != WI_SET &&
            cp_scalar_number(*slot, &v) && v > end) {
            char tmp[40];
            char *s;
            cp_fmt_num_exact(tmp, sizeof tmp, end);
            if (!(s = cp_strdup(tmp))) {
                c->nomem = true;
                return false;
            }
            cp_free((*slot)->str);
            (*slot)->str = s;
        }
        return change_value(c, slot, ent);
    }
    /* Missing from `seg` on: the default, or a new key for `set`. */
    const wi_default *df = find_default(kind, key);
    if (!df || cur->kind != CP_NODE_MAP)
        return false;
    bool last = !strchr(seg, '/');
    if ((df->flags & F_PARENT) && !last)
        return false;
    cp_node *v = default_node(c, df, e, cur);
    bool from_default = v != NULL;
    if (!v && (c->nomem || c->ch->op != WI_SET || wild))
        return false;
    if (!v && !(v = cp_wi_clone(c->ch->value))) {
        c->nomem = true;
        return false;
    }
    /* build the missing maps down to the key */
    cp_pos pos = c->ch->path->pos;
    while (strchr(seg, '/')) {
        size_t len = strcspn(seg, "/");
        char name[128];
        if (len >= sizeof name) {
            cp_node_free(v);
            return false;
        }
        memcpy(name, seg, len);
        name[len] = '\0';
        cp_node *m = cp_wi_coll_new(CP_NODE_MAP, pos);
        if (!m || cp_wi_map_put(cur, cp_wi_scalar_new(name, false, pos), m) != CP_OK) {
            cp_node_free(v);
            c->nomem = true;
            return false;
        }
        cur = m;
        seg += len + 1;
    }
    if (cp_wi_map_put(cur, cp_wi_scalar_new(seg, false, pos), v) != CP_OK) {
        c->nomem = true;
        return false;
    }
    slot = &cur->kids[2 * cur->n - 1];
    return from_default ? change_value(c, slot, ent) : true;
}

static int kind_of_path(const char *path, const char **rest)
{
    size_t len = strcspn(path, "/");
    *rest = path[len] ? path + len + 1 : path + len;
    if (len == 7 && !strncmp(path, "horizon", 7))
        return K_HORIZON;
    if (len == 9 && !strncmp(path, "objective", 9))
        return K_OBJECTIVE;
    for (int k = 0; k < WI_KINDS; k++)
        if (strlen(cp_wi_kind_keys[k]) == len && !strncmp(path, cp_wi_kind_keys[k], len))
            return k;
    return -1;
}

static int apply_change(cp_node *root, const wi_change *ch, cp_diags *d)
{
    actx c = {root, ch, d, false, false};
    const char *path = ch->path->str, *rest;
    int kind = kind_of_path(path, &rest);
    int named = 0, hits = 0;
    char ent[200];
    if (kind == K_HORIZON || kind == K_OBJECTIVE) {
        const char *key = kind == K_HORIZON ? "horizon" : "objective";
        cp_node **slot = cp_wi_map_slot(root, key);
        named = 1;
        if (!slot) { /* an absent objective: every key at its default */
            cp_node *m = cp_wi_coll_new(CP_NODE_MAP, ch->path->pos);
            if (!m || cp_wi_map_put(root, cp_wi_scalar_new(key, false, ch->path->pos), m) != CP_OK)
                return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            slot = &root->kids[2 * root->n - 1];
        }
        hits = apply_at(&c, kind, *slot, rest, false, key);
    } else if (kind >= 0) {
        cp_node *seq = cp_map_get(root, cp_wi_kind_keys[kind]);
        bool wild = !strncmp(rest, "*/", 2);
        for (size_t i = 0; seq && i < seq->n && !c.nomem && !c.failed; i++) {
            cp_node *e = seq->kids[i];
            const char *nm = cp_wi_entity_name(e), *key;
            if (e->kind != CP_NODE_MAP || !nm)
                continue;
            size_t len = strlen(nm);
            if (wild)
                key = rest + 2;
            else if (!strncmp(rest, nm, len) && rest[len] == '/')
                key = rest + len + 1;
            else
                continue;
            named++;
            snprintf(ent, sizeof ent, "%s '%s'", singular[kind], nm);
            hits += apply_at(&c, kind, e, key, wild, ent);
        }
    }
    if (c.nomem)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    if (c.failed)
        return CP_ERR_INPUT;
    if (hits)
        return CP_OK;
    if (!named)
        return cp_diags_add(d, CP_ERR_INPUT, ch->path->pos,
                            "path '%s' matches nothing: no %s has that name", path,
                            singular[kind]);
    return cp_diags_add(d, CP_ERR_INPUT, ch->path->pos,
                        "path '%s' matches nothing: no such key, or no value in effect "
                        "(not given and without a default)",
                        path);
}

static int apply_remove(cp_node *root, const wi_named *r, cp_diags *d)
{
    cp_node *seq = cp_map_get(root, cp_wi_kind_keys[r->kind]);
    for (size_t i = 0; seq && i < seq->n; i++) {
        const char *nm = cp_wi_entity_name(seq->kids[i]);
        if (nm && !strcmp(nm, r->node->str)) {
            cp_wi_seq_delete(seq, i);
            return CP_OK;
        }
    }
    return cp_diags_add(d, CP_ERR_INPUT, r->node->pos, "remove: no %s named '%s'",
                        singular[r->kind], r->node->str);
}

static int apply_add(cp_node *root, const wi_named *a)
{
    const char *key = cp_wi_kind_keys[a->kind];
    cp_node **slot = cp_wi_map_slot(root, key);
    if (!slot) {
        cp_node *seq = cp_wi_coll_new(CP_NODE_SEQ, a->node->pos);
        if (!seq || cp_wi_map_put(root, cp_wi_scalar_new(key, false, a->node->pos), seq) != CP_OK)
            return CP_ERR_NOMEM;
        slot = &root->kids[2 * root->n - 1];
    }
    return cp_wi_seq_push(*slot, cp_wi_clone(a->node));
}

int cp_wi_apply(cp_node *root, const wi_scenario *s, cp_diags *d)
{
    int worst = CP_OK, rc;
    for (int i = 0; i < s->n_changes; i++)
        if ((rc = apply_change(root, &s->changes[i], d)) == CP_ERR_NOMEM)
            return rc;
        else if (rc && !worst)
            worst = rc;
    for (int i = 0; i < s->n_removes; i++)
        if ((rc = apply_remove(root, &s->removes[i], d)) && !worst)
            worst = rc;
    for (int i = 0; i < s->n_adds; i++)
        if ((rc = apply_add(root, &s->adds[i])))
            return cp_diags_add(d, rc, cp_pos_none(), "out of memory");
    return worst;
}

/* ---- merging ---------------------------------------------------------- */

int cp_wi_merge(cp_node *const *roots, int n_roots, cp_node **out)
{
    static const char *const order[] = {"horizon", "objective", "sites", "accelerators",
                                        "pools", "offers", "teams", "jobs", "services",
                                        NULL};
    cp_pos none = cp_pos_none();
    cp_node *m = cp_wi_coll_new(CP_NODE_MAP, n_roots ? roots[0]->pos : none);
    if (!m)
        return CP_ERR_NOMEM;
    for (int k = 0; order[k]; k++) {
        cp_node *acc = NULL;
        bool is_map = k < 2;
        for (int r = 0; r < n_roots; r++) {
            const cp_node *v = cp_map_get(roots[r], order[k]);
            if (!v || v->kind != (is_map ? CP_NODE_MAP : CP_NODE_SEQ))
                continue;
            if (!acc) {
                acc = cp_wi_coll_new(v->kind, v->pos);
                if (!acc ||
                    cp_wi_map_put(m, cp_wi_scalar_new(order[k], false, v->pos), acc) != CP_OK)
                    goto nomem;
            }
            size_t items = is_map ? 2 * v->n : v->n;
            for (size_t i = 0; i < items; i += is_map ? 2 : 1) {
                int rc = is_map ? cp_wi_map_put(acc, cp_wi_clone(v->kids[i]),
                                                cp_wi_clone(v->kids[i + 1]))
                                : cp_wi_seq_push(acc, cp_wi_clone(v->kids[i]));
                if (rc)
                    goto nomem;
            }
        }
    }
    *out = m;
    return CP_OK;
nomem:
    cp_node_free(m);
    return CP_ERR_NOMEM;
}
