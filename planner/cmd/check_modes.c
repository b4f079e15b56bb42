/*
 * The considered-resources table of `check --modes JOB`. One row per mode
 * (resource, market, count, shape, power limit for a job with
 * power_limits, hours, slots, start window, cost at
 * its cheapest start), marked
 *   fastest   the fewest hours of all the job's modes,
 *   cheapest  the lowest cost at the cheapest start,
 *   dominated another mode on the same resource is no slower, no dearer
 *             and asks for no more of any dimension (never worth choosing,
 *             whatever else runs),
 * then every (resource, count, shape) that is not a mode with its rule,
 * one line per resource when one rule removes all its choices. Cost at a
 * start: on a pool the energy and carbon of the run; on a market the whole
 * instances the demand needs for the whole slots; plus the egress. Modes
 * are listed cheapest first (then fastest, then in the modes' order), at
 * most `top` of them and `top` exclusion lines, each list ending with how
 * many it leaves out (capplan.1, check --top): a catalog of hundreds of
 * instance types gives a job thousands of modes.
 */
#include "cp_check_modes.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The exclusion lines: at most `top` printed (0: all), the rest counted. */
typedef struct xlines {
    FILE *f;
    long top, n;
} xlines;

static void xline(xlines *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void xline(xlines *x, const char *fmt, ...)
{
    if (x->top <= 0 || x->n < x->top) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(x->f, fmt, ap);
        va_end(ap);
    }
    x->n++;
}

static double cost_at(const cp_input *in, const cp_modeset *ms, const cp_mode *m, int s)
{
    const cp_resource *r = &ms->res[m->res];
    if (r->kind == CP_RES_POOL) {
        cp_run_cost rc;
        cp_pool_run_cost(in, ms, m, s, &rc);
        return rc.energy_cost + rc.carbon_cost + m->egress;
    }
    int u = cp_units_needed(m->demand, r->mach);
    double c = m->egress;
    for (int t = s; t < s + m->slots; t++)
        c += u * cp_market_slot_cost(in, r, t);
    return c;
}

static const char *market_word(cp_res_kind k)
{
    return k == CP_RES_POOL ? "pool" : k == CP_RES_SPOT ? "spot" : "on_demand";
}

static bool dominated_by(const cp_mode *b, double cb, const cp_mode *a, double ca)
{
    if (b->res != a->res || b->hours > a->hours || cb > ca)
        return false;
    bool better = b->hours < a->hours || cb < ca;
    for (int d = 0; d < CP_DIMS; d++) {
        if (b->demand[d] > a->demand[d])
            return false;
        better |= b->demand[d] < a->demand[d];
    }
    return better;
}

static int shapes_of(const cp_job *j)
{
    return j->kind == CP_JOB_TRAINING && j->n_shapes > 0 ? j->n_shapes : 1;
}

/* Why (resource r, count, shape) is no mode of job jj: the rules of
 * cp_mode_exclusion, then precedence (capplan.5 §9.2), which models/
 * modes_after.c applies after them: a choice that passes every rule but
 * is not among the modes starts too late after its predecessors. */
static bool excluded(const cp_input *in, const cp_modeset *ms, int jj, int r, int count, int shape,
                     int limit, char *why, size_t size)
{
    if (cp_mode_exclusion(in, ms, jj, r, count, shape, limit, why, size))
        return true;
    for (int m = ms->job_first[jj]; m < ms->job_first[jj + 1]; m++)
        if (ms->modes[m].res == r && ms->modes[m].count == count && ms->modes[m].shape == shape &&
            ms->modes[m].limit == limit)
            return false;
    /* the predecessor that ends last at the earliest, as modes_after.c
     * reckons it: its earliest end over its (already tightened) modes */
    const cp_job *j = &in->jobs[jj];
    int est = -1, by = -1;
    for (int a = 0; a < j->n_after; a++) {
        int i = j->after[a], end = -1;
        for (int m = ms->job_first[i]; m < ms->job_first[i + 1]; m++)
            if (end < 0 || ms->modes[m].s_min + ms->modes[m].slots < end)
                end = ms->modes[m].s_min + ms->modes[m].slots;
        if (end < 0) {
            snprintf(why, size, "its predecessor '%s' can never run (it has no mode)",
                     in->jobs[i].name);
            return true;
        }
        if (end > est) {
            est = end;
            by = i;
        }
    }
    int lo, hi;
    cp_job_window(in, j, &lo, &hi);
    if (by >= 0)
        snprintf(why, size,
                 "window after its predecessors: '%s' ends at slot %d at the earliest, and no "
                 "run from there ends by slot %d",
                 in->jobs[by].name, est, hi);
    else
        snprintf(why, size, "removed (no rule names it)");
    return true;
}

