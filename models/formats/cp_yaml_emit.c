/*
 * cp_node tree → YAML text, for what-if inputs written with `whatif
 * --emit-inputs` that `plan` must read back to the same input. Scalars
 * keep their exact text, and their style says how they were read: a
 * plain scalar stays plain (so `2`, `1e-3`, `.inf` stay numbers and
 * `true` a boolean), a quoted or block scalar is written double-quoted
 * (always a string). Sequences of scalars go on one line. The libyaml
 * emitter behind it is cp_out's (out.c), the project's one emitter glue.
 */
#include "cp_yaml.h"

#include "cp_out.h"

static bool all_scalars(const cp_node *n)
{
    for (size_t i = 0; i < n->n; i++)
        if (n->kids[i]->kind != CP_NODE_SCALAR)
            return false;
    return true;
}

static void emit_node(cp_out *o, const cp_node *n)
{
    switch (n->kind) {
    case CP_NODE_SCALAR:
        cp_out_scalar(o, n->str ? n->str : "", n->quoted);
        break;
    case CP_NODE_SEQ:
        cp_out_seq(o, n->n && all_scalars(n));
        for (size_t i = 0; i < n->n; i++)
            emit_node(o, n->kids[i]);
        cp_out_end(o);
        break;
    case CP_NODE_MAP:
        cp_out_map(o);
        for (size_t i = 0; i < 2 * n->n; i++)
            emit_node(o, n->kids[i]); /* keys too: cp_out_scalar writes them */
        cp_out_end(o);
        break;
    }
}

int cp_yaml_emit(const cp_node *root, cp_buf *out, cp_err *err)
{
    cp_out *o = cp_out_new(CP_OUT_YAML, out);
    if (o)
        emit_node(o, root);
    return cp_out_finish(o, err);
}
