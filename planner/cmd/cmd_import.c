/*
 * capplan import skypilot|gavel|c3o|inventory|pollux FILE [options],
 * capplan import series|accelerators [options]
 *
 * The command over the importers of planner/import/cp_import.h: it parses
 * the options into the importer's options struct, runs the importer,
 * prints its diagnostics once (warnings about skipped rows name
 * FILE:LINE), and writes the text to -o FILE (atomically) or standard
 * output. Exit status 0 when written, 2 for bad usage or input, 1 when
 * memory runs out or the output cannot be written.
 *
 * Options are parsed by getopt_long in the order given ("-" in the option
 * string): the input may come before, between or after the options, and
 * POSIXLY_CORRECT changes nothing.
 */
#include "cp_cmd.h"

#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_buf.h"
#include "cp_csv.h"
#include "cp_import.h"

#include <getopt.h>
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
    "accelerators the accelerator table the importers name types from, as the CSV\n"
    "             that --accel-table reads (edit it to add or correct a type)\n"
    "\n"
    "Options may come before, between or after the input; '--' ends them.\n"
    "-q, --quiet is accepted (import prints only warnings and errors).\n"
    "Details: docs/import.md; the full reference: man ./capplan.1 in the\n"
    "source tree.\n";

static const char skypilot_usage[] =
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
    "  --region R, --zone Z  keep rows of that region / availability zone\n"
    "  --types REGEX         keep instance types matching REGEX (extended)\n"
    "  --accelerators A,B    keep offers with these accelerators only\n"
    "  --provider P          provider name (default: the file name's prefix when it\n"
    "                        is aws, gcp, azure, lambda or vast; else gcp when the\n"
    "                        catalog has AvailabilityZone, azure when it has\n"
    "                        Generation, else the file name up to '_' or '.')\n"
    "  --site S              set each offer's site (for carbon accounting)\n"
    "  --type-map M=O        label offers of type O with machine type M (the type\n"
    "                        a dataflow runtime model was measured on); repeatable\n"
    "  --spot-interruptions RATE  interruptions per instance-hour for every spot\n"
    "                        offer (default: AWS 0.05/730, GCP 0.10/24, else none)\n"
    "  --no-n1-gpus          GCP: no n1 host + attachable GPU offers\n"
    "  --accel-table FILE    add or replace accelerator table entries (CSV)\n"
    "  -o FILE               write there (atomically); default stdout\n"
    "Details: docs/import.md; the full reference: man ./capplan.1.\n";

/* Long options without a short form. */
enum {
    O_REGION = 256,
    O_ZONE,
    O_TYPES,
    O_ACCELERATORS,
    O_PROVIDER,
    O_SITE,
    O_MATCH,
    O_WORK,
    O_SCALING,
    O_UNCONSOLIDATED,
    O_JOB,
    O_ACCEL_TABLE,
    O_TYPE_MAP,
    O_SPOT_RATE,
    O_NO_N1,
    O_TRACE,
    O_START,
    O_SLOTS,
    O_SLOT_HOURS,
    O_ENERGY_PRICE,
    O_CARBON,
    O_COLUMN,
    O_SCALE,
    O_PUE,
    O_HORIZON,
    O_MODELS,
    O_MAX_NODES,
    O_CPU_NODES,
    O_APP,
    O_ACCELERATOR,
    O_LOCAL_BSZ,
    O_ALL_COUNTS,
    O_CLUSTER,
    O_MAX_JOBS
};

#define MAX_TYPE_MAP 256

/* The end of an importer's options: -o, -h/--help and -q/--quiet are
 * every command's (cp_cli_args_std). */
#define COMMON_LONGOPTS                                                                            \
    {                                                                                              \
        NULL, 0, NULL, 0                                                                           \
    }

/* The command line of one import: the input, -o, the importer's options. */
typedef struct args {
    const char *in, *out;
    const char *type_map[MAX_TYPE_MAP];
    union {
        cp_import_skypilot_opts sky;
        cp_import_gavel_opts gavel;
        cp_import_c3o_opts c3o;
        cp_import_series_opts series;
        cp_import_inventory_opts inv;
        cp_import_pollux_opts pollux;
        const char *accel_table; /* import accelerators */
    } o;
} args;

/* What an importer's option function returns besides an exit status. */
enum { OPT_TAKEN = -1, OPT_OTHER = -2 };

