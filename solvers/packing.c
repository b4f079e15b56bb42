/* The one packing rule; see cp_packing.h. */
#include "cp_packing.h"

#include "cp_cost.h"

#include <limits.h>
#include <math.h>

#define EPS 1e-9

int cp_pack_shares(const cp_input *in, const cp_mode *m, const cp_machine *mach, double per[CP_DIMS],
                   int *full)
{
    bool training = in->jobs[m->job].kind == CP_JOB_TRAINING;
    for (int d = 0; d < CP_DIMS; d++)
        per[d] = training ? m->demand[d] / m->count : cp_machine_dim(mach, d);
    *full = INT_MAX;
    for (int d = 0; d < CP_DIMS; d++)
        if (per[d] > 0) {
            int a = cp_floor_int(cp_machine_dim(mach, d) / per[d] + EPS);
            *full = a < *full ? a : *full;
        }
    return m->count;
}

/* The shares of unit q of k (whole units first, the remainder last). */
static int amount_of(int n, int full, int k, int q)
{
    return k == 1 ? n : q < k - 1 ? full : n - full * (k - 1);
}

void cp_pack_amounts(const cp_input *in, const cp_mode *m, const cp_machine *mach, int k,
                     int *amount)
{
    double per[CP_DIMS];
    int full, n = cp_pack_shares(in, m, mach, per, &full);
    for (int q = 0; q < k; q++)
        amount[q] = amount_of(n, full, k, q);
}

static const double *free_at(const cp_pack *pk, int i, int d)
{
    return &pk->free[((size_t)i * CP_DIMS + (size_t)d) * (size_t)pk->T];
}

int cp_pack_room(const cp_pack *pk, int i, int s, int len, const double per[CP_DIMS], int want)
{
    int best = want;
    for (int d = 0; d < CP_DIMS; d++) {
        const double *fd = free_at(pk, i, d);
        for (int t = s; t < s + len; t++) {
            if (fd[t] < 0)
                return 0;
            if (per[d] <= 0)
                continue;
            int a = cp_floor_int(fd[t] / per[d] + EPS);
            if (a < best) {
                if (a <= 0)
                    return 0;
                best = a;
            }
        }
    }
    return best;
}

static bool idle_at(const cp_pack *pk, int i, int t)
{
    return pk->cnt[(size_t)i * (size_t)pk->T + (size_t)t] == 0;
}

/* What unit i adds in new instance-slots over [s, s+len) (0 on pools),
 * or -1 when one of them would pass limit (`extra` ids already taken
 * in every slot of the run by this choice). */
static double new_slots_cost(const cp_pack *pk, int i, int s, int len, const int *limit, int extra,
                             const double *weight)
{
    if (!pk->market)
        return 0;
    double c = 0;
    for (int t = s; t < s + len; t++)
        if (i >= pk->used || idle_at(pk, i, t)) {
            if (limit && pk->inuse[t] + extra + 1 > limit[t])
                return -1;
            c += weight ? weight[t] : 1;
        }
    return c;
}

/* Room left on unit i after taking `demand`, summed over the dimensions
 * as shares of the unit (the best-fit measure). */
static double left_after(const cp_pack *pk, int i, int s, int len, const double demand[CP_DIMS])
{
    double left = 0;
    for (int d = 0; d < CP_DIMS; d++) {
        double cap = cp_machine_dim(pk->mach, d);
        if (cap <= 0)
            continue;
        const double *fd = free_at(pk, i, d);
        double mn = INFINITY;
        for (int t = s; t < s + len; t++)
            mn = fd[t] < mn ? fd[t] : mn;
        left += (mn - demand[d]) / cap;
    }
    return left;
}

static bool cheaper(double c, double best)
{
    return c < best - 1e-12 * (1 + fabs(best));
}

static bool same_cost(double c, double best)
{
    return !cheaper(c, best) && !cheaper(best, c);
}

/* Ids worth looking at: every node of a pool; on a market the ids used
 * so far and the first fresh one. */
static int scan_end(const cp_pack *pk)
{
    return pk->market ? (pk->used < pk->n ? pk->used + 1 : pk->n) : pk->n;
}

