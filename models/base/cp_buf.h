/*
 * A growable string buffer (git's strbuf): `s` is never NULL and always
 * NUL-terminated. Appends never fail loudly: an allocation failure sets
 * the sticky `oom` flag and later appends do nothing, so writers check
 * once at the end (cp_buf_ok) instead of after every call.
 */
#ifndef CP_BUF_H
#define CP_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cp_buf {
    char *s;
    size_t len, cap;
    bool oom;
} cp_buf;

void cp_buf_init(cp_buf *b);
void cp_buf_release(cp_buf *b);
void cp_buf_reset(cp_buf *b);
void cp_buf_add(cp_buf *b, const char *s, size_t n);
void cp_buf_puts(cp_buf *b, const char *s);
void cp_buf_putc(cp_buf *b, char c);
void cp_buf_printf(cp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A figure as every writer prints it (plans, tables, reports, messages,
 * fragments): cp_num_fig(v) in the shortest text that reads back to it;
 * never locale-dependent; integers print without a fraction. */
void cp_buf_num(cp_buf *b, double v);
/* The shortest text that reads back to exactly v (up to 17 significant
 * digits): for text another program or a later run must read as the same
 * double (an MPS model, a scenario's changed input, a what-if shard). */
void cp_buf_num_exact(cp_buf *b, double v);
bool cp_buf_ok(const cp_buf *b);
/* Appends s single-quoted for the POSIX shell ('it'\''s): the one shell
 * quoting rule (export's scripts, the command lines importers write). */
void cp_buf_sh_quote(cp_buf *b, const char *s);
/* Appends s as one shell word: as it is when it is not empty and holds
 * only letters, digits and _ . / : = + , @ % - (no expansion, no
 * splitting), else as cp_buf_sh_quote. For a command line in a comment
 * that may be pasted into a shell: a file named '$(id).csv' is a name,
 * not a command. */
void cp_buf_sh_word(cp_buf *b, const char *s);
/* Takes the string out (caller frees with cp_free); NULL after oom. */
char *cp_buf_detach(cp_buf *b);

/* Formats a double as cp_buf_num does, into out (at least 32 bytes). */
void cp_fmt_num(char *out, size_t size, double v);
/* Formats a double as cp_buf_num_exact does, into out (at least 32 bytes). */
void cp_fmt_num_exact(char *out, size_t size, double v);
/* v rounded to 15 significant digits (DBL_DIG), the one rule for every
 * figure written (docs/spec-notes.md, "Figures"): a sum's noise in the
 * last bits goes (0.18974999999999997 -> 0.18975, 2.4000000000000004 ->
 * 2.4) and any decimal of up to 15 digits, every input's number, stays as
 * it was. Integers below 1e15, NaN and infinities are returned as they
 * are; cp_num_fig(cp_num_fig(v)) == cp_num_fig(v). */
double cp_num_fig(double v);

#endif