/* One importer as a subcommand: its options and how to run it. */
typedef struct importer {
    const char *name;
    const char *usage;     /* printed for --help */
    const char *one_input; /* the error for a second input; NULL: takes no input */
    const struct option *longopts;
    void (*init)(args *a);
    /* Takes option c (value val): OPT_TAKEN, OPT_OTHER when it is not one
     * of the importer's own, or the exit status for a bad value. */
    int (*option)(args *a, int c, const char *val);
    int (*run)(const args *a, cp_buf *out, cp_diags *d);
} importer;

/* ---- skypilot ---- */

static const struct option sky_longopts[] = {
    {"region", required_argument, NULL, O_REGION},
    {"zone", required_argument, NULL, O_ZONE},
    {"types", required_argument, NULL, O_TYPES},
    {"accelerators", required_argument, NULL, O_ACCELERATORS},
    {"provider", required_argument, NULL, O_PROVIDER},
    {"site", required_argument, NULL, O_SITE},
    {"accel-table", required_argument, NULL, O_ACCEL_TABLE},
    {"type-map", required_argument, NULL, O_TYPE_MAP},
    {"spot-interruptions", required_argument, NULL, O_SPOT_RATE},
    {"no-n1-gpus", no_argument, NULL, O_NO_N1},
    COMMON_LONGOPTS};

static void sky_init(args *a)
{
    cp_import_skypilot_opts_init(&a->o.sky);
}

static int sky_option(args *a, int c, const char *val)
{
    cp_import_skypilot_opts *o = &a->o.sky;
    char *end;
    switch (c) {
    case O_TYPE_MAP:
        if (o->n_type_map == MAX_TYPE_MAP) {
            fprintf(stderr, "capplan import skypilot: more than %d --type-map\n", MAX_TYPE_MAP);
            return 2;
        }
        a->type_map[o->n_type_map++] = val;
        o->type_map = a->type_map;
        return OPT_TAKEN;
    case O_SPOT_RATE:
        o->spot_rate = strtod(val, &end);
        if (*end || !(o->spot_rate >= 0) || !isfinite(o->spot_rate)) {
            fprintf(stderr, "capplan import skypilot: --spot-interruptions must be a number "
                            ">= 0 (interruptions per instance-hour)\n");
            return 2;
        }
        return OPT_TAKEN;
    case O_NO_N1:
        o->n1_gpus = false;
        return OPT_TAKEN;
    default:
        break;
    }
    const char **slot = c == O_REGION         ? &o->region
                        : c == O_ZONE         ? &o->zone
                        : c == O_TYPES        ? &o->types
                        : c == O_ACCELERATORS ? &o->accelerators
                        : c == O_PROVIDER     ? &o->provider
                        : c == O_SITE         ? &o->site
                        : c == O_ACCEL_TABLE  ? &o->accel_table
                                              : NULL;
    if (!slot)
        return OPT_OTHER;
    *slot = val;
    return OPT_TAKEN;
}

static int sky_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_skypilot(a->in, &a->o.sky, out, d);
}

/* ---- gavel ---- */

static const struct option gavel_longopts[] = {
    {"match", required_argument, NULL, O_MATCH},
    {"trace", required_argument, NULL, O_TRACE},
    {"accel-table", required_argument, NULL, O_ACCEL_TABLE},
    {"work", required_argument, NULL, O_WORK},
    {"scaling", required_argument, NULL, O_SCALING},
    {"unconsolidated", no_argument, NULL, O_UNCONSOLIDATED},
    COMMON_LONGOPTS};

static void gavel_init(args *a)
{
    cp_import_gavel_opts_init(&a->o.gavel);
}

