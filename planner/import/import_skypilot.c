/*
 * A SkyPilot catalog (vms.csv, schema V7/V8) -> `accelerators:` and
 * `offers:` fragments (`capplan import skypilot`; cp_import.h).
 *
 * Columns are found by header name, so every provider's column order
 * works. Rows that cannot be used are skipped with a warning naming
 * FILE:LINE; the output never guesses a price. Quirks handled:
 *  - Azure rows with an unquoted `V1,V2` in the last column (Generation)
 *    have one field too many: the surplus is joined back into that column.
 *  - GCP prices GPU hosts (a2-*, a3-*, g2-*) without their GPUs; the GPUs
 *    are rows with an empty InstanceType, per (accelerator, count). A
 *    host becomes an offer with the bundle its name implies (table
 *    below) and the sum of both prices. GPUs that attach to n1 hosts
 *    (K80, P4, P100, T4, V100) become one offer per n1 host and GPU count
 *    that Google allows (at most the vCPUs and memory of n1_limits), priced
 *    as the host row plus the add-on row, both the catalog's own.
 *  - TPUs and fractional GPUs (count < 1) are not accelerators capplan
 *    models; they are skipped with one summary warning each.
 *  - Accelerator names, memory and power come from the canonical table
 *    (cp_imp_accel.h), so every importer's fragments define a type alike;
 *    GpuInfo's memory per device (TotalGpuMemoryInMiB / Count, else
 *    SizeInMiB) only picks the variant (Vast's 94 GB "H100" is an
 *    H100-NVL). A type the table lacks keeps the catalog's spelling and
 *    memory and gets no power_w, with a warning; one with neither is
 *    skipped (with its offers), since memory_gb is required.
 *  - Spot offers get spot_interruptions_per_hour from the provider's
 *    published rate (spot_rates below) or --spot-interruptions; a
 *    provider with none is warned about (lambda 0 makes spot look free).
 *  - --type-map MEASURED=OFFERED labels offers of type OFFERED with the
 *    machine type MEASURED, which runtime models fitted elsewhere name.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_imp_accel.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_input.h"
#include "cp_yaml_put.h"
#include "cp_num.h"

#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* GCP GPUs that attach to n1 hosts: per count, the most vCPUs and memory
 * (GB) the host may have (Google Cloud, "GPU machine types",
 * cloud.google.com/compute/docs/gpus, as tabulated in SkyPilot's
 * gcp_catalog.py, _NUM_ACC_TO_MAX_CPU_AND_MEMORY). */
static const struct {
    const char *acc;
    int count;
    double cpus, mem;
} n1_limits[] = {
    {"K80", 1, 8, 52},    {"K80", 2, 16, 104},  {"K80", 4, 32, 208},  {"K80", 8, 64, 208},
    {"V100", 1, 12, 78},  {"V100", 2, 24, 156}, {"V100", 4, 48, 312}, {"V100", 8, 96, 624},
    {"T4", 1, 48, 312},   {"T4", 2, 48, 312},   {"T4", 4, 96, 624},   {"P4", 1, 24, 156},
    {"P4", 2, 48, 312},   {"P4", 4, 96, 624},   {"P100", 1, 16, 104}, {"P100", 2, 32, 208},
    {"P100", 4, 96, 624}, {NULL, 0, 0, 0},
};

/* Published spot interruption rates, as interruptions per instance-hour.
 * AWS: "less than 5 % of Spot Instances are interrupted" in a month (the
 * Spot Instance Advisor's lowest bucket, aws.amazon.com/ec2/spot/
 * instance-advisor): 0.05 / 730 h. Google: preemptible VMs have
 * "historically ... a preemption rate between 5 % and 15 % per day per
 * project" (cloud.google.com/compute/docs/instances/preemptible), the
 * middle, 0.10 / 24 h. Azure publishes eviction-rate buckets per size in
 * its portal only: no default. */
static const struct {
    const char *provider;
    double rate;
} spot_rates[] = {{"aws", 0.05 / 730}, {"gcp", 0.10 / 24}, {NULL, 0}};

