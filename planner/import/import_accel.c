/*
 * The canonical accelerator table (cp_imp_accel.h).
 *
 * memory_gb is the vendor's nominal device memory ("GB" on the data
 * sheets, which the catalogs list as GiB: 16384 MiB for a 16 GB V100);
 * power_w is the vendor's maximum board power (TDP) per device: for
 * boards carrying two GPUs that clouds rent one at a time (K80, M60,
 * K520) half the board figure. Vendors publish no idle draw, so no entry
 * has one (the loader's default, 0, applies; a site that measured it
 * sets it through --accel-table). Sources, per entry: the NVIDIA data
 * sheets (nvidia.com, "<product> datasheet"), AMD's product pages
 * (amd.com, Radeon Instinct MI25, Instinct MI300X), and for the GeForce
 * and RTX workstation cards NVIDIA's product specification pages
 * ("Graphics Card Power"). A type without a published figure (AWS's
 * A10G, Radeon Pro V520, GH200's configurable module) has power_w < 0:
 * the importers warn and write no power_w.
 */
#include "cp_imp_accel.h"
#include "import_internal.h"

#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_input.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <ctype.h>

#define NP (-1.0) /* not published */

static const struct {
    const char *name;
    double gb, power;
    const char *spellings;
} builtin[] = {
    /* NVIDIA data-center GPUs */
    {"K80", 12, 150, "K80 Tesla-K80"},    /* board: 24 GB, 300 W, two GK210 */
    {"K520", 4, 112.5, "K520 GRID-K520"}, /* board: 8 GB, 225 W, two GK104 */
    {"M60", 8, 150, "M60 Tesla-M60"},     /* board: 16 GB, 300 W, two GM204 */
    {"P4", 8, 75, "P4 Tesla-P4"},
    {"P40", 24, 250, "P40 Tesla-P40"},
    {"P100", 16, 250, "P100 Tesla-P100"},         /* PCIe, the cloud part */
    {"V100", 16, 300, "V100 V100M16 Tesla-V100"}, /* SXM2 */
    {"V100-32GB", 32, 300, "V100-32GB V100 V100M32"},
    {"T4", 16, 70, "T4 Tesla-T4"},
    {"T4g", 16, 70, "T4g"}, /* AWS g5g: NVIDIA T4G */
    {"A10", 24, 150, "A10"},
    {"A10G", 24, NP, "A10G"}, /* AWS g5: no published figure */
    {"A30", 24, 165, "A30"},
    {"A40", 48, 300, "A40"},
    {"A100", 40, 400, "A100 A100-SXM4-40GB"}, /* SXM4 */
    {"A100-80GB", 80, 400, "A100-80GB A100 A100-SXM4-80GB"},
    {"A800-80GB", 80, 400, "A800-80GB A800-SXM4-80GB A800"},
    {"H100", 80, 700, "H100 H100-SXM"},  /* SXM5 */
    {"H100-MEGA", 80, 700, "H100-MEGA"}, /* GCP a3-megagpu: H100 SXM5 */
    {"H100-NVL", 94, 400, "H100-NVL H100"},
    {"H800", 80, 700, "H800"},
    {"H200", 141, 700, "H200"},
    {"GH200", 96, NP, "GH200"}, /* module power configurable */
    {"B200", 180, 1000, "B200"},
    {"L4", 24, 72, "L4"},
    {"L40", 48, 300, "L40"},
    {"L40S", 48, 350, "L40S"},
    /* NVIDIA workstation and GeForce cards (marketplaces) */
    {"RTX6000", 24, 295, "RTX6000 Quadro-RTX-6000"},
    {"A6000", 48, 300, "A6000 RTXA6000 RTX-A6000"},
    {"RTXA5000", 24, 230, "RTXA5000 A5000"},
    {"RTX6000-Ada", 48, 300, "RTX6000-Ada"},
    {"RTX5880-Ada", 48, 285, "RTX5880-Ada"},
    {"RTXPRO6000WS", 96, 600, "RTXPRO6000WS"},
    {"RTX3060", 12, 170, "RTX3060"},
    {"RTX3090", 24, 350, "RTX3090"},
    {"RTX4060", 8, 115, "RTX4060"},
    {"RTX4070", 12, 200, "RTX4070"},
    {"RTX4090", 24, 450, "RTX4090"},
    {"RTX5070", 12, 250, "RTX5070"},
    {"RTX5090", 32, 575, "RTX5090"},
    /* AMD */
    {"MI25", 16, 300, "MI25"},
    {"MI300X", 192, 750, "MI300X"},
    {"Radeon-Pro-V520", 8, NP, "Radeon-Pro-V520 Radeon_Pro_V520"},
    {NULL, 0, 0, NULL},
};

