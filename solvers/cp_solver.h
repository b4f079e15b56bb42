/*
 * Solve methods behind one table of function pointers (SCIP's plugins):
 * adding a method is one new file in solvers/methods/ and one name in
 * CP_METHODS (solvers/methods/cp_methods.h).
 * A method fills a cp_plan's choices (mode, start, y), its status and the
 * solver figures; "infeasible" is a status, not an error.
 */
#ifndef CP_SOLVER_H
#define CP_SOLVER_H

#include "cp_plan.h"
#include "cp_progress.h"

#include <signal.h>
#include <stdbool.h>

/* Which program solves the MILPs a method hands out (the search's
 * sub-MIPs, the small nights' branch-and-cut): GLPK, linked in, or CBC,
 * run as a separate program (solvers/mip_cbc.c; docs/performance.md,
 * "MIP engines"). */
typedef enum cp_mip_engine {
    CP_MIP_GLPK = 0,
    CP_MIP_CBC
} cp_mip_engine;

/* "glpk", "cbc". */
const char *cp_mip_engine_name(cp_mip_engine e);
/* The engine `auto` stands for here: CBC when the `cbc` program is on
 * PATH, else GLPK. */
cp_mip_engine cp_mip_engine_auto(void);

typedef struct cp_solve_opts {
    double time_limit;  /* seconds of search (wall clock) */
    double gap;         /* stop when the relative gap is at most this */
    int threads;        /* methods that parallelize use at most this many */
    unsigned long seed; /* for randomized steps; same seed, same plan */
    long node_limit;    /* deterministic limit on B&B nodes; <= 0: none */
    cp_mip_engine mip_engine; /* branch-and-cut of a night: GLPK (the default) or CBC */
    cp_mip_engine sub_engine; /* the search's sub-MIPs: GLPK (the default) or CBC */
    const char *export_lp; /* write the MILP there (CPLEX LP), NULL: no */
    const volatile sig_atomic_t *stop; /* set asynchronously to interrupt */
    /* progress lines (no newline) and notes; NULL: silent */
    void (*log)(void *arg, const char *line);
    void *log_arg;
    /* the solvers' own lines (cp_solver_log) through log: --progress=debug */
    bool progress;
    /* cp_plan_solve's heartbeat through log every this many seconds
     * (cp_progress.h); 0: none */
    double heartbeat;
    /* the running heartbeat the phases report to; NULL: none. Set by
     * cp_plan_solve; a method that runs parts of the night on copies of
     * its options clears it there. */
    struct cp_progress *beat;
    double t_start; /* cp_now_seconds() when planning began; 0: set by cp_plan_solve */
} cp_solve_opts;

void cp_solve_opts_init(cp_solve_opts *o);

typedef struct cp_solver_ops {
    const char *name;
    const char *description;
    int (*solve)(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                 cp_plan *plan, cp_err *err);
    /* plans services (capplan.5 §10.4); cp_plan_solve refuses an input
     * with services for a method that does not, rather than leave them out */
    bool services;
} cp_solver_ops;

/* The whole pipeline after modes, as `plan` runs it: ops->solve (whose
 * plan gets ops->name as its method unless the method named itself, and
 * the seconds it took), then
 * placement and repair (unless the method placed the plan), reasons for
 * drops, and status `interrupted` when opts->stop is set. The plan's
 * status says what was found (noplan, infeasible, ...); errors are
 * returned. */
/* An input with services planned by a method that cannot plan them:
 * CP_ERR_INPUT at the first service, naming the method; else CP_OK. */
int cp_solver_check_services(const cp_input *in, const cp_solver_ops *ops, cp_err *err);
int cp_plan_solve(const cp_input *in, const cp_modeset *ms, const cp_solver_ops *ops,
                  const cp_solve_opts *so, cp_plan *plan, cp_err *err);
/* A re-plan (ms->replan): replaces the placed plan's choices and units by
 * OLD's when those are feasible under the re-plan's modes and cost no more
 * (within 1e-9 relative); *taken says whether it did. No-op otherwise. */
int cp_replan_prefer_old(cp_plan *plan, bool *taken, cp_err *err);
/* A re-plan whose inputs did not change since OLD (cp_replan.unchanged):
 * OLD's choices and units when they still hold under the re-plan's modes,
 * with OLD's bound (optimal when it proves the plan within o->gap), in
 * place of any search; *kept says whether it did. No-op otherwise. */
int cp_replan_keep_old(const cp_solve_opts *o, cp_plan *plan, bool *kept, cp_err *err);
/* Writes the time-indexed MILP (CPLEX LP format, atomically) whatever
 * the method; its optimum is the best plan's total (capplan.5 §4). */
int cp_milp_export(const cp_input *in, const cp_modeset *ms, const char *path, cp_err *err);
/* The reason written into an infeasible plan file. */
#define CP_INFEASIBLE_REASON                                                              \
    "the hard constraints contradict each other (a power cap below a site's idle "     \
    "baseline, or a budget below the baseline energy cost)"

/* Shared by methods: the greedy construction plus local search, used on
 * its own and as the MILP's first incumbent. Sets plan status to
 * infeasible when the plan-independent baseline already breaks a power
 * cap or the budget. */
int cp_heuristic_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                     cp_plan *plan, cp_err *err);
/* Plan-independent cost: baseline energy and carbon, and the penalties
 * of jobs without any mode. */
double cp_fixed_cost(const cp_input *in, const cp_modeset *ms);
double cp_now_seconds(void);
/* When planning began (opts->t_start, or now when unset), and the
 * wall-clock deadline of the whole time limit counted from there. */
double cp_solve_started(const cp_solve_opts *o);
double cp_solve_deadline(const cp_solve_opts *o);
/* The stop flag is set or the deadline has passed: no phase starts. */
bool cp_solve_is_late(const cp_solve_opts *o);
void cp_solver_log(const cp_solve_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Progress lines with a fixed shape that bench/run.sh reads:
 * "model: rows=R cols=C bins=B nonzeros=N", "reduced: ..." and
 * "incumbent TOTAL at T s" (T from o->t_start). */
void cp_solver_log_model(const cp_solve_opts *o, const char *what, long rows, long cols, long bins,
                         long nnz);
void cp_solver_log_incumbent(const cp_solve_opts *o, double total);
/* Seconds a phase may use: `share` of what is left of the time limit,
 * except under a node limit, where phases end by their own work limits
 * (so the run is reproducible) and only the whole limit applies. */
double cp_solver_phase_seconds(const cp_solve_opts *o, double share);

#endif
