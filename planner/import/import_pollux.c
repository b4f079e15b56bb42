/*
 * Pollux's step-time measurements -> a training job's throughput per GPU
 * count, and Philly's jobs -> jobs with their work (`capplan import
 * pollux`; cp_import.h).
 *
 * Pollux (Qiao et al., OSDI 2021) measured each application's step time
 * on AWS g4dn.12xlarge nodes (4 NVIDIA T4 each) for many placements and
 * per-GPU batch sizes: placements.csv (placement, local_bsz, step_time;
 * a placement "1244" is 4 nodes with 1, 2, 4 and 4 GPUs) and
 * scalability.csv (num_nodes, num_replicas, local_bsz, step_time; from 6
 * GPUs up, so it has no one-GPU throughput and is refused alone). The
 * throughput is local_bsz x GPUs / step_time samples/s. One batch size is
 * used (--local-bsz, default the one measured at the most GPU counts,
 * the larger on a tie: larger batches are what a job on many GPUs runs),
 * and per GPU count the best placement (the most samples/s: Pollux's
 * scheduler packs a job's GPUs). The job gets the
 * one-GPU throughput and a speedup table S(k) = thr(k) / thr(1) for the
 * counts 1, 2, 4, 8, 16, ... that were measured (--all-counts: every
 * measured count); the accelerator is T4 (--accelerator), from the table.
 *
 * --trace FILE takes Pollux's one-day extract of the Philly trace
 * (timestamp, duration, num_gpus, ...): one job per line, named
 * "philly:LINE", with the line's GPU count and work = duration x thr(k)
 * samples, so that the job takes its measured duration on k T4s, and
 * released at its submission (hours after --start, default the first
 * submission in the file). --cluster keeps one virtual cluster,
 * --max-jobs the first N jobs kept. A line whose GPU count was not
 * measured is counted and skipped (one warning).
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_imp_accel.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_input.h"
#include "cp_time.h"
#include "cp_yaml_put.h"
#include "cp_num.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_K 1024

void cp_import_pollux_opts_init(cp_import_pollux_opts *o)
{
    memset(o, 0, sizeof *o);
    o->work = 1e6;
}

/* "1244" -> 11 GPUs; -1 when not a placement. */
static int placement_gpus(const char *p)
{
    int n = 0;
    if (!*p || strlen(p) > 64)
        return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        n += *p - '0';
    }
    return n >= 1 ? n : -1;
}

typedef struct meas {
    int k;
    double bsz, thr;
    cp_pos pos; /* its step_time */
} meas;

/* What the loader takes (CP_INPUT_NUM_MAX): a tiny step_time or a huge
 * batch makes samples/s, a speedup or a trace job's work that it would
 * refuse, so they are refused here at the measurement or the job. */
static bool loadable(double v)
{
    return v > 0 && v <= CP_INPUT_NUM_MAX;
}