int cp_pack_choose(const cp_pack *pk, const cp_input *in, const cp_mode *m, int s, const int *limit,
                   const double *weight, int *pick, int *amount, double *new_cost)
{
    double per[CP_DIMS];
    int full, want = cp_pack_shares(in, m, pk->mach, per, &full);
    *new_cost = 0;
    if (cp_units_needed(m->demand, pk->mach) <= 1) {
        int best = -1;
        double best_cost = INFINITY, best_left = INFINITY;
        for (int i = 0, end = scan_end(pk); i < end; i++) {
            if (cp_pack_room(pk, i, s, m->slots, per, want) < want)
                continue;
            double c = new_slots_cost(pk, i, s, m->slots, limit, 0, weight);
            if (c < 0)
                continue;
            double left = left_after(pk, i, s, m->slots, m->demand);
            if (best < 0 || cheaper(c, best_cost) ||
                (same_cost(c, best_cost) && left < best_left - 1e-12)) {
                best = i;
                best_cost = c;
                best_left = left;
            }
        }
        if (best < 0)
            return 0;
        pick[0] = best;
        amount[0] = want;
        *new_cost = best_cost;
        return 1;
    }
    /* whole units first, in id order: free nodes, idle instances (every
     * whole instance is new in every slot of the run) */
    int headroom = INT_MAX;
    if (pk->market && limit)
        for (int t = s; t < s + m->slots; t++)
            headroom = limit[t] - pk->inuse[t] < headroom ? limit[t] - pk->inuse[t] : headroom;
    int k = 0, left = want, top = -1;
    for (int i = 0; i < pk->n && left >= full && full > 0 && k < headroom; i++) {
        bool whole;
        if (pk->market) {
            whole = true;
            for (int t = s; t < s + m->slots && whole && i < pk->used; t++)
                whole = idle_at(pk, i, t);
        } else {
            whole = cp_pack_room(pk, i, s, m->slots, per, full) >= full;
        }
        if (whole) {
            pick[k] = i;
            amount[k++] = full;
            left -= full;
            top = i;
            *new_cost += new_slots_cost(pk, i, s, m->slots, NULL, 0, weight);
        }
    }
    if (left <= 0)
        return k;
    if (left >= full && full > 0)
        return 0; /* not enough whole units */
    /* the remainder: the cheapest, then best-fitting unit not picked */
    int end = pk->n;
    if (pk->market) {
        int fresh = top >= pk->used ? top + 1 : pk->used;
        end = fresh < pk->n ? fresh + 1 : pk->n;
    }
    int best = -1, best_room = INT_MAX;
    double best_cost = INFINITY;
    for (int i = 0; i < end; i++) {
        bool taken = false;
        for (int q = 0; q < k && !taken; q++)
            taken = pick[q] == i;
        if (taken)
            continue;
        int rm = cp_pack_room(pk, i, s, m->slots, per, full);
        if (rm < left)
            continue;
        double c = new_slots_cost(pk, i, s, m->slots, limit, k, weight);
        if (c < 0)
            continue;
        if (best < 0 || cheaper(c, best_cost) || (same_cost(c, best_cost) && rm < best_room)) {
            best = i;
            best_room = rm;
            best_cost = c;
        }
    }
    if (best < 0)
        return 0;
    pick[k] = best;
    amount[k++] = left;
    *new_cost += best_cost;
    return k;
}

bool cp_pack_holds(const cp_pack *pk, const cp_input *in, const cp_mode *m, int s, const int *limit,
                   const int *units, int k)
{
    double per[CP_DIMS];
    int full, n = cp_pack_shares(in, m, pk->mach, per, &full);
    if (k < 1 || k > m->count)
        return false;
    for (int q = 0; q < k; q++) {
        int a = amount_of(n, full, k, q);
        if (units[q] < 0 || units[q] >= pk->n || a < 1)
            return false;
        for (int p = 0; p < q; p++)
            if (units[p] == units[q])
                return false;
        if (cp_pack_room(pk, units[q], s, m->slots, per, a) < a)
            return false;
    }
    if (pk->market && limit)
        for (int t = s; t < s + m->slots; t++) {
            int add = 0;
            for (int q = 0; q < k; q++)
                add += units[q] >= pk->used || idle_at(pk, units[q], t);
            if (pk->inuse[t] + add > limit[t])
                return false;
        }
    return true;
}

double cp_pack_apply(cp_pack *pk, const cp_input *in, const cp_mode *m, int s, const int *units,
                     int k, int sign, const double *weight)
{
    double per[CP_DIMS];
    int full, n = cp_pack_shares(in, m, pk->mach, per, &full);
    double cost = 0;
    size_t T = (size_t)pk->T;
    for (int q = 0; q < k; q++) {
        int i = units[q], a = amount_of(n, full, k, q);
        for (int d = 0; d < CP_DIMS; d++) {
            double *fd = &pk->free[((size_t)i * CP_DIMS + (size_t)d) * T];
            for (int t = s; t < s + m->slots; t++)
                fd[t] -= sign * a * per[d];
        }
        if (!pk->market)
            continue;
        if (i >= pk->used)
            pk->used = i + 1;
        for (int t = s; t < s + m->slots; t++) {
            int *c = &pk->cnt[(size_t)i * T + (size_t)t];
            *c += sign;
            if ((sign > 0 && *c == 1) || (sign < 0 && *c == 0)) {
                pk->inuse[t] += sign;
                cost += sign * (weight ? weight[t] : 1);
            }
        }
    }
    return cost;
}
