/*
 * The plan file (capplan.5 §5) as plain data: the one reader of plan files,
 * used by `capplan verify` and `capplan report` (the writer is
 * solvers/cp_plan_write.h). cp_plan_read() walks a parsed tree
 * (cp_yaml.h: YAML and JSON read alike) into a cp_plan_file whose every
 * value keeps the position of its node, so checks made later still point
 * into the file as FILE:LINE:COL.
 *
 * The reader checks the format, not the plan: the types of the keys it
 * knows, the fixed words (status, market, kind), one value per slot in
 * per-slot lists, and the keys without which an entry means nothing (see
 * "Required keys" below). Whether the plan is feasible and its numbers
 * right is verify's business; a caller that needs more keys (verify
 * re-costs `energy_kwh`, the report draws `power_kw`) requires them
 * itself. Keys it does not know are ignored.
 *
 * A plan with problems is a result, not an error: cp_plan_read returns
 * CP_OK and lists them, in file order, in `problems`; the caller says what
 * they mean (verify: violations, report: errors). Only out of memory
 * fails.
 *
 * Required keys: `capplan_plan` (1), `status`; unless the plan is
 * infeasible, `jobs` and `totals` with the parts cp_cost_part_required
 * names (total, cloud, energy, carbon and penalty). Job entries: `name`, `status`, and for a scheduled job of a
 * plan that is not infeasible `resource`, `market`, `start_hour`,
 * `end_hour`. Provisioning entries: `market`, `kind`, `instances`.
 * Service entries (capplan.5 §10.4): `name`, `deployments` (each:
 * `config`, `resource`, `market`, `replicas`) and `routing` (each:
 * `class`, `shares`, `unserved`).
 * Utilization entries: `pool`. Site entries: `name`. Leases: all four
 * keys. Team entries: all three (`name`, `cost`, `accelerator_hours`).
 *
 * Ownership: strings are borrowed from the tree, which must outlive the
 * cp_plan_file; arrays and problem messages are owned by it.
 */
#ifndef CP_PLAN_READ_H
#define CP_PLAN_READ_H

#include "cp_cost_parts.h"
#include "cp_err.h"

#include <stdbool.h>

struct cp_input;
struct cp_node;

/* Whether a key was given. */
typedef enum cp_plan_has {
    CP_PLAN_ABSENT = 0, /* no such key, or null */
    CP_PLAN_SET,        /* read */
    CP_PLAN_BAD         /* given, but not of its type (a problem says so) */
} cp_plan_has;

/* One value; `pos` is the value's node (the key's entry when absent).
 * When `has` is not CP_PLAN_SET the value is 0 or NULL. */
typedef struct cp_plan_num {
    cp_plan_has has;
    double v;
    cp_pos pos;
} cp_plan_num;

/* Integers (counts, slot indices) are whole numbers from 0 to 2e9. */
typedef struct cp_plan_int {
    cp_plan_has has;
    long v;
    cp_pos pos;
} cp_plan_int;

/* Any scalar, as its text (`count: 4` read as a string is "4"). */
typedef struct cp_plan_str {
    cp_plan_has has;
    const char *s;
    cp_pos pos;
} cp_plan_str;

/* A per-slot list. `n` is its own length, which may differ from the
 * plan's slot count (a problem says so); v[t] is NAN where an element is
 * not a number (an integer >= 0 for `instances`). at[t] is the position
 * of element t. Both arrays are NULL when n is 0. */
typedef struct cp_plan_series {
    cp_plan_has has;
    cp_pos pos;
    int n;
    double *v;
    cp_pos *at;
} cp_plan_series;

/* A list of names or ids (`nodes`, a lease's `jobs`): s[i] is NULL where
 * an element is not a scalar. */
typedef struct cp_plan_strs {
    cp_plan_has has;
    cp_pos pos;
    int n;
    const char **s;
    cp_pos *at;
} cp_plan_strs;

/* Where a job runs, a `market` or `kind` word; the order of cp_res_kind. */
typedef enum cp_plan_market {
    CP_PLAN_NO_MARKET = -1, /* absent or not one of the words */
    CP_PLAN_POOL,
    CP_PLAN_ON_DEMAND,
    CP_PLAN_SPOT
} cp_plan_market;

typedef struct cp_plan_job {
    cp_pos pos; /* the entry */
    int index;  /* in the plan's `jobs` list, from 0 */
    cp_plan_str name, status;
    bool scheduled, dropped; /* both false when status is absent or bad */
    cp_plan_str resource, market;
    cp_plan_market mk;
    cp_plan_str accelerator;
    cp_plan_int count;
    cp_plan_num cpus, memory_gb;
    cp_plan_int start_slot, slots;
    cp_plan_num start_hour, end_hour, energy_kwh;
    cp_plan_int shape;  /* capplan.5 §9.1 */
    cp_plan_num egress; /* capplan.5 §9.3 */
    cp_plan_num cost;   /* capplan.5 §10.1 */
    cp_plan_num power_limit_w; /* capplan.5 §10.3; absent: none */
    cp_plan_str started, restarted; /* capplan.5 §10.5: "true" in a re-plan */
    cp_plan_num work_left;          /* capplan.5 §10.5: a restarted training job's */
    cp_plan_str reason;
    cp_plan_strs nodes;
} cp_plan_job;