void cp_imp_accel_table_free(cp_imp_accel_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++) {
        cp_free(t->a[i].name);
        cp_free(t->a[i].spellings);
    }
    cp_free(t->a);
    cp_free(t);
}

static int add(cp_imp_accel_table *t, const char *name, double gb, double pw, double idle,
               const char *spellings)
{
    if (CP_GROW(t->a, t->cap, (size_t)t->n + 1) != 0)
        return -1;
    cp_imp_accel *a = &t->a[t->n];
    a->name = cp_strdup(name);
    a->spellings = cp_strdup(spellings);
    a->memory_gb = gb;
    a->power_w = pw;
    a->idle_power_w = idle;
    if (!a->name || !a->spellings) {
        cp_free(a->name);
        cp_free(a->spellings);
        return -1;
    }
    t->n++;
    return 0;
}

static int find_name(const cp_imp_accel_table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->a[i].name, name) == 0)
            return i;
    return -1;
}

/* An optional number field: "" is "not published" (-1). */
static bool opt_num(const char *s, double *v)
{
    if (!*s) {
        *v = NP;
        return true;
    }
    return cp_csv_number(s, v) && *v >= 0;
}

/* The user's entries, in file order, before the built-in ones. */
static int load_file(cp_imp_accel_table *t, const char *path, cp_diags *d)
{
    cp_csv *csv = NULL;
    int rc = import_csv_read(path, &csv, d);
    if (rc != CP_OK)
        return rc;
    static const char *const names[] = {"name", "memory_gb", "power_w", "idle_power_w",
                                        "spellings"};
    int col[5];
    for (int i = 0; i < 5; i++)
        if ((col[i] = cp_csv_col(csv, names[i])) < 0 && i != 3 && i != 4)
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                              "accelerator table: missing column '%s'", names[i]);
    for (int i = 0; rc == CP_OK && i < csv->n_rows; i++) {
        const cp_csv_row *r = &csv->rows[i];
        const char *name = cp_csv_get(r, col[0]);
        const char *sp = cp_csv_get(r, col[4]);
        double gb, pw, idle;
        if (!*name || strlen(name) > CP_NAME_MAX || strlen(sp) > 4 * CP_NAME_MAX) {
            rc =
                cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, col[!*name ? 0 : 4]),
                             "accelerator table: a name of 1 to %d bytes is required", CP_NAME_MAX);
            break;
        }
        int bad_col = !cp_csv_number(cp_csv_get(r, col[1]), &gb) || !(gb > 0)            ? col[1]
                      : !opt_num(cp_csv_get(r, col[2]), &pw)                             ? col[2]
                      : !opt_num(cp_csv_get(r, col[3]), &idle) || (pw >= 0 && idle > pw) ? col[3]
                                                                                         : -1;
        if (bad_col >= 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, bad_col),
                              "accelerator table: '%s' needs memory_gb > 0, power_w >= 0 or "
                              "empty, idle_power_w <= power_w or empty",
                              name);
            break;
        }
        if (find_name(t, name) >= 0) {
            rc = cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, col[0]),
                              "accelerator table: '%s' listed twice", name);
            break;
        }
        if (add(t, name, gb, pw, idle, sp) != 0)
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    }
    cp_csv_free(csv);
    return rc;
}

