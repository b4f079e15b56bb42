/*
 * CSV/TSV tables read with Debian's libcsv, keeping the line number of
 * every row so that errors found later can say FILE:LINE.
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

typedef struct cp_csv_row {
    char **f;  /* fields, NUL-terminated, never NULL */
    int n;     /* number of fields */
    int line;  /* 1-based line where the row starts */
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
 * names are trimmed. Blank lines are skipped. Returns CP_OK, CP_ERR_INPUT
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
/* Position of a row for errors. */
cp_pos cp_csv_pos(const cp_csv *csv, const cp_csv_row *row);

/* Appends `s` as one field of a comma-separated row (RFC 4180): as it is,
 * or, when it holds a comma, a double quote, CR or LF, between double
 * quotes with each double quote doubled. NULL appends an empty field. */
void cp_csv_put_field(cp_buf *b, const char *s);

/* Parses a whole field as a finite number (surrounding blanks allowed,
 * C locale, no hex, no inf/nan). Returns 1 on success. */
int cp_csv_number(const char *s, double *out);

#endif
