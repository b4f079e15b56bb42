/*
 * The plan verifier (see cp_verify.h and docs/verify.md): the entry
 * point, the report, and the message and field helpers every phase uses.
 *
 * Written from SPEC sections 3-5 alone: it shares with the planner only
 * the input loader and the mode enumeration (SPEC 2), and re-derives
 * loads, power, energy, carbon and money itself, in the most direct form
 * of the formulas (sums over slots), so that it stays easy to audit.
 *
 * Flow (one file per phase, see verify_internal.h): the root and the job
 * list are read first (structure, one entry per input job, a matching
 * mode and start slot per scheduled job); then the provisioning list
 * gives y(t) per market; then per-slot loads are summed and compared with
 * pool, market, quota and power-cap limits; then concrete placement
 * (SPEC 5) is checked node by node; then every number of the plan that
 * SPEC 4 defines is re-costed and compared; last, the budget.
 *
 * Every violation carries the position of the plan node concerned; the
 * list is sorted by position (stable) so the report reads like the file.
 * The context owns its scratch arrays; the report owns the messages.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const vf_dim_name[CP_DIMS] = {"accelerators", "cpus", "memory_gb"};

/* ---- messages ----------------------------------------------------------- */

vf_numstr vf_n(double v)
{
    vf_numstr r;
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.10g", v);
    cp_fmt_num(r.s, sizeof r.s, isfinite(v) ? strtod(tmp, NULL) : v);
    return r;
}

void vf_viol(vf_ctx *c, const cp_node *at, const char *fmt, ...)
{
    if (c->oom)
        return;
    cp_verify_report *r = c->rep;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = len >= 0 ? cp_malloc((size_t)len + 1) : NULL;
    if (!msg || CP_GROW(r->items, r->cap, (size_t)r->n + 1) ||
        CP_GROW(c->seq, c->seq_cap, (size_t)r->n + 1)) {
        cp_free(msg);
        c->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)len + 1, fmt, ap);
    va_end(ap);
    const cp_node *n = at ? at : c->root;
    r->items[r->n].pos = n ? n->pos : cp_pos_none();
    r->items[r->n].msg = msg;
    c->seq[r->n] = (size_t)r->n;
    r->n++;
}

/* ---- reading plan fields ------------------------------------------------ */

/* The value under `key` (into *node), or NULL, a violation when required. */
static const cp_node *field(vf_ctx *c, const cp_node *map, const char *key, const char *who,
                            bool required, const cp_node **node)
{
    const cp_node *v = vf_get(map, key);
    if (node)
        *node = v;
    if (!v && required)
        vf_viol(c, map, "%s: missing '%s'", who, key);
    return v;
}

int vf_num_field(vf_ctx *c, const cp_node *map, const char *key, const char *who,
                 bool required, double *out, const cp_node **node)
{
    const cp_node *v = field(c, map, key, who, required, node);
    if (!v)
        return 0;
    if (!cp_scalar_number(v, out) || !isfinite(*out)) {
        vf_viol(c, v, "%s: '%s' must be a finite number, found %s", who, key,
                v->kind == CP_NODE_SCALAR ? v->str : cp_node_kind_name(v));
        return -1;
    }
    return 1;
}

bool vf_as_int(const cp_node *v, long *out)
{
    double d;
    if (!v || !cp_scalar_number(v, &d) || !isfinite(d) || d != floor(d) || fabs(d) > 2e9)
        return false;
    *out = (long)d;
    return true;
}

int vf_int_field(vf_ctx *c, const cp_node *map, const char *key, const char *who,
                 bool required, long *out, const cp_node **node)
{
    const cp_node *v = field(c, map, key, who, required, node);
    if (!v)
        return 0;
    if (!vf_as_int(v, out)) {
        vf_viol(c, v, "%s: '%s' must be an integer, found %s", who, key,
                v->kind == CP_NODE_SCALAR ? v->str : cp_node_kind_name(v));
        return -1;
    }
    return 1;
}

const char *vf_str_field(vf_ctx *c, const cp_node *map, const char *key, const char *who,
                         bool required, const cp_node **node)
{
    const cp_node *v = field(c, map, key, who, required, node);
    if (!v)
        return NULL;
    if (v->kind != CP_NODE_SCALAR) {
        vf_viol(c, v, "%s: '%s' must be a string, found %s", who, key, cp_node_kind_name(v));
        return NULL;
    }
    return v->str;
}

bool vf_entry_is_map(vf_ctx *c, const cp_node *e, const char *who)
{
    if (e->kind == CP_NODE_MAP)
        return true;
    vf_viol(c, e, "%s: expected a mapping, found %s", who, cp_node_kind_name(e));
    return false;
}

bool cp_verify_close(double a, double b, double rel)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= rel * m + 1e-9;
}

void vf_compare_field(vf_ctx *c, const cp_node *map, const char *key, const char *who,
                      bool required, double expected)
{
    double v;
    const cp_node *n;
    if (vf_num_field(c, map, key, who, required, &v, &n) != 1)
        return;
    if (!cp_verify_close(v, expected, VF_REL_TOL))
        vf_viol(c, n, "%s: %s: expected %s, found %s", who, key, vf_n(expected).s, vf_n(v).s);
}

