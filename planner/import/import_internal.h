/* Shared by the importers (import_*.c); see cp_import.h. */
#ifndef CP_IMPORT_INTERNAL_H
#define CP_IMPORT_INTERNAL_H

#include "cp_buf.h"
#include "cp_err.h"

/* Hands the finished text b to the caller's out, whose old text is
 * released (cp_import.h: out changes only on success); b is left empty.
 * When an append to b failed, out is untouched and the failure is
 * reported in d: returns CP_ERR_NOMEM. */
static inline int import_deliver(cp_buf *b, cp_buf *out, cp_diags *d)
{
    if (!cp_buf_ok(b))
        return cp_diags_add(d, CP_ERR_NOMEM, cp_pos_none(), "out of memory");
    cp_buf_release(out);
    *out = *b;
    cp_buf_init(b);
    return CP_OK;
}

#endif
