/*
 * C3O runtime measurements -> the samples CSV of `fit dataflow`.
 *
 * C3O's TSV files have one row per run: instance_count, machine_type,
 * data_size_MB, gross_runtime (seconds), among other columns found by
 * name. Each run becomes one row job,type,machines,input_gb,seconds, with
 * MB turned into decimal GB like the rest of capplan's units. A run that
 * cannot be read fails the import (a fit on silently fewer runs would
 * look better than it is); every such run is reported.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_yaml_put.h"

#include <string.h>

void cp_import_c3o_opts_init(cp_import_c3o_opts *o)
{
    o->job = NULL;
}

int cp_import_c3o(const char *path, const cp_import_c3o_opts *o, cp_buf *out, cp_diags *d)
{
    int rc;
    cp_err err;
    cp_err_init(&err);
    cp_csv *csv = NULL;
    char *base = NULL;
    const char *job = o->job;
    cp_buf b;
    cp_buf_init(&b);
    if ((rc = cp_csv_read(path, '\t', &csv, &err)) != CP_OK) {
        cp_diags_add_err(d, &err);
        goto out;
    }
    if (!job) { /* "/x/sort.tsv" -> "sort" */
        const char *s = strrchr(path, '/');
        s = s ? s + 1 : path;
        const char *dot = strchr(s, '.');
        base = cp_strndup(s, dot ? (size_t)(dot - s) : strlen(s));
        if (!base) {
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
            goto out;
        }
        job = base;
    }
    static const char *const names[] = {"instance_count", "machine_type", "data_size_MB",
                                        "gross_runtime"};
    int col[4];
    for (int i = 0; i < 4; i++)
        if ((col[i] = cp_csv_col(csv, names[i])) < 0)
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head), "missing column '%s'",
                              names[i]);
    if (rc != CP_OK)
        goto out;
    cp_buf_puts(&b, "job,type,machines,input_gb,seconds\n");
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double m, mb, sec;
        const char *type = cp_csv_get(r, col[1]);
        if (!cp_csv_number(cp_csv_get(r, col[0]), &m) || !(m > 0) ||
            !cp_csv_number(cp_csv_get(r, col[2]), &mb) || !(mb >= 0) ||
            !cp_csv_number(cp_csv_get(r, col[3]), &sec) || !(sec > 0) || !*type ||
            strpbrk(type, ",\"\n")) {
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, r), "unreadable run");
            continue;
        }
        char t[40];
        cp_csv_put_field(&b, job); /* the job may hold a comma: 'my,sort.tsv' */
        cp_buf_putc(&b, ',');
        cp_csv_put_field(&b, type);
        cp_buf_putc(&b, ',');
        cp_yaml_fmt_num(t, sizeof t, m);
        cp_buf_printf(&b, "%s,", t);
        cp_yaml_fmt_num(t, sizeof t, mb / 1000);
        cp_buf_printf(&b, "%s,", t);
        cp_yaml_fmt_num(t, sizeof t, sec);
        cp_buf_printf(&b, "%s\n", t);
    }
    if (rc == CP_OK)
        rc = import_deliver(&b, out, d);
out:
    cp_buf_release(&b);
    cp_csv_free(csv);
    cp_free(base);
    return rc;
}
