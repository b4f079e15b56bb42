/*
 * Modes (capplan.5 §2): for each job, every (resource, count, shape,
 * power limit) that
 * passes placement and eligibility and fits between release and deadline,
 * with its demand vector, duration, slot count, last-slot busy fraction,
 * busy power and allowed start slots. Resources are the pools, then per
 * offer its on-demand market and, when it has one, its spot market.
 *
 * A job with no mode gets a reason in words that says which rule removed
 * which candidates. The planner and the verifier both build their modes
 * here, so "what a mode is" has one definition.
 */
#ifndef CP_MODES_H
#define CP_MODES_H

#include "cp_input.h"

struct cp_replan;

typedef enum { CP_RES_POOL, CP_RES_ONDEMAND, CP_RES_SPOT } cp_res_kind;

typedef struct cp_resource {
    cp_res_kind kind;
    int index;               /* pool or offer index */
    const cp_machine *mach;  /* borrowed from the input */
    int site;                /* the pool's site, the offer's site, or -1 */
    const char *name;        /* pool or offer name (borrowed) */
    char *id;                /* id prefix of its nodes/instances: POOL, OFFER, OFFER:spot */
    int max_units;           /* U of capplan.5 §2: a pool's largest available, a market's largest quota */
} cp_resource;

enum { CP_DIM_ACC, CP_DIM_CPU, CP_DIM_MEM, CP_DIMS };

typedef struct cp_mode {
    int job, res, count;
    int acc;                 /* accelerator index of the resource, -1 when none */
    double demand[CP_DIMS];  /* accelerators, cpus, memory_gb */
    double base_hours;       /* before the spot stretch */
    double hours;            /* duration */
    int slots;               /* d */
    double last_frac;        /* busy fraction of the last slot */
    double busy_w;           /* busy power on a pool (W, before PUE); 0 on markets */
    int s_min, s_max;        /* allowed start slots, inclusive */
    int shape;               /* index into the job's shapes (capplan.5 §9.1); 0 for dataflow */
    double egress;           /* $ once when scheduled: data moved off its site (capplan.5 §9.3) */
    int limit;               /* index into the job's power_limits (capplan.5 §10.3), -1: none */
    /* re-planning (capplan.5 §10.5, cp_replan.h): $ once when scheduled,
     * -P on OLD's (mode, start) of a changeable job, else 0; not in the budget */
    double change;
} cp_mode;

/* capplan.5 §10.4: a deployment of a service, (configuration, resource):
 * the resource passes the service's placement rules, carries the
 * configuration's accelerator type, holds one replica in one node or
 * instance, and is a spot market only for a preemptible service. */
typedef struct cp_deploy {
    int svc, config, res;
    double avail;           /* a_d: 1, on a spot market 1 - min(1, λ·restart_minutes/60) */
    double demand[CP_DIMS]; /* one replica: count, cpus, memory_gb */
    double busy_w;          /* one replica serving its full rate, W before PUE; 0 on markets */
} cp_deploy;

typedef struct cp_modeset {
    cp_resource *res;
    int n_res;
    int *res_of_pool;       /* [n_pools] */
    int *ondemand_of_offer; /* [n_offers] */
    int *spot_of_offer;     /* [n_offers], -1 when no spot market */
    cp_mode *modes;
    int n_modes;
    int *job_first;         /* modes of job j: [job_first[j], job_first[j+1]) */
    char **reason;          /* [n_jobs]: why job j has no mode, NULL when it has */
    int n_jobs;
    /* a re-plan's history and choices (borrowed, cp_replan_modes), NULL
     * when planning from scratch */
    const struct cp_replan *replan;
    /* capplan.5 §10.4 (svc_deploy.c): deployments of service v are
     * [svc_first[v], svc_first[v+1]), in configuration order, then
     * resource order; its classes are numbered globally from
     * class_first[v] */
    cp_deploy *deps;
    int n_deps;
    int *svc_first;   /* [n_services + 1] */
    int *class_first; /* [n_services + 1] */
    int n_classes;
    int *dep_share;   /* [n_deps]: deployment d's share of class k (of its
                       * service) is share index dep_share[d] + k */
    int n_shares;     /* Σ over deployments of their service's classes */
} cp_modeset;

/* Limits on the size of an instance (docs/spec-notes.md, "Limits"): past
 * them cp_modes_build refuses with CP_ERR_INPUT before allocating, and
 * says how big the instance would have been. The model estimate counts
 * what the MILP would hold: one binary column per (mode, start slot), one
 * integer column per market and slot, and per start column the assignment
 * row plus, for each of its d slots, the 3 capacity rows and the power-cap
 * row on a pool; GLPK keeps about 56 bytes per non-zero (its GLPAIJ) and
 * the builder's triplets 16 more. */
#define CP_MAX_JOBS 100000
#define CP_MAX_MODES 2000000L
#define CP_MAX_STARTS 20000000L
#define CP_MAX_MARKET_CELLS 20000000L
#define CP_MAX_MODEL_BYTES (8.0 * 1024 * 1024 * 1024)
#define CP_MODEL_BYTES_PER_NNZ 80.0
#define CP_MODEL_BYTES_PER_COL 200.0

/* What an instance would cost (doubles: they are compared to limits
 * before anything that large exists). */
typedef struct cp_model_size {
    double modes;  /* (job, resource, count) with an allowed start */
    double starts; /* Σ over modes of the allowed start slots: binary columns */
    double cells;  /* markets × slots: integer instance columns */
    double nnz;    /* estimated non-zeros of the MILP */
    double bytes;  /* estimated memory of the MILP model */
} cp_model_size;

