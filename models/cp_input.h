/*
 * The planner's input model (capplan.5 §1), after loading, merging and
 * validation: every default applied, every cross reference resolved to an
 * index, every entity carrying the position of its YAML node so checks
 * made later still point into the file.
 *
 * One cp_input owns everything reachable from it (strings, arrays, file
 * names). Build it with cp_input_load(); free it with cp_input_free().
 */
#ifndef CP_INPUT_H
#define CP_INPUT_H

#include "cp_err.h"
#include "cp_limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A value per slot: either one value for every slot (n == 1) or exactly
 * horizon.slots values. Read it with cp_series_at(). */
typedef struct cp_series {
    double *v;
    int n;
    bool set; /* given in the input (false: default) */
    cp_pos pos;
} cp_series;

static inline double cp_series_at(const cp_series *s, int t)
{
    return s->n == 1 ? s->v[0] : s->v[t];
}

/* What one node or instance carries. */
typedef struct cp_machine {
    char *type;       /* machine-type label (defaults to the pool/offer name) */
    int acc;          /* accelerator index, -1 when none */
    int accelerators; /* per node/instance */
    double cpus, memory_gb;
    double power_w, idle_power_w;
} cp_machine;

typedef struct cp_site {
    char *name;
    cp_pos pos;
    double pue;
    cp_series energy_price;     /* $/kWh */
    cp_series carbon_intensity; /* gCO2/kWh */
    cp_series power_cap_kw;     /* .set false: no cap */
    double egress_per_gb;       /* 1.1 (capplan.5 §9.3): $ per GB moved out of the site */
} cp_site;

typedef struct cp_accel {
    char *name;
    cp_pos pos;
    double memory_gb, power_w, idle_power_w;
} cp_accel;

typedef struct cp_pool {
    char *name;
    cp_pos pos;
    int site;
    int nodes;
    cp_series available; /* integers 0..nodes */
    cp_machine node;
    /* extension (docs/spec-notes.md, "Execution"): the host name of each
     * node, [nodes] (a list or a resolved pattern); NULL when not given */
    char **hosts;
    cp_pos hosts_pos;
} cp_pool;

typedef struct cp_offer {
    char *name;
    cp_pos pos;
    char *provider, *region; /* NULL when absent */
    int site;                /* -1 when absent */
    cp_machine inst;
    double price_hour;
    cp_series quota;
    bool has_spot;
    double spot_price_hour;
    cp_series spot_quota;
    double spot_interruptions_per_hour;
} cp_offer;

/* capplan.5 §10.2: one quota of a team, on the accelerators of
 * one type held on pools (acc >= 0) or on CPUs held on pools (acc -1). */
typedef struct cp_team_quota {
    int acc;         /* accelerator index, -1 for the key `cpus` */
    cp_series limit; /* per slot, >= 0 */
    cp_pos pos;      /* of the key */
} cp_team_quota;

typedef struct cp_team {
    char *name;
    cp_pos pos;
    cp_team_quota *quota;
    int n_quota;
    double budget; /* on the team's attributed cost */
    bool has_budget;
    cp_pos budget_pos;
} cp_team;

typedef enum { CP_JOB_TRAINING, CP_JOB_DATAFLOW } cp_job_kind;
typedef enum { CP_SCALING_LINEAR, CP_SCALING_AMDAHL, CP_SCALING_TABLE } cp_scaling_model;

typedef struct cp_placement {
    int *pools;   /* allow-list of pool indices; NULL = all */
    int n_pools;
    bool has_pools;
    int *offers;
    int n_offers;
    bool has_offers;
    char **providers;
    int n_providers;
    bool has_providers;
    char **regions;
    int n_regions;
    bool has_regions;
    bool cloud, on_prem;
} cp_placement;

typedef struct cp_throughput {
    int acc;      /* accelerator index */
    double value; /* work units / s on ONE accelerator */
} cp_throughput;

/* 1.1 (capplan.5 §1.7): a speedup model for one accelerator type. */
typedef struct cp_type_scaling {
    int acc; /* accelerator index */
    cp_scaling_model model;
    double serial_fraction;
    double *speedup; /* table: speedup[i] for the job's counts[i] */
} cp_type_scaling;

