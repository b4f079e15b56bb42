/* YAML fragment writing helpers (see cp_yaml_put.h). */
#include "cp_yaml_put.h"

#include "cp_csv.h"
#include "cp_yaml.h"

#include <math.h>
#include <stdio.h>

#include <ctype.h>
#include <string.h>
#include <strings.h>

static bool looks_like_number(const char *s)
{
    /* The core schema's numbers, generously: anything that starts like one
     * is quoted, which is always safe. */
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (*p == '.')
        p++;
    return isdigit((unsigned char)*p) || strcasecmp(p, "inf") == 0 || strcasecmp(p, "nan") == 0;
}

/* The length of a character YAML 1.1 (libyaml) reads as a line break
 * or a byte order mark at p: NEL U+0085, LS U+2028, PS U+2029, BOM
 * U+FEFF; 0 for any other. Such a character in a plain scalar or a
 * comment would end the line there, and the rest would be read as YAML. */
static size_t yaml_break_len(const unsigned char *p)
{
    if (p[0] == 0xc2 && p[1] == 0x85)
        return 2;
    if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
        return 3;
    if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
        return 3;
    return 0;
}

static bool has_yaml_break(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p >= 0xc2 && yaml_break_len(p))
            return true;
    return false;
}

void cp_yaml_put_comment(cp_buf *b, const char *text)
{
    cp_buf_puts(b, "# ");
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        size_t k = *p >= 0xc2 ? yaml_break_len(p) : 0;
        if (k) {
            unsigned cp = p[0] == 0xc2 ? 0x85 : p[2] == 0xa8 ? 0x2028 : p[2] == 0xa9 ? 0x2029 : 0xfeff;
            cp_buf_printf(b, "\\u%04x", cp);
            p += k - 1;
        } else if (*p < 0x20 || *p == 0x7f) {
            cp_buf_printf(b, "\\x%02x", *p);
        } else if (*p >= 0x80) {
            /* libyaml refuses a whole document for one byte of invalid
             * UTF-8, even in a comment (a non-UTF-8 file name in an
             * importer's first line did that): such a byte is written
             * as \xNN, a valid sequence as it is */
            size_t n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
            if (n > 1 && cp_utf8_ok(p, n)) {
                cp_buf_add(b, (const char *)p, n);
                p += n - 1;
            } else {
                cp_buf_printf(b, "\\x%02x", *p);
            }
        } else {
            cp_buf_putc(b, (char)*p);
        }
    }
    cp_buf_putc(b, '\n');
}

bool cp_yaml_plain_is_string(const char *s)
{
    /* YAML 1.1's booleans: strings to us, not to older readers. */
    static const char *const yaml11[] = {"yes", "no", "on", "off", "y", "n",
                                         "Yes", "No", "On", "Off", NULL};
    cp_node n;
    memset(&n, 0, sizeof n);
    n.kind = CP_NODE_SCALAR;
    n.str = (char *)s;
    double d;
    bool b;
    if (!*s || has_yaml_break(s) || cp_scalar_is_null(&n) || cp_scalar_bool(&n, &b) || cp_scalar_number(&n, &d) ||
        looks_like_number(s))
        return false;
    for (int i = 0; yaml11[i]; i++)
        if (strcmp(s, yaml11[i]) == 0)
            return false;
    return true;
}

bool cp_yaml_plain_ok(const char *s)
{
    if (!cp_yaml_plain_is_string(s))
        return false;
    /* Indicators that may not start a plain scalar. */
    if (strchr("-?:,[]{}#&*!|>'\"%@`", s[0]))
        return false;
    size_t n = strlen(s);
    if (isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]))
        return false;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        /* ": " and " #" change meaning; flow indicators break flow
         * collections; control characters need escapes. */
        if (c < 0x20 || c == 0x7f || strchr(",[]{}\"'", c))
            return false;
        if (c == ':' && (p[1] == ' ' || p[1] == '\0'))
            return false;
        if (c == '#' && p > s && p[-1] == ' ')
            return false;
    }
    return true;
}

void cp_yaml_put_str(cp_buf *b, const char *s)
{
    if (cp_yaml_plain_ok(s)) {
        cp_buf_puts(b, s);
        return;
    }
    cp_buf_putc(b, '"');
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            cp_buf_putc(b, '\\');
            cp_buf_putc(b, (char)c);
        } else if (c == '\n') {
            cp_buf_puts(b, "\\n");
        } else if (c == '\t') {
            cp_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            cp_buf_printf(b, "\\x%02x", c);
        } else if (c >= 0xc2 && yaml_break_len((const unsigned char *)p)) {
            /* YAML's own escapes: written raw they are line breaks */
            size_t k = yaml_break_len((const unsigned char *)p);
            cp_buf_puts(b, c == 0xc2 ? "\\N" : (unsigned char)p[2] == 0xa8 ? "\\L"
                                           : (unsigned char)p[2] == 0xa9 ? "\\P" : "\\ufeff");
            p += k - 1;
        } else {
            cp_buf_putc(b, (char)c);
        }
    }
    cp_buf_putc(b, '"');
}

void cp_yaml_fmt_num(char *out, size_t size, double v)
{
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
        snprintf(out, size, "%.0f", v == 0 ? 0.0 : v);
    else
        cp_fmt_num(out, size, v);
}

void cp_yaml_put_num(cp_buf *b, double v)
{
    char t[48];
    cp_yaml_fmt_num(t, sizeof t, v);
    cp_buf_puts(b, t);
}

void cp_yaml_indent(cp_buf *b, int n)
{
    for (int i = 0; i < n; i++)
        cp_buf_putc(b, ' ');
}

static void put_scalar(cp_buf *b, const cp_node *n)
{
    /* A plain scalar keeps its meaning (a number stays a number); a
     * quoted one stays a string. */
    if (n->quoted)
        cp_yaml_put_str(b, n->str);
    else if (!n->str[0])
        cp_buf_puts(b, "null");
    else
        cp_buf_puts(b, n->str);
}

void cp_yaml_put_value(cp_buf *b, const cp_node *n, int indent)
{
    if (n->kind == CP_NODE_SCALAR) {
        cp_buf_putc(b, ' ');
        put_scalar(b, n);
        cp_buf_putc(b, '\n');
        return;
    }
    if (n->n == 0) {
        cp_buf_puts(b, n->kind == CP_NODE_SEQ ? " []\n" : " {}\n");
        return;
    }
    cp_buf_putc(b, '\n');
    for (size_t i = 0; i < n->n; i++) {
        cp_yaml_indent(b, indent);
        if (n->kind == CP_NODE_SEQ) {
            cp_buf_putc(b, '-');
            cp_yaml_put_value(b, n->kids[i], indent + 2);
        } else {
            const cp_node *k = n->kids[2 * i];
            if (k->kind == CP_NODE_SCALAR)
                put_scalar(b, k);
            else
                cp_buf_puts(b, "\"?\""); /* complex keys never occur in our inputs */
            cp_buf_putc(b, ':');
            cp_yaml_put_value(b, n->kids[2 * i + 1], indent + 2);
        }
    }
}
