/*
 * A training job's GPU power limits (capplan.5 §10.3): per
 * accelerator type of its throughput, the board limits it can run under,
 * each with the speed it keeps and the busy draw per accelerator:
 *
 *     power_limits:
 *       V100: [{limit_w: 250, speed: 0.98, power_w: 236}, {limit_w: 175, speed: 0.86}]
 *
 * limit_w lies in (idle_power_w, power_w] of the accelerator, speed in
 * (0, 1], power_w in (idle_power_w, limit_w] (default limit_w). A type
 * not in `throughput`, and the same limit_w twice for one type, are
 * errors. The limits are kept grouped by type in input order; modes take
 * "no limit" or one of their resource type's (models/cp_modes.c).
 */
#include "load_internal.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <stdio.h>
#include <string.h>

static bool in_throughput(const cp_job *j, int acc)
{
    for (int i = 0; i < j->n_throughput; i++)
        if (j->throughput[i].acc == acc)
            return true;
    return false;
}

/* One {limit_w, speed, power_w} entry of type `a`; false when bad. */
static bool load_entry(lctx *c, const cp_node *m, const char *sub, const cp_accel *a,
                       cp_power_limit *pl)
{
    static const char *const keys[] = {"limit_w", "speed", "power_w", NULL};
    if (!cp_load_want_map(c, m, sub, "power_limits[]"))
        return false;
    cp_load_check_keys(c, m, sub, keys, NULL, NULL);
    bool ok = true;
    cp_node *x;
    pl->pos = m->pos;
    if (!(x = cp_map_get(m, "limit_w"))) {
        cp_load_err(c, m, sub, "missing required key 'limit_w'");
        ok = false;
    } else if ((ok = cp_load_num(c, x, sub, "limit_w", R_POS, &pl->limit_w)) &&
               !(pl->limit_w > a->idle_power_w && pl->limit_w <= a->power_w)) {
        cp_load_err(c, x, sub,
                    "'limit_w' must be above the idle power and at most the power of '%s' "
                    "(%g W < limit_w <= %g W), got %g",
                    a->name, a->idle_power_w, a->power_w, pl->limit_w);
        ok = false;
    }
    if (!(x = cp_map_get(m, "speed"))) {
        cp_load_err(c, m, sub, "missing required key 'speed'");
        ok = false;
    } else if (cp_load_num(c, x, sub, "speed", R_POS, &pl->speed) && pl->speed > 1) {
        cp_load_err(c, x, sub, "'speed' must be a number > 0 and <= 1, got %g", pl->speed);
        ok = false;
    } else if (!(pl->speed > 0)) {
        ok = false;
    }
    pl->power_w = pl->limit_w;
    if ((x = cp_map_get(m, "power_w"))) {
        if (!cp_load_num(c, x, sub, "power_w", R_POS, &pl->power_w)) {
            ok = false;
        } else if (ok && !(pl->power_w > a->idle_power_w && pl->power_w <= pl->limit_w)) {
            cp_load_err(c, x, sub,
                        "'power_w' must be above the idle power of '%s' and at most limit_w "
                        "(%g W < power_w <= %g W), got %g",
                        a->name, a->idle_power_w, pl->limit_w, pl->power_w);
            ok = false;
        }
    }
    return ok;
}

/* The list of one type (key node k, value v); appends to j's limits. */
static void load_type(lctx *c, const cp_node *k, const cp_node *v, const char *ent, cp_job *j)
{
    char sub[300];
    snprintf(sub, sizeof sub, "%s power_limits.%s", ent, k->str);
    int acc = cp_input_find_accel(c->in, k->str);
    if (acc < 0) {
        cp_load_err(c, k, ent, "power_limits for unknown accelerator '%s'", k->str);
        return;
    }
    if (!in_throughput(j, acc)) {
        cp_load_err(c, k, ent,
                    "power_limits for '%s', which is not in its throughput (the job never runs "
                    "there)",
                    k->str);
        return;
    }
    if (!cp_load_want_seq(c, v, ent, sub + strlen(ent) + 1))
        return;
    if (v->n == 0) {
        cp_load_err(c, v, sub, "the list is empty (list at least one limit, or leave the type out)");
        return;
    }
    const cp_accel *a = &c->in->accels[acc];
    int first = j->n_power_limits;
    for (size_t i = 0; i < v->n; i++) {
        char esub[340];
        snprintf(esub, sizeof esub, "%s[%zu]", sub, i);
        cp_power_limit *pl = &j->power_limits[j->n_power_limits];
        memset(pl, 0, sizeof *pl);
        pl->acc = acc;
        if (!load_entry(c, v->kids[i], esub, a, pl))
            continue;
        bool dup = false;
        for (int q = first; q < j->n_power_limits && !dup; q++)
            if (j->power_limits[q].limit_w == pl->limit_w) {
                cp_load_err(c, cp_map_get(v->kids[i], "limit_w"), esub,
                            "limit_w %g is listed twice for '%s' (first at %s:%d:%d)",
                            pl->limit_w, k->str, j->power_limits[q].pos.file,
                            j->power_limits[q].pos.line, j->power_limits[q].pos.col);
                dup = true;
            }
        if (!dup)
            j->n_power_limits++;
    }
}

void cp_load_power_limits(lctx *c, const cp_node *n, const char *ent, cp_job *j)
{
    if (!cp_load_want_map(c, n, ent, "power_limits"))
        return;
    size_t total = 0;
    for (size_t i = 0; i < n->n; i++) {
        const cp_node *v = n->kids[2 * i + 1];
        total += v->kind == CP_NODE_SEQ ? v->n : 0;
    }
    j->power_limits = cp_calloc(total ? total : 1, sizeof *j->power_limits);
    if (!j->power_limits) {
        c->nomem = true;
        return;
    }
    for (size_t i = 0; i < n->n; i++)
        load_type(c, n->kids[2 * i], n->kids[2 * i + 1], ent, j);
}