/* The measurements of placements.csv or scalability.csv. */
static int read_meas(const char *path, cp_csv **csv_out, meas **out, int *n_out, cp_diags *d)
{
    cp_csv *csv = NULL;
    int rc = import_csv_read(path, &csv, d);
    if (rc != CP_OK)
        return rc;
    int c_pl = cp_csv_col(csv, "placement"), c_rep = cp_csv_col(csv, "num_replicas");
    int c_bsz = cp_csv_col(csv, "local_bsz"), c_st = cp_csv_col(csv, "step_time");
    if ((c_pl < 0 && c_rep < 0) || c_bsz < 0 || c_st < 0) {
        rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, &csv->head, 0),
                          "not a Pollux trace: need placement (or num_replicas), local_bsz "
                          "and step_time");
        cp_csv_free(csv);
        return rc;
    }
    meas *m = csv->n_rows ? cp_calloc((size_t)csv->n_rows, sizeof *m) : NULL;
    if (csv->n_rows && !m) {
        cp_csv_free(csv);
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    int n = 0;
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double k = -1, bsz, st;
        long kl = 0;
        if (c_pl >= 0)
            k = placement_gpus(cp_csv_get(r, c_pl));
        else if (!cp_csv_number(cp_csv_get(r, c_rep), &k) || k != floor(k) || k < 1)
            k = -1;
        int bad = !cp_num_is_whole(k, 1, MAX_K, &kl) ? (c_pl >= 0 ? c_pl : c_rep)
                  : !cp_csv_number(cp_csv_get(r, c_bsz), &bsz) || !(bsz > 0) ? c_bsz
                  : !cp_csv_number(cp_csv_get(r, c_st), &st) || !(st > 0)    ? c_st
                                                                             : -1;
        if (bad >= 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, bad),
                              "unreadable measurement: a placement or GPU count of 1 to %d, "
                              "local_bsz > 0, step_time > 0",
                              MAX_K);
            continue;
        }
        double thr = bsz * k / st;
        if (!loadable(thr)) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, c_st),
                              "local_bsz x GPUs / step_time is %g samples/s: not a number > 0 "
                              "and <= %g",
                              thr, CP_INPUT_NUM_MAX);
            continue;
        }
        m[n++] = (meas){(int)kl, bsz, thr, import_field_pos(csv, r, c_st)};
    }
    if (rc != CP_OK || !n) {
        if (rc == CP_OK)
            rc = cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0}, "no measurements");
        cp_free(m);
        cp_csv_free(csv);
        return rc;
    }
    *csv_out = csv;
    *out = m;
    *n_out = n;
    return CP_OK;
}

/* The batch size measured at the most GPU counts (the larger on a tie). */
static double pick_bsz(const meas *m, int n)
{
    double best = 0;
    int best_n = -1;
    bool at[MAX_K + 1];
    for (int i = 0; i < n; i++) {
        double bsz = m[i].bsz;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = m[j].bsz == bsz;
        if (seen)
            continue;
        memset(at, 0, sizeof at);
        int counts = 0;
        for (int j = i; j < n; j++)
            if (m[j].bsz == bsz && !at[m[j].k]) {
                at[m[j].k] = true;
                counts++;
            }
        if (counts > best_n || (counts == best_n && bsz > best)) {
            best = bsz;
            best_n = counts;
        }
    }
    return best;
}

/* The job's base name: --app, else the folder holding the file. */
static char *app_name(const char *path, const char *app)
{
    if (app)
        return cp_strdup(app);
    const char *end = strrchr(path, '/');
    if (!end)
        return cp_strdup("pollux");
    const char *start = end;
    while (start > path && start[-1] != '/')
        start--;
    return start < end ? cp_strndup(start, (size_t)(end - start)) : cp_strdup("pollux");
}

/* The jobs of a Philly trace, each with the measured model of `app` on
 * accelerator `acc` at the line's GPU count. */