/* GCP GPU hosts: name prefix -> accelerator; count from the "-Ng" suffix
 * unless fixed. g2 counts follow Google's published shapes. */
static const struct {
    const char *type;
    const char *acc;
    int count; /* 0: from the suffix */
} gcp_hosts[] = {
    {"a2-highgpu-", "A100", 0},        {"a2-megagpu-16g", "A100", 16},
    {"a2-ultragpu-", "A100-80GB", 0},  {"a3-highgpu-", "H100", 0},
    {"a3-megagpu-8g", "H100-MEGA", 8}, {"g2-standard-4", "L4", 1},
    {"g2-standard-8", "L4", 1},        {"g2-standard-12", "L4", 1},
    {"g2-standard-16", "L4", 1},       {"g2-standard-24", "L4", 2},
    {"g2-standard-32", "L4", 1},       {"g2-standard-48", "L4", 4},
    {"g2-standard-96", "L4", 8},       {NULL, NULL, 0},
};

typedef struct sky {
    cp_csv *csv;
    int c_type, c_acc, c_cnt, c_cpu, c_mem, c_info, c_region, c_zone, c_price, c_spot;
    const char *provider, *site, *region, *zone;
    const cp_import_skypilot_opts *o;
    regex_t re;
    bool have_re;
    char **want; /* --accelerators */
    int n_want;
    cp_imp_accel_table *tab;
    int *used; /* indexes in tab of the accelerators the offers use */
    int n_used;
    size_t used_cap;
    char **names; /* offer names written, for duplicates */
    int n_names;
    size_t names_cap;
    double spot_rate; /* < 0: none published */
    cp_diags *d;      /* the caller's: warnings and errors */
    int tpus, fractional, spot_unrated;
} sky;

static const char *F(const sky *s, const cp_csv_row *r, int col)
{
    (void)s; /* reads as F(s, row, s->c_x) at every use */
    return cp_csv_get(r, col);
}

/* GpuInfo's numbers in GB: SizeInMiB and TotalGpuMemoryInMiB (0 when
 * absent). Catalogs disagree on what they hold: AWS and GCP give
 * SizeInMiB per device and the total for all; Lambda gives the
 * per-device size in both; Vast gives the total in both (its 2 x V100
 * row says 32768 MiB), so for Vast the size is divided by the count. */
static double info_num(const char *info, const char *key)
{
    const char *p = strstr(info, key);
    double mib = p ? strtod(p + strlen(key), NULL) : 0;
    return mib > 0 && isfinite(mib) ? mib / 1024 : 0;
}

/* The per-device memory readings to try against the table, most likely
 * first; returns how many (0: none). */
static int info_gbs(const sky *s, const char *info, double count, double gb[2])
{
    double size = info_num(info, "'SizeInMiB':"), total = info_num(info, "'TotalGpuMemoryInMiB':");
    int n = 0;
    if (!strcmp(s->provider, "vast") && count >= 1 && size > 0)
        gb[n++] = size / count;
    else if (size > 0)
        gb[n++] = size;
    else if (total > 0 && count >= 1)
        gb[n++] = total / count;
    return n;
}

/* A warning about row r, at field `col`'s FILE:LINE:COLUMN (-1: the
 * row's FILE:LINE, for a warning about the row as a whole). */
static void warn(sky *s, const cp_csv_row *r, int col, const char *msg, const char *arg)
{
    cp_diags_warn(s->d, cp_csv_field_pos(s->csv, r, col), msg, arg);
}

/* The canonical accelerator for a catalog spelling, registered as used:
 * its index in s->tab (entries may move as unknown ones are added), or
 * -1 with *skip set when the offer must be skipped (warned), -1 with
 * *skip clear when memory runs out. */
