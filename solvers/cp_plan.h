/*
 * A plan (capplan.5 §3 and 5): for each job a (mode, start slot) or "dropped",
 * for each market and slot the number of instances rented, the concrete
 * node/instance ids of each scheduled job, and what the solver reported.
 * Every figure written to a plan file is derived from these choices by
 * cp_plan_eval (capplan.5 §4 formulas), never taken from solver internals, so
 * a plan re-costs to itself.
 */
#ifndef CP_PLAN_H
#define CP_PLAN_H

#include "cp_cost_parts.h"
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_replan.h"

typedef enum {
    CP_STATUS_OPTIMAL,
    CP_STATUS_FEASIBLE,
    CP_STATUS_INFEASIBLE,
    CP_STATUS_INTERRUPTED,
    CP_STATUS_NOPLAN /* time limit reached with no plan (exit 4) */
} cp_plan_status;

typedef struct cp_plan {
    const cp_input *in;    /* borrowed */
    const cp_modeset *ms;  /* borrowed */
    int n_jobs, n_res, slots;
    int *mode;    /* [n_jobs] global mode index, -1 when dropped */
    int *start;   /* [n_jobs] start slot */
    int *y;       /* [n_res * slots]: instances rented; 0 for pools */
    char **reason;       /* [n_jobs] why a job is dropped (owned), or NULL */
    int **units;         /* [n_jobs] node/instance indices on the resource */
    int *n_units;        /* [n_jobs] */
    char *note;          /* what placement repair changed, or NULL */
    /* capplan.5 §10.4: replicas n(d,t) per deployment and slot, shares
     * f(k,d,t) per share index (ms->dep_share) and slot, unserved shares
     * u(k,t) per global class (ms->class_first) and slot; all 0 in a
     * plan of an input without services */
    int *svc_n;      /* [n_deps * slots] */
    double *svc_f;   /* [n_shares * slots] */
    double *svc_u;   /* [n_classes * slots] */
    /* the node or instance of each replica, once placed: those of
     * deployment d in slot t are svc_unit[svc_unit_off[d*slots+t] ..
     * svc_unit_off[d*slots+t+1]); NULL when not placed */
    int *svc_unit;
    size_t *svc_unit_off; /* [n_deps * slots + 1] */
    bool placed;         /* units hold the packing of the current choices */
    bool pool_units;     /* units of pool jobs hold a packing (markets: not yet) */

    cp_plan_status status;
    char method[32];
    const char *mip_engine; /* "cbc" when the method's MIPs went to CBC (static
                             * text; the solver block's mip_engine), else NULL: GLPK */
    double seconds;
    double objective;    /* as the solver saw it (re-costed by eval) */
    double bound;        /* best lower bound, NAN when none */
    const char *bound_kind; /* what that bound is (static text; not in
                             * capplan.5 §5's file, so the summary says it), or NULL */
    double gap;          /* relative, NAN when unknown */
} cp_plan;

int cp_plan_new(const cp_input *in, const cp_modeset *ms, cp_plan **out);
void cp_plan_free(cp_plan *p);
/* Copies choices (mode, start, y) from src to dst (same input); dst's
 * units no longer describe them (pool_units and placed cleared). */
void cp_plan_copy_choices(cp_plan *dst, const cp_plan *src);
/* Choices and units (the pool packing travels with them); CP_ERR_NOMEM. */
int cp_plan_copy(cp_plan *dst, const cp_plan *src);
/* Copies every job's units and the pool_units flag; CP_ERR_NOMEM. */
int cp_plan_copy_units(cp_plan *dst, const cp_plan *src);
/* Sets y to the fewest instances that hold the scheduled jobs' demand on
 * each market in each slot (the cheapest y for fixed job choices). */
void cp_plan_min_instances(cp_plan *p);
/* A re-plan (ms->replan) keeps OLD's instances and services' replicas,
 * shares and unserved shares before S: sets y, svc_n, svc_f and svc_u
 * there (cp_plan_min_instances, placement and the services' searches
 * call it; no-op otherwise). */
void cp_plan_keep_history(cp_plan *p);
/* Job j's choice in the terms of cp_replan.h (res -1: dropped). */
void cp_plan_choice(const cp_plan *p, int j, cp_replan_choice *c);
/* The jobs whose choice changes OLD's at a slot >= S (capplan.5 §10.5);
 * 0 when the plan is not a re-plan. */
