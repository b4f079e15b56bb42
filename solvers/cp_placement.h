/* Concrete placement of a plan onto node and instance ids (capplan.5 §5). */
#ifndef CP_PLACEMENT_H
#define CP_PLACEMENT_H

#include "cp_plan.h"

/* Fills plan->units for every scheduled job, repairing what cannot be
 * packed (the (mode, start) where the job adds least to the total, or a
 * drop when its penalty is less) and keeping a plain best-fit packing
 * instead when that costs less (docs/place.md, "Repair"); `after` is kept
 * (cp_plan_precedence_final). *repairs counts the changes and plan->note
 * describes them. */
int cp_plan_place(cp_plan *plan, int *repairs, cp_err *err);

/* Writes a reason in words for every dropped job that has none yet. */
int cp_plan_explain_drops(cp_plan *plan, cp_err *err);

/* Precedence (capplan.5 §9.2, solvers/precedence.c) for the plan of any method,
 * before placement: successors of dropped jobs are dropped, successors
 * that start too early move later or are dropped, each with its reason;
 * *changed says whether anything changed (units are then cleared). */
int cp_plan_precedence(cp_plan *plan, bool *changed, cp_err *err);
/* Whether every scheduled job starts after all its predecessors end and
 * none of them is dropped (true for an input without `after`). */
bool cp_plan_precedence_ok(const cp_plan *plan);
/* Whether any job of the input has `after` (capplan.5 §9.2). */
bool cp_input_has_after(const cp_input *in);
/* After placement: drops what its repairs put before a predecessor's end. */
int cp_plan_precedence_final(cp_plan *plan, bool *changed, cp_err *err);
/* Reasons for jobs dropped with a predecessor the optimizer dropped. */
int cp_plan_precedence_reasons(cp_plan *plan, cp_err *err);

#endif
