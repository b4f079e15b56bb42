/*
 * The Gantt chart: one row per resource (pool or market), not per job, so
 * that a plan of thousands of jobs stays a chart of tens of rows. Inside
 * a row, jobs are stacked in lanes by first fit in order of start (an
 * interval-graph colouring: as many lanes as jobs ever overlap), and the
 * lane height shrinks when a row has many lanes. Every bar carries an SVG
 * <title> with the job's details (the browser shows it on hover).
 */
#include "report_internal.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_color[2] = {"#4e79a7", "#f28e2b"}; /* training, dataflow */
static const char *const market_color[3] = {"#59a14f", "#4e79a7", "#e15759"};
#define UNKNOWN_COLOR "#8c8c8c"

typedef struct slot_ref {
    int row;
    double start, end;
    int job;
} slot_ref;

static int by_row_start(const void *a, const void *b)
{
    const slot_ref *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->job < y->job ? -1 : x->job > y->job;
}

/* First-fit lanes per row; sets job->lane and row->lanes. */
static int assign_lanes(rp_plan *p)
{
    int n = 0;
    slot_ref *refs = cp_calloc((size_t)p->n_sched + 1, sizeof *refs);
    double *lane_end = cp_calloc((size_t)p->n_sched + 1, sizeof *lane_end);
    if (!refs || !lane_end) {
        cp_free(refs);
        cp_free(lane_end);
        return CP_ERR_NOMEM;
    }
    for (int i = 0; i < p->n_jobs; i++)
        if (p->jobs[i].scheduled)
            refs[n++] = (slot_ref){p->jobs[i].row, p->jobs[i].pj->start_hour.v,
                                   p->jobs[i].pj->end_hour.v, i};
    qsort(refs, (size_t)n, sizeof *refs, by_row_start);
    for (int i = 0; i < n;) {
        int row = refs[i].row, lanes = 0;
        for (; i < n && refs[i].row == row; i++) {
            int l = 0;
            while (l < lanes && lane_end[l] > refs[i].start + 1e-9)
                l++;
            if (l == lanes)
                lanes++;
            lane_end[l] = refs[i].end;
            p->jobs[refs[i].job].lane = l;
        }
        p->rows[row].lanes = lanes;
    }
    cp_free(refs);
    cp_free(lane_end);
    return CP_OK;
}

static double lane_height(int lanes)
{
    return lanes <= 20 ? 16 : fmax(3, 320.0 / lanes);
}

static double row_height(const rp_row *r)
{
    int lanes = r->lanes > 0 ? r->lanes : 1;
    return fmax(32, lanes * lane_height(lanes) + 8);
}

static const char *bar_color(const rp_job *j, bool by_kind)
{
    if (by_kind)
        return j->kind == CP_JOB_TRAINING ? kind_color[0]
               : j->kind == CP_JOB_DATAFLOW ? kind_color[1] : UNKNOWN_COLOR;
    return market_color[j->pj->mk];
}

static void num_part(cp_buf *t, const char *sep, double v, const char *unit)
{
    if (isnan(v))
        return;
    char s[48];
    cp_svg_qty(s, sizeof s, v);
    cp_buf_printf(t, "%s%s%s", sep, s, unit);
}

/* The hover text of a bar (plain text; escaped when written). */
static void bar_title(cp_buf *t, const rp_plan *p, const rp_job *j)
{
    const cp_plan_job *pj = j->pj;
    const char *acc = pj->accelerator.s;
    bool has_count = pj->count.has == CP_PLAN_SET;
    cp_buf_printf(t, "%s\n", pj->name.s);
    if (j->kind != RP_KIND_UNKNOWN)
        cp_buf_puts(t, j->kind == CP_JOB_TRAINING ? "training on " : "dataflow on ");
    cp_buf_printf(t, "%s (%s)\n", pj->resource.s, rp_market_name(pj->mk));
    if (has_count) {
        char k[48];
        cp_svg_qty(k, sizeof k, (double)pj->count.v);
        if (acc && j->kind == CP_JOB_TRAINING)
            cp_buf_printf(t, "%s \xC3\x97 %s", k, acc);
        else
            cp_buf_printf(t, "%s %s", k, pj->mk == CP_PLAN_POOL ? "node units" : "instance units");
        if (acc && j->kind != CP_JOB_TRAINING)
            cp_buf_printf(t, " (%s)", acc);
    }
    num_part(t, has_count ? ", " : "", rp_num(&pj->cpus), " CPUs");
    num_part(t, ", ", rp_num(&pj->memory_gb), " GB");
    char span[200];
    rp_time_span(p, pj->start_hour.v, pj->end_hour.v, span, sizeof span);
    cp_buf_printf(t, "\n%s", span);
    if (pj->start_slot.has == CP_PLAN_SET && pj->start_slot.v >= 0 &&
        pj->slots.has == CP_PLAN_SET && pj->slots.v > 0)
        cp_buf_printf(t, " (slots %ld\xE2\x80\x93%ld)", pj->start_slot.v,
                      pj->start_slot.v + pj->slots.v - 1);
    if (pj->mk == CP_PLAN_POOL)
        num_part(t, "\nenergy ", rp_num(&pj->energy_kwh), " kWh");
    const cp_plan_strs *ns = &pj->nodes;
    if (ns->has == CP_PLAN_SET && ns->n > 0) {
        cp_buf_puts(t, "\nnodes ");
        for (int i = 0; i < ns->n && i < 8; i++)
            cp_buf_printf(t, "%s%s", i ? ", " : "", ns->s[i] ? ns->s[i] : "?");
        if (ns->n > 8)
            cp_buf_printf(t, " \xE2\x80\xA6 (%d in all)", ns->n);
    }
}

