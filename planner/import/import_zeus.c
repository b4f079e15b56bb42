/*
 * Zeus's power-limit measurements -> a training job's `power_limits`
 * (capplan.5 §10.3).
 *
 * Zeus (You, Chung, Chowdhury, NSDI'23) measured, per GPU type, workload,
 * batch size and optimizer, the epoch time and the average GPU power
 * under each board power limit (summary_power_<gpu>.csv: dataset,
 * network, batch_size, optimizer, power_limit, time_per_epoch,
 * average_power). For one (network, batch size) this writes, per limit,
 *
 *   speed   = the epoch time under the highest measured limit (the
 *             board's default, which the job's throughput is taken at)
 *             / the epoch time under this one, at most 1 (a lower limit
 *             measured a little faster is read as no slower);
 *   power_w = its average power, at most the limit;
 *
 * keeping only the limits that no other measured limit beats on both time
 * and energy per epoch (time x average power): the Pareto front, since a
 * dominated limit is never worth choosing. The highest measured limit is
 * not written: it is the board's default, the job's run without a limit
 * (speed 1 by definition), whose draw is the accelerator's power_w; the
 * comment gives its average power for that. The accelerator is named from
 * the file name (summary_power_v100.csv: v100) through the accelerator
 * table, or by --accelerator. The output is a `power_limits:` mapping to
 * put into the job (a job is defined once, so it cannot be a fragment of
 * its own).
 */
#include "cp_import.h"
#include "cp_imp_accel.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ZEUS_MAX_LIMITS 64

void cp_import_zeus_opts_init(cp_import_zeus_opts *o)
{
    memset(o, 0, sizeof *o);
}

typedef struct zrow {
    double limit, time, power;
    cp_pos pos;
    bool kept;
} zrow;

/* "summary_power_v100.csv" -> "v100" (into buf); NULL when the name has
 * no such part. */
static const char *gpu_of_file(const char *path, char *buf, size_t size)
{
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    const char *p = strstr(s, "summary_power_");
    if (!p)
        return NULL;
    p += strlen("summary_power_");
    size_t n = strcspn(p, "._");
    if (!n || n >= size)
        return NULL;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

/* The rows of the wanted (dataset, network, batch size, optimizer); the
 * optimizer must be one when --optimizer is not given. */
static int select_rows(const cp_csv *csv, const int *col, const cp_import_zeus_opts *o, zrow *rows,
                       int *n, cp_diags *d)
{
    const char *opt = o->optimizer;
    *n = 0;
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double bs, lim, t, w;
        if (strcmp(cp_csv_get(r, col[1]), o->network) ||
            (o->dataset && strcmp(cp_csv_get(r, col[0]), o->dataset)) ||
            !cp_csv_number(cp_csv_get(r, col[2]), &bs) || bs != o->batch_size)
            continue;
        const char *ro = cp_csv_get(r, col[3]);
        if (!opt)
            opt = ro;
        if (strcmp(ro, opt)) {
            if (o->optimizer)
                continue;
            return cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, col[3]),
                                "more than one optimizer was measured for %s at batch size %g "
                                "('%s' and '%s'): choose one with --optimizer",
                                o->network, o->batch_size, opt, ro);
        }
        if (!cp_csv_number(cp_csv_get(r, col[4]), &lim) || !(lim > 0) ||
            !cp_csv_number(cp_csv_get(r, col[5]), &t) || !(t > 0) ||
            !cp_csv_number(cp_csv_get(r, col[6]), &w) || !(w > 0)) {
            cp_diags_warn(d, cp_csv_pos(csv, r), "unreadable measurement: left out");
            continue;
        }
        if (*n == ZEUS_MAX_LIMITS)
            return cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, r),
                                "more than %d measurements of one workload", ZEUS_MAX_LIMITS);
        for (int k = 0; k < *n; k++)
            if (rows[k].limit == lim)
                return cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, col[4]),
                                    "power limit %g W is measured twice (first at line %d)", lim,
                                    rows[k].pos.line);
        rows[*n] = (zrow){lim, t, w, cp_csv_pos(csv, r), false};
        (*n)++;
    }
    if (*n == 0)
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "no measurement of network '%s' at batch size %g%s%s%s%s", o->network,
                            o->batch_size, o->dataset ? " on dataset '" : "",
                            o->dataset ? o->dataset : "", o->dataset ? "'" : "",
                            o->optimizer ? " with that optimizer" : "");
    return CP_OK;
}

static int by_limit_desc(const void *a, const void *b)
{
    const zrow *x = a, *y = b;
    return (x->limit < y->limit) - (x->limit > y->limit);
}

/* Marks the rows no other row beats on both time and energy per epoch. */
static int pareto(zrow *rows, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        double ei = rows[i].time * rows[i].power;
        rows[i].kept = true;
        for (int k = 0; k < n && rows[i].kept; k++) {
            double ek = rows[k].time * rows[k].power;
            if (k != i && rows[k].time <= rows[i].time && ek <= ei &&
                (rows[k].time < rows[i].time || ek < ei))
                rows[i].kept = false;
        }
        kept += rows[i].kept;
    }
    return kept;
}

