/*
 * Why a job runs where the plan puts it (cp_explain_modes.h). Each mode
 * of the job is tried, with the plan's other jobs placed (cp_usage_add:
 * the plan's choices, packed again on nodes and instances), at every
 * start the plan's precedence leaves it: from its scheduled predecessors'
 * end (cp_explain_est) to its scheduled successors' start. The cost of a
 * start that fits is cp_usage_try's: what the total changes by with the
 * job there, so a job that shares an instance the plan already rents pays
 * no instance-hours of its own. A mode that fits nowhere is priced alone,
 * on an empty night, and explain_why.c says why it does not fit.
 */
#include "cp_explain.h"
#include "cp_explain_modes.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdlib.h>

static int cmp_why(const void *a, const void *b)
{
    const cp_mode_why *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return x->mode - y->mode;
}

/* The earliest start of j's scheduled successors (the slot j must end
 * by), T when it has none. */
static int successors_start(const cp_plan *p, int j)
{
    int lend = p->in->slots;
    for (int k = 0; k < p->n_jobs; k++) {
        if (p->mode[k] < 0)
            continue;
        const cp_job *job = &p->in->jobs[k];
        for (int a = 0; a < job->n_after; a++)
            if (job->after[a] == j && p->start[k] < lend)
                lend = p->start[k];
    }
    return lend;
}

void cp_mode_why_free(cp_mode_why *v, int n)
{
    for (int i = 0; v && i < n; i++)
        cp_free(v[i].why);
    cp_free(v);
}

/* The cheapest start of mode m in [est, lend) on u: *start, *cost; false
 * when none fits. */
static bool cheapest(const cp_usage *u, const cp_mode *md, int m, int est, int lend, int *start,
                     double *cost)
{
    bool found = false;
    for (int s = md->s_min > est ? md->s_min : est; s <= md->s_max && s + md->slots <= lend; s++) {
        double d;
        if (cp_usage_try(u, m, s, &d) && (!found || d < *cost)) {
            found = true;
            *start = s;
            *cost = d;
        }
    }
    return found;
}

int cp_explain_modes(const cp_plan *p, int j, cp_mode_why **out, int *n, cp_err *err)
{
    const cp_modeset *ms = p->ms;
    int first = ms->job_first[j], count = ms->job_first[j + 1] - first;
    *out = NULL;
    *n = 0;
    cp_usage u, alone;
    if (cp_usage_init(&u, p->in, ms))
        return cp_err_nomem(err);
    if (cp_usage_init(&alone, p->in, ms)) {
        cp_usage_release(&u);
        return cp_err_nomem(err);
    }
    for (int k = 0; k < p->n_jobs; k++)
        if (k != j && p->mode[k] >= 0)
            cp_usage_add(&u, p->mode[k], p->start[k]);
    cp_mode_why *v = cp_calloc((size_t)(count ? count : 1), sizeof *v);
    int rc = v ? CP_OK : CP_ERR_NOMEM, by;
    int est = cp_explain_est(p, j, &by), lend = successors_start(p, j);
    for (int i = 0; i < count && rc == CP_OK; i++) {
        int m = first + i;
        const cp_mode *md = &ms->modes[m];
        cp_mode_why *w = &v[i];
        w->mode = m;
        w->start = -1;
        w->cost = INFINITY;
        w->chosen = p->mode[j] == m;
        if (w->chosen) {
            /* the plan's own start, priced as every other */
            w->start = p->start[j];
            w->fits = cp_usage_try(&u, m, w->start, &w->cost);
            if (!w->fits) /* packed again, it may not: price it alone */
                cp_usage_try(&alone, m, w->start, &w->cost);
            continue;
        }
        w->fits = cheapest(&u, md, m, est, lend, &w->start, &w->cost);
        if (w->fits)
            continue;
        if (!cheapest(&alone, md, m, est, lend, &w->start, &w->cost))
            cheapest(&alone, md, m, 0, p->in->slots, &w->start, &w->cost);
        cp_buf b;
        cp_buf_init(&b);
        if (cp_explain_mode_blocked(p, &u, j, m, est, lend, &b) || !(w->why = cp_buf_detach(&b)))
            rc = CP_ERR_NOMEM;
        cp_buf_release(&b);
    }
    cp_usage_release(&u);
    cp_usage_release(&alone);
    if (rc) {
        cp_mode_why_free(v, count);
        return cp_err_nomem(err);
    }
    qsort(v, (size_t)count, sizeof *v, cmp_why);
    *out = v;
    *n = count;
    return CP_OK;
}