static void legend(cp_buf *b, const rp_plan *p, bool by_kind, double y)
{
    cp_legend_item it[5];
    int n = 0;
    if (by_kind) {
        bool unknown = false;
        for (int i = 0; i < p->n_jobs; i++)
            unknown |= p->jobs[i].scheduled && p->jobs[i].kind == RP_KIND_UNKNOWN;
        it[n++] = (cp_legend_item){kind_color[0], "training job", false};
        it[n++] = (cp_legend_item){kind_color[1], "dataflow job", false};
        if (unknown)
            it[n++] = (cp_legend_item){UNKNOWN_COLOR, "job not in the inputs", false};
    } else {
        it[n++] = (cp_legend_item){market_color[0], "on a pool", false};
        it[n++] = (cp_legend_item){market_color[1], "on-demand instances", false};
        it[n++] = (cp_legend_item){market_color[2], "spot instances", false};
    }
    bool down = false;
    for (int r = 0; r < p->n_rows && !down; r++) {
        const rp_row *row = &p->rows[r];
        for (int t = 0; row->pool >= 0 && t < p->T && !down; t++)
            down = cp_series_at(&p->in->pools[row->pool].available, t) < p->in->pools[row->pool].nodes;
    }
    if (down)
        it[n++] = (cp_legend_item){"#e4e4e4", "pool nodes down (maintenance)", false};
    cp_svg_legend(b, RP_LEFT, y, RP_WIDTH - RP_LEFT - RP_RIGHT, it, n);
}

static void row_label(cp_buf *b, const rp_row *r, double y, double h)
{
    cp_buf_puts(b, "<g><title>");
    cp_svg_esc(b, r->name);
    cp_buf_printf(b, " (%s)</title>\n", rp_market_name(r->market));
    cp_buf_puts(b, "<text x=\"8\" y=\"");
    cp_svg_coord(b, y + h / 2 - 2);
    cp_buf_puts(b, "\" class=\"row\">");
    cp_svg_esc_cut(b, r->name, RP_LABEL_CHARS);
    cp_buf_puts(b, "</text>\n");
    char sub[96];
    snprintf(sub, sizeof sub, "%s \xC2\xB7 %d job%s, %d lane%s",
             r->market == CP_PLAN_POOL ? "on-prem pool"
             : r->market == CP_PLAN_SPOT ? "spot market" : "on-demand market",
             r->n_jobs, r->n_jobs == 1 ? "" : "s", r->lanes, r->lanes == 1 ? "" : "s");
    cp_svg_text(b, 8, y + h / 2 + 11, "start", "sub", sub);
    cp_buf_puts(b, "</g>\n");
}

/* With the inputs: slots where a pool has nodes down (SPEC 1.5
 * `available`), shaded over its row, runs of equal availability merged. */
static void down_times(cp_buf *b, const rp_plan *p, const cp_scale *sx, double top)
{
    double y = top;
    char title[400], span[200];
    for (int r = 0; r < p->n_rows; r++) {
        const rp_row *row = &p->rows[r];
        double h = row_height(row);
        const cp_pool *pl = row->pool >= 0 ? &p->in->pools[row->pool] : NULL;
        for (int t0 = 0; pl && t0 < p->T;) {
            double av = cp_series_at(&pl->available, t0);
            int t1 = t0 + 1;
            while (t1 < p->T && cp_series_at(&pl->available, t1) == av)
                t1++;
            if (av < pl->nodes) {
                rp_time_span(p, t0 * p->h, t1 * p->h, span, sizeof span);
                snprintf(title, sizeof title, "%s: %g of %d nodes available\n%s", row->name, av,
                         pl->nodes, span);
                double x0 = cp_scale_at(sx, t0 * p->h), x1 = cp_scale_at(sx, t1 * p->h);
                cp_svg_rect(b, x0, y, x1 - x0, h, NULL, av > 0 ? "down" : "off", title);
            }
            t0 = t1;
        }
        y += h;
    }
}