static int gavel_option(args *a, int c, const char *val)
{
    cp_import_gavel_opts *o = &a->o.gavel;
    char *end;
    switch (c) {
    case O_MATCH:
        o->match = val;
        return OPT_TAKEN;
    case O_TRACE:
        o->trace = val;
        return OPT_TAKEN;
    case O_ACCEL_TABLE:
        o->accel_table = val;
        return OPT_TAKEN;
    case O_UNCONSOLIDATED:
        o->unconsolidated = true;
        return OPT_TAKEN;
    case O_SCALING:
        if (strcmp(val, "table") && strcmp(val, "per-type") && strcmp(val, "shared") &&
            strcmp(val, "amdahl")) {
            fprintf(stderr, "capplan import gavel: --scaling must be per-type (or table), "
                            "shared or amdahl\n");
            return 2;
        }
        o->amdahl = !strcmp(val, "amdahl");
        o->shared = !strcmp(val, "shared");
        return OPT_TAKEN;
    case O_WORK:
        o->work = strtod(val, &end);
        if (*end || !(o->work > 0) || !isfinite(o->work)) {
            fprintf(stderr, "capplan import gavel: --work must be a number > 0\n");
            return 2;
        }
        return OPT_TAKEN;
    default:
        return OPT_OTHER;
    }
}

static int gavel_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_gavel(a->in, &a->o.gavel, out, d);
}

/* ---- c3o ---- */

static const struct option c3o_longopts[] = {{"job", required_argument, NULL, O_JOB},
                                             COMMON_LONGOPTS};

static void c3o_init(args *a)
{
    cp_import_c3o_opts_init(&a->o.c3o);
}

static int c3o_option(args *a, int c, const char *val)
{
    if (c != O_JOB)
        return OPT_OTHER;
    a->o.c3o.job = val;
    return OPT_TAKEN;
}

static int c3o_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_c3o(a->in, &a->o.c3o, out, d);
}

/* ---- series ---- */

static const char series_usage[] =
    "usage: capplan import series --site NAME --start TIME --slots N [--slot-hours H]\n"
    "                      [--energy-price FILE] [--carbon FILE] [--column NAME]\n"
    "                      [--scale X] [--pue P] [--horizon] [-o FILE]\n"
    "\n"
    "Writes one site with energy_price ($/kWh, from a price series per MWh) and/or\n"
    "carbon_intensity (gCO2/kWh) over N slots of H hours (default 1) from TIME\n"
    "(2023-06-01T00:00; an offset like -05:00 is converted to UTC, none is taken\n"
    "as written): each slot holds the time-weighted mean of the samples in it.\n"
    "  --column NAME  the value column (default: the first named Price... or\n"
    "                 Carbon Intensity..., else the second column)\n"
    "  --scale X      USD per unit of the price's currency (default 1)\n"
    "  --pue P        the site's PUE\n"
    "  --horizon      also write horizon: {slots, slot_hours, start}\n"
    "The full reference: man ./capplan.1 in the source tree.\n";

static const struct option series_longopts[] = {
    {"site", required_argument, NULL, O_SITE},
    {"start", required_argument, NULL, O_START},
    {"slots", required_argument, NULL, O_SLOTS},
    {"slot-hours", required_argument, NULL, O_SLOT_HOURS},
    {"energy-price", required_argument, NULL, O_ENERGY_PRICE},
    {"carbon", required_argument, NULL, O_CARBON},
    {"column", required_argument, NULL, O_COLUMN},
    {"scale", required_argument, NULL, O_SCALE},
    {"pue", required_argument, NULL, O_PUE},
    {"horizon", no_argument, NULL, O_HORIZON},
    COMMON_LONGOPTS};

static void series_init(args *a)
{
    cp_import_series_opts_init(&a->o.series);
}

static int series_option(args *a, int c, const char *val)
{
    cp_import_series_opts *o = &a->o.series;
    long n;
    switch (c) {
    case O_SITE:
        o->site = val;
        return OPT_TAKEN;
    case O_START:
        o->start = val;
        return OPT_TAKEN;
    case O_ENERGY_PRICE:
        o->energy_price = val;
        return OPT_TAKEN;
    case O_CARBON:
        o->carbon = val;
        return OPT_TAKEN;
    case O_COLUMN:
        o->column = val;
        return OPT_TAKEN;
    case O_HORIZON:
        o->horizon = true;
        return OPT_TAKEN;
    case O_SLOTS:
        if (!cp_cli_long("import series", "--slots", val, 1, 10000, &n))
            return 2;
        o->slots = (int)n;
        return OPT_TAKEN;
    case O_SLOT_HOURS:
        return cp_cli_double("import series", "--slot-hours", val, 0, &o->slot_hours) &&
                       o->slot_hours > 0
                   ? OPT_TAKEN
                   : 2;
    case O_SCALE:
        return cp_cli_double("import series", "--scale", val, 0, &o->scale) ? OPT_TAKEN : 2;
    case O_PUE:
        return cp_cli_double("import series", "--pue", val, 1, &o->pue) ? OPT_TAKEN : 2;
    default:
        return OPT_OTHER;
    }
}

