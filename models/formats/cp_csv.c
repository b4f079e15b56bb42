/*
 * CSV over libcsv (see cp_csv.h). libcsv reports fields and row ends but
 * no positions, so the text is fed in pieces that each end at the first
 * delimiter, CR or LF (libcsv ends a field only on one of those, outside
 * quotes, or at the end of the text): when a field arrives, the byte that
 * ended it is the last of the piece, and the next field starts right
 * after it. Its first byte is found from there by skipping the blanks
 * libcsv skips (and, before a row, the line ends of blank lines). When
 * the first field of a row arrives, the row started on the current line
 * minus the newlines inside that field (a quoted first field may span
 * lines).
 */
#include "cp_csv.h"

#include "cp_alloc.h"
#include "cp_file.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define STR_(x) #x
#define STR(x) STR_(x)

typedef struct reader {
    cp_csv *csv;
    cp_csv_row cur;
    size_t cur_cap;
    int line;   /* line being fed */
    const char *text; /* the whole text (after a byte order mark) */
    size_t len;
    char delim;
    bool ended;       /* a field ended in the piece being fed */
    size_t line_off;  /* offset in text of the line being fed */
    size_t next_off;  /* where the next field's text starts */
    int bom;          /* bytes of a byte order mark before text (line 1) */
    size_t at_cap;
    bool oom;
    const char *bad;  /* a limit or rule broken (message), at bad_line */
    int bad_line;
    bool have_head;
    size_t rows_cap;
} reader;

static void row_release(cp_csv_row *r)
{
    for (int i = 0; i < r->n; i++)
        cp_free(r->f[i]);
    cp_free(r->f);
    cp_free(r->at);
    r->f = NULL;
    r->at = NULL;
    r->n = 0;
}

/* Line and column of the field that starts at or after rd->next_off (see
 * the top of the file); `first` when it is the first of its row, before
 * which libcsv also skips the line ends of blank lines. */
static cp_csv_at field_start(const reader *rd, bool first)
{
    size_t s = rd->next_off;
    while (s < rd->len && (rd->text[s] == ' ' ||
                           (first && (rd->text[s] == '\r' || rd->text[s] == '\n'))))
        s++;
    /* blanks up to the end of the field: an empty field, which starts
     * where its text would (a row's first field is never empty here:
     * libcsv skips what holds nothing before a row) */
    if (!first && (s == rd->len || rd->text[s] == rd->delim || rd->text[s] == '\r' ||
                   rd->text[s] == '\n'))
        s = rd->next_off;
    cp_csv_at at = {rd->line, 0};
    size_t line_start = rd->line_off;
    if (s < rd->line_off) {
        /* a field that ends on a later line than it starts: count back */
        for (size_t k = s; k < rd->line_off; k++)
            at.line -= rd->text[k] == '\n';
        line_start = s;
        while (line_start > 0 && rd->text[line_start - 1] != '\n')
            line_start--;
    }
    at.col = (int)(s - line_start) + 1 + (at.line == 1 ? rd->bom : 0);
    return at;
}

bool cp_utf8_ok(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!n || i + n > len)
            return false;
        unsigned long cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
        for (size_t k = 1; k < n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        static const unsigned long min[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n;
    }
    return true;
}

static void on_field(void *data, size_t len, void *ctx)
{
    reader *rd = ctx;
    if (rd->oom || rd->bad)
        return;
    if (data && memchr(data, '\0', len)) {
        /* a C string would end there: "j\0x" would silently be job "j" */
        rd->bad = "a field contains a NUL character";
        rd->bad_line = rd->line;
        return;
    }
    if (data && !cp_utf8_ok(data, len)) {
        /* every name read here ends up in YAML, which is UTF-8 only: the
         * output would not load back (Latin-1 exports: convert first) */
        rd->bad = "a field is not valid UTF-8 (convert the file to UTF-8, e.g. with iconv)";
        rd->bad_line = rd->line;
        return;
    }
    if (rd->cur.n >= CP_CSV_MAX_COLS) {
        rd->bad = "a row has more than " STR(CP_CSV_MAX_COLS) " fields";
        rd->bad_line = rd->line;
        return;
    }
    if (rd->cur.n == 0) {
        int nl = 0;
        for (size_t i = 0; i < len; i++)
            nl += ((const char *)data)[i] == '\n';
        rd->cur.line = rd->line - nl;
    }
    char *s = cp_strndup(data ? data : "", data ? len : 0);
    if (!s || CP_GROW(rd->cur.f, rd->cur_cap, (size_t)rd->cur.n + 1) != 0 ||
        CP_GROW(rd->cur.at, rd->at_cap, (size_t)rd->cur.n + 1) != 0) {
        cp_free(s);
        rd->oom = true;
        return;
    }
    rd->cur.at[rd->cur.n] = field_start(rd, rd->cur.n == 0);
    rd->cur.f[rd->cur.n++] = s;
    rd->ended = true;
}

