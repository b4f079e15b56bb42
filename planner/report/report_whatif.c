/*
 * The what-if page (`whatif --report FILE`, cp_whatif.h): the total and
 * its parts per scenario as stacked bars, each labelled with its delta
 * against the baseline (row 0), one line chart of the total against the
 * swept value per sweep (rows sharing `sweep`), and the whole table.
 * Only the table's fields are used, so the page can be tested with a
 * hand-built table. Built with the same blocks as the plan report
 * (cp_svg.h): deterministic, self-contained, every name escaped.
 */
#include "cp_whatif.h"

#include "cp_alloc.h"
#include "cp_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 1200.0
#define LEFT 280.0
#define RIGHT 250.0 /* room for "total (delta)" after the longest bar */
#define LABEL_CHARS 40

static bool has_plan(const cp_whatif_row *r)
{
    return isfinite(r->costs.total);
}

static bool is_term(int i)
{
    return cp_cost_part_info[i].flags & CP_COST_TERM;
}

/* Term i of the row's total as a bar draws it (0 when it has none). */
static double part(const cp_whatif_row *r, int i)
{
    double v = r->costs.v[i];
    return isfinite(v) && v > 0 ? v : 0;
}

/* "+$2.00 (+4.0 %)", "-$1.50 (-3.0 %)", or "" for the baseline. */
static void delta_text(const cp_whatif_row *r, bool baseline, char *out, size_t size)
{
    out[0] = '\0';
    if (baseline || isnan(r->delta))
        return;
    char m[64], pc[48];
    cp_svg_money(m, sizeof m, r->delta);
    if (isnan(r->delta_pct))
        snprintf(out, size, "%s%s", r->delta > 0 ? "+" : "", m);
    else {
        cp_svg_fixed(pc, sizeof pc, r->delta_pct, 1);
        snprintf(out, size, "%s%s (%s%s %%)", r->delta > 0 ? "+" : "", m,
                 r->delta_pct > 0 ? "+" : "", pc);
    }
}

static void row_label(cp_buf *b, const char *name, double y, bool bold)
{
    cp_buf_puts(b, "<text x=\"8\" y=\"");
    cp_svg_coord(b, y);
    cp_buf_printf(b, "\"%s>", bold ? " class=\"atitle\"" : "");
    cp_svg_esc_cut(b, name, LABEL_CHARS);
    cp_buf_puts(b, "<title>");
    cp_svg_esc(b, name);
    cp_buf_puts(b, "</title></text>\n");
}

static double bar_sum(const cp_whatif_row *r)
{
    double s = 0;
    for (int k = 0; k < CP_COST_N; k++)
        if (is_term(k))
            s += part(r, k);
    return s;
}

/* Where the dollar axis ends. One scenario that drops a job costs a
 * million in penalties and would squash every other bar to a sliver: when
 * the largest total exceeds 4 times the reference (the median total, or
 * the baseline's if larger), the axis ends a little past the largest
 * total within that bound, and longer bars are cut. 0: no cut. */
static double cut_at(const cp_whatif_table *t, double max)
{
    int n = 0;
    for (int i = 0; i < t->n_rows; i++)
        n += has_plan(&t->rows[i]);
    if (n < 3)
        return 0;
    double median = 0;
    int k = (n - 1) / 2;
    for (int i = 0; i < t->n_rows; i++) { /* the k-th smallest, without sorting */
        if (!has_plan(&t->rows[i]))
            continue;
        double v = bar_sum(&t->rows[i]);
        int below = 0, upto = 0;
        for (int j = 0; j < t->n_rows; j++)
            if (has_plan(&t->rows[j])) {
                below += bar_sum(&t->rows[j]) < v;
                upto += bar_sum(&t->rows[j]) <= v;
            }
        if (below <= k && k < upto)
            median = v;
    }
    double ref = fmax(median, has_plan(&t->rows[0]) ? bar_sum(&t->rows[0]) : 0);
    if (!(ref > 0) || max <= 4 * ref)
        return 0;
    double lim = 0;
    for (int i = 0; i < t->n_rows; i++)
        if (has_plan(&t->rows[i]) && bar_sum(&t->rows[i]) <= 4 * ref)
            lim = fmax(lim, bar_sum(&t->rows[i]));
    return cp_nice_ceil(1.1 * lim);
}

