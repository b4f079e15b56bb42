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
/* Shortest "%.17g"-class text that reads back to the same double; never
 * locale-dependent; integers print without a fraction. */
void cp_buf_num(cp_buf *b, double v);
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

#endif