static int put_trace(cp_buf *b, const cp_import_pollux_opts *o, const char *app, const char *acc,
                     const double *thr, const bool *allowed, cp_diags *d)
{
    cp_csv *csv = NULL;
    int rc = import_csv_read(o->trace, &csv, d);
    if (rc != CP_OK)
        return rc;
    int c_ts = cp_csv_col(csv, "timestamp"), c_dur = cp_csv_col(csv, "duration");
    int c_k = cp_csv_col(csv, "num_gpus"), c_cl = cp_csv_col(csv, "cluster");
    if (c_ts < 0 || c_dur < 0 || c_k < 0) {
        rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, &csv->head, 0),
                          "not a Philly trace: need timestamp, duration and num_gpus");
        goto out;
    }
    double start = 0;
    bool have_start = o->start && cp_time_parse(o->start, &start, NULL);
    if (o->start && !have_start) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                          "--start: expected a time like "
                          "2017-10-09T00:00");
        goto out;
    }
    for (int i = 0; i < csv->n_rows && !have_start; i++) { /* the first submission */
        double t;
        if (cp_time_parse(cp_csv_get(&csv->rows[i], c_ts), &t, NULL) && (i == 0 || t < start))
            start = t;
    }
    int kept = 0, unmeasured = 0;
    for (int i = 0; i < csv->n_rows && rc == CP_OK; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double t, dur, k;
        long kl = 0;
        int bad = !cp_time_parse(cp_csv_get(r, c_ts), &t, NULL)                     ? c_ts
                  : !cp_csv_number(cp_csv_get(r, c_dur), &dur) || !(dur >= 0)        ? c_dur
                  : !cp_csv_number(cp_csv_get(r, c_k), &k) || !cp_num_is_whole(k, 1, LONG_MAX, &kl) ? c_k
                                                                                     : -1;
        if (bad >= 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, bad),
                              "unreadable job: a timestamp, a duration >= 0 s and a GPU count");
            break;
        }
        if (o->cluster && (c_cl < 0 || strcmp(cp_csv_get(r, c_cl), o->cluster)))
            continue;
        if (o->max_jobs > 0 && kept >= o->max_jobs)
            break;
        if (kl > MAX_K || !allowed[kl]) {
            unmeasured++;
            continue;
        }
        if (!(dur > 0) || t < start)
            continue; /* nothing to run, or before the horizon */
        double work = round(dur * thr[kl] * 1000) / 1000;
        if (!loadable(work)) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, c_dur),
                              "the job's work (duration x %g samples/s) is %g samples: not a "
                              "number > 0 and <= %g",
                              thr[kl], work, CP_INPUT_NUM_MAX);
            break;
        }
        kept++;
        cp_buf_printf(b, "  - name: \"philly:%d\"\n    kind: training\n    work: ", r->line);
        cp_yaml_put_num(b, work);
        cp_buf_puts(b, "  # samples: the measured duration on the GPU count\n");
        if (t > start) {
            cp_buf_puts(b, "    release_hour: ");
            cp_yaml_put_num(b, round((t - start) / 3600 * 1e6) / 1e6);
            cp_buf_putc(b, '\n');
        }
        cp_buf_printf(b, "    accelerators: [%d]\n    throughput: {", (int)kl);
        cp_yaml_put_str(b, acc);
        cp_buf_puts(b, ": ");
        cp_yaml_put_num(b, thr[1]);
        cp_buf_printf(b, "}\n    scaling: {model: table, speedup: {%d: ", (int)kl);
        cp_yaml_put_num(b, thr[kl] / thr[1]);
        cp_buf_puts(b, "}}  ");
        cp_yaml_put_comment(b, app);
    }
    if (unmeasured)
        cp_diags_warn(d, (cp_pos){o->trace, 0, 0},
                      "%d jobs skipped: their GPU count was not measured (or not kept)",
                      unmeasured);
    if (rc == CP_OK && !kept)
        cp_diags_warn(d, (cp_pos){o->trace, 0, 0}, "no jobs matched");
out:
    cp_csv_free(csv);
    return rc;
}

