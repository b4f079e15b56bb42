/*
 * cp_node tree → YAML text through libyaml's emitter, for what-if inputs
 * written with `whatif --emit-inputs` that `plan` must read back to the
 * same input. Scalars keep their exact text, and their style says how
 * they were read: a plain scalar stays plain (so `2`, `1e-3`, `.inf` stay
 * numbers and `true` a boolean), a quoted or block scalar is written
 * double-quoted (always a string). Sequences of scalars go on one line.
 */
#include "cp_yaml.h"

#include <string.h>
#include <yaml.h>

typedef struct {
    yaml_emitter_t em;
    cp_buf *buf;
    bool failed;
} emit_ctx;

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    cp_buf *b = data;
    cp_buf_add(b, (const char *)buffer, size);
    return cp_buf_ok(b);
}

/* `ok` is the initializer's result; a failed one leaves nothing to free. */
static void emit(emit_ctx *c, yaml_event_t *ev, int ok)
{
    if (!ok || c->failed) {
        if (ok)
            yaml_event_delete(ev);
        c->failed = true;
        return;
    }
    if (!yaml_emitter_emit(&c->em, ev))
        c->failed = true;
}

static bool all_scalars(const cp_node *n)
{
    for (size_t i = 0; i < n->n; i++)
        if (n->kids[i]->kind != CP_NODE_SCALAR)
            return false;
    return true;
}

static void emit_node(emit_ctx *c, const cp_node *n)
{
    yaml_event_t ev;
    switch (n->kind) {
    case CP_NODE_SCALAR: {
        const char *s = n->str ? n->str : "";
        yaml_scalar_style_t st = n->quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE;
        emit(c, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
                                                  !n->quoted, n->quoted, st));
        break;
    }
    case CP_NODE_SEQ:
        emit(c, &ev, yaml_sequence_start_event_initialize(
                         &ev, NULL, NULL, 1,
                         n->n && all_scalars(n) ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
        for (size_t i = 0; i < n->n && !c->failed; i++)
            emit_node(c, n->kids[i]);
        emit(c, &ev, yaml_sequence_end_event_initialize(&ev));
        break;
    case CP_NODE_MAP:
        emit(c, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
        for (size_t i = 0; i < 2 * n->n && !c->failed; i++)
            emit_node(c, n->kids[i]);
        emit(c, &ev, yaml_mapping_end_event_initialize(&ev));
        break;
    }
}

int cp_yaml_emit(const cp_node *root, cp_buf *out, cp_err *err)
{
    emit_ctx c;
    memset(&c, 0, sizeof c);
    c.buf = out;
    if (!yaml_emitter_initialize(&c.em))
        return cp_err_nomem(err);
    yaml_emitter_set_output(&c.em, write_handler, out);
    yaml_emitter_set_unicode(&c.em, 1);
    yaml_emitter_set_width(&c.em, 100);
    yaml_event_t ev;
    emit(&c, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(&c, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
    emit_node(&c, root);
    emit(&c, &ev, yaml_document_end_event_initialize(&ev, 1));
    emit(&c, &ev, yaml_stream_end_event_initialize(&ev));
    if (!c.failed && !yaml_emitter_flush(&c.em))
        c.failed = true;
    bool nomem = c.em.error == YAML_MEMORY_ERROR || !cp_buf_ok(out);
    yaml_emitter_delete(&c.em);
    if (nomem)
        return cp_err_nomem(err);
    if (c.failed)
        return cp_err_set(err, CP_ERR_INTERNAL, cp_pos_none(), "cannot write YAML");
    return CP_OK;
}
