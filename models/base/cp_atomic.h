/*
 * Writing an output file atomically: the data goes to FILE.tmp.XXXXXX in
 * the same directory, is fsync'ed, and is renamed over FILE, so a reader
 * (or a crash) never sees a half-written plan or fragment. The directory
 * is fsync'ed too, so the rename itself survives a power loss.
 */
#ifndef CP_ATOMIC_H
#define CP_ATOMIC_H

#include "cp_err.h"

#include <stddef.h>

/* Writes `len` bytes of `data` to `path`; path NULL or "-" writes to
 * standard output instead, and an existing path that is not a regular
 * file (/dev/null, a fifo) is written in place, never replaced. On failure the target is untouched, the
 * temporary file is removed, and err names the path and the reason.
 * Returns CP_OK or CP_ERR_IO. */
int cp_write_file_atomic(const char *path, const char *data, size_t len, cp_err *err);

/* For a signal handler about to _exit(): removes the temporary file of a
 * cp_write_file_atomic() in progress, if any, so the target stays as it
 * was; async-signal-safe. Returns how many cp_write_file_atomic() calls
 * have completed so far (a file renamed into place, or standard output
 * flushed), so the handler can tell whether its output is already there. */
long cp_write_file_abandon(void);

#endif
