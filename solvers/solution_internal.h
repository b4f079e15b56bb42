/* What solution_read.c shares with solution_plan.c (cp_solution.h). */
#ifndef CP_SOLUTION_INTERNAL_H
#define CP_SOLUTION_INTERNAL_H

#include "cp_solution.h"

typedef struct sol {
    const cp_input *in;
    const cp_modeset *ms;
    cp_plan *plan;
    cp_solution *info;
    cp_diags *d;
    const char *path;
    int *x_line;    /* [n_jobs] line of the x at 1 (-1 none; 0 no line) */
    int *drop_line; /* [n_jobs] line of drop_J at 1, -1 none */
    int *y_line;    /* [n_res*T] line of y_R_T, -1 none */
    int fixed_line;
} sol;

/* A position in the solution file. */
cp_pos cp_sol_at(const sol *c, int line, int col);
/* Reads a plan file (`text`, `len` bytes) into c->plan's choices: a
 * job's line in x_line when scheduled; errors in c->d. Returns CP_OK,
 * CP_ERR_INPUT or CP_ERR_NOMEM. */
int cp_sol_read_plan(sol *c, const char *text, size_t len);

#endif
