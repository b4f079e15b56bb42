/*
 * Leases (capplan.5 §5, version 1.1): what a person or a cloud launcher
 * executes. One lease per maximal run of consecutive slots in which one
 * instance id of a market is in use: start that instance at `start`, hand
 * it `jobs` (in the order they start), return it after `slots` slots.
 * Derived from a placed plan's choices and instance ids alone, so the
 * plan writer, the summary and `report` all see the same leases.
 */
#ifndef CP_LEASES_H
#define CP_LEASES_H

#include "cp_plan.h"

typedef struct cp_lease {
    int res;         /* market (resource index) */
    int unit;        /* instance id: MARKET/unit */
    int start;       /* first slot */
    int slots;       /* length of the run */
    int first_job;   /* its jobs: cp_leases.jobs[first_job .. first_job + n_jobs) */
    int n_jobs;
} cp_lease;

typedef struct cp_leases {
    cp_lease *v;     /* by market, then instance id, then start slot */
    int n;
    int *jobs;       /* job indices, per lease by start slot, then index; a
                      * service's replicas (capplan.5 §10.4) are n_jobs + its index */
    int n_jobs;
    int *first;      /* [n_res + 1]: leases of market r are v[first[r] .. first[r+1]) */
} cp_leases;

/* Builds the leases of a placed plan (plan->placed; units of market jobs
 * are instance ids). CP_OK or CP_ERR_NOMEM; *out is released by
 * cp_leases_release either way. */
int cp_leases_build(const cp_plan *p, cp_leases *out);
void cp_leases_release(cp_leases *l);
/* The name of entry i of a lease's jobs: a job's, or a service's. */
const char *cp_lease_entry_name(const cp_plan *p, int i);

#endif
