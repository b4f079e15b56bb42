/*
 * Errors as values. A cp_err carries a code, a source position and a
 * message in fixed buffers, so reporting "out of memory" never allocates.
 * The setter returns the code, so a failing site is one line:
 *     return cp_err_set(err, CP_ERR_INPUT, pos, "job '%s': ...", name);
 * A cp_diags collects many diagnostics, errors and warnings in the order
 * they were found (the loader reports all its errors, up to a cap), and
 * is printed once, at the top, by the CLI with cp_diags_print. A warning
 * never makes the list fail: `worst` is the code of the first error.
 */
#ifndef CP_ERR_H
#define CP_ERR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
    CP_OK = 0,
    CP_ERR_INPUT = 2,     /* bad input or usage: exit status 2 */
    CP_ERR_INFEASIBLE = 3,
    CP_ERR_NOPLAN = 4,
    CP_ERR_NOMEM = 10,
    CP_ERR_IO = 11,
    CP_ERR_SOLVER = 12,
    CP_ERR_INTERNAL = 13,
    CP_ERR_INTERRUPTED = 130
};

/* How a diagnostic is printed and whether it fails the list. Zero is an
 * error, so a zeroed cp_err (cp_err_init) is an error. */
typedef enum cp_severity {
    CP_SEV_ERROR = 0,
    CP_SEV_WARNING = 1
} cp_severity;

/* A position in an input file; line and col are 1-based, 0 when unknown.
 * `file` is borrowed (the input model keeps the file names alive). */
typedef struct cp_pos {
    const char *file;
    int line;
    int col;
} cp_pos;

#define CP_ERR_MSG_MAX 600
#define CP_FILE_MAX 256

/* One diagnostic: an error (code != CP_OK) or a warning (code CP_OK). */
typedef struct cp_err {
    int code;
    cp_severity severity;
    char file[CP_FILE_MAX]; /* copied, so the error outlives the input */
    int line, col;
    char msg[CP_ERR_MSG_MAX];
} cp_err;

void cp_err_init(cp_err *err);
/* Sets code, position and message of an error; returns code. `err` may
 * be NULL. */
int cp_err_set(cp_err *err, int code, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int cp_err_nomem(cp_err *err);
/* One line, gcc style: "FILE:LINE:COL: error: MSG" or "...: warning: MSG"
 * after the severity; the parts that are unknown (no file, line 0, col 0)
 * are left out with their colon. */
void cp_err_print(const cp_err *err, FILE *out);
/* Writes `s` with what a terminal would act on escaped, so a name in an
 * input cannot clear the screen or retitle the window: C0 controls and
 * DEL as \xHH (newline and tab kept when `lines`), C1 controls
 * (U+0080..U+009F) as \uXXXX. So are the bidirectional controls (U+202A..
 * U+202E embeddings and overrides, U+2066..U+2069 isolates, the marks
 * U+200E, U+200F, U+061C): a name holding U+202E would show the rest of
 * the line reversed, so "job 'x' (dropped)" could read as something else
 * (Trojan Source, CVE-2021-42574). cp_err_print writes messages through it. */
void cp_fputs_printable(const char *s, bool lines, FILE *out);
cp_pos cp_pos_none(void);

/* A list of errors and warnings. Each severity has its own cap, so
 * warnings never crowd out an error: past CP_DIAGS_MAX of a kind, the
 * diagnostics are counted only. */
#define CP_DIAGS_MAX 50
typedef struct cp_diags {
    cp_err items[2 * CP_DIAGS_MAX]; /* in the order reported, both kinds */
    int n;                /* stored, both kinds */
    int n_warnings;       /* how many of the n are warnings */
    int dropped;          /* errors counted past the cap */
    int warnings_dropped; /* warnings counted past the cap */
    int worst;            /* code of the first error, CP_OK when none */
} cp_diags;

void cp_diags_init(cp_diags *d);
/* Records an error; returns its code, which must not be CP_OK (a warning
 * is recorded with cp_diags_warn). */
int cp_diags_add(cp_diags *d, int code, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Records a warning (code CP_OK): printed, but `worst` stays as it is. */
void cp_diags_warn(cp_diags *d, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records a copy of err, an error or a warning by its severity. */
void cp_diags_add_err(cp_diags *d, const cp_err *err);
/* True when no more errors can be stored (callers stop looking for more). */
bool cp_diags_full(const cp_diags *d);
/* The one printer of diagnostics: every entry in order (cp_err_print),
 * then "capplan: N more errors not shown" and "capplan: N more warnings
 * not shown" for what was counted past the caps. */
void cp_diags_print(const cp_diags *d, FILE *out);

#endif
