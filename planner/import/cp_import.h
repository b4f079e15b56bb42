/*
 * Importers: published catalogs and measurements -> capplan inputs.
 *
 *  - skypilot: a SkyPilot catalog vms.csv -> `accelerators:` and `offers:`
 *    (import_skypilot.c);
 *  - gavel: Gavel's measured throughputs (CSV or JSON) -> training jobs
 *    with `throughput` and per-type `scaling:`, through the same fit as
 *    `fit training` (models/fit/cp_fit_train.c); with a trace, one job per
 *    trace line with its work (import_gavel.c);
 *  - series: hourly grid series -> a site's energy_price or
 *    carbon_intensity over the horizon's slots (import_series.c);
 *  - inventory: Alibaba's GPU node list -> pools (import_inventory.c);
 *  - pollux: Pollux's step times -> a training job per application, or
 *    Philly's jobs with their work (import_pollux.c);
 *  - the accelerator table every importer names types from
 *    (cp_imp_accel.h, import_accel.c);
 *  - c3o: a C3O runtime TSV -> the samples CSV that `fit dataflow` reads
 *    (import_c3o.c);
 *  - zeus: Zeus's epoch time and power against the GPU power limit -> a
 *    training job's `power_limits` (import_zeus.c).
 *
 * Each importer is one call: an options struct (set its defaults with the
 * _init function, then fill what the user gave), one input path, the
 * output text and the diagnostics. They read the input file and nothing
 * else: no printing, no exit, no output file (`capplan import`,
 * planner/cmd/cmd_import.c, prints the diagnostics and writes the text).
 *
 * Common contract of cp_import_skypilot, cp_import_gavel, cp_import_c3o:
 *  - `path` and every string in the options are borrowed for the call.
 *  - `out` is an initialized cp_buf (cp_buf_init). On success it is
 *    replaced by the fragment (its old text is released); on failure it
 *    is left as it was.
 *  - `d` is an initialized cp_diags owned by the caller. Rows that cannot
 *    be used are reported there as warnings naming FILE:LINE and do not
 *    fail the import; every error found is added there too.
 *  - Returns CP_OK, or the code of the first error: CP_ERR_INPUT (an
 *    unusable input or option value), CP_ERR_IO (the input cannot be
 *    read), CP_ERR_NOMEM.
 */
#ifndef CP_IMPORT_H
#define CP_IMPORT_H

#include "cp_buf.h"
#include "cp_err.h"

#include <stdbool.h>

/* capplan import skypilot: which catalog rows become offers, and how. */
typedef struct cp_import_skypilot_opts {
    const char *region;          /* keep rows of this Region; NULL: all */
    const char *zone;            /* keep rows of this AvailabilityZone; NULL: all */
    const char *types;           /* extended regex on InstanceType; NULL: all */
    const char *accelerators;    /* "A,B": keep offers with these only; NULL: all */
    const char *provider;        /* NULL: gcp with AvailabilityZone, azure with
                                    Generation, else the file name up to '_' or '.' */
    const char *site;            /* each offer's site; NULL: none */
    const char *accel_table;     /* --accel-table CSV (cp_imp_accel.h); NULL: built-in */
    const char *const *type_map; /* "MEASURED=OFFERED" labels, n_type_map of them */
    int n_type_map;
    double spot_rate; /* spot interruptions per hour; NAN: the provider's */
    bool n1_gpus;     /* GCP: n1 hosts with attachable GPUs (default true) */
} cp_import_skypilot_opts;

void cp_import_skypilot_opts_init(cp_import_skypilot_opts *o);
/* A SkyPilot vms.csv (schema V7/V8, columns found by name) -> a YAML
 * fragment with `accelerators:` and `offers:`. The first comment line
 * names the file and the options given, in the order of the usage. */
int cp_import_skypilot(const char *path, const cp_import_skypilot_opts *o, cp_buf *out,
                       cp_diags *d);

/* capplan import gavel */
typedef struct cp_import_gavel_opts {
    const char *match;       /* extended regex: keep job types matching it; NULL: all */
    double work;             /* each job's work in steps; > 0 (default 100000) */
    bool amdahl;             /* scaling: amdahl instead of a speedup table */
    bool shared;             /* one speedup table over all types (before version 1.1) */
    bool unconsolidated;     /* keep the *_unconsolidated worker types */
    const char *accel_table; /* --accel-table CSV (cp_imp_accel.h); NULL: built-in */
    const char *trace;       /* a Gavel trace: one job per line (import_gavel.c); NULL: none */
    bool preemptible;        /* every job may use spot markets */
    double cpus_per_acc;     /* > 0: each job's cpus_per_accelerator; 0: not written */
    double mem_per_acc;      /* > 0: each job's memory_gb_per_accelerator; 0: not written */
    int max_jobs;            /* > 0: at most this many jobs */
} cp_import_gavel_opts;

void cp_import_gavel_opts_init(cp_import_gavel_opts *o);
/* Gavel's throughputs, a CSV (worker_type, job_type, scale_factor,
 * throughput_steps_per_s) or, for a path ending in ".json", its
 * {worker: {"('JOB', K)": steps/s}} JSON -> a YAML fragment with
 * `accelerators:` and training `jobs:`. Measurements of 0 (Gavel: the
 * job cannot run there) are left out with one warning naming them; none
 * left is an error. */
