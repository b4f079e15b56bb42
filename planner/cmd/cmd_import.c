/*
 * capplan import skypilot|gavel|c3o FILE [options]
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
#include "cp_import.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: capplan import skypilot VMS.csv [-o FILE] [--region R] [--zone Z]\n"
    "                      [--types REGEX] [--accelerators A,B] [--provider P] [--site S]\n"
    "       capplan import gavel THROUGHPUTS.csv|json [-o FILE] [--match REGEX]\n"
    "                      [--work STEPS] [--scaling table|amdahl] [--unconsolidated]\n"
    "       capplan import c3o FILE.tsv [-o FILE] [--job NAME]\n"
    "\n"
    "skypilot  catalog rows -> accelerators: and offers: (run 'capplan import\n"
    "          skypilot --help' for the details)\n"
    "gavel     per job type: throughput on one GPU per type (k80 -> K80, ...) and a\n"
    "          speedup table from the measured GPU counts; types measured as 0.0\n"
    "          (infeasible) are left out; --match keeps job types matching REGEX;\n"
    "          --work sets each job's steps (default 100000); the *_unconsolidated\n"
    "          worker types are skipped unless --unconsolidated is given\n"
    "c3o       a C3O TSV -> CSV job,type,machines,input_gb,seconds for 'fit dataflow'\n"
    "          (input_gb = data_size_MB / 1000; job defaults to the file's base name)\n";

static const char skypilot_usage[] =
    "usage: capplan import skypilot VMS.csv [-o FILE] [--region R] [--zone Z]\n"
    "                      [--types REGEX] [--accelerators A,B] [--provider P] [--site S]\n"
    "\n"
    "Reads a SkyPilot catalog vms.csv (any provider's column order) and writes\n"
    "`accelerators:` (name, memory_gb) and `offers:` (one per instance type and\n"
    "zone or region, named PROVIDER:ZONE_OR_REGION:TYPE, with price_hour and,\n"
    "when the catalog has one above 0, spot_price_hour).\n"
    "  --region R, --zone Z  keep rows of that region / availability zone\n"
    "  --types REGEX         keep instance types matching REGEX (extended)\n"
    "  --accelerators A,B    keep offers with these accelerators only\n"
    "  --provider P          provider name (default: gcp when the catalog has\n"
    "                        AvailabilityZone, azure when it has Generation,\n"
    "                        else the file name up to the first '_' or '.')\n"
    "  --site S              set each offer's site (for carbon accounting)\n"
    "  -o FILE               write there (atomically); default stdout\n";

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
    O_JOB
};

#define COMMON_LONGOPTS {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}

/* The command line of one import: the input, -o, the importer's options. */
typedef struct args {
    const char *in, *out;
    bool rest; /* after "--": inputs only */
    union {
        cp_import_skypilot_opts sky;
        cp_import_gavel_opts gavel;
        cp_import_c3o_opts c3o;
    } o;
} args;

/* What an importer's option function returns besides an exit status. */
enum { OPT_TAKEN = -1, OPT_OTHER = -2 };

/* One importer as a subcommand: its options and how to run it. */
typedef struct importer {
    const char *name;
    const char *usage;     /* printed for --help and after a bad option */
    const char *one_input; /* the error for a second input */
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
    COMMON_LONGOPTS};

static void sky_init(args *a)
{
    cp_import_skypilot_opts_init(&a->o.sky);
}

static int sky_option(args *a, int c, const char *val)
{
    cp_import_skypilot_opts *o = &a->o.sky;
    const char **slot = c == O_REGION         ? &o->region
                        : c == O_ZONE         ? &o->zone
                        : c == O_TYPES        ? &o->types
                        : c == O_ACCELERATORS ? &o->accelerators
                        : c == O_PROVIDER     ? &o->provider
                        : c == O_SITE         ? &o->site
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
    case O_UNCONSOLIDATED:
        o->unconsolidated = true;
        return OPT_TAKEN;
    case O_SCALING:
        if (strcmp(val, "table") && strcmp(val, "amdahl")) {
            fprintf(stderr, "capplan import gavel: --scaling must be table or amdahl\n");
            return 2;
        }
        o->amdahl = !strcmp(val, "amdahl");
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

static const importer importers[] = {
    {"skypilot", skypilot_usage, "one catalog file only", sky_longopts, sky_init, sky_option,
     sky_run},
    {"gavel", usage_text, "one input file only", gavel_longopts, gavel_init, gavel_option,
     gavel_run},
    {"c3o", usage_text, "one input file only", c3o_longopts, c3o_init, c3o_option, c3o_run},
};

/* ---- the command ---- */

/* The next option of argv, as getopt_long returns it (1 for an input,
 * in optarg); -1 at the end. Arguments after "--" are inputs. */
static int next_opt(args *a, int argc, char **argv, const struct option *longopts)
{
    if (!a->rest) {
        int c = getopt_long(argc, argv, "-o:h", longopts, NULL);
        if (c != -1)
            return c;
        a->rest = true;
    }
    if (optind >= argc)
        return -1;
    optarg = argv[optind++];
    return 1;
}

/* The options every importer has, and the errors: OPT_TAKEN or the exit
 * status. */
static int common_opt(const importer *im, args *a, int c, char **argv)
{
    switch (c) {
    case 1:
        if (!a->in) {
            a->in = optarg;
            return OPT_TAKEN;
        }
        fprintf(stderr, "capplan import %s: %s\n", im->name, im->one_input);
        return 2;
    case 'o':
        a->out = optarg;
        return OPT_TAKEN;
    case 'h':
        fputs(im->usage, stdout);
        return 0;
    default: /* '?': an unknown option or one without its value */
        if (optopt > 0 && optopt < 256)
            fprintf(stderr, "capplan import %s: unknown option or missing value '-%c'\n",
                    im->name, optopt);
        else
            fprintf(stderr, "capplan import %s: unknown option or missing value '%s'\n",
                    im->name, argv[optind - 1]);
        fputs(im->usage, stderr);
        return 2;
    }
}

/* argv[0] is the importer's name. */
static int run_importer(const importer *im, int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    im->init(&a);
    optind = 0; /* glibc: start over (tests and fuzzers run commands again) */
    opterr = 0;
    int c, st;
    while ((c = next_opt(&a, argc, argv, im->longopts)) != -1) {
        if ((st = im->option(&a, c, optarg)) == OPT_OTHER)
            st = common_opt(im, &a, c, argv);
        if (st != OPT_TAKEN)
            return st;
    }
    if (!a.in) {
        fputs(im->usage, stderr);
        return 2;
    }
    {
        cp_fileset fs;
        const char *outs[] = {"-o", a.out, NULL};
        char *ins[] = {(char *)a.in};
        int orc = cp_cli_outputs("import", &fs, ins, 1, NULL, outs);
        cp_fileset_release(&fs);
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
    cp_diags_print(d, stderr);
    cp_free(d);
    st = rc == CP_OK ? 0 : rc == CP_ERR_NOMEM ? 1 : 2;
    if (st == 0 && strcmp(im->name, "c3o") != 0) /* c3o writes CSV, bounded on reading */
        st = cp_cli_output_loads("import", b.s ? b.s : "", b.len);
    if (st == 0) {
        cp_err err;
        cp_err_init(&err);
        if (cp_write_file_atomic(a.out, b.s, b.len, &err) != CP_OK) {
            cp_err_print(&err, stderr);
            st = 1;
        }
    }
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
    fprintf(stderr, "capplan import: '%s' is not skypilot, gavel or c3o\n", argv[1]);
    fputs(usage_text, stderr);
    return 2;
}
