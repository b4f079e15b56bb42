/*
 * Shared by the plan verifier's files (see cp_verify.h, docs/verify.md):
 *   verify.c         the entry point and the report
 *   verify_msg.c     messages and plan-field checks, which the phases call
 *   verify_plan.c    the plan's jobs (one per input job, their modes) and
 *                    provisioning (y per market)
 *   verify_limits.c  per-slot limits of capplan.5 §3 (pools, markets, quotas,
 *                    power caps, budget)
 *   verify_place.c   concrete placement on nodes and instances (capplan.5 §5)
 *   verify_leases.c  the leases a plan lists (capplan.5 §5, version 1.1)
 *   verify_replan.c  a re-plan against OLD (capplan.5 §10.5)
 *   verify_cost.c    re-costing every capplan.5 §4 number of the plan
 *   verify_teams.c   teams' quotas and budgets (capplan.5 §10.2)
 *   verify_services.c services' rows, loads and costs (capplan.5 §10.4)
 * The phases run in that order over one context (cp_vf_ctx), which owns the
 * scratch arrays; the report owns the messages. The plan comes read by
 * models/cp_plan_read.h, whose format problems are the first violations;
 * every position in a message is one the reader kept.
 */
#ifndef CP_VERIFY_INTERNAL_H
#define CP_VERIFY_INTERNAL_H

#include "cp_buf.h"
#include "cp_modes.h"
#include "cp_plan_read.h"
#include "cp_verify.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define VF_REL_TOL 1e-6 /* re-costed numbers (capplan.5 §4: "1e-6 relative") */
#define VF_CAP_TOL 1e-9 /* capacities, caps, budget */

extern const char *const cp_vf_dim_name[CP_DIMS];

typedef struct cp_vf_job {
    const cp_plan_job *pj; /* the job's entry */
    int job;               /* input index */
    bool scheduled;
    int mode;            /* index into ms->modes, -1 when none matched */
    int res;             /* resource index, -1 when unknown */
    int start;
    bool counted;        /* mode and slots valid: adds to loads and costs */
    const cp_plan_strs *nodes; /* NULL when absent or not a list */
} cp_vf_job;

/* One job on one node or instance, `units` of its count. `label` is the
 * id's number as the plan writes it; `idx` the same for a pool node, and
 * for an instance its rank among the market's distinct labels (instance
 * ids are labels, version 1.1: any number, so the loads are kept per rank). */
typedef struct cp_vf_asg {
    int entry; /* cp_vf_job index; -1 for a service replica (capplan.5 §10.4) */
    int res, idx;
    long label;
    cp_pos id;
    double units;
    int t0, t1;           /* the slots it holds the unit: [t0, t1) */
    const char *name;     /* the job's or the service's, for messages and leases */
    double dem[CP_DIMS];  /* a replica's demand (jobs' come from their mode) */
} cp_vf_asg;

typedef struct cp_vf_ctx {
    const cp_input *in;
    cp_modeset *ms;
    cp_verify_report *rep;
    const cp_plan_file *pf;
    int T;
    double h;
    bool oom;

    cp_vf_job *jobs;
    int n_jobs;
    int *entry_of_job;        /* [n_jobs of the input]: plan entry, -1 */
    bool *dropped_job;        /* [n_jobs of the input] */
    long *y;                  /* [n_res * T] */
    const cp_plan_prov **prov; /* [n_res]: provisioning entry */
    double *load;             /* [(n_res * T) * CP_DIMS] */
    double *busy;             /* [n_sites * T]: busy W before PUE */
    cp_vf_asg *asg;
    int n_asg;
    size_t asg_cap;
    size_t *nl_off;           /* [n_res]: offset into nload, SIZE_MAX: none */
    int *nl_count;            /* [n_res]: nodes/instances tracked */
    long **nl_label;          /* [n_res]: markets' labels by rank (owned), NULL for pools */
    double *nload;            /* per (res, idx, t, dim) */
    /* a re-plan (capplan.5 §10.5): what OLD keeps, NULL otherwise; the
     * change penalties counted from the entries */
    const struct cp_replan *rp;
    double changes;
    /* capplan.5 §10.4 (verify_services.c), by the modeset's indices */
    long *svc_n;              /* [n_deps * T]: replicas */
    double *svc_x;            /* [n_deps * T]: load taken, in replicas at full rate */
    double *svc_f;            /* [n_shares * T] */
    double *svc_u;            /* [n_classes * T] */
    double *svc_cost;         /* [n_services]: capplan.5 §10.1 */
    double *svc_spend;        /* [n_services]: the same without unserved (budgets) */
    double svc_starts, svc_unserved; /* $ */
} cp_vf_ctx;

