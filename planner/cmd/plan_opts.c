/* The solve options shared by `plan` and `whatif`; see cp_plan_opts.h. */
#include "cp_plan_opts.h"

#include "cp_cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The method of cp_plan_opts_init. */
#define DEFAULT_METHOD "auto"

void cp_plan_opts_init(cp_plan_opts *o)
{
    cp_solve_opts_init(&o->so);
    o->method = DEFAULT_METHOD;
    o->ops = NULL;
    o->quiet = false;
    o->progress = false;
    o->progress_given = false;
    o->timing = true;
}

int cp_plan_opts_parse(cp_plan_opts *o, const char *cmd, int c, const char *arg)
{
    long lv;
    switch (c) {
    case CP_PO_TIME:
        return cp_cli_double(cmd, "--time-limit", arg, 0, &o->so.time_limit) ? 1 : -1;
    case CP_PO_GAP:
        return cp_cli_double(cmd, "--gap", arg, 0, &o->so.gap) ? 1 : -1;
    case CP_PO_METHOD:
        o->method = arg;
        return 1;
    case CP_PO_THREADS:
        if (!cp_cli_long(cmd, "--threads", arg, 1, 1024, &lv))
            return -1;
        o->so.threads = (int)lv;
        return 1;
    case CP_PO_SEED:
        if (!cp_cli_long(cmd, "--seed", arg, 0, 2147483647L, &lv))
            return -1;
        o->so.seed = (unsigned long)lv;
        return 1;
    case CP_PO_NODES:
        if (!cp_cli_long(cmd, "--node-limit", arg, 1, 2147483647L, &lv))
            return -1;
        o->so.node_limit = lv;
        return 1;
    case CP_PO_EXPORT:
        o->so.export_lp = arg;
        return 1;
    case CP_PO_PROGRESS:
        o->progress_given = true;
        return 1;
    case CP_PO_NOTIMING:
        o->timing = false;
        return 1;
    default:
        return 0;
    }
}

void cp_plan_opts_help(FILE *f)
{
    fputs("  --time-limit SECONDS   stop searching after this long (default 60)\n"
          "  --gap REL              stop when the relative gap is at most REL (default 1e-4)\n"
          "  --method NAME          ", f);
    for (int i = 0; cp_solvers[i]; i++)
        fprintf(f, "%s%s%s", i == 0 ? "" : cp_solvers[i + 1] ? ", " : " or ", cp_solvers[i]->name,
                strcmp(cp_solvers[i]->name, DEFAULT_METHOD) ? "" : " (default)");
    fputs("\n"
          "  --threads N            threads for the search streams and pop's parts\n"
          "                         (default: the cores); under --node-limit plans\n"
          "                         never depend on it\n"
          "  --seed N               for randomized steps (default 1)\n"
          "  --node-limit N         stop branch-and-bound after N nodes and the search\n"
          "                         after 100 N steps: reproducible whatever the clock\n"
          "  --export-lp FILE       also write the MILP in CPLEX LP format\n"
          "  --no-timing            write solver.seconds as 0, so plans are byte-stable\n"
          "  -q, --quiet            no summary, and no progress lines unless --progress\n"
          "  --progress             progress lines on stderr (default: when stderr is a\n"
          "                         terminal and -q is not given)\n", f);
}

bool cp_plan_opts_finish(cp_plan_opts *o, const char *cmd, bool quiet)
{
    /* -q and --progress in either order: the line's options are a set */
    o->quiet = quiet;
    o->progress = o->progress_given || (!quiet && isatty(2));
    o->ops = cp_solver_find(o->method);
    if (!o->ops) {
        char names[256];
        fprintf(stderr, "capplan %s: unknown method '%s' (%s)\n", cmd, o->method,
                cp_solver_names(names, sizeof names));
        return false;
    }
    return true;
}