/* A lease (capplan.5 §5, version 1.1): one id in use over a run of slots. */
typedef struct cp_plan_lease {
    cp_pos pos;
    cp_plan_str id;
    cp_plan_int start_slot, slots;
    cp_plan_strs jobs;
} cp_plan_lease;

typedef struct cp_plan_prov { /* a `provisioning` entry */
    cp_pos pos;
    int index;
    cp_plan_str market, kind;
    cp_plan_market mk; /* CP_PLAN_ON_DEMAND, CP_PLAN_SPOT, or none */
    cp_plan_series instances;
    cp_plan_num cost;
    cp_plan_has leases_has;
    cp_pos leases_pos;
    cp_plan_lease *leases;
    int n_leases;
} cp_plan_prov;

#define CP_PLAN_DIMS 3 /* accelerators, cpus, memory_gb: CP_DIM_* order */
extern const char *const cp_plan_dim_key[CP_PLAN_DIMS];

typedef struct cp_plan_util { /* a `utilization` entry */
    cp_pos pos;
    int index;
    cp_plan_str pool;
    cp_plan_series dim[CP_PLAN_DIMS];
} cp_plan_util;

typedef struct cp_plan_site { /* a `sites` entry */
    cp_pos pos;
    int index;
    cp_plan_str name;
    cp_plan_series power_kw;
    cp_plan_num energy_kwh, carbon_kg;
} cp_plan_site;

typedef struct cp_plan_team { /* a `teams` entry (capplan.5 §10.2) */
    cp_pos pos;
    int index;
    cp_plan_str name;
    cp_plan_num cost, accelerator_hours;
} cp_plan_team;

/* capplan.5 §10.4: a deployment of a service entry: its replicas per
 * slot and, when placed, the node or instance of each (nodes[t]). */
typedef struct cp_plan_svc_dep {
    cp_pos pos;
    cp_plan_int config;
    cp_plan_str resource, market;
    cp_plan_market mk;
    cp_plan_series replicas; /* integers >= 0 */
    cp_plan_has nodes_has;
    cp_pos nodes_pos;
    cp_plan_strs *nodes; /* [n_nodes], one list per slot */
    int n_nodes;
} cp_plan_svc_dep;

/* A class's routing: per slot one share per listed deployment, in the
 * deployments' order (shares[t]), and its unserved share per slot. */
typedef struct cp_plan_svc_route {
    cp_pos pos;
    cp_plan_str cls;
    cp_plan_has shares_has;
    cp_pos shares_pos;
    cp_plan_series *shares; /* [n_shares], one list per slot */
    int n_shares;
    cp_plan_series unserved;
} cp_plan_svc_route;

typedef struct cp_plan_svc { /* a `services` entry */
    cp_pos pos;
    int index;
    cp_plan_str name;
    cp_plan_num cost, unserved_requests;
    cp_plan_has deps_has, routing_has;
    cp_pos deps_pos, routing_pos;
    cp_plan_svc_dep *deps;
    int n_deps;
    cp_plan_svc_route *routes;
    int n_routes;
} cp_plan_svc;

typedef struct cp_plan_solver {
    cp_plan_has has;
    cp_pos pos;
    cp_plan_str method;
    cp_plan_num seconds, objective, bound, gap;
    cp_plan_str inputs; /* the inputs' digest (cp_input.h), absent in older plans */
} cp_plan_solver;

/* `totals`: one value per cost part, by name (tt->cloud) or by index in
 * the list's order (tt->part[i], cp_cost_parts.h). */
#define CP_PLAN_COST_NUM_(key, ...) cp_plan_num key;
typedef struct cp_plan_totals {
    cp_plan_has has;
    cp_pos pos;
    union {
        struct {
            CP_COST_PARTS(CP_PLAN_COST_NUM_)
        };
        cp_plan_num part[CP_COST_N];
    };
} cp_plan_totals;

/* capplan.5 §10.5: `replanned: {now, started, broken, changed}`. */
typedef struct cp_plan_replanned {
    cp_plan_has has;
    cp_pos pos;
    cp_plan_int now, started, broken, changed;
    cp_plan_num change_penalty; /* extension: the --change-penalty it was planned with */
} cp_plan_replanned;

/* A top-level list: whether it was given, and where. */
typedef struct cp_plan_list {
    cp_plan_has has;
    cp_pos pos;
} cp_plan_list;

