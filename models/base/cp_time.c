/* Timestamps and the calendar; see cp_time.h. */
#include "cp_time.h"

#include <stddef.h>

long long cp_days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void cp_civil_from_days(long long z, long long *y, int *m, int *d)
{
    z += 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp + (mp < 10 ? 3 : -9));
    *y = yoe + era * 400 + (*m <= 2);
}

/* n decimal digits at s (no sign, no blank: sscanf's %2d took "-1" and
 * " 1"), or -1. */
static int digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

bool cp_time_parse(const char *s, double *secs, bool *zoned)
{
    cp_time_zone zone;
    if (!cp_time_parse_zone(s, secs, &zone, NULL))
        return false;
    if (zoned)
        *zoned = zone != CP_TZ_NONE;
    return true;
}

bool cp_time_parse_zone(const char *s, double *secs, cp_time_zone *zone, int *offset_minutes)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    while (*s == ' ')
        s++;
    /* each field is read only once the text before it matched, so no
     * byte past a short string's end is read */
    int y = digits(s, 4), mo = y < 0 || s[4] != '-' ? -1 : digits(s + 5, 2);
    int d = mo < 1 || mo > 12 || s[7] != '-' ? -1 : digits(s + 8, 2);
    if (d < 1 || d > mdays[mo - 1] ||
        (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
        return false;
    s += 10;
    int h = 0, mi = 0;
    double sec = 0;
    if ((*s == ' ' || *s == 'T') && s[1] >= '0' && s[1] <= '9') {
        h = digits(s + 1, 2);
        mi = h < 0 || h > 23 || s[3] != ':' ? -1 : digits(s + 4, 2);
        if (mi < 0 || mi > 59)
            return false;
        s += 6;
        if (*s == ':') {
            int whole = digits(s + 1, 2);
            if (whole < 0 || whole > 60)
                return false;
            sec = whole;
            s += 3;
            if (*s == '.') {
                double f = 0.1;
                if (*++s < '0' || *s > '9')
                    return false;
                for (; *s >= '0' && *s <= '9'; s++, f /= 10)
                    sec += (*s - '0') * f;
            }
        }
    } else if (*s == 'T') {
        return false;
    }
    int off = 0; /* minutes east of UTC */
    cp_time_zone z = CP_TZ_NONE;
    if (*s == 'Z') {
        s++;
        z = CP_TZ_Z;
    } else if (*s == '+' || *s == '-') {
        int oh = digits(s + 1, 2), om = oh < 0 || oh > 23 || s[3] != ':' ? -1 : digits(s + 4, 2);
        if (om < 0 || om > 59)
            return false;
        off = (*s == '+' ? 1 : -1) * (oh * 60 + om);
        s += 6;
        z = CP_TZ_OFFSET;
    }
    while (*s == ' ')
        s++;
    if (*s)
        return false;
    *secs = (double)cp_days_from_civil(y, mo, d) * 86400 + h * 3600.0 + mi * 60.0 + sec - off * 60.0;
    if (zone)
        *zone = z;
    if (offset_minutes)
        *offset_minutes = off;
    return true;
}
