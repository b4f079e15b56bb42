/*
 * What-if analysis (capplan.5 §8): scenarios applied to the inputs, each planned
 * as `plan` would plan it, summarised one row per scenario. The table is
 * the boundary between the what-if runner (whatif_*.c) and its outputs
 * (the md/csv/json table and the HTML page in report_*.c).
 */
#ifndef CP_WHATIF_H
#define CP_WHATIF_H

#include "cp_buf.h"
#include "cp_cost_parts.h"
#include "cp_err.h"
#include "cp_solver.h"

#include <stdbool.h>

typedef struct cp_whatif_row {
    char *name;   /* "baseline", the scenario name, or "NAME=VALUE" for a sweep */
    char *status; /* optimal, feasible, infeasible, noplan, interrupted, invalid */
    char *error;  /* invalid: the error text (FILE:LINE:COL: ...); else NULL */
    char *sweep;  /* sweep rows: the sweep's scenario NAME; else NULL */
    double sweep_value; /* sweep rows: the swept value */
    /* the plan's totals (NAN when there is no plan, and for a part whose
     * condition the row's input does not meet: cp_cost_parts.h) */
    cp_costs costs;
    int dropped; /* jobs not scheduled; -1 when there is no plan */
    char *dropped_jobs; /* their names, ", "-separated; NULL when none */
    double spot_share; /* spot instance-hours / all cloud instance-hours; 0 if none */
    /* accelerator-hours per table->acc_names[i], on-prem and in the cloud */
    double *acc_hours_onprem, *acc_hours_cloud;
    /* total minus the baseline's total, in $ and in % of the baseline's
     * (NAN when either has no plan, % also when the baseline's is 0) */
    double delta, delta_pct;
    /* the accelerator types of this row's input, in its order (what a
     * shard file records so that merging rebuilds the columns); NULL and
     * 0 for rows that did not load */
    char **accs;
    int n_accs;
    /* capplan.5 §10.2: the teams of this row's input, in its order, with
     * the cost of each (the plan's `teams`); NULL and 0 for rows without a
     * plan or inputs without teams. What a shard file records. */
    char **teams;
    double *teams_cost;
    int n_teams;
    /* the cost per table->team_names[i] (NAN where the row has no plan or
     * its input no such team); NULL when the table has no team column */
    double *team_cost;
    /* capplan.5 §10.4: the services of this row's input, in its order,
     * with CP_WI_SVC_N figures each (svcs_fig[v * CP_WI_SVC_N + i]); NULL
     * and 0 for rows without a plan or inputs without services. What a
     * shard file records. */
    char **svcs;
    double *svcs_fig;
    int n_svcs;
    /* the figures per table->svc_names[s] (svc_fig[s * CP_WI_SVC_N + i];
     * NAN where the row has no plan or its input no such service); NULL
     * when the table has no service column */
    double *svc_fig;
} cp_whatif_row;

/* A service's figures in the what-if table (capplan.5 §10.4): what it
 * costs ($, the plan's services[].cost), its replica-hours (all
 * deployments) and the share of its requests served, in % (each within
 * the latency target its rates stand for; 100 without requests). */
enum { CP_WI_SVC_COST, CP_WI_SVC_REPLICA_H, CP_WI_SVC_SERVED, CP_WI_SVC_N };
/* Their names: md heading suffixes and csv/json/shard keys. */
extern const char *const cp_wi_svc_head[CP_WI_SVC_N];
extern const char *const cp_wi_svc_key[CP_WI_SVC_N];

typedef struct cp_whatif_table {
    int n_rows; /* rows[0] is the baseline */
    cp_whatif_row *rows;
    int n_acc; /* union of accelerator types over all scenarios, in first-seen order */
    char **acc_names;
    int n_team; /* union of team names over all rows, in first-seen order */
    char **team_names;
    int n_svc; /* union of service names over all rows, in first-seen order */
    char **svc_names;
} cp_whatif_table;

void cp_whatif_table_free(cp_whatif_table *t);
/* Whether the table has a column for cost part i: every part but those
 * of plans only; a conditional one (but egress, a column since 1.1) only
 * when some row has it. */
bool cp_whatif_has_part(const cp_whatif_table *t, int i);

/* The page for `whatif --report FILE` (report_whatif.c): total and its
 * parts per scenario, and per sweep a line chart of total against the
 * swept value. Appends a self-contained HTML document to `out`. */
int cp_report_whatif_html(const cp_whatif_table *t, cp_buf *out, cp_err *err);

/* ---- the scenario file and the runner (whatif_*.c) ------------------- */

struct cp_node;
typedef struct cp_scenarios cp_scenarios;

