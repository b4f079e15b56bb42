/* The solve options shared by `plan` and `whatif`; see cp_plan_opts.h. */
#include "cp_plan_opts.h"

#include "cp_cli.h"

#include <stdio.h>
#include <unistd.h>

void cp_plan_opts_init(cp_plan_opts *o)
{
    cp_solve_opts_init(&o->so);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->so.threads = cores > 0 && cores <= 1024 ? (int)cores : 1;
    o->method = "auto";
    o->ops = NULL;
    o->quiet = false;
    o->progress = isatty(2);
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
    case 'q':
    case CP_PO_QUIET:
        o->quiet = true;
        o->progress = false;
        return 1;
    case CP_PO_PROGRESS:
        o->progress = true;
        o->quiet = false;
        return 1;
    case CP_PO_NOTIMING:
        o->timing = false;
        return 1;
    default:
        return 0;
    }
}

bool cp_plan_opts_finish(cp_plan_opts *o, const char *cmd)
{
    o->ops = cp_solver_find(o->method);
    if (!o->ops) {
        fprintf(stderr, "capplan %s: unknown method '%s' (auto, milp, heuristic, lagrange or pop)\n", cmd,
                o->method);
        return false;
    }
    return true;
}
