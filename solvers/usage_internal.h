/*
 * Between usage.c (aggregate demand, power, spend, the public API) and
 * usage_units.c (concrete pool nodes and market instances).
 */
#ifndef CP_USAGE_INTERNAL_H
#define CP_USAGE_INTERNAL_H

#include "cp_cost.h"
#include "cp_usage.h"
#include "cp_num.h"

#include <limits.h>

#include <math.h>

#define CP_USAGE_EPS 1e-9

/* A market's quota in slot t under the usage's scale (a part of pop's
 * gets that share, rounded down): cp_usage_quota. Inline here because
 * both files need it, usage.c in the search's hottest loop, and neither
 * may call the other for it (usage.c calls usage_units.c). */
static inline int cp_usage_quota_of(const cp_usage *u, const cp_resource *r, int t)
{
    int q = cp_market_quota(u->in, r, t);
    return u->scale < 1 ? cp_num_clamp_int(floor(q * u->scale + 1e-9), 0, INT_MAX) : q;
}

int cp_usage_units_init(cp_usage *u);
void cp_usage_units_release(cp_usage *u);
/* Chooses units for mode m at s into u->pick/u->amount; returns how many
 * (0: it does not fit). For markets *ydelta gets the added cost of the
 * instances this raises y by (pools: 0). */
int cp_usage_units_fit(const cp_usage *u, const cp_mode *m, int s, double *ydelta);
/* Takes the share on the given units (and raises y on markets, adding
 * its cost to u->spend). */
void cp_usage_units_take(cp_usage *u, const cp_mode *m, int s, const int *units, int k);
/* Gives job's share back (and lowers y on markets). */
void cp_usage_units_give(cp_usage *u, const cp_mode *m, int s);
/* Whether the given units (a plan's) hold mode m at s. */
bool cp_usage_units_hold(const cp_usage *u, const cp_mode *m, int s, const int *units, int k);

/* Marks the modes another mode of the same job dominates (reduce.c);
 * *out is NULL when reduction does not apply. */
int cp_reduce_modes(const cp_usage *u, unsigned char **out, int *n_out);

#endif
