/*
 * What changed between two plan files (`capplan diff OLD NEW`, and the
 * moved jobs `report NEW --from OLD` marks): what an operator reads before
 * accepting a re-plan (capplan.5 §10.5). Both plans come read by
 * cp_plan_read; nothing here needs the inputs.
 *
 * A job's choice is its resource, market, count, shape (0 when absent),
 * power limit (none when absent) and start slot; its placement is its
 * `nodes`. Per job, in NEW's order and then the jobs only OLD lists:
 *   restarted  NEW says `restarted: true` (a broken job re-planned)
 *   moved      scheduled in both with another choice
 *   re-placed  the same choice on other nodes or instances
 *   added      scheduled in NEW, dropped or absent in OLD
 *   dropped    scheduled in OLD, dropped or absent (cancelled) in NEW
 *   same       otherwise (both dropped included)
 * and per cost part of the list (cp_cost_parts.h) both values, where the
 * plans have them. Services (capplan.5 §10.4): per deployment (service,
 * config, resource, market) of either plan, the slots where its replicas
 * or their nodes differ.
 *
 * Ownership: the entries borrow the plan files, which must outlive the
 * diff; the array is owned.
 */
#ifndef CP_PLAN_DIFF_H
#define CP_PLAN_DIFF_H

#include "cp_err.h"
#include "cp_plan_read.h"

typedef enum cp_diff_kind {
    CP_DIFF_SAME,
    CP_DIFF_RESTARTED,
    CP_DIFF_MOVED,
    CP_DIFF_REPLACED,
    CP_DIFF_ADDED,
    CP_DIFF_DROPPED,
    CP_DIFF_KINDS
} cp_diff_kind;

typedef struct cp_diff_job {
    const char *name;
    cp_diff_kind kind;
    const cp_plan_job *old, *now; /* NULL where the plan has no entry */
} cp_diff_job;

/* A service's deployment in OLD, NEW or both (matched by service name,
 * config, resource and market): [first, last] the slots where its
 * replicas differ, and [first_ids, last_ids] those where their nodes do
 * (-1: none; a slot without nodes in either plan differs by count only). */
typedef struct cp_diff_dep {
    const char *svc;
    const cp_plan_svc_dep *old, *now; /* NULL where the plan has no entry */
    int first, last;
    int first_ids, last_ids;
} cp_diff_dep;

typedef struct cp_plan_diff {
    cp_diff_job *jobs;
    int n;
    int count[CP_DIFF_KINDS];
    cp_diff_dep *deps; /* every deployment of either plan, NEW's order first */
    int n_deps;
    int deps_changed;  /* of them, those with a slot that differs */
} cp_plan_diff;

/* "moved", "re-placed", ... */
const char *cp_diff_kind_name(cp_diff_kind k);

void cp_plan_diff_init(cp_plan_diff *d);
void cp_plan_diff_release(cp_plan_diff *d);
/* Compares OLD `a` with NEW `b` (both borrowed; entries without a name
 * are left out: the reader said so). CP_OK or CP_ERR_NOMEM. */
int cp_plan_diff_build(const cp_plan_file *a, const cp_plan_file *b, cp_plan_diff *out,
                       cp_err *err);
struct cp_buf;
/* Appends a job's run in words: "rack (pool) x4 from slot 1 [rack/0]",
 * with its shape and power limit when it has them; "dropped" for a
 * dropped entry and "absent" for NULL. */
void cp_plan_diff_run(struct cp_buf *b, const cp_plan_job *j);
/* Appends a deployment's replicas per slot: "[2, 2, 4]", "absent" for NULL. */
void cp_plan_diff_replicas(struct cp_buf *b, const cp_plan_svc_dep *e);
/* Appends deployment e in words: "config 0 on gpu (on_demand)". */
void cp_plan_diff_dep_name(struct cp_buf *b, const cp_diff_dep *e);
/* Appends the slots where e differs: "replicas differ in slots 1-2, nodes
 * in slot 3" (nothing when it does not). */
void cp_plan_diff_dep_slots(struct cp_buf *b, const cp_diff_dep *e);
/* The entry of job `name` in the diff, or NULL. */
const cp_diff_job *cp_plan_diff_find(const cp_plan_diff *d, const char *name);

#endif