int cp_imp_accel_table_load(const char *path, cp_imp_accel_table **out, cp_diags *d)
{
    cp_imp_accel_table *t = cp_calloc(1, sizeof *t);
    if (!t)
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    int rc = path ? load_file(t, path, d) : CP_OK;
    for (int i = 0; rc == CP_OK && builtin[i].name; i++)
        if (find_name(t, builtin[i].name) < 0 &&
            add(t, builtin[i].name, builtin[i].gb, builtin[i].power, NP, builtin[i].spellings))
            rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    if (rc != CP_OK) {
        cp_imp_accel_table_free(t);
        return rc;
    }
    *out = t;
    return CP_OK;
}

/* Whether a and b (n bytes) are one spelling: case, and a blank for '-',
 * ignored ("Radeon Pro V520" is Radeon-Pro-V520). */
static bool same(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char x = a[i] == ' ' ? '-' : a[i], y = b[i] == ' ' ? '-' : b[i];
        if (tolower((unsigned char)x) != tolower((unsigned char)y))
            return false;
    }
    return true;
}

/* Whether the space-separated list holds `word`. */
static bool lists(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, " ");
        if (len == n && same(p, word, n))
            return true;
        p += len;
        p += strspn(p, " ");
    }
    return false;
}

const cp_imp_accel *cp_imp_accel_find(const cp_imp_accel_table *t, const char *spelling,
                                      double mem_gb, int *mem_mismatch)
{
    const cp_imp_accel *first = NULL;
    *mem_mismatch = 0;
    if (!*spelling)
        return NULL;
    for (int i = 0; i < t->n; i++) {
        if (!(strlen(t->a[i].name) == strlen(spelling) &&
              same(t->a[i].name, spelling, strlen(spelling))) &&
            !lists(t->a[i].spellings, spelling))
            continue;
        if (!(mem_gb > 0))
            return &t->a[i];
        if (fabs(mem_gb - t->a[i].memory_gb) <= 0.1 * t->a[i].memory_gb)
            return &t->a[i];
        if (!first)
            first = &t->a[i];
    }
    if (first)
        *mem_mismatch = 1;
    return NULL;
}

void cp_imp_accel_put_yaml(cp_buf *b, const cp_imp_accel *a)
{
    cp_buf_puts(b, "  - {name: ");
    cp_yaml_put_str(b, a->name);
    cp_buf_puts(b, ", memory_gb: ");
    cp_yaml_put_num(b, a->memory_gb);
    if (a->power_w >= 0) {
        cp_buf_puts(b, ", power_w: ");
        cp_yaml_put_num(b, a->power_w);
    }
    if (a->idle_power_w >= 0) {
        cp_buf_puts(b, ", idle_power_w: ");
        cp_yaml_put_num(b, a->idle_power_w);
    }
    cp_buf_puts(b, "}\n");
}

void cp_imp_accel_table_csv(cp_buf *b, const cp_imp_accel_table *t)
{
    cp_buf_puts(b, "name,memory_gb,power_w,idle_power_w,spellings\n");
    for (int i = 0; i < t->n; i++) {
        const cp_imp_accel *a = &t->a[i];
        char num[40];
        cp_csv_put_field(b, a->name);
        cp_yaml_fmt_num(num, sizeof num, a->memory_gb);
        cp_buf_printf(b, ",%s,", num);
        if (a->power_w >= 0) {
            cp_yaml_fmt_num(num, sizeof num, a->power_w);
            cp_buf_puts(b, num);
        }
        cp_buf_putc(b, ',');
        if (a->idle_power_w >= 0) {
            cp_yaml_fmt_num(num, sizeof num, a->idle_power_w);
            cp_buf_puts(b, num);
        }
        cp_buf_putc(b, ',');
        /* the spellings besides the name (the built-in lists start with it) */
        const char *sp = a->spellings;
        size_t len = strcspn(sp, " ");
        if (len == strlen(a->name) && strncmp(sp, a->name, len) == 0)
            sp += len + strspn(sp + len, " ");
        cp_csv_put_field(b, sp);
        cp_buf_putc(b, '\n');
    }
}
