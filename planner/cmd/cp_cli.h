/* Helpers the command files share: loading inputs with diagnostics
 * printed once, checking outputs against inputs, writing fragments. The
 * options themselves are tables (cp_opt.h). */
#ifndef CP_CLI_H
#define CP_CLI_H

#include "cp_input.h"
#include "cp_opt.h"
#include "cp_outpath.h"
#include "cp_plan_write.h"

#include <stdbool.h>
#include <stdio.h>

/* Loads the files; prints every error and warning to stderr (warnings
 * also on success: a key that has no effect) and returns the exit
 * status (2 for bad input); 0 and *out on success. */
int cp_cli_load(const char *cmd, char *const *paths, int n, cp_input **out);
/* Output safety (docs/reliability.md): records the inputs (`n_in`
 * paths, then `extra_in`: pairs role, path, NULL-terminated, e.g.
 * "--scenarios", FILE) and
 * the outputs (pairs role, path, NULL-terminated; a NULL path is
 * skipped) in `fs` (initialized here; the caller releases it), and
 * refuses an output that is an input or another output, or an empty
 * name: prints "capplan CMD: ..." and returns 2 (1 for out of memory);
 * 0 when every output may be written. */
int cp_cli_outputs(const char *cmd, cp_fileset *fs, char *const *in, int n_in,
                   const char *const *extra_in, const char *const *outs);
/* The same check for a command that writes its outputs once, by name:
 * the set is released here. */
int cp_cli_outputs_ok(const char *cmd, char *const *in, int n_in, const char *const *extra_in,
                      const char *const *outs);
/* The same for the files a command writes into a folder (export's
 * scripts and tasks, whatif --slurm-array's): DIR/NAME for each of the
 * n names is recorded in fs (which holds the inputs) with role `role` and
 * refused when it is an input or another output, whatever links the
 * folder holds (a link launch.md -> ../in.yaml would make the write
 * replace the input). Before anything is written; same messages and
 * status as cp_cli_outputs. */
int cp_cli_dir_outputs(const char *cmd, cp_fileset *fs, const char *role, const char *dir,
                       const char *const *names, int n);
/* The last check of a YAML fragment that fit or import wrote: it must
 * read back (cp_yaml_load_string) and hold no number the loader refuses
 * (.inf, .nan). Prints "capplan CMD: ..." and returns 2 when not; 0
 * when it is fine (1 for out of memory). */
int cp_cli_output_loads(const char *cmd, const char *text, size_t len);
/* Writes a fragment of fit or import to path (atomically; "-" or NULL:
 * stdout) after cp_cli_output_loads when `check` (CSV outputs skip it).
 * Prints what failed; returns cp_cli_output_loads's status, or 1 when
 * the write fails. */
int cp_cli_write_fragment(const char *cmd, const char *path, const char *text, size_t len, bool check);
/* Prints d on stderr; a diagnostic of no file (about the command line,
 * or the inputs as a whole: "--start TIME is required", "the inputs
 * have no horizon.start") is given "capplan CMD" as its place, so it
 * says who speaks: "capplan import series: error: ...". */
void cp_cli_diags_print(const char *cmd, cp_diags *d);
/* The loaded input's probable mistakes (cp_advice.h; `all` for check) as
 * warnings on stderr, those without a file as "capplan CMD: warning". */
void cp_cli_advise(const char *cmd, const cp_input *in, bool all);
/* The arguments' order, before anything is loaded: when `plan` (NULL: not
 * given) is not a plan but one of files[0..n) is (its first key
 * `capplan_plan`, capplan.5 §5), prints one hint naming
 * both and the command's form `usage` ("capplan report PLAN FILE...")
 * and returns 2; else 0 (the load's own errors follow). */
int cp_cli_plan_order(const char *cmd, const char *plan, char *const *files, int n,
                      const char *usage);
/* --format yaml|json|csv of the commands that write a plan (plan, place):
 * the words of an enum option (cp_opt.h), each the cp_plan_format. */
extern const cp_opt_word cp_cli_plan_formats[];
/* The entries of -o FILE, --format and --leases FILE in the table of a
 * command that writes a plan (plan, place). */
#define CP_CLI_PLAN_OUTPUT_OPTS(out, format, leases)                                               \
    CP_OPT_STRING('o', NULL, out, "FILE", "write the plan there (atomically); default stdout"),   \
        CP_OPT_ENUM(0, "format", format, cp_cli_plan_formats, NULL,                               \
                    "plan format (csv: one row per job); default yaml"),                          \
        CP_OPT_STRING(0, "leases", leases, "FILE",                                                 \
                      "also write the cloud leases (instance, start, stop, jobs, cost) as CSV: "   \
                      "what a launcher executes")
/* --scaling of fit training and import gavel: per-type (also 'table'),
 * shared or amdahl, as these values. */
enum { CP_CLI_SCALING_PER_TYPE, CP_CLI_SCALING_SHARED, CP_CLI_SCALING_AMDAHL };
extern const cp_opt_word cp_cli_scalings[];

/* The log callback of cp_solve_opts for `plan`, `whatif` and `place`:
 * "capplan: LINE" on standard error. */
void cp_cli_log_line(void *arg, const char *line);

#endif
