/*
 * The plan reader's typed readers (plan_read_internal.h): each reads one
 * key of a mapping, records whether it was given, its value and its
 * node's position, and adds a problem when the value is not of its type;
 * callers go on, so one run finds every problem of a file. plan_read.c
 * and plan_read_svc.c read the plan's entries with them.
 */
#include "plan_read_internal.h"

#include "cp_alloc.h"
#include "cp_msg.h"
#include "cp_num.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- problems ------------------------------------------------------------ */

void cp_pr_problem(rd *c, cp_plan_level level, cp_pos pos, const char *fmt, ...)
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

/* ---- typed readers -------------------------------------------------------- */

/* A value as messages show it after "found". */
const char *cp_pr_found(const cp_node *v)
{
    return v->kind == CP_NODE_SCALAR ? v->str : v->kind == CP_NODE_SEQ ? "a list" : "a mapping";
}

/* The value under `key`, NULL when absent or null. */
const cp_node *cp_pr_get(const cp_node *map, const char *key)
{
    if (!map || map->kind != CP_NODE_MAP)
        return NULL;
    const cp_node *v = cp_map_get(map, key);
    return v && cp_scalar_is_null(v) ? NULL : v;
}

bool cp_pr_as_int(const cp_node *v, long *out)
{
    double d;
    return cp_scalar_number(v, &d) && cp_num_is_whole(d, -2000000000L, 2000000000L, out);
}

/* The value under `key` with has and pos set; a problem when it is
 * missing and `required`. */
const cp_node *cp_pr_key(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                         cp_plan_has *has, cp_pos *pos)
{
    const cp_node *v = cp_pr_get(map, k);
    *has = v ? CP_PLAN_SET : CP_PLAN_ABSENT;
    *pos = v ? v->pos : map->pos;
    if (!v && required)
        BAD(c, map->pos, "%s: missing '%s'", who, k);
    return v;
}

void cp_pr_str(rd *c, const cp_node *map, const char *k, const char *who, bool required,
               cp_plan_str *out)
{
    const cp_node *v = cp_pr_key(c, map, k, who, required, &out->has, &out->pos);
    out->s = NULL;
    if (!v)
        return;
    if (v->kind != CP_NODE_SCALAR) {
        out->has = CP_PLAN_BAD;
        BAD(c, v->pos, "%s: '%s' must be a string, found %s", who, k, cp_pr_found(v));
        return;
    }
    out->s = v->str;
}

void cp_pr_num(rd *c, const cp_node *map, const char *k, const char *who, bool required,
               cp_plan_num *out)
{
    const cp_node *v = cp_pr_key(c, map, k, who, required, &out->has, &out->pos);
    out->v = 0;
    if (!v)
        return;
    if (!cp_scalar_number(v, &out->v) || !isfinite(out->v)) {
        out->has = CP_PLAN_BAD;
        out->v = 0;
        BAD(c, v->pos, "%s: '%s' must be a finite number, found %s", who, k, cp_pr_found(v));
    }
}

/* Every integer of a plan is a count or a slot index: >= 0. */
void cp_pr_int(rd *c, const cp_node *map, const char *k, const char *who, bool required,
               cp_plan_int *out)
{
    const cp_node *v = cp_pr_key(c, map, k, who, required, &out->has, &out->pos);
    out->v = 0;
    if (!v)
        return;
    if (!cp_pr_as_int(v, &out->v) || out->v < 0) {
        out->has = CP_PLAN_BAD;
        out->v = 0;
        BAD(c, v->pos, "%s: '%s' must be an integer >= 0, found %s", who, k, cp_pr_found(v));
    }
}

/* A per-slot list of numbers (`whole`: integers >= 0). The first one
 * that is not empty sets the slot count when the caller gave none. */
