/*
 * Incremental bookkeeping of a plan under construction: demand per
 * resource, dimension and slot, instances per market and slot, busy power
 * per site and slot, and the spend counted by the budget. The greedy
 * heuristic, local search and the drop explanations all insert and remove
 * jobs through it, so they share one notion of "fits" and "costs".
 */
#ifndef CP_USAGE_H
#define CP_USAGE_H

#include "cp_packing.h"
#include "cp_plan.h"
#include "cp_teams.h"

#include <signal.h>
#include <stdbool.h>

/* The search's deadline and stop flag as the loops over every start of
 * every mode see them (the best position of a job, the look-ahead over
 * its successors' curves, the regret of the order): each asks
 * cp_clock_late once a try, the clock is read every 64 asks, and once
 * late it stays late, so such a loop ends within 64 tries of the
 * deadline or a SIGINT/SIGTERM instead of after all of them. */
typedef struct cp_clock {
    double deadline;                   /* cp_now_seconds; INFINITY: none */
    const volatile sig_atomic_t *stop; /* NULL: none */
    unsigned asks;
    bool late;
} cp_clock;
void cp_clock_init(cp_clock *c, double deadline, const volatile sig_atomic_t *stop);
/* false for a NULL clock (a search without a limit: repair, reasons) */
bool cp_clock_late(cp_clock *c);

typedef struct cp_cand {
    int mode, start;
    double agg, score;
} cp_cand;

typedef struct cp_usage {
    const cp_input *in;
    const cp_modeset *ms;
    int T;
    double *use;        /* [n_res][3][T] */
    int *y;             /* [n_res][T] */
    double *busy;       /* [n_sites][T]: W·fraction before PUE */
    double *allow;      /* [n_sites][T]: busy W allowed by the cap, INF without */
    double *kwh_cost;   /* [n_sites][T]: $ per facility kWh (energy + carbon) */
    double *slot_cost;  /* [n_res][T]: $ per instance and slot */
    double spend;       /* cloud + energy + carbon, baseline included */
    /* a re-plan's changes (capplan.5 §10.5): P per changeable job plus the
     * placed runs' `change`; priced with spend, not budgeted */
    double change;
    double budget;      /* INF without a budget */
    double scale;       /* share of every capacity, quota, cap and budget (POP); 1 */
    /* Pool nodes and market instances (only when scale is 1): a mode fits
     * only where concrete units hold it, packed by the rule placement
     * uses too (cp_packing.h), so plans built here need no packing repair. */
    bool nodes;
    double **nfree;     /* [n_res] [unit][3][T] room left (-1: node down) */
    int **ncnt;         /* [n_res] markets: [unit][T] jobs on the instance; pools NULL */
    int *nunits;        /* [n_res] pool nodes; instance ids a market may ever need */
    cp_pack *pack;      /* [n_res] the units above as the packing rule sees them */
    int *qlim;          /* [n_res][T] markets: quota after the scale */
    int **junits;       /* [n_jobs] nodes or instances of a placed job (owned) */
    int *jn;            /* [n_jobs] */
    int *pick, *amount; /* scratch [max units] */
    cp_cand *cand;      /* scratch [most columns of a job] */
    unsigned char *dominated; /* [n_modes] modes another mode dominates (reduce.c); NULL: none */
    int n_dominated;
    /* capplan.5 §10: the team rows (quotas per slot, budgets; cp_teams.h) with the
     * scale's share of each, what the placed jobs hold of each, and
     * scratch for one column's coefficients */
    cp_teamrows teams;
    double *tuse;       /* [teams.n_rows] */
    int *trow;          /* [teams.max_coefs] */
    double *tval;       /* [teams.max_coefs] */
    /* NULL (cp_usage_init): searches over starts run to the end; the
     * heuristic's construction and local search set their own, so what
     * they cannot try in time is dropped (a plan needs every job decided) */
    cp_clock *clock;
} cp_usage;

/* What the placed runs cost, as every search compares plans: spend plus a
 * re-plan's changes (the drop penalties aside). */
static inline double cp_usage_objective(const cp_usage *u)
{
    return u->spend + u->change;
}

int cp_usage_init(cp_usage *u, const cp_input *in, const cp_modeset *ms);
/* The same with a share `scale` in (0,1] of every pool capacity, market
 * quota (rounded down), power-cap allowance and the budget above the
 * baseline: the capacities one part of a POP decomposition sees. */
