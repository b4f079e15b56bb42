/*
 * The per-slot charts of the plan report: pool utilization (a heat map,
 * one row per pool and dimension), instances rented per market (stacked
 * columns) and facility power per site (a step line against the cap).
 * All share the Gantt chart's time axis. Horizons longer than
 * RP_MAX_COLS slots are drawn in buckets of several slots, each showing
 * the peak of its slots, so a chart stays a few thousand elements.
 */
#include "report_internal.h"

#include "cp_alloc.h"
#include "cp_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const dim_label[3] = {"accelerators", "CPUs", "memory (GB)"};

typedef struct buckets {
    int size, n; /* slots per column, columns */
} buckets;

static buckets buckets_of(int T)
{
    buckets k;
    k.size = (T + RP_MAX_COLS - 1) / RP_MAX_COLS;
    if (k.size < 1)
        k.size = 1;
    k.n = (T + k.size - 1) / k.size;
    return k;
}

static int bucket_end(const buckets *k, int c, int T)
{
    int e = (c + 1) * k->size;
    return e < T ? e : T;
}

/* "hours 2-3 (slot 2)" or "hours 0-6 (slots 0-5, peak shown)". */
static void col_span(const cp_rp_plan *p, const buckets *k, int c, char *out, size_t size)
{
    char span[160];
    int s0 = c * k->size, s1 = bucket_end(k, c, p->T) - 1;
    cp_rp_time_span(p, s0 * p->h, (s1 + 1) * p->h, span, sizeof span);
    if (s0 == s1)
        snprintf(out, size, "%s (slot %d)", span, s0);
    else
        snprintf(out, size, "%s (slots %d\xE2\x80\x93%d, peak shown)", span, s0, s1);
}

static void bucket_note(cp_buf *b, const buckets *k)
{
    if (k->size > 1)
        cp_buf_printf(b, "<p class=\"note\">The horizon is drawn in columns of %d slots; each "
                         "column shows the peak of its slots.</p>\n", k->size);
}

/* ---- utilization ---------------------------------------------------------- */

static double node_dim(const cp_machine *m, int d)
{
    return d == 0 ? m->accelerators : d == 1 ? m->cpus : m->memory_gb;
}

/* Capacity of pool dimension d in slot t (inputs), or NAN. */
static double capacity(const cp_rp_plan *p, const cp_rp_util *u, int d, int t)
{
    if (u->in_pool < 0)
        return NAN;
    const cp_pool *pl = &p->in->pools[u->in_pool];
    return cp_series_at(&pl->available, t) * node_dim(&pl->node, d);
}

