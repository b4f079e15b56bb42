/*
 * Fitting runtime and throughput models to measured samples (capplan.5 §7).
 *
 * Dataflow: Ernest's model t(m) = θ0 + θ1·input_gb/m + θ2·ln m + θ3·m,
 * θ >= 0, per (job, machine type), by NNLS (cp_nnls.h); quality as R²,
 * MAPE, leave-one-out cross-validated MAPE, residual standard deviation,
 * and optionally the error when each input size in turn is held out.
 *
 * Training: per job, one-accelerator throughput per accelerator type and
 * a speedup table per type (version 1.1: each type's own measured speedups),
 * or one speedup curve for the job (a table of mean measured speedups, or
 * Amdahl's law with a least-squares serial fraction); see docs/models.md
 * for how several accelerator types are combined. `fit training` and
 * `import gavel` both write what this fit gives (cp_fit_write.h).
 *
 * Everything here returns data: reports own copies of every name, and
 * warnings go to a cp_diags (cp_diags_warn) for the command to print. The
 * samples are borrowed and may point into a cp_csv.
 */
#ifndef CP_FIT_H
#define CP_FIT_H

#include "cp_csv.h"
#include "cp_err.h"
#include "cp_limits.h"

#include <stdbool.h>

/* ---- Ernest, one (job, type) ---- */

/* Leave-one-out refits the model once per sample (quadratic in the
 * samples of a job and type): past this many samples it is not computed
 * (reported n/a) so a large sample file cannot run for hours. */
#define CP_FIT_LOO_MAX 2000

typedef struct cp_ernest {
    double theta[4];
    int samples;
    int scaleouts;      /* distinct m */
    int sizes;          /* distinct input sizes */
    double r2;          /* 1 - RSS/TSS (1 when TSS = 0 and RSS = 0) */
    double mape;        /* percent, in-sample */
    double loo_mape;    /* percent, leave-one-out; NAN when not computed
                         * (also past CP_FIT_LOO_MAX samples) */
    double sigma;       /* sqrt(RSS / max(1, n - nonzero θ)), seconds */
    double holdout_mape; /* percent, each input size held out in turn;
                          * NAN when not computed or < 2 sizes */
} cp_ernest;

/* Predicted seconds. */
double cp_ernest_predict(const double theta[4], double machines, double input_gb);

/* Fits one group: arrays of n runs (machines > 0, input_gb >= 0,
 * seconds > 0). `loo` and `holdout` ask for the cross-validated errors
 * (n and number-of-sizes refits). */
int cp_ernest_fit(const double *machines, const double *input_gb, const double *seconds, int n,
                  bool loo, bool holdout, cp_ernest *out, cp_err *err);

/* ---- dataflow samples and report ---- */

/* Job parameters (`fit dataflow --params`): columns besides the five,
 * named in a cp_df_params shared by every sample file read. */
#define CP_DF_MAX_PARAMS 16

typedef struct cp_df_params {
    char *names[CP_DF_MAX_PARAMS]; /* owned */
    int n;
} cp_df_params;
void cp_df_params_release(cp_df_params *p);

typedef struct cp_df_sample {
    const char *job, *type; /* borrowed */
    double machines, input_gb, seconds;
    cp_pos pos;
    double pv[CP_DF_MAX_PARAMS]; /* by cp_df_params index; NAN: not given */
} cp_df_sample;

struct cp_pm_fit;

typedef struct cp_df_fit {
    char *job, *type;
    cp_pos pos; /* first sample of the group */
    cp_ernest e;
    double *machine_counts; /* distinct m measured, ascending */
    double max_input_gb;
    /* --params: the job's parameters (cp_df_params indexes, in order) and
     * the parameter-dependent model; NULL without --params */
    int n_params;
    int params[CP_DF_MAX_PARAMS];
    struct cp_pm_fit *pm;
} cp_df_fit;

typedef struct cp_df_report {
    cp_df_fit *fits; /* in order of first appearance of (job, type) */
    int n_fits;
} cp_df_report;

/* A sample's name (WHAT: "job", "type", "accelerator") is not empty and
 * at most CP_NAME_MAX bytes, else an error at POS; the fits write names
 * into inputs, which must load. */
bool cp_fit_name_ok(const char *s, const char *what, cp_pos pos, cp_diags *diags);

