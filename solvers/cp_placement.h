/* Concrete placement of a plan onto node and instance ids (SPEC 5). */
#ifndef CP_PLACEMENT_H
#define CP_PLACEMENT_H

#include "cp_plan.h"

/* Fills plan->units for every scheduled job, repairing (one more
 * instance, another mode or start, or a drop) what cannot be packed;
 * *repairs counts the changes and plan->note describes them. */
int cp_plan_place(cp_plan *plan, int *repairs, cp_err *err);

/* Writes a reason in words for every dropped job that has none yet. */
int cp_plan_explain_drops(cp_plan *plan, cp_err *err);

#endif
