/* `capplan plan`'s summary, the part for services (plan_summary_svc.c). */
#ifndef CP_PLAN_SUMMARY_H
#define CP_PLAN_SUMMARY_H

#include "cp_plan.h"

#include <stdio.h>

/* Each service's cost, unserved requests, load and replicas per slot by
 * configuration (capplan.5 §10.4); nothing for an input without services. */
void cp_plan_summary_services(const cp_plan *p, const cp_plan_figures *fig, FILE *f);

#endif
