/*
 * The report's changes from an earlier plan (`report NEW --from OLD`,
 * capplan.5 §10.5): what a re-plan moved, re-placed, added, dropped or
 * restarted, each job's run before and after, each service deployment
 * whose replicas changed, and each cost part before and after. The comparison is models/plan_diff.c, shared with `capplan
 * diff`; the Gantt chart outlines the bars of the jobs listed here.
 */
#include "report_internal.h"

#include "cp_svg.h"

#include <math.h>
#include <string.h>

bool cp_rp_job_changed(const cp_rp_job *j)
{
    return j->change != CP_DIFF_SAME && j->change != CP_DIFF_DROPPED;
}

void cp_rp_change_title(cp_buf *t, const cp_rp_job *j)
{
    if (!cp_rp_job_changed(j))
        return;
    cp_buf_printf(t, "\n%s; the earlier plan: ", cp_diff_kind_name((cp_diff_kind)j->change));
    cp_plan_diff_run(t, j->old);
}

static void run_cell(cp_buf *b, const cp_plan_job *j)
{
    cp_buf run;
    cp_buf_init(&run);
    cp_plan_diff_run(&run, j);
    cp_buf_puts(b, "<td>");
    cp_svg_esc(b, run.s);
    cp_buf_puts(b, "</td>");
    cp_buf_release(&run);
}

static void money_cell(cp_buf *b, const cp_plan_num *v)
{
    if (v->has != CP_PLAN_SET) {
        cp_buf_puts(b, "<td class=\"n\">\xE2\x80\x93</td>");
        return;
    }
    char m[64];
    cp_svg_money(m, sizeof m, v->v);
    cp_buf_printf(b, "<td class=\"n\">%s</td>", m);
}

double cp_rp_dep_was(const cp_rp_plan *p, const cp_plan_svc_dep *de, int t)
{
    if (!p->has_old)
        return -1;
    for (int i = 0; i < p->diff.n_deps; i++) {
        const cp_diff_dep *e = &p->diff.deps[i];
        if (e->now != de)
            continue;
        if (e->first < 0 || t < e->first || t > e->last)
            return -1;
        double was = e->old && t < e->old->replicas.n ? e->old->replicas.v[t] : 0;
        double now = t < de->replicas.n ? de->replicas.v[t] : 0;
        return was == now ? -1 : was;
    }
    return -1;
}

/* capplan.5 §10.4: each deployment whose replicas or nodes changed,
 * OLD's and NEW's replicas per slot; the services' charts outline the
 * columns that changed. */
static void services_changed(cp_buf *b, const cp_rp_plan *p)
{
    const cp_plan_diff *d = &p->diff;
    if (!p->pf.n_svcs && !p->old_pf.n_svcs)
        return;
    cp_buf_printf(b, "<p class=\"note\">Services: %d deployment%s changed, %d unchanged.%s</p>\n",
                  d->deps_changed, d->deps_changed == 1 ? "" : "s", d->n_deps - d->deps_changed,
                  d->deps_changed ? " Outlined columns in the services' charts." : "");
    if (!d->deps_changed)
        return;
    cp_buf_puts(b, "<table>\n<tr><th>service</th><th>deployment</th><th>earlier plan</th>"
                   "<th>this plan</th><th>slots</th></tr>\n");
    cp_buf t;
    cp_buf_init(&t);
    for (int i = 0; i < d->n_deps; i++) {
        const cp_diff_dep *e = &d->deps[i];
        if (e->first < 0 && e->first_ids < 0)
            continue;
        cp_buf_puts(b, "<tr><td>");
        cp_svg_esc(b, e->svc);
        for (int k = 0; k < 4; k++) {
            cp_buf_reset(&t);
            if (k == 0)
                cp_plan_diff_dep_name(&t, e);
            else if (k < 3)
                cp_plan_diff_replicas(&t, k == 1 ? e->old : e->now);
            else
                cp_plan_diff_dep_slots(&t, e);
            cp_buf_puts(b, "</td><td>");
            cp_svg_esc(b, cp_buf_ok(&t) ? t.s : "");
        }
        cp_buf_puts(b, "</td></tr>\n");
    }
    cp_buf_release(&t);
    cp_buf_puts(b, "</table>\n");
}

