/* SVG and HTML building blocks for the reports; see cp_svg.h. */
#include "cp_svg.h"
#include "cp_num.h"

#include <limits.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the tick indices a range may span: far past any axis, within a long */
#define TICKS_SPAN 1000000000000000L

/* Average advance of one character of the 11 px UI font, for layout
 * estimates (legends, label columns); a little generous on purpose. */
#define CHAR_W 6.3

/* ---- text and numbers ---------------------------------------------------- */

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1..4) whose code point XML
 * allows, or 0. */
static int utf8_ok(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
    int n;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0; /* overlong or out of range */
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return n;
}

static void esc_n(cp_buf *b, const char *s, int max_chars)
{
    if (!s)
        return;
    const unsigned char *p = (const unsigned char *)s;
    int chars = 0;
    while (*p) {
        if (max_chars >= 0 && chars == max_chars) {
            cp_buf_puts(b, "\xE2\x80\xA6"); /* … */
            return;
        }
        int n = utf8_ok(p);
        chars++;
        if (n == 0) {
            cp_buf_puts(b, replacement);
            p++;
            continue;
        }
        if (n > 1) {
            cp_buf_add(b, (const char *)p, (size_t)n);
            p += n;
            continue;
        }
        switch (*p) {
        case '&': cp_buf_puts(b, "&amp;"); break;
        case '<': cp_buf_puts(b, "&lt;"); break;
        case '>': cp_buf_puts(b, "&gt;"); break;
        case '"': cp_buf_puts(b, "&quot;"); break;
        case '\'': cp_buf_puts(b, "&#39;"); break;
        default: cp_buf_putc(b, (char)*p);
        }
        p++;
    }
}

void cp_svg_esc(cp_buf *b, const char *s)
{
    esc_n(b, s, -1);
}

void cp_svg_esc_cut(cp_buf *b, const char *s, int max_chars)
{
    /* cut one character earlier, so the ellipsis fits in max_chars */
    esc_n(b, s, s && cp_svg_chars(s) > max_chars ? (max_chars > 1 ? max_chars - 1 : 1) : -1);
}

int cp_svg_chars(const char *s)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

void cp_svg_coord(cp_buf *b, double v)
{
    if (!isfinite(v))
        v = 0;
    long long t = cp_num_clamp_long(round(v * 10), -LONG_MAX, LONG_MAX);
    if (t < 0) {
        cp_buf_putc(b, '-');
        t = -t;
    }
    if (t % 10)
        cp_buf_printf(b, "%lld.%lld", t / 10, t % 10);
    else
        cp_buf_printf(b, "%lld", t / 10);
}

void cp_svg_fixed(char *out, size_t size, double v, int dec)
{
    if (isnan(v)) {
        snprintf(out, size, "n/a");
        return;
    }
    if (isinf(v)) {
        snprintf(out, size, v > 0 ? "inf" : "-inf");
        return;
    }
    if (dec < 0)
        dec = 0;
    if (dec > 6)
        dec = 6;
    snprintf(out, size, "%.*f", dec, v);
    if (out[0] == '-' && strspn(out + 1, "0.") == strlen(out + 1))
        memmove(out, out + 1, strlen(out)); /* "-0.00" -> "0.00" */
}

void cp_svg_group(char *out, size_t size, double v, int dec)
{
    char tmp[64];
    cp_svg_fixed(tmp, sizeof tmp, v, dec);
    if (!isfinite(v)) {
        snprintf(out, size, "%s", tmp);
        return;
    }
    const char *digits = tmp[0] == '-' ? tmp + 1 : tmp;
    size_t int_len = strcspn(digits, ".");
    char res[96];
    size_t k = 0;
    if (tmp[0] == '-')
        res[k++] = '-';
    for (size_t i = 0; i < int_len; i++) {
        if (i > 0 && (int_len - i) % 3 == 0)
            res[k++] = ',';
        res[k++] = digits[i];
    }
    snprintf(res + k, sizeof res - k, "%s", digits + int_len);
    snprintf(out, size, "%s", res);
}

void cp_svg_money(char *out, size_t size, double v)
{
    char tmp[64];
    if (isnan(v)) {
        snprintf(out, size, "n/a");
        return;
    }
    cp_svg_group(tmp, sizeof tmp, fabs(v), 2);
    snprintf(out, size, "%s$%s", v < 0 && strcmp(tmp, "0.00") ? "-" : "", tmp);
}