int rp_gantt(cp_buf *b, rp_plan *p)
{
    cp_html_section(b, "gantt", "Jobs over time, per pool and market");
    if (p->n_sched == 0) {
        cp_buf_puts(b, "<p class=\"note\">No job is scheduled.</p>\n");
        cp_html_section_end(b);
        return CP_OK;
    }
    if (assign_lanes(p))
        return CP_ERR_NOMEM;
    bool by_kind = false;
    for (int i = 0; i < p->n_jobs; i++)
        by_kind |= p->jobs[i].kind != RP_KIND_UNKNOWN;
    cp_buf_printf(b, "<p class=\"note\">%d scheduled job%s on %d resource%s; one row per pool or "
                     "market, overlapping jobs in lanes. Bars are coloured by %s; hover a bar for "
                     "the job's details.</p>\n",
                  p->n_sched, p->n_sched == 1 ? "" : "s", p->n_rows, p->n_rows == 1 ? "" : "s",
                  by_kind ? "job kind" : "market (the plan file does not say job kinds: give the "
                                         "inputs for kind colours)");
    double top = 46, y = top;
    for (int r = 0; r < p->n_rows; r++)
        y += row_height(&p->rows[r]);
    double bottom = y, height = bottom + 52;
    cp_scale sx;
    cp_ticks t;
    char title[160];
    rp_time_axis(p, &sx, &t, title, sizeof title);
    if (t.label2[0][0])
        height += 12;
    cp_svg_open(b, RP_WIDTH, height, "Gantt chart of the scheduled jobs per pool and market");
    legend(b, p, by_kind, 4);
    y = top;
    for (int r = 0; r < p->n_rows; r++) { /* bands first, under the grid */
        double h = row_height(&p->rows[r]);
        if (r % 2 == 0)
            cp_svg_rect(b, 0, y, RP_WIDTH, h, NULL, "band", NULL);
        y += h;
    }
    down_times(b, p, &sx, top);
    cp_svg_axis_x(b, &sx, bottom, top, &t, title);
    for (int i = 0; i < t.n; i++) /* the hours again on top of tall charts */
        cp_svg_text(b, cp_scale_at(&sx, t.v[i]), top - 6, "middle", "sub", t.label[i]);
    y = top;
    cp_buf tt;
    cp_buf_init(&tt);
    for (int r = 0; r < p->n_rows; r++) {
        const rp_row *row = &p->rows[r];
        double h = row_height(row), lh = lane_height(row->lanes > 0 ? row->lanes : 1);
        row_label(b, row, y, h);
        double y0 = y + (h - row->lanes * lh) / 2;
        for (int i = 0; i < p->n_jobs; i++) {
            const rp_job *j = &p->jobs[i];
            if (!j->scheduled || j->row != r)
                continue;
            const char *name = j->pj->name.s;
            double x0 = cp_scale_at(&sx, fmin(j->pj->start_hour.v, sx.d1));
            double x1 = cp_scale_at(&sx, fmin(j->pj->end_hour.v, sx.d1));
            double w = fmax(1.5, x1 - x0), by = y0 + j->lane * lh, bh = lh > 4 ? lh - 1.5 : lh - 0.5;
            cp_buf_reset(&tt);
            bar_title(&tt, p, j);
            cp_svg_rect(b, x0, by, w, bh, bar_color(j, by_kind), "bar", tt.s);
            /* a label only where the name, or 8 characters of it, fit */
            int chars = cp_svg_chars(name), fit = (int)((w - 6) / 6.3);
            if (lh >= 14 && fit >= (chars < 8 ? chars : 8)) {
                cp_buf_puts(b, "<text x=\"");
                cp_svg_coord(b, x0 + 3);
                cp_buf_puts(b, "\" y=\"");
                cp_svg_coord(b, by + bh - 3.5);
                cp_buf_puts(b, "\" class=\"in\" pointer-events=\"none\">");
                cp_svg_esc_cut(b, name, fit);
                cp_buf_puts(b, "</text>\n");
            }
        }
        y += h;
    }
    bool oom = !cp_buf_ok(&tt);
    cp_buf_release(&tt);
    cp_svg_close(b);
    cp_html_section_end(b);
    return oom ? CP_ERR_NOMEM : CP_OK;
}