static void on_row(int c, void *ctx)
{
    (void)c;
    reader *rd = ctx;
    if (rd->oom || rd->bad) {
        row_release(&rd->cur);
        rd->cur_cap = rd->at_cap = 0;
        return;
    }
    /* A row of one empty field is a blank line (libcsv already skips
     * most; a line of spaces still arrives this way). */
    if (rd->cur.n == 0 || (rd->cur.n == 1 && rd->cur.f[0][0] == '\0')) {
        row_release(&rd->cur);
        rd->cur_cap = rd->at_cap = 0;
        return;
    }
    cp_csv *csv = rd->csv;
    if (!rd->have_head) {
        csv->head = rd->cur;
        rd->have_head = true;
    } else {
        if (csv->n_rows >= CP_CSV_MAX_ROWS) {
            rd->bad = "more than " STR(CP_CSV_MAX_ROWS) " data rows";
            rd->bad_line = rd->cur.line;
            row_release(&rd->cur);
            rd->cur_cap = 0;
            return;
        }
        if (CP_GROW(csv->rows, rd->rows_cap, (size_t)csv->n_rows + 1) != 0) {
            rd->oom = true;
            row_release(&rd->cur);
            rd->cur_cap = 0;
            return;
        }
        csv->rows[csv->n_rows++] = rd->cur;
    }
    memset(&rd->cur, 0, sizeof rd->cur);
    rd->cur_cap = rd->at_cap = 0;
}

static int is_blank(unsigned char c)
{
    return c == ' ';
}

static char *trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (isspace((unsigned char)s[i]))
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
    return s;
}

int cp_csv_read_string(const char *name, const char *text, size_t len, char delim, cp_csv **out,
                       cp_err *err)
{
    int rc = CP_OK;
    struct csv_parser p;
    bool p_init = false;
    reader rd;
    memset(&rd, 0, sizeof rd);
    cp_csv *csv = cp_calloc(1, sizeof *csv);
    if (!csv || !(csv->file = cp_strdup(name))) {
        rc = cp_err_nomem(err);
        goto out;
    }
    rd.csv = csv;
    /* Excel writes a UTF-8 byte order mark first: it is not part of the
     * first column's name. */
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        text += 3;
        len -= 3;
        rd.bom = 3;
    }
    rd.text = text;
    rd.len = len;
    if (delim == 0) {
        const char *eol = memchr(text, '\n', len);
        size_t hl = eol ? (size_t)(eol - text) : len;
        bool tab = memchr(text, '\t', hl) != NULL, comma = memchr(text, ',', hl) != NULL;
        delim = tab && !comma ? '\t' : ',';
    }
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        rc = cp_err_nomem(err);
        goto out;
    }
    p_init = true;
    csv_set_delim(&p, (unsigned char)delim);
    rd.delim = delim;
    /* Only spaces are trimmed: a tab may be the delimiter. */
    csv_set_space_func(&p, is_blank);

    size_t pos = 0;
    rd.line = 0;
    char stops[4] = {delim, '\r', '\n', '\0'};
    while (pos < len) {
        const char *eol = memchr(text + pos, '\n', len - pos);
        size_t end = eol ? (size_t)(eol - text) + 1 : len;
        rd.line++;
        rd.line_off = pos;
        /* the line in pieces, each ending at a delimiter, CR or LF */
        for (size_t at = pos; at < end;) {
            size_t k = at;
            while (k < end && !memchr(stops, text[k], 3))
                k++;
            size_t stop = k < end ? k + 1 : end;
            /* a NUL in the text ends no piece: it is refused in on_field */
            if (csv_parse(&p, text + at, stop - at, on_field, on_row, &rd) != stop - at) {
                rc = cp_err_set(err, CP_ERR_INPUT, (cp_pos){csv->file, rd.line, 0}, "%s",
                                csv_strerror(csv_error(&p)));
                goto out;
            }
            if (rd.ended)
                rd.next_off = stop;
            rd.ended = false;
            at = stop;
        }
        if (rd.oom) {
            rc = cp_err_nomem(err);
            goto out;
        }
        if (rd.bad) {
            rc = cp_err_set(err, CP_ERR_INPUT, (cp_pos){csv->file, rd.bad_line, 0}, "%s", rd.bad);
            goto out;
        }
        pos = end;
    }
    /* libcsv reports an unterminated quote only in its strict mode, which
     * would also reject the stray quotes real catalogs contain; its
     * public state tells us instead (2 is FIELD_BEGUN in libcsv.c). */
    if ((p.quoted && p.pstate == 2) || csv_fini(&p, on_field, on_row, &rd) != 0) {
        rc = cp_err_set(err, CP_ERR_INPUT, (cp_pos){csv->file, rd.cur.line ? rd.cur.line : rd.line, 0},
                        "unterminated quoted field");
        goto out;
    }
    if (rd.oom) {
        rc = cp_err_nomem(err);
        goto out;
    }
    if (rd.bad) {
        rc = cp_err_set(err, CP_ERR_INPUT, (cp_pos){csv->file, rd.bad_line, 0}, "%s", rd.bad);
        goto out;
    }
    if (!rd.have_head) {
        rc = cp_err_set(err, CP_ERR_INPUT, (cp_pos){csv->file, 0, 0}, "no header row");
        goto out;
    }
    for (int i = 0; i < csv->head.n; i++) {
        char *h = csv->head.f[i];
        if (i == 0 && h[0] == '#')
            memmove(h, h + 1, strlen(h));
        trim(h);
    }
    /* Two columns of one name: every reader would take the first and
     * ignore the other without a word. */
    for (int i = 0; i < csv->head.n; i++)
        for (int k = 0; k < i; k++)
            if (csv->head.f[i][0] && strcasecmp(csv->head.f[i], csv->head.f[k]) == 0) {
                rc = cp_err_set(err, CP_ERR_INPUT, (cp_pos){csv->file, csv->head.line, 0},
                                "duplicate column '%s' (columns %d and %d)", csv->head.f[i], k + 1,
                                i + 1);
                goto out;
            }
    *out = csv;
    csv = NULL;