/* A re-plan's services in slot t < S (verify_replan.c): the ids of
 * deployment d's replicas `ns` are OLD's when OLD placed its replicas. */
void cp_vf_check_replica_history(cp_vf_ctx *c, int d, int t, const cp_plan_strs *ns,
                                 const char *who);
/* After cp_vf_check_services: every service's n, f and u before S are
 * OLD's (capplan.5 §10.5). */
void cp_vf_check_replan_services(cp_vf_ctx *c);

/* ---- messages and plan fields (verify_msg.c) ---------------------------- */

/* A number for a message: 10 significant digits, shortest text. */
typedef struct cp_vf_numstr {
    char s[40];
} cp_vf_numstr;
cp_vf_numstr cp_vf_n(double v);

/* Adds a violation at `at`; sets c->oom on failure. */
void cp_vf_viol(cp_vf_ctx *c, cp_pos at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* True when the key was read; a "missing" violation at the entry
 * `entry` when it is absent (a key of the wrong type is the reader's
 * violation already). */
bool cp_vf_need(cp_vf_ctx *c, cp_plan_has has, cp_pos entry, const char *who, const char *key);

/* Compares the number `n` (the value of `key` in the entry at `entry`)
 * with `expected`; `required` says whether a missing key is a violation
 * (false for the keys the reader requires itself). */
void cp_vf_compare_num(cp_vf_ctx *c, const cp_plan_num *n, cp_pos entry, const char *key,
                    const char *who, bool required, double expected);
/* Compares a per-slot list with expected[0..T-1] when it has T values
 * (else the reader said so); reports its first differing slot, with how
 * many more differ. */
void cp_vf_compare_series(cp_vf_ctx *c, const cp_plan_series *s, const char *key, const char *who,
                       const double *expected);

/* ---- small helpers over the context ------------------------------------- */

/* A series value, `dflt` when the loader left the series empty (a site
 * without energy_price or carbon_intensity: capplan.5 §1.3 default 0). */
static inline double cp_vf_series_or(const cp_series *s, int t, double dflt)
{
    return s->v && s->n > 0 ? cp_series_at(s, t) : dflt;
}

/* Two derivations of one figure agree (1e-9 relative). */
static inline bool cp_vf_close(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-9 * (m > 1 ? m : 1);
}

static inline bool cp_vf_over(double load, double cap)
{
    return load > cap + VF_CAP_TOL * (fabs(cap) > 1 ? fabs(cap) : 1);
}

static inline const char *cp_vf_market_name(cp_res_kind k)
{
    return k == CP_RES_POOL ? "pool" : k == CP_RES_SPOT ? "spot" : "on_demand";
}

static inline double cp_vf_frac_at(const cp_mode *m, int start, int t)
{
    return t == start + m->slots - 1 ? m->last_frac : 1.0;
}

static inline bool cp_vf_runs_at(const cp_vf_ctx *c, const cp_vf_job *vj, int t)
{
    return vj->counted && vj->start <= t && t < vj->start + c->ms->modes[vj->mode].slots;
}

/* Instances rented on market r in slot t. */
static inline long cp_vf_y_at(const cp_vf_ctx *c, int r, int t)
{
    return c->y[(size_t)r * (size_t)c->T + (size_t)t];
}

static inline double *cp_vf_load_at(cp_vf_ctx *c, int r, int t)
{
    return &c->load[((size_t)r * (size_t)c->T + (size_t)t) * CP_DIMS];
}

/* Capacity of one node or instance per dimension. */
static inline void cp_vf_mach_cap(const cp_machine *m, double cap[CP_DIMS])
{
    cap[CP_DIM_ACC] = m->accelerators;
    cap[CP_DIM_CPU] = m->cpus;
    cap[CP_DIM_MEM] = m->memory_gb;
}

/* ---- a re-plan against OLD (verify_replan.c) ----------------------------- */
/* After the jobs and the provisioning are read: history, started and
 * broken jobs, the replanned block; sets c->changes. */
void cp_vf_check_replan(cp_vf_ctx *c);
/* ---- jobs, provisioning (verify_plan.c) --------------------------------- */
void cp_vf_check_jobs(cp_vf_ctx *c);
void cp_vf_check_missing(cp_vf_ctx *c);
void cp_vf_read_provisioning(cp_vf_ctx *c);

/* ---- per-slot limits of capplan.5 §3 (verify_limits.c) ------------------------ */
void cp_vf_add_loads(cp_vf_ctx *c);
void cp_vf_check_capacity(cp_vf_ctx *c);
void cp_vf_check_power_caps(cp_vf_ctx *c);
/* After cp_vf_check_costs: cloud + energy + carbon within the budget. */
void cp_vf_check_budget(cp_vf_ctx *c);
/* Teams (verify_teams.c, capplan.5 §10.2): every team's quotas per slot,
 * its budget on the attributed cost of its jobs, and the plan's `teams`
 * entries (cost, accelerator_hours), re-derived from the input. */
void cp_vf_check_teams(cp_vf_ctx *c);
/* A plan that says `infeasible` for inputs without a contradiction
 * (capplan.5 §4: a cap below a site's idle baseline, a budget below the baseline's
 * cost) is a violation at its status. */
void cp_vf_check_infeasible(cp_vf_ctx *c);
/* " accelerators 3 > 2, cpus ..." for the dimensions over capacity. */
bool cp_vf_over_dims(const double *load, const double *cap, cp_buf *b);
/* Idle draw in W (before PUE) of the available nodes of the site's pools. */
double cp_vf_baseline_w(const cp_input *in, int site, int t);
/* Facility power of the site in slot t in W: pue·(baseline + busy). */
double cp_vf_site_w(const cp_vf_ctx *c, int site, int t);

/* ---- services, capplan.5 §10.4 (verify_services.c): after cp_vf_add_loads ---- */
void cp_vf_check_services(cp_vf_ctx *c);

/* ---- concrete placement, capplan.5 §5 (verify_place.c) ------------------------ */
void cp_vf_check_placement(cp_vf_ctx *c);
/* One replica of deployment d on id `label` of its resource in slot t
 * (capplan.5 §10.4), checked by verify_services.c; false when out of memory. */
bool cp_vf_add_replica(cp_vf_ctx *c, int d, long label, cp_pos id, int t);
static inline bool cp_vf_asg_runs(const cp_vf_asg *g, int t)
{
    return g->t0 <= t && t < g->t1;
}
/* "PREFIX/N" against a resource's id prefix: N, or -1 when it is not. */
long cp_vf_parse_id(const char *s, const char *prefix);

/* ---- leases, capplan.5 §5, version 1.1 (verify_leases.c): after cp_vf_check_placement ---- */
void cp_vf_check_leases(cp_vf_ctx *c);

/* ---- re-costing, capplan.5 §4 (verify_cost.c) --------------------------------- */
void cp_vf_check_costs(cp_vf_ctx *c);
/* capplan.5 §10.1 from the input alone: what counted entry vj costs its
 * job (the one derivation that job costs, team costs and team budgets
 * are checked against). */
double cp_vf_job_cost(const cp_vf_ctx *c, const cp_vf_job *vj);
/* capplan.5 §9.3 from the input alone: job j's egress on a resource at `site`
 * (-1: an offer without a site). */
double cp_vf_job_egress(const cp_input *in, const cp_job *j, int site);

#endif
