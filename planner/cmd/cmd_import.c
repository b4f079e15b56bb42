/*
 * capplan import skypilot|gavel|c3o|inventory|pollux|zeus FILE [options],
 * capplan import series|accelerators [options]
 *
 * The command over the importers of planner/import/cp_import.h: it parses
 * the options into the importer's options struct, runs the importer,
 * prints its diagnostics once (warnings about skipped rows name
 * FILE:LINE), and writes the text to -o FILE (atomically) or standard
 * output. Exit status 0 when written, 2 for bad usage or input, 1 when
 * memory runs out or the output cannot be written.
 *
 * Each importer declares its options as a table (cp_opt.h) pointing into
 * its options struct: the parser, --help and the checks below (UTF-8
 * values, files read as inputs) all follow from it.
 */
#include "cp_cmd.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_buf.h"
#include "cp_csv.h"
#include "cp_import.h"
#include "cp_suggest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: capplan import skypilot VMS.csv [-o FILE] [--region R] [--zone Z]\n"
    "                      [--types REGEX] [--accelerators A,B] [--provider P] [--site S]\n"
    "                      [--type-map MEASURED=OFFERED]... [--spot-interruptions RATE]\n"
    "                      [--no-n1-gpus] [--accel-table FILE]\n"
    "       capplan import gavel THROUGHPUTS.csv|json [-o FILE] [--match REGEX]\n"
    "                      [--trace TRACE] [--work STEPS]\n"
    "                      [--scaling per-type|shared|amdahl] [--unconsolidated]\n"
    "                      [--accel-table FILE]\n"
    "       capplan import c3o FILE.tsv [-o FILE] [--job NAME]\n"
    "       capplan import series --site NAME --start TIME --slots N [--slot-hours H]\n"
    "                      [--energy-price FILE] [--carbon FILE] [--column NAME]\n"
    "                      [--scale X] [--pue P] [--horizon] [-o FILE]\n"
    "       capplan import inventory NODES.csv --site NAME [--max-nodes N]\n"
    "                      [--accel-table FILE] [-o FILE]\n"
    "       capplan import pollux placements.csv [--trace PHILLY.csv] [options]\n"
    "       capplan import zeus summary_power_GPU.csv --network NAME --batch-size N\n"
    "                      [--dataset NAME] [--optimizer NAME] [--accelerator NAME]\n"
    "                      [--accel-table FILE] [-o FILE]\n"
    "       capplan import accelerators [--accel-table FILE] [-o FILE]\n"
    "\n"
    "skypilot     catalog rows -> accelerators: and offers: (run 'capplan import\n"
    "             skypilot --help' for the details)\n"
    "gavel        per job type: throughput on one GPU per type and a speedup table\n"
    "             per type from the measured GPU counts; with --trace, one job per\n"
    "             trace line with the trace's steps as its work and GPU count\n"
    "c3o          a C3O TSV -> CSV job,type,machines,input_gb,seconds for 'fit dataflow'\n"
    "series       an hourly price or carbon series -> a site's series over the\n"
    "             horizon's slots (green-dcc, lets-wait-awhile, Electricity Maps)\n"
    "inventory    Alibaba's GPU node list -> one pool per node shape\n"
    "pollux       Pollux's step times -> a job's throughput per GPU count; with\n"
    "             --trace, Philly's jobs with the work of their measured durations\n"
    "zeus         Zeus's epoch time and power per GPU power limit -> a training\n"
    "             job's power_limits (the limits no other beats on time and energy)\n"
    "accelerators the accelerator table the importers name types from, as the CSV\n"
    "             that --accel-table reads (edit it to add or correct a type)\n"
    "\n"
    "Options may come before, between or after the input; '--' ends them.\n"
    "-q, --quiet is accepted (import prints only warnings and errors).\n"
    "Details: docs/import.md; the full reference: man ./capplan.1 in the\n"
    "source tree.\n";


/* The end of every importer's help. */
#define IMPORT_FOOT                                                                                \
    "\n"                                                                                           \
    "Options may come before, between or after the input; '--' ends them.\n"                     \
    "Details: docs/import.md; the full reference: man ./capplan.1 in the source tree.\n"

