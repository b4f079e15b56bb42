/* What the solution readers share: solution_read.c, solution_plan.c and
 * solution_svc.c (cp_solution.h). */
#ifndef CP_SOLUTION_INTERNAL_H
#define CP_SOLUTION_INTERNAL_H

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

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
/* Whether s is exactly n non-negative decimal integers (at most 1e9)
 * joined by '_', as the model's column names carry them; into v.
 * Inline so the jobs' reader and the services' reader share it without
 * calling each other. */
static inline bool cp_sol_parse_ints(const char *s, int n, long *v)
{
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)*s))
            return false;
        errno = 0;
        char *end;
        v[i] = strtol(s, &end, 10);
        if (errno || v[i] > 1000000000L)
            return false;
        s = end;
        if (i + 1 < n && *s++ != '_')
            return false;
    }
    return *s == '\0';
}
/* Reads a plan file (`text`, `len` bytes) into c->plan's choices: a
 * job's line in x_line when scheduled; errors in c->d. Returns CP_OK,
 * CP_ERR_INPUT or CP_ERR_NOMEM. */
int cp_sol_read_plan(sol *c, const char *text, size_t len);

/* Services (capplan.5 §10.4, solution_svc.c). cp_sol_svc_var: a
 * service column of the exported model (n_D_T, f_I_T, u_V_K_T,
 * start_D_T) into c->plan, errors in c->d; false when the name is none.
 * cp_sol_svc_row: whether a name is one of the model's service rows.
 * cp_sol_svc_read_plan: a plan file's `services` into c->plan.
 * cp_sol_svc_close: shares clipped to add up to at most 1 per class and
 * slot, the unserved share what they leave. */
struct cp_plan_file;
bool cp_sol_svc_var(sol *c, const char *name, double val, cp_pos pos);
bool cp_sol_svc_row(const char *name);
void cp_sol_svc_read_plan(sol *c, const struct cp_plan_file *pf);
void cp_sol_svc_close(sol *c);

#endif
