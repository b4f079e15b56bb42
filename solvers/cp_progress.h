/*
 * The heartbeat of `plan --progress` (docs/search.md, "Progress"): while a
 * method runs, a line at a steady pace, "ELAPSED s  best $B  bound $L
 * gap G%  PHASE", what the search has at that moment: the cheapest plan
 * found, the best lower bound proved, the gap between them and what runs
 * (first plan, Lagrangian bound, LP bound, search, branch-and-cut,
 * placement). A thread of its own writes it through the solve options'
 * log callback, so a phase that sits in one long call (an LP solve, a
 * sub-MIP) does not silence it; the library never prints.
 *
 * The phases report through the solve options (cp_solve_opts.beat): the
 * calls are no-ops when it is NULL (no --progress, a part of pop, a
 * what-if row), cheap otherwise (a mutex), and safe from any thread.
 */
#ifndef CP_PROGRESS_H
#define CP_PROGRESS_H

#include <stddef.h>

struct cp_solve_opts;
typedef struct cp_progress cp_progress;

/* Starts the heartbeat: every `every` seconds a line through
 * log(arg, line), elapsed counted from t_start (cp_now_seconds). Returns
 * NULL when it cannot (out of memory, no thread): then there is no
 * heartbeat, and the plan is the same. */
cp_progress *cp_progress_start(void (*log)(void *, const char *), void *arg, double t_start,
                               double every);
/* Stops and joins the thread; frees p. NULL is fine. */
void cp_progress_stop(cp_progress *p);

/* What runs now (a string that lives as long as the run). */
void cp_progress_phase(const struct cp_solve_opts *o, const char *phase);
/* A plan of this total was found (the best is the least reported). */
void cp_progress_best(const struct cp_solve_opts *o, double total);
/* No plan costs less than this (the bound is the greatest reported). */
void cp_progress_bound(const struct cp_solve_opts *o, double bound);

/* The line: "%6.1f s  best $B  bound $L  gap G%  PHASE", with '-' for a
 * best, bound or gap not known yet (a NAN or infinite value). */
void cp_progress_format(char *out, size_t size, double elapsed, double best, double bound,
                        const char *phase);

#endif
