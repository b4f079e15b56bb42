/*
 * Building blocks for the HTML reports (`capplan report`, `whatif
 * --report`): escaping, fixed number formats, linear scales, "nice"
 * ticks, axes, a colour palette, legends, and the page frame with its
 * inline CSS. Everything appends to a cp_buf (sticky out-of-memory, so
 * callers check the buffer once at the end) and nothing allocates
 * otherwise.
 *
 * Output is deterministic: coordinates are rounded to 0.1 px and numbers
 * printed with a fixed number of decimals (the CLI never calls setlocale,
 * so the decimal point is '.'). SVG is written without an xmlns
 * attribute (HTML5 inline SVG needs none) so that a page refers to no
 * URL at all; every element is closed, so each <svg> and the whole page
 * are well-formed XML.
 */
#ifndef CP_SVG_H
#define CP_SVG_H

#include "cp_buf.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- text and numbers ---------------------------------------------------- */

/* Appends `s` escaped for XML/HTML text and attribute values (& < > " ').
 * Bytes that are not valid UTF-8 and control characters other than tab
 * and newline become U+FFFD, so the page is always well-formed. NULL
 * appends nothing. */
void cp_svg_esc(cp_buf *b, const char *s);
/* The same for at most `max_chars` characters, with "…" when cut. */
void cp_svg_esc_cut(cp_buf *b, const char *s, int max_chars);
/* Characters (UTF-8 code points) in s. */
int cp_svg_chars(const char *s);

/* A coordinate: rounded to 0.1, trailing ".0" dropped ("12", "12.5"). */
void cp_svg_coord(cp_buf *b, double v);
/* `v` with exactly `dec` decimals (0..6); "-0" prints as "0"; NaN as
 * "n/a". `out` has at least 48 bytes. */
void cp_svg_fixed(char *out, size_t size, double v, int dec);
/* Like cp_svg_fixed with thousands separators ("1,234.50"). */
void cp_svg_group(char *out, size_t size, double v, int dec);
/* Dollars for people: "$1,234.57"; "-$3.20"; NaN as "n/a". */
void cp_svg_money(char *out, size_t size, double v);
/* A quantity with about 4 significant digits ("0.0123", "12.35",
 * "1,234.6", "12,345"). */
void cp_svg_qty(char *out, size_t size, double v);

/* ---- scales and ticks ---------------------------------------------------- */

/* Maps the domain [d0, d1] linearly onto the range [r0, r1]. */
typedef struct cp_scale {
    double d0, d1, r0, r1;
} cp_scale;

double cp_scale_at(const cp_scale *s, double v);

#define CP_TICKS_MAX 24
#define CP_TICK_LABEL 40

typedef struct cp_ticks {
    int n;
    double v[CP_TICKS_MAX];
    char label[CP_TICKS_MAX][CP_TICK_LABEL];
    char label2[CP_TICKS_MAX][CP_TICK_LABEL]; /* optional second line, "" when none */
} cp_ticks;

/* Ticks at multiples of a round step (1, 2, 5 x 10^k; with `hours`, also
 * 3, 6, 12, 24, 48, 168 h) inside [lo, hi], at most max_n of them, with
 * labels in the decimals the step needs. */
void cp_ticks_nice(cp_ticks *t, double lo, double hi, int max_n, bool hours);
/* The same for a count (instances, replicas): whole steps only (1, 2, 5 x
 * 10^k, k >= 0), so no tick reads half an instance. */
void cp_ticks_whole(cp_ticks *t, double lo, double hi, int max_n);
/* The smallest round number (1, 2, 2.5, 5 x 10^k) >= v; 1 for v <= 0. */
double cp_nice_ceil(double v);
/* The same, whole: at least 1, never 2.5 (a count axis's top). */
double cp_nice_ceil_whole(double v);

/* ---- SVG elements ------------------------------------------------------------ */

/* <svg ...> of width x height px, with a text alternative `label`. */
void cp_svg_open(cp_buf *b, double width, double height, const char *label);
void cp_svg_close(cp_buf *b);
/* <rect>; `cls` and `fill` may be NULL; with a `title`, the title is its
 * hover text. */
void cp_svg_rect(cp_buf *b, double x, double y, double w, double h, const char *fill,
                 const char *cls, const char *title);
void cp_svg_line(cp_buf *b, double x1, double y1, double x2, double y2, const char *cls);
/* anchor: "start", "middle" or "end"; cls may be NULL. */
void cp_svg_text(cp_buf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text);

/* A bottom axis at y with gridlines up to `grid_top` (no grid when
 * grid_top >= y), tick labels below and `title` centred under them. */
void cp_svg_axis_x(cp_buf *b, const cp_scale *sx, double y, double grid_top,
                   const cp_ticks *t, const char *title);
/* A left axis at x with gridlines to `grid_right`, labels at its left and
 * a vertical `title`. */
void cp_svg_axis_y(cp_buf *b, const cp_scale *sy, double x, double grid_right,
                   const cp_ticks *t, const char *title);

/* ---- colours and legends --------------------------------------------------- */

/* Categorical colour i (cycles through 10 colour-blind-friendly ones). */
const char *cp_svg_color(int i);
/* Sequential colour for a fraction f in [0, 1] (light to dark blue);
 * above 1 a warning red. `out` has at least 8 bytes ("#rrggbb"). */
void cp_svg_heat(char *out, double f);

typedef struct cp_legend_item {
    const char *color;
    const char *label;
    bool dashed; /* a dashed line sample instead of a box */
} cp_legend_item;

/* Draws the items left to right from (x, y), wrapping at x + width;
 * returns the height used. */
double cp_svg_legend(cp_buf *b, double x, double y, double width, const cp_legend_item *it,
                     int n);
/* The height cp_svg_legend would use. */
double cp_svg_legend_height(double width, const cp_legend_item *it, int n);

/* ---- the page ------------------------------------------------------------------ */

/* <!DOCTYPE html> through <body>, with the shared inline CSS. */
void cp_html_begin(cp_buf *b, const char *title);
void cp_html_end(cp_buf *b);
/* <h2 id="id">title</h2> opening a <section>; close with cp_html_section_end. */
void cp_html_section(cp_buf *b, const char *id, const char *title);
void cp_html_section_end(cp_buf *b);

#endif