/* --accel-table FILE of every importer that names accelerators. */
#define ACCEL_TABLE_OPT(p)                                                                         \
    CP_OPT_FILE(0, "accel-table", p, "FILE", "add or replace accelerator table entries (CSV)")

/* The most options an importer has, with the common ones and the end. */
#define MAX_OPTS 16

/* The command line of one import: the input, -o, the importer's options
 * and the table that points into them. */
typedef struct args {
    const char *in, *out;
    cp_opt_list type_map;
    int scaling; /* gavel's --scaling: cp_cli_scalings */
    union {
        cp_import_skypilot_opts sky;
        cp_import_gavel_opts gavel;
        cp_import_c3o_opts c3o;
        cp_import_series_opts series;
        cp_import_inventory_opts inv;
        cp_import_pollux_opts pollux;
        cp_import_zeus_opts zeus;
        const char *accel_table; /* import accelerators */
    } o;
    cp_opt table[MAX_OPTS];
    cp_opt common[3]; /* -o and -q: every importer's, after its own */
} args;

/* One importer as a subcommand: its help, its options and how to run it. */
typedef struct importer {
    const char *name;
    cp_cli_help help;
    const char *one_input; /* the error for a second input; NULL: takes no input */
    /* Sets the defaults and a->table (ending with a->common). */
    void (*init)(args *a);
    int (*run)(const args *a, cp_buf *out, cp_diags *d);
} importer;

/* The importer's table: t (n entries, its own options), then the common. */
static void set_table(args *a, const cp_opt *t, size_t n)
{
    const cp_opt common[] = {
        CP_OPT_STRING('o', NULL, &a->out, "FILE", "write there (atomically); default stdout"),
        CP_OPT_QUIET("accepted: import prints only warnings and errors"),
        CP_OPT_END(),
    };
    memcpy(a->common, common, sizeof common);
    memcpy(a->table, t, n * sizeof *t);
    a->table[n] = (cp_opt)CP_OPT_INCLUDE(a->common);
    a->table[n + 1] = (cp_opt)CP_OPT_END();
}
#define SET_TABLE(a, t)                                                                            \
    do {                                                                                           \
        _Static_assert(sizeof(t) / sizeof(t)[0] + 2 <= MAX_OPTS, "too many import options");      \
        set_table(a, t, sizeof(t) / sizeof(t)[0]);                                                 \
    } while (0)

/* ---- skypilot ---- */

static const char skypilot_head[] =
    "usage: capplan import skypilot VMS.csv [-o FILE] [--region R] [--zone Z]\n"
    "                      [--types REGEX] [--accelerators A,B] [--provider P] [--site S]\n"
    "                      [--type-map MEASURED=OFFERED]... [--spot-interruptions RATE]\n"
    "                      [--no-n1-gpus] [--accel-table FILE]\n"
    "\n"
    "Reads a SkyPilot catalog vms.csv (any provider's column order) and writes\n"
    "`accelerators:` (from capplan's accelerator table: name, memory_gb, power_w)\n"
    "and `offers:` (one per instance type and zone or region, named\n"
    "PROVIDER:ZONE_OR_REGION:TYPE, GCP n1 hosts with GPUs as ...:TYPE:KxGPU, with\n"
    "price_hour and, when the catalog has one above 0, spot_price_hour and the\n"
    "provider's published spot_interruptions_per_hour).\n"
    "\n";