static int use_acc(sky *s, const cp_csv_row *r, const char *spelling, const char *info,
                   double count, bool *skip)
{
    double gbs[2], gb;
    int n_gb = info_gbs(s, info, count, gbs), mismatch, i;
    bool fresh = false;
    *skip = false;
    gb = n_gb ? gbs[0] : 0;
    /* the name is the row's AcceleratorName, or comes from a GCP host's
     * type */
    int at = F(s, r, s->c_acc)[0] ? s->c_acc : s->c_type;
    const cp_imp_accel *a = cp_imp_accel_find(s->tab, spelling, gb, &mismatch);
    if (!a && mismatch) {
        cp_diags_warn(s->d, cp_csv_field_pos(s->csv, r, at),
                      "accelerator '%s' with %g GB per device matches no entry of the "
                      "accelerator table; offer skipped (add it with --accel-table)",
                      spelling, round(gb * 10) / 10);
        *skip = true;
        return -1;
    }
    if (a) {
        i = (int)(a - s->tab->a);
    } else { /* not in the table: the catalog's own name and memory */
        /* written to 0.01 GB: a GpuInfo size of a few MiB would be
         * memory_gb 0, which the loader refuses (a fuzz_fitout find), so
         * it counts as no size */
        if (!(round(gb * 100) / 100 > 0)) {
            warn(s, r, at,
                 "accelerator '%s': memory unknown (no GpuInfo size, not in the "
                 "accelerator table); offer skipped",
                 spelling);
            *skip = true;
            return -1;
        }
        if (strlen(spelling) > CP_NAME_MAX) {
            *skip = true; /* the offer's own length check reports it */
            return -1;
        }
        if (CP_GROW(s->tab->a, s->tab->cap, (size_t)s->tab->n + 1) != 0)
            return -1;
        cp_imp_accel *n = &s->tab->a[s->tab->n];
        n->name = cp_strdup(spelling);
        n->spellings = cp_strdup(spelling);
        n->memory_gb = round(gb * 100) / 100;
        n->power_w = n->idle_power_w = -1;
        if (!n->name || !n->spellings) {
            cp_free(n->name);
            cp_free(n->spellings);
            return -1;
        }
        i = s->tab->n++;
        fresh = true;
        warn(s, r, at,
             "accelerator '%s' is not in the accelerator table: written with the "
             "catalog's memory and no power_w (add it with --accel-table)",
             spelling);
    }
    for (int k = 0; k < s->n_used; k++)
        if (s->used[k] == i)
            return i;
    if (CP_GROW(s->used, s->used_cap, (size_t)s->n_used + 1) != 0)
        return -1;
    s->used[s->n_used++] = i;
    if (!fresh && s->tab->a[i].power_w < 0)
        warn(s, r, at,
             "accelerator '%s': no published power figure; power_w not written "
             "(energy and carbon count its draw as 0)",
             s->tab->a[i].name);
    return i;
}

static bool wanted_acc(const sky *s, const char *spelling)
{
    if (!s->n_want)
        return true;
    if (!*spelling)
        return false;
    int mismatch;
    const cp_imp_accel *a = cp_imp_accel_find(s->tab, spelling, 0, &mismatch);
    for (int i = 0; i < s->n_want; i++)
        if (strcmp(s->want[i], spelling) == 0 || (a && strcmp(s->want[i], a->name) == 0))
            return true;
    return false;
}

/* The GCP add-on row pricing `count` devices of `name` in the row's zone. */
static const cp_csv_row *gcp_addon(const sky *s, const cp_csv_row *host, const char *name,
                                   int count)
{
    for (int i = 0; i < s->csv->n_rows; i++) {
        const cp_csv_row *r = &s->csv->rows[i];
        double c;
        if (F(s, r, s->c_type)[0] || strcmp(F(s, r, s->c_acc), name) ||
            strcmp(F(s, r, s->c_zone), F(s, host, s->c_zone)) ||
            strcmp(F(s, r, s->c_region), F(s, host, s->c_region)))
            continue;
        if (cp_csv_number(F(s, r, s->c_cnt), &c) && c == count)
            return r;
    }
    return NULL;
}

/* What one offer is made of. */
typedef struct offer {
    const char *type;   /* the instance type (in the name, the label unless mapped) */
    const char *suffix; /* ":2xV100" for an n1 host with GPUs, else "" */
    const char *acc;    /* the catalog's spelling; "" for none */
    const char *info;   /* GpuInfo */
    double count, cpus, mem, price, spot;
    bool has_spot;
} offer;

