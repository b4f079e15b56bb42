/*
 * The report's teams section (capplan.5 §10.2): a table of the plan's
 * `teams` (each team's cost and accelerator-hours, as the plan states
 * them; with the inputs also its scheduled jobs and its budget), and,
 * with the inputs (the plan file does not say who owns a job), for every
 * quota of every team what the team's jobs hold on pools of that key in
 * each slot against the quota, a cell marked `over` where the use exceeds
 * it (a plan capplan wrote never does; verify says the same).
 */
#include "report_internal.h"

#include "cp_alloc.h"
#include "cp_svg.h"

#include <math.h>
#include <string.h>

/* What scheduled entry j holds of quota q in each slot of its run (0 off
 * the pools of q's type). */
static double holds(const cp_rp_plan *p, const cp_rp_job *j, const cp_team_quota *q)
{
    const cp_plan_job *pj = j->pj;
    if (pj->mk != CP_PLAN_POOL || !pj->resource.s)
        return 0;
    int pool = cp_input_find_pool(p->in, pj->resource.s);
    if (pool < 0)
        return 0;
    const cp_machine *node = &p->in->pools[pool].node;
    if (q->acc < 0)
        return pj->cpus.has == CP_PLAN_SET ? pj->cpus.v : 0;
    if (node->acc != q->acc || pj->count.has != CP_PLAN_SET)
        return 0;
    return j->kind == CP_JOB_DATAFLOW ? (double)pj->count.v * node->accelerators
                                      : (double)pj->count.v;
}

static void quota_row(cp_buf *b, const cp_rp_plan *p, int k, const cp_team_quota *q, double *use)
{
    const cp_input *in = p->in;
    memset(use, 0, (size_t)p->T * sizeof *use);
    for (int i = 0; i < p->n_jobs; i++) {
        const cp_rp_job *j = &p->jobs[i];
        if (!j->scheduled || j->in_job < 0 || in->jobs[j->in_job].team != k ||
            j->pj->start_slot.has != CP_PLAN_SET || j->pj->slots.has != CP_PLAN_SET)
            continue;
        double v = holds(p, j, q);
        for (long t = j->pj->start_slot.v; v > 0 && t < j->pj->start_slot.v + j->pj->slots.v; t++)
            if (t >= 0 && t < p->T)
                use[t] += v;
    }
    cp_buf_puts(b, "<tr><td>");
    cp_svg_esc(b, in->teams[k].name);
    cp_buf_puts(b, "</td><td>");
    cp_svg_esc(b, q->acc < 0 ? "cpus" : in->accels[q->acc].name);
    cp_buf_puts(b, "</td>");
    for (int t = 0; t < p->T; t++) {
        double lim = cp_series_at(&q->limit, t);
        bool over = use[t] > lim + 1e-9 * (1 + lim);
        cp_buf_printf(b, "<td class=\"n%s\">%g / %g</td>", over ? " over" : "", use[t], lim);
    }
    cp_buf_puts(b, "</tr>\n");
}

/* The plan's `teams`, one row each, with the share of the jobs' costs. */
static void team_table(cp_buf *b, const cp_rp_plan *p)
{
    const cp_plan_file *pf = &p->pf;
    double all = 0;
    for (int i = 0; i < p->n_jobs; i++)
        if (p->jobs[i].scheduled && p->jobs[i].pj->cost.has == CP_PLAN_SET)
            all += p->jobs[i].pj->cost.v;
    cp_buf_puts(b, "<table>\n<tr><th>team</th><th class=\"n\">scheduled jobs</th>"
                   "<th class=\"n\">accelerator-hours</th><th class=\"n\">cost</th>"
                   "<th class=\"n\">share of the jobs' costs</th><th class=\"n\">budget</th></tr>\n");
    for (int i = 0; i < pf->n_teams; i++) {
        const cp_plan_team *e = &pf->teams[i];
        int k = p->in && e->name.s ? cp_input_find_team(p->in, e->name.s) : -1;
        char q[64];
        cp_buf_puts(b, "<tr><td>");
        cp_svg_esc(b, e->name.s ? e->name.s : "?");
        cp_buf_puts(b, "</td><td class=\"n\">");
        if (k >= 0) {
            int n = 0;
            for (int j = 0; j < p->n_jobs; j++)
                n += p->jobs[j].scheduled && p->jobs[j].in_job >= 0 &&
                     p->in->jobs[p->jobs[j].in_job].team == k;
            cp_buf_printf(b, "%d", n);
        }
        cp_buf_puts(b, "</td><td class=\"n\">");
        if (e->accelerator_hours.has == CP_PLAN_SET) {
            cp_svg_qty(q, sizeof q, e->accelerator_hours.v);
            cp_buf_puts(b, q);
        }
        cp_buf_puts(b, "</td><td class=\"n\">");
        if (e->cost.has == CP_PLAN_SET) {
            cp_svg_money(q, sizeof q, e->cost.v);
            cp_buf_puts(b, q);
        }
        cp_buf_puts(b, "</td><td class=\"n\">");
        if (e->cost.has == CP_PLAN_SET && all > 0)
            cp_buf_printf(b, "%.1f %%", 100 * e->cost.v / all);
        cp_buf_puts(b, "</td><td class=\"n\">");
        if (k >= 0 && p->in->teams[k].has_budget) {
            cp_svg_money(q, sizeof q, p->in->teams[k].budget);
            cp_buf_puts(b, q);
        }
        cp_buf_puts(b, "</td></tr>\n");
    }
    cp_buf_puts(b, "</table>\n");
}

void cp_rp_teams(cp_buf *b, const cp_rp_plan *p)
{
    const cp_input *in = p->in;
    int quotas = 0;
    for (int k = 0; in && k < in->n_teams; k++)
        quotas += in->teams[k].n_quota;
    if (p->T <= 0 || (!quotas && !p->pf.n_teams))
        return;
    double *use = quotas ? cp_calloc((size_t)p->T, sizeof *use) : NULL;
    if (quotas && !use)
        return; /* the page goes on without the section; cp_buf_ok stays true */
    cp_html_section(b, "teams", "Teams");
    if (p->pf.n_teams)
        team_table(b, p);
    if (quotas) {
        cp_buf_puts(b, "<p class=\"note\">Use of each quota on pools per slot: each cell is what "
                       "the team's jobs hold on pools of that accelerator type (or their CPUs) in "
                       "the slot, over the team's quota there.</p>\n"
                       "<table>\n<tr><th>team</th><th>quota</th>");
        for (int t = 0; t < p->T; t++)
            cp_buf_printf(b, "<th class=\"n\">%d</th>", t);
        cp_buf_puts(b, "</tr>\n");
        for (int k = 0; k < in->n_teams; k++)
            for (int q = 0; q < in->teams[k].n_quota; q++)
                quota_row(b, p, k, &in->teams[k].quota[q], use);
        cp_buf_puts(b, "</table>\n");
    }
    cp_html_section_end(b);
    cp_free(use);
}