void cp_rp_utilization(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "utilization", "Pool utilization per slot");
    if (p->n_util == 0) {
        cp_buf_puts(b, "<p class=\"note\">The plan has no on-prem pools.</p>\n");
        cp_html_section_end(b);
        return;
    }
    bool caps = false;
    for (int i = 0; i < p->n_util; i++)
        caps |= p->util[i].in_pool >= 0;
    cp_buf_printf(b, "<p class=\"note\">Demand of the jobs running in each slot, per dimension, %s "
                     "Hover a cell for the numbers.</p>\n",
                  caps ? "as a share of the pool's available capacity (nodes available in the slot "
                         "\xC3\x97 capacity per node)."
                       : "as a share of the pool's own peak over the horizon (the plan file does "
                         "not hold capacities: give the inputs for percentages of capacity).");
    buckets k = buckets_of(p->T);
    bucket_note(b, &k);
    const double cell_h = 14, gap = 10, top = 30;
    double height = top + p->n_util * (3 * cell_h + gap) + 56;
    cp_scale sx;
    cp_ticks t;
    char title[160];
    cp_rp_time_axis(p, &sx, &t, title, sizeof title);
    if (t.label2[0][0])
        height += 12;
    cp_svg_open(b, RP_WIDTH, height, "Heat map of pool utilization per slot");
    cp_legend_item it[7];
    char col[5][8];
    static const char *const pct[5] = {"0 %", "25 %", "50 %", "75 %", "100 %"};
    int n = 0;
    for (int i = 0; i < 5; i++) {
        cp_svg_heat(col[i], i / 4.0);
        it[n++] = (cp_legend_item){col[i], pct[i], false};
    }
    if (caps) {
        it[n++] = (cp_legend_item){"#dddddd", "no capacity", false};
        it[n++] = (cp_legend_item){"#d62728", "over capacity", false};
    }
    cp_svg_legend(b, RP_LEFT, 4, RP_WIDTH - RP_LEFT - RP_RIGHT, it, n);
    double y = top, bottom = top + p->n_util * (3 * cell_h + gap) - gap + 4;
    cp_svg_axis_x(b, &sx, bottom, bottom, &t, title);
    cp_buf tt;
    cp_buf_init(&tt);
    for (int i = 0; i < p->n_util; i++) {
        const cp_rp_util *u = &p->util[i];
        const char *pool = u->u->pool.s;
        cp_buf_puts(b, "<text x=\"8\" y=\"");
        cp_svg_coord(b, y + 11);
        cp_buf_puts(b, "\" class=\"atitle\">");
        cp_svg_esc_cut(b, pool, 26);
        cp_buf_puts(b, "</text>\n");
        for (int d = 0; d < 3; d++) {
            const double *busy_at = u->u->dim[d].v;
            double peak = 0;
            for (int s = 0; s < p->T; s++)
                peak = fmax(peak, busy_at[s]);
            cp_svg_text(b, RP_LEFT - 6, y + 11, "end", "sub", dim_label[d]);
            for (int c = 0; c < k.n; c++) {
                double f = 0, busy = 0, cap = NAN;
                for (int s = c * k.size; s < bucket_end(&k, c, p->T); s++) {
                    double v = busy_at[s], cs = capacity(p, u, d, s), fs;
                    if (u->in_pool >= 0)
                        fs = cs > 0 ? v / cs : v > 1e-9 ? 2 : NAN;
                    else
                        fs = peak > 0 ? v / peak : 0;
                    if (s == c * k.size || fs > f || (isnan(f) && !isnan(fs))) {
                        f = fs;
                        busy = v;
                        cap = cs;
                    }
                }
                char fill[8], span[200], q[48], cq[48], pq[48];
                cp_svg_heat(fill, f);
                col_span(p, &k, c, span, sizeof span);
                cp_svg_qty(q, sizeof q, busy);
                cp_buf_reset(&tt);
                cp_buf_printf(&tt, "%s \xC2\xB7 %s\n%s\n", pool, dim_label[d], span);
                if (u->in_pool >= 0) {
                    cp_svg_qty(cq, sizeof cq, cap);
                    cp_buf_printf(&tt, "%s of %s busy", q, cq);
                    if (cap > 0) {
                        cp_svg_fixed(pq, sizeof pq, 100 * busy / cap, 1);
                        cp_buf_printf(&tt, " (%s %%)", pq);
                    }
                } else {
                    cp_svg_qty(cq, sizeof cq, peak);
                    cp_buf_printf(&tt, "%s busy (pool peak %s)", q, cq);
                }
                double x0 = cp_scale_at(&sx, c * k.size * p->h);
                double x1 = cp_scale_at(&sx, bucket_end(&k, c, p->T) * p->h);
                cp_svg_rect(b, x0, y, x1 - x0, cell_h - 1, fill, "cell", tt.s);
            }
            y += cell_h;
        }
        y += gap;
    }
    cp_buf_release(&tt);
    cp_svg_close(b);
    cp_html_section_end(b);
}

/* ---- instances -------------------------------------------------------------- */

static double market_peak(const cp_plan_prov *m, int s0, int s1)
{
    double v = 0;
    for (int s = s0; s < s1; s++)
        v = fmax(v, m->instances.v[s]);
    return v;
}