static void bars(cp_buf *b, const cp_whatif_table *t)
{
    cp_html_section(b, "totals", "Total cost per scenario");
    cp_buf_puts(b, "<p class=\"note\">Stacked by part; after each bar the total and its change "
                   "against the baseline. The dashed line marks the baseline's total.");
    double max = 0;
    for (int i = 0; i < t->n_rows; i++)
        max = fmax(max, bar_sum(&t->rows[i]));
    double cut = cut_at(t, max);
    if (cut > 0) {
        char c[64];
        cp_svg_money(c, sizeof c, cut);
        cp_buf_printf(b, " Bars longer than %s are cut (marked by a break); their totals are "
                         "written after them.", c);
    }
    cp_buf_puts(b, "</p>\n");
    const double top = 30, rh = 24;
    double bottom = top + t->n_rows * rh + 4;
    cp_scale sx = {0, cut > 0 ? cut : cp_nice_ceil(max), LEFT, W - RIGHT};
    cp_ticks ticks;
    cp_ticks_nice(&ticks, 0, sx.d1, 8, false);
    cp_svg_open(b, W, bottom + 50, "Stacked bars of the total cost per scenario");
    cp_legend_item it[CP_COST_N + 1];
    int n_it = 0;
    for (int k = 0; k < CP_COST_N; k++)
        if (is_term(k) && cp_whatif_has_part(t, k))
            it[n_it++] = (cp_legend_item){cp_cost_part_info[k].color, cp_cost_part_info[k].label,
                                          false};
    it[n_it++] = (cp_legend_item){"#555555", "baseline total", true};
    cp_svg_legend(b, LEFT, 4, W - LEFT, it, n_it);
    cp_svg_axis_x(b, &sx, bottom, top, &ticks, "US dollars");
    cp_buf tt;
    cp_buf_init(&tt);
    for (int i = 0; i < t->n_rows; i++) {
        const cp_whatif_row *r = &t->rows[i];
        double y = top + i * rh;
        if (i % 2 == 0)
            cp_svg_rect(b, 0, y, W, rh, NULL, "band", NULL);
        row_label(b, r->name, y + rh / 2 + 4, i == 0);
        if (!has_plan(r)) {
            cp_buf_reset(&tt);
            cp_buf_printf(&tt, "no plan: %s", r->status ? r->status : "unknown");
            if (r->error)
                cp_buf_printf(&tt, " \xE2\x80\x94 %s", r->error);
            cp_svg_text(b, LEFT + 4, y + rh / 2 + 4, "start", "sub", tt.s);
            continue;
        }
        double acc = 0;
        for (int k = 0; k < CP_COST_N; k++) {
            double v = is_term(k) ? part(r, k) : 0;
            if (v <= 0 || acc >= sx.d1)
                continue;
            double x0 = cp_scale_at(&sx, acc), x1 = cp_scale_at(&sx, fmin(acc + v, sx.d1));
            char m[64];
            cp_svg_money(m, sizeof m, v);
            cp_buf_reset(&tt);
            cp_buf_printf(&tt, "%s\n%s: %s", r->name, cp_cost_part_info[k].label, m);
            cp_svg_rect(b, x0, y + 4, x1 - x0, rh - 8, cp_cost_part_info[k].color, "bar", tt.s);
            acc += v;
        }
        if (acc > sx.d1) { /* the break: two white slants near the end */
            double xe = cp_scale_at(&sx, sx.d1);
            cp_svg_line(b, xe - 14, y + rh - 3, xe - 8, y + 3, "cut");
            cp_svg_line(b, xe - 9, y + rh - 3, xe - 3, y + 3, "cut");
            acc = sx.d1;
        }
        char tot[64], d[120];
        cp_svg_money(tot, sizeof tot, r->costs.total);
        delta_text(r, i == 0, d, sizeof d);
        cp_buf_reset(&tt);
        cp_buf_printf(&tt, "%s%s%s", tot, d[0] ? "  " : "", d);
        cp_svg_text(b, cp_scale_at(&sx, acc) + 6, y + rh / 2 + 4, "start", NULL, tt.s);
    }
    if (t->n_rows > 0 && has_plan(&t->rows[0])) {
        double x = cp_scale_at(&sx, t->rows[0].costs.total);
        cp_svg_line(b, x, top - 2, x, bottom, "base");
    }
    cp_buf_release(&tt);
    cp_svg_close(b);
    cp_html_section_end(b);
}