void cp_pr_series(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                  bool whole, cp_plan_series *out)
{
    cp_plan_file *pf = c->pf;
    const cp_node *s = cp_pr_key(c, map, k, who, required, &out->has, &out->pos);
    if (!s)
        return;
    const char *what = whole ? "integers" : "numbers";
    if (s->kind != CP_NODE_SEQ && pf->slots > 0) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s: '%s' must be a list of %d %s, found %s", who, k, pf->slots, what,
            cp_pr_found(s));
        return;
    }
    if (s->kind != CP_NODE_SEQ) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s: '%s' must be a list of %s, found %s", who, k, what, cp_pr_found(s));
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
        bool ok = whole ? cp_pr_as_int(e, &iv) && iv >= 0
                        : cp_scalar_number(e, &out->v[t]) && isfinite(out->v[t]);
        if (ok) {
            if (whole)
                out->v[t] = (double)iv;
            continue;
        }
        out->v[t] = NAN;
        if (whole)
            BAD(c, e->pos, "%s: %s[%zu] must be an integer >= 0, found %s", who, k, t,
                cp_pr_found(e));
        else
            BAD(c, e->pos, "%s: %s[%zu] must be a finite number, found %s", who, k, t,
                cp_pr_found(e));
    }
}

/* A list of scalars; `what` names one ("node or instance id"). */
void cp_pr_strs(rd *c, const cp_node *map, const char *k, const char *who, bool required,
                const char *what, cp_plan_strs *out)
{
    const cp_node *s = cp_pr_key(c, map, k, who, required, &out->has, &out->pos);
    if (!s)
        return;
    if (s->kind != CP_NODE_SEQ) {
        out->has = CP_PLAN_BAD;
        BAD(c, s->pos, "%s: '%s' must be a list of %ss, found %s", who, k, what, cp_pr_found(s));
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
            BAD(c, e->pos, "%s: %s[%zu] must be a %s, found %s", who, k, i, what, cp_pr_found(e));
    }
}

/* A mapping under `k` (NULL when absent or not one: a problem). */
const cp_node *cp_pr_map(rd *c, const cp_node *map, const char *k, bool required, cp_plan_has *has,
                         cp_pos *pos)
{
    const cp_node *v = cp_pr_key(c, map, k, "plan", required, has, pos);
    if (v && v->kind != CP_NODE_MAP) {
        *has = CP_PLAN_BAD;
        BAD(c, v->pos, "plan: '%s' must be a mapping, found %s", k, cp_pr_found(v));
        return NULL;
    }
    return v;
}

/* A top-level list under `k`; allocates `n` entries of `size` bytes
 * into *items. Returns the list node, NULL when absent or not a list. */
const cp_node *cp_pr_list(rd *c, const cp_node *root, const char *k, cp_plan_list *l, void **items,
                          size_t size)
{
    const cp_node *v = cp_pr_key(c, root, k, "plan", false, &l->has, &l->pos);
    if (!v)
        return NULL;
    if (v->kind != CP_NODE_SEQ) {
        l->has = CP_PLAN_BAD;
        BAD(c, v->pos, "plan: '%s' must be a list, found %s", k, cp_pr_found(v));
        return NULL;
    }
    if (v->n > 0 && !(*items = cp_calloc(v->n, size))) {
        c->oom = true;
        return NULL;
    }
    return v;
}

bool cp_pr_entry_is_map(rd *c, const cp_node *e, const char *what)
{
    if (e->kind == CP_NODE_MAP)
        return true;
    BAD(c, e->pos, "plan: %s must be a mapping, found %s", what, cp_pr_found(e));
    return false;
}

cp_plan_market cp_pr_market(const char *s)
{
    if (!strcmp(s, "pool"))
        return CP_PLAN_POOL;
    if (!strcmp(s, "on_demand"))
        return CP_PLAN_ON_DEMAND;
    if (!strcmp(s, "spot"))
        return CP_PLAN_SPOT;
    return CP_PLAN_NO_MARKET;
}
