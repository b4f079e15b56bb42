/*
 * Writing an output file atomically: the data goes to FILE.tmp.XXXXXX in
 * the same directory, is fsync'ed, and is renamed over FILE, so a reader
 * (or a crash) never sees a half-written plan or fragment. The directory
 * is fsync'ed too, so the rename itself survives a power loss. Where the
 * file system allows (O_TMPFILE), the temporary file has no name until
 * it is complete, so not even SIGKILL leaves one behind.
 */
#ifndef CP_ATOMIC_H
#define CP_ATOMIC_H

#include "cp_err.h"

#include <stddef.h>

/* Writes `len` bytes of `data` to `path`. NULL, "-" and "/dev/stdout"
 * write to standard output; a path is first resolved (cp_outpath.h): a
 * symbolic link is written through (the file it names is replaced, the
 * link stays), an existing file that is not a regular one (/dev/null, a
 * fifo) and /proc's links are written in place, never replaced. A
 * replaced file keeps its permission bits (and owner, when allowed). On
 * failure the target is untouched, no temporary file is left, and err
 * names the path and the reason. Returns CP_OK, CP_ERR_INPUT (an empty
 * path) or CP_ERR_IO. */
int cp_write_file_atomic(const char *path, const char *data, size_t len, cp_err *err);

/* For a signal handler about to _exit(): removes the temporary file of a
 * cp_write_file_atomic() in progress, if any, so the target stays as it
 * was; async-signal-safe. Returns how many cp_write_file_atomic() calls
 * have completed so far (a file renamed into place, or standard output
 * flushed), so the handler can tell whether its output is already there. */
long cp_write_file_abandon(void);

#endif
