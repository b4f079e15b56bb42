/*
 * libFuzzer harness for `capplan place`'s solution reader
 * (solvers/cp_solution.h): the first byte picks the format (g: glpsol -w,
 * c: CBC's solu, p: a plan file, anything else: by the first line), the
 * rest is the file, read against examples/tiny.yaml's model (built in:
 * the .sol goldens of tests/place are solutions of it). Oracle: no
 * sanitizer report, no leak; cp_solution_read returns OK, INPUT or
 * NOMEM; after OK every job's choice is a drop or one of its own modes
 * with a start in that mode's window. The file goes through a temporary
 * file, as the reader takes a path.
 */
#include "cp_input.h"
#include "cp_modes.h"
#include "cp_plan.h"
#include "cp_solution.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cp_input *in;
static cp_modeset *ms;
static char path[] = "/tmp/fuzz_solution.XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *const files[] = {"examples/tiny.yaml"};
    cp_diags d;
    cp_diags_init(&d);
    cp_err err;
    cp_err_init(&err);
    int fd = mkstemp(path);
    if (fd < 0 || cp_input_load(files, 1, &in, &d) || cp_modes_build(in, &ms, &err)) {
        cp_diags_print(&d, stderr);
        fprintf(stderr, "fuzz_solution: run from the source tree (examples/tiny.yaml)\n");
        abort();
    }
    close(fd);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    cp_sol_format fmt = data[0] == 'g'   ? CP_SOL_GLPSOL
                        : data[0] == 'c' ? CP_SOL_CBC
                        : data[0] == 'p' ? CP_SOL_PLAN
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
    cp_plan_free(plan);
    free(d);
    return 0;
}