void cp_rp_changes(cp_buf *b, const cp_rp_plan *p)
{
    if (!p->has_old)
        return;
    const cp_plan_diff *d = &p->diff;
    cp_html_section(b, "changes", "Changes from the earlier plan");
    cp_buf_puts(b, "<p class=\"note\">Against ");
    cp_svg_esc(b, p->old_file ? p->old_file : "the earlier plan");
    cp_buf_printf(b, ": %d moved, %d re-placed, %d added, %d dropped, %d restarted, %d unchanged."
                     " Outlined bars in the Gantt chart.</p>\n",
                  d->count[CP_DIFF_MOVED], d->count[CP_DIFF_REPLACED], d->count[CP_DIFF_ADDED],
                  d->count[CP_DIFF_DROPPED], d->count[CP_DIFF_RESTARTED], d->count[CP_DIFF_SAME]);
    if (d->n - d->count[CP_DIFF_SAME] > 0) {
        cp_buf_puts(b, "<table>\n<tr><th>change</th><th>job</th><th>earlier plan</th>"
                       "<th>this plan</th></tr>\n");
        for (int i = 0; i < d->n; i++) {
            const cp_diff_job *e = &d->jobs[i];
            if (e->kind == CP_DIFF_SAME)
                continue;
            cp_buf_printf(b, "<tr><td>%s</td><td>", cp_diff_kind_name(e->kind));
            cp_svg_esc(b, e->name);
            cp_buf_puts(b, "</td>");
            run_cell(b, e->old);
            run_cell(b, e->now);
            cp_buf_puts(b, "</tr>\n");
        }
        cp_buf_puts(b, "</table>\n");
    }
    services_changed(b, p);
    cp_buf_puts(b, "<table>\n<tr><th>cost part</th><th>earlier plan</th><th>this plan</th>"
                   "<th>change</th></tr>\n");
    for (int i = 0; i < CP_COST_N; i++) {
        const cp_plan_num *x = &p->old_pf.totals.part[i], *y = &p->pf.totals.part[i];
        if ((x->has != CP_PLAN_SET && y->has != CP_PLAN_SET) || !cp_cost_part_is_money(i))
            continue;
        cp_buf_puts(b, "<tr><td>");
        cp_svg_esc(b, cp_cost_part_info[i].label);
        cp_buf_puts(b, "</td>");
        money_cell(b, x);
        money_cell(b, y);
        double ch = (y->has == CP_PLAN_SET ? y->v : 0) - (x->has == CP_PLAN_SET ? x->v : 0);
        char m[64];
        cp_svg_money(m, sizeof m, fabs(ch));
        cp_buf_printf(b, "<td class=\"n\">%s%s</td></tr>\n", ch < -0.005 ? "\xE2\x88\x92" : ch > 0.005 ? "+" : "",
                      m);
    }
    cp_buf_puts(b, "</table>\n");
    cp_html_section_end(b);
}

int cp_rp_read_old(cp_rp_plan *p, const struct cp_node *old, const char *name, cp_diags *d)
{
    cp_err err;
    cp_err_init(&err);
    p->old_file = name;
    if (cp_plan_read(old, NULL, &p->old_pf, &err) ||
        (!p->old_pf.malformed && cp_plan_diff_build(&p->old_pf, &p->pf, &p->diff, &err))) {
        cp_diags_add_err(d, &err);
        return CP_ERR_NOMEM;
    }
    if (p->old_pf.malformed) {
        cp_plan_file_diags(&p->old_pf, d);
        return CP_ERR_INPUT;
    }
    p->has_old = true;
    for (int i = 0; i < p->n_jobs; i++)
        p->jobs[i].change = CP_DIFF_SAME;
    /* an entry's `now` is NEW's entry, which p->jobs follows index by index */
    for (int k = 0; k < p->diff.n; k++) {
        const cp_diff_job *e = &p->diff.jobs[k];
        if (!e->now)
            continue;
        cp_rp_job *j = &p->jobs[e->now - p->pf.jobs];
        j->change = (int)e->kind;
        j->old = e->old;
    }
    return CP_OK;
}
