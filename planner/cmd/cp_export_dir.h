/*
 * export -o DIR: the exporter's files written into DIR as one set
 * (planner/cmd/export_dir.c).
 */
#ifndef CP_EXPORT_DIR_H
#define CP_EXPORT_DIR_H

#include "cp_export.h"

/* Writes x's files into a temporary folder beside dir, then puts it in
 * dir's place (created when absent): dir holds the whole new set, or,
 * on any failure, what it held before. Prints its errors; returns 0, or
 * 1 when nothing was changed. */
int cp_export_write_dir(const char *dir, const cp_export *x);

#endif