int cp_usage_init_scaled(cp_usage *u, const cp_input *in, const cp_modeset *ms, double scale);
/* Capacity of resource r in dimension d and slot t (pools: available
 * nodes; markets: quota instances), after the scale. */
double cp_usage_cap(const cp_usage *u, int r, int d, int t);
/* Quota of market r in slot t after the scale. */
int cp_usage_quota(const cp_usage *u, int r, int t);
/* Whether mode m could start at s on otherwise empty resources (its
 * demand within capacity, its power within the cap, every slot). */
bool cp_usage_start_fits(const cp_usage *u, int m, int s);
void cp_usage_release(cp_usage *u);
/* True when the plan-independent baseline alone breaks a cap or the
 * budget; why gets the words. */
bool cp_usage_baseline_infeasible(const cp_usage *u, char *why, size_t size);
/* Can mode m start at s given what is placed? *delta gets the added cost. */
bool cp_usage_try(const cp_usage *u, int m, int s, double *delta);
/* The same, also reporting in words what blocks it (first found). */
bool cp_usage_try_why(const cp_usage *u, int m, int s, double *delta, char *why, size_t size);
void cp_usage_add(cp_usage *u, int m, int s);
void cp_usage_remove(cp_usage *u, int m, int s);
/* Adds mode m at s on the given pool nodes (a plan's units); false, and
 * nothing added, when they do not hold it. Markets and unscaled pools
 * without node tracking ignore the units. */
bool cp_usage_add_on(cp_usage *u, int m, int s, const int *units, int n);
/* The pool nodes job j holds now (count returned; 0 off pools). */
int cp_usage_job_units(const cp_usage *u, int j, const int **units);
/* Writes the nodes or instances of every scheduled job into plan->units
 * and sets plan->pool_units (the units hold a packing). */
int cp_usage_export_units(const cp_usage *u, cp_plan *plan);
/* Rebuilds u (fresh from cp_usage_init) from plan's choices, on the
 * plan's pool units when it has them; a job that no longer fits is
 * dropped from the plan (mode -1). Returns the number dropped. */
int cp_usage_load_plan(cp_usage *u, cp_plan *plan);
/* Cheapest feasible (mode, start) of job j; false when none fits. */
bool cp_usage_best(const cp_usage *u, int j, int *mode, int *start, double *delta);
/* A solution of the LP relaxation (lp_colgen.c): job j's columns of
 * positive value are [first[j], first[j+1]) of mode/start/value, the
 * largest value first; what is missing of 1 is its drop column. With
 * it, the reduced cost of every job's every choice at the same master's
 * duals (cp_lp_sol_rc, lp_colgen.c; rc NULL: not known). */
typedef struct cp_lp_sol {
    int *first; /* [n_jobs+1] */
    int *mode, *start;
    double *value;
    size_t *col_off; /* [n_modes+1] (mode m, start s) is column col_off[m] + s - s_min */
    double *rc;      /* [col_off[n_modes]] */
    double *rc_drop; /* [n_jobs] of the drop column */
} cp_lp_sol;
/* Prices of pool capacity and site power, [n_res*3*T] and [n_sites*T]
 * (Lagrange multipliers); entries of markets are ignored. lp: the LP's
 * solution when known (NULL otherwise), which the search's LP move
 * follows (lns_lp.c). */
typedef struct cp_prices {
    const double *cap;
    const double *power;
    const cp_lp_sol *lp;
} cp_prices;
/* Like cp_usage_best, choosing by added cost plus the priced capacity the
 * run takes (its opportunity cost); *delta is still the added cost. */
bool cp_usage_best_priced(const cp_usage *u, int j, const cp_prices *pr, int *mode, int *start,
                          double *delta);
/* Like cp_usage_best_priced (pr may be NULL), but a run on a market is
 * ranked by its share of the instances it takes (the fullest dimension
 * of one instance, every slot, at the slot's price; plus egress), as the
 * LP pays, instead of the instance-slots it adds: jobs go to the market
 * that is cheapest per unit of work and share instances there, not to
 * whichever has room left. *delta is still the added cost. */
bool cp_usage_best_shared(const cp_usage *u, int j, const cp_prices *pr, int *mode, int *start,
                          double *delta);
/* The one of the three above that (pr, share) names (cp_usage_best: NULL,
 * false), among the starts s >= est whose run ends by lend (s + slots <=
 * lend): the window precedence leaves a job (capplan.5 §9.2, cp_prec.h). */
bool cp_usage_best_in(const cp_usage *u, int j, const cp_prices *pr, bool share, int est, int lend,
                      int *mode, int *start, double *delta);

#endif
