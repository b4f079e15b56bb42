/*
 * Small helpers to write YAML fragments (the outputs of `fit` and
 * `import`) into a cp_buf: scalars quoted exactly when YAML 1.2 would
 * read them as something other than the intended string, and a block
 * emitter that copies a parsed cp_node subtree back out (used to merge
 * job definitions into fitted fragments).
 */
#ifndef CP_IMPORT_YAML_H
#define CP_IMPORT_YAML_H

#include "cp_buf.h"

#include <stdbool.h>

struct cp_node;

/* Writes `s` as a YAML string scalar: plain when that reads back as the
 * same string (not a number, bool, null, and no special characters),
 * double-quoted with escapes otherwise. Safe in block and flow context. */
void cp_yaml_put_str(cp_buf *b, const char *s);
/* True when `s` can be written plain (see above). */
bool cp_yaml_plain_ok(const char *s);
/* Writes `node` as the value of a block mapping key whose line is already
 * written up to "key:" (a scalar goes on the same line, collections on the
 * following lines indented by `indent` spaces). Ends with a newline. */
void cp_yaml_put_value(cp_buf *b, const struct cp_node *node, int indent);
struct cp_tr_report;
/* Writes a training fit as a `jobs:` fragment (used by `fit training` and
 * `import gavel`). `jobs` are job definitions to merge (may be NULL);
 * `work` is written for jobs without one. */
void cp_fit_tr_yaml(cp_buf *b, const struct cp_tr_report *r, const struct cp_node *const *jobs,
                    int n_jobs, double work);
/* The job map named `name` among `jobs`, or NULL. */
const struct cp_node *cp_fit_find_def(const struct cp_node *const *jobs, int n_jobs,
                                      const char *name);
/* Copies a job definition's keys, except `name` and those in the
 * NULL-terminated `skip`, as block-map lines indented 4 spaces. */
void cp_fit_put_def_keys(cp_buf *b, const struct cp_node *def, const char *const *skip);

/* Writes a number that reads back exactly: integers (|v| < 1e15) without
 * exponent or fraction, others as cp_fmt_num. */
void cp_yaml_put_num(cp_buf *b, double v);
/* The same into out (at least 40 bytes), for CSV output. */
void cp_yaml_fmt_num(char *out, size_t size, double v);

/* Writes `n` spaces. */
void cp_yaml_indent(cp_buf *b, int n);

#endif
