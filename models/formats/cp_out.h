/*
 * One tree writer, two syntaxes: the plan (and other reports) are written
 * once against this interface and come out as YAML (through libyaml's
 * emitter) or JSON. Strings that YAML would read as something else are
 * quoted; numbers print as cp_buf_num prints them (cp_num_fig).
 * Errors are sticky: check cp_out_finish once at the end.
 */
#ifndef CP_OUT_H
#define CP_OUT_H

#include "cp_buf.h"
#include "cp_err.h"

#include <stdbool.h>

typedef enum { CP_OUT_YAML, CP_OUT_JSON } cp_out_syntax;

typedef struct cp_out cp_out;

/* Writes into `buf` (borrowed, appended to). NULL on out of memory. */
cp_out *cp_out_new(cp_out_syntax syntax, cp_buf *buf);
/* Flushes and frees the writer (NULL, from a failed cp_out_new, counts
 * as out of memory). Returns CP_OK, CP_ERR_NOMEM, or CP_ERR_INTERNAL
 * ("cannot write YAML": nesting deeper than the writer's stack, or text
 * libyaml refuses, such as invalid UTF-8); `err` may be NULL. */
int cp_out_finish(cp_out *o, cp_err *err);

void cp_out_map(cp_out *o);           /* begin a mapping */
void cp_out_seq(cp_out *o, bool flow); /* begin a sequence; flow: [a, b] on one line */
void cp_out_end(cp_out *o);           /* end the innermost mapping or sequence */
void cp_out_key(cp_out *o, const char *key);
void cp_out_str(cp_out *o, const char *s);
void cp_out_word(cp_out *o, const char *s); /* a keyword, never quoted */
/* A scalar as a parsed YAML node had it (cp_yaml_emit): `quoted` ones
 * double-quoted, the others plain, so the text reads back with the same
 * meaning (`2` stays a number). In YAML a mapping's keys are scalars
 * too, so this also writes keys; in JSON it is a string value. */
void cp_out_scalar(cp_out *o, const char *s, bool quoted);
void cp_out_num(cp_out *o, double v);       /* as cp_buf_num; NAN writes null */
void cp_out_num_exact(cp_out *o, double v); /* as cp_buf_num_exact; NAN writes null */
void cp_out_int(cp_out *o, long v);
void cp_out_null(cp_out *o);

#endif
