/* Error values and lists of errors and warnings; see cp_err.h. */
#include "cp_err.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

void cp_err_init(cp_err *err)
{
    memset(err, 0, sizeof *err);
}

cp_pos cp_pos_none(void)
{
    cp_pos p = {NULL, 0, 0};
    return p;
}

static void fill(cp_err *err, int code, cp_severity sev, cp_pos pos, const char *fmt, va_list ap)
{
    err->code = code;
    err->severity = sev;
    err->file[0] = '\0';
    if (pos.file)
        snprintf(err->file, sizeof err->file, "%s", pos.file);
    err->line = pos.line;
    err->col = pos.col;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

int cp_err_set(cp_err *err, int code, cp_pos pos, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, CP_SEV_ERROR, pos, fmt, ap);
    va_end(ap);
    return code;
}

int cp_err_nomem(cp_err *err)
{
    return cp_err_set(err, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}

void cp_fputs_printable(const char *s, bool lines, FILE *out)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && !(lines && (*p == '\n' || *p == '\t'))) || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) /* C1: U+0080..U+009F */
            fprintf(out, "\\u%04x", p[1]), p++;
        else if (p[0] == 0xe2 && p[1] == 0x80 && ((p[2] >= 0xaa && p[2] <= 0xae) || p[2] == 0x8e ||
                                                 p[2] == 0x8f)) /* U+202A..U+202E, U+200E/F */
            fprintf(out, "\\u%04x", 0x2000 + (p[2] - 0x80)), p += 2;
        else if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9) /* U+2066..U+2069 */
            fprintf(out, "\\u%04x", 0x2040 + (p[2] - 0x80)), p += 2;
        else if (p[0] == 0xd8 && p[1] == 0x9c) /* U+061C, the Arabic letter mark */
            fputs("\\u061c", out), p++;
        else
            putc(*p, out);
    }
}

void cp_err_print(const cp_err *err, FILE *out)
{
    if (err->file[0]) {
        cp_fputs_printable(err->file, false, out);
        if (err->line > 0) {
            fprintf(out, ":%d", err->line);
            if (err->col > 0)
                fprintf(out, ":%d", err->col);
        }
        fputs(": ", out);
    }
    fprintf(out, "%s: ", err->severity == CP_SEV_WARNING ? "warning" : "error");
    cp_fputs_printable(err->msg, false, out); /* names in messages are the input's text */
    putc('\n', out);
}

void cp_diags_init(cp_diags *d)
{
    d->n = 0;
    d->n_warnings = 0;
    d->dropped = 0;
    d->warnings_dropped = 0;
    d->worst = CP_OK;
}

bool cp_diags_full(const cp_diags *d)
{
    return d->n - d->n_warnings >= CP_DIAGS_MAX;
}

/* The slot for one more diagnostic of severity sev, or NULL when that
 * severity's cap is reached (then it is counted). */
static cp_err *slot(cp_diags *d, cp_severity sev)
{
    if (sev == CP_SEV_WARNING) {
        if (d->n_warnings >= CP_DIAGS_MAX) {
            d->warnings_dropped++;
            return NULL;
        }
        d->n_warnings++;
    } else if (cp_diags_full(d)) {
        d->dropped++;
        return NULL;
    }
    return &d->items[d->n++];
}

static void record(cp_diags *d, int code, cp_severity sev, cp_pos pos, const char *fmt,
                   va_list ap)
{
    if (sev == CP_SEV_ERROR && d->worst == CP_OK)
        d->worst = code;
    cp_err *e = slot(d, sev);
    if (e)
        fill(e, code, sev, pos, fmt, ap);
}

int cp_diags_add(cp_diags *d, int code, cp_pos pos, const char *fmt, ...)
{
    assert(code != CP_OK); /* a warning goes through cp_diags_warn */
    va_list ap;
    va_start(ap, fmt);
    record(d, code, CP_SEV_ERROR, pos, fmt, ap);
    va_end(ap);
    return code;
}

void cp_diags_warn(cp_diags *d, cp_pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(d, CP_OK, CP_SEV_WARNING, pos, fmt, ap);
    va_end(ap);
}

void cp_diags_add_err(cp_diags *d, const cp_err *err)
{
    if (err->severity == CP_SEV_ERROR && d->worst == CP_OK)
        d->worst = err->code;
    cp_err *e = slot(d, err->severity);
    if (e)
        *e = *err;
}

static void more(FILE *out, int n, const char *what)
{
    if (n)
        fprintf(out, "capplan: %d more %s%s not shown\n", n, what, n == 1 ? "" : "s");
}

/* Whether diagnostic a goes after b: by file (in the order the files
 * first appear in the list), then line, then column; one without a line
 * (a summary such as "3 rows skipped") after its file's positioned ones. */
static bool diag_after(const cp_diags *d, const int *group, int a, int b)
{
    if (group[a] != group[b])
        return group[a] > group[b];
    const cp_err *x = &d->items[a], *y = &d->items[b];
    long lx = x->line > 0 ? x->line : LONG_MAX, ly = y->line > 0 ? y->line : LONG_MAX;
    if (lx != ly)
        return lx > ly;
    return x->col > y->col;
}

void cp_diags_print(const cp_diags *d, FILE *out)
{
    /* in file order, whatever order the checks found them in (a
     * stable insertion sort of indices: printing never allocates) */
    int order[2 * CP_DIAGS_MAX], group[2 * CP_DIAGS_MAX];
    int n = d->n < 2 * CP_DIAGS_MAX ? d->n : 2 * CP_DIAGS_MAX;
    for (int i = 0; i < n; i++) {
        group[i] = i;
        for (int k = 0; k < i; k++)
            if (!strcmp(d->items[k].file, d->items[i].file)) {
                group[i] = group[k];
                break;
            }
        int j = i;
        while (j > 0 && diag_after(d, group, order[j - 1], i)) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int i = 0; i < n; i++)
        cp_err_print(&d->items[order[i]], out);
    more(out, d->dropped, "error");
    more(out, d->warnings_dropped, "warning");
}
