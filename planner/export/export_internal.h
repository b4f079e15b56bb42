/* Shared by the exporters (export_*.c). */
#ifndef CP_EXPORT_INTERNAL_H
#define CP_EXPORT_INTERNAL_H

#include "cp_export.h"

#include <stddef.h>

/* Only letters, digits, '.', '_', '-', not starting with '-': a word
 * sbatch directives can hold as it is. */
bool cp_xp_slurm_word(const char *s);
/* Appends s with every other byte (and a leading '.') as '_', at most
 * max bytes: a file-name part. */
void cp_xp_file_word(cp_buf *b, const char *s, size_t max);
/* horizon.start (YYYY-MM-DD[THH:MM[:SS[.frac]]][Z|+HH:MM|-HH:MM]) as
 * seconds since 1970 of its wall clock (utc: a zone was given and the
 * seconds are UTC). False when it is not such a time. */
bool cp_xp_parse_start(const char *s, long *secs, bool *utc);
/* 0001-01-01T00:00:00 and 9999-12-31T23:59:59 in seconds since 1970. */
#define CP_XP_TIME_MIN (-62135596800L)
#define CP_XP_TIME_MAX 253402300799L
/* Appends YYYY-MM-DDTHH:MM:SS. */
void cp_xp_put_time(cp_buf *b, long secs);
/* The seconds of the time `hours` after `start` (seconds), to the
 * nearest second, when it falls within the years 1 to 9999 that
 * YYYY-MM-DD can write; false otherwise (a huge slot_hours). */
bool cp_xp_time_after(long start, double hours, long *secs);
/* The one rule for a name the exporters write into a shell script (a
 * sbatch script, submit.sh, a SkyPilot task's run:): single-quoted in
 * code and comments, so one with a control character is refused (a
 * newline would end the comment and run the rest); reports it at pos as
 * "WHAT name contains a control character ..." and returns false. */
bool cp_xp_name_ok(cp_diags *d, cp_pos pos, const char *what, const char *s);
/* Appends what a job or a service runs to b: its `run`, ending in a
 * newline, or when the input gives none a line that fails loudly ("WHAT
 * 'NAME' has no run command"), so a script never runs nothing quietly.
 * false when out of memory. */
bool cp_xp_put_run(cp_buf *b, const char *what, const char *name, const char *run);

/* ---- export slurm (export_slurm.c), shared with its re-plan form ------- */

/* A pool job of the plan as the scripts need it. */
typedef struct cp_xp_sjob {
    const cp_plan_job *pj;
    int job;    /* input index */
    int pool;   /* input index */
    int *nodes; /* node indices in the pool (owned) */
    int n_nodes;
    bool done;     /* placed in the submit order */
    bool no_hosts; /* its pool has no `hosts` (one error per pool) */
} cp_xp_sjob;

/* Fills j (pj set, job and pool -1) from its plan entry; errors to d. */
void cp_xp_sjob_resolve(const cp_input *in, cp_xp_sjob *j, cp_diags *d);
/* "# written by capplan export slurm ..." */
void cp_xp_slurm_header(cp_buf *b, const cp_export_opts *o);
/* The opening of submit.sh and replan.sh: #!/bin/sh, the header, `what`
 * (comment lines, each ending in a newline), set -eu, the cd to the
 * script's folder, and TZ=UTC0 when the --begin times are UTC. */
void cp_xp_slurm_opening(cp_buf *b, const cp_export_opts *o, bool utc, const char *what);
/* Submits j's script: "jN=$(sbatch --parsable DEP jobs/NNN-NAME.sbatch)",
 * its id cut from --parsable's "ID;CLUSTER" into $jN, and a line of the
 * id and the job's name, printed with printf '%s', never echo (dash's
 * echo reads backslashes in the name). dep is "" or " --dependency=...". */
void cp_xp_slurm_submit(cp_buf *b, const cp_xp_sjob *j, const char *name, const char *dep);
/* The job's name as its --job-name says it (what squeue -n and scancel
 * --name match). */
void cp_xp_slurm_name(cp_buf *b, const char *name);
/* Adds jobs/NNN-NAME.sbatch for j to x. */
int cp_xp_slurm_script(const cp_input *in, const cp_xp_sjob *j, const cp_export_opts *o, long start,
                       bool utc, cp_export *x, cp_diags *d);

/* Whether the plan has replicas of a service on a pool (capplan.5 §10.4). */
bool cp_xp_slurm_has_services(const cp_plan_file *pf);
/* The services' pool deployments (export_slurm_svc.c): a script each,
 * services/NNN-NAME-cC-POOL.sbatch, and their replicas' runs appended
 * to submit.sh (x->files[sub_at]); `start`: horizon.start in seconds. */
int cp_xp_slurm_services(const cp_input *in, const cp_plan_file *pf, const cp_export_opts *o,
                         long start, cp_export *x, int sub_at, cp_diags *d);
/* A re-plan's: the cancellations of OLD's replica runs that `pf` (a
 * re-plan of `old` from slot `now`) does not keep and the submissions of
 * its new ones, appended to replan.sh (x->files[at]), with their scripts. */
int cp_xp_slurm_services_replan(const cp_input *in, const cp_plan_file *pf,
                                const cp_plan_file *old, int now, const cp_export_opts *o,
                                long start, cp_export *x, int at, cp_diags *d);

/* ---- export skypilot: the plan's cloud leases as clusters and tasks ---- */

/* A lease group: the leases (instances over time) that a set of jobs
 * shares, linked by every job that spans more than one of them; one
 * SkyPilot cluster of `nodes` nodes from `start` to `end`. */
