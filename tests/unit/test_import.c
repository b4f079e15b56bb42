/* Allocation failure through every importer (planner/import/): for N =
 * 0, 1, 2, ... every allocation from the N-th on fails (cp_alloc.h) while
 * an importer runs on a small file of the repository. Each run must end
 * with CP_ERR_NOMEM and "out of memory" in its diagnostics, or, when the
 * failures came too late to matter, with exactly the fragment of the run
 * without failures; `out` keeps its old text on failure. No crash and,
 * under `make asan` / `make valgrind`, no leak. */
#include "test.h"

#include "cp_alloc.h"
#include "cp_import.h"

#include <stdlib.h>
#include <string.h>

typedef int (*import_fn)(const void *arg, cp_buf *out, cp_diags *d);

static int run_sky(const void *arg, cp_buf *out, cp_diags *d)
{
    (void)arg;
    cp_import_skypilot_opts o;
    cp_import_skypilot_opts_init(&o);
    const char *map[] = {"m4.2xlarge=n1-standard-8"};
    o.type_map = map;
    o.n_type_map = 1;
    return cp_import_skypilot("tests/fit/gcp-extract.csv", &o, out, d);
}

static int run_gavel(const void *arg, cp_buf *out, cp_diags *d)
{
    cp_import_gavel_opts o;
    cp_import_gavel_opts_init(&o);
    o.trace = arg;
    return cp_import_gavel("tests/fit/gavel-extract.csv", &o, out, d);
}

static int run_series(const void *arg, cp_buf *out, cp_diags *d)
{
    (void)arg;
    cp_import_series_opts o;
    cp_import_series_opts_init(&o);
    o.site = "de";
    o.start = "2023-06-01T00:00";
    o.slots = 6;
    o.slot_hours = 0.5;
    o.energy_price = "tests/import/bad/series-eur.csv";
    o.carbon = "tests/import/carbon-small.csv";
    o.scale = 1.08;
    o.horizon = true;
    return cp_import_series(&o, out, d);
}

static int run_inventory(const void *arg, cp_buf *out, cp_diags *d)
{
    (void)arg;
    cp_import_inventory_opts o;
    cp_import_inventory_opts_init(&o);
    o.site = "s";
    o.accel_table = "tests/import/bad/accel-hostile.csv";
    o.cpu_nodes = true;
    return cp_import_inventory("tests/import/inventory-small.csv", &o, out, d);
}

static int run_pollux(const void *arg, cp_buf *out, cp_diags *d)
{
    cp_import_pollux_opts o;
    cp_import_pollux_opts_init(&o);
    o.trace = arg;
    return cp_import_pollux("tests/import/bad/pollux-ok.csv", &o, out, d);
}

static int run_accelerators(const void *arg, cp_buf *out, cp_diags *d)
{
    (void)arg;
    return cp_import_accelerators("tests/import/bad/accel-hostile.csv", out, d);
}

/* One run: its status, the fragment (owned by the caller) on success,
 * and whether the diagnostics say "out of memory". */
static int run_once(import_fn fn, const void *arg, char **text, bool *said_nomem)
{
    cp_diags *d = cp_malloc(sizeof *d);
    *text = NULL;
    *said_nomem = false;
    if (!d)
        return CP_ERR_NOMEM;
    cp_diags_init(d);
    cp_buf out;
    cp_buf_init(&out);
    int rc = fn(arg, &out, d);
    for (int i = 0; i < d->n; i++)
        if (strstr(d->items[i].msg, "out of memory"))
            *said_nomem = true;
    if (rc == CP_OK)
        *text = out.s ? strdup(out.s) : strdup("");
    cp_buf_release(&out);
    cp_free(d);
    return rc;
}

static void sweep(const char *name, import_fn fn, const void *arg)
{
    char *want = NULL;
    bool said;
    cp_alloc_fail_after(-1);
    CHECK_INT(run_once(fn, arg, &want, &said), CP_OK);
    long total = cp_alloc_count();
    CHECK(total > 3);
    long bad = 0;
    for (long n = 0; n <= total && bad < 5; n++) {
        char *got = NULL;
        cp_alloc_fail_after(n);
        int rc = run_once(fn, arg, &got, &said);
        cp_alloc_fail_after(-1);
        if (rc == CP_ERR_NOMEM ? !said && n > 0 : rc != CP_OK || !got || strcmp(got, want)) {
            fprintf(stderr, "  %s, allocation %ld of %ld: rc %d%s\n", name, n, total, rc,
                    rc == CP_OK ? ", another fragment" : "");
            bad++;
        }
        free(got);
    }
    CHECK_INT(bad, 0);
    free(want);
}

TEST(alloc_fail_through_importers)
{
    sweep("skypilot", run_sky, NULL);
    sweep("gavel", run_gavel, NULL);
    sweep("gavel --trace", run_gavel, "tests/import/gavel-small.trace");
    sweep("series", run_series, NULL);
    sweep("inventory", run_inventory, NULL);
    sweep("pollux", run_pollux, NULL);
    sweep("pollux --trace", run_pollux, "tests/import/philly-small.csv");
    sweep("accelerators", run_accelerators, NULL);
}
