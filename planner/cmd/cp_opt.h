/*
 * Options as data (git's parse-options): every command declares its
 * options as one table of cp_opt, and one parser reads argv, one printer
 * writes --help, and the messages for a bad option are the same in every
 * command. A command file then holds its table and its work.
 *
 *     const char *out = NULL;
 *     int fmt = CP_FMT_YAML;
 *     const cp_opt opts[] = {
 *         CP_OPT_STRING('o', NULL, &out, "FILE", "write the plan there"),
 *         CP_OPT_ENUM(0, "format", &fmt, cp_plan_formats, NULL, "plan format"),
 *         CP_OPT_END(),
 *     };
 *     cp_cli_args a;
 *     int st = cp_cli_parse(&a, "plan", argc, argv, opts, &help);
 *     if (st != CP_CLI_RUN)
 *         return st;            (0 after --help, 2 a bad line; a is released)
 *     ... a.operands[0 .. a.n_operands), a.quiet ...
 *     cp_cli_args_release(&a);
 *
 * The line (capplan.1, "OPTIONS OF EVERY COMMAND"): options anywhere,
 * read in order, operands collected in their order; "--" ends the
 * options; short options cluster ("-qo FILE", "-oFILE"); a long option
 * takes its value as "--format json" or "--format=json" and may be
 * abbreviated while the prefix names one option (an exact name wins:
 * --shard is not --shards). An option's separate value may not be "--"
 * ("-o --" is a missing value, not a file named "--"). -h/--help,
 * -q/--quiet and --list-options are every command's: they are not in the
 * tables. Values are applied in the order given; the last one wins.
 */
#ifndef CP_OPT_H
#define CP_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum cp_opt_kind {
    CP_OPTK_END = 0,  /* the end of a table */
    CP_OPTK_TEXT,     /* a line of --help among the options (help), no option */
    CP_OPTK_QUIET,    /* where --help shows -q, --quiet and what it does here */
    CP_OPTK_INCLUDE,  /* the options of another table (sub), in place */
    CP_OPTK_BOOL,     /* no value: *(bool *)target = true (false with unset) */
    CP_OPTK_INT,      /* an integer in [lo, hi] into an int */
    CP_OPTK_LONG,     /* the same into a long */
    CP_OPTK_DOUBLE,   /* a finite number >= lo (> lo with above) into a double */
    CP_OPTK_STRING,   /* the value (borrowed from argv) into a const char * */
    CP_OPTK_LIST,     /* repeatable: every value, in order, into a cp_opt_list */
    CP_OPTK_ENUM,     /* one of words: that word's value into an int */
    CP_OPTK_CALLBACK, /* fn(target, value) takes it */
} cp_opt_kind;

/* One word of an enum option and the value it stands for (several words
 * may share a value: aliases). Arrays end with a NULL word. */
typedef struct cp_opt_word {
    const char *word;
    int value;
} cp_opt_word;

/* The values of a repeatable option, borrowed from argv; v is allocated
 * by the parser (NULL-terminated) and freed by cp_cli_args_release. */
typedef struct cp_opt_list {
    const char **v;
    int n;
} cp_opt_list;

/* A callback option's handler: true when the value is taken; else false
 * with what is wrong in msg (it is printed after "capplan CMD: "). */
typedef bool cp_opt_fn(void *target, const char *value, char *msg, size_t size);

typedef struct cp_opt {
    cp_opt_kind kind;
    char short_name;          /* 0: none */
    const char *long_name;    /* without "--"; NULL: none */
    void *target;
    const char *value_name;   /* in --help: "FILE", "N"; an enum's NULL: its words */
    const char *help;         /* one line; --help wraps it */
    double lo, hi;            /* INT, LONG: [lo, hi]; DOUBLE: the bound lo */
    const cp_opt_word *words; /* ENUM */
    cp_opt_fn *fn;            /* CALLBACK */
    const struct cp_opt *sub; /* INCLUDE */
    bool unset;               /* BOOL: the option sets false */
    bool above;               /* DOUBLE: > lo instead of >= lo */
    bool file;                /* the value is a file the command reads */
    bool local;               /* this run's own: not repeated by the tasks of
                                 whatif --slurm-array (cp_cli_args_canonical) */
    bool optional;            /* ENUM: "--NAME" alone is its first word; another
                                 word only as "--NAME=WORD" (--progress=debug) */
} cp_opt;

