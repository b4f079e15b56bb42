/*
 * The plan report page (cp_report.h): header with status, totals and the
 * verify verdict, the cost breakdown, then the charts (report_gantt.c,
 * report_charts.c) and tables of markets, sites and jobs. The page is
 * built in one cp_buf; out-of-memory is checked once at the end.
 */
#include "cp_report.h"

#include "cp_alloc.h"
#include "cp_verify.h"
#include "report_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Longer planner notes are folded into a <details> element. */
#define NOTE_CHARS 240

void cp_report_opts_init(cp_report_opts *o)
{
    o->in = NULL;
    o->plan_name = NULL;
    o->old = NULL;
    o->old_name = NULL;
}

/* ---- header ----------------------------------------------------------------- */

static void card(cp_buf *b, const char *label, const char *value, const char *cls)
{
    cp_buf_puts(b, "<div class=\"card\"><span>");
    cp_svg_esc(b, label);
    cp_buf_puts(b, "</span><b");
    if (cls)
        cp_buf_printf(b, " class=\"%s\"", cls);
    cp_buf_putc(b, '>');
    cp_svg_esc(b, value);
    cp_buf_puts(b, "</b></div>\n");
}

/* A card per part of the plan's totals that it gives, money or
 * quantities; a conditional part (egress) only when it is not 0. */
static void total_cards(cp_buf *b, const cp_plan_totals *tt, bool money)
{
    for (int i = 0; tt->has == CP_PLAN_SET && i < CP_COST_N; i++) {
        const cp_plan_num *v = &tt->part[i];
        if (cp_cost_part_is_money(i) != money || v->has != CP_PLAN_SET ||
            !cp_cost_part_worth_showing(i, v->v))
            continue;
        char s[96];
        if (money) {
            cp_svg_money(s, sizeof s, v->v);
        } else {
            cp_svg_qty(s, sizeof s - 8, v->v);
            strcat(s, " ");
            strcat(s, cp_cost_part_info[i].unit);
        }
        card(b, cp_cost_part_info[i].label, s, NULL);
    }
}

/* The plan as read for the page is the one verify checks: no second read. */
static void run_verify(cp_rp_plan *p)
{
    cp_verify_report rep;
    cp_verify_report_init(&rep);
    cp_err err;
    cp_err_init(&err);
    if (cp_verify_plan_file(p->in, &p->pf, &rep, &err) == CP_OK) {
        p->verify_n = rep.n;
        for (int i = 0; i < rep.n && i < RP_VIOL_SHOWN; i++) {
            cp_buf m;
            cp_buf_init(&m);
            cp_buf_printf(&m, "%d:%d: %s", rep.items[i].pos.line, rep.items[i].pos.col,
                          rep.items[i].msg);
            p->verify_msg[i] = cp_buf_detach(&m);
        }
    }
    cp_verify_report_release(&rep);
}