int cp_import_pollux(const char *path, const cp_import_pollux_opts *o, cp_buf *out, cp_diags *d)
{
    cp_csv *csv = NULL;
    meas *m = NULL;
    int n = 0, rc;
    char *app = NULL;
    cp_imp_accel_table *tab = NULL;
    double *thr = NULL;
    bool *allowed = NULL;
    cp_buf b;
    cp_buf_init(&b);
    const char *accel = o->accelerator ? o->accelerator : "T4";
    if (!(o->work > 0) || !isfinite(o->work))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "--work must be a number > 0");
    if ((rc = cp_imp_accel_table_load(o->accel_table, &tab, d)) != CP_OK)
        goto out;
    int mismatch;
    const cp_imp_accel *a = cp_imp_accel_find(tab, accel, 0, &mismatch);
    if (!a) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                          "accelerator '%s' is not in the accelerator table (add it with "
                          "--accel-table)",
                          accel);
        goto out;
    }
    if ((rc = read_meas(path, &csv, &m, &n, d)) != CP_OK)
        goto out;
    if (!(app = app_name(path, o->app)) || !(thr = cp_calloc(MAX_K + 1, sizeof *thr)) ||
        !(allowed = cp_calloc(MAX_K + 1, sizeof *allowed))) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    if (strlen(app) > CP_NAME_MAX - 16) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "--app: at most %d bytes",
                          CP_NAME_MAX - 16);
        goto out;
    }
    /* the job's name: YAML holds UTF-8 only, and a folder need not be */
    if (!cp_utf8_ok((const unsigned char *)app, strlen(app))) {
        rc = o->app ? cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "--app: the name is not UTF-8")
                    : cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                                   "the folder's name is not UTF-8: name the job with --app");
        goto out;
    }
    double bsz = o->local_bsz > 0 ? o->local_bsz : pick_bsz(m, n);
    int best[MAX_K + 1]; /* the measurement kept per count */
    for (int i = 0; i < n; i++)
        if (m[i].bsz == bsz && m[i].thr > thr[m[i].k]) {
            thr[m[i].k] = m[i].thr;
            best[m[i].k] = i;
        }
    if (!(thr[1] > 0)) {
        rc = cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                          "no measurement on 1 GPU at local_bsz %g: the one-GPU throughput is "
                          "unknown",
                          bsz);
        goto out;
    }
    for (int k = 1; k <= MAX_K && rc == CP_OK; k++) {
        allowed[k] = thr[k] > 0 && (o->all_counts || (k & (k - 1)) == 0);
        if (allowed[k] && !loadable(thr[k] / thr[1]))
            rc = cp_diags_add(d, CP_ERR_INPUT, m[best[k]].pos,
                              "the speedup on %d GPUs over 1 is %g: not a number > 0 and <= %g "
                              "(step times too far apart?)",
                              k, thr[k] / thr[1], CP_INPUT_NUM_MAX);
    }
    if (rc != CP_OK)
        goto out;
    {
        cp_buf c;
        cp_buf_init(&c);
        cp_buf_puts(&c, "capplan import pollux");
        import_cmd_arg(&c, NULL, path);
        cp_buf_printf(&c, " --local-bsz %g", bsz);
        import_cmd_arg(&c, "--trace", o->trace);
        cp_yaml_put_comment(&b, cp_buf_ok(&c) ? c.s : "capplan import pollux");
        cp_buf_release(&c);
    }
    cp_buf_puts(&b, "# Pollux (Qiao et al., OSDI 2021; Apache-2.0): samples/s on T4 nodes "
                    "(g4dn.12xlarge), the best placement per GPU count\n");
    cp_buf_puts(&b, "accelerators:\n");
    cp_imp_accel_put_yaml(&b, a);
    cp_buf_puts(&b, "jobs:\n");
    if (o->trace) {
        if ((rc = put_trace(&b, o, app, a->name, thr, allowed, d)) != CP_OK)
            goto out;
    } else {
        cp_buf_puts(&b, "  - name: ");
        cp_yaml_put_str(&b, app);
        cp_buf_puts(&b, "\n    kind: training\n    work: ");
        cp_yaml_put_num(&b, o->work);
        cp_buf_puts(&b, "  # samples: set with --work, or take jobs from a trace (--trace)\n"
                        "    accelerators: [");
        for (int k = 1, i = 0; k <= MAX_K; k++)
            if (allowed[k])
                cp_buf_printf(&b, "%s%d", i++ ? ", " : "", k);
        cp_buf_puts(&b, "]\n    throughput: {");
        cp_yaml_put_str(&b, a->name);
        cp_buf_puts(&b, ": ");
        cp_yaml_put_num(&b, thr[1]);
        cp_buf_puts(&b, "}\n    scaling:\n      model: table\n      speedup: {");
        for (int k = 1, i = 0; k <= MAX_K; k++)
            if (allowed[k]) {
                cp_buf_printf(&b, "%s%d: ", i++ ? ", " : "", k);
                cp_yaml_put_num(&b, thr[k] / thr[1]);
            }
        cp_buf_puts(&b, "}\n");
    }
    rc = import_deliver(&b, out, d);
out:
    cp_buf_release(&b);
    cp_free(m);
    cp_free(app);
    cp_free(thr);
    cp_free(allowed);
    cp_csv_free(csv);
    cp_imp_accel_table_free(tab);
    return rc;
}
