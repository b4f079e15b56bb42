/*
 * Two plan files compared job by job (see cp_plan_diff.h). Jobs are
 * matched by name through one sorted index of OLD's entries, so a diff of
 * n jobs costs n log n.
 */
#include "cp_plan_diff.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <stdlib.h>
#include <string.h>

const char *cp_diff_kind_name(cp_diff_kind k)
{
    static const char *const names[CP_DIFF_KINDS] = {"same",      "restarted", "moved",
                                                     "re-placed", "added",     "dropped"};
    return k >= 0 && k < CP_DIFF_KINDS ? names[k] : "?";
}

void cp_plan_diff_init(cp_plan_diff *d)
{
    memset(d, 0, sizeof *d);
}

void cp_plan_diff_release(cp_plan_diff *d)
{
    if (!d)
        return;
    cp_free(d->jobs);
    cp_free(d->deps);
    cp_plan_diff_init(d);
}

static bool str_eq(const cp_plan_str *a, const cp_plan_str *b)
{
    return a->has == b->has && (a->has != CP_PLAN_SET || !strcmp(a->s, b->s));
}

static long int_or(const cp_plan_int *v, long dflt)
{
    return v->has == CP_PLAN_SET ? v->v : dflt;
}

/* The same resource, market, count, shape, power limit and start. */
static bool same_choice(const cp_plan_job *a, const cp_plan_job *b)
{
    bool la = a->power_limit_w.has == CP_PLAN_SET, lb = b->power_limit_w.has == CP_PLAN_SET;
    return str_eq(&a->resource, &b->resource) && a->mk == b->mk &&
           int_or(&a->count, -1) == int_or(&b->count, -1) &&
           int_or(&a->shape, 0) == int_or(&b->shape, 0) && la == lb &&
           (!la || a->power_limit_w.v == b->power_limit_w.v) &&
           int_or(&a->start_slot, -1) == int_or(&b->start_slot, -1);
}

static bool same_nodes(const cp_plan_job *a, const cp_plan_job *b)
{
    if (a->nodes.n != b->nodes.n)
        return false;
    for (int q = 0; q < a->nodes.n; q++)
        if (!a->nodes.s[q] || !b->nodes.s[q] || strcmp(a->nodes.s[q], b->nodes.s[q]))
            return false;
    return true;
}

static cp_diff_kind kind_of(const cp_plan_job *a, const cp_plan_job *b)
{
    bool sa = a && a->scheduled, sb = b && b->scheduled;
    if (sb && b->restarted.has == CP_PLAN_SET && !strcmp(b->restarted.s, "true"))
        return CP_DIFF_RESTARTED;
    if (sa && sb)
        return !same_choice(a, b) ? CP_DIFF_MOVED
               : !same_nodes(a, b) ? CP_DIFF_REPLACED : CP_DIFF_SAME;
    return sb ? CP_DIFF_ADDED : sa ? CP_DIFF_DROPPED : CP_DIFF_SAME;
}

static int by_name(const void *x, const void *y)
{
    const cp_plan_job *a = *(const cp_plan_job *const *)x, *b = *(const cp_plan_job *const *)y;
    int c = strcmp(a->name.s, b->name.s);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static const cp_plan_job *lookup(const cp_plan_job **idx, int n, const char *name)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(idx[mid]->name.s, name);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && !strcmp(idx[lo]->name.s, name) ? idx[lo] : NULL;
}

/* Deployment entry e's replicas in slot t (0 past its list). */
static double reps_at(const cp_plan_svc_dep *e, int t)
{
    return e && e->replicas.has == CP_PLAN_SET && t < e->replicas.n ? e->replicas.v[t] : 0;
}

/* Whether e and f place slot t's replicas on the same ids (in order). */
static bool same_ids(const cp_plan_svc_dep *e, const cp_plan_svc_dep *f, int t)
{
    const cp_plan_strs *x = e && e->nodes_has == CP_PLAN_SET && t < e->n_nodes ? &e->nodes[t] : NULL;
    const cp_plan_strs *y = f && f->nodes_has == CP_PLAN_SET && t < f->n_nodes ? &f->nodes[t] : NULL;
    if (!x || !y)
        return true; /* no ids to compare: the count says it */
    if (x->n != y->n)
        return false;
    for (int q = 0; q < x->n; q++)
        if (!x->s[q] || !y->s[q] || strcmp(x->s[q], y->s[q]))
            return false;
    return true;
}

