/*
 * libFuzzer harness for the plan writer and the plan reader together: a
 * round-trip property (read -> write -> read is a fixed point). Bytes ->
 * the loader (up to 3 files split at a line "--8<--", as fuzz_load) ->
 * modes -> a plan with a tiny search (heuristic, or milp at node limit 5 on small instances,
 * chosen by the input's size) through cp_plan_solve -> written as YAML,
 * JSON and CSV. Then:
 *   - every format writes (CP_OK or out of memory: never an error, since
 *     the loader bounds every number so no total overflows);
 *   - YAML and JSON parse back with cp_yaml_load_string and read with
 *     cp_plan_read without a single problem, and say what the plan holds:
 *     status, every job in order with its name, scheduled or dropped,
 *     resource and start slot, and the totals and job costs cp_plan_eval
 *     computed as written, bit for bit: rounded to 15 significant digits
 *     (cp_num_fig) in the shortest text that reads back to that;
 *   - cp_verify_plan_file accepts both (or finds them infeasible when the
 *     plan says so);
 *   - the CSV reads back with cp_csv_read_string: a header and one row
 *     per job, the name column naming it (a leading apostrophe allowed:
 *     the formula rule of cp_csv_put_field).
 * Any mismatch aborts and prints the plan.
 */
#include "cp_alloc.h"
#include "cp_csv.h"
#include "cp_input.h"
#include "cp_methods.h"
#include "cp_modes.h"
#include "cp_plan_read.h"
#include "cp_plan_write.h"
#include "cp_verify.h"
#include "cp_yaml.h"
#include "fuzz_split.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 3
#define PLAN_MAX_MODES 400
#define PLAN_MAX_SLOTS 200
#define PLAN_MAX_JOBS 40
#define MILP_MAX_MODES 60

static const char *const names[MAX_FILES] = {"a.yaml", "b.yaml", "c.yaml"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const cp_buf *b)
{
    fprintf(stderr, "fuzz_roundtrip: %s\n--- plan\n%.*s\n", what, (int)b->len,
            b->s ? b->s : "");
    abort();
}

static void check_num(const char *key, const cp_plan_num *n, double want, const cp_buf *b)
{
    want = cp_num_fig(want);
    if (n->has != CP_PLAN_SET || n->v != want) {
        char m[200];
        snprintf(m, sizeof m, "totals.%s reads back as %.17g (has %d), the plan has %.17g", key,
                 n->v, (int)n->has, want);
        fail(m, b);
    }
}

static void check_tree(const cp_input *in, const cp_modeset *ms, const cp_plan *plan,
                       const cp_plan_figures *f, const cp_buf *b)
{
    cp_diags *d = malloc(sizeof *d);
    if (!d)
        abort();
    cp_diags_init(d);
    cp_node *root = NULL;
    int rc = cp_yaml_load_string("plan", b->s, b->len, &root, d);
    if (rc == CP_ERR_NOMEM) {
        free(d);
        return;
    }
    if (rc != CP_OK) {
        cp_diags_print(d, stderr);
        fail("the plan does not parse back", b);
    }
    free(d);
    cp_plan_read_opts o;
    cp_plan_read_opts_init(&o);
    o.slots = in->slots;
    cp_plan_file pf;
    cp_plan_file_init(&pf);
    cp_err err;
    cp_err_init(&err);
    if (cp_plan_read(root, &o, &pf, &err) != CP_OK)
        goto out; /* out of memory */
    if (!cp_plan_file_is_ok(&pf)) {
        for (int i = 0; i < pf.n_problems; i++)
            fprintf(stderr, "  %d:%d: %s\n", pf.problems[i].pos.line, pf.problems[i].pos.col,
                    pf.problems[i].msg);
        fail("the plan reader finds problems in the plan", b);
    }
    if (pf.status.has != CP_PLAN_SET || strcmp(pf.status.s, cp_plan_status_name(plan->status)))
        fail("the status does not read back", b);
    if (plan->status != CP_STATUS_INFEASIBLE) {
        if (pf.n_jobs != plan->n_jobs)
            fail("the job count does not read back", b);
        for (int j = 0; j < plan->n_jobs; j++) {
            const cp_plan_job *pj = &pf.jobs[j];
            int m = plan->mode[j];
            if (pj->name.has != CP_PLAN_SET || strcmp(pj->name.s, in->jobs[j].name))
                fail("a job's name does not read back", b);
            if (pj->scheduled != (m >= 0) || pj->dropped != (m < 0))
                fail("a job's status does not read back", b);
            if (m < 0)
                continue;
            const cp_mode *md = &ms->modes[m];
            if (pj->resource.has != CP_PLAN_SET ||
                strcmp(pj->resource.s, ms->res[md->res].name) ||
                pj->start_slot.has != CP_PLAN_SET || pj->start_slot.v != plan->start[j] ||
                pj->count.has != CP_PLAN_SET || pj->count.v != md->count)
                fail("a job's resource, start slot or count does not read back", b);
            if (pj->cost.has != CP_PLAN_SET || pj->cost.v != cp_num_fig(f->job_cost[j]))
                fail("a job's cost does not read back", b);
        }
        for (int i = 0; i < CP_COST_N; i++) /* every part the writer writes */
            if (cp_cost_part_shown(i, cp_cost_when(in)))
                check_num(cp_cost_part_info[i].key, &pf.totals.part[i], f->costs.v[i], b);
    }
    cp_verify_report rep;
    cp_verify_report_init(&rep);
    if (cp_verify_plan_file(in, &pf, &rep, &err) == CP_OK) {
        bool infeasible = plan->status == CP_STATUS_INFEASIBLE;
        if (infeasible ? !rep.infeasible : (!cp_verify_report_is_ok(&rep) || rep.infeasible)) {
            for (int i = 0; i < rep.n; i++)
                fprintf(stderr, "  %d:%d: %s\n", rep.items[i].pos.line, rep.items[i].pos.col,
                        rep.items[i].msg);
            fail("verify rejects the plan", b);
        }
    }
    cp_verify_report_release(&rep);
out:
    cp_plan_file_release(&pf);
    cp_node_free(root);
}