/* The machine-type label of offers of `type`: --type-map MEASURED=TYPE. */
static const char *label_of(const sky *s, const char *type, size_t *len)
{
    for (int i = 0; i < s->o->n_type_map; i++) {
        const char *m = s->o->type_map[i], *eq = strchr(m, '=');
        if (eq && strcmp(eq + 1, type) == 0) {
            *len = (size_t)(eq - m);
            return m;
        }
    }
    *len = strlen(type);
    return type;
}

/* Writes one offer, or skips it with a warning. Returns -1 on out of
 * memory. */
static int emit(sky *s, const cp_csv_row *r, const offer *f, cp_buf *b)
{
    const char *region = F(s, r, s->c_region), *zone = F(s, r, s->c_zone);
    if (!wanted_acc(s, f->acc))
        return 0;
    int ai = -1;
    if (f->acc[0]) {
        bool skip;
        if ((ai = use_acc(s, r, f->acc, f->info, f->count, &skip)) < 0)
            return skip ? 0 : -1;
    }
    const char *accname = ai >= 0 ? s->tab->a[ai].name : "";
    size_t label_len;
    const char *label = label_of(s, f->type, &label_len);
    cp_buf name;
    cp_buf_init(&name);
    cp_buf_printf(&name, "%s:%s:%s%s", s->provider, zone[0] ? zone : region, f->type, f->suffix);
    if (!cp_buf_ok(&name))
        return -1;
    /* the loader's limit on strings (CP_NAME_MAX): the fragment must load */
    if (name.len > CP_NAME_MAX || strlen(region) > CP_NAME_MAX || label_len > CP_NAME_MAX ||
        strlen(f->acc) > CP_NAME_MAX || strlen(s->provider) > CP_NAME_MAX) {
        cp_diags_warn(s->d, cp_csv_pos(s->csv, r),
                      "offer name, region, type or accelerator longer than %d bytes; skipped",
                      CP_NAME_MAX);
        cp_buf_release(&name);
        return 0;
    }
    for (int i = 0; i < s->n_names; i++)
        if (strcmp(s->names[i], name.s) == 0) {
            warn(s, r, -1, "offer '%s' already written; duplicate row skipped", name.s);
            cp_buf_release(&name);
            return 0;
        }
    if (CP_GROW(s->names, s->names_cap, (size_t)s->n_names + 1) != 0) {
        cp_buf_release(&name);
        return -1;
    }
    s->names[s->n_names++] = cp_buf_detach(&name);
    if (!s->names[s->n_names - 1])
        return -1;

    cp_buf_puts(b, "  - name: ");
    cp_yaml_put_str(b, s->names[s->n_names - 1]);
    cp_buf_puts(b, "\n    provider: ");
    cp_yaml_put_str(b, s->provider);
    if (region[0]) {
        cp_buf_puts(b, "\n    region: ");
        cp_yaml_put_str(b, region);
    }
    if (s->site) {
        cp_buf_puts(b, "\n    site: ");
        cp_yaml_put_str(b, s->site);
    }
    cp_buf_puts(b, "\n    instance: {type: ");
    {
        char *l = cp_strndup(label, label_len);
        if (!l)
            return -1;
        cp_yaml_put_str(b, l);
        cp_free(l);
    }
    if (ai >= 0) {
        cp_buf_puts(b, ", accelerator: ");
        cp_yaml_put_str(b, accname);
        cp_buf_puts(b, ", accelerators: ");
        cp_yaml_put_num(b, f->count);
    }
    cp_buf_puts(b, ", cpus: ");
    cp_yaml_put_num(b, f->cpus);
    cp_buf_puts(b, ", memory_gb: ");
    cp_yaml_put_num(b, f->mem);
    cp_buf_puts(b, "}\n    price_hour: ");
    /* Sums of two catalog prices: round away the binary noise. */
    cp_yaml_put_num(b, round(f->price * 1e9) / 1e9);
    if (f->has_spot) {
        cp_buf_puts(b, "\n    spot_price_hour: ");
        cp_yaml_put_num(b, round(f->spot * 1e9) / 1e9);
        if (s->spot_rate >= 0) {
            cp_buf_puts(b, "\n    spot_interruptions_per_hour: ");
            cp_yaml_put_num(b, round(s->spot_rate * 1e12) / 1e12);
        } else {
            s->spot_unrated++;
        }
    }
    cp_buf_putc(b, '\n');
    return 0;
}

