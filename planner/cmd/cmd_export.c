/*
 * capplan export slurm|skypilot|services --plan PLAN [-o DIR] [--begin now] FILE...
 *
 * Reads the inputs and the plan (models/cp_plan_read.h), hands them to
 * the exporter (planner/export: library code that returns files), prints
 * its errors and warnings once and writes the files into DIR as one set
 * (cp_export_dir.h: staged beside DIR, then swapped in):
 *   slurm:    DIR/submit.sh and DIR/jobs/NNN-NAME.sbatch (executable)
 *   skypilot: DIR/launch.sh (executable), DIR/launch.md,
 *             DIR/clusters/NNN-OFFER.yaml and DIR/tasks/NNN-NAME.yaml
 *   services: DIR/services.csv (capplan.5 §10.4)
 * Exit 0 written, 2 bad usage, inputs or plan (or a plan the export
 * cannot express: a host name missing, a name no script can hold),
 * 1 out of memory or cannot write.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_export.h"
#include "cp_export_dir.h"
#include "cp_plan_read.h"
#include "cp_yaml.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const cp_cli_help export_help = {
    "usage: capplan export slurm|skypilot|services --plan PLAN -o DIR [options] FILE...\n"
    "\n"
    "Turn a plan of the inputs FILE... into what a cluster and a launcher run\n"
    "(docs/execution.md).\n"
    "\n"
    "  slurm      one sbatch script per job the plan runs on a pool\n"
    "             (DIR/jobs/NNN-NAME.sbatch: --begin, --time, --nodes, --nodelist\n"
    "             from the pool's hosts, --cpus-per-task, --mem, --gres, the job's\n"
    "             run command) and DIR/submit.sh, which submits them in\n"
    "             dependency order with --dependency=afterok: on the real job ids;\n"
    "             dropped jobs are comment lines with their reason\n"
    "  skypilot   one SkyPilot cluster per group of leases that share jobs\n"
    "             (DIR/clusters/NNN-OFFER.yaml), one task per cloud job with its\n"
    "             nodes, accelerators and CPUs (DIR/tasks/NNN-NAME.yaml),\n"
    "             DIR/launch.sh, which launches, runs and downs them at the\n"
    "             planned times, and DIR/launch.md: the same as tables\n"
    "  services   the services' replicas per slot (capplan.5 section 10.4) as\n"
    "             DIR/services.csv: service, configuration, resource, market, slot,\n"
    "             start, replicas and the requests/s routed to them\n"
    "\n",
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "Exit status: 0 written, 2 bad usage, inputs or plan, or a plan the export\n"
    "cannot express (a node without a host name, a name no script can hold),\n"
    "1 other errors. The full reference: man ./capplan.1 in the source tree.\n"};

/* --begin's one word. */
static const cp_opt_word begin_words[] = {{"now", 1}, {NULL, 0}};

/* PLAN, or OLD of `export --from`: read as export reads a plan; 0 or the
 * exit status. */
static int read_plan(const char *path, const cp_input *in, cp_node **root, cp_plan_file *pf,
                     cp_diags *d)
{
    cp_plan_read_opts ro;
    cp_plan_read_opts_init(&ro);
    ro.slots = in->slots;
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_load_file(path, root, d) != CP_OK) {
        cp_diags_print(d, stderr);
        return d->worst == CP_ERR_NOMEM ? 1 : 2;
    }
    if (cp_plan_read(*root, &ro, pf, &err)) {
        cp_err_print(&err, stderr);
        return 1;
    }
    if (!cp_plan_file_is_ok(pf)) {
        cp_plan_file_diags(pf, d);
        cp_diags_print(d, stderr);
        fprintf(stderr, "capplan export: '%s' is not a plan export can read (see above)\n", path);
        return 2;
    }
    return 0;
}

/* The options that go together: CP_CLI_RUN when they do, else the exit status. */
static int check_usage(const cp_cli_args *a, const char *plan_path, const char *dir,
                       const char *old_path, int now, bool services)
{
    if (!plan_path || !dir) {
        fprintf(stderr, "capplan export: %s is required (see 'capplan export --help')\n",
                !plan_path ? "--plan PLAN" : "-o DIR");
        return 2;
    }
    if (a->n_operands == 0) {
        fprintf(stderr, "capplan export: no input files (see 'capplan export --help')\n");
        return 2;
    }
    if ((old_path != NULL) != (now >= 0)) {
        fprintf(stderr, old_path ? "capplan export: --from needs --now S\n"
                                 : "capplan export: --now needs --from OLD\n");
        return 2;
    }
    if (old_path && services) {
        fprintf(stderr, "capplan export: services --from is not supported: export the re-plan "
                        "whole\n");
        return 2;
    }
    return CP_CLI_RUN;
}