int cp_import_gavel(const char *path, const cp_import_gavel_opts *o, cp_buf *out, cp_diags *d);

/* capplan import c3o */
typedef struct cp_import_c3o_opts {
    const char *job; /* the job column; NULL: the file's base name up to '.' */
} cp_import_c3o_opts;

void cp_import_c3o_opts_init(cp_import_c3o_opts *o);
/* A C3O runtime TSV (instance_count, machine_type, data_size_MB,
 * gross_runtime) -> CSV job,type,machines,input_gb,seconds with input_gb
 * = data_size_MB / 1000. A run that cannot be read is an error. */
int cp_import_c3o(const char *path, const cp_import_c3o_opts *o, cp_buf *out, cp_diags *d);

/* capplan import series (import_series.c) */
typedef struct cp_import_series_opts {
    const char *site;         /* the site's name; required */
    const char *start;        /* the horizon's slot 0, "2023-06-01T00:00"; required */
    int slots;                /* 1..10000; required */
    double slot_hours;        /* > 0 (default 1) */
    const char *energy_price; /* a price series file (per MWh); NULL: none */
    const char *carbon;       /* a carbon series file (gCO2/kWh); NULL: none */
    const char *column;       /* the value column's name; NULL: found by name */
    double scale;             /* USD per unit of the price's currency; NAN: 1 */
    double pue;               /* the site's pue; NAN: not written */
    bool horizon;             /* also write `horizon:` */
} cp_import_series_opts;

void cp_import_series_opts_init(cp_import_series_opts *o);
/* One site with the series resampled to the slots. */
int cp_import_series(const cp_import_series_opts *o, cp_buf *out, cp_diags *d);

/* capplan import inventory (import_inventory.c) */
typedef struct cp_import_inventory_opts {
    const char *site;        /* the pools' site; required */
    const char *accel_table; /* --accel-table CSV; NULL: built-in */
    const char *models;      /* "T4,P100": keep nodes of these GPU models; NULL: all */
    int max_nodes;           /* > 0: at most this many nodes per pool */
    bool cpu_nodes;          /* keep nodes without GPUs */
} cp_import_inventory_opts;

void cp_import_inventory_opts_init(cp_import_inventory_opts *o);
/* Alibaba's node list (sn,cpu_milli,memory_mib,gpu,model) ->
 * `accelerators:` and one pool per node shape at site o->site (the site
 * itself is not written: it comes from `import series` or the user's
 * inventory, and a site defined twice is an error). */
int cp_import_inventory(const char *path, const cp_import_inventory_opts *o, cp_buf *out,
                        cp_diags *d);

/* capplan import pollux (import_pollux.c) */
typedef struct cp_import_pollux_opts {
    const char *app;         /* the job's name; NULL: the input's folder */
    const char *accelerator; /* the measured type; NULL: T4 */
    const char *accel_table; /* --accel-table CSV; NULL: built-in */
    double local_bsz;        /* > 0: this per-GPU batch size; 0: the most measured */
    bool all_counts;         /* every measured GPU count, not only powers of 2 */
    double work;             /* the job's work without a trace (default 1e6 samples) */
    const char *trace;       /* a Philly trace (Pollux's extract); NULL: none */
    const char *cluster;     /* keep this virtual cluster; NULL: all */
    const char *start;       /* slot 0's time; NULL: the first submission */
    int max_jobs;            /* > 0: at most this many jobs */
} cp_import_pollux_opts;

void cp_import_pollux_opts_init(cp_import_pollux_opts *o);
/* Pollux's placements.csv or scalability.csv -> `accelerators:` and a
 * training job per measured application, or one per trace line. */
int cp_import_pollux(const char *path, const cp_import_pollux_opts *o, cp_buf *out, cp_diags *d);

/* capplan import zeus (import_zeus.c) */
typedef struct cp_import_zeus_opts {
    const char *network;     /* the workload's network (resnet50); required */
    double batch_size;       /* > 0; required */
    const char *dataset;     /* keep this dataset; NULL: any */
    const char *optimizer;   /* keep this optimizer; NULL: the only one measured */
    const char *accelerator; /* the GPU's spelling; NULL: from summary_power_GPU.csv */
    const char *accel_table; /* --accel-table CSV; NULL: built-in */
} cp_import_zeus_opts;
void cp_import_zeus_opts_init(cp_import_zeus_opts *o);
/* Zeus's summary_power_<gpu>.csv -> a `power_limits:` mapping for one
 * training job: per measured limit that no other beats on both epoch time
 * and energy, its speed against the highest limit's and its average power
 * (capplan.5 §10.3). */
int cp_import_zeus(const char *path, const cp_import_zeus_opts *o, cp_buf *out, cp_diags *d);
/* capplan import accelerators: the table as CSV (cp_imp_accel.h). */
int cp_import_accelerators(const char *accel_table, cp_buf *out, cp_diags *d);

#endif