/* An n1 host with each GPU bundle Google lets it carry (n1_limits), one
 * offer each, priced as host + add-on. */
static int n1_bundles(sky *s, const cp_csv_row *r, const offer *host, cp_buf *b)
{
    for (int k = 0; n1_limits[k].acc; k++) {
        if (host->cpus > n1_limits[k].cpus || host->mem > n1_limits[k].mem)
            continue;
        const cp_csv_row *add = gcp_addon(s, r, n1_limits[k].acc, n1_limits[k].count);
        double ap, as;
        if (!add || !cp_csv_number(F(s, add, s->c_price), &ap) || ap < 0)
            continue; /* this GPU is not offered in this zone */
        offer f = *host;
        char suffix[48];
        snprintf(suffix, sizeof suffix, ":%dx%s", n1_limits[k].count, n1_limits[k].acc);
        f.suffix = suffix;
        f.acc = n1_limits[k].acc;
        f.info = F(s, add, s->c_info);
        f.count = n1_limits[k].count;
        f.price += ap;
        if (f.has_spot && cp_csv_number(F(s, add, s->c_spot), &as) && as > 0)
            f.spot += as;
        else
            f.has_spot = false;
        if (emit(s, r, &f, b) != 0)
            return -1;
    }
    return 0;
}

/* The offers of row r (none for an add-on row or a filtered one). */
static int one_row(sky *s, const cp_csv_row *r, cp_buf *b)
{
    const char *type = F(s, r, s->c_type), *accname = F(s, r, s->c_acc);
    const char *region = F(s, r, s->c_region), *zone = F(s, r, s->c_zone);
    if (!type[0])
        return 0; /* a GCP add-on price, used through its host */
    if (s->region && strcmp(region, s->region))
        return 0;
    if (s->zone && strcmp(zone, s->zone))
        return 0;
    if (s->have_re && regexec(&s->re, type, 0, NULL, 0) != 0)
        return 0;
    offer f = {type, "", accname, F(s, r, s->c_info), 0, 0, 0, 0, 0, false};
    if (!cp_csv_number(F(s, r, s->c_cpu), &f.cpus) || !(f.cpus > 0) ||
        !cp_csv_number(F(s, r, s->c_mem), &f.mem) || !(f.mem > 0)) {
        double x;
        warn(s, r,
             !cp_csv_number(F(s, r, s->c_cpu), &x) || !(x > 0) ? s->c_cpu : s->c_mem,
             "'%s': no vCPUs or memory; skipped", type);
        return 0;
    }
    if (!cp_csv_number(F(s, r, s->c_price), &f.price) || f.price < 0) {
        warn(s, r, s->c_price, "'%s': no price; skipped", type);
        return 0;
    }
    if (cp_csv_number(F(s, r, s->c_spot), &f.spot) && f.spot > 0)
        f.has_spot = true;
    bool gcp = !strcmp(s->provider, "gcp");
    if (accname[0]) {
        if (strncmp(accname, "tpu-", 4) == 0) {
            s->tpus++;
            return 0;
        }
        if (!cp_csv_number(F(s, r, s->c_cnt), &f.count) || f.count != floor(f.count) ||
            f.count < 1 || f.count > CP_INPUT_COUNT_MAX) {
            s->fractional++;
            return 0;
        }
    } else if (gcp && (!strncmp(type, "a2-", 3) || !strncmp(type, "a3-", 3) ||
                       !strncmp(type, "a4-", 3) || !strncmp(type, "g2-", 3))) {
        int k = 0;
        while (gcp_hosts[k].type &&
               (gcp_hosts[k].count ? strcmp(type, gcp_hosts[k].type)
                                   : strncmp(type, gcp_hosts[k].type, strlen(gcp_hosts[k].type))))
            k++;
        if (!gcp_hosts[k].type) {
            warn(s, r, s->c_type, "'%s': GPU host with an unknown GPU bundle; skipped", type);
            return 0;
        }
        f.acc = gcp_hosts[k].acc;
        f.count = gcp_hosts[k].count;
        if (!f.count) { /* a2-highgpu-4g -> 4 */
            char *end;
            f.count = strtol(type + strlen(gcp_hosts[k].type), &end, 10);
            if (strcmp(end, "g") != 0 || f.count < 1 || f.count > CP_INPUT_COUNT_MAX) {
                warn(s, r, s->c_type, "'%s': GPU host with an unknown GPU bundle; skipped", type);
                return 0;
            }
        }
        const cp_csv_row *add = gcp_addon(s, r, f.acc, cp_num_clamp_int(f.count, 1, CP_INPUT_COUNT_MAX));
        double ap, as;
        if (!add || !cp_csv_number(F(s, add, s->c_price), &ap)) {
            warn(s, r, -1, "'%s': no price for its GPUs in this zone; skipped", type);
            return 0;
        }
        f.price += ap;
        if (f.has_spot && cp_csv_number(F(s, add, s->c_spot), &as) && as > 0)
            f.spot += as;
        else
            f.has_spot = false;
        f.info = F(s, add, s->c_info);
    }
    if (emit(s, r, &f, b) != 0)
        return -1;
    size_t len = strlen(type);
    if (gcp && s->o->n1_gpus && !accname[0] && !strncmp(type, "n1-", 3) &&
        !(len > 4 && !strcmp(type + len - 4, "-tpu")))
        return n1_bundles(s, r, &f, b);
    return 0;
}

