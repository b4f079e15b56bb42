/* The plan file of capplan.5 §5, as YAML, JSON or a CSV job table. */
#ifndef CP_PLAN_WRITE_H
#define CP_PLAN_WRITE_H

#include "cp_buf.h"
#include "cp_plan.h"

typedef enum { CP_FMT_YAML, CP_FMT_JSON, CP_FMT_CSV } cp_plan_format;

typedef struct cp_plan_write_opts {
    cp_plan_format format;
    bool timing;   /* false: solver.seconds is written as 0 (byte-stable) */
    const char *infeasible_reason; /* for status infeasible */
} cp_plan_write_opts;

/* Appends the plan to buf. Every figure comes from cp_plan_eval; a
 * placed plan lists the leases of each market (cp_leases.h). */
int cp_plan_write(const cp_plan *p, const cp_plan_write_opts *o, cp_buf *buf, cp_err *err);
/* Appends the plan's leases as CSV, one row each: market, kind
 * (on_demand or spot), id, start_slot, slots, start_hour, end_hour,
 * cost (the instance's slots at the market's price, carbon included
 * when the offer has a site) and jobs (space-separated, in the order
 * they start). A header alone for an infeasible or unplaced plan. */
int cp_plan_write_leases_csv(const cp_plan *p, cp_buf *buf, cp_err *err);

struct cp_out;
/* The `services` section (capplan.5 §10.4; plan_write_svc.c) of a plan
 * whose input has services, with f from cp_plan_eval; nothing otherwise. */
void cp_plan_write_services(struct cp_out *o, const cp_plan *p, const cp_plan_figures *f);

#endif