static void sky_init(args *a)
{
    cp_import_skypilot_opts *o = &a->o.sky;
    cp_import_skypilot_opts_init(o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "region", &o->region, "R", "keep rows of that region"),
        CP_OPT_STRING(0, "zone", &o->zone, "Z", "keep rows of that availability zone"),
        CP_OPT_STRING(0, "types", &o->types, "REGEX",
                      "keep instance types matching REGEX (extended)"),
        CP_OPT_STRING(0, "accelerators", &o->accelerators, "A,B",
                      "keep offers with these accelerators only"),
        CP_OPT_STRING(0, "provider", &o->provider, "P",
                      "provider name (default: the file name's prefix when it is aws, gcp, "
                      "azure, lambda or vast; else gcp when the catalog has AvailabilityZone, "
                      "azure when it has Generation, else the file name up to '_' or '.')"),
        CP_OPT_STRING(0, "site", &o->site, "S", "set each offer's site (for carbon accounting)"),
        CP_OPT_LIST(0, "type-map", &a->type_map, "M=O",
                    "label offers of type O with machine type M (the type a dataflow runtime "
                    "model was measured on); repeatable"),
        CP_OPT_DOUBLE(0, "spot-interruptions", &o->spot_rate, 0, "RATE",
                      "interruptions per instance-hour for every spot offer (default: AWS "
                      "0.05/730, GCP 0.10/24, else none)"),
        CP_OPT_UNSET(0, "no-n1-gpus", &o->n1_gpus, "GCP: no n1 host + attachable GPU offers"),
        ACCEL_TABLE_OPT(&o->accel_table),
    };
    SET_TABLE(a, t);
}

static int sky_run(const args *a, cp_buf *out, cp_diags *d)
{
    cp_import_skypilot_opts o = a->o.sky;
    o.type_map = a->type_map.v;
    o.n_type_map = a->type_map.n;
    return cp_import_skypilot(a->in, &o, out, d);
}

/* ---- gavel ---- */

static const char gavel_head[] =
    "usage: capplan import gavel THROUGHPUTS.csv|json [-o FILE] [--match REGEX]\n"
    "                      [--trace TRACE] [--work STEPS] [--max-jobs N]\n"
    "                      [--scaling per-type|shared|amdahl] [--unconsolidated]\n"
    "                      [--preemptible] [--cpus-per-accelerator N]\n"
    "                      [--memory-per-accelerator GB] [--accel-table FILE]\n"
    "\n"
    "Reads Gavel's measured throughputs (steps/s per worker type, job type and\n"
    "GPU count) and writes per job type a training job with its throughput on\n"
    "one GPU per type and a scaling from the measured GPU counts, and their\n"
    "`accelerators:`; with --trace, one job per trace line with the trace's\n"
    "steps as its work and its GPU count. Gavel has no host figures: give each\n"
    "job's CPUs and memory per GPU, and whether it may run on spot, here.\n"
    "Measurements of 0 (the job cannot run on that type) are left out with one\n"
    "warning naming them.\n"
    "\n";

static void gavel_init(args *a)
{
    cp_import_gavel_opts *o = &a->o.gavel;
    cp_import_gavel_opts_init(o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "match", &o->match, "REGEX", "keep job types matching REGEX (extended)"),
        CP_OPT_FILE(0, "trace", &o->trace, "TRACE",
                    "one job per trace line, with the trace's steps as its work"),
        CP_OPT_DOUBLE_ABOVE(0, "work", &o->work, 0, "STEPS",
                            "each job's work without a trace (default 100000)"),
        CP_OPT_ENUM(0, "scaling", &a->scaling, cp_cli_scalings, NULL,
                    "per-type (default; also 'table'): a speedup table per type; shared: one "
                    "table of the types' mean speedups; amdahl: Amdahl's law"),
        CP_OPT_BOOL(0, "unconsolidated", &o->unconsolidated,
                    "keep Gavel's *_unconsolidated worker types"),
        CP_OPT_INT(0, "max-jobs", &o->max_jobs, 1, 10000000, "N",
                   "at most N jobs (the first job types, or trace lines)"),
        CP_OPT_BOOL(0, "preemptible", &o->preemptible,
                    "every job may use spot markets (preemptible: true)"),
        CP_OPT_DOUBLE_ABOVE(0, "cpus-per-accelerator", &o->cpus_per_acc, 0, "N",
                            "each job's CPUs per GPU (cpus_per_accelerator)"),
        CP_OPT_DOUBLE_ABOVE(0, "memory-per-accelerator", &o->mem_per_acc, 0, "GB",
                            "each job's host memory per GPU (memory_gb_per_accelerator)"),
        ACCEL_TABLE_OPT(&o->accel_table),
    };
    SET_TABLE(a, t);
}

