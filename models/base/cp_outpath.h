/*
 * Output safety: where a write to a path really lands, and whether two
 * paths are one file. Every command that writes files records its inputs
 * and outputs in one cp_fileset before it does any work, and refuses
 * (exit 2, naming both) an output that is one of its inputs or another
 * of its outputs: `plan -o in.yaml in.yaml` must not destroy the input.
 *
 * Files are compared by device and inode, never by name, so `./in.yaml`,
 * a hard link and a symbolic link to it are all the same file. An output
 * that does not exist yet is known by its directory's device and inode
 * and its last name, so `whatif -o X --report X` is caught too.
 *
 * The same resolution is what cp_write_file_atomic uses: symbolic links
 * are followed to the file they name (which is then replaced, the link
 * stays a link), and paths through /proc (`/dev/stdout` and friends are
 * links into /proc/self/fd) are written in place, never renamed over.
 */
#ifndef CP_OUTPATH_H
#define CP_OUTPATH_H

#include "cp_err.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How a write to a path is done. */
typedef enum {
    CP_OUT_STDOUT,  /* "-", "/dev/stdout": the standard output stream */
    CP_OUT_INPLACE, /* an existing non-regular file or a /proc link: opened and written */
    CP_OUT_REPLACE, /* a regular file or a new one: a temporary file renamed over it */
} cp_out_kind;

/* The file a write to `path` lands on: the final symbolic link of the
 * chain followed (relative targets against the link's folder, at most
 * 40 links), so a dangling link gives the file it would create. On
 * success *out is a new string (cp_free) and *kind how to write it.
 * Returns CP_OK, CP_ERR_IO (a loop of links, a name too long: err says
 * so, naming path) or CP_ERR_NOMEM. */
int cp_outpath_resolve(const char *path, char **out, cp_out_kind *kind, cp_err *err);

typedef struct cp_fileset_item {
    char *path;   /* as given (owned copy) */
    char *role;   /* "input", "-o", "--report", ... (owned copy) */
    dev_t dev;
    ino_t ino;
    char *leaf;   /* NULL when the file exists; else its last name, with
                   * dev and ino those of its folder */
    bool output;
} cp_fileset_item;

typedef struct cp_fileset {
    cp_fileset_item *v;
    size_t n, cap;
} cp_fileset;

void cp_fileset_init(cp_fileset *s);
void cp_fileset_release(cp_fileset *s);

/* Records a file the command reads. A file that cannot be found is left
 * out (its reader reports it). CP_OK or CP_ERR_NOMEM. */
int cp_fileset_input(cp_fileset *s, const char *path, const char *role, cp_err *err);

/* Records a file the command will write (`role` names the option, e.g.
 * "-o"). Standard output and devices are not recorded (two outputs to
 * /dev/null are fine). Returns CP_ERR_INPUT, with a message naming both
 * paths, when it is one of the recorded inputs or outputs; CP_ERR_IO
 * when it cannot be resolved; CP_ERR_NOMEM; else CP_OK. */
int cp_fileset_output(cp_fileset *s, const char *path, const char *role, cp_err *err);

/* True when `path` (resolved as above) names an existing file. */
bool cp_outpath_exists(const char *path);

#endif
