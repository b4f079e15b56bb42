/* Shared by the `import` subcommands (planner/cmd_import.c, import_*.c). */
#ifndef CP_IMPORT_INTERNAL_H
#define CP_IMPORT_INTERNAL_H

#include "cp_err.h"

#include <stdio.h>

/* `capplan import skypilot ...`; argv[0] is "skypilot". */
int cp_import_skypilot(int argc, char **argv);

#endif
