/* What every solve method shares: options, the clock, progress lines and
 * the plan-independent cost. The table of methods is solvers/methods/registry.c. */
#include "cp_solver.h"

#include "cp_cost.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void cp_solve_opts_init(cp_solve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->time_limit = 60;
    o->gap = 1e-4;
    /* the one default of --threads: every core (plans never depend on it) */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cores > 0 && cores <= 1024 ? (int)cores : 1;
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
    if (!o->log || !o->progress)
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
    cp_progress_best(o, total);
    cp_solver_log(o, "incumbent %.10g at %.2f s", total, cp_now_seconds() - o->t_start);
}

double cp_solve_started(const cp_solve_opts *o)
{
    return o->t_start > 0 ? o->t_start : cp_now_seconds();
}

double cp_solve_deadline(const cp_solve_opts *o)
{
    return cp_solve_started(o) + o->time_limit;
}

bool cp_solve_is_late(const cp_solve_opts *o)
{
    return (o->stop && *o->stop) || cp_now_seconds() >= cp_solve_deadline(o);
}

double cp_solver_phase_seconds(const cp_solve_opts *o, double share)
{
    double left = cp_solve_deadline(o) - cp_now_seconds();
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
    /* a re-plan's changes: P per changeable job, less P where a plan keeps
     * OLD's choice (that mode's `change`, capplan.5 §10.5) */
    if (ms->replan)
        c += cp_replan_change_base(ms->replan);
    return c;
}
