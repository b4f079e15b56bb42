/* Helpers the command files share: loading inputs with diagnostics
 * printed once, and option parsing of numbers. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include "cp_input.h"
#include "cp_outpath.h"
#include "cp_plan_opts.h"
#include "cp_plan_write.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* Loads the files; prints every error and warning to stderr (warnings
 * also on success: a key that has no effect) and returns the exit
 * status (2 for bad input); 0 and *out on success. */
int cp_cli_load(const char *cmd, char *const *paths, int n, cp_input **out);
bool cp_cli_double(const char *cmd, const char *opt, const char *s, double lo, double *out);
bool cp_cli_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
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
/* True when argv holds --help or -h (before any "--"). */
bool cp_cli_wants_help(int argc, char **argv);

/* A command's --help text, printed to the stream. */
typedef void cp_cli_usage_fn(FILE *f);

/*
 * Options anywhere on the line, as GNU tools take them: getopt_long
 * walks argv in order ("-" mode: an operand is returned where it stands,
 * so argv is never permuted and POSIXLY_CORRECT changes nothing), the
 * operands are collected in their order, and "--" ends the options
 * (everything after it is an operand). "--" as the separate value of an
 * option ("-o --") is refused as a missing value (cp_cli_next returns
 * ':'), not taken as a file named "--". Every command parses its line
 * this way, so `capplan plan f.yaml -o p.yaml` and `capplan plan -o
 * p.yaml f.yaml` are the same command.
 *
 * The options every command has are handled here, once, when the
 * command gives its help (cp_cli_args_std): -h/--help prints it to
 * standard output and ends the line (a.helped: exit 0), -q/--quiet sets
 * a.quiet. The command lists neither in its options.
 *
 *     cp_cli_args a;
 *     if (cp_cli_args_std(&a, "plan", argc, argv, "o:", longopts, help, NULL)) return 1;
 *     while ((c = cp_cli_next(&a)) != -1) switch (c) { ... default:
 *         cp_cli_bad_option(&a); ... }
 *     if (a.helped) ... exit 0 ...
 *     ... a.operands[0 .. a.n_operands), a.quiet ...
 *     cp_cli_args_release(&a);
 */
typedef struct cp_cli_args {
    const char *cmd; /* "plan", "import gavel": for messages */
    int argc;
    char **argv;     /* argv[0] is the command's name */
    char shortopts[64];
    const struct option *longopts;
    char **operands; /* borrowed from argv, in order; NULL-terminated */
    int n_operands;
    int last;        /* the result of the last cp_cli_next */
    bool rest;       /* after "--" */
    const char *dashdash_opt; /* the option word given "--" as its value (refused) */
    /* cp_cli_args_std: the help (text, or a function printing it) */
    const char *help;
    cp_cli_usage_fn *usage;
    struct option *own_longopts; /* longopts with help and quiet; owned */
    bool helped;                 /* -h/--help was given and printed */
    bool quiet;                  /* -q/--quiet was given */
} cp_cli_args;

/* `shortopts` as for getopt_long, without a leading '+', '-' or ':',
 * and without 'h' and 'q'; `longopts` without "help" and "quiet": they
 * are added here. `help` (or, when NULL, `usage`) is the --help text.
 * Returns 0, or 1 (out of memory, printed). */
int cp_cli_args_std(cp_cli_args *a, const char *cmd, int argc, char **argv,
                    const char *shortopts, const struct option *longopts, const char *help,
                    cp_cli_usage_fn *usage);
/* The same without the standard options: the command handles every
 * option itself (`fit` does, until it moves to cp_cli_args_std). */
int cp_cli_args_init(cp_cli_args *a, const char *cmd, int argc, char **argv,
                     const char *shortopts, const struct option *longopts);
/* The next option (getopt_long's value, with optarg), or -1 at the end
 * of the line, or after --help (printed, a->helped); operands are
 * appended to a->operands. '?' is an unknown
 * option, ':' one without its value: see cp_cli_bad_option. */
int cp_cli_next(cp_cli_args *a);
/* After '?' or ':' from cp_cli_next: prints "capplan CMD: unknown option
 * 'X'" or "capplan CMD: option 'X' needs a value", then "see 'capplan
 * CMD --help'". Returns 2, the exit status of a usage error. */
int cp_cli_bad_option(const cp_cli_args *a);
void cp_cli_args_release(cp_cli_args *a);

/* --format WORD, the same for every command: *out is WORD's index in
 * `names` (NULL-terminated). Otherwise prints "capplan CMD: --format must
 * be A, B or C, got 'WORD'" and returns false. */
bool cp_cli_format(const char *cmd, const char *word, const char *const *names, int *out);
/* --format yaml|json|csv of the commands that write a plan (plan, place). */
bool cp_cli_plan_format(const char *cmd, const char *word, cp_plan_format *out);

/* A plan option of `plan` and `whatif` (cp_plan_opts.h) in the loop of
 * cp_cli_next: -1 when taken, else the exit status (2: a bad value,
 * printed, or an option neither the command nor the shared set knows,
 * through cp_cli_bad_option). */
int cp_cli_plan_option(const cp_cli_args *a, cp_plan_opts *po, int c);
/* After that loop: `st` (the loop's status, -1 while none), 0 after
 * --help, 2 when cp_plan_opts_finish refuses the method. */
int cp_cli_plan_opts_end(const cp_cli_args *a, cp_plan_opts *po, int st);

/* The log callback of cp_solve_opts for `plan`, `whatif` and `place`:
 * "capplan: LINE" on standard error. */
void cp_cli_log_line(void *arg, const char *line);

#endif
