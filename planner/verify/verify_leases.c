/*
 * The plan verifier, leases (capplan.5 §5, version 1.1; optional, checked when
 * a provisioning entry lists them): each lease is one id of the market in
 * use over a maximal run of consecutive slots, with the jobs that run on
 * that id in those slots. Checked against the placement (the jobs' ids,
 * verify_place.c): every (id, slot) in use is covered by exactly one
 * lease, no lease covers an idle one, two leases of one id never touch
 * (they would be one run), each lease names exactly the jobs on its id in
 * its slots, and in every slot y(t) is at least the leases covering it.
 */
#include "verify_internal.h"

#include "cp_alloc.h"

#include <stdlib.h>
#include <string.h>

/* The market's assignments ordered by label: the ones of one label are
 * a range found by binary search, so a lease's checks cost its own
 * assignments, not the whole plan's. */
typedef struct by_label {
    const cp_vf_ctx *c;
    int *a;  /* assignment indices of the market, by label then index */
    int n;
} by_label;

/* A sort key: a label, a slot and an index (no global sort context, so
 * verify stays safe to call from several threads). */
typedef struct key3 {
    long label, start;
    int idx;
} key3;

static int key3_cmp(const void *x, const void *y)
{
    const key3 *a = x, *b = y;
    if (a->label != b->label)
        return a->label < b->label ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Sorts idx[0..n) by (label of, start of, index); false on out of memory. */
static bool sort_by_keys(int *idx, int n, const long *label, const long *start)
{
    key3 *k = cp_calloc((size_t)(n ? n : 1), sizeof *k);
    if (!k)
        return false;
    for (int i = 0; i < n; i++)
        k[i] = (key3){label[i], start ? start[i] : 0, idx[i]};
    qsort(k, (size_t)n, sizeof *k, key3_cmp);
    for (int i = 0; i < n; i++)
        idx[i] = k[i].idx;
    cp_free(k);
    return true;
}

/* [*lo, *hi) of the assignments with this label. */
static void label_range(const by_label *bl, long label, int *lo, int *hi)
{
    int l = 0, h = bl->n;
    while (l < h) {
        int mid = (l + h) / 2;
        if (bl->c->asg[bl->a[mid]].label < label)
            l = mid + 1;
        else
            h = mid;
    }
    *lo = l;
    while (l < bl->n && bl->c->asg[bl->a[l]].label == label)
        l++;
    *hi = l;
}

/* Whether an assignment in [lo, hi) runs in slot t (entry e only, or any
 * when e < 0). */
static bool range_runs(const by_label *bl, int lo, int hi, int e, int t)
{
    for (int i = lo; i < hi; i++) {
        const cp_vf_asg *g = &bl->c->asg[bl->a[i]];
        if ((e < 0 || g->entry == e) && cp_vf_asg_runs(g, t))
            return true;
    }
    return false;
}


/* One lease's own fields; false (with a violation) when unusable. */
static bool lease_fields(cp_vf_ctx *c, const cp_resource *res, const cp_plan_lease *ls, long *label)
{
    const char *who = res->id;
    if (ls->id.has != CP_PLAN_SET || ls->start_slot.has != CP_PLAN_SET || ls->slots.has != CP_PLAN_SET ||
        ls->jobs.has != CP_PLAN_SET) {
        cp_vf_viol(c, ls->pos, "provisioning of '%s': a lease needs 'id', 'start_slot', 'slots' and 'jobs'",
                who);
        return false;
    }
    *label = cp_vf_parse_id(ls->id.s, res->id);
    if (*label < 0) {
        cp_vf_viol(c, ls->id.pos, "provisioning of '%s': lease id '%s' is not an instance id of '%s' (expected '%s/N')",
                who, ls->id.s, res->id, res->id);
        return false;
    }
    if (ls->start_slot.v < 0 || ls->slots.v < 1 || ls->start_slot.v + ls->slots.v > c->T) {
        cp_vf_viol(c, ls->start_slot.pos, "lease '%s': slots %ld..%ld are not within the horizon (0..%d)",
                ls->id.s, ls->start_slot.v, ls->start_slot.v + ls->slots.v - 1, c->T - 1);
        return false;
    }
    return true;
}

/* The jobs a lease lists against those on its id in its slots. */
static void lease_jobs(cp_vf_ctx *c, const by_label *bl, const cp_plan_lease *ls, long label)
{
    int s = (int)ls->start_slot.v, n = (int)ls->slots.v, lo, hi;
    label_range(bl, label, &lo, &hi);
    for (int i = 0; i < ls->jobs.n; i++) {
        const char *name = ls->jobs.s[i];
        bool on = false;
        for (int q = lo; q < hi && name && !on; q++) {
            const cp_vf_asg *g = &c->asg[bl->a[q]];
            for (int t = s; t < s + n && !on; t++)
                on = !strcmp(g->name, name) && cp_vf_asg_runs(g, t);
        }
        if (!on)
            cp_vf_viol(c, ls->jobs.at[i], "lease '%s' from slot %d: job '%s' does not run on it in slots %d..%d",
                    ls->id.s, s, name ? name : "?", s, s + n - 1);
    }
    for (int q = lo; q < hi; q++) {
        const cp_vf_asg *g = &c->asg[bl->a[q]];
        bool on = false;
        for (int t = s; t < s + n && !on; t++)
            on = cp_vf_asg_runs(g, t);
        if (!on)
            continue;
        const char *name = g->name;
        bool listed = false;
        for (int i = 0; i < ls->jobs.n && !listed; i++)
            listed = ls->jobs.s[i] && !strcmp(ls->jobs.s[i], name);
        if (!listed)
            cp_vf_viol(c, ls->jobs.pos, "lease '%s' from slot %d: %s '%s' runs on it but is not listed",
                    ls->id.s, s, g->entry < 0 ? "service" : "job", name);
    }
}

static void check_market(cp_vf_ctx *c, int r)
{
    const cp_plan_prov *pv = c->prov[r];
    const cp_resource *res = &c->ms->res[r];
    int T = c->T, n = pv->n_leases;
    long *label = cp_calloc((size_t)(n ? n : 1), sizeof *label);
    bool *ok = cp_calloc((size_t)(n ? n : 1), sizeof *ok);
    int *cover = cp_calloc((size_t)T, sizeof *cover);
    int *order = cp_calloc((size_t)(n ? n : 1), sizeof *order);
    by_label bl = {c, cp_calloc((size_t)(c->n_asg ? c->n_asg : 1), sizeof(int)), 0};
    if (!label || !ok || !cover || !order || !bl.a) {
        c->oom = true;
        goto out;
    }
    long *kl = cp_calloc((size_t)(c->n_asg > n ? c->n_asg : n) + 1, sizeof *kl);
    long *ks = cp_calloc((size_t)n + 1, sizeof *ks);
    if (!kl || !ks) {
        cp_free(kl);
        cp_free(ks);
        c->oom = true;
        goto out;
    }
    for (int a = 0; a < c->n_asg; a++)
        if (c->asg[a].res == r) {
            kl[bl.n] = c->asg[a].label;
            bl.a[bl.n++] = a;
        }
    if (!sort_by_keys(bl.a, bl.n, kl, NULL)) {
        cp_free(kl);
        cp_free(ks);
        c->oom = true;
        goto out;
    }
    bool all = true;
    for (int l = 0; l < n; l++) {
        ok[l] = lease_fields(c, res, &pv->leases[l], &label[l]);
        all &= ok[l];
    }
    for (int l = 0; l < n; l++) {
        if (!ok[l])
            continue;
        const cp_plan_lease *ls = &pv->leases[l];
        int s = (int)ls->start_slot.v, e = s + (int)ls->slots.v;
        int lo, hi;
        label_range(&bl, label[l], &lo, &hi);
        for (int t = s; t < e; t++) {
            cover[t]++;
            if (!range_runs(&bl, lo, hi, -1, t))
                cp_vf_viol(c, ls->pos, "lease '%s' from slot %d covers slot %d, where no job uses it", ls->id.s, s, t);
        }
        lease_jobs(c, &bl, ls, label[l]);
    }
    /* every (id, slot) in use is covered (only when every lease was
     * readable: an unreadable one may be the cover) */
    /* the readable leases by (label, start): neighbours of one label
     * must neither overlap nor touch, and a label's leases are a range */
    int m = 0;
    for (int l = 0; l < n; l++)
        if (ok[l]) {
            kl[m] = label[l];
            ks[m] = pv->leases[l].start_slot.v;
            order[m++] = l;
        }
    bool sorted = sort_by_keys(order, m, kl, ks);
    cp_free(kl);
    cp_free(ks);
    if (!sorted) {
        c->oom = true;
        goto out;
    }
    for (int q = 1; q < m; q++) {
        const cp_plan_lease *a = &pv->leases[order[q - 1]], *b = &pv->leases[order[q]];
        if (label[order[q - 1]] != label[order[q]])
            continue;
        long ae = a->start_slot.v + a->slots.v;
        if (b->start_slot.v < ae)
            cp_vf_viol(c, b->pos, "leases of '%s' from slots %ld and %ld overlap", b->id.s, a->start_slot.v,
                    b->start_slot.v);
        else if (b->start_slot.v == ae)
            cp_vf_viol(c, b->pos, "leases of '%s' from slots %ld and %ld are one run of slots: one lease",
                    b->id.s, a->start_slot.v, b->start_slot.v);
    }
    for (int a = 0; a < c->n_asg && all; a++) {
        const cp_vf_asg *g = &c->asg[a];
        if (g->res != r)
            continue;
        int first = 0, hi = m;
        while (first < hi) { /* the first lease of g's label */
            int mid = (first + hi) / 2;
            if (label[order[mid]] < g->label)
                first = mid + 1;
            else
                hi = mid;
        }
        for (int t = g->t0; t < g->t1; t++) {
            bool covered = false;
            for (int q = first; q < m && label[order[q]] == g->label && !covered; q++)
                covered = pv->leases[order[q]].start_slot.v <= t &&
                          t < pv->leases[order[q]].start_slot.v + pv->leases[order[q]].slots.v;
            if (!covered) {
                cp_vf_viol(c, g->id, "instance '%s/%ld' is in use in slot %d but no lease of '%s' covers it",
                        res->id, g->label, t, res->id);
                break;
            }
        }
    }
    for (int t = 0; t < T; t++)
        if (cover[t] > cp_vf_y_at(c, r, t)) {
            cp_vf_viol(c, pv->leases_pos, "provisioning of '%s': %d leases cover slot %d but %ld instances are rented",
                    res->id, cover[t], t, cp_vf_y_at(c, r, t));
            break;
        }
out:
    cp_free(order);
    cp_free(bl.a);
    cp_free(label);
    cp_free(ok);
    cp_free(cover);
}

void cp_vf_check_leases(cp_vf_ctx *c)
{
    for (int r = 0; r < c->ms->n_res && !c->oom; r++) {
        const cp_plan_prov *pv = c->prov[r];
        if (!pv || c->ms->res[r].kind == CP_RES_POOL || pv->leases_has == CP_PLAN_ABSENT)
            continue;
        if (pv->leases_has != CP_PLAN_SET) {
            cp_vf_viol(c, pv->leases_pos, "provisioning of '%s': 'leases' must be a list of leases",
                    c->ms->res[r].id);
            continue;
        }
        check_market(c, r);
    }
}
