/*
 * What the method files share with each other but not with callers: the
 * scope of a sub-problem (POP's parts), the construction and local
 * search, the MILP on a scope, the Lagrangian bound and the LP bound by
 * column generation.
 */
#ifndef CP_SOLVER_INTERNAL_H
#define CP_SOLVER_INTERNAL_H

#include "cp_solver.h"
#include "cp_usage.h"

/* A sub-problem: the jobs with active[j] != 0 (NULL: all), with a share
 * `scale` of every capacity (1: the whole problem). */
typedef struct cp_scope {
    double scale;
    const unsigned char *active;
} cp_scope;

/* Greedy construction in slack and regret order (choosing by cost plus
 * the opportunity cost under `pr` when not NULL), then local search; the
 * cheapest result goes into plan (status feasible, or infeasible when the
 * baseline alone breaks a cap or the budget). *total gets its total (capplan.5 §4)
 * within the scope (the jobs outside it count as neither run nor dropped). */
int cp_heuristic_scoped(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                        const cp_scope *sc, const cp_prices *pr, cp_plan *plan, double *total,
                        cp_err *err);
/* Improves a feasible plan on the whole problem: re-inserts dropped jobs
 * where they fit and pay, then moves jobs one at a time to their best
 * (mode, start) until a pass gains nothing or the time is up. */
int cp_improve(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, cp_plan *plan,
               double *total, cp_err *err);
/* Large neighbourhood search on a feasible plan of the whole problem:
 * at most `iterations` destroy-and-repair steps and `stall` steps
 * without a gain, until `deadline`; with prices `pr` (or NULL) some
 * re-insertions choose by cost plus opportunity cost; it stops early when
 * the plan is within opts->gap of `bound` (-INFINITY: none)
 * (cp_now_seconds clock) or a stop; seeded by opts->seed. *total gets
 * the plan's total (capplan.5 §4). */
int cp_lns(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, const cp_prices *pr,
           double bound, long iterations, long stall, double deadline, cp_plan *plan, double *total,
           cp_err *err);
/* The default stall count: 2,000 steps per job, at least 100,000. */
long cp_lns_stall(const cp_input *in);
/* The steps cp_lns may take: unbounded (the clock decides) unless a
 * node limit makes the run deterministic. */
long cp_lns_budget(const cp_solve_opts *opts);
/* The bound of CBC's root cutting planes (no heuristics, no branching)
 * on the exported model (cp_milp_export's), CBC run as a separate
 * program until deadline (cp_now_seconds clock); *bound NAN when it gave
 * none. CP_ERR_IO when cbc cannot be run. */
int cp_milp_root_bound(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                       double deadline, double *bound, cp_err *err);

/* The MILP on a scope, warm-started from `warm` (feasible in the scope, or
 * NULL). Fills plan's choices (scope jobs only), status, objective and
 * bound. */
int cp_milp_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                const cp_scope *sc, const cp_plan *warm, cp_plan *plan, cp_err *err);

/* capplan.5 §10.4: the MILP of the services around the jobs of `jobs`, each
 * kept at its mode (and, on large inputs, its start) or dropped
 * (milp_glpk.c), warm-started from `warm` (NULL: none). */
int cp_milp_around(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                   const cp_plan *jobs, const cp_plan *warm, cp_plan *plan, cp_err *err);
/* The same with every job kept at its start too. */
int cp_milp_around_fixed(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                         const cp_plan *jobs, const cp_plan *warm, cp_plan *plan, cp_err *err);
/* services_greedy.c: p's services (n, f, u, and y for the jobs and
 * them) by a greedy around p's jobs; *ok when the plan is feasible. */
int cp_services_greedy(cp_plan *p, bool *ok, char *why, size_t why_size);
/* p's replicas and shares kept, each class's unserved share routed as the
 * greedy routes (the room left by p's jobs and replicas, the power caps),
 * min_replicas made up; *ok: p is then feasible. CP_ERR_NOMEM. */
