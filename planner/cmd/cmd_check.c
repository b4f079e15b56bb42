/*
 * capplan check: validate the inputs and print what the planner will see:
 * horizon, sites, pools with capacity per dimension, offers and their
 * markets, and per job its number of modes, fastest and cheapest mode, or
 * why it has none.
 */
#include "cp_alloc.h"
#include "cp_atomic.h"
#include "cp_check_modes.h"
#include "cp_cli.h"
#include "cp_cmd.h"
#include "cp_cost.h"
#include "cp_modes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cp_cli_help check_help = {
    "usage: capplan check [options] FILE...\n"
    "\n"
    "Validate the input files (merged in the order given) and print a summary:\n"
    "horizon, sites, pools with capacity per dimension, offers and markets, and\n"
    "per job the number of modes, the fastest mode (resource, count, hours) and\n"
    "the cheapest mode ($ for one run at slot-0 prices), or why it has none.\n"
    "Hard contradictions (a power cap below a site's idle baseline, a budget\n"
    "below the baseline energy cost) are errors naming the site and slots;\n"
    "keys that have no effect are warnings.\n"
    "\n",
    "\n"
    "Options may come before, between or after the files; '--' ends them.\n"
    "Exit status: 0 valid, 2 bad input (every error is printed as\n"
    "FILE:LINE:COLUMN: error: MESSAGE). The full reference: man ./capplan.1\n"
    "(input keys: man ./capplan.5) in the source tree.\n"};

static void print_series(FILE *f, const cp_series *s, int slots, const char *unit)
{
    double lo = INFINITY, hi = -INFINITY;
    int n = s->n == 1 ? 1 : slots;
    for (int t = 0; t < n; t++) {
        double v = cp_series_at(s, t);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (lo == hi)
        fprintf(f, "%g%s", lo, unit);
    else
        fprintf(f, "%g..%g%s", lo, hi, unit);
}

static void print_machine(FILE *f, const cp_input *in, const cp_machine *m)
{
    if (m->acc >= 0)
        fprintf(f, "%d x %s (%g GB), ", m->accelerators, in->accels[m->acc].name,
                in->accels[m->acc].memory_gb);
    fprintf(f, "%g cpus, %g GB, type %s", m->cpus, m->memory_gb, m->type);
}

static void print_mode(FILE *f, const cp_input *in, const cp_modeset *ms, const cp_mode *m)
{
    const cp_resource *r = &ms->res[m->res];
    const cp_job *j = &in->jobs[m->job];
    const char *market = r->kind == CP_RES_POOL ? "" : r->kind == CP_RES_SPOT ? " spot" : " on-demand";
    if (j->kind == CP_JOB_TRAINING)
        fprintf(f, "%s%s, %d x %s", r->name, market, m->count, in->accels[m->acc].name);
    else
        fprintf(f, "%s%s, %d x %s", r->name, market, m->count, r->mach->type);
    if (m->limit >= 0)
        fprintf(f, " at %g W", j->power_limits[m->limit].limit_w);
}

/* Is `name` one of the --modes JOB arguments? */
static bool modes_wanted(const char *const *modes, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(modes[i], name))
            return true;
    return false;
}

static int check_input(const cp_input *in, const char *const *modes, int n_modes, long top,
                       const char *out_path, bool quiet);

/* Every --modes JOB names a job: 0, or 2 with the message printed. */
static int modes_known(const char *const *modes, int n, const cp_input *in)
{
    for (int i = 0; i < n; i++)
        if (cp_input_find_job(in, modes[i]) < 0) {
            fprintf(stderr, "capplan check: --modes: no job named '%s'\n", modes[i]);
            return 2;
        }
    return 0;
}

int cp_cmd_check(int argc, char **argv)
{
    cp_opt_list modes = {NULL, 0};
    long top = 10;
    const char *out_path = NULL;
    const cp_opt opts[] = {
        CP_OPT_LIST(0, "modes", &modes, "JOB",
                    "also print JOB's considered resources: its modes cheapest first "
                    "(resource, market, count, shape, hours, slots, start window, cost from "
                    "its cheapest start), marked fastest, cheapest or dominated, and why each "
                    "other resource or count is excluded (repeatable)"),
        CP_OPT_LONG(0, "top", &top, 0, 1000000000L, "N",
                    "with --modes, list the N cheapest modes and N exclusion lines, and count "
                    "the rest (default 10; 0 lists all)"),
        CP_OPT_STRING('o', NULL, &out_path, "FILE",
                      "write the summary there (atomically); default stdout"),
        CP_OPT_QUIET("no summary: only errors and warnings, and the exit status"),
        CP_OPT_END(),
    };
    cp_cli_args a;
    int st = cp_cli_parse(&a, "check", argc, argv, opts, &check_help);
    if (st != CP_CLI_RUN)
        return st;
    const char *outs[] = {"-o", out_path, NULL};
    st = cp_cli_outputs_ok("check", a.operands, a.n_operands, NULL, outs);
    cp_input *in = NULL;
    if (!st && !(st = cp_cli_load("check", a.operands, a.n_operands, &in)) &&
        !(st = modes_known(modes.v, modes.n, in)))
        st = check_input(in, modes.v, modes.n, top, out_path, a.quiet);
    cp_cli_args_release(&a);
    cp_input_free(in);
    return st;
}

