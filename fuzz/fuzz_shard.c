/*
 * libFuzzer harness for `capplan whatif merge` (planner/whatif/
 * whatif_shard.c): the bytes are one or two shard files (split at a line
 * "--8<--", fuzz/fuzz_split.h), written to temporary files and merged
 * with cp_whatif_merge; a merged table is written in md, csv and json.
 * Oracle: no sanitizer report (float-cast-overflow included: a shard's
 * counts are doubles in JSON), no leak; merge and the writers return OK,
 * INPUT or NOMEM. Seeds: fuzz/seeds/shard/ (shards of a what-if
 * run, each alone and as a pair).
 */
#include "cp_whatif.h"
#include "fuzz_split.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[2][32] = {"/tmp/fuzz_shard0.XXXXXX", "/tmp/fuzz_shard1.XXXXXX"};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (int i = 0; i < 2; i++) {
        int fd = mkstemp(path[i]);
        if (fd < 0)
            abort();
        close(fd);
    }
    return 0;
}

static void check_rc(int rc, const char *what)
{
    if (rc != CP_OK && rc != CP_ERR_INPUT && rc != CP_ERR_NOMEM) {
        fprintf(stderr, "fuzz_shard: %s returned unexpected code %d\n", what, rc);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    const char *part[2];
    size_t len[2];
    int n = fuzz_split(text, size, 2, part, len);
    const char *paths[2] = {path[0], path[1]};
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(path[i], "wb");
        if (!f || fwrite(part[i], 1, len[i], f) != len[i] || fclose(f))
            abort();
    }
    cp_diags *d = malloc(sizeof *d);
    if (d) {
        cp_diags_init(d);
        cp_whatif_table *t = NULL;
        int rc = cp_whatif_merge(paths, n, &t, d);
        check_rc(rc, "cp_whatif_merge");
        for (int fmt = CP_WHATIF_MD; rc == CP_OK && fmt <= CP_WHATIF_JSON; fmt++) {
            cp_buf b;
            cp_buf_init(&b);
            cp_err err;
            cp_err_init(&err);
            check_rc(cp_whatif_table_write(t, (cp_whatif_format)fmt, &b, &err), "table_write");
            cp_buf_release(&b);
        }
        cp_whatif_table_free(t);
        free(d);
    }
    free(text);
    return 0;
}