int cp_services_complete(cp_plan *p, bool *ok);
/* order[0..n): the services 0..n-1 by key, the largest first, ties by
 * index, so the order is the same whatever qsort does with equal keys
 * (the identity order when memory runs out). */
void cp_services_by_key(const double *key, int n, int *order);
/* services_search.c: p's services (with its jobs kept) improved a few
 * services at a time by a MIP over all slots each, every group's answer
 * kept when p stays feasible and its total (*total in, and out) falls;
 * until a round gains nothing or opts' deadline or stop. CP_ERR_NOMEM. */
int cp_services_search(const cp_solve_opts *opts, cp_plan *p, double *total);
/* The options of the jobs' search of a method that plans the services
 * after it (cp_services_after): with services, the time limit less the
 * services' share of it; otherwise opts. */
cp_solve_opts cp_services_jobs_opts(const cp_input *in, const cp_solve_opts *opts);
/* A method's search of the jobs alone (its plan, on `in`'s jobs). */
typedef int (*cp_jobs_search)(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                              cp_plan *plan, void *ctx, cp_err *err);
/* services_reserve.c: `in` less the room a first plan of its services
 * alone takes (pool nodes, market quotas, power, budget), for the jobs'
 * search; *view NULL when there is nothing to keep (no services, no jobs,
 * or the services' greedy plan is infeasible). CP_ERR_NOMEM. */
int cp_services_view_new(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                         cp_input **view, cp_err *err);
void cp_services_view_free(cp_input *view);
/* The jobs' search of a method that plans the services after it, on
 * cp_services_view_new's view of `in` (or `in` itself) with
 * cp_services_jobs_opts' time: plan gets its jobs' choices, units,
 * status and objective (a job the view dropped put back where it pays),
 * and with services the bound of the joint LP (lp_colgen_svc.c) from
 * them, when better than the search's own. */
int cp_services_jobs(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                     cp_jobs_search search, void *ctx, cp_plan *plan, cp_err *err);
/* The services of an input planned around a method's plan of its jobs
 * (services_after.c): plan's jobs keep their modes (a job is dropped only
 * where the services leave it no room), its services and y are the MILP's
 * around them, with a time of its own (a share of the limit, at least
 * what is left). Nothing for an input without services. */
int cp_services_after(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                      cp_plan *plan, cp_err *err);
/* Whether no row of the MILP holds both a job's and a service's column:
 * every deployment on a market of an offer no job mode uses, no budget
 * that counts a service, not a re-plan (services_after.c). */
bool cp_services_apart(const cp_input *in, const cp_modeset *ms);
/* cp_services_after for services apart from the jobs: every job keeps its
 * mode and start, at a cost of `fixed` (NAN: not known), and the MILP's
 * gap is the services' part's; *bound and *optimal are the MILP's around
 * them (a bound of the jobs' fixed cost plus the services'; NAN when
 * none). */
int cp_services_after_fixed(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                            cp_plan *plan, double fixed, double *bound, bool *optimal, cp_err *err);
/* A night of services alone too large for the joint LP in a run
 * (services_after.c): the services' search gets its time, not a MILP. */
bool cp_services_alone(const cp_input *in, const cp_modeset *ms);

/* Lagrangian relaxation of the capacity and power rows (subgradient). */
typedef struct cp_lagrange {
    double bound;   /* best lower bound on the total, -INF if none */
    double *cap;    /* [n_res*3*T] multipliers at the best bound */
    double *power;  /* [n_sites*T] */
    int iterations;
} cp_lagrange;
/* Runs until `seconds` pass, the gap to `upper` is at most opts->gap, or
 * the step vanishes. `upper` is a known plan's total (INF if none). */
int cp_lagrange_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts,
                    double upper, double seconds, cp_lagrange *out, cp_err *err);
void cp_lagrange_release(cp_lagrange *l);
/* The LP relaxation of the exported model (cp_milp_export's rows and
 * columns, x and z continuous) by column generation (lp_colgen.c). */