typedef struct cp_xp_cluster {
    const cp_offer *of;
    bool spot;
    long start, end;  /* slots [start, end) */
    int nodes;        /* the most of its leases in use at once */
    int n_leases;
    long lease_slots; /* its leases' slots: the plan's instance-slots */
    char name[24];    /* the SkyPilot cluster name, capplan-NNN */
    cp_buf file;      /* clusters/NNN-OFFER.yaml */
} cp_xp_cluster;

/* A cloud job: one task of its cluster's job queue. */
typedef struct cp_xp_task {
    const cp_plan_job *pj;
    int job;     /* input index */
    int cluster; /* index in cp_xp_sky.c */
    int nodes;   /* instances it spans (num_nodes) */
    long acc;    /* accelerators per node, 0 for none */
    long cpus;   /* CPUs per node, 0 for SkyPilot's default */
    cp_buf file; /* tasks/NNN-NAME.yaml */
} cp_xp_task;

/* A started cloud job that a re-plan cancels on a cluster that runs on
 * (capplan.5 §10.5): launch.sh says so, SkyPilot cancels by job id. */
typedef struct cp_xp_cancel {
    const char *job, *cluster; /* borrowed from OLD's plan and clusters */
} cp_xp_cancel;

/* A cloud deployment of a service: one SkyServe service (export_serve.c). */
typedef struct cp_xp_serve {
    int svc; /* input index */
    const cp_plan_svc_dep *de;
    const cp_offer *of;
    bool spot;
    long replica_slots; /* its replicas' slots: instances as launched */
    int num;                            /* NNN */
    char name[24];                      /* the SkyServe service, capplan-svc-NNN */
    cp_buf stem;                        /* services/NNN-NAME-cC: its files add -xK.yaml */
} cp_xp_serve;

typedef struct cp_xp_sky {
    cp_xp_cluster *c; /* in order of start */
    int n_c;
    cp_xp_task *t; /* in order of start, then plan order */
    int n_t;
    int n_leases;
    bool have_start, utc; /* horizon.start, in seconds of its wall clock */
    long start;
    /* a re-plan from slot `from` (capplan.5 §10.5; 0 for a plan): what
     * began before it runs already and is not written; clusters whose
     * jobs the re-plan ends at `from` go down then (down_at_from) */
    long from;
    bool *down_at_from; /* per cluster, or NULL */
    cp_xp_cancel *cancel;
    int n_cancel;
    /* OLD's clusters that ran on to `from` or past it and of which the
     * re-plan keeps no lease (their jobs cancelled): stopped at `from` */
    const cp_xp_cluster **gone; /* borrowed */
    int n_gone;
    cp_xp_serve *v; /* the services' cloud deployments, in plan order */
    int n_v;
} cp_xp_sky;

/* Groups the plan's leases into clusters and its cloud jobs into their
 * tasks (export_launch.c). `lenient`: a job the inputs lack is left out
 * (OLD of a re-plan) instead of an error. Errors to d. */
int cp_xp_sky_build(const cp_input *in, const cp_plan_file *pf, bool lenient, cp_xp_sky *s,
                    cp_diags *d);
/* The cluster and task files from s->from on, launch.sh and launch.md. */
int cp_xp_sky_write(const cp_input *in, cp_xp_sky *s, const cp_export_opts *o, cp_export *x,
                    cp_diags *d);
/* Frees what s holds (not s); accepts a zeroed s. */
void cp_xp_sky_release(cp_xp_sky *s);

/* The services' cloud deployments of `pf` into s->v (export_serve.c);
 * errors to d. */
int cp_xp_serve_build(const cp_input *in, const cp_plan_file *pf, cp_xp_sky *s, cp_diags *d);
void cp_xp_serve_release(cp_xp_sky *s);
/* Names x capplan-svc-NUM, its files services/NUM-NAME-cC-xK.yaml (a
 * re-plan keeps OLD's numbers); CP_OK or CP_ERR_NOMEM. */
int cp_xp_serve_number(const cp_input *in, cp_xp_serve *x, int num);
/* Replicas of v in slot t (0 outside the horizon). */
int cp_xp_serve_count(const cp_xp_serve *v, long t);
/* services/NNN-NAME-cC-xK.yaml for every count K of every deployment
 * (a re-plan's: every count from slot s->from on). */
int cp_xp_serve_files(const cp_input *in, const cp_xp_sky *s, cp_export *x, cp_diags *d);
/* launch.md's services section (nothing without services); `when`:
 * times as wall clock. CP_OK or CP_ERR_NOMEM. */
int cp_xp_serve_md(const cp_input *in, const cp_xp_sky *s, bool when, cp_buf *b);

/* Shared by the SkyPilot files: "slot S (hour H)" or the wall-clock time
 * of slot `slot`; the cloud's instance type, accelerators attached to it
 * and zone from an offer; a YAML's end, with run: `script` (a literal
 * block when it reads back exactly so) when not NULL. */
void cp_xp_put_when(cp_buf *b, const cp_input *in, bool have_start, long start, long slot);
void cp_xp_instance_type(const cp_offer *of, cp_buf *type, cp_buf *acc, cp_buf *zone);
struct cp_out;
int cp_xp_finish_yaml(struct cp_out *o, cp_export_file *f, const char *script, cp_diags *d);
/* The start of a YAML file: `name` added to x (*f) with a YAML writer over
 * its text, when `ok` (the caller's buffers were built). NULL, with out of
 * memory reported to d, when it cannot start or !ok. */
struct cp_out *cp_xp_open_yaml(cp_export *x, const cp_buf *name, bool ok, cp_export_file **f,
                               cp_diags *d);

/* launch.sh: the clusters and tasks of `s` at their times (export_launch_sh.c). */
int cp_xp_sky_script(const cp_input *in, const cp_xp_sky *s, const cp_export_opts *o,
                     cp_export *x, cp_diags *d);

#endif