void cp_rp_instances(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "instances", "Cloud instances rented per slot");
    if (p->n_markets == 0) {
        cp_buf_puts(b, "<p class=\"note\">No cloud instance is rented.</p>\n");
        cp_html_section_end(b);
        return;
    }
    cp_buf_puts(b, "<p class=\"note\">Instances rented in each slot, stacked by market (each "
                   "market is billed for whole slots).</p>\n");
    buckets k = buckets_of(p->T);
    bucket_note(b, &k);
    cp_legend_item *it = cp_calloc((size_t)p->n_markets, sizeof *it);
    cp_buf names;
    cp_buf_init(&names);
    size_t *off = cp_calloc((size_t)p->n_markets, sizeof *off);
    if (!it || !off) {
        b->oom = true; /* the page cannot be finished: report out of memory */
        cp_free(it);
        cp_free(off);
        return;
    }
    for (int i = 0; i < p->n_markets; i++) {
        off[i] = names.len;
        cp_buf_printf(&names, "%s (%s)", p->markets[i].market.s,
                      p->markets[i].mk == CP_PLAN_SPOT ? "spot" : "on-demand");
        cp_buf_putc(&names, '\0');
    }
    for (int i = 0; i < p->n_markets && cp_buf_ok(&names); i++)
        it[i] = (cp_legend_item){cp_svg_color(i), names.s + off[i], false};
    double lw = RP_WIDTH - RP_LEFT - RP_RIGHT;
    double lh = cp_buf_ok(&names) ? cp_svg_legend_height(lw, it, p->n_markets) : 0;
    double top = lh + 12, ph = 200, bottom = top + ph;
    double ymax = 0;
    for (int c = 0; c < k.n; c++) {
        double sum = 0;
        for (int i = 0; i < p->n_markets; i++)
            sum += market_peak(&p->markets[i], c * k.size, bucket_end(&k, c, p->T));
        ymax = fmax(ymax, sum);
    }
    ymax = cp_nice_ceil_whole(ymax);
    cp_scale sx, sy = {0, ymax, bottom, top};
    cp_ticks t, ty;
    char title[160];
    cp_rp_time_axis(p, &sx, &t, title, sizeof title);
    cp_ticks_whole(&ty, 0, ymax, 6);
    double height = bottom + (t.label2[0][0] ? 64 : 52);
    cp_svg_open(b, RP_WIDTH, height, "Stacked columns of cloud instances rented per slot and market");
    if (cp_buf_ok(&names))
        cp_svg_legend(b, RP_LEFT, 4, lw, it, p->n_markets);
    cp_svg_axis_y(b, &sy, RP_LEFT, RP_WIDTH - RP_RIGHT, &ty, "instances");
    cp_svg_axis_x(b, &sx, bottom, bottom, &t, title);
    cp_buf tt;
    cp_buf_init(&tt);
    for (int c = 0; c < k.n; c++) {
        double x0 = cp_scale_at(&sx, c * k.size * p->h) + 0.5;
        double x1 = cp_scale_at(&sx, bucket_end(&k, c, p->T) * p->h) - 0.5;
        double acc = 0;
        char span[200];
        col_span(p, &k, c, span, sizeof span);
        for (int i = 0; i < p->n_markets; i++) {
            double v = market_peak(&p->markets[i], c * k.size, bucket_end(&k, c, p->T));
            if (v <= 0)
                continue;
            double y0 = cp_scale_at(&sy, acc), y1 = cp_scale_at(&sy, acc + v);
            char q[48];
            cp_svg_qty(q, sizeof q, v);
            cp_buf_reset(&tt);
            cp_buf_printf(&tt, "%s (%s)\n%s\n%s instance%s", p->markets[i].market.s,
                          p->markets[i].mk == CP_PLAN_SPOT ? "spot" : "on-demand", span, q,
                          v == 1 ? "" : "s");
            cp_svg_rect(b, x0, y1, x1 - x0, y0 - y1, cp_svg_color(i), "bar", tt.s);
            acc += v;
        }
    }
    cp_buf_release(&tt);
    cp_svg_close(b);
    cp_html_section_end(b);
    cp_buf_release(&names);
    cp_free(it);
    cp_free(off);
}

/* ---- power -------------------------------------------------------------------- */

/* Idle baseline of site s in slot t, kW after PUE: the library's rule. */
static double baseline_kw(const cp_input *in, int s, int t)
{
    return in->sites[s].pue * cp_site_baseline_w(in, s, t) / 1000;
}

/* A step path through v[0..T-1] (one level per slot). */
static void step_path(cp_buf *b, const cp_rp_plan *p, const cp_scale *sx, const cp_scale *sy,
                      const double *v, const char *cls, const char *stroke)
{
    cp_buf_puts(b, "<path d=\"");
    for (int t = 0; t < p->T; t++) {
        cp_buf_puts(b, t == 0 ? "M" : " H");
        cp_svg_coord(b, cp_scale_at(sx, t * p->h));
        cp_buf_puts(b, t == 0 ? " " : " V");
        cp_svg_coord(b, cp_scale_at(sy, v[t]));
    }
    cp_buf_puts(b, " H");
    cp_svg_coord(b, cp_scale_at(sx, p->T * p->h));
    cp_buf_printf(b, "\" class=\"%s\"", cls);
    if (stroke)
        cp_buf_printf(b, " stroke=\"%s\"", stroke);
    cp_buf_puts(b, "/>\n");
}