typedef struct cp_lpcg {
    double bound;      /* best lower bound on the total (Lagrangian
                        * value at the duals priced), -INF if none */
    double value;      /* the last restricted master's value: the LP
                        * optimum when exact, above it otherwise; NAN if none */
    bool exact;        /* no column priced out (or the bound met the value
                        * within 1e-8 relative): value is the LP optimum */
    bool infeasible;   /* the LP has no solution */
    int rounds;        /* master solves */
    long columns;      /* x columns in the master at the end */
    long all_columns;  /* x columns of the exported model */
    long iterations;   /* simplex iterations, all rounds */
    double seconds;
    /* the LP of the exported model alone, before any lifting row */
    bool lp_exact;     /* solved: lp_value is its optimum */
    double lp_value;   /* NAN when not solved */
    double lp_bound;   /* the bound when it was solved (= lp_value but for rounding) */
    int cut_rows;      /* lifting rows added (lp_colgen_cuts.c); bound and
                        * value are then those of the lifted LP */
    int job_rows;      /* of which job rows, */
    int rounding_rows; /* rounding rows, the rest big-share rows */
    /* the last master's solution when it was solved (the lifted LP's
     * when exact), for the search (cp_prices.lp); first NULL: none.
     * Freed by cp_lpcg_release. */
    cp_lp_sol sol;
    /* capplan.5 §10.4: the last master's replicas n(d,t) [n_deps*T] when
     * it was solved, NULL otherwise or without services; freed by
     * cp_lpcg_release */
    double *svc_n;
} cp_lpcg;
/* Runs until the LP is solved (then, with `lift`, until no lifting row
 * is violated and the lifted LP is solved too), `seconds` pass, the stop flag or the
 * round limit; `seed` (a feasible plan or NULL) gives the first columns
 * and basis, `center` (Lagrange multipliers of every capacity row, pools
 * and markets, and of the power rows, or NULL) the first duals, so the
 * bound starts at theirs. Errors: CP_ERR_NOMEM only; an unfinished run
 * is a weaker bound. */
int cp_lpcg_run(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, const cp_plan *seed,
                const cp_prices *center, bool lift, double seconds, cp_lpcg *out, cp_err *err);
void cp_lpcg_release(cp_lpcg *out);
/* The reduced cost in the LP of job j's choice (m, s) (m -1: its drop
 * column) at the duals of the master that gave sol, priced by the
 * column generation's own pricing (lp_colgen_price.c), with the job's
 * assignment dual: what the choice costs above what the LP's prices say
 * it is worth, >= 0 (to the LP's tolerances) at the LP's optimum. 0 when
 * sol has none. */
double cp_lp_sol_rc(const cp_lp_sol *sol, const cp_modeset *ms, int j, int m, int s);

/* Where a plan's bound comes from, for --progress ("bound: ..."). */
typedef enum {
    CP_BOUND_NONE,
    CP_BOUND_LAGRANGIAN, /* the subgradient's best */
    CP_BOUND_LP,         /* column generation: the exact LP optimum */
    CP_BOUND_LP_PARTIAL, /* column generation stopped early: its Lagrangian value */
    CP_BOUND_MILP,       /* branch-and-cut's tree */
    CP_BOUND_LIFTED,     /* column generation on the LP with lifting rows
                          * (valid for placed plans, capplan.5 §5): above the LP */
    CP_BOUND_ROOT        /* CBC's root cutting planes on the exported model */
} cp_bound_kind;
const char *cp_bound_kind_text(cp_bound_kind k);

/* The Lagrangian stage (lagrange_plan.c) on the full problem: greedy,
 * subgradient bound and prices, the LP by column generation from them,
 * the priced greedy, then LNS until `stall` steps without a gain or
 * `lns_share` of the time left; sets plan->bound (the better of the two
 * bounds; *kind says which) and plan->objective. */
int cp_lagrange_plan(const cp_input *in, const cp_modeset *ms, const cp_solve_opts *opts, long stall,
                     double lns_share, cp_plan *plan, cp_bound_kind *kind, cp_err *err);

#endif