/* 1.1 (capplan.5 §9.1): host resources per accelerator and the speed they give. */
typedef struct cp_shape {
    double cpus_per_accelerator, memory_gb_per_accelerator;
    double speed; /* multiplies the throughput */
    cp_pos pos;
} cp_shape;

/* capplan.5 §10.3: one board power limit a training job
 * can run under on one accelerator type. */
typedef struct cp_power_limit {
    int acc;        /* accelerator index (a type in the job's throughput) */
    double limit_w; /* the board limit to set */
    double speed;   /* multiplies the throughput, (0, 1] */
    double power_w; /* busy draw per accelerator under the limit (default limit_w) */
    cp_pos pos;
} cp_power_limit;

typedef struct cp_theta {
    char *type; /* machine-type label */
    double theta[4];
    double sigma_seconds; /* runtime.sigma_seconds[type] (extension) */
    bool has_sigma;
} cp_theta;

typedef enum { CP_OPT_ADAM, CP_OPT_SGD, CP_OPT_ADAFACTOR } cp_optimizer;

/* Extension (docs/models.md): a training job may describe its model
 * instead of giving accelerator_memory_gb; the estimate decides
 * eligibility. */
typedef struct cp_model_mem {
    double parameters;
    double bytes_per_parameter;
    cp_optimizer optimizer;
    double micro_batch;
    double activation_gb_per_sample;
} cp_model_mem;

typedef struct cp_job {
    char *name;
    cp_pos pos;
    cp_job_kind kind;
    double release_hour;
    double deadline_hour; /* horizon end when not given (or beyond it) */
    bool has_deadline;
    double drop_penalty;
    bool preemptible;
    double checkpoint_minutes, restart_minutes;
    cp_placement placement;

    /* training */
    double work;
    cp_throughput *throughput;
    int n_throughput;
    int *counts; /* allowed accelerator counts (training) or machines (dataflow) */
    int n_counts;
    cp_scaling_model scaling;
    double serial_fraction;
    double *speedup; /* table: speedup[i] for counts[i] */
    double accelerator_memory_gb;
    bool has_accelerator_memory;
    bool has_model; /* accelerator_memory_gb estimated from `model` */
    cp_model_mem model;
    double cpus_per_accelerator, memory_gb_per_accelerator;
    /* 1.1: per-type scaling (n_type_scaling > 0 replaces the fields above
     * for every type in throughput) */
    cp_type_scaling *type_scaling;
    int n_type_scaling;
    /* 1.1: shapes; a job without `shapes` has one, made of the flat keys
     * with speed 1 (has_shapes false), so n_shapes >= 1 for training */
    cp_shape *shapes;
    int n_shapes;
    bool has_shapes;
    /* capplan.5 §10: power limits, grouped by type in input order; a mode takes none
     * (limit -1) or one whose acc is its resource's type */
    cp_power_limit *power_limits;
    int n_power_limits;

    /* dataflow */
    double input_gb;
    cp_theta *theta;
    int n_theta;

    /* extension: runtime margin for deadlines (job, else objective) */
    double deadline_confidence;
    bool has_deadline_confidence;

    /* 1.1 (capplan.5 §9.2): jobs that must end before this one starts (indices,
     * no repeats, acyclic) */
    int *after;
    int n_after;
    /* 1.1 (capplan.5 §9.3): where the input lives; data_site -1 when no `data` */
    int data_site;
    double data_gb;
    /* extension (docs/spec-notes.md, "Execution"): the shell command that
     * runs the job; NULL when not given */
    char *run;
    cp_pos run_pos;
    /* capplan.5 §10: the team index, -1 when none */
    int team;
} cp_job;

/* capplan.5 §10.4: one request class of a service and its load. */
typedef struct cp_svc_class {
    char *name;
    cp_series load; /* requests/s per slot, >= 0 */
    cp_pos pos;
} cp_svc_class;

