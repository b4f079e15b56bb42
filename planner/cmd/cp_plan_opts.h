/*
 * The solve options that `plan` and `whatif` share (capplan.5 §6: a what-if
 * scenario is planned exactly as `plan` would plan it), declared once as
 * data: the getopt_long entries (CP_PLAN_LONGOPTS), the parser of one
 * option and the help lines. Each command keeps its own -o and --format.
 */
#ifndef CP_PLAN_OPTS_H
#define CP_PLAN_OPTS_H

#include "cp_methods.h"

#include <getopt.h>
#include <stdio.h>
#include <stdbool.h>

typedef struct cp_plan_opts {
    cp_solve_opts so;
    const char *method;        /* --method NAME as given */
    const cp_solver_ops *ops;  /* set by cp_plan_opts_finish */
    bool quiet, progress;      /* set by cp_plan_opts_finish */
    bool progress_given;       /* --progress */
    bool timing;               /* false with --no-timing */
} cp_plan_opts;

/* Option codes of the shared long options (above any char value). */
enum {
    CP_PO_TIME = 0x200, CP_PO_GAP, CP_PO_METHOD, CP_PO_THREADS, CP_PO_SEED, CP_PO_EXPORT,
    CP_PO_PROGRESS, CP_PO_NODES, CP_PO_NOTIMING
};

/* getopt_long entries of the shared options, to put in a command's table. */
#define CP_PLAN_LONGOPTS                                                                      \
    {"time-limit", required_argument, NULL, CP_PO_TIME},                                      \
        {"gap", required_argument, NULL, CP_PO_GAP},                                          \
        {"method", required_argument, NULL, CP_PO_METHOD},                                    \
        {"threads", required_argument, NULL, CP_PO_THREADS},                                  \
        {"seed", required_argument, NULL, CP_PO_SEED},                                        \
        {"export-lp", required_argument, NULL, CP_PO_EXPORT},                                 \
        {"progress", no_argument, NULL, CP_PO_PROGRESS},                                      \
        {"node-limit", required_argument, NULL, CP_PO_NODES},                                 \
        {"no-timing", no_argument, NULL, CP_PO_NOTIMING}

/* Writes the help lines of the shared options (after a command's -o and
 * --format); the --method line lists the methods of cp_solvers[]. */
void cp_plan_opts_help(FILE *f);

/* Defaults of `plan` (progress when stderr is a terminal). */
void cp_plan_opts_init(cp_plan_opts *o);
/* Takes option `c` (a CP_PO_* code) with its argument (-q/--quiet is
 * every command's: cp_cli_args_std). Returns 1
 * when handled, 0 when `c` is not a shared option, -1 when its value is
 * bad (the message, naming `cmd`, is printed on stderr). */
int cp_plan_opts_parse(cp_plan_opts *o, const char *cmd, int c, const char *arg);
/* Resolves --method, and quiet and progress from the line's -q
 * (`quiet`) and --progress; prints a message and returns false when the
 * method is unknown. */
bool cp_plan_opts_finish(cp_plan_opts *o, const char *cmd, bool quiet);

#endif
