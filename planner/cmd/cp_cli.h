/* Helpers the command files share: loading inputs with diagnostics
 * printed once, and option parsing of numbers. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include "cp_input.h"

#include <stdbool.h>

/* Loads the files; on failure prints every error to stderr and returns
 * the exit status (2 for bad input); 0 and *out on success. */
int cp_cli_load(const char *cmd, char *const *paths, int n, cp_input **out);
bool cp_cli_double(const char *cmd, const char *opt, const char *s, double lo, double *out);
bool cp_cli_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
/* True when argv holds --help or -h (before any "--"). */
bool cp_cli_wants_help(int argc, char **argv);

#endif
