/*
 * Predecessors (capplan.5 §9.2): `after: [NAME, ...]` on any job. Names may
 * point forward in the file, so they are resolved once every job exists,
 * through a sorted name index (thousands of jobs, each with a few
 * predecessors). Unknown names and a job naming itself are reported at
 * the list element; repeats are dropped. Cycles are found by one
 * depth-first search over the after-edges, with an explicit stack (a
 * chain of 100,000 jobs must not overflow the C stack); each back edge
 * is one cycle, reported at the element that closes it with its path.
 */
#include "load_internal.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <stdlib.h>
#include <string.h>

typedef struct name_ix {
    const char *name;
    int idx;
} name_ix;

static int ix_cmp(const void *a, const void *b)
{
    const name_ix *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The first job of that name, or -1. */
static int ix_find(const name_ix *v, int n, const char *name)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(v[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && !strcmp(v[lo].name, name) ? v[lo].idx : -1;
}

static cp_node *after_node(cp_node *const *items, int i)
{
    const cp_node *m = items[i];
    return m->kind == CP_NODE_MAP ? cp_map_get(m, "after") : NULL;
}

/* The element of job i's list that names job `to`, for the cycle error. */
static const cp_node *edge_node(const cp_input *in, cp_node *const *items, int i, int to)
{
    const cp_node *a = after_node(items, i);
    for (size_t k = 0; a && k < a->n; k++)
        if (a->kids[k]->kind == CP_NODE_SCALAR && !strcmp(a->kids[k]->str, in->jobs[to].name))
            return a->kids[k];
    return a;
}

static void resolve(lctx *c, cp_node *const *items, const name_ix *ix, int nix)
{
    cp_input *in = c->in;
    for (int i = 0; i < in->n_jobs && !c->nomem; i++) {
        cp_job *j = &in->jobs[i];
        cp_node *a = after_node(items, i);
        char ent[200];
        cp_load_ent_name(ent, sizeof ent, "job", j->name, i);
        if (!a || cp_scalar_is_null(a) || !cp_load_want_seq(c, a, ent, "after"))
            continue;
        if (!(j->after = cp_calloc(a->n ? a->n : 1, sizeof *j->after))) {
            c->nomem = true;
            return;
        }
        for (size_t k = 0; k < a->n; k++) {
            char *name = NULL;
            if (!cp_load_str(c, a->kids[k], ent, "after[]", &name))
                continue;
            int p = ix_find(ix, nix, name);
            if (p < 0)
                cp_load_err(c, a->kids[k], ent, "'after' names unknown job '%s'", name);
            else if (p == i || (j->name && !strcmp(name, j->name)))
                cp_load_err(c, a->kids[k], ent, "'after' names the job itself");
            else {
                bool seen = false;
                for (int q = 0; q < j->n_after; q++)
                    seen |= j->after[q] == p;
                if (!seen)
                    j->after[j->n_after++] = p;
            }
            cp_free(name);
        }
    }
}

static void report_cycle(lctx *c, cp_node *const *items, const int *stack, int depth, int to)
{
    const cp_input *in = c->in;
    int from = stack[depth - 1], first = depth - 1;
    while (first > 0 && stack[first] != to)
        first--;
    cp_buf b;
    cp_buf_init(&b);
    for (int s = first; s < depth; s++)
        cp_buf_printf(&b, "%s -> ", in->jobs[stack[s]].name);
    cp_buf_puts(&b, in->jobs[to].name);
    char ent[200];
    cp_load_ent_name(ent, sizeof ent, "job", in->jobs[from].name, from);
    if (!cp_buf_ok(&b))
        c->nomem = true;
    else
        cp_load_err(c, edge_node(in, items, from, to), ent,
                    "'after' makes a cycle: %s (each job runs after the next)", b.s);
    cp_buf_release(&b);
}

/* Colors: 0 unseen, 1 on the stack, 2 done. */
static void find_cycles(lctx *c, cp_node *const *items)
{
    const cp_input *in = c->in;
    int n = in->n_jobs;
    char *color = cp_calloc((size_t)(n ? n : 1), 1);
    int *stack = cp_calloc((size_t)(n ? n : 1), sizeof *stack);
    int *next = cp_calloc((size_t)(n ? n : 1), sizeof *next);
    if (!color || !stack || !next) {
        c->nomem = true;
        goto out;
    }
    for (int root = 0; root < n && !cp_diags_full(c->diags); root++) {
        if (color[root] || !in->jobs[root].n_after)
            continue;
        int depth = 0;
        stack[depth++] = root;
        color[root] = 1;
        next[root] = 0;
        while (depth > 0) {
            int v = stack[depth - 1];
            const cp_job *j = &in->jobs[v];
            if (next[v] == j->n_after) {
                color[v] = 2;
                depth--;
                continue;
            }
            int w = j->after[next[v]++];
            if (color[w] == 1)
                report_cycle(c, items, stack, depth, w);
            else if (color[w] == 0) {
                color[w] = 1;
                next[w] = 0;
                stack[depth++] = w;
            }
        }
    }
out:
    cp_free(color);
    cp_free(stack);
    cp_free(next);
}

void cp_load_after(lctx *c, cp_node *const *items, int n)
{
    cp_input *in = c->in;
    bool any = false;
    for (int i = 0; i < in->n_jobs && i < n; i++)
        any |= after_node(items, i) != NULL;
    if (!any)
        return;
    name_ix *ix = cp_calloc((size_t)in->n_jobs, sizeof *ix);
    if (!ix) {
        c->nomem = true;
        return;
    }
    int nix = 0;
    for (int i = 0; i < in->n_jobs; i++)
        if (in->jobs[i].name) {
            ix[nix].name = in->jobs[i].name;
            ix[nix++].idx = i;
        }
    qsort(ix, (size_t)nix, sizeof *ix, ix_cmp);
    resolve(c, items, ix, nix);
    cp_free(ix);
    if (!c->nomem)
        find_cycles(c, items);
}
