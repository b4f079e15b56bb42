/*
 * Whole-file reading: the one place that opens an input file (YAML, CSV,
 * scenario files) and reads all of it into memory, with one size limit
 * and one message per way it can fail, each naming the file:
 *
 *     FILE: error: cannot open: No such file or directory
 *     FILE: error: is a directory, not a YAML file
 *     FILE: error: file is larger than 64 MiB (104857600 bytes)
 *     FILE: error: file is larger than 64 MiB (more than 67108864 bytes)
 *     FILE: error: cannot read: Input/output error
 *     FILE: error: out of memory
 *
 * A regular file over the limit is refused from its size, before a byte
 * is read; a pipe or device (`/dev/stdin`, a FIFO) has no size up front,
 * so the read itself stops one byte past the limit (the second
 * "larger than" message). The bound is what
 * keeps a mistaken argument (a disk image, /dev/zero) from taking the
 * machine's memory.
 */
#ifndef CP_FILE_H
#define CP_FILE_H

#include "cp_err.h"

#include <stddef.h>

/* The largest input file read, in bytes (docs/reliability.md). */
#define CP_FILE_MAX_BYTES (64L * 1024 * 1024)

/* Reads all of `path` (borrowed; copied into the error). `kind` names
 * what the file should be, for the directory message ("YAML" gives "is
 * a directory, not a YAML file"; NULL gives "is a directory"). On success
 * *text is the contents plus a terminating NUL (owned by the caller, free
 * with cp_free; it may hold other NULs) and *len their length without it;
 * nothing is written on failure. Returns CP_OK, CP_ERR_INPUT (cannot
 * open, a directory, too large, cannot read) or CP_ERR_NOMEM, with the
 * message in `err` (may be NULL). */
int cp_file_read(const char *path, const char *kind, char **text, size_t *len, cp_err *err);
/* The same with another limit than CP_FILE_MAX_BYTES (plan files, which
 * may be larger than their inputs: CP_PLAN_MAX_BYTES, cp_plan_read.h);
 * the message gives `max` in MiB. */
int cp_file_read_max(const char *path, const char *kind, size_t max, char **text, size_t *len,
                     cp_err *err);

#endif
