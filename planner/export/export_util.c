/*
 * What the exporters share: the list of files they produce, shell
 * quoting, Slurm time limits, wall-clock times from horizon.start, and
 * file-name-safe forms of names.
 */
#include "export_internal.h"

#include "cp_alloc.h"

#include <stdio.h>
#include <string.h>

void cp_export_init(cp_export *x)
{
    memset(x, 0, sizeof *x);
}

void cp_export_release(cp_export *x)
{
    for (int i = 0; i < x->n; i++) {
        cp_free(x->files[i].name);
        cp_buf_release(&x->files[i].text);
    }
    cp_free(x->files);
    cp_export_init(x);
}

void cp_export_opts_init(cp_export_opts *o)
{
    memset(o, 0, sizeof *o);
}

cp_export_file *cp_export_add(cp_export *x, const char *name, bool executable)
{
    if (x->n == x->cap) {
        int cap = x->cap ? 2 * x->cap : 16;
        cp_export_file *f = cp_reallocarray(x->files, (size_t)cap, sizeof *f);
        if (!f)
            return NULL;
        x->files = f;
        x->cap = cap;
    }
    cp_export_file *f = &x->files[x->n];
    memset(f, 0, sizeof *f);
    if (!(f->name = cp_strdup(name)))
        return NULL;
    cp_buf_init(&f->text);
    f->executable = executable;
    x->n++;
    return f;
}

void cp_sh_quote(cp_buf *b, const char *s)
{
    cp_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            cp_buf_puts(b, "'\\''");
        else
            cp_buf_putc(b, *s);
    }
    cp_buf_putc(b, '\'');
}

bool cp_export_has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

void cp_slurm_time(cp_buf *b, long minutes)
{
    long d = minutes / 1440, h = minutes / 60 % 24, m = minutes % 60;
    if (d)
        cp_buf_printf(b, "%ld-%02ld:%02ld:00", d, h, m);
    else
        cp_buf_printf(b, "%02ld:%02ld:00", h, m);
}

bool cp_xp_name_ok(cp_diags *d, cp_pos pos, const char *what, const char *s)
{
    if (!cp_export_has_control(s))
        return true;
    cp_diags_add(d, CP_ERR_INPUT, pos,
                 "%s name contains a control character (such as a newline); it cannot be "
                 "written into a script safely: rename it",
                 what);
    return false;
}

bool cp_xp_slurm_word(const char *s)
{
    if (!*s || *s == '-')
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

void cp_xp_file_word(cp_buf *b, const char *s, size_t max)
{
    size_t n = 0;
    for (; *s && n < max; s++, n++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
        cp_buf_putc(b, ok && !(n == 0 && c == '.') ? c : '_');
    }
}

/* Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
 * days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(long z, long *y, long *m, long *d)
{
    z += 719468;
    long era = (z >= 0 ? z : z - 146096) / 146097;
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp + (mp < 10 ? 3 : -9);
    *y = yoe + era * 400 + (*m <= 2);
}

bool cp_xp_parse_start(const char *s, long *secs, bool *utc)
{
    long y, mo, d, h = 0, mi = 0, se = 0;
    int n = 0;
    if (sscanf(s, "%4ld-%2ld-%2ld%n", &y, &mo, &d, &n) != 3 || n != 10)
        return false;
    const char *p = s + n;
    if (*p == 'T' || *p == ' ') {
        int k = 0;
        if (sscanf(p + 1, "%2ld:%2ld%n", &h, &mi, &k) != 2 || k != 5)
            return false;
        p += 1 + k;
        if (*p == ':') {
            if (sscanf(p + 1, "%2ld%n", &se, &k) != 1 || k != 2)
                return false;
            p += 3;
            if (*p == '.') /* fractions of a second: dropped */
                for (p++; *p >= '0' && *p <= '9'; p++)
                    ;
        }
    }
    long off = 0;
    *utc = false;
    if (*p == 'Z') {
        *utc = true;
        p++;
    } else if (*p == '+' || *p == '-') {
        long oh, om;
        int k = 0;
        if (sscanf(p + 1, "%2ld:%2ld%n", &oh, &om, &k) != 2 || k != 5)
            return false;
        off = (oh * 60 + om) * 60 * (*p == '-' ? -1 : 1);
        *utc = true;
        p += 1 + k;
    }
    if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return false;
    *secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - off;
    return true;
}

void cp_xp_put_time(cp_buf *b, long secs)
{
    long days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    long rem = secs - days * 86400, y, m, d;
    civil_from_days(days, &y, &m, &d);
    cp_buf_printf(b, "%04ld-%02ld-%02ldT%02ld:%02ld:%02ld", y, m, d, rem / 3600, rem / 60 % 60,
                  rem % 60);
}