/* Parses a scenario file (capplan.5 §8) held in memory: `name` (borrowed; it
 * must outlive the result, positions point at it) is used in positions.
 * Checks its shape only (keys, kinds, paths' syntax, unique names; sweeps
 * expanded into one scenario each); whether paths match the inputs is
 * checked by cp_whatif_prepare. Every error goes to `d`. On success *out
 * is new. Returns CP_OK, CP_ERR_INPUT or CP_ERR_NOMEM. Safe on any bytes
 * (the fuzzing entry point). */
int cp_scenarios_parse(const char *name, const char *text, size_t len, cp_scenarios **out,
                       cp_diags *d);
int cp_scenarios_count(const cp_scenarios *s);
/* Name of scenario i (0-based, after sweep expansion). */
const char *cp_scenarios_name(const cp_scenarios *s, int i);
void cp_scenarios_free(cp_scenarios *s);

/* The changed inputs of every scenario, ready to plan. */
typedef struct cp_whatif cp_whatif;

/* Merges the input trees (borrowed: the result copies what it needs, but
 * positions point at the trees' file names, which must outlive it) and
 * applies every scenario of `sc` (borrowed, must outlive the result) to a
 * copy: changes, then removals, then additions. A change whose path
 * matches nothing, a scale or add on a value that is not a number, and a
 * removal of a name that does not exist are errors (in `d`, at their
 * place in the scenario file). Entry 0 is the baseline. */
int cp_whatif_prepare(struct cp_node *const *roots, int n_roots, const cp_scenarios *sc,
                      cp_whatif **out, cp_diags *d);
/* The same without applying the scenarios (check false): no copy of the
 * input is made at all, for `--slurm-array`, whose tasks check and plan
 * them; a scenario that does not apply is then an error of the tasks. */
int cp_whatif_prepare_check(struct cp_node *const *roots, int n_roots, const cp_scenarios *sc,
                            bool check, cp_whatif **out, cp_diags *d);
int cp_whatif_count(const cp_whatif *w);
const char *cp_whatif_name(const cp_whatif *w, int i);
/* Appends entry i's changed input as one YAML document that `plan` reads. */
int cp_whatif_emit(const cp_whatif *w, int i, cp_buf *out, cp_err *err);
void cp_whatif_free(cp_whatif *w);

typedef struct cp_whatif_run_opts {
    const cp_solver_ops *ops;
    const cp_solve_opts *solve_opts; /* as `plan` gets them (stop flag included) */
    int jobs;               /* scenarios planned at once (threads), >= 1 */
    /* called (from the thread that planned it) when a row is done; may be NULL */
    void (*row_done)(void *arg, const cp_whatif_row *row);
    void *row_done_arg;
    /* distributed what-if: plan only the entries i with i % n_shards ==
     * shard (n_shards <= 1: all); the others stay `interrupted` rows
     * without figures, and cp_whatif_shard_write writes only the share */
    int shard, n_shards;
} cp_whatif_run_opts;

/* Plans every entry as `plan` would (cp_modes_build, cp_plan_new,
 * cp_plan_solve) and fills a new table, rows in entry order, whatever
 * `jobs` is. A changed input that does not load is a row with status
 * `invalid`; when solve_opts' stop flag is set, entries not yet planned
 * are rows with status `interrupted`. Errors (out of memory, a solver
 * failure) are returned in err. */
int cp_whatif_run(const cp_whatif *w, const cp_whatif_run_opts *o, cp_whatif_table **out,
                  cp_err *err);

typedef enum { CP_WHATIF_MD, CP_WHATIF_CSV, CP_WHATIF_JSON } cp_whatif_format;
/* Appends the table in the format to out. */
int cp_whatif_table_write(const cp_whatif_table *t, cp_whatif_format f, cp_buf *out,
                          cp_err *err);

/* ---- distributed what-if (whatif_shard.c, docs/whatif.md) ------------ */

/* True when entry i belongs to shard k of n (a fixed round-robin: every
 * shard of every run agrees, and sweeps spread over the shards). */
bool cp_whatif_in_shard(int i, int k, int n);
/* Appends the shard file of shard k of n of table t (planned with the
 * same k and n): JSON with every figure in full precision, each row's
 * index and its input's accelerator types, and a fingerprint of all the
 * rows' names, so cp_whatif_merge can rebuild the whole table exactly. */
int cp_whatif_shard_write(const cp_whatif_table *t, int k, int n, cp_buf *out, cp_err *err);
/* Reads the shard files (all N of one run, any order) and rebuilds the
 * table an unsharded run makes: rows by index, accelerator columns in
 * first-seen order, deltas against the baseline row. Errors (not a shard
 * file, shards of different runs, a shard missing or given twice) go to
 * d with positions. On success *out is new. */
int cp_whatif_merge(const char *const *paths, int n_paths, cp_whatif_table **out, cp_diags *d);

#endif
