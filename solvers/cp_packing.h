/*
 * The one packing rule (capplan.5 §5 with 1.1's instance labels), used by the
 * search's bookkeeping (usage_units.c) and by placement (placement.c), so
 * that a plan built by the search packs exactly as placement would pack it.
 *
 * A job's demand is cut into shares: one accelerator's (with its cpus and
 * memory) for training, one whole machine for dataflow. A job that fits
 * one unit goes on one; a larger one takes whole units first and its
 * remainder on one more unit (the split `verify` reads too). Among the
 * units that hold a share, the choice is, in order: the fewest new
 * instance-slots on a market (an instance id is a label: any id idle in a
 * slot may be used, and a market pays for the distinct ids in use per
 * slot), then the best fit (least room left), then the lowest id. Pool
 * nodes are down in a slot when their index is not below `available`.
 *
 * A cp_pack describes the units of one resource; its arrays are owned by
 * the caller (the usage preallocates them, placement grows them). On a
 * market, ids [0, used) have been used and ids from `used` on are fresh
 * (idle everywhere), so only id `used` needs looking at among those.
 */
#ifndef CP_PACKING_H
#define CP_PACKING_H

#include "cp_modes.h"

#include <stdbool.h>

typedef struct cp_pack {
    const cp_machine *mach;
    bool market;
    int T;
    int n;          /* ids the arrays hold */
    int used;       /* markets: ids below this have been used; pools: n */
    double *free;   /* [n][3][T] room left; -1: the node is down */
    int *cnt;       /* markets: [n][T] jobs on the instance */
    int *inuse;     /* markets: [T] distinct ids in use */
} cp_pack;

/* One share of mode m (per[d]) and how many shares one unit holds
 * (*full); returns the shares of the whole job. */
int cp_pack_shares(const cp_input *in, const cp_mode *m, const cp_machine *mach, double per[CP_DIMS],
                   int *full);
/* Shares on each of k units: whole units first, the remainder last. */
void cp_pack_amounts(const cp_input *in, const cp_mode *m, const cp_machine *mach, int k,
                     int *amount);
/* Shares unit i can take over [s, s+len), capped at want; 0 when it is
 * down in one of the slots. */
int cp_pack_room(const cp_pack *pk, int i, int s, int len, const double per[CP_DIMS], int want);
/* Chooses units for mode m at s into pick/amount (room for m->count + 1
 * entries); returns how many (0: it does not fit). On a market at most
 * limit[t] ids may be in use in slot t, and weight[t] prices a new
 * instance-slot (NULL: 1); *new_cost gets what the new instance-slots
 * cost. The chosen ids may be `used` (a fresh id) but never reach n. */
int cp_pack_choose(const cp_pack *pk, const cp_input *in, const cp_mode *m, int s, const int *limit,
                   const double *weight, int *pick, int *amount, double *new_cost);
/* Whether the given units hold mode m at s (split as cp_pack_amounts,
 * distinct, below n, within limit on a market). */
bool cp_pack_holds(const cp_pack *pk, const cp_input *in, const cp_mode *m, int s, const int *limit,
                   const int *units, int k);
/* Takes (sign 1) or gives back (sign -1) mode m's shares at s on the
 * units; on a market updates cnt, inuse and used, and returns the change
 * of the instance-slots' cost under weight (NULL: 1). */
double cp_pack_apply(cp_pack *pk, const cp_input *in, const cp_mode *m, int s, const int *units,
                     int k, int sign, const double *weight);

#endif
