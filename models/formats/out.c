/*
 * YAML and JSON tree writer; see cp_out.h. This is the project's one
 * libyaml emitter glue: the setup into a cp_buf, the output handler and
 * the failure tracking live here, and cp_yaml_emit (cp_node trees) writes
 * through this interface too.
 */
#include "cp_out.h"

#include "cp_alloc.h"
#include "cp_yaml.h"
#include "cp_yaml_put.h"

#include <math.h>
#include <string.h>
#include <yaml.h>

/* Open collections; trees read by cp_yaml (CP_YAML_MAX_DEPTH) and edited
 * by what-if scenarios (a value of that depth under a path of that depth)
 * fit with room to spare. */
#define MAX_DEPTH (4 * CP_YAML_MAX_DEPTH)

struct cp_out {
    cp_out_syntax syntax;
    cp_buf *buf;
    bool failed;
    bool nomem; /* a failure was out of memory */
    /* YAML */
    yaml_emitter_t em;
    /* JSON */
    int depth;
    bool is_map[MAX_DEPTH], first[MAX_DEPTH], flow[MAX_DEPTH], after_key;
};

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    cp_buf *b = data;
    cp_buf_add(b, (const char *)buffer, size);
    return cp_buf_ok(b);
}

static void emit(cp_out *o, yaml_event_t *ev, int ok)
{
    if (!ok || o->failed) {
        if (ok)
            yaml_event_delete(ev);
        o->failed = true;
        return;
    }
    if (!yaml_emitter_emit(&o->em, ev)) {
        o->failed = true;
        o->nomem |= o->em.error == YAML_MEMORY_ERROR;
    }
}

cp_out *cp_out_new(cp_out_syntax syntax, cp_buf *buf)
{
    cp_out *o = cp_calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->syntax = syntax;
    o->buf = buf;
    if (syntax == CP_OUT_YAML) {
        if (!yaml_emitter_initialize(&o->em)) {
            cp_free(o);
            return NULL;
        }
        yaml_emitter_set_output(&o->em, write_handler, buf);
        yaml_emitter_set_unicode(&o->em, 1);
        yaml_emitter_set_width(&o->em, 100);
        yaml_event_t ev;
        emit(o, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
        emit(o, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
    }
    return o;
}

int cp_out_finish(cp_out *o, cp_err *err)
{
    if (!o)
        return cp_err_nomem(err);
    if (o->syntax == CP_OUT_YAML) {
        yaml_event_t ev;
        emit(o, &ev, yaml_document_end_event_initialize(&ev, 1));
        emit(o, &ev, yaml_stream_end_event_initialize(&ev));
        if (!o->failed && !yaml_emitter_flush(&o->em)) {
            o->failed = true;
            o->nomem |= o->em.error == YAML_MEMORY_ERROR;
        }
        yaml_emitter_delete(&o->em);
    } else {
        cp_buf_putc(o->buf, '\n');
    }
    bool nomem = o->nomem || !cp_buf_ok(o->buf), failed = o->failed;
    cp_out_syntax syntax = o->syntax;
    cp_free(o);
    if (nomem)
        return cp_err_nomem(err);
    if (failed)
        return cp_err_set(err, CP_ERR_INTERNAL, cp_pos_none(), "cannot write %s",
                          syntax == CP_OUT_YAML ? "YAML" : "JSON");
    return CP_OK;
}

/* JSON: separators and indentation before a value or key. */
static void json_pre(cp_out *o)
{
    if (o->after_key) {
        o->after_key = false;
        return;
    }
    if (o->depth == 0)
        return;
    int d = o->depth - 1;
    if (!o->first[d])
        cp_buf_putc(o->buf, ',');
    o->first[d] = false;
    if (o->flow[d]) {
        if (!o->first[d])
            cp_buf_putc(o->buf, ' ');
        return;
    }
    cp_buf_putc(o->buf, '\n');
    for (int i = 0; i < o->depth; i++)
        cp_buf_puts(o->buf, "  ");
}

static void json_string(cp_buf *b, const char *s)
{
    cp_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            cp_buf_putc(b, '\\');
            cp_buf_putc(b, (char)*p);
        } else if (*p < 0x20 || *p == 0x7f) {
            cp_buf_printf(b, "\\u%04x", *p);
        } else if (p[0] == 0xc2 && p[1] == 0x85) {
            /* NEL, LS, PS are legal raw in JSON but line breaks to a YAML
             * 1.1 reader (libyaml: capplan's own plan reader) and to
             * JavaScript before ES2019: escaped, so every reader agrees */
            cp_buf_puts(b, "\\u0085");
            p++;
        } else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
            cp_buf_puts(b, p[2] == 0xa8 ? "\\u2028" : "\\u2029");
            p += 2;
        } else {
            cp_buf_putc(b, (char)*p);
        }
    }
    cp_buf_putc(b, '"');
}

