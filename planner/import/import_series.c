/*
 * Grid series -> a site's `energy_price` and `carbon_intensity` over the
 * horizon's slots (`capplan import series`; cp_import.h).
 *
 * Input: CSV files whose first column is a time ("2023-06-01 00:00:00",
 * a 'T' instead of the blank, seconds optional, an optional "Z" or
 * "+HH:MM"/"-HH:MM" offset) and one value column: green-dcc's processed
 * prices (Datetime,Price (USD/MWh)), Electricity Maps' hourly exports
 * (green-dcc's carbon_intensity/: the first "Carbon Intensity" column,
 * the direct one, unless --column names another) and lets-wait-awhile
 * (Time,Carbon Intensity, 15- or 30-minute steps).
 *
 * Times: a time with an offset is converted to UTC; one without is taken
 * as written (green-dcc's price files mostly give local time, see its
 * README), and so is --start: the user says which clock the horizon is on.
 *
 * Resampling: each sample holds from its time until the next one's (the
 * last for the median step), and a slot's value is the time-weighted mean
 * over the slot, so hourly data on hourly slots is copied, 15-minute data
 * is averaged per hour, hourly data on 15-minute slots is repeated. A slot
 * not covered by the series is an error naming the slot and the series'
 * span; samples out of order or repeated are errors at their line.
 *
 * Units: prices per MWh become $/kWh (divided by 1000, times --scale for
 * another currency; a price column in a currency other than USD without
 * --scale is warned about); carbon is gCO2/kWh as given.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_input.h"
#include "cp_time.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cp_import_series_opts_init(cp_import_series_opts *o)
{
    memset(o, 0, sizeof *o);
    o->slot_hours = 1;
    o->scale = NAN;
    o->pue = NAN;
}

typedef struct series {
    double *t, *v; /* seconds, values */
    int n;
} series;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Which column holds the values: --column, else the first whose name
 * starts with "Price" or "Carbon Intensity", else the second column. */
static int value_col(const cp_csv *csv, const char *want)
{
    if (want)
        return cp_csv_col(csv, want);
    for (int i = 1; i < csv->head.n; i++)
        if (!strncmp(csv->head.f[i], "Price", 5) ||
            !strncmp(csv->head.f[i], "Carbon Intensity", 16))
            return i;
    return csv->head.n > 1 ? 1 : -1;
}

/* Reads one series file; `price` selects the unit conversion. */
static int read_series(const char *path, const cp_import_series_opts *o, bool price, series *s,
                       cp_diags *d)
{
    cp_csv *csv = NULL;
    int rc = import_csv_read(path, &csv, d);
    if (rc != CP_OK)
        return rc;
    int col = value_col(csv, o->column);
    double scale = 1;
    if (col < 0) {
        rc =
            cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, &csv->head, 0),
                         o->column ? "no column '%s'" : "%s: need a time column and a value column",
                         o->column ? o->column : path);
        goto out;
    }
    if (price) {
        const char *h = csv->head.f[col];
        const char *cur = strchr(h, '(');
        scale = isnan(o->scale) ? 1 : o->scale;
        if (!strstr(h, "/MWh") && isnan(o->scale))
            cp_diags_warn(d, import_field_pos(csv, &csv->head, col),
                          "column '%s' does not say /MWh: taken as per MWh", h);
        if (cur && strncmp(cur, "(USD", 4) != 0 && isnan(o->scale))
            cp_diags_warn(d, import_field_pos(csv, &csv->head, col),
                          "column '%s' is not in USD: written as if it were; give --scale "
                          "(USD per unit of its currency)",
                          h);
        scale /= 1000; /* per MWh -> per kWh */
    }
    if (!csv->n_rows) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head), "no samples");
        goto out;
    }
    if (!(s->t = cp_calloc((size_t)csv->n_rows, sizeof *s->t)) ||
        !(s->v = cp_calloc((size_t)csv->n_rows, sizeof *s->v))) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    for (int i = 0; i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        double t, v;
        if (!cp_time_parse(cp_csv_get(r, 0), &t, NULL)) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, 0),
                              "expected a time like 2023-06-01 00:00:00, got '%.40s'",
                              cp_csv_get(r, 0));
            break;
        }
        if (!cp_csv_number(cp_csv_get(r, col), &v) || (!price && v < 0)) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, col),
                              price ? "expected a price" : "expected a carbon intensity >= 0");
            break;
        }
        if (s->n && !(t > s->t[s->n - 1])) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, 0),
                              "time not after the previous sample's");
            break;
        }
        s->t[s->n] = t;
        s->v[s->n++] = v * scale;
    }