typedef struct pt {
    double x, y;
    int row;
} pt;

static int by_x(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* One sweep: rows whose `sweep` equals rows[first].sweep. */
static int sweep_chart(cp_buf *b, const cp_whatif_table *t, int first)
{
    const char *name = t->rows[first].sweep;
    pt *pts = cp_calloc((size_t)t->n_rows, sizeof *pts);
    if (!pts)
        return CP_ERR_NOMEM;
    int n = 0, n_plan = 0;
    double x0 = INFINITY, x1 = -INFINITY, ymax = 0;
    for (int i = first; i < t->n_rows; i++) {
        const cp_whatif_row *r = &t->rows[i];
        if (!r->sweep || strcmp(r->sweep, name) || !isfinite(r->sweep_value))
            continue;
        pts[n++] = (pt){r->sweep_value, r->costs.total, i};
        x0 = fmin(x0, r->sweep_value);
        x1 = fmax(x1, r->sweep_value);
        if (has_plan(r)) {
            ymax = fmax(ymax, r->costs.total);
            n_plan++;
        }
    }
    if (t->n_rows > 0 && has_plan(&t->rows[0]))
        ymax = fmax(ymax, t->rows[0].costs.total);
    qsort(pts, (size_t)n, sizeof *pts, by_x);
    cp_buf_puts(b, "<h3>sweep ");
    cp_svg_esc(b, name);
    cp_buf_printf(b, "</h3>\n<p class=\"note\">%d value%s, %d with a plan.</p>\n", n,
                  n == 1 ? "" : "s", n_plan);
    if (n == 0) {
        cp_free(pts);
        return CP_OK;
    }
    double pad = x1 > x0 ? (x1 - x0) * 0.04 : fmax(1, fabs(x0) * 0.1);
    const double top = 26, ph = 220, bottom = top + ph;
    cp_scale sx = {x0 - pad, x1 + pad, LEFT, W - 60};
    cp_scale sy = {0, cp_nice_ceil(ymax * 1.05), bottom, top};
    cp_ticks tx, ty;
    cp_ticks_nice(&tx, sx.d0, sx.d1, 10, false);
    cp_ticks_nice(&ty, 0, sy.d1, 6, false);
    cp_buf lab;
    cp_buf_init(&lab);
    cp_buf_printf(&lab, "Line chart of the total cost against the swept value of %s", name);
    cp_svg_open(b, W, bottom + 52, lab.s);
    cp_buf_reset(&lab);
    cp_buf_printf(&lab, "swept value (%s)", name);
    cp_legend_item it[3] = {{"#4e79a7", "total cost", false}};
    int n_it = 1;
    if (has_plan(&t->rows[0]))
        it[n_it++] = (cp_legend_item){"#555555", "baseline total", true};
    if (n_plan < n)
        it[n_it++] = (cp_legend_item){"#cf222e", "no plan (drawn at 0)", false};
    cp_svg_legend(b, LEFT, 4, W - LEFT, it, n_it);
    cp_svg_axis_y(b, &sy, LEFT, W - 60, &ty, "total cost (US dollars)");
    cp_svg_axis_x(b, &sx, bottom, bottom, &tx, lab.s);
    cp_buf_release(&lab);
    if (has_plan(&t->rows[0])) {
        double y = cp_scale_at(&sy, t->rows[0].costs.total);
        cp_svg_line(b, LEFT, y, W - 60, y, "base");
    }
    /* the line breaks where a value has no plan */
    bool open = false;
    cp_buf_puts(b, "<path d=\"");
    for (int i = 0; i < n; i++) {
        if (!isfinite(pts[i].y)) {
            open = false;
            continue;
        }
        cp_buf_puts(b, open ? " L" : " M");
        cp_svg_coord(b, cp_scale_at(&sx, pts[i].x));
        cp_buf_putc(b, ' ');
        cp_svg_coord(b, cp_scale_at(&sy, pts[i].y));
        open = true;
    }
    cp_buf_puts(b, "\" class=\"line\" stroke=\"#4e79a7\"/>\n");
    cp_buf tt;
    cp_buf_init(&tt);
    for (int i = 0; i < n; i++) {
        const cp_whatif_row *r = &t->rows[pts[i].row];
        char m[64], d[120];
        cp_buf_reset(&tt);
        if (isfinite(pts[i].y)) {
            cp_svg_money(m, sizeof m, r->costs.total);
            delta_text(r, false, d, sizeof d);
            cp_buf_printf(&tt, "%s\ntotal %s%s%s", r->name, m, d[0] ? ", " : "", d);
        } else {
            cp_buf_printf(&tt, "%s\nno plan: %s", r->name, r->status ? r->status : "unknown");
        }
        double cx = cp_scale_at(&sx, pts[i].x);
        double cy = isfinite(pts[i].y) ? cp_scale_at(&sy, pts[i].y) : bottom;
        cp_buf_puts(b, "<circle cx=\"");
        cp_svg_coord(b, cx);
        cp_buf_puts(b, "\" cy=\"");
        cp_svg_coord(b, cy);
        cp_buf_printf(b, "\" r=\"5\" fill=\"%s\" class=\"dot\"><title>",
                      isfinite(pts[i].y) ? "#4e79a7" : "#cf222e");
        cp_svg_esc(b, tt.s);
        cp_buf_puts(b, "</title></circle>\n");
    }
    cp_buf_release(&tt);
    cp_svg_close(b);
    cp_free(pts);
    return CP_OK;
}

static int sweeps(cp_buf *b, const cp_whatif_table *t)
{
    bool any = false;
    for (int i = 0; i < t->n_rows; i++)
        any |= t->rows[i].sweep != NULL;
    if (!any)
        return CP_OK;
    cp_html_section(b, "sweeps", "Sweeps: total cost against the swept value");
    for (int i = 0; i < t->n_rows; i++) {
        const char *s = t->rows[i].sweep;
        if (!s)
            continue;
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = t->rows[k].sweep && !strcmp(t->rows[k].sweep, s);
        if (!seen && sweep_chart(b, t, i))
            return CP_ERR_NOMEM;
    }
    cp_html_section_end(b);
    return CP_OK;
}

static void td_money(cp_buf *b, double v)
{
    char s[64];
    cp_svg_money(s, sizeof s, v);
    cp_buf_printf(b, "<td class=\"n\">%s</td>", isnan(v) ? "" : s);
}

/* A quantity and its unit ("12 kWh"), empty when there is none. */
static void td_qty(cp_buf *b, double v, const char *unit)
{
    char s[64];
    cp_svg_qty(s, sizeof s, v);
    if (isnan(v))
        cp_buf_puts(b, "<td class=\"n\"></td>");
    else
        cp_buf_printf(b, "<td class=\"n\">%s %s</td>", s, unit);
}

static void table(cp_buf *b, const cp_whatif_table *t)
{
    cp_html_section(b, "table", "All scenarios");
    /* money, the change and the drops, then the quantities */
    cp_buf_puts(b, "<table>\n<tr><th>scenario</th><th>status</th>");
    for (int money = 1; money >= 0; money--) {
        for (int k = 0; k < CP_COST_N; k++)
            if (cp_whatif_has_part(t, k) && cp_cost_part_is_money(k) == money)
                cp_buf_printf(b, "<th class=\"n\">%s</th>", cp_cost_part_info[k].label);
        if (money)
            cp_buf_puts(b, "<th class=\"n\">change</th><th class=\"n\">dropped</th>");
        for (int k = 0; money && k < t->n_team; k++) { /* capplan.5 §10.2 */
            cp_buf_puts(b, "<th class=\"n\">team ");
            cp_svg_esc(b, t->team_names[k]);
            cp_buf_puts(b, "</th>");
        }
    }
    cp_buf_puts(b, "<th class=\"n\">spot share</th>");
    for (int a = 0; a < t->n_acc; a++) {
        cp_buf_puts(b, "<th class=\"n\">");
        cp_svg_esc(b, t->acc_names[a]);
        cp_buf_puts(b, " h on-prem / cloud</th>");
    }
    cp_buf_puts(b, "<th>error</th></tr>\n");
    for (int i = 0; i < t->n_rows; i++) {
        const cp_whatif_row *r = &t->rows[i];
        cp_buf_puts(b, "<tr><td>");
        cp_svg_esc(b, r->name);
        cp_buf_puts(b, "</td><td>");
        cp_svg_esc(b, r->status);
        cp_buf_puts(b, "</td>");
        for (int k = 0; k < CP_COST_N; k++)
            if (cp_whatif_has_part(t, k) && cp_cost_part_is_money(k))
                td_money(b, r->costs.v[k]);
        char d[120];
        delta_text(r, i == 0, d, sizeof d);
        cp_buf_printf(b, "<td class=\"n\">%s</td>", d);
        if (has_plan(r))
            cp_buf_printf(b, "<td class=\"n\">%d</td>", r->dropped);
        else
            cp_buf_puts(b, "<td class=\"n\"></td>");
        for (int k = 0; k < t->n_team; k++)
            td_money(b, r->team_cost ? r->team_cost[k] : NAN);
        for (int k = 0; k < CP_COST_N; k++)
            if (cp_whatif_has_part(t, k) && !cp_cost_part_is_money(k))
                td_qty(b, r->costs.v[k], cp_cost_part_info[k].unit);
        td_qty(b, has_plan(r) ? 100 * r->spot_share : NAN, "%");
        for (int a = 0; a < t->n_acc; a++) {
            char on[48] = "", cl[48] = "";
            if (has_plan(r) && r->acc_hours_onprem && r->acc_hours_cloud) {
                cp_svg_qty(on, sizeof on, r->acc_hours_onprem[a]);
                cp_svg_qty(cl, sizeof cl, r->acc_hours_cloud[a]);
            }
            cp_buf_printf(b, "<td class=\"n\">%s%s%s</td>", on, on[0] ? " / " : "", cl);
        }
        cp_buf_puts(b, "<td>");
        cp_svg_esc(b, r->error);
        cp_buf_puts(b, "</td></tr>\n");
    }
    cp_buf_puts(b, "</table>\n");
    cp_html_section_end(b);
}

int cp_report_whatif_html(const cp_whatif_table *t, cp_buf *out, cp_err *err)
{
    cp_html_begin(out, "capplan what-if report");
    cp_buf_puts(out, "<header>\n<h1>capplan what-if report</h1>\n");
    cp_buf_printf(out, "<p class=\"sub\">%d scenario%s besides the baseline</p>\n",
                  t->n_rows > 0 ? t->n_rows - 1 : 0, t->n_rows == 2 ? "" : "s");
    if (t->n_rows > 0) {
        int best = -1;
        for (int i = 0; i < t->n_rows; i++)
            if (has_plan(&t->rows[i]) && (best < 0 || t->rows[i].costs.total < t->rows[best].costs.total))
                best = i;
        char m[64];
        cp_buf_puts(out, "<div class=\"cards\">\n<div class=\"card\"><span>baseline total</span><b>");
        cp_svg_money(m, sizeof m, t->rows[0].costs.total);
        cp_buf_puts(out, m);
        cp_buf_puts(out, "</b></div>\n");
        if (best >= 0) {
            cp_buf_puts(out, "<div class=\"card\"><span>cheapest: ");
            cp_svg_esc_cut(out, t->rows[best].name, LABEL_CHARS);
            cp_svg_money(m, sizeof m, t->rows[best].costs.total);
            cp_buf_printf(out, "</span><b>%s</b></div>\n", m);
        }
        cp_buf_puts(out, "</div>\n");
    }
    cp_buf_puts(out, "</header>\n");
    int rc = CP_OK;
    if (t->n_rows > 0) {
        bars(out, t);
        rc = sweeps(out, t);
        table(out, t);
    } else {
        cp_buf_puts(out, "<p>No scenario.</p>\n");
    }
    cp_buf_puts(out, "<footer><p class=\"note\">Written by capplan whatif. Self-contained: no "
                     "scripts, no network.</p></footer>\n");
    cp_html_end(out);
    if (rc || !cp_buf_ok(out))
        return cp_err_nomem(err);
    return CP_OK;
}
