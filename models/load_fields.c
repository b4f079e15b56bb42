/*
 * Typed field readers for the loader. Messages follow one pattern,
 * "ENTITY: 'KEY' must be WHAT, got 'TEXT'" (or "got null", "got a
 * sequence", ...: see cp_load_value_desc), at the value's position, so a user
 * sees both what is wrong and where.
 */
#include "load_internal.h"

#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_suggest.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

void cp_load_err(lctx *c, const cp_node *at, const char *ent, const char *fmt, ...)
{
    char msg[CP_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cp_pos p = at ? at->pos : cp_pos_none();
    if (ent && *ent)
        cp_diags_add(c->diags, CP_ERR_INPUT, p, "%s: %s", ent, msg);
    else
        cp_diags_add(c->diags, CP_ERR_INPUT, p, "%s", msg);
}

void cp_load_ent_name(char *buf, size_t size, const char *kind, const char *name, int index)
{
    if (name)
        snprintf(buf, size, "%s '%s'", kind, name);
    else
        snprintf(buf, size, "%s #%d", kind, index + 1);
}

const char *cp_load_scalar_text(const cp_node *n)
{
    if (n->kind == CP_NODE_SCALAR)
        return n->str;
    return n->kind == CP_NODE_SEQ ? "[...]" : "{...}";
}

const char *cp_load_value_desc(const cp_node *n, char *buf, size_t size)
{
    if (n->kind != CP_NODE_SCALAR)
        return cp_node_kind_name(n);
    if (cp_scalar_is_null(n))
        return "null";
    /* one line of at most 60 bytes, so a block scalar cannot flood the report */
    size_t len = strcspn(n->str, "\r\n");
    bool cut = n->str[len] != '\0' || len > 60;
    if (len > 60)
        len = 60;
    double d;
    bool b;
    cp_node plain = *n;
    plain.quoted = false;
    const char *why = "";
    if (n->quoted && (cp_scalar_number(&plain, &d) || cp_scalar_bool(&plain, &b) ||
                      cp_scalar_is_null(&plain)))
        why = ", a quoted string (numbers and booleans are written without quotes)";
    snprintf(buf, size, "'%.*s%s'%s", (int)len, n->str, cut ? "..." : "", why);
    return buf;
}

void cp_load_check_keys(lctx *c, const cp_node *map, const char *ent, const char *const *keys,
                        const char *(*hint)(const char *key, void *arg), void *arg)
{
    for (size_t i = 0; i < map->n; i++) {
        const cp_node *k = map->kids[2 * i];
        bool known = false;
        for (const char *const *p = keys; *p && !known; p++)
            known = !strcmp(*p, k->str);
        if (known)
            continue;
        const char *best = cp_suggest(k->str, keys);
        const char *why = hint ? hint(k->str, arg) : NULL;
        if (!why && !strcmp(k->str, "<<"))
            why = "YAML merge keys are not supported; alias the whole mapping or write the keys out";
        if (why)
            cp_load_err(c, k, ent, "unknown key '%s' (%s)", k->str, why);
        else if (best)
            cp_load_err(c, k, ent, "unknown key '%s' (did you mean '%s'?)", k->str, best);
        else
            cp_load_err(c, k, ent, "unknown key '%s'", k->str);
    }
}

bool cp_load_want_map(lctx *c, const cp_node *n, const char *ent, const char *key)
{
    if (n->kind == CP_NODE_MAP)
        return true;
    cp_load_err(c, n, ent, "'%s' must be a mapping, got %s", key, cp_node_kind_name(n));
    return false;
}

bool cp_load_want_seq(lctx *c, const cp_node *n, const char *ent, const char *key)
{
    if (n->kind == CP_NODE_SEQ)
        return true;
    cp_load_err(c, n, ent, "'%s' must be a sequence, got %s", key, cp_node_kind_name(n));
    return false;
}

static const char *range_text(range_kind r)
{
    switch (r) {
    case R_ANY:
        return "a finite number";
    case R_POS:
        return "a number > 0";
    case R_NONNEG:
        return "a number >= 0";
    case R_GE1:
        return "a number >= 1";
    case R_UNIT:
        return "a number >= 0 and < 1";
    case R_PROB:
        return "a number > 0 and < 1";
    }
    return "a number";
}

static bool in_range(double v, range_kind r)
{
    if (!isfinite(v))
        return false;
    switch (r) {
    case R_ANY:
        return true;
    case R_POS:
        return v > 0;
    case R_NONNEG:
        return v >= 0;
    case R_GE1:
        return v >= 1;
    case R_UNIT:
        return v >= 0 && v < 1;
    case R_PROB:
        return v > 0 && v < 1;
    }
    return false;
}

bool cp_load_num(lctx *c, const cp_node *n, const char *ent, const char *key, range_kind r,
                 double *out)
{
    double v;
    char got[120];
    if (!cp_scalar_number(n, &v) || !in_range(v, r)) {
        const char *want = range_text(r);
        if (cp_scalar_number(n, &v) && !isfinite(v) && r != R_ANY)
            cp_load_err(c, n, ent, "'%s' must be a finite %s, got %s", key, want + 2,
                        cp_load_value_desc(n, got, sizeof got));
        else
            cp_load_err(c, n, ent, "'%s' must be %s, got %s", key, want,
                        cp_load_value_desc(n, got, sizeof got));
        return false;
    }
    if (fabs(v) > CP_INPUT_NUM_MAX) {
        cp_load_err(c, n, ent, "'%s' must be at most %g in magnitude, got %s", key,
                    CP_INPUT_NUM_MAX, cp_load_value_desc(n, got, sizeof got));
        return false;
    }
    *out = v;
    return true;
}

static bool int_value(const cp_node *n, long lo, long hi, long *out)
{
    double v;
    return cp_scalar_number(n, &v) && cp_num_is_whole(v, lo, hi, out);
}

static void int_error(lctx *c, const cp_node *n, const char *ent, const char *key, long lo,
                      long hi)
{
    char got[120];
    double d;
    const char *g = cp_load_value_desc(n, got, sizeof got);
    if (lo == hi)
        cp_load_err(c, n, ent, "'%s' must be %ld, got %s", key, lo, g);
    else if (hi >= INT_MAX && !(cp_scalar_number(n, &d) && d > (double)hi))
        cp_load_err(c, n, ent, "'%s' must be an integer >= %ld, got %s", key, lo, g);
    else
        cp_load_err(c, n, ent, "'%s' must be an integer from %ld to %ld, got %s", key, lo, hi, g);
}

bool cp_load_int(lctx *c, const cp_node *n, const char *ent, const char *key, long lo, long hi,
                 int *out)
{
    long v;
    if (!int_value(n, lo, hi, &v)) {
        int_error(c, n, ent, key, lo, hi);
        return false;
    }
    *out = (int)v;
    return true;
}

bool cp_load_bool(lctx *c, const cp_node *n, const char *ent, const char *key, bool *out)
{
    if (!cp_scalar_bool(n, out)) {
        char got[120];
        cp_load_err(c, n, ent, "'%s' must be true or false, got %s", key,
                    cp_load_value_desc(n, got, sizeof got));
        return false;
    }
    return true;
}

bool cp_load_str(lctx *c, const cp_node *n, const char *ent, const char *key, char **out)
{
    if (n->kind != CP_NODE_SCALAR || cp_scalar_is_null(n)) {
        cp_load_err(c, n, ent, "'%s' must be a string, got %s", key,
                    n->kind == CP_NODE_SCALAR ? "null" : cp_node_kind_name(n));
        return false;
    }
    size_t len = strlen(n->str);
    if (len > CP_NAME_MAX) {
        cp_load_err(c, n, ent, "'%s' is %zu bytes long; the limit is %d", key, len, CP_NAME_MAX);
        return false;
    }
    char *s = cp_strdup(n->str);
    if (!s) {
        c->nomem = true;
        return false;
    }
    *out = s;
    return true;
}

void cp_load_series_release(cp_series *s)
{
    cp_free(s->v);
    s->v = NULL;
    s->n = 0;
}

bool cp_load_series(lctx *c, const cp_node *n, const char *ent, const char *key, range_kind r,
                    bool is_int, long lo, long hi, cp_series *out)
{
    const cp_node *const *items = (const cp_node *const *)&n;
    int cnt = 1;
    if (n->kind == CP_NODE_SEQ) {
        items = (const cp_node *const *)n->kids;
        cnt = (int)n->n;
        if (c->slots > 0 && cnt != c->slots) {
            cp_load_err(
                c, n, ent,
                "'%s' has %d values; a series needs one value or exactly %d (horizon.slots)", key,
                cnt, c->slots);
            return false;
        }
        if (cnt == 0) {
            cp_load_err(c, n, ent, "'%s' is an empty sequence", key);
            return false;
        }
    } else if (n->kind != CP_NODE_SCALAR) {
        cp_load_err(c, n, ent, "'%s' must be a number or a sequence of %d numbers, got %s", key,
                    c->slots, cp_node_kind_name(n));
        return false;
    }
    double *v = cp_calloc((size_t)cnt, sizeof *v);
    if (!v) {
        c->nomem = true;
        return false;
    }
    bool ok = true;
    for (int i = 0; i < cnt && !cp_diags_full(c->diags); i++) {
        const cp_node *it = items[i];
        char what[160];
        if (n->kind == CP_NODE_SEQ)
            snprintf(what, sizeof what, "%s[%d]", key, i);
        else
            snprintf(what, sizeof what, "%s", key);
        if (is_int) {
            long iv;
            if (!int_value(it, lo, hi, &iv)) {
                int_error(c, it, ent, what, lo, hi);
                ok = false;
                continue;
            }
            v[i] = (double)iv;
        } else if (!cp_load_num(c, it, ent, what, r, &v[i])) {
            ok = false;
        }
    }
    if (!ok) {
        cp_free(v);
        return false;
    }
    cp_load_series_release(out);
    out->v = v;
    out->n = cnt;
    out->set = true;
    out->pos = n->pos;
    return true;
}

bool cp_load_int_list(lctx *c, const cp_node *n, const char *ent, const char *key, int **out,
                      int *count)
{
    if (!cp_load_want_seq(c, n, ent, key))
        return false;
    if (n->n == 0) {
        cp_load_err(c, n, ent, "'%s' must list at least one count", key);
        return false;
    }
    int *v = cp_calloc(n->n, sizeof *v);
    if (!v) {
        c->nomem = true;
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < n->n; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s[%zu]", key, i);
        if (!cp_load_int(c, n->kids[i], ent, what, 1, CP_INPUT_COUNT_MAX, &v[i])) {
            ok = false;
            continue;
        }
        for (size_t j = 0; j < i; j++)
            if (v[j] == v[i]) {
                cp_load_err(c, n->kids[i], ent, "'%s' lists %d twice", key, v[i]);
                ok = false;
                break;
            }
    }
    if (!ok) {
        cp_free(v);
        return false;
    }
    *out = v;
    *count = (int)n->n;
    return true;
}

bool cp_load_str_list(lctx *c, const cp_node *n, const char *ent, const char *key, char ***out,
                      int *count)
{
    if (!cp_load_want_seq(c, n, ent, key))
        return false;
    char **v = cp_calloc(n->n ? n->n : 1, sizeof *v);
    if (!v) {
        c->nomem = true;
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < n->n; i++) {
        char what[160];
        snprintf(what, sizeof what, "%s[%zu]", key, i);
        if (!cp_load_str(c, n->kids[i], ent, what, &v[i]))
            ok = false;
    }
    if (!ok) {
        for (size_t i = 0; i < n->n; i++)
            cp_free(v[i]);
        cp_free(v);
        return false;
    }
    *out = v;
    *count = (int)n->n;
    return true;
}
