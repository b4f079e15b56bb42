/* Growable string buffer; see cp_buf.h. */
#include "cp_buf.h"

#include "cp_alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char empty[1];

void cp_buf_init(cp_buf *b)
{
    b->s = empty;
    b->len = b->cap = 0;
    b->oom = false;
}

void cp_buf_release(cp_buf *b)
{
    if (b->cap)
        cp_free(b->s);
    cp_buf_init(b);
}

void cp_buf_reset(cp_buf *b)
{
    b->len = 0;
    if (b->cap)
        b->s[0] = '\0';
}

static bool reserve(cp_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t nc = b->cap ? b->cap : 64;
    while (nc < b->len + extra + 1)
        nc *= 2;
    char *p = cp_reallocarray(b->cap ? b->s : NULL, nc, 1);
    if (!p) {
        b->oom = true;
        return false;
    }
    if (!b->cap)
        p[0] = '\0';
    b->s = p;
    b->cap = nc;
    return true;
}

void cp_buf_add(cp_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void cp_buf_puts(cp_buf *b, const char *s)
{
    cp_buf_add(b, s, strlen(s));
}

void cp_buf_putc(cp_buf *b, char c)
{
    cp_buf_add(b, &c, 1);
}

void cp_buf_printf(cp_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

double cp_num_fig(double v)
{
    if (!isfinite(v) || (v == floor(v) && fabs(v) < 1e15))
        return v;
    /* DBL_DIG (15): every decimal of 15 significant digits survives a
     * trip through a double, so the rounded figure prints in at most 15
     * and rounding it again changes nothing. */
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.15g", v);
    double r = strtod(tmp, NULL);
    return isfinite(r) ? r : v; /* 1.7976931348623157e308 rounds up past DBL_MAX */
}

void cp_fmt_num_exact(char *out, size_t size, double v)
{
    if (isnan(v)) {
        snprintf(out, size, ".nan");
        return;
    }
    if (isinf(v)) {
        snprintf(out, size, v > 0 ? ".inf" : "-.inf");
        return;
    }
    if (v == 0) { /* also folds -0 */
        snprintf(out, size, "0");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(out, size, "%.0f", v);
        return;
    }
    /* Shortest precision that round-trips; the C locale is assumed (the
     * CLI never calls setlocale), so the decimal point is '.'. */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, size, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
}

void cp_fmt_num(char *out, size_t size, double v)
{
    cp_fmt_num_exact(out, size, cp_num_fig(v));
}

void cp_buf_sh_quote(cp_buf *b, const char *s)
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

void cp_buf_sh_word(cp_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (n && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=+,@%-") == n)
        cp_buf_puts(b, s);
    else
        cp_buf_sh_quote(b, s);
}

void cp_buf_num(cp_buf *b, double v)
{
    char tmp[40];
    cp_fmt_num(tmp, sizeof tmp, v);
    cp_buf_puts(b, tmp);
}

void cp_buf_num_exact(cp_buf *b, double v)
{
    char tmp[40];
    cp_fmt_num_exact(tmp, sizeof tmp, v);
    cp_buf_puts(b, tmp);
}

bool cp_buf_ok(const cp_buf *b)
{
    return !b->oom;
}

char *cp_buf_detach(cp_buf *b)
{
    char *s;
    if (b->oom) {
        s = NULL;
    } else if (b->cap) {
        s = b->s;
    } else {
        s = cp_strdup("");
    }
    if (b->oom && b->cap)
        cp_free(b->s);
    cp_buf_init(b);
    return s;
}