void cp_svg_qty(char *out, size_t size, double v)
{
    double a = fabs(v);
    int dec;
    if (!isfinite(v) || a >= 1000 || a == 0)
        dec = a >= 1000 && a < 10000 ? 1 : 0;
    else
        dec = 3 - cp_num_clamp_int(floor(log10(a)), -400, 400);
    if (dec > 6)
        dec = 6;
    cp_svg_group(out, size, v, dec);
    if (strchr(out, '.')) { /* "12.50" -> "12.5", "3.000" -> "3" */
        size_t n = strlen(out);
        while (n > 0 && out[n - 1] == '0')
            out[--n] = '\0';
        if (n > 0 && out[n - 1] == '.')
            out[--n] = '\0';
    }
}

/* ---- scales and ticks ---------------------------------------------------- */

double cp_scale_at(const cp_scale *s, double v)
{
    double span = s->d1 - s->d0;
    if (span == 0)
        return s->r0;
    return s->r0 + (v - s->d0) / span * (s->r1 - s->r0);
}

/* Decimals that print `step` exactly (0..6). */
static int step_decimals(double step)
{
    for (int d = 0; d < 6; d++) {
        double x = step * pow(10, d);
        if (fabs(x - round(x)) < 1e-6 * fmax(1, x))
            return d;
    }
    return 6;
}

/* A double: tiny steps over wide ranges count past INT_MAX. */
static double count_ticks(double lo, double hi, double step)
{
    return floor(hi / step + 1e-9) - ceil(lo / step - 1e-9) + 1;
}

/* min_e: the smallest power of ten a step may have (0: whole steps). */
static void ticks(cp_ticks *t, double lo, double hi, int max_n, bool hours, int min_e)
{
    static const double hour_steps[] = {0.25, 0.5, 1, 2, 3, 6, 12, 24, 48, 72, 168, 336, 720};
    memset(t, 0, sizeof *t);
    if (!isfinite(lo) || !isfinite(hi))
        return;
    if (hi <= lo)
        hi = lo + 1;
    if (max_n < 2)
        max_n = 2;
    if (max_n > CP_TICKS_MAX)
        max_n = CP_TICKS_MAX;
    double step = 0;
    if (hours)
        for (size_t i = 0; i < sizeof hour_steps / sizeof hour_steps[0] && !step; i++)
            if (hour_steps[i] >= (hi - lo) / 400 && count_ticks(lo, hi, hour_steps[i]) <= max_n)
                step = hour_steps[i];
    for (int e = min_e; e <= 15 && !step; e++)
        for (int m = 0; m < 3 && !step; m++) {
            double s = (m == 0 ? 1 : m == 1 ? 2 : 5) * pow(10, e);
            if (count_ticks(lo, hi, s) <= max_n)
                step = s;
        }
    if (!step)
        return;
    int dec = step_decimals(step);
    long long i0 = cp_num_clamp_long(ceil(lo / step - 1e-9), -TICKS_SPAN, TICKS_SPAN),
              i1 = cp_num_clamp_long(floor(hi / step + 1e-9), -TICKS_SPAN, TICKS_SPAN);
    for (long long i = i0; i <= i1 && t->n < CP_TICKS_MAX; i++) {
        double v = (double)i * step;
        t->v[t->n] = v;
        cp_svg_group(t->label[t->n], CP_TICK_LABEL, v, dec);
        t->n++;
    }
}

void cp_ticks_nice(cp_ticks *t, double lo, double hi, int max_n, bool hours)
{
    ticks(t, lo, hi, max_n, hours, -9);
}

void cp_ticks_whole(cp_ticks *t, double lo, double hi, int max_n)
{
    ticks(t, lo, hi, max_n, false, 0);
}

double cp_nice_ceil_whole(double v)
{
    return fmax(1, ceil(cp_nice_ceil(v)));
}

double cp_nice_ceil(double v)
{
    if (!(v > 0) || !isfinite(v))
        return 1;
    double base = pow(10, floor(log10(v)));
    static const double m[] = {1, 2, 2.5, 5, 10};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i] * base >= v * (1 - 1e-12))
            return m[i] * base;
    return 10 * base;
}

