/*
 * libFuzzer harness for the CSV readers: the first byte picks the path,
 * the rest is the file.
 *   k, K  the SkyPilot importer (K with accelerators, site, types and
 *         provider set)
 *   g     the Gavel importer on a CSV, j on JSON
 *   c     the C3O importer (TSV)
 *   d     `capplan fit dataflow`, t `fit training`, a `fit training
 *         --scaling amdahl` (the sample readers of models/formats/cp_csv.h
 *         and models/fit/cp_fit*.c, the NNLS and LOO fits, the fragment
 *         writer)
 *   other cp_csv_read_string with the separator guessed, ',' or '\t'
 * The importers (planner/import/cp_import.h) and `fit` take a path, so
 * the bytes go to a file in a private temporary folder; fit's output goes
 * to /dev/null, which cp_write_file_atomic writes in place. Oracle: no
 * sanitizer report, no leak; an importer returns CP_OK, CP_ERR_INPUT,
 * CP_ERR_IO or CP_ERR_NOMEM, with its first error's code in the
 * diagnostics (CP_OK with warnings only) and the fragment only on
 * success; fit exits 0, 1 or 2 (1: a fit that cannot be made).
 */
#include "cp_cmd.h"
#include "cp_csv.h"
#include "cp_import.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static char path[300];
static cp_diags *diags; /* large: allocated once */

static void cleanup(void)
{
    static const char *const ext[] = {"csv", "tsv", "json"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/in.%s", dir, ext[i]);
        unlink(path);
    }
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/capplan-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz_csv: mkdtemp");
        abort();
    }
    atexit(cleanup);
    if (!(diags = malloc(sizeof *diags))) {
        perror("fuzz_csv: malloc");
        abort();
    }
    return 0;
}

static const char *put(const char *ext, const uint8_t *data, size_t size)
{
    snprintf(path, sizeof path, "%s/in.%s", dir, ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror("fuzz_csv: writing the input");
        abort();
    }
    return path;
}

static void run(int (*cmd)(int, char **), int argc, const char **argv)
{
    int st = cmd(argc, (char **)argv);
    if (st != 0 && st != 1 && st != 2) {
        fprintf(stderr, "fuzz_csv: %s %s exited %d\n", argv[0], argv[1], st);
        abort();
    }
}

/* Checks one importer's result against the contract of cp_import.h and
 * prints its diagnostics (the printer is fuzzed too). */
static void check_import(const char *who, int rc, const cp_diags *d, cp_buf *b)
{
    static FILE *devnull;
    if (!devnull && !(devnull = fopen("/dev/null", "w"))) {
        perror("fuzz_csv: /dev/null");
        abort();
    }
    cp_diags_print(d, devnull);
    bool known = rc == CP_OK || rc == CP_ERR_INPUT || rc == CP_ERR_IO || rc == CP_ERR_NOMEM;
    if (!known || rc != d->worst || (rc == CP_OK) != (b->len > 0)) {
        fprintf(stderr, "fuzz_csv: %s returned %d, diagnostics say %d, %zu bytes out\n", who, rc,
                d->worst, b->len);
        abort();
    }
    cp_buf_release(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char sel = (char)data[0];
    data++;
    size--;
    const char *p;
    cp_buf b;
    cp_buf_init(&b);
    switch (sel) {
    case 'k':
    case 'K': {
        p = put("csv", data, size);
        cp_import_skypilot_opts o;
        cp_import_skypilot_opts_init(&o);
        if (sel == 'K') {
            o.accelerators = "V100,A100,T4";
            o.site = "dc";
            o.types = "^[a-z]";
            o.provider = "gcp";
        }
        cp_diags_init(diags);
        check_import("cp_import_skypilot", cp_import_skypilot(p, &o, &b, diags), diags, &b);
        break;
    }
    case 'g':
    case 'j': {
        p = put(sel == 'g' ? "csv" : "json", data, size);
        cp_import_gavel_opts o;
        cp_import_gavel_opts_init(&o);
        cp_diags_init(diags);
        check_import("cp_import_gavel", cp_import_gavel(p, &o, &b, diags), diags, &b);
        break;
    }
    case 'c': {
        p = put("tsv", data, size);
        cp_import_c3o_opts o;
        cp_import_c3o_opts_init(&o);
        cp_diags_init(diags);
        check_import("cp_import_c3o", cp_import_c3o(p, &o, &b, diags), diags, &b);
        break;
    }
    case 'd':
    case 't':
    case 'a': {
        p = put("csv", data, size);
        const char *av[] = {"fit", sel == 'd' ? "dataflow" : "training", p, "-o", "/dev/null",
                            "--scaling", sel == 'a' ? "amdahl" : "table", NULL};
        run(cp_cmd_fit, sel == 'd' ? 5 : 7, av);
        break;
    }
    default: {
        cp_csv *csv = NULL;
        cp_err err;
        cp_err_init(&err);
        char delim = sel == ',' || sel == '\t' ? sel : 0;
        int rc = cp_csv_read_string("in.csv", (const char *)data, size, delim, &csv, &err);
        if (rc == CP_OK) {
            for (int i = 0; i < csv->n_rows; i++) {
                double v;
                for (int c = 0; c < csv->head.n + 1; c++)
                    (void)cp_csv_number(cp_csv_get(&csv->rows[i], c), &v);
            }
            (void)cp_csv_col(csv, "job");
        } else if (rc != CP_ERR_INPUT && rc != CP_ERR_NOMEM) {
            fprintf(stderr, "fuzz_csv: cp_csv_read_string returned %d\n", rc);
            abort();
        }
        cp_csv_free(csv);
        break;
    }
    }
    return 0;
}
