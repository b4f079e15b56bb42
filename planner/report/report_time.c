/*
 * The report's time axis: hours from the horizon start (capplan.5 §1.2: slot t
 * covers [t*h, (t+1)*h)), and the wall clock when the inputs give
 * horizon.start. The timestamp is read by cp_time.h's one parser (ISO-8601
 * date, optional time and UTC offset) and shifted with civil-calendar
 * arithmetic in the timestamp's own offset, never through the machine's
 * time zone, so the page is the same on every machine.
 */
#include "report_internal.h"

#include "cp_time.h"
#include "cp_num.h"

#include <limits.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* minutes a clock may move: 1.9 million years, within a long */
#define CLOCK_SPAN 1000000000000L

typedef struct cp_rp_clock {
    long long minutes; /* minutes since 1970-01-01 00:00 in the stamp's own offset */
    char zone[32];     /* "UTC", "+02:00", or "" (no offset given) */
} cp_rp_clock;

/* The one timestamp reader (cp_time.h), which the loader has already
 * applied to horizon.start; the wall clock is shown in the stamp's own
 * offset, seconds dropped. */
static bool clock_parse(const char *s, cp_rp_clock *c)
{
    double secs;
    cp_time_zone zone;
    int off;
    if (!s || !cp_time_parse_zone(s, &secs, &zone, &off))
        return false;
    c->minutes = cp_num_clamp_long(floor(secs / 60), -1000000000000L, 1000000000000L) + off;
    if (zone == CP_TZ_Z)
        snprintf(c->zone, sizeof c->zone, "UTC");
    else if (zone == CP_TZ_OFFSET)
        snprintf(c->zone, sizeof c->zone, "%c%02d:%02d", off < 0 ? '-' : '+', abs(off) / 60,
                 abs(off) % 60);
    else
        c->zone[0] = '\0';
    return true;
}

static bool clock_of(const cp_rp_plan *p, cp_rp_clock *c)
{
    return p->in && p->in->start && clock_parse(p->in->start, c);
}

/* "MM-DD HH:MM" (with_day) or "HH:MM" at `hours` after the start. */
static void clock_fmt(const cp_rp_clock *c, double hours, bool with_day, char *out, size_t size)
{
    long long m = c->minutes + cp_num_clamp_long(round(hours * 60), -CLOCK_SPAN, CLOCK_SPAN);
    long long day = m >= 0 ? m / 1440 : -((-m + 1439) / 1440);
    long long mod = m - day * 1440;
    long long y;
    int mo, d;
    cp_civil_from_days(day, &y, &mo, &d);
    if (with_day)
        snprintf(out, size, "%02d-%02d %02lld:%02lld", mo, d, mod / 60, mod % 60);
    else
        snprintf(out, size, "%02lld:%02lld", mod / 60, mod % 60);
}

static long long day_of(const cp_rp_clock *c, double hours)
{
    long long m = c->minutes + cp_num_clamp_long(round(hours * 60), -CLOCK_SPAN, CLOCK_SPAN);
    return m >= 0 ? m / 1440 : -((-m + 1439) / 1440);
}

void cp_rp_time_axis(const cp_rp_plan *p, cp_scale *sx, cp_ticks *t, char *title, size_t size)
{
    double end = p->T * p->h;
    sx->d0 = 0;
    sx->d1 = end;
    sx->r0 = RP_LEFT;
    sx->r1 = RP_WIDTH - RP_RIGHT;
    cp_rp_clock c;
    bool wall = clock_of(p, &c);
    cp_ticks_nice(t, 0, end, wall ? 12 : 16, true);
    snprintf(title, size, "hours from the horizon start%s", p->h_from && !strcmp(p->h_from, "assumed") ? " (1 h slots assumed)" : "");
    if (!wall)
        return;
    long long prev = 0;
    for (int i = 0; i < t->n; i++) {
        long long day = day_of(&c, t->v[i]);
        clock_fmt(&c, t->v[i], i == 0 || day != prev, t->label2[i], CP_TICK_LABEL);
        prev = day;
    }
    snprintf(title, size, "hours from the horizon start; below: wall clock%s%s",
             c.zone[0] ? " " : "", c.zone);
}

void cp_rp_time_span(const cp_rp_plan *p, double h0, double h1, char *out, size_t size)
{
    char a[48], b[48];
    cp_svg_qty(a, sizeof a, h0);
    cp_svg_qty(b, sizeof b, h1);
    cp_rp_clock c;
    if (!clock_of(p, &c)) {
        snprintf(out, size, "hours %s\xE2\x80\x93%s", a, b);
        return;
    }
    char w0[32], w1[32];
    clock_fmt(&c, h0, true, w0, sizeof w0);
    clock_fmt(&c, h1, day_of(&c, h0) != day_of(&c, h1), w1, sizeof w1);
    snprintf(out, size, "hours %s\xE2\x80\x93%s (%s\xE2\x80\x93%s%s%s)", a, b, w0, w1,
             c.zone[0] ? " " : "", c.zone);
}

bool cp_rp_clock_describe(const cp_rp_plan *p, char *out, size_t size)
{
    if (!p->in || !p->in->start)
        return false;
    cp_rp_clock c;
    if (clock_parse(p->in->start, &c))
        snprintf(out, size, "slot 0 starts at %s", p->in->start);
    else
        snprintf(out, size, "horizon.start '%s' is not an ISO-8601 time: hours only", p->in->start);
    return true;
}