static int gavel_run(const args *a, cp_buf *out, cp_diags *d)
{
    cp_import_gavel_opts o = a->o.gavel;
    o.amdahl = a->scaling == CP_CLI_SCALING_AMDAHL;
    o.shared = a->scaling == CP_CLI_SCALING_SHARED;
    return cp_import_gavel(a->in, &o, out, d);
}

/* ---- c3o ---- */

static const char c3o_head[] =
    "usage: capplan import c3o FILE.tsv [-o FILE] [--job NAME]\n"
    "\n"
    "Reads a C3O runtime file (TSV) and writes the CSV samples of 'capplan fit\n"
    "dataflow': job,type,machines,input_gb,seconds (input_gb = data_size_MB /\n"
    "1000), then the job's parameter columns as measured (for --params).\n"
    "\n";

static void c3o_init(args *a)
{
    cp_import_c3o_opts_init(&a->o.c3o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "job", &a->o.c3o.job, "NAME",
                      "the job's name (default: the file's base name)"),
    };
    SET_TABLE(a, t);
}

static int c3o_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_c3o(a->in, &a->o.c3o, out, d);
}

/* ---- series ---- */

static const char series_head[] =
    "usage: capplan import series --site NAME --start TIME --slots N [--slot-hours H]\n"
    "                      [--energy-price FILE] [--carbon FILE] [--column NAME]\n"
    "                      [--scale X] [--pue P] [--horizon] [-o FILE]\n"
    "\n"
    "Writes one site with energy_price ($/kWh, from a price series per MWh) and/or\n"
    "carbon_intensity (gCO2/kWh) over N slots of H hours (default 1) from TIME\n"
    "(2023-06-01T00:00; an offset like -05:00 is converted to UTC, none is taken\n"
    "as written): each slot holds the time-weighted mean of the samples in it.\n"
    "\n";

static void series_init(args *a)
{
    cp_import_series_opts *o = &a->o.series;
    cp_import_series_opts_init(o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "site", &o->site, "NAME", "the site's name (required)"),
        CP_OPT_STRING(0, "start", &o->start, "TIME", "the horizon's slot 0 (required)"),
        CP_OPT_INT(0, "slots", &o->slots, 1, 10000, "N", "the horizon's slots (required)"),
        CP_OPT_DOUBLE_ABOVE(0, "slot-hours", &o->slot_hours, 0, "H",
                            "hours per slot (default 1)"),
        CP_OPT_FILE(0, "energy-price", &o->energy_price, "FILE", "a price series (per MWh)"),
        CP_OPT_FILE(0, "carbon", &o->carbon, "FILE", "a carbon series (gCO2/kWh)"),
        CP_OPT_STRING(0, "column", &o->column, "NAME",
                      "the value column (default: the first named Price... or Carbon "
                      "Intensity..., else the second column)"),
        CP_OPT_DOUBLE(0, "scale", &o->scale, 0, "X",
                      "USD per unit of the price's currency (default 1)"),
        CP_OPT_DOUBLE(0, "pue", &o->pue, 1, "P", "the site's PUE"),
        CP_OPT_BOOL(0, "horizon", &o->horizon, "also write horizon: {slots, slot_hours, start}"),
    };
    SET_TABLE(a, t);
}

static int series_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_series(&a->o.series, out, d);
}

/* ---- inventory ---- */

static const char inventory_head[] =
    "usage: capplan import inventory NODES.csv --site NAME [--models A,B]\n"
    "                      [--max-nodes N] [--cpu-nodes] [--accel-table FILE] [-o FILE]\n"
    "\n"
    "Reads Alibaba's GPU node list (sn,cpu_milli,memory_mib,gpu,model) and writes\n"
    "one pool per node shape at site NAME (defined elsewhere, e.g. by 'capplan\n"
    "import series'), with the accelerators from capplan's accelerator table.\n"
    "\n";

