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
/* The job map named `name` among `jobs`, or NULL. */
const struct cp_node *cp_fit_find_def(const struct cp_node *const *jobs, int n_jobs,
                                      const char *name);
/* Copies a job definition's keys, except `name` and those in the
 * NULL-terminated `skip`, as block-map lines indented 4 spaces. */
void cp_fit_put_def_keys(cp_buf *b, const struct cp_node *def, const char *const *skip);

#endif
