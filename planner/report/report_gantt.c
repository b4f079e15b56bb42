/*
 * The Gantt chart: one row per resource (pool or market), not per job, so
 * that a plan of thousands of jobs stays a chart of tens of rows. Inside
 * a row, jobs are stacked in lanes by first fit in order of start (an
 * interval-graph colouring: as many lanes as jobs ever overlap), and the
 * lane height shrinks when a row has many lanes. Every bar carries an SVG
 * <title> with the job's details (the browser shows it on hover).
 *
 * A market row whose plan lists leases (capplan.5 §5, version 1.1) draws what a
 * launcher executes instead: one lane per lease (report_leases.c lays
 * them out), the lease as a light bar over its slots, labelled with its
 * instance id, slots and job count, and its jobs as bars inside it,
 * stacked in job lanes of their own. A job keeps exactly one bar (class
 * "bar"), in its first lease; a job on several instances draws a lighter
 * part (class "part") in its other leases. Jobs of the row that no lease
 * lists keep job lanes below the leases. Rows without leases (pools,
 * 1.0 plans) are drawn as before.
 */
#include "report_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"

#include <limits.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_color[2] = {"#4e79a7", "#f28e2b"}; /* training, dataflow */
static const char *const market_color[3] = {"#59a14f", "#4e79a7", "#e15759"};
#define UNKNOWN_COLOR "#8c8c8c"
#define LEASE_COLOR "#e3e9f0" /* and .lease in the page CSS */

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

/* First-fit lanes per row of the jobs in no lease; sets job->lane and
 * row->lanes. */
static int assign_lanes(cp_rp_plan *p)
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
        if (p->jobs[i].scheduled && p->jobs[i].lease < 0)
            refs[n++] = (slot_ref){p->jobs[i].row, p->jobs[i].pj->start_hour.v,
                                   p->jobs[i].pj->end_hour.v, i};
    qsort(refs, (size_t)n, sizeof *refs, by_row_start);
    for (int r = 0; r < p->n_rows; r++)
        p->rows[r].lanes = 0;
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

/* Lease rows: a lease bar is its label strip (LEASE_HEAD, in rows that
 * are not too tall), its job lanes and a pixel, then LEASE_GAP to the
 * next lane. Rows taller than LEASE_TALL lose the strips (the title
 * still says everything) and squeeze their job lanes into LEASE_SQUEEZE. */
#define LEASE_HEAD 13.0
#define LEASE_JOB 16.0
#define LEASE_GAP 3.0
#define LEASE_TALL 400.0
#define LEASE_SQUEEZE 320.0

/* Where a row's lanes are. */
typedef struct row_geom {
    double h;       /* the row's height */
    double y0;      /* its first lane, from the row's top */
    double lh;      /* a job lane outside leases */
    double head;    /* a lease's label strip (0: none) */
    double jh, gap; /* a job lane inside a lease; space between lease lanes */
    double *lane_y; /* lease lanes: lane l at lane_y[l], gap under its tallest lease the next */
} row_geom;

/* The geometry of row r; lane_y has room for its lease lanes + 1. */
static void layout_row(const cp_rp_plan *p, int r, row_geom *g, double *lane_y)
{
    const cp_rp_row *row = &p->rows[r];
    memset(g, 0, sizeof *g);
    if (row->n_leases == 0) {
        int lanes = row->lanes > 0 ? row->lanes : 1;
        g->lh = lane_height(lanes);
        g->h = fmax(32, lanes * g->lh + 8);
        g->y0 = (g->h - row->lanes * g->lh) / 2;
        return;
    }
    g->lane_y = lane_y;
    int ll = row->lease_lanes, units = 0;
    for (int l = 0; l <= ll; l++)
        lane_y[l] = 0;
    for (int i = 0; i < row->n_leases; i++) { /* job lanes per lease lane, at least one */
        const cp_rp_lease *ls = &p->leases[row->lease0 + i];
        lane_y[ls->lane + 1] = fmax(lane_y[ls->lane + 1], ls->subs > 0 ? ls->subs : 1);
    }
    for (int l = 1; l <= ll; l++)
        units += cp_num_clamp_int(lane_y[l], 0, 1000000);
    double full = ll * (LEASE_HEAD + 1 + LEASE_GAP) + units * LEASE_JOB + row->lanes * 16.0;
    if (full <= LEASE_TALL) {
        g->head = LEASE_HEAD;
        g->jh = LEASE_JOB;
        g->gap = LEASE_GAP;
        g->lh = 16;
    } else {
        g->gap = 1.5;
        double fit = (LEASE_SQUEEZE - ll * (1 + g->gap)) / (units + row->lanes);
        g->jh = fmin(LEASE_JOB, fmax(1.5, fit));
        g->lh = g->jh;
    }
    for (int l = 0; l < ll; l++)
        lane_y[l + 1] = lane_y[l] + g->head + lane_y[l + 1] * g->jh + 1 + g->gap;
    double content = lane_y[ll] + row->lanes * g->lh;
    g->h = fmax(46, content + 8);
    g->y0 = (g->h - content) / 2;
}

