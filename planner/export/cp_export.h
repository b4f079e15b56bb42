/*
 * From a plan to what a cluster and a launcher execute (docs/execution.md):
 *  - cp_export_slurm: one sbatch script per job the plan runs on a pool,
 *    a submit.sh that submits them in dependency order and wires
 *    `--dependency=afterok:` with the job ids sbatch returns, and a
 *    comment line per dropped job;
 *  - cp_export_launch: the plan's cloud leases (capplan.5 §5, version 1.1)
 *    as SkyPilot clusters, one per group of leases that share jobs, each
 *    cloud job a task of its cluster's job queue, launch.sh that runs
 *    them at the planned times, and a launch.md table;
 *  - cp_export_services: the services' replicas per slot as CSV.
 *
 * Library code: it never writes files or prints. It returns the files'
 * names (relative to the output folder, built from indices and sanitized
 * names only) and contents; the command writes them. Every name taken from
 * the input or the plan is hostile: in shell code it is single-quoted,
 * in sbatch directives only Slurm's node-name alphabet is written (host
 * names are checked by the loader, job names are sanitized, accelerator
 * types outside it are refused), in YAML it goes through cp_out's one
 * quoting rule, and a name with a control character (which no comment
 * or directive could hold) is refused with an error.
 */
#ifndef CP_EXPORT_H
#define CP_EXPORT_H

#include "cp_buf.h"
#include "cp_err.h"
#include "cp_input.h"
#include "cp_plan_read.h"

#include <stdbool.h>

typedef struct cp_export_file {
    char *name;  /* relative path, e.g. "jobs/003-bert-large.sbatch" */
    cp_buf text;
    bool executable;
} cp_export_file;

typedef struct cp_export {
    cp_export_file *files;
    int n, cap;
    int n_jobs, n_dropped, n_leases, n_clusters; /* what was exported */
    int n_services; /* SkyServe services (skypilot), replica runs (slurm) */
} cp_export;

void cp_export_init(cp_export *x);
void cp_export_release(cp_export *x);

typedef struct cp_export_opts {
    /* --begin now: the night starts at once (tests, reruns): slurm's jobs
     * may start at once, launch.sh counts from when it starts; else from
     * horizon.start */
    bool begin_now;
    const char *plan_name; /* for comments; may be NULL */
} cp_export_opts;

void cp_export_opts_init(cp_export_opts *o);

/* Slurm scripts for the jobs of `pf` (a plan of `in`, both borrowed) that
 * run on pools. Errors (a pool node without a host name, a job or pool of
 * the plan that the input lacks, no horizon.start without begin_now, a
 * name that cannot be made safe) go to `d` with positions, all of them;
 * warnings (a predecessor on the cloud or dropped, which Slurm cannot wait
 * for) too. Returns CP_OK, CP_ERR_INPUT or CP_ERR_NOMEM; on CP_OK the
 * files are appended to `x`. */
int cp_export_slurm(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                    cp_export *x, cp_diags *d);

/* capplan.5 §10.5: `pf`, a re-plan from slot `now` of `old` (both
 * borrowed), for a cluster that runs OLD's submission: replan.sh
 * (cancellations, start updates of pending jobs, the new runs' sbatch
 * lines) and the scripts of the jobs it submits (export_replan.c). Same
 * contract as cp_export_slurm. */
int cp_export_slurm_replan(const cp_input *in, const cp_plan_file *pf, const cp_plan_file *old,
                           int now, const cp_export_opts *o, cp_export *x, cp_diags *d);
/* Launch files for the plan's cloud jobs: clusters/NNN-OFFER.yaml per
 * cluster and tasks/NNN-NAME.yaml per job (SkyPilot task YAML, schema of
 * SkyPilot 0.9.1), launch.sh (executable) and launch.md; and for each
 * cloud deployment of a service (capplan.5 §10.4) a SkyServe service,
 * services/NNN-NAME-cC-xK.yaml per replica count K, which launch.sh brings
 * up, scales and takes down slot by slot. Errors: a cloud job no lease
 * lists, an offer the inputs lack, a name with a control character.
 * Same contract. */
int cp_export_launch(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                     cp_export *x, cp_diags *d);

/* capplan.5 §10.5: `pf`, a re-plan from slot `now` of `old` (both
 * borrowed), for SkyPilot while OLD's launch.sh runs: the files of the
 * clusters and tasks from slot `now` on and a launch.sh that replaces
 * OLD's, keeping the clusters and jobs that began before `now`
 * (export_launch_replan.c). Same contract as cp_export_launch. */
int cp_export_launch_replan(const cp_input *in, const cp_plan_file *pf, const cp_plan_file *old,
                            int now, const cp_export_opts *o, cp_export *x, cp_diags *d);

/* The services' replica schedule (capplan.5 §10.4): services.csv, one row
 * per service, deployment and slot (configuration, resource, market,
 * slot start, replicas, requests/s routed to them). Same contract. */
int cp_export_services(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                       cp_export *x, cp_diags *d);

/* ---- helpers shared with the what-if array scripts ------------------- */

/* Appends s single-quoted for the POSIX shell ('it'\''s'). */
void cp_sh_quote(cp_buf *b, const char *s);
/* True when s holds a byte below 0x20 or 0x7f. */
bool cp_export_has_control(const char *s);
/* Slurm's longest finite time limit in minutes: its counts are 32-bit,
 * and the two values above are INFINITE and NO_VAL. */
#define CP_SLURM_MAX_MINUTES 4294967293L
/* Appends a Slurm time limit (D-HH:MM:00) for `minutes` rounded up, at
 * least 1; false, with nothing appended, past CP_SLURM_MAX_MINUTES or
 * for a NaN (the caller refuses, or writes UNLIMITED and says so). */
bool cp_slurm_time(cp_buf *b, double minutes);
/* Adds a new file and returns it (NULL on out of memory). */
cp_export_file *cp_export_add(cp_export *x, const char *name, bool executable);

#endif