static void inventory_init(args *a)
{
    cp_import_inventory_opts *o = &a->o.inv;
    cp_import_inventory_opts_init(o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "site", &o->site, "NAME", "the pools' site (required)"),
        CP_OPT_STRING(0, "models", &o->models, "A,B",
                      "keep nodes of these GPU models (the list's spelling)"),
        CP_OPT_INT(0, "max-nodes", &o->max_nodes, 1, 1000000, "N",
                   "at most N nodes per pool (a small example)"),
        CP_OPT_BOOL(0, "cpu-nodes", &o->cpu_nodes, "keep the nodes without GPUs too"),
        ACCEL_TABLE_OPT(&o->accel_table),
    };
    SET_TABLE(a, t);
}

static int inventory_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_inventory(a->in, &a->o.inv, out, d);
}

/* ---- pollux ---- */

static const char pollux_head[] =
    "usage: capplan import pollux placements.csv|scalability.csv [--app NAME]\n"
    "                      [--local-bsz B] [--all-counts] [--work SAMPLES]\n"
    "                      [--trace PHILLY.csv [--cluster ID] [--start TIME] [--max-jobs N]]\n"
    "                      [--accelerator T4] [--accel-table FILE] [-o FILE]\n"
    "\n"
    "Reads Pollux's step times (samples/s = local_bsz x GPUs / step_time, the best\n"
    "placement per GPU count, one batch size) and writes a training job with the\n"
    "one-GPU throughput and a speedup table for the GPU counts 1, 2, 4, 8, ...;\n"
    "with --trace, one job per line of the Philly trace extract, its work the\n"
    "samples it processes in its measured duration on its GPU count.\n"
    "\n";

static void pollux_init(args *a)
{
    cp_import_pollux_opts *o = &a->o.pollux;
    cp_import_pollux_opts_init(o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "app", &o->app, "NAME",
                      "the job's name (default: the input's folder, e.g. bert)"),
        CP_OPT_DOUBLE_ABOVE(0, "local-bsz", &o->local_bsz, 0, "B",
                            "the per-GPU batch size (default: the one measured at the most GPU "
                            "counts, the largest of those)"),
        CP_OPT_BOOL(0, "all-counts", &o->all_counts,
                    "every measured GPU count, not only powers of two"),
        CP_OPT_DOUBLE_ABOVE(0, "work", &o->work, 0, "SAMPLES",
                            "the job's work without a trace (default 1e6)"),
        CP_OPT_FILE(0, "trace", &o->trace, "PHILLY.csv",
                    "one job per line of the Philly trace extract"),
        CP_OPT_STRING(0, "cluster", &o->cluster, "ID",
                      "keep the trace's jobs of one virtual cluster"),
        CP_OPT_STRING(0, "start", &o->start, "TIME",
                      "slot 0 (default: the first submission); earlier jobs skipped"),
        CP_OPT_INT(0, "max-jobs", &o->max_jobs, 1, 10000000, "N", "at most N jobs from the trace"),
        CP_OPT_STRING(0, "accelerator", &o->accelerator, "A",
                      "the measured type (default T4, Pollux's testbed)"),
        ACCEL_TABLE_OPT(&o->accel_table),
    };
    SET_TABLE(a, t);
}

static int pollux_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_pollux(a->in, &a->o.pollux, out, d);
}

/* ---- zeus ---- */

static const char zeus_head[] =
    "usage: capplan import zeus summary_power_GPU.csv --network NAME --batch-size N\n"
    "                      [--dataset NAME] [--optimizer NAME] [--accelerator NAME]\n"
    "                      [--accel-table FILE] [-o FILE]\n"
    "\n"
    "Reads Zeus's epoch time and average GPU power per power limit and writes a\n"
    "training job's power_limits (capplan.5 section 10.3) for one workload: each\n"
    "measured limit that no other beats on both epoch time and energy per epoch,\n"
    "below the highest one (the board's default), with its speed against the\n"
    "default's and its average power.\n"
    "\n";