static int series_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_series(&a->o.series, out, d);
}

/* ---- inventory ---- */

static const char inventory_usage[] =
    "usage: capplan import inventory NODES.csv --site NAME [--models A,B]\n"
    "                      [--max-nodes N] [--cpu-nodes] [--accel-table FILE] [-o FILE]\n"
    "\n"
    "Reads Alibaba's GPU node list (sn,cpu_milli,memory_mib,gpu,model) and writes\n"
    "one pool per node shape at site NAME (defined elsewhere, e.g. by 'capplan\n"
    "import series'), with the accelerators from capplan's accelerator table.\n"
    "  --models A,B   keep nodes of these GPU models (the list's spelling)\n"
    "  --max-nodes N  at most N nodes per pool (a small example)\n"
    "  --cpu-nodes    keep the nodes without GPUs too\n"
    "The full reference: man ./capplan.1 in the source tree.\n";

static const struct option inventory_longopts[] = {
    {"site", required_argument, NULL, O_SITE},
    {"models", required_argument, NULL, O_MODELS},
    {"max-nodes", required_argument, NULL, O_MAX_NODES},
    {"cpu-nodes", no_argument, NULL, O_CPU_NODES},
    {"accel-table", required_argument, NULL, O_ACCEL_TABLE},
    COMMON_LONGOPTS};

static void inventory_init(args *a)
{
    cp_import_inventory_opts_init(&a->o.inv);
}

static int inventory_option(args *a, int c, const char *val)
{
    cp_import_inventory_opts *o = &a->o.inv;
    long n;
    switch (c) {
    case O_SITE:
        o->site = val;
        return OPT_TAKEN;
    case O_MODELS:
        o->models = val;
        return OPT_TAKEN;
    case O_ACCEL_TABLE:
        o->accel_table = val;
        return OPT_TAKEN;
    case O_CPU_NODES:
        o->cpu_nodes = true;
        return OPT_TAKEN;
    case O_MAX_NODES:
        if (!cp_cli_long("import inventory", "--max-nodes", val, 1, 1000000, &n))
            return 2;
        o->max_nodes = (int)n;
        return OPT_TAKEN;
    default:
        return OPT_OTHER;
    }
}

static int inventory_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_inventory(a->in, &a->o.inv, out, d);
}

/* ---- pollux ---- */

static const char pollux_usage[] =
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
    "  --app NAME      the job's name (default: the input's folder, e.g. bert)\n"
    "  --local-bsz B   the per-GPU batch size (default: the one measured at the\n"
    "                  most GPU counts, the largest of those)\n"
    "  --all-counts    every measured GPU count, not only powers of two\n"
    "  --work SAMPLES  the job's work without a trace (default 1e6)\n"
    "  --cluster ID    keep the trace's jobs of one virtual cluster\n"
    "  --start TIME    slot 0 (default: the first submission); earlier jobs skipped\n"
    "  --max-jobs N    at most N jobs from the trace\n"
    "  --accelerator A the measured type (default T4, Pollux's testbed)\n"
    "The full reference: man ./capplan.1 in the source tree.\n";

static const struct option pollux_longopts[] = {
    {"app", required_argument, NULL, O_APP},
    {"accelerator", required_argument, NULL, O_ACCELERATOR},
    {"accel-table", required_argument, NULL, O_ACCEL_TABLE},
    {"local-bsz", required_argument, NULL, O_LOCAL_BSZ},
    {"all-counts", no_argument, NULL, O_ALL_COUNTS},
    {"work", required_argument, NULL, O_WORK},
    {"trace", required_argument, NULL, O_TRACE},
    {"cluster", required_argument, NULL, O_CLUSTER},
    {"start", required_argument, NULL, O_START},
    {"max-jobs", required_argument, NULL, O_MAX_JOBS},
    COMMON_LONGOPTS};

static void pollux_init(args *a)
{
    cp_import_pollux_opts_init(&a->o.pollux);
}