static void header(cp_buf *b, const cp_rp_plan *p)
{
    cp_buf_puts(b, "<header>\n<h1>capplan plan report</h1>\n<p class=\"sub\">");
    cp_svg_esc(b, p->file ? p->file : "plan");
    char hq[48], tq[48];
    cp_svg_qty(hq, sizeof hq, p->h);
    cp_svg_qty(tq, sizeof tq, p->T * p->h);
    cp_buf_printf(b, " \xC2\xB7 horizon %d slot%s of %s h (%s h)", p->T, p->T == 1 ? "" : "s", hq, tq);
    if (!strcmp(p->h_from, "assumed"))
        cp_buf_puts(b, ", slot length assumed");
    char clock[300];
    if (cp_rp_clock_describe(p, clock, sizeof clock)) {
        cp_buf_puts(b, " \xC2\xB7 ");
        cp_svg_esc(b, clock);
    }
    cp_buf_printf(b, " \xC2\xB7 %s</p>\n", p->in ? "drawn with the inputs" : "drawn from the plan file alone");
    cp_buf_puts(b, "<div class=\"cards\">\n");
    const cp_plan_file *pf = &p->pf;
    const char *st = pf->status.s;
    card(b, "status", st, !strcmp(st, "optimal") ? "ok" : !strcmp(st, "feasible") ? "warn" : "bad");
    total_cards(b, &pf->totals, true);
    char s[96];
    snprintf(s, sizeof s, "%d of %d", p->n_sched, p->n_jobs);
    card(b, "jobs scheduled", s, p->n_dropped ? "warn" : NULL);
    total_cards(b, &pf->totals, false);
    if (pf->solver.method.s) {
        cp_buf m;
        cp_buf_init(&m);
        cp_buf_puts(&m, pf->solver.method.s);
        if (pf->solver.gap.has == CP_PLAN_SET) {
            char g[48];
            cp_svg_fixed(g, sizeof g, 100 * pf->solver.gap.v, 2);
            cp_buf_printf(&m, ", gap %s %%", g);
        }
        card(b, "solver", m.s, NULL);
        cp_buf_release(&m);
    }
    cp_buf_puts(b, "</div>\n");
    if (p->verify_n == 0) {
        cp_buf_puts(b, "<p class=\"ok\">capplan verify against the inputs: OK (feasible, "
                       "and every number re-costed)</p>\n");
    } else if (p->verify_n > 0) {
        cp_buf_printf(b, "<p class=\"bad\">capplan verify against the inputs: %d violation%s</p>\n<ul>\n",
                      p->verify_n, p->verify_n == 1 ? "" : "s");
        for (int i = 0; i < RP_VIOL_SHOWN && p->verify_msg[i]; i++) {
            cp_buf_puts(b, "<li>");
            cp_svg_esc(b, p->verify_msg[i]);
            cp_buf_puts(b, "</li>\n");
        }
        cp_buf_puts(b, "</ul>\n");
    }
    const char *reason = pf->reason.s, *note = pf->note.s;
    if (reason) {
        cp_buf_puts(b, "<p class=\"bad\">");
        cp_svg_esc(b, reason);
        cp_buf_puts(b, "</p>\n");
    }
    if (note && cp_svg_chars(note) <= NOTE_CHARS) {
        cp_buf_puts(b, "<p class=\"note\">Note from the planner: ");
        cp_svg_esc(b, note);
        cp_buf_puts(b, "</p>\n");
    } else if (note) { /* repairs of big plans: one line, the rest on demand */
        cp_buf_puts(b, "<details class=\"note\"><summary>Note from the planner: ");
        cp_svg_esc_cut(b, note, NOTE_CHARS);
        cp_buf_puts(b, "</summary>\n<p>");
        cp_svg_esc(b, note);
        cp_buf_puts(b, "</p></details>\n");
    }
    cp_buf_puts(b, "</header>\n");
}

/* ---- costs ------------------------------------------------------------------- */

