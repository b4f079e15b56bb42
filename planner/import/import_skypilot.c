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
 *    below) and the sum of both prices; GPUs that attach to n1 hosts are
 *    not combined (the host is a free choice; see docs/models.md).
 *  - TPUs and fractional GPUs (count < 1) are not accelerators capplan
 *    models; they are skipped with one summary warning each.
 *  - Accelerator memory comes from GpuInfo's SizeInMiB when present,
 *    else from the nominal table below; an accelerator with neither is
 *    skipped (with its offers), since memory_gb is required.
 * Memory figures are written as the catalog gives them (GiB, the vendors'
 * "GB"); see docs/models.md.
 */
#include "cp_import.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_input.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Nominal device memory (GB) for catalogs without GpuInfo sizes. */
static const struct {
    const char *name;
    double gb;
} known_mem[] = {
    {"A100", 40},      {"A100-80GB", 80}, {"H100", 80},     {"H100-MEGA", 80}, {"H200", 141},
    {"B200", 180},     {"L4", 24},        {"L40", 48},      {"L40S", 48},      {"T4", 16},
    {"V100", 16},      {"V100-32GB", 32}, {"P100", 16},     {"P4", 8},         {"K80", 12},
    {"A10", 24},       {"A10G", 24},      {"A40", 48},      {"A6000", 48},     {"RTX6000", 24},
    {"M60", 8},        {"P40", 24},       {"MI300X", 192},  {"GH200", 96},     {NULL, 0},
};

/* GCP GPU hosts: name prefix -> accelerator; count from the "-Ng" suffix
 * unless fixed. g2 counts follow Google's published shapes. */
static const struct {
    const char *type;
    const char *acc;
    int count; /* 0: from the suffix */
} gcp_hosts[] = {
    {"a2-highgpu-", "A100", 0},   {"a2-megagpu-16g", "A100", 16}, {"a2-ultragpu-", "A100-80GB", 0},
    {"a3-highgpu-", "H100", 0},   {"a3-megagpu-8g", "H100-MEGA", 8},
    {"g2-standard-4", "L4", 1},   {"g2-standard-8", "L4", 1},     {"g2-standard-12", "L4", 1},
    {"g2-standard-16", "L4", 1},  {"g2-standard-24", "L4", 2},    {"g2-standard-32", "L4", 1},
    {"g2-standard-48", "L4", 4},  {"g2-standard-96", "L4", 8},    {NULL, NULL, 0},
};

typedef struct acc {
    char *name;
    double gb; /* 0: unknown */
    bool used;
} acc;

typedef struct sky {
    cp_csv *csv;
    int c_type, c_acc, c_cnt, c_cpu, c_mem, c_info, c_region, c_zone, c_price, c_spot;
    const char *provider, *site, *region, *zone;
    regex_t re;
    bool have_re;
    char **want; /* --accelerators */
    int n_want;
    acc *accs;
    int n_accs;
    size_t accs_cap;
    char **names; /* offer names written, for duplicates */
    int n_names;
    size_t names_cap;
    cp_diags *d; /* the caller's: warnings and errors */
    int tpus, fractional;
} sky;

static const char *F(const sky *s, const cp_csv_row *r, int col)
{
    (void)s; /* reads as F(s, row, s->c_x) at every use */
    return cp_csv_get(r, col);
}

static int find_acc(sky *s, const char *name)
{
    for (int i = 0; i < s->n_accs; i++)
        if (strcmp(s->accs[i].name, name) == 0)
            return i;
    return -1;
}

/* GpuInfo "... 'SizeInMiB': 40960 ..." -> 40 GB; 0 when absent. */
static double info_gb(const char *info)
{
    const char *p = strstr(info, "'SizeInMiB':");
    if (!p)
        return 0;
    double mib = strtod(p + strlen("'SizeInMiB':"), NULL);
    return mib > 0 && isfinite(mib) ? mib / 1024 : 0;
}

