/*
 * Drop reasons that name the real cause (solvers/explain_why.c), for
 * explain.c. Internal to solvers/.
 */
#ifndef CP_EXPLAIN_H
#define CP_EXPLAIN_H

#include "cp_buf.h"
#include "cp_usage.h"

/* The earliest start of job j after its scheduled predecessors' planned
 * ends (capplan.5 §9.2), 0 when it has none; *by gets the predecessor that
 * ends last (-1: none). */
int cp_explain_est(const cp_plan *p, int j, int *by);
/* Cheapest (mode, start) of job j that fits in u from slot est on: what
 * cp_usage_best finds, but not before its predecessors end. */
bool cp_explain_best(const cp_plan *p, const cp_usage *u, int j, int est, int *mode, int *start,
                     double *delta);
/* When no (mode, start) of j fits from est on: appends the reason in
 * words to b (maintenance, quota, power cap, the capacity other jobs
 * hold and which, the budget, or the window after precedence), each
 * with its slots. CP_OK or CP_ERR_NOMEM. */
int cp_explain_blocked(const cp_plan *p, const cp_usage *u, int j, int est, int by, cp_buf *b);
/* Why mode m of job j fits at no start s with est <= s and s + its slots
 * <= lend beside the jobs in u: the causes of cp_explain_blocked for that
 * mode alone, or that its window leaves no such start. CP_OK or
 * CP_ERR_NOMEM. */
int cp_explain_mode_blocked(const cp_plan *p, const cp_usage *u, int j, int m, int est, int lend,
                            cp_buf *b);

#endif
