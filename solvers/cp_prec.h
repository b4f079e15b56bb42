/*
 * The precedence graph of an input (capplan.5 §9.2) as the searches use it:
 * successors, a topological order, and the window an `after` edge leaves
 * a job in a plan under construction. The greedy (heur_greedy.c), the
 * neighbourhood search (lns.c) and the Lagrangian (lagrange.c) keep
 * precedence through it while they search; precedence.c repairs, as a
 * safety net, what a method still breaks.
 */
#ifndef CP_PREC_H
#define CP_PREC_H

#include "cp_usage.h"

#include <stdbool.h>

typedef struct cp_prec {
    const cp_input *in;
    bool any;        /* some job has `after` */
    int *succ_first; /* [n_jobs+1]: the successors of j are succ[succ_first[j] .. succ_first[j+1]) */
    int *succ;
    int *order;      /* [n_jobs] a topological order (deterministic) */
    int *rank;       /* [n_jobs] position of each job in order */
    double *dpen;    /* [n_jobs] what dropping j loses at most: its penalty and its descendants' */
    double *f;       /* scratch [slots+2] of cp_prec_best: one object per thread */
} cp_prec;

/* CP_ERR_NOMEM or CP_OK; release with cp_prec_release even on failure. */
int cp_prec_init(cp_prec *g, const cp_input *in);
void cp_prec_release(cp_prec *g);
/* A topological order of the jobs (the loader refuses cycles) into
 * order[n_jobs]; false on out of memory. */
bool cp_prec_topo(const cp_input *in, int *order);
/* The root of x in the union-find forest up (up[r] == r at a root), with
 * path halving: the precedence components of the Lagrangian's DP and of
 * POP's parts. */
int cp_prec_find(int *up, int x);

/* The window precedence leaves job j in the choices mode[]/start[] (mode
 * -1: dropped) of the other jobs, the jobs with skip[k] != 0 (skip may be
 * NULL) counting as absent: j may start at s >= *est with its run ending
 * by *lend (s + slots <= lend; INT_MAX without a running successor).
 * False when a predecessor that counts is dropped (j cannot run). */
bool cp_prec_window(const cp_prec *g, const cp_modeset *ms, const int *mode, const int *start,
                    const unsigned char *skip, int j, int *est, int *lend);
/* Whether a runs before b along some chain of edges (a != b). */
bool cp_prec_ancestor(const cp_prec *g, int a, int b);
/* Whether job j has a successor with mode[k] >= 0 and skip[k] == 0. */
bool cp_prec_has_running_succ(const cp_prec *g, const int *mode, const unsigned char *skip, int j);

/* Masks of cp_prec_best: a job that is absent (its choice does not count
 * for the windows, as if not yet decided); one that is also pending will
 * be decided after the job being placed. */
enum { CP_PREC_ABSENT = 1, CP_PREC_PENDING = 2 };

/* A choice of cp_prec_best: the run (mode, start) and its added cost,
 * what it scores (the cost, or the score under pr/share, plus what its
 * pending successors would cost after it), and what dropping the job
 * instead loses (its penalty plus its pending successors'). */
typedef struct cp_prec_pick {
    int mode, start;
    double cost, score, drop;
} cp_prec_pick;

/* The best run of job j (out of u) within its window in mode[]/start[]
 * (mask[k] != 0: job k absent; NULL: none): cp_usage_best_in, or, when j
 * has successors with mask CP_PREC_PENDING|CP_PREC_ABSENT, each column
 * ranked by its exact cost plus every such successor's cheapest run
 * after it (or its penalty), so a predecessor does not take the cheap
 * late slot that leaves its successor no room. False when j cannot run
 * (a predecessor dropped, or nothing fits); pk->drop is set either way. */
bool cp_prec_best(cp_prec *g, const cp_usage *u, const int *mode, const int *start,
                  const unsigned char *mask, int j, const cp_prices *pr, bool share, cp_prec_pick *pk);

/* Makes the choices mode[]/start[] (held in u) keep precedence, in
 * topological order: a job whose predecessor is dropped is dropped; one
 * that starts before a predecessor ends moves to its cheapest run in its
 * window when that costs less than its penalty, else is dropped. Returns
 * the number of jobs changed. */
int cp_prec_enforce(const cp_prec *g, cp_usage *u, int *mode, int *start);

/* precedence.c's pair moves and chain insertion (which the repair runs
 * after it) on a plan that keeps precedence, held in u: each edge's two
 * jobs moved to their cheapest pair of runs, a dropped job put back with
 * its ancestors, only when the plan gets cheaper. The plan must cover
 * the whole problem (no scope). Returns the moves made, -1 out of memory. */
int cp_plan_pair_moves(cp_plan *p, cp_usage *u);

#endif