out:
    if (p_init)
        csv_free(&p);
    row_release(&rd.cur);
    cp_csv_free(csv);
    return rc;
}

int cp_csv_read(const char *path, char delim, cp_csv **out, cp_err *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = cp_file_read(path, "CSV", &text, &len, err);
    if (rc == CP_OK)
        rc = cp_csv_read_string(path, text, len, delim, out, err);
    cp_free(text);
    return rc;
}

void cp_csv_free(cp_csv *csv)
{
    if (!csv)
        return;
    row_release(&csv->head);
    for (int i = 0; i < csv->n_rows; i++)
        row_release(&csv->rows[i]);
    cp_free(csv->rows);
    cp_free(csv->file);
    cp_free(csv);
}

int cp_csv_col(const cp_csv *csv, const char *name)
{
    for (int i = 0; i < csv->head.n; i++)
        if (strcasecmp(csv->head.f[i], name) == 0)
            return i;
    return -1;
}

const char *cp_csv_get(const cp_csv_row *row, int col)
{
    return col >= 0 && col < row->n ? row->f[col] : "";
}

cp_pos cp_csv_pos(const cp_csv *csv, const cp_csv_row *row)
{
    cp_pos p = {csv->file, row->line, 0};
    return p;
}

cp_pos cp_csv_field_pos(const cp_csv *csv, const cp_csv_row *row, int field)
{
    if (field < 0 || field >= row->n || !row->at)
        return cp_csv_pos(csv, row);
    cp_pos p = {csv->file, row->at[field].line, row->at[field].col};
    return p;
}

void cp_csv_put_field(cp_buf *b, const char *s)
{
    if (!s)
        return;
    /* OWASP's CSV-injection rule: a spreadsheet runs a cell that starts
     * with = + - @ (or a tab or CR before one) as a formula, so such a
     * text gets a leading apostrophe, which makes it text again. Numbers
     * ("-3.5", "+1e3") are left as they are: they are not formulas. */
    double num;
    bool formula = s[0] && strchr("=+-@\t\r", s[0]) && !cp_csv_number(s, &num);
    if (!formula && !strpbrk(s, ",\"\n\r")) {
        cp_buf_puts(b, s);
        return;
    }
    cp_buf_putc(b, '"');
    if (formula)
        cp_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '"')
            cp_buf_putc(b, '"');
        cp_buf_putc(b, *s);
    }
    cp_buf_putc(b, '"');
}

int cp_csv_number(const char *s, double *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return 0;
    /* strtod would take hex, inf and nan, none of which is a measurement. */
    for (const char *c = s; *c; c++)
        if (!strchr("0123456789+-.eE \t\r", *c))
            return 0;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    /* ERANGE also means underflow: 1e-308 is a subnormal number, and
     * a measurement that small is taken as the value strtod gives. */
    if (end == s || *end || !isfinite(v) || (errno == ERANGE && fabs(v) > DBL_MIN))
        return 0;
    /* The range every table value must be in (docs/reliability.md): what
     * is derived from it (sums, Ernest's θ, prices of add-ons) then stays
     * finite, so fit and import never write a value the loader refuses. */
    if (fabs(v) > CP_CSV_MAX_NUMBER)
        return 0;
    *out = v;
    return 1;
}
