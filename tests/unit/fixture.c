/* Hand-built inputs for the solver unit tests; see fixture.h. */
#include "fixture.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes doc to a new temporary file; its name goes to path. */
static bool write_temp(const char *doc, char *path, size_t size)
{
    snprintf(path, size, "/tmp/cp_unit_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    size_t n = strlen(doc), done = 0;
    while (done < n) {
        ssize_t w = write(fd, doc + done, n - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(fd);
    if (done == n)
        return true;
    unlink(path);
    return false;
}

bool cp_fx_load(cp_fx *fx, const char *doc1, const char *doc2)
{
    static cp_diags d; /* 50 errors of 870 bytes: not on the stack */
    char names[2][32];
    const char *paths[2] = {names[0], names[1]};
    const char *docs[2] = {doc1, doc2};
    int n = 0;
    bool ok = true;
    fx->in = NULL;
    fx->ms = NULL;
    for (int i = 0; i < 2 && docs[i] && ok; i++)
        if ((ok = write_temp(docs[i], names[n], sizeof names[n])))
            n++;
    cp_diags_init(&d);
    if (ok && cp_input_load(paths, n, &fx->in, &d) != CP_OK)
        ok = false;
    for (int i = 0; i < n; i++)
        unlink(names[i]);
    cp_err err;
    cp_err_init(&err);
    if (ok && cp_modes_build(fx->in, &fx->ms, &err) != CP_OK) {
        cp_diags_add_err(&d, &err);
        ok = false;
    }
    if (!ok) {
        cp_diags_print(&d, stderr);
        cp_fx_release(fx);
    }
    CHECK(ok);
    return ok;
}

void cp_fx_release(cp_fx *fx)
{
    cp_modeset_free(fx->ms);
    cp_input_free(fx->in);
    fx->ms = NULL;
    fx->in = NULL;
}

int cp_fx_job(const cp_fx *fx, const char *name)
{
    int j = cp_input_find_job(fx->in, name);
    if (j < 0) {
        fprintf(stderr, "  no job '%s'\n", name);
        cp_test_failures++;
    }
    return j;
}

int cp_fx_res(const cp_fx *fx, const char *id)
{
    for (int r = 0; r < fx->ms->n_res; r++)
        if (!strcmp(fx->ms->res[r].id, id))
            return r;
    fprintf(stderr, "  no resource '%s'\n", id);
    cp_test_failures++;
    return -1;
}

int cp_fx_mode(const cp_fx *fx, const char *job, const char *res, int k)
{
    int j = cp_input_find_job(fx->in, job);
    for (int m = j < 0 ? 0 : fx->ms->job_first[j]; j >= 0 && m < fx->ms->job_first[j + 1]; m++)
        if (!strcmp(fx->ms->res[fx->ms->modes[m].res].id, res) && fx->ms->modes[m].count == k)
            return m;
    fprintf(stderr, "  no mode of job '%s' on '%s' with count %d\n", job, res, k);
    cp_test_failures++;
    return -1;
}
