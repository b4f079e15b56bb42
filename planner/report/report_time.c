/*
 * The report's time axis: hours from the horizon start (SPEC 1.2: slot t
 * covers [t*h, (t+1)*h)), and the wall clock when the inputs give
 * horizon.start. The timestamp is parsed here (ISO-8601 date, optional
 * time and UTC offset) and shifted with civil-calendar arithmetic in the
 * timestamp's own offset, never through the machine's time zone, so the
 * page is the same on every machine.
 */
#include "report_internal.h"

#include "cp_time.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct cp_rp_clock {
    long long minutes; /* minutes since 1970-01-01 00:00 in the stamp's own offset */
    char zone[32];     /* "UTC", "+02:00", or "" (no offset given) */
} cp_rp_clock;

static bool digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

static bool clock_parse(const char *s, cp_rp_clock *c)
{
    int y, mo, d, hh = 0, mi = 0, ss = 0;
    if (!s || strlen(s) < 10 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) ||
        s[7] != '-' || !digits(s + 8, 2, &d) || mo < 1 || mo > 12 || d < 1 || d > 31)
        return false;
    const char *p = s + 10;
    if (*p == 'T' || *p == 't' || *p == ' ') {
        if (!digits(p + 1, 2, &hh) || p[3] != ':' || !digits(p + 4, 2, &mi) || hh > 23 || mi > 59)
            return false;
        p += 6;
        if (*p == ':') {
            if (!digits(p + 1, 2, &ss) || ss > 60)
                return false;
            p += 3;
            if (*p == '.' || *p == ',')
                for (p++; *p >= '0' && *p <= '9'; p++)
                    ;
        }
    }
    c->zone[0] = '\0';
    if (*p == 'Z' || *p == 'z') {
        snprintf(c->zone, sizeof c->zone, "UTC");
        p++;
    } else if (*p == '+' || *p == '-') {
        int oh, om = 0;
        if (!digits(p + 1, 2, &oh) || oh > 23)
            return false;
        const char *q = p + 3;
        if (*q == ':')
            q++;
        if (*q && (!digits(q, 2, &om) || om > 59))
            return false;
        if (*q)
            q += 2;
        snprintf(c->zone, sizeof c->zone, "%c%02d:%02d", *p, oh, om);
        p = q;
    }
    if (*p)
        return false;
    c->minutes = cp_days_from_civil(y, mo, d) * 1440 + hh * 60 + mi;
    return true;
}

static bool clock_of(const cp_rp_plan *p, cp_rp_clock *c)
{
    return p->in && p->in->start && clock_parse(p->in->start, c);
}

/* "MM-DD HH:MM" (with_day) or "HH:MM" at `hours` after the start. */
static void clock_fmt(const cp_rp_clock *c, double hours, bool with_day, char *out, size_t size)
{
    long long m = c->minutes + llround(hours * 60);
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
    long long m = c->minutes + llround(hours * 60);
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
