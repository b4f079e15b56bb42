/*
 * capplan verify --plan PLAN FILE...: check a plan against the inputs
 * and re-cost it by SPEC sections 3-4 alone (the library part is
 * verify.c). The report goes to standard output: one line per violation,
 * `PLAN:LINE:COL: violation: MESSAGE`, then `verify: OK total=...` or
 * `verify: FAIL N violations`. Errors that stop the check (usage,
 * unreadable inputs or plan) go to standard error.
 */
#include "cp_alloc.h"
#include "cp_buf.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_verify.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char verify_help[] =
    "usage: capplan verify --plan PLAN FILE...\n"
    "\n"
    "Check PLAN (YAML or JSON, as written by 'capplan plan') against the input\n"
    "files and re-cost it by SPEC sections 3-4 alone: every input job listed\n"
    "once, modes and start windows, pool and market capacity, quotas, power\n"
    "caps, budget, concrete placement (node and instance ids) and every cost,\n"
    "energy and carbon number of the plan (1e-6 relative).\n"
    "\n"
    "Prints each violation to standard output as\n"
    "  PLAN:LINE:COL: violation: MESSAGE\n"
    "then 'verify: OK total=TOTAL' or 'verify: FAIL N violations'.\n"
    "\n"
    "Exit status: 0 OK; 1 violations found; 2 bad usage, unreadable or invalid\n"
    "inputs, or a plan that cannot be read as a capplan plan.\n";

static void print_violation(const cp_violation *v, const char *plan, FILE *out)
{
    const char *file = v->pos.file ? v->pos.file : plan;
    if (v->pos.line > 0)
        fprintf(out, "%s:%d:%d: violation: %s\n", file, v->pos.line, v->pos.col, v->msg);
    else
        fprintf(out, "%s: violation: %s\n", file, v->msg);
}

/* Whether `path` starts with the header of `plan --format csv`; only
 * regular files are looked at (a pipe read here would lose its bytes). */
static bool is_csv_plan(const char *path)
{
    static const char head[] = "name,status,resource,market,";
    char buf[sizeof head];
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof head - 1, f);
    fclose(f);
    return n == sizeof head - 1 && !memcmp(buf, head, n);
}

int cp_cmd_verify(int argc, char **argv)
{
    if (cp_cli_wants_help(argc, argv)) {
        fputs(verify_help, stdout);
        return 0;
    }
    const char *plan_path = NULL;
    char **files = cp_calloc((size_t)argc, sizeof *files);
    int n_files = 0;
    if (!files) {
        fprintf(stderr, "capplan verify: out of memory\n");
        return 2;
    }
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && !strcmp(a, "--")) {
            only_files = true;
        } else if (!only_files && !strcmp(a, "--plan")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "capplan verify: --plan needs a file\n");
                cp_free(files);
                return 2;
            }
            plan_path = argv[++i];
        } else if (!only_files && !strncmp(a, "--plan=", 7)) {
            plan_path = a + 7;
        } else if (!only_files && a[0] == '-' && a[1]) {
            fprintf(stderr, "capplan verify: unknown option '%s'\n%s", a, verify_help);
            cp_free(files);
            return 2;
        } else {
            files[n_files++] = argv[i];
        }
    }
    if (!plan_path) {
        fprintf(stderr, "capplan verify: missing --plan PLAN\n%s", verify_help);
        cp_free(files);
        return 2;
    }

    int status = 2;
    cp_input *in = NULL;
    cp_node *plan = NULL;
    cp_diags *d = NULL;
    cp_verify_report rep;
    cp_verify_report_init(&rep);
    cp_err err;
    cp_err_init(&err);

    if (cp_cli_load("verify", files, n_files, &in))
        goto out;
    d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan verify: out of memory\n");
        goto out;
    }
    cp_diags_init(d);
    if (is_csv_plan(plan_path)) {
        fprintf(stderr,
                "capplan verify: '%s' is a CSV plan, which cannot be verified: it lacks the "
                "provisioning (instances per market and slot), the site figures and the "
                "leases that verify checks; plan with --format yaml or json\n",
                plan_path);
        goto out;
    }
    if (cp_plan_load_file(plan_path, &plan, d)) {
        cp_diags_print(d, stderr);
        if (d->n == 0)
            fprintf(stderr, "capplan verify: cannot read the plan '%s'\n", plan_path);
        goto out;
    }
    if (cp_verify_plan(in, plan, &rep, &err)) {
        cp_err_print(&err, stderr);
        goto out;
    }
    for (int i = 0; i < rep.n; i++)
        print_violation(&rep.items[i], plan_path, stdout);
    if (cp_verify_report_is_ok(&rep)) {
        if (rep.infeasible) {
            printf("verify: OK status=infeasible (nothing to re-cost)\n");
        } else {
            char tmp[40], num[40];
            snprintf(tmp, sizeof tmp, "%.10g", rep.sums.total);
            cp_fmt_num(num, sizeof num, isfinite(rep.sums.total) ? strtod(tmp, NULL) : rep.sums.total);
            printf("verify: OK total=%s\n", num);
        }
        status = 0;
    } else {
        printf("verify: FAIL %d violation%s\n", rep.n, rep.n == 1 ? "" : "s");
        status = rep.malformed ? 2 : 1;
    }
    fflush(stdout);
out:
    cp_verify_report_release(&rep);
    cp_node_free(plan);
    cp_free(d);
    cp_input_free(in);
    cp_free(files);
    return status;
}