void vf_compare_series(vf_ctx *c, const cp_node *map, const char *key, const char *who,
                       const double *expected)
{
    const cp_node *s = vf_get(map, key);
    if (!s)
        return;
    if (s->kind != CP_NODE_SEQ) {
        vf_viol(c, s, "%s: '%s' must be a list of %d numbers", who, key, c->T);
        return;
    }
    if ((int)s->n != c->T) {
        vf_viol(c, s, "%s: '%s' has %zu values, expected one per slot (%d)", who, key, s->n,
                c->T);
        return;
    }
    int bad = 0, first = -1;
    double found = 0;
    for (int t = 0; t < c->T; t++) {
        double v;
        if (!cp_scalar_number(s->kids[t], &v) || !isfinite(v)) {
            vf_viol(c, s->kids[t], "%s: %s[%d] must be a finite number", who, key, t);
            continue;
        }
        if (!cp_verify_close(v, expected[t], VF_REL_TOL)) {
            if (first < 0) {
                first = t;
                found = v;
            }
            bad++;
        }
    }
    if (first < 0)
        return;
    if (bad > 1)
        vf_viol(c, s->kids[first], "%s: %s[%d]: expected %s, found %s (and %d more slot%s)",
                who, key, first, vf_n(expected[first]).s, vf_n(found).s, bad - 1,
                bad == 2 ? " differs" : "s differ");
    else
        vf_viol(c, s->kids[first], "%s: %s[%d]: expected %s, found %s", who, key, first,
                vf_n(expected[first]).s, vf_n(found).s);
}

/* ---- the report --------------------------------------------------------- */

void cp_verify_report_init(cp_verify_report *r)
{
    memset(r, 0, sizeof *r);
}

void cp_verify_report_release(cp_verify_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++)
        cp_free(r->items[i].msg);
    cp_free(r->items);
    cp_verify_report_init(r);
}

bool cp_verify_report_is_ok(const cp_verify_report *r)
{
    return r->n == 0 && !r->malformed;
}

typedef struct vsort {
    cp_violation v;
    size_t seq;
} vsort;

static int by_pos(const void *a, const void *b)
{
    const vsort *x = a, *y = b;
    if (x->v.pos.line != y->v.pos.line)
        return x->v.pos.line < y->v.pos.line ? -1 : 1;
    if (x->v.pos.col != y->v.pos.col)
        return x->v.pos.col < y->v.pos.col ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort_report(vf_ctx *c)
{
    cp_verify_report *r = c->rep;
    if (r->n < 2)
        return;
    vsort *tmp = cp_calloc((size_t)r->n, sizeof *tmp);
    if (!tmp) {
        c->oom = true;
        return;
    }
    for (int i = 0; i < r->n; i++) {
        tmp[i].v = r->items[i];
        tmp[i].seq = c->seq[i];
    }
    qsort(tmp, (size_t)r->n, sizeof *tmp, by_pos);
    for (int i = 0; i < r->n; i++)
        r->items[i] = tmp[i].v;
    cp_free(tmp);
}

/* ---- entry point -------------------------------------------------------- */

int cp_verify_plan(const cp_input *in, const cp_node *plan, cp_verify_report *rep, cp_err *err)
{
    cp_verify_report_release(rep);
    vf_ctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.rep = rep;
    c.root = plan;
    c.T = in->slots;
    c.h = in->slot_hours;
    int rc = cp_modes_build(in, &c.ms, err);
    if (rc)
        return rc;
    size_t nres = (size_t)(c.ms->n_res ? c.ms->n_res : 1);
    size_t nj = (size_t)(in->n_jobs ? in->n_jobs : 1);
    c.entry_of_job = cp_malloc(nj * sizeof *c.entry_of_job);
    c.dropped_job = cp_calloc(nj, sizeof *c.dropped_job);
    c.y = cp_calloc(nres * (size_t)c.T, sizeof *c.y);
    c.prov = cp_calloc(nres, sizeof *c.prov);
    c.prov_inst = cp_calloc(nres, sizeof *c.prov_inst);
    c.load = cp_calloc(nres * (size_t)c.T * CP_DIMS, sizeof *c.load);
    c.busy = cp_calloc((size_t)(in->n_sites ? in->n_sites : 1) * (size_t)c.T, sizeof *c.busy);
    c.nl_off = cp_calloc(nres, sizeof *c.nl_off);
    c.nl_count = cp_calloc(nres, sizeof *c.nl_count);
    if (!c.entry_of_job || !c.dropped_job || !c.y || !c.prov || !c.prov_inst || !c.load ||
        !c.busy || !c.nl_off || !c.nl_count) {
        c.oom = true;
        goto out;
    }
    for (int j = 0; j < in->n_jobs; j++)
        c.entry_of_job[j] = -1;

    vf_check_root(&c);
    if (!rep->malformed && !c.oom)
        vf_check_jobs(&c);
    if (!rep->malformed && !rep->infeasible && !c.oom) {
        vf_check_missing(&c);
        vf_read_provisioning(&c);
        if (!c.oom)
            vf_add_loads(&c);
        if (!c.oom)
            vf_check_capacity(&c);
        if (!c.oom)
            vf_check_power_caps(&c);
        if (!c.oom)
            vf_check_placement(&c);
        if (!c.oom)
            vf_check_costs(&c);
        if (!c.oom)
            vf_check_budget(&c);
    }
    if (!c.oom)
        sort_report(&c);
out:
    cp_free(c.jobs);
    cp_free(c.entry_of_job);
    cp_free(c.dropped_job);
    cp_free(c.y);
    cp_free(c.prov);
    cp_free(c.prov_inst);
    cp_free(c.load);
    cp_free(c.busy);
    cp_free(c.asg);
    cp_free(c.nl_off);
    cp_free(c.nl_count);
    cp_free(c.nload);
    cp_free(c.seq);
    cp_modeset_free(c.ms);
    if (c.oom) {
        cp_verify_report_release(rep);
        return cp_err_nomem(err);
    }
    return CP_OK;
}