static const char *bar_color(const cp_rp_job *j, bool by_kind)
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
static void bar_title(cp_buf *t, const cp_rp_plan *p, const cp_rp_job *j)
{
    const cp_plan_job *pj = j->pj;
    const char *acc = pj->accelerator.s;
    bool has_count = pj->count.has == CP_PLAN_SET;
    cp_buf_printf(t, "%s\n", pj->name.s);
    if (j->kind != RP_KIND_UNKNOWN)
        cp_buf_puts(t, j->kind == CP_JOB_TRAINING ? "training on " : "dataflow on ");
    cp_buf_printf(t, "%s (%s)\n", pj->resource.s, cp_rp_market_name(pj->mk));
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
    num_part(t, has_count ? ", " : "", cp_rp_num(&pj->cpus), " CPUs");
    num_part(t, ", ", cp_rp_num(&pj->memory_gb), " GB");
    char span[200];
    cp_rp_time_span(p, pj->start_hour.v, pj->end_hour.v, span, sizeof span);
    cp_buf_printf(t, "\n%s", span);
    if (pj->start_slot.has == CP_PLAN_SET && pj->start_slot.v >= 0 &&
        pj->slots.has == CP_PLAN_SET && pj->slots.v > 0)
        cp_buf_printf(t, " (slots %ld\xE2\x80\x93%ld)", pj->start_slot.v,
                      pj->start_slot.v + pj->slots.v - 1);
    if (pj->mk == CP_PLAN_POOL)
        num_part(t, "\nenergy ", cp_rp_num(&pj->energy_kwh), " kWh");
    if (pj->shape.has == CP_PLAN_SET && pj->shape.v > 0)
        cp_buf_printf(t, "\nshape %ld (capplan.5 §9.1: index in the job's shapes)", pj->shape.v);
    if (pj->power_limit_w.has == CP_PLAN_SET) {
        char w[40];
        cp_fmt_num(w, sizeof w, pj->power_limit_w.v);
        cp_buf_printf(t, "\npower limit %s W per accelerator", w);
    }
    if (pj->egress.has == CP_PLAN_SET && pj->egress.v > 0) {
        char m[64];
        cp_svg_money(m, sizeof m, pj->egress.v);
        cp_buf_printf(t, "\negress %s (its data moved out of its site)", m);
    }
    if (pj->cost.has == CP_PLAN_SET) {
        char m[64];
        cp_svg_money(m, sizeof m, pj->cost.v);
        cp_buf_printf(t, "\ncost %s (its attributed share, capplan.5 §10.1)", m);
    }
    if (j->in_job >= 0) {
        const cp_job *ij = &p->in->jobs[j->in_job];
        for (int k = 0; k < ij->n_after && k < 8; k++)
            cp_buf_printf(t, "%s%s", k ? ", " : "\nafter ", p->in->jobs[ij->after[k]].name);
        if (ij->n_after > 8)
            cp_buf_printf(t, " \xE2\x80\xA6 (%d in all)", ij->n_after);
    }
    const cp_plan_strs *ns = &pj->nodes;
    if (ns->has == CP_PLAN_SET && ns->n > 0) {
        cp_buf_puts(t, "\nnodes ");
        for (int i = 0; i < ns->n && i < 8; i++)
            cp_buf_printf(t, "%s%s", i ? ", " : "", ns->s[i] ? ns->s[i] : "?");
        if (ns->n > 8)
            cp_buf_printf(t, " \xE2\x80\xA6 (%d in all)", ns->n);
    }
}

