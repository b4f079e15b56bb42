/*
 * `capplan check`: each team's quotas and budget against its demand
 * (capplan.5 §10.2). Per quota, the quota per slot and what the team's
 * jobs would hold on pools of that key if each ran in its largest pool
 * mode at once (an upper bound of any slot's use: a quota at or above it
 * never binds); per budget, the sum of the team's jobs' cheapest runs
 * (cp_mode_attributed_cost at their cheapest start: a budget below it
 * drops or moves some job).
 */
#include "cp_check_modes.h"

#include "cp_cost.h"

#include <math.h>

static void print_series(FILE *f, const cp_series *s, int T)
{
    if (s->n == 1) {
        fprintf(f, "%g", s->v[0]);
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int t = 0; t < T; t++) {
        lo = fmin(lo, s->v[t]);
        hi = fmax(hi, s->v[t]);
    }
    if (lo == hi)
        fprintf(f, "%g", lo);
    else
        fprintf(f, "%g-%g", lo, hi);
}

/* What job j's largest pool mode holds of quota key acc (-1: cpus). */
static double largest_hold(const cp_modeset *ms, int j, int acc)
{
    double most = 0;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++) {
        const cp_mode *md = &ms->modes[m];
        if (ms->res[md->res].kind != CP_RES_POOL)
            continue;
        double v = acc < 0 ? md->demand[CP_DIM_CPU] : md->acc == acc ? md->demand[CP_DIM_ACC] : 0;
        most = fmax(most, v);
    }
    return most;
}

static double cheapest_run(const cp_input *in, const cp_modeset *ms, int j)
{
    double best = INFINITY;
    for (int m = ms->job_first[j]; m < ms->job_first[j + 1]; m++)
        for (int s = ms->modes[m].s_min; s <= ms->modes[m].s_max; s++)
            best = fmin(best, cp_mode_attributed_cost(in, ms, &ms->modes[m], s));
    return best;
}

void cp_check_teams(FILE *f, const cp_input *in, const cp_modeset *ms)
{
    if (!in->n_teams)
        return;
    fprintf(f, "\nteams (%d):\n", in->n_teams);
    for (int k = 0; k < in->n_teams; k++) {
        const cp_team *tm = &in->teams[k];
        int jobs = 0;
        for (int j = 0; j < in->n_jobs; j++)
            jobs += in->jobs[j].team == k;
        fprintf(f, "  %s: %d job%s\n", tm->name, jobs, jobs == 1 ? "" : "s");
        for (int q = 0; q < tm->n_quota; q++) {
            int acc = tm->quota[q].acc;
            double ask = 0;
            for (int j = 0; j < in->n_jobs; j++)
                if (in->jobs[j].team == k)
                    ask += largest_hold(ms, j, acc);
            fprintf(f, "    quota %s: ", acc < 0 ? "cpus" : in->accels[acc].name);
            print_series(f, &tm->quota[q].limit, in->slots);
            fprintf(f, " per slot on pools; its jobs ask up to %g at once\n", ask);
        }
        if (tm->has_budget) {
            double cheap = 0;
            for (int j = 0; j < in->n_jobs; j++) {
                if (in->jobs[j].team != k)
                    continue;
                double c = cheapest_run(in, ms, j);
                if (isfinite(c)) /* a job without a mode costs nothing */
                    cheap += c;
            }
            fprintf(f, "    budget: $%g; its jobs' cheapest runs cost $%g together%s\n",
                    tm->budget, cheap, cheap > tm->budget ? " (over it: some job will be dropped)" : "");
        }
    }
}