void cp_rp_costs(cp_buf *b, const cp_rp_plan *p)
{
    /* the terms of the total; a conditional one (egress) is drawn as a
     * zero part in plans without it, as what-if tables keep its column */
    const cp_plan_totals *tt = &p->pf.totals;
    int part[CP_COST_N], np = 0;
    double v[CP_COST_N];
    for (int i = 0; i < CP_COST_N; i++) {
        unsigned f = cp_cost_part_info[i].flags;
        if (!(f & CP_COST_TERM) ||
            !(tt->part[i].has == CP_PLAN_SET || !(f & CP_COST_IF_ANY) || (f & CP_COST_ZERO_COLUMN)))
            continue;
        v[np] = tt->part[i].has == CP_PLAN_SET ? tt->part[i].v : 0;
        part[np++] = i;
    }
    cp_html_section(b, "costs", "Cost breakdown");
    double sum = 0;
    for (int i = 0; i < np; i++)
        sum += v[i] > 0 ? v[i] : 0;
    const double top = 26, bh = 30, width = RP_WIDTH;
    cp_scale sx = {0, cp_nice_ceil(sum), RP_LEFT, width - RP_RIGHT};
    cp_ticks t;
    cp_ticks_nice(&t, 0, sx.d1, 8, false);
    cp_svg_open(b, width, top + bh + 50, "Stacked bar of the total cost by part");
    cp_legend_item it[CP_COST_N];
    for (int i = 0; i < np; i++)
        it[i] = (cp_legend_item){cp_cost_part_info[part[i]].color,
                                 cp_cost_part_info[part[i]].label, false};
    cp_svg_legend(b, RP_LEFT, 4, width - RP_LEFT - RP_RIGHT, it, np);
    cp_svg_axis_x(b, &sx, top + bh + 4, top + bh + 4, &t, "US dollars");
    char tot[64];
    cp_svg_money(tot, sizeof tot, tt->total.v);
    cp_svg_text(b, RP_LEFT - 10, top + bh / 2 + 4, "end", "atitle", tot);
    double acc = 0;
    for (int i = 0; i < np; i++) {
        if (!(v[i] > 0))
            continue;
        double x0 = cp_scale_at(&sx, acc), x1 = cp_scale_at(&sx, acc + v[i]);
        char m[64], title[160];
        cp_svg_money(m, sizeof m, v[i]);
        snprintf(title, sizeof title, "%s: %s", cp_cost_part_info[part[i]].label, m);
        cp_svg_rect(b, x0, top, x1 - x0, bh, cp_cost_part_info[part[i]].color, "bar", title);
        if (x1 - x0 > 6.3 * (double)strlen(m) + 8)
            cp_svg_text(b, x0 + 4, top + bh / 2 + 4, "start", "in", m);
        acc += v[i];
    }
    cp_svg_close(b);
    /* parts across, so the section stays short and the Gantt chart is near the top */
    cp_buf_puts(b, "<table>\n<tr><th></th>");
    for (int i = 0; i < np; i++)
        cp_buf_printf(b, "<th class=\"n\">%s</th>", cp_cost_part_info[part[i]].label);
    cp_buf_puts(b, "<th class=\"n\">total</th></tr>\n<tr><td>US dollars</td>");
    char m[64], s[48];
    for (int i = 0; i < np; i++) {
        cp_svg_money(m, sizeof m, v[i]);
        cp_buf_printf(b, "<td class=\"n\">%s</td>", m);
    }
    cp_svg_money(m, sizeof m, tt->total.v);
    cp_buf_printf(b, "<td class=\"n\"><b>%s</b></td></tr>\n<tr><td>share</td>", m);
    for (int i = 0; i < np; i++) {
        cp_svg_fixed(s, sizeof s, tt->total.v > 0 ? 100 * v[i] / tt->total.v : 0, 1);
        cp_buf_printf(b, "<td class=\"n\">%s %%</td>", s);
    }
    cp_buf_puts(b, "<td class=\"n\">100.0 %</td></tr>\n</table>\n");
    cp_html_section_end(b);
}

/* ---- tables -------------------------------------------------------------------- */

static void td_text(cp_buf *b, const char *s)
{
    cp_buf_puts(b, "<td>");
    cp_svg_esc(b, s);
    cp_buf_puts(b, "</td>");
}

static void td_num(cp_buf *b, double v, const char *unit)
{
    char s[64];
    if (isnan(v)) {
        cp_buf_puts(b, "<td class=\"n\"></td>");
        return;
    }
    cp_svg_qty(s, sizeof s, v);
    cp_buf_printf(b, "<td class=\"n\">%s%s</td>", s, unit);
}

static void td_money(cp_buf *b, double v)
{
    char s[64];
    cp_svg_money(s, sizeof s, v);
    cp_buf_printf(b, "<td class=\"n\">%s</td>", isnan(v) ? "" : s);
}

