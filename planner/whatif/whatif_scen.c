/*
 * The scenario file of capplan.5 §8, read into wi_scenario records that point
 * into the file's own cp_node tree (kept alive by cp_scenarios): a `set`
 * value or an added entity is copied into each changed input from there,
 * with its position, so an error in it points into the scenario file.
 *
 * Only the file's shape is checked here (keys, kinds, path syntax, names,
 * numbers); whether a path matches the inputs is cp_whatif_prepare's job.
 * A sweep expands into one scenario per value, NAME=VALUE, carrying the
 * scenario's other changes and a last change on the swept path; `op`
 * (set, the default, scale or add) is our extension so that a sweep can
 * also scale or shift a value (docs/whatif.md).
 */
#include "whatif_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCENARIOS 10000

const char *const cp_wi_kind_keys[WI_KINDS] = {"sites", "accelerators", "pools", "offers", "jobs",
                                               "teams", "services"};

int cp_wi_kind_find(const char *key)
{
    for (int k = 0; k < WI_KINDS; k++)
        if (!strcmp(key, cp_wi_kind_keys[k]))
            return k;
    return -1;
}

typedef struct pctx {
    cp_diags *d;
    cp_scenarios *s;
    size_t cap;
    bool nomem;
} pctx;

static void keys_msg(char *buf, size_t size, const char *const *keys)
{
    buf[0] = '\0';
    for (int i = 0; keys[i]; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s'%s'", i ? ", " : "", keys[i]);
    }
}

static bool check_keys(pctx *c, const cp_node *map, const char *what, const char *const *keys)
{
    bool ok = true;
    for (size_t i = 0; i < map->n; i++) {
        const cp_node *k = map->kids[2 * i];
        int j = 0;
        while (keys[j] && strcmp(keys[j], k->str))
            j++;
        if (!keys[j]) {
            char list[200];
            keys_msg(list, sizeof list, keys);
            cp_diags_add(c->d, CP_ERR_INPUT, k->pos, "%s: unknown key '%s' (expected %s)", what,
                         k->str, list);
            ok = false;
        }
    }
    return ok;
}

static bool want(pctx *c, const cp_node *n, cp_node_kind kind, const char *what)
{
    if (n->kind == kind && !(kind == CP_NODE_SCALAR && cp_scalar_is_null(n)))
        return true;
    const char *exp = kind == CP_NODE_MAP ? "a mapping" : kind == CP_NODE_SEQ ? "a sequence" : "a value";
    cp_diags_add(c->d, CP_ERR_INPUT, n->pos, "%s must be %s, got %s", what, exp,
                 n->kind == CP_NODE_SCALAR ? "null" : cp_node_kind_name(n));
    return false;
}

/* KIND/NAME/KEY[/SUBKEY...], horizon/KEY or objective/KEY. NAME may hold
 * slashes (it is matched against entity names as a prefix), so only the
 * kind and the presence of a name and a key are checked here. */
static bool check_path(pctx *c, const cp_node *p, const char *what)
{
    if (!want(c, p, CP_NODE_SCALAR, what))
        return false;
    const char *s = p->str;
    const char *slash = strchr(s, '/');
    size_t klen = slash ? (size_t)(slash - s) : strlen(s);
    char kind[32];
    bool known = klen < sizeof kind;
    if (known) {
        memcpy(kind, s, klen);
        kind[klen] = '\0';
        known =
            cp_wi_kind_find(kind) >= 0 || !strcmp(kind, "horizon") || !strcmp(kind, "objective");
    }
    if (!known) {
        cp_diags_add(c->d, CP_ERR_INPUT, p->pos,
                     "path '%s' must start with sites, accelerators, pools, offers, jobs, "
                     "horizon or objective",
                     s);
        return false;
    }
    bool keyed = !strcmp(kind, "horizon") || !strcmp(kind, "objective"), ok;
    if (keyed)
        ok = slash && slash[1] && slash[strlen(slash) - 1] != '/';
    else
        ok = slash && slash[1] && slash[1] != '/' && strchr(slash + 2, '/') &&
             s[strlen(s) - 1] != '/';
    if (!ok)
        cp_diags_add(c->d, CP_ERR_INPUT, p->pos, "path '%s' must be %s", s,
                     keyed ? "KIND/KEY" : "KIND/NAME/KEY[/SUBKEY...] (NAME may be '*')");
    return ok;
}

static const char *const op_names[] = {"set", "scale", "add"};