/* Registers (or finds) an accelerator; returns its index or -1 (oom). */
static int note_acc(sky *s, const char *name, const char *info)
{
    int i = find_acc(s, name);
    double gb = info_gb(info);
    if (i >= 0) {
        if (s->accs[i].gb == 0)
            s->accs[i].gb = gb;
        return i;
    }
    if (CP_GROW(s->accs, s->accs_cap, (size_t)s->n_accs + 1) != 0)
        return -1;
    acc *a = &s->accs[s->n_accs];
    if (!(a->name = cp_strdup(name)))
        return -1;
    a->gb = gb;
    for (int k = 0; gb == 0 && known_mem[k].name; k++)
        if (strcmp(known_mem[k].name, name) == 0)
            a->gb = known_mem[k].gb;
    a->used = false;
    return s->n_accs++;
}

static bool wanted_acc(const sky *s, const char *name)
{
    if (!s->n_want)
        return true;
    for (int i = 0; i < s->n_want; i++)
        if (name && strcmp(s->want[i], name) == 0)
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

static void warn(sky *s, const cp_csv_row *r, const char *msg, const char *arg)
{
    cp_diags_warn(s->d, cp_csv_pos(s->csv, r), msg, arg);
}

/* Writes one offer for row r, or skips it with a warning. */
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
    double cpus, mem, price, spot = 0, count = 0;
    bool has_spot = false;
    if (!cp_csv_number(F(s, r, s->c_cpu), &cpus) || !(cpus > 0) ||
        !cp_csv_number(F(s, r, s->c_mem), &mem) || !(mem > 0)) {
        warn(s, r, "'%s': no vCPUs or memory; skipped", type);
        return 0;
    }
    if (!cp_csv_number(F(s, r, s->c_price), &price) || price < 0) {
        warn(s, r, "'%s': no price; skipped", type);
        return 0;
    }
    if (cp_csv_number(F(s, r, s->c_spot), &spot) && spot > 0)
        has_spot = true;
    const char *info = F(s, r, s->c_info);
    if (accname[0]) {
        if (strncmp(accname, "tpu-", 4) == 0) {
            s->tpus++;
            return 0;
        }
        if (!cp_csv_number(F(s, r, s->c_cnt), &count) || count != floor(count) || count < 1) {
            s->fractional++;
            return 0;
        }
    } else if (!strcmp(s->provider, "gcp") && (!strncmp(type, "a2-", 3) || !strncmp(type, "a3-", 3) ||
                                            !strncmp(type, "a4-", 3) || !strncmp(type, "g2-", 3))) {
        int k = 0;
        while (gcp_hosts[k].type &&
               (gcp_hosts[k].count ? strcmp(type, gcp_hosts[k].type)
                                   : strncmp(type, gcp_hosts[k].type, strlen(gcp_hosts[k].type))))
            k++;
        if (!gcp_hosts[k].type) {
            warn(s, r, "'%s': GPU host with an unknown GPU bundle; skipped", type);
            return 0;
        }
        accname = gcp_hosts[k].acc;
        count = gcp_hosts[k].count;
        if (!count) { /* a2-highgpu-4g -> 4 */
            char *end;
            count = strtol(type + strlen(gcp_hosts[k].type), &end, 10);
            if (strcmp(end, "g") != 0 || count < 1) {
                warn(s, r, "'%s': GPU host with an unknown GPU bundle; skipped", type);
                return 0;
            }
        }
        const cp_csv_row *add = gcp_addon(s, r, accname, (int)count);
        double ap, as;
        if (!add || !cp_csv_number(F(s, add, s->c_price), &ap)) {
            warn(s, r, "'%s': no price for its GPUs in this zone; skipped", type);
            return 0;
        }
        price += ap;
        if (has_spot && cp_csv_number(F(s, add, s->c_spot), &as) && as > 0)
            spot += as;
        else
            has_spot = false;
        info = F(s, add, s->c_info);
    }
    if (!wanted_acc(s, accname[0] ? accname : NULL))
        return 0;
    int ai = -1;
    if (accname[0]) {
        if ((ai = note_acc(s, accname, info)) < 0)
            return -1;
        if (s->accs[ai].gb == 0) {
            warn(s, r, "accelerator '%s': memory unknown (no GpuInfo size, not in the table); "
                       "offer skipped", accname);
            return 0;
        }
    }
    cp_buf name;
    cp_buf_init(&name);
    cp_buf_printf(&name, "%s:%s:%s", s->provider, zone[0] ? zone : region, type);
    if (!cp_buf_ok(&name))
        return -1;
    /* the loader's limit on strings (CP_NAME_MAX): the fragment must load */
    if (name.len > CP_NAME_MAX || strlen(region) > CP_NAME_MAX || strlen(type) > CP_NAME_MAX ||
        strlen(accname) > CP_NAME_MAX || strlen(s->provider) > CP_NAME_MAX) {
        cp_diags_warn(s->d, cp_csv_pos(s->csv, r),
                      "offer name, region, type or accelerator longer than %d bytes; skipped",
                      CP_NAME_MAX);
        cp_buf_release(&name);
        return 0;
    }
    for (int i = 0; i < s->n_names; i++)
        if (strcmp(s->names[i], name.s) == 0) {
            warn(s, r, "offer '%s' already written; duplicate row skipped", name.s);
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
    if (ai >= 0)
        s->accs[ai].used = true;

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
    cp_yaml_put_str(b, type);
    if (ai >= 0) {
        cp_buf_puts(b, ", accelerator: ");
        cp_yaml_put_str(b, accname);
        cp_buf_puts(b, ", accelerators: ");
        cp_yaml_put_num(b, count);
    }
    cp_buf_puts(b, ", cpus: ");
    cp_yaml_put_num(b, cpus);
    cp_buf_puts(b, ", memory_gb: ");
    cp_yaml_put_num(b, mem);
    cp_buf_puts(b, "}\n    price_hour: ");
    /* Sums of two catalog prices: round away the binary noise. */
    cp_yaml_put_num(b, round(price * 1e9) / 1e9);
    if (has_spot) {
        cp_buf_puts(b, "\n    spot_price_hour: ");
        cp_yaml_put_num(b, round(spot * 1e9) / 1e9);
    }
    cp_buf_putc(b, '\n');
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

static char *default_provider(const sky *s, const char *path)
{
    if (s->c_zone >= 0)
        return cp_strdup("gcp");
    if (cp_csv_col(s->csv, "Generation") >= 0)
        return cp_strdup("azure");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, "_.");
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

/* The fragment: a comment naming the source, the accelerators the
 * offers use, then the offers (written to `offers` row by row). */
static void sky_yaml(cp_buf *b, const char *path, const cp_import_skypilot_opts *o,
                     const sky *s, const cp_buf *offers)
{
    const char *const flag[] = {"--region", "--zone", "--types", "--accelerators", "--provider",
                                "--site"};
    const char *const val[] = {o->region, o->zone, o->types, o->accelerators, o->provider,
                               o->site};
    cp_buf_printf(b, "# capplan import skypilot %s", path);
    for (int i = 0; i < 6; i++)
        if (val[i])
            cp_buf_printf(b, " %s %s", flag[i], val[i]);
    cp_buf_puts(b, "\n# prices in $/hour from the catalog snapshot; memory in GiB as listed\n");
    int used = 0;
    for (int i = 0; i < s->n_accs; i++)
        used += s->accs[i].used;
    if (used) {
        cp_buf_puts(b, "accelerators:\n");
        for (int i = 0; i < s->n_accs; i++) {
            if (!s->accs[i].used)
                continue;
            cp_buf_puts(b, "  - name: ");
            cp_yaml_put_str(b, s->accs[i].name);
            cp_buf_puts(b, "\n    memory_gb: ");
            cp_yaml_put_num(b, s->accs[i].gb);
            cp_buf_putc(b, '\n');
        }
    }
    if (s->n_names) {
        cp_buf_puts(b, "offers:\n");
        cp_buf_add(b, offers->s, offers->len);
    } else {
        cp_buf_puts(b, "offers: []\n");
    }
}

int cp_import_skypilot(const char *path, const cp_import_skypilot_opts *o, cp_buf *out,
                       cp_diags *d)
{
    int rc = CP_OK;
    sky s;
    memset(&s, 0, sizeof s);
    s.d = d;
    s.region = o->region;
    s.zone = o->zone;
    s.site = o->site;
    s.provider = o->provider;
    char *provider = NULL, *accs_copy = NULL;
    cp_buf offers, b;
    cp_buf_init(&offers);
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
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
    if ((rc = cp_csv_read(path, ',', &s.csv, &err)) != CP_OK) {
        cp_diags_add_err(d, &err);
        goto out;
    }
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
    for (int i = 0; i < s.n_accs; i++)
        cp_free(s.accs[i].name);
    cp_free(s.accs);
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