typedef enum cp_plan_level {
    /* Not a plan that can be read: the root is not a mapping, or
     * `capplan_plan`, `status` or the `jobs` list is missing or wrong.
     * Nothing past the root is read. */
    CP_PLAN_MALFORMED,
    /* A key of the plan's choices or figures (capplan.5 §3-5) is missing or
     * not of its type. */
    CP_PLAN_INVALID,
    /* A key that only describes the plan (solver, note, reason) or that
     * no check reads yet (leases, shape, egress) is not of its type. */
    CP_PLAN_EXTRA
} cp_plan_level;

typedef struct cp_plan_problem {
    cp_pos pos;
    cp_plan_level level;
    char *msg; /* "job 'a': 'count' must be an integer, found x" */
} cp_plan_problem;

typedef struct cp_plan_file {
    cp_pos pos; /* the root */
    /* T: the inputs' (cp_plan_read_opts.slots), else the length of the
     * first non-empty per-slot list (utilization, then sites, then
     * provisioning); 0 when there is none */
    int slots;
    bool slots_from_inputs;
    cp_plan_int version;
    cp_plan_str status;
    bool infeasible;
    cp_plan_solver solver;
    cp_plan_totals totals;
    cp_plan_replanned replanned;
    cp_plan_str note, reason;
    cp_plan_list jobs_list, prov_list, util_list, sites_list, teams_list;
    cp_plan_job *jobs; /* the entries that are mappings, in order */
    int n_jobs;
    cp_plan_prov *prov;
    int n_prov;
    cp_plan_util *util;
    int n_util;
    cp_plan_site *sites;
    int n_sites;
    cp_plan_team *teams; /* version 1.2: absent in plans of inputs without teams */
    int n_teams;
    cp_plan_list svc_list; /* capplan.5 §10.4 */
    cp_plan_svc *svcs;
    int n_svcs;
    cp_plan_problem *problems; /* in file order */
    int n_problems;
    size_t problems_cap;
    bool malformed; /* some problem is CP_PLAN_MALFORMED */
} cp_plan_file;

typedef struct cp_plan_read_opts {
    /* The inputs' slot count; per-slot lists must have that many values.
     * 0 (the default): the plan's first per-slot list sets it. */
    int slots;
    /* Require only the keys of the plan's choices: no `totals`, and no
     * `start_hour` or `end_hour` of a scheduled job (`capplan place`
     * reads plans of other tools, which give resource, market, count
     * and start_slot). Default false. */
    bool choices_only;
} cp_plan_read_opts;

void cp_plan_read_opts_init(cp_plan_read_opts *o);

void cp_plan_file_init(cp_plan_file *pf);
/* Frees what `pf` owns; it is empty again. NULL is fine. */
void cp_plan_file_release(cp_plan_file *pf);
/* True when the reader found no problem at all. */
bool cp_plan_file_is_ok(const cp_plan_file *pf);

/* Reads the plan whose tree is `root` (borrowed, must outlive `out`)
 * into `out` (initialized by the caller; previous contents are
 * released). `o` may be NULL for the defaults. Returns CP_OK, problems
 * or not; CP_ERR_NOMEM with `err` set (and `out` empty) otherwise. */
int cp_plan_read(const struct cp_node *root, const cp_plan_read_opts *o, cp_plan_file *out,
                 cp_err *err);

/* A plan file may be larger than its inputs: every job has an entry of up
 * to 18 keys plus the ids of its nodes or instances, and per-slot figures
 * follow. So plans are read with their own limits, derived from the job
 * limit (CP_MAX_JOBS, 100,000): 100 nodes a job (37 for the keys, the rest
 * for ids and per-slot figures) is 10,000,000 nodes, about 2.7 GB of tree
 * at the limit (measured: 270 bytes a node), and 10 KiB a job (three
 * 200-byte names escaped as JSON \u00XX, a reason naming other jobs, the
 * ids) is 1 GiB. A realistic plan is far below: 33 nodes and 370 bytes a
 * job for `bench/gen --family cloud` (docs/reliability.md, "Limits"). */
#define CP_PLAN_MAX_BYTES (1024L * 1024 * 1024)
#define CP_PLAN_MAX_NODES 10000000L

/* Parses the plan file `path` (YAML or JSON) with those limits, as
 * cp_yaml_load_file does an input (`path` is borrowed by the positions). */
int cp_plan_load_file(const char *path, struct cp_node **out, cp_diags *diags);

/* Appends every problem to `d` as an error (code CP_ERR_INPUT), in file
 * order, up to the cap of `d`. */
void cp_plan_file_diags(const cp_plan_file *pf, cp_diags *d);

/* capplan.5 §10.4: the requests/s that listed deployment i of services
 * entry e serves in slot t, where v is the inputs' index of e's service:
 * over its routing, each class's load in t times the share in shares[t]
 * (models/plan_svc.c). A class the service does not have, a slot or a
 * deployment past a list, a share not given or a class without a load
 * adds 0. What export services writes and the report draws. */
double cp_plan_svc_served(const struct cp_input *in, int v, const cp_plan_svc *e, int i, int t);

#endif