/* ---- SVG elements ------------------------------------------------------------ */

void cp_svg_open(cp_buf *b, double width, double height, const char *label)
{
    cp_buf_puts(b, "<svg width=\"");
    cp_svg_coord(b, width);
    cp_buf_puts(b, "\" height=\"");
    cp_svg_coord(b, height);
    cp_buf_puts(b, "\" viewBox=\"0 0 ");
    cp_svg_coord(b, width);
    cp_buf_putc(b, ' ');
    cp_svg_coord(b, height);
    cp_buf_puts(b, "\" role=\"img\" aria-label=\"");
    cp_svg_esc(b, label);
    cp_buf_puts(b, "\">\n");
}

void cp_svg_close(cp_buf *b)
{
    cp_buf_puts(b, "</svg>\n");
}

void cp_svg_rect(cp_buf *b, double x, double y, double w, double h, const char *fill,
                 const char *cls, const char *title)
{
    cp_buf_puts(b, "<rect x=\"");
    cp_svg_coord(b, x);
    cp_buf_puts(b, "\" y=\"");
    cp_svg_coord(b, y);
    cp_buf_puts(b, "\" width=\"");
    cp_svg_coord(b, w > 0 ? w : 0);
    cp_buf_puts(b, "\" height=\"");
    cp_svg_coord(b, h > 0 ? h : 0);
    cp_buf_putc(b, '"');
    if (fill)
        cp_buf_printf(b, " fill=\"%s\"", fill);
    if (cls)
        cp_buf_printf(b, " class=\"%s\"", cls);
    if (title) {
        cp_buf_puts(b, "><title>");
        cp_svg_esc(b, title);
        cp_buf_puts(b, "</title></rect>\n");
    } else {
        cp_buf_puts(b, "/>\n");
    }
}

void cp_svg_line(cp_buf *b, double x1, double y1, double x2, double y2, const char *cls)
{
    cp_buf_puts(b, "<line x1=\"");
    cp_svg_coord(b, x1);
    cp_buf_puts(b, "\" y1=\"");
    cp_svg_coord(b, y1);
    cp_buf_puts(b, "\" x2=\"");
    cp_svg_coord(b, x2);
    cp_buf_puts(b, "\" y2=\"");
    cp_svg_coord(b, y2);
    cp_buf_printf(b, "\" class=\"%s\"/>\n", cls ? cls : "axis");
}

void cp_svg_text(cp_buf *b, double x, double y, const char *anchor, const char *cls,
                 const char *text)
{
    cp_buf_puts(b, "<text x=\"");
    cp_svg_coord(b, x);
    cp_buf_puts(b, "\" y=\"");
    cp_svg_coord(b, y);
    cp_buf_putc(b, '"');
    if (anchor && strcmp(anchor, "start"))
        cp_buf_printf(b, " text-anchor=\"%s\"", anchor);
    if (cls)
        cp_buf_printf(b, " class=\"%s\"", cls);
    cp_buf_putc(b, '>');
    cp_svg_esc(b, text);
    cp_buf_puts(b, "</text>\n");
}

void cp_svg_axis_x(cp_buf *b, const cp_scale *sx, double y, double grid_top,
                   const cp_ticks *t, const char *title)
{
    bool two = false;
    for (int i = 0; i < t->n; i++) {
        double x = cp_scale_at(sx, t->v[i]);
        if (grid_top < y)
            cp_svg_line(b, x, grid_top, x, y, "grid");
        cp_svg_line(b, x, y, x, y + 4, "axis");
        cp_svg_text(b, x, y + 15, "middle", NULL, t->label[i]);
        if (t->label2[i][0]) {
            cp_svg_text(b, x, y + 27, "middle", "sub", t->label2[i]);
            two = true;
        }
    }
    cp_svg_line(b, sx->r0, y, sx->r1, y, "axis");
    if (title)
        cp_svg_text(b, (sx->r0 + sx->r1) / 2, y + (two ? 42 : 30), "middle", "atitle", title);
}

