/* The table of solve methods and their shared small helpers. */
#include "cp_solver.h"

#include "cp_cost.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const cp_solver_ops *const cp_solvers[] = {&cp_solver_auto, &cp_solver_milp, &cp_solver_heuristic,
                                           &cp_solver_lagrange, &cp_solver_pop, NULL};

const cp_solver_ops *cp_solver_find(const char *name)
{
    for (int i = 0; cp_solvers[i]; i++)
        if (!strcmp(cp_solvers[i]->name, name))
            return cp_solvers[i];
    return NULL;
}

void cp_solve_opts_init(cp_solve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->time_limit = 60;
    o->gap = 1e-4;
    o->threads = 1;
    o->seed = 1;
}

double cp_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cp_solver_log(const cp_solve_opts *o, const char *fmt, ...)
{
    if (!o->log)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->log(o->log_arg, line);
}

void cp_solver_log_model(const cp_solve_opts *o, const char *what, long rows, long cols, long bins,
                         long nnz)
{
    if (nnz < 0)
        cp_solver_log(o, "%s: rows=%ld cols=%ld bins=%ld", what, rows, cols, bins);
    else
        cp_solver_log(o, "%s: rows=%ld cols=%ld bins=%ld nonzeros=%ld", what, rows, cols, bins, nnz);
}

void cp_solver_log_incumbent(const cp_solve_opts *o, double total)
{
    cp_solver_log(o, "incumbent %.10g at %.2f s", total, cp_now_seconds() - o->t_start);
}

double cp_solver_phase_seconds(const cp_solve_opts *o, double share)
{
    double t0 = o->t_start > 0 ? o->t_start : cp_now_seconds();
    double left = o->time_limit - (cp_now_seconds() - t0);
    if (left < 0)
        left = 0;
    return o->node_limit > 0 ? left : share * left;
}

double cp_fixed_cost(const cp_input *in, const cp_modeset *ms)
{
    double c = 0;
    for (int s = 0; s < in->n_sites; s++)
        for (int t = 0; t < in->slots; t++)
            c += in->sites[s].pue * cp_site_baseline_w(in, s, t) * in->slot_hours / 1000 *
                 cp_site_kwh_cost(in, s, t);
    for (int j = 0; j < in->n_jobs; j++)
        if (ms->job_first[j] == ms->job_first[j + 1])
            c += in->jobs[j].drop_penalty;
    return c;
}