/* Repairs or rejects rows whose field count differs from the header's.
 * Returns -1 on out of memory; rejected rows get n = 0. */
static int fix_rows(sky *s)
{
    cp_csv *c = s->csv;
    int nh = c->head.n;
    bool last_gen = nh > 0 && strcmp(c->head.f[nh - 1], "Generation") == 0;
    for (int i = 0; i < c->n_rows; i++) {
        cp_csv_row *r = &c->rows[i];
        if (r->n == nh)
            continue;
        if (r->n > nh && last_gen) {
            cp_buf j;
            cp_buf_init(&j);
            for (int k = nh - 1; k < r->n; k++) {
                cp_buf_puts(&j, k > nh - 1 ? "," : "");
                cp_buf_puts(&j, r->f[k]);
            }
            char *joined = cp_buf_detach(&j);
            if (!joined)
                return -1;
            for (int k = nh - 1; k < r->n; k++)
                cp_free(r->f[k]);
            r->f[nh - 1] = joined;
            r->n = nh;
            continue;
        }
        cp_diags_warn(s->d, cp_csv_pos(c, r), "%d fields, header has %d; row skipped", r->n, nh);
        for (int k = 0; k < r->n; k++)
            cp_free(r->f[k]);
        r->n = 0;
    }
    return 0;
}

/* The provider: the file name's prefix when it names one of SkyPilot's
 * clouds (aws_vms_us-east-1a.csv), else from the columns (gcp with
 * AvailabilityZone, azure with Generation), else the file name up to the
 * first '_' or '.'. */
static char *default_provider(const sky *s, const char *path)
{
    static const char *const clouds[] = {"aws", "gcp", "azure", "lambda", "vast", NULL};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, "_.");
    for (int i = 0; clouds[i]; i++)
        if (n == strlen(clouds[i]) && !strncmp(base, clouds[i], n))
            return cp_strdup(clouds[i]);
    if (s->c_zone >= 0)
        return cp_strdup("gcp");
    if (cp_csv_col(s->csv, "Generation") >= 0)
        return cp_strdup("azure");
    return n ? cp_strndup(base, n) : cp_strdup("cloud");
}