/* The power limits (capplan.5 §10.3) of the choices that are
 * modes without a limit but not under it: only the window can remove
 * them (a limit is slower). Returns the lines written. */
static int limit_exclusions(xlines *x, const cp_input *in, const cp_modeset *ms, int jj, int n)
{
    const cp_job *j = &in->jobs[jj];
    int lines = 0;
    char why[400];
    for (int r = 0; r < ms->n_res && j->n_power_limits; r++)
        for (int q = 0; q < j->n_counts; q++)
            for (int s = 0; s < shapes_of(j); s++) {
                if (excluded(in, ms, jj, r, j->counts[q], s, -1, why, sizeof why))
                    continue;
                for (int li = 0; li < j->n_power_limits; li++) {
                    if (j->power_limits[li].acc != ms->res[r].mach->acc ||
                        !excluded(in, ms, jj, r, j->counts[q], s, li, why, sizeof why))
                        continue;
                    if (!n && !lines)
                        fprintf(x->f, "    excluded:\n");
                    lines++;
                    char shape[32] = "";
                    if (shapes_of(j) > 1)
                        snprintf(shape, sizeof shape, ", shape %d", s);
                    xline(x, "      %s (%s), count %d%s, limit %g W: %s\n", ms->res[r].name,
                          market_word(ms->res[r].kind), j->counts[q], shape,
                          j->power_limits[li].limit_w, why);
                }
            }
    return lines;
}

static void exclusions(FILE *f, const cp_input *in, const cp_modeset *ms, int jj, long top)
{
    const cp_job *j = &in->jobs[jj];
    int n = 0;
    xlines x = {f, top, 0};
    for (int r = 0; r < ms->n_res; r++) {
        /* one line for a resource when the same rule removes every choice */
        char first[400] = "", why[400];
        int out = 0, total = j->n_counts * shapes_of(j);
        bool same = true;
        for (int q = 0; q < j->n_counts; q++)
            for (int s = 0; s < shapes_of(j); s++) {
                if (!excluded(in, ms, jj, r, j->counts[q], s, -1, why, sizeof why))
                    continue;
                if (!out++)
                    memcpy(first, why, sizeof first);
                else
                    same &= !strcmp(first, why);
            }
        if (!out)
            continue;
        if (!n++)
            fprintf(f, "    excluded:\n");
        if (out == total && same) {
            xline(&x, "      %s (%s): %s\n", ms->res[r].name, market_word(ms->res[r].kind), first);
            continue;
        }
        for (int q = 0; q < j->n_counts; q++)
            for (int s = 0; s < shapes_of(j); s++)
                if (excluded(in, ms, jj, r, j->counts[q], s, -1, why, sizeof why)) {
                    char shape[32] = "";
                    if (shapes_of(j) > 1)
                        snprintf(shape, sizeof shape, ", shape %d", s);
                    xline(&x, "      %s (%s), count %d%s: %s\n", ms->res[r].name,
                          market_word(ms->res[r].kind), j->counts[q], shape, why);
                }
    }
    n += limit_exclusions(&x, in, ms, jj, n);
    if (!n)
        fprintf(f, "    excluded: none\n");
    else if (top > 0 && x.n > top)
        fprintf(f, "      ... and %ld more (--top 0 lists all)\n", x.n - top);
}

/* Cheapest first, then fastest, then in the modes' order. */
static const double *sort_cost;
static const cp_mode *sort_modes;