/* Reads `job,type,machines,input_gb,seconds` (any column order, extra
 * columns ignored). Every bad field is reported to diags with FILE:LINE;
 * on success *out (cp_free it) holds n samples borrowing from csv. */
int cp_df_samples_read(const cp_csv *csv, cp_df_sample **out, int *n, cp_diags *diags);
/* The same, appending to *s (n samples, capacity *cap; all may start 0
 * and NULL), and reading parameter columns: `want` NULL reads none, "all"
 * every column besides the five, else a comma-separated list of names (a
 * listed column a file lacks is absent from its rows; the caller checks
 * that each was found somewhere: cp_df_params_check). An empty field is
 * a parameter the row does not have; anything else must be a number. */
int cp_df_samples_append(const cp_csv *csv, const char *want, cp_df_params *pn,
                         cp_df_sample **s, int *n, size_t *cap, cp_diags *diags);
/* Every name of `want` (not "all") is a column of some file read. */
int cp_df_params_check(const char *want, const cp_df_params *pn, cp_diags *diags);

typedef struct cp_fit_opts {
    bool loo;      /* leave-one-out (default true) */
    bool holdout;  /* hold out each input size (default false) */
    bool amdahl;   /* training: Amdahl instead of a table */
    bool shared;   /* training tables: one over all types (before version 1.1)
                    * instead of one per type (default false) */
    bool params;   /* dataflow: also fit the parameter-dependent model */
    const cp_df_params *param_names; /* borrowed, with params */
} cp_fit_opts;
void cp_fit_opts_init(cp_fit_opts *o);

int cp_df_fit_all(const cp_df_sample *s, int n, const cp_fit_opts *o, cp_df_report **out,
                  cp_diags *warnings, cp_err *err);
void cp_df_report_free(cp_df_report *r);

/* ---- training ---- */

typedef struct cp_tr_sample {
    const char *job, *acc; /* borrowed */
    int count;
    double throughput; /* work units / s of the whole job */
    cp_pos pos;
} cp_tr_sample;

typedef struct cp_tr_type {
    char *acc;
    double thr1;      /* work units / s on one accelerator */
    bool thr1_fitted; /* count 1 not measured: fitted (see docs/models.md) */
    int samples;
    /* The type's own table, S_a(counts[c]) of its cp_tr_fit: the measured
     * thr_a(k) / thr1, and where the type was not measured at k the
     * job's mean table S(k) (filled[c] true; also for count 1 when thr1
     * is fitted, where S_a(1) = 1 by the definition of thr1). */
    double *speedup;
    bool *filled;
} cp_tr_type;

typedef struct cp_tr_point {
    char *acc; /* borrowed from the cp_tr_type */
    int count;
    double measured, predicted, err_pct; /* err = (pred - meas) / meas */
    cp_pos pos;
} cp_tr_point;

typedef struct cp_tr_fit {
    char *job;
    cp_pos pos;
    cp_tr_type *types;
    int n_types;
    int *counts; /* measured counts, ascending, always with 1 */
    double *speedup; /* the job's mean table: S(counts[i]) (also per type) */
    int n_counts;
    bool amdahl;
    bool shared; /* a table: the mean one (else each type's own) */
    double serial_fraction; /* least squares, also computed for tables */
    cp_tr_point *points; /* one per (type, count), repeats averaged;
                          * predicted by the scaling written */
    int n_points;
    double mape;
} cp_tr_fit;

typedef struct cp_tr_report {
    cp_tr_fit *fits;
    int n_fits;
} cp_tr_report;

/* Reads `job,accelerator,count,throughput`. */
int cp_tr_samples_read(const cp_csv *csv, cp_tr_sample **out, int *n, cp_diags *diags);
int cp_tr_fit_all(const cp_tr_sample *s, int n, const cp_fit_opts *o, cp_tr_report **out,
                  cp_diags *warnings, cp_err *err);
void cp_tr_report_free(cp_tr_report *r);
/* S(k) of a fit's one curve (the mean table or Amdahl); table counts not
 * measured by any type give NAN. */
double cp_tr_speedup(const cp_tr_fit *f, int k);
/* S_a(k) of type index a's own table; counts not measured by any type
 * give NAN. *filled (may be NULL) says the type was not measured at k. */
double cp_tr_type_speedup(const cp_tr_fit *f, int a, int k, bool *filled);

#endif
