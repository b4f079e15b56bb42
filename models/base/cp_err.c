/* Error values and error lists; see cp_err.h. */
#include "cp_err.h"

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

static void fill(cp_err *err, int code, cp_pos pos, const char *fmt, va_list ap)
{
    err->code = code;
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
    fill(err, code, pos, fmt, ap);
    va_end(ap);
    return code;
}

int cp_err_nomem(cp_err *err)
{
    return cp_err_set(err, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
}

void cp_err_print(const cp_err *err, FILE *out)
{
    if (err->file[0]) {
        fputs(err->file, out);
        if (err->line > 0) {
            fprintf(out, ":%d", err->line);
            if (err->col > 0)
                fprintf(out, ":%d", err->col);
        }
        fputs(": ", out);
    }
    fprintf(out, "error: %s\n", err->msg);
}

void cp_diags_init(cp_diags *d)
{
    d->n = 0;
    d->dropped = 0;
    d->worst = CP_OK;
}

bool cp_diags_full(const cp_diags *d)
{
    return d->n >= CP_DIAGS_MAX;
}

int cp_diags_add(cp_diags *d, int code, cp_pos pos, const char *fmt, ...)
{
    if (d->worst == CP_OK)
        d->worst = code;
    if (d->n >= CP_DIAGS_MAX) {
        d->dropped++;
        return code;
    }
    va_list ap;
    va_start(ap, fmt);
    fill(&d->items[d->n++], code, pos, fmt, ap);
    va_end(ap);
    return code;
}

void cp_diags_add_err(cp_diags *d, const cp_err *err)
{
    if (d->worst == CP_OK)
        d->worst = err->code;
    if (d->n >= CP_DIAGS_MAX) {
        d->dropped++;
        return;
    }
    d->items[d->n++] = *err;
}

void cp_diags_print(const cp_diags *d, FILE *out)
{
    for (int i = 0; i < d->n; i++)
        cp_err_print(&d->items[i], out);
    if (d->dropped)
        fprintf(out, "capplan: %d more errors not shown\n", d->dropped);
}