static bool same_dep(const cp_plan_svc *sa, const cp_plan_svc_dep *a, const cp_plan_svc *sb,
                     const cp_plan_svc_dep *b)
{
    return str_eq(&sa->name, &sb->name) && int_or(&a->config, -1) == int_or(&b->config, -1) &&
           str_eq(&a->resource, &b->resource) && a->mk == b->mk;
}

/* The deployment of plan `a` that is deployment e of service sb of the
 * other plan, or NULL. */
static const cp_plan_svc_dep *find_dep(const cp_plan_file *a, const cp_plan_svc *sb,
                                       const cp_plan_svc_dep *e)
{
    for (int i = 0; i < a->n_svcs; i++)
        for (int k = 0; k < a->svcs[i].n_deps; k++)
            if (same_dep(&a->svcs[i], &a->svcs[i].deps[k], sb, e))
                return &a->svcs[i].deps[k];
    return NULL;
}

static void add_dep(cp_plan_diff *out, const char *svc, const cp_plan_svc_dep *o,
                    const cp_plan_svc_dep *n)
{
    cp_diff_dep *e = &out->deps[out->n_deps++];
    *e = (cp_diff_dep){svc, o, n, -1, -1, -1, -1};
    int T = 0;
    if (o && o->replicas.has == CP_PLAN_SET)
        T = o->replicas.n;
    if (n && n->replicas.has == CP_PLAN_SET && n->replicas.n > T)
        T = n->replicas.n;
    for (int t = 0; t < T; t++) {
        if (reps_at(o, t) != reps_at(n, t)) {
            e->first = e->first < 0 ? t : e->first;
            e->last = t;
        }
        if (!same_ids(o, n, t)) {
            e->first_ids = e->first_ids < 0 ? t : e->first_ids;
            e->last_ids = t;
        }
    }
    out->deps_changed += e->first >= 0 || e->first_ids >= 0;
}

/* Every deployment of either plan (services without a name are left
 * out: the reader said so); nonzero when out of memory. */
static int diff_services(const cp_plan_file *a, const cp_plan_file *b, cp_plan_diff *out)
{
    size_t n = 1;
    for (int i = 0; i < a->n_svcs; i++)
        n += (size_t)a->svcs[i].n_deps;
    for (int i = 0; i < b->n_svcs; i++)
        n += (size_t)b->svcs[i].n_deps;
    if (!(out->deps = cp_calloc(n, sizeof *out->deps)))
        return -1;
    for (int i = 0; i < b->n_svcs; i++)
        for (int k = 0; b->svcs[i].name.has == CP_PLAN_SET && k < b->svcs[i].n_deps; k++)
            add_dep(out, b->svcs[i].name.s, find_dep(a, &b->svcs[i], &b->svcs[i].deps[k]),
                    &b->svcs[i].deps[k]);
    for (int i = 0; i < a->n_svcs; i++)
        for (int k = 0; a->svcs[i].name.has == CP_PLAN_SET && k < a->svcs[i].n_deps; k++)
            if (!find_dep(b, &a->svcs[i], &a->svcs[i].deps[k]))
                add_dep(out, a->svcs[i].name.s, &a->svcs[i].deps[k], NULL);
    return 0;
}

void cp_plan_diff_replicas(cp_buf *b, const cp_plan_svc_dep *e)
{
    if (!e || e->replicas.has != CP_PLAN_SET) {
        cp_buf_puts(b, "absent");
        return;
    }
    cp_buf_puts(b, "[");
    for (int t = 0; t < e->replicas.n; t++)
        cp_buf_printf(b, "%s%.0f", t ? ", " : "", e->replicas.v[t]);
    cp_buf_puts(b, "]");
}

void cp_plan_diff_dep_name(cp_buf *b, const cp_diff_dep *e)
{
    const cp_plan_svc_dep *x = e->now ? e->now : e->old;
    cp_buf_printf(b, "config %ld on %s (%s)", x->config.has == CP_PLAN_SET ? x->config.v : -1L,
                  x->resource.has == CP_PLAN_SET ? x->resource.s : "?",
                  x->market.has == CP_PLAN_SET ? x->market.s : "?");
}

/* "slot 3" or "slots 3-7" after `what`. */
static void put_slots(cp_buf *b, const char *what, int first, int last)
{
    if (first == last)
        cp_buf_printf(b, "%sslot %d", what, first);
    else
        cp_buf_printf(b, "%sslots %d-%d", what, first, last);
}

