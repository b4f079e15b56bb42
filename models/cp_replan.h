/*
 * Re-planning once the night has begun (capplan.5 §10.5): what a new plan
 * keeps of an earlier one, OLD, from slot S (`--now`) on.
 *
 * cp_replan_build matches OLD (a plan file read by cp_plan_read) against
 * the inputs and sorts every job of the inputs: free (new, dropped by OLD
 * or started by OLD at a slot >= S), started (keeps OLD's resource,
 * market, count, shape, power limit, start and nodes) or broken (a pool
 * node of its run is down in a slot >= S: re-planned from its last
 * checkpoint with `work_left`); it keeps OLD's instances of every market
 * before S. What OLD cannot mean under these inputs (another horizon, a
 * started job on a resource or in a mode the inputs do not have, a market
 * rented before S that is gone) is an error naming the first mismatch.
 *
 * The planner turns it into its solve input and modes (cp_replan_view,
 * cp_replan_modes: replan_view.c), so that every method honours it by the
 * modes it is given; verify checks a new plan against the same sorting
 * (docs/spec-notes.md, "Re-planning").
 *
 * Ownership: a cp_replan owns its arrays; it borrows nothing after
 * cp_replan_build returns.
 */
#ifndef CP_REPLAN_H
#define CP_REPLAN_H

#include "cp_err.h"
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_plan_read.h"

#include <stdbool.h>

typedef enum cp_replan_kind {
    CP_REPLAN_FREE,    /* planned anew, released at S */
    CP_REPLAN_STARTED, /* keeps OLD's run */
    CP_REPLAN_BROKEN   /* re-planned from its last checkpoint, released at S */
} cp_replan_kind;

/* OLD's choice for a job: (resource, count, shape, limit) and start, with
 * the resource index of cp_modes_build (res -1: OLD did not schedule it,
 * or its choice is not one these inputs can name). */
typedef struct cp_replan_choice {
    int res, count, shape, limit, start, slots;
} cp_replan_choice;

typedef struct cp_replan_job {
    cp_replan_kind kind;
    bool in_old;          /* OLD lists the job */
    cp_replan_choice old; /* OLD's choice */
    int *units;           /* OLD's node or instance indices, NULL when OLD gave none */
    int n_units;
    double work;          /* training: the work to plan (work_left when broken) */
    /* OLD scheduled it at a slot >= S: a new plan that drops it or gives it
     * another choice pays the change penalty */
    bool changeable;
} cp_replan_job;

typedef struct cp_replan {
    int now;       /* S */
    int slots;     /* T of the inputs */
    int n_res;     /* resources of cp_modes_build */
    int n_jobs;    /* of the inputs */
    double change_penalty;
    cp_replan_job *job; /* [n_jobs] */
    int *y_hist;        /* [n_res * now]: OLD's instances of market r before S, 0 for pools */
    int started, broken, cancelled;
    /* OLD's solver.inputs is the inputs' digest (cp_input.h): the inputs
     * did not change since OLD was planned, so OLD's plan is the re-plan
     * when it still holds (cp_replan_keep_old, solvers/replan_warm.c) */
    bool unchanged;
    /* with `unchanged`: OLD's bound, a lower bound of the re-plan too (its
     * plans are plans of OLD's inputs with no fewer costs); NAN when OLD
     * has none or is itself a re-plan (planned against its own OLD) */
    double old_bound;
    /* OLD's services (capplan.5 §10.4) under the deployments, shares and
     * classes of the modeset given to cp_replan_build (the view's are the
     * same: it changes no service or resource), over the whole horizon: a
     * re-plan keeps them in slots < S (cp_plan_keep_history) and starts
     * from them after (the warm start). 0 where OLD has none (a service
     * new in the inputs). svc_unit: OLD's node or instance of each
     * replica, cells as cp_plan's (svc_unit_off[d*slots+t] ..), NULL
     * when OLD did not place every replica. */
    int n_deps, n_shares, n_classes;
    int *svc_n;    /* [n_deps * slots] */
    double *svc_f; /* [n_shares * slots] */
    double *svc_u; /* [n_classes * slots] */
    int *svc_unit;
    size_t *svc_unit_off; /* [n_deps * slots + 1] */
} cp_replan;

/* Whether slot t is history (t < S) of a re-plan rp; false for NULL. */
static inline bool cp_replan_is_history(const struct cp_replan *rp, int t)
{
    return rp && t < rp->now;
}

/* Builds the re-plan of `in` (whose resources `ms` enumerates, e.g. from
 * cp_modes_build) from OLD `old` (read with cp_plan_read_opts.slots =
 * in->slots) at slot `now`, 0 <= now <= in->slots, with the change
 * penalty `penalty` >= 0 (verify passes -1: the one the new plan names). A mismatch between OLD and the inputs is
 * CP_ERR_INPUT with err at OLD's node; *out is new on success. */
int cp_replan_build(const cp_input *in, const cp_modeset *ms, const cp_plan_file *old, int now,
                    double penalty, cp_replan **out, cp_err *err);
void cp_replan_free(cp_replan *rp);
/* "ID/i" of resource r: i, or -1 (OLD's `nodes`). */
int cp_replan_unit_index(const cp_resource *r, const char *id);
/* OLD's services into rp (replan_svc.c; cp_replan_build calls it): a
 * replica OLD runs before S on a deployment the inputs do not have, or on
 * a node the pool does not have, is CP_ERR_INPUT at OLD's node. */
int cp_replan_read_services(const cp_input *in, const cp_modeset *ms, const cp_plan_file *old,
                            cp_replan *rp, cp_err *err);
/* The same from OLD's file `path` (YAML or JSON): the reader's problems
 * with OLD's choices and the first mismatch go to `d` (CP_ERR_INPUT). */
int cp_replan_load(const cp_input *in, const cp_modeset *ms, const char *path, int now,
                   double penalty, cp_replan **out, cp_diags *d);

/* Whether a new choice (res -1: dropped) differs from OLD's for job j
 * in what capplan.5 §10.5 prices: any of resource, market, count, shape,
 * power limit and start, or a drop. Only for changeable jobs. */
bool cp_replan_is_change(const cp_replan *rp, int j, const cp_replan_choice *now_choice);

/* The input a re-plan is solved on: `in` with free and broken jobs
 * released at S, broken training jobs' work at their work_left, started
 * jobs free to start at their slot on any resource, and the history
 * (slots < S, which is not re-checked: capplan.5 §10.6) relaxed so OLD's
 * runs there fit: pools up to the nodes started jobs hold, markets' quotas
 * up to OLD's instances, no power caps and no team quotas. It borrows
 * everything else from `in`, which must outlive it; `ms` enumerates the
 * resources of `in` (the modes of cp_replan_build). */
int cp_replan_view_new(const cp_input *in, const cp_modeset *ms, const cp_replan *rp,
                       cp_input **out, cp_err *err);
void cp_replan_view_free(cp_input *view);

/* The modes of the view for the search: a started job has one mode, OLD's,
 * at OLD's start; with a change penalty P > 0, OLD's (mode, start) of a
 * changeable job is a mode of its own with `change` -P (the others 0),
 * so every method prices the changes as a per-mode cost beside the
 * constant P per changeable job (cp_replan_change_base). Sets
 * ms->replan to rp (borrowed). A started job whose choice is no mode of
 * the view is CP_ERR_INPUT naming it. */
int cp_replan_modes(const cp_input *view, const cp_replan *rp, cp_modeset **out, cp_err *err);
/* P times the changeable jobs: the changes of a plan that changes all. */
double cp_replan_change_base(const cp_replan *rp);

#endif
