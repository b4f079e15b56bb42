/* Placeholder until the command lands; replaced by its real file. */
#include "cp_cmd.h"

#include <stdio.h>

int cp_cmd_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "capplan verify: not built yet\n");
    return 2;
}