static int pollux_option(args *a, int c, const char *val)
{
    cp_import_pollux_opts *o = &a->o.pollux;
    long n;
    switch (c) {
    case O_APP:
        o->app = val;
        return OPT_TAKEN;
    case O_ACCELERATOR:
        o->accelerator = val;
        return OPT_TAKEN;
    case O_ACCEL_TABLE:
        o->accel_table = val;
        return OPT_TAKEN;
    case O_ALL_COUNTS:
        o->all_counts = true;
        return OPT_TAKEN;
    case O_TRACE:
        o->trace = val;
        return OPT_TAKEN;
    case O_CLUSTER:
        o->cluster = val;
        return OPT_TAKEN;
    case O_START:
        o->start = val;
        return OPT_TAKEN;
    case O_LOCAL_BSZ:
        return cp_cli_double("import pollux", "--local-bsz", val, 0, &o->local_bsz) &&
                       o->local_bsz > 0
                   ? OPT_TAKEN
                   : 2;
    case O_WORK:
        return cp_cli_double("import pollux", "--work", val, 0, &o->work) && o->work > 0 ? OPT_TAKEN
                                                                                         : 2;
    case O_MAX_JOBS:
        if (!cp_cli_long("import pollux", "--max-jobs", val, 1, 10000000, &n))
            return 2;
        o->max_jobs = (int)n;
        return OPT_TAKEN;
    default:
        return OPT_OTHER;
    }
}

static int pollux_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_pollux(a->in, &a->o.pollux, out, d);
}

/* ---- accelerators ---- */

static const char accelerators_usage[] =
    "usage: capplan import accelerators [--accel-table FILE] [-o FILE]\n"
    "\n"
    "Prints the accelerator table the importers name types from (name, memory_gb,\n"
    "power_w, idle_power_w, spellings; sources in docs/import.md) as the CSV that\n"
    "--accel-table reads; with --accel-table, the table with that file's entries.\n"
    "The full reference: man ./capplan.1 in the source tree.\n";

static const struct option accelerators_longopts[] = {
    {"accel-table", required_argument, NULL, O_ACCEL_TABLE}, COMMON_LONGOPTS};

static void accelerators_init(args *a)
{
    a->o.accel_table = NULL;
}

static int accelerators_option(args *a, int c, const char *val)
{
    if (c != O_ACCEL_TABLE)
        return OPT_OTHER;
    a->o.accel_table = val;
    return OPT_TAKEN;
}

static int accelerators_run(const args *a, cp_buf *out, cp_diags *d)
{
    return cp_import_accelerators(a->o.accel_table, out, d);
}

static const importer importers[] = {
    {"skypilot", skypilot_usage, "one catalog file only", sky_longopts, sky_init, sky_option,
     sky_run},
    {"gavel", usage_text, "one input file only", gavel_longopts, gavel_init, gavel_option,
     gavel_run},
    {"c3o", usage_text, "one input file only", c3o_longopts, c3o_init, c3o_option, c3o_run},
    {"series", series_usage, NULL, series_longopts, series_init, series_option, series_run},
    {"inventory", inventory_usage, "one node list only", inventory_longopts, inventory_init,
     inventory_option, inventory_run},
    {"pollux", pollux_usage, "one measurements file only", pollux_longopts, pollux_init,
     pollux_option, pollux_run},
    {"accelerators", accelerators_usage, NULL, accelerators_longopts, accelerators_init,
     accelerators_option, accelerators_run},
};

/* ---- the command ---- */

/* The options whose value is a file the importer reads: the one list,
 * for the UTF-8 rule below and for the inputs no output may replace. */
static bool file_option(const struct option *lo)
{
    static const char *const names[] = {"energy-price", "carbon", "trace", "accel-table", NULL};
    for (int i = 0; lo->name && names[i]; i++)
        if (!strcmp(lo->name, names[i]))
            return true;
    return false;
}

/* The files an importer's options name, as cp_cli_outputs' pairs "--NAME",
 * PATH, NULL-terminated (in: at most 2 * MAX_FILE_OPTS + 1 entries). */
#define MAX_FILE_OPTS 8

/* Option values are written into the fragment (a site, a type label, a
 * provider, a job's name) or matched against UTF-8 text, and YAML holds
 * UTF-8 only: a value that is not is refused here, for every importer
 * (a non-UTF-8 --type-map made 'internal error: the output does not read
 * back'). Paths are exempt: they reach the output only in the first
 * comment line, which escapes such bytes (cp_yaml_put_comment). */
