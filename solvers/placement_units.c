/*
 * The units of a resource while a plan is placed (placement_internal.h):
 * placement.c packs jobs on them, placement_svc.c replicas, and both
 * grow a market's ids here.
 */
#include "placement_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"
#include "cp_num.h"

#include <limits.h>
#include <string.h>

int cp_place_ensure_units(packer *pk, int r, int n)
{
    cp_pack *p = &pk->pk[r];
    if (n <= p->n)
        return CP_OK;
    size_t T = (size_t)pk->T, per = (size_t)CP_DIMS * T;
    if ((size_t)n > pk->cap[r]) {
        size_t nc = pk->cap[r] ? pk->cap[r] : 4;
        while (nc < (size_t)n)
            nc *= 2;
        double *f = cp_reallocarray(p->free, nc * per, sizeof *f);
        if (!f)
            return CP_ERR_NOMEM;
        p->free = f;
        if (p->market) {
            int *c = cp_reallocarray(p->cnt, nc * T, sizeof *c);
            if (!c)
                return CP_ERR_NOMEM;
            p->cnt = c;
        }
        pk->cap[r] = nc;
    }
    const cp_resource *res = &pk->ms->res[r];
    for (int u = p->n; u < n; u++) {
        for (int d = 0; d < CP_DIMS; d++)
            for (size_t t = 0; t < T; t++) {
                bool up = res->kind != CP_RES_POOL ||
                          u < cp_num_clamp_int(cp_series_at(&pk->in->pools[res->index].available, (int)t), 0,
                                               INT_MAX);
                p->free[((size_t)u * CP_DIMS + (size_t)d) * T + t] =
                    up ? cp_machine_dim(res->mach, d) : -1;
            }
        if (p->market)
            memset(&p->cnt[(size_t)u * T], 0, T * sizeof *p->cnt);
    }
    p->n = n;
    if (!p->market)
        p->used = n;
    return CP_OK;
}