/* The export's files into DIR, once each name is checked against the
 * inputs (cp_cli_dir_outputs); 0 or the exit status. */
static int write_files(cp_fileset *fs, const char *dir, const cp_export *x)
{
    const char **names = cp_calloc((size_t)(x->n ? x->n : 1), sizeof *names);
    if (!names) {
        fprintf(stderr, "capplan export: out of memory\n");
        return 1;
    }
    for (int i = 0; i < x->n; i++)
        names[i] = x->files[i].name;
    int status = cp_cli_dir_outputs("export", fs, "-o", dir, names, x->n);
    cp_free(names);
    return status ? status : cp_export_write_dir(dir, x);
}

/* The one line saying what was written, per target. */
static void print_written(const cp_export *x, const char *dir, bool slurm, bool services,
                          bool replan, int now)
{
    char svc[64] = "";
    if (replan && x->n_services)
        snprintf(svc, sizeof svc, slurm ? ", %d service replica run%s" : ", %d SkyServe service%s",
                 x->n_services, x->n_services == 1 ? "" : "s");
    if (replan && !slurm)
        fprintf(stderr,
                "capplan export: %d cloud job%s on %d SkyPilot cluster%s%s, launch.sh from slot "
                "%d (what began before runs on) and launch.md in %s\n",
                x->n_jobs, x->n_jobs == 1 ? "" : "s", x->n_clusters, x->n_clusters == 1 ? "" : "s",
                svc, now, dir);
    else if (replan)
        fprintf(stderr, "capplan export: %d new job script%s%s and replan.sh in %s\n", x->n_jobs,
                x->n_jobs == 1 ? "" : "s", svc, dir);
    else if (slurm && x->n_services)
        fprintf(stderr,
                "capplan export: %d job script%s, %d service replica run%s and submit.sh "
                "in %s (%d dropped job%s listed there)\n",
                x->n_jobs, x->n_jobs == 1 ? "" : "s", x->n_services, x->n_services == 1 ? "" : "s",
                dir, x->n_dropped, x->n_dropped == 1 ? "" : "s");
    else if (slurm)
        fprintf(stderr,
                "capplan export: %d job script%s and submit.sh in %s (%d dropped job%s "
                "listed there)\n",
                x->n_jobs, x->n_jobs == 1 ? "" : "s", dir, x->n_dropped,
                x->n_dropped == 1 ? "" : "s");
    else if (services)
        fprintf(stderr,
                "capplan export: the replicas of %d service%s per slot in %s/services.csv\n",
                x->n_leases, x->n_leases == 1 ? "" : "s", dir);
    else if (x->n_services)
        fprintf(stderr,
                "capplan export: %d cloud job%s on %d SkyPilot cluster%s (%d lease%s), "
                "%d SkyServe service%s, launch.sh and launch.md in %s\n",
                x->n_jobs, x->n_jobs == 1 ? "" : "s", x->n_clusters, x->n_clusters == 1 ? "" : "s",
                x->n_leases, x->n_leases == 1 ? "" : "s", x->n_services,
                x->n_services == 1 ? "" : "s", dir);
    else
        fprintf(stderr,
                "capplan export: %d cloud job%s on %d SkyPilot cluster%s (%d lease%s), "
                "launch.sh and launch.md in %s\n",
                x->n_jobs, x->n_jobs == 1 ? "" : "s", x->n_clusters, x->n_clusters == 1 ? "" : "s",
                x->n_leases, x->n_leases == 1 ? "" : "s", dir);
}

