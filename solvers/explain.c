/*
 * Reasons in words for dropped jobs. A job without modes keeps the reason
 * from mode enumeration. For a job the solver dropped, the other jobs stay
 * where they are and the job's cheapest feasible (mode, start) is sought:
 * if one exists it costs more than the penalty (or the search ran out of
 * time); if none exists, explain_why.c names the cause (maintenance,
 * quota, power cap, the jobs that hold the room, the budget, the window
 * after precedence) with its slots. Starts before the job's predecessors
 * end are not looked at (capplan.5 §9.2).
 */
#include "cp_explain.h"
#include "cp_placement.h"
#include "cp_usage.h"

#include "cp_alloc.h"
#include "cp_buf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Dollars with cents for a reason: "$0.00" for anything that rounds to
 * zero (a cost of -1e-13 from summing would print "$-0.00"), "-$1.50"
 * for a negative amount. */
static const char *money(char *buf, size_t size, double v)
{
    double cents = round(v * 100);
    if (cents == 0)
        cents = 0; /* -0 */
    if (cents < 0)
        snprintf(buf, size, "-$%.2f", -cents / 100);
    else
        snprintf(buf, size, "$%.2f", cents / 100);
    return buf;
}

int cp_plan_explain_drops(cp_plan *p, cp_err *err)
{
    const cp_input *in = p->in;
    const cp_modeset *ms = p->ms;
    cp_usage u;
    if (cp_usage_init(&u, in, ms))
        return cp_err_nomem(err);
    /* the other jobs exactly where the plan put them, on their nodes and
     * instances: a job packed anew elsewhere could leave room the plan
     * does not have */
    for (int j = 0; j < p->n_jobs; j++)
        if (p->mode[j] >= 0 &&
            !(p->n_units[j] > 0 && cp_usage_add_on(&u, p->mode[j], p->start[j], p->units[j], p->n_units[j])))
            cp_usage_add(&u, p->mode[j], p->start[j]);
    int rc = CP_OK;
    for (int j = 0; j < p->n_jobs && rc == CP_OK; j++) {
        if (p->mode[j] >= 0 || p->reason[j])
            continue;
        cp_buf b;
        cp_buf_init(&b);
        if (ms->job_first[j] == ms->job_first[j + 1]) {
            cp_buf_puts(&b, ms->reason[j]);
        } else {
            int m, s, by;
            double c;
            /* not before its predecessors end (capplan.5 §9.2) */
            int est = cp_explain_est(p, j, &by);
            if (cp_explain_best(p, &u, j, est, &m, &s, &c)) {
                const cp_mode *md = &ms->modes[m];
                char pen[48], cost[48];
                money(pen, sizeof pen, in->jobs[j].drop_penalty);
                money(cost, sizeof cost, c);
                if (c >= in->jobs[j].drop_penalty)
                    cp_buf_printf(&b, "dropped by the optimizer: cheaper to pay the penalty (%s) than to run it; its cheapest feasible mode (%d on %s from slot %d) adds %s",
                                  pen, md->count, ms->res[md->res].id, s, cost);
                else
                    cp_buf_printf(&b, "dropped by the search within its limits; it would fit with %d on %s from slot %d for %s (less than its penalty %s): a longer --time-limit may schedule it",
                                  md->count, ms->res[md->res].id, s, cost, pen);
            } else if (cp_explain_blocked(p, &u, j, est, by, &b)) {
                rc = cp_err_nomem(err);
            }
        }
        /* a runtime margin lengthens every mode of the job: name it */
        if (ms->job_first[j] < ms->job_first[j + 1]) {
            const cp_mode *m0 = &ms->modes[ms->job_first[j]];
            double mh = cp_margin_hours(in, &in->jobs[j], ms->res[m0->res].mach);
            if (mh > 0)
                cp_buf_printf(&b, "; its runs include a runtime margin (deadline_confidence %g: "
                                  "%.3g h on %s)",
                              in->jobs[j].has_deadline_confidence ? in->jobs[j].deadline_confidence
                                                                  : in->deadline_confidence,
                              mh, ms->res[m0->res].mach->type);
        }
        p->reason[j] = cp_buf_detach(&b);
        if (!p->reason[j])
            rc = cp_err_nomem(err);
    }
    cp_usage_release(&u);
    return rc;
}