/* A pointer of type T *, checked at compile time (a conditional
 * expression of two different pointer types is diagnosed). */
#define CP_OPT_PTR_(T, p) ((void *)(1 ? (p) : (T *)NULL))

/* The fields of each kind; CP_OPT_X(...) is {CP_OPTF_X(...)}, and a
 * table adds a flag as {CP_OPTF_X(...), .local = true}. */
#define CP_OPTF_BOOL(s, l, p, h)                                                                  \
    .kind = CP_OPTK_BOOL, .short_name = (s), .long_name = (l), .target = CP_OPT_PTR_(bool, p),     \
    .help = (h)
#define CP_OPTF_INT(s, l, p, min, max, v, h)                                                      \
    .kind = CP_OPTK_INT, .short_name = (s), .long_name = (l), .target = CP_OPT_PTR_(int, p),       \
    .lo = (min), .hi = (max), .value_name = (v), .help = (h)
#define CP_OPTF_LONG(s, l, p, min, max, v, h)                                                     \
    .kind = CP_OPTK_LONG, .short_name = (s), .long_name = (l), .target = CP_OPT_PTR_(long, p),     \
    .lo = (min), .hi = (max), .value_name = (v), .help = (h)
#define CP_OPTF_DOUBLE(s, l, p, min, v, h)                                                        \
    .kind = CP_OPTK_DOUBLE, .short_name = (s), .long_name = (l),                                   \
    .target = CP_OPT_PTR_(double, p), .lo = (min), .value_name = (v), .help = (h)
#define CP_OPTF_STRING(s, l, p, v, h)                                                             \
    .kind = CP_OPTK_STRING, .short_name = (s), .long_name = (l),                                   \
    .target = CP_OPT_PTR_(const char *, p), .value_name = (v), .help = (h)
#define CP_OPTF_LIST(s, l, p, v, h)                                                               \
    .kind = CP_OPTK_LIST, .short_name = (s), .long_name = (l),                                     \
    .target = CP_OPT_PTR_(cp_opt_list, p), .value_name = (v), .help = (h)
#define CP_OPTF_ENUM(s, l, p, w, v, h)                                                            \
    .kind = CP_OPTK_ENUM, .short_name = (s), .long_name = (l), .target = CP_OPT_PTR_(int, p),      \
    .words = (w), .value_name = (v), .help = (h)
#define CP_OPTF_CALLBACK(s, l, f, p, v, h)                                                        \
    .kind = CP_OPTK_CALLBACK, .short_name = (s), .long_name = (l), .fn = (f), .target = (p),      \
    .value_name = (v), .help = (h)

#define CP_OPT_BOOL(s, l, p, h) {CP_OPTF_BOOL(s, l, p, h)}
#define CP_OPT_UNSET(s, l, p, h) {CP_OPTF_BOOL(s, l, p, h), .unset = true}
#define CP_OPT_INT(s, l, p, min, max, v, h) {CP_OPTF_INT(s, l, p, min, max, v, h)}
#define CP_OPT_LONG(s, l, p, min, max, v, h) {CP_OPTF_LONG(s, l, p, min, max, v, h)}
/* a number >= min, or > min */
#define CP_OPT_DOUBLE(s, l, p, min, v, h) {CP_OPTF_DOUBLE(s, l, p, min, v, h)}
#define CP_OPT_DOUBLE_ABOVE(s, l, p, min, v, h) {CP_OPTF_DOUBLE(s, l, p, min, v, h), .above = true}
#define CP_OPT_STRING(s, l, p, v, h) {CP_OPTF_STRING(s, l, p, v, h)}
/* a string option whose value is a file the command reads */
#define CP_OPT_FILE(s, l, p, v, h) {CP_OPTF_STRING(s, l, p, v, h), .file = true}
#define CP_OPT_LIST(s, l, p, v, h) {CP_OPTF_LIST(s, l, p, v, h)}
#define CP_OPT_ENUM(s, l, p, w, v, h) {CP_OPTF_ENUM(s, l, p, w, v, h)}
#define CP_OPT_CALLBACK(s, l, f, p, v, h) {CP_OPTF_CALLBACK(s, l, f, p, v, h)}
#define CP_OPT_TEXT(t) {.kind = CP_OPTK_TEXT, .help = (t)}
#define CP_OPT_QUIET(h) {.kind = CP_OPTK_QUIET, .short_name = 'q', .long_name = "quiet", .help = (h)}
#define CP_OPT_INCLUDE(t) {.kind = CP_OPTK_INCLUDE, .sub = (t)}
#define CP_OPT_END() {.kind = CP_OPTK_END}

