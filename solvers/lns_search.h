/*
 * The state of one stream of the neighbourhood search (lns.c), shared
 * with its precedence moves (lns_prec.c) and no one else.
 */
#ifndef CP_LNS_SEARCH_H
#define CP_LNS_SEARCH_H

#include "lns_internal.h"

#include "cp_prec.h"
#include "cp_rng.h"

#define LNS_MAX_REMOVE 14
/* jobs a step looks at on a large night (every job up to twice this) */
#define LNS_SAMPLE 256
#define LNS_MAX_UNITS 16
/* the largest window of a sub-MIP (its other limits: lns.c) */
#define LNS_MIP_MAX 18
/* the largest set a step takes out */
#define LNS_SET_MAX (LNS_MIP_MAX > LNS_MAX_REMOVE ? LNS_MIP_MAX : LNS_MAX_REMOVE)
/* room for the neighbours a seed takes along and the successors a drop
 * takes out with it (a step that needs more is given up) */
#define LNS_PREC_EXTRA 16
#define LNS_ALL (LNS_SET_MAX + LNS_PREC_EXTRA)

/* How the jobs of a step were put back. */
enum { REPAIR_PLAIN, REPAIR_PRICED, REPAIR_SHARED, REPAIR_EJECT, REPAIR_MIP, REPAIR_LP, REPAIR_INST, REPAIRS };

typedef struct lns {
    const cp_input *in;
    const cp_modeset *ms;
    cp_usage u;
    cp_plan *plan;
    double penalties; /* of dropped jobs that have modes */
    int *jobs;        /* jobs with modes */
    int n_jobs;
    unsigned char *can_use; /* [n_res] resources the seed job has modes on */
    unsigned *seen;         /* [n_jobs] step stamp of the last sample that took it */
    unsigned step;
    int *cand;
    long tries[REPAIRS], gains[REPAIRS]; /* steps and new best plans per repair */
    cp_submip *sub;                      /* NULL: no MIP repair */
    long mip_solved;                     /* sub-MIPs that gave an answer */
    double mip_seconds;
    cp_prec g;
    unsigned char *mask; /* [n_jobs] taken out and not yet back (CP_PREC_ABSENT|PENDING) */
    unsigned *inset;     /* [n_jobs] step stamp: in the step's set */
    unsigned set_stamp;
    long fixed;          /* jobs cp_lns_fix_set had to move or drop */
} lns;

static inline void lns_take_out(lns *l, int j)
{
    if (l->plan->mode[j] >= 0)
        cp_usage_remove(&l->u, l->plan->mode[j], l->plan->start[j]);
    else
        l->penalties -= l->in->jobs[j].drop_penalty;
    l->mask[j] = CP_PREC_ABSENT | CP_PREC_PENDING;
}

static inline void lns_put_back(lns *l, int j, int m, int s)
{
    l->plan->mode[j] = m;
    l->plan->start[j] = s;
    if (m >= 0)
        cp_usage_add(&l->u, m, s);
    else
        l->penalties += l->in->jobs[j].drop_penalty;
    l->mask[j] = 0;
}

/* The search's state over plan (which it then changes), its usage
 * loaded from the plan and bounded by clock (NULL: none); *broke gets
 * the jobs moved or dropped to keep precedence. CP_ERR_NOMEM (then
 * nothing to close). */
int cp_lns_open(lns *l, const cp_input *in, const cp_modeset *ms, cp_plan *plan, cp_clock *clock,
                int *broke);
void cp_lns_close(lns *l);

/* A step's set with what restores it: the jobs, their choices and units
 * before the step. */
typedef struct stepset {
    int n;
    int set[LNS_ALL], om[LNS_ALL], os[LNS_ALL], on[LNS_ALL];
    int ou[LNS_ALL][LNS_MAX_UNITS];
} stepset;

/* Adds job j (still in the plan) to the set; false when the set is full
 * or j holds too many units to be put back where it was. */
bool cp_lns_set_add(lns *l, stepset *st, int j);
/* Job j has just gone out of the plan (dropped): its running successors
 * that are not taken out go too, and theirs, each added to the set so a
 * rejected step restores it. False when the set cannot hold them. */
bool cp_lns_cascade(lns *l, stepset *st, int j);
/* ord[0..n) (indices into st->set) reordered so that no job comes before
 * one of its ancestors in the set, each taking the first place it may in
 * the given order. */
void cp_lns_prec_order(const lns *l, const stepset *st, int *ord, int n);
/* Job j (taken out) back at its best run within its window (ranked as
 * cp_usage_best_in ranks with pr, share), or dropped with its running
 * successors. False when the set is full. */
bool cp_lns_reinsert(lns *l, stepset *st, int j, const cp_prices *pr, bool share);
/* The set (taken out) back in the order ord[0..st->n) (indices into the
 * set; reordered so that predecessors come first), each job that is
 * still out where first(l, j, arg) puts it (NULL, or false: nowhere),
 * else as cp_lns_reinsert puts it. False when the set is full. */
