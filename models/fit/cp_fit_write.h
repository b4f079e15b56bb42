/*
 * Fitted training models as a `jobs:` input fragment (the output of
 * `fit training` and `import gavel`), merged with job definitions the
 * user gave.
 */
#ifndef CP_FIT_WRITE_H
#define CP_FIT_WRITE_H

#include "cp_buf.h"
#include "cp_fit.h"

struct cp_node;

/* Writes a training fit as a `jobs:` fragment (used by `fit training` and
 * `import gavel`). `jobs` are job definitions to merge (may be NULL);
 * `work` is written for jobs without one. */
void cp_fit_tr_yaml(cp_buf *b, const cp_tr_report *r, const struct cp_node *const *jobs,
                    int n_jobs, double work);
/* A training fit's `    throughput:` and `    scaling:` lines for the
 * allowed counts ks[0..nk), each of them measured by some type: the
 * scaling is Amdahl's curve, the mean table (f->shared), or a table per
 * type where a count the type was not measured at takes the mean table's
 * speedup (and a comment says so). The one writer of both keys for `fit
 * training` and `import gavel`. */
void cp_fit_tr_put_model(cp_buf *b, const cp_tr_fit *f, const int *ks, int nk);
/* The job map named `name` among `jobs`, or NULL. */
const struct cp_node *cp_fit_find_def(const struct cp_node *const *jobs, int n_jobs,
                                      const char *name);
/* Copies a job definition's keys, except `name` and those in the
 * NULL-terminated `skip`, as block-map lines indented 4 spaces. */
void cp_fit_put_def_keys(cp_buf *b, const struct cp_node *def, const char *const *skip);

/* ---- dataflow fits with job parameters (fit_write_param.c) ---- */

/* `machines: [...]  # measured scale-outs` line: the integer scale-outs
 * measured on any type of `job`. */
void cp_fit_df_machines(cp_buf *b, const cp_df_report *r, const char *job);

/* One job to write from a parameter-dependent fit: a measured job at
 * given parameter values (a definition's `fit:` key or --concrete). */
typedef struct cp_df_concrete {
    const char *name;          /* the job written */
    const char *job;           /* the measured job (samples' `job`) */
    cp_pos pos;                /* where it was given */
    const struct cp_node *def; /* its definition, or NULL */
    bool has_input;            /* input_gb given (definition or option) */
    double input_gb;
    int n;                     /* parameter values given */
    const char *pname[CP_DF_MAX_PARAMS];
    double pval[CP_DF_MAX_PARAMS];
    cp_pos ppos[CP_DF_MAX_PARAMS];
} cp_df_concrete;

/* Each concrete job's measured job exists, every name given is one of its
 * parameters, and every parameter that varies in its runs has a value
 * (and input_gb is given); errors at the positions given. */
int cp_df_concrete_check(const cp_df_report *r, const cp_df_params *pn, const cp_df_concrete *c,
                         int n, cp_diags *d);

/* The fit report of --params: per (job, type) the model's and plain
 * Ernest's figures, per job the median and worst leave-one-configuration-
 * out MAPE over its types, and each model's terms. */
void cp_fit_df_param_table(cp_buf *b, const cp_df_report *r, const cp_df_params *pn);

/* The `jobs:` fragment of --params: each concrete job with the Ernest θ
 * of its parameter values per type; a measured job whose runs vary no
 * parameter is written as without --params (θ at its input). Warnings:
 * values outside the measured range, θ clamped, measured jobs not
 * written. */
void cp_fit_df_param_yaml(cp_buf *b, const cp_df_report *r, const cp_df_params *pn,
                          const cp_df_concrete *c, int n, const struct cp_node *const *jobs,
                          int n_jobs, const char *src, cp_diags *warnings);

#endif