/* One option as given: its entry and its value (NULL for BOOL). */
typedef struct cp_opt_seen {
    const cp_opt *opt;
    const char *value;
} cp_opt_seen;

/* A command line read against a table. */
typedef struct cp_cli_args {
    const char *cmd;        /* "plan", "import gavel": for messages */
    const cp_opt *table;
    const struct cp_cli_help *help;
    char **operands;        /* borrowed from argv, in order; NULL-terminated */
    int n_operands;
    cp_opt_seen *seen;      /* every option of the table given, in order */
    int n_seen;
    bool quiet;             /* -q/--quiet */
    bool helped;            /* --help or --list-options was given (and printed) */
    bool listed;            /* the latter */
} cp_cli_args;

/* What a bad line was: msg follows "capplan CMD: ", and see_help adds
 * "see 'capplan CMD --help'" (a mistake in the line's shape, rather than
 * in a value). */
typedef struct cp_opt_error {
    char msg[512];
    bool see_help;
} cp_opt_error;

/* What parsing asks of the command (cp_opt_parse's result). */
enum { CP_OPT_OK = 0, CP_OPT_BAD = 2, CP_OPT_NOMEM = 1 };

/* Reads argv (argv[0] is the command's name) against the table into a
 * (initialized here; release it in every case). --help and
 * --list-options set a->helped and end the line there; the caller prints
 * (cp_cli_parse does). CP_OPT_OK, CP_OPT_BAD with e filled, or
 * CP_OPT_NOMEM. Prints nothing. */
int cp_opt_parse(cp_cli_args *a, const cp_opt *table, int argc, char **argv, cp_opt_error *e);
void cp_cli_args_release(cp_cli_args *a);

/* The option's name as a message shows it: "--long", else "-s". */
const char *cp_opt_name(const cp_opt *o, char *buf, size_t size);

/* --help of a command: head (usage, what it does, a blank line), the
 * table's option lines, foot (the exit status and where to read more). */
typedef struct cp_cli_help {
    const char *head;
    const char *foot;
} cp_cli_help;

/* The whole --help of a table to f. */
void cp_cli_help_print(FILE *f, const cp_opt *table, const cp_cli_help *help);
/* The options of a table, one a line ("-o", "--format", ...: every
 * short and long name, the table's own, in order): --list-options, what
 * the man-page check and shell completion read. */
void cp_opt_list_names(FILE *f, const cp_opt *table);

/* cp_opt_parse for a command: prints --help or --list-options on
 * standard output (0), or the error on standard error (2, after
 * "capplan CMD: "; 1 for out of memory), releasing a; or returns
 * CP_CLI_RUN with a to use and release. */
enum { CP_CLI_RUN = -1 };
int cp_cli_parse(cp_cli_args *a, const char *cmd, int argc, char **argv, const cp_opt *table,
                 const cp_cli_help *help);

/* The line of a what-if task (whatif --slurm-array): --quiet when it was
 * given, every option of a that is not .local as "--long=VALUE" (or
 * "-sVALUE" without a long name, "-s" "" for an empty value; a flag
 * alone), then "--" and the
 * operands: the canonical form of what the parser understood, never the
 * words as typed. Each word goes to put(arg, word) in order. CP_OPT_OK,
 * or CP_OPT_NOMEM (the words are then incomplete). */
int cp_cli_args_canonical(const cp_cli_args *a, void (*put)(void *arg, const char *word),
                          void *arg);

#endif