/* capplan.5 §4's contradictions make `plan` exit 3 whatever it does: for
 * check they are errors, at the cap or the budget. 0, or the exit status
 * with the errors printed. */
static int contradictions(const cp_input *in)
{
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan check: out of memory\n");
        return 1;
    }
    cp_diags_init(d);
    int bad = cp_input_contradictions(in, d, NULL, 0);
    if (bad)
        cp_diags_print(d, stderr);
    cp_free(d);
    return bad ? 2 : 0;
}

/* A service's min_replicas that its deployments cannot hold: an error
 * at the min_replicas, as `plan` exits 3 on it. 0, or the exit status
 * with the errors printed. */
static int svc_contradictions(const cp_input *in, const cp_modeset *ms)
{
    cp_diags *d = cp_malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "capplan check: out of memory\n");
        return 1;
    }
    cp_diags_init(d);
    int bad = cp_svc_contradictions(in, ms, d, NULL, 0);
    if (bad)
        cp_diags_print(d, stderr);
    cp_free(d);
    return bad ? 2 : 0;
}

/* The horizon, the objective's settings and the sites. */
static void print_horizon_sites(FILE *f, const cp_input *in)
{
    fprintf(f, "horizon: %d slots of %g h (%g h)", in->slots, in->slot_hours,
            cp_input_horizon_hours(in));
    if (in->start)
        fprintf(f, ", starting %s", in->start);
    fprintf(f, "\nobjective: carbon price %g $/t, budget ", in->carbon_price_per_ton);
    if (in->has_budget)
        fprintf(f, "%g $", in->budget);
    else
        fprintf(f, "none");
    if (in->has_deadline_confidence)
        fprintf(f, ", deadline confidence %g", in->deadline_confidence);
    fprintf(f, "\n\nsites (%d):\n", in->n_sites);
    for (int s = 0; s < in->n_sites; s++) {
        const cp_site *st = &in->sites[s];
        fprintf(f, "  %s: pue %g, energy ", st->name, st->pue);
        print_series(f, &st->energy_price, in->slots, " $/kWh");
        fprintf(f, ", carbon ");
        print_series(f, &st->carbon_intensity, in->slots, " gCO2/kWh");
        fprintf(f, ", idle baseline %g kW", st->pue * cp_site_baseline_w(in, s, 0) / 1000);
        if (st->power_cap_kw.set) {
            fprintf(f, ", cap ");
            print_series(f, &st->power_cap_kw, in->slots, " kW");
        }
        fputc('\n', f);
    }
}

/* The accelerators, the pools with their capacity, the offers with their
 * markets. */
static void print_hardware(FILE *f, const cp_input *in)
{
    fprintf(f, "\naccelerators (%d):\n", in->n_accels);
    for (int a = 0; a < in->n_accels; a++)
        fprintf(f, "  %s: %g GB, %g W busy, %g W idle\n", in->accels[a].name,
                in->accels[a].memory_gb, in->accels[a].power_w, in->accels[a].idle_power_w);
    fprintf(f, "\npools (%d):\n", in->n_pools);
    for (int p = 0; p < in->n_pools; p++) {
        const cp_pool *pl = &in->pools[p];
        fprintf(f, "  %s at %s: %d nodes", pl->name, in->sites[pl->site].name, pl->nodes);
        if (pl->available.set) {
            fprintf(f, " (available ");
            print_series(f, &pl->available, in->slots, ")");
        }
        fprintf(f, " of ");
        print_machine(f, in, &pl->node);
        fprintf(f, "\n    capacity: %g accelerators, %g cpus, %g GB\n",
                (double)pl->nodes * pl->node.accelerators, pl->nodes * pl->node.cpus,
                pl->nodes * pl->node.memory_gb);
    }
    int markets = 0;
    for (int o = 0; o < in->n_offers; o++)
        markets += 1 + in->offers[o].has_spot;
    fprintf(f, "\noffers (%d, %d markets):\n", in->n_offers, markets);
    for (int o = 0; o < in->n_offers; o++) {
        const cp_offer *of = &in->offers[o];
        fprintf(f, "  %s: ", of->name);
        print_machine(f, in, &of->inst);
        fprintf(f, "\n    on-demand %g $/h, quota ", of->price_hour);
        print_series(f, &of->quota, in->slots, "");
        if (of->has_spot) {
            fprintf(f, "; spot %g $/h, quota ", of->spot_price_hour);
            print_series(f, &of->spot_quota, in->slots, "");
            fprintf(f, ", %g interruptions/h", of->spot_interruptions_per_hour);
        }
        fputc('\n', f);
    }
}