/* The hover text of a lease: its id, market, slots, hours and jobs. */
static void lease_title(cp_buf *t, const cp_rp_plan *p, const cp_rp_lease *l)
{
    const cp_plan_lease *pl = l->pl;
    const cp_rp_row *row = &p->rows[l->row];
    long s = pl->start_slot.v, n = pl->slots.v;
    cp_buf_printf(t, "%s\nlease of one %s instance of %s: start it at slot %ld, return it after "
                     "%ld slot%s",
                  pl->id.s ? pl->id.s : "?", row->market == CP_PLAN_SPOT ? "spot" : "on-demand",
                  row->name, s, n, n == 1 ? "" : "s");
    if (n > 1)
        cp_buf_printf(t, " (slots %ld\xE2\x80\x93%ld)", s, s + n - 1);
    char span[200];
    cp_rp_time_span(p, l->h0, l->h1, span, sizeof span);
    cp_buf_printf(t, "\n%s\n%d job%s", span, l->n_listed, l->n_listed == 1 ? "" : "s");
    const cp_plan_strs *js = &pl->jobs;
    for (int i = 0; i < js->n && i < 12; i++)
        cp_buf_printf(t, "%s%s", i ? ", " : ": ", js->s[i] ? js->s[i] : "?");
    if (js->n > 12)
        cp_buf_printf(t, " \xE2\x80\xA6 (%d in all)", js->n);
}

static void legend(cp_buf *b, const cp_rp_plan *p, bool by_kind, double y)
{
    cp_legend_item it[6];
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
    if (p->n_leases)
        it[n++] = (cp_legend_item){LEASE_COLOR, "lease: one instance from start to return", false};
    bool down = false;
    for (int r = 0; r < p->n_rows && !down; r++) {
        const cp_rp_row *row = &p->rows[r];
        for (int t = 0; row->pool >= 0 && t < p->T && !down; t++)
            down = cp_series_at(&p->in->pools[row->pool].available, t) < p->in->pools[row->pool].nodes;
    }
    if (down)
        it[n++] = (cp_legend_item){"#e4e4e4", "pool nodes down (maintenance)", false};
    cp_svg_legend(b, RP_LEFT, y, RP_WIDTH - RP_LEFT - RP_RIGHT, it, n);
}

static void row_label(cp_buf *b, const cp_rp_plan *p, const cp_rp_row *r, double y, double h)
{
    bool leased = r->n_leases > 0;
    double mid = y + h / 2 - (leased ? 6 : 0);
    cp_buf_puts(b, "<g><title>");
    cp_svg_esc(b, r->name);
    cp_buf_printf(b, " (%s)</title>\n", cp_rp_market_name(r->market));
    cp_buf_puts(b, "<text x=\"8\" y=\"");
    cp_svg_coord(b, mid - 2);
    cp_buf_puts(b, "\" class=\"row\">");
    cp_svg_esc_cut(b, r->name, RP_LABEL_CHARS);
    cp_buf_puts(b, "</text>\n");
    char sub[160];
    const char *what = r->market == CP_PLAN_POOL   ? "on-prem pool"
                       : r->market == CP_PLAN_SPOT ? "spot market"
                                                   : "on-demand market";
    if (!leased) {
        snprintf(sub, sizeof sub, "%s \xC2\xB7 %d job%s, %d lane%s", what, r->n_jobs,
                 r->n_jobs == 1 ? "" : "s", r->lanes, r->lanes == 1 ? "" : "s");
        cp_svg_text(b, 8, mid + 11, "start", "sub", sub);
        cp_buf_puts(b, "</g>\n");
        return;
    }
    snprintf(sub, sizeof sub, "%s \xC2\xB7 %d job%s", what, r->n_jobs, r->n_jobs == 1 ? "" : "s");
    cp_svg_text(b, 8, mid + 11, "start", "sub", sub);
    int loose = 0;
    for (int i = 0; i < p->n_jobs; i++)
        loose += p->jobs[i].scheduled && p->jobs[i].row == r - p->rows && p->jobs[i].lease < 0;
    int len = snprintf(sub, sizeof sub, "%d lease%s on %d instance%s", r->n_leases,
                       r->n_leases == 1 ? "" : "s", r->n_instances, r->n_instances == 1 ? "" : "s");
    if (loose)
        snprintf(sub + len, sizeof sub - (size_t)len, ", %d job%s in none", loose,
                 loose == 1 ? "" : "s");
    cp_svg_text(b, 8, mid + 24, "start", "sub", sub);
    cp_buf_puts(b, "</g>\n");
}