static void zeus_init(args *a)
{
    cp_import_zeus_opts *o = &a->o.zeus;
    cp_import_zeus_opts_init(o);
    const cp_opt t[] = {
        CP_OPT_STRING(0, "network", &o->network, "NAME", "the workload's network (required)"),
        CP_OPT_DOUBLE_ABOVE(0, "batch-size", &o->batch_size, 0, "N",
                            "the workload's batch size (required)"),
        CP_OPT_STRING(0, "dataset", &o->dataset, "NAME", "only rows of this dataset"),
        CP_OPT_STRING(0, "optimizer", &o->optimizer, "NAME",
                      "only rows of this optimizer (required when several were measured)"),
        CP_OPT_STRING(0, "accelerator", &o->accelerator, "NAME",
                      "the GPU type (default: from the file's name, summary_power_v100.csv)"),
        ACCEL_TABLE_OPT(&o->accel_table),
    };
    SET_TABLE(a, t);
}

static int zeus_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_zeus(a->in, &a->o.zeus, out, d);
}

/* ---- accelerators ---- */

static const char accelerators_head[] =
    "usage: capplan import accelerators [--accel-table FILE] [-o FILE]\n"
    "\n"
    "Prints the accelerator table the importers name types from (name, memory_gb,\n"
    "power_w, idle_power_w, spellings; sources in docs/import.md) as the CSV that\n"
    "--accel-table reads; with --accel-table, the table with that file's entries.\n"
    "\n";

static void accelerators_init(args *a)
{
    a->o.accel_table = NULL;
    const cp_opt t[] = {
        ACCEL_TABLE_OPT(&a->o.accel_table),
    };
    SET_TABLE(a, t);
}

static int accelerators_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_accelerators(a->o.accel_table, out, d);
}

static const importer importers[] = {
    {"skypilot", {skypilot_head, IMPORT_FOOT}, "one catalog file only", sky_init, sky_run},
    {"gavel", {gavel_head, IMPORT_FOOT}, "one input file only", gavel_init, gavel_run},
    {"c3o", {c3o_head, IMPORT_FOOT}, "one input file only", c3o_init, c3o_run},
    {"series", {series_head, IMPORT_FOOT}, NULL, series_init, series_run},
    {"inventory", {inventory_head, IMPORT_FOOT}, "one node list only", inventory_init,
     inventory_run},
    {"pollux", {pollux_head, IMPORT_FOOT}, "one measurements file only", pollux_init,
     pollux_run},
    {"zeus", {zeus_head, IMPORT_FOOT}, "one measurements file only", zeus_init, zeus_run},
    {"accelerators", {accelerators_head, IMPORT_FOOT}, NULL, accelerators_init,
     accelerators_run},
};
#define N_IMPORTERS (sizeof importers / sizeof importers[0])

/* ---- the command ---- */

/* Option values are written into the fragment (a site, a type label, a
 * provider, a job's name) or matched against UTF-8 text, and YAML holds
 * UTF-8 only: a value that is not is refused here, for every importer
 * (a non-UTF-8 --type-map made 'internal error: the output does not read
 * back'). Paths (.file options) are exempt: they reach the output only in
 * the first comment line, which escapes such bytes (cp_yaml_put_comment).
 * 0, or 2 with the message printed. */
static int utf8_values(const importer *im, const cp_cli_args *ca)
{
    for (int i = 0; i < ca->n_seen; i++) {
        const cp_opt *o = ca->seen[i].opt;
        const char *v = ca->seen[i].value;
        if (!v || o->file || cp_utf8_ok((const unsigned char *)v, strlen(v)))
            continue;
        fprintf(stderr, "capplan import %s: option '--%s': the value is not UTF-8\n", im->name,
                o->long_name ? o->long_name : "");
        return 2;
    }
    return 0;
}

/* No output may replace the input or a file an option names (.file):
 * 0, or the exit status with the message printed. */