static bool op_value(pctx *c, wi_op op, const cp_node *v, double *num)
{
    if (op == WI_SET)
        return true;
    if (v->kind != CP_NODE_SCALAR || !cp_scalar_number(v, num) || !isfinite(*num)) {
        cp_diags_add(c->d, CP_ERR_INPUT, v->pos, "'%s' needs a finite number, got %s%s%s",
                     op_names[op], v->kind == CP_NODE_SCALAR ? "'" : "",
                     v->kind == CP_NODE_SCALAR ? v->str : cp_node_kind_name(v),
                     v->kind == CP_NODE_SCALAR ? "'" : "");
        return false;
    }
    return true;
}

static bool parse_change(pctx *c, const cp_node *n, wi_change *out)
{
    static const char *const keys[] = {"path", "set", "scale", "add", NULL};
    if (!want(c, n, CP_NODE_MAP, "a change"))
        return false;
    if (!check_keys(c, n, "change", keys))
        return false;
    const cp_node *p = cp_map_get(n, "path");
    if (!p) {
        cp_diags_add(c->d, CP_ERR_INPUT, n->pos, "change: missing key 'path'");
        return false;
    }
    int found = 0;
    for (int op = 0; op < 3; op++) {
        const cp_node *v = cp_map_get(n, op_names[op]);
        if (!v)
            continue;
        found++;
        out->op = (wi_op)op;
        out->value = v;
    }
    if (found != 1) {
        cp_diags_add(c->d, CP_ERR_INPUT, n->pos,
                     "change: give exactly one of 'set', 'scale' or 'add' (got %d)", found);
        return false;
    }
    out->path = p;
    out->num = 0;
    bool ok = check_path(c, p, "'path'");
    return op_value(c, out->op, out->value, &out->num) && ok;
}

/* remove: {KIND: [names]} or add: {KIND: [entities]} */
static bool parse_named(pctx *c, const cp_node *n, bool is_remove, wi_named **out, int *count)
{
    const char *what = is_remove ? "'remove'" : "'add'";
    if (!want(c, n, CP_NODE_MAP, what))
        return false;
    bool ok = true;
    for (size_t i = 0; i < n->n; i++) {
        const cp_node *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
        int kind = cp_wi_kind_find(k->str);
        if (kind < 0) {
            cp_diags_add(c->d, CP_ERR_INPUT, k->pos,
                         "%s: unknown kind '%s' (sites, accelerators, pools, offers or jobs)",
                         what, k->str);
            ok = false;
            continue;
        }
        if (!want(c, v, CP_NODE_SEQ, is_remove ? "a list of names to remove" : "a list of entities to add")) {
            ok = false;
            continue;
        }
        for (size_t j = 0; j < v->n; j++) {
            const cp_node *item = v->kids[j];
            if (is_remove && !want(c, item, CP_NODE_SCALAR, "a name to remove")) {
                ok = false;
                continue;
            }
            if (!is_remove && !want(c, item, CP_NODE_MAP, "an entity to add")) {
                ok = false;
                continue;
            }
            wi_named *nv = cp_reallocarray(*out, (size_t)*count + 1, sizeof *nv);
            if (!nv) {
                c->nomem = true;
                return false;
            }
            *out = nv;
            nv[*count].kind = kind;
            nv[*count].node = item;
            (*count)++;
        }
    }
    return ok;
}