void cp_plan_diff_dep_slots(cp_buf *b, const cp_diff_dep *e)
{
    if (e->first >= 0)
        put_slots(b, "replicas differ in ", e->first, e->last);
    if (e->first_ids >= 0)
        put_slots(b, e->first >= 0 ? ", nodes in " : "nodes in ", e->first_ids, e->last_ids);
}

int cp_plan_diff_build(const cp_plan_file *a, const cp_plan_file *b, cp_plan_diff *out,
                       cp_err *err)
{
    cp_plan_diff_release(out);
    size_t cap = (size_t)a->n_jobs + (size_t)b->n_jobs + 1;
    const cp_plan_job **ia = cp_calloc((size_t)a->n_jobs + 1, sizeof *ia);
    const cp_plan_job **ib = cp_calloc((size_t)b->n_jobs + 1, sizeof *ib);
    out->jobs = cp_calloc(cap, sizeof *out->jobs);
    if (!ia || !ib || !out->jobs) {
        cp_free(ia);
        cp_free(ib);
        cp_plan_diff_release(out);
        return cp_err_nomem(err);
    }
    int na = 0, nb = 0;
    for (int i = 0; i < a->n_jobs; i++)
        if (a->jobs[i].name.has == CP_PLAN_SET)
            ia[na++] = &a->jobs[i];
    for (int i = 0; i < b->n_jobs; i++)
        if (b->jobs[i].name.has == CP_PLAN_SET)
            ib[nb++] = &b->jobs[i];
    qsort(ia, (size_t)na, sizeof *ia, by_name);
    qsort(ib, (size_t)nb, sizeof *ib, by_name);
    for (int i = 0; i < b->n_jobs; i++) {
        const cp_plan_job *pb = &b->jobs[i];
        if (pb->name.has != CP_PLAN_SET || lookup(ib, nb, pb->name.s) != pb)
            continue; /* a second entry of one name: the first counts */
        const cp_plan_job *pa = lookup(ia, na, pb->name.s);
        out->jobs[out->n++] = (cp_diff_job){pb->name.s, kind_of(pa, pb), pa, pb};
    }
    for (int i = 0; i < a->n_jobs; i++) {
        const cp_plan_job *pa = &a->jobs[i];
        if (pa->name.has != CP_PLAN_SET || lookup(ia, na, pa->name.s) != pa ||
            lookup(ib, nb, pa->name.s))
            continue;
        out->jobs[out->n++] = (cp_diff_job){pa->name.s, kind_of(pa, NULL), pa, NULL};
    }
    for (int i = 0; i < out->n; i++)
        out->count[out->jobs[i].kind]++;
    cp_free(ia);
    cp_free(ib);
    return diff_services(a, b, out) ? cp_err_nomem(err) : CP_OK;
}

const cp_diff_job *cp_plan_diff_find(const cp_plan_diff *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->jobs[i].name, name))
            return &d->jobs[i];
    return NULL;
}

void cp_plan_diff_run(cp_buf *b, const cp_plan_job *j)
{
    if (!j || !j->scheduled) {
        cp_buf_puts(b, j ? "dropped" : "absent");
        return;
    }
    cp_buf_printf(b, "%s (%s) x%ld", j->resource.has == CP_PLAN_SET ? j->resource.s : "?",
                  j->market.has == CP_PLAN_SET ? j->market.s : "?",
                  j->count.has == CP_PLAN_SET ? j->count.v : 0L);
    if (j->shape.has == CP_PLAN_SET && j->shape.v)
        cp_buf_printf(b, " shape %ld", j->shape.v);
    if (j->power_limit_w.has == CP_PLAN_SET) {
        char w[40];
        cp_fmt_num(w, sizeof w, j->power_limit_w.v);
        cp_buf_printf(b, " at %s W", w);
    }
    cp_buf_printf(b, " from slot %ld", j->start_slot.has == CP_PLAN_SET ? j->start_slot.v : -1L);
    if (j->nodes.has == CP_PLAN_SET && j->nodes.n) {
        cp_buf_puts(b, " [");
        for (int q = 0; q < j->nodes.n && q < 8; q++)
            cp_buf_printf(b, "%s%s", q ? ", " : "", j->nodes.s[q] ? j->nodes.s[q] : "?");
        if (j->nodes.n > 8)
            cp_buf_printf(b, ", ... (%d in all)", j->nodes.n);
        cp_buf_puts(b, "]");
    }
}