out:
    cp_csv_free(csv);
    return rc;
}

/* The slots' values: the time-weighted mean over each slot. */
static int resample(const series *s, double start, const cp_import_series_opts *o, const char *path,
                    double *out, cp_diags *d)
{
    double step = 3600;
    if (s->n > 1) {
        double *gaps = cp_calloc((size_t)s->n - 1, sizeof *gaps);
        if (!gaps)
            return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        for (int i = 0; i + 1 < s->n; i++)
            gaps[i] = s->t[i + 1] - s->t[i];
        qsort(gaps, (size_t)s->n - 1, sizeof *gaps, cmp_double);
        step = gaps[(s->n - 1) / 2];
        cp_free(gaps);
    }
    double end_all = s->t[s->n - 1] + step, h = o->slot_hours * 3600;
    int k = 0;
    for (int slot = 0; slot < o->slots; slot++) {
        double a = start + slot * h, b = a + h;
        if (a < s->t[0] - 1e-6 || b > end_all + 1e-6)
            return cp_diags_add(d, CP_ERR_INPUT, (cp_pos){path, 0, 0},
                                "slot %d (%.1f h after --start) is outside the series, which "
                                "covers %.1f h before to %.1f h after --start",
                                slot, slot * o->slot_hours, (start - s->t[0]) / 3600,
                                (end_all - start) / 3600);
        while (k + 1 < s->n && s->t[k + 1] <= a)
            k++;
        double sum = 0;
        for (int i = k; i < s->n && s->t[i] < b; i++) {
            double lo = fmax(a, s->t[i]), hi = fmin(b, i + 1 < s->n ? s->t[i + 1] : end_all);
            if (hi > lo)
                sum += s->v[i] * (hi - lo);
        }
        out[slot] = sum / h;
    }
    return CP_OK;
}

static void put_series(cp_buf *b, const char *key, const double *v, int n)
{
    cp_buf_printf(b, "    %s: [", key);
    for (int i = 0; i < n; i++) {
        cp_buf_puts(b, i ? (i % 8 ? ", " : ",\n      ") : "");
        cp_yaml_put_num(b, round(v[i] * 1e9) / 1e9);
    }
    cp_buf_puts(b, "]\n");
}

