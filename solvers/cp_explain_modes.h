/*
 * Why a job runs where the plan puts it (`capplan explain`,
 * docs/explain.md): every mode of the job priced in that plan, the rest
 * of the plan as it is, and for a mode that cannot be there, why.
 */
#ifndef CP_EXPLAIN_MODES_H
#define CP_EXPLAIN_MODES_H

#include "cp_plan.h"

#include <stdbool.h>

typedef struct cp_mode_why {
    int mode;    /* the global mode index */
    int start;   /* the cheapest start: where it fits, else where it costs least alone */
    double cost; /* fits: what the plan's total changes by with the job there instead of
                  * nowhere; else what it costs there alone (an empty night) */
    bool fits;   /* beside the other jobs, within its predecessors and successors */
    bool chosen; /* the plan's own mode (start: the plan's) */
    char *why;   /* !fits: the reason in words (capacity taken, quota, power cap,
                  * budget, team quota, the window after precedence); else NULL */
} cp_mode_why;

/* Every mode of job j in plan p (choices read, units not needed): the
 * other scheduled jobs are added where the plan puts them and j is tried
 * in each of its modes at every start from its scheduled predecessors'
 * end to its scheduled successors' start. *out gets one entry per mode,
 * cheapest first (ties: mode order); *n their count. CP_OK, or
 * CP_ERR_NOMEM with err set. */
int cp_explain_modes(const cp_plan *p, int j, cp_mode_why **out, int *n, cp_err *err);
void cp_mode_why_free(cp_mode_why *v, int n);

#endif
