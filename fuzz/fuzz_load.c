/*
 * libFuzzer harness for the input loader and what runs right after it:
 * bytes -> cp_yaml_load_string -> cp_input_from_trees -> cp_modes_build,
 * and, when the input is valid and small, a heuristic plan through the
 * same pipeline as `capplan plan` (cp_plan_solve: method, placement and
 * repair, reasons) written in the three formats, then read back and
 * checked by the verifier. A crash there would hurt most: a nightly run
 * that fed capplan a slightly odd file.
 *
 * The input may hold up to 3 files separated by a line "--8<--", so the
 * merge rules (capplan.5 §1) are fuzzed too. Oracle: no sanitizer report, no
 * leak, and return codes in the documented set; a plan the verifier
 * rejects aborts only when CP_FUZZ_VERIFY=1 (a solver bug, not a crash,
 * and solvers/ is owned elsewhere: see docs/reliability.md).
 */
#include "cp_alloc.h"
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_plan_write.h"
#include "cp_methods.h"
#include "cp_verify.h"
#include "cp_yaml.h"
#include "fuzz_split.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 3
/* "Small": bounded so one execution stays in milliseconds. */
#define PLAN_MAX_MODES 400
#define PLAN_MAX_SLOTS 200
#define PLAN_MAX_JOBS 40

static const char *const names[MAX_FILES] = {"a.yaml", "b.yaml", "c.yaml"};
static int verify_abort;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *v = getenv("CP_FUZZ_VERIFY");
    verify_abort = v && *v == '1';
    return 0;
}

static void check_rc(int rc, const char *what)
{
    if (rc != CP_OK && rc != CP_ERR_INPUT && rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_load: %s returned unexpected code %d\n", what, rc);
        abort();
    }
}

/* Writes the plan in `fmt`; for YAML and JSON reads it back and verifies. */
static void write_and_verify(const cp_input *in, const cp_plan *plan, cp_plan_format fmt)
{
    cp_plan_write_opts wo = {fmt, false, NULL};
    if (plan->status == CP_STATUS_INFEASIBLE)
        wo.infeasible_reason = CP_INFEASIBLE_REASON;
    cp_buf b;
    cp_buf_init(&b);
    cp_err err;
    cp_err_init(&err);
    int rc = cp_plan_write(plan, &wo, &b, &err);
    if (rc != CP_OK || fmt == CP_FMT_CSV) {
        cp_buf_release(&b);
        return;
    }
    cp_diags d;
    cp_diags_init(&d);
    cp_node *root = NULL;
    rc = cp_yaml_load_string("plan.yaml", b.s, b.len, &root, &d);
    if (rc != CP_OK) {
        fprintf(stderr, "fuzz_load: the plan written does not parse back:\n%s\n", b.s);
        cp_diags_print(&d, stderr);
        abort();
    }
    cp_verify_report rep;
    cp_verify_report_init(&rep);
    rc = cp_verify_plan(in, root, &rep, &err);
    if (rc == CP_OK && !cp_verify_report_is_ok(&rep) && !rep.infeasible && verify_abort) {
        fprintf(stderr, "fuzz_load: the verifier rejects the plan:\n%s\n", b.s);
        for (int i = 0; i < rep.n; i++)
            fprintf(stderr, "  %d:%d: %s\n", rep.items[i].pos.line, rep.items[i].pos.col,
                    rep.items[i].msg);
        abort();
    }
    cp_verify_report_release(&rep);
    cp_node_free(root);
    cp_buf_release(&b);
}

static void plan_small(const cp_input *in, const cp_modeset *ms, unsigned sel)
{
    if (ms->n_modes > PLAN_MAX_MODES || in->slots > PLAN_MAX_SLOTS || in->n_jobs > PLAN_MAX_JOBS)
        return;
    cp_plan *plan = NULL;
    if (cp_plan_new(in, ms, &plan) != CP_OK)
        return;
    cp_solve_opts so;
    cp_solve_opts_init(&so);
    so.time_limit = 1;
    so.node_limit = 50;
    so.seed = sel;
    cp_err err;
    cp_err_init(&err);
    int rc = cp_plan_solve(in, ms, &cp_solver_heuristic, &so, plan, &err);
    if (rc == CP_OK && plan->status != CP_STATUS_NOPLAN)
        write_and_verify(in, plan, (cp_plan_format)(sel % 3));
    else
        check_rc(rc == CP_ERR_INFEASIBLE ? CP_OK : rc, "cp_plan_solve");
    cp_plan_free(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* Split into files at "\n--8<--\n". */
    const char *part[MAX_FILES];
    size_t len[MAX_FILES];
    int n = fuzz_split(text, size, MAX_FILES, part, len);
    cp_diags *d = malloc(sizeof *d);
    cp_node *roots[MAX_FILES] = {NULL};
    int n_roots = 0, rc = CP_OK;
    if (!d)
        goto out;
    cp_diags_init(d);
    for (int i = 0; i < n; i++) {
        int r = cp_yaml_load_string(names[i], part[i], len[i], &roots[n_roots], d);
        check_rc(r, "cp_yaml_load_string");
        if (r == CP_OK)
            n_roots++;
        else
            rc = r;
    }
    if (rc != CP_OK)
        goto out;
    cp_input *in = NULL;
    rc = cp_input_from_trees(roots, n_roots, &in, d);
    check_rc(rc, "cp_input_from_trees");
    if (rc == CP_OK) {
        cp_modeset *ms = NULL;
        cp_err err;
        cp_err_init(&err);
        rc = cp_modes_build(in, &ms, &err);
        check_rc(rc, "cp_modes_build");
        if (rc == CP_OK)
            plan_small(in, ms, (unsigned)size);
        cp_modeset_free(ms);
        cp_input_free(in);
    }
out:
    for (int i = 0; i < n_roots; i++)
        cp_node_free(roots[i]);
    free(d);
    free(text);
    return 0;
}