int cp_import_series(const cp_import_series_opts *o, cp_buf *out, cp_diags *d)
{
    int rc = CP_OK;
    double start;
    series sp = {NULL, NULL, 0}, sc = {NULL, NULL, 0};
    double *vp = NULL, *vc = NULL;
    cp_buf b;
    cp_buf_init(&b);
    if (!o->site || !*o->site || strlen(o->site) > CP_NAME_MAX)
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "--site NAME is required (1 to %d bytes)", CP_NAME_MAX);
    if (!o->start || !cp_time_parse(o->start, &start, NULL))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "--start TIME is required, like 2023-06-01T00:00");
    if (o->slots < 1 || o->slots > 10000 || !(o->slot_hours > 0) || !isfinite(o->slot_hours))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "--slots must be 1 to 10000 and --slot-hours > 0");
    if (!o->energy_price && !o->carbon)
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "give --energy-price FILE, --carbon FILE or both");
    if (!isnan(o->pue) && !(o->pue >= 1 && isfinite(o->pue)))
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "--pue must be a number >= 1");
    if (o->energy_price) {
        if ((rc = read_series(o->energy_price, o, true, &sp, d)) != CP_OK)
            goto out;
        if (!(vp = cp_calloc((size_t)o->slots, sizeof *vp)))
            goto nomem;
        if ((rc = resample(&sp, start, o, o->energy_price, vp, d)) != CP_OK)
            goto out;
        int neg = 0, first = -1;
        for (int i = 0; i < o->slots; i++)
            if (vp[i] < 0) {
                first = first < 0 ? i : first;
                neg++;
                vp[i] = 0;
            }
        if (neg)
            cp_diags_warn(d, (cp_pos){o->energy_price, 0, 0},
                          "%d slots (the first: slot %d) have a negative mean price, written as "
                          "0 (energy_price must be >= 0)",
                          neg, first);
    }
    if (o->carbon) {
        if ((rc = read_series(o->carbon, o, false, &sc, d)) != CP_OK)
            goto out;
        if (!(vc = cp_calloc((size_t)o->slots, sizeof *vc)))
            goto nomem;
        if ((rc = resample(&sc, start, o, o->carbon, vc, d)) != CP_OK)
            goto out;
    }
    {
        cp_buf c;
        cp_buf_init(&c);
        /* every option that changes the output, so the line re-runs it;
         * each text as one shell word (a file named '$(id).csv' must not
         * run when the line is pasted), then the comment made one YAML
         * comment line (control characters, U+2028: cp_yaml_put_comment) */
        cp_buf_puts(&c, "capplan import series");
        import_cmd_arg(&c, "--site", o->site);
        import_cmd_arg(&c, "--start", o->start);
        cp_buf_printf(&c, " --slots %d --slot-hours %g", o->slots, o->slot_hours);
        const char *const flag[] = {"--energy-price", "--carbon", "--column"};
        const char *const val[] = {o->energy_price, o->carbon, o->column};
        for (int i = 0; i < 3; i++)
            import_cmd_arg(&c, flag[i], val[i]);
        if (!isnan(o->scale))
            cp_buf_printf(&c, " --scale %g", o->scale);
        if (!isnan(o->pue))
            cp_buf_printf(&c, " --pue %g", o->pue);
        if (o->horizon)
            cp_buf_puts(&c, " --horizon");
        cp_yaml_put_comment(&b, cp_buf_ok(&c) ? c.s : "capplan import series");
        cp_buf_release(&c);
    }
    cp_buf_puts(&b, "# time-weighted means per slot; energy_price in $/kWh, carbon_intensity in "
                    "gCO2/kWh\n");
    if (o->horizon) {
        cp_buf_printf(&b, "horizon: {slots: %d, slot_hours: ", o->slots);
        cp_yaml_put_num(&b, o->slot_hours);
        cp_buf_puts(&b, ", start: ");
        cp_yaml_put_str(&b, o->start);
        cp_buf_puts(&b, "}\n");
    }
    cp_buf_puts(&b, "sites:\n  - name: ");
    cp_yaml_put_str(&b, o->site);
    cp_buf_putc(&b, '\n');
    if (!isnan(o->pue)) {
        cp_buf_puts(&b, "    pue: ");
        cp_yaml_put_num(&b, o->pue);
        cp_buf_putc(&b, '\n');
    }
    if (vp)
        put_series(&b, "energy_price", vp, o->slots);
    if (vc)
        put_series(&b, "carbon_intensity", vc, o->slots);
    rc = import_deliver(&b, out, d);
    goto out;
nomem:
    rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
out:
    cp_free(sp.t);
    cp_free(sp.v);
    cp_free(sc.t);
    cp_free(sc.v);
    cp_free(vp);
    cp_free(vc);
    cp_buf_release(&b);
    return rc;
}
