/*
 * CSV/TSV tables read with Debian's libcsv, keeping the line of every
 * row and the line and column of every field, so that errors and
 * warnings found later can say FILE:LINE:COLUMN.
 *
 * The whole file is read into one cp_csv that owns every string. The
 * first row is the header. A row whose field count differs from the
 * header's is kept as read; callers decide (the SkyPilot importer joins
 * a surplus into the last column, others skip the row with a warning).
 */
#ifndef CP_CSV_H
#define CP_CSV_H

#include "cp_buf.h"
#include "cp_err.h"

#include <stddef.h>

/* Limits of a table (docs/reliability.md), on top of the file size
 * (CP_FILE_MAX_BYTES): past them the reader stops with FILE:LINE. */
#define CP_CSV_MAX_COLS 1000
#define CP_CSV_MAX_ROWS 1000000
/* The largest magnitude cp_csv_number takes. */
#define CP_CSV_MAX_NUMBER 1e15

/* Where a field starts: its first byte as written (the opening quote of
 * a quoted field; blanks before it skipped), 1-based line and byte
 * column, the column counted in bytes from the start of the line as the
 * file holds it (a byte order mark included), which is what editors and
 * `sed -n` take; a field after one that spans lines is on a later line
 * than its row. */
typedef struct cp_csv_at {
    int line, col;
} cp_csv_at;

typedef struct cp_csv_row {
    char **f;  /* fields, NUL-terminated, never NULL */
    int n;     /* number of fields */
    int line;  /* 1-based line where the row starts */
    cp_csv_at *at; /* n positions, one per field (NULL in a row built by hand) */
} cp_csv_row;

typedef struct cp_csv {
    char *file; /* owned copy of the name used in positions */
    cp_csv_row head;
    cp_csv_row *rows; /* data rows, after the header */
    int n_rows;
} cp_csv;

/* Reads `path` with field separator `delim` (',' or '\t'); delim 0 picks
 * '\t' when the header line has a tab and no comma, else ','. A leading
 * '#' on the header line is dropped (Ernest's files have one), and header
 * names are trimmed, and a UTF-8 byte order mark before it is skipped.
 * Blank lines are skipped. Refused with FILE:LINE: a field holding a NUL,
 * a row of more than CP_CSV_MAX_COLS fields, more than CP_CSV_MAX_ROWS
 * rows, two header columns of one name. Returns CP_OK, CP_ERR_INPUT
 * (the file cannot be read, or is larger than CP_FILE_MAX_BYTES: see
 * cp_file_read; or it is malformed, e.g. an unterminated quote, with the
 * line) or CP_ERR_NOMEM. */
int cp_csv_read(const char *path, char delim, cp_csv **out, cp_err *err);
/* The same from memory; `name` is used in positions. */
int cp_csv_read_string(const char *name, const char *text, size_t len, char delim, cp_csv **out,
                       cp_err *err);
void cp_csv_free(cp_csv *csv);

/* Index of the header column named `name` (case-insensitive), -1 if none. */
int cp_csv_col(const cp_csv *csv, const char *name);
/* Field `col` of `row`, "" when the row is short or col < 0. */
const char *cp_csv_get(const cp_csv_row *row, int col);
/* Position of a row for errors (FILE:LINE). */
cp_pos cp_csv_pos(const cp_csv *csv, const cp_csv_row *row);
/* Position of field `field` of a row (FILE:LINE:COLUMN, cp_csv_at); the
 * row's when the row has no such field (a short row, field < 0). For
 * every message about one field. */
cp_pos cp_csv_field_pos(const cp_csv *csv, const cp_csv_row *row, int field);

/* Appends `s` as one field of a comma-separated row (RFC 4180): as it is,
 * or, when it holds a comma, a double quote, CR or LF, between double
 * quotes with each double quote doubled. NULL appends an empty field.
 * A text that a spreadsheet would run as a formula (it starts with =, +,
 * -, @, a tab or CR and is not a number) is written quoted with a
 * leading apostrophe, "'=SUM(A1)" (OWASP's CSV-injection rule). */
void cp_csv_put_field(cp_buf *b, const char *s);

/* Parses a whole field as a finite number (surrounding blanks allowed,
 * C locale, no hex, no inf/nan) of magnitude at most CP_CSV_MAX_NUMBER;
 * a subnormal (1e-308) is taken as it is. Returns 1 on success. */
int cp_csv_number(const char *s, double *out);

/* True when s[0..len) is well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing past U+10FFFF): the one test of the CSV reader
 * and of the YAML writers (cp_yaml_put.h). Reads no byte after a byte
 * that ends a sequence early, so a NUL inside s[0..len) stops it. */
bool cp_utf8_ok(const unsigned char *s, size_t len);

#endif