/* Counts the modes and estimates the model without allocating anything. */
void cp_modes_size(const cp_input *in, cp_model_size *out);

/* Builds the resources and every job's modes. *out is new on success.
 * An instance over the limits above gives CP_ERR_INPUT. */
int cp_modes_build(const cp_input *in, cp_modeset **out, cp_err *err);
void cp_modeset_free(cp_modeset *ms);

/* The speedup S(k) of a training job; k must be one of its counts. */
double cp_job_speedup(const cp_job *j, int k);
/* S(k) on accelerator type acc: its own model when `scaling` is per type
 * (capplan.5 §1.7, version 1.1), else cp_job_speedup. */
double cp_job_speedup_on(const cp_job *j, int acc, int k);
/* Egress $ of job j on a resource at `site` (-1: an offer without one):
 * gb · egress_per_gb(data.site) when the sites differ (capplan.5 §9.3). */
double cp_job_egress(const cp_input *in, const cp_job *j, int site);
/* capplan.5 §2, version 1.1: whether `count` units of job j in shape `shape` fit a
 * resource of machine m that has at most max_units units. When not and
 * `why` is not NULL, writes the reason ("a node of 'p' has 32 cpus, one
 * accelerator's share needs 64"). */
bool cp_mode_fits(const cp_input *in, const cp_job *j, const cp_machine *m, const char *res_name,
                  bool pool, int max_units, int count, int shape, char *why, size_t why_size);
/* Why (resource res, count, shape, limit) is not a mode of job j (limit
 * -1: none), in words
 * (`check --modes`): the placement rule, the eligibility rule (type,
 * accelerator memory, machine type), the units (capplan.5 §2, version 1.1) or the time
 * window, first that applies. Returns false, and writes nothing, when it
 * is a mode. */
bool cp_mode_exclusion(const cp_input *in, const cp_modeset *ms, int job, int res, int count,
                       int shape, int limit, char *why, size_t size);
/* capplan.5 §9.2 on the modes (cp_modes_build calls it): a successor starts no
 * earlier than its predecessors' earliest ends, and has no mode (with a
 * reason naming the predecessor) when one of them has none.
 * CP_OK or CP_ERR_NOMEM. */
int cp_modes_apply_after(const cp_input *in, cp_modeset *ms);
/* U of a resource: the most units it ever has (pool index or offer index
 * with its market kind). */
int cp_resource_max_units(const cp_input *in, cp_res_kind kind, int index);
/* Whether resource r passes placement rules `pl` (capplan.5 §1.7); a spot
 * market only when `preemptible`. */
bool cp_placement_allows(const cp_input *in, const cp_placement *pl, bool preemptible,
                         const cp_resource *r);
/* The deployments of every service (svc_deploy.c; cp_modes_build calls it
 * after the jobs' modes). CP_OK or CP_ERR_NOMEM. */
int cp_deploys_build(const cp_input *in, cp_modeset *ms);
/* The deployment of service v with configuration c on resource r, or -1. */
int cp_deploy_find(const cp_modeset *ms, int v, int c, int r);
/* capplan.5 §10.4's contradiction of a service: min_replicas above, in
 * some slot, what all its deployments' resources hold with nothing else
 * on them (nodes available, markets' quotas). As cp_input_contradictions
 * (cp_cost.h): each into `d` at the service's min_replicas (or the
 * service), the first into `first` with that FILE:LINE:COL; how many. */
int cp_svc_contradictions(const cp_input *in, const cp_modeset *ms, cp_diags *d, char *first,
                          size_t first_size);
/* Requests/s of class k (service-local) of service v in slot t. */
double cp_svc_load(const cp_input *in, int v, int k, int t);

/* Busy power in W of `count` units of job j on machine m (capplan.5 §2), with
 * the job's first shape (its flat keys). */
double cp_busy_power_w(const cp_input *in, const cp_job *j, const cp_machine *m, int count);
/* The same in shape `shape` (capplan.5 §9.1). */
double cp_busy_power_shape_w(const cp_input *in, const cp_job *j, const cp_machine *m, int count,
                             int shape);
/* The same under power limit `limit` (an index into the job's
 * power_limits, -1 for none): the limit's power_w replaces the
 * accelerator's (capplan.5 §10.3). */
double cp_busy_power_limit_w(const cp_input *in, const cp_job *j, const cp_machine *m, int count,
                             int shape, int limit);
/* The limits a mode of job j on accelerator type acc may take: the number
 * of entries of j->power_limits with that type. */
int cp_job_limits_on(const cp_job *j, int acc);
/* Slots occupied and last-slot fraction for a duration (capplan.5 §2). */
int cp_duration_slots(double hours, double slot_hours, double *last_frac);
/* First allowed start slot and the exclusive end slot bound of a job:
 * s >= s_lo and s + d <= s_hi. */
void cp_job_window(const cp_input *in, const cp_job *j, int *s_lo, int *s_hi);

/* Extension (docs/models.md): accelerator memory in GB estimated from a
 * model description: weights + gradients + optimizer state + activations. */
double cp_model_memory_gb(const cp_model_mem *m);
/* Standard normal quantile, for runtime margins (p in (0,1)). */
double cp_normal_quantile(double p);
/* The runtime margin of job j on machine m, hours (docs/spec-notes.md,
 * "Runtime margins"): z_p * sigma_seconds / 3600 for a dataflow job with
 * a deadline_confidence (its own, else the objective's) on a machine type
 * with sigma_seconds; 0 otherwise. Part of every such mode's duration. */
double cp_margin_hours(const cp_input *in, const cp_job *j, const cp_machine *m);

#endif