static void scenario_release(wi_scenario *s)
{
    cp_free(s->name);
    cp_free(s->changes);
    cp_free(s->removes);
    cp_free(s->adds);
    cp_free(s->sweep);
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* A scenario name is also a file name (--emit-inputs DIR/NAME.yaml), so
 * it is at most CP_NAME_MAX bytes: with ".yaml" and the atomic writer's
 * ".tmp.XXXXXX" that stays within NAME_MAX, and the error comes before
 * anything is planned instead of at the write. */
static bool check_name(pctx *c, const char *name, cp_pos pos)
{
    const char *why = NULL;
    if (!*name)
        why = "is empty";
    else if (strchr(name, '/'))
        why = "contains '/' (names are also file names)";
    else if (!strcmp(name, ".") || !strcmp(name, ".."))
        why = "is not a file name";
    else if (!strcmp(name, "baseline"))
        why = "is reserved for the unchanged input";
    else if (strlen(name) > CP_NAME_MAX)
        why = "is longer than " STR(CP_NAME_MAX) " bytes (it is also a file name)";
    for (const char *p = name; !why && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            why = "contains a control character";
    if (why)
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "scenario name '%s' %s", name, why);
    return !why;
}

/* Appends a copy of `base` named `name` plus an optional extra change. */
static bool push_scenario(pctx *c, const wi_scenario *base, const char *name, cp_pos pos,
                          const wi_change *extra)
{
    cp_scenarios *s = c->s;
    if (s->n >= MAX_SCENARIOS) {
        cp_diags_add(c->d, CP_ERR_INPUT, pos, "more than %d scenarios", MAX_SCENARIOS);
        return false;
    }
    if (CP_GROW(s->v, c->cap, (size_t)s->n + 1)) {
        c->nomem = true;
        return false;
    }
    wi_scenario *d = &s->v[s->n];
    memset(d, 0, sizeof *d);
    d->pos = pos;
    d->sweep_value = NAN;
    int nc = base->n_changes + (extra ? 1 : 0);
    d->name = cp_strdup(name);
    d->changes = cp_calloc((size_t)(nc ? nc : 1), sizeof *d->changes);
    d->removes = cp_calloc((size_t)(base->n_removes ? base->n_removes : 1), sizeof *d->removes);
    d->adds = cp_calloc((size_t)(base->n_adds ? base->n_adds : 1), sizeof *d->adds);
    if (base->sweep)
        d->sweep = cp_strdup(base->sweep);
    if (!d->name || !d->changes || !d->removes || !d->adds || (base->sweep && !d->sweep)) {
        scenario_release(d);
        c->nomem = true;
        return false;
    }
    if (base->n_changes)
        memcpy(d->changes, base->changes, (size_t)base->n_changes * sizeof *d->changes);
    if (extra)
        d->changes[base->n_changes] = *extra;
    d->n_changes = nc;
    if (base->n_removes)
        memcpy(d->removes, base->removes, (size_t)base->n_removes * sizeof *d->removes);
    d->n_removes = base->n_removes;
    if (base->n_adds)
        memcpy(d->adds, base->adds, (size_t)base->n_adds * sizeof *d->adds);
    d->n_adds = base->n_adds;
    s->n++;
    return true;
}

static void parse_sweep(pctx *c, const cp_node *n, wi_scenario *base)
{
    static const char *const keys[] = {"path", "values", "op", NULL};
    if (!want(c, n, CP_NODE_MAP, "'sweep'") || !check_keys(c, n, "sweep", keys))
        return;
    const cp_node *p = cp_map_get(n, "path"), *vals = cp_map_get(n, "values"),
                  *opn = cp_map_get(n, "op");
    if (!p || !vals) {
        cp_diags_add(c->d, CP_ERR_INPUT, n->pos, "sweep: missing key '%s'", !p ? "path" : "values");
        return;
    }
    bool ok = check_path(c, p, "sweep 'path'");
    wi_op op = WI_SET;
    if (opn) {
        int i = 0;
        while (i < 3 && !(opn->kind == CP_NODE_SCALAR && !strcmp(opn->str, op_names[i])))
            i++;
        if (i == 3) {
            cp_diags_add(c->d, CP_ERR_INPUT, opn->pos, "sweep 'op' must be set, scale or add");
            return;
        }
        op = (wi_op)i;
    }
    if (!want(c, vals, CP_NODE_SEQ, "sweep 'values'") || !ok)
        return;
    if (vals->n == 0) {
        cp_diags_add(c->d, CP_ERR_INPUT, vals->pos, "sweep 'values' is empty");
        return;
    }
    if (!(base->sweep = cp_strdup(base->name))) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < vals->n && !c->nomem; i++) {
        const cp_node *v = vals->kids[i];
        wi_change ch = {p, op, v, 0};
        if (!want(c, v, CP_NODE_SCALAR, "a swept value") || !op_value(c, op, v, &ch.num))
            continue;
        size_t len = strlen(base->name) + strlen(v->str) + 2;
        char *name = cp_malloc(len);
        if (!name) {
            c->nomem = true;
            return;
        }
        snprintf(name, len, "%s=%s", base->name, v->str);
        if (check_name(c, name, v->pos) && push_scenario(c, base, name, v->pos, &ch)) {
            double x;
            c->s->v[c->s->n - 1].sweep_value = cp_scalar_number(v, &x) ? x : NAN;
        }
        cp_free(name);
    }
}