bool cp_lns_put_set(lns *l, stepset *st, int *ord, bool (*first)(lns *, int, const void *), const void *arg,
                    const cp_prices *pr, bool share);
/* Mends what a sub-MIP's packed answer breaks (see lns_prec.c). False
 * when the set is full. */
bool cp_lns_fix_set(lns *l, stepset *st);

/* (lns_prec.c) Fills out[n..q) with candidates l->cand[0..nc) drawn at
 * random without repetition; returns the new count. */
int cp_lns_draw(lns *l, cp_rng *rs, int *out, int n, int q, int nc);
/* ord[0..n) (indices into set) stably sorted by decreasing size (the
 * accelerators, or machines, times hours of a job's smallest mode). */
void cp_lns_largest_first(const cp_modeset *ms, const int *set, int *ord, int n);

/* The ejections (lns_eject.c). One job forced into a random run of its
 * own, *fm, *fs, and the jobs in its way (at most q in all, the forced
 * one first); 0 when the draw fits no empty resource. */
int cp_lns_eject_pick(lns *l, cp_rng *rs, int *out, int q, int *fm, int *fs);
/* An instance-run: every job on one cloud instance over the slots it is
 * rented without a break (the drawn job first); *alt gets the other
 * market of the same instance type (spot for on-demand and back), -1
 * when there is none. 0 when no job is on a market or the run holds
 * more than q jobs. */
int cp_lns_inst_pick(lns *l, cp_rng *rs, int *out, int q, int *alt);
/* The set (taken out) back largest first: each on its cheapest run on
 * market alt (any count; -1: none) when one packs for less than its
 * penalty, else where it adds least (cp_lns_reinsert). False when the
 * set is full. */
bool cp_lns_inst_repair(lns *l, stepset *st, int alt);

/* The LP move (lns_lp.c): out[0..n) a job the LP puts elsewhere and the
 * chain of jobs in the way of the LP's columns (at most q); 0 when every
 * job is where the LP puts most of it. */
int cp_lns_lp_pick(lns *l, const cp_lp_sol *lp, cp_rng *rs, int *out, int q);
/* The chain of that move from job j0 (out[0] = j0). */
int cp_lns_lp_chain(lns *l, const cp_lp_sol *lp, cp_rng *rs, int j0, int *out, int q);
/* The set (taken out) back, each job on its first LP column that packs,
 * else as cp_lns_reinsert puts it. False when the set is full. */
bool cp_lns_lp_repair(lns *l, stepset *st, const cp_lp_sol *lp, const cp_prices *pr, bool share);

/* The ranking by the LP's reduced costs (lns_lp.c), on nights of more
 * than LNS_RC_JOBS jobs (where a step samples the jobs): a related
 * step's seed, when it is drawn where the money is, is the job of
 * largest reduced cost among LNS_RC_DRAW drawn (instead of a job in the
 * cloud or dropped), and an LP move's seed that of LNS_RC_DRAW_LP of
 * its candidates (instead of one at random). --node-limit 500, lagrange
 * (bench/results/2026-12-04-rc-rank.md): on the sized 1,000-job nights,
 * seeds 1-2, --seed 1-3, every run gained, 0.1-0.9 % (cloud 1,000, seed
 * 1: 0.3 %); on the sized 80-job nights, seeds 1-6, --seed 1-4, nothing
 * beyond the search's seed noise (seeds 1-5: +0.14 % in sum; on seed 6,
 * where a $2,490 job ends dropped or not, one run flipped each way), so
 * those nights, where 50,000 steps seed every job hundreds of times
 * anyway, keep the plain draw (and their plans). Seeds always ranked
 * (not half the time) left that job dropped on seed 6, --seed 1.
 * CFLAGS=-DLNS_RC_JOBS=0 ranks on every night, -DLNS_RC_SEED=0 or
 * -DLNS_RC_LP=0 turns a part off. */
#define LNS_RC_DRAW 8
#define LNS_RC_DRAW_LP 4
#ifndef LNS_RC_JOBS
#define LNS_RC_JOBS (2 * LNS_SAMPLE)
#endif
#ifndef LNS_RC_SEED
#define LNS_RC_SEED 1
#endif
#ifndef LNS_RC_LP
#define LNS_RC_LP 1
#endif
/* The LP's reduced cost of job j's current choice (cp_lp_sol_rc). */
double cp_lns_rc(const lns *l, const cp_lp_sol *lp, int j);
/* Of k jobs drawn at random from from[0..n) (each of them, in order,
 * when n <= k), the one whose current choice has the largest reduced
 * cost (the first drawn of a tie). n > 0. */
int cp_lns_rc_draw(const lns *l, const cp_lp_sol *lp, cp_rng *rs, const int *from, int n, int k);

#endif
