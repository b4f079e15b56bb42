/*
 * C3O runtime measurements -> the samples CSV of `fit dataflow`.
 *
 * C3O's TSV files have one row per run: instance_count, machine_type,
 * data_size_MB, gross_runtime (seconds), among other columns found by
 * name. Each run becomes one row job,type,machines,input_gb,seconds, with
 * MB turned into decimal GB like the rest of capplan's units, followed by
 * the job's parameter columns (every column but the six common ones:
 * grep's p_occurrence, kmeans' k, ...) as they are, for `fit dataflow
 * --params` (plain `fit dataflow` ignores extra columns). A run that
 * cannot be read fails the import (a fit on silently fewer runs would
 * look better than it is); every such run is reported.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_yaml_put.h"

#include <string.h>
#include <strings.h>

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
    /* the samples' job column: `fit dataflow` reads UTF-8 only, and
     * needs a name (a file named ".tsv" has none) */
    if (!*job || !cp_utf8_ok((const unsigned char *)job, strlen(job))) {
        rc = o->job ? cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                                   "--job: the name must be non-empty UTF-8")
                    : cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                                   "the file's name gives no UTF-8 job name: name it with --job");
        goto out;
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
    /* Parameter columns: what is not a cluster column (slots and memory
     * follow from machine_type and instance_count). */
    static const char *const common[] = {"instance_count", "machine_type", "slots", "memory",
                                         "data_size_MB", "gross_runtime"};
    int pcol[64], np = 0;
    for (int h = 0; h < csv->head.n && np < 64; h++) {
        int k = 0;
        while (k < 6 && strcasecmp(csv->head.f[h], common[k]))
            k++;
        if (k == 6 && *csv->head.f[h])
            pcol[np++] = h;
    }
    cp_buf_puts(&b, "job,type,machines,input_gb,seconds");
    for (int k = 0; k < np; k++) {
        cp_buf_putc(&b, ',');
        cp_csv_put_field(&b, csv->head.f[pcol[k]]);
    }
    cp_buf_putc(&b, '\n');
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
        int bad = -1;
        for (int k = 0; k < np && bad < 0; k++) {
            double v;
            if (!cp_csv_number(cp_csv_get(r, pcol[k]), &v))
                bad = k;
        }
        if (bad >= 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, r), "unreadable run: %s '%s'",
                              csv->head.f[pcol[bad]], cp_csv_get(r, pcol[bad]));
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
        cp_buf_printf(&b, "%s", t);
        for (int k = 0; k < np; k++) { /* as measured: 1e-4 stays 1e-4 */
            cp_buf_putc(&b, ',');
            cp_csv_put_field(&b, cp_csv_get(r, pcol[k]));
        }
        cp_buf_putc(&b, '\n');
    }
    if (rc == CP_OK)
        rc = import_deliver(&b, out, d);
out:
    cp_buf_release(&b);
    cp_csv_free(csv);
    cp_free(base);
    return rc;
}
