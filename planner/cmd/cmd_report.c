/*
 * capplan report PLAN [FILE...] [-o FILE]: the plan as one self-contained
 * HTML page (the library part is report*.c). Input FILEs are optional;
 * with them the page shows utilization as a share of capacity, power
 * caps, job kinds, wall-clock times and verify's verdict. The page goes
 * to standard output unless -o is given (capplan.5 §6: data to standard output
 * unless -o FILE), and -o writes it atomically.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_plan_read.h"
#include "cp_report.h"
#include "cp_yaml.h"

#include <stdio.h>
#include <string.h>

static const cp_cli_help report_help = {
    "usage: capplan report [options] PLAN [FILE...]\n"
    "\n"
    "Draw the plan PLAN (YAML or JSON, as written by 'capplan plan') as one\n"
    "self-contained HTML page: inline SVG and CSS, no scripts, nothing loaded\n"
    "from the network. The page has the totals and status, the cost breakdown,\n"
    "a Gantt chart of the jobs per pool and market (hover a bar for details),\n"
    "pool utilization per slot and dimension, cloud instances rented per\n"
    "market, and facility power per site.\n"
    "\n"
    "The input FILEs the plan was made from are optional. With them the page\n"
    "also shows utilization as a share of each pool's capacity, site power\n"
    "caps, job kinds (bar colours), wall-clock times (horizon.start) and the\n"
    "verdict of 'capplan verify'. Without them it draws what the plan holds.\n"
    "\n",
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "Exit status: 0 page written; 2 bad usage, or an unreadable or malformed\n"
    "plan or input (errors as FILE:LINE:COLUMN on standard error); 1 the page\n"
    "cannot be written. The full reference: man ./capplan.1 in the source tree.\n"};

int cp_cmd_report(int argc, char **argv)
{
    const char *out_path = NULL, *plan_path = NULL, *old_path = NULL;
    const cp_opt opts[] = {
        CP_OPT_STRING('o', NULL, &out_path, "FILE",
                      "write the page there (atomically); default standard output"),
        CP_OPT_FILE(0, "from", &old_path, "OLD",
                    "an earlier plan (capplan.5 §10.5): list and outline the jobs that moved, "
                    "were added, dropped or restarted since, and the change of each cost part"),
        CP_OPT_QUIET("accepted for symmetry: report prints only errors"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "report", argc, argv, opts, &report_help);
    if (st != CP_CLI_RUN)
        return st;
    if (a.n_operands == 0) {
        fprintf(stderr, "capplan report: missing the plan file\n");
        cp_cli_help_print(stderr, opts, &report_help);
        cp_cli_args_release(&a);
        return 2;
    }
    /* the first operand is the plan, the others its inputs */
    plan_path = a.operands[0];
    char **files = a.operands + 1;
    int n_files = a.n_operands - 1;
    if (cp_cli_plan_order("report", plan_path, files, n_files, "capplan report PLAN FILE...")) {
        cp_cli_args_release(&a);
        return 2;
    }

    {
        const char *plan_in[] = {"plan", plan_path, "--from", old_path, NULL};
        const char *outs[] = {"-o", out_path, NULL};
        int orc = cp_cli_outputs_ok("report", files, n_files, plan_in, outs);
        if (orc) {
            cp_cli_args_release(&a);
            return orc;
        }
    }
    int status = 2;
    cp_input *in = NULL;
    cp_node *plan = NULL, *old = NULL;
    cp_buf page;
    cp_buf_init(&page);
    cp_err err;
    cp_err_init(&err);
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan report: out of memory\n");
        goto out;
    }
    cp_diags_init(d);
    if (n_files > 0 && cp_cli_load("report", files, n_files, &in))
        goto out;
    if (cp_plan_load_file(plan_path, &plan, d)) {
        cp_diags_print(d, stderr);
        if (d->n == 0)
            fprintf(stderr, "capplan report: cannot read the plan '%s'\n", plan_path);
        goto out;
    }
    cp_report_opts o;
    cp_report_opts_init(&o);
    o.in = in;
    o.plan_name = plan_path;
    if (old_path && cp_plan_load_file(old_path, &old, d)) {
        cp_diags_print(d, stderr);
        goto out;
    }
    o.old = old;
    o.old_name = old_path;
    if (cp_report_plan_html(plan, &o, &page, d)) {
        cp_diags_print(d, stderr);
        goto out;
    }
    if (cp_write_file_atomic(out_path, page.s, page.len, &err)) {
        cp_err_print(&err, stderr);
        status = 1; /* as plan, fit, import: the output could not be written */
        goto out;
    }
    status = 0;
out:
    cp_buf_release(&page);
    cp_node_free(old);
    cp_node_free(plan);
    cp_input_free(in);
    cp_free(d);
    cp_cli_args_release(&a);
    return status;
}