static void check_csv(const cp_input *in, const cp_plan *plan, const cp_buf *b)
{
    cp_csv *csv = NULL;
    cp_err err;
    cp_err_init(&err);
    int rc = cp_csv_read_string("plan.csv", b->s ? b->s : "", b->len, ',', &csv, &err);
    if (rc == CP_ERR_NOMEM)
        return;
    if (rc != CP_OK) {
        cp_err_print(&err, stderr);
        fail("the CSV plan does not read back", b);
    }
    int col = cp_csv_col(csv, "name");
    int want = plan->status == CP_STATUS_INFEASIBLE ? 0 : plan->n_jobs;
    if (col < 0 || csv->n_rows != want)
        fail("the CSV plan has no name column or not one row per job", b);
    for (int j = 0; j < csv->n_rows; j++) {
        const char *got = cp_csv_get(&csv->rows[j], col);
        const char *name = in->jobs[j].name;
        if (strcmp(got, name) && !(got[0] == '\'' && !strcmp(got + 1, name)))
            fail("a job's name does not read back from the CSV plan", b);
    }
    cp_csv_free(csv);
}

static void write_and_check(const cp_input *in, const cp_modeset *ms, const cp_plan *plan)
{
    cp_plan_figures f;
    cp_err err;
    cp_err_init(&err);
    bool have_f = false;
    if (plan->status != CP_STATUS_INFEASIBLE) {
        int rc = cp_plan_eval(plan, &f, &err);
        if (rc == CP_ERR_NOMEM)
            return;
        if (rc != CP_OK) {
            fprintf(stderr, "fuzz_roundtrip: cp_plan_eval returned %d: %s\n", rc, err.msg);
            abort();
        }
        have_f = true;
    }
    for (int fmt = CP_FMT_YAML; fmt <= CP_FMT_CSV; fmt++) {
        cp_plan_write_opts wo = {(cp_plan_format)fmt, false, NULL};
        if (plan->status == CP_STATUS_INFEASIBLE)
            wo.infeasible_reason = CP_INFEASIBLE_REASON;
        cp_buf b;
        cp_buf_init(&b);
        int rc = cp_plan_write(plan, &wo, &b, &err);
        if (rc != CP_OK && rc != CP_ERR_NOMEM) {
            fprintf(stderr, "fuzz_roundtrip: cp_plan_write (format %d) returned %d: %s\n", fmt, rc,
                    err.msg);
            abort();
        }
        if (rc == CP_OK) {
            if (fmt == CP_FMT_CSV)
                check_csv(in, plan, &b);
            else
                check_tree(in, ms, plan, &f, &b);
        }
        cp_buf_release(&b);
    }
    if (have_f)
        cp_plan_figures_release(&f);
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
    so.node_limit = 5;
    so.seed = sel;
    const cp_solver_ops *method =
        sel % 2 && ms->n_modes <= MILP_MAX_MODES ? &cp_solver_milp : &cp_solver_heuristic;
    cp_err err;
    cp_err_init(&err);
    int rc = cp_plan_solve(in, ms, method, &so, plan, &err);
    if (rc == CP_OK || rc == CP_ERR_INFEASIBLE) {
        if (plan->status != CP_STATUS_NOPLAN)
            write_and_check(in, ms, plan);
    } else if (rc != CP_ERR_INPUT && rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_roundtrip: cp_plan_solve returned %d: %s\n", rc, err.msg);
        abort();
    }
    cp_plan_free(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
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
        if (r == CP_OK)
            n_roots++;
        else
            rc = r;
    }
    if (rc != CP_OK)
        goto out;
    cp_input *in = NULL;
    if (cp_input_from_trees(roots, n_roots, &in, d) == CP_OK) {
        cp_modeset *ms = NULL;
        cp_err err;
        cp_err_init(&err);
        if (cp_modes_build(in, &ms, &err) == CP_OK)
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
