/*
 * The solve options that `plan` and `whatif` share (capplan.5 §6: a what-if
 * scenario is planned exactly as `plan` would plan it), declared once as
 * an option table (cp_opt.h) that both commands include in theirs. Each
 * command keeps its own -o and --format.
 */
#ifndef CP_PLAN_OPTS_H
#define CP_PLAN_OPTS_H

#include "cp_methods.h"
#include "cp_opt.h"

#include <stdbool.h>

/* --mip-engine auto: CBC when the `cbc` program is on PATH, else GLPK */
#define CP_PLAN_MIP_AUTO 2

typedef struct cp_plan_opts {
    cp_solve_opts so;
    const char *method;        /* --method NAME as given */
    const cp_solver_ops *ops;  /* set by cp_plan_opts_finish */
    bool quiet, progress;      /* set by cp_plan_opts_finish */
    bool debug;                /* --progress=debug: the solvers' own lines too */
    int progress_given;        /* --progress: 1, --progress=debug: 2 */
    bool timing;               /* false with --no-timing */
    long seed;                 /* --seed, into so.seed by cp_plan_opts_finish */
    int mip_engine;            /* --mip-engine: CP_MIP_GLPK, CP_MIP_CBC or CP_PLAN_MIP_AUTO */
    char method_help[200];     /* --method's help: the methods of cp_solvers[] */
    /* The options, pointing into this struct (so it is not copied once
     * initialized): CP_OPT_INCLUDE(po.table) in a command's table. */
    cp_opt table[13];
} cp_plan_opts;

/* Defaults of `plan` (progress when stderr is a terminal) and the table. */
void cp_plan_opts_init(cp_plan_opts *o);
/* After parsing: resolves --method, --mip-engine, and quiet, progress and
 * debug from the line's -q (`quiet`) and --progress; prints a message and
 * returns false when the method is unknown or `--mip-engine cbc` finds no
 * `cbc` program on PATH. */
bool cp_plan_opts_finish(cp_plan_opts *o, const char *cmd, bool quiet);

#endif