void cp_svg_axis_y(cp_buf *b, const cp_scale *sy, double x, double grid_right,
                   const cp_ticks *t, const char *title)
{
    int wide = 1;
    for (int i = 0; i < t->n; i++) {
        double y = cp_scale_at(sy, t->v[i]);
        if (grid_right > x)
            cp_svg_line(b, x, y, grid_right, y, "grid");
        cp_svg_line(b, x - 4, y, x, y, "axis");
        cp_svg_text(b, x - 6, y + 4, "end", NULL, t->label[i]);
        int w = cp_svg_chars(t->label[i]);
        if (w > wide)
            wide = w;
    }
    cp_svg_line(b, x, sy->r0, x, sy->r1, "axis");
    if (!title)
        return;
    double tx = x - 12 - wide * CHAR_W, ty = (sy->r0 + sy->r1) / 2;
    cp_buf_puts(b, "<text transform=\"translate(");
    cp_svg_coord(b, tx);
    cp_buf_putc(b, ',');
    cp_svg_coord(b, ty);
    cp_buf_puts(b, ") rotate(-90)\" text-anchor=\"middle\" class=\"atitle\">");
    cp_svg_esc(b, title);
    cp_buf_puts(b, "</text>\n");
}

/* ---- colours and legends --------------------------------------------------- */

const char *cp_svg_color(int i)
{
    /* Tableau 10: distinct in hue and lightness, fine for colour-blind readers */
    static const char *const c[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    if (i < 0)
        i = -i;
    return c[i % 10];
}

void cp_svg_heat(char *out, double f)
{
    /* ColorBrewer "Blues" stops */
    static const unsigned char stop[5][3] = {
        {0xf7, 0xfb, 0xff}, {0xc6, 0xdb, 0xef}, {0x6b, 0xae, 0xd6}, {0x21, 0x71, 0xb5}, {0x08, 0x30, 0x6b}};
    if (isnan(f)) {
        snprintf(out, 8, "#dddddd");
        return;
    }
    if (f > 1 + 1e-9) {
        snprintf(out, 8, "#d62728");
        return;
    }
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    double pos = f * 4;
    int i = cp_num_clamp_int(floor(pos), 0, 4);
    if (i >= 4)
        i = 3;
    double u = pos - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = cp_num_clamp_int(round(stop[i][k] + u * (stop[i + 1][k] - stop[i][k])), 0, 255);
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 0xff, rgb[1] & 0xff, rgb[2] & 0xff);
}

static double item_width(const cp_legend_item *it)
{
    return 18 + cp_svg_chars(it->label) * CHAR_W + 14;
}

static double legend_layout(cp_buf *b, double x, double y, double width,
                            const cp_legend_item *it, int n)
{
    double cx = 0, cy = 0;
    for (int i = 0; i < n; i++) {
        double w = item_width(&it[i]);
        if (cx > 0 && cx + w > width) {
            cx = 0;
            cy += 16;
        }
        if (b) {
            if (it[i].dashed) {
                cp_buf_puts(b, "<line x1=\"");
                cp_svg_coord(b, x + cx);
                cp_buf_puts(b, "\" y1=\"");
                cp_svg_coord(b, y + cy + 6);
                cp_buf_puts(b, "\" x2=\"");
                cp_svg_coord(b, x + cx + 14);
                cp_buf_puts(b, "\" y2=\"");
                cp_svg_coord(b, y + cy + 6);
                cp_buf_printf(b, "\" stroke=\"%s\" class=\"dash\"/>\n", it[i].color);
            } else {
                cp_svg_rect(b, x + cx + 2, y + cy + 1, 10, 10, it[i].color, "key", NULL);
            }
            cp_svg_text(b, x + cx + 18, y + cy + 10, "start", NULL, it[i].label);
        }
        cx += w;
    }
    return n > 0 ? cy + 16 : 0;
}

double cp_svg_legend(cp_buf *b, double x, double y, double width, const cp_legend_item *it,
                     int n)
{
    return legend_layout(b, x, y, width, it, n);
}

double cp_svg_legend_height(double width, const cp_legend_item *it, int n)
{
    return legend_layout(NULL, 0, 0, width, it, n);
}

/* ---- the page ------------------------------------------------------------------ */