/* Cloud markets: instance-hours, peak, leases (1.1 plans) and cost. */
static void markets_table(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "markets", "Cloud markets");
    bool leases = p->n_leases > 0; /* 1.1 plans: what a launcher executes, per market */
    cp_buf_puts(b, "<table>\n<tr><th>market</th><th>kind</th><th class=\"n\">instance-hours</th>"
                   "<th class=\"n\">peak instances</th>");
    if (leases)
        cp_buf_puts(b, "<th class=\"n\">leases</th><th class=\"n\">instances</th>");
    cp_buf_puts(b, "<th class=\"n\">cost</th></tr>\n");
    for (int i = 0; i < p->n_markets; i++) {
        const cp_plan_prov *m = &p->markets[i];
        const double *y = m->instances.v;
        double ih = 0, peak = 0;
        for (int t = 0; t < p->T; t++) {
            ih += y[t] * p->h;
            peak = fmax(peak, y[t]);
        }
        cp_buf_puts(b, "<tr>");
        td_text(b, m->market.s);
        td_text(b, m->mk == CP_PLAN_SPOT ? "spot" : "on-demand");
        td_num(b, ih, "");
        td_num(b, peak, "");
        if (leases) {
            int r = cp_rp_market_row(p, m);
            const cp_rp_row *row = r >= 0 ? &p->rows[r] : NULL;
            td_num(b, row && row->n_leases ? row->n_leases : NAN, "");
            td_num(b, row && row->n_leases ? row->n_instances : NAN, "");
        }
        td_money(b, cp_rp_num(&m->cost));
        cp_buf_puts(b, "</tr>\n");
    }
    cp_buf_puts(b, "</table>\n");
    cp_html_section_end(b);
}

/* Sites: energy, CO2, peak power and the lowest power cap. */
static void sites_table(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "sites", "Sites");
    cp_buf_puts(b, "<table>\n<tr><th>site</th><th class=\"n\">energy</th><th class=\"n\">CO\xE2\x82\x82</th>"
                   "<th class=\"n\">peak power</th><th class=\"n\">lowest cap</th></tr>\n");
    for (int i = 0; i < p->n_sites; i++) {
        const cp_rp_site *rs = &p->sites[i];
        const cp_plan_site *s = rs->s;
        double peak = 0, cap = NAN;
        for (int t = 0; t < p->T; t++)
            peak = fmax(peak, s->power_kw.v[t]);
        if (rs->in_site >= 0 && p->in->sites[rs->in_site].power_cap_kw.set)
            for (int t = 0; t < p->T; t++) {
                double c = cp_series_at(&p->in->sites[rs->in_site].power_cap_kw, t);
                cap = isnan(cap) || c < cap ? c : cap;
            }
        cp_buf_puts(b, "<tr>");
        td_text(b, s->name.s);
        td_num(b, cp_rp_num(&s->energy_kwh), " kWh");
        td_num(b, cp_rp_num(&s->carbon_kg), " kg");
        td_num(b, peak, " kW");
        td_num(b, cap, " kW");
        cp_buf_puts(b, "</tr>\n");
    }
    cp_buf_puts(b, "</table>\n");
    cp_html_section_end(b);
}

static void dropped_table(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "dropped", "Dropped jobs");
    cp_buf_puts(b, "<table>\n<tr><th>job</th><th>reason</th></tr>\n");
    for (int i = 0; i < p->n_jobs; i++) {
        const cp_rp_job *j = &p->jobs[i];
        if (j->scheduled || !j->pj->name.s)
            continue;
        cp_buf_puts(b, "<tr>");
        td_text(b, j->pj->name.s);
        td_text(b, j->pj->reason.s ? j->pj->reason.s : "");
        cp_buf_puts(b, "</tr>\n");
    }
    cp_buf_puts(b, "</table>\n");
    cp_html_section_end(b);
}