static int utf8_value(const importer *im, int c, const char *v)
{
    const struct option *lo = im->longopts;
    while (lo->name && lo->val != c)
        lo++;
    if (!lo->name || !v || cp_utf8_ok((const unsigned char *)v, strlen(v)) || file_option(lo))
        return OPT_TAKEN;
    fprintf(stderr, "capplan import %s: option '--%s': the value is not UTF-8\n", im->name,
            lo->name);
    return 2;
}

/* argv[0] is the importer's name. */
static int run_importer(const importer *im, int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    im->init(&a);
    char cmd[40];
    snprintf(cmd, sizeof cmd, "import %s", im->name);
    cp_cli_args ca;
    if (cp_cli_args_std(&ca, cmd, argc, argv, "o:", im->longopts, im->usage, NULL))
        return 1;
    /* the files the options name: pairs option name, path */
    const char *files[2 * MAX_FILE_OPTS + 1];
    int n_files = 0, c, st = -1;
    while (st < 0 && (c = cp_cli_next(&ca)) != -1) {
        if (c == 'o') {
            a.out = optarg;
            continue;
        }
        int r = utf8_value(im, c, optarg);
        if (r == OPT_TAKEN)
            r = im->option(&a, c, optarg);
        for (const struct option *lo = im->longopts; r == OPT_TAKEN && lo->name; lo++)
            if (lo->val == c && file_option(lo) && n_files < 2 * MAX_FILE_OPTS) {
                files[n_files++] = lo->name;
                files[n_files++] = optarg;
            }
        if (r == OPT_OTHER)
            st = cp_cli_bad_option(&ca);
        else if (r != OPT_TAKEN)
            st = r;
    }
    if (st < 0 && ca.helped)
        st = 0;
    if (st < 0 && ca.n_operands > 0 && !im->one_input) {
        fprintf(stderr, "capplan import %s: takes no input file ('%s'); see --help\n", im->name,
                ca.operands[0]);
        st = 2;
    } else if (st < 0 && ca.n_operands > 1) {
        fprintf(stderr, "capplan import %s: %s\n", im->name, im->one_input);
        st = 2;
    }
    a.in = ca.n_operands > 0 ? ca.operands[0] : NULL;
    cp_cli_args_release(&ca); /* a.in stays: it is argv's */
    if (st >= 0)
        return st;
    if (!a.in && im->one_input) {
        fputs(im->usage, stderr);
        return 2;
    }
    {
        const char *outs[] = {"-o", a.out, NULL};
        char *ins[] = {(char *)a.in};
        /* roles as the messages name them: "--trace" */
        char roles[MAX_FILE_OPTS][24];
        const char *extra[2 * MAX_FILE_OPTS + 1];
        for (int i = 0; i < n_files; i += 2) {
            snprintf(roles[i / 2], sizeof roles[i / 2], "--%s", files[i]);
            extra[i] = roles[i / 2];
            extra[i + 1] = files[i + 1];
        }
        extra[n_files] = NULL;
        int orc = cp_cli_outputs_ok("import", ins, a.in ? 1 : 0, extra, outs);
        if (orc)
            return orc;
    }
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan import: out of memory\n");
        return 1;
    }
    cp_diags_init(d);
    cp_buf b;
    cp_buf_init(&b);
    int rc = im->run(&a, &b, d);
    cp_cli_diags_print(cmd, d);
    cp_free(d);
    st = rc == CP_OK ? 0 : rc == CP_ERR_NOMEM ? 1 : 2;
    /* c3o and accelerators write CSV, bounded on reading */
    if (st == 0)
        st = cp_cli_write_fragment("import", a.out, b.s, b.len,
                                   strcmp(im->name, "c3o") != 0 && strcmp(im->name, "accelerators") != 0);
    cp_buf_release(&b);
    return st;
}

int cp_cmd_import(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof importers / sizeof importers[0]; i++)
        if (!strcmp(argv[1], importers[i].name))
            return run_importer(&importers[i], argc - 1, argv + 1);
    fprintf(stderr,
            "capplan import: '%s' is not skypilot, gavel, c3o, series, inventory, pollux "
            "or accelerators\n",
            argv[1]);
    fputs(usage_text, stderr);
    return 2;
}
