/* The solve options shared by `plan` and `whatif`; see cp_plan_opts.h. */
#include "cp_plan_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The method of cp_plan_opts_init. */
#define DEFAULT_METHOD "auto"
/* The MIP engine of cp_plan_opts_init (docs/performance.md, "MIP
 * engines"): auto, each use to the engine measured to win it. The
 * environment's CAPPLAN_MIP_ENGINE, when it names one, is the default
 * instead (the test suites pin glpk with it, so their plans do not depend
 * on whether `cbc` is installed). */
#define DEFAULT_MIP_ENGINE CP_PLAN_MIP_AUTO

static const cp_opt_word mip_engines[] = {
    {"auto", CP_PLAN_MIP_AUTO}, {"glpk", CP_MIP_GLPK}, {"cbc", CP_MIP_CBC}, {NULL, 0}};

/* "auto (default), milp, ... or pop": the methods of the table. */
static void method_help(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; cp_solvers[i] && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s%s",
                                i == 0 ? "" : cp_solvers[i + 1] ? ", " : " or ",
                                cp_solvers[i]->name,
                                strcmp(cp_solvers[i]->name, DEFAULT_METHOD) ? "" : " (default)");
}

/* --progress's words: alone it is the first */
static const cp_opt_word progress_words[] = {{"on", 1}, {"debug", 2}, {NULL, 0}};

void cp_plan_opts_init(cp_plan_opts *o)
{
    cp_solve_opts_init(&o->so);
    o->method = DEFAULT_METHOD;
    o->ops = NULL;
    o->quiet = false;
    o->progress = false;
    o->debug = false;
    o->progress_given = 0;
    o->timing = true;
    o->seed = (long)o->so.seed;
    o->mip_engine = DEFAULT_MIP_ENGINE;
    const char *env = getenv("CAPPLAN_MIP_ENGINE");
    for (int i = 0; env && mip_engines[i].word; i++)
        if (!strcmp(env, mip_engines[i].word))
            o->mip_engine = mip_engines[i].value;
    method_help(o->method_help, sizeof o->method_help);
    const cp_opt t[] = {
        CP_OPT_DOUBLE(0, "time-limit", &o->so.time_limit, 0, "SECONDS",
                      "stop searching after this long (default 60)"),
        CP_OPT_DOUBLE(0, "gap", &o->so.gap, 0, "REL",
                      "stop when the relative gap is at most REL (default 1e-4)"),
        CP_OPT_STRING(0, "method", &o->method, "NAME", o->method_help),
        CP_OPT_INT(0, "threads", &o->so.threads, 1, 1024, "N",
                   "threads for the search streams and pop's parts (default: the cores); "
                   "under --node-limit plans never depend on it"),
        CP_OPT_LONG(0, "seed", &o->seed, 0, 2147483647L, "N", "for randomized steps (default 1)"),
        CP_OPT_ENUM(0, "mip-engine", &o->mip_engine, mip_engines, "NAME",
                    "who solves a small night's branch-and-cut and the search's sub-MIPs: auto "
                    "(default: cbc for branch-and-cut when it is on PATH, glpk for the "
                    "sub-MIPs), glpk (linked in) or cbc (the `cbc` program, run apart, for both)"),
        CP_OPT_LONG(0, "node-limit", &o->so.node_limit, 1, 2147483647L, "N",
                    "stop branch-and-bound after N nodes and the search after 100 N steps: "
                    "reproducible whatever the clock"),
        CP_OPT_STRING(0, "export-lp", &o->so.export_lp, "FILE",
                      "also write the MILP in CPLEX LP format"),
        CP_OPT_UNSET(0, "no-timing", &o->timing,
                     "write solver.seconds as 0, so plans are byte-stable"),
        CP_OPT_QUIET("no summary, and no progress lines unless --progress"),
        {CP_OPTF_ENUM(0, "progress", &o->progress_given, progress_words, "debug",
                      "progress on stderr: plan, a line a second (elapsed, best plan, bound, "
                      "gap, phase); whatif, a line a row; =debug adds the solvers' own lines "
                      "(default: when stderr is a terminal and -q is not given)"),
         .optional = true},
        CP_OPT_END(),
    };
    _Static_assert(sizeof t <= sizeof o->table, "cp_plan_opts.table is too small");
    memcpy(o->table, t, sizeof t);
}

bool cp_plan_opts_finish(cp_plan_opts *o, const char *cmd, bool quiet)
{
    /* -q and --progress in either order: the line's options are a set */
    o->quiet = quiet;
    o->progress = o->progress_given || (!quiet && isatty(2));
    o->debug = o->progress_given == 2;
    o->so.seed = (unsigned long)o->seed;
    if (o->mip_engine == CP_PLAN_MIP_AUTO) {
        /* CBC where it wins (docs/performance.md, "MIP engines"): a
         * night's branch-and-cut; GLPK's sub-MIPs are quicker */
        o->so.mip_engine = cp_mip_engine_auto();
        o->so.sub_engine = CP_MIP_GLPK;
    } else if (o->mip_engine == CP_MIP_CBC && cp_mip_engine_auto() != CP_MIP_CBC) {
        fprintf(stderr,
                "capplan %s: --mip-engine cbc: no 'cbc' program on PATH (Debian: apt-get "
                "install coinor-cbc)\n",
                cmd);
        return false;
    } else {
        o->so.mip_engine = o->so.sub_engine = (cp_mip_engine)o->mip_engine;
    }
    o->ops = cp_solver_find(o->method);
    if (!o->ops) {
        char names[256];
        fprintf(stderr, "capplan %s: unknown method '%s' (%s)\n", cmd, o->method,
                cp_solver_names(names, sizeof names));
        return false;
    }
    return true;
}
