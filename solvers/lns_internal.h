/*
 * What the neighbourhood search (lns.c) shares with its MIP repair
 * (lns_mip.c) and its search streams (lns_streams.c), and no one else.
 */
#ifndef CP_LNS_INTERNAL_H
#define CP_LNS_INTERNAL_H

#include "solver_internal.h"

#include <signal.h>

/* A reusable sub-MIP builder over one usage (its index maps live as long
 * as the search). */
typedef struct cp_submip cp_submip;

int cp_submip_new(const cp_usage *u, cp_submip **out);
/* Precedence for the sub-MIPs (capplan.5 §9.2): g (NULL, or one without edges:
 * none) and the plan's choices mode[]/start[], read at each solve, for
 * the jobs outside the window (borrowed; they must outlive sm). */
struct cp_prec;
void cp_submip_prec(cp_submip *sm, const struct cp_prec *g, const int *mode, const int *start);
/* Also frees GLPK's environment of the calling thread. */
void cp_submip_free(cp_submip *sm);

/* What one sub-MIP may spend: branch-and-bound nodes and simplex
 * iterations (work limits, so a run is reproducible), and a clock and
 * stop flag that only cut it short (the search's deadline, an interrupt). */
typedef struct cp_submip_limits {
    long nodes;
    int lp_iterations; /* GLPK's; CBC has nodes only */
    double deadline; /* cp_now_seconds clock */
    const volatile sig_atomic_t *stop;
    cp_mip_engine engine; /* who solves cp_submip_solve's MIP (the LP is GLPK's) */
    unsigned long seed;   /* CBC's random seed */
} cp_submip_limits;

/* Re-plans the jobs free[0..n), already taken out of u, on the aggregate
 * model (capplan.5 §3) of the room the jobs left in u leave them: pool
 * capacity per dimension and slot, the room in the instances u rents plus
 * new instances up to the quota at their slot cost, power caps, the
 * budget. cur_mode/cur_start (the jobs' choices before they were taken
 * out, mode -1 dropped) are the warm start, so the answer costs at most
 * what they cost in that model. On 1, mode[i]/start[i] get job free[i]'s
 * (mode, start) or mode -1 (drop); 0: no answer within the limits;
 * -1 out of memory. Concrete packing is the caller's:
 * a choice the instances cannot hold is re-inserted or dropped there. */
int cp_submip_solve(cp_submip *sm, const int *free, int n, const int *cur_mode,
                    const int *cur_start, const cp_submip_limits *lim, int *mode, int *start);

/* The LP relaxation of the same model: on 1, each job's column of the
 * largest value (mode -1: its drop column) and that value in weight[i]. */
int cp_submip_lp(cp_submip *sm, const int *free, int n, const cp_submip_limits *lim, int *mode,
                 int *start, double *weight);

/* The LP-guided start of the odd streams (lns_streams.c): the LP
 * relaxation of every job left (cp_submip_lp, on the room the jobs
 * placed so far leave), the quarter of them whose LP column is worth
 * most (and every job the LP puts wholly on one column; a tie: input
 * order) placed there, at their cheapest packed start when the LP's
 * does not pack, or dropped (where the LP drops them, or nothing packs
 * for less than the penalty), again until every job is placed. 1: plan
 * holds it, packed; 0: no LP within the limits; -1: no memory. */
int cp_lns_lp_dive(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                   double deadline, cp_plan *plan);

/* The search of one stream (lns.c): cp_lns's contract on one seed. */
int cp_lns_stream(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                  const cp_prices *pr, double bound, long iterations, long stall, double deadline,
                  cp_plan *plan, double *total, cp_err *err);

#endif
