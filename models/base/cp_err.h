/*
 * Errors as values. A cp_err carries a code, a source position and a
 * message in fixed buffers, so reporting "out of memory" never allocates.
 * The setter returns the code, so a failing site is one line:
 *     return cp_err_set(err, CP_ERR_INPUT, pos, "job '%s': ...", name);
 * A cp_diags collects many errors (the loader reports all of them, up to a
 * cap) and is printed once, at the top, by the CLI.
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

/* A position in an input file; line and col are 1-based, 0 when unknown.
 * `file` is borrowed (the input model keeps the file names alive). */
typedef struct cp_pos {
    const char *file;
    int line;
    int col;
} cp_pos;

#define CP_ERR_MSG_MAX 600
#define CP_FILE_MAX 256

typedef struct cp_err {
    int code;
    char file[CP_FILE_MAX]; /* copied, so the error outlives the input */
    int line, col;
    char msg[CP_ERR_MSG_MAX];
} cp_err;

void cp_err_init(cp_err *err);
/* Sets code, position and message; returns code. `err` may be NULL. */
int cp_err_set(cp_err *err, int code, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int cp_err_nomem(cp_err *err);
/* gcc style: "FILE:LINE:COL: error: MSG" (parts that are unknown left out). */
void cp_err_print(const cp_err *err, FILE *out);
cp_pos cp_pos_none(void);

/* A list of errors with a cap; errors past the cap are counted only. */
#define CP_DIAGS_MAX 50
typedef struct cp_diags {
    cp_err items[CP_DIAGS_MAX];
    int n;        /* stored */
    int dropped;  /* counted past the cap */
    int worst;    /* code of the first error, CP_OK when none */
} cp_diags;

void cp_diags_init(cp_diags *d);
/* Records an error; returns its code. */
int cp_diags_add(cp_diags *d, int code, cp_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cp_diags_add_err(cp_diags *d, const cp_err *err);
bool cp_diags_full(const cp_diags *d);
void cp_diags_print(const cp_diags *d, FILE *out);

#endif