static void open_(cp_out *o, bool map, bool flow)
{
    if (o->syntax == CP_OUT_YAML) {
        if (o->depth >= MAX_DEPTH) {
            o->failed = true;
            return;
        }
        o->is_map[o->depth++] = map;
        yaml_event_t ev;
        if (map)
            emit(o, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                                             flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
        else
            emit(o, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                                              flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
        return;
    }
    json_pre(o);
    if (o->depth >= MAX_DEPTH) {
        o->failed = true;
        return;
    }
    cp_buf_putc(o->buf, map ? '{' : '[');
    o->is_map[o->depth] = map;
    o->first[o->depth] = true;
    o->flow[o->depth] = flow;
    o->depth++;
}

void cp_out_map(cp_out *o)
{
    open_(o, true, false);
}

void cp_out_seq(cp_out *o, bool flow)
{
    open_(o, false, flow);
}

void cp_out_end(cp_out *o)
{
    if (o->syntax == CP_OUT_YAML) {
        /* libyaml needs to know which kind ends; track via the JSON stack */
        yaml_event_t ev;
        bool map = o->depth > 0 && o->is_map[o->depth - 1];
        if (o->depth > 0)
            o->depth--;
        emit(o, &ev, map ? yaml_mapping_end_event_initialize(&ev) : yaml_sequence_end_event_initialize(&ev));
        return;
    }
    if (o->depth == 0) {
        o->failed = true;
        return;
    }
    o->depth--;
    if (!o->first[o->depth] && !o->flow[o->depth]) {
        cp_buf_putc(o->buf, '\n');
        for (int i = 0; i < o->depth; i++)
            cp_buf_puts(o->buf, "  ");
    }
    cp_buf_putc(o->buf, o->is_map[o->depth] ? '}' : ']');
}

/* plain_implicit, quoted_implicit: libyaml's flags saying that no tag is
 * needed when the scalar comes out plain, or quoted. */
static void yaml_scalar_as(cp_out *o, const char *s, yaml_scalar_style_t style, int plain_implicit,
                           int quoted_implicit)
{
    yaml_event_t ev;
    emit(o, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
                                              plain_implicit, quoted_implicit, style));
}

static void yaml_scalar(cp_out *o, const char *s, yaml_scalar_style_t style)
{
    yaml_scalar_as(o, s, style, 1, 1);
}

void cp_out_key(cp_out *o, const char *key)
{
    if (o->syntax == CP_OUT_YAML) {
        yaml_scalar(o, key, YAML_PLAIN_SCALAR_STYLE);
        return;
    }
    json_pre(o);
    json_string(o->buf, key);
    cp_buf_puts(o->buf, ": ");
    o->after_key = true;
}

/* A string: in YAML a scalar of that style and those flags (see
 * yaml_scalar_as), in JSON a quoted string. */
static void string_(cp_out *o, const char *s, yaml_scalar_style_t style, int plain_implicit,
                    int quoted_implicit)
{
    if (o->syntax == CP_OUT_YAML) {
        yaml_scalar_as(o, s, style, plain_implicit, quoted_implicit);
        return;
    }
    json_pre(o);
    json_string(o->buf, s);
}

void cp_out_str(cp_out *o, const char *s)
{
    /* libyaml quotes what plain syntax cannot carry; the meaning is ours */
    bool plain = o->syntax != CP_OUT_YAML || cp_yaml_plain_is_string(s);
    string_(o, s, plain ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE, 1, 1);
}

void cp_out_word(cp_out *o, const char *s)
{
    string_(o, s, YAML_PLAIN_SCALAR_STYLE, 1, 1);
}

void cp_out_scalar(cp_out *o, const char *s, bool quoted)
{
    if (quoted)
        string_(o, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE, 0, 1);
    else
        string_(o, s, YAML_PLAIN_SCALAR_STYLE, 1, 0);
}

static void raw(cp_out *o, const char *text)
{
    if (o->syntax == CP_OUT_YAML) {
        yaml_scalar(o, text, YAML_PLAIN_SCALAR_STYLE);
        return;
    }
    json_pre(o);
    cp_buf_puts(o->buf, text);
}

void cp_out_num(cp_out *o, double v)
{
    cp_out_num_exact(o, cp_num_fig(v));
}

void cp_out_num_exact(cp_out *o, double v)
{
    if (isnan(v) || isinf(v)) {
        raw(o, "null");
        return;
    }
    char tmp[40];
    cp_fmt_num_exact(tmp, sizeof tmp, v);
    raw(o, tmp);
}

void cp_out_int(cp_out *o, long v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%ld", v);
    raw(o, tmp);
}

void cp_out_null(cp_out *o)
{
    raw(o, "null");
}
