/*
 * libFuzzer harness for the importers (planner/import/, docs/import.md): the
 * first byte picks the importer and its options, the rest is its file.
 *   e, E  `import series --energy-price FILE` (E: --column, --scale,
 *         two-hour slots, a UTC start); c, C `--carbon FILE` (C: half-hour
 *         slots, --pue, a start with an offset)
 *   i, I  `import inventory FILE` (I: --cpu-nodes, --models, --max-nodes)
 *   p, P  `import pollux FILE` (P: --all-counts, --local-bsz 32)
 *   h, H  `import pollux` of a fixed placements.csv with the file as
 *         --trace (H: --cluster, --max-jobs, --start)
 *   t     `import gavel` of a fixed throughput table with the file as
 *         --trace
 *   a     `import accelerators --accel-table FILE`; A `import inventory`
 *         of a fixed node list with the file as --accel-table
 * Oracle: no sanitizer report, no leak; the contract of cp_import.h (CP_OK,
 * CP_ERR_INPUT, CP_ERR_IO or CP_ERR_NOMEM, the first error's code in the
 * diagnostics, a fragment only on success), and the property of
 * fuzz_fitout: a fragment written with success parses and loads through
 * cp_input_from_trees, merged with a base input of what the importer
 * leaves to the user (a horizon, the inventory's site).
 */
#include "cp_import.h"
#include "cp_input.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static char path[300], fixed[300];
static cp_diags *diags; /* large: allocated once */
static FILE *devnull;

/* Lines of Pollux's cifar10/placements.csv (Apache-2.0), of
 * Gavel's isolated_throughputs.csv (MIT) and of Alibaba's
 * v2023_openb_node_list_all_node.csv (examples/data), for the
 * selectors whose fuzzed file is the second input. */
static const char placements[] = "placement,local_bsz,step_time,sync_time\n"
                                 "1,32,0.0427886962890625,0.0004995360016822816\n"
                                 "2,32,0.04904515743255615,0.004241296052932739\n"
                                 "4,32,0.05821514129638672,0.01432212142944336\n"
                                 "11,32,0.1038327932357788,0.0617830852508545\n"
                                 "22,32,0.147501540184021,0.10572534713745116\n";
static const char throughputs[] = "worker_type,job_type,scale_factor,throughput_steps_per_s\n"
                                  "k80,ResNet-18 (batch size 16),1,4.795294551566172\n"
                                  "k80,ResNet-18 (batch size 16),2,8.758230831811566\n"
                                  "p100,ResNet-18 (batch size 16),1,35.869203207990005\n"
                                  "v100,ResNet-18 (batch size 16),1,32.353384328946916\n"
                                  "v100,ResNet-18 (batch size 16),2,100.14206200421837\n"
                                  "k80,Transformer (batch size 128),1,0.9815827061299781\n"
                                  "p100,Transformer (batch size 128),1,3.0735350560514787\n"
                                  "v100,Transformer (batch size 128),1,5.44610521981264\n"
                                  "v100,Transformer (batch size 128),2,10.069238394742342\n";
static const char nodes[] = "sn,cpu_milli,memory_mib,gpu,model\n"
                            "openb-node-0000,32000,262144,0,\n"
                            "openb-node-0123,64000,262144,2,P100\n"
                            "openb-node-0229,96000,786432,8,V100M32\n"
                            "openb-node-0234,96000,393216,8,G2\n"
                            "openb-node-0243,96000,393216,4,T4\n";

static void cleanup(void)
{
    unlink(path);
    unlink(fixed);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/capplan-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz_import: mkdtemp");
        abort();
    }
    snprintf(path, sizeof path, "%s/in.csv", dir);
    snprintf(fixed, sizeof fixed, "%s/fixed.csv", dir);
    atexit(cleanup);
    if (!(diags = malloc(sizeof *diags)) || !(devnull = fopen("/dev/null", "w"))) {
        perror("fuzz_import: setup");
        abort();
    }
    return 0;
}

static void put(const char *p, const void *data, size_t size)
{
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror("fuzz_import: writing the input");
        abort();
    }
}