int cp_cmd_export(int argc, char **argv)
{
    cp_export_opts xo;
    cp_export_opts_init(&xo);
    const char *plan_path = NULL, *dir = NULL, *old_path = NULL;
    int begin_now = 0, now = -1;
    const cp_opt opts[] = {
        CP_OPT_FILE(0, "plan", &plan_path, "PLAN",
                    "the plan (YAML or JSON, as 'capplan plan' writes it)"),
        CP_OPT_STRING('o', NULL, &dir, "DIR", "the folder to write (created if missing)"),
        CP_OPT_ENUM(0, "begin", &begin_now, begin_words, NULL,
                    "start the night at once (tests, reruns) instead of at horizon.start: "
                    "slurm's jobs may start at once, launch.sh counts from its start"),
        CP_OPT_FILE(0, "from", &old_path, "OLD",
                    "PLAN is a re-plan of OLD (capplan.5 §10.5), whose hand-off runs: slurm "
                    "writes replan.sh with only what changes, skypilot a launch.sh from --now "
                    "on; needs --now"),
        CP_OPT_INT(0, "now", &now, 0, 1000000000, "S", "with --from: the slot PLAN re-planned from"),
        CP_OPT_QUIET("no line saying what was written (warnings still printed)"),
        CP_OPT_END(),
    };
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cp_cli_help_print(argc < 2 ? stderr : stdout, opts, &export_help);
        return argc < 2 ? 2 : 0;
    }
    const char *what = argv[1];
    bool slurm = !strcmp(what, "slurm"), services = !strcmp(what, "services");
    if (!slurm && !services && strcmp(what, "skypilot")) {
        fprintf(stderr, "capplan export: unknown target '%s' (slurm, skypilot or services)\n", what);
        return 2;
    }
    cp_cli_args a;
    /* argv[1] is the target: the options and files follow it */
    int st = cp_cli_parse(&a, "export", argc - 1, argv + 1, opts, &export_help);
    if (st != CP_CLI_RUN)
        return st;
    xo.begin_now = begin_now;
    bool quiet = a.quiet;
    st = check_usage(&a, plan_path, dir, old_path, now, services);
    if (st != CP_CLI_RUN) {
        cp_cli_args_release(&a);
        return st;
    }
    xo.plan_name = plan_path;
    /* the inputs, against which every file written into DIR is checked
     * once the export knows its names (cp_cli_dir_outputs) */
    cp_fileset fs;
    const char *plan_in[] = {"--plan", plan_path, "--from", old_path, NULL};
    int status = cp_cli_outputs("export", &fs, a.operands, a.n_operands, plan_in, NULL);
    cp_input *in = NULL;
    if (!status)
        status = cp_cli_load("export", a.operands, a.n_operands, &in);
    cp_cli_args_release(&a);
    if (status) {
        cp_fileset_release(&fs);
        return status;
    }
    cp_node *root = NULL, *old_root = NULL;
    cp_plan_file pf, old_pf;
    cp_plan_file_init(&pf);
    cp_plan_file_init(&old_pf);
    cp_export x;
    cp_export_init(&x);
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan export: out of memory\n");
        status = 1;
        goto out;
    }
    cp_diags_init(d);
    if ((status = read_plan(plan_path, in, &root, &pf, d)))
        goto out;
    if (pf.infeasible) {
        fprintf(stderr, "capplan export: '%s' is an infeasible plan: nothing to run\n", plan_path);
        status = 2;
        goto out;
    }
    if (old_path && (status = read_plan(old_path, in, &old_root, &old_pf, d)))
        goto out;
    int rc = old_path && slurm ? cp_export_slurm_replan(in, &pf, &old_pf, now, &xo, &x, d)
             : old_path        ? cp_export_launch_replan(in, &pf, &old_pf, now, &xo, &x, d)
             : slurm           ? cp_export_slurm(in, &pf, &xo, &x, d)
             : services ? cp_export_services(in, &pf, &xo, &x, d)
                        : cp_export_launch(in, &pf, &xo, &x, d);
    if (d->n)
        cp_cli_diags_print("export", d);
    if (rc) {
        status = rc == CP_ERR_NOMEM ? 1 : 2;
        goto out;
    }
    if ((status = write_files(&fs, dir, &x)))
        goto out;
    if (!quiet) /* else the files are the output */
        print_written(&x, dir, slurm, services, old_path != NULL, now);
out:
    cp_plan_file_release(&old_pf);
    cp_node_free(old_root);
    cp_fileset_release(&fs);
    cp_export_release(&x);
    cp_plan_file_release(&pf);
    cp_node_free(root);
    cp_input_free(in);
    cp_free(d);
    return status;
}