/* Job jj's line: its modes' count, fastest and cheapest, or why it has
 * none (false then), and its modes' table when --modes names it. */
static bool print_job(FILE *f, const cp_input *in, const cp_modeset *ms, int jj,
                      const char *const *modes, int n_modes, long top)
{
    const cp_job *j = &in->jobs[jj];
    int first = ms->job_first[jj], last = ms->job_first[jj + 1];
    fprintf(f, "  %s (%s", j->name, j->kind == CP_JOB_TRAINING ? "training" : "dataflow");
    if (j->has_model)
        fprintf(f, ", needs %.4g GB per accelerator (model estimate)", j->accelerator_memory_gb);
    fprintf(f, "): ");
    bool table = modes_wanted(modes, n_modes, j->name);
    if (first == last) {
        fprintf(f, "no mode: %s\n", ms->reason[jj]);
        if (table)
            cp_check_modes_table(f, in, ms, jj, top);
        return false;
    }
    int fast = first, cheap = first;
    double cheap_cost = INFINITY;
    for (int m = first; m < last; m++) {
        if (ms->modes[m].hours < ms->modes[fast].hours)
            fast = m;
        double c = cp_mode_cost_slot0(in, ms, &ms->modes[m]);
        if (c < cheap_cost) {
            cheap_cost = c;
            cheap = m;
        }
    }
    fprintf(f, "%d mode%s\n    fastest: ", last - first, last - first == 1 ? "" : "s");
    print_mode(f, in, ms, &ms->modes[fast]);
    fprintf(f, ", %.3g h\n    cheapest: ", ms->modes[fast].hours);
    print_mode(f, in, ms, &ms->modes[cheap]);
    fprintf(f, ", $%.2f at slot-0 prices\n", cheap_cost);
    if (table)
        cp_check_modes_table(f, in, ms, jj, top);
    return true;
}

/* -o FILE: the summary goes there atomically, as every command's data,
 * made printable as on a terminal. 0, or the exit status with the message
 * printed. */
static int write_summary(const char *out_path, const char *text)
{
    int status = 0;
    char *safe = NULL;
    size_t safe_len = 0;
    FILE *g = open_memstream(&safe, &safe_len);
    if (g)
        cp_fputs_printable(text, true, g);
    cp_err err2;
    cp_err_init(&err2);
    if (!g || fclose(g) != 0) {
        fprintf(stderr, "capplan check: out of memory\n");
        status = 1;
    } else if (cp_write_file_atomic(out_path, safe, safe_len, &err2)) {
        cp_err_print(&err2, stderr);
        status = 1;
    }
    free(safe);
    return status;
}

/* The summary (or, with --quiet, nothing) of a loaded input: 0, or the
 * exit status with the message printed. */
static int check_input(const cp_input *in, const char *const *modes, int n_modes, long top,
                       const char *out_path, bool quiet)
{
    int bad = contradictions(in);
    if (bad)
        return bad;
    cp_cli_advise("check", in, true);
    cp_modeset *ms = NULL;
    cp_err err;
    cp_err_init(&err);
    if (cp_modes_build(in, &ms, &err)) {
        cp_err_print(&err, stderr);
        return 2;
    }
    if ((bad = svc_contradictions(in, ms))) {
        cp_modeset_free(ms);
        return bad;
    }
    /* The summary is built in memory and printed through
     * cp_fputs_printable: it is full of the input's names, and a name
     * holding ESC or BEL must not drive the terminal. */
    char *text = NULL;
    size_t text_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    if (!f) {
        fprintf(stderr, "capplan check: out of memory\n");
        cp_modeset_free(ms);
        return 1;
    }
    print_horizon_sites(f, in);
    print_hardware(f, in);
    int without = 0;
    fprintf(f, "\njobs (%d):\n", in->n_jobs);
    for (int jj = 0; jj < in->n_jobs; jj++)
        without += !print_job(f, in, ms, jj, modes, n_modes, top);
    cp_check_teams(f, in, ms);
    cp_check_services(f, in, ms);
    fprintf(f, "\n%d jobs, %d with modes, %d without (they will be dropped)\n", in->n_jobs,
            in->n_jobs - without, without);
    int ok = fclose(f) == 0, status = 0;
    if (!ok) {
        fprintf(stderr, "capplan check: out of memory\n");
        status = 1;
    } else if (!quiet && !out_path) {
        cp_fputs_printable(text, true, stdout);
    } else if (!quiet) {
        status = write_summary(out_path, text);
    }
    free(text); /* open_memstream's buffer: malloc'ed by libc */
    cp_modeset_free(ms);
    return status;
}
