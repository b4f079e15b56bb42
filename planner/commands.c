/* The command registry: adding a command is one file and one line here. */
#include "cp_cmd.h"

#include "cp_suggest.h"

#include <string.h>

const cp_command cp_commands[] = {
    {"check", cp_cmd_check, "validate inputs and summarize them, with every job's modes"},
    {"plan", cp_cmd_plan, "solve the planning problem and write a plan"},
    {"whatif", cp_cmd_whatif, "plan the inputs under scenarios and compare the totals"},
    {"place", cp_cmd_place, "pack a solution of the exported model (glpsol, CBC) or a plan into a plan"},
    {"verify", cp_cmd_verify, "check a plan against the inputs and re-cost it"},
    {"explain", cp_cmd_explain, "why a job runs where a plan puts it: its modes priced in that plan"},
    {"diff", cp_cmd_diff, "compare two plans: moved, added, dropped, restarted jobs and the costs"},
    {"fit", cp_cmd_fit, "fit throughput or runtime models to measured samples"},
    {"import", cp_cmd_import, "turn catalogs and measurements into input fragments"},
    {"report", cp_cmd_report, "draw a plan as a self-contained HTML page"},
    {"export", cp_cmd_export, "turn a plan into sbatch scripts and SkyPilot launch files"},
    {NULL, NULL, NULL},
};

const cp_command *cp_command_find(const char *name)
{
    for (const cp_command *c = cp_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

const char *cp_command_suggest(const char *name)
{
    const char *names[sizeof cp_commands / sizeof cp_commands[0]];
    size_t n = 0;
    for (const cp_command *c = cp_commands; c->name; c++)
        names[n++] = c->name;
    names[n] = NULL;
    return cp_suggest(name, names);
}
