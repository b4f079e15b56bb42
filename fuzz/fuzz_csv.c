/*
 * libFuzzer harness for the CSV readers: the first byte picks the path,
 * the rest is the file.
 *   k, K  `capplan import skypilot` (K with --accelerators/--site/--types)
 *   g     `capplan import gavel` on a CSV, j on JSON
 *   c     `capplan import c3o` (TSV)
 *   d     `capplan fit dataflow`, t `fit training`, a `fit training
 *         --scaling amdahl` (the sample readers of models/cp_csv.h and
 *         models/cp_fit*.c, the NNLS and LOO fits, the fragment writer)
 *   other cp_csv_read_string with the separator guessed, ',' or '\t'
 * The importers take a path (they are commands), so the bytes go to a
 * file in a private temporary folder; output goes to /dev/null, which
 * cp_write_file_atomic writes in place. Oracle: no sanitizer report, no
 * leak, exit status 0, 1 or 2 (1: a fit that cannot be made).
 */
#include "cp_cmd.h"
#include "cp_csv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static char path[300];

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char sel = (char)data[0];
    data++;
    size--;
    const char *p;
    switch (sel) {
    case 'k': {
        p = put("csv", data, size);
        const char *av[] = {"import", "skypilot", p, "-o", "/dev/null", NULL};
        run(cp_cmd_import, 5, av);
        break;
    }
    case 'K': {
        p = put("csv", data, size);
        const char *av[] = {"import", "skypilot", p, "-o", "/dev/null", "--accelerators",
                            "V100,A100,T4", "--site", "dc", "--types", "^[a-z]", "--provider",
                            "gcp", NULL};
        run(cp_cmd_import, 13, av);
        break;
    }
    case 'g':
    case 'j': {
        p = put(sel == 'g' ? "csv" : "json", data, size);
        const char *av[] = {"import", "gavel", p, "-o", "/dev/null", NULL};
        run(cp_cmd_import, 5, av);
        break;
    }
    case 'c': {
        p = put("tsv", data, size);
        const char *av[] = {"import", "c3o", p, "-o", "/dev/null", NULL};
        run(cp_cmd_import, 5, av);
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