void cp_import_skypilot_opts_init(cp_import_skypilot_opts *o)
{
    o->region = NULL;
    o->zone = NULL;
    o->types = NULL;
    o->accelerators = NULL;
    o->provider = NULL;
    o->site = NULL;
    o->accel_table = NULL;
    o->type_map = NULL;
    o->n_type_map = 0;
    o->spot_rate = NAN;
    o->n1_gpus = true;
}

/* Finds the columns; false when the catalog lacks a required one. */
static bool find_cols(sky *s)
{
    s->c_type = cp_csv_col(s->csv, "InstanceType");
    s->c_acc = cp_csv_col(s->csv, "AcceleratorName");
    s->c_cnt = cp_csv_col(s->csv, "AcceleratorCount");
    s->c_cpu = cp_csv_col(s->csv, "vCPUs");
    s->c_mem = cp_csv_col(s->csv, "MemoryGiB");
    s->c_info = cp_csv_col(s->csv, "GpuInfo");
    s->c_region = cp_csv_col(s->csv, "Region");
    s->c_zone = cp_csv_col(s->csv, "AvailabilityZone");
    s->c_price = cp_csv_col(s->csv, "Price");
    s->c_spot = cp_csv_col(s->csv, "SpotPrice");
    return s->c_type >= 0 && s->c_cpu >= 0 && s->c_mem >= 0 && s->c_price >= 0;
}

/* The fragment: a comment naming the source and the options, the
 * accelerators the offers use (from the canonical table), then the offers
 * (written to `offers` row by row). */
static void sky_yaml(cp_buf *b, const char *path, const cp_import_skypilot_opts *o, const sky *s,
                     const cp_buf *offers)
{
    const char *const flag[] = {"--region",   "--zone", "--types",      "--accelerators",
                                "--provider", "--site", "--accel-table"};
    const char *const val[] = {o->region,   o->zone, o->types,      o->accelerators,
                               o->provider, o->site, o->accel_table};
    cp_buf c;
    cp_buf_init(&c);
    cp_buf_puts(&c, "capplan import skypilot");
    import_cmd_arg(&c, NULL, path);
    for (int i = 0; i < 7; i++)
        import_cmd_arg(&c, flag[i], val[i]);
    for (int i = 0; i < o->n_type_map; i++)
        import_cmd_arg(&c, "--type-map", o->type_map[i]);
    if (o->spot_rate >= 0)
        cp_buf_printf(&c, " --spot-interruptions %g", o->spot_rate);
    if (!o->n1_gpus)
        cp_buf_puts(&c, " --no-n1-gpus");
    cp_yaml_put_comment(b, cp_buf_ok(&c) ? c.s : "capplan import skypilot");
    cp_buf_release(&c);
    cp_buf_puts(b, "# prices in $/hour from the catalog snapshot; accelerators from capplan's "
                   "table (docs/import.md)\n");
    if (s->n_used) {
        cp_buf_puts(b, "accelerators:\n");
        for (int i = 0; i < s->n_used; i++)
            cp_imp_accel_put_yaml(b, &s->tab->a[s->used[i]]);
    }
    if (s->n_names) {
        cp_buf_puts(b, "offers:\n");
        cp_buf_add(b, offers->s, offers->len);
    } else {
        cp_buf_puts(b, "offers: []\n");
    }
}

/* Each --type-map is MEASURED=OFFERED with one '=' (neither name can
 * hold one: 'a=b=c' has no one reading, and label_of would take it as
 * a for the type 'b=c'), each OFFERED at most once. */
static int check_type_map(const cp_import_skypilot_opts *o, cp_diags *d)
{
    for (int i = 0; i < o->n_type_map; i++) {
        const char *m = o->type_map[i], *eq = strchr(m, '=');
        if (!eq || eq == m || !eq[1])
            return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                                "--type-map '%s': expected MEASURED=OFFERED", m);
        if (strchr(eq + 1, '='))
            return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                                "--type-map '%s': expected MEASURED=OFFERED with one '=' "
                                "(a machine type has none)", m);
        for (int j = 0; j < i; j++)
            if (!strcmp(strchr(o->type_map[j], '=') + 1, eq + 1))
                return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                                    "--type-map: offered type '%s' mapped twice", eq + 1);
    }
    return CP_OK;
}