/* The property: the fragment parses and merges with `base`. */
static void loads_back(const char *who, const char *base, const cp_buf *b)
{
    cp_node *roots[2] = {NULL, NULL};
    int n = 0;
    cp_diags_init(diags);
    if (*base && cp_yaml_load_string("base.yaml", base, strlen(base), &roots[n++], diags) != CP_OK)
        goto out; /* only out of memory: the bases are fixed */
    cp_diags_init(diags);
    int rc = cp_yaml_load_string("fragment.yaml", b->s, b->len, &roots[n++], diags);
    if (rc == CP_OK) {
        cp_input *in = NULL;
        cp_diags_init(diags);
        rc = cp_input_from_trees(roots, n, &in, diags);
        cp_input_free(in);
    }
    if (rc != CP_OK && rc != CP_ERR_NOMEM) {
        fprintf(stderr,
                "fuzz_import: %s wrote a fragment that does not load:\n%.*s\n--- base\n%s\n", who,
                (int)b->len, b->s, base);
        cp_diags_print(diags, stderr);
        abort();
    }
out:
    for (int i = 0; i < 2; i++)
        cp_node_free(roots[i]);
}

/* The contract of cp_import.h, then the property on success. */
static void check(const char *who, int rc, cp_buf *b, const char *base)
{
    cp_diags_print(diags, devnull); /* the printer is fuzzed too */
    bool known = rc == CP_OK || rc == CP_ERR_INPUT || rc == CP_ERR_IO || rc == CP_ERR_NOMEM;
    if (!known || rc != diags->worst || (rc == CP_OK) != (b->len > 0)) {
        fprintf(stderr, "fuzz_import: %s returned %d, diagnostics say %d, %zu bytes out\n", who, rc,
                diags->worst, b->len);
        abort();
    }
    if (rc == CP_OK && base)
        loads_back(who, base, b);
    cp_buf_release(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char sel = (char)data[0];
    put(path, data + 1, size - 1);
    cp_buf b;
    cp_buf_init(&b);
    cp_diags_init(diags);
    static const char horizon[] = "horizon: {slots: 4}\n";
    switch (sel) {
    case 'e':
    case 'E':
    case 'c':
    case 'C': {
        cp_import_series_opts o;
        cp_import_series_opts_init(&o);
        o.site = "dc";
        o.horizon = true;
        o.start = "2023-06-01T00:00";
        o.slots = 24;
        if (sel == 'E') {
            o.column = "Price (SGD/MWh)";
            o.scale = 0.74;
            o.slot_hours = 2;
            o.slots = 6;
            o.start = "2023-06-01T00:00Z";
        } else if (sel == 'C') {
            o.slot_hours = 0.5;
            o.slots = 12;
            o.pue = 1.2;
            o.start = "2020-06-01 01:00+01:00";
        }
        if (sel == 'e' || sel == 'E')
            o.energy_price = path;
        else
            o.carbon = path;
        check("import series", cp_import_series(&o, &b, diags), &b, "");
        break;
    }
    case 'i':
    case 'I':
    case 'A': {
        cp_import_inventory_opts o;
        cp_import_inventory_opts_init(&o);
        o.site = "dc";
        const char *in = path;
        if (sel == 'I') {
            o.cpu_nodes = true;
            o.models = "T4,P100,V100M32,G2";
            o.max_nodes = 2;
        } else if (sel == 'A') {
            put(fixed, nodes, sizeof nodes - 1);
            in = fixed;
            o.accel_table = path;
            o.cpu_nodes = true;
        }
        check("import inventory", cp_import_inventory(in, &o, &b, diags), &b,
              "horizon: {slots: 4}\nsites: [{name: dc}]\n");
        break;
    }
    case 'p':
    case 'P':
    case 'h':
    case 'H': {
        cp_import_pollux_opts o;
        cp_import_pollux_opts_init(&o);
        o.app = "app";
        const char *in = path;
        if (sel == 'P') {
            o.all_counts = true;
            o.local_bsz = 32;
        } else if (sel == 'h' || sel == 'H') {
            put(fixed, placements, sizeof placements - 1);
            in = fixed;
            o.trace = path;
            if (sel == 'H') {
                o.cluster = "6214e9";
                o.max_jobs = 5;
                o.start = "2017-10-09T00:00";
                o.all_counts = true;
            }
        }
        check("import pollux", cp_import_pollux(in, &o, &b, diags), &b, horizon);
        break;
    }
    case 't': {
        cp_import_gavel_opts o;
        cp_import_gavel_opts_init(&o);
        put(fixed, throughputs, sizeof throughputs - 1);
        o.trace = path;
        check("import gavel --trace", cp_import_gavel(fixed, &o, &b, diags), &b, horizon);
        break;
    }
    case 'a':
        /* a CSV table, not YAML: the contract only */
        check("import accelerators", cp_import_accelerators(path, &b, diags), &b, NULL);
        break;
    default:
        break;
    }
    return 0;
}
