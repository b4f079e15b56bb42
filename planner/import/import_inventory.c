/*
 * A GPU node list -> on-prem pools (`capplan import inventory`;
 * cp_import.h).
 *
 * Input: Alibaba's cluster-trace-gpu-v2023 node list (sn, cpu_milli,
 * memory_mib, gpu, model; Weng et al., USENIX ATC 2023), columns found by
 * name. Nodes of one shape (model, GPUs, CPUs, memory) become one pool of
 * that many nodes at --site, named SITE/MODELxN-Cc-Mg (MODEL "cpu" for
 * nodes without GPUs, kept with --cpu-nodes); --max-nodes caps each pool
 * for a small example. GPU models are named through the accelerator table
 * (V100M32 -> V100-32GB); a model the table lacks (Alibaba's undisclosed
 * G2, G3) has no memory figure, so its nodes are skipped with one warning
 * per model. The site itself is not written: it comes with its series
 * (`capplan import series`) or the user's inventory, and a site defined
 * twice is an error. Host power is not in the list, so no node power_w is
 * written (the fragment says so). The node names (`sn`) become the pool's
 * `hosts` (capplan.5 §1: what `export slurm` names nodes by), the first
 * `nodes` of them in the list's order; a pool with a name Slurm cannot
 * take, or one name twice, gets no `hosts` and a warning.
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
#include <stdio.h>
#include <string.h>

void cp_import_inventory_opts_init(cp_import_inventory_opts *o)
{
    memset(o, 0, sizeof *o);
}

typedef struct shape {
    const char *model; /* borrowed from the CSV; "" for CPU-only */
    int acc;           /* index in the table; -1 for CPU-only */
    int gpus, nodes;
    double cpus, mem;
    cp_pos pos; /* its first node */
} shape;

