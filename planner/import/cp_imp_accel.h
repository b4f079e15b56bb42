/*
 * The canonical accelerator table: one name, device memory and power per
 * accelerator type, shared by every importer so that the fragments they
 * write define each type with the same values (version 1.1 merges identical
 * definitions; two that differ are an error).
 *
 * Catalogs spell types differently (Gavel "k80", Alibaba "V100M32", Vast
 * an "H100" with 94 GB that is an H100 NVL): a spelling is looked up
 * case-insensitively and, when the catalog gives the device memory, the
 * entry whose memory is within 10 % of it is chosen among the entries
 * that list the spelling (the first listed one otherwise).
 *
 * The built-in entries (import_accel.c) cite the vendors' data sheets;
 * `--accel-table FILE` adds or replaces entries: a CSV with the columns
 * name,memory_gb,power_w,idle_power_w,spellings (spellings separated by
 * spaces; an empty power is "not published"). `capplan import
 * accelerators` prints the built-in table in that form.
 */
#ifndef CP_IMP_ACCEL_H
#define CP_IMP_ACCEL_H

#include "cp_buf.h"
#include "cp_err.h"

typedef struct cp_imp_accel {
    char *name;
    double memory_gb;
    double power_w;      /* busy draw; < 0: no published figure */
    double idle_power_w; /* < 0: no published figure */
    char *spellings;     /* space-separated other spellings (may list the name) */
} cp_imp_accel;

typedef struct cp_imp_accel_table {
    cp_imp_accel *a; /* lookup order: the file's entries first */
    int n;
    size_t cap;
} cp_imp_accel_table;

/* The built-in table plus, when `path` is not NULL, the entries of that
 * CSV (which replace built-in entries of the same name). Errors name
 * FILE:LINE:COLUMN. On success *out is a new table (cp_imp_accel_table_free). */
int cp_imp_accel_table_load(const char *path, cp_imp_accel_table **out, cp_diags *d);
void cp_imp_accel_table_free(cp_imp_accel_table *t);

/* The entry for a catalog spelling; mem_gb > 0 picks the variant with
 * that device memory (within 10 %). NULL when no entry lists the spelling,
 * or none of those has that memory (then *mem_mismatch is set). */
const cp_imp_accel *cp_imp_accel_find(const cp_imp_accel_table *t, const char *spelling,
                                      double mem_gb, int *mem_mismatch);

/* "  - {name: N, memory_gb: M, power_w: P[, idle_power_w: I]}\n" */
void cp_imp_accel_put_yaml(cp_buf *b, const cp_imp_accel *a);
/* The table as the CSV that --accel-table reads. */
void cp_imp_accel_table_csv(cp_buf *b, const cp_imp_accel_table *t);

#endif
