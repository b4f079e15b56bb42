/*
 * libFuzzer harness for `capplan place`'s solution reader
 * (solvers/cp_solution.h): the first byte picks the format (g: glpsol -w,
 * c: CBC's solu, p: a plan file, anything else: by the first line), the
 * rest is the file, read against examples/tiny.yaml's model (built in:
 * the .sol goldens of tests/place are solutions of it); the same letters
 * in upper case read it against tests/services/shared_node.yaml's, a job
 * and a service (capplan.5 §10.4; the goldens of tests/place/services).
 * Oracle: no sanitizer report, no leak; cp_solution_read returns OK,
 * INPUT or NOMEM; after OK every job's choice is a drop or one of its
 * own modes with a start in that mode's window, and every class's shares
 * are in [0, 1] and add up with its unserved share to 1 where it has
 * load (0 where it has none). The file goes through a temporary file, as
 * the reader takes a path.
 */
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_plan.h"
#include "cp_solution.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cp_input *inputs[2];
static cp_modeset *modesets[2];
static char path[] = "/tmp/fuzz_solution.XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *const files[2] = {"examples/tiny.yaml", "tests/services/shared_node.yaml"};
    cp_diags d;
    cp_diags_init(&d);
    cp_err err;
    cp_err_init(&err);
    int fd = mkstemp(path);
    for (int i = 0; i < 2; i++)
        if (fd < 0 || cp_input_load(files + i, 1, &inputs[i], &d) ||
            cp_modes_build(inputs[i], &modesets[i], &err)) {
            cp_diags_print(&d, stderr);
            fprintf(stderr, "fuzz_solution: run from the source tree (%s)\n", files[i]);
            abort();
        }
    close(fd);
    return 0;
}

/* Every class's shares in [0, 1], adding up with u to 1 where it has load. */
static void check_shares(const cp_input *in, const cp_modeset *ms, const cp_plan *plan)
{
    for (int v = 0; v < in->n_services; v++)
        for (int k = 0; k < in->services[v].n_classes; k++)
            for (int t = 0; t < in->slots; t++) {
                double sum = *cp_plan_u(plan, v, k, t);
                for (int d = ms->svc_first[v]; d < ms->svc_first[v + 1]; d++) {
                    double f = *cp_plan_f(plan, d, k, t);
                    if (!(f >= 0 && f <= 1)) {
                        fprintf(stderr, "fuzz_solution: share %g\n", f);
                        abort();
                    }
                    sum += f;
                }
                double want = cp_svc_load(in, v, k, t) > 0 ? 1 : 0;
                if (!(fabs(sum - want) <= 1e-9)) {
                    fprintf(stderr, "fuzz_solution: shares and u add up to %g, not %g\n", sum, want);
                    abort();
                }
            }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int which = data[0] >= 'A' && data[0] <= 'Z';
    const cp_input *in = inputs[which];
    const cp_modeset *ms = modesets[which];
    int c = which ? data[0] - 'A' + 'a' : data[0];
    cp_sol_format fmt = c == 'g'   ? CP_SOL_GLPSOL
                        : c == 'c' ? CP_SOL_CBC
                        : c == 'p' ? CP_SOL_PLAN
                                   : CP_SOL_AUTO;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f))
        abort();
    cp_plan *plan = NULL;
    if (cp_plan_new(in, ms, &plan))
        return 0;
    cp_diags *d = malloc(sizeof *d);
    if (!d) {
        cp_plan_free(plan);
        return 0;
    }
    cp_diags_init(d);
    cp_solution info;
    int rc = cp_solution_read(in, ms, path, fmt, plan, &info, d);
    if (rc != CP_OK && rc != CP_ERR_INPUT && rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_solution: cp_solution_read returned %d\n", rc);
        abort();
    }
    for (int j = 0; rc == CP_OK && j < in->n_jobs; j++) {
        int m = plan->mode[j];
        if (m < 0)
            continue;
        const cp_mode *md = &ms->modes[m];
        if (m < ms->job_first[j] || m >= ms->job_first[j + 1] || plan->start[j] < md->s_min ||
            plan->start[j] > md->s_max) {
            fprintf(stderr, "fuzz_solution: job %d got mode %d start %d, not its own\n", j, m,
                    plan->start[j]);
            abort();
        }
    }
    if (rc == CP_OK && !info.infeasible)
        check_shares(in, ms, plan);
    cp_plan_free(plan);
    free(d);
    return 0;
}