/* No '<' or '&' in here: the page must stay well-formed XML. */
static const char page_css[] =
    "body{font:14px/1.45 system-ui,'DejaVu Sans','Liberation Sans',Arial,sans-serif;"
    "color:#222;background:#fff;margin:16px 20px;max-width:1200px}\n"
    "h1{font-size:20px;margin:0 0 4px}\n"
    "h2{font-size:16px;margin:22px 0 6px;padding-bottom:2px;border-bottom:1px solid #ddd}\n"
    "p{margin:4px 0}\n"
    ".sub,.note{color:#555}\n"
    ".note{font-size:13px}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}\n"
    ".card{border:1px solid #ddd;border-radius:4px;padding:4px 10px;min-width:84px}\n"
    ".card span{display:block;font-size:12px;color:#555}\n"
    ".card b{font-size:16px}\n"
    ".ok{color:#1a7f37}.warn{color:#9a6700}.bad{color:#cf222e}\n"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}\n"
    "th,td{padding:2px 10px 2px 0;border-bottom:1px solid #eee;text-align:left;vertical-align:top}\n"
    "th{border-bottom:1px solid #bbb}\n"
    ".n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".over{color:#b00020;font-weight:bold}\n"
    "svg{display:block;max-width:100%;height:auto;margin:4px 0}\n"
    "svg text{font:11px system-ui,'DejaVu Sans','Liberation Sans',Arial,sans-serif;fill:#222}\n"
    "svg text.sub{fill:#666}\n"
    "svg text.atitle{font-weight:bold}\n"
    "svg text.in{fill:#fff}\n"
    "svg text.bk{font-size:10px;fill:#222;stroke:#fff;stroke-width:3px;paint-order:stroke}\n"
    "tr:target{background:#fff3c4}\n"
    "svg text.row{font-size:11px}\n"
    ".axis{stroke:#444;stroke-width:1}\n"
    ".grid{stroke:#e8e8e8;stroke-width:1}\n"
    ".band{fill:#f6f8fa}\n"
    ".down{fill:#e4e4e4}\n"
    ".off{fill:#d2d2d2}\n"
    ".bar{stroke:#fff;stroke-width:0.5}\n"
    ".bar:hover,.cell:hover{stroke:#000;stroke-width:1.5}\n"
    ".lease{fill:#e3e9f0;stroke:#7b8a9c;stroke-width:0.8}\n"
    ".lease:hover{stroke:#000;stroke-width:1.5}\n"
    ".part{fill-opacity:0.45;stroke:#fff;stroke-width:0.5}\n"
    ".bar.moved{stroke:#000;stroke-width:1.5;stroke-dasharray:3 2}\n"
    ".part:hover{stroke:#000;stroke-width:1.5}\n"
    "svg text.ll{font-size:10px;fill:#334}\n"
    ".link path{fill:none;stroke:#222;stroke-width:1.2;stroke-opacity:0.75}\n"
    ".link path.head{fill:#222;stroke:none}\n"
    ".link:hover path{stroke-width:2.5;stroke-opacity:1}\n"
    ".key{stroke:#888;stroke-width:0.5}\n"
    ".dash{stroke-width:2;stroke-dasharray:5 3}\n"
    ".cap{fill:none;stroke:#cf222e;stroke-width:1.5;stroke-dasharray:6 3}\n"
    ".line{fill:none;stroke-width:2}\n"
    ".base{fill:none;stroke:#555;stroke-width:1;stroke-dasharray:4 3}\n"
    ".dot{stroke:#fff;stroke-width:1}\n"
    ".cut{stroke:#fff;stroke-width:3}\n"
    ".hit{fill:#000;fill-opacity:0}\n"
    ".hit:hover{fill-opacity:0.08}\n"
    "details{margin:6px 0}\n"
    "summary{cursor:pointer;color:#0969da}\n";

void cp_html_begin(cp_buf *b, const char *title)
{
    cp_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
                   "<title>");
    cp_svg_esc(b, title);
    cp_buf_puts(b, "</title>\n<style>\n");
    cp_buf_puts(b, page_css);
    cp_buf_puts(b, "</style>\n</head>\n<body>\n");
}

void cp_html_end(cp_buf *b)
{
    cp_buf_puts(b, "</body>\n</html>\n");
}

void cp_html_section(cp_buf *b, const char *id, const char *title)
{
    cp_buf_printf(b, "<section id=\"%s\">\n<h2>", id);
    cp_svg_esc(b, title);
    cp_buf_puts(b, "</h2>\n");
}

void cp_html_section_end(cp_buf *b)
{
    cp_buf_puts(b, "</section>\n");
}
