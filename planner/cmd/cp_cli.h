/* Helpers the command files share: loading inputs with diagnostics
 * printed once, and option parsing of numbers. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include "cp_input.h"
#include "cp_outpath.h"

#include <stdbool.h>

/* Loads the files; on failure prints every error to stderr and returns
 * the exit status (2 for bad input); 0 and *out on success. */
int cp_cli_load(const char *cmd, char *const *paths, int n, cp_input **out);
bool cp_cli_double(const char *cmd, const char *opt, const char *s, double lo, double *out);
bool cp_cli_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
/* Output safety (docs/reliability.md): records the inputs (`n_in`
 * paths, then `extra_in`: pairs role, path, NULL-terminated, e.g.
 * "--scenarios", FILE) and
 * the outputs (pairs role, path, NULL-terminated; a NULL path is
 * skipped) in `fs` (initialized here; the caller releases it), and
 * refuses an output that is an input or another output, or an empty
 * name: prints "capplan CMD: ..." and returns 2 (1 for out of memory);
 * 0 when every output may be written. */
int cp_cli_outputs(const char *cmd, cp_fileset *fs, char *const *in, int n_in,
                   const char *const *extra_in, const char *const *outs);
/* The last check of a YAML fragment that fit or import wrote: it must
 * read back (cp_yaml_load_string) and hold no number the loader refuses
 * (.inf, .nan). Prints "capplan CMD: ..." and returns 2 when not; 0
 * when it is fine (1 for out of memory). */
int cp_cli_output_loads(const char *cmd, const char *text, size_t len);
/* True when argv holds --help or -h (before any "--"). */
bool cp_cli_wants_help(int argc, char **argv);

#endif