/* With the inputs: slots where a pool has nodes down (capplan.5 §1.5
 * `available`), shaded over its row, runs of equal availability merged. */
static void down_times(cp_buf *b, const cp_rp_plan *p, const row_geom *geom, const cp_scale *sx,
                       double top)
{
    double y = top;
    char title[400], span[200];
    for (int r = 0; r < p->n_rows; r++) {
        const cp_rp_row *row = &p->rows[r];
        double h = geom[r].h;
        const cp_pool *pl = row->pool >= 0 ? &p->in->pools[row->pool] : NULL;
        for (int t0 = 0; pl && t0 < p->T;) {
            double av = cp_series_at(&pl->available, t0);
            int t1 = t0 + 1;
            while (t1 < p->T && cp_series_at(&pl->available, t1) == av)
                t1++;
            if (av < pl->nodes) {
                cp_rp_time_span(p, t0 * p->h, t1 * p->h, span, sizeof span);
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

/* A bar's label (docs/report.md, "Labels"): its name when the name
 * fits; else its key (the row of the jobs table the bar links to) and as
 * much of the name as fits; else the key alone; else the key just right
 * of the bar, outlined in white so that it reads over a neighbour. */
static void bar_label(cp_buf *b, const char *name, int key, double x0, double x1, double y)
{
    char ks[16];
    int kl = snprintf(ks, sizeof ks, "%d", key);
    int chars = cp_svg_chars(name), fit = cp_num_clamp_int((x1 - x0 - 6) / 6.3, INT_MIN, INT_MAX);
    bool inside = fit >= kl;
    cp_buf_puts(b, "<text x=\"");
    cp_svg_coord(b, inside ? x0 + 3 : x1 + 2);
    cp_buf_puts(b, "\" y=\"");
    cp_svg_coord(b, y);
    cp_buf_printf(b, "\" class=\"%s\" pointer-events=\"none\">", inside ? "in" : "bk");
    if (chars <= fit) {
        cp_svg_esc(b, name);
    } else if (fit >= kl + 5) { /* "12 " and at least 3 characters and "…" */
        cp_buf_printf(b, "%s ", ks);
        cp_svg_esc_cut(b, name, fit - kl - 1);
    } else {
        cp_buf_puts(b, ks);
    }
    cp_buf_puts(b, "</text>\n");
}

/* A job's bar (or, with `part`, a part of it on another instance) at
 * lane top `by` of height `bh`, with its name where it fits. */
static void job_bar(cp_buf *b, cp_buf *tt, const cp_rp_plan *p, const cp_scale *sx, cp_rp_job *j,
                    bool by_kind, double by, double bh, double inset, bool label, const char *part)
{
    const char *name = j->pj->name.s;
    double x0 = cp_scale_at(sx, fmin(j->pj->start_hour.v, sx->d1)) + inset;
    double x1 = cp_scale_at(sx, fmin(j->pj->end_hour.v, sx->d1)) - inset;
    double w = fmax(1.5, x1 - x0);
    cp_buf_reset(tt);
    if (part)
        cp_buf_printf(tt, "%s\non this instance too: its bar, with the job's details, is in the "
                          "lease of %s",
                      name, part);
    else
        bar_title(tt, p, j);
    if (!part)
        cp_rp_change_title(tt, j);
    cp_buf_printf(b, "<a href=\"#job-%d\">", j->key);
    cp_svg_rect(b, x0, by, w, bh, bar_color(j, by_kind),
                part ? "part" : cp_rp_job_changed(j) ? "bar moved" : "bar", tt->s);
    if (!part) {
        j->bx0 = x0;
        j->bx1 = x0 + w;
        j->bymid = by + bh / 2;
    }
    if (label)
        bar_label(b, name, j->key, x0, x0 + w, by + bh - 3.5);
    cp_buf_puts(b, "</a>\n");
}

/* The label strip of a lease: "instance 3 · slots 4–10 · 2 jobs" (the id
 * without its market, which the row says), shortened to what fits in
 * `fit` characters: without the jobs, then the id alone, then cut. */
static void lease_label(cp_buf *b, const cp_rp_plan *p, const cp_rp_lease *l, double x, double y, int fit)
{
    const char *sid = cp_rp_lease_short_id(p, l);
    bool cut_market = sid != l->pl->id.s;
    long s = l->pl->start_slot.v, n = l->pl->slots.v;
    char slots[80], jobs[48];
    if (n > 1)
        snprintf(slots, sizeof slots, " \xC2\xB7 slots %ld\xE2\x80\x93%ld", s, s + n - 1);
    else
        snprintf(slots, sizeof slots, " \xC2\xB7 slot %ld", s);
    snprintf(jobs, sizeof jobs, " \xC2\xB7 %d job%s", l->n_listed, l->n_listed == 1 ? "" : "s");
    int id_chars = cp_svg_chars(sid) + cut_market;
    int with_slots = id_chars + cp_svg_chars(slots), with_jobs = with_slots + cp_svg_chars(jobs);
    if (fit < (id_chars < 4 ? id_chars : 4))
        return;
    cp_buf_puts(b, "<text x=\"");
    cp_svg_coord(b, x);
    cp_buf_puts(b, "\" y=\"");
    cp_svg_coord(b, y);
    cp_buf_puts(b, "\" class=\"ll\" pointer-events=\"none\">");
    /* MARKET/3 reads "instance 3" where that fits (the row names the
     * market), else "…/3" */
    const char *num = sid[0] == '/' && sid[1] ? sid + 1 : sid;
    int word_chars = 9 + cp_svg_chars(num);
    if (cut_market && word_chars <= fit) {
        cp_buf_puts(b, "instance ");
        cp_svg_esc(b, num);
        if (word_chars + cp_svg_chars(slots) <= fit)
            cp_buf_puts(b, slots);
        if (word_chars + cp_svg_chars(slots) + cp_svg_chars(jobs) <= fit)
            cp_buf_puts(b, jobs);
        cp_buf_puts(b, "</text>\n");
        return;
    }
    if (cut_market)
        cp_buf_puts(b, "\xE2\x80\xA6");
    if (id_chars <= fit) {
        cp_svg_esc(b, sid);
        if (with_slots <= fit)
            cp_buf_puts(b, slots);
        if (with_jobs <= fit)
            cp_buf_puts(b, jobs);
    } else {
        cp_svg_esc_cut(b, sid, fit - cut_market);
    }
    cp_buf_puts(b, "</text>\n");
}

/* A lease: its bar, its label, then its jobs inside it. */
static void lease_bar(cp_buf *b, cp_buf *tt, cp_rp_plan *p, const cp_scale *sx,
                      const row_geom *g, const cp_rp_lease *l, bool by_kind, double top)
{
    /* its own job lanes tall: a lane is as tall as its tallest lease */
    double ly = top + g->lane_y[l->lane], lbh = g->head + (l->subs > 0 ? l->subs : 1) * g->jh + 1;
    double x0 = cp_scale_at(sx, l->h0), x1 = cp_scale_at(sx, l->h1);
    double w = fmax(1.5, x1 - x0 - 1);
    cp_buf_reset(tt);
    lease_title(tt, p, l);
    cp_svg_rect(b, x0 + 0.5, ly, w, lbh, NULL, "lease", tt->s);
    if (g->head > 0)
        lease_label(b, p, l, x0 + 3.5, ly + 10, cp_num_clamp_int((w - 6) / 5.8, INT_MIN, INT_MAX));
    double bh = g->jh > 4 ? g->jh - 1.5 : fmax(0.5, g->jh - 0.5);
    for (int k = 0; k < l->n; k++) {
        const cp_rp_lease_job *lj = &p->lease_jobs[l->first + k];
        cp_rp_job *j = &p->jobs[lj->job];
        const char *first = j->lease >= 0 && p->leases[j->lease].pl->id.s
                                ? p->leases[j->lease].pl->id.s
                                : "?";
        job_bar(b, tt, p, sx, j, by_kind, ly + g->head + lj->sub * g->jh + 0.5, bh, 1.5,
                g->jh >= 14, lj->primary ? NULL : first);
    }
}

static void row_bars(cp_buf *b, cp_buf *tt, cp_rp_plan *p, int r, const row_geom *g,
                     const cp_scale *sx, bool by_kind, double y)
{
    const cp_rp_row *row = &p->rows[r];
    double top = y + g->y0;
    for (int i = 0; i < row->n_leases; i++)
        lease_bar(b, tt, p, sx, g, &p->leases[row->lease0 + i], by_kind, top);
    double y0 = top + (row->n_leases ? g->lane_y[row->lease_lanes] : 0), lh = g->lh;
    for (int i = 0; i < p->n_jobs; i++) {
        cp_rp_job *j = &p->jobs[i];
        if (!j->scheduled || j->row != r || j->lease >= 0)
            continue;
        job_bar(b, tt, p, sx, j, by_kind, y0 + j->lane * lh, lh > 4 ? lh - 1.5 : lh - 0.5, 0,
                lh >= 14, NULL);
    }
}

/* Predecessor links (capplan.5 §9.2, with the inputs): from the end of each
 * drawn predecessor's bar to the start of its successor's, a curve with
 * an arrowhead, titled with both names, drawn over the bars. A plan's
 * successor starts after its predecessor ends, so the curve runs left to
 * right (a plan that breaks the rule draws it backwards; verify says
 * why). Returns the number of links, or -1 when out of memory. */
static int links(cp_buf *b, cp_buf *tt, const cp_rp_plan *p)
{
    if (!p->in)
        return 0;
    int n_in = p->in->n_jobs, n = 0;
    int *of_in = cp_calloc((size_t)n_in + 1, sizeof *of_in);
    if (!of_in)
        return -1;
    for (int k = 0; k < n_in; k++)
        of_in[k] = -1;
    for (int i = 0; i < p->n_jobs; i++)
        if (p->jobs[i].in_job >= 0 && p->jobs[i].bx0 >= 0)
            of_in[p->jobs[i].in_job] = i;
    for (int i = 0; i < p->n_jobs; i++) {
        const cp_rp_job *j = &p->jobs[i];
        if (j->in_job < 0 || j->bx0 < 0)
            continue;
        const cp_job *ij = &p->in->jobs[j->in_job];
        for (int k = 0; k < ij->n_after; k++) {
            int pi = of_in[ij->after[k]];
            if (pi < 0)
                continue;
            const cp_rp_job *q = &p->jobs[pi];
            double x1 = q->bx1, y1 = q->bymid, x2 = j->bx0, y2 = j->bymid;
            double bend = fmax(12, fabs(x2 - x1) / 2);
            cp_buf_reset(tt);
            cp_buf_printf(tt, "%s \xE2\x86\x92 %s: '%s' runs after '%s'", q->pj->name.s,
                          j->pj->name.s, j->pj->name.s, q->pj->name.s);
            cp_buf_puts(b, "<g class=\"link\"><title>");
            cp_svg_esc(b, tt->s);
            cp_buf_puts(b, "</title><path d=\"M");
            cp_svg_coord(b, x1);
            cp_buf_putc(b, ',');
            cp_svg_coord(b, y1);
            cp_buf_puts(b, " C");
            cp_svg_coord(b, x1 + bend);
            cp_buf_putc(b, ',');
            cp_svg_coord(b, y1);
            cp_buf_putc(b, ' ');
            cp_svg_coord(b, x2 - bend);
            cp_buf_putc(b, ',');
            cp_svg_coord(b, y2);
            cp_buf_putc(b, ' ');
            cp_svg_coord(b, x2);
            cp_buf_putc(b, ',');
            cp_svg_coord(b, y2);
            cp_buf_puts(b, "\"/><path class=\"head\" d=\"M");
            cp_svg_coord(b, x2);
            cp_buf_putc(b, ',');
            cp_svg_coord(b, y2);
            cp_buf_puts(b, " l-6,-3.5 v7 z\"/></g>\n");
            n++;
        }
    }
    cp_free(of_in);
    return n;
}

int cp_rp_gantt(cp_buf *b, cp_rp_plan *p)
{
    cp_html_section(b, "gantt", "Jobs over time, per pool and market");
    if (p->n_sched == 0) {
        cp_buf_puts(b, "<p class=\"note\">No job is scheduled.</p>\n");
        cp_html_section_end(b);
        return CP_OK;
    }
    size_t n_y = (size_t)p->n_rows;
    for (int r = 0; r < p->n_rows; r++) {
        if (cp_rp_lease_lanes(p, r))
            return CP_ERR_NOMEM;
        n_y += (size_t)p->rows[r].lease_lanes;
    }
    row_geom *geom = cp_calloc((size_t)p->n_rows + 1, sizeof *geom);
    double *lane_y = cp_calloc(n_y + 1, sizeof *lane_y);
    if (!geom || !lane_y || assign_lanes(p)) {
        cp_free(geom);
        cp_free(lane_y);
        return CP_ERR_NOMEM;
    }
    for (int r = 0, at = 0; r < p->n_rows; r++) {
        layout_row(p, r, &geom[r], lane_y + at);
        at += p->rows[r].lease_lanes + 1;
    }
    bool by_kind = false;
    for (int i = 0; i < p->n_jobs; i++)
        by_kind |= p->jobs[i].kind != RP_KIND_UNKNOWN;
    cp_buf_printf(b, "<p class=\"note\">%d scheduled job%s on %d resource%s; one row per pool or "
                     "market, overlapping jobs in lanes. Bars are coloured by %s; hover a bar for "
                     "the job's details.",
                  p->n_sched, p->n_sched == 1 ? "" : "s", p->n_rows, p->n_rows == 1 ? "" : "s",
                  by_kind ? "job kind" : "market (the plan file does not say job kinds: give the "
                                         "inputs for kind colours)");
    if (p->n_leases)
        cp_buf_puts(b, " A market with leases has one lane per lease: the light bar is one "
                       "instance from its start to its return (labelled with its id, slots and "
                       "jobs; a returned instance's lane is reused), its jobs inside it; a job "
                       "on several instances has its bar in the first and a lighter part in the "
                       "others.");
    bool after = false;
    for (int i = 0; i < p->n_jobs && !after; i++)
        after = p->jobs[i].scheduled && p->jobs[i].in_job >= 0 &&
                p->in->jobs[p->jobs[i].in_job].n_after > 0;
    if (after)
        cp_buf_puts(b, " A curve with an arrowhead runs from the end of a job to the start of "
                       "each job that must run after it (after: in the inputs); hover it for "
                       "the pair.");
    cp_buf_puts(b, "</p>\n");
    double top = 46, y = top;
    for (int r = 0; r < p->n_rows; r++)
        y += geom[r].h;
    double bottom = y, height = bottom + 52;
    cp_scale sx;
    cp_ticks t;
    char title[160];
    cp_rp_time_axis(p, &sx, &t, title, sizeof title);
    if (t.label2[0][0])
        height += 12;
    cp_svg_open(b, RP_WIDTH, height, "Gantt chart of the scheduled jobs per pool and market");
    legend(b, p, by_kind, 4);
    y = top;
    for (int r = 0; r < p->n_rows; r++) { /* bands first, under the grid */
        if (r % 2 == 0)
            cp_svg_rect(b, 0, y, RP_WIDTH, geom[r].h, NULL, "band", NULL);
        y += geom[r].h;
    }
    down_times(b, p, geom, &sx, top);
    cp_svg_axis_x(b, &sx, bottom, top, &t, title);
    for (int i = 0; i < t.n; i++) /* the hours again on top of tall charts */
        cp_svg_text(b, cp_scale_at(&sx, t.v[i]), top - 6, "middle", "sub", t.label[i]);
    y = top;
    cp_buf tt;
    cp_buf_init(&tt);
    for (int r = 0; r < p->n_rows; r++) {
        row_label(b, p, &p->rows[r], y, geom[r].h);
        row_bars(b, &tt, p, r, &geom[r], &sx, by_kind, y);
        y += geom[r].h;
    }
    bool oom = links(b, &tt, p) < 0 || !cp_buf_ok(&tt);
    cp_buf_release(&tt);
    cp_free(geom);
    cp_free(lane_y);
    cp_svg_close(b);
    cp_html_section_end(b);
    return oom ? CP_ERR_NOMEM : CP_OK;
}
