/*
 * Inputs built by hand for the solver unit tests (test_usage.c,
 * test_placement.c, test_lns.c): each YAML document given inline is
 * written to its own temporary file and loaded through cp_input_load,
 * the loader the CLI uses (documents merge as the CLI merges its files),
 * then the modes are built. Lookups by name keep the tests readable.
 */
#ifndef CP_UNIT_FIXTURE_H
#define CP_UNIT_FIXTURE_H

#include "cp_input.h"
#include "cp_modes.h"

#include <stdbool.h>

typedef struct cp_fx {
    cp_input *in;
    cp_modeset *ms;
} cp_fx;

/* Loads the documents (the second may be NULL) and builds the modes;
 * false, with the loader's errors on stderr and a test failure, when
 * either step fails. The temporary files are removed at once. */
bool cp_fx_load(cp_fx *fx, const char *doc1, const char *doc2);
void cp_fx_release(cp_fx *fx);
/* Index of job `name` (a failure and -1 when there is none). */
int cp_fx_job(const cp_fx *fx, const char *name);
/* Index of the resource with id `id` (pool name, offer name, OFFER:spot). */
int cp_fx_res(const cp_fx *fx, const char *id);
/* Global index of the mode of job `job` on resource `res` with count k
 * (a failure and -1 when there is none). */
int cp_fx_mode(const cp_fx *fx, const char *job, const char *res, int k);

#endif