int cp_import_skypilot(const char *path, const cp_import_skypilot_opts *o, cp_buf *out, cp_diags *d)
{
    int rc = CP_OK;
    sky s;
    memset(&s, 0, sizeof s);
    s.d = d;
    s.region = o->region;
    s.zone = o->zone;
    s.site = o->site;
    s.provider = o->provider;
    s.o = o;
    char *provider = NULL, *accs_copy = NULL;
    cp_buf offers, b;
    cp_buf_init(&offers);
    cp_buf_init(&b);
    if ((rc = check_type_map(o, d)) != CP_OK)
        goto out;
    if (!(o->spot_rate >= 0) && !isnan(o->spot_rate)) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                          "--spot-interruptions must be a number >= 0");
        goto out;
    }
    if ((rc = cp_imp_accel_table_load(o->accel_table, &s.tab, d)) != CP_OK)
        goto out;
    if (o->types) {
        if (regcomp(&s.re, o->types, REG_EXTENDED | REG_NOSUB) != 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(), "bad --types regular expression '%s'",
                              o->types);
            goto out;
        }
        s.have_re = true;
    }
    if (o->accelerators) {
        if (!(accs_copy = cp_strdup(o->accelerators)) ||
            !(s.want = cp_calloc(strlen(o->accelerators) + 1, sizeof *s.want)))
            goto nomem;
        for (char *tok = strtok(accs_copy, ","); tok; tok = strtok(NULL, ","))
            s.want[s.n_want++] = tok;
    }
    if ((rc = import_csv_read(path, &s.csv, d)) != CP_OK)
        goto out;
    if (!find_cols(&s)) {
        rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(s.csv, &s.csv->head),
                          "not a SkyPilot catalog: need columns InstanceType, vCPUs, MemoryGiB "
                          "and Price");
        goto out;
    }
    if (!s.provider) {
        if (!(provider = default_provider(&s, path)))
            goto nomem;
        s.provider = provider;
    }
    s.spot_rate = -1;
    for (int i = 0; spot_rates[i].provider; i++)
        if (!strcmp(spot_rates[i].provider, s.provider))
            s.spot_rate = spot_rates[i].rate;
    if (o->spot_rate >= 0)
        s.spot_rate = o->spot_rate;
    if (fix_rows(&s) != 0)
        goto nomem;
    for (int i = 0; i < s.csv->n_rows; i++)
        if (s.csv->rows[i].n && one_row(&s, &s.csv->rows[i], &offers) != 0)
            goto nomem;
    if (s.tpus)
        cp_diags_warn(d, (cp_pos){s.csv->file, 0, 0},
                      "%d TPU rows skipped (not modelled as accelerators)", s.tpus);
    if (s.fractional)
        cp_diags_warn(d, (cp_pos){s.csv->file, 0, 0},
                      "%d rows with a fractional or unreadable GPU count skipped", s.fractional);
    if (s.spot_unrated)
        cp_diags_warn(d, (cp_pos){s.csv->file, 0, 0},
                      "%d spot offers of provider '%s': no published interruption rate, "
                      "spot_interruptions_per_hour left at 0 (spot looks risk-free); set "
                      "--spot-interruptions RATE",
                      s.spot_unrated, s.provider);
    if (!s.n_names)
        cp_diags_warn(d, (cp_pos){path, 0, 0}, "no offers matched");
    if (!cp_buf_ok(&offers))
        goto nomem;
    sky_yaml(&b, path, o, &s, &offers);
    rc = import_deliver(&b, out, d);
    goto out;
nomem:
    rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
out:
    if (s.have_re)
        regfree(&s.re);
    cp_imp_accel_table_free(s.tab);
    cp_free(s.used);
    for (int i = 0; i < s.n_names; i++)
        cp_free(s.names[i]);
    cp_free(s.names);
    cp_free(s.want);
    cp_free(accs_copy);
    cp_free(provider);
    cp_csv_free(s.csv);
    cp_buf_release(&offers);
    cp_buf_release(&b);
    return rc;
}
