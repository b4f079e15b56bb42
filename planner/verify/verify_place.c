/*
 * The plan verifier, concrete placement (capplan.5 §5; see verify_internal.h
 * and assumption 1 of docs/verify.md): the node and instance ids of each
 * job that lists them, one deterministic split of multi-node jobs over
 * their nodes, and the load of every node and instance per slot.
 */
#include "verify_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <stdlib.h>
#include <string.h>

long cp_vf_parse_id(const char *s, const char *prefix)
{
    const char *slash = strrchr(s, '/');
    if (!slash || (size_t)(slash - s) != strlen(prefix) || strncmp(s, prefix, strlen(prefix)))
        return -1;
    const char *d = slash + 1;
    if (!*d || strlen(d) > 9)
        return -1;
    for (const char *p = d; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    return strtol(d, NULL, 10);
}

static cp_vf_asg *add_asg(cp_vf_ctx *c, int entry, int res, long label, cp_pos id, double units)
{
    if (CP_GROW(c->asg, c->asg_cap, (size_t)c->n_asg + 1)) {
        c->oom = true;
        return NULL;
    }
    cp_vf_asg *g = &c->asg[c->n_asg++];
    memset(g, 0, sizeof *g);
    g->entry = entry;
    g->res = res;
    g->idx = (int)label; /* a market's rank is set once all ids are known */
    g->label = label;
    g->id = id;
    g->units = units;
    if (entry >= 0) {
        const cp_vf_job *vj = &c->jobs[entry];
        g->t0 = vj->start;
        g->t1 = vj->start + c->ms->modes[vj->mode].slots;
        g->name = c->in->jobs[vj->job].name;
    }
    return g;
}

bool cp_vf_add_replica(cp_vf_ctx *c, int d, long label, cp_pos id, int t)
{
    const cp_deploy *dp = &c->ms->deps[d];
    cp_vf_asg *g = add_asg(c, -1, dp->res, label, id, 1);
    if (!g)
        return false;
    g->t0 = t;
    g->t1 = t + 1;
    g->name = c->in->services[dp->svc].name;
    memcpy(g->dem, dp->demand, sizeof g->dem);
    return true;
}

/* Checks one job's ids; on success records them as assignments with
 * units 0 (set later). */
static void check_job_nodes(cp_vf_ctx *c, int e)
{
    const cp_vf_job *vj = &c->jobs[e];
    const cp_input *in = c->in;
    const cp_job *j = &in->jobs[vj->job];
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_resource *r = &c->ms->res[vj->res];
    const cp_plan_strs *ns = vj->nodes;
    const char *what = r->kind == CP_RES_POOL ? "node" : "instance";
    bool ok = true;
    if (ns->n == 0) {
        cp_vf_viol(c, ns->pos, "job '%s': 'nodes' is empty", j->name);
        return;
    }
    long *idx = cp_calloc((size_t)ns->n, sizeof *idx);
    if (!idx) {
        c->oom = true;
        return;
    }
    for (int i = 0; i < ns->n; i++) {
        cp_pos id = ns->at[i];
        const char *s = ns->s[i];
        long k = s ? cp_vf_parse_id(s, r->id) : -1;
        idx[i] = k;
        if (!s) { /* not a scalar: the reader's violation */
            ok = false;
            continue;
        }
        if (k < 0) {
            cp_vf_viol(c, id, "job '%s': '%s' is not a %s id of '%s' (expected '%s/N')", j->name, s,
                    what, r->id, r->id);
            ok = false;
            continue;
        }
        bool dup = false;
        for (int q = 0; q < i; q++)
            dup |= idx[q] == k;
        if (dup) {
            cp_vf_viol(c, id, "job '%s': %s '%s' is listed twice", j->name, what, s);
            ok = false;
            continue;
        }
        if (r->kind == CP_RES_POOL && k >= in->pools[r->index].nodes) {
            cp_vf_viol(c, id, "job '%s': pool '%s' has no node %ld (%d nodes)", j->name, r->name, k,
                    in->pools[r->index].nodes);
            ok = false;
            continue;
        }
        for (int t = vj->start; t < vj->start + m->slots; t++) {
            if (r->kind == CP_RES_POOL) {
                double av = cp_series_at(&in->pools[r->index].available, t);
                if (k >= av) {
                    cp_vf_viol(c, id, "job '%s': node '%s' is down in slot %d (%s of %d nodes "
                                   "available)", j->name, s, t, cp_vf_n(av).s,
                            in->pools[r->index].nodes);
                    ok = false;
                    break;
                }
            }
        }
    }
    double cap[CP_DIMS];
    cp_vf_mach_cap(r->mach, cap);
    bool fits = true;
    for (int d = 0; d < CP_DIMS; d++)
        fits &= !cp_vf_over(m->demand[d], cap[d]);
    int n = ns->n;
    if (fits && n != 1) {
        cp_vf_viol(c, ns->pos, "job '%s' fits on one %s but is placed on %d", j->name, what, n);
        ok = false;
    } else if (!fits) {
        cp_buf b;
        cp_buf_init(&b);
        for (int d = 0; d < CP_DIMS; d++)
            if (cp_vf_over(m->demand[d], n * cap[d]))
                cp_buf_printf(&b, "%s%s %s < %s", b.len ? ", " : "", cp_vf_dim_name[d],
                              cp_vf_n(n * cap[d]).s, cp_vf_n(m->demand[d]).s);
        if (b.len) {
            cp_vf_viol(c, ns->pos, "job '%s': its %d %s%s cannot hold its demand: %s", j->name, n,
                    what, n == 1 ? "" : "s", b.s);
            ok = false;
        }
        if (!cp_buf_ok(&b))
            c->oom = true;
        cp_buf_release(&b);
        if (j->kind == CP_JOB_DATAFLOW && n != m->count) {
            cp_vf_viol(c, ns->pos, "dataflow job '%s' runs on %d whole machines but lists %d %s%s",
                    j->name, m->count, n, what, n == 1 ? "" : "s");
            ok = false;
        } else if (j->kind == CP_JOB_TRAINING && n > m->count) {
            cp_vf_viol(c, ns->pos, "training job '%s' with %d accelerators is spread over %d %ss",
                    j->name, m->count, n, what);
            ok = false;
        }
    }
    for (int i = 0; ok && i < ns->n; i++)
        add_asg(c, e, vj->res, idx[i], ns->at[i], fits ? m->count : 0);
    cp_free(idx);
}

static double *nload_at(cp_vf_ctx *c, int r, int idx, int t)
{
    return &c->nload[c->nl_off[r] + (((size_t)idx * (size_t)c->T + (size_t)t) * CP_DIMS)];
}

/* A replica's demand on its unit in its slot. */
static void put_replica(cp_vf_ctx *c, const cp_vf_asg *g)
{
    double *l = nload_at(c, g->res, g->idx, g->t0);
    for (int d = 0; d < CP_DIMS; d++)
        l[d] += g->dem[d];
}

static void put(cp_vf_ctx *c, const cp_vf_asg *g, const cp_mode *m, int start, double units)
{
    for (int t = start; t < start + m->slots; t++) {
        double *l = nload_at(c, g->res, g->idx, t);
        for (int d = 0; d < CP_DIMS; d++)
            l[d] += units * m->demand[d] / m->count;
    }
}

/* Units of `m` that still fit on g's node/instance in every slot of the
 * run, given what is already there. */
static long free_units(cp_vf_ctx *c, const cp_vf_asg *g, const cp_mode *m, int start, bool nominal)
{
    double cap[CP_DIMS];
    cp_vf_mach_cap(c->ms->res[g->res].mach, cap);
    double best = 1e18;
    for (int t = start; t < start + m->slots; t++) {
        const double *l = nload_at(c, g->res, g->idx, t);
        for (int d = 0; d < CP_DIMS; d++) {
            double u = m->demand[d] / m->count;
            if (u <= 0)
                continue;
            double f = floor(((cap[d] - (nominal ? 0 : l[d])) / u) + 1e-9);
            if (f < best)
                best = f;
        }
    }
    return cp_num_clamp_long(best, 0, 1000000000L);
}

/* Splits a multi-node job over its nodes (docs/verify.md): one unit on
 * each, then its nodes in listed order take as many more as still fit;
 * what does not fit goes where a node alone could hold it (full nodes
 * first), so the capacity check names the overloaded node. */
static void split_job(cp_vf_ctx *c, int first, int last)
{
    const cp_vf_job *vj = &c->jobs[c->asg[first].entry];
    const cp_mode *m = &c->ms->modes[vj->mode];
    const cp_job *j = &c->in->jobs[vj->job];
    long left = m->count;
    if (j->kind == CP_JOB_DATAFLOW) {
        for (int a = first; a < last; a++)
            put(c, &c->asg[a], m, vj->start, c->asg[a].units = 1);
        return;
    }
    for (int a = first; a < last; a++) {
        c->asg[a].units = 1;
        left--;
    }
    for (int a = first; a < last; a++) {
        long f = free_units(c, &c->asg[a], m, vj->start, false) - 1;
        long take = f < left ? f : left;
        if (take > 0) {
            c->asg[a].units += (double)take;
            left -= take;
        }
    }
    for (int a = first; a < last && left > 0; a++) {
        long f = free_units(c, &c->asg[a], m, vj->start, true) - cp_num_clamp_long(c->asg[a].units, 0, 1000000000L);
        long take = f < left ? f : left;
        if (take > 0) {
            c->asg[a].units += (double)take;
            left -= take;
        }
    }
    c->asg[first].units += (double)left;
    for (int a = first; a < last; a++)
        put(c, &c->asg[a], m, vj->start, c->asg[a].units);
}

/* "'a', 'b'": the jobs (plan order) placed on node/instance idx of
 * resource r and running in slot t. Returns the last one's id (the
 * position to report at). */
static cp_pos jobs_on_node(cp_vf_ctx *c, int r, int idx, int t, cp_buf *b)
{
    cp_pos last = c->pf->pos;
    int n = 0;
    /* assignments are not in plan order (single-node jobs come first);
     * service replicas (entry -1) are named after the jobs */
    for (int e = 0; e <= c->n_jobs; e++)
        for (int a = 0; a < c->n_asg; a++) {
            const cp_vf_asg *g = &c->asg[a];
            if (g->entry != (e < c->n_jobs ? e : -1) || g->res != r || g->idx != idx ||
                !cp_vf_asg_runs(g, t))
                continue;
            cp_buf_printf(b, "%s%s'%s'", n++ ? ", " : "", g->entry < 0 ? "service " : "", g->name);
            last = g->id;
        }
    return last;
}

static int label_cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Instance ids are labels (version 1.1): each market's distinct labels get
 * ranks 0..n-1 in label order, and the loads are kept per rank. */
static bool rank_labels(cp_vf_ctx *c)
{
    for (int r = 0; r < c->ms->n_res; r++) {
        if (c->ms->res[r].kind == CP_RES_POOL)
            continue;
        int n = 0;
        for (int a = 0; a < c->n_asg; a++)
            n += c->asg[a].res == r;
        if (n == 0)
            continue;
        long *v = cp_calloc((size_t)n, sizeof *v);
        if (!v) {
            c->oom = true;
            return false;
        }
        n = 0;
        for (int a = 0; a < c->n_asg; a++)
            if (c->asg[a].res == r)
                v[n++] = c->asg[a].label;
        qsort(v, (size_t)n, sizeof *v, label_cmp);
        int u = 0;
        for (int i = 0; i < n; i++)
            if (i == 0 || v[i] != v[u - 1])
                v[u++] = v[i];
        c->nl_label[r] = v;
        for (int a = 0; a < c->n_asg; a++)
            if (c->asg[a].res == r) {
                const long *hit = bsearch(&c->asg[a].label, v, (size_t)u, sizeof *v, label_cmp);
                c->asg[a].idx = (int)(hit - v);
            }
    }
    return true;
}

/* capplan.5 §5, version 1.1: in each slot at most y(t) distinct ids of a market are
 * in use. */
static void check_instances_in_use(cp_vf_ctx *c)
{
    for (int r = 0; r < c->ms->n_res && !c->oom; r++) {
        if (c->ms->res[r].kind == CP_RES_POOL || !c->nl_label[r])
            continue;
        int n = 0;
        for (int a = 0; a < c->n_asg; a++)
            if (c->asg[a].res == r && c->asg[a].idx + 1 > n)
                n = c->asg[a].idx + 1;
        unsigned char *on = cp_calloc((size_t)n * (size_t)c->T, 1);
        if (!on) {
            c->oom = true;
            return;
        }
        cp_pos last = c->pf->pos;
        for (int a = 0; a < c->n_asg; a++) {
            const cp_vf_asg *g = &c->asg[a];
            if (g->res != r)
                continue;
            for (int t = g->t0; t < g->t1; t++)
                on[(size_t)g->idx * (size_t)c->T + (size_t)t] = 1;
            last = g->id;
        }
        for (int t = 0; t < c->T; t++) {
            long used = 0;
            for (int i = 0; i < n; i++)
                used += on[(size_t)i * (size_t)c->T + (size_t)t];
            long y = cp_vf_y_at(c, r, t);
            if (used > y) {
                cp_vf_viol(c, last, "market '%s': %ld instances in use in slot %d but %ld rented",
                        c->ms->res[r].id, used, t, y);
                break; /* one line per market */
            }
        }
        cp_free(on);
    }
}

void cp_vf_check_placement(cp_vf_ctx *c)
{
    for (int e = 0; e < c->n_jobs && !c->oom; e++)
        if (c->jobs[e].counted && c->jobs[e].nodes)
            check_job_nodes(c, e);
    if (c->oom || c->n_asg == 0)
        return;
    if (!rank_labels(c))
        return;
    size_t total = 0;
    for (int r = 0; r < c->ms->n_res; r++) {
        int mx = -1;
        for (int a = 0; a < c->n_asg; a++)
            if (c->asg[a].res == r && c->asg[a].idx > mx)
                mx = c->asg[a].idx;
        c->nl_off[r] = total;
        c->nl_count[r] = mx + 1;
        total += (size_t)(mx + 1) * (size_t)c->T * CP_DIMS;
    }
    check_instances_in_use(c);
    c->nload = cp_calloc(total ? total : 1, sizeof *c->nload);
    if (!c->nload) {
        c->oom = true;
        return;
    }
    /* whole jobs first (their load is fixed), then the splits */
    for (int a = 0; a < c->n_asg; a++) {
        const cp_vf_asg *g = &c->asg[a];
        if (g->entry < 0) {
            put_replica(c, g);
            continue;
        }
        const cp_vf_job *vj = &c->jobs[g->entry];
        if (g->units > 0)
            put(c, g, &c->ms->modes[vj->mode], vj->start, g->units);
    }
    for (int a = 0; a < c->n_asg;) {
        int b = a + 1;
        while (b < c->n_asg && c->asg[b].entry == c->asg[a].entry)
            b++;
        if (c->asg[a].entry >= 0 && c->asg[a].units == 0)
            split_job(c, a, b);
        a = b;
    }
    cp_buf b, jobs;
    cp_buf_init(&b);
    cp_buf_init(&jobs);
    for (int r = 0; r < c->ms->n_res; r++) {
        const cp_resource *res = &c->ms->res[r];
        double cap[CP_DIMS];
        cp_vf_mach_cap(res->mach, cap);
        for (int i = 0; i < c->nl_count[r]; i++)
            for (int t = 0; t < c->T; t++) {
                cp_buf_reset(&b);
                if (!cp_vf_over_dims(nload_at(c, r, i, t), cap, &b))
                    continue;
                cp_buf_reset(&jobs);
                cp_pos at = jobs_on_node(c, r, i, t, &jobs);
                long label = c->nl_label[r] ? c->nl_label[r][i] : i;
                cp_vf_viol(c, at, "%s '%s/%ld' over capacity in slot %d: %s (jobs %s)",
                        res->kind == CP_RES_POOL ? "node" : "instance", res->id, label, t, b.s,
                        jobs.s);
                break; /* one line per node */
            }
    }
    if (!cp_buf_ok(&b) || !cp_buf_ok(&jobs))
        c->oom = true;
    cp_buf_release(&b);
    cp_buf_release(&jobs);
}
