/* Shared by the importers (import_*.c); see cp_import.h. */
#ifndef CP_IMPORT_INTERNAL_H
#define CP_IMPORT_INTERNAL_H

#include "cp_buf.h"
#include "cp_csv.h"
#include "cp_err.h"

#include <string.h>

/* The position of field `field` of a CSV row: FILE:LINE:COLUMN, where
 * the field starts as written (cp_csv_field_pos); the row's line alone
 * for a field the row does not have. */
static inline cp_pos import_field_pos(const cp_csv *csv, const cp_csv_row *r, int field)
{
    return cp_csv_field_pos(csv, r, field);
}

/* Reads the CSV file at path (cp_csv_read, ','): CP_OK and *out, or the
 * error (at the file, or its line and column) added to d. */
static inline int import_csv_read(const char *path, cp_csv **out, cp_diags *d)
{
    cp_err err;
    cp_err_init(&err);
    int rc = cp_csv_read(path, ',', out, &err);
    if (rc != CP_OK)
        cp_diags_add_err(d, &err);
    return rc;
}

/* Hands the finished text b to the caller's out, whose old text is
 * released (cp_import.h: out changes only on success); b is left empty.
 * When an append to b failed, out is untouched and the failure is
 * reported in d: returns CP_ERR_NOMEM. */
static inline int import_deliver(cp_buf *b, cp_buf *out, cp_diags *d)
{
    if (!cp_buf_ok(b))
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf_release(out);
    *out = *b;
    cp_buf_init(b);
    return CP_OK;
}

/* Appends " FLAG VALUE" to the command line c that a fragment's first
 * comment gives (FLAG NULL: the value alone), the value as one shell
 * word, so a file named '$(id).csv' does not run when the line is pasted;
 * nothing when value is NULL. */
static inline void import_cmd_arg(cp_buf *c, const char *flag, const char *value)
{
    if (!value)
        return;
    cp_buf_putc(c, ' ');
    if (flag) {
        cp_buf_puts(c, flag);
        cp_buf_putc(c, ' ');
    }
    cp_buf_sh_word(c, value);
}

#endif