static void put_limits(cp_buf *b, const cp_import_zeus_opts *o, const char *acc,
                       const char *path, zrow *rows, int n, int kept)
{
    char t1[40], t2[40], t3[40];
    cp_buf cmd;
    cp_buf_init(&cmd);
    cp_buf_puts(&cmd, "capplan import zeus");
    char bs[40];
    cp_yaml_fmt_num(bs, sizeof bs, o->batch_size);
    import_cmd_arg(&cmd, "--network", o->network);
    import_cmd_arg(&cmd, "--batch-size", bs);
    import_cmd_arg(&cmd, "--dataset", o->dataset);
    import_cmd_arg(&cmd, "--optimizer", o->optimizer);
    import_cmd_arg(&cmd, "--accelerator", o->accelerator);
    import_cmd_arg(&cmd, "--accel-table", o->accel_table);
    import_cmd_arg(&cmd, NULL, path);
    cp_yaml_put_comment(b, cmd.s);
    cp_buf_release(&cmd);
    cp_buf_printf(b, "# Zeus (NSDI'23) on %s: %d power limits measured, %d kept (no other limit\n"
                     "# is both faster and uses less energy per epoch). limit W: s/epoch, W, kJ/epoch\n",
                  acc, n, kept);
    for (int i = 0; i < n; i++)
        cp_buf_printf(b, "#   %g: %.5g s, %.4g W, %.4g kJ%s\n", rows[i].limit, rows[i].time,
                      rows[i].power, rows[i].time * rows[i].power / 1000,
                      rows[i].kept ? "" : " (dominated)");
    int below = kept - rows[0].kept; /* kept limits below the default */
    if (below == 0) {
        cp_buf_printf(b, "# %g W is the board's default, and no lower limit saves energy without "
                         "costing\n# more time than another: nothing to write.\n",
                      rows[0].limit);
        return;
    }
    cp_buf_printf(b, "# %g W is the board's default: the run without a limit (speed 1), drawing the\n"
                     "# accelerator's power_w (%.4g W measured). Put this into the training job\n"
                     "# (capplan.5 §10.3):\npower_limits:\n  ",
                  rows[0].limit, rows[0].power);
    cp_yaml_put_str(b, acc);
    cp_buf_puts(b, ":\n");
    double ref = rows[0].time; /* the highest measured limit: the board's default */
    for (int i = 1; i < n; i++) {
        if (!rows[i].kept)
            continue;
        double speed = fmin(1, ref / rows[i].time), w = fmin(rows[i].power, rows[i].limit);
        cp_yaml_fmt_num(t1, sizeof t1, rows[i].limit);
        cp_yaml_fmt_num(t2, sizeof t2, speed);
        cp_yaml_fmt_num(t3, sizeof t3, w);
        cp_buf_printf(b, "    - {limit_w: %s, speed: %s, power_w: %s}\n", t1, t2, t3);
    }
}

int cp_import_zeus(const char *path, const cp_import_zeus_opts *o, cp_buf *out, cp_diags *d)
{
    cp_csv *csv = NULL;
    cp_imp_accel_table *tab = NULL;
    cp_buf b;
    cp_buf_init(&b);
    zrow rows[ZEUS_MAX_LIMITS];
    int rc, n = 0;
    if (!o->network || !(o->batch_size > 0))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "give the workload: --network NAME --batch-size N");
    char spelled[64];
    const char *gpu = o->accelerator ? o->accelerator : gpu_of_file(path, spelled, sizeof spelled);
    if (!gpu)
        return cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                            "the file's name gives no GPU type (summary_power_GPU.csv): name it "
                            "with --accelerator");
    if ((rc = cp_imp_accel_table_load(o->accel_table, &tab, d)) != CP_OK)
        goto out;
    int mism = 0;
    const cp_imp_accel *acc = cp_imp_accel_find(tab, gpu, 0, &mism);
    if (!acc) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                          "GPU '%s' is not in the accelerator table (add it with --accel-table)",
                          gpu);
        goto out;
    }
    if ((rc = import_csv_read(path, &csv, d)) != CP_OK)
        goto out;
    static const char *const names[] = {"dataset",       "network",        "batch_size",
                                        "optimizer",     "power_limit",    "time_per_epoch",
                                        "average_power"};
    int col[7];
    for (int i = 0; i < 7; i++)
        if ((col[i] = cp_csv_col(csv, names[i])) < 0)
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head), "missing column '%s'",
                              names[i]);
    if (rc != CP_OK || (rc = select_rows(csv, col, o, rows, &n, d)) != CP_OK)
        goto out;
    qsort(rows, (size_t)n, sizeof *rows, by_limit_desc);
    if (acc->power_w > 0 && rows[0].limit > acc->power_w)
        cp_diags_warn(d, rows[0].pos,
                      "power limit %g W is above %s's power_w of %g W: capplan refuses such a "
                      "limit_w unless the accelerator's power_w is raised",
                      rows[0].limit, acc->name, acc->power_w);
    put_limits(&b, o, acc->name, path, rows, n, pareto(rows, n));
    rc = import_deliver(&b, out, d);
out:
    cp_buf_release(&b);
    cp_csv_free(csv);
    cp_imp_accel_table_free(tab);
    return rc;
}