static bool wanted(const char *models, const char *m)
{
    if (!models)
        return true;
    size_t n = strlen(m);
    for (const char *p = models; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && !strncmp(p, m, n))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* The pool's `hosts`: the names of the first `nodes` rows of shape k,
 * unless one is not a Slurm host name or comes twice (a warning at it). */
static void put_hosts(cp_buf *b, const cp_csv *csv, int col_sn, const int *row_shape, int k,
                      int nodes, cp_diags *d)
{
    int n = 0, first = -1;
    for (int i = 0; i < csv->n_rows && n < nodes; i++) {
        if (row_shape[i] != k)
            continue;
        const char *sn = cp_csv_get(&csv->rows[i], col_sn);
        const char *why = !cp_host_name_ok(sn) ? "is not a host name (1 to 64 letters, digits, "
                                                 "'.', '_' or '-', not starting with '-')"
                                               : NULL;
        for (int j = first; !why && j >= 0 && j < i; j++)
            if (row_shape[j] == k && !strcmp(cp_csv_get(&csv->rows[j], col_sn), sn))
                why = "comes twice";
        if (why) {
            cp_diags_warn(d, import_field_pos(csv, &csv->rows[i], col_sn),
                          "node name '%s' %s: its pool gets no 'hosts' (export slurm needs "
                          "them)",
                          sn, why);
            return;
        }
        if (first < 0)
            first = i;
        n++;
    }
    cp_buf_puts(b, "\n    hosts: [");
    n = 0;
    for (int i = 0; i < csv->n_rows && n < nodes; i++)
        if (row_shape[i] == k) {
            cp_buf_puts(b, n++ ? ", " : "");
            cp_yaml_put_str(b, cp_csv_get(&csv->rows[i], col_sn));
        }
    cp_buf_putc(b, ']');
}

/* The node list as it is read into shapes. */
typedef struct inv {
    const cp_csv *csv;
    const cp_imp_accel_table *tab;
    int col[4]; /* cpu_milli, memory_mib, gpu, model */
    shape *sh;
    int n_sh;
    int *row_shape; /* each row's shape, -1 when it is in none */
} inv;

/* Row i into its shape (a new one when no other has its figures), or
 * into none: a node of a model not asked for, or one the table lacks (one
 * warning a model). CP_OK, or the error of an unreadable row. */
static int read_row(inv *v, int i, const cp_import_inventory_opts *o, cp_diags *d)
{
    const cp_csv *csv = v->csv;
    const int *col = v->col;
    const cp_csv_row *r = &csv->rows[i];
    shape *sh = v->sh;
    double mc, mib, g;
    long gl = 0;
    v->row_shape[i] = -1;
    const char *model = cp_csv_get(r, col[3]);
    if (!cp_csv_number(cp_csv_get(r, col[0]), &mc) || !(mc > 0) ||
        !cp_csv_number(cp_csv_get(r, col[1]), &mib) || !(mib >= 1) ||
        !cp_csv_number(cp_csv_get(r, col[2]), &g) || !cp_num_is_whole(g, 0, 10000, &gl) ||
        (g > 0) != (*model != 0) || strlen(model) > CP_NAME_MAX / 2) {
        int f = !cp_csv_number(cp_csv_get(r, col[0]), &mc) || !(mc > 0)      ? col[0]
                : !cp_csv_number(cp_csv_get(r, col[1]), &mib) || !(mib >= 1) ? col[1]
                : !cp_csv_number(cp_csv_get(r, col[2]), &g) || g < 0 || g != floor(g) || g > 1e4
                    ? col[2]
                    : col[3];
        return cp_diags_add(d, CP_ERR_INPUT, import_field_pos(csv, r, f),
                            "unreadable node: cpu_milli > 0, memory_mib >= 1, gpu an integer "
                            ">= 0, a model iff gpu > 0");
    }
    if ((!*model && !o->cpu_nodes) || (*model && !wanted(o->models, model)))
        return CP_OK;
    int acc = -1;
    if (*model) {
        int mismatch;
        const cp_imp_accel *a = cp_imp_accel_find(v->tab, model, 0, &mismatch);
        if (!a) {
            bool told = false;
            for (int k = 0; k < v->n_sh && !told; k++)
                told = sh[k].acc == -2 && !strcmp(sh[k].model, model);
            if (!told) {
                cp_diags_warn(d, import_field_pos(csv, r, col[3]),
                              "GPU model '%s' is not in the accelerator table (no memory "
                              "figure): its nodes are skipped (add it with --accel-table)",
                              model);
                sh[v->n_sh++] = (shape){model, -2, 0, 0, 0, 0, cp_csv_pos(csv, r)};
            }
            return CP_OK;
        }
        acc = (int)(a - v->tab->a);
    }
    double cpus = mc / 1000, mem = round(mib / 1024 * 1000) / 1000;
    int k = 0;
    while (k < v->n_sh && !(sh[k].acc == acc && sh[k].acc != -2 && sh[k].gpus == (int)gl &&
                            sh[k].cpus == cpus && sh[k].mem == mem))
        k++;
    if (k == v->n_sh)
        sh[v->n_sh++] = (shape){model, acc, (int)gl, 0, cpus, mem, cp_csv_pos(csv, r)};
    sh[k].nodes++;
    v->row_shape[i] = k;
    return CP_OK;
}

/* The fragment's first line: the command that wrote it. */
static void put_command(cp_buf *b, const char *path, const cp_import_inventory_opts *o)
{
    cp_buf c;
    cp_buf_init(&c);
    cp_buf_puts(&c, "capplan import inventory");
    import_cmd_arg(&c, NULL, path);
    import_cmd_arg(&c, "--site", o->site);
    import_cmd_arg(&c, "--models", o->models);
    if (o->max_nodes > 0)
        cp_buf_printf(&c, " --max-nodes %d", o->max_nodes);
    cp_yaml_put_comment(b, cp_buf_ok(&c) ? c.s : "capplan import inventory");
    cp_buf_release(&c);
}

/* The accelerators the pools use, each once in order of first use (used:
 * room for one a shape). */
static void put_accels(cp_buf *b, const inv *v, int *used)
{
    int n_used = 0;
    for (int k = 0; k < v->n_sh; k++) {
        if (v->sh[k].acc < 0)
            continue;
        int u = 0;
        while (u < n_used && used[u] != v->sh[k].acc)
            u++;
        if (u == n_used)
            used[n_used++] = v->sh[k].acc;
    }
    if (n_used) {
        cp_buf_puts(b, "accelerators:\n");
        for (int u = 0; u < n_used; u++)
            cp_imp_accel_put_yaml(b, &v->tab->a[used[u]]);
    }
}

/* Shape k as a pool, after "pools:" when it is the first (*pools counts
 * them); a name past the loader's limit is skipped with a warning. */
static void put_pool(cp_buf *b, const inv *v, int k, int col_sn, const cp_import_inventory_opts *o,
                     int *pools, cp_diags *d)
{
    const shape *s = &v->sh[k];
    const cp_imp_accel_table *tab = v->tab;
    /* the shortest text that reads back as each figure: shapes that
     * differ past %g's six digits (cpu_milli 1234567 and 1234568)
     * got one name, a pool the loader refuses as defined twice */
    char nm[2 * CP_NAME_MAX + 160], cpus[48], mem[48];
    cp_yaml_fmt_num(cpus, sizeof cpus, s->cpus);
    cp_yaml_fmt_num(mem, sizeof mem, s->mem);
    snprintf(nm, sizeof nm, "%s/%sx%d-%sc-%sg", o->site, s->acc >= 0 ? tab->a[s->acc].name : "cpu",
             s->gpus, cpus, mem);
    if (strlen(nm) > CP_NAME_MAX) { /* the loader's limit */
        cp_diags_warn(d, s->pos, "pool name longer than %d bytes; skipped", CP_NAME_MAX);
        return;
    }
    if (!(*pools)++)
        cp_buf_puts(b, "pools:\n");
    cp_buf_puts(b, "  - name: ");
    cp_yaml_put_str(b, nm);
    cp_buf_puts(b, "\n    site: ");
    cp_yaml_put_str(b, o->site);
    int nodes = o->max_nodes > 0 && s->nodes > o->max_nodes ? o->max_nodes : s->nodes;
    cp_buf_printf(b, "\n    nodes: %d", nodes);
    if (o->max_nodes > 0 && s->nodes > o->max_nodes)
        cp_buf_printf(b, "  # %d in the list", s->nodes);
    if (col_sn >= 0)
        put_hosts(b, v->csv, col_sn, v->row_shape, k, nodes, d);
    cp_buf_puts(b, "\n    node: {");
    if (s->acc >= 0) {
        cp_buf_puts(b, "accelerator: ");
        cp_yaml_put_str(b, tab->a[s->acc].name);
        cp_buf_printf(b, ", accelerators: %d, ", s->gpus);
    }
    cp_buf_puts(b, "cpus: ");
    cp_yaml_put_num(b, s->cpus);
    cp_buf_puts(b, ", memory_gb: ");
    cp_yaml_put_num(b, s->mem);
    cp_buf_puts(b, "}\n");
}

int cp_import_inventory(const char *path, const cp_import_inventory_opts *o, cp_buf *out,
                        cp_diags *d)
{
    int rc = CP_OK;
    cp_csv *csv = NULL;
    cp_imp_accel_table *tab = NULL;
    inv v = {0};
    int *used = NULL;
    cp_buf b;
    cp_buf_init(&b);
    if (!o->site || !*o->site || strlen(o->site) > CP_NAME_MAX)
        return cp_diags_add(d, CP_ERR_INPUT, cp_pos_none(),
                            "--site NAME is required (1 to %d bytes)", CP_NAME_MAX);
    if ((rc = cp_imp_accel_table_load(o->accel_table, &tab, d)) != CP_OK)
        goto out;
    if ((rc = import_csv_read(path, &csv, d)) != CP_OK)
        goto out;
    v.csv = csv;
    v.tab = tab;
    static const char *const names[] = {"cpu_milli", "memory_mib", "gpu", "model"};
    for (int i = 0; i < 4; i++)
        if ((v.col[i] = cp_csv_col(csv, names[i])) < 0)
            rc = cp_diags_add(d, CP_ERR_INPUT, cp_csv_pos(csv, &csv->head),
                              "missing column '%s' (an Alibaba node list has sn, cpu_milli, "
                              "memory_mib, gpu, model)",
                              names[i]);
    if (rc != CP_OK)
        goto out;
    int col_sn = cp_csv_col(csv, "sn");
    if (csv->n_rows && (!(v.sh = cp_calloc((size_t)csv->n_rows, sizeof *v.sh)) ||
                        !(used = cp_calloc((size_t)csv->n_rows, sizeof *used)) ||
                        !(v.row_shape = cp_calloc((size_t)csv->n_rows, sizeof *v.row_shape)))) {
        rc = cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
        goto out;
    }
    for (int i = 0; i < csv->n_rows; i++) {
        int r = read_row(&v, i, o, d);
        if (r != CP_OK)
            rc = r;
    }
    if (rc != CP_OK)
        goto out;
    put_command(&b, path, o);
    cp_buf_puts(&b, "# one pool per node shape; the list has no host power, so no node power_w\n");
    put_accels(&b, &v, used);
    int pools = 0;
    for (int k = 0; k < v.n_sh; k++)
        if (v.sh[k].acc != -2)
            put_pool(&b, &v, k, col_sn, o, &pools, d);
    if (!pools) {
        cp_diags_warn(d, (cp_pos){path, 0, 0}, "no nodes matched");
        cp_buf_puts(&b, "pools: []\n");
    }
    rc = import_deliver(&b, out, d);
out:
    cp_free(v.sh);
    cp_free(used);
    cp_free(v.row_shape);
    cp_csv_free(csv);
    cp_imp_accel_table_free(tab);
    cp_buf_release(&b);
    return rc;
}

int cp_import_accelerators(const char *accel_table, cp_buf *out, cp_diags *d)
{
    cp_imp_accel_table *tab = NULL;
    int rc = cp_imp_accel_table_load(accel_table, &tab, d);
    if (rc != CP_OK)
        return rc;
    cp_buf b;
    cp_buf_init(&b);
    cp_imp_accel_table_csv(&b, tab);
    cp_imp_accel_table_free(tab);
    rc = import_deliver(&b, out, d);
    cp_buf_release(&b);
    return rc;
}