/* base, capv: scratch arrays of T values. */
static void site_chart(cp_buf *b, const cp_rp_plan *p, const cp_rp_site *rs, double *base, double *capv)
{
    const cp_site *is = rs->in_site >= 0 ? &p->in->sites[rs->in_site] : NULL;
    const char *name = rs->s->name.s;
    const double *power_kw = rs->s->power_kw.v;
    bool cap = is && is->power_cap_kw.set;
    double ymax = 0;
    for (int t = 0; t < p->T; t++) {
        ymax = fmax(ymax, power_kw[t]);
        if (cap)
            ymax = fmax(ymax, capv[t] = cp_series_at(&is->power_cap_kw, t));
        if (is)
            ymax = fmax(ymax, base[t] = baseline_kw(p->in, rs->in_site, t));
    }
    ymax = cp_nice_ceil(ymax * 1.05);
    const double top = 26, ph = 150, bottom = top + ph;
    cp_scale sx, sy = {0, ymax, bottom, top};
    cp_ticks t, ty;
    char title[160];
    cp_rp_time_axis(p, &sx, &t, title, sizeof title);
    cp_ticks_nice(&ty, 0, ymax, 5, false);
    cp_buf lab;
    cp_buf_init(&lab);
    cp_buf_printf(&lab, "Facility power of site %s per slot", name);
    cp_svg_open(b, RP_WIDTH, bottom + (t.label2[0][0] ? 64 : 52), lab.s);
    cp_buf_release(&lab);
    cp_buf_puts(b, "<text x=\"8\" y=\"17\" class=\"atitle\">");
    cp_svg_esc_cut(b, name, 40);
    cp_buf_puts(b, "</text>\n");
    cp_legend_item it[3];
    int n = 0;
    it[n++] = (cp_legend_item){"#4e79a7", "facility power, slot average (kW)", false};
    if (cap)
        it[n++] = (cp_legend_item){"#cf222e", "power cap (kW)", true};
    if (is)
        it[n++] = (cp_legend_item){"#555555", "idle baseline (kW)", true};
    cp_svg_legend(b, RP_LEFT, 4, RP_WIDTH - RP_LEFT - RP_RIGHT, it, n);
    cp_svg_axis_y(b, &sy, RP_LEFT, RP_WIDTH - RP_RIGHT, &ty, "kW");
    cp_svg_axis_x(b, &sx, bottom, bottom, &t, title);
    if (is)
        step_path(b, p, &sx, &sy, base, "base", NULL);
    if (cap)
        step_path(b, p, &sx, &sy, capv, "cap", NULL);
    step_path(b, p, &sx, &sy, power_kw, "line", "#4e79a7");
    /* hover targets, one per column */
    buckets k = buckets_of(p->T);
    cp_buf tt;
    cp_buf_init(&tt);
    for (int c = 0; c < k.n; c++) {
        int s0 = c * k.size, s1 = bucket_end(&k, c, p->T), arg = s0;
        for (int s = s0; s < s1; s++)
            if (power_kw[s] > power_kw[arg])
                arg = s;
        char span[200], q[48];
        col_span(p, &k, c, span, sizeof span);
        cp_svg_qty(q, sizeof q, power_kw[arg]);
        cp_buf_reset(&tt);
        cp_buf_printf(&tt, "%s\n%s\n%s kW", name, span, q);
        if (cap) {
            double cv = capv[arg];
            char cq[48], pq[48];
            cp_svg_qty(cq, sizeof cq, cv);
            cp_svg_fixed(pq, sizeof pq, 100 * power_kw[arg] / cv, 1);
            cp_buf_printf(&tt, " of a %s kW cap (%s %%)", cq, pq);
        }
        if (is) {
            char bq[48];
            cp_svg_qty(bq, sizeof bq, base[arg]);
            cp_buf_printf(&tt, "; idle baseline %s kW", bq);
        }
        double x0 = cp_scale_at(&sx, s0 * p->h), x1 = cp_scale_at(&sx, s1 * p->h);
        cp_svg_rect(b, x0, top, x1 - x0, ph, NULL, "hit", tt.s);
    }
    cp_buf_release(&tt);
    cp_svg_close(b);
}

void cp_rp_power(cp_buf *b, const cp_rp_plan *p)
{
    cp_html_section(b, "power", "Facility power per site");
    if (p->n_sites == 0) {
        cp_buf_puts(b, "<p class=\"note\">The plan has no sites.</p>\n");
        cp_html_section_end(b);
        return;
    }
    bool inputs = false;
    for (int i = 0; i < p->n_sites; i++)
        inputs |= p->sites[i].in_site >= 0;
    cp_buf_printf(b, "<p class=\"note\">Average facility power in each slot (PUE \xC3\x97 (idle "
                     "baseline + busy power of the jobs on the site's pools)), on-prem only.%s</p>\n",
                  inputs ? "" : " The plan file does not hold power caps: give the inputs to draw them.");
    double *base = cp_calloc(2 * (size_t)p->T, sizeof *base);
    if (!base) {
        b->oom = true;
        return;
    }
    for (int i = 0; i < p->n_sites; i++)
        site_chart(b, p, &p->sites[i], base, base + p->T);
    cp_free(base);
    cp_html_section_end(b);
}