static int by_cost(const void *a, const void *b)
{
    int i = *(const int *)a, k = *(const int *)b;
    if (sort_cost[i] != sort_cost[k])
        return sort_cost[i] < sort_cost[k] ? -1 : 1;
    if (sort_modes[i].hours != sort_modes[k].hours)
        return sort_modes[i].hours < sort_modes[k].hours ? -1 : 1;
    return (i > k) - (i < k);
}

void cp_check_modes_table(FILE *f, const cp_input *in, const cp_modeset *ms, int jj, long top)
{
    int first = ms->job_first[jj], last = ms->job_first[jj + 1], n = last - first;
    fprintf(f, "    considered resources:\n");
    int w = 8; /* the resource column: the longest name of a mode */
    for (int i = first; i < last; i++) {
        int len = (int)strlen(ms->res[ms->modes[i].res].name);
        w = len > w ? (len < 60 ? len : 60) : w;
    }
    double *cost = cp_calloc((size_t)(n ? n : 1), sizeof *cost);
    int *best_s = cp_calloc((size_t)(n ? n : 1), sizeof *best_s);
    int *order = cp_calloc((size_t)(n ? n : 1), sizeof *order);
    if (!cost || !best_s || !order) {
        fprintf(f, "    (out of memory)\n");
        goto out;
    }
    int fast = -1, cheap = -1;
    for (int i = 0; i < n; i++) {
        const cp_mode *m = &ms->modes[first + i];
        cost[i] = INFINITY;
        for (int s = m->s_min; s <= m->s_max; s++) {
            double c = cost_at(in, ms, m, s);
            if (c < cost[i]) {
                cost[i] = c;
                best_s[i] = s;
            }
        }
        if (fast < 0 || m->hours < ms->modes[first + fast].hours)
            fast = i;
        if (cheap < 0 || cost[i] < cost[cheap])
            cheap = i;
    }
    /* the limit column only for jobs with power limits, so other tables
     * read as before */
    bool lim = in->jobs[jj].n_power_limits > 0;
    if (n) {
        fprintf(f, "      %-*s %-9s %5s %5s%s %9s %5s %9s %5s %12s\n", w, "resource", "market",
                "count", "shape", lim ? " limit_w" : "", "hours", "slots", "window", "start",
                "cost");
    } else {
        fprintf(f, "      no mode\n");
    }
    for (int i = 0; i < n; i++)
        order[i] = i;
    sort_cost = cost;
    sort_modes = ms->modes + first;
    qsort(order, (size_t)n, sizeof *order, by_cost);
    long shown = top > 0 && top < n ? top : n;
    for (long o = 0; o < shown; o++) {
        int i = order[o];
        const cp_mode *m = &ms->modes[first + i];
        const cp_resource *r = &ms->res[m->res];
        bool dom = false;
        for (int k = 0; k < n && !dom; k++)
            dom = k != i && dominated_by(&ms->modes[first + k], cost[k], m, cost[i]);
        char window[32], marks[40] = "";
        snprintf(window, sizeof window, "%d..%d", m->s_min, m->s_max);
        if (i == fast)
            strcat(marks, " fastest");
        if (i == cheap)
            strcat(marks, " cheapest");
        if (dom)
            strcat(marks, " dominated");
        char limit[24] = "";
        if (lim && m->limit >= 0)
            snprintf(limit, sizeof limit, " %7g", in->jobs[jj].power_limits[m->limit].limit_w);
        else if (lim)
            snprintf(limit, sizeof limit, " %7s", "none");
        fprintf(f, "      %-*s %-9s %5d %5d%s %9.4g %5d %9s %5d %12.6g%s%s\n", w, r->name,
                market_word(r->kind), m->count, m->shape, limit, m->hours, m->slots, window,
                best_s[i], cost[i], marks[0] ? " " : "", marks[0] ? marks + 1 : "");
    }
    if (shown < n)
        fprintf(f, "      ... and %d more (--top 0 lists all)\n", n - (int)shown);
    if (n)
        fprintf(f, "      (cost: $ for one run from its cheapest start, egress included)\n");
    exclusions(f, in, ms, jj, top);
out:
    cp_free(cost);
    cp_free(best_s);
    cp_free(order);
}
