/*
 * Model reduction: modes that another mode of the same job dominates.
 * Mode a is dominated by mode b on the same resource when b asks for no
 * more of any dimension, runs no more slots, draws no more power in any
 * slot of its run, may start wherever a may, and (energy prices being
 * non-negative) costs no more at any start: every plan that runs a can
 * run b instead at no more cost and no more use of any row. Such modes
 * arise where more accelerators do not speed a job up (a scaling table
 * that flattens, Ernest's ln m and m terms at large m) and from spot
 * stretch ties. Ties between identical modes keep the first.
 */
#include "usage_internal.h"

#include "cp_alloc.h"

#include <stdbool.h>

static bool dominates(const cp_mode *b, const cp_mode *a)
{
    if (b->res != a->res || b->slots > a->slots || b->s_min > a->s_min || b->s_max < a->s_max ||
        b->egress > a->egress || b->change > a->change)
        return false;
    for (int d = 0; d < CP_DIMS; d++)
        if (b->demand[d] > a->demand[d])
            return false;
    /* power per slot of the run: full slots, then the last one */
    if (b->busy_w > a->busy_w)
        return false;
    if (b->slots == a->slots && b->busy_w * b->last_frac > a->busy_w * a->last_frac)
        return false;
    return true;
}

static bool same(const cp_mode *b, const cp_mode *a)
{
    for (int d = 0; d < CP_DIMS; d++)
        if (b->demand[d] != a->demand[d])
            return false;
    return b->slots == a->slots && b->busy_w == a->busy_w && b->last_frac == a->last_frac &&
           b->egress == a->egress && b->change == a->change &&
           b->s_min == a->s_min && b->s_max == a->s_max;
}

int cp_reduce_modes(const cp_usage *u, unsigned char **out, int *n_out)
{
    const cp_modeset *ms = u->ms;
    *out = NULL;
    *n_out = 0;
    /* a negative energy or carbon price could make the longer run cheaper */
    for (int s = 0; s < u->in->n_sites; s++)
        for (int t = 0; t < u->T; t++)
            if (u->kwh_cost[(size_t)s * u->T + t] < 0)
                return CP_OK;
    unsigned char *dom = cp_calloc((size_t)(ms->n_modes ? ms->n_modes : 1), 1);
    if (!dom)
        return CP_ERR_NOMEM;
    int n = 0;
    for (int j = 0; j < ms->n_jobs; j++)
        for (int a = ms->job_first[j]; a < ms->job_first[j + 1]; a++)
            for (int b = ms->job_first[j]; b < ms->job_first[j + 1]; b++) {
                if (a == b || dom[b])
                    continue;
                const cp_mode *ma = &ms->modes[a], *mb = &ms->modes[b];
                if (dominates(mb, ma) && (!same(mb, ma) || b < a)) {
                    dom[a] = 1;
                    n++;
                    break;
                }
            }
    *out = dom;
    *n_out = n;
    return CP_OK;
}