static void parse_scenario(pctx *c, const cp_node *n)
{
    static const char *const keys[] = {"name", "changes", "remove", "add", "sweep", NULL};
    if (!want(c, n, CP_NODE_MAP, "a scenario"))
        return;
    bool ok = check_keys(c, n, "scenario", keys);
    wi_scenario base;
    memset(&base, 0, sizeof base);
    const cp_node *name = cp_map_get(n, "name");
    if (!name) {
        cp_diags_add(c->d, CP_ERR_INPUT, n->pos, "scenario: missing key 'name'");
        return;
    }
    if (!want(c, name, CP_NODE_SCALAR, "scenario 'name'") || !check_name(c, name->str, name->pos))
        ok = false;
    else if (!(base.name = cp_strdup(name->str)))
        c->nomem = true;
    base.pos = name->pos;
    const cp_node *ch = cp_map_get(n, "changes");
    if (ch && want(c, ch, CP_NODE_SEQ, "'changes'")) {
        base.changes = cp_calloc(ch->n ? ch->n : 1, sizeof *base.changes);
        if (!base.changes)
            c->nomem = true;
        for (size_t i = 0; base.changes && i < ch->n; i++) {
            if (parse_change(c, ch->kids[i], &base.changes[base.n_changes]))
                base.n_changes++;
            else
                ok = false;
        }
    } else if (ch) {
        ok = false;
    }
    const cp_node *rm = cp_map_get(n, "remove"), *ad = cp_map_get(n, "add"),
                  *sw = cp_map_get(n, "sweep");
    if (rm && !parse_named(c, rm, true, &base.removes, &base.n_removes))
        ok = false;
    if (ad && !parse_named(c, ad, false, &base.adds, &base.n_adds))
        ok = false;
    if (ok && !c->nomem) {
        if (sw)
            parse_sweep(c, sw, &base);
        else
            push_scenario(c, &base, base.name, base.pos, NULL);
    }
    scenario_release(&base);
}

typedef struct name_ix {
    const char *name;
    int i;
} name_ix;

static int name_cmp(const void *a, const void *b)
{
    const name_ix *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->i > y->i) - (x->i < y->i);
}

static void check_unique(pctx *c)
{
    cp_scenarios *s = c->s;
    if (s->n < 2)
        return;
    name_ix *v = cp_calloc((size_t)s->n, sizeof *v);
    if (!v) {
        c->nomem = true;
        return;
    }
    for (int i = 0; i < s->n; i++)
        v[i] = (name_ix){s->v[i].name, i};
    qsort(v, (size_t)s->n, sizeof *v, name_cmp);
    for (int i = 1; i < s->n; i++) {
        if (strcmp(v[i].name, v[i - 1].name))
            continue;
        const cp_pos *first = &s->v[v[i - 1].i].pos;
        cp_diags_add(c->d, CP_ERR_INPUT, s->v[v[i].i].pos,
                     "scenario '%s' is defined twice (first at %s:%d:%d)", v[i].name, first->file,
                     first->line, first->col);
    }
    cp_free(v);
}

int cp_scenarios_parse(const char *name, const char *text, size_t len, cp_scenarios **out,
                       cp_diags *d)
{
    static const char *const top[] = {"version", "scenarios", NULL};
    cp_scenarios *s = cp_calloc(1, sizeof *s);
    if (!s)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    pctx c = {d, s, 0, false};
    int worst = d->worst;
    int rc = cp_yaml_load_string(name, text, len, &s->tree, d);
    if (rc != CP_OK) {
        cp_scenarios_free(s);
        return rc;
    }
    const cp_node *root = s->tree;
    if (root->kind != CP_NODE_MAP) {
        cp_diags_add(d, CP_ERR_INPUT, root->pos,
                     "a scenario file is a mapping with the key 'scenarios', got %s",
                     cp_node_kind_name(root));
    } else if (check_keys(&c, root, "scenario file", top)) {
        const cp_node *ver = cp_map_get(root, "version");
        double v;
        if (ver && !(cp_scalar_number(ver, &v) && v == 1))
            cp_diags_add(d, CP_ERR_INPUT, ver->pos, "'version' must be 1");
        const cp_node *list = cp_map_get(root, "scenarios");
        if (!list)
            cp_diags_add(d, CP_ERR_INPUT, root->pos, "missing key 'scenarios' (a list of scenarios)");
        else if (want(&c, list, CP_NODE_SEQ, "'scenarios'"))
            for (size_t i = 0; i < list->n && !c.nomem && !cp_diags_full(d); i++)
                parse_scenario(&c, list->kids[i]);
        if (!c.nomem)
            check_unique(&c);
    }
    if (c.nomem)
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    else
        rc = worst != CP_OK ? worst : d->worst;
    if (rc != CP_OK) {
        cp_scenarios_free(s);
        return rc;
    }
    *out = s;
    return CP_OK;
}

int cp_scenarios_count(const cp_scenarios *s)
{
    return s ? s->n : 0;
}

const char *cp_scenarios_name(const cp_scenarios *s, int i)
{
    return s->v[i].name;
}

void cp_scenarios_free(cp_scenarios *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        scenario_release(&s->v[i]);
    cp_free(s->v);
    cp_node_free(s->tree);
    cp_free(s);
}
