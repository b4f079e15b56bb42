/*
 * Reasons in words for dropped jobs. A job without modes keeps the reason
 * from mode enumeration. For a job the solver dropped, the other jobs stay
 * where they are and the job's cheapest feasible (mode, start) is sought:
 * if one exists it costs more than the penalty (or the search ran out of
 * time); if none exists, the blocking resource and the jobs that hold it
 * are named.
 */
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

static void name_holders(const cp_plan *p, int j, cp_buf *b)
{
    /* jobs on the resources j could use, overlapping its window */
    const cp_modeset *ms = p->ms;
    int lo, hi;
    cp_job_window(p->in, &p->in->jobs[j], &lo, &hi);
    int shown = 0, more = 0;
    for (int k = 0; k < p->n_jobs; k++) {
        if (k == j || p->mode[k] < 0)
            continue;
        const cp_mode *mk = &ms->modes[p->mode[k]];
        if (p->start[k] >= hi || p->start[k] + mk->slots <= lo)
            continue;
        bool shares = false;
        for (int m = ms->job_first[j]; m < ms->job_first[j + 1] && !shares; m++)
            shares = ms->modes[m].res == mk->res;
        if (!shares)
            continue;
        if (shown < 5)
            cp_buf_printf(b, "%s%s", shown ? ", " : "", p->in->jobs[k].name);
        else
            more++;
        shown++;
    }
    if (more)
        cp_buf_printf(b, " and %d more", more);
    if (!shown)
        cp_buf_puts(b, "no other job");
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
            int m, s;
            double c;
            if (cp_usage_best(&u, j, &m, &s, &c)) {
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
            } else {
                /* name what blocks its cheapest-on-an-empty-plan mode */
                char why[256] = "";
                for (int mi = ms->job_first[j]; mi < ms->job_first[j + 1] && !why[0]; mi++) {
                    double d;
                    cp_usage_try_why(&u, mi, ms->modes[mi].s_min, &d, why, sizeof why);
                }
                cp_buf_puts(&b, "dropped by the optimizer: capacity in its window is taken (");
                cp_buf_puts(&b, why[0] ? why : "no room");
                cp_buf_puts(&b, ") by ");
                name_holders(p, j, &b);
            }
        }
        p->reason[j] = cp_buf_detach(&b);
        if (!p->reason[j])
            rc = cp_err_nomem(err);
    }
    cp_usage_release(&u);
    return rc;
}