int cp_plan_changed(const cp_plan *p);
/* The conditions of cp_cost_when that the plan meets (a re-plan adds
 * CP_COST_IF_REPLAN). */
unsigned cp_plan_cost_when(const cp_plan *p);
static inline int *cp_plan_y(const cp_plan *p, int res, int t)
{
    return &p->y[(size_t)res * p->slots + t];
}
/* capplan.5 §10.4: replicas of deployment d in slot t; the share of
 * class k (of d's service) that d takes in t; the unserved share of
 * class k of service v in t. */
static inline int *cp_plan_n(const cp_plan *p, int d, int t)
{
    return &p->svc_n[(size_t)d * p->slots + t];
}
static inline double *cp_plan_f(const cp_plan *p, int d, int k, int t)
{
    return &p->svc_f[(size_t)(p->ms->dep_share[d] + k) * p->slots + t];
}
static inline double *cp_plan_u(const cp_plan *p, int v, int k, int t)
{
    return &p->svc_u[(size_t)(p->ms->class_first[v] + k) * p->slots + t];
}

/* Figures of capplan.5 §4-5, computed from the plan's choices. */
typedef struct cp_plan_figures {
    cp_costs costs;           /* egress: Σ over scheduled jobs of their mode's egress */
    double *job_energy_kwh;   /* [n_jobs] */
    double *job_cost;         /* [n_jobs]: capplan.5 §10.1, 0 for dropped jobs */
    double *market_cost;      /* [n_res] (0 for pools) */
    double *util;             /* [n_pools * 3 * slots]: pool, dim, slot */
    double *site_power_kw;    /* [n_sites * slots] */
    double *site_energy_kwh;  /* [n_sites] billed (on-prem) energy */
    double *site_carbon_kg;   /* [n_sites] pools and offers with this site */
    /* capplan.5 §10.2, the plan's `teams`: per team, the sum of its
     * scheduled jobs' costs, in job order, and of their accelerators ×
     * hours of the run (the last slot's fraction included) */
    double *team_cost;        /* [n_teams] */
    double *team_acc_hours;   /* [n_teams] */
    double *svc_cost;         /* [n_services]: capplan.5 §10.1, §10.4 */
    double *svc_unserved;     /* [n_services]: requests not served, Σ λ·u·3600·h */
} cp_plan_figures;

int cp_plan_eval(const cp_plan *p, cp_plan_figures *f, cp_err *err);
void cp_plan_figures_release(cp_plan_figures *f);

/* The busy W (before PUE) of deployment d in slot t: its busy_w times the
 * load it takes over its rates (capplan.5 §10.4; 0 off pools). */
double cp_plan_dep_busy_w(const cp_plan *p, int d, int t);
/* cp_plan_eval's part for services (plan_services.c): adds their busy W
 * (before PUE) into f->site_power_kw, their demand into f->util, their
 * starts and unserved requests into f->costs and f->svc_*; returns the
 * sum of the services' costs. */
double cp_plan_svc_eval(const cp_plan *p, cp_plan_figures *f);
/* What service v spends (capplan.5 §10.1 without unserved requests: what
 * a team's budget counts). */
double cp_plan_svc_spend(const cp_plan *p, int v);
/* Rounds every share and unserved share to the figure the plan file
 * writes (cp_num_fig; within 1e-9 of 0 or 1, that bound), so that the
 * plan's figures are those of its file read back: a re-plan that keeps
 * OLD's services (read from OLD's file) then writes OLD's figures to the
 * last digit. */
void cp_plan_round_shares(cp_plan *p);
/* The service rows of capplan.5 §10.4 (shares, capacity, min_replicas) to
 * 1e-6; the first broken one in words into why. */
bool cp_plan_services_ok(const cp_plan *p, char *why, size_t why_size);
/* Checks capplan.5 §3 feasibility of the choices (aggregate capacities, quotas,
 * power caps, budget, and the service rows of §10.4). Returns true when feasible; otherwise writes the
 * first violation in words to why (when not NULL). */
bool cp_plan_is_feasible(const cp_plan *p, char *why, size_t why_size);

const char *cp_plan_status_name(cp_plan_status s);

#endif
