/* Markdown text (see cp_md.h). */
#include "cp_md.h"

void cp_md_text(cp_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<')
            cp_buf_puts(b, "&lt;");
        else if (c == '&')
            cp_buf_puts(b, "&amp;");
        else if (c == '|' || c == '\\' || c == '`')
            cp_buf_printf(b, "\\%c", c);
        else
            cp_buf_putc(b, c < 0x20 || c == 0x7f ? ' ' : (char)c);
    }
}