/* Scheduled jobs: one row each, the bars' key. */
static void jobs_table(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "jobs", "Scheduled jobs");
    /* open, so that it prints: the bars' details (their titles) are
     * here, under the key each bar shows and links to */
    cp_buf_printf(b, "<details open=\"\">\n<summary>the %d scheduled jobs as a table</summary>\n",
                  p->n_sched);
    cp_buf_puts(b, "<table>\n<tr><th class=\"n\">#</th><th>job</th><th>kind</th><th>resource</th><th>market</th>"
                   "<th class=\"n\">count</th><th class=\"n\">CPUs</th><th class=\"n\">memory</th>"
                   "<th class=\"n\">start h</th><th class=\"n\">end h</th><th class=\"n\">energy</th>"
                   "<th class=\"n\">egress</th><th class=\"n\">cost</th><th>after</th>"
                   "<th>nodes</th></tr>\n");
    for (int i = 0; i < p->n_jobs; i++) {
        const cp_rp_job *j = &p->jobs[i];
        const cp_plan_job *pj = j->pj;
        if (!j->scheduled)
            continue;
        cp_buf_printf(b, "<tr id=\"job-%d\"><td class=\"n\">%d</td>", j->key, j->key);
        td_text(b, pj->name.s);
        td_text(b, j->kind == CP_JOB_TRAINING ? "training" : j->kind == CP_JOB_DATAFLOW ? "dataflow" : "");
        td_text(b, pj->resource.s);
        td_text(b, cp_rp_market_name(pj->mk));
        td_num(b, pj->count.has == CP_PLAN_SET ? (double)pj->count.v : NAN, "");
        td_num(b, cp_rp_num(&pj->cpus), "");
        td_num(b, cp_rp_num(&pj->memory_gb), " GB");
        td_num(b, pj->start_hour.v, "");
        td_num(b, pj->end_hour.v, "");
        td_num(b, pj->mk == CP_PLAN_POOL ? cp_rp_num(&pj->energy_kwh) : NAN, " kWh");
        td_money(b, cp_rp_num(&pj->egress));
        td_money(b, cp_rp_num(&pj->cost));
        cp_buf_puts(b, "<td>");
        const cp_job *ij = j->in_job >= 0 ? &p->in->jobs[j->in_job] : NULL;
        for (int k = 0; ij && k < ij->n_after; k++) {
            if (k)
                cp_buf_puts(b, ", ");
            cp_svg_esc(b, p->in->jobs[ij->after[k]].name);
        }
        cp_buf_puts(b, "</td><td>");
        const cp_plan_strs *ns = &pj->nodes; /* all of them: the bar's title stops at 8 */
        for (int k = 0; ns->has == CP_PLAN_SET && k < ns->n; k++) {
            if (k)
                cp_buf_puts(b, ", ");
            cp_svg_esc(b, ns->s[k] ? ns->s[k] : "?");
        }
        cp_buf_puts(b, "</td></tr>\n");
    }
    cp_buf_puts(b, "</table>\n</details>\n");
    cp_html_section_end(b);
}

static void tables(cp_buf *b, const cp_rp_plan *p)
{
    if (p->n_markets)
        markets_table(b, p);
    if (p->n_sites)
        sites_table(b, p);
    if (p->n_dropped)
        dropped_table(b, p);
    if (p->n_sched)
        jobs_table(b, p);
}

int cp_report_plan_html(const struct cp_node *plan, const cp_report_opts *o, cp_buf *out,
                        cp_diags *d)
{
    cp_rp_plan p;
    memset(&p, 0, sizeof p);
    int rc = cp_rp_read(&p, plan, o->in, d);
    if (rc) {
        cp_rp_release(&p);
        return rc;
    }
    p.file = o->plan_name;
    if (o->old && (rc = cp_rp_read_old(&p, o->old, o->old_name, d))) {
        cp_rp_release(&p);
        return rc;
    }
    bool infeasible = p.pf.infeasible;
    if (p.in && !infeasible)
        run_verify(&p);
    cp_buf title;
    cp_buf_init(&title);
    cp_buf_printf(&title, "capplan report: %s", p.file ? p.file : "plan");
    cp_html_begin(out, title.s);
    cp_buf_release(&title);
    header(out, &p);
    if (infeasible) {
        cp_buf_puts(out, "<p>The plan is infeasible: there is nothing to draw.</p>\n");
    } else {
        cp_rp_costs(out, &p);
        cp_rp_changes(out, &p);
        rc = cp_rp_gantt(out, &p);
        cp_rp_utilization(out, &p);
        cp_rp_instances(out, &p);
        cp_rp_power(out, &p);
        cp_rp_teams(out, &p);
        cp_rp_services(out, &p);
        tables(out, &p);
    }
    cp_buf_puts(out, "<footer><p class=\"note\">Written by capplan " "report; times in hours from "
                     "the horizon start. Self-contained: no scripts, no network.</p></footer>\n");
    cp_html_end(out);
    cp_rp_release(&p);
    if (rc == CP_OK && !cp_buf_ok(out))
        rc = CP_ERR_NOMEM;
    if (rc)
        cp_diags_add(d, rc, cp_pos_none(), "out of memory");
    return rc;
}