/* capplan.5 §10.4: one configuration of a service's replicas. */
typedef struct cp_svc_config {
    int acc;          /* accelerator index */
    int count;        /* accelerators per replica, >= 1 */
    double cpus, memory_gb; /* per replica */
    double *rate;     /* [n_classes] requests/s one replica serves; 0: not served */
    cp_pos pos;
} cp_svc_config;

/* capplan.5 §10.4: an inference service. A service given with `load`
 * has one class named like the service. */
typedef struct cp_service {
    char *name;
    cp_pos pos;
    int team; /* -1 when none */
    cp_svc_class *classes;
    int n_classes;
    cp_svc_config *configs;
    int n_configs;
    cp_series min_replicas; /* integers >= 0; default 1 */
    double start_cost;      /* $ per replica started */
    double unserved_penalty; /* $ per request not served */
    bool preemptible;
    double restart_minutes;
    cp_placement placement;
    /* execution extensions, read only by `capplan export`
     * (docs/spec-notes.md, "Execution"): a replica's shell command, the
     * port it serves on, the path SkyServe's readiness probe asks */
    char *run; /* NULL when absent */
    cp_pos run_pos;
    int port;              /* default 8080 */
    char *readiness_probe; /* NULL: "/" */
} cp_service;

typedef struct cp_input {
    /* horizon */
    int slots;
    double slot_hours;
    char *start; /* NULL when absent */
    /* objective */
    double carbon_price_per_ton;
    double budget;
    bool has_budget;
    cp_pos budget_pos; /* of objective.budget, for errors about it */
    double deadline_confidence; /* extension; 0 when absent */
    bool has_deadline_confidence;

    cp_site *sites;
    int n_sites;
    cp_accel *accels;
    int n_accels;
    cp_pool *pools;
    int n_pools;
    cp_offer *offers;
    int n_offers;
    cp_job *jobs;
    int n_jobs;
    cp_team *teams; /* capplan.5 §10.2 */
    int n_teams;
    cp_service *services; /* capplan.5 §10.4 */
    int n_services;

    bool uses_egress; /* some job has `data` (plans then carry egress) */

    char **files; /* owned copies of the file names positions point to */
    int n_files;
    /* cp_node_digest of the files' trees in order: the plan's
     * solver.inputs, by which a re-plan knows inputs that did not change
     * (capplan.5 §10.5) */
    uint64_t digest;
} cp_input;

/* Loads, merges (capplan.5 §1: sequences concatenated in order, mappings merged
 * key by key) and validates the files. All errors found (up to the cap)
 * go to `diags`. On success *out owns a new input. Returns CP_OK,
 * CP_ERR_INPUT or CP_ERR_NOMEM. */
int cp_input_load(const char *const *paths, int n_paths, cp_input **out, cp_diags *diags);

struct cp_node;
/* The same from already parsed trees (borrowed; the trees' positions must
 * outlive the input): used by what-if scenarios that edit trees. */
int cp_input_from_trees(struct cp_node *const *roots, int n_roots, cp_input **out,
                        cp_diags *diags);

void cp_input_free(cp_input *in);

int cp_input_find_site(const cp_input *in, const char *name);
int cp_input_find_accel(const cp_input *in, const char *name);
int cp_input_find_pool(const cp_input *in, const char *name);
int cp_input_find_offer(const cp_input *in, const char *name);
int cp_input_find_job(const cp_input *in, const char *name);
int cp_input_find_team(const cp_input *in, const char *name);
int cp_input_find_service(const cp_input *in, const char *name);

double cp_input_horizon_hours(const cp_input *in);

/* The digest as a plan's solver.inputs writes it: "fnv1a64:" and 16 hex
 * digits (never a number to a YAML reader). */
#define CP_INPUT_DIGEST_TEXT 32
void cp_input_digest_text(const cp_input *in, char out[CP_INPUT_DIGEST_TEXT]);

/* A Slurm node name: 1 to 64 letters, digits, '.', '_' or '-', not
 * starting with '-' (what a pool's `hosts` may give). */
bool cp_host_name_ok(const char *s);

#endif