static int import_outputs(const args *a, const cp_cli_args *ca)
{
    const char **extra = cp_calloc(2 * (size_t)ca->n_seen + 1, sizeof *extra);
    char *roles = cp_calloc((size_t)ca->n_seen + 1, 48);
    if (!extra || !roles) {
        cp_free(extra);
        cp_free(roles);
        fprintf(stderr, "capplan import: out of memory\n");
        return 1;
    }
    int n = 0;
    for (int i = 0; i < ca->n_seen; i++) {
        const cp_opt *o = ca->seen[i].opt;
        if (!o->file)
            continue;
        /* roles as the messages name them: "--trace" */
        char *role = roles + 48 * (size_t)(n / 2);
        snprintf(role, 48, "--%s", o->long_name ? o->long_name : "");
        extra[n++] = role;
        extra[n++] = ca->seen[i].value;
    }
    const char *outs[] = {"-o", a->out, NULL};
    char *ins[] = {(char *)a->in};
    int rc = cp_cli_outputs_ok("import", ins, a->in ? 1 : 0, extra, outs);
    cp_free(extra);
    cp_free(roles);
    return rc;
}

/* The importer's line checked: 0, or the exit status (printed). */
static int import_line(const importer *im, args *a, const cp_cli_args *ca)
{
    int st = utf8_values(im, ca);
    if (st)
        return st;
    if (ca->n_operands > 0 && !im->one_input) {
        fprintf(stderr, "capplan import %s: takes no input file ('%s'); see --help\n", im->name,
                ca->operands[0]);
        return 2;
    }
    if (ca->n_operands > 1) {
        fprintf(stderr, "capplan import %s: %s\n", im->name, im->one_input);
        return 2;
    }
    a->in = ca->n_operands > 0 ? ca->operands[0] : NULL;
    if (!a->in && im->one_input) {
        cp_cli_help_print(stderr, a->table, &im->help);
        return 2;
    }
    return import_outputs(a, ca);
}

/* argv[0] is the importer's name. */
static int run_importer(const importer *im, int argc, char **argv)
{
    args *a = cp_calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "capplan import: out of memory\n");
        return 1;
    }
    im->init(a);
    char cmd[40];
    snprintf(cmd, sizeof cmd, "import %s", im->name);
    cp_cli_args ca;
    int st = cp_cli_parse(&ca, cmd, argc, argv, a->table, &im->help);
    if (st == CP_CLI_RUN) {
        st = import_line(im, a, &ca);
        cp_diags *d = st ? NULL : cp_malloc(sizeof *d);
        if (!st && !d) {
            fprintf(stderr, "capplan import: out of memory\n");
            st = 1;
        }
        if (d) {
            cp_diags_init(d);
            cp_buf b;
            cp_buf_init(&b);
            int rc = im->run(a, &b, d);
            cp_cli_diags_print(cmd, d);
            cp_free(d);
            st = rc == CP_OK ? 0 : rc == CP_ERR_NOMEM ? 1 : 2;
            /* c3o and accelerators write CSV, bounded on reading */
            if (st == 0)
                st = cp_cli_write_fragment("import", a->out, b.s, b.len,
                                           strcmp(im->name, "c3o") != 0 &&
                                               strcmp(im->name, "accelerators") != 0);
            cp_buf_release(&b);
        }
        cp_cli_args_release(&ca);
    }
    cp_free(a);
    return st;
}

int cp_cmd_import(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--list-options"))
        return 0; /* import has none of its own: each kind has its table */
    const char *names[N_IMPORTERS + 1];
    for (size_t i = 0; i < N_IMPORTERS; i++) {
        if (!strcmp(argv[1], importers[i].name))
            return run_importer(&importers[i], argc - 1, argv + 1);
        names[i] = importers[i].name;
    }
    names[N_IMPORTERS] = NULL;
    const char *near = cp_suggest(argv[1], names);
    fprintf(stderr,
            "capplan import: '%s' is not skypilot, gavel, c3o, series, inventory, pollux, "
            "zeus or accelerators",
            argv[1]);
    if (near)
        fprintf(stderr, " (did you mean '%s'?)", near);
    fprintf(stderr, "\ncapplan import: see 'capplan import --help'\n");
    return 2;
}
