/*
 * Markdown text for people (what-if tables, export's launch.md): names
 * from the input are hostile, and a table must keep its columns and a
 * rendered page its markup whatever they hold.
 */
#ifndef CP_MD_H
#define CP_MD_H

#include "cp_buf.h"

/* Appends s as the text of a table cell or a list item: '|' (it would end
 * the cell), '\' and '`' (escape and code span) are backslash-escaped,
 * '<' and '&' (Markdown passes HTML through: "<img onerror=...>" would
 * be markup in the rendered page) become &lt; and &amp;, and control
 * characters (a newline would end the row) become spaces. */
void cp_md_text(cp_buf *b, const char *s);

#endif
