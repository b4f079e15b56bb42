/*
 * What `capplan fit` (cmd_fit.c) and its --params mode (cmd_fit_param.c)
 * share: the job definitions given with --jobs or as extra YAML files.
 */
#ifndef CP_FIT_CMD_H
#define CP_FIT_CMD_H

#include "cp_err.h"
#include "cp_fit.h"
#include "cp_yaml.h"

#include <stddef.h>

typedef struct cp_fit_defs {
    cp_node **roots;
    int n;
    const cp_node **jobs; /* job maps with a scalar name */
    int n_jobs;
    size_t cap;
} cp_fit_defs;

/* Reads the YAML files (paths) and collects their jobs with a scalar
 * name; errors go to diags (CP_ERR_INPUT returned, the readable files
 * kept). Release with cp_fit_defs_release (cmd_fit_param.c). */
int cp_fit_defs_load(cp_fit_defs *d, char **paths, int n, cp_diags *diags);
void cp_fit_defs_release(cp_fit_defs *d);

/* fit dataflow --params / --samples / --concrete (cmd_fit_param.c). */
typedef struct cp_fit_param_args {
    const char *params;          /* --params LIST, NULL when not given */
    const char *const *more;     /* --samples FILE... (argv strings) */
    int n_more;
    const char *const *concrete; /* --concrete NAME=JOB:P=V,... */
    int n_concrete;
} cp_fit_param_args;

/* True when any of the three was given. */
int cp_fit_param_wanted(const cp_fit_param_args *a);
/* Runs the whole command in that mode; returns the exit status. */
int cp_fit_param_run(const cp_fit_param_args *a, const cp_fit_opts *o, const char *samples,
                     char **jobfiles, int n_jobfiles, const char *outpath);

#endif
