/*
 * What the exporters share: the list of files they produce, shell
 * quoting, Slurm time limits, wall-clock times from horizon.start, and
 * file-name-safe forms of names.
 */
#include "export_internal.h"

#include "cp_alloc.h"
#include "cp_num.h"
#include "cp_time.h"

#include <math.h>
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
    cp_buf_sh_quote(b, s); /* the one rule, models/base/cp_buf.h */
}

bool cp_export_has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

bool cp_slurm_time(cp_buf *b, double minutes_f)
{
    long minutes;
    /* at least a minute; a minute's billionth of rounding is not one more */
    cp_num_fit fit = cp_num_to_long(ceil(minutes_f - 1e-9), 1, CP_SLURM_MAX_MINUTES, &minutes);
    if (fit == CP_NUM_NAN || fit == CP_NUM_ABOVE)
        return false;
    long d = minutes / 1440, h = minutes / 60 % 24, m = minutes % 60;
    if (d)
        cp_buf_printf(b, "%ld-%02ld:%02ld:00", d, h, m);
    else
        cp_buf_printf(b, "%02ld:%02ld:00", h, m);
    return true;
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

bool cp_xp_put_run(cp_buf *b, const char *what, const char *name, const char *run)
{
    if (run) {
        cp_buf_puts(b, run);
        if (run[0] && run[strlen(run) - 1] != '\n')
            cp_buf_putc(b, '\n');
        return cp_buf_ok(b);
    }
    cp_buf msg;
    cp_buf_init(&msg);
    cp_buf_printf(&msg, "capplan: %s '%s' has no run command: add run: to it in the input", what,
                  name);
    cp_buf_puts(b, "printf '%s\\n' ");
    cp_sh_quote(b, msg.s ? msg.s : "");
    cp_buf_puts(b, " >&2\nexit 1\n");
    bool ok = cp_buf_ok(&msg);
    cp_buf_release(&msg);
    return ok && cp_buf_ok(b);
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

bool cp_xp_parse_start(const char *s, long *secs, bool *utc)
{
    double t;
    if (!cp_time_parse(s, &t, utc))
        return false;
    /* fractions of a second: dropped; the year range of cp_time_parse */
    return cp_num_to_long(floor(t), CP_XP_TIME_MIN, CP_XP_TIME_MAX, secs) == CP_NUM_IN;
}

void cp_xp_put_time(cp_buf *b, long secs)
{
    long days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    long rem = secs - days * 86400;
    long long y;
    int m, d;
    cp_civil_from_days(days, &y, &m, &d);
    cp_buf_printf(b, "%04lld-%02d-%02dT%02ld:%02ld:%02ld", y, m, d, rem / 3600, rem / 60 % 60,
                  rem % 60);
}

bool cp_xp_time_after(long start, double hours, long *secs)
{
    return cp_num_to_long((double)start + round(hours * 3600), CP_XP_TIME_MIN, CP_XP_TIME_MAX,
                          secs) == CP_NUM_IN;
}

void cp_xp_slurm_header(cp_buf *b, const cp_export_opts *o)
{
    cp_buf_puts(b, "# written by capplan export slurm");
    if (o->plan_name && !cp_export_has_control(o->plan_name)) {
        cp_buf_puts(b, " from plan ");
        cp_sh_quote(b, o->plan_name);
    }
    cp_buf_puts(b, "; regenerate rather than edit\n");
}

void cp_xp_slurm_name(cp_buf *b, const char *name)
{
    if (cp_xp_slurm_word(name) && strlen(name) <= 100)
        cp_buf_puts(b, name);
    else
        cp_xp_file_word(b, name, 100);
}
