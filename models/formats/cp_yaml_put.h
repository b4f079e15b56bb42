/*
 * Small helpers to write YAML fragments (the outputs of `fit` and
 * `import`) into a cp_buf: scalars quoted exactly when YAML 1.2 would
 * read them as something other than the intended string, and a block
 * emitter that copies a parsed cp_node subtree back out.
 */
#ifndef CP_YAML_PUT_H
#define CP_YAML_PUT_H

#include "cp_buf.h"

#include <stdbool.h>

struct cp_node;

/* Writes `s` as a YAML string scalar: plain when that reads back as the
 * same string (not a number, bool, null, and no special characters),
 * double-quoted with escapes otherwise. Safe in block and flow context. */
void cp_yaml_put_str(cp_buf *b, const char *s);
/* True when `s` can be written plain (see above): cp_yaml_plain_is_string
 * and no character that plain syntax forbids. */
bool cp_yaml_plain_ok(const char *s);
/* The one rule for what a plain scalar means: true when the plain text
 * `s` reads back as the string `s`, i.e. it is not empty and is neither
 * null, a boolean nor a number by the core schema (the reader's own
 * cp_scalar_* functions), nor a YAML 1.1 boolean (yes, on, ...), nor
 * anything that starts like a number, so that other readers agree. Says
 * nothing about syntax: the caller (or libyaml's emitter, cp_out) still
 * quotes text that plain style cannot carry, such as ": " or a leading
 * '-'. */
bool cp_yaml_plain_is_string(const char *s);
/* Writes `node` as the value of a block mapping key whose line is already
 * written up to "key:" (a scalar goes on the same line, collections on the
 * following lines indented by `indent` spaces). Ends with a newline. */
void cp_yaml_put_value(cp_buf *b, const struct cp_node *node, int indent);
/* Writes a number: integers (|v| < 1e15) without exponent or fraction,
 * others as cp_fmt_num (rounded to 15 significant digits, cp_num_fig). */
void cp_yaml_put_num(cp_buf *b, double v);
/* The same into out (at least 40 bytes), for CSV output. */
void cp_yaml_fmt_num(char *out, size_t size, double v);

/* Writes "# TEXT\n", a comment that stays one comment line whatever TEXT
 * holds (user names included): control characters and bytes that are not
 * UTF-8 (cp_utf8_ok) are written as \xHH, and the characters YAML reads
 * as line breaks (U+0085, U+2028, U+2029) or a BOM as \uXXXX. */
void cp_yaml_put_comment(cp_buf *b, const char *text);

/* Writes `n` spaces. */
void cp_yaml_indent(cp_buf *b, int n);

#endif
