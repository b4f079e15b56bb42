/*
 * The plan verifier (capplan.5 §3-5): an independent check of a plan
 * tree against the loaded inputs. It re-derives every cost from capplan.5 §3-4
 * itself (it shares only the loader and the mode enumeration of capplan.5 §2
 * with the planner, never models/cp_cost.*), so a bug in the planner's
 * cost code cannot hide in its own checker.
 *
 * The library part never prints: it returns a list of violations, each
 * with the position of the plan node concerned, and the re-costed totals.
 * The CLI (cmd_verify.c) prints them. Assumptions are in docs/verify.md.
 */
#ifndef CP_VERIFY_H
#define CP_VERIFY_H

#include "cp_err.h"
#include "cp_input.h"
#include "cp_plan_read.h"

#include <stdbool.h>
#include <stddef.h>

struct cp_node;

/* One broken rule: where in the plan, and what. `msg` is owned. */
typedef struct cp_violation {
    cp_pos pos; /* pos.file borrowed from the plan tree */
    char *msg;
} cp_violation;

typedef struct cp_verify_report {
    cp_violation *items; /* sorted by position (stable) */
    int n;
    size_t cap;
    /* The plan is not a capplan plan that can be checked (root not a
     * mapping, `capplan_plan` not 1, no valid `status`, no `jobs` list):
     * the CLI exits 2. The reasons are among the violations. */
    bool malformed;
    /* status: infeasible; only the structure was checked. */
    bool infeasible;
    /* `sums` holds the re-costed totals (false for malformed or
     * infeasible plans). Scheduled jobs whose mode is invalid add
     * nothing to the sums. */
    bool costed;
    cp_costs sums; /* the plan's `totals` keys, re-costed */
} cp_verify_report;

void cp_verify_report_init(cp_verify_report *r);
/* Frees the violations; the report is empty again. NULL is fine. */
void cp_verify_report_release(cp_verify_report *r);
/* True when nothing is violated and the plan was checkable. */
bool cp_verify_report_is_ok(const cp_verify_report *r);

/* Checks `plan` (the root of a parsed plan file, borrowed) against `in`
 * (borrowed): reads it with cp_plan_read (the slot count of `in`), then
 * cp_verify_plan_file. Violations and totals go to `rep` (initialized by
 * the caller; previous contents are released). Returns CP_OK whatever
 * the verdict; CP_ERR_NOMEM (or the code of a failure to enumerate
 * modes) with `err` set otherwise, leaving `rep` empty. */
int cp_verify_plan(const cp_input *in, const struct cp_node *plan, cp_verify_report *rep,
                   cp_err *err);
/* The same for a plan already read (borrowed; read with
 * cp_plan_read_opts.slots = in->slots, so that its per-slot lists were
 * checked against the inputs). The reader's problems become violations,
 * but for CP_PLAN_EXTRA ones (keys no rule of capplan.5 §3-5 reads). */
int cp_verify_plan_file(const cp_input *in, const cp_plan_file *pf, cp_verify_report *rep,
                        cp_err *err);

struct cp_replan;
/* capplan.5 §10.5: the same for a re-plan from OLD, `rp` (cp_replan.h),
 * checked on `view` (cp_replan_view_new of the inputs and rp), so that
 * free and broken jobs start no earlier than S, broken training jobs run
 * their work_left and the history is not re-checked against the inputs;
 * then what OLD keeps (verify_replan.c). Both borrowed. */
int cp_verify_replan(const cp_input *view, const struct cp_replan *rp, const struct cp_node *plan,
                     cp_verify_report *rep, cp_err *err);

/* Relative comparison used for every re-costed number: true when
 * |a - b| <= rel * max(|a|, |b|) + 1e-9. */
bool cp_verify_close(double a, double b, double rel);

#endif
